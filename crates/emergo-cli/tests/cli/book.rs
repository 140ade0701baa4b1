//! Issue 22: `emergo book build`, `emergo book probe` and `emergo book openings`.

use crate::common::*;
use emergo_core::game::Game;
use emergo_core::position::Position;
use emergo_core::record::write_game;
use emergo_core::Emergo;
use emergo_engine::book::Book;
use emergo_engine::{AlphaBetaPlayer, Level, Limits};

/// A game of `moves` from the start.
fn game(moves: &[&str]) -> Game {
    let mut game = Game::new(Position::start());
    for m in moves {
        game.play_text(m).expect("a legal move");
    }
    game
}

#[test]
fn issue22_a_book_built_from_records_probes_to_the_scores_of_its_searches() {
    let dir = tempfile::tempdir().expect("a folder");
    let records = dir.path().join("games.txt");
    let book = dir.path().join("book.txt");
    // Three games: all from the start, two of them through d3 f7 (in two orders with c4).
    let games = [
        game(&["d3", "f7", "c4"]),
        game(&["c4", "f7", "d3"]),
        game(&["g3", "d4"]),
    ];
    let text: Vec<String> = games.iter().map(|g| write_game(g, &[])).collect();
    std::fs::write(&records, text.join("\n")).expect("written");
    let out = emergo(&[
        "book",
        "build",
        "--from",
        records.to_str().expect("path"),
        "--plies",
        "3",
        "--min-games",
        "2",
        "--depth",
        "3",
        "--moves",
        "2",
        "--out",
        book.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("from 3 games"), "{}", stdout(&out));
    let built = Book::<Emergo>::load(&book).expect("the book reads");
    // The start and the position after both move orders (reached by two games); nothing
    // reached by one game only.
    assert_eq!(
        built.positions(),
        2,
        "{}",
        std::fs::read_to_string(&book).unwrap_or_default()
    );
    let shared = games[0].position();
    assert!(built.probe(game(&["g3"]).position()).is_empty());
    for position in [Position::start(), *shared] {
        let mut player = AlphaBetaPlayer::new(Level::MAX);
        player.set_multipv(2);
        let result = player.analyse(&Game::new(position), &Limits::depth(3), |_| {});
        let searched: Vec<(String, i32)> = result
            .lines
            .iter()
            .map(|l| (l.first().expect("a move").to_string(), l.score))
            .collect();
        let mut probed: Vec<(String, i32)> = built
            .probe(&position)
            .iter()
            .map(|m| (m.mv.to_string(), m.score))
            .collect();
        let mut searched_sorted = searched.clone();
        searched_sorted.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        probed.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        assert_eq!(probed.len(), 2, "{probed:?}");
        assert_eq!(
            probed.iter().map(|(_, s)| *s).collect::<Vec<_>>(),
            searched_sorted.iter().map(|(_, s)| *s).collect::<Vec<_>>(),
            "the book's scores are its searches' ({position})"
        );
    }
    // The probe command prints them, the best first.
    let out = emergo(&[
        "book",
        "probe",
        book.to_str().expect("path"),
        "--moves",
        "d3",
        "f7",
        "c4",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 2, "{}", stdout(&out));
    let out = emergo(&[
        "book",
        "probe",
        book.to_str().expect("path"),
        "--moves",
        "g3",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("is not in the book"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn issue22_book_build_by_selfplay_is_reproducible_from_its_seed_and_refuses_bad_records() {
    let dir = tempfile::tempdir().expect("a folder");
    let build = |name: &str| {
        let out_path = dir.path().join(name);
        let out = emergo(&[
            "book",
            "build",
            "--selfplay",
            "6",
            "--plies",
            "3",
            "--min-games",
            "2",
            "--depth",
            "2",
            "--seed",
            "7",
            "--out",
            out_path.to_str().expect("path"),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read_to_string(out_path).expect("the book")
    };
    let first = build("a.txt");
    assert_eq!(first, build("b.txt"), "one seed, one book");
    assert!(
        Book::<Emergo>::parse(&first).expect("it reads").positions() >= 1,
        "{first}"
    );
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "1. z9\n").expect("written");
    let out = emergo(&[
        "book",
        "build",
        "--from",
        bad.to_str().expect("path"),
        "--out",
        dir.path().join("c.txt").to_str().expect("path"),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a game record"),
        "{}",
        stderr(&out)
    );

    // The tree's own limits mean nothing to a book of counted games: refused, not ignored.
    for flag in ["--margin", "--width", "--max-positions"] {
        let out = emergo(&[
            "book",
            "build",
            "--selfplay",
            "2",
            flag,
            "5",
            "--out",
            dir.path().join("d.txt").to_str().expect("path"),
        ]);
        assert!(!out.status.success(), "{flag} without --expand was taken");
        assert!(
            stderr(&out).contains("--expand"),
            "{flag}: {}",
            stderr(&out)
        );
        assert!(!dir.path().join("d.txt").exists(), "nothing is written");
    }
}

#[test]
fn issue22_analyze_names_the_shipped_books_moves_before_its_search() {
    let out = emergo(&["analyze", "--depth", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let shipped = Book::<emergo_core::Emergo>::shipped();
    let first = shipped.probe(&Position::start())[0];
    let line = text
        .lines()
        .find(|l| l.starts_with("book "))
        .unwrap_or_else(|| panic!("a book line: {text}"));
    let best = format!(
        "book {} {}{}.{:02}",
        first.mv,
        if first.score < 0 { '-' } else { '+' },
        first.score.abs() / 100,
        first.score.abs() % 100
    );
    assert!(line.starts_with(&best), "{line} / {best}");
    // Out of the book: no such line, the search alone.
    let out = emergo(&[
        "analyze", "--moves", "a5", "i5", "e1", "e9", "b6", "h4", "--depth", "1",
    ]);
    assert!(
        !stdout(&out).lines().any(|l| l.starts_with("book ")),
        "{}",
        stdout(&out)
    );
}

/// `emergo book build --expand` with tiny searches, into `dir/name`; the file's text.
fn expanded(dir: &std::path::Path, name: &str, threads: &str) -> String {
    expanded_on(dir, name, threads, "emergo")
}

/// [`expanded`] on the board `variant`.
fn expanded_on(dir: &std::path::Path, name: &str, threads: &str, variant: &str) -> String {
    let path = dir.join(name);
    let out = emergo(&[
        "book",
        "build",
        "--variant",
        variant,
        "--expand",
        "--plies",
        "3",
        "--depth",
        "2",
        "--moves",
        "2",
        "--margin",
        "1000",
        "--width",
        "3",
        "--threads",
        threads,
        "--out",
        path.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(path).expect("the book")
}

#[test]
fn issue22_an_expanded_book_follows_its_best_moves_ply_by_ply_the_same_on_any_threads() {
    let dir = tempfile::tempdir().expect("a folder");
    let text = expanded(dir.path(), "one.txt", "1");
    assert_eq!(
        text,
        expanded(dir.path(), "two.txt", "2"),
        "threads change nothing"
    );
    let book = Book::<Emergo>::parse(&text).expect("it reads");
    // Ply 0: the start, 2 moves; ply 1: the 2 positions they reach, 2 moves each; ply 2: 3 of
    // the 4 positions those reach (--width 3), the best moves' first.
    assert_eq!(book.positions(), 6, "{text}");
    assert!(text.contains("by ply from the start: 1 2 3;"), "{text}");
    // The start's moves are a depth-2 search's two best, with their scores.
    let mut player = AlphaBetaPlayer::new(Level::MAX);
    player.set_multipv(2);
    let result = player.analyse(&Game::new(Position::start()), &Limits::depth(2), |_| {});
    let searched: Vec<_> = result
        .lines
        .iter()
        .map(|l| (l.first().expect("a move"), l.score))
        .collect();
    let probed: Vec<_> = book
        .probe(&Position::start())
        .iter()
        .map(|m| (m.mv, m.score))
        .collect();
    assert_eq!(probed, searched);
    // The two positions the start's moves reach are in the book, each with its two moves.
    for first in book.probe(&Position::start()) {
        let after = Position::start().play(first.mv).expect("legal");
        assert_eq!(book.probe(&after).len(), 2, "{after} is in the book");
    }
}

/// The (moves, position) pairs of an openings file: each position under the comment that names
/// the moves reaching it.
fn opening_lines(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0].starts_with("# ") && !w[1].starts_with('#') && !w[1].is_empty())
        .map(|w| {
            let moves = w[0][2..].split(" · ").next().unwrap_or("").to_string();
            (moves, w[1].to_string())
        })
        .collect()
}

#[test]
fn issue22_book_openings_are_the_books_lines_and_carry_whites_measured_score() {
    let dir = tempfile::tempdir().expect("a folder");
    expanded(dir.path(), "book.txt", "2");
    let book = dir.path().join("book.txt");
    let all = dir.path().join("all.txt");
    let out = emergo(&[
        "book",
        "openings",
        book.to_str().expect("path"),
        "--plies",
        "3",
        "--margin",
        "1000",
        "--out",
        all.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&all).expect("written");
    let lines = opening_lines(&text);
    // The 3 positions of ply 2 with their 2 book moves each (fewer if two meet).
    assert!((1..=6).contains(&lines.len()), "{text}");
    for (moves, position) in &lines {
        let moves: Vec<&str> = moves.split(' ').collect();
        assert_eq!(moves.len(), 3, "{text}");
        assert_eq!(game(&moves).position().to_string(), *position, "{text}");
    }
    // Measured: 2 games a line at 5 ms a move, the 2 nearest one half kept.
    let kept = dir.path().join("kept.txt");
    let out = emergo(&[
        "book",
        "openings",
        book.to_str().expect("path"),
        "--plies",
        "3",
        "--margin",
        "1000",
        "--games",
        "2",
        "--tc",
        "5",
        "--concurrency",
        "2",
        "--keep",
        "2",
        "--out",
        kept.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&kept).expect("written");
    let kept_lines = opening_lines(&text);
    assert_eq!(kept_lines.len(), 2, "{text}");
    let header = format!("# 2 lines of {} measured, 2 games each", lines.len());
    assert!(text.contains(&header), "{text}");
    for (moves, position) in &kept_lines {
        assert!(lines.iter().any(|(m, p)| m == moves && p == position));
        let comment = text
            .lines()
            .find(|l| l.starts_with(&format!("# {moves} · ")))
            .expect("its comment");
        assert!(
            [
                "White 0/2",
                "White 0.5/2",
                "White 1/2",
                "White 1.5/2",
                "White 2/2"
            ]
            .iter()
            .any(|w| comment.ends_with(w)),
            "{comment}"
        );
    }
    // A book without lines that long says so.
    let out = emergo(&[
        "book",
        "openings",
        book.to_str().expect("path"),
        "--plies",
        "9",
        "--out",
        dir.path().join("none.txt").to_str().expect("path"),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("no line of 9 plies"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn issue22_each_board_builds_probes_and_plays_a_book_of_its_own() {
    let dir = tempfile::tempdir().expect("a folder");
    // A board of 12 men a side cannot read a 7×7 position; a 7×7 book ("W:8:8 ...") may read
    // as a position of another board, so only the hexagon's is checked for refusal.
    for (variant, other) in [("7x7", None), ("hex", Some("7x7"))] {
        let name = format!("{variant}.txt");
        let text = expanded_on(dir.path(), &name, "2", variant);
        assert!(
            text.starts_with(&format!(
                "# emergo book build --variant {variant} --expand "
            )),
            "{text}"
        );
        assert!(text.contains("by ply from the start: 1 2 3;"), "{text}");
        let path = dir.path().join(&name);
        let path = path.to_str().expect("path");
        // The probe of the board's start prints the book's moves, the best first.
        let out = emergo(&["book", "probe", path, "--variant", variant]);
        assert!(out.status.success(), "{}", stderr(&out));
        let first: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .take(2)
            .map(|l| l.split(' ').nth(1).expect("a move"))
            .collect();
        let probed: Vec<String> = stdout(&out)
            .lines()
            .map(|l| l.split(' ').next().unwrap_or("").to_string())
            .collect();
        assert_eq!(probed, first, "{}", stdout(&out));
        // Read as another board's book, it is refused, naming its first move's line (after the
        // command and "# ply 0").
        if let Some(other) = other {
            let out = emergo(&["book", "probe", path, "--variant", other]);
            assert!(!out.status.success());
            assert!(stderr(&out).contains("book line 3"), "{}", stderr(&out));
        }
        // Its lines are openings of its board.
        let openings = dir.path().join(format!("{variant}-openings.txt"));
        let out = emergo(&[
            "book",
            "openings",
            path,
            "--variant",
            variant,
            "--plies",
            "2",
            "--margin",
            "1000",
            "--out",
            openings.to_str().expect("path"),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let lines = opening_lines(&std::fs::read_to_string(&openings).expect("written"));
        assert!(!lines.is_empty());
    }
    // `emergo analyze` shows the board's shipped book.
    let shipped = Book::<emergo_core::HexEmergo>::shipped();
    let best = shipped.probe(&Position::start())[0];
    let out = emergo(&["analyze", "--variant", "hex", "--depth", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = stdout(&out)
        .lines()
        .find(|l| l.starts_with("book "))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("a book line: {}", stdout(&out)));
    assert!(line.starts_with(&format!("book {} ", best.mv)), "{line}");
}
