//! The HTTP and WebSocket API of docs/api.md, against a real server on loopback over a real
//! SQLite file.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_between_people_from_invitation_to_agreed_draw_and_export() {
    let srv = TestServer::start().await;

    let white = srv.create(json!({"mode": "human", "color": "white"})).await;
    let id = id_of(&white);
    assert_eq!(white["seat"], "white");
    assert_eq!(white["game"]["black"]["joined"], false);
    let invite = white["invite"].as_str().expect("an invitation code");

    // A spectator gets the state at once, then every change.
    let mut spectator = srv.socket(&id).await;
    assert_eq!(next_state(&mut spectator).await["ply"], 0);

    let (status, black) = srv
        .post(&format!("/api/games/{id}/join"), json!({"invite": invite}))
        .await;
    assert_eq!(status, StatusCode::OK, "{black}");
    assert_eq!(black["seat"], "black");
    assert!(black.get("invite").is_none());
    assert_ne!(black["token"], white["token"]);
    let seen = next_state(&mut spectator).await;
    assert_eq!(seen["black"]["joined"], true);

    let tokens = [white["token"].clone(), black["token"].clone()];
    let mut game = black["game"].clone();
    for ply in 0..6 {
        let mv = first_legal(&game);
        let (status, answer) = srv.play(&id, &tokens[ply % 2], ply as i64, &mv).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["ply"], ply + 1);
        // The answer is a delta: the new move and the positions before and after it.
        assert_eq!(answer["from"], ply);
        assert_eq!(answer["moves"], json!([mv]));
        assert_eq!(answer["positions"].as_array().map(Vec::len), Some(2));
        let seen = next_state(&mut spectator).await;
        assert_eq!(seen["ply"], ply + 1);
        assert_eq!(seen["moves"][ply], mv.as_str());
        assert_eq!(seen["position"], answer["position"]);
        game = answer;
    }

    // Black offers, White declines; Black offers again and White accepts.
    let draw_path = format!("/api/games/{id}/draw");
    let draw = |token: &Value, action: &str| {
        srv.post(&draw_path, json!({"token": token, "action": action}))
    };
    let (status, offered) = draw(&tokens[1], "offer").await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    assert_eq!(offered["draw_offer"], "black");
    assert_eq!(next_state(&mut spectator).await["draw_offer"], "black");
    let (status, declined) = draw(&tokens[0], "decline").await;
    assert_eq!(status, StatusCode::OK, "{declined}");
    assert_eq!(declined["draw_offer"], Value::Null);
    draw(&tokens[1], "offer").await;
    let (status, agreed) = draw(&tokens[0], "accept").await;
    assert_eq!(status, StatusCode::OK, "{agreed}");
    assert_eq!(agreed["status"], "finished");
    assert_eq!(agreed["result"], "1/2-1/2");
    assert_eq!(agreed["reason"], "agreement");
    assert_eq!(agreed["legal_moves"], json!([]));
    let seen = state_where(&mut spectator, |g| g["status"] == "finished").await;
    assert_eq!(seen["reason"], "agreement");

    // The finished game is in the list of finished games, not in that of ongoing ones.
    let (_, finished) = srv.get("/api/games?status=finished").await;
    let listed = &finished["games"][0];
    assert_eq!(listed["id"], id.as_str());
    assert_eq!(listed["result"], "1/2-1/2");
    assert_eq!(listed["ply"], 6);
    let (_, ongoing) = srv.get("/api/games?status=ongoing").await;
    assert!(ongoing["games"]
        .as_array()
        .expect("list")
        .iter()
        .all(|g| g["id"] != id.as_str()));

    // Export, import, export again: the same record.
    let (status, ctype, record) = srv.get_text(&format!("/api/games/{id}/record")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(ctype.starts_with("text/plain"), "{ctype}");
    assert!(record.contains("[Result \"1/2-1/2\"]"), "{record}");
    assert!(record.contains("[Termination \"agreement\"]"), "{record}");
    let (status, imported) = srv
        .post_raw("/api/games/import", "text/plain", &record)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["mode"], "imported");
    assert_eq!(imported["moves"], srv.game(&id).await["moves"]);
    assert_eq!(imported["result"], "1/2-1/2");
    assert_eq!(imported["reason"], "agreement");
    // A record from elsewhere that names no ending keeps its result.
    let (status, resigned) = srv
        .post_raw("/api/games/import", "text/plain", "1. d3 e1 0-1\n")
        .await;
    assert_eq!(status, StatusCode::CREATED, "{resigned}");
    assert_eq!(
        (&resigned["result"], &resigned["reason"]),
        (&json!("0-1"), &json!("resignation"))
    );
    // A bare move list (no tags, no result) is an unfinished game (issue 9, defect 10).
    let (status, bare) = srv
        .post_raw("/api/games/import", "text/plain", "1. d3 a5 2. f2")
        .await;
    assert_eq!(status, StatusCode::CREATED, "{bare}");
    assert_eq!(bare["moves"], json!(["d3", "a5", "f2"]));
    assert_eq!(
        (&bare["status"], &bare["result"]),
        (&json!("ongoing"), &Value::Null)
    );
    let new_id = imported["id"].as_str().expect("id");
    assert_ne!(new_id, id);
    let (_, _, again) = srv.get_text(&format!("/api/games/{new_id}/record")).await;
    assert_eq!(again, record);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resigned_game_is_finished_for_the_other_side_and_accepts_nothing_more() {
    let srv = TestServer::start().await;
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let (status, _) = srv.play(&id, &white["token"], 0, "d3").await;
    assert_eq!(status, StatusCode::OK);
    let (status, resigned) = srv
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": black["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{resigned}");
    assert_eq!(resigned["result"], "1-0");
    assert_eq!(resigned["reason"], "resignation");
    let (status, err) = srv.play(&id, &black["token"], 1, "a5").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(err["error"], "game_over");
    let (status, err) = srv
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": white["token"]}),
        )
        .await;
    assert_eq!(
        (status, err["error"].clone()),
        (StatusCode::CONFLICT, json!("game_over"))
    );
    let (_, listed) = srv.get("/api/games?status=finished&limit=1").await;
    assert_eq!(listed["games"][0]["id"], id.as_str());
    assert_eq!(listed["games"][0]["reason"], "resignation");
    srv.stop().await;
}

