//! The API of tokens, bots and challenges (issue 24, docs/bots.md): `POST/GET /api/tokens`,
//! `DELETE /api/tokens/{id}`; `POST /api/bot/account/upgrade`; the streams `GET
//! /api/stream/event` and `GET /api/bot/game/stream/{id}` (newline-delimited JSON, an empty
//! keep-alive line when quiet); a bot's moves, resignation, draw and abort; challenges made,
//! accepted, declined and cancelled by name.
//!
//! A stream is a task that writes lines into a small bounded channel the response body reads:
//! a client that reads nothing for the write timeout loses its stream, a revoked token's
//! streams end at once on this instance (and within [`TOKEN_CHECK`] on the others), and each
//! token holds at most [`STREAMS_PER_TOKEN`](crate::services::bots::STREAMS_PER_TOKEN).

use crate::http::error::ApiError;
use crate::http::extract::{Body, GameId};
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::accounts::sessions::Session;
use crate::services::accounts::tokens::TokenView;
use crate::services::accounts::Accounts;
use crate::services::bots::{
    Bots, Said, StreamPermit, DECLINE_REASONS, EVENT_TICK, KEEP_ALIVE, TOKEN_CHECK,
};
use crate::services::error::{echo, ServiceError};
use crate::services::games::actions::{Again, DrawAction};
use crate::services::games::seats::Actor;
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::{delta_message, AppState, GameSlot};
use crate::services::lobby::seeks::SeekRequest;
use crate::services::lobby::{Lobby, SeekColor, SeekView};
use crate::services::notify::Notify;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use emergo_core::Status;
use emergo_platform::domain::limits::ClientAddr;
use emergo_platform::domain::model::unix_now;
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc, watch};

/// Lines a stream's channel holds before its writer waits for the client.
const STREAM_BUFFER: usize = 16;

/// A bot's game stream says its opponent is gone once the opponent has had no connection to
/// this instance (a game WebSocket of its account, or a bot's game stream) for this long.
const GONE_AFTER: Duration = Duration::from_secs(3);

/// How often an open event stream keeps its account's real-time seeks alive (they live 60 s
/// after their owner was last around).
const AROUND_EVERY: Duration = Duration::from_secs(20);

/// The tokens' part of the API.
#[derive(Deserialize)]
pub struct NewTokenBody {
    scopes: Vec<String>,
    #[serde(default)]
    description: String,
}

