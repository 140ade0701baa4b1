//! `emergo serve` killed with SIGKILL in the middle of a game loses no acknowledged move.

use serde_json::{json, Value};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Starts `emergo serve` on a free loopback port with its log in `log`; returns the process
/// and its base URL. A server that ends before it prints its address is started once more
/// (the database is the same); a second such end fails the test with the exit status and log
/// of both attempts.
fn serve(db_url: &str, log: &Path) -> (Child, String) {
    match start_server(db_url, log) {
        Ok(started) => started,
        Err(first) => {
            eprintln!("first start failed: {first}");
            start_server(db_url, log)
                .unwrap_or_else(|second| panic!("emergo serve did not start: {first}\n{second}"))
        }
    }
}

fn start_server(db_url: &str, log: &Path) -> Result<(Child, String), String> {
    let stderr = File::create(log).expect("a log file");
    let mut child = Command::new(env!("CARGO_BIN_EXE_emergo"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db_url])
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("emergo serve starts");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // "Open http://127.0.0.1:PORT/ in a browser"
    let mut printed = Vec::new();
    for line in stdout.lines() {
        let line = line.expect("stdout is text");
        if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
            return Ok((child, url.trim_end_matches('/').to_string()));
        }
        printed.push(line);
    }
    let status = child.wait().expect("reaped");
    let log = std::fs::read_to_string(log).unwrap_or_default();
    Err(format!(
        "emergo serve ended ({status}) without an address; stdout: {printed:?}; stderr:\n{log}"
    ))
}

fn post(
    client: &reqwest::blocking::Client,
    url: &str,
    body: Value,
) -> reqwest::Result<(u16, Value)> {
    let res = client.post(url).json(&body).send()?;
    let status = res.status().as_u16();
    Ok((status, res.json()?))
}

#[test]
fn a_killed_server_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let db = dir.path().join("kill.db").display().to_string();
    let (mut server, base) = serve(&db, &dir.path().join("first.log"));
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client");

    let (status, white) = post(
        &client,
        &format!("{base}/api/games"),
        json!({"mode": "human", "color": "white"}),
    )
    .expect("create");
    assert_eq!(status, 201, "{white}");
    let id = white["game"]["id"].as_str().expect("id").to_string();
    let (status, black) = post(
        &client,
        &format!("{base}/api/games/{id}/join"),
        json!({"invite": white["invite"]}),
    )
    .expect("join");
    assert_eq!(status, 200, "{black}");
    let tokens = [white["token"].clone(), black["token"].clone()];

    // Both people move as fast as they can until the connection breaks; every 200 is an
    // acknowledged move.
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let stopped = Arc::new(AtomicBool::new(false));
    let mover = {
        let (acknowledged, stopped, client) =
            (acknowledged.clone(), stopped.clone(), client.clone());
        let url = format!("{base}/api/games/{id}/moves");
        let mut game = black["game"].clone();
        std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) && game["status"] == "ongoing" {
                let ply = game["ply"].as_u64().expect("ply") as usize;
                let legal = game["legal_moves"].as_array().expect("moves");
                let mv = legal[ply * 7 % legal.len()]
                    .as_str()
                    .expect("move")
                    .to_string();
                let body = json!({"token": tokens[ply % 2], "ply": ply, "move": mv});
                match post(&client, &url, body) {
                    Ok((200, answer)) => {
                        acknowledged.lock().expect("lock").push(mv);
                        game = answer;
                    }
                    Ok((status, answer)) => panic!("move refused: {status} {answer}"),
                    Err(_) => break, // the server is gone
                }
            }
        })
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while acknowledged.lock().expect("lock").len() < 12 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill().expect("SIGKILL");
    server.wait().expect("reaped");
    stopped.store(true, Ordering::SeqCst);
    mover.join().expect("the mover ends");
    let acknowledged = acknowledged.lock().expect("lock").clone();
    assert!(
        acknowledged.len() >= 12,
        "moves were acknowledged before the kill"
    );

    let (mut server, base) = serve(&db, &dir.path().join("second.log"));
    let game: Value = client
        .get(format!("{base}/api/games/{id}"))
        .send()
        .and_then(|r| r.json())
        .expect("the game after the restart");
    server.kill().expect("stop");
    let _ = server.wait();
    let stored: Vec<String> = serde_json::from_value(game["moves"].clone()).expect("moves");
    // Every acknowledged move is there, in order; at most the one in flight at the kill more.
    assert!(
        stored.len() >= acknowledged.len(),
        "{stored:?} vs {acknowledged:?}"
    );
    assert!(
        stored.len() <= acknowledged.len() + 1,
        "{stored:?} vs {acknowledged:?}"
    );
    assert_eq!(stored[..acknowledged.len()], acknowledged[..]);
}
