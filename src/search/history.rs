//! Move-ordering statistics (butterfly, capture and continuation histories, counter-moves) and the
//! correction history of the static evaluation. Each table is a type that owns its layout and its update rule
//! (gravity towards a bonus, bounded); the search asks and teaches them through `get` and `update`.

use super::params;
use crate::board::Position;
use crate::types::{Color, Move, Piece, Square};

/// Bound of a move-ordering statistic.
pub const MAX_HISTORY: i32 = 16384;

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

/// The moving piece's table index (0 for an empty square, which a legal move never has).
#[inline]
fn piece_index(piece: Option<Piece>) -> usize {
    piece.map_or(0, |p| p.index())
}

/// `[side][from][to]`: how often a quiet move refuted the opponent, whoever played it.
pub struct ButterflyHistory(Vec<[[i16; 90]; 90]>);

impl Default for ButterflyHistory {
    fn default() -> Self {
        ButterflyHistory(vec![[[0; 90]; 90]; 2])
    }
}

impl ButterflyHistory {
    #[inline]
    pub fn get(&self, side: Color, m: Move) -> i32 {
        self.0[side.index()][m.from().index()][m.to().index()] as i32
    }

    #[inline]
    pub fn update(&mut self, side: Color, m: Move, bonus: i32) {
        gravity(&mut self.0[side.index()][m.from().index()][m.to().index()], bonus, MAX_HISTORY);
    }
}

/// `[moving piece][to][captured kind]`: how often a capture refuted the opponent.
pub struct CaptureHistory(Vec<[[i16; 7]; 90]>);

impl Default for CaptureHistory {
    fn default() -> Self {
        CaptureHistory(vec![[[0; 7]; 90]; 14])
    }
}

impl CaptureHistory {
    #[inline]
    fn entry(pos: &Position, m: Move) -> (usize, usize, usize) {
        let victim = pos.piece_at(m.to()).map_or(0, |p| p.kind().index());
        (piece_index(pos.piece_at(m.from())), m.to().index(), victim)
    }

    /// The statistic of capture `m` in `pos` (before it is played).
    #[inline]
    pub fn get(&self, pos: &Position, m: Move) -> i32 {
        let (p, t, v) = Self::entry(pos, m);
        self.0[p][t][v] as i32
    }

    #[inline]
    pub fn update(&mut self, pos: &Position, m: Move, bonus: i32) {
        let (p, t, v) = Self::entry(pos, m);
        gravity(&mut self.0[p][t][v], bonus, MAX_HISTORY);
    }
}

/// `[piece][to]`: one continuation table, the statistics of the moves that follow one earlier move.
#[derive(Clone)]
pub struct PieceTo([[i16; 90]; 14]);

impl PieceTo {
    #[inline]
    pub fn get(&self, piece: Option<Piece>, to: Square) -> i32 {
        self.0[piece_index(piece)][to.index()] as i32
    }
}

/// Which continuation table follows a move: one per (piece, destination), and one for "no move".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContIndex(usize);

impl ContIndex {
    /// The table of positions with no earlier move (the root, after a null move).
    pub const NONE: ContIndex = ContIndex(14 * 90);

    /// The table that follows a move of `piece` to `to`.
    #[inline]
    pub fn after(piece: Option<Piece>, to: Square) -> ContIndex {
        match piece {
            Some(p) => ContIndex(p.index() * 90 + to.index()),
            None => ContIndex::NONE,
        }
    }
}

impl Default for ContIndex {
    fn default() -> Self {
        ContIndex::NONE
    }
}

/// `[earlier piece][earlier to][piece][to]`: how well a quiet move answers an earlier move (one and two plies
/// back).
pub struct ContinuationHistory(Vec<PieceTo>);

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory(vec![PieceTo([[0; 90]; 14]); 14 * 90 + 1])
    }
}

impl ContinuationHistory {
    #[inline]
    pub fn table(&self, after: ContIndex) -> &PieceTo {
        &self.0[after.0]
    }

    #[inline]
    pub fn update(&mut self, after: ContIndex, piece: Option<Piece>, to: Square, bonus: i32) {
        gravity(&mut self.0[after.0].0[piece_index(piece)][to.index()], bonus, MAX_HISTORY);
    }
}

/// `[piece][to]` of the opponent's last move → the quiet move that refuted it.
pub struct CounterMoves(Vec<[Move; 90]>);

impl Default for CounterMoves {
    fn default() -> Self {
        CounterMoves(vec![[Move::NULL; 90]; 14])
    }
}

impl CounterMoves {
    #[inline]
    pub fn get(&self, piece: Piece, to: Square) -> Move {
        self.0[piece.index()][to.index()]
    }

