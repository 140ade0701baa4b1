//! What a new player found (issue 18), over HTTP: a move written against its number imports, a
//! refused move names its rule, the records and the list of account games carry the players'
//! names, the time control and the ratings, and a correspondence move reaches the lobby.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A rated 3+2 game from alice's seek (alice White), bob resigning after five moves each (a
/// sooner resignation aborts a rated game: issue 17 item 5).
async fn rated_game_bob_resigns(s: &TestServer, alice: &User, bob: &User) -> String {
    let id = paired(s, alice, bob, "3+2", true).await;
    ten_plies(s, &id, alice, bob).await;
    resign_as(s, &id, bob).await;
    id
}

fn tag<'a>(record: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    record
        .lines()
        .find_map(|l| l.strip_prefix(start.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

#[tokio::test]
async fn item7_records_of_account_games_carry_names_time_control_ratings_date_and_site() {
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let first = rated_game_bob_resigns(&s, &alice, &bob).await;
    // The settlement comes just after the end: wait for alice's first rated game.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (_, page) = s.get("/api/players/alice").await;
        if page["ratings"]["blitz"]["games"] == 1 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never settled: {page}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Stored times are whole seconds: a second game begun in the second the first was settled
    // cannot be told from it by time (seen once in a full run: 1500 instead of 1662). Two rated
    // games of five moves a side within one second are the test's, not a player's; the store's
    // tie is noted on issue 19.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let second = rated_game_bob_resigns(&s, &alice, &bob).await;

    let (status, _, record) = s.get_text(&format!("/api/games/{first}/record")).await;
    assert_eq!(status, StatusCode::OK);
    let host = s.base.trim_start_matches("http://");
    assert_eq!(tag(&record, "White"), Some("alice"), "{record}");
    assert_eq!(tag(&record, "Black"), Some("bob"), "{record}");
    assert_eq!(tag(&record, "TimeControl"), Some("180+2"), "{record}");
    assert_eq!(tag(&record, "Event"), Some("Rated blitz game"), "{record}");
    assert_eq!(tag(&record, "WhiteElo"), Some("1500"), "{record}");
    assert_eq!(tag(&record, "BlackElo"), Some("1500"), "{record}");
    let site = format!("http://{host}/game/{first}");
    assert_eq!(tag(&record, "Site"), Some(site.as_str()), "{record}");
    let date = tag(&record, "Date").expect("a date");
    assert!(
        date.len() == 10 && date.chars().filter(|&c| c == '.').count() == 2,
        "{record}"
    );
    // The second game began with alice's rating after the first (a win: 1662), bob's 1338.
    let (_, _, record) = s.get_text(&format!("/api/games/{second}/record")).await;
    assert_eq!(tag(&record, "WhiteElo"), Some("1662"), "{record}");
    assert_eq!(tag(&record, "BlackElo"), Some("1338"), "{record}");
    // The record reads back (the tags are plain PGN tags).
    emergo_core::GameRecord::parse(&record).expect("the record reads");

    // The list of games says who played.
    let (_, list) = s.get("/api/games?status=finished").await;
    let line = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == first.as_str())
        .expect("the game listed")
        .clone();
    assert_eq!(line["players"]["white"]["name"], "alice", "{line}");
    assert_eq!(line["players"]["black"]["name"], "bob", "{line}");
    assert_eq!(line["players"]["rated"], "blitz", "{line}");
}

#[tokio::test]
async fn item6_import_reads_moves_against_their_numbers_and_names_a_broken_rule() {
    let s = TestServer::start().await;
    let (status, view) = s
        .post_raw("/api/games/import", "text/plain", "1.d3 a5 2.f2 *")
        .await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    assert_eq!(view["moves"], json!(["d3", "a5", "f2"]));
    let (status, err) = s.post_raw("/api/games/import", "text/plain", "1. e5").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert_eq!(err["error"], "bad_request");
    assert_eq!(err["refusal"], "first_entry_on_centre", "{err}");
    assert_eq!(err["rule"], "R9.3", "{err}");
    assert_eq!(
        (err["line"].clone(), err["column"].clone()),
        (json!(1), json!(4))
    );
    // A word that is no move breaks no rule: only the place.
    let (_, err) = s.post_raw("/api/games/import", "text/plain", "1. zz").await;
    assert!(err.get("refusal").is_none(), "{err}");
    assert_eq!(err["line"], 1);
}

#[tokio::test]
async fn item8_a_correspondence_move_tells_the_lobby_of_the_player_to_move() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Message};
    let s = TestServer::start().await;
    let alice = sign_up(&s, "alice").await;
    let bob = sign_up(&s, "bob").await;
    let id = paired(&s, &alice, &bob, "corr:3", true).await;
    let mut req = format!("ws://{}/api/lobby/ws", s.server.addr())
        .into_client_request()
        .expect("a request");
    req.headers_mut().insert(
        "cookie",
        format!("emergo_session={}", bob.cookie)
            .parse()
            .expect("a header"),
    );
    let (mut lobby, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("the lobby opens");
    let (status, _) = send(
        &s,
        &format!("/api/games/{id}/moves"),
        Some(&alice),
        json!({"ply": 0, "move": "d3"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let told = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            let Some(Ok(Message::Text(text))) = lobby.next().await else {
                panic!("the lobby closed");
            };
            let v: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if v["type"] == "turn" {
                return v;
            }
        }
    })
    .await
    .expect("bob's lobby told within 5 s");
    assert_eq!(told["game"], id.as_str());
}
