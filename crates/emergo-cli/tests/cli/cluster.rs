//! The cluster (issue 10): PostgreSQL, three `emergo serve` instances that run no engine
//! (`--engine-threads 0`) and two `emergo worker` processes, as real processes on loopback.
//! A game between people with each player on a different instance and a spectator on the third;
//! races of one ply sent to every instance (exactly one accepted, every time); engine games on
//! every instance; `kill -9` of a worker while it searches (its job is taken again and the reply
//! played exactly once) and of an instance while people move on it (every acknowledged move is
//! in the database, the players' WebSockets catch up); PostgreSQL stopped and started under the
//! cluster (quick answers during the outage, everything works again after). PostgreSQL only: runs
//! when EMERGO_TEST_BACKEND=postgres and EMERGO_TEST_PG_URL names a server (the second run of
//! scripts/test.sh), returns at once otherwise; every wait is bounded.

use futures_util::StreamExt;
use serde_json::{json, Value};
use sqlx::{Connection, PgPool};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The longest any single wait of this test may take.
const WAIT: Duration = Duration::from_secs(20);

/// A started process, killed (SIGKILL) when dropped, with what it printed first.
struct Proc {
    child: Child,
    /// The URL an instance prints, or the name a worker holds its leases under.
    said: String,
}

impl Proc {
    fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// Starts `emergo <args>` with its log in `log`; waits (bounded) for the line that says it is
/// ready and returns the word of that line that `pick` chooses.
fn start(args: &[&str], log: &std::path::Path, pick: fn(&str) -> Option<String>) -> Proc {
    let stderr = std::fs::File::create(log).expect("a log file");
    let mut child = Command::new(env!("CARGO_BIN_EXE_emergo"))
        .args(args)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("emergo starts");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (said, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if let Some(word) = pick(&line) {
                let _ = said.send(word);
            }
        }
    });
    match heard.recv_timeout(WAIT) {
        Ok(said) => Proc { child, said },
        Err(_) => {
            let _ = child.kill();
            let log = std::fs::read_to_string(log).unwrap_or_default();
            panic!("emergo {args:?} did not get ready:\n{log}");
        }
    }
}

fn instance(db: &str, log: &std::path::Path) -> Proc {
    let args = [
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        db,
        "--engine-threads",
        "0",
        "--games-burst",
        "1000",
        "--games-every-ms",
        "1",
    ];
    start(&args, log, |line| {
        let url = line.split_whitespace().find(|w| w.starts_with("http://"))?;
        Some(url.trim_end_matches('/').to_string())
    })
}

fn worker(db: &str, log: &std::path::Path) -> Proc {
    start(&["worker", "--db", db, "--threads", "1"], log, |line| {
        // "Engine worker worker-123-abcd ready: 1 threads"
        let name = line.split_whitespace().find(|w| w.starts_with("worker-"))?;
        Some(name.to_string())
    })
}

/// A fresh database on the test server, named after this run.
async fn fresh_database(server: &str) -> String {
    let mut bytes = [0u8; 4];
    random_bytes(&mut bytes);
    let name = format!(
        "cluster_{}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let mut conn = sqlx::PgConnection::connect(server)
        .await
        .expect("the test PostgreSQL server answers");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .expect("a new database");
    let _ = conn.close().await;
    let (base, _) = server.rsplit_once('/').expect("a database URL");
    format!("{base}/{name}")
}

/// Some randomness without a dependency: the clock's nanoseconds and the process id.
fn random_bytes(bytes: &mut [u8]) {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ u64::from(std::process::id()) << 32;
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (seed >> (8 * (i % 8))) as u8;
    }
}

/// The test's PostgreSQL server, to stop and start (scripts/pg-test-cluster.sh names its data
/// directory and binaries; as root it runs as the unprivileged user that owns the data).
struct PgControl {
    bin: String,
    data: String,
}

impl PgControl {
    fn from_env() -> Option<PgControl> {
        let var = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
        Some(PgControl {
            bin: var("EMERGO_TEST_PG_BIN")?,
            data: var("EMERGO_TEST_PG_DATA")?,
        })
    }

