-- Issue 18: notifications, per account (docs/api.md "Notifications"): a correspondence move
-- made it the account's turn, a challenge came, a game started (a seek taken, a challenge
-- accepted), a correspondence game ended. An account keeps its newest ones only (the insert
-- prunes the rest, src/notify.rs); they go with the account.
CREATE TABLE notifications (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind         TEXT    NOT NULL CHECK (kind IN ('turn', 'challenge', 'started', 'ended')),
    game_id      TEXT,
    seek_id      TEXT,
    other        TEXT,
    time_control TEXT,
    outcome      TEXT,
    reason       TEXT,
    created_at   TEXT    NOT NULL,
    read_at      TEXT
);

CREATE INDEX notifications_by_account ON notifications (account_id, id);
