//! The opening explorer's indexing (issue 22): what one finished game adds to the explorer's
//! statistics, as rows keyed by the game's board and the position's hash (emergo-core's Zobrist
//! hash, so that two move orders to one position share their rows; the board in the key, so that
//! positions of two boards never share one). Pure: the store adds the rows up
//! (store/explorer.rs), the server decides when a game is indexed.
//!
//! A game adds, for each distinct position of its first [`EXPLORER_PLIES`] plies (the start
//! included, and the final position of a game shorter than that), one to the position's totals,
//! and, for each distinct move played from such a position, one to that move's: a game that
//! passes a position twice counts once for it (and once for each different move it played
//! there). Every row is split by the game's [`Source`], [`Speed`] and rating [`Band`].

use crate::domain::model::{GameMeta, Mode, SeatKind};
use crate::domain::time_control::Category;
use emergo_core::game::Game;
use emergo_core::{Color, EndReason, Outcome, Status, Variant, VariantKind};
use std::collections::BTreeMap;
use std::fmt;

/// The plies of a game the explorer indexes: the positions before its first 60 moves.
pub const EXPLORER_PLIES: usize = 60;

/// The latest games kept per position and split (source, speed, band), for its list of games.
pub const RECENT_GAMES: usize = 8;

/// Where a game comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// Rated games between people.
    Rated,
    /// Casual (unrated) games between people.
    Casual,
    /// A person against the engine.
    Engine,
    /// Engine-only games and imported records: games imported on the site, and records indexed
    /// by `emergo explorer import` (self-play made by `emergo match`, say).
    Imported,
}

/// The time-control category of a game, `untimed` beside the rating categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    Blitz,
    Rapid,
    Classical,
    Correspondence,
    Untimed,
}

/// The rating band of a game: the average of both players' ratings as the game began, by
/// steps of 200 from 1400 (lichess's explorer's bands, shifted to a 1500 start): under 1400,
/// 1400–1599, 1600–1799, 1800–1999, 2000–2199, 2200 and over; `none` when a seat has no
/// rating (the engine, a guest, an imported record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Band {
    Under1400,
    From1400,
    From1600,
    From1800,
    From2000,
    From2200,
    None,
}

/// Names in the API and the database, and their parsing (one list per type).
macro_rules! named {
    ($ty:ident { $($variant:ident => $name:literal),* $(,)? }) => {
        impl $ty {
            /// Every value, in order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];

            /// The name in the API and the database.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),*
                }
            }

            /// The value named `name`.
            pub fn from_name(name: &str) -> Option<$ty> {
                Self::ALL.iter().copied().find(|v| v.name() == name)
            }

            /// The names, comma-separated (for an error message).
            pub fn names() -> String {
                Self::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ")
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named!(Source { Rated => "rated", Casual => "casual", Engine => "engine", Imported => "imported" });
named!(Speed {
    Blitz => "blitz", Rapid => "rapid", Classical => "classical",
    Correspondence => "correspondence", Untimed => "untimed",
});
named!(Band {
    Under1400 => "0", From1400 => "1400", From1600 => "1600", From1800 => "1800",
    From2000 => "2000", From2200 => "2200", None => "none",
});

impl Speed {
    /// The speed of a game of `category` (`None`: untimed).
    pub fn of(category: Option<Category>) -> Speed {
        match category {
            None => Speed::Untimed,
            Some(Category::Blitz) => Speed::Blitz,
            Some(Category::Rapid) => Speed::Rapid,
            Some(Category::Classical) => Speed::Classical,
            Some(Category::Correspondence) => Speed::Correspondence,
        }
    }
}

impl Band {
    /// The band of an average rating (`None`: no average).
    pub fn of(average: Option<i64>) -> Band {
        match average {
            None => Band::None,
            Some(r) if r < 1400 => Band::Under1400,
            Some(r) if r < 1600 => Band::From1400,
            Some(r) if r < 1800 => Band::From1600,
            Some(r) if r < 2000 => Band::From1800,
            Some(r) if r < 2200 => Band::From2000,
            Some(_) => Band::From2200,
        }
    }
}

/// What the explorer knows of a game beside its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameFacts {
    pub source: Source,
    pub speed: Speed,
    /// The average of both players' ratings as the game began (rounded), when both had one.
    pub rating: Option<i64>,
    /// How it ended.
    pub outcome: Outcome,
}

impl GameFacts {
    /// The facts of a stored game that `game` finished, with its players' ratings as it began
    /// (`None` for a seat without one); `None` when the game is not indexed: ongoing, or
    /// aborted (an aborted game is stored as a draw, and was no game).
    pub fn of<V: Variant>(
        meta: &GameMeta,
        game: &Game<V>,
        ratings: [Option<i64>; 2],
    ) -> Option<GameFacts> {
        let outcome = indexed_outcome(game.status())?;
        let source = match meta.mode {
            Mode::Imported => Source::Imported,
            Mode::Engine
                if Color::ALL
                    .iter()
                    .all(|&c| meta.seats[c].kind == SeatKind::Engine) =>
            {
                Source::Imported
            }
            Mode::Engine => Source::Engine,
            Mode::Human if meta.players.rated.is_some() => Source::Rated,
            Mode::Human => Source::Casual,
        };
        let category = meta
            .players
            .rated
            .or_else(|| meta.clock.map(|c| c.control.category()));
        Some(GameFacts {
            source,
            speed: Speed::of(category),
            rating: average(ratings),
            outcome,
        })
    }

    /// The facts of a record indexed from a file: an imported, untimed game without ratings;
    /// `None` when it has no result (or an aborted one).
    pub fn of_record<V: Variant>(game: &Game<V>) -> Option<GameFacts> {
        Some(GameFacts {
            source: Source::Imported,
            speed: Speed::Untimed,
            rating: None,
            outcome: indexed_outcome(game.status())?,
        })
    }

    /// The rating band.
    pub fn band(&self) -> Band {
        Band::of(self.rating)
    }
}

/// The outcome a game with `status` is indexed with: `None` while it is ongoing, when it was
/// aborted, or lost by an absent player (its moves say nothing of the position).
fn indexed_outcome(status: Status) -> Option<Outcome> {
    match status {
        Status::Finished {
            reason: EndReason::Aborted | EndReason::Absent,
            ..
        }
        | Status::Ongoing => None,
        Status::Finished { outcome, .. } => Some(outcome),
    }
}

/// The average of two ratings, when both are known.
fn average(ratings: [Option<i64>; 2]) -> Option<i64> {
    match ratings {
        [Some(w), Some(b)] => Some((w + b).div_euclid(2)),
        _ => None,
    }
}

/// Games counted by result, with the sum of their average ratings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub white: i64,
    pub draws: i64,
    pub black: i64,
    /// The sum of the games' average ratings, over the `rated` games that have one.
    pub rating_sum: i64,
    pub rated: i64,
}