    /// `pg_ctl stop` (fast) or `pg_ctl restart` (which, with the server stopped, starts it with
    /// the options it last ran with).
    fn run(&self, action: &str) {
        let pg_ctl = format!("{}/pg_ctl", self.bin);
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        let mut command = if root {
            let mut c = Command::new("runuser");
            c.args(["-u", "emergo-pg", "--", &pg_ctl]);
            c
        } else {
            Command::new(&pg_ctl)
        };
        let log = format!("{}/../restart.log", self.data);
        let output = command
            .args([
                "-D", &self.data, "-m", "fast", "-w", "-t", "30", "-l", &log, action,
            ])
            .output()
            .expect("pg_ctl runs");
        let said = String::from_utf8_lossy(&output.stderr);
        // `restart` of a stopped server says so on stderr and starts it anyway.
        assert!(output.status.success(), "pg_ctl {action}: {said}");
    }
}

struct Api {
    http: reqwest::Client,
}

impl Api {
    async fn post(&self, base: &str, path: &str, body: Value) -> reqwest::Result<(u16, Value)> {
        let res = self
            .http
            .post(format!("{base}{path}"))
            .json(&body)
            .send()
            .await?;
        let status = res.status().as_u16();
        Ok((status, res.json().await?))
    }

    async fn get(&self, base: &str, path: &str) -> Value {
        self.http
            .get(format!("{base}{path}"))
            .send()
            .await
            .expect("GET answered")
            .json()
            .await
            .expect("JSON")
    }

    async fn play(&self, base: &str, id: &str, token: &Value, game: &Value) -> (u16, Value) {
        let body = json!({"token": token, "ply": game["ply"], "move": first_legal(game)});
        self.post(base, &format!("/api/games/{id}/moves"), body)
            .await
            .expect("the move is answered")
    }

