//! Players for Emergo: the search engine, its levels, and baselines to measure it against.

pub mod arena;
pub mod greedy;
pub mod player;

pub use player::{Clock, Limits, Player, RandomPlayer};
