//! Every weight of the handcrafted evaluation, in one place.
//!
//! Piece-square tables are written as Red sees the board — rank 9 (the enemy's back rank) on the first row,
//! Red's own back rank last — and serve Black through a rank flip.

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
    fn add(self, o: Score) -> Score {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}
impl AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}
impl Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}
impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        s(-self.mg, -self.eg)
    }
}
impl Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        s(self.mg * k, self.eg * k)
    }
}

pub const PHASE_ROOK: i32 = 4;
pub const PHASE_MINOR: i32 = 2;
/// 2 × (2 rooks × 4 + 4 minors × 2).
pub const PHASE_MAX: i32 = 32;

pub struct Params {
    pub material: [Score; 7],
    /// `[piece type][square]`, squares from Red's side.
    pub pst: [[Score; 90]; 7],
    pub rook_mobility: Score,
    pub cannon_mobility: Score,
    pub horse_mobility: Score,
    pub rook_open_file: Score,
    /// A cannon facing the enemy king with nothing between (空头炮).
    pub empty_head_cannon: Score,
    /// A cannon on the enemy king's file behind one screen (中炮 pressure).
    pub cannon_on_king_file: Score,
    /// A cannon on the enemy's back rank (沉底炮).
    pub bottom_cannon: Score,
    /// A horse on its own palace centre (窝心马).
    pub palace_horse: Score,
    /// By the number of our rooks, horses, cannons and pawns in the enemy's palace zone.
    pub king_attackers: [Score; 7],
    /// By the number of advisors left (0, 1, 2).
    pub advisor_pair: [Score; 3],
    /// By the number of elephants left.
    pub elephant_pair: [Score; 3],
    pub tempo: i32,
}

/// Builds a table from ten rows written rank 9 first.
const fn table(mg: [[i32; 9]; 10], eg: [[i32; 9]; 10]) -> [Score; 90] {
    let mut t = [s(0, 0); 90];
    let mut row = 0;
    while row < 10 {
        let rank = 9 - row;
        let mut f = 0;
        while f < 9 {
            t[rank * 9 + f] = s(mg[row][f], eg[row][f]);
            f += 1;
        }
        row += 1;
    }
    t
}

const ZERO: [[i32; 9]; 10] = [[0; 9]; 10];

