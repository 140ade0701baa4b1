//! Criterion benchmarks of the search: the bench positions to a fixed depth, the evaluations
//! (linear and learned), and MCTS playouts. `cargo bench -p emergo-engine`. The node-count signature is `emergo bench`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use emergo_core::{Emergo, Game, Position};
use emergo_engine::eval::{evaluate, Weights};
use emergo_engine::pattern::Net;
use emergo_engine::{bench, Limits, MctsPlayer};

fn positions() -> Vec<Position> {
    bench::POSITIONS
        .iter()
        .map(|(_, text)| text.parse().expect("bench positions are valid"))
        .collect()
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let nodes = bench::run(5, |_, _| {}).nodes;
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("bench positions, depth 5 (throughput = nodes)", |b| {
        b.iter(|| black_box(bench::run(5, |_, _| {}).nodes))
    });
    group.finish();
}

fn eval(c: &mut Criterion) {
    let positions = positions();
    let weights = Weights::default();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("evaluate (bench positions)", |b| {
        b.iter(|| positions.iter().map(|p| evaluate(p, &weights)).sum::<i32>())
    });
    let net = Net::shipped::<Emergo>().expect("the shipped learned evaluation");
    group.bench_function("learned evaluation (bench positions)", |b| {
        b.iter(|| positions.iter().map(|p| net.evaluate(p)).sum::<i32>())
    });
    group.finish();
}

fn mcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1_000));
    let game = Game::default();
    group.bench_function("1000 playouts from the start", |b| {
        b.iter(|| black_box(MctsPlayer::new(1).search(&game, &Limits::nodes(1_000))))
    });
    group.finish();
}

criterion_group!(benches, search, eval, mcts);
criterion_main!(benches);
