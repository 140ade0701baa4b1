//! The database: one [`Store`] over either backend, chosen by the URL: SQLite (`sqlite:` URLs or
//! a plain file name; the embedded default) and PostgreSQL (`postgres://`, for several server
//! instances). Every write is one transaction, committed before the caller acknowledges anything.
//!
//! Every statement and every method body is written once, for both backends: a method of
//! [`Store`] (games.rs, accounts.rs, chat.rs, notifications.rs, explorer.rs, table_copy.rs) is one body inside
//! [`on_backend!`], which compiles it once for each backend, with that backend's own pool,
//! connection and transaction types (sqlx's SQLite driver reads PostgreSQL's `$N` placeholders,
//! and the bundled SQLite knows `IS NOT DISTINCT FROM`). What truly differs between the two
//! databases is the [`Backend`] trait, implemented in sqlite.rs and postgres.rs, and nothing else
//! (docs/deploy.md, "Where the two databases differ in the code").
//!
//! Why not `sqlx::Any`: it erases the types the stores rely on (PostgreSQL's arrays for the bulk
//! insert of moves, `LISTEN`/`NOTIFY`, the pools' own options) and checks nothing per backend.
//! Why not helpers generic over `sqlx::Database`: every helper would carry bounds such as
//! `for<'q> Option<&'q str>: Encode<'q, DB> + Type<DB>` and `for<'c> &'c mut DB::Connection:
//! Executor<'c, Database = DB>` for each type it binds; the macro keeps each body plain code
//! with concrete types, and a type error names the backend it is in.
//!
//! Every write to a stored game names the game's `version` the writer decided it on, bumps it,
//! and is refused with `Conflict` when the stored version differs (another server instance
//! changed the game meanwhile): compare-and-set in one transaction, so that of two racing
//! writers exactly one wins, whatever they change. A new game has version 0. Times are RFC 3339
//! text (`now`), plies count from 0.

/// Runs `$body` once per backend with `$b` bound to the backend's handle (`&SqliteStore` or
/// `&PgStore`): one body in the source, compiled for each backend with its concrete types. The
/// body may `.await` and `?` as the method around it does.
macro_rules! on_backend {
    ($store:expr, $b:ident => $body:expr) => {
        match $store {
            $crate::store::Store::Sqlite($b) => $body,
            $crate::store::Store::Postgres($b) => $body,
        }
    };
}

/// Writes the helper functions `$item`s once for each backend, as associated functions of
/// [`SqliteStore`] and of [`PgStore`]: inside them `Conn<Self>` is that backend's connection
/// (a transaction derefs to it). For the steps that several methods share (a new game's rows,
/// a move's rows, a guarded update of a game's row).
macro_rules! for_each_backend {
    ($($item:item)*) => {
        impl $crate::store::SqliteStore {
            $($item)*
        }
        impl $crate::store::PgStore {
            $($item)*
        }
    };
}

/// The seats' accounts of a game as columns `white_name, black_name, white_bot, black_bot`,
/// for a `SELECT` from `$games` (the `games` table or its alias): the name is `NULL` once the
/// account is deleted, and the bot mark (issue 24) false without an account.
macro_rules! seat_accounts {
    ($games:literal) => {
        concat!(
            "(SELECT name FROM accounts a WHERE a.id = ",
            $games,
            ".white_account ",
            "AND a.deleted_at IS NULL) AS white_name, ",
            "(SELECT name FROM accounts a WHERE a.id = ",
            $games,
            ".black_account ",
            "AND a.deleted_at IS NULL) AS black_name, ",
            "COALESCE((SELECT bot FROM accounts a WHERE a.id = ",
            $games,
            ".white_account), FALSE) ",
            "AS white_bot, ",
            "COALESCE((SELECT bot FROM accounts a WHERE a.id = ",
            $games,
            ".black_account), FALSE) ",
            "AS black_bot"
        )
    };
}

pub mod accounts;
pub mod chat;
pub mod copy;
pub mod explorer;
mod games;
mod jobs_pg;
pub mod learn;
pub mod notifications;
mod postgres;
pub mod puzzles;
mod rows;
mod sqlite;
pub mod table_copy;
pub mod tokens;
pub mod tournaments;

pub use jobs_pg::{
    JobKind, JobState, JobsPg, Lease, OpenJobs, QueueFigures, TakenJob, JOBS_CHANNEL,
};
pub use postgres::{PgStore, CHANNEL, CHAT_CHANNEL};
pub use sqlite::{SqliteStore, MOVE_BATCH_SIZE};

use crate::domain::clock::GameClock;
use crate::domain::model::GameMeta;
use chat::ChatRow;
use emergo_core::{AnyGame, ByColor, Color, EndReason, Status};
use emergo_engine::Level;

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
    pub game: AnyGame,
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
    /// The board the game is played on.
    pub variant: emergo_core::VariantKind,
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

