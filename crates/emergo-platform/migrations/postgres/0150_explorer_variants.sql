-- Issues 20 and 22: the opening explorer on every board. The board (`emergo`, `7x7`, `hex`: the
-- short names of emergo_core::VariantKind, as games.variant) leads the key of the statistics and
-- of the latest games, so that positions of two boards never share a row whatever their hashes.
-- Every row before it is the 9×9 board's.
ALTER TABLE explorer_stats ADD COLUMN variant TEXT NOT NULL DEFAULT 'emergo';
ALTER TABLE explorer_stats ALTER COLUMN variant DROP DEFAULT;
ALTER TABLE explorer_stats DROP CONSTRAINT explorer_stats_pkey;
ALTER TABLE explorer_stats ADD PRIMARY KEY (variant, hash, source, speed, band, move);

ALTER TABLE explorer_recent ADD COLUMN variant TEXT NOT NULL DEFAULT 'emergo';
ALTER TABLE explorer_recent ALTER COLUMN variant DROP DEFAULT;
ALTER TABLE explorer_recent DROP CONSTRAINT explorer_recent_pkey;
ALTER TABLE explorer_recent ADD PRIMARY KEY (variant, hash, source, speed, band, game_id);

-- The games of the other boards were marked indexed with no rows (the explorer was the 9×9
-- board's): unmarked, the catch-up indexes them.
UPDATE games SET explorer_at = NULL WHERE variant <> 'emergo' AND explorer_at IS NOT NULL;
