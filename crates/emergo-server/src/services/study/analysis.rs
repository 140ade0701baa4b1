//! Engine analysis of any position of any board, for tools and the analysis board (docs/api.md,
//! "Analysis"):
//!
//! - `GET /api/analysis?position=<N2>&variant=emergo&multipv=3&ms=1000`: one search, its best
//!   lines as JSON.
//! - `GET /api/analysis/ws`: the analysis board's stream. The page sends
//!   `{"position": "<N2>", "variant": "7x7", "multipv": 3}` (a new position replaces the running
//!   analysis; `variant` is `emergo` when not given) or
//!   `{"stop": true}`; the server sends the lines depth by depth, then `done`.
//!
//! Every search runs on the engine's fair pool ([`emergo_worker::pool::EnginePool`]) under the client's
//! address. A stream searches in slices of at most [`SLICE`], each a job of its own, so it takes
//! its turn with everyone else's moves and hints; the engine (and its table) carries over from
//! slice to slice, up to [`STREAM_BUDGET`] of engine time per position. One analysis runs per
//! client address: a new one (from another tab, say) stops the one before, and closing the
//! socket (the page does when it is hidden or left) stops it.
//!
//! A socket costs the runtime little however fast it sends (issue 17, item 1): its one engine is
//! built the first time it searches, on the engine's threads, and kept for the socket's life;
//! requests that arrive while an analysis is winding down replace each other (only the latest
//! is analysed, and no event of an earlier one is sent after a later one came); and requests
//! over the rate ([`SOCKET_BURST`] then [`SOCKET_PER_SECOND`] a second on one socket,
//! [`CLIENT_BURST`] then [`CLIENT_PER_SECOND`] from one address) are ignored and answered with
//! an `error` event of code `rate_limited` (at most one every [`REFUSALS_EVERY`], counting
//! the requests it answers for).

use crate::services::error::{echo, ServiceError};
use crate::services::games::AppState;
use crate::services::study::position::variant_of;
use emergo_core::game::Game;
use emergo_core::position::Position;
use emergo_core::{any_game, AnyGame, Variant};
use emergo_engine::search::{mate_in, Line};
use emergo_engine::{AlphaBetaPlayer, Level, Limits, SearchResult};
use emergo_worker::pool::PoolError;
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The most lines an analysis reports.
pub const MAX_LINES: usize = 5;
/// Lines when the request does not say.
pub const DEFAULT_LINES: usize = 3;
/// The longest search `GET /api/analysis` runs, and its default.
pub const MAX_MS: u64 = 5000;
pub const DEFAULT_MS: u64 = 1000;
/// Engine time a stream spends on one position at most.
pub const STREAM_BUDGET: Duration = Duration::from_secs(20);
/// The longest one job of a stream searches before it gives the worker back.
pub const SLICE: Duration = Duration::from_millis(1500);
/// The deepest a stream goes.
pub const MAX_DEPTH: u32 = 40;
/// The engine's table per analysis, in MB.
pub const HASH_MB: usize = 8;
/// The biggest message the page sends.
pub const MAX_INCOMING: usize = 4096;
/// Requests one socket may send at once, then a second.
pub const SOCKET_BURST: u32 = 20;
pub const SOCKET_PER_SECOND: u32 = 10;
/// Requests one client address may send at once over all its sockets, then a second.
pub const CLIENT_BURST: u32 = 40;
pub const CLIENT_PER_SECOND: u32 = 20;
/// At most one `rate_limited` event goes out this often; the requests refused in between are
/// counted in the next one (`ignored`), so a flood costs no write per request.
pub const REFUSALS_EVERY: Duration = Duration::from_millis(100);
/// How long one event may take to go out before the socket is given up (a client that does
/// not read).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// One line: its first move, its score for the side to move in centimen (`mate`: moves to the
/// end when the search sees it, positive when the side to move wins) and its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineView {
    #[serde(rename = "move")]
    pub mv: String,
    pub score: i32,
    pub mate: Option<i32>,
    pub pv: Vec<String>,
}

/// An analysis: the position, the depth its lines come from, the lines best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnalysisView {
    pub position: String,
    pub depth: u32,
    pub lines: Vec<LineView>,
}

