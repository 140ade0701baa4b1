-- Issue 21: the rules course's progress of a signed-in player (docs/api.md "Learn"): which
-- exercises the account has solved (exercise numbers from 1, as in the judge's path). The
-- lessons themselves are data (crates/emergo-platform/data/course.toml), not rows; a row whose
-- lesson the course no longer has is ignored. The rows go with the account.
CREATE TABLE learn_progress (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    lesson     TEXT    NOT NULL,
    exercise   INTEGER NOT NULL CHECK (exercise >= 1),
    solved_at  TEXT    NOT NULL,
    PRIMARY KEY (account_id, lesson, exercise)
);
