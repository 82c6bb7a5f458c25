//! `chuhan wdl`: fits the win/draw/loss model ([`crate::wdl`]) to self-play games, for one evaluation.
//!
//! Each position of the games (past the opening plies, not in check, not a mate score) gives a sample: the
//! search's score, the material, and how the game ended for the side to move. The eight coefficients are fitted
//! by maximum likelihood (Adam on the mean log-loss of the three outcomes), from a start of a = 350, b = 150.

use super::args::in_range;
use super::xqg;
use crate::search::MATE_BOUND;
use crate::wdl::{material, Model, MATERIAL_START};
use rayon::prelude::*;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan wdl --data data/gen0-s1.xqg data/gen0-s2.xqg          (games of the handcrafted evaluation)
  scripts/fit-wdl.sh hce                                        (make the games, then fit)

Paste the printed model into src/wdl.rs (HCE or NNUE, for the evaluation that played the games).")]
pub struct WdlArgs {
    /// Game files from `chuhan datagen`, all played with the evaluation to fit
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub data: Vec<String>,
    /// Use at most this many positions (spread evenly over the games)
    #[arg(long, default_value_t = 300_000, value_parser = in_range(1000usize..=100_000_000))]
    pub positions: usize,
    /// Positions before this ply are left out (the random opening moves)
    #[arg(long, default_value_t = 8, value_parser = in_range(0usize..=200))]
    pub min_ply: usize,
    /// Adam steps
    #[arg(long, default_value_t = 3000, value_parser = in_range(1usize..=1_000_000))]
    pub iterations: usize,
    /// Threads
    #[arg(long, default_value_t = 2, value_parser = in_range(1usize..=256))]
    pub threads: usize,
}

/// One position: the score and material, and the outcome for the side to move (2 won, 1 drawn, 0 lost).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub score: f64,
    pub m: f64,
    pub outcome: u8,
}

/// The powers of m that multiply the cubic's coefficients, highest first.
fn powers(m: f64) -> [f64; 4] {
    [m * m * m, m * m, m, 1.0]
}

/// Mean log-loss of `model` on `samples` and its gradient (a's four coefficients, then b's).
pub fn loss_and_gradient(model: &Model, samples: &[Sample]) -> (f64, [f64; 8]) {
    let (loss, grad) = samples
        .par_chunks(4096)
        .map(|chunk| {
            let mut loss = 0.0;
            let mut g = [0.0; 8];
            for s in chunk {
                let x = powers(s.m);
                let a: f64 = model.a.iter().zip(&x).map(|(c, x)| c * x).sum();
                let b: f64 = model.b.iter().zip(&x).map(|(c, x)| c * x).sum::<f64>().max(1.0);
                let (zw, zl) = ((s.score - a) / b, (-s.score - a) / b);
                let (pw, pl) = (1.0 / (1.0 + (-zw).exp()), 1.0 / (1.0 + (-zl).exp()));
                // d(−ln p)/da and d(−ln p)/db for the outcome that happened.
                let (da, db, p) = match s.outcome {
                    2 => ((1.0 - pw) / b, (1.0 - pw) * zw / b, pw),
                    0 => ((1.0 - pl) / b, (1.0 - pl) * zl / b, pl),
                    _ => {
                        let pd = (1.0 - pw - pl).max(1e-9);
                        let (sw, sl) = (pw * (1.0 - pw), pl * (1.0 - pl));
                        (-(sw + sl) / b / pd, -(sw * zw + sl * zl) / b / pd, pd)
                    }
                };
                loss -= p.max(1e-12).ln();
                for k in 0..4 {
                    g[k] += da * x[k];
                    g[4 + k] += db * x[k];
                }
            }
            (loss, g)
        })
        .reduce(
            || (0.0, [0.0; 8]),
            |(l1, g1), (l2, g2)| {
                let mut g = g1;
                for k in 0..8 {
                    g[k] += g2[k];
                }
                (l1 + l2, g)
            },
        );
    let n = samples.len().max(1) as f64;
    (loss / n, grad.map(|g| g / n))
}

/// Fits the model by Adam from the usual start.
pub fn fit(samples: &[Sample], iterations: usize, mut report: impl FnMut(usize, f64)) -> Model {
    let mut model = Model { a: [0.0, 0.0, 0.0, 350.0], b: [0.0, 0.0, 0.0, 150.0] };
    let (mut m, mut v) = ([0.0f64; 8], [0.0f64; 8]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    for t in 1..=iterations {
        let (loss, g) = loss_and_gradient(&model, samples);
        // Steps in evaluation units: large at first, fine at the end.
        let lr = if t * 10 < iterations * 7 { 2.0 } else { 0.2 };
        for k in 0..8 {
            m[k] = b1 * m[k] + (1.0 - b1) * g[k];
            v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k];
            let step = lr * (m[k] / (1.0 - b1.powi(t as i32))) / ((v[k] / (1.0 - b2.powi(t as i32))).sqrt() + eps);
            if k < 4 {
                model.a[k] -= step;
            } else {
                model.b[k - 4] -= step;
            }
        }
        if t == 1 || t % 500 == 0 || t == iterations {
            report(t, loss);
        }
    }
    model
}

