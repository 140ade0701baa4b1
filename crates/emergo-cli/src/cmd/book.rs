//! `emergo book build (--from FILE | --selfplay N | --expand) [--plies P] [--min-games M]
//! [--depth D] [--moves K] [--margin C] [--width W] [--max-positions X] [--threads T] [--seed S]
//! [--variant B] --out BOOK` builds an opening book of a board (the square 9×9 one unless
//! `--variant` names another; docs/engine.md, "Opening book"), written in the book's
//! text format (`emergo_engine::book`) with the command that made it on its first line:
//! - from games (a file of records, `--from`, or N games the engine plays against itself,
//!   `--selfplay`, each move drawn by the seed among the best lines of a shallow search): the
//!   positions of the first P plies that at least M games reach (counted by position, so that
//!   transpositions merge; a game passing one twice counts once), each searched to depth D for
//!   its best K moves;
//! - or by expanding the engine's own tree (`--expand`): from the start, each position searched
//!   to depth D for its best K moves, and the moves within C centimen of the best followed to
//!   the next ply (at most W positions a ply, those of the best moves first), until ply P or X
//!   positions.
//!
//! `emergo book probe BOOK [--position POS] [--moves M...]` prints the book's moves of a
//! position, the best first.
//!
//! `emergo book openings BOOK --plies P [--margin C] [--games G --tc T --concurrency N --keep K]
//! --out FILE` writes the book's lines to ply P (following the moves within C of the best) as an
//! openings file for `emergo match`; with `--games`, each line is first played G times between
//! two equal engines, colours swapped, and the K lines where White's score is nearest one half are
//! written, each with White's measured score.

use super::{Exit, VariantArg};
use anyhow::Context;
use emergo_arena::{parse_openings, run_match, EngineSpec, MatchConfig, TimeControl};
use emergo_core::color::Color;
use emergo_core::game::Game;
use emergo_core::game::Outcome;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::record::{split_records, GameRecord};
use emergo_core::{with_variant, Variant, VariantKind};
use emergo_engine::book::Book;
use emergo_engine::rng::XorShift;
use emergo_engine::{AlphaBetaPlayer, Level, Limits};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Arguments of `emergo book`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(clap::Subcommand)]
enum BookCommand {
    /// Builds a book from games (a file of records, or self-play).
    Build(BuildArgs),
    /// The book's moves of a position.
    Probe(ProbeArgs),
    /// The book's lines as an openings file, measured between equal engines.
    Openings(OpeningsArgs),
}

#[derive(clap::Args)]
struct BuildArgs {
    /// A file of game records (as `emergo explorer import` reads them).
    #[arg(long, value_name = "FILE", required_unless_present_any = ["selfplay", "expand"])]
    from: Option<PathBuf>,
    /// Games the engine plays against itself instead.
    #[arg(long, value_name = "N", conflicts_with = "from", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    selfplay: Option<u32>,
    /// Expands the engine's own tree from the start instead of counting games.
    #[arg(long, conflicts_with_all = ["from", "selfplay"])]
    expand: bool,
    /// With --expand: the moves within this many centimen of the best are followed [default: 20].
    #[arg(long, value_parser = clap::value_parser!(i32).range(0..=1000))]
    margin: Option<i32>,
    /// With --expand: at most this many positions of each ply are searched (those reached by the
    /// best moves first) [default: 64].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    width: Option<u32>,
    /// With --expand: at most this many positions are searched [default: 1000].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_positions: Option<u32>,
    /// Positions up to this ply (the start is ply 0).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=60))]
    plies: u32,
    /// Positions reached by at least this many games.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    min_games: u32,
    /// The depth of each position's search (plies).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// The best moves kept for each position (1 to 8).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=8))]
    moves: u8,
    /// Positions searched at once, each by its own search (the book is the same for any number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// The seed of the self-play games' random entries.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    variant: VariantArg,
    /// The book file to write.
    #[arg(long, value_name = "BOOK")]
    out: PathBuf,
}

#[derive(clap::Args)]
struct ProbeArgs {
    /// The book file.
    book: PathBuf,
    /// Position text (N2); the start by default.
    #[arg(long)]
    position: Option<String>,
    /// Moves (N1) played from the position first.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    #[command(flatten)]
    variant: VariantArg,
}

