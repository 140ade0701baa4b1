//! Puzzles through the API (issue 21): the shipped set loaded into the empty database at first
//! start, `next` (never the puzzle just given, never one an account tried; a theme filter), one
//! puzzle, and attempts rated by Glicko-2 for the account and the puzzle (a replay counts for
//! nothing, an anonymous attempt answers `player: null` and changes nothing).

use crate::common::*;
use emergo_platform::domain::rating::{Rating, Score};
use reqwest::StatusCode;
use serde_json::json;

/// The first start loads the shipped set; a puzzle reads back with the documented fields, and
/// its first move is legal (the position API lists it).
#[tokio::test]
async fn the_shipped_puzzles_are_loaded_at_first_start_and_read_back() {
    let s = TestServer::start().await;
    let set = emergo_platform::domain::puzzle::shipped().expect("the shipped set");
    let first = &set[0];
    let (status, p) = s.get(&format!("/api/puzzles/{}", first.id)).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["position"], first.position.as_str());
    assert_eq!(p["line"], json!(first.line));
    assert_eq!(p["rating"], first.rating);
    assert_eq!(p["variant"], "emergo");
    let (status, board) = s
        .post("/api/position/moves", json!({"position": p["position"]}))
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let legal = board["legal_moves"].as_array().expect("moves");
    assert!(
        legal.iter().any(|m| m["move"] == p["line"][0]),
        "the solver's first move is legal: {board}"
    );
    let (status, e) = s.get("/api/puzzles/nosuchpuzzle").await;
    assert_eq!(
        (status, &e["error"]),
        (StatusCode::NOT_FOUND, &json!("not_found")),
        "{e}"
    );
    s.stop().await;
}

/// A worked Glicko-2 case: a new account (1500, RD 350) solves a puzzle at its starting rating
/// and RD 350; both ratings move as one rated game between them says, and a replay moves
/// nothing.
#[tokio::test]
async fn an_attempt_is_one_glicko_2_game_between_the_account_and_the_puzzle() {
    let s = TestServer::start().await;
    let user = sign_up(&s, "solver").await;
    let (status, p) = user.get(&s, "/api/puzzles/next").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let id = p["id"].as_str().expect("an id").to_string();
    let start = p["rating"].as_f64().expect("a rating");
    let puzzle = Rating {
        rating: start,
        rd: 350.0,
        volatility: 0.06,
    };
    let player = Rating::new().after_game(&puzzle, Score::Win);
    let puzzle_after = puzzle.after_game(&Rating::new(), Score::Loss);
    let path = format!("/api/puzzles/{id}/attempt");
    let (status, a) = user.post(&s, &path, json!({"win": true})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["player"]["rating"], player.rating.round() as i64, "{a}");
    assert_eq!(a["player"]["rd"], player.rd.round() as i64, "{a}");
    assert_eq!(
        a["puzzle"]["rating"],
        puzzle_after.rating.round() as i64,
        "{a}"
    );
    assert!(player.rating > 1500.0 && puzzle_after.rating < start);
    // A replay (even a failed one) changes nothing.
    let (_, again) = user.post(&s, &path, json!({"win": false})).await;
    assert_eq!(again, a, "a replay does not count");
    let (_, shown) = s.get(&format!("/api/puzzles/{id}")).await;
    assert_eq!(shown["rating"], a["puzzle"]["rating"]);
    s.stop().await;
}

/// The worked numbers themselves (Glickman's formulas): 1500/350 beating 1500/350 gives
/// 1662/290, and the loser 1338/290.
#[test]
fn glicko_2_worked_case_of_two_new_ratings() {
    let after = Rating::new().after_game(&Rating::new(), Score::Win);
    assert_eq!((after.rating.round(), after.rd.round()), (1662.0, 290.0));
    let loser = Rating::new().after_game(&Rating::new(), Score::Loss);
    assert_eq!((loser.rating.round(), loser.rd.round()), (1338.0, 290.0));
}

