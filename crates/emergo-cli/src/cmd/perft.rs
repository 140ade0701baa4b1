//! `emergo perft <DEPTH> [--variant V] [--position <POS>] [--divide]`: leaf counts, the count as
//! the last line.

use super::{position_or_start, VariantArg};
use emergo_core::{perft, with_variant, Variant};

#[derive(clap::Args)]
pub struct Args {
    /// Number of moves (plies) to look ahead.
    depth: u32,
    /// Position text (N2); the start by default.
    #[arg(long)]
    position: Option<String>,
    /// Print `<move> <count>` for every root move first, in byte order of the moves.
    #[arg(long)]
    divide: bool,
    #[command(flatten)]
    variant: VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    with_variant!(args.variant.variant, V => run_on::<V>(&args))
}

fn run_on<V: Variant>(args: &Args) -> anyhow::Result<()> {
    let pos = position_or_start::<V>(args.position.as_deref())?;
    if args.divide {
        let mut lines: Vec<(String, u64)> = perft::divide(&pos, args.depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        lines.sort();
        let total: u64 = lines.iter().map(|(_, n)| n).sum();
        for (m, n) in &lines {
            outln!("{m} {n}")?;
        }
        outln!("{}", if args.depth == 0 { 1 } else { total })?;
    } else {
        outln!("{}", perft::perft(&pos, args.depth))?;
    }
    Ok(())
}
