//! The opening explorer (issue 22, docs/api.md "Opening explorer"): counts by position
//! (transpositions merge), each game once, the filters, a finished game counted without a
//! rebuild, one game indexed by two at once counted once, and the refusals.

use crate::common::*;
use emergo_core::{Color, EndReason, Game, Outcome, Position};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Duration;

/// Imports `record` as a stored game; its id.
async fn import(srv: &TestServer, record: &str) -> String {
    let (status, game) = srv
        .post_raw("/api/games/import", "text/plain", record)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    game["id"].as_str().expect("id").to_string()
}

/// The explorer's answer for `position` with the query `rest` (`&source=…`).
async fn explore(srv: &TestServer, position: &Position, rest: &str) -> Value {
    let (status, answer) = srv
        .get(&format!("/api/explorer?position={position}{rest}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

fn games_of(answer: &Value) -> i64 {
    ["white", "draws", "black"]
        .iter()
        .map(|k| answer[k].as_i64().expect("a count"))
        .sum()
}

/// The move `mv`'s entry of an answer.
fn move_of<'a>(answer: &'a Value, mv: &str) -> Option<&'a Value> {
    answer["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .find(|m| m["move"] == mv)
}

/// A game of `plies` random legal moves (seeded), ended by `outcome` declared.
fn random_game(seed: u64, plies: usize, outcome: Outcome) -> Game {
    let mut rng = seed | 1;
    let mut game = Game::default();
    while game.ply() < plies && !game.is_over() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let moves = game.position().legal_moves();
        let mv = moves[(rng % moves.len() as u64) as usize];
        game.play(mv).expect("a legal move");
    }
    if !game.is_over() {
        let reason = match outcome {
            Outcome::Draw => EndReason::Agreement,
            Outcome::Win(_) => EndReason::Resignation,
        };
        game.declare(outcome, reason).expect("declared");
    }
    game
}

/// Four moves from `pos` back to it, if there are.
fn four_ply_cycle(pos: &Position) -> Option<[emergo_core::Move; 4]> {
    // Each side steps and steps back: only the two steps back need looking for.
    let back = |mv: &emergo_core::Move| match *mv {
        emergo_core::Move::Step { from, to } => {
            Some(emergo_core::Move::Step { from: to, to: from })
        }
        _ => None,
    };
    for a in pos.legal_moves().iter() {
        let Some(c) = back(a) else { continue };
        let p1 = pos.play(*a).ok()?;
        for b in p1.legal_moves().iter() {
            let Some(d) = back(b) else { continue };
            let p2 = p1.play(*b).ok()?;
            if !p2.legal_moves().contains(&c) {
                continue;
            }
            let p3 = p2.play(c).ok()?;
            if p3.legal_moves().contains(&d) && p3.play(d).ok()? == *pos {
                return Some([*a, *b, c, d]);
            }
        }
    }
    None
}

/// What the explorer should say of `position` over `games`, counted here without the
/// explorer's code: games through it in their first 60 plies once each by result, and each
/// move played from it once per game.
fn expected(games: &[Game], position: &Position) -> ([i64; 3], BTreeMap<String, [i64; 3]>) {
    let mut total = [0; 3];
    let mut moves: BTreeMap<String, [i64; 3]> = BTreeMap::new();
    for game in games {
        let emergo_core::Status::Finished { outcome, .. } = game.status() else {
            continue;
        };
        let slot = match outcome {
            Outcome::Win(Color::White) => 0,
            Outcome::Draw => 1,
            Outcome::Win(Color::Black) => 2,
        };
        let plies: Vec<usize> = (0..game.positions().len().min(60))
            .filter(|&i| game.positions()[i] == *position)
            .collect();
        if plies.is_empty() {
            continue;
        }
        total[slot] += 1;
        let mut played: Vec<String> = plies
            .iter()
            .filter_map(|&i| game.moves().get(i).map(|m| m.to_string()))
            .collect();
        played.sort();
        played.dedup();
        for mv in played {
            moves.entry(mv).or_default()[slot] += 1;
        }
    }
    (total, moves)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_counts_after_importing_records_equal_counts_made_independently() {
    let srv = TestServer::start().await;
    let outcomes = [
        Outcome::Win(Color::White),
        Outcome::Draw,
        Outcome::Win(Color::Black),
    ];
    let games: Vec<Game> = (0..24u64)
        .map(|i| {
            random_game(
                0x5EED + i * 7919,
                10 + (i as usize * 7) % 70,
                outcomes[i as usize % 3],
            )
        })
        .collect();
    for game in &games {
        import(&srv, &emergo_core::record::write_game(game, &[])).await;
    }
    srv.server
        .services()
        .explorer
        .catch_up(1000)
        .await
        .expect("indexed");
    // The start, and every position at plies 1, 2 and 7 of the games.
    let mut positions = vec![Position::start()];
    for game in &games {
        for ply in [1, 2, 7] {
            positions.push(game.positions()[ply]);
        }
    }
    for position in &positions {
        let answer = explore(&srv, position, "").await;
        let (total, moves) = expected(&games, position);
        assert_eq!(
            [&answer["white"], &answer["draws"], &answer["black"]],
            total.map(|n| json!(n)).each_ref(),
            "{position}: {answer}"
        );
        let got: BTreeMap<String, [i64; 3]> = answer["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| {
                let n = |k: &str| m[k].as_i64().expect("a count");
                (
                    m["move"].as_str().expect("move").to_string(),
                    [n("white"), n("draws"), n("black")],
                )
            })
            .collect();
        assert_eq!(got, moves, "{position}");
    }
    // Every game passes the start: the totals there are all of them.
    assert_eq!(games_of(&explore(&srv, &Position::start(), "").await), 24);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_two_move_orders_to_one_position_share_its_statistics() {
    let srv = TestServer::start().await;
    import(&srv, "1. a5 i5 2. e1 e9 3. b6 1-0\n").await;
    import(&srv, "1. e1 e9 2. a5 i5 3. h4 0-1\n").await;
    srv.server
        .services()
        .explorer
        .catch_up(100)
        .await
        .expect("indexed");
    let mut game = Game::default();
    for mv in ["a5", "i5", "e1", "e9"] {
        game.play_text(mv).expect("legal");
    }
    let answer = explore(&srv, game.position(), "").await;
    assert_eq!(
        (&answer["white"], &answer["black"]),
        (&json!(1), &json!(1)),
        "{answer}"
    );
    let b6 = move_of(&answer, "b6").expect("b6 is listed");
    let h4 = move_of(&answer, "h4").expect("h4 is listed");
    assert_eq!((&b6["white"], &b6["black"]), (&json!(1), &json!(0)));
    assert_eq!((&h4["white"], &h4["black"]), (&json!(0), &json!(1)));
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_shows_the_books_moves_in_a_list_of_their_own_best_first() {
    let srv = TestServer::start().await;
    let book = emergo_engine::book::Book::<emergo_core::Emergo>::shipped();
    let start = Position::start();
    let want: Vec<Value> = book
        .probe(&start)
        .iter()
        .map(|m| json!({"move": m.mv.to_string(), "score": m.score}))
        .collect();
    assert!(want.len() >= 2, "the shipped book knows the start");
    // No game yet: the book's moves are there all the same, with the book's scores.
    let answer = explore(&srv, &start, "").await;
    assert_eq!(answer["book"], json!(want), "{answer}");
    assert_eq!(games_of(&answer), 0);
    // A position the book does not hold has an empty list.
    let mut game = Game::default();
    for mv in ["a5", "i5", "e1", "e9", "b6", "h4"] {
        game.play_text(mv).expect("legal");
    }
    assert!(
        book.probe(game.position()).is_empty(),
        "edge entries: not a book line"
    );
    let answer = explore(&srv, game.position(), "").await;
    assert_eq!(answer["book"], json!([]), "{answer}");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_a_game_passing_a_position_twice_counts_once_for_it() {
    let srv = TestServer::start().await;
    // A game that comes back to a position four plies later (each side steps and back).
    let mut game = Game::default();
    let mut i = 0;
    let (twice, cycle) = loop {
        let here = *game.position();
        if let Some(cycle) = four_ply_cycle(&here) {
            break (here, cycle);
        }
        assert!(game.ply() < 40, "a cycle is found in the opening");
        let moves = here.legal_moves();
        game.play(moves[i % moves.len()]).expect("a legal move");
        i += 7;
    };
    for mv in cycle {
        game.play(mv).expect("a legal move");
    }
    assert_eq!(*game.position(), twice);
    game.declare(Outcome::Draw, EndReason::Agreement)
        .expect("declared");
    import(&srv, &emergo_core::record::write_game(&game, &[])).await;
    srv.server
        .services()
        .explorer
        .catch_up(100)
        .await
        .expect("indexed");
    let answer = explore(&srv, &twice, "").await;
    assert_eq!(games_of(&answer), 1, "{answer}");
    // The one move played from it (the second time, the game ended there).
    assert_eq!(
        answer["moves"].as_array().expect("moves").len(),
        1,
        "{answer}"
    );
    assert_eq!(answer["moves"][0]["draws"], 1, "{answer}");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_a_finished_game_appears_without_a_rebuild_and_filters_split_it() {
    let srv = TestServer::start().await;
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let tokens = [white["token"].clone(), black["token"].clone()];
    for (ply, mv) in ["a5", "i5", "e1"].iter().enumerate() {
        let (status, answer) = srv.play(&id, &tokens[ply % 2], ply as i64, mv).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let start = Position::start();
    // Ongoing: not counted.
    assert_eq!(games_of(&explore(&srv, &start, "").await), 0);
    let (status, answer) = srv
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"token": tokens[1]}),
        )
        .await;
    assert!(status.is_success(), "{answer}");
    let mut answer = Value::Null;
    for _ in 0..100 {
        answer = explore(&srv, &start, "").await;
        if games_of(&answer) == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(answer["white"], 1, "the resigned game is counted: {answer}");
    assert_eq!(move_of(&answer, "a5").expect("a5")["white"], 1);
    assert_eq!(answer["games"][0]["id"], json!(id), "{answer}");
    assert_eq!(answer["games"][0]["result"], "1-0");
    // A casual untimed game between guests: no average rating.
    for rest in [
        "&source=casual",
        "&speed=untimed",
        "&ratings=none",
        "&source=casual,rated",
    ] {
        assert_eq!(games_of(&explore(&srv, &start, rest).await), 1, "{rest}");
    }
    for rest in [
        "&source=rated",
        "&speed=blitz",
        "&ratings=1600,1800",
        "&source=engine,imported",
    ] {
        let other = explore(&srv, &start, rest).await;
        assert_eq!(games_of(&other), 0, "{rest}: {other}");
        assert_eq!(other["moves"], json!([]), "{rest}");
        assert_eq!(other["games"], json!([]), "{rest}");
    }
    // The catch-up finds it indexed: counted once.
    srv.server
        .services()
        .explorer
        .catch_up(100)
        .await
        .expect("caught up");
    assert_eq!(games_of(&explore(&srv, &start, "").await), 1);
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_one_game_indexed_by_two_at_once_counts_once() {
    let a = TestServer::start().await;
    // PostgreSQL: a second instance over the same database; SQLite: the same one twice.
    let b = if backend() == Backend::Postgres {
        Some(TestServer::builder().db(&a.db).start().await)
    } else {
        None
    };
    let second = b.as_ref().unwrap_or(&a);
    for round in 0..5 {
        let id = import(&a, &format!("1. a5 i5 2. e{} 1-0\n", 1 + round % 2 * 8)).await;
        let (x, y) = tokio::join!(
            a.server.services().explorer.index_stored(&id),
            second.server.services().explorer.index_stored(&id)
        );
        let counted = [x.expect("indexed"), y.expect("indexed")];
        assert!(!(counted[0] && counted[1]), "both counted game {id}");
        let answer = explore(&a, &Position::start(), "").await;
        assert_eq!(games_of(&answer), round + 1, "{answer}");
    }
    if let Some(b) = b {
        b.stop().await;
    }
    a.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_refuses_bad_input_and_says_when_a_ply_is_past_the_index() {
    let srv = TestServer::start().await;
    for (query, says) in [
        ("", "position"),
        ("?position=W:12", "position"),
        ("?position=W:12:12&source=people", "source"),
        ("?position=W:12:12&speed=fast", "speed"),
        ("?position=W:12:12&ratings=1500", "ratings"),
        ("?position=W:12:12&ply=-1", "ply"),
    ] {
        let (status, answer) = srv.get(&format!("/api/explorer{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {answer}");
        assert!(
            answer["message"].as_str().unwrap_or("").contains(says),
            "{query}: {answer}"
        );
    }
    let answer = explore(&srv, &Position::start(), "&ply=60").await;
    assert_eq!(answer["past_indexed_plies"], true);
    assert_eq!(answer["indexed_plies"], 60);
    let answer = explore(&srv, &Position::start(), "&ply=59").await;
    assert_eq!(answer["past_indexed_plies"], false);
    srv.stop().await;
}

/// The explorer's figures (docs/web.md, "Opening explorer"): indexing time and index size per
/// game, and the query's median and p99 over positions of the opening, on `EMERGO_EXPLORER_GAMES`
/// generated games (default 2,000) of 60 random plies. SQLite only; run it alone:
///
/// ```text
/// EMERGO_EXPLORER_GAMES=20000 nice -n 19 cargo test -p emergo-server-tests --test server --release \
///     -- --ignored --nocapture explorer_figures
/// ```
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check"]
async fn explorer_figures_over_generated_games() {
    let n: usize = std::env::var("EMERGO_EXPLORER_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let srv = TestServer::start().await;
    let explorer = &srv.server.services().explorer;
    // The database's size in bytes, on either backend.
    let pages = || async {
        match &srv.server.state().store {
            emergo_platform::store::Store::Sqlite(sqlite) => {
                let (count,): (i64,) = sqlx::query_as("PRAGMA page_count")
                    .fetch_one(sqlite.pool())
                    .await
                    .expect("page count");
                let (size,): (i64,) = sqlx::query_as("PRAGMA page_size")
                    .fetch_one(sqlite.pool())
                    .await
                    .expect("page size");
                count * size
            }
            emergo_platform::store::Store::Postgres(pg) => {
                let (size,): (i64,) = sqlx::query_as("SELECT pg_database_size(current_database())")
                    .fetch_one(pg.pool())
                    .await
                    .expect("database size");
                size
            }
        }
    };
    let before = pages().await;
    let outcomes = [
        Outcome::Win(Color::White),
        Outcome::Draw,
        Outcome::Win(Color::Black),
    ];
    let mut probes = Vec::new();
    let started = std::time::Instant::now();
    for i in 0..n {
        let game = random_game(0xF16 + i as u64 * 104_729, 60, outcomes[i % 3]);
        if i % 20 == 0 {
            probes.push(game.positions()[(i / 20) % 12]);
        }
        let record = emergo_core::record::write_game(&game, &[]);
        let report = explorer.import_records(&record).await.expect("indexed");
        assert_eq!(report.indexed, 1);
    }
    let indexing = started.elapsed();
    let grown = pages().await - before;
    let mut times = Vec::new();
    for position in probes.iter().cycle().take(1000) {
        let t = std::time::Instant::now();
        explore(&srv, position, "").await;
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "explorer figures over {n} games ({:?}): indexing {:.2} ms a game; index {:.0} bytes a game; \
         query (HTTP, {} positions) median {:.2} ms, p99 {:.2} ms",
        backend(),
        indexing.as_secs_f64() * 1000.0 / n as f64,
        grown as f64 / n as f64,
        probes.len(),
        times[times.len() / 2].as_secs_f64() * 1000.0,
        times[times.len() * 99 / 100].as_secs_f64() * 1000.0,
    );
    srv.stop().await;
}

/// The explorer's answer for `position` on board `variant`.
async fn explore_on(srv: &TestServer, variant: &str, position: &str) -> Value {
    let (status, answer) = srv
        .get(&format!(
            "/api/explorer?variant={variant}&position={}",
            position.replace('=', "%3D")
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["variant"], variant, "{answer}");
    answer
}

/// The answer for `position` on `variant` once it counts `games` games (polled: a finished
/// game is indexed in the background).
async fn explore_until(srv: &TestServer, variant: &str, position: &str, games: i64) -> Value {
    let mut answer = Value::Null;
    for _ in 0..100 {
        answer = explore_on(srv, variant, position).await;
        if games_of(&answer) == games {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    answer
}

fn start_of<V: emergo_core::Variant>() -> String {
    emergo_core::position::Position::<V>::start().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_a_finished_hex_game_and_7x7_game_are_answered_on_their_boards_not_on_the_9x9() {
    use emergo_core::{Emergo7x7, HexEmergo};
    let srv = TestServer::start().await;
    let (hex_id, hex_moves) = finished_game_on(&srv, "hex", 4).await;
    let (small_id, small_moves) = finished_game_on(&srv, "7x7", 3).await;
    let hex_start = start_of::<HexEmergo>();
    let small_start = start_of::<Emergo7x7>();

    // Each game, indexed as it finished, is counted on its board from its start: White won.
    for (variant, start, id, moves) in [
        ("hex", &hex_start, &hex_id, &hex_moves),
        ("7x7", &small_start, &small_id, &small_moves),
    ] {
        let answer = explore_until(&srv, variant, start, 1).await;
        assert_eq!(
            (&answer["white"], &answer["draws"], &answer["black"]),
            (&json!(1), &json!(0), &json!(0)),
            "{variant}: {answer}"
        );
        let first = move_of(&answer, &moves[0]).expect("the first move is listed");
        assert_eq!(first["white"], 1, "{variant}: {answer}");
        assert_eq!(answer["moves"].as_array().map(Vec::len), Some(1));
        assert_eq!(answer["games"][0]["id"], json!(id), "{variant}: {answer}");
        assert_eq!(answer["games"][0]["result"], "1-0");
        assert_eq!(answer["position"], json!(start));
        // The position after the first move: the second move, on the board's notation.
        let mut line = emergo_core::AnyGame::start(variant.parse().expect("a board"));
        line.play_text(&moves[0]).expect("legal");
        let after = line.position_text();
        let answer = explore_on(&srv, variant, &after).await;
        assert_eq!(games_of(&answer), 1, "{variant} {after}: {answer}");
        assert!(move_of(&answer, &moves[1]).is_some(), "{answer}");
    }
    // The hexagon's book is the one of the hexagon.
    let book = emergo_engine::book::Book::<HexEmergo>::shipped();
    let start: emergo_core::position::Position<HexEmergo> = hex_start.parse().expect("the start");
    let want: Vec<Value> = book
        .probe(&start)
        .iter()
        .map(|m| json!({"move": m.mv.to_string(), "score": m.score}))
        .collect();
    assert_eq!(
        explore_on(&srv, "hex", &hex_start).await["book"],
        json!(want)
    );

    // Neither game is in the 9×9 answer, though the hexagon's start is written as the 9×9
    // board's (both have 12 men in hand): no variant is the 9×9 board, and it has no game.
    let square_start = Position::start().to_string();
    assert_eq!(hex_start, square_start, "the two starts are one text");
    for answer in [
        explore(&srv, &Position::start(), "").await,
        explore_on(&srv, "emergo", &square_start).await,
    ] {
        assert_eq!(games_of(&answer), 0, "{answer}");
        assert_eq!(answer["moves"], json!([]), "{answer}");
        assert_eq!(answer["games"], json!([]), "{answer}");
    }
    // Nor is one board's game in the other's answer.
    assert_eq!(games_of(&explore_on(&srv, "hex", &hex_start).await), 1);
    let answer = explore_on(&srv, "7x7", &small_start).await;
    assert_eq!(
        answer["games"].as_array().map(Vec::len),
        Some(1),
        "{answer}"
    );
    assert_eq!(answer["games"][0]["id"], json!(small_id), "{answer}");

    // A 9×9 game is counted on the 9×9 board alone.
    finished_game_on(&srv, "emergo", 2).await;
    assert_eq!(
        games_of(&explore_until(&srv, "emergo", &square_start, 1).await),
        1
    );
    assert_eq!(games_of(&explore_on(&srv, "hex", &hex_start).await), 1);
    assert_eq!(games_of(&explore_on(&srv, "7x7", &small_start).await), 1);
    // The catch-up finds all three indexed: each counted once.
    srv.server
        .services()
        .explorer
        .catch_up(100)
        .await
        .expect("caught up");
    for (variant, start) in [
        ("emergo", &square_start),
        ("hex", &hex_start),
        ("7x7", &small_start),
    ] {
        assert_eq!(
            games_of(&explore_on(&srv, variant, start).await),
            1,
            "{variant}"
        );
    }
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_refuses_an_unknown_board_naming_the_three_and_a_position_of_another_board() {
    let srv = TestServer::start().await;
    for query in [
        "?variant=chess&position=W:12:12",
        "?variant=&position=W:12:12",
        "?variant=Hex&position=W:12:12",
    ] {
        let (status, answer) = srv.get(&format!("/api/explorer{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {answer}");
        let message = answer["message"].as_str().unwrap_or("");
        for name in ["emergo", "7x7", "hex"] {
            assert!(message.contains(name), "{query}: {answer}");
        }
    }
    // 12 men a side is no position of the 7×7 board (8 a side); a square of the 9×9 board is
    // no cell of the hexagon.
    for query in [
        "?variant=7x7&position=W:12:12",
        "?variant=hex&position=B:11:12:i5%3DW",
    ] {
        let (status, answer) = srv.get(&format!("/api/explorer{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {answer}");
        assert!(
            answer["message"]
                .as_str()
                .unwrap_or("")
                .contains("position"),
            "{query}: {answer}"
        );
    }
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_imports_records_of_every_board_each_on_its_board_and_once() {
    use emergo_core::{Emergo7x7, HexEmergo};
    let srv = TestServer::start().await;
    let explorer = &srv.server.services().explorer;
    fn game_of<V: emergo_core::Variant>(
        plies: usize,
        outcome: Outcome,
    ) -> emergo_core::game::Game<V> {
        let mut game = emergo_core::game::Game::<V>::default();
        for k in 0..plies {
            let moves = game.position().legal_moves();
            game.play(moves[k * 5 % moves.len()]).expect("legal");
        }
        game.declare(outcome, EndReason::Resignation)
            .expect("declared");
        game
    }
    let hex = game_of::<HexEmergo>(6, Outcome::Win(Color::Black));
    let small = game_of::<Emergo7x7>(5, Outcome::Win(Color::White));
    let square = game_of::<emergo_core::Emergo>(4, Outcome::Win(Color::White));
    let hex_record = emergo_core::record::write_game(&hex, &[]);
    let small_record = emergo_core::record::write_game(&small, &[]);
    assert!(
        hex_record.contains("[Variant \"HexEmergo\"]"),
        "{hex_record}"
    );
    assert!(
        small_record.contains("[Variant \"Emergo 7x7\"]"),
        "{small_record}"
    );
    let file = format!(
        "{hex_record}\n{small_record}\n{}",
        emergo_core::record::write_game(&square, &[])
    );
    let report = explorer.import_records(&file).await.expect("imported");
    assert_eq!(
        (report.indexed, report.known, report.unfinished),
        (3, 0, 0),
        "{report:?}"
    );
    assert!(report.unreadable.is_empty(), "{report:?}");
    let hex_start = start_of::<HexEmergo>();
    let answer = explore_on(&srv, "hex", &hex_start).await;
    assert_eq!(answer["black"], 1, "{answer}");
    assert_eq!(games_of(&answer), 1, "{answer}");
    assert!(move_of(&answer, &hex.moves()[0].to_string()).is_some());
    let answer = explore_on(&srv, "hex", &hex.positions()[5].to_string()).await;
    assert_eq!(answer["black"], 1, "{answer}");
    assert!(move_of(&answer, &hex.moves()[5].to_string()).is_some());
    let answer = explore_on(&srv, "7x7", &start_of::<Emergo7x7>()).await;
    assert_eq!((games_of(&answer), &answer["white"]), (1, &json!(1)));
    assert!(move_of(&answer, &small.moves()[0].to_string()).is_some());
    // The 9×9 board has its record only (the hexagon's start is written as its own).
    let answer = explore(&srv, &Position::start(), "&source=imported").await;
    assert_eq!(
        (games_of(&answer), &answer["white"]),
        (1, &json!(1)),
        "{answer}"
    );
    assert_eq!(
        answer["moves"].as_array().map(Vec::len),
        Some(1),
        "{answer}"
    );
    assert!(move_of(&answer, &square.moves()[0].to_string()).is_some());

    // Imported again, each record is known, on whichever board.
    let again = explorer.import_records(&file).await.expect("imported");
    assert_eq!((again.indexed, again.known), (0, 3), "{again:?}");
    // The same moves and result on the hexagon and the 9×9 board are two records: the 9×9
    // record is keyed as it was before the other boards were indexed (a file imported then is
    // known now), the hexagon's apart from it.
    let moves: Vec<String> = square.moves().iter().map(|m| m.to_string()).collect();
    let mut twin = emergo_core::game::Game::<HexEmergo>::default();
    for mv in &moves {
        if twin.play_text(mv).is_err() {
            break;
        }
    }
    if twin.ply() == moves.len() {
        twin.declare(Outcome::Win(Color::White), EndReason::Resignation)
            .expect("declared");
        let report = explorer
            .import_records(&emergo_core::record::write_game(&twin, &[]))
            .await
            .expect("imported");
        assert_eq!(report.indexed, 1, "{report:?}");
    }
    let key = format!(
        "record:{}",
        emergo_platform::domain::model::hash_secret(&format!(
            "{} {} {}",
            square.start(),
            moves.join(" "),
            Outcome::Win(Color::White)
        ))
    );
    let known: i64 = match &srv.server.state().store {
        emergo_platform::store::Store::Sqlite(db) => {
            sqlx::query_scalar("SELECT COUNT(*) FROM explorer_records WHERE key = $1")
                .bind(&key)
                .fetch_one(db.pool())
                .await
        }
        emergo_platform::store::Store::Postgres(db) => {
            sqlx::query_scalar("SELECT COUNT(*) FROM explorer_records WHERE key = $1")
                .bind(&key)
                .fetch_one(db.pool())
                .await
        }
    }
    .expect("the record's mark");
    assert_eq!(known, 1, "the 9×9 record's key is the one it had");
    srv.stop().await;
}

/// Runs `statements` on the store of `srv`, in order.
async fn run_sql(srv: &TestServer, statements: &[&str]) {
    for sql in statements {
        match &srv.server.state().store {
            emergo_platform::store::Store::Sqlite(db) => {
                sqlx::query(sql).execute(db.pool()).await.map(|_| ())
            }
            emergo_platform::store::Store::Postgres(db) => {
                sqlx::query(sql).execute(db.pool()).await.map(|_| ())
            }
        }
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

/// Migration 0150 on a database of the 9×9 explorer: its rows are kept as the 9×9 board's, and
/// the finished games of the other boards, which the 9×9 explorer marked indexed with no rows,
/// are indexed by the catch-up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explorer_migration_keeps_the_9x9_rows_and_the_catch_up_indexes_the_other_boards_games() {
    use emergo_core::HexEmergo;
    let db = TestDb::new();
    let srv = TestServer::builder().db(&db).start().await;
    let square_id = import(&srv, "1. a5 i5 2. e1 e9 3. b6 1-0\n").await;
    srv.server
        .services()
        .explorer
        .catch_up(100)
        .await
        .expect("indexed");
    let (hex_id, hex_moves) = finished_game_on(&srv, "hex", 2).await;
    let hex_start = start_of::<HexEmergo>();
    explore_until(&srv, "hex", &hex_start, 1).await;
    let before = explore(&srv, &Position::start(), "").await;
    assert_eq!(games_of(&before), 1, "{before}");
    // The database as the 9×9 explorer left it: the tables of migration 0080, the 9×9 rows, the
    // hex game marked indexed with none, and migration 0150 not applied.
    run_sql(
        &srv,
        &[
            "CREATE TABLE kept_stats AS SELECT hash, source, speed, band, move, white, draws,
                 black, rating_sum, rated FROM explorer_stats WHERE variant = 'emergo'",
            "CREATE TABLE kept_recent AS SELECT hash, source, speed, band, game_id, at, rating
                 FROM explorer_recent WHERE variant = 'emergo'",
            "DROP TABLE explorer_stats",
            "DROP TABLE explorer_recent",
            "CREATE TABLE explorer_stats (
                hash BIGINT NOT NULL, source TEXT NOT NULL, speed TEXT NOT NULL,
                band TEXT NOT NULL, move TEXT NOT NULL, white BIGINT NOT NULL,
                draws BIGINT NOT NULL, black BIGINT NOT NULL, rating_sum BIGINT NOT NULL,
                rated BIGINT NOT NULL, PRIMARY KEY (hash, source, speed, band, move))",
            "CREATE TABLE explorer_recent (
                hash BIGINT NOT NULL, source TEXT NOT NULL, speed TEXT NOT NULL,
                band TEXT NOT NULL, game_id TEXT NOT NULL, at TEXT NOT NULL, rating BIGINT,
                PRIMARY KEY (hash, source, speed, band, game_id))",
            "INSERT INTO explorer_stats SELECT * FROM kept_stats",
            "INSERT INTO explorer_recent SELECT * FROM kept_recent",
            "DROP TABLE kept_stats",
            "DROP TABLE kept_recent",
            "DELETE FROM _sqlx_migrations WHERE version = 150",
        ],
    )
    .await;
    run_sql(
        &srv,
        &[&format!(
            "UPDATE games SET explorer_at = '2026-01-01T00:00:00Z' WHERE id = '{hex_id}'"
        )],
    )
    .await;
    srv.stop().await;

    // Opened again: the migration runs; the 9×9 answer is as it was, the hex game is indexed.
    let srv = TestServer::builder().db(&db).start().await;
    srv.server
        .services()
        .explorer
        .catch_up(100)
        .await
        .expect("caught up");
    let after = explore(&srv, &Position::start(), "").await;
    assert_eq!(after, before);
    assert_eq!(after["games"][0]["id"], json!(square_id));
    let answer = explore_until(&srv, "hex", &hex_start, 1).await;
    assert_eq!(games_of(&answer), 1, "{answer}");
    assert!(move_of(&answer, &hex_moves[0]).is_some(), "{answer}");
    assert_eq!(answer["games"][0]["id"], json!(hex_id), "{answer}");
    assert_eq!(
        srv.server
            .services()
            .explorer
            .pending()
            .await
            .expect("pending"),
        0
    );
    srv.stop().await;
}
