//! Playing below full strength: the skill levels, what each searches and how it errs, and the Elo measured for
//! it.
//!
//! A level is a number from 0 to 20 (`Skill Level`; 20 is full strength); `UCI_Elo` picks the level, fractions
//! included, whose measured Elo is the one asked for. Below 20 the engine is weaker the way a weaker player is,
//! never by random blunders. Each level has a power ([`LEVEL_POWER`]) that sets two things:
//! - how much it sees: the search stops after [`Strength::nodes`] nodes (64 at power 0, doubling every 5/3 of
//!   power, about 170 000 at 19), so it misses what lies deeper, as a person does. A node count, unlike a time,
//!   gives the same play at every time control and on every machine; the clock still stops it when shorter.
//! - how it errs: it scores a few candidate moves (MultiPV, [`Strength::candidates`]) and plays one with
//!   probability `e^(−loss / T)`, `loss` being how much worse the candidate's score is than the best's and `T`
//!   ([`Strength::temperature`]) 300 units at power 0 falling with the square of the distance to 20 (75 at
//!   power 10, 19 at 15, 0.75 at 19). Candidates losing more than [`Strength::max_loss`] are never played, nor
//!   a move the search sees losing (mate or the repetition rules) while the best does not.
//!
//! The powers of the levels were chosen from a first round of matches so that the levels lie about evenly
//! apart in Elo; the Elo of each level is then measured, not derived from a formula: [`CALIBRATION`] holds the
//! matches' results (docs/strength.md; `scripts/calibrate-strength.py` re-runs them).

/// The full-strength level.
pub const FULL_LEVEL: u32 = 20;

/// One measured point of the scale: a level and its Elo, with the 95 % error and the games behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub level: f64,
    pub elo: i32,
    pub error: i32,
    pub games: u32,
}

/// Levels and their Elo, fitted by `scripts/calibrate-strength.py` to 3 940 games (docs/strength.md has the
/// matches): levels against levels two apart and against neighbours, ElephantEye against levels 14 and 16, all
/// with the build of 2026-12-07 (bench 3807730, net9 built in; a later network or search plays each level somewhat
/// differently until the levels are measured again). The scale's zero is fixed by its anchor: ElephantEye 3.3
/// with its book off, at 100 ms a move, is 2000. `error` is the 95 % interval against the anchor (it grows along
/// the chain of matches away from it). Level 17 was not measured: between 16 and 18 it is read off the line. Elo
/// must rise with the level (a test checks it; the script pools neighbours that noise puts out of order).
pub const CALIBRATION: &[Point] = &[
    Point { level: 0.0, elo: 246, error: 132, games: 400 },
    Point { level: 1.0, elo: 295, error: 131, games: 400 },
    Point { level: 2.0, elo: 469, error: 131, games: 400 },
    Point { level: 3.0, elo: 578, error: 125, games: 400 },
    Point { level: 4.0, elo: 703, error: 124, games: 400 },
    Point { level: 5.0, elo: 812, error: 114, games: 600 },
    Point { level: 6.0, elo: 933, error: 114, games: 600 },
    Point { level: 7.0, elo: 1128, error: 107, games: 400 },
    Point { level: 8.0, elo: 1226, error: 108, games: 400 },
    Point { level: 9.0, elo: 1407, error: 92, games: 600 },
    Point { level: 10.0, elo: 1551, error: 90, games: 600 },
    Point { level: 11.0, elo: 1616, error: 91, games: 360 },
    Point { level: 12.0, elo: 1761, error: 83, games: 360 },
    Point { level: 13.0, elo: 1888, error: 77, games: 360 },
    Point { level: 14.0, elo: 2020, error: 57, games: 480 },
    Point { level: 15.0, elo: 2114, error: 80, games: 200 },
    Point { level: 16.0, elo: 2224, error: 62, games: 420 },
    Point { level: 18.0, elo: 2564, error: 120, games: 200 },
    Point { level: 19.0, elo: 2682, error: 140, games: 100 },
];

