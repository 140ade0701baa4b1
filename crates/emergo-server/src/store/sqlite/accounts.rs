//! [`AccountStore`] on SQLite. Each write transaction starts with a write, so that it holds
//! SQLite's write lock from its first statement (no read-then-upgrade failure).

use super::{insert_game_in, SqliteStore};
use crate::domain::model::GameMeta;
use crate::store::accounts::LeaderColumns;
use crate::store::accounts::{
    first_rating, seat_columns, AccountRow, AccountStore, GameRatingRow, HistoryRow, NewSeek,
    PlayerGameRow, RatedResultRow, RatingRow, Recent, ResultCountRow, SeekRow, Settle, WatchRow,
    PLAYER_GAME_COLUMNS, SEEK_COLUMNS, WATCH_COLUMNS,
};
use crate::store::{conflict_on_unique, StoreError};
use emergo_core::{Color, Game};

const ACCOUNT_COLUMNS: &str = "id, name, password_hash, created_at";

const RATING_COLUMNS: &str = "account_id, category, rating, rd, volatility, games, updated_at";

impl SqliteStore {
    /// The connection pool (for checks and tests).
    pub fn pool(&self) -> &sqlx::SqlitePool {
        &self.pool
    }
}

impl AccountStore for SqliteStore {
    async fn create_account(
        &self,
        name: &str,
        name_key: &str,
        password_hash: &str,
        now: &str,
    ) -> Result<i64, StoreError> {
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO accounts (name, name_key, password_hash, created_at)
             VALUES (?, ?, ?, ?) RETURNING id",
        )
        .bind(name)
        .bind(name_key)
        .bind(password_hash)
        .bind(now)
        .fetch_one(&self.pool)
        .await
        .map_err(conflict_on_unique("name taken"))?;
        Ok(id)
    }

    async fn account_by_key(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ? AND deleted_at IS NULL"
        ))
        .bind(name_key)
        .fetch_optional(&self.pool)
        .await?)
    }

    async fn insert_session(
        &self,
        token_hash: &str,
        account_id: i64,
        now: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO sessions (token_hash, account_id, created_at) VALUES (?, ?, ?)")
            .bind(token_hash)
            .bind(account_id)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn session_account(&self, token_hash: &str) -> Result<Option<AccountRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT a.id, a.name, a.password_hash, a.created_at FROM sessions s
             JOIN accounts a ON a.id = s.account_id
             WHERE s.token_hash = ? AND a.deleted_at IS NULL",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?)
    }

    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = ?")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn set_password(
        &self,
        account_id: i64,
        password_hash: &str,
        keep_session: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET password_hash = ? WHERE id = ?")
            .bind(password_hash)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?")
            .bind(account_id)
            .bind(keep_session)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn delete_account(&self, account_id: i64, now: &str) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "UPDATE accounts SET name_key = NULL, password_hash = '', deleted_at = ?
             WHERE id = ?",
        )
        .bind(now)
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = ?")
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "DELETE FROM seeks WHERE (account_id = ? OR opponent_id = ?) AND game_id IS NULL",
        )
        .bind(account_id)
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn ratings_of(&self, account_id: i64) -> Result<Vec<RatingRow>, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = ? AND games > 0"
        ))
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn history_of(&self, account_id: i64, limit: u32) -> Result<Vec<HistoryRow>, StoreError> {
        let mut rows: Vec<HistoryRow> = sqlx::query_as(
            "SELECT game_id, category, rating, rd, at FROM rating_history
             WHERE account_id = ? ORDER BY at DESC, rowid DESC LIMIT ?",
        )
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.reverse();
        Ok(rows)
    }

    async fn leaderboard(
        &self,
        category: &str,
        max_rd: f64,
        limit: u32,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        let rows: Vec<LeaderColumns> = sqlx::query_as(
            "SELECT a.name, r.account_id, r.category, r.rating, r.rd, r.volatility, r.games,
                r.updated_at
             FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.category = ? AND r.rd < ? AND r.games > 0 AND a.deleted_at IS NULL
             ORDER BY r.rating DESC LIMIT ?",
        )
        .bind(category)
        .bind(max_rd)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(leader).collect())
    }

    async fn games_of(
        &self,
        account_id: i64,
        ongoing_only: bool,
        limit: u32,
    ) -> Result<Vec<PlayerGameRow>, StoreError> {
        let ongoing = if ongoing_only {
            "AND result IS NULL"
        } else {
            ""
        };
        Ok(sqlx::query_as(&format!(
            "SELECT {PLAYER_GAME_COLUMNS} FROM games
             WHERE (white_account = ? OR black_account = ?) {ongoing}
             ORDER BY seq DESC LIMIT ?"
        ))
        .bind(account_id)
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    async fn settle(
        &self,
        game_id: &str,
        category: &str,
        (white, black): (i64, i64),
        now: &str,
        since: &str,
        settle: Settle,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let marked = sqlx::query(
            "INSERT INTO rated_games (game_id, settled_at) VALUES (?, ?)
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if marked.rows_affected() != 1 {
            return Ok(false);
        }
        let mut before = Vec::with_capacity(2);
        for account in [white, black] {
            let row: Option<RatingRow> = sqlx::query_as(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = ? AND category = ?"
            ))
            .bind(account)
            .bind(category)
            .fetch_optional(&mut *tx)
            .await?;
            before.push(row.unwrap_or_else(|| first_rating(account, category, now)));
        }
        let (pair,): (i64,) = sqlx::query_as(
            "SELECT COUNT(DISTINCT h1.game_id) FROM rating_history h1
             JOIN rating_history h2 ON h2.game_id = h1.game_id AND h2.account_id = ?
             WHERE h1.account_id = ? AND h1.at >= ?",
        )
        .bind(black)
        .bind(white)
        .bind(since)
        .fetch_one(&mut *tx)
        .await?;
        let shared: Option<(String,)> =
            sqlx::query_as("SELECT client FROM shared_client_games WHERE game_id = ?")
                .bind(game_id)
                .fetch_optional(&mut *tx)
                .await?;
        let mut recent = Recent {
            pair,
            shared_client: None,
        };
        if let Some((client,)) = shared {
            let (n,): (i64,) = sqlx::query_as(
                "SELECT COUNT(DISTINCT h.game_id) FROM rating_history h
                 JOIN shared_client_games g ON g.game_id = h.game_id
                 WHERE g.client = ? AND h.at >= ?",
            )
            .bind(client)
            .bind(since)
            .fetch_one(&mut *tx)
            .await?;
            recent.shared_client = Some(n);
        }
        if let Some((w, b)) = settle(&before[0], &before[1], recent) {
            for settled in [w, b] {
                let row = &settled.after;
                sqlx::query(
                    "INSERT INTO ratings (account_id, category, rating, rd, volatility, games,
                        updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                     ON CONFLICT (account_id, category) DO UPDATE SET rating = excluded.rating,
                        rd = excluded.rd, volatility = excluded.volatility,
                        games = excluded.games, updated_at = excluded.updated_at",
                )
                .bind(row.account_id)
                .bind(&row.category)
                .bind(row.rating)
                .bind(row.rd)
                .bind(row.volatility)
                .bind(row.games)
                .bind(&row.updated_at)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (game_id, account_id, category, rating, rd, at,
                        rating_before, rd_before) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                )
                .bind(game_id)
                .bind(row.account_id)
                .bind(&row.category)
                .bind(row.rating)
                .bind(row.rd)
                .bind(now)
                .bind(settled.rating_before)
                .bind(settled.rd_before)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn game_ratings(&self, game_id: &str) -> Result<Vec<GameRatingRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT account_id, rating, rd, rating_before, rd_before FROM rating_history
             WHERE game_id = ?",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn rated_results(
        &self,
        account_id: i64,
        limit: u32,
    ) -> Result<Vec<RatedResultRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT me.game_id, me.category, me.at, me.rating,
                opp.rating_before AS opponent_before, g.result,
                CAST(CASE WHEN g.white_account = me.account_id THEN 1 ELSE 0 END AS BIGINT)
                    AS as_white
             FROM rating_history me
             JOIN games g ON g.id = me.game_id
             LEFT JOIN rating_history opp
                ON opp.game_id = me.game_id AND opp.account_id <> me.account_id
             WHERE me.account_id = ? ORDER BY me.at DESC, me.game_id DESC LIMIT ?",
        )
        .bind(account_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    async fn result_counts(&self, account_id: i64) -> Result<Vec<ResultCountRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT rated, time_control, as_white, result, reason, COUNT(*) AS n FROM (
                SELECT rated, time_control, result, reason,
                    CAST(CASE WHEN white_account = ? THEN 1 ELSE 0 END AS BIGINT) AS as_white
                FROM games WHERE (white_account = ? OR black_account = ?)
                    AND result IS NOT NULL) mine
             GROUP BY rated, time_control, as_white, result, reason",
        )
        .bind(account_id)
        .bind(account_id)
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn watch_games(&self, since: &str, limit: u32) -> Result<Vec<WatchRow>, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT {WATCH_COLUMNS} FROM games
             WHERE result IS NULL AND white_account IS NOT NULL AND black_account IS NOT NULL
                AND updated_at >= ?
             ORDER BY updated_at DESC LIMIT ?"
        ))
        .bind(since)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    async fn unsettled(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM games WHERE rated IS NOT NULL AND result IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = games.id)
             ORDER BY seq LIMIT ?",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    async fn insert_seek(&self, seek: &NewSeek, now: i64, cap: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO seeks (id, account_id, time_control, rated, color, opponent_id,
                created_at, expires_at, client)
             SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?
             WHERE (SELECT COUNT(*) FROM seeks
                 WHERE account_id = ? AND game_id IS NULL
                    AND (expires_at IS NULL OR expires_at > ?)
                    AND (opponent_id IS NULL) = ?) < ?",
        )
        .bind(&seek.id)
        .bind(seek.account_id)
        .bind(&seek.time_control)
        .bind(seek.rated)
        .bind(&seek.color)
        .bind(seek.opponent_id)
        .bind(&seek.created_at)
        .bind(seek.expires_at)
        .bind(&seek.client)
        .bind(seek.account_id)
        .bind(now)
        .bind(seek.opponent_id.is_none())
        .bind(cap)
        .execute(&self.pool)
        .await
        .map_err(conflict_on_unique("seek id taken"))?;
        Ok(done.rows_affected() == 1)
    }

    async fn open_seeks(&self, now: i64, limit: u32) -> Result<Vec<SeekRow>, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT {SEEK_COLUMNS} FROM seeks s
             WHERE s.game_id IS NULL AND (s.expires_at IS NULL OR s.expires_at > ?)
                AND s.opponent_id IS NULL
             ORDER BY s.created_at DESC, s.id DESC LIMIT ?"
        ))
        .bind(now)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    async fn seeks_of(
        &self,
        now: i64,
        viewer: i64,
        limit: u32,
    ) -> Result<Vec<SeekRow>, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT {SEEK_COLUMNS} FROM seeks s
             WHERE s.game_id IS NULL AND (s.expires_at IS NULL OR s.expires_at > ?)
                AND (s.account_id = ? OR s.opponent_id = ?)
             ORDER BY s.created_at DESC, s.id DESC LIMIT ?"
        ))
        .bind(now)
        .bind(viewer)
        .bind(viewer)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?)
    }

    async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT {SEEK_COLUMNS} FROM seeks s WHERE s.id = ?"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    async fn delete_seek(&self, id: &str, account_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "DELETE FROM seeks WHERE id = ? AND (account_id = ? OR opponent_id = ?)
                AND game_id IS NULL",
        )
        .bind(id)
        .bind(account_id)
        .bind(account_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn accept_seek(
        &self,
        id: &str,
        acceptor: i64,
        now: i64,
        meta: &GameMeta,
        game: &Game,
        shared_client: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query(
            "UPDATE seeks SET game_id = ?, accepted_at = ?
             WHERE id = ? AND game_id IS NULL AND account_id <> ?
                AND (opponent_id IS NULL OR opponent_id = ?)
                AND (expires_at IS NULL OR expires_at > ?)",
        )
        .bind(&meta.id)
        .bind(now)
        .bind(id)
        .bind(acceptor)
        .bind(acceptor)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() != 1 {
            return Err(StoreError::Conflict("seek taken"));
        }
        insert_game_in(&mut tx, meta, game).await?;
        if let Some(client) = shared_client {
            sqlx::query(
                "INSERT INTO shared_client_games (game_id, client, created_at) VALUES (?, ?, ?)",
            )
            .bind(&meta.id)
            .bind(client)
            .bind(&meta.created_at)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn carry_shared_client(
        &self,
        from: &str,
        game_id: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO shared_client_games (game_id, client, created_at)
             SELECT ?, client, ? FROM shared_client_games WHERE game_id = ?
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(now)
        .bind(from)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn touch_seeks(&self, account_id: i64, expires_at: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE seeks SET expires_at = ?
             WHERE account_id = ? AND expires_at IS NOT NULL AND expires_at < ?
                AND time_control NOT LIKE 'corr:%'
                AND game_id IS NULL",
        )
        .bind(expires_at)
        .bind(account_id)
        .bind(expires_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn taken_seeks(
        &self,
        account_id: i64,
        since: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, game_id FROM seeks
             WHERE account_id = ? AND game_id IS NOT NULL AND accepted_at >= ?",
        )
        .bind(account_id)
        .bind(since)
        .fetch_all(&self.pool)
        .await?)
    }

    async fn set_seat_token(
        &self,
        game_id: &str,
        color: Color,
        token_hash: &str,
        account_id: i64,
    ) -> Result<(), StoreError> {
        let (token, account) = seat_columns(color);
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(&format!(
            "UPDATE games SET {token} = ?, version = version + 1 WHERE id = ? AND {account} = ?"
        ))
        .bind(token_hash)
        .bind(game_id)
        .bind(account_id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict("not this account's seat"));
        }
        tx.commit().await?;
        Ok(())
    }

    async fn sweep_seeks(&self, now: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "DELETE FROM seeks WHERE (game_id IS NULL AND expires_at IS NOT NULL
                AND expires_at <= ?) OR (game_id IS NOT NULL AND accepted_at < ?)",
        )
        .bind(now)
        .bind(now - 86_400)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }
}

/// A leaderboard line from its columns.
pub(in crate::store) fn leader(
    (name, account_id, category, rating, rd, volatility, games, updated_at): LeaderColumns,
) -> (String, RatingRow) {
    (
        name,
        RatingRow {
            account_id,
            category,
            rating,
            rd,
            volatility,
            games,
            updated_at,
        },
    )
}
