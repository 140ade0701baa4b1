//! Playing games and matches: contestants (built-in players or external UGI engines), the game
//! runner (rules to the end, a ply cap as the only adjudication, forfeits for illegal moves,
//! silence and time), and the match runner (openings twice with colours swapped, threads,
//! results, Elo, SPRT). A match is played on one board ([`MatchConfig`]'s type parameter): both
//! engines play on it, an external one told so by the UGI option `UGI_Variant`.

use crate::openings::{openings, Opening, SplitMix};
use crate::spec::{EngineKind, EngineSpec, SpecError, TimeControl};
use crate::stats::{EloEstimate, Sprt, SprtStatus, Verdict, Wdl};
use crate::ugi::{UgiEngine, UgiError};
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::record::GameRecord;
use emergo_core::{ByColor, Color, Emergo, EndReason, Outcome, Status, Variant, VariantKind};
use emergo_engine::alphabeta::AlphaBetaPlayer;
use emergo_engine::book::{Book, BookPlayer};
use emergo_engine::greedy::GreedyPlayer;
use emergo_engine::mcts::MctsPlayer;
use emergo_engine::pattern::{EvalKind, Net};
use emergo_engine::player::{Clock, Limits, Player, RandomPlayer};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a match could not be run.
#[derive(Debug, Error)]
pub enum ArenaError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("engine {name}: {source}")]
    Ugi {
        name: String,
        #[source]
        source: UgiError,
    },
    #[error("a match needs at least one game")]
    NoGames,
    #[error("engine {name}: {path}: {message}")]
    Net {
        name: String,
        path: std::path::PathBuf,
        message: String,
    },
    #[error("engine {name}: book {path}: {message}")]
    Book {
        name: String,
        path: std::path::PathBuf,
        message: String,
    },
}

/// What a built-in player reads from files (`net=`, `bookfile=`) or the engine ships (the
/// book of `book=on`), read once per contestant rather than for each game.
struct Loaded<V: Variant> {
    net: Option<Arc<Net>>,
    book: Option<Arc<Book<V>>>,
}

impl<V: Variant> Loaded<V> {
    fn of(spec: &EngineSpec) -> Result<Loaded<V>, ArenaError> {
        let mut loaded = Loaded {
            net: None,
            book: None,
        };
        if !matches!(spec.kind, EngineKind::AlphaBeta { .. }) {
            return Ok(loaded);
        }
        if let Some(path) = &spec.net {
            let error = |message: String| ArenaError::Net {
                name: spec.name.clone(),
                path: path.clone(),
                message,
            };
            let bytes = std::fs::read(path).map_err(|e| error(e.to_string()))?;
            let net = Net::from_bytes::<V>(&bytes).map_err(|e| error(e.to_string()))?;
            loaded.net = Some(Arc::new(net));
        }
        if spec.book {
            loaded.book = Some(match &spec.book_file {
                Some(path) => Arc::new(Book::<V>::load(path).map_err(|e| ArenaError::Book {
                    name: spec.name.clone(),
                    path: path.clone(),
                    message: e.to_string(),
                })?),
                None => Book::<V>::shipped(),
            });
        }
        Ok(loaded)
    }
}

/// The built-in player of a spec, seeded. `None` for external engines.
fn builtin_player<V: Variant>(
    spec: &EngineSpec,
    loaded: &Loaded<V>,
    seed: u64,
) -> Option<Box<dyn Player<V>>> {
    Some(match &spec.kind {
        EngineKind::Random => Box::new(RandomPlayer::new(seed)),
        EngineKind::Greedy => Box::new(GreedyPlayer::new(seed)),
        EngineKind::AlphaBeta { level } => {
            let mut player = AlphaBetaPlayer::new(*level).with_seed(seed);
            player.set_threads(spec.threads);
            // Weights are the linear evaluation's: a spec that sets some plays with it unless
            // it names an evaluation.
            let linear = (!spec.weights.is_empty()).then_some(EvalKind::Linear);
            if let Some(eval) = spec.eval.or(linear) {
                player.options_mut().eval = eval;
            }
            if let Some(net) = &loaded.net {
                player.options_mut().net = Some(Arc::clone(net));
            }
            if !spec.weights.is_empty() {
                let mut weights = player.weights_on(V::KIND);
                for (name, value) in &spec.weights {
                    weights.set(name, *value);
                }
                player.set_weights(weights);
            }
            match &loaded.book {
                Some(book) => Box::new(BookPlayer::new(
                    Arc::clone(book),
                    *level,
                    seed,
                    Box::new(player),
                )),
                None => Box::new(player),
            }
        }
        EngineKind::Mcts => Box::new(MctsPlayer::new(seed)),
        EngineKind::Ugi { .. } => return None,
    })
}

