//! `emergo bot`: connects a UGI engine to an emergo site as a bot account (issue 24,
//! docs/bots.md). It follows the account's event stream, accepts the challenges that match
//! `--accept` (while fewer than `--concurrency` games run), and plays each game on its own
//! stream with its own engine process, giving the engine the clocks as the server sends them
//! (less `--move-overhead`).
//!
//! It never gives a game up: a dropped connection is made again with exponential back-off (the
//! game stream's first line is the whole game, so a game goes on where it stands); an engine
//! that crashes or will not answer is started again, and while it cannot answer, a legal move
//! is played rather than the clock let run out; a move whose answer was lost is sent again with
//! the same ply, which the server makes once.

use anyhow::{bail, Context};
use emergo_arena::UgiEngine;
use serde_json::Value;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Arguments of `emergo bot`.
#[derive(clap::Args)]
pub struct Args {
    /// The site, e.g. https://emergo.example or http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// A PEM file of certificates to trust beside the usual authorities (a private site's
    /// own, self-signed).
    #[arg(long)]
    ca_cert: Option<PathBuf>,
    /// The bot account's API token (scopes bot:play, challenge:write and read); or set
    /// EMERGO_BOT_TOKEN.
    #[arg(long, env = "EMERGO_BOT_TOKEN", hide_env_values = true)]
    token: String,
    /// The engine: `ugi:` and the command that starts it, e.g. 'ugi:emergo ugi'.
    #[arg(long)]
    engine: String,
    /// Which challenges to accept, e.g. 'variant=emergo|7x7,time=1+0|3+2,rated=false'
    /// (keys variant, time, rated; alternatives split by |). Without it, every challenge it
    /// can play.
    #[arg(long)]
    accept: Option<String>,
    /// Games played at once; a challenge beyond them is declined ("later").
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Milliseconds kept back from the bot's clock for the network.
    #[arg(long, default_value_t = 300)]
    move_overhead: u64,
    /// Challenge this player (or bot) once connected.
    #[arg(long)]
    challenge: Option<String>,
    /// The time control of `--challenge`.
    #[arg(long, default_value = "1+0")]
    challenge_time: String,
    /// Stop after this many games have ended (by default it runs until stopped).
    #[arg(long)]
    games: Option<usize>,
    /// Search at most this many nodes a move (`go nodes N`, within the clock): a house bot's
    /// fixed budget, the same on any machine.
    #[arg(long)]
    nodes: Option<u64>,
}

/// What every task of the bridge shares.
struct Bridge {
    http: reqwest::Client,
    base: String,
    token: String,
    engine: Vec<String>,
    accept: Accept,
    concurrency: usize,
    overhead: Duration,
    nodes: Option<u64>,
    me: String,
    running: Mutex<HashSet<String>>,
    finished: Mutex<usize>,
    /// Told each time a game's task ends (after `finished` counts it): `--games` may be
    /// reached after the event stream's last line.
    ended: tokio::sync::Notify,
}

/// The `--accept` filter.
#[derive(Debug, Default)]
struct Accept {
    variants: Option<Vec<String>>,
    times: Option<Vec<String>>,
    rated: Option<bool>,
}

