//! The analysis board's handlers: one analysis (GET /api/analysis) and the stream of analyses over a WebSocket (docs/api.md).

use crate::http::error::ApiError;
use crate::services::error::ServiceError;
use crate::services::games::AppState;
use crate::services::permits::Permit;
use crate::services::study::analysis::{
    analyse, engine, number_in, parse_game, pool_error, quota, read_request, refusal, Analyses,
    AnalysisQuery, AnalysisView, Engine, Event, Run, StopOnDrop, Wanted, DEFAULT_LINES, DEFAULT_MS,
    MAX_INCOMING, MAX_LINES, MAX_MS, REFUSALS_EVERY, SEND_TIMEOUT, SOCKET_BURST, SOCKET_PER_SECOND,
};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::Response;
use axum::{Extension, Json};
use emergo_core::game::Game;
use emergo_core::{any_game, Variant};
use emergo_engine::Limits;
use emergo_platform::domain::limits::ClientAddr;
use governor::DefaultDirectRateLimiter;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `GET /api/analysis?position=<N2>&variant=<board>&multipv=<1..5>&ms=<1..5000>`.
pub async fn once(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    Query(query): Query<AnalysisQuery>,
) -> Result<Json<AnalysisView>, ServiceError> {
    let text = query
        .position
        .as_deref()
        .ok_or_else(|| ServiceError::BadRequest("position (N2 text) is required".to_string()))?;
    let game = parse_game(text, query.variant.as_deref())?;
    let lines = number_in(
        "multipv",
        query.multipv.as_deref(),
        DEFAULT_LINES as u64,
        1..=MAX_LINES as u64,
    )? as usize;
    let ms = number_in("ms", query.ms.as_deref(), DEFAULT_MS, 1..=MAX_MS)?;
    let limits = Limits::movetime(Duration::from_millis(ms));
    Ok(Json(
        any_game!(game, g => once_on(&state, client.0, g, lines, limits).await?),
    ))
}

/// One search of `game`'s position on its board, on the pool.
async fn once_on<V: Variant>(
    state: &AppState,
    client: IpAddr,
    game: Game<V>,
    lines: usize,
    limits: Limits,
) -> Result<AnalysisView, ServiceError> {
    let position = *game.position();
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let search_stop = stop.clone();
    let result = state
        .pool
        .run(client, stop, move || {
            if game.is_over() || search_stop.load(Ordering::SeqCst) {
                return None;
            }
            Some(engine(lines, search_stop).analyse(&game, &limits, |_| {}))
        })
        .await
        .map_err(pool_error)?;
    Ok(match result {
        Some(r) => AnalysisView::of(&position, r.depth, &r.lines),
        None => AnalysisView::of(&position, 0, &[]),
    })
}

/// `GET /api/analysis/ws`.
pub async fn stream_handler(
    State(state): State<AppState>,
    State(analyses): State<Arc<Analyses>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|e| ServiceError::BadRequest(e.body_text()))?;
    let permit = state.websockets.acquire(Some(client))?;
    Ok(upgrade
        .max_message_size(MAX_INCOMING)
        .max_frame_size(MAX_INCOMING)
        .on_upgrade(move |socket| stream(socket, state, analyses, client, permit)))
}

async fn send(socket: &mut WebSocket, event: &Event) -> bool {
    let Ok(text) = serde_json::to_string(event) else {
        return false;
    };
    crate::http::net::ws_send_within(socket, Message::Text(text.into()), SEND_TIMEOUT).await
}

/// The socket's loop: reads the page's requests (within the rates), runs one analysis at a
/// time, the latest asked for, and forwards its events.
async fn stream(
    mut socket: WebSocket,
    state: AppState,
    analyses: Arc<Analyses>,
    client: IpAddr,
    _permit: Permit,
) {
    let mut shutdown = state.shutdown.clone();
    let (events_tx, mut events) = tokio::sync::mpsc::channel::<(u64, Event)>(16);
    let rate = DefaultDirectRateLimiter::direct(quota(SOCKET_BURST, SOCKET_PER_SECOND));
    // Each request taken is a new generation; events of an earlier one are not sent.
    let mut generation: u64 = 0;
    // The engine, while no analysis has it.
    let mut engine: Engine = None;
    // The analysis running (or winding down after a cancel), and the request waiting for it.
    let mut current: Option<Arc<Run>> = None;
    let mut task: Option<tokio::task::JoinHandle<Engine>> = None;
    let mut pending: Option<Wanted> = None;
    // Requests refused since the last `rate_limited` event, and when that went out.
    let mut ignored: u64 = 0;
    let mut refusal_said: Option<Instant> = None;
    let mut retry_at = Instant::now();
    loop {
        if task.is_none() {
            if let Some(wanted) = pending.take() {
                let run = Run::new();
                analyses.start(client, run.clone());
                task = Some(tokio::spawn(analyse(
                    state.clone(),
                    client,
                    run.clone(),
                    wanted,
                    engine.take(),
                    generation,
                    events_tx.clone(),
                )));
                current = Some(run);
            }
        }
        tokio::select! {
            event = events.recv() => {
                let Some((of, event)) = event else { break };
                if of == generation && !send(&mut socket, &event).await {
                    break;
                }
            }
            finished = async {
                match task.as_mut() {
                    Some(task) => task.await,
                    None => std::future::pending().await,
                }
            } => {
                task = None;
                if let Some(run) = current.take() {
                    analyses.end(client, &run);
                }
                // A task that panicked lost the engine: the next search builds another.
                engine = finished.unwrap_or(None);
            }
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                if let Err(wait) = analyses.admit(client, &rate) {
                    ignored += 1;
                    retry_at = Instant::now() + wait;
                    if refusal_said.is_some_and(|at| at.elapsed() < REFUSALS_EVERY) {
                        // Said in the next event (the branch below), with the others.
                        continue;
                    }
                    refusal_said = Some(Instant::now());
                    let event = refusal(std::mem::take(&mut ignored), retry_at);
                    if !send(&mut socket, &event).await {
                        break;
                    }
                    continue;
                }
                // A request taken replaces whatever came before it.
                generation += 1;
                pending = None;
                if let Some(run) = &current {
                    run.cancel(None);
                }
                match read_request(text.as_str()) {
                    Ok(wanted) => pending = wanted,
                    Err(message) => {
                        if !send(&mut socket, &Event::error("bad_request", message)).await {
                            break;
                        }
                    }
                }
            }
            // Requests refused since the last `rate_limited` event are said once its 100 ms
            // are over.
            _ = async {
                match refusal_said {
                    Some(at) if ignored > 0 => tokio::time::sleep_until((at + REFUSALS_EVERY).into()).await,
                    _ => std::future::pending().await,
                }
            } => {
                refusal_said = Some(Instant::now());
                let event = refusal(std::mem::take(&mut ignored), retry_at);
                if !send(&mut socket, &event).await {
                    break;
                }
            }
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
    if let Some(run) = current.take() {
        run.cancel(None);
        analyses.end(client, &run);
    }
    analyses.forget_quiet();
}
