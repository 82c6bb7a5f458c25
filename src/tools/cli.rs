//! The command line: the list of subcommands and the dispatch to them, parsed with `clap`. The argument
//! groups they share are in `tools::args`; each subcommand's arguments and entry point (`run`) in its own file.
//!
//! Conventions every subcommand follows: `--flag value` or `--flag=value`; numbers are checked against their
//! range before any work starts; a FEN or a move list may be one quoted argument or several words (everything
//! up to the next `--flag`); errors go to stderr with exit status 2. Without a subcommand the binary runs the
//! UCCI/UCI protocol loop on stdin/stdout.

use super::{analyze, annotate, bench, book, datagen, judge, params, perft, train, tune, wdl};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

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
    Perft(perft::PerftArgs),
    /// Search a position and print the best move, the score and the principal variation
    Analyze(analyze::AnalyzeArgs),
    /// Analyse every move of a game: marks, best moves, a summary, an annotated PGN and an SVG graph
    Annotate(annotate::AnnotateArgs),
    /// Apply the repetition rules (长将, 长捉, 一将一捉 …) to a move list or to game files
    Judge(judge::JudgeArgs),
    /// Play a match between two UCI/UCCI engines (Elo, SPRT, PGN and JSON output)
    Match(super::r#match::MatchArgs),
    /// Play self-play games for training data (resumable, shardable), or merge game files
    Datagen(datagen::DatagenArgs),
    /// Train an evaluation network from datagen game files
    Train(train::TrainArgs),
    /// Fit the handcrafted evaluation's weights to scored positions (Texel tuning; the search's parameters are
    /// tuned by SPSA: `chuhan params --spsa`)
    Tune(tune::TuneArgs),
    /// Build an opening book from game files, or list a position's book moves (ElephantEye's format)
    Book(book::BookArgs),
    /// Fit the win/draw/loss model to self-play games (for UCI_ShowWDL, analyze and annotate)
    Wdl(wdl::WdlArgs),
    /// List the search's tunable parameters, or print them as SPSA input
    Params(params::ParamsArgs),
    /// Fixed-depth search of fixed positions; prints `Bench: <nodes> nodes <nps> nps`
    Bench(bench::BenchArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    #[command(after_help = "Example:\n  chuhan completions bash > ~/.local/share/bash-completion/completions/chuhan")]
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

/// The binary's entry point: the protocol loop without arguments, a subcommand otherwise.
pub fn main() -> ExitCode {
    quiet_on_closed_pipe();
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

/// `chuhan params | head`: the reader leaves, the next `println!` fails with a broken pipe and panics. A shell tool
/// then stops quietly with the status a SIGPIPE gives (141), as `cat` would; any other panic is reported as usual.
fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.contains("Broken pipe") {
            std::process::exit(141);
        }
        report(info);
    }));
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
        Command::Perft(a) => perft::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Annotate(a) => annotate::run(a),
        Command::Judge(a) => judge::run(a),
        Command::Match(a) => super::r#match::run(a),
        Command::Datagen(a) => datagen::run(a),
        Command::Train(a) => train::run(a),
        Command::Tune(a) => tune::run(a),
        Command::Params(a) => params::run(a),
        Command::Wdl(a) => wdl::run(a),
        Command::Book(a) => book::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "chuhan", &mut std::io::stdout());
            Ok(())
        }
    }
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
}
