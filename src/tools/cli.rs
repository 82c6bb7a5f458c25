//! Argument handling for the subcommands. No dependency: flags are few and simple.
//!
//! Conventions: `--flag value` or `--flag=value`; a FEN or a move list may be given as one quoted argument or
//! as several words (everything up to the next `--flag`).

use crate::board::Position;
use crate::notation::parse_move;
use std::io::Write;
use std::time::Instant;

/// A parsed command line: positional words and `--flag [value…]` pairs, in order.
#[derive(Debug, Default)]
pub struct Args {
    pub positional: Vec<String>,
    pub flags: Vec<(String, Vec<String>)>,
}

impl Args {
    pub fn parse(args: &[String]) -> Args {
        let mut out = Args::default();
        let mut current: Option<(String, Vec<String>)> = None;
        for a in args {
            if let Some(name) = a.strip_prefix("--") {
                if let Some(c) = current.take() {
                    out.flags.push(c);
                }
                match name.split_once('=') {
                    Some((n, v)) => out.flags.push((n.to_string(), vec![v.to_string()])),
                    None => current = Some((name.to_string(), Vec::new())),
                }
            } else if let Some((_, values)) = current.as_mut() {
                values.push(a.clone());
            } else {
                out.positional.push(a.clone());
            }
        }
        if let Some(c) = current.take() {
            out.flags.push(c);
        }
        out
    }

    /// The words after `--name`, joined by spaces (the last occurrence wins).
    pub fn value(&self, name: &str) -> Option<String> {
        self.flags.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.join(" "))
    }

    pub fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| n == name)
    }

    /// Flags not in `known`, for a clear error instead of a silent ignore.
    pub fn unknown(&self, known: &[&str]) -> Option<String> {
        self.flags.iter().map(|(n, _)| n).find(|n| !known.contains(&n.as_str())).cloned()
    }

    /// `--name N` as a number in `range`, or the default.
    pub fn number<T>(&self, name: &str, default: T, range: std::ops::RangeInclusive<T>) -> Result<T, String>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        match self.value(name) {
            None => Ok(default),
            Some(v) => crate::protocol::options::parse_range(&format!("--{name}"), &v, range),
        }
    }
}

/// The evaluation asked for by `--evalfile NET` (a network file: `nnue`) and `--eval hce|nnue` (which wins
/// when both are given); the handcrafted one by default. `nnue` without a file is the built-in network.
pub fn evaluation_from_args(
    args: &Args,
) -> Result<(crate::eval::EvalKind, Option<std::sync::Arc<crate::nnue::Network>>), String> {
    use crate::eval::EvalKind;
    let network = match args.value("evalfile") {
        Some(path) => Some(std::sync::Arc::new(crate::nnue::Network::load(&path)?)),
        None => None,
    };
    let kind = match args.value("eval") {
        Some(e) => EvalKind::parse(&e).ok_or_else(|| format!("unknown evaluation '{e}' (hce or nnue)"))?,
        None if network.is_some() => EvalKind::Nnue,
        None => EvalKind::Hce,
    };
    Ok((kind, network))
}

/// The position given by `--fen` (default: the start) with `--moves` played on it (any notation).
pub fn position_from_args(args: &Args) -> Result<Position, String> {
    let mut pos = match args.value("fen") {
        Some(f) if f.trim() == "startpos" => Position::startpos(),
        Some(f) => Position::from_fen(&f).map_err(|e| format!("bad --fen: {e}"))?,
        None => Position::startpos(),
    };
    if let Some(moves) = args.value("moves") {
        for (i, text) in moves.split_whitespace().enumerate() {
            let m = parse_move(&pos, text).map_err(|e| format!("--moves, move {}: {e}", i + 1))?;
            pos.make_move(m);
        }
    }
    Ok(pos)
}

/// `chuhan perft <depth> [--fen FEN] [--moves "m1 m2 …"] [--divide] [--threads N]`
pub fn perft(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv);
    if let Some(f) = args.unknown(&["fen", "moves", "divide", "threads"]) {
        return Err(format!("perft: unknown flag --{f}"));
    }
    let depth: u32 = match args.positional.as_slice() {
        [d] => d.parse().ok().filter(|&d| d <= 20).ok_or_else(|| format!("perft: depth '{d}' is not a number 0-20"))?,
        [] => return Err("perft: give a depth, e.g. `chuhan perft 5`".into()),
        more => return Err(format!("perft: unexpected arguments {:?}", &more[1..])),
    };
    let threads = args.number("threads", 1usize, 1..=1024)?;
    let pos = position_from_args(&args)?;
    let start = Instant::now();
    let stdout = std::io::stdout();
    let nodes = crate::board::perft::report(&pos, depth, threads, args.has("divide"), &mut stdout.lock());
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        std::io::stderr(),
        "perft {depth}: {nodes} nodes in {secs:.3} s ({:.1} Mnps, {threads} thread{})",
        nodes as f64 / secs.max(1e-9) / 1e6,
        if threads == 1 { "" } else { "s" }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn flags_and_values() {
        let a = Args::parse(&strings(&["5", "--fen", "4k4/9", "w", "--divide", "--threads=2"]));
        assert_eq!(a.positional, ["5"]);
        assert_eq!(a.value("fen").as_deref(), Some("4k4/9 w"));
        assert!(a.has("divide"));
        assert_eq!(a.number("threads", 1usize, 1..=8), Ok(2));
        assert!(a.number("threads", 1usize, 3..=8).is_err());
        assert_eq!(a.unknown(&["fen", "divide", "threads"]), None);
        assert_eq!(a.unknown(&["fen"]), Some("divide".into()));
    }

    #[test]
    fn positions() {
        let a = Args::parse(&strings(&["--moves", "h2e2 马8进7"]));
        let p = position_from_args(&a).unwrap();
        assert_eq!(p.to_fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
        let bad = Args::parse(&strings(&["--moves", "h2e2 h2e2"]));
        assert!(position_from_args(&bad).unwrap_err().contains("move 2"));
    }
}
