//! `chuhan datagen`: self-play games at a fixed node count, the training data of the network (`chuhan train`)
//! and of the handcrafted evaluation's tuner (`chuhan tune`, with `--text`).
//!
//! Game `i` of seed `S` is always the same game: it starts from a built-in opening and `random-plies` random
//! moves that lose no material (by SEE), chosen by a generator seeded with (S, i), and is dropped when the first search finds it unbalanced
//! (|score| > `balance`). Games are judged by the referee (Chinese rules), and adjudicated when the search is
//! sure (beyond ±2000 for eight plies: a win; within ±10 for twelve plies after ply 80: a draw) or after 300
//! plies (a draw).
//!
//! The default output is the binary game file (`xqg`): chunks of whole games, appended as games finish.
//! A killed run leaves at most a half-written chunk, which the next run with the same `--out` cuts off before
//! it plays the games that are missing, so no game is lost or written twice. `--shard K/N` plays the games
//! whose index is K modulo N: N processes (or machines) with the same seed make disjoint parts of one data set,
//! and `chuhan datagen merge` joins them.
//!
//! `--text` writes the tuner's format instead, one quiet position a line (`FEN | result | score`, both from
//! Red's side: not in check, best move not a capture, no mate score), appended and not resumable.

use super::args::{in_range, shard, EvalArgs};
use super::openings;
use super::progress::Progress;
use super::xqg::{self, Game};
use crate::eval::EvalKind;
use crate::nnue::Network;
use crate::rng::Rng;
use crate::rules::{game_state, GameResult, Rules};
use crate::search::{search, Limits, Settings, Shared, Silent, MATE_BOUND};
use crate::types::Color;
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::sync::Mutex;

/// How games are played.
#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    pub nodes: u64,
    pub random_plies: usize,
    /// Games whose first search scores beyond this (evaluation units) are dropped.
    pub balance: i32,
    /// The evaluation the games are played with (a network plays the games that train the next one).
    pub eval: EvalKind,
    pub network: Option<Arc<Network>>,
}

const WIN_SCORE: i32 = 2000;
const WIN_PLIES: u32 = 8;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: u32 = 12;
const DRAW_AFTER_PLY: usize = 80;
const MAX_PLIES: usize = 300;