impl Tally {
    /// One game of `facts`.
    pub fn one(facts: &GameFacts) -> Tally {
        let (white, draws, black) = match facts.outcome {
            Outcome::Win(Color::White) => (1, 0, 0),
            Outcome::Draw => (0, 1, 0),
            Outcome::Win(Color::Black) => (0, 0, 1),
        };
        Tally {
            white,
            draws,
            black,
            rating_sum: facts.rating.unwrap_or(0),
            rated: i64::from(facts.rating.is_some()),
        }
    }

    /// The games counted.
    pub fn games(&self) -> i64 {
        self.white + self.draws + self.black
    }

    /// The average rating of the games that have one (rounded down).
    pub fn average_rating(&self) -> Option<i64> {
        (self.rated > 0).then(|| self.rating_sum.div_euclid(self.rated))
    }

    /// Adds `other` to this tally.
    pub fn add(&mut self, other: &Tally) {
        self.white += other.white;
        self.draws += other.draws;
        self.black += other.black;
        self.rating_sum += other.rating_sum;
        self.rated += other.rated;
    }
}

/// One row a game adds: at position `hash` of board `variant`, its own totals (`mv` empty) or
/// the move `mv`'s (N1 text), with the game's split and its one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerRow {
    /// The game's board: positions of two boards are two keys, whatever their hashes.
    pub variant: VariantKind,
    /// The position's Zobrist hash, as the database's signed 64 bits.
    pub hash: i64,
    /// The move's text; empty for the position's own totals.
    pub mv: String,
    pub source: Source,
    pub speed: Speed,
    pub band: Band,
    pub tally: Tally,
}

/// The key the database stores a position's hash under (its bits as a signed integer).
pub fn position_key(hash: u64) -> i64 {
    i64::from_ne_bytes(hash.to_ne_bytes())
}

/// The rows finished game `game` adds, on its board, ordered by `(hash, move)` (the order the
/// store writes them in, so that two instances writing at once lock rows in one order), each key
/// once.
pub fn rows_of<V: Variant>(game: &Game<V>, facts: &GameFacts) -> Vec<ExplorerRow> {
    let tally = Tally::one(facts);
    let mut keys: BTreeMap<(i64, String), ()> = BTreeMap::new();
    let positions = game.positions();
    let moves = game.moves();
    for (ply, position) in positions.iter().enumerate().take(EXPLORER_PLIES) {
        let hash = position_key(position.hash());
        keys.insert((hash, String::new()), ());
        if let Some(mv) = moves.get(ply) {
            keys.insert((hash, mv.to_string()), ());
        }
    }
    keys.into_keys()
        .map(|(hash, mv)| ExplorerRow {
            variant: V::KIND,
            hash,
            mv,
            source: facts.source,
            speed: facts.speed,
            band: facts.band(),
            tally,
        })
        .collect()
}

