//! A set of cells as a board of up to 64 bits (see the implementation note of `RULES.md` and
//! [`crate::variant`]): set operations, one-step shifts in the board's directions (R1), iteration
//! and a drawing for debugging.

use crate::board::Square;
use crate::variant::Direction;
use crate::variant::{Emergo, Variant};
use std::fmt;
use std::marker::PhantomData;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of cells of the board `V`: bit `i` stands for the cell with number `i` (rank order on
/// the square boards, R1).
pub struct Bitboard<V = Emergo>(pub u64, PhantomData<V>);

impl<V> Clone for Bitboard<V> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<V> Copy for Bitboard<V> {}
impl<V> PartialEq for Bitboard<V> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<V> Eq for Bitboard<V> {}
impl<V> std::hash::Hash for Bitboard<V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}
impl<V> Default for Bitboard<V> {
    fn default() -> Self {
        Bitboard(0, PhantomData)
    }
}
impl<V> PartialOrd for Bitboard<V> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<V> Ord for Bitboard<V> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl<V: Variant> Bitboard<V> {
    /// No cell.
    pub const EMPTY: Bitboard<V> = Bitboard(0, PhantomData);
    /// Every cell of the board.
    pub const ALL: Bitboard<V> = Bitboard(V::GEOMETRY.all, PhantomData);

    /// The set whose bits are `bits` (bits that name no cell are the caller's to avoid).
    #[inline(always)]
    pub const fn from_bits(bits: u64) -> Bitboard<V> {
        Bitboard(bits, PhantomData)
    }

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square<V>) -> Bitboard<V> {
        Bitboard(1u64 << sq.index(), PhantomData)
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square<V>) -> bool {
        self.0 & (1u64 << sq.index()) != 0
    }

    /// Whether the set has no cell.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of cells in the set.
    #[inline(always)]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The cell of lowest number, if any.
    #[inline]
    pub const fn first(self) -> Option<Square<V>> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as usize))
        }
    }

    /// The cells one step away from the set in direction `dir` (those on the board; none for a
    /// direction the board does not have). One mask and one shift: each direction moves every
    /// cell number by the same amount ([`crate::variant::Geometry`] checks it).
    #[inline(always)]
    pub const fn shift(self, dir: Direction) -> Bitboard<V> {
        // Each arm's mask and amount are constants of the board (inline `const` blocks), so a
        // shift in a known direction is one AND and one shift, as it was before the variants.
        let bb = self.0;
        Bitboard(
            match dir {
                Direction::NumberUp => step(
                    bb & const { V::GEOMETRY.shift_mask[0] },
                    const { V::GEOMETRY.shift_by[0] },
                ),
                Direction::LetterDown => step(
                    bb & const { V::GEOMETRY.shift_mask[1] },
                    const { V::GEOMETRY.shift_by[1] },
                ),
                Direction::LetterUp => step(
                    bb & const { V::GEOMETRY.shift_mask[2] },
                    const { V::GEOMETRY.shift_by[2] },
                ),
                Direction::NumberDown => step(
                    bb & const { V::GEOMETRY.shift_mask[3] },
                    const { V::GEOMETRY.shift_by[3] },
                ),
                Direction::BothUp => step(
                    bb & const { V::GEOMETRY.shift_mask[4] },
                    const { V::GEOMETRY.shift_by[4] },
                ),
                Direction::BothDown => step(
                    bb & const { V::GEOMETRY.shift_mask[5] },
                    const { V::GEOMETRY.shift_by[5] },
                ),
            },
            PhantomData,
        )
    }

    /// How far a step in `dir` moves a cell's number (0 for a direction the board does not
    /// have): the cell one step from `sq` is number `sq + step_by(dir)`, when there is one.
    #[inline(always)]
    pub(crate) const fn step_by(dir: Direction) -> isize {
        (match dir {
            Direction::NumberUp => const { V::GEOMETRY.shift_by[0] },
            Direction::LetterDown => const { V::GEOMETRY.shift_by[1] },
            Direction::LetterUp => const { V::GEOMETRY.shift_by[2] },
            Direction::NumberDown => const { V::GEOMETRY.shift_by[3] },
            Direction::BothUp => const { V::GEOMETRY.shift_by[4] },
            Direction::BothDown => const { V::GEOMETRY.shift_by[5] },
        }) as isize
    }

    /// The cells of the set, lowest number first.
    #[inline]
    pub const fn iter(self) -> Squares<V> {
        Squares(self.0, PhantomData)
    }
}

/// Shifts left by `by` when positive, right by `-by` otherwise.
#[inline(always)]
const fn step(bits: u64, by: i8) -> u64 {
    if by >= 0 {
        bits << by
    } else {
        bits >> -by
    }
}

