//! `chuhan perft`: counts the leaf nodes of the legal move tree (the move generator's check and speed test).

use super::args::{in_range, PositionArgs};
use super::progress::Progress;
use std::io::Write;
use std::time::Instant;

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
pub fn run(args: PerftArgs) -> Result<(), String> {
    let pos = args.position.position()?;
    let (depth, threads) = (args.depth, args.threads);
    let start = Instant::now();
    let stdout = std::io::stdout();
    // Below depth 6 perft ends before a bar would be seen.
    let roots = if depth >= 6 { pos.legal_moves().len() as u64 } else { 0 };
    let bar = Progress::new("perft", roots, args.quiet || roots == 0);
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
