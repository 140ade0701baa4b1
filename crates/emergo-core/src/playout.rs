//! Uniformly random games from the start, each played to its end by the rules (R10, threefold
//! repetition included). The standard speed figure of game systems: random playouts per second.

use crate::moves::Move;
use crate::position::Position;
use crate::variant::{Emergo, Variant};
use crate::{ByColor, Repetitions};

/// Totals over a batch of games.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// Moves played over all games.
    pub plies: u64,
    /// The number of legal moves summed over every position where a move was chosen.
    pub legal_moves: u64,
    /// Games won by each side.
    pub wins: ByColor<u64>,
    /// Games drawn (R10.2, R10.3).
    pub draws: u64,
}

impl Totals {
    /// The totals of both batches.
    pub fn merged(mut self, other: Totals) -> Totals {
        self.games += other.games;
        self.plies += other.plies;
        self.legal_moves += other.legal_moves;
        self.wins.white += other.wins.white;
        self.wins.black += other.wins.black;
        self.draws += other.draws;
        self
    }
}

/// A small, fast generator (SplitMix64): one per game, seeded from the run's seed and the game's
/// number, so results do not depend on how games are shared among threads.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (Lemire's multiply-shift; the bias is below 2^-50 for our n).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Plays game number `index` of a run with `seed` and adds it to `totals`.
fn play_one<V: Variant>(
    seed: u64,
    index: u64,
    moves: &mut Vec<Move<V>>,
    history: &mut Repetitions,
    totals: &mut Totals,
) {
    let mut rng = SplitMix(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut pos = Position::<V>::start();
    history.clear();
    history.push(&pos);
    totals.games += 1;
    loop {
        if pos.is_lost() {
            // R10.1
            totals.wins[pos.turn().other()] += 1;
            return;
        }
        // A uniform choice among the legal moves, in their generated order (the entries and
        // steps are counted, not listed).
        let Some((mv, n)) = pos.pick_legal_move(moves, |n| rng.below(n)) else {
            // R10.2
            totals.draws += 1;
            return;
        };
        totals.plies += 1;
        totals.legal_moves += n as u64;
        pos.play_unchecked(mv);
        if history.push(&pos) >= 3 {
            // R10.3
            totals.draws += 1;
            return;
        }
    }
}

/// Plays games `range` of a run with `seed` on the square 9×9 board.
pub fn play_games(seed: u64, range: std::ops::Range<u64>) -> Totals {
    play_games_on::<Emergo>(seed, range)
}

/// Plays games `range` of a run with `seed` on the board `V`.
pub fn play_games_on<V: Variant>(seed: u64, range: std::ops::Range<u64>) -> Totals {
    let mut totals = Totals::default();
    let mut moves = Vec::with_capacity(64);
    let mut history = Repetitions::new();
    for i in range {
        play_one::<V>(seed, i, &mut moves, &mut history, &mut totals);
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r10_random_games_are_deterministic_and_end_by_the_rules() {
        let a = play_games(7, 0..50);
        let b = play_games(7, 0..20).merged(play_games(7, 20..50));
        assert_eq!(a, b);
        assert_eq!(a.games, 50);
        assert_eq!(a.wins.white + a.wins.black + a.draws, 50);
        // Every game enters 24 men or captures first: no game is shorter than a few plies.
        assert!(a.plies >= 50 * 10);
    }
}
