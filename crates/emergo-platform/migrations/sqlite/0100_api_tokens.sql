-- Issue 24: personal API tokens and bot accounts (docs/api.md "API tokens", docs/bots.md).
-- A token is kept as the SHA-256 hash of its text, with its scopes (space-separated names);
-- revoking it stamps revoked_at (its row stays, so the list can say so). A bot account is
-- marked once and for good; a seek says whether bots may take it.
CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    token_hash   TEXT    NOT NULL UNIQUE,
    scopes       TEXT    NOT NULL,
    description  TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    revoked_at   TEXT
);

CREATE INDEX api_tokens_by_account ON api_tokens (account_id, id);

ALTER TABLE accounts ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE seeks ADD COLUMN allow_bots BOOLEAN NOT NULL DEFAULT FALSE;
