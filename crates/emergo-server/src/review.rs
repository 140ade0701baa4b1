//! Game review (issue 12): every position of a finished (or imported) game searched to a fixed
//! depth as low-priority jobs of the engine's fair queue, each move classified by the men it
//! lost, an accuracy per player; the result stored with the game so the second look is instant.
//!
//! `POST /api/games/{id}/review` starts one (202), `GET /api/games/{id}/review` says how far it
//! is and, once done, gives it. docs/web.md ("Game review") documents the depth, the
//! thresholds and the accuracy formula.

use crate::engine::PoolError;
use crate::error::ApiError;
use crate::live::AppState;
use crate::model::{now_text, Mode};
use crate::routes::GameId;
use crate::view::MoveView;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use emergo_core::{Color, Game, Move, Status};
use emergo_engine::search::MATE;
use emergo_engine::{AlphaBetaPlayer, Level, Limits};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The depth every position is searched to.
pub const REVIEW_DEPTH: u32 = 8;

/// The most time one position may take, whatever the depth reached by then.
pub const POSITION_TIME: Duration = Duration::from_millis(1500);

/// Reviews running at once on one server; more are refused with 503 `engine_busy`.
pub const REVIEWS_AT_ONCE: usize = 2;

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
pub struct PositionEval {
    pub score: i32,
    pub best: Option<Move>,
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

fn capped(score: i32) -> i32 {
    if score.abs() >= MATE - 1000 {
        score.signum() * SCORE_CAP
    } else {
        score.clamp(-SCORE_CAP, SCORE_CAP)
    }
}

/// Searches one position to [`REVIEW_DEPTH`] (within [`POSITION_TIME`], or until `stop`).
pub fn evaluate(player: &mut AlphaBetaPlayer, game: &Game) -> PositionEval {
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
pub fn build(game: &Game, evals: &[PositionEval]) -> Review {
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
fn median_depth(evals: &[PositionEval]) -> u32 {
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
pub fn moves_key(game: &Game) -> String {
    let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
    moves.join(" ")
}

/// How far a running review is.
pub struct Progress {
    done: AtomicUsize,
    total: usize,
}

impl Progress {
    fn fraction(&self) -> f64 {
        let done = self.done.load(Ordering::SeqCst) as f64;
        ((done / self.total.max(1) as f64) * 1000.0).round() / 1000.0
    }
}

/// The reviews running on this server, by game id.
#[derive(Default)]
pub struct Reviews {
    running: Mutex<HashMap<String, Arc<Progress>>>,
}

impl Reviews {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Progress>>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn progress(&self, id: &str) -> Option<Arc<Progress>> {
        self.lock().get(id).cloned()
    }

    /// Registers a review of `id` over `total` positions: `None` when too many run already.
    fn begin(&self, id: &str, total: usize) -> Result<Arc<Progress>, ApiError> {
        let mut running = self.lock();
        if let Some(p) = running.get(id) {
            return Ok(p.clone());
        }
        if running.len() >= REVIEWS_AT_ONCE {
            return Err(ApiError::EngineBusy(format!(
                "the engine is reviewing {} games; try again shortly",
                running.len()
            )));
        }
        let progress = Arc::new(Progress {
            done: AtomicUsize::new(0),
            total,
        });
        running.insert(id.to_string(), progress.clone());
        Ok(progress)
    }

    fn end(&self, id: &str) {
        self.lock().remove(id);
    }
}

/// The answer of both endpoints.
#[derive(Serialize)]
pub struct ReviewAnswer {
    status: &'static str,
    progress: f64,
    #[serde(flatten)]
    review: Option<Review>,
}

fn running(progress: &Progress) -> ReviewAnswer {
    ReviewAnswer {
        status: "running",
        progress: progress.fraction(),
        review: None,
    }
}

fn done(review: Review) -> ReviewAnswer {
    ReviewAnswer {
        status: "done",
        progress: 1.0,
        review: Some(review),
    }
}

/// The game of `id` if it may be reviewed: finished, or imported.
async fn reviewable(state: &AppState, id: &str) -> Result<Game, ApiError> {
    let slot = state.slot(id).await?;
    let live = slot.state.lock().await;
    if live.meta.mode != Mode::Imported && live.game.status() == Status::Ongoing {
        return Err(ApiError::NotAllowed(
            "a game is reviewed once it is over (or imported)".to_string(),
        ));
    }
    Ok(live.game.clone())
}

/// The stored review of `game`, if it is of its moves.
async fn stored(state: &AppState, id: &str, game: &Game) -> Result<Option<Review>, ApiError> {
    let Some((key, text)) = state.store.review(id).await? else {
        return Ok(None);
    };
    if key != moves_key(game) {
        return Ok(None);
    }
    Ok(serde_json::from_str(&text).ok())
}

/// `GET /api/games/{id}/review`.
pub async fn show(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> Result<Json<ReviewAnswer>, ApiError> {
    let game = reviewable(&state, &id).await?;
    if let Some(progress) = state.reviews.progress(&id) {
        return Ok(Json(running(&progress)));
    }
    match stored(&state, &id, &game).await? {
        Some(review) => Ok(Json(done(review))),
        None => Err(ApiError::NotFound(
            "this game has no review yet: POST /api/games/{id}/review starts one".to_string(),
        )),
    }
}

/// `POST /api/games/{id}/review`: 202 and the review's progress; 200 with the review when it
/// is done already.
pub async fn start(
    State(state): State<AppState>,
    GameId(id): GameId,
) -> Result<(StatusCode, Json<ReviewAnswer>), ApiError> {
    let game = reviewable(&state, &id).await?;
    if game.ply() > MAX_REVIEW_PLIES {
        return Err(ApiError::TooLarge {
            cap: "review_plies",
            message: format!("a review takes games of at most {MAX_REVIEW_PLIES} plies"),
        });
    }
    if let Some(progress) = state.reviews.progress(&id) {
        return Ok((StatusCode::ACCEPTED, Json(running(&progress))));
    }
    if let Some(review) = stored(&state, &id, &game).await? {
        return Ok((StatusCode::OK, Json(done(review))));
    }
    let progress = state.reviews.begin(&id, game.ply() + 1)?;
    let answer = running(&progress);
    let task_state = state.clone();
    tokio::spawn(async move {
        let outcome = run(&task_state, &game, &progress).await;
        match outcome {
            Ok(review) => {
                let text = serde_json::to_string(&review).unwrap_or_default();
                let key = moves_key(&game);
                if let Err(err) = task_state
                    .store
                    .put_review(&id, &key, &text, &now_text())
                    .await
                {
                    tracing::warn!("the review of game {id} could not be stored: {err}");
                }
            }
            Err(err) => tracing::warn!("the review of game {id} stopped: {err}"),
        }
        task_state.reviews.end(&id);
    });
    Ok((StatusCode::ACCEPTED, Json(answer)))
}

/// Searches every position of `game`, one engine job each.
async fn run(state: &AppState, game: &Game, progress: &Progress) -> Result<Review, PoolError> {
    let player = AlphaBetaPlayer::new(Level::MAX);
    // The player's own stop flag is each job's: the pool sets it to shorten a search under load.
    let stop = player.stop_flag();
    let player = Arc::new(Mutex::new(player));
    let mut evals = Vec::with_capacity(game.ply() + 1);
    let mut prefix = Game::new(*game.start());
    for k in 0..=game.ply() {
        let eval = loop {
            stop.store(false, Ordering::SeqCst);
            let job_player = player.clone();
            let job_game = prefix.clone();
            let job = move || {
                let mut searcher = job_player.lock().unwrap_or_else(|e| e.into_inner());
                evaluate(&mut searcher, &job_game)
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
