//! A long game that never ends, made by the rules library (shared by the tests and the load
//! test, examples/loadtest.rs).

/// A legal game of `plies` moves (at most) that never ends: the men are entered, then step
/// about. Each move is one whose position has come least often so far (never a third time,
/// R10.3), preferring those that give the other side no capture and leave it many moves, ties
/// broken by a fixed pseudo-random sequence; at a dead end it takes moves back and tries others
/// (a bounded number of times, then the game stops early).
pub fn shuffling_game(plies: usize) -> emergo_core::Game {
    use emergo_core::{Game, Move, Phase, Position};
    use std::collections::{HashMap, HashSet};
    let mut game = Game::default();
    let mut seen: HashMap<Position, u32> = HashMap::new();
    seen.insert(*game.position(), 1);
    let mut tried: HashSet<(Position, Move)> = HashSet::new();
    let mut backtracks = 0;
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    while game.ply() < plies {
        let pos = *game.position();
        // (times seen, gives a capture, a little chance, fewer replies), the move, where it goes
        type Choice = ((u32, bool, u64, usize), Move, Position);
        let mut best: Option<Choice> = None;
        for mv in pos.legal_moves().iter() {
            if tried.contains(&(pos, *mv)) {
                continue;
            }
            let Ok(next) = pos.play(*mv) else { continue };
            let count = seen.get(&next).copied().unwrap_or(0);
            let replies = next.legal_moves().len();
            if count >= 2 || replies == 0 {
                continue;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let key = (
                count,
                next.phase() == Phase::Capture,
                rng % 4,
                usize::MAX - replies,
            );
            if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                best = Some((key, *mv, next));
            }
        }
        let Some((_, mv, next)) = best else {
            // A dead end: take the last move back and never play it there again.
            backtracks += 1;
            if backtracks > 100_000 || game.ply() == 0 {
                break;
            }
            if let Some(n) = seen.get_mut(&pos) {
                *n -= 1;
            }
            game.undo();
            continue;
        };
        tried.insert((pos, mv));
        game.play(mv).expect("a legal move");
        *seen.entry(next).or_insert(0) += 1;
    }
    game
}
