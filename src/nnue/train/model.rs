//! The float network: its layout, forward and backward passes, growth into a larger layout, quantisation.

use super::sample::{sigmoid, Encoded};
use super::{QA, QB_MIN, SCALE};
use crate::nnue::features::{FeatureSet, PLANE};
use crate::nnue::network::{Network, MAX_OUTPUT_WEIGHT};
use crate::nnue::simd::Backend;
use crate::rng::Rng;
use rayon::prelude::*;

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

#[inline(always)]
fn screlu(x: f32) -> f32 {
    x.clamp(0.0, 1.0).powi(2)
}

/// `Σ screlu(acc[i]) · w[i]`, summed in eight lanes (then the lanes in order), so that the loop vectorises
/// instead of waiting on one running sum; the order is fixed, so the result is too.
#[inline(always)]
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    debug_assert!(acc.len().is_multiple_of(8) && w.len() == acc.len(), "hidden sizes are multiples of 16");
    let mut lanes = [0.0f32; 8];
    for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        for k in 0..8 {
            lanes[k] += screlu(a[k]) * w[k];
        }
    }
    lanes.iter().sum()
}

/// The largest float output weight: quantised by QB_MIN it must fit the SIMD dot product's ±127.
pub(super) const W2_LIMIT: f32 = MAX_OUTPUT_WEIGHT as f32 / QB_MIN as f32;

