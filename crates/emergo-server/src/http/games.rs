//! Handlers of a game's seats, rematches, chat and spectators (docs/api.md).

use crate::http::extract::{Body, GameId};
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::games::chat::{clean, publish, MessageView, Room, Speaker, MAX_PER_GAME};
use crate::services::games::rematch::{join, make, rematch_seat, Action};
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::watching::{make_list, WatchListView, LIST_EVERY};
use crate::services::games::{AppState, Change, GameSlot};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use emergo_core::Color;
use emergo_platform::domain::limits::ClientAddr;
use emergo_platform::domain::model::{hash_secret, new_token, now_text, Mode};
use emergo_platform::store::chat::{NewChat, NewReport};
use emergo_platform::store::StoreError;
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
    let mut live = slot.state.lock().await;
    let color = live
        .meta
        .players
        .seat_of(session.account.id)
        .ok_or_else(|| {
            ServiceError::BadToken("the account logged in holds no seat in this game".to_string())
        })?;
    let token = new_token();
    let token_hash = hash_secret(&token);
    state
        .store
        .set_seat_token(&id, color, &token_hash, session.account.id)
        .await?;
    live.meta.seats[color].token_hash = Some(token_hash);
    live.version += 1;
    Ok(Json(SeatGrant {
        game: GameView::of(&live),
        seat: color.name(),
        token,
        invite: None,
    }))
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
    let (who, over) = speaker(&accounts, &slot, body.token.as_deref(), &cookie).await?;
    match (body.room, who.seat) {
        (Room::Players, None) => {
            return Err(ServiceError::BadToken(
                "the players' room is for the two players (with a seat's token or session); \
                 spectators write in the spectators' room"
                    .to_string(),
            ))
        }
        (Room::Spectators, Some(_)) if !over => {
            return Err(ServiceError::NotAllowed(
                "the players write in the spectators' room once the game is over".to_string(),
            ))
        }
        (Room::Spectators, None) if who.account.is_none() => {
            return Err(ServiceError::Unauthorized(
                "sign in to write in the spectators' room".to_string(),
            ))
        }
        _ => {}
    }
    let text = clean(&body.text)?;
    state.chat.admit_client(client)?;
    state.chat.admit_author(&who.key(slot.id()))?;
    let now = now_text();
    let client_text = client.to_string();
    let message = NewChat {
        game_id: slot.id(),
        room: body.room.name(),
        seat: who.seat.map(Color::name),
        account_id: who.account.as_ref().map(|(id, _)| *id),
        author: who.account.as_ref().map(|(_, name)| name.as_str()),
        body: &text,
        client: &client_text,
        now: &now,
    };
    let row = match state.store.insert_chat(&message, MAX_PER_GAME).await {
        Ok(row) => row,
        Err(StoreError::Conflict(_)) => {
            return Err(ServiceError::NotAllowed(format!(
                "this game's chat is full: it keeps at most {MAX_PER_GAME} messages"
            )))
        }
        Err(err) => return Err(err.into()),
    };
    publish(&slot, row.clone());
    Ok((
        StatusCode::CREATED,
        Json(Said {
            message: MessageView::of(row),
        }),
    ))
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
    let (who, over) = speaker(&accounts, &slot, body.token.as_deref(), &cookie).await?;
    if who.seat.is_none() && who.account.is_none() {
        return Err(ServiceError::Unauthorized(
            "sign in (or hold a seat) to report a message".to_string(),
        ));
    }
    let missing = || {
        ServiceError::NotFound(format!(
            "there is no message {} here",
            crate::http::error::echo(&message)
        ))
    };
    let message_id: i64 = message.parse().map_err(|_| missing())?;
    let row = state
        .store
        .chat_message(slot.id(), message_id)
        .await?
        .ok_or_else(missing)?;
    let own = match row.room.as_str() {
        "players" => {
            if who.seat.is_none() {
                return Err(missing());
            }
            row.seat.as_deref() == who.seat.map(Color::name)
        }
        _ => {
            if who.seat.is_some() && !over {
                return Err(missing());
            }
            let mine =
                row.account_id.is_some() && row.account_id == who.account.as_ref().map(|a| a.0);
            mine || (row.account_id.is_none() && row.seat.as_deref() == who.seat.map(Color::name))
        }
    };
    if own {
        return Err(ServiceError::NotAllowed(
            "that message is yours: report the other side's".to_string(),
        ));
    }
    state.chat.admit_client(client)?;
    let client_text = client.to_string();
    let now = now_text();
    let reporter = who.reporter();
    let report = NewReport {
        message: &row,
        reporter: &reporter,
        account_id: who.account.as_ref().map(|(id, _)| *id),
        client: &client_text,
        now: &now,
    };
    let new = state.store.report_chat(&report).await?;
    if new {
        tracing::info!(game = %row.game_id, message = row.id, %reporter, "chat message reported");
    }
    Ok((
        StatusCode::CREATED,
        Json(Reported {
            reported: true,
            message: row.id,
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

/// Reads who speaks: the token's seat (403 `bad_token` when it holds none), else the session's
/// account and the seat it holds, if any. Also returns whether the game is over.
pub async fn speaker(
    accounts: &Accounts,
    slot: &GameSlot,
    token: Option<&str>,
    cookie: &SessionCookie,
) -> Result<(Speaker, bool), ServiceError> {
    let token = token.filter(|t| !t.is_empty());
    let session = match token {
        Some(_) => None,
        None => cookie.account(accounts).await?,
    };
    let live = slot.state.lock().await;
    if live.meta.mode != Mode::Human {
        return Err(ServiceError::NotAllowed(
            "chat is for games between people".to_string(),
        ));
    }
    let over = live.game.is_over();
    if let Some(token) = token {
        let seat = live.meta.seat_of(token).ok_or_else(|| {
            ServiceError::BadToken("this token holds no seat in this game".to_string())
        })?;
        let account = live
            .meta
            .players
            .of(seat)
            .and_then(|p| Some((p.id, p.name.clone()?)));
        return Ok((
            Speaker {
                seat: Some(seat),
                account,
            },
            over,
        ));
    }
    let speaker = match session {
        Some(session) => Speaker {
            seat: live.meta.players.seat_of(session.account.id),
            account: Some((session.account.id, session.account.name)),
        },
        None => Speaker {
            seat: None,
            account: None,
        },
    };
    Ok((speaker, over))
}
