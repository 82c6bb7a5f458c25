//! The stdin/stdout protocol loop: UCCI or UCI, chosen by the first command.
//!
//! A reader thread turns input lines into events; the loop thread owns the game and the options; a search runs
//! on a thread of its own and reports through [`Out`]. While a search runs, `stop`, `ponderhit`, `isready` and
//! `quit` are answered at once and every other command waits in a queue until the best move is out — nothing
//! is dropped. Bad input of any kind is answered with `info string error: …` and changes nothing.

pub mod options;

use crate::board::Position;
use crate::notation::parse_iccs;
use crate::rules::Rules;
use crate::search::time::{self, Clock};
use crate::search::{self, mate_moves, mate_plies, Info, Limits, Listener, SearchResult, Settings, Shared};
use crate::strength::Strength;
use crate::tt::Bound;
use crate::types::{Color, Move};
use options::{Change, Options};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// No handshake yet: replies follow UCI until `ucci` is seen.
    Unset,
    Ucci,
    Uci,
}

/// Line-atomic, flushed output shared by the loop and the search thread.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub fn new(w: impl Write + Send + 'static) -> Out {
        Out(Arc::new(Mutex::new(Box::new(w))))
    }

    pub fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}

enum Event {
    Line(String),
    /// The search thread has sent its best move; the score it had.
    SearchDone(i32),
    Eof,
}

/// Scores as the dialect prints them: UCI `cp N` / `mate N` (moves), UCCI a bare integer with mates at
/// ±(10000 − plies), as ElephantEye prints them.
pub fn format_score(dialect: Dialect, score: i32) -> String {
    match (dialect, mate_plies(score), mate_moves(score)) {
        (Dialect::Ucci, Some(plies), _) => (score.signum() * (10000 - plies)).to_string(),
        (Dialect::Ucci, None, _) => score.clamp(-9000, 9000).to_string(),
        (_, _, Some(moves)) => format!("mate {moves}"),
        _ => format!("cp {score}"),
    }
}

struct Reporter {
    out: Out,
    dialect: Dialect,
    /// Lines shown (the `MultiPV` option); the search may look at more for `randomness`.
    multipv: usize,
    /// With `UCI_ShowWDL`: the model of the evaluation searching and the root's material.
    wdl: Option<(&'static crate::wdl::Model, i32)>,
    /// The last report of every line, kept for `randomness`.
    lines: Mutex<Vec<Info>>,
}

impl Listener for Reporter {
    fn info(&self, i: &Info) {
        {
            let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
            if lines.len() < i.multipv {
                lines.resize(i.multipv, i.clone());
            }
            lines[i.multipv - 1] = i.clone();
        }
        if i.multipv > self.multipv {
            return;
        }
        let nps = i.nodes * 1000 / i.time_ms.max(1);
        let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
        let bound = match i.bound {
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
            _ => "",
        };
        let multipv = if self.dialect == Dialect::Ucci && self.multipv == 1 {
            String::new()
        } else {
            format!(" multipv {}", i.multipv)
        };
        let wdl = match self.wdl {
            Some((model, material)) => {
                let w = model.wdl(i.score, material);
                format!(" wdl {} {} {}", w.win, w.draw, w.loss)
            }
            None => String::new(),
        };
        self.out.line(&format!(
            "info depth {} seldepth {}{multipv} score {}{bound}{wdl} nodes {} nps {nps} hashfull {} time {} pv {}",
            i.depth,
            i.seldepth,
            format_score(self.dialect, i.score),
            i.nodes,
            i.hashfull,
            i.time_ms,
            pv.join(" ")
        ));
    }

    fn currmove(&self, depth: i32, m: Move, number: usize) {
        self.out.line(&format!("info depth {depth} currmove {m} currmovenumber {number}"));
    }
}

/// Parameters of one `go`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    pub ponder: bool,
    /// UCCI `go draw` or `ponderhit draw`: the opponent offers a draw.
    pub draw_offer: bool,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub mate: Option<i32>,
    pub movetime: Option<f64>,
    pub infinite: bool,
    /// Clock fields as given (UCI in ms; UCCI in s unless usemillisec): ours, and the side-specific ones.
    pub time: Option<f64>,
    pub increment: Option<f64>,
    pub movestogo: Option<u32>,
    pub wtime: Option<f64>,
    pub btime: Option<f64>,
    pub winc: Option<f64>,
    pub binc: Option<f64>,
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
}

