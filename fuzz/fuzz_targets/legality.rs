//! `legal_moves` contains m ⇔ `try_play(m)` succeeds, for arbitrary moves (entries, steps and
//! capture paths) in positions reached by random play; a refused move changes nothing.
#![no_main]
use emergo_core::{CapturePath, Direction, Game, Move, Square};
use libfuzzer_sys::fuzz_target;

fn decode(bytes: &[u8]) -> Option<Move> {
    let (&kind, rest) = bytes.split_first()?;
    let (&a, rest) = rest.split_first()?;
    let from = Square::new(a as usize % 41)?;
    match kind % 3 {
        0 => Some(Move::Enter(from)),
        1 => {
            let (&b, _) = rest.split_first()?;
            Some(Move::Step {
                from,
                to: Square::new(b as usize % 41)?,
            })
        }
        _ => {
            let dirs: Vec<Direction> = rest
                .iter()
                .take(12)
                .map(|&b| Direction::from_index(b as usize))
                .collect();
            CapturePath::from_directions(from, &dirs).map(Move::Capture)
        }
    }
}

fuzz_target!(|input: (Vec<u8>, Vec<u8>)| {
    let (choices, candidate) = input;
    let mut game = Game::default();
    for c in choices.iter().take(200) {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let _ = game.play(moves[*c as usize % moves.len()]);
    }
    let pos = *game.position();
    let legal = pos.legal_moves();
    for m in legal.iter().copied().chain(decode(&candidate)) {
        let mut q = pos;
        let ok = q.try_play(m).is_ok();
        assert_eq!(ok, legal.contains(&m));
        assert_eq!(ok, pos.parse_move(&m.to_string()).is_ok_and(|p| p == m));
        if !ok {
            assert_eq!(q, pos);
        } else {
            assert_eq!(q.hash(), q.hash_from_scratch());
        }
    }
});
