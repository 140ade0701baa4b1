//! The notifications' part of the database (issue 18, migration 0067): one contract,
//! [`NotificationStore`], with the same SQL on both backends (`sqlite/notifications.rs`,
//! `postgres/notifications.rs`). An insert keeps an account's newest `cap` notifications and
//! prunes the rest, in the one transaction.

use super::{Store, StoreError};
use std::future::Future;

/// A notification to store.
#[derive(Clone, Debug)]
pub struct NewNote<'a> {
    pub account_id: i64,
    /// `turn`, `challenge`, `started` or `ended` (the table's check says the same).
    pub kind: &'a str,
    pub game_id: Option<&'a str>,
    pub seek_id: Option<&'a str>,
    /// The other player's name.
    pub other: Option<&'a str>,
    pub time_control: Option<&'a str>,
    /// For `ended`: `win`, `loss` or `draw` for the account, and the reason.
    pub outcome: Option<&'a str>,
    pub reason: Option<&'a str>,
    pub created_at: &'a str,
}

/// A stored notification.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct NoteRow {
    pub id: i64,
    pub account_id: i64,
    pub kind: String,
    pub game_id: Option<String>,
    pub seek_id: Option<String>,
    pub other: Option<String>,
    pub time_control: Option<String>,
    pub outcome: Option<String>,
    pub reason: Option<String>,
    pub created_at: String,
    pub read_at: Option<String>,
}

/// Which notifications of an account to mark read.
#[derive(Clone, Copy, Debug)]
pub enum ReadWhich<'a> {
    All,
    Ids(&'a [i64]),
    /// Every notification about this game.
    Game(&'a str),
}

/// The columns of a [`NoteRow`].
pub(super) const NOTE_COLUMNS: &str = "id, account_id, kind, game_id, seek_id, other, \
    time_control, outcome, reason, created_at, read_at";

/// What both backends do for notifications.
pub trait NotificationStore: Send + Sync {
    /// Stores a notification (a `turn` one replaces the account's earlier `turn` notifications
    /// of the same game) and keeps the account's newest `cap`; the stored row.
    fn insert_note(
        &self,
        note: &NewNote<'_>,
        cap: i64,
    ) -> impl Future<Output = Result<NoteRow, StoreError>> + Send;

    /// The account's notifications, newest first (at most `limit`).
    fn notes_of(
        &self,
        account_id: i64,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<NoteRow>, StoreError>> + Send;

    /// Marks notifications of the account read at `now`; how many were unread.
    fn read_notes(
        &self,
        account_id: i64,
        which: ReadWhich<'_>,
        now: &str,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;
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

/// The notifications' methods on whichever backend the server runs on.
impl Store {
    pub async fn insert_note(&self, note: &NewNote<'_>, cap: i64) -> Result<NoteRow, StoreError> {
        dispatch!(self, s => s.insert_note(note, cap))
    }

    pub async fn notes_of(&self, account_id: i64, limit: u32) -> Result<Vec<NoteRow>, StoreError> {
        dispatch!(self, s => s.notes_of(account_id, limit))
    }

    pub async fn read_notes(
        &self,
        account_id: i64,
        which: ReadWhich<'_>,
        now: &str,
    ) -> Result<u64, StoreError> {
        dispatch!(self, s => s.read_notes(account_id, which, now))
    }
}
