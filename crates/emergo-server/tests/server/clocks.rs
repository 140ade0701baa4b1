//! Time controls and server-owned clocks (docs/api.md, "Time controls"): flag falls with nobody
//! connected, correspondence deadlines (on a manual clock, not a real day), a move at the last
//! millisecond, the increment, aborted games, and a restart.

use crate::common::*;
use emergo_server::clock::{Clock, ManualClock, LAG_ALLOWANCE_MS};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const DAY_MS: i64 = 86_400_000;

async fn manual_server() -> (TestServer, Arc<ManualClock>) {
    let manual = ManualClock::at_system_time();
    let srv = TestServer::builder()
        .clock(Clock::from(manual.clone()))
        .start()
        .await;
    (srv, manual)
}

/// Reads the game (by plain GET, nobody connected) until it is finished, for up to 30 s.
async fn wait_finished(srv: &TestServer, id: &str) -> Value {
    for _ in 0..300 {
        let game = srv.game(id).await;
        if game["status"] == "finished" {
            return game;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id} did not finish within 30 s");
}

/// Plays the first legal move for the side to move; returns the answer.
async fn play_first(srv: &TestServer, id: &str, token: &Value) -> Value {
    let game = srv.game(id).await;
    let ply = game["ply"].as_i64().expect("ply");
    let (status, answer) = srv.play(id, token, ply, &first_legal(&game)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_with_nobody_connected_and_the_player_loses_on_time() {
    let srv = TestServer::start().await;
    let (id, white, black) = timed_game(&srv, "0.25+0").await;
    let started = srv.game(&id).await;
    assert_eq!(started["clock"]["running"], "white");
    assert_eq!(started["deadline"], Value::Null);
    play_first(&srv, &id, &white).await;
    let answer = play_first(&srv, &id, &black).await;
    assert_eq!(answer["clock"]["running"], "white");
    let since = std::time::Instant::now();
    // Nobody is connected and nobody asks: White's 15 s (and the lag allowance) run out.
    tokio::time::sleep(Duration::from_millis(15_000)).await;
    let game = wait_finished(&srv, &id).await;
    assert!(since.elapsed() >= Duration::from_millis(15_000));
    assert_eq!(game["result"], "0-1");
    assert_eq!(game["reason"], "time");
    assert_eq!(game["clock"]["white_ms"], 0);
    assert_eq!(game["clock"]["running"], Value::Null);
    assert_eq!(game["legal_moves"], json!([]));
    let (status, refused) = srv.play(&id, &white, 2, "d4").await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["error"], "game_over");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_deadline_passing_loses_on_time() {
    let (srv, manual) = manual_server().await;
    let (id, white, black) = timed_game(&srv, "corr:3").await;
    let game = srv.game(&id).await;
    assert_eq!(game["clock"], Value::Null);
    assert!(game["deadline"].as_str().is_some_and(|d| d.ends_with('Z')));
    play_first(&srv, &id, &white).await;
    manual.advance(DAY_MS);
    let answer = play_first(&srv, &id, &black).await;
    let deadline = answer["deadline"].as_str().expect("a deadline").to_string();
    let mut socket = srv.socket(&id).await;
    // Three days to the millisecond: still White's move.
    manual.advance(3 * DAY_MS);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let game = srv.game(&id).await;
    assert_eq!(game["status"], "ongoing");
    assert_eq!(game["deadline"], deadline.as_str());
    // One millisecond more: White has lost, without any request.
    manual.advance(1);
    let over = state_where(&mut socket, |g| g["status"] == "finished").await;
    assert_eq!(over["result"], "0-1");
    assert_eq!(over["reason"], "time");
    assert_eq!(over["deadline"], Value::Null);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_at_the_last_millisecond_is_accepted_and_one_later_is_not() {
    let (srv, manual) = manual_server().await;
    let (id, white, black) = timed_game(&srv, "0.25+0").await;
    // White's whole time and the lag allowance, to the millisecond.
    manual.advance(15_000 + LAG_ALLOWANCE_MS);
    let answer = play_first(&srv, &id, &white).await;
    assert_eq!(answer["clock"]["white_ms"], 0);
    assert_eq!(answer["clock"]["black_ms"], 15_000);
    assert_eq!(answer["clock"]["running"], "black");
    // Black is one millisecond late: refused, and the game (before each side moved) aborted.
    let reply = first_legal(&answer);
    manual.advance(15_000 + LAG_ALLOWANCE_MS + 1);
    let (status, refused) = srv.play(&id, &black, 1, &reply).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["error"], "game_over");
    let game = wait_finished(&srv, &id).await;
    assert_eq!(game["reason"], "aborted");
    assert_eq!(game["result"], Value::Null);
    assert_eq!(game["ply"], 1);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_increment_is_added_and_the_running_clock_goes_down() {
    let (srv, manual) = manual_server().await;
    let (id, white, black) = timed_game(&srv, "1+2").await;
    manual.advance(10_000);
    let game = srv.game(&id).await;
    assert_eq!(
        game["clock"]["white_ms"],
        60_000 - 10_000 + LAG_ALLOWANCE_MS
    );
    let answer = play_first(&srv, &id, &white).await;
    // 10 s, less the lag allowance, charged; then 2 s added.
    let white_left = 60_000 - (10_000 - LAG_ALLOWANCE_MS) + 2_000;
    assert_eq!(
        answer["clock"],
        json!({"white_ms": white_left, "black_ms": 60_000, "increment_ms": 2_000, "running": "black"})
    );
    // 300 ms: inside the lag allowance, nothing charged.
    manual.advance(300);
    let answer = play_first(&srv, &id, &black).await;
    assert_eq!(answer["clock"]["black_ms"], 62_000);
    manual.advance(5_000);
    let game = srv.game(&id).await;
    assert_eq!(
        game["clock"]["white_ms"],
        white_left - 5_000 + LAG_ALLOWANCE_MS
    );
    assert_eq!(game["clock"]["black_ms"], 62_000);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_game_ended_before_each_side_moved_is_aborted() {
    let (srv, _manual) = manual_server().await;
    let (id, white, _black) = timed_game(&srv, "3+2").await;
    let (status, over) = srv
        .post(&format!("/api/games/{id}/resign"), json!({"token": white}))
        .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["status"], "finished");
    assert_eq!(over["reason"], "aborted");
    assert_eq!(over["result"], Value::Null);
    assert_eq!(over["clock"]["running"], Value::Null);

    // After a move each, a resignation is a resignation.
    let (id, white, black) = timed_game(&srv, "3+2").await;
    play_first(&srv, &id, &white).await;
    play_first(&srv, &id, &black).await;
    let (status, over) = srv
        .post(&format!("/api/games/{id}/resign"), json!({"token": black}))
        .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&json!("1-0"), &json!("resignation"))
    );
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_waits_for_both_seats_and_bad_time_controls_are_refused() {
    let (srv, manual) = manual_server().await;
    let white = srv
        .create(json!({"mode": "human", "color": "white", "time": "0.5+0"}))
        .await;
    let id = id_of(&white);
    assert_eq!(white["game"]["clock"]["running"], Value::Null);
    assert_eq!(white["game"]["clock"]["white_ms"], 30_000);
    let (status, refused) = srv.play(&id, &white["token"], 0, "d3").await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["error"], "not_allowed");
    // Nobody joins for an hour: nothing runs, nothing falls.
    manual.advance(3_600_000);
    let game = srv.game(&id).await;
    assert_eq!(game["status"], "ongoing");
    assert_eq!(game["clock"]["white_ms"], 30_000);

    for (body, what) in [
        (
            json!({"mode": "human", "color": "white", "time": "0.1+0"}),
            "base",
        ),
        (
            json!({"mode": "human", "color": "white", "time": "corr:20"}),
            "days",
        ),
        (
            json!({"mode": "human", "color": "white", "time": "fast"}),
            "form",
        ),
        (
            json!({"mode": "engine", "color": "white", "level": 1, "time": "3+2"}),
            "engine",
        ),
    ] {
        let (status, answer) = srv.post("/api/games", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{what}: {answer}");
        assert_eq!(answer["error"], "bad_request", "{what}");
    }
    // An untimed game says so.
    let untimed = srv.create(json!({"mode": "human", "color": "white"})).await;
    assert_eq!(untimed["game"]["time_control"], Value::Null);
    assert_eq!(untimed["game"]["clock"], Value::Null);
    srv.stop().await;
}

/// After a restart, an overdue game's flag falls with nobody asking for the game: the sweep of
/// the store finds it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_sweep_lets_an_overdue_flag_fall() {
    let db = TestDb::new();
    let manual = ManualClock::at_system_time();
    let srv = TestServer::builder()
        .db(&db)
        .clock(Clock::from(manual.clone()))
        .start()
        .await;
    let (id, white, black) = timed_game(&srv, "corr:1").await;
    play_first(&srv, &id, &white).await;
    play_first(&srv, &id, &black).await;
    srv.stop().await;
    manual.advance(2 * DAY_MS);
    let srv = TestServer::builder()
        .db(&db)
        .clock(Clock::from(manual.clone()))
        .start()
        .await;
    let state = srv.server.state();
    let mut status = None;
    for _ in 0..100 {
        let stored = state.store.load(&id).await.expect("load").expect("a game");
        status = Some(stored.game.status());
        if stored.game.is_over() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        status,
        Some(emergo_core::Status::Finished {
            outcome: emergo_core::Outcome::Win(emergo_core::Color::Black),
            reason: emergo_core::EndReason::Time
        })
    );
    srv.stop().await;
}
