//! The browser tests' rig: chromedriver, headless Chromium, the server in-process, and helpers
//! that read the page.
#![allow(dead_code)]

use emergo_server::{Config, Server};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{elements::Element, Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod api;
pub use api::*;

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long a page may take to show what a step expects before the test fails.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// The designers' worked example (RULES.md): White steps f4-e4, Black must take two men with
/// h4xf4xd4, White must take five with e4xc4xc6xe6xe4xc4. A Black man on i5, out of reach,
/// keeps the game going after that.
pub const WORKED_EXAMPLE: &str = "W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB,i5=B";
/// White to move wins within three of its moves whatever either side plays (found by an
/// exhaustive search with emergo-core): every line ends with Black out of pieces at ply 5.
pub const WHITE_WINS_IN_THREE: &str = "W:0:0:c4=WWW,c5=B,d6=WWW,e7=WW,f7=BB";
/// A middle game with tall columns and a shadowpiece pending (Black has no men in hand).
pub const TALL_COLUMNS: &str = "W:2:0:b5=B,c4=WWWBBBBBBB,d7=B,e5=BBWW,e8=B,f3=W,g5=WWWW";

/// How many tests' browsers work at once: `EMERGO_BROWSERS` (default 1). A [`Rig`] holds one
/// seat from its start to its end, so no test can forget to take it, and lets it go only
/// while it waits on a clock or a poll ([`Rig::aside`]).
fn browser_seats() -> &'static tokio::sync::Semaphore {
    static SEATS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    SEATS.get_or_init(|| {
        let n = std::env::var("EMERGO_BROWSERS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1usize)
            .max(1);
        tokio::sync::Semaphore::new(n)
    })
}

async fn take_seat() -> tokio::sync::SemaphorePermit<'static> {
    browser_seats()
        .acquire()
        .await
        .expect("the seats are never closed")
}

pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    l.local_addr().expect("its address").port()
}

/// Where screenshots go: `target/screenshots` in an ordinary run, so that running the tests
/// leaves the work tree alone; `EMERGO_SCREENSHOTS=docs/screenshots` (relative to the repo) to
/// refresh the committed ones.
pub fn screenshots_dir() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    match std::env::var_os("EMERGO_SCREENSHOTS") {
        Some(dir) => repo.join(dir),
        None => repo.join("target/screenshots"),
    }
}

