//! [`ChatStore`] on SQLite.

use super::SqliteStore;
use crate::store::chat::{ChatRow, ChatStore, NewChat, NewReport, CHAT_COLUMNS};
use crate::store::StoreError;

impl ChatStore for SqliteStore {
    async fn insert_chat(&self, m: &NewChat<'_>, cap: i64) -> Result<ChatRow, StoreError> {
        // The count and the insert in one statement: two racing messages cannot pass the cap.
        let row: Option<ChatRow> = sqlx::query_as(&format!(
            "INSERT INTO chat_messages
                (game_id, room, seat, account_id, author, body, client, created_at)
             SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
             WHERE (SELECT COUNT(*) FROM chat_messages WHERE game_id = ?1) < ?9
             RETURNING {CHAT_COLUMNS}"
        ))
        .bind(m.game_id)
        .bind(m.room)
        .bind(m.seat)
        .bind(m.account_id)
        .bind(m.author)
        .bind(m.body)
        .bind(m.client)
        .bind(m.now)
        .bind(cap)
        .fetch_optional(&self.pool)
        .await?;
        row.ok_or(StoreError::Conflict("the game's chat is full"))
    }

    async fn chat_history(
        &self,
        game_id: &str,
        room: &str,
        limit: u32,
    ) -> Result<Vec<ChatRow>, StoreError> {
        let mut rows: Vec<ChatRow> = sqlx::query_as(&format!(
            "SELECT {CHAT_COLUMNS} FROM chat_messages WHERE game_id = ?1 AND room = ?2
             ORDER BY id DESC LIMIT ?3"
        ))
        .bind(game_id)
        .bind(room)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.reverse();
        Ok(rows)
    }

    async fn chat_message(&self, game_id: &str, id: i64) -> Result<Option<ChatRow>, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT {CHAT_COLUMNS} FROM chat_messages WHERE game_id = ?1 AND id = ?2"
        ))
        .bind(game_id)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    async fn report_chat(&self, r: &NewReport<'_>) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO chat_reports
                (message_id, game_id, reporter, account_id, body, client, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (message_id, reporter) DO NOTHING",
        )
        .bind(r.message.id)
        .bind(&r.message.game_id)
        .bind(r.reporter)
        .bind(r.account_id)
        .bind(&r.message.body)
        .bind(r.client)
        .bind(r.now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