/// Sends a request and checks the status and error code; the game must be unchanged after.
fn refused(request: (StatusCode, Value), status: StatusCode, code: &str) -> String {
    let (got, body) = request;
    assert_eq!(got, status, "{body}");
    assert_eq!(body["error"], code, "{body}");
    let message = body["message"].as_str().expect("a message").to_string();
    assert!(!message.is_empty());
    message
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_request_gets_a_json_error_and_changes_nothing() {
    let srv = TestServer::start().await;
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let (wt, bt) = (white["token"].clone(), black["token"].clone());
    let moves = format!("/api/games/{id}/moves");
    srv.play(&id, &wt, 0, "d3").await;
    let before = srv.game(&id).await;
    let (_, list_before) = srv.get("/api/games").await;
    let bad = StatusCode::BAD_REQUEST;

    // Malformed bodies, missing and mistyped fields, bad queries.
    for body in ["{\"token\": ", "not json", "", "[1, 2]"] {
        refused(
            srv.post_raw(&moves, "application/json", body).await,
            bad,
            "bad_request",
        );
    }
    refused(
        srv.post(&moves, json!({"token": bt, "move": "a5"})).await,
        bad,
        "bad_request",
    );
    refused(
        srv.post(&moves, json!({"token": bt, "ply": "one", "move": "a5"}))
            .await,
        bad,
        "bad_request",
    );
    refused(
        srv.post(&moves, json!({"token": bt, "ply": 1, "move": 5}))
            .await,
        bad,
        "bad_request",
    );
    for query in ["status=later", "limit=0", "limit=many", "limit=100000"] {
        refused(
            srv.get(&format!("/api/games?{query}")).await,
            bad,
            "bad_request",
        );
    }
    for body in [
        json!({"mode": "engine", "color": "white", "level": 11}),
        json!({"mode": "engine", "color": "white"}),
        json!({"mode": "chess", "color": "white"}),
        json!({"mode": "human", "color": "green"}),
        json!({"mode": "human"}),
        json!({"mode": "human", "color": "white", "position": "X:99"}),
    ] {
        refused(srv.post("/api/games", body).await, bad, "bad_request");
    }
    refused(
        srv.post(
            &format!("/api/games/{id}/draw"),
            json!({"token": bt, "action": "maybe"}),
        )
        .await,
        bad,
        "bad_request",
    );
    let message = refused(
        srv.post_raw(
            "/api/games/import",
            "text/plain",
            "[Event \"x\"]\n\n1. d3 zz9 *\n",
        )
        .await,
        bad,
        "bad_request",
    );
    assert!(message.contains("line 3"), "{message}");
    // Said for a person: the move's number and word, why, a few legal moves, not forty.
    assert!(message.contains("move 1... 'zz9'"), "{message}");
    assert!(message.contains("(38 in all)"), "{message}");
    let message = refused(
        srv.post_raw(
            "/api/games/import",
            "text/plain",
            "[Position \"W:0:0:d4=W,e4=B\"]\n\n1. d4xf4 0-1\n",
        )
        .await,
        bad,
        "bad_request",
    );
    assert!(message.contains("ended 1-0"), "{message}");

    // Tokens.
    let forbidden = StatusCode::FORBIDDEN;
    refused(
        srv.post(&moves, json!({"ply": 1, "move": "a5"})).await,
        forbidden,
        "bad_token",
    );
    refused(
        srv.play(&id, &json!("not-a-token"), 1, "a5").await,
        forbidden,
        "bad_token",
    );
    refused(
        srv.play(&id, &json!(""), 1, "a5").await,
        forbidden,
        "bad_token",
    );
    refused(
        srv.post(
            &format!("/api/games/{id}/resign"),
            json!({"token": "nobody"}),
        )
        .await,
        forbidden,
        "bad_token",
    );
    refused(
        srv.post(&format!("/api/games/{id}/join"), json!({"invite": "wrong"}))
            .await,
        forbidden,
        "bad_token",
    );

    // Unknown games.
    let missing = StatusCode::NOT_FOUND;
    refused(srv.get("/api/games/nosuchgame").await, missing, "not_found");
    refused(
        srv.play("nosuchgame", &wt, 0, "d3").await,
        missing,
        "not_found",
    );
    refused(
        srv.get("/api/games/nosuchgame/ws").await,
        missing,
        "not_found",
    );
    refused(
        srv.get("/api/games/nosuchgame/record").await,
        missing,
        "not_found",
    );

    // Turn, ply, legality, seats, modes.
    let conflict = StatusCode::CONFLICT;
    refused(srv.play(&id, &wt, 1, "a5").await, conflict, "not_your_turn");
    refused(srv.play(&id, &bt, 0, "a5").await, conflict, "stale_ply");
    refused(srv.play(&id, &bt, 7, "a5").await, conflict, "stale_ply");
    for text in ["d3", "zz", "a5-a6", ""] {
        let message = refused(
            srv.play(&id, &bt, 1, text).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        );
        assert!(
            message.contains("a5, b4"),
            "the legal moves are listed: {message}"
        );
    }
    refused(
        srv.post(
            &format!("/api/games/{id}/join"),
            json!({"invite": white["invite"]}),
        )
        .await,
        conflict,
        "seat_taken",
    );
    refused(
        srv.post(&format!("/api/games/{id}/takeback"), json!({"token": bt}))
            .await,
        conflict,
        "not_allowed",
    );
    refused(
        srv.post(&format!("/api/games/{id}/hint"), json!({"token": bt}))
            .await,
        conflict,
        "not_allowed",
    );
    refused(
        srv.post(
            &format!("/api/games/{id}/draw"),
            json!({"token": bt, "action": "accept"}),
        )
        .await,
        conflict,
        "not_allowed",
    );

    // Nothing changed: not the game, not the list.
    let after = srv.game(&id).await;
    assert_eq!(after, before);
    let (_, list_after) = srv.get("/api/games").await;
    assert_eq!(list_after, list_before);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_submissions_for_one_ply_exactly_one_is_accepted() {
    let srv = TestServer::start().await;
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let tokens = [white["token"].clone(), black["token"].clone()];
    let mut game = black["game"].clone();
    for ply in 0..16usize {
        let legal = game["legal_moves"].as_array().expect("moves").clone();
        let a = legal[0].as_str().expect("move");
        let b = legal[legal.len() - 1].as_str().expect("move");
        let token = &tokens[ply % 2];
        let (first, second) = tokio::join!(
            srv.play(&id, token, ply as i64, a),
            srv.play(&id, token, ply as i64, b)
        );
        let answers = [first, second];
        let accepted: Vec<&Value> = answers
            .iter()
            .filter(|(s, _)| *s == StatusCode::OK)
            .map(|(_, v)| v)
            .collect();
        assert_eq!(accepted.len(), 1, "ply {ply}: {answers:?}");
        let loser = answers
            .iter()
            .find(|(s, _)| *s != StatusCode::OK)
            .expect("one refused");
        assert_eq!(loser.0, StatusCode::CONFLICT, "{:?}", loser.1);
        assert_eq!(loser.1["error"], "stale_ply");
        game = join(&game, accepted[0]).expect("the answer joins the game");
        assert_eq!(game["ply"], ply + 1);
    }
    assert_eq!(srv.game(&id).await["moves"], game["moves"]);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_replies_takes_back_and_hints() {
    let srv = TestServer::start().await;
    let grant = srv
        .create(json!({"mode": "engine", "color": "white", "level": 1}))
        .await;
    let id = id_of(&grant);
    let token = grant["token"].clone();
    assert_eq!(grant["game"]["black"]["kind"], "engine");
    assert_eq!(grant["game"]["engine_thinking"], false);
    assert!(grant.get("invite").is_none());
    let mut socket = srv.socket(&id).await;
    next_state(&mut socket).await;

    // A hint for the person to move.
    let (status, hint) = srv
        .post(&format!("/api/games/{id}/hint"), json!({"token": token}))
        .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let legal = grant["game"]["legal_moves"].as_array().expect("moves");
    assert!(legal.contains(&hint["move"]), "{hint}");
    assert!(hint["score"].is_i64());

    // Two moves; after each the engine replies, over the WebSocket.
    let mut game = grant["game"].clone();
    for round in 0..2 {
        let ply = game["ply"].as_i64().expect("ply");
        let (status, answer) = srv.play(&id, &token, ply, &first_legal(&game)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["ply"], ply + 1);
        assert_eq!(answer["engine_thinking"], true);
        // Not the person's turn while the engine thinks (or stale, once it has replied).
        let (status, err) = srv.play(&id, &token, ply + 1, &first_legal(&answer)).await;
        assert_eq!(status, StatusCode::CONFLICT, "round {round}");
        assert!(
            err["error"] == "not_your_turn" || err["error"] == "stale_ply",
            "{err}"
        );
        game = state_where(&mut socket, |g| g["ply"] == ply + 2).await;
        assert_eq!(game["engine_thinking"], false);
        assert_eq!(game["turn"], "white");
    }
    assert_eq!(srv.game(&id).await["moves"], game["moves"]);

    // Takeback: the engine's reply and the person's move.
    let (status, back) = srv
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"token": token}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["ply"], 2);
    assert_eq!(back["from"], 2);
    assert_eq!(
        srv.game(&id).await["moves"],
        json!(game["moves"].as_array().expect("moves")[..2])
    );
    assert_eq!(back["turn"], "white");
    assert_eq!(srv.game(&id).await["ply"], 2);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_opens_when_the_person_plays_black_and_takeback_needs_a_move() {
    let srv = TestServer::start().await;
    let grant = srv
        .create(json!({"mode": "engine", "color": "black", "level": 2}))
        .await;
    let id = id_of(&grant);
    assert_eq!(grant["seat"], "black");
    assert_eq!(grant["game"]["white"]["kind"], "engine");
    let mut socket = srv.socket(&id).await;
    let game = state_where(&mut socket, |g| g["ply"] == 1).await;
    assert_eq!(game["turn"], "black");
    assert_eq!(game["engine_thinking"], false);
    let (status, err) = srv
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"token": grant["token"]}),
        )
        .await;
    assert_eq!(
        (status, err["error"].clone()),
        (StatusCode::CONFLICT, json!("not_allowed"))
    );
    let (status, err) = srv
        .post(
            &format!("/api/games/{id}/draw"),
            json!({"token": grant["token"], "action": "offer"}),
        )
        .await;
    assert_eq!(
        (status, err["error"].clone()),
        (StatusCode::CONFLICT, json!("not_allowed"))
    );
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_socket_gets_the_current_state() {
    let srv = TestServer::start().await;
    let (white, _black) = srv.human_game().await;
    let id = id_of(&white);
    let socket = srv.socket(&id).await;
    drop(socket);
    let (status, _) = srv.play(&id, &white["token"], 0, "e1").await;
    assert_eq!(status, StatusCode::OK);
    let mut again = srv.socket(&id).await;
    let state = next_state(&mut again).await;
    assert_eq!(state["moves"], json!(["e1"]));
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_a_restart_and_games_leave_memory_and_come_back() {
    let db = TestDb::new();
    let srv = TestServer::builder().db(&db).start().await;
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let tokens = [white["token"].clone(), black["token"].clone()];
    let mut game = black["game"].clone();
    for ply in 0..4usize {
        let (status, answer) = srv
            .play(&id, &tokens[ply % 2], ply as i64, &first_legal(&game))
            .await;
        assert_eq!(status, StatusCode::OK);
        game = join(&game, &answer).expect("the answer joins the game");
        if ply == 1 {
            // Dropped from memory, then rebuilt from the database on the next request.
            assert_eq!(srv.server.state().evict_idle(std::time::Duration::ZERO), 1);
            assert_eq!(srv.server.state().cached(), 0);
        }
    }
    srv.stop().await;

    let srv = TestServer::builder().db(&db).start().await;
    let after = srv.game(&id).await;
    assert_eq!(after["moves"], game["moves"]);
    assert_eq!(after["position"], game["position"]);
    // The seats' tokens still hold.
    let (status, _) = srv.play(&id, &tokens[0], 4, &first_legal(&after)).await;
    assert_eq!(status, StatusCode::OK);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_assets_are_served() {
    let srv = TestServer::start().await;
    for page in ["/", "/game/abc12345"] {
        let (status, ctype, body) = srv.get_text(page).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(ctype, "text/html; charset=utf-8");
        assert!(body.to_lowercase().contains("<html"), "{page}");
    }
    for name in emergo_server::assets::names() {
        let (status, ctype, _) = srv.get_text(&format!("/assets/{name}")).await;
        assert_eq!(status, StatusCode::OK, "{name}");
        assert_eq!(ctype, emergo_server::assets::content_type(name));
    }
    let (status, _, _) = srv.get_text("/assets/no-such-file.js").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, health) = srv.get("/healthz").await;
    assert_eq!(status, StatusCode::OK, "{health}");
    assert_eq!(health["status"], "ok");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_while_the_engine_thinks_or_after_it_replied_returns_the_move_to_the_person() {
    let srv = TestServer::start().await;
    let grant = srv
        .create(json!({"mode": "engine", "color": "white", "level": 1}))
        .await;
    let id = id_of(&grant);
    let token = grant["token"].clone();
    let mut socket = srv.socket(&id).await;
    next_state(&mut socket).await;
    for _ in 0..5 {
        let (status, _) = srv.play(&id, &token, 0, "d3").await;
        assert_eq!(status, StatusCode::OK);
        // Whether the engine has replied yet or not, the takeback leaves the person to move
        // at the start, and no late reply follows.
        let (status, back) = srv
            .post(
                &format!("/api/games/{id}/takeback"),
                json!({"token": token}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{back}");
        assert_eq!(back["ply"], 0);
        assert_eq!(back["engine_thinking"], false);
    }
    let (status, _) = srv.play(&id, &token, 0, "e1").await;
    assert_eq!(status, StatusCode::OK);
    // (The socket still holds the states of the rounds above.)
    let game = state_where(&mut socket, |g| g["ply"] == 2 && g["moves"][0] == "e1").await;
    assert_eq!(game["turn"], "white");
    assert_eq!(srv.game(&id).await["moves"], game["moves"]);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_engine_to_move_replies_when_the_game_is_opened() {
    let db = TestDb::new();
    let srv = TestServer::builder().db(&db).start().await;
    let grant = srv
        .create(json!({"mode": "engine", "color": "white", "level": 10}))
        .await;
    let id = id_of(&grant);
    let (status, moved) = srv.play(&id, &grant["token"], 0, "e1").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(moved["engine_thinking"], true);
    // Stopped while the engine thinks (level 10 thinks for up to 2 s): its reply is lost with
    // the server, the person's acknowledged move is not.
    srv.stop().await;

    let srv = TestServer::builder().db(&db).start().await;
    let reopened = srv.game(&id).await;
    assert_eq!(reopened["moves"][0], "e1");
    if reopened["ply"] == 1 {
        assert_eq!(
            reopened["engine_thinking"], true,
            "the engine is at it again"
        );
    }
    let mut socket = srv.socket(&id).await;
    let replied = state_where(&mut socket, |g| g["ply"] == 2).await;
    assert_eq!(replied["turn"], "white");
    assert_eq!(replied["engine_thinking"], false);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_random_colour_gives_either_seat() {
    let srv = TestServer::start().await;
    let mut seats = std::collections::BTreeSet::new();
    // Both colours come up; the chance that 40 fair draws agree is 2^-39.
    for _ in 0..40 {
        let grant = srv
            .create(json!({"mode": "human", "color": "random"}))
            .await;
        let seat = grant["seat"].as_str().expect("a seat").to_string();
        assert_eq!(grant["game"][seat.as_str()]["joined"], true);
        seats.insert(seat);
    }
    assert_eq!(seats.into_iter().collect::<Vec<_>>(), ["black", "white"]);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_games_view_is_paged_from_a_ply_over_http_and_the_websocket() {
    let srv = TestServer::start().await;
    let imported = long_game(&srv, 300).await;
    assert_eq!(imported["ply"], 300);
    let id = imported["id"].as_str().expect("id").to_string();
    let (_, _, whole_text) = srv.get_text(&format!("/api/games/{id}")).await;
    let whole: Value = serde_json::from_str(&whole_text).expect("JSON");
    assert_eq!(whole["from"], 0);

    let (status, _, paged_text) = srv.get_text(&format!("/api/games/{id}?from=299")).await;
    assert_eq!(status, StatusCode::OK);
    eprintln!(
        "a 300-ply game's view: {} bytes whole, {} bytes from ply 299",
        whole_text.len(),
        paged_text.len()
    );
    assert!(whole_text.len() > 100_000, "{}", whole_text.len());
    assert!(paged_text.len() < 4_000, "{}", paged_text.len());
    let paged: Value = serde_json::from_str(&paged_text).expect("JSON");
    assert_eq!(paged["from"], 299);
    // The lists are the tail of the whole view's; everything else is the same.
    let tail = |key: &str, from: usize| {
        Value::Array(whole[key].as_array().expect("a list")[from..].to_vec())
    };
    for key in ["moves", "history", "positions", "boards"] {
        assert_eq!(paged[key], tail(key, 299), "{key}");
    }
    assert_eq!(paged["positions"].as_array().map(Vec::len), Some(2));
    let mut rest = paged.clone();
    let mut whole_rest = whole.clone();
    for v in [&mut rest, &mut whole_rest] {
        for key in ["from", "moves", "history", "positions", "boards"] {
            v.as_object_mut().expect("an object").remove(key);
        }
    }
    assert_eq!(rest, whole_rest);

    // Beyond the game's ply: from the ply (the current position alone); a bad ply: 400.
    let (_, beyond) = srv.get(&format!("/api/games/{id}?from=999")).await;
    assert_eq!(
        (&beyond["from"], &beyond["moves"]),
        (&json!(300), &json!([]))
    );
    assert_eq!(beyond["positions"], tail("positions", 300));
    let (status, bad) = srv.get(&format!("/api/games/{id}?from=x")).await;
    assert_eq!(
        (status, &bad["error"]),
        (StatusCode::BAD_REQUEST, &json!("bad_request"))
    );

    // A WebSocket that names the ply it holds gets the paged state first.
    let ws = format!("ws://{}/api/games/{id}/ws?from=298", srv.server.addr());
    let (mut socket, _) = tokio_tungstenite::connect_async(ws)
        .await
        .expect("WebSocket");
    let first = next_state(&mut socket).await;
    assert_eq!(first["from"], 298);
    assert_eq!(first["moves"], tail("moves", 298));
    srv.stop().await;
}

/// Issue 20, item 4: the game view (the grant's, a game's, a socket's), the list of games and
/// a seek say their board, `"variant": "emergo"` (the only board games are made on yet).
#[tokio::test]
async fn item4_the_game_view_the_list_and_a_seek_say_their_variant() {
    let srv = TestServer::start().await;
    let grant = srv
        .create(json!({"mode": "engine", "level": 1, "color": "white"}))
        .await;
    assert_eq!(grant["game"]["variant"], "emergo", "{grant}");
    let id = id_of(&grant);
    let (status, view) = srv.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["variant"], "emergo");
    let mut socket = srv.socket(&id).await;
    assert_eq!(next_state(&mut socket).await["variant"], "emergo");
    let (status, list) = srv.get("/api/games").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let line = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == id.as_str())
        .expect("the game is listed");
    assert_eq!(line["variant"], "emergo", "{line}");
    let alice = sign_up(&srv, "alice").await;
    let (status, seek) = post_as(&srv, &alice, "/api/seeks", json!({"time": "3+2"})).await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    assert_eq!(seek["variant"], "emergo", "{seek}");
    srv.stop().await;
}
