//! Issue 20, item 4: the site plays every board. A game, an invitation and a seek are made on
//! the board `"variant"` names (`emergo`, `7x7`, `hex`; absent: `emergo`), played by API moves
//! in that board's names, kept across a restart on its board, exported with its `[Variant]`
//! tag and imported back onto it; a rematch keeps the board; an unknown variant is 400
//! `bad_request` naming the three.

use crate::common::*;
use emergo_core::game::Game;
use emergo_core::{Emergo7x7, HexEmergo, Variant};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The moves of a view, as text.
fn moves_of(view: &Value) -> Vec<String> {
    view["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("text").to_string())
        .collect()
}

/// Replays `moves` on board `V` from its start: every one must be legal there, so the server
/// played the game on that board.
fn replay_on<V: Variant>(moves: &[String]) -> Game<V> {
    let mut game = Game::<V>::default();
    for mv in moves {
        game.play_text(mv)
            .unwrap_or_else(|e| panic!("{mv} on {}: {e}", V::KIND));
    }
    game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_a_hex_engine_game_is_played_by_api_moves_and_reloaded_on_its_board_after_a_restart()
{
    let db = TestDb::new();
    let srv = TestServer::builder().db(&db).start().await;
    let grant = srv
        .create(json!({"mode": "engine", "color": "white", "level": 1, "variant": "hex"}))
        .await;
    let id = id_of(&grant);
    let token = grant["token"].clone();
    let mut game = grant["game"].clone();
    assert_eq!(game["variant"], "hex");
    // R9.3 on the hexagon: 37 cells, all but the centre d4 open to White's first entry.
    assert_eq!(game["legal_moves"].as_array().expect("moves").len(), 36);
    assert!(!game["legal_moves"]
        .as_array()
        .expect("moves")
        .contains(&json!("d4")));
    assert_eq!(
        game["start"],
        Game::<HexEmergo>::default().start().to_string()
    );
    let mut socket = srv.socket(&id).await;
    next_state(&mut socket).await;
    // The person plays its first legal move, the engine replies on the hexagon, 15 rounds or
    // to the end.
    for _ in 0..15 {
        if game["status"] != "ongoing" {
            break;
        }
        let ply = game["ply"].as_i64().expect("ply");
        let (status, answer) = srv.play(&id, &token, ply, &first_legal(&game)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        game = state_where(&mut socket, |g| {
            g["ply"] == ply + 2 || (g["ply"] == ply + 1 && g["status"] == "finished")
        })
        .await;
    }
    let moves = moves_of(&game);
    assert!(moves.len() >= 10, "{moves:?}");
    let replayed = replay_on::<HexEmergo>(&moves);
    assert_eq!(game["position"], replayed.position().to_string());
    srv.stop().await;

    // After a restart the game is read back and replayed on the hexagon, and goes on there.
    let srv = TestServer::builder().db(&db).start().await;
    let reopened = srv.game(&id).await;
    assert_eq!(reopened["variant"], "hex");
    assert_eq!(moves_of(&reopened), moves);
    assert_eq!(reopened["position"], game["position"]);
    if reopened["status"] == "ongoing" {
        let ply = reopened["ply"].as_i64().expect("ply");
        let (status, answer) = srv.play(&id, &token, ply, &first_legal(&reopened)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let mut played = moves.clone();
        played.push(first_legal(&reopened));
        replay_on::<HexEmergo>(&played);
    }
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_a_7x7_game_between_people_is_played_exported_and_reloaded_on_its_board() {
    let db = TestDb::new();
    let srv = TestServer::builder().db(&db).start().await;
    let (white, black) = srv.human_game_with(json!({"variant": "7x7"})).await;
    let id = id_of(&white);
    assert_eq!(white["game"]["variant"], "7x7");
    assert_eq!(black["game"]["variant"], "7x7");
    // A 9x9 square the 7x7 board does not have is refused as a move, naming the legal ones.
    let (status, refused) = srv.play(&id, &white["token"], 0, "a5").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .expect("a message")
            .contains("c2"),
        "{refused}"
    );
    // Both sides play their first legal move, to the end or 80 plies.
    let mut game = black["game"].clone();
    while game["status"] == "ongoing" && game["ply"].as_i64() < Some(80) {
        let ply = game["ply"].as_i64().expect("ply");
        let seat = if game["turn"] == "white" {
            &white
        } else {
            &black
        };
        let (status, answer) = srv
            .play(&id, &seat["token"], ply, &first_legal(&game))
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        game = answer;
    }
    let moves = moves_of(&srv.game(&id).await);
    assert!(moves.len() >= 20, "{moves:?}");
    let replayed = replay_on::<Emergo7x7>(&moves);
    assert_eq!(game["position"], replayed.position().to_string());

    // The export says the board; imported, the record makes a 7x7 game again.
    let (status, _, record) = srv.get_text(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(record.contains("[Variant \"Emergo 7x7\"]"), "{record}");
    let (status, imported) = srv
        .post_raw("/api/games/import", "text/plain", &record)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["variant"], "7x7");
    assert_eq!(moves_of(&imported), moves);
    srv.stop().await;

    let srv = TestServer::builder().db(&db).start().await;
    let reopened = srv.game(&id).await;
    assert_eq!(reopened["variant"], "7x7");
    assert_eq!(moves_of(&reopened), moves);
    assert_eq!(reopened["position"], game["position"]);
    let (status, list) = srv.get("/api/games?status=all").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let listed = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == id.as_str())
        .cloned()
        .expect("the game is listed");
    assert_eq!(listed["variant"], "7x7");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_an_unknown_variant_is_400_bad_request_naming_the_three() {
    let srv = TestServer::start().await;
    let (status, err) = srv
        .post(
            "/api/games",
            json!({"mode": "engine", "color": "white", "level": 1, "variant": "chess"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert_eq!(err["error"], "bad_request");
    let message = err["message"].as_str().expect("a message");
    for name in ["emergo", "7x7", "hex"] {
        assert!(message.contains(name), "{message}");
    }
    // A position of another board is refused on the board asked for.
    let (status, err) = srv
        .post(
            "/api/games",
            json!({"mode": "human", "color": "white", "variant": "7x7", "position": "W:12:12"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let user = sign_up(&srv, "seeker").await;
    let (status, err) = user
        .post(&srv, "/api/seeks", json!({"time": "5+3", "variant": "go"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let message = err["message"].as_str().expect("a message");
    for name in ["emergo", "7x7", "hex"] {
        assert!(message.contains(name), "{message}");
    }
    // Absent: the 9x9 board.
    let grant = srv.create(json!({"mode": "human", "color": "white"})).await;
    assert_eq!(grant["game"]["variant"], "emergo");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_a_7x7_seek_is_listed_with_its_board_and_accepted_makes_a_7x7_game_its_rematch_too() {
    let srv = TestServer::start().await;
    let owner = sign_up(&srv, "owner7").await;
    let taker = sign_up(&srv, "taker7").await;
    let (status, seek) = owner
        .post(
            &srv,
            "/api/seeks",
            json!({"time": "5+3", "color": "white", "variant": "7x7"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    assert_eq!(seek["variant"], "7x7");
    let (status, listed) = taker.get(&srv, "/api/seeks").await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    let shown = listed["seeks"]
        .as_array()
        .expect("seeks")
        .iter()
        .find(|s| s["id"] == seek["id"])
        .cloned()
        .expect("the seek is listed");
    assert_eq!(shown["variant"], "7x7");
    let (status, grant) = taker
        .post(
            &srv,
            &format!("/api/seeks/{}/accept", seek["id"].as_str().expect("id")),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    assert_eq!(grant["game"]["variant"], "7x7");
    assert_eq!(
        grant["game"]["start"],
        Game::<Emergo7x7>::default().start().to_string()
    );
    let id = id_of(&grant);
    // White (the owner) enters on the 7x7 board, then resigns; the rematch is on the same board.
    let moves = format!("/api/games/{id}/moves");
    let first = first_legal(&grant["game"]);
    let (status, moved) = owner
        .post(&srv, &moves, json!({"ply": 0, "move": first}))
        .await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    resign_as(&srv, &id, &owner).await;
    let rematch = format!("/api/games/{id}/rematch");
    let (status, offered) = owner.post(&srv, &rematch, json!({"action": "offer"})).await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    let (status, accepted) = taker
        .post(&srv, &rematch, json!({"action": "accept"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{accepted}");
    assert_eq!(accepted["game"]["variant"], "7x7");
    assert_eq!(
        accepted["game"]["legal_moves"].as_array().map(Vec::len),
        Some(24)
    );
    srv.stop().await;
}

/// The player page once `name`'s rating in the pool `pool` counts `games` games.
async fn settled_in(s: &TestServer, name: &str, pool: &str, games: i64) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (_, page) = s.get(&format!("/api/players/{name}")).await;
        if page["ratings"][pool]["games"] == games {
            return page;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never settled in {pool}: {page}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_ratings_are_a_separate_glicko2_pool_per_board_and_category() {
    let srv = TestServer::start().await;
    let white = sign_up(&srv, "hexwhite").await;
    let black = sign_up(&srv, "hexblack").await;
    // A rated 7x7 blitz game from a seek: ten plies, then Black resigns.
    let (status, seek) = white
        .post(
            &srv,
            "/api/seeks",
            json!({"time": "3+2", "rated": true, "color": "white", "variant": "7x7"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    let (status, grant) = black
        .post(
            &srv,
            &format!("/api/seeks/{}/accept", seek["id"].as_str().expect("id")),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    assert_eq!(grant["game"]["variant"], "7x7");
    let id = id_of(&grant);
    ten_plies(&srv, &id, &white, &black).await;
    resign_as(&srv, &id, &black).await;
    let page = settled_in(&srv, "hexwhite", "7x7:blitz", 1).await;
    // The 7x7 pool moved; the 9x9 blitz pool has no game.
    assert!(
        page["ratings"]["7x7:blitz"]["rating"].as_f64() > Some(1500.0),
        "{page}"
    );
    assert!(page["ratings"].get("blitz").is_none(), "{page}");
    assert_eq!(
        page["history"]["7x7:blitz"].as_array().map(Vec::len),
        Some(1),
        "{page}"
    );
    // A rated 9x9 blitz game between them counts in the 9x9 pool alone.
    let id = paired(&srv, &white, &black, "3+2", true).await;
    ten_plies(&srv, &id, &white, &black).await;
    resign_as(&srv, &id, &white).await;
    let page = settled_in(&srv, "hexwhite", "blitz", 1).await;
    assert!(
        page["ratings"]["blitz"]["rating"].as_f64() < Some(1500.0),
        "{page}"
    );
    assert_eq!(page["ratings"]["7x7:blitz"]["games"], 1, "{page}");
    // The results are counted per board too: one won 7x7 game, one lost 9x9 game.
    assert_eq!(
        page["stats"]["7x7:blitz"],
        json!({"games": 1, "wins": 1, "draws": 0, "losses": 0, "rated": 1}),
        "{page}"
    );
    assert_eq!(
        page["stats"]["blitz"],
        json!({"games": 1, "wins": 0, "draws": 0, "losses": 1, "rated": 1}),
        "{page}"
    );
    // A seek shows its owner's rating in its own board's pool.
    let (_, hex_seek) = white
        .post(
            &srv,
            "/api/seeks",
            json!({"time": "3+2", "rated": true, "variant": "7x7"}),
        )
        .await;
    let own = page["ratings"]["7x7:blitz"]["rating"]
        .as_f64()
        .expect("a rating");
    assert_eq!(hex_seek["rating"].as_f64(), Some(own.round()), "{hex_seek}");
    // The leaderboard of a board: its pool (nobody yet: a new player's RD is too wide), the
    // board named; an unknown board is 400.
    let (status, board) = srv.get("/api/leaderboard?category=blitz&variant=7x7").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(
        (&board["variant"], &board["category"]),
        (&json!("7x7"), &json!("blitz"))
    );
    let (status, err) = srv.get("/api/leaderboard?variant=chess").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_a_finished_hex_game_is_reviewed_on_its_board() {
    let srv = TestServer::start().await;
    let (id, _) = finished_game_on(&srv, "hex", 4).await;
    let (status, started) = srv
        .post(&format!("/api/games/{id}/review"), json!({}))
        .await;
    assert!(status.is_success(), "{started}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let review = loop {
        let (status, review) = srv.get(&format!("/api/games/{id}/review")).await;
        assert_eq!(status, StatusCode::OK, "{review}");
        if review["status"] == "done" {
            break review;
        }
        assert!(std::time::Instant::now() < deadline, "never done: {review}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let plies = review["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), 4, "{review}");
    let moves = moves_of(&srv.game(&id).await);
    // Each best move is a legal move of the hexagon where it stood.
    for (k, ply) in plies.iter().enumerate() {
        assert_eq!(ply["move"], moves[k].as_str());
        let best = ply["best"].as_str().expect("a best move").to_string();
        let mut line = moves[..k].to_vec();
        line.push(best);
        replay_on::<HexEmergo>(&line);
    }
    srv.stop().await;
}
