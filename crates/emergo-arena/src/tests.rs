//! Matches end to end with fast players and fake external engines.

use crate::runner::Termination;
use crate::stats::Verdict;
use crate::*;
use emergo_core::{GameRecord, Status};
use std::path::PathBuf;

fn spec(text: &str) -> EngineSpec {
    text.parse().unwrap()
}

fn config(a: &str, b: &str, games: usize) -> MatchConfig {
    let mut c = MatchConfig::new([spec(a), spec(b)], games);
    c.opening_plies = 4;
    c.seed = 5;
    c
}

fn collect(config: &MatchConfig) -> (MatchReport, Vec<GameResult>) {
    let mut games = Vec::new();
    let report = run_match(config, |g, _| {
        games.push(g.clone());
        true
    })
    .unwrap();
    games.sort_by_key(|g| g.round);
    (report, games)
}

/// A UGI engine written in sh that answers `go` with `answer` (or exits when it is `EXIT`).
fn fake_engine(name: &str, answer: &str) -> (PathBuf, String) {
    let path = std::env::temp_dir().join(format!("emergo-fake-{}-{name}.sh", std::process::id()));
    let go = if answer == "EXIT" {
        "exit 3".to_string()
    } else {
        format!("echo 'info depth 1'; echo 'bestmove {answer}'")
    };
    let script = format!(
        "while read line; do\n case \"$line\" in\n  ugi) echo 'id name {name}'; echo ugiok;;\n  isready) echo readyok;;\n  go*) {go};;\n  quit) exit 0;;\n esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    let spec = format!("ugi:/bin/sh {}", path.display());
    (path, spec)
}

#[test]
fn a_short_match_of_greedy_against_random_gives_a_sane_report() {
    let (report, games) = collect(&config("greedy", "random", 20));
    let t = &report.tally;
    assert_eq!(t.wdl.games(), 20);
    assert_eq!(games.len(), 20);
    assert_eq!(t.as_white.games() + t.as_black.games(), 20);
    assert_eq!(t.terminations.values().sum::<u32>(), 20);
    assert_eq!(t.forfeits, [0, 0]);
    let points = f64::from(t.wdl.wins) + f64::from(t.wdl.draws) / 2.0;
    assert!((t.wdl.score() - points / 20.0).abs() < 1e-12);
    let score = t.wdl.score();
    if score > 0.0 && score < 1.0 {
        assert!(report.elo.diff.is_finite() && report.elo.margin > 0.0);
        assert_eq!(report.elo.diff > 0.0, score > 0.5);
    }
    let lines = report.lines();
    for key in [
        "engine1: greedy",
        "engine2: random",
        "games: 20 of 20",
        "wdl: ",
        "score: ",
        "elo: ",
    ] {
        assert!(lines.contains(key), "{key} missing from\n{lines}");
    }
    assert!(!lines.contains("sprt:"));
}

#[test]
fn each_opening_is_played_twice_with_colours_swapped_and_records_replay() {
    let (_, games) = collect(&config("greedy", "random", 8));
    for pair in games.chunks(2) {
        let (a, b) = (&pair[0].record, &pair[1].record);
        assert_eq!(a.tag("Opening"), b.tag("Opening"));
        assert_eq!(a.tag("Opening").unwrap().split(' ').count(), 4);
        assert_eq!(
            (a.tag("White"), a.tag("Black")),
            (Some("greedy"), Some("random"))
        );
        assert_eq!(
            (b.tag("White"), b.tag("Black")),
            (Some("random"), Some("greedy"))
        );
    }
    for g in &games {
        let text = g.record.to_string();
        let parsed = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(parsed.tag("Round"), Some(g.round.to_string().as_str()));
        assert_eq!(parsed.tag("Termination"), Some(g.termination.name()));
        assert_eq!(parsed.result, Some(g.outcome));
        // R10: a game ended by the rules replays to that very ending.
        let game = parsed.to_game().unwrap();
        if let Termination::Rules(reason) = g.termination {
            assert_eq!(
                game.status(),
                Status::Finished {
                    outcome: g.outcome,
                    reason
                }
            );
        }
    }
}

#[test]
fn a_match_replays_identically_for_a_seed_whatever_the_threads() {
    let one = config("greedy", "random", 6);
    let mut two = one.clone();
    two.concurrency = 2;
    let texts = |c: &MatchConfig| -> Vec<String> {
        collect(c).1.iter().map(|g| g.record.to_string()).collect()
    };
    assert_eq!(texts(&one), texts(&two));
    let mut other = one.clone();
    other.seed = 6;
    assert_ne!(texts(&one), texts(&other));
}

#[test]
fn the_ply_cap_is_a_recorded_draw() {
    let mut c = config("random", "random", 4);
    c.max_plies = 30;
    let (report, games) = collect(&c);
    assert_eq!(
        report.names,
        ["random #1".to_string(), "random #2".to_string()]
    );
    for g in games {
        // 30 plies are too few for a game between random players to end by the rules here.
        assert_eq!(g.termination, Termination::PlyCap);
        assert_eq!(g.outcome.token(), "1/2-1/2");
        assert_eq!(g.plies, 30);
        assert_eq!(g.record.tag("Termination"), Some("ply cap"));
    }
}

#[test]
fn an_sprt_verdict_stops_the_match() {
    // An engine that forfeits every game: H0 (no better than elo0) is accepted early.
    let (path, ugi) = fake_engine("sprt-liar", "a5xa5");
    let mut c = config(&ugi, "random", 200);
    c.sprt = Some("elo0=0,elo1=10".parse().unwrap());
    let (report, games) = collect(&c);
    let _ = std::fs::remove_file(path);
    let (_, status) = report.sprt.unwrap();
    assert_eq!(status.verdict, Verdict::H0);
    assert!(status.llr <= status.lower);
    assert!(report.tally.wdl.games() < 200);
    assert_eq!(games.len() as u32, report.tally.wdl.games());
    assert!(report.lines().contains("sprt: H0 llr "));
}

#[test]
fn the_callback_can_stop_the_match() {
    let c = config("greedy", "random", 50);
    let mut seen = 0;
    let report = run_match(&c, |_, tally| {
        seen += 1;
        tally.wdl.games() < 3
    })
    .unwrap();
    assert_eq!((seen, report.tally.wdl.games()), (3, 3));
    assert!(report.lines().contains("games: 3 of 50"));
}

#[test]
fn an_external_engine_never_gets_an_illegal_move_accepted() {
    // `a5xa5` reads as a capture but is never legal; `zz` is not even move text; `e5` is
    // illegal as White's first move (R9.3).
    for (name, answer) in [("liar", "a5xa5"), ("garbage", "zz"), ("centre", "e5")] {
        let (path, ugi) = fake_engine(name, answer);
        let mut c = config(&ugi, "random", 2);
        c.opening_plies = 0;
        let (report, games) = collect(&c);
        let _ = std::fs::remove_file(path);
        let white_game = &games[0];
        assert_eq!(
            white_game.termination,
            Termination::IllegalMove {
                side: emergo_core::Color::White,
                text: answer.to_string()
            },
            "{name}"
        );
        assert_eq!(white_game.outcome.token(), "0-1");
        assert_eq!(white_game.plies, 0);
        assert!(white_game
            .record
            .to_string()
            .contains(&format!("White forfeits: illegal move '{answer}'")));
        if name != "centre" {
            assert_eq!(report.tally.forfeits, [2, 0], "{name}");
            assert_eq!(report.tally.wdl, Wdl::new(0, 0, 2));
            assert!(report.lines().contains("forfeits: 2 0"));
        }
    }
}

#[test]
fn an_external_engine_that_dies_forfeits_and_is_restarted() {
    let (path, ugi) = fake_engine("crasher", "EXIT");
    let c = config("random", &ugi, 4);
    let (report, games) = collect(&c);
    let _ = std::fs::remove_file(path);
    assert_eq!(report.tally.wdl, Wdl::new(4, 0, 0));
    assert_eq!(report.tally.forfeits, [0, 4]);
    for g in games {
        assert_eq!(g.termination.name(), "engine failure");
    }
}

#[test]
fn an_engine_that_cannot_start_is_an_error_before_the_match() {
    let c = config("ugi:/nonexistent/engine ugi", "random", 2);
    assert!(matches!(
        run_match(&c, |_, _| true),
        Err(ArenaError::Ugi { .. })
    ));
}

#[test]
fn weights_in_a_spec_reach_the_engine() {
    // An engine that thinks its men are worth nothing (or less) loses to the default one.
    let (report, _) = collect(&config(
        "alphabeta:depth=2",
        "alphabeta:depth=2,w.man=-100,w.prisoner=-60,w.hand=0",
        8,
    ));
    assert!(report.tally.wdl.score() >= 0.75, "{:?}", report.tally);
}

#[test]
fn a_book_file_in_a_spec_is_played_and_a_bad_one_is_an_error_before_the_match() {
    // A book of one move from the start: a5, which no search of the engine chooses.
    let dir = std::env::temp_dir();
    let book = dir.join(format!("emergo-arena-book-{}.txt", std::process::id()));
    std::fs::write(&book, "# a test book\nW:12:12 a5 0\n").unwrap();
    let mut c = config(
        &format!("alphabeta:depth=1,bookfile={},name=booked", book.display()),
        "random",
        2,
    );
    c.opening_plies = 0;
    let (_, games) = collect(&c);
    let white = |g: &GameResult| g.record.tag("White").map(str::to_string);
    let booked = games
        .iter()
        .find(|g| white(g).as_deref() == Some("booked"))
        .expect("a game with the booked engine White");
    assert_eq!(booked.record.moves[0].mv.to_string(), "a5");

    // A book that does not read stops the match before it starts, naming the file and line.
    std::fs::write(&book, "W:12:12 e5 0\n").unwrap();
    let c = config(
        &format!("alphabeta:depth=1,bookfile={}", book.display()),
        "random",
        2,
    );
    let err = run_match(&c, |_, _| true).unwrap_err();
    assert!(matches!(err, ArenaError::Book { .. }), "{err}");
    assert!(err.to_string().contains("line 1"), "{err}");
    std::fs::remove_file(&book).ok();
}
