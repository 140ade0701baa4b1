//! Issues 20 and 22: `emergo explorer import` and `emergo explorer rebuild` on a database of
//! their own, with records of two boards.

use crate::common::*;

#[test]
fn explorer_import_counts_each_record_once_on_its_board_and_rebuild_starts_from_the_stored_games() {
    let dir = tempfile::tempdir().expect("a folder");
    let records = dir.path().join("games.pgn");
    let db = format!("sqlite://{}", dir.path().join("explorer.db").display());
    // Finished games of two boards: 9×9 and the hexagon, two each, with their results.
    let mut text = String::new();
    for variant in ["emergo", "hex"] {
        let pgn = dir.path().join(format!("{variant}.pgn"));
        let out = emergo(&[
            "match",
            "--variant",
            variant,
            "--engine",
            "random",
            "--engine",
            "greedy",
            "--games",
            "2",
            "--pgn",
            pgn.to_str().expect("path"),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        text.push_str(&std::fs::read_to_string(&pgn).expect("the records"));
        text.push('\n');
    }
    // And a record that does not read: said with its line, the others indexed all the same.
    text.push_str("[Result \"1-0\"]\n\nz9\n");
    std::fs::write(&records, &text).expect("written");
    let import = || {
        emergo(&[
            "explorer",
            "import",
            records.to_str().expect("path"),
            "--db",
            &db,
        ])
    };

    let out = import();
    assert_eq!(
        out.status.code(),
        Some(1),
        "an unreadable record: {}",
        stderr(&out)
    );
    assert!(
        stdout(&out)
            .contains("indexed 4 records; 0 indexed before; 0 without a result; 1 unreadable"),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("not indexed"), "{}", stderr(&out));
    // The same file again: every record known, whichever board.
    let out = import();
    assert!(
        stdout(&out).contains("indexed 0 records; 4 indexed before"),
        "{}",
        stdout(&out)
    );
    // A rebuild indexes the stored games (none here) and forgets the records' counts.
    let out = emergo(&["explorer", "rebuild", "--db", &db]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("indexed 0 games (0 finished games in all)"),
        "{}",
        stdout(&out)
    );
    // A database that cannot be opened is said, with its name.
    let missing = format!("sqlite://{}/no/such/folder/x.db", dir.path().display());
    let out = emergo(&["explorer", "rebuild", "--db", &missing]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains(&format!("cannot open the database {missing}")),
        "{}",
        stderr(&out)
    );
}
