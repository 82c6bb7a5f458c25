//! Board-core benchmarks: legal move generation, make/unmake, perft(4) from the start.
//! `cargo bench --bench board`

use chuhan::tools::perft::perft;
use chuhan::{GenType, MoveList, Position};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
];

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS.iter().map(|f| Position::from_fen(f).unwrap()).collect();
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
    let mut positions: Vec<Position> = POSITIONS.iter().map(|f| Position::from_fen(f).unwrap()).collect();
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
