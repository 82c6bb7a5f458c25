//! Board-core benchmarks: legal move generation, make/unmake, perft(4) from the start.
//! `cargo bench --bench board`

use chuhan::board::perft::{perft, reference_fen};
use chuhan::{GenType, MoveList, Position};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

/// Perft reference positions: the start, two middlegames, a sharp tactical one.
const POSITIONS: [&str; 4] = ["start", "pos2", "pos12", "fsf1"];

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS.iter().map(|n| Position::from_fen(reference_fen(n)).unwrap()).collect();
    c.bench_function("movegen/all (4 positions)", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                let mut list = MoveList::new();
                p.generate(GenType::All, &mut list);
                n += list.len();
            }
            black_box(n)
        })
    });
    c.bench_function("movegen/captures (4 positions)", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                let mut list = MoveList::new();
                p.generate(GenType::Captures, &mut list);
                n += list.len();
            }
            black_box(n)
        })
    });
}

fn make_unmake(c: &mut Criterion) {
    let mut positions: Vec<Position> =
        POSITIONS.iter().map(|n| Position::from_fen(reference_fen(n)).unwrap()).collect();
    let moves: Vec<MoveList> = positions.iter().map(|p| p.legal_moves()).collect();
    c.bench_function("make+unmake every legal move (4 positions)", |b| {
        b.iter(|| {
            for (p, list) in positions.iter_mut().zip(&moves) {
                for &m in list.iter() {
                    p.make_move(m);
                    black_box(p.key());
                    p.unmake_move();
                }
            }
        })
    });
}

fn perft4(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let mut pos = Position::startpos();
    group.bench_function("start depth 4 (3,290,240 leaves)", |b| b.iter(|| black_box(perft(&mut pos, 4))));
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, perft4);
criterion_main!(benches);
