//! The UGI protocol (UCI's game-neutral form, as spoken to the cutegames tournament runner):
//! one line in, zero or more lines out. p1 is White.
//!
//! The loop reads any [`BufRead`] and writes any [`Write`]; a `go` searches on its own thread, so
//! `isready`, `stop` and `quit` are answered while it runs. A bad line is answered with
//! `info string error: ...` and otherwise ignored; no input ends the loop but `quit` and the end
//! of the input. Every `go` ends in `bestmove`. A rejected `position` leaves no position: until
//! a valid one arrives, `go` answers `bestmove 0000` and the game counts as over with no result.
//! Extensions: `go perft <N>`, `d` (draw the board).
//!
//! The board is the option `UGI_Variant` (`emergo`, `7x7` or `hex`; `emergo`, the square 9×9
//! board, by default), announced after `ugi` as UCI engines announce `UCI_Variant`. Setting it
//! starts a new game on that board; `position`, `go`, `go perft`, `query` and `d` then read and
//! answer on it.

mod go;

use crate::alphabeta::{AlphaBetaPlayer, DEFAULT_HASH_MB};
use crate::book::{Book, BookError};
use crate::level::Level;
use crate::pattern::EvalKind;
use crate::player::Player;
use crate::search::multipv::MAX_LINES;
use crate::search::{mate_in, SearchInfo};
use emergo_core::board::Square;
use emergo_core::game::Game;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::{
    perft, Color, Emergo, Emergo7x7, HexEmergo, Outcome, Status, Variant, VariantKind,
};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The name the engine gives in `id name`.
pub const ENGINE_NAME: &str = concat!("Emergo ", env!("CARGO_PKG_VERSION"));
/// The author the engine gives in `id author`.
pub const ENGINE_AUTHOR: &str = "the emergo project";
/// The default of the `MoveOverhead` option, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
/// What is said when there is no position to answer about.
const NO_POSITION: &str = "no position: the last 'position' was rejected";

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    // A lost output has nobody to report to; the loop ends at the end of the input.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The book of the board the option `UGI_Variant` names.
#[derive(Clone)]
enum AnyBook {
    Emergo(Arc<Book<Emergo>>),
    Emergo7x7(Arc<Book<Emergo7x7>>),
    Hex(Arc<Book<HexEmergo>>),
}

impl AnyBook {
    fn shipped(kind: VariantKind) -> AnyBook {
        match kind {
            VariantKind::Emergo => AnyBook::Emergo(Book::shipped()),
            VariantKind::Emergo7x7 => AnyBook::Emergo7x7(Book::shipped()),
            VariantKind::HexEmergo => AnyBook::Hex(Book::shipped()),
        }
    }

    fn load(kind: VariantKind, path: &std::path::Path) -> Result<AnyBook, BookError> {
        Ok(match kind {
            VariantKind::Emergo => AnyBook::Emergo(Arc::new(Book::load(path)?)),
            VariantKind::Emergo7x7 => AnyBook::Emergo7x7(Arc::new(Book::load(path)?)),
            VariantKind::HexEmergo => AnyBook::Hex(Arc::new(Book::load(path)?)),
        })
    }

    fn positions(&self) -> usize {
        match self {
            AnyBook::Emergo(b) => b.positions(),
            AnyBook::Emergo7x7(b) => b.positions(),
            AnyBook::Hex(b) => b.positions(),
        }
    }
}

/// The game, on the board the option `UGI_Variant` names.
#[derive(Clone)]
enum Board {
    Emergo(Game<Emergo>),
    Emergo7x7(Game<Emergo7x7>),
    Hex(Game<HexEmergo>),
}

/// Runs `$body` with `$g` bound to the game of a [`Board`], whatever its board.
macro_rules! on_board {
    ($board:expr, $g:ident => $body:expr) => {
        match $board {
            Board::Emergo($g) => $body,
            Board::Emergo7x7($g) => $body,
            Board::Hex($g) => $body,
        }
    };
}

impl Board {
    /// A new game from the start of the board `kind`.
    fn start(kind: VariantKind) -> Board {
        match kind {
            VariantKind::Emergo => Board::Emergo(Game::default()),
            VariantKind::Emergo7x7 => Board::Emergo7x7(Game::default()),
            VariantKind::HexEmergo => Board::Hex(Game::default()),
        }
    }

    /// The game a `position` line gives, on the board `kind`.
    fn parse(kind: VariantKind, args: &[&str]) -> Result<Board, String> {
        Ok(match kind {
            VariantKind::Emergo => Board::Emergo(parse_position(args)?),
            VariantKind::Emergo7x7 => Board::Emergo7x7(parse_position(args)?),
            VariantKind::HexEmergo => Board::Hex(parse_position(args)?),
        })
    }
}