/// `chuhan wdl`
pub fn run(args: WdlArgs) -> Result<(), String> {
    let mut all = Vec::new();
    let mut games = 0;
    for path in args.data.iter().flat_map(|d| d.split_whitespace()) {
        for g in xqg::read(path)? {
            games += 1;
            let red = g.result;
            let mut ply = 0;
            g.replay(|pos, _, score| {
                let score = score as i32;
                if ply >= args.min_ply && !pos.in_check() && score.abs() < MATE_BOUND.min(i16::MAX as i32) {
                    let red_to_move = pos.side_to_move() == crate::types::Color::Red;
                    let outcome = if red_to_move { red } else { 2 - red };
                    let m = material(pos).clamp(4, MATERIAL_START) as f64 / MATERIAL_START as f64;
                    all.push(Sample { score: score as f64, m, outcome });
                }
                ply += 1;
            })?;
        }
    }
    if all.len() < 1000 {
        return Err(format!("wdl: only {} usable positions", all.len()));
    }
    let step = all.len().div_ceil(args.positions);
    let samples: Vec<Sample> = all.iter().step_by(step).copied().collect();
    let count = |o: u8| samples.iter().filter(|s| s.outcome == o).count() as f64 / samples.len() as f64;
    eprintln!(
        "wdl: {games} games, {} positions, {} used; outcomes for the side to move: won {:.1} %, drawn {:.1} %, \
         lost {:.1} %",
        all.len(),
        samples.len(),
        count(2) * 100.0,
        count(1) * 100.0,
        count(0) * 100.0
    );
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build().map_err(|e| e.to_string())?;
    let model = pool.install(|| fit(&samples, args.iterations, |t, loss| eprintln!("step {t:>6}: log-loss {loss:.5}")));
    // What knowing nothing but the outcome frequencies would score, for comparison.
    let base: f64 = -[count(0), count(1), count(2)].iter().map(|&p| p * p.max(1e-12).ln()).sum::<f64>();
    let (loss, _) = pool.install(|| loss_and_gradient(&model, &samples));
    println!("log-loss {loss:.5} (outcome frequencies alone: {base:.5})");
    println!("score → win/draw/loss (permille) at material 66 (start), 40, 20:");
    for v in [-800, -400, -200, -100, 0, 100, 200, 400, 800] {
        let row: Vec<String> = [66, 40, 20]
            .iter()
            .map(|&mat| {
                let w = model.wdl(v, mat);
                format!("{:>4}/{:>4}/{:>4}", w.win, w.draw, w.loss)
            })
            .collect();
        println!("{v:>6}  {}", row.join("   "));
    }
    // Observed against predicted by score band (all material), a check of the fit.
    println!("observed vs predicted expected score by score band:");
    for lo in (-900..900).step_by(150) {
        let band: Vec<&Sample> =
            samples.iter().filter(|s| s.score >= lo as f64 && s.score < (lo + 150) as f64).collect();
        if band.len() < 50 {
            continue;
        }
        let observed = band.iter().map(|s| s.outcome as f64 / 2.0).sum::<f64>() / band.len() as f64;
        let predicted = band
            .iter()
            .map(|s| model.wdl(s.score as i32, (s.m * MATERIAL_START as f64).round() as i32).expected())
            .sum::<f64>()
            / band.len() as f64;
        println!(
            "  [{lo:>5}, {:>5}): {:>7} positions, observed {observed:.3}, predicted {predicted:.3}",
            lo + 150,
            band.len()
        );
    }
    let fmt = |c: &[f64; 4]| c.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join(", ");
    println!("Model {{ a: [{}], b: [{}] }}", fmt(&model.a), fmt(&model.b));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from a known model are fitted back close to it.
    #[test]
    fn recovers_a_known_model() {
        let truth = Model { a: [0.0, 0.0, -100.0, 400.0], b: [0.0, 0.0, 0.0, 120.0] };
        let mut rng = crate::rng::Rng::new(5);
        let mut samples = Vec::new();
        for _ in 0..40_000 {
            let score = (rng.uniform() as f64 * 1600.0 - 800.0).round();
            let mat = 10 + (rng.next_u64() % 57) as i32;
            let w = truth.wdl(score as i32, mat);
            let r = rng.uniform() as f64 * 1000.0;
            let outcome = if r < w.win as f64 {
                2
            } else if r < (w.win + w.draw) as f64 {
                1
            } else {
                0
            };
            samples.push(Sample { score, m: mat as f64 / MATERIAL_START as f64, outcome });
        }
        let model = fit(&samples, 1500, |_, _| {});
        for (score, mat) in [(0, 20), (200, 40), (-300, 60), (500, 30)] {
            let (a, b) = (model.wdl(score, mat), truth.wdl(score, mat));
            assert!((a.expected() - b.expected()).abs() < 0.03, "{score} {mat}: {a:?} vs {b:?}");
            assert!((a.draw as i32 - b.draw as i32).abs() < 50, "{score} {mat}: {a:?} vs {b:?}");
        }
    }
}
