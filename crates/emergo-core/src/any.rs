//! A game of any board chosen at run time: [`AnyGame`], an enum over the three [`Game<V>`]s,
//! for the faces that hold games of every board side by side (the server's live games, its
//! store, the engine's job queue). Each operation is one `match` that calls the monomorphised
//! core, so a game of the 9x9 board runs the same code it runs as a `Game<Emergo>`.
//!
//! A [`Move<V>`] does not leave its game's board: across the enum, a move is an [`AnyMove`]
//! (the move with its board) or its text (N1), as on the wire. Code that wants the typed game
//! (a view drawing its board, the engine) opens it with `any_game!` (below), which
//! runs a generic body on whichever board it holds.

use crate::color::Color;
use crate::game::{EndReason, Game, GameError, Outcome, Status};
use crate::moves::Move;
use crate::notation::PositionTextError;
use crate::position::Position;
use crate::record::{write_game, RecordError};
use crate::refusal::MoveError;
use crate::variant::{Emergo, Emergo7x7, HexEmergo, Variant, VariantKind};
use std::fmt;

/// A game on one of the three boards.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Emergo's square 9×9 board (RULES.md).
    Emergo(Game<Emergo>),
    /// Emergo 7×7 (RULES-7x7.md).
    Emergo7x7(Game<Emergo7x7>),
    /// HexEmergo (RULES-hex.md).
    Hex(Game<HexEmergo>),
}

/// A legal move of an [`AnyGame`], with its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyMove {
    /// A move of the 9×9 board.
    Emergo(Move<Emergo>),
    /// A move of the 7×7 board.
    Emergo7x7(Move<Emergo7x7>),
    /// A move of the hexagon.
    Hex(Move<HexEmergo>),
}

/// Runs `$body` with `$g` bound to the typed game inside an [`AnyGame`] (by reference when
/// `$game` is a reference): the body is compiled once per board.
///
/// ```
/// use emergo_core::{any_game, AnyGame, VariantKind};
/// let game = AnyGame::start(VariantKind::HexEmergo);
/// let n = any_game!(&game, g => g.position().legal_moves().len());
/// assert_eq!(n, 36);
/// ```
#[macro_export]
macro_rules! any_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            $crate::any::AnyGame::Emergo($g) => $body,
            $crate::any::AnyGame::Emergo7x7($g) => $body,
            $crate::any::AnyGame::Hex($g) => $body,
        }
    };
}

/// A game of one board, as the enum's case: implemented by `Game<V>` for each board, so generic
/// code can wrap its game back up.
pub trait IntoAny {
    /// The game, in its enum case.
    fn into_any(self) -> AnyGame;
}

/// A move of one board, as the enum's case.
pub trait IntoAnyMove {
    /// The move, in its enum case.
    fn into_any(self) -> AnyMove;
}

macro_rules! into_any {
    ($v:ty, $case:ident) => {
        impl IntoAny for Game<$v> {
            fn into_any(self) -> AnyGame {
                AnyGame::$case(self)
            }
        }
        impl From<Game<$v>> for AnyGame {
            fn from(game: Game<$v>) -> AnyGame {
                AnyGame::$case(game)
            }
        }
        impl IntoAnyMove for Move<$v> {
            fn into_any(self) -> AnyMove {
                AnyMove::$case(self)
            }
        }
    };
}
into_any!(Emergo, Emergo);
into_any!(Emergo7x7, Emergo7x7);
into_any!(HexEmergo, Hex);

/// Why an [`AnyGame`] refused an action: [`GameError`] without its board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnyGameError {
    /// The game's own refusal, in words.
    #[error("{0}")]
    Game(String),
    /// Move text that names no legal move.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A move of another board.
    #[error("a move of the {given} board cannot be played on the {board} board")]
    OtherBoard {
        /// This game's board.
        board: VariantKind,
        /// The move's board.
        given: VariantKind,
    },
}

impl<V: Variant> From<GameError<V>> for AnyGameError {
    fn from(e: GameError<V>) -> AnyGameError {
        match e {
            GameError::Move(e) => AnyGameError::Move(e),
            other => AnyGameError::Game(other.to_string()),
        }
    }
}

impl AnyGame {
    /// A game from the start of `kind`'s board.
    pub fn start(kind: VariantKind) -> AnyGame {
        with_variant!(kind, V => Game::<V>::default().into_any())
    }

    /// A game of `kind`'s board from a position text (N2) of that board.
    pub fn from_position_text(kind: VariantKind, text: &str) -> Result<AnyGame, PositionTextError> {
        with_variant!(kind, V => Ok(Game::new(text.parse::<Position<V>>()?).into_any()))
    }

    /// The game of a record (N3), on the board its `[Variant]` tag names.
    pub fn from_record(text: &str) -> Result<AnyGame, RecordError> {
        let kind = crate::record::record_variant(text)?;
        with_variant!(kind, V => {
            Ok(crate::record::GameRecord::<V>::parse(text)?.to_game()?.into_any())
        })
    }

    /// Which board.
    pub fn kind(&self) -> VariantKind {
        match self {
            AnyGame::Emergo(_) => VariantKind::Emergo,
            AnyGame::Emergo7x7(_) => VariantKind::Emergo7x7,
            AnyGame::Hex(_) => VariantKind::HexEmergo,
        }
    }

    /// Moves played so far.
    pub fn ply(&self) -> usize {
        any_game!(self, g => g.ply())
    }

    /// Whether the game goes on, or how it ended.
    pub fn status(&self) -> Status {
        any_game!(self, g => g.status())
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        any_game!(self, g => g.is_over())
    }

