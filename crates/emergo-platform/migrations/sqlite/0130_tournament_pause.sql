-- Issue 23: an arena player pauses (no more pairings, its score kept) and comes back by joining
-- again; a withdrawal once the tournament has started is for good.
ALTER TABLE tournament_players ADD COLUMN paused_at TEXT;
