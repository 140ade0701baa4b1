//! SQLite, the embedded default: one file, WAL, every commit on disk before it returns.
//!
//! A commit costs one `fsync` of the write-ahead log, and SQLite has one writer at a time, so a
//! move per transaction caps the site at one move per `fsync` (a few hundred per second on a good
//! disk, far fewer on a busy one). Moves are therefore written by one task, [`GroupWriter`], that
//! takes every move waiting at that moment into one transaction — each in a savepoint of its own,
//! so that a refused move changes nothing and is answered alone — and commits them with one
//! `fsync` (group commit). A move is acknowledged only after that commit. New games and taken
//! seats join the same groups: a thousand games begun at once (a restart, an event's first
//! round) otherwise queued every move behind a thousand commits (issue 17).
//!
//! Everything else SQLite shares with PostgreSQL (store/games.rs and its siblings); here is only
//! what differs: [`SqliteStore::open`] and the migrations of `migrations/sqlite`, the group
//! commit, and the [`Backend`] steps that SQLite does not need.

use super::chat::ChatRow;
use super::{Backend, ClockColumns, MoveWrite, SeatWrite, StoreError};
use crate::domain::model::GameMeta;
use emergo_core::{AnyGame, Status};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::Connection;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// The SQLite backend: its pool and its group writer (none for the writer task's own handle).
#[derive(Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    writer: Option<GroupWriter>,
}

/// The writes (moves, new games, seats) made in one transaction, as a histogram (SQLite); the
/// name is older than the games and seats in the groups.
pub const MOVE_BATCH_SIZE: &str = "emergo_store_move_batch_size";

/// At most this many writes share a commit.
const BATCH_MAX: usize = 64;
/// Moves waiting for the writer; a full queue makes the next mover wait (back-pressure).
const QUEUE_MAX: usize = 1024;

/// A write the group writer makes, owned (it crosses to the writer task).
enum GroupWrite {
    /// A move (see [`Store::append_move`](super::Store::append_move)).
    Move {
        id: String,
        version: i64,
        ply: usize,
        text: String,
        status: Status,
        clock: ClockColumns,
        now: String,
    },
    /// A new game with its moves (see [`Store::insert_game`](super::Store::insert_game)).
    NewGame {
        meta: Box<GameMeta>,
        game: Box<AnyGame>,
    },
    /// A seat taken (see [`Store::take_seat`](super::Store::take_seat)).
    Seat(SeatWrite),
}

/// A write and where its answer goes.
struct WriteJob {
    write: GroupWrite,
    answer: oneshot::Sender<Result<(), StoreError>>,
}

impl GroupWrite {
    /// Makes the write within the group's transaction `tx`.
    async fn run(&self, store: &SqliteStore, tx: &mut SqliteConnection) -> Result<(), StoreError> {
        match self {
            GroupWrite::Move {
                id,
                version,
                ply,
                text,
                status,
                clock,
                now,
            } => {
                let mv = MoveWrite {
                    version: *version,
                    ply: *ply,
                    text,
                    status: *status,
                    clock: *clock,
                    now,
                };
                SqliteStore::write_move_in(tx, id, &mv).await
            }
            GroupWrite::NewGame { meta, game } => store.insert_game_in(tx, meta, game).await,
            GroupWrite::Seat(seat) => SqliteStore::take_seat_in(tx, seat).await,
        }
    }
}

/// The handle to the task that writes in groups (see the module's text). Without a running task
/// (the store outlived the runtime that opened it), each write is a group of its own.
#[derive(Clone)]
struct GroupWriter {
    queue: mpsc::Sender<WriteJob>,
}

impl GroupWriter {
    fn start(pool: SqlitePool) -> GroupWriter {
        let (queue, jobs) = mpsc::channel(QUEUE_MAX);
        tokio::spawn(write_groups(pool, jobs));
        GroupWriter { queue }
    }
}

/// The writer task: waits for a write, takes every other one already waiting (up to
/// [`BATCH_MAX`]), makes them in one transaction and answers each. Ends when every store handle
/// is gone.
async fn write_groups(pool: SqlitePool, mut jobs: mpsc::Receiver<WriteJob>) {
    // The steps shared with PostgreSQL are methods of a store; this one has no writer of its
    // own (it is only ever called from here, and never queues).
    let store = SqliteStore {
        pool: pool.clone(),
        writer: None,
    };
    let mut batch = Vec::with_capacity(BATCH_MAX);
    while jobs.recv_many(&mut batch, BATCH_MAX).await > 0 {
        metrics::histogram!(MOVE_BATCH_SIZE).record(batch.len() as f64);
        let answers = write_batch(&store, &batch).await;
        for (job, answer) in batch.drain(..).zip(answers) {
            // The writer may have gone (its request was cancelled): the write stands all the same.
            let _ = job.answer.send(answer);
        }
    }
}

