//! Move ordering after the hash move: captures (the longest first, though the majority rule
//! makes all of a position's captures equally long), then two killers per ply, then the history
//! of quiet moves that caused cutoffs.

use emergo_core::{Color, Move};

/// Ordering score of a capture (above killers and history).
pub const CAPTURE: i32 = 1 << 24;
/// Ordering score of the first killer.
pub const KILLER_1: i32 = 1 << 22;
/// Ordering score of the second killer.
pub const KILLER_2: i32 = 1 << 21;
/// History scores stay below this.
const HISTORY_MAX: i32 = 1 << 20;

/// `from` index for a move (41 for an entry) and `to` index.
#[inline]
fn squares(m: Move) -> (usize, usize) {
    (m.from().map_or(41, |s| s.index()), m.to().index())
}

/// Two quiet moves per ply that caused a beta cutoff.
pub struct Killers {
    slots: Vec<[Option<Move>; 2]>,
}

impl Killers {
    pub fn new(plies: usize) -> Killers {
        Killers {
            slots: vec![[None; 2]; plies],
        }
    }

    /// The killers at `ply`.
    #[inline]
    pub fn at(&self, ply: usize) -> [Option<Move>; 2] {
        self.slots.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records a cutoff move at `ply`.
    pub fn add(&mut self, ply: usize, m: Move) {
        if let Some(slot) = self.slots.get_mut(ply) {
            if slot[0] != Some(m) {
                slot[1] = slot[0];
                slot[0] = Some(m);
            }
        }
    }
}

/// Quiet-move history by side, from-square (or hand) and to-square.
pub struct History {
    table: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            table: vec![0; 2 * 42 * 41],
        }
    }

    #[inline]
    fn index(color: Color, m: Move) -> usize {
        let (from, to) = squares(m);
        (color.index() * 42 + from) * 41 + to
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        self.table[Self::index(color, m)]
    }

    fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let entry = &mut self.table[Self::index(color, m)];
        // Gravity: the score moves toward the bonus's bound and never leaves the range.
        *entry += bonus - (*entry as i64 * bonus.abs() as i64 / HISTORY_MAX as i64) as i32;
    }

    /// A quiet move caused a cutoff at `depth`.
    pub fn reward(&mut self, color: Color, m: Move, depth: i32) {
        self.update(color, m, (depth * depth).min(400) * 32);
    }

    /// A quiet move was searched before the cutoff move and failed.
    pub fn punish(&mut self, color: Color, m: Move, depth: i32) {
        self.update(color, m, -(depth * depth).min(400) * 32);
    }
}

/// The ordering score of a move that is not the hash move.
#[inline]
pub fn score(m: Move, turn: Color, killers: [Option<Move>; 2], history: &History) -> i32 {
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
    use emergo_core::Position;

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
}