/// The engine behind the protocol: the game, the options and the player.
struct Engine {
    out: Out,
    /// The board (option `UGI_Variant`).
    variant: VariantKind,
    /// `None` after a rejected `position`, until a valid one.
    game: Option<Board>,
    player: Option<AlphaBetaPlayer>,
    search: Option<JoinHandle<AlphaBetaPlayer>>,
    stop: Arc<AtomicBool>,
    hash_mb: usize,
    threads: usize,
    level: Level,
    /// Kept back from every time limit (option `MoveOverhead`).
    overhead: Duration,
    /// Lines reported per depth (option `MultiPV`).
    multipv: usize,
    /// The evaluation (option `Eval`: `pattern`, the learned one, or `linear`).
    eval: EvalKind,
    /// Whether the running search is `go infinite`.
    infinite: bool,
    /// Whether a book move is played when the book has one (option `OwnBook`).
    own_book: bool,
    /// The book of the board: the shipped one, or the file the option `BookFile` names read
    /// for the board (`None` when it does not read); the file; and the seed of the next choice.
    book: Option<AnyBook>,
    book_file: Option<std::path::PathBuf>,
    book_seed: u64,
    /// Set by the search thread just before it sends `bestmove`: the search is over, though its
    /// thread may take a moment more to end.
    answered: Arc<AtomicBool>,
}

/// Runs the protocol until `quit` or the end of `input`.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    let out: Out = Arc::new(Mutex::new(Box::new(output)));
    let player = AlphaBetaPlayer::new(Level::MAX);
    let stop = player.stop_flag();
    let mut engine = Engine {
        out,
        variant: VariantKind::Emergo,
        game: Some(Board::start(VariantKind::Emergo)),
        player: Some(player),
        search: None,
        stop,
        hash_mb: DEFAULT_HASH_MB,
        threads: 1,
        level: Level::MAX,
        overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        eval: EvalKind::default(),
        multipv: 1,
        infinite: false,
        own_book: true,
        book: Some(AnyBook::shipped(VariantKind::Emergo)),
        book_file: None,
        book_seed: 0x9E37_79B9,
        answered: Arc::new(AtomicBool::new(false)),
    };
    for line in input.lines() {
        let line = line?;
        if !engine.handle(&line) {
            return Ok(());
        }
    }
    // The input has ended: a limited search may finish and answer; an infinite one stops.
    engine.wait_search();
    Ok(())
}

impl Engine {
    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn error(&self, message: &str) {
        self.say(&format!("info string error: {message}"));
    }

