//! Load test: many simultaneous games against a server on loopback, people moving and engines
//! replying, bounded in time and count.
//!
//! ```text
//! cargo run --release -p emergo-server --example loadtest -- --games 50 --seconds 30
//! ```
//! Without `--url` it starts its own server (this program again, as a child process, on an
//! ephemeral port over a fresh SQLite file in a temporary directory), so that the server's
//! memory (RSS from /proc) is the server's alone. Reports moves per second, the latency of a
//! person's move (median, p99) while the engines think, the server's memory, every error, and
//! checks afterwards that every acknowledged move is stored.
//!
//! Several instances: `--db postgres://... --instances 3` starts three servers on one
//! PostgreSQL database (`--url` given several times tests running ones). Each game is spread
//! over them: White plays through one instance, Black (or the engine's opponent's watcher)
//! through the next, and the game's WebSocket watches from a third, so that every move is seen
//! on an instance other than the one that accepted it. The delivery time is measured from the
//! move's answer (accepted on instance A) to the WebSocket message on instance B.
//!
//! ```text
//! scripts/pg-test-cluster.sh sh -c 'cargo run --release -p emergo-server --example loadtest -- \
//!     --db "$EMERGO_TEST_PG_URL" --instances 3 --games 1000 --seconds 30'
//! ```
//!
//! Each game's person is a client of its own (connections from 127.0.1.x), as on the Internet.
//! `--abuse` adds an attacker at 127.0.0.2 doing everything issue 8 found harmful at once:
//! imports of records near the tag caps, hint requests dropped at once, level-10 engine games,
//! idle sockets, and a flood of seeks by one account. Its refusals (429, 503) are counted apart, not as errors. Issue 17 taught
//! it more: `--attacks analysis` (or `all`, the default) floods one analysis WebSocket with
//! `--analysis-flood` requests every second, and `--idle-addresses 17` spreads the idle sockets
//! over 17 addresses. A bystander (127.0.0.3) asks for `/healthz` every 100 ms over a new
//! connection each time, in every run.
//! `--long-games 100` imports that many 5,000-ply games and reads each once, then opens 128
//! WebSockets that read nothing and 120 requests never read on one of them, and reports the
//! server's memory (issue 17, item 2); `--abuse` also reads a 5,000-ply game over and over,
//! with WebSockets on it that read nothing and requests whose answers are never read.
//!
//! `--timed 500` plays that many timed games between people at once instead (issue 11): the
//! latency of a move while the clocks run, and how late flag falls are detected.

use clap::Parser;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// The allocator of `emergo serve` (crates/emergo-cli/src/main.rs), for the server started here.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug, Clone)]
struct Args {
    /// Games played at once.
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// How long to play.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Share of the games played against the engine (the rest are between two people).
    #[arg(long, default_value_t = 0.5)]
    engine_share: f64,
    /// Engine levels, chosen at random for each engine game (e.g. "1-4").
    #[arg(long, default_value = "1-5")]
    levels: String,
    /// A person's mean thinking time before a move, in milliseconds.
    #[arg(long, default_value_t = 200)]
    think_ms: u64,
    /// A game is resigned after this many plies, and a new one begins.
    #[arg(long, default_value_t = 120)]
    max_plies: usize,
    /// A running server to test (e.g. http://127.0.0.1:8080); without it, servers are started.
    /// Given several times: instances of one site (on one PostgreSQL database).
    #[arg(long)]
    url: Vec<String>,
    /// The database of the servers started here (default: a fresh SQLite file).
    #[arg(long)]
    db: Option<String>,
    /// Servers started here, on `--db` (several need PostgreSQL).
    #[arg(long, default_value_t = 1)]
    instances: usize,
    /// The process id of the server given by --url, for its memory.
    #[arg(long)]
    pid: Option<u32>,
    /// Engine worker threads of the server started here (default: one per core).
    #[arg(long)]
    engine_threads: Option<usize>,
    /// Open connections (and WebSockets) each server started here allows [default: the
    /// server's, 1000 connections]: a game holds two (its WebSocket and its moves).
    #[arg(long)]
    max_connections: Option<usize>,
    /// Add the abuse mix (an attacker at 127.0.0.2).
    #[arg(long)]
    abuse: bool,
    /// Idle sockets the attacker keeps open.
    #[arg(long, default_value_t = 200)]
    idle_sockets: usize,
    /// The addresses the idle sockets come from (127.0.3.x beside the attacker's own when
    /// more than one; issue 17 found 17 addresses filling the server).
    #[arg(long, default_value_t = 1)]
    idle_addresses: usize,
    /// What the attacker does, of imports, level10, hints, idle, analysis (issue 17: a flood of
    /// requests on one analysis WebSocket), or all.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    attacks: Vec<String>,
    /// Requests the analysis flood sends at once on its one socket, every second.
    #[arg(long, default_value_t = 10_000)]
    analysis_flood: usize,
    /// Instead of playing: open this many WebSockets on one game (each from an address of its
    /// own) and report the server's memory per WebSocket.
    #[arg(long, default_value_t = 0)]
    ws_memory: usize,
    /// Instead of playing: import this many long games (`--long-plies`), each from an address
    /// of its own, read each once, then open `--silent-sockets` WebSockets on one of them that
    /// read nothing and send `--unread-gets` requests for it whose answers are never read;
    /// reports the server's memory (issue 17, item 2).
    #[arg(long, default_value_t = 0)]
    long_games: usize,
    /// The plies of those long games.
    #[arg(long, default_value_t = 5000)]
    long_plies: usize,
    /// WebSockets that read nothing, on one long game (with `--long-games`).
    #[arg(long, default_value_t = 128)]
    silent_sockets: usize,
    /// Requests for a long game whose answers are never read (with `--long-games`).
    #[arg(long, default_value_t = 120)]
    unread_gets: usize,
    /// Instead of playing: this many timed games between people at once, each ending on time.
    #[arg(long, default_value_t = 0)]
    timed: usize,
    /// The time control of the timed games.
    #[arg(long, default_value = "0.25+0")]
    tc: String,
    /// Moves each side plays in a timed game before White lets its flag fall.
    #[arg(long, default_value_t = 8)]
    timed_moves: usize,
    /// Internal: run as the server, until standard input closes.
    #[arg(long, hide = true)]
    serve_db: Option<String>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if let Some(db) = &args.serve_db {
        return serve(db, args.engine_threads, args.max_connections);
    }
    let mut children = Vec::new();
    let mut _dir = None;
    let urls: Vec<String> = if args.url.is_empty() {
        let db = match &args.db {
            Some(db) => db.clone(),
            None => {
                let dir = tempfile::tempdir()?;
                let db = format!("sqlite://{}", dir.path().join("loadtest.db").display());
                _dir = Some(dir);
                db
            }
        };
        anyhow::ensure!(
            args.instances <= 1 || db.starts_with("postgres"),
            "several instances need a PostgreSQL database (--db postgres://...)"
        );
        let mut urls = Vec::new();
        for _ in 0..args.instances.max(1) {
            let (child, url) = spawn_server(&db, args.engine_threads, args.max_connections)?;
            children.push(child);
            urls.push(url);
        }
        urls
    } else {
        args.url
            .iter()
            .map(|u| u.trim_end_matches('/').to_string())
            .collect()
    };
    let pids: Vec<u32> = if children.is_empty() {
        args.pid.into_iter().collect()
    } else {
        children.iter().map(Child::id).collect()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let report = runtime.block_on(run(args.clone(), urls, pids));
    for mut child in children {
        drop(child.stdin.take()); // the server shuts down when its input closes
        let _ = child.wait();
    }
    report
}

/// The server side: `emergo serve` in all but name.
fn serve(
    db: &str,
    engine_threads: Option<usize>,
    max_connections: Option<usize>,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let mut config = emergo_server::Config::new("127.0.0.1:0".parse()?, db);
        config.engine_workers = engine_threads;
        if let Some(n) = max_connections {
            config.limits.connections = n;
            config.limits.websockets = n;
        }
        let server = emergo_server::Server::start(config).await?;
        println!("Open {} in a browser", server.url());
        // Wait for standard input to close, off the runtime.
        tokio::task::spawn_blocking(|| {
            let mut sink = Vec::new();
            let _ = std::io::stdin().read_to_end(&mut sink);
        })
        .await?;
        let mut late = server.state().flags.lateness();
        server.shutdown().await?;
        if !late.is_empty() {
            // How long after each flag fell its loss was stored and published (issue 11).
            late.sort();
            let at = |p: f64| late[((late.len() as f64 - 1.0) * p).round() as usize];
            eprintln!(
                "server: {} flag falls, stored and published after the flag fell: median {} ms, p99 {} ms, max {} ms",
                late.len(),
                at(0.5),
                at(0.99),
                at(1.0)
            );
        }
        Ok(())
    })
}

