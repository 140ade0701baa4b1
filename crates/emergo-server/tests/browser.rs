//! The page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`;
//! `scripts/install-browser.sh` installs them) driven over WebDriver by fantoccini, against the
//! server started in-process on a free loopback port over a SQLite file in a temporary directory.
//!
//! These tests fail, never skip, when Chromium is missing. They save screenshots of the board in
//! `target/screenshots/` (`EMERGO_SCREENSHOTS=docs/screenshots` refreshes the committed ones). They run one at a time (each starts its own chromedriver and browsers).

use emergo_server::{Config, Server};
use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{elements::Element, key::Key, Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long a page may take to show what a step expects before the test fails.
const PATIENCE: Duration = Duration::from_secs(30);

/// The designers' worked example (RULES.md): White steps f4-e4, Black must take two men with
/// h4xf4xd4, White must take five with e4xc4xc6xe6xe4xc4. A Black man on i5, out of reach,
/// keeps the game going after that.
const WORKED_EXAMPLE: &str = "W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB,i5=B";
/// White to move wins within three of its moves whatever either side plays (found by an
/// exhaustive search with emergo-core): every line ends with Black out of pieces at ply 5.
const WHITE_WINS_IN_THREE: &str = "W:0:0:c4=WWW,c5=B,d6=WWW,e7=WW,f7=BB";
/// A middle game with tall columns and a shadowpiece pending (Black has no men in hand).
const TALL_COLUMNS: &str = "W:2:0:b5=B,c4=WWWBBBBBBB,d7=B,e5=BBWW,e8=B,f3=W,g5=WWWW";

/// Every test takes this first: two cores cannot run several browsers at once in good time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    l.local_addr().expect("its address").port()
}

/// Where screenshots go: `target/screenshots` in an ordinary run, so that running the tests
/// leaves the work tree alone; `EMERGO_SCREENSHOTS=docs/screenshots` (relative to the repo) to
/// refresh the committed ones.
fn screenshots_dir() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match std::env::var_os("EMERGO_SCREENSHOTS") {
        Some(dir) => repo.join(dir),
        None => repo.join("target/screenshots"),
    }
}

/// chromedriver on a free loopback port; killed (with the browsers it started) when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start() -> Driver {
        for path in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                Path::new(path).exists(),
                "{path} is missing: run scripts/install-browser.sh (Debian's chromium and \
                 chromium-driver) before the browser tests"
            );
        }
        let port = free_port();
        let mut cmd = Command::new(CHROMEDRIVER);
        cmd.arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let child = cmd.spawn().expect("chromedriver starts");
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }

    /// A new browser session with its own fresh profile (so its own localStorage).
    async fn browser(&self, profile: &Path, width: u32, height: u32) -> Client {
        let args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--no-first-run".into(),
            "--disable-dev-shm-usage".into(),
            "--hide-scrollbars".into(),
            "--force-device-scale-factor=1".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
        });
        let Value::Object(caps) = caps else {
            unreachable!("a JSON object")
        };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let deadline = Instant::now() + PATIENCE;
        loop {
            match ClientBuilder::new(connector.clone())
                .capabilities(caps.clone())
                .connect(&self.url)
                .await
            {
                Ok(client) => return client,
                // chromedriver may not listen yet
                Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(150)).await;
                }
                Err(e) => panic!("cannot start a Chromium session through chromedriver: {e}"),
            }
        }
    }
}

