//! The shared test data (cross-checked between independent implementations): every position of
//! 200 random games with its legal moves, the games themselves, and perft counts.

use emergo_core::position::Position as AnyPosition;
use emergo_core::{perft::perft, Game, Move, Phase, Position, Status, Variant};

const POSITIONS: &str = include_str!("../data/positions.tsv");
const GAMES: &str = include_str!("../data/random-games.tsv");
const PERFT: &str = include_str!("../data/perft.txt");

#[test]
fn r5_to_r9_legal_moves_match_every_position_of_the_data() {
    let mut checked = 0;
    for (line_no, line) in POSITIONS.lines().enumerate() {
        let (text, expected) = line.split_once('\t').expect("two fields");
        let pos: Position = text
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        assert_eq!(pos.to_string(), text, "N2 round trip, line {}", line_no + 1);
        let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
        moves.sort();
        assert_eq!(moves.join(" "), expected, "line {}: {text}", line_no + 1);
        assert_eq!(
            pos.count_legal_moves(),
            moves.len(),
            "bulk count, line {}",
            line_no + 1
        );
        same_moves_every_way(&pos);
        checked += 1;
    }
    assert_eq!(checked, 23_379);
}

/// Every way of generating the moves gives the same moves in the same order: the list, a
/// reused (dirty) list, the callback, and a pick by index (which random playouts use).
pub(crate) fn same_moves_every_way<V: Variant>(pos: &AnyPosition<V>) {
    let list = pos.legal_moves();
    let mut buffer = vec![list.first().copied(); 3]
        .into_iter()
        .flatten()
        .collect();
    pos.legal_moves_into(&mut buffer);
    assert_eq!(buffer, list, "{pos}");
    let mut called = Vec::new();
    pos.for_each_legal_move(|m| called.push(m));
    assert_eq!(called, list, "{pos}");
    let n = list.len();
    for (k, &m) in list.iter().enumerate() {
        let picked = pos.pick_legal_move(&mut buffer, |count| {
            assert_eq!(count, n, "{pos}");
            k
        });
        assert_eq!(picked, Some((m, n)), "{pos}");
    }
    assert_eq!(
        pos.pick_legal_move(&mut buffer, |count| count),
        None,
        "{pos}"
    );
}

/// R5 read from the data's move lists alone: captures contain `x`, steps `-`, entries neither.
#[test]
fn r5_phase_names_the_kind_of_the_legal_moves_of_every_position_of_the_data() {
    let mut seen = [0usize; 3];
    for (line_no, line) in POSITIONS.lines().enumerate() {
        let (text, expected) = line.split_once('\t').expect("two fields");
        let pos: Position = text.parse().expect("position text");
        let phase = pos.phase();
        let kinds: Vec<Phase> = expected
            .split_whitespace()
            .map(|m| {
                if m.contains('x') {
                    Phase::Capture
                } else if m.contains('-') {
                    Phase::Step
                } else {
                    Phase::Enter
                }
            })
            .collect();
        if kinds.is_empty() {
            // No legal move (R10.1/R10.2): nothing to capture; entering if men are in hand.
            let in_hand = pos.hand(pos.turn()) > 0;
            let want = if in_hand { Phase::Enter } else { Phase::Step };
            assert_eq!(phase, want, "line {}: {text}", line_no + 1);
        } else {
            assert!(
                kinds.iter().all(|&k| k == phase),
                "line {}: {text} is {phase} but moves are {expected}",
                line_no + 1
            );
        }
        assert_eq!(phase.to_string().parse::<Phase>(), Ok(phase));
        seen[Phase::ALL
            .iter()
            .position(|&p| p == phase)
            .expect("a phase")] += 1;
    }
    assert!(seen.iter().all(|&n| n > 0), "every phase occurs: {seen:?}");
    assert_eq!(seen.iter().sum::<usize>(), 23_379);
}

#[test]
fn r10_random_games_replay_to_their_recorded_end() {
    let mut repetitions = Vec::new();
    for (line_no, line) in GAMES.lines().enumerate() {
        let mut game = Game::default();
        for text in line.split(' ') {
            game.play_text(text)
                .unwrap_or_else(|e| panic!("game line {}: {text}: {e}", line_no + 1));
        }
        let status = game.status();
        assert_ne!(
            status,
            Status::Ongoing,
            "game line {} has not ended",
            line_no + 1
        );
        if let Status::Finished {
            reason: emergo_core::EndReason::Repetition,
            ..
        } = status
        {
            repetitions.push(line_no + 1);
        }
    }
    assert_eq!(repetitions, vec![18, 52, 86, 117]);
}

#[test]
fn perft_matches_the_data_to_depth_4() {
    for block in PERFT.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let mut lines = block.lines();
        let id = lines.next().unwrap().trim_start_matches("id ");
        let pos: Position = lines
            .next()
            .unwrap()
            .trim_start_matches("pos ")
            .parse()
            .unwrap();
        for line in lines {
            let mut parts = line.split_whitespace().skip(1);
            let depth: u32 = parts.next().unwrap().parse().unwrap();
            let count: u64 = parts.next().unwrap().parse().unwrap();
            if depth <= 4 {
                assert_eq!(perft(&pos, depth), count, "{id} depth {depth}");
            }
        }
    }
}

#[test]
fn perft_from_the_start_to_depth_4() {
    let start = Position::start();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, vec![40, 1_504, 55_172, 1_828_116]);
}

/// Every entry and every step written on every 7th position of the data: the text is refused
/// with a reason exactly when the generator has no move for it, and an entry the generator
/// refuses on an empty square names R9.3 or R9.4.
#[test]
fn r9_a_refused_move_always_names_its_rule() {
    use emergo_core::{Direction, MoveError, Refusal, Square};
    for line in POSITIONS.lines().step_by(7) {
        let (text, _) = line.split_once('\t').expect("two fields");
        let pos: Position = text.parse().expect("position text");
        let mut candidates: Vec<String> = Square::all().map(|s| s.to_string()).collect();
        for from in Square::all() {
            for dir in Direction::ALL {
                if let Some(to) = from.neighbour(dir) {
                    candidates.push(format!("{from}-{to}"));
                }
            }
        }
        for candidate in candidates {
            let parsed = candidate.parse().expect("move text");
            let legal = pos.parse_move(&candidate);
            match (legal, pos.refusal(&parsed)) {
                (Ok(_), None) => {}
                (Err(MoveError::NoLegalMatch { reason, .. }), Some(why)) => {
                    assert_eq!(reason, why, "{text} {candidate}");
                    if pos.phase() == Phase::Enter && candidate.len() == 2 {
                        let sq: Square = candidate.parse().expect("square");
                        if pos.empty().contains(sq) {
                            assert!(
                                matches!(
                                    why,
                                    Refusal::FirstEntryOnCentre { .. } | Refusal::EntryCapturable
                                ),
                                "{text} {candidate}: {why}"
                            );
                        }
                    }
                }
                (legal, why) => panic!("{text} {candidate}: {legal:?} but {why:?}"),
            }
        }
    }
}
