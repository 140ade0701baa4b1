//! Engine specs (`alphabeta:level=10`, `mcts:playouts=2000`, `greedy`, `random`,
//! `ugi:/path/to/emergo ugi`) and time controls (`100` ms per move, `10+0.1` clock).

use emergo_engine::pattern::EvalKind;
use emergo_engine::Level;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;

/// What `--tc` and the spec texts can get wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("empty engine spec")]
    Empty,
    #[error("unknown engine '{0}' (alphabeta, mcts, greedy, random, or ugi:<command>)")]
    UnknownEngine(String),
    #[error("engine option '{0}' is not key=value")]
    NotKeyValue(String),
    #[error("engine {engine} has no option '{key}' (it knows: {known})")]
    UnknownOption {
        engine: String,
        key: String,
        known: &'static str,
    },
    #[error("engine option {key}: '{value}' is not {what}")]
    BadValue {
        key: String,
        value: String,
        what: &'static str,
    },
    #[error("ugi: needs a command, as in ugi:/path/to/emergo ugi")]
    NoCommand,
    #[error("time control '{0}' is neither milliseconds per move (100) nor base+increment in seconds (10+0.1)")]
    BadTimeControl(String),
}

/// How much time each side gets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time for every move.
    MoveTime(Duration),
    /// A clock: `base` for the game, `inc` added after each move.
    Clock { base: Duration, inc: Duration },
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl::MoveTime(Duration::from_millis(100))
    }
}

fn seconds(text: &str) -> Option<Duration> {
    let s: f64 = text.parse().ok()?;
    (0.0..1e7).contains(&s).then(|| Duration::from_secs_f64(s))
}

impl FromStr for TimeControl {
    type Err = SpecError;

    /// `100` (or `100ms`): 100 ms per move; `10+0.1`: 10 s plus 0.1 s per move.
    fn from_str(text: &str) -> Result<TimeControl, SpecError> {
        let bad = || SpecError::BadTimeControl(text.to_string());
        if let Some((base, inc)) = text.split_once('+') {
            return Ok(TimeControl::Clock {
                base: seconds(base).ok_or_else(bad)?,
                inc: seconds(inc).ok_or_else(bad)?,
            });
        }
        let ms: u64 = text
            .strip_suffix("ms")
            .unwrap_or(text)
            .parse()
            .map_err(|_| bad())?;
        if ms == 0 {
            return Err(bad());
        }
        Ok(TimeControl::MoveTime(Duration::from_millis(ms)))
    }
}

impl fmt::Display for TimeControl {
    /// As written in records: `100ms/move` or `10+0.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MoveTime(t) => write!(f, "{}ms/move", t.as_millis()),
            TimeControl::Clock { base, inc } => {
                write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
        }
    }
}

/// Which player an engine spec names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EngineKind {
    /// The alpha-beta engine at a level (1..=10).
    AlphaBeta { level: Level },
    /// The UCT/MCTS baseline.
    Mcts,
    /// The 1-ply greedy player.
    Greedy,
    /// Uniformly random legal moves.
    Random,
    /// An external engine speaking UGI over pipes: the program and its arguments.
    Ugi { command: Vec<String> },
}

/// An engine as named on the command line, with its own limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub(crate) kind: EngineKind,
    /// `time=<ms>`: a fixed time per move that replaces the match's time control.
    pub(crate) movetime: Option<Duration>,
    /// `depth=<plies>`.
    pub(crate) depth: Option<u32>,
    /// `nodes=<n>` (for `mcts`, `playouts=<n>`).
    pub(crate) nodes: Option<u64>,
    /// `threads=<n>`: Lazy SMP search threads of `alphabeta` (1 unless given).
    pub(crate) threads: usize,
    /// `book=on`: `alphabeta` plays the shipped opening book's moves where it has them
    /// (docs/engine.md, "Opening book"); off unless given.
    pub(crate) book: bool,
    /// `bookfile=<file>`: the opening book read from a file (`emergo book build --out`) instead
    /// of the shipped one; implies `book=on`.
    pub(crate) book_file: Option<std::path::PathBuf>,
    /// `w.<weight>=<centimen>`: weights of the linear evaluation of `alphabeta` that differ from
    /// the defaults (for tuning: `alphabeta:w.hand=80,w.edge=0`); they imply `eval=linear`
    /// unless `eval` is given.
    pub(crate) weights: Vec<(String, i32)>,
    /// `eval=pattern|linear`: the evaluation of `alphabeta` (the engine's default unless given),
    /// so that the learned evaluation can always be matched against the linear one.
    pub(crate) eval: Option<EvalKind>,
    /// `net=<file>`: the learned evaluation read from a weights file (`emergo train --out`)
    /// instead of the shipped one; implies `eval=pattern`.
    pub(crate) net: Option<std::path::PathBuf>,
    /// The name used in reports and records: `name=<text>`, or the spec text.
    pub(crate) name: String,
}

