//! Studying positions and games in a real browser (issue 12): the board editor and the game
//! review. Same rig as browser.rs (headless Chromium over WebDriver, the server in-process).

use crate::rig::*;
use fantoccini::{key::Key, Client};
use serde_json::{json, Value};

async fn editor_square(c: &Client, sq: &str) {
    click(c, &format!("#editor-board rect.hit[data-sq='{sq}']")).await;
}

async fn tool(c: &Client, name: &str) {
    click(c, &format!("input[name=editor-tool][value={name}]")).await;
}

async fn set_number(c: &Client, css: &str, n: u8) {
    let input = find(c, css).await;
    input.clear().await.expect("the field clears");
    input
        .send_keys(&n.to_string())
        .await
        .expect("the number is typed");
}

async fn editor_text(c: &Client) -> String {
    js(c, "return document.querySelector('#editor-text').value")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r3_the_editor_builds_three_over_two_explains_a_bad_set_up_and_starts_an_engine_game() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1200, 900).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    click(&c, "#to-editor").await;
    find(&c, "#editor:not([hidden])").await;
    wait_until(
        &c,
        "document.querySelector('#editor-check').dataset.valid === 'true'",
        "the empty start checked",
    )
    .await;

    // Three White men, then two Black ones under them, on c4; one Black man on e5 by keyboard.
    for _ in 0..3 {
        editor_square(&c, "c4").await;
    }
    tool(&c, "black").await;
    editor_square(&c, "c4").await;
    editor_square(&c, "c4").await;
    js(
        &c,
        "document.querySelector(\"#editor-board rect.hit[data-sq='e5']\").focus()",
    )
    .await;
    find(&c, "#editor-board rect.hit[data-sq='e5']")
        .await
        .send_keys(&Key::Enter.to_string())
        .await
        .expect("Enter clicks the square");
    wait_until(
        &c,
        "document.querySelector(\"#editor-board .column[data-col='c4']\")?.dataset.stack === 'WWWBB' && document.querySelector(\"#editor-board .column[data-col='e5']\")?.dataset.stack === 'B'",
        "three White over two Black on c4, a Black man on e5",
    )
    .await;

    // R2: with 12 men still in White's hand that is 15 White men; the core says so.
    wait_until(
        &c,
        "document.querySelector('#editor-check').dataset.valid === 'false' && document.querySelector('#editor-check').innerText.includes('White has 15 men on the board and in hand together; a side has 12 at most')",
        "the core's refusal said for a person",
    )
    .await;
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#editor-engine').disabled"
        )
        .await,
        json!(true),
        "no game from a set-up that is not a position"
    );

    set_number(&c, "#editor-hand-white", 9).await;
    set_number(&c, "#editor-hand-black", 9).await;
    click(&c, "input[name=editor-turn][value=black]").await;
    wait_until(
        &c,
        "document.querySelector('#editor-check').dataset.valid === 'true' && document.querySelector('#editor-text').value === 'B:9:9:c4=WWWBB,e5=B'",
        "a legal position, written as N2",
    )
    .await;
    assert_eq!(editor_text(&c).await, "B:9:9:c4=WWWBB,e5=B");
    assert_eq!(axe_violations(&c).await, json!([]), "the editor");
    save_screenshot(&c, "editor.png").await;
    assert_board_drawn_in_both_themes(&c, "#editor-board", "the editor's board").await;

    // N2 in: bad text is explained and leaves the board; good text is drawn.
    let text = find(&c, "#editor-text").await;
    text.clear().await.expect("clears");
    text.send_keys("W:12:12:z9=W").await.expect("typed");
    click(&c, "#editor-load").await;
    wait_until(
        &c,
        "document.querySelector('#editor-check').innerText.includes('“z9” is not a square')",
        "the syntax error said for a person",
    )
    .await;
    text.clear().await.expect("clears");
    text.send_keys("B:9:9:e5=B,c4=WWWBB").await.expect("typed");
    click(&c, "#editor-load").await;
    wait_until(
        &c,
        "document.querySelector('#editor-check').dataset.valid === 'true' && document.querySelector('#editor-text').value === 'B:9:9:c4=WWWBB,e5=B'",
        "the text read back in its one written form",
    )
    .await;

    // An engine game from it: the engine (Black) is to move and answers.
    find(&c, "#editor-level")
        .await
        .select_by_value("1")
        .await
        .expect("level 1");
    click(&c, "input[name=editor-color][value=white]").await;
    click(&c, "#editor-engine").await;
    let id = game_id(&c).await;
    wait_until(
        &c,
        "Number(document.querySelector('#game').dataset.ply) >= 1",
        "the engine's first move",
    )
    .await;
    let (status, game) = {
        let url = rig.url(&format!("/api/games/{id}"));
        let res = reqwest::get(&url).await.expect("the game");
        (res.status(), res.json::<Value>().await.expect("json"))
    };
    assert_eq!(status, 200);
    assert_eq!(game["start"], "B:9:9:c4=WWWBB,e5=B");
    assert_eq!(game["mode"], "engine");
    assert!(find(&c, "#editor")
        .await
        .attr("hidden")
        .await
        .expect("attr")
        .is_some());
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

