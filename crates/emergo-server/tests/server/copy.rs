//! `emergo db copy`: every game of one database into another, losslessly. The games are made
//! through the API on SQLite, copied into a fresh database (PostgreSQL when
//! EMERGO_TEST_BACKEND=postgres) and from there into a second SQLite file; every game reads the
//! same in all three.

use crate::common::*;
use emergo_platform::store::copy::copy_databases;
use emergo_platform::store::table_copy::{AFTER_GAMES, BEFORE_GAMES};
use emergo_platform::store::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// Everything a store says about a game: its metadata (every field), start, moves, ending,
/// kept record text and review.
async fn everything(store: &Store, id: &str) -> String {
    let stored = store.load(id).await.expect("read").expect("found");
    let record = store.record(id).await.expect("read");
    let review = store.review(id).await.expect("read");
    format!(
        "{:?}\nstart {}\nmoves {:?}\nstatus {:?}\nrecord {record:?}\nreview {review:?}",
        stored.meta,
        stored.game.start_text(),
        stored.game.move_texts(),
        stored.game.status()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_copies_into_another_database_and_back_the_same() {
    let source_db = TestDb::sqlite();
    let source = source_db.url().to_string();
    let srv = TestServer::builder().db(&source_db).start().await;

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

    // Into a fresh database (PostgreSQL on the postgres backend), then into a second SQLite file.
    let middle_db = TestDb::new();
    let middle = middle_db.url().to_string();
    let target = sqlite_url(source_db.dir(), "target.db");
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
        .list(emergo_platform::store::StatusFilter::All, 500)
        .await
        .expect("list")
        .into_iter()
        .map(|row| row.id)
        .collect();
    assert_eq!(ids.len(), 5);
    for store in &stores[1..] {
        // The same games in the same order (newest first).
        let copied: Vec<String> = store
            .list(emergo_platform::store::StatusFilter::All, 500)
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
    assert_eq!(again.skipped, 5, "{again:?}");
    assert_eq!((again.copied, again.moves), (0, 0), "{again:?}");
    assert!(again.rows.iter().all(|(_, n)| *n == 0), "{again:?}");
    for store in stores {
        store.close().await;
    }
    assert!(copy_databases(&source, &source, |_| {}).await.is_err());
}

/// `method path` as the account whose session cookie is `cookie`.
async fn as_account(
    srv: &TestServer,
    cookie: Option<&str>,
    method: reqwest::Method,
    path: &str,
    body: Value,
) -> (StatusCode, Value, Option<String>) {
    let mut req = srv.client.request(method, format!("{}{path}", srv.base));
    if let Some(cookie) = cookie {
        req = req.header("cookie", format!("emergo_session={cookie}"));
    }
    let res = req.json(&body).send().await.expect("request sent");
    let status = res.status();
    let session = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|c| c.split(';').next())
        .and_then(|kv| kv.split_once('='))
        .map(|(_, v)| v.to_string());
    let text = res.text().await.expect("a body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::Null),
        session,
    )
}

async fn sign_up(srv: &TestServer, name: &str) -> String {
    let (status, body, session) = as_account(
        srv,
        None,
        reqwest::Method::POST,
        "/api/accounts",
        json!({"name": name, "password": "password-of-test"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    session.expect("a session cookie")
}

/// Every row of the account tables, as stored.
async fn account_rows(store: &Store) -> String {
    let mut out = String::new();
    for table in BEFORE_GAMES.iter().chain(AFTER_GAMES.iter()) {
        let rows = store.table_rows(table, 0, 1000).await.expect("read");
        out.push_str(&format!("{}: {rows:?}\n", table.name));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_sessions_ratings_and_seeks_copy_with_their_games() {
    let source_db = TestDb::sqlite();
    let source = source_db.url().to_string();
    let srv = TestServer::builder().db(&source_db).start().await;
    use reqwest::Method;

    // A rated game between two accounts (five moves each, from one address), won by alice; an
    // open seek of alice; a deleted account.
    let alice = sign_up(&srv, "alice").await;
    let bob = sign_up(&srv, "bob").await;
    let carol = sign_up(&srv, "carol").await;
    let seek = json!({"time": "3+2", "rated": true, "color": "white"});
    let (status, made, _) =
        as_account(&srv, Some(&alice), Method::POST, "/api/seeks", seek.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let accept = format!("/api/seeks/{}/accept", made["id"].as_str().expect("id"));
    let (status, grant, _) = as_account(&srv, Some(&bob), Method::POST, &accept, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    let game = id_of(&grant);
    let moves = format!("/api/games/{game}/moves");
    // Five moves a side: a rated game resigned sooner is aborted (issue 17 item 5).
    let mut view = grant["game"].clone();
    for ply in 0..10 {
        let mover = if ply % 2 == 0 { &alice } else { &bob };
        let mv = json!({"ply": ply, "move": first_legal(&view)});
        let (status, next, _) = as_account(&srv, Some(mover), Method::POST, &moves, mv).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        view = next;
    }
    let resign = format!("/api/games/{game}/resign");
    let (status, view, _) = as_account(&srv, Some(&bob), Method::POST, &resign, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    // Issue 18: a chat message of bob's, reported by alice.
    let chat = format!("/api/games/{game}/chat");
    let line = json!({"room": "players", "text": "gg"});
    let (status, said, _) = as_account(&srv, Some(&bob), Method::POST, &chat, line).await;
    assert_eq!(status, StatusCode::CREATED, "{said}");
    let report = format!("/api/games/{game}/chat/{}/report", said["message"]["id"]);
    let (status, _, _) = as_account(&srv, Some(&alice), Method::POST, &report, json!({})).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, open, _) = as_account(&srv, Some(&alice), Method::POST, "/api/seeks", seek).await;
    assert_eq!(status, StatusCode::CREATED, "{open}");
    // Issue 24: an API token of alice's (its hash is copied: it works on the target too).
    let scopes = json!({"scopes": ["read"], "description": "copied"});
    let (status, made, _) =
        as_account(&srv, Some(&alice), Method::POST, "/api/tokens", scopes).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    // Issue 21: the course's progress of alice, and of carol (which goes with her account).
    let solve = json!({"move": "h4xf4xd4"});
    for who in [&alice, &carol] {
        let (status, v, _) = as_account(
            &srv,
            Some(who),
            Method::POST,
            "/api/learn/majority/1",
            solve.clone(),
        )
        .await;
        assert_eq!(
            (status, &v["verdict"]),
            (StatusCode::OK, &json!("solved")),
            "{v}"
        );
    }
    let (status, _, _) = as_account(
        &srv,
        Some(&carol),
        Method::DELETE,
        "/api/me",
        json!({"password": "password-of-test"}),
    )
    .await;
    assert!(status.is_success(), "{status}");
    let (_, alice_page, _) =
        as_account(&srv, None, Method::GET, "/api/players/alice", json!({})).await;
    srv.stop().await;

    // Into a fresh database (PostgreSQL on the postgres backend), then into a second SQLite file.
    let middle_db = TestDb::new();
    let middle = middle_db.url().to_string();
    let target = sqlite_url(source_db.dir(), "target.db");
    let there = copy_databases(&source, &middle, |_| {})
        .await
        .expect("copied");
    assert_eq!(there.copied, 1, "{there:?}");
    let written: Vec<(&str, u64)> = there.rows.clone();
    // Issue 21: the puzzles the source loaded at its first start.
    let puzzles = emergo_platform::domain::puzzle::shipped()
        .expect("the shipped set")
        .len() as u64;
    assert_eq!(
        written,
        [
            ("accounts", 3),
            ("sessions", 2),
            ("api_tokens", 1),
            ("ratings", 2),
            ("seeks", 2),
            // alice's solved exercise; carol's went with her account
            ("learn_progress", 1),
            ("rated_games", 1),
            ("rating_history", 2),
            ("shared_client_games", 1),
            // alice's seek taken (issue 18)
            ("notifications", 1),
            ("chat_messages", 1),
            ("chat_reports", 1),
            ("puzzles", puzzles),
            ("puzzle_attempts", 0),
            ("puzzle_ratings", 0),
            ("puzzle_votes", 0),
            ("puzzle_daily", 0),
            ("storm_runs", 0),
            ("tournaments", 0),
            ("tournament_players", 0),
            ("tournament_games", 0),
            ("tournament_byes", 0),
        ],
        "{there:?}"
    );
    let back = copy_databases(&middle, &target, |_| {})
        .await
        .expect("copied back");
    assert_eq!(back, there);
    let stores = [
        Store::open(&source).await.expect("opens"),
        Store::open(&middle).await.expect("opens"),
        Store::open(&target).await.expect("opens"),
    ];
    let rows = account_rows(&stores[0]).await;
    let game_there = everything(&stores[0], &game).await;
    for store in &stores[1..] {
        assert_eq!(account_rows(store).await, rows);
        assert_eq!(everything(store, &game).await, game_there);
    }
    // Run again: nothing written twice.
    let again = copy_databases(&source, &middle, |_| {})
        .await
        .expect("again");
    assert_eq!((again.copied, again.skipped), (0, 1), "{again:?}");
    assert!(again.rows.iter().all(|(_, n)| *n == 0), "{again:?}");
    for store in stores {
        store.close().await;
    }

    // A server on the copy: the sessions hold, the player page is the same, the open seek is
    // listed, and a new account gets a new id (the copied ids are taken).
    let srv = TestServer::builder().db(&middle_db).start().await;
    let (status, me, _) = as_account(&srv, Some(&alice), Method::GET, "/api/me", json!({})).await;
    assert_eq!(
        (status, &me["name"]),
        (StatusCode::OK, &json!("alice")),
        "{me}"
    );
    let (_, page, _) = as_account(&srv, None, Method::GET, "/api/players/alice", json!({})).await;
    assert_eq!(page, alice_page);
    let (_, seeks, _) = as_account(&srv, Some(&bob), Method::GET, "/api/seeks", json!({})).await;
    assert!(
        seeks.to_string().contains(open["id"].as_str().expect("id")),
        "{seeks}"
    );
    sign_up(&srv, "dave").await;
    sign_up(&srv, "carol").await;
    srv.stop().await;
}

/// `db copy` copies each of its tables whole: the columns it lists are exactly those of the
/// schema (a migration that adds a column and forgets the copy fails here), on the backend
/// under test.
#[tokio::test]
async fn db_copy_lists_every_column_of_every_table_it_copies() {
    let s = TestServer::start().await;
    for table in BEFORE_GAMES.iter().chain(AFTER_GAMES.iter()) {
        let mut schema: Vec<String> = match &s.server.state().store {
            Store::Sqlite(db) => sqlx::query_scalar("SELECT name FROM pragma_table_info($1)")
                .bind(table.name)
                .fetch_all(db.pool())
                .await
                .expect("the schema"),
            Store::Postgres(db) => sqlx::query_scalar(
                "SELECT column_name::TEXT FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = $1",
            )
            .bind(table.name)
            .fetch_all(db.pool())
            .await
            .expect("the schema"),
        };
        let mut listed: Vec<String> = table.columns.iter().map(|(c, _)| c.to_string()).collect();
        schema.sort();
        listed.sort();
        assert_eq!(
            listed, schema,
            "the columns of {} that db copy writes",
            table.name
        );
    }
    s.stop().await;
}
