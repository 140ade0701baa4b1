//! The parsers of HexEmergo and Emergo 7×7 (RULES-hex.md, RULES-7x7.md): position text (N2)
//! parses or fails cleanly and what parses writes back to the same position; move text (N1)
//! against a position reached by the first bytes names a legal move or is refused; a record
//! parses or fails with a line and column, writes back to itself, replays, and is read for
//! a board other than the one its `[Variant]` tag names never (`record_variant` agrees).
#![no_main]
use emergo_core::game::Game;
use emergo_core::position::Position;
use emergo_core::record::GameRecord;
use emergo_core::{record_variant, Emergo, Emergo7x7, HexEmergo, Variant};
use libfuzzer_sys::fuzz_target;

fn position_text<V: Variant>(text: &str) {
    if let Ok(pos) = text.parse::<Position<V>>() {
        let written = pos.to_string();
        let back: Position<V> = written.parse().expect("written text reads back");
        assert_eq!(back, pos);
        assert_eq!(back.to_string(), written);
        let _ = pos.legal_moves();
    }
}

fn move_text<V: Variant>(choices: &[u8], text: &str) {
    let mut game = Game::<V>::default();
    for c in choices.iter().take(150) {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        let _ = game.play(moves[*c as usize % moves.len()]);
    }
    if let Ok(mv) = game.position().parse_move(text) {
        assert!(game.position().legal_moves().contains(&mv));
    }
}

/// Whether the record reads on the board `V`; what reads writes back and replays.
fn record<V: Variant>(text: &str) -> bool {
    match GameRecord::<V>::parse(text) {
        Ok(record) => {
            let written = record.to_string();
            if !written.contains("\\}") {
                let back = GameRecord::<V>::parse(&written).expect("written record reads back");
                assert_eq!(back.moves, record.moves);
            }
            let game = record.to_game().expect("a record that parses replays");
            assert_eq!(game.moves().len(), record.moves.len());
            true
        }
        Err(e) => {
            assert!(e.line_column().is_some() || e.variant.is_some(), "{e}");
            if let Some(kind) = e.variant {
                assert_ne!(kind, V::KIND);
            }
            false
        }
    }
}

fuzz_target!(|input: (Vec<u8>, &str)| {
    let (choices, text) = input;
    position_text::<HexEmergo>(text);
    position_text::<Emergo7x7>(text);
    move_text::<HexEmergo>(&choices, text);
    move_text::<Emergo7x7>(&choices, text);
    let read = [
        (Emergo::KIND, record::<Emergo>(text)),
        (Emergo7x7::KIND, record::<Emergo7x7>(text)),
        (HexEmergo::KIND, record::<HexEmergo>(text)),
    ];
    // A record whose tag names a board other than the square one reads on that board alone.
    if let Ok(named) = record_variant(text) {
        if named != Emergo::KIND {
            for (kind, ok) in read {
                assert!(!ok || kind == named, "read as {kind} but tagged {named}");
            }
        }
    }
});
