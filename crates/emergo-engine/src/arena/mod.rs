//! Engine against engine: openings, the game and match runners, Elo and SPRT, engine specs and
//! the client side of UGI for external engines. `emergo match` is a thin face over this.
//!
//! ```
//! use emergo_engine::arena::{run_match, MatchConfig};
//! let engines = ["greedy".parse().unwrap(), "random".parse().unwrap()];
//! let mut config = MatchConfig::new(engines, 4);
//! config.opening_plies = 2;
//! let report = run_match(&config, |_, _| true).unwrap();
//! assert_eq!(report.tally.wdl.games(), 4);
//! ```

pub mod openings;
pub mod runner;
pub mod spec;
pub mod stats;
pub mod ugi;

pub use openings::{openings, parse_openings, random_opening, shuffled, Opening, OpeningsError};
pub use runner::{
    play_game, run_match, Answer, ArenaError, Contestant, GameResult, GameSetup, MatchConfig,
    MatchReport, Tally, Termination,
};
pub use spec::{EngineKind, EngineSpec, SpecError, TimeControl};
pub use stats::{EloEstimate, Sprt, SprtModel, SprtStatus, Verdict, Wdl};
pub use ugi::{UgiEngine, UgiError};

#[cfg(test)]
mod tests;
