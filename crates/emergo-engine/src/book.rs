//! The opening book (issue 22, part 2): positions of the opening of one board, each with the
//! moves the book knows and their scores, probed by the position's Zobrist hash (so that two
//! move orders to one position find the same moves). A book is shipped for each of the three
//! boards ([`Book::shipped`]). The UGI options `OwnBook` and `BookFile` switch it on and name
//! its file (ugi.rs).
//!
//! **File format** (text, UTF-8): one book move a line, `<position> <move> <score>`: the position
//! as N2 text, the move as N1 text (legal there), and its score in centimen for the side to move
//! (an integer, as `emergo analyze` prints it). Blank lines and lines starting with `#` are
//! comments. A position may have any number of lines; a move given twice keeps its last score.
//! Reading checks every position and move against the rules, and an error names the line.
//! Loading 10,000 lines takes a few milliseconds (each is one parse of a position and a move).
//!
//! **Choice**: at full strength the engine plays the best book move, or one of the moves within
//! [`MARGIN`] of it (chosen by a seed, so that it does not repeat itself); a lower level uses the
//! book in `level` tenths of its moves (and searches otherwise).

use crate::level::Level;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::{Emergo, Variant, VariantKind};
use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The text of the book shipped for each board, built by the command on its first line
/// (docs/engine.md, "Opening book").
fn shipped_text(kind: VariantKind) -> &'static str {
    match kind {
        VariantKind::Emergo => include_str!("../data/book.txt"),
        VariantKind::Emergo7x7 => include_str!("../data/book-7x7.txt"),
        VariantKind::HexEmergo => include_str!("../data/book-hex.txt"),
    }
}

/// How far below the best book move (centimen) a move may be and still be played: none, so the
/// choice is among the moves that share the best score (common in the entering phase, where
/// entries in another order transpose). 15 centimen cost strength (docs/engine.md, "Strength").
pub const MARGIN: i32 = 0;

/// A move of the book with its score (centimen, for the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove<V: Variant = Emergo> {
    pub mv: Move<V>,
    pub score: i32,
}

/// The book of one board: for each position's hash, its moves, the best first.
#[derive(Clone, Debug)]
pub struct Book<V: Variant = Emergo> {
    moves: HashMap<u64, Vec<BookMove<V>>>,
}

impl<V: Variant> Default for Book<V> {
    fn default() -> Book<V> {
        Book {
            moves: HashMap::new(),
        }
    }
}

/// A line of a book file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("book line {line}: {message}")]
pub struct BookError {
    /// 1-based; 0 when the file itself cannot be read.
    pub line: usize,
    pub message: String,
}

