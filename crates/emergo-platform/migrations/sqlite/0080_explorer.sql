-- Issue 22: the opening explorer (src/domain/explorer.rs). For each position of the first 60
-- plies of every finished game, keyed by its Zobrist hash (transpositions merge), and each split
-- of source, speed and rating band: the position's own totals (`move` empty) and each move's.
CREATE TABLE explorer_stats (
    hash BIGINT NOT NULL,
    source TEXT NOT NULL,
    speed TEXT NOT NULL,
    band TEXT NOT NULL,
    move TEXT NOT NULL,
    white BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    black BIGINT NOT NULL,
    rating_sum BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    PRIMARY KEY (hash, source, speed, band, move)
);

-- The latest stored games through each position and split (the newest 8 kept of each).
CREATE TABLE explorer_recent (
    hash BIGINT NOT NULL,
    source TEXT NOT NULL,
    speed TEXT NOT NULL,
    band TEXT NOT NULL,
    game_id TEXT NOT NULL,
    -- When the game finished, and the average of its players' ratings (NULL: not both rated).
    at TEXT NOT NULL,
    rating BIGINT,
    PRIMARY KEY (hash, source, speed, band, game_id)
);

-- When a finished game was indexed (also set, with no rows, for a game the explorer skips: an
-- aborted one). Set first in the indexing transaction, guarded by being unset, so that of two
-- instances indexing one game exactly one counts it; the catch-up reads the unset ones.
ALTER TABLE games ADD COLUMN explorer_at TEXT;
CREATE INDEX games_explorer_pending ON games (seq) WHERE result IS NOT NULL AND explorer_at IS NULL;

-- The records indexed from files (`emergo explorer import`), once each: the SHA-256 of the
-- record's start, moves and result.
CREATE TABLE explorer_records (
    key TEXT PRIMARY KEY,
    at TEXT NOT NULL
);
