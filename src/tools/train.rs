//! `chuhan train`: fits the evaluation network to self-play games (`chuhan datagen`), in pure Rust.
//!
//! The float model is the quantised one of `nnue::network` without the integers: each side's accumulator
//! `b + Σ W[feature]`, SCReLU `clamp(x, 0, 1)²`, a linear output. Its output `o` predicts the side to move's
//! expected result as `sigmoid(o)`, and the quantised network evaluates `o · SCALE`: SCALE, the evaluation
//! units per logit, is the one the handcrafted tuner fits to our games (about 445), so that a network's scores
//! read like the handcrafted evaluation's and the search's margins still fit.
//!
//! The target blends the game's result with the search's score: `wdl · result + (1 − wdl) · sigmoid(score /
//! SCALE)`; the loss is the squared error of the prediction. Mini-batches, AdamW, the learning rate dropped
//! tenfold for the epochs from 70 % of the run on (epoch index i with 10·i ≥ 7·epochs: the last of 4, the last 3
//! of 10, none in runs of 1 to 3 epochs). Positions are shuffled by a seeded generator, and each batch is cut into
//! fixed slices whose gradients are added in order, so the same seed and data give the same network whatever
//! the thread count. The games are taken in the order of their (seed, number), each once, so the same games give
//! the same network whatever files hold them in whatever order. Games whose number hashes into the validation
//! share are held out.

use super::cli::in_range;
use super::gamefile;
use super::progress::Progress;
use super::rng::Rng;
use crate::board::Position;
use crate::nnue::features::{index, leans_right, FeatureSet, View, PLANE};
use crate::nnue::network::{output_bucket, Network, MAX_OUTPUT_BUCKETS, MAX_OUTPUT_WEIGHT};
use crate::types::{Color, Piece, PieceType, Square};
use arrayvec::ArrayVec;
use rayon::prelude::*;
use std::time::Instant;

/// Evaluation units per logit (the handcrafted tuner's 1 / K on the same kind of data).
pub const SCALE: i32 = 445;
pub const QA: i16 = 255;
pub const QB: i32 = 64;
/// Positions per gradient slice: the unit of parallel work, fixed so that results do not depend on threads.
const SLICE: usize = 512;

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
/// accumulator, the output bucket and the target. Computed once per sample, before training.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    /// With a factor plane (`Layout::factorised`), each piece's bucketed input and its factor input.
    pub us: ArrayVec<u32, 64>,
    pub them: ArrayVec<u32, 64>,
    pub bucket: u8,
    pub score: f32,
    pub result: f32,
}

impl Encoded {
    /// The training target: `wdl · result + (1 − wdl) · sigmoid(score / SCALE)`.
    fn target(&self, wdl: f32) -> f32 {
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

    fn piece_list(&self) -> impl Iterator<Item = (Piece, Square)> + Clone + '_ {
        self.pieces.iter().map(|&(pc, sq)| (Piece::from_index(pc as usize), Square::from_index(sq as usize)))
    }

    /// The views of Red and Black under `features`, as the engine's `nnue::views` computes them for a position.
    fn views(&self, features: FeatureSet) -> [View; 2] {
        let mut lean = None;
        Color::ALL.map(|p| {
            let king = self
                .piece_list()
                .find(|(pc, _)| *pc == Piece::new(p, PieceType::King))
                .map_or(Square::new(4, 0), |(_, sq)| sq);
            features.view(p, king, || *lean.get_or_insert_with(|| leans_right(self.piece_list())))
        })
    }

