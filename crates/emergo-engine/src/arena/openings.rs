//! Openings for matches: random legal entering sequences from the start, deterministic for a
//! seed. Each opening is played twice, colours swapped, so that neither engine profits from a
//! lucky start.

use emergo_core::{Game, Move, Position};

/// Openings draw from the core's SplitMix64 generator.
pub use emergo_core::playout::SplitMix;

/// A number in `0..n` (`n > 0`), by remainder (kept so that recorded matches replay).
fn below(rng: &mut SplitMix, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// One random sequence of `plies` entries (R9) from the start, or `None` when the walk reached a
/// position where the side to move must do something else (a capture, R5.1) or the game ended.
pub fn random_opening(plies: usize, rng: &mut SplitMix) -> Option<Vec<Move>> {
    let mut game = Game::new(Position::start());
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
pub fn openings(count: usize, plies: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = SplitMix::new(seed);
    let mut found: Vec<Vec<Move>> = Vec::with_capacity(count);
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
pub fn opening_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn zero_plies_give_the_start() {
        assert_eq!(openings(3, 0, 9), vec![Vec::<Move>::new(); 3]);
    }
}
