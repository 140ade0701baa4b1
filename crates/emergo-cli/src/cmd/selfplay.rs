//! `emergo selfplay --games N --nodes K [--threads T] [--openings FILE] --out FILE`: games of the
//! engine against itself, written as quiet positions with the search's score and the game's
//! result, the data `emergo train` fits the learned evaluation to (see
//! `emergo_arena::selfplay`).

use anyhow::Context;
use emergo_arena::selfplay::{selfplay, SelfplayConfig};
use emergo_arena::{parse_openings, Opening};
use emergo_core::Variant;
use emergo_engine::pattern::EvalKind;
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of `emergo selfplay`.
#[derive(clap::Args)]
pub struct Args {
    /// Games to play.
    #[arg(long)]
    games: usize,
    /// Nodes searched for every move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Games played at once (the file is the same for any number).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The seed: the same seed writes the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// An openings file (one line an opening, as `emergo match --openings` reads): game i
    /// starts from line i, then --random-plies random moves. Without it, 4 to 8 random entries.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random moves played after an opening line.
    #[arg(long, default_value_t = 2)]
    random_plies: usize,
    /// The evaluation the engine plays with: linear or pattern.
    #[arg(long, default_value = "linear")]
    eval: EvalKind,
    /// Where to write the positions.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    variant: super::VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    emergo_core::with_variant!(args.variant.variant, V => run_on::<V>(&args))
}

fn run_on<V: Variant>(args: &Args) -> anyhow::Result<()> {
    anyhow::ensure!(args.games > 0, "--games: at least one game");
    anyhow::ensure!(
        (1..=64).contains(&args.threads),
        "--threads: 1 to 64, not {}",
        args.threads
    );
    anyhow::ensure!(
        (1..=100_000_000).contains(&args.nodes),
        "--nodes: 1 to 100,000,000, not {}",
        args.nodes
    );
    let openings: Vec<Opening<V>> = match &args.openings {
        None => Vec::new(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let list = parse_openings::<V>(&text)
                .with_context(|| format!("{}: not an openings file", path.display()))?;
            anyhow::ensure!(!list.is_empty(), "{}: no opening in it", path.display());
            list
        }
    };
    let config = SelfplayConfig {
        games: args.games,
        nodes: args.nodes,
        threads: args.threads,
        seed: args.seed,
        openings,
        random_plies: args.random_plies,
        eval: args.eval,
    };
    let file =
        File::create(&args.out).with_context(|| format!("cannot write {}", args.out.display()))?;
    let mut writer = BufWriter::new(file);
    writeln!(
        writer,
        "# emergo selfplay --variant {} --games {} --nodes {} --seed {} --eval {}{}\n\
         # game\tposition (N2)\tresult for the side to move\tsearch score (centimen, side to move)",
        V::KIND,
        args.games,
        args.nodes,
        args.seed,
        args.eval.name(),
        args.openings
            .as_ref()
            .map(|p| format!(
                " --openings {} --random-plies {}",
                p.display(),
                args.random_plies
            ))
            .unwrap_or_default(),
    )
    .with_context(|| format!("cannot write {}", args.out.display()))?;
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let out = Mutex::new((writer, None::<std::io::Error>));
    let done = selfplay(
        &config,
        &|p| {
            bar.set_position(p.games as u64);
            bar.set_message(format!("{} positions", p.positions));
        },
        &|game| {
            let mut guard = out.lock().unwrap_or_else(|e| e.into_inner());
            let (writer, error) = &mut *guard;
            if error.is_none() {
                if let Err(e) = writer.write_all(game.lines.as_bytes()) {
                    *error = Some(e);
                }
            }
        },
    );
    bar.finish_and_clear();
    let (mut writer, error) = out.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = error {
        return Err(e).with_context(|| format!("cannot write {}", args.out.display()));
    }
    writer
        .flush()
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    outln!("games: {}", done.games)?;
    outln!("positions: {}", done.positions)?;
    outln!(
        "White's score: {:.1}%",
        100.0 * done.white_points / done.games.max(1) as f64
    )?;
    outln!(
        "time: {seconds:.1} s, {:.1} games/s",
        done.games as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}
