//! The engine job table (PostgreSQL, store/jobs_pg.rs) on its own, without a server: a reply is
//! applied exactly once whichever worker raced or lost its lease, a cancelled job is never
//! applied, a client's pile of jobs does not delay another client's one, and the queue's bound
//! refuses a hint. PostgreSQL only: these tests run when EMERGO_TEST_BACKEND=postgres (the
//! second run of scripts/test.sh) and return at once on SQLite.

use crate::common::*;
use emergo_core::{AnyGame as Game, Status};
use emergo_platform::store::{JobState, JobsPg, Lease, QueueFigures, Store};
use std::time::Duration;

const LEASE: Duration = Duration::from_secs(30);

/// A fresh database with the schema and `games` engine games (ids g0, g1, ...) at the start,
/// the engine (White) to move.
async fn jobs_db(games: usize) -> Option<(JobsPg, Store)> {
    let server = pg_server()?;
    let url = fresh_pg_database(&server);
    let store = Store::open(&url).await.expect("the database opens");
    let Store::Postgres(pg) = &store else {
        panic!("a PostgreSQL store")
    };
    let start = Game::default().start_text();
    for i in 0..games {
        sqlx::query(
            "INSERT INTO games (id, mode, level, white_kind, black_kind, start, created_at, updated_at)
             VALUES ($1, 'engine', 1, 'engine', 'human', $2, 'then', 'then')",
        )
        .bind(format!("g{i}"))
        .bind(&start)
        .execute(pg.pool())
        .await
        .expect("a game row");
    }
    Some((JobsPg::new(pg.pool().clone()), store))
}

