//! The database alone: the last line of defence against two moves for one ply. The tests that
//! take `temp_db()` run on PostgreSQL too (store_pg.rs).

mod common;

use common::temp_db;
use emergo_core::{ByColor, Color, EndReason, Game, Outcome, Status};
use emergo_server::model::{GameMeta, Mode, Seat, SeatKind};
use emergo_server::store::{Store, StoreError};

fn human_game(id: &str) -> GameMeta {
    let seat = || Seat {
        kind: SeatKind::Human,
        token_hash: None,
    };
    GameMeta {
        id: id.to_string(),
        mode: Mode::Human,
        level: None,
        seats: ByColor::new(seat(), seat()),
        invite_hash: None,
        tags: Vec::new(),
        draw_offer: None,
        rematch: Default::default(),
        players: Default::default(),
        created_at: "2026-11-30T00:00:00Z".to_string(),
        updated_at: "2026-11-30T00:00:00Z".to_string(),
    }
}

#[tokio::test]
async fn the_moves_key_refuses_a_second_move_for_one_ply() {
    let (_dir, _, url) = temp_db();
    let store = Store::open(&url).await.expect("opens and migrates");
    let meta = human_game("g1");
    store
        .insert_game(&meta, &Game::default())
        .await
        .expect("stored");
    let now = "2026-11-30T00:00:01Z";
    store
        .append_move("g1", 0, 0, "d3", Status::Ongoing, now)
        .await
        .expect("the first move of ply 0");
    let second = store
        .append_move("g1", 1, 0, "e1", Status::Ongoing, now)
        .await;
    assert!(matches!(second, Err(StoreError::Conflict(_))), "{second:?}");
    let skipped = store
        .append_move("g1", 1, 5, "e1", Status::Ongoing, now)
        .await;
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
    let store = Store::open(&url).await.expect("reopens");
    let game = store.load("g1").await.expect("read").expect("found");
    assert_eq!(game.game.ply(), 1);
    assert!(store.load("nope").await.expect("read").is_none());
}

#[tokio::test]
async fn an_in_memory_database_keeps_its_games_across_requests() {
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
    let (_dir, _, url) = temp_db();
    let a = Store::open(&url).await.expect("opens");
    let b = Store::open(&url).await.expect("opens too");
    let now = "2026-11-30T00:00:01Z";
    for round in 0..20 {
        let id = format!("race{round}");
        a.insert_game(&human_game(&id), &Game::default())
            .await
            .expect("stored");
        let (first, second) = tokio::join!(
            a.append_move(&id, 0, 0, "d3", Status::Ongoing, now),
            b.append_move(&id, 0, 0, "e1", Status::Ongoing, now),
        );
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
        a.take_seat(id, 0, emergo_core::Color::Black, "hash-a", now),
        b.take_seat(id, 0, emergo_core::Color::Black, "hash-b", now),
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
    let (_dir, _, url) = temp_db();
    let a = Store::open(&url).await.expect("opens");
    let b = Store::open(&url).await.expect("opens too");
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
    assert!(conflict(
        b.append_move(id, 0, 0, "d3", Status::Ongoing, now).await
    ));
    assert!(conflict(b.take_seat(id, 0, Color::Black, "h", now).await));
    let resigned = Status::Finished {
        outcome: Outcome::Win(Color::White),
        reason: EndReason::Resignation,
    };
    assert!(conflict(b.finish(id, 0, resigned, now).await));
    assert!(conflict(b.truncate(id, 0, 0, now).await));
    let stored = b.load(id).await.expect("read").expect("found");
    assert_eq!(stored.version, 1);
    assert_eq!(stored.meta.draw_offer, Some(Color::White));
    assert_eq!(stored.game.ply(), 0);
    assert!(stored.meta.seats.black.token_hash.is_none());
    // At the current version each write goes through and bumps it.
    b.append_move(id, 1, 0, "d3", Status::Ongoing, now)
        .await
        .expect("a move at version 1");
    b.take_seat(id, 2, Color::Black, "h", now)
        .await
        .expect("a seat at version 2");
    b.truncate(id, 3, 0, now)
        .await
        .expect("a takeback at version 3");
    b.finish(id, 4, resigned, now)
        .await
        .expect("an ending at version 4");
    // An ended game takes no more moves or offers, whatever version they name.
    assert!(conflict(
        a.append_move(id, 5, 0, "d3", Status::Ongoing, now).await
    ));
    assert!(conflict(a.set_draw_offer(id, 5, None, now).await));
    assert!(conflict(a.finish(id, 5, resigned, now).await));
    let stored = a.load(id).await.expect("read").expect("found");
    assert_eq!(stored.version, 5);
    assert!(stored.game.is_over());
    assert_eq!(a.moves(id).await.expect("read"), Vec::<String>::new());
}
