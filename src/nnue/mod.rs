//! The evaluation network (NNUE): (inputs → H) × 2 → 1 with SCReLU and output buckets, quantised to integers.
//!
//! Each side's accumulator holds the feature transformer's output for the pieces as that side sees them
//! (`features`: which plane — king bucket — and whether the board is reflected). The search keeps a stack of
//! them, one pair per ply, filled lazily: a move made only records what it moved; when a position is evaluated,
//! each perspective's accumulator is brought up to date from the nearest ply above it that was computed in the
//! same view (a move adds the moved piece's new row and subtracts its old one and the captured piece's), or,
//! when the view changed (the king moved to another bucket, the board's reflection flipped), from a refresh
//! cache that keeps one accumulator per view and the board it was computed for, so that only the points that
//! differ cost a row (Stockfish's "Finny tables"). The output layer reads the side to move's accumulator and
//! the other one through SCReLU (`network` gives the formula). `simd` holds the two inner loops.

pub mod features;
pub mod network;
pub mod simd;
pub mod train;

use crate::board::Position;
use crate::eval::Evaluator;
use crate::types::{Color, Move, Piece, Square};
use arrayvec::ArrayVec;
use features::{index, leans_right_with, FeatureSet, Lean, View};
pub use network::Network;
use once_cell::sync::Lazy;
use simd::Backend;
use std::sync::Arc;

/// The network built into the binary (`nnue/net9.nnue`, king-buckets-2; `nnue/README.md` says how it was made):
/// `Eval nnue` needs no file. `EvalFile` replaces it.
static EMBEDDED: &[u8] = include_bytes!("../../nnue/net9.nnue");

static DEFAULT: Lazy<Arc<Network>> =
    Lazy::new(|| Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid (a test reads it)")));

/// The built-in network.
pub fn default_network() -> Arc<Network> {
    Arc::clone(&DEFAULT)
}

/// Every piece on the board with its point.
fn pieces(pos: &Position) -> impl Iterator<Item = (Piece, Square)> + '_ {
    Color::ALL.into_iter().flat_map(move |c| pos.pieces_of_color(c).map(move |(k, sq)| (Piece::new(c, k), sq)))
}

/// How each perspective sees `pos` under `features` (Red's view, then Black's).
pub fn views(features: FeatureSet, pos: &Position) -> [View; 2] {
    views_with(features, pos, Lean::of_board(pieces(pos)))
}

/// [`views`] with the board's lean given (the tie-break, which reads the board, runs only when a king is on the
/// centre file and the lean its judge sees is 0).
#[inline]
fn views_with(features: FeatureSet, pos: &Position, lean: Lean) -> [View; 2] {
    Color::ALL.map(|p| {
        let judge = features.lean_judge(p);
        features.view(p, pos.king_square(p), || leans_right_with(judge, lean.seen_by(judge), pieces(pos)))
    })
}

/// The output bucket of `pos` among `net`'s.
#[inline]
pub fn output_bucket_of(net: &Network, pos: &Position) -> usize {
    if net.output_buckets == 1 {
        return 0;
    }
    network::output_bucket(pos.piece_count() as usize, net.output_buckets)
}

/// The network's view of `pos` for people (the protocol's `eval`): the score for the side to move and for Red,
/// each perspective's king bucket and reflection, the output bucket, and the same for the mirrored position.
pub fn report(net: &Network, name: &str, pos: &Position) -> String {
    let describe = |pos: &Position| {
        let b = State::breakdown(net, pos);
        let red = if pos.side_to_move() == Color::Red { b.score } else { -b.score };
        let view = |v: View| format!("bucket {}{}", v.bucket, if v.mirror { " reflected" } else { "" });
        format!(
            "evaluation {red} (red's view), {} (side to move); red {}, black {}; output bucket {} of {}",
            b.score,
            view(b.views[0]),
            view(b.views[1]),
            b.output_bucket,
            net.output_buckets
        )
    };
    format!(
        "network {name}: {} inputs, {} hidden units, {} output buckets\n{}\nmirrored: {}",
        net.features.name(),
        net.hidden,
        net.output_buckets,
        describe(pos),
        describe(&pos.mirrored())
    )
}

