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
use crate::nnue::features::{index, INPUTS};
use crate::nnue::network::{Network, MAX_OUTPUT_WEIGHT};
use crate::types::{Color, Piece};
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
            .map(|&(pc, sq)| (pc, crate::types::Square::from_index(sq as usize).mirror_file().index() as u8))
            .collect();
        Sample { pieces, ..self.clone() }
    }

    /// The active inputs of the side to move's and the other side's accumulator.
    fn features(&self) -> (Vec<usize>, Vec<usize>) {
        let of = |p: Color| {
            self.pieces
                .iter()
                .map(|&(pc, sq)| {
                    index(p, Piece::from_index(pc as usize), crate::types::Square::from_index(sq as usize))
                })
                .collect()
        };
        (of(self.stm), of(!self.stm))
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

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub hidden: usize,
    /// `INPUTS` rows of `hidden`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// Side to move's `hidden`, then the other side's.
    pub w2: Vec<f32>,
    pub b2: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The largest float output weight: quantised by QB it must fit the SIMD dot product's ±127.
const W2_LIMIT: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;

impl Model {
    pub fn new(hidden: usize, seed: u64) -> Model {
        let mut rng = Rng::new(seed);
        let mut uniform = |r: f32| (rng.uniform() * 2.0 - 1.0) * r;
        let r1 = 1.0 / (32f32).sqrt();
        let r2 = 1.0 / (2.0 * hidden as f32).sqrt();
        Model {
            hidden,
            w1: (0..INPUTS * hidden).map(|_| uniform(r1)).collect(),
            b1: (0..hidden).map(|_| uniform(r1)).collect(),
            w2: (0..2 * hidden).map(|_| uniform(r2)).collect(),
            b2: 0.0,
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
        Ok(Model {
            hidden: net.hidden,
            w1: net.feature_weights.iter().map(|&w| w as f32 / qa).collect(),
            b1: net.feature_biases.iter().map(|&w| w as f32 / qa).collect(),
            w2: net.output_weights.iter().map(|&w| w as f32 / qb).collect(),
            b2: net.output_bias as f32 / (qa * qb),
        })
    }

    fn accumulate(&self, features: &[usize]) -> Vec<f32> {
        let h = self.hidden;
        let mut acc = self.b1.clone();
        for &f in features {
            for (a, w) in acc.iter_mut().zip(&self.w1[f * h..(f + 1) * h]) {
                *a += w;
            }
        }
        acc
    }

    /// The output (a logit) for a sample.
    pub fn forward(&self, s: &Sample) -> f32 {
        let (us, them) = s.features();
        let h = self.hidden;
        let act = |x: f32| x.clamp(0.0, 1.0).powi(2);
        let a = self.accumulate(&us);
        let b = self.accumulate(&them);
        self.b2 + (0..h).map(|i| act(a[i]) * self.w2[i] + act(b[i]) * self.w2[h + i]).sum::<f32>()
    }

    fn params(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + 1
    }

    /// Adds the loss gradient of `samples` into `grad` (laid out as w1, b1, w2, b2); returns the summed loss.
    fn gradient(&self, samples: &[&Sample], wdl: f32, grad: &mut [f32]) -> f64 {
        let h = self.hidden;
        let (gw1, rest) = grad.split_at_mut(self.w1.len());
        let (gb1, rest) = rest.split_at_mut(h);
        let (gw2, gb2) = rest.split_at_mut(2 * h);
        let mut loss = 0.0f64;
        for s in samples {
            let (us, them) = s.features();
            let accs = [self.accumulate(&us), self.accumulate(&them)];
            let mut out = self.b2;
            for (k, acc) in accs.iter().enumerate() {
                out += acc
                    .iter()
                    .zip(&self.w2[k * h..(k + 1) * h])
                    .map(|(x, w)| x.clamp(0.0, 1.0).powi(2) * w)
                    .sum::<f32>();
            }
            let p = sigmoid(out);
            let target = wdl * s.result + (1.0 - wdl) * sigmoid(s.score / SCALE as f32);
            loss += ((p - target) as f64).powi(2);
            let g = 2.0 * (p - target) * p * (1.0 - p);
            gb2[0] += g;
            let mut d_acc = vec![0.0f32; h];
            for (k, (acc, feats)) in accs.iter().zip([&us, &them]).enumerate() {
                for i in 0..h {
                    let x = acc[i];
                    gw2[k * h + i] += g * x.clamp(0.0, 1.0).powi(2);
                    d_acc[i] = if x > 0.0 && x < 1.0 { g * self.w2[k * h + i] * 2.0 * x } else { 0.0 };
                    gb1[i] += d_acc[i];
                }
                // Row by row: each feature's gradient row is contiguous.
                for &f in feats.iter() {
                    for (gw, d) in gw1[f * h..(f + 1) * h].iter_mut().zip(&d_acc) {
                        *gw += d;
                    }
                }
            }
        }
        loss
    }

    /// The mean loss over `samples`.
    pub fn loss(&self, samples: &[Sample], wdl: f32) -> f64 {
        let total: f64 = samples
            .par_chunks(SLICE)
            .map(|c| {
                c.iter()
                    .map(|s| {
                        let t = wdl * s.result + (1.0 - wdl) * sigmoid(s.score / SCALE as f32);
                        ((sigmoid(self.forward(s)) - t) as f64).powi(2)
                    })
                    .sum::<f64>()
            })
            .sum();
        total / samples.len().max(1) as f64
    }

    /// The quantised network.
    pub fn quantise(&self) -> Network {
        let q16 = |x: f32, s: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        Network {
            hidden: self.hidden,
            qa: QA,
            qb: QB,
            scale: SCALE,
            feature_weights: self.w1.iter().map(|&w| q16(w, QA as f32)).collect(),
            feature_biases: self.b1.iter().map(|&w| q16(w, QA as f32)).collect(),
            output_weights: self
                .w2
                .iter()
                .map(|&w| q16(w, QB as f32).clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT))
                .collect(),
            output_bias: (self.b2 * QA as f32 * QB as f32).round() as i32,
        }
    }
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
        let n1 = model.w1.len();
        let h = model.hidden;
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
        for (w, &g) in model.w2.iter_mut().zip(&grad[n1 + h..n1 + 3 * h]) {
            update(w, g, W2_LIMIT);
        }
        update(&mut model.b2, grad[n1 + 3 * h], 1000.0);
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
    train: &[Sample],
    cfg: &TrainConfig,
    start_epoch: usize,
    batch_done: impl Fn(usize),
    mut report: impl FnMut(usize, &Model, &Adam, f64, f64),
) {
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = Rng::new(cfg.seed);
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
            let samples: Vec<&Sample> = batch.iter().map(|&i| &train[i as usize]).collect();
            let parts: Vec<(Vec<f32>, f64)> = samples
                .par_chunks(SLICE)
                .map(|slice| {
                    let mut g = vec![0.0f32; model.params()];
                    let l = model.gradient(slice, cfg.wdl, &mut g);
                    (g, l)
                })
                .collect();
            let mut grad = vec![0.0f32; model.params()];
            for (g, l) in &parts {
                total += l;
                for (a, b) in grad.iter_mut().zip(g) {
                    *a += b;
                }
            }
            let n = batch.len() as f32;
            grad.iter_mut().for_each(|g| *g /= n);
            adam.step(model, &grad, lr);
            batch_done(batch.len());
        }
        let rate = train.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
        report(epoch + 1, model, adam, total / train.len().max(1) as f64, rate);
    }
}

