//! Game records: any input parses or fails with a line and column; what parses writes back and
//! re-reads to the same record.
#![no_main]
use emergo_core::GameRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(record) = GameRecord::parse(text) {
        let written = record.to_string();
        // Comments holding '}' or tag values holding newlines cannot be written back.
        let writable = record
            .moves
            .iter()
            .filter_map(|m| m.comment.as_ref())
            .chain(record.opening_comment.as_ref())
            .all(|c| !c.contains('}'));
        if writable {
            let back = GameRecord::parse(&written).expect("written record reads back");
            assert_eq!(back, record);
        }
        record.to_game().expect("a record that parses replays");
    }
});
