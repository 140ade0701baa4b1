//! Accounts (issue 11, docs/api.md "Accounts, seeks, ratings"): sign-up, log in and out,
//! `GET /api/me`, password change, deletion. Names are 3–20 letters, digits, `_` or `-`,
//! unique regardless of case; passwords at least 8 characters, stored as argon2id hashes
//! computed on blocking threads (a few at once). Login attempts are rate-limited per name and
//! per client address.

use crate::edge::ClientAddr;
use crate::error::ApiError;
use crate::limits::Limits;
use crate::live::AppState;
use crate::model::{hash_secret, now_text, random_text};
use crate::players::ratings_json;
use crate::routes::Body;
use crate::seeks::LobbyEvent;
use crate::session::{clear_cookie, set_cookie, SessionCookie, SignedIn};
use crate::store::accounts::AccountRow;
use crate::store::StoreError;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use governor::{clock::Clock, DefaultKeyedRateLimiter, Quota};
use serde::Deserialize;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::{broadcast, Semaphore};

/// Password hashes computed at once (each takes about 19 MiB and some tens of milliseconds).
const HASHES_AT_ONCE: usize = 4;

/// The longest password accepted, in bytes (the hash's work does not depend on it, but a
/// request body should not be hashed whole).
const MAX_PASSWORD: usize = 256;

/// What the accounts share: the cookie's `Secure` flag, the login limiters, the hashing permits
/// and the lobby's channel.
pub struct Accounts {
    secure: AtomicBool,
    by_name: DefaultKeyedRateLimiter<String>,
    by_client: DefaultKeyedRateLimiter<IpAddr>,
    hashing: Semaphore,
    /// Lobby events (seeks changed, a seek was taken) for the lobby WebSockets.
    pub lobby: broadcast::Sender<LobbyEvent>,
}

fn quota(burst: u32, every: Duration) -> Quota {
    let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(every.max(Duration::from_nanos(1)))
        .unwrap_or_else(|| Quota::per_second(burst))
        .allow_burst(burst)
}

impl Accounts {
    pub fn new(limits: &Limits) -> Accounts {
        Accounts {
            secure: AtomicBool::new(false),
            by_name: DefaultKeyedRateLimiter::keyed(quota(
                limits.logins_per_name_burst,
                limits.logins_per_name_every,
            )),
            by_client: DefaultKeyedRateLimiter::keyed(quota(
                limits.logins_per_client_burst,
                limits.logins_per_client_every,
            )),
            hashing: Semaphore::new(HASHES_AT_ONCE),
            lobby: broadcast::channel(64).0,
        }
    }

    /// Cookies get `Secure` (the server is reached over https).
    pub fn set_secure(&self, secure: bool) {
        self.secure.store(secure, Ordering::Relaxed);
    }

    pub fn secure(&self) -> bool {
        self.secure.load(Ordering::Relaxed)
    }

    /// Forgets limiter keys not seen for a while.
    pub fn forget_idle(&self) {
        self.by_name.retain_recent();
        self.by_client.retain_recent();
    }

    /// One login (or sign-up) attempt from `client`, for `name_key` when given: 429
    /// `rate_limited` beyond the limits.
    fn attempt(&self, client: IpAddr, name_key: Option<&str>) -> Result<(), ApiError> {
        let clock = governor::clock::DefaultClock::default();
        if let Err(wait) = self.by_client.check_key(&client) {
            let wait = wait.wait_time_from(clock.now());
            return Err(limited("logins_per_client", "from this address", wait));
        }
        if let Some(key) = name_key {
            if let Err(wait) = self.by_name.check_key(&key.to_string()) {
                let wait = wait.wait_time_from(clock.now());
                return Err(limited("logins_per_name", "for this name", wait));
            }
        }
        Ok(())
    }

    /// Runs argon2id on a blocking thread, a few at a time.
    async fn hashing<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self.hashing.acquire().await.map_err(ApiError::internal)?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(ApiError::internal)
    }
}

