//! The database alone: the last line of defence against two moves for one ply. The tests on a
//! [`TestDb`] run on both backends; the three that open SQLite files and memory by their names run
//! on the SQLite run only.

use crate::common::{skip_unless, Backend, TestDb};
use emergo_core::{AnyGame as Game, Color, EndReason, Outcome, Status};
use emergo_platform::fixtures::human_game;
use emergo_platform::store::{ClockColumns, MoveWrite, Store, StoreError};
use emergo_server::clock::GameClock;

/// An untimed move at `ply`, decided on `version`.
fn play<'a>(version: i64, ply: usize, text: &'a str, now: &'a str) -> MoveWrite<'a> {
    MoveWrite {
        version,
        ply,
        text,
        status: Status::Ongoing,
        clock: ClockColumns::default(),
        now,
    }
}

/// The sweep finds a running clock's flag; the flag falls exactly once (the version's
/// compare-and-set), stopping the clock, and no move is stored after it.
#[tokio::test]
async fn a_flag_falls_once_and_no_move_is_stored_after_it() {
    let db = TestDb::new();
    let url = db.url();
    let store = Store::open(url).await.expect("store");
    let now = "2026-11-30T00:00:00Z";
    let mut meta = human_game("t1");
    let mut clock = GameClock::new("0.25+0".parse().expect("a time control"));
    clock.start(1_000);
    meta.clock = Some(clock);
    store
        .insert_game(&meta, &Game::default())
        .await
        .expect("insert");
    let flag_at = 1_000 + 15_000 + emergo_server::clock::LAG_ALLOWANCE_MS;
    assert_eq!(
        store.due_flags(flag_at, 10).await.expect("sweep"),
        vec![("t1".to_string(), flag_at)]
    );
    assert!(store
        .due_flags(flag_at - 1, 10)
        .await
        .expect("sweep")
        .is_empty());
    let aborted = Status::Finished {
        outcome: Outcome::Draw,
        reason: EndReason::Aborted,
    };
    let stopped = ClockColumns {
        white_ms: Some(0),
        black_ms: Some(15_000),
        ..ClockColumns::default()
    };
    let (a, b) = tokio::join!(
        store.finish("t1", 0, aborted, stopped, now),
        store.finish("t1", 0, aborted, stopped, now)
    );
    assert_eq!(
        [a.is_ok(), b.is_ok()].iter().filter(|ok| **ok).count(),
        1,
        "{a:?} {b:?}"
    );
    let late = store.append_move("t1", &play(1, 0, "d3", now)).await;
    assert!(matches!(late, Err(StoreError::Conflict(_))), "{late:?}");
    assert!(store
        .due_flags(i64::MAX, 10)
        .await
        .expect("sweep")
        .is_empty());
    let stored = store.load("t1").await.expect("load").expect("a game");
    assert_eq!(stored.game.status(), aborted);
    let clock = stored.meta.clock.expect("a clock");
    assert!(!clock.running());
    assert_eq!((clock.left.white, clock.left.black), (0, 15_000));
}

/// Moves of many games at once (SQLite writes them in groups, one commit for all): each
/// right move is stored, each move decided on a stale version is refused alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_of_many_games_at_once_are_each_stored_or_refused_alone() {
    let db = TestDb::new();
    let url = db.url();
    let store = Store::open(url).await.expect("store");
    let now = "2026-12-01T00:00:01Z";
    let ids: Vec<String> = (0..48).map(|i| format!("m{i}")).collect();
    for id in &ids {
        store
            .insert_game(&human_game(id), &Game::default())
            .await
            .expect("insert");
    }
    let tasks: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let (store, id) = (store.clone(), id.clone());
            // Every third game's move names a version the game never had.
            let version = if i % 3 == 0 { 7 } else { 0 };
            tokio::spawn(async move {
                let answer = store.append_move(&id, &play(version, 0, "d3", now)).await;
                (version, answer)
            })
        })
        .collect();
    for (id, task) in ids.iter().zip(tasks) {
        let (version, answer) = task.await.expect("task");
        let moves = store.moves(id).await.expect("read");
        if version == 0 {
            assert!(answer.is_ok(), "{id}: {answer:?}");
            assert_eq!(moves, ["d3"], "{id}");
        } else {
            assert!(
                matches!(answer, Err(StoreError::Conflict(_))),
                "{id}: {answer:?}"
            );
            assert!(moves.is_empty(), "{id}: {moves:?}");
        }
    }
}

