//! The board as a parameter of the rules: the three boards Emergo is played on (RULES.md R1,
//! RULES-7x7.md R1, RULES-hex.md R1) and the one description of each that the rules read.
//!
//! A board is a [`Variant`]: a marker type whose associated [`Geometry`] lists its cells, their
//! names, the directions of a step, the neighbour table, the centre and the men per side, all
//! computed at compile time. Every rule (R5–R10) is written once, generic over the variant, and
//! reads only this geometry; the compiler makes one copy of the generator per board
//! (monomorphisation), in which the tables are constants.
//!
//! Why a type parameter and not a geometry chosen at run time: the square 9×9 game must not get
//! slower. With the board a type, its generator is the same machine code it was before the
//! variants existed (shifts by constants, constant masks, the tables' addresses known); a board
//! read at run time would add a load and a branch to every shift and every neighbour. A
//! position, a move and a square carry their board in their type, so a hex move cannot be played
//! on a square board by mistake. Faces that choose the board at run time (a command's
//! `--variant`, a record's `[Variant]` tag) name it with [`VariantKind`] and dispatch once with
//! [`with_variant!`](crate::with_variant).
//!
//! All three boards fit in 64 bits. The square boards number their dark squares row by row (the
//! implementation note of RULES.md), so a diagonal step is a shift by `w/2` or `w/2 + 1`. The
//! hexagon numbers its cells `(N − 1) · 8 + L` (letter `L`, row `N`): a step is a shift by 1, 8 or
//! 9 in every row, and the 18 numbers below 55 that name no cell are never set.
//!
//! ## The square board's speed, before and after
//!
//! Instruction counts of the same release build of `examples/perf.rs` at the last commit before
//! the variants and with them, run one after the other (instruction counts do not depend on the
//! machine's load):
//!
//! | run | before | after | change |
//! |---|---|---|---|
//! | `perf perft 5` (59,056,880) | 698,000,716 | 694,758,592 | −0.46% |
//! | `perf perft 6` (1,722,079,436) | 23,228,197,237 | 23,181,412,742 | −0.20% |
//! | `perf random 2000` (237,375 plies) | 178,785,754 | 178,608,370 | −0.10% |
//!
//! ```text
//! cargo build --release -p emergo-core --example perf
//! valgrind --tool=callgrind target/release/examples/perf perft 5    # and perft 6, random 2000
//! ```
//!
//! The search's bench signature is unchanged: `emergo bench --quiet` gives 25,769,034 nodes.
//!
//! Perft from each start and random games, the same release build, one thread, the machine at a
//! load average of 7–8 on 2 cores (so the times are long ones):
//!
//! | board | perft | time | random games | games/s |
//! |---|---|---|---|---|
//! | Emergo 9×9 | 6: 1,722,079,436 | 5.0 s | 20,000 (117 plies each) | 40,100 |
//! | HexEmergo | 6: 577,350,282 | 3.3 s | 20,000 (101 plies each) | 32,900 |
//! | Emergo 7×7 | 7: 737,716,572 | 4.9 s | 20,000 (55 plies each) | 85,600 |
//!
//! ```text
//! target/release/examples/perf perft 6 hex      # perft 7 7x7, random 20000 hex, ...
//! ```
//! (A first version read each shift's mask and amount from the table at run time and looped
//! over a slice of directions: perft 5 took 18% more instructions. The shifts are now inline
//! `const` blocks and the loops run over [`Variant::DIRECTIONS`], a constant array.)

use std::fmt;
use std::hash::Hash;
use std::ops::{Index, IndexMut};
use std::str::FromStr;
use thiserror::Error;

/// The most cell numbers any board uses (the hexagon's 55 fit, as do the 41 squares).
pub const MAX_SLOTS: usize = 64;

/// `u8::MAX`: no cell.
pub(crate) const NONE: u8 = u8::MAX;

mod sealed {
    pub trait Sealed {}
}

/// Per-cell storage of a position: an array of one byte per cell number of the board.
pub trait Cells:
    Copy + Eq + Hash + fmt::Debug + Index<usize, Output = u8> + IndexMut<usize> + Send + Sync + 'static
{
    /// Every cell 0.
    const ZERO: Self;
}

