//! The `engine_jobs` table (PostgreSQL, migration 0010): every statement the instances and the
//! workers run on it. A new job sends `NOTIFY emergo_jobs` (a wake-up for idle workers; they
//! also poll). Applying a reply is one transaction that marks the job done and stores the move
//! only while the job is still this worker's, not cancelled, and the game still at the job's
//! ply: the reply is played exactly once, whichever worker died or raced.

use super::{status_columns, StoreError, CHANNEL};
use emergo_core::Status;
use sqlx::postgres::PgPool;
use std::collections::HashMap;
use std::time::Duration;

/// The channel on which new jobs wake the workers.
pub const JOBS_CHANNEL: &str = "emergo_jobs";

/// What a job asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The engine's move in an engine game, applied to the game by the worker.
    Reply,
    /// The best move for the side to move, handed to the person waiting for it.
    Hint,
}

impl JobKind {
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Reply => "reply",
            JobKind::Hint => "hint",
        }
    }
}

/// A job a worker took.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TakenJob {
    pub id: i64,
    pub kind: String,
    pub game_id: String,
    pub ply: i64,
    pub client: String,
    /// How many times a worker took it (more than once: a worker died or lost its lease).
    pub attempts: i32,
}

/// What a worker learns when it renews its lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lease {
    /// Still this worker's; `others_wait` when queued jobs wait for a worker.
    Held { others_wait: bool },
    /// The job was cancelled (takeback, resignation, the hint's request went away).
    Cancelled,
    /// Another worker took it (this one's lease ran out) or it ended.
    Lost,
}

/// A job's state as its requester sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobState {
    Waiting,
    Done {
        best_move: Option<String>,
        score: Option<i32>,
    },
    /// Discarded, cancelled or failed: no answer will come.
    Ended(String),
}

/// Open jobs (queued or running, not cancelled) by client.
pub type OpenJobs = HashMap<String, usize>;

/// The queue as `/metrics` shows it (over the open jobs: the table's partial index).
#[derive(Clone, Debug, Default, PartialEq, sqlx::FromRow)]
pub struct QueueFigures {
    /// Jobs waiting for a worker.
    pub queued: i64,
    /// Jobs a worker holds (or held: see `lease_expired`).
    pub running: i64,
    /// How long the oldest waiting job has waited, in seconds (0 with none).
    pub oldest_wait_seconds: f64,
    /// Running jobs whose lease ran out (their worker died or stalls), not taken again yet.
    pub lease_expired: i64,
    /// Open jobs taken more than once (a worker was lost).
    pub retried: i64,
}

/// The statements on `engine_jobs`. Cheap to clone.
#[derive(Clone)]
pub struct JobsPg {
    pool: PgPool,
}

/// The open jobs (queued, or running under a lease) that no cancellation ended.
const OPEN: &str = "state IN ('queued', 'running') AND NOT cancelled";

impl JobsPg {
    pub fn new(pool: PgPool) -> JobsPg {
        JobsPg { pool }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Queues the engine's reply to `game_id` at `ply` for `client`, unless one is queued or
    /// running already (from any instance). Returns the new job's id.
    pub async fn enqueue_reply(
        &self,
        game_id: &str,
        ply: usize,
        client: &str,
    ) -> Result<Option<i64>, StoreError> {
        let id: Option<(i64,)> = sqlx::query_as(&format!(
            "WITH new AS (
                INSERT INTO engine_jobs (kind, game_id, ply, client) VALUES ('reply', $1, $2, $3)
                ON CONFLICT (game_id, ply) WHERE kind = 'reply' AND {OPEN} DO NOTHING
                RETURNING id)
             SELECT id FROM new, pg_notify('{JOBS_CHANNEL}', new.id::TEXT) AS woken"
        ))
        .bind(game_id)
        .bind(ply as i64)
        .bind(client)
        .fetch_optional(&self.pool)
        .await?;
        Ok(id.map(|(id,)| id))
    }

