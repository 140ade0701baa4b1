//! The alpha-beta player and its levels for people. One player plays every board: its searches
//! are generic over the board of the game they are given (monomorphised, as the rules are), and
//! it evaluates each board with that board's weights ([`Weights::for_variant`]) unless weights
//! were set.

use crate::eval::Weights;
use crate::level::Level;
use crate::player::{Limits, Player};
use crate::rng::XorShift;
use crate::search::tt::TranspositionTable;
use crate::search::{self, SearchInfo, SearchOptions, SearchResult};
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::{Variant, VariantKind};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The time per move when the limits set nothing at all (at full strength).
pub const DEFAULT_MOVETIME: std::time::Duration = std::time::Duration::from_secs(1);

/// The default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;

/// The table a level's search can fill: two entries (16 bytes each) per node of the level's
/// node cap, rounded up to a power of two in MB, never more than [`DEFAULT_HASH_MB`]; the
/// default for a level without a cap. Filling a 16 MB table for a 2,000-node search took two
/// thirds of the engine threads' time in the 1,000-game load test (issue 17): a fresh table is
/// zeroed before every move the server's engine plays.
fn hash_mb_for(level: Level) -> usize {
    match level.settings().nodes {
        None => DEFAULT_HASH_MB,
        Some(nodes) => {
            let bytes = nodes.saturating_mul(2 * 16);
            let mb = bytes.div_ceil(1024 * 1024).max(1);
            usize::try_from(mb)
                .unwrap_or(usize::MAX)
                .next_power_of_two()
                .min(DEFAULT_HASH_MB)
        }
    }
}

/// Iterative-deepening alpha-beta with the Emergo evaluation. Level 10 is full strength within
/// the limits; lower levels cap depth and nodes and choose at random among near-best moves.
pub struct AlphaBetaPlayer {
    level: Level,
    options: SearchOptions,
    /// Weights for every board, set by [`AlphaBetaPlayer::set_weights`]; without them each
    /// board's own.
    weights: Option<Weights>,
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
    rng: XorShift,
}

impl AlphaBetaPlayer {
    /// A player at `level`, with a transposition table sized for the level (the default for
    /// full strength; a level with a node cap gets what its cap can fill).
    pub fn new(level: Level) -> AlphaBetaPlayer {
        AlphaBetaPlayer::with_hash(level, hash_mb_for(level))
    }

    /// A player at `level` with a transposition table of about `megabytes` MB, allocated once
    /// (where `new` then [`AlphaBetaPlayer::set_hash_mb`] would fill the default table first).
    pub fn with_hash(level: Level, megabytes: usize) -> AlphaBetaPlayer {
        AlphaBetaPlayer {
            level,
            options: SearchOptions::default(),
            weights: None,
            tt: TranspositionTable::new(megabytes.clamp(1, 65_536)),
            stop: Arc::new(AtomicBool::new(false)),
            rng: XorShift::new(0x5EED_0000_0000_0001),
        }
    }

    /// The same player with another seed for its randomness (levels below 10).
    pub fn with_seed(mut self, seed: u64) -> AlphaBetaPlayer {
        self.rng = XorShift::new(seed ^ 0x9E37_79B9_7F4A_7C15);
        self
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Sets the level.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// Resizes the transposition table (which empties it).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.tt = TranspositionTable::new(megabytes.clamp(1, 65_536));
    }

