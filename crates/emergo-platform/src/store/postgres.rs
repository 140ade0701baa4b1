//! PostgreSQL, for several server instances over one database. The same statements as SQLite
//! (store/games.rs and its siblings); every write to a game is guarded by the game's version
//! (refused with `Conflict` when another instance changed the game since the writer read it) and
//! also sends a wake-up (`NOTIFY emergo_games, '<id> <ply> <version> <instance>'`) that is
//! delivered when its transaction commits, so that the other instances re-read the game. Here is
//! only what differs: [`PgStore::open`] and the migrations of `migrations/postgres`, the
//! wake-ups, and the [`Backend`] steps of its own.

use super::chat::ChatRow;
use super::{Backend, MoveWrite, SeatWrite, StoreError};
use crate::domain::model::GameMeta;
use emergo_core::AnyGame;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::PgConnection;
use std::str::FromStr;
use std::time::Duration;

/// The channel of the wake-ups.
pub const CHANNEL: &str = "emergo_games";

/// The channel of the chat's wake-ups (`<game id> <message id> <instance>`, emergo-server's src/services/fanout.rs).
pub const CHAT_CHANNEL: &str = "emergo_chat";

/// How long a request waits for a connection before it fails (with the database down, a
/// request gets its error quickly instead of hanging).
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

/// The PostgreSQL backend: its pool and its name in the wake-ups.
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

    /// Sends `payload` on `channel` to every instance that listens (the notifications'
    /// fan-out, src/services/notify.rs); PostgreSQL refuses a payload of 8000 bytes or more.
    pub async fn announce(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// What PostgreSQL does its own way (see [`Backend`]).
impl Backend for PgStore {
    type Db = sqlx::Postgres;

    fn history_tie(&self) -> &'static str {
        "game_id"
    }

    async fn append_move(&self, id: &str, mv: &MoveWrite<'_>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        PgStore::write_move_in(&mut tx, id, mv).await?;
        self.game_changed(&mut tx, id).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn insert_game(&self, meta: &GameMeta, game: &AnyGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        self.insert_game_in(&mut tx, meta, game).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn take_seat(&self, seat: SeatWrite) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        PgStore::take_seat_in(&mut tx, &seat).await?;
        self.game_changed(&mut tx, &seat.id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Wakes the other instances once `tx` commits: `<game id> <ply> <version> <instance>`.
    async fn game_changed(&self, tx: &mut PgConnection, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "SELECT pg_notify($1, id || ' ' || ply || ' ' || version || ' ' || $2)
             FROM games WHERE id = $3",
        )
        .bind(CHANNEL)
        .bind(&self.instance)
        .bind(id)
        .execute(tx)
        .await?;
        Ok(())
    }

    async fn read_snapshot(&self, tx: &mut PgConnection) -> Result<(), sqlx::Error> {
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(tx)
            .await?;
        Ok(())
    }

    /// All the moves in one statement (an imported record may have hundreds).
    async fn insert_moves(
        &self,
        tx: &mut PgConnection,
        id: &str,
        game: &AnyGame,
    ) -> Result<(), sqlx::Error> {
        let texts: Vec<String> = game.move_texts();
        let plies: Vec<i64> = (0..texts.len() as i64).collect();
        sqlx::query(
            "INSERT INTO moves (game_id, ply, move)
             SELECT $1, * FROM UNNEST($2::BIGINT[], $3::TEXT[])",
        )
        .bind(id)
        .bind(&plies)
        .bind(&texts)
        .execute(tx)
        .await?;
        Ok(())
    }

    /// Both rows exist, then are locked in account order: a concurrent settlement of another
    /// game of either player waits for this one.
    async fn lock_ratings(
        &self,
        tx: &mut PgConnection,
        accounts: [i64; 2],
        category: &str,
        now: &str,
    ) -> Result<(), sqlx::Error> {
        let mut ids = accounts;
        ids.sort_unstable();
        for account in ids {
            let first = super::accounts::first_rating(account, category, now);
            sqlx::query(
                "INSERT INTO ratings (account_id, category, rating, rd, volatility, games,
                    updated_at) VALUES ($1, $2, $3, $4, $5, 0, $6)
                 ON CONFLICT (account_id, category) DO NOTHING",
            )
            .bind(account)
            .bind(category)
            .bind(first.rating)
            .bind(first.rd)
            .bind(first.volatility)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query("SELECT 1 FROM ratings WHERE account_id = $1 AND category = $2 FOR UPDATE")
                .bind(account)
                .bind(category)
                .execute(&mut *tx)
                .await?;
        }
        Ok(())
    }

    async fn lock_game(&self, tx: &mut PgConnection, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
            .bind(id)
            .execute(tx)
            .await?;
        Ok(())
    }

    async fn chat_stored(&self, tx: &mut PgConnection, row: &ChatRow) -> Result<(), sqlx::Error> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHAT_CHANNEL)
            .bind(format!("{} {} {}", row.game_id, row.id, self.instance))
            .execute(tx)
            .await?;
        Ok(())
    }

    fn identity_insert(&self) -> &'static str {
        " OVERRIDING SYSTEM VALUE"
    }

    /// The next generated id comes after the copied ones.
    async fn identities_copied(
        &self,
        tx: &mut PgConnection,
        table: &str,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(&format!(
            "SELECT setval(pg_get_serial_sequence('{table}', 'id'),
                COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        ))
        .execute(tx)
        .await?;
        Ok(())
    }
}
