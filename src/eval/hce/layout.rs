//! The layout of the evaluation's weights: one flat table of middlegame/endgame pairs, so that the tuner can
//! fit all of them at once. The values live in `weights.rs`, which the tuner rewrites.
//!
//! Piece-square tables are left–right symmetric: 50 entries per kind, `rank * 5 + min(file, 8 - file)`, ranks
//! as the side that owns the piece sees them (0 = its own back rank).

use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A middlegame/endgame pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

pub const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, o: Score) -> Score {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}
impl AddAssign for Score {
    #[inline]
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}
impl Sub for Score {
    type Output = Score;
    #[inline]
    fn sub(self, o: Score) -> Score {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}
impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        s(-self.mg, -self.eg)
    }
}
impl Mul<i32> for Score {
    type Output = Score;
    #[inline]
    fn mul(self, k: i32) -> Score {
        s(self.mg * k, self.eg * k)
    }
}

pub const PHASE_ROOK: i32 = 4;
pub const PHASE_MINOR: i32 = 2;
/// 2 × (2 rooks × 4 + 4 minors × 2).
pub const PHASE_MAX: i32 = 32;

/// Index of the first weight of each group.
pub const MATERIAL: usize = 0;
pub const PST: usize = MATERIAL + 7;
pub const PST_SIZE: usize = 50;
pub const HORSE_MOBILITY: usize = PST + 7 * PST_SIZE;
pub const ROOK_MOBILITY: usize = HORSE_MOBILITY + 9;
pub const CANNON_MOBILITY: usize = ROOK_MOBILITY + 18;
/// A rook on a file without a pawn of its own.
pub const ROOK_OPEN_FILE: usize = CANNON_MOBILITY + 18;
/// A cannon facing the enemy king with nothing between (空头炮).
pub const EMPTY_HEAD_CANNON: usize = ROOK_OPEN_FILE + 1;
/// A cannon on the enemy king's file behind two screens (中炮: one screen would be check).
pub const CENTRAL_CANNON: usize = EMPTY_HEAD_CANNON + 1;
/// A cannon on the enemy's back rank (沉底炮).
pub const BOTTOM_CANNON: usize = CENTRAL_CANNON + 1;
/// A horse on its own palace centre (窝心马).
pub const PALACE_HORSE: usize = BOTTOM_CANNON + 1;
/// By attack units against the enemy king, one table per shield: the enemy's advisors (0-2) × 3 + its
/// elephants (0-2). An attack is worth little against a full guard and a great deal against a bare king.
pub const KING_ATTACK: usize = PALACE_HORSE + 1;
pub const KING_ATTACK_UNITS: usize = 16;
pub const KING_SHIELDS: usize = 9;
/// By the number of own advisors left (0, 1, 2).
pub const ADVISORS: usize = KING_ATTACK + KING_SHIELDS * KING_ATTACK_UNITS;
/// By the number of own elephants left.
pub const ELEPHANTS: usize = ADVISORS + 3;
/// Two advisors that protect each other.
pub const LINKED_ADVISORS: usize = ELEPHANTS + 3;
/// Two elephants that protect each other.
pub const LINKED_ELEPHANTS: usize = LINKED_ADVISORS + 1;
/// Material imbalance, Stockfish's quadratic form over the counts of advisors, elephants, horses, rooks,
/// cannons and pawns (kinds 1-6): `ours[i][j]` weighs our count of `i` times our count of `j` (j <= i),
/// `theirs[i][j]` our count of `i` times theirs of `j` (j < i; the mirrored pair cancels in the difference).
pub const IMBALANCE_OURS: usize = LINKED_ELEPHANTS + 1;
pub const IMBALANCE_THEIRS: usize = IMBALANCE_OURS + 21;
/// By the number of own rooks, horses, cannons and pawns across the river (0-10): an attack is the pieces
/// brought over together, not each on its own.
pub const CROSSED: usize = IMBALANCE_THEIRS + 15;
pub const CROSSED_MAX: usize = 10;
/// Threats against our rooks, horses, cannons and pawns (by kind 0-3): `[to move?][kind]` attacked by a
/// cheaper enemy piece, then `[to move?][kind]` attacked and not defended.
pub const THREATS: usize = CROSSED + CROSSED_MAX + 1;
pub const TEMPO: usize = THREATS + 16;
pub const NUM_WEIGHTS: usize = TEMPO + 1;