/// `POST /api/tokens`: a new token of the session's account (its text shown this once).
pub async fn create_token(
    State(accounts): State<Arc<Accounts>>,
    SignedIn(session): SignedIn,
    Body(body): Body<NewTokenBody>,
) -> Result<Response, ApiError> {
    if body.scopes.len() > 8 {
        return Err(ServiceError::BadRequest("a token has at most 8 scopes".to_string()).into());
    }
    let view = accounts
        .create_token(&session.account, &body.scopes, &body.description)
        .await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// `GET /api/tokens`: the session's account's live tokens.
pub async fn list_tokens(
    State(accounts): State<Arc<Accounts>>,
    SignedIn(session): SignedIn,
) -> Result<Response, ApiError> {
    let tokens = accounts.tokens(&session.account).await?;
    Ok(Json(TokenList { tokens }).into_response())
}

/// The answer of `GET /api/tokens`.
#[derive(Serialize)]
struct TokenList {
    tokens: Vec<TokenView>,
}

/// The answer of `POST /api/bot/account/upgrade`.
#[derive(Serialize)]
struct Upgraded {
    ok: bool,
    bot: bool,
}

/// `DELETE /api/tokens/{id}`: revokes a token; its streams end.
pub async fn revoke_token(
    State(accounts): State<Arc<Accounts>>,
    State(bots): State<Arc<Bots>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let id: i64 = id
        .parse()
        .map_err(|_| ServiceError::NotFound(format!("there is no token {}", echo(&id))))?;
    let hash = accounts.revoke_token(&session.account, id).await?;
    bots.revoked(&hash);
    Ok(StatusCode::NO_CONTENT)
}

/// A request of the bot API: made with an API token (`bot:play`, checked by the session's
/// table of scopes) of a bot account.
pub struct BotSession {
    pub session: Session,
}

/// The token-logged-in account of a bot request: 401 without a token, 403 `bad_scope` for an
/// account that is not a bot (unless `upgrading`).
async fn bot_session(
    accounts: &Accounts,
    cookie: &SessionCookie,
    upgrading: bool,
) -> Result<BotSession, ServiceError> {
    if cookie.bearer().is_none() {
        return Err(ServiceError::Unauthorized(
            "the bot API takes an API token: Authorization: Bearer <token>".to_string(),
        ));
    }
    let Some(session) = cookie.account(accounts).await? else {
        return Err(ServiceError::Unauthorized(
            "this API token is unknown or was revoked".to_string(),
        ));
    };
    if !upgrading && !session.account.bot {
        return Err(ServiceError::BadScope(
            "this endpoint is for bot accounts: upgrade the account first \
             (POST /api/bot/account/upgrade)"
                .to_string(),
        ));
    }
    Ok(BotSession { session })
}

/// The bot account of a game request: its id, its actor in game `id`, and the game.
async fn bot_in_game(
    state: &AppState,
    accounts: &Accounts,
    cookie: &SessionCookie,
    id: &str,
) -> Result<(i64, Actor, Arc<GameSlot>), ServiceError> {
    let bot = bot_session(accounts, cookie, false).await?;
    let me = bot.session.account.id;
    let slot = state.slot(id).await?;
    Ok((me, Actor::new(None, Some(me)), slot))
}

/// `POST /api/bot/account/upgrade`: the token's account becomes a bot account, for good.
pub async fn upgrade(
    State(accounts): State<Arc<Accounts>>,
    State(bots): State<Arc<Bots>>,
    cookie: SessionCookie,
) -> Result<Response, ApiError> {
    let bot = bot_session(&accounts, &cookie, true).await?;
    bots.upgrade(&bot.session.account).await?;
    Ok(Json(Upgraded {
        ok: true,
        bot: true,
    })
    .into_response())
}

#[derive(Deserialize)]
pub struct PlyQuery {
    /// The ply the move is made at: a retry of a move whose answer was lost is then harmless.
    ply: Option<i64>,
}

/// `POST /api/bot/game/{id}/move/{move}?ply=N`: the bot's move.
pub async fn bot_move(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    cookie: SessionCookie,
    Path((id, mv)): Path<(String, String)>,
    Query(query): Query<PlyQuery>,
) -> Result<Json<GameView>, ApiError> {
    let (_, actor, slot) = bot_in_game(&state, &accounts, &cookie, &id).await?;
    let ply = match query.ply {
        Some(ply) => ply,
        None => slot.state.lock().await.game.ply() as i64,
    };
    let live = state
        .play(&slot, client.0, &actor, ply, &mv, Again::Harmless)
        .await?;
    Ok(Json(GameView::of(&live)))
}

/// `POST /api/bot/game/{id}/resign`.
pub async fn bot_resign(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    cookie: SessionCookie,
    GameId(id): GameId,
) -> Result<Json<GameView>, ApiError> {
    let (_, actor, slot) = bot_in_game(&state, &accounts, &cookie, &id).await?;
    let live = state.resign(&slot, client.0, &actor).await?;
    Ok(Json(GameView::of(&live)))
}

/// `POST /api/bot/game/{id}/abort`.
pub async fn bot_abort(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    cookie: SessionCookie,
    GameId(id): GameId,
) -> Result<Json<GameView>, ApiError> {
    let (_, actor, slot) = bot_in_game(&state, &accounts, &cookie, &id).await?;
    let live = state.abort(&slot, client.0, &actor).await?;
    Ok(Json(GameView::of(&live)))
}

/// `POST /api/bot/game/{id}/draw/{yes|no}`: `yes` offers a draw, or accepts the opponent's
/// offer; `no` declines it.
pub async fn bot_draw(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    cookie: SessionCookie,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Json<GameView>, ApiError> {
    let (me, actor, slot) = bot_in_game(&state, &accounts, &cookie, &id).await?;
    let action = match answer.as_str() {
        "yes" => {
            let live = slot.state.lock().await;
            let mine = live.meta.players.seat_of(me);
            match live.meta.draw_offer {
                Some(offerer) if Some(offerer) != mine => DrawAction::Accept,
                _ => DrawAction::Offer,
            }
        }
        "no" => DrawAction::Decline,
        other => {
            return Err(ServiceError::BadRequest(format!(
                "{} is not an answer: yes or no",
                echo(other)
            ))
            .into())
        }
    };
    let live = state.draw(&slot, client.0, &actor, action).await?;
    Ok(Json(GameView::of(&live)))
}

/// A challenge by name: `POST /api/challenge/{name}`.
#[derive(Deserialize)]
pub struct ChallengeBody {
    time: String,
    #[serde(default)]
    rated: bool,
    color: Option<SeekColor>,
    variant: Option<String>,
}

/// `POST /api/challenge/{name}`: the same as `POST /api/seeks` with `"opponent"`.
pub async fn challenge(
    State(notes): State<Notify>,
    State(lobby): State<Arc<Lobby>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    SignedIn(session): SignedIn,
    Path(name): Path<String>,
    Body(body): Body<ChallengeBody>,
) -> Result<(StatusCode, Json<SeekView>), ApiError> {
    let request = SeekRequest {
        time: &body.time,
        rated: body.rated,
        color: body.color,
        opponent: Some(&name),
        variant: body.variant.as_deref(),
        allow_bots: false,
    };
    let view = lobby
        .create(&notes, client, &session.account, request)
        .await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `POST /api/challenge/{id}/accept`: the same as `POST /api/seeks/{id}/accept`.
pub async fn accept_challenge(
    State(state): State<AppState>,
    State(notes): State<Notify>,
    State(lobby): State<Arc<Lobby>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<SeatGrant>), ApiError> {
    let grant = lobby
        .accept(&state, &notes, client, &session.account, &id)
        .await?;
    Ok((StatusCode::CREATED, Json(grant)))
}

#[derive(Deserialize, Default)]
pub struct DeclineBody {
    reason: Option<String>,
}

/// `POST /api/challenge/{id}/decline {"reason"}`: the challenged player declines, and its
/// challenger's event stream says why.
pub async fn decline_challenge(
    State(lobby): State<Arc<Lobby>>,
    State(bots): State<Arc<Bots>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    // The body is optional: none, or `{"reason": ...}`.
    let reason = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        serde_json::from_slice::<DeclineBody>(&body)
            .map_err(|e| ServiceError::BadRequest(format!("the request body: {e}")))?
            .reason
    };
    let reason = match reason.as_deref() {
        None => "generic",
        Some(given) => DECLINE_REASONS
            .into_iter()
            .find(|r| *r == given)
            .ok_or_else(|| {
                ServiceError::BadRequest(format!(
                    "{} is not a reason; the reasons are {}",
                    echo(given),
                    DECLINE_REASONS.join(", ")
                ))
            })?,
    };
    let row = lobby.find(&id).await?;
    if row.opponent_id != Some(session.account.id) {
        return Err(ServiceError::NotAllowed(
            "only the challenged player declines a challenge (its owner cancels it)".to_string(),
        )
        .into());
    }
    bots.declined(&id, reason);
    lobby.withdraw(session.account.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/challenge/{id}/cancel`: its owner withdraws it.
pub async fn cancel_challenge(
    State(lobby): State<Arc<Lobby>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    lobby.withdraw(session.account.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A stream's writer: lines into the response body's channel, each within the write timeout.
struct Lines {
    tx: mpsc::Sender<Bytes>,
    write_timeout: Duration,
    last: Instant,
}

impl Lines {
    /// Sends one line (a JSON text, or nothing for a keep-alive); false when the client is
    /// gone or has read nothing for the write timeout.
    async fn send(&mut self, text: &str) -> bool {
        let mut line = Vec::with_capacity(text.len() + 1);
        line.extend_from_slice(text.as_bytes());
        line.push(b'\n');
        self.last = Instant::now();
        self.tx
            .send_timeout(Bytes::from(line), self.write_timeout)
            .await
            .is_ok()
    }

    async fn keep_alive(&mut self) -> bool {
        if self.last.elapsed() >= KEEP_ALIVE {
            self.send("").await
        } else {
            true
        }
    }
}

/// A streamed response and the writer of its lines.
fn ndjson(write_timeout: Duration) -> (Response, Lines) {
    let (tx, rx) = mpsc::channel::<Bytes>(STREAM_BUFFER);
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|line| (Ok::<_, Infallible>(line), rx))
    });
    let response = (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        axum::body::Body::from_stream(body),
    )
        .into_response();
    let lines = Lines {
        tx,
        write_timeout,
        last: Instant::now(),
    };
    (response, lines)
}

/// What ends a stream besides its client: the server's shutdown and its token's revocation.
struct Ends {
    shutdown: watch::Receiver<bool>,
    revocations: broadcast::Receiver<Arc<str>>,
    token_hash: Option<String>,
    bots: Arc<Bots>,
    checked: Instant,
}

impl Ends {
    fn new(state: &AppState, bots: &Arc<Bots>, token_hash: Option<String>) -> Ends {
        Ends {
            shutdown: state.shutdown.clone(),
            revocations: bots.revocations(),
            token_hash,
            bots: bots.clone(),
            checked: Instant::now(),
        }
    }

    /// Waits for an end; returns when there is one.
    async fn ended(&mut self) {
        loop {
            tokio::select! {
                changed = self.shutdown.changed() => {
                    if changed.is_err() || *self.shutdown.borrow() {
                        return;
                    }
                }
                revoked = self.revocations.recv() => match (revoked, &self.token_hash) {
                    (Ok(hash), Some(mine)) if &*hash == mine.as_str() => return,
                    (Err(broadcast::error::RecvError::Closed), _) => return,
                    _ => {}
                },
            }
        }
    }

    /// Whether the token still lives, asked of the store every [`TOKEN_CHECK`].
    async fn token_lives(&mut self) -> bool {
        let Some(hash) = &self.token_hash else {
            return true;
        };
        if self.checked.elapsed() < TOKEN_CHECK {
            return true;
        }
        self.checked = Instant::now();
        self.bots.token_live(hash).await.unwrap_or(true)
    }
}

/// The stream permit of a request's token (a session's streams are counted by its own hash).
fn stream_permit(bots: &Arc<Bots>, session: &Session) -> Result<StreamPermit, ServiceError> {
    bots.open_stream(&session.token_hash)
}

/// `GET /api/stream/event`: the account's games and challenges, everything current first.
pub async fn event_stream(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    State(bots): State<Arc<Bots>>,
    State(lobby): State<Arc<Lobby>>,
    State(notes): State<Notify>,
    cookie: SessionCookie,
) -> Result<Response, ApiError> {
    let Some(session) = cookie.account(&accounts).await? else {
        return Err(ServiceError::Unauthorized(
            "the event stream needs an API token or a session".to_string(),
        )
        .into());
    };
    let permit = stream_permit(&bots, &session)?;
    let token_hash = cookie.bearer().map(|_| session.token_hash.clone());
    let account = session.account.id;
    // Subscribed before the first look: nothing between the two is missed.
    let mut subscription = notes.subscribe(account);
    let (response, mut lines) = ndjson(state.limits.write_timeout);
    let mut ends = Ends::new(&state, &bots, token_hash);
    tokio::spawn(async move {
        let _permit = permit;
        let mut said = Said::default();
        let mut tick = tokio::time::interval(EVENT_TICK);
        let mut around: Option<Instant> = None;
        loop {
            // The account is around: its real-time challenges stay open (a write, so not on
            // every look).
            if around.is_none_or(|at| at.elapsed() >= AROUND_EVERY) {
                lobby.owner_is_around(account).await;
                around = Some(Instant::now());
            }
            match bots.current(account, unix_now()).await {
                Ok(current) => {
                    let views = lobby.seek_views(&said.unseen(&current)).await;
                    for line in said.update(&bots, account, &current, views) {
                        let text = serde_json::to_string(&line).unwrap_or_default();
                        if !lines.send(&text).await {
                            return;
                        }
                    }
                }
                Err(err) => tracing::warn!(account, "event stream: {err}"),
            }
            if !lines.keep_alive().await || !ends.token_lives().await {
                return;
            }
            tokio::select! {
                _ = tick.tick() => {}
                _ = subscription.events.recv() => {}
                () = ends.ended() => return,
            }
        }
    });
    Ok(response)
}

/// `GET /api/bot/game/stream/{id}`: the bot's game, whole at first (`{"type": "state",
/// "game": <the view from ply 0>}`), then each change as the game's WebSocket says it (a
/// delta paged from the first ply it touched); the stream ends once the game is over.
pub async fn game_stream(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    State(bots): State<Arc<Bots>>,
    cookie: SessionCookie,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let bot = bot_session(&accounts, &cookie, false).await?;
    let me = bot.session.account.id;
    let slot = state.slot(&id).await?;
    let Some(color) = slot.state.lock().await.meta.players.seat_of(me) else {
        return Err(ServiceError::NotAllowed(
            "this bot does not play in this game (spectators use GET /api/games/{id}/ws)"
                .to_string(),
        )
        .into());
    };
    let permit = stream_permit(&bots, &bot.session)?;
    let (response, lines) = ndjson(state.limits.write_timeout);
    let ends = Ends::new(&state, &bots, Some(bot.session.token_hash.clone()));
    tokio::spawn(follow_game(slot, color, lines, ends, permit));
    Ok(response)
}

/// Writes a game's states to a stream until the game is over, the client goes, or an end;
/// and `{"type": "opponentGone", "gone": true}` once the opponent has had no connection here
/// for [`GONE_AFTER`] (`false` when it is back).
async fn follow_game(
    slot: Arc<GameSlot>,
    color: emergo_core::Color,
    mut lines: Lines,
    mut ends: Ends,
    permit: StreamPermit,
) {
    let _permit = permit;
    let _here = slot.presence.enter(color);
    let mut presence = slot.presence.subscribe();
    let opponent = color.other().index();
    let mut gone_since = (presence.borrow()[opponent] == 0).then(Instant::now);
    let mut said_gone = false;
    let mut updates = slot.updates.subscribe();
    let (mut seq, mut held, first, mut over) = {
        let live = slot.state.lock().await;
        let over = !matches!(live.game.status(), Status::Ongoing);
        (slot.seq(), live.game.ply(), delta_message(&live, 0), over)
    };
    if !lines.send(&first).await {
        return;
    }
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    while !over {
        tokio::select! {
            update = updates.recv() => {
                let text = match update {
                    Ok(published) if published.seq <= seq => continue,
                    Ok(published) if published.seq == seq + 1 && published.from <= held => {
                        seq = published.seq;
                        held = published.ply;
                        published.text.clone()
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        let from = slot.touched_since(seq).unwrap_or(0).min(held);
                        let live = slot.state.lock().await;
                        seq = slot.seq();
                        held = live.game.ply();
                        delta_message(&live, from.min(held))
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                over = is_over(&slot).await;
                if !lines.send(&text).await {
                    return;
                }
            }
            _ = tick.tick() => {
                if gone_since.is_some_and(|at| at.elapsed() >= GONE_AFTER) && !said_gone {
                    said_gone = true;
                    if !lines.send(r#"{"type":"opponentGone","gone":true}"#).await {
                        return;
                    }
                }
                if !lines.keep_alive().await || !ends.token_lives().await {
                    return;
                }
            }
            changed = presence.changed() => {
                if changed.is_err() {
                    return;
                }
                let here = presence.borrow_and_update()[opponent] > 0;
                if here {
                    gone_since = None;
                    if said_gone {
                        said_gone = false;
                        if !lines.send(r#"{"type":"opponentGone","gone":false}"#).await {
                            return;
                        }
                    }
                } else if gone_since.is_none() {
                    gone_since = Some(Instant::now());
                }
            }
            () = ends.ended() => return,
        }
    }
}

async fn is_over(slot: &GameSlot) -> bool {
    let live = slot.state.lock().await;
    !matches!(live.game.status(), Status::Ongoing)
}
