//! `emergo tune --pgn FILE...`: fits the evaluation weights to the results of recorded games
//! (the Texel method, see `emergo_arena::tune`) and prints them. With `--variant`, the records
//! are games on that board and the fit starts from that board's weights.

use super::VariantArg;
use anyhow::Context;
use emergo_arena::tune;
use emergo_core::record::GameRecord;
use emergo_core::{split_records, with_variant, Variant};
use emergo_engine::eval::Weights;
use std::path::PathBuf;

/// Arguments of `emergo tune`.
#[derive(clap::Args)]
pub struct Args {
    /// Files of game records (as `emergo match --pgn` writes them), one game after another.
    #[arg(long, required = true, num_args = 1..)]
    pgn: Vec<PathBuf>,
    /// Gradient steps.
    #[arg(long, default_value_t = 1000)]
    iterations: usize,
    /// Weights to leave as they are, comma-separated (`man` always stays at 100).
    #[arg(long, value_delimiter = ',', default_value = "height")]
    fix: Vec<String>,
    /// Start from these weights instead of the defaults, comma-separated `name=value` pairs
    /// (`--start hand=95,edge=3`); the fit is pulled towards the start.
    #[arg(long, value_delimiter = ',')]
    start: Vec<String>,
    /// Pull towards the starting weights: this times the squared distance in men is added to the
    /// error (0 for none).
    #[arg(long, default_value_t = 0.001)]
    l2: f64,
    #[command(flatten)]
    variant: VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.l2.is_finite() && args.l2 >= 0.0,
        "--l2: {} is not a weight of zero or more",
        args.l2
    );
    let mut start = Weights::for_variant(args.variant.variant);
    for pair in &args.start {
        let (name, value) = pair
            .split_once('=')
            .with_context(|| format!("--start: '{pair}' is not name=value"))?;
        let value: i32 = value
            .parse()
            .with_context(|| format!("--start: '{value}' is not a whole number of centimen"))?;
        anyhow::ensure!(
            start.set(name, value),
            "--start: no weight '{name}' (the weights: {})",
            Weights::NAMES.join(", ")
        );
    }
    for name in &args.fix {
        anyhow::ensure!(
            Weights::NAMES.contains(&name.as_str()),
            "--fix: no weight '{name}' (the weights: {})",
            Weights::NAMES.join(", ")
        );
    }
    // Every tenth game is held out, to see whether the fit carries over to games it did not see.
    let (mut samples, mut held_out) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in &args.pgn {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (line, record) in split_records(&text) {
            let found = with_variant!(args.variant.variant, V => samples_on::<V>(record))
                .with_context(|| format!("{}: the record at line {line}", path.display()))?;
            if found.is_empty() {
                continue;
            }
            games += 1;
            if games % 10 == 0 {
                held_out.extend(found);
            } else {
                samples.extend(found);
            }
        }
    }
    anyhow::ensure!(!samples.is_empty(), "no finished game in the records");
    let fixed: Vec<&str> = args.fix.iter().map(String::as_str).collect();
    let fit = tune::fit(&samples, &start, &fixed, args.iterations, args.l2);
    outln!("games: {games}")?;
    outln!("samples: {}", samples.len())?;
    outln!("scale: {:.4}", fit.scale)?;
    outln!("error: {:.6} -> {:.6}", fit.error_before, fit.error_after)?;
    outln!(
        "white to move: {:+.1} centimen (fitted, not part of the evaluation)",
        fit.white
    )?;
    if !held_out.is_empty() {
        outln!(
            "held-out error: {:.6} -> {:.6} ({} samples of every tenth game)",
            tune::mean_error(&held_out, &start, 0.0, fit.scale),
            tune::mean_error(&held_out, &fit.weights, fit.white, fit.scale),
            held_out.len()
        )?;
    }
    let old = start.to_array();
    for ((name, new), old) in Weights::NAMES.iter().zip(fit.weights.to_array()).zip(old) {
        outln!("{name} {new} (was {old})")?;
    }
    Ok(())
}

/// The samples of one record of a game on the board `V`.
fn samples_on<V: Variant>(record: &str) -> anyhow::Result<Vec<tune::Sample>> {
    let game = GameRecord::<V>::parse(record).and_then(|r| r.to_game())?;
    Ok(tune::samples(&game))
}
