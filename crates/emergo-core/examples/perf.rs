//! The speed figures of the square 9×9 board in one small binary, for instruction counts
//! (`valgrind --tool=callgrind`) that compare two builds side by side: perft from the start and
//! uniformly random games.
//!
//! ```text
//! cargo build --release -p emergo-core --example perf
//! valgrind --tool=callgrind target/release/examples/perf perft 5
//! valgrind --tool=callgrind target/release/examples/perf random 1000
//! ```

use emergo_core::{perft::perft, playout::play_games, Position};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    match args.get(1).map(String::as_str) {
        Some("perft") => println!("perft {n}: {}", perft(&Position::start(), n as u32)),
        Some("random") => {
            let t = play_games(1, 0..n);
            println!(
                "random {n}: {} plies, {} legal moves, white {} black {} draws {}",
                t.plies, t.legal_moves, t.wins.white, t.wins.black, t.draws
            );
        }
        _ => eprintln!("usage: perf perft <depth> | perf random <games>"),
    }
}