/// Parses the words after `go` (both dialects' keywords are understood in either).
pub fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut g = Go::default();
    let mut i = 0;
    let num = |i: usize, what: &str| -> Result<f64, String> {
        words
            .get(i + 1)
            .and_then(|w| w.parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| format!("go {what} needs a non-negative number"))
    };
    while i < words.len() {
        let w = words[i];
        let mut step = 2;
        match w {
            "ponder" => {
                g.ponder = true;
                step = 1;
            }
            "draw" => {
                g.draw_offer = true;
                step = 1;
            }
            "infinite" => {
                g.infinite = true;
                step = 1;
            }
            "depth" => {
                if words.get(i + 1) == Some(&"infinite") {
                    g.infinite = true;
                } else {
                    g.depth = Some(num(i, w)?.min(200.0) as i32);
                }
            }
            "nodes" => g.nodes = Some(num(i, w)? as u64),
            "mate" => g.mate = Some(num(i, w)?.min(200.0) as i32),
            "movetime" => g.movetime = Some(num(i, w)?),
            "time" => g.time = Some(num(i, w)?),
            "increment" => g.increment = Some(num(i, w)?),
            "movestogo" => g.movestogo = Some(num(i, w)?.min(1000.0) as u32),
            "wtime" => g.wtime = Some(num(i, w)?),
            "btime" => g.btime = Some(num(i, w)?),
            "winc" => g.winc = Some(num(i, w)?),
            "binc" => g.binc = Some(num(i, w)?),
            // The opponent's clock: parsed, not used.
            "opptime" | "oppincrement" | "oppmovestogo" => {
                num(i, w)?;
            }
            "perft" => g.perft = Some(num(i, w)?.min(20.0) as u32),
            "searchmoves" => {
                g.searchmoves = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            other => return Err(format!("go: unknown parameter '{}'", other.chars().take(24).collect::<String>())),
        }
        i += step;
    }
    Ok(g)
}

/// The position a `position` (or `probe`) command names.
pub fn parse_position(words: &[&str]) -> Result<Position, String> {
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let mut pos = match words.first() {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&words[1..moves_at].join(" ")).map_err(|e| format!("bad FEN: {e}"))?,
        _ => return Err("expected 'startpos' or 'fen <FEN>'".into()),
    };
    for w in words.iter().skip(moves_at + 1) {
        let m = parse_iccs(&pos, w).map_err(|e| format!("move '{}': {e}", w.chars().take(16).collect::<String>()))?;
        pos.make_move(m);
    }
    Ok(pos)
}

/// A search in progress.
struct Running {
    handle: JoinHandle<()>,
    /// Set when the opponent offers a draw (`ponderhit draw`).
    draw_offer: Arc<Mutex<bool>>,
    /// Infinite or pondering: it ends only when told.
    open_ended: bool,
}

pub struct Session {
    pub dialect: Dialect,
    pub pos: Position,
    pub options: Options,
    banned: Vec<Move>,
    shared: Arc<Shared>,
    out: Out,
    events: Sender<Event>,
    search: Option<Running>,
    queue: VecDeque<String>,
    quitting: bool,
    /// Consecutive searches whose score was hopeless (for `resign`).
    hopeless: u32,
}

impl Session {
    fn new(out: Out, events: Sender<Event>) -> Session {
        let options = Options::default();
        Session {
            dialect: Dialect::Unset,
            pos: Position::startpos(),
            shared: Arc::new(Shared::new(options.hash_mb)),
            options,
            banned: Vec::new(),
            out,
            events,
            search: None,
            queue: VecDeque::new(),
            quitting: false,
            hopeless: 0,
        }
    }

