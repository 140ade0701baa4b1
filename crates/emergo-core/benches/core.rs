//! Criterion benchmarks: move generation, perft with bulk counting, random playouts.
//! `cargo bench -p emergo-core`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use emergo_core::{perft::perft, playout::play_games, Position};

const POSITIONS: &str = include_str!("../tests/data/positions.tsv");
const PERFT: &str = include_str!("../tests/data/perft.txt");

fn data_positions() -> Vec<Position> {
    POSITIONS
        .lines()
        .step_by(10)
        .map(|l| l.split('\t').next().unwrap_or("").parse().expect("data"))
        .collect()
}

fn movegen(c: &mut Criterion) {
    let positions = data_positions();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut buffer = Vec::new();
    group.bench_function("legal_moves_into (every 10th data position)", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                p.legal_moves_into(&mut buffer);
                n += buffer.len();
            }
            black_box(n)
        })
    });
    group.bench_function("count_legal_moves (every 10th data position)", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| p.count_legal_moves())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = Position::start();
    group.throughput(Throughput::Elements(59_056_880));
    group.bench_function("start depth 5", |b| b.iter(|| perft(black_box(&start), 5)));
    let multijump: Position = PERFT
        .lines()
        .find_map(|l| l.strip_prefix("pos "))
        .expect("a position")
        .parse()
        .expect("data");
    group.throughput(Throughput::Elements(perft(&multijump, 5)));
    group.bench_function("g175p053-multijump depth 5", |b| {
        b.iter(|| perft(black_box(&multijump), 5))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(1000));
    group.bench_function("1000 random games", |b| {
        b.iter(|| play_games(black_box(1), 0..1000))
    });
    group.finish();
}

criterion_group!(benches, movegen, perft_bench, playouts);
criterion_main!(benches);
