//! Accounts in a real browser (issue 11): two people sign up in two browsers (one logs out and
//! in again), a challenge by name is declined, they pair through the lobby's quick pairing grid
//! (3+2: the seeker's lobby opens the game by itself, both pages show the clocks and the names),
//! play a rated game (five moves each), and the winner's rating shows on the player page; then the winner changes
//! the password and deletes the account. The lobby, the player page and the leaderboard pass
//! axe-core.

use crate::rig::*;
use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::json;

async fn type_into(c: &Client, css: &str, text: &str) {
    find(c, css)
        .await
        .send_keys(text)
        .await
        .unwrap_or_else(|e| panic!("cannot type into {css}: {e}"));
}

/// Signs up (`#signup-open`) or logs in (`#login-open`) through the header's form.
async fn enter(c: &Client, opener: &str, name: &str, password: &str) {
    click(c, opener).await;
    type_into(c, "#account-name", name).await;
    type_into(c, "#account-password", password).await;
    click(c, "#account-submit").await;
    wait_until(
        c,
        &format!("document.querySelector('#me-link').textContent.toLowerCase() === '{}' && !document.querySelector('#me-link').hidden && document.querySelector('#account-form').hidden", name.to_lowercase()),
        "the name in the header",
    )
    .await;
}

async fn sign_up(c: &Client, name: &str) {
    enter(c, "#signup-open", name, PASSWORD).await;
}

async fn log_out(c: &Client) {
    click(c, "#logout").await;
    wait_until(
        c,
        "document.querySelector('#me-link').hidden && !document.querySelector('#login-open').hidden",
        "logged out",
    )
    .await;
}

