//! A match's results as people and scripts read them: the running tally, the progress line, the closing report
//! and the `--json` summary. `chuhan match` fills it game by game; `chuhan match merge` fills it from the shards'
//! PGN files, so that N shards report exactly what one run would.

use super::stats::{Decision, Sprt, Tally};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// What a report says of the match besides its games.
#[derive(Clone, Debug, PartialEq)]
pub struct Heading {
    /// The engines in `--engine` order: the scores are the first one's.
    pub engines: [String; 2],
    /// The limit per move or the clock, as the report prints it (`tc 10+0.1`, `2500 nodes/move`).
    pub limit: String,
    /// The repetition rules' name (`chinese`, `asian`).
    pub rules: String,
    pub sprt: Option<Sprt>,
    /// Games planned (for the progress line).
    pub games: u64,
}

/// The match summary written by `--json` (shape documented in docs/tools.md).
#[derive(Serialize)]
struct Summary<'a> {
    engines: &'a [String; 2],
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    points: f64,
    score: Option<f64>,
    elo: Option<f64>,
    elo_error: Option<f64>,
    pentanomial: [u64; 5],
    elo_pentanomial: Option<f64>,
    elo_pentanomial_error: Option<f64>,
    los: Option<f64>,
    rules: &'a str,
    /// Games by how they ended, sorted by name.
    terminations: BTreeMap<String, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<SprtJson>,
}

#[derive(Serialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    lower_bound: f64,
    upper_bound: f64,
    decision: &'static str,
}

/// Collected results.
#[derive(Default)]
pub struct Results {
    pub tally: Tally,
    reasons: HashMap<String, u64>,
    /// The first engine's points in each game pair seen so far.
    pairs: HashMap<u64, Vec<f64>>,
    decision: Option<(f64, Decision)>,
}

impl Results {
    /// Counts game `index` (0-based; games 2k and 2k+1 are a pair), in which the first engine scored `points`,
    /// ended for `reason` (its words before any parenthesis name the kind of ending).
    pub fn add(&mut self, index: u64, points: f64, reason: &str) {
        if points == 1.0 {
            self.tally.wins += 1;
        } else if points == 0.0 {
            self.tally.losses += 1;
        } else {
            self.tally.draws += 1;
        }
        let kind = reason.split(" (").next().unwrap_or(reason).to_string();
        *self.reasons.entry(kind).or_default() += 1;
        let entry = self.pairs.entry(index / 2).or_default();
        entry.push(points);
        // A pair counts once both games are in (an odd last game has no partner and only counts as a game).
        if entry.len() == 2 {
            let points = entry[0] + entry[1];
            self.tally.penta[(points * 2.0).round() as usize] += 1;
        }
    }

    /// Whether the SPRT (if any) has decided; its first decision is kept (games still in flight when it is
    /// reached are counted but do not change it).
    pub fn sprt_decided(&mut self, sprt: Option<Sprt>) -> bool {
        let Some(s) = sprt else { return false };
        if self.decision.is_none() {
            let (llr, d) = s.decide(&self.tally);
            if d != Decision::Continue {
                self.decision = Some((llr, d));
            }
        }
        self.decision.is_some()
    }

    fn sprt_state(&self, s: Sprt) -> (f64, Decision) {
        self.decision.unwrap_or((self.tally.llr(s.elo0, s.elo1), Decision::Continue))
    }

    pub fn summary_json(&self, h: &Heading) -> String {
        let t = &self.tally;
        let (elo, penta_elo) = (t.elo(), t.elo_pentanomial());
        let summary = Summary {
            engines: &h.engines,
            games: t.games(),
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            points: t.points(),
            score: t.score(),
            elo: elo.map(|e| e.0),
            elo_error: elo.map(|e| e.1),
            pentanomial: t.penta,
            elo_pentanomial: penta_elo.map(|e| e.0),
            elo_pentanomial_error: penta_elo.map(|e| e.1),
            los: t.los(),
            rules: &h.rules,
            terminations: self.reasons.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            sprt: h.sprt.map(|s| {
                let (llr, d) = self.sprt_state(s);
                let (lower_bound, upper_bound) = s.bounds();
                SprtJson {
                    elo0: s.elo0,
                    elo1: s.elo1,
                    alpha: s.alpha,
                    beta: s.beta,
                    llr,
                    lower_bound,
                    upper_bound,
                    decision: match d {
                        Decision::Continue => "continue",
                        Decision::H0 => "H0",
                        Decision::H1 => "H1",
                    },
                }
            }),
        };
        serde_json::to_string(&summary).unwrap_or_default()
    }