    /// The sample as a network with `features` and `output_buckets` reads it (with the factor plane's inputs
    /// after each bucketed one when the feature set has several buckets).
    pub fn encode(&self, features: FeatureSet, output_buckets: usize) -> Encoded {
        let views = self.views(features);
        let factor = (features.buckets() > 1).then_some(features.inputs());
        let of = |p: Color| -> ArrayVec<u32, 64> {
            let mut out = ArrayVec::new();
            for (pc, sq) in self.piece_list() {
                let i = index(views[p.index()], p, pc, sq);
                out.push(i as u32);
                if let Some(base) = factor {
                    out.push((base + i % PLANE) as u32);
                }
            }
            out
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

/// The positions of a game worth learning from: past the first `min_ply` plies, not in check, the move
/// played not a capture, the score not a mate or a won game.
pub fn samples_of(game: &gamefile::Game, min_ply: usize, out: &mut Vec<Sample>) -> Result<(), String> {
    let red = game.result_for_red();
    let mut ply = 0;
    game.replay(|pos, m, score| {
        if ply >= min_ply && !pos.in_check() && !pos.is_capture(m) && (score as i32).abs() < 2000 {
            out.push(Sample::from_position(pos, score as i32, red));
        }
        ply += 1;
    })
}

/// A network's shape: its inputs, hidden units and output buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub features: FeatureSet,
    pub hidden: usize,
    pub output_buckets: usize,
}

impl Layout {
    /// Whether the float model has a factor plane: a king-bucketed network learns one plane shared by every
    /// bucket plus each bucket's difference from it, so that every position teaches every bucket what a piece
    /// on a point is worth and a bucket's own rows need only learn where its king changes that. The shared
    /// plane is added into each bucket's rows when the network is quantised; the engine never sees it.
    pub fn factorised(self) -> bool {
        self.features.buckets() > 1
    }

    /// Input rows of the float model: the network's inputs and, when factorised, the factor plane.
    pub fn rows(self) -> usize {
        self.features.inputs() + if self.factorised() { PLANE } else { 0 }
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub layout: Layout,
    /// `layout.rows()` rows of `hidden`: the network's inputs, then the factor plane if there is one.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// Per output bucket: side to move's `hidden`, then the other side's.
    pub w2: Vec<f32>,
    /// One per output bucket.
    pub b2: Vec<f32>,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[inline]
fn screlu(x: f32) -> f32 {
    x.clamp(0.0, 1.0).powi(2)
}

/// The largest float output weight: quantised by QB it must fit the SIMD dot product's ±127.
const W2_LIMIT: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;

impl Model {
    pub fn new(layout: Layout, seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let mut uniform = |r: f32| (rng.uniform() * 2.0 - 1.0) * r;
        let (h, b) = (layout.hidden, layout.output_buckets);
        let r1 = 1.0 / (32f32).sqrt();
        let r2 = 1.0 / (2.0 * h as f32).sqrt();
        Model {
            layout,
            // Factorised, the buckets start equal (their differences 0) and the shared plane random.
            w1: (0..layout.rows() * h)
                .map(|i| if layout.factorised() && i < layout.features.inputs() * h { 0.0 } else { uniform(r1) })
                .collect(),
            b1: (0..h).map(|_| uniform(r1)).collect(),
            w2: (0..b * 2 * h).map(|_| uniform(r2)).collect(),
            b2: vec![0.0; b],
        }
    }

    /// The float model a quantised network stands for (each integer over its scale): the start of a
    /// generation trained on from the last one's weights (`--init`). Quantising it gives the network back.
    pub fn from_network(net: &Network) -> Result<Model, String> {
        if (net.qa, net.qb, net.scale) != (QA, QB, SCALE) {
            return Err(format!(
                "the network's constants (QA {}, QB {}, SCALE {}) are not the trainer's ({QA}, {QB}, {SCALE})",
                net.qa, net.qb, net.scale
            ));
        }
        let (qa, qb) = (QA as f32, QB as f32);
        let layout = Layout { features: net.features, hidden: net.hidden, output_buckets: net.output_buckets };
        let mut w1: Vec<f32> = net.feature_weights.iter().map(|&w| w as f32 / qa).collect();
        // The factor plane starts at 0: the buckets' rows hold the whole weights.
        w1.resize(layout.rows() * net.hidden, 0.0);
        Ok(Model {
            layout,
            w1,
            b1: net.feature_biases.iter().map(|&w| w as f32 / qa).collect(),
            w2: net.output_weights.iter().map(|&w| w as f32 / qb).collect(),
            b2: net.output_biases.iter().map(|&b| b as f32 / (qa * qb)).collect(),
        })
    }

    /// This model grown into a larger layout that computes the same function at first: every king bucket
    /// starts as this model's plane, every output bucket as its output, and the new hidden units have random
    /// input weights but output weights of zero (so they change nothing until training moves them). The start of
    /// a bigger network from a smaller shipped one.
    pub fn widen(&self, to: Layout, seed: u64) -> Result<Model, String> {
        let from = self.layout;
        let buckets_fit = |a: usize, b: usize| a == 1 || a == b;
        if to.hidden < from.hidden
            || !buckets_fit(from.features.buckets(), to.features.buckets())
            || !buckets_fit(from.output_buckets, to.output_buckets)
        {
            return Err(format!(
                "cannot grow a {} network of {} hidden units and {} output buckets into a {} one of {} and {}",
                from.features.name(),
                from.hidden,
                from.output_buckets,
                to.features.name(),
                to.hidden,
                to.output_buckets
            ));
        }
        let mut out = Model::new(to, seed);
        let (h0, h1) = (from.hidden, to.hidden);
        // Row `src` of this model into row `dst` of the new one (its first h0 columns), or zeros.
        let mut put = |dst: usize, src: Option<usize>| {
            let to_row = &mut out.w1[dst * h1..dst * h1 + h0];
            match src {
                Some(src) => to_row.copy_from_slice(&self.w1[src * h0..(src + 1) * h0]),
                None => to_row.fill(0.0),
            }
        };
        let single = from.features.buckets() == 1;
        for row in 0..to.rows() {
            let (bucket, f) = (row / PLANE, row % PLANE);
            let src = match (to.factorised(), bucket == to.features.buckets()) {
                // Not factorised: a plain network from a plain one, row for row.
                (false, _) => Some(row),
                // The shared plane: a single-plane network's rows, or the factorised source's own shared plane.
                (true, true) => Some(if single { f } else { from.features.inputs() + f }),
                // A bucket's difference from the shared plane: none yet, or the source's.
                (true, false) => (!single).then_some(row),
            };
            put(row, src);
        }
        out.b1[..h0].copy_from_slice(&self.b1);
        for ob in 0..to.output_buckets {
            let src = if from.output_buckets == 1 { 0 } else { ob };
            for half in 0..2 {
                let dst = &mut out.w2[(ob * 2 + half) * h1..(ob * 2 + half + 1) * h1];
                dst.fill(0.0);
                dst[..h0].copy_from_slice(&self.w2[(src * 2 + half) * h0..(src * 2 + half + 1) * h0]);
            }
            out.b2[ob] = self.b2[src];
        }
        Ok(out)
    }

    fn accumulate(&self, features: &[u32]) -> Vec<f32> {
        let h = self.layout.hidden;
        let mut acc = self.b1.clone();
        for &f in features {
            let f = f as usize;
            for (a, w) in acc.iter_mut().zip(&self.w1[f * h..(f + 1) * h]) {
                *a += w;
            }
        }
        acc
    }

    /// The output (a logit) for a sample.
    pub fn forward(&self, s: &Encoded) -> f32 {
        let h = self.layout.hidden;
        let w2 = &self.w2[s.bucket as usize * 2 * h..(s.bucket as usize + 1) * 2 * h];
        let (a, b) = (self.accumulate(&s.us), self.accumulate(&s.them));
        self.b2[s.bucket as usize] + (0..h).map(|i| screlu(a[i]) * w2[i] + screlu(b[i]) * w2[h + i]).sum::<f32>()
    }

    fn params(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len()
    }

    /// The loss gradient of `samples` and their summed loss. Only the input rows the samples use are kept
    /// (a slice touches a few thousand of the king-bucketed network's 15 120 rows).
    fn gradient(&self, samples: &[&Encoded], wdl: f32) -> SliceGradient {
        let h = self.layout.hidden;
        let mut out = SliceGradient {
            slot: vec![u32::MAX; self.layout.rows()],
            rows: Vec::new(),
            w1: Vec::new(),
            rest: vec![0.0; h + self.w2.len() + self.b2.len()],
            loss: 0.0,
        };
        let (gb1, rest) = out.rest.split_at_mut(h);
        let (gw2, gb2) = rest.split_at_mut(self.w2.len());
        let mut d_acc = vec![0.0f32; h];
        for s in samples {
            let ob = s.bucket as usize;
            let (w2, gw2) = (&self.w2[ob * 2 * h..(ob + 1) * 2 * h], &mut gw2[ob * 2 * h..(ob + 1) * 2 * h]);
            let accs = [self.accumulate(&s.us), self.accumulate(&s.them)];
            let mut o = self.b2[ob];
            for (k, acc) in accs.iter().enumerate() {
                o += acc.iter().zip(&w2[k * h..(k + 1) * h]).map(|(&x, w)| screlu(x) * w).sum::<f32>();
            }
            let p = sigmoid(o);
            let target = s.target(wdl);
            out.loss += ((p - target) as f64).powi(2);
            let g = 2.0 * (p - target) * p * (1.0 - p);
            gb2[ob] += g;
            for (k, (acc, feats)) in accs.iter().zip([&s.us, &s.them]).enumerate() {
                for i in 0..h {
                    let x = acc[i];
                    gw2[k * h + i] += g * screlu(x);
                    d_acc[i] = if x > 0.0 && x < 1.0 { g * w2[k * h + i] * 2.0 * x } else { 0.0 };
                    gb1[i] += d_acc[i];
                }
                for &f in feats.iter() {
                    let slot = &mut out.slot[f as usize];
                    if *slot == u32::MAX {
                        *slot = out.rows.len() as u32;
                        out.rows.push(f);
                        out.w1.resize(out.w1.len() + h, 0.0);
                    }
                    let at = *slot as usize * h;
                    for (gw, d) in out.w1[at..at + h].iter_mut().zip(&d_acc) {
                        *gw += d;
                    }
                }
            }
        }
        out
    }

    /// The mean loss over `samples`.
    pub fn loss(&self, samples: &[Encoded], wdl: f32) -> f64 {
        let total: f64 = samples
            .par_chunks(SLICE)
            .map(|c| c.iter().map(|s| ((sigmoid(self.forward(s)) - s.target(wdl)) as f64).powi(2)).sum::<f64>())
            .sum();
        total / samples.len().max(1) as f64
    }

    /// The quantised network.
    pub fn quantise(&self) -> Network {
        let q16 = |x: f32, s: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let (h, inputs) = (self.layout.hidden, self.layout.features.inputs());
        // Each bucket's rows plus the shared plane's.
        let w1 = (0..inputs * h).map(|i| {
            let shared = if self.layout.factorised() { self.w1[inputs * h + i % (PLANE * h)] } else { 0.0 };
            self.w1[i] + shared
        });
        Network {
            features: self.layout.features,
            hidden: self.layout.hidden,
            output_buckets: self.layout.output_buckets,
            qa: QA,
            qb: QB,
            scale: SCALE,
            feature_weights: w1.map(|w| q16(w, QA as f32)).collect(),
            feature_biases: self.b1.iter().map(|&w| q16(w, QA as f32)).collect(),
            output_weights: self
                .w2
                .iter()
                .map(|&w| q16(w, QB as f32).clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT))
                .collect(),
            output_biases: self.b2.iter().map(|&b| (b * QA as f32 * QB as f32).round() as i32).collect(),
        }
    }
}

/// One slice's gradient: the input rows it touched (`rows`, their gradients in that order in `w1`; `slot` maps
/// an input to its place there), the rest of the parameters dense (b1, w2, b2) and the summed loss.
struct SliceGradient {
    slot: Vec<u32>,
    rows: Vec<u32>,
    w1: Vec<f32>,
    rest: Vec<f32>,
    loss: f64,
}

/// AdamW's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    fn step(&mut self, model: &mut Model, grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const WD: f32 = 0.01;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        let (n1, h, n2) = (model.w1.len(), model.layout.hidden, model.w2.len());
        let mut i = 0;
        let mut update = |w: &mut f32, g: f32, limit: f32| {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            *w -= lr * (self.m[i] / c1 / ((self.v[i] / c2).sqrt() + 1e-8) + WD * *w);
            *w = w.clamp(-limit, limit);
            i += 1;
        };
        for (w, &g) in model.w1.iter_mut().zip(&grad[..n1]) {
            update(w, g, 127.0);
        }
        for (w, &g) in model.b1.iter_mut().zip(&grad[n1..n1 + h]) {
            update(w, g, 127.0);
        }
        for (w, &g) in model.w2.iter_mut().zip(&grad[n1 + h..n1 + h + n2]) {
            update(w, g, W2_LIMIT);
        }
        for (w, &g) in model.b2.iter_mut().zip(&grad[n1 + h + n2..]) {
            update(w, g, 1000.0);
        }
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub wdl: f32,
    pub seed: u64,
}

/// Trains `model` on `train`, calling `batch_done(positions)` after each mini-batch and
/// `report(epoch, model, adam, mean training loss, positions per second)` after each epoch; `start_epoch`
/// continues a checkpointed run.
pub fn train(
    model: &mut Model,
    adam: &mut Adam,
    train: &[Encoded],
    cfg: &TrainConfig,
    start_epoch: usize,
    batch_done: impl Fn(usize),
    mut report: impl FnMut(usize, &Model, &Adam, f64, f64),
) {
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = Rng::new(cfg.seed);
    let h = model.layout.hidden;
    let mut grad = vec![0.0f32; model.params()];
    let mut seen = vec![false; model.layout.rows()];
    for epoch in 0..cfg.epochs {
        // Fisher–Yates with the seeded generator (every epoch, so a resumed run shuffles as an unbroken one).
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        if epoch < start_epoch {
            continue;
        }
        let lr = if epoch * 10 >= cfg.epochs * 7 { cfg.lr * 0.1 } else { cfg.lr };
        let start = Instant::now();
        let mut total = 0.0;
        for batch in order.chunks(cfg.batch) {
            let samples: Vec<&Encoded> = batch.iter().map(|&i| &train[i as usize]).collect();
            let parts: Vec<SliceGradient> =
                samples.par_chunks(SLICE).map(|slice| model.gradient(slice, cfg.wdl)).collect();
            // The slices' gradients added in slice order, so the sums do not depend on the threads.
            let n1 = model.w1.len();
            let mut touched = Vec::new();
            for part in &parts {
                total += part.loss;
                for (k, &f) in part.rows.iter().enumerate() {
                    let f = f as usize;
                    if !seen[f] {
                        seen[f] = true;
                        touched.push(f);
                    }
                    for (a, b) in grad[f * h..(f + 1) * h].iter_mut().zip(&part.w1[k * h..(k + 1) * h]) {
                        *a += b;
                    }
                }
                for (a, b) in grad[n1..].iter_mut().zip(&part.rest) {
                    *a += b;
                }
            }
            let n = batch.len() as f32;
            for &f in &touched {
                grad[f * h..(f + 1) * h].iter_mut().for_each(|g| *g /= n);
            }
            grad[n1..].iter_mut().for_each(|g| *g /= n);
            adam.step(model, &grad, lr);
            // Back to zero for the next batch: only what was written.
            for f in touched {
                seen[f] = false;
                grad[f * h..(f + 1) * h].fill(0.0);
            }
            grad[n1..].fill(0.0);
            batch_done(batch.len());
        }
        let rate = train.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
        report(epoch + 1, model, adam, total / train.len().max(1) as f64, rate);
    }
}

/// Checkpoint: the model's layout, the epoch and Adam's step count, then the model and Adam's state as
/// little-endian f32s.
fn save_checkpoint(path: &str, model: &Model, adam: &Adam, epoch: usize) -> std::io::Result<()> {
    let mut b = Vec::new();
    b.extend_from_slice(CHECKPOINT_MAGIC);
    let l = model.layout;
    for v in [l.features.id(), l.hidden as u32, l.output_buckets as u32, epoch as u32, adam.t as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let floats = model.w1.iter().chain(&model.b1).chain(&model.w2).chain(&model.b2);
    for f in floats.chain(&adam.m).chain(&adam.v) {
        b.extend_from_slice(&f.to_le_bytes());
    }
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, b)?;
    std::fs::rename(tmp, path)
}

/// Version 2 of the checkpoint (with the layout); version 1's `XQCK` files held a plain network only.
const CHECKPOINT_MAGIC: &[u8; 4] = b"XQC2";
const CHECKPOINT_HEADER: usize = 24;

fn load_checkpoint(path: &str) -> Result<(Model, Adam, usize), String> {
    let b = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if b.len() < CHECKPOINT_HEADER || &b[..4] != CHECKPOINT_MAGIC {
        return Err(format!("{path}: not a training checkpoint of this version"));
    }
    let word = |i: usize| u32::from_le_bytes(b[4 + 4 * i..8 + 4 * i].try_into().expect("4 bytes"));
    let features = FeatureSet::from_id(word(0)).ok_or(format!("{path}: unknown feature set {}", word(0)))?;
    let (hidden, output_buckets, epoch, t) = (word(1) as usize, word(2) as usize, word(3) as usize, word(4));
    if hidden == 0 || hidden > 4096 || !(1..=MAX_OUTPUT_BUCKETS).contains(&output_buckets) {
        return Err(format!("{path}: a checkpoint of {hidden} hidden units and {output_buckets} output buckets"));
    }
    let mut model = Model::new(Layout { features, hidden, output_buckets }, 0);
    let n = model.params();
    if b.len() != CHECKPOINT_HEADER + 4 * 3 * n {
        return Err(format!("{path}: a checkpoint of the wrong size"));
    }
    let f: Vec<f32> =
        b[CHECKPOINT_HEADER..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
    let (p, rest) = f.split_at(n);
    let (m, v) = rest.split_at(n);
    let mut p = p.iter().copied();
    for w in model.w1.iter_mut().chain(&mut model.b1).chain(&mut model.w2).chain(&mut model.b2) {
        *w = p.next().expect("sizes checked");
    }
    Ok((model, Adam { m: m.to_vec(), v: v.to_vec(), t: t as i32 }, epoch))
}

/// The largest difference, in evaluation units, between the float model and the quantised network.
pub fn quantisation_error(model: &Model, net: &Network, samples: &[Encoded]) -> f64 {
    samples
        .iter()
        .map(|s| {
            let float = model.forward(s) as f64 * SCALE as f64;
            (float - quantised_eval(net, s) as f64).abs()
        })
        .fold(0.0, f64::max)
}

/// The quantised network's evaluation of a sample, as the engine computes it.
fn quantised_eval(net: &Network, s: &Encoded) -> i32 {
    // The factor plane's inputs are folded into the buckets' rows: the network has only the latter.
    let inputs = net.features.inputs();
    let us: Vec<usize> = s.us.iter().map(|&f| f as usize).filter(|&f| f < inputs).collect();
    let them: Vec<usize> = s.them.iter().map(|&f| f as usize).filter(|&f| f < inputs).collect();
    crate::nnue::State::evaluate_features(net, &us, &them, s.bucket as usize)
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan train --data data/gen6-s61.xqg --out data/net.nnue --epochs 4 --threads 2
  chuhan train --data data/gen6-s61.xqg --init nnue/net5.nnue --features king-buckets --hidden 512 \\
               --output-buckets 8 --out data/net6.nnue --epochs 2 --lr 0.0005
  chuhan train --data data/gen1.xqg --out data/net.nnue --checkpoint data/net.ckpt --resume data/net.ckpt

A new network is king-bucketed (six planes chosen by the own king's point, the board reflected so that a position
and its mirror image read alike), 512 hidden units and 8 output buckets unless told otherwise. --init starts from
a network's weights; given a larger layout than that network's, it grows it so that it starts as the same function
(each king bucket a copy of its plane, each output bucket of its output, new hidden units silent).
The same data, seed and options give the same network, whatever the number of threads.")]
pub struct TrainArgs {
    /// Game files from `chuhan datagen` (several words, or one quoted list)
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub data: Vec<String>,
    /// The network file to write
    #[arg(long, value_name = "NET")]
    pub out: String,
    /// Inputs: plain (net0–net5) or king-buckets [default: king-buckets, or --init's]
    #[arg(long, value_name = "SET", value_parser = parse_features)]
    pub features: Option<FeatureSet>,
    /// Hidden units per side, a multiple of 16 [default: 512, or --init's]
    #[arg(long, value_parser = in_range(16usize..=4096))]
    pub hidden: Option<usize>,
    /// Output buckets, chosen by the number of pieces on the board [default: 8, or --init's]
    #[arg(long, value_parser = in_range(1usize..=MAX_OUTPUT_BUCKETS))]
    pub output_buckets: Option<usize>,
    /// Passes over the training positions (the learning rate drops tenfold from 70 % of the run on: for the last
    /// of 4 epochs, the last 3 of 10, not at all in runs of 1 to 3)
    #[arg(long, default_value_t = 30, value_parser = in_range(1usize..=10_000))]
    pub epochs: usize,
    /// Positions per mini-batch
    #[arg(long, default_value_t = 16384, value_parser = in_range(1usize..=1 << 24))]
    pub batch: usize,
    /// AdamW learning rate
    #[arg(long, default_value_t = 0.001, value_parser = in_range(1e-6f32..=1.0))]
    pub lr: f32,
    /// Weight of the game result in the target (the rest is the search score)
    #[arg(long, default_value_t = 0.3, value_parser = in_range(0.0f32..=1.0))]
    pub wdl: f32,
    /// Seed of the initial weights and the shuffles
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads
    #[arg(long, default_value_t = 1, value_parser = in_range(1usize..=256))]
    pub threads: usize,
    /// Percentage of the games held out for validation (chosen by a hash of the game)
    #[arg(long, default_value_t = 5, value_parser = in_range(0u64..=50))]
    pub val_percent: u64,
    /// Positions before this ply are not used
    #[arg(long, default_value_t = 8, value_parser = in_range(0usize..=200))]
    pub min_ply: usize,
    /// Add every training position mirrored left to right (plain networks only: king-bucketed ones read a
    /// position and its mirror image alike, so the copies would add nothing)
    #[arg(long)]
    pub mirror: bool,
    /// Write a checkpoint here after every epoch
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<String>,
    /// Continue from a checkpoint
    #[arg(long, value_name = "FILE")]
    pub resume: Option<String>,
    /// Start from this network's weights instead of random ones (a generation trained on from the last)
    #[arg(long, value_name = "NET", conflicts_with = "resume")]
    pub init: Option<String>,
    /// No progress bar (the per-epoch lines stay)
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_features(s: &str) -> Result<FeatureSet, String> {
    FeatureSet::parse(s).ok_or_else(|| {
        let names: Vec<&str> = FeatureSet::ALL.iter().map(|f| f.name()).collect();
        format!("'{s}' is not a feature set ({})", names.join(", "))
    })
}

/// The layout asked for: each of --features, --hidden and --output-buckets, or `base`'s where not given.
fn asked_layout(args: &TrainArgs, base: Layout) -> Result<Layout, String> {
    let layout = Layout {
        features: args.features.unwrap_or(base.features),
        hidden: args.hidden.unwrap_or(base.hidden),
        output_buckets: args.output_buckets.unwrap_or(base.output_buckets),
    };
    if !layout.hidden.is_multiple_of(16) {
        return Err(format!("train: --hidden {} is not a multiple of 16", layout.hidden));
    }
    Ok(layout)
}

/// A new network's layout when no option says otherwise.
pub const DEFAULT_LAYOUT: Layout = Layout { features: FeatureSet::KingBuckets, hidden: 512, output_buckets: 8 };

/// Every sample encoded for `layout`, in parallel (order kept).
fn encode_all(samples: Vec<Sample>, layout: Layout) -> Vec<Encoded> {
    samples.par_iter().map(|s| s.encode(layout.features, layout.output_buckets)).collect()
}

/// `chuhan train`: a network from game files.
pub fn run(args: TrainArgs) -> Result<(), String> {
    let out = args.out.clone();
    let cfg = TrainConfig { epochs: args.epochs, batch: args.batch, lr: args.lr, wdl: args.wdl, seed: args.seed };
    let (threads, val_percent, min_ply) = (args.threads, args.val_percent, args.min_ply);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;

    let (mut model, mut adam, first) = match &args.resume {
        Some(path) => {
            let (m, a, e) = load_checkpoint(path)?;
            eprintln!("train: resuming {path} after epoch {e}");
            (m, a, e)
        }
        None => {
            let m = match &args.init {
                Some(path) => {
                    let m =
                        Network::load(path).and_then(|n| Model::from_network(&n)).map_err(|e| format!("train: {e}"))?;
                    let layout = asked_layout(&args, m.layout)?;
                    if layout == m.layout {
                        m
                    } else {
                        m.widen(layout, cfg.seed).map_err(|e| format!("train: {e}"))?
                    }
                }
                None => Model::new(asked_layout(&args, DEFAULT_LAYOUT)?, cfg.seed),
            };
            let n = m.params();
            (m, Adam::new(n), 0)
        }
    };
    let layout = model.layout;

    let start = Instant::now();
    let (mut train_set, mut val_set) = (Vec::new(), Vec::new());
    let mut all = Vec::new();
    for path in args.data.iter().flat_map(|d| d.split_whitespace()) {
        all.extend(gamefile::read(path)?);
    }
    // The same games make the same network whatever order the files and their chunks are in (datagen's threads
    // write games as they finish, so two runs of one command order them differently): by (seed, number), once.
    all.sort_unstable_by_key(|g| (g.seed, g.index));
    all.dedup_by_key(|g| (g.seed, g.index));
    let games = all.len();
    for g in all {
        // Held out by a hash of (seed, number), so the split too is the same for the same games.
        let h = (g.seed ^ g.index.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0xff51_afd7_ed55_8ccd) >> 33;
        let set = if h % 100 < val_percent { &mut val_set } else { &mut train_set };
        samples_of(&g, min_ply, set)?;
    }
    if args.mirror && layout.features == FeatureSet::Plain {
        let mirrored: Vec<Sample> = train_set.iter().map(Sample::mirrored).collect();
        train_set.extend(mirrored);
    } else if args.mirror {
        eprintln!(
            "train: --mirror adds nothing to a {} network (a position and its mirror image are one input); not used",
            layout.features.name()
        );
    }
    let (train_set, val_set) = pool.install(|| (encode_all(train_set, layout), encode_all(val_set, layout)));
    eprintln!(
        "train: {games} games, {} training and {} validation positions ({:.1} s to read); a {} network of {} hidden \
         units and {} output buckets",
        train_set.len(),
        val_set.len(),
        start.elapsed().as_secs_f64(),
        layout.features.name(),
        layout.hidden,
        layout.output_buckets
    );
    if train_set.is_empty() {
        return Err("train: no training positions in the data".into());
    }
    if let (Some(path), 0) = (&args.init, first) {
        let val = if val_set.is_empty() { f64::NAN } else { pool.install(|| model.loss(&val_set, cfg.wdl)) };
        eprintln!("train: starting from {path}, validation {val:.6}");
    }
    let checkpoint = args.checkpoint.clone();
    let bar = Progress::new("train", (cfg.epochs - first.min(cfg.epochs)) as u64 * train_set.len() as u64, args.quiet);
    let began = Instant::now();
    pool.install(|| {
        let batch_done = |n: usize| bar.inc(n as u64);
        train(&mut model, &mut adam, &train_set, &cfg, first, batch_done, |epoch, m, a, loss, rate| {
            let val = if val_set.is_empty() { f64::NAN } else { m.loss(&val_set, cfg.wdl) };
            let per_epoch = began.elapsed().as_secs_f64() / (epoch - first) as f64;
            let eta = per_epoch * (cfg.epochs - epoch) as f64;
            bar.println(&format!(
                "epoch {epoch:>3}/{}: loss {loss:.6}, validation {val:.6}, {rate:.0} positions/s, ETA {eta:.0} s",
                cfg.epochs
            ));
            if let Some(path) = &checkpoint {
                if let Err(e) = save_checkpoint(path, m, a, epoch) {
                    eprintln!("train: cannot write checkpoint {path}: {e}");
                }
            }
        })
    });
    let net = model.quantise();
    std::fs::write(&out, net.to_bytes()).map_err(|e| format!("train: {out}: {e}"))?;
    let check = if val_set.is_empty() { &train_set } else { &val_set };
    let err = quantisation_error(&model, &net, &check[..check.len().min(20_000)]);
    eprintln!("train: wrote {out}; largest float-vs-quantised difference on validation positions: {err:.1} units");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions from random play, labelled by a material count (what a first network must learn).
    fn synthetic(n: usize) -> Vec<Sample> {
        let mut out = Vec::new();
        let mut rng = Rng::new(77);
        let mut pos = Position::startpos();
        while out.len() < n {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.ply() > 120 {
                pos = Position::startpos();
                continue;
            }
            let caps: Vec<_> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            let m = if !caps.is_empty() && rng.next_u64().is_multiple_of(2) {
                caps[(rng.next_u64() % caps.len() as u64) as usize]
            } else {
                moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]
            };
            pos.make_move(m);
            let material = |c: Color| -> i32 {
                pos.pieces_of_color(c).map(|(k, _)| [0, 100, 100, 400, 900, 450, 100][k.index()]).sum()
            };
            let red = material(Color::Red) - material(Color::Black);
            let stm = if pos.side_to_move() == Color::Red { red } else { -red };
            out.push(Sample::from_position(
                &pos,
                stm,
                if red > 0 {
                    1.0
                } else if red < 0 {
                    0.0
                } else {
                    0.5
                },
            ));
        }
        out
    }

    const SMALL: Layout = Layout { features: FeatureSet::KingBuckets, hidden: 32, output_buckets: 2 };

    fn encoded(samples: &[Sample], layout: Layout) -> Vec<Encoded> {
        encode_all(samples.to_vec(), layout)
    }

    #[test]
    fn learns_a_synthetic_target_deterministically() {
        let data = encoded(&synthetic(3000), SMALL);
        let cfg = TrainConfig { epochs: 12, batch: 256, lr: 0.01, wdl: 0.0, seed: 3 };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut model = Model::new(SMALL, 3);
            let mut adam = Adam::new(model.params());
            let before = model.loss(&data, cfg.wdl);
            pool.install(|| train(&mut model, &mut adam, &data, &cfg, 0, |_| {}, |_, _, _, _, _| {}));
            (before, model.loss(&data, cfg.wdl), model)
        };
        let (before, after, a) = run(1);
        assert!(after < before * 0.5, "loss {before} -> {after}");
        let (_, _, b) = run(2);
        assert_eq!(a, b, "same seed and data, different thread count: a different network");
        // Quantised, it evaluates as the float model does, within a tenth of a logit (SCALE is 445 per logit).
        let net = a.quantise();
        let err = quantisation_error(&a, &net, &data[..500]);
        assert!(err < 40.0, "{err}");
        // And the engine's own accumulators agree with the sample evaluation, on every kind of position.
        for s in synthetic(200).iter().step_by(7) {
            let pos = position_of(s);
            let e = s.encode(SMALL.features, SMALL.output_buckets);
            assert_eq!(crate::nnue::State::evaluate_full(&net, &pos), quantised_eval(&net, &e), "{}", pos.to_fen());
        }
    }

    /// The position a sample was made from (its pieces and side to move).
    fn position_of(s: &Sample) -> Position {
        let mut board = [None; 90];
        for (p, sq) in s.piece_list() {
            board[sq.index()] = Some(p);
        }
        let mut fen = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match board[Square::new(file, rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            fen += &empty.to_string();
                            empty = 0;
                        }
                        fen.push(Piece::fen_char(p));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen += &empty.to_string();
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen += if s.stm == Color::Red { " w - - 0 1" } else { " b - - 0 1" };
        Position::from_fen(&fen).unwrap()
    }

    /// Mirroring twice gives the sample back; king-bucketed inputs of a position and its mirror image are the
    /// same, so every such network scores them alike.
    #[test]
    fn mirrored_samples() {
        let pos = Position::from_fen(crate::board::perft::reference_fen("pos2")).unwrap();
        let s = Sample::from_position(&pos, 10, 1.0);
        assert_ne!(s.mirrored(), s);
        assert_eq!(s.mirrored().mirrored(), s);
        let sorted = |mut e: Encoded| {
            e.us.sort_unstable();
            e.them.sort_unstable();
            e
        };
        for s in synthetic(500) {
            let (a, b) = (s.encode(FeatureSet::KingBuckets, 8), s.mirrored().encode(FeatureSet::KingBuckets, 8));
            assert_eq!(sorted(a), sorted(b));
        }
    }

    /// A network read back as a float model quantises to itself: training can go on from a shipped net.
    #[test]
    fn a_network_is_a_starting_point() {
        let net = Model::new(SMALL, 9).quantise();
        let model = Model::from_network(&net).unwrap();
        assert_eq!(model.quantise(), net);
        let mut other = net.clone();
        other.scale = 400;
        assert!(Model::from_network(&other).unwrap_err().contains("SCALE 400"));
    }

    /// A plain network grown into a king-bucketed one with more hidden units and output buckets computes the same
    /// function on the boards its views do not reflect; it cannot shrink.
    #[test]
    fn a_small_network_grows_into_a_larger_layout() {
        let plain = Layout { features: FeatureSet::Plain, hidden: 16, output_buckets: 1 };
        let small = Model::new(plain, 4);
        let big = small.widen(Layout { features: FeatureSet::KingBuckets, hidden: 48, output_buckets: 4 }, 5).unwrap();
        let mut compared = 0;
        for s in synthetic(400) {
            if s.views(FeatureSet::KingBuckets).iter().any(|v| v.mirror) {
                continue;
            }
            let (a, b) =
                (small.forward(&s.encode(FeatureSet::Plain, 1)), big.forward(&s.encode(FeatureSet::KingBuckets, 4)));
            assert!((a - b).abs() < 1e-5, "{a} {b}");
            compared += 1;
        }
        assert!(compared > 50, "{compared}");
        assert!(big.widen(plain, 1).unwrap_err().contains("cannot grow"));
    }

    #[test]
    fn checkpoints_round_trip() {
        let model = Model::new(SMALL, 5);
        let mut adam = Adam::new(model.params());
        adam.m[3] = 0.5;
        adam.t = 7;
        let path = std::env::temp_dir().join(format!("chuhan-ckpt-{}", std::process::id()));
        let path = path.to_str().unwrap();
        save_checkpoint(path, &model, &adam, 4).unwrap();
        assert_eq!(load_checkpoint(path).unwrap(), (model, adam, 4));
        std::fs::write(path, b"XQCK0000").unwrap();
        assert!(load_checkpoint(path).unwrap_err().contains("not a training checkpoint"));
        let _ = std::fs::remove_file(path);
    }
}
