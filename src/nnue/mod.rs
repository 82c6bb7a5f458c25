//! The evaluation network (NNUE): (1260 → H) × 2 → 1 with SCReLU, quantised to integers.
//!
//! Each side's accumulator holds the feature transformer's output for the pieces as that side sees them
//! (`features`). The search keeps a stack of them, one per ply: a move adds the moved piece's new row and
//! subtracts its old one (and the captured piece's), a null move copies, a take-back pops. The output layer
//! reads the side to move's accumulator and the other one through SCReLU (`network` gives the formula).
//! `simd` holds the two inner loops.

pub mod features;
pub mod network;
pub mod simd;

use crate::board::Position;
use crate::eval::Evaluator;
use crate::types::{Color, Move};
use features::index;
pub use network::Network;
use once_cell::sync::Lazy;
use simd::Backend;
use std::sync::Arc;

/// The network built into the binary (`nnue/net5.nnue`; `nnue/README.md` says how it was made): `Eval nnue`
/// needs no file. `EvalFile` replaces it.
static EMBEDDED: &[u8] = include_bytes!("../../nnue/net5.nnue");

static DEFAULT: Lazy<Arc<Network>> =
    Lazy::new(|| Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid (a test reads it)")));

/// The built-in network.
pub fn default_network() -> Arc<Network> {
    Arc::clone(&DEFAULT)
}

/// Makes room in the stack `acc` (pairs of width `w`) for ply `top + 1`; returns (parent, child).
fn parent_and_child(acc: &mut Vec<i16>, top: usize, w: usize) -> (&[i16], &mut [i16]) {
    if acc.len() < (top + 2) * w {
        acc.resize((top + 2) * 2 * w, 0);
    }
    let (before, after) = acc.split_at_mut((top + 1) * w);
    (&before[top * w..], &mut after[..w])
}

/// The network as the search uses it: an accumulator pair per ply of the search path.
pub struct State {
    net: Arc<Network>,
    backend: Backend,
    /// Ply `k`'s accumulators are `acc[k * 2H ..][..2H]`: Red's view, then Black's.
    acc: Vec<i16>,
    top: usize,
}

impl State {
    pub fn new(net: Arc<Network>) -> State {
        State::with_backend(net, Backend::detect())
    }

    /// With a chosen SIMD implementation (tests compare them).
    pub fn with_backend(net: Arc<Network>, backend: Backend) -> State {
        let acc = vec![0; 2 * net.hidden * 8];
        State { net, backend, acc, top: 0 }
    }

    fn width(&self) -> usize {
        2 * self.net.hidden
    }

    /// One view's accumulator from scratch: the biases plus the rows of `features`.
    fn accumulate(net: &Network, features: impl Iterator<Item = usize>, view: &mut [i16]) {
        view.copy_from_slice(&net.feature_biases);
        for f in features {
            for (v, &w) in view.iter_mut().zip(net.row(f)) {
                *v = v.wrapping_add(w);
            }
        }
    }

    /// The accumulators of `pos` computed from scratch.
    pub fn accumulators(net: &Network, pos: &Position) -> Vec<i16> {
        let mut out = vec![0i16; 2 * net.hidden];
        for (p, view) in Color::ALL.into_iter().zip(out.chunks_exact_mut(net.hidden)) {
            let pieces = Color::ALL.into_iter().flat_map(|c| pos.pieces_of_color(c).map(move |(k, sq)| (c, k, sq)));
            Self::accumulate(net, pieces.map(|(c, k, sq)| index(p, crate::types::Piece::new(c, k), sq)), view);
        }
        out
    }

    /// The evaluation from the active inputs of the side to move's view and the other side's (what the
    /// trainer has instead of a position).
    pub fn evaluate_features(net: &Network, stm: &[usize], other: &[usize]) -> i32 {
        let mut acc = vec![0i16; 2 * net.hidden];
        let (us, them) = acc.split_at_mut(net.hidden);
        Self::accumulate(net, stm.iter().copied(), us);
        Self::accumulate(net, other.iter().copied(), them);
        Self::output(net, Backend::Scalar, &acc, Color::Red)
    }

    /// The output layer on an accumulator pair, for the side to move `stm`.
    fn output(net: &Network, backend: Backend, acc: &[i16], stm: Color) -> i32 {
        let h = net.hidden;
        let (us, them) = acc.split_at(h);
        let (us, them) = if stm == Color::Red { (us, them) } else { (them, us) };
        let sum = backend.screlu_dot(us, &net.output_weights[..h], net.qa).wrapping_add(backend.screlu_dot(
            them,
            &net.output_weights[h..],
            net.qa,
        ));
        let out = (sum as i64 / net.qa as i64 + net.output_bias as i64) * net.scale as i64;
        (out / (net.qa as i64 * net.qb as i64)) as i32
    }

    /// The network's evaluation of `pos` computed from scratch (side to move's view).
    pub fn evaluate_full(net: &Network, pos: &Position) -> i32 {
        Self::output(net, Backend::Scalar, &Self::accumulators(net, pos), pos.side_to_move())
    }
}

impl Evaluator for State {
    fn refresh(&mut self, pos: &Position) {
        self.top = 0;
        let fresh = Self::accumulators(&self.net, pos);
        let w = self.width();
        self.acc[..w].copy_from_slice(&fresh);
    }

    #[inline]
    fn push(&mut self, pos: &Position, m: Move) {
        let (net, backend, w) = (&*self.net, self.backend, self.width());
        let h = net.hidden;
        let piece = pos.piece_at(m.from()).expect("push: a piece on the move's from-point");
        let captured = pos.piece_at(m.to());
        let (parent, child) = parent_and_child(&mut self.acc, self.top, w);
        for (k, p) in Color::ALL.into_iter().enumerate() {
            let add = [net.row(index(p, piece, m.to()))];
            let from = net.row(index(p, piece, m.from()));
            let (input, out) = (&parent[k * h..(k + 1) * h], &mut child[k * h..(k + 1) * h]);
            match captured {
                Some(c) => backend.update(out, input, &add, &[from, net.row(index(p, c, m.to()))]),
                None => backend.update(out, input, &add, &[from]),
            }
        }
        self.top += 1;
    }

    #[inline]
    fn push_null(&mut self) {
        let w = self.width();
        let (parent, child) = parent_and_child(&mut self.acc, self.top, w);
        child.copy_from_slice(&parent[..child.len()]);
        self.top += 1;
    }

    #[inline]
    fn pop(&mut self) {
        self.top -= 1;
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let w = self.width();
        let acc = &self.acc[self.top * w..(self.top + 1) * w];
        debug_assert_eq!(acc, &Self::accumulators(&self.net, pos)[..], "accumulators drifted at {}", pos.to_fen());
        Self::output(&self.net, self.backend, acc, pos.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in network reads, and judges material as a network trained on games should: the start near
    /// level, a side a rook up far ahead.
    #[test]
    fn the_embedded_network() {
        let net = default_network();
        assert_eq!(net.hidden % 16, 0);
        let start = State::evaluate_full(&net, &Position::startpos());
        assert!(start.abs() < 150, "{start}");
        let rook_up =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
        assert!(State::evaluate_full(&net, &rook_up) > start + 300);
    }
}
