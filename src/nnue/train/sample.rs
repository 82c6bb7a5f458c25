//! Training positions: what a game gives (`Sample`) and what a network of one layout reads of it (`Encoded`).

use super::SCALE;
use crate::board::Position;
use crate::nnue::features::{index, leans_right, FeatureSet, View};
use crate::nnue::network::output_bucket;
use crate::types::{Color, Piece, PieceType, Square};
use arrayvec::ArrayVec;

/// The link between the network's output and an expected result (the target's and the loss's).
pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One training position: its pieces, the side to move, the targets from the side to move's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// (piece index, square index) of every piece.
    pub pieces: Vec<(u8, u8)>,
    pub stm: Color,
    pub score: f32,
    pub result: f32,
}

/// A sample as a network of one layout reads it: the active inputs of the side to move's and the other side's
/// accumulator (the network's own inputs: a factorised model adds each one's factor-plane row itself), the output
/// bucket and the target. Computed once per sample, before training.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    pub us: ArrayVec<u32, 32>,
    pub them: ArrayVec<u32, 32>,
    pub bucket: u8,
    pub score: f32,
    pub result: f32,
}

impl Encoded {
    /// The training target: `wdl · result + (1 − wdl) · sigmoid(score / SCALE)`.
    pub(super) fn target(&self, wdl: f32) -> f32 {
        wdl * self.result + (1.0 - wdl) * sigmoid(self.score / SCALE as f32)
    }
}

impl Sample {
    pub fn from_position(pos: &Position, score: i32, red_result: f32) -> Sample {
        let stm = pos.side_to_move();
        let mut pieces = Vec::with_capacity(32);
        for c in Color::ALL {
            for (kind, sq) in pos.pieces_of_color(c) {
                pieces.push((Piece::new(c, kind).index() as u8, sq.index() as u8));
            }
        }
        let result = if stm == Color::Red { red_result } else { 1.0 - red_result };
        Sample { pieces, stm, score: score as f32, result }
    }

    /// The same position reflected left to right (the rules are symmetric, so it is worth the same).
    pub fn mirrored(&self) -> Sample {
        let pieces = self
            .pieces
            .iter()
            .map(|&(pc, sq)| (pc, Square::from_index(sq as usize).mirror_file().index() as u8))
            .collect();
        Sample { pieces, ..self.clone() }
    }

    pub(super) fn piece_list(&self) -> impl Iterator<Item = (Piece, Square)> + Clone + '_ {
        self.pieces.iter().map(|&(pc, sq)| (Piece::from_index(pc as usize), Square::from_index(sq as usize)))
    }

    /// The views of Red and Black under `features`, as the engine's `nnue::views` computes them for a position.
    pub(super) fn views(&self, features: FeatureSet) -> [View; 2] {
        Color::ALL.map(|p| {
            let king = self
                .piece_list()
                .find(|(pc, _)| *pc == Piece::new(p, PieceType::King))
                .map_or(Square::new(4, 0), |(_, sq)| sq);
            features.view(p, king, || leans_right(features.lean_judge(p), self.piece_list()))
        })
    }

    /// The sample as a network with `features` and `output_buckets` reads it.
    pub fn encode(&self, features: FeatureSet, output_buckets: usize) -> Encoded {
        let views = self.views(features);
        let of = |p: Color| -> ArrayVec<u32, 32> {
            self.piece_list().map(|(pc, sq)| index(views[p.index()], p, pc, sq) as u32).collect()
        };
        Encoded {
            us: of(self.stm),
            them: of(!self.stm),
            bucket: output_bucket(self.pieces.len(), output_buckets) as u8,
            score: self.score,
            result: self.result,
        }
    }
}