/// The power of each level below 20 (a fractional level interpolates). A first round of matches between powers
/// (docs/strength.md) measured power 0 → 3 → 6 → 9 → 12 → 14 → 16 as steps of about 170, 60, 215, 480, 490
/// and 400 Elo; these powers put the levels about 120 Elo apart on that curve.
pub const LEVEL_POWER: [f64; FULL_LEVEL as usize] =
    [0.0, 2.1, 6.1, 7.8, 9.2, 10.0, 10.7, 11.5, 12.2, 12.6, 13.1, 13.6, 14.1, 14.7, 15.3, 15.9, 16.7, 17.5, 18.3, 19.0];

/// A playing strength: a level from 0 to 20, fractions allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    level: f64,
}

impl Default for Strength {
    fn default() -> Self {
        Strength::full()
    }
}

impl Strength {
    pub fn full() -> Strength {
        Strength { level: FULL_LEVEL as f64 }
    }

    /// A `Skill Level` (above 20 is full strength).
    pub fn level(level: u32) -> Strength {
        Strength { level: level.min(FULL_LEVEL) as f64 }
    }

    /// The level whose measured Elo is `elo` (clamped to the measured range), between measured points by
    /// straight lines.
    pub fn from_elo(elo: i32) -> Strength {
        let points: Vec<(f64, f64)> = CALIBRATION.iter().map(|p| (p.elo as f64, p.level)).collect();
        Strength { level: on_the_line(elo as f64, &points) }
    }

    pub fn is_full(self) -> bool {
        self.level >= FULL_LEVEL as f64
    }

    pub fn value(self) -> f64 {
        self.level
    }

    /// The Elo of this level on the measured scale (between measured points by straight lines; below the
    /// lowest or above the highest point, that point's); `None` at full strength, whose Elo depends on the time
    /// it is given.
    pub fn elo(self) -> Option<i32> {
        let points: Vec<(f64, f64)> = CALIBRATION.iter().map(|p| (p.level, p.elo as f64)).collect();
        (!self.is_full()).then(|| on_the_line(self.level, &points).round() as i32)
    }

    /// The level's power (20 at full strength).
    pub fn power(self) -> f64 {
        if self.is_full() {
            return FULL_LEVEL as f64;
        }
        let i = (self.level.floor() as usize).min(LEVEL_POWER.len() - 1);
        let next = LEVEL_POWER.get(i + 1).copied().unwrap_or(FULL_LEVEL as f64);
        LEVEL_POWER[i] + (self.level - i as f64) * (next - LEVEL_POWER[i])
    }

    /// The most nodes a search may visit (`None` at full strength).
    pub fn nodes(self) -> Option<u64> {
        (!self.is_full()).then(|| (64.0 * 2f64.powf(0.6 * self.power())).round() as u64)
    }

    /// How readily a worse candidate is played: its chance is `e^(−loss / T)` relative to the best's.
    pub fn temperature(self) -> f64 {
        300.0 * (1.0 - self.power() / FULL_LEVEL as f64).max(0.0).powi(2)
    }

    /// How many candidate moves are scored: 8 at power 0, one fewer every 5 of power, 4 from 17.5 up.
    pub fn candidates(self) -> usize {
        4 + ((FULL_LEVEL as f64 - self.power()).max(0.0) / 5.0).round() as usize
    }

    /// The largest score loss a played candidate may have.
    pub fn max_loss(self) -> i32 {
        (3.0 * self.temperature()).round() as i32
    }

    /// Picks among candidates given by their score loss against the best (the best first, loss 0); `random` is
    /// a uniformly random number. Returns the candidate's index.
    pub fn choose(self, losses: &[i32], random: u64) -> usize {
        let t = self.temperature();
        if t < 0.5 || losses.len() < 2 {
            return 0;
        }
        let limit = self.max_loss();
        let weights: Vec<f64> =
            losses.iter().map(|&l| if l <= limit { (-(l.max(0) as f64) / t).exp() } else { 0.0 }).collect();
        let total: f64 = weights.iter().sum();
        // 53 random bits as a fraction in [0, 1).
        let mut r = (random >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if r < *w {
                return i;
            }
            r -= w;
        }
        0
    }
}

