//! The engine's moves and hints, computed on a bounded pool of worker threads so that no search
//! ever runs on the async runtime, with a time limit per move by level.

use emergo_core::{Game, Move};
use emergo_engine::{AlphaBetaPlayer, Limits, Player};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

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

/// The engine's move in `game` at `level`; `None` when there is no legal move. Setting `cancel`
/// (a takeback, a resignation) ends the search at once; its move is then not wanted.
pub fn choose_move(game: &Game, level: u8, cancel: Arc<AtomicBool>) -> Option<Move> {
    player(level)
        .with_stop_flag(cancel)
        .choose_move(game, &Limits::movetime(movetime(level)))
}

/// The engine's best move for the side to move and its score (for that side, in centimen):
/// the hint, searched at full strength for [`HINT_TIME`].
pub fn hint(game: &Game) -> Option<(Move, i32)> {
    let result = player(10).analyse(game, &Limits::movetime(HINT_TIME), |_| {});
    result.best.map(|mv| (mv, result.score))
}

type Job = Box<dyn FnOnce() + Send + 'static>;

/// The bounded pool: a fixed number of worker threads, started once, that run one search each
/// at a time. Jobs wait in a queue; the async side awaits the answer without blocking. The
/// workers run at a lower scheduling priority (nice 10 on Linux), so that when every core is
/// searching, the threads that answer people still get the processor at once.
#[derive(Clone)]
pub struct EnginePool {
    jobs: std::sync::mpsc::Sender<Job>,
    workers: usize,
}

/// How much lower the workers' priority is than the server's other threads.
pub const WORKER_NICE: i32 = 10;

impl EnginePool {
    /// A pool of `workers` threads (at least one).
    pub fn new(workers: usize) -> EnginePool {
        let workers = workers.max(1);
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..workers {
            let queue = queue.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("engine-{i}"))
                .spawn(move || {
                    lower_priority();
                    loop {
                        // The lock is held only while waiting for the next job.
                        let job = match queue.lock() {
                            Ok(queue) => queue.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return, // the pool is gone
                        }
                    }
                });
            if let Err(err) = spawned {
                tracing::error!("cannot start engine worker {i}: {err}");
            }
        }
        EnginePool { jobs, workers }
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
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            let _ =
                answer.send(result.map_err(|_| PoolError::Failed("the search panicked".into())));
        });
        self.jobs.send(job).map_err(|_| PoolError::Closed)?;
        answered.await.map_err(|_| PoolError::Closed)?
    }
}

/// Lowers the calling thread's scheduling priority (Linux: per-thread nice value).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority have no memory effects; a failure only leaves the priority.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid, WORKER_NICE);
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
        let mv = choose_move(&game, 1, Arc::default()).expect("the start has moves");
        assert!(game.position().legal_moves().contains(&mv));
        let (hint, _) = hint(&game).expect("the start has moves");
        assert!(game.position().legal_moves().contains(&hint));
    }

    #[test]
    fn a_cancelled_search_ends_long_before_its_time_is_up() {
        // Level 10 may think for 2 s; a takeback 50 ms in frees the worker at once.
        let cancel = Arc::new(AtomicBool::new(false));
        let setter = {
            let cancel = cancel.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                cancel.store(true, Ordering::SeqCst);
            })
        };
        let started = std::time::Instant::now();
        let _ = choose_move(&Game::default(), 10, cancel);
        let took = started.elapsed();
        setter.join().expect("the setter ends");
        assert!(took < movetime(10) / 2, "the search went on for {took:?}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panicking_job_is_an_error_and_the_pool_goes_on() {
        let pool = EnginePool::new(1);
        let failed = pool.run(|| -> u8 { panic!("a bad search") }).await;
        assert!(matches!(failed, Err(PoolError::Failed(_))));
        assert_eq!(pool.run(|| 7).await.expect("the worker lives"), 7);
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
