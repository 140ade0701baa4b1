//! Puzzles from engine games (issue 21): play games between engines of mixed levels, look at the
//! position after every blunder, and keep it when the winning line from it is made of only moves.
//!
//! - **Win probability.** Scores become the side to move's expected result through the logistic
//!   curve the tuner fits to game results ([`crate::tune::fit_scale`]): `1 / (1 + e^(-scale *
//!   centimen / 100))`, 1 or 0 for a mate-like score. [`GenerateReport::fitted_scale`] refits it
//!   to the generated games, so the constant in [`DEFAULT_SCALE`] can be checked on every run.
//! - **Blunder.** A move after which the mover's win probability fell by
//!   [`PuzzleConfig::blunder`] or more (at the scan depth), leaving the other side, the solver,
//!   with at least [`PuzzleConfig::win`].
//! - **Only move.** At each of the solver's moves with a choice, multi-PV 2 at
//!   [`PuzzleConfig::depth`] puts the best move ahead of the second by [`PuzzleConfig::margin`] in
//!   win probability, with the best at least [`PuzzleConfig::win`]; the same test at
//!   [`PuzzleConfig::recheck_depth`] must agree before the move joins the line. Multi-PV tells
//!   root moves apart by the position they reach, so two captures that end in one position are
//!   one move. A ply whose legal moves all reach one position is forced: it is played, written in
//!   the line, and not counted as a puzzle move.
//! - **Opponent's replies.** The best reply at the search depth is the line's; replies within
//!   [`PuzzleConfig::reply_margin`] of it are written as alternatives.
//! - **Rating.** The lowest level (1..=9) whose own move choice (with its randomness, seeded by
//!   the puzzle) finds every solver move of the line sets the starting rating
//!   ([`rating_of_level`]).
//!
//! Everything is deterministic for a seed, whatever the number of threads: each game is played
//! from its own seed, and every analysis starts from an empty transposition table.

use crate::ordered::{run_in_order, InOrder};
use crate::tune;
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::playout::SplitMix;
use emergo_core::position::Position;
use emergo_core::{Color, Variant};
use emergo_engine::eval::Weights;
use emergo_engine::pattern::EvalKind;
use emergo_engine::player::{Limits, Player};
use emergo_engine::search::{is_mate_score, Line};
use emergo_engine::{AlphaBetaPlayer, Level};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The logistic scale of centimen to win probability: [`crate::tune::fit_scale`] on the games
/// of `emergo puzzles generate --games 40 --seed 1` (docs/engine.md), rounded.
pub const DEFAULT_SCALE: f64 = 0.34;

/// The longest game the generator plays, in plies.
const MAX_PLIES: usize = 240;

/// The transposition table of an analysis, in MB (cleared before each search).
const ANALYSIS_HASH_MB: usize = 4;

/// What the generator looks for, and how hard.
#[derive(Clone, Debug)]
pub struct PuzzleConfig {
    /// Games to play.
    pub games: usize,
    /// The seed every game's seed is drawn from.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// The depth of the scan of every game position for blunders.
    pub scan_depth: u32,
    /// The depth of the only-move test.
    pub depth: u32,
    /// The depth at which a solver move is tested again before it is kept.
    pub recheck_depth: u32,
    /// Centimen to win probability (see [`win_probability`]).
    pub scale: f64,
    /// The fall of the mover's win probability that makes a move a blunder.
    pub blunder: f64,
    /// The win probability the solver keeps with each of its moves.
    pub win: f64,
    /// How far the best solver move is ahead of the second, in win probability.
    pub margin: f64,
    /// Opponent replies within this much of the best are alternatives.
    pub reply_margin: f64,
    /// The most puzzle moves (solver moves with a choice) in a line.
    pub max_moves: usize,
}

impl Default for PuzzleConfig {
    fn default() -> PuzzleConfig {
        PuzzleConfig {
            games: 10,
            seed: 1,
            threads: 1,
            scan_depth: 5,
            depth: 6,
            recheck_depth: 8,
            scale: DEFAULT_SCALE,
            blunder: 0.15,
            win: 0.75,
            margin: 0.25,
            reply_margin: 0.05,
            max_moves: 4,
        }
    }
}

