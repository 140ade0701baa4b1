//! The harness of the server's tests: a server on an ephemeral loopback port over a database
//! of its own, on the backend that `EMERGO_TEST_BACKEND` names (`sqlite`, the default, or
//! `postgres`: a new database on the server `EMERGO_TEST_PG_URL` names, which
//! scripts/pg-test-cluster.sh starts), signed-in clients ([`User`]) and shared fixtures.
#![allow(dead_code)]

use emergo_server::{Config, Server};
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

mod client;
mod fixtures;
mod shuffle;
pub use client::*;
pub use fixtures::*;
pub use shuffle::shuffling_game;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The database the tests run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// Its name, as `EMERGO_TEST_BACKEND` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// The backend of this run: `EMERGO_TEST_BACKEND` (`sqlite` when unset).
pub fn backend() -> Backend {
    match std::env::var("EMERGO_TEST_BACKEND").as_deref() {
        Err(_) | Ok("") | Ok("sqlite") => Backend::Sqlite,
        Ok("postgres") => Backend::Postgres,
        Ok(other) => panic!("EMERGO_TEST_BACKEND={other}: it is sqlite or postgres"),
    }
}

/// The PostgreSQL server of this run (`EMERGO_TEST_PG_URL`) when the backend is `postgres`.
pub fn pg_server() -> Option<String> {
    if backend() != Backend::Postgres {
        return None;
    }
    let url = std::env::var("EMERGO_TEST_PG_URL")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "EMERGO_TEST_BACKEND=postgres needs EMERGO_TEST_PG_URL: run the tests under \
             scripts/pg-test-cluster.sh",
        );
    Some(url)
}

/// True (and says so) when this run's backend is not `only`: the test returns at once. For the
/// tests that mean something on one backend only (each module says which, and why).
pub fn skip_unless(only: Backend) -> bool {
    let skip = backend() != only;
    if skip {
        eprintln!(
            "skipped: this test runs with EMERGO_TEST_BACKEND={} only",
            only.name()
        );
    }
    skip
}

/// A fresh database for one test (or for several servers of one test): a temporary directory,
/// removed when the last holder drops it, and the URL of a new database on this run's backend
/// (a SQLite file in that directory, or a new PostgreSQL database).
pub struct TestDb {
    dir: tempfile::TempDir,
    url: String,
}

impl TestDb {
    /// A new database on this run's backend.
    pub fn new() -> Arc<TestDb> {
        let dir = temp_dir();
        let url = match pg_server() {
            Some(server) => fresh_pg_database(&server),
            None => sqlite_url(dir.path(), "emergo-test.db"),
        };
        Arc::new(TestDb { dir, url })
    }

    /// A new SQLite database, whatever the backend of the run.
    pub fn sqlite() -> Arc<TestDb> {
        let dir = temp_dir();
        let url = sqlite_url(dir.path(), "emergo-test.db");
        Arc::new(TestDb { dir, url })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// The temporary directory, for other files of the test (another SQLite database).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir")
}

/// The URL of the SQLite file `name` in `dir`.
pub fn sqlite_url(dir: &Path, name: &str) -> String {
    format!("sqlite://{}", dir.join(name).display())
}

/// Creates an empty database on `server` (a URL) and returns its URL.
pub fn fresh_pg_database(server: &str) -> String {
    use sqlx::Connection as _;
    static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let name = format!("emergo_test_{}_{n}_{nanos}", std::process::id());
    let server = server.to_string();
    let create = format!("CREATE DATABASE {name}");
    // Its own runtime on its own thread: the callers are async tests.
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let mut conn = sqlx::PgConnection::connect(&server)
                .await
                .expect("the test PostgreSQL server answers");
            sqlx::query(&create)
                .execute(&mut conn)
                .await
                .expect("a new database");
            let _ = conn.close().await;
        });
        let mut url = reqwest::Url::parse(&server).expect("a URL");
        url.set_path(&name);
        url.to_string()
    })
    .join()
    .expect("the database is made")
}

type Change = Box<dyn FnOnce(&mut Config) + Send>;

