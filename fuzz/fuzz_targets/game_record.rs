//! Game records: any input parses or fails with a line and column; what parses (variations and
//! comments included) writes back and re-reads to the same record, and its main line replays.
//! The same input read within small caps parses to the same record or names the cap it passed.
#![no_main]
use emergo_core::{GameRecord, RecordLimits, RecordMove};
use libfuzzer_sys::fuzz_target;

/// Every comment of a line and of its variations, nested.
fn comments<'a>(moves: &'a [RecordMove], out: &mut Vec<&'a str>) {
    for m in moves {
        out.extend(m.comment.as_deref());
        for variation in &m.variations {
            comments(variation, out);
        }
    }
}

const SMALL: RecordLimits = RecordLimits {
    tags: 4,
    tag_length: 16,
    comment_length: 16,
    plies: 8,
    variation_depth: 2,
    variation_moves: 6,
};

fuzz_target!(|text: &str| {
    let small = GameRecord::parse_within(text, SMALL);
    match GameRecord::parse(text) {
        Ok(record) => {
            // Comments holding '}' cannot be written back.
            let mut all: Vec<&str> = record.opening_comment.as_deref().into_iter().collect();
            comments(&record.moves, &mut all);
            if all.iter().all(|c| !c.contains('}')) {
                let written = record.to_string();
                let back = GameRecord::parse(&written).expect("written record reads back");
                assert_eq!(back, record);
            }
            let game = record.to_game().expect("a record that parses replays");
            assert_eq!(game.moves().len(), record.moves.len());
            match small {
                Ok(within) => assert_eq!(within, record),
                Err(e) => assert!(e.limit.is_some(), "{e}"),
            }
        }
        Err(e) => {
            assert!(small.is_err());
            assert!(e.line_column().is_some(), "{e}");
        }
    }
});
