//! The `emergo` command: a thin face over the libraries. Each verb lives in `cmd/`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// `println!` that hands the write's error back (`outln!(...)?`) instead of panicking: a reader
/// that stops early (`emergo perft 5 --divide | head -3`) closes stdout, and the command then
/// ends quietly ([`main`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)
    }};
}

/// `print!` as [`outln!`] is `println!`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*)
    }};
}

mod cmd;
mod process;

/// mimalloc, not the system's allocator: in the 1,000-game load test glibc's malloc and its
/// free-list consolidation took a quarter of the server's runtime threads (issue 17; docs/web.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Emergo: rules, engine and web app. Every verb is listed below; `emergo <verb> --help` says
/// more.
#[derive(Parser)]
#[command(name = "emergo", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences (leaf nodes) to a depth.
    Perft(cmd::perft::Args),
    /// List the legal moves of a position (or of many, with --batch).
    Moves(cmd::moves::Args),
    /// Play moves from a position and print the resulting position text.
    Apply(cmd::apply::Args),
    /// Draw a position in the terminal.
    Show(cmd::show::Args),
    /// Play uniformly random games from the start and report the speed.
    Random(cmd::random::Args),
    /// Analyse a position with the engine.
    Analyze(cmd::analyze::Args),
    /// Play a game against the engine in the terminal.
    Play(cmd::play::Args),
    /// Play engines against each other.
    Match(cmd::matches::Args),
    /// Speak the UGI engine protocol on stdin/stdout.
    Ugi(cmd::ugi::Args),
    /// Play on an emergo site as a bot account, with a UGI engine (docs/bots.md).
    Bot(cmd::bot::Args),
    /// Search a fixed set of positions; print the node count signature and the speed.
    Bench(cmd::bench::Args),
    /// Run the web app.
    Serve(cmd::serve::Args),
    /// Run engine workers over a PostgreSQL database (the engine's replies and hints).
    Worker(cmd::worker::Args),
    /// Work on a database as a whole: `emergo db copy --from URL --to URL`.
    Db(cmd::db::Args),
    /// The opening explorer: `emergo explorer rebuild`, `emergo explorer import FILE`.
    Explorer(cmd::explorer::Args),
    /// The opening book: `emergo book build (--from FILE | --selfplay N | --expand) --out BOOK`,
    /// `emergo book probe BOOK --moves ...`, `emergo book openings BOOK --plies P --out FILE`.
    Book(cmd::book::Args),
    /// Fit the evaluation weights to the results of recorded games (Texel tuning).
    Tune(cmd::tune::Args),
    /// Play the engine against itself and write quiet positions with score and result, the
    /// data of `emergo train`.
    Selfplay(cmd::selfplay::Args),
    /// Fit the learned evaluation (patterns) to self-play positions and write its weights.
    Train(cmd::train::Args),
    /// Make puzzles from engine games: `emergo puzzles generate --games N --out FILE`.
    Puzzles(cmd::puzzles::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => cmd::perft::run(args),
        Command::Moves(args) => cmd::moves::run(args),
        Command::Apply(args) => cmd::apply::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Random(args) => cmd::random::run(args),
        Command::Analyze(args) => cmd::analyze::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Match(args) => cmd::matches::run(args),
        Command::Ugi(args) => cmd::ugi::run(args),
        Command::Bot(args) => cmd::bot::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Worker(args) => cmd::worker::run(args),
        Command::Db(args) => cmd::db::run(args),
        Command::Tune(args) => cmd::tune::run(args),
        Command::Selfplay(args) => cmd::selfplay::run(args),
        Command::Train(args) => cmd::train::run(args),
        Command::Explorer(args) => cmd::explorer::run(args),
        Command::Book(args) => cmd::book::run(args),
        Command::Puzzles(args) => cmd::puzzles::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout has gone (`| head`): nothing is left to say to anyone.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let code = err.downcast_ref::<cmd::Exit>().map_or(1, |e| e.code);
            eprintln!("error: {err:#}");
            ExitCode::from(code)
        }
    }
}

/// Whether `err` comes from a write to a pipe whose reader has closed it.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
