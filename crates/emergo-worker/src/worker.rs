//! Engine workers over the database's job table (PostgreSQL): `emergo worker --db postgres://...`
//! runs them in a process of its own, on any machine, and `emergo serve` runs its own unless
//! started with `--engine-threads 0`. Each of a worker's loops takes one job at a time
//! (`SELECT ... FOR UPDATE SKIP LOCKED`, store/jobs_pg.rs), searches it on the engine pool
//! (engine.rs) while renewing its lease, and answers it: a reply is applied to the game by the
//! worker itself, in one conditional transaction (so exactly once); a hint is stored for its
//! requester. Idle loops wake on `NOTIFY emergo_jobs` and poll every [`POLL`] besides.

use crate::pool::{self as engine, EnginePool, PoolError, SLICE_UNDER_LOAD};
use emergo_core::AnyGame;
use emergo_engine::Level;
use emergo_platform::domain::model::now_text;
use emergo_platform::store::{JobsPg, Lease, PgStore, Store, TakenJob, JOBS_CHANNEL};
use sqlx::postgres::PgListener;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How long a taken job stays a worker's without a renewal: a worker that died leaves its job
/// to another after at most this (plus [`POLL`]).
pub const LEASE: Duration = Duration::from_secs(3);
/// How often a searching worker renews its lease and looks at the job's cancellation.
pub const RENEW_EVERY: Duration = Duration::from_millis(150);
/// How often an idle worker looks for jobs when no wake-up came.
pub const POLL: Duration = Duration::from_secs(1);
/// A job taken this many times (its workers died or failed) is given up.
pub const MAX_ATTEMPTS: i32 = 3;
/// How long to wait before trying again when the database cannot be reached.
const RETRY: Duration = Duration::from_secs(1);

/// Running workers.
pub struct Workers {
    id: String,
    loops: Vec<JoinHandle<()>>,
}

impl Workers {
    /// The name the workers hold their leases under.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Waits until every loop ended (after `stop`), at most `limit`.
    pub async fn join(self, limit: Duration) {
        let all = futures_util::future::join_all(self.loops);
        let _ = tokio::time::timeout(limit, all).await;
    }
}

struct Worker {
    id: String,
    jobs: JobsPg,
    store: Store,
    pool: EnginePool,
}

/// Starts `loops` worker loops (one search each at a time, on `pool`) over `store`'s job table;
/// they end when `stop` turns true, once their search is done.
pub fn spawn(
    store: &PgStore,
    pool: EnginePool,
    loops: usize,
    stop: watch::Receiver<bool>,
) -> Workers {
    let id = worker_id();
    let worker = Arc::new(Worker {
        id: id.clone(),
        jobs: JobsPg::new(store.pool().clone()),
        store: Store::Postgres(store.clone()),
        pool,
    });
    let (wake, woken) = watch::channel(0u64);
    let listener = {
        let (worker, mut stop) = (worker.clone(), stop.clone());
        tokio::spawn(async move {
            tokio::select! {
                _ = listen(&worker, wake) => {}
                _ = stop.wait_for(|s| *s) => {}
            }
        })
    };
    let mut handles = vec![listener];
    for _ in 0..loops.max(1) {
        let (worker, woken, stop) = (worker.clone(), woken.clone(), stop.clone());
        handles.push(tokio::spawn(async move { worker.run(woken, stop).await }));
    }
    tracing::info!("engine worker {id}: {} loops", loops.max(1));
    Workers { id, loops: handles }
}

fn worker_id() -> String {
    let mut bytes = [0u8; 4];
    let _ = getrandom::fill(&mut bytes);
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("worker-{}-{hex}", std::process::id())
}