fn spawn_server(
    db: &str,
    engine_threads: Option<usize>,
    max_connections: Option<usize>,
) -> anyhow::Result<(Child, String)> {
    let mut command = Command::new(std::env::current_exe()?);
    command.args(["--serve-db", db]);
    if let Some(n) = engine_threads {
        command.args(["--engine-threads", &n.to_string()]);
    }
    if let Some(n) = max_connections {
        command.args(["--max-connections", &n.to_string()]);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line)?;
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| anyhow::anyhow!("the server said {line:?}"))?
        .trim_end_matches('/')
        .to_string();
    Ok((child, url))
}

/// What all games report.
#[derive(Default)]
struct Tally {
    person_latency: Vec<Duration>,
    /// When each person's move was sent, from the run's start, beside its latency.
    person_timeline: Vec<(Duration, Duration)>,
    /// A person's move: its answer from one instance → the WebSocket message on another.
    delivery: Vec<Duration>,
    /// The same, from the move's request (what the watcher waits for).
    delivery_from_request: Vec<Duration>,
    /// Deliveries seen on the instance that accepted the move (fewer than 3 instances).
    delivery_same_instance: u64,
    engine_wait: Vec<Duration>,
    /// Replies of level-1 engines.
    level1_wait: Vec<Duration>,
    /// A bystander's `/healthz`, a new connection each time.
    healthz: Vec<Duration>,
    /// What the attacker was answered, by status.
    abuse: BTreeMap<String, u64>,
    person_moves: u64,
    engine_moves: u64,
    games_started: u64,
    games_finished: u64,
    errors: BTreeMap<String, u64>,
    /// Game id → the moves acknowledged (or seen over the WebSocket), in order.
    acknowledged: BTreeMap<String, Vec<String>>,
}

type Shared = Arc<Mutex<Tally>>;

