//! The learned evaluation (issue 25): the linear evaluation of [`crate::eval`] plus thousands of
//! pattern weights fitted to self-play games by `emergo train` (`emergo_arena::train`).
//!
//! Every cell is in one of 13 states, seen from the side to move: empty, or a column of one's
//! own or of the opponent's with 1, 2 or 3+ men on top and without or with prisoners. A pattern
//! is a small window of cells whose states together index a weight:
//!
//! - **lines of three** along every axis (a column, its neighbour, the cell beyond: the shape of
//!   a jump, R6), 13³ weights;
//! - **windows of four** on the square boards (the unit square of the diagonal lattice: a cell
//!   and its neighbours up, right and up-right in letter/number terms), 13⁴ weights; on the
//!   hexagon **triangles** of three mutually adjacent cells, 13³;
//! - **cell classes**: each cell's orbit under the board's symmetries, times its state;
//! - **hands**: the men in hand of the side to move and of the opponent, 13 × 13.
//!
//! Emergo has no forward direction, so a window's weight is shared with every window the
//! board's symmetries make of it (8 on the square boards, 12 on the hexagon): a window's index is
//! made canonical (the least index among its images: a line read backwards, a square turned or
//! mirrored, a triangle's corners in any order) and cells are grouped by orbit. Symmetric
//! positions therefore evaluate equally by construction, whatever the weights.
//!
//! Each pattern has two weights, one for the opening and middle game and one for the end, blended
//! by the phase: the columns on the board plus the men in hand (24 at the start on the 9×9
//! board, falling as columns stack up). The linear terms are fitted together with the patterns
//! and kept in the same file, so a learned evaluation is one file per board.
//!
//! Weights are stored in sixteenths of a centiman as `i16` (file format: [`Net::from_bytes`]);
//! the sum is taken in `i32` and the result is in centimen, like [`crate::eval::evaluate`].

use crate::eval::{evaluate, Weights};
use emergo_core::bitboard::Bitboard;
use emergo_core::board::Square;
use emergo_core::position::Position;
use emergo_core::variant::MAX_SLOTS;
use emergo_core::{Color, Direction, Variant, VariantKind};
use std::sync::OnceLock;
use thiserror::Error;

/// The number of cell states.
pub(crate) const STATES: usize = 13;
const S2: usize = STATES * STATES;
const S3: usize = S2 * STATES;
const S4: usize = S3 * STATES;

/// Weights are stored in this fraction of a centiman.
pub const UNIT: i32 = 16;

/// The geometry of the patterns of one board: the windows as lists of cells, the cells' classes,
/// and where each kind of feature starts in the weight table.
#[derive(Debug)]
pub struct Patterns {
    /// Lines of three cells (a, b, c) with b between a and c.
    pub(crate) lines: Vec<[u8; 3]>,
    /// Windows of four cells in cyclic order (square boards).
    pub(crate) squares: Vec<[u8; 4]>,
    /// Triangles of three mutually adjacent cells (the hexagon).
    pub(crate) triangles: Vec<[u8; 3]>,
    /// Each cell's symmetry class (its orbit), by cell number.
    pub(crate) class: [u8; MAX_SLOTS],
    /// How many classes.
    pub(crate) classes: usize,
    /// The canonical index of a line or triangle's state triple (13³ entries).
    canon3_line: Vec<u16>,
    canon3_triangle: Vec<u16>,
    /// The canonical index of a square's state quadruple (13⁴ entries, square boards).
    canon4: Vec<u16>,
    /// Where each kind of feature starts in the (opening) half of the table.
    offsets: Offsets,
    /// The size of each half of the table (opening, end).
    pub half: usize,
}

/// Where each kind of feature starts in a half of the weight table.
#[derive(Clone, Copy, Debug)]
struct Offsets {
    cells: usize,
    hands: usize,
    lines: usize,
    windows: usize,
}