fn limited(cap: &'static str, whose: &str, wait: Duration) -> ApiError {
    ApiError::RateLimited {
        cap,
        message: format!(
            "too many login attempts {whose}; try again in {} s",
            wait.as_secs().max(1)
        ),
        retry_after: wait,
    }
}

/// A name's key: its lower-case form (names are unique regardless of case).
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// 3 to 20 characters, each a letter, a digit, `_` or `-`.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let ok = (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::BadRequest(
            "a name has 3 to 20 characters, each a letter, a digit, _ or -".to_string(),
        ))
    }
}

fn check_password(password: &str) -> Result<(), ApiError> {
    if password.chars().count() < 8 {
        return Err(ApiError::BadRequest(
            "a password has at least 8 characters".to_string(),
        ));
    }
    if password.len() > MAX_PASSWORD {
        return Err(ApiError::BadRequest(format!(
            "a password has at most {MAX_PASSWORD} bytes"
        )));
    }
    Ok(())
}

/// The argon2id hash of `password` (PHC string), with a fresh random salt.
fn hash_password(password: &str) -> Result<String, ApiError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(ApiError::internal)?;
    let salt = SaltString::encode_b64(&bytes).map_err(ApiError::internal)?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(ApiError::internal)
}

/// Whether `password` matches the stored hash (an unreadable hash matches nothing).
fn password_matches(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
    })
}

/// A hash nothing matches, verified for unknown names so that they take as long as known ones.
fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password(&random_text(16)).unwrap_or_default())
}

#[derive(Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

/// The answer of sign-up, login and `GET /api/me`: the name, when the account was made and its
/// ratings.
async fn me_json(state: &AppState, account: &AccountRow) -> Result<serde_json::Value, ApiError> {
    let ratings = state.store.ratings_of(account.id).await?;
    Ok(serde_json::json!({
        "name": account.name,
        "created_at": account.created_at,
        "ratings": ratings_json(&ratings),
    }))
}

