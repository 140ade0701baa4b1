//! The lobby's handlers: seeks and challenges, and the lobby's WebSocket (docs/api.md).

use crate::http::error::ApiError;
use crate::http::extract::Body;
use crate::http::lobby_ws::Follower;
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::games::view::SeatGrant;
use crate::services::games::AppState;
use crate::services::lobby::seeks::{SeekList, SeekRequest};
use crate::services::lobby::{Lobby, SeekColor, SeekView};
use crate::services::notify::Notify;
use crate::services::Services;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Json};
use emergo_platform::domain::limits::ClientAddr;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct SeekBody {
    time: String,
    #[serde(default)]
    rated: bool,
    color: Option<SeekColor>,
    /// A challenge: the only account that may accept.
    opponent: Option<String>,
    /// The board: `emergo` (the default), `7x7` or `hex`.
    variant: Option<String>,
    /// Whether bot accounts may take a public seek (issue 24): people only by default.
    #[serde(default)]
    allow_bots: bool,
}

/// `POST /api/seeks`.
pub async fn create(
    State(notes): State<Notify>,
    State(lobby): State<Arc<Lobby>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    SignedIn(session): SignedIn,
    Body(body): Body<SeekBody>,
) -> Result<(StatusCode, Json<SeekView>), ServiceError> {
    let request = SeekRequest {
        time: &body.time,
        rated: body.rated,
        color: body.color,
        opponent: body.opponent.as_deref(),
        variant: body.variant.as_deref(),
        allow_bots: body.allow_bots,
    };
    let view = lobby
        .create(&notes, client, &session.account, request)
        .await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/seeks`: the seeks and challenges the session's account sees (`Lobby::list`).
pub async fn list(
    State(accounts): State<Arc<Accounts>>,
    State(lobby): State<Arc<Lobby>>,
    cookie: SessionCookie,
) -> Result<Json<SeekList>, ServiceError> {
    let viewer = cookie.account(&accounts).await?.map(|s| s.account.id);
    Ok(Json(lobby.list(viewer).await?))
}

/// `GET /api/seeks/{id}`: `"game"` names the game once the seek is taken.
pub async fn show(
    State(accounts): State<Arc<Accounts>>,
    State(lobby): State<Arc<Lobby>>,
    cookie: SessionCookie,
    Path(id): Path<String>,
) -> Result<Json<SeekView>, ServiceError> {
    let viewer = cookie.account(&accounts).await?.map(|s| s.account.id);
    Ok(Json(lobby.show(viewer, &id).await?))
}

/// `DELETE /api/seeks/{id}`: the owner withdraws it (or the challenged player declines).
pub async fn delete(
    State(lobby): State<Arc<Lobby>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ServiceError> {
    lobby.withdraw(session.account.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/seeks/{id}/accept`: the new game, with the accepting player's seat.
pub async fn accept(
    State(state): State<AppState>,
    State(notes): State<Notify>,
    State(lobby): State<Arc<Lobby>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<SeatGrant>), ServiceError> {
    let grant = lobby
        .accept(&state, &notes, client, &session.account, &id)
        .await?;
    Ok((StatusCode::CREATED, Json(grant)))
}

/// `GET /api/lobby/ws`: `{"type": "seeks"}` whenever the list of seeks changes, and
/// `{"type": "taken", "seek", "game"}` when a seek of the session's account is taken (the
/// lobby page then opens the game); while open, it keeps the account's seeks alive. And on
/// every page (issue 18) the account's notifications (`{"type": "notification"}`,
/// `{"type": "notifications"}`, `{"type": "turn"}`, src/services/notify.rs). `?lobby=false` opens it
/// for the notifications alone (no seeks, none kept alive); the client switches with a message
/// `{"lobby": true}` or `{"lobby": false}`.
pub async fn lobby_ws(
    State(services): State<Services>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    cookie: SessionCookie,
    query: Result<axum::extract::Query<LobbyQuery>, axum::extract::rejection::QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let Services {
        games: state,
        accounts,
        lobby: service,
        notify,
        ..
    } = services;
    let axum::extract::Query(query) = query?;
    let upgrade = upgrade.map_err(|e| ServiceError::BadRequest(e.body_text()))?;
    let account = cookie.account(&accounts).await?.map(|s| s.account.id);
    let permit = state.websockets.acquire(Some(client))?;
    // Subscribed before the upgrade: a notification stored once the client holds the socket
    // (and reads the list) is never missed.
    let notes = account.map(|id| notify.subscribe(id));
    let lobby = query.lobby.unwrap_or(true);
    Ok(upgrade.max_message_size(4096).on_upgrade(move |socket| {
        let follower = Follower {
            socket,
            service,
            write_timeout: state.limits.write_timeout,
            state,
            account,
            lobby,
            told: Vec::new(),
        };
        follower.follow(notes, permit)
    }))
}

#[derive(Deserialize)]
pub struct LobbyQuery {
    /// `false`: the notifications only, until the client asks for the lobby.
    lobby: Option<bool>,
}
