//! Issue 18, in a real browser: the chat of a game between people (two players, a signed-in
//! spectator, an anonymous one), takeback requests and the Abort button, in English and French,
//! and the game page on a phone: what each person sees, where (element rectangles), and that
//! nothing covers the status, the bars with their clocks, or the board.

use crate::rig::*;
use fantoccini::Client;
use serde_json::{json, Value};

/// A game between people made on `a` (White, with the clock `time`), joined on `b` by its
/// invitation link: its id.
async fn people_game(rig: &Rig, a: &Client, b: &Client, time: &str) -> String {
    a.goto(&rig.url("/")).await.expect("the page loads");
    find(a, "#human-time")
        .await
        .select_by_value(time)
        .await
        .expect("the clock is chosen");
    let id = new_game(a, "new-human", "white", None, None).await;
    let invite = invite_of(a, &id).await;
    b.goto(&rig.url(&format!("/game/{id}?invite={invite}")))
        .await
        .expect("the invitation opens");
    wait_until(
        b,
        "document.querySelector('#game').dataset.ply === '0'",
        "the joined game",
    )
    .await;
    wait_until(
        a,
        "!document.querySelector('#chat').hidden && document.querySelector('#bar-top .name').textContent !== ''",
        "the chat of the game",
    )
    .await;
    id
}

/// Types a message in the chat and sends it.
async fn write(c: &Client, text: &str) {
    let input = find(c, "#chat-input").await;
    input.send_keys(text).await.expect("typed");
    click(c, "#chat-send").await;
    wait_until(
        c,
        "document.querySelector('#chat-input').value === ''",
        "the message sent",
    )
    .await;
}

/// The chat's messages on screen: [who, text] each.
async fn shown(c: &Client) -> Value {
    js(
        c,
        "return [...document.querySelectorAll('#chat-list .msg')].map((m) => [m.querySelector('.who').textContent, m.querySelector('.text').textContent])",
    )
    .await
}

