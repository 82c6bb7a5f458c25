//! Shared helpers for the integration tests: seeded random play-outs over varied positions.

#![allow(dead_code)]

use chuhan::{Move, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Positions the play-outs start from: the start, and the perft reference positions (middlegames and endings).
pub const STARTS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "3akab2/9/4b4/p1p1p1p1p/9/9/P1P1P1P1P/4B4/9/2BAKA3 w - - 0 1",
];

pub fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

/// Plays up to `plies` random legal moves from `pos` (preferring captures now and then, so that games thin
/// out into endings), calling `visit` on every position reached, the first included. Stops at mate.
pub fn playout(pos: &mut Position, plies: usize, rng: &mut SmallRng, mut visit: impl FnMut(&mut Position)) {
    visit(pos);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        let captures: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
        let m = if !captures.is_empty() && rng.gen_bool(0.4) {
            captures[rng.gen_range(0..captures.len())]
        } else {
            moves.as_slice()[rng.gen_range(0..moves.len())]
        };
        pos.make_move(m);
        visit(pos);
    }
}

/// Calls `visit` on about `count` varied positions reached by random play from every start.
pub fn random_positions(count: usize, seed: u64, mut visit: impl FnMut(&mut Position)) {
    let mut rng = rng(seed);
    let mut seen = 0;
    while seen < count {
        let fen = STARTS[rng.gen_range(0..STARTS.len())];
        let mut pos = Position::from_fen(fen).unwrap();
        let plies = rng.gen_range(10..160);
        playout(&mut pos, plies, &mut rng, |p| {
            if seen < count {
                visit(p);
                seen += 1;
            }
        });
    }
}
