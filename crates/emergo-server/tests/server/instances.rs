//! Several server instances over one PostgreSQL database: a change made on one reaches the
//! WebSockets of the others, and two submissions for one ply sent to two instances are exactly
//! one accepted move. PostgreSQL only (SQLite is one process's file): these tests run when
//! EMERGO_TEST_BACKEND=postgres (the second run of scripts/test.sh) and return at once on SQLite.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_across_two_instances_reaches_both_and_one_ply_is_taken_once() {
    if skip_unless(Backend::Postgres) {
        return;
    }
    let a = TestServer::start().await;
    let b = TestServer::builder().db(&a.db).start().await;

    // White on instance A, Black joins on B, a spectator watches on B.
    let white = a.create(json!({"mode": "human", "color": "white"})).await;
    let id = id_of(&white);
    let mut spectator = b.socket(&id).await;
    assert_eq!(next_state(&mut spectator).await["ply"], 0);
    let (status, black) = b
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite": white["invite"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{black}");
    let tokens = [white["token"].clone(), black["token"].clone()];
    let servers = [&a, &b];

    // Each side moves on its own instance; the spectator on B sees every move.
    let mut game = black["game"].clone();
    for ply in 0..4usize {
        let (status, answer) = servers[ply % 2]
            .play(&id, &tokens[ply % 2], ply as i64, &first_legal(&game))
            .await;
        assert_eq!(status, StatusCode::OK, "ply {ply}: {answer}");
        let seen = state_where(&mut spectator, |g| g["ply"] == ply + 1).await;
        game = join(&game, &answer).expect("the answer joins the game");
        assert_eq!(seen["moves"], game["moves"]);
    }

    // Races: the side to move sends its move for one ply to both instances at once.
    for round in 0..6usize {
        let ply = 4 + round;
        let token = &tokens[ply % 2];
        let mv = first_legal(&game);
        let (on_a, on_b) = tokio::join!(
            a.play(&id, token, ply as i64, &mv),
            b.play(&id, token, ply as i64, &mv)
        );
        let answers = [on_a, on_b];
        let accepted: Vec<&Value> = answers
            .iter()
            .filter(|(s, _)| *s == StatusCode::OK)
            .map(|(_, v)| v)
            .collect();
        assert_eq!(accepted.len(), 1, "round {round}: {answers:?}");
        for (status, refused) in answers.iter().filter(|(s, _)| *s != StatusCode::OK) {
            assert_eq!(*status, StatusCode::CONFLICT, "{refused}");
            assert_eq!(refused["error"], "stale_ply", "{refused}");
        }
        game = join(&game, accepted[0]).expect("the answer joins the game");
        // Both instances show the accepted move.
        for server in servers {
            assert_eq!(server.game(&id).await["ply"], ply + 1);
        }
    }
    let stored = a.game(&id).await;
    assert_eq!(stored["moves"], game["moves"]);

    // A resignation on A ends the game for B's spectator and for B's requests.
    let (status, resigned) = a
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens[0]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{resigned}");
    let seen = state_where(&mut spectator, |g| g["status"] == "finished").await;
    assert_eq!(seen["reason"], "resignation");
    let (status, refused) = b
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens[1]}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["error"], "game_over");

    a.stop().await;
    b.stop().await;
}

/// Two instances over one fresh database (None without PostgreSQL: the test is skipped).
async fn two_instances() -> Option<(TestServer, TestServer)> {
    if skip_unless(Backend::Postgres) {
        return None;
    }
    let a = TestServer::start().await;
    let b = TestServer::builder().db(&a.db).start().await;
    Some((a, b))
}

