//! Notifications in a real browser (issue 18): the header's bell counts what came live on any
//! screen, its list opens on a click or the keyboard and leads to the game, entries are read,
//! in English and French; the browser's notifications are asked for only on a click and never
//! shown for the game the visible tab is on; on a phone the bell and the open list cover neither
//! the status nor the board. And issue 18 item 12's leftovers: another's game and leaving the
//! lobby log nothing in the console.

use crate::rig::*;
use fantoccini::Client;
use serde_json::{json, Value};

const PASSWORD: &str = "a password of test";

async fn api(rig: &Rig, method: reqwest::Method, path: &str, who: &Account, body: Value) -> Value {
    let (status, value) = send_as(rig, method, path, &who.token, body).await;
    assert!(status.is_success(), "{path}: {status} {value}");
    value
}

async fn post(rig: &Rig, path: &str, who: &Account, body: Value) -> Value {
    api(rig, reqwest::Method::POST, path, who, body).await
}

async fn sign_up(rig: &Rig, name: &str) -> Account {
    sign_up_over_http(rig, name, PASSWORD).await
}

/// Opens `path` in `c` logged in as `who` (logged in by the page's own request, so that the
/// browser holds the session's cookie).
async fn open_as(c: &Client, rig: &Rig, who: &Account, path: &str) {
    c.goto(&rig.url("/")).await.expect("the site opens");
    let status = js(
        c,
        &format!(
            "const x = new XMLHttpRequest(); x.open('POST', '/api/session', false);
             x.setRequestHeader('content-type', 'application/json');
             x.send(JSON.stringify({{name: '{}', password: '{PASSWORD}'}})); return x.status",
            who.name
        ),
    )
    .await;
    assert_eq!(status, 200, "logged in");
    c.goto(&rig.url(path)).await.expect("the page loads");
    wait_until(
        c,
        &format!(
            "document.querySelector('#me-link').textContent === '{}' && !document.querySelector('#notes').hidden",
            who.name
        ),
        "logged in, the bell shown",
    )
    .await;
}

/// A correspondence game from `white`'s challenge to `black`, accepted: its id.
async fn corr_game(rig: &Rig, white: &Account, black: &Account) -> String {
    let seek = post(
        rig,
        "/api/seeks",
        white,
        json!({"time": "corr:2", "color": "white", "opponent": black.name}),
    )
    .await;
    let seek = seek["id"].as_str().expect("a seek id");
    let grant = post(rig, &format!("/api/seeks/{seek}/accept"), black, json!({})).await;
    grant["game"]["id"].as_str().expect("a game id").to_string()
}

async fn play_first(rig: &Rig, id: &str, who: &Account) {
    let game = reqwest::Client::new()
        .get(rig.url(&format!("/api/games/{id}")))
        .send()
        .await
        .expect("sent")
        .json::<Value>()
        .await
        .expect("a game");
    let ply = game["ply"].as_i64().expect("a ply");
    let mv = game["legal_moves"][0]
        .as_str()
        .expect("a legal move")
        .to_string();
    post(
        rig,
        &format!("/api/games/{id}/moves"),
        who,
        json!({"ply": ply, "move": mv}),
    )
    .await;
}

/// What the bell shows: the count's text when shown (else null).
async fn count_shown(c: &Client) -> Value {
    js(
        c,
        "const n = document.querySelector('#notes-count'); return n.hidden || !n.getClientRects().length ? null : n.textContent",
    )
    .await
}

/// The list's entries: `[text, href, unread]` each.
async fn entries(c: &Client) -> Value {
    js(
        c,
        "return [...document.querySelectorAll('#notes-list li:not(.empty)')].map((li) => [li.querySelector('.note-text').textContent, li.querySelector('a').getAttribute('href'), li.classList.contains('unread')])",
    )
    .await
}