    #[inline]
    pub fn set(&mut self, piece: Piece, to: Square, refutation: Move) {
        self.0[piece.index()][to.index()] = refutation;
    }
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

/// How far searches found positions from their static evaluation, by `[side][pawn key]` (kings and pawns)
/// and by `[side][material key]`: the evaluation errs alike in positions that share them.
pub struct CorrectionHistory {
    pawn: Vec<[i16; CORRECTION_SIZE]>,
    material: Vec<[i16; CORRECTION_SIZE]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { pawn: vec![[0; CORRECTION_SIZE]; 2], material: vec![[0; CORRECTION_SIZE]; 2] }
    }
}

impl CorrectionHistory {
    /// What to add to the static evaluation of the position at `at` (side to move's view).
    #[inline]
    pub fn get(&self, at: CorrectionSlots) -> i32 {
        let pawn = self.pawn[at.side][at.pawn] as i32;
        let material = self.material[at.side][at.material] as i32;
        (params::correction_pawn_weight() * pawn + params::correction_material_weight() * material) / 16
    }

    /// Teaches the tables that a search of `depth` found the position at `at` worth `diff` more than its
    /// corrected static evaluation.
    pub fn update(&mut self, at: CorrectionSlots, diff: i32, depth: i32) {
        let bonus = (diff * depth / params::correction_update_div()).clamp(-CORRECTION_LIMIT / 4, CORRECTION_LIMIT / 4);
        gravity(&mut self.pawn[at.side][at.pawn], bonus, CORRECTION_LIMIT);
        gravity(&mut self.material[at.side][at.material], bonus, CORRECTION_LIMIT);
    }
}

/// One search thread's statistics, kept from one move of a game to the next.
#[derive(Default)]
pub struct Histories {
    pub butterfly: ButterflyHistory,
    pub capture: CaptureHistory,
    pub continuation: ContinuationHistory,
    pub counter: CounterMoves,
    pub correction: CorrectionHistory,
}

impl Histories {
    /// A quiet move's history: butterfly plus the continuation tables of the last two moves (`cont`), for
    /// ordering and for pruning and reductions alike.
    #[inline]
    pub fn quiet(&self, side: Color, piece: Option<Piece>, m: Move, cont: [&PieceTo; 2]) -> i32 {
        self.butterfly.get(side, m) + cont[0].get(piece, m.to()) + cont[1].get(piece, m.to())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_iccs;

    #[test]
    fn updates_are_bounded_and_read_back() {
        let pos = Position::startpos();
        let m = parse_iccs(&pos, "h2e2").unwrap();
        let mut h = Histories::default();
        h.butterfly.update(Color::Red, m, 1000);
        assert_eq!(h.butterfly.get(Color::Red, m), 1000);
        assert_eq!(h.butterfly.get(Color::Black, m), 0);
        // Gravity: repeated bonuses approach the bound and never pass it.
        for _ in 0..1000 {
            h.butterfly.update(Color::Red, m, 1_000_000);
        }
        assert_eq!(h.butterfly.get(Color::Red, m), MAX_HISTORY);
        for _ in 0..1000 {
            h.butterfly.update(Color::Red, m, -1_000_000);
        }
        assert_eq!(h.butterfly.get(Color::Red, m), -MAX_HISTORY);

        let piece = pos.piece_at(m.from());
        let after = ContIndex::after(piece, m.to());
        assert_ne!(after, ContIndex::NONE);
        h.continuation.update(after, piece, m.to(), 300);
        assert_eq!(h.continuation.table(after).get(piece, m.to()), 300);
        assert_eq!(h.continuation.table(ContIndex::NONE).get(piece, m.to()), 0);
        assert_eq!(
            h.quiet(Color::Red, piece, m, [h.continuation.table(after), h.continuation.table(after)]),
            -MAX_HISTORY + 600
        );

        let cap = parse_iccs(&pos, "h2h9").unwrap();
        h.capture.update(&pos, cap, 500);
        assert_eq!(h.capture.get(&pos, cap), 500);
        let (p, to) = (piece.unwrap(), m.to());
        h.counter.set(p, to, cap);
        assert_eq!(h.counter.get(p, to), cap);
    }

    #[test]
    fn corrections_are_shared_by_pawn_and_material_keys() {
        let pos = Position::startpos();
        let at = CorrectionSlots::of(&pos);
        let mut c = CorrectionHistory::default();
        assert_eq!(c.get(at), 0);
        for _ in 0..200 {
            c.update(at, 10_000, 20);
        }
        let most = c.get(at);
        assert!(
            most > 0
                && most
                    <= (params::correction_pawn_weight() + params::correction_material_weight()) * CORRECTION_LIMIT
                        / 16
        );
        let other = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        assert_eq!(c.get(CorrectionSlots::of(&other)), 0);
    }
}