/// A seat to take (see [`Store::take_seat`]), owned: SQLite's group writer takes it to its task.
#[derive(Clone, Debug)]
struct SeatWrite {
    id: String,
    version: i64,
    color: Color,
    token_hash: String,
    clock: ClockColumns,
    now: String,
}

/// The store the server runs on: one of the backends, chosen by the URL. Cheap to clone (the
/// connection pool is shared). Its methods are written once for both (see the module's text).
#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

/// A backend's connection (a transaction derefs to it).
type Conn<B> = <<B as Backend>::Db as sqlx::Database>::Connection;

/// A backend's bound arguments of a statement.
type Args<'q, B> = <<B as Backend>::Db as sqlx::Database>::Arguments<'q>;

/// Where the two databases truly differ, and nothing else: each backend implements these
/// (sqlite.rs, postgres.rs); every other statement is shared. Called from the bodies of
/// [`on_backend!`], always on a concrete backend.
trait Backend {
    type Db: sqlx::Database;

    /// The column that orders an account's rating history rows of the same time (newest first):
    /// SQLite's insertion order (`rowid`), which PostgreSQL has not (the game id there).
    fn history_tie(&self) -> &'static str;

    /// Stores a move (see [`Store::append_move`]): SQLite writes moves in groups (one commit for
    /// every move waiting), PostgreSQL each in its own transaction with a wake-up.
    async fn append_move(&self, id: &str, mv: &MoveWrite<'_>) -> Result<(), StoreError>;

    /// Stores a new game (see [`Store::insert_game`]): SQLite in the same groups as the moves
    /// (a thousand games begun at once are a few commits, not a thousand), PostgreSQL in a
    /// transaction of its own.
    async fn insert_game(&self, meta: &GameMeta, game: &AnyGame) -> Result<(), StoreError>;

    /// Takes a seat (see [`Store::take_seat`]), grouped as [`Backend::insert_game`] is.
    async fn take_seat(&self, seat: SeatWrite) -> Result<(), StoreError>;

    /// Within a transaction that changed game `id`: PostgreSQL wakes the other instances when it
    /// commits (`NOTIFY`); SQLite has no other instances.
    async fn game_changed(&self, tx: &mut Conn<Self>, id: &str) -> Result<(), sqlx::Error>;

    /// Makes the transaction `tx`, before its first read, read one snapshot (PostgreSQL:
    /// `REPEATABLE READ`; a SQLite transaction reads one snapshot already).
    async fn read_snapshot(&self, tx: &mut Conn<Self>) -> Result<(), sqlx::Error>;

    /// Stores a new game's moves (PostgreSQL: one `INSERT ... UNNEST`; SQLite: a row each).
    async fn insert_moves(
        &self,
        tx: &mut Conn<Self>,
        id: &str,
        game: &AnyGame,
    ) -> Result<(), sqlx::Error>;

    /// Before a settlement reads both players' ratings: PostgreSQL makes sure both rows exist
    /// and locks them (`FOR UPDATE`, in account order, so that two settlements never
    /// deadlock); SQLite's transaction holds the one write lock already.
    async fn lock_ratings(
        &self,
        tx: &mut Conn<Self>,
        accounts: [i64; 2],
        category: &str,
        now: &str,
    ) -> Result<(), sqlx::Error>;

    /// Before a chat message is counted against its game's cap: PostgreSQL locks the game's row
    /// (`FOR UPDATE`), so that two instances' messages cannot pass the cap together; SQLite's
    /// count and insert are one statement under its one writer.
    async fn lock_game(&self, tx: &mut Conn<Self>, id: &str) -> Result<(), sqlx::Error>;

    /// Within the transaction that stored chat message `row`: PostgreSQL wakes the other
    /// instances (`NOTIFY emergo_chat`), whose WebSockets then send it too.
    async fn chat_stored(&self, tx: &mut Conn<Self>, row: &ChatRow) -> Result<(), sqlx::Error>;

    /// What `emergo db copy` puts between the columns and the values of a row whose id is
    /// generated, to write the id it is given: PostgreSQL writes an identity column's value only
    /// when told so (`OVERRIDING SYSTEM VALUE`); SQLite takes it as given.
    fn identity_insert(&self) -> &'static str;

    /// After `emergo db copy` wrote rows with their ids into `table`: PostgreSQL moves the
    /// table's sequence past them (`setval`); SQLite's next id follows the largest already.
    async fn identities_copied(&self, tx: &mut Conn<Self>, table: &str) -> Result<(), sqlx::Error>;
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

    /// Whether other processes may change the games too (PostgreSQL: several instances), so
    /// that a cached game must be checked against the database before it is served.
    pub fn is_shared(&self) -> bool {
        matches!(self, Store::Postgres(_))
    }

    /// Closes the connections.
    pub async fn close(&self) {
        on_backend!(self, b => b.pool().close().await)
    }

    /// Whether the database answers (`GET /healthz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        on_backend!(self, b => {
            sqlx::query("SELECT 1").execute(b.pool()).await?;
        });
        Ok(())
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
