//! SQLite, the embedded default: one file, WAL, every commit on disk before it returns.
//!
//! A commit costs one `fsync` of the write-ahead log, and SQLite has one writer at a time, so a
//! move per transaction caps the site at one move per `fsync` (a few hundred per second on a good
//! disk, far fewer on a busy one). Moves are therefore written by one task, [`MoveWriter`], that
//! takes every move waiting at that moment into one transaction — each in a savepoint of its own,
//! so that a refused move changes nothing and is answered alone — and commits them with one
//! `fsync` (group commit). A move is acknowledged only after that commit.
//!
//! Everything else SQLite shares with PostgreSQL (store/games.rs and its siblings); here is only
//! what differs: [`SqliteStore::open`] and the migrations of `migrations/sqlite`, the group
//! commit of moves, and the [`Backend`] steps that SQLite does not need.

use super::chat::ChatRow;
use super::{Backend, ClockColumns, MoveWrite, StoreError};
use emergo_core::{Game, Status};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::Connection;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// The SQLite backend: its pool and its move writer.
#[derive(Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    moves: MoveWriter,
}

/// The moves written in one transaction, as a histogram (SQLite).
pub const MOVE_BATCH_SIZE: &str = "emergo_store_move_batch_size";

/// At most this many moves share a commit.
const BATCH_MAX: usize = 64;
/// Moves waiting for the writer; a full queue makes the next mover wait (back-pressure).
const QUEUE_MAX: usize = 1024;

/// A move to write, owned (it crosses to the writer task), and where its answer goes.
struct MoveJob {
    id: String,
    version: i64,
    ply: usize,
    text: String,
    status: Status,
    clock: ClockColumns,
    now: String,
    answer: oneshot::Sender<Result<(), StoreError>>,
}

impl MoveJob {
    /// The move as the shared statements take it.
    fn write(&self) -> MoveWrite<'_> {
        MoveWrite {
            version: self.version,
            ply: self.ply,
            text: &self.text,
            status: self.status,
            clock: self.clock,
            now: &self.now,
        }
    }
}

/// The handle to the task that writes moves in groups (see the module's text). Without a
/// running task (the store outlived the runtime that opened it), moves are written one by one.
#[derive(Clone)]
struct MoveWriter {
    queue: mpsc::Sender<MoveJob>,
}

impl MoveWriter {
    fn start(pool: SqlitePool) -> MoveWriter {
        let (queue, jobs) = mpsc::channel(QUEUE_MAX);
        tokio::spawn(write_moves(pool, jobs));
        MoveWriter { queue }
    }
}

/// The writer task: waits for a move, takes every other one already waiting (up to
/// [`BATCH_MAX`]), writes them in one transaction and answers each. Ends when every store handle
/// is gone.
async fn write_moves(pool: SqlitePool, mut jobs: mpsc::Receiver<MoveJob>) {
    let mut batch = Vec::with_capacity(BATCH_MAX);
    while jobs.recv_many(&mut batch, BATCH_MAX).await > 0 {
        metrics::histogram!(MOVE_BATCH_SIZE).record(batch.len() as f64);
        let answers = write_batch(&pool, &batch).await;
        for (job, answer) in batch.drain(..).zip(answers) {
            // The mover may have gone (its request was cancelled): the move stands all the same.
            let _ = job.answer.send(answer);
        }
    }
}

/// Writes `batch` in one transaction, each move in a savepoint; one answer per move, in order.
/// A failed commit fails them all (none is stored).
async fn write_batch(pool: &SqlitePool, batch: &[MoveJob]) -> Vec<Result<(), StoreError>> {
    let mut tx = match pool.begin().await {
        Ok(tx) => tx,
        Err(err) => return fail_all(batch.len(), err),
    };
    let mut answers = Vec::with_capacity(batch.len());
    for job in batch {
        if let Err(err) = sqlx::query("SAVEPOINT move").execute(&mut *tx).await {
            return fail_all(batch.len(), err);
        }
        let written = SqliteStore::write_move_in(&mut tx, &job.id, &job.write()).await;
        // A savepoint that cannot be ended might leave half a move: the whole group is dropped
        // (rolled back) rather than committed.
        if written.is_err() {
            if let Err(err) = sqlx::query("ROLLBACK TO move").execute(&mut *tx).await {
                return fail_all(batch.len(), err);
            }
        }
        if let Err(err) = sqlx::query("RELEASE move").execute(&mut *tx).await {
            return fail_all(batch.len(), err);
        }
        answers.push(written);
    }
    match tx.commit().await {
        Ok(()) => answers,
        Err(err) => fail_all(batch.len(), err),
    }
}

/// The same error for every move of a batch (the first one carries the database's own).
fn fail_all(n: usize, err: sqlx::Error) -> Vec<Result<(), StoreError>> {
    let said = err.to_string();
    let mut answers = vec![Err(StoreError::Db(err))];
    answers.extend((1..n).map(|_| {
        Err(StoreError::Db(sqlx::Error::Io(std::io::Error::other(
            format!("the commit of a group of moves failed: {said}"),
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
            .busy_timeout(Duration::from_secs(10));
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
        let moves = MoveWriter::start(pool.clone());
        Ok(SqliteStore { pool, moves })
    }
}

impl SqliteStore {
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
        let (answer, answered) = oneshot::channel();
        let job = MoveJob {
            id: id.to_string(),
            version: mv.version,
            ply: mv.ply,
            text: mv.text.to_string(),
            status: mv.status,
            clock: mv.clock,
            now: mv.now.to_string(),
            answer,
        };
        match self.moves.queue.send(job).await {
            Ok(()) => answered.await.unwrap_or_else(|_| {
                Err(StoreError::Db(sqlx::Error::Io(std::io::Error::other(
                    "the move writer stopped before answering",
                ))))
            }),
            // No writer (its runtime is gone): this move alone, in a transaction of its own.
            Err(mpsc::error::SendError(job)) => {
                let mut answers = write_batch(&self.pool, std::slice::from_ref(&job)).await;
                answers.pop().unwrap_or_else(|| {
                    Err(StoreError::Db(sqlx::Error::Io(std::io::Error::other(
                        "the move was not written",
                    ))))
                })
            }
        }
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
        game: &Game,
    ) -> Result<(), sqlx::Error> {
        for (ply, mv) in game.moves().iter().enumerate() {
            sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(ply as i64)
                .bind(mv.to_string())
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
    use crate::domain::model::{GameMeta, Mode, Seat, SeatKind};
    use crate::store::Store;
    use emergo_core::ByColor;

    fn human_game(id: &str) -> GameMeta {
        let seat = || Seat {
            kind: SeatKind::Human,
            token_hash: None,
        };
        GameMeta {
            id: id.to_string(),
            mode: Mode::Human,
            level: None,
            seats: ByColor::new(seat(), seat()),
            invite_hash: None,
            tags: Vec::new(),
            draw_offer: None,
            takeback: Default::default(),
            rematch: Default::default(),
            players: Default::default(),
            clock: None,
            created_at: "2026-12-01T00:00:00Z".to_string(),
            updated_at: "2026-12-01T00:00:00Z".to_string(),
        }
    }

    fn job(id: &str, version: i64, ply: usize, text: &str) -> MoveJob {
        MoveJob {
            id: id.to_string(),
            version,
            ply,
            text: text.to_string(),
            status: Status::Ongoing,
            clock: ClockColumns::default(),
            now: "2026-12-01T00:00:01Z".to_string(),
            answer: oneshot::channel().0,
        }
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
                .insert_game(&human_game(id), &Game::default())
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
        let answers = write_batch(sqlite.pool(), &batch).await;
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
