//! `emergo perft <DEPTH> [--position <POS>] [--divide]`: leaf counts, the count as the last line.

use super::parse_position;
use emergo_core::perft;

#[derive(clap::Args)]
pub struct Args {
    /// Number of moves (plies) to look ahead.
    depth: u32,
    /// Position text (N2); the start by default.
    #[arg(long, default_value = "W:12:12")]
    position: String,
    /// Print `<move> <count>` for every root move first, in byte order of the moves.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = parse_position(&args.position)?;
    if args.divide {
        let mut lines: Vec<(String, u64)> = perft::divide(&pos, args.depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        lines.sort();
        let total: u64 = lines.iter().map(|(_, n)| n).sum();
        for (m, n) in &lines {
            println!("{m} {n}");
        }
        println!("{}", if args.depth == 0 { 1 } else { total });
    } else {
        println!("{}", perft::perft(&pos, args.depth));
    }
    Ok(())
}
