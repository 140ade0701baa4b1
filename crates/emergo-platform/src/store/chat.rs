//! The chat's part of the database (issue 18, src/services/games/chat.rs): messages of the two rooms of a game
//! and reports of messages. Each method written once for both backends (see the module text of
//! store/mod.rs); on PostgreSQL a stored message wakes the other instances
//! (`NOTIFY emergo_chat, '<game id> <message id> <instance>'`, emergo-server's src/services/fanout.rs), whose WebSockets
//! then send it too.

use super::{Backend, Store, StoreError};

/// A stored message.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ChatRow {
    pub id: i64,
    pub game_id: String,
    /// `players` or `spectators`.
    pub room: String,
    /// The seat of a player's message.
    pub seat: Option<String>,
    pub account_id: Option<i64>,
    /// The account's name as it was (`None`: an anonymous seat, shown by its colour).
    pub author: Option<String>,
    pub body: String,
    pub created_at: String,
}

/// A message to store.
#[derive(Clone, Debug)]
pub struct NewChat<'a> {
    pub game_id: &'a str,
    pub room: &'a str,
    pub seat: Option<&'a str>,
    pub account_id: Option<i64>,
    pub author: Option<&'a str>,
    pub body: &'a str,
    pub client: &'a str,
    pub now: &'a str,
}

/// A report of a message: by whom (`reporter`: `seat:white`, `account:12`), when, from where.
#[derive(Clone, Debug)]
pub struct NewReport<'a> {
    pub message: &'a ChatRow,
    pub reporter: &'a str,
    pub account_id: Option<i64>,
    pub client: &'a str,
    pub now: &'a str,
}

pub(in crate::store) const CHAT_COLUMNS: &str =
    "id, game_id, room, seat, account_id, author, body, created_at";

/// The chat's methods, written once for both backends (see the module text of
/// store/mod.rs).
impl Store {
    /// Stores a message unless the game holds `cap` messages already (`Conflict`).
    pub async fn insert_chat(&self, m: &NewChat<'_>, cap: i64) -> Result<ChatRow, StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            // The game's row is locked first (PostgreSQL): two instances' messages cannot pass
            // the cap together. The count and the insert are one statement.
            b.lock_game(&mut tx, m.game_id).await?;
            let row: Option<ChatRow> = sqlx::query_as(&format!(
                "INSERT INTO chat_messages
                    (game_id, room, seat, account_id, author, body, client, created_at)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8
                 WHERE (SELECT COUNT(*) FROM chat_messages WHERE game_id = $1) < $9
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
            .fetch_optional(&mut *tx)
            .await?;
            let row = row.ok_or(StoreError::Conflict("the game's chat is full"))?;
            b.chat_stored(&mut tx, &row).await?;
            tx.commit().await?;
            Ok(row)
        })
    }

    /// The last `limit` messages of a room, oldest first.
    pub async fn chat_history(
        &self,
        game_id: &str,
        room: &str,
        limit: u32,
    ) -> Result<Vec<ChatRow>, StoreError> {
        on_backend!(self, b => {
            let mut rows: Vec<ChatRow> = sqlx::query_as(&format!(
                "SELECT {CHAT_COLUMNS} FROM chat_messages WHERE game_id = $1 AND room = $2
                 ORDER BY id DESC LIMIT $3"
            ))
            .bind(game_id)
            .bind(room)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?;
            rows.reverse();
            Ok(rows)
        })
    }

    /// One message of a game.
    pub async fn chat_message(
        &self,
        game_id: &str,
        id: i64,
    ) -> Result<Option<ChatRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {CHAT_COLUMNS} FROM chat_messages WHERE game_id = $1 AND id = $2"
            ))
            .bind(game_id)
            .bind(id)
            .fetch_optional(b.pool())
            .await?)
        })
    }

    /// Stores a report; false when this reporter reported this message already.
    pub async fn report_chat(&self, r: &NewReport<'_>) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "INSERT INTO chat_reports
                    (message_id, game_id, reporter, account_id, body, client, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (message_id, reporter) DO NOTHING",
            )
            .bind(r.message.id)
            .bind(&r.message.game_id)
            .bind(r.reporter)
            .bind(r.account_id)
            .bind(&r.message.body)
            .bind(r.client)
            .bind(r.now)
            .execute(b.pool())
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }
}
