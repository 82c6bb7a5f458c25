//! `chuhan tune`: texel tuning of the evaluation weights on labelled positions (from `chuhan datagen`).
//!
//! The evaluation is linear in its weights once a position's features are traced (see `eval::hce::trace`), so
//! the tuner reads every position once, keeps its sparse features, and minimises the mean squared error
//! between `sigmoid(K · eval)` and the game results by full-batch gradient descent (Adam). K is fitted first
//! with the current weights. A tenth of the positions (in blocks of whole games) is held out to show
//! over-fitting. The result is written as a new `weights.rs`.
//!
//! With `--lambda L` the target is `(1 − L) · result + L · sigmoid(K · score)`, where `score` is the search's
//! score that `datagen` wrote with the position: a game's result is one noisy bit shared by a hundred
//! positions, the search's score is a judgement of this one. The error shown (and held out) is always
//! against the results, so that runs with different `L` compare; where the data has scores, the held-out
//! error against them is shown as well (at the same K, `--k`, it compares across starting weights).

use super::args::in_range;
use crate::board::Position;
use crate::eval::hce::layout::{s, Score, GROUPS, MATERIAL, NUM_WEIGHTS, PHASE_MAX};
use crate::eval::hce::trace;
use crate::eval::hce::weights::WEIGHTS;
use rayon::prelude::*;
use std::fmt::Write;

struct Sample {
    features: Vec<(u16, i16)>,
    /// Phase weights of the middlegame and endgame parts, times the endgame scale.
    mg: f64,
    eg: f64,
    result: f64,
    /// Red's search score, when the data has one.
    score: Option<f64>,
    /// What the gradient pulls towards (the result blended with the score).
    target: f64,
}

/// Reads `<FEN> | <result>` and `<FEN> | <result> | <score>` lines.
fn load(text: &str) -> (Vec<Sample>, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let parsed: Vec<Option<Sample>> = lines
        .par_iter()
        .map(|line| {
            let mut fields = line.split('|');
            let fen = fields.next()?;
            let result: f64 = fields.next()?.trim().parse().ok()?;
            let score = match fields.next() {
                Some(v) => Some(v.trim().parse::<f64>().ok()?),
                None => None,
            };
            let pos = Position::from_fen(fen.trim()).ok()?;
            let t = trace(&pos)?;
            let ph = t.phase as f64 / PHASE_MAX as f64;
            let (mg, eg) = (ph * t.scale, (1.0 - ph) * t.scale);
            Some(Sample { features: t.features, mg, eg, result, score, target: result })
        })
        .collect();
    let skipped = parsed.iter().filter(|s| s.is_none()).count();
    (parsed.into_iter().flatten().collect(), skipped)
}

fn eval(s: &Sample, w: &[f64]) -> f64 {
    let mut mg = 0.0;
    let mut eg = 0.0;
    for &(i, n) in &s.features {
        mg += w[2 * i as usize] * n as f64;
        eg += w[2 * i as usize + 1] * n as f64;
    }
    mg * s.mg + eg * s.eg
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples.par_iter().map(|s| (sigmoid(k * eval(s, w)) - s.result).powi(2)).sum();
    sum / samples.len().max(1) as f64
}

/// The error against the search's scores, over the samples that have one (a finer measure than the
/// results: each position is judged on its own); `None` when none has.
fn score_error(samples: &[Sample], w: &[f64], k: f64) -> Option<f64> {
    let (sum, n) = samples
        .par_iter()
        .filter_map(|s| s.score.map(|v| ((sigmoid(k * eval(s, w)) - sigmoid(k * v)).powi(2), 1usize)))
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (n > 0).then(|| sum / n as f64)
}

/// How the weights do on the held-out positions: against the results and, where the data has them, the
/// search's scores.
fn held_report(held: &[Sample], w: &[f64], k: f64) -> String {
    match score_error(held, w, k) {
        Some(e) => format!("held out {:.6}, against the scores {e:.6}", error(held, w, k)),
        None => format!("held out {:.6}", error(held, w, k)),
    }
}

