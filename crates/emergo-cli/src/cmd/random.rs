//! `emergo random --games N --seed S [--threads T] [--variant V]`: uniformly random games from
//! the start, each to its end by the rules (R10, threefold repetition included); our standard
//! speed figure.

use super::VariantArg;
use emergo_core::playout::{play_games_on, Totals};
use emergo_core::with_variant;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seed; the same seed gives the same games, whatever the number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    variant: VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let threads = args.threads.max(1) as u64;
    let started = Instant::now();
    let totals = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let lo = args.games * t / threads;
                let hi = args.games * (t + 1) / threads;
                let seed = args.seed;
                scope.spawn(move || {
                    with_variant!(args.variant.variant, V => play_games_on::<V>(seed, lo..hi))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .fold(Totals::default(), Totals::merged)
    });
    let seconds = started.elapsed().as_secs_f64();
    let games = totals.games.max(1) as f64;
    outln!("games: {}", totals.games)?;
    outln!("games/s: {:.0}", totals.games as f64 / seconds.max(1e-9))?;
    outln!("mean plies: {:.1}", totals.plies as f64 / games)?;
    outln!(
        "mean legal moves: {:.1}",
        totals.legal_moves as f64 / (totals.plies.max(1) as f64)
    )?;
    outln!(
        "results: white {}, black {}, draw {}",
        totals.wins.white,
        totals.wins.black,
        totals.draws
    )?;
    Ok(())
}