impl Drop for Driver {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // chromedriver leads its own process group, which holds the browsers it started: end
        // that one group (checked to be chromedriver's own, never 0 or 1), then chromedriver.
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: plain system calls on a process id this test spawned.
            unsafe {
                if pid > 1 && libc::getpgid(pid) == pid {
                    libc::killpg(pid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server, chromedriver and temporary directories of one test.
struct Rig {
    server: Option<Server>,
    addr: SocketAddr,
    db_url: String,
    driver: Driver,
    tmp: tempfile::TempDir,
    profiles: u32,
}

impl Rig {
    async fn start() -> Rig {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let db_url = format!("sqlite://{}", tmp.path().join("t.db").display());
        let server = start_server("127.0.0.1:0".parse().expect("an address"), &db_url).await;
        let addr = server.addr();
        Rig {
            server: Some(server),
            addr,
            db_url,
            driver: Driver::start(),
            tmp,
            profiles: 0,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn browser(&mut self, width: u32, height: u32) -> Client {
        self.profiles += 1;
        let profile = self.tmp.path().join(format!("profile-{}", self.profiles));
        std::fs::create_dir_all(&profile).expect("a profile directory");
        self.driver.browser(&profile, width, height).await
    }

    async fn stop_server(&mut self) {
        if let Some(server) = self.server.take() {
            server.shutdown().await.expect("the server stops");
        }
    }

    async fn restart_server(&mut self) {
        self.stop_server().await;
        self.server = Some(start_server(self.addr, &self.db_url).await);
    }
}

async fn start_server(addr: SocketAddr, db_url: &str) -> Server {
    let mut config = Config::new(addr, db_url);
    config.engine_workers = Some(1);
    let deadline = Instant::now() + PATIENCE;
    loop {
        match Server::start(config.clone()).await {
            Ok(server) => return server,
            // the port of a server just stopped may take a moment to be free again
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("the server does not start on {addr}: {e:#}"),
        }
    }
}

/* ---------------------------------------------------------------- page helpers */

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
}

fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Null | Value::Bool(false))
        && v.as_str() != Some("")
        && v.as_f64() != Some(0.0)
}

/// Waits until the JavaScript expression is true on the page; fails with `what` if it never is.
async fn wait_until(c: &Client, expr: &str, what: &str) -> Value {
    let deadline = Instant::now() + PATIENCE;
    let script = format!("return ({expr});");
    loop {
        let v = js(c, &script).await;
        if truthy(&v) {
            return v;
        }
        if Instant::now() > deadline {
            let status = js(c, "return document.querySelector('#status')?.innerText + ' | ' + document.querySelector('#toast-text')?.innerText").await;
            let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-failure.png");
            if let Ok(png) = c.screenshot().await {
                let _ = std::fs::write(&shot, png);
            }
            panic!(
                "the page never showed {what} (`{expr}`); status: {status}; screenshot: {}",
                shot.display()
            );
        }
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
}

async fn find(c: &Client, css: &str) -> Element {
    c.wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"))
}

async fn click(c: &Client, css: &str) {
    find(c, css)
        .await
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

async fn click_square(c: &Client, sq: &str) {
    click(c, &format!("#board rect.hit[data-sq='{sq}']")).await;
}

/// Moves the mouse over a square (a real pointer move, so the page sees it as hovering).
async fn hover(c: &Client, sq: &str) {
    let element = find(c, &format!("#board rect.hit[data-sq='{sq}']")).await;
    c.perform_actions(
        MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        }),
    )
    .await
    .expect("the mouse moves");
}

async fn game_data(c: &Client, key: &str) -> String {
    js(
        c,
        &format!("return document.querySelector('#game').dataset.{key} || ''"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

async fn ply(c: &Client) -> u64 {
    game_data(c, "ply").await.parse().unwrap_or(0)
}

/// The squares marked with `class` (`start` or `target`), sorted.
async fn marks(c: &Client, class: &str) -> Vec<String> {
    let v = js(
        c,
        &format!("return [...document.querySelectorAll('#board .{class}')].map(e => e.dataset.mark).sort()"),
    )
    .await;
    serde_json::from_value(v).expect("a list of squares")
}

async fn moves_listed(c: &Client) -> Vec<String> {
    let v = js(
        c,
        "return [...document.querySelectorAll('#moves .mv[data-ply]')].map(e => e.textContent)",
    )
    .await;
    serde_json::from_value(v).expect("a list of moves")
}

async fn stack_on(c: &Client, sq: &str) -> String {
    js(
        c,
        &format!("return document.querySelector(\"#board .column[data-col='{sq}']\")?.dataset.stack || ''"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

async fn local_seat(c: &Client, id: &str) -> Value {
    js(
        c,
        &format!("return JSON.parse(localStorage.getItem('emergo.seat.{id}'))"),
    )
    .await
}

async fn game_id(c: &Client) -> String {
    let v = wait_until(
        c,
        "(location.pathname.match(/^\\/game\\/([^/]+)$/) || [])[1]",
        "a game's address",
    )
    .await;
    v.as_str().expect("an id").to_string()
}

/// Fills one of the lobby's new-game forms and submits it; waits for the game's page.
async fn new_game(
    c: &Client,
    form: &str,
    color: &str,
    level: Option<u8>,
    position: Option<&str>,
) -> String {
    find(c, &format!("#{form}")).await;
    if let Some(level) = level {
        find(c, "#engine-level")
            .await
            .select_by_value(&level.to_string())
            .await
            .expect("the level is chosen");
    }
    click(c, &format!("#{form} input[name=color][value={color}]")).await;
    if let Some(text) = position {
        click(c, &format!("#{form} details summary")).await;
        find(c, &format!("#{form} input[name=position]"))
            .await
            .send_keys(text)
            .await
            .expect("the position is typed");
    }
    click(c, &format!("#{form} button[type=submit]")).await;
    let id = game_id(c).await;
    wait_until(
        c,
        "document.querySelector('#game').dataset.ply !== undefined",
        "the game",
    )
    .await;
    id
}

/// Fails if a script error happened on the page (the page notes them on `<html>`).
async fn assert_no_script_errors(c: &Client) {
    let error = js(
        c,
        "return document.documentElement.dataset.scriptError || null",
    )
    .await;
    assert_eq!(error, Value::Null, "a script error on the page");
}

/// Moves the mouse off the board (so no column's contents cover it).
async fn unhover(c: &Client) {
    let element = find(c, "#status").await;
    c.perform_actions(
        MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        }),
    )
    .await
    .expect("the mouse moves");
    wait_until(c, "document.querySelector('#tip').hidden", "no tooltip").await;
}

async fn save_screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("a screenshot");
    let dir = screenshots_dir();
    std::fs::create_dir_all(&dir).expect("the screenshots directory");
    std::fs::write(dir.join(name), png).expect("the screenshot is saved");
}

/// Plays one move for the side to move by clicking: an entry is one click; otherwise the first
/// marked start, then the first marked landing square until the move is sent.
async fn play_one_move_by_clicking(c: &Client) {
    let before = ply(c).await;
    let entries = marks(c, "target").await;
    if let Some(sq) = entries.first() {
        click_square(c, sq).await;
    } else {
        let starts = marks(c, "start").await;
        let start = starts
            .first()
            .expect("a marked start: the side to move has a legal move");
        click_square(c, start).await;
        // then landing squares until the move is on its way (a capture completes itself when
        // one route is left)
        for _ in 0..16 {
            let sent = js(
                c,
                &format!("const d = document.querySelector('#game').dataset; return Number(d.ply) > {before} || d.busy === 'true'"),
            )
            .await;
            if sent == json!(true) {
                break;
            }
            let next = marks(c, "target").await;
            let sq = next.first().expect("a marked landing square after a start");
            click_square(c, sq).await;
        }
    }
    wait_until(
        c,
        &format!("Number(document.querySelector('#game').dataset.ply) > {before}"),
        "the move played",
    )
    .await;
}

/* ---------------------------------------------------------------- tests */

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_loads_and_shows_the_start_screen_and_the_empty_board() {
    let _one = ONE_AT_A_TIME.lock().await;
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
    let _one = ONE_AT_A_TIME.lock().await;
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
        words.contains("White wins") && words.contains("Black has no pieces left"),
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
    click(&c, "#moves .mv[data-ply='3']").await;
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
    let _one = ONE_AT_A_TIME.lock().await;
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
    for page in [&a, &b] {
        wait_until(
            page,
            "document.querySelector('#game').dataset.status === 'finished'",
            "the resignation",
        )
        .await;
        let words = find(page, "#result").await.text().await.expect("text");
        assert!(
            words.contains("Black wins") && words.contains("White resigned"),
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
    let _one = ONE_AT_A_TIME.lock().await;
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
    let _one = ONE_AT_A_TIME.lock().await;
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
