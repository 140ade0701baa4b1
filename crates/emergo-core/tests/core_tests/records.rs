//! Game records: the PGN-style format reads and writes losslessly and rejects bad records with a
//! line and column.

use emergo_core::{
    split_records, Color, EndReason, Game, GameError, GameRecord, Outcome, Position, RecordMove,
    Status,
};

const SAMPLE: &str = r#"[Event "Club match"]
[Date "2026.11.30"]
[White "Ada"]
[Black "Bob"]
[Result "*"]

{Both sides enter.} 1. d3 a5 2. f2 {a quiet move} 2... e1 3. d6 *
"#;

#[test]
fn a_record_with_tags_comments_and_numbers_reads_and_writes_back_unchanged() {
    let record = GameRecord::parse(SAMPLE).unwrap();
    assert_eq!(record.tag("White"), Some("Ada"));
    assert_eq!(record.moves.len(), 5);
    assert_eq!(record.opening_comment.as_deref(), Some("Both sides enter."));
    assert_eq!(record.moves[2].comment.as_deref(), Some("a quiet move"));
    assert_eq!(record.to_string(), SAMPLE);
}

#[test]
fn a_game_from_elsewhere_carries_its_position_tag() {
    let start: Position = "W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB".parse().unwrap();
    let mut game = Game::new(start);
    for m in ["f4-e4", "h4xf4xd4", "e4xc4xc6xe6xe4xc4"] {
        game.play_text(m).unwrap();
    }
    let text = GameRecord::from_game(&game, &[("Event", "Worked example")]).to_string();
    assert!(text.contains("[Position \"W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB\"]"));
    let back = GameRecord::parse(&text).unwrap().to_game().unwrap();
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.start(), game.start());
}

#[test]
fn r10_4_a_resignation_is_kept_in_the_record() {
    let mut game = Game::default();
    game.play_text("d3").unwrap();
    game.resign(Color::Black).unwrap();
    let text = GameRecord::from_game(&game, &[]).to_string();
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    assert!(text.trim_end().ends_with("1-0"));
    let back = GameRecord::parse(&text).unwrap().to_game().unwrap();
    assert_eq!(
        back.status(),
        Status::Finished {
            outcome: Outcome::Win(Color::White),
            reason: EndReason::Resignation
        }
    );
}

#[test]
fn bad_records_are_rejected_with_line_and_column() {
    let cases: [(&str, usize, usize, &str); 8] = [
        ("[Event \"x\"]\n\n1. d3 e5 zz *\n", 3, 10, "not a square"),
        ("[Event \"x\"]\n\n1. d3 d4 *\n", 3, 7, "not a legal move"),
        ("[Event \"x\n", 1, 1, "not closed"),
        ("[Event \"x\"]\n\n1. d3 (1. d6\n", 3, 7, "not closed"),
        ("1. e5 *", 1, 4, "not a legal move"),
        ("[Position \"W:99:0\"]\n*", 1, 1, "Position tag"),
        ("1. d3 {open comment *", 1, 7, "not closed"),
        ("1. d3 * extra", 1, 9, "after the result"),
    ];
    for (text, line, column, needle) in cases {
        let err = GameRecord::parse(text).unwrap_err();
        assert_eq!(err.line_column(), Some((line, column)), "{text:?}: {err}");
        assert!(err.to_string().contains(needle), "{text:?}: {err}");
    }
}

#[test]
fn a_bare_move_list_is_an_unfinished_game() {
    for text in [
        "1. d3 a5 2. f2",
        "d3 a5 f2\n",
        "1. d3 1... a5 2. f2 {a quiet move}",
    ] {
        let record = GameRecord::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(record.result, None, "{text:?}");
        assert!(record.tags.is_empty(), "{text:?}");
        let game = record.to_game().expect("it replays");
        assert_eq!(game.ply(), 3);
        assert_eq!(game.status(), Status::Ongoing);
        // Written back, it gets its `*`, and reads back the same.
        assert_eq!(GameRecord::parse(&record.to_string()), Ok(record));
    }
    let empty = GameRecord::parse("").expect("an empty record is a game not begun");
    assert!(empty.moves.is_empty() && empty.result.is_none());
}

