-- Every change to a game bumps its version; a write names the version it was decided on and is
-- refused when another writer (another server instance) changed the game meanwhile.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