#[tokio::test]
async fn the_moves_key_refuses_a_second_move_for_one_ply() {
    let db = TestDb::new();
    let url = db.url();
    let store = Store::open(url).await.expect("opens and migrates");
    let meta = human_game("g1");
    store
        .insert_game(&meta, &Game::default())
        .await
        .expect("stored");
    let now = "2026-11-30T00:00:01Z";
    store
        .append_move("g1", &play(0, 0, "d3", now))
        .await
        .expect("the first move of ply 0");
    let second = store.append_move("g1", &play(1, 0, "e1", now)).await;
    assert!(matches!(second, Err(StoreError::Conflict(_))), "{second:?}");
    let skipped = store.append_move("g1", &play(1, 5, "e1", now)).await;
    assert!(
        matches!(skipped, Err(StoreError::Conflict(_))),
        "a ply cannot be skipped"
    );
    assert_eq!(store.moves("g1").await.expect("read"), ["d3"]);
    let again = store.insert_game(&meta, &Game::default()).await;
    assert!(
        matches!(again, Err(StoreError::Conflict(_))),
        "one game per id"
    );

    // Reopened (migrations already applied), the game replays.
    store.close().await;
    let store = Store::open(url).await.expect("reopens");
    let game = store.load("g1").await.expect("read").expect("found");
    assert_eq!(game.game.ply(), 1);
    assert!(store.load("nope").await.expect("read").is_none());
}

#[tokio::test]
async fn an_in_memory_database_keeps_its_games_across_requests() {
    if skip_unless(Backend::Sqlite) {
        return;
    }
    let store = Store::open("sqlite::memory:").await.expect("opens");
    let meta = human_game("m1");
    store
        .insert_game(&meta, &Game::default())
        .await
        .expect("stored");
    for _ in 0..3 {
        assert!(store.load("m1").await.expect("read").is_some());
    }
}

