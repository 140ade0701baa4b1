//! Studying positions and games in a real browser (issue 12): the board editor and the game
//! review. Same rig as browser.rs (headless Chromium over WebDriver, the server in-process).

mod browser_rig;

use browser_rig::*;
use fantoccini::{key::Key, Client};
use serde_json::{json, Value};

/// The serious and critical accessibility violations axe-core finds on the page (as page.rs).
async fn axe_violations(c: &Client) -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/js/node_modules/axe-core/axe.min.js"
    );
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("{path}: {e}; run `npm ci` in crates/emergo-server/tests/js (scripts/test.sh does)")
    });
    wait_until(
        c,
        "document.getAnimations().every((a) => a.constructor.name !== 'CSSTransition')",
        "the colour transitions to end",
    )
    .await;
    c.execute(&source, vec![]).await.expect("axe-core loads");
    js(
        c,
        "return axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
           .filter((v) => v.impact === 'serious' || v.impact === 'critical')
           .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')))",
    )
    .await
}

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
    let _one = ONE_AT_A_TIME.lock().await;
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
        "document.querySelector('#editor-check').dataset.valid === 'false' && document.querySelector('#editor-check').innerText.includes('white has 15 men (board and hand); at most 12')",
        "the core's own error",
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

    // N2 in: bad text is explained and leaves the board; good text is drawn.
    let text = find(&c, "#editor-text").await;
    text.clear().await.expect("clears");
    text.send_keys("W:12:12:z9=W").await.expect("typed");
    click(&c, "#editor-load").await;
    wait_until(
        &c,
        "document.querySelector('#editor-check').innerText.includes(\"'z9' is not a square\")",
        "the syntax error in the core's words",
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