    /// The transposition table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.tt.megabytes()
    }

    /// Sets the number of search threads (Lazy SMP).
    pub fn set_threads(&mut self, threads: usize) {
        self.options.threads = threads.clamp(1, 256);
    }

    /// Sets how many best root moves [`AlphaBetaPlayer::analyse`] reports (1..=8, UGI `MultiPV`);
    /// the move a level chooses does not depend on it.
    pub fn set_multipv(&mut self, lines: usize) {
        self.options.multipv = lines.clamp(1, search::multipv::MAX_LINES);
    }

    /// How many lines [`AlphaBetaPlayer::analyse`] reports.
    pub fn multipv(&self) -> usize {
        self.options.multipv
    }

    /// The evaluation weights on the square 9×9 board (see [`AlphaBetaPlayer::weights_on`]).
    pub fn weights(&self) -> &Weights {
        self.weights.as_ref().unwrap_or(&self.options.weights)
    }

    /// The evaluation weights the player uses on the board `kind`: those set by
    /// [`AlphaBetaPlayer::set_weights`], or the board's own.
    pub fn weights_on(&self, kind: VariantKind) -> Weights {
        self.weights
            .clone()
            .unwrap_or_else(|| Weights::for_variant(kind))
    }

    /// Replaces the evaluation weights, on every board (for tuning).
    pub fn set_weights(&mut self, weights: Weights) {
        self.options.weights = weights.clone();
        self.weights = Some(weights);
    }

    /// Forgets the game's state (the transposition table): the same as
    /// [`Player::new_game`], callable without naming a board.
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// The options of a search on the board `V`: these, with the board's weights.
    fn options_for<V: Variant>(&self) -> SearchOptions {
        SearchOptions {
            weights: self.weights_on(V::KIND),
            ..self.options.clone()
        }
    }

    /// All search options (threat evasions in quiescence, exact root scores, ...). Their
    /// `weights` are those of the square board; a search on another board takes that board's
    /// (see [`AlphaBetaPlayer::weights_on`]).
    pub fn options_mut(&mut self) -> &mut SearchOptions {
        &mut self.options
    }

    /// The flag that stops a running search when set (from any thread). The search does not
    /// clear it: clear it before the next search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The same player stopped by `flag` instead of a flag of its own: a caller that already
    /// has a cancellation flag (a server's takeback, say) ends the search by setting it.
    pub fn with_stop_flag(mut self, flag: Arc<AtomicBool>) -> AlphaBetaPlayer {
        self.stop = flag;
        self
    }

    /// Forgets everything learnt (the transposition table).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    fn level_limits(&self, limits: &Limits) -> Limits {
        let level = self.level.settings();
        let mut l = limits.clone();
        let unlimited = l.movetime.is_none()
            && l.depth.is_none()
            && l.nodes.is_none()
            && l.clock.is_none()
            && !l.infinite;
        if unlimited && level.depth.is_none() {
            l.movetime = Some(DEFAULT_MOVETIME);
        }
        if let Some(d) = level.depth {
            l.depth = Some(l.depth.map_or(d, |x| x.min(d)));
        }
        if let Some(n) = level.nodes {
            l.nodes = Some(l.nodes.map_or(n, |x| x.min(n)));
        }
        l
    }

    /// Searches the current position of `game` within `limits` and this level's depth and node
    /// caps (with no limit at all, [`DEFAULT_MOVETIME`]), calling `info` after each completed depth. Returns the best move (no randomness).
    pub fn analyse<V: Variant>(
        &mut self,
        game: &Game<V>,
        limits: &Limits,
        mut info: impl FnMut(&SearchInfo<V>),
    ) -> SearchResult<V> {
        let limits = self.level_limits(limits);
        let options = self.options_for::<V>();
        search::search(game, &limits, &options, &self.tt, &self.stop, &mut info).result
    }
}

impl<V: Variant> Player<V> for AlphaBetaPlayer {
    fn name(&self) -> String {
        format!("alphabeta:level={}", self.level)
    }

    fn new_game(&mut self) {
        self.tt.clear();
    }

    fn choose_move(&mut self, game: &Game<V>, limits: &Limits) -> Option<Move<V>> {
        let level = self.level.settings();
        if level.noise == 0 {
            let limits = self.level_limits(limits);
            let options = SearchOptions {
                multipv: 1,
                ..self.options_for::<V>()
            };
            return search::search(game, &limits, &options, &self.tt, &self.stop, &mut |_| {})
                .result
                .best;
        }
        let limits = self.level_limits(limits);
        let options = SearchOptions {
            multipv: 1,
            exact_root: true,
            root_margin: level.noise,
            ..self.options_for::<V>()
        };
        let full = search::search(game, &limits, &options, &self.tt, &self.stop, &mut |_| {});
        if full.root_scores.is_empty() {
            return full.result.best;
        }
        let mut choice = full.result.best;
        let mut best = i32::MIN;
        for &(m, score) in &full.root_scores {
            let noisy =
                score.saturating_add((self.rng.next_u64() % (level.noise as u64 + 1)) as i32);
            if noisy > best {
                best = noisy;
                choice = Some(m);
            }
        }
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_level_gets_the_table_its_node_cap_can_fill() {
        let sizes: Vec<usize> = Level::all()
            .map(|l| AlphaBetaPlayer::new(l).hash_mb())
            .collect();
        assert_eq!(sizes[0], 1, "level 1 searches 2,000 nodes");
        assert_eq!(
            sizes[4], 2,
            "level 5 searches 60,000 nodes: 1.9 MB of entries"
        );
        assert_eq!(*sizes.last().unwrap(), DEFAULT_HASH_MB, "full strength");
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
        for level in Level::all() {
            if let Some(nodes) = level.settings().nodes {
                let entries = AlphaBetaPlayer::new(level).hash_mb() as u64 * 1024 * 1024 / 16;
                assert!(
                    entries >= nodes.min(DEFAULT_HASH_MB as u64 * 1024 * 1024 / 16),
                    "level {level:?}: {entries} entries for {nodes} nodes"
                );
            }
        }
    }
}
