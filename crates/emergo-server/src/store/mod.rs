//! The database: games and their moves. One contract, [`GameStore`], with two implementations
//! chosen by the URL: SQLite (`sqlite:` URLs or a plain file name; the embedded default) and
//! PostgreSQL (`postgres://`, for several server instances). Every write is one transaction,
//! committed before the caller acknowledges anything.

pub mod accounts;
pub mod chat;
pub mod copy;
mod jobs_pg;
pub mod notifications;
mod postgres;
mod rows;
mod sqlite;
pub mod table_copy;

pub use jobs_pg::{
    JobKind, JobState, JobsPg, Lease, OpenJobs, QueueFigures, TakenJob, JOBS_CHANNEL,
};
pub use postgres::{PgStore, CHANNEL, CHAT_CHANNEL};
pub use sqlite::{SqliteStore, MOVE_BATCH_SIZE};

use crate::domain::clock::GameClock;
use crate::domain::model::GameMeta;
use emergo_core::{ByColor, Color, EndReason, Game, Status};
use emergo_engine::Level;
use std::future::Future;

/// Why a write was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The write lost a race: the ply or the seat was already taken (the unique key or the
    /// guarded update said no).
    #[error("conflict: {0}")]
    Conflict(&'static str),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("stored game {id} cannot be read: {message}")]
    Corrupt { id: String, message: String },
}

/// A stored game: its metadata, the game replayed from its moves, and its version (bumped by
/// every change; a write names the version it was decided on).
pub struct StoredGame {
    pub meta: GameMeta,
    pub game: Game,
    pub version: i64,
}

/// A line of the list of games.
#[derive(Clone, Debug)]
pub struct SummaryRow {
    pub id: String,
    pub mode: crate::domain::model::Mode,
    pub level: Option<Level>,
    pub seats: ByColor<crate::domain::model::Seat>,
    /// The accounts at the seats, and the rated category.
    pub players: crate::domain::model::Players,
    pub ply: i64,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// Which games the list shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusFilter {
    All,
    Ongoing,
    Finished,
}

impl StatusFilter {
    /// The `WHERE` clause that selects these games (the same in every backend).
    fn condition(self) -> &'static str {
        match self {
            StatusFilter::All => "",
            StatusFilter::Ongoing => "WHERE result IS NULL",
            StatusFilter::Finished => "WHERE result IS NOT NULL",
        }
    }
}

/// The result a reader is shown for the stored `result` and `reason` columns: an aborted game
/// has none (it is stored as a draw so that every finished game has a result token).
pub fn shown_result<R: AsRef<str>>(result: Option<R>, reason: Option<&str>) -> Option<R> {
    result.filter(|_| reason != Some(EndReason::Aborted.name()))
}

/// The result and reason columns for a game's status.
pub fn status_columns(status: Status) -> (Option<&'static str>, Option<&'static str>) {
    match status {
        Status::Ongoing => (None, None),
        Status::Finished { outcome, reason } => (Some(outcome.token()), Some(reason.name())),
    }
}

/// A timed game's clock columns as a write leaves them (all `None` for an untimed game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockColumns {
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    pub turn_started_ms: Option<i64>,
    /// When the flag of the side to move falls: what the sweep of overdue games reads.
    pub flag_at_ms: Option<i64>,
}

impl ClockColumns {
    /// The columns of `clock` with `turn` to move.
    pub fn of(clock: Option<&GameClock>, turn: Color) -> ClockColumns {
        match clock {
            None => ClockColumns::default(),
            Some(clock) => ClockColumns {
                white_ms: Some(clock.left.white),
                black_ms: Some(clock.left.black),
                turn_started_ms: clock.turn_started,
                flag_at_ms: clock.flag_at(turn),
            },
        }
    }
}

/// A move to store: the version it was decided on, its ply and text, the game's status and
/// clock after it.
#[derive(Clone, Copy, Debug)]
pub struct MoveWrite<'a> {
    pub version: i64,
    pub ply: usize,
    pub text: &'a str,
    pub status: Status,
    pub clock: ClockColumns,
    pub now: &'a str,
}