#[test]
fn r10_4_without_a_result_token_the_result_tag_gives_the_result() {
    let record = GameRecord::parse("[Result \"0-1\"]\n\n1. d3 a5").expect("a record");
    assert_eq!(record.result, Some(Outcome::Win(Color::Black)));
    let game = record.to_game().expect("it replays");
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Win(Color::Black),
            reason: EndReason::Resignation
        }
    );
    let err = GameRecord::parse("[Result \"win\"]\n\n1. d3").unwrap_err();
    assert!(err.to_string().contains("Result tag win"), "{err}");
    // The rules ended the game (Black has nothing left): a tag that says otherwise is refused.
    let err = GameRecord::parse("[Position \"W:0:0:d4=W,e4=B\"]\n[Result \"0-1\"]\n\n1. d4xf4")
        .unwrap_err();
    assert!(
        err.to_string().contains("by the rules the game ended"),
        "{err}"
    );
}

#[test]
fn a_refused_move_is_said_for_a_person_with_its_number_and_a_few_legal_moves() {
    let err = GameRecord::parse("1. d3 zz").unwrap_err();
    let message = err.to_string();
    assert_eq!(err.line_column(), Some((1, 7)), "{message}");
    assert!(message.contains("move 1... 'zz'"), "{message}");
    assert!(message.contains("'zz' is not a square"), "{message}");
    assert!(!message.contains("column 1 "), "{message}");
    assert!(message.contains("(38 in all)"), "{message}");
    let listed = message.split("include ").nth(1).unwrap_or_default();
    assert_eq!(listed.matches(", ").count(), 6, "{message}");
    // R9.3: White's first man may not go on e5, and the message says so.
    let message = GameRecord::parse("1. d3 a5 2. f2 e1 3. d3")
        .unwrap_err()
        .to_string();
    assert!(message.contains("move 3. 'd3'"), "{message}");
    assert!(message.contains("not a legal move here"), "{message}");
    let message = GameRecord::parse("e5").unwrap_err().to_string();
    assert!(
        message.contains("move 1. 'e5'") && message.contains("R9.3"),
        "{message}"
    );
    // A game that starts with Black to move numbers Black's moves with dots.
    let message = GameRecord::parse("[Position \"B:11:12:d3=W\"]\n\n1... a5 2. zz")
        .unwrap_err()
        .to_string();
    assert!(message.contains("move 2. 'zz'"), "{message}");
}

#[test]
fn r10_moves_after_the_end_are_rejected() {
    let text = "[Position \"W:0:0:d4=W,e4=B\"]\n\n1. d4xf4 f4-f5 1-0\n";
    let err = GameRecord::parse(text).unwrap_err();
    assert!(
        err.to_string().contains("after the game has ended"),
        "{err}"
    );
}

#[test]
fn r10_4_a_result_on_an_unfinished_game_is_kept_as_resignation_or_agreement() {
    let cases = [
        (
            "1. d3 e1 0-1",
            Outcome::Win(Color::Black),
            EndReason::Resignation,
        ),
        (
            "[Termination \"time forfeit\"]\n\n1. d3 e1 1-0",
            Outcome::Win(Color::White),
            EndReason::Resignation,
        ),
        ("1. d3 1/2-1/2", Outcome::Draw, EndReason::Agreement),
    ];
    for (text, outcome, reason) in cases {
        let game = GameRecord::parse(text).unwrap().to_game().unwrap();
        assert_eq!(
            game.status(),
            Status::Finished { outcome, reason },
            "{text}"
        );
        let again = GameRecord::from_game(&game, &[]).to_string();
        assert!(again.trim_end().ends_with(outcome.token()), "{again}");
    }
    let open = GameRecord::parse("1. d3 e1 *").unwrap().to_game().unwrap();
    assert_eq!(open.status(), Status::Ongoing);
}

#[test]
fn r10_a_result_the_rules_contradict_is_rejected_where_it_stands() {
    // After d4xf4 Black has nothing left: White has won (R10.1).
    let start = "[Position \"W:0:0:d4=W,e4=B\"]\n\n1. d4xf4 ";
    for token in ["1-0", "*"] {
        let record = GameRecord::parse(&format!("{start}{token}\n")).unwrap();
        let game = record.to_game().unwrap();
        assert_eq!(
            game.status(),
            Status::Finished {
                outcome: Outcome::Win(Color::White),
                reason: EndReason::NoPieces
            }
        );
    }
    for token in ["0-1", "1/2-1/2"] {
        let err = GameRecord::parse(&format!("{start}{token}\n")).unwrap_err();
        assert_eq!(err.line_column(), Some((3, 10)), "{err}");
        assert!(err.to_string().contains("ended 1-0"), "{err}");
    }
}

