-- Issues 20 and 22: the opening explorer on every board. The board (`emergo`, `7x7`, `hex`: the
-- short names of emergo_core::VariantKind, as games.variant) leads the key of the statistics and
-- of the latest games, so that positions of two boards never share a row whatever their hashes.
-- Every row before it is the 9×9 board's. SQLite cannot change a primary key: each table is made
-- again under its key and its rows copied.
CREATE TABLE explorer_stats_by_variant (
    variant TEXT NOT NULL,
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
    PRIMARY KEY (variant, hash, source, speed, band, move)
);
INSERT INTO explorer_stats_by_variant
    (variant, hash, source, speed, band, move, white, draws, black, rating_sum, rated)
SELECT 'emergo', hash, source, speed, band, move, white, draws, black, rating_sum, rated
FROM explorer_stats;
DROP TABLE explorer_stats;
ALTER TABLE explorer_stats_by_variant RENAME TO explorer_stats;

CREATE TABLE explorer_recent_by_variant (
    variant TEXT NOT NULL,
    hash BIGINT NOT NULL,
    source TEXT NOT NULL,
    speed TEXT NOT NULL,
    band TEXT NOT NULL,
    game_id TEXT NOT NULL,
    at TEXT NOT NULL,
    rating BIGINT,
    PRIMARY KEY (variant, hash, source, speed, band, game_id)
);
INSERT INTO explorer_recent_by_variant
    (variant, hash, source, speed, band, game_id, at, rating)
SELECT 'emergo', hash, source, speed, band, game_id, at, rating
FROM explorer_recent;
DROP TABLE explorer_recent;
ALTER TABLE explorer_recent_by_variant RENAME TO explorer_recent;

-- The games of the other boards were marked indexed with no rows (the explorer was the 9×9
-- board's): unmarked, the catch-up indexes them.
UPDATE games SET explorer_at = NULL WHERE variant <> 'emergo' AND explorer_at IS NOT NULL;
