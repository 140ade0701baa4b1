//! The engine's moves and hints, computed on a bounded pool of worker threads so that no search
//! ever runs on the async runtime: a semaphore with one permit per worker, and the search itself
//! on tokio's blocking threads, which only a permit holder may use.

use emergo_core::{Game, Move};
use emergo_engine::{AlphaBetaPlayer, Limits, Player};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Time per engine move at levels 1..=10, in milliseconds.
pub const MOVETIME_MS: [u64; 10] = [100, 150, 200, 300, 400, 500, 700, 1000, 1400, 2000];

/// The time the engine may spend on a move at `level` (clamped to 1..=10).
pub fn movetime(level: u8) -> Duration {
    let i = usize::from(level.clamp(1, 10)) - 1;
    Duration::from_millis(MOVETIME_MS[i])
}

/// Time for a hint, which the engine computes at full strength (level 10).
pub const HINT_TIME: Duration = Duration::from_millis(500);

/// The player behind a level: the alpha-beta search with the level's depth, node and noise
/// settings, seeded afresh for every move.
fn player(level: u8) -> AlphaBetaPlayer {
    AlphaBetaPlayer::new(level).with_seed(seed())
}

fn seed() -> u64 {
    let mut buf = [0u8; 8];
    let _ = getrandom::fill(&mut buf);
    u64::from_le_bytes(buf)
}

/// The engine's move in `game` at `level`; `None` when there is no legal move.
pub fn choose_move(game: &Game, level: u8) -> Option<Move> {
    player(level).choose_move(game, &Limits::movetime(movetime(level)))
}

/// The engine's best move for the side to move and its score (for that side, in centimen):
/// the hint, searched at full strength for [`HINT_TIME`].
pub fn hint(game: &Game) -> Option<(Move, i32)> {
    let result = player(10).analyse(game, &Limits::movetime(HINT_TIME), |_| {});
    result.best.map(|mv| (mv, result.score))
}

/// The bounded pool.
#[derive(Clone)]
pub struct EnginePool {
    permits: Arc<Semaphore>,
    workers: usize,
}

impl EnginePool {
    /// A pool of `workers` threads (at least one).
    pub fn new(workers: usize) -> EnginePool {
        let workers = workers.max(1);
        EnginePool {
            permits: Arc::new(Semaphore::new(workers)),
            workers,
        }
    }

    /// One worker per core.
    pub fn per_core() -> EnginePool {
        EnginePool::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Runs `job` on a worker when one is free; waits (without blocking the runtime) until then.
    pub async fn run<T, F>(&self, job: F) -> Result<T, PoolError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| PoolError::Closed)?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            job()
        })
        .await
        .map_err(|e| PoolError::Failed(e.to_string()))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("the engine pool is closed")]
    Closed,
    #[error("an engine job failed: {0}")]
    Failed(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn time_per_move_grows_with_the_level() {
        assert_eq!(movetime(1), Duration::from_millis(100));
        assert_eq!(movetime(10), Duration::from_secs(2));
        assert_eq!(movetime(0), movetime(1));
        assert_eq!(movetime(11), movetime(10));
        assert!(MOVETIME_MS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn the_engine_plays_and_hints_legal_moves() {
        let game = Game::default();
        let mv = choose_move(&game, 1).expect("the start has moves");
        assert!(game.position().legal_moves().contains(&mv));
        let (hint, _) = hint(&game).expect("the start has moves");
        assert!(game.position().legal_moves().contains(&hint));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_pool_never_runs_more_jobs_than_it_has_workers() {
        let pool = EnginePool::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut jobs = Vec::new();
        for _ in 0..8 {
            let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
            jobs.push(tokio::spawn(async move {
                pool.run(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                })
                .await
            }));
        }
        for job in jobs {
            job.await.expect("joined").expect("ran");
        }
        let most = most.load(Ordering::SeqCst);
        assert!((1..=2).contains(&most), "{most} jobs at once");
    }
}
