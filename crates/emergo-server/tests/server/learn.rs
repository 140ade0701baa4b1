//! The rules course through the API (issue 21): the lessons as the page reads them, and moves
//! played in an exercise judged by the core, with the rule of a refused one.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::json;

/// Every lesson in order, each exercise with a position the position API reads.
#[tokio::test]
async fn the_course_lists_every_lesson_with_positions_the_board_can_draw() {
    let s = TestServer::start().await;
    let (status, course) = s.get("/api/learn").await;
    assert_eq!(status, StatusCode::OK, "{course}");
    let lessons = course["lessons"].as_array().expect("lessons");
    assert_eq!(lessons.len(), 8, "{course}");
    assert_eq!(lessons[0]["id"], "board");
    assert_eq!(lessons[7]["id"], "ending");
    for lesson in lessons {
        assert!(lesson["title"]["fr"]
            .as_str()
            .is_some_and(|t| !t.is_empty()));
        for exercise in lesson["exercises"].as_array().expect("exercises") {
            let (status, board) = s
                .post(
                    "/api/position/moves",
                    json!({"position": exercise["position"]}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{exercise}: {board}");
            assert!(!board["legal_moves"].as_array().expect("moves").is_empty());
        }
    }
    s.stop().await;
}

/// R7.3 in the majority lesson: the two-man capture solves it, the one-man capture is refused
/// by the majority rule, the designers' notation is read; bad requests say what is wrong.
#[tokio::test]
async fn r7_3_a_move_in_an_exercise_is_judged_by_the_core_with_its_rule() {
    let s = TestServer::start().await;
    let judge = |mv: &str| json!({"played": [], "move": mv});
    let (status, v) = s.post("/api/learn/majority/1", judge("h4xf4xd4")).await;
    assert_eq!(
        (status, &v["verdict"]),
        (StatusCode::OK, &json!("solved")),
        "{v}"
    );
    let (_, v) = s.post("/api/learn/majority/1", judge("H4-F4-D4")).await;
    assert_eq!(v["verdict"], "solved", "{v}");
    let (_, v) = s.post("/api/learn/majority/1", judge("e5xe3")).await;
    assert_eq!(v["verdict"], "refused", "{v}");
    assert_eq!(v["refusal"]["rule"], "R7.3", "{v}");
    assert_eq!(v["refusal"]["reason"], "majority_rule", "{v}");
    let (_, v) = s.post("/api/learn/entering/2", judge("e4")).await;
    assert_eq!(
        (&v["verdict"], &v["refusal"]["rule"]),
        (&json!("refused"), &json!("R9.4")),
        "{v}"
    );
    let (_, v) = s.post("/api/learn/entering/2", judge("a5")).await;
    assert_eq!(v["verdict"], "solved", "{v}");
    let (_, v) = s.post("/api/learn/jump/3", judge("zz")).await;
    assert_eq!(v["verdict"], "unreadable", "{v}");

    let (status, v) = s.post("/api/learn/nothing/1", judge("e4")).await;
    assert_eq!(
        (status, &v["error"]),
        (StatusCode::NOT_FOUND, &json!("not_found")),
        "{v}"
    );
    let (status, _) = s.post("/api/learn/majority/0", judge("e4")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = s.post("/api/learn/majority/x", judge("e4")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let long: Vec<&str> = vec!["a5"; 33];
    let (status, v) = s
        .post(
            "/api/learn/majority/1",
            json!({"played": long, "move": "e4"}),
        )
        .await;
    assert_eq!(
        (status, &v["error"]),
        (StatusCode::BAD_REQUEST, &json!("bad_request")),
        "{v}"
    );
    let (status, v) = s
        .post(
            "/api/learn/majority/1",
            json!({"played": ["e5xe3"], "move": "e4"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    s.stop().await;
}

/// Issue 21, progress on the account: a signed-in player's solution is kept on the account (and
/// read back by another session of it), what the browser solved before signing in is added to
/// it, and a list naming an exercise the course lacks is refused whole, changing nothing.
#[tokio::test]
async fn a_signed_in_players_solved_exercises_are_kept_on_the_account() {
    let s = TestServer::start().await;
    let (status, v) = s.get("/api/learn/progress").await;
    assert_eq!(
        (status, &v["error"]),
        (StatusCode::UNAUTHORIZED, &json!("unauthorized")),
        "{v}"
    );
    // Anonymous: judged, and nothing kept anywhere.
    let (_, v) = s
        .post("/api/learn/majority/1", json!({"move": "h4xf4xd4"}))
        .await;
    assert_eq!(v["verdict"], "solved", "{v}");

    let ada = sign_up(&s, "ada").await;
    let (status, v) = ada.get(&s, "/api/learn/progress").await;
    assert_eq!(
        (status, &v),
        (StatusCode::OK, &json!({"solved": {}})),
        "{v}"
    );
    // A wrong move keeps nothing; the solution is kept.
    let (_, v) = ada
        .post(&s, "/api/learn/entering/2", json!({"move": "e4"}))
        .await;
    assert_eq!(v["verdict"], "refused", "{v}");
    let (_, v) = ada
        .post(&s, "/api/learn/entering/2", json!({"move": "a5"}))
        .await;
    assert_eq!(v["verdict"], "solved", "{v}");
    let (_, v) = ada.get(&s, "/api/learn/progress").await;
    assert_eq!(v, json!({"solved": {"entering": [2]}}));

    // The browser's own progress joins the account's (twice is once).
    let (status, v) = ada
        .post(
            &s,
            "/api/learn/progress",
            json!({"solved": {"board": [2, 1], "entering": [2, 1]}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v, json!({"solved": {"board": [1, 2], "entering": [1, 2]}}));

    // Refused whole: an unknown lesson, an exercise out of range, a wrong shape.
    for bad in [
        json!({"solved": {"majority": [1], "nothing": [1]}}),
        json!({"solved": {"majority": [1, 99]}}),
        json!({"solved": {"majority": [0]}}),
        json!({"solved": ["majority"]}),
        json!({"solved": {}, "more": 1}),
    ] {
        let (status, v) = ada.post(&s, "/api/learn/progress", bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
        assert_eq!(v["error"], "bad_request", "{bad}: {v}");
    }
    let (_, v) = ada.get(&s, "/api/learn/progress").await;
    assert_eq!(v, json!({"solved": {"board": [1, 2], "entering": [1, 2]}}));

    // Another player's progress is their own.
    let bob = sign_up(&s, "bob").await;
    let (_, v) = bob.get(&s, "/api/learn/progress").await;
    assert_eq!(v, json!({"solved": {}}));
    s.stop().await;
}
