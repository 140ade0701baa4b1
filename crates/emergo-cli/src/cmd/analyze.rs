//! `emergo analyze [--variant V] [--position <POS>] [--moves <M>...] [--depth N | --time S]
//! [--multipv N]`: the opening book's moves when the shipped book has the position, then one
//! line per completed depth (depth, score, nodes, nodes per second, time, principal variation;
//! with `--multipv N` a row per line, numbered), then the evaluation bar and the top lines, then
//! the best move.

use super::{evalbar, position_or_start, VariantArg};
use anyhow::Context;
use emergo_core::game::Game;
use emergo_core::{with_variant, Variant};
use emergo_engine::search::mate_in;
use emergo_engine::{AlphaBetaPlayer, Level, Limits, SearchInfo};
use std::time::Duration;

/// Arguments of `emergo analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// Position text (N2) on the board of --variant; the start by default.
    #[arg(long)]
    position: Option<String>,
    /// Moves (N1) played from the position before the analysis, e.g. `--moves d3 f7`.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Search to this depth (plies).
    #[arg(long, conflicts_with = "time")]
    depth: Option<u32>,
    /// Search for this many seconds (default: 5 when no depth is given).
    #[arg(long)]
    time: Option<f64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads (Lazy SMP).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Report the best N moves (1 to 8), each with its score and line.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=8))]
    multipv: u8,
    #[command(flatten)]
    variant: VariantArg,
}

/// Moves of each top line shown under the bar.
const LINE_MOVES: usize = 8;

fn score_text(score: i32) -> String {
    match mate_in(score) {
        Some(m) => format!("mate {m}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    with_variant!(args.variant.variant, V => run_on::<V>(&args))
}

fn run_on<V: Variant>(args: &Args) -> anyhow::Result<()> {
    let start = position_or_start::<V>(args.position.as_deref())?;
    let mut game = Game::new(start);
    for text in &args.moves {
        game.play_text(text)
            .with_context(|| format!("cannot play '{text}'"))?;
    }
    if game.is_over() {
        outln!("the game is over: {:?}", game.status())?;
        return Ok(());
    }
    let limits = match (args.depth, args.time) {
        (Some(d), _) => Limits::depth(d.max(1)),
        (None, Some(t)) if t.is_finite() && t > 0.0 => Limits::movetime(Duration::from_secs_f64(t)),
        (None, Some(t)) => anyhow::bail!("--time must be a positive number of seconds, not {t}"),
        (None, None) => Limits::movetime(Duration::from_secs(5)),
    };
    let mut player = AlphaBetaPlayer::new(Level::MAX);
    player.set_hash_mb(args.hash);
    player.set_threads(args.threads);
    player.set_multipv(usize::from(args.multipv));
    let numbered = args.multipv > 1;
    outln!("position {}", game.position())?;
    // The shipped book's moves first, when it has the position (the search runs all the same).
    let book = emergo_engine::book::Book::<V>::shipped();
    let booked = book.probe(game.position());
    if !booked.is_empty() {
        let moves: Vec<String> = booked
            .iter()
            .map(|m| format!("{} {}", m.mv, score_text(m.score)))
            .collect();
        outln!("book {}", moves.join(", "))?;
    }
    let line_head = if numbered { " line" } else { "" };
    outln!(
        "{:>5}{line_head} {:>9} {:>12} {:>10} {:>8}  pv",
        "depth",
        "score",
        "nodes",
        "nps",
        "time"
    )?;
    // A write that fails (stdout closed) ends the command after the search.
    let mut failed: Option<std::io::Error> = None;
    let result = player.analyse(&game, &limits, |i: &SearchInfo<V>| {
        for (k, line) in i.lines.iter().enumerate() {
            if failed.is_some() {
                break;
            }
            if k > 0 && !numbered {
                break;
            }
            let pv: Vec<String> = line.pv.iter().map(|m| m.to_string()).collect();
            let number = if numbered {
                format!(" {:>4}", k + 1)
            } else {
                String::new()
            };
            if let Err(e) = outln!(
                "{:>5}{number} {:>9} {:>12} {:>10} {:>7.2}s  {}",
                i.depth,
                score_text(line.score),
                i.nodes,
                i.nps,
                i.time.as_secs_f64(),
                pv.join(" ")
            ) {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let turn = game.position().turn();
    if result.best.is_some() {
        outln!()?;
        outln!("{}", evalbar::bar(evalbar::for_white(result.score, turn)))?;
        for text in evalbar::lines_text(&result.lines, turn, LINE_MOVES) {
            outln!("  {text}")?;
        }
        outln!()?;
    }
    match result.best {
        Some(m) => outln!(
            "bestmove {m} score {} depth {} nodes {}",
            score_text(result.score),
            result.depth,
            result.nodes
        )?,
        None => outln!("no legal move")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_engine::search::MATE;

    #[test]
    fn scores_print_in_men_or_as_mate_in_moves() {
        assert_eq!(score_text(125), "+1.25");
        assert_eq!(score_text(-8), "-0.08");
        assert_eq!(score_text(MATE - 3), "mate 2");
        assert_eq!(score_text(-(MATE - 2)), "mate -1");
    }
}
