//! The JSON shapes of the answers and WebSocket messages that the server builds from typed views
//! (issue 19: no `json!` bodies): each field's name, and its kind (`"string"`, `"int"`,
//! `"float"`, `"bool"`, `"null"`, an object, a list), so that a field gone, renamed, turned
//! from null to absent or from an integer to a float fails here. The values themselves are the
//! other modules' business.

use crate::accounts::sql;
use crate::common::*;
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Map, Value};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Message};

/// `value` with each leaf replaced by its kind; lists keep each element's shape.
fn shape(value: &Value) -> Value {
    match value {
        Value::Null => json!("null"),
        Value::Bool(_) => json!("bool"),
        Value::Number(n) if n.is_f64() => json!("float"),
        Value::Number(_) => json!("int"),
        Value::String(_) => json!("string"),
        Value::Array(items) => Value::Array(items.iter().map(shape).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), shape(v)))
                .collect::<Map<_, _>>(),
        ),
    }
}

/// Asserts the shape of `value`, showing it whole when it differs.
#[track_caller]
fn assert_shape(value: &Value, expected: Value) {
    assert_eq!(shape(value), expected, "{value:#}");
}

/// The raw text of a GET answer (the wire bytes, for the order of a map's keys).
async fn text_of(s: &TestServer, path: &str) -> String {
    let (status, _, text) = s.get_text(path).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    text
}

/// Waits until `name`'s page counts `games` rated blitz games (settlement follows the end).
async fn settled(s: &TestServer, name: &str, games: i64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, page) = s.get(&format!("/api/players/{name}")).await;
        if page["ratings"]["blitz"]["games"] == games {
            return;
        }
        assert!(Instant::now() < deadline, "never settled: {page}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The lobby's WebSocket of `user` (`?lobby=false`: the notifications alone).
async fn lobby_socket(s: &TestServer, user: &User, lobby: bool) -> Socket {
    let url = format!("ws://{}/api/lobby/ws?lobby={lobby}", s.server.addr());
    let mut req = url.into_client_request().expect("a request");
    req.headers_mut()
        .insert("cookie", user.cookie_header().parse().expect("a header"));
    let (socket, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("the lobby's WebSocket opens");
    socket
}

/// The next text message of type `kind` (others skipped) within 10 s.
async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let msg = tokio::time::timeout_at(deadline, socket.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} message within 10 s"))
            .expect("the socket is open")
            .expect("a good frame");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if value["type"] == kind {
                return value;
            }
        }
    }
}

/// The first text message of each type of `kinds`, in whichever order they come, within 10 s
/// (messages of other types are skipped).
async fn next_of_each<const N: usize>(socket: &mut Socket, kinds: [&str; N]) -> [Value; N] {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut found: [Option<Value>; N] = std::array::from_fn(|_| None);
    while found.iter().any(Option::is_none) {
        let msg = tokio::time::timeout_at(deadline, socket.next())
            .await
            .unwrap_or_else(|_| panic!("not every one of {kinds:?} within 10 s: {found:?}"))
            .expect("the socket is open")
            .expect("a good frame");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if let Some(k) = kinds.iter().position(|k| value["type"] == *k) {
                found[k].get_or_insert(value);
            }
        }
    }
    found.map(|v| v.expect("every kind was found"))
}

/// A game line of a player page (`games`, `playing`), with the opponent's shape.
fn game_line(opponent: Value, result: &str, reason: &str, rated: &str) -> Value {
    json!({
        "id": "string",
        "color": "string",
        "opponent": opponent,
        "ply": "int",
        "status": "string",
        "result": result,
        "reason": reason,
        "rated": rated,
        "time_control": "string",
        "your_turn": "bool",
        "created_at": "string",
        "updated_at": "string",
    })
}

