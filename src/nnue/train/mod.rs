//! Training the evaluation network, in pure Rust: the float model of `nnue::network`, its optimiser, the
//! training loop and checkpoints. `chuhan train` (tools/train.rs) reads the game files, writes the training
//! records once (`records`: 36 bytes a position on disk) and drives it; every epoch streams them back in
//! shuffled blocks, so the data is bounded by the disk, not by memory.
//!
//! The float model is the quantised one of `nnue::network` without the integers: each side's accumulator
//! `b + Σ W[feature]`, SCReLU `clamp(x, 0, 1)²`, a linear output. Its output `o` predicts the side to move's
//! expected result as `sigmoid(o)`, and the quantised network evaluates `o · SCALE`: SCALE, the evaluation
//! units per logit, is the one the handcrafted tuner fits to our games (about 445), so that a network's scores
//! read like the handcrafted evaluation's and the search's margins still fit.
//!
//! The target blends the game's result with the search's score: `wdl · result + (1 − wdl) · sigmoid(score /
//! SCALE)`; the loss is the squared error of the prediction. Mini-batches, AdamW, the learning rate of
//! `schedule` (a step, or a cosine to `--lr-end`). Positions are shuffled by a seeded generator (`records::Loader`), and each batch is cut into
//! fixed slices whose gradients are added in order, so the same seed and data give the same network whatever
//! the thread count. The games are taken in the order of their (seed, number), each once, so the same games give
//! the same network whatever files hold them in whatever order. Games whose number hashes into the validation
//! share are held out.

pub mod checkpoint;
pub mod model;
pub mod optim;
pub mod records;
pub mod sample;
pub mod schedule;

use crate::nnue::network::Network;
use crate::nnue::simd::Backend;
use crate::rng::Rng;
use model::SliceGradient;
pub use model::{Layout, Model};
pub use optim::Adam;
use rayon::prelude::*;
pub use records::Loader;
use records::RECORD_BYTES;
pub use sample::{Encoded, Sample};
use schedule::Schedule;
use std::time::Instant;

/// Evaluation units per logit (the handcrafted tuner's 1 / K on the same kind of data).
pub const SCALE: i32 = 445;
pub const QA: i16 = 255;
/// The smallest output scale a network is quantised with: the optimiser keeps every output weight within
/// ±127 / QB_MIN, and `Model::quantise` then picks the largest scale that still keeps them within ±127.
pub const QB_MIN: i32 = 64;
/// Positions per gradient slice: the unit of parallel work, fixed so that results do not depend on threads.
const SLICE: usize = 1024;
/// Input rows per parallel piece of the slices' merge.
const MERGE_ROWS: usize = 512;

/// A new network's layout when no option says otherwise.
pub const DEFAULT_LAYOUT: Layout =
    Layout { features: crate::nnue::features::FeatureSet::KingBuckets2, hidden: 512, output_buckets: 8 };

/// Records decoded and encoded for `layout`, in parallel (order kept).
pub fn encode_records(raw: &[u8], layout: Layout) -> Result<Vec<Encoded>, String> {
    raw.par_chunks(RECORD_BYTES)
        .map(|r| records::decode(r).map(|s| s.encode(layout.features, layout.output_buckets)))
        .collect()
}

/// Validation records in memory at a time: the loss of a held-out set of any size streams through this many.
const VALIDATION_CHUNK: usize = 64 * SLICE;

/// The model's mean loss over the records `data` holds for each weight of the result in the target, in one pass
/// read in file order a chunk at a time (the held-out positions, which may be more than memory holds); `NaN`
/// when there are none.
pub fn streamed_losses<const N: usize>(model: &Model, data: &mut Loader, wdls: [f32; N]) -> Result<[f64; N], String> {
    let (mut total, n) = ([0.0; N], data.len());
    data.in_order(VALIDATION_CHUNK, |raw| {
        let samples = encode_records(raw, model.layout)?;
        let losses = model.losses(&samples, wdls);
        total.iter_mut().zip(losses).for_each(|(t, l)| *t += l * samples.len() as f64);
        Ok(())
    })?;
    Ok(total.map(|t| if n == 0 { f64::NAN } else { t / n as f64 }))
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The learning rate at the run's end (a cosine from `lr`); `None`: `lr`, dropped tenfold for the last
    /// epochs (`schedule`).
    pub lr_end: Option<f32>,
    pub wdl: f32,
    pub seed: u64,
}

