//! `chuhan match`: engine-vs-engine matches with Chinese-rules adjudication.
//!
//! Workers each own one process per engine (started once, restarted after a crash or a hang) and play game
//! pairs: every opening twice, colours swapped. The referee ends games (mate, stalemate, repetition verdicts,
//! natural limit, material); so do illegal moves, flag falls, crashes, resignations, agreed draws, score
//! adjudication and the length limit. The main thread collects results, prints progress, writes the PGN and
//! JSON, and stops the match as soon as an SPRT decides.

pub mod engine;
mod merge;
mod report;
pub mod stats;

use super::args::{in_range, rule_set, shard};
use super::openings::{self, Opening};
use super::progress::Progress;
use super::records::{self, pgn};
use crate::board::Position;
use crate::rules::{game_state, GameResult, Reason, RuleSet, Rules};
use crate::types::{Color, Move};
use engine::{Engine, EngineSpec, Failure, GoParams, Proto};
use report::{Heading, Results};
use stats::{Sprt, Tally};
use std::collections::{HashMap, HashSet};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{channel, Sender};
use std::time::Duration;

/// `moves/base+increment` in seconds (`40/60+0.5`, `10+0.1`, `60`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl TimeControl {
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("--tc '{text}' is not [moves/]seconds[+increment], like 10+0.1 or 40/60");
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?), r),
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0).ok_or_else(bad);
        let (base, inc) = (secs(base)?, secs(inc)?);
        if base <= 0.0 {
            return Err(bad());
        }
        Ok(TimeControl { moves, base_ms: (base * 1000.0) as u64, inc_ms: (inc * 1000.0) as u64 })
    }

    pub fn pgn(&self) -> String {
        let base = self.base_ms as f64 / 1000.0;
        let inc = self.inc_ms as f64 / 1000.0;
        match self.moves {
            Some(m) => format!("{m}/{base}+{inc}"),
            None => format!("{base}+{inc}"),
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub engines: [EngineSpec; 2],
    pub games: u64,
    /// This run's part of the match (K, N): the game pairs whose number is K modulo N (`--shard`).
    pub shard: (u64, u64),
    pub concurrency: usize,
    pub tc: Option<TimeControl>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub openings: Vec<Opening>,
    pub rules: Rules,
    pub pgn: Option<String>,
    pub json: Option<String>,
    pub sprt: Option<Sprt>,
    /// (consecutive moves, score): both engines agree one side is lost.
    pub resign: Option<(u32, i32)>,
    /// (from move number, consecutive moves, score): both engines see a draw.
    pub draw: Option<(u32, u32, i32)>,
    /// Full moves after which the game is a draw.
    pub max_moves: Option<u32>,
    /// Time a flag may overrun, in ms.
    pub margin_ms: u64,
    /// How long to wait for a move under a depth or node limit before calling the engine hung.
    pub hang_timeout: Duration,
    pub event: String,
    pub quiet: bool,
    /// Continue a stopped match: the games already in the PGN file count and are not played again.
    pub resume: bool,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number.
    pub index: u64,
    /// Which engine played Red (0 or 1).
    pub red: usize,
    pub fen: String,
    pub moves: Vec<Move>,
    /// What the engine said of each of its moves (score, depth, time), in cutechess-cli's shape; empty for the
    /// opening's moves. One per move.
    pub notes: Vec<String>,
    pub result: GameResult,
    pub reason: String,
}

impl GameRecord {
    /// Points of engine 0.
    pub fn points_first(&self) -> f64 {
        let red_points = match self.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            _ => 0.5,
        };
        if self.red == 0 {
            red_points
        } else {
            1.0 - red_points
        }
    }
}

fn reason_text(r: Reason) -> &'static str {
    match r {
        Reason::Checkmate => "checkmate",
        Reason::Stalemate => "stalemate",
        Reason::PerpetualCheck => "perpetual check",
        Reason::ForbiddenRepetition => "forbidden repetition",
        Reason::RepetitionDraw => "repetition draw",
        Reason::NaturalLimit => "natural move limit",
        Reason::InsufficientMaterial => "insufficient material",
        Reason::Unfinished => "unfinished",
    }
}

/// A worker's engines: started on first use, dropped (killed) after a failure so the next game restarts them.
struct Seats<'a> {
    specs: &'a [EngineSpec; 2],
    engines: [Option<Engine>; 2],
}

