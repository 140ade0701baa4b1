//! The lobby's handlers: seeks and challenges, and the lobby's WebSocket (docs/api.md).

use crate::http::error::ApiError;
use crate::http::extract::Body;
use crate::http::lobby_ws::Follower;
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::accounts::name_key;
use crate::services::error::{echo, ServiceError};
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::{AppState, LiveGame};
use crate::services::lobby::{
    find, owner_is_around, seek_view, seek_views, time_control, Lobby, LobbyEvent, SeekColor,
    SeekView, CHALLENGES_PER_ACCOUNT, CORRESPONDENCE_SEEK_SECS, LISTED_CHALLENGES, LISTED_SEEKS,
    SEEKS_PER_ACCOUNT, SEEK_GRACE_SECS,
};
use crate::services::notify::Notify;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Json};
use emergo_core::{ByColor, Color, Game};
use emergo_platform::domain::clock::GameClock;
use emergo_platform::domain::limits::ClientAddr;
use emergo_platform::domain::model::unix_now;
use emergo_platform::domain::model::{
    hash_secret, new_game_id, new_token, now_text, random_bit, random_text, GameMeta, Mode,
    PlayerRef, Players, Seat, SeatKind,
};
use emergo_platform::domain::time_control::TimeControl;
use emergo_platform::store::accounts::{NewSeek, SeekRow};
use emergo_platform::store::notifications::NewNote;
use emergo_platform::store::StoreError;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Deserialize)]
pub struct SeekBody {
    time: String,
    #[serde(default)]
    rated: bool,
    color: Option<SeekColor>,
    /// A challenge: the only account that may accept.
    opponent: Option<String>,
}

/// `POST /api/seeks`.
pub async fn create(
    State(state): State<AppState>,
    State(notes): State<Notify>,
    State(lobby): State<Arc<Lobby>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    SignedIn(session): SignedIn,
    Body(body): Body<SeekBody>,
) -> Result<(StatusCode, Json<SeekView>), ServiceError> {
    let tc = time_control(&body.time)?;
    let account = session.account;
    if let Err(wait) = lobby.seeks_rate.check_key(&account.id) {
        use governor::clock::Clock;
        let wait = wait.wait_time_from(governor::clock::DefaultClock::default().now());
        return Err(ServiceError::RateLimited {
            cap: "seeks_rate",
            message: format!(
                "this account makes seeks too fast; try again in {} s",
                wait.as_secs().max(1)
            ),
            retry_after: wait,
        });
    }
    let opponent_id = match &body.opponent {
        None => None,
        Some(name) => {
            let opponent = if name.len() <= 20 {
                state.store.account_by_key(&name_key(name)).await?
            } else {
                None
            };
            let opponent = opponent.ok_or_else(|| {
                ServiceError::NotFound(format!("there is no player {}", echo(name)))
            })?;
            if opponent.id == account.id {
                return Err(ServiceError::BadRequest(
                    "a challenge is to another player".to_string(),
                ));
            }
            Some(opponent.id)
        }
    };
    let now = unix_now();
    let expires_at = match tc {
        TimeControl::RealTime { .. } => now + SEEK_GRACE_SECS,
        TimeControl::Correspondence { .. } => now + CORRESPONDENCE_SEEK_SECS,
    };
    let seek = NewSeek {
        id: random_text(10),
        account_id: account.id,
        time_control: tc.to_string(),
        rated: body.rated,
        color: body.color.unwrap_or(SeekColor::Random).name().to_string(),
        opponent_id,
        created_at: now_text(),
        expires_at: Some(expires_at),
        client: Some(client.to_string()),
    };
    let (cap, what) = match opponent_id {
        None => (SEEKS_PER_ACCOUNT, "seeks"),
        Some(_) => (CHALLENGES_PER_ACCOUNT, "challenges"),
    };
    if !state.store.insert_seek(&seek, now, cap).await? {
        return Err(ServiceError::NotAllowed(format!(
            "this account has {cap} open {what} already, the most it may have: \
             withdraw one first"
        )));
    }
    lobby.changed();
    if let Some(opponent) = opponent_id {
        notes
            .notify(NewNote {
                account_id: opponent,
                kind: "challenge",
                game_id: None,
                seek_id: Some(&seek.id),
                other: Some(&account.name),
                time_control: Some(&seek.time_control),
                outcome: None,
                reason: None,
                created_at: &seek.created_at,
            })
            .await;
    }
    let row = state
        .store
        .seek(&seek.id)
        .await?
        .ok_or_else(|| ServiceError::internal("a stored seek is missing"))?;
    Ok((StatusCode::CREATED, Json(seek_view(&state, &row).await)))
}

/// The answer of `GET /api/seeks`.
#[derive(Debug, Serialize)]
pub struct SeekList {
    seeks: Vec<SeekView>,
    challenges: Vec<SeekView>,
}

/// `GET /api/seeks`: `"seeks"`, the newest open public seeks and the caller's own, oldest
/// first; `"challenges"`, the open challenges to or from the caller, oldest first.
pub async fn list(
    State(state): State<AppState>,
    cookie: SessionCookie,
) -> Result<Json<SeekList>, ServiceError> {
    let viewer = cookie.account(&state).await?.map(|s| s.account.id);
    let now = unix_now();
    let mut public = state.store.open_seeks(now, LISTED_SEEKS).await?;
    let mut challenges = Vec::new();
    if let Some(id) = viewer {
        owner_is_around(&state, id).await;
        for row in state.store.seeks_of(now, id, LISTED_CHALLENGES).await? {
            if row.opponent_id.is_some() {
                challenges.push(row);
            } else if !public.iter().any(|p| p.id == row.id) {
                public.push(row);
            }
        }
    }
    let oldest_first = |rows: &mut Vec<SeekRow>| {
        rows.sort_by(|a, b| (&a.created_at, &a.id).cmp(&(&b.created_at, &b.id)));
    };
    oldest_first(&mut public);
    oldest_first(&mut challenges);
    Ok(Json(SeekList {
        seeks: seek_views(&state, &public).await,
        challenges: seek_views(&state, &challenges).await,
    }))
}

