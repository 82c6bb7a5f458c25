//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator, and the
//! positions whose counts are published.

use super::{GenType, Position, START_FEN};
use crate::types::{Move, MoveList};
use rayon::prelude::*;
use std::io::Write;

/// A position whose perft counts are published.
pub struct Reference {
    /// Short name: `start`, `pos2`…`pos12` (the Chinese-chess perft page), `fsf1`, `fsf2` (Fairy-Stockfish).
    pub name: &'static str,
    pub fen: &'static str,
    /// Leaf counts at depth 1, 2, …
    pub counts: &'static [u64],
}

/// The reference positions of every xiangqi perft suite, with their counts: the tests check them, and the
/// bench, the benchmarks and the property tests use them as varied middlegames and endings.
#[rustfmt::skip]
pub const REFERENCES: [Reference; 14] = [
    Reference { name: "start", fen: START_FEN, counts: &[44, 1920, 79666, 3290240, 133312995, 5392831844] },
    Reference { name: "pos2", fen: "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        counts: &[38, 1128, 43929, 1339047, 53112976] },
    Reference { name: "pos3", fen: "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        counts: &[7, 281, 8620, 326201, 10369923] },
    Reference { name: "pos4", fen: "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        counts: &[25, 424, 9850, 202884, 4739553, 100055401] },
    Reference { name: "pos5", fen: "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        counts: &[28, 516, 14808, 395483, 11842230] },
    Reference { name: "pos6", fen: "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        counts: &[21, 364, 7626, 162837, 3500505, 81195154] },
    Reference { name: "pos7", fen: "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        counts: &[28, 222, 6241, 64971, 1914306, 23496493] },
    Reference { name: "pos8", fen: "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        counts: &[23, 345, 8124, 149272, 3513104, 71287903] },
    Reference { name: "pos9", fen: "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
        counts: &[21, 195, 3883, 48060, 933096, 12250386] },
    Reference { name: "pos10", fen: "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        counts: &[30, 830, 22787, 649866, 17920736] },
    Reference { name: "pos11", fen: "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
        counts: &[19, 583, 11714, 376467, 8148177] },
    Reference { name: "pos12", fen: "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        counts: &[58, 1651, 90744, 2605437, 140822416] },
    Reference { name: "fsf1", fen: "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        counts: &[49, 2265, 100326, 4485547] },
    Reference { name: "fsf2", fen: "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        counts: &[13, 272, 3707, 92741] },
];

/// The FEN of the reference position called `name` (see [`REFERENCES`]); panics on an unknown name.
pub fn reference_fen(name: &str) -> &'static str {
    REFERENCES.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no perft reference '{name}'")).fen
}

/// Number of leaf nodes `depth` plies below `pos`. Depth 1 counts the legal moves without playing them.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal() as u64;
    }
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Perft split at the root: the count below each legal move, sorted by the move's coordinates.
/// With `threads > 1` the root moves are shared out over a rayon pool of that many threads.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    divide_observed(pos, depth, threads, &|| {})
}

/// [`divide`], calling `done` as each root move's count is finished (for a progress display).
pub fn divide_observed(pos: &Position, depth: u32, threads: usize, done: &(dyn Fn() + Sync)) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let count = |&m: &Move| {
        let mut p = pos.clone();
        p.make_move(m);
        let n = perft(&mut p, depth.saturating_sub(1));
        done();
        (m, n)
    };
    let mut out: Vec<(Move, u64)> = if threads <= 1 || depth <= 2 {
        moves.iter().map(count).collect()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    };
    out.sort_by_key(|(m, _)| m.to_string());
    out
}

/// Runs perft and writes the report: with `show_moves`, one `h2e2: N` line per root move; always a last line
/// `Nodes searched: N`. Returns the total.
pub fn report(pos: &Position, depth: u32, threads: usize, show_moves: bool, out: &mut impl Write) -> u64 {
    report_observed(pos, depth, threads, show_moves, out, &|| {})
}

/// [`report`], calling `done` as each root move is counted (when depth > 0).
pub fn report_observed(
    pos: &Position,
    depth: u32,
    threads: usize,
    show_moves: bool,
    out: &mut impl Write,
    done: &(dyn Fn() + Sync),
) -> u64 {
    let total = if depth == 0 {
        1
    } else {
        let split = divide_observed(pos, depth, threads, done);
        if show_moves {
            for (m, n) in &split {
                let _ = writeln!(out, "{m}: {n}");
            }
            let _ = writeln!(out);
        }
        split.iter().map(|(_, n)| n).sum()
    };
    let _ = writeln!(out, "Nodes searched: {total}");
    let _ = out.flush();
    total
}
