//! Self-play data for the learned evaluation (issue 25, `emergo selfplay`): games of the
//! full-strength engine against itself at a fixed number of nodes a move, each opened by a few
//! random entries or by a line of an openings file, written as their quiet positions (the side
//! to move has no capture and a move to make) with the search's score and the game's result.
//!
//! A game's moves depend only on the seed and the game's number (the search is single-threaded
//! and limited by nodes, so it is deterministic), and the games are written in their order, so
//! a run gives the same file whatever the threads.
//!
//! The file: `#` comment lines, then one position a line, tab-separated:
//! `<game number>\t<N2 position>\t<result>\t<score>`: the result for the side to move (`1`, `0.5`
//! or `0`) and the search's score in centimen for the side to move (mate scores as they are,
//! ±29,xxx).

use crate::openings::{random_opening, Opening, SplitMix};
use crate::ordered::{run_in_order, InOrder};
use emergo_core::{Color, Outcome, Status, Variant};
use emergo_engine::pattern::EvalKind;
use emergo_engine::{AlphaBetaPlayer, Level, Limits};
use std::fmt::Write as _;

/// A game longer than this is ended and scored as a draw.
pub const MAX_PLIES: usize = 400;

/// What to play.
#[derive(Clone, Debug)]
pub struct SelfplayConfig<V: Variant> {
    pub games: usize,
    /// Nodes searched for every move.
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Openings to start from, in turn (game `i` plays line `i` modulo their number, then
    /// `random_plies` random moves); without any, every game starts with 4 to 8 random entries.
    pub openings: Vec<Opening<V>>,
    /// Random legal moves after an opening line, so that two games of one line differ.
    pub random_plies: usize,
    /// The evaluation the engine plays with.
    pub eval: EvalKind,
}

impl<V: Variant> SelfplayConfig<V> {
    /// `games` games at `nodes` nodes a move, one thread, seed 1, random entries, the linear
    /// evaluation.
    pub fn new(games: usize, nodes: u64) -> SelfplayConfig<V> {
        SelfplayConfig {
            games,
            nodes,
            threads: 1,
            seed: 1,
            openings: Vec::new(),
            random_plies: 2,
            eval: EvalKind::Linear,
        }
    }
}

/// A game's samples, as lines of the file, and its length.
#[derive(Clone, Debug, Default)]
pub struct GameData {
    pub lines: String,
    pub positions: usize,
    pub plies: usize,
    /// 1 for a White win, 0.5 for a draw, 0 for a Black win.
    pub white_score: f64,
}

/// Plays game number `index`.
pub fn play_game<V: Variant>(index: usize, config: &SelfplayConfig<V>) -> GameData {
    let mut rng = SplitMix::new(config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
    let mut game = if config.openings.is_empty() {
        let plies = 4 + rng.below(5);
        let moves = random_opening::<V>(plies, &mut rng).unwrap_or_default();
        Opening::from_moves(moves).game()
    } else {
        let mut game = config.openings[index % config.openings.len()].game();
        for _ in 0..config.random_plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.is_over() {
                break;
            }
            let _ = game.play(moves[rng.below(moves.len())]);
        }
        game
    };
    let mut engine = AlphaBetaPlayer::with_hash(Level::MAX, 4);
    engine.options_mut().eval = config.eval;
    let limits = Limits::nodes(config.nodes);
    let mut samples: Vec<(String, Color, i32)> = Vec::new();
    while !game.is_over() && game.ply() < MAX_PLIES {
        let result = engine.analyse(&game, &limits, |_| {});
        let Some(mv) = result.best else { break };
        let pos = game.position();
        if !pos.can_capture(pos.turn()) && !pos.has_no_moves() {
            samples.push((pos.to_string(), pos.turn(), result.score));
        }
        if game.play(mv).is_err() {
            break;
        }
    }
    let white_score = match game.status() {
        Status::Finished {
            outcome: Outcome::Win(Color::White),
            ..
        } => 1.0,
        Status::Finished {
            outcome: Outcome::Win(Color::Black),
            ..
        } => 0.0,
        _ => 0.5,
    };
    let mut lines = String::new();
    for (position, turn, score) in &samples {
        let result = if *turn == Color::White {
            white_score
        } else {
            1.0 - white_score
        };
        let _ = writeln!(lines, "{index}\t{position}\t{result}\t{score}");
    }
    GameData {
        lines,
        positions: samples.len(),
        plies: game.ply(),
        white_score,
    }
}

/// How far a run is.
#[derive(Clone, Copy, Debug, Default)]
pub struct SelfplayProgress {
    pub games: usize,
    pub positions: usize,
    /// White's points so far.
    pub white_points: f64,
}

/// Writes the games in their order and counts them as they end.
struct Writer<'a> {
    done: SelfplayProgress,
    write: &'a (dyn Fn(&GameData) + Sync),
}

impl InOrder for Writer<'_> {
    type Item = GameData;
    type Progress = SelfplayProgress;
    fn arrived(&mut self, data: &GameData) {
        self.done.games += 1;
        self.done.positions += data.positions;
        self.done.white_points += data.white_score;
    }
    fn take(&mut self, data: GameData) {
        (self.write)(&data);
    }
    fn progress(&self) -> SelfplayProgress {
        self.done
    }
}

/// Plays the games on `config.threads` threads and hands each game's data to `write` in the
/// games' order (a game is written once every game before it is).
pub fn selfplay<V: Variant>(
    config: &SelfplayConfig<V>,
    progress: &(dyn Fn(SelfplayProgress) + Sync),
    write: &(dyn Fn(&GameData) + Sync),
) -> SelfplayProgress {
    let writer = Writer {
        done: SelfplayProgress::default(),
        write,
    };
    run_in_order(
        config.games,
        config.threads,
        writer,
        |index| play_game(index, config),
        progress,
    )
    .done
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::position::Position;
    use emergo_core::Emergo;
    use std::sync::Mutex;

    fn run(threads: usize) -> String {
        let config = SelfplayConfig::<Emergo> {
            threads,
            ..SelfplayConfig::new(6, 300)
        };
        let out = Mutex::new(String::new());
        selfplay(&config, &|_| {}, &|g| {
            out.lock().unwrap().push_str(&g.lines);
        });
        out.into_inner().unwrap()
    }

    #[test]
    fn selfplay_writes_quiet_positions_with_result_and_score_the_same_for_any_threads() {
        let one = run(1);
        assert_eq!(one, run(2));
        let mut games = std::collections::BTreeSet::new();
        for line in one.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{line}");
            games.insert(fields[0].parse::<usize>().unwrap());
            let pos: Position = fields[1].parse().unwrap();
            assert!(!pos.can_capture(pos.turn()), "{line}: a capture is pending");
            assert!(["1", "0.5", "0"].contains(&fields[2]), "{line}");
            fields[3].parse::<i32>().unwrap();
        }
        assert_eq!(games.len(), 6);
        // Games are written in their order.
        let order: Vec<usize> = one
            .lines()
            .map(|l| l.split('\t').next().unwrap().parse().unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]));
    }
}