/// A game of `plies` moves chosen by a fixed formula (the same on every run, with captures):
/// careless play, so that the review finds mistakes in it.
fn a_careless_game(plies: usize) -> emergo_core::Game {
    for seed in 0u64.. {
        let mut game = emergo_core::Game::default();
        while game.ply() < plies && !game.is_over() {
            let mut legal: Vec<_> = game.position().legal_moves().to_vec();
            legal.sort_by_key(|m| m.to_string());
            let pick = (game.ply() as u64 * 2_654_435_761 + seed * 40_503) % legal.len() as u64;
            game.play(legal[pick as usize]).expect("a legal move plays");
        }
        if game.ply() == plies && !game.is_over() {
            return game;
        }
    }
    unreachable!("some seed gives such a game")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_with_a_graph_classes_and_the_better_move() {
    let mut rig = Rig::start().await;
    // A finished game: 24 careless plies, then White resigned (an imported record's result).
    let game = a_careless_game(24);
    let mut record = emergo_core::GameRecord::from_game(&game, &[("Event", "review test")]);
    record.result = Some(emergo_core::Outcome::Win(emergo_core::Color::Black));
    record.set_tag("Result", "0-1");
    let record = record.to_string();
    let res = reqwest::Client::new()
        .post(rig.url("/api/games/import"))
        .header("content-type", "text/plain")
        .body(record.clone())
        .send()
        .await
        .expect("the import is sent");
    assert_eq!(res.status(), 201, "{record}");
    let imported: Value = res.json().await.expect("json");
    assert_eq!(imported["status"], "finished");
    let id = imported["id"].as_str().expect("an id").to_string();

    let c = rig.browser(1200, 900).await;
    c.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the page loads");
    find(&c, "#review:not([hidden])").await;
    assert!(find(&c, "#review-box")
        .await
        .attr("hidden")
        .await
        .expect("attr")
        .is_some());
    click(&c, "#review").await;
    wait_until(
        &c,
        "!document.querySelector('#review-box').hidden && document.querySelector('#review-graph polyline.graph-line')",
        "the evaluation graph",
    )
    .await;
    let classes = js(
        &c,
        "return [...document.querySelectorAll('#moves .mv[data-ply]')].map(b => b.dataset.class)",
    )
    .await;
    let classes: Vec<String> = serde_json::from_value(classes).expect("classes");
    assert_eq!(classes.len(), 24, "every move classified: {classes:?}");
    let marked = ["inaccuracy", "mistake", "blunder"];
    let first = classes
        .iter()
        .position(|c| marked.contains(&c.as_str()))
        .expect("careless play has a marked move");
    let accuracy = find(&c, ".review-acc").await.text().await.expect("text");
    assert!(accuracy.starts_with("Accuracy: White "), "{accuracy}");

    // The marked move: the better move drawn as an arrow (or a ring on an entry square), said
    // in words; the graph shows the ply.
    click(&c, &format!("#moves .mv[data-ply='{}']", first + 1)).await;
    wait_until(
        &c,
        "document.querySelector('#board [data-better]') && document.querySelector('#review-move .review-better')",
        "the better move on the board and in words",
    )
    .await;
    let said = find(&c, "#review-move").await.text().await.expect("text");
    assert!(
        said.contains(&classes[first]) && said.contains("Better: "),
        "{said}"
    );
    unhover(&c).await;
    js(
        &c,
        "document.querySelector('#review-box').scrollIntoView({ block: 'end' })",
    )
    .await;
    save_screenshot(&c, "review.png").await;
    assert_board_drawn_in_both_themes(&c, "#board", "the reviewed game's board").await;
    assert_eq!(axe_violations(&c).await, json!([]), "the reviewed game");

    // A second look is instant: the stored review is drawn on opening the game.
    c.refresh().await.expect("reloads");
    wait_until(
        &c,
        "!document.querySelector('#review-box').hidden && document.querySelectorAll('#moves .mv[data-class]').length === 24",
        "the stored review drawn at once",
    )
    .await;
    assert!(find(&c, "#review")
        .await
        .attr("hidden")
        .await
        .expect("attr")
        .is_some());
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}
