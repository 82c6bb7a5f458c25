//! `chuhan bench [depth] [--eval hce|nnue] [--evalfile FILE]`: runs [`crate::bench`] and prints its signature
//! line. The signature quoted in commits is the default one (`chuhan bench`, the handcrafted evaluation).

use super::cli::{evaluation_from_args, Args};
use crate::bench::{run, DEFAULT_DEPTH};
use crate::search::Settings;

pub fn cli(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv);
    if let Some(f) = args.unknown(&["eval", "evalfile"]) {
        return Err(format!("bench: unknown flag --{f}"));
    }
    let depth = match args.positional.as_slice() {
        [] => DEFAULT_DEPTH,
        [d] => d
            .parse::<i32>()
            .ok()
            .filter(|d| (1..=30).contains(d))
            .ok_or_else(|| format!("bench: depth '{d}' is not 1-30"))?,
        [_, extra, ..] => return Err(format!("bench: unexpected argument '{extra}'")),
    };
    let (eval, network) = evaluation_from_args(&args).map_err(|e| format!("bench: {e}"))?;
    let settings = Settings { eval, network, ..Settings::default() };
    let (nodes, nps) = run(depth, true, &settings);
    println!("Bench: {nodes} nodes {nps} nps");
    Ok(())
}