    /// Handles one line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return true;
        };
        match command {
            "ugi" => self.ugi(),
            "isready" => self.say("readyok"),
            "setoption" => self.setoption(args),
            "uginewgame" => {
                self.finish_search();
                self.game = Some(Board::start(self.variant));
                if let Some(p) = self.player.as_mut() {
                    p.new_game();
                }
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.finish_search(),
            "query" => self.query(args),
            "d" => self.draw(),
            "quit" => {
                self.finish_search();
                return false;
            }
            other => self.error(&format!("unknown command '{other}'")),
        }
        true
    }

    fn ugi(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {ENGINE_AUTHOR}"));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096"
        ));
        self.say("option name Threads type spin default 1 min 1 max 64");
        self.say(&format!(
            "option name Level type spin default {} min {} max {}",
            Level::MAX,
            Level::MIN,
            Level::MAX
        ));
        self.say(&format!(
            "option name MoveOverhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max 5000"
        ));
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_LINES}"
        ));
        let evals: Vec<String> = EvalKind::NAMES.iter().map(|e| format!("var {e}")).collect();
        self.say(&format!(
            "option name Eval type combo default {} {}",
            EvalKind::default().name(),
            evals.join(" ")
        ));
        self.say("option name OwnBook type check default true");
        self.say("option name BookFile type string default <empty>");
        let vars: Vec<String> = VariantKind::ALL
            .iter()
            .map(|v| format!("var {v}"))
            .collect();
        self.say(&format!(
            "option name UGI_Variant type combo default {} {}",
            VariantKind::Emergo,
            vars.join(" ")
        ));
        self.say("ugiok");
    }

    /// Stops a running search (if any) and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.stop.store(true, Ordering::Relaxed);
            match handle.join() {
                Ok(player) => self.player = Some(player),
                Err(_) => {
                    self.error("the search failed; starting a fresh engine");
                    self.player = Some(self.fresh_player());
                }
            }
        }
    }

    /// Waits for a running search to end by its own limits (an infinite one is stopped).
    fn wait_search(&mut self) {
        if self.infinite {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let Some(handle) = self.search.take() {
            match handle.join() {
                Ok(player) => self.player = Some(player),
                Err(_) => self.player = Some(self.fresh_player()),
            }
        }
    }

    /// Commands that change the engine's state wait for a limited search to end first (as
    /// Stockfish does with UCI), so a script may send its lines without waiting for `bestmove`.
    /// During `go infinite` only `stop` ends the search, so they are refused there.
    fn ready_for_change(&mut self, what: &str) -> bool {
        if self.searching() {
            if self.infinite {
                self.error(&format!(
                    "cannot {what} during 'go infinite'; send 'stop' first"
                ));
                return false;
            }
            self.wait_search();
        }
        true
    }

    fn fresh_player(&self) -> AlphaBetaPlayer {
        let mut p = AlphaBetaPlayer::with_hash(self.level, self.hash_mb);
        p.set_threads(self.threads);
        p.set_multipv(self.multipv);
        p.options_mut().eval = self.eval;
        p
    }

    fn searching(&mut self) -> bool {
        // A search that has answered is collected here (its thread is ending), so its player is
        // ready again for the next command.
        if self.search.as_ref().is_some_and(|h| h.is_finished())
            || self.answered.load(Ordering::Acquire)
        {
            self.finish_search();
        }
        self.search.is_some()
    }

    fn setoption(&mut self, args: &[&str]) {
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            self.error("expected 'setoption name <name> value <value>'");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        if !self.ready_for_change("change an option") {
            return;
        }
        if self.book_option(name, value) {
            return;
        }
        let number = value.parse::<u64>();
        let Some(player) = self.player.as_mut() else {
            return;
        };
        if name.eq_ignore_ascii_case("ugi_variant") {
            // Exactly the combo's values; a new board is a new game on it.
            match VariantKind::ALL.into_iter().find(|v| v.name() == value) {
                Some(kind) => {
                    self.variant = kind;
                    self.game = Some(Board::start(kind));
                    player.new_game();
                    self.read_book();
                }
                None => self.error(&format!(
                    "bad value '{value}' for option '{name}' (emergo, 7x7 or hex)"
                )),
            }
            return;
        }
        if name.eq_ignore_ascii_case("eval") {
            match value.parse::<EvalKind>() {
                Ok(kind) if EvalKind::NAMES.contains(&value) => {
                    self.eval = kind;
                    player.options_mut().eval = kind;
                }
                _ => self.error(&format!(
                    "bad value '{value}' for option '{name}' (pattern or linear)"
                )),
            }
            return;
        }
        match (name.to_ascii_lowercase().as_str(), number) {
            ("hash", Ok(mb)) if (1..=4096).contains(&mb) => {
                self.hash_mb = mb as usize;
                player.set_hash_mb(self.hash_mb);
            }
            ("threads", Ok(n)) if (1..=64).contains(&n) => {
                self.threads = n as usize;
                player.set_threads(self.threads);
            }
            ("level", Ok(n)) if Level::try_from(n as i64).is_ok() => {
                self.level = Level::try_from(n as i64).unwrap_or_default();
                player.set_level(self.level);
            }
            ("moveoverhead", Ok(ms)) if ms <= 5000 => self.overhead = Duration::from_millis(ms),
            ("multipv", Ok(n)) if (1..=MAX_LINES as u64).contains(&n) => {
                self.multipv = n as usize;
                player.set_multipv(self.multipv);
            }
            ("hash" | "threads" | "level" | "moveoverhead" | "multipv", _) => {
                self.error(&format!("bad value '{value}' for option '{name}'"))
            }
            _ => self.error(&format!("unknown option '{name}'")),
        }
    }

    /// The options `OwnBook` (`true`/`false`) and `BookFile` (a path; `<empty>` or nothing: the
    /// book shipped for the board); `false` for another option. A book that cannot be
    /// read leaves none, said once.
    fn book_option(&mut self, name: &str, value: &str) -> bool {
        if name.eq_ignore_ascii_case("ownbook") {
            match value {
                "true" => self.own_book = true,
                "false" => self.own_book = false,
                _ => self.error(&format!(
                    "bad value '{value}' for option '{name}' (true or false)"
                )),
            }
            return true;
        }
        if !name.eq_ignore_ascii_case("bookfile") {
            return false;
        }
        self.book_file = (!value.is_empty() && value != "<empty>").then(|| value.into());
        self.read_book();
        true
    }

    /// Reads the book of the board: the file `BookFile` names, or the one shipped; a file that
    /// does not read (or is of another board) leaves no book, and says why.
    fn read_book(&mut self) {
        self.book = None;
        let Some(path) = self.book_file.clone() else {
            self.book = Some(AnyBook::shipped(self.variant));
            return;
        };
        match AnyBook::load(self.variant, &path) {
            Ok(book) => {
                self.say(&format!(
                    "info string book {}: {} positions ({} board)",
                    path.display(),
                    book.positions(),
                    self.variant
                ));
                self.book = Some(book);
            }
            Err(e) => self.error(&format!("{e} ({} board); no book", self.variant)),
        }
    }

    /// The book's move for a `go` on `game` (N1 text), when the book is on and has one (not
    /// for `go infinite`, which is an analysis).
    fn book_move(&mut self, game: &Board, limits: &crate::player::Limits) -> Option<String> {
        if !self.own_book || limits.infinite || on_board!(game, g => g.is_over()) {
            return None;
        }
        self.book_seed = self
            .book_seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let seed = self.book_seed >> 33;
        let level = self.level;
        let mv = match (self.book.as_ref()?, game) {
            (AnyBook::Emergo(b), Board::Emergo(g)) => {
                b.choose(g.position(), level, seed)?.to_string()
            }
            (AnyBook::Emergo7x7(b), Board::Emergo7x7(g)) => {
                b.choose(g.position(), level, seed)?.to_string()
            }
            (AnyBook::Hex(b), Board::Hex(g)) => b.choose(g.position(), level, seed)?.to_string(),
            // The book is read for the board each time the board changes.
            _ => return None,
        };
        Some(mv)
    }

    /// Sets the position; a rejected one leaves none (no stale state).
    fn position(&mut self, args: &[&str]) {
        let game = Board::parse(self.variant, args);
        if !self.ready_for_change("set the position") {
            return;
        }
        match game {
            Ok(game) => self.game = Some(game),
            Err(e) => {
                self.game = None;
                self.error(&format!("{e}; there is no position until a valid one"));
            }
        }
    }

    fn go(&mut self, args: &[&str]) {
        if !self.ready_for_change("start another search") {
            return;
        }
        if args.first() == Some(&"perft") {
            return self.perft(&args[1..]);
        }
        let go = go::parse_go(args);
        for note in &go.notes {
            self.say(&format!("info string {note}"));
        }
        let Some(game) = self.game.clone() else {
            self.error(NO_POSITION);
            return self.say("bestmove 0000");
        };
        if let Some(mv) = self.book_move(&game, &go.limits) {
            self.say(&format!("info string book move {mv}"));
            return self.say(&format!("bestmove {mv}"));
        }
        let mut limits = go.limits;
        limits.overhead = self.overhead;
        let player = self.player.take().unwrap_or_else(|| self.fresh_player());
        self.stop.store(false, Ordering::Relaxed);
        self.answered.store(false, Ordering::Release);
        self.infinite = limits.infinite;
        let search = Search {
            player,
            limits,
            answered: Arc::clone(&self.answered),
            out: Arc::clone(&self.out),
            stop: Arc::clone(&self.stop),
            level: self.level,
            numbered: self.multipv > 1,
        };
        match on_board!(game, g => search.spawn(g)) {
            Ok(handle) => self.search = Some(handle),
            Err(e) => {
                self.error(&format!("cannot start the search thread: {e}"));
                self.player = Some(self.fresh_player());
            }
        }
    }

    fn perft(&mut self, args: &[&str]) {
        let depth = match args {
            [d] => d.parse::<u32>().ok().filter(|d| (1..=12).contains(d)),
            _ => None,
        };
        let Some(depth) = depth else {
            return self.error("expected 'go perft <depth>' with a depth of 1 to 12");
        };
        let Some(game) = &self.game else {
            return self.error(NO_POSITION);
        };
        let lines = on_board!(game, g => perft_lines(g.position(), depth));
        for line in lines {
            self.say(&line);
        }
    }

    /// Answers about the game by the rules (R10); with no position, the game is over with no
    /// result.
    fn query(&mut self, args: &[&str]) {
        let state = self
            .game
            .as_ref()
            .map(|b| on_board!(b, g => (g.status(), g.position().turn())));
        let answer = match (args, state) {
            (["gameover"], Some((status, _))) => bool_text(status != Status::Ongoing),
            (["gameover"], None) => "true",
            (["p1turn"], Some((_, turn))) => bool_text(turn == Color::White),
            (["p1turn"], None) => {
                self.error(NO_POSITION);
                "false"
            }
            (["result"], Some((status, _))) => match status {
                Status::Ongoing => "none",
                Status::Finished { outcome, .. } => match outcome {
                    Outcome::Win(Color::White) => "p1win",
                    Outcome::Win(Color::Black) => "p2win",
                    Outcome::Draw => "draw",
                },
            },
            (["result"], None) => "none",
            _ => return self.error("expected 'query gameover', 'query p1turn' or 'query result'"),
        };
        self.say(&format!("response {answer}"));
    }

    fn draw(&self) {
        let Some(game) = &self.game else {
            return self.error(NO_POSITION);
        };
        let text = on_board!(game, g => diagram(g.position()));
        for line in text.lines() {
            self.say(line);
        }
    }
}

fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// A search to run on its own thread: the player and what the protocol set.
struct Search {
    player: AlphaBetaPlayer,
    limits: crate::player::Limits,
    answered: Arc<AtomicBool>,
    out: Out,
    stop: Arc<AtomicBool>,
    level: Level,
    numbered: bool,
}

impl Search {
    /// Starts the search of `game` on a thread that ends in `bestmove` and hands the player
    /// back.
    fn spawn<V: Variant>(self, game: Game<V>) -> io::Result<JoinHandle<AlphaBetaPlayer>> {
        let Search {
            mut player,
            limits,
            answered,
            out,
            stop,
            level,
            numbered,
        } = self;
        std::thread::Builder::new()
            .name("search".to_string())
            .spawn(move || {
                let best = if game.is_over() {
                    None
                } else if level == Level::MAX {
                    player
                        .analyse(&game, &limits, |i| {
                            for line in info_lines(i, numbered) {
                                say(&out, &line);
                            }
                        })
                        .best
                } else {
                    player.choose_move(&game, &limits)
                };
                // UCI rule: after `go infinite` the best move waits for `stop`.
                while limits.infinite && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
                // Marked before it is sent, so a command that follows `bestmove` always finds the
                // search over (and waits the moment the thread needs to end).
                answered.store(true, Ordering::Release);
                match best {
                    Some(m) => say(&out, &format!("bestmove {m}")),
                    None => say(&out, "bestmove 0000"),
                }
                player
            })
    }
}

