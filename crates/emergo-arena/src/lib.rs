//! Tools to measure and tune the engine, apart from it: engine against engine (openings, the
//! game and match runners, Elo and SPRT, engine specs and the client side of UGI for external
//! engines) and Texel tuning of the evaluation weights ([`tune`]). `emergo match` and `emergo
//! tune` are thin faces over this; the engine itself (search, evaluation, levels, UGI) is
//! `emergo_engine`, which knows nothing of this crate.
//!
//! Everything is generic over the board (`emergo_core::Variant`), the square 9×9 one unless
//! named: `MatchConfig::<HexEmergo>` plays a match on the hexagon.
//!
//! ```
//! use emergo_arena::{run_match, MatchConfig};
//! let engines = ["greedy".parse().unwrap(), "random".parse().unwrap()];
//! let mut config: MatchConfig = MatchConfig::new(engines, 4);
//! config.opening_plies = 2;
//! let report = run_match(&config, |_, _| true).unwrap();
//! assert_eq!(report.tally.wdl.games(), 4);
//! ```

// The modules are private and the root re-exports what other crates use; an item `pub` in a
// module but not re-exported is an error (clippy runs with -D warnings).
#![warn(unreachable_pub)]

mod openings;
mod ordered;
pub mod puzzles;
mod runner;
pub mod selfplay;
mod spec;
mod stats;
pub mod train;
pub mod tune;
mod ugi;

// What `emergo match` uses, and the types its values carry.
pub use openings::{parse_openings, shuffled, Opening, OpeningsError};
pub use runner::{run_match, ArenaError, GameResult, MatchConfig, MatchReport, Tally};
pub use spec::{EngineSpec, SpecError, TimeControl};
pub use stats::{EloEstimate, Sprt, SprtError, Wdl};
pub use ugi::{UgiEngine, UgiError};

#[cfg(test)]
mod tests;