impl<const N: usize> Cells for [u8; N] {
    const ZERO: Self = [0; N];
}

/// One of the boards: a marker type naming its [`Geometry`]. Implemented by [`Emergo`] (the
/// square 9×9 board of RULES.md), [`Emergo7x7`] and [`HexEmergo`]; sealed.
pub trait Variant:
    sealed::Sealed
    + Copy
    + Clone
    + fmt::Debug
    + Default
    + PartialEq
    + Eq
    + Hash
    + PartialOrd
    + Ord
    + Send
    + Sync
    + 'static
{
    /// Which board this is, as a value.
    const KIND: VariantKind;
    /// The board's cells, names, directions and tables.
    const GEOMETRY: &'static Geometry;
    /// One byte per cell number (`[u8; slots]`).
    type Cells: Cells;
    /// The step directions as an array (`[Direction; 4]` or `[Direction; 6]`): a loop over it is
    /// a loop over a constant array, which the compiler unrolls.
    type Directions: Copy + IntoIterator<Item = Direction> + AsRef<[Direction]>;
    /// The step directions, in the generator's order (the same as `GEOMETRY`'s).
    const DIRECTIONS: Self::Directions;
}

/// Emergo on the 41 dark squares of a 9×9 checkerboard, 12 men a side (RULES.md). The default
/// board everywhere.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Emergo;

/// Emergo 7×7: the 25 dark squares of a 7×7 checkerboard, 8 men a side (RULES-7x7.md).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Emergo7x7;

/// HexEmergo: a hexagon of 37 cells, six directions, 12 men a side (RULES-hex.md).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexEmergo;

impl sealed::Sealed for Emergo {}
impl sealed::Sealed for Emergo7x7 {}
impl sealed::Sealed for HexEmergo {}

const SQUARE_9: Geometry = Geometry::square(9, 12, "Emergo");
const SQUARE_7: Geometry = Geometry::square(7, 8, "Emergo 7x7");
const HEX: Geometry = Geometry::hex();

impl Variant for Emergo {
    const KIND: VariantKind = VariantKind::Emergo;
    const GEOMETRY: &'static Geometry = &SQUARE_9;
    type Cells = [u8; 41];
    type Directions = [Direction; 4];
    const DIRECTIONS: [Direction; 4] = Direction::ALL;
}

impl Variant for Emergo7x7 {
    const KIND: VariantKind = VariantKind::Emergo7x7;
    const GEOMETRY: &'static Geometry = &SQUARE_7;
    type Cells = [u8; 25];
    type Directions = [Direction; 4];
    const DIRECTIONS: [Direction; 4] = Direction::ALL;
}

impl Variant for HexEmergo {
    const KIND: VariantKind = VariantKind::HexEmergo;
    const GEOMETRY: &'static Geometry = &HEX;
    type Cells = [u8; 55];
    type Directions = [Direction; 6];
    const DIRECTIONS: [Direction; 6] = Direction::HEX;
}

/// A board's description, computed at compile time from its R1: which cell numbers are cells,
/// their letter and number, the step directions, each cell's neighbours, and the shift that
/// moves a set of cells one step in each direction.
#[derive(Debug)]
pub struct Geometry {
    /// The record tag's value (`Emergo`, `Emergo 7x7`, `HexEmergo`).
    pub(crate) name: &'static str,
    /// Men per side (R2).
    pub(crate) men: u8,
    /// Cell numbers in use: every cell number is below this.
    pub(crate) slots: usize,
    /// The cells as bits.
    pub(crate) all: u64,
    /// The centre (R9.3).
    pub(crate) centre: u8,
    /// The step directions, in the order the generator tries them.
    pub(crate) directions: &'static [Direction],
    /// Letter line (0 = `a`) and number of each cell number; `(NONE, NONE)` for none.
    pub(crate) lines: [(u8, u8); MAX_SLOTS],
    /// Neighbour of each cell in each [`Direction`] (by its code), `NONE` where there is none.
    pub(crate) neighbours: [[u8; 8]; MAX_SLOTS],
    /// A step in each direction: the cells that have a neighbour there, and the shift (left
    /// when positive) that takes each to it.
    pub(crate) shift_mask: [u64; 6],
    pub(crate) shift_by: [i8; 6],
    /// Checkerboard file and rank of each square (square boards; `(0, 0)` on the hexagon).
    pub(crate) xy: [(u8, u8); MAX_SLOTS],
    /// The checkerboard's width (9 or 7); 0 for the hexagon.
    pub(crate) width: u8,
    /// The cells in byte order of their names (N2), then `NONE`.
    pub(crate) by_name: [u8; MAX_SLOTS],
    /// The cells' names, for error messages: in full, and in short.
    pub(crate) names_text: &'static str,
    pub(crate) names_short: &'static str,
}

