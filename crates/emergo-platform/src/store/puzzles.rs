//! The puzzles' part of the database (issue 21, migration 0075), each method written once for
//! both backends (see the module text of store/mod.rs): the puzzles with their ratings, the
//! accounts' rated attempts, the accounts' puzzle ratings.

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
}

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

/// A rated attempt to store: the account's and the puzzle's ratings after it.
#[derive(Clone, Debug)]
pub struct NewAttempt<'a> {
    pub account_id: i64,
    pub puzzle_id: &'a str,
    pub win: bool,
    pub player: Rating,
    pub puzzle: Rating,
    pub at: &'a str,
}

const PUZZLE_COLUMNS: &str =
    "id, variant, position, line, themes, alternatives, rating, rd, volatility, attempts";

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
    /// How many puzzles there are.
    pub async fn puzzle_count(&self) -> Result<i64, StoreError> {
        on_backend!(self, b => {
            let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM puzzles")
                .fetch_one(b.pool())
                .await?;
            Ok(n)
        })
    }

    /// Stores puzzles (at their starting rating, RD 350) in one transaction; a puzzle whose id is
    /// stored already is left alone. How many were new.
    pub async fn insert_puzzles(&self, rows: &[PuzzleRow]) -> Result<u64, StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let mut added = 0;
            for p in rows {
                added += sqlx::query(&format!(
                    "INSERT INTO puzzles ({PUZZLE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
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
                 WHERE p.variant = $1
                   AND ($2 IS NULL OR (' ' || p.themes || ' ') LIKE $3)
                   AND ($4 IS NULL OR p.id <> $5)
                   AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                                   WHERE a.account_id = $6 AND a.puzzle_id = p.id)
                 ORDER BY ABS(p.rating - $7), p.id LIMIT $8"
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

    /// Stores a rated attempt and both ratings after it, in one transaction: `false` (and
    /// nothing changed) when the account had tried the puzzle already (a replay, or a race).
    pub async fn record_attempt(&self, attempt: &NewAttempt<'_>) -> Result<bool, StoreError> {
        on_backend!(self, b => {
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
                return Ok(false);
            }
            sqlx::query(
                "INSERT INTO puzzle_ratings (account_id, rating, rd, volatility, attempts, updated_at)
                 VALUES ($1, $2, $3, $4, 1, $5)
                 ON CONFLICT (account_id) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
                     volatility = excluded.volatility,
                     attempts = puzzle_ratings.attempts + 1, updated_at = excluded.updated_at",
            )
            .bind(attempt.account_id)
            .bind(attempt.player.rating)
            .bind(attempt.player.rd)
            .bind(attempt.player.volatility)
            .bind(attempt.at)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE puzzles SET rating = $1, rd = $2, volatility = $3, attempts = attempts + 1
                 WHERE id = $4",
            )
            .bind(attempt.puzzle.rating)
            .bind(attempt.puzzle.rd)
            .bind(attempt.puzzle.volatility)
            .bind(attempt.puzzle_id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }
}
