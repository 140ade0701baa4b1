//! `emergo train --data FILE... --out WEIGHTS`: fits the learned evaluation (pattern weights and
//! linear terms) to self-play positions (`emergo selfplay`) and writes the weights file the
//! engine reads (see `emergo_arena::train` and `emergo_engine::pattern`).

use anyhow::Context;
use emergo_arena::train::{fit_scale, train, Data, TrainConfig};
use emergo_core::Variant;
use emergo_engine::eval::Weights;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `emergo train`.
#[derive(clap::Args)]
pub struct Args {
    /// Files of positions written by `emergo selfplay`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Where to write the weights.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = TrainConfig::default().epochs)]
    epochs: usize,
    /// Positions a step.
    #[arg(long, default_value_t = TrainConfig::default().batch)]
    batch: usize,
    /// Adam's step, in centimen.
    #[arg(long, default_value_t = TrainConfig::default().learning_rate)]
    learning_rate: f64,
    /// The result's share of the target; the rest is the search's score.
    #[arg(long, default_value_t = TrainConfig::default().lambda)]
    lambda: f64,
    /// Weight decay of the pattern weights per step.
    #[arg(long, default_value_t = TrainConfig::default().decay)]
    decay: f64,
    /// The logistic curve's scale: σ(scale · centimen / 100). Without it, the scale that best
    /// predicts the games' results from the search's scores.
    #[arg(long)]
    scale: Option<f64>,
    /// The seed of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    variant: super::VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    emergo_core::with_variant!(args.variant.variant, V => run_on::<V>(&args))
}

fn run_on<V: Variant>(args: &Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.lambda),
        "--lambda: from 0 to 1, not {}",
        args.lambda
    );
    for (name, value) in [
        ("--learning-rate", args.learning_rate),
        ("--scale", args.scale.unwrap_or(1.0)),
    ] {
        anyhow::ensure!(
            value.is_finite() && value > 0.0,
            "{name}: a number above 0, not {value}"
        );
    }
    anyhow::ensure!(
        args.decay.is_finite() && (0.0..1.0).contains(&args.decay),
        "--decay: from 0 to below 1, not {}",
        args.decay
    );
    anyhow::ensure!(args.batch > 0, "--batch: at least 1");
    let started = Instant::now();
    let mut data = Data::default();
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        data.read::<V>(&text)
            .with_context(|| format!("{}: not self-play data", path.display()))?;
    }
    anyhow::ensure!(!data.is_empty(), "no position in the data");
    outln!(
        "positions: {} (read in {:.1} s)",
        data.len(),
        started.elapsed().as_secs_f64()
    )?;
    let scale = args.scale.unwrap_or_else(|| fit_scale(&data));
    outln!(
        "scale: {scale:.4}{}",
        if args.scale.is_some() {
            ""
        } else {
            " (fitted to the scores and results)"
        }
    )?;
    let config = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        lambda: args.lambda,
        decay: args.decay,
        scale,
        seed: args.seed,
    };
    let mut printed = Ok(());
    let report = train::<V>(
        &data,
        &Weights::for_variant(V::KIND),
        &config,
        &mut |epoch, e| {
            if printed.is_ok() {
                printed = outln!(
                    "epoch {epoch}: loss {:.5}, held out {:.5} (result error {:.5}, held out {:.5})",
                    e.loss,
                    e.held_out_loss,
                    e.result_mse,
                    e.held_out_result_mse
                );
            }
        },
    );
    printed?;
    outln!(
        "training positions: {}, held out: {}",
        report.training,
        report.held_out
    )?;
    outln!(
        "loss: {:.5} -> {:.5}; held out {:.5} -> {:.5}",
        report.before.loss,
        report.after.loss,
        report.before.held_out_loss,
        report.after.held_out_loss
    )?;
    outln!(
        "result error (mean squared): {:.5} -> {:.5}; held out {:.5} -> {:.5}",
        report.before.result_mse,
        report.after.result_mse,
        report.before.held_out_result_mse,
        report.after.held_out_result_mse
    )?;
    let linear = report.net.linear().to_array();
    let names: Vec<String> = Weights::NAMES
        .iter()
        .zip(linear)
        .map(|(n, w)| format!("{n}={w}"))
        .collect();
    outln!("linear: {}", names.join(","))?;
    std::fs::write(&args.out, report.net.to_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    outln!(
        "wrote {} ({:.1} s in all)",
        args.out.display(),
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}
