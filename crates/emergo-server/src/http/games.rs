//! Handlers of a game's seats, rematches, chat and spectators (docs/api.md).

use crate::http::extract::{Body, GameId};
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::games::chat::{ChatActor, MessageView, Room};
use crate::services::games::rematch::{join, make, rematch_seat, Action};
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::watching::{make_list, WatchListView, LIST_EVERY};
use crate::services::games::{AppState, Change};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use emergo_platform::domain::limits::ClientAddr;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Instant;

/// `POST /api/games/{id}/seat`: a new token for the seat the session's account holds (the old
/// one stops working).
pub async fn claim(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    GameId(id): GameId,
) -> Result<Json<SeatGrant>, ServiceError> {
    let slot = state.slot(&id).await?;
    Ok(Json(state.claim_seat(&slot, session.account.id).await?))
}

#[derive(Deserialize)]
pub struct RematchBody {
    token: Option<String>,
    action: Action,
}

pub async fn rematch(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    cookie: SessionCookie,
    Body(body): Body<RematchBody>,
) -> Result<Response, ServiceError> {
    let actor = crate::http::session::actor(&accounts, body.token.as_deref(), &cookie).await?;
    let slot = state.slot(&id).await?;
    let mut live = slot.state.lock().await;
    let color = rematch_seat(&live, &actor)?;
    let current = live.meta.rematch.clone();
    if let Some(game) = current.game {
        return match body.action {
            Action::Join => {
                drop(live);
                join(&state, client, &game, color.other()).await
            }
            _ => Err(ServiceError::NotAllowed(format!(
                "the rematch has been made already: game {game}"
            ))),
        };
    }
    let offered_to_me = current.offer == Some(color.other());
    let to = match body.action {
        // Offering back to a standing offer accepts it.
        Action::Offer | Action::Accept if offered_to_me => {
            return make(&state, client, &slot, &mut live, color).await;
        }
        Action::Offer => Some(color),
        Action::Decline if offered_to_me => None,
        Action::Accept | Action::Decline => {
            return Err(ServiceError::NotAllowed(
                "there is no rematch offer from the other side".to_string(),
            ))
        }
        Action::Join => {
            return Err(ServiceError::NotAllowed(
                "no rematch has been made yet".to_string(),
            ))
        }
    };
    if to != current.offer {
        let change = Change::RematchOffer {
            from: current.offer,
            to,
        };
        state.apply(&slot, &mut live, change, client.0).await?;
    }
    Ok(Json(GameView::of(&live)).into_response())
}

#[derive(Deserialize)]
pub struct ChatBody {
    token: Option<String>,
    room: Room,
    text: String,
}

/// The answer of `POST /api/games/{id}/chat`: the message as stored.
#[derive(Debug, Serialize)]
pub struct Said {
    message: MessageView,
}

/// `POST /api/games/{id}/chat`: writes a message (201 with it).
pub async fn post(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    Path(id): Path<String>,
    cookie: SessionCookie,
    Body(body): Body<ChatBody>,
) -> Result<(StatusCode, Json<Said>), ServiceError> {
    let slot = state.slot(&id).await?;
    let who = chat_actor(&accounts, body.token.as_deref(), &cookie).await?;
    let message = state.say(&slot, client, who, body.room, &body.text).await?;
    Ok((StatusCode::CREATED, Json(Said { message })))
}

#[derive(Deserialize)]
pub struct ReportBody {
    token: Option<String>,
}

/// The answer of a report: `{"reported": true, "message": <id>}`.
#[derive(Debug, Serialize)]
pub struct Reported {
    reported: bool,
    message: i64,
}

/// `POST /api/games/{id}/chat/{message}/report`: reports a message of the other side (or of
/// another spectator); 201 `{"reported": true}`, the same when reported before.
pub async fn report(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    Path((id, message)): Path<(String, String)>,
    cookie: SessionCookie,
    Body(body): Body<ReportBody>,
) -> Result<(StatusCode, Json<Reported>), ServiceError> {
    let slot = state.slot(&id).await?;
    let who = chat_actor(&accounts, body.token.as_deref(), &cookie).await?;
    let message = state.report(&slot, client, who, &message).await?;
    Ok((
        StatusCode::CREATED,
        Json(Reported {
            reported: true,
            message,
        }),
    ))
}

/// `GET /api/watch`: the ongoing games between two accounts with a move (or a start) in the
/// last hour, the highest rated first (the mean of the two ratings in the game's category).
pub async fn list(State(state): State<AppState>) -> Result<Json<WatchListView>, ServiceError> {
    if let Some((at, value)) = &*state.watch_list.0.lock().unwrap_or_else(|e| e.into_inner()) {
        if at.elapsed() < LIST_EVERY {
            return Ok(Json(value.clone()));
        }
    }
    let value = make_list(&state).await?;
    *state.watch_list.0.lock().unwrap_or_else(|e| e.into_inner()) =
        Some((Instant::now(), value.clone()));
    Ok(Json(value))
}

/// Who acts in a chat request: the token when one is given, else the session's account (read
/// only then).
async fn chat_actor<'a>(
    accounts: &Accounts,
    token: Option<&'a str>,
    cookie: &SessionCookie,
) -> Result<ChatActor<'a>, ServiceError> {
    let token = token.filter(|t| !t.is_empty());
    let account = match token {
        Some(_) => None,
        None => cookie
            .account(accounts)
            .await?
            .map(|s| (s.account.id, s.account.name)),
    };
    Ok(ChatActor { token, account })
}