/// Starts a session for `account`: the answer with its cookie.
async fn start_session(
    state: &AppState,
    account: &AccountRow,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let token = random_text(32);
    state
        .store
        .insert_session(&hash_secret(&token), account.id, &now_text())
        .await?;
    let body = me_json(state, account).await?;
    let cookie = set_cookie(&token, state.accounts.secure());
    Ok((status, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

/// `POST /api/accounts`.
pub async fn sign_up(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    Body(body): Body<Credentials>,
) -> Result<Response, ApiError> {
    check_name(&body.name)?;
    check_password(&body.password)?;
    state.accounts.attempt(client.0, None)?;
    let key = name_key(&body.name);
    if state.store.account_by_key(&key).await?.is_some() {
        return Err(name_taken(&body.name));
    }
    let password = body.password;
    let hash = state
        .accounts
        .hashing(move || hash_password(&password))
        .await??;
    let now = now_text();
    let id = match state
        .store
        .create_account(&body.name, &key, &hash, &now)
        .await
    {
        Ok(id) => id,
        Err(StoreError::Conflict(_)) => return Err(name_taken(&body.name)),
        Err(err) => return Err(err.into()),
    };
    let account = AccountRow {
        id,
        name: body.name,
        password_hash: hash,
        created_at: now,
    };
    start_session(&state, &account, StatusCode::CREATED).await
}

fn name_taken(name: &str) -> ApiError {
    ApiError::NameTaken(format!(
        "the name {} is taken (names are compared regardless of case)",
        crate::error::echo(name)
    ))
}

/// `POST /api/session`: log in.
pub async fn log_in(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    Body(body): Body<Credentials>,
) -> Result<Response, ApiError> {
    let key = name_key(&body.name);
    state.accounts.attempt(client.0, Some(&key))?;
    let account = if body.name.len() <= 20 {
        state.store.account_by_key(&key).await?
    } else {
        None
    };
    let stored = account
        .as_ref()
        .map_or_else(|| dummy_hash().to_string(), |a| a.password_hash.clone());
    let password = body.password;
    let matches = password.len() <= MAX_PASSWORD
        && state
            .accounts
            .hashing(move || password_matches(&password, &stored))
            .await?;
    match account {
        Some(account) if matches => start_session(&state, &account, StatusCode::OK).await,
        _ => Err(ApiError::BadCredentials(
            "no account has this name and password".to_string(),
        )),
    }
}

/// `DELETE /api/session`: log out (the session ends on the server too).
pub async fn log_out(
    State(state): State<AppState>,
    cookie: SessionCookie,
) -> Result<Response, ApiError> {
    if let Some(token) = &cookie.0 {
        state.store.delete_session(&hash_secret(token)).await?;
    }
    let cookie = clear_cookie(state.accounts.secure());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// `GET /api/me`: who is logged in, or `null` for nobody (an expected answer, not an error).
/// Also keeps the account's real-time seeks alive.
pub async fn me(
    State(state): State<AppState>,
    cookie: SessionCookie,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Some(session) = cookie.account(&state).await? else {
        return Ok(Json(serde_json::Value::Null));
    };
    crate::seeks::owner_is_around(&state, session.account.id).await;
    Ok(Json(me_json(&state, &session.account).await?))
}

#[derive(Deserialize)]
pub struct NewPassword {
    password: String,
    new_password: String,
}

/// `POST /api/me/password`: the current password and the new one; the other sessions end.
pub async fn change_password(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    SignedIn(session): SignedIn,
    Body(body): Body<NewPassword>,
) -> Result<StatusCode, ApiError> {
    check_password(&body.new_password)?;
    let account = session.account;
    state
        .accounts
        .attempt(client.0, Some(&name_key(&account.name)))?;
    let (old, stored, new) = (body.password, account.password_hash, body.new_password);
    let hash = state
        .accounts
        .hashing(move || {
            if password_matches(&old, &stored) {
                hash_password(&new).map(Some)
            } else {
                Ok(None)
            }
        })
        .await??
        .ok_or_else(|| ApiError::BadCredentials("the current password is wrong".to_string()))?;
    state
        .store
        .set_password(account.id, &hash, &session.token_hash)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
pub struct Confirm {
    password: String,
}

/// `DELETE /api/me` with the password: the account goes, its games stay.
pub async fn delete_account(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    SignedIn(session): SignedIn,
    Body(body): Body<Confirm>,
) -> Result<Response, ApiError> {
    let account = session.account;
    state
        .accounts
        .attempt(client.0, Some(&name_key(&account.name)))?;
    let (password, stored) = (body.password, account.password_hash.clone());
    let matches = state
        .accounts
        .hashing(move || password_matches(&password, &stored))
        .await?;
    if !matches {
        return Err(ApiError::BadCredentials(
            "the password is wrong".to_string(),
        ));
    }
    state.store.delete_account(account.id, &now_text()).await?;
    let _ = state.accounts.lobby.send(LobbyEvent::SeeksChanged);
    let cookie = clear_cookie(state.accounts.secure());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_have_3_to_20_safe_characters() {
        for good in ["abc", "Alice_1", "a-b-c", "x".repeat(20).as_str()] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "ab",
            "",
            "x".repeat(21).as_str(),
            "a b c",
            "名前です",
            "a.b.c",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        assert_eq!(name_key("AlIcE"), "alice");
    }

    #[test]
    fn passwords_are_argon2id_hashes_that_verify() {
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        let hash = hash_password("correct horse").expect("hash");
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(password_matches("correct horse", &hash));
        assert!(!password_matches("wrong horse", &hash));
        assert!(!password_matches("correct horse", "not a hash"));
        assert_ne!(
            hash,
            hash_password("correct horse").expect("hash"),
            "salted"
        );
    }
}