/// `GET /api/seeks/{id}`: `"game"` names the game once the seek is taken.
pub async fn show(
    State(state): State<AppState>,
    cookie: SessionCookie,
    Path(id): Path<String>,
) -> Result<Json<SeekView>, ServiceError> {
    let row = find(&state, &id).await?;
    if let Some(session) = cookie.account(&state).await? {
        if session.account.id == row.account_id {
            owner_is_around(&state, row.account_id).await;
        }
    }
    Ok(Json(seek_view(&state, &row).await))
}

/// `DELETE /api/seeks/{id}`: the owner withdraws it (or the challenged player declines).
pub async fn delete(
    State(state): State<AppState>,
    State(lobby): State<Arc<Lobby>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ServiceError> {
    let row = find(&state, &id).await?;
    if row.game_id.is_some() {
        return Err(ServiceError::SeekTaken(
            "this seek was taken already".to_string(),
        ));
    }
    if !state.store.delete_seek(&id, session.account.id).await? {
        return Err(ServiceError::NotAllowed(
            "only the seek's owner (or the challenged player) can remove it".to_string(),
        ));
    }
    lobby.changed();
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
    let row = find(&state, &id).await?;
    let me = session.account;
    if row.game_id.is_some() {
        return Err(ServiceError::SeekTaken(
            "this seek was taken already".to_string(),
        ));
    }
    if row.account_id == me.id {
        return Err(ServiceError::NotAllowed(
            "a seek is accepted by another player".to_string(),
        ));
    }
    if row.opponent_id.is_some_and(|o| o != me.id) {
        return Err(ServiceError::NotAllowed(
            "this challenge is to another player".to_string(),
        ));
    }
    let tc = time_control(&row.time_control)?;
    let owner_color = match row.color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        _ if random_bit() => Color::White,
        _ => Color::Black,
    };
    let mine = owner_color.other();
    let token = new_token();
    let mut seats = ByColor::splat(Seat {
        kind: SeatKind::Human,
        // The owner acts by its session; a token for its seat comes from
        // `POST /api/games/{id}/seat`.
        token_hash: Some(hash_secret(&new_token())),
    });
    seats[mine].token_hash = Some(hash_secret(&token));
    let owner = PlayerRef {
        id: row.account_id,
        name: Some(row.owner.clone()),
    };
    let acceptor = PlayerRef {
        id: me.id,
        name: Some(me.name.clone()),
    };
    let (white, black) = match owner_color {
        Color::White => (owner, acceptor),
        Color::Black => (acceptor, owner),
    };
    // Both seats are taken: the game, and White's clock, start now.
    let mut clock = GameClock::new(tc);
    clock.start(state.clock.now_ms());
    let mut meta = GameMeta::new(new_game_id(), Mode::Human, seats, now_text());
    meta.players = Players {
        white: Some(white),
        black: Some(black),
        rated: row.rated.then(|| tc.category()),
    };
    meta.clock = Some(clock);
    let game = Game::default();
    // Both players from one address: a rated game counts within that address's limit.
    let client = client.to_string();
    let shared = (row.rated && row.client.as_deref() == Some(client.as_str())).then_some(&*client);
    match state
        .store
        .accept_seek(&id, me.id, unix_now(), &meta, &game, shared)
        .await
    {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => {
            return Err(ServiceError::SeekTaken(
                "this seek was taken, withdrawn or has expired".to_string(),
            ))
        }
        Err(err) => return Err(err.into()),
    }
    let game_id = meta.id.clone();
    let slot = state.insert(LiveGame::new(meta, game));
    // The seek's owner hears of its game on any page (issue 18).
    notes
        .notify(NewNote {
            account_id: row.account_id,
            kind: "started",
            game_id: Some(&game_id),
            seek_id: Some(&id),
            other: Some(&me.name),
            time_control: Some(&row.time_control),
            outcome: None,
            reason: None,
            created_at: &now_text(),
        })
        .await;
    let live = slot.state.lock().await;
    let _ = lobby.events.send(LobbyEvent::Taken {
        account: row.account_id,
        seek: id,
        game: live.meta.id.clone(),
    });
    lobby.changed();
    Ok((
        StatusCode::CREATED,
        Json(SeatGrant {
            game: GameView::of(&live),
            seat: mine.name(),
            token,
            invite: None,
        }),
    ))
}

/// `GET /api/lobby/ws`: `{"type": "seeks"}` whenever the list of seeks changes, and
/// `{"type": "taken", "seek", "game"}` when a seek of the session's account is taken (the
/// lobby page then opens the game); while open, it keeps the account's seeks alive. And on
/// every page (issue 18) the account's notifications (`{"type": "notification"}`,
/// `{"type": "notifications"}`, `{"type": "turn"}`, src/services/notify.rs). `?lobby=false` opens it
/// for the notifications alone (no seeks, none kept alive); the client switches with a message
/// `{"lobby": true}` or `{"lobby": false}`.
pub async fn lobby_ws(
    State(state): State<AppState>,
    State(service): State<Arc<Lobby>>,
    State(notify): State<Notify>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    cookie: SessionCookie,
    query: Result<axum::extract::Query<LobbyQuery>, axum::extract::rejection::QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let axum::extract::Query(query) = query?;
    let upgrade = upgrade.map_err(|e| ServiceError::BadRequest(e.body_text()))?;
    let account = cookie.account(&state).await?.map(|s| s.account.id);
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
