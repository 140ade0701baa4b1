//! The engine's moves and hints, computed on a bounded, fair pool of worker threads so that no
//! search ever runs on the async runtime, with a time limit per move by level.

use emergo_core::{any_game, AnyGame, AnyMove, IntoAnyMove};
use emergo_engine::{AlphaBetaPlayer, Level, Limits, Player};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Time for a hint, which the engine computes at full strength (level 10).
pub const HINT_TIME: Duration = Duration::from_millis(500);

/// The player behind a level: the alpha-beta search with the level's depth, node and noise
/// settings, seeded afresh for every move.
fn player(level: Level) -> AlphaBetaPlayer {
    AlphaBetaPlayer::new(level).with_seed(seed())
}

fn seed() -> u64 {
    let mut buf = [0u8; 8];
    let _ = getrandom::fill(&mut buf);
    u64::from_le_bytes(buf)
}

/// The engine's move in `game` at `level`, on the game's board; `None` when there is no legal
/// move. Setting `cancel` (a takeback, a resignation) ends the search at once; its move is then
/// not wanted.
pub fn choose_move(game: &AnyGame, level: Level, cancel: Arc<AtomicBool>) -> Option<AnyMove> {
    let mut player = player(level).with_stop_flag(cancel);
    let limits = Limits::movetime(level.movetime());
    // The book shipped for the board: a level under the top uses it in
    // some games only, chosen afresh each move (a process-random seed, so that games differ).
    let seed = std::hash::BuildHasher::hash_one(
        &std::collections::hash_map::RandomState::new(),
        game.ply(),
    );
    any_game!(game, g => emergo_engine::book::Book::shipped()
        .choose(g.position(), level, seed)
        .or_else(|| player.choose_move(g, &limits))
        .map(IntoAnyMove::into_any))
}

/// The engine's best move for the side to move and its score (for that side, in centimen):
/// the hint, searched at full strength for [`HINT_TIME`] or until `stop` is set (the request
/// went away, or the pool needs the worker).
pub fn hint(game: &AnyGame, stop: Arc<AtomicBool>) -> Option<(AnyMove, i32)> {
    let mut player = player(Level::MAX).with_stop_flag(stop);
    let limits = Limits::movetime(HINT_TIME);
    any_game!(game, g => {
        let result = player.analyse(g, &limits, |_| {});
        result.best.map(|mv| (mv.into_any(), result.score))
    })
}

/// Who asked for an engine job: the client address the pool shares its time between.
pub type Client = IpAddr;

/// How long a search may run while jobs wait for a worker: past this, the pool sets the
/// search's stop flag and the search answers with the best move it has found.
pub const SLICE_UNDER_LOAD: Duration = Duration::from_millis(200);

/// How fast a client's used engine time is forgotten (halved every this often).
const USE_HALF_LIFE: Duration = Duration::from_secs(10);

type Work = Box<dyn FnOnce() + Send + 'static>;

struct Job {
    client: Client,
    stop: Arc<AtomicBool>,
    work: Work,
    queued: Instant,
}

struct Running {
    stop: Arc<AtomicBool>,
    started: Instant,
}

/// The queue the workers share.
#[derive(Default)]
struct Queue {
    /// Waiting jobs, first come first served within a client.
    waiting: HashMap<Client, VecDeque<Job>>,
    waiting_len: usize,
    /// Jobs waiting or running, by client.
    open: HashMap<Client, usize>,
    /// Engine time each client used lately, in milliseconds, and when that was last updated.
    used: HashMap<Client, (f64, Instant)>,
    /// The job each worker runs.
    running: Vec<Option<Running>>,
    closed: bool,
}

impl Queue {
    fn used(&self, client: &Client, now: Instant) -> f64 {
        self.used
            .get(client)
            .map_or(0.0, |&(ms, at)| decay(ms, now - at))
    }

    /// The next job: the oldest of the waiting client that used the least engine time lately.
    fn next(&mut self) -> Option<Job> {
        let now = Instant::now();
        let client = *self
            .waiting
            .keys()
            .min_by(|a, b| self.used(a, now).total_cmp(&self.used(b, now)))?;
        let jobs = self.waiting.get_mut(&client)?;
        let job = jobs.pop_front();
        if jobs.is_empty() {
            self.waiting.remove(&client);
        }
        self.waiting_len -= usize::from(job.is_some());
        job
    }

