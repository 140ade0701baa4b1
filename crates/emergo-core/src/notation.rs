//! Move text (N1) and position text (N2).
//!
//! Parsing move text yields [`MoveText`], which is only text; `Position::parse_move` (refusal.rs)
//! turns it into a [`Move`] by matching it against the legal moves, so a parser never produces an illegal
//! move.

use crate::board::{Square, SquareName};
use crate::color::{ByColor, Color};
use crate::moves::Move;
use crate::position::{Column, Position, PositionError, Setup, MEN_PER_SIDE};
use crate::variant::{Emergo, Variant, MAX_SLOTS};
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;
use thiserror::Error;

/// The most squares a move names: a start and at most 12 landings.
const MAX_MOVE_SQUARES: usize = 13;

/// What is wrong with a piece of move text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveTextError {
    /// No text at all.
    #[error("empty move text")]
    Empty,
    /// Two characters that name no square.
    #[error("'{text}' at column {column} is not a square (squares are {names})")]
    BadSquare {
        /// The characters read.
        text: String,
        /// Their 1-based column.
        column: usize,
        /// The board's cells, for a person.
        names: &'static str,
    },
    /// Something other than `-` or `x` after a square.
    #[error("expected '-' or 'x' between squares at column {column}")]
    BadSeparator {
        /// The 1-based column of the character.
        column: usize,
    },
    /// More squares than any move has.
    #[error("a move names at most {MAX_MOVE_SQUARES} squares")]
    TooLong,
}

/// Move text as written on the board `V`: the squares it names and whether it used `x` (N1).
/// Not yet a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText<V: Variant = Emergo> {
    squares: Vec<Square<V>>,
    capture_mark: bool,
}

impl<V: Variant> MoveText<V> {
    /// The squares named, in order.
    pub fn squares(&self) -> &[Square<V>] {
        &self.squares
    }

    /// Whether this text can only be a capture (it uses `x`).
    pub fn says_capture(&self) -> bool {
        self.capture_mark
    }

    /// Whether `mv` is what this text describes: the same squares in the same order; text with
    /// `x` only describes captures. A step and a one-jump capture never share their squares.
    pub fn matches(&self, mv: Move<V>) -> bool {
        match mv {
            Move::Enter(sq) => !self.capture_mark && self.squares == [sq],
            Move::Step { from, to } => !self.capture_mark && self.squares == [from, to],
            Move::Capture(path) => {
                self.squares.len() == path.len() + 1
                    && self.squares[0] == path.from()
                    && path
                        .landings()
                        .zip(&self.squares[1..])
                        .all(|(a, &b)| a == b)
            }
        }
    }
}

impl<V: Variant> FromStr for MoveText<V> {
    type Err = MoveTextError;

    /// Reads `e5`, `e4-e5`, `e4xc4xc6`, the designers' `e4-c4-c6`, in either case.
    fn from_str(text: &str) -> Result<MoveText<V>, MoveTextError> {
        if text.is_empty() {
            return Err(MoveTextError::Empty);
        }
        let mut squares = Vec::new();
        let mut capture_mark = false;
        let bytes = text.as_bytes();
        let mut i = 0;
        loop {
            if squares.len() == MAX_MOVE_SQUARES {
                return Err(MoveTextError::TooLong);
            }
            let end = (i + 2).min(bytes.len());
            let piece = text.get(i..end).unwrap_or("");
            let square = Square::parse(piece).ok_or_else(|| MoveTextError::BadSquare {
                text: text[i..].chars().take(2).collect(),
                column: i + 1,
                names: V::GEOMETRY.names_short,
            })?;
            squares.push(square);
            i = end;
            match bytes.get(i) {
                None => break,
                Some(b'-') => {}
                Some(b'x' | b'X') => capture_mark = true,
                Some(_) => return Err(MoveTextError::BadSeparator { column: i + 1 }),
            }
            i += 1;
        }
        Ok(MoveText {
            squares,
            capture_mark,
        })
    }
}

/// What is wrong with a position text, and where (N2).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad position text at column {column}: {kind}")]
pub struct PositionTextError {
    /// 1-based character column where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub kind: PositionTextErrorKind,
}

/// The kinds of problems in position text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionTextErrorKind {
    /// No text at all.
    #[error("empty position text")]
    Empty,
    /// The first field is not `W` or `B`.
    #[error("the side to move must be W or B, not '{0}'")]
    BadSide(String),
    /// A required field is missing (named).
    #[error("missing {0}")]
    Missing(&'static str),
    /// A count of men in hand that is not 0..=12 (a count above the board's men is
    /// [`PositionTextErrorKind::Impossible`]).
    #[error("'{0}' is not a number of men in hand from 0 to 12")]
    BadCount(String),
    /// A square name that names no square (R1).
    #[error("'{0}' is not a square")]
    UnknownSquare(String),
    /// A board entry not of the form `<square>=<stack>`.
    #[error("expected '<square>=<stack>', found '{0}'")]
    BadEntry(String),
    /// A square listed twice.
    #[error("square {0} is given twice")]
    DuplicateSquare(SquareName),
    /// A square with an empty stack.
    #[error("the stack on {0} is empty")]
    EmptyStack(SquareName),
    /// A stack letter other than `W` or `B`.
    #[error("'{0}' in a stack is not W or B")]
    BadStackLetter(char),
    /// A stack of more than two layers (R3).
    #[error("the stack on {0} has more than two layers (men of one colour over the other)")]
    MoreThanTwoLayers(SquareName),
    /// Text after the board.
    #[error("unexpected text after the position: '{0}'")]
    Trailing(String),
    /// Well-formed text for an impossible position.
    #[error("{0}")]
    Impossible(PositionError),
}