#[tokio::test]
async fn a_plain_file_name_opens_the_same_database_as_its_url() {
    if skip_unless(Backend::Sqlite) {
        return;
    }
    // A plain name is taken as it is: characters that mean something in a URL are just bytes.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let folder = dir.path().join("what? #1");
    std::fs::create_dir(&folder).expect("folder");
    let path = folder.join("games.db");
    let store = Store::open(path.to_str().expect("utf-8"))
        .await
        .expect("opens");
    store
        .insert_game(&human_game("g1"), &Game::default())
        .await
        .expect("stored");
    store.close().await;
    assert!(path.exists(), "the file is where it was named");
    let reopened = Store::open(path.to_str().expect("utf-8"))
        .await
        .expect("reopens");
    assert!(reopened.load("g1").await.expect("read").is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_database_file_opens_every_time() {
    if skip_unless(Backend::Sqlite) {
        return;
    }
    // The pool opens its connections concurrently; on a new file each of them switching to WAL
    // at once made SQLite answer "database is locked" now and then (a CI run failed so).
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    for n in 0..60 {
        let path = dir.path().join(format!("new{n}.db"));
        let url = format!("sqlite://{}", path.display());
        let store = Store::open(&url)
            .await
            .unwrap_or_else(|e| panic!("open {n}: {e}"));
        store
            .insert_game(&human_game("g1"), &Game::default())
            .await
            .expect("stored");
        store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_racing_for_one_ply_store_exactly_one_move_every_time() {
    // Two stores over one database stand for two server instances.
    let db = TestDb::new();
    let url = db.url();
    let a = Store::open(url).await.expect("opens");
    let b = Store::open(url).await.expect("opens too");
    let now = "2026-11-30T00:00:01Z";
    for round in 0..20 {
        let id = format!("race{round}");
        a.insert_game(&human_game(&id), &Game::default())
            .await
            .expect("stored");
        let (d3, e1) = (play(0, 0, "d3", now), play(0, 0, "e1", now));
        let (first, second) = tokio::join!(a.append_move(&id, &d3), b.append_move(&id, &e1));
        let accepted = [&first, &second].iter().filter(|r| r.is_ok()).count();
        assert_eq!(accepted, 1, "round {round}: {first:?} {second:?}");
        for refused in [first, second].into_iter().filter_map(Result::err) {
            assert!(matches!(refused, StoreError::Conflict(_)), "{refused:?}");
        }
        let stored = a.moves(&id).await.expect("read");
        assert_eq!(stored.len(), 1);
        let seen_by_b = b.load(&id).await.expect("read").expect("found");
        assert_eq!(seen_by_b.game.ply(), 1);
    }
    // A second seat for one colour: also exactly one.
    let id = "seats";
    a.insert_game(&human_game(id), &Game::default())
        .await
        .expect("stored");
    let (first, second) = tokio::join!(
        a.take_seat(
            id,
            0,
            emergo_core::Color::Black,
            "hash-a",
            ClockColumns::default(),
            now
        ),
        b.take_seat(
            id,
            0,
            emergo_core::Color::Black,
            "hash-b",
            ClockColumns::default(),
            now
        ),
    );
    assert_eq!(
        [&first, &second].iter().filter(|r| r.is_ok()).count(),
        1,
        "{first:?} {second:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_write_names_the_version_it_was_decided_on_and_a_changed_game_refuses_it() {
    // Two stores over one database stand for two instances whose caches hold version 0.
    let db = TestDb::new();
    let url = db.url();
    let a = Store::open(url).await.expect("opens");
    let b = Store::open(url).await.expect("opens too");
    let now = "2026-11-30T00:00:01Z";
    let id = "versions";
    a.insert_game(&human_game(id), &Game::default())
        .await
        .expect("stored");
    assert_eq!(b.version(id).await.expect("read"), Some(0));
    assert_eq!(b.version("nope").await.expect("read"), None);
    a.set_draw_offer(id, 0, Some(Color::White), now)
        .await
        .expect("an offer at version 0");
    assert_eq!(b.version(id).await.expect("read"), Some(1));
    // B decided on version 0: every kind of write is refused, and nothing changes.
    let conflict = |r: Result<(), StoreError>| matches!(r, Err(StoreError::Conflict(_)));
    assert!(conflict(
        b.set_draw_offer(id, 0, Some(Color::Black), now).await
    ));
    assert!(conflict(b.append_move(id, &play(0, 0, "d3", now)).await));
    assert!(conflict(
        b.take_seat(id, 0, Color::Black, "h", ClockColumns::default(), now)
            .await
    ));
    let resigned = Status::Finished {
        outcome: Outcome::Win(Color::White),
        reason: EndReason::Resignation,
    };
    assert!(conflict(
        b.finish(id, 0, resigned, ClockColumns::default(), now)
            .await
    ));
    assert!(conflict(
        b.truncate(id, 0, 0, ClockColumns::default(), now).await
    ));
    let stored = b.load(id).await.expect("read").expect("found");
    assert_eq!(stored.version, 1);
    assert_eq!(stored.meta.draw_offer, Some(Color::White));
    assert_eq!(stored.game.ply(), 0);
    assert!(stored.meta.seats.black.token_hash.is_none());
    // At the current version each write goes through and bumps it.
    b.append_move(id, &play(1, 0, "d3", now))
        .await
        .expect("a move at version 1");
    b.take_seat(id, 2, Color::Black, "h", ClockColumns::default(), now)
        .await
        .expect("a seat at version 2");
    b.truncate(id, 3, 0, ClockColumns::default(), now)
        .await
        .expect("a takeback at version 3");
    b.finish(id, 4, resigned, ClockColumns::default(), now)
        .await
        .expect("an ending at version 4");
    // An ended game takes no more moves or offers, whatever version they name.
    assert!(conflict(a.append_move(id, &play(5, 0, "d3", now)).await));
    assert!(conflict(a.set_draw_offer(id, 5, None, now).await));
    assert!(conflict(
        a.finish(id, 5, resigned, ClockColumns::default(), now)
            .await
    ));
    let stored = a.load(id).await.expect("read").expect("found");
    assert_eq!(stored.version, 5);
    assert!(stored.game.is_over());
    assert_eq!(a.moves(id).await.expect("read"), Vec::<String>::new());
}

/// Issue 20, item 4: a stored game keeps its board (`variant`), in the list of games too; the
/// loader replays a game's moves on its own board (a hex and a 7x7 game come back with their
/// moves, position and board).
#[tokio::test]
async fn item4_a_stored_game_keeps_its_variant_and_is_replayed_on_its_board() {
    use emergo_core::VariantKind;
    let db = TestDb::new();
    let store = Store::open(db.url()).await.expect("opens and migrates");
    let meta = human_game("v1");
    assert_eq!(meta.variant, VariantKind::Emergo);
    store
        .insert_game(&meta, &Game::default())
        .await
        .expect("stored");
    let loaded = store.load("v1").await.expect("read").expect("found");
    assert_eq!(loaded.meta.variant, VariantKind::Emergo);
    for (id, kind) in [
        ("v2", VariantKind::HexEmergo),
        ("v3", VariantKind::Emergo7x7),
    ] {
        let mut game = Game::start(kind);
        for _ in 0..6 {
            let mv = game.legal_move_texts()[0].clone();
            game.play_text(&mv).expect("a legal move");
        }
        let mut other = human_game(id);
        other.variant = kind;
        store.insert_game(&other, &game).await.expect("stored");
        let back = store.load(id).await.expect("read").expect("found");
        assert_eq!(back.meta.variant, kind);
        assert_eq!(back.game.kind(), kind);
        assert_eq!(back.game.move_texts(), game.move_texts());
        assert_eq!(back.game.position_text(), game.position_text());
    }
    let list = store
        .list(emergo_platform::store::StatusFilter::All, 10)
        .await
        .expect("listed");
    let variants: Vec<(&str, VariantKind)> =
        list.iter().map(|r| (r.id.as_str(), r.variant)).collect();
    assert!(
        variants.contains(&("v1", VariantKind::Emergo)),
        "{variants:?}"
    );
    assert!(
        variants.contains(&("v2", VariantKind::HexEmergo)),
        "{variants:?}"
    );
}
