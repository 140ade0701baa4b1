//! The rules course in a real browser (issue 21): reached from the lobby's "How to play", the
//! board drawn, a refused move explained with the core's rule, exercises solved by clicks (an
//! entry, then a jump), progress kept across a reload, French, a phone, axe.

use crate::rig::*;
use serde_json::json;

async fn click_learn_square(c: &fantoccini::Client, sq: &str) {
    click(c, &format!("#learn-board rect.hit[data-sq='{sq}']")).await;
}

async fn status_kind(c: &fantoccini::Client, kind: &str, what: &str) {
    wait_until(
        c,
        &format!("document.querySelector('#learn-status').dataset.kind === '{kind}'"),
        what,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_learns_entering_and_the_jump_by_clicking_and_sees_refusals_with_their_rule() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the lobby loads");
    click(&c, "#about-learn").await;
    wait_until(
        &c,
        "location.pathname === '/learn' && document.querySelectorAll('#learn-lessons li').length === 8",
        "the course's eight lessons listed",
    )
    .await;
    wait_until(
        &c,
        "document.querySelectorAll('#learn-board rect.hit').length === 41",
        "the board's 41 squares",
    )
    .await;
    assert_board_drawn(&c, "#learn-board", "the course").await;

    // Entering, exercise 1: the refused centre, said with its rule, then a legal entry.
    c.goto(&rig.url("/learn?lesson=entering"))
        .await
        .expect("the lesson loads");
    wait_until(
        &c,
        "document.querySelector('#learn-goal').textContent.includes('centre')",
        "the first exercise's goal",
    )
    .await;
    click(&c, ".learn-try").await;
    status_kind(&c, "refused", "e5 refused").await;
    let said = js(
        &c,
        "return document.querySelector('#learn-status').textContent",
    )
    .await;
    assert!(said.as_str().is_some_and(|s| s.contains("R9.3")), "{said}");
    let status = rect(&c, "#learn-status").await;
    let board = rect(&c, "#learn-board").await;
    assert!(
        !overlap(&status, &board),
        "the status covers the board: {status} {board}"
    );
    click_learn_square(&c, "d4").await;
    status_kind(&c, "solved", "the entry solves it").await;
    let next = find(&c, "#learn-next").await;
    assert!(next.is_displayed().await.expect("displayed"), "Next shown");
    save_screenshot(&c, "learn-entering-solved").await;

    // The jump, exercise 1: d5 then f5.
    c.goto(&rig.url("/learn?lesson=jump")).await.expect("loads");
    wait_until(
        &c,
        "document.querySelector('#learn-board rect.hit[data-sq=\"d5\"]') !== null && document.querySelector('#learn-count').textContent.includes('1')",
        "the jump lesson's board",
    )
    .await;
    click_learn_square(&c, "d5").await;
    click_learn_square(&c, "f5").await;
    status_kind(&c, "solved", "the jump solves it").await;

    // Progress survives a reload; the lesson list marks nothing finished yet (one of three).
    c.refresh().await.expect("reloads");
    wait_until(
        &c,
        "document.querySelectorAll('#learn-lessons li').length === 8",
        "the list again",
    )
    .await;
    let kept = js(
        &c,
        "return JSON.parse(localStorage.getItem('emergo.learn'))",
    )
    .await;
    assert_eq!(kept, json!({"entering": [0], "jump": [0]}));

    // Signed in, the browser's progress joins the account's, and the account's shows in a
    // browser that has none of its own.
    let learner = sign_up_over_http(&rig, "learner", "a long pass phrase").await;
    log_in(&c, &rig, &learner.token, "/learn?lesson=jump").await;
    let mut on_account = json!(null);
    for _ in 0..50 {
        on_account = send_as(
            &rig,
            reqwest::Method::GET,
            "/api/learn/progress",
            &learner.token,
            json!(null),
        )
        .await
        .1;
        if on_account == json!({"solved": {"entering": [1], "jump": [1]}}) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(
        on_account,
        json!({"solved": {"entering": [1], "jump": [1]}}),
        "the browser's progress on the account"
    );
    js(&c, "localStorage.removeItem('emergo.learn'); return true").await;
    c.refresh().await.expect("reloads");
    wait_until(
        &c,
        "[...document.querySelectorAll('#learn-lessons .learn-solved')].map((e) => e.textContent).join('|') === '1 of 3 solved|1 of 3 solved'",
        "the account's progress shown by lesson",
    )
    .await;
    save_screenshot(&c, "learn-account-progress").await;

    // French.
    choose_lang(&c, "fr").await;
    wait_until(
        &c,
        "document.querySelector('#learn h2').textContent === 'Apprendre l’Emergo' && document.querySelector('#learn-title').textContent.includes('saut')",
        "the course in French",
    )
    .await;
    assert_eq!(axe_violations(&c).await, json!([]), "the course");
    assert_no_script_errors(&c).await;

    // A phone: the board and the goal both on screen, the status covering neither.
    let p = rig.phone(390, 844).await;
    p.goto(&rig.url("/learn?lesson=majority"))
        .await
        .expect("loads");
    wait_until(
        &p,
        "document.querySelectorAll('#learn-board rect.hit').length === 41",
        "the phone's board",
    )
    .await;
    let board = rect(&p, "#learn-board").await;
    let goal = rect(&p, "#learn-goal").await;
    assert!(board["width"].as_f64().unwrap_or(0.0) > 300.0, "{board}");
    assert!(!overlap(&board, &goal), "{board} {goal}");
    save_screenshot(&p, "learn-phone").await;
}
