//! The scripted surface of `emergo` for the rules: perft, moves, apply, show, random.

use crate::common::*;

#[test]
fn perft_prints_the_count_as_the_last_line() {
    let out = emergo(&["perft", "3"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("55172"));
}

#[test]
fn perft_divide_lists_every_root_move_in_byte_order_then_the_total() {
    let out = emergo(&["perft", "2", "--divide"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 41);
    assert_eq!(lines[40], "1504");
    let moves: Vec<&str> = lines[..40]
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    let sum: u64 = lines[..40]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1504);
}

#[test]
fn perft_from_a_position_of_the_worked_example() {
    let out = emergo(&[
        "perft",
        "1",
        "--position",
        "B:0:0:c5=B,d6=B,e4=WWWW,e5=B,g4=W,h4=BB",
    ]);
    assert_eq!(stdout(&out).trim(), "1");
}

#[test]
fn moves_are_listed_one_per_line_in_byte_order() {
    let out = emergo(&["moves", "--position", "W:0:0:e5=W,a5=B"]);
    assert_eq!(stdout(&out), "e5-d5\ne5-e4\ne5-e6\ne5-f5\n");
}

#[test]
fn moves_batch_writes_one_line_per_position_and_empty_lines_for_none() {
    let input = "W:0:0:e5=W,a5=B\nW:0:0:e1=W,e2=B,f2=B,e3=B,g3=B\nW:0:0:d4=W,e4=B\n";
    let out = emergo_with_input(&["moves", "--batch"], input);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "e5-d5 e5-e4 e5-e6 e5-f5\n\nd4xf4\n");
}

#[test]
fn moves_batch_names_the_bad_line_and_fails() {
    let out = emergo_with_input(&["moves", "--batch"], "W:12:12\nW:0:0:zz=W\n");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("a5 b4"));
}

#[test]
fn apply_prints_the_resulting_position() {
    let out = emergo(&["apply", "d3", "a5", "f2"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim(), "B:10:11:a5=B,d3=W,f2=W");
    let out = emergo(&[
        "apply",
        "--position",
        "W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB",
        "f4-e4",
        "h4-f4-d4",
        "E4XC4XC6XE6XE4XC4",
    ]);
    assert_eq!(stdout(&out).trim(), "B:0:0:c4=WWWBBBBB,d4=WW");
}

#[test]
fn apply_refuses_an_illegal_move_with_its_index_and_the_legal_moves() {
    let out = emergo(&["apply", "d3", "d4"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("move 2"), "{err}");
    assert!(err.contains("d4"), "{err}");
    assert!(err.contains("legal moves: a5 b4"), "{err}");
    let out = emergo(&["apply", "e5x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bad_position_is_reported_not_panicked_on() {
    let out = emergo(&["show", "--position", "W:0:0:e5=WBW"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("two layers"), "{}", stderr(&out));
}

#[test]
fn show_draws_the_board_with_hands_and_side_to_move() {
    let out = emergo(&["show", "--position", "B:0:5:e5=WWB"]);
    let text = stdout(&out);
    assert!(text.contains("W2/1"), "{text}");
    assert!(text.contains("In hand: White 0, Black 5"));
    assert!(text.contains("Shadowpiece pending: black enters its 5 men"));
    assert!(text.contains("Black to move"));
}

#[test]
fn r5_show_prints_the_phase_line_as_capture_enter_or_step() {
    for (position, word) in [
        ("W:5:5:e4=W,e5=B", "capture"),
        ("W:12:12", "enter"),
        ("W:1:0:a5=W,i5=B", "enter"),
        ("W:0:3:e5=W,a5=B", "step"),
    ] {
        let out = emergo(&["show", "--position", position]);
        let text = stdout(&out);
        let line = text
            .lines()
            .find(|l| l.starts_with("Phase: "))
            .unwrap_or_else(|| panic!("no Phase line: {text}"));
        assert!(
            line.starts_with(&format!("Phase: {word} ")) || line == format!("Phase: {word}"),
            "{position}: {line}"
        );
    }
}

#[test]
fn random_reports_the_five_lines_scripts_read() {
    let out = emergo(&["random", "--games", "200", "--seed", "3", "--threads", "2"]);
    let text = stdout(&out);
    let keys: Vec<&str> = text.lines().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "games",
            "games/s",
            "mean plies",
            "mean legal moves",
            "results"
        ]
    );
    assert!(text.starts_with("games: 200\n"));
    let again = stdout(&emergo(&["random", "--games", "200", "--seed", "3"]));
    let results = |t: &str| t.lines().last().unwrap().to_string();
    assert_eq!(results(&text), results(&again), "same seed, same games");
}

/// `emergo args…` with its stdout a pipe whose reader is gone before it writes (as `| head`
/// leaves it): its exit status and stderr.
fn with_stdout_closed(args: &[&str]) -> (std::process::ExitStatus, String) {
    use std::io::Read as _;
    let mut child = std::process::Command::new(EMERGO)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run emergo");
    // The read end is closed at once: each of the command's writes finds no reader.
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    (child.wait().expect("wait"), err)
}

#[test]
fn a_command_whose_reader_is_gone_ends_quietly_instead_of_panicking() {
    // perft --divide writes a line a move, analyze a line a depth (println! would panic).
    for args in [
        &["perft", "3", "--divide"][..],
        &["analyze", "--depth", "3"],
        &["moves", "--variant", "hex"],
    ] {
        let (status, err) = with_stdout_closed(args);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(status.success(), "{args:?}: {status} {err}");
    }
}