const SQUARE_DIRECTIONS: &[Direction] = &Direction::ALL;
const HEX_DIRECTIONS: &[Direction] = &Direction::HEX;

impl Geometry {
    const EMPTY: Geometry = Geometry {
        name: "",
        men: 0,
        slots: 0,
        all: 0,
        centre: NONE,
        directions: SQUARE_DIRECTIONS,
        lines: [(NONE, NONE); MAX_SLOTS],
        neighbours: [[NONE; 8]; MAX_SLOTS],
        shift_mask: [0; 6],
        shift_by: [0; 6],
        xy: [(0, 0); MAX_SLOTS],
        width: 0,
        by_name: [NONE; MAX_SLOTS],
        names_text: "",
        names_short: "",
    };

    /// The dark squares of a `width × width` checkerboard with dark corners, numbered row by row
    /// (rank 1 first): `L = (x − y)/2 + h`, `N = (x + y)/2`, `h = width / 2`.
    const fn square(width: u8, men: u8, name: &'static str) -> Geometry {
        let mut g = Geometry::EMPTY;
        g.name = name;
        g.men = men;
        g.width = width;
        (g.names_text, g.names_short) = if width == 9 {
            (
                "a5, b4-b6, c3-c7, d2-d8, e1-e9, f2-f8, g3-g7, h4-h6, i5",
                "a5, b4..b6, ..., e1..e9, ..., i5",
            )
        } else {
            (
                "a4, b3-b5, c2-c6, d1-d7, e2-e6, f3-f5, g4",
                "a4, b3..b5, ..., d1..d7, ..., g4",
            )
        };
        let h = width / 2;
        let mut i = 0usize;
        let mut y = 1u8;
        while y <= width {
            let mut x = 1u8;
            while x <= width {
                if (x + y).is_multiple_of(2) {
                    g.xy[i] = (x, y);
                    g.lines[i] = ((x + 2 * h - y) / 2, (x + y) / 2);
                    if g.lines[i].0 == h && g.lines[i].1 == h + 1 {
                        g.centre = i as u8;
                    }
                    i += 1;
                }
                x += 1;
            }
            y += 1;
        }
        g.slots = i;
        g.all = (1u64 << i) - 1;
        g.directions = SQUARE_DIRECTIONS;
        g.finish()
    }

    /// The hexagon of RULES-hex.md R1: cell `(L, N)` has number `(N − 1) · 8 + L`.
    const fn hex() -> Geometry {
        let mut g = Geometry::EMPTY;
        g.name = "HexEmergo";
        g.men = 12;
        g.names_text = "a1-a4, b1-b5, c1-c6, d1-d7, e2-e7, f3-f7, g4-g7";
        g.names_short = "a1..a4, b1..b5, ..., d1..d7, ..., g4..g7";
        let mut n = 1u8;
        while n <= 7 {
            let mut l = 0u8;
            while l <= 6 {
                let d = l as i32 - n as i32 + 1;
                if d >= -3 && d <= 3 {
                    let s = (n as usize - 1) * 8 + l as usize;
                    g.lines[s] = (l, n);
                    g.all |= 1u64 << s;
                    if s + 1 > g.slots {
                        g.slots = s + 1;
                    }
                }
                l += 1;
            }
            n += 1;
        }
        g.centre = 3 * 8 + 3;
        g.directions = HEX_DIRECTIONS;
        g.finish()
    }