/// One side of a game: a built-in player or an external engine.
pub(crate) struct Contestant<V: Variant> {
    spec: EngineSpec,
    loaded: Loaded<V>,
    player: Option<Box<dyn Player<V>>>,
    engine: Option<UgiEngine>,
}

/// What a contestant answered when asked for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer<V: Variant> {
    Move(Move<V>),
    /// Text (or a move) that is not a legal move of the position.
    Illegal(String),
    /// No answer: the engine crashed, went silent, or returned nothing.
    Failed(String),
}

impl<V: Variant> Contestant<V> {
    /// Builds the player of `spec`; an external engine is started and greeted (and told the
    /// board, when it is not the square 9×9 one).
    pub(crate) fn new(spec: &EngineSpec, seed: u64) -> Result<Contestant<V>, ArenaError> {
        let loaded = Loaded::of(spec)?;
        let player = builtin_player(spec, &loaded, seed);
        let mut contestant = Contestant {
            spec: spec.clone(),
            loaded,
            player,
            engine: None,
        };
        if contestant.player.is_none() {
            contestant.start_engine()?;
        }
        Ok(contestant)
    }

    fn start_engine(&mut self) -> Result<(), ArenaError> {
        if let EngineKind::Ugi { command } = &self.spec.kind {
            let error = |source| ArenaError::Ugi {
                name: self.spec.name.clone(),
                source,
            };
            let mut engine = UgiEngine::start(command).map_err(&error)?;
            if V::KIND != VariantKind::Emergo {
                engine
                    .send(&format!("setoption name UGI_Variant value {}", V::KIND))
                    .and_then(|()| engine.ready())
                    .map_err(&error)?;
            }
            self.engine = Some(engine);
        }
        Ok(())
    }

    /// Prepares for a new game (restarting an external engine that died); an error means the
    /// engine cannot play.
    pub(crate) fn new_game(&mut self, seed: u64) -> Result<(), String> {
        if self.engine.is_none() && self.player.is_none() {
            self.start_engine().map_err(|e| e.to_string())?;
        }
        if let Some(engine) = &mut self.engine {
            if let Err(e) = engine.new_game() {
                self.engine = None;
                return Err(e.to_string());
            }
        }
        if self.player.is_some() {
            // Seeded per game, so that a match replays the same for a seed.
            self.player = builtin_player(&self.spec, &self.loaded, seed);
        }
        Ok(())
    }

    /// The limits a built-in player gets for this move: the spec's own time, or its fixed depth
    /// or nodes alone, or the match's time control (a clock the player budgets itself).
    fn limits(&self, tc: &TimeControl, clocks: [Duration; 2]) -> Limits {
        let mut limits = Limits {
            depth: self.spec.depth,
            nodes: self.spec.nodes,
            ..Limits::default()
        };
        if let Some(t) = self.spec.movetime {
            limits.movetime = Some(t);
        } else if !self.spec.fixed_search() {
            match *tc {
                TimeControl::MoveTime(t) => limits.movetime = Some(t),
                TimeControl::Clock { inc, .. } => {
                    limits.clock = Some(Clock {
                        time: ByColor::new(clocks[0], clocks[1]),
                        inc: ByColor::splat(inc),
                        moves_to_go: None,
                    })
                }
            }
        }
        limits
    }