impl<V: Variant> BitAnd for Bitboard<V> {
    type Output = Bitboard<V>;
    #[inline(always)]
    fn bitand(self, rhs: Bitboard<V>) -> Bitboard<V> {
        Bitboard::from_bits(self.0 & rhs.0)
    }
}

impl<V: Variant> BitOr for Bitboard<V> {
    type Output = Bitboard<V>;
    #[inline(always)]
    fn bitor(self, rhs: Bitboard<V>) -> Bitboard<V> {
        Bitboard::from_bits(self.0 | rhs.0)
    }
}

impl<V: Variant> BitXor for Bitboard<V> {
    type Output = Bitboard<V>;
    #[inline(always)]
    fn bitxor(self, rhs: Bitboard<V>) -> Bitboard<V> {
        Bitboard::from_bits(self.0 ^ rhs.0)
    }
}

/// The squares of the board not in the set.
impl<V: Variant> Not for Bitboard<V> {
    type Output = Bitboard<V>;
    #[inline(always)]
    fn not(self) -> Bitboard<V> {
        Bitboard::from_bits(!self.0 & const { V::GEOMETRY.all })
    }
}

/// The squares of the left set not in the right one.
impl<V: Variant> Sub for Bitboard<V> {
    type Output = Bitboard<V>;
    #[inline(always)]
    fn sub(self, rhs: Bitboard<V>) -> Bitboard<V> {
        Bitboard::from_bits(self.0 & !rhs.0)
    }
}

impl<V: Variant> BitAndAssign for Bitboard<V> {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bitboard<V>) {
        self.0 &= rhs.0;
    }
}

impl<V: Variant> BitOrAssign for Bitboard<V> {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard<V>) {
        self.0 |= rhs.0;
    }
}

impl<V: Variant> BitXorAssign for Bitboard<V> {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Bitboard<V>) {
        self.0 ^= rhs.0;
    }
}

// A cell's own set operations live here, beside the set: the board module (the cells) knows
// nothing of sets, so the two do not import each other.
impl<V: Variant> Square<V> {
    /// This cell as a one-cell set.
    #[inline(always)]
    pub const fn bit(self) -> Bitboard<V> {
        Bitboard::from_square(self)
    }

    /// Every cell, in number order.
    pub fn all() -> impl Iterator<Item = Square<V>> {
        Bitboard::<V>::ALL.into_iter()
    }
}

impl<V: Variant> From<Square<V>> for Bitboard<V> {
    #[inline]
    fn from(sq: Square<V>) -> Bitboard<V> {
        Bitboard::from_square(sq)
    }
}

impl<V: Variant> FromIterator<Square<V>> for Bitboard<V> {
    fn from_iter<I: IntoIterator<Item = Square<V>>>(iter: I) -> Bitboard<V> {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |bb, sq| bb | Bitboard::from(sq))
    }
}

impl<V: Variant> IntoIterator for Bitboard<V> {
    type Item = Square<V>;
    type IntoIter = Squares<V>;
    #[inline]
    fn into_iter(self) -> Squares<V> {
        self.iter()
    }
}

/// Drawn as the checkerboard of R1 (top rank first) on the square boards: `X` for a square in
/// the set, `.` for a dark square not in it, a space for a light square. The hexagon is drawn
/// row by row, row 7 first, letters from right to left, indented to its shape.
impl<V: Variant> fmt::Display for Bitboard<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = V::GEOMETRY.width;
        if width == 0 {
            for n in (1..=7u8).rev() {
                let cells: Vec<Square<V>> = (0..7u8)
                    .rev()
                    .filter_map(|l| Square::from_letter_number(l, n))
                    .collect();
                let indent = " ".repeat(7 - cells.len());
                let row: Vec<&str> = cells
                    .iter()
                    .map(|&sq| if self.contains(sq) { "X" } else { "." })
                    .collect();
                writeln!(f, "{indent}{}", row.join(" "))?;
            }
            return Ok(());
        }
        for y in (1..=width).rev() {
            let row: String = (1..=width)
                .map(|x| match Square::<V>::from_xy(x, y) {
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

/// Listed as cell names: `Bitboard{e1, e5}`.
impl<V: Variant> fmt::Debug for Bitboard<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bitboard")?;
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The cells of a [`Bitboard`], lowest number first.
pub struct Squares<V = Emergo>(u64, PhantomData<V>);

impl<V> Clone for Squares<V> {
    fn clone(&self) -> Self {
        Squares(self.0, PhantomData)
    }
}

impl<V> fmt::Debug for Squares<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Squares({:#x})", self.0)
    }
}

impl<V: Variant> Iterator for Squares<V> {
    type Item = Square<V>;
    #[inline]
    fn next(&mut self) -> Option<Square<V>> {
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

impl<V: Variant> ExactSizeIterator for Squares<V> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bitboard, Square};

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