/// chromedriver on a free loopback port; killed (with the browsers it started) when dropped.
pub struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    /// chromedriver, listening: started on a free port and waited for; started again on
    /// another port when it exits first (the port taken in between, say). Its log is kept in
    /// the target's temporary directory and quoted when it never listens.
    pub async fn start() -> Driver {
        for path in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                Path::new(path).exists(),
                "{path} is missing: run scripts/install-test-tools.sh (Debian's chromium and \
                 chromium-driver) before the browser tests"
            );
        }
        let mut last_log = PathBuf::new();
        for _ in 0..3 {
            let port = free_port();
            let log =
                Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromedriver-{port}.log"));
            let mut cmd = Command::new(CHROMEDRIVER);
            cmd.arg(format!("--port={port}"))
                .arg("--allowed-ips=127.0.0.1")
                .arg(format!("--log-path={}", log.display()))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            #[cfg(unix)]
            {
                use std::os::unix::process::CommandExt;
                cmd.process_group(0);
            }
            let child = cmd.spawn().expect("chromedriver starts");
            let mut driver = Driver {
                child,
                url: format!("http://127.0.0.1:{port}"),
            };
            let deadline = Instant::now() + PATIENCE;
            loop {
                if tokio::net::TcpStream::connect(("127.0.0.1", port))
                    .await
                    .is_ok()
                {
                    let _ = std::fs::remove_file(&log);
                    return driver;
                }
                if matches!(driver.child.try_wait(), Ok(Some(_))) || Instant::now() > deadline {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            drop(driver);
            last_log = log;
        }
        let said = std::fs::read_to_string(&last_log).unwrap_or_default();
        let lines: Vec<&str> = said.lines().collect();
        let tail = lines[lines.len().saturating_sub(20)..].join("\n");
        panic!(
            "chromedriver never listened (three ports tried); its log ({}):\n{tail}",
            last_log.display()
        );
    }

    /// A new browser session with its own fresh profile (so its own localStorage).
    pub async fn browser(&self, profile: &Path, width: u32, height: u32) -> Client {
        self.session(profile, width, height, None).await
    }

    /// A new browser session as a phone: a touch screen of `width` × `height` CSS pixels (a
    /// headless window cannot be narrower than 500 px; the phone's screen can).
    pub async fn phone(&self, profile: &Path, width: u32, height: u32) -> Client {
        let emulation = json!({
            "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0, "touch": true },
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
        });
        self.session(profile, width.max(500), height, Some(emulation))
            .await
    }

    async fn session(
        &self,
        profile: &Path,
        width: u32,
        height: u32,
        emulation: Option<Value>,
    ) -> Client {
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
        let mut options = json!({ "binary": CHROMIUM, "args": args });
        if let Some(emulation) = emulation {
            options["mobileEmulation"] = emulation;
        }
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": options,
            // the console's messages, for the tests that read them (notify.rs)
            "goog:loggingPrefs": { "browser": "ALL" },
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
pub struct Rig {
    server: Option<Server>,
    addr: SocketAddr,
    db_url: String,
    driver: Driver,
    tmp: tempfile::TempDir,
    profiles: u32,
    /// Config changes of this test's server, kept for a restart.
    configure: fn(&mut Config),
    /// Last, so that it is given back after the browsers and the server have stopped; `None`
    /// only inside [`Rig::aside`].
    seat: Option<tokio::sync::SemaphorePermit<'static>>,
}

impl Rig {
    pub async fn start() -> Rig {
        Rig::start_with(|_| {}).await
    }

    /// A rig whose server's config `configure` changes first (a limit, say).
    pub async fn start_with(configure: fn(&mut Config)) -> Rig {
        let seat = take_seat().await;
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let db_url = format!("sqlite://{}", tmp.path().join("t.db").display());
        let addr = "127.0.0.1:0".parse().expect("an address");
        let server = start_server(addr, &db_url, configure).await;
        let addr = server.addr();
        Rig {
            server: Some(server),
            addr,
            db_url,
            driver: Driver::start().await,
            tmp,
            profiles: 0,
            configure,
            seat: Some(seat),
        }
    }

    /// Runs `wait` without this test's browser seat, and takes a seat again after it: for a
    /// wait on a clock or a poll, during which the test's pages do nothing but wait, so that
    /// another test's browser may work meanwhile. `wait` must only wait and read the page:
    /// whatever it times (a flag, a poll) is the server's or the page's, never the test's.
    pub async fn aside<F: std::future::Future>(&mut self, wait: F) -> F::Output {
        self.seat = None;
        let out = wait.await;
        self.seat = Some(take_seat().await);
        out
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn browser(&mut self, width: u32, height: u32) -> Client {
        self.profiles += 1;
        let profile = self.tmp.path().join(format!("profile-{}", self.profiles));
        std::fs::create_dir_all(&profile).expect("a profile directory");
        self.driver.browser(&profile, width, height).await
    }

    /// A phone's browser (see [`Driver::phone`]).
    pub async fn phone(&mut self, width: u32, height: u32) -> Client {
        self.profiles += 1;
        let profile = self.tmp.path().join(format!("profile-{}", self.profiles));
        std::fs::create_dir_all(&profile).expect("a profile directory");
        self.driver.phone(&profile, width, height).await
    }

    pub async fn stop_server(&mut self) {
        if let Some(server) = self.server.take() {
            server.shutdown().await.expect("the server stops");
        }
    }

    pub async fn restart_server(&mut self) {
        self.stop_server().await;
        self.server = Some(start_server(self.addr, &self.db_url, self.configure).await);
    }
}

async fn start_server(addr: SocketAddr, db_url: &str, configure: fn(&mut Config)) -> Server {
    let mut config = Config::new(addr, db_url);
    config.engine_workers = Some(1);
    configure(&mut config);
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

/// The invitation code the creator's page keeps for game `id`.
pub async fn invite_of(c: &Client, id: &str) -> String {
    js(
        c,
        &format!("return JSON.parse(localStorage.getItem('emergo.invite.{id}'))"),
    )
    .await
    .as_str()
    .expect("the invitation code kept")
    .to_string()
}

pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
}

pub fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Null | Value::Bool(false))
        && v.as_str() != Some("")
        && v.as_f64() != Some(0.0)
}

/// The JavaScript expression's value once it is true on the page, or `None` when it is not
/// within `limit`.
pub async fn shown_within(c: &Client, expr: &str, limit: Duration) -> Option<Value> {
    let deadline = Instant::now() + limit;
    let script = format!("return ({expr});");
    loop {
        let v = js(c, &script).await;
        if truthy(&v) {
            return Some(v);
        }
        if Instant::now() > deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
}

/// Waits until the JavaScript expression is true on the page; fails with `what` if it never is.
pub async fn wait_until(c: &Client, expr: &str, what: &str) -> Value {
    match shown_within(c, expr, PATIENCE).await {
        Some(v) => v,
        None => {
            let status = js(c, "return document.querySelector('#status')?.innerText + ' | ' + document.querySelector('#toast-text')?.innerText + ' | script error: ' + document.documentElement.dataset.scriptError").await;
            let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-failure.png");
            if let Ok(png) = c.screenshot().await {
                let _ = std::fs::write(&shot, png);
            }
            panic!(
                "the page never showed {what} (`{expr}`); status: {status}; screenshot: {}",
                shot.display()
            );
        }
    }
}

pub async fn find(c: &Client, css: &str) -> Element {
    c.wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"))
}

/// Clicks the element `css` finds. An element the page replaced between the finding and the
/// click (a list drawn again with what it newly shows) is found again, as a person's next try
/// would; three tries at most.
pub async fn click(c: &Client, css: &str) {
    for attempt in 1.. {
        match find(c, css).await.click().await {
            Ok(()) => return,
            Err(e) if attempt < 3 && e.to_string().contains("stale element") => {}
            Err(e) => panic!("cannot click {css}: {e}"),
        }
    }
}

/// Chooses a language in the header's language menu, as a person does (`en`, `fr`, `nl`).
pub async fn choose_lang(c: &Client, code: &str) {
    find(c, "#lang")
        .await
        .select_by_value(code)
        .await
        .unwrap_or_else(|e| panic!("choosing the language {code}: {e}"));
    wait_until(
        c,
        &format!("document.documentElement.lang === '{code}'"),
        "the page in the chosen language",
    )
    .await;
}

pub async fn click_square(c: &Client, sq: &str) {
    click(c, &format!("#board rect.hit[data-sq='{sq}']")).await;
}

/// Moves the mouse over a square (a real pointer move, so the page sees it as hovering).
pub async fn hover(c: &Client, sq: &str) {
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

pub async fn game_data(c: &Client, key: &str) -> String {
    js(
        c,
        &format!("return document.querySelector('#game').dataset.{key} || ''"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

pub async fn ply(c: &Client) -> u64 {
    game_data(c, "ply").await.parse().unwrap_or(0)
}

/// The squares marked with `class` (`start` or `target`), sorted.
pub async fn marks(c: &Client, class: &str) -> Vec<String> {
    let v = js(
        c,
        &format!("return [...document.querySelectorAll('#board .{class}')].map(e => e.dataset.mark).sort()"),
    )
    .await;
    serde_json::from_value(v).expect("a list of squares")
}

pub async fn moves_listed(c: &Client) -> Vec<String> {
    let v = js(
        c,
        "return [...document.querySelectorAll('#moves .mv[data-ply]')].map(e => e.textContent)",
    )
    .await;
    serde_json::from_value(v).expect("a list of moves")
}

pub async fn stack_on(c: &Client, sq: &str) -> String {
    js(
        c,
        &format!("return document.querySelector(\"#board .column[data-col='{sq}']\")?.dataset.stack || ''"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

pub async fn local_seat(c: &Client, id: &str) -> Value {
    js(
        c,
        &format!("return JSON.parse(localStorage.getItem('emergo.seat.{id}'))"),
    )
    .await
}

pub async fn game_id(c: &Client) -> String {
    let v = wait_until(
        c,
        "(location.pathname.match(/^\\/game\\/([^/]+)$/) || [])[1]",
        "a game's address",
    )
    .await;
    v.as_str().expect("an id").to_string()
}

/// Fills one of the lobby's new-game forms and submits it; waits for the game's page.
pub async fn new_game(
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
pub async fn assert_no_script_errors(c: &Client) {
    let error = js(
        c,
        "return document.documentElement.dataset.scriptError || null",
    )
    .await;
    assert_eq!(error, Value::Null, "a script error on the page");
}

/// Moves the mouse off the board (so no column's contents cover it).
pub async fn unhover(c: &Client) {
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

pub async fn save_screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("a screenshot");
    let dir = screenshots_dir();
    std::fs::create_dir_all(&dir).expect("the screenshots directory");
    std::fs::write(dir.join(name), png).expect("the screenshot is saved");
}

/// Plays one move for the side to move by clicking: an entry is one click; otherwise the first
/// marked start, then the first marked landing square until the move is sent.
pub async fn play_one_move_by_clicking(c: &Client) {
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

/// The serious and critical accessibility violations axe-core finds on the page.
pub async fn axe_violations(c: &Client) -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/js/node_modules/axe-core/axe.min.js"
    );
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("{path}: {e}; run `npm ci` in crates/emergo-server/tests/js (scripts/test.sh does)")
    });
    // Colours are checked once no CSS transition is running (a theme switch fades the buttons'
    // backgrounds; halfway through, the contrast is neither theme's).
    wait_until(
        c,
        "document.getAnimations().every((a) => a.constructor.name !== 'CSSTransition')",
        "the colour transitions to end",
    )
    .await;
    c.execute(&source, vec![]).await.expect("axe-core loads");
    js(
        c,
        "return axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
           .filter((v) => v.impact === 'serious' || v.impact === 'critical')
           .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')))",
    )
    .await
}

/* ---------------------------------------------------------------- what a screen draws */

/// The squares and men a board draws, read from the page: the theme's two square colours (the
/// style sheet's `--sq-dark` and `--sq-light` resolved), the squares' computed fills, and points
/// in the viewport where a person sees an empty dark square, a light square, and the top of
/// each column, with the colour each should have there.
const BOARD_PROBE: &str = r#"
const b = document.querySelector(arguments[0]);
if (!b) return { error: 'no board ' + arguments[0] };
b.scrollIntoView({ block: 'nearest', inline: 'nearest' });
const probe = document.createElement('div');
document.body.append(probe);
const colour = (value) => { probe.style.color = value; return getComputedStyle(probe).color; };
const want = { dark: colour('var(--sq-dark)'), light: colour('var(--sq-light)') };
const faces = { W: colour('#f8f3e7'), B: colour('#3a332e') };
probe.remove();
const fills = (cls) => [...new Set([...b.querySelectorAll('.squares .' + cls)].map((e) => getComputedStyle(e).fill))];
const boxes = [...b.querySelectorAll('.pieces .column')].map((g) => g.getBoundingClientRect());
// squares shaded whole (the last move, a selection, a premove); the marks of legal moves are a
// dot at the centre or a ring at the edge, so a dark square is looked at between the two
// (and the squares a hint, a better move or a captured man is drawn on)
const marked = new Set([...b.querySelectorAll('.under [data-sq], .over [data-sq]')].map((e) => e.dataset.sq));
for (const e of b.querySelectorAll('[data-better]')) for (const sq of e.dataset.better.split('-')) marked.add(sq);
for (const e of b.querySelectorAll('[data-captured]')) marked.add(e.dataset.captured);
const aside = b.getBoundingClientRect().width / 1000 * 28;
const inView = (p) => p.x >= 2 && p.y >= 2 && p.x <= innerWidth - 3 && p.y <= innerHeight - 3;
const covered = (p) => boxes.some((r) => p.x >= r.left - 2 && p.x <= r.right + 2 && p.y >= r.top - 2 && p.y <= r.bottom + 2);
const centreOf = (e) => { const r = e.getBoundingClientRect(); return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) }; };
const points = [];
const hits = new Map([...b.querySelectorAll('.hit')].map((h) => [h.dataset.sq, h]));
for (const [sq, h] of hits) {
  const c = centreOf(h);
  const p = { x: Math.round(c.x + aside), y: c.y };
  if (marked.has(sq) || covered(p) || !inView(p) || b.querySelector(`.column[data-col='${sq}']`)) continue;
  points.push({ ...p, what: 'the empty dark square ' + sq, want: want.dark });
}
for (const r of b.querySelectorAll('.squares .sq-light')) {
  const p = centreOf(r);
  if (covered(p) || !inView(p)) continue;
  points.push({ ...p, what: 'a light square', want: want.light });
}
const columns = [];
const scale = b.getBoundingClientRect().width / 1000;
for (const g of b.querySelectorAll('.pieces .column')) {
  const face = g.querySelectorAll('ellipse')[1];
  if (!face) continue;
  const top = g.dataset.stack[0];
  const r = b.getBoundingClientRect();
  const cx = r.left + Number(face.getAttribute('cx')) * scale;
  const cy = r.top + Number(face.getAttribute('cy')) * scale;
  const spots = [0, -33, 33].map((dx) => ({ x: Math.round(cx + dx * scale), y: Math.round(cy) })).filter(inView);
  if (spots.length) columns.push({ sq: g.dataset.col, want: faces[top], spots });
}
// what a person sees at each point, when it is not the board (a panel or pop-up over it)
for (const p of points) {
  const top = document.elementFromPoint(p.x, p.y);
  if (top && !b.contains(top)) p.over = top.outerHTML.slice(0, 120);
}
return { want, darkFills: fills('sq-dark'), lightFills: fills('sq-light'), points, columns,
  boardClass: b.getAttribute('class') };
"#;

/// The colours (`rgb(r, g, b)`) of the screenshot `png` at `points` ([{x, y}]), decoded by the
/// browser itself.
pub async fn pixels(c: &Client, png: &[u8], points: &Value) -> Vec<[u8; 3]> {
    let v = c
        .execute(
            "const [bytes, points] = arguments;
             return createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' })).then((bitmap) => {
               const canvas = document.createElement('canvas');
               canvas.width = bitmap.width;
               canvas.height = bitmap.height;
               const ctx = canvas.getContext('2d', { willReadFrequently: true });
               ctx.drawImage(bitmap, 0, 0);
               return points.map((p) => [...ctx.getImageData(p.x, p.y, 1, 1).data].slice(0, 3));
             });",
            vec![json!(png), points.clone()],
        )
        .await
        .expect("the screenshot is read");
    serde_json::from_value(v).expect("colours")
}

pub fn rgb_of(text: &str) -> [u8; 3] {
    let n: Vec<u8> = text
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .take(3)
        .map(|s| s.trim().parse().unwrap_or(0))
        .collect();
    [n[0], n[1], n[2]]
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 8)
}

/// Fails unless the board `css` draws what a person should see, in the look now in force:
/// dark and light squares filled with the theme's two colours (computed styles and the
/// screenshot's pixels agree), distinct and not black, and every column's top man visible in
/// its colour. `screen` names the screen in the failure.
pub async fn assert_board_drawn(c: &Client, css: &str, screen: &str) {
    // The points are read from the page, then the screenshot is taken: a page still laying
    // itself out (a panel filled in above the board) would move the board in between. The
    // check looks at a frame the page read the same just before and just after it.
    let mut tries = 0;
    let (probe, png) = loop {
        let before = c
            .execute(BOARD_PROBE, vec![json!(css)])
            .await
            .expect("the board is read");
        assert!(before.get("error").is_none(), "{screen}: {before}");
        let png = c.screenshot().await.expect("a screenshot");
        let after = c
            .execute(BOARD_PROBE, vec![json!(css)])
            .await
            .expect("the board is read");
        tries += 1;
        if before == after || tries == 10 {
            break (after, png);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let look = js(
        c,
        "const d = document.documentElement.dataset; return d.theme + ' theme, ' + d.board + ' board'",
    )
    .await;
    let dark = probe["want"]["dark"]
        .as_str()
        .expect("a colour")
        .to_string();
    let light = probe["want"]["light"]
        .as_str()
        .expect("a colour")
        .to_string();
    assert_ne!(dark, light, "{screen} ({look}): the two square colours");
    assert_eq!(
        probe["darkFills"],
        json!([dark]),
        "{screen} ({look}): the dark squares' fill (the board's class is {})",
        probe["boardClass"]
    );
    assert_eq!(
        probe["lightFills"],
        json!([light]),
        "{screen} ({look}): the light squares' fill"
    );
    for colour in [&dark, &light] {
        assert!(
            !near(rgb_of(colour), [0, 0, 0]),
            "{screen} ({look}): a square colour is black"
        );
    }
    let points = probe["points"].as_array().expect("points").clone();
    assert!(
        points.iter().any(|p| p["want"] == json!(dark))
            && points.iter().any(|p| p["want"] == json!(light)),
        "{screen} ({look}): no empty dark and light square in view to look at: {probe}"
    );
    let columns = probe["columns"].as_array().expect("columns").clone();
    let mut all: Vec<Value> = points
        .iter()
        .map(|p| json!({"x": p["x"], "y": p["y"]}))
        .collect();
    for col in &columns {
        all.extend(col["spots"].as_array().expect("spots").iter().cloned());
    }
    let seen = pixels(c, &png, &Value::Array(all)).await;
    // What a person would see wrong, every one of it; the screenshot is kept when there is any.
    let mut faults = Vec::new();
    for p in &points {
        if p.get("over").is_some() {
            faults.push(format!(
                "{} at ({}, {}) is covered by {}",
                p["what"], p["x"], p["y"], p["over"]
            ));
        }
    }
    for (p, got) in points.iter().zip(&seen) {
        let want = rgb_of(p["want"].as_str().expect("a colour"));
        if !near(*got, want) {
            faults.push(format!(
                "{} at ({}, {}) shows {got:?}, not {want:?}",
                p["what"], p["x"], p["y"]
            ));
        }
    }
    let mut rest = &seen[points.len()..];
    for col in &columns {
        let n = col["spots"].as_array().expect("spots").len();
        let want = rgb_of(col["want"].as_str().expect("a colour"));
        if !rest[..n].iter().any(|&got| near(got, want)) {
            faults.push(format!(
                "the column on {} is not visible: {:?} where its top man ({want:?}) should be",
                col["sq"],
                &rest[..n]
            ));
        }
        rest = &rest[n..];
    }
    if !faults.is_empty() {
        let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("board-failure.png");
        let _ = std::fs::write(&shot, &png);
        panic!(
            "{screen} ({look}): {} (screenshot: {})",
            faults.join("; "),
            shot.display()
        );
    }
}

/// [`assert_board_drawn`] in the light theme with the wooden board and in the dark theme with
/// the green one (switched by the header's buttons, as a person does); leaves the light theme
/// and the wooden board on.
pub async fn assert_board_drawn_in_both_themes(c: &Client, css: &str, screen: &str) {
    for (theme, board, check) in [
        ("light", "wood", true),
        ("dark", "green", true),
        ("light", "wood", false),
    ] {
        for _ in 0..3 {
            if js(c, "return document.documentElement.dataset.theme").await == json!(theme) {
                break;
            }
            click(c, "#theme").await;
        }
        if js(c, "return document.documentElement.dataset.board").await != json!(board) {
            click(c, "#board-colors").await;
        }
        let look = js(
            c,
            "const d = document.documentElement.dataset; return [d.theme, d.board]",
        )
        .await;
        assert_eq!(look, json!([theme, board]), "{screen}: the look switched");
        if check {
            assert_board_drawn(c, css, screen).await;
        }
    }
}

/// The page's rectangle of the first element `css` matches (`null` when none or not shown):
/// `{left, top, right, bottom, width, height}` in CSS pixels of the viewport.
pub async fn rect(c: &Client, css: &str) -> Value {
    js(
        c,
        &format!(
            "const e = document.querySelector({css:?}); if (!e || !e.getClientRects().length) return null;
             const r = e.getBoundingClientRect();
             return {{ left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }}"
        ),
    )
    .await
}

/// Whether two rectangles of [`rect`] overlap (by more than a pixel's rounding).
pub fn overlap(a: &Value, b: &Value) -> bool {
    let f = |r: &Value, k: &str| r[k].as_f64().unwrap_or(0.0);
    f(a, "left") < f(b, "right") - 0.5
        && f(b, "left") < f(a, "right") - 0.5
        && f(a, "top") < f(b, "bottom") - 0.5
        && f(b, "top") < f(a, "bottom") - 0.5
}

/// Taps `css` with a finger (a touch pointer: down, up).
pub async fn tap(c: &Client, css: &str) {
    let element = find(c, css).await;
    c.perform_actions(
        fantoccini::actions::TouchActions::new("finger".into())
            .then(PointerAction::MoveToElement {
                element,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: fantoccini::actions::MOUSE_BUTTON_LEFT,
            }),
    )
    .await
    .expect("the finger taps");
}

/// Drags what is on the element `from_css` to the element `to_css` with the mouse (press,
/// move in steps, release), as a person drags a column.
pub async fn drag_between(c: &Client, from_css: &str, to_css: &str) {
    let a = find(c, from_css).await;
    let b = find(c, to_css).await;
    c.perform_actions(
        MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: a.clone(),
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveToElement {
                element: a,
                duration: Some(Duration::from_millis(50)),
                x: 12.0,
                y: 6.0,
            })
            .then(PointerAction::MoveToElement {
                element: b,
                duration: Some(Duration::from_millis(250)),
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            }),
    )
    .await
    .expect("the mouse drags");
}

/// Whether what is drawn at the centre of `css` belongs to it (nothing covers it) and it lies
/// inside the viewport.
pub async fn seen_whole(c: &Client, css: &str) -> Value {
    js(
        c,
        &format!(
            "const e = document.querySelector({css:?}); if (!e || !e.getClientRects().length) return 'not shown';
             const r = e.getBoundingClientRect();
             if (r.left < 0 || r.right > innerWidth + 0.5) return 'outside the width: ' + r.left + '..' + r.right;
             e.scrollIntoView({{block: 'center'}});
             const s = e.getBoundingClientRect();
             const top = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
             return top && (e === top || e.contains(top)) ? true : 'covered by ' + (top ? top.outerHTML.slice(0, 80) : 'nothing');"
        ),
    )
    .await
}

/// POSTs `body` to `path` without a session; fails unless the server accepts it. Its JSON.
pub async fn post(rig: &Rig, path: &str, body: Value) -> Value {
    let res = reqwest::Client::new()
        .post(rig.url(path))
        .json(&body)
        .send()
        .await
        .expect("the request is sent");
    assert!(res.status().is_success(), "{path}: {}", res.status());
    res.json().await.expect("a JSON answer")
}

/// Black's seat in the game `id` that page `c` (White) has just created with an invitation:
/// the invitation code the page kept, then Black's token from joining through the API.
pub async fn join_as_black(rig: &Rig, c: &Client, id: &str) -> (String, String) {
    let invite = js(
        c,
        &format!("return JSON.parse(localStorage.getItem('emergo.invite.{id}'))"),
    )
    .await
    .as_str()
    .expect("the invitation code kept")
    .to_string();
    let grant = post(
        rig,
        &format!("/api/games/{id}/join"),
        json!({ "invite": invite }),
    )
    .await;
    let token = grant["token"].as_str().expect("Black's token").to_string();
    (token, invite)
}