impl Patterns {
    /// The patterns of the board `V`, made once.
    pub fn of<V: Variant>() -> &'static Patterns {
        static SQUARE9: OnceLock<Patterns> = OnceLock::new();
        static SQUARE7: OnceLock<Patterns> = OnceLock::new();
        static HEX: OnceLock<Patterns> = OnceLock::new();
        let cell = match V::KIND {
            VariantKind::Emergo => &SQUARE9,
            VariantKind::Emergo7x7 => &SQUARE7,
            VariantKind::HexEmergo => &HEX,
        };
        cell.get_or_init(Patterns::new::<V>)
    }

    fn new<V: Variant>() -> Patterns {
        let hex = V::KIND == VariantKind::HexEmergo;
        let step = |sq: u8, d: Direction| -> Option<u8> {
            Square::<V>::new(sq as usize)
                .and_then(|s| s.neighbour(d))
                .map(|s| s.index() as u8)
        };
        let cells: Vec<u8> = Square::<V>::all().map(|s| s.index() as u8).collect();
        // One direction of each axis: the other is its opposite.
        let axes: Vec<Direction> = V::DIRECTIONS
            .as_ref()
            .iter()
            .copied()
            .filter(|d| {
                matches!(
                    d,
                    Direction::NumberUp | Direction::LetterDown | Direction::BothUp
                )
            })
            .collect();
        let mut lines = Vec::new();
        for &b in &cells {
            for &d in &axes {
                if let (Some(a), Some(c)) = (step(b, d.opposite()), step(b, d)) {
                    lines.push([a, b, c]);
                }
            }
        }
        let mut squares = Vec::new();
        let mut triangles = Vec::new();
        for &c in &cells {
            if hex {
                // (0,0), (1,0), (1,1) and (0,0), (0,1), (1,1) in letter/number steps.
                if let (Some(a), Some(b)) =
                    (step(c, Direction::LetterUp), step(c, Direction::BothUp))
                {
                    triangles.push([c, a, b]);
                }
                if let (Some(a), Some(b)) =
                    (step(c, Direction::NumberUp), step(c, Direction::BothUp))
                {
                    triangles.push([c, a, b]);
                }
            } else if let Some(right) = step(c, Direction::LetterUp) {
                if let (Some(up), Some(diag)) = (
                    step(c, Direction::NumberUp),
                    step(right, Direction::NumberUp),
                ) {
                    squares.push([c, right, diag, up]);
                }
            }
        }
        let symmetries = symmetries::<V>();
        let mut class = [u8::MAX; MAX_SLOTS];
        let mut classes = 0;
        for &c in &cells {
            if class[c as usize] != u8::MAX {
                continue;
            }
            for perm in &symmetries {
                class[perm[c as usize] as usize] = classes as u8;
            }
            classes += 1;
        }
        let canon3_line = (0..S3)
            .map(|i| {
                let [a, b, c] = digits3(i);
                i.min(index3([c, b, a])) as u16
            })
            .collect();
        let canon3_triangle = (0..S3)
            .map(|i| {
                let [a, b, c] = digits3(i);
                [
                    [a, b, c],
                    [a, c, b],
                    [b, a, c],
                    [b, c, a],
                    [c, a, b],
                    [c, b, a],
                ]
                .into_iter()
                .map(index3)
                .min()
                .unwrap_or(i) as u16
            })
            .collect();
        let canon4 = if hex {
            Vec::new()
        } else {
            (0..S4)
                .map(|i| {
                    let d = digits4(i);
                    let mut best = i;
                    for turn in 0..4 {
                        let r = [
                            d[turn],
                            d[(turn + 1) % 4],
                            d[(turn + 2) % 4],
                            d[(turn + 3) % 4],
                        ];
                        best = best.min(index4(r)).min(index4([r[3], r[2], r[1], r[0]]));
                    }
                    best as u16
                })
                .collect()
        };
        let cells_at = 0;
        let hands = cells_at + classes * STATES;
        let lines_at = hands + S2;
        let windows = lines_at + S3;
        let half = windows + if hex { S3 } else { S4 };
        Patterns {
            lines,
            squares,
            triangles,
            class,
            classes,
            canon3_line,
            canon3_triangle,
            canon4,
            offsets: Offsets {
                cells: cells_at,
                hands,
                lines: lines_at,
                windows,
            },
            half,
        }
    }

    /// Calls `f` with the index (in the opening half) of every pattern feature of `pos`, and
    /// returns the phase (0..=[`Patterns::max_phase`]): the weight of the opening half; the end
    /// half's weight is `max_phase - phase`. Training reads positions through this function, and
    /// the evaluation through the same walk over the windows ([`Patterns::visit`]).
    #[inline]
    pub fn features<V: Variant>(&self, pos: &Position<V>, f: impl FnMut(usize)) -> u32 {
        self.visit::<V, true>(pos, f)
    }

    /// The walk over a position's features. With `CANONICAL`, the indices training fits: every
    /// cell, and each window's canonical index. Without, what [`Net::evaluate`] reads from its
    /// expanded table: the occupied cells only (an empty cell's weight is folded into a
    /// constant) and each window's own index (every image of a canonical window holds its
    /// weight), which saves a table read a window.
    #[inline(always)]
    fn visit<V: Variant, const CANONICAL: bool>(
        &self,
        pos: &Position<V>,
        mut f: impl FnMut(usize),
    ) -> u32 {
        let me = pos.turn();
        let mut state = [0u8; MAX_SLOTS];
        for (color, base) in [(me, 1u8), (me.other(), 7u8)] {
            for sq in pos.owned(color) {
                let Some(col) = pos.column(sq) else { continue };
                let height = col.men.clamp(1, 3) - 1;
                state[sq.index()] = base + height * 2 + u8::from(col.prisoners > 0);
            }
        }
        let s = |c: u8| state[c as usize] as usize;
        let cells = if CANONICAL {
            Bitboard::<V>::ALL
        } else {
            pos.occupied()
        };
        for sq in cells {
            let i = sq.index();
            f(self.offsets.cells + self.class[i] as usize * STATES + state[i] as usize);
        }
        let own_hand = (pos.hand(me) as usize).min(STATES - 1);
        let opp_hand = (pos.hand(me.other()) as usize).min(STATES - 1);
        f(self.offsets.hands + own_hand * STATES + opp_hand);
        let canon = |table: &[u16], i: usize| {
            if CANONICAL {
                table[i] as usize
            } else {
                i
            }
        };
        for &[a, b, c] in &self.lines {
            f(self.offsets.lines + canon(&self.canon3_line, index3([s(a), s(b), s(c)])));
        }
        for &[a, b, c, d] in &self.squares {
            f(self.offsets.windows + canon(&self.canon4, index4([s(a), s(b), s(c), s(d)])));
        }
        for &[a, b, c] in &self.triangles {
            f(self.offsets.windows + canon(&self.canon3_triangle, index3([s(a), s(b), s(c)])));
        }
        let columns = pos.occupied().len() as u32;
        let hands = u32::from(pos.hand(Color::White)) + u32::from(pos.hand(Color::Black));
        (columns + hands).min(Self::max_phase::<V>())
    }

    /// The table [`Net::evaluate`] reads, made from a trained `table` (opening half, end half):
    /// each index's opening and end weights side by side, every window index holding its
    /// canonical window's weights, and each cell's weights less those of the empty cell of its
    /// class, whose sum over the board is returned as a constant (opening, end).
    fn expand(&self, table: &[i16]) -> (Vec<[i32; 2]>, [i32; 2]) {
        let half = self.half;
        let at = |i: usize| [i32::from(table[i]), i32::from(table[half + i])];
        let mut pairs: Vec<[i32; 2]> = (0..half).map(at).collect();
        let mut constant = [0, 0];
        for &class in &self.class {
            if class == u8::MAX {
                continue;
            }
            let empty = at(self.offsets.cells + class as usize * STATES);
            constant[0] += empty[0];
            constant[1] += empty[1];
        }
        for class in 0..self.classes {
            let base = self.offsets.cells + class * STATES;
            let empty = at(base);
            for state in 0..STATES {
                let w = at(base + state);
                pairs[base + state] = [w[0] - empty[0], w[1] - empty[1]];
            }
        }
        let windows = |offset: usize, canon: &[u16], pairs: &mut Vec<[i32; 2]>| {
            for (i, &c) in canon.iter().enumerate() {
                pairs[offset + i] = at(offset + c as usize);
            }
        };
        windows(self.offsets.lines, &self.canon3_line, &mut pairs);
        if self.triangles.is_empty() {
            windows(self.offsets.windows, &self.canon4, &mut pairs);
        } else {
            windows(self.offsets.windows, &self.canon3_triangle, &mut pairs);
        }
        (pairs, constant)
    }

    /// The phase at the start: both sides' men.
    pub fn max_phase<V: Variant>() -> u32 {
        2 * u32::from(Position::<V>::men_per_side())
    }
}

