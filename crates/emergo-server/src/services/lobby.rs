//! Seeks and challenges (issue 11): `POST/GET /api/seeks`, `GET/DELETE /api/seeks/{id}`,
//! `POST /api/seeks/{id}/accept`, and the lobby's WebSocket `GET /api/lobby/ws`.
//!
//! A seek is an account's wish for a game (a time control, rated or not, a colour); a challenge
//! is a seek only one named account may accept. Accepting stores the seek's game and marks the
//! seek taken in one transaction whose guarded update lets exactly one acceptance through. A
//! real-time seek lives while its owner is around: each request of the owner to the lobby's
//! endpoints (`GET /api/me`, `GET /api/seeks`, ...) and each minute of an open lobby WebSocket
//! pushes its end to 60 s later; a correspondence seek lives a week.
//!
//! An account has at most [`SEEKS_PER_ACCOUNT`] open seeks and [`CHALLENGES_PER_ACCOUNT`] open
//! challenges, and makes them at the rate `Limits::seeks_burst` / `seeks_every` allow. The list
//! shows the newest public seeks, always the viewer's own, and apart from them the challenges to
//! or from the viewer (issue 17 item 3: one account's flood of seeks hid everyone else's).

use crate::domain::clock::GameClock;
use crate::domain::limits::ClientAddr;
use crate::domain::model::{
    hash_secret, new_game_id, new_token, now_text, random_bit, random_text, GameMeta, Mode,
    PlayerRef, Players, Seat, SeatKind,
};
use crate::domain::time_control::TimeControl;
use crate::http::error::ApiError;
use crate::http::router::Body;
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::accounts::name_key;
use crate::services::accounts::players::{rating_now, unix_now};
use crate::services::error::{echo, ServiceError};
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::{AppState, LiveGame};
use crate::services::permits::Permit;
use crate::store::accounts::{NewSeek, RatingRow, SeekRow};
use crate::store::notifications::NewNote;
use crate::store::StoreError;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Json};
use emergo_core::{ByColor, Color, Game};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::sync::broadcast;

/// A real-time seek lives this long after its owner was last around.
pub const SEEK_GRACE_SECS: i64 = 60;

/// A correspondence seek lives this long after it was made.
pub const CORRESPONDENCE_SEEK_SECS: i64 = 7 * 86_400;

/// Open public seeks one account may have.
pub const SEEKS_PER_ACCOUNT: i64 = 5;

/// Open challenges one account may have sent.
pub const CHALLENGES_PER_ACCOUNT: i64 = 10;

/// Public seeks a list shows at most (the newest), besides the viewer's own.
const LISTED_SEEKS: u32 = 200;

/// Challenges to or from the viewer a list shows at most (the newest).
const LISTED_CHALLENGES: u32 = 200;

/// How often an open lobby WebSocket keeps its account's seeks alive and looks for seeks taken
/// on another instance.
const LOBBY_TICK: Duration = Duration::from_secs(5);

/// What the lobby WebSockets are told.
#[derive(Clone, Debug)]
pub enum LobbyEvent {
    /// A seek came or went: the lobby reads the list again.
    SeeksChanged,
    /// The seek `seek` of `account` was taken: its game is `game`.
    Taken {
        account: i64,
        seek: String,
        game: String,
    },
}

/// Keeps the account's real-time seeks alive for [`SEEK_GRACE_SECS`] more.
pub async fn owner_is_around(state: &AppState, account_id: i64) {
    let until = unix_now() + SEEK_GRACE_SECS;
    if let Err(err) = state.store.touch_seeks(account_id, until).await {
        tracing::warn!("cannot keep seeks alive: {err}");
    }
}

/// Deletes expired seeks; the sweeper calls it.
pub async fn sweep(state: &AppState) {
    match state.store.sweep_seeks(unix_now()).await {
        Ok(0) => {}
        Ok(_) => {
            let _ = state.accounts.lobby.send(LobbyEvent::SeeksChanged);
        }
        Err(err) => tracing::warn!("cannot sweep seeks: {err}"),
    }
}

/// The colour a seek's owner asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum SeekColor {
    White,
    Black,
    Random,
}

impl SeekColor {
    fn name(self) -> &'static str {
        match self {
            SeekColor::White => "white",
            SeekColor::Black => "black",
            SeekColor::Random => "random",
        }
    }
}

#[derive(Deserialize)]
pub struct SeekBody {
    time: String,
    #[serde(default)]
    rated: bool,
    color: Option<SeekColor>,
    /// A challenge: the only account that may accept.
    opponent: Option<String>,
}

fn time_control(text: &str) -> Result<TimeControl, ServiceError> {
    text.parse::<TimeControl>()
        .map_err(|e| ServiceError::BadRequest(format!("time {}: {e}", echo(text))))
}

/// A seek as the API shows it, with its owner's current rating in the seek's category.
async fn seek_json(state: &AppState, row: &SeekRow) -> Value {
    let ratings = state
        .store
        .ratings_of(row.account_id)
        .await
        .unwrap_or_default();
    seek_json_with(row, &ratings)
}

