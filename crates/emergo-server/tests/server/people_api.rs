//! What lichess players expect (issue 18), over HTTP and WebSockets: the players' ratings in a
//! game's view with a provisional mark and, live when a rated game ends, the change; the
//! spectators' count; the watch list; a player page's statistics; the leaderboard's words.

use crate::common::*;
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Message};

/// Five moves a side in game `id` (White `white`), then `loser` resigns.
async fn play_then_resign(s: &TestServer, id: &str, white: &User, black: &User, loser: &User) {
    ten_plies(s, id, white, black).await;
    resign_as(s, id, loser).await;
}

/// Waits until `name`'s page counts `games` rated blitz games (the settlement follows the end).
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

/// A game's WebSocket, with a session when `user` is given.
async fn game_socket(s: &TestServer, id: &str, user: Option<&User>) -> Socket {
    let mut req = format!("ws://{}/api/games/{id}/ws", s.server.addr())
        .into_client_request()
        .expect("a request");
    if let Some(user) = user {
        let cookie = format!("emergo_session={}", user.cookie);
        req.headers_mut()
            .insert("cookie", cookie.parse().expect("a header"));
    }
    let (socket, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("the WebSocket opens");
    socket
}

/// Reads `socket`'s messages until a spectators' count equal to `n` (within 8 s: a count goes
/// out at most every 2 s).
async fn count_becomes(socket: &mut Socket, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(8);
    let mut last = None;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let msg = tokio::time::timeout(left, socket.next()).await;
        let Ok(Some(Ok(Message::Text(text)))) = msg else {
            match msg {
                Ok(Some(Ok(_))) => continue,
                _ => panic!("no count of {n} within 8 s (last {last:?})"),
            }
        };
        let v: Value = serde_json::from_str(text.as_str()).expect("JSON");
        if v["type"] == "watchers" {
            last = v["count"].as_u64();
            if last == Some(n) {
                return;
            }
        }
    }
}

#[tokio::test]
async fn ratings_in_the_game_view_are_provisional_at_first_and_the_change_comes_live_at_the_end() {
    let db = TestDb::new();
    let s = TestServer::builder().db(&db).start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let id = paired(&s, &alice, &bob, "3+2", true).await;
    // The ratings come just after the game is made (a second state).
    let mut socket = s.socket(&id).await;
    let view = state_where(&mut socket, |g| !g["players"]["white"]["rating"].is_null()).await;
    for side in ["white", "black"] {
        let r = &view["players"][side]["rating"];
        assert_eq!(r["rating"], 1500, "{r}");
        assert_eq!(r["rd"], 350, "{r}");
        assert_eq!(r["provisional"], true, "{r}");
        assert!(r["change"].is_null(), "{r}");
    }
    // A reader of the game over HTTP gets them too.
    let game = s.game(&id).await;
    assert_eq!(game["players"]["black"]["rating"]["rating"], 1500);

    play_then_resign(&s, &id, &alice, &bob, &bob).await;
    // Live: a spectator's socket gets the change once the settlement is stored.
    let ended = state_where(&mut socket, |g| {
        g["status"] == "finished" && g["players"]["white"]["rating"]["change"].is_i64()
    })
    .await;
    assert_eq!(
        ended["players"]["white"]["rating"]["change"], 162,
        "{ended}"
    );
    assert_eq!(
        ended["players"]["black"]["rating"]["change"], -162,
        "{ended}"
    );
    assert_eq!(ended["players"]["white"]["rating"]["rating"], 1500);
    // Read again later (from the database after a restart too): the same.
    settled(&s, "alice", 1).await;
    let again = s.game(&id).await;
    assert_eq!(again["players"], ended["players"]);
    s.stop().await;
    let s = TestServer::builder().db(&db).start().await;
    let reread = s.game(&id).await;
    assert_eq!(reread["players"], ended["players"]);

    // A casual game shows the ratings now (in its time control's category), never a change.
    let casual = paired(&s, &alice, &bob, "3+2", false).await;
    let mut socket = s.socket(&casual).await;
    let view = state_where(&mut socket, |g| !g["players"]["white"]["rating"].is_null()).await;
    assert_eq!(view["players"]["white"]["rating"]["rating"], 1662, "{view}");
    assert_eq!(view["players"]["black"]["rating"]["rating"], 1338, "{view}");
    assert!(view["players"]["white"]["rating"]["change"].is_null());
    assert!(view["players"]["rated"].is_null());
    // The list of games carries no ratings (only the game view does).
    let (_, list) = s.get("/api/games?status=ongoing").await;
    let line = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == casual.as_str())
        .cloned()
        .expect("listed");
    assert!(line["players"]["white"].get("rating").is_none(), "{line}");
}

