//! What lichess players expect (issue 18), in a real browser: ratings in the game's player bars
//! (a "?" while provisional, the change live at the end), the spectators' count, the Challenge
//! dialog and the statistics of a player page, the seeks graph's dots, the watch page; in
//! English and French (the watch page in Dutch too), the game page also on a phone. What a
//! person sees: rectangles, what is on top at a point, computed styles.

use crate::rig::*;
use fantoccini::key::Key;
use fantoccini::Client;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;

/// An account made over HTTP: its session token.
async fn account(rig: &Rig, name: &str) -> String {
    sign_up_over_http(rig, name, "password-of-test").await.token
}

async fn post(rig: &Rig, path: &str, session: &str, body: Value) -> (reqwest::StatusCode, Value) {
    send_as(rig, reqwest::Method::POST, path, session, body).await
}

/// A game from `white`'s seek of `time` (White), accepted by `black`: its id.
async fn paired(rig: &Rig, white: &str, black: &str, time: &str, rated: bool) -> String {
    let (status, seek) = post(
        rig,
        "/api/seeks",
        white,
        json!({"time": time, "rated": rated, "color": "white"}),
    )
    .await;
    assert_eq!(status, reqwest::StatusCode::CREATED, "{seek}");
    let seek = seek["id"].as_str().expect("an id");
    let (status, grant) = post(rig, &format!("/api/seeks/{seek}/accept"), black, json!({})).await;
    assert_eq!(status, reqwest::StatusCode::CREATED, "{grant}");
    grant["game"]["id"].as_str().expect("an id").to_string()
}

/// Ten plies of game `id` (White `white`), the first legal move each time: five moves each, as
/// a rated game needs before a resignation counts.
async fn ten_plies(rig: &Rig, id: &str, white: &str, black: &str) {
    let path = format!("/api/games/{id}/moves");
    let (_, mut view) = post(rig, &path, white, json!({"ply": 0, "move": "d3"})).await;
    for ply in 1..10 {
        let who = if ply % 2 == 0 { white } else { black };
        let mv = view["legal_moves"][0]
            .as_str()
            .expect("a legal move")
            .to_string();
        let (status, next) = post(rig, &path, who, json!({"ply": ply, "move": mv})).await;
        assert_eq!(status, reqwest::StatusCode::OK, "{next}");
        view = next;
    }
}

