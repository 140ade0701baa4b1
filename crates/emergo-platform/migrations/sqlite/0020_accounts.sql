-- Accounts, their sessions, ratings and seeks (issue 11). A password is stored only as an
-- argon2id hash, a session's token only as its SHA-256 hash. A deleted account keeps its row
-- (its games still point at it, shown as "deleted player") but loses its name key, password and
-- sessions, so that its name is free again.
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL,
    name_key      TEXT    UNIQUE,
    password_hash TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    deleted_at    TEXT
);

CREATE TABLE sessions (
    token_hash TEXT    PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at TEXT    NOT NULL
) WITHOUT ROWID;

CREATE INDEX sessions_by_account ON sessions (account_id);

-- Who plays a game between accounts, and the rating category it counts in (NULL: unrated).
ALTER TABLE games ADD COLUMN white_account INTEGER REFERENCES accounts (id);
ALTER TABLE games ADD COLUMN black_account INTEGER REFERENCES accounts (id);
ALTER TABLE games ADD COLUMN rated TEXT
    CHECK (rated IS NULL OR rated IN ('blitz', 'rapid', 'classical', 'correspondence'));

CREATE INDEX games_by_white_account ON games (white_account, seq);
CREATE INDEX games_by_black_account ON games (black_account, seq);

-- One rating per account and category.
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    category   TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    rd         REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (account_id, category)
);

-- A rated game's effect, once: the primary key makes a second settlement of one game
-- impossible to store (both players resigning at once, two instances, a sweep after a restart).
CREATE TABLE rated_games (
    game_id    TEXT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    settled_at TEXT NOT NULL
);

-- Each player's rating after each rated game (the player page's chart).
CREATE TABLE rating_history (
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    category   TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    rd         REAL    NOT NULL,
    at         TEXT    NOT NULL,
    PRIMARY KEY (game_id, account_id)
);

CREATE INDEX rating_history_by_account ON rating_history (account_id, at);

-- Seeks (open to anyone) and challenges (to one named account). `expires_at` (Unix seconds)
-- is pushed on while the owner is around; NULL for correspondence. `game_id` is set once, by
-- the one acceptance the guarded update lets through.
CREATE TABLE seeks (
    id           TEXT    PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    time_control TEXT    NOT NULL,
    rated        INTEGER NOT NULL,
    color        TEXT    NOT NULL CHECK (color IN ('white', 'black', 'random')),
    opponent_id  INTEGER REFERENCES accounts (id) ON DELETE CASCADE,
    game_id      TEXT,
    created_at   TEXT    NOT NULL,
    expires_at   INTEGER,
    accepted_at  INTEGER
);

CREATE INDEX seeks_by_account ON seeks (account_id);