    fn ucci(&self) -> bool {
        self.dialect == Dialect::Ucci
    }

    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error: {msg}"));
    }

    fn rules(&self) -> Rules {
        Rules { set: self.options.rules, natural_limit: self.options.natural_limit_rounds * 2, ..Rules::default() }
    }

    fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// A line that arrives during a search: answered now or queued.
    fn busy(&mut self, line: String) {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("stop") => self.shared.stop.store(true, Relaxed),
            Some("ponderhit") => {
                if words.next() == Some("draw") {
                    if let Some(r) = &self.search {
                        *r.draw_offer.lock().unwrap_or_else(|e| e.into_inner()) = true;
                    }
                }
                self.shared.ponderhit();
            }
            Some("isready") => self.out.line("readyok"),
            Some("quit") => {
                self.quitting = true;
                self.shared.stop.store(true, Relaxed);
            }
            Some(_) => self.queue.push_back(line),
            None => {}
        }
    }

    /// Handles one line while idle; returns false when the loop should end.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return true };
        let args = &words[1..];
        match cmd {
            "ucci" => {
                self.dialect = Dialect::Ucci;
                self.out.line(&format!("id name Chuhan {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id copyright GPL-3.0-or-later");
                self.out.line("id author the Chuhan developers");
                for l in self.options.advertise(true) {
                    self.out.line(&l);
                }
                self.out.line("ucciok");
            }
            "uci" => {
                self.dialect = Dialect::Uci;
                self.out.line(&format!("id name Chuhan {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the Chuhan developers");
                for l in self.options.advertise(false) {
                    self.out.line(&l);
                }
                self.out.line("uciok");
            }
            "isready" => self.out.line("readyok"),
            "setoption" => self.setoption(args),
            "ucinewgame" | "uccinewgame" => self.new_game(),
            "position" => match parse_position(args) {
                Ok(p) => {
                    self.pos = p;
                    self.banned.clear();
                }
                Err(e) => self.error(&format!("{e}; the position is unchanged")),
            },
            "banmoves" => {
                let mut banned = Vec::new();
                for w in args {
                    match parse_iccs(&self.pos, w) {
                        Ok(m) => banned.push(m),
                        Err(e) => return self.keep(|s| s.error(&format!("banmoves: {e}"))),
                    }
                }
                self.banned = banned;
            }
            "go" => self.go(args),
            "stop" => {
                // Nothing to stop: UCCI expects an answer all the same.
                if self.ucci() {
                    self.out.line("nobestmove");
                }
            }
            "ponderhit" => {}
            "probe" => self.probe(args),
            "d" => {
                for l in self.pos.to_string().lines() {
                    self.out.line(l);
                }
            }
            "eval" => {
                // The evaluation that plays, and the handcrafted breakdown after the network's (it explains terms).
                let mut report = String::new();
                if self.options.eval == crate::eval::EvalKind::Nnue {
                    let net = self.options.network.clone().unwrap_or_else(crate::nnue::default_network);
                    let name = if self.options.eval_file.is_empty() { "built-in" } else { &self.options.eval_file };
                    report = crate::nnue::report(&net, name, &self.pos) + "\nhandcrafted evaluation (Eval hce):\n";
                }
                report += &crate::eval::hce::report(&self.pos);
                for l in report.lines() {
                    self.out.line(l);
                }
            }
            "bench" => {
                let depth = args.first().and_then(|d| d.parse().ok()).filter(|d| (1..=30).contains(d));
                let settings =
                    Settings { eval: self.options.eval, network: self.options.network.clone(), ..Settings::default() };
                let (nodes, nps) = crate::bench::run(depth.unwrap_or(crate::bench::DEFAULT_DEPTH), false, &settings);
                self.out.line(&format!("Bench: {nodes} nodes {nps} nps"));
            }
            "quit" => {
                if self.ucci() {
                    self.out.line("bye");
                }
                return false;
            }
            _ => {
                let shown: String = cmd.chars().take(32).collect();
                self.error(&format!("unknown command '{shown}'"));
            }
        }
        true
    }

    fn keep(&self, f: impl FnOnce(&Self)) -> bool {
        f(self);
        true
    }

    fn new_game(&mut self) {
        self.shared.new_game();
        self.hopeless = 0;
    }

    fn setoption(&mut self, args: &[&str]) {
        // UCI: setoption name <words…> [value <words…>]; UCCI: setoption <name> [<value>].
        let (name, value) = if args.first() == Some(&"name") {
            let v = args.iter().position(|&w| w == "value");
            let name = args[1..v.unwrap_or(args.len())].join(" ");
            (name, v.map(|i| args[i + 1..].join(" ")))
        } else {
            match args {
                [] => (String::new(), None),
                [n] => (n.to_string(), None),
                [n, rest @ ..] => (n.to_string(), Some(rest.join(" "))),
            }
        };
        if name.is_empty() {
            return self.error("setoption needs an option name");
        }
        match self.options.set(&name, value.as_deref()) {
            Ok(Change::Set { resize_hash: true }) => {
                self.shared = Arc::new(Shared::new(self.options.hash_mb));
            }
            Ok(Change::Set { .. }) => {}
            Ok(Change::ClearHash) => self.shared.tt.clear(),
            Ok(Change::NewGame) => self.new_game(),
            Ok(Change::Ignored) => self.out.line(&format!("info string option '{name}' is not used by this engine")),
            Err(e) => self.error(&format!("{e}; ignored")),
        }
    }

    fn probe(&self, args: &[&str]) {
        let pos = if args.is_empty() { Ok(self.pos.clone()) } else { parse_position(args) };
        let pos = match pos {
            Ok(p) => p,
            Err(e) => return self.error(&format!("probe: {e}")),
        };
        let Some(e) = self.shared.tt.probe(pos.key()) else { return self.out.line("pophash") };
        let mut s = String::from("pophash");
        if !e.mv.is_null() && pos.is_legal(e.mv) {
            s.push_str(&format!(" bestmove {}", e.mv));
        }
        let score = format_score(Dialect::Ucci, e.score);
        if matches!(e.bound, Bound::Lower | Bound::Exact) {
            s.push_str(&format!(" lowerbound {score} depth {}", e.depth.max(0)));
        }
        if matches!(e.bound, Bound::Upper | Bound::Exact) {
            s.push_str(&format!(" upperbound {score} depth {}", e.depth.max(0)));
        }
        self.out.line(&s);
    }

    fn go(&mut self, args: &[&str]) {
        let g = match parse_go(args) {
            Ok(g) => g,
            Err(e) => {
                self.error(&e);
                // A GUI waits for an answer to every go: give one.
                return self.no_move_answer();
            }
        };
        if let Some(depth) = g.perft {
            crate::board::perft::report(
                &self.pos,
                depth,
                self.options.threads,
                true,
                &mut OutWriter(self.out.clone(), Vec::new()),
            );
            return;
        }
        let mut only = Vec::new();
        for w in &g.searchmoves {
            match parse_iccs(&self.pos, w) {
                Ok(m) => only.push(m),
                Err(e) => self.error(&format!("searchmoves: {e}")),
            }
        }
        // Clock: UCCI times are seconds unless usemillisec; UCI times are milliseconds.
        let unit = if self.ucci() && !self.options.use_millisec { 1000.0 } else { 1.0 };
        let ms = |v: f64| (v * unit).round() as u64;
        let red = self.pos.side_to_move() == Color::Red;
        let (time, inc) = match (g.time, if red { g.wtime } else { g.btime }) {
            (Some(t), _) => (Some(t), g.increment.unwrap_or(0.0)),
            (None, Some(t)) => (Some(t), if red { g.winc } else { g.binc }.unwrap_or(0.0)),
            (None, None) => (None, 0.0),
        };
        let allocation = match (g.movetime, time) {
            (Some(mt), _) => Some(time::fixed(ms(mt), self.options.move_overhead)),
            (None, Some(t)) => Some(time::allocate(
                Clock { time: ms(t), increment: ms(inc), moves_to_go: g.movestogo.unwrap_or(0) },
                self.options.move_overhead,
                self.pos.ply(),
            )),
            (None, None) => None,
        };
        let unlimited = g.depth.is_none() && g.nodes.is_none() && g.mate.is_none() && allocation.is_none();
        let limits_open_ended = g.infinite || unlimited || g.ponder;
        // The book answers a game move at once; analysis (infinite, ponder, searchmoves) always searches.
        if !limits_open_ended && only.is_empty() && self.book_move() {
            return;
        }
        // A move to play (pondering included, analysis not) is where weaker levels and variety apply.
        let game_move = !(g.infinite || unlimited);
        let strength = if game_move { self.options.strength() } else { Strength::full() };
        let limits = Limits {
            depth: g.depth.map(|d| d.max(1)),
            nodes: match (g.nodes, strength.nodes()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            mate: g.mate,
            time: allocation,
            infinite: g.infinite || unlimited,
        };
        // Randomness and weaker levels choose among near-best lines: the search must score a few exactly.
        let margin = if game_move { self.options.randomness.margin() } else { 0 };
        let choosing = margin > 0 || !strength.is_full();
        let settings = Settings {
            threads: self.options.threads,
            multipv: match (margin > 0, strength.is_full()) {
                (_, false) => self.options.multipv.max(strength.candidates()),
                (true, true) => self.options.multipv.max(RANDOM_LINES),
                (false, true) => self.options.multipv,
            },
            rules: self.rules(),
            banned: self.banned.clone(),
            only,
            pruning: self.options.pruning,
            eval: self.options.eval,
            network: self.options.network.clone(),
            contempt: self.options.style.contempt(),
        };
        self.shared.stop.store(false, Relaxed);
        self.shared.pondering.store(g.ponder, Relaxed);
        let offer = Arc::new(Mutex::new(g.draw_offer));
        let pos = self.pos.clone();
        let shared = Arc::clone(&self.shared);
        let out = self.out.clone();
        let dialect = self.dialect;
        let events = self.events.clone();
        let offer2 = Arc::clone(&offer);
        let resign = self.options.resign && self.ucci();
        let hopeless_before = self.hopeless;
        let wdl = self.options.show_wdl.then(|| (crate::wdl::model(settings.eval), crate::wdl::material(&pos)));
        let shown = self.options.multipv;
        let draw_accept = self.options.style.draw_accept();
        let handle = std::thread::spawn(move || {
            let reporter = Reporter { out: out.clone(), dialect, multipv: shown, wdl, lines: Mutex::new(Vec::new()) };
            let mut result = search::search(&pos, &limits, &settings, &shared, &reporter);
            if choosing {
                let lines = reporter.lines.into_inner().unwrap_or_else(|e| e.into_inner());
                let chosen = if strength.is_full() {
                    random_line(&lines, margin, random_u64())
                } else {
                    skill_line(&lines, strength, random_u64())
                };
                if let Some(line) = chosen {
                    result.best = line.pv.first().copied();
                    result.ponder = line.pv.get(1).copied();
                    result.score = line.score;
                }
            }
            let draw = *offer2.lock().unwrap_or_else(|e| e.into_inner());
            answer(&out, dialect, &result, draw.then_some(draw_accept), resign && hopeless_before >= 2);
            let _ = events.send(Event::SearchDone(result.score));
        });
        self.search = Some(Running { handle, draw_offer: offer, open_ended: limits_open_ended });
    }

    /// Plays from the book when it is on and knows the position: one `info` line per book move (UCCI:
    /// `info depth 0 score <weight> pv <move>` as ElephantEye prints them; UCI: a normal info line and the
    /// weight in an `info string`), then `bestmove` with the book's heaviest reply as the ponder move.
    fn book_move(&mut self) -> bool {
        let Some(book) = self.options.book.clone().filter(|_| self.options.use_book) else { return false };
        let game_ply = (self.pos.fullmove().saturating_sub(1)) * 2 + (self.pos.side_to_move() == Color::Black) as u32;
        if game_ply >= self.options.book_depth {
            return false;
        }
        let moves = book.playable(&self.pos, &self.rules(), &self.banned);
        let Some(choice) = crate::book::Book::choose(&moves, random_u64()) else { return false };
        for b in &moves {
            if self.ucci() {
                self.out.line(&format!("info depth 0 score {} pv {}", b.weight, b.mv));
            } else {
                self.out.line(&format!("info string book move {} weight {}", b.mv, b.weight));
            }
        }
        if !self.ucci() {
            self.out.line(&format!("info depth 1 seldepth 1 multipv 1 score cp 0 nodes 0 nps 0 time 0 pv {choice}"));
        }
        let mut next = self.pos.clone();
        next.make_move(choice);
        let ponder = book.moves(&next).first().map(|b| b.mv);
        self.out.line(&match ponder {
            Some(p) => format!("bestmove {choice} ponder {p}"),
            None => format!("bestmove {choice}"),
        });
        true
    }

    /// The reply to a `go` that cannot search.
    fn no_move_answer(&self) {
        if self.ucci() {
            self.out.line("nobestmove");
        } else {
            self.out.line("bestmove (none)");
        }
    }

    fn search_done(&mut self, score: Option<i32>) {
        if let Some(r) = self.search.take() {
            let _ = r.handle.join();
        }
        if let Some(s) = score {
            self.hopeless = if s <= RESIGN_SCORE { self.hopeless + 1 } else { 0 };
        }
    }
}

/// Score at or below which a position is hopeless for `resign` (about a rook and a horse down).
const RESIGN_SCORE: i32 = -1500;
/// Lines searched when `randomness` is on (or more, with a larger `MultiPV`).
const RANDOM_LINES: usize = 4;

/// The lines a move may be chosen from: the last completed depth's exact lines, best first, without those whose
/// score is a mate or rule result against the mover (the best itself excepted).
fn candidates(lines: &[Info]) -> Vec<&Info> {
    let Some(best) = lines.first() else { return Vec::new() };
    lines
        .iter()
        .filter(|l| l.depth == best.depth && l.bound == Bound::Exact && !l.pv.is_empty())
        .filter(|l| l.score > -search::MATE_BOUND || l.multipv == 1)
        .collect()
}

/// A line for `randomness`: among the candidates whose score is within `margin` of the best, chosen with
/// weights falling linearly from the best (weight `margin + 1 − loss`).
fn random_line(lines: &[Info], margin: i32, random: u64) -> Option<&Info> {
    let best = lines.first()?;
    let near: Vec<(&Info, u64)> = candidates(lines)
        .into_iter()
        .filter(|l| best.score - l.score <= margin)
        .map(|l| (l, (margin + 1 - (best.score - l.score)).max(1) as u64))
        .collect();
    let total: u64 = near.iter().map(|c| c.1).sum();
    let mut r = random % total.max(1);
    for (l, w) in &near {
        if r < *w {
            return Some(l);
        }
        r -= w;
    }
    Some(best)
}

/// A line for a level below full strength: a candidate chosen by its score loss (`Strength::choose`).
fn skill_line(lines: &[Info], strength: Strength, random: u64) -> Option<&Info> {
    let best = lines.first()?;
    let cands = candidates(lines);
    let losses: Vec<i32> = cands.iter().map(|l| best.score - l.score).collect();
    cands.get(strength.choose(&losses, random)).copied().or(Some(best))
}

/// A random number for the book's choice: the clock's nanoseconds and a counter through SplitMix64, so that
/// two choices in the same nanosecond differ.
fn random_u64() -> u64 {
    use std::sync::atomic::AtomicU64;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut z = nanos ^ COUNTER.fetch_add(0x9e37_79b9_7f4a_7c15, Relaxed);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The best-move line; `draw_offer` is the highest score at which an offered draw is accepted, when one is.
fn answer(out: &Out, dialect: Dialect, r: &SearchResult, draw_offer: Option<i32>, resign: bool) {
    let Some(best) = r.best else {
        if dialect == Dialect::Ucci {
            out.line("info depth 0 score -10000");
            out.line("nobestmove");
        } else {
            out.line("info depth 0 score mate 0");
            out.line("bestmove (none)");
        }
        return;
    };
    let mut line = format!("bestmove {best}");
    if let Some(p) = r.ponder {
        line.push_str(&format!(" ponder {p}"));
    }
    if dialect == Dialect::Ucci {
        if draw_offer.is_some_and(|limit| r.score <= limit) {
            line.push_str(" draw");
        } else if resign && r.score <= RESIGN_SCORE {
            line.push_str(" resign");
        }
    }
    out.line(&line);
}

/// Adapts [`Out`] to `io::Write`, one output line per text line however the writes are split.
struct OutWriter(Out, Vec<u8>);

impl Write for OutWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                self.0.line(&String::from_utf8_lossy(&self.1));
                self.1.clear();
            } else {
                self.1.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.1.is_empty() {
            self.0.line(&String::from_utf8_lossy(&self.1));
            self.1.clear();
        }
        Ok(())
    }
}

