//! `emergo bench [--depth N]`: the fixed benchmark. Prints each position's nodes, then the total
//! (the search's signature) and the speed.

use emergo_engine::bench;

/// Arguments of `emergo bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth of every search.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Print only the summary line.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let depth = args.depth.clamp(1, 30);
    let report = bench::run(depth, |name, nodes| {
        if !args.quiet {
            println!("{name:<22} {nodes:>12}");
        }
    });
    println!(
        "bench: {} positions, depth {}, {} nodes, {:.3} s, {} nps",
        report.positions,
        report.depth,
        report.nodes,
        report.time.as_secs_f64(),
        report.nps()
    );
    Ok(())
}