    /// Who is to move in the current position.
    pub fn turn(&self) -> Color {
        any_game!(self, g => g.position().turn())
    }

    /// Who was to move before move `ply` (0 = the start); `None` past the current position.
    pub fn turn_at(&self, ply: usize) -> Option<Color> {
        any_game!(self, g => g.positions().get(ply).map(|p| p.turn()))
    }

    /// The ply of `color`'s last move (the position before it had `color` to move), if any.
    pub fn last_move_of(&self, color: Color) -> Option<usize> {
        any_game!(self, g => {
            let positions = g.positions();
            (0..g.ply()).rev().find(|&k| positions[k].turn() == color)
        })
    }

    /// Whether `color` has men on the board or in hand in the current position.
    pub fn has_material(&self, color: Color) -> bool {
        any_game!(self, g => g.position().has_material(color))
    }

    /// How many times the current position has stood (R10.3).
    pub fn repetitions(&self) -> usize {
        any_game!(self, g => g.repetitions())
    }

    /// The start's position text (N2).
    pub fn start_text(&self) -> String {
        any_game!(self, g => g.start().to_string())
    }

    /// The current position's text (N2).
    pub fn position_text(&self) -> String {
        any_game!(self, g => g.position().to_string())
    }

    /// The moves played, as text (N1).
    pub fn move_texts(&self) -> Vec<String> {
        any_game!(self, g => g.moves().iter().map(ToString::to_string).collect())
    }

    /// The legal moves of the current position, as text (N1), in the generator's order.
    pub fn legal_move_texts(&self) -> Vec<String> {
        any_game!(self, g => g.position().legal_moves().iter().map(ToString::to_string).collect())
    }

    /// The legal move `text` names in the current position (N1), or why there is none.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, MoveError> {
        any_game!(self, g => g.position().parse_move(text).map(IntoAnyMove::into_any))
    }

    /// Plays a legal move of this board.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), AnyGameError> {
        match (self, mv) {
            (AnyGame::Emergo(g), AnyMove::Emergo(m)) => Ok(g.play(m)?),
            (AnyGame::Emergo7x7(g), AnyMove::Emergo7x7(m)) => Ok(g.play(m)?),
            (AnyGame::Hex(g), AnyMove::Hex(m)) => Ok(g.play(m)?),
            (game, mv) => Err(AnyGameError::OtherBoard {
                board: game.kind(),
                given: mv.kind(),
            }),
        }
    }

    /// Plays the move `text` names (N1).
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, AnyGameError> {
        any_game!(self, g => Ok(g.play_text(text)?.into_any()))
    }

    /// Takes back the last move; `false` at the start.
    pub fn undo(&mut self) -> bool {
        any_game!(self, g => g.undo().is_some())
    }

    /// Ends the game with a declared ending (resignation, agreement, a clock's ending).
    pub fn declare(&mut self, outcome: Outcome, reason: EndReason) -> Result<(), AnyGameError> {
        any_game!(self, g => Ok(g.declare(outcome, reason)?))
    }

    /// A new game from this game's start.
    pub fn restarted(&self) -> AnyGame {
        any_game!(self, g => Game::new(*g.start()).into_any())
    }

    /// The game as a record (N3) with `tags` (and the `[Variant]` tag of a board other than
    /// 9×9, as the core's record writer adds it).
    pub fn record(&self, tags: &[(&str, &str)]) -> String {
        any_game!(self, g => write_game(g, tags))
    }
}

impl Default for AnyGame {
    fn default() -> AnyGame {
        AnyGame::start(VariantKind::Emergo)
    }
}

impl AnyMove {
    /// The move's board.
    pub fn kind(&self) -> VariantKind {
        match self {
            AnyMove::Emergo(_) => VariantKind::Emergo,
            AnyMove::Emergo7x7(_) => VariantKind::Emergo7x7,
            AnyMove::Hex(_) => VariantKind::HexEmergo,
        }
    }
}

/// The move's text (N1).
impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Emergo(m) => m.fmt(f),
            AnyMove::Emergo7x7(m) => m.fmt(f),
            AnyMove::Hex(m) => m.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_starts_with_its_own_moves() {
        // R9.3 from each start: perft 1 is 40 (9x9, e5 barred), 24 (7x7, d4 barred), 36 (hex).
        for (kind, n) in [
            (VariantKind::Emergo, 40),
            (VariantKind::Emergo7x7, 24),
            (VariantKind::HexEmergo, 36),
        ] {
            let game = AnyGame::start(kind);
            assert_eq!(game.kind(), kind);
            assert_eq!(game.legal_move_texts().len(), n, "{kind}");
        }
    }

    #[test]
    fn a_move_of_another_board_is_refused() {
        let mut hex = AnyGame::start(VariantKind::HexEmergo);
        let square = AnyGame::start(VariantKind::Emergo);
        let mv = square.parse_move("a5").expect("a 9x9 entry");
        assert_eq!(
            hex.play(mv),
            Err(AnyGameError::OtherBoard {
                board: VariantKind::HexEmergo,
                given: VariantKind::Emergo
            })
        );
        assert_eq!(hex.ply(), 0);
    }

    #[test]
    fn moves_cross_the_enum_as_text_and_back() {
        let mut game = AnyGame::start(VariantKind::Emergo7x7);
        let first = game.legal_move_texts()[0].clone();
        let played = game.play_text(&first).expect("a legal move");
        assert_eq!(played.to_string(), first);
        assert_eq!(game.move_texts(), vec![first]);
        assert!(game.undo());
        assert_eq!(game.ply(), 0);
        assert!(!game.undo());
    }
}
