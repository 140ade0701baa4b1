//! Move ordering after the hash move: captures (the longest first, though the majority rule
//! makes all of a position's captures equally long), then two killers per ply, then the history
//! of quiet moves that caused cutoffs.

use emergo_core::bitboard::Bitboard;
use emergo_core::moves::Move;
use emergo_core::{Color, Variant};
use std::marker::PhantomData;

/// Ordering score of a capture (above killers and history).
pub const CAPTURE: i32 = 1 << 24;
/// Ordering score of the first killer.
pub const KILLER_1: i32 = 1 << 22;
/// Ordering score of the second killer.
pub const KILLER_2: i32 = 1 << 21;
/// History scores stay below this.
const HISTORY_MAX: i32 = 1 << 20;

/// `from` index for a move (41 for an entry) and `to` index.
/// The cell numbers of the board `V` (41 on the square 9×9 board, 55 on the hexagon, whose
/// numbers have gaps): every cell's number is below it.
const fn slots<V: Variant>() -> usize {
    64 - Bitboard::<V>::ALL.0.leading_zeros() as usize
}

/// A move's from-cell (`slots`, one past the last cell, for an entry) and to-cell.
#[inline]
fn squares<V: Variant>(m: Move<V>) -> (usize, usize) {
    (
        m.from().map_or(const { slots::<V>() }, |s| s.index()),
        m.to().index(),
    )
}

/// Two quiet moves per ply that caused a beta cutoff.
pub struct Killers<V: Variant> {
    slots: Vec<[Option<Move<V>>; 2]>,
}

impl<V: Variant> Killers<V> {
    pub fn new(plies: usize) -> Killers<V> {
        Killers {
            slots: vec![[None; 2]; plies],
        }
    }

    /// The killers at `ply`.
    #[inline]
    pub fn at(&self, ply: usize) -> [Option<Move<V>>; 2] {
        self.slots.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records a cutoff move at `ply`.
    pub fn add(&mut self, ply: usize, m: Move<V>) {
        if let Some(slot) = self.slots.get_mut(ply) {
            if slot[0] != Some(m) {
                slot[1] = slot[0];
                slot[0] = Some(m);
            }
        }
    }
}

/// Quiet-move history by side, from-square (or hand) and to-square.
pub struct History<V: Variant> {
    table: Vec<i32>,
    board: PhantomData<V>,
}

impl<V: Variant> Default for History<V> {
    fn default() -> Self {
        History::new()
    }
}

impl<V: Variant> History<V> {
    const SLOTS: usize = slots::<V>();

    pub fn new() -> History<V> {
        History {
            table: vec![0; 2 * (Self::SLOTS + 1) * Self::SLOTS],
            board: PhantomData,
        }
    }

    #[inline]
    fn index(color: Color, m: Move<V>) -> usize {
        let (from, to) = squares(m);
        (color.index() * (Self::SLOTS + 1) + from) * Self::SLOTS + to
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn get(&self, color: Color, m: Move<V>) -> i32 {
        self.table[Self::index(color, m)]
    }

    fn update(&mut self, color: Color, m: Move<V>, bonus: i32) {
        let entry = &mut self.table[Self::index(color, m)];
        // Gravity: the score moves toward the bonus's bound and never leaves the range.
        *entry += bonus - (*entry as i64 * bonus.abs() as i64 / HISTORY_MAX as i64) as i32;
    }

    /// A quiet move caused a cutoff at `depth`.
    pub fn reward(&mut self, color: Color, m: Move<V>, depth: i32) {
        self.update(color, m, (depth * depth).min(400) * 32);
    }

    /// A quiet move was searched before the cutoff move and failed.
    pub fn punish(&mut self, color: Color, m: Move<V>, depth: i32) {
        self.update(color, m, -(depth * depth).min(400) * 32);
    }
}

/// The ordering score of a move that is not the hash move.
#[inline]
pub fn score<V: Variant>(
    m: Move<V>,
    turn: Color,
    killers: [Option<Move<V>>; 2],
    history: &History<V>,
) -> i32 {
    if m.is_capture() {
        CAPTURE + m.captures() as i32 * 1024 + history.get(turn, m) / 2048
    } else if killers[0] == Some(m) {
        KILLER_1
    } else if killers[1] == Some(m) {
        KILLER_2
    } else {
        history.get(turn, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::{HexEmergo, Position};

    #[test]
    fn killers_rank_above_history_and_below_captures() {
        let pos = Position::start();
        let moves = pos.legal_moves();
        let mut history = History::new();
        for _ in 0..50 {
            history.reward(Color::White, moves[0], 20);
        }
        let mut killers = Killers::new(4);
        killers.add(1, moves[1]);
        killers.add(1, moves[2]);
        let k = killers.at(1);
        assert_eq!(k, [Some(moves[2]), Some(moves[1])]);
        let h = score(moves[0], Color::White, k, &history);
        assert!(h > 0 && h < KILLER_2);
        assert_eq!(score(moves[1], Color::White, k, &history), KILLER_2);
        assert_eq!(score(moves[2], Color::White, k, &history), KILLER_1);
        assert_eq!(score(moves[3], Color::White, k, &history), 0);
    }

    #[test]
    fn history_stays_bounded() {
        let m = Position::start().legal_moves()[0];
        let mut history = History::new();
        for _ in 0..10_000 {
            history.reward(Color::Black, m, 30);
        }
        assert!(history.get(Color::Black, m) <= HISTORY_MAX);
        assert_eq!(history.get(Color::White, m), 0);
        for _ in 0..10_000 {
            history.punish(Color::Black, m, 30);
        }
        assert!(history.get(Color::Black, m) >= -HISTORY_MAX);
    }

    #[test]
    fn the_history_has_a_slot_for_every_move_of_each_board() {
        assert_eq!(slots::<emergo_core::Emergo>(), 41);
        assert_eq!(slots::<emergo_core::Emergo7x7>(), 25);
        assert_eq!(slots::<HexEmergo>(), 55);
        // The hexagon's highest cell (g7, number 54) as from- and to-cell of a step, and an
        // entry onto it.
        let pos: emergo_core::position::Position<HexEmergo> = "W:0:0:g7=W,a1=B".parse().unwrap();
        let mut history = History::<HexEmergo>::new();
        for m in pos.legal_moves() {
            history.reward(Color::White, m, 5);
            assert!(history.get(Color::White, m) > 0, "{m}");
        }
        let entry: emergo_core::position::Position<HexEmergo> = "W:1:0".parse().unwrap();
        for m in entry.legal_moves() {
            history.reward(Color::White, m, 5);
        }
    }
}
