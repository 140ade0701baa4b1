//! What a new player found (issue 18), in a real browser: what covers what (element
//! rectangles), a timed game that waits for the friend, the phone's action bars, the import's
//! words. Each test names the item of the issue it checks.

use crate::rig::*;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::Duration;

async fn join(rig: &Rig, id: &str, invite: &str) -> Value {
    reqwest::Client::new()
        .post(rig.url(&format!("/api/games/{id}/join")))
        .json(&json!({ "invite": invite }))
        .send()
        .await
        .expect("the join is sent")
        .json()
        .await
        .expect("a seat")
}

/// The visible buttons and links of `css` (an action bar) that do not lie wholly inside the
/// viewport's width, and whether the page or the bar scrolls sideways.
async fn cut_actions(c: &Client, css: &str) -> Value {
    js(
        c,
        &format!(
            "const cut = [];
             for (const bar of document.querySelectorAll({css:?})) {{
               if (!bar.getClientRects().length) continue;
               if (bar.scrollWidth > bar.clientWidth + 1) cut.push('the bar scrolls sideways');
               for (const b of bar.querySelectorAll('button, a')) {{
                 if (!b.getClientRects().length) continue;
                 const r = b.getBoundingClientRect();
                 if (r.left < 0 || r.right > innerWidth + 0.5 || b.scrollWidth > b.clientWidth + 1) cut.push(b.textContent.trim());
               }}
             }}
             if (document.documentElement.scrollWidth > document.documentElement.clientWidth) cut.push('the page scrolls sideways');
             return cut;"
        ),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item2_the_column_box_never_covers_the_status_after_a_click_or_a_tap() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    new_game(&c, "new-engine", "white", Some(1), Some(TALL_COLUMNS)).await;
    wait_until(
        &c,
        "document.querySelectorAll('#board .start, #board .target').length > 0",
        "the marks",
    )
    .await;
    // A click on a column, the pointer left there: the box comes up 350 ms later.
    click_square(&c, "c4").await;
    wait_until(
        &c,
        "!document.querySelector('#tip').hidden",
        "the column's box",
    )
    .await;
    let (tip, status) = (rect(&c, "#tip").await, rect(&c, "#status").await);
    assert!(
        !overlap(&tip, &status),
        "the box {tip} covers the status {status}"
    );
    let board = rect(&c, "#board").await;
    assert!(
        !overlap(&tip, &board),
        "the box {tip} covers the board {board}"
    );
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");

    // On a phone a tap on a column shows the box: under the status, never over it.
    let p = rig.phone(390, 844).await;
    p.goto(&rig.url("/")).await.expect("the page loads");
    new_game(&p, "new-engine", "white", Some(1), Some(TALL_COLUMNS)).await;
    wait_until(
        &p,
        "document.documentElement.classList.contains('touch')",
        "a touch screen",
    )
    .await;
    tap(&p, "#board rect.hit[data-sq='c4']").await;
    wait_until(
        &p,
        "!document.querySelector('#tip').hidden",
        "the column's box",
    )
    .await;
    let (tip, status) = (rect(&p, "#tip").await, rect(&p, "#status").await);
    assert!(
        !overlap(&tip, &status),
        "on a phone the box {tip} covers the status {status}"
    );
    let board = rect(&p, "#board").await;
    assert!(
        !overlap(&tip, &board),
        "on a phone the box {tip} covers the board {board}"
    );
    assert_no_script_errors(&p).await;
    p.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item3_a_timed_game_with_a_friend_waits_for_the_friend_and_marks_nothing_before() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    find(&c, "#human-time")
        .await
        .select_by_value("1+0")
        .await
        .expect("the clock is chosen");
    let id = new_game(&c, "new-human", "white", None, None).await;
    let waiting = wait_until(
        &c,
        "document.querySelector('#status [data-waiting]')?.dataset.waiting",
        "the game waiting for the friend",
    )
    .await;
    assert_eq!(waiting, json!("black"));
    let status = find(&c, "#status").await.text().await.expect("text");
    assert!(
        status.contains("Waiting for Black") && !status.contains("your move"),
        "{status}"
    );
    assert_eq!(
        marks(&c, "start").await.len() + marks(&c, "target").await.len(),
        0,
        "nothing marked"
    );
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('#game .turn-flag').length"
        )
        .await,
        json!(0),
        "no \"your move\" in the bars"
    );
    // A click on the board asks nothing of the server, so nothing is refused.
    click_square(&c, "d3").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        js(&c, "return document.querySelector('#toast').hidden || document.querySelector('#toast').dataset.kind !== 'error'").await,
        json!(true),
        "no refusal shown"
    );
    assert_eq!(ply(&c).await, 0);

    // The friend joins: the game starts, White's moves are marked, and White moves.
    let invite = invite_of(&c, &id).await;
    join(&rig, &id, &invite).await;
    wait_until(
        &c,
        "document.querySelectorAll('#board .target').length === 40",
        "White's 40 entries",
    )
    .await;
    let status = find(&c, "#status").await.text().await.expect("text");
    assert!(status.contains("your move"), "{status}");
    play_one_move_by_clicking(&c).await;
    assert_eq!(ply(&c).await, 1);
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

