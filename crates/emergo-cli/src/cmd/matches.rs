//! `emergo match [--variant V]`: engine against engine, with a progress bar on stderr and the
//! report on stdout (its lines are documented in docs/match.md). Both engines play on the board
//! of `--variant` (an external UGI engine is told it with `setoption name UGI_Variant`); the
//! random openings are entries on that board, and an openings file is read on it.

use super::VariantArg;
use anyhow::{bail, Context};
use emergo_arena::{
    parse_openings, run_match, shuffled, EngineSpec, MatchConfig, Sprt, TimeControl,
};
use emergo_core::{with_variant, Variant};
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `emergo match`.
#[derive(clap::Args)]
pub struct Args {
    /// An engine, twice: alphabeta[:level=N,time=MS,depth=D,nodes=N,eval=pattern|linear,net=FILE,book=on,bookfile=FILE], mcts[:playouts=N,time=MS],
    /// greedy, random, or ugi:<command> (an external engine, e.g. "ugi:/path/to/emergo ugi").
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Time control: milliseconds per move (100) or base+increment in seconds (10+0.1).
    #[arg(long, default_value = "100")]
    tc: String,
    /// Games played at the same time (threads).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Random entries (plies) in each opening.
    #[arg(long, value_name = "PLIES", default_value_t = 4)]
    openings: usize,
    /// Openings from a file, one a line, on the board of --variant (openings/balanced.txt is
    /// for the square 9×9 board): N2 position text or moves from the start (`d3 a5 f2`);
    /// blank lines and # comments skipped. Played in the file's order, shuffled by --seed if
    /// --seed is given.
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    openings_file: Option<PathBuf>,
    /// Seed of the openings and of the built-in players [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Stop when the SPRT decides: elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=logistic|bayeselo].
    #[arg(long)]
    sprt: Option<String>,
    /// Write every game record to this file, as games finish.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Plies after which a game is a draw (the only adjudication).
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
    /// Milliseconds a side may overstep its clock (with base+increment) before it loses on time.
    #[arg(long, default_value_t = 200)]
    time_margin: u64,
    #[command(flatten)]
    variant: VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    with_variant!(args.variant.variant, V => run_on::<V>(&args))
}

fn run_on<V: Variant>(args: &Args) -> anyhow::Result<()> {
    let [a, b] = match args.engines.as_slice() {
        [a, b] => [a, b],
        other => bail!(
            "a match needs exactly two --engine options, got {}",
            other.len()
        ),
    };
    let engines: [EngineSpec; 2] = [
        a.parse().with_context(|| format!("--engine {a}"))?,
        b.parse().with_context(|| format!("--engine {b}"))?,
    ];
    let mut config = MatchConfig::<V>::new(engines, args.games);
    config.tc = args
        .tc
        .parse::<TimeControl>()
        .with_context(|| format!("--tc {}", args.tc))?;
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    config.concurrency = args.concurrency;
    config.opening_plies = args.openings;
    config.seed = args.seed.unwrap_or(1);
    if let Some(path) = &args.openings_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let book = parse_openings::<V>(&text).with_context(|| format!("{}", path.display()))?;
        if book.is_empty() {
            bail!("{}: no openings in the file", path.display());
        }
        config.book = Some(match args.seed {
            Some(seed) => shuffled(book, seed),
            None => book,
        });
    }
    config.max_plies = args.max_plies.max(1);
    config.time_margin = Duration::from_millis(args.time_margin);
    if let Some(text) = &args.sprt {
        config.sprt = Some(
            text.parse::<Sprt>()
                .with_context(|| format!("--sprt {text}"))?,
        );
    }
    let mut pgn = match &args.pgn {
        Some(path) => {
            Some(BufWriter::new(File::create(path).with_context(|| {
                format!("cannot create {}", path.display())
            })?))
        }
        None => None,
    };

    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut write_error = None;
    let report = run_match(&config, |game, tally| {
        bar.inc(1);
        let w = &tally.wdl;
        bar.set_message(format!(
            "W {} D {} L {}  score {:.1}%  elo {}",
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score(),
            w.elo()
        ));
        if let Some(out) = &mut pgn {
            let written = writeln!(out, "{}", game.record).and_then(|()| out.flush());
            if let Err(e) = written {
                write_error = Some(e);
                return false;
            }
        }
        true
    });
    bar.finish_and_clear();
    let report = report?;
    if let Some(e) = write_error {
        let path = args.pgn.clone().unwrap_or_default();
        return Err(e).with_context(|| format!("cannot write {}", path.display()));
    }
    out!("{}", report.lines())?;
    Ok(())
}
