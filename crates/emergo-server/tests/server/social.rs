//! Issue 18, what lichess players expect between people: the chat (players' room and
//! spectators' room, stored, pushed live, shown on load, limited, reported), takeback requests
//! (asked, declined, accepted, withdrawn by a move, none in rated games) and the Abort button
//! (before each side has moved, unrated). docs/api.md, "Chat", "Takebacks between people",
//! "Abort". The same tests run on PostgreSQL (EMERGO_TEST_BACKEND=postgres); the one across
//! two instances there only.

use crate::common::*;
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// A game's bare WebSocket; with a seat's token, it proves the seat (the players' room).
async fn chat_socket(s: &TestServer, id: &str, token: Option<&Value>) -> Socket {
    let mut socket = s.socket(id).await.socket;
    if let Some(token) = token {
        let hello = json!({"type": "seat", "token": token}).to_string();
        socket
            .send(Message::Text(hello.into()))
            .await
            .expect("the seat message is sent");
    }
    socket
}

/// The next chat message of a socket (within 10 s), states skipped; `None` if none comes.
async fn next_chat_within(socket: &mut Socket, wait: Duration) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let msg = tokio::time::timeout_at(deadline, socket.next())
            .await
            .ok()?;
        let msg = msg.expect("the socket is open").expect("a good frame");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if value["type"] == "chat" {
                return Some(value);
            }
        }
    }
}

async fn next_chat(socket: &mut Socket) -> Value {
    next_chat_within(socket, Duration::from_secs(10))
        .await
        .expect("a chat message within 10 s")
}

