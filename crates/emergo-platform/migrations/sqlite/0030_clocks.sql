-- Time controls and server-owned clocks (docs/api.md, "Time controls"). A timed game has its
-- time control ("3+2", "corr:3"); each side's time left when its turn began (milliseconds);
-- when the turn of the side to move began and when its flag falls (milliseconds since 1970),
-- both NULL while the clock does not run. The sweep of overdue games reads flag_at_ms.
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE games ADD COLUMN white_ms INTEGER;
ALTER TABLE games ADD COLUMN black_ms INTEGER;
ALTER TABLE games ADD COLUMN turn_started_ms INTEGER;
ALTER TABLE games ADD COLUMN flag_at_ms INTEGER;

CREATE INDEX games_by_flag ON games (flag_at_ms) WHERE flag_at_ms IS NOT NULL AND result IS NULL;
