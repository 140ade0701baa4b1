//! The HTTP API of docs/api.md and the page's routes.

use crate::assets;
use crate::engine;
use crate::error::ApiError;
use crate::live::{AppState, GameSlot, LiveGame};
use crate::model::{
    color_name, hash_secret, new_game_id, new_invite, new_token, now_text, random_bit, GameMeta,
    Mode, Seat, SeatKind,
};
use crate::store::{StatusFilter, StoreError};
use crate::view::{GameSummary, GameView, SeatGrant};
use crate::ws;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use emergo_core::{Color, EndReason, Game, GameRecord, Move, Outcome, Position, Status};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Every route of the server.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/game/{id}", get(page))
        .route("/assets/{*path}", get(asset))
        .route("/healthz", get(|| async { "ok" }))
        .route("/api/games", post(create).get(list))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(ws::handler))
        .fallback(no_route)
        .method_not_allowed_fallback(no_method)
        .with_state(state)
}

async fn no_route() -> ApiError {
    ApiError::NotFound("there is no such page or endpoint".to_string())
}

async fn no_method() -> Response {
    let body = serde_json::json!({
        "error": "bad_request",
        "message": "this endpoint does not answer that method",
    });
    (StatusCode::METHOD_NOT_ALLOWED, Json(body)).into_response()
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

async fn asset(Path(path): Path<String>) -> Response {
    match assets::find(&path) {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, assets::content_type(&path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => ApiError::NotFound(format!("there is no asset '{path}'")).into_response(),
    }
}

/// Reads a JSON body; anything wrong with it is a `bad_request` that says what.
fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        ApiError::BadRequest(format!("the request body is not what was expected: {e}"))
    })
}

/// The seat that `token` holds in the game.
fn seat_of(live: &LiveGame, token: Option<&str>) -> Result<Color, ApiError> {
    let token = token
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ApiError::BadToken("this needs the token of a seat".to_string()))?;
    live.meta
        .seat_of(token)
        .ok_or_else(|| ApiError::BadToken("this token holds no seat in this game".to_string()))
}

fn require_ongoing(live: &LiveGame) -> Result<(), ApiError> {
    match live.game.status() {
        Status::Ongoing => Ok(()),
        Status::Finished { outcome, reason } => Err(ApiError::GameOver(format!(
            "the game is over: {} ({reason})",
            outcome.token()
        ))),
    }
}

fn parse_color(text: &str) -> Result<Color, ApiError> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        "random" => Ok(if random_bit() {
            Color::White
        } else {
            Color::Black
        }),
        other => Err(ApiError::BadRequest(format!(
            "color must be \"white\", \"black\" or \"random\", not {other:?}"
        ))),
    }
}

#[derive(Deserialize)]
struct CreateBody {
    mode: String,
    color: String,
    level: Option<i64>,
    position: Option<String>,
}

async fn create(
    State(state): State<AppState>,
    body: Bytes,
) -> Result<(StatusCode, Json<SeatGrant>), ApiError> {
    let body: CreateBody = parse_body(&body)?;
    let mode = match body.mode.as_str() {
        "engine" => Mode::Engine,
        "human" => Mode::Human,
        other => {
            return Err(ApiError::BadRequest(format!(
                "mode must be \"engine\" or \"human\", not {other:?}"
            )))
        }
    };
    let color = parse_color(&body.color)?;
    let level = match (mode, body.level) {
        (Mode::Engine, Some(l @ 1..=10)) => Some(l as u8),
        (Mode::Engine, Some(l)) => {
            return Err(ApiError::BadRequest(format!(
                "level must be from 1 to 10, not {l}"
            )))
        }
        (Mode::Engine, None) => {
            return Err(ApiError::BadRequest(
                "a game against the engine needs a level from 1 to 10".to_string(),
            ))
        }
        _ => None,
    };
    let start = match &body.position {
        None => Position::start(),
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| ApiError::BadRequest(format!("position {text:?}: {e}")))?,
    };
    let game = Game::new(start);
    if game.is_over() {
        return Err(ApiError::BadRequest(
            "no game can start from that position: it is already decided".to_string(),
        ));
    }
    let token = new_token();
    let other_kind = if mode == Mode::Engine {
        SeatKind::Engine
    } else {
        SeatKind::Human
    };
    let mut seats = [
        Seat {
            kind: other_kind,
            token_hash: None,
        },
        Seat {
            kind: other_kind,
            token_hash: None,
        },
    ];
    seats[color.index()] = Seat {
        kind: SeatKind::Human,
        token_hash: Some(hash_secret(&token)),
    };
    let invite = (mode == Mode::Human).then(new_invite);
    let now = now_text();
    let mut meta = GameMeta {
        id: new_game_id(),
        mode,
        level,
        seats,
        invite_hash: invite.as_deref().map(hash_secret),
        tags: Vec::new(),
        draw_offer: None,
        created_at: now.clone(),
        updated_at: now,
    };
    insert_with_fresh_id(&state, &mut meta, &game).await?;
    let slot = state.insert(LiveGame::new(meta, game));
    let mut live = slot.state.lock().await;
    state.schedule_engine(&slot, &mut live);
    Ok((
        StatusCode::CREATED,
        Json(SeatGrant {
            game: GameView::of(&live),
            seat: color_name(color),
            token,
            invite,
        }),
    ))
}

