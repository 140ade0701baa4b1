//! SQLite, the embedded default: one file, WAL, every commit on disk before it returns.
//!
//! A commit costs one `fsync` of the write-ahead log, and SQLite has one writer at a time, so a
//! move per transaction caps the site at one move per `fsync` (a few hundred per second on a good
//! disk, far fewer on a busy one). Moves are therefore written by one task, [`MoveWriter`], that
//! takes every move waiting at that moment into one transaction — each in a savepoint of its own,
//! so that a refused move changes nothing and is answered alone — and commits them with one
//! `fsync` (group commit). A move is acknowledged only after that commit.

pub(in crate::store) mod accounts;
mod chat;
mod notifications;

use super::rows::{self, GameRow, MoveRow, SummaryDbRow, GAME_COLUMNS, SUMMARY_COLUMNS};
use super::{
    conflict_on_unique, status_columns, ClockColumns, GameStore, MoveWrite, StatusFilter,
    StoreError, StoredGame, SummaryRow,
};
use crate::domain::model::GameMeta;
use emergo_core::{Color, Game, Status};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::Connection;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

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
        let written = write_move_in(&mut tx, job).await;
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

/// One move: the guarded update of the game's row, then the move's row.
async fn write_move_in(tx: &mut SqliteConnection, mv: &MoveJob) -> Result<(), StoreError> {
    let (result, reason) = status_columns(mv.status);
    let c = mv.clock;
    // The guarded update first: it locks the game's row, so that a second instance's
    // submission for the same ply waits here and then finds the game moved on.
    let done = sqlx::query(
        "UPDATE games SET ply = ?1 + 1, result = ?2, reason = ?3, draw_offer = NULL,
            takeback_offer = NULL, takeback_declined = NULL, updated_at = ?4,
            version = version + 1, white_ms = ?7, black_ms = ?8,
            turn_started_ms = ?9, flag_at_ms = ?10
         WHERE id = ?5 AND ply = ?1 AND version = ?6 AND result IS NULL",
    )
    .bind(mv.ply as i64)
    .bind(result)
    .bind(reason)
    .bind(&mv.now)
    .bind(&mv.id)
    .bind(mv.version)
    .bind(c.white_ms)
    .bind(c.black_ms)
    .bind(c.turn_started_ms)
    .bind(c.flag_at_ms)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Conflict("the game changed meanwhile"));
    }
    sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES (?1, ?2, ?3)")
        .bind(&mv.id)
        .bind(mv.ply as i64)
        .bind(&mv.text)
        .execute(&mut *tx)
        .await
        .map_err(conflict_on_unique("ply already played"))?;
    Ok(())
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

impl GameStore for SqliteStore {
    async fn close(&self) {
        self.pool.close().await;
    }

    async fn insert_game(&self, meta: &GameMeta, game: &Game) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        insert_game_in(&mut tx, meta, game).await?;
        tx.commit().await?;
        Ok(())
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

