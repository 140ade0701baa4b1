//! A set of squares as a 41-bit board (see the implementation note of `RULES.md`): set operations,
//! one-step shifts in the four diagonal directions (R1), iteration and a drawing for debugging.

use crate::board::{Direction, Square, SQUARE_COUNT, SQUARE_XY};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares: bit `i` stands for the square with index `i` (rank order, R1).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

const fn file_mask(file: u8) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < SQUARE_COUNT {
        if SQUARE_XY[i].0 == file {
            mask |= 1u64 << i;
        }
        i += 1;
    }
    mask
}

const ALL_BITS: u64 = (1u64 << SQUARE_COUNT) - 1;
const FILE_1: u64 = file_mask(1);
const FILE_9: u64 = file_mask(9);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 41 squares.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1u64 << sq.index()) != 0
    }

    /// Whether the set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The square of lowest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as usize))
        }
    }

    /// The squares one step away from the set in direction `dir` (those on the board).
    #[inline(always)]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let bb = self.0;
        Bitboard(match dir {
            Direction::NumberUp => ((bb & !FILE_9) << 5) & ALL_BITS,
            Direction::LetterDown => ((bb & !FILE_1) << 4) & ALL_BITS,
            Direction::LetterUp => (bb & !FILE_9) >> 4,
            Direction::NumberDown => (bb & !FILE_1) >> 5,
        })
    }

    /// The squares of the set, lowest index first.
    #[inline]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

/// The squares of the board not in the set.
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

/// The squares of the left set not in the right one.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |bb, sq| bb | Bitboard::from(sq))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline]
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

/// Drawn as the 9×9 checkerboard of R1 (rank 9 on top): `X` for a square in the set, `.` for a
/// dark square not in it, a space for a light square.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (1..=9u8).rev() {
            let row: String = (1..=9u8)
                .map(|x| match Square::from_xy(x, y) {
                    None => ' ',
                    Some(sq) if self.contains(sq) => 'X',
                    Some(_) => '.',
                })
                .collect();
            writeln!(f, "{}", row.trim_end())?;
        }
        Ok(())
    }
}

/// Listed as square names: `Bitboard{e1, e5}`.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bitboard")?;
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let s = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::new_unchecked(s))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r1_set_operations_stay_on_the_41_squares() {
        assert_eq!((!Bitboard::EMPTY), Bitboard::ALL);
        assert_eq!(Bitboard::ALL.len(), 41);
        let e5 = Bitboard::from(Square::E5);
        assert_eq!((!e5).len(), 40);
        assert_eq!(Bitboard::ALL - e5, !e5);
        let all: Bitboard = Square::all().collect();
        assert_eq!(all, Bitboard::ALL);
        assert_eq!(all.iter().count(), 41);
        assert_eq!(e5.first(), Some(Square::E5));
        assert_eq!(format!("{e5:?}"), "Bitboard{e5}");
    }

    #[test]
    fn r1_a_shift_moves_every_square_to_its_neighbour() {
        for sq in Square::all() {
            for dir in Direction::ALL {
                let shifted = Bitboard::from(sq).shift(dir);
                assert_eq!(shifted.first(), sq.neighbour(dir), "{sq} {dir:?}");
                assert!(shifted.len() <= 1);
            }
        }
    }

    #[test]
    fn display_draws_the_checkerboard_with_the_centre_in_the_middle() {
        let text = Bitboard::from(Square::E5).to_string();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows.len(), 9);
        assert_eq!(rows[4], ". . X . .");
        assert_eq!(rows[0], ". . . . .");
        assert_eq!(rows[1], " . . . .");
    }
}
