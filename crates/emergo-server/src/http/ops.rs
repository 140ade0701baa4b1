//! Operations: `GET /healthz` (the database answers), `GET /metrics` (Prometheus text), and the
//! names of the metrics. Anything in the process counts with the `metrics` macros under these
//! names (`domain/metrics.rs`: `metrics::counter!(MOVES_ACCEPTED).increment(1)`); the recorder is installed
//! once per process, when the first server starts.

use crate::http::error::ApiError;
use crate::services::error::ServiceError;
use crate::services::games::AppState;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use emergo_platform::domain::metrics::*;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use serde::Serialize;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The job table is read at most this often, however often `/metrics` is scraped.
const QUEUE_EVERY: Duration = Duration::from_secs(1);
/// How long a scrape waits for the job table's figures (else it shows the last ones).
const QUEUE_TIMEOUT: Duration = Duration::from_millis(500);

/// How long `/healthz` waits for the database.
const HEALTH_TIMEOUT: Duration = Duration::from_secs(2);

/// The process's recorder (installed by the first call); `None` when another recorder was
/// installed first (an embedding program's own).
pub fn recorder() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let handle = PrometheusBuilder::new().install_recorder().ok()?;
            describe();
            Some(handle)
        })
        .as_ref()
}

/// Says what each metric is, and makes the counters visible from the start.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(REQUESTS, "HTTP requests answered, by status class");
    describe_counter!(MOVES_ACCEPTED, "moves stored (people's and the engine's)");
    describe_gauge!(WEBSOCKETS_OPEN, "WebSockets open now");
    describe_gauge!(ENGINE_QUEUE_LENGTH, "engine jobs waiting for a worker");
    describe_histogram!(
        ENGINE_WAIT_SECONDS,
        Unit::Seconds,
        "how long an engine job waited for a worker"
    );
    describe_counter!(JOB_RETRIES, "engine jobs taken again after a lost worker");
    describe_histogram!(
        emergo_platform::store::MOVE_BATCH_SIZE,
        "moves written in one transaction, one commit for all (SQLite)"
    );
    metrics::counter!(MOVES_ACCEPTED).absolute(0);
    metrics::counter!(JOB_RETRIES).absolute(0);
    metrics::gauge!(WEBSOCKETS_OPEN).set(0.0);
    metrics::gauge!(ENGINE_QUEUE_LENGTH).set(0.0);
    describe_gauge!(
        JOBS_QUEUED,
        "engine jobs in the database waiting for a worker (PostgreSQL)"
    );
    describe_gauge!(
        JOBS_RUNNING,
        "engine jobs in the database a worker holds (PostgreSQL)"
    );
    describe_gauge!(
        JOBS_OLDEST_WAIT,
        Unit::Seconds,
        "how long the oldest waiting engine job has waited (PostgreSQL)"
    );
    describe_gauge!(
        JOBS_LEASE_EXPIRED,
        "running engine jobs whose worker's lease ran out, not taken again yet (PostgreSQL)"
    );
    describe_gauge!(
        JOBS_RETRIED,
        "open engine jobs taken more than once after a lost worker (PostgreSQL)"
    );
}

/// Sets the job table's gauges from the database, at most once per [`QUEUE_EVERY`] and within
/// [`QUEUE_TIMEOUT`] (a slow database leaves the last figures).
async fn refresh_job_figures(state: &AppState) {
    static LAST: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);
    let Some(jobs) = state.jobs() else {
        return;
    };
    {
        let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < QUEUE_EVERY) {
            return;
        }
        *last = Some(Instant::now());
    }
    match tokio::time::timeout(QUEUE_TIMEOUT, jobs.db().queue_figures()).await {
        Ok(Ok(f)) => {
            metrics::gauge!(JOBS_QUEUED).set(f.queued as f64);
            metrics::gauge!(JOBS_RUNNING).set(f.running as f64);
            metrics::gauge!(JOBS_OLDEST_WAIT).set(f.oldest_wait_seconds);
            metrics::gauge!(JOBS_LEASE_EXPIRED).set(f.lease_expired as f64);
            metrics::gauge!(JOBS_RETRIED).set(f.retried as f64);
        }
        Ok(Err(err)) => tracing::warn!("metrics: cannot read the job table: {err}"),
        Err(_) => tracing::warn!("metrics: the job table did not answer in time"),
    }
}

/// `GET /metrics`: every metric in Prometheus text format.
pub async fn metrics_page(State(state): State<AppState>) -> Response {
    refresh_job_figures(&state).await;
    match recorder() {
        Some(handle) => (
            [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
            handle.render(),
        )
            .into_response(),
        None => {
            ServiceError::NotFound("metrics are recorded elsewhere in this process".to_string())
                .into_response()
        }
    }
}

/// The answer of a healthy `GET /healthz`.
#[derive(Serialize)]
struct Health {
    status: &'static str,
    database: &'static str,
}

/// `GET /healthz`: 200 `{"status": "ok", "database": "sqlite"|"postgres"}` when the database
/// answers within 2 s, else 503 `database_unavailable`.
pub async fn healthz(State(state): State<AppState>) -> Result<Response, ApiError> {
    let database = state.store.backend();
    match tokio::time::timeout(HEALTH_TIMEOUT, state.store.ping()).await {
        Ok(Ok(())) => Ok(Json(Health {
            status: "ok",
            database,
        })
        .into_response()),
        Ok(Err(err)) => Err(match ApiError::from(err) {
            unavailable @ ApiError::Service(ServiceError::DatabaseUnavailable(_)) => unavailable,
            other => {
                ServiceError::DatabaseUnavailable(format!("the database does not answer: {other}"))
                    .into()
            }
        }),
        Err(_) => Err(ServiceError::DatabaseUnavailable(format!(
            "the database did not answer within {} s",
            HEALTH_TIMEOUT.as_secs()
        ))
        .into()),
    }
}

/// Counts every answered request by its status class.
pub async fn count_requests(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let class = match response.status().as_u16() {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    };
    metrics::counter!(REQUESTS, "status" => class).increment(1);
    response
}