    async fn truncate(
        &self,
        id: &str,
        version: i64,
        ply: usize,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET ply = ?1, result = NULL, reason = NULL, draw_offer = NULL,
                takeback_offer = NULL, takeback_declined = NULL, updated_at = ?2,
                version = version + 1, white_ms = ?5, black_ms = ?6, turn_started_ms = ?7,
                flag_at_ms = ?8
             WHERE id = ?3 AND version = ?4 AND ply >= ?1",
        )
        .bind(ply as i64)
        .bind(now)
        .bind(id)
        .bind(version)
        .bind(clock.white_ms)
        .bind(clock.black_ms)
        .bind(clock.turn_started_ms)
        .bind(clock.flag_at_ms)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("the game changed meanwhile"));
        }
        sqlx::query("DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2")
            .bind(id)
            .bind(ply as i64)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn take_seat(
        &self,
        id: &str,
        version: i64,
        color: Color,
        token_hash: &str,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        // The column name comes from a fixed pair, never from the request.
        let column = match color {
            Color::White => "white_token",
            Color::Black => "black_token",
        };
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(&format!(
            "UPDATE games SET {column} = ?1, updated_at = ?2, version = version + 1,
                white_ms = ?5, black_ms = ?6, turn_started_ms = ?7, flag_at_ms = ?8
             WHERE id = ?3 AND version = ?4 AND {column} IS NULL"
        ))
        .bind(token_hash)
        .bind(now)
        .bind(id)
        .bind(version)
        .bind(clock.white_ms)
        .bind(clock.black_ms)
        .bind(clock.turn_started_ms)
        .bind(clock.flag_at_ms)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("the game changed meanwhile"));
        }
        tx.commit().await?;
        Ok(())
    }

    async fn finish(
        &self,
        id: &str,
        version: i64,
        status: Status,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        let (result, reason) = status_columns(status);
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET result = ?1, reason = ?2, draw_offer = NULL, takeback_offer = NULL,
                updated_at = ?3,
                version = version + 1, white_ms = ?6, black_ms = ?7, turn_started_ms = NULL,
                flag_at_ms = NULL
             WHERE id = ?4 AND version = ?5 AND result IS NULL",
        )
        .bind(result)
        .bind(reason)
        .bind(now)
        .bind(id)
        .bind(version)
        .bind(clock.white_ms)
        .bind(clock.black_ms)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("the game changed meanwhile"));
        }
        tx.commit().await?;
        Ok(())
    }

    async fn due_flags(&self, by_ms: i64, limit: u32) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, flag_at_ms FROM games
             WHERE flag_at_ms IS NOT NULL AND result IS NULL AND flag_at_ms <= ?1
             ORDER BY flag_at_ms LIMIT ?2",
        )
        .bind(by_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    async fn set_draw_offer(
        &self,
        id: &str,
        version: i64,
        offer: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET draw_offer = ?1, updated_at = ?2, version = version + 1
             WHERE id = ?3 AND version = ?4 AND result IS NULL",
        )
        .bind(offer.map(Color::name))
        .bind(now)
        .bind(id)
        .bind(version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("the game changed meanwhile"));
        }
        tx.commit().await?;
        Ok(())
    }

    async fn set_takeback(
        &self,
        id: &str,
        version: i64,
        offer: Option<Color>,
        declined: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET takeback_offer = ?1, takeback_declined = ?5, updated_at = ?2,
                version = version + 1
             WHERE id = ?3 AND version = ?4 AND result IS NULL",
        )
        .bind(offer.map(Color::name))
        .bind(now)
        .bind(id)
        .bind(version)
        .bind(declined.map(Color::name))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("the game changed meanwhile"));
        }
        tx.commit().await?;
        Ok(())
    }

    async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let found: Option<(i64,)> = sqlx::query_as("SELECT version FROM games WHERE id = ?1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.map(|(v,)| v))
    }

    async fn game_ids(&self, after: i64, limit: u32) -> Result<Vec<(i64, String)>, StoreError> {
        let found: Vec<(i64, String)> =
            sqlx::query_as("SELECT seq, id FROM games WHERE seq > ?1 ORDER BY seq LIMIT ?2")
                .bind(after)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
        Ok(found)
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let row: Option<GameRow> =
            sqlx::query_as(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?"))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let moves: Vec<MoveRow> =
            sqlx::query_as("SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        rows::stored_game_off_runtime(row, moves).await.map(Some)
    }

    async fn list(&self, filter: StatusFilter, limit: u32) -> Result<Vec<SummaryRow>, StoreError> {
        let found: Vec<SummaryDbRow> = sqlx::query_as(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM games {} ORDER BY seq DESC LIMIT ?",
            filter.condition()
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        found.into_iter().map(rows::summary).collect()
    }

    async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let found: Vec<(String,)> =
            sqlx::query_as("SELECT move FROM moves WHERE game_id = ? ORDER BY ply")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        Ok(found.into_iter().map(|(m,)| m).collect())
    }

    // --- studying games (issue 12): reviews and imported records ---

    async fn put_review(
        &self,
        id: &str,
        moves: &str,
        review: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO reviews (game_id, moves, review, created_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (game_id) DO UPDATE SET moves = excluded.moves,
                 review = excluded.review, created_at = excluded.created_at",
        )
        .bind(id)
        .bind(moves)
        .bind(review)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn review(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        Ok(
            sqlx::query_as("SELECT moves, review FROM reviews WHERE game_id = ?")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    async fn put_record(&self, id: &str, record: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO records (game_id, record) VALUES (?, ?)
             ON CONFLICT (game_id) DO UPDATE SET record = excluded.record",
        )
        .bind(id)
        .bind(record)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn record(&self, id: &str) -> Result<Option<String>, StoreError> {
        let found: Option<(String,)> =
            sqlx::query_as("SELECT record FROM records WHERE game_id = ?")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(found.map(|(r,)| r))
    }

    async fn set_rematch_offer(
        &self,
        id: &str,
        from: Option<Color>,
        to: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE games SET rematch_offer = ?, updated_at = ?, version = version + 1
             WHERE id = ? AND rematch_game IS NULL AND rematch_offer IS ?",
        )
        .bind(to.map(Color::name))
        .bind(now)
        .bind(id)
        .bind(from.map(Color::name))
        .execute(&self.pool)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("rematch offer changed"));
        }
        Ok(())
    }

    async fn set_rematch_game(
        &self,
        id: &str,
        offer: Color,
        rematch: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE games SET rematch_game = ?, updated_at = ?, version = version + 1
             WHERE id = ? AND rematch_game IS NULL AND rematch_offer = ?",
        )
        .bind(rematch)
        .bind(now)
        .bind(id)
        .bind(offer.name())
        .execute(&self.pool)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("rematch made already"));
        }
        Ok(())
    }

    async fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM games WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// Stores a new game with its moves within the transaction `tx` (a game alone, or a seek's