impl Seats<'_> {
    fn get(&mut self, i: usize) -> Result<&mut Engine, String> {
        if self.engines[i].is_none() {
            self.engines[i] = Some(Engine::start(&self.specs[i])?);
        }
        Ok(self.engines[i].as_mut().expect("just started"))
    }

    fn drop_engine(&mut self, i: usize) {
        if let Some(mut e) = self.engines[i].take() {
            e.kill();
        }
    }
}

/// The moves the referee would punish at once: UCCI engines are told with `banmoves`.
fn losing_repetitions(pos: &Position, rules: &Rules) -> Vec<Move> {
    if !pos.may_repeat() && pos.ply() < 4 {
        return Vec::new();
    }
    let mover = pos.side_to_move();
    let mut p = pos.clone();
    let mut banned = Vec::new();
    let legal = pos.legal_moves();
    for &m in legal.iter() {
        p.make_move(m);
        let v = game_state(&p, rules);
        if matches!(v.reason, Reason::PerpetualCheck | Reason::ForbiddenRepetition)
            && v.result == GameResult::win_for(!mover)
        {
            banned.push(m);
        }
        p.unmake_move();
    }
    if banned.len() == legal.len() {
        banned.clear();
    }
    banned
}

/// Plays one game; `None` if the match was stopped meanwhile. `Err` when an engine cannot be started at all.
fn play_game(
    seats: &mut Seats,
    cfg: &Config,
    index: u64,
    red: usize,
    opening: &Opening,
    stop: &AtomicBool,
) -> Result<Option<GameRecord>, String> {
    let mut pos = opening.position();
    let mut moves = opening.moves.clone();
    let mut notes = vec![String::new(); moves.len()];
    for i in 0..2 {
        if seats.get(i)?.new_game().is_err() {
            seats.drop_engine(i);
            seats.get(i)?.new_game().map_err(|f| format!("{} failed to start a game: {f:?}", cfg.engines[i].name))?;
        }
    }
    let base = cfg.tc.map_or(0, |t| t.base_ms) as i64;
    let inc = cfg.tc.map_or(0, |t| t.inc_ms) as i64;
    let mut clock = [base, base];
    let mut made = [0u32; 2];
    let mut offer: Option<Color> = None;
    let mut resign_runs = [(0u32, 0u32); 2]; // (consecutive hopeless, consecutive winning) per side
    let mut draw_runs = [0u32; 2];
    let start_ply = pos.ply();
    let finish = |result: GameResult, reason: String, moves: Vec<Move>, notes: &[String]| {
        let mut notes = notes.to_vec();
        notes.resize(moves.len(), String::new());
        Ok(Some(GameRecord { index, red, fen: opening.fen.clone(), moves, notes, result, reason }))
    };
    loop {
        if stop.load(Relaxed) {
            return Ok(None);
        }
        let v = game_state(&pos, &cfg.rules);
        if v.is_over() {
            return finish(v.result, reason_text(v.reason).to_string(), moves, &notes);
        }
        if let Some(max) = cfg.max_moves {
            if (pos.ply() - start_ply) as u32 >= 2 * max {
                return finish(GameResult::Draw, "maximum length".into(), moves, &notes);
            }
        }
        let side = pos.side_to_move();
        let who = if side == Color::Red { red } else { 1 - red };
        let lose = |why: String, moves: Vec<Move>| finish(GameResult::win_for(!side), why, moves, &notes);
        let banned =
            if cfg.engines[who].proto == Proto::Ucci { losing_repetitions(&pos, &cfg.rules) } else { Vec::new() };
        let moves_to_go = cfg.tc.and_then(|t| t.moves).map(|m| m - made[side.index()] % m);
        // An engine's own movetime replaces the match's limit for it.
        let own = cfg.engines[who].movetime;
        let (tc, movetime) = if own.is_some() { (None, own) } else { (cfg.tc, cfg.movetime) };
        let params = GoParams {
            clocks: tc.map(|_| [(clock[0].max(1) as u64, inc as u64), (clock[1].max(1) as u64, inc as u64)]),
            moves_to_go,
            movetime,
            depth: if own.is_some() { None } else { cfg.depth },
            nodes: if own.is_some() { None } else { cfg.nodes },
            draw_offer: offer == Some(!side),
        };
        let timeout = if tc.is_some() {
            Duration::from_millis(clock[side.index()].max(0) as u64 + cfg.margin_ms)
        } else if let Some(mt) = movetime {
            Duration::from_millis(mt + cfg.margin_ms.max(1000))
        } else {
            cfg.hang_timeout
        };
        let red_to_move = side == Color::Red;
        let engine = seats.get(who)?;
        let reply = engine.go(&opening.fen, &moves, &banned, red_to_move, &params, timeout);
        let reply = match reply {
            Ok(r) => r,
            Err(Failure::Crashed) => {
                seats.drop_engine(who);
                return lose(format!("{} crashed", cfg.engines[who].name), moves);
            }
            Err(Failure::TimedOut) => {
                seats.drop_engine(who);
                let why = if tc.is_some() || movetime.is_some() { "time forfeit" } else { "engine hung" };
                return lose(format!("{why} ({})", cfg.engines[who].name), moves);
            }
        };
        let used = reply.elapsed.as_millis() as i64;
        let limit = tc.map(|_| clock[side.index()]).or(movetime.map(|m| m as i64));
        if let Some(l) = limit {
            if used > l + cfg.margin_ms as i64 {
                seats.drop_engine(who);
                return lose(format!("time forfeit ({})", cfg.engines[who].name), moves);
            }
        }
        if reply.resign {
            return lose(format!("{} resigns", cfg.engines[who].name), moves);
        }
        let Some(text) = reply.text else {
            return lose(format!("{} gave no move", cfg.engines[who].name), moves);
        };
        let m = match cfg.engines[who].read_move(&text) {
            Some(m) if pos.is_legal(m) => m,
            _ => return lose(format!("illegal move {text} ({})", cfg.engines[who].name), moves),
        };
        pos.make_move(m);
        moves.push(m);
        notes.push(move_note(reply.score, reply.depth, reply.elapsed));
        made[side.index()] += 1;
        if cfg.tc.is_some() {
            clock[side.index()] += inc - used;
            if let Some(per) = cfg.tc.and_then(|t| t.moves) {
                if made[side.index()] % per == 0 {
                    clock[side.index()] += base;
                }
            }
        }
        // Draw offers: two in a row agree a draw.
        if reply.draw {
            if offer == Some(!side) {
                return finish(GameResult::Draw, "draw agreed".into(), moves, &notes);
            }
            offer = Some(side);
        } else if offer == Some(!side) {
            offer = None;
        }
        // Score adjudication: both engines must agree.
        if let Some(score) = reply.score {
            let s = side.index();
            if let Some((count, threshold)) = cfg.resign {
                resign_runs[s] = (
                    if score <= -threshold { resign_runs[s].0 + 1 } else { 0 },
                    if score >= threshold { resign_runs[s].1 + 1 } else { 0 },
                );
                for c in Color::ALL {
                    if resign_runs[c.index()].0 >= count && resign_runs[(!c).index()].1 >= count {
                        return finish(GameResult::win_for(!c), "adjudication: resign score".into(), moves, &notes);
                    }
                }
            }
            if let Some((from_move, count, threshold)) = cfg.draw {
                let full_moves = ((pos.ply() - start_ply) / 2) as u32;
                draw_runs[s] = if full_moves >= from_move && score.abs() <= threshold { draw_runs[s] + 1 } else { 0 };
                if draw_runs[0] >= count && draw_runs[1] >= count {
                    return finish(GameResult::Draw, "adjudication: draw score".into(), moves, &notes);
                }
            }
        }
    }
}