/// The answer to `go perft <depth>`: one line per move, then `nodes <total>`.
fn perft_lines<V: Variant>(pos: &Position<V>, depth: u32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut total = 0;
    for (m, n) in perft::divide(pos, depth) {
        lines.push(format!("{m}: {n}"));
        total += n;
    }
    lines.push(format!("nodes {total}"));
    lines
}

/// The game a `position` line gives: `startpos` or `fen <N2 text>`, then `moves <m>...`, on the
/// board `V`.
fn parse_position<V: Variant>(args: &[&str]) -> Result<Game<V>, String> {
    let (start, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (Position::<V>::start(), rest),
        Some((&"fen", rest)) => match rest.split_first() {
            Some((text, rest)) => (
                text.parse::<Position<V>>()
                    .map_err(|e| format!("bad position '{text}': {e}"))?,
                rest,
            ),
            None => return Err("'position fen' needs a position".to_string()),
        },
        _ => return Err("expected 'position startpos' or 'position fen <position>'".to_string()),
    };
    let moves = match rest.split_first() {
        None => &[][..],
        Some((&"moves", moves)) => moves,
        Some((other, _)) => return Err(format!("expected 'moves', got '{other}'")),
    };
    let mut game = Game::new(start);
    for text in moves {
        game.play_text(text)
            .map_err(|e| format!("move '{text}': {e}"))?;
    }
    Ok(game)
}

/// One `info` line (line 1): `info depth .. seldepth .. score cp|mate .. nodes .. nps .. time ..
/// hashfull .. pv ..`.
pub fn info_line<V: Variant>(i: &SearchInfo<V>) -> String {
    line_text(i, None, i.score, &i.pv)
}

/// The `info` lines of a completed depth: line 1 alone, or with `numbered` (option `MultiPV`
/// above 1) one line per reported root move, each with `multipv k` after `seldepth`.
pub fn info_lines<V: Variant>(i: &SearchInfo<V>, numbered: bool) -> Vec<String> {
    if !numbered || i.lines.is_empty() {
        return vec![info_line(i)];
    }
    i.lines
        .iter()
        .enumerate()
        .map(|(k, l)| line_text(i, Some(k + 1), l.score, &l.pv))
        .collect()
}

fn line_text<V: Variant>(
    i: &SearchInfo<V>,
    multipv: Option<usize>,
    score: i32,
    pv: &[Move<V>],
) -> String {
    let score = match mate_in(score) {
        Some(m) => format!("mate {m}"),
        None => format!("cp {score}"),
    };
    let number = multipv.map_or(String::new(), |k| format!(" multipv {k}"));
    let mut line = format!(
        "info depth {} seldepth {}{number} score {score} nodes {} nps {} time {} hashfull {}",
        i.depth,
        i.seldepth,
        i.nodes,
        i.nps,
        i.time.as_millis(),
        i.hashfull
    );
    if !pv.is_empty() {
        line.push_str(" pv");
        for m in pv {
            line.push(' ');
            line.push_str(&m.to_string());
        }
    }
    line
}

