//! The speed figures of each board in one small binary, for instruction counts
//! (`valgrind --tool=callgrind`) that compare two builds side by side: perft from the start and
//! uniformly random games. The board is the square 9×9 one unless a third argument names
//! another (`emergo`, `7x7`, `hex`).
//!
//! ```text
//! cargo build --release -p emergo-core --example perf
//! valgrind --tool=callgrind target/release/examples/perf perft 5
//! valgrind --tool=callgrind target/release/examples/perf random 2000
//! target/release/examples/perf perft 6 hex
//! ```

use emergo_core::{
    perft::perft, playout::play_games_on, position::Position, with_variant, VariantKind,
};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let kind: VariantKind = match args.get(3).map(|s| s.parse()).transpose() {
        Ok(kind) => kind.unwrap_or_default(),
        Err(e) => return eprintln!("{e}"),
    };
    let started = Instant::now();
    match args.get(1).map(String::as_str) {
        Some("perft") => {
            let count = with_variant!(kind, V => perft(&Position::<V>::start(), n as u32));
            println!(
                "{kind} perft {n}: {count} ({:.2} s)",
                started.elapsed().as_secs_f64()
            );
        }
        Some("random") => {
            let t = with_variant!(kind, V => play_games_on::<V>(1, 0..n));
            let seconds = started.elapsed().as_secs_f64();
            println!(
                "{kind} random {n}: {} plies, {} legal moves, white {} black {} draws {} \
                 ({:.0} games/s)",
                t.plies,
                t.legal_moves,
                t.wins.white,
                t.wins.black,
                t.draws,
                n as f64 / seconds.max(1e-9)
            );
        }
        _ => eprintln!("usage: perf perft <depth> [variant] | perf random <games> [variant]"),
    }
}
