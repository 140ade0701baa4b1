//! `emergo moves [--variant V] [--position <POS>]` and `emergo moves --batch`: legal moves in
//! byte order.

use super::{position_or_start, Exit, VariantArg};
use anyhow::Context;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::{with_variant, Variant};
use std::io::{BufRead, Write};

#[derive(clap::Args)]
pub struct Args {
    /// Position text (N2); the start by default.
    #[arg(long, conflicts_with = "batch")]
    position: Option<String>,
    /// Read position texts from stdin, one per line; write one line of moves per position.
    #[arg(long)]
    batch: bool,
    #[command(flatten)]
    variant: VariantArg,
}

/// The legal moves of `pos` as text, sorted in byte order.
pub fn sorted_moves<V: Variant>(pos: &Position<V>) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    moves.sort();
    moves
}

pub fn run(args: Args) -> anyhow::Result<()> {
    with_variant!(args.variant.variant, V => run_on::<V>(&args))
}

fn run_on<V: Variant>(args: &Args) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if !args.batch {
        let pos = position_or_start::<V>(args.position.as_deref())?;
        for m in sorted_moves(&pos) {
            writeln!(out, "{m}")?;
        }
        return Ok(());
    }
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.with_context(|| format!("reading line {}", i + 1))?;
        let text = line.trim_end_matches('\r');
        match text.parse::<Position<V>>() {
            Ok(pos) => writeln!(out, "{}", sorted_moves(&pos).join(" "))?,
            Err(e) => {
                out.flush()?;
                return Err(Exit {
                    code: 1,
                    message: format!("line {}: {e}", i + 1),
                }
                .into());
            }
        }
    }
    Ok(())
}
