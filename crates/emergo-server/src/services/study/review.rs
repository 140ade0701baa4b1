//! Game review (issue 12): every position of a finished (or imported) game searched to a fixed
//! depth as low-priority jobs of the engine's fair queue, each move classified by the men it
//! lost, an accuracy per player; the result stored with the game so the second look is instant.
//!
//! `POST /api/games/{id}/review` starts one (202), `GET /api/games/{id}/review` says how far it
//! is and, once done, gives it. docs/web.md ("Game review") documents the depth, the
//! thresholds and the accuracy formula.

use crate::services::error::ServiceError;
use crate::services::games::view::MoveView;
use crate::services::games::AppState;
use emergo_core::game::Game as GameOf;
use emergo_core::moves::Move as MoveOf;
#[cfg(test)]
use emergo_core::Game;
use emergo_core::{any_game, AnyGame, Color, Emergo, Status, Variant};
use emergo_engine::search::MATE;
use emergo_engine::{AlphaBetaPlayer, Level, Limits};
use emergo_platform::domain::model::{now_text, Mode};
use emergo_worker::pool::PoolError;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The depth every position is searched to.
pub const REVIEW_DEPTH: u32 = 8;

/// The most time one position may take, whatever the depth reached by then.
pub const POSITION_TIME: Duration = Duration::from_millis(1500);

/// Reviews running at once on one server (one per client); more wait in the queue.
pub const REVIEWS_AT_ONCE: usize = 2;

/// Reviews waiting at most, all together and from one client; more are refused with 503
/// `engine_busy`.
pub const REVIEW_QUEUE: usize = 64;
pub const REVIEW_QUEUE_PER_CLIENT: usize = 16;

/// The longest game reviewed, in plies (413 `too_large`, cap `review_plies`, beyond).
pub const MAX_REVIEW_PLIES: usize = 600;

/// The client every review's jobs are queued as: an address of the discard prefix (RFC 6666)
/// that no real client has. All reviews together are one client of the fair queue, so a
/// person's engine move or hint goes first whenever both wait.
pub const REVIEW_CLIENT: IpAddr = IpAddr::V6(Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0x12));

/// Scores beyond this many centimen (forced wins and losses) count as this much.
pub const SCORE_CAP: i32 = 1000;

/// The classes of a move, by the men it lost against the engine's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The engine's own choice, or within 0.05 men of it.
    Best,
    /// Less than 0.3 men lost.
    Good,
    /// 0.3 to 0.8 men lost.
    Inaccuracy,
    /// 0.8 to 2 men lost.
    Mistake,
    /// 2 men or more lost.
    Blunder,
}

impl Class {
    /// The class of a move that lost `loss` centimen; `engine_choice` when it is the move the
    /// engine found best (or the only legal one).
    pub fn of(loss: i32, engine_choice: bool) -> Class {
        match loss {
            _ if engine_choice => Class::Best,
            ..=5 => Class::Best,
            6..=29 => Class::Good,
            30..=79 => Class::Inaccuracy,
            80..=199 => Class::Mistake,
            _ => Class::Blunder,
        }
    }
}

/// A move's accuracy from the men it lost: 100 · e^(−loss / 2 men).
pub fn move_accuracy(loss: i32) -> f64 {
    100.0 * (-(f64::from(loss.max(0)) / 100.0) / 2.0).exp()
}

/// What the search said about one position: its score for the side to move (centimen, capped
/// at ±[`SCORE_CAP`]) and the best move.
#[derive(Clone, Debug)]
pub struct PositionEval<V: Variant = Emergo> {
    pub score: i32,
    pub best: Option<MoveOf<V>>,
    pub depth: u32,
}

/// One move of the review.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlyReview {
    /// The move played (N1).
    #[serde(rename = "move")]
    pub mv: String,
    /// The evaluation after the move, for White, in centimen.
    pub score: i32,
    /// The engine's best move in the position before (N1), and its squares for the arrow.
    pub best: Option<String>,
    pub best_path: Vec<String>,
    /// The centimen the move lost against the engine's best.
    pub loss: i32,
    pub class: Class,
}