    /// Queues a hint for `game_id` at `ply` when the queue has room (fewer than `max_open`
    /// open jobs, fewer than `max_per_client` of them from `client`); `None` when it has not.
    pub async fn enqueue_hint(
        &self,
        game_id: &str,
        ply: usize,
        client: &str,
        max_open: usize,
        max_per_client: usize,
    ) -> Result<Option<i64>, StoreError> {
        let id: Option<(i64,)> = sqlx::query_as(&format!(
            "WITH new AS (
                INSERT INTO engine_jobs (kind, game_id, ply, client)
                SELECT 'hint', $1, $2, $3
                WHERE (SELECT count(*) FROM engine_jobs WHERE {OPEN}) < $4
                  AND (SELECT count(*) FROM engine_jobs WHERE client = $3 AND {OPEN}) < $5
                RETURNING id)
             SELECT id FROM new, pg_notify('{JOBS_CHANNEL}', new.id::TEXT) AS woken"
        ))
        .bind(game_id)
        .bind(ply as i64)
        .bind(client)
        .bind(max_open as i64)
        .bind(max_per_client as i64)
        .fetch_optional(&self.pool)
        .await?;
        Ok(id.map(|(id,)| id))
    }

    /// Cancels every open job of a game (takeback, resignation): a queued one ends at once, a
    /// running one when its worker next renews its lease.
    pub async fn cancel_game(&self, game_id: &str) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE engine_jobs SET cancelled = TRUE,
                state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END,
                finished_at = CASE WHEN state = 'queued' THEN clock_timestamp() END
             WHERE game_id = $1 AND state IN ('queued', 'running') AND NOT cancelled",
        )
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Cancels one job (a hint nobody waits for any more).
    pub async fn cancel(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE engine_jobs SET cancelled = TRUE,
                state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END,
                finished_at = CASE WHEN state = 'queued' THEN clock_timestamp() END
             WHERE id = $1 AND state IN ('queued', 'running')",
        )
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The state of job `id`, for its requester.
    pub async fn state(&self, id: i64) -> Result<JobState, StoreError> {
        let row: Option<(String, Option<String>, Option<i32>)> =
            sqlx::query_as("SELECT state, best_move, score FROM engine_jobs WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(match row {
            None => JobState::Ended("gone".into()),
            Some((state, best_move, score)) => match state.as_str() {
                "queued" | "running" => JobState::Waiting,
                "done" => JobState::Done { best_move, score },
                _ => JobState::Ended(state),
            },
        })
    }

    /// Open jobs by client, for admission (the 503 `engine_busy` bound).
    pub async fn open_jobs(&self) -> Result<OpenJobs, StoreError> {
        let rows: Vec<(String, i64)> = sqlx::query_as(&format!(
            "SELECT client, count(*) FROM engine_jobs WHERE {OPEN} GROUP BY client"
        ))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(client, n)| (client, n.max(0) as usize))
            .collect())
    }

    /// Takes the next job for `worker` with a lease of `lease`: a queued one, or a running one
    /// whose lease ran out. Fair between clients: the job with the fewest older open jobs of
    /// its own client goes first (a person's one reply before the second of a pile), then the
    /// client that used the least engine time in the last 10 s, then the oldest.
    pub async fn take(
        &self,
        worker: &str,
        lease: Duration,
    ) -> Result<Option<TakenJob>, StoreError> {
        let job: Option<TakenJob> = sqlx::query_as(
            "UPDATE engine_jobs SET state = 'running', worker = $1,
                leased_until = clock_timestamp() + $2 * INTERVAL '1 millisecond',
                picked_at = COALESCE(picked_at, clock_timestamp()), attempts = attempts + 1
             WHERE id = (
                SELECT j.id FROM engine_jobs j
                WHERE NOT j.cancelled AND (j.state = 'queued'
                    OR (j.state = 'running' AND j.leased_until < clock_timestamp()))
                ORDER BY
                    (SELECT count(*) FROM engine_jobs o
                     WHERE o.client = j.client AND o.id < j.id
                       AND o.state IN ('queued', 'running') AND NOT o.cancelled),
                    (SELECT COALESCE(sum(EXTRACT(EPOCH FROM d.finished_at - d.picked_at)), 0)
                     FROM engine_jobs d WHERE d.client = j.client
                       AND d.finished_at > clock_timestamp() - INTERVAL '10 seconds'),
                    j.id
                LIMIT 1
                FOR UPDATE SKIP LOCKED)
             RETURNING id, kind, game_id, ply, client, attempts",
        )
        .bind(worker)
        .bind(lease.as_millis() as i64)
        .fetch_optional(&self.pool)
        .await?;
        Ok(job)
    }

    /// Extends `worker`'s lease on job `id` and says whether it should go on.
    pub async fn renew(&self, id: i64, worker: &str, lease: Duration) -> Result<Lease, StoreError> {
        let row: Option<(bool, bool)> = sqlx::query_as(
            "UPDATE engine_jobs SET leased_until = clock_timestamp() + $3 * INTERVAL '1 millisecond'
             WHERE id = $1 AND worker = $2 AND state = 'running'
             RETURNING cancelled,
                EXISTS (SELECT 1 FROM engine_jobs WHERE state = 'queued' AND NOT cancelled)"
        )
        .bind(id)
        .bind(worker)
        .bind(lease.as_millis() as i64)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            None => Lease::Lost,
            Some((true, _)) => Lease::Cancelled,
            Some((false, others_wait)) => Lease::Held { others_wait },
        })
    }

    /// Applies the engine's reply `text` of job `id` at `ply` (the game's status after it is
    /// `status`), in one transaction and only if the job is still `worker`'s and not cancelled
    /// and the game is still ongoing at `ply`; otherwise nothing is written and the answer is
    /// `false` (the caller then discards the job). The other instances are woken as by any move
    /// (their listeners skip no wake-up from a worker).
    #[allow(clippy::too_many_arguments)]
    pub async fn apply_reply(
        &self,
        id: i64,
        worker: &str,
        game_id: &str,
        ply: usize,
        text: &str,
        status: Status,
        now: &str,
    ) -> Result<bool, StoreError> {
        let (result, reason) = status_columns(status);
        let mut tx = self.pool.begin().await?;
        let job = sqlx::query(
            "UPDATE engine_jobs SET state = 'done', finished_at = clock_timestamp(), best_move = $3
             WHERE id = $1 AND worker = $2 AND state = 'running' AND NOT cancelled",
        )
        .bind(id)
        .bind(worker)
        .bind(text)
        .execute(&mut *tx)
        .await?;
        if job.rows_affected() != 1 {
            return Ok(false);
        }
        let game = sqlx::query(
            "UPDATE games SET ply = $1 + 1, result = $2, reason = $3, draw_offer = NULL,
                takeback_offer = NULL, takeback_declined = NULL,
                updated_at = $4, version = version + 1
             WHERE id = $5 AND ply = $1 AND result IS NULL",
        )
        .bind(ply as i64)
        .bind(result)
        .bind(reason)
        .bind(now)
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
        if game.rows_affected() != 1 {
            return Ok(false);
        }
        sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ($1, $2, $3)")
            .bind(game_id)
            .bind(ply as i64)
            .bind(text)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "SELECT pg_notify($1, id || ' ' || ply || ' ' || version || ' ' || $2)
             FROM games WHERE id = $3",
        )
        .bind(CHANNEL)
        .bind(worker)
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Stores the hint of job `id` for its requester, if the job is still `worker`'s.
    pub async fn finish_hint(
        &self,
        id: i64,
        worker: &str,
        text: &str,
        score: i32,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE engine_jobs SET state = 'done', finished_at = clock_timestamp(),
                best_move = $3, score = $4
             WHERE id = $1 AND worker = $2 AND state = 'running' AND NOT cancelled",
        )
        .bind(id)
        .bind(worker)
        .bind(text)
        .bind(score)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends job `id` without an answer (`state`: discarded, cancelled or failed), if it is
    /// still `worker`'s; a cancelled job ends as cancelled.
    pub async fn end(&self, id: i64, worker: &str, state: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE engine_jobs SET finished_at = clock_timestamp(),
                state = CASE WHEN cancelled THEN 'cancelled' ELSE $3 END
             WHERE id = $1 AND worker = $2 AND state = 'running'",
        )
        .bind(id)
        .bind(worker)
        .bind(state)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Gives job `id` back to the queue (this worker stops): another worker takes it at once.
    pub async fn release(&self, id: i64, worker: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE engine_jobs SET state = 'queued', worker = NULL, leased_until = NULL
             WHERE id = $1 AND worker = $2 AND state = 'running' AND NOT cancelled",
        )
        .bind(id)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Housekeeping: a cancelled job whose worker died ends; finished jobs older than `keep`
    /// are deleted. Returns the rows deleted.
    pub async fn sweep(&self, keep: Duration) -> Result<u64, StoreError> {
        sqlx::query(
            "UPDATE engine_jobs SET state = 'cancelled', finished_at = clock_timestamp()
             WHERE state = 'running' AND cancelled AND leased_until < clock_timestamp()",
        )
        .execute(&self.pool)
        .await?;
        let done = sqlx::query(
            "DELETE FROM engine_jobs
             WHERE finished_at < clock_timestamp() - $1 * INTERVAL '1 millisecond'",
        )
        .bind(keep.as_millis() as i64)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// The open jobs' figures, in one query over the open jobs only.
    pub async fn queue_figures(&self) -> Result<QueueFigures, StoreError> {
        Ok(sqlx::query_as(&format!(
            "SELECT
                count(*) FILTER (WHERE state = 'queued') AS queued,
                count(*) FILTER (WHERE state = 'running') AS running,
                COALESCE(EXTRACT(EPOCH FROM clock_timestamp()
                    - min(queued_at) FILTER (WHERE state = 'queued')), 0)::FLOAT8
                    AS oldest_wait_seconds,
                count(*) FILTER (WHERE state = 'running' AND leased_until < clock_timestamp())
                    AS lease_expired,
                count(*) FILTER (WHERE attempts > 1) AS retried
             FROM engine_jobs WHERE {OPEN}"
        ))
        .fetch_one(&self.pool)
        .await?)
    }

    /// Median and 99th percentile of the wait from queued to picked, in milliseconds, over
    /// the jobs that were picked (for figures and checks).
    pub async fn pick_latency_ms(&self) -> Result<Option<(f64, f64, i64)>, StoreError> {
        let row: (Option<f64>, Option<f64>, i64) = sqlx::query_as(
            "SELECT
                percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM picked_at - queued_at))::FLOAT8 * 1000,
                percentile_cont(0.99) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM picked_at - queued_at))::FLOAT8 * 1000,
                count(*)
             FROM engine_jobs WHERE picked_at IS NOT NULL",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(match row {
            (Some(median), Some(p99), n) => Some((median, p99, n)),
            _ => None,
        })
    }
}
