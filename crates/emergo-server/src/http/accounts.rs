//! Accounts' handlers: sign-up, log in and out, GET /api/me, password change, deletion (docs/api.md).

use crate::http::extract::Body;
use crate::http::session::{clear_cookie, set_cookie, SessionCookie, SignedIn};
use crate::services::accounts::players::{ratings_view, RatingView};
use crate::services::accounts::{
    check_name, check_password, dummy_hash, hash_password, name_key, name_taken, password_matches,
    Accounts, Attempt, Job, MAX_PASSWORD,
};
use crate::services::error::ServiceError;
use crate::services::games::AppState;
use crate::services::lobby::Lobby;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use emergo_platform::domain::limits::ClientAddr;
use emergo_platform::domain::model::{hash_secret, now_text, random_text};
use emergo_platform::store::accounts::AccountRow;
use emergo_platform::store::StoreError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

/// The answer of sign-up, login and `GET /api/me`: the name, when the account was made and its
/// ratings.
#[derive(Debug, Serialize)]
pub struct MeView {
    name: String,
    created_at: String,
    ratings: BTreeMap<String, RatingView>,
}

async fn me_view(state: &AppState, account: &AccountRow) -> Result<MeView, ServiceError> {
    let ratings = state.store.ratings_of(account.id).await?;
    Ok(MeView {
        name: account.name.clone(),
        created_at: account.created_at.clone(),
        ratings: ratings_view(&ratings),
    })
}

/// Starts a session for `account`: the answer with its cookie.
async fn start_session(
    state: &AppState,
    accounts: &Accounts,
    account: &AccountRow,
    status: StatusCode,
) -> Result<Response, ServiceError> {
    let token = random_text(32);
    state
        .store
        .insert_session(&hash_secret(&token), account.id, &now_text())
        .await?;
    let body = me_view(state, account).await?;
    let cookie = set_cookie(&token, accounts.secure());
    Ok((status, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

/// `POST /api/accounts`.
pub async fn sign_up(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    Body(body): Body<Credentials>,
) -> Result<Response, ServiceError> {
    check_name(&body.name)?;
    check_password(&body.name, &body.password)?;
    accounts.attempt_from(client.0)?;
    let key = name_key(&body.name);
    if state.store.account_by_key(&key).await?.is_some() {
        return Err(name_taken(&body.name));
    }
    let password = body.password;
    let hash = accounts
        .hashing
        .run(Job::SignUp, move |memory| hash_password(&password, memory))
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
    accounts.logged_in(&Attempt {
        client: client.0,
        key,
        known: true,
    });
    start_session(&state, &accounts, &account, StatusCode::CREATED).await
}

/// `POST /api/session`: log in. A client holding a session of the account, or whose address
/// logged in to it before, is not held back by other addresses' failed tries on the name.
pub async fn log_in(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    cookie: SessionCookie,
    Body(body): Body<Credentials>,
) -> Result<Response, ServiceError> {
    let key = name_key(&body.name);
    let mut known = accounts.is_known(&key, client.0);
    if !known && cookie.0.is_some() {
        known = cookie
            .account(&state)
            .await?
            .is_some_and(|s| name_key(&s.account.name) == key);
    }
    let attempt = Attempt {
        client: client.0,
        key,
        known,
    };
    accounts.attempt_login(&attempt)?;
    let account = if body.name.len() <= 20 {
        state.store.account_by_key(&attempt.key).await?
    } else {
        None
    };
    let stored = account.as_ref().map(|a| a.password_hash.clone());
    let password = body.password;
    let matches = password.len() <= MAX_PASSWORD
        && accounts
            .hashing
            .run(Job::Login, move |memory| {
                let stored = stored.unwrap_or_else(|| dummy_hash(memory));
                password_matches(&password, &stored, memory)
            })
            .await?;
    match account {
        Some(account) if matches => {
            accounts.logged_in(&attempt);
            start_session(&state, &accounts, &account, StatusCode::OK).await
        }
        _ => Err(ServiceError::BadCredentials(
            "no account has this name and password".to_string(),
        )),
    }
}

/// `DELETE /api/session`: log out (the session ends on the server too).
pub async fn log_out(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    cookie: SessionCookie,
) -> Result<Response, ServiceError> {
    if let Some(token) = &cookie.0 {
        state.store.delete_session(&hash_secret(token)).await?;
    }
    let cookie = clear_cookie(accounts.secure());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// `GET /api/me`: who is logged in, or `null` for nobody (an expected answer, not an error).
/// Also keeps the account's real-time seeks alive.
pub async fn me(
    State(state): State<AppState>,
    cookie: SessionCookie,
) -> Result<Json<Option<MeView>>, ServiceError> {
    let Some(session) = cookie.account(&state).await? else {
        return Ok(Json(None));
    };
    crate::services::lobby::owner_is_around(&state, session.account.id).await;
    Ok(Json(Some(me_view(&state, &session.account).await?)))
}

#[derive(Deserialize)]
pub struct NewPassword {
    password: String,
    new_password: String,
}

/// `POST /api/me/password`: the current password and the new one; the other sessions end.
/// Wrong current passwords count against the account's own limit, not the login limits.
pub async fn change_password(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    SignedIn(session): SignedIn,
    Body(body): Body<NewPassword>,
) -> Result<StatusCode, ServiceError> {
    let account = session.account;
    check_password(&account.name, &body.new_password)?;
    let new = body.new_password;
    let hash = accounts
        .confirm(&account, body.password, move |memory| {
            hash_password(&new, memory)
        })
        .await?;
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

/// `DELETE /api/me` with the password: the account goes, its games stay. Wrong passwords
/// count against the account's own limit, not the login limits.
pub async fn delete_account(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    State(lobby): State<Arc<Lobby>>,
    SignedIn(session): SignedIn,
    Body(body): Body<Confirm>,
) -> Result<Response, ServiceError> {
    let account = session.account;
    accounts
        .confirm(&account, body.password, |_| Ok(()))
        .await
        .map_err(|err| match err {
            ServiceError::BadCredentials(_) => {
                ServiceError::BadCredentials("the password is wrong".to_string())
            }
            other => other,
        })?;
    state.store.delete_account(account.id, &now_text()).await?;
    lobby.changed();
    let cookie = clear_cookie(accounts.secure());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}