impl EngineSpec {
    /// Whether this engine's search is bounded by depth or nodes alone, so that the match's
    /// time control does not apply to it.
    pub(crate) fn fixed_search(&self) -> bool {
        self.movetime.is_none() && (self.depth.is_some() || self.nodes.is_some())
    }
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SpecError::Empty);
        }
        let (head, rest) = text.split_once(':').unwrap_or((text, ""));
        let mut spec = EngineSpec {
            kind: EngineKind::Random,
            movetime: None,
            depth: None,
            nodes: None,
            threads: 1,
            book: false,
            book_file: None,
            weights: Vec::new(),
            eval: None,
            net: None,
            name: text.to_string(),
        };
        let known: &'static str = match head {
            "ugi" => {
                let command: Vec<String> = rest.split_whitespace().map(String::from).collect();
                if command.is_empty() {
                    return Err(SpecError::NoCommand);
                }
                spec.kind = EngineKind::Ugi { command };
                return Ok(spec);
            }
            "alphabeta" | "ab" => {
                spec.kind = EngineKind::AlphaBeta { level: Level::MAX };
                "level, time, depth, nodes, threads, book, bookfile, eval, net, w.<weight>, name"
            }
            "mcts" => {
                spec.kind = EngineKind::Mcts;
                "playouts, time, name"
            }
            "greedy" => {
                spec.kind = EngineKind::Greedy;
                "name"
            }
            "random" => {
                spec.kind = EngineKind::Random;
                "name"
            }
            _ => return Err(SpecError::UnknownEngine(head.to_string())),
        };
        // `book=` as given (a `bookfile=` turns the book on unless it is said to be off).
        let mut book_said = None;
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue(part.to_string()))?;
            let bad = |what| SpecError::BadValue {
                key: key.to_string(),
                value: value.to_string(),
                what,
            };
            let positive = |what| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| bad(what))
            };
            match (head, key) {
                (_, "name") if !value.is_empty() => spec.name = value.to_string(),
                ("alphabeta" | "ab", "level") => {
                    let level = value
                        .parse::<Level>()
                        .map_err(|_| bad("a level from 1 to 10"))?;
                    spec.kind = EngineKind::AlphaBeta { level };
                }
                ("alphabeta" | "ab" | "mcts", "time") => {
                    spec.movetime = Some(Duration::from_millis(positive(
                        "a positive number of milliseconds",
                    )?))
                }
                ("alphabeta" | "ab", "depth") => {
                    spec.depth = Some(
                        u32::try_from(positive("a positive depth")?)
                            .map_err(|_| bad("a positive depth"))?,
                    )
                }
                ("alphabeta" | "ab", _)
                    if key
                        .strip_prefix("w.")
                        .is_some_and(|w| emergo_engine::eval::Weights::NAMES.contains(&w)) =>
                {
                    let value = value
                        .parse::<i32>()
                        .ok()
                        .filter(|v| v.abs() <= 100_000)
                        .ok_or_else(|| bad("a whole number of centimen"))?;
                    spec.weights.push((key[2..].to_string(), value));
                }
                ("alphabeta" | "ab", "eval") => {
                    spec.eval = Some(
                        value
                            .parse::<EvalKind>()
                            .map_err(|_| bad("pattern or linear"))?,
                    )
                }
                ("alphabeta" | "ab", "net") if !value.is_empty() => {
                    spec.net = Some(value.into());
                    spec.eval = Some(EvalKind::Pattern);
                }
                ("alphabeta" | "ab", "bookfile") if !value.is_empty() => {
                    spec.book_file = Some(value.into());
                }
                ("alphabeta" | "ab", "book") => {
                    book_said = Some(match value {
                        "on" | "true" => true,
                        "off" | "false" => false,
                        _ => return Err(bad("on or off")),
                    })
                }
                ("alphabeta" | "ab", "threads") => {
                    spec.threads = usize::try_from(positive("a number of threads from 1 to 256")?)
                        .ok()
                        .filter(|&n| n <= 256)
                        .ok_or_else(|| bad("a number of threads from 1 to 256"))?
                }
                ("alphabeta" | "ab", "nodes") | ("mcts", "playouts") => {
                    spec.nodes = Some(positive("a positive count")?)
                }
                _ => {
                    return Err(SpecError::UnknownOption {
                        engine: head.to_string(),
                        key: key.to_string(),
                        known,
                    })
                }
            }
        }
        spec.book = match (book_said, &spec.book_file) {
            (Some(false), Some(_)) => {
                return Err(SpecError::BadValue {
                    key: "book".into(),
                    value: "off".into(),
                    what: "on, or left out, with bookfile",
                })
            }
            (said, file) => said.unwrap_or(file.is_some()),
        };
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabeta_takes_its_book_on_or_off() {
        let s: EngineSpec = "alphabeta:book=on,time=50".parse().unwrap();
        assert!(s.book);
        let s: EngineSpec = "alphabeta:book=off".parse().unwrap();
        assert!(!s.book);
        assert!(!"alphabeta".parse::<EngineSpec>().unwrap().book);
        assert!(matches!(
            "alphabeta:book=maybe".parse::<EngineSpec>(),
            Err(SpecError::BadValue { .. })
        ));
        assert!(matches!(
            "mcts:book=on".parse::<EngineSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
    }

    #[test]
    fn alphabeta_takes_a_book_file_which_turns_its_book_on() {
        let s: EngineSpec = "alphabeta:bookfile=/tmp/b.txt,time=50".parse().unwrap();
        assert!(s.book);
        assert_eq!(
            s.book_file.as_deref(),
            Some(std::path::Path::new("/tmp/b.txt"))
        );
        for text in [
            "alphabeta:bookfile=b.txt,book=off",
            "alphabeta:book=off,bookfile=b.txt",
        ] {
            assert!(
                matches!(text.parse::<EngineSpec>(), Err(SpecError::BadValue { .. })),
                "{text}"
            );
        }
    }

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            "100".parse::<TimeControl>().unwrap(),
            TimeControl::MoveTime(Duration::from_millis(100))
        );
        assert_eq!(
            "250ms".parse::<TimeControl>().unwrap(),
            TimeControl::MoveTime(Duration::from_millis(250))
        );
        assert_eq!(
            "10+0.1".parse::<TimeControl>().unwrap(),
            TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            }
        );
        for bad in ["", "0", "x", "10+", "+1", "-5", "1+-1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_specs_parse() {
        let s: EngineSpec = "alphabeta:level=3,time=50".parse().unwrap();
        assert_eq!(
            s.kind,
            EngineKind::AlphaBeta {
                level: Level::new(3).unwrap()
            }
        );
        assert_eq!(s.movetime, Some(Duration::from_millis(50)));
        assert_eq!(s.name, "alphabeta:level=3,time=50");
        assert_eq!(s.threads, 1);
        let s: EngineSpec = "ab:w.hand=-40,w.edge=0".parse().unwrap();
        assert_eq!(
            s.weights,
            [("hand".to_string(), -40), ("edge".to_string(), 0)]
        );
        let s: EngineSpec = "ab:threads=2".parse().unwrap();
        assert_eq!(
            (s.kind, s.threads),
            (EngineKind::AlphaBeta { level: Level::MAX }, 2)
        );
        let s: EngineSpec = "mcts:playouts=500,name=uct".parse().unwrap();
        assert_eq!((s.kind.clone(), s.nodes), (EngineKind::Mcts, Some(500)));
        assert_eq!(s.name, "uct");
        assert!(s.fixed_search());
        assert!(!"mcts".parse::<EngineSpec>().unwrap().fixed_search());
        assert_eq!(
            "ugi:/bin/emergo  ugi".parse::<EngineSpec>().unwrap().kind,
            EngineKind::Ugi {
                command: vec!["/bin/emergo".into(), "ugi".into()]
            }
        );
        assert_eq!(
            "alphabeta".parse::<EngineSpec>().unwrap().kind,
            EngineKind::AlphaBeta { level: Level::MAX }
        );
    }

    #[test]
    fn bad_engine_specs_are_rejected_with_the_reason() {
        assert_eq!("".parse::<EngineSpec>(), Err(SpecError::Empty));
        assert!(matches!(
            "stockfish".parse::<EngineSpec>(),
            Err(SpecError::UnknownEngine(_))
        ));
        assert!(matches!(
            "alphabeta:level=11".parse::<EngineSpec>(),
            Err(SpecError::BadValue { .. })
        ));
        for bad in ["w.hand=x", "w.hand=1.5", "w.hand=9999999"] {
            assert!(matches!(
                format!("alphabeta:{bad}").parse::<EngineSpec>(),
                Err(SpecError::BadValue { .. })
            ));
        }
        assert!(matches!(
            "alphabeta:w.speed=3".parse::<EngineSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
        for threads in ["0", "257", "two"] {
            assert!(matches!(
                format!("alphabeta:threads={threads}").parse::<EngineSpec>(),
                Err(SpecError::BadValue { .. })
            ));
        }
        assert!(matches!(
            "mcts:threads=2".parse::<EngineSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
        assert!(matches!(
            "greedy:level=1".parse::<EngineSpec>(),
            Err(SpecError::UnknownOption { .. })
        ));
        assert!(matches!(
            "mcts:playouts".parse::<EngineSpec>(),
            Err(SpecError::NotKeyValue(_))
        ));
        assert_eq!("ugi:".parse::<EngineSpec>(), Err(SpecError::NoCommand));
    }
}