/// Other opponent replies at one ply of a line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alternative {
    /// The index in the line of the reply they stand beside.
    pub ply: usize,
    /// The replies (N1).
    pub moves: Vec<String>,
}

/// One puzzle, as the generator writes it (one JSON object a line) and the site loads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    pub id: String,
    /// `"emergo"`: the square 9×9 board.
    pub variant: String,
    /// The position the solver faces (N2).
    pub position: String,
    /// The solution: the solver's moves and the replies alternating, the solver's first, forced
    /// plies included (N1).
    pub line: Vec<String>,
    /// The starting rating.
    pub rating: u32,
    pub themes: Vec<String>,
    /// Opponent replies as good as the line's (within the reply margin).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Alternative>,
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct GenerateReport {
    pub games: usize,
    /// Positions after a blunder that were tested.
    pub candidates: usize,
    /// Puzzles kept (after removing positions found twice).
    pub kept: usize,
    /// The logistic scale fitted to the results of the games played.
    pub fitted_scale: f64,
}

/// Progress, after each game.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub games_done: usize,
    pub candidates: usize,
    pub found: usize,
}

/// The side to move's expected result for a score: the tuner's logistic curve, 1 or 0 for a
/// mate-like score.
pub fn win_probability(score: i32, scale: f64) -> f64 {
    if is_mate_score(score) {
        return if score > 0 { 1.0 } else { 0.0 };
    }
    1.0 / (1.0 + (-scale * f64::from(score) / 100.0).exp())
}

/// The starting rating of a puzzle that level `level` solves (and no lower level does); `None`
/// for one no level up to 9 solves.
pub fn rating_of_level(level: Option<Level>) -> u32 {
    level.map_or(2500, |l| 500 + 200 * u32::from(l.get()))
}

/// The evaluation of every engine of the generator: the linear one, with which the shipped
/// set was made and its win-probability scale ([`DEFAULT_SCALE`]) fitted, so that a seed still
/// makes the same puzzles. (A set made with the learned evaluation would be a new set, with a
/// scale fitted to it.)
const EVAL: EvalKind = EvalKind::Linear;

/// The analyses of one thread: a full-strength player with a small table, cleared before each
/// search so that every answer depends on the position and depth alone.
pub struct Analyst {
    engine: AlphaBetaPlayer,
}

impl Default for Analyst {
    fn default() -> Analyst {
        Analyst::new()
    }
}

impl Analyst {
    pub fn new() -> Analyst {
        let mut engine = AlphaBetaPlayer::with_hash(Level::MAX, ANALYSIS_HASH_MB);
        engine.options_mut().eval = EVAL;
        Analyst { engine }
    }

    /// The best `lines` root moves of `pos` at `depth`, best first (distinct positions).
    pub fn lines<V: Variant>(
        &mut self,
        pos: &Position<V>,
        depth: u32,
        lines: usize,
    ) -> Vec<Line<V>> {
        self.engine.set_multipv(lines);
        self.engine.new_game();
        let game = Game::new(*pos);
        self.engine
            .analyse(&game, &Limits::depth(depth), |_| {})
            .lines
    }

    /// The score of `pos` for its side to move at `depth`.
    pub fn score<V: Variant>(&mut self, pos: &Position<V>, depth: u32) -> i32 {
        self.engine.set_multipv(1);
        self.engine.new_game();
        self.engine
            .analyse(&Game::new(*pos), &Limits::depth(depth), |_| {})
            .score
    }

    /// The only-move test: the move of `pos` that wins by the margin at `depth`, if there is
    /// one. Call it only where the side to move has a choice ([`forced_move`] is `None`).
    pub fn only_move<V: Variant>(
        &mut self,
        pos: &Position<V>,
        depth: u32,
        config: &PuzzleConfig,
    ) -> Option<Move<V>> {
        let lines = self.lines(pos, depth, 2);
        let best = lines.first()?;
        let p_best = win_probability(best.score, config.scale);
        let p_second = lines
            .get(1)
            .map_or(0.0, |l| win_probability(l.score, config.scale));
        (p_best >= config.win && p_best - p_second >= config.margin)
            .then(|| best.first())
            .flatten()
    }
}

