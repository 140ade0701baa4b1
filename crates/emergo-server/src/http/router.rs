//! The HTTP API of docs/api.md and the page's routes. Request bodies are read by typed
//! extractors ([`Body`], [`GameId`]) whose rejections are the documented JSON errors; every
//! change to a game goes through [`Shared::apply`](crate::services::games::Shared::apply).

use crate::http::assets;
use crate::http::edge::{self, ClientAddr, EdgeConfig};
use crate::http::editor;
use crate::http::error::{echo, ApiError};
use crate::http::extract::{Body, GameId, ViewQuery};
use crate::http::ops;
use crate::http::session::SessionCookie;
use crate::http::ws;
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::games::actions::{require_ongoing, Again, DrawAction};
use crate::services::games::create::{ColorChoice, NewGame, Opponent};
use crate::services::games::import;
use crate::services::games::view::{GameSummary, GameView, SeatGrant};
use crate::services::games::{AppState, GameSlot, LiveGame};
use crate::services::Services;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, MethodRouter};
use axum::{Extension, Json, Router};
use emergo_core::Color;
use emergo_engine::Level;
use emergo_platform::domain::model::{hash_secret, new_token, GameMeta, Mode, SeatKind};
use emergo_platform::store::StatusFilter;
use emergo_worker::pool;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Every route of the server, behind the edge (client address, host, origin, URI length,
/// request timeout) and the security headers.
pub fn router(services: Services, edge_config: EdgeConfig) -> Router {
    let limits = services.games.limits.clone();
    let games_limit = edge::games_limit(limits.games_burst, limits.games_every);
    let limited = |route: MethodRouter<Services>| match &games_limit {
        Some(layer) => route.layer(layer.clone()),
        None => route,
    };
    let mut app = Router::new()
        .route("/", get(page))
        .route("/game/{id}", get(page))
        .route("/editor", get(page))
        .route("/analysis", get(page))
        .route("/learn", get(page))
        .route("/puzzles", get(page))
        .route("/player/{name}", get(page))
        .route("/leaderboard", get(page))
        .route("/watch", get(page))
        .route("/tournaments", get(page))
        .route("/tournament/{id}", get(page))
        .route("/assets/{*path}", get(asset))
        .route("/healthz", get(ops::healthz))
        .route("/metrics", get(ops::metrics_page))
        .route("/api/games", limited(post(create)).get(list))
        .route(
            "/api/games/import",
            limited(post(import)).layer(DefaultBodyLimit::max(limits.record_bytes)),
        )
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/berserk", post(berserk))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/chat", post(crate::http::games::post))
        .route(
            "/api/games/{id}/chat/{message}/report",
            post(crate::http::games::report),
        )
        .route("/api/games/{id}/draw", post(draw))
        .route(
            "/api/games/{id}/rematch",
            limited(post(crate::http::games::rematch)),
        )
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/position", get(editor::position))
        .route(
            "/api/games/{id}/review",
            post(crate::http::review::start).get(crate::http::review::show),
        )
        .route("/api/analysis", get(crate::http::analysis::once))
        .route(
            "/api/analysis/ws",
            get(crate::http::analysis::stream_handler),
        )
        .route("/api/position/moves", post(crate::http::position::moves))
        .route("/api/learn", get(crate::http::learn::course))
        .route(
            "/api/learn/progress",
            get(crate::http::learn::progress).post(crate::http::learn::add_progress),
        )
        .route(
            "/api/learn/{lesson}/{exercise}",
            post(crate::http::learn::judge),
        )
        .route(
            "/api/puzzles/next",
            get(crate::http::puzzles::next).layer(no_store()),
        )
        .route("/api/puzzles/{id}", get(crate::http::puzzles::show))
        .route(
            "/api/puzzles/{id}/attempt",
            post(crate::http::puzzles::attempt).layer(no_store()),
        )
        .route(
            "/api/puzzles/{id}/vote",
            post(crate::http::puzzles::vote).layer(no_store()),
        )
        .route(
            "/api/puzzles/daily",
            get(crate::http::puzzles::daily).layer(no_store()),
        )
        .route(
            "/api/puzzles/run",
            get(crate::http::puzzles::run).layer(no_store()),
        )
        .route(
            "/api/puzzles/storm",
            post(crate::http::puzzles::storm).layer(no_store()),
        )
        .route(
            "/api/puzzles/dashboard",
            get(crate::http::puzzles::dashboard).layer(no_store()),
        )
        .route("/api/position/record", post(crate::http::position::record))
        .route("/api/explorer", get(crate::http::explorer::position))
        .route("/api/variants", get(crate::http::position::list_variants))
        // Accounts, seeks, ratings (issue 11).
        .route("/api/games/{id}/seat", post(crate::http::games::claim))
        .route("/api/accounts", post(crate::http::accounts::sign_up))
        .route(
            "/api/session",
            post(crate::http::accounts::log_in)
                .delete(crate::http::accounts::log_out)
                .layer(no_store()),
        )
        .route(
            "/api/me",
            get(crate::http::accounts::me)
                .delete(crate::http::accounts::delete_account)
                .layer(no_store()),
        )
        .route(
            "/api/me/password",
            post(crate::http::accounts::change_password),
        )
        .route(
            "/api/seeks",
            post(crate::http::lobby::create).get(crate::http::lobby::list),
        )
        .route(
            "/api/seeks/{id}",
            get(crate::http::lobby::show).delete(crate::http::lobby::delete),
        )
        .route("/api/seeks/{id}/accept", post(crate::http::lobby::accept))
        .route("/api/lobby/ws", get(crate::http::lobby::lobby_ws))
        .route(
            "/api/notifications",
            get(crate::http::notify::list).layer(no_store()),
        )
        .route("/api/notifications/read", post(crate::http::notify::read))
        .route("/api/players/{name}", get(crate::http::players::player))
        .route("/api/leaderboard", get(crate::http::players::leaderboard))
        .route("/api/watch", get(crate::http::games::list))
        // Tournaments (issue 23).
        .route(
            "/api/tournaments",
            post(crate::http::tournaments::create).get(crate::http::tournaments::list),
        )
        .route("/api/tournaments/{id}", get(crate::http::tournaments::show))
        .route(
            "/api/tournaments/{id}/socket",
            get(crate::http::tournaments::socket),
        )
        .route(
            "/api/tournaments/{id}/join",
            post(crate::http::tournaments::join),
        )
        .route(
            "/api/tournaments/{id}/withdraw",
            post(crate::http::tournaments::withdraw),
        )
        .route(
            "/api/tournaments/{id}/games",
            get(crate::http::tournaments::games),
        )
        .route(
            "/api/tournaments/{id}/pause",
            post(crate::http::tournaments::pause),
        )
        .route(
            "/api/tournaments/{id}/start",
            post(crate::http::tournaments::start),
        )
        // API tokens, bot accounts, streams and challenges (issue 24, docs/bots.md).
        .route(
            "/api/tokens",
            post(crate::http::bot::create_token)
                .get(crate::http::bot::list_tokens)
                .layer(no_store()),
        )
        .route("/api/tokens/{id}", delete(crate::http::bot::revoke_token))
        .route("/api/bot/account/upgrade", post(crate::http::bot::upgrade))
        .route("/api/stream/event", get(crate::http::bot::event_stream))
        .route(
            "/api/bot/game/stream/{id}",
            get(crate::http::bot::game_stream),
        )
        .route(
            "/api/bot/game/{id}/move/{move}",
            post(crate::http::bot::bot_move),
        )
        .route(
            "/api/bot/game/{id}/resign",
            post(crate::http::bot::bot_resign),
        )
        .route(
            "/api/bot/game/{id}/abort",
            post(crate::http::bot::bot_abort),
        )
        .route(
            "/api/bot/game/{id}/draw/{answer}",
            post(crate::http::bot::bot_draw),
        )
        .route("/api/challenge/{name}", post(crate::http::bot::challenge))
        .route(
            "/api/challenge/{id}/accept",
            post(crate::http::bot::accept_challenge),
        )
        .route(
            "/api/challenge/{id}/decline",
            post(crate::http::bot::decline_challenge),
        )
        .route(
            "/api/challenge/{id}/cancel",
            post(crate::http::bot::cancel_challenge),
        )
        .fallback(no_route)
        .method_not_allowed_fallback(no_method)
        .layer(axum::middleware::from_fn(crate::http::error::json_errors))
        .layer(DefaultBodyLimit::max(limits.body_bytes))
        .with_state(services);
    app = app.layer(axum::middleware::from_fn_with_state(
        Arc::new(edge_config),
        edge::client_and_guard,
    ));
    app = app.layer(axum::middleware::from_fn(ops::count_requests));
    for (name, value) in edge::security_headers() {
        app = app.layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            name, value,
        ));
    }
    app
}