    fn finished(&mut self, client: Client, took: Duration) {
        let now = Instant::now();
        let ms = self.used(&client, now) + took.as_secs_f64() * 1000.0;
        self.used.insert(client, (ms, now));
        if let Some(n) = self.open.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.open.remove(&client);
            }
        }
        if self.used.len() > 4 * self.open.len() + 64 {
            // Forget clients whose use has faded.
            self.used.retain(|_, (ms, at)| decay(*ms, now - *at) > 1.0);
        }
    }
}

fn decay(ms: f64, age: Duration) -> f64 {
    ms * 0.5f64.powf(age.as_secs_f64() / USE_HALF_LIFE.as_secs_f64())
}

struct PoolShared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Jobs waiting or running, all together and from one client.
    max_open: usize,
    max_per_client: usize,
}

impl PoolShared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The engine's worker pool: a fixed number of threads, started once, that run one search each
/// at a time, so that no search ever runs on the async runtime. Its interface is [`run`] (with
/// [`has_room`] to ask first); a queue kept elsewhere (a database) can stand beside it.
///
/// Fair and bounded (docs/web.md, "The engine's queue"):
/// - Jobs are grouped by client (the address that asked). A free worker takes the oldest job of
///   the waiting client that used the least engine time lately (decaying with a half-life of
///   10 s), so a person asking for one reply goes before a client with a pile of searches.
/// - While jobs wait, a search that has run [`SLICE_UNDER_LOAD`] is told to stop and answers
///   with the best move found so far: under load, searches get shorter.
/// - At most `max_open` jobs wait or run, and `max_per_client` from one client: beyond that
///   [`run`] answers [`PoolError::Busy`] at once (the API's 503 `engine_busy`).
/// - A job whose stop flag is set before it starts (a takeback, a hint whose request went away)
///   runs only to see the flag and return.
///
/// The workers run at a lower scheduling priority (nice 10 on Linux), so that when every core
/// is searching, the threads that answer people still get the processor at once.
///
/// [`run`]: EnginePool::run
/// [`has_room`]: EnginePool::has_room
#[derive(Clone)]
pub struct EnginePool {
    shared: Arc<PoolShared>,
    workers: usize,
}

/// How much lower the workers' priority is than the server's other threads.
pub const WORKER_NICE: i32 = 10;

