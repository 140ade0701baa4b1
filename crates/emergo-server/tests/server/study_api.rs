//! Studying games through the API (issue 12): positions for the board editor, game reviews
//! kept with the game, and imported records exported with their variations. Run again on
//! PostgreSQL by the second run (EMERGO_TEST_BACKEND=postgres).

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A record with a comment, a nested variation and a variation with its own comment.
const WITH_VARIATIONS: &str = "[Event \"study\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. d3 (1. f2 {the other wing} a5 (1... b6 2. d3) 2. d3) a5 2. f2 {solid} b6 (2... c7) 3. c3 1-0\n";

async fn wait_done(srv: &TestServer, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (status, review) = srv.get(&format!("/api/games/{id}/review")).await;
        assert_eq!(status, StatusCode::OK, "{review}");
        if review["status"] == "done" {
            return review;
        }
        assert!(
            review["status"] == "running" || review["status"] == "queued",
            "{review}"
        );
        let p = review["progress"].as_f64().expect("a progress");
        assert!((0.0..=1.0).contains(&p), "{p}");
        assert!(Instant::now() < deadline, "the review never finished");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_record_exports_with_its_variations_and_comments() {
    let db = TestDb::new();
    let srv = TestServer::builder().db(&db).start().await;
    let (status, game) = srv
        .post_raw("/api/games/import", "text/plain", WITH_VARIATIONS)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    assert_eq!(game["moves"], json!(["d3", "a5", "f2", "b6", "c3"]));
    let id = game["id"].as_str().expect("id");
    let (status, _, exported) = srv.get_text(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, StatusCode::OK);
    let original = emergo_core::GameRecord::parse(WITH_VARIATIONS).expect("the record reads");
    let back = emergo_core::GameRecord::parse(&exported).expect("the export reads");
    assert_eq!(back.moves, original.moves, "the same tree: {exported}");
    assert_eq!(back.tags, original.tags);
    assert_eq!(back.result, original.result);
    assert!(
        exported.contains("{the other wing}") && exported.contains("(2... c7)"),
        "{exported}"
    );

    // It survives a restart: the text is kept with the game, not in memory.
    srv.stop().await;
    let srv = TestServer::builder().db(&db).start().await;
    let (_, _, again) = srv.get_text(&format!("/api/games/{id}/record")).await;
    assert_eq!(again, exported);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_once_and_the_review_is_kept() {
    let db = TestDb::new();
    let srv = TestServer::builder().db(&db).start().await;

    // Not for a game still being played; 404 for no game.
    let (white, _) = srv.human_game().await;
    let live = id_of(&white);
    let (status, refused) = srv
        .post(&format!("/api/games/{live}/review"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["error"], "not_allowed");
    let (status, _) = srv.post("/api/games/nosuchgame/review", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A finished game (resigned after 6 plies) has no review until one is asked for.
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let tokens = [white["token"].clone(), black["token"].clone()];
    let mut game = white["game"].clone();
    for ply in 0..6 {
        let mv = first_legal(&game);
        let (status, next) = srv.play(&id, &tokens[ply % 2], ply as i64, &mv).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        game = join(&game, &next).expect("the answer joins the game");
    }
    let (status, _) = srv
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens[0]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // Before any review: 200 "none" (issue 18 item 12: an expected state is no error).
    let (status, none) = srv.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, StatusCode::OK, "{none}");
    assert_eq!(none["status"], "none", "{none}");

    let (status, started) = srv
        .post(&format!("/api/games/{id}/review"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    assert_eq!(started["status"], "running");
    let review = wait_done(&srv, &id).await;
    let plies = review["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), 6);
    let classes = ["best", "good", "inaccuracy", "mistake", "blunder"];
    for (k, ply) in plies.iter().enumerate() {
        assert_eq!(ply["move"], game["moves"][k], "{ply}");
        assert!(ply["score"].is_i64(), "{ply}");
        assert!(ply["best"].is_string(), "{ply}");
        assert!(
            classes.contains(&ply["class"].as_str().expect("a class")),
            "{ply}"
        );
        assert!(ply["loss"].as_i64().expect("a loss") >= 0);
    }
    for side in ["white", "black"] {
        let a = review["accuracy"][side].as_f64().expect("an accuracy");
        assert!((0.0..=100.0).contains(&a), "{a}");
    }
    assert_eq!(review["progress"], 1.0);

    // Asked again: done at once; after a restart too (kept with the game).
    let (status, again) = srv
        .post(&format!("/api/games/{id}/review"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["plies"], review["plies"]);
    srv.stop().await;
    let srv = TestServer::builder().db(&db).start().await;
    let (status, kept) = srv.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kept["status"], "done");
    assert_eq!(kept["plies"], review["plies"]);

    // An imported game (here unfinished) is reviewed too.
    let (status, imported) = srv
        .post_raw("/api/games/import", "text/plain", "1. d3 a5 2. f2 *\n")
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    let imported = imported["id"].as_str().expect("id");
    let (status, _) = srv
        .post(&format!("/api/games/{imported}/review"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let review = wait_done(&srv, imported).await;
    assert_eq!(review["plies"].as_array().map(Vec::len), Some(3));
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r2_the_position_endpoint_answers_with_the_cores_own_errors() {
    let srv = TestServer::start().await;
    let (status, view) = srv
        .get("/api/position?position=B%3A9%3A9%3Ae5%3DB%2Cc4%3DWWWBB")
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["position"], "B:9:9:c4=WWWBB,e5=B");
    assert_eq!(
        view["board"]["columns"]["c4"],
        json!({"owner": "white", "men": 3, "prisoners": 2})
    );
    assert_eq!(view["status"], "ongoing");
    let (status, err) = srv.get("/api/position?position=W%3A12%3A1%3Ac4%3DWB").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "bad_request");
    assert!(
        err["message"]
            .as_str()
            .is_some_and(|m| m.contains("white has 13 men (board and hand); at most 12")),
        "{err}"
    );
    let (status, _) = srv.get("/api/position").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // A game starts from an edited position, in both modes.
    let grant = srv
        .create(json!({"mode": "human", "color": "black", "position": "B:9:9:c4=WWWBB,e5=B"}))
        .await;
    assert_eq!(grant["game"]["start"], "B:9:9:c4=WWWBB,e5=B");
    srv.stop().await;
}

/// Issue 17, item 8: reviews are one per client at a time, the rest queued with their place
/// shown, not refused; another client's review is not held up behind them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item8_one_review_per_client_runs_the_rest_wait_in_the_queue_with_their_place() {
    let srv = TestServer::start().await;
    // A long game keeps the client's one review busy; short ones wait behind it.
    let import = |record: String| {
        let srv = &srv;
        async move {
            let (status, game) = srv
                .post_raw("/api/games/import", "text/plain", &record)
                .await;
            assert_eq!(status, StatusCode::CREATED, "{game}");
            game["id"].as_str().expect("id").to_string()
        }
    };
    let long = import(shuffling_record(60)).await;
    let mut short = Vec::new();
    for _ in 0..4 {
        short.push(import("1. d3 a5 2. f2 *\n".to_string()).await);
    }
    let (status, first) = srv
        .post(&format!("/api/games/{long}/review"), json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    assert_eq!(first["status"], "running", "{first}");
    for (i, id) in short[..3].iter().enumerate() {
        let (status, queued) = srv
            .post(&format!("/api/games/{id}/review"), json!({}))
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{queued}");
        assert_eq!(queued["status"], "queued", "{queued}");
        assert_eq!(queued["place"], i + 1, "{queued}");
        // Asked again: the same place, not a second entry.
        let (_, again) = srv.get(&format!("/api/games/{id}/review")).await;
        assert_eq!(again["place"], i + 1, "{again}");
    }
    // Another client is served at once, in the second slot.
    let other = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from([127, 0, 0, 3]))
        .build()
        .expect("client");
    let res = other
        .post(format!("{}/api/games/{}/review", srv.base, short[3]))
        .json(&json!({}))
        .send()
        .await
        .expect("sent");
    assert_eq!(res.status(), StatusCode::ACCEPTED);
    let theirs: Value = res.json().await.expect("JSON");
    assert!(
        theirs["status"] == "running" || theirs["status"] == "done",
        "{theirs}"
    );
    assert!(theirs.get("place").is_none(), "{theirs}");
    wait_done(&srv, &short[3]).await;
    // The first client's short reviews are still waiting behind its long one.
    let (_, waiting) = srv.get(&format!("/api/games/{}/review", short[0])).await;
    let (_, long_now) = srv.get(&format!("/api/games/{long}/review")).await;
    if long_now["status"] == "running" {
        assert_eq!(waiting["status"], "queued", "{waiting}");
        assert_eq!(waiting["place"], 1, "{waiting}");
    }
    // Then each runs in turn, and all are done.
    for id in short[..3].iter().chain([&long]) {
        let review = wait_done(&srv, id).await;
        assert!(review["plies"].as_array().is_some_and(|p| !p.is_empty()));
    }
    srv.stop().await;
}