/// The board as text: on the square boards the top rank first, on the hexagon row 7 first
/// (each row's cells from its highest letter on the left, as the designers draw it); `.` for an
/// empty cell, a column as its owner's letter, its men, and `/` with its prisoners (`W3/2`:
/// three White men over two Black).
pub fn diagram<V: Variant>(pos: &Position<V>) -> String {
    let cell = |sq: Option<Square<V>>| match sq {
        None => "".to_string(),
        Some(sq) => match pos.column(sq) {
            None => ".".to_string(),
            Some(c) if c.prisoners == 0 => format!("{}{}", c.owner.letter(), c.men),
            Some(c) => format!("{}{}/{}", c.owner.letter(), c.men, c.prisoners),
        },
    };
    let mut s = String::new();
    if V::KIND == VariantKind::HexEmergo {
        for n in (1..=7u8).rev() {
            s.push_str(&format!("{n} "));
            let row: Vec<Square<V>> = (0..7u8)
                .rev()
                .filter_map(|l| Square::from_letter_number(l, n))
                .collect();
            s.push_str(&" ".repeat(4 * (7 - row.len())));
            for sq in row {
                s.push_str(&format!("{:>8}", format!("{sq} {}", cell(Some(sq)))));
            }
            s.push('\n');
        }
    } else {
        let width = Square::<V>::all().map(|q| q.xy().0).max().unwrap_or(9);
        for y in (1..=width).rev() {
            s.push_str(&format!("{y} "));
            for x in 1..=width {
                s.push_str(&format!("{:>6}", cell(Square::from_xy(x, y))));
            }
            s.push('\n');
        }
        s.push_str("  ");
        for x in 1..=width {
            s.push_str(&format!("{x:>6}"));
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "to move: {}; in hand: White {}, Black {}\nposition {pos}\n",
        pos.turn(),
        pos.hand(Color::White),
        pos.hand(Color::Black)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A writer whose bytes can be read after the loop ends.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| io::ErrorKind::Other)?
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> Vec<String> {
        let out = Shared::default();
        run(Cursor::new(input.to_string()), out.clone()).unwrap();
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// A book file of the start position: d3 is the best move by far.
    fn book_file(name: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("emergo-{}-{name}.book", std::process::id()));
        std::fs::write(&path, "W:12:12 d3 300\nW:12:12 a5 -200\n").unwrap();
        path
    }

    #[test]
    fn with_the_book_full_strength_plays_the_book_move_and_ownbook_false_searches() {
        let path = book_file("plays");
        let lines = session(&format!(
            "ugi\nsetoption name BookFile value {}\nposition startpos\ngo depth 3\nisready\n",
            path.display()
        ));
        assert!(lines.contains(&"option name OwnBook type check default true".to_string()));
        assert!(lines.contains(&"option name BookFile type string default <empty>".to_string()));
        assert!(
            lines.contains(&"info string book move d3".to_string()),
            "{lines:?}"
        );
        assert!(lines.contains(&"bestmove d3".to_string()), "{lines:?}");
        // Without the book the engine searches (and says its depths).
        let lines = session(&format!(
            "setoption name BookFile value {}\nsetoption name OwnBook value false\n\
             position startpos\ngo depth 2\nisready\n",
            path.display()
        ));
        assert!(
            !lines.iter().any(|l| l.starts_with("info string book move")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
        let _ = std::fs::remove_file(path);
        // A book that cannot be read is said, and there is none.
        let lines = session("setoption name BookFile value /nonexistent/book\nisready\n");
        assert!(
            lines[0].starts_with("info string error: book line 0"),
            "{lines:?}"
        );
    }

    #[test]
    fn the_handshake_lists_options_and_ends_with_ugiok() {
        let lines = session("ugi\nisready\nquit\n");
        assert!(lines[0].starts_with("id name Emergo"));
        assert!(lines[1].starts_with("id author"));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin")));
        let ok = lines.iter().position(|l| l == "ugiok").unwrap();
        assert_eq!(lines[ok + 1], "readyok");
    }

    #[test]
    fn the_shipped_book_answers_the_start_and_an_empty_bookfile_brings_it_back() {
        let shipped = Book::<Emergo>::shipped();
        let start = Position::start();
        let booked: Vec<Move> = shipped.probe(&start).iter().map(|e| e.mv).collect();
        assert!(!booked.is_empty());
        let lines = session("position startpos\ngo depth 3\nisready\n");
        let said = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string book move "))
            .unwrap_or_else(|| panic!("a book move: {lines:?}"));
        assert!(booked.iter().any(|m| m.to_string() == said), "{said}");
        // A file replaces it; <empty> brings the shipped one back.
        let path = book_file("back");
        let lines = session(&format!(
            "setoption name BookFile value {}\nsetoption name BookFile value <empty>\n\
             position startpos\ngo depth 3\nisready\n",
            path.display()
        ));
        let _ = std::fs::remove_file(&path);
        let said = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string book move "))
            .unwrap_or_else(|| panic!("a book move: {lines:?}"));
        assert!(booked.iter().any(|m| m.to_string() == said), "{said}");
    }

    #[test]
    fn each_board_plays_its_own_shipped_book_and_a_bookfile_is_read_for_the_board() {
        let booked = |kind| -> Vec<String> {
            match AnyBook::shipped(kind) {
                AnyBook::Emergo(b) => b
                    .probe(&Position::start())
                    .iter()
                    .map(|m| m.mv.to_string())
                    .collect(),
                AnyBook::Emergo7x7(b) => b
                    .probe(&Position::start())
                    .iter()
                    .map(|m| m.mv.to_string())
                    .collect(),
                AnyBook::Hex(b) => b
                    .probe(&Position::start())
                    .iter()
                    .map(|m| m.mv.to_string())
                    .collect(),
            }
        };
        for kind in [VariantKind::Emergo7x7, VariantKind::HexEmergo] {
            let lines = session(&format!(
                "setoption name UGI_Variant value {kind}\nposition startpos\ngo depth 3\nisready\n"
            ));
            let said = lines
                .iter()
                .find_map(|l| l.strip_prefix("info string book move "))
                .unwrap_or_else(|| panic!("a book move on {kind}: {lines:?}"));
            assert!(booked(kind).iter().any(|m| m == said), "{kind}: {said}");
        }
        // A 9×9 book file is read again for the board chosen after it: on the 7×7 board (8 men
        // a side) its positions do not read, so there is no book (said), and the engine searches.
        let path = book_file("board");
        let lines = session(&format!(
            "setoption name BookFile value {}\nsetoption name UGI_Variant value 7x7\n\
             position startpos\ngo depth 2\nisready\n",
            path.display()
        ));
        let _ = std::fs::remove_file(&path);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: book line 1")
                    && l.ends_with("(7x7 board); no book")),
            "{lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info string book move")),
            "{lines:?}"
        );
    }

    #[test]
    fn go_depth_reports_each_depth_and_a_legal_bestmove() {
        let lines = session(
            "setoption name OwnBook value false\nposition startpos moves d3\ngo depth 3\nisready\n",
        );
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert_eq!(infos.len(), 3);
        assert!(infos[2].contains(" pv "));
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        let pos: Position = "B:11:12:d3=W".parse().unwrap();
        assert!(pos.parse_move(best).is_ok());
    }

    #[test]
    fn bad_lines_get_an_error_and_the_engine_goes_on() {
        let lines = session(
            "bogus\nposition fen X:1:2\nposition startpos moves e5\n\
             setoption name Hash value lots\nsetoption name MoveOverhead value -1\n\
             query nothing\ngo perft 0\nisready\n",
        );
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string error:"))
            .count();
        assert_eq!(errors, 7, "{lines:?}");
        assert_eq!(lines.last().unwrap(), "readyok");
    }

    #[test]
    fn every_go_ends_in_a_bestmove_and_unknown_tokens_are_reported() {
        let lines = session(
            "position startpos moves d3\ngo depth 1 wibble 7\ngo p1time 2000 p2time 2000 \
             movestogo 20\ngo ponder depth 1\ngo mate 1\ngo depth zero nodes 500\n",
        );
        let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(answers.len(), 5, "{lines:?}");
        let pos: Position = "B:11:12:d3=W".parse().unwrap();
        for answer in answers {
            let mv = answer.strip_prefix("bestmove ").unwrap();
            assert!(pos.parse_move(mv).is_ok(), "{answer}");
        }
        for needle in [
            "info string unknown 'go' parameter 'wibble 7' ignored",
            "info string 'ponder' is not supported; searching as a plain 'go'",
            "info string 'mate 1' is searched as 'depth 1'",
            "info string 'depth' needs a whole number, got 'zero'; ignored",
        ] {
            assert!(lines.iter().any(|l| l == needle), "{needle}: {lines:?}");
        }
    }

    #[test]
    fn a_rejected_position_leaves_no_stale_position() {
        let lines = session(
            "position startpos moves d3\nposition startpos moves d3 zz9\nquery p1turn\n\
             query gameover\nquery result\ngo depth 2\ngo perft 1\nd\n\
             position startpos moves d3\nquery p1turn\nquery gameover\n",
        );
        assert!(lines[0].starts_with("info string error: move 'zz9': "));
        assert!(lines[0].ends_with("; there is no position until a valid one"));
        assert_eq!(
            lines[1..],
            [
                "info string error: no position: the last 'position' was rejected",
                "response false",
                "response true",
                "response none",
                "info string error: no position: the last 'position' was rejected",
                "bestmove 0000",
                "info string error: no position: the last 'position' was rejected",
                "info string error: no position: the last 'position' was rejected",
                "response false",
                "response false",
            ]
        );
        let lines = session("position fen X\nuginewgame\nquery p1turn\n");
        assert_eq!(lines.last().unwrap(), "response true");
    }

    #[test]
    fn move_overhead_is_an_option_and_is_kept_back_from_movetime() {
        let hello = session("ugi\n");
        assert!(hello.contains(&format!(
            "option name MoveOverhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max 5000"
        )));
        let started = std::time::Instant::now();
        let lines = session("setoption name MoveOverhead value 1500\ngo movetime 2000\n");
        // The search aborts at 500 ms; without the overhead it would run past 1,100 ms.
        assert!(started.elapsed() < Duration::from_millis(1000), "{lines:?}");
        assert!(lines.last().unwrap().starts_with("bestmove "));
    }

    #[test]
    fn queries_follow_the_game_r10() {
        let lines = session(
            "query p1turn\nquery result\nposition fen B:0:0:c4=W\nquery gameover\nquery result\n\
             query p1turn\nposition fen W:0:0:c4=W\nquery result\n",
        );
        assert_eq!(
            lines,
            [
                "response true",
                "response none",
                "response true",
                "response p1win",
                "response false",
                "response none",
            ]
        );
    }

    #[test]
    fn multipv_numbers_every_info_line_with_distinct_first_moves() {
        let hello = session("ugi\n");
        assert!(hello.contains(&"option name MultiPV type spin default 1 min 1 max 8".to_string()));
        let lines =
            session(
            "setoption name OwnBook value false\nsetoption name MultiPV value 3\nposition startpos moves d3\ngo depth 3\n",
        );
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert_eq!(infos.len(), 9, "{lines:?}");
        for depth in 1..=3 {
            let of_depth: Vec<&&String> = infos
                .iter()
                .filter(|l| l.starts_with(&format!("info depth {depth} ")))
                .collect();
            let mut firsts = Vec::new();
            for (k, line) in of_depth.iter().enumerate() {
                assert!(
                    line.contains(&format!(" multipv {} score ", k + 1)),
                    "{line}"
                );
                let pv = line.split(" pv ").nth(1).unwrap();
                firsts.push(pv.split(' ').next().unwrap().to_string());
            }
            firsts.sort();
            firsts.dedup();
            assert_eq!(firsts.len(), 3, "{of_depth:?}");
        }
        let plain = session("position startpos moves d3\ngo depth 2\n");
        assert!(plain.iter().all(|l| !l.contains("multipv")), "{plain:?}");
        let bad = session("setoption name MultiPV value 9\n");
        assert_eq!(
            bad,
            ["info string error: bad value '9' for option 'MultiPV'"]
        );
    }

    #[test]
    fn go_perft_counts_the_rules_perft_from_the_start() {
        let lines = session("go perft 2\n");
        assert_eq!(lines.len(), 41);
        assert_eq!(lines.last().unwrap(), "nodes 1504");
    }

    #[test]
    fn stop_ends_an_infinite_search_with_a_bestmove() {
        let lines = session("position startpos\ngo infinite\nisready\nstop\nquery p1turn\n");
        let best = lines
            .iter()
            .position(|l| l.starts_with("bestmove "))
            .unwrap();
        let ready = lines.iter().position(|l| l == "readyok").unwrap();
        assert!(ready < best);
        assert_eq!(lines.last().unwrap(), "response true");
    }

    #[test]
    fn commands_sent_during_a_limited_search_wait_for_its_bestmove() {
        let lines = session(
            "position fen W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB\ngo depth 3\n\
             position startpos moves d3\nsetoption name Level value 3\ngo perft 1\nquit\n",
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info string error")),
            "{lines:?}"
        );
        let best = lines.iter().position(|l| l == "bestmove f4-e4").unwrap();
        let perft = lines.iter().position(|l| l == "nodes 38").unwrap();
        assert!(best < perft, "{lines:?}");
    }

    #[test]
    fn the_evaluation_is_an_option_and_the_linear_one_stays_selectable() {
        let hello = session("ugi\n");
        let option = "option name Eval type combo default pattern var pattern var linear";
        let at = hello.iter().position(|l| l == option).expect("announced");
        assert!(at < hello.iter().position(|l| l == "ugiok").unwrap());
        for kind in EvalKind::NAMES {
            let lines = session(&format!(
                "setoption name OwnBook value false\nsetoption name Eval value {kind}\n\
                 position startpos moves d3\ngo depth 3\nisready\n"
            ));
            assert!(
                !lines.iter().any(|l| l.starts_with("info string error")),
                "{kind}: {lines:?}"
            );
            assert!(
                lines.iter().any(|l| l.starts_with("bestmove ")),
                "{lines:?}"
            );
        }
        let lines = session("setoption name Eval value neural\n");
        assert_eq!(
            lines,
            ["info string error: bad value 'neural' for option 'Eval' (pattern or linear)"]
        );
    }

    #[test]
    fn ugi_variant_is_announced_as_a_combo_and_the_board_follows_it() {
        let hello = session("ugi\n");
        let option = "option name UGI_Variant type combo default emergo var emergo var 7x7 var hex";
        let at = hello.iter().position(|l| l == option).expect("announced");
        assert!(at < hello.iter().position(|l| l == "ugiok").unwrap());
        // The hexagon: 36 first entries (37 cells less the centre, R9.3), its moves, its queries.
        let lines = session(
            "setoption name UGI_Variant value hex\ngo perft 1\nposition startpos moves c3\n\
             query p1turn\ngo depth 2\nuginewgame\ngo perft 1\nd\n",
        );
        assert_eq!(lines[36], "nodes 36", "{lines:?}");
        assert_eq!(lines[37], "response false");
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        let hex: Position<HexEmergo> = "B:11:12:c3=W".parse().unwrap();
        assert!(hex.parse_move(best).is_ok(), "{best}");
        let after_new_game = lines.iter().filter(|l| *l == "nodes 36").count();
        assert_eq!(after_new_game, 2, "uginewgame keeps the board: {lines:?}");
        assert!(lines.iter().any(|l| l == "position W:12:12"), "{lines:?}");
        assert!(lines
            .iter()
            .any(|l| l.starts_with("7 ") && l.contains("g7 .")));
        // The 7×7 board: 24 first entries; a position text read on it; `query` as on 9×9.
        let lines = session(
            "setoption name UGI_Variant value 7x7\ngo perft 1\nposition fen B:0:0:c4=W\n\
             query gameover\nquery result\nposition fen W:8:8 moves c3\nquery p1turn\n\
             position fen W:12:12\n",
        );
        assert_eq!(lines[24], "nodes 24", "{lines:?}");
        assert_eq!(
            lines[25..28],
            ["response true", "response p1win", "response false"]
        );
        assert!(
            lines[28].starts_with("info string error: bad position 'W:12:12'"),
            "{lines:?}"
        );
        // A value that names no board is refused and the board stays.
        let lines = session("setoption name UGI_Variant value square\ngo perft 1\n");
        assert_eq!(
            lines[0],
            "info string error: bad value 'square' for option 'UGI_Variant' (emergo, 7x7 or hex)"
        );
        assert_eq!(lines.last().unwrap(), "nodes 40");
    }

    #[test]
    fn commands_that_change_state_are_refused_during_go_infinite() {
        let lines = session("position startpos\ngo infinite\nposition startpos moves d3\nstop\n");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("during 'go infinite'; send 'stop' first")),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l.starts_with("bestmove ")));
    }
}
