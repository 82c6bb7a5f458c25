//! `chuhan bench`: a fixed-depth search of fixed positions, one thread, fresh hash table — the signature that
//! every commit changing search or evaluation quotes (`Bench: <nodes> nodes <nps> nps`).

use crate::board::Position;
use crate::search::{search, Limits, Settings, Shared, Silent};
use std::time::Instant;

/// Deep enough to exercise the pruning, short enough to run in seconds.
pub const DEFAULT_DEPTH: i32 = 12;

/// Openings, middlegames and endings; the perft reference positions among them.
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3n1c/p3p1pRp/2p6/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB2 w - - 10 6",
    "r1bakabnr/9/2n4c1/p3p1p1p/2p6/6P2/PcP1P3P/1C4C1N/9/RNBAKAB1R w - - 6 4",
    "rnbakabr1/9/1c2c1n2/p3p1p1p/2p6/6P2/P1P1P3P/1C2B1NC1/9/RN1AKABR1 w - - 8 5",
    "rnbakab1r/9/4c1nc1/p1p1p3p/6p2/9/P1P1P1P1P/1CN3N1C/9/R1BAKAB1R w - - 6 4",
    "r1bakabr1/9/1cn1c1n2/p3p1p1p/2p6/7R1/P1P1P1P1P/1CN1C1N2/9/R1BAKAB2 w - - 10 6",
    "1rbakabnr/9/2n1c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKABR1 b - - 7 4",
    "1rbakab1r/9/2n3n2/p3p1p1p/2p6/2P6/Pc2P1PcP/2N1C1N2/1C7/R1BAKABR1 w - - 12 7",
    "r1bakabr1/9/2n3nc1/p3p1p1p/1cp6/4PNP2/P1P5P/1C2C4/9/RNBAKAB1R w - - 10 6",
    "rnbakab2/9/1c2c1n2/p1p1p1p1p/7r1/2P6/P3P1P1P/1C2C1N2/9/RNBAKABR1 w - - 8 5",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "3ak4/4a4/9/9/4n4/9/9/9/4A4/3RK4 w - - 0 1",
    "4ka3/4a4/9/9/2P6/9/9/9/9/3K1C3 w - - 0 1",
    "4k4/9/3a1a3/9/4P4/9/2N6/9/9/4K4 w - - 0 1",
    "3k5/9/9/3r5/9/6P2/9/9/9/4K1R2 w - - 0 1",
    "3ak4/4a4/4b4/9/9/9/9/3N1N3/9/4K4 w - - 0 1",
    "4k4/9/9/2P3P2/9/9/9/9/9/3K5 w - - 0 1",
    "4k4/4a4/3a5/4c4/9/9/9/9/9/4KR3 w - - 0 1",
    "2bak4/4a4/4b4/p1p3p1p/4n4/2P6/P3c1P1P/4B4/4A4/2BK1AR2 w - - 0 1",
    "2baka3/9/4b1n2/p3c3p/2p6/6P2/P3P3P/2N1B4/4A4/2BAK4 b - - 0 1",
];

/// Runs the bench; returns (nodes, nodes per second of search time). `report` prints one line per position.
/// The hash table and the histories are cleared before each position, so every search starts alike.
pub fn run(depth: i32, report: bool) -> (u64, u64) {
    let mut total = 0u64;
    let mut elapsed = 0.0;
    let shared = Shared::new(16);
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        shared.new_game();
        shared.stop.store(false, std::sync::atomic::Ordering::Relaxed);
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let start = Instant::now();
        let result = search(&pos, &limits, &Settings::default(), &shared, &Silent);
        elapsed += start.elapsed().as_secs_f64();
        total += result.nodes;
        if report {
            eprintln!(
                "position {:>2}/{}: {:>9} nodes, best {}, score {}",
                i + 1,
                POSITIONS.len(),
                result.nodes,
                result.best.map_or("(none)".into(), |m| m.to_string()),
                result.score
            );
        }
    }
    (total, (total as f64 / elapsed.max(1e-9)) as u64)
}

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