/// Of two answers, the one accepted (200) and the one refused, which must be 409 `code`.
fn one_accepted(answers: &[(StatusCode, Value); 2], code: &str) -> Value {
    let accepted: Vec<&Value> = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::OK)
        .map(|(_, v)| v)
        .collect();
    assert_eq!(accepted.len(), 1, "exactly one accepted: {answers:?}");
    for (status, refused) in answers.iter().filter(|(s, _)| *s != StatusCode::OK) {
        assert_eq!(*status, StatusCode::CONFLICT, "{refused}");
        assert_eq!(refused["error"], code, "{refused}");
    }
    accepted[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joins_resignations_and_draw_answers_racing_on_two_instances_change_the_game_once() {
    let Some((a, b)) = two_instances().await else {
        return;
    };
    for round in 0..4 {
        // Joins: one invitation sent to both instances at once opens one seat.
        let white = a.create(json!({"mode": "human", "color": "white"})).await;
        let id = id_of(&white);
        let path = format!("/api/games/{id}/join");
        let invite = json!({"invite": white["invite"]});
        let (on_a, on_b) = tokio::join!(a.post(&path, invite.clone()), b.post(&path, invite));
        let black = one_accepted(&[on_a, on_b], "seat_taken");
        let tokens = [white["token"].clone(), black["token"].clone()];

        // A draw offer made on A is seen at once on B (no stale cache): Black accepts there.
        let draw = format!("/api/games/{id}/draw");
        let (status, offered) = a
            .post(&draw, json!({"token": tokens[0], "action": "offer"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{offered}");
        if round % 2 == 0 {
            // Black accepts on B while White resigns on A: one of them ends the game.
            let resign = format!("/api/games/{id}/resign");
            let (accepted, resigned) = tokio::join!(
                b.post(&draw, json!({"token": tokens[1], "action": "accept"})),
                a.post(&resign, json!({"token": tokens[0]})),
            );
            let ended = one_accepted(&[accepted, resigned], "game_over");
            assert_eq!(ended["status"], "finished");
            for server in [&a, &b] {
                let seen = server.game(&id).await;
                assert_eq!(seen["result"], ended["result"], "{seen}");
                assert_eq!(seen["reason"], ended["reason"], "{seen}");
            }
        } else {
            // Both resign at once, one on each instance: the first resignation ends the game.
            let resign = format!("/api/games/{id}/resign");
            let (on_a, on_b) = tokio::join!(
                a.post(&resign, json!({"token": tokens[0]})),
                b.post(&resign, json!({"token": tokens[1]})),
            );
            let ended = one_accepted(&[on_a, on_b], "game_over");
            assert_eq!(ended["reason"], "resignation");
            for server in [&a, &b] {
                assert_eq!(server.game(&id).await["result"], ended["result"]);
            }
        }
    }
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_crossing_on_two_instances_agree_and_a_move_on_one_clears_an_offer_on_the_other(
) {
    let Some((a, b)) = two_instances().await else {
        return;
    };
    let (white, black) = a.human_game().await;
    let id = id_of(&white);
    let tokens = [white["token"].clone(), black["token"].clone()];
    let draw = format!("/api/games/{id}/draw");
    // White offers on A; Black, on B, plays a move at once: the move clears the offer.
    let (status, _) = a
        .post(&draw, json!({"token": tokens[0], "action": "offer"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    // White to move: White plays on B, after its own offer on A.
    let game = b.game(&id).await;
    assert_eq!(game["draw_offer"], "white", "B sees A's offer: {game}");
    let (status, moved) = b.play(&id, &tokens[0], 0, &first_legal(&game)).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert!(a.game(&id).await["draw_offer"].is_null());
    // Offers crossing: each side offers on its own instance at once; the second offer meets
    // the first and agrees to it (as on one instance).
    let (on_a, on_b) = tokio::join!(
        a.post(&draw, json!({"token": tokens[0], "action": "offer"})),
        b.post(&draw, json!({"token": tokens[1], "action": "offer"})),
    );
    assert_eq!(on_a.0, StatusCode::OK, "{}", on_a.1);
    assert_eq!(on_b.0, StatusCode::OK, "{}", on_b.1);
    for server in [&a, &b] {
        let seen = server.game(&id).await;
        assert_eq!(seen["reason"], "agreement", "{seen}");
    }
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_takebacks_racing_on_two_instances_take_back_once() {
    let Some((a, b)) = two_instances().await else {
        return;
    };
    for _ in 0..3 {
        let grant = a
            .create(json!({"mode": "engine", "color": "white", "level": 1}))
            .await;
        let id = id_of(&grant);
        let token = grant["token"].clone();
        let mut socket = b.socket(&id).await;
        let (status, moved) = a.play(&id, &token, 0, &first_legal(&grant["game"])).await;
        assert_eq!(status, StatusCode::OK, "{moved}");
        // The engine's reply, seen on B.
        state_where(&mut socket, |g| g["ply"] == 2).await;
        let takeback = format!("/api/games/{id}/takeback");
        let (on_a, on_b) = tokio::join!(
            a.post(&takeback, json!({"token": token})),
            b.post(&takeback, json!({"token": token})),
        );
        let taken = one_accepted(&[on_a, on_b], "not_allowed");
        assert_eq!(taken["ply"], 0, "{taken}");
        for server in [&a, &b] {
            assert_eq!(server.game(&id).await["ply"], 0);
        }
        let stored = a.server.state().store.moves(&id).await.expect("read");
        assert!(stored.is_empty(), "{stored:?}");
    }
    a.stop().await;
    b.stop().await;
}

/// Issue 11: a flag falls once with two instances holding the game, each with its timer (one
/// manual clock for both): one stored ending, one version more, both instances show it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_once_when_two_instances_hold_the_game() {
    use emergo_server::clock::{Clock, ManualClock, LAG_ALLOWANCE_MS};
    if skip_unless(Backend::Postgres) {
        return;
    }
    let manual = ManualClock::at_system_time();
    let a = TestServer::builder()
        .clock(Clock::from(manual.clone()))
        .start()
        .await;
    let b = TestServer::builder()
        .db(&a.db)
        .clock(Clock::from(manual.clone()))
        .start()
        .await;
    let white = a
        .create(json!({"mode": "human", "color": "white", "time": "0.25+0"}))
        .await;
    let id = id_of(&white);
    let (status, black) = b
        .post(
            &format!("/api/games/{id}/join"),
            json!({"invite": white["invite"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{black}");
    let (status, view) = a.play(&id, &white["token"], 0, "d3").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let (status, view) = b.play(&id, &black["token"], 1, &first_legal(&view)).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(a.game(&id).await["ply"], 2, "A holds the current game");
    let store = a.server.state().store.clone();
    let before = store.version(&id).await.expect("read").expect("a game");
    let mut on_a = a.socket(&id).await;
    let mut on_b = b.socket(&id).await;
    manual.advance(15_000 + LAG_ALLOWANCE_MS + 1);
    for socket in [&mut on_a, &mut on_b] {
        let over = state_where(socket, |g| g["status"] == "finished").await;
        assert_eq!(
            (&over["result"], &over["reason"]),
            (&json!("0-1"), &json!("time"))
        );
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(store.version(&id).await.expect("read"), Some(before + 1));
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_thinks_on_every_instance_after_a_move_made_on_one() {
    if skip_unless(Backend::Postgres) {
        return;
    }
    // No engine on either instance: the reply's job stays queued (a worker would take it).
    let no_engine = |config: &mut emergo_server::Config| config.engine_workers = Some(0);
    let a = TestServer::builder().config(no_engine).start().await;
    let b = TestServer::builder()
        .db(&a.db)
        .config(no_engine)
        .start()
        .await;
    let grant = a
        .create(json!({"mode": "engine", "color": "white", "level": 1}))
        .await;
    let id = id_of(&grant);
    let mut watcher = b.socket(&id).await;
    let first = next_state(&mut watcher).await;
    assert_eq!(first["engine_thinking"], false, "{first}");
    let (status, answer) = a
        .play(&id, &grant["token"], 0, &first_legal(&grant["game"]))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["engine_thinking"], true, "{answer}");
    // Instance B learns the move from its wake-up and shows the engine thinking as well.
    let seen = state_where(&mut watcher, |g| g["ply"] == 1).await;
    assert_eq!(seen["engine_thinking"], true, "{seen}");
    let (_, on_b) = b.get(&format!("/api/games/{id}")).await;
    assert_eq!(on_b["engine_thinking"], true, "{on_b}");
    a.stop().await;
    b.stop().await;
}
