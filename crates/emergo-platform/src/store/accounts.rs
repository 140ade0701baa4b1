//! The accounts' part of the database (issue 11): accounts, sessions, ratings and their history,
//! seeks. Each method written once for both backends (see the module text of store/mod.rs); a
//! write transaction starts with a write, so that on SQLite it holds the write lock from its
//! first statement (no read-then-upgrade failure). Times are RFC 3339 text, seek expiries Unix
//! seconds.

use super::games::changed;
use super::{conflict_on_unique, Backend, Store, StoreError};
use crate::domain::model::GameMeta;
use emergo_core::{AnyGame, Color};

/// An account that is not deleted.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AccountRow {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    pub created_at: String,
    /// A bot account (issue 24): marked once, for good.
    pub bot: bool,
}

/// An account's rating in one category, as stored after its last rated game.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingRow {
    pub account_id: i64,
    pub category: String,
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub games: i64,
    pub updated_at: String,
}

impl RatingRow {
    /// The rating now (`now` in seconds since 1970): the stored one with its RD grown by the
    /// days since its last game.
    pub fn rating_at(&self, now: i64) -> crate::domain::rating::Rating {
        let stored = crate::domain::rating::Rating {
            rating: self.rating,
            rd: self.rd,
            volatility: self.volatility,
        };
        let days = crate::domain::model::unix_of(&self.updated_at)
            .map_or(0.0, |t| (now - t).max(0) as f64 / 86_400.0);
        stored.after_idle(days)
    }
}

/// An account's rating after one rated game.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct HistoryRow {
    pub game_id: String,
    pub category: String,
    pub rating: f64,
    pub rd: f64,
    pub at: String,
}

/// A game of an account, for its page and its lobby.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PlayerGameRow {
    pub id: String,
    pub white_account: Option<i64>,
    pub black_account: Option<i64>,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// Whether the seats' accounts are bot accounts (issue 24).
    pub white_bot: bool,
    pub black_bot: bool,
    pub ply: i64,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub rated: Option<String>,
    /// `"3+2"`, `"corr:3"`; `None` for an untimed game.
    pub time_control: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A seek or a challenge, with its owner's name (and the challenged account's).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SeekRow {
    pub id: String,
    pub account_id: i64,
    pub owner: String,
    pub time_control: String,
    pub rated: bool,
    pub color: String,
    pub opponent_id: Option<i64>,
    pub opponent: Option<String>,
    pub game_id: Option<String>,
    pub created_at: String,
    pub expires_at: Option<i64>,
    /// The address it was made from.
    pub client: Option<String>,
    /// The board its game is played on (`VariantKind`'s short name).
    pub variant: String,
    /// Whether bot accounts may take it (issue 24; a challenge names its opponent instead).
    pub allow_bots: bool,
    /// Whether its owner is a bot account.
    pub owner_bot: bool,
    /// Whether the challenged account is a bot account.
    pub opponent_bot: bool,
}

/// A new seek.
#[derive(Clone, Debug)]
pub struct NewSeek {
    pub id: String,
    pub account_id: i64,
    pub time_control: String,
    pub rated: bool,
    pub color: String,
    pub opponent_id: Option<i64>,
    pub created_at: String,
    pub expires_at: Option<i64>,
    /// The address it is made from.
    pub client: Option<String>,
    /// The board its game is played on.
    pub variant: emergo_core::VariantKind,
    /// Whether bot accounts may take it.
    pub allow_bots: bool,
}

/// A leaderboard line's columns: the name, then a [`RatingRow`]'s.
type LeaderColumns = (String, i64, String, f64, f64, f64, i64, String);

/// A finished rated game whose ratings are not settled yet.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct UnsettledRow {
    pub id: String,
}

/// What a settlement knows of the rated games that counted lately (since the `since` given to
/// [`Store::settle`]): between the same two accounts, and, when both players of this
/// game came from one address, among the games whose players shared that address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    pub pair: i64,
    pub shared_client: Option<i64>,
}

