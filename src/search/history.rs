//! Move-ordering statistics (butterfly, continuation, capture histories, killers and counter-moves) and the
//! correction history of the static evaluation.

use super::params;
use crate::board::Position;
use crate::types::{Color, Move, Piece};

pub const MAX_HISTORY: i32 = 16384;

/// Moves a statistic towards `bonus` with gravity, keeping it within ±MAX_HISTORY.
#[inline]
pub fn update(entry: &mut i16, bonus: i32) {
    gravity(entry, bonus, MAX_HISTORY);
}

/// Moves `entry` towards `bonus`, the more slowly the closer it is to `±limit`.
#[inline]
fn gravity(entry: &mut i16, bonus: i32, limit: i32) {
    let b = bonus.clamp(-limit, limit);
    let v = *entry as i32;
    *entry = (v + b - v * b.abs() / limit) as i16;
}

/// History bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (params::history_bonus_mul() * depth - params::history_bonus_sub()).clamp(0, params::history_bonus_max())
}

/// Entries of each correction table (a power of two).
const CORRECTION_SIZE: usize = 16384;
/// Bound of a correction entry; the applied correction is at most `CORRECTION_LIMIT` times the sum of the
/// two tables' weights, in sixteenths.
const CORRECTION_LIMIT: i32 = 1024;

/// Where a position's entries lie in the correction tables: computed once per node, read when the node is
/// evaluated and written when its search ends.
#[derive(Clone, Copy, Debug)]
pub struct CorrectionSlots {
    side: usize,
    pawn: usize,
    material: usize,
}

impl CorrectionSlots {
    #[inline]
    pub fn of(pos: &Position) -> CorrectionSlots {
        let mask = CORRECTION_SIZE - 1;
        CorrectionSlots {
            side: pos.side_to_move().index(),
            pawn: pos.pawn_key() as usize & mask,
            material: pos.material_key() as usize & mask,
        }
    }
}

/// `[piece][to]` indexed by a previous move's piece and destination: the continuation histories.
pub type PieceTo = [[i16; 90]; 14];

pub struct Histories {
    /// `[side][from][to]`.
    pub butterfly: Vec<[[i16; 90]; 90]>,
    /// `[moving piece][to][captured kind]`.
    pub capture: Vec<[[i16; 7]; 90]>,
    /// `[previous piece][previous to]` → piece-to table.
    pub continuation: Vec<PieceTo>,
    /// `[previous piece][previous to]` → the move that refuted it.
    pub counter: Vec<[Move; 90]>,
    /// `[side][pawn key]`: how far searches found positions with these kings and pawns from their static
    /// evaluation.
    pub correction_pawn: Vec<[i16; CORRECTION_SIZE]>,
    /// `[side][material key]`: the same for positions with this material.
    pub correction_material: Vec<[i16; CORRECTION_SIZE]>,
}

impl Default for Histories {
    fn default() -> Histories {
        Histories {
            butterfly: vec![[[0; 90]; 90]; 2],
            capture: vec![[[0; 7]; 90]; 14],
            continuation: vec![[[0; 90]; 14]; 14 * 90 + 1],
            counter: vec![[Move::NULL; 90]; 14],
            correction_pawn: vec![[0; CORRECTION_SIZE]; 2],
            correction_material: vec![[0; CORRECTION_SIZE]; 2],
        }
    }
}

impl Histories {
    /// What to add to the static evaluation of the position at `at` (side to move's view): the evaluation errs
    /// alike in positions that share their kings and pawns or their material.
    #[inline]
    pub fn correction(&self, at: CorrectionSlots) -> i32 {
        let pawn = self.correction_pawn[at.side][at.pawn] as i32;
        let material = self.correction_material[at.side][at.material] as i32;
        (params::correction_pawn_weight() * pawn + params::correction_material_weight() * material) / 16
    }

    /// Teaches the correction tables that a search of `depth` found the position at `at` worth `diff` more than
    /// its corrected static evaluation.
    pub fn update_correction(&mut self, at: CorrectionSlots, diff: i32, depth: i32) {
        let bonus = (diff * depth / params::correction_update_div()).clamp(-CORRECTION_LIMIT / 4, CORRECTION_LIMIT / 4);
        gravity(&mut self.correction_pawn[at.side][at.pawn], bonus, CORRECTION_LIMIT);
        gravity(&mut self.correction_material[at.side][at.material], bonus, CORRECTION_LIMIT);
    }

    /// A quiet move's history: butterfly plus the continuation tables of the last two moves (`cont`), for
    /// ordering and for pruning and reductions alike.
    #[inline]
    pub fn quiet(&self, side: Color, piece: Option<Piece>, m: Move, cont: [&PieceTo; 2]) -> i32 {
        let (p, t) = (piece.map_or(0, |p| p.index()), m.to().index());
        self.butterfly[side.index()][m.from().index()][t] as i32 + cont[0][p][t] as i32 + cont[1][p][t] as i32
    }

    /// Index of the continuation table that follows a move of `piece` to `to` (the last one: no move).
    #[inline]
    pub fn cont_index(piece: Option<Piece>, to: usize) -> usize {
        match piece {
            Some(p) => p.index() * 90 + to,
            None => 14 * 90,
        }
    }
}