/// The largest output scale a network file takes (its reader's limit is 65 536).
const QB_MAX: i32 = 4096;

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
        // Any output scale reads back (each network has its own); the accumulator's and the score's are fixed.
        if (net.qa, net.scale) != (QA, SCALE) {
            return Err(format!(
                "the network's constants (QA {}, SCALE {}) are not the trainer's ({QA}, {SCALE})",
                net.qa, net.scale
            ));
        }
        let (qa, qb) = (QA as f32, net.qb as f32);
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

    /// The network's input rows (`features.inputs()` rows of `hidden`) into `out`: with a factor plane, each
    /// bucket's row plus the shared plane's row of the same input, as the quantised network will hold them.
    /// Training computes them once a step and reads 32 rows a side per position instead of 64.
    pub fn input_rows(&self, out: &mut Vec<f32>) {
        let (h, inputs) = (self.layout.hidden, self.layout.features.inputs());
        out.resize(inputs * h, 0.0);
        if !self.layout.factorised() {
            out.copy_from_slice(&self.w1);
            return;
        }
        let shared = &self.w1[inputs * h..];
        out.par_chunks_mut(PLANE * h).zip(self.w1[..inputs * h].par_chunks(PLANE * h)).for_each(|(out, own)| {
            for ((o, &a), &b) in out.iter_mut().zip(own).zip(shared) {
                *o = a + b;
            }
        });
    }

    /// One side's accumulator: the biases plus the input rows (from [`Model::input_rows`]) of `features`.
    #[inline(always)]
    fn accumulate(&self, rows: &[f32], features: &[u32], acc: &mut [f32]) {
        let h = self.layout.hidden;
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let f = f as usize;
            for (a, w) in acc.iter_mut().zip(&rows[f * h..(f + 1) * h]) {
                *a += w;
            }
        }
    }

    /// The output (a logit) for a sample, with the input rows from [`Model::input_rows`].
    pub fn forward(&self, rows: &[f32], s: &Encoded) -> f32 {
        let h = self.layout.hidden;
        let w2 = &self.w2[s.bucket as usize * 2 * h..(s.bucket as usize + 1) * 2 * h];
        let (mut a, mut b) = (vec![0.0; h], vec![0.0; h]);
        self.accumulate(rows, &s.us, &mut a);
        self.accumulate(rows, &s.them, &mut b);
        self.b2[s.bucket as usize] + screlu_dot(&a, &w2[..h]) + screlu_dot(&b, &w2[h..])
    }

    pub fn params(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len()
    }

    /// The loss gradient of `samples` and their summed loss, with the input rows from [`Model::input_rows`].
    /// Only the input rows the samples use are kept (a slice touches a few thousand of the king-bucketed
    /// network's 15 120 rows); a factor-plane row's gradient is the sum of its buckets' rows' gradients.
    /// `backend` chooses the machine code: the same loops compiled for AVX2 or for any x86-64; Rust neither
    /// reorders nor fuses float operations, so both give the same bits (a test checks).
    pub(super) fn gradient(&self, backend: Backend, rows: &[f32], samples: &[&Encoded], wdl: f32) -> SliceGradient {
        match backend {
            Backend::Scalar => self.gradient_portable(rows, samples, wdl),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Backend::Avx2` is only made by `Backend::detect` after the CPU reported AVX2, and AVX2 is
            // all that `gradient_avx2`'s target feature assumes; its body is safe code (slices check bounds).
            #[allow(unsafe_code)]
            Backend::Avx2 => unsafe { self.gradient_avx2(rows, samples, wdl) },
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    unsafe fn gradient_avx2(&self, rows: &[f32], samples: &[&Encoded], wdl: f32) -> SliceGradient {
        self.gradient_portable(rows, samples, wdl)
    }

    #[inline(always)]
    fn gradient_portable(&self, rows: &[f32], samples: &[&Encoded], wdl: f32) -> SliceGradient {
        let h = self.layout.hidden;
        let mut out = SliceGradient {
            slot: vec![u32::MAX; self.layout.rows()],
            rows: Vec::new(),
            w1: Vec::new(),
            rest: Vec::new(),
            loss: 0.0,
        };
        let mut dense = vec![0.0; h + self.w2.len() + self.b2.len()];
        let (gb1, rest) = dense.split_at_mut(h);
        let (gw2, gb2) = rest.split_at_mut(self.w2.len());
        let mut d_acc = vec![0.0f32; h];
        let mut accs = [vec![0.0f32; h], vec![0.0f32; h]];
        for s in samples {
            let ob = s.bucket as usize;
            let (w2, gw2) = (&self.w2[ob * 2 * h..(ob + 1) * 2 * h], &mut gw2[ob * 2 * h..(ob + 1) * 2 * h]);
            self.accumulate(rows, &s.us, &mut accs[0]);
            self.accumulate(rows, &s.them, &mut accs[1]);
            let o = self.b2[ob] + screlu_dot(&accs[0], &w2[..h]) + screlu_dot(&accs[1], &w2[h..]);
            let p = sigmoid(o);
            let target = s.target(wdl);
            out.loss += ((p - target) as f64).powi(2);
            let g = 2.0 * (p - target) * p * (1.0 - p);
            gb2[ob] += g;
            for (k, (acc, feats)) in accs.iter().zip([&s.us, &s.them]).enumerate() {
                let (w2, gw2) = (&w2[k * h..(k + 1) * h], &mut gw2[k * h..(k + 1) * h]);
                // Zipped slices of one length: no bounds checks, so the loop vectorises.
                for ((((&x, &w), gw), d), gb) in acc.iter().zip(w2).zip(gw2).zip(d_acc.iter_mut()).zip(gb1.iter_mut()) {
                    *gw += g * screlu(x);
                    *d = if x > 0.0 && x < 1.0 { g * w * 2.0 * x } else { 0.0 };
                    *gb += *d;
                }
                for &f in feats.iter() {
                    let at = out.row(f as usize, h);
                    for (gw, d) in out.w1[at..at + h].iter_mut().zip(&d_acc) {
                        *gw += d;
                    }
                }
            }
        }
        out.rest = dense;
        if self.layout.factorised() {
            let inputs = self.layout.features.inputs();
            // Factor rows are created here, after every bucket row: their places lie beyond row k's.
            for k in 0..out.rows.len() {
                let at = out.row(inputs + out.rows[k] as usize % PLANE, h);
                let (own, shared) = out.w1.split_at_mut(at);
                for (s, g) in shared[..h].iter_mut().zip(&own[k * h..(k + 1) * h]) {
                    *s += g;
                }
            }
        }
        out
    }

    /// The mean loss over `samples`.
    pub fn loss(&self, samples: &[Encoded], wdl: f32) -> f64 {
        self.losses(samples, [wdl])[0]
    }

    /// The mean loss over `samples` for each weight of the result in the target, from one forward pass.
    pub fn losses<const N: usize>(&self, samples: &[Encoded], wdls: [f32; N]) -> [f64; N] {
        let mut rows = Vec::new();
        self.input_rows(&mut rows);
        let add = |mut a: [f64; N], b: [f64; N]| {
            a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
            a
        };
        let total = samples
            .par_chunks(super::SLICE)
            .map(|c| {
                c.iter().fold([0.0; N], |acc, s| {
                    let p = sigmoid(self.forward(&rows, s));
                    add(acc, wdls.map(|w| ((p - s.target(w)) as f64).powi(2)))
                })
            })
            .reduce(|| [0.0; N], add);
        total.map(|t| t / samples.len().max(1) as f64)
    }

    /// The mean of models of one layout, weight by weight: runs trained from one start on different shuffles
    /// of the same data end near each other, and their mean generalises better than any of them (a "model
    /// soup"; on seed 65, three one-epoch runs from net5: held-out 0.011856, 0.011913, 0.011843, their mean
    /// 0.011809). Models from different random starts must not be averaged: their hidden units do not match.
    pub fn average(models: &[Model]) -> Result<Model, String> {
        let first = models.first().ok_or("no models to average")?;
        if let Some(m) = models.iter().find(|m| m.layout != first.layout) {
            return Err(format!("cannot average a {:?} model with a {:?} one", first.layout, m.layout));
        }
        let n = models.len() as f64;
        let mean = |part: fn(&Model) -> &Vec<f32>| -> Vec<f32> {
            (0..part(first).len()).map(|i| (models.iter().map(|m| part(m)[i] as f64).sum::<f64>() / n) as f32).collect()
        };
        Ok(Model {
            layout: first.layout,
            w1: mean(|m| &m.w1),
            b1: mean(|m| &m.b1),
            w2: mean(|m| &m.w2),
            b2: mean(|m| &m.b2),
        })
    }

    /// The output layer's scale for this model: as fine as the output weights allow. A weight must stay within
    /// ±127 once scaled (the SIMD dot product's bound), and one output bucket's dot product within i32 even
    /// when every accumulator is at QA: `Σ |w| · QB · QA² < 2³¹`. A fixed QB of 64 left net5's output weights
    /// (at most 46 once scaled) a third of their range, and rounding them cost more held-out loss than most
    /// recipe changes.
    pub fn output_scale(&self) -> i32 {
        let max = self.w2.iter().fold(0.0f64, |m, &w| m.max(w.abs() as f64));
        let by_range = if max > 0.0 { (MAX_OUTPUT_WEIGHT as f64 / max).floor() } else { QB_MAX as f64 };
        let widest = self.w2.chunks(2 * self.layout.hidden).map(|b| b.iter().map(|w| w.abs() as f64).sum::<f64>());
        let widest = widest.fold(0.0f64, f64::max);
        let qa2 = (QA as f64).powi(2);
        let by_sum = if widest > 0.0 { (i32::MAX as f64 / (widest * qa2)).floor() } else { QB_MAX as f64 };
        by_range.min(by_sum).clamp(1.0, QB_MAX as f64) as i32
    }

    /// The quantised network, with the finest output scale its weights allow.
    pub fn quantise(&self) -> Network {
        self.quantise_with(self.output_scale())
    }

    /// The quantised network with output scale `qb` (a network read back by [`Model::from_network`] quantises
    /// to itself with its own).
    pub fn quantise_with(&self, qb: i32) -> Network {
        let q16 = |x: f32, s: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let mut w1 = Vec::new();
        self.input_rows(&mut w1);
        Network {
            features: self.layout.features,
            hidden: self.layout.hidden,
            output_buckets: self.layout.output_buckets,
            qa: QA,
            qb,
            scale: SCALE,
            feature_weights: w1.iter().map(|&w| q16(w, QA as f32)).collect::<Vec<_>>().into(),
            feature_biases: self.b1.iter().map(|&w| q16(w, QA as f32)).collect(),
            output_weights: self
                .w2
                .iter()
                .map(|&w| q16(w, qb as f32).clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT))
                .collect(),
            output_biases: self.b2.iter().map(|&b| (b as f64 * QA as f64 * qb as f64).round() as i32).collect(),
        }
    }
}

/// One slice's gradient: the input rows it touched (`rows`, their gradients in that order in `w1`; `slot` maps
/// an input to its place there), the rest of the parameters dense (b1, w2, b2) and the summed loss.
pub(super) struct SliceGradient {
    slot: Vec<u32>,
    pub(super) rows: Vec<u32>,
    pub(super) w1: Vec<f32>,
    pub(super) rest: Vec<f32>,
    pub(super) loss: f64,
}

impl SliceGradient {
    /// Where input row `f`'s gradient starts in `w1`, made (zero) on first use.
    #[inline(always)]
    fn row(&mut self, f: usize, h: usize) -> usize {
        if self.slot[f] == u32::MAX {
            self.slot[f] = self.rows.len() as u32;
            self.rows.push(f as u32);
            self.w1.resize(self.w1.len() + h, 0.0);
        }
        self.slot[f] as usize * h
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{synthetic, SMALL};
    use super::*;

    /// A network read back as a float model quantises to itself: training can go on from a shipped net.
    #[test]
    fn a_network_is_a_starting_point() {
        let net = Model::new(SMALL, 9).quantise();
        let model = Model::from_network(&net).unwrap();
        assert_eq!(model.quantise_with(net.qb), net);
        // The output scale is as fine as the weights allow: the largest weight near ±127, never past it.
        let largest = net.output_weights.iter().map(|w| w.abs()).max().unwrap();
        assert!(net.qb > QB_MIN && (120..=MAX_OUTPUT_WEIGHT).contains(&largest), "QB {} largest {largest}", net.qb);
        // A network quantised with the fixed 64 of net0–net5 reads back too, and requantises finer.
        let fixed = Model::new(SMALL, 9).quantise_with(64);
        let model = Model::from_network(&fixed).unwrap();
        assert_eq!(model.quantise_with(64), fixed);
        assert!(model.output_scale() > 64, "{}", model.output_scale());
        // So does the built-in network, with its own scale.
        let builtin = crate::nnue::default_network();
        assert_eq!(Model::from_network(&builtin).unwrap().quantise_with(builtin.qb), *builtin);
        let mut other = net.clone();
        other.scale = 400;
        assert!(Model::from_network(&other).unwrap_err().contains("SCALE 400"));
    }

    /// The average of models is their mean weight by weight; one model is its own average; layouts must match.
    #[test]
    fn models_average_weight_by_weight() {
        let (a, b) = (Model::new(SMALL, 1), Model::new(SMALL, 2));
        assert_eq!(Model::average(std::slice::from_ref(&a)).unwrap(), a);
        let mean = Model::average(&[a.clone(), b.clone()]).unwrap();
        for (part, x, y) in [(&mean.w1, &a.w1, &b.w1), (&mean.b1, &a.b1, &b.b1), (&mean.w2, &a.w2, &b.w2)] {
            assert_eq!(part.len(), x.len());
            assert!(part.iter().zip(x).zip(y).all(|((m, x), y)| (m - (x + y) / 2.0).abs() < 1e-6));
        }
        assert_ne!(mean, a);
        let other = Model::new(Layout { hidden: SMALL.hidden + 16, ..SMALL }, 1);
        assert!(Model::average(&[a, other]).unwrap_err().contains("cannot average"));
        assert!(Model::average(&[]).is_err());
    }

    /// The gradient is the same, bit for bit, from every backend this CPU runs (the AVX2 build of the loops
    /// and the portable one).
    #[test]
    fn every_backend_gives_the_same_gradient() {
        let model = Model::new(SMALL, 5);
        let mut rows = Vec::new();
        model.input_rows(&mut rows);
        let data: Vec<Encoded> =
            synthetic(300).iter().map(|s| s.encode(SMALL.features, SMALL.output_buckets)).collect();
        let refs: Vec<&Encoded> = data.iter().collect();
        let reference = model.gradient(Backend::Scalar, &rows, &refs, 0.3);
        assert!(reference.loss > 0.0 && !reference.rows.is_empty());
        for backend in Backend::available() {
            let g = model.gradient(backend, &rows, &refs, 0.3);
            assert_eq!(
                (&g.rows, &g.w1, &g.rest, g.loss),
                (&reference.rows, &reference.w1, &reference.rest, reference.loss)
            );
        }
    }

    /// A plain network grown into a king-bucketed one with more hidden units and output buckets computes the same
    /// function on the boards its views do not reflect; it cannot shrink.
    #[test]
    fn a_small_network_grows_into_a_larger_layout() {
        let plain = Layout { features: FeatureSet::Plain, hidden: 16, output_buckets: 1 };
        let small = Model::new(plain, 4);
        let big = small.widen(Layout { features: FeatureSet::KingBuckets, hidden: 48, output_buckets: 4 }, 5).unwrap();
        let (mut small_rows, mut big_rows) = (Vec::new(), Vec::new());
        small.input_rows(&mut small_rows);
        big.input_rows(&mut big_rows);
        let mut compared = 0;
        for s in synthetic(400) {
            if s.views(FeatureSet::KingBuckets).iter().any(|v| v.mirror) {
                continue;
            }
            let (a, b) = (
                small.forward(&small_rows, &s.encode(FeatureSet::Plain, 1)),
                big.forward(&big_rows, &s.encode(FeatureSet::KingBuckets, 4)),
            );
            assert!((a - b).abs() < 1e-5, "{a} {b}");
            compared += 1;
        }
        assert!(compared > 50, "{compared}");
        assert!(big.widen(plain, 1).unwrap_err().contains("cannot grow"));
    }
}