#[tokio::test]
async fn spectators_are_counted_once_each_never_the_players() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let carol = sign_up(&s, "carol").await;
    let id = paired(&s, &alice, &bob, "5+3", true).await;
    // The two players (one with two tabs) are no spectators.
    let mut alice_ws = game_socket(&s, &id, Some(&alice)).await;
    count_becomes(&mut alice_ws, 0).await;
    let _alice_again = game_socket(&s, &id, Some(&alice)).await;
    let _bob_ws = game_socket(&s, &id, Some(&bob)).await;
    // An anonymous spectator, twice from one address: one.
    let mut anon = game_socket(&s, &id, None).await;
    count_becomes(&mut anon, 1).await;
    let _anon_again = game_socket(&s, &id, None).await;
    // carol signed in: two; her leaving: one again.
    let carol_ws = game_socket(&s, &id, Some(&carol)).await;
    count_becomes(&mut alice_ws, 2).await;
    drop(carol_ws);
    count_becomes(&mut alice_ws, 1).await;
    // The watch list gives the count too.
    let (_, list) = s.get("/api/watch").await;
    assert_eq!(list["games"][0]["id"], id.as_str(), "{list}");
    assert_eq!(list["games"][0]["watchers"], 1, "{list}");

    // An anonymous game: a player's socket that names its seat is no spectator.
    let (grant, joined) = s.human_game().await;
    let anon_id = id_of(&grant);
    let mut player = game_socket(&s, &anon_id, None).await;
    let hello = json!({"type": "seat", "token": grant["token"]}).to_string();
    player
        .send(Message::Text(hello.into()))
        .await
        .expect("sent");
    let mut other = game_socket(&s, &anon_id, None).await;
    let hello = json!({"type": "seat", "token": joined["token"]}).to_string();
    other.send(Message::Text(hello.into())).await.expect("sent");
    count_becomes(&mut player, 0).await;
    // A wrong token changes nothing: a spectator stays one.
    let mut watcher = game_socket(&s, &anon_id, None).await;
    let wrong = json!({"type": "seat", "token": "not-a-token"}).to_string();
    watcher
        .send(Message::Text(wrong.into()))
        .await
        .expect("sent");
    count_becomes(&mut watcher, 1).await;
}

#[tokio::test]
async fn the_watch_list_shows_games_being_played_the_highest_rated_first() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let carol = sign_up(&s, "carol").await;
    let dave = sign_up(&s, "dave").await;
    let erin = sign_up(&s, "erin").await;
    let first = paired(&s, &alice, &bob, "3+2", true).await;
    play_then_resign(&s, &first, &alice, &bob, &bob).await;
    settled(&s, "alice", 1).await;
    // dave–erin (1500, 1500) then alice–carol (1662, 1500): alice's game first.
    let low = paired(&s, &dave, &erin, "3+2", true).await;
    let high = paired(&s, &alice, &carol, "3+2", false).await;
    // An anonymous game is not listed.
    s.human_game().await;
    let (status, list) = s.get("/api/watch").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let ids: Vec<&str> = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(ids, [high.as_str(), low.as_str()], "{list}");
    let top = &list["games"][0];
    assert_eq!(top["white"]["name"], "alice");
    assert_eq!(top["white"]["rating"], 1662);
    assert_eq!(top["black"]["provisional"], true);
    assert_eq!(top["category"], "blitz");
    assert_eq!(top["rated"], Value::Null);
    assert_eq!(top["time_control"], "3+2");
    // The list is made again at most every 2 s: a game that ends leaves it then.
    let moves = format!("/api/games/{low}/moves");
    let (status, _) = send(&s, &moves, Some(&dave), json!({"ply": 0, "move": "d3"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send(
        &s,
        &format!("/api/games/{low}/resign"),
        Some(&erin),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (_, list) = s.get("/api/watch").await;
    let ids: Vec<&str> = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(ids, [high.as_str()], "{list}");
}

#[tokio::test]
async fn a_player_page_shows_results_per_category_best_rating_performance_and_the_game_played_now()
{
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    // A rated win, a casual loss, an aborted rated game (no count), and a game being played.
    let won = paired(&s, &alice, &bob, "3+2", true).await;
    play_then_resign(&s, &won, &alice, &bob, &bob).await;
    settled(&s, "alice", 1).await;
    let lost = paired(&s, &alice, &bob, "3+2", false).await;
    play_then_resign(&s, &lost, &alice, &bob, &alice).await;
    let aborted = paired(&s, &alice, &bob, "3+2", true).await;
    let (status, _) = send(
        &s,
        &format!("/api/games/{aborted}/resign"),
        Some(&alice),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let now = paired(&s, &bob, &alice, "10+5", true).await;

    let (status, page) = s.get("/api/players/alice").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(
        page["stats"]["blitz"],
        json!({"games": 2, "wins": 1, "draws": 0, "losses": 1, "rated": 1}),
        "{page}"
    );
    assert!(page["stats"].get("rapid").is_none(), "{page}");
    assert_eq!(page["best"]["blitz"]["rating"], 1662);
    assert_eq!(page["best"]["blitz"]["game"], won.as_str());
    assert_eq!(page["best"]["blitz"]["provisional"], true);
    // One rated game won against a 1500: 1500 + 400.
    assert_eq!(
        page["performance"]["blitz"],
        json!({"rating": 1900, "games": 1, "wins": 1, "draws": 0, "losses": 0})
    );
    let playing: Vec<&str> = page["playing"]
        .as_array()
        .expect("playing")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(playing, [now.as_str()]);
    assert_eq!(page["playing"][0]["opponent"], "bob");
    let (_, page) = s.get("/api/players/bob").await;
    assert_eq!(page["performance"]["blitz"]["rating"], 1100, "{page}");
    assert_eq!(page["stats"]["blitz"]["wins"], 1);
    assert_eq!(page["stats"]["blitz"]["losses"], 1);
}

/// Issue 18 item 12: a finished game without a review answers 200 `"none"` (the page asked and
/// logged a 404).
#[tokio::test]
async fn item12_a_game_without_a_review_answers_none_without_an_error_status() {
    let s = TestServer::start().await;
    let (grant, _) = s.human_game().await;
    let id = id_of(&grant);
    let (status, _) = s
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": grant["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, review) = s.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(status, StatusCode::OK, "{review}");
    assert_eq!(review, json!({"status": "none", "progress": 0.0}));
}
