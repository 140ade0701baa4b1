//! Issue 24: API tokens and their scopes, bot accounts, the event and game streams, a bot's
//! moves (a retry applied once), challenges declined with a reason (docs/bots.md).

use crate::common::{call, paired, resign_as, sign_up, TestServer, User};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;

/// A new token of `user` with `scopes`: its text.
async fn token(s: &TestServer, user: &User, scopes: &[&str]) -> String {
    let (status, made) = user
        .post(
            s,
            "/api/tokens",
            json!({"scopes": scopes, "description": "test"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    made["token"]
        .as_str()
        .expect("the token's text")
        .to_string()
}

/// A request with `Authorization: Bearer <token>`; an empty answer reads as `null`.
async fn bearer(
    s: &TestServer,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = s
        .client
        .request(method, format!("{}{path}", s.base))
        .bearer_auth(token);
    if let Some(body) = body {
        req = req.json(&body);
    }
    let res = req.send().await.expect("request sent");
    let status = res.status();
    let text = res.text().await.expect("a body");
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, value)
}

/// A bot account `name`: signed up, a `bot:play` and `challenge:write` token, upgraded.
async fn bot(s: &TestServer, name: &str) -> (User, String) {
    let user = sign_up(s, name).await;
    let token = token(s, &user, &["bot:play", "challenge:write", "read"]).await;
    let (status, body) = bearer(s, Method::POST, "/api/bot/account/upgrade", &token, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (user, token)
}

/// An open stream's lines, read as they come.
struct Stream {
    res: reqwest::Response,
    pending: Vec<u8>,
}

impl Stream {
    async fn open(s: &TestServer, path: &str, token: &str) -> Stream {
        let res = s
            .client
            .get(format!("{}{path}", s.base))
            .bearer_auth(token)
            .send()
            .await
            .expect("request sent");
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let ctype = res.headers()["content-type"].to_str().expect("text");
        assert_eq!(ctype, "application/x-ndjson");
        Stream {
            res,
            pending: Vec::new(),
        }
    }

    /// The next line that is not a keep-alive; `None` when the stream ended. Waits at most
    /// 10 s.
    async fn next(&mut self) -> Option<Value> {
        let read = async {
            loop {
                if let Some(at) = self.pending.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = self.pending.drain(..=at).collect();
                    let text = std::str::from_utf8(&line).expect("UTF-8").trim();
                    if text.is_empty() {
                        continue;
                    }
                    return Some(serde_json::from_str(text).expect("a JSON line"));
                }
                match self.res.chunk().await {
                    Ok(Some(bytes)) => self.pending.extend_from_slice(&bytes),
                    Ok(None) | Err(_) => return None,
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(10), read)
            .await
            .expect("a line within 10 s")
    }

    /// The next line of `kind` (others skipped).
    async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let line = self.next().await.expect("the stream goes on");
            if line["type"] == kind {
                return line;
            }
        }
    }
}

#[tokio::test]
async fn a_token_is_shown_once_listed_without_its_text_and_revoked() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let text = token(&s, &alice, &["read"]).await;
    assert!(text.starts_with("emt_"), "{text}");
    let (status, me) = bearer(&s, Method::GET, "/api/me", &text, None).await;
    assert_eq!(
        (status, me["name"].as_str()),
        (StatusCode::OK, Some("alice"))
    );
    let (status, list) = alice.get(&s, "/api/tokens").await;
    assert_eq!(status, StatusCode::OK);
    let listed = &list["tokens"][0];
    assert_eq!(listed["scopes"], json!(["read"]), "{list}");
    assert!(
        !list.to_string().contains(&text),
        "the list never shows a token: {list}"
    );
    let id = listed["id"].as_i64().expect("an id");
    let (status, _) = call(
        &s,
        Method::DELETE,
        &format!("/api/tokens/{id}"),
        Some(&alice),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = bearer(&s, Method::GET, "/api/me", &text, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    // A token text that is not one, and bad scope lists, are refused saying why.
    let (status, body) = bearer(&s, Method::GET, "/api/me", "nonsense", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let (status, body) = alice
        .post(&s, "/api/tokens", json!({"scopes": ["admin"]}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["message"]
            .as_str()
            .unwrap_or("")
            .contains("not a scope"),
        "{body}"
    );
    let (status, _) = alice.post(&s, "/api/tokens", json!({"scopes": []})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    s.stop().await;
}

#[tokio::test]
async fn a_token_never_acts_beyond_its_scopes() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let game = paired(&s, &alice, &bob, "10+5", false).await;
    let read = token(&s, &alice, &["read"]).await;
    let play = token(&s, &alice, &["board:play"]).await;
    let challenge = token(&s, &alice, &["challenge:write"]).await;
    let moves = format!("/api/games/{game}/moves");
    let seek = json!({"time": "5+3"});
    // (token, method, path, body, allowed)
    let cases: Vec<(&str, Method, String, Option<Value>, bool)> = vec![
        (&read, Method::GET, "/api/me".into(), None, true),
        (&play, Method::GET, "/api/me".into(), None, false),
        (
            &read,
            Method::POST,
            "/api/seeks".into(),
            Some(seek.clone()),
            false,
        ),
        (
            &challenge,
            Method::POST,
            "/api/seeks".into(),
            Some(seek.clone()),
            true,
        ),
        (
            &read,
            Method::POST,
            "/api/challenge/bob".into(),
            Some(seek.clone()),
            false,
        ),
        (
            &read,
            Method::POST,
            moves.clone(),
            Some(json!({"ply": 0, "move": "x"})),
            false,
        ),
        (
            &challenge,
            Method::POST,
            moves.clone(),
            Some(json!({"ply": 0, "move": "x"})),
            false,
        ),
        (
            &read,
            Method::POST,
            "/api/bot/account/upgrade".into(),
            None,
            false,
        ),
        (
            &play,
            Method::POST,
            "/api/tokens".into(),
            Some(json!({"scopes": ["read"]})),
            false,
        ),
        (&read, Method::GET, "/api/tokens".into(), None, false),
        (&read, Method::DELETE, "/api/me".into(), None, false),
        (
            &read,
            Method::POST,
            "/api/me/password".into(),
            Some(json!({})),
            false,
        ),
    ];
    for (token, method, path, body, allowed) in cases {
        let (status, answer) = bearer(&s, method.clone(), &path, token, body).await;
        if allowed {
            assert!(status.is_success(), "{method} {path}: {status} {answer}");
        } else {
            assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {answer}");
            assert_eq!(answer["error"], "bad_scope", "{method} {path}: {answer}");
        }
    }
    // With board:play, the move endpoint is reached: the move itself is judged.
    let (status, answer) = bearer(
        &s,
        Method::POST,
        &moves,
        &play,
        Some(json!({"ply": 0, "move": "nonsense"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    s.stop().await;
}

#[tokio::test]
async fn only_an_account_that_never_played_becomes_a_bot_and_is_marked_so() {
    let s = TestServer::start().await;
    let (robo, _) = bot(&s, "robo").await;
    let (status, page) = s.get("/api/players/robo").await;
    assert_eq!(
        (status, &page["bot"]),
        (StatusCode::OK, &json!(true)),
        "{page}"
    );
    // Tournaments rank people: a bot does not join one.
    let (_, t) = robo
        .post(
            &s,
            "/api/tournaments",
            json!({"name": "Bot night", "format": "arena", "time": "3+2", "minutes": 30}),
        )
        .await;
    let id = t["id"].as_str().unwrap_or_else(|| panic!("made: {t}"));
    let (status, body) = robo
        .post(&s, &format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(
        (status, &body["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{body}"
    );
    // An account with a game stays a person.
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    paired(&s, &alice, &bob, "10+5", false).await;
    let alices = token(&s, &alice, &["bot:play"]).await;
    let (status, body) = bearer(&s, Method::POST, "/api/bot/account/upgrade", &alices, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(s.get("/api/players/alice").await.1["bot"], false);
    // A person's bot:play token does not reach the bots' endpoints.
    let (status, body) = bearer(&s, Method::GET, "/api/bot/game/stream/x", &alices, None).await;
    assert_eq!(
        (status, &body["error"]),
        (StatusCode::FORBIDDEN, &json!("bad_scope")),
        "{body}"
    );
    s.stop().await;
}

/// "Marked BOT wherever its name appears": the challenge, the game, the lists of games (the
/// lobby's, the watch list, a player's page), the notification.
#[tokio::test]
async fn a_bot_is_marked_bot_wherever_its_name_is_shown() {
    let s = TestServer::start().await;
    let (_, robo) = bot(&s, "robo").await;
    let alice = sign_up(&s, "alice").await;
    let (status, made) = alice
        .post(
            &s,
            "/api/challenge/robo",
            json!({"time": "5+3", "color": "black"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let (_, seeks) = alice.get(&s, "/api/seeks").await;
    let challenge = seeks["challenges"]
        .as_array()
        .and_then(|list| list.iter().find(|c| c["opponent"] == "robo"))
        .unwrap_or_else(|| panic!("the challenge is listed: {seeks}"));
    assert_eq!(
        (&challenge["opponent_bot"], &challenge["owner_bot"]),
        (&json!(true), &json!(false)),
        "{challenge}"
    );
    let id = made["id"].as_str().expect("id");
    let path = format!("/api/challenge/{id}/accept");
    let (_, grant) = bearer(&s, Method::POST, &path, &robo, None).await;
    let game = grant["game"]["id"].as_str().expect("game").to_string();
    let mv = grant["game"]["legal_moves"][0].as_str().expect("a move");
    let path = format!("/api/bot/game/{game}/move/{mv}?ply=0");
    let (status, view) = bearer(&s, Method::POST, &path, &robo, None).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let players = &view["players"];
    assert_eq!(players["white"]["bot"], true, "{players}");
    assert!(players["black"].get("bot").is_none(), "{players}");

    let (_, list) = alice.get(&s, "/api/games?status=ongoing").await;
    let line = list["games"]
        .as_array()
        .and_then(|games| games.iter().find(|g| g["id"] == game.as_str()))
        .unwrap_or_else(|| panic!("the game is listed: {list}"));
    assert_eq!(line["players"]["white"]["bot"], true, "{line}");
    assert!(line["players"]["black"].get("bot").is_none(), "{line}");

    let (_, watch) = s.get("/api/watch").await;
    let watched = &watch["games"][0];
    assert_eq!(watched["id"], game.as_str(), "{watch}");
    assert_eq!(watched["white"]["bot"], true, "{watched}");
    assert!(watched["black"].get("bot").is_none(), "{watched}");

    let (_, page) = s.get("/api/players/alice").await;
    let line = page["games"]
        .as_array()
        .and_then(|games| games.iter().find(|g| g["id"] == game.as_str()))
        .unwrap_or_else(|| panic!("the game is on alice's page: {page}"));
    assert_eq!(
        (&line["opponent"], &line["opponent_bot"]),
        (&json!("robo"), &json!(true)),
        "{line}"
    );

    let (_, notes) = alice.get(&s, "/api/notifications").await;
    let started = notes["notifications"]
        .as_array()
        .and_then(|list| list.iter().find(|n| n["kind"] == "started"))
        .unwrap_or_else(|| panic!("alice hears of the game: {notes}"));
    assert_eq!(
        (&started["from"], &started["from_bot"]),
        (&json!("robo"), &json!(true)),
        "{started}"
    );
    s.stop().await;
}

#[tokio::test]
async fn a_bot_takes_a_seek_only_when_its_owner_allows_bots() {
    let s = TestServer::start().await;
    let (_, robo) = bot(&s, "robo").await;
    let alice = sign_up(&s, "alice").await;
    let (_, people) = alice.post(&s, "/api/seeks", json!({"time": "5+3"})).await;
    let path = format!("/api/seeks/{}/accept", people["id"].as_str().expect("id"));
    let (status, body) = bearer(&s, Method::POST, &path, &robo, Some(json!({}))).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or("")
            .contains("for people"),
        "{body}"
    );
    let (_, open) = alice
        .post(&s, "/api/seeks", json!({"time": "5+3", "allow_bots": true}))
        .await;
    assert_eq!(open["allow_bots"], true, "{open}");
    let path = format!("/api/seeks/{}/accept", open["id"].as_str().expect("id"));
    let (status, body) = bearer(&s, Method::POST, &path, &robo, Some(json!({}))).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    s.stop().await;
}

#[tokio::test]
async fn the_event_stream_tells_of_challenges_and_games_and_resends_current_games_on_reconnect() {
    let s = TestServer::start().await;
    let (_, robo) = bot(&s, "robo").await;
    let alice = sign_up(&s, "alice").await;
    let mut events = Stream::open(&s, "/api/stream/event", &robo).await;
    let (status, made) = alice
        .post(&s, "/api/challenge/robo", json!({"time": "5+3"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let challenge = events.next_of("challenge").await;
    assert_eq!(challenge["challenge"]["owner"], "alice", "{challenge}");
    let id = challenge["challenge"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let (status, grant) = bearer(
        &s,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        &robo,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    let game = grant["game"]["id"].as_str().expect("game").to_string();
    let start = events.next_of("gameStart").await;
    assert_eq!(start["game"]["id"], game.as_str(), "{start}");
    assert_eq!(start["game"]["opponent"], "alice", "{start}");
    drop(events);
    // A new connection says again what is on.
    let mut again = Stream::open(&s, "/api/stream/event", &robo).await;
    let start = again.next_of("gameStart").await;
    assert_eq!(start["game"]["id"], game.as_str(), "{start}");
    // Its end is told.
    resign_as(&s, &game, &alice).await;
    let finish = again.next_of("gameFinish").await;
    assert_eq!(finish["game"]["id"], game.as_str(), "{finish}");
    assert!(finish["game"]["result"].is_string(), "{finish}");
    s.stop().await;
}

#[tokio::test]
async fn a_declined_challenge_tells_its_challenger_why() {
    let s = TestServer::start().await;
    let (_, robo) = bot(&s, "robo").await;
    let (_, other) = bot(&s, "other").await;
    let mut events = Stream::open(&s, "/api/stream/event", &robo).await;
    let (status, made) = bearer(
        &s,
        Method::POST,
        "/api/challenge/other",
        &robo,
        Some(json!({"time": "1+0"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().expect("id");
    assert_eq!(events.next_of("challenge").await["challenge"]["id"], id);
    let (status, body) = bearer(
        &s,
        Method::POST,
        &format!("/api/challenge/{id}/decline"),
        &other,
        Some(json!({"reason": "too_fast"})),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let declined = events.next_of("challengeDeclined").await;
    assert_eq!(
        declined["challenge"],
        json!({"id": id, "reason": "too_fast"})
    );
    s.stop().await;
}

#[tokio::test]
async fn revoking_a_token_ends_its_streams() {
    let s = TestServer::start().await;
    let (user, robo) = bot(&s, "robo").await;
    let mut events = Stream::open(&s, "/api/stream/event", &robo).await;
    let (_, list) = user.get(&s, "/api/tokens").await;
    let id = list["tokens"][0]["id"].as_i64().expect("id");
    let (status, _) = call(
        &s,
        Method::DELETE,
        &format!("/api/tokens/{id}"),
        Some(&user),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(events.next().await, None, "the stream ends");
    s.stop().await;
}

#[tokio::test]
async fn the_game_stream_gives_the_game_then_each_change_and_a_retried_move_is_made_once() {
    let s = TestServer::start().await;
    let (_, robo) = bot(&s, "robo").await;
    let alice = sign_up(&s, "alice").await;
    let (_, made) = alice
        .post(
            &s,
            "/api/challenge/robo",
            json!({"time": "5+3", "color": "black"}),
        )
        .await;
    let id = made["id"].as_str().expect("id");
    let (_, grant) = bearer(
        &s,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        &robo,
        None,
    )
    .await;
    let game = grant["game"]["id"].as_str().expect("game").to_string();
    assert_eq!(grant["seat"], "white", "{grant}");
    let mut stream = Stream::open(&s, &format!("/api/bot/game/stream/{game}"), &robo).await;
    let first = stream.next_of("state").await;
    assert_eq!(first["game"]["ply"], 0, "{first}");
    // The game view marks the bot's seat BOT.
    let view = s.game(&game).await;
    assert_eq!(view["players"]["white"]["bot"], true, "{}", view["players"]);
    assert!(
        view["players"]["black"].get("bot").is_none(),
        "{}",
        view["players"]
    );
    assert_eq!(first["game"]["from"], 0, "{first}");
    let mv = first["game"]["legal_moves"][0]
        .as_str()
        .expect("a move")
        .to_string();
    let path = format!("/api/bot/game/{game}/move/{mv}?ply=0");
    let (status, view) = bearer(&s, Method::POST, &path, &robo, None).await;
    assert_eq!(
        (status, &view["ply"]),
        (StatusCode::OK, &json!(1)),
        "{view}"
    );
    // The answer was lost: the same move again changes nothing.
    let (status, view) = bearer(&s, Method::POST, &path, &robo, None).await;
    assert_eq!(
        (status, &view["ply"]),
        (StatusCode::OK, &json!(1)),
        "{view}"
    );
    assert_eq!(
        s.game(&game).await["moves"].as_array().map(Vec::len),
        Some(1)
    );
    // (A state of ply 0 may still be on its way: the clock's, sent before the move.)
    let mut after = stream.next_of("state").await;
    for _ in 0..3 {
        if after["game"]["ply"] != 0 {
            break;
        }
        after = stream.next_of("state").await;
    }
    assert_eq!(after["game"]["ply"], 1, "{after}");
    assert_eq!(after["game"]["moves"][0], mv.as_str(), "{after}");
    // Another move at a stale ply is refused as before.
    let (status, body) = bearer(&s, Method::POST, &path, &robo, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let other = format!("/api/bot/game/{game}/move/{mv}?ply=5");
    let (status, body) = bearer(&s, Method::POST, &other, &robo, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    // The stream ends with the game.
    let (status, body) = bearer(
        &s,
        Method::POST,
        &format!("/api/bot/game/{game}/resign"),
        &robo,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let last = stream.next_of("state").await;
    assert_eq!(last["game"]["status"], "finished", "{last}");
    assert_eq!(stream.next().await, None, "the stream ends with the game");
    s.stop().await;
}

/// The game's WebSocket of `user` (its session cookie): the player is there.
async fn player_socket(s: &TestServer, user: &User, game: &str) -> crate::common::Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("ws://{}/api/games/{game}/ws", s.server.addr());
    let mut req = url.into_client_request().expect("request");
    req.headers_mut()
        .insert("cookie", user.cookie_header().parse().expect("header"));
    let (socket, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("the game's WebSocket opens");
    socket
}

#[tokio::test]
async fn the_game_stream_says_when_the_opponent_is_gone_and_when_it_is_back() {
    let s = TestServer::start().await;
    let (_, robo) = bot(&s, "robo").await;
    let alice = sign_up(&s, "alice").await;
    let (_, made) = alice
        .post(&s, "/api/challenge/robo", json!({"time": "5+3"}))
        .await;
    let id = made["id"].as_str().expect("id");
    let (_, grant) = bearer(
        &s,
        Method::POST,
        &format!("/api/challenge/{id}/accept"),
        &robo,
        None,
    )
    .await;
    let game = grant["game"]["id"].as_str().expect("game").to_string();
    let socket = player_socket(&s, &alice, &game).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut stream = Stream::open(&s, &format!("/api/bot/game/stream/{game}"), &robo).await;
    stream.next_of("state").await;
    drop(socket);
    let gone = stream.next_of("opponentGone").await;
    assert_eq!(gone["gone"], true, "{gone}");
    let _back = player_socket(&s, &alice, &game).await;
    let back = stream.next_of("opponentGone").await;
    assert_eq!(back["gone"], false, "{back}");
    s.stop().await;
}

/// Issue 24's figure: the time from a person's move (its request sent) to the bot's game stream
/// line that shows it, with 100 games between people and bots at once (10 bots, 10 games each),
/// each bot answering at once. `cargo test --release -p emergo-server-tests --test server
/// bot_stream_latency -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check"]
async fn bot_stream_latency_with_100_games_at_once() {
    const BOTS: usize = 10;
    const GAMES: usize = 100;
    const ROUNDS: usize = 20;
    let s = std::sync::Arc::new(TestServer::start().await);
    let mut bots = Vec::new();
    for i in 0..BOTS {
        bots.push(bot(&s, &format!("bot{i}")).await.1);
    }
    let mut games = Vec::new();
    for i in 0..GAMES {
        let person = sign_up(&s, &format!("person{i}")).await;
        let robo = bots[i % BOTS].clone();
        let (status, made) = person
            .post(
                &s,
                &format!("/api/challenge/bot{}", i % BOTS),
                json!({"time": "10+5", "color": "white"}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let id = made["id"].as_str().expect("id");
        let path = format!("/api/challenge/{id}/accept");
        let (status, grant) = bearer(&s, Method::POST, &path, &robo, None).await;
        assert_eq!(status, StatusCode::CREATED, "{grant}");
        games.push((person, robo, grant["game"].clone()));
    }
    let started = std::time::Instant::now();
    let mut tasks = Vec::new();
    for (person, robo, first) in games {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let id = first["id"].as_str().expect("id").to_string();
            let mut stream = Stream::open(&s, &format!("/api/bot/game/stream/{id}"), &robo).await;
            stream.next_of("state").await;
            let mut legal = first["legal_moves"][0]
                .as_str()
                .expect("a move")
                .to_string();
            let mut took = Vec::new();
            for round in 0..ROUNDS {
                let ply = 2 * round as i64;
                let sent = std::time::Instant::now();
                let (status, view) = person
                    .post(
                        &s,
                        &format!("/api/games/{id}/moves"),
                        json!({"ply": ply, "move": legal}),
                    )
                    .await;
                if status != StatusCode::OK || view["status"] == "finished" {
                    break;
                }
                let line = loop {
                    let line = stream.next_of("state").await;
                    if line["game"]["ply"] == ply + 1 {
                        break line;
                    }
                };
                took.push(sent.elapsed());
                let Some(reply) = line["game"]["legal_moves"][0].as_str() else {
                    break;
                };
                let path = format!("/api/bot/game/{id}/move/{reply}?ply={}", ply + 1);
                let (status, view) = bearer(&s, Method::POST, &path, &robo, None).await;
                if status != StatusCode::OK || view["status"] == "finished" {
                    break;
                }
                let Some(next) = view["legal_moves"][0].as_str() else {
                    break;
                };
                legal = next.to_string();
            }
            took
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("a game"));
    }
    all.sort();
    let at = |q: f64| all[((all.len() - 1) as f64 * q).round() as usize];
    println!(
        "{} person moves in {GAMES} games at once ({:.1} s): person's move to the bot's stream \
         line median {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        all.len(),
        started.elapsed().as_secs_f64(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.9).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
    );
    assert!(
        all.len() >= GAMES * 5,
        "the games went on: {} moves",
        all.len()
    );
}