/// A move's comment as cutechess-cli writes it: the score in pawns from the mover's side (`+M`/`-M` for
/// mates), the depth, the time used: `+0.35/12 0.245s`.
fn move_note(score: Option<i32>, depth: Option<i32>, elapsed: Duration) -> String {
    let score = match score {
        None => String::new(),
        Some(s) if s >= 100_000 => "+M".into(),
        Some(s) if s <= -100_000 => "-M".into(),
        Some(s) => format!("{}{}.{:02}", if s < 0 { "-" } else { "+" }, s.abs() / 100, s.abs() % 100),
    };
    let depth = depth.map_or(String::new(), |d| format!("/{d}"));
    let sep = if score.is_empty() && depth.is_empty() { "" } else { " " };
    format!("{score}{depth}{sep}{:.3}s", elapsed.as_secs_f64())
}

/// A game in PGN: standard xiangqi tags, moves in ICCS (`H2-E2`), each move's note as a comment.
pub fn to_pgn(g: &GameRecord, cfg: &Config, date: &str) -> String {
    let names = [&cfg.engines[0].name, &cfg.engines[1].name];
    let (red, black) = (names[g.red], names[1 - g.red]);
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", cfg.event.clone()),
        ("Site", "?".into()),
        ("Date", date.into()),
        ("Round", (g.index + 1).to_string()),
        ("Red", red.clone()),
        ("Black", black.clone()),
        ("Result", g.result.pgn().into()),
    ];
    if g.fen != crate::board::START_FEN {
        tags.push(("FEN", g.fen.clone()));
    }
    tags.push(("Format", "ICCS".into()));
    if let Some(tc) = cfg.tc {
        tags.push(("TimeControl", tc.pgn()));
    }
    // What `chuhan match merge` needs to report the shards as one match.
    tags.push(("Limit", limit_text(cfg)));
    tags.push(("Rules", cfg.rules.set.name().to_string()));
    tags.push(("Termination", g.reason.to_string()));
    let pos = Position::from_fen(&g.fen).expect("game FENs are valid");
    pgn::write(&tags, &pos, &g.moves, &[], &g.notes, g.result.pgn())
}