#[test]
fn r10_4_only_resignation_and_agreement_are_declared() {
    let mut game = Game::default();
    for (outcome, reason) in [
        (Outcome::Draw, EndReason::Blocked),
        (Outcome::Win(Color::White), EndReason::NoPieces),
        (Outcome::Draw, EndReason::Repetition),
        (Outcome::Win(Color::Black), EndReason::Agreement),
        (Outcome::Draw, EndReason::Resignation),
    ] {
        assert!(
            matches!(
                game.declare(outcome, reason),
                Err(GameError::NotDeclarable { .. })
            ),
            "{outcome:?} {reason:?}"
        );
        assert_eq!(game.status(), Status::Ongoing);
    }
    game.declare(Outcome::Draw, EndReason::Agreement).unwrap();
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Draw,
            reason: EndReason::Agreement
        }
    );
}

#[test]
fn a_file_of_records_splits_at_each_first_tag_line() {
    let text = "\n[Event \"a\"]\n[Result \"*\"]\n\n1. d3 *\n\n[Event \"b\"]\n\n1. d3 e1\n2. f2 *";
    let records = split_records(text);
    let lines: Vec<usize> = records.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [2, 7]);
    assert!(records[1].1.starts_with("[Event \"b\"]"));
    let b = GameRecord::parse(records[1].1).unwrap();
    assert_eq!(b.moves.len(), 3);
    assert_eq!(split_records("1. d3 *\n").len(), 1, "a record without tags");
    assert!(split_records("\n \n").is_empty());
}

#[test]
fn a_fen_tag_from_another_program_is_the_start_and_is_written_back_with_position() {
    // As cutegames writes it: SetUp + FEN, Black to move.
    let text = "[Event \"cutegames\"]\n[SetUp \"1\"]\n[FEN \"B:11:12:d3=W\"]\n[Result \"*\"]\n\n\
                1... a5 2. f2 e1 *\n";
    let record = GameRecord::parse(text).unwrap();
    let start: Position = "B:11:12:d3=W".parse().unwrap();
    assert_eq!(record.start().unwrap(), start);
    let game = record.to_game().unwrap();
    assert_eq!(game.start(), &start);
    assert_eq!(game.moves().len(), 3);
    let written = GameRecord::from_game(&game, &[("Event", "cutegames")]).to_string();
    assert!(written.contains("[Position \"B:11:12:d3=W\"]"), "{written}");
    assert!(written.contains("[SetUp \"1\"]"), "{written}");
    assert!(written.contains("[FEN \"B:11:12:d3=W\"]"), "{written}");
    assert!(written.contains("1... a5 2. f2 e1 *"), "{written}");
    let back = GameRecord::parse(&written).unwrap().to_game().unwrap();
    assert_eq!(back.start(), game.start());
    assert_eq!(back.moves(), game.moves());
}

#[test]
fn a_fen_tag_may_say_startpos_and_may_repeat_the_position_tag() {
    let record = GameRecord::parse("[SetUp \"1\"]\n[FEN \"startpos\"]\n\n1. d3 *").unwrap();
    assert_eq!(record.start().unwrap(), Position::start());
    let both = "[Position \"B:11:12:d3=W\"]\n[FEN \"B:11:12:d3=W\"]\n\n1... a5 *";
    assert_eq!(GameRecord::parse(both).unwrap().moves.len(), 1);
}

#[test]
fn two_start_tags_that_disagree_are_refused_naming_both() {
    let text = "[Position \"W:12:12\"]\n[SetUp \"1\"]\n[FEN \"B:11:12:d3=W\"]\n\n1... a5 *";
    let err = GameRecord::parse(text).unwrap_err();
    assert_eq!(err.line_column(), Some((3, 1)), "{err}");
    let message = err.to_string();
    assert!(message.contains("Position tag \"W:12:12\""), "{message}");
    assert!(message.contains("FEN tag \"B:11:12:d3=W\""), "{message}");
    let bad = GameRecord::parse("[FEN \"W:13:0\"]\n*").unwrap_err();
    assert!(bad.to_string().contains("FEN tag"), "{bad}");
    // A record built in code is checked the same way when its start is asked for.
    let mut record = GameRecord::parse("[FEN \"startpos\"]\n\n*").unwrap();
    record.set_tag("Position", "B:11:12:d3=W");
    let err = record.start().unwrap_err();
    assert!(
        err.to_string().contains("different start positions"),
        "{err}"
    );
}

