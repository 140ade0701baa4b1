//! Perft: the number of move sequences of a given length (R7.4: two routes count twice).

use crate::movegen::MoveList;
use crate::position::Position;
use crate::variant::Variant;

/// The number of leaf nodes `depth` moves from `pos`, counting the last ply in bulk.
pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    let mut buffers: Vec<MoveList<V>> = (0..depth).map(|_| MoveList::with_capacity(48)).collect();
    perft_with(pos, depth, &mut buffers)
}

fn perft_with<V: Variant>(pos: &Position<V>, depth: u32, buffers: &mut [MoveList<V>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let Some((moves, rest)) = buffers.split_first_mut() else {
                return 0;
            };
            pos.legal_moves_into(moves);
            moves
                .iter()
                .map(|&m| {
                    let mut next = *pos;
                    next.play_unchecked(m);
                    perft_with(&next, depth - 1, rest)
                })
                .sum()
        }
    }
}

/// Perft split by root move: `(move, count)` for every legal move.
pub fn divide<V: Variant>(pos: &Position<V>, depth: u32) -> Vec<(crate::moves::Move<V>, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = *pos;
            next.play_unchecked(m);
            (m, perft(&next, depth - 1))
        })
        .collect()
}
