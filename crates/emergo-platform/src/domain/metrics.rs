//! The names of the metrics (`GET /metrics`, docs/deploy.md): anything in the process counts
//! under these names with the `metrics` macros; `http/ops.rs` describes them.

/// Requests answered, by status class (`status="2xx"`, ...).
pub const REQUESTS: &str = "emergo_http_requests_total";
/// Moves stored (people's and the engine's).
pub const MOVES_ACCEPTED: &str = "emergo_moves_accepted_total";
/// WebSockets open now.
pub const WEBSOCKETS_OPEN: &str = "emergo_websockets_open";
/// Engine jobs waiting for a worker now.
pub const ENGINE_QUEUE_LENGTH: &str = "emergo_engine_queue_length";
/// How long an engine job waited for a worker, in seconds.
pub const ENGINE_WAIT_SECONDS: &str = "emergo_engine_wait_seconds";
/// Engine jobs taken again after their worker's lease ran out.
pub const JOB_RETRIES: &str = "emergo_engine_job_retries_total";

/// The job table's figures (PostgreSQL; read at most once per [`QUEUE_EVERY`], when scraped).
pub const JOBS_QUEUED: &str = "emergo_engine_jobs_queued";
pub const JOBS_RUNNING: &str = "emergo_engine_jobs_running";
pub const JOBS_OLDEST_WAIT: &str = "emergo_engine_jobs_oldest_wait_seconds";
pub const JOBS_LEASE_EXPIRED: &str = "emergo_engine_jobs_lease_expired";
pub const JOBS_RETRIED: &str = "emergo_engine_jobs_open_retried";
