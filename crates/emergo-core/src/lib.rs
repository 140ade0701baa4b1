//! The rules of Emergo (see `RULES.md`, rules R1–R10 and notation N1–N2): the board, columns,
//! entering, capture with the majority rule, results, move and position text, game records and
//! Zobrist hashing. No I/O.
//!
//! ```
//! use emergo_core::Position;
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 40);
//! let next = pos.play(pos.parse_move("d3").unwrap()).unwrap();
//! assert_eq!(next.to_string(), "B:11:12:d3=W");
//! ```
//!
//! ## Three boards, one rules implementation
//!
//! The board is a type parameter ([`Variant`]): [`Emergo`] (the square 9×9 board, RULES.md),
//! [`Emergo7x7`] (RULES-7x7.md) and [`HexEmergo`] (RULES-hex.md). The types of the rules are
//! generic over it in their modules (`position::Position<V>`, `moves::Move<V>`,
//! `game::Game<V>`, `record::GameRecord<V>`, ...); the names at the top of the crate are those
//! types on the square 9×9 board, so `Position::start()` is the square board's start.
//! [`crate::variant`] says why the board is a type (the square game's speed) and how each
//! board is numbered.
//!
//! ```
//! use emergo_core::{position::Position, HexEmergo};
//! let pos = Position::<HexEmergo>::start();
//! assert_eq!(pos.legal_moves().len(), 36);
//! let next = pos.play(pos.parse_move("c3").unwrap()).unwrap();
//! assert_eq!(next.to_string(), "B:11:12:c3=W");
//! ```

#![warn(missing_docs)]

// First: its macro `with_variant!` is in scope, by name, in the modules after it.
#[macro_use]
pub mod variant;
pub mod any;
pub mod bitboard;
pub mod board;
pub mod color;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod phase;
pub mod playout;
pub mod position;
pub mod record;
pub mod refusal;
pub mod repetition;
mod zobrist;

pub use any::{AnyGame, AnyGameError, AnyMove, IntoAny, IntoAnyMove};
pub use board::{Direction, SquareError, SquareName};
pub use color::{ByColor, Color, ColorError};
pub use game::{EndReason, EndTextError, Outcome, Status};
pub use notation::{MoveTextError, PositionTextError};
pub use phase::{Phase, PhaseError};
pub use position::{Column, PositionError};
pub use record::{
    record_variant, split_records, RecordError, RecordLimit, RecordLimits, RecordPlace,
};
pub use refusal::{MoveError, Refusal};
pub use repetition::{RepetitionKey, Repetitions};
pub use variant::{Emergo, Emergo7x7, HexEmergo, Variant, VariantError, VariantKind};

/// A set of squares of the square 9×9 board ([`bitboard::Bitboard`]).
pub type Bitboard = bitboard::Bitboard<Emergo>;
/// A square of the square 9×9 board ([`board::Square`]).
pub type Square = board::Square<Emergo>;
/// A game on the square 9×9 board ([`game::Game`]).
pub type Game = game::Game<Emergo>;
/// Why a game on the square 9×9 board refused an action ([`game::GameError`]).
pub type GameError = game::GameError<Emergo>;
/// The legal moves of a position on the square 9×9 board ([`movegen::MoveList`]).
pub type MoveList = movegen::MoveList<Emergo>;
/// A move on the square 9×9 board ([`moves::Move`]).
pub type Move = moves::Move<Emergo>;
/// A capture's route on the square 9×9 board ([`moves::CapturePath`]).
pub type CapturePath = moves::CapturePath<Emergo>;
/// Move text on the square 9×9 board ([`notation::MoveText`]).
pub type MoveText = notation::MoveText<Emergo>;
/// A position on the square 9×9 board ([`position::Position`]).
pub type Position = position::Position<Emergo>;
/// An illegal move on the square 9×9 board ([`position::PlayError`]).
pub type PlayError = position::PlayError<Emergo>;
/// An unvalidated position on the square 9×9 board ([`position::Setup`]).
pub type Setup = position::Setup<Emergo>;
/// A record of a game on the square 9×9 board ([`record::GameRecord`]).
pub type GameRecord = record::GameRecord<Emergo>;
/// A move of a record on the square 9×9 board ([`record::RecordMove`]).
pub type RecordMove = record::RecordMove<Emergo>;
