//! A 1-ply greedy player: the baseline a beginner's program would field.
//!
//! It plays every legal move, counts material afterwards and keeps the best, breaking ties at
//! random (deterministically for a seed). Material is the men a side controls — every man in
//! the columns it owns (its own men and the prisoners under them) plus its men in hand — minus
//! the same for the opponent. Men never leave the game (R2), so this is what a capture or a
//! liberation changes.

use crate::player::{Limits, Player};
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::playout::SplitMix;
use emergo_core::position::Position;
use emergo_core::{Color, Variant};

/// The men `color` controls in `pos`: the men of its columns (prisoners included) and its hand.
pub fn controlled_men<V: Variant>(pos: &Position<V>, color: Color) -> i32 {
    let on_board: i32 = pos
        .columns()
        .filter(|(_, c)| c.owner == color)
        .map(|(_, c)| i32::from(c.height()))
        .sum();
    on_board + i32::from(pos.hand(color))
}

/// Material from `color`'s point of view: men it controls minus men its opponent controls.
pub fn material<V: Variant>(pos: &Position<V>, color: Color) -> i32 {
    controlled_men(pos, color) - controlled_men(pos, color.other())
}

/// Picks the move that maximises [`material`] after it, ties broken at random.
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    rng: SplitMix,
}

impl GreedyPlayer {
    /// A greedy player whose tie-breaks follow from `seed`.
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: SplitMix::new(seed ^ 0xD1B5_4A32_D192_ED03),
        }
    }

    /// The best moves of `pos` by material after the move, in generation order.
    pub fn best_moves<V: Variant>(pos: &Position<V>) -> Vec<Move<V>> {
        let me = pos.turn();
        let mut best = Vec::new();
        let mut best_score = i32::MIN;
        pos.for_each_legal_move(|mv| {
            let mut next = *pos;
            next.play_unchecked(mv);
            let score = material(&next, me);
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(mv);
            }
        });
        best
    }
}

impl<V: Variant> Player<V> for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose_move(&mut self, game: &Game<V>, _limits: &Limits) -> Option<Move<V>> {
        let best = GreedyPlayer::best_moves(game.position());
        if best.is_empty() {
            return None;
        }
        let i = (self.rng.next_u64() % best.len() as u64) as usize;
        Some(best[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::{Game, Position};

    #[test]
    fn material_counts_prisoners_for_the_owner_of_the_column() {
        let pos: Position = "B:4:6:c4=WWWBBBBB,e5=B".parse().unwrap();
        // White: 8 men in the c4 column + 4 in hand; Black: 1 on e5 + 6 in hand.
        assert_eq!(controlled_men(&pos, Color::White), 12);
        assert_eq!(controlled_men(&pos, Color::Black), 7);
        assert_eq!(material(&pos, Color::Black), -5);
    }

    #[test]
    fn greedy_takes_the_capture_that_wins_most_material_r7_worked_example() {
        // After 1. f4-e4 h4xf4xd4 of the worked example, White's only legal capture takes five.
        let pos: Position = "W:0:0:c5=B,d6=B,e5=B,e4=WWW,d4=BBWW".parse().unwrap();
        let mut player = GreedyPlayer::new(1);
        let mv = player
            .choose_move(&Game::new(pos), &Limits::default())
            .unwrap();
        assert_eq!(mv.to_string(), "e4xc4xc6xe6xe4xc4");
    }

    #[test]
    fn greedy_is_deterministic_for_a_seed_and_plays_legal_moves() {
        let play = |seed| {
            let mut game = Game::default();
            let mut p = GreedyPlayer::new(seed);
            while !game.is_over() && game.ply() < 200 {
                let mv = p.choose_move(&game, &Limits::default()).unwrap();
                game.play(mv).unwrap();
            }
            game.moves().to_vec()
        };
        assert_eq!(play(7), play(7));
        assert_ne!(play(7), play(8));
    }
}
