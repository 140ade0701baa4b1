//! `emergo db copy`: every game of one database into another, losslessly. The games are made
//! through the API on SQLite, copied into a fresh database (PostgreSQL in copy_pg.rs, when
//! EMERGO_TEST_PG_URL is set) and from there into a second SQLite file; every game reads the
//! same in all three.

mod common;

use common::*;
use emergo_server::copy::{copy_databases, CopyReport};
use emergo_server::store::Store;
use reqwest::StatusCode;
use serde_json::json;

/// Everything a store says about a game: its metadata (every field), start, moves, ending,
/// kept record text and review.
async fn everything(store: &Store, id: &str) -> String {
    let stored = store.load(id).await.expect("read").expect("found");
    let record = store.record(id).await.expect("read");
    let review = store.review(id).await.expect("read");
    format!(
        "{:?}\nstart {}\nmoves {:?}\nstatus {:?}\nrecord {record:?}\nreview {review:?}",
        stored.meta,
        stored.game.start(),
        stored.game.moves(),
        stored.game.status()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_copies_into_another_database_and_back_the_same() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let source = format!("sqlite://{}", dir.path().join("source.db").display());
    let srv = TestServer::start_on(&source, dir.path().join("source.db")).await;

    // A game between people with moves and a standing draw offer; one ended by resignation;
    // an engine game; a game from a set-up position; an imported record with its tags.
    let (white, black) = srv.human_game().await;
    let id = id_of(&white);
    let mut game = black["game"].clone();
    for ply in 0..6 {
        let token = if ply % 2 == 0 {
            &white["token"]
        } else {
            &black["token"]
        };
        let (status, answer) = srv.play(&id, token, ply, &first_legal(&game)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        game = answer;
    }
    let (status, _) = srv
        .post(
            &format!("/api/games/{id}/draw"),
            json!({"token": white["token"], "action": "offer"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (resigned, _) = srv.human_game().await;
    let (status, _) = srv
        .post(
            &format!("/api/games/{}/resign", id_of(&resigned)),
            json!({"token": resigned["token"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let engine = srv
        .create(json!({"mode": "engine", "color": "black", "level": 1}))
        .await;
    let mut socket = srv.socket(&id_of(&engine)).await;
    state_where(&mut socket, |g| g["ply"] == 1).await;
    srv.create(json!({"mode": "human", "color": "black", "position": "B:4:6:c4=WWWBBBBB,e5=B"}))
        .await;
    let (_, _, record) = srv.get_text(&format!("/api/games/{id}/record")).await;
    let record = record.replace(
        "[Event \"human game\"]",
        "[Event \"Copied { not a comment }\"]",
    );
    let (status, imported) = srv
        .post_raw("/api/games/import", "text/plain", &record)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    srv.stop().await;

    // Into a fresh database (PostgreSQL in copy_pg), then into a second SQLite file.
    let (_middle_dir, _, middle) = temp_db();
    let target = format!("sqlite://{}", dir.path().join("target.db").display());
    let there = copy_databases(&source, &middle, |_| {})
        .await
        .expect("copied");
    assert_eq!(there.copied, 5, "{there:?}");
    assert_eq!(there.moves, 6 + 6 + 1, "{there:?}");
    assert!(there.unreadable.is_empty(), "{there:?}");
    let back = copy_databases(&middle, &target, |_| {})
        .await
        .expect("copied back");
    assert_eq!(back, there);

    let stores = [
        Store::open(&source).await.expect("opens"),
        Store::open(&middle).await.expect("opens"),
        Store::open(&target).await.expect("opens"),
    ];
    let ids: Vec<String> = stores[0]
        .list(emergo_server::store::StatusFilter::All, 500)
        .await
        .expect("list")
        .into_iter()
        .map(|row| row.id)
        .collect();
    assert_eq!(ids.len(), 5);
    for store in &stores[1..] {
        // The same games in the same order (newest first).
        let copied: Vec<String> = store
            .list(emergo_server::store::StatusFilter::All, 500)
            .await
            .expect("list")
            .into_iter()
            .map(|row| row.id)
            .collect();
        assert_eq!(copied, ids);
        for id in &ids {
            assert_eq!(
                everything(store, id).await,
                everything(&stores[0], id).await
            );
        }
    }

    // Run again: everything is there already, nothing is written twice.
    let again = copy_databases(&source, &middle, |_| {})
        .await
        .expect("again");
    assert_eq!(
        again,
        CopyReport {
            skipped: 5,
            ..CopyReport::default()
        }
    );
    for store in stores {
        store.close().await;
    }
    assert!(copy_databases(&source, &source, |_| {}).await.is_err());
}