#[inline(always)]
fn index3([a, b, c]: [usize; 3]) -> usize {
    (a * STATES + b) * STATES + c
}

#[inline(always)]
fn index4([a, b, c, d]: [usize; 4]) -> usize {
    ((a * STATES + b) * STATES + c) * STATES + d
}

fn digits3(i: usize) -> [usize; 3] {
    [i / S2, i / STATES % STATES, i % STATES]
}

fn digits4(i: usize) -> [usize; 4] {
    [i / S3, i / S2 % STATES, i / STATES % STATES, i % STATES]
}

/// The board's symmetries as permutations of cell numbers, the identity first: the 8 of the
/// square (turns by a quarter and mirrors of the checkerboard) or the 12 of the hexagon (turns by
/// a sixth and mirrors), generated from one turn and one mirror.
pub(crate) fn symmetries<V: Variant>() -> Vec<[u8; MAX_SLOTS]> {
    let cells: Vec<Square<V>> = Square::<V>::all().collect();
    let perm = |map: &dyn Fn(Square<V>) -> Option<Square<V>>| -> [u8; MAX_SLOTS] {
        let mut p = [u8::MAX; MAX_SLOTS];
        for &c in &cells {
            // Every cell has an image: the maps below are symmetries of each board.
            let image = map(c).unwrap_or(c);
            p[c.index()] = image.index() as u8;
        }
        p
    };
    let (turn, mirror) = if V::KIND == VariantKind::HexEmergo {
        // Axial coordinates from the centre: the six steps are ±(1,0), ±(0,1), ±(1,1).
        let (cl, cn) = Square::<V>::CENTRE.letter_number();
        let at = |q: i32, r: i32| {
            let (l, n) = (q + i32::from(cl), r + i32::from(cn));
            u8::try_from(l)
                .ok()
                .zip(u8::try_from(n).ok())
                .and_then(|(l, n)| Square::<V>::from_letter_number(l, n))
        };
        let axial = move |s: Square<V>| {
            let (l, n) = s.letter_number();
            (i32::from(l) - i32::from(cl), i32::from(n) - i32::from(cn))
        };
        (
            perm(&|s| {
                let (q, r) = axial(s);
                at(q - r, q)
            }),
            perm(&|s| {
                let (q, r) = axial(s);
                at(r, q)
            }),
        )
    } else {
        let w = cells.iter().map(|s| s.xy().0).max().unwrap_or(1);
        (
            perm(&|s| {
                let (x, y) = s.xy();
                Square::from_xy(y, w + 1 - x)
            }),
            perm(&|s| {
                let (x, y) = s.xy();
                Square::from_xy(y, x)
            }),
        )
    };
    let mut identity = [u8::MAX; MAX_SLOTS];
    for c in &cells {
        identity[c.index()] = c.index() as u8;
    }
    let compose = |a: &[u8; MAX_SLOTS], b: &[u8; MAX_SLOTS]| {
        let mut p = [u8::MAX; MAX_SLOTS];
        for c in &cells {
            p[c.index()] = b[a[c.index()] as usize];
        }
        p
    };
    let mut group = vec![identity];
    let mut k = 0;
    while k < group.len() {
        for g in [&turn, &mirror] {
            let next = compose(&group[k], g);
            if !group.contains(&next) {
                group.push(next);
            }
        }
        k += 1;
    }
    group
}

