//! One test (or a few) per rule of RULES.md, named after the rule it checks.

use emergo_core::notation::PositionTextErrorKind;
use emergo_core::{
    Color, Column, EndReason, Game, GameError, Move, Outcome, Phase, Position, PositionError,
    Square, Status,
};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sorted_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(Move::to_string).collect();
    v.sort();
    v
}

fn after(p: &Position, text: &str) -> Position {
    let mv = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{p} {text}: {e}"));
    p.play(mv).unwrap_or_else(|e| panic!("{e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

#[test]
fn worked_example_from_the_rules_move_by_move() {
    let start = pos("W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB");
    assert!(start.legal_moves().iter().all(|m| !m.is_capture()));
    // 1. White steps f4-e4.
    let p1 = after(&start, "f4-e4");
    // 2. R7.3: Black must take two men; the single capture by e5 is illegal.
    assert_eq!(sorted_moves(&p1), vec!["h4xf4xd4"]);
    assert!(p1.parse_move("e5xe3").is_err());
    let p2 = after(&p1, "h4xf4xd4");
    // 3. White must take five men, passing its own start square and jumping d4 twice.
    assert_eq!(sorted_moves(&p2), vec!["e4xc4xc6xe6xe4xc4"]);
    assert!(p2.parse_move("e4xe6xc6xc4xe4").is_err(), "takes only four");
    let p3 = after(&p2, "e4xc4xc6xe6xe4xc4");
    // 4. c4 holds three White men over five Black; d4 holds two liberated White men.
    assert_eq!(
        p3.column(sq("c4")),
        Some(Column {
            owner: Color::White,
            men: 3,
            prisoners: 5
        })
    );
    assert_eq!(
        p3.column(sq("d4")),
        Some(Column {
            owner: Color::White,
            men: 2,
            prisoners: 0
        })
    );
    assert_eq!(p3.to_string(), "B:0:0:c4=WWWBBBBB,d4=WW");
}

#[test]
fn r2_the_game_starts_with_an_empty_board_twelve_men_in_hand_and_white_to_move() {
    let p = Position::start();
    assert_eq!(p.to_string(), "W:12:12");
    assert_eq!(p.turn(), Color::White);
    assert_eq!(p.hand(Color::White), 12);
    assert_eq!(p.hand(Color::Black), 12);
    assert_eq!(p.columns().count(), 0);
}

#[test]
fn r3_columns_have_at_most_two_layers() {
    let err = "W:0:0:e5=WBW".parse::<Position>().unwrap_err();
    assert!(
        matches!(err.kind, PositionTextErrorKind::MoreThanTwoLayers(_)),
        "{err}"
    );
    let p = pos("W:0:0:e5=WWBBB");
    assert_eq!(
        p.column(Square::E5),
        Some(Column {
            owner: Color::White,
            men: 2,
            prisoners: 3
        })
    );
}

#[test]
fn r4_there_is_no_pass_and_every_move_is_one_kind() {
    // A position with steps available offers only steps, and no empty list.
    let p = pos("W:0:0:a5=W,i5=B");
    let moves = p.legal_moves();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| matches!(m, Move::Step { .. })));
}

#[test]
fn r5_1_capture_is_compulsory_also_while_entering() {
    // White has men in hand, yet must capture e5 from e4.
    let p = pos("W:5:5:e4=W,e5=B");
    assert_eq!(sorted_moves(&p), vec!["e4xe6"]);
}

#[test]
fn r5_2_with_men_in_hand_a_side_enters_and_may_not_step() {
    let p = pos("W:1:0:a5=W,i5=B");
    assert!(p.legal_moves().iter().all(|m| matches!(m, Move::Enter(_))));
    assert!(p.parse_move("a5-b5").is_err());
}

#[test]
fn r5_3_with_no_capture_and_no_men_in_hand_a_side_steps() {
    let p = pos("W:0:3:e5=W,a5=B");
    assert_eq!(sorted_moves(&p), vec!["e5-d5", "e5-e4", "e5-e6", "e5-f5"]);
}

#[test]
fn r5_phase_is_capture_first_then_enter_then_step() {
    assert_eq!(pos("W:5:5:e4=W,e5=B").phase(), Phase::Capture);
    assert_eq!(pos("W:1:0:a5=W,i5=B").phase(), Phase::Enter);
    assert_eq!(pos("W:0:3:e5=W,a5=B").phase(), Phase::Step);
    assert_eq!(Position::start().phase(), Phase::Enter);
    for phase in Phase::ALL {
        assert_eq!(phase.to_string().parse::<Phase>(), Ok(phase));
    }
    assert_eq!(
        ["capture", "enter", "step"].map(|w| w.parse::<Phase>().ok()),
        [Some(Phase::Capture), Some(Phase::Enter), Some(Phase::Step)]
    );
    assert!("Capture".parse::<Phase>().is_err());
}

#[test]
fn r6_a_jump_takes_only_the_top_man_to_the_bottom_of_the_capturer() {
    let p = after(&pos("W:0:0:d4=WW,e4=BBB"), "d4xf4");
    assert_eq!(p.to_string(), "B:0:0:e4=BB,f4=WWB");
}

#[test]
fn r6_men_under_the_taken_man_are_liberated() {
    let p = after(&pos("W:0:0:d4=WW,e4=BW"), "d4xf4");
    assert_eq!(p.to_string(), "B:0:0:e4=W,f4=WWB");
}

#[test]
fn r6_jumping_a_single_man_empties_its_square() {
    let p = after(&pos("W:0:0:d4=W,e4=B"), "d4xf4");
    assert_eq!(p.to_string(), "B:0:0:f4=WB");
}

#[test]
fn r6_a_jump_needs_an_empty_landing_square_on_the_board() {
    // Nothing lies beyond e1 seen from e2; d4 beyond d3 is occupied.
    let p = pos("W:0:0:d2=W,d3=B,d4=B,e1=B,e2=W");
    assert!(p.legal_moves().iter().all(|m| !m.is_capture()));
}

#[test]
fn r7_1_a_capture_goes_on_while_it_can_but_never_turns_back() {
    // After e4xe6 over e5, jumping back over e5 (rejumpable: two men) would be a 180° turn.
    let p = pos("W:0:0:e4=W,e5=BB");
    assert_eq!(sorted_moves(&p), vec!["e4xe6"]);
    // Going on is compulsory: d6 can be taken after landing on e6.
    let p = pos("W:0:0:e4=W,e5=B,d6=B");
    assert_eq!(sorted_moves(&p), vec!["e4xe6xc6"]);
}

#[test]
fn r7_2_a_column_may_be_jumped_twice_and_the_start_square_passed() {
    let p = pos("W:0:0:c5=B,d4=BB,d6=B,e4=W,e5=B");
    let moves = sorted_moves(&p);
    assert!(
        moves.contains(&"e4xc4xc6xe6xe4xc4".to_string()),
        "{moves:?}"
    );
    assert!(moves.iter().all(|m| m.len() == "e4xc4xc6xe6xe4xc4".len()));
}

#[test]
fn r7_3_only_the_greatest_captures_of_all_columns_are_legal() {
    let p = pos("B:0:0:c5=B,d6=B,e4=WWWW,e5=B,g4=W,h4=BB");
    assert_eq!(sorted_moves(&p), vec!["h4xf4xd4"]);
}

#[test]
fn r7_4_two_routes_to_the_same_position_are_two_moves() {
    let p = pos("W:0:0:c5=B,d4=B,d6=B,e4=W,e5=B");
    assert_eq!(sorted_moves(&p), vec!["e4xc4xc6xe6xe4", "e4xe6xc6xc4xe4"]);
    let a = after(&p, "e4xc4xc6xe6xe4");
    let b = after(&p, "e4xe6xc6xc4xe4");
    assert_eq!(a, b);
    assert_eq!(emergo_core::perft::perft(&p, 1), 2);
}

#[test]
fn r8_a_step_moves_the_whole_column_to_an_adjacent_empty_square() {
    let p = after(&pos("W:0:0:e5=WWB,a5=B"), "e5-e6");
    assert_eq!(p.to_string(), "B:0:0:a5=B,e6=WWB");
    assert!(pos("W:0:0:e5=W,e6=W,a5=B").parse_move("e5-e6").is_err());
}

#[test]
fn r9_1_an_entry_places_a_man_on_an_empty_square() {
    let p = pos("B:11:12:d3=W");
    assert!(p.parse_move("d3").is_err());
    assert_eq!(after(&p, "a5").to_string(), "W:11:11:a5=B,d3=W");
}

#[test]
fn r9_2_with_the_opponent_out_of_men_the_whole_hand_enters_as_the_shadowpiece() {
    let p = pos("B:0:5:e5=W");
    assert!(p.shadowpiece_pending());
    assert_eq!(p.entry_size(), 5);
    assert_eq!(after(&p, "a5").to_string(), "W:0:0:a5=BBBBB,e5=W");
}

#[test]
fn r9_3_whites_first_move_may_not_be_on_e5() {
    let moves = sorted_moves(&Position::start());
    assert_eq!(moves.len(), 40);
    assert!(!moves.contains(&"e5".to_string()));
    assert!(!sorted_moves(&pos("W:5:5")).contains(&"e5".to_string()));
    assert!(sorted_moves(&pos("B:5:5")).contains(&"e5".to_string()));
}

#[test]
fn r9_4_no_entry_where_the_opponent_could_capture_it() {
    // Next to d3: d4 and e3 have an empty square beyond; d2 and c3 lie at the edge.
    let moves = sorted_moves(&pos("B:11:12:d3=W"));
    for forbidden in ["d4", "e3"] {
        assert!(!moves.contains(&forbidden.to_string()), "{forbidden}");
    }
    for allowed in ["d2", "c3", "d5", "f3"] {
        assert!(moves.contains(&allowed.to_string()), "{allowed}");
    }
}

#[test]
fn r9_4_the_entry_condition_lapses_when_the_opponent_can_already_capture() {
    // White can take e4 (e3xe5); Black cannot capture; so every empty square is open.
    let p = pos("B:5:5:e2=W,e3=W,e4=B");
    assert!(p.can_capture(Color::White) && !p.can_capture(Color::Black));
    assert_eq!(p.legal_moves().len(), 38);
    assert!(sorted_moves(&p).contains(&"f3".to_string()));
}

#[test]
fn r9_5_without_captures_entering_ends_on_ply_24_and_white_steps_next() {
    let mut p = Position::start();
    for ply in 1..=24 {
        let quiet = p
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let next = p.play(m).unwrap();
                !next.can_capture(Color::White) && !next.can_capture(Color::Black)
            })
            .unwrap_or_else(|| panic!("no quiet entry at ply {ply}"));
        assert!(matches!(quiet, Move::Enter(_)));
        p.play_unchecked(quiet);
    }
    assert_eq!((p.hand(Color::White), p.hand(Color::Black)), (0, 0));
    assert_eq!(p.turn(), Color::White);
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| matches!(m, Move::Step { .. })));
}