/// The new ratings of a rated game's two players, from their ratings before it (a new
/// player's first) and the games that counted lately; `None` when the game does not count
/// (aborted, or over a limit of docs/api.md "Ratings").
pub type Settle =
    Box<dyn FnOnce(&RatingRow, &RatingRow, Recent) -> Option<(Settled, Settled)> + Send + 'static>;

/// A player's rating after a rated game, and the rating (with its RD grown by the idle days)
/// it began with: the history row keeps both (issue 18).
#[derive(Clone, Debug)]
pub struct Settled {
    pub after: RatingRow,
    pub rating_before: f64,
    pub rd_before: f64,
}

/// A player's history row of one rated game (issue 18: the game page's ratings).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct GameRatingRow {
    pub account_id: i64,
    pub rating: f64,
    pub rd: f64,
    pub rating_before: Option<f64>,
    pub rd_before: Option<f64>,
}

/// A rated game of an account with its result and its opponent's rating as it began (issue 18:
/// the player page's performance).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RatedResultRow {
    pub game_id: String,
    pub category: String,
    pub at: String,
    pub rating: f64,
    pub opponent_before: Option<f64>,
    pub result: Option<String>,
    /// 1 when the account played White.
    pub as_white: i64,
}

/// How many finished games of an account ended one way (issue 18: the player page's
/// statistics).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ResultCountRow {
    /// The game's board (`emergo`, `7x7`, `hex`).
    pub variant: String,
    pub rated: Option<String>,
    pub time_control: Option<String>,
    /// 1 when the account played White.
    pub as_white: i64,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub n: i64,
}

/// An ongoing game between two accounts (issue 18: the watch page).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct WatchRow {
    pub id: String,
    pub white_account: i64,
    pub black_account: i64,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// Whether the seats' accounts are bot accounts (issue 24).
    pub white_bot: bool,
    pub black_bot: bool,
    pub rated: Option<String>,
    pub time_control: Option<String>,
    pub ply: i64,
    pub created_at: String,
    pub updated_at: String,
    /// The board (`VariantKind`'s short name).
    pub variant: String,
}

pub(crate) const ACCOUNT_COLUMNS: &str = "id, name, password_hash, created_at, bot";

const RATING_COLUMNS: &str = "account_id, category, rating, rd, volatility, games, updated_at";

/// The accounts' methods, written once for both backends (see the module text of
/// store/mod.rs).
impl Store {
    /// A new account; `Conflict` when the name (its lower-case key) is taken.
    pub async fn create_account(
        &self,
        name: &str,
        name_key: &str,
        password_hash: &str,
        now: &str,
    ) -> Result<i64, StoreError> {
        on_backend!(self, b => {
            let (id,): (i64,) = sqlx::query_as(
                "INSERT INTO accounts (name, name_key, password_hash, created_at)
                 VALUES ($1, $2, $3, $4) RETURNING id",
            )
            .bind(name)
            .bind(name_key)
            .bind(password_hash)
            .bind(now)
            .fetch_one(b.pool())
            .await
            .map_err(conflict_on_unique("name taken"))?;
            Ok(id)
        })
    }

