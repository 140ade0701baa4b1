//! Accounts' handlers: sign-up, log in and out, GET /api/me, password change, deletion (docs/api.md).

use crate::http::extract::Body;
use crate::http::session::{clear_cookie, set_cookie, SessionCookie, SignedIn};
use crate::services::accounts::sessions::{MeView, Started};
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::lobby::Lobby;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use emergo_platform::domain::limits::ClientAddr;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

/// The answer that starts a session: `status`, its cookie, who it logs in.
fn session_started(accounts: &Accounts, started: Started, status: StatusCode) -> Response {
    let cookie = set_cookie(&started.token, accounts.secure());
    (status, [(header::SET_COOKIE, cookie)], Json(started.me)).into_response()
}

/// `POST /api/accounts`.
pub async fn sign_up(
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    Body(body): Body<Credentials>,
) -> Result<Response, ServiceError> {
    let started = accounts.sign_up(client.0, body.name, body.password).await?;
    Ok(session_started(&accounts, started, StatusCode::CREATED))
}

/// `POST /api/session`: log in (`Accounts::log_in`).
pub async fn log_in(
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    cookie: SessionCookie,
    Body(body): Body<Credentials>,
) -> Result<Response, ServiceError> {
    let started = accounts
        .log_in(client.0, cookie.tokens(), &body.name, body.password)
        .await?;
    Ok(session_started(&accounts, started, StatusCode::OK))
}

/// `DELETE /api/session`: log out (the session ends on the server too).
pub async fn log_out(
    State(accounts): State<Arc<Accounts>>,
    cookie: SessionCookie,
) -> Result<Response, ServiceError> {
    accounts.log_out(cookie.0.as_deref()).await?;
    let cookie = clear_cookie(accounts.secure());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// `GET /api/me`: who is logged in, or `null` for nobody (an expected answer, not an error).
/// Also keeps the account's real-time seeks alive.
pub async fn me(
    State(accounts): State<Arc<Accounts>>,
    State(lobby): State<Arc<Lobby>>,
    cookie: SessionCookie,
) -> Result<Json<Option<MeView>>, ServiceError> {
    let Some(session) = cookie.account(&accounts).await? else {
        return Ok(Json(None));
    };
    lobby.owner_is_around(session.account.id).await;
    Ok(Json(Some(accounts.me(&session.account).await?)))
}

#[derive(Deserialize)]
pub struct NewPassword {
    password: String,
    new_password: String,
}

/// `POST /api/me/password`: the current password and the new one; the other sessions end.
pub async fn change_password(
    State(accounts): State<Arc<Accounts>>,
    SignedIn(session): SignedIn,
    Body(body): Body<NewPassword>,
) -> Result<StatusCode, ServiceError> {
    accounts
        .change_password(&session, body.password, body.new_password)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
pub struct Confirm {
    password: String,
}

/// `DELETE /api/me` with the password: the account goes, its games stay.
pub async fn delete_account(
    State(accounts): State<Arc<Accounts>>,
    State(lobby): State<Arc<Lobby>>,
    SignedIn(session): SignedIn,
    Body(body): Body<Confirm>,
) -> Result<Response, ServiceError> {
    accounts.delete(&session.account, body.password).await?;
    lobby.changed();
    let cookie = clear_cookie(accounts.secure());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}
