//! Referee benchmarks: what the search pays for the rules.
//! `cargo bench --bench rules`

use chuhan::board::perft::reference_fen;
use chuhan::rules::repetition::{judge_for_side_to_move, previous_occurrence};
use chuhan::rules::Rules;
use chuhan::Position;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn play(fen: &str, moves: &str) -> Position {
    // Moves are checked: make_move trusts its input.
    let mut pos = Position::from_fen(fen).unwrap();
    for text in moves.split_whitespace() {
        let m = chuhan::notation::parse_iccs(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make_move(m);
    }
    pos
}

fn judge_cycle(c: &mut Criterion) {
    let rules = Rules::default();
    // A 4-ply cycle of chases (rules.md §6 C06) and one of checks (C01), closed at their second occurrence.
    let chase = play("4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1", "b1a1 a7b7 a1b1 b7a7");
    let checks = play("4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1", "f5e5 e9f9 e5f5 f9e9");
    let middlegame = play(reference_fen("pos2"), "f3f4 f8h7 f4f3 h7f8");
    for (name, pos) in [("chase cycle", &chase), ("check cycle", &checks), ("middlegame cycle", &middlegame)] {
        let from = previous_occurrence(pos).expect("the cycle repeats");
        c.bench_function(&format!("judge 4-ply {name}"), |b| {
            b.iter(|| black_box(judge_for_side_to_move(black_box(pos), from, &rules)))
        });
    }
}

fn prefilter(c: &mut Criterion) {
    // A 60-ply path without a capture or a repetition (deterministic quiet moves from the start), the test at
    // its end scanning the whole window when the filter lets it through.
    let mut pos = Position::startpos();
    for i in 0..60 {
        let quiet: Vec<_> = pos.legal_moves().iter().copied().filter(|&m| !pos.is_capture(m)).collect();
        let pick = (0..quiet.len()).map(|k| quiet[(i * 7 + k) % quiet.len()]).find(|&m| {
            pos.make_move(m);
            let fresh = previous_occurrence(&pos).is_none() && !pos.in_check();
            pos.unmake_move();
            fresh
        });
        pos.make_move(pick.expect("a fresh quiet move"));
    }
    c.bench_function("repetition pre-filter, 60-ply path without repetition", |b| {
        b.iter(|| black_box(previous_occurrence(black_box(&pos))))
    });
    // The same tree walked twice, making every leaf move; once with the test at each leaf.
    fn walk(pos: &mut Position, depth: u32, test: bool) -> u64 {
        if depth == 0 {
            return if test { previous_occurrence(pos).is_some() as u64 } else { 1 };
        }
        let mut n = 0;
        for &m in pos.legal_moves().iter() {
            pos.make_move(m);
            n += walk(pos, depth - 1, test);
            pos.unmake_move();
        }
        n
    }
    let mut start = Position::startpos();
    c.bench_function("tree of depth 3 with a repetition test at every leaf", |b| {
        b.iter(|| black_box(walk(&mut start, 3, true)))
    });
    c.bench_function("tree of depth 3 without the test (baseline)", |b| {
        b.iter(|| black_box(walk(&mut start, 3, false)))
    });
}

criterion_group!(benches, judge_cycle, prefilter);
criterion_main!(benches);
