//! Iterative-deepening principal variation search over [`Position`] (copy-make).
//!
//! - Transposition table keyed by the Zobrist hash ([`tt`]), shared by Lazy SMP threads.
//! - Move ordering: the hash move, then captures, killers, history ([`ordering`]).
//! - Aspiration windows from depth 5; late move reductions for quiet moves.
//! - No position ends the search while it is forced: at the horizon, the quiescence search goes
//!   on through every capture (captures are compulsory, R5.1), through positions with a single
//!   legal move, and, once per line, through all replies when the opponent threatens a capture.
//!   A single legal move also extends the main search by one ply.
//! - R10.1 scores as a mate-like score (`MATE - ply`), R10.2 (blocked) and repetitions (R10.3) as
//!   draws: a position repeated inside the search, or for the third time with the game's history.
//! - Multi-PV ([`multipv`]): the best N root moves, line 1 being the single-PV search itself.

pub mod multipv;
pub mod ordering;
pub mod time;
pub mod tt;

use crate::eval::{evaluate, Weights};
use crate::pattern::{EvalKind, Net};
use crate::player::Limits;
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::{Emergo, RepetitionKey, Variant};
pub use multipv::Line;
use multipv::{merge, ExtraTables, MAX_LINES};
use ordering::{History, Killers};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use time::TimeControl;
use tt::{Bound, Entry, TranspositionTable};

/// Scores at or above `MATE - MAX_PLY` are wins (R10.1) found at `MATE - score` plies.
pub const MATE: i32 = 30_000;
/// Greater than any score.
pub const INFINITY: i32 = 31_000;
/// The deepest ply the search reaches, extensions included.
pub const MAX_PLY: usize = 128;
/// The score of a draw.
pub const DRAW: i32 = 0;

/// Whether a score announces a win or loss by R10.1.
pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE - MAX_PLY as i32
}

/// Moves to the end for a mate score: positive when the side to move wins.
pub fn mate_in(score: i32) -> Option<i32> {
    if !is_mate_score(score) {
        return None;
    }
    let plies = MATE - score.abs();
    let moves = (plies + 1) / 2;
    Some(if score > 0 { moves } else { -moves })
}

/// What the search reports after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<V: Variant = Emergo> {
    pub depth: u32,
    /// The deepest ply reached, extensions and quiescence included.
    pub seldepth: u32,
    /// Centimen for the side to move, or a mate-like score (see [`mate_in`]).
    pub score: i32,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub pv: Vec<Move<V>>,
    /// Per mille of the transposition table written in this search.
    pub hashfull: u32,
    /// The best root moves, best first (one unless [`SearchOptions::multipv`] asks for more);
    /// line 1 is `score` and `pv`.
    pub lines: Vec<Line<V>>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<V: Variant = Emergo> {
    /// The best move, `None` when the position has no legal move.
    pub best: Option<Move<V>>,
    /// Its score for the side to move.
    pub score: i32,
    pub pv: Vec<Move<V>>,
    /// The last completed depth.
    pub depth: u32,
    pub nodes: u64,
    /// The best root moves, best first; line 1 is `best`, `score` and `pv`. Lines of the last
    /// depth that completed, then earlier lines for other moves when the search stopped midway.
    pub lines: Vec<Line<V>>,
}

/// Settings of a search that are not limits.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub weights: Weights,
    /// The evaluation: the learned one (where the board has a shipped net) or the linear one
    /// with `weights` (UGI `Eval`).
    pub eval: EvalKind,
    /// A learned evaluation to use instead of the shipped one with [`EvalKind::Pattern`] (one
    /// read from a file, to compare trained weights before shipping them); used only on its
    /// own board.
    pub net: Option<std::sync::Arc<Net>>,
    /// Lazy SMP threads (1 = single-threaded).
    pub threads: usize,
    /// Search every root move without alpha-beta cutoffs at the root, so that root scores are
    /// exact (for levels): exact for every move within `root_margin` of the best, and at most
    /// `best - root_margin - 1` for the others.
    pub exact_root: bool,
    /// See `exact_root`; `INFINITY` makes every root score exact.
    pub root_margin: i32,
    /// In quiescence, search every reply once per line when the opponent threatens a capture.
    pub threat_evasions: bool,
    /// How many best root moves to report (1..=8; UGI `MultiPV`). Not with `exact_root`.
    pub multipv: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            weights: Weights::default(),
            eval: EvalKind::default(),
            net: None,
            threads: 1,
            exact_root: false,
            root_margin: INFINITY,
            threat_evasions: true,
            multipv: 1,
        }
    }
}