    /// Asks for a move of the current position of `game`. `clocks` are the time left of White
    /// and Black (used with a clock time control).
    pub(crate) fn think(
        &mut self,
        game: &Game<V>,
        tc: &TimeControl,
        clocks: [Duration; 2],
    ) -> Answer<V> {
        let position = *game.position();
        let me = position.turn().index();
        let limits = self.limits(tc, clocks);
        if let Some(player) = &mut self.player {
            let chosen =
                panic::catch_unwind(AssertUnwindSafe(|| player.choose_move(game, &limits)));
            return match chosen {
                Ok(Some(mv)) if position.is_legal(mv) => Answer::Move(mv),
                Ok(Some(mv)) => Answer::Illegal(mv.to_string()),
                Ok(None) => Answer::Failed("returned no move".to_string()),
                Err(_) => Answer::Failed("panicked".to_string()),
            };
        }
        let Some(engine) = &mut self.engine else {
            return Answer::Failed("engine is not running".to_string());
        };
        let mut line = format!("position fen {}", game.start());
        if !game.moves().is_empty() {
            line.push_str(" moves");
            for mv in game.moves() {
                let _ = write!(line, " {mv}");
            }
        }
        let (go, allowed) = match *tc {
            TimeControl::MoveTime(t) => (format!("go movetime {}", t.as_millis()), t * 4),
            TimeControl::Clock { inc, .. } => (
                format!(
                    "go p1time {} p2time {} p1inc {} p2inc {}",
                    clocks[0].as_millis(),
                    clocks[1].as_millis(),
                    inc.as_millis(),
                    inc.as_millis()
                ),
                clocks[me] + inc,
            ),
        };
        let deadline = Instant::now() + allowed + Duration::from_secs(5);
        match engine.best_move(&line, &go, deadline) {
            Ok(token) => match position.parse_move(&token) {
                Ok(mv) => Answer::Move(mv),
                Err(_) => Answer::Illegal(token),
            },
            Err(e) => {
                // A silent or dead engine is restarted for the next game.
                self.engine = None;
                Answer::Failed(e.to_string())
            }
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Termination {
    /// By the rules (R10): no pieces, blocked, threefold repetition.
    Rules(EndReason),
    /// The ply cap was reached: a draw.
    PlyCap,
    /// `side` answered with an illegal move and lost.
    IllegalMove { side: Color, text: String },
    /// `side` gave no answer (crash, silence, no move) and lost.
    Failure { side: Color, message: String },
    /// `side` overstepped its clock and lost.
    TimeForfeit { side: Color },
}

impl Termination {
    /// The value of the record's `Termination` tag.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Termination::Rules(r) => r.name(),
            Termination::PlyCap => "ply cap",
            Termination::IllegalMove { .. } => "illegal move",
            Termination::Failure { .. } => "engine failure",
            Termination::TimeForfeit { .. } => "time forfeit",
        }
    }

    /// The side that forfeited, if the game was lost by forfeit.
    pub(crate) fn forfeiter(&self) -> Option<Color> {
        match self {
            Termination::IllegalMove { side, .. }
            | Termination::Failure { side, .. }
            | Termination::TimeForfeit { side } => Some(*side),
            _ => None,
        }
    }
}

/// Everything about one game to play.
#[derive(Clone, Debug)]
pub(crate) struct GameSetup<V: Variant> {
    pub(crate) event: String,
    /// The game number in the match, from 1.
    pub(crate) round: usize,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) opening: Opening<V>,
    pub(crate) tc: TimeControl,
    /// The ply cap: reaching it is a draw (the only adjudication).
    pub(crate) max_plies: usize,
    /// How far a side may overstep its clock before it loses on time.
    pub(crate) time_margin: Duration,
    /// Seed for the built-in players of this game.
    pub(crate) seed: u64,
}

/// A played game.
#[derive(Clone, Debug)]
pub struct GameResult<V: Variant = Emergo> {
    pub round: usize,
    pub(crate) outcome: Outcome,
    pub(crate) termination: Termination,
    pub record: GameRecord<V>,
    pub(crate) plies: usize,
}

