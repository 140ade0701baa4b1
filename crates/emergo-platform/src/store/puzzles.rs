//! The puzzles' part of the database (issue 21, migrations 0075 and 0140), each method written
//! once for both backends (see the module text of store/mod.rs): the puzzles with their ratings
//! and votes, the accounts' rated attempts, the accounts' puzzle ratings, the daily puzzle and
//! the storm runs.

use super::{Store, StoreError};
use crate::domain::rating::Rating;

/// A stored puzzle.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PuzzleRow {
    pub id: String,
    pub variant: String,
    pub position: String,
    /// N1 moves separated by spaces.
    pub line: String,
    /// Themes separated by spaces.
    pub themes: String,
    /// The generator's JSON of the alternatives (`[]` for none).
    pub alternatives: String,
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub attempts: i64,
    pub votes_up: i64,
    pub votes_down: i64,
}

/// How far a puzzle's down votes may lead its up votes: at this lead it is retired (no longer
/// handed out by `next`, the runs or the daily choice).
pub const RETIRED_AT: i64 = 5;

impl PuzzleRow {
    /// The puzzle's Glicko-2 rating.
    pub fn glicko(&self) -> Rating {
        Rating {
            rating: self.rating,
            rd: self.rd,
            volatility: self.volatility,
        }
    }
}

/// An account's puzzle rating.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PuzzleRatingRow {
    pub account_id: i64,
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub attempts: i64,
    pub updated_at: String,
}

impl PuzzleRatingRow {
    pub fn glicko(&self) -> Rating {
        Rating {
            rating: self.rating,
            rd: self.rd,
            volatility: self.volatility,
        }
    }
}

/// A rated attempt to store: the account's and the puzzle's ratings after it, and the numbers
/// of rated attempts each had when those were computed (their versions: the attempt is stored
/// only if neither has moved since).
#[derive(Clone, Debug)]
pub struct NewAttempt<'a> {
    pub account_id: i64,
    pub puzzle_id: &'a str,
    pub win: bool,
    pub player: Rating,
    pub puzzle: Rating,
    /// The account's rated attempts before this one (0: it has no puzzle rating yet).
    pub player_attempts: i64,
    /// The puzzle's rated attempts before this one.
    pub puzzle_attempts: i64,
    pub at: &'a str,
}

/// What became of an attempt given to [`Store::record_attempt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptStored {
    /// Stored, with both ratings.
    Rated,
    /// The account had tried the puzzle already: nothing changed.
    Tried,
    /// Another attempt moved the account's or the puzzle's rating since they were read: nothing
    /// changed; read them again and recompute.
    Stale,
}

/// A stored storm run.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct StormRun {
    pub at: String,
    pub score: i64,
    pub moves: i64,
    pub errors: i64,
    pub best_combo: i64,
    pub seconds: i64,
}

/// A rated attempt of an account, with its puzzle's themes and rating now.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AttemptRow {
    pub puzzle_id: String,
    pub win: bool,
    pub rating_after: f64,
    pub at: String,
    pub themes: String,
    pub puzzle_rating: f64,
}

const PUZZLE_COLUMNS: &str = "id, variant, position, line, themes, alternatives, rating, rd, \
     volatility, attempts, votes_up, votes_down";

/// The puzzle-table condition of a puzzle still handed out (`p` names the table).
fn not_retired() -> String {
    format!("p.votes_down - p.votes_up < {RETIRED_AT}")
}

/// Which puzzles `next_puzzles` may hand out.
#[derive(Clone, Debug)]
pub struct PuzzleQuery<'a> {
    pub variant: &'a str,
    /// Only puzzles with this theme.
    pub theme: Option<&'a str>,
    /// Leave out the puzzles this account tried.
    pub account_id: Option<i64>,
    /// Nearest to this rating first.
    pub near: f64,
    /// Leave out this puzzle (the one just given).
    pub not: Option<&'a str>,
    pub limit: u32,
}