/// Makes `batch` in one transaction; one answer per write, in order. A failed commit fails them
/// all (none is stored).
///
/// First without savepoints (each costs two more round trips to SQLite's thread per write, a
/// third of a group's time): when every write succeeds, that transaction is committed. When one
/// is refused, that transaction is rolled back unwritten and the group is made again with each
/// write in a savepoint of its own, so that the refused one changes nothing and the others
/// stand.
async fn write_batch(store: &SqliteStore, batch: &[WriteJob]) -> Vec<Result<(), StoreError>> {
    match write_all_or_none(store, batch).await {
        Ok(Some(())) => batch.iter().map(|_| Ok(())).collect(),
        Ok(None) => write_each_in_savepoint(store, batch).await,
        Err(err) => fail_all(batch.len(), err),
    }
}

/// Makes every write of `batch` in one transaction and commits it; `None` (nothing written) when
/// one of them was refused or failed.
async fn write_all_or_none(
    store: &SqliteStore,
    batch: &[WriteJob],
) -> Result<Option<()>, sqlx::Error> {
    let mut tx = store.pool.begin().await?;
    for job in batch {
        if job.write.run(store, &mut tx).await.is_err() {
            tx.rollback().await?;
            return Ok(None);
        }
    }
    tx.commit().await?;
    Ok(Some(()))
}

/// Makes `batch` in one transaction, each write in a savepoint.
async fn write_each_in_savepoint(
    store: &SqliteStore,
    batch: &[WriteJob],
) -> Vec<Result<(), StoreError>> {
    let mut tx = match store.pool.begin().await {
        Ok(tx) => tx,
        Err(err) => return fail_all(batch.len(), err),
    };
    let mut answers = Vec::with_capacity(batch.len());
    for job in batch {
        if let Err(err) = sqlx::query("SAVEPOINT write").execute(&mut *tx).await {
            return fail_all(batch.len(), err);
        }
        let written = job.write.run(store, &mut tx).await;
        // A savepoint that cannot be ended might leave half a write: the whole group is dropped
        // (rolled back) rather than committed.
        if written.is_err() {
            if let Err(err) = sqlx::query("ROLLBACK TO write").execute(&mut *tx).await {
                return fail_all(batch.len(), err);
            }
        }
        if let Err(err) = sqlx::query("RELEASE write").execute(&mut *tx).await {
            return fail_all(batch.len(), err);
        }
        answers.push(written);
    }
    match tx.commit().await {
        Ok(()) => answers,
        Err(err) => fail_all(batch.len(), err),
    }
}

/// How often the log is copied into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// Copies the write-ahead log into the database file every [`CHECKPOINT_EVERY`], beside the
/// writer rather than in its commits: a `PASSIVE` checkpoint waits for no reader or writer, and
/// once the whole log is copied the next writer starts it again from its beginning, so that it
/// stays about a second of writes long. Ends when every store handle is gone (`alive`, the
/// group writer's queue, is closed).
async fn checkpoint_in_the_background(pool: SqlitePool, alive: mpsc::WeakSender<WriteJob>) {
    let mut every = tokio::time::interval(CHECKPOINT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if alive.upgrade().is_none() {
            return;
        }
        if let Err(err) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            tracing::warn!("checkpoint of the database's log: {err}");
        }
    }
}

/// The same error for every write of a group (the first one carries the database's own).
fn fail_all(n: usize, err: sqlx::Error) -> Vec<Result<(), StoreError>> {
    let said = err.to_string();
    let mut answers = vec![Err(StoreError::Db(err))];
    answers.extend((1..n).map(|_| {
        Err(StoreError::Db(sqlx::Error::Io(std::io::Error::other(
            format!("the commit of a group of writes failed: {said}"),
        ))))
    }));
    answers
}

