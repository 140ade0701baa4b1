//! `emergo play`: a game against the engine in the terminal, one command per line on stdin
//! (so it can be scripted through a pipe).

use super::{evalbar, position_or_start, VariantArg};
use anyhow::Context;
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::record::GameRecord;
use emergo_core::{with_variant, Color, EndReason, Outcome, Status, Variant};
use emergo_engine::search::mate_in;
use emergo_engine::{AlphaBetaPlayer, Level, Limits, Player};
use std::io::{BufRead, IsTerminal, Write};
use std::time::Duration;

/// Arguments of `emergo play`.
#[derive(clap::Args)]
pub struct Args {
    /// Engine level, 1 (a beginner can win) to 10 (full strength).
    #[arg(long, default_value = "5")]
    level: Level,
    /// Your colour: white or black.
    #[arg(long, default_value_t = Color::White)]
    color: Color,
    /// Start from this position (N2 text, on the board of --variant) instead of the start.
    #[arg(long, value_name = "POS")]
    position: Option<String>,
    /// The engine's time per move, in milliseconds [default: the level's time, the same as
    /// on the web: 100 ms at level 1 up to 2000 ms at level 10].
    #[arg(long)]
    movetime: Option<u64>,
    /// Seed of the engine's choices among near-best moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    variant: VariantArg,
}

const HELP: &str = "\
commands:
  <move>        play a move: d3 (entry), e4-e5 (step), e4xc4xc6 (capture, every landing square)
  moves         list the legal moves
  undo          take back your last move (and the engine's reply); a resignation is final
  hint          ask the engine for a move: the evaluation bar and its three best lines
  resign        give up the game
  save <file>   write the game record to a file
  board         draw the board again
  help          this text
  quit          leave";

/// The engine the player faces.
fn engine<V: Variant>(level: Level, seed: u64) -> Box<dyn Player<V>> {
    Box::new(AlphaBetaPlayer::new(level).with_seed(seed))
}

/// Lines the hint shows under the evaluation bar.
const HINT_LINES: usize = 3;

/// A suggestion for the side to move from the full-strength engine: one line
/// `hint: d3 (score +0.35, depth 7, pv d3 f6 c4)` (the score for the side to move), then the
/// evaluation bar and the three best lines (scores from White's side).
fn hint<V: Variant>(game: &Game<V>, limits: &Limits) -> String {
    let mut engine = AlphaBetaPlayer::new(Level::MAX);
    engine.set_multipv(HINT_LINES);
    let result = engine.analyse(game, limits, |_| {});
    let Some(best) = result.best else {
        return "hint: no legal move".to_string();
    };
    let turn = game.position().turn();
    let mut below = vec![evalbar::bar(evalbar::for_white(result.score, turn))];
    below.extend(
        evalbar::lines_text(&result.lines, turn, 8)
            .into_iter()
            .map(|l| format!("  {l}")),
    );
    let score = match mate_in(result.score) {
        Some(m) if m > 0 => format!("wins in {m}"),
        Some(m) => format!("loses in {}", -m),
        None => format!("score {:+.2}", f64::from(result.score) / 100.0),
    };
    let pv: Vec<String> = result.pv.iter().map(Move::to_string).collect();
    format!(
        "hint: {best} ({score}, depth {}, pv {})\n{}",
        result.depth,
        pv.join(" "),
        below.join("\n")
    )
}

/// The end of the game in words: `game over: 1-0, White wins (no pieces)`.
fn announce(status: Status) -> Option<String> {
    let Status::Finished { outcome, reason } = status else {
        return None;
    };
    let who = match outcome {
        Outcome::Win(c) => format!("{} wins", c.title()),
        Outcome::Draw => "draw".to_string(),
    };
    Some(format!("game over: {}, {who} ({reason})", outcome.token()))
}

fn legal_list<V: Variant>(pos: &Position<V>) -> String {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    moves.sort();
    moves.join(" ")
}

struct Session<W: Write, V: Variant> {
    game: Game<V>,
    human: Color,
    engine: Box<dyn Player<V>>,
    engine_name: String,
    limits: Limits,
    out: W,
}

impl<W: Write, V: Variant> Session<W, V> {
    fn board(&mut self) -> std::io::Result<()> {
        let drawing = super::show::draw(self.game.position());
        write!(self.out, "{drawing}")?;
        if !drawing.ends_with('\n') {
            writeln!(self.out)?;
        }
        Ok(())
    }

    /// Lets the engine move while it is its turn and the game goes on.
    fn engine_moves(&mut self) -> std::io::Result<()> {
        while !self.game.is_over() && self.game.position().turn() != self.human {
            let mv = self.engine.choose_move(&self.game, &self.limits);
            match mv.map(|m| (m, self.game.play(m))) {
                Some((m, Ok(()))) => {
                    writeln!(self.out, "engine plays {m}")?;
                    self.board()?;
                }
                _ => {
                    writeln!(self.out, "the engine found no move and resigns")?;
                    let _ = self.game.resign(self.human.other());
                }
            }
            if let Some(text) = announce(self.game.status()) {
                writeln!(self.out, "{text}")?;
            }
        }
        Ok(())
    }

    fn undo(&mut self) -> std::io::Result<()> {
        // One rule on every face: a resignation is final (the web refuses it too); a game
        // ended on the board can be taken back.
        if let Status::Finished {
            reason: EndReason::Resignation,
            ..
        } = self.game.status()
        {
            return writeln!(self.out, "a resignation is final: it cannot be taken back");
        }
        let n = self.game.ply();
        let human_moves = (0..n)
            .filter(|&i| self.game.positions()[i].turn() == self.human)
            .count();
        if human_moves == 0 {
            return writeln!(self.out, "nothing to undo");
        }
        let mut taken = Vec::new();
        while let Some(mv) = self.game.undo() {
            taken.push(mv.to_string());
            if self.game.position().turn() == self.human {
                break;
            }
        }
        taken.reverse();
        writeln!(self.out, "took back {}", taken.join(" "))?;
        self.board()
    }

    fn save(&mut self, path: &str) -> std::io::Result<()> {
        let (white, black) = match self.human {
            Color::White => ("you".to_string(), self.engine_name.clone()),
            Color::Black => (self.engine_name.clone(), "you".to_string()),
        };
        let mut record = GameRecord::from_game(
            &self.game,
            &[
                ("Event", "emergo play"),
                ("White", &white),
                ("Black", &black),
            ],
        );
        if let Status::Finished { reason, .. } = self.game.status() {
            record.set_tag("Termination", reason.name());
        }
        match std::fs::write(path, record.to_string()) {
            Ok(()) => writeln!(self.out, "saved the game record to {path}"),
            Err(e) => writeln!(self.out, "cannot save to {path}: {e}"),
        }
    }

    /// Handles one line; returns false to quit.
    fn command(&mut self, line: &str) -> std::io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Ok(true);
        };
        let over = self.game.is_over();
        match first.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return Ok(false),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "board" => self.board()?,
            "moves" => writeln!(
                self.out,
                "legal moves: {}",
                legal_list(self.game.position())
            )?,
            "undo" => {
                self.undo()?;
                self.engine_moves()?;
            }
            "save" => match words.next() {
                Some(path) => self.save(path)?,
                None => writeln!(self.out, "save needs a file name: save <file>")?,
            },
            _ if over => writeln!(
                self.out,
                "the game is over: 'undo', 'save <file>' or 'quit' ('help' lists the commands)"
            )?,
            "hint" => {
                let text = hint(&self.game, &self.limits);
                writeln!(self.out, "{text}")?;
            }
            "resign" => {
                let _ = self.game.resign(self.human);
                if let Some(text) = announce(self.game.status()) {
                    writeln!(self.out, "{text}")?;
                }
            }
            _ => match self.game.play_text(first) {
                Ok(mv) => {
                    writeln!(self.out, "you play {mv}")?;
                    self.board()?;
                    if let Some(text) = announce(self.game.status()) {
                        writeln!(self.out, "{text}")?;
                    }
                    self.engine_moves()?;
                }
                Err(e) => {
                    writeln!(self.out, "{e}")?;
                    writeln!(
                        self.out,
                        "legal moves: {}",
                        legal_list(self.game.position())
                    )?;
                }
            },
        }
        Ok(true)
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    with_variant!(args.variant.variant, V => run_on::<V>(&args))
}

