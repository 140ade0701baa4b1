//! One module per verb: its clap arguments (`Args`) and `run`.

pub mod analyze;
pub mod apply;
pub mod bench;
pub mod db;
pub mod evalbar;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod play;
pub mod random;
pub mod serve;
pub mod show;
pub mod tune;
pub mod ugi;
pub mod worker;

use anyhow::Context;
use emergo_core::Position;

/// An error that ends the program with a given exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Exit {
    pub code: u8,
    pub message: String,
}

/// Reads a `--position` value (N2 text).
pub fn parse_position(text: &str) -> anyhow::Result<Position> {
    text.parse::<Position>()
        .with_context(|| format!("cannot read position '{text}'"))
}