/// A learned evaluation for one board: the linear weights and the pattern table.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    variant: VariantKind,
    linear: Weights,
    /// The trained table (opening half, end half), in 1/[`UNIT`] centimen, as the file has it.
    table: Vec<i16>,
    /// What [`Net::evaluate`] reads ([`Patterns::expand`]): every index's opening and end
    /// weights side by side (one memory read for both), ...
    pairs: Vec<[i32; 2]>,
    /// ... and the empty cells' weights, summed.
    constant: [i32; 2],
}

/// Why bytes are not a learned evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NetError {
    #[error("not a pattern weights file (it does not start with {MAGIC:?})")]
    Magic,
    #[error("the file is cut short: {0}")]
    Short(&'static str),
    #[error("unknown board code {0}")]
    Board(u8),
    #[error("weights of the {found} board, where the {wanted} board's are needed")]
    WrongBoard {
        found: VariantKind,
        wanted: VariantKind,
    },
    #[error("the table has {found} weights where the {board} board has {wanted}")]
    Size {
        board: VariantKind,
        found: usize,
        wanted: usize,
    },
    #[error("{0} bytes after the table")]
    Trailing(usize),
}

const MAGIC: &[u8; 8] = b"EMGPAT1\n";

fn board_code(kind: VariantKind) -> u8 {
    match kind {
        VariantKind::Emergo => 0,
        VariantKind::Emergo7x7 => 1,
        VariantKind::HexEmergo => 2,
    }
}

