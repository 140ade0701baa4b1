//! The analysis board in a real browser (issue 12): from ply 20 of a game through the game
//! page's "Analyse" button, the engine's lines streamed in, a variation played, the record
//! exported with it and imported back.

use crate::rig::*;
use emergo_core::{Game, GameRecord};
use serde_json::{json, Value};

/// A game of `plies` moves, each chosen by a fixed rule among the legal ones.
fn a_game(plies: usize) -> Game {
    let mut game = Game::default();
    for ply in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(ply * 7 + 3) % moves.len()];
        game.play(mv).expect("a legal move");
    }
    game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_ply_20_a_variation_is_played_exported_and_imported_back() {
    let mut rig = Rig::start().await;
    let game = a_game(30);
    assert_eq!(game.ply(), 30);
    let http = reqwest::Client::new();
    let imported: Value = http
        .post(rig.url("/api/games/import"))
        .body(emergo_core::record::write_game(&game, &[]))
        .send()
        .await
        .expect("the import is sent")
        .json()
        .await
        .expect("a game view");
    let id = imported["id"].as_str().expect("an id").to_string();

    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the page loads");
    wait_until(
        &c,
        "document.querySelectorAll('#moves .mv[data-ply]').length === 30",
        "the moves listed",
    )
    .await;
    click(&c, "#moves .mv[data-ply='20']").await;
    wait_until(
        &c,
        "document.querySelector('#analyse').getAttribute('href').endsWith('ply=20')",
        "the Analyse link at ply 20",
    )
    .await;
    click(&c, "#analyse").await;
    let at_20 = vec!["0"; 20].join(".");
    wait_until(
        &c,
        &format!("location.pathname === '/analysis' && document.querySelector('#analysis').dataset.path === '{at_20}'"),
        "the analysis board at ply 20",
    )
    .await;
    let position = js(
        &c,
        "return document.querySelector('#analysis').dataset.position",
    )
    .await;
    assert_eq!(position, game.positions()[20].to_string());
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('#an-tree .an-move').length"
        )
        .await,
        30
    );
    // The engine's lines arrive depth by depth: three of them, and the bar says a score.
    wait_until(
        &c,
        "document.querySelectorAll('#an-lines .an-line').length === 3 && Number(document.querySelector('#analysis').dataset.depth) >= 2",
        "three lines at depth 2",
    )
    .await;
    let label = js(
        &c,
        "return document.querySelector('#an-eval').getAttribute('aria-label')",
    )
    .await;
    assert!(
        label.as_str().unwrap_or("").starts_with("Evaluation: "),
        "{label}"
    );
    assert_eq!(axe_violations(&c).await, json!([]), "the analysis board");
    // Issue 18 item 1: the analysis board was a black square (its squares unstyled).
    assert_board_drawn_in_both_themes(&c, "#an-board", "the analysis board").await;

    // A variation: the first move of an engine line other than the game's 21st move, clicked
    // (found and clicked in one script: the lines are drawn again at every depth).
    let game_move = game.moves()[20].to_string();
    let variation_move = js(
        &c,
        &format!(
            "const b = [...document.querySelectorAll('#an-lines .an-line .an-pv-move:first-child')]\
             .find((m) => m.textContent !== '{game_move}'); b.click(); return b.textContent"
        ),
    )
    .await;
    wait_until(
        &c,
        &format!("document.querySelector('#analysis').dataset.path === '{at_20}.1'"),
        "the variation played",
    )
    .await;
    wait_until(
        &c,
        "document.querySelectorAll('#an-tree .an-variation .an-move').length === 1",
        "the variation in the tree",
    )
    .await;

    // Export: the record has the main line and the variation in parentheses.
    click(&c, "#an-export").await;
    wait_until(
        &c,
        "!document.querySelector('#an-record').hidden",
        "the record",
    )
    .await;
    let text = js(&c, "return document.querySelector('#an-record').value").await;
    let text = text.as_str().expect("text").to_string();
    let record = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(record.moves.len(), 30, "{text}");
    assert_eq!(record.moves[20].variations.len(), 1, "{text}");
    assert_eq!(
        record.moves[20].variations[0][0].mv.to_string(),
        variation_move.as_str().unwrap_or_default()
    );
    assert_eq!(record.to_game().expect("replays").moves(), game.moves());

    // Imported back: the main line replays, the variation read with it.
    let res = http
        .post(rig.url("/api/games/import"))
        .body(text.clone())
        .send()
        .await
        .expect("the import is sent");
    assert_eq!(res.status(), reqwest::StatusCode::CREATED);
    let again: Value = res.json().await.expect("a game view");
    assert_eq!(again["ply"], 30);
    let id2 = again["id"].as_str().expect("an id");
    let stored = http
        .get(rig.url(&format!("/api/games/{id2}/record")))
        .send()
        .await
        .expect("the record")
        .text()
        .await
        .expect("text");
    let stored = GameRecord::parse(&stored).expect("the stored record reads");
    assert_eq!(stored.to_game().expect("replays").moves(), game.moves());
    assert_eq!(
        stored.moves[20].variations, record.moves[20].variations,
        "the variation kept"
    );

    // Promote the variation (the game's line becomes its variation), then delete it.
    click(&c, "#an-promote").await;
    wait_until(
        &c,
        &format!("document.querySelector('#analysis').dataset.path === '{at_20}.0'"),
        "the variation promoted",
    )
    .await;
    click(&c, "#an-delete").await;
    wait_until(
        &c,
        "document.querySelectorAll('#an-tree .an-variation').length === 0 \
         && document.querySelectorAll('#an-tree .an-move').length === 30",
        "the variation deleted, the game's line main again",
    )
    .await;
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}