/// The K that best fits the current weights (golden-section search).
fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut a, mut b) = (0.0001f64, 0.02f64);
    let phi = 0.618_033_988_75;
    for _ in 0..40 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if error(samples, w, c) < error(samples, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

fn gradient(samples: &[Sample], w: &[f64], k: f64) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    samples
        .par_chunks(4096)
        .map(|chunk| {
            let mut g = vec![0.0; w.len()];
            for s in chunk {
                let p = sigmoid(k * eval(s, w));
                let d = 2.0 * (p - s.target) * p * (1.0 - p) * k;
                for &(i, c) in &s.features {
                    g[2 * i as usize] += d * c as f64 * s.mg;
                    g[2 * i as usize + 1] += d * c as f64 * s.eg;
                }
            }
            g
        })
        .reduce(
            || vec![0.0; w.len()],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
        .into_iter()
        .map(|x| x / n)
        .collect()
}

/// The weights as the source of `weights.rs`.
pub fn render(w: &[Score], note: &str) -> String {
    let mut out = String::new();
    out.push_str("//! The evaluation's weights, in the layout of `layout.rs`. Written by `chuhan tune`");
    out.push_str(&format!("{note}.\n\nuse super::layout::{{s, Score, NUM_WEIGHTS}};\n\n"));
    out.push_str("#[rustfmt::skip]\npub static WEIGHTS: [Score; NUM_WEIGHTS] = [\n");
    for &(name, start, len) in GROUPS {
        let _ = writeln!(out, "    // {name}");
        let mut line = String::from("   ");
        for v in &w[start..start + len] {
            let item = format!(" s({}, {}),", v.mg, v.eg);
            if line.len() + item.len() > 116 {
                out.push_str(&line);
                out.push('\n');
                line = String::from("   ");
            }
            line.push_str(&item);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("];\n");
    out
}

/// Takes a fixed tenth of the samples out, spread through the file in blocks of consecutive lines, and
/// returns it. Blocks, not every tenth line: a game's positions are written together and share its result,
/// so a held-out position whose game-mates were trained on would flatter the fit.
fn hold_out<T>(samples: &mut Vec<T>) -> Vec<T> {
    let block = (samples.len() / 200).clamp(1, 5000);
    let mut keep = Vec::with_capacity(samples.len());
    let mut held = Vec::new();
    for (i, s) in samples.drain(..).enumerate() {
        if (i / block) % 10 == 9 {
            held.push(s);
        } else {
            keep.push(s);
        }
    }
    *samples = keep;
    held
}

/// Sets each sample's target: the result, blended with the search's score where there is one.
fn set_targets(samples: &mut [Sample], lambda: f64, k: f64) {
    for s in samples {
        s.target = match s.score {
            Some(v) => (1.0 - lambda) * s.result + lambda * sigmoid(k * v),
            None => s.result,
        };
    }
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Example:
  chuhan datagen --text --eval hce --games 20000 --nodes 6000 --out data/tune.txt
  chuhan tune --data data/tune.txt --epochs 500 --threads 2")]
pub struct TuneArgs {
    /// Scored positions: text lines from `chuhan datagen --text`
    #[arg(long, value_name = "FILE")]
    pub data: String,
    /// Gradient steps over the whole set
    #[arg(long, default_value_t = 500, value_parser = in_range(1usize..=1_000_000))]
    pub epochs: usize,
    /// Adam learning rate (in weight units)
    #[arg(long, default_value_t = 2.0, value_parser = in_range(0.0001f64..=1000.0))]
    pub lr: f64,
    /// Weight of the search score in the target (the rest is the game result)
    #[arg(long, default_value_t = 0.0, value_parser = in_range(0.0f64..=1.0))]
    pub lambda: f64,
    /// The sigmoid's scale K (fitted to the data when not given)
    #[arg(long, value_parser = in_range(0.000001f64..=1.0))]
    pub k: Option<f64>,
    /// The weights file to write
    #[arg(long, value_name = "FILE", default_value = "src/eval/hce/weights.rs")]
    pub out: String,
    /// Threads
    #[arg(long, default_value_t = 2, value_parser = in_range(1usize..=256))]
    pub threads: usize,
}

/// `chuhan tune`: refits the handcrafted evaluation's weights.
pub fn run(args: TuneArgs) -> Result<(), String> {
    let TuneArgs { data: path, epochs, lr, lambda, k: fixed_k, out, threads } = args;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    pool.install(|| -> Result<(), String> {
        let bytes = std::fs::read(&path).map_err(|e| format!("tune: cannot read '{path}': {e}"))?;
        let (mut samples, skipped) = load(&String::from_utf8_lossy(&bytes));
        if samples.len() < 100 {
            return Err(format!("tune: only {} usable positions in '{path}'", samples.len()));
        }
        let held = hold_out(&mut samples);
        eprintln!("tune: {} positions ({} held out, {skipped} skipped)", samples.len(), held.len());
        let mut w: Vec<f64> = WEIGHTS.iter().flat_map(|s| [s.mg as f64, s.eg as f64]).collect();
        // A given K keeps runs comparable when their starting weights differ (the score target depends on it).
        let k = fixed_k.unwrap_or_else(|| fit_k(&samples, &w));
        set_targets(&mut samples, lambda, k);
        let scored = samples.iter().filter(|s| s.score.is_some()).count();
        eprintln!("tune: lambda {lambda}: {scored} positions carry a search score");
        eprintln!("tune: K = {k:.6}; error {:.6} ({})", error(&samples, &w, k), held_report(&held, &w, k));
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        let mut m = vec![0.0; w.len()];
        let mut v = vec![0.0; w.len()];
        for epoch in 1..=epochs {
            let g = gradient(&samples, &w, k);
            for i in 0..w.len() {
                // The king's material is meaningless (both sides always have one).
                if i / 2 == MATERIAL {
                    continue;
                }
                m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                let mh = m[i] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i] / (1.0 - b2.powi(epoch as i32));
                w[i] -= lr * mh / (vh.sqrt() + eps);
            }
            if epoch % 50 == 0 || epoch == epochs {
                eprintln!("tune: epoch {epoch}: error {:.6} ({})", error(&samples, &w, k), held_report(&held, &w, k));
            }
        }
        let scores: Vec<Score> =
            (0..NUM_WEIGHTS).map(|i| s(w[2 * i].round() as i32, w[2 * i + 1].round() as i32)).collect();
        let note = format!(" ({} positions, {epochs} epochs, lambda {lambda}, K = {k:.6})", samples.len());
        std::fs::write(&out, render(&scores, &note)).map_err(|e| format!("tune: cannot write '{out}': {e}"))?;
        eprintln!("tune: wrote {out}");
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_round_trips_the_current_weights() {
        let text = render(&WEIGHTS, "");
        let count = text.matches(" s(").count();
        assert_eq!(count, NUM_WEIGHTS);
    }

    #[test]
    fn tuning_moves_towards_the_results() {
        // Two tiny "datasets": Red wins whenever it is a horse up; the horse's weight must not fall.
        let up = "3k5/9/9/9/9/9/9/4N4/9/4K4 w - - 0 1";
        let mut text = String::new();
        for _ in 0..200 {
            text.push_str(&format!("{up} | 1\n"));
        }
        let (samples, _) = load(&text);
        let w: Vec<f64> = WEIGHTS.iter().flat_map(|s| [s.mg as f64, s.eg as f64]).collect();
        let g = gradient(&samples, &w, 0.005);
        // Raising the horse's material lowers the error.
        assert!(g[2 * (MATERIAL + 3) + 1] < 0.0);
    }

    #[test]
    fn whole_blocks_are_held_out() {
        let mut v: Vec<usize> = (0..20_000).collect();
        let held = hold_out(&mut v);
        // 100-line blocks: lines 900..1000, 1900..2000, …
        assert_eq!((v.len(), held.len()), (18_000, 2_000));
        assert_eq!(&held[..3], &[900, 901, 902]);
        assert!(held.windows(2).filter(|w| w[1] != w[0] + 1).count() == 19);
        let mut few: Vec<usize> = (0..30).collect();
        assert_eq!(hold_out(&mut few), vec![9, 19, 29]);
    }

    #[test]
    fn the_search_score_can_be_the_target() {
        // The game was lost, but the search says Red is far ahead: with lambda 1 the score decides.
        let up = "3k5/9/9/9/9/9/9/4N4/9/4K4 w - - 0 1";
        let text = format!("{up} | 0 | 3000\n{up} | 0\n");
        let (mut samples, skipped) = load(&text);
        assert_eq!((samples.len(), skipped), (2, 0));
        assert_eq!(samples[0].score, Some(3000.0));
        set_targets(&mut samples, 1.0, 0.005);
        assert!(samples[0].target > 0.99);
        assert_eq!(samples[1].target, 0.0);
        let w: Vec<f64> = WEIGHTS.iter().flat_map(|s| [s.mg as f64, s.eg as f64]).collect();
        let g = gradient(&samples[..1], &w, 0.005);
        assert!(g[2 * (MATERIAL + 3) + 1] < 0.0);
        // A malformed score is refused, not read as no score.
        assert_eq!(load(&format!("{up} | 1 | x\n")).1, 1);
    }
}
