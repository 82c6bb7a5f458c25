//! The bench: a fixed-depth search of fixed positions, one thread, fresh hash table — the signature that every
//! commit changing search or evaluation quotes (`Bench: <nodes> nodes <nps> nps`). Run by `chuhan bench` and
//! by the protocol's `bench` command; its positions also serve the evaluation's tests and benchmarks.

use crate::board::perft::REFERENCES;
use crate::board::{Position, START_FEN};
use crate::search::{search, Limits, Settings, Shared, Silent};
use std::time::Instant;

/// Deep enough to exercise the pruning, short enough to run in seconds.
pub const DEFAULT_DEPTH: i32 = 12;

/// Openings (from the start, a few moves in), then the perft reference positions other than the start, then
/// endings.
const OPENINGS: [&str; 10] = [
    START_FEN,
    "r1bakabr1/9/1cn3n1c/p3p1pRp/2p6/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB2 w - - 10 6",
    "r1bakabnr/9/2n4c1/p3p1p1p/2p6/6P2/PcP1P3P/1C4C1N/9/RNBAKAB1R w - - 6 4",
    "rnbakabr1/9/1c2c1n2/p3p1p1p/2p6/6P2/P1P1P3P/1C2B1NC1/9/RN1AKABR1 w - - 8 5",
    "rnbakab1r/9/4c1nc1/p1p1p3p/6p2/9/P1P1P1P1P/1CN3N1C/9/R1BAKAB1R w - - 6 4",
    "r1bakabr1/9/1cn1c1n2/p3p1p1p/2p6/7R1/P1P1P1P1P/1CN1C1N2/9/R1BAKAB2 w - - 10 6",
    "1rbakabnr/9/2n1c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKABR1 b - - 7 4",
    "1rbakab1r/9/2n3n2/p3p1p1p/2p6/2P6/Pc2P1PcP/2N1C1N2/1C7/R1BAKABR1 w - - 12 7",
    "r1bakabr1/9/2n3nc1/p3p1p1p/1cp6/4PNP2/P1P5P/1C2C4/9/RNBAKAB1R w - - 10 6",
    "rnbakab2/9/1c2c1n2/p1p1p1p1p/7r1/2P6/P3P1P1P/1C2C1N2/9/RNBAKABR1 w - - 8 5",
];

const ENDINGS: [&str; 9] = [
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

/// The bench positions: openings, middlegames and endings, the perft reference positions among them.
pub fn positions() -> Vec<&'static str> {
    let references = REFERENCES.iter().skip(1).map(|r| r.fen);
    OPENINGS.into_iter().chain(references).chain(ENDINGS).collect()
}

/// Runs the bench; returns (nodes, nodes per second of search time). `report` prints one line per position.
/// The hash table and the histories are cleared before each position, so every search starts alike. Only
/// `settings`' evaluation is used (the signature is one thread, default settings otherwise).
pub fn run(depth: i32, report: bool, settings: &Settings) -> (u64, u64) {
    let settings = Settings { eval: settings.eval, network: settings.network.clone(), ..Settings::default() };
    let mut total = 0u64;
    let mut elapsed = 0.0;
    let shared = Shared::new(16);
    let positions = positions();
    for (i, fen) in positions.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        shared.new_game();
        shared.stop.store(false, std::sync::atomic::Ordering::Relaxed);
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let start = Instant::now();
        let result = search(&pos, &limits, &settings, &shared, &Silent);
        elapsed += start.elapsed().as_secs_f64();
        total += result.nodes;
        if report {
            eprintln!(
                "position {:>2}/{}: {:>9} nodes, best {}, score {}",
                i + 1,
                positions.len(),
                result.nodes,
                result.best.map_or("(none)".into(), |m| m.to_string()),
                result.score
            );
        }
    }
    (total, (total as f64 / elapsed.max(1e-9)) as u64)
}
