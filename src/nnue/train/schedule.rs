//! The learning rate over a run.
//!
//! Two shapes: the step (the default, the recipe of net0–net5 and the first king-bucketed candidates) keeps
//! `lr` and drops it tenfold for the epochs from 70 % of the run on (epoch index i with 10·i ≥ 7·epochs: the
//! last of 4, the last 3 of 10, none in runs of 1 to 3 epochs); the cosine (`lr_end` given) falls smoothly
//! from `lr` at the first position to `lr_end` at the last, position by position across the epochs, so that a
//! one-epoch fine-tune on new data ends annealed, as bullet's and Stockfish's trainers end theirs.

/// How the learning rate moves through a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub lr: f32,
    /// The learning rate at the run's end (cosine); `None`: the step.
    pub lr_end: Option<f32>,
    pub epochs: usize,
}

impl Schedule {
    /// The learning rate for a batch of epoch `epoch` (from 0) that starts `done` positions into the epoch's
    /// `len`.
    pub fn at(&self, epoch: usize, done: usize, len: usize) -> f32 {
        match self.lr_end {
            None if epoch * 10 >= self.epochs * 7 => self.lr * 0.1,
            None => self.lr,
            Some(end) => {
                let total = (self.epochs * len).max(1) as f64;
                let progress = ((epoch * len + done) as f64 / total).min(1.0);
                let cos = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
                (end as f64 + (self.lr - end) as f64 * cos) as f32
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_drops_tenfold_for_the_last_epochs() {
        let s = Schedule { lr: 1e-3, lr_end: None, epochs: 10 };
        let lrs: Vec<f32> = (0..10).map(|e| s.at(e, 500, 1000)).collect();
        assert_eq!(lrs[..7], [1e-3; 7]);
        assert_eq!(lrs[7..], [1e-3 * 0.1; 3]);
        let one = Schedule { lr: 2e-4, lr_end: None, epochs: 1 };
        assert_eq!((one.at(0, 0, 1000), one.at(0, 999, 1000)), (2e-4, 2e-4));
    }

    #[test]
    fn the_cosine_falls_from_lr_to_lr_end_across_epochs() {
        let s = Schedule { lr: 4e-4, lr_end: Some(4e-5), epochs: 2 };
        assert!((s.at(0, 0, 1000) - 4e-4).abs() < 1e-9);
        // Halfway through the run (the second epoch's start): the mean of the two.
        assert!((s.at(1, 0, 1000) - 2.2e-4).abs() < 1e-9);
        assert!((s.at(1, 1000, 1000) - 4e-5).abs() < 1e-9);
        let mut last = f32::INFINITY;
        for epoch in 0..2 {
            for done in (0..1000).step_by(100) {
                let lr = s.at(epoch, done, 1000);
                assert!(lr < last && lr > 4e-5, "{epoch} {done}: {lr}");
                last = lr;
            }
        }
    }
}