const PASSWORD: &str = "a password of test";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_sign_up_pair_by_quick_pairing_and_the_rating_shows_on_the_player_page() {
    let mut rig = Rig::start().await;
    let a = rig.browser(1100, 900).await;
    let b = rig.browser(1100, 900).await;

    a.goto(&rig.url("/")).await.expect("the page loads");
    wait_until(
        &a,
        "!document.querySelector('#online-login').hidden",
        "the invitation to log in",
    )
    .await;
    sign_up(&a, "alice").await;
    // logged out, the quick pairing is hidden again; logged in, it is back
    log_out(&a).await;
    wait_until(
        &a,
        "document.querySelector('#online-body').hidden",
        "the quick pairing hidden",
    )
    .await;
    enter(&a, "#login-open", "Alice", PASSWORD).await;
    wait_until(
        &a,
        "document.querySelectorAll('#quick button').length === 8",
        "the quick pairing grid",
    )
    .await;
    assert_eq!(axe_violations(&a).await, json!([]), "the lobby, logged in");
    save_screenshot(&a, "online-lobby.png").await;
    // in French, the grid's words too; then back to English
    choose_lang(&a, "fr").await;
    wait_until(
        &a,
        "document.querySelector('#quick button[data-time=\"corr:3\"]').textContent === '3 jours'",
        "the grid in French",
    )
    .await;
    choose_lang(&a, "nl").await;
    wait_until(
        &a,
        "document.querySelector('#quick button[data-time=\"corr:3\"]').textContent === '3 dagen'",
        "the grid in Dutch",
    )
    .await;
    choose_lang(&a, "en").await;
    wait_until(
        &a,
        "document.querySelector('#quick button[data-time=\"corr:3\"]').textContent === '3 days'",
        "the grid in English",
    )
    .await;

    b.goto(&rig.url("/")).await.expect("the page loads");
    sign_up(&b, "bob").await;

    // a challenge by name: alice offers bob a casual game, bob declines it
    find(&a, "#seek-time")
        .await
        .select_by_value("corr:3")
        .await
        .expect("a time control");
    click(&a, "#seek-rated").await;
    type_into(&a, "#seek-opponent", "bob").await;
    click(&a, "#seek-send").await;
    wait_until(
        &b,
        "[...document.querySelectorAll('#challenges li')].some((li) => li.textContent.includes('alice challenges you (3 days)'))",
        "alice's challenge in bob's list",
    )
    .await;
    wait_until(
        &a,
        "[...document.querySelectorAll('#challenges li')].some((li) => li.textContent.includes('Your challenge to bob (3 days)'))",
        "alice's challenge in her own list",
    )
    .await;
    assert_eq!(
        js(
            &b,
            "return document.querySelectorAll('#seek-list li.seek').length"
        )
        .await,
        json!(0),
        "a challenge is not an open seek"
    );
    click(&b, "#challenges li.seek button:not(.primary)").await;
    wait_until(
        &a,
        "document.querySelector('#challenges li.empty')",
        "the challenge declined",
    )
    .await;

    // alice asks for 3+2; bob sees her seek and takes it through the same button.
    click(&a, "#quick button[data-time='3+2']").await;
    wait_until(
        &a,
        "document.querySelector('#quick-wait').textContent !== ''",
        "alice waiting",
    )
    .await;
    wait_until(
        &b,
        "[...document.querySelectorAll('#seek-list li')].some((li) => li.textContent.includes('alice'))",
        "alice's seek in bob's list",
    )
    .await;
    wait_until(
        &b,
        "document.querySelectorAll('#seek-graph circle').length === 1",
        "alice's seek in the graph",
    )
    .await;
    click(&b, "#quick button[data-time='3+2']").await;
    let id = game_id(&b).await;
    // alice's lobby moves to the game by itself; her session gets her seat.
    wait_until(
        &a,
        &format!("location.pathname === '/game/{id}'"),
        "alice taken to the game",
    )
    .await;
    wait_until(
        &a,
        &format!("!!JSON.parse(localStorage.getItem('emergo.seat.{id}'))"),
        "alice's seat",
    )
    .await;
    let seat_a = local_seat(&a, &id).await["seat"].clone();
    let seat_b = local_seat(&b, &id).await["seat"].clone();
    assert_ne!(seat_a, seat_b, "one seat each");
    let (white, black) = if seat_a == "white" {
        (&a, &b)
    } else {
        (&b, &a)
    };

    // the bars name the accounts, from each one's side
    let (white_name, black_name) = if seat_a == "white" {
        ("alice", "bob")
    } else {
        ("bob", "alice")
    };
    for (c, me, them) in [
        (white, white_name, black_name),
        (black, black_name, white_name),
    ] {
        wait_until(
            c,
            &format!(
                "document.querySelector('#bar-bottom .name')?.textContent === '{me}' \
                 && document.querySelector('#bar-top .name')?.textContent === '{them}' \
                 && document.querySelector('#bar-bottom .sub').textContent.includes('Blitz')"
            ),
            "the players' names in the bars",
        )
        .await;
    }

    // a real-time game: both pages show both clocks, White's running from the start
    for c in [white, black] {
        wait_until(
            c,
            "document.querySelector('[data-clock=white]')?.classList.contains('running') \
             && /^[23]:[0-5][0-9]$/.test(document.querySelector('[data-clock=white]').textContent) \
             && document.querySelector('[data-clock=black]')?.textContent === '3:00'",
            "the clocks of a 3+2 game",
        )
        .await;
    }

    // Five moves each (a rated game resigned sooner is aborted), then Black resigns: White
    // wins the rated blitz game.
    for ply in 0..10 {
        let (mover, other) = if ply % 2 == 0 {
            (white, black)
        } else {
            (black, white)
        };
        play_one_move_by_clicking(mover).await;
        wait_until(
            other,
            &format!(
                "Number(document.querySelector('#game').dataset.ply) === {}",
                ply + 1
            ),
            "the other side's move",
        )
        .await;
    }
    click(black, "#resign").await;
    click(black, "#resign").await; // confirm
    wait_until(
        white,
        "!document.querySelector('#result').hidden",
        "the result",
    )
    .await;

    let winner = if seat_a == "white" { "alice" } else { "bob" };
    white
        .goto(&rig.url(&format!("/player/{winner}")))
        .await
        .expect("the player page loads");
    wait_until(
        white,
        "(document.querySelector('#player-ratings li[data-category=blitz]') || {}).textContent?.includes('1662')",
        "the winner's blitz rating, 1662",
    )
    .await;
    wait_until(
        white,
        "document.querySelector('#rating-chart path.rating-line')?.getAttribute('d')?.startsWith('M')",
        "the rating history chart",
    )
    .await;
    assert_eq!(axe_violations(white).await, json!([]), "the player page");
    save_screenshot(white, "player.png").await;
    let loser = if seat_a == "white" { "bob" } else { "alice" };
    black
        .goto(&rig.url(&format!("/player/{winner}")))
        .await
        .expect("the player page loads");
    wait_until(
        black,
        "document.querySelectorAll('#player-games li a').length === 1 && document.querySelector('#player-games li a').textContent.includes('3+2')",
        "the winner's game",
    )
    .await;
    assert_eq!(
        js(
            black,
            "return document.querySelector('#account-settings').hidden"
        )
        .await,
        json!(true),
        "another player's page has no account forms"
    );

    // The winner changes the password, logs in with the new one, then deletes the account.
    wait_until(
        white,
        "!document.querySelector('#account-settings').hidden",
        "the account forms on one's own page",
    )
    .await;
    type_into(white, "#password-current", PASSWORD).await;
    type_into(white, "#password-new", "another password").await;
    click(white, "#password-submit").await;
    wait_until(
        white,
        "document.querySelector('#toast').dataset.kind === 'info' && !document.querySelector('#toast').hidden",
        "the password changed",
    )
    .await;
    log_out(white).await;
    enter(white, "#login-open", winner, "another password").await;
    click(white, "#delete-box summary").await;
    type_into(white, "#delete-password", "another password").await;
    click(white, "#delete-submit").await;
    wait_until(
        white,
        "location.pathname === '/' && !document.querySelector('#signup-open').hidden && !document.querySelector('#lobby').hidden",
        "logged out in the lobby after the deletion",
    )
    .await;
    white
        .goto(&rig.url(&format!("/player/{loser}")))
        .await
        .expect("the player page loads");
    let deleted = wait_until(
        white,
        "document.querySelector('#player-games li a')?.textContent",
        "the loser's game",
    )
    .await;
    assert!(
        deleted
            .as_str()
            .unwrap_or_default()
            .contains("deleted player"),
        "the game stays, against a deleted player: {deleted}"
    );
    white
        .goto(&rig.url("/player/nobody"))
        .await
        .expect("the player page loads");
    wait_until(
        white,
        "document.querySelector('#player-since').textContent === 'There is no player nobody.' \
         && document.querySelector('#player-body').hidden",
        "no such player",
    )
    .await;
    // Issue 24: a bot account's page marks its name BOT, where a person sees it.
    let robo = sign_up_over_http(&rig, "robo", PASSWORD).await;
    let (status, made) = send_as(
        &rig,
        reqwest::Method::POST,
        "/api/tokens",
        &robo.token,
        json!({"scopes": ["bot:play", "challenge:write"]}),
    )
    .await;
    assert_eq!(status, reqwest::StatusCode::CREATED, "{made}");
    let robo_token = made["token"].as_str().expect("a token").to_string();
    let upgraded = reqwest::Client::new()
        .post(rig.url("/api/bot/account/upgrade"))
        .bearer_auth(&robo_token)
        .send()
        .await
        .expect("the upgrade is sent");
    assert_eq!(upgraded.status(), reqwest::StatusCode::OK);
    white
        .goto(&rig.url("/player/robo"))
        .await
        .expect("the player page loads");
    wait_until(
        white,
        "(() => { const b = document.querySelector('#player-name .bot-badge'); \
           if (!b || b.textContent !== 'BOT') return false; \
           const r = b.getBoundingClientRect(); \
           return r.width > 0 && r.height > 0 && document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === b; })()",
        "the BOT mark beside the bot's name, drawn and uncovered",
    )
    .await;
    save_screenshot(white, "player-bot.png").await;
    white
        .goto(&rig.url("/leaderboard"))
        .await
        .expect("the leaderboard loads");
    wait_until(
        white,
        "!document.querySelector('#leaders-empty').hidden",
        "an empty leaderboard (nobody's RD is under 110 yet)",
    )
    .await;
    assert_eq!(axe_violations(white).await, json!([]), "the leaderboard");
    // The bot challenges the player still signed in: the lobby's challenge says BOT before the
    // bot's name, and the game's bar marks its seat BOT.
    let challenged = reqwest::Client::new()
        .post(rig.url(&format!("/api/challenge/{loser}")))
        .bearer_auth(&robo_token)
        .json(&json!({"time": "5+3", "color": "white"}))
        .send()
        .await
        .expect("the challenge is sent");
    assert_eq!(challenged.status(), reqwest::StatusCode::CREATED);
    black.goto(&rig.url("/")).await.expect("the lobby loads");
    // A seek that bots may take: the box says so, the seek carries allow_bots.
    wait_until(
        black,
        "!document.querySelector('#online-body').hidden && !!document.querySelector('#seek-bots')",
        "the seek form",
    )
    .await;
    click(black, "#seek-bots").await;
    click(black, "#seek-send").await;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let seeks: serde_json::Value = reqwest::get(rig.url("/api/seeks"))
            .await
            .expect("the seeks")
            .json()
            .await
            .expect("JSON");
        let open = seeks["seeks"].as_array().cloned().unwrap_or_default();
        if open
            .iter()
            .any(|s| s["owner"] == loser && s["allow_bots"] == true)
        {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "no seek for bots: {seeks}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    wait_until(
        black,
        "(() => { const w = [...document.querySelectorAll('#challenges li .who')] \
             .find((w) => w.textContent === 'BOT robo challenges you (5+3)'); \
           if (!w) return false; \
           const r = w.getBoundingClientRect(); \
           return r.width > 0 && r.height > 0 && w.contains(document.elementFromPoint(r.x + 4, r.y + r.height / 2)); })()",
        "the bot's challenge, marked BOT, drawn and uncovered",
    )
    .await;
    // A keyboard player focuses Accept; another player's seek arrives meanwhile (a lobby event
    // and a refresh): the unchanged challenge list keeps its button, and so the focus.
    js(
        black,
        "const b = document.querySelector('#challenges li .primary'); b.dataset.kept = 'yes'; b.focus();",
    )
    .await;
    let carol = sign_up_over_http(&rig, "carol", PASSWORD).await;
    let (status, seek) = send_as(
        &rig,
        reqwest::Method::POST,
        "/api/seeks",
        &carol.token,
        json!({"time": "10+5", "rated": false, "color": "random"}),
    )
    .await;
    assert_eq!(status, reqwest::StatusCode::CREATED, "{seek}");
    wait_until(
        black,
        "[...document.querySelectorAll('#seek-list li .who')].some((w) => w.textContent.startsWith('carol '))",
        "the other player's seek in the list",
    )
    .await;
    assert_eq!(
        js(black, "return document.activeElement?.dataset.kept ?? null").await,
        json!("yes"),
        "the focused Accept button was drawn again by a refresh that changed nothing it shows"
    );
    black
        .active_element()
        .await
        .expect("the focused button")
        .send_keys(&Key::Enter.to_string())
        .await
        .expect("Enter on Accept");
    wait_until(
        black,
        "location.pathname.startsWith('/game/') \
         && document.querySelector('#bar-top .name')?.textContent === 'robo' \
         && document.querySelector('#bar-top .sub')?.textContent.startsWith('BOT') \
         && document.querySelector('#bar-bottom .sub')?.textContent.startsWith('BOT') === false",
        "the game against the bot, its seat marked BOT",
    )
    .await;
    save_screenshot(black, "game-bot.png").await;
    assert_no_script_errors(&a).await;
    assert_no_script_errors(&b).await;
}