/// What a ply's move changed on the board (a null move changes nothing).
#[derive(Clone, Copy, Debug)]
struct Delta {
    piece: Piece,
    from: Square,
    to: Square,
    captured: Option<Piece>,
}

/// One accumulator per (perspective, view) and the board it was computed for: each point's slot
/// (`Position::slots`, 0 empty), which names the piece on it.
struct RefreshCache {
    acc: Vec<i16>,
    boards: Vec<[u8; 90]>,
}

impl RefreshCache {
    fn new(net: &Network) -> RefreshCache {
        let n = 2 * net.features.buckets() * 2;
        RefreshCache { acc: net.feature_biases.repeat(n), boards: vec![[0; 90]; n] }
    }

    fn slot(net: &Network, perspective: Color, view: View) -> usize {
        (perspective.index() * net.features.buckets() + view.bucket as usize) * 2 + usize::from(view.mirror)
    }
}

/// What the `eval` command shows of the network's view of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// The evaluation for the side to move, in evaluation units.
    pub score: i32,
    /// Red's and Black's views.
    pub views: [View; 2],
    pub output_bucket: usize,
}

/// The network as the search uses it: an accumulator pair per ply of the search path, filled when needed.
pub struct State {
    net: Arc<Network>,
    backend: Backend,
    /// Ply `k`'s accumulator for perspective `p` is `acc[(2k + p) · H ..][..H]`.
    acc: Vec<i16>,
    /// The view each ply's accumulators were computed in, or `None` when not computed (yet).
    held: Vec<[Option<View>; 2]>,
    /// The move that led to ply `k` (`None` at the root and after a null move).
    deltas: Vec<Option<Delta>>,
    /// Ply `k`'s board lean, kept move by move for the king-bucketed views.
    leans: Vec<Lean>,
    top: usize,
    cache: RefreshCache,
}

impl State {
    pub fn new(net: Arc<Network>) -> State {
        State::with_backend(net, Backend::detect())
    }

    /// With a chosen SIMD implementation (tests compare them).
    pub fn with_backend(net: Arc<Network>, backend: Backend) -> State {
        let plies = 8;
        let cache = RefreshCache::new(&net);
        let acc = vec![0; 2 * net.hidden * plies];
        let (held, deltas, leans) = (vec![[None; 2]; plies], vec![None; plies], vec![Lean::default(); plies]);
        State { net, backend, acc, held, deltas, leans, top: 0, cache }
    }

    /// One view's accumulator from scratch: the biases plus the rows of `features`.
    fn accumulate(net: &Network, features: impl Iterator<Item = usize>, out: &mut [i16]) {
        out.copy_from_slice(&net.feature_biases);
        for f in features {
            for (v, &w) in out.iter_mut().zip(net.row(f)) {
                *v = v.wrapping_add(w);
            }
        }
    }

    /// The accumulators of `pos` computed from scratch (Red's view, then Black's).
    pub fn accumulators(net: &Network, pos: &Position) -> Vec<i16> {
        let mut out = vec![0i16; 2 * net.hidden];
        let views = views(net.features, pos);
        for (p, acc) in Color::ALL.into_iter().zip(out.chunks_exact_mut(net.hidden)) {
            let view = views[p.index()];
            Self::accumulate(net, pieces(pos).map(|(pc, sq)| index(view, p, pc, sq)), acc);
        }
        out
    }