impl SqliteStore {
    /// Opens (creating when missing) the database at `url`, an `sqlite:` URL or a file name, and
    /// applies the migrations.
    pub async fn open(url: &str) -> Result<SqliteStore, sqlx::Error> {
        // A URL (`sqlite://games.db`, `sqlite::memory:`) or a plain file name (`games.db`).
        let options = if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url)?
        } else {
            SqliteConnectOptions::new().filename(url)
        };
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: a commit is on disk before it returns, so an acknowledged move survives a
            // killed process and a lost machine alike.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            // No connection checkpoints when it commits: the checkpoint (the log's pages
            // copied into the file, and an fsync of it) would hold up the group writer's
            // commit and every move queued behind it; [`checkpoint_in_the_background`] does it.
            .pragma("wal_autocheckpoint", "0");
        // An in-memory database lives in one connection; a file is shared by several.
        let connections = if url.contains(":memory:") || url.contains("mode=memory") {
            1
        } else {
            4
        };
        // Switching a new file to WAL takes an exclusive lock, and SQLite answers a second
        // connection switching at the same moment with "database is locked" at once (no busy
        // wait): the pool opens connections concurrently, so one connection first sets the mode
        // and applies the migrations, alone; the pool's connections then find WAL already set.
        if connections > 1 {
            let mut first = SqliteConnection::connect_with(&options).await?;
            sqlx::migrate!("./migrations/sqlite")
                .run(&mut first)
                .await
                .map_err(|e| sqlx::Error::Migrate(Box::new(e)))?;
            first.close().await?;
        }
        let pool = SqlitePoolOptions::new()
            .max_connections(connections)
            .min_connections(connections.min(1))
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations/sqlite")
            .run(&pool)
            .await
            .map_err(|e| sqlx::Error::Migrate(Box::new(e)))?;
        let writer = GroupWriter::start(pool.clone());
        if connections > 1 {
            let alive = writer.queue.downgrade();
            tokio::spawn(checkpoint_in_the_background(pool.clone(), alive));
        }
        let writer = Some(writer);
        Ok(SqliteStore { pool, writer })
    }
}

impl SqliteStore {
    /// Makes `write` in the writer's next group, and answers once that group is committed.
    async fn in_group(&self, write: GroupWrite) -> Result<(), StoreError> {
        let (answer, answered) = oneshot::channel();
        let job = WriteJob { write, answer };
        let unsent = match &self.writer {
            Some(writer) => match writer.queue.send(job).await {
                Ok(()) => {
                    return answered.await.unwrap_or_else(|_| {
                        Err(StoreError::Db(sqlx::Error::Io(std::io::Error::other(
                            "the group writer stopped before answering",
                        ))))
                    })
                }
                Err(mpsc::error::SendError(job)) => job,
            },
            None => job,
        };
        // No writer (its runtime is gone): this write alone, in a transaction of its own.
        let mut answers = write_batch(self, std::slice::from_ref(&unsent)).await;
        answers.pop().unwrap_or_else(|| {
            Err(StoreError::Db(sqlx::Error::Io(std::io::Error::other(
                "the write was not made",
            ))))
        })
    }

    /// The connection pool (for checks and tests).
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }
}

/// What SQLite does its own way (see [`Backend`]).
impl Backend for SqliteStore {
    type Db = sqlx::Sqlite;

