//! One module per verb: its clap arguments (`Args`) and `run`.

pub mod analyze;
pub mod apply;
pub mod bench;
pub mod book;
pub mod bot;
pub mod db;
pub mod evalbar;
pub mod explorer;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod random;
pub mod selfplay;
pub mod serve;
pub mod show;
pub mod train;
pub mod tune;
pub mod ugi;
pub mod worker;

use anyhow::Context;
use emergo_core::{position, Variant, VariantKind};

/// An error that ends the program with a given exit code.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Exit {
    pub code: u8,
    pub message: String,
}

/// `--db`: the database a command works on, embedded SQLite unless told otherwise.
#[derive(clap::Args)]
pub struct Database {
    /// The database: a SQLite file name or `sqlite://` URL (created when missing), or a
    /// `postgres://` URL (several instances may share it); migrated when opened.
    #[arg(long, default_value = "sqlite://emergo.db")]
    pub db: String,
}

impl Database {
    /// Opens (and migrates) the database.
    pub async fn open(&self) -> anyhow::Result<emergo_platform::store::Store> {
        emergo_platform::store::Store::open(&self.db)
            .await
            .with_context(|| format!("cannot open the database {}", self.db))
    }
}

/// Reads a `--position` value (N2 text) on the board `V`.
pub fn parse_position_on<V: Variant>(text: &str) -> anyhow::Result<position::Position<V>> {
    text.parse::<position::Position<V>>()
        .with_context(|| format!("cannot read position '{text}' ({} board)", V::KIND))
}

/// A `--position` value on the board `V`, or the board's start when there is none.
pub fn position_or_start<V: Variant>(text: Option<&str>) -> anyhow::Result<position::Position<V>> {
    text.map_or_else(|| Ok(position::Position::start()), parse_position_on)
}

/// The `--variant` option of the rules verbs: the board, `emergo` (the square 9×9 one) by
/// default. A position text does not say its board, so a verb that reads one takes this beside
/// it.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct VariantArg {
    /// The board: emergo (the square 9×9 board), 7x7 or hex (HexEmergo).
    #[arg(long, default_value = "emergo")]
    pub variant: VariantKind,
}