impl EnginePool {
    /// A pool of `workers` threads, with room for `max_open` jobs, of which `max_per_client`
    /// from one client. A pool of no threads (`emergo serve --engine-threads 0` with PostgreSQL,
    /// where `emergo worker` processes search) answers every job [`PoolError::Busy`].
    pub fn new(workers: usize, max_open: usize, max_per_client: usize) -> EnginePool {
        let shared = Arc::new(PoolShared {
            queue: Mutex::new(Queue {
                running: (0..workers).map(|_| None).collect(),
                ..Queue::default()
            }),
            ready: Condvar::new(),
            max_open: max_open.max(1),
            max_per_client: max_per_client.max(1),
        });
        for i in 0..workers {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("engine-{i}"))
                .spawn(move || {
                    lower_priority();
                    work(&shared, i);
                });
            if let Err(err) = spawned {
                tracing::error!("cannot start engine worker {i}: {err}");
            }
        }
        if workers == 0 {
            return EnginePool { shared, workers };
        }
        let watcher = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("engine-slicer".into())
            .spawn(move || slice(&watcher));
        if let Err(err) = spawned {
            tracing::error!("cannot start the engine's slicer: {err}");
        }
        EnginePool { shared, workers }
    }

    /// One worker per core, with the given bounds.
    pub fn per_core(max_open: usize, max_per_client: usize) -> EnginePool {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        EnginePool::new(cores, max_open, max_per_client)
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Jobs waiting for a worker now.
    pub fn waiting(&self) -> usize {
        self.shared.lock().waiting_len
    }

    /// Whether a job from `client` would be taken now.
    pub fn has_room(&self, client: Client) -> Result<(), PoolError> {
        let queue = self.shared.lock();
        self.room(&queue, client)
    }

    fn room(&self, queue: &Queue, client: Client) -> Result<(), PoolError> {
        if self.workers == 0 {
            return Err(PoolError::Busy(
                "this server runs no engine search of its own".to_string(),
            ));
        }
        let open: usize = queue.open.values().sum();
        if open >= self.shared.max_open {
            return Err(PoolError::Busy(format!(
                "the engine has {open} searches to do; try again shortly"
            )));
        }
        if queue.open.get(&client).copied().unwrap_or(0) >= self.shared.max_per_client {
            return Err(PoolError::Busy(format!(
                "the engine is already searching {} times for this address; try again shortly",
                self.shared.max_per_client
            )));
        }
        Ok(())
    }

    /// Runs `job` for `client` on a worker when its turn comes; waits (without blocking the
    /// runtime) until then. `stop` is the job's stop flag: the job must end soon once it is
    /// set (the searches watch it), and the pool sets it to shorten searches under load.
    pub async fn run<T, F>(
        &self,
        client: Client,
        stop: Arc<AtomicBool>,
        job: F,
    ) -> Result<T, PoolError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let work: Work = Box::new(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            let _ =
                answer.send(result.map_err(|_| PoolError::Failed("the search panicked".into())));
        });
        {
            let mut queue = self.shared.lock();
            if queue.closed {
                return Err(PoolError::Closed);
            }
            self.room(&queue, client)?;
            *queue.open.entry(client).or_default() += 1;
            queue.waiting.entry(client).or_default().push_back(Job {
                client,
                stop,
                work,
                queued: Instant::now(),
            });
            queue.waiting_len += 1;
            metrics::gauge!(emergo_platform::domain::metrics::ENGINE_QUEUE_LENGTH)
                .set(queue.waiting_len as f64);
        }
        self.shared.ready.notify_one();
        answered.await.map_err(|_| PoolError::Closed)?
    }

    /// Ends the workers once the jobs taken are done; queued jobs are dropped.
    pub fn close(&self) {
        let mut queue = self.shared.lock();
        queue.closed = true;
        queue.waiting.clear();
        queue.waiting_len = 0;
        drop(queue);
        self.shared.ready.notify_all();
    }
}