    /// The cell named by letter line `l` and number `n`, if there is one.
    const fn find(&self, l: i32, n: i32) -> u8 {
        let mut s = 0;
        while s < self.slots {
            if self.lines[s].0 as i32 == l && self.lines[s].1 as i32 == n {
                return s as u8;
            }
            s += 1;
        }
        NONE
    }

    /// Neighbours, shifts (checked to be one shift per direction) and the name order.
    const fn finish(mut self) -> Geometry {
        let mut k = 0;
        while k < self.directions.len() {
            let dir = self.directions[k];
            let (dl, dn) = dir.delta();
            let code = dir.index();
            let mut s = 0;
            while s < self.slots {
                if self.lines[s].0 != NONE {
                    let t = self.find(
                        self.lines[s].0 as i32 + dl as i32,
                        self.lines[s].1 as i32 + dn as i32,
                    );
                    if t != NONE {
                        self.neighbours[s][code] = t;
                        let by = t as i32 - s as i32;
                        if self.shift_mask[code] == 0 {
                            self.shift_by[code] = by as i8;
                        } else if self.shift_by[code] as i32 != by {
                            panic!("a direction is not one shift on this board");
                        }
                        self.shift_mask[code] |= 1u64 << s;
                    }
                }
                s += 1;
            }
            k += 1;
        }
        // The cells in byte order of their names: letters first, then numbers.
        let mut count = 0;
        let mut l = 0u8;
        while l < 26 {
            let mut n = 1u8;
            while n <= 9 {
                let s = self.find(l as i32, n as i32);
                if s != NONE {
                    self.by_name[count] = s;
                    count += 1;
                }
                n += 1;
            }
            l += 1;
        }
        self
    }
}

/// A board named at run time: what a command's `--variant` or a record's `[Variant]` tag says.
/// Its [`Display`](fmt::Display) and [`FromStr`] text is the short name (`emergo`, `7x7`,
/// `hex`); [`VariantKind::tag`] is the record tag's value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VariantKind {
    /// [`Emergo`], the square 9×9 board.
    #[default]
    Emergo,
    /// [`Emergo7x7`].
    Emergo7x7,
    /// [`HexEmergo`].
    HexEmergo,
}

impl VariantKind {
    /// The three boards.
    pub const ALL: [VariantKind; 3] = [
        VariantKind::Emergo,
        VariantKind::Emergo7x7,
        VariantKind::HexEmergo,
    ];

    /// The short name: `emergo`, `7x7` or `hex`.
    pub const fn name(self) -> &'static str {
        match self {
            VariantKind::Emergo => "emergo",
            VariantKind::Emergo7x7 => "7x7",
            VariantKind::HexEmergo => "hex",
        }
    }

    /// The value of a record's `[Variant]` tag: `Emergo`, `Emergo 7x7` or `HexEmergo`.
    pub const fn tag(self) -> &'static str {
        self.geometry().name
    }

    /// The board named by a `[Variant]` tag's value (exactly as [`VariantKind::tag`] writes it).
    pub fn from_tag(tag: &str) -> Option<VariantKind> {
        VariantKind::ALL.into_iter().find(|v| v.tag() == tag)
    }

    /// Men per side (R2).
    pub const fn men(self) -> u8 {
        self.geometry().men
    }

    /// The number of cells of the board (41, 25, 37).
    pub const fn cells(self) -> usize {
        self.geometry().all.count_ones() as usize
    }

    const fn geometry(self) -> &'static Geometry {
        match self {
            VariantKind::Emergo => Emergo::GEOMETRY,
            VariantKind::Emergo7x7 => Emergo7x7::GEOMETRY,
            VariantKind::HexEmergo => HexEmergo::GEOMETRY,
        }
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown variant `{0}` (expected emergo, 7x7 or hex)")]
pub struct VariantError(pub String);

/// Reads the short name (`emergo`, `7x7`, `hex`) or the tag's value (`HexEmergo`, ...).
impl FromStr for VariantKind {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<VariantKind, VariantError> {
        VariantKind::ALL
            .into_iter()
            .find(|v| v.name() == s || v.tag() == s)
            .ok_or_else(|| VariantError(s.to_string()))
    }
}