/// game with the seek's acceptance).
pub(super) async fn insert_game_in(
    tx: &mut sqlx::SqliteConnection,
    meta: &GameMeta,
    game: &Game,
) -> Result<(), StoreError> {
    let (result, reason) = status_columns(game.status());
    let (control, clock) = rows::clock_insert(meta, game);
    sqlx::query(
        "INSERT INTO games (id, mode, level, white_kind, black_kind, white_token, black_token,
            invite, start, tags, ply, result, reason, draw_offer, created_at, updated_at,
            white_account, black_account, rated,
            time_control, white_ms, black_ms, turn_started_ms, flag_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&meta.id)
    .bind(meta.mode.name())
    .bind(meta.level.map(|l| i64::from(l.get())))
    .bind(meta.seats.white.kind.name())
    .bind(meta.seats.black.kind.name())
    .bind(&meta.seats.white.token_hash)
    .bind(&meta.seats.black.token_hash)
    .bind(&meta.invite_hash)
    .bind(game.start().to_string())
    .bind(rows::tags_text(meta))
    .bind(game.ply() as i64)
    .bind(result)
    .bind(reason)
    .bind(meta.draw_offer.map(Color::name))
    .bind(&meta.created_at)
    .bind(&meta.updated_at)
    .bind(meta.players.white.as_ref().map(|p| p.id))
    .bind(meta.players.black.as_ref().map(|p| p.id))
    .bind(meta.players.rated.map(|c| c.name()))
    .bind(control)
    .bind(clock.white_ms)
    .bind(clock.black_ms)
    .bind(clock.turn_started_ms)
    .bind(clock.flag_at_ms)
    .execute(&mut *tx)
    .await
    .map_err(conflict_on_unique("game id taken"))?;
    for (ply, mv) in game.moves().iter().enumerate() {
        sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)")
            .bind(&meta.id)
            .bind(ply as i64)
            .bind(mv.to_string())
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::model::{Mode, Seat, SeatKind};
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
        let store = SqliteStore::open(&url).await.expect("store");
        for id in ["g1", "g2"] {
            store
                .insert_game(&human_game(id), &Game::default())
                .await
                .expect("insert");
        }
        // A stray row for g2's second ply: the move for that ply passes the guarded update and
        // fails on the moves' key, so only its savepoint's rollback undoes the update.
        sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ('g2', 1, 'a5')")
            .execute(&store.pool)
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
        let answers = write_batch(&store.pool, &batch).await;
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
                .fetch_all(&store.pool)
                .await
                .expect("games");
        assert_eq!(rows, [("g1".into(), 2, 2), ("g2".into(), 1, 1)]);
    }
}