    /// The account whose lower-case name is `name_key`.
    pub async fn account_by_key(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1 AND deleted_at IS NULL"
            ))
            .bind(name_key)
            .fetch_optional(b.pool())
            .await?)
        })
    }

    pub async fn insert_session(
        &self,
        token_hash: &str,
        account_id: i64,
        now: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            sqlx::query(
                "INSERT INTO sessions (token_hash, account_id, created_at) VALUES ($1, $2, $3)",
            )
            .bind(token_hash)
            .bind(account_id)
            .bind(now)
            .execute(b.pool())
            .await?;
            Ok(())
        })
    }

    /// The account a session's token hash logs in.
    pub async fn session_account(
        &self,
        token_hash: &str,
    ) -> Result<Option<AccountRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT a.id, a.name, a.password_hash, a.created_at, a.bot FROM sessions s
                 JOIN accounts a ON a.id = s.account_id
                 WHERE s.token_hash = $1 AND a.deleted_at IS NULL",
            )
            .bind(token_hash)
            .fetch_optional(b.pool())
            .await?)
        })
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        on_backend!(self, b => {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .execute(b.pool())
                .await?;
            Ok(())
        })
    }

    /// A new password hash; every other session of the account ends.
    pub async fn set_password(
        &self,
        account_id: i64,
        password_hash: &str,
        keep_session: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
                .bind(password_hash)
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
                .bind(account_id)
                .bind(keep_session)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Deletes an account: its name is free again, its sessions, open seeks, course progress and storm runs go,
    /// its games stay (shown as "deleted player").
    pub async fn delete_account(&self, account_id: i64, now: &str) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            sqlx::query(
                "UPDATE accounts SET name_key = NULL, password_hash = '', deleted_at = $1
                 WHERE id = $2",
            )
            .bind(now)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM learn_progress WHERE account_id = $1")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM storm_runs WHERE account_id = $1")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "DELETE FROM seeks WHERE (account_id = $1 OR opponent_id = $2) AND game_id IS NULL",
            )
            .bind(account_id)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    pub async fn ratings_of(&self, account_id: i64) -> Result<Vec<RatingRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 AND games > 0"
            ))
            .bind(account_id)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// The account's ratings after each rated game, oldest first (at most `limit`, the newest).
    pub async fn history_of(
        &self,
        account_id: i64,
        limit: u32,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        on_backend!(self, b => {
            let tie = b.history_tie();
            let mut rows: Vec<HistoryRow> = sqlx::query_as(&format!(
                "SELECT game_id, category, rating, rd, at FROM rating_history
                 WHERE account_id = $1 ORDER BY at DESC, {tie} DESC LIMIT $2"
            ))
            .bind(account_id)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?;
            rows.reverse();
            Ok(rows)
        })
    }

    /// The best stored ratings of `category` with an RD under `max_rd`, with their names.
    pub async fn leaderboard(
        &self,
        category: &str,
        max_rd: f64,
        limit: u32,
    ) -> Result<Vec<(String, RatingRow)>, StoreError> {
        on_backend!(self, b => {
            let rows: Vec<LeaderColumns> = sqlx::query_as(
                "SELECT a.name, r.account_id, r.category, r.rating, r.rd, r.volatility, r.games,
                    r.updated_at
                 FROM ratings r JOIN accounts a ON a.id = r.account_id
                 WHERE r.category = $1 AND r.rd < $2 AND r.games > 0 AND a.deleted_at IS NULL
                    AND NOT a.bot
                 ORDER BY r.rating DESC LIMIT $3",
            )
            .bind(category)
            .bind(max_rd)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?;
            Ok(rows
                .into_iter()
                .map(leader)
                .collect())
        })
    }

    /// The account's games, newest first.
    pub async fn games_of(
        &self,
        account_id: i64,
        ongoing_only: bool,
        limit: u32,
    ) -> Result<Vec<PlayerGameRow>, StoreError> {
        on_backend!(self, b => {
            let ongoing = if ongoing_only {
                "AND result IS NULL"
            } else {
                ""
            };
            Ok(sqlx::query_as(&format!(
                "SELECT {PLAYER_GAME_COLUMNS} FROM games
                 WHERE (white_account = $1 OR black_account = $2) {ongoing}
                 ORDER BY seq DESC LIMIT $3"
            ))
            .bind(account_id)
            .bind(account_id)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// Settles a rated game's ratings once: marks the game settled (a second call finds the mark
    /// and changes nothing: `false`), reads both players' ratings (a new player's first) and the
    /// games that counted since `since` ([`Recent`]), and stores what `settle` makes of them with
    /// the history, in one transaction.
    pub async fn settle(
        &self,
        game_id: &str,
        category: &str,
        (white, black): (i64, i64),
        now: &str,
        since: &str,
        settle: Settle,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let marked = sqlx::query(
                "INSERT INTO rated_games (game_id, settled_at) VALUES ($1, $2)
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(game_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if marked.rows_affected() != 1 {
                return Ok(false);
            }
            b.lock_ratings(&mut tx, [white, black], category, now).await?;
            let mut before = Vec::with_capacity(2);
            for account in [white, black] {
                let row: Option<RatingRow> = sqlx::query_as(&format!(
                    "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 AND category = $2"
                ))
                .bind(account)
                .bind(category)
                .fetch_optional(&mut *tx)
                .await?;
                before.push(row.unwrap_or_else(|| first_rating(account, category, now)));
            }
            let (pair,): (i64,) = sqlx::query_as(
                "SELECT COUNT(DISTINCT h1.game_id) FROM rating_history h1
                 JOIN rating_history h2 ON h2.game_id = h1.game_id AND h2.account_id = $1
                 WHERE h1.account_id = $2 AND h1.at >= $3",
            )
            .bind(black)
            .bind(white)
            .bind(since)
            .fetch_one(&mut *tx)
            .await?;
            let shared: Option<(String,)> =
                sqlx::query_as("SELECT client FROM shared_client_games WHERE game_id = $1")
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
                     WHERE g.client = $1 AND h.at >= $2",
                )
                .bind(client)
                .bind(since)
                .fetch_one(&mut *tx)
                .await?;
                recent.shared_client = Some(n);
            }
            if let Some((white_after, black_after)) = settle(&before[0], &before[1], recent) {
                for settled in [white_after, black_after] {
                    let row = &settled.after;
                    sqlx::query(
                        "INSERT INTO ratings (account_id, category, rating, rd, volatility, games,
                            updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
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
                            rating_before, rd_before) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
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
        })
    }

    /// The history rows of one rated game (none before it is settled, or when it did not
    /// count).
    pub async fn game_ratings(&self, game_id: &str) -> Result<Vec<GameRatingRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT account_id, rating, rd, rating_before, rd_before FROM rating_history
                 WHERE game_id = $1",
            )
            .bind(game_id)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// The account's settled rated games, newest first (at most `limit`).
    pub async fn rated_results(
        &self,
        account_id: i64,
        limit: u32,
    ) -> Result<Vec<RatedResultRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT me.game_id, me.category, me.at, me.rating,
                    opp.rating_before AS opponent_before, g.result,
                    CAST(CASE WHEN g.white_account = me.account_id THEN 1 ELSE 0 END AS BIGINT)
                        AS as_white
                 FROM rating_history me
                 JOIN games g ON g.id = me.game_id
                 LEFT JOIN rating_history opp
                    ON opp.game_id = me.game_id AND opp.account_id <> me.account_id
                 WHERE me.account_id = $1 ORDER BY me.at DESC, me.game_id DESC LIMIT $2",
            )
            .bind(account_id)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// The account's finished games counted by board, time control, rating category, colour
    /// and result.
    pub async fn result_counts(&self, account_id: i64) -> Result<Vec<ResultCountRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT variant, rated, time_control, as_white, result, reason, COUNT(*) AS n FROM (
                    SELECT variant, rated, time_control, result, reason,
                        CAST(CASE WHEN white_account = $1 THEN 1 ELSE 0 END AS BIGINT) AS as_white
                    FROM games WHERE (white_account = $2 OR black_account = $3)
                        AND result IS NOT NULL) mine
                 GROUP BY variant, rated, time_control, as_white, result, reason",
            )
            .bind(account_id)
            .bind(account_id)
            .bind(account_id)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// Ongoing games between two accounts changed at or after `since`, the latest first.
    pub async fn watch_games(&self, since: &str, limit: u32) -> Result<Vec<WatchRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {WATCH_COLUMNS} FROM games
                 WHERE result IS NULL AND white_account IS NOT NULL AND black_account IS NOT NULL
                    AND updated_at >= $1
                 ORDER BY updated_at DESC LIMIT $2"
            ))
            .bind(since)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// Finished rated games not settled yet (after a crash between the result and the ratings).
    pub async fn unsettled(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        on_backend!(self, b => {
            let rows: Vec<(String,)> = sqlx::query_as(
                "SELECT id FROM games WHERE rated IS NOT NULL AND result IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = games.id)
                 ORDER BY seq LIMIT $1",
            )
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?;
            Ok(rows.into_iter().map(|(id,)| id).collect())
        })
    }

    /// Stores a seek unless its owner has `cap` open ones of its kind (public seeks, or
    /// challenges) already: whether it was stored.
    pub async fn insert_seek(
        &self,
        seek: &NewSeek,
        now: i64,
        cap: i64,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "INSERT INTO seeks (id, account_id, time_control, rated, color, opponent_id,
                    created_at, expires_at, client, variant, allow_bots)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
                 WHERE (SELECT COUNT(*) FROM seeks
                     WHERE account_id = $12 AND game_id IS NULL
                        AND (expires_at IS NULL OR expires_at > $13)
                        AND (opponent_id IS NULL) = $14) < $15",
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
            .bind(seek.variant.name())
            .bind(seek.allow_bots)
            .bind(seek.account_id)
            .bind(now)
            .bind(seek.opponent_id.is_none())
            .bind(cap)
            .execute(b.pool())
            .await
            .map_err(conflict_on_unique("seek id taken"))?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The newest `limit` open public seeks (not taken, not expired at `now`), newest first.
    pub async fn open_seeks(&self, now: i64, limit: u32) -> Result<Vec<SeekRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {SEEK_COLUMNS} FROM seeks s
                 WHERE s.game_id IS NULL AND (s.expires_at IS NULL OR s.expires_at > $1)
                    AND s.opponent_id IS NULL
                 ORDER BY s.created_at DESC, s.id DESC LIMIT $2"
            ))
            .bind(now)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// The open seeks of `viewer` and the open challenges to it, newest first (at most
    /// `limit`).
    pub async fn seeks_of(
        &self,
        now: i64,
        viewer: i64,
        limit: u32,
    ) -> Result<Vec<SeekRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {SEEK_COLUMNS} FROM seeks s
                 WHERE s.game_id IS NULL AND (s.expires_at IS NULL OR s.expires_at > $1)
                    AND (s.account_id = $2 OR s.opponent_id = $3)
                 ORDER BY s.created_at DESC, s.id DESC LIMIT $4"
            ))
            .bind(now)
            .bind(viewer)
            .bind(viewer)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {SEEK_COLUMNS} FROM seeks s WHERE s.id = $1"
            ))
            .bind(id)
            .fetch_optional(b.pool())
            .await?)
        })
    }

    /// Removes an open seek of `account_id`; whether there was one.
    pub async fn delete_seek(&self, id: &str, account_id: i64) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "DELETE FROM seeks WHERE id = $1 AND (account_id = $2 OR opponent_id = $3)
                    AND game_id IS NULL",
            )
            .bind(id)
            .bind(account_id)
            .bind(account_id)
            .execute(b.pool())
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Takes the seek for `acceptor` and stores its game, in one transaction; `Conflict` when
    /// the seek was taken, withdrawn or expired (only one acceptance ever succeeds).
    /// `shared_client`: both players came from this address (kept for the ratings' limits).
    pub async fn accept_seek(
        &self,
        id: &str,
        acceptor: i64,
        now: i64,
        meta: &GameMeta,
        game: &AnyGame,
        shared_client: Option<&str>,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let taken = sqlx::query(
                "UPDATE seeks SET game_id = $1, accepted_at = $2
                 WHERE id = $3 AND game_id IS NULL AND account_id <> $4
                    AND (opponent_id IS NULL OR opponent_id = $5)
                    AND (expires_at IS NULL OR expires_at > $6)",
            )
            .bind(&meta.id)
            .bind(now)
            .bind(id)
            .bind(acceptor)
            .bind(acceptor)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            changed(taken.rows_affected(), "seek taken")?;
            b.insert_game_in(&mut tx, meta, game).await?;
            if let Some(client) = shared_client {
                sqlx::query(
                    "INSERT INTO shared_client_games (game_id, client, created_at) VALUES ($1, $2, $3)",
                )
                .bind(&meta.id)
                .bind(client)
                .bind(&meta.created_at)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// A rematch `game_id` of the game `from`: its two players came from one address when
    /// `from`'s did.
    pub async fn carry_shared_client(
        &self,
        from: &str,
        game_id: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            sqlx::query(
                "INSERT INTO shared_client_games (game_id, client, created_at)
                 SELECT $1, client, $2 FROM shared_client_games WHERE game_id = $3
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(game_id)
            .bind(now)
            .bind(from)
            .execute(b.pool())
            .await?;
            Ok(())
        })
    }

    /// Keeps the account's real-time seeks alive until `expires_at`.
    pub async fn touch_seeks(&self, account_id: i64, expires_at: i64) -> Result<(), StoreError> {
        on_backend!(self, b => {
            sqlx::query(
                "UPDATE seeks SET expires_at = $1
                 WHERE account_id = $2 AND expires_at IS NOT NULL AND expires_at < $3
                    AND time_control NOT LIKE 'corr:%'
                    AND game_id IS NULL",
            )
            .bind(expires_at)
            .bind(account_id)
            .bind(expires_at)
            .execute(b.pool())
            .await?;
            Ok(())
        })
    }

    /// Seeks of the account taken at or after `since`: `(seek id, game id)`.
    pub async fn taken_seeks(
        &self,
        account_id: i64,
        since: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT id, game_id FROM seeks
                 WHERE account_id = $1 AND game_id IS NOT NULL AND accepted_at >= $2",
            )
            .bind(account_id)
            .bind(since)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// A new token hash for the seat of `color`, held by `account_id`; `Conflict` when that
    /// account does not hold it.
    pub async fn set_seat_token(
        &self,
        game_id: &str,
        color: Color,
        token_hash: &str,
        account_id: i64,
    ) -> Result<(), StoreError> {
        let (token, account) = seat_columns(color);
        let sql = format!(
            "UPDATE games SET {token} = $1, version = version + 1 WHERE id = $2 AND {account} = $3"
        );
        on_backend!(self, b => {
            let update = sqlx::query(&sql)
                .bind(token_hash)
                .bind(game_id)
                .bind(account_id);
            b.update_game(update, game_id, "not this account's seat").await
        })
    }

    /// Deletes expired seeks, and taken ones a day after; how many.
    pub async fn sweep_seeks(&self, now: i64) -> Result<u64, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "DELETE FROM seeks WHERE (game_id IS NULL AND expires_at IS NOT NULL
                    AND expires_at <= $1) OR (game_id IS NOT NULL AND accepted_at < $2)",
            )
            .bind(now)
            .bind(now - 86_400)
            .execute(b.pool())
            .await?;
            Ok(done.rows_affected())
        })
    }
}

