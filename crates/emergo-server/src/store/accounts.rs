//! The accounts' part of the database (issue 11): accounts, sessions, ratings and their history,
//! seeks. One contract, [`AccountStore`], implemented by both backends (`sqlite/accounts.rs`,
//! `postgres/accounts.rs`) with the same SQL; times are RFC 3339 text, seek expiries Unix seconds.

use super::{Store, StoreError};
use crate::domain::model::GameMeta;
use emergo_core::{Color, Game};
use std::future::Future;

/// An account that is not deleted.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AccountRow {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    pub created_at: String,
}

/// An account's rating in one category, as stored after its last rated game.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingRow {
    pub account_id: i64,
    pub category: String,
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub games: i64,
    pub updated_at: String,
}

/// An account's rating after one rated game.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct HistoryRow {
    pub game_id: String,
    pub category: String,
    pub rating: f64,
    pub rd: f64,
    pub at: String,
}

/// A game of an account, for its page and its lobby.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PlayerGameRow {
    pub id: String,
    pub white_account: Option<i64>,
    pub black_account: Option<i64>,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    pub ply: i64,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub rated: Option<String>,
    /// `"3+2"`, `"corr:3"`; `None` for an untimed game.
    pub time_control: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A seek or a challenge, with its owner's name (and the challenged account's).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SeekRow {
    pub id: String,
    pub account_id: i64,
    pub owner: String,
    pub time_control: String,
    pub rated: bool,
    pub color: String,
    pub opponent_id: Option<i64>,
    pub opponent: Option<String>,
    pub game_id: Option<String>,
    pub created_at: String,
    pub expires_at: Option<i64>,
    /// The address it was made from.
    pub client: Option<String>,
}

/// A new seek.
#[derive(Clone, Debug)]
pub struct NewSeek {
    pub id: String,
    pub account_id: i64,
    pub time_control: String,
    pub rated: bool,
    pub color: String,
    pub opponent_id: Option<i64>,
    pub created_at: String,
    pub expires_at: Option<i64>,
    /// The address it is made from.
    pub client: Option<String>,
}

/// A leaderboard line's columns: the name, then a [`RatingRow`]'s.
pub(in crate::store) type LeaderColumns = (String, i64, String, f64, f64, f64, i64, String);

/// A finished rated game whose ratings are not settled yet.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct UnsettledRow {
    pub id: String,
}

/// What a settlement knows of the rated games that counted lately (since the `since` given to
/// [`AccountStore::settle`]): between the same two accounts, and, when both players of this
/// game came from one address, among the games whose players shared that address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    pub pair: i64,
    pub shared_client: Option<i64>,
}

/// The new ratings of a rated game's two players, from their ratings before it (a new
/// player's first) and the games that counted lately; `None` when the game does not count
/// (aborted, or over a limit of docs/api.md "Ratings").
pub type Settle =
    Box<dyn FnOnce(&RatingRow, &RatingRow, Recent) -> Option<(Settled, Settled)> + Send + 'static>;

/// A player's rating after a rated game, and the rating (with its RD grown by the idle days)
/// it began with: the history row keeps both (issue 18).
#[derive(Clone, Debug)]
pub struct Settled {
    pub after: RatingRow,
    pub rating_before: f64,
    pub rd_before: f64,
}

/// A player's history row of one rated game (issue 18: the game page's ratings).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct GameRatingRow {
    pub account_id: i64,
    pub rating: f64,
    pub rd: f64,
    pub rating_before: Option<f64>,
    pub rd_before: Option<f64>,
}

/// A rated game of an account with its result and its opponent's rating as it began (issue 18:
/// the player page's performance).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RatedResultRow {
    pub game_id: String,
    pub category: String,
    pub at: String,
    pub rating: f64,
    pub opponent_before: Option<f64>,
    pub result: Option<String>,
    /// 1 when the account played White.
    pub as_white: i64,
}

/// How many finished games of an account ended one way (issue 18: the player page's
/// statistics).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ResultCountRow {
    pub rated: Option<String>,
    pub time_control: Option<String>,
    /// 1 when the account played White.
    pub as_white: i64,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub n: i64,
}