impl AnalysisView {
    pub fn of<V: Variant>(position: &Position<V>, depth: u32, lines: &[Line<V>]) -> AnalysisView {
        AnalysisView {
            position: position.to_string(),
            depth,
            lines: lines
                .iter()
                .filter_map(|l| {
                    Some(LineView {
                        mv: l.first()?.to_string(),
                        score: l.score,
                        mate: mate_in(l.score),
                        pv: l.pv.iter().map(|m| m.to_string()).collect(),
                    })
                })
                .collect(),
        }
    }
}

#[derive(Deserialize)]
pub struct AnalysisQuery {
    pub position: Option<String>,
    pub variant: Option<String>,
    pub multipv: Option<String>,
    pub ms: Option<String>,
}

/// The game from the position `text` on the board `variant` names (`emergo` when none).
pub fn parse_game(text: &str, variant: Option<&str>) -> Result<AnyGame, ServiceError> {
    let kind = variant_of(variant)?;
    AnyGame::from_position_text(kind, text).map_err(|e| {
        ServiceError::BadRequest(format!("position {} ({kind} board): {e}", echo(text)))
    })
}

/// A whole number in `range`, or 400 naming the parameter.
pub fn number_in(
    name: &str,
    text: Option<&str>,
    default: u64,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, ServiceError> {
    let Some(text) = text else {
        return Ok(default);
    };
    match text.parse::<u64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(ServiceError::BadRequest(format!(
            "{name} must be a whole number from {} to {}, not {}",
            range.start(),
            range.end(),
            echo(text)
        ))),
    }
}

pub fn pool_error(e: PoolError) -> ServiceError {
    match e {
        PoolError::Busy(message) => ServiceError::EngineBusy(message),
        other => ServiceError::internal(other),
    }
}

/// Sets a flag when dropped: a search whose request went away stops (or never starts).
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A full-strength engine with the analysis table ([`HASH_MB`]), allocated once. Built only on
/// the engine's threads (inside a pool job), never on the async runtime.
pub fn engine(lines: usize, stop: Arc<AtomicBool>) -> AlphaBetaPlayer {
    let mut player = AlphaBetaPlayer::with_hash(Level::MAX, HASH_MB).with_stop_flag(stop);
    player.set_multipv(lines);
    player
}

/// One running stream's stop switch.
pub struct Run {
    pub cancelled: AtomicBool,
    /// Why it was stopped by someone else, for the page.
    pub reason: Mutex<Option<&'static str>>,
    /// The stop flag of the slice now queued or searching.
    pub slice: Mutex<Arc<AtomicBool>>,
}

impl Run {
    pub fn new() -> Arc<Run> {
        Arc::new(Run {
            cancelled: AtomicBool::new(false),
            reason: Mutex::new(None),
            slice: Mutex::new(Arc::default()),
        })
    }

    pub fn cancel(&self, reason: Option<&'static str>) {
        if let Some(reason) = reason {
            *self.reason.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason);
        }
        self.cancelled.store(true, Ordering::SeqCst);
        self.slice
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// A fresh stop flag for the next slice (already set when the run is cancelled).
    pub fn next_slice(&self) -> Arc<AtomicBool> {
        let mut slice = self.slice.lock().unwrap_or_else(|e| e.into_inner());
        *slice = Arc::new(AtomicBool::new(self.is_cancelled()));
        slice.clone()
    }
}

pub fn quota(burst: u32, per_second: u32) -> Quota {
    let nonzero = |n: u32| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
    Quota::per_second(nonzero(per_second)).allow_burst(nonzero(burst))
}

/// The running streams, one per client address, and each address's request rate.
pub struct Analyses {
    pub running: Mutex<HashMap<IpAddr, Arc<Run>>>,
    pub rate: DefaultKeyedRateLimiter<IpAddr>,
}

impl Default for Analyses {
    fn default() -> Analyses {
        Analyses {
            running: Mutex::default(),
            rate: DefaultKeyedRateLimiter::keyed(quota(CLIENT_BURST, CLIENT_PER_SECOND)),
        }
    }
}

impl Analyses {
    /// Registers `run` as `client`'s analysis, stopping the one before.
    pub fn start(&self, client: IpAddr, run: Arc<Run>) {
        let before = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(client, run);
        if let Some(before) = before {
            before.cancel(Some("another analysis from this browser started"));
        }
    }