/// The move of `pos` when every legal move reaches one position (a single legal move, or
/// capture routes that end alike, R7.4); `None` when there is a choice or no move.
pub fn forced_move<V: Variant>(pos: &Position<V>) -> Option<Move<V>> {
    let moves = pos.legal_moves();
    let first = *moves.first()?;
    let after = pos.play(first).ok()?;
    moves
        .iter()
        .all(|&m| pos.play(m).ok() == Some(after))
        .then_some(first)
}

/// Whether `a` and `b` played in `pos` reach the same position.
pub fn same_result<V: Variant>(pos: &Position<V>, a: Move<V>, b: Move<V>) -> bool {
    a == b || (pos.play(a).ok().is_some() && pos.play(a).ok() == pos.play(b).ok())
}

/// A line found from a candidate position, before it is rated and named.
struct Found<V: Variant> {
    line: Vec<Move<V>>,
    alternatives: Vec<(usize, Vec<Move<V>>)>,
    /// Indexes in `line` of the solver moves with a choice.
    puzzle_moves: Vec<usize>,
}

/// Builds the only-move line from `start` (the solver to move), or `None` when its first choice
/// is not an only move.
fn find_line<V: Variant>(
    analyst: &mut Analyst,
    start: &Position<V>,
    config: &PuzzleConfig,
) -> Option<Found<V>> {
    let solver = start.turn();
    let mut pos = *start;
    let mut line = Vec::new();
    let mut alternatives = Vec::new();
    let mut puzzle_moves = Vec::new();
    // The length of the line after the last solver move that is kept.
    let mut kept_len = 0;
    loop {
        if pos.is_lost() || pos.has_no_moves() {
            break;
        }
        if pos.turn() == solver {
            if puzzle_moves.len() >= config.max_moves {
                break;
            }
            let mv = match forced_move(&pos) {
                Some(mv) => mv,
                None => {
                    let Some(mv) = analyst.only_move(&pos, config.depth, config) else {
                        break;
                    };
                    let again = analyst.only_move(&pos, config.recheck_depth, config);
                    if !again.is_some_and(|m| same_result(&pos, m, mv)) {
                        break;
                    }
                    puzzle_moves.push(line.len());
                    mv
                }
            };
            line.push(mv);
            pos.play_unchecked(mv);
            kept_len = line.len();
        } else {
            let mv = match forced_move(&pos) {
                Some(mv) => mv,
                None => {
                    let lines = analyst.lines(&pos, config.depth, 4);
                    let best = lines.first()?;
                    let p_best = win_probability(best.score, config.scale);
                    let others: Vec<Move<V>> = lines[1..]
                        .iter()
                        .filter(|l| {
                            p_best - win_probability(l.score, config.scale) <= config.reply_margin
                        })
                        .filter_map(Line::first)
                        .collect();
                    if !others.is_empty() {
                        alternatives.push((line.len(), others));
                    }
                    best.first()?
                }
            };
            line.push(mv);
            pos.play_unchecked(mv);
        }
    }
    line.truncate(kept_len);
    alternatives.retain(|(ply, _)| *ply < kept_len);
    (!puzzle_moves.is_empty()).then_some(Found {
        line,
        alternatives,
        puzzle_moves,
    })
}

/// The themes of a line from `start`: what its solver moves do.
pub fn themes<V: Variant>(
    start: &Position<V>,
    line: &[Move<V>],
    puzzle_moves: usize,
) -> Vec<String> {
    let solver = start.turn();
    let mut themes = Vec::new();
    let mut add = |t: &str| {
        if !themes.iter().any(|x: &String| x == t) {
            themes.push(t.to_string());
        }
    };
    if start.hand(Color::White) + start.hand(Color::Black) > 0 {
        add("entering");
    }
    let mut pos = *start;
    let mut won = false;
    for (i, &mv) in line.iter().enumerate() {
        let mine = pos.turn() == solver;
        let before = pos;
        if mine {
            if let Move::Enter(_) = mv {
                if pos.entry_size() > 1 {
                    add("shadowpiece");
                }
            }
            if mv.captures() >= 3 {
                add("long_capture");
            }
        }
        pos.play_unchecked(mv);
        if mine {
            if let Move::Capture(path) = mv {
                // A jumped column whose top is now the capturer's: its men were freed (R6).
                if path.jumps().any(|(over, _)| {
                    pos.owned(solver).contains(over) && !before.owned(solver).contains(over)
                }) {
                    add("liberation");
                }
            } else if i + 1 < line.len() && pos.can_capture(pos.turn()) {
                add("sacrifice");
            }
            if pos.is_lost() {
                won = true;
                if before.owned(solver.other()).len() >= 2 {
                    add("annihilation");
                }
            }
        }
    }
    if won {
        let solver_moves = line.iter().enumerate().filter(|(i, _)| i % 2 == 0).count();
        add(&format!("win_in_{solver_moves}"));
    }
    match puzzle_moves {
        1 => add("one_move"),
        2 => add("short"),
        _ => add("long"),
    }
    themes
}

