//! Personal API tokens and bot accounts (issue 24): each method written once for both backends
//! (see the module text of store/mod.rs). A token is stored as the SHA-256 hash of its text;
//! revoking it stamps `revoked_at`, and a revoked token logs nobody in.

use super::accounts::{AccountRow, ACCOUNT_COLUMNS};
use super::{Store, StoreError};

/// A token as its owner's list shows it (never its text: only its hash is kept).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ApiTokenRow {
    pub id: i64,
    pub account_id: i64,
    /// The scopes' names, space-separated.
    pub scopes: String,
    pub description: String,
    pub created_at: String,
}

/// A live token's account and the token.
#[derive(Clone, Debug)]
pub struct TokenLogin {
    pub account: AccountRow,
    pub token: ApiTokenRow,
}

const TOKEN_COLUMNS: &str = "t.id, t.account_id, t.scopes, t.description, t.created_at";

impl Store {
    /// Stores a new token of `account_id` unless it has `cap` live ones already: its id, or
    /// `None` over the cap.
    pub async fn insert_api_token(
        &self,
        account_id: i64,
        token_hash: &str,
        scopes: &str,
        description: &str,
        now: &str,
        cap: i64,
    ) -> Result<Option<i64>, StoreError> {
        on_backend!(self, b => {
            let row: Option<(i64,)> = sqlx::query_as(
                "INSERT INTO api_tokens (account_id, token_hash, scopes, description, created_at)
                 SELECT $1, $2, $3, $4, $5
                 WHERE (SELECT COUNT(*) FROM api_tokens
                     WHERE account_id = $6 AND revoked_at IS NULL) < $7
                 RETURNING id",
            )
            .bind(account_id)
            .bind(token_hash)
            .bind(scopes)
            .bind(description)
            .bind(now)
            .bind(account_id)
            .bind(cap)
            .fetch_optional(b.pool())
            .await?;
            Ok(row.map(|(id,)| id))
        })
    }

    /// The live tokens of `account_id`, oldest first.
    pub async fn api_tokens_of(&self, account_id: i64) -> Result<Vec<ApiTokenRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {TOKEN_COLUMNS} FROM api_tokens t
                 WHERE t.account_id = $1 AND t.revoked_at IS NULL ORDER BY t.id"
            ))
            .bind(account_id)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// Revokes a live token of `account_id`: its hash when there was one (the streams it opened
    /// are ended by it).
    pub async fn revoke_api_token(
        &self,
        account_id: i64,
        id: i64,
        now: &str,
    ) -> Result<Option<String>, StoreError> {
        on_backend!(self, b => {
            let row: Option<(String,)> = sqlx::query_as(
                "UPDATE api_tokens SET revoked_at = $1
                 WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL
                 RETURNING token_hash",
            )
            .bind(now)
            .bind(id)
            .bind(account_id)
            .fetch_optional(b.pool())
            .await?;
            Ok(row.map(|(hash,)| hash))
        })
    }

    /// The account a live token (by its hash) logs in, with the token.
    pub async fn api_token_login(
        &self,
        token_hash: &str,
    ) -> Result<Option<TokenLogin>, StoreError> {
        on_backend!(self, b => {
            let token: Option<ApiTokenRow> = sqlx::query_as(&format!(
                "SELECT {TOKEN_COLUMNS} FROM api_tokens t
                 WHERE t.token_hash = $1 AND t.revoked_at IS NULL"
            ))
            .bind(token_hash)
            .fetch_optional(b.pool())
            .await?;
            let Some(token) = token else {
                return Ok(None);
            };
            let account: Option<AccountRow> = sqlx::query_as(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1 AND deleted_at IS NULL"
            ))
            .bind(token.account_id)
            .fetch_optional(b.pool())
            .await?;
            Ok(account.map(|account| TokenLogin { account, token }))
        })
    }

    /// Whether the token with this hash is still live (a stream asks now and then).
    pub async fn api_token_live(&self, token_hash: &str) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let row: Option<(i64,)> = sqlx::query_as(
                "SELECT t.id FROM api_tokens t JOIN accounts a ON a.id = t.account_id
                 WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND a.deleted_at IS NULL",
            )
            .bind(token_hash)
            .fetch_optional(b.pool())
            .await?;
            Ok(row.is_some())
        })
    }

    /// Makes `account_id` a bot account, if it has never played a game between accounts nor
    /// a rated game: whether it is one now.
    pub async fn make_bot(&self, account_id: i64) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "UPDATE accounts SET bot = TRUE
                 WHERE id = $1 AND deleted_at IS NULL
                    AND NOT EXISTS (SELECT 1 FROM games
                        WHERE white_account = $2 OR black_account = $3)
                    AND NOT EXISTS (SELECT 1 FROM ratings WHERE account_id = $4 AND games > 0)",
            )
            .bind(account_id)
            .bind(account_id)
            .bind(account_id)
            .bind(account_id)
            .execute(b.pool())
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Whether `account_id` is a bot account.
    pub async fn is_bot(&self, account_id: i64) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let row: Option<(bool,)> = sqlx::query_as("SELECT bot FROM accounts WHERE id = $1")
                .bind(account_id)
                .fetch_optional(b.pool())
                .await?;
            Ok(row.is_some_and(|(bot,)| bot))
        })
    }

    /// How many games between two bot accounts `account_id` began since `since` (RFC 3339).
    pub async fn bot_games_since(&self, account_id: i64, since: &str) -> Result<i64, StoreError> {
        on_backend!(self, b => {
            let (n,): (i64,) = sqlx::query_as(
                "SELECT COUNT(*) FROM games g
                 JOIN accounts w ON w.id = g.white_account
                 JOIN accounts k ON k.id = g.black_account
                 WHERE (g.white_account = $1 OR g.black_account = $2) AND g.created_at >= $3
                    AND w.bot AND k.bot",
            )
            .bind(account_id)
            .bind(account_id)
            .bind(since)
            .fetch_one(b.pool())
            .await?;
            Ok(n)
        })
    }
}