/// The limit the games were played at, as the report and the PGN's `Limit` tag give it.
fn limit_text(cfg: &Config) -> String {
    if let Some(tc) = cfg.tc {
        format!("tc {}", tc.pgn())
    } else if let Some(mt) = cfg.movetime {
        format!("{mt} ms/move")
    } else if let Some(n) = cfg.nodes {
        format!("{n} nodes/move")
    } else {
        format!("depth {}", cfg.depth.unwrap_or(10))
    }
}

/// How many of a match's `games` shard (K, N) plays: those of the pairs numbered K modulo N.
fn games_of_shard(games: u64, (k, n): (u64, u64)) -> u64 {
    let pairs = games / 2;
    let whole_pairs = pairs / n + u64::from(pairs % n > k);
    // An odd last game is pair `pairs` alone.
    whole_pairs * 2 + u64::from(games % 2 == 1 && pairs % n == k)
}

/// The report's heading for this match.
fn heading(cfg: &Config) -> Heading {
    Heading {
        engines: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
        limit: limit_text(cfg),
        rules: cfg.rules.set.name().to_string(),
        sprt: cfg.sprt,
        games: games_of_shard(cfg.games, cfg.shard),
    }
}

/// Runs a match; returns the tally.
pub fn run_match(cfg: &Config) -> Result<Tally, String> {
    // Every engine must start before anything is played.
    for spec in &cfg.engines {
        Engine::start(spec)?.quit();
    }
    let date = pgn::today();
    let played = match cfg.resume {
        true => games_played(cfg)?,
        false => Vec::new(),
    };
    let done: HashSet<u64> = played.iter().map(|g| g.index).collect();
    let mut pgn = match &cfg.pgn {
        Some(path) => {
            let mut options = std::fs::OpenOptions::new();
            match cfg.resume {
                true => options.create(true).append(true),
                false => options.create(true).write(true).truncate(true),
            };
            Some(options.open(path).map_err(|e| format!("cannot write '{path}': {e}"))?)
        }
        None => None,
    };
    let stop = AtomicBool::new(false);
    let next_pair = AtomicU64::new(0);
    let pairs = cfg.games.div_ceil(2);
    let (tx, rx) = channel::<Result<GameRecord, String>>();
    let heading = heading(cfg);
    let mut results = Results::default();
    for g in played {
        results.add(g.index, g.points_first(), &g.reason);
    }
    if results.sprt_decided(cfg.sprt) {
        stop.store(true, Relaxed);
    }
    if !done.is_empty() && !cfg.quiet {
        eprintln!("{} (resumed: {} games from the PGN file)", results.progress(&heading), done.len());
    }
    let mut error = None;
    // In a log the per-game lines are the progress: no periodic lines besides.
    let bar = Progress::new("match", cfg.games, cfg.quiet || !std::io::stderr().is_terminal());
    bar.inc(done.len() as u64);
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(pairs.max(1) as usize) {
            let tx: Sender<Result<GameRecord, String>> = tx.clone();
            let (stop, next_pair, done) = (&stop, &next_pair, &done);
            scope.spawn(move || {
                let mut seats = Seats { specs: &cfg.engines, engines: [None, None] };
                loop {
                    let pair = next_pair.fetch_add(1, Relaxed);
                    if pair >= pairs || stop.load(Relaxed) {
                        break;
                    }
                    if pair % cfg.shard.1 != cfg.shard.0 {
                        continue;
                    }
                    let opening = opening_of(cfg, pair * 2);
                    for k in 0..2 {
                        let index = pair * 2 + k;
                        if index >= cfg.games {
                            break;
                        }
                        if done.contains(&index) {
                            continue;
                        }
                        match play_game(&mut seats, cfg, index, k as usize, opening, stop) {
                            Ok(Some(g)) => {
                                let _ = tx.send(Ok(g));
                            }
                            Ok(None) => break,
                            Err(e) => {
                                let _ = tx.send(Err(e));
                                stop.store(true, Relaxed);
                                break;
                            }
                        }
                    }
                }
                for i in 0..2 {
                    if let Some(e) = seats.engines[i].take() {
                        e.quit();
                    }
                }
            });
        }
        drop(tx);
        for msg in rx {
            match msg {
                Err(e) => error = Some(e),
                Ok(g) => {
                    if let Some(f) = pgn.as_mut() {
                        let _ = f.write_all(to_pgn(&g, cfg, &date).as_bytes());
                        let _ = f.flush();
                    }
                    results.add(g.index, g.points_first(), &g.reason);
                    if results.sprt_decided(cfg.sprt) {
                        stop.store(true, Relaxed);
                    }
                    // A bar on a terminal; one line a game in a log.
                    bar.inc(1);
                    match bar.is_bar() {
                        true => bar.set_message(results.progress(&heading)),
                        false if !cfg.quiet => eprintln!("{}", results.progress(&heading)),
                        false => {}
                    }
                    if let Some(path) = &cfg.json {
                        let _ = std::fs::write(path, results.summary_json(&heading) + "\n");
                    }
                }
            }
        }
    });
    bar.finish();
    if let Some(e) = error {
        return Err(e);
    }
    print!("{}", results.report(&heading));
    if let Some(path) = &cfg.json {
        std::fs::write(path, results.summary_json(&heading) + "\n")
            .map_err(|e| format!("cannot write '{path}': {e}"))?;
    }
    Ok(results.tally)
}