/// Plays one game from the opening to the end.
pub(crate) fn play_game<V: Variant>(
    white: &mut Contestant<V>,
    black: &mut Contestant<V>,
    setup: &GameSetup<V>,
) -> GameResult<V> {
    let mut game = setup.opening.game();
    let mut clocks = match setup.tc {
        TimeControl::Clock { base, .. } => [base; 2],
        TimeControl::MoveTime(t) => [t; 2],
    };
    let mut termination = None;
    for (color, contestant) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if termination.is_none() {
            if let Err(message) = contestant.new_game(setup.seed ^ color.index() as u64) {
                termination = Some(Termination::Failure {
                    side: color,
                    message,
                });
            }
        }
    }
    while termination.is_none() {
        if let Status::Finished { reason, .. } = game.status() {
            termination = Some(Termination::Rules(reason));
            break;
        }
        if game.ply() >= setup.max_plies {
            termination = Some(Termination::PlyCap);
            break;
        }
        let side = game.position().turn();
        let contestant = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let started = Instant::now();
        let answer = contestant.think(&game, &setup.tc, clocks);
        let elapsed = started.elapsed();
        if let TimeControl::Clock { inc, .. } = setup.tc {
            let left = &mut clocks[side.index()];
            if elapsed > *left + setup.time_margin {
                termination = Some(Termination::TimeForfeit { side });
                break;
            }
            *left = left.saturating_sub(elapsed) + inc;
        }
        match answer {
            Answer::Move(mv) => {
                if game.play(mv).is_err() {
                    termination = Some(Termination::IllegalMove {
                        side,
                        text: mv.to_string(),
                    });
                }
            }
            Answer::Illegal(text) => termination = Some(Termination::IllegalMove { side, text }),
            Answer::Failed(message) => termination = Some(Termination::Failure { side, message }),
        }
    }
    let termination = termination.unwrap_or(Termination::PlyCap);
    let outcome = match (&termination, game.status()) {
        (Termination::Rules(_), Status::Finished { outcome, .. }) => outcome,
        (t, _) => match t.forfeiter() {
            Some(side) => Outcome::Win(side.other()),
            None => Outcome::Draw,
        },
    };
    let round = setup.round.to_string();
    let tc = setup.tc.to_string();
    let opening = setup.opening.text();
    let mut record = GameRecord::from_game(
        &game,
        &[
            ("Event", &setup.event),
            ("Round", &round),
            ("White", &setup.white),
            ("Black", &setup.black),
            ("TimeControl", &tc),
            ("Opening", &opening),
        ],
    );
    record.result = Some(outcome);
    record.set_tag("Result", outcome.token());
    record.set_tag("Termination", termination.name());
    let note = match &termination {
        Termination::IllegalMove { side, text } => {
            Some(format!("{side:?} forfeits: illegal move '{text}'"))
        }
        Termination::Failure { side, message } => Some(format!("{side:?} forfeits: {message}")),
        Termination::TimeForfeit { side } => Some(format!("{side:?} forfeits on time")),
        Termination::PlyCap => Some(format!("draw by the ply cap of {}", setup.max_plies)),
        Termination::Rules(_) => None,
    };
    if let Some(note) = note {
        let note = note.replace(['{', '}'], "");
        match record.moves.last_mut() {
            Some(m) => m.comment = Some(note),
            None => record.opening_comment = Some(note),
        }
    }
    GameResult {
        round: setup.round,
        outcome,
        termination,
        record,
        plies: game.ply(),
    }
}

/// Everything a match needs, on the board `V` (the square 9×9 one unless named).
#[derive(Clone, Debug)]
pub struct MatchConfig<V: Variant = Emergo> {
    pub(crate) engines: [EngineSpec; 2],
    pub(crate) games: usize,
    pub tc: TimeControl,
    pub concurrency: usize,
    /// Entries in each random opening.
    pub opening_plies: usize,
    /// Openings to play instead of random ones, in this order (from the first again when the
    /// match has more games than twice their number).
    pub book: Option<Vec<Opening<V>>>,
    pub seed: u64,
    pub max_plies: usize,
    pub time_margin: Duration,
    pub sprt: Option<Sprt>,
    pub(crate) event: String,
}

impl<V: Variant> MatchConfig<V> {
    /// A match of `games` games between two engines with the defaults: 100 ms per move, one
    /// thread, 4-ply openings, seed 1, a 1000-ply cap, 200 ms of time margin, no SPRT.
    pub fn new(engines: [EngineSpec; 2], games: usize) -> MatchConfig<V> {
        MatchConfig {
            engines,
            games,
            tc: TimeControl::default(),
            concurrency: 1,
            opening_plies: 4,
            book: None,
            seed: 1,
            max_plies: 1000,
            time_margin: Duration::from_millis(200),
            sprt: None,
            event: "emergo match".to_string(),
        }
    }

