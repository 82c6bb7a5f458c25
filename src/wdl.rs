//! Win/draw/loss: what a score means in games, fitted to our own self-play (Stockfish's model, refitted for
//! xiangqi).
//!
//! For a score `v` (side to move, the evaluation's units) and the material left `m` (both sides, counted by
//! [`material`]), the chance of winning is `1 / (1 + e^((a(m) − v) / b(m)))` and of losing
//! `1 / (1 + e^((a(m) + v) / b(m)))`; drawing is the rest. `a` (the score that wins half the games) and `b` (how
//! fast the chance grows) are cubic polynomials in `m / 66` (66 is the material of the start position), so the
//! same score means more as the board empties. Each evaluation has its own scale, hence its own fit:
//! `chuhan wdl --data GAMES` fits one from `chuhan datagen` games played with that evaluation
//! (`scripts/fit-wdl.sh` regenerates the data and refits; docs/tools.md, "wdl").

use crate::board::Position;
use crate::eval::EvalKind;
use crate::search::MATE_BOUND;
use crate::types::{Color, PieceType};

/// Material of the start position by [`material`].
pub const MATERIAL_START: i32 = 66;

/// The material at which reported scores are normalised ([`Model::to_cp`]): all pieces on the board.
pub const NORMALIZE_MATERIAL: i32 = MATERIAL_START;

/// The material on the board, both sides: rook 6, horse and cannon 3, advisor, elephant and pawn 1.
pub fn material(pos: &Position) -> i32 {
    const VALUE: [i32; PieceType::NUM] = [0, 1, 1, 3, 6, 3, 1];
    Color::ALL
        .iter()
        .flat_map(|&c| PieceType::ALL.iter().map(move |&k| pos.count(c, k) as i32 * VALUE[k as usize]))
        .sum()
}

/// The model's coefficients: `a` and `b` as cubics in `m / 66`, highest power first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// Win, draw and loss chances in permille (they add up to 1000).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl Wdl {
    /// The expected score (a win 1, a draw ½).
    pub fn expected(self) -> f64 {
        (self.win as f64 + self.draw as f64 / 2.0) / 1000.0
    }
}

/// Fitted by `chuhan wdl` on the handcrafted evaluation's self-play: the gen0 games of `nnue/README.md`
/// (14 192 games at 5000 nodes a move, 283 508 positions used; log-loss 0.6107 against 1.0886 for the outcome
/// frequencies alone; docs/tools.md, "wdl").
pub const HCE: Model = Model { a: [437.243, -98.376, -724.689, 671.607], b: [13.905, 196.389, 291.152, 72.598] };

/// Fitted by `chuhan wdl` on the built-in network's self-play: net9's gen10 games of `nnue/README.md` (7 184 games
/// at 5000 nodes a move, seed 74, 225 257 positions used; log-loss 0.5601 against 1.0745 for the outcome
/// frequencies alone). The fits before it, on net0's and net8's games, had +100 at 262 and 264 units, this one at
/// 256: the networks keep the trainer's scale (445 units a logit), so a new network needs a refit only when its
/// scale drifts (`scripts/fit-wdl.sh nnue`).
pub const NNUE: Model = Model { a: [315.831, -119.408, -632.758, 692.124], b: [-91.356, 164.382, 309.880, 64.658] };

/// The model for an evaluation.
pub fn model(kind: EvalKind) -> &'static Model {
    match kind {
        EvalKind::Hce => &HCE,
        EvalKind::Nnue => &NNUE,
    }
}

impl Model {
    /// `a(m)` and `b(m)` (b kept at least 1, so that a bad fit cannot divide by zero).
    pub fn params(&self, material: i32) -> (f64, f64) {
        let m = material.clamp(4, MATERIAL_START) as f64 / MATERIAL_START as f64;
        let cubic = |c: &[f64; 4]| ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
        (cubic(&self.a), cubic(&self.b).max(1.0))
    }

    /// The chance that the side with score `score` wins.
    pub fn win_rate(&self, score: i32, material: i32) -> f64 {
        let (a, b) = self.params(material);
        1.0 / (1.0 + ((a - score as f64) / b).exp())
    }

