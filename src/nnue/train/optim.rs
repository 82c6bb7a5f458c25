//! The optimiser: AdamW with each parameter group clamped to what quantisation can hold.

use super::model::{Model, W2_LIMIT};

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