/// Stores a new game, drawing another id in the unlikely case that its id is taken.
async fn insert_with_fresh_id(
    state: &AppState,
    meta: &mut GameMeta,
    game: &Game,
) -> Result<(), ApiError> {
    for _ in 0..5 {
        match state.store.insert_game(meta, game).await {
            Ok(()) => return Ok(()),
            Err(StoreError::Conflict(_)) => meta.id = new_game_id(),
            Err(err) => return Err(ApiError::internal(err)),
        }
    }
    Err(ApiError::internal("no free game id found"))
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
    limit: Option<i64>,
}

async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(query) = query?;
    let filter = match query.status.as_deref() {
        None | Some("all") => StatusFilter::All,
        Some("ongoing") => StatusFilter::Ongoing,
        Some("finished") => StatusFilter::Finished,
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "status must be \"ongoing\", \"finished\" or \"all\", not {other:?}"
            )))
        }
    };
    let limit = match query.limit {
        None => 50,
        Some(n @ 1..=500) => n as u32,
        Some(n) => {
            return Err(ApiError::BadRequest(format!(
                "limit must be from 1 to 500, not {n}"
            )))
        }
    };
    let rows = state
        .store
        .list(filter, limit)
        .await
        .map_err(ApiError::internal)?;
    let games: Vec<GameSummary> = rows.into_iter().map(GameSummary::of).collect();
    Ok(Json(serde_json::json!({ "games": games })))
}

async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    let slot = state.slot(&id).await?;
    let live = slot.state.lock().await;
    Ok(Json(GameView::of(&live)))
}

#[derive(Deserialize)]
struct JoinBody {
    invite: Option<String>,
}

