//! The chat's part of the database (issue 18, src/chat.rs): messages of the two rooms of a game
//! and reports of messages. One contract, [`ChatStore`], implemented by both backends
//! (`sqlite/chat.rs`, `postgres/chat.rs`) with the same SQL.

use super::{Store, StoreError};
use std::future::Future;

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

/// What both backends do for the chat.
pub trait ChatStore: Send + Sync {
    /// Stores a message unless the game holds `cap` messages already (`Conflict`).
    fn insert_chat(
        &self,
        message: &NewChat<'_>,
        cap: i64,
    ) -> impl Future<Output = Result<ChatRow, StoreError>> + Send;

    /// The last `limit` messages of a room, oldest first.
    fn chat_history(
        &self,
        game_id: &str,
        room: &str,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<ChatRow>, StoreError>> + Send;

    /// One message of a game.
    fn chat_message(
        &self,
        game_id: &str,
        id: i64,
    ) -> impl Future<Output = Result<Option<ChatRow>, StoreError>> + Send;

    /// Stores a report; false when this reporter reported this message already.
    fn report_chat(
        &self,
        report: &NewReport<'_>,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
}

/// Calls the same method on whichever backend `$store` is.
macro_rules! dispatch {
    ($store:expr, $s:ident => $call:expr) => {
        match $store {
            Store::Sqlite($s) => $call.await,
            Store::Postgres($s) => $call.await,
        }
    };
}

/// The chat's methods on whichever backend the server runs on (see [`ChatStore`]).
impl Store {
    pub async fn insert_chat(
        &self,
        message: &NewChat<'_>,
        cap: i64,
    ) -> Result<ChatRow, StoreError> {
        dispatch!(self, s => s.insert_chat(message, cap))
    }

    pub async fn chat_history(
        &self,
        game_id: &str,
        room: &str,
        limit: u32,
    ) -> Result<Vec<ChatRow>, StoreError> {
        dispatch!(self, s => s.chat_history(game_id, room, limit))
    }

    pub async fn chat_message(
        &self,
        game_id: &str,
        id: i64,
    ) -> Result<Option<ChatRow>, StoreError> {
        dispatch!(self, s => s.chat_message(game_id, id))
    }

    pub async fn report_chat(&self, report: &NewReport<'_>) -> Result<bool, StoreError> {
        dispatch!(self, s => s.report_chat(report))
    }
}
