//! Engine jobs in the database, the instances' side (PostgreSQL; SQLite keeps the in-process
//! pool of engine.rs). An engine reply is a row of `engine_jobs` (store/jobs_pg.rs) that a worker
//! (emergo-worker's `worker`, in `emergo worker` or in an instance) takes, searches and applies to the game
//! itself; the instances learn the move like any other, from the game's wake-up. A takeback or
//! a resignation cancels the game's jobs. A hint is a job whose requester waits (bounded) for
//! its answer, and cancels it when the request goes away.
//!
//! Admission stays as in the pool: at most `engine_queue` open jobs, `engine_per_client` from
//! one client, else 503 `engine_busy`. Replies are admitted against a count of the open jobs
//! that each instance refreshes every [`COUNT_EVERY`] (so the bound holds across instances up to
//! that delay); hints are admitted by their insert itself.

use crate::services::games::{GameSlot, Shared};
use emergo_core::{AnyGame, AnyMove};
use emergo_platform::domain::limits::Limits;
use emergo_platform::store::{JobState, JobsPg, OpenJobs};
use emergo_worker::pool::{self, Client, PoolError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How often an instance re-counts the open jobs (for admission).
pub const COUNT_EVERY: Duration = Duration::from_millis(250);
/// How often finished jobs older than [`KEEP_FINISHED`] are deleted.
const SWEEP_EVERY: Duration = Duration::from_secs(60);
const KEEP_FINISHED: Duration = Duration::from_secs(3600);
/// How long a hint's requester waits for a worker's answer before giving up (503).
pub const HINT_WAIT: Duration = Duration::from_secs(10);
/// How often a hint's requester looks for the answer.
const HINT_POLL: Duration = Duration::from_millis(20);

/// The instance's handle on the job table.
pub struct JobQueue {
    db: JobsPg,
    open: Mutex<OpenJobs>,
    max_open: usize,
    max_per_client: usize,
}

impl JobQueue {
    pub fn new(db: JobsPg, limits: &Limits) -> Arc<JobQueue> {
        Arc::new(JobQueue {
            db,
            open: Mutex::new(OpenJobs::new()),
            max_open: limits.engine_queue.max(1),
            max_per_client: limits.engine_per_client.max(1),
        })
    }

    pub fn db(&self) -> &JobsPg {
        &self.db
    }

    fn open(&self) -> std::sync::MutexGuard<'_, OpenJobs> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a job from `client` would be taken now (the last count of the open jobs).
    pub fn has_room(&self, client: Client) -> Result<(), PoolError> {
        let open = self.open();
        let all: usize = open.values().sum();
        if all >= self.max_open {
            return Err(PoolError::Busy(format!(
                "the engine has {all} searches to do; try again shortly"
            )));
        }
        if open.get(&client.to_string()).copied().unwrap_or(0) >= self.max_per_client {
            return Err(PoolError::Busy(format!(
                "the engine is already searching {} times for this address; try again shortly",
                self.max_per_client
            )));
        }
        Ok(())
    }

    /// Queues the engine's reply to `game_id` at `ply` (nothing when one is queued already).
    pub async fn enqueue_reply(
        &self,
        game_id: &str,
        ply: usize,
        client: Client,
    ) -> Result<(), PoolError> {
        let client = client.to_string();
        let id = self
            .db
            .enqueue_reply(game_id, ply, &client)
            .await
            .map_err(|e| PoolError::Failed(e.to_string()))?;
        if id.is_some() {
            *self.open().entry(client).or_default() += 1;
        }
        Ok(())
    }

    /// Cancels the game's open jobs (a takeback, a resignation).
    pub async fn cancel_game(&self, game_id: &str) -> Result<(), PoolError> {
        self.db
            .cancel_game(game_id)
            .await
            .map(|_| ())
            .map_err(|e| PoolError::Failed(e.to_string()))
    }

    /// The hint for `game` (the game `game_id` at its current ply): queues a job and waits for a
    /// worker's answer, at most [`HINT_WAIT`]. If this future is dropped (the request went
    /// away) or `stop` is set, the job is cancelled.
    pub async fn hint(
        &self,
        game_id: &str,
        game: &AnyGame,
        client: Client,
        stop: Arc<AtomicBool>,
    ) -> Result<Option<(AnyMove, i32)>, PoolError> {
        let failed = |e: emergo_platform::store::StoreError| PoolError::Failed(e.to_string());
        let client = client.to_string();
        let id = self
            .db
            .enqueue_hint(
                game_id,
                game.ply(),
                &client,
                self.max_open,
                self.max_per_client,
            )
            .await
            .map_err(failed)?
            .ok_or_else(|| {
                PoolError::Busy("the engine has too many searches to do; try again shortly".into())
            })?;
        *self.open().entry(client).or_default() += 1;
        let mut waiting = CancelOnDrop {
            db: self.db.clone(),
            id,
            armed: true,
        };
        let deadline = Instant::now() + HINT_WAIT;
        loop {
            if stop.load(Ordering::SeqCst) {
                return Ok(None);
            }
            match self.db.state(id).await.map_err(failed)? {
                JobState::Waiting => {}
                JobState::Done { best_move, score } => {
                    waiting.armed = false;
                    let Some(text) = best_move else {
                        return Ok(None);
                    };
                    let mv = game
                        .parse_move(&text)
                        .map_err(|e| PoolError::Failed(format!("the worker's hint {text}: {e}")))?;
                    return Ok(Some((mv, score.unwrap_or(0))));
                }
                JobState::Ended(state) => {
                    waiting.armed = false;
                    return Err(PoolError::Failed(format!("the hint's job ended {state}")));
                }
            }
            if Instant::now() >= deadline {
                return Err(PoolError::Busy(
                    "no engine worker answered in time; try again shortly".into(),
                ));
            }
            tokio::time::sleep(HINT_POLL).await;
        }
    }

    /// Keeps the count of open jobs fresh and deletes old finished jobs, until `stop`.
    pub fn spawn_upkeep(self: &Arc<Self>, mut stop: watch::Receiver<bool>) {
        let queue = self.clone();
        tokio::spawn(async move {
            let mut count = tokio::time::interval(COUNT_EVERY);
            let mut swept = Instant::now();
            loop {
                tokio::select! {
                    _ = count.tick() => {}
                    _ = stop.wait_for(|s| *s) => return,
                }
                match queue.db.open_jobs().await {
                    Ok(open) => *queue.open() = open,
                    Err(err) => tracing::debug!("engine jobs: cannot count: {err}"),
                }
                if swept.elapsed() >= SWEEP_EVERY {
                    swept = Instant::now();
                    if let Err(err) = queue.db.sweep(KEEP_FINISHED).await {
                        tracing::warn!("engine jobs: cannot sweep: {err}");
                    }
                }
            }
        });
    }
}

/// Cancels a hint's job when its requester stops waiting before the answer came.
struct CancelOnDrop {
    db: JobsPg,
    id: i64,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let (db, id) = (self.db.clone(), self.id);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(err) = db.cancel(id).await {
                    tracing::warn!("engine jobs: cannot cancel hint {id}: {err}");
                }
            });
        }
    }
}