impl Net {
    /// A net of zero pattern weights over `linear`: evaluates exactly as the linear evaluation.
    pub fn zero<V: Variant>(linear: Weights) -> Net {
        let table = vec![0; 2 * Patterns::of::<V>().half];
        Net::new::<V>(linear, &table).expect("a table of the board's size")
    }

    /// A net for the board `V` from its linear weights and its table: the opening half, then
    /// the end half, as [`Patterns`] indexes them, in 1/[`UNIT`] centimen.
    pub fn new<V: Variant>(linear: Weights, table: &[i16]) -> Result<Net, NetError> {
        let half = Patterns::of::<V>().half;
        if table.len() != 2 * half {
            return Err(NetError::Size {
                board: V::KIND,
                found: table.len(),
                wanted: 2 * half,
            });
        }
        let (pairs, constant) = Patterns::of::<V>().expand(table);
        Ok(Net {
            variant: V::KIND,
            linear,
            table: table.to_vec(),
            pairs,
            constant,
        })
    }

    /// The board it was trained for.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// The linear terms (fitted with the patterns).
    pub fn linear(&self) -> &Weights {
        &self.linear
    }

    /// The table: the opening half, then the end half.
    pub fn table(&self) -> &[i16] {
        &self.table
    }

    /// The file: `EMGPAT1\n`, the board's code (0 = emergo, 1 = 7x7, 2 = hex), the 14 linear
    /// weights in the order of [`Weights::NAMES`] as `i32`, the table's length as `u32`, then the
    /// table as `i16` (opening half, then end half); little-endian throughout.
    pub fn to_bytes(&self) -> Vec<u8> {
        let table = &self.table;
        let mut out = Vec::with_capacity(MAGIC.len() + 1 + 14 * 4 + 4 + 2 * table.len());
        out.extend_from_slice(MAGIC);
        out.push(board_code(self.variant));
        for w in self.linear.to_array() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&(table.len() as u32).to_le_bytes());
        for w in table {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads a file written by [`Net::to_bytes`] for the board `V`.
    pub fn from_bytes<V: Variant>(bytes: &[u8]) -> Result<Net, NetError> {
        let rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or(NetError::Magic)?;
        let (&code, mut rest) = rest.split_first().ok_or(NetError::Short("board"))?;
        let variant = match code {
            0 => VariantKind::Emergo,
            1 => VariantKind::Emergo7x7,
            2 => VariantKind::HexEmergo,
            other => return Err(NetError::Board(other)),
        };
        if variant != V::KIND {
            return Err(NetError::WrongBoard {
                found: variant,
                wanted: V::KIND,
            });
        }
        let mut take = |n: usize, what: &'static str| -> Result<&[u8], NetError> {
            if rest.len() < n {
                return Err(NetError::Short(what));
            }
            let (head, tail) = rest.split_at(n);
            rest = tail;
            Ok(head)
        };
        let mut linear = [0i32; 14];
        for w in &mut linear {
            let b = take(4, "linear weights")?;
            *w = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        let b = take(4, "table length")?;
        let len = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
        let wanted = 2 * Patterns::of::<V>().half;
        if len != wanted {
            return Err(NetError::Size {
                board: V::KIND,
                found: len,
                wanted,
            });
        }
        let body = take(2 * len, "table")?;
        let table: Vec<i16> = body
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        if !rest.is_empty() {
            return Err(NetError::Trailing(rest.len()));
        }
        Net::new::<V>(Weights::from_array(linear), &table)
    }

    /// The net shipped for the board `V` (built into the binary): `crates/emergo-engine/data/
    /// patterns.bin`, `patterns-7x7.bin` and `patterns-hex.bin`.
    pub fn shipped<V: Variant>() -> Option<&'static Net> {
        static SQUARE9: OnceLock<Option<Net>> = OnceLock::new();
        static SQUARE7: OnceLock<Option<Net>> = OnceLock::new();
        static HEX: OnceLock<Option<Net>> = OnceLock::new();
        let (cell, bytes): (_, &[u8]) = match V::KIND {
            VariantKind::Emergo => (&SQUARE9, include_bytes!("../data/patterns.bin")),
            VariantKind::Emergo7x7 => (&SQUARE7, include_bytes!("../data/patterns-7x7.bin")),
            VariantKind::HexEmergo => (&HEX, include_bytes!("../data/patterns-hex.bin")),
        };
        // A shipped file that does not read is a build defect, which a test catches.
        cell.get_or_init(|| Net::from_bytes::<V>(bytes).ok())
            .as_ref()
    }