/// Trains `model` on the records `data` streams, calling `batch_done(positions)` after each mini-batch and
/// `report(epoch, model, adam, mean training loss, positions per second)` after each epoch; `start_epoch`
/// continues a checkpointed run (the epochs before it draw their shuffles without reading, so a resumed run
/// sees the batches an unbroken one would).
pub fn train(
    model: &mut Model,
    adam: &mut Adam,
    data: &mut Loader,
    cfg: &TrainConfig,
    start_epoch: usize,
    batch_done: impl Fn(usize),
    mut report: impl FnMut(usize, &Model, &Adam, f64, f64),
) -> Result<(), String> {
    let mut rng = Rng::new(cfg.seed);
    let mut state = StepState {
        grad: vec![0.0f32; model.params()],
        seen: vec![false; model.layout.rows()],
        rows: Vec::new(),
        backend: Backend::detect(),
    };
    let layout = model.layout;
    let schedule = Schedule { lr: cfg.lr, lr_end: cfg.lr_end, epochs: cfg.epochs };
    for epoch in 0..cfg.epochs {
        if epoch < start_epoch {
            data.skip_epoch(&mut rng);
            continue;
        }
        let start = Instant::now();
        let (mut total, mut failure, mut done) = (0.0, None, 0);
        let len = data.len();
        data.epoch(&mut rng, |raw| {
            for batch in raw.chunks(cfg.batch * RECORD_BYTES) {
                // Decoded and encoded per batch, in parallel: the records stay on disk.
                match encode_records(batch, layout) {
                    Ok(e) => {
                        let refs: Vec<&Encoded> = e.iter().collect();
                        let lr = schedule.at(epoch, done, len);
                        total += state.step(model, adam, &refs, cfg.wdl, lr);
                        done += refs.len();
                        batch_done(refs.len());
                    }
                    Err(err) => failure = Some(err),
                }
            }
        })?;
        if let Some(err) = failure {
            return Err(err);
        }
        let rate = data.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
        report(epoch + 1, model, adam, total / data.len().max(1) as f64, rate);
    }
    Ok(())
}

/// The gradient buffer and which of its input rows hold something, kept across batches; the network's input
/// rows as they stand (`Model::input_rows`).
struct StepState {
    grad: Vec<f32>,
    seen: Vec<bool>,
    rows: Vec<f32>,
    backend: Backend,
}

impl StepState {
    /// One mini-batch: the gradient, in fixed slices added in order, then an Adam step; the summed loss.
    fn step(&mut self, model: &mut Model, adam: &mut Adam, batch: &[&Encoded], wdl: f32, lr: f32) -> f64 {
        let h = model.layout.hidden;
        model.input_rows(&mut self.rows);
        let (grad, seen, rows) = (&mut self.grad, &mut self.seen, &self.rows);
        let parts: Vec<SliceGradient> =
            batch.par_chunks(SLICE).map(|slice| model.gradient(self.backend, rows, slice, wdl)).collect();
        // The slices' gradients added in slice order, so the sums do not depend on the threads; the input rows
        // in parallel, each thread a range of rows.
        let n1 = model.w1.len();
        let mut touched = Vec::new();
        let mut loss = 0.0;
        for part in &parts {
            loss += part.loss;
            for &f in &part.rows {
                let f = f as usize;
                if !seen[f] {
                    seen[f] = true;
                    touched.push(f);
                }
            }
            for (a, b) in grad[n1..].iter_mut().zip(&part.rest) {
                *a += b;
            }
        }
        grad[..n1].par_chunks_mut(MERGE_ROWS * h).enumerate().for_each(|(c, rows)| {
            let lo = c * MERGE_ROWS;
            let hi = lo + rows.len() / h;
            for part in &parts {
                for (k, &f) in part.rows.iter().enumerate() {
                    let f = f as usize;
                    if (lo..hi).contains(&f) {
                        let row = &mut rows[(f - lo) * h..(f - lo + 1) * h];
                        for (a, b) in row.iter_mut().zip(&part.w1[k * h..(k + 1) * h]) {
                            *a += b;
                        }
                    }
                }
            }
        });
        let n = batch.len() as f32;
        for &f in &touched {
            grad[f * h..(f + 1) * h].iter_mut().for_each(|g| *g /= n);
        }
        grad[n1..].iter_mut().for_each(|g| *g /= n);
        adam.step(model, grad, lr);
        // Back to zero for the next batch: only what was written.
        for f in touched {
            seen[f] = false;
            grad[f * h..(f + 1) * h].fill(0.0);
        }
        grad[n1..].fill(0.0);
        loss
    }
}