/// The opening of game `index` (both games of a pair share one).
fn opening_of(cfg: &Config, index: u64) -> &Opening {
    &cfg.openings[((index / 2) as usize) % cfg.openings.len()]
}

/// The finished games of the match's PGN file, for `--resume`: each must be one this match would play (its
/// round, its engines, its opening), else the match was started with other arguments and mixing the two
/// would corrupt the result. Unfinished games (no result: a kill while writing) are played again.
fn games_played(cfg: &Config) -> Result<Vec<GameRecord>, String> {
    let path = cfg.pgn.as_deref().ok_or("--resume needs --pgn FILE (the games played so far)")?;
    if !std::path::Path::new(path).exists() {
        return Ok(Vec::new());
    }
    let names = [&cfg.engines[0].name, &cfg.engines[1].name];
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for game in records::read_file(std::path::Path::new(path))? {
        // The result token closes the move text: a game without one was torn by a kill while it was written.
        let Some(result) = game.result.as_deref().and_then(GameResult::from_pgn) else { continue };
        let round = game.tag("Round").and_then(|r| r.parse::<u64>().ok()).filter(|&r| r >= 1);
        let index = round.ok_or_else(|| format!("{path}: a game without a Round number"))? - 1;
        let what = format!("{path}: game {}", index + 1);
        if index >= cfg.games {
            return Err(format!("{what} is past this match's {} games", cfg.games));
        }
        if !seen.insert(index) {
            return Err(format!("{what} is in the file twice"));
        }
        let (red, black) = (game.tag("Red").unwrap_or("?"), game.tag("Black").unwrap_or("?"));
        let red_seat = match (red, black) {
            (r, b) if r == names[0] && b == names[1] => 0,
            (r, b) if r == names[1] && b == names[0] => 1,
            _ => return Err(format!("{what} is {red} vs {black}, not a game between {} and {}", names[0], names[1])),
        };
        let played = game.replay(game.moves.len()).map_err(|e| format!("{what}: {e}"))?;
        let (fen, moves) = (played.start.to_fen(), played.moves);
        let opening = opening_of(cfg, index);
        let opening_fen = Position::from_fen(&opening.fen).map(|p| p.to_fen()).unwrap_or_default();
        if fen != opening_fen || !moves.starts_with(&opening.moves) {
            return Err(format!(
                "{what} did not start from this match's opening {} (resume with the same --openings and --seed)",
                index / 2 + 1
            ));
        }
        let reason = game.tag("Termination").unwrap_or("?").to_string();
        let notes = vec![String::new(); moves.len()];
        out.push(GameRecord { index, red: red_seat, fen: opening.fen.clone(), moves, notes, result, reason });
    }
    Ok(out)
}

