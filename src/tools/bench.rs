//! `chuhan bench [depth]`: runs [`crate::bench`] and prints its signature line.

use crate::bench::{run, DEFAULT_DEPTH};

/// `chuhan bench [depth]`
pub fn cli(argv: &[String]) -> Result<(), String> {
    let depth = match argv.first() {
        None => DEFAULT_DEPTH,
        Some(d) => d
            .parse::<i32>()
            .ok()
            .filter(|d| (1..=30).contains(d))
            .ok_or_else(|| format!("bench: depth '{d}' is not 1-30"))?,
    };
    if argv.len() > 1 {
        return Err(format!("bench: unexpected argument '{}'", argv[1]));
    }
    let (nodes, nps) = run(depth, true);
    println!("Bench: {nodes} nodes {nps} nps");
    Ok(())
}
