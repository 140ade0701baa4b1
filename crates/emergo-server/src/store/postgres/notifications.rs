//! [`NotificationStore`] on PostgreSQL: the same SQL on both backends.

use super::PgStore;
use crate::store::notifications::{NewNote, NoteRow, NotificationStore, ReadWhich, NOTE_COLUMNS};
use crate::store::StoreError;

impl NotificationStore for PgStore {
    async fn insert_note(&self, note: &NewNote<'_>, cap: i64) -> Result<NoteRow, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let ("turn", Some(game)) = (note.kind, note.game_id) {
            sqlx::query("DELETE FROM notifications WHERE account_id = $1 AND kind = 'turn' AND game_id = $2")
                .bind(note.account_id)
                .bind(game)
                .execute(&mut *tx)
                .await?;
        }
        let row: NoteRow = sqlx::query_as(&format!(
            "INSERT INTO notifications (account_id, kind, game_id, seek_id, other, time_control, outcome, reason, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING {NOTE_COLUMNS}"
        ))
        .bind(note.account_id)
        .bind(note.kind)
        .bind(note.game_id)
        .bind(note.seek_id)
        .bind(note.other)
        .bind(note.time_control)
        .bind(note.outcome)
        .bind(note.reason)
        .bind(note.created_at)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM notifications WHERE account_id = $1 AND id NOT IN
             (SELECT id FROM notifications WHERE account_id = $2 ORDER BY id DESC LIMIT $3)",
        )
        .bind(note.account_id)
        .bind(note.account_id)
        .bind(cap)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(row)
    }

    async fn notes_of(&self, account_id: i64, limit: u32) -> Result<Vec<NoteRow>, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT {NOTE_COLUMNS} FROM notifications WHERE account_id = $1
             ORDER BY id DESC LIMIT $2"
        ))
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    async fn read_notes(
        &self,
        account_id: i64,
        which: ReadWhich<'_>,
        now: &str,
    ) -> Result<u64, StoreError> {
        let done = match which {
            ReadWhich::All => sqlx::query(
                "UPDATE notifications SET read_at = $1 WHERE account_id = $2 AND read_at IS NULL",
            )
            .bind(now)
            .bind(account_id)
            .execute(&self.pool)
            .await?
            .rows_affected(),
            ReadWhich::Ids(ids) => {
                let mut tx = self.pool.begin().await?;
                let mut done = 0;
                for id in ids {
                    done += sqlx::query(
                        "UPDATE notifications SET read_at = $1
                         WHERE account_id = $2 AND id = $3 AND read_at IS NULL",
                    )
                    .bind(now)
                    .bind(account_id)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                }
                tx.commit().await?;
                done
            }
            ReadWhich::Game(game) => sqlx::query(
                "UPDATE notifications SET read_at = $1
                     WHERE account_id = $2 AND game_id = $3 AND read_at IS NULL",
            )
            .bind(now)
            .bind(account_id)
            .bind(game)
            .execute(&self.pool)
            .await?
            .rows_affected(),
        };
        Ok(done)
    }
}

impl PgStore {
    /// Sends `payload` on `channel` to every instance that listens (the notifications'
    /// fan-out, src/notify.rs); PostgreSQL refuses a payload of 8000 bytes or more.
    pub async fn announce(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
