//! HexEmergo (RULES-hex.md) and Emergo 7×7 (RULES-7x7.md), named after the rules they check:
//! the geometry of R1, the worked examples move by move, the R9.4 and shadowpiece counts, perft
//! from the start, and the shared data of an independent implementation (tests/data/variants:
//! every position of 60 random games per board with its legal moves, and the games).

use emergo_core::board::Square;
use emergo_core::game::{Game, GameError};
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::record::GameRecord;
use emergo_core::{
    perft::perft, playout::play_games_on, record_variant, Color, Column, Direction, Emergo,
    Emergo7x7, EndReason, HexEmergo, Outcome, Phase, Refusal, SquareName, Status, Variant,
    VariantKind,
};

const HEX_POSITIONS: &str = include_str!("../data/variants/hex-positions.tsv");
const HEX_GAMES: &str = include_str!("../data/variants/hex-games.tsv");
const SEVEN_POSITIONS: &str = include_str!("../data/variants/7x7-positions.tsv");
const SEVEN_GAMES: &str = include_str!("../data/variants/7x7-games.tsv");

fn pos<V: Variant>(text: &str) -> Position<V> {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sorted_moves<V: Variant>(p: &Position<V>) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(Move::to_string).collect();
    v.sort();
    v
}

fn after<V: Variant>(p: &Position<V>, text: &str) -> Position<V> {
    let mv = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{p} {text}: {e}"));
    p.play(mv).unwrap_or_else(|e| panic!("{e}"))
}

fn sq<V: Variant>(name: &str) -> Square<V> {
    Square::parse(name).unwrap_or_else(|| panic!("{name}"))
}