/// Fails if the toast covers the game's bars, board, status or any shown action.
async fn assert_toast_covers_nothing(c: &Client, when: &str) {
    let toast = rect(c, "#toast").await;
    assert!(toast != Value::Null, "{when}: no toast shown");
    for css in [
        "#bar-top",
        "#bar-bottom",
        "#board",
        "#status",
        "#result",
        ".topbar .brand",
        ".topbar .switches",
    ] {
        let other = rect(c, css).await;
        if other != Value::Null {
            assert!(
                !overlap(&toast, &other),
                "{when}: the toast {toast} covers {css} {other}"
            );
        }
    }
    let covered = js(
        c,
        "const t = document.querySelector('#toast').getBoundingClientRect();
         return [...document.querySelectorAll('#actions button, #actions a')].filter((b) => b.getClientRects().length)
           .filter((b) => { const r = b.getBoundingClientRect(); return r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom; })
           .map((b) => b.textContent)",
    )
    .await;
    assert_eq!(covered, json!([]), "{when}: the toast covers actions");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_toasts_cover_no_bar_clock_or_button_and_leave_with_their_page() {
    let mut rig = Rig::start().await;
    for phone in [false, true] {
        let c = if phone {
            rig.phone(390, 844).await
        } else {
            rig.browser(1100, 860).await
        };
        c.goto(&rig.url("/")).await.expect("the page loads");
        find(&c, "#human-time")
            .await
            .select_by_value("3+2")
            .await
            .expect("the clock is chosen");
        let id = new_game(&c, "new-human", "white", None, None).await;
        let invite = invite_of(&c, &id).await;
        let black = join(&rig, &id, &invite).await;
        // "Black joined": a toast while both clocks show.
        wait_until(&c, "!document.querySelector('#toast').hidden && document.querySelectorAll('#game [data-clock]').length === 2", "the join said").await;
        assert_toast_covers_nothing(
            &c,
            if phone {
                "a phone, the friend joined"
            } else {
                "the friend joined"
            },
        )
        .await;
        // Black resigns: the loss said in a toast, the clocks still in view.
        let token = black["token"].as_str().expect("a token");
        reqwest::Client::new()
            .post(rig.url(&format!("/api/games/{id}/resign")))
            .json(&json!({ "token": token }))
            .send()
            .await
            .expect("the resignation is sent");
        wait_until(&c, "document.querySelector('#game').dataset.status === 'finished' && !document.querySelector('#toast').hidden", "the end said").await;
        assert_toast_covers_nothing(&c, if phone { "a phone, the end" } else { "the end" }).await;
        // A new page: the message about the game goes.
        click(&c, "#to-lobby").await;
        find(&c, "#lobby:not([hidden])").await;
        assert_eq!(
            js(&c, "return document.querySelector('#toast').hidden").await,
            json!(true),
            "the toast left with its page"
        );
        assert_no_script_errors(&c).await;
        c.close().await.expect("the browser closes");
    }
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item5_on_a_390_px_phone_every_action_bar_fits_and_the_hint_is_in_view() {
    let mut rig = Rig::start().await;
    let c = rig.phone(390, 844).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    assert_eq!(
        js(&c, "return innerWidth").await,
        json!(390),
        "a 390 px screen"
    );
    new_game(&c, "new-engine", "white", Some(1), Some(TALL_COLUMNS)).await;
    wait_until(
        &c,
        "document.querySelectorAll('#board .start, #board .target').length > 0",
        "the board",
    )
    .await;
    assert_eq!(
        cut_actions(&c, "#actions").await,
        json!([]),
        "the game's actions"
    );
    let inside = js(
        &c,
        "return [...document.querySelectorAll('#actions button, #actions a')].filter((b) => b.getClientRects().length)
           .every((b) => { const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight + 0.5; })",
    )
    .await;
    assert_eq!(inside, json!(true), "every action on the screen");
    // The hint: its words show on the screen, not below the fold.
    click(&c, "#hint").await;
    wait_until(
        &c,
        "!document.querySelector('#hint-text').hidden",
        "the hint",
    )
    .await;
    let (hint, bar) = (rect(&c, "#hint-text").await, rect(&c, "#actions").await);
    let bottom = hint["bottom"].as_f64().expect("a number");
    assert!(
        bottom <= bar["top"].as_f64().expect("a number") + 0.5,
        "the hint {hint} is below the fold or under the actions {bar}"
    );
    assert_board_drawn(&c, "#board", "the game board on a phone").await;
    save_screenshot(&c, "phone-390.png").await;

    // The editor's and the analysis board's bars fit too.
    click(&c, "#to-lobby").await;
    click(&c, "#to-editor").await;
    find(&c, "#editor:not([hidden])").await;
    wait_until(
        &c,
        "document.querySelector('#editor-check').dataset.valid === 'true'",
        "the editor",
    )
    .await;
    assert_eq!(
        cut_actions(&c, "#editor .actions").await,
        json!([]),
        "the editor's actions"
    );
    assert_board_drawn(&c, "#editor-board", "the editor's board on a phone").await;
    c.goto(&rig.url("/analysis"))
        .await
        .expect("the analysis board loads");
    wait_until(
        &c,
        "document.querySelector('#analysis').dataset.position",
        "the analysis board",
    )
    .await;
    assert_eq!(
        cut_actions(&c, "#analysis .actions").await,
        json!([]),
        "the analysis board's actions"
    );
    assert_board_drawn(&c, "#an-board", "the analysis board on a phone").await;
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item6_the_import_reads_1_d3_and_says_why_1_e5_cannot_be_played() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    let import = |text: &'static str| {
        let c = c.clone();
        async move {
            let area = find(&c, "#import-text").await;
            area.clear().await.expect("cleared");
            area.send_keys(text).await.expect("typed");
            click(&c, "#import button[type=submit]").await;
        }
    };
    import("1.d3 a5 2.f2 *").await;
    game_id(&c).await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.ply === '3'",
        "the imported game",
    )
    .await;
    click(&c, "#to-lobby").await;
    import("1. e5").await;
    let said = wait_until(&c, "!document.querySelector('#toast').hidden && document.querySelector('#toast-text').innerText", "the refusal").await;
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.contains("“e5” on line 1") && said.contains("centre") && said.contains("R9.3"),
        "{said}"
    );
    // In French, the same reason in French.
    choose_lang(&c, "fr").await;
    import("1. e5").await;
    wait_until(
        &c,
        // French words only: the English refusal, still shown, also says "centre, e5".
        "document.querySelector('#toast-text').innerText.includes('premier pion des Blancs')",
        "the refusal in French",
    )
    .await;
    let said = js(&c, "return document.querySelector('#toast-text').innerText").await;
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.contains("centre, e5") && said.contains("R9.3"),
        "{said}"
    );
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item10_the_editor_says_a_bad_set_up_for_a_person_in_their_language() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/editor")).await.expect("the editor loads");
    wait_until(
        &c,
        "document.querySelector('#editor-check').dataset.valid === 'true'",
        "the editor",
    )
    .await;
    // With 12 men in hand, one more on the board is a 13th.
    click(&c, "#editor-board rect.hit[data-sq='c4']").await;
    let said = wait_until(&c, "document.querySelector('#editor-check').dataset.valid === 'false' && document.querySelector('#editor-check').innerText", "the refusal").await;
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.contains("White has 13 men on the board and in hand together"),
        "{said}"
    );
    assert!(
        !said.contains("bad position text"),
        "no programmer's words: {said}"
    );
    choose_lang(&c, "fr").await;
    click(&c, "#editor-board rect.hit[data-sq='c5']").await;
    wait_until(
        &c,
        "document.querySelector('#editor-check').innerText.includes('14')",
        "the refusal in French",
    )
    .await;
    let said = js(
        &c,
        "return document.querySelector('#editor-check').innerText",
    )
    .await;
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.contains("Les Blancs ont 14 pions sur le damier et en main"),
        "{said}"
    );
    assert!(
        !said.contains("bad position text") && !said.contains("men"),
        "all in French: {said}"
    );
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item9_the_example_badge_reads_in_both_themes() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    find(&c, ".badge-demo b").await;
    for theme in ["light", "dark"] {
        for _ in 0..3 {
            if js(&c, "return document.documentElement.dataset.theme").await == json!(theme) {
                break;
            }
            click(&c, "#theme").await;
        }
        // WCAG's contrast ratio of each part's text on its background.
        let ratios = js(
            &c,
            "const lum = (css) => { const [r, g, b] = css.match(/\\d+/g).map(Number).map((v) => v / 255)
                 .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
             return [...document.querySelectorAll('.badge-demo b, .badge-demo i')].map((e) => {
               const s = getComputedStyle(e); const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x);
               return Math.round(((a + 0.05) / (b + 0.05)) * 10) / 10; })",
        )
        .await;
        let ratios: Vec<f64> = serde_json::from_value(ratios).expect("ratios");
        assert_eq!(ratios.len(), 2);
        assert!(
            ratios.iter().all(|&r| r >= 4.5),
            "{theme} theme: contrast {ratios:?}"
        );
    }
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

/// The page's requests answered with an error status so far (`path status` each).
async fn failed_requests(c: &Client) -> Value {
    js(
        c,
        "return performance.getEntriesByType('resource')
           .filter((e) => e.responseStatus >= 400)
           .map((e) => new URL(e.name).pathname + ' ' + e.responseStatus)",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item12_an_anonymous_visit_asks_nothing_that_answers_an_error() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    find(&c, "#login-open:not([hidden])").await;
    wait_until(
        &c,
        "performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/me'))",
        "who is logged in asked",
    )
    .await;
    assert_eq!(
        failed_requests(&c).await,
        json!([]),
        "the lobby, nobody logged in"
    );
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}
