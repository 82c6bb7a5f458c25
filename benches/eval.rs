//! Evaluation (handcrafted and network) and check-evasion benchmarks over the `chuhan bench` positions.
//! `cargo bench --bench eval`

use chuhan::bench::positions;
use chuhan::eval::hce::evaluate;
use chuhan::eval::Evaluator;
use chuhan::nnue::{self, Network};
use chuhan::{GenType, MoveList, Position};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::sync::Arc;

fn bench_positions() -> Vec<Position> {
    positions().iter().map(|f| Position::from_fen(f).unwrap()).collect()
}

fn evaluation(c: &mut Criterion) {
    let positions = bench_positions();
    c.bench_function(&format!("evaluate ({} positions)", positions.len()), |b| {
        b.iter(|| positions.iter().map(|p| evaluate(black_box(p))).sum::<i32>())
    });
}

/// Every position one checking move away from a bench position: evasions take their own path.
fn evasions(c: &mut Criterion) {
    let mut checked = Vec::new();
    for pos in bench_positions() {
        for &m in pos.legal_moves().iter().filter(|&&m| pos.gives_check(m)) {
            let mut p = pos.clone();
            p.make_move(m);
            checked.push(p);
        }
    }
    c.bench_function(&format!("movegen/evasions ({} positions)", checked.len()), |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &checked {
                let mut list = MoveList::new();
                p.generate(GenType::Evasions, &mut list);
                n += list.len();
            }
            black_box(n)
        })
    });
}

/// The network (random weights, H = 256, plain inputs as net5 has): a full refresh, and a make-evaluate-unmake step over every legal
/// move of the bench positions (what the search pays per node).
fn network(c: &mut Criterion) {
    let net = Arc::new(Network::random(chuhan::nnue::features::FeatureSet::Plain, 256, 1, 1));
    let positions = bench_positions();
    c.bench_function("nnue/refresh+evaluate (32 positions)", |b| {
        b.iter(|| positions.iter().map(|p| nnue::State::evaluate_full(&net, black_box(p))).sum::<i32>())
    });
    let mut states: Vec<(Position, nnue::State, Vec<chuhan::Move>)> = positions
        .iter()
        .map(|p| {
            let mut s = nnue::State::new(Arc::clone(&net));
            s.refresh(p);
            (p.clone(), s, p.legal_moves().iter().copied().collect())
        })
        .collect();
    let moves: usize = states.iter().map(|s| s.2.len()).sum();
    c.bench_function(&format!("nnue/push+evaluate+pop ({moves} moves)"), |b| {
        b.iter(|| {
            let mut total = 0;
            for (pos, s, list) in states.iter_mut() {
                for &m in list.iter() {
                    s.push(pos, m);
                    pos.make_move(m);
                    total += s.evaluate(pos);
                    pos.unmake_move();
                    s.pop();
                }
            }
            black_box(total)
        })
    });
}

criterion_group!(benches, evaluation, evasions, network);
criterion_main!(benches);
