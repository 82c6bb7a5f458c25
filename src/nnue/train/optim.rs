//! The optimiser: AdamW with each parameter group clamped to what quantisation can hold.

use super::model::{Model, W2_LIMIT};
use rayon::prelude::*;

/// AdamW's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    pub(super) m: Vec<f32>,
    pub(super) v: Vec<f32>,
    pub(super) t: i32,
}

impl Adam {
    pub fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    pub(super) fn step(&mut self, model: &mut Model, grad: &[f32], lr: f32) {
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        let (n1, h, n2) = (model.w1.len(), model.layout.hidden, model.w2.len());
        let (m, v) = (&mut self.m[..], &mut self.v[..]);
        let (m1, m) = m.split_at_mut(n1);
        let (v1, v) = v.split_at_mut(n1);
        // The input weights, most of the parameters, in parallel: every element is updated on its own, so the
        // result does not depend on the threads.
        model
            .w1
            .par_chunks_mut(CHUNK)
            .zip(m1.par_chunks_mut(CHUNK))
            .zip(v1.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(k, ((w, m), v))| update(w, m, v, &grad[k * CHUNK..k * CHUNK + w.len()], lr, c1, c2, 127.0));
        let (mb1, m) = m.split_at_mut(h);
        let (vb1, v) = v.split_at_mut(h);
        update(&mut model.b1, mb1, vb1, &grad[n1..n1 + h], lr, c1, c2, 127.0);
        let (mw2, mb2) = m.split_at_mut(n2);
        let (vw2, vb2) = v.split_at_mut(n2);
        update(&mut model.w2, mw2, vw2, &grad[n1 + h..n1 + h + n2], lr, c1, c2, W2_LIMIT);
        update(&mut model.b2, mb2, vb2, &grad[n1 + h + n2..], lr, c1, c2, 1000.0);
    }
}

const B1: f32 = 0.9;
const B2: f32 = 0.999;
const WD: f32 = 0.01;
/// Parameters per parallel piece of work.
const CHUNK: usize = 1 << 16;

/// AdamW on one group of parameters, each clamped to ±`limit`.
#[allow(clippy::too_many_arguments)]
fn update(w: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32], lr: f32, c1: f32, c2: f32, limit: f32) {
    for (((w, m), v), &g) in w.iter_mut().zip(m).zip(v).zip(g) {
        *m = B1 * *m + (1.0 - B1) * g;
        *v = B2 * *v + (1.0 - B2) * g * g;
        *w -= lr * (*m / c1 / ((*v / c2).sqrt() + 1e-8) + WD * *w);
        *w = w.clamp(-limit, limit);
    }
}
