//! An account's own business: signing up, logging in and out, the session a cookie's token
//! opens, `GET /api/me`, changing the password, deleting the account. The HTTP layer reads the
//! request, sets or clears the cookie and shows the answer.

use super::players::{ratings_view, RatingView};
use super::{
    check_name, check_password, dummy_hash, hash_password, name_key, name_taken, password_matches,
    Accounts, Attempt, Job, MAX_PASSWORD,
};
use crate::services::error::ServiceError;
use emergo_platform::domain::model::{hash_secret, now_text, random_text};
use emergo_platform::store::accounts::AccountRow;
use emergo_platform::store::StoreError;
use serde::Serialize;
use std::collections::BTreeMap;
use std::net::IpAddr;

/// A live session: the account it logs in and the hash of its token.
#[derive(Clone, Debug)]
pub struct Session {
    pub account: AccountRow,
    pub token_hash: String,
}

/// The answer of sign-up, login and `GET /api/me`: the name, when the account was made and its
/// ratings.
#[derive(Debug, Serialize)]
pub struct MeView {
    name: String,
    created_at: String,
    ratings: BTreeMap<String, RatingView>,
}

/// A session just started: the token its cookie carries, and who it logs in.
pub struct Started {
    pub token: String,
    pub me: MeView,
}

impl Accounts {
    /// The session of the first of `tokens` (a request's session cookies) that is alive.
    pub async fn session<'a>(
        &self,
        tokens: impl IntoIterator<Item = &'a str>,
    ) -> Result<Option<Session>, ServiceError> {
        for token in tokens {
            let token_hash = hash_secret(token);
            if let Some(account) = self.store.session_account(&token_hash).await? {
                return Ok(Some(Session {
                    account,
                    token_hash,
                }));
            }
        }
        Ok(None)
    }

    /// What `GET /api/me` shows of `account`.
    pub async fn me(&self, account: &AccountRow) -> Result<MeView, ServiceError> {
        let ratings = self.store.ratings_of(account.id).await?;
        Ok(MeView {
            name: account.name.clone(),
            created_at: account.created_at.clone(),
            ratings: ratings_view(&ratings),
        })
    }

    /// Starts a session for `account`.
    async fn start_session(&self, account: &AccountRow) -> Result<Started, ServiceError> {
        let token = random_text(32);
        self.store
            .insert_session(&hash_secret(&token), account.id, &now_text())
            .await?;
        let me = self.me(account).await?;
        Ok(Started { token, me })
    }

    /// `POST /api/accounts`: a new account `name` with `password`, from `client`, and its
    /// first session.
    pub async fn sign_up(
        &self,
        client: IpAddr,
        name: String,
        password: String,
    ) -> Result<Started, ServiceError> {
        check_name(&name)?;
        check_password(&name, &password)?;
        self.attempt_from(client)?;
        let key = name_key(&name);
        if self.store.account_by_key(&key).await?.is_some() {
            return Err(name_taken(&name));
        }
        let hash = self
            .hashing
            .run(Job::SignUp, move |memory| hash_password(&password, memory))
            .await??;
        let now = now_text();
        let id = match self.store.create_account(&name, &key, &hash, &now).await {
            Ok(id) => id,
            Err(StoreError::Conflict(_)) => return Err(name_taken(&name)),
            Err(err) => return Err(err.into()),
        };
        let account = AccountRow {
            id,
            name,
            password_hash: hash,
            created_at: now,
            bot: false,
        };
        self.logged_in(&Attempt {
            client,
            key,
            known: true,
        });
        self.start_session(&account).await
    }

    /// `POST /api/session`: log in. A client holding a session of the account (among
    /// `tokens`, its session cookies), or whose address logged in to it before, is not held
    /// back by other addresses' failed tries on the name.
    pub async fn log_in<'a>(
        &self,
        client: IpAddr,
        tokens: impl IntoIterator<Item = &'a str>,
        name: &str,
        password: String,
    ) -> Result<Started, ServiceError> {
        let key = name_key(name);
        let mut known = self.is_known(&key, client);
        if !known {
            known = self
                .session(tokens)
                .await?
                .is_some_and(|s| name_key(&s.account.name) == key);
        }
        let attempt = Attempt { client, key, known };
        self.attempt_login(&attempt)?;
        let account = if name.len() <= 20 {
            self.store.account_by_key(&attempt.key).await?
        } else {
            None
        };
        let stored = account.as_ref().map(|a| a.password_hash.clone());
        let matches = password.len() <= MAX_PASSWORD
            && self
                .hashing
                .run(Job::Login, move |memory| {
                    let stored = stored.unwrap_or_else(|| dummy_hash(memory));
                    password_matches(&password, &stored, memory)
                })
                .await?;
        match account {
            Some(account) if matches => {
                self.logged_in(&attempt);
                self.start_session(&account).await
            }
            _ => Err(ServiceError::BadCredentials(
                "no account has this name and password".to_string(),
            )),
        }
    }

    /// `DELETE /api/session`: the session of `token` ends on the server (on every instance).
    pub async fn log_out(&self, token: Option<&str>) -> Result<(), ServiceError> {
        if let Some(token) = token {
            self.store.delete_session(&hash_secret(token)).await?;
        }
        Ok(())
    }

    /// `POST /api/me/password`: the `current` password and the `new` one; the session's
    /// other sessions end. Wrong current passwords count against the account's own limit, not
    /// the login limits.
    pub async fn change_password(
        &self,
        session: &Session,
        current: String,
        new: String,
    ) -> Result<(), ServiceError> {
        let account = &session.account;
        check_password(&account.name, &new)?;
        let hash = self
            .confirm(account, current, move |memory| hash_password(&new, memory))
            .await?;
        self.store
            .set_password(account.id, &hash, &session.token_hash)
            .await?;
        Ok(())
    }

    /// `DELETE /api/me` with the `password`: the account goes, its games stay. Wrong passwords
    /// count against the account's own limit, not the login limits.
    pub async fn delete(&self, account: &AccountRow, password: String) -> Result<(), ServiceError> {
        self.confirm(account, password, |_| Ok(()))
            .await
            .map_err(|err| match err {
                ServiceError::BadCredentials(_) => {
                    ServiceError::BadCredentials("the password is wrong".to_string())
                }
                other => other,
            })?;
        self.store.delete_account(account.id, &now_text()).await?;
        Ok(())
    }
}