    /// The evaluation from the active inputs of the side to move's view and the other side's, and the output
    /// bucket (what the trainer has instead of a position).
    pub fn evaluate_features(net: &Network, stm: &[usize], other: &[usize], bucket: usize) -> i32 {
        let mut acc = vec![0i16; 2 * net.hidden];
        let (us, them) = acc.split_at_mut(net.hidden);
        Self::accumulate(net, stm.iter().copied(), us);
        Self::accumulate(net, other.iter().copied(), them);
        Self::output(net, Backend::Scalar, us, them, bucket)
    }

    /// The output layer on the side to move's accumulator and the other's, through output bucket `bucket`.
    fn output(net: &Network, backend: Backend, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = net.hidden;
        let (w, b) = net.output(bucket);
        let sum = backend.screlu_dot(us, &w[..h], net.qa).wrapping_add(backend.screlu_dot(them, &w[h..], net.qa));
        let out = (sum as i64 / net.qa as i64 + b as i64) * net.scale as i64;
        (out / (net.qa as i64 * net.qb as i64)) as i32
    }

    /// The network's evaluation of `pos` computed from scratch (side to move's view).
    pub fn evaluate_full(net: &Network, pos: &Position) -> i32 {
        Self::breakdown(net, pos).score
    }

    /// The evaluation of `pos` from scratch with the views and output bucket behind it.
    pub fn breakdown(net: &Network, pos: &Position) -> Breakdown {
        let acc = Self::accumulators(net, pos);
        let (red, black) = acc.split_at(net.hidden);
        let (us, them) = if pos.side_to_move() == Color::Red { (red, black) } else { (black, red) };
        let bucket = output_bucket_of(net, pos);
        let score = Self::output(net, Backend::Scalar, us, them, bucket);
        Breakdown { score, views: views(net.features, pos), output_bucket: bucket }
    }

    /// Room for ply `top + 1`.
    fn grow(&mut self) {
        let k = self.top + 1;
        if self.held.len() <= k {
            let n = 2 * self.held.len();
            self.held.resize(n, [None; 2]);
            self.deltas.resize(n, None);
            self.leans.resize(n, Lean::default());
            self.acc.resize(n * 2 * self.net.hidden, 0);
        }
        self.held[k] = [None; 2];
    }

    /// Brings perspective `p`'s accumulator at the top ply up to date in `view`.
    fn ensure(&mut self, pos: &Position, p: Color, view: View) {
        if self.held[self.top][p.index()] == Some(view) {
            return;
        }
        let mut k = self.top;
        while k > 0 && self.held[k][p.index()].is_none() {
            k -= 1;
        }
        if self.held[k][p.index()] == Some(view) {
            for j in k + 1..=self.top {
                self.apply(j, p, view);
            }
        } else {
            self.refresh_from_cache(pos, p, view);
        }
    }

    /// Ply `j`'s accumulator for `p` from ply `j − 1`'s, both in `view`.
    #[inline]
    fn apply(&mut self, j: usize, p: Color, view: View) {
        let (net, h) = (&*self.net, self.net.hidden);
        let at = |k: usize| (2 * k + p.index()) * h;
        let (before, after) = self.acc.split_at_mut(at(j));
        let (parent, child) = (&before[at(j - 1)..at(j - 1) + h], &mut after[..h]);
        match self.deltas[j] {
            None => child.copy_from_slice(parent),
            Some(d) => {
                let add = [net.row(index(view, p, d.piece, d.to))];
                let from = net.row(index(view, p, d.piece, d.from));
                match d.captured {
                    Some(c) => self.backend.update(child, parent, &add, &[from, net.row(index(view, p, c, d.to))]),
                    None => self.backend.update(child, parent, &add, &[from]),
                }
            }
        }
        self.held[j][p.index()] = Some(view);
    }