/// Plays game `index`; `None` when its opening is unbalanced.
pub fn play(index: u64, cfg: &Config) -> Option<Game> {
    // The state the generator had before it was shared (seed ^ golden-ratio multiple of index + 1, odd).
    let mut rng = Rng::from_state(cfg.seed ^ (index + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let suite = openings::built_in();
    let mut pos = suite[rng.below(suite.len())].position();
    for _ in 0..cfg.random_plies {
        // Random, but not a move that loses material at once (most random moves would hang a piece).
        let moves: Vec<_> = pos.legal_moves().iter().copied().filter(|&m| pos.see_ge(m, 0)).collect();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    let start = pos.to_fen();
    let rules = Rules::default();
    let shared = Shared::new(4);
    let limits = Limits { nodes: Some(cfg.nodes), ..Limits::default() };
    let settings = Settings { eval: cfg.eval, network: cfg.network.clone(), ..Settings::default() };
    let mut moves = Vec::new();
    let (mut sure, mut last_sign, mut quiet) = (0, 0, 0);
    let result = loop {
        let v = game_state(&pos, &rules);
        if v.is_over() {
            break match v.result {
                GameResult::RedWins => 2,
                GameResult::BlackWins => 0,
                _ => 1,
            };
        }
        if moves.len() >= MAX_PLIES {
            break 1;
        }
        shared.stop.store(false, Relaxed);
        let found = search(&pos, &limits, &settings, &shared, &Silent);
        let Some(best) = found.best else { break if pos.side_to_move() == Color::Red { 0 } else { 2 } };
        if moves.is_empty() && found.score.abs() > cfg.balance {
            return None;
        }
        let red_score = if pos.side_to_move() == Color::Red { found.score } else { -found.score };
        moves.push((best, found.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
        let sign = if red_score >= WIN_SCORE {
            1
        } else if red_score <= -WIN_SCORE {
            -1
        } else {
            0
        };
        sure = if sign != 0 && sign == last_sign { sure + 1 } else { (sign != 0) as u32 };
        last_sign = sign;
        if sure >= WIN_PLIES {
            break if sign > 0 { 2 } else { 0 };
        }
        quiet = if red_score.abs() <= DRAW_SCORE { quiet + 1 } else { 0 };
        if quiet >= DRAW_PLIES && moves.len() >= DRAW_AFTER_PLY {
            break 1;
        }
        pos.make_move(best);
    };
    Some(Game { seed: cfg.seed, index, result, start, moves })
}

/// The tuner's lines for a game: its quiet positions with Red's result and Red's score.
fn text_lines(g: &Game) -> String {
    let mut text = String::new();
    let result = ["0", "0.5", "1"][g.result as usize];
    let _ = g.replay(|pos, m, score| {
        let score = score as i32;
        if !pos.in_check() && !pos.is_capture(m) && score.abs() < WIN_SCORE {
            let red = if pos.side_to_move() == Color::Red { score } else { -score };
            text.push_str(&format!("{} | {result} | {red}\n", pos.to_fen()));
        }
    });
    text
}

/// Where the output stands: the games already in a game file (cut back to its intact chunks).
fn resume(path: &str) -> Result<HashSet<(u64, u64)>, String> {
    let Ok(bytes) = std::fs::read(path) else { return Ok(HashSet::new()) };
    let c = xqg::decode(&bytes);
    if let Some(d) = &c.damage {
        eprintln!("datagen: {path}: {d}; cutting the file back to its {} intact games", c.games.len());
        let f = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("datagen: {path}: {e}"))?;
        f.set_len(c.valid_len as u64).map_err(|e| format!("datagen: {path}: {e}"))?;
    }
    Ok(c.games.iter().map(|g| (g.seed, g.index)).collect())
}

/// Games written per chunk: a kill loses at most this many finished games (per thread), which the next run
/// plays again.
const CHUNK_GAMES: usize = 16;

#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Examples:
  chuhan datagen --games 10000 --nodes 5000 --threads 2 --seed 1 --out data/gen0-s1.xqg
  chuhan datagen --games 10000 --seed 1 --shard 3/8 --out data/s1-3.xqg     (one of 8 disjoint shards)
  chuhan datagen --games 10000 --seed 73 --evalfile nnue/net8.nnue --out data/gen9-s73.xqg
  chuhan datagen --games 5000 --first 10000 --seed 11 --out data/gen1-s11.xqg     (numbers 10000..15000 added)
  chuhan datagen merge --out data/s1.xqg data/s1-*.xqg

Run the same command again after a kill: the games already in the file are kept and only the missing ones \
are played."
)]
pub struct DatagenArgs {
    #[command(subcommand)]
    pub command: Option<DatagenCommand>,
    /// Games to play (game numbers 0..N of this seed, or from --first on)
    #[arg(long, default_value_t = 1000, value_parser = in_range(1u64..=100_000_000_000))]
    pub games: u64,
    /// The first game number: the run plays numbers F..F+N (a game's number and the seed reproduce it)
    #[arg(long, value_name = "F", default_value_t = 0, value_parser = in_range(0u64..=100_000_000_000))]
    pub first: u64,
    /// The game file to write (appended to, so that a run resumes)
    #[arg(long, value_name = "FILE", required = true)]
    pub out: Option<String>,
    /// Nodes searched per move
    #[arg(long, default_value_t = 6000, value_parser = in_range(100u64..=100_000_000))]
    pub nodes: u64,
    /// Games played at once
    #[arg(long, default_value_t = 1, value_parser = in_range(1usize..=256))]
    pub threads: usize,
    /// Seed of the openings and the game numbers
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random moves (losing no material) after the built-in opening line
    #[arg(long, default_value_t = 6, value_parser = in_range(0usize..=40))]
    pub random_plies: usize,
    /// Drop an opening whose first search scores beyond this (centipawn-like units)
    #[arg(long, value_name = "UNITS", default_value_t = 500, value_parser = in_range(0i32..=MATE_BOUND))]
    pub balance: i32,
    /// Play only the games whose number is K mod N (0 <= K < N): N such runs make the whole set, disjointly
    #[arg(long, value_name = "K/N", value_parser = shard)]
    pub shard: Option<(u64, u64)>,
    /// Write text lines (FEN, result, score) instead of the binary game file (for `chuhan tune`)
    #[arg(long)]
    pub text: bool,
    #[command(flatten)]
    pub eval: EvalArgs,
    /// No progress bar or lines
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(clap::Subcommand, Debug)]
pub enum DatagenCommand {
    /// Join game files: the intact games of every input, each (seed, game number) once
    Merge(MergeArgs),
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The merged file
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// The files to merge
    #[arg(required = true, value_name = "IN")]
    pub inputs: Vec<String>,
}

/// `chuhan datagen …` or `chuhan datagen merge …`
pub fn run(args: DatagenArgs) -> Result<(), String> {
    if let Some(DatagenCommand::Merge(m)) = args.command {
        return merge(m);
    }
    let games = args.games;
    let mut cfg = Config {
        seed: args.seed,
        nodes: args.nodes,
        random_plies: args.random_plies,
        balance: args.balance,
        eval: EvalKind::Hce,
        network: None,
    };
    (cfg.eval, cfg.network) = args.eval.resolve().map_err(|e| format!("datagen: {e}"))?;
    let threads = args.threads;
    let (shard, shards) = args.shard.unwrap_or((0, 1));
    let text = args.text;
    let path = args.out.ok_or("datagen: give --out FILE")?;
    let done_before = if text { HashSet::new() } else { resume(&path)? };
    let todo: Vec<u64> = (args.first..args.first + games)
        .filter(|g| g % shards == shard && !done_before.contains(&(cfg.seed, *g)))
        .collect();
    if !done_before.is_empty() {
        // Numbers whose opening was dropped as unbalanced leave nothing in the file, so they count as missing
        // again: each costs one search before it is dropped once more.
        eprintln!(
            "datagen: {path} has {} games; playing the {} missing (with the openings dropped before)",
            done_before.len(),
            todo.len()
        );
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("datagen: cannot write '{path}': {e}"))?;
    let out = Mutex::new((file, Vec::<Game>::new()));
    let (played, positions, dropped) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let start = std::time::Instant::now();
    let total = todo.len() as u64;
    let bar = Progress::new("datagen", total, args.quiet);
    // Writes the waiting games as one chunk (text: as lines), synced, so that a kill cannot tear it.
    let flush = |(file, pending): &mut (std::fs::File, Vec<Game>)| -> std::io::Result<()> {
        if pending.is_empty() {
            return Ok(());
        }
        let bytes = if text {
            pending.iter().map(text_lines).collect::<String>().into_bytes()
        } else {
            xqg::encode_chunk(cfg.seed, cfg.nodes.min(u32::MAX as u64) as u32, pending)
        };
        file.write_all(&bytes)?;
        file.sync_data()?;
        pending.clear();
        Ok(())
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    let failure: Mutex<Option<String>> = Mutex::new(None);
    pool.install(|| {
        todo.par_iter().for_each(|&g| {
            let game = play(g, &cfg);
            let n = played.fetch_add(1, Relaxed) + 1;
            let p = positions.fetch_add(game.as_ref().map_or(0, |g| g.moves.len() as u64), Relaxed);
            let d = dropped.fetch_add(u64::from(game.is_none()), Relaxed) + u64::from(game.is_none());
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            o.1.extend(game);
            if o.1.len() >= CHUNK_GAMES {
                if let Err(e) = flush(&mut o) {
                    *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                }
            }
            bar.inc(1);
            if n.is_multiple_of(16) || n == total {
                let secs = start.elapsed().as_secs_f64();
                let rate = p as f64 * 3600.0 / secs;
                bar.set_message(format!("{d} dropped as unbalanced, {p} positions, {rate:.0} positions/h"));
            }
        });
    });
    bar.finish();
    let (n, p, secs) = (played.into_inner(), positions.into_inner(), start.elapsed().as_secs_f64());
    let d = dropped.into_inner();
    if !args.quiet {
        // `scripts/datagen-cluster.sh` looks for "games, … positions in" to know a shard finished.
        let rate = p as f64 * 3600.0 / secs;
        eprintln!(
            "datagen: {n} games, {p} positions in {secs:.0} s ({rate:.0} positions/h); {} written, {d} dropped as \
             unbalanced openings",
            n - d
        );
    }
    flush(&mut out.lock().unwrap_or_else(|e| e.into_inner())).map_err(|e| format!("datagen: {path}: {e}"))?;
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(format!("datagen: {path}: {e}")),
        None => Ok(()),
    }
}

/// `chuhan datagen merge --out FILE IN…`: the intact games of every input, each (seed, index) once, in the order
/// of (seed, index), chunked per seed: the same games give the same file byte for byte, however they were
/// sharded, ordered or resumed.
fn merge(args: MergeArgs) -> Result<(), String> {
    let (path, inputs) = (args.out, args.inputs);
    let mut seen = HashSet::new();
    let mut games = Vec::new();
    for input in &inputs {
        games.extend(xqg::read(input)?.into_iter().filter(|g| seen.insert((g.seed, g.index))));
    }
    games.sort_by_key(|g| (g.seed, g.index));
    let total = games.len();
    let mut bytes = Vec::new();
    // Chunks of at most 4096 games keep every chunk's payload far below its 4 GiB length field.
    for chunk in games.chunk_by(|a, b| a.seed == b.seed).flat_map(|seed| seed.chunks(4096)) {
        bytes.extend(xqg::encode_chunk(chunk[0].seed, 0, chunk));
    }
    std::fs::write(&path, bytes).map_err(|e| format!("datagen merge: {path}: {e}"))?;
    eprintln!("datagen merge: {total} games from {} files into {path}", inputs.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    const CFG: Config =
        Config { seed: 7, nodes: 300, random_plies: 4, balance: 400, eval: EvalKind::Hce, network: None };

    #[test]
    fn games_are_reproducible_and_legal() {
        let a = (0..6).filter_map(|i| play(i, &CFG)).collect::<Vec<_>>();
        let b = (0..6).filter_map(|i| play(i, &CFG)).collect::<Vec<_>>();
        assert_eq!(a, b);
        assert!(a.len() >= 3, "{} balanced openings of 6", a.len());
        for g in &a {
            assert!(g.result <= 2 && !g.moves.is_empty());
            g.replay(|_, _, _| {}).unwrap();
            for line in text_lines(g).lines() {
                let f: Vec<&str> = line.split(" | ").collect();
                assert!(Position::from_fen(f[0]).is_ok() && ["0", "0.5", "1"].contains(&f[1]), "{line}");
                assert!(f[2].parse::<i32>().unwrap().abs() < WIN_SCORE);
            }
        }
    }

    #[test]
    fn shards() {
        assert_eq!(shard("1/4"), Ok((1, 4)));
        for bad in ["4/4", "1", "a/2", "1/0"] {
            assert!(shard(bad).is_err(), "{bad}");
        }
    }
}