/// `Cache-Control: no-store` on the answers about one's own account and session (issue 17,
/// item 11): no cache keeps them.
fn no_store() -> tower_http::set_header::SetResponseHeaderLayer<header::HeaderValue> {
    tower_http::set_header::SetResponseHeaderLayer::overriding(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    )
}

async fn no_route() -> ApiError {
    ServiceError::NotFound("there is no such page or endpoint".to_string()).into()
}

/// 405 with the documented body; axum adds the `Allow` header to it.
async fn no_method() -> ApiError {
    ApiError::MethodNotAllowed { allow: None }
}

async fn page() -> Response {
    let html = assets::find("index.html").unwrap_or(assets::FALLBACK_PAGE.as_bytes());
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        html,
    )
        .into_response()
}

async fn asset(axum::extract::Path(path): axum::extract::Path<String>) -> Response {
    match assets::find(&path) {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, assets::content_type(&path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => {
            ServiceError::NotFound(format!("there is no asset {}", echo(&path))).into_response()
        }
    }
}

#[derive(Deserialize)]
struct CreateBody {
    mode: Opponent,
    color: ColorChoice,
    level: Option<i64>,
    position: Option<String>,
    /// A time control for a game between people: `"3+2"`, `"corr:3"`; none for untimed.
    time: Option<String>,
    /// The board: `emergo` (the default), `7x7` or `hex`.
    variant: Option<String>,
}

async fn create(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    Body(body): Body<CreateBody>,
) -> Result<(StatusCode, Json<SeatGrant>), ApiError> {
    let new = NewGame {
        opponent: body.mode,
        color: body.color,
        level: body.level,
        position: body.position.as_deref(),
        time: body.time.as_deref(),
        variant: body.variant.as_deref(),
    };
    let grant = state.create(client.0, new).await?;
    Ok((StatusCode::CREATED, Json(grant)))
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum ListStatus {
    All,
    Ongoing,
    Finished,
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<ListStatus>,
    limit: Option<i64>,
}

/// The answer of `GET /api/games`.
#[derive(Serialize)]
struct GameList {
    games: Vec<GameSummary>,
}

async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<GameList>, ApiError> {
    let Query(query) = query?;
    let filter = match query.status {
        None | Some(ListStatus::All) => StatusFilter::All,
        Some(ListStatus::Ongoing) => StatusFilter::Ongoing,
        Some(ListStatus::Finished) => StatusFilter::Finished,
    };
    let limit = match query.limit {
        None => 50,
        Some(n @ 1..=500) => n as u32,
        Some(n) => {
            return Err(
                ServiceError::BadRequest(format!("limit must be from 1 to 500, not {n}")).into(),
            )
        }
    };
    let rows = state.store.list(filter, limit).await?;
    let games = rows.into_iter().map(GameSummary::of).collect();
    Ok(Json(GameList { games }))
}

async fn show(
    State(state): State<AppState>,
    GameId(id): GameId,
    query: Result<Query<ViewQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let slot = state.slot(&id).await?;
    // The whole view is kept for the next reader; a big one is built off the game's lock.
    let text = state.view_text(&slot, query.from.unwrap_or(0)).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// The answer to a change made from ply `before` on: the view paged from the lower of that
/// ply and the game's (the delta of docs/api.md: the new move, its squares, the position
/// before it and after it, and every field but the lists), so that it does not grow with the
/// game.
fn delta(live: &LiveGame, before: usize) -> Json<GameView> {
    Json(GameView::paged(live, before.min(live.game.ply())))
}

#[derive(Deserialize)]
struct JoinBody {
    invite: Option<String>,
}

async fn join(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    Body(body): Body<JoinBody>,
) -> Result<Json<SeatGrant>, ApiError> {
    let slot = state.slot(&id).await?;
    let token = new_token();
    let (live, color) = state
        .join(
            &slot,
            client.0,
            body.invite.as_deref(),
            &hash_secret(&token),
        )
        .await?;
    Ok(Json(SeatGrant {
        game: GameView::of(&live),
        seat: color.name(),
        token,
        invite: None,
    }))
}

#[derive(Deserialize)]
struct MoveBody {
    token: Option<String>,
    ply: i64,
    #[serde(rename = "move")]
    mv: String,
}

async fn play(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    cookie: SessionCookie,
    Body(body): Body<MoveBody>,
) -> Result<Json<GameView>, ApiError> {
    let actor = crate::http::session::actor(&accounts, body.token.as_deref(), &cookie).await?;
    let slot = state.slot(&id).await?;
    let live = state
        .play(&slot, client.0, &actor, body.ply, &body.mv, Again::Stale)
        .await?;
    Ok(delta(&live, usize::try_from(body.ply).unwrap_or(0)))
}

#[derive(Deserialize)]
struct TokenBody {
    token: Option<String>,
}

#[derive(Deserialize)]
struct TakebackBody {
    token: Option<String>,
    /// Between people: `offer`, `accept`, `decline` or `cancel` (src/services/games/takeback.rs); against
    /// the engine: none (the takeback is at once).
    action: Option<crate::services::games::takeback::Action>,
}

async fn takeback(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    cookie: SessionCookie,
    Body(body): Body<TakebackBody>,
) -> Result<Json<GameView>, ApiError> {
    let actor = crate::http::session::actor(&accounts, body.token.as_deref(), &cookie).await?;
    let slot = state.slot(&id).await?;
    let live = state
        .take_back(&slot, client.0, &actor, body.action)
        .await?;
    Ok(delta(&live, usize::MAX))
}

/// The answer of a hint: the move, and the engine's score of it for the side to move.
#[derive(Serialize)]
struct Hint {
    #[serde(rename = "move")]
    mv: String,
    score: i32,
}

async fn hint(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    cookie: SessionCookie,
    Body(body): Body<TokenBody>,
) -> Result<Json<Hint>, ApiError> {
    let actor = crate::http::session::actor(&accounts, body.token.as_deref(), &cookie).await?;
    let slot = state.slot(&id).await?;
    let game = {
        let live = slot.state.lock().await;
        let color = actor.seat(&live)?;
        if live.meta.mode != Mode::Engine {
            return Err(ServiceError::NotAllowed(
                "hints are only for games against the engine".to_string(),
            )
            .into());
        }
        require_ongoing(&live)?;
        if live.game.turn() != color {
            return Err(ServiceError::NotYourTurn(
                "a hint is for the side to move, and the engine is to move".to_string(),
            )
            .into());
        }
        live.game.clone()
    };
    if slot.hinting.swap(true, Ordering::SeqCst) {
        return Err(ServiceError::NotAllowed(
            "a hint for this game is being computed already".to_string(),
        )
        .into());
    }
    // However this request ends, even when the client goes away: the game may ask for another
    // hint, and a search nobody waits for stops (or never starts).
    struct Hinting(Arc<GameSlot>, Arc<AtomicBool>);
    impl Drop for Hinting {
        fn drop(&mut self) {
            self.1.store(true, Ordering::SeqCst);
            self.0.hinting.store(false, Ordering::SeqCst);
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let _hinting = Hinting(slot, stop.clone());
    let analysis = state
        .hint_search(&id, game, client.0, stop.clone())
        .await
        .map_err(|e| match e {
            pool::PoolError::Busy(message) => ServiceError::EngineBusy(message),
            other => ServiceError::internal(other),
        })?;
    let (mv, score) = analysis.ok_or_else(|| ServiceError::internal("no move to hint"))?;
    Ok(Json(Hint {
        mv: mv.to_string(),
        score,
    }))
}

async fn resign(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    cookie: SessionCookie,
    Body(body): Body<TokenBody>,
) -> Result<Json<GameView>, ApiError> {
    let actor = crate::http::session::actor(&accounts, body.token.as_deref(), &cookie).await?;
    let slot = state.slot(&id).await?;
    let live = state.resign(&slot, client.0, &actor).await?;
    Ok(delta(&live, usize::MAX))
}

/// `POST /api/games/{id}/berserk`: an arena player halves its clock before its first move
/// (issue 23, src/services/tournaments.rs).
async fn berserk(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    State(tournaments): State<Arc<crate::services::tournaments::Tournaments>>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    cookie: SessionCookie,
    Body(body): Body<TokenBody>,
) -> Result<Json<GameView>, ApiError> {
    let actor = crate::http::session::actor(&accounts, body.token.as_deref(), &cookie).await?;
    let slot = state.slot(&id).await?;
    let live = tournaments.berserk(&state, &slot, client.0, &actor).await?;
    Ok(delta(&live, usize::MAX))
}

/// `POST /api/games/{id}/abort`: a game between people ends "aborted" (unrated) before each
/// side has moved (src/services/games/takeback.rs).
async fn abort(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    cookie: SessionCookie,
    Body(body): Body<TokenBody>,
) -> Result<Json<GameView>, ApiError> {
    let actor = crate::http::session::actor(&accounts, body.token.as_deref(), &cookie).await?;
    let slot = state.slot(&id).await?;
    let live = state.abort(&slot, client.0, &actor).await?;
    Ok(delta(&live, usize::MAX))
}

#[derive(Deserialize)]
struct DrawBody {
    token: Option<String>,
    action: DrawAction,
}

async fn draw(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(client): Extension<ClientAddr>,
    GameId(id): GameId,
    cookie: SessionCookie,
    Body(body): Body<DrawBody>,
) -> Result<Json<GameView>, ApiError> {
    let actor = crate::http::session::actor(&accounts, body.token.as_deref(), &cookie).await?;
    let slot = state.slot(&id).await?;
    let live = state.draw(&slot, client.0, &actor, body.action).await?;
    Ok(delta(&live, usize::MAX))
}

/// The tags written into a game's record (docs/api.md, "Records"): an imported game's own;
/// otherwise `Event`, `Site` (the game's address, on `host`), `Date`, `White` and `Black` (the
/// accounts' names, "emergo level N", or "person"), `TimeControl` for a timed game, and for a
/// rated game `WhiteElo` and `BlackElo`, each player's rating as the game began.
async fn record_tags(
    state: &AppState,
    secure: bool,
    meta: &GameMeta,
    host: Option<&str>,
) -> Result<Vec<(String, String)>, ApiError> {
    if !meta.tags.is_empty() {
        return Ok(meta.tags.clone());
    }
    let date = meta
        .created_at
        .get(..10)
        .unwrap_or("????-??-??")
        .replace('-', ".");
    let name = |color: Color| match (meta.seats[color].kind, meta.players.of(color)) {
        (SeatKind::Engine, _) => format!("emergo level {}", meta.level.unwrap_or(Level::MIN)),
        (SeatKind::Human, Some(account)) => account
            .name
            .clone()
            .unwrap_or_else(|| "deleted player".to_string()),
        (SeatKind::Human, None) => "person".to_string(),
    };
    let event = match meta.players.rated {
        Some(category) => format!("Rated {category} game"),
        None if meta.players.white.is_some() && meta.players.black.is_some() => {
            "Casual game".to_string()
        }
        None => format!("{} game", meta.mode.name()),
    };
    let site = match host {
        Some(host) => {
            let scheme = if secure { "https" } else { "http" };
            format!("{scheme}://{host}/game/{}", meta.id)
        }
        None => format!("emergo serve, game {}", meta.id),
    };
    let mut tags = vec![
        ("Event".to_string(), event),
        ("Site".to_string(), site),
        ("Date".to_string(), date),
        ("White".to_string(), name(Color::White)),
        ("Black".to_string(), name(Color::Black)),
    ];
    if let Some(clock) = meta.clock {
        tags.push(("TimeControl".to_string(), clock.control.pgn_tag()));
    }
    if let Some(category) = meta.players.rated {
        for (color, tag) in [(Color::White, "WhiteElo"), (Color::Black, "BlackElo")] {
            if let Some(account) = meta.players.of(color) {
                let rating = crate::services::games::ratings::rating_before(
                    state,
                    account.id,
                    (meta.variant, category),
                    &meta.id,
                )
                .await?;
                tags.push((tag.to_string(), format!("{}", rating.round() as i64)));
            }
        }
    }
    Ok(tags)
}

async fn record(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    GameId(id): GameId,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let slot = state.slot(&id).await?;
    let (game, meta) = {
        let live = slot.state.lock().await;
        (live.game.clone(), live.meta.clone())
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.len() <= 255);
    let tags = record_tags(&state, accounts.secure(), &meta, host).await?;
    let imported = meta.mode == Mode::Imported;
    // An imported record is written back from its own text (variations, comments).
    let source = match imported {
        true => state.store.record(&id).await?,
        false => None,
    };
    let caps = state.limits.record;
    let text = tokio::task::spawn_blocking(move || {
        if let Some(text) = source.and_then(|s| import::export_imported(&s, &game, caps)) {
            return text;
        }
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        game.record(&tags)
    })
    .await
    .map_err(ServiceError::internal)?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn import(
    State(state): State<AppState>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(|e| match ApiError::from(e) {
        ApiError::Service(ServiceError::TooLarge { .. }) => ServiceError::TooLarge {
            cap: "record_bytes",
            message: format!(
                "a game record may have at most {} bytes",
                state.limits.record_bytes
            ),
        }
        .into(),
        other => other,
    })?;
    let slot = state.import(body).await?;
    // The whole view, built off the game's lock and kept for the page that opens it next.
    let text = state.view_text(&slot, 0).await?;
    Ok((
        StatusCode::CREATED,
        [(header::CONTENT_TYPE, "application/json")],
        text,
    )
        .into_response())
}