/// Reads position text into an unvalidated setup on the board `V` (syntax, squares, stacks).
pub fn parse_setup<V: Variant>(text: &str) -> Result<Setup<V>, PositionTextError> {
    let err = |column: usize, kind| PositionTextError { column, kind };
    if text.trim().is_empty() {
        return Err(err(1, PositionTextErrorKind::Empty));
    }
    // Fields split on ':' with their starting columns.
    let mut fields = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == ':' {
            fields.push((start, &text[start..i]));
            start = i + 1;
        }
    }
    fields.push((start, &text[start..]));

    let (col, side) = fields[0];
    let turn = match side {
        "W" => Color::White,
        "B" => Color::Black,
        _ => {
            return Err(err(
                col + 1,
                PositionTextErrorKind::BadSide(side.to_string()),
            ))
        }
    };
    let mut hand = ByColor::new(0u8, 0);
    for (k, name) in [(1, "White's men in hand"), (2, "Black's men in hand")] {
        let Some(&(col, count)) = fields.get(k) else {
            return Err(err(text.len() + 1, PositionTextErrorKind::Missing(name)));
        };
        hand[Color::ALL[k - 1]] = match count.parse::<u8>() {
            Ok(n) if n <= MEN_PER_SIDE && !count.starts_with('+') => n,
            _ => {
                return Err(err(
                    col + 1,
                    PositionTextErrorKind::BadCount(count.to_string()),
                ))
            }
        };
    }
    let mut columns: [Option<Column>; MAX_SLOTS] = [None; MAX_SLOTS];
    if let Some(&(col, board)) = fields.get(3) {
        let mut offset = col;
        for entry in board.split(',') {
            columns_entry::<V>(entry, offset, &mut columns)?;
            offset += entry.len() + 1;
        }
    }
    if let Some(&(col, rest)) = fields.get(4) {
        return Err(err(
            col,
            PositionTextErrorKind::Trailing(format!(":{rest}")),
        ));
    }
    Ok(Setup {
        turn,
        hand,
        columns,
        variant: PhantomData,
    })
}

/// Reads one `<square>=<stack>` entry starting at byte `offset` of the text.
fn columns_entry<V: Variant>(
    entry: &str,
    offset: usize,
    columns: &mut [Option<Column>; MAX_SLOTS],
) -> Result<(), PositionTextError> {
    let err = |column: usize, kind| PositionTextError { column, kind };
    let Some((name, stack)) = entry.split_once('=') else {
        return Err(err(
            offset + 1,
            PositionTextErrorKind::BadEntry(entry.to_string()),
        ));
    };
    let square = Square::<V>::parse(name)
        .filter(|_| {
            name.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
        .ok_or_else(|| {
            err(
                offset + 1,
                PositionTextErrorKind::UnknownSquare(name.to_string()),
            )
        })?;
    if columns[square.index()].is_some() {
        return Err(err(
            offset + 1,
            PositionTextErrorKind::DuplicateSquare(square.square_name()),
        ));
    }
    let stack_col = offset + name.len() + 2;
    let mut letters = stack.chars();
    let Some(first) = letters.next() else {
        return Err(err(
            stack_col,
            PositionTextErrorKind::EmptyStack(square.square_name()),
        ));
    };
    let letter = |i: usize, c: char| {
        Color::from_letter(c)
            .filter(|_| c.is_ascii_uppercase())
            .ok_or_else(|| err(stack_col + i, PositionTextErrorKind::BadStackLetter(c)))
    };
    let owner = letter(0, first)?;
    let (mut men, mut prisoners) = (1u32, 0u32);
    for (i, c) in letters.enumerate() {
        let color = letter(i + 1, c)?;
        if color == owner && prisoners == 0 {
            men += 1;
        } else if color != owner {
            prisoners += 1;
        } else {
            return Err(err(
                stack_col + i + 1,
                PositionTextErrorKind::MoreThanTwoLayers(square.square_name()),
            ));
        }
        let most = V::GEOMETRY.men;
        if men + prisoners > 2 * most as u32 {
            return Err(err(
                stack_col,
                PositionTextErrorKind::Impossible(PositionError::TooManyMen {
                    color: owner,
                    count: men.max(prisoners),
                    most,
                }),
            ));
        }
    }
    columns[square.index()] = Some(Column {
        owner,
        men: men as u8,
        prisoners: prisoners as u8,
    });
    Ok(())
}

impl<V: Variant> FromStr for Position<V> {
    type Err = PositionTextError;

    /// Reads and validates position text (N2).
    fn from_str(text: &str) -> Result<Position<V>, PositionTextError> {
        let setup = parse_setup(text)?;
        Position::from_setup(&setup).map_err(|e| PositionTextError {
            column: 1,
            kind: PositionTextErrorKind::Impossible(e),
        })
    }
}

/// The squares in byte order of their names, as N2 lists them.
fn squares_by_name<V: Variant>() -> impl Iterator<Item = Square<V>> {
    V::GEOMETRY
        .by_name
        .iter()
        .take_while(|&&s| s != crate::variant::NONE)
        .map(|&s| Square::new_unchecked(s as usize))
}

impl<V: Variant> fmt::Display for Position<V> {
    /// Position text (N2), squares in byte order of their names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}",
            self.turn().letter(),
            self.hand(Color::White),
            self.hand(Color::Black)
        )?;
        let mut sep = ':';
        for sq in squares_by_name::<V>() {
            if let Some(col) = self.column(sq) {
                write!(f, "{sep}{sq}=")?;
                for _ in 0..col.men {
                    write!(f, "{}", col.owner.letter())?;
                }
                for _ in 0..col.prisoners {
                    write!(f, "{}", col.owner.other().letter())?;
                }
                sep = ',';
            }
        }
        Ok(())
    }
}