    /// Forgets `run` if it is still `client`'s analysis.
    pub fn end(&self, client: IpAddr, run: &Arc<Run>) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.get(&client).is_some_and(|r| Arc::ptr_eq(r, run)) {
            running.remove(&client);
        }
    }

    /// Whether one more request from `client` on the socket of `socket` is within the rates;
    /// else how long until one would be.
    pub fn admit(&self, client: IpAddr, socket: &DefaultDirectRateLimiter) -> Result<(), Duration> {
        use governor::clock::{Clock, DefaultClock};
        let now = DefaultClock::default().now();
        socket
            .check()
            .and_then(|()| self.rate.check_key(&client))
            .map_err(|not_until| not_until.wait_time_from(now))
    }

    /// Forgets the rates of addresses that have been quiet long enough to be back at a full
    /// burst (when there are many).
    pub fn forget_quiet(&self) {
        if self.rate.len() > 1024 {
            self.rate.retain_recent();
        }
    }

    /// Analyses running now.
    pub fn len(&self) -> usize {
        self.running.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Event {
    pub fn error(code: &'static str, message: String) -> Event {
        Event::Error {
            code,
            message,
            retry_ms: None,
            ignored: None,
        }
    }
}

/// The `rate_limited` event for `ignored` requests refused, one more being taken at `retry_at`.
pub fn refusal(ignored: u64, retry_at: Instant) -> Event {
    let wait = retry_at.saturating_duration_since(Instant::now());
    let retry_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1);
    Event::Error {
        code: "rate_limited",
        message: format!(
            "too many analysis requests: at most {SOCKET_BURST} at once and {SOCKET_PER_SECOND} \
             a second on one socket ({CLIENT_BURST} and {CLIENT_PER_SECOND} from one address); \
             {ignored} ignored, send the latest again in {retry_ms} ms"
        ),
        retry_ms: Some(retry_ms),
        ignored: Some(ignored),
    }
}

/// The socket's engine: none until its first search builds it (on a worker), then kept.
pub type Engine = Option<AlphaBetaPlayer>;

/// What the socket's latest request asks for, once read and checked.
pub fn read_request(text: &str) -> Result<Option<Wanted>, String> {
    let request = serde_json::from_str::<Request>(text).map_err(|e| {
        format!("expected {{\"position\": \"<N2>\", \"multipv\": 3}} or {{\"stop\": true}}: {e}")
    })?;
    if request.stop {
        return Ok(None);
    }
    let text = request
        .position
        .ok_or_else(|| "position (N2 text) is required".to_string())?;
    let game = parse_game(&text, request.variant.as_deref()).map_err(|e| e.to_string())?;
    let lines = request.multipv.unwrap_or(DEFAULT_LINES).clamp(1, MAX_LINES);
    Ok(Some(Wanted { game, lines }))
}

/// Runs one position's analysis in slices on the pool, sending lines deeper than any sent, and
/// hands the engine back (built in the first slice when the socket had none yet).
pub async fn analyse(
    state: AppState,
    client: IpAddr,
    run: Arc<Run>,
    wanted: Wanted,
    player: Engine,
    generation: u64,
    events: tokio::sync::mpsc::Sender<(u64, Event)>,
) -> Engine {
    let Wanted { game, lines } = wanted;
    any_game!(game, g => {
        analyse_on(state, client, run, g, lines, player, generation, events).await
    })
}