/// A rated 3+2 game `white` won (`black` resigned after five moves each): its id.
async fn rated_win(rig: &Rig, white: &str, black: &str) -> String {
    let id = paired(rig, white, black, "3+2", true).await;
    ten_plies(rig, &id, white, black).await;
    let (status, _) = post(rig, &format!("/api/games/{id}/resign"), black, json!({})).await;
    assert_eq!(status, reqwest::StatusCode::OK);
    id
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

/// Fails unless each of `css` is shown whole and nothing covers it.
async fn assert_seen(c: &Client, screen: &str, css: &[&str]) {
    for sel in css {
        assert_eq!(seen_whole(c, sel).await, json!(true), "{screen}: {sel}");
    }
}

/// Fails when two of the bar's parts overlap (name and rating, clock, men in hand), or the
/// name is not shown whole.
async fn assert_bar_parts_apart(c: &Client, bar: &str, screen: &str) {
    let name = js(
        c,
        &format!(
            "const n = document.querySelector('{bar} .name'), r = n.getBoundingClientRect();
             return {{ text: n.textContent, width: r.width, cut: n.scrollWidth > n.clientWidth + 1 }}"
        ),
    )
    .await;
    assert!(
        name["width"].as_f64().unwrap_or(0.0) >= 20.0 && name["cut"] == json!(false),
        "{screen}: {bar}'s name is not shown whole: {name}"
    );
    let parts = [".name-row", ".clock", ".hand", ".turn-flag"];
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            let (ra, rb) = (
                rect(c, &format!("{bar} {a}")).await,
                rect(c, &format!("{bar} {b}")).await,
            );
            if ra.is_null() || rb.is_null() {
                continue;
            }
            assert!(
                !overlap(&ra, &rb),
                "{screen}: {bar} {a} {ra} covers {b} {rb}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_bars_show_ratings_with_a_provisional_mark_the_change_comes_live_and_spectators_count()
{
    let mut rig = Rig::start().await;
    let alice = account(&rig, "alice").await;
    let bob = account(&rig, "bob").await;
    let id = paired(&rig, &alice, &bob, "3+2", true).await;
    ten_plies(&rig, &id, &alice, &bob).await;

    let c = rig.browser(1100, 860).await;
    log_in(&c, &rig, &alice, &format!("/game/{id}")).await;
    // alice (White) at the bottom: both ratings, "1500?", with words that say what "?" means.
    let v = wait_until(
        &c,
        "(() => { const v = [...document.querySelectorAll('#bar-bottom .rating-value, #bar-top .rating-value')].map((e) => e.textContent); return v.length === 2 && v; })()",
        "the ratings in the bars",
    )
    .await;
    assert_eq!(v, json!(["1500?", "1500?"]));
    let title = js(
        &c,
        "return document.querySelector('#bar-top .rating').title",
    )
    .await;
    assert!(
        title
            .as_str()
            .is_some_and(|t| t.starts_with("Provisional rating (± 350)")),
        "{title}"
    );
    // Shown beside the name, in the muted ink, on one line with it.
    let style = js(
        &c,
        "const r = document.querySelector('#bar-bottom .rating'), n = document.querySelector('#bar-bottom .name');
         const a = r.getBoundingClientRect(), b = n.getBoundingClientRect();
         return { sameLine: Math.abs(a.bottom - b.bottom) < 6, right: a.left >= b.right - 1, size: parseFloat(getComputedStyle(r).fontSize) }",
    )
    .await;
    assert_eq!(style["sameLine"], true, "{style}");
    assert_eq!(style["right"], true, "{style}");
    assert!(style["size"].as_f64().unwrap_or(0.0) >= 12.0, "{style}");
    for bar in ["#bar-top", "#bar-bottom"] {
        assert_bar_parts_apart(&c, bar, "desktop").await;
    }

    // A spectator (not signed in) comes: "1 spectator", under the result, covering nothing.
    let url = format!(
        "ws://{}/api/games/{id}/ws",
        rig.url("").trim_start_matches("http://")
    );
    let (mut spectator, _) = tokio_tungstenite::connect_async(url).await.expect("opens");
    let spectator_reads =
        tokio::spawn(async move { while let Some(Ok(_)) = spectator.next().await {} });
    wait_until(
        &c,
        "document.querySelector('#watchers').textContent === '1 spectator' && !document.querySelector('#watchers').hidden",
        "the spectators' count",
    )
    .await;
    let (watchers, status) = (rect(&c, "#watchers").await, rect(&c, "#status").await);
    assert!(
        !overlap(&watchers, &status),
        "{watchers} covers the status {status}"
    );

    // bob resigns: the change comes beside each name without a reload.
    let (status, _) = post(&rig, &format!("/api/games/{id}/resign"), &bob, json!({})).await;
    assert_eq!(status, reqwest::StatusCode::OK);
    let changes = wait_until(
        &c,
        "(() => { const t = ['#bar-bottom', '#bar-top'].map((b) => document.querySelector(b + ' .rating-change')); return t.every(Boolean) && t.map((e) => e.textContent); })()",
        "the rating changes",
    )
    .await;
    assert_eq!(changes, json!(["+162", "−162"]));
    let colours = js(
        &c,
        "return ['.up', '.down'].map((k) => getComputedStyle(document.querySelector('.rating-change' + k)).color)",
    )
    .await;
    assert_ne!(colours[0], colours[1], "a gain and a loss look different");
    // Nothing covers the clocks, the status or the changes (the toast of the end aside: closed).
    js(
        &c,
        "document.querySelector('#toast').hidden = true; return true",
    )
    .await;
    assert_seen(
        &c,
        "desktop, the game over",
        &[
            "#status",
            "#bar-top .clock",
            "#bar-bottom .clock",
            "#bar-top .rating-change",
            "#bar-bottom .rating-change",
            "#watchers",
        ],
    )
    .await;
    // Issue 18 item 12: the finished game, opened again, asks for its review (there is none),
    // and nothing answers an error.
    c.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the page loads");
    wait_until(
        &c,
        "document.querySelectorAll('.player .rating-change').length === 2",
        "the changes after a reload",
    )
    .await;
    wait_until(
        &c,
        "performance.getEntriesByType('resource').some((e) => e.name.endsWith('/review'))",
        "the review asked for",
    )
    .await;
    assert_eq!(
        failed_requests(&c).await,
        json!([]),
        "the finished game's page"
    );
    assert_no_script_errors(&c).await;
    assert_eq!(
        axe_violations(&c).await,
        json!([]),
        "the game page with ratings"
    );

    // In French.
    choose_lang(&c, "fr").await;
    wait_until(
        &c,
        "document.querySelector('#watchers').textContent === '1 spectateur'",
        "the count in French",
    )
    .await;
    let title = js(
        &c,
        "return document.querySelector('#bar-top .rating').title",
    )
    .await;
    assert!(
        title
            .as_str()
            .is_some_and(|t| t.contains("Classement provisoire") && t.contains("−162")),
        "{title}"
    );
    assert_seen(
        &c,
        "French",
        &["#bar-top .rating-change", "#bar-bottom .clock"],
    )
    .await;
    save_screenshot(&c, "game-ratings-fr.png").await;
    c.close().await.expect("the browser closes");

    // On a phone, bob's side: the bars keep name, rating, change, clock and men apart, in view.
    let p = rig.phone(390, 844).await;
    log_in(&p, &rig, &bob, &format!("/game/{id}")).await;
    wait_until(
        &p,
        "document.querySelectorAll('.player .rating-change').length === 2",
        "the changes on a phone",
    )
    .await;
    let changes = js(
        &p,
        "return ['#bar-bottom', '#bar-top'].map((b) => document.querySelector(b + ' .rating-change').textContent)",
    )
    .await;
    assert_eq!(changes, json!(["−162", "+162"]), "bob at the bottom");
    js(
        &p,
        "document.querySelector('#toast').hidden = true; return true",
    )
    .await;
    for bar in ["#bar-top", "#bar-bottom"] {
        assert_bar_parts_apart(&p, bar, "phone").await;
        assert_seen(
            &p,
            "phone",
            &[
                &format!("{bar} .rating"),
                &format!("{bar} .clock"),
                &format!("{bar} .hand"),
            ],
        )
        .await;
    }
    assert_seen(&p, "phone", &["#status"]).await;
    js(&p, "window.scrollTo(0, 0); return true").await;
    assert_board_drawn(&p, "#board", "the game page on a phone").await;
    save_screenshot(&p, "game-ratings-phone.png").await;
    assert_eq!(
        failed_requests(&p).await,
        json!([]),
        "the phone's game page"
    );
    assert_no_script_errors(&p).await;
    p.close().await.expect("the browser closes");
    spectator_reads.abort();
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_page_shows_statistics_and_challenges_through_a_dialog_and_the_seeks_graph_accepts(
) {
    // The rate of making seeks lets the eleventh through at once, so that what refuses it is
    // the cap of ten open ones (the rate's own refusal is the server tests').
    let mut rig = Rig::start_with(|config| config.limits.seeks_burst = 11).await;
    let alice = account(&rig, "alice").await;
    let bob = account(&rig, "bob").await;
    let won = rated_win(&rig, &alice, &bob).await;
    let playing = paired(&rig, &alice, &bob, "10+5", false).await;

    let c = rig.browser(1100, 860).await;
    log_in(&c, &rig, &bob, "/player/alice").await;
    // alice's statistics: one blitz game won, best 1662 (provisional), performance 1900.
    let row = wait_until(
        &c,
        "(() => { const r = document.querySelector('#player-stats tr[data-category=blitz]'); return r && [...r.children].map((e) => e.textContent); })()",
        "the statistics",
    )
    .await;
    assert_eq!(row[0], "Blitz", "{row}");
    assert_eq!(
        &row.as_array().expect("cells")[1..5],
        &[json!("1"), json!("1"), json!("0"), json!("0")],
        "{row}"
    );
    assert!(
        row[5].as_str().is_some_and(|t| t.starts_with("1662?")),
        "{row}"
    );
    assert_eq!(row[6], "1900", "{row}");
    assert!(!won.is_empty());
    // The game she plays now, as a link to it.
    let link = wait_until(
        &c,
        "(() => { const a = document.querySelector('#player-playing a'); return a && a.getAttribute('href'); })()",
        "the game played now",
    )
    .await;
    assert_eq!(link, json!(format!("/game/{playing}")));
    assert_seen(
        &c,
        "player page",
        &[
            "#player-stats table",
            "#player-playing a",
            "#challenge-open",
        ],
    )
    .await;
    save_screenshot(&c, "player-stats.png").await;

    // The Challenge dialog: time, colour, rated; sent, the lobby shows it.
    click(&c, "#challenge-open").await;
    wait_until(
        &c,
        "document.querySelector('#challenge-dialog').open",
        "the dialog",
    )
    .await;
    assert_seen(
        &c,
        "the dialog",
        &["#challenge-time", "#challenge-send", "#challenge-rated"],
    )
    .await;
    save_screenshot(&c, "challenge-dialog.png").await;
    assert_eq!(
        axe_violations(&c).await,
        json!([]),
        "the player page, the dialog open"
    );
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#challenge-to').textContent"
        )
        .await,
        json!("To alice")
    );
    find(&c, "#challenge-time")
        .await
        .select_by_value("10+5")
        .await
        .expect("a time chosen");
    click(&c, "#challenge-form input[name=color][value=black]").await;
    click(&c, "#challenge-send").await;
    wait_until(
        &c,
        "location.pathname === '/' && [...document.querySelectorAll('#challenges li')].some((li) => li.textContent.includes('alice'))",
        "the challenge in the lobby",
    )
    .await;
    let seeks: Value = reqwest::Client::new()
        .get(rig.url("/api/seeks"))
        .header("cookie", format!("emergo_session={bob}"))
        .send()
        .await
        .expect("sent")
        .json()
        .await
        .expect("JSON");
    let challenge = &seeks["challenges"][0];
    assert_eq!(
        (
            &challenge["opponent"],
            &challenge["time"],
            &challenge["color"],
            &challenge["rated"]
        ),
        (
            &json!("alice"),
            &json!("10+5"),
            &json!("black"),
            &json!(true)
        ),
        "{seeks}"
    );

    // Nine more make ten, the most one may have; the next is refused in words that say so.
    for _ in 0..9 {
        let (status, answer) = post(
            &rig,
            "/api/seeks",
            &bob,
            json!({"time": "5+3", "opponent": "alice"}),
        )
        .await;
        assert_eq!(status, reqwest::StatusCode::CREATED, "{answer}");
    }
    c.goto(&rig.url("/player/alice"))
        .await
        .expect("the page loads");
    click(&c, "#challenge-open").await;
    click(&c, "#challenge-send").await;
    let said = wait_until(
        &c,
        "!document.querySelector('#challenge-error').hidden && document.querySelector('#challenge-error').textContent",
        "the refusal",
    )
    .await;
    assert_eq!(
        said,
        json!("You have 10 open challenges already, the most you may have: withdraw one in the lobby first.")
    );
    assert_seen(&c, "the refusal", &["#challenge-error"]).await;
    click(&c, "#challenge-cancel").await;

    // In French; and on one's own page no Challenge button.
    choose_lang(&c, "fr").await;
    wait_until(
        &c,
        "document.querySelector('#challenge-open').textContent === 'Défier' && document.querySelector('#player-stats caption').textContent === 'Résultats'",
        "the page in French",
    )
    .await;
    c.goto(&rig.url("/player/bob"))
        .await
        .expect("the page loads");
    find(&c, "#player-name").await;
    wait_until(&c, "document.querySelector('#player-name').textContent === 'bob' && document.querySelector('#player-stats table')", "bob's page").await;
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#challenge-open').hidden"
        )
        .await,
        json!(true)
    );

    // The seeks graph: alice's seek is a dot bob reaches with the keyboard and takes with Enter.
    let (status, _) = post(
        &rig,
        "/api/seeks",
        &alice,
        json!({"time": "5+0", "rated": false}),
    )
    .await;
    assert_eq!(status, reqwest::StatusCode::CREATED);
    c.goto(&rig.url("/")).await.expect("the lobby");
    let dot = "#seek-graph circle.acceptable[tabindex='0'][role=button]";
    find(&c, dot).await;
    assert_eq!(
        axe_violations(&c).await,
        json!([]),
        "the lobby, the graph's dots buttons"
    );
    let label = js(
        &c,
        &format!("return document.querySelector(\"{dot}\").getAttribute('aria-label')"),
    )
    .await;
    assert!(
        label
            .as_str()
            .is_some_and(|l| l.starts_with("Accepter : alice")),
        "{label}"
    );
    let reached = js(
        &c,
        &format!("const d = document.querySelector(\"{dot}\"); d.focus(); return document.activeElement === d"),
    )
    .await;
    assert_eq!(reached, json!(true), "the dot takes the keyboard's focus");
    find(&c, dot)
        .await
        .send_keys(&Key::Enter.to_string())
        .await
        .expect("Enter");
    let id = game_id(&c).await;
    assert_ne!(id, playing);
    find(&c, "#game:not([hidden]) #board").await;
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watch_page_lists_games_being_played_highest_rated_first_live_and_opens_one() {
    let mut rig = Rig::start().await;
    let alice = account(&rig, "alice").await;
    let bob = account(&rig, "bob").await;
    let carol = account(&rig, "carol").await;
    let dave = account(&rig, "dave").await;
    rated_win(&rig, &alice, &bob).await;
    // Wait for the settlement: alice 1662.
    for _ in 0..100 {
        let page: Value = reqwest::get(rig.url("/api/players/alice"))
            .await
            .expect("sent")
            .json()
            .await
            .expect("JSON");
        if page["ratings"]["blitz"]["games"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let low = paired(&rig, &carol, &dave, "3+2", true).await;
    let high = paired(&rig, &alice, &carol, "3+2", true).await;

    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/")).await.expect("the page loads");
    // The leaderboard, still empty, says when a player appears.
    click(&c, "#leaderboard-link").await;
    let words = wait_until(
        &c,
        "!document.querySelector('#leaders-empty').hidden && document.querySelector('#leaders-empty').textContent",
        "the empty leaderboard's words",
    )
    .await;
    // The lobby's Play online card links to the watch page.
    c.goto(&rig.url("/")).await.expect("the lobby");
    assert!(
        words
            .as_str()
            .is_some_and(|w| w.contains("after about 10 rated games") && !w.contains("110")),
        "{words}"
    );
    click(&c, "#watch-link").await;
    let order = wait_until(
        &c,
        "(() => { const v = [...document.querySelectorAll('#watch-list li[data-game]')].map((li) => li.dataset.game); return location.pathname === '/watch' && v.length === 2 && v; })()",
        "the games being played",
    )
    .await;
    assert_eq!(order, json!([high, low]));
    let first = js(
        &c,
        "return document.querySelector('#watch-list li a').textContent",
    )
    .await;
    assert!(
        first
            .as_str()
            .is_some_and(|t| t.starts_with("alice (1662?) – carol (1500?)")),
        "{first}"
    );
    assert_seen(&c, "the watch page", &["#watch-list li a"]).await;
    save_screenshot(&c, "watch.png").await;
    assert_eq!(axe_violations(&c).await, json!([]), "the watch page");
    // Live: a new game comes within the page's refresh (10 s: another test's browser may work
    // meanwhile).
    let eve = account(&rig, "eve").await;
    let third = paired(&rig, &eve, &carol, "5+0", false).await;
    rig.aside(wait_until(
        &c,
        &format!("!!document.querySelector('#watch-list li[data-game=\"{third}\"]')"),
        "the new game listed",
    ))
    .await;
    // In French and in Dutch.
    choose_lang(&c, "fr").await;
    wait_until(&c, "document.querySelector('#watch h2').textContent === 'Parties en cours' && document.querySelector('#watch-link').textContent === 'Regarder les parties en cours'", "French").await;
    choose_lang(&c, "nl").await;
    wait_until(&c, "document.querySelector('#watch h2').textContent === 'Partijen die nu gespeeld worden' && document.querySelector('#watch-link').textContent === 'Bekijk de partijen die nu gespeeld worden'", "Dutch").await;
    choose_lang(&c, "fr").await;
    click(&c, "#leaderboard-link").await;
    let words = wait_until(
        &c,
        "!document.querySelector('#leaders-empty').hidden && document.querySelector('#leaders-empty').textContent",
        "the empty leaderboard's words in French",
    )
    .await;
    assert!(
        words
            .as_str()
            .is_some_and(|w| w.contains("après environ 10 parties classées")),
        "{words}"
    );
    // A game of the list opens as a spectator's page.
    c.goto(&rig.url("/watch")).await.expect("the watch page");
    click(&c, &format!("#watch-list li[data-game=\"{high}\"] a")).await;
    assert_eq!(game_id(&c).await, high);
    wait_until(
        &c,
        "document.querySelectorAll('.player .rating').length === 2",
        "the ratings",
    )
    .await;
    assert_board_drawn(&c, "#board", "a watched game").await;
    assert_eq!(failed_requests(&c).await, json!([]));
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}