/// An ongoing game between two accounts (issue 18: the watch page).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct WatchRow {
    pub id: String,
    pub white_account: i64,
    pub black_account: i64,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    pub rated: Option<String>,
    pub time_control: Option<String>,
    pub ply: i64,
    pub created_at: String,
    pub updated_at: String,
}

/// What both backends do for accounts.
pub trait AccountStore: Send + Sync {
    /// A new account; `Conflict` when the name (its lower-case key) is taken.
    fn create_account(
        &self,
        name: &str,
        name_key: &str,
        password_hash: &str,
        now: &str,
    ) -> impl Future<Output = Result<i64, StoreError>> + Send;

    /// The account whose lower-case name is `name_key`.
    fn account_by_key(
        &self,
        name_key: &str,
    ) -> impl Future<Output = Result<Option<AccountRow>, StoreError>> + Send;

    fn insert_session(
        &self,
        token_hash: &str,
        account_id: i64,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The account a session's token hash logs in.
    fn session_account(
        &self,
        token_hash: &str,
    ) -> impl Future<Output = Result<Option<AccountRow>, StoreError>> + Send;

    fn delete_session(
        &self,
        token_hash: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// A new password hash; every other session of the account ends.
    fn set_password(
        &self,
        account_id: i64,
        password_hash: &str,
        keep_session: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Deletes an account: its name is free again, its sessions and open seeks go, its games
    /// stay (shown as "deleted player").
    fn delete_account(
        &self,
        account_id: i64,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    fn ratings_of(
        &self,
        account_id: i64,
    ) -> impl Future<Output = Result<Vec<RatingRow>, StoreError>> + Send;

    /// The account's ratings after each rated game, oldest first (at most `limit`, the newest).
    fn history_of(
        &self,
        account_id: i64,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<HistoryRow>, StoreError>> + Send;

    /// The best stored ratings of `category` with an RD under `max_rd`, with their names.
    fn leaderboard(
        &self,
        category: &str,
        max_rd: f64,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<(String, RatingRow)>, StoreError>> + Send;

    /// The account's games, newest first.
    fn games_of(
        &self,
        account_id: i64,
        ongoing_only: bool,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<PlayerGameRow>, StoreError>> + Send;

    /// Settles a rated game's ratings once: marks the game settled (a second call finds the mark
    /// and changes nothing: `false`), reads both players' ratings (a new player's first) and the
    /// games that counted since `since` ([`Recent`]), and stores what `settle` makes of them with
    /// the history, in one transaction.
    fn settle(
        &self,
        game_id: &str,
        category: &str,
        accounts: (i64, i64),
        now: &str,
        since: &str,
        settle: Settle,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Finished rated games not settled yet (after a crash between the result and the ratings).
    fn unsettled(&self, limit: u32)
        -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;

    /// The history rows of one rated game (none before it is settled, or when it did not
    /// count).
    fn game_ratings(
        &self,
        game_id: &str,
    ) -> impl Future<Output = Result<Vec<GameRatingRow>, StoreError>> + Send;

    /// The account's settled rated games, newest first (at most `limit`).
    fn rated_results(
        &self,
        account_id: i64,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<RatedResultRow>, StoreError>> + Send;

    /// The account's finished games counted by time control, rating category, colour and
    /// result.
    fn result_counts(
        &self,
        account_id: i64,
    ) -> impl Future<Output = Result<Vec<ResultCountRow>, StoreError>> + Send;

    /// Ongoing games between two accounts changed at or after `since`, the latest first.
    fn watch_games(
        &self,
        since: &str,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<WatchRow>, StoreError>> + Send;

    /// Stores a seek unless its owner has `cap` open ones of its kind (public seeks, or
    /// challenges) already: whether it was stored.
    fn insert_seek(
        &self,
        seek: &NewSeek,
        now: i64,
        cap: i64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The newest `limit` open public seeks (not taken, not expired at `now`), newest first.
    fn open_seeks(
        &self,
        now: i64,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<SeekRow>, StoreError>> + Send;

    /// The open seeks of `viewer` and the open challenges to it, newest first (at most
    /// `limit`).
    fn seeks_of(
        &self,
        now: i64,
        viewer: i64,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<SeekRow>, StoreError>> + Send;

    fn seek(&self, id: &str) -> impl Future<Output = Result<Option<SeekRow>, StoreError>> + Send;

    /// Removes an open seek of `account_id`; whether there was one.
    fn delete_seek(
        &self,
        id: &str,
        account_id: i64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Takes the seek for `acceptor` and stores its game, in one transaction; `Conflict` when
    /// the seek was taken, withdrawn or expired (only one acceptance ever succeeds).
    /// `shared_client`: both players came from this address (kept for the ratings' limits).
    fn accept_seek(
        &self,
        id: &str,
        acceptor: i64,
        now: i64,
        meta: &GameMeta,
        game: &Game,
        shared_client: Option<&str>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// A rematch `game_id` of the game `from`: its two players came from one address when
    /// `from`'s did.
    fn carry_shared_client(
        &self,
        from: &str,
        game_id: &str,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Keeps the account's real-time seeks alive until `expires_at`.
    fn touch_seeks(
        &self,
        account_id: i64,
        expires_at: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Seeks of the account taken at or after `since`: `(seek id, game id)`.
    fn taken_seeks(
        &self,
        account_id: i64,
        since: i64,
    ) -> impl Future<Output = Result<Vec<(String, String)>, StoreError>> + Send;

    /// A new token hash for the seat of `color`, held by `account_id`; `Conflict` when that
    /// account does not hold it.
    fn set_seat_token(
        &self,
        game_id: &str,
        color: Color,
        token_hash: &str,
        account_id: i64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Deletes expired seeks, and taken ones a day after; how many.
    fn sweep_seeks(&self, now: i64) -> impl Future<Output = Result<u64, StoreError>> + Send;
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

/// The accounts' methods on whichever backend the server runs on (see [`AccountStore`]).
impl Store {
    pub async fn create_account(
        &self,
        name: &str,
        name_key: &str,
        password_hash: &str,
        now: &str,
    ) -> Result<i64, StoreError> {
        dispatch!(self, s => s.create_account(name, name_key, password_hash, now))
    }

    pub async fn account_by_key(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
        dispatch!(self, s => s.account_by_key(name_key))
    }

    pub async fn insert_session(
        &self,
        token_hash: &str,
        account_id: i64,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.insert_session(token_hash, account_id, now))
    }

    pub async fn session_account(
        &self,
        token_hash: &str,
    ) -> Result<Option<AccountRow>, StoreError> {
        dispatch!(self, s => s.session_account(token_hash))
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.delete_session(token_hash))
    }

    pub async fn set_password(
        &self,
        account_id: i64,
        password_hash: &str,
        keep_session: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_password(account_id, password_hash, keep_session))
    }

    pub async fn delete_account(&self, account_id: i64, now: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.delete_account(account_id, now))
    }

    pub async fn ratings_of(&self, account_id: i64) -> Result<Vec<RatingRow>, StoreError> {
        dispatch!(self, s => s.ratings_of(account_id))
    }

    pub async fn history_of(
        &self,
        account_id: i64,
        limit: u32,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        dispatch!(self, s => s.history_of(account_id, limit))
    }

    pub async fn leaderboard(
        &self,
        category: &str,
        max_rd: f64,
        limit: u32,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        dispatch!(self, s => s.leaderboard(category, max_rd, limit))
    }

    pub async fn games_of(
        &self,
        account_id: i64,
        ongoing_only: bool,
        limit: u32,
    ) -> Result<Vec<PlayerGameRow>, StoreError> {
        dispatch!(self, s => s.games_of(account_id, ongoing_only, limit))
    }

    pub async fn settle(
        &self,
        game_id: &str,
        category: &str,
        accounts: (i64, i64),
        now: &str,
        since: &str,
        settle: Settle,
    ) -> Result<bool, StoreError> {
        dispatch!(self, s => s.settle(game_id, category, accounts, now, since, settle))
    }

    pub async fn unsettled(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        dispatch!(self, s => s.unsettled(limit))
    }

    pub async fn game_ratings(&self, game_id: &str) -> Result<Vec<GameRatingRow>, StoreError> {
        dispatch!(self, s => s.game_ratings(game_id))
    }

    pub async fn rated_results(
        &self,
        account_id: i64,
        limit: u32,
    ) -> Result<Vec<RatedResultRow>, StoreError> {
        dispatch!(self, s => s.rated_results(account_id, limit))
    }

    pub async fn result_counts(&self, account_id: i64) -> Result<Vec<ResultCountRow>, StoreError> {
        dispatch!(self, s => s.result_counts(account_id))
    }

    pub async fn watch_games(&self, since: &str, limit: u32) -> Result<Vec<WatchRow>, StoreError> {
        dispatch!(self, s => s.watch_games(since, limit))
    }

    pub async fn insert_seek(
        &self,
        seek: &NewSeek,
        now: i64,
        cap: i64,
    ) -> Result<bool, StoreError> {
        dispatch!(self, s => s.insert_seek(seek, now, cap))
    }

    pub async fn open_seeks(&self, now: i64, limit: u32) -> Result<Vec<SeekRow>, StoreError> {
        dispatch!(self, s => s.open_seeks(now, limit))
    }

    pub async fn seeks_of(
        &self,
        now: i64,
        viewer: i64,
        limit: u32,
    ) -> Result<Vec<SeekRow>, StoreError> {
        dispatch!(self, s => s.seeks_of(now, viewer, limit))
    }

    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError> {
        dispatch!(self, s => s.seek(id))
    }

    pub async fn delete_seek(&self, id: &str, account_id: i64) -> Result<bool, StoreError> {
        dispatch!(self, s => s.delete_seek(id, account_id))
    }

    pub async fn accept_seek(
        &self,
        id: &str,
        acceptor: i64,
        now: i64,
        meta: &GameMeta,
        game: &Game,
        shared_client: Option<&str>,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.accept_seek(id, acceptor, now, meta, game, shared_client))
    }

    pub async fn carry_shared_client(
        &self,
        from: &str,
        game_id: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.carry_shared_client(from, game_id, now))
    }

    pub async fn touch_seeks(&self, account_id: i64, expires_at: i64) -> Result<(), StoreError> {
        dispatch!(self, s => s.touch_seeks(account_id, expires_at))
    }

    pub async fn taken_seeks(
        &self,
        account_id: i64,
        since: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        dispatch!(self, s => s.taken_seeks(account_id, since))
    }

    pub async fn set_seat_token(
        &self,
        game_id: &str,
        color: Color,
        token_hash: &str,
        account_id: i64,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_seat_token(game_id, color, token_hash, account_id))
    }

    pub async fn sweep_seeks(&self, now: i64) -> Result<u64, StoreError> {
        dispatch!(self, s => s.sweep_seeks(now))
    }
}

/// The columns of a [`SeekRow`], from `seeks s`.
pub(super) const SEEK_COLUMNS: &str = "s.id, s.account_id, \
    (SELECT name FROM accounts a WHERE a.id = s.account_id) AS owner, \
    s.time_control, s.rated, s.color, s.opponent_id, \
    (SELECT name FROM accounts a WHERE a.id = s.opponent_id) AS opponent, \
    s.game_id, s.created_at, s.expires_at, s.client";

/// The columns of a [`WatchRow`], from `games`.
pub(super) const WATCH_COLUMNS: &str = "id, white_account, black_account, \
    (SELECT name FROM accounts a WHERE a.id = games.white_account AND a.deleted_at IS NULL) \
        AS white_name, \
    (SELECT name FROM accounts a WHERE a.id = games.black_account AND a.deleted_at IS NULL) \
        AS black_name, \
    rated, time_control, ply, created_at, updated_at";

/// The columns of a [`PlayerGameRow`], from `games`.
pub(super) const PLAYER_GAME_COLUMNS: &str = "id, white_account, black_account, \
    (SELECT name FROM accounts a WHERE a.id = games.white_account AND a.deleted_at IS NULL) \
        AS white_name, \
    (SELECT name FROM accounts a WHERE a.id = games.black_account AND a.deleted_at IS NULL) \
        AS black_name, \
    ply, result, reason, rated, time_control, created_at, updated_at";

/// A new player's rating row in `category`.
pub fn first_rating(account_id: i64, category: &str, now: &str) -> RatingRow {
    let start = crate::domain::rating::Rating::new();
    RatingRow {
        account_id,
        category: category.to_string(),
        rating: start.rating,
        rd: start.rd,
        volatility: start.volatility,
        games: 0,
        updated_at: now.to_string(),
    }
}

/// The token and account columns of `color`'s seat (from a fixed pair, never from a request).
pub(super) fn seat_columns(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("white_token", "white_account"),
        Color::Black => ("black_token", "black_account"),
    }
}