/// The largest difference, in evaluation units, between the float model and the quantised network.
pub fn quantisation_error(model: &Model, net: &Network, samples: &[Encoded]) -> f64 {
    let mut rows = Vec::new();
    model.input_rows(&mut rows);
    samples
        .iter()
        .map(|s| {
            let float = model.forward(&rows, s) as f64 * SCALE as f64;
            (float - quantised_eval(net, s) as f64).abs()
        })
        .fold(0.0, f64::max)
}

/// The quantised network's evaluation of a sample, as the engine computes it.
pub(super) fn quantised_eval(net: &Network, s: &Encoded) -> i32 {
    let us: Vec<usize> = s.us.iter().map(|&f| f as usize).collect();
    let them: Vec<usize> = s.them.iter().map(|&f| f as usize).collect();
    crate::nnue::State::evaluate_features(net, &us, &them, s.bucket as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::nnue::features::FeatureSet;
    use crate::types::Color;

    /// Positions from random play, labelled by a material count (what a first network must learn).
    pub(super) fn synthetic(n: usize) -> Vec<Sample> {
        synthetic_positions(n).into_iter().map(|(_, s)| s).collect()
    }

    /// The same, each sample with the position it was made from.
    fn synthetic_positions(n: usize) -> Vec<(Position, Sample)> {
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
            let result = if red > 0 {
                1.0
            } else if red < 0 {
                0.0
            } else {
                0.5
            };
            out.push((pos.clone(), Sample::from_position(&pos, stm, result)));
        }
        out
    }

    pub(super) const SMALL: Layout = Layout { features: FeatureSet::KingBuckets, hidden: 32, output_buckets: 2 };

    fn encoded(samples: &[Sample], layout: Layout) -> Vec<Encoded> {
        samples.iter().map(|s| s.encode(layout.features, layout.output_buckets)).collect()
    }

    #[test]
    fn learns_a_synthetic_target_deterministically() {
        let samples = synthetic(3000);
        let data = encoded(&samples, SMALL);
        let path = std::env::temp_dir().join(format!("chuhan-train-{}.records", std::process::id()));
        let path = path.to_str().unwrap();
        let mut w = records::Writer::create(path).unwrap();
        for s in &samples {
            w.push(s).unwrap();
        }
        w.finish().unwrap();
        let cfg = TrainConfig { epochs: 12, batch: 256, lr: 0.01, lr_end: Some(0.001), wdl: 0.0, seed: 3 };
        let run = |threads: usize, stop_after: Option<usize>| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut model = Model::new(SMALL, 3);
            let mut adam = Adam::new(model.params());
            let before = model.loss(&data, cfg.wdl);
            let mut loader = Loader::open(path).unwrap();
            // A run stopped after some epoch (its checkpoint: the model and Adam) and resumed from there.
            let mut first = 0;
            if let Some(k) = stop_after {
                let part = TrainConfig { epochs: cfg.epochs, ..cfg.clone() };
                let mut saved = None;
                pool.install(|| {
                    train(
                        &mut model,
                        &mut adam,
                        &mut loader,
                        &part,
                        0,
                        |_| {},
                        |e, m, a, _, _| {
                            if e == k {
                                saved = Some((m.clone(), a.clone()));
                            }
                        },
                    )
                })
                .unwrap();
                (model, adam) = saved.unwrap();
                first = k;
            }
            pool.install(|| train(&mut model, &mut adam, &mut loader, &cfg, first, |_| {}, |_, _, _, _, _| {}))
                .unwrap();
            (before, model.loss(&data, cfg.wdl), model)
        };
        let (before, after, a) = run(1, None);
        assert!(after < before * 0.5, "loss {before} -> {after}");
        let (_, _, b) = run(2, None);
        assert_eq!(a, b, "same seed and data, different thread count: a different network");
        let (_, _, c) = run(2, Some(5));
        assert_eq!(a, c, "a run resumed after epoch 5: a different network");
        let _ = std::fs::remove_file(path);
        // Quantised, it evaluates as the float model does, within a tenth of a logit (SCALE is 445 per logit).
        let net = a.quantise();
        let err = quantisation_error(&a, &net, &data[..500]);
        assert!(err < 40.0, "{err}");
        // And the engine's own accumulators agree with the sample evaluation, on every kind of position.
        for (pos, s) in synthetic_positions(200).iter().step_by(7) {
            let e = s.encode(SMALL.features, SMALL.output_buckets);
            assert_eq!(crate::nnue::State::evaluate_full(&net, pos), quantised_eval(&net, &e), "{}", pos.to_fen());
        }
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
}
