//! Match statistics: Elo with its 95% error from game results and from game pairs (pentanomial), the
//! likelihood of superiority, and the sequential probability ratio test (GSPRT, logistic Elo).

/// Elo difference for an expected score `s` (0 < s < 1).
pub fn elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

const Z95: f64 = 1.959964;

/// Mean and variance of a discrete distribution given as (count, value) pairs; also the number of samples.
fn moments(samples: &[(u64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = samples.iter().map(|&(c, _)| c as f64).sum();
    if n == 0.0 {
        return None;
    }
    let mean = samples.iter().map(|&(c, v)| c as f64 * v).sum::<f64>() / n;
    let var = samples.iter().map(|&(c, v)| c as f64 * (v - mean).powi(2)).sum::<f64>() / n;
    Some((n, mean, var))
}

/// Elo and its 95% half-interval from samples of scores in [0, 1]; `None` when undefined (no games, or a
/// score of exactly 0 or 1, or no variance).
fn elo_interval(samples: &[(u64, f64)]) -> Option<(f64, f64)> {
    let (n, mean, var) = moments(samples)?;
    if mean <= 0.0 || mean >= 1.0 {
        return None;
    }
    let se = (var / n).sqrt();
    let lo = (mean - Z95 * se).max(1e-9);
    let hi = (mean + Z95 * se).min(1.0 - 1e-9);
    Some((elo(mean), (elo(hi) - elo(lo)) / 2.0))
}

/// Results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Game pairs by points of the first engine: 0, ½, 1, 1½, 2.
    pub penta: [u64; 5],
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / self.games() as f64)
    }

    fn trinomial(&self) -> [(u64, f64); 3] {
        [(self.wins, 1.0), (self.draws, 0.5), (self.losses, 0.0)]
    }

    fn pentanomial(&self) -> [(u64, f64); 5] {
        let p = self.penta;
        [(p[0], 0.0), (p[1], 0.25), (p[2], 0.5), (p[3], 0.75), (p[4], 1.0)]
    }

    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Elo ± 95% error from the game results.
    pub fn elo(&self) -> Option<(f64, f64)> {
        elo_interval(&self.trinomial())
    }

    /// Elo ± 95% error from the game pairs.
    pub fn elo_pentanomial(&self) -> Option<(f64, f64)> {
        elo_interval(&self.pentanomial())
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger.
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (self.wins as f64, self.losses as f64);
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }

    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo, in the normal approximation of
    /// the generalized SPRT. Game pairs are used when there are any, game results otherwise.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let samples: Vec<(u64, f64)> =
            if self.pairs() > 0 { self.pentanomial().to_vec() } else { self.trinomial().to_vec() };
        let n: f64 = samples.iter().map(|&(c, _)| c as f64).sum();
        if n == 0.0 {
            return 0.0;
        }
        let (_, mut mean, mut var) = moments(&samples).unwrap_or((0.0, 0.5, 0.0));
        if var <= 1e-12 {
            // One-sided results (all wins, say) have no variance yet: give every empty category half a sample,
            // so that such a run decides only after enough games, not after the first.
            let weights: Vec<(f64, f64)> =
                samples.iter().map(|&(c, v)| (if c == 0 { 0.5 } else { c as f64 }, v)).collect();
            let total: f64 = weights.iter().map(|w| w.0).sum();
            mean = weights.iter().map(|&(w, v)| w * v).sum::<f64>() / total;
            var = weights.iter().map(|&(w, v)| w * (v - mean).powi(2)).sum::<f64>() / total;
        }
        let (s0, s1) = (expected(elo0), expected(elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// The error function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.3275911 * x.abs());
    let y = 1.0
        - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// An SPRT: hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Continue,
    /// H0 accepted: the change is not an improvement of elo1.
    H0,
    /// H1 accepted.
    H1,
}

impl Sprt {
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    pub fn decide(&self, t: &Tally) -> (f64, Decision) {
        let llr = t.llr(self.elo0, self.elo1);
        let (lo, hi) = self.bounds();
        let d = if llr >= hi {
            Decision::H1
        } else if llr <= lo {
            Decision::H0
        } else {
            Decision::Continue
        };
        (llr, d)
    }

    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, defaults for missing keys).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        for kv in text.split_whitespace() {
            let (k, v) = kv.split_once('=').ok_or_else(|| format!("--sprt: '{kv}' is not key=value"))?;
            let x: f64 = v.parse().map_err(|_| format!("--sprt: '{v}' is not a number"))?;
            match k {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                _ => return Err(format!("--sprt: unknown key '{k}' (elo0, elo1, alpha, beta)")),
            }
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err("--sprt: alpha and beta must be between 0 and 0.5".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".into());
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    // Reference values computed independently (Python, same formulas).
    #[test]
    fn elo_and_error() {
        assert!(close(elo(0.55), 34.860070, 1e-5));
        assert!(close(expected(elo(0.3)), 0.3, 1e-12));
        let t = Tally { wins: 35, draws: 34, losses: 31, penta: [0; 5] };
        let (e, err) = t.elo().unwrap();
        assert!(close(e, 13.904843, 1e-5), "{e}");
        assert!(close(err, 55.820706, 1e-4), "{err}");
        assert!(close(t.los().unwrap(), 0.688770, 1e-5));
        assert!(close(t.llr(0.0, 5.0), 0.071699, 1e-5));
    }

    #[test]
    fn pentanomial() {
        let t = Tally { wins: 0, draws: 0, losses: 0, penta: [3, 12, 20, 11, 4] };
        let (e, err) = t.elo_pentanomial().unwrap();
        assert!(close(e, 3.474472, 1e-5), "{e}");
        assert!(close(err, 48.947057, 1e-4), "{err}");
        assert!(close(t.llr(0.0, 5.0), 0.007917, 1e-5));
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05").unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944439, 1e-5) && close(hi, 2.944439, 1e-5));
        let strong = Tally { wins: 0, draws: 0, losses: 0, penta: [10, 40, 200, 300, 150] };
        assert_eq!(s.decide(&strong).1, Decision::H1);
        let weak = Tally { wins: 0, draws: 0, losses: 0, penta: [150, 300, 200, 40, 10] };
        assert_eq!(s.decide(&weak).1, Decision::H0);
        assert_eq!(s.decide(&Tally::default()).1, Decision::Continue);
        assert!(Sprt::parse("elo0=5 elo1=0").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
    }

    #[test]
    fn degenerate_cases() {
        let all_wins = Tally { wins: 10, draws: 0, losses: 0, penta: [0; 5] };
        assert!(all_wins.llr(0.0, 5.0) > 0.0);
        assert_eq!(all_wins.elo(), None);
        assert!(all_wins.los().unwrap() > 0.999);
        // One win says little; sixty in a row decide.
        let one = Tally { wins: 1, draws: 0, losses: 0, penta: [0; 5] };
        assert!(one.llr(0.0, 5.0) < 0.2, "{}", one.llr(0.0, 5.0));
        let many = Tally { wins: 60, draws: 0, losses: 0, penta: [0; 5] };
        assert!(many.llr(0.0, 5.0) > 2.95, "{}", many.llr(0.0, 5.0));
        assert_eq!(Tally::default().llr(0.0, 5.0), 0.0);
        assert_eq!(Tally::default().score(), None);
        assert!(close(erf(0.5), 0.520500, 1e-6));
    }
}