#[rustfmt::skip]
const KING_MG: [[i32; 9]; 10] = {
    let mut t = ZERO;
    t[7] = [0, 0, 0, -40, -60, -40, 0, 0, 0];
    t[8] = [0, 0, 0, -10, -20, -10, 0, 0, 0];
    t[9] = [0, 0, 0, 5, 15, 5, 0, 0, 0];
    t
};
#[rustfmt::skip]
const KING_EG: [[i32; 9]; 10] = {
    let mut t = ZERO;
    t[7] = [0, 0, 0, -10, -5, -10, 0, 0, 0];
    t[8] = [0, 0, 0, 0, 5, 0, 0, 0, 0];
    t[9] = [0, 0, 0, 0, 5, 0, 0, 0, 0];
    t
};
#[rustfmt::skip]
const ADVISOR: [[i32; 9]; 10] = {
    let mut t = ZERO;
    t[7] = [0, 0, 0, -5, 0, -5, 0, 0, 0];
    t[8] = [0, 0, 0, 0, 10, 0, 0, 0, 0];
    t
};
#[rustfmt::skip]
const ELEPHANT: [[i32; 9]; 10] = {
    let mut t = ZERO;
    t[5] = [0, 0, -5, 0, 0, 0, -5, 0, 0];
    t[7] = [-10, 0, 0, 0, 10, 0, 0, 0, -10];
    t
};
#[rustfmt::skip]
const HORSE_MG: [[i32; 9]; 10] = [
    [  0,  -5,  10,  20,   0,  20,  10,  -5,   0],
    [  0,  20,  30,  30,  10,  30,  30,  20,   0],
    [ 10,  25,  35,  40,  35,  40,  35,  25,  10],
    [ 10,  20,  35,  30,  35,  30,  35,  20,  10],
    [  5,  20,  25,  30,  30,  30,  25,  20,   5],
    [  0,  10,  20,  20,  20,  20,  20,  10,   0],
    [ -5,   5,  15,  10,  15,  10,  15,   5,  -5],
    [ -5,   0,  10,  10,   0,  10,  10,   0,  -5],
    [-10,  -5,   0,   0, -20,   0,   0,  -5, -10],
    [-20, -15, -10, -10, -10, -10, -10, -15, -20],
];
#[rustfmt::skip]
const HORSE_EG: [[i32; 9]; 10] = [
    [ -5,   0,   5,  10,   5,  10,   5,   0,  -5],
    [  0,  10,  20,  20,  20,  20,  20,  10,   0],
    [  5,  15,  25,  25,  25,  25,  25,  15,   5],
    [  5,  15,  25,  25,  25,  25,  25,  15,   5],
    [  5,  10,  20,  20,  20,  20,  20,  10,   5],
    [  0,  10,  15,  15,  15,  15,  15,  10,   0],
    [ -5,   5,  10,  10,  10,  10,  10,   5,  -5],
    [-10,   0,   5,   5,   5,   5,   5,   0, -10],
    [-15,  -5,   0,   0,  -5,   0,   0,  -5, -15],
    [-20, -15, -10, -10, -10, -10, -10, -15, -20],
];
#[rustfmt::skip]
const CANNON_MG: [[i32; 9]; 10] = [
    [ 10,  10,   0, -10, -10, -10,   0,  10,  10],
    [ 10,   5,   0, -10, -15, -10,   0,   5,  10],
    [  5,   5,   0,  -5,   0,  -5,   0,   5,   5],
    [  0,   5,   5,   5,  10,   5,   5,   5,   0],
    [  0,   0,   0,   0,  10,   0,   0,   0,   0],
    [  0,   0,   5,   0,  10,   0,   5,   0,   0],
    [  0,   0,   0,   0,  10,   0,   0,   0,   0],
    [  0,   5,  10,  10,  20,  10,  10,   5,   0],
    [  0,   0,   0,   0,   5,   0,   0,   0,   0],
    [  0,   0,   5,   5,   5,   5,   5,   0,   0],
];
#[rustfmt::skip]
const CANNON_EG: [[i32; 9]; 10] = [
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   5,   0,   0,   0,   0],
    [  0,   0,   0,   5,  10,   5,   0,   0,   0],
    [  0,   0,   0,   5,  10,   5,   0,   0,   0],
    [  0,   0,   0,   5,  10,   5,   0,   0,   0],
    [  0,   0,   0,   5,  10,   5,   0,   0,   0],
    [  0,   0,   5,   5,  10,   5,   5,   0,   0],
    [  0,   0,   0,   5,  10,   5,   0,   0,   0],
    [  0,   0,   0,   0,   5,   0,   0,   0,   0],
];
#[rustfmt::skip]
const ROOK_MG: [[i32; 9]; 10] = [
    [ 10,  15,  10,  20,  20,  20,  10,  15,  10],
    [ 15,  20,  20,  30,  30,  30,  20,  20,  15],
    [ 10,  15,  15,  25,  25,  25,  15,  15,  10],
    [ 10,  15,  15,  20,  20,  20,  15,  15,  10],
    [ 10,  15,  15,  20,  20,  20,  15,  15,  10],
    [  5,  10,  10,  15,  15,  15,  10,  10,   5],
    [  0,   5,   5,  10,  10,  10,   5,   5,   0],
    [ -5,   5,   5,  10,   5,  10,   5,   5,  -5],
    [ -5,   0,   5,  10,   0,  10,   5,   0,  -5],
    [-10,   5,   0,  10,   0,  10,   0,   5, -10],
];
#[rustfmt::skip]
const ROOK_EG: [[i32; 9]; 10] = [
    [  5,  10,  10,  15,  15,  15,  10,  10,   5],
    [ 10,  15,  15,  20,  20,  20,  15,  15,  10],
    [ 10,  15,  15,  20,  20,  20,  15,  15,  10],
    [ 10,  10,  10,  15,  15,  15,  10,  10,  10],
    [  5,  10,  10,  15,  15,  15,  10,  10,   5],
    [  5,  10,  10,  10,  10,  10,  10,  10,   5],
    [  0,   5,   5,  10,  10,  10,   5,   5,   0],
    [  0,   5,   5,   5,   5,   5,   5,   5,   0],
    [  0,   0,   5,   5,   5,   5,   5,   0,   0],
    [ -5,   0,   0,   5,   5,   5,   0,   0,  -5],
];
#[rustfmt::skip]
const PAWN_MG: [[i32; 9]; 10] = [
    [ 10,  20,  30,  40,  40,  40,  30,  20,  10],
    [ 60,  80, 110, 140, 150, 140, 110,  80,  60],
    [ 60,  90, 110, 130, 150, 130, 110,  90,  60],
    [ 50,  70,  90, 100, 110, 100,  90,  70,  50],
    [ 40,  50,  60,  70,  70,  70,  60,  50,  40],
    [  0,   0,  10,   0,  25,   0,  10,   0,   0],
    [  0,   0,   0,   0,  10,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
];
#[rustfmt::skip]
const PAWN_EG: [[i32; 9]; 10] = [
    [ 20,  30,  40,  50,  50,  50,  40,  30,  20],
    [ 70,  90, 110, 130, 140, 130, 110,  90,  70],
    [ 70,  90, 110, 120, 130, 120, 110,  90,  70],
    [ 60,  70,  80,  90, 100,  90,  80,  70,  60],
    [ 50,  55,  60,  65,  70,  65,  60,  55,  50],
    [  0,   0,  10,   0,  20,   0,  10,   0,   0],
    [  0,   0,   0,   0,   5,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
    [  0,   0,   0,   0,   0,   0,   0,   0,   0],
];

pub static PARAMS: Params = Params {
    material: [s(0, 0), s(200, 200), s(200, 200), s(420, 450), s(1000, 1050), s(450, 420), s(100, 120)],
    pst: [
        table(KING_MG, KING_EG),
        table(ADVISOR, ADVISOR),
        table(ELEPHANT, ELEPHANT),
        table(HORSE_MG, HORSE_EG),
        table(ROOK_MG, ROOK_EG),
        table(CANNON_MG, CANNON_EG),
        table(PAWN_MG, PAWN_EG),
    ],
    rook_mobility: s(2, 3),
    cannon_mobility: s(1, 1),
    horse_mobility: s(6, 8),
    rook_open_file: s(15, 10),
    empty_head_cannon: s(60, 20),
    cannon_on_king_file: s(25, 5),
    bottom_cannon: s(15, 0),
    palace_horse: s(-40, -10),
    king_attackers: [s(0, 0), s(5, 0), s(20, 5), s(45, 10), s(80, 15), s(120, 20), s(160, 25)],
    advisor_pair: [s(-60, -40), s(-20, -15), s(0, 0)],
    elephant_pair: [s(-50, -30), s(-15, -10), s(0, 0)],
    tempo: 15,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_laid_out_from_reds_side() {
        // Row 0 of a table is rank 9: a pawn on e8 (rank 8, file e) is worth the row-1 value.
        assert_eq!(PARAMS.pst[6][8 * 9 + 4], s(150, 140));
        assert_eq!(PARAMS.pst[0][4], s(15, 5)); // king on e0
    }
}
