-- Issue 21: votes on puzzles, the daily puzzle, storm runs.
-- A vote is an account's up or down on a puzzle it has tried, one an account (changed by voting
-- again); the puzzle keeps the counts, and `next`, the daily puzzle and the runs leave out a
-- puzzle whose down votes lead its up votes by 5 or more (retired; docs/api.md "Puzzles").
ALTER TABLE puzzles ADD COLUMN votes_up INTEGER NOT NULL DEFAULT 0;
ALTER TABLE puzzles ADD COLUMN votes_down INTEGER NOT NULL DEFAULT 0;

CREATE TABLE puzzle_votes (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    puzzle_id  TEXT    NOT NULL REFERENCES puzzles (id),
    up         BOOLEAN NOT NULL,
    at         TEXT    NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);

-- The puzzle of each day (UTC, YYYY-MM-DD): chosen by the first request of the day on any
-- instance, and the same for everyone.
CREATE TABLE puzzle_daily (
    day       TEXT NOT NULL PRIMARY KEY,
    puzzle_id TEXT NOT NULL REFERENCES puzzles (id)
);

-- An account's storm runs (3 minutes of puzzles; the page keeps the clock and reports the run).
CREATE TABLE storm_runs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    at         TEXT    NOT NULL,
    score      INTEGER NOT NULL,
    moves      INTEGER NOT NULL,
    errors     INTEGER NOT NULL,
    best_combo INTEGER NOT NULL,
    seconds    INTEGER NOT NULL
);

CREATE INDEX storm_runs_by_account ON storm_runs (account_id, score);