impl Accept {
    fn parse(text: &str) -> anyhow::Result<Accept> {
        let mut accept = Accept::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .with_context(|| format!("--accept: '{part}' is not key=value"))?;
            let values: Vec<String> = value.split('|').map(|v| v.trim().to_string()).collect();
            match key.trim() {
                "variant" => accept.variants = Some(values),
                "time" => accept.times = Some(values),
                "rated" => {
                    accept.rated = Some(match value.trim() {
                        "true" | "yes" => true,
                        "false" | "no" => false,
                        other => bail!("--accept: rated is true or false, not '{other}'"),
                    })
                }
                other => bail!("--accept: unknown key '{other}' (variant, time, rated)"),
            }
        }
        Ok(accept)
    }

    /// Why the challenge is declined (a reason of the API), or `None` to accept it.
    fn refusal(&self, challenge: &Value) -> Option<&'static str> {
        let text = |key: &str| challenge[key].as_str().unwrap_or("").to_string();
        if let Some(variants) = &self.variants {
            if !variants.contains(&text("variant")) {
                return Some("variant");
            }
        }
        if let Some(times) = &self.times {
            if !times.contains(&text("time")) {
                return Some("time_control");
            }
        }
        match (self.rated, challenge["rated"].as_bool()) {
            (Some(true), Some(false)) => Some("casual"),
            (Some(false), Some(true)) => Some("rated"),
            _ => None,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    crate::process::init_tracing();
    let engine: Vec<String> = args
        .engine
        .strip_prefix("ugi:")
        .context("--engine is 'ugi:' and the engine's command, e.g. 'ugi:emergo ugi'")?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if engine.is_empty() {
        bail!("--engine: no command after 'ugi:'");
    }
    let accept = match &args.accept {
        Some(text) => Accept::parse(text)?,
        None => Accept::default(),
    };
    let ca = match &args.ca_cert {
        None => Vec::new(),
        Some(path) => {
            let what = || format!("--ca-cert {}", path.display());
            let pem = std::fs::read(path).with_context(what)?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem).with_context(what)?;
            if certs.is_empty() {
                bail!("{}: no PEM certificate in it", what());
            }
            certs
        }
    };
    // The engine starts before anything else: a wrong command is said at once.
    drop(UgiEngine::start(&engine).context("the engine")?);
    crate::process::block_on(async move {
        let mut http = reqwest::Client::builder().connect_timeout(Duration::from_secs(10));
        for cert in ca {
            http = http.add_root_certificate(cert);
        }
        let http = http.build().context("the HTTP client")?;
        let base = args.server.trim_end_matches('/').to_string();
        let mut bridge = Bridge {
            http,
            base,
            token: args.token,
            engine,
            accept,
            concurrency: args.concurrency.max(1),
            overhead: Duration::from_millis(args.move_overhead),
            nodes: args.nodes,
            me: String::new(),
            running: Mutex::default(),
            finished: Mutex::new(0),
            ended: tokio::sync::Notify::new(),
        };
        bridge.me = who_am_i(&bridge).await?;
        tracing::info!(bot = %bridge.me, server = %bridge.base, "connected");
        let bridge = Arc::new(bridge);
        if let Some(name) = &args.challenge {
            challenge(&bridge, name, &args.challenge_time).await?;
        }
        tokio::select! {
            result = follow_events(bridge.clone(), args.games) => result,
            () = crate::process::wait_for_signal() => Ok(()),
        }
    })
}

/// The bot's account name (`GET /api/me`, retried while the site cannot be reached).
async fn who_am_i(bridge: &Bridge) -> anyhow::Result<String> {
    let mut backoff = Backoff::new();
    loop {
        match bridge.get("/api/me").await {
            Ok((200, me)) => {
                return me["name"]
                    .as_str()
                    .map(str::to_string)
                    .context("GET /api/me: no name");
            }
            Ok((status, body)) => bail!("GET /api/me: {status} {body}"),
            Err(err) => {
                tracing::warn!("cannot reach the site: {err}");
                backoff.wait().await;
            }
        }
    }
}

async fn challenge(bridge: &Bridge, name: &str, time: &str) -> anyhow::Result<()> {
    let body = serde_json::json!({"time": time});
    let (status, answer) = bridge
        .post(&format!("/api/challenge/{name}"), Some(body))
        .await?;
    if status != 201 {
        bail!("cannot challenge {name}: {status} {answer}");
    }
    tracing::info!(opponent = name, id = %answer["id"], "challenged");
    Ok(())
}

impl Bridge {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn get(&self, path: &str) -> reqwest::Result<(u16, Value)> {
        let res = self
            .http
            .get(self.url(path))
            .bearer_auth(&self.token)
            .timeout(Duration::from_secs(20))
            .send()
            .await?;
        let status = res.status().as_u16();
        Ok((status, res.json().await.unwrap_or(Value::Null)))
    }

    async fn post(&self, path: &str, body: Option<Value>) -> reqwest::Result<(u16, Value)> {
        let mut req = self
            .http
            .post(self.url(path))
            .bearer_auth(&self.token)
            .timeout(Duration::from_secs(20));
        if let Some(body) = body {
            req = req.json(&body);
        }
        let res = req.send().await?;
        let status = res.status().as_u16();
        Ok((status, res.json().await.unwrap_or(Value::Null)))
    }