/// A done review, as stored and answered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Review {
    /// The depth most positions were searched to.
    pub depth: u32,
    /// The evaluation of the start position, for White, in centimen.
    pub start_score: i32,
    pub plies: Vec<PlyReview>,
    /// Mean move accuracy per player, 0..100, one decimal (null for a side with no move).
    pub accuracy: Accuracy,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Accuracy {
    pub white: Option<f64>,
    pub black: Option<f64>,
}

pub fn capped(score: i32) -> i32 {
    if score.abs() >= MATE - 1000 {
        score.signum() * SCORE_CAP
    } else {
        score.clamp(-SCORE_CAP, SCORE_CAP)
    }
}

/// Searches one position to [`REVIEW_DEPTH`] (within [`POSITION_TIME`], or until `stop`).
pub fn evaluate<V: Variant>(player: &mut AlphaBetaPlayer, game: &GameOf<V>) -> PositionEval<V> {
    let limits = Limits {
        depth: Some(REVIEW_DEPTH),
        movetime: Some(POSITION_TIME),
        ..Limits::default()
    };
    let result = player.analyse(game, &limits, |_| {});
    PositionEval {
        score: capped(result.score),
        best: result.best,
        depth: result.depth,
    }
}

/// The review of `game` from the evaluations of its positions (`evals[k]` of the position
/// before move `k`, and one more for the last position).
pub fn build<V: Variant>(game: &GameOf<V>, evals: &[PositionEval<V>]) -> Review {
    let positions = game.positions();
    let white = |k: usize| {
        let s = evals.get(k).map_or(0, |e| e.score);
        if positions[k].turn() == Color::White {
            s
        } else {
            -s
        }
    };
    let mut plies = Vec::with_capacity(game.ply());
    let mut sums = [(0.0f64, 0u32); 2];
    for (k, mv) in game.moves().iter().enumerate() {
        let mover = positions[k].turn();
        let sign = if mover == Color::White { 1 } else { -1 };
        let before = sign * white(k);
        let after = sign * white(k + 1);
        let loss = (before - after).max(0);
        let best = evals.get(k).and_then(|e| e.best);
        let only = positions[k].legal_moves().len() == 1;
        let class = Class::of(loss, best == Some(*mv) || only);
        let side = &mut sums[usize::from(mover == Color::Black)];
        side.0 += move_accuracy(if class == Class::Best { 0 } else { loss });
        side.1 += 1;
        plies.push(PlyReview {
            mv: mv.to_string(),
            score: white(k + 1),
            best: best.map(|m| m.to_string()),
            best_path: best.map(|m| MoveView::of(&m).passed).unwrap_or_default(),
            loss,
            class,
        });
    }
    let mean = |(sum, n): (f64, u32)| (n > 0).then(|| (sum / f64::from(n) * 10.0).round() / 10.0);
    Review {
        depth: median_depth(evals),
        start_score: white(0),
        plies,
        accuracy: Accuracy {
            white: mean(sums[0]),
            black: mean(sums[1]),
        },
    }
}

/// The depth most searches reached (the median over the positions that have a move; a
/// position with one legal move, or a search cut short under load, stops earlier).
pub fn median_depth<V: Variant>(evals: &[PositionEval<V>]) -> u32 {
    let mut depths: Vec<u32> = evals
        .iter()
        .filter(|e| e.best.is_some())
        .map(|e| e.depth)
        .collect();
    depths.sort_unstable();
    depths.get(depths.len() / 2).copied().unwrap_or(0)
}

/// The moves a review is of, as stored beside it: a stored review of other moves (a game taken
/// back since) is not this game's.
pub fn moves_key(game: &AnyGame) -> String {
    game.move_texts().join(" ")
}

/// How far a running review is.
pub struct Progress {
    pub done: AtomicUsize,
    pub total: usize,
}

impl Progress {
    pub fn fraction(&self) -> f64 {
        let done = self.done.load(Ordering::SeqCst) as f64;
        ((done / self.total.max(1) as f64) * 1000.0).round() / 1000.0
    }
}

