//! The command line: the subcommands and the argument groups they share, parsed with `clap`.
//!
//! Conventions every subcommand follows: `--flag value` or `--flag=value`; numbers are checked against their
//! range before any work starts; a FEN or a move list may be one quoted argument or several words (everything
//! up to the next `--flag`); errors go to stderr with exit status 2. Without a subcommand the binary runs the
//! UCCI/UCI protocol loop on stdin/stdout.

use crate::board::Position;
use crate::eval::EvalKind;
use crate::nnue::Network;
use crate::notation::parse_move;
use crate::rules::RuleSet;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::fmt::Display;
use std::io::Write;
use std::ops::RangeInclusive;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

const ABOUT: &str =
    "Chuhan (楚河汉界), a xiangqi engine: UCCI and UCI, the Chinese repetition rules, tools for analysts";

const AFTER_HELP: &str = "Without a subcommand Chuhan reads the UCCI or UCI protocol on stdin (send `ucci` or `uci` \
                          first): this is how a GUI or a match runner starts it. `chuhan <command> --help` explains \
                          each command with examples.";

#[derive(Parser, Debug)]
#[command(name = "chuhan", version, about = ABOUT, after_help = AFTER_HELP, max_term_width = 110)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree (move generator check and speed test)
    #[command(
        after_help = "Examples:\n  chuhan perft 5\n  chuhan perft 4 --divide --fen \"4k4/9/9/9/9/9/9/9/9/4K4 w\"\
                            \n  chuhan perft 6 --threads 2 --moves \"h2e2 h9g7\""
    )]
    Perft(PerftArgs),
    /// Search a position and print the best move, the score and the principal variation
    Analyze(super::analyze::AnalyzeArgs),
    /// Analyse every move of a game: marks, best moves, a summary, an annotated PGN and an SVG graph
    Annotate(super::annotate::AnnotateArgs),
    /// Apply the repetition rules (长将, 长捉, 一将一捉 …) to a move list or to game files
    Judge(super::judge::JudgeArgs),
    /// Play a match between two UCI/UCCI engines (Elo, SPRT, PGN and JSON output)
    Match(super::arena::MatchArgs),
    /// Play self-play games for training data (resumable, shardable), or merge game files
    Datagen(super::datagen::DatagenArgs),
    /// Train an evaluation network from datagen game files
    Train(super::train::TrainArgs),
    /// Fit the handcrafted evaluation's weights to scored positions (text datagen output)
    Tune(super::tune::TuneArgs),
    /// Build an opening book from game files, or list a position's book moves (ElephantEye's format)
    Book(super::book::BookArgs),
    /// Fit the win/draw/loss model to self-play games (for UCI_ShowWDL, analyze and annotate)
    Wdl(super::wdl::WdlArgs),
    /// List the search's tunable parameters, or print them as SPSA input
    Params(super::params::ParamsArgs),
    /// Fixed-depth search of fixed positions; prints `Bench: <nodes> nodes <nps> nps`
    Bench(super::bench::BenchArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    #[command(after_help = "Example:\n  chuhan completions bash > ~/.local/share/bash-completion/completions/chuhan")]
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

/// The binary's entry point: the protocol loop without arguments, a subcommand otherwise.
pub fn main() -> ExitCode {
    let cli = match parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` are answers, not errors: clap prints them to stdout with status 0.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        None => {
            crate::protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            Ok(())
        }
        Some(command) => run(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chuhan: {e}");
            ExitCode::from(2)
        }
    }
}

/// Parses a command line (the program name first).
pub fn parse<I, T>(words: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = Cli::command().try_get_matches_from(words)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    // `match --engine …` twice: the derive gives all the words in one list; the occurrences keep them apart.
    if let (Some(Command::Match(m)), Some(sub)) = (cli.command.as_mut(), matches.subcommand_matches("match")) {
        m.engines = match sub.get_occurrences::<String>("engine") {
            Some(occurrences) => occurrences.map(|o| o.cloned().collect()).collect(),
            None => Vec::new(),
        };
    }
    Ok(cli)
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Perft(a) => perft(a),
        Command::Analyze(a) => super::analyze::run(a),
        Command::Annotate(a) => super::annotate::run(a),
        Command::Judge(a) => super::judge::run(a),
        Command::Match(a) => super::arena::cli(a),
        Command::Datagen(a) => super::datagen::run(a),
        Command::Train(a) => super::train::run(a),
        Command::Tune(a) => super::tune::run(a),
        Command::Params(a) => super::params::run(a),
        Command::Wdl(a) => super::wdl::run(a),
        Command::Book(a) => super::book::run(a),
        Command::Bench(a) => super::bench::cli(a),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "chuhan", &mut std::io::stdout());
            Ok(())
        }
    }
}

/// A value parser for a number in `range`, with the same message as the protocol's options.
pub fn in_range<T>(range: RangeInclusive<T>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |v: &str| crate::protocol::options::parse_range("value", v, range.clone())
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
            time: self.movetime.map(|ms| crate::time::fixed(ms, 0)),
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

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies
    #[arg(value_parser = in_range(0u32..=20))]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// One line per root move with its count
    #[arg(long)]
    pub divide: bool,
    /// Threads sharing the root moves
    #[arg(long, default_value_t = 1, value_parser = in_range(1usize..=1024))]
    pub threads: usize,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

/// `chuhan perft <depth> [--fen FEN] [--moves "m1 m2 …"] [--divide] [--threads N]`
pub fn perft(args: PerftArgs) -> Result<(), String> {
    let pos = args.position.position()?;
    let (depth, threads) = (args.depth, args.threads);
    let start = Instant::now();
    let stdout = std::io::stdout();
    // Below depth 6 perft ends before a bar would be seen.
    let roots = if depth >= 6 { pos.legal_moves().len() as u64 } else { 0 };
    let bar = super::progress::Progress::new("perft", roots, args.quiet || roots == 0);
    let nodes =
        crate::board::perft::report_observed(&pos, depth, threads, args.divide, &mut stdout.lock(), &|| bar.inc(1));
    bar.finish();
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

    fn parse(words: &[&str]) -> Result<Cli, clap::Error> {
        super::parse(std::iter::once("chuhan").chain(words.iter().copied()))
    }

    #[test]
    fn the_definitions_hold_together() {
        Cli::command().debug_assert();
    }

    #[test]
    fn flags_and_values() {
        let Some(Command::Perft(p)) =
            parse(&["perft", "5", "--fen", "4k4/9", "w", "--divide", "--threads=2"]).unwrap().command
        else {
            panic!("not perft")
        };
        assert_eq!((p.depth, p.divide, p.threads), (5, true, 2));
        assert_eq!(p.position.fen.join(" "), "4k4/9 w");
        let e = parse(&["perft", "5", "--threads", "0"]).unwrap_err().to_string();
        assert!(e.contains("out of range 1-1024"), "{e}");
        let e = parse(&["perft", "5", "--thread", "2"]).unwrap_err().to_string();
        assert!(e.contains("--threads"), "a suggestion: {e}");
    }

    #[test]
    fn positions() {
        let a = PositionArgs { moves: vec!["h2e2 马8进7".into()], ..PositionArgs::default() };
        let p = a.position().unwrap();
        assert_eq!(p.to_fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
        let bad = PositionArgs { moves: vec!["h2e2".into(), "h2e2".into()], ..PositionArgs::default() };
        assert!(bad.position().unwrap_err().contains("move 2"));
    }
}
