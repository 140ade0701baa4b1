//! The fixed benchmark: a fixed set of positions, each searched to a fixed depth with a fresh
//! table on one thread. The total node count is the search's signature: a change that alters it
//! changed the search, on purpose or not. Nodes per second measure speed.
//!
//! The square 9×9 board has its fixed list ([`POSITIONS`]); the other boards
//! ([`run_variant`]) search their start and positions of random games from it, the same on
//! every run (seeded), each with the board's own weights.

use crate::eval::Weights;
use crate::pattern::EvalKind;
use crate::search::tt::TranspositionTable;
use crate::search::{self, SearchOptions};
use crate::Limits;
use emergo_core::game::Game;
use emergo_core::playout::SplitMix;
use emergo_core::position::Position;
use emergo_core::{with_variant, Emergo, Variant, VariantKind};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The depth the bench searches to by default.
pub const DEFAULT_DEPTH: u32 = 9;

/// The bench positions: the start, early entering positions, and the 24 movement-phase positions
/// of emergo-core's perft suite (`tests/data/perft.txt`).
pub const POSITIONS: &[(&str, &str)] = &[
    ("start", "W:12:12"),
    ("entering-4", "W:10:10:c4=W,d6=B,f4=W,f6=B"),
    ("entering-10", "W:7:7:c4=W,c6=B,d3=W,d7=B,e4=W,e6=B,f3=W,f7=B,g4=W,g6=B"),
    ("g175p053-multijump", "B:0:0:b4=BW,c5=B,d3=B,d7=B,e1=BWW,e7=BWWWW,e8=B,e9=B,f3=W,f5=WB,f8=BW,g4=WB,g6=W,h6=B"),
    ("g100p049-multijump", "B:0:0:b4=BW,c7=BBBW,d2=B,d4=WBB,d5=WW,e8=W,f2=BW,f3=W,f5=WB,f7=B,g3=W,g4=W,h5=W,h6=B,i5=B"),
    ("g117p051-multijump", "B:0:0:a5=B,b6=WB,c4=WB,e1=BW,e6=WB,e8=W,f2=W,f4=WBBBB,f7=W,f8=W,g4=WW,g7=BBW,i5=B"),
    ("g056p045-multijump", "B:0:0:b5=B,c4=W,d4=WBB,d8=WB,e6=WWB,e9=W,f2=WBB,f4=W,f7=W,f8=B,g3=W,g6=WBB,h4=WBB"),
    ("g010p041-multijump", "B:0:0:b4=B,b5=B,c3=W,c7=BWWWW,d2=B,e2=WB,e4=W,e8=WB,e9=B,f2=W,f6=BWW,f7=WB,g4=B,h5=B,i5=B"),
    ("g005p042-multijump", "W:0:0:a5=W,c7=W,d2=W,d3=WBB,d4=BW,d5=B,d7=BW,d8=B,e1=B,e6=BWW,e8=B,f3=W,f5=B,g3=W,g7=BWW,h6=B"),
    ("g075p032-capture", "W:0:0:a5=B,b5=B,b6=W,c3=W,c7=B,e3=W,e5=BW,e7=B,e9=W,f2=W,f4=BW,f5=B,f6=B,f7=BW,f8=B,g3=W,g4=B,g7=WB,h6=W,i5=W"),
    ("g023p033-capture", "B:0:0:b4=B,c3=B,c7=B,e2=W,e3=BW,e7=WB,e9=W,f2=B,f5=WBBB,f6=WW,f8=B,g5=WB,h4=BWWW,i5=W"),
    ("g001p053-capture", "B:0:0:a5=WBBB,b4=BW,b5=W,b6=BW,d7=WWW,d8=WB,g3=B,g6=WBBB,g7=BW,h6=BW,i5=W"),
    ("g151p147-capture", "B:0:0:b4=B,b6=BW,d2=BWWW,d3=B,e5=BBBW,e6=WWB,f3=WBB,g3=BWWW,h6=BW"),
    ("g089p025-shadow", "B:0:2:b4=B,b6=W,c6=W,c7=W,d4=W,d7=W,d8=W,e2=B,e3=B,e6=B,e9=B,f4=W,f5=W,f7=B,g3=W,g5=WB,g7=B,h6=BW,i5=BW"),
    ("g181p030-shadow", "W:0:2:a5=BWWWW,b6=WB,c7=B,d2=B,d4=WB,e3=BW,e7=BW,f2=B,f5=W,f6=W,f8=B,g3=W,g6=W,i5=B"),
    ("g112p029-shadow", "B:0:2:a5=B,c3=BW,c5=B,c6=BW,c7=B,d2=W,d7=B,e6=WB,e9=W,f2=BWW,f3=B,f6=W,f8=W,g7=BW,h6=W,i5=W"),
    ("g159p027-shadow", "B:2:0:a5=B,b4=W,b5=B,b6=W,c5=B,d7=W,e1=B,e3=B,e6=WB,e7=WB,e9=W,f6=WBB,f8=W,g5=B,g7=B,h4=WB,i5=W"),
    ("g147p026-shadow", "W:5:0:b5=B,c5=B,c7=W,d2=W,d6=WB,e2=W,e8=WBBBB,f2=B,f5=BW,f6=B,g3=B,h4=WB"),
    ("g149p122-quiet", "W:0:0:b4=WB,b5=W,c3=BW,d2=BWW,d3=BW,e5=WB,g4=B,g7=B,h4=BBW,h6=BBBWWWW"),
    ("g154p068-quiet", "W:0:0:b6=W,c3=WWBBB,c4=WWB,c7=B,d2=WWW,d4=W,d6=WBB,e1=B,f2=BB,f7=BW,g6=WB"),
    ("g039p060-quiet", "W:0:0:c6=BWWW,c7=B,d5=B,e1=B,e2=BBWW,e4=B,e6=WB,e8=W,f7=WWW,g7=WBB,h4=B,h6=W,i5=B"),
    ("g170p066-quiet", "W:0:0:b5=B,c7=WBB,d3=BWWWW,d6=WBB,f2=WBBB,f3=W,f5=W,g4=WBBB,g5=W,h6=W"),
    ("g059p111-quiet", "B:0:0:c3=WWBBB,c4=BBWW,d7=BWW,e6=BW,e9=B,f4=BBB,g3=BWWW,g7=WW"),
    ("g105p087-quiet", "B:0:0:b5=B,c4=BWWW,c6=BBBW,d4=BB,d7=W,d8=W,e1=B,e7=WB,e9=B,f4=B,f6=WW,f8=W,g7=BWW"),
    ("g192p069-quiet", "B:0:0:b5=BW,c3=BW,c4=BB,d3=BWW,d6=B,e5=B,e9=WBB,f8=W,g7=W,h4=WWW,i5=WWBBB"),
    ("g027p033-quiet", "B:0:0:a5=B,b4=W,b5=B,b6=B,c3=BWW,d2=B,d3=B,d8=W,e2=BWWW,e9=B,f2=W,f3=W,f6=WB,f8=B,g3=WB,h4=B,i5=W"),
    ("g127p085-quiet", "B:0:0:a5=B,c4=B,d2=W,d5=BBWWW,d7=BW,d8=B,f2=WB,f5=WW,f8=WWWBB,h4=BW,h5=BB"),
];