/// Anonymous: the attempt answers the puzzle's rating and `player: null`, and rates nothing.
#[tokio::test]
async fn an_anonymous_attempt_answers_a_null_player_and_rates_nothing() {
    let s = TestServer::start().await;
    let (status, p) = s.get("/api/puzzles/next").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let path = format!("/api/puzzles/{}/attempt", p["id"].as_str().expect("id"));
    let (status, a) = s.post(&path, json!({"win": false})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(
        a,
        json!({"puzzle": {"rating": p["rating"]}, "player": null})
    );
    let (status, e) = s.post(&path, json!({"win": "yes"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    let (status, e) = s.post(&path, json!({"win": true, "extra": 1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    s.stop().await;
}

/// `next` never hands an account a puzzle it tried, nor anyone the puzzle just given; a theme
/// narrows the choice; a word that is no theme is refused.
#[tokio::test]
async fn next_never_hands_a_signed_in_caller_a_puzzle_it_tried() {
    let s = TestServer::start().await;
    let user = sign_up(&s, "trier").await;
    let mut tried = std::collections::HashSet::new();
    let mut last = String::new();
    for _ in 0..8 {
        let (status, p) = user.get(&s, "/api/puzzles/next").await;
        assert_eq!(status, StatusCode::OK, "{p}");
        let id = p["id"].as_str().expect("id").to_string();
        assert!(!tried.contains(&id), "{id} was tried already");
        assert_ne!(id, last, "the same puzzle twice in a row");
        let (status, _) = user
            .post(
                &s,
                &format!("/api/puzzles/{id}/attempt"),
                json!({"win": true}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        tried.insert(id.clone());
        last = id;
    }
    // Anonymous (another caller): never the puzzle this address was just given.
    let mut last = String::new();
    for _ in 0..6 {
        let (_, p) = s.get("/api/puzzles/next").await;
        let id = p["id"].as_str().expect("id").to_string();
        assert_ne!(id, last, "anonymous: not the puzzle just given");
        last = id;
    }
    let (status, p) = s.get("/api/puzzles/next?theme=one_move").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert!(
        p["themes"]
            .as_array()
            .expect("themes")
            .contains(&json!("one_move")),
        "{p}"
    );
    let (status, e) = s.get("/api/puzzles/next?theme=no%20such").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    let (status, e) = s.get("/api/puzzles/next?theme=nosuchtheme").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
    s.stop().await;
}

/// Puzzle requests are bounded per client like every other kind: over the burst, 429
/// `rate_limited` with the cap's name.
#[tokio::test]
async fn puzzle_requests_from_one_client_are_rate_limited() {
    let s = TestServer::builder()
        .config(|c| {
            c.limits.puzzles_burst = 3;
            c.limits.puzzles_every = std::time::Duration::from_secs(60);
        })
        .start()
        .await;
    for _ in 0..3 {
        let (status, p) = s.get("/api/puzzles/next").await;
        assert_eq!(status, StatusCode::OK, "{p}");
    }
    let (status, e) = s.get("/api/puzzles/next").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert_eq!(e["cap"], "puzzles_rate", "{e}");
    s.stop().await;
}

/// Eight new accounts solve one puzzle at the same moment: each attempt is applied to the
/// puzzle's rating in turn (none computed from a rating another attempt already moved), so the
/// puzzle ends where eight losses to a 1500/350 player in a row put it.
#[tokio::test]
async fn attempts_at_one_moment_on_one_puzzle_lose_no_rating_update() {
    let s = TestServer::start().await;
    let set = emergo_platform::domain::puzzle::shipped().expect("the shipped set");
    let id = set[0].id.clone();
    let mut users = Vec::new();
    for i in 0..8 {
        users.push(sign_up(&s, &format!("racer{i}")).await);
    }
    let path = format!("/api/puzzles/{id}/attempt");
    let answers = futures_util::future::join_all(
        users
            .iter()
            .map(|u| u.post(&s, &path, json!({"win": true}))),
    )
    .await;
    for (status, a) in &answers {
        assert_eq!(*status, StatusCode::OK, "{a}");
    }
    let mut puzzle = Rating {
        rating: f64::from(set[0].rating),
        rd: 350.0,
        volatility: 0.06,
    };
    for _ in 0..8 {
        puzzle = puzzle.after_game(&Rating::new(), Score::Loss);
    }
    let (_, shown) = s.get(&format!("/api/puzzles/{id}")).await;
    assert_eq!(shown["rating"], puzzle.rating.round() as i64, "{shown}");
    s.stop().await;
}

/// Votes: only from an account that tried the puzzle, one an account (a second vote replaces
/// the first), and a puzzle whose down votes lead by five is retired: `next` no longer hands it
/// out. The shipped set's one `shadowpiece` puzzle is found by that theme until then.
#[tokio::test]
async fn votes_count_once_an_account_and_five_more_downs_retire_a_puzzle() {
    let s = TestServer::start().await;
    let (status, p) = s.get("/api/puzzles/next?theme=shadowpiece").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let id = p["id"].as_str().expect("id").to_string();
    let vote = format!("/api/puzzles/{id}/vote");
    let (status, e) = s.post(&vote, json!({"up": false})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "anonymous: {e}");
    let first = sign_up(&s, "voter0").await;
    let (status, e) = first.post(&s, &vote, json!({"up": false})).await;
    assert_eq!(
        (status, &e["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed")),
        "not tried yet: {e}"
    );
    let mut voters = vec![first];
    for i in 1..5 {
        voters.push(sign_up(&s, &format!("voter{i}")).await);
    }
    for v in &voters {
        let (status, _) = v
            .post(
                &s,
                &format!("/api/puzzles/{id}/attempt"),
                json!({"win": false}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    // One up, changed to down, and down again: one down vote.
    voters[0].post(&s, &vote, json!({"up": true})).await;
    voters[0].post(&s, &vote, json!({"up": false})).await;
    let (status, v) = voters[0].post(&s, &vote, json!({"up": false})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v, json!({"up": 0, "down": 1, "retired": false}));
    for voter in &voters[1..4] {
        voter.post(&s, &vote, json!({"up": false})).await;
    }
    // Asked by accounts that were never given it (the anonymous caller just was): every
    // puzzle of the theme handed out once to an account that tries each (the shipped set may
    // hold several), until none is left.
    let handed_out = |name: &'static str| {
        let s = &s;
        async move {
            let account = sign_up(s, name).await;
            let mut ids = Vec::new();
            for _ in 0..200 {
                let (status, p) = account.get(s, "/api/puzzles/next?theme=shadowpiece").await;
                if status == StatusCode::NOT_FOUND {
                    return ids;
                }
                assert_eq!(status, StatusCode::OK, "{p}");
                let next = p["id"].as_str().expect("id").to_string();
                let (status, _) = account
                    .post(
                        s,
                        &format!("/api/puzzles/{next}/attempt"),
                        json!({"win": true}),
                    )
                    .await;
                assert_eq!(status, StatusCode::OK);
                ids.push(next);
            }
            panic!("more than 200 puzzles of one theme, or one handed out twice: {ids:?}");
        }
    };
    let before = handed_out("watcher1").await;
    assert!(
        before.contains(&id),
        "four down votes: still handed out {before:?}"
    );
    let (_, v) = voters[4].post(&s, &vote, json!({"up": false})).await;
    assert_eq!(v, json!({"up": 0, "down": 5, "retired": true}));
    let after = handed_out("watcher2").await;
    assert!(!after.contains(&id), "retired: {after:?}");
    assert_eq!(after.len(), before.len() - 1, "{before:?} {after:?}");
    // It can still be opened by its id (a link to it keeps working).
    let (status, _) = s.get(&format!("/api/puzzles/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    s.stop().await;
}

/// The daily puzzle: the same for every caller all day (UTC), rated within 1200–2000.
#[tokio::test]
async fn the_daily_puzzle_is_the_same_for_everyone_all_day() {
    let s = TestServer::start().await;
    let (status, d) = s.get("/api/puzzles/daily").await;
    assert_eq!(status, StatusCode::OK, "{d}");
    let today = time::OffsetDateTime::now_utc().date().to_string();
    assert_eq!(d["day"], today.as_str(), "{d}");
    let rating = d["puzzle"]["rating"].as_i64().expect("a rating");
    assert!((1200..=2000).contains(&rating), "{d}");
    let user = sign_up(&s, "daily").await;
    let (_, again) = user.get(&s, "/api/puzzles/daily").await;
    assert_eq!(again["puzzle"]["id"], d["puzzle"]["id"]);
    s.stop().await;
}

/// A run (streak, storm): the puzzles asked for, each once, of rising rating, from easy to hard.
#[tokio::test]
async fn a_run_climbs_in_rating_and_its_length_is_bounded() {
    let s = TestServer::start().await;
    let (status, r) = s.get("/api/puzzles/run?count=12").await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let puzzles = r["puzzles"].as_array().expect("puzzles");
    assert_eq!(puzzles.len(), 12);
    let ratings: Vec<i64> = puzzles
        .iter()
        .map(|p| p["rating"].as_i64().expect("rating"))
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] <= w[1]), "{ratings:?}");
    assert!(ratings[11] - ratings[0] >= 600, "{ratings:?}");
    let ids: std::collections::HashSet<&str> =
        puzzles.iter().filter_map(|p| p["id"].as_str()).collect();
    assert_eq!(ids.len(), 12);
    for bad in ["count=0", "count=61", "count=lots", "variant=no%20such"] {
        let (status, e) = s.get(&format!("/api/puzzles/run?{bad}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {e}");
    }
    s.stop().await;
}

/// Storm runs are kept for an account (the best one shown), refused when they cannot be, and
/// the dashboard gives the rating, the attempts by theme, the recent ones and the storm record.
#[tokio::test]
async fn storm_runs_and_attempts_make_the_dashboard() {
    let s = TestServer::start().await;
    let run = json!({"score": 7, "moves": 20, "errors": 2, "best_combo": 5, "seconds": 180});
    let (status, e) = s.post("/api/puzzles/storm", run.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{e}");
    let (status, e) = s.get("/api/puzzles/dashboard").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{e}");
    let user = sign_up(&s, "stormer").await;
    let (status, d) = user.get(&s, "/api/puzzles/dashboard").await;
    assert_eq!(status, StatusCode::OK, "{d}");
    assert_eq!(d["rating"], json!(null));
    assert_eq!(d["storm"], json!(null));
    assert_eq!(d["attempts"], 0);
    let (status, st) = user.post(&s, "/api/puzzles/storm", run).await;
    assert_eq!(status, StatusCode::OK, "{st}");
    assert_eq!(
        (st["best"].as_i64(), st["runs"].as_i64()),
        (Some(7), Some(1))
    );
    let worse = json!({"score": 3, "moves": 9, "errors": 3, "best_combo": 2, "seconds": 180});
    let (_, st) = user.post(&s, "/api/puzzles/storm", worse).await;
    assert_eq!(
        (st["best"].as_i64(), st["runs"].as_i64()),
        (Some(7), Some(2))
    );
    for bad in [
        json!({"score": 30, "moves": 20, "errors": 0, "best_combo": 5, "seconds": 180}),
        json!({"score": 1, "moves": 2, "errors": 0, "best_combo": 1, "seconds": 99999}),
        json!({"score": -1, "moves": 2, "errors": 0, "best_combo": 1, "seconds": 9}),
        json!({"score": 1, "moves": 2, "errors": 0, "best_combo": 1}),
    ] {
        let (status, e) = user.post(&s, "/api/puzzles/storm", bad.clone()).await;
        assert!(
            status == StatusCode::BAD_REQUEST || status == StatusCode::UNPROCESSABLE_ENTITY,
            "{bad}: {status} {e}"
        );
    }
    // Two attempts: one solved, one failed.
    let mut themes = Vec::new();
    for win in [true, false] {
        let (_, p) = user.get(&s, "/api/puzzles/next").await;
        themes.push(p["themes"].clone());
        let path = format!("/api/puzzles/{}/attempt", p["id"].as_str().expect("id"));
        user.post(&s, &path, json!({"win": win})).await;
    }
    let (_, d) = user.get(&s, "/api/puzzles/dashboard").await;
    assert_eq!(
        (d["attempts"].as_i64(), d["wins"].as_i64()),
        (Some(2), Some(1)),
        "{d}"
    );
    assert!(d["rating"]["rating"].is_i64(), "{d}");
    assert_eq!(d["recent"].as_array().map(Vec::len), Some(2), "{d}");
    assert_eq!(d["storm"]["best"], 7, "{d}");
    // Each theme of the two puzzles is counted, with its wins.
    let counted: i64 = d["themes"]
        .as_array()
        .expect("themes")
        .iter()
        .map(|t| t["attempts"].as_i64().unwrap_or(0))
        .sum();
    let expected: usize = themes
        .iter()
        .map(|t| t.as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(counted as usize, expected, "{d}");
    s.stop().await;
}

/// Issue 20: puzzles of each board — `next` and a run give the board asked for, and a puzzle
/// of another board reads on its own (its first move legal there).
#[tokio::test]
async fn puzzles_of_the_7x7_board_and_the_hexagon_are_handed_out_on_their_board() {
    let s = TestServer::start().await;
    for variant in ["7x7", "hex"] {
        let (status, p) = s.get(&format!("/api/puzzles/next?variant={variant}")).await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert_eq!(p["variant"], variant, "{p}");
        let (status, board) = s
            .post(
                "/api/position/moves",
                json!({"position": p["position"], "variant": variant}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{board}");
        assert!(
            board["legal_moves"]
                .as_array()
                .expect("moves")
                .iter()
                .any(|m| m["move"] == p["line"][0]),
            "{p} {board}"
        );
        let (status, r) = s
            .get(&format!("/api/puzzles/run?count=5&variant={variant}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{r}");
        let run = r["puzzles"].as_array().expect("puzzles");
        assert!(!run.is_empty());
        assert!(run.iter().all(|p| p["variant"] == variant), "{r}");
    }
    s.stop().await;
}

/// A restart on the same database keeps each puzzle's rating: the shipped set is loaded at
/// every start, only where the database lacks a puzzle.
#[tokio::test]
async fn a_restart_keeps_the_puzzles_ratings() {
    let db = TestDb::new();
    let s = TestServer::builder().db(&db).start().await;
    let set = emergo_platform::domain::puzzle::shipped().expect("the shipped set");
    let user = sign_up(&s, "restarter").await;
    let path = format!("/api/puzzles/{}/attempt", set[0].id);
    let (_, a) = user.post(&s, &path, json!({"win": true})).await;
    let moved = a["puzzle"]["rating"].clone();
    assert_ne!(moved, json!(set[0].rating), "{a}");
    s.stop().await;
    let s = TestServer::builder().db(&db).start().await;
    let (_, p) = s.get(&format!("/api/puzzles/{}", set[0].id)).await;
    assert_eq!(p["rating"], moved, "kept across the restart");
    s.stop().await;
}