/// Seeks as the API shows them, each owner's ratings read once.
async fn seeks_json(state: &AppState, rows: &[SeekRow]) -> Vec<Value> {
    let mut ratings: std::collections::HashMap<i64, Vec<RatingRow>> = Default::default();
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        if let std::collections::hash_map::Entry::Vacant(slot) = ratings.entry(row.account_id) {
            let read = state.store.ratings_of(row.account_id).await;
            slot.insert(read.unwrap_or_default());
        }
        let theirs = ratings.get(&row.account_id).map_or(&[][..], Vec::as_slice);
        out.push(seek_json_with(row, theirs));
    }
    out
}

fn seek_json_with(row: &SeekRow, ratings: &[RatingRow]) -> Value {
    let tc = row.time_control.parse::<TimeControl>().ok();
    let category = tc.map(TimeControl::category);
    let now = unix_now();
    let rating = category
        .and_then(|c| ratings.iter().find(|r| r.category == c.name()))
        .map(|r| rating_now(r, now))
        .unwrap_or_default();
    json!({
        "id": row.id,
        "owner": row.owner,
        "rating": rating.rating.round(),
        "provisional": rating.rd >= 110.0,
        "time": row.time_control,
        "category": category.map(|c| c.name()),
        "rated": row.rated,
        "color": row.color,
        "opponent": row.opponent,
        "game": row.game_id,
        "created_at": row.created_at,
    })
}

