//! `--variant emergo|7x7|hex` on the rules verbs (issue 20 item 3): perft, moves (and
//! `--batch` against the shared variant data), apply, show and random on HexEmergo and Emergo
//! 7×7.

use crate::common::*;

const HEX_POSITIONS: &str =
    include_str!("../../../emergo-core/tests/data/variants/hex-positions.tsv");
const SEVEN_POSITIONS: &str =
    include_str!("../../../emergo-core/tests/data/variants/7x7-positions.tsv");

#[test]
fn variants_perft_counts_from_each_start() {
    for (variant, depth, count) in [
        ("hex", "3", "36702"),
        ("7x7", "4", "201272"),
        ("emergo", "2", "1504"),
    ] {
        let out = emergo(&["perft", depth, "--variant", variant]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out).lines().last(), Some(count), "{variant}");
    }
    let out = emergo(&["perft", "1", "--variant", "square"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("expected emergo, 7x7 or hex"),
        "{}",
        stderr(&out)
    );
}

/// `moves --batch` gives the data's move list for every position of the data.
fn batch_agrees_with_the_data(variant: &str, data: &str) {
    let input: String = data
        .lines()
        .map(|l| format!("{}\n", l.split('\t').next().unwrap_or("")))
        .collect();
    let out = emergo_with_input(&["moves", "--batch", "--variant", variant], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let got: Vec<&str> = text.lines().collect();
    let want: Vec<&str> = data
        .lines()
        .map(|l| l.split_once('\t').map_or("", |(_, m)| m))
        .collect();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "{variant} line {}", i + 1);
    }
}

#[test]
fn variants_r5_to_r9_moves_batch_agrees_with_every_position_of_the_hex_data() {
    batch_agrees_with_the_data("hex", HEX_POSITIONS);
}

#[test]
fn variants_r5_to_r9_moves_batch_agrees_with_every_position_of_the_7x7_data() {
    batch_agrees_with_the_data("7x7", SEVEN_POSITIONS);
}

#[test]
fn variants_moves_and_apply_play_the_hex_worked_example() {
    let start = "W:0:0:a3=BB,b3=W,c3=WWWW,e4=B,f4=BB";
    let out = emergo(&[
        "apply",
        "--variant",
        "hex",
        "--position",
        start,
        "c3-d3",
        "a3xc3xe3",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let after = stdout(&out).trim().to_string();
    assert_eq!(after, "W:0:0:d3=WWW,e3=BBWW,e4=B,f4=BB");
    let out = emergo(&["moves", "--variant", "hex", "--position", &after]);
    assert_eq!(stdout(&out), "d3xf3xf5xd3xf3xf5\n");
    let out = emergo(&[
        "apply",
        "--variant",
        "hex",
        "--position",
        &after,
        "d3xf5xf3xd3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("majority rule"), "{}", stderr(&out));
    // The start of each board: 7×7 has 8 men a side, and a cell of another board is refused.
    let out = emergo(&["apply", "--variant", "7x7", "c3"]);
    assert_eq!(stdout(&out).trim(), "B:7:8:c3=W");
    let out = emergo(&["apply", "--variant", "hex", "e1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not a square (squares are a1..a4"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn variants_show_draws_the_hexagon_row_7_on_top_with_letters_right_to_left() {
    let out = emergo(&[
        "show",
        "--variant",
        "hex",
        "--position",
        "B:0:0:e3=WW,f5=WWWBBBBB",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().skip(1).take(7).collect();
    let words = |row: &str| {
        row.split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(words(rows[0]), ["g7", "f7", "e7", "d7"]);
    assert_eq!(words(rows[3]), ["g4", "f4", "e4", "d4", "c4", "b4", "a4"]);
    assert_eq!(words(rows[6]), ["d1", "c1", "b1", "a1"]);
    assert_eq!(words(rows[2]), ["g5", "W3/5", "e5", "d5", "c5", "b5"]);
    assert_eq!(words(rows[4]), ["f3", "W2", "d3", "c3", "b3", "a3"]);
    // A cell's six neighbours stand around it: d4 is between e5 and d5 above, d3 and c3 below.
    let column = |row: &str, name: &str| row.find(name).expect(name) + 1;
    let d4 = column(rows[3], "d4");
    assert_eq!(column(rows[2], "e5") + 3, d4);
    assert_eq!(column(rows[2], "d5") - 3, d4);
    assert_eq!(column(rows[4], "d3") + 3, d4);
    assert_eq!(column(rows[4], "c3") - 3, d4);
    assert!(text.contains("Position: B:0:0:e3=WW,f5=WWWBBBBB"), "{text}");
    assert!(text.contains("game over: 1-0"), "{text}");
}

#[test]
fn variants_show_draws_the_7x7_board_like_the_9x9_one() {
    let out = emergo(&["show", "--variant", "7x7"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains("a4 (top-left) to g4 (bottom-right)"),
        "{}",
        lines[0]
    );
    // The legend, the top edge, then ranks 7 down to 1.
    let rank = |y: usize| lines[1 + 8 - y];
    assert!(rank(7)[4..].starts_with("  a4  "), "{}", rank(7));
    assert!(rank(1)[4..].starts_with("  d1  "), "{}", rank(1));
    assert!(rank(1).trim_end().ends_with("  g4  |"), "{}", rank(1));
    assert!(text.contains("In hand: White 8, Black 8"), "{text}");
}

#[test]
fn variants_random_games_end_by_the_rules_on_each_board() {
    for variant in ["hex", "7x7"] {
        let out = emergo(&["random", "--games", "50", "--variant", variant]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("games: 50"), "{text}");
        let results = text
            .lines()
            .find_map(|l| l.strip_prefix("results: "))
            .expect("a results line");
        let total: u64 = results
            .split(", ")
            .map(|p| p.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 50, "{variant}: {results}");
    }
}
