//! Position text (N2): any input parses or fails cleanly; what parses writes back and re-reads
//! to the same position.
#![no_main]
use emergo_core::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(pos) = text.parse::<Position>() {
        let written = pos.to_string();
        let back: Position = written.parse().expect("written text reads back");
        assert_eq!(back, pos);
        assert_eq!(back.to_string(), written);
        let _ = pos.legal_moves();
    }
});
