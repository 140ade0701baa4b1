//! The opening explorer's tables (issue 22; migrations 0080 and 0150, which added the board to
//! the key): the statistics each finished game adds (domain/explorer.rs makes its rows), added
//! up by upserts in one transaction per game, and read back per board and position with the
//! filters. Each method is written once for both backends
//! (see the module text of store/mod.rs).
//!
//! Exactly once per game: the transaction first sets the game's `explorer_at`, guarded by its
//! being unset, and writes the rows only when that changed the row; a second instance indexing
//! the same game at once waits on the game's row, then finds it set and writes nothing. A
//! record indexed from a file is marked the same way in `explorer_records`.

use super::{Backend, Conn, Store, StoreError};
use crate::domain::explorer::{Band, ExplorerRow, Source, Speed, Tally, RECENT_GAMES};
use emergo_core::VariantKind;

/// The rows written by one statement (11 values each: far under either database's cap).
const ROWS_PER_STATEMENT: usize = 100;

/// Which games a query counts: each list empty for every value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExplorerFilter {
    pub sources: Vec<Source>,
    pub speeds: Vec<Speed>,
    pub bands: Vec<Band>,
}

impl ExplorerFilter {
    /// The `AND ...` conditions of this filter on the columns `source`, `speed`, `band`. The
    /// values are the fixed names of the domain's enums (never a request's text), written as
    /// SQL literals.
    fn conditions(&self) -> String {
        fn one(column: &str, names: &[&'static str]) -> String {
            if names.is_empty() {
                return String::new();
            }
            let list: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
            format!(" AND {column} IN ({})", list.join(", "))
        }
        let sources: Vec<_> = self.sources.iter().map(|s| s.name()).collect();
        let speeds: Vec<_> = self.speeds.iter().map(|s| s.name()).collect();
        let bands: Vec<_> = self.bands.iter().map(|b| b.name()).collect();
        one("source", &sources) + &one("speed", &speeds) + &one("band", &bands)
    }
}

/// A game through a position, as its list of games shows it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct RecentGame {
    pub game_id: String,
    /// When it finished.
    pub at: String,
    /// The average of its players' ratings.
    pub rating: Option<i64>,
    /// Its result token (`1-0`, `0-1`, `1/2-1/2`).
    pub result: Option<String>,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// Whether the seats' accounts are bot accounts (issue 24).
    pub white_bot: bool,
    pub black_bot: bool,
    pub white_kind: String,
    pub black_kind: String,
    pub level: Option<i64>,
}

/// What the explorer knows of a position under a filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionStats {
    /// The games through the position.
    pub total: Tally,
    /// Each move played from it (N1 text), the most played first (then by text).
    pub moves: Vec<(String, Tally)>,
    /// The latest stored games through it, newest first.
    pub games: Vec<RecentGame>,
}

/// A stored game's split, for its rows among a position's latest games.
#[derive(Clone, Copy, Debug)]
pub struct RecentOf<'a> {
    pub game_id: &'a str,
    /// When it finished.
    pub at: &'a str,
    pub rating: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct StatRow {
    mv: String,
    white: i64,
    draws: i64,
    black: i64,
    rating_sum: i64,
    rated: i64,
}

impl Store {
    /// Indexes stored game `game_id` with `rows` (domain::explorer::rows_of; none for a game the
    /// explorer skips), once: `false`, writing nothing, when it is indexed already (by another
    /// instance meanwhile, say) or not finished.
    pub async fn explorer_index_game(
        &self,
        recent: RecentOf<'_>,
        rows: &[ExplorerRow],
        now: &str,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let marked = sqlx::query(
                "UPDATE games SET explorer_at = $1
                 WHERE id = $2 AND explorer_at IS NULL AND result IS NOT NULL",
            )
            .bind(now)
            .bind(recent.game_id)
            .execute(&mut *tx)
            .await?;
            if marked.rows_affected() != 1 {
                return Ok(false);
            }
            b.add_stats(&mut tx, rows).await?;
            for row in rows.iter().filter(|r| r.mv.is_empty()) {
                sqlx::query(
                    "INSERT INTO explorer_recent
                        (variant, hash, source, speed, band, game_id, at, rating)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
                )
                .bind(row.variant.name())
                .bind(row.hash)
                .bind(row.source.name())
                .bind(row.speed.name())
                .bind(row.band.name())
                .bind(recent.game_id)
                .bind(recent.at)
                .bind(recent.rating)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "DELETE FROM explorer_recent
                     WHERE variant = $1 AND hash = $2 AND source = $3 AND speed = $4 AND band = $5
                       AND game_id NOT IN (SELECT game_id FROM explorer_recent
                           WHERE variant = $1 AND hash = $2 AND source = $3 AND speed = $4
                             AND band = $5
                           ORDER BY at DESC, game_id DESC LIMIT $6)",
                )
                .bind(row.variant.name())
                .bind(row.hash)
                .bind(row.source.name())
                .bind(row.speed.name())
                .bind(row.band.name())
                .bind(RECENT_GAMES as i64)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(true)
    }