#[test]
fn r10_1_a_side_with_no_column_and_no_men_in_hand_loses() {
    let mut game = Game::new(pos("W:0:0:d4=W,e4=B"));
    game.play_text("d4xf4").unwrap();
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Win(Color::White),
            reason: EndReason::NoPieces
        }
    );
    assert!(game.play_text("f4-f5").is_err());
}

#[test]
fn r10_2_a_side_with_no_legal_move_draws() {
    let game = Game::new(pos("W:0:0:e1=W,e2=B,f2=B,e3=B,g3=B"));
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Draw,
            reason: EndReason::Blocked
        }
    );
}

#[test]
fn r10_3_the_third_occurrence_of_a_position_is_a_draw() {
    let mut game = Game::new(pos("W:0:0:a5=W,i5=B"));
    for (i, m) in ["a5-b5", "i5-h5", "b5-a5", "h5-i5"]
        .iter()
        .cycle()
        .take(8)
        .enumerate()
    {
        assert_eq!(game.status(), Status::Ongoing, "before ply {}", i + 1);
        game.play_text(m).unwrap();
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Draw,
            reason: EndReason::Repetition
        }
    );
    game.undo();
    assert_eq!(game.status(), Status::Ongoing);
}

#[test]
fn r10_4_resignation_and_agreement_end_the_game() {
    let mut game = Game::default();
    game.resign(Color::White).unwrap();
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Win(Color::Black),
            reason: EndReason::Resignation
        }
    );
    assert!(game.play_text("d3").is_err());
    let mut game = Game::default();
    game.agree_draw().unwrap();
    assert!(game.agree_draw().is_err());
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Draw,
            reason: EndReason::Agreement
        }
    );
}

