//! R10.3, threefold repetition: the one history of positions that counts occurrences. `Game`,
//! the record reader, random playouts, MCTS and the search all count with it.

use crate::color::Color;
use crate::position::Position;
use crate::variant::Variant;
use std::hash::{Hash, Hasher};

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

/// One place of the table of counts: a key and how often it occurs (0 once taken back).
#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    hash: u64,
    count: u32,
    hands: u16,
    /// The place holds a key when this is the table's [`Repetitions::epoch`].
    epoch: u16,
}

/// The positions of a game in order, each counted, so that each move costs O(1) and the third
/// occurrence of a position (R10.3) is known at once. Captures do not reset it.
///
/// The counts are an open-addressing table indexed by the Zobrist hash's low bits (the hash is
/// already random), probed linearly and kept at most half full. A key taken back keeps its
/// place with a count of 0 until the table is next rebuilt from the history. Clearing starts
/// a new epoch, which empties every place at once.
#[derive(Clone, Default)]
pub struct Repetitions {
    keys: Vec<RepetitionKey>,
    /// A power of two long, or empty.
    table: Vec<Slot>,
    /// Places in use in `table`.
    used: usize,
    /// The mark of the places in use (never 0 once the table exists: fresh places are 0).
    epoch: u16,
}

impl std::fmt::Debug for Repetitions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repetitions")
            .field("keys", &self.keys)
            .finish()
    }
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
        if 2 * (self.used + 1) > self.table.len() {
            self.rebuild();
        }
        self.keys.push(key);
        self.add(key)
    }

    /// Counts one more occurrence of `key` in the table, which has a free place.
    #[inline]
    fn add(&mut self, key: RepetitionKey) -> u32 {
        let mask = self.table.len() - 1;
        let mut i = key.hash as usize & mask;
        loop {
            let Some(slot) = self.table.get_mut(i) else {
                return 0;
            };
            if slot.epoch != self.epoch {
                *slot = Slot {
                    hash: key.hash,
                    count: 1,
                    hands: key.hands,
                    epoch: self.epoch,
                };
                self.used += 1;
                return 1;
            }
            if slot.hash == key.hash && slot.hands == key.hands {
                slot.count += 1;
                return slot.count;
            }
            i = (i + 1) & mask;
        }
    }

    /// The place of `key` in the table, if it has one.
    #[inline]
    fn find(&self, key: RepetitionKey) -> Option<usize> {
        let mask = self.table.len().checked_sub(1)?;
        let mut i = key.hash as usize & mask;
        loop {
            let slot = self.table.get(i)?;
            if slot.epoch != self.epoch {
                return None;
            }
            if slot.hash == key.hash && slot.hands == key.hands {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// A table at most a quarter full with one more key, counted again from the history
    /// (which forgets the keys taken back).
    #[cold]
    fn rebuild(&mut self) {
        let size = (4 * (self.keys.len() + 1)).max(64).next_power_of_two();
        self.table.clear();
        self.table.resize(size, Slot::default());
        self.epoch = 1;
        self.used = 0;
        for i in 0..self.keys.len() {
            self.add(self.keys[i]);
        }
    }

    /// Takes back the last position (a move taken back).
    pub fn pop(&mut self) -> Option<RepetitionKey> {
        let key = self.keys.pop()?;
        if let Some(i) = self.find(key) {
            self.table[i].count = self.table[i].count.saturating_sub(1);
        }
        Some(key)
    }

    /// Takes back positions until `len` remain.
    pub fn truncate(&mut self, len: usize) {
        while self.keys.len() > len {
            self.pop();
        }
    }

    /// Forgets every position (and keeps the memory).
    pub fn clear(&mut self) {
        self.keys.clear();
        self.used = 0;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Once in 65,535 clears: the marks start again from a blank table.
            self.table.fill(Slot::default());
            self.epoch = 1;
        }
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
        self.find(key).map_or(0, |i| self.table[i].count)
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

    #[test]
    fn r10_3_counts_agree_with_a_plain_count_through_pops_rebuilds_and_clears() {
        let mut rng = crate::playout::SplitMix::new(25);
        // Keys whose hashes share their low bits (long probes), keys equal but for the hands,
        // and random ones.
        let mut keys: Vec<RepetitionKey> = (0..24u64)
            .map(|i| RepetitionKey {
                hash: i << 40,
                hands: 0,
            })
            .collect();
        keys.extend((0..8u16).map(|h| RepetitionKey { hash: 7, hands: h }));
        keys.extend((0..200).map(|_| RepetitionKey {
            hash: rng.next_u64(),
            hands: 3,
        }));
        let mut history = Repetitions::new();
        let mut plain: Vec<RepetitionKey> = Vec::new();
        let count = |plain: &[RepetitionKey], key| plain.iter().filter(|&&k| k == key).count();
        for step in 0..100_000 {
            match rng.below(100) {
                0..=54 => {
                    let key = keys[rng.below(keys.len())];
                    plain.push(key);
                    assert_eq!(history.push_key(key) as usize, count(&plain, key));
                }
                55..=98 => assert_eq!(history.pop(), plain.pop()),
                _ => {
                    history.clear();
                    plain.clear();
                }
            }
            assert_eq!(history.len(), plain.len());
            if step % 1000 == 0 {
                for &key in &keys {
                    assert_eq!(history.count(key) as usize, count(&plain, key), "{step}");
                }
            }
        }
        // More clears than the epoch mark counts.
        for _ in 0..70_000 {
            history.clear();
            assert_eq!(history.push_key(keys[0]), 1);
            assert_eq!(history.push_key(keys[1]), 1);
            assert_eq!(history.push_key(keys[0]), 2);
        }
        assert_eq!(history.count(keys[2]), 0);
    }
}
