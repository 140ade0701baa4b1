//! Geometry of the 41 squares (R1): square names and directions.
//!
//! Squares are numbered row by row over the dark squares of a 9×9 checkerboard (rank 1 first,
//! files in order within a rank: 5 squares on odd ranks, 4 on even ranks). A diagonal step is then
//! +5, +4, −4 or −5, so a set of squares is a [`Bitboard`] moved by shifts; only files 1 and 9 need
//! masks.

use crate::bitboard::Bitboard;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Number of squares on the board.
pub const SQUARE_COUNT: usize = 41;

/// One of the 41 squares, by its index in rank order (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// A diagonal direction. `dir.opposite()` is the 180° turn (R7.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Checkerboard up-right: the number grows (`e4` → `e5`).
    NumberUp = 0,
    /// Checkerboard up-left: the letter falls (`e5` → `d5`).
    LetterDown = 1,
    /// Checkerboard down-right: the letter grows (`e5` → `f5`).
    LetterUp = 2,
    /// Checkerboard down-left: the number falls (`e5` → `e4`).
    NumberDown = 3,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::NumberUp,
        Direction::LetterDown,
        Direction::LetterUp,
        Direction::NumberDown,
    ];

    /// The direction for a 2-bit code.
    #[inline]
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i & 3]
    }

    /// The 2-bit code of this direction.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The reverse direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::ALL[3 - self as usize]
    }
}

/// `(file, rank)` of each square, both 1..=9.
pub(crate) const SQUARE_XY: [(u8, u8); SQUARE_COUNT] = {
    let mut xy = [(0u8, 0u8); SQUARE_COUNT];
    let mut i = 0;
    let mut y = 1u8;
    while y <= 9 {
        let mut x = 1u8;
        while x <= 9 {
            if (x + y).is_multiple_of(2) {
                xy[i] = (x, y);
                i += 1;
            }
            x += 1;
        }
        y += 1;
    }
    xy
};

const NEIGHBOURS: [[u8; 4]; SQUARE_COUNT] = {
    let mut table = [[NONE; 4]; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let mut d = 0;
        while d < 4 {
            let bb = Bitboard(1u64 << s).shift(Direction::ALL[d]).0;
            if bb != 0 {
                table[s][d] = bb.trailing_zeros() as u8;
            }
            d += 1;
        }
        s += 1;
    }
    table
};
const NONE: u8 = u8::MAX;

impl Square {
    /// The centre, `e5` (R9.3).
    pub const E5: Square = Square(20);

    /// The square with this index (0..41).
    #[inline]
    pub const fn new(index: usize) -> Option<Square> {
        if index < SQUARE_COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with this index, which the caller guarantees is below 41.
    ///
    /// # Panics
    /// In debug builds, when `index >= 41`.
    #[inline]
    pub const fn new_unchecked(index: usize) -> Square {
        debug_assert!(index < SQUARE_COUNT);
        Square(index as u8)
    }

    /// Index 0..41 in rank order.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// This square as a one-square set.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        Bitboard::from_square(self)
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARE_COUNT).map(Square::new_unchecked)
    }

    /// Checkerboard file and rank, both 1..=9 (file 1 on the left, rank 1 at the bottom).
    pub const fn xy(self) -> (u8, u8) {
        SQUARE_XY[self.0 as usize]
    }

    /// The square at checkerboard file `x`, rank `y`, if it is one of the 41.
    pub fn from_xy(x: u8, y: u8) -> Option<Square> {
        Square::all().find(|s| s.xy() == (x, y))
    }

    /// Letter line 0..=8 (`a`..`i`) and number line 1..=9 (R1).
    pub const fn letter_number(self) -> (u8, u8) {
        let (x, y) = self.xy();
        ((x + 8 - y) / 2, (x + y) / 2)
    }

    /// The square named by letter line `l` (0 = `a`) and number `n`, if it exists:
    /// `|l − 4| + |n − 5| ≤ 4` (R1).
    pub fn from_letter_number(l: u8, n: u8) -> Option<Square> {
        if l > 8 || !(1..=9).contains(&n) || (l as i32 - 4).abs() + (n as i32 - 5).abs() > 4 {
            return None;
        }
        let x = n + l - 4;
        let y = n + 4 - l;
        Square::from_xy(x, y)
    }

    /// The neighbour in direction `dir`, if it is on the board.
    #[inline(always)]
    pub fn neighbour(self, dir: Direction) -> Option<Square> {
        let n = NEIGHBOURS[self.0 as usize][dir as usize];
        if n == NONE {
            None
        } else {
            Some(Square(n))
        }
    }

    /// Parses a square name such as `e5` (case-insensitive).
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        let number = chars.next()?;
        if chars.next().is_some() || !('a'..='i').contains(&letter) {
            return None;
        }
        let n = number.to_digit(10)? as u8;
        Square::from_letter_number(letter as u8 - b'a', n)
    }

    /// The two-character name of this square.
    pub fn name(self) -> [u8; 2] {
        let (l, n) = self.letter_number();
        [b'a' + l, b'0' + n]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [l, n] = self.name();
        write!(f, "{}{}", l as char, n as char)
    }
}

/// A square name that names no square of the board (R1).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "unknown square `{0}` (squares are a5, b4-b6, c3-c7, d2-d8, e1-e9, f2-f8, g3-g7, h4-h6, i5)"
)]
pub struct SquareError(pub String);

/// Reads a square name such as `e5` (either case).
impl FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Square, SquareError> {
        Square::parse(s).ok_or_else(|| SquareError(s.to_string()))
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
