//! Issue 23: two players join an arena on its page, are paired, play (White going berserk by
//! its button), and see the standings change; the page is drawn and nothing covers its
//! standings.

use crate::rig::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

const PASSWORD: &str = "password-of-test";

/// Five moves a side over HTTP (a resignation sooner aborts a game), then Black resigns.
async fn play_out(rig: &Rig, game: &str, white: &str, black: &str) {
    let view: Value = reqwest::get(rig.url(&format!("/api/games/{game}")))
        .await
        .expect("the game")
        .json()
        .await
        .expect("JSON");
    let mut view = view;
    let moves = format!("/api/games/{game}/moves");
    for ply in 0..10 {
        let who = if ply % 2 == 0 { white } else { black };
        let mv = view["legal_moves"][0].as_str().expect("a move").to_string();
        let (status, next) = send_as(
            rig,
            Method::POST,
            &moves,
            who,
            json!({"ply": ply, "move": mv}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        view = next;
    }
    let resign = format!("/api/games/{game}/resign");
    let (status, view) = send_as(rig, Method::POST, &resign, black, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_join_an_arena_on_its_page_are_paired_play_and_see_the_standings_change() {
    let mut rig = Rig::start().await;
    let organiser = sign_up_over_http(&rig, "organiser", PASSWORD).await;
    let (status, t) = send_as(
        &rig,
        Method::POST,
        "/api/tournaments",
        &organiser.token,
        json!({"name": "Evening arena", "format": "arena", "time": "3+2", "minutes": 30}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().expect("id").to_string();
    let anna = sign_up_over_http(&rig, "anna", PASSWORD).await;
    let bert = sign_up_over_http(&rig, "bert", PASSWORD).await;
    let a = rig.browser(1100, 800).await;
    let b = rig.browser(1100, 800).await;
    let page = format!("/tournament/{id}");
    // A signed-in player creates one on the list's page: a Swiss of 3 rounds.
    log_in(&a, &rig, &anna.token, "/tournaments").await;
    wait_until(
        &a,
        "!document.querySelector('#tournament-new').hidden",
        "the creation form for a signed-in player",
    )
    .await;
    click(&a, "#tournament-new summary").await;
    js(
        &a,
        "document.querySelector('#tn-name').value = 'Club swiss'; \
         const f = document.querySelector('#tn-format'); f.value = 'swiss'; \
         f.dispatchEvent(new Event('change')); \
         document.querySelector('#tn-rounds').value = '3';",
    )
    .await;
    wait_until(
        &a,
        "!document.querySelector('#tn-rounds-field').hidden && document.querySelector('#tn-minutes-field').hidden",
        "the Swiss's fields",
    )
    .await;
    assert_eq!(axe_violations(&a).await, json!([]), "the creation form");
    save_screenshot(&a, "tournament-form.png").await;
    click(&a, "#tn-send").await;
    wait_until(
        &a,
        "location.pathname.startsWith('/tournament/') \
         && document.querySelector('#tournament-name').textContent === 'Club swiss' \
         && document.querySelector('#tournament-status').textContent.includes('round 0 of 3')",
        "the new Swiss's page",
    )
    .await;
    a.goto(&rig.url("/tournaments")).await.expect("the list");
    // The list links to the organiser's arena.
    wait_until(
        &a,
        &format!("!!document.querySelector('#tournaments-upcoming a[href=\"{page}\"]')"),
        "the tournament in the list",
    )
    .await;
    click(&a, &format!("#tournaments-upcoming a[href=\"{page}\"]")).await;
    log_in(&b, &rig, &bert.token, &page).await;
    for c in [&a, &b] {
        wait_until(
            c,
            "!document.querySelector('#tournament-join').hidden",
            "the Join button",
        )
        .await;
        click(c, "#tournament-join").await;
    }
    wait_until(
        &a,
        "document.querySelectorAll('#standings tbody tr').length === 2",
        "both players in the standings",
    )
    .await;
    // The countdown to the start (five minutes by default).
    wait_until(
        &a,
        "/^Starts in [45]:\\d\\d$/.test(document.querySelector('#tournament-clock').textContent) \
         && !document.querySelector('#tournament-clock').hidden",
        "the countdown to the start",
    )
    .await;
    let (status, started) = send_as(
        &rig,
        Method::POST,
        &format!("/api/tournaments/{id}/start"),
        &organiser.token,
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{started}");
    // Paired: both players are taken from the tournament's page to their game.
    let t: Value = loop {
        let t: Value = reqwest::get(rig.url(&format!("/api/tournaments/{id}")))
            .await
            .expect("the tournament")
            .json()
            .await
            .expect("JSON");
        if t["games"].as_array().is_some_and(|g| !g.is_empty()) {
            break t;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let game = &t["games"][0];
    let first = game["id"].as_str().expect("id").to_string();
    for c in [&a, &b] {
        wait_until(
            c,
            &format!("location.pathname === '/game/{first}' && !!document.querySelector('#board svg, svg#board, #board')"),
            "taken to the first game",
        )
        .await;
    }
    let token_of = |name: &Value| {
        if name == "anna" {
            anna.token.clone()
        } else {
            bert.token.clone()
        }
    };
    // White goes berserk on the game page: the button is drawn and uncovered, and once clicked
    // it is gone, White's clock is halved and White's bar says so; both see the way back.
    let white_page = if game["white"] == "anna" { &a } else { &b };
    let uncovered = "(() => { const e = document.querySelector('#berserk'); if (!e || e.hidden) return false; \
        const r = e.getBoundingClientRect(); \
        return r.width > 0 && e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); })()";
    wait_until(
        white_page,
        uncovered,
        "the Berserk button, drawn and uncovered",
    )
    .await;
    for c in [&a, &b] {
        wait_until(
            c,
            &format!("!document.querySelector('#to-tournament').hidden && document.querySelector('#to-tournament').getAttribute('href') === '{page}'"),
            "the link back to the tournament",
        )
        .await;
    }
    click(white_page, "#berserk").await;
    wait_until(
        white_page,
        "document.querySelector('#berserk').hidden \
         && document.querySelector('#bar-bottom').textContent.includes('berserk')",
        "berserk: the button gone, White's bar marked",
    )
    .await;
    save_screenshot(white_page, "tournament-berserk.png").await;
    let (white, black) = (token_of(&game["white"]), token_of(&game["black"]));
    let winner = game["white"].as_str().expect("white").to_string();
    play_out(&rig, &first, &white, &black).await;
    // The arena pairs them again at once: from the finished game, each is taken to the next.
    for c in [&a, &b] {
        wait_until(
            c,
            &format!(
                "location.pathname.startsWith('/game/') && location.pathname !== '/game/{first}'"
            ),
            "taken to the next game",
        )
        .await;
    }
    for c in [&a, &b] {
        c.goto(&rig.url(&page)).await.expect("the tournament page");
    }
    // The standings change on both pages: the winner first with 2 points, drawn and uncovered.
    let check = format!(
        "(() => {{ const row = document.querySelector('#standings tbody tr'); \
           if (!row || row.dataset.name !== '{winner}' || row.querySelector('td.score').textContent !== '2') return false; \
           const r = row.getBoundingClientRect(); \
           return r.width > 0 && r.height > 0 && row.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }})()"
    );
    for c in [&a, &b] {
        wait_until(
            c,
            &check,
            "the winner's 2 points at the top of the standings",
        )
        .await;
    }
    // Under way: the countdown to the arena's end (30 minutes), and the page follows the
    // tournament over its socket.
    wait_until(
        &a,
        "/^Ends in (29|30):\\d\\d$/.test(document.querySelector('#tournament-clock').textContent)",
        "the countdown to the end",
    )
    .await;
    // Anna pauses: her line says so and Resume replaces Pause; she resumes.
    click(&a, "#tournament-pause").await;
    wait_until(
        &a,
        "!document.querySelector('#tournament-resume').hidden \
         && document.querySelector('#tournament-pause').hidden \
         && document.querySelector('#standings tr[data-name=\"anna\"]').textContent.includes('paused')",
        "Anna paused",
    )
    .await;
    assert_eq!(axe_violations(&a).await, json!([]), "the tournament page");
    save_screenshot(&a, "tournament.png").await;
    click(&a, "#tournament-resume").await;
    wait_until(
        &a,
        "!document.querySelector('#tournament-pause').hidden \
         && !document.querySelector('#standings tr[data-name=\"anna\"]').textContent.includes('paused')",
        "Anna back",
    )
    .await;
    // Bert's games: his count in the standings opens them; All games goes back.
    // (clicked in the page: the standings are drawn again at each message of the socket, so a
    // button found first may be gone when the click comes)
    js(
        &a,
        "document.querySelector('#standings tr[data-name=\"bert\"] button.games-of').click()",
    )
    .await;
    wait_until(
        &a,
        "document.querySelector('#tournament-games-title').textContent === 'Games of bert' \
         && !document.querySelector('#tournament-all-games').hidden \
         && document.querySelectorAll('#tournament-games li').length >= 2 \
         && [...document.querySelectorAll('#tournament-games li')].every((li) => li.textContent.includes('bert'))",
        "Bert's games",
    )
    .await;
    click(&a, "#tournament-all-games").await;
    wait_until(
        &a,
        "document.querySelector('#tournament-games-title').textContent === 'Games' \
         && document.querySelector('#tournament-all-games').hidden",
        "all games again",
    )
    .await;
    assert_no_script_errors(&a).await;
    assert_no_script_errors(&b).await;
}