#[derive(clap::Args)]
struct OpeningsArgs {
    /// The book file.
    book: PathBuf,
    /// The lines' length (plies from the start).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    plies: u32,
    /// The book moves within this many centimen of the best are followed.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(i32).range(0..=1000))]
    margin: i32,
    /// Games played from each line (colours swapped); 0 writes every line unmeasured.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    games: u32,
    /// The time control of those games (as `emergo match --tc`).
    #[arg(long, default_value = "100")]
    tc: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// With --games: the lines kept, those where White scored nearest one half.
    #[arg(long, value_name = "K")]
    keep: Option<usize>,
    #[command(flatten)]
    variant: VariantArg,
    /// The openings file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// The search depth of the self-play games' moves.
const SELFPLAY_DEPTH: u32 = 4;
/// The lines each self-play move is drawn from.
const SELFPLAY_LINES: usize = 4;
/// How far below the best line (centimen) a self-play move may be.
const SELFPLAY_MARGIN: i32 = 30;

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        BookCommand::Build(args) => with_variant!(args.variant.variant, V => build::<V>(&args)),
        BookCommand::Probe(args) => with_variant!(args.variant.variant, V => probe::<V>(&args)),
        BookCommand::Openings(args) => {
            with_variant!(args.variant.variant, V => openings::<V>(&args))
        }
    }
}

/// The positions of the first `plies` plies of `games`, each with the number of games that
/// reach it (once a game), in the order they were first reached.
fn count_positions<V: Variant>(games: &[Game<V>], plies: u32) -> Vec<(Position<V>, u32)> {
    let mut order: Vec<Position<V>> = Vec::new();
    let mut counts: HashMap<u64, u32> = HashMap::new();
    for game in games {
        let mut seen = HashSet::new();
        for position in game.positions().iter().take(plies as usize + 1) {
            let hash = position.hash();
            if !seen.insert(hash) {
                continue;
            }
            let count = counts.entry(hash).or_insert(0);
            if *count == 0 {
                order.push(*position);
            }
            *count += 1;
        }
    }
    order
        .into_iter()
        .map(|p| {
            let n = counts[&p.hash()];
            (p, n)
        })
        .collect()
}

/// The games of a file of records; a record that cannot be read stops the build, naming it.
fn games_from<V: Variant>(path: &PathBuf) -> anyhow::Result<Vec<Game<V>>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut games = Vec::new();
    for (line, record) in split_records(&text) {
        let game = GameRecord::<V>::parse(record)
            .and_then(|r| r.to_game())
            .with_context(|| format!("{}:{line}: not a game record", path.display()))?;
        games.push(game);
    }
    Ok(games)
}

/// `n` games of the engine against itself to ply `plies`: at each ply a move drawn (from
/// `seed`) among the best [`SELFPLAY_LINES`] of a depth-[`SELFPLAY_DEPTH`] search that are within
/// [`SELFPLAY_MARGIN`] of the best, so that the games spread over the good openings.
fn selfplay<V: Variant>(
    n: u32,
    plies: u32,
    seed: u64,
    bar: &indicatif::ProgressBar,
) -> Vec<Game<V>> {
    let mut rng = XorShift::new(seed);
    let mut player = AlphaBetaPlayer::new(Level::MAX);
    player.set_multipv(SELFPLAY_LINES);
    let limits = Limits::depth(SELFPLAY_DEPTH);
    let mut games = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let mut game = Game::new(Position::start());
        while (game.ply() as u32) < plies && !game.is_over() {
            let result = player.analyse(&game, &limits, |_| {});
            let near: Vec<_> = result
                .lines
                .iter()
                .filter(|l| l.score >= result.score - SELFPLAY_MARGIN)
                .filter_map(|l| l.first())
                .collect();
            let Some(&mv) = near.get((rng.next_u64() % near.len().max(1) as u64) as usize) else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
        }
        games.push(game);
        bar.inc(1);
    }
    games
}

/// A position's best moves with their scores (centimen, for the side to move), the best first.
type Searched<V> = Vec<(Move<V>, i32)>;

/// Each of `positions` searched afresh (the table cleared, so that its scores depend on nothing
/// else) to `args.depth` for its best `args.moves` moves, on `args.threads` threads; in order.
fn search_all<V: Variant>(
    args: &BuildArgs,
    positions: &[Position<V>],
    bar: &indicatif::ProgressBar,
) -> Vec<Searched<V>> {
    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<Option<Searched<V>>>> = Mutex::new(vec![None; positions.len()]);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.min(positions.len().max(1) as u32) {
            scope.spawn(|| {
                let mut player = AlphaBetaPlayer::new(Level::MAX);
                player.set_multipv(usize::from(args.moves));
                let limits = Limits::depth(args.depth);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(position) = positions.get(i) else {
                        break;
                    };
                    player.new_game();
                    let result = player.analyse(&Game::new(*position), &limits, |_| {});
                    let moves = result
                        .lines
                        .iter()
                        .filter_map(|line| line.first().map(|mv| (mv, line.score)))
                        .collect();
                    found.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(moves);
                    bar.inc(1);
                }
            });
        }
    });
    found
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect()
}

