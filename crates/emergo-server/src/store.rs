//! The database: games and moves in SQLite, through sqlx's runtime queries. Every write is one
//! transaction, committed before the caller acknowledges anything.

use crate::model::{color_from_name, color_name, GameMeta, Mode, Seat, SeatKind};
use emergo_core::{Color, EndReason, Game, Outcome, Position, Status};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow,
    SqliteSynchronous,
};
use sqlx::Row;
use std::str::FromStr;
use std::time::Duration;

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

/// A stored game: its metadata and the game replayed from its moves.
pub struct StoredGame {
    pub meta: GameMeta,
    pub game: Game,
}

/// A line of the list of games.
#[derive(Clone, Debug)]
pub struct SummaryRow {
    pub id: String,
    pub mode: Mode,
    pub level: Option<u8>,
    pub seats: [Seat; 2],
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

/// The result and reason columns for a game's status.
pub fn status_columns(status: Status) -> (Option<&'static str>, Option<&'static str>) {
    match status {
        Status::Ongoing => (None, None),
        Status::Finished { outcome, reason } => (Some(outcome.token()), Some(reason.name())),
    }
}

#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
}

impl Store {
    /// Opens (creating when missing) the database at `url`, an `sqlite:` URL or a file name, and
    /// applies the migrations.
    pub async fn open(url: &str) -> Result<Store, sqlx::Error> {
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
        let pool = SqlitePoolOptions::new()
            .max_connections(connections)
            .min_connections(connections.min(1))
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| sqlx::Error::Migrate(Box::new(e)))?;
        Ok(Store { pool })
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Stores a new game with its moves (none, or those of an imported record).
    pub async fn insert_game(&self, meta: &GameMeta, game: &Game) -> Result<(), StoreError> {
        let (result, reason) = status_columns(game.status());
        let tags = serde_json::to_string(&meta.tags).unwrap_or_else(|_| "[]".to_string());
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, mode, level, white_kind, black_kind, white_token, black_token,
                invite, start, tags, ply, result, reason, draw_offer, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&meta.id)
        .bind(meta.mode.name())
        .bind(meta.level.map(i64::from))
        .bind(meta.seats[0].kind.name())
        .bind(meta.seats[1].kind.name())
        .bind(&meta.seats[0].token_hash)
        .bind(&meta.seats[1].token_hash)
        .bind(&meta.invite_hash)
        .bind(game.start().to_string())
        .bind(tags)
        .bind(game.ply() as i64)
        .bind(result)
        .bind(reason)
        .bind(meta.draw_offer.map(color_name))
        .bind(&meta.created_at)
        .bind(&meta.updated_at)
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
        tx.commit().await?;
        Ok(())
    }

    /// Stores the move played at `ply` and the game's new status, or refuses with `Conflict`
    /// when that ply is already stored (the primary key is the last line of defence).
    pub async fn append_move(
        &self,
        id: &str,
        ply: usize,
        text: &str,
        status: Status,
        now: &str,
    ) -> Result<(), StoreError> {
        let (result, reason) = status_columns(status);
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES (?, ?, ?)")
            .bind(id)
            .bind(ply as i64)
            .bind(text)
            .execute(&mut *tx)
            .await
            .map_err(conflict_on_unique("ply already played"))?;
        let done = sqlx::query(
            "UPDATE games SET ply = ? + 1, result = ?, reason = ?, draw_offer = NULL,
                updated_at = ? WHERE id = ? AND ply = ?",
        )
        .bind(ply as i64)
        .bind(result)
        .bind(reason)
        .bind(now)
        .bind(id)
        .bind(ply as i64)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("ply already played"));
        }
        tx.commit().await?;
        Ok(())
    }

    /// Takes back every move from `ply` on (engine games' takeback); the game is ongoing after.
    pub async fn truncate(&self, id: &str, ply: usize, now: &str) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM moves WHERE game_id = ? AND ply >= ?")
            .bind(id)
            .bind(ply as i64)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE games SET ply = ?, result = NULL, reason = NULL, draw_offer = NULL,
                updated_at = ? WHERE id = ?",
        )
        .bind(ply as i64)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Gives the free seat of `color` its token's hash; `Conflict` if it was taken meanwhile.
    pub async fn take_seat(
        &self,
        id: &str,
        color: Color,
        token_hash: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        // The column name comes from a fixed pair, never from the request.
        let column = match color {
            Color::White => "white_token",
            Color::Black => "black_token",
        };
        let done = sqlx::query(&format!(
            "UPDATE games SET {column} = ?, updated_at = ? WHERE id = ? AND {column} IS NULL"
        ))
        .bind(token_hash)
        .bind(now)
        .bind(id)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("seat taken"));
        }
        Ok(())
    }

    /// Ends a game by resignation or agreement.
    pub async fn finish(&self, id: &str, status: Status, now: &str) -> Result<(), StoreError> {
        let (result, reason) = status_columns(status);
        sqlx::query(
            "UPDATE games SET result = ?, reason = ?, draw_offer = NULL, updated_at = ?
             WHERE id = ?",
        )
        .bind(result)
        .bind(reason)
        .bind(now)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records who offers a draw now.
    pub async fn set_draw_offer(
        &self,
        id: &str,
        offer: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET draw_offer = ?, updated_at = ? WHERE id = ?")
            .bind(offer.map(color_name))
            .bind(now)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Reads a game and replays its moves; `None` for an unknown id.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT id, mode, level, white_kind, black_kind, white_token, black_token, invite,
                start, tags, result, reason, draw_offer, created_at, updated_at
             FROM games WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let corrupt = |message: String| StoreError::Corrupt {
            id: id.to_string(),
            message,
        };
        let mode_text: String = row.try_get("mode")?;
        let mode =
            Mode::from_name(&mode_text).ok_or_else(|| corrupt(format!("mode {mode_text}")))?;
        let seats = read_seats(&row).map_err(corrupt)?;
        let tags_text: String = row.try_get("tags")?;
        let tags: Vec<(String, String)> = serde_json::from_str(&tags_text).unwrap_or_default();
        let draw_offer: Option<String> = row.try_get("draw_offer")?;
        let meta = GameMeta {
            id: row.try_get("id")?,
            mode,
            level: read_level(&row)?,
            seats,
            invite_hash: row.try_get("invite")?,
            tags,
            draw_offer: draw_offer.as_deref().and_then(color_from_name),
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
        };
        let start_text: String = row.try_get("start")?;
        let start: Position = start_text
            .parse()
            .map_err(|e| corrupt(format!("start position: {e}")))?;
        let mut game = Game::new(start);
        let moves = sqlx::query("SELECT ply, move FROM moves WHERE game_id = ? ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        for (i, m) in moves.iter().enumerate() {
            let ply: i64 = m.try_get("ply")?;
            let text: String = m.try_get("move")?;
            if ply != i as i64 {
                return Err(corrupt(format!("ply {i} is missing")));
            }
            game.play_text(&text)
                .map_err(|e| corrupt(format!("ply {ply} ({text}): {e}")))?;
        }
        let result: Option<String> = row.try_get("result")?;
        let reason: Option<String> = row.try_get("reason")?;
        if let (Some(result), Some(reason)) = (result, reason) {
            let outcome = Outcome::from_token(&result);
            let reason = EndReason::from_name(&reason);
            if let (Some(outcome), Some(reason)) = (outcome, reason) {
                if game.status() == Status::Ongoing {
                    game.declare(outcome, reason)
                        .map_err(|e| corrupt(format!("result: {e}")))?;
                }
            }
        }
        Ok(Some(StoredGame { meta, game }))
    }

    /// The newest games first.
    pub async fn list(
        &self,
        filter: StatusFilter,
        limit: u32,
    ) -> Result<Vec<SummaryRow>, StoreError> {
        let condition = match filter {
            StatusFilter::All => "",
            StatusFilter::Ongoing => "WHERE result IS NULL",
            StatusFilter::Finished => "WHERE result IS NOT NULL",
        };
        let rows = sqlx::query(&format!(
            "SELECT id, mode, level, white_kind, black_kind, white_token, black_token, ply,
                result, reason, created_at, updated_at
             FROM games {condition} ORDER BY seq DESC LIMIT ?"
        ))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let id: String = row.try_get("id")?;
            let mode_text: String = row.try_get("mode")?;
            let corrupt = |message: String| StoreError::Corrupt {
                id: id.clone(),
                message,
            };
            let mode =
                Mode::from_name(&mode_text).ok_or_else(|| corrupt(format!("mode {mode_text}")))?;
            let seats = read_seats(&row).map_err(corrupt)?;
            out.push(SummaryRow {
                mode,
                level: read_level(&row)?,
                seats,
                ply: row.try_get("ply")?,
                result: row.try_get("result")?,
                reason: row.try_get("reason")?,
                created_at: row.try_get("created_at")?,
                updated_at: row.try_get("updated_at")?,
                id,
            });
        }
        Ok(out)
    }

    /// The moves stored for a game, in order (for tests and checks).
    pub async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT move FROM moves WHERE game_id = ? ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("move"))
            .collect::<Result<_, _>>()?)
    }
}

fn read_level(row: &SqliteRow) -> Result<Option<u8>, sqlx::Error> {
    let level: Option<i64> = row.try_get("level")?;
    Ok(level.and_then(|l| u8::try_from(l).ok()))
}

fn read_seats(row: &SqliteRow) -> Result<[Seat; 2], String> {
    let seat = |kind_col: &str, token_col: &str| -> Result<Seat, String> {
        let kind: String = row.try_get(kind_col).map_err(|e| e.to_string())?;
        let kind = SeatKind::from_name(&kind).ok_or_else(|| format!("seat kind {kind}"))?;
        let token_hash: Option<String> = row.try_get(token_col).map_err(|e| e.to_string())?;
        Ok(Seat { kind, token_hash })
    };
    Ok([
        seat("white_kind", "white_token")?,
        seat("black_kind", "black_token")?,
    ])
}

fn conflict_on_unique(what: &'static str) -> impl Fn(sqlx::Error) -> StoreError {
    move |err| match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict(what),
        _ => StoreError::Db(err),
    }
}