/// `POST /api/seeks`.
pub async fn create(
    State(state): State<AppState>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    SignedIn(session): SignedIn,
    Body(body): Body<SeekBody>,
) -> Result<(StatusCode, Json<Value>), ServiceError> {
    let tc = time_control(&body.time)?;
    let account = session.account;
    if let Err(wait) = state.accounts.seeks_rate.check_key(&account.id) {
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
    let _ = state.accounts.lobby.send(LobbyEvent::SeeksChanged);
    if let Some(opponent) = opponent_id {
        crate::services::notify::notify(
            &state,
            NewNote {
                account_id: opponent,
                kind: "challenge",
                game_id: None,
                seek_id: Some(&seek.id),
                other: Some(&account.name),
                time_control: Some(&seek.time_control),
                outcome: None,
                reason: None,
                created_at: &seek.created_at,
            },
        )
        .await;
    }
    let row = state
        .store
        .seek(&seek.id)
        .await?
        .ok_or_else(|| ServiceError::internal("a stored seek is missing"))?;
    Ok((StatusCode::CREATED, Json(seek_json(&state, &row).await)))
}

/// `GET /api/seeks`: `"seeks"`, the newest open public seeks and the caller's own, oldest
/// first; `"challenges"`, the open challenges to or from the caller, oldest first.
pub async fn list(
    State(state): State<AppState>,
    cookie: SessionCookie,
) -> Result<Json<Value>, ServiceError> {
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
    let seeks = seeks_json(&state, &public).await;
    let listed = seeks_json(&state, &challenges).await;
    Ok(Json(json!({ "seeks": seeks, "challenges": listed })))
}

async fn find(state: &AppState, id: &str) -> Result<SeekRow, ServiceError> {
    let found = if id.len() <= 64 {
        state.store.seek(id).await?
    } else {
        None
    };
    found.ok_or_else(|| ServiceError::NotFound(format!("there is no seek {}", echo(id))))
}

/// `GET /api/seeks/{id}`: `"game"` names the game once the seek is taken.
pub async fn show(
    State(state): State<AppState>,
    cookie: SessionCookie,
    Path(id): Path<String>,
) -> Result<Json<Value>, ServiceError> {
    let row = find(&state, &id).await?;
    if let Some(session) = cookie.account(&state).await? {
        if session.account.id == row.account_id {
            owner_is_around(&state, row.account_id).await;
        }
    }
    Ok(Json(seek_json(&state, &row).await))
}

/// `DELETE /api/seeks/{id}`: the owner withdraws it (or the challenged player declines).
pub async fn delete(
    State(state): State<AppState>,
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
    let _ = state.accounts.lobby.send(LobbyEvent::SeeksChanged);
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/seeks/{id}/accept`: the new game, with the accepting player's seat.
pub async fn accept(
    State(state): State<AppState>,
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
    let now = now_text();
    // Both seats are taken: the game, and White's clock, start now.
    let mut clock = GameClock::new(tc);
    clock.start(state.clock.now_ms());
    let meta = GameMeta {
        id: new_game_id(),
        mode: Mode::Human,
        level: None,
        seats,
        invite_hash: None,
        tags: Vec::new(),
        draw_offer: None,
        takeback: Default::default(),
        rematch: Default::default(),
        players: Players {
            white: Some(white),
            black: Some(black),
            rated: row.rated.then(|| tc.category()),
        },
        clock: Some(clock),
        created_at: now.clone(),
        updated_at: now,
    };
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
    crate::services::notify::notify(
        &state,
        NewNote {
            account_id: row.account_id,
            kind: "started",
            game_id: Some(&game_id),
            seek_id: Some(&id),
            other: Some(&me.name),
            time_control: Some(&row.time_control),
            outcome: None,
            reason: None,
            created_at: &now_text(),
        },
    )
    .await;
    let live = slot.state.lock().await;
    let _ = state.accounts.lobby.send(LobbyEvent::Taken {
        account: row.account_id,
        seek: id,
        game: live.meta.id.clone(),
    });
    let _ = state.accounts.lobby.send(LobbyEvent::SeeksChanged);
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
/// `{"type": "notifications"}`, `{"type": "turn"}`, src/notify.rs). `?lobby=false` opens it
/// for the notifications alone (no seeks, none kept alive); the client switches with a message
/// `{"lobby": true}` or `{"lobby": false}`.
pub async fn lobby_ws(
    State(state): State<AppState>,
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
    let notes = account.map(|id| crate::services::notify::Hub::subscribe(&state, id));
    let lobby = query.lobby.unwrap_or(true);
    Ok(upgrade.max_message_size(4096).on_upgrade(move |socket| {
        let follower = LobbyFollower {
            socket,
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

/// What a client may send: whether it shows the lobby now.
#[derive(Deserialize)]
struct LobbySwitch {
    lobby: bool,
}

/// Ticks between two pings (a keep-alive for proxies, and a check that the client reads).
const PING_TICKS: u32 = 6;

/// Seeks taken that a socket remembers having told (they come by two ways).
const TOLD_MAX: usize = 64;

struct LobbyFollower {
    socket: WebSocket,
    state: AppState,
    write_timeout: Duration,
    account: Option<i64>,
    /// The client shows the lobby: it hears of seeks and keeps the account's alive.
    lobby: bool,
    told: Vec<String>,
}

impl LobbyFollower {
    /// Sends a message; false when the client is gone or read nothing for the write timeout.
    async fn send(&mut self, message: Message) -> bool {
        let sent = tokio::time::timeout(self.write_timeout, self.socket.send(message));
        matches!(sent.await, Ok(Ok(())))
    }

    fn taken(&mut self, seek: String, game: String) -> Option<Value> {
        if self.told.contains(&seek) {
            return None;
        }
        if self.told.len() >= TOLD_MAX {
            self.told.remove(0);
        }
        self.told.push(seek.clone());
        Some(json!({"type": "taken", "seek": seek, "game": game}))
    }

    async fn follow(
        mut self,
        mut notes: Option<crate::services::notify::Subscription>,
        _permit: Permit,
    ) {
        let mut events = self.state.accounts.lobby.subscribe();
        let mut shutdown = self.state.shutdown.clone();
        let mut tick = tokio::time::interval(LOBBY_TICK);
        let mut ticks: u32 = 0;
        let opened = unix_now() - 1;
        if self.lobby
            && !self
                .send(Message::Text(json!({"type": "seeks"}).to_string().into()))
                .await
        {
            return;
        }
        loop {
            let mut out: Vec<Value> = Vec::new();
            tokio::select! {
                event = events.recv() => match event {
                    Ok(LobbyEvent::SeeksChanged) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        if self.lobby {
                            out.push(json!({"type": "seeks"}));
                        }
                    }
                    Ok(LobbyEvent::Taken { account: owner, seek, game }) => {
                        if self.lobby && Some(owner) == self.account {
                            out.extend(self.taken(seek, game));
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                note = async {
                    match notes.as_mut() {
                        Some(n) => n.events.recv().await,
                        None => std::future::pending().await,
                    }
                } => match note {
                    Ok(event) => out.extend(event.messages()),
                    // Fell behind: one message says it all.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        out.extend(crate::services::notify::Event::Changed.messages());
                    }
                    Err(broadcast::error::RecvError::Closed) => notes = None,
                },
                _ = tick.tick() => {
                    ticks = ticks.wrapping_add(1);
                    if ticks.is_multiple_of(PING_TICKS) && !self.send(Message::Ping(Default::default())).await {
                        break;
                    }
                    // Another instance may have taken a seek: ask the database.
                    if let (Some(id), true) = (self.account, self.lobby) {
                        owner_is_around(&self.state, id).await;
                        if let Ok(taken) = self.state.store.taken_seeks(id, opened).await {
                            let fresh = taken.into_iter().find(|(seek, _)| !self.told.contains(seek));
                            if let Some((seek, game)) = fresh {
                                out.extend(self.taken(seek, game));
                            }
                        }
                    }
                }
                incoming = self.socket.recv() => match incoming {
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(Message::Text(text))) => {
                        if let Ok(switch) = serde_json::from_str::<LobbySwitch>(text.as_str()) {
                            if switch.lobby && !self.lobby {
                                out.push(json!({"type": "seeks"}));
                                if let Some(id) = self.account {
                                    owner_is_around(&self.state, id).await;
                                }
                            }
                            self.lobby = switch.lobby;
                        }
                    }
                    Some(Ok(_)) => {}
                },
                _ = shutdown.changed() => {
                    let _ = self.send(Message::Close(None)).await;
                    break;
                }
            }
            for message in out {
                if !self.send(Message::Text(message.to_string().into())).await {
                    return;
                }
            }
        }
    }
}