/// Turns every `NOTIFY emergo_jobs` into a wake-up of the idle loops; listens again after a
/// lost connection (the loops poll meanwhile).
async fn listen(worker: &Worker, wake: watch::Sender<u64>) {
    loop {
        let mut listener = match PgListener::connect_with(worker.jobs.pool()).await {
            Ok(mut listener) => match listener.listen(JOBS_CHANNEL).await {
                Ok(()) => listener,
                Err(err) => {
                    tracing::warn!("engine worker: cannot listen: {err}");
                    tokio::time::sleep(RETRY).await;
                    continue;
                }
            },
            Err(err) => {
                tracing::warn!("engine worker: cannot listen: {err}");
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        wake.send_modify(|n| *n += 1);
        loop {
            match listener.try_recv().await {
                Ok(Some(_)) => wake.send_modify(|n| *n += 1),
                Ok(None) => break,
                Err(err) => {
                    tracing::warn!("engine worker: wake-ups: {err}");
                    break;
                }
            }
        }
    }
}

/// What a finished search found.
enum Found {
    Reply(emergo_core::AnyMove),
    Hint(emergo_core::AnyMove, i32),
    Nothing,
}

impl Worker {
    async fn run(&self, mut woken: watch::Receiver<u64>, mut stop: watch::Receiver<bool>) {
        loop {
            if *stop.borrow() {
                return;
            }
            woken.borrow_and_update();
            match self.jobs.take(&self.id, LEASE).await {
                Ok(Some(job)) => self.work(job).await,
                Ok(None) => {
                    tokio::select! {
                        _ = woken.changed() => {}
                        _ = tokio::time::sleep(POLL) => {}
                        _ = stop.wait_for(|s| *s) => return,
                    }
                }
                Err(err) => {
                    tracing::warn!("engine worker: cannot take a job: {err}");
                    tokio::select! {
                        _ = tokio::time::sleep(RETRY) => {}
                        _ = stop.wait_for(|s| *s) => return,
                    }
                }
            }
        }
    }

    /// Does one job and answers it.
    async fn work(&self, job: TakenJob) {
        let id = job.id;
        if job.attempts > 1 {
            // Taken again: its worker died or lost its lease.
            metrics::counter!(emergo_platform::domain::metrics::JOB_RETRIES).increment(1);
        }
        if job.attempts > MAX_ATTEMPTS {
            tracing::warn!(job = id, game = %job.game_id, "engine job given up after {} attempts", job.attempts - 1);
            self.end(id, "failed").await;
            return;
        }
        let stored = match self.store.load(&job.game_id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return self.end(id, "discarded").await,
            Err(err) => {
                tracing::warn!(job = id, "engine worker: cannot read the game: {err}");
                if let Err(err) = self.jobs.release(id, &self.id).await {
                    tracing::warn!(job = id, "engine worker: cannot release: {err}");
                }
                tokio::time::sleep(RETRY).await;
                return;
            }
        };
        let (meta, game) = (stored.meta, stored.game);
        let reply = job.kind == emergo_platform::store::JobKind::Reply.name();
        let current = game.ply() as i64 == job.ply && !game.is_over();
        if !current || (reply && !meta.engine_to_move(&game)) {
            // The game moved on (or ended) since the job was queued.
            return self.end(id, "discarded").await;
        }
        let level = meta.level.unwrap_or(Level::MIN);
        let stop = Arc::new(AtomicBool::new(false));
        let renewing = tokio::spawn(renew(self.jobs.clone(), id, self.id.clone(), stop.clone()));
        let client: IpAddr = job
            .client
            .parse()
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        let found = self.search(&game, reply, level, client, stop).await;
        renewing.abort();
        match found {
            Ok(Found::Reply(mv)) => {
                let mut after = game.clone();
                if after.play(mv).is_err() {
                    return self.end(id, "failed").await;
                }
                let applied = self
                    .jobs
                    .apply_reply(
                        id,
                        &self.id,
                        &job.game_id,
                        game.ply(),
                        &mv.to_string(),
                        after.status(),
                        &now_text(),
                    )
                    .await;
                match applied {
                    Ok(true) => {
                        tracing::debug!(job = id, game = %job.game_id, "engine played {mv}")
                    }
                    // Cancelled, taken over or the game moved on: not this reply's turn.
                    Ok(false) => self.end(id, "discarded").await,
                    Err(err) => {
                        // Nothing was written; the lease runs out and another worker tries.
                        tracing::warn!(job = id, "engine worker: cannot apply {mv}: {err}");
                    }
                }
            }
            Ok(Found::Hint(mv, score)) => {
                let stored = self
                    .jobs
                    .finish_hint(id, &self.id, &mv.to_string(), score)
                    .await;
                if let Err(err) = stored {
                    tracing::warn!(job = id, "engine worker: cannot store the hint: {err}");
                }
            }
            Ok(Found::Nothing) => self.end(id, "discarded").await,
            Err(PoolError::Closed | PoolError::Busy(_)) => {
                // This worker cannot search now: another takes the job.
                if let Err(err) = self.jobs.release(id, &self.id).await {
                    tracing::warn!(job = id, "engine worker: cannot release: {err}");
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(PoolError::Failed(message)) => {
                tracing::error!(job = id, "engine worker: {message}");
                self.end(id, "failed").await;
            }
        }
    }

    async fn search(
        &self,
        game: &AnyGame,
        reply: bool,
        level: Level,
        client: IpAddr,
        stop: Arc<AtomicBool>,
    ) -> Result<Found, PoolError> {
        let game = game.clone();
        let flag = stop.clone();
        self.pool
            .run(client, stop, move || {
                if reply {
                    match engine::choose_move(&game, level, flag) {
                        Some(mv) => Found::Reply(mv),
                        None => Found::Nothing,
                    }
                } else {
                    match engine::hint(&game, flag) {
                        Some((mv, score)) => Found::Hint(mv, score),
                        None => Found::Nothing,
                    }
                }
            })
            .await
    }

    async fn end(&self, id: i64, state: &str) {
        if let Err(err) = self.jobs.end(id, &self.id, state).await {
            tracing::warn!(job = id, "engine worker: cannot end the job: {err}");
        }
    }
}

/// Renews the lease of job `id` until aborted; sets `stop` when the job was cancelled or taken
/// over, or when it has had its slice and other jobs wait (then the search answers with the
/// best move it has found, as in the pool).
async fn renew(jobs: JobsPg, id: i64, worker: String, stop: Arc<AtomicBool>) {
    let started = Instant::now();
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        match jobs.renew(id, &worker, LEASE).await {
            Ok(Lease::Held { others_wait }) => {
                if others_wait && started.elapsed() >= SLICE_UNDER_LOAD {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            Ok(Lease::Cancelled | Lease::Lost) => {
                stop.store(true, Ordering::SeqCst);
                return;
            }
            Err(err) => tracing::warn!(job = id, "engine worker: cannot renew the lease: {err}"),
        }
    }
}
