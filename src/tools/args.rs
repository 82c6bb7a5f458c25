//! The argument groups and value checks that several subcommands share: a position (`--fen`, `--moves`), an
//! evaluation (`--eval`, `--evalfile`), a search (limits, threads, hash, rules), numbers in a range. Every
//! subcommand may use this module; it uses none of them.

use crate::board::Position;
use crate::eval::EvalKind;
use crate::nnue::Network;
use crate::notation::parse_move;
use crate::rules::RuleSet;
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;
use std::sync::Arc;

/// A value parser for a number in `range`, with the same message as the protocol's options.
pub fn in_range<T>(range: RangeInclusive<T>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |v: &str| crate::engine::options::parse_range("value", v, range.clone())
}

/// A value parser for `--shard K/N`: the K-th of N disjoint parts of a run (datagen's games, a match's pairs).
pub fn shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{s}' is not K/N with 0 <= K < N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

/// A value parser for `--rules chinese|asian`.
pub fn rule_set(v: &str) -> Result<RuleSet, String> {
    v.parse()
}

fn eval_kind(v: &str) -> Result<EvalKind, String> {
    EvalKind::parse(v).ok_or_else(|| format!("'{v}' is not an evaluation (hce or nnue)"))
}

/// `--fen` and `--moves`: a position given by a start and the moves played from it.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// Start position as FEN (default: the opening position; `startpos` names it too). One quoted argument or
    /// several words; the move counters may be left out
    #[arg(long, value_name = "FEN", num_args = 1..)]
    pub fen: Vec<String>,
    /// Moves played from the start, in any notation: ICCS (h2e2), WXF (C2=5) or Chinese (炮二平五); one quoted
    /// argument or several words
    #[arg(long, value_name = "MOVES", num_args = 1..)]
    pub moves: Vec<String>,
}

impl PositionArgs {
    pub fn given(&self) -> bool {
        !self.fen.is_empty() || !self.moves.is_empty()
    }

    /// The start position (without the moves).
    pub fn start(&self) -> Result<Position, String> {
        let fen = self.fen.join(" ");
        match fen.trim() {
            "" | "startpos" => Ok(Position::startpos()),
            f => Position::from_fen(f).map_err(|e| format!("bad --fen: {e}")),
        }
    }

    /// The moves as words, in the order given.
    pub fn move_words(&self) -> Vec<String> {
        self.moves.iter().flat_map(|m| m.split_whitespace()).map(String::from).collect()
    }

    /// The start with the moves played on it.
    pub fn position(&self) -> Result<Position, String> {
        let mut pos = self.start()?;
        for (i, text) in self.move_words().iter().enumerate() {
            let m = parse_move(&pos, text).map_err(|e| format!("--moves, move {}: {e}", i + 1))?;
            pos.make_move(m);
        }
        Ok(pos)
    }
}

/// `--eval` and `--evalfile`: which evaluation searches.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EvalArgs {
    /// Evaluation: nnue (the default: the built-in network unless --evalfile gives another) or hce (handcrafted)
    #[arg(long, value_name = "hce|nnue", value_parser = eval_kind)]
    pub eval: Option<EvalKind>,
    /// A network file (implies --eval nnue unless --eval says otherwise)
    #[arg(long, value_name = "NET")]
    pub evalfile: Option<String>,
}

impl EvalArgs {
    /// The evaluation asked for: `--eval` wins when both are given; the engine's default (the network) otherwise.
    pub fn resolve(&self) -> Result<(EvalKind, Option<Arc<Network>>), String> {
        let network = match &self.evalfile {
            Some(path) => Some(Arc::new(Network::load(path)?)),
            None => None,
        };
        let kind = match self.eval {
            Some(k) => k,
            None if network.is_some() => EvalKind::Nnue,
            None => EvalKind::default(),
        };
        Ok((kind, network))
    }
}

/// How a position is searched: the limit, threads, hash, rules and evaluation (`analyze`, `annotate`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SearchArgs {
    /// Search to this depth in plies
    #[arg(long, value_parser = in_range(1i32..=100))]
    pub depth: Option<i32>,
    /// Search for this many milliseconds
    #[arg(long, value_name = "MS", value_parser = in_range(1u64..=86_400_000))]
    pub movetime: Option<u64>,
    /// Search this many nodes
    #[arg(long, value_parser = in_range(1u64..=u64::MAX))]
    pub nodes: Option<u64>,
    /// Search threads
    #[arg(long, default_value_t = 1, value_parser = in_range(1usize..=256))]
    pub threads: usize,
    /// Transposition table size in MB
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = in_range(1usize..=65536))]
    pub hash: usize,
    /// Repetition rules: chinese (中国象棋协会, the default) or asian (亚洲象棋联合会)
    #[arg(long, value_name = "chinese|asian", value_parser = rule_set)]
    pub rules: Option<RuleSet>,
    #[command(flatten)]
    pub eval: EvalArgs,
}

impl SearchArgs {
    /// The limits given; `default_depth` plies when none is.
    pub fn limits(&self, default_depth: i32) -> crate::search::Limits {
        let limits = crate::search::Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: self.movetime.map(|ms| crate::search::time::fixed(ms, 0)),
            ..crate::search::Limits::default()
        };
        match limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
            true => crate::search::Limits { depth: Some(default_depth), ..limits },
            false => limits,
        }
    }

    /// Search settings for these arguments (one variation).
    pub fn settings(&self) -> Result<crate::search::Settings, String> {
        let mut settings = crate::search::Settings { threads: self.threads, ..crate::search::Settings::default() };
        if let Some(r) = self.rules {
            settings.rules.set = r;
        }
        (settings.eval, settings.network) = self.eval.resolve()?;
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let a = PositionArgs { moves: vec!["h2e2 马8进7".into()], ..PositionArgs::default() };
        let p = a.position().unwrap();
        assert_eq!(p.to_fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
        let bad = PositionArgs { moves: vec!["h2e2".into(), "h2e2".into()], ..PositionArgs::default() };
        assert!(bad.position().unwrap_err().contains("move 2"));
    }
}