/// A search result with the score of every root move from the last completed depth (exact only
/// with [`SearchOptions::exact_root`]).
#[derive(Clone, Debug)]
pub struct FullResult<V: Variant = Emergo> {
    pub result: SearchResult<V>,
    pub root_scores: Vec<(Move<V>, i32)>,
}

/// State shared by the threads of one search.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    /// Set by the caller to stop (UGI `stop`).
    stop: &'a AtomicBool,
    /// Set by the main thread when the search ends.
    abort: AtomicBool,
    nodes: AtomicU64,
}

/// Searches `game`'s current position under `limits`. `stop` may be set from another thread.
pub fn search<V: Variant>(
    game: &Game<V>,
    limits: &Limits,
    options: &SearchOptions,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&SearchInfo<V>),
) -> FullResult<V> {
    let pos = *game.position();
    let tc = TimeControl::new(limits, pos.turn());
    tt.new_search();
    let shared = Shared {
        tt,
        stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    };
    let history: Vec<Position<V>> = game.positions().to_vec();
    let threads = options.threads.clamp(1, 256);
    std::thread::scope(|scope| {
        for id in 1..threads {
            let shared = &shared;
            let tc = &tc;
            let history = &history;
            scope.spawn(move || {
                let mut worker = Worker::<V>::new(shared, options, tc, history, id);
                worker.iterate(&mut |_| {});
            });
        }
        let mut main = Worker::new(&shared, options, &tc, &history, 0);
        let result = main.iterate(info);
        shared.abort.store(true, Ordering::Relaxed);
        result
    })
}

/// One thread's search.
struct Worker<'a, V: Variant> {
    shared: &'a Shared<'a>,
    weights: &'a Weights,
    /// The learned evaluation, when the options ask for it and the board has one.
    net: Option<&'a Net>,
    options: &'a SearchOptions,
    tc: &'a TimeControl,
    id: usize,
    nodes: u64,
    unflushed: u64,
    stopped: bool,
    seldepth: usize,
    /// The key of every position from the game's start to the current node.
    keys: Vec<RepetitionKey>,
    /// The index in `keys` of the root.
    root_index: usize,
    root: Position<V>,
    moves: Vec<Vec<Move<V>>>,
    /// Per ply: the ordering score and generated index of each move of `moves`.
    scored: Vec<Vec<(i32, usize)>>,
    pv: Vec<Vec<Move<V>>>,
    killers: Killers<V>,
    history: History<V>,
    root_scores: Vec<(Move<V>, i32)>,
    /// The move that last raised alpha at the root in the current iteration, with its score.
    root_best: Option<(Move<V>, i32)>,
    /// Multi-PV (main thread): the tables the extra lines write to.
    extra: Option<Box<ExtraTables<V>>>,
    /// Whether an extra line (2..N) is being searched.
    in_extra_line: bool,
    /// In an extra line: the positions the root moves of the earlier lines lead to.
    excluded: Vec<u64>,
}

/// Scores are stored relative to the node, so that a mate found at another ply stays right.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE - MAX_PLY as i32 {
        score + ply as i32
    } else if score <= -(MATE - MAX_PLY as i32) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE - MAX_PLY as i32 {
        score - ply as i32
    } else if score <= -(MATE - MAX_PLY as i32) {
        score + ply as i32
    } else {
        score
    }
}