/// The columns of a [`SeekRow`], from `seeks s`.
pub(super) const SEEK_COLUMNS: &str = "s.id, s.account_id, \
    (SELECT name FROM accounts a WHERE a.id = s.account_id) AS owner, \
    s.time_control, s.rated, s.color, s.opponent_id, \
    (SELECT name FROM accounts a WHERE a.id = s.opponent_id) AS opponent, \
    COALESCE((SELECT bot FROM accounts a WHERE a.id = s.opponent_id), FALSE) AS opponent_bot, \
    s.game_id, s.created_at, s.expires_at, s.client, s.variant, s.allow_bots, \
    (SELECT bot FROM accounts a WHERE a.id = s.account_id) AS owner_bot";

/// The columns of a [`WatchRow`], from `games`.
pub(super) const WATCH_COLUMNS: &str = concat!(
    "id, white_account, black_account, ",
    seat_accounts!("games"),
    ", rated, time_control, ply, created_at, updated_at, variant"
);

/// The columns of a [`PlayerGameRow`], from `games`.
pub(super) const PLAYER_GAME_COLUMNS: &str = concat!(
    "id, white_account, black_account, ",
    seat_accounts!("games"),
    ", ply, result, reason, rated, time_control, created_at, updated_at"
);

/// A new player's rating row in `category`.
pub fn first_rating(account_id: i64, category: &str, now: &str) -> RatingRow {
    let start = crate::domain::rating::Rating::new();
    RatingRow {
        account_id,
        category: category.to_string(),
        rating: start.rating,
        rd: start.rd,
        volatility: start.volatility,
        games: 0,
        updated_at: now.to_string(),
    }
}

/// The token and account columns of `color`'s seat (from a fixed pair, never from a request).
pub(super) fn seat_columns(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("white_token", "white_account"),
        Color::Black => ("black_token", "black_account"),
    }
}

/// A leaderboard line from its columns.
fn leader(
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
