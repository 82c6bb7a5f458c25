//! `chuhan datagen`: self-play games at a fixed node count, every quiet position written with the game's
//! result — the training data of the evaluation tuner.
//!
//! Games start from the built-in openings followed by a few random moves (so that no two games are alike),
//! are judged by the referee, and are adjudicated when the search is sure of the result (a score beyond
//! ±2000 for eight plies in a row) or when they run past 300 plies (a draw). A line of output is
//! `<FEN> | <result> | <score>`, both from Red's point of view: the result 1 (Red won), 0.5 or 0, and the
//! score the search gave the position (the evaluation's internal units), which the tuner can blend in as a
//! less noisy target than a result shared by a whole game.

use super::cli::Args;
use super::openings;
use crate::rules::{game_state, GameResult, Rules};
use crate::search::{search, Limits, Settings, Shared, Silent};
use crate::types::{Color, Move};
use rayon::prelude::*;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// A small, seedable generator (xorshift64*), so that a seed reproduces the data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Plays one game; returns its quiet positions (FENs with Red's search score) and Red's result.
fn play(game: u64, seed: u64, nodes: u64, random_plies: usize) -> (Vec<(String, i32)>, f64) {
    let mut rng = Rng(seed ^ (game + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let suite = openings::built_in();
    let mut pos = suite[rng.below(suite.len())].position();
    let rules = Rules::default();
    for _ in 0..random_plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves.as_slice()[rng.below(moves.len())]);
    }
    let shared = Shared::new(4);
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let settings = Settings::default();
    let mut fens = Vec::new();
    let mut sure = 0;
    let mut last_sign = 0;
    for _ in 0..300 {
        let v = game_state(&pos, &rules);
        if v.is_over() {
            let r = match v.result {
                GameResult::RedWins => 1.0,
                GameResult::BlackWins => 0.0,
                _ => 0.5,
            };
            return (fens, r);
        }
        shared.stop.store(false, Relaxed);
        let result = search(&pos, &limits, &settings, &shared, &Silent);
        let Some(best) = result.best else { break };
        let red_score = if pos.side_to_move() == Color::Red { result.score } else { -result.score };
        // Quiet positions only: not in check, best move not a capture, score not a mate.
        if !pos.in_check() && !pos.is_capture(best) && result.score.abs() < 2000 {
            fens.push((pos.to_fen(), red_score));
        }
        let sign = if red_score >= 2000 {
            1
        } else if red_score <= -2000 {
            -1
        } else {
            0
        };
        sure = if sign != 0 && sign == last_sign { sure + 1 } else { (sign != 0) as u32 };
        last_sign = sign;
        if sure >= 8 {
            return (fens, if sign > 0 { 1.0 } else { 0.0 });
        }
        let m: Move = best;
        pos.make_move(m);
    }
    (fens, 0.5)
}

/// `chuhan datagen --games N --out FILE [--nodes N] [--threads T] [--seed S] [--random-plies K]`
pub fn run(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv);
    if let Some(f) = args.unknown(&["games", "out", "nodes", "threads", "seed", "random-plies"]) {
        return Err(format!("datagen: unknown flag --{f}"));
    }
    let games = args.number("games", 1000u64, 1..=100_000_000)?;
    let nodes = args.number("nodes", 6000u64, 100..=100_000_000)?;
    let threads = args.number("threads", 1usize, 1..=256)?;
    let seed = args.number("seed", 1u64, 0..=u64::MAX)?;
    let random_plies = args.number("random-plies", 6usize, 0..=40)?;
    let path = args.value("out").ok_or("datagen: give --out FILE")?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("datagen: cannot write '{path}': {e}"))?;
    let out = Mutex::new(std::io::BufWriter::new(file));
    let done = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let start = std::time::Instant::now();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    pool.install(|| {
        (0..games).into_par_iter().for_each(|g| {
            let (fens, result) = play(g, seed, nodes, random_plies);
            let mut text = String::new();
            for (f, score) in &fens {
                text.push_str(&format!("{f} | {result} | {score}\n"));
            }
            let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
            let _ = w.write_all(text.as_bytes());
            let n = done.fetch_add(1, Relaxed) + 1;
            let p = positions.fetch_add(fens.len() as u64, Relaxed) + fens.len() as u64;
            if n.is_multiple_of(100) || n == games {
                let _ = w.flush();
                eprintln!("{n}/{games} games, {p} positions, {:.0} s", start.elapsed().as_secs_f64());
            }
        });
    });
    out.lock().unwrap_or_else(|e| e.into_inner()).flush().map_err(|e| e.to_string())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn games_are_reproducible_and_labelled() {
        let (a, ra) = play(3, 7, 300, 4);
        let (b, rb) = play(3, 7, 300, 4);
        assert_eq!((a.len(), ra), (b.len(), rb));
        assert_eq!(a, b);
        assert!([0.0, 0.5, 1.0].contains(&ra));
        for (f, score) in &a {
            assert!(Position::from_fen(f).is_ok());
            assert!(score.abs() < 2000);
        }
    }
}