/// Checkpoint: the model, Adam's state and the epoch, as little-endian f32s after a small header.
fn save_checkpoint(path: &str, model: &Model, adam: &Adam, epoch: usize) -> std::io::Result<()> {
    let mut b = Vec::new();
    b.extend_from_slice(b"XQCK");
    for v in [model.hidden as u32, epoch as u32, adam.t as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let floats = model.w1.iter().chain(&model.b1).chain(&model.w2).chain(std::iter::once(&model.b2));
    for f in floats.chain(&adam.m).chain(&adam.v) {
        b.extend_from_slice(&f.to_le_bytes());
    }
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, b)?;
    std::fs::rename(tmp, path)
}

fn load_checkpoint(path: &str) -> Result<(Model, Adam, usize), String> {
    let b = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if b.len() < 16 || &b[..4] != b"XQCK" {
        return Err(format!("{path}: not a training checkpoint"));
    }
    let word = |i: usize| u32::from_le_bytes(b[4 + 4 * i..8 + 4 * i].try_into().expect("4 bytes")) as usize;
    let (hidden, epoch, t) = (word(0), word(1), word(2));
    let mut model = Model::new(hidden, 0);
    let n = model.params();
    if b.len() != 16 + 4 * 3 * n {
        return Err(format!("{path}: a checkpoint of the wrong size"));
    }
    let f: Vec<f32> = b[16..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
    let (p, rest) = f.split_at(n);
    let (m, v) = rest.split_at(n);
    let n1 = model.w1.len();
    model.w1.copy_from_slice(&p[..n1]);
    model.b1.copy_from_slice(&p[n1..n1 + hidden]);
    model.w2.copy_from_slice(&p[n1 + hidden..n1 + 3 * hidden]);
    model.b2 = p[n - 1];
    Ok((model, Adam { m: m.to_vec(), v: v.to_vec(), t: t as i32 }, epoch))
}

/// The largest difference, in evaluation units, between the float model and the quantised network.
pub fn quantisation_error(model: &Model, net: &Network, samples: &[Sample]) -> f64 {
    samples
        .iter()
        .map(|s| {
            let float = model.forward(s) as f64 * SCALE as f64;
            (float - quantised_eval(net, s) as f64).abs()
        })
        .fold(0.0, f64::max)
}

/// The quantised network's evaluation of a sample, as the engine computes it.
fn quantised_eval(net: &Network, s: &Sample) -> i32 {
    let (us, them) = s.features();
    crate::nnue::State::evaluate_features(net, &us, &them)
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan train --data \"data/gen0-s1.xqg data/gen0-s2.xqg\" --out data/net.nnue --epochs 4 --mirror --threads 2
  chuhan train --data data/gen1.xqg --out data/net.nnue --checkpoint data/net.ckpt
  chuhan train --data data/gen1.xqg --out data/net.nnue --checkpoint data/net.ckpt --resume data/net.ckpt

The same data, seed and options give the same network, whatever the number of threads.")]
pub struct TrainArgs {
    /// Game files from `chuhan datagen` (several words, or one quoted list)
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub data: Vec<String>,
    /// The network file to write
    #[arg(long, value_name = "NET")]
    pub out: String,
    /// Hidden units per side (a multiple of 16)
    #[arg(long, default_value_t = 256, value_parser = in_range(16usize..=4096))]
    pub hidden: usize,
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
    /// Add every training position mirrored left to right
    #[arg(long)]
    pub mirror: bool,
    /// Write a checkpoint here after every epoch
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<String>,
    /// Continue from a checkpoint
    #[arg(long, value_name = "FILE")]
    pub resume: Option<String>,
    /// Start from this network's weights instead of random ones (a generation trained on from the last;
    /// its hidden size replaces --hidden)
    #[arg(long, value_name = "NET", conflicts_with = "resume")]
    pub init: Option<String>,
    /// No progress bar (the per-epoch lines stay)
    #[arg(long, short)]
    pub quiet: bool,
}

/// `chuhan train`: a network from game files.
pub fn run(args: TrainArgs) -> Result<(), String> {
    let out = args.out.clone();
    let hidden = args.hidden;
    if !hidden.is_multiple_of(16) {
        return Err(format!("train: --hidden {hidden} is not a multiple of 16"));
    }
    let cfg = TrainConfig { epochs: args.epochs, batch: args.batch, lr: args.lr, wdl: args.wdl, seed: args.seed };
    let (threads, val_percent, min_ply) = (args.threads, args.val_percent, args.min_ply);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;

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
    if args.mirror {
        let mirrored: Vec<Sample> = train_set.iter().map(Sample::mirrored).collect();
        train_set.extend(mirrored);
    }
    eprintln!(
        "train: {games} games, {} training and {} validation positions ({:.1} s to read)",
        train_set.len(),
        val_set.len(),
        start.elapsed().as_secs_f64()
    );
    if train_set.is_empty() {
        return Err("train: no training positions in the data".into());
    }
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
                    let val = if val_set.is_empty() { f64::NAN } else { m.loss(&val_set, cfg.wdl) };
                    eprintln!("train: starting from {path} (hidden {}), validation {val:.6}", m.hidden);
                    m
                }
                None => Model::new(hidden, cfg.seed),
            };
            let n = m.params();
            (m, Adam::new(n), 0)
        }
    };
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

    #[test]
    fn learns_a_synthetic_target_deterministically() {
        let data = synthetic(3000);
        let cfg = TrainConfig { epochs: 12, batch: 256, lr: 0.01, wdl: 0.0, seed: 3 };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut model = Model::new(32, 3);
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
        // And the engine's own accumulators agree with the sample evaluation.
        let pos = Position::startpos();
        let s = Sample::from_position(&pos, 0, 0.5);
        assert_eq!(crate::nnue::State::evaluate_full(&net, &pos), quantised_eval(&net, &s));
    }

    /// Mirroring twice gives the sample back, and a network whose weights are mirror-symmetric evaluates a
    /// position and its mirror image alike.
    #[test]
    fn mirrored_samples() {
        let pos = Position::from_fen(crate::board::perft::reference_fen("pos2")).unwrap();
        let s = Sample::from_position(&pos, 10, 1.0);
        assert_ne!(s.mirrored(), s);
        assert_eq!(s.mirrored().mirrored(), s);
        let mut m = Model::new(16, 1);
        for f in 0..INPUTS {
            let sq = crate::types::Square::from_index(f % 90);
            let twin = f - f % 90 + sq.mirror_file().index();
            if twin < f {
                let row: Vec<f32> = m.w1[twin * 16..(twin + 1) * 16].to_vec();
                m.w1[f * 16..(f + 1) * 16].copy_from_slice(&row);
            }
        }
        assert!((m.forward(&s) - m.forward(&s.mirrored())).abs() < 1e-5);
    }

    /// A network read back as a float model quantises to itself: training can go on from a shipped net.
    #[test]
    fn a_network_is_a_starting_point() {
        let net = Model::new(32, 9).quantise();
        let model = Model::from_network(&net).unwrap();
        assert_eq!(model.quantise(), net);
        let mut other = net.clone();
        other.scale = 400;
        assert!(Model::from_network(&other).unwrap_err().contains("SCALE 400"));
    }

    #[test]
    fn checkpoints_round_trip() {
        let model = Model::new(16, 5);
        let mut adam = Adam::new(model.params());
        adam.m[3] = 0.5;
        adam.t = 7;
        let path = std::env::temp_dir().join(format!("chuhan-ckpt-{}", std::process::id()));
        let path = path.to_str().unwrap();
        save_checkpoint(path, &model, &adam, 4).unwrap();
        assert_eq!(load_checkpoint(path).unwrap(), (model, adam, 4));
        let _ = std::fs::remove_file(path);
    }
}
