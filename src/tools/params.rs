//! `chuhan params [--spsa]`: the search's tunable parameters, as a table or as an SPSA tuner's input.

use crate::search::params::{spsa_lines, ALL};

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  chuhan params\n  chuhan params --spsa > spsa.txt")]
pub struct ParamsArgs {
    /// One line per parameter in OpenBench's SPSA input format (name, int, value, min, max, step, rate)
    #[arg(long)]
    pub spsa: bool,
}

pub fn run(args: ParamsArgs) -> Result<(), String> {
    if args.spsa {
        for line in spsa_lines() {
            println!("{line}");
        }
        return Ok(());
    }
    let settable =
        if cfg!(feature = "spsa") { "options (spsa build)" } else { "constants (build with --features spsa to tune)" };
    println!("{} parameters, {settable}", ALL.len());
    println!("{:<28} {:>7} {:>7} {:>7} {:>6}  meaning", "name", "value", "min", "max", "scale");
    for p in ALL {
        // A scaled parameter stands for value / scale (tm_stable_factor 1967 / 1000 is 1.967).
        let scale = if p.scale == 1 { String::new() } else { format!("/{}", p.scale) };
        println!("{:<28} {:>7} {:>7} {:>7} {scale:>6}  {}", p.name, p.value(), p.min, p.max, p.doc.trim());
    }
    Ok(())
}
