//! Players for Emergo: the search engine, its levels, and baselines to measure it against.
//!
//! - [`AlphaBetaPlayer`]: iterative-deepening PVS ([`search`]) with the Emergo evaluation
//!   ([`eval`]), levels 1..=10.
//! - [`MctsPlayer`]: plain UCT with uniformly random playouts, the baseline.
//! - [`ugi`]: the UGI protocol loop; [`mod@bench`]: the fixed node-count benchmark.
//!
//! The tools that measure and tune the engine (matches, Elo, SPRT, Texel tuning) are the
//! `emergo-arena` crate, which depends on this one.

pub mod alphabeta;
pub mod bench;
pub mod book;
pub mod eval;
pub mod greedy;
pub mod level;
pub mod mcts;
pub mod pattern;
pub mod player;
pub mod rng;
pub mod search;
pub mod ugi;

pub use alphabeta::AlphaBetaPlayer;
pub use level::{Level, LevelError, LevelSettings};
pub use mcts::MctsPlayer;
pub use player::{Clock, Limits, Player, RandomPlayer};
pub use search::{SearchInfo, SearchResult};
