//! R10.3, threefold repetition: the one history of positions that counts occurrences. `Game`,
//! the record reader, random playouts, MCTS and the search all count with it.

use crate::color::Color;
use crate::position::Position;
use crate::variant::Variant;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// What R10.3 compares of a position: its Zobrist hash (columns, men in hand and side to move)
/// and, as a guard, its men in hand. Two positions with equal keys are taken to be equal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RepetitionKey {
    hash: u64,
    hands: u16,
}

impl RepetitionKey {
    /// The key of `pos`.
    #[inline]
    pub fn of<V: Variant>(pos: &Position<V>) -> RepetitionKey {
        RepetitionKey {
            hash: pos.hash(),
            hands: (pos.hand(Color::White) as u16) << 8 | pos.hand(Color::Black) as u16,
        }
    }

    /// Whether the two positions may be equal: men in hand only decrease during a game, so a
    /// scan back through a history may stop at the first key for which this is false.
    #[inline]
    pub fn same_hands(self, other: RepetitionKey) -> bool {
        self.hands == other.hands
    }
}

impl Hash for RepetitionKey {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The Zobrist hash already covers the hands.
        state.write_u64(self.hash);
    }
}

/// A hasher for keys that are already random (Zobrist hashes): it passes them through.
#[derive(Default, Clone, Copy, Debug)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// The positions of a game in order, each counted, so that each move costs O(1) and the third
/// occurrence of a position (R10.3) is known at once. Captures do not reset it.
#[derive(Clone, Debug, Default)]
pub struct Repetitions {
    keys: Vec<RepetitionKey>,
    counts: HashMap<RepetitionKey, u32, BuildHasherDefault<PassThrough>>,
}

impl Repetitions {
    /// An empty history.
    pub fn new() -> Repetitions {
        Repetitions::default()
    }

    /// A history holding `positions` in order.
    pub fn of<'a, V: Variant>(positions: impl IntoIterator<Item = &'a Position<V>>) -> Repetitions {
        let mut history = Repetitions::new();
        for pos in positions {
            history.push(pos);
        }
        history
    }

    /// Adds the position reached (after a move, or the start); returns how often it has now
    /// occurred, itself included.
    #[inline]
    pub fn push<V: Variant>(&mut self, pos: &Position<V>) -> u32 {
        self.push_key(RepetitionKey::of(pos))
    }

    /// Adds a key (see [`Repetitions::push`]).
    #[inline]
    pub fn push_key(&mut self, key: RepetitionKey) -> u32 {
        self.keys.push(key);
        let count = self.counts.entry(key).or_insert(0);
        *count += 1;
        *count
    }

    /// Takes back the last position (a move taken back).
    pub fn pop(&mut self) -> Option<RepetitionKey> {
        let key = self.keys.pop()?;
        if let Some(count) = self.counts.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                self.counts.remove(&key);
            }
        }
        Some(key)
    }

    /// Takes back positions until `len` remain.
    pub fn truncate(&mut self, len: usize) {
        while self.keys.len() > len {
            self.pop();
        }
    }

    /// Forgets every position.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.counts.clear();
    }

    /// The number of positions held.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys in order, the start first.
    pub fn keys(&self) -> &[RepetitionKey] {
        &self.keys
    }

    /// How often a position with `key` occurs in the history.
    pub fn count(&self, key: RepetitionKey) -> u32 {
        self.counts.get(&key).copied().unwrap_or(0)
    }

    /// How often the last position occurs in the history, itself included (0 when empty).
    pub fn current_count(&self) -> u32 {
        self.keys.last().map_or(0, |&key| self.count(key))
    }

    /// R10.3: the last position occurs for the third time (or more) in the history.
    pub fn is_third_occurrence(&self) -> bool {
        self.current_count() >= 3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r10_3_a_third_occurrence_is_counted_and_taken_back() {
        let p: crate::Position = "W:0:0:a5=W,i5=B".parse().expect("position");
        let mut history = Repetitions::of([&p]);
        let mut pos = p;
        for (i, m) in ["a5-b5", "i5-h5", "b5-a5", "h5-i5"]
            .iter()
            .cycle()
            .take(8)
            .enumerate()
        {
            assert!(!history.is_third_occurrence(), "before ply {}", i + 1);
            pos.play_unchecked(pos.parse_move(m).expect("legal"));
            history.push(&pos);
        }
        assert!(history.is_third_occurrence());
        assert_eq!(history.count(RepetitionKey::of(&p)), 3);
        history.pop();
        assert!(!history.is_third_occurrence());
        assert_eq!(history.len(), 8);
        history.truncate(1);
        assert_eq!(history.current_count(), 1);
        history.clear();
        assert!(!history.is_third_occurrence());
    }
}