    /// Indexes a record read from a file (`emergo explorer import`) under `key` (a hash of the
    /// record), once: `false`, writing nothing, when that key is indexed already.
    pub async fn explorer_index_record(
        &self,
        key: &str,
        rows: &[ExplorerRow],
        now: &str,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let marked = sqlx::query(
                "INSERT INTO explorer_records (key, at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind(key)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if marked.rows_affected() != 1 {
                return Ok(false);
            }
            b.add_stats(&mut tx, rows).await?;
            tx.commit().await?;
        });
        Ok(true)
    }

    /// Up to `limit` finished games not indexed yet, oldest first (the catch-up's work).
    pub async fn explorer_pending(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT id FROM games WHERE result IS NOT NULL AND explorer_at IS NULL
                   ORDER BY seq LIMIT $1";
        let found: Vec<(String,)> = on_backend!(self, b => {
            sqlx::query_as(sql)
                .bind(i64::from(limit))
                .fetch_all(b.pool())
                .await?
        });
        Ok(found.into_iter().map(|(id,)| id).collect())
    }

    /// How many finished games are not indexed yet.
    pub async fn explorer_pending_count(&self) -> Result<u64, StoreError> {
        let sql = "SELECT COUNT(*) FROM games WHERE result IS NOT NULL AND explorer_at IS NULL";
        let (n,): (i64,) = on_backend!(self, b => {
            sqlx::query_as(sql).fetch_one(b.pool()).await?
        });
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Forgets every statistic and mark (`emergo explorer rebuild`, before it indexes every
    /// stored game again; records from files are to be imported again).
    pub async fn explorer_reset(&self) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            for sql in [
                "DELETE FROM explorer_stats",
                "DELETE FROM explorer_recent",
                "DELETE FROM explorer_records",
                "UPDATE games SET explorer_at = NULL WHERE explorer_at IS NOT NULL",
            ] {
                sqlx::query(sql).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// The statistics of position `hash` (domain::explorer::position_key) of board `variant`
    /// under `filter`, with its latest `games` stored games.
    pub async fn explorer_position(
        &self,
        variant: VariantKind,
        hash: i64,
        filter: &ExplorerFilter,
        games: u32,
    ) -> Result<PositionStats, StoreError> {
        let conditions = filter.conditions();
        let stats_sql = format!(
            "SELECT move AS mv, CAST(SUM(white) AS BIGINT) AS white,
                    CAST(SUM(draws) AS BIGINT) AS draws, CAST(SUM(black) AS BIGINT) AS black,
                    CAST(SUM(rating_sum) AS BIGINT) AS rating_sum,
                    CAST(SUM(rated) AS BIGINT) AS rated
             FROM explorer_stats WHERE variant = $1 AND hash = $2{conditions} GROUP BY move"
        );
        let games_sql = format!(
            "SELECT r.game_id, r.at, r.rating, g.result, g.white_kind, g.black_kind, g.level, {}
             FROM explorer_recent r JOIN games g ON g.id = r.game_id
             WHERE r.variant = $1 AND r.hash = $2{} ORDER BY r.at DESC, r.game_id DESC LIMIT $3",
            seat_accounts!("g"),
            conditions
                .replace(" source ", " r.source ")
                .replace(" speed ", " r.speed ")
                .replace(" band ", " r.band ")
        );
        let (rows, recent): (Vec<StatRow>, Vec<RecentGame>) = on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            b.read_snapshot(&mut tx).await?;
            let rows = sqlx::query_as(&stats_sql)
                .bind(variant.name())
                .bind(hash)
                .fetch_all(&mut *tx)
                .await?;
            let recent = sqlx::query_as(&games_sql)
                .bind(variant.name())
                .bind(hash)
                .bind(i64::from(games))
                .fetch_all(&mut *tx)
                .await?;
            tx.commit().await?;
            (rows, recent)
        });
        let mut stats = PositionStats {
            games: recent,
            ..PositionStats::default()
        };
        for row in rows {
            let tally = Tally {
                white: row.white,
                draws: row.draws,
                black: row.black,
                rating_sum: row.rating_sum,
                rated: row.rated,
            };
            if row.mv.is_empty() {
                stats.total = tally;
            } else {
                stats.moves.push((row.mv, tally));
            }
        }
        stats
            .moves
            .sort_by(|a, b| b.1.games().cmp(&a.1.games()).then_with(|| a.0.cmp(&b.0)));
        Ok(stats)
    }
}

for_each_backend! {
    /// Adds `rows` to the statistics within the transaction `tx`, in their order (by key: two
    /// instances at once lock the rows they share in one order).
    async fn add_stats(&self, tx: &mut Conn<Self>, rows: &[ExplorerRow]) -> Result<(), sqlx::Error> {
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let sql = upsert_sql(chunk.len());
            let mut q = sqlx::query(&sql);
            for row in chunk {
                q = q
                    .bind(row.variant.name())
                    .bind(row.hash)
                    .bind(row.source.name())
                    .bind(row.speed.name())
                    .bind(row.band.name())
                    .bind(&row.mv)
                    .bind(row.tally.white)
                    .bind(row.tally.draws)
                    .bind(row.tally.black)
                    .bind(row.tally.rating_sum)
                    .bind(row.tally.rated);
            }
            q.execute(&mut *tx).await?;
        }
        Ok(())
    }
}

/// The upsert of `n` rows of `explorer_stats`: each row's counts added to the stored ones.
fn upsert_sql(n: usize) -> String {
    let values: Vec<String> = (0..n)
        .map(|i| {
            let p: Vec<String> = (1..=11).map(|c| format!("${}", i * 11 + c)).collect();
            format!("({})", p.join(", "))
        })
        .collect();
    format!(
        "INSERT INTO explorer_stats
            (variant, hash, source, speed, band, move, white, draws, black, rating_sum, rated)
         VALUES {}
         ON CONFLICT (variant, hash, source, speed, band, move) DO UPDATE SET
            white = explorer_stats.white + excluded.white,
            draws = explorer_stats.draws + excluded.draws,
            black = explorer_stats.black + excluded.black,
            rating_sum = explorer_stats.rating_sum + excluded.rating_sum,
            rated = explorer_stats.rated + excluded.rated",
        values.join(", ")
    )
}