impl BuildArgs {
    /// The tree's limits are refused without `--expand` (checked here: clap's `requires` counts
    /// the flag's default `false` as present).
    fn check(&self) -> anyhow::Result<()> {
        let given = [
            ("--margin", self.margin.is_some()),
            ("--width", self.width.is_some()),
            ("--max-positions", self.max_positions.is_some()),
        ];
        if let Some((flag, _)) = given
            .iter()
            .find(|(_, given)| *given)
            .filter(|_| !self.expand)
        {
            anyhow::bail!("{flag} limits the tree of --expand; a book of counted games has none");
        }
        Ok(())
    }

    fn margin(&self) -> i32 {
        self.margin.unwrap_or(20)
    }

    fn width(&self) -> u32 {
        self.width.unwrap_or(64)
    }

    fn max_positions(&self) -> u32 {
        self.max_positions.unwrap_or(1000)
    }
}

fn build<V: Variant>(args: &BuildArgs) -> anyhow::Result<()> {
    args.check()?;
    let style = indicatif::ProgressStyle::with_template("{msg:>10} {bar:40} {pos}/{len} {eta}")
        .context("the progress bar's template")?;
    let mut out = String::new();
    let source = match (&args.from, args.selfplay) {
        (Some(path), _) => format!("--from {}", path.display()),
        (None, Some(n)) => format!("--selfplay {n} --seed {}", args.seed),
        (None, None) => format!(
            "--expand --margin {} --width {} --max-positions {}",
            args.margin(),
            args.width(),
            args.max_positions()
        ),
    };
    let counted = if args.expand {
        String::new()
    } else {
        format!(" --min-games {}", args.min_games)
    };
    let board = match V::KIND {
        VariantKind::Emergo => String::new(),
        kind => format!("--variant {kind} "),
    };
    let _ = writeln!(
        out,
        "# emergo book build {board}{source} --plies {}{counted} --depth {} --moves {}",
        args.plies, args.depth, args.moves
    );
    let mut lines = 0usize;
    let mut write = |out: &mut String, position: &Position<V>, moves: &[(Move<V>, i32)]| {
        for (mv, score) in moves {
            let _ = writeln!(out, "{position} {mv} {score}");
            lines += 1;
        }
    };
    let games = if args.expand {
        let bar = indicatif::ProgressBar::new(u64::from(args.max_positions()))
            .with_style(style)
            .with_message("expanding");
        let per_ply = expand::<V>(args, &bar, |ply, position, moves| {
            let _ = writeln!(out, "# ply {ply}");
            write(&mut out, position, moves);
        });
        bar.finish_and_clear();
        let counts: Vec<String> = per_ply.iter().map(usize::to_string).collect();
        let _ = writeln!(
            out,
            "# {} positions, by ply from the start: {}; <position> <move> <score>",
            per_ply.iter().sum::<usize>(),
            counts.join(" ")
        );
        None
    } else {
        let games = match (&args.from, args.selfplay) {
            (Some(path), _) => games_from::<V>(path)?,
            (None, Some(n)) => {
                let bar = indicatif::ProgressBar::new(u64::from(n))
                    .with_style(style.clone())
                    .with_message("self-play");
                let games = selfplay(n, args.plies, args.seed, &bar);
                bar.finish_and_clear();
                games
            }
            (None, None) => unreachable!("clap asks for --from, --selfplay or --expand"),
        };
        let chosen: Vec<(Position<V>, u32)> = count_positions(&games, args.plies)
            .into_iter()
            .filter(|(p, n)| *n >= args.min_games && !p.legal_moves().is_empty())
            .collect();
        let _ = writeln!(
            out,
            "# {} games, {} positions reached by at least {} of them; <position> <move> <score>",
            games.len(),
            chosen.len(),
            args.min_games
        );
        let bar = indicatif::ProgressBar::new(chosen.len() as u64)
            .with_style(style)
            .with_message("searching");
        let positions: Vec<Position<V>> = chosen.iter().map(|(p, _)| *p).collect();
        let searched = search_all(args, &positions, &bar);
        bar.finish_and_clear();
        for ((position, reached), moves) in chosen.iter().zip(&searched) {
            let _ = writeln!(out, "# {reached} games");
            write(&mut out, position, moves);
        }
        Some(games.len())
    };
    // What was written must read back as a book.
    let book = Book::<V>::parse(&out).context("the book built does not read back")?;
    std::fs::write(&args.out, &out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let from = games.map_or(String::new(), |n| format!(", from {n} games"));
    outln!(
        "wrote {}: {} positions, {lines} moves{from}",
        args.out.display(),
        book.positions(),
    )?;
    Ok(())
}

/// The engine's own tree, ply by ply from the start: the positions of a ply (each once, however
/// it is reached) searched together by [`search_all`], handed to `found` with their ply and
/// moves, and the moves within `--margin` of each one's best followed to the next ply, until
/// `--plies` plies or `--max-positions` positions. Returns the positions searched at each ply.
fn expand<V: Variant>(
    args: &BuildArgs,
    bar: &indicatif::ProgressBar,
    mut found: impl FnMut(u32, &Position<V>, &[(Move<V>, i32)]),
) -> Vec<usize> {
    let mut per_ply = Vec::new();
    let mut seen = HashSet::from([Position::<V>::start().hash()]);
    let mut level = vec![Position::start()];
    let mut budget = args.max_positions() as usize;
    for ply in 0..args.plies {
        level.retain(|p| !p.legal_moves().is_empty());
        level.truncate(budget);
        if level.is_empty() {
            break;
        }
        budget -= level.len();
        let searched = search_all(args, &level, bar);
        per_ply.push(level.len());
        // The next ply: each position's best moves first, then their second best, and so on.
        let mut next = Vec::new();
        for (position, moves) in level.iter().zip(&searched) {
            found(ply, position, moves);
            let Some(&(_, best)) = moves.first() else {
                continue;
            };
            for (rank, &(mv, score)) in moves.iter().enumerate() {
                if score < best - args.margin() {
                    break;
                }
                if let Ok(after) = position.play(mv) {
                    next.push((rank, after));
                }
            }
        }
        next.sort_by_key(|(rank, _)| *rank);
        level = next
            .into_iter()
            .map(|(_, p)| p)
            .filter(|p| seen.insert(p.hash()))
            .take(args.width() as usize)
            .collect();
    }
    per_ply
}

/// A line of the book: the moves from the start, the position they reach and the book's score
/// of the last move, for White (centimen).
struct BookLine<V: Variant> {
    moves: Vec<Move<V>>,
    position: Position<V>,
    white_score: i32,
}

/// The book's lines of `plies` plies from the start, following at each position the moves
/// within `margin` of its best; a position reached by two lines is kept once, by the first.
fn book_lines<V: Variant>(book: &Book<V>, plies: u32, margin: i32) -> Vec<BookLine<V>> {
    let mut lines = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(Position::start(), Vec::new(), 0)];
    while let Some((position, moves, white_score)) = stack.pop() {
        if moves.len() == plies as usize {
            if seen.insert(position.hash()) {
                lines.push(BookLine {
                    moves,
                    position,
                    white_score,
                });
            }
            continue;
        }
        let entries = book.probe(&position);
        let Some(best) = entries.first().map(|m| m.score) else {
            continue;
        };
        let sign = if position.turn() == Color::White {
            1
        } else {
            -1
        };
        // Pushed worst first, so that the best line is taken first.
        for entry in entries.iter().rev().filter(|m| m.score >= best - margin) {
            if let Ok(next) = position.play(entry.mv) {
                let mut line = moves.clone();
                line.push(entry.mv);
                stack.push((next, line, sign * entry.score));
            }
        }
    }
    lines
}

