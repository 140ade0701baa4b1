//! `emergo serve` killed with SIGKILL in the middle of a game loses no acknowledged move.

use crate::common::serve;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