    /// An open stream of `path`: `None` when it cannot be opened now.
    async fn stream(&self, path: &str) -> Option<Lines> {
        let res = self
            .http
            .get(self.url(path))
            .bearer_auth(&self.token)
            .send()
            .await;
        match res {
            Ok(res) if res.status().is_success() => Some(Lines {
                res,
                pending: Vec::new(),
            }),
            Ok(res) => {
                tracing::warn!(path, status = res.status().as_u16(), "stream refused");
                None
            }
            Err(err) => {
                tracing::warn!(path, "cannot open the stream: {err}");
                None
            }
        }
    }
}

/// A stream's lines.
struct Lines {
    res: reqwest::Response,
    pending: Vec<u8>,
}

/// A stream that says nothing, not even a keep-alive, for this long is taken for dead.
const SILENCE: Duration = Duration::from_secs(20);

impl Lines {
    /// The next JSON line (keep-alives skipped); `None` when the stream ended or went silent.
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(at) = self.pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=at).collect();
                let text = String::from_utf8_lossy(&line);
                let text = text.trim();
                if text.is_empty() {
                    continue;
                }
                match serde_json::from_str(text) {
                    Ok(value) => return Some(value),
                    Err(err) => {
                        tracing::warn!("a stream line that is not JSON: {err}");
                        continue;
                    }
                }
            }
            match tokio::time::timeout(SILENCE, self.res.chunk()).await {
                Ok(Ok(Some(bytes))) => {
                    // A line is at most a game's view; a stream that sends more is broken.
                    if self.pending.len() + bytes.len() > 16 << 20 {
                        return None;
                    }
                    self.pending.extend_from_slice(&bytes);
                }
                _ => return None,
            }
        }
    }
}

/// Exponential back-off: 0.5 s, doubled up to 30 s, with some jitter.
struct Backoff(Duration);

impl Backoff {
    fn new() -> Backoff {
        Backoff(Duration::from_millis(500))
    }

    fn reset(&mut self) {
        self.0 = Duration::from_millis(500);
    }

    async fn wait(&mut self) {
        let jitter = u64::from(std::process::id() % 100);
        tokio::time::sleep(self.0 + Duration::from_millis(jitter)).await;
        self.0 = (self.0 * 2).min(Duration::from_secs(30));
    }
}

/// Follows the event stream (reconnecting) until `games` games have ended.
async fn follow_events(bridge: Arc<Bridge>, games: Option<usize>) -> anyhow::Result<()> {
    let mut backoff = Backoff::new();
    let done = || games.is_some_and(|n| *lock(&bridge.finished) >= n);
    loop {
        let Some(mut lines) = bridge.stream("/api/stream/event").await else {
            backoff.wait().await;
            continue;
        };
        tracing::info!("event stream open");
        backoff.reset();
        loop {
            // Made before the count is read: a game ending in between still wakes the loop.
            let ended = bridge.ended.notified();
            if done() {
                return Ok(());
            }
            let event = tokio::select! {
                event = lines.next() => event,
                () = ended => continue,
            };
            let Some(event) = event else { break };
            match event["type"].as_str() {
                Some("challenge") => on_challenge(&bridge, &event["challenge"]).await,
                Some("gameStart") => {
                    let game = &event["game"];
                    if let (Some(id), Some(color)) = (game["id"].as_str(), game["color"].as_str()) {
                        start_game(&bridge, id, color);
                    }
                }
                Some("gameFinish") => {
                    tracing::info!(game = %event["game"]["id"], result = %event["game"]["result"], "game over");
                }
                _ => {}
            }
        }
        if done() {
            return Ok(());
        }
        tracing::warn!("event stream ended; connecting again");
        backoff.wait().await;
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// A challenge to the bot: accepted when it matches and a game may begin, else declined.
async fn on_challenge(bridge: &Arc<Bridge>, challenge: &Value) {
    let Some(id) = challenge["id"].as_str() else {
        return;
    };
    if challenge["opponent"].as_str() != Some(bridge.me.as_str()) {
        return; // one of the bot's own challenges
    }
    let busy = lock(&bridge.running).len() >= bridge.concurrency;
    let refusal = if busy {
        Some("later")
    } else {
        bridge.accept.refusal(challenge)
    };
    let owner = challenge["owner"].as_str().unwrap_or("?");
    let answer = match refusal {
        None => {
            bridge
                .post(&format!("/api/challenge/{id}/accept"), None)
                .await
        }
        Some(reason) => {
            let body = serde_json::json!({ "reason": reason });
            bridge
                .post(&format!("/api/challenge/{id}/decline"), Some(body))
                .await
        }
    };
    match answer {
        Ok((201, grant)) => {
            tracing::info!(challenge = id, from = owner, "accepted");
            if let (Some(game), Some(color)) =
                (grant["game"]["id"].as_str(), grant["seat"].as_str())
            {
                start_game(bridge, game, color);
            }
        }
        Ok((204, _)) => tracing::info!(challenge = id, from = owner, reason = ?refusal, "declined"),
        Ok((status, body)) => {
            tracing::warn!(challenge = id, status, %body, "challenge answer refused")
        }
        Err(err) => tracing::warn!(challenge = id, "cannot answer the challenge: {err}"),
    }
}

/// Starts playing game `id` as `color`, unless it is being played already.
fn start_game(bridge: &Arc<Bridge>, id: &str, color: &str) {
    if !lock(&bridge.running).insert(id.to_string()) {
        return;
    }
    tokio::spawn(play(bridge.clone(), id.to_string(), color == "white"));
}

/// The game as the bot holds it: its start and moves (for the engine's `position` line).
#[derive(Default)]
struct Held {
    start: String,
    variant: String,
    moves: Vec<String>,
}

impl Held {
    /// Takes in a state: its lists start at its `from` (the whole game in a first state).
    fn merge(&mut self, view: &Value) {
        if let Some(start) = view["start"].as_str() {
            self.start = start.to_string();
        }
        if let Some(variant) = view["variant"].as_str() {
            self.variant = variant.to_string();
        }
        let from = view["from"].as_u64().unwrap_or(0) as usize;
        self.moves.truncate(from);
        if let Some(moves) = view["moves"].as_array() {
            self.moves
                .extend(moves.iter().filter_map(Value::as_str).map(str::to_string));
        }
    }

    fn position_line(&self) -> String {
        let mut line = format!("position fen {}", self.start);
        if !self.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&self.moves.join(" "));
        }
        line
    }
}