    /// The names of the two engines as records show them (made distinct when equal).
    pub(crate) fn names(&self) -> [String; 2] {
        let [a, b] = &self.engines;
        if a.name == b.name {
            [format!("{} #1", a.name), format!("{} #2", b.name)]
        } else {
            [a.name.clone(), b.name.clone()]
        }
    }
}

/// Running totals, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wdl: Wdl,
    /// The first engine's results when it had White.
    pub(crate) as_white: Wdl,
    /// The first engine's results when it had Black.
    pub(crate) as_black: Wdl,
    /// Games per termination name.
    pub(crate) terminations: BTreeMap<&'static str, u32>,
    /// Games each engine lost by forfeit.
    pub(crate) forfeits: [u32; 2],
    pub(crate) plies: u64,
}

impl Tally {
    fn add<V: Variant>(&mut self, result: &GameResult<V>, engine1_white: bool) {
        let engine1 = if engine1_white {
            Color::White
        } else {
            Color::Black
        };
        let part = match result.outcome {
            Outcome::Draw => Wdl::new(0, 1, 0),
            Outcome::Win(c) if c == engine1 => Wdl::new(1, 0, 0),
            Outcome::Win(_) => Wdl::new(0, 0, 1),
        };
        let add = |w: &mut Wdl| {
            w.wins += part.wins;
            w.draws += part.draws;
            w.losses += part.losses;
        };
        add(&mut self.wdl);
        add(if engine1_white {
            &mut self.as_white
        } else {
            &mut self.as_black
        });
        *self
            .terminations
            .entry(result.termination.name())
            .or_default() += 1;
        if let Some(side) = result.termination.forfeiter() {
            self.forfeits[usize::from(side != engine1)] += 1;
        }
        self.plies += result.plies as u64;
    }
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub(crate) names: [String; 2],
    pub(crate) planned: usize,
    pub tally: Tally,
    pub(crate) elo: EloEstimate,
    pub(crate) sprt: Option<(Sprt, SprtStatus)>,
}

impl MatchReport {
    /// The report as stable `key: value` lines (documented in docs/match.md).
    pub fn lines(&self) -> String {
        let t = &self.tally;
        let games = t.wdl.games();
        let mut out = String::new();
        let _ = writeln!(out, "engine1: {}", self.names[0]);
        let _ = writeln!(out, "engine2: {}", self.names[1]);
        let _ = writeln!(out, "games: {games} of {}", self.planned);
        let _ = writeln!(out, "wdl: {} {} {}", t.wdl.wins, t.wdl.draws, t.wdl.losses);
        let _ = writeln!(
            out,
            "score: {:.2}% ({} of {games})",
            100.0 * t.wdl.score(),
            t.wdl.points()
        );
        let _ = writeln!(out, "elo: {}", self.elo);
        if let Some((sprt, status)) = &self.sprt {
            let _ = writeln!(
                out,
                "sprt: {} llr {:.3} bounds {:.3} {:.3} elo0 {} elo1 {} alpha {} beta {} model {}",
                status.verdict,
                status.llr,
                status.lower,
                status.upper,
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                match sprt.model {
                    crate::stats::SprtModel::Logistic => "logistic",
                    crate::stats::SprtModel::BayesElo => "bayeselo",
                }
            );
        }
        let _ = writeln!(
            out,
            "as-white: {} {} {}",
            t.as_white.wins, t.as_white.draws, t.as_white.losses
        );
        let _ = writeln!(
            out,
            "as-black: {} {} {}",
            t.as_black.wins, t.as_black.draws, t.as_black.losses
        );
        let terms: Vec<String> = t
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(out, "terminations: {}", terms.join(", "));
        let _ = writeln!(out, "forfeits: {} {}", t.forfeits[0], t.forfeits[1]);
        let mean = if games == 0 {
            0.0
        } else {
            t.plies as f64 / f64::from(games)
        };
        let _ = writeln!(out, "mean-plies: {mean:.1}");
        out
    }
}

