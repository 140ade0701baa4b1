//! The transposition table: a fixed number of megabytes of entries keyed by the Zobrist hash,
//! shared without locks between search threads (each entry stores `key ^ data` beside `data`, so
//! a torn write reads as a miss).

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is this score.
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One probed entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The index of the best move in the position's generated move list, if known.
    pub move_index: Option<u16>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const NO_MOVE: u64 = 0xFFFF;

impl Entry {
    fn pack(&self, generation: u8) -> u64 {
        let mv = self.move_index.map_or(NO_MOVE, |m| m as u64 & 0xFFFF);
        let score = (self.score as i16 as u16) as u64;
        let depth = (self.depth.clamp(-1, 254) + 1) as u64;
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        mv | score << 16 | depth << 32 | bound << 40 | (generation as u64) << 48
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let mv = data & 0xFFFF;
        Some(Entry {
            move_index: (mv != NO_MOVE).then_some(mv as u16),
            score: (data >> 16) as u16 as i16 as i32,
            depth: ((data >> 32) & 0xFF) as i32 - 1,
            bound,
        })
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 48) as u8
}

/// The table. Two `u64` words (16 bytes) per entry; buckets of two entries: one kept by depth,
/// one always replaced.
pub struct TranspositionTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket; rounded down to a power of two).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let mut buckets = (bytes / 32).max(1);
        buckets = 1 << (usize::BITS - 1 - buckets.leading_zeros());
        let slots = (0..buckets * 2)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        TranspositionTable {
            slots,
            mask: buckets - 1,
            generation: AtomicU64::new(0),
        }
    }

    /// Its size in megabytes.
    pub fn megabytes(&self) -> usize {
        self.slots.len() * 16 / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 0xFF) as u8
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * 2
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + 2] {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Entry::unpack(data);
            }
        }
        None
    }

    /// Stores an entry for `key`, keeping the known best move when the new entry has none.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let b = self.bucket(key);
        let generation = self.generation();
        // Same key: replace in place.
        for slot in &self.slots[b..b + 2] {
            let data = slot[1].load(Ordering::Relaxed);
            if slot[0].load(Ordering::Relaxed) ^ data == key && data != 0 {
                if entry.move_index.is_none() {
                    entry.move_index = Entry::unpack(data).and_then(|e| e.move_index);
                }
                let new = entry.pack(generation);
                slot[0].store(key ^ new, Ordering::Relaxed);
                slot[1].store(new, Ordering::Relaxed);
                return;
            }
        }
        // The first slot keeps the deeper (or current) entry; the second takes the rest.
        let first = self.slots[b][1].load(Ordering::Relaxed);
        let keep_first = Entry::unpack(first)
            .is_some_and(|e| e.depth > entry.depth && generation_of(first) == generation);
        let slot = &self.slots[if keep_first { b + 1 } else { b }];
        let new = entry.pack(generation);
        slot[0].store(key ^ new, Ordering::Relaxed);
        slot[1].store(new, Ordering::Relaxed);
    }

    /// Per mille of the first 1000 buckets' entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let n = self.slots.len().min(2000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && generation_of(d) == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i32, depth: i32, bound: Bound, mv: Option<u16>) -> Entry {
        Entry {
            move_index: mv,
            score,
            depth,
            bound,
        }
    }

    #[test]
    fn a_stored_entry_is_probed_back_exactly() {
        let tt = TranspositionTable::new(1);
        for (key, e) in [
            (
                0x1234_5678_9ABC_DEF0u64,
                entry(-29_950, 7, Bound::Lower, Some(3)),
            ),
            (0x0FED_CBA9_8765_4321, entry(42, 0, Bound::Exact, None)),
            (
                0xDEAD_BEEF_0000_0001,
                entry(30_000, -1, Bound::Upper, Some(511)),
            ),
        ] {
            tt.store(key, e);
            assert_eq!(tt.probe(key), Some(e));
        }
    }

    #[test]
    fn a_different_key_in_the_same_bucket_misses() {
        let tt = TranspositionTable::new(1);
        let key = 0xABCD_0000_0000_0010u64;
        tt.store(key, entry(5, 3, Bound::Exact, Some(1)));
        assert_eq!(tt.probe(key ^ (1 << 60)), None);
        assert_eq!(tt.probe(key + 1), None);
    }

    #[test]
    fn an_entry_without_a_move_keeps_the_known_move() {
        let tt = TranspositionTable::new(1);
        tt.store(99, entry(5, 3, Bound::Exact, Some(7)));
        tt.store(99, entry(8, 4, Bound::Upper, None));
        assert_eq!(tt.probe(99), Some(entry(8, 4, Bound::Upper, Some(7))));
    }

    #[test]
    fn a_deep_entry_survives_a_shallow_collision_in_its_bucket() {
        let tt = TranspositionTable::new(1);
        let buckets = tt.mask + 1;
        let deep = 5u64;
        let shallow = deep + buckets as u64;
        tt.store(deep, entry(1, 9, Bound::Exact, Some(0)));
        tt.store(shallow, entry(2, 1, Bound::Exact, Some(0)));
        assert_eq!(tt.probe(deep).map(|e| e.depth), Some(9));
        assert_eq!(tt.probe(shallow).map(|e| e.depth), Some(1));
        tt.clear();
        assert_eq!(tt.probe(deep), None);
    }
}
