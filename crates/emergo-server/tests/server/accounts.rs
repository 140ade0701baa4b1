//! Accounts, seats of accounts, seeks and ratings (issue 11), over HTTP. Run on both backends
//! (EMERGO_TEST_BACKEND).

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

async fn send(
    s: &TestServer,
    method: reqwest::Method,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value, Option<String>) {
    send_with(&s.client, s, method, path, cookie, body).await
}

/// An HTTP client whose connections come from the loopback address 127.0.0.`last`.
fn client_from(last: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(std::net::IpAddr::from([127, 0, 0, last]))
        .timeout(std::time::Duration::from_secs(60))
        .build()
        .expect("client")
}

/// [`send`] by the client `c`.
async fn send_with(
    c: &reqwest::Client,
    s: &TestServer,
    method: reqwest::Method,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value, Option<String>) {
    let mut req = c.request(method, format!("{}{path}", s.base));
    if let Some(cookie) = cookie {
        req = req.header("cookie", format!("emergo_session={cookie}"));
    }
    if let Some(body) = body {
        req = req.json(&body);
    }
    let res = req.send().await.expect("request sent");
    let status = res.status();
    let set_cookie = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let text = res.text().await.expect("a body");
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).expect("JSON")
    };
    (status, value, set_cookie)
}

