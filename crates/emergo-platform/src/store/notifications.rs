//! The notifications' part of the database (issue 18, migration 0067), each method written once
//! for both backends (see the module text of store/mod.rs). An insert keeps an account's newest
//! `cap` notifications and prunes the rest, in the one transaction.

use super::{Store, StoreError};

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
    /// Whether the other player's account is a bot account (issue 24).
    pub other_bot: bool,
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
    COALESCE((SELECT bot FROM accounts a WHERE a.name_key = LOWER(other)), FALSE) AS other_bot, \
    time_control, outcome, reason, created_at, read_at";

/// The notifications's methods, written once for both backends (see the module text of
/// store/mod.rs).
impl Store {
    /// Stores a notification (a `turn` one replaces the account's earlier `turn` notifications
    /// of the same game) and keeps the account's newest `cap`; the stored row.
    pub async fn insert_note(&self, note: &NewNote<'_>, cap: i64) -> Result<NoteRow, StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
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
        })
    }

    /// The account's notifications, newest first (at most `limit`).
    pub async fn notes_of(&self, account_id: i64, limit: u32) -> Result<Vec<NoteRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {NOTE_COLUMNS} FROM notifications WHERE account_id = $1
                 ORDER BY id DESC LIMIT $2"
            ))
            .bind(account_id)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// Marks notifications of the account read at `now`; how many were unread.
    pub async fn read_notes(
        &self,
        account_id: i64,
        which: ReadWhich<'_>,
        now: &str,
    ) -> Result<u64, StoreError> {
        on_backend!(self, b => {
            let done = match which {
                ReadWhich::All => sqlx::query(
                    "UPDATE notifications SET read_at = $1 WHERE account_id = $2 AND read_at IS NULL",
                )
                .bind(now)
                .bind(account_id)
                .execute(b.pool())
                .await?
                .rows_affected(),
                ReadWhich::Ids(ids) => {
                    let mut tx = b.pool().begin().await?;
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
                .execute(b.pool())
                .await?
                .rows_affected(),
            };
            Ok(done)
        })
    }
}
