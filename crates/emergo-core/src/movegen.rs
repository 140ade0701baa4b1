//! The move generator: the one place where legality lives (R4–R9).

use crate::bitboard::Bitboard;
use crate::board::{Direction, Square};
use crate::color::{ByColor, Color};
use crate::moves::{CapturePath, Move};
use crate::position::Position;
use crate::variant::{Emergo, Variant};
use std::ops::ControlFlow;

/// The legal moves of a position. A plain vector: capture routes have no useful upper bound.
pub type MoveList<V = Emergo> = Vec<Move<V>>;

impl<V: Variant> Position<V> {
    /// All legal moves (R5 precedence, [`Position::phase`]: captures of the greatest size, else
    /// entries, else steps).
    pub fn legal_moves(&self) -> MoveList<V> {
        let mut moves = MoveList::with_capacity(48);
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Clears `moves` and fills it with the legal moves, reusing its allocation. The same moves
    /// in the same order as [`Position::try_for_each_legal_move`] gives them; the captures are
    /// written straight into `moves` (no buffer of routes).
    pub fn legal_moves_into(&self, moves: &mut MoveList<V>) {
        moves.clear();
        if self.is_lost() {
            return;
        }
        let jumpers = self.jumpers(self.turn);
        if !jumpers.is_empty() {
            // R5.1; `moves` is empty, so it holds exactly the routes kept.
            self.search_captures(jumpers, &mut ListRoutes(moves));
        } else if self.hand[self.turn] > 0 {
            // R5.2: many at once, so counted first, then written with no capacity check each.
            let squares = self.entry_squares();
            let mut bits = squares.0;
            moves.extend((0..squares.len()).map(|_| {
                let to = Square::new_unchecked(bits.trailing_zeros() as usize);
                bits &= bits.wrapping_sub(1);
                Move::Enter(to)
            }));
        } else {
            // R5.3, in the order of `try_for_each_quiet_move`.
            let own = self.owned[self.turn];
            let empty = self.empty();
            for dir in V::DIRECTIONS {
                let by = Bitboard::<V>::step_by(dir);
                push_each(moves, own.shift(dir) & empty, |to| Move::Step {
                    from: Square::new_unchecked(to.index().wrapping_add_signed(-by)),
                    to,
                });
            }
        }
    }

    /// Calls `f` with every legal move.
    pub fn for_each_legal_move(&self, mut f: impl FnMut(Move<V>)) {
        let _ = self.try_for_each_legal_move(|m| {
            f(m);
            ControlFlow::<()>::Continue(())
        });
    }

    /// Calls `f` with the legal moves until it breaks, and returns how it stopped: the
    /// generator stops at the first `Break`, so a search for one move ends where it is found.
    pub fn try_for_each_legal_move<B>(
        &self,
        mut f: impl FnMut(Move<V>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        if self.is_lost() {
            return ControlFlow::Continue(());
        }
        let jumpers = self.jumpers(self.turn);
        if jumpers.is_empty() {
            return self.try_for_each_quiet_move(f);
        }
        // R7.3 needs the greatest size, so every route is found before the first is given.
        let mut routes = BufferedRoutes::new();
        self.search_captures(jumpers, &mut routes);
        for path in routes.iter() {
            f(Move::Capture(path))?;
        }
        ControlFlow::Continue(())
    }

    /// The entries (R5.2) or else the steps (R5.3) of a position where the side to move cannot
    /// capture, until `f` breaks.
    #[inline(always)]
    fn try_for_each_quiet_move<B>(
        &self,
        mut f: impl FnMut(Move<V>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let me = self.turn;
        if self.hand[me] > 0 {
            // R5.2
            for sq in self.entry_squares() {
                f(Move::Enter(sq))?;
            }
        } else {
            // R5.3: by direction, then by square; the column comes from one step back.
            let own = self.owned[me];
            let empty = self.empty();
            for dir in V::DIRECTIONS {
                let by = Bitboard::<V>::step_by(dir);
                for to in own.shift(dir) & empty {
                    let from = Square::new_unchecked(to.index().wrapping_add_signed(-by));
                    f(Move::Step { from, to })?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The first legal move for which `pred` holds, generating no further.
    pub fn find_legal_move(&self, mut pred: impl FnMut(Move<V>) -> bool) -> Option<Move<V>> {
        match self.try_for_each_legal_move(|m| {
            if pred(m) {
                ControlFlow::Break(m)
            } else {
                ControlFlow::Continue(())
            }
        }) {
            ControlFlow::Break(m) => Some(m),
            ControlFlow::Continue(()) => None,
        }
    }

    /// The number of legal moves, counted in bulk where no move needs to be made.
    pub fn count_legal_moves(&self) -> usize {
        let me = self.turn;
        if self.is_lost() {
            return 0;
        }
        let jumpers = self.jumpers(me);
        if !jumpers.is_empty() {
            let mut n = CountedRoutes(0);
            self.search_captures(jumpers, &mut n);
            n.0
        } else if self.hand[me] > 0 {
            self.entry_squares().len()
        } else {
            let own = self.owned[me];
            let empty = self.empty();
            V::DIRECTIONS
                .into_iter()
                .map(|d| (own.shift(d) & empty).len())
                .sum()
        }
    }

    /// The number `n` of legal moves and the move at index `pick(n)` of
    /// [`Position::legal_moves`], or `None` when there is no legal move (then `pick` is not
    /// called) or `pick` answers `n` or more. Entries and steps are counted in bulk and the one
    /// picked is found by its rank, with no list made; captures are listed in `moves` (whose
    /// contents are otherwise unspecified afterwards). What a random playout needs per ply.
    pub fn pick_legal_move(
        &self,
        moves: &mut MoveList<V>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<(Move<V>, usize)> {
        let me = self.turn;
        if self.is_lost() {
            return None;
        }
        let jumpers = self.jumpers(me);
        if !jumpers.is_empty() {
            moves.clear();
            self.search_captures(jumpers, &mut ListRoutes(moves));
            let n = moves.len();
            return moves.get(pick(n)).map(|&m| (m, n));
        }
        if self.hand[me] > 0 {
            let squares = self.entry_squares();
            let n = squares.len();
            if n == 0 {
                return None;
            }
            let to = nth_square(squares, pick(n))?;
            return Some((Move::Enter(to), n));
        }
        // The steps in the order of `try_for_each_quiet_move`: by direction, then by square.
        let own = self.owned[me];
        let empty = self.empty();
        let mut targets = [(Bitboard::EMPTY, 0); 6];
        let mut n = 0;
        for (dir, slot) in V::DIRECTIONS.into_iter().zip(&mut targets) {
            let to = own.shift(dir) & empty;
            *slot = (to, to.len());
            n += slot.1;
        }
        if n == 0 {
            return None;
        }
        let mut rank = pick(n);
        for (dir, (to, count)) in V::DIRECTIONS.into_iter().zip(targets) {
            if rank < count {
                let to = nth_square(to, rank)?;
                let from = Square::new_unchecked(
                    to.index().wrapping_add_signed(-Bitboard::<V>::step_by(dir)),
                );
                return Some((Move::Step { from, to }, n));
            }
            rank -= count;
        }
        None
    }

    /// Whether `mv` is legal here. Decided by the generator alone, which stops at the match.
    pub fn is_legal(&self, mv: Move<V>) -> bool {
        self.find_legal_move(|m| m == mv).is_some()
    }

    /// Whether the side to move has no legal move.
    pub fn has_no_moves(&self) -> bool {
        self.count_legal_moves() == 0
    }

    /// Whether `color` could capture in this position if it were to move (R5.1).
    #[inline]
    pub fn can_capture(&self, color: Color) -> bool {
        !self.jumpers(color).is_empty()
    }

    /// The squares of `color`'s columns that have a first jump available: an adjacent opponent
    /// column with an empty square beyond (R6).
    #[inline]
    pub(crate) fn jumpers(&self, color: Color) -> Bitboard<V> {
        let own = self.owned[color];
        let opp = self.owned[color.other()];
        let empty = self.empty();
        let mut from = Bitboard::EMPTY;
        for dir in V::DIRECTIONS {
            let back = dir.opposite();
            from |= own & opp.shift(back) & empty.shift(back).shift(back);
        }
        from
    }

    /// R9.3: White's very first move (the board empty, White to move), which may not be on the
    /// centre.
    pub(crate) fn is_first_move(&self) -> bool {
        self.turn == Color::White && self.empty() == Bitboard::ALL
    }

    /// The squares where the side to move may enter now (R9). Assumes it has men in hand and no
    /// capture.
    pub(crate) fn entry_squares(&self) -> Bitboard<V> {
        let me = self.turn;
        let empty = self.empty();
        let mut allowed = empty;
        if self.is_first_move() {
            allowed &= !const { Square::<V>::CENTRE }.bit();
        }
        // R9.4: no entry where the opponent could capture it, unless it can already capture.
        if !self.can_capture(me.other()) {
            allowed = allowed - attackable(allowed, self.owned[me.other()], empty);
        }
        allowed
    }

    /// Every capture of the greatest size among the columns on `jumpers` (the mover's, R6, R7),
    /// given to `routes` in the order of a depth-first search: columns by square number, jumps
    /// in [`Variant::DIRECTIONS`] order.
    fn search_captures(&self, jumpers: Bitboard<V>, routes: &mut impl Routes<V>) {
        let mut search = CaptureSearch {
            owned: self.owned,
            men: self.men,
            prisoners: &self.prisoners,
            me: self.turn,
            best: 0,
            routes,
        };
        for from in jumpers {
            // R7.2: the starting square is empty while the column moves.
            search.owned[self.turn] &= !from.bit();
            search.extend(from.index(), 0, CapturePath::new(from));
            search.owned[self.turn] |= from.bit();
        }
    }
}

/// The cell of `set` at index `rank` in number order, if the set has that many.
#[inline]
fn nth_square<V: Variant>(set: Bitboard<V>, rank: usize) -> Option<Square<V>> {
    let mut bits = set.0;
    for _ in 0..rank {
        bits &= bits.wrapping_sub(1);
    }
    Bitboard::<V>::from_bits(bits).first()
}

/// Appends `make(sq)` for each cell of `set`, lowest number first.
#[inline(always)]
fn push_each<V: Variant>(
    moves: &mut MoveList<V>,
    set: Bitboard<V>,
    make: impl Fn(Square<V>) -> Move<V>,
) {
    for sq in set {
        moves.push(make(sq));
    }
}

/// Where the capture search keeps the completed routes of the greatest length seen so far
/// (R7.3): a longer route makes it forget the shorter ones.
trait Routes<V: Variant> {
    /// A route longer than every one kept was found: forget them.
    fn restart(&mut self);
    /// Keeps a route of the greatest length seen so far.
    fn keep(&mut self, path: CapturePath<V>);
}

/// The routes written as moves into the caller's (empty) list.
struct ListRoutes<'a, V: Variant>(&'a mut MoveList<V>);

impl<V: Variant> Routes<V> for ListRoutes<'_, V> {
    #[inline(always)]
    fn restart(&mut self) {
        self.0.clear();
    }
    #[inline(always)]
    fn keep(&mut self, path: CapturePath<V>) {
        self.0.push(Move::Capture(path));
    }
}

/// Only the number of routes (bulk counting).
struct CountedRoutes(usize);

impl<V: Variant> Routes<V> for CountedRoutes {
    #[inline(always)]
    fn restart(&mut self) {
        self.0 = 0;
    }
    #[inline(always)]
    fn keep(&mut self, _: CapturePath<V>) {
        self.0 += 1;
    }
}

/// Routes kept without allocating: the first [`INLINE_ROUTES`].
const INLINE_ROUTES: usize = 32;

/// Routes kept on the stack, and on the heap only past [`INLINE_ROUTES`] of them.
struct BufferedRoutes<V: Variant> {
    inline: [CapturePath<V>; INLINE_ROUTES],
    len: usize,
    more: Vec<CapturePath<V>>,
}

impl<V: Variant> BufferedRoutes<V> {
    fn new() -> BufferedRoutes<V> {
        BufferedRoutes {
            inline: [CapturePath::new(Square::new_unchecked(0)); INLINE_ROUTES],
            len: 0,
            more: Vec::new(),
        }
    }

    /// The routes in the order they were kept.
    fn iter(&self) -> impl Iterator<Item = CapturePath<V>> + '_ {
        self.inline[..self.len.min(INLINE_ROUTES)]
            .iter()
            .chain(self.more.iter())
            .copied()
    }
}

impl<V: Variant> Routes<V> for BufferedRoutes<V> {
    #[inline]
    fn restart(&mut self) {
        self.len = 0;
        self.more.clear();
    }
    #[inline]
    fn keep(&mut self, path: CapturePath<V>) {
        if let Some(slot) = self.inline.get_mut(self.len) {
            *slot = path;
        } else {
            self.more.push(path);
        }
        self.len += 1;
    }
}

/// R9.4 (the entry condition) and R6 seen from the attacker: the squares of `targets` that a
/// column on `attackers` could jump at once, because an attacker stands next to the square on one
/// side and the square on the opposite side is in `empty`. The move generator forbids entries
/// there; the evaluation counts the columns so exposed.
#[inline]
pub fn attackable<V: Variant>(
    targets: Bitboard<V>,
    attackers: Bitboard<V>,
    empty: Bitboard<V>,
) -> Bitboard<V> {
    // An attacker at s+dir with s-dir empty, or the mirror image, for one direction of each
    // opposite pair (written out, so that every shift is by a constant).
    #[inline(always)]
    fn line<V: Variant>(attackers: Bitboard<V>, empty: Bitboard<V>, dir: Direction) -> Bitboard<V> {
        let back = dir.opposite();
        (attackers.shift(back) & empty.shift(dir)) | (attackers.shift(dir) & empty.shift(back))
    }
    let mut hit = line(attackers, empty, Direction::NumberUp);
    hit |= line(attackers, empty, Direction::LetterDown);
    if const { V::GEOMETRY.directions.len() == 6 } {
        hit |= line(attackers, empty, Direction::BothUp);
    }
    targets & hit
}

/// A capture in progress (R6, R7): the columns as they stand between jumps, men taken at once
/// (R7.2), on a copy of the bitboards and the top men only.
struct CaptureSearch<'a, V: Variant, R> {
    /// Each side's columns; the moving column's start square is in neither.
    owned: ByColor<Bitboard<V>>,
    /// The men on top of each column, less those taken so far.
    men: V::Cells,
    /// The prisoners of each column. Never changed: a column whose last top man is taken
    /// becomes the mover's, and the mover does not jump its own columns, so they are not read
    /// again in that capture.
    prisoners: &'a V::Cells,
    /// The side capturing.
    me: Color,
    /// The length of the longest route found so far.
    best: usize,
    /// The longest routes found so far.
    routes: &'a mut R,
}

/// The generator tries jumps in [`Variant::DIRECTIONS`] order and finds them as the set bits of
/// a mask, lowest first: the two orders are the same because the directions are listed by code.
const fn directions_in_code_order(directions: &[Direction]) -> bool {
    let mut i = 0;
    while i < directions.len() {
        if directions[i].index() != i {
            return false;
        }
        i += 1;
    }
    true
}

impl<V: Variant, R: Routes<V>> CaptureSearch<'_, V, R> {
    /// Depth-first search over the jump sequences of the column standing on cell `at`, which
    /// may not jump in the directions of the mask `banned` (R7.1: straight back along the jump
    /// it just made). Keeps the completed routes of the greatest length seen (R7.3), in the
    /// order found: jumps in [`Variant::DIRECTIONS`] order.
    fn extend(&mut self, at: usize, banned: u32, path: CapturePath<V>) {
        const { assert!(directions_in_code_order(V::GEOMETRY.directions)) };
        let me = self.me;
        let them = me.other();
        let opp = self.owned[them];
        let empty = !(self.owned.white | self.owned.black);
        let column = Bitboard::<V>::from_bits(1u64 << at);
        // R6: an opponent's column next to it, with an empty square beyond.
        let mut jumps = 0u32;
        for dir in V::DIRECTIONS {
            if !((column.shift(dir) & opp).shift(dir) & empty).is_empty() {
                jumps |= 1 << dir.index();
            }
        }
        jumps &= !banned;
        if jumps == 0 {
            if path.len() >= self.best {
                if path.len() > self.best {
                    self.best = path.len();
                    self.routes.restart();
                }
                self.routes.keep(path);
            }
            return;
        }
        while jumps != 0 {
            let dir = Direction::from_index(jumps.trailing_zeros() as usize);
            jumps &= jumps - 1;
            let by = Bitboard::<V>::step_by(dir);
            let over = at.wrapping_add_signed(by);
            let bit = Bitboard::<V>::from_bits(1u64 << over);
            // R6: the top man is taken; the men under it stay, liberated if they are ours.
            let saved = (self.owned, self.men[over]);
            if saved.1 > 1 {
                self.men[over] = saved.1 - 1;
            } else {
                self.owned[them] &= !bit;
                if self.prisoners[over] > 0 {
                    self.owned[me] |= bit;
                }
            }
            self.extend(
                over.wrapping_add_signed(by),
                1 << dir.opposite().index(),
                path.push(dir),
            );
            (self.owned, self.men[over]) = saved;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_stops_at_the_first_break() {
        let pos = crate::Position::start();
        let mut seen = 0;
        let flow = pos.try_for_each_legal_move(|m| {
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(m)
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(seen, 3);
        assert_eq!(flow, ControlFlow::Break(pos.legal_moves()[2]));
        let last = *pos.legal_moves().last().expect("moves");
        assert_eq!(pos.find_legal_move(|m| m == last), Some(last));
        assert_eq!(pos.find_legal_move(|_| false), None);
    }
}
