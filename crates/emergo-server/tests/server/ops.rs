//! Operations: `/healthz` asks the database, `/metrics` counts requests, moves and WebSockets
//! in Prometheus text.

use crate::common::*;
use reqwest::StatusCode;

/// The value of the sample `name` (with its labels, as written) in a Prometheus text page.
fn sample(page: &str, name: &str) -> Option<f64> {
    page.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_says_the_database_answers_and_metrics_count_moves_requests_and_websockets() {
    let srv = TestServer::start().await;
    let (status, health) = srv.get("/healthz").await;
    assert_eq!(status, StatusCode::OK, "{health}");
    assert_eq!(health["status"], "ok");
    assert_eq!(health["database"], srv.server.state().store.backend());

    let (status, ctype, before) = srv.get_text("/metrics").await;
    assert_eq!(status, StatusCode::OK);
    assert!(ctype.starts_with("text/plain"), "{ctype}");
    for name in [
        "emergo_moves_accepted_total",
        "emergo_websockets_open",
        "emergo_engine_queue_length",
        "emergo_engine_job_retries_total",
        "emergo_http_requests_total{status=\"2xx\"}",
    ] {
        assert!(sample(&before, name).is_some(), "{name} in:\n{before}");
    }
    if srv.server.state().store.backend() == "postgres" {
        // The job table's figures (an idle queue).
        for name in [
            "emergo_engine_jobs_queued",
            "emergo_engine_jobs_running",
            "emergo_engine_jobs_oldest_wait_seconds",
            "emergo_engine_jobs_lease_expired",
            "emergo_engine_jobs_open_retried",
        ] {
            assert_eq!(sample(&before, name), Some(0.0), "{name} in:\n{before}");
        }
    }
    let moves_before = sample(&before, "emergo_moves_accepted_total").unwrap_or(0.0);

    // A move and an open WebSocket show (other tests in this binary may count too: at least).
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let mut socket = srv.socket(&id).await;
    next_state(&mut socket).await;
    let (status, moved) = srv
        .play(&id, &white["token"], 0, &first_legal(&black["game"]))
        .await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let (_, _, after) = srv.get_text("/metrics").await;
    let moves_after = sample(&after, "emergo_moves_accepted_total").unwrap_or(0.0);
    assert!(
        moves_after > moves_before,
        "{moves_before} -> {moves_after}"
    );
    assert!(sample(&after, "emergo_websockets_open").unwrap_or(0.0) >= 1.0);
    assert!(after.contains("emergo_http_requests_total"), "{after}");
    srv.stop().await;
}