/// How a [`TestServer`] starts: on a database of its own unless [`Builder::db`] names one (a
/// restart, or several instances over one database), with the tests' configuration (two engine
/// workers, relaxed limits) changed by [`Builder::clock`] and [`Builder::config`] in order.
#[must_use]
pub struct Builder {
    db: Option<Arc<TestDb>>,
    changes: Vec<Change>,
}

impl Builder {
    /// Runs on `db` (shared with other servers of the test, or kept across a restart).
    pub fn db(mut self, db: &Arc<TestDb>) -> Builder {
        self.db = Some(db.clone());
        self
    }

    /// Game clocks read `clock` (a manual clock in the tests of clocks).
    pub fn clock(self, clock: emergo_server::clock::Clock) -> Builder {
        self.config(move |config| config.clock = clock)
    }

    /// The configuration changed by `change`.
    pub fn config(mut self, change: impl FnOnce(&mut Config) + Send + 'static) -> Builder {
        self.changes.push(Box::new(change));
        self
    }

    pub async fn start(self) -> TestServer {
        let db = self.db.unwrap_or_else(TestDb::new);
        let mut config = Config::new("127.0.0.1:0".parse().expect("addr"), db.url());
        config.engine_workers = Some(2);
        config.limits = emergo_server::Limits::relaxed();
        for change in self.changes {
            change(&mut config);
        }
        let server = Server::start(config).await.expect("server starts");
        let base = format!("http://{}", server.addr());
        TestServer {
            server,
            base,
            client: reqwest::Client::new(),
            db,
        }
    }
}

/// A server of the tests and a plain client for it; it holds its database.
pub struct TestServer {
    pub server: Server,
    pub base: String,
    pub client: reqwest::Client,
    pub db: Arc<TestDb>,
}

impl TestServer {
    pub fn builder() -> Builder {
        Builder {
            db: None,
            changes: Vec::new(),
        }
    }

    /// A server with the tests' configuration on a new database.
    pub async fn start() -> TestServer {
        TestServer::builder().start().await
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let res = self
            .client
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .expect("request sent");
        let status = res.status();
        (status, res.json().await.expect("a JSON answer"))
    }

    pub async fn post_raw(
        &self,
        path: &str,
        content_type: &str,
        body: &str,
    ) -> (StatusCode, Value) {
        let res = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", content_type)
            .body(body.to_string())
            .send()
            .await
            .expect("request sent");
        let status = res.status();
        (status, res.json().await.expect("a JSON answer"))
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let res = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("request sent");
        let status = res.status();
        (status, res.json().await.expect("a JSON answer"))
    }

    pub async fn get_text(&self, path: &str) -> (StatusCode, String, String) {
        let res = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("request sent");
        let status = res.status();
        let ctype = res
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        (status, ctype, res.text().await.expect("text"))
    }

    pub async fn game(&self, id: &str) -> Value {
        let (status, game) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{game}");
        game
    }

    /// Creates a game; returns the seat grant.
    pub async fn create(&self, body: Value) -> Value {
        let (status, grant) = self.post("/api/games", body).await;
        assert_eq!(status, StatusCode::CREATED, "{grant}");
        grant
    }

    /// A game between people with both seats taken: (grant of White, grant of Black).
    pub async fn human_game(&self) -> (Value, Value) {
        self.human_game_with(json!({})).await
    }

