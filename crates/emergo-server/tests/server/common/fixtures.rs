//! Games the tests start from: a finished game (on any board), a timed game, a game paired
//! between two accounts, a long game.

use super::{first_legal, id_of, shuffling_record, TestServer, User};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A game between people that White resigned after one move: (White's grant, Black's grant,
/// id). Before the resignation, a rematch offer is refused (`not_allowed`): the game is on.
pub async fn finished_game(srv: &TestServer) -> (Value, Value, String) {
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let (status, _) = srv.play(&id, &white["token"], 0, "d3").await;
    assert_eq!(status, StatusCode::OK);
    let path = format!("/api/games/{id}/rematch");
    let (status, early) = srv
        .post(&path, json!({"token": white["token"], "action": "offer"}))
        .await;
    assert_eq!(
        (status, &early["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{early}"
    );
    let (status, over) = srv
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": white["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    (white, black, id)
}

/// A game between people with `time`, both seats taken: (id, White's token, Black's token).
pub async fn timed_game(srv: &TestServer, time: &str) -> (String, Value, Value) {
    let (white, black) = srv.human_game_with(json!({"time": time})).await;
    let id = id_of(&white);
    assert_eq!(white["game"]["time_control"], time);
    (id, white["token"].clone(), black["token"].clone())
}

/// A game of `time` from `white`'s seek (`white` plays White), accepted by `black`: the
/// acceptor's seat grant.
pub async fn pair(s: &TestServer, white: &User, black: &User, time: &str, rated: bool) -> Value {
    let (status, seek) = white
        .post(
            s,
            "/api/seeks",
            json!({"time": time, "rated": rated, "color": "white"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    let seek = seek["id"].as_str().expect("an id");
    let (status, grant) = black
        .post(s, &format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    grant
}

/// The id of the game [`pair`] makes.
pub async fn paired(s: &TestServer, white: &User, black: &User, time: &str, rated: bool) -> String {
    id_of(&pair(s, white, black, time, rated).await)
}

/// A game of `plies` moves (the shuffling game: no capture, nobody wins), imported: its view.
pub async fn long_game(srv: &TestServer, plies: usize) -> Value {
    let (status, imported) = srv
        .post_raw("/api/games/import", "text/plain", &shuffling_record(plies))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    imported
}

/// Ten plies of game `id` between accounts (`white` plays White): d3, then the first legal
/// move each time. Five moves a side, as a rated game needs before a resignation counts (a
/// sooner one aborts it: issue 17 item 5).
pub async fn ten_plies(s: &TestServer, id: &str, white: &User, black: &User) {
    let moves = format!("/api/games/{id}/moves");
    let (status, mut view) = white.post(s, &moves, json!({"ply": 0, "move": "d3"})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    for ply in 1..10 {
        let who = if ply % 2 == 0 { white } else { black };
        let mv = super::first_legal(&view);
        let (status, next) = who.post(s, &moves, json!({"ply": ply, "move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        view = next;
    }
}

/// `loser` resigns game `id`.
pub async fn resign_as(s: &TestServer, id: &str, loser: &User) {
    let (status, _) = loser
        .post(s, &format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
}

/// A game between people on board `variant` (`hex`, `7x7`, `emergo`): each side plays its
/// first legal move for `plies` plies, then Black resigns. Its id and moves.
pub async fn finished_game_on(
    srv: &TestServer,
    variant: &str,
    plies: usize,
) -> (String, Vec<String>) {
    let (white, black) = srv.human_game_with(json!({"variant": variant})).await;
    let id = id_of(&white);
    let mut game = black["game"].clone();
    assert_eq!(game["variant"], variant);
    let mut moves = Vec::new();
    for ply in 0..plies {
        let seat = if game["turn"] == "white" {
            &white
        } else {
            &black
        };
        let mv = first_legal(&game);
        let (status, answer) = srv.play(&id, &seat["token"], ply as i64, &mv).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        moves.push(mv);
        game = answer;
    }
    let (status, answer) = srv
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": black["token"]}),
        )
        .await;
    assert!(status.is_success(), "{answer}");
    (id, moves)
}
