//! Multi-PV: the best N root moves, each with its score and principal variation.
//!
//! Line 1 is the single-PV search itself, untouched. After it completes a depth, the main thread
//! searches the same depth again for line 2 with line 1's move excluded at the root, then for
//! line 3 with both excluded, and so on. A root move is excluded by the position it leads to, so
//! two capture routes to one position (R7.4) make one line.
//!
//! The extra lines read the shared transposition table but write only to a table of their own,
//! and use killers and history of their own: the shared state line 1 sees is exactly what a
//! single-PV search would have, so line 1's move, score and PV are those of single-PV search
//! (on one thread, at a fixed depth).

use super::ordering::{History, Killers};
use super::tt::{Entry, TranspositionTable};
use super::{is_mate_score, Worker, MAX_PLY};
use emergo_core::moves::Move;
use emergo_core::{Emergo, Variant};

/// The most lines a search reports.
pub const MAX_LINES: usize = 8;

/// One line of a multi-PV search: a root move's score for the side to move and its principal
/// variation (which starts with the move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<V: Variant = Emergo> {
    pub score: i32,
    pub pv: Vec<Move<V>>,
}

impl<V: Variant> Line<V> {
    /// The root move of the line.
    pub fn first(&self) -> Option<Move<V>> {
        self.pv.first().copied()
    }
}

/// The tables the extra lines write to.
pub(super) struct ExtraTables<V: Variant> {
    tt: TranspositionTable,
    killers: Killers<V>,
    history: History<V>,
}

impl<V: Variant> ExtraTables<V> {
    pub(super) fn new(megabytes: usize) -> ExtraTables<V> {
        ExtraTables {
            tt: TranspositionTable::new(megabytes),
            killers: Killers::new(MAX_PLY + 1),
            history: History::new(),
        }
    }
}

impl<V: Variant> Worker<'_, V> {
    /// The transposition table entry for `key`: in an extra line its own table first.
    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        match &self.extra {
            Some(extra) if self.in_extra_line => {
                extra.tt.probe(key).or_else(|| self.shared.tt.probe(key))
            }
            _ => self.shared.tt.probe(key),
        }
    }

    /// Stores an entry: in an extra line, in its own table only.
    #[inline]
    pub(super) fn store(&self, key: u64, entry: Entry) {
        match &self.extra {
            Some(extra) if self.in_extra_line => extra.tt.store(key, entry),
            _ => self.shared.tt.store(key, entry),
        }
    }

    /// Whether the root move leading to `child_hash` belongs to an earlier line of this depth.
    #[inline]
    pub(super) fn is_excluded(&self, child_hash: u64) -> bool {
        self.excluded.contains(&child_hash)
    }

    /// Swaps the killers and history in or out of the extra lines' tables.
    fn swap_tables(&mut self) {
        if let Some(extra) = self.extra.as_mut() {
            std::mem::swap(&mut self.killers, &mut extra.killers);
            std::mem::swap(&mut self.history, &mut extra.history);
        }
    }

    /// After line 1 (`first`) completed `depth`: the lines 2..`wanted` of this depth. The
    /// previous depth's `previous` lines give the aspiration windows. Stops early when the search
    /// is stopped; the lines returned are complete.
    pub(super) fn more_lines(
        &mut self,
        depth: u32,
        first: Line<V>,
        previous: &[Line<V>],
        wanted: usize,
    ) -> Vec<Line<V>> {
        let mut lines = vec![first];
        if wanted <= 1 || self.extra.is_none() {
            return lines;
        }
        self.swap_tables();
        self.in_extra_line = true;
        self.excluded.clear();
        while lines.len() < wanted {
            let Some(m) = lines.last().and_then(Line::first) else {
                break;
            };
            let mut child = self.root;
            child.play_unchecked(m);
            self.excluded.push(child.hash());
            let guess = previous
                .get(lines.len())
                .map(|l| l.score)
                .filter(|&s| depth >= 5 && !is_mate_score(s));
            let score = self.aspiration(depth, guess);
            if self.stopped || self.pv[0].is_empty() {
                break;
            }
            lines.push(Line {
                score,
                pv: self.pv[0].clone(),
            });
        }
        self.excluded.clear();
        self.in_extra_line = false;
        self.swap_tables();
        lines
    }
}

/// The lines to report: `current` (complete lines of the last depth, line 1 first), then lines
/// of `previous` for root moves not yet listed, `wanted` at most. Line 1 stays first; the others
/// are sorted by score, and a later line never shows more than the line above it (a line searched
/// alone can come out a little above line 1, whose rivals were searched with reductions).
pub fn merge<V: Variant>(
    mut current: Vec<Line<V>>,
    previous: &[Line<V>],
    wanted: usize,
) -> Vec<Line<V>> {
    for line in previous {
        if current.len() >= wanted {
            break;
        }
        if current.iter().all(|l| l.first() != line.first()) {
            current.push(line.clone());
        }
    }
    current.truncate(wanted.max(1));
    if current.len() > 2 {
        current[1..].sort_by_key(|l| std::cmp::Reverse(l.score));
    }
    for k in 1..current.len() {
        current[k].score = current[k].score.min(current[k - 1].score);
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::Position;

    fn line(score: i32, mv: usize) -> Line {
        Line {
            score,
            pv: vec![Position::start().legal_moves()[mv]],
        }
    }

    #[test]
    fn merge_keeps_line_one_first_sorts_the_rest_and_fills_from_before() {
        let current = vec![line(10, 0), line(-5, 1)];
        let previous = vec![line(30, 1), line(20, 2), line(0, 3)];
        let merged = merge(current, &previous, 3);
        let firsts: Vec<_> = merged.iter().map(Line::first).collect();
        assert_eq!(
            firsts,
            [line(0, 0).first(), line(0, 2).first(), line(0, 1).first()]
        );
        let scores: Vec<i32> = merged.iter().map(|l| l.score).collect();
        assert_eq!(scores, [10, 10, -5]);
    }
}