/// Replaces the browser's notifications by a recorder that has permission: what the page
/// shows goes to `window.shown`.
async fn record_browser_notifications(c: &Client) {
    js(
        c,
        "window.shown = [];
         window.Notification = class { constructor(title, o) { window.shown.push(o.body); } close() {} };
         window.Notification.permission = 'granted';
         window.Notification.requestPermission = async () => 'granted';",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_come_live_to_the_header_on_any_screen_in_english_and_french() {
    let mut rig = Rig::start().await;
    let alice = sign_up(&rig, "alice").await;
    let bob = sign_up(&rig, "bob").await;
    let c = rig.browser(1100, 860).await;
    open_as(&c, &rig, &bob, "/leaderboard").await;
    assert_eq!(count_shown(&c).await, Value::Null, "nothing yet");
    // The page never asks for the browser's notifications by itself.
    assert_eq!(js(&c, "return Notification.permission").await, "default");

    // A challenge comes while bob reads the leaderboard.
    let id = corr_game(&rig, &alice, &bob).await;
    wait_until(
        &c,
        "document.querySelector('#notes-count').textContent === '1' && !document.querySelector('#notes-count').hidden",
        "the challenge counted",
    )
    .await;
    let (bell, head) = (rect(&c, "#notes-open").await, rect(&c, ".topbar").await);
    assert!(
        bell["top"].as_f64() >= head["top"].as_f64()
            && bell["bottom"].as_f64() <= head["bottom"].as_f64(),
        "the bell is in the header: {bell} {head}"
    );
    assert_eq!(
        js(
            &c,
            "return getComputedStyle(document.querySelector('#notes-count')).backgroundColor"
        )
        .await,
        "rgb(192, 57, 43)",
        "the count stands out"
    );
    play_first(&rig, &id, &alice).await;
    wait_until(
        &c,
        "document.querySelector('#notes-count').textContent === '2'",
        "the move counted",
    )
    .await;

    // The keyboard opens the list; Escape closes it.
    find(&c, "#notes-open")
        .await
        .send_keys("\u{e007}")
        .await
        .expect("Enter");
    wait_until(
        &c,
        "!document.querySelector('#notes-panel').hidden",
        "the list open",
    )
    .await;
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#notes-open').getAttribute('aria-expanded')"
        )
        .await,
        "true"
    );
    let list = entries(&c).await;
    assert_eq!(
        list,
        json!([
            ["alice moved: your turn", format!("/game/{id}"), true],
            ["alice challenges you (2 days)", "/", true]
        ])
    );
    assert_eq!(axe_violations(&c).await, json!([]), "the list open");
    save_screenshot(&c, "notifications.png").await;
    let (panel, head) = (rect(&c, "#notes-panel").await, rect(&c, ".topbar").await);
    assert!(
        panel["top"].as_f64() >= head["bottom"].as_f64(),
        "the list is under the header, in the page: {panel} {head}"
    );
    find(&c, "#notes-list a")
        .await
        .send_keys("\u{e00c}")
        .await
        .expect("Escape");
    wait_until(
        &c,
        "document.querySelector('#notes-panel').hidden && document.activeElement === document.querySelector('#notes-open')",
        "the list closed, the bell focused",
    )
    .await;

    // The entry leads to the game, and is read.
    click(&c, "#notes-open").await;
    click(&c, "#notes-list li.unread a[href^='/game/']").await;
    wait_until(
        &c,
        &format!(
            "location.pathname === '/game/{id}' && document.querySelector('#notes-panel').hidden"
        ),
        "the game opened",
    )
    .await;
    wait_until(
        &c,
        "document.querySelector('#notes-count').textContent === '1'",
        "one left unread",
    )
    .await;

    // On the game, visible: its next turn is read at once and no browser notification shows.
    record_browser_notifications(&c).await;
    play_first(&rig, &id, &bob).await;
    play_first(&rig, &id, &alice).await;
    wait_until(
        &c,
        "document.querySelectorAll('#notes-list li').length === 2 && document.querySelector('#notes-count').textContent === '1'",
        "the turn on the game shown read",
    )
    .await;
    assert_eq!(js(&c, "return window.shown").await, json!([]));
    // Elsewhere, a new one shows in the browser's notifications too.
    click(&c, "#leaderboard-link").await;
    post(
        &rig,
        "/api/seeks",
        &alice,
        json!({"time": "corr:3", "opponent": "bob"}),
    )
    .await;
    wait_until(&c, "window.shown.length === 1", "a browser notification").await;
    assert_eq!(
        js(&c, "return window.shown").await,
        json!(["alice challenges you (3 days)"])
    );

    // French: the same list in French words.
    choose_lang(&c, "fr").await;
    click(&c, "#notes-open").await;
    let list = entries(&c).await;
    assert_eq!(list[0][0], "alice vous défie (3 jours)", "{list}");
    assert_eq!(list[1][0], "alice a joué : à vous", "{list}");
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#notes-open').getAttribute('aria-label')"
        )
        .await,
        "Notifications : 2 non lues"
    );
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#notes-read-all').textContent"
        )
        .await,
        "Tout marquer comme lu"
    );
    click(&c, "#notes-read-all").await;
    wait_until(
        &c,
        "document.querySelector('#notes-count').hidden",
        "all read",
    )
    .await;
    // The page hides the count at the click and then tells the server: the stored state
    // follows within the page's patience.
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let stored = api(
            &rig,
            reqwest::Method::GET,
            "/api/notifications",
            &bob,
            Value::Null,
        )
        .await;
        if stored["unread"] == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server never stored them as read: {stored}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(60)).await;
    }
    assert_no_script_errors(&c).await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browsers_notifications_are_asked_for_on_a_click_only() {
    let mut rig = Rig::start().await;
    let bob = sign_up(&rig, "bob").await;
    let c = rig.browser(1100, 860).await;
    open_as(&c, &rig, &bob, "/").await;
    js(
        &c,
        "window.asked = 0; const ask = Notification.requestPermission.bind(Notification);
         Notification.requestPermission = () => { window.asked += 1; return ask(); };",
    )
    .await;
    click(&c, "#notes-open").await;
    assert_eq!(
        js(&c, "return window.asked").await,
        0,
        "opening the list asks nothing"
    );
    click(&c, "#notes-browser").await;
    wait_until(&c, "window.asked === 1", "asked on the click").await;
    wait_until(
        &c,
        "document.querySelector('#notes-browser').hidden && document.querySelector('#notes-browser-state').textContent.length > 0",
        "the answer said",
    )
    .await;
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_bell_and_its_list_cover_neither_the_status_nor_the_board() {
    let mut rig = Rig::start().await;
    let alice = sign_up(&rig, "alice").await;
    let bob = sign_up(&rig, "bob").await;
    let id = corr_game(&rig, &alice, &bob).await;
    let c = rig.phone(390, 844).await;
    open_as(&c, &rig, &bob, &format!("/game/{id}")).await;
    find(&c, "#board").await;
    wait_until(
        &c,
        "document.querySelector('#status').textContent.length > 0",
        "the status",
    )
    .await;
    // The seat's notification of the game (the challenge came before the game) stays.
    wait_until(
        &c,
        "!document.querySelector('#notes-count').hidden",
        "the count",
    )
    .await;
    let bell = rect(&c, "#notes-open").await;
    let width = js(&c, "return innerWidth").await.as_f64().expect("a width");
    assert!(
        bell["left"].as_f64() >= Some(0.0) && bell["right"].as_f64() <= Some(width),
        "the bell is on the screen: {bell}"
    );
    for (what, css) in [("status", "#status"), ("board", "#board")] {
        let other = rect(&c, css).await;
        assert!(
            !overlap(&bell, &other),
            "the bell covers the {what}: {bell} {other}"
        );
    }
    click(&c, "#notes-open").await;
    wait_until(
        &c,
        "!document.querySelector('#notes-panel').hidden",
        "the list open",
    )
    .await;
    let panel = rect(&c, "#notes-panel").await;
    assert!(
        panel["left"].as_f64() >= Some(0.0) && panel["right"].as_f64() <= Some(width),
        "the list fits the screen: {panel}"
    );
    assert!(panel["height"].as_f64() > Some(40.0), "{panel}");
    save_screenshot(&c, "notifications-phone.png").await;
    for (what, css) in [("status", "#status"), ("board", "#board")] {
        let other = rect(&c, css).await;
        assert!(
            !overlap(&panel, &other),
            "the list covers the {what}: {panel} {other}"
        );
    }
    // What the list shows is what is on top there (nothing lies over it).
    let on_top = js(
        &c,
        "const r = document.querySelector('#notes-list li').getBoundingClientRect();
         const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
         return !!e && !!e.closest('#notes-panel')",
    )
    .await;
    assert_eq!(on_top, true, "the list is visible");
    let wide = js(
        &c,
        "return [...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 0.5).map((e) => e.tagName + '#' + e.id + '.' + e.className)",
    )
    .await;
    assert_eq!(wide, json!([]), "nothing past the screen's right edge");
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}

/// Chromium's console messages so far (`level`, `message` each), read through chromedriver.
#[derive(Debug)]
struct BrowserLog;

type ParseError = <reqwest::Url as std::str::FromStr>::Err;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &reqwest::Url,
        session: Option<&str>,
    ) -> Result<reqwest::Url, ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &reqwest::Url) -> (axum::http::Method, Option<String>) {
        (
            axum::http::Method::POST,
            Some(r#"{"type":"browser"}"#.to_string()),
        )
    }
}

