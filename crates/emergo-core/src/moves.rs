//! The compact move (R4): an entry, a step, or a capture carrying its whole path.
//!
//! A capture is stored as its start square and the direction of every jump, two bits each on the
//! square boards (a base-6 digit each on the hexagon: 6^12 < 2^32), so a move is small and
//! `Copy`. Its landing squares follow from the directions (R7.4: a capture is identified by its
//! start and every landing square).

use crate::bitboard::Bitboard;
use crate::board::{Direction, Square};
use crate::variant::{Emergo, Variant};
use std::fmt;

/// The most jumps one capture can make: each jump takes one of the opponent's 12 men (R6, R7).
pub const MAX_JUMPS: usize = 12;

/// Powers of 6: the place of each jump's direction in a hexagon's capture path.
const POW6: [u32; MAX_JUMPS] = {
    let mut p = [1u32; MAX_JUMPS];
    let mut i = 1;
    while i < MAX_JUMPS {
        p[i] = p[i - 1] * 6;
        i += 1;
    }
    p
};

/// One move on the board `V`. Its notation (N1) is its `Display`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub enum Move<V = Emergo> {
    /// Men enter from the hand onto an empty square: one man, or the whole hand as the
    /// shadowpiece (R9). How many follows from the position.
    Enter(Square<V>),
    /// A whole column steps to an adjacent empty square (R8).
    Step {
        /// The square the column leaves.
        from: Square<V>,
        /// The empty square it moves to.
        to: Square<V>,
    },
    /// One or more jumps by the column on `from` (R6, R7).
    Capture(CapturePath<V>),
}

/// The route of a capture: the start square and the direction of each jump.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct CapturePath<V = Emergo> {
    from: Square<V>,
    len: u8,
    dirs: u32,
}

impl<V: Variant> CapturePath<V> {
    /// A capture path with no jumps yet.
    #[inline]
    pub(crate) const fn new(from: Square<V>) -> CapturePath<V> {
        CapturePath {
            from,
            len: 0,
            dirs: 0,
        }
    }

    /// The same path with one more jump.
    #[inline]
    pub(crate) fn push(self, dir: Direction) -> CapturePath<V> {
        debug_assert!((self.len as usize) < MAX_JUMPS);
        let code = dir as u32;
        let dirs = if const { V::GEOMETRY.directions.len() == 4 } {
            self.dirs | (code << (2 * self.len))
        } else {
            self.dirs + code * POW6[self.len as usize % POW6.len()]
        };
        CapturePath {
            from: self.from,
            len: self.len + 1,
            dirs,
        }
    }

    /// The direction of jump `i`.
    #[inline(always)]
    fn direction(&self, i: u8) -> Direction {
        if const { V::GEOMETRY.directions.len() == 4 } {
            Direction::from_index((self.dirs >> (2 * i)) as usize & 3)
        } else {
            Direction::from_index((self.dirs / POW6[i as usize % POW6.len()]) as usize % 6)
        }
    }

    /// A path from `from` with the given jump directions, if it stays on the board and has at
    /// most [`MAX_JUMPS`] jumps. Whether it is legal is for the move generator to say.
    pub fn from_directions(from: Square<V>, dirs: &[Direction]) -> Option<CapturePath<V>> {
        if dirs.is_empty() || dirs.len() > MAX_JUMPS {
            return None;
        }
        let mut at = from;
        let mut path = CapturePath::new(from);
        for &d in dirs {
            if !V::GEOMETRY.directions.contains(&d) {
                return None;
            }
            at = at.neighbour(d)?.neighbour(d)?;
            path = path.push(d);
        }
        Some(path)
    }

    /// The square the capturing column starts on.
    #[inline]
    pub fn from(&self) -> Square<V> {
        self.from
    }

    /// The number of jumps, which is the number of men taken (R7.3).
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false for a generated capture; present for symmetry with `len`.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The direction of each jump in order.
    pub fn directions(&self) -> impl Iterator<Item = Direction> + '_ {
        (0..self.len).map(move |i| self.direction(i))
    }

    /// `(jumped square, landing square)` of each jump in order.
    pub fn jumps(&self) -> impl Iterator<Item = (Square<V>, Square<V>)> + '_ {
        self.jump_indices()
            .map(|(over, land)| (Square::new_unchecked(over), Square::new_unchecked(land)))
    }

    /// The cell numbers `(jumped, landing)` of each jump in order. A step in one direction adds
    /// the same amount to every cell number ([`Bitboard::step_by`]), and a path stays on the
    /// board (the generator and [`CapturePath::from_directions`] make no other), so each is one
    /// addition.
    #[inline]
    pub(crate) fn jump_indices(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut at = self.from.index();
        self.directions().map(move |d| {
            let by = Bitboard::<V>::step_by(d);
            let over = at.wrapping_add_signed(by);
            at = over.wrapping_add_signed(by);
            (over, at)
        })
    }

    /// The landing squares in order.
    pub fn landings(&self) -> impl Iterator<Item = Square<V>> + '_ {
        self.jumps().map(|(_, land)| land)
    }

    /// The square the column ends on.
    pub fn to(&self) -> Square<V> {
        let to = self.directions().fold(self.from.index(), |at, d| {
            at.wrapping_add_signed(2 * Bitboard::<V>::step_by(d))
        });
        Square::new_unchecked(to)
    }
}

impl<V: Variant> Move<V> {
    /// The square a man or column leaves, if any (an entry has none).
    pub fn from(&self) -> Option<Square<V>> {
        match *self {
            Move::Enter(_) => None,
            Move::Step { from, .. } => Some(from),
            Move::Capture(path) => Some(path.from()),
        }
    }

    /// The square where the moved or entered column ends.
    pub fn to(&self) -> Square<V> {
        match *self {
            Move::Enter(s) => s,
            Move::Step { to, .. } => to,
            Move::Capture(path) => path.to(),
        }
    }

    /// Whether this is a capture.
    pub fn is_capture(&self) -> bool {
        matches!(self, Move::Capture(_))
    }

    /// The number of men this move takes (0 unless a capture).
    pub fn captures(&self) -> usize {
        match self {
            Move::Capture(p) => p.len(),
            _ => 0,
        }
    }
}

impl<V: Variant> fmt::Display for Move<V> {
    /// Notation N1: `e5`, `e4-e5`, `e4xc4xc6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Enter(s) => write!(f, "{s}"),
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::Capture(path) => {
                write!(f, "{}", path.from())?;
                for land in path.landings() {
                    write!(f, "x{land}")?;
                }
                Ok(())
            }
        }
    }
}

impl<V: Variant> fmt::Debug for Move<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
