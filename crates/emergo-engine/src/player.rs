//! The one interface every player offers: given a game and limits, choose a legal move.

use crate::rng::XorShift;
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::{ByColor, Emergo, Variant};
use std::time::Duration;

/// What a player may spend on one move. Unset fields do not limit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Greatest search depth in plies.
    pub depth: Option<u32>,
    /// Greatest number of nodes (or playouts for MCTS).
    pub nodes: Option<u64>,
    /// A game clock: the player budgets its own time from it (used when `movetime` is unset).
    pub clock: Option<Clock>,
    /// Search until stopped (through the player's stop flag); other limits are ignored except
    /// `depth` and `nodes`.
    pub infinite: bool,
    /// Time kept back from every time limit for the answer to reach the caller (UGI option
    /// `MoveOverhead`); at least 2 ms is kept from a `movetime` and 30 ms from a clock.
    pub overhead: Duration,
}

/// The time left on each side's clock and each side's increment per move (UGI `p1time`, `p2time`,
/// `p1inc`, `p2inc`; p1 is White).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on each side's clock.
    pub time: ByColor<Duration>,
    /// Each side's increment per move.
    pub inc: ByColor<Duration>,
    /// Moves to play before the clock is next filled up (UGI `movestogo`); the time left is
    /// spread over them.
    pub moves_to_go: Option<u32>,
}

impl Limits {
    /// Only a time per move.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Only a depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Only a node (playout) count.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// A player on the board `V` (the square 9×9 one unless named). `choose_move` returns `None`
/// only when the game has no legal move. The built-in players play every board.
pub trait Player<V: Variant = Emergo>: Send {
    /// A name for logs and game records.
    fn name(&self) -> String;
    /// Forget anything learnt in the previous game.
    fn new_game(&mut self) {}
    /// Chooses a legal move of the current position of `game`.
    fn choose_move(&mut self, game: &Game<V>, limits: &Limits) -> Option<Move<V>>;
}

/// Picks uniformly among the legal moves; deterministic for a seed.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: XorShift,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: XorShift::new(seed ^ 0x9E37_79B9_7F4A_7C15),
        }
    }
}

impl<V: Variant> Player<V> for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose_move(&mut self, game: &Game<V>, _limits: &Limits) -> Option<Move<V>> {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        let i = (self.rng.next_u64() % moves.len() as u64) as usize;
        Some(moves[i])
    }
}
