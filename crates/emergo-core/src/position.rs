//! The playable position: a small `Copy` value, made from an unvalidated [`Setup`] through a
//! `Result`, played with [`Position::play_unchecked`] or [`Position::try_play`].

use crate::bitboard::Bitboard;
use crate::board::{Square, SquareName};
use crate::color::{ByColor, Color};
use crate::moves::Move;
use crate::variant::{Cells, Emergo, Variant, MAX_SLOTS};
use crate::zobrist;
use std::fmt;
use std::marker::PhantomData;
use thiserror::Error;

/// The number of men each side has on the square 9×9 board (R2); a board's own is
/// [`Position::men_per_side`].
pub const MEN_PER_SIDE: u8 = 12;

/// A column (R3): `men ≥ 1` men of `owner` on top of `prisoners ≥ 0` men of the other colour.
/// The type itself keeps the two-layer invariant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Column {
    /// The side whose men are on top.
    pub owner: Color,
    /// The owner's men, on top (at least one).
    pub men: u8,
    /// The other side's men under them.
    pub prisoners: u8,
}

impl Column {
    /// The number of men in the column.
    pub fn height(&self) -> u8 {
        self.men + self.prisoners
    }

    /// How many men of `color` the column holds.
    pub fn men_of(&self, color: Color) -> u8 {
        if color == self.owner {
            self.men
        } else {
            self.prisoners
        }
    }
}

/// An unvalidated position on the board `V`: anything position text can say. Turn it into a
/// [`Position`] with [`Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup<V = Emergo> {
    /// The side to move.
    pub turn: Color,
    /// Men in hand of each side.
    pub hand: ByColor<u8>,
    /// The column on each cell, indexed by `Square::index()` (numbers that name no cell stay
    /// empty).
    pub columns: [Option<Column>; MAX_SLOTS],
    /// The board.
    pub variant: PhantomData<V>,
}

impl<V: Variant> Setup<V> {
    /// The start: an empty board, all men in each hand, White to move (R2).
    pub fn start() -> Setup<V> {
        let men = V::GEOMETRY.men;
        Setup {
            turn: Color::White,
            hand: ByColor::new(men, men),
            columns: [None; MAX_SLOTS],
            variant: PhantomData,
        }
    }
}

impl<V: Variant> Default for Setup<V> {
    fn default() -> Self {
        Setup::start()
    }
}

/// Why a [`Setup`] is not a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("{color} has {count} men (board and hand); at most {most}")]
    /// More men of a colour than a side has (12, or 8 on the 7×7 board), on the board and in
    /// hand together (R2).
    TooManyMen {
        /// The colour.
        color: Color,
        /// How many men it has.
        count: u32,
        /// How many a side has.
        most: u8,
    },
    #[error("the column on {square} has no men on top")]
    /// A column with no man of its owner on top (R3).
    EmptyColumn {
        /// Where the column is.
        square: SquareName,
    },
}

/// A move that is not legal in a position (R4–R9): the one illegal-move error. It gives the
/// position back unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{mv} is not a legal move in {position}")]
pub struct PlayError<V: Variant = Emergo> {
    /// The move refused.
    pub mv: Move<V>,
    /// The position, as it was.
    pub position: Position<V>,
}

/// A legal Emergo position on the board `V`: columns, men in hand, side to move and its Zobrist
/// hash.
pub struct Position<V: Variant = Emergo> {
    /// Squares whose column is owned by each colour.
    pub(crate) owned: ByColor<Bitboard<V>>,
    /// Men of the owner's colour on each square (0 where empty).
    pub(crate) men: V::Cells,
    /// Prisoners under the owner's men on each square.
    pub(crate) prisoners: V::Cells,
    pub(crate) hand: ByColor<u8>,
    pub(crate) turn: Color,
    pub(crate) hash: u64,
}

impl<V: Variant> Clone for Position<V> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<V: Variant> Copy for Position<V> {}

impl<V: Variant> PartialEq for Position<V> {
    fn eq(&self, other: &Self) -> bool {
        self.owned == other.owned
            && self.men == other.men
            && self.prisoners == other.prisoners
            && self.hand == other.hand
            && self.turn == other.turn
    }
}
impl<V: Variant> Eq for Position<V> {}

impl<V: Variant> std::hash::Hash for Position<V> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl<V: Variant> Default for Position<V> {
    fn default() -> Self {
        Position::start()
    }
}

