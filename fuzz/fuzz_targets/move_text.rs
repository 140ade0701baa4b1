//! Move text (N1): any text against a position reached by the first bytes either names a legal
//! move or is refused; never a panic, never an illegal move.
#![no_main]
use emergo_core::{Game, MoveText};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (Vec<u8>, &str)| {
    let (choices, text) = input;
    let mut game = Game::default();
    for c in choices.iter().take(150) {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        let _ = game.play(moves[*c as usize % moves.len()]);
    }
    let _ = text.parse::<MoveText>();
    if let Ok(mv) = game.position().parse_move(text) {
        assert!(game.position().legal_moves().contains(&mv));
    }
});
