//! Handlers of a game's seats, rematches, chat and spectators (docs/api.md).

use crate::http::extract::{Body, GameId};
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::games::chat::{ChatActor, MessageView, Room};
use crate::services::games::rematch::{self, Action, RematchAnswer};
use crate::services::games::view::SeatGrant;
use crate::services::games::watching::{make_list, WatchListView, LIST_EVERY};
use crate::services::games::AppState;
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

/// `POST /api/games/{id}/rematch` (src/services/games/rematch.rs): 201 with the new game's
/// seat when accepted, 200 with the seat when joined, else 200 with the game's view.
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
    Ok(
        match rematch::act(&state, client, &slot, &actor, body.action).await? {
            RematchAnswer::View(view) => Json(view).into_response(),
            RematchAnswer::Made(grant) => (StatusCode::CREATED, Json(grant)).into_response(),
            RematchAnswer::Joined(grant) => Json(grant).into_response(),
        },
    )
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