/// Plays game `id` to its end, whatever the connection and the engine do.
async fn play(bridge: Arc<Bridge>, id: String, white: bool) {
    tracing::info!(game = %id, color = if white { "white" } else { "black" }, "playing");
    let engine: Arc<Mutex<Option<UgiEngine>>> = Arc::default();
    let mut backoff = Backoff::new();
    let mut held = Held::default();
    let mut sent_for: Option<u64> = None;
    let path = format!("/api/bot/game/stream/{id}");
    'game: loop {
        if let Some(mut lines) = bridge.stream(&path).await {
            backoff.reset();
            while let Some(line) = lines.next().await {
                if line["type"] != "state" {
                    continue;
                }
                let view = &line["game"];
                held.merge(view);
                if view["status"] == "finished" {
                    tracing::info!(game = %id, result = %view["result"], reason = %view["reason"], "finished");
                    break 'game;
                }
                let ply = view["ply"].as_u64().unwrap_or(0);
                let my_turn = (view["turn"] == "white") == white;
                if my_turn && sent_for != Some(ply) && held.moves.len() as u64 == ply {
                    let mv = think(&bridge, &engine, &held, view, white).await;
                    if send_move(&bridge, &id, ply, mv, view).await {
                        sent_for = Some(ply);
                    }
                }
            }
        }
        if is_over(&bridge, &id).await {
            break;
        }
        tracing::warn!(game = %id, "game stream ended; connecting again");
        backoff.wait().await;
    }
    lock(&bridge.running).remove(&id);
    *lock(&bridge.finished) += 1;
    bridge.ended.notify_waiters();
}

/// Whether the game is over (asked when its stream ends).
async fn is_over(bridge: &Bridge, id: &str) -> bool {
    match bridge.get(&format!("/api/games/{id}")).await {
        Ok((200, view)) => view["status"] == "finished",
        Ok((404, _)) => true,
        _ => false,
    }
}