/// A review asked for and not begun: the game, who asked, its progress to be.
pub struct Queued {
    pub id: String,
    pub client: IpAddr,
    pub game: AnyGame,
    pub progress: Arc<Progress>,
}

/// Where a review is: running, or waiting at a place of the queue (1: the next to begin).
pub enum Place {
    Running(Arc<Progress>),
    Queued(usize),
}

#[derive(Default)]
pub struct Board {
    /// The reviews running, by game id, with the client that asked.
    pub running: HashMap<String, (IpAddr, Arc<Progress>)>,
    /// The reviews waiting, first asked first.
    pub queued: VecDeque<Queued>,
}

impl Board {
    pub fn place(&self, id: &str) -> Option<Place> {
        if let Some((_, progress)) = self.running.get(id) {
            return Some(Place::Running(progress.clone()));
        }
        self.queued
            .iter()
            .position(|q| q.id == id)
            .map(|i| Place::Queued(i + 1))
    }

    /// The reviews that may begin now: while a slot is free, the first waiting one whose client
    /// has none running.
    pub fn startable(&mut self) -> Vec<Queued> {
        let mut begin = Vec::new();
        while self.running.len() < REVIEWS_AT_ONCE {
            let busy = |client: &IpAddr| self.running.values().any(|(c, _)| c == client);
            let Some(i) = self.queued.iter().position(|q| !busy(&q.client)) else {
                break;
            };
            let Some(next) = self.queued.remove(i) else {
                break;
            };
            self.running
                .insert(next.id.clone(), (next.client, next.progress.clone()));
            begin.push(next);
        }
        begin
    }
}

/// The reviews of this server: at most [`REVIEWS_AT_ONCE`] run, one per client at a time
/// (issue 17, item 8); the others wait in a queue of at most [`REVIEW_QUEUE`] (and
/// [`REVIEW_QUEUE_PER_CLIENT`] from one client), first asked first, each told its place.
#[derive(Default)]
pub struct Reviews {
    pub board: Mutex<Board>,
}

