-- Issue 17. A correspondence seek expires a week after it was made (it used to stay until taken
-- or withdrawn: NULL); a seek keeps the address it was made from; a rated game whose two players
-- came from one address names that address, for the ratings' limits (docs/api.md "Ratings").
UPDATE seeks SET expires_at = CAST(EXTRACT(EPOCH FROM now()) AS BIGINT) + 604800
    WHERE expires_at IS NULL AND game_id IS NULL;
ALTER TABLE seeks ADD COLUMN client TEXT;
CREATE INDEX seeks_open ON seeks (created_at) WHERE game_id IS NULL;

CREATE TABLE shared_client_games (
    game_id    TEXT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    client     TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE INDEX shared_client_games_by_client ON shared_client_games (client, created_at);
