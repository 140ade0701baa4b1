//! Issue 23: tournaments through the API (docs/api.md "Tournaments"): a round robin of four
//! accounts played to its end in mini-matches with the standings checked, an arena pairing its
//! players again after each game, and the refusals.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The tournament `id` once `ready` says so (the ticker acts within a second or two).
async fn wait_for(s: &TestServer, id: &str, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, t) = s.get(&format!("/api/tournaments/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{t}");
        if ready(&t) {
            return t;
        }
        assert!(Instant::now() < until, "{what}: {t}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The id of tournament `body`, made by `creator` (201).
async fn created(s: &TestServer, creator: &User, body: Value) -> String {
    let (status, t) = creator.post(s, "/api/tournaments", body).await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    t["id"].as_str().expect("id").to_string()
}

/// `who` joins tournament `id` (200): the tournament's view then.
async fn joins(s: &TestServer, who: &User, id: &str) -> Value {
    let (status, t) = who
        .post(s, &format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    t
}

/// A 3+2 arena of 30 minutes named `name`, made by "organiser", joined by anna and bert, and
/// started: its id and the two players.
async fn started_arena(s: &TestServer, name: &str) -> (String, User, User) {
    let creator = sign_up(s, "organiser").await;
    let id = created(
        s,
        &creator,
        json!({"name": name, "format": "arena", "time": "3+2", "minutes": 30}),
    )
    .await;
    let anna = sign_up(s, "anna").await;
    let bert = sign_up(s, "bert").await;
    for p in [&anna, &bert] {
        joins(s, p, &id).await;
    }
    let (status, t) = creator
        .post(s, &format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    (id, anna, bert)
}

#[tokio::test]
async fn a_round_robin_of_four_is_played_to_its_end_in_mini_matches() {
    let s = TestServer::start().await;
    let creator = sign_up(&s, "organiser").await;
    let id = created(
        &s,
        &creator,
        json!({"name": "Club round robin", "format": "roundrobin", "time": "5+3"}),
    )
    .await;
    let (_, t) = s.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(
        (t["status"].as_str(), t["games_per_pairing"].as_i64()),
        (Some("created"), Some(2))
    );
    assert_eq!(t["standings"], json!([]), "the creator is not joined: {t}");
    let mut players = Vec::new();
    for name in ["pl1", "pl2", "pl3", "pl4"] {
        let p = sign_up(&s, name).await;
        joins(&s, &p, &id).await;
        players.push(p);
    }
    let (status, again) = players[0]
        .post(&s, &format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    let (status, _) = players[0]
        .post(&s, &format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "only the creator starts it");
    let (status, t) = creator
        .post(&s, &format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    // Three rounds; in every game the later-joined player resigns. A mini-match's second game
    // (colours swapped) is made when its first ends, not beside it.
    let seed = |name: &str| name[2..].parse::<usize>().expect("a seed");
    for round in 1..=3 {
        for half in 1..=2 {
            let made = 4 * (round as usize - 1) + 2 * half;
            let t = wait_for(&s, &id, "the round's games", |t| {
                t["round"] == round && t["games"].as_array().is_some_and(|g| g.len() == made)
            })
            .await;
            assert_eq!(t["status"], "started");
            let games = t["games"].as_array().expect("games");
            let open: Vec<&Value> = games.iter().filter(|g| g["result"].is_null()).collect();
            assert_eq!(open.len(), 2, "the games to play now: {t}");
            for game in open {
                assert_eq!(game["round"], round, "{game}");
                let (white, black) = (
                    game["white"].as_str().expect("w"),
                    game["black"].as_str().expect("b"),
                );
                if half == 2 {
                    assert!(
                        games.iter().any(|g| g["round"] == round
                            && g["white"] == black
                            && g["black"] == white
                            && g["result"].is_string()),
                        "the second game swaps the first's colours: {t}"
                    );
                }
                let loser = if seed(white) > seed(black) {
                    white
                } else {
                    black
                };
                let game_id = game["id"].as_str().expect("id");
                // Five moves a side (a resignation sooner aborts a game), then the resignation.
                let (w, b) = (&players[seed(white) - 1], &players[seed(black) - 1]);
                ten_plies(&s, game_id, w, b).await;
                resign_as(&s, game_id, &players[seed(loser) - 1]).await;
            }
        }
    }
    let t = wait_for(&s, &id, "the end", |t| t["status"] == "finished").await;
    let games = t["games"].as_array().expect("games");
    assert_eq!(games.len(), 12, "6 pairings of two games: {t}");
    // Every pair met once (twice: the mini-match), with the colours swapped.
    let mut pairs = std::collections::BTreeMap::new();
    for g in games {
        let (w, b) = (
            g["white"].as_str().expect("w"),
            g["black"].as_str().expect("b"),
        );
        let key = (w.min(b).to_string(), w.max(b).to_string());
        pairs
            .entry(key)
            .or_insert_with(Vec::new)
            .push(w.to_string());
        assert!(g["result"].is_string(), "{g}");
    }
    assert_eq!(pairs.len(), 6);
    assert!(
        pairs
            .values()
            .all(|whites| whites.len() == 2 && whites[0] != whites[1]),
        "{pairs:?}"
    );
    let standings: Vec<(String, u64, u64)> = t["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().expect("name").to_string(),
                s["score"].as_u64().expect("score"),
                s["rank"].as_u64().expect("rank"),
            )
        })
        .collect();
    // Win 2 a game: pl1 won all six games, pl2 four, pl3 two, pl4 none.
    assert_eq!(
        standings,
        vec![
            ("pl1".to_string(), 12, 1),
            ("pl2".to_string(), 8, 2),
            ("pl3".to_string(), 4, 3),
            ("pl4".to_string(), 0, 4),
        ]
    );
    let (_, list) = s.get("/api/tournaments").await;
    assert_eq!(list["finished"][0]["id"], id.as_str(), "{list}");
    // Each player's games, and each round's.
    assert_eq!(t["games_total"], 12, "{t}");
    let (status, mine) = s
        .get(&format!("/api/tournaments/{id}/games?player=PL2"))
        .await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    let games = mine["games"].as_array().expect("games");
    assert_eq!((games.len(), &mine["total"]), (6, &json!(6)), "{mine}");
    assert!(
        games
            .iter()
            .all(|g| g["white"] == "pl2" || g["black"] == "pl2"),
        "{mine}"
    );
    let (_, first) = s.get(&format!("/api/tournaments/{id}/games?round=1")).await;
    assert_eq!(first["total"], 4, "two pairings of two games: {first}");
    let (_, both) = s
        .get(&format!("/api/tournaments/{id}/games?player=pl2&round=1"))
        .await;
    assert_eq!(both["total"], 2, "{both}");
    let (status, none) = s
        .get(&format!("/api/tournaments/{id}/games?player=nobody"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{none}");
    let (status, bad) = s
        .get(&format!("/api/tournaments/{id}/games?round=first"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    s.stop().await;
}

#[tokio::test]
async fn an_arena_pairs_its_players_again_as_soon_as_a_game_ends() {
    let s = TestServer::start().await;
    let (id, a, b) = started_arena(&s, "Evening arena").await;
    for n in 1..=2 {
        let t = wait_for(&s, &id, "a pairing", |t| {
            t["games"].as_array().is_some_and(|g| g.len() == n)
        })
        .await;
        let game = &t["games"][n - 1];
        let (white, black) = if game["black"] == "anna" {
            (&b, &a)
        } else {
            (&a, &b)
        };
        let game_id = game["id"].as_str().expect("id");
        ten_plies(&s, game_id, white, black).await;
        resign_as(&s, game_id, black).await;
    }
    let t = wait_for(&s, &id, "the third pairing", |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 3)
    })
    .await;
    assert!(t["ends_at"].is_string(), "{t}");
    // Each won its game with White: 2 points each, no streak yet.
    let scores: Vec<u64> = t["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|s| s["score"].as_u64().expect("score"))
        .collect();
    assert_eq!(scores, vec![2, 2], "{t}");
    s.stop().await;
}

/// An arena player pauses (during its game): it keeps its score and is paired no more until
/// it joins again; a withdrawal once the arena runs is for good, and a pause is refused
/// outside an arena under way.
#[tokio::test]
async fn an_arena_player_pauses_keeps_its_score_and_comes_back_by_joining() {
    let s = TestServer::start().await;
    let (id, anna, bert) = started_arena(&s, "Pause arena").await;
    let t = wait_for(&s, &id, "the pairing", |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 1)
    })
    .await;
    let game = &t["games"][0];
    let (white, black) = if game["white"] == "anna" {
        (&anna, &bert)
    } else {
        (&bert, &anna)
    };
    let gid = game["id"].as_str().expect("id").to_string();
    let pause = format!("/api/tournaments/{id}/pause");
    let (status, t) = white.post(&s, &pause, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let mine = |t: &Value, who: &User| {
        t["standings"]
            .as_array()
            .expect("standings")
            .iter()
            .find(|p| p["name"] == who.name.as_str())
            .cloned()
            .expect("in the standings")
    };
    assert_eq!(mine(&t, white)["paused"], true, "{t}");
    let (status, again) = white.post(&s, &pause, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "paused already: {again}");
    // Its game goes on, and it wins it: 2 points kept, and no new game while paused.
    ten_plies(&s, &gid, white, black).await;
    resign_as(&s, &gid, black).await;
    let t = wait_for(&s, &id, "the win scored", |t| {
        t["games"][0]["result"].is_string()
    })
    .await;
    assert_eq!(mine(&t, white)["score"], 2, "{t}");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (_, t) = s.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(
        t["games"].as_array().map(Vec::len),
        Some(1),
        "no pairing while paused: {t}"
    );
    // Joining again ends the pause: paired at once.
    let t = joins(&s, white, &id).await;
    assert_eq!(mine(&t, white)["paused"], false, "{t}");
    wait_for(&s, &id, "paired again", |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 2)
    })
    .await;
    // A withdrawal under way is for good.
    let (status, t) = black
        .post(&s, &format!("/api/tournaments/{id}/withdraw"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let (status, back) = black
        .post(&s, &format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(
        (status, &back["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{back}"
    );
    assert!(
        back["message"]
            .as_str()
            .is_some_and(|m| m.contains("withdrew")),
        "{back}"
    );
    s.stop().await;
}

/// An arena pairs players of equal score by their ratings in its pool (3+2: blitz): of four
/// at 0 points, the two strongest meet, and the two weakest (one without a rating: 1500); by
/// joining order it would be anna–bert and carl–dora.
#[tokio::test]
async fn an_arena_pairs_equal_scores_by_their_ratings() {
    let s = TestServer::start().await;
    let creator = sign_up(&s, "organiser").await;
    let id = created(
        &s,
        &creator,
        json!({"name": "Rated arena", "format": "arena", "time": "3+2", "minutes": 30}),
    )
    .await;
    for (name, rating) in [
        ("anna", Some(1900)),
        ("bert", None),
        ("carl", Some(1880)),
        ("dora", Some(1520)),
    ] {
        let p = sign_up(&s, name).await;
        if let Some(rating) = rating {
            crate::accounts::sql(
                &s,
                &format!(
                    "INSERT INTO ratings (account_id, category, rating, rd, volatility, games, updated_at) \
                     SELECT id, 'blitz', {rating}, 60, 0.06, 10, '2026-12-01T00:00:00Z' FROM accounts WHERE name = ?"
                ),
                &[name],
            )
            .await;
        }
        joins(&s, &p, &id).await;
    }
    let (status, t) = creator
        .post(&s, &format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let t = wait_for(&s, &id, "the first pairings", |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 2)
    })
    .await;
    let mut pairs: Vec<Vec<String>> = t["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let mut p = vec![g["white"].to_string(), g["black"].to_string()];
            p.sort();
            p
        })
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        vec![
            vec!["\"anna\"".to_string(), "\"carl\"".to_string()],
            vec!["\"bert\"".to_string(), "\"dora\"".to_string()]
        ],
        "{t}"
    );
    s.stop().await;
}

/// An absent player (no first move within 30 s of its turn) loses the game as "absent"; a
/// player absent twice is withdrawn and paired no more. The game clocks are a manual clock.
#[tokio::test]
async fn an_absent_player_loses_and_twice_absent_is_withdrawn() {
    let manual = emergo_server::clock::ManualClock::at_system_time();
    let s = TestServer::builder()
        .clock(emergo_server::clock::Clock::from(manual.clone()))
        .start()
        .await;
    let (id, anna, bert) = started_arena(&s, "Absent arena").await;
    let t = wait_for(&s, &id, "the first pairing", |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 1)
    })
    .await;
    let first = t["games"][0].clone();
    let absent = first["white"].as_str().expect("white").to_string();
    let present = first["black"].as_str().expect("black").to_string();
    // 29 s without White's first move: nothing happens; past 30 s, White has lost.
    manual.advance(29_000);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_, game) = s
        .get(&format!("/api/games/{}", first["id"].as_str().expect("id")))
        .await;
    assert_eq!(game["status"], "ongoing", "{game}");
    manual.advance(2_000);
    let t = wait_for(&s, &id, "the absent player's loss", |t| {
        t["games"][0]["result"] == "0-1"
    })
    .await;
    let (_, game) = s
        .get(&format!("/api/games/{}", first["id"].as_str().expect("id")))
        .await;
    assert_eq!(game["reason"], "absent", "{game}");
    assert_eq!(t["standings"][0]["name"], present.as_str(), "{t}");
    assert_eq!(t["standings"][0]["score"], 2, "{t}");
    // Paired again; the present player moves, the absent one is absent again.
    let t = wait_for(&s, &id, "the second pairing", |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 2)
    })
    .await;
    let second = t["games"][1].clone();
    assert_eq!(second["white"], present.as_str(), "{t}");
    let game_id = second["id"].as_str().expect("id").to_string();
    let (_, view) = s.get(&format!("/api/games/{game_id}")).await;
    let mv = view["legal_moves"][0].as_str().expect("a move").to_string();
    let mover = if present == "anna" { &anna } else { &bert };
    let (status, view) = mover
        .post(
            &s,
            &format!("/api/games/{game_id}/moves"),
            json!({"ply": 0, "move": mv}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    manual.advance(31_000);
    let t = wait_for(&s, &id, "the absent player withdrawn", |t| {
        t["standings"].as_array().is_some_and(|list| {
            list.iter()
                .any(|p| p["name"] == absent.as_str() && p["withdrawn"] == true)
        })
    })
    .await;
    assert_eq!(t["games"][1]["result"], "1-0", "{t}");
    // Nobody is left to pair with.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (_, t) = s.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["games"].as_array().map(Vec::len), Some(2), "{t}");
    s.stop().await;
}

/// The next `{"type": "tournament"}` message of a tournament's socket (bounded wait).
async fn next_view(socket: &mut Socket) -> Value {
    use futures_util::StreamExt;
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a message");
        if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).expect("JSON");
            assert_eq!(value["type"], "tournament", "{value}");
            return value["tournament"].clone();
        }
    }
}