impl<V: Variant> Book<V> {
    /// The book shipped for `V`'s board (`data/book.txt` for the square 9×9 board,
    /// `data/book-7x7.txt`, `data/book-hex.txt`), read once.
    pub fn shipped() -> Arc<Book<V>> {
        static SHIPPED: [OnceLock<Arc<dyn Any + Send + Sync>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let index = VariantKind::ALL
            .iter()
            .position(|&k| k == V::KIND)
            .unwrap_or_default();
        let any = Arc::clone(SHIPPED[index].get_or_init(|| {
            // The shipped files are checked by a test; an unreadable one would be no book.
            Arc::new(Book::<V>::parse(shipped_text(V::KIND)).unwrap_or_default())
        }));
        // The cell of `V::KIND` holds a `Book<V>`, as it was made just above.
        any.downcast::<Book<V>>().unwrap_or_default()
    }

    /// Reads a book's text (see the module's text for its format).
    pub fn parse(text: &str) -> Result<Book<V>, BookError> {
        let mut book = Book::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let error = |message: String| BookError {
                line: i + 1,
                message,
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [position, mv, score] = fields[..] else {
                return Err(error(format!(
                    "expected '<position> <move> <score>', got {} fields",
                    fields.len()
                )));
            };
            let position: Position<V> = position
                .parse()
                .map_err(|e| error(format!("position: {e}")))?;
            let mv = position
                .parse_move(mv)
                .map_err(|e| error(format!("move {mv}: {e}")))?;
            let score: i32 = score
                .parse()
                .map_err(|_| error(format!("score '{score}' is not a whole number")))?;
            book.insert(&position, BookMove { mv, score });
        }
        Ok(book)
    }

    /// Reads the book file at `path`.
    pub fn load(path: &Path) -> Result<Book<V>, BookError> {
        let text = std::fs::read_to_string(path).map_err(|e| BookError {
            line: 0,
            message: format!("cannot read {}: {e}", path.display()),
        })?;
        Book::parse(&text)
    }

    /// Adds (or replaces) a move of `position`.
    pub fn insert(&mut self, position: &Position<V>, entry: BookMove<V>) {
        let moves = self.moves.entry(position.hash()).or_default();
        moves.retain(|m| m.mv != entry.mv);
        moves.push(entry);
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    }

    /// The book's moves of `position`, the best first (none when it is not in the book).
    pub fn probe(&self, position: &Position<V>) -> &[BookMove<V>] {
        self.moves
            .get(&position.hash())
            .map_or(&[], |moves| moves.as_slice())
    }

    /// How many positions the book holds.
    pub fn positions(&self) -> usize {
        self.moves.len()
    }

    /// The book move the engine at `level` plays in `position`, if it uses the book there:
    /// one within [`MARGIN`] of the best, chosen by `seed`; a level under the top uses the book
    /// for `level` seeds in ten. Only moves legal in `position` are played (a hash collision
    /// cannot make an illegal move).
    pub fn choose(&self, position: &Position<V>, level: Level, seed: u64) -> Option<Move<V>> {
        let moves = self.probe(position);
        let best = moves.first()?;
        let uses = u64::from(level.get());
        if level < Level::MAX && seed % u64::from(Level::MAX.get()) >= uses {
            return None;
        }
        let legal = position.legal_moves();
        let near: Vec<&BookMove<V>> = moves
            .iter()
            .filter(|m| m.score >= best.score - MARGIN)
            .filter(|m| legal.contains(&m.mv))
            .collect();
        if near.is_empty() {
            return None;
        }
        let pick = (seed / u64::from(Level::MAX.get())) as usize % near.len();
        Some(near[pick].mv)
    }
}

/// A player that plays from a book where the book has a move for it (as [`Book::choose`] picks
/// one for its level), and lets another player search everywhere else: the engine with its book
/// (`alphabeta:book=on` in `emergo match`).
pub struct BookPlayer<V: Variant> {
    book: Arc<Book<V>>,
    level: Level,
    rng: crate::rng::XorShift,
    inner: Box<dyn crate::player::Player<V>>,
}

impl<V: Variant> BookPlayer<V> {
    /// `inner` with `book`, at `level`; `seed` makes its choices among book moves.
    pub fn new(
        book: Arc<Book<V>>,
        level: Level,
        seed: u64,
        inner: Box<dyn crate::player::Player<V>>,
    ) -> BookPlayer<V> {
        BookPlayer {
            book,
            level,
            rng: crate::rng::XorShift::new(seed ^ 0xB00C),
            inner,
        }
    }
}

impl<V: Variant> crate::player::Player<V> for BookPlayer<V> {
    fn name(&self) -> String {
        format!("{} with its book", self.inner.name())
    }

    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn choose_move(
        &mut self,
        game: &emergo_core::game::Game<V>,
        limits: &crate::player::Limits,
    ) -> Option<Move<V>> {
        let seed = self.rng.next_u64();
        self.book
            .choose(game.position(), self.level, seed)
            .or_else(|| self.inner.choose_move(game, limits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::Emergo7x7;

    const BOOK: &str = "# a small book\n\
        W:12:12 d3 40\n\
        W:12:12 a5 -10\n\
        W:12:12 f2 32\n\
        \n\
        B:11:12:d3=W f7 -35\n";

    #[test]
    fn the_probe_returns_the_scores_the_book_was_built_with_best_first() {
        let book = Book::<Emergo>::parse(BOOK).expect("the book reads");
        assert_eq!(book.positions(), 2);
        let start = Position::start();
        let got: Vec<(String, i32)> = book
            .probe(&start)
            .iter()
            .map(|m| (m.mv.to_string(), m.score))
            .collect();
        assert_eq!(
            got,
            [("d3".into(), 40), ("f2".into(), 32), ("a5".into(), -10)]
        );
        let after = start.play(start.parse_move("d3").unwrap()).unwrap();
        assert_eq!(book.probe(&after)[0].score, -35);
        let elsewhere = after.play(after.parse_move("a5").unwrap()).unwrap();
        assert!(book.probe(&elsewhere).is_empty());
    }

    #[test]
    fn full_strength_plays_a_move_within_the_margin_and_varies_with_the_seed() {
        let mut book = Book::<Emergo>::parse(BOOK).expect("the book reads");
        let start = Position::start();
        // f2 at the margin's edge below d3.
        let f2 = start.parse_move("f2").expect("legal");
        book.insert(
            &start,
            BookMove {
                mv: f2,
                score: 40 - MARGIN,
            },
        );
        let played: std::collections::BTreeSet<String> = (0..40)
            .filter_map(|seed| book.choose(&start, Level::MAX, seed))
            .map(|m| m.to_string())
            .collect();
        // d3 (40) and f2 (within the margin) are played, never a5 (-10).
        assert_eq!(played, ["d3".to_string(), "f2".to_string()].into());
    }

    #[test]
    fn lower_levels_use_the_book_less() {
        let book = Book::<Emergo>::parse(BOOK).expect("the book reads");
        let start = Position::start();
        let uses = |level: u8| {
            let level = Level::new(level).unwrap();
            (0..1000)
                .filter(|&seed| book.choose(&start, level, seed).is_some())
                .count()
        };
        assert_eq!(uses(10), 1000);
        assert_eq!(uses(5), 500);
        assert_eq!(uses(1), 100);
    }

    #[test]
    fn a_bad_line_is_refused_with_its_number() {
        let err = Book::<Emergo>::parse("W:12:12 d3 40\nW:12:12 e5 10\n").unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        let err = Book::<Emergo>::parse("W:12:12 d3\n").unwrap_err();
        assert_eq!(err.line, 1);
        let err = Book::<Emergo>::parse("W:12:12 d3 lots\n").unwrap_err();
        assert!(err.message.contains("score"), "{err}");
    }

    /// The shipped book of `V`'s board reads, holds its start with two moves or more, says how
    /// it was built, and is the one [`Book::shipped`] gives.
    fn shipped_book_holds_the_start<V: Variant>(at_least: usize) {
        let text = shipped_text(V::KIND);
        let book = Book::<V>::parse(text).expect("the shipped book reads");
        assert!(
            book.positions() >= at_least,
            "{} positions",
            book.positions()
        );
        assert_eq!(Book::<V>::shipped().positions(), book.positions());
        let start = book.probe(&Position::start());
        assert!(start.len() >= 2, "{} {start:?}", V::KIND);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(&format!("# emergo book build --variant {} ", V::KIND))
                || (V::KIND == VariantKind::Emergo && first.starts_with("# emergo book build ")),
            "{first}"
        );
    }

    #[test]
    fn a_book_is_shipped_for_each_board_and_holds_its_start() {
        shipped_book_holds_the_start::<Emergo>(200);
        shipped_book_holds_the_start::<Emergo7x7>(100);
        shipped_book_holds_the_start::<emergo_core::HexEmergo>(100);
    }

    #[test]
    fn the_book_player_plays_book_moves_and_searches_past_the_book() {
        use crate::player::{Limits, Player, RandomPlayer};
        let book = Arc::new(Book::<Emergo>::parse(BOOK).expect("the book reads"));
        let mut player = BookPlayer::new(book, Level::MAX, 7, Box::new(RandomPlayer::new(1)));
        let mut game = emergo_core::game::Game::new(Position::start());
        let limits = Limits::default();
        let first = player.choose_move(&game, &limits).expect("a move");
        assert!(
            ["d3", "f2"].contains(&first.to_string().as_str()),
            "{first}"
        );
        // Past the book: the inner player's legal move.
        game.play_text("a5").expect("legal");
        let next = player.choose_move(&game, &limits).expect("a move");
        assert!(game.position().is_legal(next));
    }
}
