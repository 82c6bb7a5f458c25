//! Evaluation and check-evasion benchmarks over the `chuhan bench` positions. `cargo bench --bench eval`

use chuhan::bench::positions;
use chuhan::eval::hce::evaluate;
use chuhan::{GenType, MoveList, Position};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

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

criterion_group!(benches, evaluation, evasions);
criterion_main!(benches);