/// Not a rule but beside R10.4: a clock's endings are declared like a resignation (a win or,
/// when the winner has nothing to win with, a draw on time; an abort counts as a draw), and
/// R10.1's "owns a column or has men in hand" is `has_material`, for either side.
#[test]
fn r10_4_clock_endings_are_declared_and_r10_1_material_is_asked_per_side() {
    let mut game = Game::default();
    game.declare(Outcome::Win(Color::Black), EndReason::Time)
        .unwrap();
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Win(Color::Black),
            reason: EndReason::Time
        }
    );
    assert!(game.play_text("d3").is_err());
    let mut game = Game::default();
    assert!(game
        .declare(Outcome::Win(Color::White), EndReason::Aborted)
        .is_err());
    game.declare(Outcome::Draw, EndReason::Aborted).unwrap();
    assert_eq!("aborted".parse::<EndReason>(), Ok(EndReason::Aborted));
    // A tournament's absent player loses; an absence is never a draw.
    let mut absent = Game::default();
    assert!(absent.declare(Outcome::Draw, EndReason::Absent).is_err());
    absent
        .declare(Outcome::Win(Color::Black), EndReason::Absent)
        .unwrap();
    assert_eq!("absent".parse::<EndReason>(), Ok(EndReason::Absent));
    assert_eq!("time".parse::<EndReason>(), Ok(EndReason::Time));
    let p = pos("B:0:0:e5=WB");
    assert!(p.has_material(Color::White));
    assert!(!p.has_material(Color::Black));
    assert!(p.is_lost());
    let p = pos("W:0:1:e5=W");
    assert!(p.has_material(Color::Black));
}