    /// The evaluation of `pos` for the side to move, in centimen: the linear evaluation with
    /// this net's linear weights plus the patterns, blended by phase.
    #[inline]
    pub fn evaluate<V: Variant>(&self, pos: &Position<V>) -> i32 {
        let patterns = Patterns::of::<V>();
        let [mut open, mut end] = self.constant;
        let pairs = &self.pairs[..patterns.half];
        let phase = patterns.visit::<V, false>(pos, |i| {
            let [o, e] = pairs[i];
            open += o;
            end += e;
        }) as i32;
        let max = Patterns::max_phase::<V>() as i32;
        let blended = (open * phase + end * (max - phase)) / (max * UNIT);
        evaluate(pos, &self.linear) + blended
    }
}

/// Which evaluation a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The learned evaluation where the board has one shipped, the linear one elsewhere.
    #[default]
    Pattern,
    /// The linear evaluation of [`crate::eval`] with the search's weights.
    Linear,
}

impl EvalKind {
    /// The names, as the UGI option `Eval` and `alphabeta:eval=` take them.
    pub const NAMES: [&'static str; 2] = ["pattern", "linear"];

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Pattern => "pattern",
            EvalKind::Linear => "linear",
        }
    }
}

impl std::fmt::Display for EvalKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an evaluation's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("no evaluation '{0}' (pattern or linear)")]
pub struct EvalKindError(pub String);