/// Fails when the chat box overlaps the status, a player's bar (clocks, men in hand), the
/// board or the result.
async fn assert_chat_covers_nothing(c: &Client, when: &str) {
    let chat = rect(c, "#chat").await;
    assert_ne!(chat, Value::Null, "{when}: the chat is shown");
    for css in [
        "#status",
        "#bar-top",
        "#bar-bottom",
        "#board",
        "#result",
        "#moves",
    ] {
        let other = rect(c, css).await;
        if other != Value::Null {
            assert!(
                !overlap(&chat, &other),
                "{when}: the chat {chat} covers {css} {other}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_between_players_and_spectators_is_text_only_reportable_and_switched_off_in_english_and_french(
) {
    let mut rig = Rig::start().await;
    let a = rig.browser(1100, 900).await;
    let b = rig.browser(1100, 900).await;
    let id = people_game(&rig, &a, &b, "").await;
    // The players see their room only while the game goes on, said private.
    for c in [&a, &b] {
        wait_until(c, "!document.querySelector('#chat').hidden && document.querySelector('#chat').dataset.room === 'players'", "the players' room").await;
        assert_eq!(
            js(
                c,
                "return document.querySelector('#chat-room-spectators').hidden"
            )
            .await,
            json!(true)
        );
        assert_eq!(
            js(c, "return document.querySelector('#chat-note').textContent").await,
            json!("Only the two players read this room.")
        );
        assert_chat_covers_nothing(c, "a player's page").await;
    }

    // A link and markup arrive as text: nothing clickable, no element made from it.
    let text = "see <b>this</b> https://example.com/x <img src=x onerror=alert(1)>";
    write(&a, text).await;
    wait_until(
        &b,
        "document.querySelectorAll('#chat-list .msg').length === 1",
        "the message",
    )
    .await;
    assert_eq!(shown(&b).await, json!([["White:", text]]));
    assert_eq!(
        js(&b, "return document.querySelectorAll('#chat-list .text *, #chat-list a, #chat-list img').length").await,
        json!(0),
        "a message is never HTML"
    );
    assert_eq!(
        js(&b, "return document.documentElement.dataset.lastSound").await,
        json!("chat")
    );
    assert_eq!(shown(&a).await, json!([["You:", text]]));
    // The other side's message has a report button; one's own has none.
    assert_eq!(
        js(
            &a,
            "return document.querySelectorAll('#chat-list .report').length"
        )
        .await,
        json!(0)
    );
    click(&b, "#chat-list .report").await;
    wait_until(
        &b,
        "document.querySelector('#chat-list .report').disabled",
        "the report taken",
    )
    .await;
    assert_eq!(
        js(
            &b,
            "return document.querySelector('#toast-text').textContent"
        )
        .await,
        json!("Reported. Thank you: the message is kept for review.")
    );

    // In French, the chat's words are French; a reply comes back live.
    choose_lang(&b, "fr").await;
    assert_eq!(js(&b, "return [document.querySelector('#chat-title').textContent, document.querySelector('#chat-send').textContent, document.querySelector('#chat-note').textContent]").await,
        json!(["Discussion", "Envoyer", "Seuls les deux joueurs lisent ce salon."]));
    write(&b, "merci, bonne partie").await;
    wait_until(
        &a,
        "document.querySelectorAll('#chat-list .msg').length === 2",
        "the reply",
    )
    .await;
    assert_eq!(shown(&a).await[1], json!(["Black:", "merci, bonne partie"]));
    save_screenshot(&a, "game-chat.png").await;
    assert_eq!(
        axe_violations(&a).await,
        json!([]),
        "the game page with its chat"
    );

    // Turned off: hidden, silent, and so after a reload (the prefs keep it).
    click(&b, "#chat-on").await;
    wait_until(
        &b,
        "document.querySelector('#chat-body').hidden",
        "the chat off",
    )
    .await;
    js(&b, "document.documentElement.dataset.lastSound = ''").await;
    write(&a, "are you there?").await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(
        js(&b, "return document.documentElement.dataset.lastSound").await,
        json!(""),
        "no sound with the chat off"
    );
    assert_eq!(
        rect(&b, "#chat-list").await,
        Value::Null,
        "no messages shown with the chat off"
    );
    b.refresh().await.expect("reload");
    wait_until(
        &b,
        "!document.querySelector('#chat').hidden",
        "the chat's switch",
    )
    .await;
    assert_eq!(js(&b, "return [document.querySelector('#chat-on').checked, document.querySelector('#chat-body').hidden]").await, json!([false, true]));
    click(&b, "#chat-on").await;
    wait_until(
        &b,
        "document.querySelectorAll('#chat-list .msg').length === 3",
        "the messages shown on load",
    )
    .await;

    // A spectator: anonymous, the spectators' room only, told to sign in; signed in, writes.
    let s = rig.browser(1100, 900).await;
    s.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the game opens");
    wait_until(&s, "!document.querySelector('#chat').hidden && document.querySelector('#chat').dataset.room === 'spectators'", "the spectators' room").await;
    assert_eq!(js(&s, "return [document.querySelector('#chat-form').hidden, document.querySelector('#chat-note').textContent, document.querySelectorAll('#chat-list .msg').length]").await,
        json!([true, "Sign in to write in the spectators' room.", 0]), "the players' room is not for spectators");
    js(&s, "return fetch('/api/accounts', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({name: 'watcher', password: 'password-of-test'})}).then((r) => r.status)").await;
    s.refresh().await.expect("reload");
    wait_until(
        &s,
        "!document.querySelector('#chat-form').hidden",
        "the spectators' form",
    )
    .await;
    write(&s, "what a game").await;
    wait_until(
        &s,
        "document.querySelectorAll('#chat-list .msg').length === 1",
        "the spectator's message",
    )
    .await;
    assert_eq!(shown(&s).await, json!([["You:", "what a game"]]));
    // ... which the players' page does not show while the game goes on.
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(shown(&a).await.as_array().map(|m| m.len()), Some(3));
    for c in [&a, &b, &s] {
        assert_no_script_errors(c).await;
    }
    for c in [a, b, s] {
        c.close().await.expect("the browser closes");
    }
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_requests_and_the_abort_button_in_english_and_french() {
    let mut rig = Rig::start().await;
    let a = rig.browser(1100, 900).await;
    let b = rig.browser(1100, 900).await;
    people_game(&rig, &a, &b, "").await;
    choose_lang(&b, "fr").await;
    // Before each side has moved: Abort, not Resign.
    for c in [&a, &b] {
        wait_until(
            c,
            "!document.querySelector('#abort').hidden && document.querySelector('#resign').hidden",
            "the Abort button",
        )
        .await;
    }
    assert_eq!(
        js(&b, "return document.querySelector('#abort').textContent").await,
        json!("Annuler la partie")
    );
    play_one_move_by_clicking(&a).await;
    wait_until(
        &b,
        "document.querySelector('#game').dataset.ply === '1'",
        "White's move",
    )
    .await;
    play_one_move_by_clicking(&b).await;
    for c in [&a, &b] {
        wait_until(c, "document.querySelector('#game').dataset.ply === '2' && document.querySelector('#abort').hidden && !document.querySelector('#resign').hidden", "no Abort once each side has moved").await;
    }

    // White asks; Black is told in words (French) and sound, and may accept or decline. The
    // button is clicked once it is offered and enabled, as a person would (one full run here
    // clicked it earlier and never saw the request sent: under investigation).
    wait_until(
        &a,
        "!document.querySelector('#takeback-ask').hidden && !document.querySelector('#takeback-ask').disabled",
        "the takeback button offered",
    )
    .await;
    click(&a, "#takeback-ask").await;
    wait_until(&a, "document.querySelector('#takeback-ask').disabled && document.querySelector('#takeback-ask').textContent === 'Takeback asked'", "the request sent").await;
    wait_until(&b, "!document.querySelector('#takeback-accept').hidden && !document.querySelector('#takeback-decline').hidden", "the request told").await;
    assert_eq!(
        js(&b, "return document.documentElement.dataset.lastSound").await,
        json!("offer")
    );
    assert_eq!(
        js(&b, "return document.querySelector('#event').textContent").await,
        json!("Les Blancs demandent à annuler leur dernier coup.")
    );
    assert_eq!(js(&b, "return [document.querySelector('#takeback-accept').textContent, document.querySelector('#takeback-decline').textContent]").await,
        json!(["Accepter l’annulation", "Refuser l’annulation"]));
    click(&b, "#takeback-decline").await;
    wait_until(&a, "document.querySelector('#event').textContent === 'Your takeback request was declined. Ask again after the next move.'", "the refusal told").await;
    assert_eq!(
        js(
            &a,
            "return document.querySelector('#takeback-ask').disabled"
        )
        .await,
        json!(true),
        "no second request before the next move"
    );

    // Black asks after its move; White accepts: Black's move goes, Black moves again.
    click(&b, "#takeback-ask").await;
    wait_until(
        &a,
        "!document.querySelector('#takeback-accept').hidden",
        "Black's request",
    )
    .await;
    click(&a, "#takeback-accept").await;
    for c in [&a, &b] {
        wait_until(c, "document.querySelector('#game').dataset.ply === '1' && document.querySelector('#takeback-accept').hidden", "the move taken back").await;
    }
    assert_eq!(
        js(&b, "return document.querySelector('#event').textContent").await,
        json!("Annulation acceptée : trait aux Noirs de nouveau.")
    );
    // One move each is not made any more: Abort is back, and ends the game unrated.
    wait_until(
        &b,
        "!document.querySelector('#abort').hidden",
        "Abort again",
    )
    .await;
    click(&b, "#abort").await;
    for (c, head) in [(&a, "Game aborted"), (&b, "Partie annulée")] {
        wait_until(
            c,
            "document.querySelector('#game').dataset.status === 'finished'",
            "the end",
        )
        .await;
        assert_eq!(js(c, "return [document.querySelector('#result b').textContent, document.querySelector('#result').dataset.reason]").await, json!([head, "aborted"]));
        assert_eq!(js(c, "return ['abort', 'takeback-ask', 'resign'].map((id) => document.getElementById(id).hidden)").await, json!([true, true, true]));
        assert_no_script_errors(c).await;
    }
    for c in [a, b] {
        c.close().await.expect("the browser closes");
    }
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_chat_and_the_takeback_buttons_cover_neither_the_status_nor_the_clocks() {
    let mut rig = Rig::start().await;
    let a = rig.browser(1100, 900).await;
    let p = rig.phone(390, 844).await;
    people_game(&rig, &a, &p, "3+2").await;
    wait_until(&p, "document.querySelectorAll('#game [data-clock]').length === 2 && !document.querySelector('#chat').hidden", "the clocks and the chat").await;
    // The page is as wide as the phone (a timed game's bar widened it to 482 px).
    let wide = js(&p, "return [document.documentElement.scrollWidth, innerWidth, Math.round(document.querySelector('#bar-top .who-box').getBoundingClientRect().width)]").await;
    assert_eq!(
        (wide[0].as_f64(), wide[1].as_f64()),
        (Some(390.0), Some(390.0)),
        "{wide}"
    );
    assert!(
        wide[2].as_f64().unwrap_or(0.0) >= 70.0,
        "the names keep their room: {wide}"
    );
    assert_board_drawn(&p, "#board", "the game board on a phone, with the chat").await;
    play_one_move_by_clicking(&a).await;
    wait_until(
        &p,
        "document.querySelector('#game').dataset.ply === '1'",
        "White's move",
    )
    .await;
    play_one_move_by_clicking(&p).await;
    wait_until(
        &a,
        "document.querySelector('#game').dataset.ply === '2'",
        "Black's move",
    )
    .await;
    // White asks for a takeback and writes: the phone shows two more buttons and a message.
    click(&a, "#takeback-ask").await;
    write(&a, "sorry, misclick").await;
    wait_until(&p, "!document.querySelector('#takeback-accept').hidden && document.querySelectorAll('#chat-list .msg').length === 1", "the request and the message").await;
    // At the top: the bars with their clocks and the status, none under the fixed action bar.
    js(&p, "window.scrollTo(0, 0)").await;
    let bar = rect(&p, "#actions").await;
    for css in ["#bar-top", "#status", "#bar-top [data-clock]"] {
        let other = rect(&p, css).await;
        assert_ne!(other, Value::Null, "{css} shown");
        assert!(
            !overlap(&bar, &other),
            "the action bar {bar} covers {css} {other}"
        );
    }
    // Scrolled to the bottom bar and to the chat: nothing under the action bar either.
    for css in ["#bar-bottom", "#chat-input", "#chat-list .msg"] {
        js(
            &p,
            &format!("document.querySelector({css:?}).scrollIntoView({{block: 'nearest'}})"),
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        let (bar, other) = (rect(&p, "#actions").await, rect(&p, css).await);
        assert!(
            !overlap(&bar, &other),
            "on a phone the action bar {bar} covers {css} {other}"
        );
        let inside = other["top"].as_f64().unwrap_or(-1.0) >= 0.0
            && other["bottom"].as_f64().unwrap_or(1e9) <= 844.0;
        assert!(inside, "{css} {other} is in view");
    }
    assert_chat_covers_nothing(&p, "a phone").await;
    js(
        &p,
        "document.querySelector('#chat').scrollIntoView({block: 'nearest'})",
    )
    .await;
    save_screenshot(&p, "phone-chat-takeback.png").await;
    let cut = js(
        &p,
        "const cut = [];
         for (const b of document.querySelectorAll('#actions button, #actions a')) {
           if (!b.getClientRects().length) continue;
           const r = b.getBoundingClientRect();
           if (r.left < 0 || r.right > innerWidth + 0.5 || b.scrollWidth > b.clientWidth + 1) cut.push(b.textContent.trim());
         }
         if (document.documentElement.scrollWidth > document.documentElement.clientWidth) cut.push('the page scrolls sideways');
         return cut;",
    )
    .await;
    assert_eq!(cut, json!([]), "on a phone every action fits");
    // White asked after Black's reply: both go, and White is to move again.
    click(&p, "#takeback-accept").await;
    wait_until(
        &p,
        "document.querySelector('#game').dataset.ply === '0'",
        "the moves taken back",
    )
    .await;
    assert_no_script_errors(&p).await;
    for c in [a, p] {
        c.close().await.expect("the browser closes");
    }
    rig.stop_server().await;
}