impl Store {
    /// Stores puzzles (at their starting rating, RD 350) in one transaction; a puzzle whose id is
    /// stored already is left alone. How many were new.
    pub async fn insert_puzzles(&self, rows: &[PuzzleRow]) -> Result<u64, StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let mut added = 0;
            for p in rows {
                added += sqlx::query(&format!(
                    "INSERT INTO puzzles ({PUZZLE_COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                     ON CONFLICT (id) DO NOTHING"
                ))
                .bind(&p.id)
                .bind(&p.variant)
                .bind(&p.position)
                .bind(&p.line)
                .bind(&p.themes)
                .bind(&p.alternatives)
                .bind(p.rating)
                .bind(p.rd)
                .bind(p.volatility)
                .bind(p.attempts)
                .bind(p.votes_up)
                .bind(p.votes_down)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            }
            tx.commit().await?;
            Ok(added)
        })
    }

    /// One puzzle.
    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!("SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1"))
                .bind(id)
                .fetch_optional(b.pool())
                .await?)
        })
    }

    /// Puzzles that fit `query`, nearest to its rating first.
    pub async fn next_puzzles(
        &self,
        query: &PuzzleQuery<'_>,
    ) -> Result<Vec<PuzzleRow>, StoreError> {
        let theme = query.theme.map(|t| format!("% {t} %"));
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {PUZZLE_COLUMNS} FROM puzzles p
                 WHERE p.variant = $1 AND {}
                   AND ($2 IS NULL OR (' ' || p.themes || ' ') LIKE $3)
                   AND ($4 IS NULL OR p.id <> $5)
                   AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                                   WHERE a.account_id = $6 AND a.puzzle_id = p.id)
                 ORDER BY ABS(p.rating - $7), p.id LIMIT $8",
                not_retired()
            ))
            .bind(query.variant)
            .bind(theme.as_deref())
            .bind(theme.as_deref())
            .bind(query.not)
            .bind(query.not)
            .bind(query.account_id)
            .bind(query.near)
            .bind(i64::from(query.limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// The account's puzzle rating, if it has made a rated attempt.
    pub async fn puzzle_rating(
        &self,
        account_id: i64,
    ) -> Result<Option<PuzzleRatingRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT account_id, rating, rd, volatility, attempts, updated_at
                 FROM puzzle_ratings WHERE account_id = $1",
            )
            .bind(account_id)
            .fetch_optional(b.pool())
            .await?)
        })
    }

    /// Whether the account has tried the puzzle.
    pub async fn tried_puzzle(&self, account_id: i64, puzzle_id: &str) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let row: Option<(String,)> = sqlx::query_as(
                "SELECT puzzle_id FROM puzzle_attempts WHERE account_id = $1 AND puzzle_id = $2",
            )
            .bind(account_id)
            .bind(puzzle_id)
            .fetch_optional(b.pool())
            .await?;
            Ok(row.is_some())
        })
    }

    /// Stores a rated attempt and both ratings after it, in one transaction, if neither rating
    /// has moved since it was read (`attempt`'s versions): two attempts at one moment cannot
    /// both write a rating computed from the same old one.
    pub async fn record_attempt(
        &self,
        attempt: &NewAttempt<'_>,
    ) -> Result<AttemptStored, StoreError> {
        on_backend!(self, b => {
            // Dropped without a commit, the transaction changes nothing.
            let mut tx = b.pool().begin().await?;
            let first = sqlx::query(
                "INSERT INTO puzzle_attempts (account_id, puzzle_id, win, rating_after, at)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id, puzzle_id) DO NOTHING",
            )
            .bind(attempt.account_id)
            .bind(attempt.puzzle_id)
            .bind(attempt.win)
            .bind(attempt.player.rating)
            .bind(attempt.at)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if !first {
                return Ok(AttemptStored::Tried);
            }
            let player = if attempt.player_attempts == 0 {
                sqlx::query(
                    "INSERT INTO puzzle_ratings (account_id, rating, rd, volatility, attempts, updated_at)
                     VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (account_id) DO NOTHING",
                )
                .bind(attempt.account_id)
                .bind(attempt.player.rating)
                .bind(attempt.player.rd)
                .bind(attempt.player.volatility)
                .bind(attempt.at)
                .execute(&mut *tx)
                .await?
            } else {
                sqlx::query(
                    "UPDATE puzzle_ratings SET rating = $2, rd = $3, volatility = $4,
                         attempts = attempts + 1, updated_at = $5
                     WHERE account_id = $1 AND attempts = $6",
                )
                .bind(attempt.account_id)
                .bind(attempt.player.rating)
                .bind(attempt.player.rd)
                .bind(attempt.player.volatility)
                .bind(attempt.at)
                .bind(attempt.player_attempts)
                .execute(&mut *tx)
                .await?
            };
            if player.rows_affected() != 1 {
                return Ok(AttemptStored::Stale);
            }
            let puzzle = sqlx::query(
                "UPDATE puzzles SET rating = $1, rd = $2, volatility = $3, attempts = attempts + 1
                 WHERE id = $4 AND attempts = $5",
            )
            .bind(attempt.puzzle.rating)
            .bind(attempt.puzzle.rd)
            .bind(attempt.puzzle.volatility)
            .bind(attempt.puzzle_id)
            .bind(attempt.puzzle_attempts)
            .execute(&mut *tx)
            .await?;
            if puzzle.rows_affected() != 1 {
                return Ok(AttemptStored::Stale);
            }
            tx.commit().await?;
            Ok(AttemptStored::Rated)
        })
    }

    /// The account's vote on a puzzle, set or changed (`up`), in one transaction with the
    /// puzzle's counts. `false` when the account has not tried the puzzle (nothing changed).
    pub async fn vote_puzzle(
        &self,
        account_id: i64,
        puzzle_id: &str,
        up: bool,
        at: &str,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let tried: Option<(String,)> = sqlx::query_as(
                "SELECT puzzle_id FROM puzzle_attempts WHERE account_id = $1 AND puzzle_id = $2",
            )
            .bind(account_id)
            .bind(puzzle_id)
            .fetch_optional(&mut *tx)
            .await?;
            if tried.is_none() {
                return Ok(false);
            }
            // The vote it replaces, if any: read by the write itself, so that two votes of one
            // account at one moment count once.
            let before: Option<(bool,)> = sqlx::query_as(
                "SELECT up FROM puzzle_votes WHERE account_id = $1 AND puzzle_id = $2",
            )
            .bind(account_id)
            .bind(puzzle_id)
            .fetch_optional(&mut *tx)
            .await?;
            let changed = match before {
                Some((old,)) if old == up => false,
                Some(_) => {
                    sqlx::query(
                        "UPDATE puzzle_votes SET up = $3, at = $4
                         WHERE account_id = $1 AND puzzle_id = $2 AND up = $5",
                    )
                    .bind(account_id)
                    .bind(puzzle_id)
                    .bind(up)
                    .bind(at)
                    .bind(!up)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                        == 1
                }
                None => {
                    sqlx::query(
                        "INSERT INTO puzzle_votes (account_id, puzzle_id, up, at)
                         VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, puzzle_id) DO NOTHING",
                    )
                    .bind(account_id)
                    .bind(puzzle_id)
                    .bind(up)
                    .bind(at)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                        == 1
                }
            };
            if changed {
                let (add_up, add_down) = match (before, up) {
                    (None, true) => (1, 0),
                    (None, false) => (0, 1),
                    (Some(_), true) => (1, -1),
                    (Some(_), false) => (-1, 1),
                };
                sqlx::query(
                    "UPDATE puzzles SET votes_up = votes_up + $2, votes_down = votes_down + $3
                     WHERE id = $1",
                )
                .bind(puzzle_id)
                .bind(add_up)
                .bind(add_down)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// The puzzle of `day` (YYYY-MM-DD), if one was chosen.
    pub async fn daily_puzzle(&self, day: &str) -> Result<Option<PuzzleRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {PUZZLE_COLUMNS} FROM puzzles
                 WHERE id = (SELECT puzzle_id FROM puzzle_daily WHERE day = $1)"
            ))
            .bind(day)
            .fetch_optional(b.pool())
            .await?)
        })
    }

    /// The puzzles that may become a daily puzzle: of `variant`, not retired, rated between
    /// `low` and `high`, never a daily puzzle before; their ids in id order.
    pub async fn daily_candidates(
        &self,
        variant: &str,
        low: f64,
        high: f64,
    ) -> Result<Vec<String>, StoreError> {
        on_backend!(self, b => {
            let rows: Vec<(String,)> = sqlx::query_as(&format!(
                "SELECT p.id FROM puzzles p
                 WHERE p.variant = $1 AND {} AND p.rating BETWEEN $2 AND $3
                   AND NOT EXISTS (SELECT 1 FROM puzzle_daily d WHERE d.puzzle_id = p.id)
                 ORDER BY p.id",
                not_retired()
            ))
            .bind(variant)
            .bind(low)
            .bind(high)
            .fetch_all(b.pool())
            .await?;
            Ok(rows.into_iter().map(|(id,)| id).collect())
        })
    }

    /// Makes `puzzle_id` the puzzle of `day` unless the day has one already (chosen by another
    /// request or instance first, which then stands).
    pub async fn choose_daily(&self, day: &str, puzzle_id: &str) -> Result<(), StoreError> {
        on_backend!(self, b => {
            sqlx::query(
                "INSERT INTO puzzle_daily (day, puzzle_id) VALUES ($1, $2)
                 ON CONFLICT (day) DO NOTHING",
            )
            .bind(day)
            .bind(puzzle_id)
            .execute(b.pool())
            .await?;
            Ok(())
        })
    }

    /// Every puzzle of `variant` still handed out, as (id, rating), by rating: the runs (streak,
    /// storm) are chosen from it. The set is the shipped one, a few thousand rows.
    pub async fn puzzle_ratings_of(&self, variant: &str) -> Result<Vec<(String, f64)>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT p.id, p.rating FROM puzzles p WHERE p.variant = $1 AND {}
                 ORDER BY p.rating, p.id",
                not_retired()
            ))
            .bind(variant)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// The puzzles of `ids`, in any order.
    pub async fn puzzles_by_id(&self, ids: &[String]) -> Result<Vec<PuzzleRow>, StoreError> {
        let mut rows = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(row) = self.puzzle(id).await? {
                rows.push(row);
            }
        }
        Ok(rows)
    }

    /// The account's rated attempts, the newest first, at most `limit`.
    pub async fn attempts_of(
        &self,
        account_id: i64,
        limit: u32,
    ) -> Result<Vec<AttemptRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT a.puzzle_id, a.win, a.rating_after, a.at, p.themes, p.rating AS puzzle_rating
                 FROM puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle_id
                 WHERE a.account_id = $1 ORDER BY a.at DESC, a.puzzle_id LIMIT $2",
            )
            .bind(account_id)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// Stores a storm run of the account.
    pub async fn record_storm(&self, account_id: i64, run: &StormRun) -> Result<(), StoreError> {
        on_backend!(self, b => {
            sqlx::query(
                "INSERT INTO storm_runs (account_id, at, score, moves, errors, best_combo, seconds)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(account_id)
            .bind(&run.at)
            .bind(run.score)
            .bind(run.moves)
            .bind(run.errors)
            .bind(run.best_combo)
            .bind(run.seconds)
            .execute(b.pool())
            .await?;
            Ok(())
        })
    }

    /// The account's best storm run (the highest score, the earliest of equals) and how many
    /// runs it has made.
    pub async fn storm_record(
        &self,
        account_id: i64,
    ) -> Result<(Option<StormRun>, i64), StoreError> {
        on_backend!(self, b => {
            let best: Option<StormRun> = sqlx::query_as(
                "SELECT at, score, moves, errors, best_combo, seconds FROM storm_runs
                 WHERE account_id = $1 ORDER BY score DESC, at LIMIT 1",
            )
            .bind(account_id)
            .fetch_optional(b.pool())
            .await?;
            let (runs,): (i64,) =
                sqlx::query_as("SELECT COUNT(*) FROM storm_runs WHERE account_id = $1")
                    .bind(account_id)
                    .fetch_one(b.pool())
                    .await?;
            Ok((best, runs))
        })
    }
}