fn openings<V: Variant>(args: &OpeningsArgs) -> anyhow::Result<()> {
    let book = Book::<V>::load(&args.book)?;
    let lines = book_lines(&book, args.plies, args.margin);
    if lines.is_empty() {
        return Err(Exit {
            code: 1,
            message: format!(
                "{}: no line of {} plies (are its positions searched to that ply?)",
                args.book.display(),
                args.plies
            ),
        }
        .into());
    }
    let text = |l: &BookLine<V>| -> String {
        let moves: Vec<String> = l.moves.iter().map(Move::to_string).collect();
        moves.join(" ")
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Openings from the book {} ({} plies, book moves within {} centimen of the best), one N2 position a line after the moves in the comment above it.",
        args.book.display(),
        args.plies,
        args.margin
    );
    let _ = writeln!(
        out,
        "# For `emergo match --openings-file` and for cutegames (docs/match.md). The book's score is for White, in centimen."
    );
    if args.games == 0 {
        let _ = writeln!(out, "# {} lines.", lines.len());
        for line in &lines {
            let _ = writeln!(
                out,
                "\n# {} · book {:+}\n{}",
                text(line),
                line.white_score,
                line.position
            );
        }
    } else {
        let per_line = args.games.div_ceil(2) * 2;
        let listed: String = lines.iter().map(|l| format!("{}\n", l.position)).collect();
        let spec: EngineSpec = "alphabeta".parse().context("the engines")?;
        let mut config =
            MatchConfig::<V>::new([spec.clone(), spec], lines.len() * per_line as usize);
        config.tc = args
            .tc
            .parse::<TimeControl>()
            .with_context(|| format!("--tc {}", args.tc))?;
        config.concurrency = args.concurrency as usize;
        config.book = Some(parse_openings::<V>(&listed).context("the book's lines")?);
        // Each line is played `per_line` times: games 2k and 2k+1 of a pass are line k's, with
        // colours swapped.
        let mut white = vec![0u32; lines.len()];
        let bar = indicatif::ProgressBar::new((lines.len() * per_line as usize) as u64).with_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games  [{elapsed_precise}] {eta}",
            )
            .context("the progress bar's template")?,
        );
        run_match(&config, |game, _| {
            let index = (game.round - 1) / 2 % lines.len();
            white[index] += match game.record.result {
                Some(Outcome::Win(Color::White)) => 2,
                Some(Outcome::Draw) => 1,
                _ => 0,
            };
            bar.inc(1);
            true
        })?;
        bar.finish_and_clear();
        // White's score in half points out of 2 × per_line; nearest one half first.
        let mut order: Vec<usize> = (0..lines.len()).collect();
        order.sort_by_key(|&i| {
            (
                white[i].abs_diff(per_line),
                lines[i].white_score.unsigned_abs(),
                i,
            )
        });
        order.truncate(args.keep.unwrap_or(lines.len()));
        let kept_half_points: u32 = order.iter().map(|&i| white[i]).sum();
        let all_half_points: u32 = white.iter().sum();
        let _ = writeln!(
            out,
            "# {} lines of {} measured, {} games each between two equal engines at --tc {} (colours swapped); White's score in them {:.1}%, in all {} {:.1}%.",
            order.len(),
            lines.len(),
            per_line,
            args.tc,
            50.0 * f64::from(kept_half_points) / f64::from(per_line * order.len() as u32),
            lines.len(),
            50.0 * f64::from(all_half_points) / f64::from(per_line * lines.len() as u32)
        );
        for &i in &order {
            let line = &lines[i];
            let _ = writeln!(
                out,
                "\n# {} · book {:+} · White {}/{}\n{}",
                text(line),
                line.white_score,
                f64::from(white[i]) / 2.0,
                per_line,
                line.position
            );
        }
    }
    parse_openings::<V>(&out).context("the openings written do not read back")?;
    std::fs::write(&args.out, &out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    outln!("wrote {}", args.out.display())?;
    Ok(())
}