/// A worker: takes the next job, runs it, counts its time.
fn work(shared: &PoolShared, slot: usize) {
    loop {
        let job = {
            let mut queue = shared.lock();
            loop {
                if queue.closed {
                    return;
                }
                if let Some(job) = queue.next() {
                    metrics::gauge!(emergo_platform::domain::metrics::ENGINE_QUEUE_LENGTH)
                        .set(queue.waiting_len as f64);
                    metrics::histogram!(emergo_platform::domain::metrics::ENGINE_WAIT_SECONDS)
                        .record(job.queued.elapsed().as_secs_f64());
                    queue.running[slot] = Some(Running {
                        stop: job.stop.clone(),
                        started: Instant::now(),
                    });
                    break job;
                }
                queue = shared.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        let started = Instant::now();
        let client = job.client;
        (job.work)();
        let mut queue = shared.lock();
        queue.running[slot] = None;
        queue.finished(client, started.elapsed());
    }
}

/// While jobs wait, stops the searches that have had their slice.
fn slice(shared: &PoolShared) {
    loop {
        std::thread::sleep(Duration::from_millis(20));
        let queue = shared.lock();
        if queue.closed {
            return;
        }
        if queue.waiting_len == 0 {
            continue;
        }
        for running in queue.running.iter().flatten() {
            if running.started.elapsed() >= SLICE_UNDER_LOAD {
                running.stop.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// Lowers the calling thread's scheduling priority (Linux: per-thread nice value).
#[allow(unsafe_code)]
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
    #[error("{0}")]
    Busy(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    const A: Client = IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 2));
    const B: Client = IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 3));

    #[test]
    fn the_engine_plays_and_hints_legal_moves_on_every_board() {
        for kind in emergo_core::VariantKind::ALL {
            let game = AnyGame::start(kind);
            let legal = game.legal_move_texts();
            let mv = choose_move(&game, Level::MIN, Arc::default()).expect("the start has moves");
            assert_eq!(mv.kind(), kind);
            assert!(legal.contains(&mv.to_string()), "{kind}: {mv}");
            let (hint, _) = hint(&game, Arc::default()).expect("the start has moves");
            assert!(legal.contains(&hint.to_string()), "{kind}: {hint}");
        }
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
        let _ = choose_move(&AnyGame::default(), Level::MAX, cancel);
        let took = started.elapsed();
        setter.join().expect("the setter ends");
        assert!(
            took < Level::MAX.movetime() / 2,
            "the search went on for {took:?}"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panicking_job_is_an_error_and_the_pool_goes_on() {
        let pool = EnginePool::new(1, 8, 8);
        let failed = pool
            .run(A, Arc::default(), || -> u8 { panic!("a bad search") })
            .await;
        assert!(matches!(failed, Err(PoolError::Failed(_))));
        assert_eq!(
            pool.run(A, Arc::default(), || 7)
                .await
                .expect("the worker lives"),
            7
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_pool_never_runs_more_jobs_than_it_has_workers() {
        let pool = EnginePool::new(2, 64, 64);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut jobs = Vec::new();
        for _ in 0..8 {
            let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
            jobs.push(tokio::spawn(async move {
                pool.run(A, Arc::default(), move || {
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_with_a_pile_of_jobs_does_not_delay_another_and_is_bounded() {
        // One worker; client A queues jobs up to its bound; B's one job goes next. The jobs hold
        // the worker until released and every step waits for the queue's own count, so the
        // order does not depend on how fast a loaded machine schedules the tasks.
        let pool = EnginePool::new(1, 64, 4);
        let order = Arc::new(Mutex::new(Vec::new()));
        let release = Arc::new(AtomicBool::new(false));
        let mut jobs = Vec::new();
        for i in 0..4 {
            let (pool, order, release) = (pool.clone(), order.clone(), release.clone());
            jobs.push(tokio::spawn(async move {
                pool.run(A, Arc::default(), move || {
                    let started = Instant::now();
                    while !release.load(Ordering::SeqCst)
                        && started.elapsed() < Duration::from_secs(10)
                    {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    order.lock().expect("order").push(format!("A{i}"));
                })
                .await
            }));
        }
        // A's four jobs are in: one on the worker, three waiting.
        wait_until(|| pool.has_room(A).is_err() && pool.waiting() == 3).await;
        let busy = pool.run(A, Arc::default(), || ()).await;
        assert!(
            matches!(busy, Err(PoolError::Busy(_))),
            "A's fifth job is refused"
        );
        let b = {
            let (pool, order) = (pool.clone(), order.clone());
            tokio::spawn(async move {
                pool.run(B, Arc::default(), move || {
                    order.lock().expect("order").push("B".into())
                })
                .await
            })
        };
        wait_until(|| pool.waiting() == 4).await;
        release.store(true, Ordering::SeqCst);
        b.await.expect("joined").expect("B runs");
        for job in jobs {
            job.await.expect("joined").expect("ran");
        }
        let order = order.lock().expect("order").clone();
        let b = order.iter().position(|j| j == "B").expect("B ran");
        assert!(b <= 1, "B waited behind A's pile: {order:?}");
    }

    /// Waits (at most 10 s) until `ready` holds.
    async fn wait_until(ready: impl Fn() -> bool) {
        let started = Instant::now();
        while !ready() {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the pool never reached the awaited state"
            );
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_long_search_is_told_to_stop_when_others_wait() {
        let pool = EnginePool::new(1, 64, 64);
        let stop = Arc::new(AtomicBool::new(false));
        let watched = stop.clone();
        let long = {
            let pool = pool.clone();
            tokio::spawn(async move {
                pool.run(A, stop, move || {
                    let started = Instant::now();
                    while !watched.load(Ordering::SeqCst)
                        && started.elapsed() < Duration::from_secs(5)
                    {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    started.elapsed()
                })
                .await
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        pool.run(B, Arc::default(), || ()).await.expect("B runs");
        let took = long.await.expect("joined").expect("ran");
        assert!(took < Duration::from_secs(2), "the long job ran {took:?}");
    }
}
