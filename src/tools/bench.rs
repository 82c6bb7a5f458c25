//! `chuhan bench [depth] [--eval hce|nnue] [--evalfile FILE]`: runs [`crate::bench`] and prints its signature
//! line. The signature quoted in commits is the default one (`chuhan bench`, the handcrafted evaluation).

use super::cli::Args;
use crate::bench::{run, DEFAULT_DEPTH};
use crate::eval::EvalKind;
use crate::nnue::Network;
use crate::search::Settings;
use std::sync::Arc;

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
    let mut settings = Settings::default();
    if let Some(path) = args.value("evalfile") {
        settings.network = Some(Arc::new(Network::load(&path)?));
        settings.eval = EvalKind::Nnue;
    }
    if let Some(e) = args.value("eval") {
        settings.eval = EvalKind::parse(&e).ok_or_else(|| format!("bench: unknown evaluation '{e}'"))?;
    }
    let (nodes, nps) = run(depth, true, &settings);
    println!("Bench: {nodes} nodes {nps} nps");
    Ok(())
}