#[test]
fn n1_moves_are_read_in_every_accepted_form_and_written_in_one() {
    let p = pos("W:0:0:c5=B,d4=BB,d6=B,e4=W,e5=B");
    let canonical = p.parse_move("e4xc4xc6xe6xe4xc4").unwrap();
    for text in [
        "E4XC4XC6XE6XE4XC4",
        "e4-c4-c6-e6-e4-c4",
        "e4xc4-c6xe6xe4xc4",
    ] {
        assert_eq!(p.parse_move(text).unwrap(), canonical, "{text}");
    }
    assert_eq!(canonical.to_string(), "e4xc4xc6xe6xe4xc4");
    let step_pos = pos("W:0:0:e5=W,a5=B");
    assert_eq!(step_pos.parse_move("E5-E6").unwrap().to_string(), "e5-e6");
    assert!(
        step_pos.parse_move("e5xe6").is_err(),
        "x marks only captures"
    );
}

#[test]
fn n1_bad_move_text_says_what_is_wrong() {
    let p = Position::start();
    let cases = [
        ("", "empty"),
        ("z9", "not a square"),
        ("e5e6", "expected '-' or 'x'"),
        ("e5-", "not a square"),
        ("e5", "not a legal move"),
        ("a1", "not a square"),
    ];
    for (text, needle) in cases {
        let err = p.parse_move(text).unwrap_err().to_string();
        assert!(err.contains(needle), "{text:?}: {err}");
    }
}

#[test]
fn n2_position_text_round_trips_and_lists_squares_in_byte_order() {
    let p = pos("B:4:6:e5=B,c4=WWWBBBBB");
    assert_eq!(p.to_string(), "B:4:6:c4=WWWBBBBB,e5=B");
}

#[test]
fn n2_bad_position_text_says_what_is_wrong_and_where() {
    let cases: [(&str, usize, &str); 9] = [
        ("", 1, "empty"),
        ("X:12:12", 1, "W or B"),
        ("W:12", 5, "Black's men in hand"),
        ("W:13:0", 3, "0 to 12"),
        ("W:0:0:z9=W", 7, "not a square"),
        ("W:0:0:e5=W,e5=B", 12, "twice"),
        ("W:0:0:e5=", 10, "empty"),
        ("W:0:0:e5=WBW", 12, "two layers"),
        ("W:0:0:e5=WX", 11, "not W or B"),
    ];
    for (text, column, needle) in cases {
        let err = text.parse::<Position>().unwrap_err();
        assert_eq!(err.column, column, "{text:?}: {err}");
        assert!(err.to_string().contains(needle), "{text:?}: {err}");
    }
    let err = "W:12:0:e5=WWWW".parse::<Position>().unwrap_err();
    assert!(matches!(
        err.kind,
        PositionTextErrorKind::Impossible(PositionError::TooManyMen {
            color: Color::White,
            count: 16,
            most: 12
        })
    ));
}

#[test]
fn r4_an_illegal_move_is_a_play_error_that_gives_the_position_back() {
    let p = Position::start();
    let e5 = Move::Enter(Square::E5);
    let err = p.play(e5).unwrap_err();
    assert_eq!(err.mv, e5);
    assert_eq!(err.position, p);
    assert_eq!(err.to_string(), "e5 is not a legal move in W:12:12");
    let mut game = Game::new(p);
    assert!(matches!(game.play(e5), Err(GameError::Illegal(e)) if e.mv == e5));
    assert_eq!(game.ply(), 0);
}

#[test]
fn r10_3_undo_takes_a_position_out_of_the_count() {
    let mut game = Game::new(pos("W:0:0:a5=W,i5=B"));
    for m in ["a5-b5", "i5-h5", "b5-a5", "h5-i5"].iter().cycle().take(8) {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.repetitions(), 3);
    assert!(game.is_over());
    game.undo();
    assert_eq!(
        game.repetitions(),
        2,
        "the position after ply 7 was seen after ply 3"
    );
    assert!(!game.is_over());
    game.play_text("h5-i5").unwrap();
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Draw,
            reason: EndReason::Repetition
        }
    );
}
