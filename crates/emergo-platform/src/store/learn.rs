//! The rules course's part of the database (issue 21, emergo-server's src/services/learn.rs):
//! the exercises each account has solved. Each method written once for both backends (see the
//! module text of store/mod.rs).

use super::{Store, StoreError};

/// One solved exercise: its lesson's id and its number (from 1).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, sqlx::FromRow)]
pub struct Solved {
    pub lesson: String,
    pub exercise: i64,
}

impl Store {
    /// Records that the account solved these exercises at `now` (one already recorded keeps
    /// its first time), in one transaction.
    pub async fn mark_solved(
        &self,
        account_id: i64,
        solved: &[Solved],
        now: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            for s in solved {
                sqlx::query(
                    "INSERT INTO learn_progress (account_id, lesson, exercise, solved_at)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (account_id, lesson, exercise) DO NOTHING",
                )
                .bind(account_id)
                .bind(&s.lesson)
                .bind(s.exercise)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// The exercises the account has solved, by lesson then number.
    pub async fn solved_of(&self, account_id: i64) -> Result<Vec<Solved>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT lesson, exercise FROM learn_progress WHERE account_id = $1
                 ORDER BY lesson, exercise",
            )
            .bind(account_id)
            .fetch_all(b.pool())
            .await?)
        })
    }
}
