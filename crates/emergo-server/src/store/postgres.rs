//! PostgreSQL, for several server instances over one database. The same contract as SQLite;
//! every write to a game is guarded by the game's version (refused with `Conflict` when another
//! instance changed the game since the writer read it) and also sends a wake-up
//! (`NOTIFY emergo_games, '<id> <ply> <version> <instance>'`) that is delivered when its transaction commits, so that the other instances
//! re-read the game.

mod accounts;
mod chat;
mod notifications;
pub use chat::CHAT_CHANNEL;

use super::rows::{self, GameRow, MoveRow, SummaryDbRow, GAME_COLUMNS, SUMMARY_COLUMNS};
use super::{
    conflict_on_unique, status_columns, ClockColumns, GameStore, MoveWrite, StatusFilter,
    StoreError, StoredGame, SummaryRow,
};
use crate::domain::model::GameMeta;
use emergo_core::{Color, Game, Status};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{PgConnection, Postgres, Transaction};
use std::str::FromStr;
use std::time::Duration;

/// The channel of the wake-ups.
pub const CHANNEL: &str = "emergo_games";

/// How long a request waits for a connection before it fails (with the database down, a
/// request gets its error quickly instead of hanging).
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
    /// This store's name in its wake-ups (random), so that an instance can skip its own.
    instance: String,
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/name`) and applies
    /// the migrations.
    pub async fn open(url: &str) -> Result<PgStore, sqlx::Error> {
        let options = PgConnectOptions::from_str(url)?.application_name("emergo");
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations/postgres")
            .run(&pool)
            .await
            .map_err(|e| sqlx::Error::Migrate(Box::new(e)))?;
        let mut bytes = [0u8; 8];
        let _ = getrandom::fill(&mut bytes);
        let instance = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Ok(PgStore { pool, instance })
    }

    /// This store's name in the wake-ups it sends.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The connection pool (for the listener of wake-ups and for checks).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

impl PgStore {
    /// Wakes the other instances once `tx` commits: `<game id> <ply> <version> <instance>`.
    async fn notify(
        &self,
        tx: &mut Transaction<'_, Postgres>,
        id: &str,
    ) -> Result<(), sqlx::Error> {
        let conn: &mut PgConnection = tx;
        sqlx::query(
            "SELECT pg_notify($1, id || ' ' || ply || ' ' || version || ' ' || $2)
             FROM games WHERE id = $3",
        )
        .bind(CHANNEL)
        .bind(&self.instance)
        .bind(id)
        .execute(conn)
        .await?;
        Ok(())
    }
}

impl GameStore for PgStore {
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
        let (result, reason) = status_columns(mv.status);
        let c = mv.clock;
        let mut tx = self.pool.begin().await?;
        // The guarded update first: it locks the game's row, so that a second instance's
        // submission for the same ply waits here and then finds the game moved on.
        let done = sqlx::query(
            "UPDATE games SET ply = $1 + 1, result = $2, reason = $3, draw_offer = NULL,
                takeback_offer = NULL, takeback_declined = NULL, updated_at = $4, version = version + 1, white_ms = $7, black_ms = $8,
                turn_started_ms = $9, flag_at_ms = $10
             WHERE id = $5 AND ply = $1 AND version = $6 AND result IS NULL",
        )
        .bind(mv.ply as i64)
        .bind(result)
        .bind(reason)
        .bind(mv.now)
        .bind(id)
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
        sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(mv.ply as i64)
            .bind(mv.text)
            .execute(&mut *tx)
            .await
            .map_err(conflict_on_unique("ply already played"))?;
        self.notify(&mut tx, id).await?;
        tx.commit().await?;
        Ok(())
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
            "UPDATE games SET ply = $1, result = NULL, reason = NULL, draw_offer = NULL,
                takeback_offer = NULL, takeback_declined = NULL, updated_at = $2,
                version = version + 1, white_ms = $5, black_ms = $6, turn_started_ms = $7,
                flag_at_ms = $8
             WHERE id = $3 AND version = $4 AND ply >= $1",
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
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(id)
            .bind(ply as i64)
            .execute(&mut *tx)
            .await?;
        self.notify(&mut tx, id).await?;
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
            "UPDATE games SET {column} = $1, updated_at = $2, version = version + 1,
                white_ms = $5, black_ms = $6, turn_started_ms = $7, flag_at_ms = $8
             WHERE id = $3 AND version = $4 AND {column} IS NULL"
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
        self.notify(&mut tx, id).await?;
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
            "UPDATE games SET result = $1, reason = $2, draw_offer = NULL, takeback_offer = NULL,
                updated_at = $3,
                version = version + 1, white_ms = $6, black_ms = $7, turn_started_ms = NULL,
                flag_at_ms = NULL
             WHERE id = $4 AND version = $5 AND result IS NULL",
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
        self.notify(&mut tx, id).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn due_flags(&self, by_ms: i64, limit: u32) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, flag_at_ms FROM games
             WHERE flag_at_ms IS NOT NULL AND result IS NULL AND flag_at_ms <= $1
             ORDER BY flag_at_ms LIMIT $2",
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
            "UPDATE games SET draw_offer = $1, updated_at = $2, version = version + 1
             WHERE id = $3 AND version = $4 AND result IS NULL",
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
        self.notify(&mut tx, id).await?;
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
            "UPDATE games SET takeback_offer = $1, takeback_declined = $5, updated_at = $2,
                version = version + 1
             WHERE id = $3 AND version = $4 AND result IS NULL",
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
        self.notify(&mut tx, id).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let found: Option<(i64,)> = sqlx::query_as("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.map(|(v,)| v))
    }

    async fn game_ids(&self, after: i64, limit: u32) -> Result<Vec<(i64, String)>, StoreError> {
        let found: Vec<(i64, String)> =
            sqlx::query_as("SELECT seq, id FROM games WHERE seq > $1 ORDER BY seq LIMIT $2")
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
        // One snapshot for the game and its moves: a move committed in between cannot make
        // them disagree.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        let row: Option<GameRow> =
            sqlx::query_as(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let moves: Vec<MoveRow> =
            sqlx::query_as("SELECT ply, move FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
        rows::stored_game_off_runtime(row, moves).await.map(Some)
    }

    async fn list(&self, filter: StatusFilter, limit: u32) -> Result<Vec<SummaryRow>, StoreError> {
        let found: Vec<SummaryDbRow> = sqlx::query_as(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM games {} ORDER BY seq DESC LIMIT $1",
            filter.condition()
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        found.into_iter().map(rows::summary).collect()
    }

    async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let found: Vec<(String,)> =
            sqlx::query_as("SELECT move FROM moves WHERE game_id = $1 ORDER BY ply")
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
            "INSERT INTO reviews (game_id, moves, review, created_at) VALUES ($1, $2, $3, $4)
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
            sqlx::query_as("SELECT moves, review FROM reviews WHERE game_id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    async fn put_record(&self, id: &str, record: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO records (game_id, record) VALUES ($1, $2)
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
            sqlx::query_as("SELECT record FROM records WHERE game_id = $1")
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
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET rematch_offer = $1, updated_at = $2, version = version + 1
             WHERE id = $3 AND rematch_game IS NULL AND rematch_offer IS NOT DISTINCT FROM $4",
        )
        .bind(to.map(Color::name))
        .bind(now)
        .bind(id)
        .bind(from.map(Color::name))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("rematch offer changed"));
        }
        self.notify(&mut tx, id).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn set_rematch_game(
        &self,
        id: &str,
        offer: Color,
        rematch: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET rematch_game = $1, updated_at = $2, version = version + 1
             WHERE id = $3 AND rematch_game IS NULL AND rematch_offer = $4",
        )
        .bind(rematch)
        .bind(now)
        .bind(id)
        .bind(offer.name())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("rematch made already"));
        }
        self.notify(&mut tx, id).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM games WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// Stores a new game with its moves within the transaction `tx` (a game alone, or a seek's
/// game with the seek's acceptance).
pub(super) async fn insert_game_in(
    tx: &mut sqlx::PgConnection,
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
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
            $17, $18, $19, $20, $21, $22, $23, $24)",
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
    let plies: Vec<i64> = (0..game.moves().len() as i64).collect();
    let texts: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    sqlx::query(
        "INSERT INTO moves (game_id, ply, move) SELECT $1, * FROM UNNEST($2::BIGINT[], $3::TEXT[])",
    )
    .bind(&meta.id)
    .bind(&plies)
    .bind(&texts)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