    /// Polls `base` until the game satisfies `done` (bounded).
    async fn game_where(&self, base: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
        let until = Instant::now() + WAIT;
        loop {
            let game = self.get(base, &format!("/api/games/{id}")).await;
            if done(&game) {
                return game;
            }
            assert!(Instant::now() < until, "game {id} stuck at {game}");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
}

fn first_legal(game: &Value) -> String {
    game["legal_moves"][0]
        .as_str()
        .unwrap_or_else(|| panic!("a legal move in {game}"))
        .to_string()
}

async fn socket(base: &str, id: &str) -> Socket {
    let url = format!("{}/api/games/{id}/ws", base.replacen("http://", "ws://", 1));
    let (socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("WebSocket opens");
    socket
}

/// Reads states until one satisfies `done` (bounded).
async fn state_where(socket: &mut Socket, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + WAIT;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let msg = tokio::time::timeout(left, socket.next())
            .await
            .expect("the awaited state within the wait")
            .expect("the socket is open")
            .expect("a good frame");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if value["type"] == "state" && done(&value["game"]) {
                return value["game"].clone();
            }
        }
    }
}

async fn stored_moves(db: &PgPool, id: &str) -> Vec<String> {
    sqlx::query_as::<_, (String,)>("SELECT move FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(id)
        .fetch_all(db)
        .await
        .expect("moves read")
        .into_iter()
        .map(|(m,)| m)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_and_two_workers_lose_nothing_and_play_each_reply_once() {
    let postgres = std::env::var("EMERGO_TEST_BACKEND").is_ok_and(|b| b == "postgres");
    let Some(server) = std::env::var("EMERGO_TEST_PG_URL")
        .ok()
        .filter(|u| postgres && !u.is_empty())
    else {
        eprintln!("skipped: the cluster test runs with EMERGO_TEST_BACKEND=postgres and EMERGO_TEST_PG_URL (scripts/pg-test-cluster.sh sets it)");
        return;
    };
    let started = Instant::now();
    let url = fresh_database(&server).await;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let log = |name: &str| dir.path().join(format!("{name}.log"));
    // The first instance migrates the database; the others and the workers find it ready.
    let mut instances = vec![instance(&url, &log("serve0"))];
    instances.push(instance(&url, &log("serve1")));
    instances.push(instance(&url, &log("serve2")));
    let mut workers = [worker(&url, &log("worker0")), worker(&url, &log("worker1"))];
    let bases: Vec<String> = instances.iter().map(|p| p.said.clone()).collect();
    let db = PgPool::connect(&url).await.expect("the test connects");
    let api = Api {
        http: reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .expect("client"),
    };

    // 1. People: White on instance 0, Black on instance 1, a spectator on instance 2.
    let (status, white) = api
        .post(
            &bases[0],
            "/api/games",
            json!({"mode": "human", "color": "white"}),
        )
        .await
        .expect("create");
    assert_eq!(status, 201, "{white}");
    let id = white["game"]["id"].as_str().expect("id").to_string();
    let mut spectator = socket(&bases[2], &id).await;
    let (status, black) = api
        .post(
            &bases[1],
            &format!("/api/games/{id}/join"),
            json!({"invite": white["invite"]}),
        )
        .await
        .expect("join");
    assert_eq!(status, 200, "{black}");
    let tokens = [white["token"].clone(), black["token"].clone()];
    let mut game = black["game"].clone();
    for ply in 0..6usize {
        let (status, answer) = api
            .play(&bases[ply % 2], &id, &tokens[ply % 2], &game)
            .await;
        assert_eq!(status, 200, "ply {ply}: {answer}");
        let seen = state_where(&mut spectator, |g| g["ply"] == ply + 1).await;
        assert_eq!(seen["moves"], answer["moves"]);
        game = answer;
    }

    // 2. Races: the side to move sends its move for one ply to all three instances at once.
    for round in 0..8usize {
        let ply = game["ply"].as_u64().expect("ply") as usize;
        let token = &tokens[ply % 2];
        let (a, b, c) = tokio::join!(
            api.play(&bases[0], &id, token, &game),
            api.play(&bases[1], &id, token, &game),
            api.play(&bases[2], &id, token, &game)
        );
        let answers = [a, b, c];
        let accepted: Vec<&Value> = answers
            .iter()
            .filter(|(s, _)| *s == 200)
            .map(|(_, v)| v)
            .collect();
        assert_eq!(accepted.len(), 1, "round {round}: {answers:?}");
        for (status, answer) in &answers {
            assert!(
                *status == 200 || answer["error"] == "stale_ply",
                "round {round}: {answer}"
            );
        }
        game = accepted[0].clone();
        assert_eq!(stored_moves(&db, &id).await.len(), ply + 1, "round {round}");
    }
    let seen = state_where(&mut spectator, |g| g["ply"] == game["ply"]).await;
    assert_eq!(seen["moves"], game["moves"]);

    // 3. Engine games on every instance: the person moves on the game's instance, the reply
    //    (played by a worker) is seen on another.
    let mut engine_games = Vec::new();
    for (i, base) in bases.iter().enumerate() {
        let (status, grant) = api
            .post(
                base,
                "/api/games",
                json!({"mode": "engine", "color": "white", "level": 1}),
            )
            .await
            .expect("create");
        assert_eq!(status, 201, "{grant}");
        engine_games.push((i, grant));
    }
    let rounds = engine_games.iter().map(|(i, grant)| {
        let api = &api;
        let bases = &bases;
        async move {
            let id = grant["game"]["id"].as_str().expect("id").to_string();
            let mut game = grant["game"].clone();
            for _ in 0..3 {
                let (status, answer) = api.play(&bases[*i], &id, &grant["token"], &game).await;
                assert_eq!(status, 200, "{answer}");
                let ply = answer["ply"].as_u64().expect("ply");
                game = api
                    .game_where(&bases[(i + 1) % 3], &id, |g| g["ply"] == ply + 1)
                    .await;
            }
            id
        }
    });
    let mut engine_ids: Vec<String> = futures_util::future::join_all(rounds).await;

    // 4. kill -9 of a worker while it searches: level 10 thinks 2 s, the engine moves first,
    //    from a position that the shipped opening book does not hold (two edge entries).
    let (status, grant) = api
        .post(
            &bases[2],
            "/api/games",
            json!({"mode": "engine", "color": "black", "level": 10, "position": "W:11:11:a5=W,i5=B"}),
        )
        .await
        .expect("create");
    assert_eq!(status, 201, "{grant}");
    let slow = grant["game"]["id"].as_str().expect("id").to_string();
    let until = Instant::now() + WAIT;
    let holder = loop {
        let running: Option<(String,)> = sqlx::query_as(
            "SELECT worker FROM engine_jobs WHERE game_id = $1 AND state = 'running'",
        )
        .bind(&slow)
        .fetch_optional(&db)
        .await
        .expect("jobs read");
        if let Some((name,)) = running {
            break name;
        }
        assert!(Instant::now() < until, "no worker took the reply");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    let victim = workers
        .iter()
        .position(|w| w.said == holder)
        .expect("the job is held by one of our workers");
    workers[victim].kill9();
    let killed_at = Instant::now();
    let replied = api.game_where(&bases[0], &slow, |g| g["ply"] == 1).await;
    assert_eq!(replied["turn"], "black");
    eprintln!(
        "a killed worker's reply came {:?} after the kill",
        killed_at.elapsed()
    );
    let (attempts, state): (i32, String) = sqlx::query_as(
        "SELECT attempts, state FROM engine_jobs WHERE game_id = $1 AND kind = 'reply' AND ply = 0",
    )
    .bind(&slow)
    .fetch_one(&db)
    .await
    .expect("the job");
    assert_eq!((attempts, state.as_str()), (2, "done"));
    workers[victim] = worker(&url, &log("worker2"));

    // 5. kill -9 of an instance while people move on it: both players move through instance 1
    //    while it is killed; their WebSockets are on instances 0 and 2 (and one on 1).
    let (status, white) = api
        .post(
            &bases[0],
            "/api/games",
            json!({"mode": "human", "color": "white"}),
        )
        .await
        .expect("create");
    assert_eq!(status, 201, "{white}");
    let id = white["game"]["id"].as_str().expect("id").to_string();
    let (status, black) = api
        .post(
            &bases[2],
            &format!("/api/games/{id}/join"),
            json!({"invite": white["invite"]}),
        )
        .await
        .expect("join");
    assert_eq!(status, 200, "{black}");
    let tokens = [white["token"].clone(), black["token"].clone()];
    let mut white_socket = socket(&bases[0], &id).await;
    let mut black_socket = socket(&bases[2], &id).await;
    let mut doomed_socket = socket(&bases[1], &id).await;
    let mover = {
        let (base, id, tokens) = (bases[1].clone(), id.clone(), tokens.clone());
        let mut game = black["game"].clone();
        tokio::spawn(async move {
            let api = Api {
                http: reqwest::Client::builder()
                    .timeout(Duration::from_secs(5))
                    .build()
                    .expect("client"),
            };
            let mut acknowledged = Vec::new();
            let until = Instant::now() + WAIT;
            while Instant::now() < until && game["status"] == "ongoing" {
                tokio::time::sleep(Duration::from_millis(20)).await;
                let ply = game["ply"].as_u64().expect("ply") as usize;
                let body =
                    json!({"token": tokens[ply % 2], "ply": ply, "move": first_legal(&game)});
                match api
                    .post(&base, &format!("/api/games/{id}/moves"), body)
                    .await
                {
                    Ok((200, answer)) => {
                        acknowledged.push((ply, first_legal(&game)));
                        game = answer;
                    }
                    Ok((status, answer)) => panic!("ply {ply}: {status} {answer}"),
                    // The instance is gone: this move may or may not be stored.
                    Err(_) => break,
                }
            }
            acknowledged
        })
    };
    tokio::time::sleep(Duration::from_millis(400)).await;
    instances[1].kill9();
    let acknowledged = mover.await.expect("the mover ends");
    assert!(
        acknowledged.len() >= 2,
        "only {acknowledged:?} before the kill"
    );
    let stored = stored_moves(&db, &id).await;
    for (ply, mv) in &acknowledged {
        assert_eq!(stored.get(*ply), Some(mv), "acknowledged move at ply {ply}");
    }
    assert!(stored.len() <= acknowledged.len() + 1, "{stored:?}");
    // The players' WebSockets on the living instances catch up with what is stored.
    let now_at = stored.len();
    state_where(&mut white_socket, |g| g["ply"] == now_at).await;
    state_where(&mut black_socket, |g| g["ply"] == now_at).await;
    // The socket on the killed instance ends; the page opens another and gets the game.
    let until = Instant::now() + WAIT;
    loop {
        match tokio::time::timeout(
            until.saturating_duration_since(Instant::now()),
            doomed_socket.next(),
        )
        .await
        {
            Ok(Some(Ok(Message::Close(_))) | Some(Err(_)) | None) => break,
            Ok(Some(Ok(_))) => continue,
            Err(_) => panic!("the socket on the killed instance stayed open"),
        }
    }
    let mut reopened = socket(&bases[0], &id).await;
    let game = state_where(&mut reopened, |g| g["ply"] == now_at).await;
    // Play goes on on the other instances, and reaches both players.
    let (status, answer) = api.play(&bases[2], &id, &tokens[now_at % 2], &game).await;
    assert_eq!(status, 200, "{answer}");
    state_where(&mut white_socket, |g| g["ply"] == now_at + 1).await;
    state_where(&mut reopened, |g| g["ply"] == now_at + 1).await;

    // 6. PostgreSQL restarted under the cluster (stop, wait, start): requests during the outage
    //    are answered quickly, and afterwards instances and workers work again by themselves
    //    (their LISTEN included): moves, live updates and engine replies.
    if let Some(pg) = PgControl::from_env() {
        let game = api.get(&bases[2], &format!("/api/games/{id}")).await;
        let at = game["ply"].as_u64().expect("ply") as usize;
        pg.run("stop");
        let asked = Instant::now();
        let during = api
            .post(
                &bases[0],
                &format!("/api/games/{id}/moves"),
                json!({"token": tokens[at % 2], "ply": at, "move": first_legal(&game)}),
            )
            .await;
        let took = asked.elapsed();
        match &during {
            Ok((status, answer)) => {
                assert!(
                    *status >= 500,
                    "a move with the database down: {status} {answer}"
                );
                assert!(answer["error"].is_string(), "{answer}");
            }
            Err(err) => panic!("a move with the database down got no JSON answer: {err}"),
        }
        assert!(took < Duration::from_secs(5), "the answer took {took:?}");
        eprintln!(
            "a move with PostgreSQL down was answered {:?} in {took:?}",
            during.as_ref().map(|(s, _)| s)
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
        pg.run("restart");
        let restarted = Instant::now();
        // A move goes through again (bounded), and reaches the socket on another instance.
        let until = Instant::now() + WAIT;
        let answer = loop {
            let (status, answer) = api.play(&bases[0], &id, &tokens[at % 2], &game).await;
            if status == 200 {
                break answer;
            }
            assert!(
                Instant::now() < until,
                "no move after the restart: {answer}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        eprintln!(
            "after the restart, a move went through in {:?}",
            restarted.elapsed()
        );
        let seen = state_where(&mut black_socket, |g| g["ply"] == at + 1).await;
        assert_eq!(seen["moves"], answer["moves"]);
        // The workers answer an engine game again.
        let (status, grant) = api
            .post(
                &bases[2],
                "/api/games",
                json!({"mode": "engine", "color": "black", "level": 1}),
            )
            .await
            .expect("create");
        assert_eq!(status, 201, "{grant}");
        let after = grant["game"]["id"].as_str().expect("id").to_string();
        api.game_where(&bases[0], &after, |g| g["ply"] == 1).await;
        engine_ids.push(after);
    } else {
        eprintln!("PostgreSQL restart skipped: EMERGO_TEST_PG_DATA / EMERGO_TEST_PG_BIN not set");
    }

    // 7. Every engine game got each reply exactly once.
    for id in engine_ids.iter().chain([&slow]) {
        let moves = stored_moves(&db, id).await;
        let ply: (i64,) = sqlx::query_as("SELECT ply FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&db)
            .await
            .expect("game");
        assert_eq!(moves.len() as i64, ply.0, "game {id}");
    }
    let twice: Vec<(String, i64)> = sqlx::query_as(
        "SELECT game_id, ply FROM engine_jobs WHERE kind = 'reply' AND state = 'done'
         GROUP BY game_id, ply HAVING count(*) > 1",
    )
    .fetch_all(&db)
    .await
    .expect("jobs read");
    assert!(twice.is_empty(), "replies played twice: {twice:?}");

    // The figure: a job's wait from queued to picked.
    let latency: (Option<f64>, Option<f64>, i64) = sqlx::query_as(
        "SELECT
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM picked_at - queued_at)) * 1000)::FLOAT8,
            (percentile_cont(0.99) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM picked_at - queued_at)) * 1000)::FLOAT8,
            count(*)
         FROM engine_jobs WHERE picked_at IS NOT NULL",
    )
    .fetch_one(&db)
    .await
    .expect("latency");
    eprintln!(
        "engine jobs: queued -> picked median {:.1} ms, p99 {:.1} ms over {} jobs; the cluster test took {:?}",
        latency.0.unwrap_or(f64::NAN),
        latency.1.unwrap_or(f64::NAN),
        latency.2,
        started.elapsed()
    );
    db.close().await;
}

/// A signed-up account on the cluster: its session cookie.
struct Account {
    name: String,
    cookie: String,
}

impl Account {
    async fn sign_up(http: &reqwest::Client, base: &str, name: &str) -> Account {
        let res = http
            .post(format!("{base}/api/accounts"))
            .json(&json!({"name": name, "password": "password-of-test"}))
            .send()
            .await
            .expect("sign up");
        assert_eq!(res.status().as_u16(), 201, "sign up {name}");
        let cookie = res.headers()["set-cookie"]
            .to_str()
            .expect("text")
            .split(';')
            .next()
            .expect("a cookie")
            .to_string();
        Account {
            name: name.to_string(),
            cookie,
        }
    }

    async fn post(
        &self,
        http: &reqwest::Client,
        base: &str,
        path: &str,
        body: Value,
    ) -> (u16, Value) {
        let res = http
            .post(format!("{base}{path}"))
            .header("cookie", &self.cookie)
            .json(&body)
            .send()
            .await
            .expect("answered");
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }
}

/// Issue 23: a round robin of four across two instances, one of them killed (SIGKILL) in the
/// middle of the first round and started again in the middle of the second: every round is
/// paired exactly once (both instances look at it each second; the compare-and-set on the
/// round lets one store it), nothing is lost, and the tournament ends with each pair met once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_on_two_instances_survives_a_killed_instance_and_pairs_each_round_once() {
    let postgres = std::env::var("EMERGO_TEST_BACKEND").is_ok_and(|b| b == "postgres");
    let Some(server) = std::env::var("EMERGO_TEST_PG_URL")
        .ok()
        .filter(|u| postgres && !u.is_empty())
    else {
        eprintln!("skipped: runs with EMERGO_TEST_BACKEND=postgres and EMERGO_TEST_PG_URL");
        return;
    };
    let url = fresh_database(&server).await;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let log = |name: &str| dir.path().join(format!("{name}.log"));
    let mut a = instance(&url, &log("t-serve0"));
    let b = instance(&url, &log("t-serve1"));
    let (base_a, base_b) = (a.said.clone(), b.said.clone());
    let db = PgPool::connect(&url).await.expect("the test connects");
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client");

    let organiser = Account::sign_up(&http, &base_a, "organiser").await;
    let (status, t) = organiser
        .post(
            &http,
            &base_a,
            "/api/tournaments",
            json!({"name": "Two instances", "format": "roundrobin", "time": "5+3",
                   "games_per_pairing": 1}),
        )
        .await;
    assert_eq!(status, 201, "{t}");
    let id = t["id"].as_str().expect("id").to_string();
    let mut players = Vec::new();
    for (i, name) in ["pl1", "pl2", "pl3", "pl4"].into_iter().enumerate() {
        let base = if i % 2 == 0 { &base_a } else { &base_b };
        let p = Account::sign_up(&http, base, name).await;
        let (status, joined) = p
            .post(
                &http,
                base,
                &format!("/api/tournaments/{id}/join"),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{joined}");
        players.push(p);
    }
    let (status, started) = organiser
        .post(
            &http,
            &base_b,
            &format!("/api/tournaments/{id}/start"),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{started}");

    // Plays `game` on `base`: White and Black one move each, then Black resigns.
    let play = |base: String, game: Value| {
        let http = http.clone();
        let players: Vec<(String, String)> = players
            .iter()
            .map(|p| (p.name.clone(), p.cookie.clone()))
            .collect();
        async move {
            let of = |name: &Value| {
                let (name, cookie) = players
                    .iter()
                    .find(|(n, _)| name == n.as_str())
                    .expect("a player")
                    .clone();
                Account { name, cookie }
            };
            let (white, black) = (of(&game["white"]), of(&game["black"]));
            let id = game["id"].as_str().expect("id").to_string();
            let mut view: Value = http
                .get(format!("{base}/api/games/{id}"))
                .send()
                .await
                .expect("the game")
                .json()
                .await
                .expect("JSON");
            for (ply, who) in [&white, &black].into_iter().enumerate() {
                let body = json!({"ply": ply, "move": first_legal(&view)});
                let (status, next) = who
                    .post(&http, &base, &format!("/api/games/{id}/moves"), body)
                    .await;
                assert_eq!(status, 200, "{next}");
                view = next;
            }
            let (status, view) = black
                .post(&http, &base, &format!("/api/games/{id}/resign"), json!({}))
                .await;
            assert_eq!(status, 200, "{view}");
        }
    };
    // The round's games once paired, read from `base` (bounded wait).
    let round_games = |base: String, round: i64| {
        let http = http.clone();
        let id = id.clone();
        async move {
            let until = Instant::now() + WAIT;
            loop {
                let t: Value = http
                    .get(format!("{base}/api/tournaments/{id}"))
                    .send()
                    .await
                    .expect("the tournament")
                    .json()
                    .await
                    .expect("JSON");
                let games: Vec<Value> = t["games"]
                    .as_array()
                    .map(|g| g.iter().filter(|g| g["round"] == round).cloned().collect())
                    .unwrap_or_default();
                if games.len() == 2 {
                    return games;
                }
                assert!(Instant::now() < until, "round {round} not paired: {t}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };

    // Round 1: one game played on A, then A is killed; the other game is played on B.
    let round = round_games(base_b.clone(), 1).await;
    play(base_a.clone(), round[0].clone()).await;
    a.kill9();
    play(base_b.clone(), round[1].clone()).await;
    // Round 2, paired by B alone; A starts again in the middle of it.
    let round = round_games(base_b.clone(), 2).await;
    play(base_b.clone(), round[0].clone()).await;
    let a = instance(&url, &log("t-serve0-again"));
    play(a.said.clone(), round[1].clone()).await;
    // Round 3, with both instances looking again.
    let round = round_games(a.said.clone(), 3).await;
    for game in round {
        play(base_b.clone(), game).await;
    }
    let until = Instant::now() + WAIT;
    let t = loop {
        let t: Value = http
            .get(format!("{}/api/tournaments/{id}", a.said))
            .send()
            .await
            .expect("the tournament")
            .json()
            .await
            .expect("JSON");
        if t["status"] == "finished" {
            break t;
        }
        assert!(Instant::now() < until, "not finished: {t}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // Exactly once: two games a round, six in all, every pair once.
    let per_round: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT round::BIGINT, count(*) FROM tournament_games WHERE tournament_id = $1
         GROUP BY round ORDER BY round",
    )
    .bind(&id)
    .fetch_all(&db)
    .await
    .expect("the rounds");
    assert_eq!(per_round, vec![(1, 2), (2, 2), (3, 2)], "{t}");
    let pairs: std::collections::BTreeSet<(String, String)> = t["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let (w, b) = (
                g["white"].as_str().unwrap_or(""),
                g["black"].as_str().unwrap_or(""),
            );
            (w.min(b).to_string(), w.max(b).to_string())
        })
        .collect();
    assert_eq!(pairs.len(), 6, "{t}");
    let standings = t["standings"].as_array().expect("standings");
    assert!(standings.iter().all(|s| s["games"] == 3), "{t}");
    db.close().await;
}