/// The console's warnings and errors since the last call.
async fn console_noise(c: &Client) -> Vec<String> {
    let log = c.issue_cmd(BrowserLog).await.expect("the console's log");
    log.as_array()
        .into_iter()
        .flatten()
        .filter(|e| matches!(e["level"].as_str(), Some("WARNING" | "SEVERE")))
        .map(|e| e["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Issue 18 item 12: another's game logged a 403 for `POST /seat`, and leaving the lobby a
/// WebSocket warning. Both screens, logged in and not, leave the console clean.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item12_anothers_game_and_leaving_the_lobby_log_nothing_in_the_console() {
    let mut rig = Rig::start().await;
    let alice = sign_up(&rig, "alice").await;
    let bob = sign_up(&rig, "bob").await;
    let carol = sign_up(&rig, "carol").await;
    let id = corr_game(&rig, &alice, &bob).await;
    let c = rig.browser(1100, 860).await;
    // Anonymous: the lobby, left at once (its socket still connecting) and after it opened.
    c.goto(&rig.url("/")).await.expect("the page loads");
    find(&c, "#lobby:not([hidden])").await;
    click(&c, "#leaderboard-link").await;
    wait_until(
        &c,
        "location.pathname === '/leaderboard'",
        "the leaderboard",
    )
    .await;
    click(&c, ".brand").await;
    find(&c, "#lobby:not([hidden])").await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    click(&c, "#leaderboard-link").await;
    wait_until(
        &c,
        "location.pathname === '/leaderboard'",
        "the leaderboard",
    )
    .await;
    assert_eq!(
        console_noise(&c).await,
        Vec::<String>::new(),
        "anonymous lobby left"
    );
    // carol, logged in, opens alice and bob's game (not hers), then the lobby and leaves it.
    open_as(&c, &rig, &carol, &format!("/game/{id}")).await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.ply !== undefined",
        "the game",
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    click(&c, ".brand").await;
    find(&c, "#lobby:not([hidden])").await;
    click(&c, "#leaderboard-link").await;
    wait_until(
        &c,
        "location.pathname === '/leaderboard'",
        "the leaderboard",
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        console_noise(&c).await,
        Vec::<String>::new(),
        "another's game, the lobby left, logged in"
    );
    let failed = js(
        &c,
        "return performance.getEntriesByType('resource').filter((e) => e.responseStatus >= 400).map((e) => new URL(e.name).pathname + ' ' + e.responseStatus)",
    )
    .await;
    assert_eq!(failed, json!([]));
    c.close().await.expect("the browser closes");
    rig.stop_server().await;
}