/// Issue 19 item 1: `GET /api/me`, `GET /api/players/{name}` (ratings, history, stats, best,
/// performance, playing, games; a deleted opponent) and `GET /api/leaderboard` keep their
/// fields, their nulls and their integers; the maps keyed by category list them in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item1_player_page_me_and_leaderboard_keep_their_json_shape() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let (status, me) = alice.get(&s, "/api/me").await;
    assert_eq!(status, StatusCode::OK);
    assert_shape(
        &me,
        json!({"name": "string", "created_at": "string", "ratings": {}}),
    );

    // A rated blitz game alice wins, a casual rapid one she loses, one being played.
    let won = paired(&s, &alice, &bob, "3+2", true).await;
    ten_plies(&s, &won, &alice, &bob).await;
    resign_as(&s, &won, &bob).await;
    settled(&s, "alice", 1).await;
    let lost = paired(&s, &alice, &bob, "10+5", false).await;
    ten_plies(&s, &lost, &alice, &bob).await;
    resign_as(&s, &lost, &alice).await;
    let now = paired(&s, &bob, &alice, "corr:3", false).await;

    let rating = json!({"rating": "float", "rd": "float", "volatility": "float", "games": "int"});
    let (_, me) = alice.get(&s, "/api/me").await;
    assert_shape(
        &me,
        json!({"name": "string", "created_at": "string", "ratings": {"blitz": rating}}),
    );
    let (status, page) = s.get("/api/players/alice").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let counts = json!({"games": "int", "wins": "int", "draws": "int", "losses": "int"});
    let mut stats = counts.clone();
    stats["rated"] = json!("int");
    let mut performance = counts;
    performance["rating"] = json!("int");
    let playing = game_line(json!("string"), "null", "null", "null");
    assert_eq!(page["playing"][0]["id"], now.as_str(), "{page}");
    assert_eq!(page["games"][0]["id"], now.as_str(), "{page}");
    assert_shape(
        &page,
        json!({
            "name": "string",
            "bot": "bool",
            "created_at": "string",
            "ratings": {"blitz": rating},
            "history": {"blitz": [{"game": "string", "at": "string", "rating": "float", "rd": "float"}]},
            "stats": {"blitz": stats, "rapid": stats},
            "best": {"blitz": {"rating": "int", "at": "string", "game": "string", "provisional": "bool"}},
            "performance": {"blitz": performance},
            "playing": [playing],
            "games": [
                playing,
                game_line(json!("string"), "string", "string", "null"),
                game_line(json!("string"), "string", "string", "string"),
            ],
        }),
    );
    // Categories in their order on the wire (the page draws them as they come).
    let text = text_of(&s, "/api/players/alice").await;
    let stats_at = text.find(r#""stats""#).expect("stats");
    let blitz = text[stats_at..].find(r#""blitz""#).expect("blitz");
    let rapid = text[stats_at..].find(r#""rapid""#).expect("rapid");
    assert!(blitz < rapid, "{text}");

    // The leaderboard lists RDs under 110: made so in the database.
    let (_, board) = s.get("/api/leaderboard?category=blitz").await;
    assert_shape(
        &board,
        json!({"variant": "string", "category": "string", "players": []}),
    );
    sql(
        &s,
        "UPDATE ratings SET rd = 60 WHERE category = 'blitz'",
        &[],
    )
    .await;
    let (status, board) = s.get("/api/leaderboard?category=blitz").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let line =
        json!({"rank": "int", "name": "string", "rating": "float", "rd": "float", "games": "int"});
    assert_shape(
        &board,
        json!({"variant": "string", "category": "string", "players": [line, line]}),
    );
    assert_eq!(board["players"][0]["name"], "alice", "{board}");

    // A deleted opponent is `{"deleted": true}`.
    let (status, _) = call(
        &s,
        reqwest::Method::DELETE,
        "/api/me",
        Some(&bob),
        Some(json!({"password": PASSWORD})),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, page) = s.get("/api/players/alice").await;
    assert_eq!(
        page["games"][2]["opponent"],
        json!({"deleted": true}),
        "{page}"
    );
    s.stop().await;
}

/// Issue 19 item 1: `GET /api/watch` keeps its fields: each side's name, whether deleted, an
/// integer rating and the provisional mark; `rated` null for a casual game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item1_watch_list_keeps_its_json_shape() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let rated = paired(&s, &alice, &bob, "3+2", true).await;
    let casual = paired(&s, &bob, &alice, "corr:3", false).await;
    let (status, list) = s.get("/api/watch").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let side = json!({"name": "string", "deleted": "bool", "rating": "int", "provisional": "bool"});
    let line = |rated: &str| {
        json!({
            "id": "string",
            "variant": "string",
            "white": side,
            "black": side,
            "rated": rated,
            "category": "string",
            "time_control": "string",
            "ply": "int",
            "watchers": "int",
            "created_at": "string",
            "updated_at": "string",
        })
    };
    let games = list["games"].as_array().expect("games");
    assert_eq!(games.len(), 2, "{list}");
    for game in games {
        let expected = if game["id"] == rated.as_str() {
            line("string")
        } else {
            assert_eq!(game["id"], casual.as_str());
            line("null")
        };
        assert_shape(game, expected);
    }
    s.stop().await;
}

/// A seek as the API shows it; `opponent` and `game` are `"string"` or `"null"`.
fn seek_shape(opponent: &str, game: &str) -> Value {
    json!({
        "id": "string",
        "variant": "string",
        "owner": "string",
        "owner_bot": "bool",
        "allow_bots": "bool",
        "rating": "float",
        "provisional": "bool",
        "time": "string",
        "category": "string",
        "rated": "bool",
        "color": "string",
        "opponent": opponent,
        "opponent_bot": "bool",
        "game": game,
        "created_at": "string",
    })
}

/// A notification; `game`, `seek`, `outcome` and `reason` are `"string"` or `"null"`.
fn note_shape(game: &str, seek: &str, ended: &str) -> Value {
    json!({
        "id": "int",
        "kind": "string",
        "game": game,
        "seek": seek,
        "from": "string",
        "time": "string",
        "outcome": ended,
        "reason": ended,
        "at": "string",
        "read": "bool",
    })
}

/// Issue 19 item 1: the seeks (`POST`/`GET /api/seeks`, `GET /api/seeks/{id}`), the
/// notifications (`GET /api/notifications`, `POST /api/notifications/read`) and the lobby's
/// WebSocket messages (`seeks`, `taken`, `notification`, `turn`, `notifications`) keep their
/// fields and nulls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item1_seeks_notifications_and_lobby_messages_keep_their_json_shape() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let mut lobby = lobby_socket(&s, &alice, true).await;
    assert_shape(
        &next_of(&mut lobby, "seeks").await,
        json!({"type": "string"}),
    );
    let mut notes = lobby_socket(&s, &bob, false).await;

    // A public seek, then a challenge of alice to bob.
    let (status, public) = alice
        .post(&s, "/api/seeks", json!({"time": "3+2", "rated": true}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{public}");
    assert_shape(&public, seek_shape("null", "null"));
    let (status, challenge) = alice
        .post(
            &s,
            "/api/seeks",
            json!({"time": "corr:3", "opponent": "bob", "color": "white"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{challenge}");
    assert_shape(&challenge, seek_shape("string", "null"));
    let seek = challenge["id"].as_str().expect("an id").to_string();
    let told = next_of(&mut notes, "notification").await;
    assert_shape(
        &told,
        json!({"type": "string", "notification": note_shape("null", "string", "null")}),
    );
    let (status, listed) = bob.get(&s, "/api/seeks").await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    assert_shape(
        &listed,
        json!({"seeks": [seek_shape("null", "null")], "challenges": [seek_shape("string", "null")]}),
    );
    let (status, list) = bob.get(&s, "/api/notifications").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_shape(
        &list,
        json!({"notifications": [note_shape("null", "string", "null")], "unread": "int"}),
    );

    // Bob accepts: alice's lobby hears it was taken, and of the game started.
    let (status, grant) = bob
        .post(&s, &format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    let game = id_of(&grant);
    // The two come by two channels, in either order.
    let [taken, started] = next_of_each(&mut lobby, ["taken", "notification"]).await;
    assert_shape(
        &taken,
        json!({"type": "string", "seek": "string", "game": "string"}),
    );
    assert_shape(
        &started,
        json!({"type": "string", "notification": note_shape("string", "string", "null")}),
    );
    let (status, taken) = s.get(&format!("/api/seeks/{seek}")).await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    assert_shape(&taken, seek_shape("string", "string"));

    // Alice moves: bob's turn, told twice.
    let (status, view) = alice
        .post(
            &s,
            &format!("/api/games/{game}/moves"),
            json!({"ply": 0, "move": "d3"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_shape(
        &next_of(&mut notes, "notification").await,
        json!({"type": "string", "notification": note_shape("string", "null", "null")}),
    );
    assert_shape(
        &next_of(&mut notes, "turn").await,
        json!({"type": "string", "game": "string"}),
    );
    let (status, read) = bob
        .post(&s, "/api/notifications/read", json!({"all": true}))
        .await;
    assert_eq!(status, StatusCode::OK, "{read}");
    assert_shape(&read, json!({"read": "int", "unread": "int"}));
    assert_shape(
        &next_of(&mut notes, "notifications").await,
        json!({"type": "string"}),
    );

    // Alice resigns: bob is told how it ended.
    resign_as(&s, &game, &alice).await;
    assert_shape(
        &next_of(&mut notes, "notification").await,
        json!({"type": "string", "notification": note_shape("string", "null", "string")}),
    );
    let _ = lobby.close(None).await;
    let _ = notes.close(None).await;
    s.stop().await;
}

/// The fields of a position-text error besides `error` and `message`.
fn position_error(more: Value) -> Value {
    let mut fields =
        json!({"error": "string", "message": "string", "problem": "string", "column": "int"});
    for (k, v) in more.as_object().expect("fields") {
        fields[k] = v.clone();
    }
    fields
}

/// Issue 19 item 1: `GET /api/position` answers a position with `result` and `reason` null
/// while it goes on (strings when it is over), and each refusal with the problem's fields.
#[tokio::test]
async fn item1_position_answers_and_their_problems_keep_their_json_shape() {
    let s = TestServer::start().await;
    let (status, view) = s
        .get("/api/position?position=B%3A9%3A9%3Ae5%3DB%2Cc4%3DWWWBB")
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let board = shape(&view["board"]);
    let answer = |over: &str, moves: Value| {
        json!({
            "position": "string",
            "variant": "string",
            "board": board,
            "status": "string",
            "result": over,
            "reason": over,
            "legal_moves": moves,
        })
    };
    let moves = view["legal_moves"].as_array().expect("moves").len();
    assert!(moves > 0, "{view}");
    assert_shape(&view, answer("null", json!(vec!["string"; moves])));
    for (text, more) in [
        ("", json!({})),
        ("X%3A12%3A12", json!({"text": "string"})),
        ("W%3A13%3A0", json!({"text": "string"})),
        ("W%3A12%3A12%3Az9%3DW", json!({"text": "string"})),
        (
            "W%3A12%3A1%3Ac4%3DWB",
            json!({"color": "string", "count": "int"}),
        ),
        ("W%3A12%3A12%3Ac4%3DW%2Cc4%3DB", json!({"square": "string"})),
    ] {
        let (status, err) = s.get(&format!("/api/position?position={text}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}: {err}");
        assert_shape(&err, position_error(more));
    }
    let (status, err) = s.get("/api/position").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_shape(&err, json!({"error": "string", "message": "string"}));
    s.stop().await;
}

/// Issue 19 item 1: the chat's answers (`POST .../chat`, `POST .../report`) and its
/// WebSocket message, the game list, a hint, `/healthz` keep their fields.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item1_chat_game_list_hint_and_health_keep_their_json_shape() {
    let s = TestServer::start().await;
    let (white, black) = s.human_game().await;
    let id = id_of(&white);
    let mut socket = s.socket(&id).await.socket;
    let hello = json!({"type": "seat", "token": black["token"]}).to_string();
    socket
        .send(Message::Text(hello.into()))
        .await
        .expect("the seat message is sent");
    let message = json!({
        "id": "int",
        "room": "string",
        "seat": "string",
        "author": "null",
        "text": "string",
        "at": "string",
    });
    let (status, said) = s
        .post(
            &format!("/api/games/{id}/chat"),
            json!({"room": "players", "text": "good luck", "token": white["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{said}");
    assert_shape(&said, json!({"message": message}));
    let pushed = loop {
        let chat = next_of(&mut socket, "chat").await;
        if !chat["messages"].as_array().is_some_and(Vec::is_empty) {
            break chat;
        }
    };
    assert_shape(
        &pushed,
        json!({"type": "string", "room": "string", "history": "bool", "messages": [message]}),
    );
    let (status, reported) = s
        .post(
            &format!("/api/games/{id}/chat/{}/report", said["message"]["id"]),
            json!({"token": black["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{reported}");
    assert_shape(&reported, json!({"reported": "bool", "message": "int"}));

    let (status, list) = s.get("/api/games?limit=1").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let games = list["games"].as_array().expect("games");
    assert_eq!(games.len(), 1, "{list}");
    assert!(games[0].is_object(), "{list}");
    assert_eq!(list.as_object().map(Map::len), Some(1), "{list}");

    let grant = s
        .create(json!({"mode": "engine", "level": 1, "color": "white"}))
        .await;
    let (status, hint) = s
        .post(
            &format!("/api/games/{}/hint", id_of(&grant)),
            json!({"token": grant["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_shape(&hint, json!({"move": "string", "score": "int"}));

    let (status, health) = s.get("/healthz").await;
    assert_eq!(status, StatusCode::OK, "{health}");
    assert_shape(&health, json!({"status": "string", "database": "string"}));
    let _ = socket.close(None).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue22_explorer_answer_keeps_its_json_shape() {
    let s = TestServer::start().await;
    let (white, black) = s.human_game().await;
    let id = id_of(&white);
    let (status, answer) = s.play(&id, &white["token"], 0, "a5").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, answer) = s
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": black["token"]}),
        )
        .await;
    assert!(status.is_success(), "{answer}");
    let deadline = Instant::now() + Duration::from_secs(10);
    let answer = loop {
        let (status, answer) = s.get("/api/explorer?position=W:12:12").await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        if answer["white"] == 1 {
            break answer;
        }
        assert!(Instant::now() < deadline, "never indexed: {answer}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let player = json!({"name": "null", "engine": "bool", "level": "null"});
    let book = json!({"move": "string", "score": "int"});
    assert_shape(
        &answer,
        json!({
            "variant": "string",
            "position": "string",
            "white": "int",
            "draws": "int",
            "black": "int",
            "average_rating": "null",
            "moves": [{
                "move": "string",
                "white": "int",
                "draws": "int",
                "black": "int",
                "average_rating": "null",
            }],
            "games": [{
                "id": "string",
                "white": player,
                "black": player,
                "result": "string",
                "rating": "null",
                "at": "string",
            }],
            // The shipped book's three moves of the start.
            "book": [book.clone(), book.clone(), book],
            "indexed_plies": "int",
            "past_indexed_plies": "bool",
        }),
    );
    s.stop().await;
}

/// Issue 21: a puzzle, an account's attempt and an anonymous one.
#[tokio::test]
async fn puzzle_and_attempt_answers_keep_their_json_shape() {
    let s = TestServer::start().await;
    let set = emergo_platform::domain::puzzle::shipped().expect("the shipped set");
    let with = set
        .iter()
        .find(|p| !p.alternatives.is_empty() && p.line.len() == 1 + 2 * p.alternatives.len())
        .or_else(|| set.iter().find(|p| !p.alternatives.is_empty()))
        .expect("a shipped puzzle with alternatives");
    let (status, p) = s.get(&format!("/api/puzzles/{}", with.id)).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let strings = |n: usize| Value::Array(vec![json!("string"); n]);
    let alternatives: Vec<Value> = with
        .alternatives
        .iter()
        .map(|a| json!({"ply": "int", "moves": strings(a.moves.len())}))
        .collect();
    assert_shape(
        &p,
        json!({
            "id": "string", "variant": "string", "position": "string",
            "line": strings(with.line.len()), "rating": "int",
            "themes": strings(with.themes.len()), "alternatives": alternatives,
        }),
    );
    let path = format!("/api/puzzles/{}/attempt", with.id);
    let (_, anonymous) = s.post(&path, json!({"win": true})).await;
    assert_shape(
        &anonymous,
        json!({"puzzle": {"rating": "int"}, "player": "null"}),
    );
    let user = sign_up(&s, "shaper").await;
    let (_, rated) = user.post(&s, &path, json!({"win": true})).await;
    assert_shape(
        &rated,
        json!({"puzzle": {"rating": "int"}, "player": {"rating": "int", "rd": "int"}}),
    );
    s.stop().await;
}
