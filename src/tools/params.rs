//! `chuhan params [--spsa]`: the search's tunable parameters, as a table or as an SPSA tuner's input.

use super::cli::Args;
use crate::search::params::{spsa_lines, ALL};

pub fn run(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv);
    if let Some(f) = args.unknown(&["spsa"]) {
        return Err(format!("params: unknown flag --{f}"));
    }
    if let Some(p) = args.positional.first() {
        return Err(format!("params: unexpected argument '{p}'"));
    }
    if args.has("spsa") {
        for line in spsa_lines() {
            println!("{line}");
        }
        return Ok(());
    }
    let settable =
        if cfg!(feature = "spsa") { "options (spsa build)" } else { "constants (build with --features spsa to tune)" };
    println!("{} parameters, {settable}", ALL.len());
    println!("{:<28} {:>7} {:>7} {:>7}  meaning", "name", "value", "min", "max");
    for p in ALL {
        println!("{:<28} {:>7} {:>7} {:>7}  {}", p.name, p.value(), p.min, p.max, p.doc.trim());
    }
    Ok(())
}