    fn history_tie(&self) -> &'static str {
        "rowid"
    }

    async fn append_move(&self, id: &str, mv: &MoveWrite<'_>) -> Result<(), StoreError> {
        self.in_group(GroupWrite::Move {
            id: id.to_string(),
            version: mv.version,
            ply: mv.ply,
            text: mv.text.to_string(),
            status: mv.status,
            clock: mv.clock,
            now: mv.now.to_string(),
        })
        .await
    }

    async fn insert_game(&self, meta: &GameMeta, game: &AnyGame) -> Result<(), StoreError> {
        self.in_group(GroupWrite::NewGame {
            meta: Box::new(meta.clone()),
            game: Box::new(game.clone()),
        })
        .await
    }

    async fn take_seat(&self, seat: SeatWrite) -> Result<(), StoreError> {
        self.in_group(GroupWrite::Seat(seat)).await
    }

    /// One process owns the file: nobody to wake.
    async fn game_changed(&self, _: &mut SqliteConnection, _: &str) -> Result<(), sqlx::Error> {
        Ok(())
    }

    /// A SQLite transaction reads one snapshot from its first read on (WAL).
    async fn read_snapshot(&self, _: &mut SqliteConnection) -> Result<(), sqlx::Error> {
        Ok(())
    }

    async fn insert_moves(
        &self,
        tx: &mut SqliteConnection,
        id: &str,
        game: &AnyGame,
    ) -> Result<(), sqlx::Error> {
        for (ply, mv) in game.move_texts().into_iter().enumerate() {
            sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(ply as i64)
                .bind(mv)
                .execute(&mut *tx)
                .await?;
        }
        Ok(())
    }

    /// The settlement's first statement is a write: its transaction holds SQLite's one write
    /// lock from then on.
    async fn lock_ratings(
        &self,
        _: &mut SqliteConnection,
        _: [i64; 2],
        _: &str,
        _: &str,
    ) -> Result<(), sqlx::Error> {
        Ok(())
    }

    /// The count and the insert of a message are one statement, under SQLite's one writer.
    async fn lock_game(&self, _: &mut SqliteConnection, _: &str) -> Result<(), sqlx::Error> {
        Ok(())
    }

    async fn chat_stored(&self, _: &mut SqliteConnection, _: &ChatRow) -> Result<(), sqlx::Error> {
        Ok(())
    }

    fn identity_insert(&self) -> &'static str {
        ""
    }

    async fn identities_copied(
        &self,
        _: &mut SqliteConnection,
        _: &str,
    ) -> Result<(), sqlx::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::human_game;
    use crate::store::Store;
    use emergo_core::Color;

    fn job(id: &str, version: i64, ply: usize, text: &str) -> WriteJob {
        queued(GroupWrite::Move {
            id: id.to_string(),
            version,
            ply,
            text: text.to_string(),
            status: Status::Ongoing,
            clock: ClockColumns::default(),
            now: "2026-12-01T00:00:01Z".to_string(),
        })
    }

    fn queued(write: GroupWrite) -> WriteJob {
        WriteJob {
            write,
            answer: oneshot::channel().0,
        }
    }

    fn seat(id: &str, version: i64, color: Color) -> WriteJob {
        queued(GroupWrite::Seat(SeatWrite {
            id: id.to_string(),
            version,
            color,
            token_hash: format!("hash of {id}"),
            clock: ClockColumns::default(),
            now: "2026-12-01T00:00:01Z".to_string(),
        }))
    }

    fn new_game(id: &str) -> WriteJob {
        queued(GroupWrite::NewGame {
            meta: Box::new(human_game(id)),
            game: Box::new(AnyGame::default()),
        })
    }

    /// New games, seats and moves share a group; of two games with one id and two takers of one
    /// seat, the second is refused alone, and the rest stand.
    #[tokio::test]
    async fn new_games_and_seats_share_a_group_and_a_refused_one_changes_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("group.db").display());
        let sqlite = SqliteStore::open(&url).await.expect("store");
        let store = Store::Sqlite(sqlite.clone());
        let batch = [
            new_game("g1"),
            new_game("g2"),
            new_game("g1"),
            seat("g1", 0, Color::Black),
            seat("g1", 0, Color::Black),
            job("g2", 0, 0, "d3"),
        ];
        let answers = write_batch(&sqlite, &batch).await;
        let refused: Vec<bool> = answers
            .iter()
            .map(|a| matches!(a, Err(StoreError::Conflict(_))))
            .collect();
        assert_eq!(
            refused,
            [false, false, true, false, true, false],
            "{answers:?}"
        );
        let g1 = store.load("g1").await.expect("load").expect("g1 stored");
        assert_eq!(
            g1.meta.seats.black.token_hash.as_deref(),
            Some("hash of g1")
        );
        assert_eq!(g1.version, 1, "one seat taken, once");
        assert_eq!(store.moves("g2").await.expect("moves"), ["d3"]);
    }

    /// One group, one transaction: the refused moves (a stale version, a ply played twice)
    /// change nothing, and the moves around them — of the same game and of another — stand.
    #[tokio::test]
    async fn a_refused_move_in_a_group_changes_nothing_and_the_others_stand() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("group.db").display());
        let sqlite = SqliteStore::open(&url).await.expect("store");
        let store = Store::Sqlite(sqlite.clone());
        for id in ["g1", "g2"] {
            store
                .insert_game(&human_game(id), &AnyGame::default())
                .await
                .expect("insert");
        }
        // A stray row for g2's second ply: the move for that ply passes the guarded update and
        // fails on the moves' key, so only its savepoint's rollback undoes the update.
        sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ('g2', 1, 'a5')")
            .execute(sqlite.pool())
            .await
            .expect("stray row");
        let batch = [
            job("g1", 0, 0, "d3"),
            job("g2", 5, 0, "d3"),
            job("g2", 0, 0, "e1"),
            job("g2", 1, 1, "a5"),
            job("g1", 1, 1, "e1"),
            job("g1", 1, 1, "f2"),
        ];
        let answers = write_batch(&sqlite, &batch).await;
        let refused: Vec<bool> = answers
            .iter()
            .map(|a| matches!(a, Err(StoreError::Conflict(_))))
            .collect();
        assert_eq!(
            refused,
            [false, true, false, true, false, true],
            "{answers:?}"
        );
        assert!(answers
            .iter()
            .zip(&refused)
            .all(|(a, refused)| *refused || a.is_ok()));
        let rows: Vec<(String, i64, i64)> =
            sqlx::query_as("SELECT id, ply, version FROM games ORDER BY id")
                .fetch_all(sqlite.pool())
                .await
                .expect("games");
        assert_eq!(rows, [("g1".into(), 2, 2), ("g2".into(), 1, 1)]);
    }
}