impl Reviews {
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Board> {
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn place(&self, id: &str) -> Option<Place> {
        self.lock().place(id)
    }

    /// Queues the review of `game` (of `id`) for `client` unless it is running or queued
    /// already; returns its place and the reviews that may begin now.
    pub fn ask(
        &self,
        id: &str,
        client: IpAddr,
        game: &AnyGame,
    ) -> Result<(Place, Vec<Queued>), ServiceError> {
        let mut board = self.lock();
        if let Some(place) = board.place(id) {
            return Ok((place, Vec::new()));
        }
        if board.queued.len() >= REVIEW_QUEUE {
            return Err(ServiceError::EngineBusy(format!(
                "{} reviews are waiting already; try again later",
                board.queued.len()
            )));
        }
        let mine = board.queued.iter().filter(|q| q.client == client).count();
        if mine >= REVIEW_QUEUE_PER_CLIENT {
            return Err(ServiceError::EngineBusy(format!(
                "this address has {mine} reviews waiting already; try again once they are done"
            )));
        }
        board.queued.push_back(Queued {
            id: id.to_string(),
            client,
            game: game.clone(),
            progress: Arc::new(Progress {
                done: AtomicUsize::new(0),
                total: game.ply() + 1,
            }),
        });
        let begin = board.startable();
        let place = board
            .place(id)
            .ok_or_else(|| ServiceError::internal("a review queued and lost"))?;
        Ok((place, begin))
    }

    /// The review of `id` is over: returns the reviews that may begin now.
    pub fn end(&self, id: &str) -> Vec<Queued> {
        let mut board = self.lock();
        board.running.remove(id);
        board.startable()
    }
}

/// The answer of both endpoints.
#[derive(Serialize)]
pub struct ReviewAnswer {
    pub status: &'static str,
    pub progress: f64,
    /// While it waits: its place in the queue (1: the next to begin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<usize>,
    #[serde(flatten)]
    pub review: Option<Review>,
}

pub fn waiting(place: &Place) -> ReviewAnswer {
    match place {
        Place::Running(progress) => ReviewAnswer {
            status: "running",
            progress: progress.fraction(),
            place: None,
            review: None,
        },
        Place::Queued(place) => ReviewAnswer {
            status: "queued",
            progress: 0.0,
            place: Some(*place),
            review: None,
        },
    }
}

pub fn done(review: Review) -> ReviewAnswer {
    ReviewAnswer {
        status: "done",
        progress: 1.0,
        place: None,
        review: Some(review),
    }
}

/// The game of `id` if it may be reviewed: finished, or imported (on any board: the engine
/// searches each position on the game's own board).
pub async fn reviewable(state: &AppState, id: &str) -> Result<AnyGame, ServiceError> {
    let slot = state.slot(id).await?;
    let live = slot.state.lock().await;
    if live.meta.mode != Mode::Imported && live.game.status() == Status::Ongoing {
        return Err(ServiceError::NotAllowed(
            "a game is reviewed once it is over (or imported)".to_string(),
        ));
    }
    Ok(live.game.clone())
}

/// The stored review of `game`, if it is of its moves.
pub async fn stored(
    state: &AppState,
    id: &str,
    game: &AnyGame,
) -> Result<Option<Review>, ServiceError> {
    let Some((key, text)) = state.store.review(id).await? else {
        return Ok(None);
    };
    if key != moves_key(game) {
        return Ok(None);
    }
    Ok(serde_json::from_str(&text).ok())
}

/// Runs a review that may begin, stores it, and begins the ones its end lets begin.
pub fn launch(state: AppState, reviews: Arc<Reviews>, review: Queued) {
    tokio::spawn(async move {
        let Queued {
            id, game, progress, ..
        } = review;
        match run(&state, &game, &progress).await {
            Ok(review) => {
                let text = serde_json::to_string(&review).unwrap_or_default();
                let key = moves_key(&game);
                if let Err(err) = state.store.put_review(&id, &key, &text, &now_text()).await {
                    tracing::warn!("the review of game {id} could not be stored: {err}");
                }
            }
            Err(err) => tracing::warn!("the review of game {id} stopped: {err}"),
        }
        for next in reviews.end(&id) {
            launch(state.clone(), reviews.clone(), next);
        }
    });
}

/// Searches every position of `game` on its board, one engine job each. The engine is built by
/// the first job, on the engine's threads.
pub async fn run(
    state: &AppState,
    game: &AnyGame,
    progress: &Progress,
) -> Result<Review, PoolError> {
    any_game!(game, g => run_on(state, g, progress).await)
}

async fn run_on<V: Variant>(
    state: &AppState,
    game: &GameOf<V>,
    progress: &Progress,
) -> Result<Review, PoolError> {
    // The engine's stop flag is each job's: the pool sets it to shorten a search under load.
    let stop = Arc::new(AtomicBool::new(false));
    let player: Arc<Mutex<Option<AlphaBetaPlayer>>> = Arc::default();
    let mut evals = Vec::with_capacity(game.ply() + 1);
    let mut prefix = GameOf::new(*game.start());
    for k in 0..=game.ply() {
        let eval = loop {
            stop.store(false, Ordering::SeqCst);
            let job_player = player.clone();
            let job_stop = stop.clone();
            let job_game = prefix.clone();
            let job = move || {
                let mut searcher = job_player.lock().unwrap_or_else(|e| e.into_inner());
                let searcher = searcher.get_or_insert_with(|| {
                    AlphaBetaPlayer::new(Level::MAX).with_stop_flag(job_stop)
                });
                evaluate(searcher, &job_game)
            };
            match state.pool.run(REVIEW_CLIENT, stop.clone(), job).await {
                Ok(eval) => break eval,
                // The queue is full: a review waits its turn rather than failing.
                Err(PoolError::Busy(_)) => tokio::time::sleep(Duration::from_millis(250)).await,
                Err(err) => return Err(err),
            }
        };
        evals.push(eval);
        progress.done.store(k + 1, Ordering::SeqCst);
        if let Some(&mv) = game.moves().get(k) {
            prefix
                .play(mv)
                .map_err(|e| PoolError::Failed(format!("replaying the game: {e}")))?;
        }
    }
    let game = game.clone();
    tokio::task::spawn_blocking(move || build(&game, &evals))
        .await
        .map_err(|e| PoolError::Failed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_documented_thresholds_in_men() {
        assert_eq!(Class::of(500, true), Class::Best);
        assert_eq!(Class::of(5, false), Class::Best);
        assert_eq!(Class::of(29, false), Class::Good);
        assert_eq!(Class::of(30, false), Class::Inaccuracy);
        assert_eq!(Class::of(80, false), Class::Mistake);
        assert_eq!(Class::of(199, false), Class::Mistake);
        assert_eq!(Class::of(200, false), Class::Blunder);
    }

    #[test]
    fn accuracy_is_100_for_no_loss_and_falls_by_e_every_two_men() {
        assert_eq!(move_accuracy(0), 100.0);
        assert!((move_accuracy(200) - 100.0 / std::f64::consts::E).abs() < 1e-9);
        assert!(move_accuracy(1000) < 1.0);
    }

    #[test]
    fn forced_results_count_as_ten_men() {
        assert_eq!(capped(MATE - 7), SCORE_CAP);
        assert_eq!(capped(-(MATE - 3)), -SCORE_CAP);
        assert_eq!(capped(250), 250);
        assert_eq!(capped(5000), SCORE_CAP);
    }

    #[test]
    fn a_game_is_reviewed_move_by_move_with_scores_for_white() {
        let mut game = Game::default();
        for text in ["d3", "a5", "f2", "b6"] {
            let mv = game.position().parse_move(text).expect("legal");
            game.play(mv).expect("plays");
        }
        let mut player = AlphaBetaPlayer::new(Level::MAX);
        let mut evals = Vec::new();
        let mut prefix = Game::new(*game.start());
        for k in 0..=game.ply() {
            evals.push(evaluate(&mut player, &prefix));
            if let Some(&mv) = game.moves().get(k) {
                prefix.play(mv).expect("plays");
            }
        }
        let review = build(&game, &evals);
        assert_eq!(review.plies.len(), 4);
        assert_eq!(review.plies[0].mv, "d3");
        for (k, ply) in review.plies.iter().enumerate() {
            let best = ply.best.as_deref().expect("a best move");
            assert!(!ply.best_path.is_empty());
            if ply.best.as_deref() == Some(ply.mv.as_str()) {
                assert_eq!(ply.class, Class::Best, "ply {k}");
            }
            assert!(ply.loss >= 0);
            let _ = best;
        }
        assert!(review.accuracy.white.is_some() && review.accuracy.black.is_some());
        assert!(review.depth >= 1);
    }

    /// The figure of docs/web.md ("Game review"): the review of a 120-ply game, one position
    /// after the other on one thread as the server's worker does, at [`REVIEW_DEPTH`]. Run:
    /// `cargo test -p emergo-server --lib review_time -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn review_time_of_a_120_ply_game() {
        use emergo_engine::Player;
        let mut game = Game::default();
        let mut seed = 1;
        while game.ply() < 120 {
            let mut player = AlphaBetaPlayer::new(Level::MIN).with_seed(seed);
            match player.choose_move(&game, &Limits::depth(3)) {
                Some(mv) if !game.is_over() => game.play(mv).expect("legal"),
                _ => {
                    game = Game::default();
                    seed += 1;
                }
            }
        }
        let started = std::time::Instant::now();
        let mut player = AlphaBetaPlayer::new(Level::MAX);
        let mut evals = Vec::new();
        let mut prefix = Game::new(*game.start());
        for k in 0..=game.ply() {
            evals.push(evaluate(&mut player, &prefix));
            if let Some(&mv) = game.moves().get(k) {
                prefix.play(mv).expect("plays");
            }
        }
        let review = build(&game, &evals);
        let took = started.elapsed();
        println!(
            "review of a {}-ply game at depth {REVIEW_DEPTH}: {:.1} s (median depth {}, accuracy {:?})",
            game.ply(),
            took.as_secs_f64(),
            review.depth,
            review.accuracy
        );
    }
}