fn names<V: Variant>(squares: impl IntoIterator<Item = Square<V>>) -> Vec<String> {
    let mut v: Vec<String> = squares.into_iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Neighbours, and jump landings with the jumped cell in brackets, as the rules pages list them.
fn neighbours_and_jumps<V: Variant>(name: &str) -> (String, String) {
    let s = sq::<V>(name);
    let dirs: &[Direction] = if V::KIND == VariantKind::HexEmergo {
        &Direction::HEX
    } else {
        &Direction::ALL
    };
    let next = names(dirs.iter().filter_map(|&d| s.neighbour(d))).join(" ");
    let mut jumps: Vec<String> = dirs
        .iter()
        .filter_map(|&d| {
            let over = s.neighbour(d)?;
            Some(format!("{} ({over})", over.neighbour(d)?))
        })
        .collect();
    jumps.sort();
    (next, jumps.join(", "))
}

// ---------------------------------------------------------------------------------------------
// R1 and N2: the boards

#[test]
fn hex_r1_there_are_37_cells_named_by_letter_and_row() {
    let cells = names(Square::<HexEmergo>::all());
    assert_eq!(cells.len(), 37);
    let by_letter = "a1 a2 a3 a4 b1 b2 b3 b4 b5 c1 c2 c3 c4 c5 c6 d1 d2 d3 d4 d5 d6 d7 \
                     e2 e3 e4 e5 e6 e7 f3 f4 f5 f6 f7 g4 g5 g6 g7";
    assert_eq!(cells.join(" "), by_letter);
    assert_eq!(Square::<HexEmergo>::CENTRE.to_string(), "d4");
    for bad in ["a5", "e1", "g3", "h4", "d8", "d0"] {
        assert_eq!(Square::<HexEmergo>::parse(bad), None, "{bad}");
    }
}

#[test]
fn hex_r1_neighbours_and_jumps_are_the_pages_examples() {
    let cases = [
        (
            "d4",
            "c3 c4 d3 d5 e4 e5",
            "b2 (c3), b4 (c4), d2 (d3), d6 (d5), f4 (e4), f6 (e5)",
        ),
        ("a1", "a2 b1 b2", "a3 (a2), c1 (b1), c3 (b2)"),
        ("b1", "a1 b2 c1 c2", "b3 (b2), d1 (c1), d3 (c2)"),
        (
            "c3",
            "b2 b3 c2 c4 d3 d4",
            "a1 (b2), a3 (b3), c1 (c2), c5 (c4), e3 (d3), e5 (d4)",
        ),
        (
            "e6",
            "d5 d6 e5 e7 f6 f7",
            "c4 (d5), c6 (d6), e4 (e5), g6 (f6)",
        ),
        ("g7", "f6 f7 g6", "e5 (f6), e7 (f7), g5 (g6)"),
    ];
    for (cell, next, jumps) in cases {
        assert_eq!(
            neighbours_and_jumps::<HexEmergo>(cell),
            (next.to_string(), jumps.to_string()),
            "{cell}"
        );
    }
}

#[test]
fn hex_r1_corners_have_3_neighbours_edges_4_inner_cells_6_and_there_are_90_pairs() {
    let mut by_count = [0usize; 7];
    let mut pairs = 0;
    for s in Square::<HexEmergo>::all() {
        let n = Direction::HEX
            .iter()
            .filter(|&&d| s.neighbour(d).is_some())
            .count();
        by_count[n] += 1;
        pairs += n;
        for d in Direction::HEX {
            if let Some(t) = s.neighbour(d) {
                assert_eq!(t.neighbour(d.opposite()), Some(s), "{s} {d:?}");
            }
        }
    }
    assert_eq!(by_count, [0, 0, 0, 6, 12, 0, 19]);
    assert_eq!(pairs / 2, 90);
    let corners: Vec<String> = names(Square::<HexEmergo>::all().filter(|s| {
        Direction::HEX
            .iter()
            .filter(|&&d| s.neighbour(d).is_some())
            .count()
            == 3
    }));
    assert_eq!(corners, ["a1", "a4", "d1", "d7", "g4", "g7"]);
}

#[test]
fn seven_r1_there_are_25_squares_on_the_checkerboard_with_the_pages_neighbours() {
    let cells = names(Square::<Emergo7x7>::all());
    assert_eq!(
        cells.join(" "),
        "a4 b3 b4 b5 c2 c3 c4 c5 c6 d1 d2 d3 d4 d5 d6 d7 e2 e3 e4 e5 e6 f3 f4 f5 g4"
    );
    assert_eq!(Square::<Emergo7x7>::CENTRE.to_string(), "d4");
    assert_eq!(sq::<Emergo7x7>("d1").xy(), (1, 1));
    assert_eq!(sq::<Emergo7x7>("a4").xy(), (1, 7));
    assert_eq!(sq::<Emergo7x7>("d7").xy(), (7, 7));
    assert_eq!(sq::<Emergo7x7>("g4").xy(), (7, 1));
    let cases = [
        ("d4", "c4 d3 d5 e4", "b4 (c4), d2 (d3), d6 (d5), f4 (e4)"),
        ("a4", "b4", "c4 (b4)"),
        ("d1", "d2", "d3 (d2)"),
        ("b5", "b4 c5", "b3 (b4), d5 (c5)"),
        ("c3", "b3 c2 c4 d3", "c5 (c4), e3 (d3)"),
    ];
    for (cell, next, jumps) in cases {
        assert_eq!(
            neighbours_and_jumps::<Emergo7x7>(cell),
            (next.to_string(), jumps.to_string()),
            "{cell}"
        );
    }
    let mut by_count = [0usize; 5];
    for s in Square::<Emergo7x7>::all() {
        by_count[Direction::ALL
            .iter()
            .filter(|&&d| s.neighbour(d).is_some())
            .count()] += 1;
    }
    assert_eq!(by_count, [0, 4, 8, 0, 13]);
}

#[test]
fn hex_n2_lists_cells_in_byte_order_of_their_names_and_reads_any_order() {
    let p = pos::<HexEmergo>("B:0:0:f5=WWWBBBBB,e3=WW");
    assert_eq!(p.to_string(), "B:0:0:e3=WW,f5=WWWBBBBB");
    let q = pos::<HexEmergo>("W:0:0:g7=B,a1=W,d4=BW,b5=W");
    assert_eq!(q.to_string(), "W:0:0:a1=W,b5=W,d4=BW,g7=B");
    assert_eq!(Position::<HexEmergo>::start().to_string(), "W:12:12");
    assert_eq!(Position::<Emergo7x7>::start().to_string(), "W:8:8");
}

#[test]
fn n2_refuses_cells_of_another_board_and_too_many_men_for_the_7x7_board() {
    let e = "W:0:0:e1=W".parse::<Position<HexEmergo>>().unwrap_err();
    assert!(e.to_string().contains("'e1' is not a square"), "{e}");
    assert!("W:0:0:a5=W".parse::<Position<Emergo7x7>>().is_err());
    assert!("W:0:0:a4=W".parse::<Position<Emergo>>().is_err());
    let e = "W:9:8".parse::<Position<Emergo7x7>>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad position text at column 1: white has 9 men (board and hand); at most 8"
    );
    assert!("W:12:12".parse::<Position<HexEmergo>>().is_ok());
}