/// `y` at `x` on the broken line through `points` (rising in `x`), held level past either end.
fn on_the_line(x: f64, points: &[(f64, f64)]) -> f64 {
    let (first, last) = (points[0], points[points.len() - 1]);
    if x <= first.0 {
        return first.1;
    }
    points
        .windows(2)
        .find(|w| x <= w[1].0)
        .map(|w| w[0].1 + (x - w[0].0) / (w[1].0 - w[0].0) * (w[1].1 - w[0].1))
        .unwrap_or(last.1)
}

/// The lowest and highest Elo `UCI_Elo` accepts: the measured range.
pub fn elo_range() -> (i32, i32) {
    (CALIBRATION[0].elo, CALIBRATION[CALIBRATION.len() - 1].elo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_monotone_and_round_trips() {
        for w in CALIBRATION.windows(2) {
            assert!(w[0].level < w[1].level && w[0].elo < w[1].elo, "{w:?}");
        }
        for p in CALIBRATION {
            let s = Strength::from_elo(p.elo);
            assert!((s.value() - p.level).abs() < 1e-9, "{p:?} -> {s:?}");
            assert_eq!(s.elo(), Some(p.elo));
        }
        let (lo, hi) = elo_range();
        assert_eq!(Strength::from_elo(lo - 500).value(), CALIBRATION[0].level);
        assert_eq!(Strength::from_elo(hi + 500).value(), CALIBRATION[CALIBRATION.len() - 1].level);
        let mid = (CALIBRATION[0].elo + CALIBRATION[1].elo) / 2;
        let s = Strength::from_elo(mid);
        assert!(s.value() > CALIBRATION[0].level && s.value() < CALIBRATION[1].level);
        assert!((s.elo().unwrap() - mid).abs() <= 1);
    }

    #[test]
    fn levels_search_more_and_err_less_as_they_rise() {
        assert_eq!(Strength::level(0).nodes(), Some(64));
        assert_eq!(Strength::level(5).power(), 10.0);
        assert_eq!(Strength::level(5).nodes(), Some(4096));
        assert_eq!(Strength::level(20).nodes(), None);
        assert_eq!(Strength::level(99), Strength::full());
        assert_eq!((Strength::level(0).temperature(), Strength::level(0).max_loss()), (300.0, 900));
        assert_eq!((Strength::level(5).temperature(), Strength::level(5).candidates()), (75.0, 6));
        assert_eq!(Strength::level(19).candidates(), 4);
        assert_eq!(Strength::full().temperature(), 0.0);
        let half = Strength::from_elo((Strength::level(3).elo().unwrap() + Strength::level(4).elo().unwrap()) / 2);
        assert!(half.power() > LEVEL_POWER[3] && half.power() < LEVEL_POWER[4], "{half:?}");
        for l in 0..FULL_LEVEL {
            let (a, b) = (Strength::level(l), Strength::level(l + 1));
            assert!(b.nodes().unwrap_or(u64::MAX) > a.nodes().unwrap());
            assert!(b.temperature() < a.temperature());
        }
    }

    #[test]
    fn mistakes_follow_the_score_loss() {
        let s = Strength::level(0); // T = 300, max loss 900
        let losses = [0, 300, 600, 901];
        let mut counts = [0u32; 4];
        let n = 30_000u64;
        for i in 0..n {
            // An even spread of random numbers over the whole range.
            counts[s.choose(&losses, i.wrapping_mul(u64::MAX / n))] += 1;
        }
        // Weights 1, 1/e, 1/e²: 0.665, 0.245, 0.090; the fourth is past the largest loss.
        let share = |c: u32| c as f64 / n as f64;
        assert!((share(counts[0]) - 0.665).abs() < 0.01, "{counts:?}");
        assert!((share(counts[1]) - 0.245).abs() < 0.01, "{counts:?}");
        assert!((share(counts[2]) - 0.090).abs() < 0.01, "{counts:?}");
        assert_eq!(counts[3], 0);
        // Full strength and a lone candidate always give the best.
        assert_eq!(Strength::full().choose(&[0, 1], u64::MAX), 0);
        assert_eq!(s.choose(&[0], u64::MAX), 0);
    }
}
