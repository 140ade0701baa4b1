//! `--timed N`: N timed games between people at once (issue 11). In each, both players move
//! `--timed-moves` times with the usual thinking time, then White stops moving and its flag
//! falls. Reports the latency of a move while the N clocks run, and how late the flag falls are
//! seen: by the players (the finished state on the WebSocket against the fall the last answer's
//! clock announced: White's time left + the lag allowance after that answer arrived), and by the
//! server itself (printed by the server child on standard error when it stops: how long after
//! the flag fell the loss was stored and published).

use super::{error, ms, next_state, percentile, person_addr, post, ws_from, Rng, Shared, Tally};
use serde_json::{json, Value};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The server's lag allowance (src/clock.rs): a flag falls this long after the clock shows 0.
const LAG_ALLOWANCE: Duration = Duration::from_millis(500);

#[derive(Default)]
struct Timed {
    /// Finished state seen minus the announced fall, in ms (negative: seen before).
    late_ms: Vec<f64>,
    reasons: std::collections::BTreeMap<String, u64>,
}

pub async fn run(
    n: usize,
    tc: &str,
    moves_each: usize,
    think_ms: u64,
    base: &str,
) -> anyhow::Result<()> {
    let tally: Shared = Arc::new(Mutex::new(Tally::default()));
    let timed = Arc::new(Mutex::new(Timed::default()));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..n {
        let white = client_from(person_addr(i))?;
        let black = client_from(person_addr(n + i))?;
        let (tally, timed, base, tc) = (
            tally.clone(),
            timed.clone(),
            base.to_string(),
            tc.to_string(),
        );
        let rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 7).wrapping_mul(0x2545_F491_4F6C_DD1D));
        tasks.push(tokio::spawn(async move {
            let game = Game {
                white,
                black,
                from: person_addr(i),
                base,
                tc,
                rng,
            };
            match game.play(moves_each, think_ms, &tally).await {
                Ok((late, reason)) => {
                    let mut t = timed.lock().expect("timed");
                    t.late_ms.push(late);
                    *t.reasons.entry(reason).or_default() += 1;
                }
                Err(what) => error(&tally, what),
            }
        }));
    }
    for task in tasks {
        if let Err(e) = task.await {
            error(&tally, format!("task: {e}"));
        }
    }
    let t = tally.lock().expect("tally");
    let mut lat = t.person_latency.clone();
    lat.sort();
    let timed = timed.lock().expect("timed");
    let mut late = timed.late_ms.clone();
    late.sort_by(f64::total_cmp);
    let pick = |p: f64| {
        let i = ((late.len() as f64 - 1.0) * p).round() as usize;
        late.get(i)
            .map_or("-".to_string(), |v| format!("{v:.0} ms"))
    };
    println!(
        "timed load test: {n} games {tc} at once, {moves_each} moves each side, then White's flag falls; {:.1} s",
        start.elapsed().as_secs_f64()
    );
    println!(
        "a move while the clocks run, request to answer: median {}, p90 {}, p99 {}, max {} ({} moves)",
        ms(percentile(&lat, 0.5)),
        ms(percentile(&lat, 0.9)),
        ms(percentile(&lat, 0.99)),
        ms(lat.last().copied()),
        t.person_moves
    );
    println!(
        "flag falls seen by the players (finished state on the WebSocket after the announced fall): median {}, p99 {}, max {} ({} games; endings {:?})",
        pick(0.5),
        pick(0.99),
        pick(1.0),
        late.len(),
        timed.reasons
    );
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        let load: Vec<&str> = load.split_whitespace().take(3).collect();
        println!(
            "machine load average (1, 5, 15 min) at the end: {}",
            load.join(" ")
        );
    }
    if t.errors.is_empty() {
        println!("errors: none");
        Ok(())
    } else {
        for (what, k) in &t.errors {
            println!("  {k} × {what}");
        }
        anyhow::bail!("the timed load test found errors")
    }
}

fn client_from(from: IpAddr) -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .local_address(from)
        .build()?)
}

struct Game {
    white: reqwest::Client,
    black: reqwest::Client,
    from: IpAddr,
    base: String,
    tc: String,
    rng: Rng,
}

impl Game {
    /// Plays the game; returns how late its flag fall was seen (ms) and its ending.
    async fn play(
        mut self,
        moves_each: usize,
        think_ms: u64,
        tally: &Shared,
    ) -> Result<(f64, String), String> {
        let base = self.base.clone();
        let (status, grant) = post(
            &self.white,
            &format!("{base}/api/games"),
            json!({"mode": "human", "color": "white", "time": self.tc}),
        )
        .await?;
        if status != 201 {
            return Err(format!("create: {status} {}", grant["error"]));
        }
        let id = grant["game"]["id"].as_str().unwrap_or_default().to_string();
        let ws_url = format!("{}/api/games/{id}/ws", base.replacen("http://", "ws://", 1));
        let mut socket = ws_from(self.from, &ws_url).await?;
        next_state(&mut socket, Instant::now() + Duration::from_secs(30)).await?;
        let (status, joined) = post(
            &self.black,
            &format!("{base}/api/games/{id}/join"),
            json!({"invite": grant["invite"]}),
        )
        .await?;
        if status != 200 {
            return Err(format!("join: {status} {}", joined["error"]));
        }
        let tokens = [grant["token"].clone(), joined["token"].clone()];
        let mut game: Value = joined["game"].clone();
        let mut answered = Instant::now();
        for ply in 0..2 * moves_each {
            let think = if think_ms == 0 {
                0
            } else {
                self.rng.below(2 * think_ms)
            };
            tokio::time::sleep(Duration::from_millis(think)).await;
            let mv = game["legal_moves"][0]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let client = if ply % 2 == 0 {
                &self.white
            } else {
                &self.black
            };
            let asked = Instant::now();
            let (status, answer) = post(
                client,
                &format!("{base}/api/games/{id}/moves"),
                json!({"token": tokens[ply % 2], "ply": ply, "move": mv}),
            )
            .await?;
            answered = Instant::now();
            if status != 200 {
                return Err(format!("move: {status} {}", answer["error"]));
            }
            {
                let mut t = tally.lock().expect("tally");
                t.person_latency.push(asked.elapsed());
                t.person_moves += 1;
            }
            game = answer;
            if game["status"] != "ongoing" {
                return Err("the game ended before White's flag fell".to_string());
            }
        }
        // White moves no more: its flag falls once its time and the lag allowance are spent.
        let left = game["clock"]["white_ms"]
            .as_u64()
            .ok_or("no clock in the answer")?;
        let announced = answered + Duration::from_millis(left) + LAG_ALLOWANCE;
        let until = announced + Duration::from_secs(30);
        loop {
            let seen = next_state(&mut socket, until).await?;
            if seen["status"] == "finished" {
                let at = Instant::now();
                let late = if at >= announced {
                    (at - announced).as_secs_f64() * 1000.0
                } else {
                    -((announced - at).as_secs_f64() * 1000.0)
                };
                let reason = format!("{} {}", seen["result"], seen["reason"]);
                return Ok((late, reason));
            }
        }
    }
}