/// The distinct positions (keys) a game adds a row for, in order: where it is listed among a
/// position's latest games.
pub fn positions_of(rows: &[ExplorerRow]) -> Vec<i64> {
    let mut keys: Vec<i64> = rows
        .iter()
        .filter(|r| r.mv.is_empty())
        .map(|r| r.hash)
        .collect();
    keys.dedup();
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::model::{PlayerRef, Seat};
    use emergo_core::{ByColor, Position};

    fn played(moves: &[&str], end: Option<Outcome>) -> Game {
        let mut game = Game::new(Position::start());
        for m in moves {
            game.play_text(m).expect("legal move");
        }
        if let Some(outcome) = end {
            let reason = match outcome {
                Outcome::Draw => EndReason::Agreement,
                Outcome::Win(_) => EndReason::Resignation,
            };
            game.declare(outcome, reason).expect("declared");
        }
        game
    }

    fn facts(outcome: Outcome) -> GameFacts {
        GameFacts {
            source: Source::Casual,
            speed: Speed::Blitz,
            rating: Some(1650),
            outcome,
        }
    }

    fn meta(mode: Mode, kinds: [SeatKind; 2]) -> GameMeta {
        let seat = |kind| Seat {
            kind,
            token_hash: None,
        };
        GameMeta::new(
            "g".into(),
            mode,
            ByColor {
                white: seat(kinds[0]),
                black: seat(kinds[1]),
            },
            "2026-01-01T00:00:00Z".into(),
        )
    }

    /// A game adds each position it passed once, and each move played from it once.
    #[test]
    fn a_game_adds_each_position_and_each_move_once() {
        let game = played(&["a5", "i5", "e1"], Some(Outcome::Win(Color::White)));
        let rows = rows_of(&game, &facts(Outcome::Win(Color::White)));
        // Four positions (the start, after 1, 2 and 3 moves) and three moves.
        assert_eq!(rows.iter().filter(|r| r.mv.is_empty()).count(), 4);
        assert_eq!(rows.iter().filter(|r| !r.mv.is_empty()).count(), 3);
        let start = position_key(Position::start().hash());
        let at_start: Vec<_> = rows.iter().filter(|r| r.hash == start).collect();
        assert_eq!(at_start.len(), 2);
        assert!(at_start.iter().any(|r| r.mv == "a5"));
        assert!(rows
            .iter()
            .all(|r| r.tally.white == 1 && r.tally.games() == 1));
        assert!(rows.iter().all(|r| r.band == Band::From1600));
    }

    /// The rows of a game carry its board: a hexagon's and a 7×7 board's games are keyed apart
    /// from the 9×9 board's, from their own start.
    #[test]
    fn rows_are_keyed_by_the_games_board() {
        fn first_moves<V: Variant>(plies: usize) -> Game<V> {
            let mut game = Game::<V>::default();
            for _ in 0..plies {
                let mv = game.position().legal_moves()[0];
                game.play(mv).expect("legal");
            }
            game.declare(Outcome::Draw, EndReason::Agreement)
                .expect("declared");
            game
        }
        let square = rows_of(&played(&["a5"], Some(Outcome::Draw)), &facts(Outcome::Draw));
        assert!(square.iter().all(|r| r.variant == VariantKind::Emergo));
        let hex = first_moves::<emergo_core::HexEmergo>(3);
        let rows = rows_of(&hex, &facts(Outcome::Draw));
        assert!(rows.iter().all(|r| r.variant == VariantKind::HexEmergo));
        let start = position_key(hex.positions()[0].hash());
        assert!(rows
            .iter()
            .any(|r| r.hash == start && r.mv == hex.moves()[0].to_string()));
        let small = first_moves::<emergo_core::Emergo7x7>(3);
        let rows = rows_of(&small, &facts(Outcome::Draw));
        assert!(rows.iter().all(|r| r.variant == VariantKind::Emergo7x7));
        assert_eq!(positions_of(&rows).len(), 4);
    }

    /// Two move orders to one position give it the same key (transpositions merge).
    #[test]
    fn two_move_orders_to_one_position_share_its_key() {
        let a = played(&["a5", "i5", "e1", "e9"], None);
        let b = played(&["e1", "e9", "a5", "i5"], None);
        assert_eq!(
            position_key(a.position().hash()),
            position_key(b.position().hash())
        );
        let win = facts(Outcome::Win(Color::Black));
        let ka: Vec<i64> = positions_of(&rows_of(
            &played(&["a5", "i5", "e1", "e9"], Some(Outcome::Draw)),
            &win,
        ));
        let kb: Vec<i64> = positions_of(&rows_of(
            &played(&["e1", "e9", "a5", "i5"], Some(Outcome::Draw)),
            &win,
        ));
        let shared: Vec<_> = ka.iter().filter(|k| kb.contains(k)).collect();
        // The start and the position after four moves.
        assert_eq!(shared.len(), 2);
    }

    /// Only the positions before the first 60 moves are indexed.
    #[test]
    fn only_the_first_60_plies_are_indexed() {
        let mut game = Game::new(Position::start());
        while game.ply() < 70 && !game.is_over() {
            let mv = game.position().legal_moves()[0];
            game.play(mv).expect("legal");
        }
        assert!(game.ply() > EXPLORER_PLIES, "the test game is long enough");
        game.declare(Outcome::Draw, EndReason::Agreement)
            .expect("declared");
        let rows = rows_of(&game, &facts(Outcome::Draw));
        let mut positions: Vec<i64> = game.positions()[..EXPLORER_PLIES]
            .iter()
            .map(|p| position_key(p.hash()))
            .collect();
        let mut moves: Vec<(i64, String)> = game.moves()[..EXPLORER_PLIES]
            .iter()
            .zip(&positions)
            .map(|(m, &h)| (h, m.to_string()))
            .collect();
        positions.sort_unstable();
        positions.dedup();
        moves.sort_unstable();
        moves.dedup();
        assert_eq!(positions_of(&rows), positions);
        let indexed: Vec<(i64, String)> = rows
            .iter()
            .filter(|r| !r.mv.is_empty())
            .map(|r| (r.hash, r.mv.clone()))
            .collect();
        assert_eq!(indexed, moves);
    }

    /// An ongoing or aborted game is not indexed; a finished one is, with its source.
    #[test]
    fn sources_of_games_and_unindexed_games() {
        let finished = played(&["a5"], Some(Outcome::Win(Color::Black)));
        let ongoing = played(&["a5"], None);
        let mut aborted = played(&[], None);
        aborted
            .declare(Outcome::Draw, EndReason::Aborted)
            .expect("aborted");
        let human = meta(Mode::Human, [SeatKind::Human; 2]);
        assert!(GameFacts::of(&human, &ongoing, [None, None]).is_none());
        assert!(GameFacts::of(&human, &aborted, [None, None]).is_none());
        let casual = GameFacts::of(&human, &finished, [Some(1500), Some(1701)]).expect("indexed");
        assert_eq!(
            (casual.source, casual.speed, casual.rating, casual.band()),
            (Source::Casual, Speed::Untimed, Some(1600), Band::From1600)
        );
        let mut rated = human.clone();
        rated.players.rated = Some(Category::Rapid);
        rated.players.white = Some(PlayerRef {
            id: 1,
            name: None,
            bot: false,
        });
        let facts = GameFacts::of(&rated, &finished, [Some(1300), None]).expect("indexed");
        assert_eq!(
            (facts.source, facts.speed, facts.band()),
            (Source::Rated, Speed::Rapid, Band::None)
        );
        let engine = meta(Mode::Engine, [SeatKind::Human, SeatKind::Engine]);
        let selfplay = meta(Mode::Engine, [SeatKind::Engine, SeatKind::Engine]);
        let imported = meta(Mode::Imported, [SeatKind::Human, SeatKind::Human]);
        let source = |m: &GameMeta| GameFacts::of(m, &finished, [None, None]).map(|f| f.source);
        assert_eq!(source(&engine), Some(Source::Engine));
        assert_eq!(source(&selfplay), Some(Source::Imported));
        assert_eq!(source(&imported), Some(Source::Imported));
    }

    /// The bands' edges, and the names read back.
    #[test]
    fn rating_bands_edges_and_names() {
        assert_eq!(Band::of(Some(1399)), Band::Under1400);
        assert_eq!(Band::of(Some(1400)), Band::From1400);
        assert_eq!(Band::of(Some(2199)), Band::From2000);
        assert_eq!(Band::of(Some(2200)), Band::From2200);
        assert_eq!(Band::of(None), Band::None);
        for band in Band::ALL {
            assert_eq!(Band::from_name(band.name()), Some(*band));
        }
        for speed in Speed::ALL {
            assert_eq!(Speed::from_name(speed.name()), Some(*speed));
        }
        assert_eq!(Source::from_name("people"), None);
    }

    /// A tally's average is over the games that have a rating.
    #[test]
    fn average_rating_counts_only_rated_games() {
        let mut t = Tally::one(&facts(Outcome::Draw));
        t.add(&Tally::one(&GameFacts {
            rating: None,
            ..facts(Outcome::Draw)
        }));
        t.add(&Tally::one(&GameFacts {
            rating: Some(1850),
            ..facts(Outcome::Win(Color::White))
        }));
        assert_eq!((t.games(), t.rated, t.average_rating()), (3, 2, Some(1750)));
        assert_eq!(Tally::default().average_rating(), None);
    }
}
