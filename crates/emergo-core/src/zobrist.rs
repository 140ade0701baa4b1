//! Zobrist keys. A position's hash is the XOR of one key per column (its square, owner and height,
//! and its prisoners), one per hand size, and one for Black to move. `Position` keeps it up to date
//! as squares change; `Position::hash_from_scratch` recomputes it. The keys of the 9×9 board's
//! 41 squares, the hands and the side to move are drawn first, in the order they always were
//! (so its hashes, and the search's node counts, did not change with the variants); the keys of
//! the other cell numbers (up to 64) are drawn after them.

use crate::board::SQUARE_COUNT;
use crate::color::Color;
use crate::variant::MAX_SLOTS;

/// Heights and hand sizes run 0..=12 (R2: 12 men a side): the keys drawn.
const SIZES: usize = 13;

/// Places per height in the tables: a power of two above 12, so that an index is a mask (the
/// places past 12 are never drawn, and stay 0).
const PLACES: usize = 16;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

struct Keys {
    men: [[[u64; PLACES]; 2]; MAX_SLOTS],
    prisoners: [[u64; PLACES]; MAX_SLOTS],
    hand: [[u64; PLACES]; 2],
    black_to_move: u64,
}

const KEYS: Keys = {
    let mut keys = Keys {
        men: [[[0; PLACES]; 2]; MAX_SLOTS],
        prisoners: [[0; PLACES]; MAX_SLOTS],
        hand: [[0; PLACES]; 2],
        black_to_move: 0,
    };
    let mut state = 0x454D_4552_474F_2121u64; // "EMERGO!!"
    let mut s = 0;
    while s < MAX_SLOTS {
        if s == SQUARE_COUNT {
            // The hands and the side to move come after the 9×9 board's squares.
            let mut c = 0;
            while c < 2 {
                let mut n = 0;
                while n < SIZES {
                    let (next, key) = splitmix(state);
                    state = next;
                    keys.hand[c][n] = key;
                    n += 1;
                }
                c += 1;
            }
            let (next, key) = splitmix(state);
            state = next;
            keys.black_to_move = key;
        }
        let mut n = 0;
        while n < SIZES {
            let mut c = 0;
            while c < 2 {
                let (next, key) = splitmix(state);
                state = next;
                keys.men[s][c][n] = key;
                c += 1;
            }
            if n > 0 {
                let (next, key) = splitmix(state);
                state = next;
                keys.prisoners[s][n] = key;
            }
            n += 1;
        }
        s += 1;
    }
    keys
};

/// A height or hand size as a table index. Never above 12 in a position (R2); the mask only
/// spares the lookup a panic path (one AND, where a `% 13` was a multiply and four more steps).
#[inline(always)]
fn size(n: u8) -> usize {
    n as usize & (PLACES - 1)
}

/// The key of a column of `men` men of `owner` over `prisoners` prisoners on square `sq`.
#[inline(always)]
pub(crate) fn column_key(sq: usize, owner: Color, men: u8, prisoners: u8) -> u64 {
    KEYS.men[sq][owner as usize][size(men)] ^ KEYS.prisoners[sq][size(prisoners)]
}

/// The key of `color` holding `count` men in hand.
#[inline(always)]
pub(crate) fn hand_key(color: Color, count: u8) -> u64 {
    KEYS.hand[color as usize][size(count)]
}

/// The key XORed in when Black is to move.
#[inline(always)]
pub(crate) fn black_to_move_key() -> u64 {
    KEYS.black_to_move
}
