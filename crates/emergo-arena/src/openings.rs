//! Openings for matches: random legal entering sequences from the start, deterministic for a
//! seed, or a list read from a file (one opening a line: N2 position text or moves from the
//! start). Each opening is played twice, colours swapped, so that neither engine profits from a
//! lucky start.
//!
//! Every board has its openings: random entries on the board of the match, or a file read on
//! that board (the shipped `openings/balanced.txt` is for the square 9×9 board).

use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::{Emergo, Variant};
use thiserror::Error;

/// Where a game begins: a start position and the moves played from it before the engines take
/// over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<V: Variant = Emergo> {
    pub(crate) start: Position<V>,
    pub(crate) moves: Vec<Move<V>>,
}

impl<V: Variant> Opening<V> {
    /// Moves played from the start position.
    pub(crate) fn from_moves(moves: Vec<Move<V>>) -> Opening<V> {
        Opening {
            start: Position::start(),
            moves,
        }
    }

    /// The game after the opening.
    pub(crate) fn game(&self) -> Game<V> {
        let mut game = Game::new(self.start);
        for &mv in &self.moves {
            if game.play(mv).is_err() {
                break;
            }
        }
        game
    }

    /// The opening as a line of an openings file: the moves (`d3 f6 c4`), or the N2 text of a
    /// start other than the usual one.
    pub(crate) fn text(&self) -> String {
        if self.start == Position::start() {
            opening_text(&self.moves)
        } else if self.moves.is_empty() {
            self.start.to_string()
        } else {
            format!("{} {}", self.start, opening_text(&self.moves))
        }
    }
}

/// A line of an openings file that is not an opening.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line} ('{text}'): {message}")]
pub struct OpeningsError {
    pub(crate) line: usize,
    pub(crate) text: String,
    pub(crate) message: String,
}

/// Reads an openings file: one opening a line, either N2 position text (`B:11:12:d3=W`) or a
/// move list from the start (`d3 a5 f2`); blank lines and lines starting with `#` are skipped.
/// An opening must leave a game that is not over. Read on the board `V` (the square 9×9 one
/// unless named).
pub fn parse_openings<V: Variant>(text: &str) -> Result<Vec<Opening<V>>, OpeningsError> {
    let mut list = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let error = |message: String| OpeningsError {
            line: i + 1,
            text: trimmed.to_string(),
            message,
        };
        let opening = parse_line(trimmed).map_err(error)?;
        if opening.game().is_over() {
            return Err(error("the game is already over there".to_string()));
        }
        list.push(opening);
    }
    Ok(list)
}

/// One opening: N2 text (it has a `:`) or moves from the start.
fn parse_line<V: Variant>(line: &str) -> Result<Opening<V>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if line.contains(':') {
        return match tokens.as_slice() {
            [text] => text
                .parse::<Position<V>>()
                .map(|start| Opening {
                    start,
                    moves: Vec::new(),
                })
                .map_err(|e| e.to_string()),
            _ => Err("expected one N2 position (no spaces) or a list of moves".to_string()),
        };
    }
    let mut game = Game::<V>::default();
    for token in tokens {
        game.play_text(token)
            .map_err(|e| format!("move '{token}': {e}"))?;
    }
    Ok(Opening::from_moves(game.moves().to_vec()))
}

/// The list in an order shuffled by `seed` (Fisher-Yates over [`SplitMix`]).
pub fn shuffled<V: Variant>(mut list: Vec<Opening<V>>, seed: u64) -> Vec<Opening<V>> {
    let mut rng = SplitMix::new(seed);
    for i in (1..list.len()).rev() {
        list.swap(i, below(&mut rng, i + 1));
    }
    list
}

/// Openings draw from the core's SplitMix64 generator.
pub(crate) use emergo_core::playout::SplitMix;