fn run_on<V: Variant>(args: &Args) -> anyhow::Result<()> {
    let start = position_or_start::<V>(args.position.as_deref())?;
    let human = args.color;
    let stdout = std::io::stdout();
    // One table of levels for every face: the web's time per move unless --movetime says.
    let movetime = args.movetime.map_or_else(
        || args.level.movetime(),
        |ms| Duration::from_millis(ms.max(1)),
    );
    let mut session = Session {
        game: Game::new(start),
        human,
        engine: engine::<V>(args.level, args.seed),
        engine_name: format!("emergo level {}", args.level),
        limits: Limits::movetime(movetime),
        out: stdout.lock(),
    };
    writeln!(
        session.out,
        "you play {} against emergo level {} ({} ms a move); type a move or 'help'",
        human.title(),
        args.level,
        movetime.as_millis()
    )?;
    session.board()?;
    if let Some(text) = announce(session.game.status()) {
        writeln!(session.out, "{text}")?;
    }
    session.engine_moves()?;
    let interactive = std::io::stdin().is_terminal();
    let mut lines = std::io::stdin().lock().lines();
    loop {
        if interactive {
            write!(session.out, "> ")?;
            session.out.flush()?;
        }
        let Some(line) = lines.next() else { break };
        let line = line.context("cannot read standard input")?;
        if !session.command(line.trim())? {
            break;
        }
        session.out.flush()?;
    }
    Ok(())
}