fn key_values(text: &str, keys: &[&str]) -> Result<HashMap<String, f64>, String> {
    let mut out = HashMap::new();
    for kv in text.split_whitespace() {
        let (k, v) = kv.split_once('=').ok_or_else(|| format!("'{kv}' is not key=value"))?;
        if !keys.contains(&k) {
            return Err(format!("unknown key '{k}' (expected {})", keys.join(", ")));
        }
        out.insert(k.to_string(), v.parse::<f64>().map_err(|_| format!("'{v}' is not a number"))?);
    }
    Ok(out)
}

#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Examples:
  chuhan match --engine cmd=target/release/chuhan name=new --engine cmd=./chuhan-old name=old \\
               --tc 10+0.1 --games 400 --concurrency 2 --pgn m.pgn --json m.json
  chuhan match --engine cmd=./eleeye proto=ucci option.usebook=false --engine cmd=chuhan option.Eval=nnue \\
               --movetime 100 --sprt \"elo0=0 elo1=10\"
  chuhan match --engine … --engine … --nodes 5000 --games 1000 --shard 3/8 --resume --pgn out/shard-3.pgn
  chuhan match merge out/shard-*.pgn --json out/merged.json      (one report over the 8 shards)

An engine is key=value words: cmd=PATH (required), arg=A (repeatable), name=N, dir=D, proto=uci|ucci
(default uci), notation=standard|fairy, movetime=MS (this engine's own time per move in place of the match's
limit), option.NAME=VALUE (repeatable)."
)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// An engine (give it twice): cmd=PATH [arg=A]… [proto=uci|ucci] [name=N] [dir=D] [option.X=V]…
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., required = true, action = clap::ArgAction::Append)]
    pub engine: Vec<String>,
    /// The words of each `--engine`, one list per occurrence (filled from the parsed matches: clap's derive
    /// flattens repeated multi-word flags into one list).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// Words added in front of both engines' words (e.g. option.Hash=64)
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,
    /// Games to play (default: two per opening, or until the SPRT decides)
    #[arg(long, value_parser = in_range(1u64..=10_000_000))]
    pub games: Option<u64>,
    /// Pairs of games (each opening with colours swapped)
    #[arg(long, conflicts_with = "games", value_parser = in_range(1u64..=5_000_000))]
    pub rounds: Option<u64>,
    /// Games played at once
    #[arg(long, default_value_t = 1, value_parser = in_range(1usize..=256))]
    pub concurrency: usize,
    /// Clock: BASE+INC in seconds (10+0.1) or MOVES/BASE (40/60)
    #[arg(long, value_name = "TC", conflicts_with = "movetime", value_parser = TimeControl::parse)]
    pub tc: Option<TimeControl>,
    /// Fixed time per move in milliseconds
    #[arg(long, value_name = "MS", value_parser = in_range(1u64..=3_600_000))]
    pub movetime: Option<u64>,
    /// Fixed nodes per move
    #[arg(long, value_parser = in_range(1u64..=u64::MAX))]
    pub nodes: Option<u64>,
    /// Fixed depth per move
    #[arg(long, value_parser = in_range(1u32..=100))]
    pub depth: Option<u32>,
    /// Openings: a file of FEN or `FEN moves …` lines, a PGN or an XQF file (default: the built-in set)
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Shuffle the openings with this seed
    #[arg(long)]
    pub seed: Option<u64>,
    /// Repetition rules: chinese (the default) or asian
    #[arg(long, value_name = "chinese|asian", value_parser = rule_set)]
    pub rules: Option<RuleSet>,
    /// Write every game to this PGN file
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<String>,
    /// Write the running summary to this JSON file after every game
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Stop early by a sequential test: "elo0=0 elo1=5 alpha=0.05 beta=0.05"
    #[arg(long, value_name = "SPEC", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// Adjudicate a loss when both engines agree: "movecount=3 score=1000"
    #[arg(long, value_name = "SPEC")]
    pub resign: Option<String>,
    /// Adjudicate a draw: "movenumber=40 movecount=8 score=10"
    #[arg(long, value_name = "SPEC")]
    pub draw: Option<String>,
    /// Adjudicate a draw after this many moves
    #[arg(long, value_parser = in_range(1u32..=100_000))]
    pub maxmoves: Option<u32>,
    /// Milliseconds an engine may overstep its clock before it loses on time
    #[arg(long, value_name = "MS", default_value_t = 100, value_parser = in_range(0u64..=60_000))]
    pub timemargin: u64,
    /// Seconds without a reply before an engine is declared hung (it loses the game)
    #[arg(long, value_name = "S", default_value_t = 60, value_parser = in_range(1u64..=86_400))]
    pub hang_timeout: u64,
    /// The PGN's Event tag
    #[arg(long, default_value = "Chuhan match")]
    pub event: String,
    /// Only the final report (no progress)
    #[arg(long, short)]
    pub quiet: bool,
    /// Continue a stopped match from its --pgn file: give the same arguments; the games in the file count and
    /// are not played again, new ones are appended
    #[arg(long, requires = "pgn")]
    pub resume: bool,
    /// Play only part K of N of the match (the game pairs numbered K modulo N), for many machines; the shards'
    /// PGN files together hold the games of the whole match, numbered as in it
    #[arg(long, value_name = "K/N", value_parser = shard)]
    pub shard: Option<(u64, u64)>,
}

