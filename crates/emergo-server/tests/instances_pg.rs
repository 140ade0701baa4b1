//! Several server instances over one PostgreSQL database: a change made on one reaches the
//! WebSockets of the others, and two submissions for one ply sent to two instances are exactly
//! one accepted move. Runs when EMERGO_TEST_PG_URL is set (scripts/test.sh sets it).

mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_across_two_instances_reaches_both_and_one_ply_is_taken_once() {
    if pg_server().is_none() {
        eprintln!("skipped: several instances need PostgreSQL (EMERGO_TEST_PG_URL)");
        return;
    }
    let (_dir, path, url) = temp_db();
    let a = TestServer::start_on(&url, path.clone()).await;
    let b = TestServer::start_on(&url, path).await;

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
        assert_eq!(seen["moves"], answer["moves"]);
        game = answer;
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
        game = accepted[0].clone();
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