fn probe<V: Variant>(args: &ProbeArgs) -> anyhow::Result<()> {
    let book = Book::<V>::load(&args.book)?;
    let start = super::position_or_start::<V>(args.position.as_deref())?;
    let mut game = Game::new(start);
    for text in &args.moves {
        game.play_text(text)
            .with_context(|| format!("cannot play '{text}'"))?;
    }
    let moves = book.probe(game.position());
    if moves.is_empty() {
        return Err(Exit {
            code: 1,
            message: format!("{} is not in the book", game.position()),
        }
        .into());
    }
    for m in moves {
        outln!("{} {}", m.mv, m.score)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_move_orders_to_one_position_count_two_games_for_it() {
        let play = |moves: &[&str]| {
            let mut game = Game::<emergo_core::Emergo>::new(Position::start());
            for m in moves {
                game.play_text(m).expect("legal");
            }
            game
        };
        // White enters at two squares, Black at one, in two orders: one position after ply 3.
        let a = play(&["d3", "f7", "c4"]);
        let b = play(&["c4", "f7", "d3"]);
        let counts = count_positions(&[a.clone(), b], 3);
        let after = counts
            .iter()
            .find(|(p, _)| p.hash() == a.position().hash())
            .expect("the shared position");
        assert_eq!(after.1, 2);
        // The start is reached by both, each after-first-move position by one.
        assert_eq!(counts[0].1, 2);
        assert_eq!(counts.iter().filter(|(_, n)| *n == 1).count(), 4);
    }
}