    /// The top ply's accumulator for `p` from the refresh cache's entry for `view`, which is brought to `pos`'s
    /// board on the way: only the points whose piece changed since the entry was last used cost a row.
    fn refresh_from_cache(&mut self, pos: &Position, p: Color, view: View) {
        let (net, h) = (&*self.net, self.net.hidden);
        let slot = RefreshCache::slot(net, p, view);
        let board = &mut self.cache.boards[slot];
        let now = pos.slots();
        // At most 32 pieces leave and 32 arrive.
        let (mut add, mut sub) = (ArrayVec::<&[i16], 64>::new(), ArrayVec::<&[i16], 64>::new());
        let mut changed = |first: usize, was8: &mut [u8], now8: &[u8]| {
            for (i, (was, &now)) in was8.iter_mut().zip(now8).enumerate() {
                if *was == now {
                    continue;
                }
                let sq = Square::from_index(first + i);
                if let Some(pc) = Position::slot_piece(*was) {
                    sub.push(net.row(index(view, p, pc, sq)));
                }
                if let Some(pc) = Position::slot_piece(now) {
                    add.push(net.row(index(view, p, pc, sq)));
                }
                *was = now;
            }
        };
        // Eight points at a time, compared as one word: most of the board is as the entry left it.
        const WORDS: usize = 90 / 8;
        let ((was_head, was_tail), (now_head, now_tail)) = (board.split_at_mut(8 * WORDS), now.split_at(8 * WORDS));
        for (k, (was8, now8)) in was_head.chunks_exact_mut(8).zip(now_head.chunks_exact(8)).enumerate() {
            let word = |b: &[u8]| u64::from_ne_bytes(b.try_into().expect("chunks of 8"));
            if word(was8) != word(now8) {
                changed(8 * k, was8, now8);
            }
        }
        changed(8 * WORDS, was_tail, now_tail);
        let at = (2 * self.top + p.index()) * h;
        let cached = &mut self.cache.acc[slot * h..(slot + 1) * h];
        let out = &mut self.acc[at..at + h];
        self.backend.update(out, cached, &add, &sub);
        cached.copy_from_slice(out);
        self.held[self.top][p.index()] = Some(view);
    }
}

impl Evaluator for State {
    fn refresh(&mut self, pos: &Position) {
        self.top = 0;
        self.held[0] = [None; 2];
        self.deltas[0] = None;
        self.leans[0] = Lean::of_board(pieces(pos));
        let views = views_with(self.net.features, pos, self.leans[0]);
        for p in Color::ALL {
            self.refresh_from_cache(pos, p, views[p.index()]);
        }
    }

    #[inline]
    fn push(&mut self, pos: &Position, m: Move) {
        self.grow();
        self.top += 1;
        let piece = pos.piece_at(m.from()).expect("push: a piece on the move's from-point");
        let captured = pos.piece_at(m.to());
        self.deltas[self.top] = Some(Delta { piece, from: m.from(), to: m.to(), captured });
        let lean = self.leans[self.top - 1].remove(piece, m.from()).add(piece, m.to());
        self.leans[self.top] = captured.map_or(lean, |c| lean.remove(c, m.to()));
    }

    #[inline]
    fn push_null(&mut self) {
        self.grow();
        self.top += 1;
        self.deltas[self.top] = None;
        self.leans[self.top] = self.leans[self.top - 1];
    }

    #[inline]
    fn pop(&mut self) {
        self.top -= 1;
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let lean = self.leans[self.top];
        debug_assert_eq!(lean, Lean::of_board(pieces(pos)), "lean at {}", pos.to_fen());
        let views = views_with(self.net.features, pos, lean);
        for p in Color::ALL {
            self.ensure(pos, p, views[p.index()]);
        }
        let h = self.net.hidden;
        let pair = &self.acc[2 * self.top * h..2 * (self.top + 1) * h];
        debug_assert_eq!(pair, &Self::accumulators(&self.net, pos)[..], "accumulators drifted at {}", pos.to_fen());
        let (red, black) = pair.split_at(h);
        let (us, them) = if pos.side_to_move() == Color::Red { (red, black) } else { (black, red) };
        Self::output(&self.net, self.backend, us, them, output_bucket_of(&self.net, pos))
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