/// The lowest level whose move choice finds every puzzle move of the line.
fn lowest_level<V: Variant>(start: &Position<V>, found: &Found<V>, seed: u64) -> Option<Level> {
    Level::all().filter(|l| l.get() <= 9).find(|&level| {
        let mut player = AlphaBetaPlayer::new(level).with_seed(seed ^ u64::from(level.get()));
        player.options_mut().eval = EVAL;
        let mut pos = *start;
        for (i, &mv) in found.line.iter().enumerate() {
            if found.puzzle_moves.contains(&i) {
                Player::<V>::new_game(&mut player);
                let chosen = player.choose_move(&Game::new(pos), &Limits::default());
                if !chosen.is_some_and(|c| same_result(&pos, c, mv)) {
                    return false;
                }
            }
            pos.play_unchecked(mv);
        }
        true
    })
}

/// A short name for a puzzle: its position and line, hashed (FNV-1a), in base 62.
fn puzzle_id(position: &str, line: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in position.bytes().chain(line.join(" ").bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    (0..8)
        .map(|_| {
            let d = DIGITS[(h % 62) as usize] as char;
            h /= 62;
            d
        })
        .collect()
}

/// The two levels of game `index`: a stronger side (5..=8) and a weaker one 2 to 4 levels
/// below, on colours drawn at random.
fn levels_of(rng: &mut SplitMix) -> [Level; 2] {
    let strong = 5 + rng.below(4) as u8;
    let weak = strong.saturating_sub(2 + rng.below(3) as u8).max(1);
    let (strong, weak) = (Level::clamped(strong), Level::clamped(weak));
    if rng.below(2) == 0 {
        [strong, weak]
    } else {
        [weak, strong]
    }
}

/// One game's work: the game, its candidates, its puzzles.
struct GameWork {
    /// The game's positions as the tuner's samples (the scale is fitted to them).
    samples: Vec<tune::Sample>,
    candidates: usize,
    puzzles: Vec<Puzzle>,
}

/// Plays game `index` of the run and scans it.
fn play_and_scan<V: Variant>(index: usize, config: &PuzzleConfig) -> GameWork {
    let mut rng = SplitMix::new(config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
    let levels = levels_of(&mut rng);
    let mut players = levels.map(|l| {
        let mut player = AlphaBetaPlayer::new(l).with_seed(rng.next_u64());
        player.options_mut().eval = EVAL;
        player
    });
    let mut game = Game::<V>::default();
    // Two random plies first, so that games of equal levels differ from the start.
    for _ in 0..2 {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let _ = game.play(moves[rng.below(moves.len())]);
    }
    while !game.is_over() && game.ply() < MAX_PLIES {
        let side = usize::from(game.position().turn() != Color::White);
        let Some(mv) = players[side].choose_move(&game, &Limits::default()) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut analyst = Analyst::new();
    let positions = game.positions().to_vec();
    let scores: Vec<i32> = positions
        .iter()
        .map(|p| {
            if p.is_lost() || p.has_no_moves() {
                0
            } else {
                analyst.score(p, config.scan_depth)
            }
        })
        .collect();
    let mut candidates = 0;
    let mut puzzles = Vec::new();
    for i in 0..positions.len().saturating_sub(1) {
        let after = &positions[i + 1];
        if after.is_lost() || after.has_no_moves() {
            continue;
        }
        let mover_before = win_probability(scores[i], config.scale);
        let solver_after = win_probability(scores[i + 1], config.scale);
        if mover_before - (1.0 - solver_after) < config.blunder || solver_after < config.win {
            continue;
        }
        candidates += 1;
        let Some(found) = find_line(&mut analyst, after, config) else {
            continue;
        };
        let position = after.to_string();
        let line: Vec<String> = found.line.iter().map(Move::to_string).collect();
        let id = puzzle_id(&position, &line);
        let seed = config.seed ^ index as u64 ^ (i as u64) << 32;
        let level = lowest_level(after, &found, seed);
        puzzles.push(Puzzle {
            id,
            variant: V::KIND.name().to_string(),
            themes: themes(after, &found.line, found.puzzle_moves.len()),
            alternatives: found
                .alternatives
                .iter()
                .map(|(ply, moves)| Alternative {
                    ply: *ply,
                    moves: moves.iter().map(Move::to_string).collect(),
                })
                .collect(),
            position,
            line,
            rating: rating_of_level(level),
        });
    }
    GameWork {
        samples: tune::samples(&game),
        candidates,
        puzzles,
    }
}

/// What the games give, taken in their order: each position once.
struct Emitter<'a> {
    seen: HashSet<String>,
    puzzles: Vec<Puzzle>,
    report: GenerateReport,
    samples: Vec<tune::Sample>,
    progress: Progress,
    found: &'a (dyn Fn(&Puzzle) + Sync),
}

impl InOrder for Emitter<'_> {
    type Item = GameWork;
    type Progress = Progress;
    fn arrived(&mut self, work: &GameWork) {
        self.progress.games_done += 1;
        self.progress.candidates += work.candidates;
    }
    fn take(&mut self, work: GameWork) {
        self.report.games += 1;
        self.report.candidates += work.candidates;
        self.samples.extend(work.samples);
        for p in work.puzzles {
            if self.seen.insert(p.position.clone()) {
                (self.found)(&p);
                self.puzzles.push(p);
            }
        }
        self.progress.found = self.puzzles.len();
    }
    fn progress(&self) -> Progress {
        self.progress
    }
}

/// Plays `config.games` games on `config.threads` threads and returns the puzzles found, in the
/// order of the games (the same for a seed whatever the threads), each position once, with what
/// the run found. `progress` is called after each game; `found` with each puzzle as soon as every
/// earlier game is done, in the order of the result (so that a long run's output is written as
/// it goes).
pub fn generate<V: Variant>(
    config: &PuzzleConfig,
    progress: &(dyn Fn(Progress) + Sync),
    found: &(dyn Fn(&Puzzle) + Sync),
) -> (Vec<Puzzle>, GenerateReport) {
    let emitter = Emitter {
        seen: HashSet::new(),
        puzzles: Vec::new(),
        report: GenerateReport::default(),
        samples: Vec::new(),
        progress: Progress {
            games_done: 0,
            candidates: 0,
            found: 0,
        },
        found,
    };
    let e = run_in_order(
        config.games,
        config.threads,
        emitter,
        |index| play_and_scan::<V>(index, config),
        progress,
    );
    let mut report = e.report;
    report.kept = e.puzzles.len();
    report.fitted_scale = if e.samples.is_empty() {
        config.scale
    } else {
        tune::fit_scale(&e.samples, &Weights::for_variant(V::KIND))
    };
    (e.puzzles, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_probability_is_the_tuners_curve_and_certain_for_a_mate() {
        assert_eq!(win_probability(0, 0.5), 0.5);
        assert!((win_probability(100, 0.5) - 0.622_459).abs() < 1e-6);
        assert_eq!(win_probability(emergo_engine::search::MATE - 3, 0.5), 1.0);
        assert_eq!(win_probability(-emergo_engine::search::MATE + 3, 0.5), 0.0);
    }

    #[test]
    fn the_start_offers_a_choice_and_a_lone_legal_move_is_forced() {
        assert_eq!(forced_move(&Position::<emergo_core::Emergo>::start()), None);
        // White has one man in hand and one square left it may enter on... take a position
        // with a single capture instead: White e5 over Black f6, nothing else.
        let pos: Position = "W:0:0:e5=W,f5=B".parse().expect("position");
        let forced = forced_move(&pos).expect("the lone capture");
        assert!(forced.is_capture());
    }

    /// R6 liberation: a jump over a Black man on a White prisoner frees it; the capture takes
    /// Black's last column, so the line wins in one (R10.1).
    #[test]
    fn a_capture_that_frees_a_prisoner_and_ends_the_game_is_liberation_and_win_in_1() {
        let pos: Position = "W:0:0:e5=W,f5=BW".parse().expect("position");
        let mv = pos.parse_move("e5xg5").expect("the capture");
        assert_eq!(
            themes(&pos, &[mv], 1),
            ["liberation", "win_in_1", "one_move"]
        );
        let entering: Position = "W:3:3:e5=W,f5=B".parse().expect("position");
        let capture = entering.parse_move("e5xg5").expect("the capture");
        let t = themes(&entering, &[capture], 2);
        assert_eq!(t, ["entering", "short"], "men in hand, no liberation");
    }

    /// The generator on a tiny fixed seed: every solver move with a choice of every puzzle
    /// passes the only-move test again at the re-check depth, the line is legal, and one
    /// thread finds exactly what two found.
    #[test]
    fn every_solver_move_of_generated_puzzles_is_an_only_move_at_the_recheck_depth() {
        let config = PuzzleConfig {
            games: 4,
            seed: 1,
            threads: 2,
            ..PuzzleConfig::default()
        };
        let (puzzles, report) = generate::<emergo_core::Emergo>(&config, &|_| {}, &|_| {});
        assert_eq!(report.games, 4);
        assert!(report.kept <= report.candidates);
        assert!(!puzzles.is_empty(), "{report:?}");
        let mut analyst = Analyst::new();
        for p in &puzzles {
            let mut pos: Position = p.position.parse().expect("N2");
            let solver = pos.turn();
            assert_eq!(
                p.line.len() % 2,
                1,
                "{p:?}: the line ends with a solver move"
            );
            for text in &p.line {
                let mv = pos.parse_move(text).expect("a legal move");
                if pos.turn() == solver && forced_move(&pos).is_none() {
                    let only = analyst
                        .only_move(&pos, config.recheck_depth, &config)
                        .unwrap_or_else(|| panic!("{p:?}: {text} is not an only move"));
                    assert!(same_result(&pos, only, mv), "{p:?}: {text} vs {only}");
                }
                pos.play_unchecked(mv);
            }
        }
        let (alone, _) = generate::<emergo_core::Emergo>(
            &PuzzleConfig {
                threads: 1,
                ..config.clone()
            },
            &|_| {},
            &|_| {},
        );
        assert_eq!(alone, puzzles, "the same seed, the same puzzles");
    }

    /// The first solver move of `p` (after the forced plies the trainer plays) is legal on
    /// its board `V` and wins by the margin at the only-move depth.
    fn first_move_wins<V: Variant>(p: &Puzzle, analyst: &mut Analyst, config: &PuzzleConfig) {
        let mut pos: Position<V> = p.position.parse().expect("N2");
        let mut ply = 0;
        while ply + 1 < p.line.len() && forced_move(&pos).is_some() {
            for _ in 0..2 {
                let mv = pos.parse_move(&p.line[ply]).expect("a legal move");
                pos.play_unchecked(mv);
                ply += 1;
            }
        }
        let mv = pos.parse_move(&p.line[ply]).expect("a legal first move");
        let only = analyst
            .only_move(&pos, config.depth, config)
            .unwrap_or_else(|| panic!("{}: no move wins by the margin", p.id));
        assert!(same_result(&pos, only, mv), "{}: {only} vs {mv}", p.id);
    }

    /// The shipped set (crates/emergo-platform/data/puzzles.jsonl), sampled on each board:
    /// each puzzle's first solver move is legal and wins by the margin at the only-move depth.
    #[test]
    fn the_shipped_puzzles_first_moves_win_by_the_margin() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../emergo-platform/data/puzzles.jsonl"
        );
        let text = std::fs::read_to_string(path).expect("the shipped set");
        let set: Vec<Puzzle> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("a puzzle"))
            .collect();
        let config = PuzzleConfig::default();
        let mut analyst = Analyst::new();
        for kind in emergo_core::VariantKind::ALL {
            let board: Vec<&Puzzle> = set.iter().filter(|p| p.variant == kind.name()).collect();
            assert!(!board.is_empty(), "puzzles of the {kind} board");
            let step = (board.len() / 12).max(1);
            for p in board.iter().step_by(step) {
                emergo_core::with_variant!(kind, V => first_move_wins::<V>(p, &mut analyst, &config));
            }
        }
    }
}
