//! Personal API tokens (issue 24): made, listed and revoked by their owner's session, and the
//! account a request's `Authorization: Bearer` token logs in, within the scopes the request
//! needs. Only a token's hash is stored; its text is shown once, when it is made.

use super::sessions::Session;
use super::Accounts;
use crate::services::error::{echo, ServiceError};
use emergo_platform::domain::model::{hash_secret, now_text};
use emergo_platform::domain::token::{
    new_api_token, Scope, Scopes, MAX_DESCRIPTION, MAX_TOKEN_TEXT, TOKEN_PREFIX,
};
use emergo_platform::store::accounts::AccountRow;
use serde::Serialize;

/// Live tokens one account may hold.
pub const TOKENS_PER_ACCOUNT: i64 = 20;

/// A token as its owner's list shows it.
#[derive(Debug, Serialize)]
pub struct TokenView {
    id: i64,
    scopes: Vec<&'static str>,
    description: String,
    created_at: String,
}

/// The answer of `POST /api/tokens`: the token's text, shown this once.
#[derive(Debug, Serialize)]
pub struct NewTokenView {
    id: i64,
    token: String,
    scopes: Vec<&'static str>,
    description: String,
}

/// What a request's endpoint lets a token do: the scopes of which it needs one, or why no
/// token may act there at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// One of these scopes.
    AnyOf(Scopes),
    /// Only a session (the account's own business: its password, its tokens, its deletion).
    SessionOnly,
}

/// A token login: the account, the token's scopes and its hash (a stream watches for its
/// revocation by it).
#[derive(Clone, Debug)]
pub struct TokenSession {
    pub account: AccountRow,
    pub scopes: Scopes,
    pub token_hash: String,
}

impl Accounts {
    /// `POST /api/tokens`: a new token of `account` with `scopes` and `description`.
    pub async fn create_token(
        &self,
        account: &AccountRow,
        scopes: &[String],
        description: &str,
    ) -> Result<NewTokenView, ServiceError> {
        let scopes = Scopes::parse_list(scopes).map_err(ServiceError::BadRequest)?;
        let description = description.trim();
        if description.chars().count() > MAX_DESCRIPTION {
            return Err(ServiceError::BadRequest(format!(
                "a token's description is at most {MAX_DESCRIPTION} characters"
            )));
        }
        if description.chars().any(char::is_control) {
            return Err(ServiceError::BadRequest(
                "a token's description is one line of text".to_string(),
            ));
        }
        let token = new_api_token();
        let id = self
            .store
            .insert_api_token(
                account.id,
                &hash_secret(&token),
                &scopes.text(),
                description,
                &now_text(),
                TOKENS_PER_ACCOUNT,
            )
            .await?
            .ok_or_else(|| {
                ServiceError::NotAllowed(format!(
                    "this account has {TOKENS_PER_ACCOUNT} tokens already, the most it may \
                     have: revoke one first"
                ))
            })?;
        Ok(NewTokenView {
            id,
            token,
            scopes: scopes.iter().map(Scope::name).collect(),
            description: description.to_string(),
        })
    }

    /// `GET /api/tokens`: the live tokens of `account`, oldest first.
    pub async fn tokens(&self, account: &AccountRow) -> Result<Vec<TokenView>, ServiceError> {
        let rows = self.store.api_tokens_of(account.id).await?;
        Ok(rows
            .into_iter()
            .map(|row| TokenView {
                id: row.id,
                scopes: Scopes::from_text(&row.scopes)
                    .iter()
                    .map(Scope::name)
                    .collect(),
                description: row.description,
                created_at: row.created_at,
            })
            .collect())
    }

    /// `DELETE /api/tokens/{id}`: revokes a token of `account`; its hash (its streams end).
    pub async fn revoke_token(
        &self,
        account: &AccountRow,
        id: i64,
    ) -> Result<String, ServiceError> {
        self.store
            .revoke_api_token(account.id, id, &now_text())
            .await?
            .ok_or_else(|| ServiceError::NotFound(format!("this account has no token {id}")))
    }

    /// The account the bearer `token` logs in, if the request's endpoint lets a token act with
    /// its scopes: 401 `unauthorized` for a token that is not (or no longer) one, 403
    /// `bad_scope` for one without the scope the endpoint needs.
    pub async fn token_session(
        &self,
        token: &str,
        needs: Needs,
    ) -> Result<TokenSession, ServiceError> {
        if !token.starts_with(TOKEN_PREFIX) || token.len() > MAX_TOKEN_TEXT {
            return Err(ServiceError::Unauthorized(format!(
                "{} is not an API token (they begin with {TOKEN_PREFIX})",
                echo(token)
            )));
        }
        let token_hash = hash_secret(token);
        let login = self
            .store
            .api_token_login(&token_hash)
            .await?
            .ok_or_else(|| {
                ServiceError::Unauthorized("this API token is unknown or was revoked".to_string())
            })?;
        let scopes = Scopes::from_text(&login.token.scopes);
        match needs {
            Needs::SessionOnly => Err(ServiceError::BadScope(
                "an API token cannot do this: it is done from the account's own session"
                    .to_string(),
            )),
            Needs::AnyOf(any) if !scopes.any_of(any) => {
                let names: Vec<_> = any.iter().map(Scope::name).collect();
                Err(ServiceError::BadScope(format!(
                    "this token's scopes ({}) do not let it do this: it needs {}",
                    if scopes.is_empty() {
                        "none".to_string()
                    } else {
                        scopes.text()
                    },
                    names.join(" or ")
                )))
            }
            Needs::AnyOf(_) => Ok(TokenSession {
                account: login.account,
                scopes,
                token_hash,
            }),
        }
    }
}

impl From<TokenSession> for Session {
    fn from(login: TokenSession) -> Session {
        Session {
            account: login.account,
            token_hash: login.token_hash,
        }
    }
}