impl std::str::FromStr for EvalKind {
    type Err = EvalKindError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "pattern" => Ok(EvalKind::Pattern),
            "linear" => Ok(EvalKind::Linear),
            _ => Err(EvalKindError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::position::Setup;
    use emergo_core::{Emergo, Emergo7x7, HexEmergo};

    fn mirrored<V: Variant>(pos: &Position<V>, perm: &[u8; MAX_SLOTS]) -> Position<V> {
        let setup = pos.to_setup();
        let mut out = Setup::<V> {
            columns: [None; MAX_SLOTS],
            ..setup.clone()
        };
        for (i, col) in setup.columns.iter().enumerate() {
            if col.is_some() {
                out.columns[perm[i] as usize] = *col;
            }
        }
        Position::from_setup(&out).expect("a symmetric image is a position")
    }

    fn random_net<V: Variant>(seed: u64) -> Net {
        let mut rng = emergo_core::playout::SplitMix::new(seed);
        let table: Vec<i16> = (0..2 * Patterns::of::<V>().half)
            .map(|_| (rng.next_u64() % 2001) as i16 - 1000)
            .collect();
        Net::new::<V>(Weights::for_variant(V::KIND), &table).unwrap()
    }

    fn symmetric_positions_evaluate_equally<V: Variant>(group: usize, classes: usize) {
        let patterns = Patterns::of::<V>();
        let symmetries = symmetries::<V>();
        assert_eq!(symmetries.len(), group);
        assert_eq!(patterns.classes, classes);
        let net = random_net::<V>(3);
        let mut checked = 0;
        for game in 0..6 {
            let mut rng = emergo_core::playout::SplitMix::new(game);
            let mut pos = Position::<V>::start();
            while !pos.legal_moves().is_empty() && checked < 3000 {
                let e = net.evaluate(&pos);
                for perm in &symmetries {
                    assert_eq!(net.evaluate(&mirrored(&pos, perm)), e, "{pos}");
                }
                let moves = pos.legal_moves();
                pos.play_unchecked(moves[rng.below(moves.len())]);
                checked += 1;
            }
        }
        assert!(checked > 200);
    }

    #[test]
    fn learned_weights_evaluate_symmetric_positions_equally_on_the_square_board() {
        // Orbits of the 41 squares under the 8 symmetries: e5, and 1 + 2 + 2 + 3 + 1 per ring.
        symmetric_positions_evaluate_equally::<Emergo>(8, 9);
    }

    #[test]
    fn learned_weights_evaluate_symmetric_positions_equally_on_the_7x7_board() {
        symmetric_positions_evaluate_equally::<Emergo7x7>(8, 6);
    }

    #[test]
    fn learned_weights_evaluate_symmetric_positions_equally_on_the_hexagon() {
        symmetric_positions_evaluate_equally::<HexEmergo>(12, 6);
    }

    #[test]
    fn zero_patterns_evaluate_as_the_linear_evaluation() {
        let net = Net::zero::<Emergo>(Weights::default());
        let mut rng = emergo_core::playout::SplitMix::new(9);
        let mut pos = Position::<Emergo>::start();
        while !pos.legal_moves().is_empty() {
            assert_eq!(net.evaluate(&pos), evaluate(&pos, &Weights::default()));
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }

    #[test]
    fn the_file_format_reads_back_and_refuses_what_is_not_a_net() {
        let net = random_net::<Emergo7x7>(5);
        let bytes = net.to_bytes();
        assert_eq!(Net::from_bytes::<Emergo7x7>(&bytes), Ok(net));
        assert_eq!(
            Net::from_bytes::<Emergo>(&bytes),
            Err(NetError::WrongBoard {
                found: VariantKind::Emergo7x7,
                wanted: VariantKind::Emergo
            })
        );
        assert_eq!(Net::from_bytes::<Emergo7x7>(b"hello"), Err(NetError::Magic));
        assert!(matches!(
            Net::from_bytes::<Emergo7x7>(&bytes[..bytes.len() - 1]),
            Err(NetError::Short(_))
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            Net::from_bytes::<Emergo7x7>(&longer),
            Err(NetError::Trailing(1))
        );
    }

    #[test]
    fn every_feature_index_is_inside_its_half_and_each_position_has_the_same_count() {
        fn check<V: Variant>() {
            let p = Patterns::of::<V>();
            let expected = Square::<V>::all().count()
                + 1
                + p.lines.len()
                + p.squares.len()
                + p.triangles.len();
            let mut rng = emergo_core::playout::SplitMix::new(1);
            let mut pos = Position::<V>::start();
            while !pos.legal_moves().is_empty() {
                let mut n = 0;
                let phase = p.features(&pos, |i| {
                    assert!(i < p.half);
                    n += 1;
                });
                assert_eq!(n, expected);
                assert!(phase <= Patterns::max_phase::<V>());
                let moves = pos.legal_moves();
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        check::<Emergo>();
        check::<Emergo7x7>();
        check::<HexEmergo>();
    }

    #[test]
    fn every_board_ships_a_net_that_reads() {
        // A shipped file that does not read would be `None`.
        fn check<V: Variant>() {
            let net = Net::shipped::<V>().expect("a shipped net");
            assert_eq!(net.variant(), V::KIND);
            assert_eq!(net.linear().man, 100);
            assert!(net.table().iter().any(|&w| w != 0));
        }
        check::<Emergo>();
        check::<Emergo7x7>();
        check::<HexEmergo>();
    }
}