impl<V: Variant> Position<V> {
    /// The start position `W:12:12` (`W:8:8` on the 7×7 board) (R2).
    pub fn start() -> Position<V> {
        let men = V::GEOMETRY.men;
        let hand = ByColor::new(men, men);
        let mut pos = Position {
            owned: ByColor::default(),
            men: V::Cells::ZERO,
            prisoners: V::Cells::ZERO,
            hand,
            turn: Color::White,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// The men each side has on this board (R2): 12, or 8 on the 7×7 board.
    #[inline]
    pub const fn men_per_side() -> u8 {
        V::GEOMETRY.men
    }

    /// Which board this position is on.
    #[inline]
    pub const fn variant(&self) -> crate::VariantKind {
        V::KIND
    }

    /// Validates a setup: at most the side's men (R2) of each colour on the board and in hand,
    /// every column with at least one man on top (N2).
    pub fn from_setup(setup: &Setup<V>) -> Result<Position<V>, PositionError> {
        let mut count = setup.hand.map(u32::from);
        let mut pos = Position {
            owned: ByColor::default(),
            men: V::Cells::ZERO,
            prisoners: V::Cells::ZERO,
            hand: setup.hand,
            turn: setup.turn,
            hash: 0,
        };
        for sq in Square::<V>::all() {
            if let Some(col) = setup.columns[sq.index()] {
                if col.men == 0 {
                    return Err(PositionError::EmptyColumn {
                        square: sq.square_name(),
                    });
                }
                count[col.owner] += col.men as u32;
                count[col.owner.other()] += col.prisoners as u32;
                pos.owned[col.owner] |= sq.bit();
                pos.men[sq.index()] = col.men;
                pos.prisoners[sq.index()] = col.prisoners;
            }
        }
        let most = V::GEOMETRY.men;
        for color in Color::ALL {
            if count[color] > most as u32 {
                return Err(PositionError::TooManyMen {
                    color,
                    count: count[color],
                    most,
                });
            }
        }
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }

    /// The setup this position was made from.
    pub fn to_setup(&self) -> Setup<V> {
        let mut columns = [None; MAX_SLOTS];
        for sq in Square::<V>::all() {
            columns[sq.index()] = self.column(sq);
        }
        Setup {
            turn: self.turn,
            hand: self.hand,
            columns,
            variant: PhantomData,
        }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Men in hand of `color`.
    #[inline]
    pub fn hand(&self, color: Color) -> u8 {
        self.hand[color]
    }

    /// The column on `sq`, if any.
    #[inline]
    pub fn column(&self, sq: Square<V>) -> Option<Column> {
        let i = sq.index();
        let owner = if self.owned.white.contains(sq) {
            Color::White
        } else if self.owned.black.contains(sq) {
            Color::Black
        } else {
            return None;
        };
        Some(Column {
            owner,
            men: self.men[i],
            prisoners: self.prisoners[i],
        })
    }

    /// Squares whose column `color` owns.
    #[inline]
    pub fn owned(&self, color: Color) -> Bitboard<V> {
        self.owned[color]
    }

    /// Squares with no column.
    #[inline]
    pub fn empty(&self) -> Bitboard<V> {
        !self.occupied()
    }

    /// Squares with a column.
    #[inline]
    pub fn occupied(&self) -> Bitboard<V> {
        self.owned.white | self.owned.black
    }

    /// Every column with its square, in square index order.
    pub fn columns(&self) -> impl Iterator<Item = (Square<V>, Column)> + '_ {
        self.occupied()
            .into_iter()
            .map(move |sq| (sq, self.column(sq).expect("occupied square")))
    }

    /// Men of `color` on the board, on top of its own columns or held as prisoners.
    pub fn men_on_board(&self, color: Color) -> u32 {
        self.columns().map(|(_, c)| c.men_of(color) as u32).sum()
    }

    /// The Zobrist hash, kept up to date incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from nothing (equal to [`Position::hash`]).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = zobrist::hand_key(Color::White, self.hand.white)
            ^ zobrist::hand_key(Color::Black, self.hand.black);
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move_key();
        }
        for (sq, col) in self.columns() {
            h ^= zobrist::column_key(sq.index(), col.owner, col.men, col.prisoners);
        }
        h
    }

    /// R9.2: the side to move enters its whole hand as one column (the shadowpiece) when the
    /// opponent has no men in hand. Returns how many men an entry places now.
    #[inline]
    pub fn entry_size(&self) -> u8 {
        let me = self.turn;
        if self.hand[me.other()] == 0 {
            self.hand[me]
        } else {
            1.min(self.hand[me])
        }
    }

    /// Whether a shadowpiece entry is pending: exactly one side still has men in hand.
    pub fn shadowpiece_pending(&self) -> bool {
        (self.hand.white == 0) != (self.hand.black == 0)
    }

