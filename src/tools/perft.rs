//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator.

use crate::board::{GenType, Position};
use crate::types::{Move, MoveList};
use rayon::prelude::*;
use std::io::Write;

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
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let count = |&m: &Move| {
        let mut p = pos.clone();
        p.make_move(m);
        (m, perft(&mut p, depth.saturating_sub(1)))
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
    let total = if depth == 0 {
        1
    } else if show_moves || threads > 1 {
        let split = divide(pos, depth, threads);
        if show_moves {
            for (m, n) in &split {
                let _ = writeln!(out, "{m}: {n}");
            }
            let _ = writeln!(out);
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft(&mut pos.clone(), depth)
    };
    let _ = writeln!(out, "Nodes searched: {total}");
    let _ = out.flush();
    total
}