/// Index of the piece-square weight of a piece of kind `kind` on `rank` (own side's view) and `file`.
#[inline]
pub const fn pst_index(kind: usize, rank: usize, file: usize) -> usize {
    let f = if file > 4 { 8 - file } else { file };
    PST + kind * PST_SIZE + rank * 5 + f
}

/// Names of the groups, for the tuner's output.
pub const GROUPS: &[(&str, usize, usize)] = &[
    ("material (king, advisor, elephant, horse, rook, cannon, pawn)", MATERIAL, 7),
    ("piece-square: king", PST, PST_SIZE),
    ("piece-square: advisor", PST + PST_SIZE, PST_SIZE),
    ("piece-square: elephant", PST + 2 * PST_SIZE, PST_SIZE),
    ("piece-square: horse", PST + 3 * PST_SIZE, PST_SIZE),
    ("piece-square: rook", PST + 4 * PST_SIZE, PST_SIZE),
    ("piece-square: cannon", PST + 5 * PST_SIZE, PST_SIZE),
    ("piece-square: pawn", PST + 6 * PST_SIZE, PST_SIZE),
    ("horse mobility (free jumps 0-8)", HORSE_MOBILITY, 9),
    ("rook mobility (0-17)", ROOK_MOBILITY, 18),
    ("cannon mobility (0-17)", CANNON_MOBILITY, 18),
    ("rook on a file without own pawn", ROOK_OPEN_FILE, 1),
    ("empty-head cannon 空头炮", EMPTY_HEAD_CANNON, 1),
    ("central cannon 中炮 (two screens)", CENTRAL_CANNON, 1),
    ("bottom cannon 沉底炮", BOTTOM_CANNON, 1),
    ("horse on palace centre 窝心马", PALACE_HORSE, 1),
    (
        "king attack units by the enemy's advisors × 3 + elephants (16 units each)",
        KING_ATTACK,
        KING_SHIELDS * KING_ATTACK_UNITS,
    ),
    ("advisors left (0-2)", ADVISORS, 3),
    ("elephants left (0-2)", ELEPHANTS, 3),
    ("linked advisors", LINKED_ADVISORS, 1),
    ("linked elephants", LINKED_ELEPHANTS, 1),
    ("imbalance, ours x ours (A; E A, E E; H A..H H; R ..; C ..; P ..)", IMBALANCE_OURS, 21),
    ("imbalance, ours x theirs (E a; H a, H e; R a..R h; C ..; P ..)", IMBALANCE_THEIRS, 15),
    ("rooks, horses, cannons and pawns across the river (0-10)", CROSSED, CROSSED_MAX + 1),
    ("threatened (not to move, to move) × (rook, horse, cannon, pawn): by a cheaper piece, then hanging", THREATS, 16),
    ("tempo", TEMPO, 1),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_cover_the_table_once() {
        let mut next = 0;
        for &(_, start, len) in GROUPS {
            assert_eq!(start, next);
            next += len;
        }
        assert_eq!(next, NUM_WEIGHTS);
        assert_eq!(super::super::weights::WEIGHTS.len(), NUM_WEIGHTS);
    }

    #[test]
    fn symmetric_squares() {
        assert_eq!(pst_index(6, 7, 2), pst_index(6, 7, 6));
        assert_ne!(pst_index(6, 7, 3), pst_index(6, 7, 4));
    }
}
