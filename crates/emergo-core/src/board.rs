//! Geometry of a board (R1 of each rules page): cell names and directions, read from the
//! board's [`Variant`] description.
//!
//! On the square 9×9 board squares are numbered row by row over the dark squares of the
//! checkerboard (rank 1 first, files in order within a rank: 5 squares on odd ranks, 4 on even
//! ranks). A diagonal step is then +5, +4, −4 or −5, so a set of squares is a [`Bitboard`](crate::bitboard::Bitboard) moved
//! by shifts. The 7×7 board is numbered the same way; the hexagon as [`crate::variant`] says.

pub use crate::variant::Direction;
use crate::variant::{Emergo, Variant, NONE};
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;
use thiserror::Error;

/// Number of squares on the square 9×9 board.
pub const SQUARE_COUNT: usize = 41;

/// One cell of the board `V`, by its number (see the module docs).
pub struct Square<V = Emergo>(u8, PhantomData<V>);

impl<V> Clone for Square<V> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for Square<V> {}
impl<V> PartialEq for Square<V> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<V> Eq for Square<V> {}
impl<V> std::hash::Hash for Square<V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}
impl<V> PartialOrd for Square<V> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<V> Ord for Square<V> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl Square<Emergo> {
    /// The centre of the square 9×9 board, `e5` (R9.3).
    pub const E5: Square = Square(20, PhantomData);
}

impl<V: Variant> Square<V> {
    /// The centre of the board (R9.3): `e5`, or `d4` on the 7×7 board and the hexagon.
    pub const CENTRE: Square<V> = Square(V::GEOMETRY.centre, PhantomData);

    /// The cell with this number, if the board has one.
    #[inline]
    pub const fn new(index: usize) -> Option<Square<V>> {
        if index < V::GEOMETRY.slots && V::GEOMETRY.all & (1u64 << index) != 0 {
            Some(Square(index as u8, PhantomData))
        } else {
            None
        }
    }

    /// The cell with this number, which the caller guarantees is one of the board's.
    ///
    /// # Panics
    /// In debug builds, when it is not.
    #[inline(always)]
    pub const fn new_unchecked(index: usize) -> Square<V> {
        debug_assert!(index < V::GEOMETRY.slots);
        Square(index as u8, PhantomData)
    }

    /// The cell's number (0..41 in rank order on the square 9×9 board).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Checkerboard file and rank (square boards; `(0, 0)` on the hexagon), from 1 (file 1 on
    /// the left, rank 1 at the bottom).
    pub const fn xy(self) -> (u8, u8) {
        V::GEOMETRY.xy[self.0 as usize]
    }

    /// The square at checkerboard file `x`, rank `y`, if the board has one there (never on the
    /// hexagon).
    pub fn from_xy(x: u8, y: u8) -> Option<Square<V>> {
        if x == 0 || y == 0 {
            return None;
        }
        Square::all().find(|s| s.xy() == (x, y))
    }

    /// Letter line (0 = `a`) and number (R1).
    pub const fn letter_number(self) -> (u8, u8) {
        V::GEOMETRY.lines[self.0 as usize]
    }

    /// The cell named by letter line `l` (0 = `a`) and number `n`, if it exists (R1).
    pub fn from_letter_number(l: u8, n: u8) -> Option<Square<V>> {
        Square::all().find(|s| s.letter_number() == (l, n))
    }

    /// The neighbour in direction `dir`, if it is on the board.
    #[inline(always)]
    pub fn neighbour(self, dir: Direction) -> Option<Square<V>> {
        let n = V::GEOMETRY.neighbours[self.0 as usize][dir as usize];
        if n == NONE {
            None
        } else {
            Some(Square(n, PhantomData))
        }
    }

    /// Parses a cell name such as `e5` (case-insensitive).
    pub fn parse(text: &str) -> Option<Square<V>> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        let number = chars.next()?;
        if chars.next().is_some() || !letter.is_ascii_lowercase() {
            return None;
        }
        let n = number.to_digit(10)? as u8;
        Square::from_letter_number(letter as u8 - b'a', n)
    }

    /// The two-character name of this cell.
    pub fn name(self) -> [u8; 2] {
        let (l, n) = self.letter_number();
        [b'a' + l, b'0' + n]
    }

    /// The name as a value without the board's type (for errors).
    pub fn square_name(self) -> SquareName {
        SquareName(self.name())
    }
}

impl<V: Variant> fmt::Display for Square<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [l, n] = self.name();
        write!(f, "{}{}", l as char, n as char)
    }
}

impl<V: Variant> fmt::Debug for Square<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A cell's name, kept by errors, which do not carry the board's type: `e5`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SquareName(pub [u8; 2]);

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0[0] as char, self.0[1] as char)
    }
}

impl fmt::Debug for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A name that names no cell of the board (R1).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown square `{text}` (squares are {names})")]
pub struct SquareError {
    /// The text read.
    pub text: String,
    /// The board's cells, for a person.
    pub names: &'static str,
}

/// Reads a cell name such as `e5` (either case).
impl<V: Variant> FromStr for Square<V> {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Square<V>, SquareError> {
        Square::parse(s).ok_or_else(|| SquareError {
            text: s.to_string(),
            names: V::GEOMETRY.names_text,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    #[test]
    fn r1_there_are_41_squares_with_the_designers_names() {
        let names: Vec<String> = Square::all().map(|s| s.to_string()).collect();
        assert_eq!(names.len(), 41);
        assert_eq!(names[0], "e1");
        assert_eq!(Square::E5.to_string(), "e5");
        for s in Square::all() {
            assert_eq!(Square::parse(&s.to_string()), Some(s));
        }
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 41);
        assert_eq!(Square::parse("a4"), None);
        assert_eq!(Square::parse("j5"), None);
        assert_eq!(Square::parse("e0"), None);
    }

    #[test]
    fn r1_corners_are_where_the_designers_draw_them() {
        assert_eq!(Square::parse("e1").unwrap().xy(), (1, 1));
        assert_eq!(Square::parse("a5").unwrap().xy(), (1, 9));
        assert_eq!(Square::parse("e9").unwrap().xy(), (9, 9));
        assert_eq!(Square::parse("i5").unwrap().xy(), (9, 1));
    }

    #[test]
    fn r1_adjacent_squares_share_a_line_and_differ_by_one() {
        for s in Square::all() {
            let (l, n) = s.letter_number();
            let mut count = 0;
            for d in Direction::ALL {
                if let Some(t) = s.neighbour(d) {
                    count += 1;
                    let (l2, n2) = t.letter_number();
                    assert_eq!(
                        (l as i32 - l2 as i32).abs() + (n as i32 - n2 as i32).abs(),
                        1
                    );
                    assert_eq!(t.neighbour(d.opposite()), Some(s));
                }
            }
            let expected = [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .filter(|(dl, dn)| {
                    Square::from_letter_number((l as i32 + dl) as u8, (n as i32 + dn) as u8)
                        .is_some()
                })
                .count();
            assert_eq!(count, expected, "{s}");
        }
    }
}