impl Shared {
    /// The job table, when the engine's work goes through the database (PostgreSQL).
    pub fn jobs(&self) -> Option<&Arc<JobQueue>> {
        self.jobs.get()
    }

    /// Whether the engine would take a job from `client` now (the job table's count with
    /// PostgreSQL, else the pool's).
    pub fn engine_has_room(&self, client: Client) -> Result<(), PoolError> {
        match self.jobs() {
            Some(jobs) => jobs.has_room(client),
            None => self.pool.has_room(client),
        }
    }

    /// The hint for `game` (the game `id`): a job for the workers with PostgreSQL, else a search
    /// on the pool. Setting `stop` (the request went away) ends it.
    pub async fn hint_search(
        &self,
        id: &str,
        game: AnyGame,
        client: Client,
        stop: Arc<AtomicBool>,
    ) -> Result<Option<(AnyMove, i32)>, PoolError> {
        if let Some(jobs) = self.jobs() {
            return jobs.hint(id, &game, client, stop).await;
        }
        let search_stop = stop.clone();
        self.pool
            .run(client, stop, move || {
                if search_stop.load(Ordering::SeqCst) {
                    None
                } else {
                    pool::hint(&game, search_stop)
                }
            })
            .await
    }

    /// Cancels the game's engine jobs in the database (takeback, resignation); the in-process
    /// pool's jobs are cancelled by [`crate::services::games::LiveGame::cancel_engine`].
    pub(crate) async fn cancel_jobs(&self, id: &str) {
        if let Some(jobs) = self.jobs() {
            if let Err(err) = jobs.cancel_game(id).await {
                tracing::warn!(game = %id, "engine jobs: cannot cancel: {err}");
            }
        }
    }

    /// Queues the engine's reply as a job (PostgreSQL). If it cannot be queued, the game is
    /// marked as not thinking, so that the next request for it queues the reply again.
    pub(crate) fn queue_reply(
        &self,
        jobs: &Arc<JobQueue>,
        slot: &Arc<GameSlot>,
        id: String,
        ply: usize,
        client: Client,
        generation: u64,
    ) {
        let (jobs, slot) = (jobs.clone(), slot.clone());
        tokio::spawn(async move {
            if let Err(err) = jobs.enqueue_reply(&id, ply, client).await {
                tracing::warn!(game = %id, "engine jobs: cannot queue the reply: {err}");
                let mut live = slot.state.lock().await;
                if live.generation == generation {
                    live.engine_thinking = false;
                    slot.publish(&live);
                }
            }
        });
    }
}