    /// A score as Chuhan reports it (UCI `cp`, UCCI `score`, CECP, `analyze`, `annotate`): scaled so that +100 is
    /// the score at which the side to move wins half its games with all pieces on the board (`a` at
    /// [`NORMALIZE_MATERIAL`]), whichever evaluation searched, as Stockfish and Pikafish normalise theirs. Mate
    /// scores are left as they are.
    pub fn to_cp(&self, score: i32) -> i32 {
        if score.abs() >= MATE_BOUND {
            return score;
        }
        let (a, _) = self.params(NORMALIZE_MATERIAL);
        (100.0 * score as f64 / a).round() as i32
    }

    /// The internal score that [`Model::to_cp`] reports as `cp` (a threshold given in reported units, such as
    /// `Randomness`'s margins, in the evaluation's own).
    pub fn from_cp(&self, cp: i32) -> i32 {
        let (a, _) = self.params(NORMALIZE_MATERIAL);
        (cp as f64 * a / 100.0).round() as i32
    }

    /// Win, draw and loss for the side to move; mate scores are certain.
    pub fn wdl(&self, score: i32, material: i32) -> Wdl {
        if score >= MATE_BOUND {
            return Wdl { win: 1000, draw: 0, loss: 0 };
        }
        if score <= -MATE_BOUND {
            return Wdl { win: 0, draw: 0, loss: 1000 };
        }
        let win = (self.win_rate(score, material) * 1000.0).round() as u32;
        let loss = (self.win_rate(-score, material) * 1000.0).round() as u32;
        let (win, loss) = (win.min(1000), loss.min(1000 - win.min(1000)));
        Wdl { win, draw: 1000 - win - loss, loss }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_and_shape() {
        assert_eq!(material(&Position::startpos()), MATERIAL_START);
        let kings = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(material(&kings), 0);
        for model in [&HCE, &NNUE] {
            for m in [10, 40, 66] {
                let even = model.wdl(0, m);
                assert_eq!(even.win, even.loss, "an even score is symmetric");
                assert_eq!(even.win + even.draw + even.loss, 1000);
                let mut last = model.wdl(-3000, m).expected();
                for v in (-2900..=3000).step_by(100) {
                    let e = model.wdl(v, m).expected();
                    assert!(e >= last, "expected score grows with the score: {v} {m}");
                    last = e;
                }
                assert!(model.wdl(0, m).draw > model.wdl(2000, m).draw);
            }
        }
        assert_eq!(HCE.wdl(MATE_BOUND, 30), Wdl { win: 1000, draw: 0, loss: 0 });
        // Normalised scores: +100 wins half the games at the reference material, under either evaluation.
        for model in [&HCE, &NNUE] {
            let (a, _) = model.params(NORMALIZE_MATERIAL);
            assert_eq!(model.to_cp(a.round() as i32), 100);
            assert_eq!(model.to_cp(-(a.round() as i32)), -100);
            assert!((model.win_rate(a.round() as i32, NORMALIZE_MATERIAL) - 0.5).abs() < 0.005);
            assert_eq!(
                (model.to_cp(0), model.to_cp(MATE_BOUND + 7), model.to_cp(-MATE_BOUND - 2)),
                (0, MATE_BOUND + 7, -MATE_BOUND - 2)
            );
        }
        assert_eq!((HCE.to_cp(286), NNUE.to_cp(256)), (100, 100));
        // Reported units back to internal ones (`Randomness`'s margins): the inverse, to rounding.
        assert_eq!((HCE.from_cp(100), NNUE.from_cp(100), NNUE.from_cp(60), NNUE.from_cp(0)), (286, 256, 153, 0));
        for cp in [-120, -5, 1, 15, 30, 60, 120] {
            assert_eq!((HCE.to_cp(HCE.from_cp(cp)), NNUE.to_cp(NNUE.from_cp(cp))), (cp, cp));
        }
        assert_eq!(HCE.wdl(-MATE_BOUND - 3, 30).loss, 1000);
    }
}