/// [`analyse`] on the board `V` (the engine is the same for every board).
#[allow(clippy::too_many_arguments)]
async fn analyse_on<V: Variant>(
    state: AppState,
    client: IpAddr,
    run: Arc<Run>,
    game: Game<V>,
    lines: usize,
    mut player: Engine,
    generation: u64,
    events: tokio::sync::mpsc::Sender<(u64, Event)>,
) -> Engine {
    let position = *game.position();
    let text = position.to_string();
    let (latest_tx, mut latest) = watch::channel::<Option<SearchResult<V>>>(None);
    let mut sent_depth = 0;
    let mut spent = Duration::ZERO;
    let mut finished = game.is_over();
    let forward = |result: &SearchResult<V>, sent_depth: &mut u32| {
        (result.depth > *sent_depth && !result.lines.is_empty()).then(|| {
            *sent_depth = result.depth;
            Event::Lines(AnalysisView::of(&position, result.depth, &result.lines))
        })
    };
    while !finished && !run.is_cancelled() && spent < STREAM_BUDGET {
        let slice_stop = run.next_slice();
        let job_player = player.take();
        let job_game = game.clone();
        let job_latest = latest_tx.clone();
        let limit = SLICE.min(STREAM_BUDGET - spent);
        let started = Instant::now();
        let job = state.pool.run(client, slice_stop.clone(), move || {
            if slice_stop.load(Ordering::SeqCst) {
                // Replaced before its turn came: no search, and no engine built for nothing.
                return (job_player, None);
            }
            let mut engine = match job_player {
                Some(engine) => engine.with_stop_flag(slice_stop),
                None => engine(lines, slice_stop),
            };
            engine.set_multipv(lines);
            let result = engine.analyse(&job_game, &Limits::movetime(limit), |info| {
                job_latest.send_replace(Some(SearchResult {
                    best: info.pv.first().copied(),
                    score: info.score,
                    pv: info.pv.clone(),
                    depth: info.depth,
                    nodes: info.nodes,
                    lines: info.lines.clone(),
                }));
            });
            (Some(engine), Some(result))
        });
        tokio::pin!(job);
        let outcome = loop {
            tokio::select! {
                outcome = &mut job => break outcome,
                changed = latest.changed() => {
                    if changed.is_err() { continue; }
                    let update = latest.borrow_and_update().clone();
                    if let Some(event) = update.as_ref().and_then(|r| forward(r, &mut sent_depth)) {
                        if events.send((generation, event)).await.is_err() {
                            run.cancel(None);
                        }
                    }
                }
            }
        };
        spent += started.elapsed();
        match outcome {
            Ok((engine, result)) => {
                player = engine.map(|e| e.with_stop_flag(Arc::default()));
                let Some(result) = result else { break };
                if let Some(event) = forward(&result, &mut sent_depth) {
                    let _ = events.send((generation, event)).await;
                }
                finished = result.depth >= MAX_DEPTH
                    || game.position().count_legal_moves() <= 1
                    || mate_in(result.score).is_some_and(|m| result.depth as i32 > 2 * m.abs() + 2);
            }
            Err(PoolError::Busy(message)) => {
                let event = Event::Stopped {
                    position: text.clone(),
                    reason: message,
                };
                let _ = events.send((generation, event)).await;
                return player;
            }
            Err(e) => {
                let _ = events
                    .send((generation, Event::error("engine", e.to_string())))
                    .await;
                return player;
            }
        }
    }
    let stopped_by_other = *run.reason.lock().unwrap_or_else(|e| e.into_inner());
    let event = match stopped_by_other {
        Some(reason) => Event::Stopped {
            position: text,
            reason: reason.to_string(),
        },
        None if run.is_cancelled() => return player,
        None => Event::Done {
            position: text,
            depth: sent_depth,
        },
    };
    let _ = events.send((generation, event)).await;
    player
}

/// What the page sends over the stream.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub position: Option<String>,
    pub multipv: Option<usize>,
    pub variant: Option<String>,
    #[serde(default)]
    pub stop: bool,
}

/// What the server sends over the stream.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event {
    /// Lines of a completed depth.
    Lines(AnalysisView),
    /// The analysis of this position is over (its budget spent, or its depth reached).
    Done { position: String, depth: u32 },
    /// It was stopped by the server (another analysis from this browser, the engine busy).
    Stopped { position: String, reason: String },
    /// A request the server did not take: `bad_request` (it cannot be read), `rate_limited`
    /// (over the rate: `retry_ms` says when one more would be taken), `engine` (the search
    /// failed).
    Error {
        code: &'static str,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        retry_ms: Option<u64>,
        /// `rate_limited`: the requests ignored since the last such event, this one included.
        #[serde(skip_serializing_if = "Option::is_none")]
        ignored: Option<u64>,
    },
}

/// A position to analyse (the game from it, on its board), as the page asked.
pub struct Wanted {
    pub game: AnyGame,
    pub lines: usize,
}