async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<SeatGrant>, ApiError> {
    let body: JoinBody = parse_body(&body)?;
    let slot = state.slot(&id).await?;
    let mut live = slot.state.lock().await;
    let code_matches = match (&live.meta.invite_hash, body.invite.as_deref()) {
        (Some(hash), Some(code)) => *hash == hash_secret(code),
        _ => false,
    };
    if !code_matches {
        return Err(ApiError::BadToken(
            "this invitation code does not open a seat in this game".to_string(),
        ));
    }
    let free = Color::ALL.into_iter().find(|c| {
        let seat = &live.meta.seats[c.index()];
        seat.kind == SeatKind::Human && seat.token_hash.is_none()
    });
    let Some(color) = free else {
        return Err(ApiError::SeatTaken(
            "both seats of this game are taken".to_string(),
        ));
    };
    let token = new_token();
    let token_hash = hash_secret(&token);
    let now = now_text();
    match state.store.take_seat(&id, color, &token_hash, &now).await {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => {
            return Err(ApiError::SeatTaken(
                "both seats of this game are taken".to_string(),
            ))
        }
        Err(err) => return Err(ApiError::internal(err)),
    }
    live.meta.seats[color.index()].token_hash = Some(token_hash);
    live.meta.updated_at = now;
    slot.publish(&live);
    Ok(Json(SeatGrant {
        game: GameView::of(&live),
        seat: color_name(color),
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

fn legal_list(pos: &Position) -> String {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    moves.sort();
    moves.join(", ")
}

async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let body: MoveBody = parse_body(&body)?;
    let slot = state.slot(&id).await?;
    let mut live = slot.state.lock().await;
    let color = seat_of(&live, body.token.as_deref())?;
    let ply = live.game.ply();
    if body.ply != ply as i64 {
        return Err(ApiError::StalePly {
            current: ply,
            given: body.ply,
        });
    }
    require_ongoing(&live)?;
    let pos = *live.game.position();
    if pos.turn() != color {
        return Err(ApiError::NotYourTurn(format!(
            "{} is to move, and this token holds {}'s seat",
            color_name(pos.turn()),
            color_name(color)
        )));
    }
    let mv = pos.parse_move(body.mv.trim()).map_err(|e| {
        ApiError::IllegalMove(format!("{e}; the legal moves are: {}", legal_list(&pos)))
    })?;
    state.commit_move(&mut live, mv).await?;
    state.schedule_engine(&slot, &mut live);
    slot.publish(&live);
    Ok(Json(GameView::of(&live)))
}

#[derive(Deserialize)]
struct TokenBody {
    token: Option<String>,
}

async fn takeback(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let body: TokenBody = parse_body(&body)?;
    let slot = state.slot(&id).await?;
    let mut live = slot.state.lock().await;
    let color = seat_of(&live, body.token.as_deref())?;
    if live.meta.mode != Mode::Engine {
        return Err(ApiError::NotAllowed(
            "a takeback is only for games against the engine".to_string(),
        ));
    }
    if let Status::Finished {
        reason: reason @ (EndReason::Resignation | EndReason::Agreement),
        ..
    } = live.game.status()
    {
        return Err(ApiError::GameOver(format!(
            "the game ended by {reason}; it cannot be taken back"
        )));
    }
    let positions = live.game.positions();
    let target = (0..live.game.ply())
        .rev()
        .find(|&k| positions[k].turn() == color)
        .ok_or_else(|| {
            ApiError::NotAllowed("there is no move of yours to take back".to_string())
        })?;
    let now = now_text();
    state
        .store
        .truncate(&id, target, &now)
        .await
        .map_err(ApiError::internal)?;
    while live.game.ply() > target {
        live.game.undo();
    }
    live.cancel_engine();
    live.meta.draw_offer = None;
    live.meta.updated_at = now;
    slot.publish(&live);
    Ok(Json(GameView::of(&live)))
}

async fn hint(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let body: TokenBody = parse_body(&body)?;
    let slot = state.slot(&id).await?;
    let game = {
        let live = slot.state.lock().await;
        let color = seat_of(&live, body.token.as_deref())?;
        if live.meta.mode != Mode::Engine {
            return Err(ApiError::NotAllowed(
                "hints are only for games against the engine".to_string(),
            ));
        }
        require_ongoing(&live)?;
        if live.game.position().turn() != color {
            return Err(ApiError::NotYourTurn(
                "a hint is for the side to move, and the engine is to move".to_string(),
            ));
        }
        live.game.clone()
    };
    if slot.hinting.swap(true, Ordering::SeqCst) {
        return Err(ApiError::NotAllowed(
            "a hint for this game is being computed already".to_string(),
        ));
    }
    // Cleared however this request ends, even when the client goes away.
    struct Hinting(Arc<GameSlot>);
    impl Drop for Hinting {
        fn drop(&mut self) {
            self.0.hinting.store(false, Ordering::SeqCst);
        }
    }
    let _hinting = Hinting(slot);
    let analysis = state
        .pool
        .run(move || engine::hint(&game))
        .await
        .map_err(ApiError::internal)?;
    let (mv, score) = analysis.ok_or_else(|| ApiError::internal("no move to hint"))?;
    Ok(Json(
        serde_json::json!({"move": mv.to_string(), "score": score}),
    ))
}

async fn resign(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let body: TokenBody = parse_body(&body)?;
    let slot = state.slot(&id).await?;
    let mut live = slot.state.lock().await;
    let color = seat_of(&live, body.token.as_deref())?;
    require_ongoing(&live)?;
    let status = Status::Finished {
        outcome: Outcome::Win(color.other()),
        reason: EndReason::Resignation,
    };
    finish(&state, &slot, &mut live, status).await
}

/// Stores a declared ending (resignation or agreement), then applies and publishes it.
async fn finish(
    state: &AppState,
    slot: &Arc<GameSlot>,
    live: &mut LiveGame,
    status: Status,
) -> Result<Json<GameView>, ApiError> {
    let Status::Finished { outcome, reason } = status else {
        return Err(ApiError::internal("finish called without an ending"));
    };
    let now = now_text();
    state
        .store
        .finish(&live.meta.id, status, &now)
        .await
        .map_err(ApiError::internal)?;
    live.game
        .declare(outcome, reason)
        .map_err(ApiError::internal)?;
    live.cancel_engine();
    live.meta.draw_offer = None;
    live.meta.updated_at = now;
    slot.publish(live);
    Ok(Json(GameView::of(live)))
}

#[derive(Deserialize)]
struct DrawBody {
    token: Option<String>,
    action: String,
}

async fn draw(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let body: DrawBody = parse_body(&body)?;
    let slot = state.slot(&id).await?;
    let mut live = slot.state.lock().await;
    let color = seat_of(&live, body.token.as_deref())?;
    if live.meta.mode != Mode::Human {
        return Err(ApiError::NotAllowed(
            "draw offers are for games between people".to_string(),
        ));
    }
    require_ongoing(&live)?;
    let offered_to_me = live.meta.draw_offer == Some(color.other());
    let agreed = Status::Finished {
        outcome: Outcome::Draw,
        reason: EndReason::Agreement,
    };
    let new_offer = match body.action.as_str() {
        // Offering back to a standing offer agrees to it.
        "offer" | "accept" if offered_to_me => {
            return finish(&state, &slot, &mut live, agreed).await;
        }
        "offer" => Some(color),
        "accept" => {
            return Err(ApiError::NotAllowed(
                "there is no draw offer to accept".to_string(),
            ))
        }
        "decline" if offered_to_me => None,
        "decline" => {
            return Err(ApiError::NotAllowed(
                "there is no draw offer to decline".to_string(),
            ))
        }
        other => {
            return Err(ApiError::BadRequest(format!(
                "action must be \"offer\", \"accept\" or \"decline\", not {other:?}"
            )))
        }
    };
    if new_offer != live.meta.draw_offer {
        let now = now_text();
        state
            .store
            .set_draw_offer(&id, new_offer, &now)
            .await
            .map_err(ApiError::internal)?;
        live.meta.draw_offer = new_offer;
        live.meta.updated_at = now;
        slot.publish(&live);
    }
    Ok(Json(GameView::of(&live)))
}

/// The tags written into a game's record.
fn record_tags(live: &LiveGame) -> Vec<(String, String)> {
    if !live.meta.tags.is_empty() {
        return live.meta.tags.clone();
    }
    let date = live
        .meta
        .created_at
        .get(..10)
        .unwrap_or("????-??-??")
        .replace('-', ".");
    let name = |color: Color| match live.meta.seats[color.index()].kind {
        SeatKind::Human => "person".to_string(),
        SeatKind::Engine => format!("emergo level {}", live.meta.level.unwrap_or(1)),
    };
    vec![
        (
            "Event".to_string(),
            format!("{} game", live.meta.mode.name()),
        ),
        (
            "Site".to_string(),
            format!("emergo serve, game {}", live.meta.id),
        ),
        ("Date".to_string(), date),
        ("White".to_string(), name(Color::White)),
        ("Black".to_string(), name(Color::Black)),
    ]
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = state.slot(&id).await?;
    let live = slot.state.lock().await;
    let tags = record_tags(&live);
    let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let text = GameRecord::from_game(&live.game, &tags).to_string();
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

async fn import(
    State(state): State<AppState>,
    body: Bytes,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the game record is not UTF-8 text".to_string()))?;
    let record = GameRecord::parse(text).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let game = record
        .to_game()
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let nobody = || Seat {
        kind: SeatKind::Human,
        token_hash: None,
    };
    let now = now_text();
    let mut meta = GameMeta {
        id: new_game_id(),
        mode: Mode::Imported,
        level: None,
        seats: [nobody(), nobody()],
        invite_hash: None,
        tags: record.tags.clone(),
        draw_offer: None,
        created_at: now.clone(),
        updated_at: now,
    };
    insert_with_fresh_id(&state, &mut meta, &game).await?;
    let slot = state.insert(LiveGame::new(meta, game));
    let live = slot.state.lock().await;
    Ok((StatusCode::CREATED, Json(GameView::of(&live))))
}