/// The engine's move in the game as it stands (`None`: it could not give one in time, after
/// being started again).
async fn think(
    bridge: &Bridge,
    engine: &Arc<Mutex<Option<UgiEngine>>>,
    held: &Held,
    view: &Value,
    white: bool,
) -> Option<String> {
    let overhead = bridge.overhead.as_millis() as i64;
    let clock = &view["clock"];
    let (go, budget) = match (clock["white_ms"].as_i64(), clock["black_ms"].as_i64()) {
        (Some(w), Some(b)) => {
            let inc = clock["increment_ms"].as_i64().unwrap_or(0);
            let keep = |ms: i64| (ms - overhead).max(50);
            let (w, b) = if white { (keep(w), b) } else { (w, keep(b)) };
            let mine = if white { w } else { b };
            (
                format!("go p1time {w} p2time {b} p1inc {inc} p2inc {inc}"),
                Duration::from_millis(mine as u64),
            )
        }
        // Untimed or correspondence: a few seconds a move.
        _ => ("go movetime 3000".to_string(), Duration::from_secs(10)),
    };
    let go = match bridge.nodes {
        Some(nodes) => format!("{go} nodes {nodes}"),
        None => go,
    };
    let position = held.position_line();
    let variant = held.variant.clone();
    let command = bridge.engine.clone();
    let engine = engine.clone();
    let deadline = Instant::now() + budget;
    let answer = tokio::task::spawn_blocking(move || {
        let mut slot = lock(&engine);
        for _ in 0..3 {
            if Instant::now() >= deadline {
                break;
            }
            if slot.is_none() {
                match start_engine(&command, &variant) {
                    Ok(started) => *slot = Some(started),
                    Err(err) => {
                        tracing::warn!("cannot start the engine: {err:#}");
                        std::thread::sleep(Duration::from_millis(100));
                        continue;
                    }
                }
            }
            let Some(running) = slot.as_mut() else {
                continue;
            };
            match running.best_move(&position, &go, deadline) {
                Ok(mv) if !mv.is_empty() && mv != "0000" => return Some(mv),
                Ok(mv) => tracing::warn!("the engine gave no move ({mv:?}); starting it again"),
                Err(err) => tracing::warn!("the engine failed ({err}); starting it again"),
            }
            *slot = None;
        }
        None
    })
    .await;
    answer.ok().flatten()
}

/// A new engine process on the game's board.
fn start_engine(command: &[String], variant: &str) -> anyhow::Result<UgiEngine> {
    let mut engine = UgiEngine::start(command)?;
    tracing::info!(pid = engine.pid(), "engine started");
    if !variant.is_empty() && variant != "emergo" {
        engine.send(&format!("setoption name UGI_Variant value {variant}"))?;
    }
    engine.new_game()?;
    Ok(engine)
}

/// Sends the move made at `ply` (the engine's, or else a legal one, so that the clock never
/// runs out while the engine cannot answer); a lost answer is asked again with the same ply.
/// Whether the server has the move.
async fn send_move(bridge: &Bridge, id: &str, ply: u64, mv: Option<String>, view: &Value) -> bool {
    let fallback = view["legal_moves"][0].as_str().map(str::to_string);
    let mut choice = match mv {
        Some(mv) => mv,
        None => match &fallback {
            Some(mv) => {
                tracing::warn!(game = id, "no move from the engine: playing {mv}");
                mv.clone()
            }
            None => return false,
        },
    };
    let mut tries = 0;
    loop {
        tries += 1;
        let Ok(mut url) = reqwest::Url::parse(&bridge.url(&format!("/api/bot/game/{id}/move")))
        else {
            return false;
        };
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.push(&choice);
        }
        url.set_query(Some(&format!("ply={ply}")));
        let res = bridge
            .http
            .post(url)
            .bearer_auth(&bridge.token)
            .timeout(Duration::from_secs(10))
            .send()
            .await;
        match res {
            Ok(res) if res.status().is_success() => {
                tracing::debug!(game = id, ply, mv = %choice, "moved");
                return true;
            }
            Ok(res) if res.status().as_u16() == 422 && Some(&choice) != fallback.as_ref() => {
                let body = res.text().await.unwrap_or_default();
                tracing::warn!(game = id, mv = %choice, "the engine's move was refused ({body}); playing a legal one");
                match &fallback {
                    Some(mv) => choice = mv.clone(),
                    None => return false,
                }
            }
            Ok(res) => {
                // Not this bot's turn any more, or the game is over: the stream says what is.
                let status = res.status().as_u16();
                let body = res.text().await.unwrap_or_default();
                tracing::warn!(game = id, status, %body, "move refused");
                return false;
            }
            Err(err) if tries < 6 => {
                tracing::warn!(game = id, "move not acknowledged ({err}); sending it again");
                tokio::time::sleep(Duration::from_millis(200 * tries)).await;
            }
            Err(err) => {
                tracing::warn!(
                    game = id,
                    "move not acknowledged ({err}); waiting for the stream"
                );
                return false;
            }
        }
    }
}
