-- Issue 21: puzzles from engine games (emergo puzzles generate), loaded from the shipped file
-- crates/emergo-platform/data/puzzles.jsonl into an empty table at first start. Each puzzle has
-- a Glicko-2 rating of its own; an attempt is one rated game between the puzzle and an account
-- (docs/api.md "Puzzles"). Anonymous attempts are not stored.
CREATE TABLE puzzles (
    id           TEXT    PRIMARY KEY,
    variant      TEXT    NOT NULL,
    position     TEXT    NOT NULL,
    -- The line, N1 moves separated by spaces; the themes, separated by spaces; the
    -- alternatives as the generator's JSON.
    line         TEXT    NOT NULL,
    themes       TEXT    NOT NULL,
    alternatives TEXT    NOT NULL,
    rating       REAL    NOT NULL,
    rd           REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    attempts     INTEGER NOT NULL
);

CREATE INDEX puzzles_by_rating ON puzzles (variant, rating);

-- An account's first attempt of a puzzle: the rated one (replays are not stored again).
CREATE TABLE puzzle_attempts (
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    puzzle_id    TEXT    NOT NULL REFERENCES puzzles (id),
    win          BOOLEAN NOT NULL,
    rating_after REAL    NOT NULL,
    at           TEXT    NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);

-- An account's puzzle rating (Glicko-2, 1500 / 350 / 0.06 before a first attempt).
CREATE TABLE puzzle_ratings (
    account_id INTEGER NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    rating     REAL    NOT NULL,
    rd         REAL    NOT NULL,
    volatility REAL    NOT NULL,
    attempts   INTEGER NOT NULL,
    updated_at TEXT    NOT NULL
);