    /// A game between people made with `settings` (`time`, `variant`… beside `mode` and
    /// `color`), Black's seat taken through the invitation: (White's grant, Black's grant).
    pub async fn human_game_with(&self, settings: Value) -> (Value, Value) {
        let mut body = json!({"mode": "human", "color": "white"});
        for (key, value) in settings.as_object().expect("settings are an object") {
            body[key] = value.clone();
        }
        let white = self.create(body).await;
        let id = white["game"]["id"].as_str().expect("id").to_string();
        let (status, black) = self
            .post(
                &format!("/api/games/{id}/join"),
                json!({"invite": white["invite"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{black}");
        (white, black)
    }

    /// Plays a move; returns the status and answer.
    pub async fn play(&self, id: &str, token: &Value, ply: i64, mv: &str) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({"token": token, "ply": ply, "move": mv}),
        )
        .await
    }

    /// A game's WebSocket, whose deltas [`next_state`] joins into whole views.
    pub async fn socket(&self, id: &str) -> GameSocket {
        let url = format!("ws://{}/api/games/{id}/ws", self.server.addr());
        let (socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("WebSocket opens");
        GameSocket { socket, held: None }
    }

    pub async fn stop(self) {
        self.server.shutdown().await.expect("clean shutdown");
    }
}

/// A game's WebSocket and the whole view its states make: each state after the first is a
/// delta (docs/api.md), joined to the view held (a delta that does not join fails the test).
pub struct GameSocket {
    pub socket: Socket,
    pub held: Option<Value>,
}

/// What [`next_state`] reads states from: a game's WebSocket (whole views, deltas joined) or
/// a bare one (each state as it comes).
pub trait States {
    fn next_game(&mut self) -> impl std::future::Future<Output = Value> + Send;
}

impl States for Socket {
    async fn next_game(&mut self) -> Value {
        raw_state(self).await
    }
}

impl States for GameSocket {
    async fn next_game(&mut self) -> Value {
        let state = raw_state(&mut self.socket).await;
        let whole = match &self.held {
            _ if state["from"] == 0 => state,
            Some(held) => join(held, &state).unwrap_or_else(|| {
                panic!("a delta that does not join the view held: {state} after {held}")
            }),
            None => panic!("a first state that is not whole: {state}"),
        };
        self.held = Some(whole.clone());
        whole
    }
}

/// The whole view from `held` (a whole view) and `delta` (a view paged from `delta.from`):
/// `None` when `held` is not the same game up to that ply (the JS of the page does the same,
/// assets/js/paging.mjs).
pub fn join(held: &Value, delta: &Value) -> Option<Value> {
    let from = delta["from"].as_u64()? as usize;
    if from == 0 {
        return Some(delta.clone());
    }
    if held["id"] != delta["id"] || held["from"] != 0 || held["ply"].as_u64()? < from as u64 {
        return None;
    }
    if held["positions"][from] != delta["positions"][0] {
        return None;
    }
    let mut whole = delta.clone();
    whole["from"] = json!(0);
    for key in ["moves", "history", "positions", "boards"] {
        let mut list = held[key].as_array()?[..from].to_vec();
        list.extend(delta[key].as_array()?.iter().cloned());
        whole[key] = Value::Array(list);
    }
    Some(whole)
}

/// The next state the socket receives (within 20 s): from a game's socket, the whole view.
pub async fn next_state(socket: &mut impl States) -> Value {
    socket.next_game().await
}

/// The text of the next message of a WebSocket (within 20 s), past the spectators' counts.
pub async fn next_text(socket: &mut Socket) -> String {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .expect("a message within 20 s")
            .expect("the socket is open")
            .expect("a good frame");
        if let Message::Text(text) = msg {
            // The spectators' count and the chat (issue 18) come between states.
            if text.as_str().starts_with(r#"{"type":"watchers""#)
                || text.as_str().starts_with(r#"{"type":"chat""#)
            {
                continue;
            }
            return text.as_str().to_string();
        }
    }
}

/// The next state message as it comes (within 20 s).
async fn raw_state(socket: &mut Socket) -> Value {
    let value: Value = serde_json::from_str(&next_text(socket).await).expect("JSON");
    assert_eq!(value["type"], "state");
    value["game"].clone()
}

/// Reads states until one satisfies `done`; returns it.
pub async fn state_where(socket: &mut impl States, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let game = next_state(socket).await;
        if done(&game) {
            return game;
        }
    }
}

/// The id of a game in a seat grant.
pub fn id_of(grant: &Value) -> String {
    grant["game"]["id"].as_str().expect("id").to_string()
}

/// The first legal move of a view.
pub fn first_legal(game: &Value) -> String {
    game["legal_moves"][0]
        .as_str()
        .expect("a legal move")
        .to_string()
}

/// The record of [`shuffling_game`].
pub fn shuffling_record(plies: usize) -> String {
    emergo_core::record::write_game(&shuffling_game(plies), &[])
}