/// The tournament's socket gives its view at once, then each change (a join, the start, a
/// result) within about a second; an unknown tournament is a 404 before any upgrade.
#[tokio::test]
async fn a_tournaments_socket_sends_its_view_and_every_change() {
    let s = TestServer::start().await;
    let creator = sign_up(&s, "organiser").await;
    let (_, t) = creator
        .post(
            &s,
            "/api/tournaments",
            json!({"name": "Live arena", "format": "arena", "time": "3+2", "minutes": 30}),
        )
        .await;
    let id = t["id"].as_str().expect("id").to_string();
    let url = format!(
        "{}/api/tournaments/{id}/socket",
        s.base.replace("http", "ws")
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("the socket opens");
    let view = next_view(&mut socket).await;
    assert_eq!(
        (view["id"].as_str(), &view["standings"]),
        (Some(id.as_str()), &json!([]))
    );
    // A second socket on the same tournament shares its feed and starts with the view too.
    let (mut second, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("the socket opens");
    assert_eq!(next_view(&mut second).await["id"], id.as_str());
    let anna = sign_up(&s, "anna").await;
    let bert = sign_up(&s, "bert").await;
    for p in [&anna, &bert] {
        p.post(&s, &format!("/api/tournaments/{id}/join"), json!({}))
            .await;
    }
    let mut view = next_view(&mut socket).await;
    while view["standings"].as_array().map(Vec::len) != Some(2) {
        view = next_view(&mut socket).await;
    }
    creator
        .post(&s, &format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    while view["games"].as_array().map(Vec::len) != Some(1) {
        view = next_view(&mut socket).await;
    }
    assert_eq!(view["status"], "started", "{view}");
    let game = view["games"][0].clone();
    let (w, b) = if game["white"] == "anna" {
        (&anna, &bert)
    } else {
        (&bert, &anna)
    };
    let game_id = game["id"].as_str().expect("id");
    ten_plies(&s, game_id, w, b).await;
    resign_as(&s, game_id, b).await;
    while view["games"][0]["result"].is_null() {
        view = next_view(&mut socket).await;
    }
    assert_eq!(view["standings"][0]["score"], 2, "{view}");
    drop((socket, second));
    let (status, body) = s.get("/api/tournaments/nothing/socket").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    s.stop().await;
}

/// Late entries: a Swiss takes a player after its first round with a bye of half a win for
/// the round missed, and pairs it from the next round on; an arena takes one while it runs; a
/// round robin takes none once started.
#[tokio::test]
async fn a_late_swiss_entry_gets_a_half_point_bye_and_a_round_robin_takes_none() {
    let s = TestServer::start().await;
    let creator = sign_up(&s, "organiser").await;
    let (_, t) = creator
        .post(
            &s,
            "/api/tournaments",
            json!({"name": "Late Swiss", "format": "swiss", "time": "5+3", "rounds": 3,
                   "games_per_pairing": 1}),
        )
        .await;
    let id = t["id"].as_str().expect("id").to_string();
    let mut players = Vec::new();
    for name in ["pl1", "pl2", "pl3", "pl4"] {
        let p = sign_up(&s, name).await;
        p.post(&s, &format!("/api/tournaments/{id}/join"), json!({}))
            .await;
        players.push(p);
    }
    creator
        .post(&s, &format!("/api/tournaments/{id}/start"), json!({}))
        .await;
    let t = wait_for(&s, &id, "round 1", |t| t["round"] == 1).await;
    assert_eq!(t["games"].as_array().map(Vec::len), Some(2), "{t}");
    let late = sign_up(&s, "late").await;
    let t = joins(&s, &late, &id).await;
    let entry = t["standings"]
        .as_array()
        .and_then(|list| list.iter().find(|p| p["name"] == "late"))
        .cloned()
        .unwrap_or_else(|| panic!("the late entry stands: {t}"));
    assert_eq!(entry["score"], 1, "half a win for round 1: {entry}");
    // Round 1 ends (White wins each game); round 2 pairs five players: the late one too.
    for game in t["games"].as_array().expect("games").clone() {
        let seat = |name: &Value| {
            let n: usize = name.as_str().expect("a name")[2..].parse().expect("a seed");
            &players[n - 1]
        };
        let (w, b) = (seat(&game["white"]), seat(&game["black"]));
        let game_id = game["id"].as_str().expect("id");
        ten_plies(&s, game_id, w, b).await;
        resign_as(&s, game_id, b).await;
    }
    let t = wait_for(&s, &id, "round 2", |t| t["round"] == 2).await;
    let round2: Vec<&Value> = t["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| g["round"] == 2)
        .collect();
    assert_eq!(round2.len(), 2, "five players: two games and a bye: {t}");
    let late_plays = round2
        .iter()
        .any(|g| g["white"] == "late" || g["black"] == "late");
    let late_bye = t["standings"]
        .as_array()
        .and_then(|list| list.iter().find(|p| p["name"] == "late"))
        .is_some_and(|p| p["score"] == 3);
    assert!(late_plays || late_bye, "the late entry is in round 2: {t}");

    // An arena takes a player while it runs.
    let (_, arena) = creator
        .post(
            &s,
            "/api/tournaments",
            json!({"name": "Open arena", "format": "arena", "time": "3+2", "minutes": 30}),
        )
        .await;
    let arena_id = arena["id"].as_str().expect("id").to_string();
    for p in &players[..2] {
        p.post(&s, &format!("/api/tournaments/{arena_id}/join"), json!({}))
            .await;
    }
    creator
        .post(&s, &format!("/api/tournaments/{arena_id}/start"), json!({}))
        .await;
    wait_for(&s, &arena_id, "the arena under way", |t| t["round"] == 1).await;
    let (status, body) = late
        .post(&s, &format!("/api/tournaments/{arena_id}/join"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["standings"].as_array().map(Vec::len),
        Some(3),
        "{body}"
    );

    // A round robin, once started, takes nobody.
    let (_, rr) = creator
        .post(
            &s,
            "/api/tournaments",
            json!({"name": "Closed", "format": "roundrobin", "time": "5+3"}),
        )
        .await;
    let rr_id = rr["id"].as_str().expect("id").to_string();
    for p in &players[..3] {
        p.post(&s, &format!("/api/tournaments/{rr_id}/join"), json!({}))
            .await;
    }
    creator
        .post(&s, &format!("/api/tournaments/{rr_id}/start"), json!({}))
        .await;
    wait_for(&s, &rr_id, "the round robin under way", |t| t["round"] == 1).await;
    let (status, body) = late
        .post(&s, &format!("/api/tournaments/{rr_id}/join"), json!({}))
        .await;
    assert_eq!(
        (status, &body["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{body}"
    );
    s.stop().await;
}

/// Berserk in an arena: before its first move a player halves its clock (once); a win of at
/// least 14 plies then scores 2 + 1. After a move, or outside an arena, it is refused.
#[tokio::test]
async fn an_arena_player_goes_berserk_for_half_its_clock_and_a_point_more() {
    let s = TestServer::start().await;
    let (id, anna, bert) = started_arena(&s, "Berserk arena").await;
    let t = wait_for(&s, &id, "the pairing", |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 1)
    })
    .await;
    let game = t["games"][0].clone();
    let (w, b) = if game["white"] == "anna" {
        (&anna, &bert)
    } else {
        (&bert, &anna)
    };
    let gid = game["id"].as_str().expect("id").to_string();
    // The game's view names its tournament and who may go berserk (the page's button).
    let (_, before) = s.get(&format!("/api/games/{gid}")).await;
    assert_eq!(
        before["tournament"],
        json!({"id": id, "arena": true,
            "berserk": {"white": false, "black": false},
            "can_berserk": {"white": true, "black": true}}),
        "{before}"
    );
    let berserk = format!("/api/games/{gid}/berserk");
    let (status, view) = w.post(&s, &berserk, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["tournament"]["berserk"]["white"], true, "{view}");
    assert_eq!(view["tournament"]["can_berserk"]["white"], false, "{view}");
    assert_eq!(view["tournament"]["can_berserk"]["black"], true, "{view}");
    let white_ms = view["clock"]["white_ms"].as_i64().expect("White's clock");
    assert!(
        (80_000..=90_000).contains(&white_ms),
        "half of 3 minutes: {view}"
    );
    assert_eq!(view["clock"]["black_ms"], 180_000, "{view}");
    let (status, again) = w.post(&s, &berserk, json!({})).await;
    assert_eq!(
        (status, &again["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{again}"
    );
    // Seven moves a side (14 plies), then Black resigns.
    let moves = format!("/api/games/{gid}/moves");
    let (_, mut view) = s.get(&format!("/api/games/{gid}")).await;
    for ply in 0..14 {
        let who = if ply % 2 == 0 { w } else { b };
        if ply == 1 {
            // Black's first move is still to come; White has moved: too late for White.
            let (status, late) = w.post(&s, &berserk, json!({})).await;
            assert_eq!(status, StatusCode::CONFLICT, "{late}");
        }
        let mv = view["legal_moves"][0].as_str().expect("a move").to_string();
        let (status, next) = who.post(&s, &moves, json!({"ply": ply, "move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        view = next;
    }
    assert_eq!(
        view["tournament"]["can_berserk"],
        json!({"white": false, "black": false}),
        "both have moved: {view}"
    );
    resign_as(&s, &gid, b).await;
    let t = wait_for(&s, &id, "the berserk win scored", |t| {
        t["games"][0]["result"] == "1-0"
    })
    .await;
    assert_eq!(t["games"][0]["white_berserk"], true, "{t}");
    assert!(t["games"][0].get("black_berserk").is_none(), "{t}");
    assert_eq!(
        t["standings"][0]["score"], 3,
        "2 + 1 for the berserk win: {t}"
    );
    // Outside an arena there is no berserk.
    let casual = s.create(json!({"mode": "human", "color": "white"})).await;
    let cid = casual["game"]["id"].as_str().expect("id");
    assert!(casual["game"]["tournament"].is_null(), "{casual}");
    let (status, body) = s
        .post(
            &format!("/api/games/{cid}/berserk"),
            json!({"token": casual["token"]}),
        )
        .await;
    assert_eq!(
        (status, &body["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "{body}"
    );
    s.stop().await;
}

#[tokio::test]
async fn tournaments_refuse_what_they_cannot_run() {
    let s = TestServer::start().await;
    let (status, _) = s
        .post(
            "/api/tournaments",
            json!({"name": "x", "format": "arena", "time": "3+2"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let alice = sign_up(&s, "alice").await;
    for (body, says) in [
        (
            json!({"name": "Cup", "format": "knockout", "time": "3+2"}),
            "not a format",
        ),
        (
            json!({"name": "Cup", "format": "arena", "time": "corr:3"}),
            "real time",
        ),
        (
            json!({"name": "Cup", "format": "swiss", "time": "3+2", "rounds": 40}),
            "rounds",
        ),
        (
            json!({"name": "Cup", "format": "roundrobin", "time": "3+2", "max_players": 17}),
            "players",
        ),
        (
            json!({"name": "", "format": "swiss", "time": "3+2"}),
            "name",
        ),
        (
            json!({"name": "Cup", "format": "swiss", "time": "3+999"}),
            "time",
        ),
    ] {
        let (status, answer) = alice.post(&s, "/api/tournaments", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(
            answer["message"].as_str().unwrap_or("").contains(says),
            "{body}: {answer}"
        );
    }
    for n in 0..3 {
        let (status, t) = alice
            .post(&s, "/api/tournaments", json!({"name": format!("Cup {n}"), "format": "swiss", "time": "3+2", "password": "club"}))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{t}");
        assert_eq!(t["private"], true);
    }
    let (status, answer) = alice
        .post(
            &s,
            "/api/tournaments",
            json!({"name": "Cup 4", "format": "swiss", "time": "3+2"}),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "a fourth unfinished one: {answer}"
    );
    let (_, list) = s.get("/api/tournaments").await;
    let id = list["upcoming"][0]["id"].as_str().expect("id").to_string();
    let bob = sign_up(&s, "bob").await;
    let (status, _) = bob
        .post(&s, &format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "a private one needs its password"
    );
    let (status, t) = bob
        .post(
            &s,
            &format!("/api/tournaments/{id}/join"),
            json!({"password": "club"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    // A pause is for an arena under way; this one has not started.
    let (status, paused) = bob
        .post(&s, &format!("/api/tournaments/{id}/pause"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{paused}");
    let (status, _) = s.get("/api/tournaments/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    s.stop().await;
}
