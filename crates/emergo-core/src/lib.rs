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

#![warn(missing_docs)]

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

pub use bitboard::Bitboard;
pub use board::{Direction, Square, SquareError};
pub use color::{ByColor, Color, ColorError};
pub use game::{EndReason, EndTextError, Game, GameError, Outcome, Status};
pub use movegen::MoveList;
pub use moves::{CapturePath, Move};
pub use notation::{MoveError, MoveText, MoveTextError, PositionTextError};
pub use phase::{Phase, PhaseError};
pub use position::{Column, PlayError, Position, PositionError, Setup};
pub use record::{
    split_records, GameRecord, RecordError, RecordLimit, RecordLimits, RecordMove, RecordPlace,
};
pub use refusal::Refusal;
pub use repetition::{RepetitionKey, Repetitions};
