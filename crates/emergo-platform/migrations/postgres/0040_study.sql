-- Studying games (issue 12): a finished game's review, kept with the game (with the moves it
-- is of: a review of other moves, a game taken back since, is not shown), and an imported game's
-- record text, so that its export keeps the record's variations and comments.
CREATE TABLE reviews (
    game_id    TEXT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    moves      TEXT NOT NULL,
    review     TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE records (
    game_id TEXT NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    record  TEXT NOT NULL
);
