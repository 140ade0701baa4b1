//! The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`;
//! `scripts/install-test-tools.sh` installs them) driven over WebDriver by fantoccini, against the
//! server started in-process on a free loopback port over a SQLite file in a temporary directory.
//!
//! These tests fail, never skip, when Chromium is missing. They save screenshots of the board in
//! `target/screenshots/` (`EMERGO_SCREENSHOTS=docs/screenshots` refreshes the committed ones). They run one at a time (each starts its own chromedriver and browsers).

use crate::rig::*;
use fantoccini::{key::Key, Client};
use serde_json::{json, Value};

/* ---------------------------------------------------------------- tests */

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_loads_and_shows_the_start_screen_and_the_empty_board() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    assert_eq!(c.title().await.expect("a title"), "Emergo");
    find(&c, "#lobby:not([hidden])").await;
    for form in ["#new-engine", "#new-human", "#import"] {
        assert!(find(&c, form)
            .await
            .is_displayed()
            .await
            .expect("displayed"));
    }
    wait_until(
        &c,
        "document.querySelector('#game-list li')",
        "the list of games",
    )
    .await;

    // An unknown game: back to the start screen, with the reason in words.
    c.goto(&rig.url("/game/no-such-game"))
        .await
        .expect("the page loads");
    wait_until(
        &c,
        "location.pathname === '/' && !document.querySelector('#lobby').hidden && document.querySelector('#toast-text').innerText.includes('no game at the address')",
        "the unknown game refused in words",
    )
    .await;

    let id = new_game(&c, "new-engine", "white", Some(1), None).await;
    let seat = local_seat(&c, &id).await;
    assert_eq!(
        seat["seat"], "white",
        "the seat is kept in localStorage by game id"
    );
    assert!(seat["token"].as_str().is_some_and(|t| !t.is_empty()));

    // R1: 41 playable squares, named the designers' way; e1 bottom-left, a5 top-left, e9
    // top-right, i5 bottom-right with White at the bottom.
    let squares = js(
        &c,
        "return document.querySelectorAll('#board rect.hit').length",
    )
    .await;
    assert_eq!(squares, json!(41));
    let corner = |sq: &str| {
        format!("(() => {{ const r = document.querySelector(\"#board rect.hit[data-sq='{sq}']\").getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y)]; }})()")
    };
    let e1: Vec<f64> =
        serde_json::from_value(js(&c, &format!("return {}", corner("e1"))).await).expect("xy");
    let a5: Vec<f64> =
        serde_json::from_value(js(&c, &format!("return {}", corner("a5"))).await).expect("xy");
    let e9: Vec<f64> =
        serde_json::from_value(js(&c, &format!("return {}", corner("e9"))).await).expect("xy");
    let i5: Vec<f64> =
        serde_json::from_value(js(&c, &format!("return {}", corner("i5"))).await).expect("xy");
    assert!(
        e1[0] == a5[0] && e1[1] > a5[1],
        "e1 below a5 on the left edge"
    );
    assert!(
        e9[0] == i5[0] && e9[1] < i5[1],
        "e9 above i5 on the right edge"
    );
    assert!(
        e1[1] == i5[1] && e1[0] < i5[0],
        "e1 and i5 along the bottom"
    );

    // White to move, every empty square but e5 is a legal entry (R9.3): 40 marks.
    wait_until(
        &c,
        "document.querySelectorAll('#board .target').length === 40",
        "the 40 entries",
    )
    .await;
    let entries = marks(&c, "target").await;
    assert!(
        !entries.contains(&"e5".to_string()),
        "R9.3: no first entry on e5"
    );
    assert_eq!(
        find(&c, "#bar-bottom .hand .count")
            .await
            .text()
            .await
            .expect("text"),
        "12",
        "White has 12 men in hand"
    );
    let status = find(&c, "#status").await.text().await.expect("text");
    assert!(
        status.contains("White to move") && status.contains("Entering"),
        "{status}"
    );
    unhover(&c).await;
    save_screenshot(&c, "start.png").await;

    // Flipping turns the board round: e1 goes to the top right.
    click(&c, "#flip").await;
    let e1_flipped: Vec<f64> =
        serde_json::from_value(js(&c, &format!("return {}", corner("e1"))).await).expect("xy");
    assert!(
        e1_flipped[0] > e1[0] && e1_flipped[1] < e1[1],
        "flipped: e1 at the top right"
    );

    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_the_engine_is_played_by_clicking() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    let first_id = new_game(
        &c,
        "new-engine",
        "white",
        Some(1),
        Some(WHITE_WINS_IN_THREE),
    )
    .await;

    // A hint: the engine's move for us, shown on the board and in words.
    wait_until(
        &c,
        "document.querySelectorAll('#board .start').length > 0",
        "the legal starts",
    )
    .await;
    click(&c, "#hint").await;
    let hint = wait_until(&c, "!document.querySelector('#hint-text').hidden && document.querySelector('#hint-text').textContent", "a hint").await;
    assert!(
        hint.as_str().is_some_and(|h| h.starts_with("Hint: ")),
        "{hint}"
    );
    assert!(
        js(
            &c,
            "return document.querySelectorAll('#board .hint-mark').length"
        )
        .await
        .as_u64()
            >= Some(2)
    );

    // One move and the engine's reply, then take them back.
    play_one_move_by_clicking(&c).await;
    wait_until(&c, "document.querySelector('#game').dataset.ply === '2' && document.querySelector('#game').dataset.thinking === 'false'", "the engine's reply over the WebSocket").await;
    click(&c, "#takeback").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.ply === '0'",
        "the takeback",
    )
    .await;
    assert!(moves_listed(&c).await.is_empty());

    // Now the whole game: every line from here ends with White winning at ply 5.
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
    wait_until(
        &c,
        "document.querySelector('#game').dataset.status === 'finished'",
        "the end of the game",
    )
    .await;
    let result = find(&c, "#result").await;
    assert_eq!(
        result.attr("data-result").await.expect("attr").as_deref(),
        Some("1-0")
    );
    assert_eq!(
        result.attr("data-reason").await.expect("attr").as_deref(),
        Some("no pieces")
    );
    let words = result.text().await.expect("text");
    assert!(
        words.contains("You won") && words.contains("Black has no pieces left"),
        "{words}"
    );
    let moves = moves_listed(&c).await;
    assert_eq!(moves.len(), 5, "{moves:?}");
    // the last move was a capture: the men it took are marked where they stood
    let captured = js(
        &c,
        "return document.querySelectorAll('#board [data-captured]').length",
    )
    .await;
    assert!(captured.as_u64() >= Some(1), "the captured men are marked");
    assert!(marks(&c, "start").await.is_empty() && marks(&c, "target").await.is_empty());
    unhover(&c).await;
    save_screenshot(&c, "end.png").await;

    // Stepping through the game: Home, arrows, End, and a click in the move list.
    let body = find(&c, "body").await;
    body.send_keys(&Key::Home).await.expect("Home");
    assert_eq!(game_data(&c, "viewPly").await, "0");
    assert_eq!(
        stack_on(&c, "c4").await,
        "WWW",
        "the start position is shown again"
    );
    body.send_keys(&Key::Right).await.expect("→");
    body.send_keys(&Key::Right).await.expect("→");
    assert_eq!(game_data(&c, "viewPly").await, "2");
    body.send_keys(&Key::Left).await.expect("←");
    assert_eq!(game_data(&c, "viewPly").await, "1");
    body.send_keys(&Key::End).await.expect("End");
    assert_eq!(game_data(&c, "viewPly").await, "5");
    // (Clicked in the page: the explorer under the finished game fills in meanwhile and moves
    // the side panel's scroll.)
    js(
        &c,
        "document.querySelector(\"#moves .mv[data-ply='3']\").click(); return true",
    )
    .await;
    assert_eq!(game_data(&c, "viewPly").await, "3");
    click(&c, "#nav-first").await;
    assert_eq!(game_data(&c, "viewPly").await, "0");
    click(&c, "#nav-last").await;
    assert_eq!(game_data(&c, "viewPly").await, "5");

    // The finished game is in the list and opens for replay; its record downloads.
    let href = find(&c, "#export")
        .await
        .attr("href")
        .await
        .expect("attr")
        .unwrap_or_default();
    assert!(href.ends_with("/record"), "{href}");
    let record = js(&c, &format!("return await (await fetch('{href}')).text()")).await;
    assert!(
        record.as_str().is_some_and(|r| r.contains("1-0")),
        "{record}"
    );
    click(&c, "a.brand").await;
    click(&c, ".tabs button[data-status=finished]").await;
    wait_until(
        &c,
        "document.querySelector('#game-list a[data-game]')",
        "the finished game listed",
    )
    .await;
    click(&c, "#game-list a[data-game]").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.status === 'finished'",
        "the finished game reopened",
    )
    .await;
    assert_eq!(moves_listed(&c).await.len(), 5);

    // The record imported again gives a game to replay with the same moves.
    click(&c, "a.brand").await;
    let text = record.as_str().expect("a record");
    find(&c, "#import-text")
        .await
        .send_keys(text)
        .await
        .expect("the record is pasted");
    click(&c, "#import-button").await;
    let imported = game_id(&c).await;
    wait_until(
        &c,
        "document.querySelectorAll('#moves .mv[data-ply]').length === 5",
        "the imported moves",
    )
    .await;
    assert_ne!(imported, first_id);
    assert_eq!(moves_listed(&c).await, moves);
    assert!(
        marks(&c, "start").await.is_empty(),
        "an imported game is for replay only"
    );

    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_through_an_invitation_link_with_captures_by_clicks() {
    let mut rig = Rig::start().await;
    let a = rig.browser(1000, 820).await;
    let b = rig.browser(1000, 820).await;

    a.goto(&rig.url("/")).await.expect("the page loads");
    let id = new_game(&a, "new-human", "white", None, Some(WORKED_EXAMPLE)).await;
    let invite = wait_until(
        &a,
        "!document.querySelector('#invite-box').hidden && document.querySelector('#invite-link').value",
        "the invitation link",
    )
    .await;
    let invite = invite.as_str().expect("a link").to_string();
    assert!(invite.contains(&format!("/game/{id}?invite=")), "{invite}");
    let own = find(&a, "#own-link")
        .await
        .prop("value")
        .await
        .expect("prop")
        .unwrap_or_default();
    assert!(own.ends_with(&format!("/game/{id}")), "{own}");

    // B first watches through the public link: no seat, nothing to click.
    b.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the page loads");
    wait_until(
        &b,
        "document.querySelector('#status').innerText.includes('You are watching')",
        "a spectator's view",
    )
    .await;
    assert!(marks(&b, "start").await.is_empty());

    // B joins through the invitation and gets Black; A sees the opponent arrive.
    b.goto(&invite).await.expect("the invitation opens");
    wait_until(&b, "JSON.parse(localStorage.getItem('emergo.seat.' + location.pathname.split('/')[2]))?.seat === 'black'", "Black's seat kept in localStorage").await;
    wait_until(
        &b,
        "location.search === ''",
        "the invitation code gone from the address",
    )
    .await;
    wait_until(
        &a,
        "document.querySelector('#invite-box').hidden",
        "the opponent joined",
    )
    .await;

    // A (White) steps f4-e4: two clicks.
    wait_until(
        &a,
        "document.querySelectorAll('#board .start').length > 0",
        "White's starts",
    )
    .await;
    click_square(&a, "f4").await;
    assert_eq!(marks(&a, "target").await, ["e4", "f3", "f5"]);
    click_square(&a, "e4").await;
    wait_until(
        &a,
        "document.querySelector('#game').dataset.ply === '1'",
        "White's step",
    )
    .await;

    // B sees it live and must take two men: h4, then f4; the rest completes itself.
    wait_until(
        &b,
        "document.querySelector('#game').dataset.ply === '1'",
        "White's move, live",
    )
    .await;
    wait_until(
        &b,
        "document.querySelectorAll('#board .start').length > 0",
        "Black's starts",
    )
    .await;
    assert_eq!(
        marks(&b, "start").await,
        ["h4"],
        "R7.3: only the two-man capture is legal"
    );
    click_square(&b, "h4").await;
    assert_eq!(marks(&b, "target").await, ["f4"]);
    click_square(&b, "f4").await;
    wait_until(
        &b,
        "document.querySelector('#game').dataset.ply === '2'",
        "Black's capture",
    )
    .await;
    assert_eq!(stack_on(&b, "d4").await, "BBWW");

    // A must take five: e4, then c4, and the one route left completes itself.
    wait_until(
        &a,
        "document.querySelector('#game').dataset.ply === '2'",
        "Black's capture, live",
    )
    .await;
    assert_eq!(marks(&a, "start").await, ["e4"]);
    click_square(&a, "e4").await;
    assert_eq!(marks(&a, "target").await, ["c4"]);
    click_square(&a, "c4").await;
    wait_until(
        &a,
        "document.querySelector('#game').dataset.ply === '3'",
        "White's capture",
    )
    .await;
    wait_until(
        &b,
        "document.querySelector('#game').dataset.ply === '3'",
        "White's capture, live",
    )
    .await;
    let expected = ["f4-e4", "h4xf4xd4", "e4xc4xc6xe6xe4xc4"];
    assert_eq!(moves_listed(&a).await, expected);
    assert_eq!(moves_listed(&b).await, expected);
    for page in [&a, &b] {
        assert_eq!(
            stack_on(page, "c4").await,
            "WWWBBBBB",
            "three White over five Black"
        );
        assert_eq!(stack_on(page, "d4").await, "WW", "two White men liberated");
        let captured = js(page, "return [...new Set([...document.querySelectorAll('#board [data-captured]')].map(e => e.dataset.captured))].sort()").await;
        assert_eq!(
            captured,
            json!(["c5", "d4", "d6", "e5"]),
            "the jumped squares are marked"
        );
    }

    // A tooltip tells a column's men from the top down (the mouse leaves c4, where it clicked
    // last, and comes back).
    hover(&a, "i5").await;
    hover(&a, "c4").await;
    let tip = wait_until(
        &a,
        "!document.querySelector('#tip').hidden && document.querySelector('#tip').innerText",
        "the column's contents",
    )
    .await;
    let tip = tip.as_str().unwrap_or_default();
    assert!(
        tip.contains("c4") && tip.contains("3 White over 5 Black"),
        "{tip}"
    );
    let men = js(
        &a,
        "return [...document.querySelectorAll('#tip .man')].map(m => m.classList[1]).join('')",
    )
    .await;
    assert_eq!(men, json!("WWWBBBBB"), "the men from the top down");

    // A bad typed move is refused in plain words and changes nothing.
    wait_until(
        &b,
        "!document.querySelector('#move-input').disabled",
        "Black's move box",
    )
    .await;
    let input = find(&b, "#move-input").await;
    input.send_keys("a5-a6").await.expect("typed");
    click(&b, "#move-submit").await;
    wait_until(&b, "!document.querySelector('#toast').hidden && document.querySelector('#toast-text').innerText.includes('not legal')", "the refusal").await;
    assert_eq!(ply(&b).await, 3);

    // Draw offered by Black and declined by White; then White resigns.
    click(&b, "#draw-offer").await;
    wait_until(
        &a,
        "!document.querySelector('#draw-accept').hidden",
        "the draw offer",
    )
    .await;
    click(&a, "#draw-decline").await;
    wait_until(&b, "document.querySelector('#draw-offer').textContent === 'Offer draw' && !document.querySelector('#draw-offer').disabled", "the offer declined").await;
    click(&a, "#resign").await;
    click(&a, "#resign").await; // confirm
                                // the result from each side (issue 9, defect 3)
    for (page, head) in [(&a, "You lost"), (&b, "You won")] {
        wait_until(
            page,
            "document.querySelector('#game').dataset.status === 'finished'",
            "the resignation",
        )
        .await;
        let words = find(page, "#result").await.text().await.expect("text");
        assert!(
            words.contains(head) && words.contains("White resigned"),
            "{words}"
        );
    }

    assert_no_script_errors(&a).await;
    a.close().await.expect("the browser closes");
    assert_no_script_errors(&b).await;
    b.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tall_columns_are_drawn_as_stacks_and_a_lost_connection_catches_up() {
    let mut rig = Rig::start().await;
    let a = rig.browser(1100, 860).await;
    a.goto(&rig.url("/")).await.expect("the page loads");
    let id = new_game(&a, "new-human", "white", None, Some(TALL_COLUMNS)).await;
    wait_until(
        &a,
        "document.querySelector('#conn').dataset.state === 'live'",
        "the live connection",
    )
    .await;

    assert_eq!(stack_on(&a, "c4").await, "WWWBBBBBBB");
    let badge = js(&a, "return [...document.querySelectorAll(\"#board .column[data-col='c4'] .badge-text\")].map(t => t.textContent)").await;
    assert_eq!(
        badge,
        json!(["3", "7"]),
        "3 men of the owner over 7 prisoners"
    );
    let shadow = wait_until(
        &a,
        "document.querySelector('#status .shadow')?.dataset.shadow",
        "the pending shadowpiece",
    )
    .await;
    assert_eq!(shadow, json!("2"), "R9.2: White enters its 2 men at once");
    save_screenshot(&a, "midgame.png").await;
    assert_board_drawn_in_both_themes(&a, "#board", "the game board").await;
    hover(&a, "c4").await;
    let tip = wait_until(
        &a,
        "!document.querySelector('#tip').hidden && document.querySelector('#tip').innerText",
        "the tall column's contents",
    )
    .await;
    assert!(
        tip.as_str()
            .unwrap_or_default()
            .contains("3 White over 7 Black"),
        "{tip}"
    );
    hover(&a, "a5").await;

    // The same on a phone's screen.
    a.set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    wait_until(
        &a,
        "document.querySelector('#board').getBoundingClientRect().width < 400",
        "the narrow layout",
    )
    .await;
    let fits = js(
        &a,
        "return document.documentElement.scrollWidth <= window.innerWidth",
    )
    .await;
    assert_eq!(fits, json!(true), "nothing wider than a phone's screen");
    save_screenshot(&a, "phone.png").await;
    a.set_window_size(1100, 860).await.expect("the window back");

    // The server goes away; the page says so, and when it is back, catches up by itself with
    // the move the opponent made meanwhile.
    let invite = js(
        &a,
        &format!("return JSON.parse(localStorage.getItem('emergo.invite.{id}'))"),
    )
    .await;
    let invite = invite.as_str().expect("the invite code kept").to_string();
    let white = local_seat(&a, &id).await;
    rig.stop_server().await;
    wait_until(
        &a,
        "document.querySelector('#conn').dataset.state === 'down'",
        "the lost connection",
    )
    .await;
    rig.restart_server().await;
    let http = reqwest::Client::new();
    let grant: Value = http
        .post(rig.url(&format!("/api/games/{id}/join")))
        .json(&json!({ "invite": invite }))
        .send()
        .await
        .expect("join")
        .json()
        .await
        .expect("a seat");
    let black = grant["token"].as_str().expect("a token").to_string();
    // White moves (through the API with the page's own token), then Black.
    let game: Value = http
        .get(rig.url(&format!("/api/games/{id}")))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    let first = game["legal_moves"][0]
        .as_str()
        .expect("a legal move")
        .to_string();
    let res = http
        .post(rig.url(&format!("/api/games/{id}/moves")))
        .json(&json!({ "token": white["token"], "ply": 0, "move": first }))
        .send()
        .await
        .expect("move");
    assert!(res.status().is_success(), "{:?}", res.text().await);
    let game: Value = res.json().await.unwrap_or(Value::Null);
    let reply = game["legal_moves"][0].as_str().map(str::to_string);
    if let Some(reply) = reply {
        let res = http
            .post(rig.url(&format!("/api/games/{id}/moves")))
            .json(&json!({ "token": black, "ply": 1, "move": reply }))
            .send()
            .await
            .expect("move");
        assert!(res.status().is_success(), "{:?}", res.text().await);
    }
    wait_until(
        &a,
        "document.querySelector('#conn').dataset.state === 'live'",
        "the connection back",
    )
    .await;
    wait_until(
        &a,
        "Number(document.querySelector('#game').dataset.ply) >= 2",
        "the moves made while away",
    )
    .await;
    assert_eq!(moves_listed(&a).await.len(), 2);

    assert_no_script_errors(&a).await;
    a.close().await.expect("the browser closes");
    rig.stop_server().await;
}

/// A game of `plies` moves with at least `captures` captures, the same on every run: each move is
/// chosen from the legal moves by a fixed formula of the ply and a seed, trying seeds in order.
fn a_long_game_with_captures(plies: usize, captures: usize) -> emergo_core::Game {
    for seed in 0u64.. {
        let mut game = emergo_core::Game::default();
        let mut taken = 0;
        while game.ply() < plies && !game.is_over() {
            let mut legal: Vec<_> = game.position().legal_moves().to_vec();
            legal.sort_by_key(|m| m.to_string());
            let pick = (game.ply() as u64 * 2_654_435_761 + seed * 40_503) % legal.len() as u64;
            let mv = legal[pick as usize];
            taken += usize::from(mv.is_capture());
            game.play(mv).expect("a legal move plays");
        }
        if game.ply() == plies && !game.is_over() && taken >= captures {
            return game;
        }
    }
    unreachable!("some seed gives such a game")
}

/// What the page draws for the ply on view: its columns (square, letters from the top), men in
/// hand, the last move's squares and the squares of the men it took.
async fn drawn(c: &Client) -> Value {
    js(
        c,
        "const cols = [...document.querySelectorAll('#board .column')].map(e => e.dataset.col + '=' + e.dataset.stack).sort();
         const hand = [...document.querySelectorAll('[data-hand]')].map(e => e.dataset.hand + ':' + e.querySelector('.count').textContent).sort();
         const last = [...new Set([...document.querySelectorAll('#board .last')].map(e => e.dataset.sq))].sort();
         const captured = [...document.querySelectorAll('#board [data-captured]')].map(e => e.dataset.captured).sort();
         return { ply: Number(document.querySelector('#game').dataset.viewPly), position: document.querySelector('#game').dataset.position, cols, hand, last, captured };",
    )
    .await
}

/// The same, as the N2 text of `positions[ply]` and the move before it say it must be.
fn expected_drawing(ply: usize, position: &str, before: Option<&emergo_core::Move>) -> Value {
    let pos: emergo_core::Position = position.parse().expect("N2 text from the view");
    let letter = |c: emergo_core::Color| {
        if c == emergo_core::Color::White {
            "W"
        } else {
            "B"
        }
    };
    let mut cols: Vec<String> = pos
        .columns()
        .map(|(sq, col)| {
            let other = if col.owner == emergo_core::Color::White {
                emergo_core::Color::Black
            } else {
                emergo_core::Color::White
            };
            format!(
                "{sq}={}{}",
                letter(col.owner).repeat(col.men.into()),
                letter(other).repeat(col.prisoners.into())
            )
        })
        .collect();
    cols.sort();
    let hand = vec![
        format!("black:{}", pos.hand(emergo_core::Color::Black)),
        format!("white:{}", pos.hand(emergo_core::Color::White)),
    ];
    let (mut last, mut captured) = (Vec::new(), Vec::new());
    if let Some(mv) = before {
        match mv {
            emergo_core::Move::Enter(s) => last.push(s.to_string()),
            emergo_core::Move::Step { from, to } => last.extend([from.to_string(), to.to_string()]),
            emergo_core::Move::Capture(path) => {
                last.push(path.from().to_string());
                for (over, land) in path.jumps() {
                    captured.push(over.to_string());
                    last.push(land.to_string());
                }
            }
        }
    }
    last.sort();
    last.dedup();
    captured.sort();
    json!({ "ply": ply, "position": position, "cols": cols, "hand": hand, "last": last, "captured": captured })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_100_move_game_with_captures_replays_step_by_step_as_the_views_positions_say() {
    let mut rig = Rig::start().await;
    let game = a_long_game_with_captures(100, 8);
    let record = emergo_core::record::write_game(&game, &[]);
    let http = reqwest::Client::new();
    let imported: Value = http
        .post(rig.url("/api/games/import"))
        .body(record)
        .send()
        .await
        .expect("the import is sent")
        .json()
        .await
        .expect("a game view");
    let id = imported["id"].as_str().expect("an id").to_string();
    let view: Value = http
        .get(rig.url(&format!("/api/games/{id}")))
        .send()
        .await
        .expect("the view is asked for")
        .json()
        .await
        .expect("a game view");
    let positions: Vec<String> =
        serde_json::from_value(view["positions"].clone()).expect("positions");
    let core: Vec<String> = game.positions().iter().map(ToString::to_string).collect();
    assert_eq!(positions, core, "the view's positions are core's");

    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the page loads");
    wait_until(
        &c,
        "document.querySelectorAll('#moves .mv[data-ply]').length === 100",
        "the 100 moves listed",
    )
    .await;
    click(&c, "#nav-first").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.viewPly === '0'",
        "the start",
    )
    .await;
    assert_eq!(drawn(&c).await, expected_drawing(0, &positions[0], None));
    for (ply, position) in positions.iter().enumerate().skip(1) {
        click(&c, &format!("#moves .mv[data-ply='{ply}']")).await;
        wait_until(
            &c,
            &format!("document.querySelector('#game').dataset.viewPly === '{ply}'"),
            "the move on view",
        )
        .await;
        let want = expected_drawing(ply, position, game.moves().get(ply - 1));
        assert_eq!(drawn(&c).await, want, "ply {ply}");
    }
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

/// Issue 11: a 0.25+0 game between two people, the clock ticking on the page, turning to its
/// low-time colour, and White's flag falling with the result said in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quarter_minute_game_is_lost_on_time_and_the_page_says_so() {
    let mut rig = Rig::start().await;
    let a = rig.browser(1000, 820).await;
    a.goto(&rig.url("/")).await.expect("the page loads");
    find(&a, "#human-time")
        .await
        .select_by_value("0.25+0")
        .await
        .expect("the time control is chosen");
    let id = new_game(&a, "new-human", "white", None, None).await;
    let invite = wait_until(
        &a,
        "!document.querySelector('#invite-box').hidden && document.querySelector('#invite-link').value",
        "the invitation link",
    )
    .await;
    let code = invite
        .as_str()
        .and_then(|link| link.split("invite=").nth(1))
        .expect("an invitation code")
        .to_string();
    // Before the opponent comes, White's clock shows the whole time and does not run.
    let shown = wait_until(
        &a,
        "document.querySelector('[data-clock=white]')?.textContent",
        "White's clock",
    )
    .await;
    assert_eq!(shown, json!("0:15"));

    // Black joins and answers by the API; White moves by clicking.
    let http = reqwest::Client::new();
    let black: Value = http
        .post(rig.url(&format!("/api/games/{id}/join")))
        .json(&json!({"invite": code}))
        .send()
        .await
        .expect("join sent")
        .json()
        .await
        .expect("a seat grant");
    wait_until(
        &a,
        "document.querySelector('[data-clock=white]').classList.contains('running')",
        "White's clock running",
    )
    .await;
    play_one_move_by_clicking(&a).await;
    let game: Value = http
        .get(rig.url(&format!("/api/games/{id}")))
        .send()
        .await
        .expect("game asked")
        .json()
        .await
        .expect("a game");
    let reply = game["legal_moves"][0].as_str().expect("a legal move");
    let answer = http
        .post(rig.url(&format!("/api/games/{id}/moves")))
        .json(&json!({"token": black["token"], "ply": 1, "move": reply}))
        .send()
        .await
        .expect("move sent");
    assert!(answer.status().is_success());

    // White does not move: the clock ticks down, turns to its low-time colour, and falls
    // (about 13 s, the server's clock: another test's browser may work meanwhile).
    rig.aside(async {
        wait_until(
            &a,
            "document.querySelector('#game').dataset.ply === '2' && document.querySelector('[data-clock=white]').classList.contains('low')",
            "White's clock in low time",
        )
        .await;
        wait_until(
            &a,
            "document.querySelector('#result').dataset.reason === 'time'",
            "the loss on time",
        )
        .await;
    })
    .await;
    let words = find(&a, "#result").await.text().await.expect("text");
    assert!(words.contains("You lost"), "{words}");
    assert!(words.contains("White ran out of time."), "{words}");
    let clock = find(&a, "[data-clock=white]")
        .await
        .text()
        .await
        .expect("text");
    assert_eq!(clock, "0.0");
    save_screenshot(&a, "lost-on-time.png").await;
    assert_no_script_errors(&a).await;
}