#[derive(clap::Subcommand, Debug)]
pub enum MatchCommand {
    /// One report (W/D/L, Elo, pentanomial, SPRT) over the PGN files of a match's shards
    Merge(Box<merge::MergeArgs>),
}

/// The configuration of `chuhan match` from its parsed command line.
pub fn config_from_args(args: MatchArgs) -> Result<Config, String> {
    let each: Vec<String> = args.each.iter().flat_map(|w| w.split_whitespace()).map(String::from).collect();
    let mut specs = Vec::new();
    for words in &args.engines {
        let mut w = each.clone();
        w.extend(words.iter().cloned());
        specs.push(EngineSpec::parse(&w)?);
    }
    if specs.len() != 2 {
        return Err(format!("match: give exactly two --engine, got {}", specs.len()));
    }
    if specs[0].name == specs[1].name {
        specs[1].name.push_str("-2");
    }
    let (tc, movetime, nodes, depth) = (args.tc, args.movetime, args.nodes, args.depth);
    if tc.is_none() && movetime.is_none() && nodes.is_none() && depth.is_none() {
        return Err("match: give a limit: --tc 10+0.1, --movetime MS, --nodes N or --depth D".into());
    }
    let mut openings = match args.openings.clone() {
        Some(path) => {
            let text = std::fs::read(&path).map_err(|e| format!("cannot read '{path}': {e}"))?;
            if records::xqf::is_xqf(&text) {
                // An XQF record: its start and main line make one opening.
                let g = records::xqf::read(&text).map_err(|e| format!("{path}: {e}"))?;
                let start = g.start().map_err(|e| format!("{path}: {e}"))?;
                let line = match g.moves.is_empty() {
                    true => start.to_fen(),
                    false => format!("{} moves {}", start.to_fen(), g.moves.join(" ")),
                };
                openings::parse(&line).map_err(|e| format!("{path}: {e}"))?
            } else {
                openings::parse(&pgn::decode(&text).0).map_err(|e| format!("{path}: {e}"))?
            }
        }
        None => openings::built_in(),
    };
    if let Some(seed) = args.seed {
        let mut x = seed;
        // Fisher–Yates with a xorshift generator: a reproducible order per seed.
        for i in (1..openings.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            openings.swap(i, (x % (i as u64 + 1)) as usize);
        }
    }
    let mut rules = Rules::default();
    if let Some(r) = args.rules {
        rules.set = r;
    }
    let sprt = args.sprt;
    let shard = args.shard.unwrap_or((0, 1));
    if sprt.is_some() && shard.1 > 1 {
        return Err("match: --sprt decides on the whole match, not on one shard: play the shards with --games N \
                    and give --sprt to `chuhan match merge`"
            .into());
    }
    let games = match (args.games, args.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => 2 * r,
        (None, None) if sprt.is_some() => 1_000_000,
        (None, None) => 2 * openings.len() as u64,
    };
    let resign = match &args.resign {
        Some(t) => {
            let kv = key_values(t, &["movecount", "score"]).map_err(|e| format!("--resign: {e}"))?;
            Some((
                kv.get("movecount").copied().unwrap_or(3.0) as u32,
                kv.get("score").copied().unwrap_or(1000.0) as i32,
            ))
        }
        None => None,
    };
    let draw = match &args.draw {
        Some(t) => {
            let kv = key_values(t, &["movenumber", "movecount", "score"]).map_err(|e| format!("--draw: {e}"))?;
            Some((
                kv.get("movenumber").copied().unwrap_or(40.0) as u32,
                kv.get("movecount").copied().unwrap_or(8.0) as u32,
                kv.get("score").copied().unwrap_or(10.0) as i32,
            ))
        }
        None => None,
    };
    Ok(Config {
        engines: [specs[0].clone(), specs[1].clone()],
        games,
        concurrency: args.concurrency,
        tc,
        movetime,
        nodes,
        depth,
        openings,
        rules,
        pgn: args.pgn,
        json: args.json,
        sprt,
        resign,
        draw,
        max_moves: args.maxmoves,
        margin_ms: args.timemargin,
        hang_timeout: Duration::from_secs(args.hang_timeout),
        event: args.event,
        quiet: args.quiet,
        resume: args.resume,
        shard,
    })
}

