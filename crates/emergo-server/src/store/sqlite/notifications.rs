//! [`NotificationStore`] on SQLite: the same SQL on both backends.

use super::SqliteStore;
use crate::store::notifications::{NewNote, NoteRow, NotificationStore, ReadWhich, NOTE_COLUMNS};
use crate::store::StoreError;

impl NotificationStore for SqliteStore {
    async fn insert_note(&self, note: &NewNote<'_>, cap: i64) -> Result<NoteRow, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let ("turn", Some(game)) = (note.kind, note.game_id) {
            sqlx::query(
                "DELETE FROM notifications WHERE account_id = ? AND kind = 'turn' AND game_id = ?",
            )
            .bind(note.account_id)
            .bind(game)
            .execute(&mut *tx)
            .await?;
        }
        let row: NoteRow = sqlx::query_as(&format!(
            "INSERT INTO notifications (account_id, kind, game_id, seek_id, other, time_control, outcome, reason, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {NOTE_COLUMNS}"
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
            "DELETE FROM notifications WHERE account_id = ? AND id NOT IN
             (SELECT id FROM notifications WHERE account_id = ? ORDER BY id DESC LIMIT ?)",
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
            "SELECT {NOTE_COLUMNS} FROM notifications WHERE account_id = ?
             ORDER BY id DESC LIMIT ?"
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
                "UPDATE notifications SET read_at = ? WHERE account_id = ? AND read_at IS NULL",
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
                        "UPDATE notifications SET read_at = ?
                         WHERE account_id = ? AND id = ? AND read_at IS NULL",
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
                "UPDATE notifications SET read_at = ?
                     WHERE account_id = ? AND game_id = ? AND read_at IS NULL",
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
