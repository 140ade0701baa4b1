//! The server's record import end to end: UTF-8 and the caps, the replay, storing the game and
//! loading it back (SQLite in memory). Whatever the input, the import answers an error or a
//! game, and a stored game loads back with the same moves and status. Run with a time budget
//! per input (scripts/fuzz.sh passes `-timeout=2`): a slow input is a finding.
#![no_main]

use emergo_server::import::{imported_meta, read_record};
use emergo_server::store::Store;
use emergo_server::Limits;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fn store() -> &'static Store {
    static STORE: OnceLock<Store> = OnceLock::new();
    STORE.get_or_init(|| {
        runtime()
            .block_on(Store::open("sqlite::memory:"))
            .expect("an in-memory database")
    })
}

fuzz_target!(|data: &[u8]| {
    let caps = Limits::default();
    if data.len() > caps.record_bytes {
        return; // refused before it is read
    }
    let Ok((tags, game)) = read_record(data, caps.record) else {
        return;
    };
    let meta = imported_meta(tags, &game);
    let store = store(); // opened outside block_on: opening blocks on the runtime itself
    runtime().block_on(async {
        store.insert_game(&meta, &game).await.expect("stored");
        let back = store.load(&meta.id).await.expect("loaded").expect("found");
        assert_eq!(back.game.move_texts(), game.move_texts());
        assert_eq!(back.game.status(), game.status());
    });
});