/// What every backend does: the whole contract between the server and its database. Times are
/// RFC 3339 text (`now`), plies count from 0.
///
/// Every write to a stored game names the game's `version` the writer decided it on, bumps it,
/// and is refused with `Conflict` when the stored version differs (another server instance
/// changed the game meanwhile): compare-and-set in one transaction, so that of two racing
/// writers exactly one wins, whatever they change. A new game has version 0.
pub trait GameStore: Send + Sync {
    /// Stores a new game with its moves (none, or those of an imported record); `Conflict` when
    /// the id is taken.
    fn insert_game(
        &self,
        meta: &GameMeta,
        game: &Game,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Stores the move played at `mv.ply`, the game's new status and its clock; `Conflict`
    /// when the game changed since `mv.version`, is over, or is not at that ply.
    fn append_move(
        &self,
        id: &str,
        mv: &MoveWrite<'_>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Takes back every move from `ply` on (a takeback); the game is ongoing after, with its
    /// clock at `clock` (a game between people's takeback restarts the side to move's turn), and
    /// no takeback request stands.
    fn truncate(
        &self,
        id: &str,
        version: i64,
        ply: usize,
        clock: ClockColumns,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Gives the free seat of `color` its token's hash and sets the clock (a timed game's
    /// clock starts when both seats are taken); `Conflict` if it was taken meanwhile.
    fn take_seat(
        &self,
        id: &str,
        version: i64,
        color: Color,
        token_hash: &str,
        clock: ClockColumns,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Ends a game by resignation, agreement or its clock (time, abort), stopping its clock at
    /// `clock`; `Conflict` if it had ended or changed since `version`.
    fn finish(
        &self,
        id: &str,
        version: i64,
        status: Status,
        clock: ClockColumns,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The ongoing games whose flag falls by `by_ms`, soonest first: `(id, flag_at_ms)` (the
    /// sweep of src/flag.rs).
    fn due_flags(
        &self,
        by_ms: i64,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<(String, i64)>, StoreError>> + Send;

    /// Records who offers a draw now (an ongoing game only).
    fn set_draw_offer(
        &self,
        id: &str,
        version: i64,
        offer: Option<Color>,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Records who asks for a takeback now, and who was refused since the last move (an
    /// ongoing game only).
    fn set_takeback(
        &self,
        id: &str,
        version: i64,
        offer: Option<Color>,
        declined: Option<Color>,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The game's version now; `None` for an unknown id (one cheap read: is a cached game
    /// still current?).
    fn version(&self, id: &str) -> impl Future<Output = Result<Option<i64>, StoreError>> + Send;

    /// Whether the database answers (`GET /healthz`).
    fn ping(&self) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Up to `limit` games in the order they were made, after the one numbered `after` (0: from
    /// the first): `(number, id)` (`emergo db copy`).
    fn game_ids(
        &self,
        after: i64,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<(i64, String)>, StoreError>> + Send;

    /// Reads a game and replays its moves; `None` for an unknown id.
    fn load(&self, id: &str)
        -> impl Future<Output = Result<Option<StoredGame>, StoreError>> + Send;

    /// The newest games first.
    fn list(
        &self,
        filter: StatusFilter,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<SummaryRow>, StoreError>> + Send;

    /// The moves stored for a game, in order (for tests and checks).
    fn moves(&self, id: &str) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;

    /// Closes the connections.
    fn close(&self) -> impl Future<Output = ()> + Send;

    // --- studying games (issue 12) ---

    /// Keeps a game's review (JSON) with the moves it is of, replacing any earlier one.
    fn put_review(
        &self,
        id: &str,
        moves: &str,
        review: &str,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The stored review of a game: the moves it is of and its JSON.
    fn review(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<Option<(String, String)>, StoreError>> + Send;

    /// Keeps an imported game's record text (its variations and comments) for its export.
    fn put_record(
        &self,
        id: &str,
        record: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The record text an imported game was read from.
    fn record(&self, id: &str) -> impl Future<Output = Result<Option<String>, StoreError>> + Send;

    // Rematches between the seat holders of a finished game (src/rematch.rs).

    /// Sets who offers a rematch to `to`, if the offer is `from` now and no rematch has been
    /// made; `Conflict` otherwise (another instance changed it first).
    fn set_rematch_offer(
        &self,
        id: &str,
        from: Option<Color>,
        to: Option<Color>,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Records that game `id`'s rematch is the stored game `rematch`, if `offer`'s offer stands
    /// and no rematch has been made; `Conflict` otherwise (exactly one acceptance wins).
    fn set_rematch_game(
        &self,
        id: &str,
        offer: Color,
        rematch: &str,
        now: &str,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Deletes a game and its moves (a rematch made for an acceptance that lost its race).
    fn delete_game(&self, id: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// The store the server runs on: one of the backends, chosen by the URL. Cheap to clone (the
/// connection pool is shared).
#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(PgStore),
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

impl Store {
    /// Opens the database at `url` and applies the migrations: PostgreSQL for a `postgres://`
    /// or `postgresql://` URL, else SQLite (an `sqlite:` URL or a plain file name, the file
    /// created when missing).
    pub async fn open(url: &str) -> Result<Store, sqlx::Error> {
        if is_postgres_url(url) {
            Ok(Store::Postgres(PgStore::open(url).await?))
        } else {
            Ok(Store::Sqlite(SqliteStore::open(url).await?))
        }
    }

    /// The backend's name, for logs: `sqlite` or `postgres`.
    pub fn backend(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    pub async fn close(&self) {
        dispatch!(self, s => s.close())
    }

    /// See [`GameStore::insert_game`].
    pub async fn insert_game(&self, meta: &GameMeta, game: &Game) -> Result<(), StoreError> {
        dispatch!(self, s => s.insert_game(meta, game))
    }

    /// See [`GameStore::append_move`].
    pub async fn append_move(&self, id: &str, mv: &MoveWrite<'_>) -> Result<(), StoreError> {
        dispatch!(self, s => s.append_move(id, mv))
    }

    /// See [`GameStore::truncate`].
    pub async fn truncate(
        &self,
        id: &str,
        version: i64,
        ply: usize,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.truncate(id, version, ply, clock, now))
    }

    /// See [`GameStore::take_seat`].
    pub async fn take_seat(
        &self,
        id: &str,
        version: i64,
        color: Color,
        token_hash: &str,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.take_seat(id, version, color, token_hash, clock, now))
    }

    /// See [`GameStore::finish`].
    pub async fn finish(
        &self,
        id: &str,
        version: i64,
        status: Status,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.finish(id, version, status, clock, now))
    }

    /// See [`GameStore::due_flags`].
    pub async fn due_flags(
        &self,
        by_ms: i64,
        limit: u32,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        dispatch!(self, s => s.due_flags(by_ms, limit))
    }

    /// See [`GameStore::set_draw_offer`].
    pub async fn set_draw_offer(
        &self,
        id: &str,
        version: i64,
        offer: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_draw_offer(id, version, offer, now))
    }

    /// See [`GameStore::set_takeback`].
    pub async fn set_takeback(
        &self,
        id: &str,
        version: i64,
        offer: Option<Color>,
        declined: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_takeback(id, version, offer, declined, now))
    }

    /// See [`GameStore::version`].
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        dispatch!(self, s => s.version(id))
    }

    /// See [`GameStore::ping`].
    pub async fn ping(&self) -> Result<(), StoreError> {
        dispatch!(self, s => s.ping())
    }

    /// See [`GameStore::game_ids`].
    pub async fn game_ids(&self, after: i64, limit: u32) -> Result<Vec<(i64, String)>, StoreError> {
        dispatch!(self, s => s.game_ids(after, limit))
    }

    /// Whether other processes may change the games too (PostgreSQL: several instances), so
    /// that a cached game must be checked against the database before it is served.
    pub fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// See [`GameStore::load`].
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        dispatch!(self, s => s.load(id))
    }

    /// See [`GameStore::list`].
    pub async fn list(
        &self,
        filter: StatusFilter,
        limit: u32,
    ) -> Result<Vec<SummaryRow>, StoreError> {
        dispatch!(self, s => s.list(filter, limit))
    }

    /// See [`GameStore::moves`].
    pub async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        dispatch!(self, s => s.moves(id))
    }

    /// See [`GameStore::set_rematch_offer`].
    pub async fn set_rematch_offer(
        &self,
        id: &str,
        from: Option<Color>,
        to: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_rematch_offer(id, from, to, now))
    }

    /// See [`GameStore::set_rematch_game`].
    pub async fn set_rematch_game(
        &self,
        id: &str,
        offer: Color,
        rematch: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.set_rematch_game(id, offer, rematch, now))
    }

    /// See [`GameStore::delete_game`].
    pub async fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.delete_game(id))
    }
}

/// Studying games (issue 12).
impl Store {
    /// See [`GameStore::put_review`].
    pub async fn put_review(
        &self,
        id: &str,
        moves: &str,
        review: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        dispatch!(self, s => s.put_review(id, moves, review, now))
    }

    /// See [`GameStore::review`].
    pub async fn review(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        dispatch!(self, s => s.review(id))
    }

    /// See [`GameStore::put_record`].
    pub async fn put_record(&self, id: &str, record: &str) -> Result<(), StoreError> {
        dispatch!(self, s => s.put_record(id, record))
    }

    /// See [`GameStore::record`].
    pub async fn record(&self, id: &str) -> Result<Option<String>, StoreError> {
        dispatch!(self, s => s.record(id))
    }
}

/// Whether `url` names a PostgreSQL database.
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// A unique-key violation is the lost race `what`; anything else is a database error.
fn conflict_on_unique(what: &'static str) -> impl Fn(sqlx::Error) -> StoreError {
    move |err| match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict(what),
        _ => StoreError::Db(err),
    }
}
