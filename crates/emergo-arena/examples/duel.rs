//! A quick sanity duel between two built-in players (not the match runner: no statistics).
//!
//! `cargo run --release -p emergo-arena --example duel -- <a> <b> <games> <ms or n<nodes>>` where a player
//! is `ab<level>`, `mcts` or `random`. Prints the first player's points.

use emergo_core::Game;
use emergo_engine::{AlphaBetaPlayer, Limits, MctsPlayer, Player, RandomPlayer};
use std::time::Duration;

fn make(spec: &str, seed: u64) -> Box<dyn Player> {
    if let Some(rest) = spec.strip_prefix("ab") {
        // `ab<level>[-noev][+weight=value...]`: `-noev` turns off the threat evasions in
        // quiescence; `+name=value` sets an evaluation weight.
        let mut parts = rest.split('+');
        let rest = parts.next().unwrap_or("10");
        let mut weights = emergo_engine::eval::Weights::default();
        for part in parts {
            if let Some((name, value)) = part.split_once('=') {
                let ok = value.parse().is_ok_and(|v| weights.set(name, v));
                assert!(ok, "bad weight '{part}'");
            }
        }
        let (level, noev) = match rest.strip_suffix("-noev") {
            Some(l) => (l, true),
            None => (rest, false),
        };
        let mut p = AlphaBetaPlayer::new(level.parse().unwrap_or_default()).with_seed(seed);
        p.options_mut().threat_evasions = !noev;
        p.set_weights(weights);
        Box::new(p)
    } else if spec == "mcts" {
        Box::new(MctsPlayer::new(seed))
    } else {
        Box::new(RandomPlayer::new(seed))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = args.get(1).map_or("ab10", |s| s.as_str());
    let b = args.get(2).map_or("random", |s| s.as_str());
    let games: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    // `<ms>` per move, or `n<nodes>` per move.
    let budget = args.get(4).map_or("100", |s| s.as_str());
    let limits = match budget.strip_prefix('n') {
        Some(n) => Limits::nodes(n.parse().unwrap_or(10_000)),
        None => Limits::movetime(Duration::from_millis(budget.parse().unwrap_or(100))),
    };
    // DUEL_SEED shifts the openings, for a fresh sample.
    let seed_base: u64 = std::env::var("DUEL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut points = 0.0;
    for g in 0..games {
        let mut opening = RandomPlayer::new(g / 2 + seed_base);
        let mut game = Game::default();
        for _ in 0..4 {
            let m = opening.choose_move(&game, &limits).expect("a legal entry");
            game.play(m).expect("legal");
        }
        let a_white = g % 2 == 0;
        let mut pa = make(a, g);
        let mut pb = make(b, g + 77);
        while !game.is_over() && game.ply() < 600 {
            let white = game.position().turn() == emergo_core::Color::White;
            let p = if white == a_white { &mut pa } else { &mut pb };
            let m = p.choose_move(&game, &limits).expect("a move");
            game.play(m).expect("legal move");
        }
        let score = match game.status() {
            emergo_core::Status::Finished {
                outcome: emergo_core::Outcome::Win(c),
                ..
            } => f64::from(u8::from((c == emergo_core::Color::White) == a_white)),
            _ => 0.5,
        };
        points += score;
        if std::env::var_os("DUEL_QUIET").is_some() {
            continue;
        }
        println!(
            "game {g}: {a} {} -> {score} ({} plies, {:?})",
            if a_white { "white" } else { "black" },
            game.ply(),
            game.status()
        );
    }
    println!("{a} vs {b}: {points}/{games}");
}