fn game_seed(seed: u64, game: usize) -> u64 {
    SplitMix::new(seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

/// Plays a match. `on_game` sees every counted game and the totals so far, in the order games
/// finish; returning `false` stops the match (games in progress finish but are not counted).
/// An SPRT that reaches a verdict stops the match the same way.
pub fn run_match<V: Variant>(
    config: &MatchConfig<V>,
    mut on_game: impl FnMut(&GameResult<V>, &Tally) -> bool,
) -> Result<MatchReport, ArenaError> {
    if config.games == 0 {
        return Err(ArenaError::NoGames);
    }
    // Fail early on an engine that cannot start.
    for spec in &config.engines {
        Contestant::<V>::new(spec, 0)?;
    }
    let names = config.names();
    let list: Vec<Opening<V>> = match &config.book {
        Some(book) if !book.is_empty() => book.clone(),
        _ => openings(config.games.div_ceil(2), config.opening_plies, config.seed)
            .into_iter()
            .map(Opening::from_moves)
            .collect(),
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut tally = Tally::default();
    let mut sprt_status = None;
    let (tx, rx) = mpsc::channel::<(GameResult<V>, bool)>();
    thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, list, names) = (&next, &stop, &list, &names);
            scope.spawn(move || {
                let mut sides: [Option<Contestant<V>>; 2] = [None, None];
                loop {
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= config.games || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let engine1_white = g % 2 == 0;
                    let seed = game_seed(config.seed, g);
                    for (i, side) in sides.iter_mut().enumerate() {
                        if side.is_none() {
                            *side = Contestant::new(&config.engines[i], seed).ok();
                        }
                    }
                    let setup = GameSetup {
                        event: config.event.clone(),
                        round: g + 1,
                        white: names[usize::from(!engine1_white)].clone(),
                        black: names[usize::from(engine1_white)].clone(),
                        opening: list[(g / 2) % list.len()].clone(),
                        tc: config.tc,
                        max_plies: config.max_plies,
                        time_margin: config.time_margin,
                        seed,
                    };
                    let [a, b] = &mut sides;
                    let result = match (a, b) {
                        (Some(a), Some(b)) if engine1_white => play_game(a, b, &setup),
                        (Some(a), Some(b)) => play_game(b, a, &setup),
                        _ => unstartable(&setup, &sides, engine1_white),
                    };
                    if tx.send((result, engine1_white)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (result, engine1_white) in rx {
            if stop.load(Ordering::SeqCst) {
                continue;
            }
            tally.add(&result, engine1_white);
            let keep_going = on_game(&result, &tally);
            if let Some(sprt) = &config.sprt {
                let status = sprt.status(&tally.wdl);
                sprt_status = Some((*sprt, status));
                if status.verdict != Verdict::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if !keep_going {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    let sprt = config
        .sprt
        .map(|s| sprt_status.unwrap_or((s, s.status(&tally.wdl))));
    Ok(MatchReport {
        names,
        planned: config.games,
        elo: tally.wdl.elo(),
        tally,
        sprt,
    })
}

/// The result of a game one of whose engines could not even be started: it forfeits.
fn unstartable<V: Variant>(
    setup: &GameSetup<V>,
    sides: &[Option<Contestant<V>>; 2],
    engine1_white: bool,
) -> GameResult<V> {
    let engine1 = if engine1_white {
        Color::White
    } else {
        Color::Black
    };
    let side = if sides[0].is_none() {
        engine1
    } else {
        engine1.other()
    };
    let termination = Termination::Failure {
        side,
        message: "cannot start".to_string(),
    };
    let outcome = Outcome::Win(side.other());
    let mut record = GameRecord::from_game(
        &Game::<V>::default(),
        &[
            ("Event", setup.event.as_str()),
            ("Round", &setup.round.to_string()),
            ("White", &setup.white),
            ("Black", &setup.black),
        ],
    );
    record.result = Some(outcome);
    record.set_tag("Result", outcome.token());
    record.set_tag("Termination", termination.name());
    GameResult {
        round: setup.round,
        outcome,
        termination,
        record,
        plies: 0,
    }
}