#[tokio::test]
async fn sign_up_log_in_log_out_and_the_session_ends_on_the_server() {
    let s = TestServer::start().await;
    let (status, body, cookie) = send(
        &s,
        reqwest::Method::POST,
        "/api/accounts",
        None,
        Some(json!({"name": "Alice_1", "password": "a good password"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["name"], "Alice_1");
    assert_eq!(body["ratings"], json!({}));
    let cookie = cookie.expect("a cookie");
    assert!(cookie.starts_with("emergo_session="), "{cookie}");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");
    let alice = User {
        name: "Alice_1".into(),
        cookie: token_of(&cookie),
    };
    let (status, me) = get_as(&s, &alice, "/api/me").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["name"], "Alice_1");

    // Names are unique regardless of case; bad names and short passwords are refused.
    let again = |name: &str, password: &str| {
        let body = json!({"name": name, "password": password});
        let s = &s;
        async move {
            let (status, body, _) =
                send(s, reqwest::Method::POST, "/api/accounts", None, Some(body)).await;
            (status, body["error"].as_str().unwrap_or("").to_string())
        }
    };
    assert_eq!(
        again("alice_1", "another password").await,
        (StatusCode::CONFLICT, "name_taken".into())
    );
    for (name, password) in [
        ("ab", "long enough"),
        ("has space", "long enough"),
        ("x23456789012345678901", "long enough"),
    ] {
        assert_eq!(
            again(name, password).await,
            (StatusCode::BAD_REQUEST, "bad_request".into()),
            "{name}"
        );
    }
    assert_eq!(
        again("bob", "short").await,
        (StatusCode::BAD_REQUEST, "weak_password".into())
    );

    // Log in (any case of the name), wrong password 401.
    let (status, body, _) = send(
        &s,
        reqwest::Method::POST,
        "/api/session",
        None,
        Some(json!({"name": "ALICE_1", "password": "wrong password"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["error"], "bad_credentials");
    let (status, body, cookie) = send(
        &s,
        reqwest::Method::POST,
        "/api/session",
        None,
        Some(json!({"name": "alice_1", "password": "a good password"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["name"], "Alice_1");
    let second = token_of(&cookie.expect("a cookie"));

    // Logout ends the session server-side: the old cookie value no longer works.
    let (status, _, cleared) = send(
        &s,
        reqwest::Method::DELETE,
        "/api/session",
        Some(&alice.cookie),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(cleared.expect("a cookie").contains("Max-Age=0"));
    // Nobody logged in is an answer, not an error (issue 18 item 12).
    let (status, body) = get_as(&s, &alice, "/api/me").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, Value::Null);
    let other = User {
        name: alice.name.clone(),
        cookie: second,
    };
    assert_eq!(
        get_as(&s, &other, "/api/me").await.1["name"],
        alice.name.as_str()
    );
    let (status, body) = s.get("/api/me").await;
    assert_eq!((status, body), (StatusCode::OK, Value::Null));
    s.stop().await;
}

#[tokio::test]
async fn a_password_change_ends_other_sessions_and_a_deleted_account_frees_its_name() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let (_, _, cookie) = send(
        &s,
        reqwest::Method::POST,
        "/api/session",
        None,
        Some(json!({"name": "alice", "password": "password-of-test"})),
    )
    .await;
    let elsewhere = User {
        name: "alice".into(),
        cookie: token_of(&cookie.expect("cookie")),
    };
    let (status, body) = post_as(
        &s,
        &alice,
        "/api/me/password",
        json!({"password": "not it at all", "new_password": "a new password"}),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let (status, body) = post_as(
        &s,
        &alice,
        "/api/me/password",
        json!({"password": "password-of-test", "new_password": "a new password"}),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(get_as(&s, &alice, "/api/me").await.1["name"], "alice");
    assert_eq!(
        get_as(&s, &elsewhere, "/api/me").await,
        (StatusCode::OK, Value::Null),
        "the other session ended"
    );

    // A game between accounts, then alice deletes her account: the game stays.
    let bob = sign_up(&s, "bob").await;
    let game = paired_game(&s, &alice, &bob, "5+3", false).await;
    let (status, _, _) = send(
        &s,
        reqwest::Method::DELETE,
        "/api/me",
        Some(&alice.cookie),
        Some(json!({"password": "a new password"})),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        get_as(&s, &alice, "/api/me").await,
        (StatusCode::OK, Value::Null)
    );
    assert_eq!(s.get("/api/players/alice").await.0, StatusCode::NOT_FOUND);
    assert_eq!(s.game(&game.id).await["id"], game.id.as_str());
    let (_, bob_page) = s.get("/api/players/bob").await;
    assert_eq!(bob_page["games"][0]["opponent"], json!({"deleted": true}));
    // The name is free again.
    sign_up(&s, "Alice").await;
    s.stop().await;
}

#[tokio::test]
async fn login_attempts_are_limited_per_name() {
    let s = TestServer::start().await;
    sign_up(&s, "carol").await;
    let mut statuses = Vec::new();
    for _ in 0..7 {
        let (status, body, _) = send(
            &s,
            reqwest::Method::POST,
            "/api/session",
            None,
            Some(json!({"name": "carol", "password": "guessing wrong"})),
        )
        .await;
        statuses.push((status, body["error"].as_str().unwrap_or("").to_string()));
    }
    assert_eq!(
        statuses[0],
        (StatusCode::UNAUTHORIZED, "bad_credentials".into())
    );
    assert_eq!(
        statuses[6],
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited".into()),
        "{statuses:?}"
    );
    // Another name is not limited by carol's.
    let (status, _, _) = send(
        &s,
        reqwest::Method::POST,
        "/api/session",
        None,
        Some(json!({"name": "dave", "password": "guessing wrong"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    s.stop().await;
}

/// A game made by `owner`'s seek and `acceptor`'s acceptance.
struct Paired {
    id: String,
    /// The acceptor's seat grant.
    grant: Value,
    owner_color: String,
}

async fn paired_game(
    s: &TestServer,
    owner: &User,
    acceptor: &User,
    time: &str,
    rated: bool,
) -> Paired {
    let grant = pair(s, owner, acceptor, time, rated).await;
    Paired {
        id: id_of(&grant),
        grant,
        owner_color: "white".into(),
    }
}

#[tokio::test]
async fn seeks_are_listed_accepted_once_and_the_session_acts_for_its_seat_only() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let eve = sign_up(&s, "eve").await;

    // Without a session, no seek.
    let (status, _) = s
        .post("/api/seeks", json!({"time": "3+2", "color": "white"}))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = post_as(&s, &alice, "/api/seeks", json!({"time": "3+x"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    let (status, seek) = post_as(
        &s,
        &alice,
        "/api/seeks",
        json!({"time": "3+2", "rated": true, "color": "white"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    assert_eq!(seek["owner"], "alice");
    assert_eq!(seek["category"], "blitz");
    assert_eq!(seek["rating"], 1500.0);
    assert_eq!(seek["game"], Value::Null);
    let seek_id = seek["id"].as_str().expect("id").to_string();
    let (_, listed) = s.get("/api/seeks").await;
    assert_eq!(listed["seeks"][0]["id"], seek_id.as_str());

    // The lobby's WebSocket of alice hears that her seek was taken.
    let mut lobby = lobby_socket(&s, &alice).await;
    assert_eq!(next_lobby(&mut lobby).await["type"], "seeks");

    // Her own seek she cannot take; eight players at once: exactly one game.
    let (status, _) = post_as(
        &s,
        &alice,
        &format!("/api/seeks/{seek_id}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let mut takers = vec![bob.clone()];
    for i in 0..7 {
        takers.push(sign_up(&s, &format!("taker{i}")).await);
    }
    let path = format!("/api/seeks/{seek_id}/accept");
    let attempts = takers.iter().map(|u| post_as(&s, u, &path, json!({})));
    let results = futures_util::future::join_all(attempts).await;
    let won: Vec<usize> = (0..results.len())
        .filter(|&i| results[i].0 == StatusCode::CREATED)
        .collect();
    assert_eq!(won.len(), 1, "exactly one game: {results:?}");
    for (status, body) in &results {
        if *status != StatusCode::CREATED {
            assert_eq!(*status, StatusCode::CONFLICT);
            assert_eq!(body["error"], "seek_taken");
        }
    }
    let winner = &takers[won[0]];
    let grant = &results[won[0]].1;
    assert_eq!(grant["seat"], "black");
    let id = id_of(grant);
    let (_, shown) = s.get(&format!("/api/seeks/{seek_id}")).await;
    assert_eq!(shown["game"], id.as_str());
    let taken = loop {
        let msg = next_lobby(&mut lobby).await;
        if msg["type"] == "taken" {
            break msg;
        }
    };
    assert_eq!(taken["game"], id.as_str());
    let (_, listed) = s.get("/api/seeks").await;
    assert_eq!(listed["seeks"], json!([]));

    let view = s.game(&id).await;
    assert_eq!(view["players"]["white"]["name"], "alice");
    assert_eq!(view["players"]["black"]["name"], winner.name.as_str());
    assert_eq!(view["players"]["rated"], "blitz");

    // alice acts for White by her session alone; eve's session acts for nothing (403); the
    // winner's session acts for Black, and so does the seat token.
    let moves = format!("/api/games/{id}/moves");
    let (status, body) = post_as(&s, &eve, &moves, json!({"ply": 0, "move": "d3"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["error"], "bad_token");
    let (status, body) = post_as(&s, &alice, &moves, json!({"ply": 0, "move": "d3"})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = post_as(&s, &alice, &moves, json!({"ply": 1, "move": "f7"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "not_your_turn");
    let mv = first_legal(&body_game(&s, &id).await);
    let (status, body) = s.play(&id, &grant["token"], 1, &mv).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mv = first_legal(&body);
    let (status, body) = post_as(&s, winner, &moves, json!({"ply": 2, "move": mv})).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "White's move by Black's session: {body}"
    );
    assert_eq!(body["error"], "not_your_turn");
    let (status, _) = post_as(&s, &eve, &format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // A seat's token for the owner's session (the page keeps it).
    let (status, claimed) = post_as(&s, &alice, &format!("/api/games/{id}/seat"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{claimed}");
    assert_eq!(claimed["seat"], "white");
    let (status, body) = s.play(&id, &claimed["token"], 2, &mv).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = post_as(&s, &eve, &format!("/api/games/{id}/seat"), json!({})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    s.stop().await;
}

async fn body_game(s: &TestServer, id: &str) -> Value {
    s.game(id).await
}

#[tokio::test]
async fn challenges_go_to_one_player_and_expired_or_withdrawn_seeks_cannot_be_taken() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let carol = sign_up(&s, "carol").await;
    let (status, challenge) = post_as(
        &s,
        &alice,
        "/api/seeks",
        json!({"time": "corr:3", "color": "black", "opponent": "BOB"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{challenge}");
    assert_eq!(challenge["opponent"], "bob");
    assert_eq!(challenge["category"], "correspondence");
    let id = challenge["id"].as_str().expect("id").to_string();
    // Listed to bob and alice only, apart from the public seeks.
    let (_, to_carol) = get_as(&s, &carol, "/api/seeks").await;
    assert_eq!(
        (&to_carol["seeks"], &to_carol["challenges"]),
        (&json!([]), &json!([]))
    );
    let (_, to_bob) = get_as(&s, &bob, "/api/seeks").await;
    assert_eq!(to_bob["seeks"], json!([]));
    assert_eq!(to_bob["challenges"][0]["id"], id.as_str());
    let accept = format!("/api/seeks/{id}/accept");
    assert_eq!(
        post_as(&s, &carol, &accept, json!({})).await.0,
        StatusCode::CONFLICT
    );
    let (status, grant) = post_as(&s, &bob, &accept, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    assert_eq!(grant["seat"], "white", "alice asked for black");
    // bob's page: a correspondence game where it is his turn.
    let (_, page) = s.get("/api/players/bob").await;
    assert_eq!(page["games"][0]["your_turn"], true);
    assert_eq!(page["games"][0]["time_control"], "corr:3");

    // A withdrawn seek is gone; another player cannot withdraw it.
    let (_, seek) = post_as(&s, &alice, "/api/seeks", json!({"time": "10+5"})).await;
    let seek_path = format!("/api/seeks/{}", seek["id"].as_str().expect("id"));
    let (status, _, _) = send(
        &s,
        reqwest::Method::DELETE,
        &seek_path,
        Some(&carol.cookie),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _, _) = send(
        &s,
        reqwest::Method::DELETE,
        &seek_path,
        Some(&alice.cookie),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(s.get(&seek_path).await.0, StatusCode::NOT_FOUND);

    // A real-time seek whose owner has not been around for 60 s is not listed nor taken.
    let (_, seek) = post_as(&s, &alice, "/api/seeks", json!({"time": "1+0"})).await;
    let seek_id = seek["id"].as_str().expect("id").to_string();
    expire_directly(&s, &seek_id).await;
    let (_, listed) = get_as(&s, &carol, "/api/seeks").await;
    assert_eq!(listed["seeks"], json!([]));
    let (status, body) = post_as(
        &s,
        &carol,
        &format!("/api/seeks/{seek_id}/accept"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "seek_taken");
    s.stop().await;
}

/// Moves a seek's end into the past, as 60 s without its owner would.
async fn expire_directly(s: &TestServer, id: &str) {
    use emergo_platform::store::Store;
    let sql_sqlite = "UPDATE seeks SET expires_at = 1 WHERE id = ?";
    let sql_pg = "UPDATE seeks SET expires_at = 1 WHERE id = $1";
    match &s.server.state().store {
        Store::Sqlite(db) => {
            sqlx::query(sql_sqlite)
                .bind(id)
                .execute(db.pool())
                .await
                .expect("expired");
        }
        Store::Postgres(db) => {
            sqlx::query(sql_pg)
                .bind(id)
                .execute(db.pool())
                .await
                .expect("expired");
        }
    }
}

#[tokio::test]
async fn a_rated_game_updates_both_ratings_exactly_once_even_if_both_resign_at_once() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;

    // First game: alice (White) wins; each side moves five times, then bob resigns.
    let game = paired_game(&s, &alice, &bob, "3+2", true).await;
    assert_eq!(game.owner_color, "white");
    play_plies(&s, &game.id, (&alice, &bob), 10).await;
    let (status, view) = post_as(
        &s,
        &bob,
        &format!("/api/games/{}/resign", game.id),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["result"], "1-0");
    let a = rating_after(&s, "alice", 1).await;
    let b = rating_after(&s, "bob", 1).await;
    // Glicko-2: a new player's win against a new player.
    assert!(
        (a["rating"].as_f64().expect("n") - 1662.3).abs() < 0.5,
        "{a}"
    );
    assert!(
        (b["rating"].as_f64().expect("n") - 1337.7).abs() < 0.5,
        "{b}"
    );
    assert!((a["rd"].as_f64().expect("n") - 290.3).abs() < 0.5, "{a}");

    // Second game: both resign at the same moment: one result, one settlement.
    let game = paired_game(&s, &alice, &bob, "3+2", true).await;
    play_plies(&s, &game.id, (&alice, &bob), 10).await;
    let resign = format!("/api/games/{}/resign", game.id);
    let (r1, r2) = tokio::join!(
        post_as(&s, &alice, &resign, json!({})),
        s.post(&resign, json!({"token": game.grant["token"]})),
    );
    let statuses = [r1.0, r2.0];
    assert!(statuses.contains(&StatusCode::OK), "{statuses:?}");
    rating_after(&s, "alice", 2).await;
    rating_after(&s, "bob", 2).await;
    // Given time, nothing more happens: still two games each.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, page) = s.get("/api/players/alice").await;
    assert_eq!(page["ratings"]["blitz"]["games"], 2, "{page}");
    assert_eq!(
        page["history"]["blitz"].as_array().expect("history").len(),
        2
    );
    assert_eq!(page["games"].as_array().expect("games").len(), 2);
    let (_, page) = s.get("/api/players/bob").await;
    assert_eq!(page["ratings"]["blitz"]["games"], 2, "{page}");

    // An unrated game and a game ended before each side moved change nothing.
    let game = paired_game(&s, &alice, &bob, "3+2", false).await;
    post_as(
        &s,
        &alice,
        &format!("/api/games/{}/resign", game.id),
        json!({}),
    )
    .await;
    let game = paired_game(&s, &alice, &bob, "3+2", true).await;
    post_as(
        &s,
        &alice,
        &format!("/api/games/{}/resign", game.id),
        json!({}),
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, page) = s.get("/api/players/alice").await;
    assert_eq!(page["ratings"]["blitz"]["games"], 2, "{page}");

    // The leaderboard shows only RDs under 110: nobody yet.
    let (status, board) = s.get("/api/leaderboard?category=blitz").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(board["players"], json!([]));
    let (status, _) = s.get("/api/leaderboard?category=bullet").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    s.stop().await;
}

/// Issue 11 with clocks: a "0.25+0" seek accepted gives a game whose clock runs at once; a
/// rated timed game nobody moved in is aborted by its flag and changes no rating; a rated game
/// lost on time changes both ratings, once (a manual clock: no waiting for the flags).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_make_timed_games_and_only_games_that_count_move_the_ratings() {
    use emergo_server::clock::{Clock, ManualClock, LAG_ALLOWANCE_MS};
    let manual = ManualClock::at_system_time();
    let s = TestServer::builder()
        .clock(Clock::from(manual.clone()))
        .start()
        .await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let flag = 15_000 + LAG_ALLOWANCE_MS + 1;

    // Nobody moves: White's flag falls before each side has moved, and the game is aborted.
    let game = paired_game(&s, &alice, &bob, "0.25+0", true).await;
    let view = &game.grant["game"];
    assert_eq!(view["time_control"], "0.25+0");
    assert_eq!(view["players"]["rated"], "blitz");
    assert_eq!(
        view["clock"],
        json!({"white_ms": 15_000, "black_ms": 15_000, "increment_ms": 0, "running": "white"})
    );
    let mut socket = s.socket(&game.id).await;
    manual.advance(flag);
    let over = state_where(&mut socket, |g| g["status"] == "finished").await;
    assert_eq!(
        (&over["reason"], &over["result"]),
        (&json!("aborted"), &Value::Null)
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    for name in ["alice", "bob"] {
        let (_, page) = s.get(&format!("/api/players/{name}")).await;
        assert_eq!(page["ratings"].get("blitz"), None, "{page}");
        // The player's list says the same as the game: aborted, no result (not a draw).
        let line = &page["games"][0];
        assert_eq!(
            (&line["id"], &line["reason"], &line["result"]),
            (&json!(game.id), &json!("aborted"), &Value::Null),
            "{page}"
        );
    }

    // A move each, then White (alice) lets her flag fall: she loses on time, both ratings move.
    let game = paired_game(&s, &alice, &bob, "0.25+0", true).await;
    let moves = format!("/api/games/{}/moves", game.id);
    let (_, view) = post_as(&s, &alice, &moves, json!({"ply": 0, "move": "d3"})).await;
    let (status, view) = post_as(
        &s,
        &bob,
        &moves,
        json!({"ply": 1, "move": first_legal(&view)}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let mut socket = s.socket(&game.id).await;
    manual.advance(flag);
    let over = state_where(&mut socket, |g| g["status"] == "finished").await;
    assert_eq!(
        (&over["reason"], &over["result"]),
        (&json!("time"), &json!("0-1"))
    );
    let a = rating_after(&s, "alice", 1).await;
    let b = rating_after(&s, "bob", 1).await;
    assert!(
        (a["rating"].as_f64().expect("n") - 1337.7).abs() < 0.5,
        "{a}"
    );
    assert!(
        (b["rating"].as_f64().expect("n") - 1662.3).abs() < 0.5,
        "{b}"
    );
    // Once: a late move, a resignation and time change nothing more.
    let (status, late) = post_as(&s, &alice, &moves, json!({"ply": 2, "move": "d4"})).await;
    assert_eq!(
        (status, &late["error"]),
        (StatusCode::CONFLICT, &json!("game_over"))
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(rating_after(&s, "alice", 1).await, a);
    assert_eq!(rating_after(&s, "bob", 1).await, b);
    s.stop().await;
}

/// Plays the first legal move at each ply from the game's ply up to `plies`, by the sessions
/// of `(white, black)`.
async fn play_plies(s: &TestServer, id: &str, (white, black): (&User, &User), plies: i64) {
    let moves = format!("/api/games/{id}/moves");
    let mut view = s.game(id).await;
    let mut ply = view["ply"].as_i64().expect("ply");
    while ply < plies {
        let mover = if ply % 2 == 0 { white } else { black };
        let (status, next) = post_as(
            s,
            mover,
            &moves,
            json!({"ply": ply, "move": first_legal(&view)}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        view = next;
        ply += 1;
    }
}

/// The player's blitz rating once it counts `games` games (settlement runs just after the
/// result).
async fn rating_after(s: &TestServer, name: &str, games: i64) -> Value {
    for _ in 0..100 {
        let (_, page) = s.get(&format!("/api/players/{name}")).await;
        if page["ratings"]["blitz"]["games"] == games {
            return page["ratings"]["blitz"].clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{name} never reached {games} rated games");
}

async fn lobby_socket(s: &TestServer, user: &User) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("ws://{}/api/lobby/ws", s.server.addr());
    let mut req = url.into_client_request().expect("request");
    req.headers_mut().insert(
        "cookie",
        format!("emergo_session={}", user.cookie)
            .parse()
            .expect("header"),
    );
    let (socket, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("lobby WebSocket opens");
    socket
}

async fn next_lobby(socket: &mut Socket) -> Value {
    use futures_util::StreamExt;
    loop {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(20), socket.next())
            .await
            .expect("a message within 20 s")
            .expect("open")
            .expect("a frame");
        if let tokio_tungstenite::tungstenite::Message::Text(text) = msg {
            return serde_json::from_str(text.as_str()).expect("JSON");
        }
    }
}

/// Issue 11 item 2 with rematches: between accounts the session alone offers, accepts and joins
/// a rematch (no seat token), and the new game carries both accounts, colours swapped, and the
/// time control; another account's session cannot act for either seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_between_accounts_is_made_with_the_sessions_alone() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let carol = sign_up(&s, "carol").await;
    let game = paired_game(&s, &alice, &bob, "corr:3", false).await;
    let path = |id: &str, what: &str| format!("/api/games/{id}/{what}");
    let (status, over) = post_as(&s, &bob, &path(&game.id, "resign"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{over}");

    let (status, refused) = post_as(
        &s,
        &carol,
        &path(&game.id, "rematch"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(
        (status, &refused["error"]),
        (StatusCode::FORBIDDEN, &json!("bad_token"))
    );
    let (status, offered) = post_as(
        &s,
        &alice,
        &path(&game.id, "rematch"),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    assert_eq!(offered["rematch_offer"], "white", "{offered}");
    let (status, accepted) = post_as(
        &s,
        &bob,
        &path(&game.id, "rematch"),
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{accepted}");
    assert_eq!(
        accepted["seat"], "white",
        "bob takes White, colours swapped"
    );
    let new = accepted["game"].clone();
    assert_eq!(new["players"]["white"]["name"], "bob", "{new}");
    assert_eq!(new["players"]["black"]["name"], "alice", "{new}");
    assert_eq!(new["time_control"], "corr:3", "{new}");
    let (status, joined) = post_as(
        &s,
        &alice,
        &path(&game.id, "rematch"),
        json!({"action": "join"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(
        (&joined["seat"], id_of(&joined)),
        (&json!("black"), id_of(&accepted))
    );
}

/// Runs one statement on the test server's database (`?` placeholders, made `$n` on
/// PostgreSQL), binding text values.
pub(crate) async fn sql(s: &TestServer, statement: &str, binds: &[&str]) {
    use emergo_platform::store::Store;
    match &s.server.state().store {
        Store::Sqlite(db) => {
            let mut q = sqlx::query(statement);
            for b in binds {
                q = q.bind(*b);
            }
            q.execute(db.pool()).await.expect("statement runs");
        }
        Store::Postgres(db) => {
            let mut n = 0;
            let pg: String = statement
                .chars()
                .map(|c| {
                    if c == '?' {
                        n += 1;
                        format!("${n}")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            let mut q = sqlx::query(&pg);
            for b in binds {
                q = q.bind(*b);
            }
            q.execute(db.pool()).await.expect("statement runs");
        }
    }
}

/// Issue 17 item 3: one account floods the lobby. It gets 5 open seeks and 10 open
/// challenges, no more; 600 older seeks put in the database directly (as before the cap) do
/// not hide the newest seek of another player, one's own seek, nor the challenges, which are
/// listed apart; a correspondence seek expires (a week on).
#[tokio::test]
async fn item3_one_account_cannot_hide_other_players_seeks() {
    let s = TestServer::start().await;
    let mallory = sign_up(&s, "mallory").await;
    let victim = sign_up(&s, "victim").await;
    let carol = sign_up(&s, "carol").await;
    let (status, own) = post_as(&s, &victim, "/api/seeks", json!({"time": "corr:3"})).await;
    assert_eq!(status, StatusCode::CREATED, "{own}");
    let mut made = 0;
    for i in 0..40u32 {
        let time = if i.is_multiple_of(2) { "3+2" } else { "corr:3" };
        let (status, body) = post_as(&s, &mallory, "/api/seeks", json!({"time": time})).await;
        if status == StatusCode::CREATED {
            made += 1;
        } else {
            assert_eq!(
                (status, body["error"].as_str()),
                (StatusCode::CONFLICT, Some("not_allowed")),
                "{body}"
            );
        }
    }
    assert_eq!(made, 5, "open seeks of one account");
    let mut challenges = 0;
    for _ in 0..30 {
        let body = json!({"time": "corr:3", "opponent": "victim"});
        if post_as(&s, &mallory, "/api/seeks", body).await.0 == StatusCode::CREATED {
            challenges += 1;
        }
    }
    assert_eq!(challenges, 10, "open challenges of one account");

    // 600 older seeks of mallory's, as a flood before the cap left them.
    let id = "(SELECT id FROM accounts WHERE name_key = 'mallory')";
    for i in 0..600 {
        let time = format!("2026-01-01T00:{:02}:{:02}Z", i / 60, i % 60);
        sql(
            &s,
            &format!(
                "INSERT INTO seeks (id, account_id, time_control, rated, color, created_at, \
                 expires_at) VALUES (?, {id}, 'corr:3', false, 'random', ?, 4000000000)"
            ),
            &[&format!("flood{i}"), &time],
        )
        .await;
    }
    let (_, newest) = post_as(&s, &carol, "/api/seeks", json!({"time": "5+3"})).await;
    let (status, listed) = get_as(&s, &victim, "/api/seeks").await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = listed["seeks"]
        .as_array()
        .expect("seeks")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert!(ids.len() <= 201, "{} listed", ids.len());
    assert!(
        ids.contains(&newest["id"].as_str().expect("id")),
        "the newest seek is listed"
    );
    assert!(
        ids.contains(&own["id"].as_str().expect("id")),
        "one's own seek is listed"
    );
    let to_victim = listed["challenges"].as_array().expect("challenges");
    assert_eq!(to_victim.len(), 10);
    assert!(to_victim.iter().all(|c| c["opponent"] == "victim"));
    let (_, anonymous) = s.get("/api/seeks").await;
    assert_eq!(anonymous["challenges"], json!([]));

    // A correspondence seek ends a week after it was made.
    let corr_id = own["id"].as_str().expect("id").to_string();
    sql(
        &s,
        "UPDATE seeks SET expires_at = 1 WHERE id = ? AND expires_at > 1000000000 \
         AND expires_at < 4000000000",
        &[&corr_id],
    )
    .await;
    let (_, listed) = get_as(&s, &victim, "/api/seeks").await;
    assert!(
        !listed["seeks"].to_string().contains(&corr_id),
        "an expiring correspondence seek ends"
    );
    s.stop().await;
}

/// Issue 17 item 3: seeks are made at a bounded rate per account (10 at once, then one every
/// 6 s): withdrawing and making again does not get around the cap.
#[tokio::test]
async fn item3_seeks_are_rate_limited_per_account() {
    let s = TestServer::builder()
        .config(|c| {
            c.limits.seeks_burst = 10;
            c.limits.seeks_every = std::time::Duration::from_secs(6);
        })
        .start()
        .await;
    let mallory = sign_up(&s, "mallory").await;
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let (status, seek) = post_as(&s, &mallory, "/api/seeks", json!({"time": "3+2"})).await;
        statuses.push((status, seek["cap"].as_str().unwrap_or("").to_string()));
        if let Some(id) = seek["id"].as_str() {
            send(
                &s,
                reqwest::Method::DELETE,
                &format!("/api/seeks/{id}"),
                Some(&mallory.cookie),
                None,
            )
            .await;
        }
    }
    assert!(
        statuses[..10]
            .iter()
            .all(|(s, _)| *s == StatusCode::CREATED),
        "{statuses:?}"
    );
    assert_eq!(
        statuses[10],
        (StatusCode::TOO_MANY_REQUESTS, "seeks_rate".to_string())
    );
    s.stop().await;
}

/// A login of `name` with `password` by the client `c`, with `cookie` when given: its status.
async fn log_in_from(
    s: &TestServer,
    c: &reqwest::Client,
    name: &str,
    password: &str,
    cookie: Option<&str>,
) -> StatusCode {
    let body = json!({"name": name, "password": password});
    send_with(
        c,
        s,
        reqwest::Method::POST,
        "/api/session",
        cookie,
        Some(body),
    )
    .await
    .0
}

/// Issue 17 item 4: another address's failed tries on a name never lock its owner out; a
/// distributed attack hits the name's limit from every address, which the owner's known address
/// and a client with the account's session pass; successful logins, password changes and the
/// deletion do not use up the login limit.
#[tokio::test]
async fn item4_failed_tries_elsewhere_do_not_lock_the_owner_out() {
    let s = TestServer::start().await;
    let carol = sign_up(&s, "carol").await;
    let owner = client_from(2);
    let attacker = client_from(3);
    let good = "password-of-test";
    let mut tries = Vec::new();
    for _ in 0..8 {
        tries.push(log_in_from(&s, &attacker, "carol", "guessing wrong", None).await);
    }
    assert_eq!(tries[0], StatusCode::UNAUTHORIZED);
    assert_eq!(tries[7], StatusCode::TOO_MANY_REQUESTS, "{tries:?}");
    assert_eq!(
        log_in_from(&s, &attacker, "carol", good, None).await,
        StatusCode::TOO_MANY_REQUESTS,
        "the attacker's address stays limited"
    );
    // The owner, from its own address, logs in; again and again.
    for _ in 0..8 {
        assert_eq!(
            log_in_from(&s, &owner, "carol", good, None).await,
            StatusCode::OK
        );
    }

    // Many addresses, 3 wrong tries each: the name's limit from every address is reached.
    for last in 10..30 {
        let c = client_from(last);
        for _ in 0..3 {
            log_in_from(&s, &c, "carol", "guessing wrong", None).await;
        }
    }
    let stranger = client_from(40);
    assert_eq!(
        log_in_from(&s, &stranger, "carol", good, None).await,
        StatusCode::TOO_MANY_REQUESTS,
        "a new address waits"
    );
    assert_eq!(
        log_in_from(&s, &owner, "carol", good, None).await,
        StatusCode::OK,
        "the owner's address logged in before"
    );
    assert_eq!(
        log_in_from(&s, &client_from(41), "carol", good, Some(&carol.cookie)).await,
        StatusCode::OK,
        "a client with the account's session"
    );

    // Password changes and deletion have their own limit, and use up none of the login's.
    for _ in 0..6 {
        let (status, body) = post_as(
            &s,
            &carol,
            "/api/me/password",
            json!({"password": good, "new_password": "a new password"}),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
        let (status, body) = post_as(
            &s,
            &carol,
            "/api/me/password",
            json!({"password": "a new password", "new_password": good}),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    }
    assert_eq!(
        log_in_from(&s, &owner, "carol", good, None).await,
        StatusCode::OK
    );
    let (status, _, _) = send(
        &s,
        reqwest::Method::DELETE,
        "/api/me",
        Some(&carol.cookie),
        Some(json!({"password": good})),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    // Wrong current passwords are limited for the account, not for the login.
    let dave = sign_up(&s, "dave").await;
    let mut statuses = Vec::new();
    for _ in 0..7 {
        let (status, body) = post_as(
            &s,
            &dave,
            "/api/me/password",
            json!({"password": "not it at all", "new_password": "a new password"}),
        )
        .await;
        statuses.push((status, body["cap"].as_str().unwrap_or("").to_string()));
    }
    assert_eq!(statuses[0].0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        statuses[6],
        (StatusCode::TOO_MANY_REQUESTS, "password_tries".to_string())
    );
    assert_eq!(
        log_in_from(&s, &owner, "dave", good, None).await,
        StatusCode::OK
    );
    s.stop().await;
}

/// Issue 17 item 5: the measured rating farm. Two accounts from one address, rated blitz, the
/// loser resigning at ply 2: 25 games, then 150, gain less than 50 points (they are aborted).
/// Games of 5 moves a side count for 3 a day between the same two accounts, and 3 a day for
/// one address whichever accounts play; a game between two addresses still counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item5_a_rating_farm_from_one_address_gains_less_than_50_points() {
    let s = TestServer::start().await;
    let farmer = sign_up(&s, "farmer").await;
    let feeder = sign_up(&s, "feeder").await;
    let blitz = |page: &Value| {
        page["ratings"]["blitz"]["rating"]
            .as_f64()
            .unwrap_or(1500.0)
    };
    for games in [25, 125] {
        for _ in 0..games {
            let game = paired_game(&s, &farmer, &feeder, "3+2", true).await;
            play_plies(&s, &game.id, (&farmer, &feeder), 2).await;
            let (status, over) = post_as(
                &s,
                &feeder,
                &format!("/api/games/{}/resign", game.id),
                json!({}),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{over}");
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let (_, page) = s.get("/api/players/farmer").await;
        assert!(blitz(&page) < 1550.0, "{page}");
    }

    // Longer games: 3 count between the two accounts.
    for _ in 0..6 {
        let game = paired_game(&s, &farmer, &feeder, "3+2", true).await;
        play_plies(&s, &game.id, (&farmer, &feeder), 10).await;
        post_as(
            &s,
            &feeder,
            &format!("/api/games/{}/resign", game.id),
            json!({}),
        )
        .await;
    }
    rating_after(&s, "farmer", 3).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, page) = s.get("/api/players/farmer").await;
    assert_eq!(page["ratings"]["blitz"]["games"], 3, "{page}");

    // Two more accounts on the same address: that address has had its 3.
    let (second, third) = (sign_up(&s, "second").await, sign_up(&s, "third").await);
    for _ in 0..2 {
        let game = paired_game(&s, &second, &third, "3+2", true).await;
        play_plies(&s, &game.id, (&second, &third), 10).await;
        post_as(
            &s,
            &third,
            &format!("/api/games/{}/resign", game.id),
            json!({}),
        )
        .await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (_, page) = s.get("/api/players/second").await;
    assert_eq!(page["ratings"].get("blitz"), None, "{page}");

    // The same two accounts from two addresses: the seek from one, the acceptance from another.
    let (status, seek, _) = send_with(
        &client_from(5),
        &s,
        reqwest::Method::POST,
        "/api/seeks",
        Some(&second.cookie),
        Some(json!({"time": "3+2", "rated": true, "color": "white"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().expect("id"));
    let (status, grant, _) = send_with(
        &client_from(6),
        &s,
        reqwest::Method::POST,
        &accept,
        Some(&third.cookie),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    let id = id_of(&grant);
    play_plies(&s, &id, (&second, &third), 10).await;
    post_as(&s, &third, &format!("/api/games/{id}/resign"), json!({})).await;
    let rating = rating_after(&s, "second", 1).await;
    assert!(rating["rating"].as_f64().expect("n") > 1600.0, "{rating}");
    s.stop().await;
}

/// Issue 17 item 10: weak passwords are refused, at sign-up and at a password change, with 400
/// `weak_password` and a `reason`; nothing is made.
#[tokio::test]
async fn item10_weak_passwords_are_refused_with_their_reason() {
    let s = TestServer::start().await;
    let refused = |name: &'static str, password: String| {
        let s = &s;
        async move {
            let body = json!({"name": name, "password": password});
            let (status, body, cookie) =
                send(s, reqwest::Method::POST, "/api/accounts", None, Some(body)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(body["error"], "weak_password", "{body}");
            assert!(cookie.is_none());
            assert!(!body["message"].as_str().unwrap_or("").is_empty());
            body["reason"].as_str().expect("a reason").to_string()
        }
    };
    assert_eq!(refused("mallory", "12345678".into()).await, "common");
    assert_eq!(refused("mallory", "Password1".into()).await, "common");
    assert_eq!(refused("mallory", " ".repeat(8)).await, "blank");
    assert_eq!(refused("mallory", "\0".repeat(8)).await, "blank");
    assert_eq!(refused("mallory", "malloryxx".into()).await, "name");
    assert_eq!(refused("mallory", "short".into()).await, "short");
    assert_eq!(s.get("/api/players/mallory").await.0, StatusCode::NOT_FOUND);
    let mallory = sign_up(&s, "mallory").await;
    let (status, body) = post_as(
        &s,
        &mallory,
        "/api/me/password",
        json!({"password": "password-of-test", "new_password": "MALLORY12"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        (&body["error"], &body["reason"]),
        (&json!("weak_password"), &json!("name"))
    );
    let (status, _, _) = send(
        &s,
        reqwest::Method::POST,
        "/api/session",
        None,
        Some(json!({"name": "mallory", "password": "password-of-test"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "the password did not change");
    s.stop().await;
}

/// Issue 17 item 7: under a flood of sign-ups (30 at once from 10 addresses) a login does not
/// wait for the flood: it is answered while most sign-ups still wait for their hash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item7_logins_are_served_before_a_flood_of_sign_ups() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let s = TestServer::start().await;
    sign_up(&s, "owner").await;
    let done = Arc::new(AtomicUsize::new(0));
    let flood: Vec<_> = (0..30)
        .map(|i| {
            let c = client_from(10 + (i % 10) as u8);
            let url = format!("{}/api/accounts", s.base);
            let done = done.clone();
            tokio::spawn(async move {
                let body = json!({"name": format!("flood{i}"), "password": "a flood of sign-ups"});
                let res = c.post(url).json(&body).send().await.expect("sent");
                if res.status() == StatusCode::CREATED {
                    done.fetch_add(1, Ordering::SeqCst);
                }
                res.status()
            })
        })
        .collect();
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    let before = done.load(Ordering::SeqCst);
    let status = log_in_from(&s, &client_from(2), "owner", "password-of-test", None).await;
    let at_login = done.load(Ordering::SeqCst);
    assert_eq!(status, StatusCode::OK);
    for task in flood {
        assert_eq!(task.await.expect("joined"), StatusCode::CREATED);
    }
    assert!(
        before < 20,
        "the flood was over too soon to tell ({before} done)"
    );
    // Queued behind the flood, the login would be answered after all but the last one or two
    // sign-ups (two hash at once); served first, it leaves most of them waiting. How many finish
    // meanwhile depends on the machine's load (CI runs the browser tests beside), so the bound is
    // on those left.
    assert!(
        30 - at_login >= 5,
        "the login waited for {} sign-ups ({before} were done before it, {} after it)",
        at_login - before,
        30 - at_login
    );
    s.stop().await;
}
