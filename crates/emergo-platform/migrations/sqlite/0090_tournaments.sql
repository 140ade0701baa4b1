-- Issue 23: tournaments (docs/api.md "Tournaments"): arena, Swiss, round robin. A tournament's
-- `round` moves on only by a guarded update (compare-and-set) in the same transaction that
-- stores the round's games, so that of two instances pairing it, exactly one does; a restart
-- loses nothing (the games are stored; the next look pairs what is due). An arena counts its
-- pairing batches in `round`.
CREATE TABLE tournaments (
    id                TEXT    PRIMARY KEY,
    name              TEXT    NOT NULL,
    format            TEXT    NOT NULL CHECK (format IN ('arena', 'swiss', 'roundrobin')),
    time_control      TEXT    NOT NULL,
    variant           TEXT    NOT NULL,
    rated             BOOLEAN NOT NULL,
    rounds            INTEGER,
    minutes           INTEGER,
    games_per_pairing INTEGER NOT NULL CHECK (games_per_pairing IN (1, 2)),
    max_players       INTEGER NOT NULL,
    password_hash     TEXT,
    creator_id        INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    status            TEXT    NOT NULL CHECK (status IN ('created', 'started', 'finished')),
    round             INTEGER NOT NULL DEFAULT 0,
    starts_at         INTEGER NOT NULL,
    started_at        INTEGER,
    created_at        TEXT    NOT NULL,
    finished_at       TEXT
);

CREATE INDEX tournaments_by_status ON tournaments (status, starts_at);

CREATE TABLE tournament_players (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    account_id    INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    seed          INTEGER NOT NULL,
    joined_at     TEXT    NOT NULL,
    withdrawn_at  TEXT,
    PRIMARY KEY (tournament_id, account_id)
);

CREATE TABLE tournament_games (
    game_id       TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    white_id      INTEGER NOT NULL,
    black_id      INTEGER NOT NULL
);

CREATE INDEX tournament_games_by_tournament ON tournament_games (tournament_id, round);

-- A round's bye (Swiss), or a game won by forfeit (a round robin's withdrawn opponent).
CREATE TABLE tournament_byes (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    account_id    INTEGER NOT NULL,
    points        INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, account_id)
);
