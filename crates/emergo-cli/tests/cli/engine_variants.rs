//! The engine's verbs on the other boards (issue 20 item 3): `emergo match`, `analyze`, `play`
//! and `bench` with `--variant 7x7` and `--variant hex`.

use crate::common::{emergo, emergo_with_input, stderr, stdout, EMERGO};
use emergo_core::game::Status;
use emergo_core::position::Position;
use emergo_core::record::GameRecord;
use emergo_core::{split_records, Emergo7x7, EndReason, HexEmergo, Variant};
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("emergo-test-{}-{name}", std::process::id()))
}

/// Plays `emergo match --variant <variant>` between `a` and `b` and returns its records, read
/// on the board `V` (so a record of another board fails the test).
fn match_records<V: Variant>(variant: &str, a: &str, b: &str, games: &str) -> Vec<GameRecord<V>> {
    let pgn = temp(&format!("{variant}-match.pgn"));
    let out = emergo(&[
        "match",
        "--variant",
        variant,
        "--engine",
        a,
        "--engine",
        b,
        "--games",
        games,
        "--tc",
        "5",
        "--openings",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains(&format!("games: {games} of {games}")),
        "{report}"
    );
    assert!(report.contains("forfeits: 0 0"), "{report}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_file(&pgn);
    split_records(&text)
        .into_iter()
        .map(|(_, part)| GameRecord::<V>::parse(part).unwrap_or_else(|e| panic!("{e}\n{part}")))
        .collect()
}

/// Every record replays on its board to the end the rules give it (R10), with the board's tag.
fn assert_played_to_the_end<V: Variant>(records: &[GameRecord<V>]) {
    for record in records {
        assert_eq!(record.tag("Variant"), Some(V::KIND.tag()));
        let game = record.to_game().expect("the record replays");
        let Status::Finished { outcome, reason } = game.status() else {
            panic!("not over: {record}");
        };
        assert!(!reason.is_declared(), "{reason:?}: {record}");
        assert_ne!(reason, EndReason::Resignation);
        assert_eq!(record.result, Some(outcome));
        assert_eq!(record.tag("Termination"), Some(reason.name()));
    }
}

#[test]
fn engine_variants_match_plays_hex_games_to_their_end_at_a_tiny_budget() {
    let records = match_records::<HexEmergo>(
        "hex",
        "alphabeta:level=10,nodes=400",
        "alphabeta:level=2",
        "2",
    );
    assert_eq!(records.len(), 2);
    assert_played_to_the_end(&records);
}

#[test]
fn engine_variants_match_plays_7x7_games_to_their_end_with_an_external_ugi_engine() {
    // The external engine is told the board with `setoption name UGI_Variant value 7x7`: on the
    // square board its moves would be illegal here and it would forfeit.
    let ugi = format!("ugi:{EMERGO} ugi");
    let records = match_records::<Emergo7x7>("7x7", &ugi, "alphabeta:level=10,nodes=400", "2");
    assert_eq!(records.len(), 2);
    assert_played_to_the_end(&records);
}

#[test]
fn engine_variants_analyze_hex_searches_a_hex_position_and_names_a_legal_move() {
    // Four entries, each the last legal move in generation order.
    let mut pos = Position::<HexEmergo>::start();
    for _ in 0..4 {
        let moves = pos.legal_moves();
        pos = pos.play(*moves.last().unwrap()).unwrap();
    }
    let text = pos.to_string();
    let out = emergo(&[
        "analyze",
        "--variant",
        "hex",
        "--position",
        &text,
        "--depth",
        "4",
        "--multipv",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = stdout(&out);
    assert!(lines.contains(&format!("position {text}")), "{lines}");
    let best = lines
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|l| l.split(' ').next())
        .unwrap_or_else(|| panic!("{lines}"));
    assert!(pos.parse_move(best).is_ok(), "{best} in {text}\n{lines}");
    // A position text does not say its board: a hex cell the square board lacks (a1) is refused
    // there.
    let out = emergo(&["analyze", "--position", "B:11:12:a1=W", "--depth", "1"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("emergo board"), "{}", stderr(&out));
}

#[test]
fn engine_variants_play_7x7_offers_the_7x7_entries_and_the_engine_answers() {
    let out = emergo_with_input(
        &[
            "play",
            "--variant",
            "7x7",
            "--level",
            "1",
            "--movetime",
            "20",
        ],
        "moves\nc3\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let moves = text
        .lines()
        .find_map(|l| l.strip_prefix("legal moves: "))
        .unwrap_or_else(|| panic!("{text}"));
    // 25 squares, the centre d4 closed to White's first entry (R9.3).
    assert_eq!(moves.split(' ').count(), 24, "{moves}");
    assert!(!moves.split(' ').any(|m| m == "d4"), "{moves}");
    let reply = text
        .lines()
        .find_map(|l| l.strip_prefix("engine plays "))
        .unwrap_or_else(|| panic!("{text}"));
    let after = Position::<Emergo7x7>::start();
    let after = after.play(after.parse_move("c3").unwrap()).unwrap();
    assert!(after.parse_move(reply).is_ok(), "{reply}");
}

#[test]
fn engine_variants_bench_searches_each_board_and_names_its_positions() {
    for variant in ["7x7", "hex"] {
        let out = emergo(&["bench", "--variant", variant, "--depth", "2"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.starts_with("start "), "{text}");
        let summary = text.lines().last().unwrap();
        let positions: usize = summary
            .strip_prefix("bench: ")
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{summary}"));
        assert_eq!(positions, text.lines().count() - 1, "{text}");
        assert!(positions > 10, "{summary}");
    }
}