/// Runs an expression with a type alias bound to the board a [`VariantKind`] names: the one
/// place where a face that chooses its board at run time turns it into a type.
///
/// ```
/// use emergo_core::{perft::perft, position::Position, with_variant, VariantKind};
/// let kind: VariantKind = "hex".parse().unwrap();
/// let n = with_variant!(kind, V => perft(&Position::<V>::start(), 1));
/// assert_eq!(n, 36);
/// ```
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $v:ident => $body:expr) => {
        match $kind {
            $crate::VariantKind::Emergo => {
                type $v = $crate::Emergo;
                $body
            }
            $crate::VariantKind::Emergo7x7 => {
                type $v = $crate::Emergo7x7;
                $body
            }
            $crate::VariantKind::HexEmergo => {
                type $v = $crate::HexEmergo;
                $body
            }
        }
    };
}

/// A direction of a step, by how it changes a cell's letter line `L` and number `N` (R1). The
/// square boards step in the first four ([`Direction::ALL`]), the hexagon in all six
/// ([`Direction::HEX`]). `dir.opposite()` is the 180° turn (R7.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The number grows: `(0, +1)` (checkerboard up-right, `e4` → `e5`; hex `ne`).
    NumberUp = 0,
    /// The letter falls: `(−1, 0)` (checkerboard up-left, `e5` → `d5`; hex `e`).
    LetterDown = 1,
    /// The letter grows: `(+1, 0)` (checkerboard down-right, `e5` → `f5`; hex `w`).
    LetterUp = 2,
    /// The number falls: `(0, −1)` (checkerboard down-left, `e5` → `e4`; hex `sw`).
    NumberDown = 3,
    /// Both grow: `(+1, +1)` (hexagon only, `nw`: `d4` → `e5`).
    BothUp = 4,
    /// Both fall: `(−1, −1)` (hexagon only, `se`: `d4` → `c3`).
    BothDown = 5,
}

impl Direction {
    /// The four directions of the square boards.
    pub const ALL: [Direction; 4] = [
        Direction::NumberUp,
        Direction::LetterDown,
        Direction::LetterUp,
        Direction::NumberDown,
    ];

    /// The six directions of the hexagon.
    pub const HEX: [Direction; 6] = [
        Direction::NumberUp,
        Direction::LetterDown,
        Direction::LetterUp,
        Direction::NumberDown,
        Direction::BothUp,
        Direction::BothDown,
    ];

    /// The direction with this code (0..6; taken modulo 6).
    #[inline]
    pub const fn from_index(i: usize) -> Direction {
        Direction::HEX[i % 6]
    }

    /// The code of this direction, 0..6 (the square boards' are 0..4).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The reverse direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::NumberUp => Direction::NumberDown,
            Direction::LetterDown => Direction::LetterUp,
            Direction::LetterUp => Direction::LetterDown,
            Direction::NumberDown => Direction::NumberUp,
            Direction::BothUp => Direction::BothDown,
            Direction::BothDown => Direction::BothUp,
        }
    }

    /// How a step changes `(L, N)`.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::NumberUp => (0, 1),
            Direction::LetterDown => (-1, 0),
            Direction::LetterUp => (1, 0),
            Direction::NumberDown => (0, -1),
            Direction::BothUp => (1, 1),
            Direction::BothDown => (-1, -1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r1_each_board_has_its_cells_and_centre() {
        assert_eq!(Emergo::GEOMETRY.all.count_ones(), 41);
        assert_eq!(Emergo7x7::GEOMETRY.all.count_ones(), 25);
        assert_eq!(HexEmergo::GEOMETRY.all.count_ones(), 37);
        assert_eq!(Emergo::GEOMETRY.centre, 20);
        assert_eq!(Emergo7x7::GEOMETRY.centre, 12);
        for kind in VariantKind::ALL {
            assert_eq!(kind.to_string().parse::<VariantKind>(), Ok(kind));
            assert_eq!(VariantKind::from_tag(kind.tag()), Some(kind));
        }
        assert!("square".parse::<VariantKind>().is_err());
    }
}