    /// R10.1: the side to move owns no column and has no men in hand, and has lost.
    pub fn is_lost(&self) -> bool {
        let me = self.turn;
        self.owned[me].is_empty() && self.hand[me] == 0
    }

    /// Whether `color` still has men to play with: it owns a column or has men in hand (R10.1
    /// says the side to move without either has lost). Men never leave the game (R2): a side
    /// that owns a column can, move by move, take every opposing top man it reaches, so this is
    /// also whether `color` has material to win with.
    pub fn has_material(&self, color: Color) -> bool {
        !self.owned[color].is_empty() || self.hand[color] > 0
    }

    /// Plays a move, which the caller guarantees is in [`Position::legal_moves`]. An illegal
    /// move leaves the position in an unspecified (but memory-safe) state.
    pub fn play_unchecked(&mut self, mv: Move<V>) {
        let me = self.turn;
        match mv {
            Move::Enter(sq) => {
                // R9: onto an empty square.
                let n = self.entry_size();
                self.set_hand(me, self.hand[me] - n);
                self.put_column(sq.index(), me, n, 0);
            }
            Move::Step { from, to } => {
                // R8: the mover's column, to an empty square.
                let (f, t) = (from.index(), to.index());
                let (men, prisoners) = (self.men[f], self.prisoners[f]);
                self.hash ^= zobrist::column_key(f, me, men, prisoners);
                self.owned[me] &= !from.bit();
                self.men[f] = 0;
                self.prisoners[f] = 0;
                self.put_column(t, me, men, prisoners);
            }
            Move::Capture(path) => {
                // R6, R7.2: the column leaves its square (which it may land on again), takes
                // one man per jump, and ends on the last landing square.
                let f = path.from().index();
                let (men, prisoners) = (self.men[f], self.prisoners[f]);
                self.hash ^= zobrist::column_key(f, me, men, prisoners);
                self.owned[me] &= !path.from().bit();
                self.men[f] = 0;
                self.prisoners[f] = 0;
                let mut at = f;
                for (over, land) in path.jump_indices() {
                    self.take_top_man(over, me);
                    at = land;
                }
                self.put_column(at, me, men, prisoners + path.len() as u8);
            }
        }
        self.turn = me.other();
        self.hash ^= zobrist::black_to_move_key();
    }

    /// Plays `mv` if it is legal; otherwise leaves the position unchanged and says why.
    #[allow(clippy::result_large_err)]
    pub fn try_play(&mut self, mv: Move<V>) -> Result<(), PlayError<V>> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(PlayError {
                mv,
                position: *self,
            })
        }
    }

    /// The position after `mv`, or the error holding this position untouched.
    // The position is handed back by value on purpose (as shakmaty does): it is small and `Copy`.
    #[allow(clippy::result_large_err)]
    pub fn play(mut self, mv: Move<V>) -> Result<Position<V>, PlayError<V>> {
        self.try_play(mv)?;
        Ok(self)
    }

    /// R6: the top man of the opponent's column on `over` is taken by `capturer`; if its new
    /// top is of the capturer's colour, those men are liberated; a single man leaves the square
    /// empty.
    #[inline]
    pub(crate) fn take_top_man(&mut self, over: usize, capturer: Color) {
        let owner = capturer.other();
        let bit = Bitboard::<V>::from_bits(1u64 << over);
        let (men, prisoners) = (self.men[over], self.prisoners[over]);
        self.hash ^= zobrist::column_key(over, owner, men, prisoners);
        if men > 1 {
            self.men[over] = men - 1;
            self.hash ^= zobrist::column_key(over, owner, men - 1, prisoners);
        } else {
            self.owned[owner] &= !bit;
            self.men[over] = 0;
            self.prisoners[over] = 0;
            if prisoners > 0 {
                self.put_column(over, capturer, prisoners, 0);
            }
        }
    }

    /// Puts a column on the empty square `sq`, keeping the hash up to date.
    #[inline(always)]
    fn put_column(&mut self, sq: usize, owner: Color, men: u8, prisoners: u8) {
        self.owned[owner] |= Bitboard::from_bits(1u64 << sq);
        self.men[sq] = men;
        self.prisoners[sq] = prisoners;
        self.hash ^= zobrist::column_key(sq, owner, men, prisoners);
    }

    #[inline]
    fn set_hand(&mut self, color: Color, count: u8) {
        self.hash ^= zobrist::hand_key(color, self.hand[color]);
        self.hand[color] = count;
        self.hash ^= zobrist::hand_key(color, count);
    }
}

impl<V: Variant> fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