fn first_move() -> (String, Status) {
    let mut game = Game::default();
    let mv = game.legal_move_texts()[0].clone();
    game.play_text(&mv).expect("legal");
    (mv.to_string(), game.status())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_is_applied_once_when_a_lease_runs_out_and_two_workers_answer() {
    let Some((jobs, store)) = jobs_db(1).await else {
        eprintln!("skipped: this test runs with EMERGO_TEST_BACKEND=postgres only");
        return;
    };
    let id = jobs
        .enqueue_reply("g0", 0, "10.0.0.1")
        .await
        .expect("queued")
        .expect("a new job");
    // A second request for the same reply (another instance) adds nothing.
    assert_eq!(
        jobs.enqueue_reply("g0", 0, "10.0.0.2").await.expect("ok"),
        None
    );
    // Worker A takes it with a lease that runs out at once (it "dies").
    let taken = jobs
        .take("A", Duration::ZERO)
        .await
        .expect("take")
        .expect("the job");
    assert_eq!((taken.id, taken.attempts), (id, 1));
    tokio::time::sleep(Duration::from_millis(20)).await;
    // Worker B takes it again; A has lost it.
    let again = jobs.take("B", LEASE).await.expect("take").expect("again");
    assert_eq!((again.id, again.attempts), (id, 2));
    assert_eq!(
        jobs.renew(id, "A", LEASE).await.expect("renew"),
        Lease::Lost
    );
    assert!(matches!(
        jobs.renew(id, "B", LEASE).await.expect("renew"),
        Lease::Held { .. }
    ));
    // Both answer: exactly one move is stored.
    let (mv, status) = first_move();
    let by_a = jobs
        .apply_reply(id, "A", "g0", 0, &mv, status, "now")
        .await
        .expect("A's answer");
    let by_b = jobs
        .apply_reply(id, "B", "g0", 0, &mv, status, "now")
        .await
        .expect("B's answer");
    assert_eq!((by_a, by_b), (false, true));
    assert_eq!(store.moves("g0").await.expect("moves"), vec![mv.clone()]);
    // Nothing is left to take, and a replay of B's answer changes nothing.
    assert!(jobs.take("C", LEASE).await.expect("take").is_none());
    let replay = jobs
        .apply_reply(id, "B", "g0", 0, &mv, status, "now")
        .await
        .expect("answered");
    assert!(!replay);
    assert_eq!(store.moves("g0").await.expect("moves").len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_reply_is_never_applied_and_the_search_is_told() {
    let Some((jobs, store)) = jobs_db(2).await else {
        eprintln!("skipped: this test runs with EMERGO_TEST_BACKEND=postgres only");
        return;
    };
    // A running job, cancelled by a takeback: its worker's next renewal says so.
    let running = jobs
        .enqueue_reply("g0", 0, "10.0.0.1")
        .await
        .expect("queued")
        .expect("new");
    jobs.take("A", LEASE).await.expect("take").expect("the job");
    // A queued one for another game, cancelled by a resignation: never taken.
    jobs.enqueue_reply("g1", 0, "10.0.0.1")
        .await
        .expect("queued")
        .expect("new");
    assert_eq!(jobs.cancel_game("g0").await.expect("cancel"), 1);
    assert_eq!(jobs.cancel_game("g1").await.expect("cancel"), 1);
    assert_eq!(
        jobs.renew(running, "A", LEASE).await.expect("renew"),
        Lease::Cancelled
    );
    let (mv, status) = first_move();
    let applied = jobs
        .apply_reply(running, "A", "g0", 0, &mv, status, "now")
        .await
        .expect("answered");
    assert!(!applied);
    jobs.end(running, "A", "discarded").await.expect("ended");
    assert!(matches!(
        jobs.state(running).await.expect("state"),
        JobState::Ended(s) if s == "cancelled"
    ));
    assert!(jobs.take("B", LEASE).await.expect("take").is_none());
    assert!(store.moves("g0").await.expect("moves").is_empty());
    // After the takeback the same ply may have a reply again.
    assert!(jobs
        .enqueue_reply("g0", 0, "10.0.0.1")
        .await
        .expect("queued")
        .is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_with_a_pile_of_jobs_does_not_delay_another_and_the_bound_holds() {
    let Some((jobs, _store)) = jobs_db(5).await else {
        eprintln!("skipped: this test runs with EMERGO_TEST_BACKEND=postgres only");
        return;
    };
    // Client P queues four replies, then client Q one.
    for i in 0..4 {
        jobs.enqueue_reply(&format!("g{i}"), 0, "10.0.0.9")
            .await
            .expect("queued");
    }
    jobs.enqueue_reply("g4", 0, "10.0.0.7")
        .await
        .expect("queued");
    let first = jobs.take("A", LEASE).await.expect("take").expect("a job");
    let second = jobs.take("B", LEASE).await.expect("take").expect("a job");
    assert_eq!(first.client, "10.0.0.9", "the oldest job goes first");
    assert_eq!(
        second.client, "10.0.0.7",
        "Q's one job goes before P's second"
    );
    // Five open jobs: a bound of five refuses a hint; one of four per client refuses P's.
    assert_eq!(
        jobs.enqueue_hint("g4", 0, "10.0.0.8", 5, 8)
            .await
            .expect("ok"),
        None
    );
    assert_eq!(
        jobs.enqueue_hint("g4", 0, "10.0.0.9", 64, 4)
            .await
            .expect("ok"),
        None
    );
    assert!(jobs
        .enqueue_hint("g4", 0, "10.0.0.8", 64, 4)
        .await
        .expect("ok")
        .is_some());
    let open = jobs.open_jobs().await.expect("counted");
    assert_eq!(open.get("10.0.0.9"), Some(&4));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_whose_request_went_away_is_cancelled() {
    let Some((jobs, _store)) = jobs_db(1).await else {
        eprintln!("skipped: this test runs with EMERGO_TEST_BACKEND=postgres only");
        return;
    };
    // No worker runs: the requester gives up (its request went away) while the hint waits.
    let queue = emergo_server::jobs::JobQueue::new(jobs.clone(), &emergo_server::Limits::relaxed());
    let client = std::net::IpAddr::from([10, 0, 0, 1]);
    let waited = tokio::time::timeout(
        Duration::from_millis(200),
        queue.hint("g0", &Game::default(), client, Default::default()),
    )
    .await;
    assert!(waited.is_err(), "no worker, so no answer");
    let until = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let open = jobs.open_jobs().await.expect("counted");
        if open.is_empty() {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "the hint is still open: {open:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(jobs.take("A", LEASE).await.expect("take").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_figures_count_waiting_running_expired_and_retried_jobs() {
    let Some((jobs, store)) = jobs_db(2).await else {
        eprintln!("skipped: this test runs with EMERGO_TEST_BACKEND=postgres only");
        return;
    };
    assert_eq!(
        jobs.queue_figures().await.expect("figures"),
        QueueFigures::default()
    );
    jobs.enqueue_reply("g0", 0, "10.0.0.1")
        .await
        .expect("queued")
        .expect("a new job");
    // Worker A takes it with a lease that runs out at once (it "dies").
    jobs.take("A", Duration::ZERO)
        .await
        .expect("take")
        .expect("the job");
    tokio::time::sleep(Duration::from_millis(20)).await;
    let f = jobs.queue_figures().await.expect("figures");
    assert_eq!(
        (f.queued, f.running, f.lease_expired, f.retried),
        (0, 1, 1, 0)
    );
    // Worker B takes it again: a retry, no lease out any more.
    jobs.take("B", LEASE).await.expect("take").expect("again");
    let f = jobs.queue_figures().await.expect("figures");
    assert_eq!(
        (f.queued, f.running, f.lease_expired, f.retried),
        (0, 1, 0, 1)
    );
    // A job waiting 50 ms.
    jobs.enqueue_reply("g1", 0, "10.0.0.2")
        .await
        .expect("queued")
        .expect("a new job");
    tokio::time::sleep(Duration::from_millis(50)).await;
    let f = jobs.queue_figures().await.expect("figures");
    assert_eq!((f.queued, f.running), (1, 1));
    assert!((0.05..10.0).contains(&f.oldest_wait_seconds), "{f:?}");
    store.close().await;
}
