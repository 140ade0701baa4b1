//! `emergo puzzles generate --games N --seed S [--threads T] --out FILE`: plays engine games of
//! mixed levels and writes the puzzles found after their blunders, one JSON object a line (see
//! `emergo_arena::puzzles`).

use anyhow::Context;
use emergo_arena::puzzles::{self, PuzzleConfig};
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of `emergo puzzles`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Play engine games and write the puzzles found in them.
    Generate(GenerateArgs),
}

/// Arguments of `emergo puzzles generate`.
#[derive(clap::Args)]
struct GenerateArgs {
    /// Games to play.
    #[arg(long)]
    games: usize,
    /// The seed: the same seed writes the same puzzles, whatever the threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Where to write the puzzles (one JSON object a line).
    #[arg(long)]
    out: PathBuf,
    /// The depth of the scan of every game position for blunders.
    #[arg(long, default_value_t = PuzzleConfig::default().scan_depth)]
    scan_depth: u32,
    /// The depth of the only-move test.
    #[arg(long, default_value_t = PuzzleConfig::default().depth)]
    depth: u32,
    /// The depth at which every solver move is tested again.
    #[arg(long, default_value_t = PuzzleConfig::default().recheck_depth)]
    recheck_depth: u32,
    #[command(flatten)]
    variant: super::VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Generate(args) => generate(args),
    }
}

fn generate(args: GenerateArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.games > 0, "--games: at least one game");
    anyhow::ensure!(
        (1..=64).contains(&args.threads),
        "--threads: 1 to 64, not {}",
        args.threads
    );
    anyhow::ensure!(
        (1..=20).contains(&args.depth) && (args.depth..=20).contains(&args.recheck_depth),
        "--depth and --recheck-depth: 1 to 20, the re-check no shallower"
    );
    let config = PuzzleConfig {
        games: args.games,
        seed: args.seed,
        threads: args.threads,
        scan_depth: args.scan_depth,
        depth: args.depth,
        recheck_depth: args.recheck_depth,
        ..PuzzleConfig::default()
    };
    let file =
        File::create(&args.out).with_context(|| format!("cannot write {}", args.out.display()))?;
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    // Each puzzle is written as soon as the games before it are done: a run stopped midway
    // leaves a file of whole lines.
    let out = Mutex::new((BufWriter::new(file), None::<std::io::Error>));
    let (_, report) = emergo_core::with_variant!(args.variant.variant, V => puzzles::generate::<V>(
        &config,
        &|p| {
            bar.set_position(p.games_done as u64);
            bar.set_message(format!("{} candidates, {} puzzles", p.candidates, p.found));
        },
        &|puzzle| {
            let mut guard = out.lock().unwrap_or_else(|e| e.into_inner());
            let (writer, error) = &mut *guard;
            if error.is_some() {
                return;
            }
            let line = serde_json::to_string(puzzle).unwrap_or_default();
            if let Err(e) = writeln!(writer, "{line}").and_then(|()| writer.flush()) {
                *error = Some(e);
            }
        },
    ));
    bar.finish_and_clear();
    let (mut writer, error) = out.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = error {
        return Err(e).with_context(|| format!("cannot write {}", args.out.display()));
    }
    writer
        .flush()
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    outln!("games: {}", report.games)?;
    outln!(
        "candidates: {}, kept: {} ({:.1}%)",
        report.candidates,
        report.kept,
        100.0 * report.kept as f64 / report.candidates.max(1) as f64
    )?;
    outln!(
        "time: {seconds:.1} s, {:.0} puzzles per hour",
        report.kept as f64 * 3600.0 / seconds.max(1e-9)
    )?;
    outln!(
        "logistic scale fitted to these games: {:.3} (the generator uses {})",
        report.fitted_scale,
        puzzles::DEFAULT_SCALE
    )?;
    Ok(())
}
