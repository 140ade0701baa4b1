//! The tournaments' handlers (issue 23, docs/api.md "Tournaments").

use crate::http::error::ApiError;
use crate::http::extract::Body;
use crate::http::session::SignedIn;
use crate::services::error::ServiceError;
use crate::services::tournaments::{
    TournamentGames, TournamentList, TournamentRequest, TournamentView, Tournaments,
};
use crate::services::Services;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Extension;
use axum::Json;
use emergo_platform::domain::limits::ClientAddr;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct CreateBody {
    name: String,
    format: String,
    time: String,
    #[serde(default)]
    rated: bool,
    variant: Option<String>,
    rounds: Option<i64>,
    minutes: Option<i64>,
    games_per_pairing: Option<i64>,
    max_players: Option<i64>,
    /// RFC 3339.
    starts_at: Option<String>,
    password: Option<String>,
}

/// `POST /api/tournaments`.
pub async fn create(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Body(body): Body<CreateBody>,
) -> Result<(StatusCode, Json<TournamentView>), ApiError> {
    let starts_at = match body.starts_at.as_deref() {
        None => None,
        Some(text) => Some(
            emergo_platform::domain::model::unix_of(text).ok_or_else(|| {
                crate::services::error::ServiceError::BadRequest(format!(
                    "starts_at {} is not an RFC 3339 time",
                    crate::services::error::echo(text)
                ))
            })?,
        ),
    };
    let request = TournamentRequest {
        name: &body.name,
        format: &body.format,
        time: &body.time,
        rated: body.rated,
        variant: body.variant.as_deref(),
        rounds: body.rounds,
        minutes: body.minutes,
        games_per_pairing: body.games_per_pairing,
        max_players: body.max_players,
        starts_at,
        password: body.password.as_deref(),
    };
    let view = tournaments.create(session.account.id, request).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/tournaments`.
pub async fn list(
    State(tournaments): State<Arc<Tournaments>>,
) -> Result<Json<TournamentList>, ApiError> {
    Ok(Json(tournaments.list().await?))
}

/// `GET /api/tournaments/{id}`.
pub async fn show(
    State(tournaments): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(tournaments.show(&id).await?))
}

#[derive(Deserialize)]
pub struct GamesQuery {
    player: Option<String>,
    round: Option<i64>,
}

/// `GET /api/tournaments/{id}/games?player=NAME&round=N`.
pub async fn games(
    State(tournaments): State<Arc<Tournaments>>,
    Path(id): Path<String>,
    query: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Json<TournamentGames>, ApiError> {
    let Query(q) = query?;
    Ok(Json(
        tournaments.games(&id, q.player.as_deref(), q.round).await?,
    ))
}

#[derive(Deserialize, Default)]
pub struct JoinBody {
    password: Option<String>,
}

/// `POST /api/tournaments/{id}/join` (`{"password"}` for a private one).
pub async fn join(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
    Body(body): Body<JoinBody>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(
        tournaments
            .join(session.account.id, &id, body.password.as_deref())
            .await?,
    ))
}

/// `POST /api/tournaments/{id}/withdraw`.
pub async fn withdraw(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(tournaments.withdraw(session.account.id, &id).await?))
}

/// `POST /api/tournaments/{id}/pause` (an arena under way; `join` comes back).
pub async fn pause(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(tournaments.pause(session.account.id, &id).await?))
}

/// `POST /api/tournaments/{id}/start`: the creator starts it now.
pub async fn start(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(tournaments.start(session.account.id, &id).await?))
}

/// A ping this often keeps a tournament's socket open through proxies and finds a client that
/// reads nothing.
const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// `GET /api/tournaments/{id}/socket`: the tournament's view (as `GET /api/tournaments/{id}`)
/// as `{"type": "tournament", "tournament": {...}}` at once and again whenever it changes (the
/// standings, the games, the round, the status); a ping every 10 s. Only the latest view waits
/// for a slow client, never a queue of them. 404 for no such tournament.
pub async fn socket(
    State(services): State<Services>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let tournaments = services.tournaments;
    // 404 before any upgrade (the feed makes the view itself).
    tournaments.find(&id).await?;
    let upgrade = upgrade.map_err(|e| ServiceError::BadRequest(e.body_text()))?;
    let permit = services.games.websockets.acquire(Some(client))?;
    let mut feed = tournaments.follow(&id)?;
    let write_timeout = services.games.limits.write_timeout;
    let mut shutdown = services.games.shutdown.clone();
    Ok(upgrade
        .max_message_size(1024)
        .on_upgrade(move |mut socket| async move {
            let _permit = permit;
            let mut ping = tokio::time::interval(PING_EVERY);
            ping.tick().await;
            feed.mark_changed();
            let send = async |socket: &mut WebSocket, message: Message| {
                crate::http::net::ws_send_within(socket, message, write_timeout).await
            };
            loop {
                let message = tokio::select! {
                    changed = feed.changed() => match changed {
                        Ok(()) => match feed.borrow_and_update().clone() {
                            Some(text) => Message::Text(text.as_ref().into()),
                            None => continue,
                        },
                        Err(_) => break,
                    },
                    _ = ping.tick() => Message::Ping(Default::default()),
                    incoming = socket.recv() => match incoming {
                        Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                        Some(Ok(_)) => continue,
                    },
                    _ = shutdown.changed() => {
                        let _ = send(&mut socket, Message::Close(None)).await;
                        break;
                    }
                };
                if !send(&mut socket, message).await {
                    break;
                }
            }
        }))
}