#[test]
fn records_over_a_cap_are_refused_naming_the_cap() {
    use emergo_core::{RecordLimit, RecordLimits};
    let limits = RecordLimits {
        tags: 2,
        tag_length: 8,
        comment_length: 5,
        plies: 2,
        variation_depth: 1,
        variation_moves: 3,
    };
    let cases = [
        ("[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n\n*", RecordLimit::Tags),
        ("[A \"123456789\"]\n\n*", RecordLimit::TagLength),
        ("1. d3 {123456} *", RecordLimit::CommentLength),
        ("1. d3 e1 2. d6 *", RecordLimit::Plies),
        ("1. d3 (1. d6 (1. f2)) *", RecordLimit::VariationDepth),
        ("1. d3 (1. d6 e1) (1. f2 a5) *", RecordLimit::VariationMoves),
    ];
    for (text, limit) in cases {
        let err = GameRecord::parse_within(text, limits).unwrap_err();
        assert_eq!(err.limit, Some(limit), "{text}: {err}");
        // Without caps, the same record reads.
        GameRecord::parse(text).unwrap();
    }
    let within = "[A \"1\"]\n[B \"12345678\"]\n\n1. d3 {12345} e1 *";
    assert_eq!(
        GameRecord::parse_within(within, limits).unwrap(),
        GameRecord::parse(within).unwrap()
    );
}

#[test]
fn many_tags_are_checked_for_twins_in_linear_time() {
    // 100,000 distinct tags, then a twin of the first: found, and quickly (a hash set).
    let mut text: String = (0..100_000).map(|i| format!("[T{i} \"v\"]\n")).collect();
    text.push_str("[T0 \"again\"]\n\n*");
    let err = GameRecord::parse(&text).unwrap_err();
    assert!(err.message.contains("T0 is given twice"), "{err}");
}

#[test]
fn replaying_a_record_names_the_ply_whose_move_fails() {
    let mut record = GameRecord::parse("1. d3 e1 2. f2 *").unwrap();
    // e1 is taken, so entering there again at ply 4 is illegal.
    record.moves.push(record.moves[1].clone());
    let err = record.to_game().unwrap_err();
    assert_eq!(err.at, emergo_core::RecordPlace::Ply(4), "{err}");
    assert!(
        err.to_string().starts_with("game record, ply 4: move e1"),
        "{err}"
    );
    assert_eq!(err.line_column(), None);
}

#[test]
fn a_record_result_is_an_outcome_or_none_for_a_star() {
    let open = GameRecord::parse("1. d3 e1 *").unwrap();
    assert_eq!(open.result, None);
    let won = GameRecord::parse("1. d3 e1 1-0").unwrap();
    assert_eq!(won.result, Some(Outcome::Win(Color::White)));
    assert!(won.to_string().trim_end().ends_with("1-0"));
}

const VARIATIONS: &str = r#"[Event "Study"]
[Result "*"]

{Both sides enter.} 1. d3 (1. d6 e1 {the other reply} (1... a5 2. f2)) 1... a5
2. f2 {a quiet move} (2. d6) (2. e1 {also}) 2... e1 *
"#;

#[test]
fn variations_and_comments_read_and_write_back_unchanged() {
    let record = GameRecord::parse(VARIATIONS).unwrap();
    let texts =
        |moves: &[RecordMove]| -> Vec<String> { moves.iter().map(|m| m.mv.to_string()).collect() };
    assert_eq!(texts(&record.moves), ["d3", "a5", "f2", "e1"]);
    let d3 = &record.moves[0];
    assert_eq!(d3.variations.len(), 1);
    let line = &d3.variations[0];
    assert_eq!(texts(line), ["d6", "e1"]);
    assert_eq!(line[1].comment.as_deref(), Some("the other reply"));
    assert_eq!(texts(&line[1].variations[0]), ["a5", "f2"]);
    let f2 = &record.moves[2];
    assert_eq!(f2.comment.as_deref(), Some("a quiet move"));
    assert_eq!(f2.variations.len(), 2);
    assert_eq!(f2.variations[1][0].comment.as_deref(), Some("also"));
    assert_eq!(record.to_string(), VARIATIONS);
    assert_eq!(GameRecord::parse(&record.to_string()).unwrap(), record);
}

#[test]
fn the_main_line_is_what_replays_the_game() {
    let record = GameRecord::parse(VARIATIONS).unwrap();
    let game = record.to_game().unwrap();
    let played: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(played, ["d3", "a5", "f2", "e1"]);
}

#[test]
fn a_variation_starts_from_the_position_before_the_move_it_follows() {
    // The variation replaces d3, so d3 is free again in it.
    let record = GameRecord::parse("1. d3 (1. d3 e1) 1... e1 *").unwrap();
    assert_eq!(record.moves[0].variations[0][0].mv, record.moves[0].mv);
    // The variation replaces e1: Black moves, and d3 is taken.
    let err = GameRecord::parse("1. d3 e1 (1... d3) *").unwrap_err();
    assert_eq!(err.line_column(), Some((1, 16)), "{err}");
    assert!(err.to_string().contains("legal moves here"), "{err}");
}