fn error(tally: &Shared, what: String) {
    let mut t = tally.lock().expect("tally");
    *t.errors.entry(what).or_default() += 1;
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

async fn post(client: &reqwest::Client, url: &str, body: Value) -> Result<(u16, Value), String> {
    let res = client
        .post(url)
        .json(&body)
        .send()
        .await
        .map_err(|e| format!("transport: {e}"))?;
    let status = res.status().as_u16();
    let value = res.json().await.map_err(|e| format!("body: {e}"))?;
    Ok((status, value))
}

/// Opens `n` WebSockets on one game and reports the server's memory per WebSocket.
async fn ws_memory(n: usize, url: &str, pid: Option<u32>) -> anyhow::Result<()> {
    let client = reqwest::Client::new();
    let (status, grant) = post(
        &client,
        &format!("{url}/api/games"),
        json!({"mode": "human", "color": "white"}),
    )
    .await
    .map_err(anyhow::Error::msg)?;
    anyhow::ensure!(status == 201, "create: {status} {grant}");
    let id = grant["game"]["id"].as_str().unwrap_or_default().to_string();
    let ws_url = format!("{}/api/games/{id}/ws", url.replacen("http://", "ws://", 1));
    // Warm up (the runtime's threads, the first socket's allocations), then measure.
    let mut sockets = Vec::new();
    for i in 0..10 {
        let mut s = ws_from(person_addr(i), &ws_url)
            .await
            .map_err(anyhow::Error::msg)?;
        next_state(&mut s, Instant::now() + Duration::from_secs(10))
            .await
            .map_err(anyhow::Error::msg)?;
        sockets.push(s);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = pid.and_then(rss_kb);
    for i in 10..10 + n {
        let mut s = ws_from(person_addr(i), &ws_url)
            .await
            .map_err(anyhow::Error::msg)?;
        next_state(&mut s, Instant::now() + Duration::from_secs(10))
            .await
            .map_err(anyhow::Error::msg)?;
        sockets.push(s);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = pid.and_then(rss_kb);
    if let (Some(b), Some(a)) = (before, after) {
        println!(
            "{n} WebSockets on one game: server RSS {:.1} -> {:.1} MiB, {:.1} KiB per WebSocket",
            b as f64 / 1024.0,
            a as f64 / 1024.0,
            (a.saturating_sub(b)) as f64 / n as f64
        );
    }
    Ok(())
}

/// The record of a long game that never ends.
fn long_record(plies: usize) -> String {
    emergo_core::record::write_game(&shuffle::shuffling_game(plies), &[])
}

/// A WebSocket (or TCP connection) from `from` to `to` whose receive buffer is as small as
/// the system allows, so that a client that reads nothing stalls the server's writes at once.
async fn small_buffer_stream(
    from: IpAddr,
    to: SocketAddr,
) -> Result<tokio::net::TcpStream, String> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
    socket
        .set_recv_buffer_size(4096)
        .map_err(|e| format!("buffer: {e}"))?;
    socket
        .bind(SocketAddr::new(from, 0))
        .map_err(|e| format!("bind: {e}"))?;
    socket
        .connect(to)
        .await
        .map_err(|e| format!("connect: {e}"))
}

/// A WebSocket on `ws_url` that will read nothing after its handshake.
async fn silent_socket(from: IpAddr, to: SocketAddr, ws_url: &str) -> Result<Socket, String> {
    let stream = small_buffer_stream(from, to).await?;
    let (ws, _) =
        tokio_tungstenite::client_async(ws_url, tokio_tungstenite::MaybeTlsStream::Plain(stream))
            .await
            .map_err(|e| format!("websocket: {e}"))?;
    Ok(ws)
}

/// A request for `path` whose answer is never read.
async fn unread_get(
    from: IpAddr,
    to: SocketAddr,
    path: &str,
) -> Result<tokio::net::TcpStream, String> {
    use tokio::io::AsyncWriteExt;
    let mut stream = small_buffer_stream(from, to).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {to}\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    Ok(stream)
}

/// `--long-games`: long games imported and read once each, then silent WebSockets and unread
/// answers on one of them; the server's memory all along (issue 17, item 2).
async fn long_games(args: &Args, url: &str, pid: Option<u32>) -> anyhow::Result<()> {
    let to: SocketAddr = url.trim_start_matches("http://").parse()?;
    let record = long_record(args.long_plies);
    let peak = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let sampling = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = pid.map(|pid| {
        let (peak, sampling) = (peak.clone(), sampling.clone());
        tokio::spawn(async move {
            while sampling.load(std::sync::atomic::Ordering::SeqCst) {
                if let Some(kb) = rss_kb(pid) {
                    peak.fetch_max(kb, std::sync::atomic::Ordering::SeqCst);
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    });
    let rss = || pid.and_then(rss_kb);
    let before = rss();
    let started = Instant::now();
    let mut ids = Vec::new();
    let mut read_bytes = 0usize;
    for i in 0..args.long_games {
        // Each game from an address of its own (new games are rate-limited per client).
        let client = reqwest::Client::builder()
            .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 3, 1 + (i % 250) as u8)))
            .timeout(Duration::from_secs(60))
            .build()?;
        let res = client
            .post(format!("{url}/api/games/import"))
            .body(record.clone())
            .send()
            .await?;
        anyhow::ensure!(res.status() == 201, "import: {}", res.status());
        let imported: Value = res.json().await?;
        let id = imported["id"].as_str().unwrap_or_default().to_string();
        // Read once, whole, as a page opening it does.
        let text = client
            .get(format!("{url}/api/games/{id}"))
            .send()
            .await?
            .text()
            .await?;
        read_bytes += text.len();
        ids.push(id);
    }
    let after_reads = rss();
    let took = started.elapsed();
    println!(
        "{} games of {} plies imported and read once ({:.1} MiB of views) in {:.1} s: server RSS {} -> {} MiB (peak {} MiB)",
        ids.len(),
        args.long_plies,
        read_bytes as f64 / (1 << 20) as f64,
        took.as_secs_f64(),
        mib(before),
        mib(after_reads),
        mib(Some(peak.load(std::sync::atomic::Ordering::SeqCst))),
    );
    let Some(id) = ids.first().cloned() else {
        return Ok(());
    };
    let ws_url = format!("{}/api/games/{id}/ws", url.replacen("http://", "ws://", 1));
    let mut silent = Vec::new();
    for i in 0..args.silent_sockets {
        let from = IpAddr::V4(Ipv4Addr::new(127, 0, 4, 1 + (i % 250) as u8));
        match silent_socket(from, to, &ws_url).await {
            Ok(s) => silent.push(s),
            Err(e) => eprintln!("silent WebSocket {i}: {e}"),
        }
    }
    let mut unread = Vec::new();
    for i in 0..args.unread_gets {
        let from = IpAddr::V4(Ipv4Addr::new(127, 0, 5, 1 + (i % 250) as u8));
        match unread_get(from, to, &format!("/api/games/{id}")).await {
            Ok(s) => unread.push(s),
            Err(e) => eprintln!("unread request {i}: {e}"),
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let with_silent = rss();
    println!(
        "{} WebSockets that read nothing and {} answers never read, on one {}-ply game: server RSS {} MiB (peak so far {} MiB)",
        silent.len(),
        unread.len(),
        args.long_plies,
        mib(with_silent),
        mib(Some(peak.load(std::sync::atomic::Ordering::SeqCst))),
    );
    // The server's write timeout (10 s by default) lets the silent ones go.
    tokio::time::sleep(Duration::from_secs(15)).await;
    let later = rss();
    sampling.store(false, std::sync::atomic::Ordering::SeqCst);
    if let Some(s) = sampler {
        let _ = s.await;
    }
    println!(
        "15 s later: server RSS {} MiB; peak over the run {} MiB",
        mib(later),
        mib(Some(peak.load(std::sync::atomic::Ordering::SeqCst))),
    );
    drop((silent, unread));
    Ok(())
}

/// The resident set size of all the servers, from /proc.
fn rss_all(pids: &[u32]) -> Option<u64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|&p| rss_kb(p)).sum()
}

async fn run(args: Args, urls: Vec<String>, pids: Vec<u32>) -> anyhow::Result<()> {
    let url = urls.first().cloned().unwrap_or_default();
    if args.ws_memory > 0 {
        return ws_memory(args.ws_memory, &url, pids.first().copied()).await;
    }
    if args.long_games > 0 {
        return long_games(&args, &url, pids.first().copied()).await;
    }
    if args.timed > 0 {
        return timed::run(args.timed, &args.tc, args.timed_moves, args.think_ms, &url).await;
    }
    let (lo, hi) = match args.levels.split_once('-') {
        Some((a, b)) => (a.parse::<u8>()?, b.parse::<u8>()?),
        None => {
            let l = args.levels.parse::<u8>()?;
            (l, l)
        }
    };
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(args.games * 2)
        .build()?;
    let tally: Shared = Arc::new(Mutex::new(Tally::default()));
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.seconds);

    // Memory: sampled every 100 ms.
    let rss_samples = Arc::new(Mutex::new(Vec::<u64>::new()));
    let sampler = (!pids.is_empty()).then(|| {
        let samples = rss_samples.clone();
        let pids = pids.clone();
        tokio::spawn(async move {
            while Instant::now() < deadline {
                if let Some(kb) = rss_all(&pids) {
                    samples.lock().expect("samples").push(kb);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    });
    let rss_before = rss_all(&pids);
    let cpu_before: Vec<Option<f64>> = pids.iter().map(|&p| cpu_seconds(p)).collect();
    let own_cpu_before = cpu_seconds(std::process::id());

    let engine_games = (args.games as f64 * args.engine_share).round() as usize;
    let mut tasks = Vec::new();
    if args.abuse {
        tasks.extend(abuse::start(
            url.clone(),
            tally.clone(),
            deadline,
            abuse::Plan {
                idle: args.idle_sockets,
                idle_addresses: args.idle_addresses.max(1),
                attacks: args.attacks.clone(),
                analysis_flood: args.analysis_flood,
            },
        ));
    }
    tasks.push(tokio::spawn(probe_health(
        url.clone(),
        tally.clone(),
        deadline,
    )));
    for i in 0..args.games {
        // Every person is a client of their own.
        let from = person_addr(i);
        // Idle connections are dropped before the server's 10 s header timeout closes them
        // (a request sent as the server closes its connection fails in transport).
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .pool_idle_timeout(Duration::from_secs(5))
            .local_address(from)
            .build()?;
        // White's instance, Black's, and the watcher's: all different with 3 instances.
        let n = urls.len();
        let ctx = GameCtx {
            start,
            from,
            client,
            bases: [
                urls[i % n].clone(),
                urls[(i + 1) % n].clone(),
                urls[(i + 2) % n].clone(),
            ],
            tally: tally.clone(),
            deadline,
            engine: i < engine_games,
            levels: (lo, hi),
            think_ms: args.think_ms,
            max_plies: args.max_plies,
            rng: Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D)),
        };
        tasks.push(tokio::spawn(play_games(ctx)));
    }
    for task in tasks {
        if let Err(e) = task.await {
            error(&tally, format!("task: {e}"));
        }
    }
    let elapsed = start.elapsed();
    let cpu_used = |pid: u32, before: Option<f64>| {
        Some(cpu_seconds(pid)? - before?).map(|s| s / elapsed.as_secs_f64())
    };
    let servers_cpu: Vec<Option<f64>> = pids
        .iter()
        .zip(&cpu_before)
        .map(|(&p, &b)| cpu_used(p, b))
        .collect();
    let own_cpu = cpu_used(std::process::id(), own_cpu_before);
    if let Some(s) = sampler {
        let _ = s.await;
    }

    // Nothing lost: every acknowledged move is stored, in order.
    let acknowledged = tally.lock().expect("tally").acknowledged.clone();
    let mut lost = 0usize;
    for (id, moves) in &acknowledged {
        let stored: Value = client
            .get(format!("{url}/api/games/{id}"))
            .send()
            .await?
            .json()
            .await?;
        let stored: Vec<String> =
            serde_json::from_value(stored["moves"].clone()).unwrap_or_default();
        if stored.len() < moves.len() || stored[..moves.len()] != moves[..] {
            lost += 1;
            eprintln!("game {id}: acknowledged {moves:?}, stored {stored:?}");
        }
    }

    let t = tally.lock().expect("tally");
    let mut lat = t.person_latency.clone();
    lat.sort();
    let mut wait = t.engine_wait.clone();
    wait.sort();
    let mut level1 = t.level1_wait.clone();
    level1.sort();
    let mut healthz = t.healthz.clone();
    healthz.sort();
    let mut delivery = t.delivery.clone();
    delivery.sort();
    let mut delivery_req = t.delivery_from_request.clone();
    delivery_req.sort();
    let total = t.person_moves + t.engine_moves;
    let rss = rss_samples.lock().expect("samples").clone();
    println!("load test: {} games at once ({} against the engine, levels {lo}-{hi}), {:.1} s, person think time ~{} ms, {} instance(s) on {}",
        args.games, engine_games, elapsed.as_secs_f64(), args.think_ms, urls.len(),
        args.db.as_deref().map_or(if args.url.is_empty() { "SQLite" } else { "their database" }, |d| {
            if d.starts_with("postgres") { "PostgreSQL" } else { "SQLite" }
        }));
    println!(
        "games started {}, finished {} (by the rules or resigned at {} plies)",
        t.games_started, t.games_finished, args.max_plies
    );
    println!(
        "moves: {total} ({} by people, {} by engines) = {:.1} moves/s",
        t.person_moves,
        t.engine_moves,
        total as f64 / elapsed.as_secs_f64()
    );
    println!(
        "a person's move, request to answer: median {}, p90 {}, p99 {}, max {}",
        ms(percentile(&lat, 0.5)),
        ms(percentile(&lat, 0.9)),
        ms(percentile(&lat, 0.99)),
        ms(lat.last().copied())
    );
    // The same by 5 s window of the run: the first games' start (sign-ups, 2,000 connections
    // opened at once) is told apart from the steady state.
    let mut windows: BTreeMap<u64, Vec<Duration>> = BTreeMap::new();
    for &(at, latency) in &t.person_timeline {
        windows.entry(at.as_secs() / 5).or_default().push(latency);
    }
    let by_window: Vec<String> = windows
        .into_iter()
        .map(|(w, mut l)| {
            l.sort();
            format!(
                "{}-{} s: {} moves, p99 {}",
                w * 5,
                w * 5 + 5,
                l.len(),
                ms(percentile(&l, 0.99))
            )
        })
        .collect();
    println!("  by window: {}", by_window.join("; "));
    println!(
        "delivery, a move's answer on one instance to the WebSocket message on {}: median {}, p99 {}, max {} ({} moves); from the move's request: median {}, p99 {}",
        if t.delivery_same_instance > 0 { "the same or another" } else { "another" },
        ms(percentile(&delivery, 0.5)),
        ms(percentile(&delivery, 0.99)),
        ms(delivery.last().copied()),
        delivery.len(),
        ms(percentile(&delivery_req, 0.5)),
        ms(percentile(&delivery_req, 0.99)),
    );
    println!(
        "an engine's reply, from the person's move to the reply on the WebSocket: median {}, p99 {}, max {}",
        ms(percentile(&wait, 0.5)),
        ms(percentile(&wait, 0.99)),
        ms(wait.last().copied())
    );
    println!(
        "a level-1 engine's reply: median {}, p99 {}, max {} ({} replies)",
        ms(percentile(&level1, 0.5)),
        ms(percentile(&level1, 0.99)),
        ms(level1.last().copied()),
        level1.len()
    );
    println!(
        "a bystander's /healthz (a new connection each, every 100 ms): median {}, p99 {}, max {} ({} answers)",
        ms(percentile(&healthz, 0.5)),
        ms(percentile(&healthz, 0.99)),
        ms(healthz.last().copied()),
        healthz.len()
    );
    if args.abuse {
        println!("the attacker was answered: {:?}", t.abuse);
    }
    if !pids.is_empty() {
        let peak = rss.iter().max().copied();
        println!(
            "server memory (RSS, pids {pids:?}, summed): before {} MiB, peak {} MiB, at the end {} MiB",
            mib(rss_before),
            mib(peak),
            mib(rss_all(&pids).or(rss.last().copied()))
        );
    }
    let cores = |c: &Option<f64>| c.map_or("-".to_string(), |c| format!("{c:.2}"));
    println!(
        "CPU used (cores, over the run): servers {}, this load generator {}",
        servers_cpu
            .iter()
            .map(cores)
            .collect::<Vec<_>>()
            .join(" + "),
        cores(&own_cpu)
    );
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        let load: Vec<&str> = load.split_whitespace().take(3).collect();
        println!(
            "machine load average (1, 5, 15 min) at the end: {} on {} cores",
            load.join(" "),
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
    }
    if t.errors.is_empty() {
        println!("errors: none");
    } else {
        println!("errors:");
        for (what, n) in &t.errors {
            println!("  {n} × {what}");
        }
    }
    println!(
        "acknowledged moves checked in {} games: {} games with a move lost",
        acknowledged.len(),
        lost
    );
    if lost > 0 || !t.errors.is_empty() {
        anyhow::bail!("the load test found errors");
    }
    Ok(())
}

fn percentile(sorted: &[Duration], p: f64) -> Option<Duration> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied()
}

fn ms(d: Option<Duration>) -> String {
    d.map_or("-".to_string(), |d| {
        format!("{:.1} ms", d.as_secs_f64() * 1000.0)
    })
}

fn mib(kb: Option<u64>) -> String {
    kb.map_or("-".to_string(), |kb| format!("{:.1}", kb as f64 / 1024.0))
}

/// The resident set size of a process, from /proc.
fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU time (user + system) of a process so far, in seconds, from /proc.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces), which ends with ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // Clock ticks: 100 per second on Linux.
    Some((utime + stime) / 100.0)
}

/// A bystander (127.0.0.3) asks for `/healthz` every 100 ms over a new connection each time,
/// as a load balancer's health check does.
async fn probe_health(url: String, tally: Shared, deadline: Instant) {
    let client = reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3)))
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(10))
        .build()
        .expect("a client");
    while Instant::now() < deadline {
        let sent = Instant::now();
        match client.get(format!("{url}/healthz")).send().await {
            Ok(res) if res.status().is_success() => {
                let _ = res.bytes().await;
                tally.lock().expect("tally").healthz.push(sent.elapsed());
            }
            Ok(res) => error(&tally, format!("healthz: {}", res.status().as_u16())),
            Err(e) => error(&tally, format!("healthz transport: {e}")),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The address of the `i`th person: 127.0.1.x, 127.0.2.x, ...
fn person_addr(i: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(
        127,
        0,
        1 + (i / 250) as u8,
        1 + (i % 250) as u8,
    ))
}

/// A WebSocket connection from `from`.
async fn ws_from(from: IpAddr, url: &str) -> Result<Socket, String> {
    let host = url
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .unwrap_or_default();
    let to: SocketAddr = host
        .parse()
        .map_err(|e| format!("websocket address: {e}"))?;
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
    socket
        .bind(SocketAddr::new(from, 0))
        .map_err(|e| format!("bind: {e}"))?;
    let stream = socket
        .connect(to)
        .await
        .map_err(|e| format!("websocket connect: {e}"))?;
    let (ws, _) =
        tokio_tungstenite::client_async(url, tokio_tungstenite::MaybeTlsStream::Plain(stream))
            .await
            .map_err(|e| format!("websocket connect: {e}"))?;
    Ok(ws)
}

struct GameCtx {
    start: Instant,
    from: IpAddr,
    client: reqwest::Client,
    /// The instances of White, of Black and of the game's WebSocket.
    bases: [String; 3],
    tally: Shared,
    deadline: Instant,
    engine: bool,
    levels: (u8, u8),
    think_ms: u64,
    max_plies: usize,
    rng: Rng,
}

/// Keeps a game's sockets open until every game has stopped playing (the longest think past
/// the deadline, and a second): 2,000 sockets closed at the deadline while the last moves are
/// in flight measured the teardown of this load generator's one thread, not the server.
async fn linger(ctx: &GameCtx) {
    let all_stopped = ctx.deadline + Duration::from_millis(2 * ctx.think_ms + 1000);
    tokio::time::sleep_until(all_stopped.into()).await;
}

/// Plays games one after another until the deadline.
async fn play_games(mut ctx: GameCtx) {
    while Instant::now() < ctx.deadline {
        if let Err(what) = play_one(&mut ctx).await {
            error(&ctx.tally, what);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next_state(socket: &mut Socket, until: Instant) -> Result<Value, String> {
    loop {
        let left = until.saturating_duration_since(Instant::now());
        let msg = tokio::time::timeout(left, socket.next())
            .await
            .map_err(|_| "websocket: no state in time".to_string())?
            .ok_or("websocket closed")?
            .map_err(|e| format!("websocket: {e}"))?;
        if let Message::Text(text) = msg {
            let v: Value =
                serde_json::from_str(text.as_str()).map_err(|e| format!("websocket JSON: {e}"))?;
            // The spectators' count (issue 18) comes between states.
            if v["type"] == "watchers" {
                continue;
            }
            return Ok(v["game"].clone());
        }
    }
}

async fn play_one(ctx: &mut GameCtx) -> Result<(), String> {
    let [white_base, black_base, watch_base] = ctx.bases.clone();
    let mut level = 0;
    let (grant, tokens) = if ctx.engine {
        level = ctx.levels.0 + ctx.rng.below(u64::from(ctx.levels.1 - ctx.levels.0) + 1) as u8;
        let color = if ctx.rng.below(2) == 0 {
            "white"
        } else {
            "black"
        };
        let (status, grant) = post(
            &ctx.client,
            &format!("{white_base}/api/games"),
            json!({"mode": "engine", "color": color, "level": level}),
        )
        .await?;
        if status != 201 {
            return Err(format!("create: {status} {}", grant["error"]));
        }
        let token = grant["token"].clone();
        let seat = grant["seat"].as_str().unwrap_or("white").to_string();
        let tokens = if seat == "white" {
            [Some(token), None]
        } else {
            [None, Some(token)]
        };
        (grant, tokens)
    } else {
        let (status, grant) = post(
            &ctx.client,
            &format!("{white_base}/api/games"),
            json!({"mode": "human", "color": "white"}),
        )
        .await?;
        if status != 201 {
            return Err(format!("create: {status} {}", grant["error"]));
        }
        let id = grant["game"]["id"].as_str().unwrap_or_default();
        let (status, joined) = post(
            &ctx.client,
            &format!("{black_base}/api/games/{id}/join"),
            json!({"invite": grant["invite"]}),
        )
        .await?;
        if status != 200 {
            return Err(format!("join: {status} {}", joined["error"]));
        }
        let tokens = [
            Some(grant["token"].clone()),
            Some(joined.get("token").cloned().unwrap_or_default()),
        ];
        (grant, tokens)
    };
    let id = grant["game"]["id"].as_str().unwrap_or_default().to_string();
    ctx.tally.lock().expect("tally").games_started += 1;
    let ws_url = format!(
        "{}/api/games/{id}/ws",
        watch_base.replacen("http://", "ws://", 1)
    );
    let mut socket = ws_from(ctx.from, &ws_url).await?;
    let mut game = next_state(&mut socket, Instant::now() + Duration::from_secs(30)).await?;
    // The game's moves as the answers and states make them (each a delta, docs/api.md).
    let mut moves: Vec<String> = Vec::new();
    join_moves(&mut moves, &game);
    // A state the WebSocket showed ahead of the one in hand (an engine's quick reply).
    let mut ahead: Option<Value> = None;
    // When the last person's move was answered (an engine's reply is timed from it).
    let mut answered = Instant::now();
    loop {
        if game["status"] != "ongoing" {
            ctx.tally.lock().expect("tally").games_finished += 1;
            return Ok(());
        }
        let ply = game["ply"].as_u64().unwrap_or(0) as usize;
        if Instant::now() >= ctx.deadline {
            linger(ctx).await;
            return Ok(());
        }
        let turn = if game["turn"] == "white" { 0 } else { 1 };
        let Some(token) = tokens[turn].clone() else {
            // The engine is to move: its reply comes over the WebSocket.
            let until = Instant::now() + Duration::from_secs(30);
            loop {
                let seen = match ahead.take() {
                    Some(seen) => seen,
                    None => next_state(&mut socket, until).await?,
                };
                if seen["ply"].as_u64().unwrap_or(0) as usize > ply || seen["status"] != "ongoing" {
                    let mut t = ctx.tally.lock().expect("tally");
                    t.engine_wait.push(answered.elapsed());
                    if level == 1 {
                        t.level1_wait.push(answered.elapsed());
                    }
                    t.engine_moves += 1;
                    join_moves(&mut moves, &seen);
                    t.acknowledged.insert(id.clone(), moves.clone());
                    game = seen;
                    break;
                }
                join_moves(&mut moves, &seen);
            }
            continue;
        };
        let base = if turn == 0 { &white_base } else { &black_base };
        if ply >= ctx.max_plies {
            let (status, v) = post(
                &ctx.client,
                &format!("{base}/api/games/{id}/resign"),
                json!({"token": token}),
            )
            .await?;
            if status != 200 {
                return Err(format!("resign: {status} {}", v["error"]));
            }
            ctx.tally.lock().expect("tally").games_finished += 1;
            return Ok(());
        }
        let think = ctx.rng.below(2 * ctx.think_ms + 1);
        tokio::time::sleep(Duration::from_millis(think)).await;
        if Instant::now() >= ctx.deadline {
            linger(ctx).await;
            return Ok(());
        }
        let legal = game["legal_moves"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            return Err(format!("game {id}: ongoing with no legal move"));
        }
        let mv = legal[ctx.rng.below(legal.len() as u64) as usize].clone();
        let sent = Instant::now();
        let (status, answer) = post(
            &ctx.client,
            &format!("{base}/api/games/{id}/moves"),
            json!({"token": token, "ply": ply, "move": mv}),
        )
        .await?;
        answered = Instant::now();
        let latency = answered - sent;
        if status != 200 {
            return Err(format!("move: {status} {}", answer["error"]));
        }
        {
            let mut t = ctx.tally.lock().expect("tally");
            t.person_latency.push(latency);
            t.person_timeline
                .push((sent.duration_since(ctx.start), latency));
            t.person_moves += 1;
            join_moves(&mut moves, &answer);
            t.acknowledged.insert(id.clone(), moves.clone());
        }
        game = answer;
        // The move as the watcher's WebSocket shows it (on another instance when there are 3).
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let seen = next_state(&mut socket, until).await?;
            join_moves(&mut moves, &seen);
            let seen_ply = seen["ply"].as_u64().unwrap_or(0) as usize;
            if seen_ply > ply || seen["status"] != "ongoing" {
                let shown = Instant::now();
                let mut t = ctx.tally.lock().expect("tally");
                t.delivery.push(shown.saturating_duration_since(answered));
                t.delivery_from_request.push(shown - sent);
                if watch_base == *base {
                    t.delivery_same_instance += 1;
                }
                drop(t);
                if seen_ply > ply + 1 {
                    ahead = Some(seen);
                }
                break;
            }
        }
    }
}

/// Joins a view's moves (a delta from ply `from`, or the whole list) to the moves held.
fn join_moves(moves: &mut Vec<String>, view: &Value) {
    let from = view["from"].as_u64().unwrap_or(0) as usize;
    let new: Vec<String> = serde_json::from_value(view["moves"].clone()).unwrap_or_default();
    moves.truncate(from);
    moves.extend(new);
}

/// The attacker: one client (127.0.0.2) doing everything issue 8 found harmful at once.
#[path = "loadtest/timed.rs"]
mod timed;

#[path = "../tests/server/common/shuffle.rs"]
mod shuffle;

mod abuse {
    use super::Shared;
    use serde_json::{json, Value};
    use std::net::{IpAddr, Ipv4Addr, SocketAddr};
    use std::time::{Duration, Instant};
    use tokio::task::JoinHandle;

    const ATTACKER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

    fn note(tally: &Shared, what: String) {
        *tally.lock().expect("tally").abuse.entry(what).or_default() += 1;
    }

    /// Whether the server has not closed the connection (a byte of what it sent may be read:
    /// the attacker reads nothing to speak of).
    fn still_open(t: &tokio::net::TcpStream) -> bool {
        let mut buf = [0u8; 1];
        match t.try_read(&mut buf) {
            Ok(n) => n > 0,
            Err(e) => e.kind() == std::io::ErrorKind::WouldBlock,
        }
    }

    fn client(timeout: Duration) -> reqwest::Client {
        reqwest::Client::builder()
            .local_address(ATTACKER)
            .timeout(timeout)
            .build()
            .expect("a client")
    }

    /// A record near the default tag caps: 60 tags of 1000 bytes, and a game played to its end
    /// (about 100 plies) by the first legal move.
    fn big_record() -> String {
        let mut game = emergo_core::Game::default();
        for _ in 0..5000 {
            if game.is_over() {
                break;
            }
            let mv = game.position().legal_moves()[0];
            if game.play(mv).is_err() {
                break;
            }
        }
        let value = "v".repeat(1000);
        let names: Vec<String> = (0..60).map(|i| format!("Tag{i}")).collect();
        let tags: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), value.as_str())).collect();
        emergo_core::record::write_game(&game, &tags)
    }

    /// What the attacker does.
    pub struct Plan {
        pub idle: usize,
        pub idle_addresses: usize,
        pub attacks: Vec<String>,
        pub analysis_flood: usize,
    }

    impl Plan {
        fn does(&self, attack: &str) -> bool {
            self.attacks.iter().any(|a| a == attack || a == "all")
        }
    }

    /// The address of the `i`th idle socket: the attacker's own, or one of 127.0.3.x.
    fn idle_addr(i: usize, addresses: usize) -> IpAddr {
        if addresses <= 1 {
            return ATTACKER;
        }
        IpAddr::V4(Ipv4Addr::new(127, 0, 3, 1 + (i % addresses) as u8))
    }

    /// One analysis WebSocket (issue 17, item 1): `flood` requests sent at once, cycling
    /// through a few positions, then again every second; every event read and counted.
    async fn analysis_flood(url: String, tally: Shared, deadline: Instant, flood: usize) {
        use futures_util::{SinkExt, StreamExt};
        use tokio_tungstenite::tungstenite::Message;
        let ws_url = format!("{}/api/analysis/ws", url.replacen("http://", "ws://", 1));
        let ws = match super::ws_from(ATTACKER, &ws_url).await {
            Ok(ws) => ws,
            Err(e) => {
                note(&tally, format!("analysis socket not opened: {e}"));
                return;
            }
        };
        let (mut sink, mut events) = ws.split();
        let reader = {
            let tally = tally.clone();
            tokio::spawn(async move {
                while let Ok(Some(Ok(msg))) =
                    tokio::time::timeout_at(deadline.into(), events.next()).await
                {
                    if let Message::Text(text) = msg {
                        let v: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
                        let kind = match v["code"].as_str() {
                            Some(code) => {
                                format!("analysis {} {code}", v["type"].as_str().unwrap_or("?"))
                            }
                            None => format!("analysis {}", v["type"].as_str().unwrap_or("?")),
                        };
                        note(&tally, kind);
                    }
                }
            })
        };
        let mut game = emergo_core::Game::default();
        let mut positions = vec![game.position().to_string()];
        for _ in 0..40 {
            let Some(&mv) = game.position().legal_moves().first() else {
                break;
            };
            if game.is_over() || game.play(mv).is_err() {
                break;
            }
            positions.push(game.position().to_string());
        }
        let mut sent = 0usize;
        'flood: while Instant::now() < deadline {
            for i in 0..flood {
                let text = json!({"position": positions[i % positions.len()], "multipv": 3});
                if sink
                    .feed(Message::Text(text.to_string().into()))
                    .await
                    .is_err()
                {
                    note(&tally, "analysis socket closed".into());
                    break 'flood;
                }
                sent += 1;
            }
            if sink.flush().await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        *tally
            .lock()
            .expect("tally")
            .abuse
            .entry("analysis requests sent".into())
            .or_default() += sent as u64;
        let _ = sink.close().await;
        let _ = reader.await;
    }

    pub fn start(url: String, tally: Shared, deadline: Instant, plan: Plan) -> Vec<JoinHandle<()>> {
        let mut tasks = Vec::new();
        if plan.does("analysis") {
            tasks.push(tokio::spawn(analysis_flood(
                url.clone(),
                tally.clone(),
                deadline,
                plan.analysis_flood,
            )));
        }
        // Imports of the largest records allowed, as fast as answers come.
        if plan.does("imports") {
            let (url, tally) = (url.clone(), tally.clone());
            tasks.push(tokio::spawn(async move {
                let c = client(Duration::from_secs(30));
                let record = big_record();
                while Instant::now() < deadline {
                    match c
                        .post(format!("{url}/api/games/import"))
                        .body(record.clone())
                        .send()
                        .await
                    {
                        Ok(res) => note(&tally, format!("import {}", res.status().as_u16())),
                        Err(_) => note(&tally, "import transport error".into()),
                    }
                }
            }));
        }
        // Level-10 engine games where the engine opens, created as fast as answers come.
        if plan.does("level10") {
            let (url, tally) = (url.clone(), tally.clone());
            tasks.push(tokio::spawn(async move {
                let c = client(Duration::from_secs(30));
                while Instant::now() < deadline {
                    let body = json!({"mode": "engine", "color": "black", "level": 10});
                    match c.post(format!("{url}/api/games")).json(&body).send().await {
                        Ok(res) => note(&tally, format!("level-10 game {}", res.status().as_u16())),
                        Err(_) => note(&tally, "level-10 game transport error".into()),
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }));
        }
        // Hints asked for and dropped after 20 ms, in one engine game.
        if plan.does("hints") {
            let (url, tally) = (url.clone(), tally.clone());
            tasks.push(tokio::spawn(async move {
                let c = client(Duration::from_secs(30));
                let body = json!({"mode": "engine", "color": "white", "level": 1});
                let grant: Option<Value> =
                    match c.post(format!("{url}/api/games")).json(&body).send().await {
                        Ok(res) => res.json().await.ok(),
                        Err(_) => None,
                    };
                let Some(grant) = grant else {
                    note(&tally, "hint game not created".into());
                    return;
                };
                let id = grant["game"]["id"].as_str().unwrap_or_default().to_string();
                let hasty = client(Duration::from_millis(20));
                while Instant::now() < deadline {
                    let sent = hasty
                        .post(format!("{url}/api/games/{id}/hint"))
                        .json(&json!({"token": grant["token"]}))
                        .send()
                        .await;
                    match sent {
                        Ok(res) => note(&tally, format!("hint {}", res.status().as_u16())),
                        Err(_) => note(&tally, "hint dropped".into()),
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }));
        }
        // Issue 17, item 2: a long game (5,000 plies) read over and over, whole and from ply 1;
        // WebSockets on it that read nothing, and requests for it whose answers are never read,
        // opened again when the server closes them.
        {
            let (url, tally) = (url.clone(), tally.clone());
            tasks.push(tokio::spawn(async move {
                let c = client(Duration::from_secs(60));
                let res = c
                    .post(format!("{url}/api/games/import"))
                    .body(super::long_record(5000))
                    .send()
                    .await;
                let imported: Option<Value> = match res {
                    Ok(res) => res.json().await.ok(),
                    Err(_) => None,
                };
                let Some(id) = imported
                    .as_ref()
                    .and_then(|v| v["id"].as_str())
                    .map(str::to_string)
                else {
                    note(&tally, "long game not imported".into());
                    return;
                };
                let Ok(to) = url.trim_start_matches("http://").parse::<SocketAddr>() else {
                    return;
                };
                let ws_url = format!("{}/api/games/{id}/ws", url.replacen("http://", "ws://", 1));
                let path = format!("/api/games/{id}");
                let mut silent = Vec::new();
                let mut unread = Vec::new();
                let mut round = 0u64;
                while Instant::now() < deadline {
                    let from = if round.is_multiple_of(2) {
                        ""
                    } else {
                        "?from=1"
                    };
                    match c.get(format!("{url}{path}{from}")).send().await {
                        Ok(res) => {
                            let status = res.status().as_u16();
                            let _ = res.bytes().await;
                            note(&tally, format!("long game read {status}"));
                        }
                        Err(_) => note(&tally, "long game read transport error".into()),
                    }
                    round += 1;
                    if round % 10 == 1 {
                        // Kept while the server has not closed them.
                        let before = silent.len() + unread.len();
                        silent.retain(|s: &super::Socket| match s.get_ref() {
                            tokio_tungstenite::MaybeTlsStream::Plain(t) => still_open(t),
                            _ => false,
                        });
                        unread.retain(still_open);
                        let closed = before - silent.len() - unread.len();
                        for _ in 0..closed {
                            note(&tally, "silent socket closed by the server".into());
                        }
                        while silent.len() < 24 && Instant::now() < deadline {
                            match super::silent_socket(ATTACKER, to, &ws_url).await {
                                Ok(s) => silent.push(s),
                                Err(_) => {
                                    note(&tally, "silent WebSocket refused".into());
                                    break;
                                }
                            }
                        }
                        while unread.len() < 20 && Instant::now() < deadline {
                            match super::unread_get(ATTACKER, to, &path).await {
                                Ok(s) => unread.push(s),
                                Err(_) => {
                                    note(&tally, "unread request refused".into());
                                    break;
                                }
                            }
                        }
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }));
        }
        // A flood of seeks by one account (issue 17 item 3): refused beyond its open seeks
        // and its rate, counted by status.
        {
            let (url, tally) = (url.clone(), tally.clone());
            tasks.push(tokio::spawn(async move {
                let c = client(Duration::from_secs(30));
                let name = format!("flood{}", std::process::id() % 100_000);
                let body = json!({"name": name, "password": "a flood of seeks"});
                let cookie = match c
                    .post(format!("{url}/api/accounts"))
                    .json(&body)
                    .send()
                    .await
                {
                    Ok(res) => res
                        .headers()
                        .get("set-cookie")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.split(';').next())
                        .map(str::to_string),
                    Err(_) => None,
                };
                let Some(cookie) = cookie else {
                    note(&tally, "seek flood: no account".into());
                    return;
                };
                let mut i = 0u64;
                while Instant::now() < deadline {
                    i += 1;
                    let time = if i.is_multiple_of(2) { "3+2" } else { "corr:3" };
                    let sent = c
                        .post(format!("{url}/api/seeks"))
                        .header("cookie", &cookie)
                        .json(&json!({"time": time}))
                        .send()
                        .await;
                    match sent {
                        Ok(res) => note(&tally, format!("seek {}", res.status().as_u16())),
                        Err(_) => note(&tally, "seek transport error".into()),
                    }
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            }));
        }
        // Idle sockets, opened again when the server closes them.
        if plan.does("idle") {
            let (url, tally, idle, addresses) = (url, tally, plan.idle, plan.idle_addresses);
            tasks.push(tokio::spawn(async move {
                let to: Option<SocketAddr> = url.trim_start_matches("http://").parse().ok();
                let Some(to) = to else { return };
                let mut open = Vec::new();
                while Instant::now() < deadline {
                    // Kept while the server has neither closed nor answered them.
                    open.retain(|s: &tokio::net::TcpStream| {
                        let mut buf = [0u8; 1];
                        matches!(s.try_read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
                    });
                    while open.len() < idle && Instant::now() < deadline {
                        let Ok(socket) = tokio::net::TcpSocket::new_v4() else { break };
                        let from = idle_addr(open.len(), addresses);
                        if socket.bind(SocketAddr::new(from, 0)).is_err() {
                            break;
                        }
                        match socket.connect(to).await {
                            Ok(stream) => {
                                open.push(stream);
                                note(&tally, "idle socket opened".into());
                            }
                            Err(_) => {
                                note(&tally, "idle socket refused".into());
                                break;
                            }
                        }
                    }
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }));
        }
        tasks
    }
}