/// A number in `0..n` (`n > 0`), by remainder (kept so that recorded matches replay).
fn below(rng: &mut SplitMix, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// One random sequence of `plies` entries (R9) from the start, or `None` when the walk reached a
/// position where the side to move must do something else (a capture, R5.1) or the game ended.
pub(crate) fn random_opening<V: Variant>(plies: usize, rng: &mut SplitMix) -> Option<Vec<Move<V>>> {
    let mut game = Game::new(Position::<V>::start());
    let mut entries = Vec::new();
    for _ in 0..plies {
        if game.is_over() {
            return None;
        }
        entries.clear();
        game.position().for_each_legal_move(|mv| {
            if matches!(mv, Move::Enter(_)) {
                entries.push(mv);
            }
        });
        if entries.is_empty() {
            return None;
        }
        let mv = entries[below(rng, entries.len())];
        game.play(mv).ok()?;
    }
    (!game.is_over()).then(|| game.moves().to_vec())
}

/// `count` openings of `plies` entries each, different from each other while the seed's walk
/// finds new ones (with `plies = 0` every opening is the empty one).
pub(crate) fn openings<V: Variant>(count: usize, plies: usize, seed: u64) -> Vec<Vec<Move<V>>> {
    let mut rng = SplitMix::new(seed);
    let mut found: Vec<Vec<Move<V>>> = Vec::with_capacity(count);
    let mut attempts = 0usize;
    let max_attempts = 100 * count.max(1) + 1000;
    while found.len() < count {
        attempts += 1;
        let Some(opening) = random_opening(plies, &mut rng) else {
            if attempts > max_attempts {
                // No entering sequence of this length could be found: start from the start.
                found.push(Vec::new());
            }
            continue;
        };
        if attempts > max_attempts || !found.contains(&opening) {
            found.push(opening);
        }
    }
    found
}

/// Writes an opening as move text separated by spaces (`d3 f6 c4`).
pub(crate) fn opening_text<V: Variant>(moves: &[Move<V>]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::{Game, Move};

    fn openings(count: usize, plies: usize, seed: u64) -> Vec<Vec<Move>> {
        super::openings::<Emergo>(count, plies, seed)
    }

    fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningsError> {
        super::parse_openings::<Emergo>(text)
    }

    #[test]
    fn openings_are_deterministic_for_a_seed() {
        assert_eq!(openings(20, 6, 42), openings(20, 6, 42));
        assert_ne!(openings(20, 6, 42), openings(20, 6, 43));
    }

    #[test]
    fn openings_are_legal_entries_r5_r9_and_distinct() {
        let list = openings(50, 8, 1);
        assert_eq!(list.len(), 50);
        for (i, opening) in list.iter().enumerate() {
            assert_eq!(opening.len(), 8);
            let mut game = Game::default();
            for &mv in opening {
                assert!(matches!(mv, Move::Enter(_)), "{mv} is not an entry");
                game.play(mv).expect("opening move is legal");
            }
            assert!(!game.is_over());
            // R9.3: White's first man never goes on e5.
            assert_ne!(opening[0].to_string(), "e5");
            assert!(
                !list[..i].contains(opening),
                "opening {i} repeats an earlier one"
            );
        }
    }

    #[test]
    fn an_openings_file_reads_both_line_kinds_and_skips_blanks_and_comments() {
        let text = "# balanced openings\n\nd3 a5 f2\n  B:11:12:d3=W  \n# end\n";
        let list = parse_openings(text).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].text(), "d3 a5 f2");
        assert_eq!(list[0].game().ply(), 3);
        assert_eq!(list[1].start.to_string(), "B:11:12:d3=W");
        assert_eq!(list[1].text(), "B:11:12:d3=W");
        assert!(list[1].moves.is_empty());
    }

    #[test]
    fn a_bad_openings_line_is_an_error_naming_the_line() {
        for (text, line, needle) in [
            ("d3\n\nd3 e5 zz\n", 3, "move 'zz'"),
            ("# r9.3\ne5\n", 2, "move 'e5'"),
            ("W:13:12\n", 1, "W:13:12"),
            ("W:12:12 d3\n", 1, "one N2 position"),
            ("B:0:0:c4=W\n", 1, "already over"),
        ] {
            let err = parse_openings(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
            let message = err.to_string();
            assert!(message.starts_with(&format!("line {line} (")), "{message}");
            assert!(message.contains(needle), "{text:?}: {message}");
        }
    }

    #[test]
    fn the_shipped_balanced_openings_are_n2_lines_that_all_read() {
        let text = include_str!("../../../openings/balanced.txt");
        let list = parse_openings(text).unwrap();
        assert!(list.len() >= 20, "{}", list.len());
        for (opening, line) in list.iter().zip(
            text.lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#')),
        ) {
            // N2 text, so that cutegames can send it as 'position fen <line>'.
            assert!(opening.moves.is_empty());
            assert_eq!(opening.start.to_string(), line.trim());
        }
        // Each comment gives the entries that lead to the line after it (then, after " · ",
        // White's measured score from it).
        let lines: Vec<&str> = text.lines().collect();
        let mut scored = 0;
        for pair in lines.windows(2) {
            if let (Some(comment), false) = (pair[0].strip_prefix("# "), pair[1].starts_with('#')) {
                if pair[1].is_empty() {
                    continue;
                }
                let (moves, score) = comment.split_once(" · ").unwrap_or((comment, ""));
                if score.starts_with("White ") && score.ends_with("/4") {
                    scored += 1;
                }
                let from_moves = parse_openings(moves).unwrap();
                assert_eq!(from_moves[0].game().position().to_string(), pair[1]);
            }
        }
        assert_eq!(scored, 26, "every line carries White's score");
    }

    #[test]
    fn shuffling_keeps_the_openings_and_depends_on_the_seed() {
        let list: Vec<Opening> = openings(20, 2, 5)
            .into_iter()
            .map(Opening::from_moves)
            .collect();
        let a = shuffled(list.clone(), 1);
        assert_eq!(a, shuffled(list.clone(), 1));
        assert_ne!(a, list);
        assert_ne!(a, shuffled(list.clone(), 2));
        let mut sorted = a.clone();
        sorted.sort_by_key(Opening::text);
        let mut original = list;
        original.sort_by_key(Opening::text);
        assert_eq!(sorted, original);
    }

    #[test]
    fn random_openings_and_openings_files_are_read_on_the_board_of_the_match() {
        use emergo_core::{Emergo7x7, HexEmergo};
        let hex = super::openings::<HexEmergo>(10, 4, 3);
        for opening in &hex {
            let game = Opening::from_moves(opening.clone()).game();
            assert_eq!(game.ply(), 4);
        }
        let small = super::openings::<Emergo7x7>(10, 4, 3);
        assert_eq!(small.len(), 10);
        // c3 is a hexagon cell; a1 is not a square of the 7×7 board.
        let list = super::parse_openings::<HexEmergo>("c3 a1\n").unwrap();
        assert_eq!(list[0].text(), "c3 a1");
        assert!(super::parse_openings::<Emergo7x7>("d4 a1\n").is_err());
    }

    #[test]
    fn zero_plies_give_the_start() {
        assert_eq!(openings(3, 0, 9), vec![Vec::<Move>::new(); 3]);
    }
}