#[test]
fn bad_variations_are_rejected_with_line_and_column() {
    let cases: [(&str, usize, usize, &str); 7] = [
        ("1. d3 (1. d6\ne1", 1, 7, "not closed with ')'"),
        ("1. d3 () *", 1, 7, "empty variation"),
        ("(1. d3) *", 1, 1, "before any move"),
        ("1. d3 ) *", 1, 7, "closes no variation"),
        ("1. d3 (1. d6 *) *", 1, 14, "inside a variation"),
        (
            "1. d3 ({why} 1. d6) *",
            1,
            8,
            "before a variation's first move",
        ),
        ("1. d3 (1. d6 e1 2. zz) *", 1, 20, "not a square"),
    ];
    for (text, line, column, needle) in cases {
        let err = GameRecord::parse(text).unwrap_err();
        assert_eq!(err.line_column(), Some((line, column)), "{text:?}: {err}");
        assert!(err.to_string().contains(needle), "{text:?}: {err}");
    }
}

/// Plays a random line from `game` of up to `length` moves, each with a comment or variations
/// now and then, drawn from `choices`.
fn random_line(
    game: &mut Game,
    choices: &mut impl Iterator<Item = u16>,
    length: usize,
    depth: usize,
) -> Vec<RecordMove> {
    let mut moves = Vec::new();
    for _ in 0..length {
        let Some(c) = choices.next() else { break };
        if game.is_over() {
            break;
        }
        let legal = game.position().legal_moves();
        let mut m = RecordMove::new(legal[c as usize % legal.len()]);
        if c % 5 == 0 {
            m.comment = Some(format!("note {c} (with parentheses)"));
        }
        if depth < 3 && c % 7 == 0 {
            for _ in 0..1 + c % 2 {
                m.variations
                    .push(random_line(&mut game.clone(), choices, 4, depth + 1));
            }
            m.variations.retain(|v| !v.is_empty());
        }
        game.play(m.mv).unwrap();
        moves.push(m);
    }
    moves
}

proptest::proptest! {
    #[test]
    fn records_with_variations_read_back_what_was_written(
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..300)
    ) {
        let mut game = Game::default();
        let mut choices = choices.into_iter();
        let moves = random_line(&mut game, &mut choices, 80, 0);
        let mut record = GameRecord::from_game(&game, &[("Event", "proptest")]);
        record.moves = moves;
        let text = record.to_string();
        let back = GameRecord::parse(&text).unwrap();
        proptest::prop_assert_eq!(&back, &record);
        proptest::prop_assert_eq!(back.to_string(), text);
        let replayed = back.to_game().unwrap();
        proptest::prop_assert_eq!(replayed.moves(), game.moves());
    }
}

#[test]
fn a_move_written_against_its_number_reads_as_the_move() {
    // Issue 18 item 6: `1.d3` (no space after the number) was refused as a move.
    for text in ["1.d3 a5 2.f2 *", "1.d3 1...a5 2.f2", "1. d3 a5 2.f2 *"] {
        let record = GameRecord::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["d3", "a5", "f2"], "{text:?}");
    }
    // A refused move written so is found where its move stands, and says why.
    let err = GameRecord::parse("1.d3 a5 2.zz").unwrap_err();
    assert_eq!(err.line_column(), Some((1, 11)), "{err}");
    assert!(err.to_string().contains("move 2. 'zz'"), "{err}");
    // Numbers alone and results are still what they were.
    let record = GameRecord::parse("1. d3 1-0").expect("a record");
    assert_eq!(record.result, Some(Outcome::Win(Color::White)));
    assert!(
        GameRecord::parse("1..d3").is_err(),
        "two dots are no move number"
    );
}

#[test]
fn r9_3_a_refused_entry_on_the_centre_names_its_rule_for_a_reader() {
    let err = GameRecord::parse("1. e5").unwrap_err();
    assert_eq!(
        err.refusal,
        Some(emergo_core::Refusal::FirstEntryOnCentre {
            centre: emergo_core::SquareName(*b"e5")
        })
    );
    assert_eq!(
        err.refusal.map(|r| (r.name(), r.rule())),
        Some(("first_entry_on_centre", "R9.3"))
    );
    let err = GameRecord::parse("1. zz").unwrap_err();
    assert_eq!(err.refusal, None, "a word that is no move breaks no rule");
}