fn spawn_reader(input: impl BufRead + Send + 'static, events: Sender<Event>) {
    std::thread::spawn(move || {
        for line in input.split(b'\n') {
            let Ok(bytes) = line else { break };
            // Lines that are not UTF-8 are read lossily; a NUL or other control bytes just make an unknown command.
            let text = String::from_utf8_lossy(&bytes).trim_end_matches('\r').to_string();
            if events.send(Event::Line(text)).is_err() {
                return;
            }
        }
        let _ = events.send(Event::Eof);
    });
}

/// Runs the loop until `quit` or end of input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = channel();
    spawn_reader(input, tx.clone());
    let mut s = Session::new(Out::new(output), tx);
    while let Ok(ev) = rx.recv() {
        match ev {
            Event::Line(l) if s.searching() => s.busy(l),
            Event::Line(l) => {
                if !s.handle(&l) {
                    return;
                }
            }
            Event::SearchDone(score) => {
                s.search_done(Some(score));
                if s.quitting {
                    if s.ucci() {
                        s.out.line("bye");
                    }
                    return;
                }
                while !s.searching() {
                    let Some(l) = s.queue.pop_front() else { break };
                    if !s.handle(&l) {
                        return;
                    }
                }
            }
            Event::Eof => {
                // End of input: finish what was asked (open-ended searches are stopped), then leave.
                loop {
                    if let Some(r) = &s.search {
                        if r.open_ended {
                            s.shared.stop.store(true, Relaxed);
                        }
                        s.search_done(None);
                    }
                    if s.quitting {
                        break;
                    }
                    let Some(l) = s.queue.pop_front() else { break };
                    if !s.handle(&l) {
                        return;
                    }
                }
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(multipv: usize, score: i32, mv: &str, bound: Bound) -> Info {
        Info {
            depth: 9,
            seldepth: 12,
            multipv,
            score,
            bound,
            nodes: 1000,
            time_ms: 10,
            hashfull: 0,
            pv: vec![mv.parse().unwrap()],
        }
    }

    /// Randomness picks only exact lines within the margin, in proportion to `margin + 1 − loss`.
    #[test]
    fn random_lines_within_the_margin() {
        let lines = vec![
            line(1, 100, "h2e2", Bound::Exact),
            line(2, 90, "b2e2", Bound::Exact),
            line(3, 85, "c3c4", Bound::Upper),
            line(4, 40, "g3g4", Bound::Exact),
        ];
        let pick = |margin, r| random_line(&lines, margin, r).unwrap().pv[0].to_string();
        // Margin 15: h2e2 (weight 16) and b2e2 (weight 6); c3c4 is only a bound, g3g4 too far.
        let mut counts = std::collections::HashMap::new();
        for r in 0..22 {
            *counts.entry(pick(15, r)).or_insert(0) += 1;
        }
        assert_eq!(counts.get("h2e2"), Some(&16));
        assert_eq!(counts.get("b2e2"), Some(&6));
        assert_eq!(counts.len(), 2);
        assert_eq!(pick(0, 12345), "h2e2");
        assert_eq!(pick(60, 112), "g3g4", "weights 61, 51, 1: the last of 113");
        assert_eq!(pick(60, 111), "b2e2");
        // A lost line is never chosen when the best is not lost, by randomness or by a weak level.
        let lost = vec![line(1, 10, "h2e2", Bound::Exact), line(2, -search::MATE_BOUND, "b2e2", Bound::Exact)];
        for r in 0..50 {
            assert_eq!(random_line(&lost, 1_000_000, r).unwrap().pv[0].to_string(), "h2e2");
            assert_eq!(skill_line(&lost, Strength::level(0), r << 58).unwrap().pv[0].to_string(), "h2e2");
        }
    }

    /// A weak level plays worse exact lines with chances falling with their loss; bounds and lines past the
    /// level's largest loss never.
    #[test]
    fn skill_lines_by_score_loss() {
        let lines = vec![
            line(1, 100, "h2e2", Bound::Exact),
            line(2, 40, "b2e2", Bound::Exact),
            line(3, 90, "c3c4", Bound::Upper),
            line(4, -900, "g3g4", Bound::Exact),
        ];
        let level0 = Strength::level(0); // T = 300, largest loss 900
        let mut counts = std::collections::HashMap::new();
        for i in 0..1000u64 {
            *counts
                .entry(skill_line(&lines, level0, i.wrapping_mul(u64::MAX / 1000)).unwrap().pv[0].to_string())
                .or_insert(0) += 1;
        }
        // Weights 1 and e^(-0.2) = 0.82: about 55 % and 45 %; c3c4 is a bound, g3g4 past the largest loss.
        assert_eq!(counts.len(), 2, "{counts:?}");
        assert!((500..600).contains(&counts["h2e2"]), "{counts:?}");
        // Full strength always plays the best.
        assert_eq!(skill_line(&lines, Strength::full(), u64::MAX).unwrap().pv[0].to_string(), "h2e2");
    }
}
