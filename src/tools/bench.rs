//! `chuhan bench [depth] [--eval hce|nnue] [--evalfile FILE]`: runs [`crate::bench`] and prints its signature
//! line. The signature quoted in commits is the default one (`chuhan bench`: the default evaluation, the
//! built-in network; `--eval hce` gives the handcrafted evaluation's).

use super::args::{in_range, EvalArgs};
use crate::bench::DEFAULT_DEPTH;
use crate::search::Settings;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  chuhan bench\n  chuhan bench 10 --eval nnue")]
pub struct BenchArgs {
    /// Search depth for every position
    #[arg(default_value_t = DEFAULT_DEPTH, value_parser = in_range(1i32..=30))]
    pub depth: i32,
    #[command(flatten)]
    pub eval: EvalArgs,
}

pub fn run(args: BenchArgs) -> Result<(), String> {
    let (eval, network) = args.eval.resolve().map_err(|e| format!("bench: {e}"))?;
    let settings = Settings { eval, network, ..Settings::default() };
    let (nodes, nps) = crate::bench::run(args.depth, true, &settings);
    println!("Bench: {nodes} nodes {nps} nps");
    Ok(())
}
