use std::process::ExitCode;

const USAGE: &str = "\
Chuhan, a xiangqi engine.

Usage:
  chuhan                      protocol loop on stdin/stdout (send `ucci` or `uci` first)
  chuhan perft <depth> [--fen FEN] [--moves \"m1 m2 …\"] [--divide] [--threads N]
  chuhan judge --fen FEN --moves \"m1 m2 …\" [--rules chinese|asian] [--json]
  chuhan judge --pgn FILE [--rules chinese|asian] [--json]
  chuhan analyze [--fen FEN] [--moves \"…\"] [--depth N | --movetime MS | --nodes N] [--multipv K]
                 [--threads N] [--hash MB] [--rules chinese|asian] [--eval hce|nnue] [--evalfile NET] [--ascii]
  chuhan analyze --pgn FILE [--game N] [--ply K] …   a position of a game file (PGN or XQF)
  chuhan match --engine cmd=PATH [proto=uci|ucci] [name=N] [option.X=V]… --engine … (--tc 10+0.1 | --movetime MS
               | --nodes N | --depth D) [--games N] [--concurrency K] [--openings FILE] [--rules chinese|asian]
               [--pgn FILE] [--json FILE] [--sprt \"elo0=0 elo1=5 alpha=0.05 beta=0.05\"] [--resign …] [--draw …]
  chuhan datagen --games N --out FILE [--nodes N] [--threads T] [--seed S] [--random-plies K] [--balance B]
                 [--shard K/N] [--evalfile NET] [--text]
  chuhan datagen merge --out FILE IN…
  chuhan train --data \"FILE…\" --out NET.nnue [--hidden H] [--epochs N] [--batch B] [--lr X] [--wdl W]
               [--seed S] [--threads T] [--val-percent P] [--min-ply P] [--mirror] [--checkpoint FILE] [--resume FILE]
  chuhan tune --data FILE [--epochs N] [--lr X] [--out src/eval/hce/weights.rs] [--threads T]
  chuhan params [--spsa]      the search's tunable parameters (--spsa: an SPSA tuner's input lines)
  chuhan bench [depth]        fixed-depth search of fixed positions: Bench: <nodes> nodes <nps> nps
  chuhan help                 this text
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => {
            chuhan::protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            Ok(())
        }
        Some("perft") => chuhan::tools::cli::perft(&args[1..]),
        Some("judge") => chuhan::tools::judge::run(&args[1..]),
        Some("bench") => chuhan::tools::bench::cli(&args[1..]),
        Some("analyze") => chuhan::tools::analyze::run(&args[1..]),
        Some("match") => chuhan::tools::arena::cli(&args[1..]),
        Some("datagen") => chuhan::tools::datagen::run(&args[1..]),
        Some("tune") => chuhan::tools::tune::run(&args[1..]),
        Some("train") => chuhan::tools::train::run(&args[1..]),
        Some("params") => chuhan::tools::params::run(&args[1..]),
        Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown subcommand '{other}'\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chuhan: {e}");
            ExitCode::from(2)
        }
    }
}