impl<'a, V: Variant> Worker<'a, V> {
    fn new(
        shared: &'a Shared<'a>,
        options: &'a SearchOptions,
        tc: &'a TimeControl,
        history: &[Position<V>],
        id: usize,
    ) -> Worker<'a, V> {
        let keys: Vec<RepetitionKey> = history.iter().map(RepetitionKey::of).collect();
        let root = *history.last().unwrap_or(&Position::start());
        let extra = (id == 0 && options.multipv > 1 && !options.exact_root)
            .then(|| Box::new(ExtraTables::new((shared.tt.megabytes() / 2).clamp(1, 64))));
        Worker {
            shared,
            weights: &options.weights,
            net: match options.eval {
                EvalKind::Pattern => options
                    .net
                    .as_deref()
                    .filter(|net| net.variant() == V::KIND)
                    .or_else(|| Net::shipped::<V>()),
                EvalKind::Linear => None,
            },
            options,
            tc,
            id,
            nodes: 0,
            unflushed: 0,
            stopped: false,
            seldepth: 0,
            root_index: keys.len().saturating_sub(1),
            keys,
            root,
            moves: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            scored: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            killers: Killers::new(MAX_PLY + 1),
            history: History::new(),
            root_scores: Vec::new(),
            root_best: None,
            extra,
            in_extra_line: false,
            excluded: Vec::new(),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// The static evaluation of a quiet position, for the side to move.
    #[inline]
    fn evaluate(&self, pos: &Position<V>) -> i32 {
        match self.net {
            Some(net) => net.evaluate(pos),
            None => evaluate(pos, self.weights),
        }
    }

    /// Counts a node; every so often checks the stop flags, the clock and the node limit.
    #[inline]
    fn tick(&mut self) -> bool {
        // A stopped search counts no more nodes: callers unwinding may still ask.
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        self.unflushed += 1;
        if let Some(max) = self.tc.max_nodes {
            if self.options.threads <= 1 && self.nodes >= max {
                self.stopped = true;
            }
        }
        if self.unflushed >= 1024 {
            let total = self
                .shared
                .nodes
                .fetch_add(self.unflushed, Ordering::Relaxed)
                + self.unflushed;
            self.unflushed = 0;
            if self.shared.abort.load(Ordering::Relaxed) || self.shared.stop.load(Ordering::Relaxed)
            {
                self.stopped = true;
            }
            if self.is_main() {
                if self.tc.out_of_time() || self.tc.max_nodes.is_some_and(|m| total >= m) {
                    self.stopped = true;
                }
                if self.stopped {
                    self.shared.abort.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stopped
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unflushed
    }

    /// R10.3 in the search: the current node (last of `keys`) repeats a position of the search
    /// path (a two-fold cut-off), or occurs for the third time counting the game's history.
    fn is_repetition(&self) -> bool {
        let n = self.keys.len();
        let current = self.keys[n - 1];
        let mut count = 0;
        let mut i = n as isize - 3;
        while i >= 0 {
            let key = self.keys[i as usize];
            if !key.same_hands(current) {
                break;
            }
            if key == current {
                if i as usize >= self.root_index {
                    return true;
                }
                count += 1;
                if count >= 2 {
                    return true;
                }
            }
            i -= 2;
        }
        false
    }

    fn push(&mut self, pos: &Position<V>) {
        self.keys.push(RepetitionKey::of(pos));
    }

    fn pop(&mut self) {
        self.keys.pop();
    }

    /// Iterative deepening with aspiration windows. Reports each completed depth (main thread).
    fn iterate(&mut self, info: &mut dyn FnMut(&SearchInfo<V>)) -> FullResult<V> {
        let root = self.root;
        let mut root_moves = root.legal_moves();
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: 0,
            pv: root_moves.first().copied().into_iter().collect(),
            depth: 0,
            nodes: 0,
            lines: Vec::new(),
        };
        if root_moves.is_empty() {
            let score = if root.is_lost() { -MATE } else { DRAW };
            result.score = score;
            return FullResult {
                result,
                root_scores: Vec::new(),
            };
        }
        let wanted = if self.extra.is_some() {
            distinct_children(&root, &root_moves).min(self.options.multipv.min(MAX_LINES))
        } else {
            1
        };
        root_moves.clear();
        let mut root_scores = Vec::new();
        let mut lines: Vec<Line<V>> = Vec::new();
        let mut score = 0;
        let mut depth = 1 + (self.id as u32 % 2);
        while depth <= self.tc.max_depth {
            self.seldepth = 0;
            let guess =
                (depth >= 5 && !is_mate_score(score) && !self.options.exact_root).then_some(score);
            let value = self.aspiration(depth, guess);
            // A stopped iteration still counts when a move other than the previous best raised
            // alpha in it: it was searched fully and beat what came before.
            if self.stopped {
                if let Some((best, best_score)) = self.root_best {
                    if Some(best) != result.best && !self.options.exact_root && depth > 1 {
                        result.best = Some(best);
                        result.pv = self.pv[0].clone();
                        result.score = best_score;
                    }
                }
                break;
            }
            score = value;
            result = SearchResult {
                best: self.pv[0].first().copied().or(result.best),
                score,
                pv: self.pv[0].clone(),
                depth,
                nodes: self.total_nodes(),
                lines: Vec::new(),
            };
            root_scores = self.root_scores.clone();
            let first = Line {
                score,
                pv: result.pv.clone(),
            };
            let current = self.more_lines(depth, first, &lines, wanted);
            lines = merge(current, &lines, wanted);
            if self.is_main() {
                let time = self.tc.elapsed();
                let nodes = self.total_nodes();
                info(&SearchInfo {
                    depth,
                    seldepth: self.seldepth as u32,
                    score,
                    nodes,
                    nps: (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
                    time,
                    pv: result.pv.clone(),
                    hashfull: self.shared.tt.hashfull(),
                    lines: lines.clone(),
                });
                if self.stopped {
                    break;
                }
                if !self.tc.infinite {
                    if !self.tc.may_start_iteration() {
                        break;
                    }
                    // A forced root or a proven result needs no deeper search.
                    if self.tc.soft.is_some() && root.count_legal_moves() == 1 {
                        break;
                    }
                    if is_mate_score(score) && depth as i32 > MATE - score.abs() + 2 {
                        break;
                    }
                }
            }
            depth += 1;
        }
        self.flush_nodes();
        result.nodes = self.total_nodes();
        let first = Line {
            score: result.score,
            pv: result.pv.clone(),
        };
        result.lines = merge(vec![first], &lines, wanted);
        FullResult {
            result,
            root_scores,
        }
    }

    /// One depth at the root with aspiration windows around `guess` (a full window without one).
    fn aspiration(&mut self, depth: u32, guess: Option<i32>) -> i32 {
        let mut delta = 35;
        let (mut alpha, mut beta) = match guess {
            Some(score) => (score - delta, score + delta),
            None => (-INFINITY, INFINITY),
        };
        loop {
            self.root_scores.clear();
            self.root_best = None;
            let root = self.root;
            let v = self.search(&root, depth as i32, alpha, beta, 0);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITY);
            } else if v >= beta {
                beta = (v + delta).min(INFINITY);
            } else {
                return v;
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Principal variation search. `ply` 0 is the root.
    fn search(
        &mut self,
        pos: &Position<V>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.is_lost() {
            return -MATE + ply as i32;
        }
        let root = ply == 0;
        if !root {
            if self.is_repetition() {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(pos);
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash();
        let mut tt_index = None;
        if let Some(e) = self.probe(key) {
            tt_index = e.move_index;
            if !pv_node && e.depth >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return DRAW; // R10.2
        }
        let extension = i32::from(moves.len() == 1);
        let tt_move = tt_index.and_then(|i| moves.get(i as usize).copied());
        // Every generated move is searched: the ordering keeps (score, index in the generated
        // list) for each, however many there are.
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        scored.extend(moves.iter().enumerate().map(|(i, &m)| {
            let score = if Some(m) == tt_move {
                1 << 30
            } else {
                ordering::score(m, pos.turn(), self.killers.at(ply), &self.history)
            };
            (score, i)
        }));
        let n = moves.len();
        let alpha_start = alpha;
        let mut best_score = -INFINITY;
        let mut best_move: Option<(Move<V>, usize)> = None;
        let mut seen = CaptureResults::default();
        let mut searched = 0usize;
        for k in 0..n {
            // Selection sort: the next best-ordered move.
            let mut j = k;
            for t in k + 1..n {
                if scored[t].0 > scored[j].0 {
                    j = t;
                }
            }
            scored.swap(k, j);
            moves.swap(k, j);
            let m = moves[k];
            let mut child = *pos;
            child.play_unchecked(m);
            if root && self.in_extra_line && self.is_excluded(child.hash()) {
                continue;
            }
            if m.is_capture() && !seen.first_time(child.hash()) {
                continue;
            }
            self.push(&child);
            let new_depth = depth - 1 + extension;
            let exact = root && self.options.exact_root;
            let score = if exact {
                // Only moves that can still come within the margin of the best need an exact
                // score; the others may fail low.
                let lower = if best_score > -INFINITY {
                    best_score
                        .saturating_sub(self.options.root_margin.max(0))
                        .saturating_sub(1)
                        .max(-INFINITY)
                } else {
                    -INFINITY
                };
                -self.search(&child, new_depth, -INFINITY, -lower, ply + 1)
            } else if searched == 0 {
                -self.search(&child, new_depth, -beta, -alpha, ply + 1)
            } else {
                let quiet = !m.is_capture() && scored[k].0 < ordering::KILLER_2;
                let reduction = if depth >= 3 && searched >= 3 && quiet && extension == 0 {
                    1 + i32::from(searched >= 10 && depth >= 6)
                } else {
                    0
                };
                let mut s =
                    -self.search(&child, new_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if s > alpha && reduction > 0 {
                    s = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.search(&child, new_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.pop();
            if self.stopped {
                self.moves[ply] = moves;
                self.scored[ply] = scored;
                return 0;
            }
            searched += 1;
            if root {
                self.root_scores.push((m, score));
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some((m, scored[k].1));
                    self.update_pv(ply, m);
                    if root {
                        self.root_best = Some((m, score));
                    }
                    if score >= beta {
                        if !m.is_capture() {
                            self.killers.add(ply, m);
                            self.history.reward(pos.turn(), m, depth);
                            for &q in &moves[..k] {
                                if !q.is_capture() {
                                    self.history.punish(pos.turn(), q, depth);
                                }
                            }
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_move.is_some() && best_score > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let move_index = best_move.and_then(|(_, i)| u16::try_from(i).ok());
        self.store(
            key,
            Entry {
                move_index,
                score: to_tt(best_score, ply),
                depth,
                bound,
            },
        );
        self.moves[ply] = moves;
        self.scored[ply] = scored;
        best_score
    }

    /// Quiescence: forced positions (a capture to make, a single move) are searched through; a
    /// capture threat by the opponent is answered once per line (`qply == 0`); otherwise the
    /// static evaluation stands.
    fn qsearch(
        &mut self,
        pos: &Position<V>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if pos.is_lost() {
            return -MATE + ply as i32;
        }
        if self.is_repetition() {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return DRAW;
        }
        let forced = moves[0].is_capture() || moves.len() == 1;
        let evasion = !forced
            && qply == 0
            && self.options.threat_evasions
            && pos.can_capture(pos.turn().other());
        if !forced && !evasion {
            self.moves[ply] = moves;
            return self.evaluate(pos);
        }
        let next_qply = if forced { qply } else { qply + 1 };
        let mut best = -INFINITY;
        let mut seen = CaptureResults::default();
        for k in 0..moves.len() {
            let m = moves[k];
            let mut child = *pos;
            child.play_unchecked(m);
            if m.is_capture() && !seen.first_time(child.hash()) {
                continue;
            }
            self.push(&child);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, next_qply);
            self.pop();
            if self.stopped {
                self.moves[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.moves[ply] = moves;
        best
    }

    fn update_pv(&mut self, ply: usize, m: Move<V>) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }
}

#[cfg(test)]
mod tests;

/// How many different positions the root moves lead to (two capture routes to one position,
/// R7.4, count once): the most lines a multi-PV search can report.
fn distinct_children<V: Variant>(root: &Position<V>, moves: &[Move<V>]) -> usize {
    let mut hashes: Vec<u64> = moves
        .iter()
        .map(|&m| {
            let mut child = *root;
            child.play_unchecked(m);
            child.hash()
        })
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes.len()
}

/// The positions that captures at one node have led to: two routes to the same position (R7.4)
/// need one search. Remembers the first 32; beyond that a repeat is merely searched again.
#[derive(Default)]
struct CaptureResults {
    hashes: [u64; 32],
    len: usize,
}

impl CaptureResults {
    /// Whether no earlier capture at this node led to the position with `hash`; remembers it.
    fn first_time(&mut self, hash: u64) -> bool {
        if self.hashes[..self.len].contains(&hash) {
            return false;
        }
        if self.len < self.hashes.len() {
            self.hashes[self.len] = hash;
            self.len += 1;
        }
        true
    }
}