/// `chuhan match …` or `chuhan match merge …`
pub fn run(args: MatchArgs) -> Result<(), String> {
    if let Some(MatchCommand::Merge(m)) = args.command {
        return merge::run(*m);
    }
    let cfg = config_from_args(args)?;
    let fixed = cfg.nodes.is_some() || cfg.depth.is_some();
    if let Some(w) = repeat_warning(cfg.games, cfg.openings.len(), fixed) {
        eprintln!("{w}");
    }
    run_match(&cfg).map(|_| ())
}

/// A warning for a match that plays each opening more than once a colour under a fixed node count or depth:
/// one engine thread then plays the same moves each time, so the repeats replay the same games and the report's
/// error bars count as independent what is one game several times (the built-in set makes about two hundred
/// different games; `scripts/openings-from-datagen.py` makes a larger set).
fn repeat_warning(games: u64, openings: usize, fixed: bool) -> Option<String> {
    let per_colour = games.div_ceil(2 * openings.max(1) as u64);
    (fixed && per_colour > 1).then(|| {
        format!(
            "match: warning: {games} games over {openings} openings play each about {per_colour} times a colour; \
             with --nodes or --depth the repeats are the same games, so the error bars are too narrow \
             (give --openings a file of at least {} lines)",
            games.div_ceil(2)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays are flagged only where they are replays: a fixed limit and an opening used twice a colour.
    #[test]
    fn repeated_openings_under_a_fixed_limit_are_flagged() {
        assert_eq!(repeat_warning(212, 106, true), None);
        assert_eq!(repeat_warning(800, 106, false), None);
        let w = repeat_warning(800, 106, true).expect("a warning");
        assert!(w.contains("each about 4 times a colour") && w.contains("at least 400 lines"), "{w}");
        assert!(repeat_warning(214, 106, true).is_some());
        assert!(repeat_warning(10, 0, true).is_some());
    }

    #[test]
    fn time_controls() {
        assert_eq!(TimeControl::parse("10+0.1"), Ok(TimeControl { moves: None, base_ms: 10_000, inc_ms: 100 }));
        assert_eq!(TimeControl::parse("40/60"), Ok(TimeControl { moves: Some(40), base_ms: 60_000, inc_ms: 0 }));
        assert_eq!(TimeControl::parse("0.5+0.05").unwrap().base_ms, 500);
        for bad in ["", "x", "0", "10+-1", "0/10", "10+", "/10"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(TimeControl::parse("10+0.1").unwrap().pgn(), "10+0.1");
    }

    #[test]
    fn shards_share_the_games() {
        for games in [1, 2, 7, 8, 9, 400, 401] {
            for n in [1, 2, 3, 8] {
                let shares: Vec<u64> = (0..n).map(|k| games_of_shard(games, (k, n))).collect();
                assert_eq!(shares.iter().sum::<u64>(), games, "{games} games in {n} shards: {shares:?}");
                let by_rule = |k| (0..games).filter(|i| (i / 2) % n == k).count() as u64;
                assert_eq!(shares, (0..n).map(by_rule).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn move_notes() {
        let ms = Duration::from_millis;
        assert_eq!(move_note(Some(35), Some(12), ms(245)), "+0.35/12 0.245s");
        assert_eq!(move_note(Some(-1207), Some(3), ms(1500)), "-12.07/3 1.500s");
        assert_eq!(move_note(Some(-5), None, ms(0)), "-0.05 0.000s");
        assert_eq!(move_note(Some(100_000), Some(9), ms(10)), "+M/9 0.010s");
        assert_eq!(move_note(Some(-100_000), Some(1), ms(10)), "-M/1 0.010s");
        assert_eq!(move_note(None, None, ms(7)), "0.007s");
    }
}