    pub fn progress(&self, h: &Heading) -> String {
        let t = &self.tally;
        // `+ 0.0` turns an even score's -0.0 into +0.0.
        let elo = t.elo().map_or("n/a".into(), |(e, err)| format!("{:+.1} ± {err:.1}", e + 0.0));
        let mut s = format!(
            "[{}/{}] {} vs {}: W {} D {} L {}  score {:.3}  Elo {elo}",
            t.games(),
            h.games,
            h.engines[0],
            h.engines[1],
            t.wins,
            t.draws,
            t.losses,
            t.score().unwrap_or(0.5)
        );
        if let Some(sp) = h.sprt {
            let (lo, hi) = sp.bounds();
            s.push_str(&format!("  LLR {:.2} ({lo:.2}, {hi:.2})", t.llr(sp.elo0, sp.elo1)));
        }
        s
    }

    pub fn report(&self, h: &Heading) -> String {
        let t = &self.tally;
        let mut s = String::new();
        s.push_str(&format!(
            "Results of {} vs {} ({}, {} rules, {} games):\n",
            h.engines[0],
            h.engines[1],
            h.limit,
            h.rules,
            t.games()
        ));
        s.push_str(&format!(
            "Games: {}, Wins: {}, Draws: {}, Losses: {}, Points: {:.1} ({:.2} %)\n",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            100.0 * t.score().unwrap_or(0.0)
        ));
        // `+ 0.0` turns an even score's -0.0 into +0.0.
        let fmt =
            |e: Option<(f64, f64)>| e.map_or("n/a".to_string(), |(e, err)| format!("{:+.1} +/- {err:.1}", e + 0.0));
        s.push_str(&format!(
            "Elo: {}, LOS: {}, draw ratio: {:.1} %\n",
            fmt(t.elo()),
            t.los().map_or("n/a".into(), |l| format!("{:.1} %", 100.0 * l)),
            100.0 * t.draws as f64 / t.games().max(1) as f64
        ));
        s.push_str(&format!("Ptnml(0-2): {:?}, Elo (pairs): {}\n", t.penta, fmt(t.elo_pentanomial())));
        if let Some(sp) = h.sprt {
            let (llr, d) = self.sprt_state(sp);
            let (lo, hi) = sp.bounds();
            let verdict = match d {
                Decision::Continue => "no decision yet",
                Decision::H0 => "H0 accepted",
                Decision::H1 => "H1 accepted",
            };
            s.push_str(&format!(
                "SPRT: elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} (bounds {lo:.2}, {hi:.2}) — {verdict}\n",
                sp.elo0, sp.elo1, sp.alpha, sp.beta
            ));
        }
        let mut reasons: Vec<(&String, &u64)> = self.reasons.iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
        s.push_str(&format!("Terminations: {}\n", list.join(", ")));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_and_endings() {
        let h = Heading {
            engines: ["a".into(), "b".into()],
            limit: "depth 3".into(),
            rules: "chinese".into(),
            sprt: None,
            games: 5,
        };
        let mut r = Results::default();
        // Pair 0: a win and a draw; pair 1: a loss and a win; game 4 has no partner yet.
        for (i, p, why) in [
            (0, 1.0, "checkmate"),
            (1, 0.5, "natural move limit"),
            (3, 1.0, "checkmate"),
            (2, 0.0, "b wins on time (a: 10 ms over)"),
            (4, 0.5, "repetition draw"),
        ] {
            r.add(i, p, why);
        }
        assert_eq!((r.tally.wins, r.tally.draws, r.tally.losses), (2, 2, 1));
        assert_eq!(r.tally.penta, [0, 0, 1, 1, 0]);
        let report = r.report(&h);
        assert!(report.starts_with("Results of a vs b (depth 3, chinese rules, 5 games):\n"), "{report}");
        assert!(
            report.contains("Terminations: checkmate 2, b wins on time 1, natural move limit 1, repetition draw 1\n")
        );
        assert!(r.summary_json(&h).contains(r#""terminations":{"b wins on time":1,"checkmate":2,"#));
    }
}
