//! Plain UCT Monte Carlo tree search with uniformly random playouts: the baseline a general game
//! system would field. Playouts follow the rules to the end (R10.1 loss, R10.2 blocked draw,
//! R10.3 repetition draw) or to a ply cap (scored a draw). Deterministic for a seed when limited
//! by playouts.

use crate::player::{Limits, Player};
use crate::rng::XorShift;
use crate::search::time::TimeControl;
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::{Repetitions, Variant};

/// A playout that reaches this many plies is scored as a draw.
pub const PLAYOUT_PLY_CAP: usize = 400;
/// Playouts per move when the limits give neither playouts nor time.
pub const DEFAULT_PLAYOUTS: u64 = 10_000;
/// The search stops when the tree holds this many nodes (about 300 MB).
pub const MAX_TREE_NODES: usize = 500_000;
/// The UCT exploration constant (rewards are in 0..=1).
const EXPLORATION: f64 = std::f64::consts::SQRT_2;

struct Node<V: Variant> {
    /// The move that led here (none at the root).
    mv: Option<Move<V>>,
    pos: Position<V>,
    parent: Option<usize>,
    children: Vec<usize>,
    untried: Vec<Move<V>>,
    visits: u32,
    /// Total reward for the side that played `mv` (the opponent of `pos.turn()`).
    reward: f64,
    /// The result if the game is over here: the reward for the side that played `mv`.
    terminal: Option<f64>,
}

/// The UCT player.
pub struct MctsPlayer {
    rng: XorShift,
}

impl MctsPlayer {
    /// A player whose choices depend only on `seed` and the limits (when limited by playouts).
    pub fn new(seed: u64) -> MctsPlayer {
        MctsPlayer {
            rng: XorShift::new((seed ^ 0xA076_1D64_78BD_642F) | 1),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        (((self.rng.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// The game result at `pos` (the last of `keys`) for the side that just moved, if it is over.
fn terminal_reward<V: Variant>(pos: &Position<V>, keys: &Repetitions) -> Option<f64> {
    if pos.is_lost() {
        Some(1.0)
    } else if keys.is_third_occurrence() || pos.has_no_moves() {
        Some(0.5)
    } else {
        None
    }
}

impl MctsPlayer {
    /// Random play from `pos` to the end; the reward for the side that moved into `pos`.
    fn playout<V: Variant>(
        &mut self,
        pos: &Position<V>,
        keys: &mut Repetitions,
        moves: &mut Vec<Move<V>>,
    ) -> f64 {
        let mover = pos.turn().other();
        let base = keys.len();
        let mut pos = *pos;
        let mut result = 0.5;
        for _ in 0..PLAYOUT_PLY_CAP {
            if pos.is_lost() {
                result = if pos.turn() == mover { 0.0 } else { 1.0 };
                break;
            }
            if keys.is_third_occurrence() {
                break;
            }
            pos.legal_moves_into(moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[self.below(moves.len())];
            pos.play_unchecked(m);
            keys.push(&pos);
        }
        keys.truncate(base);
        result
    }

    /// Runs UCT on the current position of `game`; returns the most visited root move.
    pub fn search<V: Variant>(&mut self, game: &Game<V>, limits: &Limits) -> Option<Move<V>> {
        let root_pos = *game.position();
        let root_moves = root_pos.legal_moves();
        if root_moves.len() <= 1 {
            return root_moves.first().copied();
        }
        let tc = TimeControl::new(limits, root_pos.turn());
        let playouts = match (limits.nodes, tc.hard) {
            (Some(n), _) => n.max(1),
            (None, Some(_)) => u64::MAX,
            (None, None) => DEFAULT_PLAYOUTS,
        };
        let mut keys = game.history().clone();
        let base = keys.len();
        let mut nodes = vec![Node {
            mv: None,
            pos: root_pos,
            parent: None,
            children: Vec::new(),
            untried: root_moves,
            visits: 0,
            reward: 0.0,
            terminal: None,
        }];
        let mut moves = Vec::with_capacity(64);
        let mut done = 0u64;
        while done < playouts {
            if (done & 63 == 0 && tc.out_of_time()) || nodes.len() >= MAX_TREE_NODES {
                break;
            }
            done += 1;
            keys.truncate(base);
            // Selection.
            let mut at = 0;
            while nodes[at].untried.is_empty() && nodes[at].terminal.is_none() {
                let parent_visits = nodes[at].visits.max(1) as f64;
                let log = parent_visits.ln();
                let mut best = usize::MAX;
                let mut best_value = f64::NEG_INFINITY;
                for &c in &nodes[at].children {
                    let n = &nodes[c];
                    let v = n.visits.max(1) as f64;
                    let value = n.reward / v + EXPLORATION * (log / v).sqrt();
                    if value > best_value {
                        best_value = value;
                        best = c;
                    }
                }
                if best == usize::MAX {
                    break;
                }
                at = best;
                keys.push(&nodes[at].pos);
            }
            // Expansion.
            if nodes[at].terminal.is_none() && !nodes[at].untried.is_empty() {
                let i = self.below(nodes[at].untried.len());
                let m = nodes[at].untried.swap_remove(i);
                let mut pos = nodes[at].pos;
                pos.play_unchecked(m);
                keys.push(&pos);
                let terminal = terminal_reward(&pos, &keys);
                let untried = if terminal.is_some() {
                    Vec::new()
                } else {
                    pos.legal_moves()
                };
                let child = nodes.len();
                nodes.push(Node {
                    mv: Some(m),
                    pos,
                    parent: Some(at),
                    children: Vec::new(),
                    untried,
                    visits: 0,
                    reward: 0.0,
                    terminal,
                });
                nodes[at].children.push(child);
                at = child;
            }
            // Simulation.
            let pos = nodes[at].pos;
            let mut reward = match nodes[at].terminal {
                Some(r) => r,
                None => self.playout(&pos, &mut keys, &mut moves),
            };
            // Back-propagation: the reward flips between the sides at each level.
            let mut n = Some(at);
            while let Some(i) = n {
                nodes[i].visits += 1;
                nodes[i].reward += reward;
                reward = 1.0 - reward;
                n = nodes[i].parent;
            }
        }
        nodes[0]
            .children
            .iter()
            .max_by_key(|&&c| nodes[c].visits)
            .and_then(|&c| nodes[c].mv)
    }
}

impl<V: Variant> Player<V> for MctsPlayer {
    fn name(&self) -> String {
        "mcts".to_string()
    }

    fn choose_move(&mut self, game: &Game<V>, limits: &Limits) -> Option<Move<V>> {
        self.search(game, limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::Game;

    #[test]
    fn the_same_seed_and_playouts_give_the_same_move() {
        let mut game = Game::default();
        for m in ["d3", "f7", "c4"] {
            game.play_text(m).unwrap();
        }
        let limits = Limits::nodes(300);
        let a = MctsPlayer::new(7).choose_move(&game, &limits);
        let b = MctsPlayer::new(7).choose_move(&game, &limits);
        assert!(a.is_some());
        assert_eq!(a, b);
        assert!(game.position().is_legal(a.unwrap()));
    }

    #[test]
    fn mcts_plays_only_legal_moves_through_a_game() {
        let mut game = Game::default();
        let mut player = MctsPlayer::new(3);
        while !game.is_over() && game.ply() < 60 {
            let m = player.choose_move(&game, &Limits::nodes(40)).unwrap();
            assert!(game.position().is_legal(m), "{m} in {}", game.position());
            game.play(m).unwrap();
        }
    }
}