/// The outcome of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    pub positions: usize,
    pub depth: u32,
    /// The signature: total nodes over all positions.
    pub nodes: u64,
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Positions of the random games of a board other than the square 9×9 one: this many games.
const RANDOM_GAMES: u64 = 9;
/// ... and from each, the positions after this many plies (those the game reaches).
const RANDOM_PLIES: [usize; 3] = [6, 30, 60];

/// The bench positions of the board `V`, named: [`POSITIONS`] on the square 9×9 board; the
/// start and positions of seeded random games on the others.
pub fn positions<V: Variant>() -> Vec<(String, Position<V>)> {
    if V::KIND == VariantKind::Emergo {
        return POSITIONS
            .iter()
            .filter_map(|(name, text)| Some((name.to_string(), text.parse().ok()?)))
            .collect();
    }
    let mut list = vec![("start".to_string(), Position::<V>::start())];
    for seed in 1..=RANDOM_GAMES {
        let mut rng = SplitMix::new(seed);
        let mut pos = Position::<V>::start();
        for ply in 1..=RANDOM_PLIES[RANDOM_PLIES.len() - 1] {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
            if RANDOM_PLIES.contains(&ply) && !pos.legal_moves().is_empty() {
                list.push((format!("random-g{seed}p{ply:03}"), pos));
            }
        }
    }
    list
}

/// Searches every bench position of the square 9×9 board to `depth`, calling
/// `each(name, nodes)` after each.
pub fn run(depth: u32, each: impl FnMut(&str, u64)) -> BenchReport {
    run_on::<Emergo>(depth, EvalKind::default(), each)
}

/// [`run`] on the board `kind` with the evaluation `eval`.
pub fn run_variant(
    kind: VariantKind,
    depth: u32,
    eval: EvalKind,
    each: impl FnMut(&str, u64),
) -> BenchReport {
    with_variant!(kind, V => run_on::<V>(depth, eval, each))
}

/// [`run`] on the board `V`, with its weights and the evaluation `eval`.
pub fn run_on<V: Variant>(
    depth: u32,
    eval: EvalKind,
    mut each: impl FnMut(&str, u64),
) -> BenchReport {
    let start = Instant::now();
    let mut nodes = 0;
    let options = SearchOptions {
        weights: Weights::for_variant(V::KIND),
        eval,
        ..SearchOptions::default()
    };
    let stop = AtomicBool::new(false);
    let list = positions::<V>();
    for (name, pos) in &list {
        let tt = TranspositionTable::new(16);
        let full = search::search(
            &Game::new(*pos),
            &Limits::depth(depth),
            &options,
            &tt,
            &stop,
            &mut |_| {},
        );
        nodes += full.result.nodes;
        each(name, full.result.nodes);
    }
    BenchReport {
        positions: list.len(),
        depth,
        nodes,
        time: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_valid_text() {
        for (name, text) in POSITIONS {
            assert!(
                text.parse::<emergo_core::Position>().is_ok(),
                "{name}: {text}"
            );
        }
        assert_eq!(positions::<Emergo>().len(), POSITIONS.len());
    }

    #[test]
    fn every_board_has_bench_positions_with_moves_and_a_steady_signature() {
        for kind in [VariantKind::Emergo7x7, VariantKind::HexEmergo] {
            let count = with_variant!(kind, V => {
                let list = positions::<V>();
                assert!(list.iter().all(|(_, p)| !p.legal_moves().is_empty()), "{kind}");
                list.len()
            });
            assert!(count > 10, "{kind}: {count}");
            let a = run_variant(kind, 2, EvalKind::default(), |_, _| {});
            let b = run_variant(kind, 2, EvalKind::default(), |_, _| {});
            assert_eq!((a.nodes, a.positions), (b.nodes, count), "{kind}");
        }
    }

    #[test]
    fn the_bench_signature_is_the_same_on_every_run() {
        let a = run(2, |_, _| {});
        let b = run(2, |_, _| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > POSITIONS.len() as u64);
    }
}