#[test]
fn n1_hex_moves_read_upper_case_and_dashes_in_captures() {
    let p = pos::<HexEmergo>("B:0:0:a3=BB,b3=W,d3=WWW");
    assert_eq!(sorted_moves(&p), ["a3xc3xe3"]);
    assert_eq!(
        p.parse_move("A3-C3-E3").map(|m| m.to_string()).ok(),
        Some("a3xc3xe3".into())
    );
    let q = pos::<HexEmergo>("W:0:0:c3=W,g7=B");
    assert!(q.parse_move("C3-D3").is_ok());
    let e = q.parse_move("e1-e2").unwrap_err();
    assert!(e.to_string().contains("squares are a1..a4"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// R5–R10 on the hexagon

#[test]
fn hex_worked_example_from_the_readme_move_by_move() {
    let start = pos::<HexEmergo>("W:0:0:a3=BB,b3=W,c3=WWWW,e4=B,f4=BB");
    // 1. White steps c3-d3.
    let p1 = after(&start, "c3-d3");
    // 2. Black's only legal move takes two men.
    assert_eq!(sorted_moves(&p1), ["a3xc3xe3"]);
    let p2 = after(&p1, "a3xc3xe3");
    assert_eq!(p2.to_string(), "W:0:0:d3=WWW,e3=BBWW,e4=B,f4=BB");
    // 3. R7.3: of the five-man and the three-man sequences only the first is legal.
    assert_eq!(sorted_moves(&p2), ["d3xf3xf5xd3xf3xf5"]);
    let refused = p2.parse_move("d3xf5xf3xd3").unwrap_err();
    assert!(refused.to_string().contains("majority rule"), "{refused}");
    let p3 = after(&p2, "d3xf3xf5xd3xf3xf5");
    // 4. f5 holds three White men over five Black, e3 two liberated White men; Black loses.
    assert_eq!(p3.to_string(), "B:0:0:e3=WW,f5=WWWBBBBB");
    assert_eq!(
        p3.column(sq("f5")),
        Some(Column {
            owner: Color::White,
            men: 3,
            prisoners: 5
        })
    );
    let mut game = Game::new(start);
    for m in ["c3-d3", "a3xc3xe3", "d3xf3xf5xd3xf3xf5"] {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    assert_eq!(
        game.status(),
        Status::Finished {
            outcome: Outcome::Win(Color::White),
            reason: EndReason::NoPieces
        }
    );
}

#[test]
fn hex_r7_1_equal_sequences_are_a_free_choice_and_the_180_degree_turn_is_banned() {
    let p = pos::<HexEmergo>("W:0:0:d4=W,e4=BB,e5=B");
    assert_eq!(sorted_moves(&p), ["d4xf4", "d4xf6"]);
    assert!(p.parse_move("d4xf4xd4xf6").is_err());
}

#[test]
fn hex_r9_3_whites_first_man_may_not_go_on_d4() {
    let start = Position::<HexEmergo>::start();
    assert_eq!(start.legal_moves().len(), 36);
    let e = start.parse_move("d4").unwrap_err();
    assert_eq!(
        e.to_string(),
        "d4 is not a legal move here: White's first man may not be entered on the centre, d4 (R9.3)"
    );
    assert!(matches!(
        e,
        emergo_core::MoveError::NoLegalMatch {
            reason: Refusal::FirstEntryOnCentre { centre: SquareName(c) },
            ..
        } if &c == b"d4"
    ));
    // Black may answer on d4.
    assert!(after(&start, "g7").parse_move("d4").is_ok());
}

#[test]
fn hex_r9_4_entry_condition_counts_of_the_page() {
    assert_eq!(pos::<HexEmergo>("B:11:12:c3=W").legal_moves().len(), 30);
    let p = pos::<HexEmergo>("B:11:12:a1=W");
    assert_eq!(p.legal_moves().len(), 33);
    for cell in ["a2", "b1", "b2"] {
        assert!(p.parse_move(cell).is_err(), "{cell}");
    }
    // White could already capture (c3 over d3) and Black cannot: every empty cell is allowed.
    let q = pos::<HexEmergo>("B:9:11:b3=W,c3=W,d3=B");
    assert_eq!(q.phase(), Phase::Enter);
    assert_eq!(q.legal_moves().len(), 34);
}

#[test]
fn hex_r9_2_shadowpiece_enters_three_men_on_one_of_30_cells() {
    let p = pos::<HexEmergo>("W:3:0:d4=BBB");
    assert_eq!(p.entry_size(), 3);
    assert_eq!(p.legal_moves().len(), 30);
    assert_eq!(after(&p, "e2").to_string(), "B:0:0:d4=BBB,e2=WWW");
    assert!(p.parse_move("c3").is_err());
}

#[test]
fn hex_r9_5_without_captures_entering_ends_on_ply_24() {
    assert_eq!(plies_of_entering_without_captures::<HexEmergo>(), 24);
}

/// Enters men from the start, each time on the first cell after which nothing can be captured,
/// until both hands are empty: the number of plies, White then to step (R9.5).
fn plies_of_entering_without_captures<V: Variant>() -> usize {
    let mut p = Position::<V>::start();
    let mut ply = 0;
    while p.hand(Color::White) + p.hand(Color::Black) > 0 {
        assert_eq!(p.phase(), Phase::Enter, "ply {}", ply + 1);
        let m = p
            .find_legal_move(|m| {
                let next = p.play(m).expect("legal");
                !next.can_capture(next.turn()) && !next.can_capture(next.turn().other())
            })
            .expect("an entry that allows no capture");
        p.play_unchecked(m);
        ply += 1;
    }
    assert_eq!(p.turn(), Color::White);
    assert_eq!(p.phase(), Phase::Step);
    ply
}

#[test]
fn hex_perft_from_the_start_to_depth_4() {
    let start = Position::<HexEmergo>::start();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [36, 1_164, 36_702, 985_032]);
}

// ---------------------------------------------------------------------------------------------
// R5–R10 on the 7×7 board

#[test]
fn seven_worked_example_of_the_page_move_by_move() {
    let p = pos::<Emergo7x7>("W:0:0:c3=WWW,c4=BBW,d3=B,d5=B,d6=B,e4=B,e6=W");
    // Of c3xc5xe5xe3xc3xc5 (five), c3xe3xe5xc5xc3 (four) and e6xc6 (one), R7.3 keeps the first.
    assert_eq!(sorted_moves(&p), ["c3xc5xe5xe3xc3xc5"]);
    for shorter in ["c3xe3xe5xc5xc3", "e6xc6"] {
        let e = p.parse_move(shorter).unwrap_err();
        assert!(e.to_string().contains("majority rule"), "{shorter}: {e}");
    }
    let q = after(&p, "c3xc5xe5xe3xc3xc5");
    assert_eq!(q.to_string(), "B:0:0:c4=W,c5=WWWBBBBB,d6=B,e6=W");
}

#[test]
fn seven_r9_3_and_r9_4_entry_counts_of_the_page() {
    let start = Position::<Emergo7x7>::start();
    assert_eq!(start.legal_moves().len(), 24);
    assert!(start.parse_move("d4").is_err());
    let p = pos::<Emergo7x7>("B:7:8:c3=W");
    assert_eq!(p.legal_moves().len(), 22);
    for (cell, allowed) in [("c4", false), ("d3", false), ("b3", true), ("c2", true)] {
        assert_eq!(p.parse_move(cell).is_ok(), allowed, "{cell}");
    }
    let q = pos::<Emergo7x7>("B:7:8:a4=W");
    assert_eq!(q.legal_moves().len(), 23);
    assert!(q.parse_move("b4").is_err());
    // R9.2: the shadowpiece of two men, not next to d4.
    let s = pos::<Emergo7x7>("W:2:0:d4=BB");
    assert_eq!(s.entry_size(), 2);
    let moves = sorted_moves(&s);
    assert_eq!(moves.len(), 20);
    for cell in ["c4", "d3", "d5", "e4"] {
        assert!(!moves.contains(&cell.to_string()), "{cell}");
    }
}

#[test]
fn seven_r9_5_without_captures_entering_ends_on_ply_16() {
    assert_eq!(plies_of_entering_without_captures::<Emergo7x7>(), 16);
}

#[test]
fn seven_perft_from_the_start_to_depth_5() {
    let start = Position::<Emergo7x7>::start();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [24, 528, 11_140, 201_272, 3_488_508]);
}

// ---------------------------------------------------------------------------------------------
// The shared data

/// Every position of the data: its N2 text round-trips, and its legal moves are exactly the
/// listed ones (R5–R9), counted in bulk too.
fn check_positions<V: Variant>(data: &str, expected_count: usize) {
    let mut checked = 0;
    for (line_no, line) in data.lines().enumerate() {
        let (text, expected) = line.split_once('\t').expect("two fields");
        let p: Position<V> = text
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        assert_eq!(p.to_string(), text, "N2 round trip, line {}", line_no + 1);
        let moves = sorted_moves(&p);
        assert_eq!(moves.join(" "), expected, "line {}: {text}", line_no + 1);
        assert_eq!(p.count_legal_moves(), moves.len(), "line {}", line_no + 1);
        crate::testdata::same_moves_every_way(&p);
        for m in &moves {
            assert_eq!(p.parse_move(m).map(|mv| mv.to_string()).as_ref(), Ok(m));
        }
        checked += 1;
    }
    assert_eq!(checked, expected_count);
}

/// Every game of the data: replayed from the start, each position has the recorded number of
/// legal moves, and the game ends as recorded (R10.1, R10.2, R10.3).
fn check_games<V: Variant>(data: &str) {
    let mut games = 0;
    for (line_no, line) in data.lines().enumerate() {
        let mut fields = line.split('\t');
        let (moves, result, counts) = (
            fields.next().expect("moves"),
            fields.next().expect("result"),
            fields.next().expect("counts"),
        );
        let counts: Vec<usize> = counts
            .split(',')
            .map(|c| c.parse().expect("count"))
            .collect();
        let mut game = Game::<V>::default();
        let mut seen = vec![game.position().count_legal_moves()];
        for text in moves.split(' ').filter(|m| !m.is_empty()) {
            game.play_text(text)
                .unwrap_or_else(|e| panic!("game line {}: {text}: {e}", line_no + 1));
            seen.push(game.position().count_legal_moves());
        }
        assert_eq!(seen, counts, "game line {}", line_no + 1);
        let (token, rule) = result.split_once(' ').expect("result and rule");
        let reason = match rule {
            "R10.1" => EndReason::NoPieces,
            "R10.2" => EndReason::Blocked,
            "R10.3" => EndReason::Repetition,
            other => panic!("rule {other}"),
        };
        assert_eq!(
            game.status(),
            Status::Finished {
                outcome: token.parse().expect("result token"),
                reason
            },
            "game line {}",
            line_no + 1
        );
        games += 1;
    }
    assert_eq!(games, 60);
}

#[test]
fn hex_r5_to_r9_legal_moves_match_every_position_of_the_data() {
    check_positions::<HexEmergo>(HEX_POSITIONS, 5_645);
}

#[test]
fn seven_r5_to_r9_legal_moves_match_every_position_of_the_data() {
    check_positions::<Emergo7x7>(SEVEN_POSITIONS, 3_094);
}

#[test]
fn hex_r10_the_games_of_the_data_replay_to_their_results_and_counts() {
    check_games::<HexEmergo>(HEX_GAMES);
}

#[test]
fn seven_r10_the_games_of_the_data_replay_to_their_results_and_counts() {
    check_games::<Emergo7x7>(SEVEN_GAMES);
}

#[test]
fn r10_random_games_on_every_board_end_by_the_rules() {
    let hex = play_games_on::<HexEmergo>(3, 0..20);
    let seven = play_games_on::<Emergo7x7>(3, 0..20);
    for t in [hex, seven] {
        assert_eq!(t.games, 20);
        assert_eq!(t.wins.white + t.wins.black + t.draws, 20);
    }
    // 8 men a side: every 7×7 game enters 16 men or captures first.
    assert!(seven.plies >= 20 * 8);
}

// ---------------------------------------------------------------------------------------------
// Records

#[test]
fn records_of_a_variant_carry_its_tag_and_round_trip() {
    let mut game = Game::<HexEmergo>::default();
    for m in HEX_GAMES
        .lines()
        .next()
        .expect("a game")
        .split('\t')
        .next()
        .expect("moves")
        .split(' ')
    {
        game.play_text(m).expect("legal");
    }
    let record = GameRecord::from_game(&game, &[("Event", "test")]);
    assert_eq!(record.tag("Variant"), Some("HexEmergo"));
    let text = record.to_string();
    let back = GameRecord::<HexEmergo>::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, record);
    assert_eq!(back.to_string(), text);
    assert_eq!(back.to_game().expect("replays").moves(), game.moves());
    assert_eq!(record_variant(&text), Ok(VariantKind::HexEmergo));

    let seven = Game::<Emergo7x7>::new(pos("W:0:0:c3=WWW,c4=BBW,d3=B,d5=B,d6=B,e4=B,e6=W"));
    let text = GameRecord::from_game(&seven, &[]).to_string();
    assert!(text.contains("[Variant \"Emergo 7x7\"]"), "{text}");
    assert!(text.contains("[Position \"W:0:0:c3=WWW,c4=BBW,d3=B,d5=B,d6=B,e4=B,e6=W\"]"));
    let back = GameRecord::<Emergo7x7>::parse(&text).expect("reads");
    assert_eq!(back.start().expect("start"), *seven.start());

    // The square board writes no tag, and reads its own name too.
    let square = GameRecord::from_game(&Game::<Emergo>::default(), &[]).to_string();
    assert!(!square.contains("Variant"), "{square}");
    assert_eq!(record_variant(&square), Ok(VariantKind::Emergo));
    let named = "[Variant \"Emergo\"]\n\n1. d3 *\n";
    assert_eq!(
        GameRecord::<Emergo>::parse(named)
            .expect("reads")
            .moves
            .len(),
        1
    );
}

#[test]
fn records_refuse_a_board_their_variant_tag_does_not_name() {
    let hex = "[Event \"x\"]\n[Variant \"HexEmergo\"]\n\n1. g7 d4 *\n";
    let e = GameRecord::<Emergo>::parse(hex).unwrap_err();
    assert_eq!(e.variant, Some(VariantKind::HexEmergo));
    assert_eq!(e.line_column(), Some((2, 1)));
    assert!(
        e.to_string()
            .contains("this record is a game of HexEmergo, not of Emergo"),
        "{e}"
    );
    assert!(GameRecord::<HexEmergo>::parse(hex).is_ok());
    let e = GameRecord::<Emergo7x7>::parse(hex).unwrap_err();
    assert_eq!(e.variant, Some(VariantKind::HexEmergo));
    // A record without the tag is the square board's: its moves are refused on another one,
    // with the usual error for a move.
    let square = "1. e1 a5 *\n";
    let e = GameRecord::<HexEmergo>::parse(square).unwrap_err();
    assert_eq!(e.line_column(), Some((1, 4)));
    assert!(e.to_string().contains("'e1' is not a square"), "{e}");
    // An unknown board is named as such.
    let bad = "[Variant \"Emergo 8x8\"]\n\n*\n";
    let e = GameRecord::<Emergo>::parse(bad).unwrap_err();
    assert_eq!(e.variant, None);
    assert!(
        e.to_string().contains("unknown variant \"Emergo 8x8\""),
        "{e}"
    );
    assert!(record_variant(bad).is_err());
}

#[test]
fn hex_game_refuses_an_illegal_move_with_the_position_unchanged() {
    let mut game = Game::<HexEmergo>::default();
    game.play_text("c3").expect("legal");
    let before = *game.position();
    let mv = Position::<HexEmergo>::start()
        .parse_move("a1")
        .expect("legal at the start");
    game.play_text("a1").expect("legal for Black too");
    let err = game.play(mv).unwrap_err();
    assert!(matches!(err, GameError::Illegal(_)), "{err}");
    assert_ne!(*game.position(), before);
    assert_eq!(game.ply(), 2);
}

/// N2 and records round-trip on every game of the data: each position's text reads back to it,
/// and each game's record (with its `[Variant]` tag and result) reads back to the same record
/// and replays to the same end.
fn check_round_trips<V: Variant>(data: &str) {
    for (line_no, line) in data.lines().enumerate() {
        let moves = line.split('\t').next().expect("moves");
        let mut game = Game::<V>::default();
        for text in moves.split(' ').filter(|m| !m.is_empty()) {
            game.play_text(text).expect("legal");
        }
        for p in game.positions() {
            assert_eq!(p.to_string().parse::<Position<V>>().as_ref(), Ok(p));
        }
        let record = GameRecord::from_game(&game, &[("Event", "data")]);
        assert_eq!(record.tag("Variant"), Some(V::KIND.tag()));
        let text = record.to_string();
        let back = GameRecord::<V>::parse(&text)
            .unwrap_or_else(|e| panic!("game line {}: {e}\n{text}", line_no + 1));
        assert_eq!(back, record, "game line {}", line_no + 1);
        assert_eq!(record_variant(&text), Ok(V::KIND));
        let replayed = back.to_game().expect("replays");
        assert_eq!(
            replayed.status(),
            game.status(),
            "game line {}",
            line_no + 1
        );
        assert_eq!(replayed.moves(), game.moves());
    }
}

#[test]
fn hex_n2_and_records_round_trip_on_every_game_of_the_data() {
    check_round_trips::<HexEmergo>(HEX_GAMES);
}

#[test]
fn seven_n2_and_records_round_trip_on_every_game_of_the_data() {
    check_round_trips::<Emergo7x7>(SEVEN_GAMES);
}

/// The square board's Zobrist keys are those it had before the variants (its hashes, and so the
/// search's transposition table and bench signature, did not change): two hashes taken at the
/// last commit before the variants.
#[test]
fn square_board_hashes_are_those_before_the_variants() {
    assert_eq!(Position::<Emergo>::start().hash(), 0xb4cc_2818_18cc_78a4);
    let p = pos::<Emergo>("B:4:6:c4=WWWBBBBB,e5=B");
    assert_eq!(p.hash(), 0x0d7f_4c1a_6521_4f50);
    // The other boards draw their own keys for the cell numbers past the 41st.
    assert_ne!(Position::<Emergo7x7>::start().hash(), 0);
}

#[test]
fn hex_bitboards_draw_the_hexagon_row_7_on_top() {
    let set: emergo_core::bitboard::Bitboard<HexEmergo> =
        [sq("d4"), sq("g7"), sq("a1")].into_iter().collect();
    let text = set.to_string();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[0].trim(), "X . . .");
    assert_eq!(rows[3], ". . . X . . .");
    assert_eq!(rows[6].trim(), ". . . X");
    assert_eq!(Square::<HexEmergo>::from_xy(1, 1), None);
}
