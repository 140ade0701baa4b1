//! `emergo bench [--variant V] [--depth N]`: the fixed benchmark. Prints each position's nodes,
//! then the total (the search's signature) and the speed.

use super::VariantArg;
use emergo_engine::bench;
use emergo_engine::pattern::EvalKind;

/// Arguments of `emergo bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth of every search.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Print only the summary line.
    #[arg(long)]
    quiet: bool,
    /// The evaluation: pattern (the learned one, where the board has one) or linear.
    #[arg(long, default_value_t = EvalKind::default())]
    eval: EvalKind,
    #[command(flatten)]
    variant: VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let depth = args.depth.clamp(1, 30);
    let mut failed: Option<std::io::Error> = None;
    let report = bench::run_variant(args.variant.variant, depth, args.eval, |name, nodes| {
        if !args.quiet && failed.is_none() {
            failed = outln!("{name:<22} {nodes:>12}").err();
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    outln!(
        "bench: {} positions, depth {}, {} nodes, {:.3} s, {} nps",
        report.positions,
        report.depth,
        report.nodes,
        report.time.as_secs_f64(),
        report.nps()
    )?;
    Ok(())
}