fn texts(chat: &Value) -> Vec<String> {
    chat["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["text"].as_str().expect("a text").to_string())
        .collect()
}

async fn say(s: &TestServer, id: &str, who: Option<&User>, body: Value) -> (StatusCode, Value) {
    send(s, &format!("/api/games/{id}/chat"), who, body).await
}

/// The game's reports as stored: (message id, reporter, text, when).
async fn reports(s: &TestServer, id: &str) -> Vec<(i64, String, String, String)> {
    use emergo_platform::store::Store;
    let q = "SELECT message_id, reporter, body, created_at FROM chat_reports WHERE game_id = ";
    match &s.server.state().store {
        Store::Sqlite(db) => sqlx::query_as(&format!("{q} ? ORDER BY id"))
            .bind(id)
            .fetch_all(db.pool())
            .await
            .expect("the reports are read"),
        Store::Postgres(db) => sqlx::query_as(&format!("{q} $1 ORDER BY id"))
            .bind(id)
            .fetch_all(db.pool())
            .await
            .expect("the reports are read"),
    }
}

async fn resign(s: &TestServer, id: &str, token: &Value) {
    let (status, view) = s
        .post(&format!("/api/games/{id}/resign"), json!({"token": token}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_players_room_is_private_stored_pushed_live_and_shown_on_load() {
    let s = TestServer::start().await;
    let (white, black) = s.human_game().await;
    let id = id_of(&white);
    let mut white_page = chat_socket(&s, &id, Some(&white["token"])).await;
    let mut watcher = chat_socket(&s, &id, None).await;
    // Let the seat message be read before the first message is written.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let (status, sent) = say(
        &s,
        &id,
        None,
        json!({"token": black["token"], "room": "players", "text": "good luck"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{sent}");
    assert_eq!(sent["message"]["seat"], "black");
    assert_eq!(sent["message"]["author"], Value::Null);
    let pushed = next_chat(&mut white_page).await;
    assert_eq!(
        (pushed["room"].as_str(), texts(&pushed)),
        (Some("players"), vec!["good luck".to_string()])
    );
    assert_eq!(pushed["messages"][0]["id"], sent["message"]["id"]);
    assert_eq!(pushed["history"], false, "a new message");
    // The spectator's socket gets nothing of the players' room.
    assert_eq!(
        next_chat_within(&mut watcher, Duration::from_millis(500)).await,
        None
    );

    // Spectators cannot write there, signed in or not; the players' tokens can.
    let viewer = sign_up(&s, "viewer").await;
    for who in [None, Some(&viewer)] {
        let (status, refused) = say(&s, &id, who, json!({"room": "players", "text": "psst"})).await;
        assert_eq!(
            (status, &refused["error"]),
            (StatusCode::FORBIDDEN, &json!("bad_token")),
            "{refused}"
        );
    }
    let (status, _) = say(
        &s,
        &id,
        None,
        json!({"token": white["token"], "room": "players", "text": "thanks"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(texts(&next_chat(&mut white_page).await), ["thanks"]);

    // Loaded later: a seat's socket gets the room's last messages once it proves its seat; a
    // spectator's never does.
    let mut later = chat_socket(&s, &id, Some(&black["token"])).await;
    let history = next_chat(&mut later).await;
    assert_eq!(
        (texts(&history), &history["history"]),
        (
            vec!["good luck".to_string(), "thanks".to_string()],
            &json!(true)
        )
    );
    let mut stranger = chat_socket(&s, &id, Some(&json!("not-a-token"))).await;
    assert_eq!(
        next_chat_within(&mut stranger, Duration::from_millis(500)).await,
        None
    );

    // Engine games have no chat.
    let engine = s
        .create(json!({"mode": "engine", "color": "white", "level": 1}))
        .await;
    let (status, none) = say(
        &s,
        &id_of(&engine),
        None,
        json!({"token": engine["token"], "room": "players", "text": "hi"}),
    )
    .await;
    assert_eq!(
        (status, &none["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed"))
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_spectators_room_needs_an_account_and_the_players_only_once_the_game_is_over() {
    let s = TestServer::start().await;
    let (white, black) = s.human_game().await;
    let id = id_of(&white);
    let mut watcher = chat_socket(&s, &id, None).await;
    let mut white_page = chat_socket(&s, &id, Some(&white["token"])).await;

    let (status, anonymous) = say(
        &s,
        &id,
        None,
        json!({"room": "spectators", "text": "hello"}),
    )
    .await;
    assert_eq!(
        (status, &anonymous["error"]),
        (StatusCode::UNAUTHORIZED, &json!("unauthorized")),
        "{anonymous}"
    );
    let viewer = sign_up(&s, "viewer").await;
    let (status, sent) = say(
        &s,
        &id,
        Some(&viewer),
        json!({"room": "spectators", "text": "nice opening"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{sent}");
    assert_eq!(
        (sent["message"]["author"].as_str(), &sent["message"]["seat"]),
        (Some("viewer"), &Value::Null)
    );
    let pushed = next_chat(&mut watcher).await;
    assert_eq!(
        (pushed["room"].as_str(), texts(&pushed)),
        (Some("spectators"), vec!["nice opening".to_string()])
    );
    // Every socket gets the spectators' room (the players' page does not show it in play).
    assert_eq!(texts(&next_chat(&mut white_page).await), ["nice opening"]);

    // The players write there once the game is over, not before.
    let room = |token: &Value| json!({"token": token, "room": "spectators", "text": "gg all"});
    let (status, early) = say(&s, &id, None, room(&white["token"])).await;
    assert_eq!(
        (status, &early["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{early}"
    );
    resign(&s, &id, &black["token"]).await;
    let (status, after) = say(&s, &id, None, room(&white["token"])).await;
    assert_eq!(status, StatusCode::CREATED, "{after}");
    // A new socket gets the room's last messages at once.
    let mut later = chat_socket(&s, &id, None).await;
    assert_eq!(
        texts(&next_chat(&mut later).await),
        ["nice opening", "gg all"]
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_refuses_empty_and_long_messages_strips_control_characters_and_is_rate_limited() {
    let s = TestServer::start().await;
    let (white, _black) = s.human_game().await;
    let id = id_of(&white);
    let line = |text: &str| json!({"token": white["token"], "room": "players", "text": text});
    for bad in ["", "   \n\t ", "\u{200b}\u{7}"] {
        let (status, refused) = say(&s, &id, None, line(bad)).await;
        assert_eq!(
            (status, &refused["error"]),
            (StatusCode::BAD_REQUEST, &json!("bad_request")),
            "{bad:?}: {refused}"
        );
    }
    let long = "é".repeat(141);
    let (status, refused) = say(&s, &id, None, line(&long)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        refused["message"].as_str().unwrap_or("").contains("140"),
        "{refused}"
    );
    let (status, kept) = say(&s, &id, None, line(&"é".repeat(140))).await;
    assert_eq!(status, StatusCode::CREATED, "{kept}");
    let (status, cleaned) = say(
        &s,
        &id,
        None,
        line("see\u{1b}[31m <a href=x>this</a>\u{202e}\nnow"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(
        cleaned["message"]["text"], "see[31m <a href=x>this</a> now",
        "controls stripped, the rest kept as text"
    );

    // Five messages at once per author (two were written), then one every 2 s: the sixth is
    // refused with the wait.
    for n in 0..3 {
        let (status, ok) = say(&s, &id, None, line(&format!("message {n}"))).await;
        assert_eq!(status, StatusCode::CREATED, "{ok}");
    }
    let res = s
        .client
        .post(format!("{}/api/games/{id}/chat", s.base))
        .json(&line("one too many"))
        .send()
        .await
        .expect("sent");
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .expect("text")
        .parse()
        .expect("seconds");
    let body: Value = res.json().await.expect("JSON");
    assert_eq!(
        (body["error"].as_str(), body["cap"].as_str()),
        (Some("rate_limited"), Some("chat_rate"))
    );
    let ms = body["retry_after_ms"].as_u64().expect("the wait in ms");
    assert!(
        (1..=2000).contains(&ms) && (1..=2).contains(&retry),
        "{body}, Retry-After {retry}"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_chat_keeps_a_bounded_number_of_messages() {
    use emergo_platform::store::chat::NewChat;
    let s = TestServer::start().await;
    let (white, _black) = s.human_game().await;
    let id = id_of(&white);
    let store = &s.server.state().store;
    let message = NewChat {
        game_id: &id,
        room: "players",
        seat: Some("white"),
        account_id: None,
        author: None,
        body: "hi",
        client: "127.0.0.1",
        now: "2026-12-01T10:00:00Z",
    };
    for _ in 0..3 {
        store.insert_chat(&message, 3).await.expect("under the cap");
    }
    let full = store.insert_chat(&message, 3).await;
    assert!(
        matches!(full, Err(emergo_platform::store::StoreError::Conflict(_))),
        "{full:?}"
    );
    assert_eq!(
        store
            .chat_history(&id, "players", 50)
            .await
            .expect("read")
            .len(),
        3
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_of_the_other_side_is_reported_once_and_the_report_is_stored() {
    let s = TestServer::start().await;
    let (white, black) = s.human_game().await;
    let id = id_of(&white);
    let (_, sent) = say(
        &s,
        &id,
        None,
        json!({"token": white["token"], "room": "players", "text": "you are bad"}),
    )
    .await;
    let message = sent["message"]["id"].as_i64().expect("an id");
    let path = format!("/api/games/{id}/chat/{message}/report");

    // Not one's own; not by a stranger; not a message one cannot read.
    let (status, own) = send(&s, &path, None, json!({"token": white["token"]})).await;
    assert_eq!(
        (status, &own["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{own}"
    );
    let (status, nobody) = send(&s, &path, None, json!({})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{nobody}");
    let viewer = sign_up(&s, "viewer").await;
    let (status, unseen) = send(&s, &path, Some(&viewer), json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{unseen}");
    let (status, missing) = send(
        &s,
        &format!("/api/games/{id}/chat/99999/report"),
        None,
        json!({"token": black["token"]}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");

    for _ in 0..2 {
        let (status, reported) = send(&s, &path, None, json!({"token": black["token"]})).await;
        assert_eq!(status, StatusCode::CREATED, "{reported}");
        assert_eq!(reported["reported"], true);
    }
    let stored = reports(&s, &id).await;
    assert_eq!(
        stored.len(),
        1,
        "one report per reporter and message: {stored:?}"
    );
    let (reported, reporter, text, at) = &stored[0];
    assert_eq!(
        (*reported, reporter.as_str(), text.as_str()),
        (message, "seat:black", "you are bad")
    );
    assert!(at.starts_with("20"), "{at}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_between_people_are_asked_declined_withdrawn_by_a_move_and_accepted() {
    let s = TestServer::start().await;
    let (white, black) = s.human_game().await;
    let id = id_of(&white);
    let takeback = format!("/api/games/{id}/takeback");
    let act =
        |token: &Value, action: &str| s.post(&takeback, json!({"token": token, "action": action}));
    let (status, none) = act(&white["token"], "offer").await;
    assert_eq!(
        (status, &none["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "no move yet: {none}"
    );
    let mut black_page = s.socket(&id).await;
    next_state(&mut black_page).await;
    let (_, after_d3) = s.play(&id, &white["token"], 0, "d3").await;
    assert_eq!(after_d3["takebacks"], true);

    // Asked: stored, versioned, told to the other side; asked twice changes nothing.
    let (status, asked) = act(&white["token"], "offer").await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert_eq!(asked["takeback_offer"], "white");
    assert!(asked["version"].as_i64() > after_d3["version"].as_i64());
    let seen = state_where(&mut black_page, |g| g["takeback_offer"] == "white").await;
    assert_eq!(seen["ply"], 1);
    let (_, twice) = act(&white["token"], "offer").await;
    assert_eq!(twice["version"], asked["version"]);
    let (status, own) = act(&white["token"], "accept").await;
    assert_eq!(
        (status, &own["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed"))
    );

    // Declined: White asks again only after the next move.
    let (status, declined) = act(&black["token"], "decline").await;
    assert_eq!(status, StatusCode::OK, "{declined}");
    assert_eq!(
        (
            &declined["takeback_offer"],
            declined["takeback_declined"].as_str()
        ),
        (&Value::Null, Some("white"))
    );
    let (status, again) = act(&white["token"], "offer").await;
    assert_eq!(
        (status, &again["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{again}"
    );
    let (_, replied) = s
        .play(&id, &black["token"], 1, &first_legal(&after_d3))
        .await;
    assert_eq!(replied["takeback_declined"], Value::Null);

    // A move withdraws a standing request: Black asks, then White moves.
    let (_, asked) = act(&black["token"], "offer").await;
    assert_eq!(asked["takeback_offer"], "black");
    let (_, moved) = s
        .play(&id, &white["token"], 2, &first_legal(&replied))
        .await;
    assert_eq!(moved["takeback_offer"], Value::Null);
    assert_eq!(moved["ply"], 3);

    // Accepted right after the asker's move: its one move goes (White just played ply 2).
    act(&white["token"], "offer").await;
    let (status, one) = act(&black["token"], "accept").await;
    assert_eq!(status, StatusCode::OK, "{one}");
    assert_eq!(
        (one["ply"].as_i64(), one["turn"].as_str()),
        (Some(2), Some("white"))
    );
    assert_eq!(one["takeback_offer"], Value::Null);
    let told = state_where(&mut black_page, |g| g["ply"] == 2).await;
    assert_eq!(told["position"], one["position"]);

    // Accepted after the other side replied: the asker's move and the reply go (two plies),
    // and the asker is to move again. Asking back when asked agrees too.
    let (_, w) = s.play(&id, &white["token"], 2, &first_legal(&one)).await;
    let (_, b) = s.play(&id, &black["token"], 3, &first_legal(&w)).await;
    assert_eq!(b["ply"], 4);
    act(&white["token"], "offer").await;
    let (status, two) = act(&black["token"], "offer").await;
    assert_eq!(status, StatusCode::OK, "{two}");
    assert_eq!(
        (two["ply"].as_i64(), two["turn"].as_str()),
        (Some(2), Some("white"))
    );
    assert_eq!(two["position"], one["position"]);
    assert_eq!(
        s.server
            .state()
            .store
            .moves(&id)
            .await
            .expect("moves")
            .len(),
        2
    );

    // Withdrawn by the asker; a spectator acts for nothing.
    let (_, w) = s.play(&id, &white["token"], 2, &first_legal(&two)).await;
    act(&white["token"], "offer").await;
    let (_, cancelled) = act(&white["token"], "cancel").await;
    assert_eq!(cancelled["takeback_offer"], Value::Null);
    let (status, _) = s.post(&takeback, json!({"action": "offer"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(w["ply"], 3);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_are_refused_in_rated_games_and_abort_before_each_side_has_moved_leaves_ratings_alone(
) {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let pair = |time: &'static str| {
        let (alice, bob, s) = (&alice, &bob, &s);
        async move {
            let (status, seek) = send(
                s,
                "/api/seeks",
                Some(alice),
                json!({"time": time, "rated": true, "color": "white"}),
            )
            .await;
            assert_eq!(status, StatusCode::CREATED, "{seek}");
            let path = format!("/api/seeks/{}/accept", seek["id"].as_str().expect("an id"));
            let (status, grant) = send(s, &path, Some(bob), json!({})).await;
            assert_eq!(status, StatusCode::CREATED, "{grant}");
            grant
        }
    };
    let grant = pair("3+2").await;
    let id = id_of(&grant);
    assert_eq!(
        (
            grant["game"]["takebacks"].as_bool(),
            grant["game"]["can_abort"].as_bool()
        ),
        (Some(false), Some(true))
    );
    let moves = format!("/api/games/{id}/moves");
    let (status, view) = send(&s, &moves, Some(&alice), json!({"ply": 0, "move": "d3"})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let (status, refused) = send(
        &s,
        &format!("/api/games/{id}/takeback"),
        Some(&alice),
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(
        (status, &refused["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{refused}"
    );
    assert!(
        refused["message"].as_str().unwrap_or("").contains("rated"),
        "{refused}"
    );

    // Black has not moved: either side aborts; the game is unrated, its result "aborted".
    let (status, aborted) =
        send(&s, &format!("/api/games/{id}/abort"), Some(&bob), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{aborted}");
    assert_eq!(
        (
            aborted["status"].as_str(),
            aborted["reason"].as_str(),
            &aborted["result"]
        ),
        (Some("finished"), Some("aborted"), &Value::Null)
    );
    assert_eq!(aborted["can_abort"], false);
    let (status, over) = send(&s, &format!("/api/games/{id}/abort"), Some(&bob), json!({})).await;
    assert_eq!(
        (status, &over["error"]),
        (StatusCode::CONFLICT, &json!("game_over"))
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, player) = s.get("/api/players/alice").await;
    let ratings = player["ratings"]
        .as_object()
        .expect("the ratings by category");
    let games: i64 = ratings
        .values()
        .map(|c| c["games"].as_i64().unwrap_or(0))
        .sum();
    assert_eq!(games, 0, "an aborted game counts for nothing: {player}");

    // Once each side has moved, no abort.
    let grant = pair("3+2").await;
    let id = id_of(&grant);
    let moves = format!("/api/games/{id}/moves");
    let (_, view) = send(&s, &moves, Some(&alice), json!({"ply": 0, "move": "d3"})).await;
    let (_, view) = send(
        &s,
        &moves,
        Some(&bob),
        json!({"ply": 1, "move": first_legal(&view)}),
    )
    .await;
    assert_eq!(view["can_abort"], false);
    let (status, late) = send(
        &s,
        &format!("/api/games/{id}/abort"),
        Some(&alice),
        json!({}),
    )
    .await;
    assert_eq!(
        (status, &late["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{late}"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_is_for_seat_holders_of_games_between_people_before_each_side_has_moved() {
    let s = TestServer::start().await;
    // Nobody joined yet: the creator aborts.
    let lone = s.create(json!({"mode": "human", "color": "white"})).await;
    let lone_id = id_of(&lone);
    assert_eq!(lone["game"]["can_abort"], true);
    let (status, spectator) = s
        .post(&format!("/api/games/{lone_id}/abort"), json!({}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{spectator}");
    let mut page = s.socket(&lone_id).await;
    next_state(&mut page).await;
    let (status, aborted) = s
        .post(
            &format!("/api/games/{lone_id}/abort"),
            json!({"token": lone["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{aborted}");
    assert_eq!(aborted["reason"], "aborted");
    let told = state_where(&mut page, |g| g["status"] == "finished").await;
    assert_eq!(
        (told["reason"].as_str(), &told["result"]),
        (Some("aborted"), &Value::Null)
    );

    // An untimed game: White moved, Black aborts; after each has moved, no one can.
    let (white, black) = s.human_game().await;
    let id = id_of(&white);
    let (_, view) = s.play(&id, &white["token"], 0, "d3").await;
    assert_eq!(view["can_abort"], true);
    let (status, _) = s
        .post(
            &format!("/api/games/{id}/abort"),
            json!({"token": black["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (white, black) = s.human_game().await;
    let id = id_of(&white);
    let (_, view) = s.play(&id, &white["token"], 0, "d3").await;
    let (_, view) = s.play(&id, &black["token"], 1, &first_legal(&view)).await;
    assert_eq!(view["can_abort"], false);
    let (status, late) = s
        .post(
            &format!("/api/games/{id}/abort"),
            json!({"token": white["token"]}),
        )
        .await;
    assert_eq!(
        (status, &late["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{late}"
    );

    // Against the engine there is no abort (resign or start a new game).
    let engine = s
        .create(json!({"mode": "engine", "color": "white", "level": 1}))
        .await;
    assert_eq!(engine["game"]["can_abort"], false);
    let (status, refused) = s
        .post(
            &format!("/api/games/{}/abort", id_of(&engine)),
            json!({"token": engine["token"]}),
        )
        .await;
    assert_eq!(
        (status, &refused["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed"))
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_postgresql_a_message_stored_on_one_instance_reaches_the_sockets_of_another() {
    if skip_unless(Backend::Postgres) {
        return;
    }
    let a = TestServer::start().await;
    let b = TestServer::builder().db(&a.db).start().await;
    let (white, black) = a.human_game().await;
    let id = id_of(&white);
    let mut white_on_b = chat_socket(&b, &id, Some(&white["token"])).await;
    let mut watcher_on_b = chat_socket(&b, &id, None).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _) = say(
        &a,
        &id,
        None,
        json!({"token": black["token"], "room": "players", "text": "from A"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let pushed = next_chat(&mut white_on_b).await;
    assert_eq!(
        (pushed["room"].as_str(), texts(&pushed)),
        (Some("players"), vec!["from A".to_string()])
    );
    let viewer = sign_up(&a, "viewer").await;
    let (status, _) = say(
        &a,
        &id,
        Some(&viewer),
        json!({"room": "spectators", "text": "watching on A"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let pushed = next_chat(&mut watcher_on_b).await;
    assert_eq!(
        (pushed["room"].as_str(), texts(&pushed)),
        (Some("spectators"), vec!["watching on A".to_string()])
    );
    a.stop().await;
    b.stop().await;
}
