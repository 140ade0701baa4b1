//! Puzzles through the API (issue 21): the shipped set loaded into the empty database at first
//! start, `next` (never the puzzle just given, never one an account tried; a theme filter), one
//! puzzle, and attempts rated by Glicko-2 for the account and the puzzle (a replay counts for
//! nothing, an anonymous attempt answers `player: null` and changes nothing).

use crate::common::*;
use emergo_platform::domain::rating::{Rating, Score};
use reqwest::StatusCode;
use serde_json::json;

/// The first start loads the shipped set; a puzzle reads back with the documented fields, and
/// its first move is legal (the position API lists it).
#[tokio::test]
async fn the_shipped_puzzles_are_loaded_at_first_start_and_read_back() {
    let s = TestServer::start().await;
    let set = emergo_platform::domain::puzzle::shipped().expect("the shipped set");
    let first = &set[0];
    let (status, p) = s.get(&format!("/api/puzzles/{}", first.id)).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["position"], first.position.as_str());
    assert_eq!(p["line"], json!(first.line));
    assert_eq!(p["rating"], first.rating);
    assert_eq!(p["variant"], "emergo");
    let (status, board) = s
        .post("/api/position/moves", json!({"position": p["position"]}))
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let legal = board["legal_moves"].as_array().expect("moves");
    assert!(
        legal.iter().any(|m| m["move"] == p["line"][0]),
        "the solver's first move is legal: {board}"
    );
    let (status, e) = s.get("/api/puzzles/nosuchpuzzle").await;
    assert_eq!(
        (status, &e["error"]),
        (StatusCode::NOT_FOUND, &json!("not_found")),
        "{e}"
    );
    s.stop().await;
}

/// A worked Glicko-2 case: a new account (1500, RD 350) solves a puzzle at its starting rating
/// and RD 350; both ratings move as one rated game between them says, and a replay moves
/// nothing.
#[tokio::test]
async fn an_attempt_is_one_glicko_2_game_between_the_account_and_the_puzzle() {
    let s = TestServer::start().await;
    let user = sign_up(&s, "solver").await;
    let (status, p) = user.get(&s, "/api/puzzles/next").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let id = p["id"].as_str().expect("an id").to_string();
    let start = p["rating"].as_f64().expect("a rating");
    let puzzle = Rating {
        rating: start,
        rd: 350.0,
        volatility: 0.06,
    };
    let player = Rating::new().after_game(&puzzle, Score::Win);
    let puzzle_after = puzzle.after_game(&Rating::new(), Score::Loss);
    let path = format!("/api/puzzles/{id}/attempt");
    let (status, a) = user.post(&s, &path, json!({"win": true})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["player"]["rating"], player.rating.round() as i64, "{a}");
    assert_eq!(a["player"]["rd"], player.rd.round() as i64, "{a}");
    assert_eq!(
        a["puzzle"]["rating"],
        puzzle_after.rating.round() as i64,
        "{a}"
    );
    assert!(player.rating > 1500.0 && puzzle_after.rating < start);
    // A replay (even a failed one) changes nothing.
    let (_, again) = user.post(&s, &path, json!({"win": false})).await;
    assert_eq!(again, a, "a replay does not count");
    let (_, shown) = s.get(&format!("/api/puzzles/{id}")).await;
    assert_eq!(shown["rating"], a["puzzle"]["rating"]);
    s.stop().await;
}

/// The worked numbers themselves (Glickman's formulas): 1500/350 beating 1500/350 gives
/// 1662/290, and the loser 1338/290.
#[test]
fn glicko_2_worked_case_of_two_new_ratings() {
    let after = Rating::new().after_game(&Rating::new(), Score::Win);
    assert_eq!((after.rating.round(), after.rd.round()), (1662.0, 290.0));
    let loser = Rating::new().after_game(&Rating::new(), Score::Loss);
    assert_eq!((loser.rating.round(), loser.rd.round()), (1338.0, 290.0));
}

/// Anonymous: the attempt answers the puzzle's rating and `player: null`, and rates nothing.
#[tokio::test]
async fn an_anonymous_attempt_answers_a_null_player_and_rates_nothing() {
    let s = TestServer::start().await;
    let (status, p) = s.get("/api/puzzles/next").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let path = format!("/api/puzzles/{}/attempt", p["id"].as_str().expect("id"));
    let (status, a) = s.post(&path, json!({"win": false})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(
        a,
        json!({"puzzle": {"rating": p["rating"]}, "player": null})
    );
    let (status, e) = s.post(&path, json!({"win": "yes"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    let (status, e) = s.post(&path, json!({"win": true, "extra": 1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    s.stop().await;
}

/// `next` never hands an account a puzzle it tried, nor anyone the puzzle just given; a theme
/// narrows the choice; a word that is no theme is refused.
#[tokio::test]
async fn next_never_hands_a_signed_in_caller_a_puzzle_it_tried() {
    let s = TestServer::start().await;
    let user = sign_up(&s, "trier").await;
    let mut tried = std::collections::HashSet::new();
    let mut last = String::new();
    for _ in 0..8 {
        let (status, p) = user.get(&s, "/api/puzzles/next").await;
        assert_eq!(status, StatusCode::OK, "{p}");
        let id = p["id"].as_str().expect("id").to_string();
        assert!(!tried.contains(&id), "{id} was tried already");
        assert_ne!(id, last, "the same puzzle twice in a row");
        let (status, _) = user
            .post(
                &s,
                &format!("/api/puzzles/{id}/attempt"),
                json!({"win": true}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        tried.insert(id.clone());
        last = id;
    }
    // Anonymous (another caller): never the puzzle this address was just given.
    let mut last = String::new();
    for _ in 0..6 {
        let (_, p) = s.get("/api/puzzles/next").await;
        let id = p["id"].as_str().expect("id").to_string();
        assert_ne!(id, last, "anonymous: not the puzzle just given");
        last = id;
    }
    let (status, p) = s.get("/api/puzzles/next?theme=one_move").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert!(
        p["themes"]
            .as_array()
            .expect("themes")
            .contains(&json!("one_move")),
        "{p}"
    );
    let (status, e) = s.get("/api/puzzles/next?theme=no%20such").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    let (status, e) = s.get("/api/puzzles/next?theme=nosuchtheme").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
    s.stop().await;
}

/// Puzzle requests are bounded per client like every other kind: over the burst, 429
/// `rate_limited` with the cap's name.
#[tokio::test]
async fn puzzle_requests_from_one_client_are_rate_limited() {
    let s = TestServer::builder()
        .config(|c| {
            c.limits.puzzles_burst = 3;
            c.limits.puzzles_every = std::time::Duration::from_secs(60);
        })
        .start()
        .await;
    for _ in 0..3 {
        let (status, p) = s.get("/api/puzzles/next").await;
        assert_eq!(status, StatusCode::OK, "{p}");
    }
    let (status, e) = s.get("/api/puzzles/next").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert_eq!(e["cap"], "puzzles_rate", "{e}");
    s.stop().await;
}
