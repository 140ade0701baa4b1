//! `emergo match` and `emergo play` driven through pipes, as a script or a person would.

use crate::common::{emergo_with_input, stdout, EMERGO};
use emergo_core::{split_records, Color, GameRecord, Outcome, Status};
use std::path::PathBuf;
use std::process::Output;

fn temp(name: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("emergo-test-{}-{name}", std::process::id()))
}

fn run(args: &[&str], stdin: &str) -> Output {
    emergo_with_input(args, stdin)
}

/// Reads a file of records written one after the other.
fn records(text: &str) -> Vec<GameRecord> {
    split_records(text)
        .into_iter()
        .map(|(_, part)| GameRecord::parse(part).unwrap_or_else(|e| panic!("{e}\n{part}")))
        .collect()
}

#[test]
fn match_prints_the_documented_report_and_writes_the_records() {
    let pgn = temp("match.pgn");
    let out = run(
        &[
            "match",
            "--engine",
            "greedy",
            "--engine",
            "random",
            "--games",
            "6",
            "--openings",
            "2",
            "--seed",
            "3",
            "--concurrency",
            "2",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let keys: Vec<&str> = text.lines().filter_map(|l| l.split(':').next()).collect();
    assert_eq!(
        keys,
        [
            "engine1",
            "engine2",
            "games",
            "wdl",
            "score",
            "elo",
            "as-white",
            "as-black",
            "terminations",
            "forfeits",
            "mean-plies"
        ],
        "{text}"
    );
    assert!(text.contains("games: 6 of 6"));
    let wdl: Vec<u32> = text
        .lines()
        .find_map(|l| l.strip_prefix("wdl: "))
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(wdl.iter().sum::<u32>(), 6);
    let games = records(&std::fs::read_to_string(&pgn).unwrap());
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(games.len(), 6);
    let mut rounds: Vec<u32> = games
        .iter()
        .map(|r| r.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort();
    assert_eq!(rounds, [1, 2, 3, 4, 5, 6]);
    for r in &games {
        for tag in [
            "Event",
            "White",
            "Black",
            "Result",
            "Termination",
            "Opening",
            "TimeControl",
        ] {
            assert!(r.tag(tag).is_some(), "{tag} missing");
        }
        assert!(r.to_game().is_ok());
    }
}

#[test]
fn match_with_an_sprt_reports_its_verdict_line() {
    let out = run(
        &[
            "match",
            "--engine",
            "greedy",
            "--engine",
            "random",
            "--games",
            "4",
            "--sprt",
            "elo0=0,elo1=10,alpha=0.05,beta=0.05",
        ],
        "",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    let line = text.lines().find(|l| l.starts_with("sprt: ")).expect(&text);
    assert!(
        line.contains(" llr ") && line.contains("bounds -2.944 2.944"),
        "{line}"
    );
}

#[test]
fn match_rejects_bad_specs_and_options_with_a_reason() {
    for (args, needle) in [
        (
            vec!["--engine", "stockfish", "--engine", "random"],
            "unknown engine",
        ),
        (vec!["--engine", "random"], "exactly two --engine"),
        (
            vec!["--engine", "random", "--engine", "random", "--tc", "fast"],
            "time control",
        ),
        (
            vec![
                "--engine",
                "random",
                "--engine",
                "random",
                "--sprt",
                "elo0=5,elo1=1",
            ],
            "elo0 < elo1",
        ),
        (
            vec!["--engine", "ugi:/nonexistent/engine", "--engine", "random"],
            "cannot start",
        ),
    ] {
        let mut all = vec!["match"];
        all.extend(args);
        let out = run(&all, "");
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{needle} not in {err}");
    }
}

#[test]
fn play_explains_a_wrong_move_with_the_legal_moves() {
    let out = run(
        &["play", "--level", "1", "--movetime", "20"],
        "zz\ne5\nquit\n",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("cannot read move 'zz'"), "{text}");
    // R9.3: White's first man may not go on e5.
    assert!(text.contains("e5 is not a legal move here"), "{text}");
    let legal = text
        .lines()
        .find(|l| l.starts_with("legal moves: "))
        .unwrap();
    assert_eq!(legal.split(' ').count(), 2 + 40);
    assert!(!legal.contains(" e5"));
}

#[test]
fn play_moves_undoes_and_saves_a_readable_record() {
    let file = temp("play.pgn");
    let script = format!("d3\nundo\nd3\nc4\nsave {}\nquit\n", file.display());
    let out = run(&["play", "--level", "1", "--movetime", "20"], &script);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(text.matches("engine plays ").count(), 3, "{text}");
    assert!(text.contains("took back d3 "), "{text}");
    assert!(text.contains("saved the game record to"), "{text}");
    let record = GameRecord::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(record.moves.len(), 4);
    assert_eq!(record.moves[0].mv.to_string(), "d3");
    assert_eq!(record.moves[2].mv.to_string(), "c4");
    assert_eq!(record.tag("White"), Some("you"));
    assert_eq!(record.tag("Black"), Some("emergo level 1"));
    assert_eq!(record.result, None);
}

#[test]
fn play_resign_ends_the_game_and_the_record_says_so() {
    let file = temp("resign.pgn");
    let script = format!("resign\nd3\nsave {}\n", file.display());
    let out = run(
        &[
            "play",
            "--color",
            "black",
            "--level",
            "2",
            "--movetime",
            "20",
        ],
        &script,
    );
    assert!(out.status.success());
    let text = stdout(&out);
    // The engine has White and moves first.
    assert!(text.contains("engine plays "), "{text}");
    assert!(
        text.contains("game over: 1-0, White wins (resignation)"),
        "{text}"
    );
    assert!(text.contains("the game is over"), "{text}");
    let record = GameRecord::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(record.result, Some(Outcome::Win(Color::White)));
    assert_eq!(record.tag("Termination"), Some("resignation"));
    assert_eq!(record.moves.len(), 1);
}

#[test]
fn play_announces_a_win_by_the_rules_r10_1() {
    // White must capture d4xf4 (R5.1) and Black is left with nothing (R10.1).
    let out = run(
        &["play", "--position", "W:0:0:d4=W,e4=B", "--movetime", "20"],
        "moves\nhint\nd4xf4\nundo\nquit\n",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("legal moves: d4xf4\n"), "{text}");
    assert!(text.contains("hint: d4xf4"), "{text}");
    // The hint's evaluation bar, full for White who wins at once, and its only line.
    assert!(
        text.contains(&format!("White {} Black  White wins in 1", "█".repeat(24))),
        "{text}"
    );
    assert!(text.contains("  1. White wins in 1  d4xf4"), "{text}");
    assert!(
        text.contains("game over: 1-0, White wins (no pieces)"),
        "{text}"
    );
    assert!(text.contains("took back d4xf4"), "{text}");
    // The game goes on after undo: no second announcement.
    assert_eq!(text.matches("game over: 1-0, White wins").count(), 1);
}

/// `analyze --multipv 3`: a numbered row per line and depth, the bar and the three lines.
#[test]
fn analyze_multipv_numbers_the_lines_and_shows_the_bar() {
    let out = run(
        &["analyze", "--moves", "d3", "--depth", "3", "--multipv", "3"],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("depth line"), "{text}");
    for depth in 1..=3 {
        for line in 1..=3 {
            let row = format!("\n{depth:>5} {line:>4} ");
            assert!(text.contains(&row), "{row:?} missing: {text}");
        }
    }
    assert!(
        text.contains("White ") && text.contains(" Black  "),
        "{text}"
    );
    for k in 1..=3 {
        assert!(text.contains(&format!("\n  {k}. ")), "{text}");
    }
    assert!(text
        .trim_end()
        .lines()
        .last()
        .unwrap()
        .starts_with("bestmove "));
    let bad = run(&["analyze", "--multipv", "9"], "");
    assert!(!bad.status.success());
}

#[test]
fn play_help_lists_every_command_and_ends_at_end_of_input() {
    let out = run(&["play", "--movetime", "20"], "help\n");
    assert!(out.status.success());
    let text = stdout(&out);
    for cmd in [
        "undo",
        "hint",
        "resign",
        "save <file>",
        "help",
        "quit",
        "moves",
    ] {
        assert!(text.contains(cmd), "{cmd} missing from help");
    }
    let bad = run(&["play", "--position", "W:99:0"], "");
    assert!(!bad.status.success());
}

#[test]
fn a_game_record_read_back_replays_to_its_status() {
    // A saved game that ended by the rules replays to the same ending.
    let file = temp("won.pgn");
    let out = run(
        &["play", "--position", "W:0:0:d4=W,e4=B", "--movetime", "20"],
        &format!("d4xf4\nsave {}\n", file.display()),
    );
    assert!(out.status.success());
    let record = GameRecord::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(record.tag("Termination"), Some("no pieces"));
    assert!(matches!(
        record.to_game().unwrap().status(),
        Status::Finished { .. }
    ));
}

#[test]
fn match_against_the_emergo_ugi_engine_over_pipes_has_no_forfeits() {
    // Two builds can be matched: here `emergo ugi` itself as the external engine, with a clock.
    let spec = format!("ugi:{EMERGO} ugi");
    let pgn = temp("ugi.pgn");
    let out = run(
        &[
            "match",
            "--engine",
            &spec,
            "--engine",
            "alphabeta:level=1",
            "--games",
            "2",
            "--tc",
            "5+0.05",
            "--max-plies",
            "60",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("games: 2 of 2"), "{text}");
    assert!(text.contains("forfeits: 0 0"), "{text}");
    let games = records(&std::fs::read_to_string(&pgn).unwrap());
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|r| r.tag("TimeControl") == Some("5+0.05")));
    assert!(games.iter().all(|r| r.to_game().is_ok()));
}

#[test]
fn tune_fits_weights_to_recorded_games_and_names_what_it_cannot_read() {
    let pgn = temp("tune.pgn");
    let pgn_arg = pgn.to_str().unwrap();
    let made = run(
        &[
            "match", "--engine", "greedy", "--engine", "random", "--games", "10", "--seed", "5",
            "--pgn", pgn_arg,
        ],
        "",
    );
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let out = run(
        &[
            "tune",
            "--iterations",
            "5",
            "--fix",
            "tempo",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("games: 10\n"), "{text}");
    assert!(text.contains("\nman 100 (was 100)\n"), "{text}");
    let tempo = emergo_engine::eval::Weights::default().tempo;
    let fixed = format!("\ntempo {tempo} (was {tempo})\n");
    assert!(text.contains(&fixed), "{text}");
    assert!(text.contains("\nheld-out error: "), "{text}");
    assert_eq!(text.lines().count(), 6 + 14, "{text}");

    let out = run(
        &[
            "tune",
            "--iterations",
            "3",
            "--fix",
            "edge",
            "--start",
            "edge=7,hand=90",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        "",
    );
    let text = stdout(&out);
    assert!(text.contains("\nedge 7 (was 7)\n"), "{text}");
    assert!(text.contains("(was 90)\n"), "{text}");
    let bad = run(
        &["tune", "--start", "hand", "--pgn", pgn.to_str().unwrap()],
        "",
    );
    assert!(String::from_utf8_lossy(&bad.stderr).contains("'hand' is not name=value"));
    let bad = run(&["tune", "--l2=-1", "--pgn", pgn.to_str().unwrap()], "");
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr).into_owned();
    assert!(
        err.contains("--l2: -1 is not a weight of zero or more"),
        "{err}"
    );
    let bad = run(
        &["tune", "--fix", "speed", "--pgn", pgn.to_str().unwrap()],
        "",
    );
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no weight 'speed'"));
    let broken = temp("broken.pgn");
    std::fs::write(
        &broken,
        "[Event \"x\"]\n\n1. d3 *\n\n[Event \"y\"]\n\n1. zz *\n",
    )
    .unwrap();
    let bad = run(&["tune", "--pgn", broken.to_str().unwrap()], "");
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr).into_owned();
    assert!(err.contains("the record at line 5"), "{err}");
    let _ = std::fs::remove_file(pgn);
    let _ = std::fs::remove_file(broken);
}

#[test]
fn match_plays_an_openings_file_of_both_line_kinds_each_twice_with_colours_swapped() {
    let book = temp("book.txt");
    let pgn = temp("book.pgn");
    std::fs::write(&book, "# two openings\n\nd3 a5 f2\nB:11:12:d3=W\n").unwrap();
    let args = |extra: &[&str]| {
        let mut v = vec![
            "match",
            "--engine",
            "greedy",
            "--engine",
            "random",
            "--openings-file",
            book.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ];
        v.extend_from_slice(extra);
        v.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let argv = args(&["--games", "6"]);
    let out = run(&argv.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut games = records(&std::fs::read_to_string(&pgn).unwrap());
    games.sort_by_key(|r| r.tag("Round").unwrap().parse::<u32>().unwrap());
    let openings: Vec<(Option<&str>, Option<&str>)> = games
        .iter()
        .map(|r| (r.tag("Opening"), r.tag("FEN")))
        .collect();
    // In the file's order, each twice, and from the first again for games 5 and 6.
    let moves = (Some("d3 a5 f2"), None);
    let n2 = (Some("B:11:12:d3=W"), Some("B:11:12:d3=W"));
    assert_eq!(openings, [moves, moves, n2, n2, moves, moves]);
    for pair in games.chunks(2) {
        assert_eq!(
            pair[0].tag("White"),
            pair[1].tag("Black"),
            "colours swapped"
        );
    }
    let first = games[0].to_game().unwrap();
    assert_eq!(
        first.moves()[..3]
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
        ["d3", "a5", "f2"]
    );
    assert_eq!(
        games[2].to_game().unwrap().start().to_string(),
        "B:11:12:d3=W"
    );

    // With --seed the order is shuffled (the same for the same seed); the openings are the same.
    let seeded = |seed: &str| {
        let argv = args(&["--seed", seed, "--games", "4"]);
        let out = run(&argv.iter().map(String::as_str).collect::<Vec<_>>(), "");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut games = records(&std::fs::read_to_string(&pgn).unwrap());
        games.sort_by_key(|r| r.tag("Round").unwrap().parse::<u32>().unwrap());
        games
            .iter()
            .map(|r| r.tag("Opening").unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let a = seeded("7");
    assert_eq!(a, seeded("7"));
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        ["B:11:12:d3=W", "B:11:12:d3=W", "d3 a5 f2", "d3 a5 f2"]
    );

    // A bad line stops the match before it starts, naming the file and the line.
    std::fs::write(&book, "d3 a5\n# fine so far\nd3 e5 zz\n").unwrap();
    let argv = args(&[]);
    let out = run(&argv.iter().map(String::as_str).collect::<Vec<_>>(), "");
    let _ = std::fs::remove_file(&book);
    let _ = std::fs::remove_file(&pgn);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("book.txt"), "{err}");
    assert!(err.contains("line 3 ('d3 e5 zz')"), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn help_lists_every_verb_and_a_resignation_is_final_in_the_terminal_as_on_the_web() {
    // issue 9, defect 12
    let out = run(&["--help"], "");
    let text = stdout(&out);
    for verb in [
        "perft", "moves", "apply", "show", "random", "analyze", "play", "match", "ugi", "bench",
        "serve", "tune",
    ] {
        assert!(
            text.contains(&format!("  {verb} ")),
            "{verb} missing: {text}"
        );
    }
    let out = run(&["play", "--movetime", "20"], "resign\nundo\nquit\n");
    let text = stdout(&out);
    assert!(text.contains("a resignation is final"), "{text}");
    // the level's time, as on the web (level 1: 100 ms)
    let out = run(&["play", "--level", "1"], "quit\n");
    assert!(stdout(&out).contains("(100 ms a move)"), "{}", stdout(&out));
}
