//! The game page players expect (issue 9): drag and drop, premoves, events in words, rematch,
//! French, themes, the phone layout, accessibility (axe-core), and each defect of the issue.
//! Same rig as browser.rs: headless Chromium over WebDriver against the server in-process.

use crate::rig::*;
use fantoccini::Client;
use serde_json::{json, Value};

/// Drags the column on `from` to `to` with the mouse.
async fn drag(c: &Client, from: &str, to: &str) {
    drag_between(
        c,
        &format!("#board rect.hit[data-sq='{from}']"),
        &format!("#board rect.hit[data-sq='{to}']"),
    )
    .await;
}

async fn text_of(c: &Client, css: &str) -> String {
    js(
        c,
        &format!("return document.querySelector(\"{css}\")?.innerText || ''"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Waits until the status box or a message says something containing `words`.
async fn said(c: &Client, words: &str) {
    wait_until(
        c,
        &format!("(document.querySelector('#status').innerText + ' ' + document.querySelector('#toast-text').innerText).includes({words:?})"),
        words,
    )
    .await;
}

/// A human game created on page `a` (White) and joined through the API as Black: its id and
/// Black's token and invitation code.
async fn human_game(rig: &Rig, a: &Client) -> (String, String, String) {
    a.goto(&rig.url("/")).await.expect("the page loads");
    let id = new_game(a, "new-human", "white", None, None).await;
    let (token, invite) = join_as_black(rig, a, &id).await;
    (id, token, invite)
}

/// Waits until the page shows a game other than `old`; returns its id.
async fn rematch_opened(c: &Client, old: &str) -> String {
    wait_until(
        c,
        &format!("location.pathname.startsWith('/game/') && location.pathname !== '/game/{old}' && location.pathname.split('/')[2]"),
        "the rematch opened",
    )
    .await
    .as_str()
    .expect("an id")
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_and_a_capture_are_played_by_drag_and_drop() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    new_game(&c, "new-engine", "white", Some(1), Some(WORKED_EXAMPLE)).await;
    wait_until(
        &c,
        "document.querySelectorAll('#board .start').length > 0",
        "White's starts",
    )
    .await;
    // A step dragged to its square.
    drag(&c, "f4", "e4").await;
    wait_until(
        &c,
        "Number(document.querySelector('#game').dataset.ply) >= 1",
        "the step played",
    )
    .await;
    // Black must take two men (h4xf4xd4); White must take five, and only one route of five
    // ends on c4: dropped there, it is played at once.
    wait_until(
        &c,
        "document.querySelector('#game').dataset.ply === '2' && document.querySelector('#game').dataset.thinking === 'false'",
        "the engine's capture",
    )
    .await;
    drag(&c, "e4", "c4").await;
    wait_until(
        &c,
        "Number(document.querySelector('#game').dataset.ply) >= 3",
        "the capture played",
    )
    .await;
    let moves = moves_listed(&c).await;
    assert_eq!(moves[..3], ["f4-e4", "h4xf4xd4", "e4xc4xc6xe6xe4xc4"]);
    assert_eq!(stack_on(&c, "c4").await, "WWWBBBBB");
    // The last move's line ends in an arrowhead (defect 11).
    let marker = js(
        &c,
        "return document.querySelector('#board .last-path')?.getAttribute('marker-end')",
    )
    .await;
    assert_eq!(marker, json!("url(#arrow-last)"));
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn premoves_draw_offers_spectators_and_a_rematch_between_people() {
    let mut rig = Rig::start().await;
    let a = rig.browser(1100, 860).await;
    let (id, black, invite) = human_game(&rig, &a).await;
    said(&a, "Your opponent joined").await;

    // A used invitation says once that the seats are taken (defect 8); the reader watches.
    let w = rig.browser(1100, 860).await;
    w.goto(&rig.url(&format!("/game/{id}?invite={invite}")))
        .await
        .expect("the link opens");
    wait_until(&w, "!document.querySelector('#toast').hidden", "a message").await;
    let message = text_of(&w, "#toast-text").await;
    assert_eq!(message.matches("taken").count(), 1, "{message}");
    // A spectator sees White and Black, never "Opponent" (defect 2).
    wait_until(
        &w,
        "document.querySelector('#bar-bottom .name')?.innerText === 'White'",
        "White's bar",
    )
    .await;
    assert_eq!(text_of(&w, "#bar-top .name").await, "Black");

    // White enters d3; while Black thinks, White premoves f2: played as soon as Black has moved.
    wait_until(
        &a,
        "document.querySelectorAll('#board .target').length > 0",
        "White's entries",
    )
    .await;
    click_square(&a, "d3").await;
    wait_until(
        &a,
        "document.querySelector('#game').dataset.ply === '1'",
        "d3 played",
    )
    .await;
    click_square(&a, "f2").await;
    wait_until(
        &a,
        "document.querySelector('#game').dataset.premove === 'pending'",
        "the premove shown as pending",
    )
    .await;
    post(
        &rig,
        &format!("/api/games/{id}/moves"),
        json!({"token": black, "ply": 1, "move": "a5"}),
    )
    .await;
    wait_until(
        &a,
        "document.querySelector('#game').dataset.ply === '3'",
        "the premove played",
    )
    .await;
    assert_eq!(moves_listed(&a).await, ["d3", "a5", "f2"]);

    // A premove that the reply makes illegal is cancelled, and said.
    click_square(&a, "b4").await;
    wait_until(
        &a,
        "document.querySelector('#game').dataset.premove === 'pending'",
        "the second premove",
    )
    .await;
    post(
        &rig,
        &format!("/api/games/{id}/moves"),
        json!({"token": black, "ply": 3, "move": "b4"}),
    )
    .await;
    said(&a, "premove was cancelled").await;
    assert_eq!(ply(&a).await, 4);
    assert_eq!(game_data(&a, "premove").await, "");

    // Draw offers in words: offered to White, declined; White's own offer declined by Black.
    post(
        &rig,
        &format!("/api/games/{id}/draw"),
        json!({"token": black, "action": "offer"}),
    )
    .await;
    said(&a, "Black offers a draw").await;
    said(&w, "Black offers a draw").await;
    click(&a, "#draw-decline").await;
    said(&a, "You declined").await;
    click(&a, "#draw-offer").await;
    said(&a, "You offered a draw").await;
    post(
        &rig,
        &format!("/api/games/{id}/draw"),
        json!({"token": black, "action": "decline"}),
    )
    .await;
    said(&a, "Your draw offer was declined").await;

    // Black resigns: White reads it from its side, the spectator from the board's.
    post(
        &rig,
        &format!("/api/games/{id}/resign"),
        json!({"token": black}),
    )
    .await;
    said(&a, "You won").await;
    said(&a, "Black resigned").await;
    said(&w, "White wins").await;

    // A rematch between the two players, each in its own browser: the reader's browser takes
    // Black's seat (its token kept as the page keeps it). White offers; Black is told, with
    // buttons, and declines; White is told. White offers again, Black accepts: both land in
    // the new game, seated, colours swapped.
    js(
        &w,
        &format!(
            "localStorage.setItem('emergo.seat.{id}', JSON.stringify({{seat: 'black', token: {black:?}}}))"
        ),
    )
    .await;
    w.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("Black's page");
    wait_until(
        &w,
        "document.querySelector('#bar-bottom .name')?.innerText === 'You'",
        "Black seated",
    )
    .await;
    click(&a, "#rematch").await;
    said(&a, "You offered a rematch").await;
    said(&w, "White offers a rematch").await;
    wait_until(
        &w,
        "!document.querySelector('#rematch-accept').hidden",
        "the rematch buttons",
    )
    .await;
    click(&w, "#rematch-decline").await;
    said(&w, "You declined the rematch").await;
    said(&a, "Your rematch offer was declined").await;
    click(&a, "#rematch").await;
    wait_until(
        &w,
        "!document.querySelector('#rematch-accept').hidden",
        "the offer again",
    )
    .await;
    click(&w, "#rematch-accept").await;
    let (on_a, on_w) = (rematch_opened(&a, &id).await, rematch_opened(&w, &id).await);
    assert_eq!(on_a, on_w, "both players are in the same new game");
    assert_eq!(local_seat(&a, &on_a).await["seat"], json!("black"));
    assert_eq!(local_seat(&w, &on_w).await["seat"], json!("white"));
    for c in [&a, &w] {
        wait_until(
            c,
            "document.querySelector('#bar-bottom .name')?.innerText === 'You' && document.querySelector('#bar-top .name')?.innerText === 'Opponent'",
            "both seated in the rematch",
        )
        .await;
    }
    // The new White (Black before) moves; the new Black sees it.
    wait_until(
        &w,
        "document.querySelectorAll('#board .target').length > 0",
        "White's entries",
    )
    .await;
    click_square(&w, "d3").await;
    wait_until(
        &a,
        "document.querySelector('#game').dataset.ply === '1'",
        "d3 seen by Black",
    )
    .await;

    for c in [&a, &w] {
        assert_no_script_errors(c).await;
    }
    a.close().await.expect("the browser closes");
    w.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_french_page_plays_a_whole_game_in_french_then_a_rematch() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    choose_lang(&c, "fr").await;
    new_game(
        &c,
        "new-engine",
        "white",
        Some(1),
        Some(WHITE_WINS_IN_THREE),
    )
    .await;
    for _ in 0..10 {
        let state = wait_until(
            &c,
            "(() => { const d = document.querySelector('#game').dataset; return d.status === 'finished' ? 'finished' : (d.turn === 'white' && d.thinking === 'false' && document.querySelectorAll('#board .start, #board .target').length > 0) ? 'ours' : ''; })()",
            "our turn or the end",
        )
        .await;
        if state == "finished" {
            break;
        }
        play_one_move_by_clicking(&c).await;
    }
    said(&c, "Vous avez gagné").await;
    // Every visible word is French: no word of the English file that French does not use.
    let english = js(
        &c,
        "return Promise.all([import('/assets/i18n/en.mjs'), import('/assets/i18n/fr.mjs')]).then(([en, fr]) => {
           const words = (s) => s.toLowerCase().match(/[a-zà-ÿ]{4,}/g) || [];
           const french = new Set(words(Object.values(fr.default).join(' ')));
           const englishOnly = new Set(words(Object.values(en.default).join(' ')).filter((w) => !french.has(w)));
           return words(document.body.innerText).filter((w) => englishOnly.has(w));
         })",
    )
    .await;
    assert_eq!(english, json!([]), "English words on the French page");
    assert_eq!(c.title().await.expect("a title"), "Emergo · 1–0");
    save_screenshot(&c, "french.png").await;

    // A rematch against the engine: the same level, the other colour; the engine opens.
    click(&c, "#rematch").await;
    wait_until(&c, "document.querySelector('#game').dataset.status === 'ongoing' && document.querySelector('#bar-bottom .sub')?.innerText === 'Noirs'", "the rematch with Black").await;
    assert_eq!(text_of(&c, "#bar-top .sub").await, "niveau 1");
    wait_until(
        &c,
        "Number(document.querySelector('#game').dataset.ply) >= 1",
        "the engine's first move",
    )
    .await;
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn themes_the_column_box_icons_numbering_and_axe() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    find(&c, "#new-engine").await;
    assert_eq!(axe_violations(&c).await, json!([]), "the lobby");

    // The lobby remembers its Finished tab (defect 11).
    click(&c, ".tabs button[data-status=finished]").await;
    c.refresh().await.expect("the page reloads");
    wait_until(&c, "document.querySelector(\".tabs button[data-status=finished]\").getAttribute('aria-selected') === 'true'", "the Finished tab kept").await;

    // Numbering: "2… a5" after stepping back, never a bare ply (defect 1).
    let record = "1. d3 a5 2. f2 e1 3. b4 *";
    let game: Value = reqwest::Client::new()
        .post(rig.url("/api/games/import"))
        .body(format!("[Result \"*\"]\n\n{record}\n"))
        .send()
        .await
        .expect("the import is sent")
        .json()
        .await
        .expect("a view");
    let id = game["id"].as_str().expect("an id");
    c.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the game opens");
    wait_until(
        &c,
        "document.querySelectorAll('#moves .mv[data-ply]').length === 5",
        "the moves",
    )
    .await;
    click(&c, "#moves .mv[data-ply='2']").await;
    said(&c, "After 1… a5").await;
    let row = js(&c, "return [...document.querySelectorAll('#moves .row')].map((r) => r.innerText.replace(/\\s+/g, ' ').trim())").await;
    assert_eq!(row, json!(["1. d3 a5", "2. f2 e1", "3. b4"]));
    // No font glyphs for controls (defect 7): icons are SVG, the words never name a glyph.
    let glyphs = js(
        &c,
        "return /[\\u23e9-\\u23fa\\u25b6\\u25c0]/.test(document.body.innerText)",
    )
    .await;
    assert_eq!(glyphs, json!(false));

    // A bare move list imports as an unfinished game; a bad one is refused in words for a
    // person, without the list of legal moves (defect 10).
    c.goto(&rig.url("/")).await.expect("the lobby");
    find(&c, "#import-text")
        .await
        .send_keys("1. d3 a5 2. f2")
        .await
        .expect("typed");
    click(&c, "#import-button").await;
    wait_until(
        &c,
        "document.querySelectorAll('#moves .mv[data-ply]').length === 3",
        "the bare list imported",
    )
    .await;
    c.goto(&rig.url("/")).await.expect("the lobby");
    find(&c, "#import-text")
        .await
        .send_keys("1. d3 zz")
        .await
        .expect("typed");
    click(&c, "#import-button").await;
    wait_until(
        &c,
        "!document.querySelector('#toast').hidden",
        "the refusal",
    )
    .await;
    let refusal = text_of(&c, "#toast-text").await;
    assert!(
        refusal.contains("line 1") && refusal.contains("zz") && !refusal.contains("legal moves"),
        "{refusal}"
    );

    // Dark theme, green board, the column's contents beside the board (defect 4).
    c.goto(&rig.url("/")).await.expect("the lobby");
    new_game(&c, "new-engine", "white", Some(1), Some(TALL_COLUMNS)).await;
    click(&c, "#theme").await;
    click(&c, "#theme").await;
    wait_until(
        &c,
        "document.documentElement.dataset.theme === 'dark'",
        "the dark theme",
    )
    .await;
    let bg = js(
        &c,
        "return getComputedStyle(document.documentElement).backgroundColor",
    )
    .await;
    assert_eq!(bg, json!("rgb(28, 26, 24)"));
    assert_eq!(axe_violations(&c).await, json!([]), "the dark game page");
    hover(&c, "c4").await;
    wait_until(
        &c,
        "!document.querySelector('#tip').hidden",
        "the column's contents",
    )
    .await;
    let apart = js(
        &c,
        "const a = document.querySelector('#tip').getBoundingClientRect(); const b = document.querySelector('#board').getBoundingClientRect(); return a.left >= b.right || a.right <= b.left || a.top >= b.bottom || a.bottom <= b.top",
    )
    .await;
    assert_eq!(apart, json!(true), "the box covers the board");
    assert!(text_of(&c, "#tip")
        .await
        .contains("c4, White column: 3 White over 7 Black"));
    save_screenshot(&c, "dark.png").await;
    click(&c, "#board-colors").await;
    let fill = js(
        &c,
        "return getComputedStyle(document.querySelector('#board .sq-dark')).fill",
    )
    .await;
    assert_eq!(fill, json!("rgb(111, 154, 94)"));
    // The squares are named for a screen reader.
    let name = js(
        &c,
        "return document.querySelector(\"#board .hit[data-sq='e5']\").getAttribute('aria-label')",
    )
    .await;
    assert_eq!(name, json!("e5, Black column: 2 Black over 2 White"));
    // Sound is on until muted, and the choice is kept.
    click(&c, "#sound").await;
    c.refresh().await.expect("the page reloads");
    wait_until(
        &c,
        "document.querySelector('#sound').dataset.muted === 'true'",
        "the mute kept",
    )
    .await;
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_while_the_engine_thinks_and_after_a_loss_on_the_board() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    // Level 10 thinks 2 s: Take back stays usable meanwhile (defect 5).
    new_game(&c, "new-engine", "white", Some(10), None).await;
    wait_until(
        &c,
        "document.querySelectorAll('#board .target').length > 0",
        "White's entries",
    )
    .await;
    // a5: out of the opening book, which would answer d3 at once.
    click_square(&c, "a5").await;
    wait_until(&c, "document.querySelector('#game').dataset.thinking === 'true' && !document.querySelector('#takeback').disabled && !document.querySelector('#takeback').hidden", "Take back while the engine thinks").await;
    click(&c, "#takeback").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.ply === '0'",
        "the move taken back",
    )
    .await;

    // Black against a White that wins in three: the loss is said from Black's side, and the
    // game can still be taken back.
    c.goto(&rig.url("/")).await.expect("the lobby");
    new_game(
        &c,
        "new-engine",
        "black",
        Some(1),
        Some(WHITE_WINS_IN_THREE),
    )
    .await;
    for _ in 0..10 {
        let state = wait_until(
            &c,
            "(() => { const d = document.querySelector('#game').dataset; return d.status === 'finished' ? 'finished' : (d.turn === 'black' && d.thinking === 'false' && document.querySelectorAll('#board .start, #board .target').length > 0) ? 'ours' : ''; })()",
            "our turn or the end",
        )
        .await;
        if state == "finished" {
            break;
        }
        play_one_move_by_clicking(&c).await;
    }
    said(&c, "You lost").await;
    said(&c, "Black has no pieces left").await;
    wait_until(
        &c,
        "!document.querySelector('#takeback').hidden",
        "Take back after the loss",
    )
    .await;
    let before = ply(&c).await;
    click(&c, "#takeback").await;
    wait_until(&c, &format!("Number(document.querySelector('#game').dataset.ply) < {before} && document.querySelector('#game').dataset.status === 'ongoing'"), "the loss taken back").await;
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_phone_layout_keeps_the_actions_in_view() {
    let mut rig = Rig::start().await;
    let c = rig.browser(360, 740).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    new_game(&c, "new-engine", "white", Some(1), Some(TALL_COLUMNS)).await;
    wait_until(
        &c,
        "document.querySelectorAll('#board .start, #board .target').length > 0",
        "the board",
    )
    .await;
    let layout = js(
        &c,
        "const a = document.querySelector('#actions').getBoundingClientRect();
         return { fixed: getComputedStyle(document.querySelector('#actions')).position, inView: a.top >= 0 && a.bottom <= innerHeight + 1,
                  wide: document.documentElement.scrollWidth <= innerWidth, keys: getComputedStyle(document.querySelector('.keys')).display }",
    )
    .await;
    assert_eq!(
        layout,
        json!({"fixed": "fixed", "inView": true, "wide": true, "keys": "none"})
    );
    save_screenshot(&c, "phone-actions.png").await;
    assert_eq!(axe_violations(&c).await, json!([]), "the phone page");
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}
