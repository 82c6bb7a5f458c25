//! The stdin/stdout protocol loop: UCCI, UCI or CECP (XBoard), chosen by the first command.
//!
//! This module parses and prints; what a command means is the engine layer's (`crate::engine`, shared with
//! every protocol). A reader thread turns input lines into events; the loop thread owns the [`Engine`]; a
//! search runs on a thread of its own and reports through [`Out`]. While a search runs, `stop`, `ponderhit`,
//! `isready` and `quit` are answered at once and every other command waits in a queue until the best move is
//! out — nothing is dropped. Bad input of any kind is answered with `info string error: …` and changes nothing.
//! XBoard's protocol, where the engine keeps the game, is in [`cecp`].

use crate::board::Position;
pub mod cecp;

use crate::book::BookMove;
use crate::engine::options::Change;
use crate::engine::{random_u64, Answer, Engine, Plan, Request};
use crate::notation::parse_iccs;
use crate::search::time::Clock;
use crate::search::{mate_moves, mate_plies, Info, Listener};
use crate::tt::Bound;
use crate::types::{Color, Move};
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
    /// CECP: search `id` has ended with this answer (the loop decides whether to play it).
    Finished(u64, Answer),
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
    /// The searching evaluation's model, which normalises the scores reported ([`crate::wdl::Model::to_cp`]).
    scale: &'static crate::wdl::Model,
}

impl Listener for Reporter {
    fn info(&self, i: &Info) {
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
            format_score(self.dialect, self.scale.to_cp(i.score)),
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
    pub engine: Engine,
    out: Out,
    events: Sender<Event>,
    search: Option<Running>,
    queue: VecDeque<String>,
    quitting: bool,
}

impl Session {
    fn new(out: Out, events: Sender<Event>) -> Session {
        Session {
            dialect: Dialect::Unset,
            engine: Engine::default(),
            out,
            events,
            search: None,
            queue: VecDeque::new(),
            quitting: false,
        }
    }

    fn ucci(&self) -> bool {
        self.dialect == Dialect::Ucci
    }

    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error: {msg}"));
    }

    fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// A line that arrives during a search: answered now or queued.
    fn busy(&mut self, line: String) {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("stop") => self.engine.shared().stop.store(true, Relaxed),
            Some("ponderhit") => {
                if words.next() == Some("draw") {
                    if let Some(r) = &self.search {
                        *r.draw_offer.lock().unwrap_or_else(|e| e.into_inner()) = true;
                    }
                }
                self.engine.shared().ponderhit();
            }
            Some("isready") => self.out.line("readyok"),
            Some("quit") => {
                self.quitting = true;
                self.engine.shared().stop.store(true, Relaxed);
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
                for l in self.engine.options.advertise(true) {
                    self.out.line(&l);
                }
                self.out.line("ucciok");
            }
            "uci" => {
                self.dialect = Dialect::Uci;
                self.out.line(&format!("id name Chuhan {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the Chuhan developers");
                for l in self.engine.options.advertise(false) {
                    self.out.line(&l);
                }
                self.out.line("uciok");
            }
            "isready" => self.out.line("readyok"),
            "setoption" => self.setoption(args),
            "ucinewgame" | "uccinewgame" => self.engine.new_game(),
            "position" => match parse_position(args) {
                Ok(p) => self.engine.set_position(p),
                Err(e) => self.error(&format!("{e}; the position is unchanged")),
            },
            "banmoves" => {
                let mut banned = Vec::new();
                for w in args {
                    match parse_iccs(&self.engine.pos, w) {
                        Ok(m) => banned.push(m),
                        Err(e) => return self.keep(|s| s.error(&format!("banmoves: {e}"))),
                    }
                }
                self.engine.banned = banned;
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
                for l in self.engine.pos.to_string().lines() {
                    self.out.line(l);
                }
            }
            "eval" => {
                for l in self.engine.eval_report().lines() {
                    self.out.line(l);
                }
            }
            "bench" => {
                let depth = args.first().and_then(|d| d.parse().ok()).filter(|d| (1..=30).contains(d));
                let (nodes, nps) = self.engine.bench(depth);
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
        match self.engine.set_option(&name, value.as_deref()) {
            Ok(Change::Ignored) => self.out.line(&format!("info string option '{name}' is not used by this engine")),
            Ok(_) => {}
            Err(e) => self.error(&format!("{e}; ignored")),
        }
    }

    fn probe(&self, args: &[&str]) {
        let pos = if args.is_empty() { Ok(self.engine.pos.clone()) } else { parse_position(args) };
        let pos = match pos {
            Ok(p) => p,
            Err(e) => return self.error(&format!("probe: {e}")),
        };
        let Some(e) = self.engine.shared().tt.probe(pos.key()) else { return self.out.line("pophash") };
        let mut s = String::from("pophash");
        if !e.mv.is_null() && pos.is_legal(e.mv) {
            s.push_str(&format!(" bestmove {}", e.mv));
        }
        let score = format_score(Dialect::Ucci, crate::wdl::model(self.engine.options.eval).to_cp(e.score));
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
                &self.engine.pos,
                depth,
                self.engine.options.threads,
                true,
                &mut OutWriter(self.out.clone(), Vec::new()),
            );
            return;
        }
        let req = self.request(&g);
        let job = match self.engine.plan(&req, random_u64()) {
            Plan::Book { moves, choice, ponder } => return self.book_answer(&moves, choice, ponder),
            Plan::Search(job) => job,
        };
        self.engine.arm(&job);
        let offer = Arc::new(Mutex::new(g.draw_offer));
        let shared = Arc::clone(self.engine.shared());
        let out = self.out.clone();
        let dialect = self.dialect;
        let events = self.events.clone();
        let offer2 = Arc::clone(&offer);
        let wdl = self
            .engine
            .options
            .show_wdl
            .then(|| (crate::wdl::model(job.settings.eval), crate::wdl::material(&job.pos)));
        let open_ended = job.open_ended;
        let handle = std::thread::spawn(move || {
            let scale = crate::wdl::model(job.settings.eval);
            let reporter = Reporter { out: out.clone(), dialect, multipv: job.shown, wdl, scale };
            let result = job.run(&shared, &reporter, random_u64());
            let draw = *offer2.lock().unwrap_or_else(|e| e.into_inner());
            answer(&out, dialect, &job.answer(&result, draw));
            let _ = events.send(Event::SearchDone(result.score));
        });
        self.search = Some(Running { handle, draw_offer: offer, open_ended });
    }

    /// A `go` in the engine's terms: the clock in milliseconds (UCCI gives seconds unless `usemillisec`), ours
    /// from the side-specific fields when the dialect gives them, the `searchmoves` read.
    fn request(&self, g: &Go) -> Request {
        let pos = &self.engine.pos;
        let mut only = Vec::new();
        for w in &g.searchmoves {
            match parse_iccs(pos, w) {
                Ok(m) => only.push(m),
                Err(e) => self.error(&format!("searchmoves: {e}")),
            }
        }
        let unit = if self.ucci() && !self.engine.options.use_millisec { 1000.0 } else { 1.0 };
        let ms = |v: f64| (v * unit).round() as u64;
        let red = pos.side_to_move() == Color::Red;
        let (time, inc) = match (g.time, if red { g.wtime } else { g.btime }) {
            (Some(t), _) => (Some(t), g.increment.unwrap_or(0.0)),
            (None, Some(t)) => (Some(t), if red { g.winc } else { g.binc }.unwrap_or(0.0)),
            (None, None) => (None, 0.0),
        };
        Request {
            ponder: g.ponder,
            draw_offer: g.draw_offer,
            depth: g.depth,
            nodes: g.nodes,
            mate: g.mate,
            movetime: g.movetime.map(ms),
            clock: time.map(|t| Clock { time: ms(t), increment: ms(inc), moves_to_go: g.movestogo.unwrap_or(0) }),
            infinite: g.infinite,
            only,
        }
    }

    /// A book move, reported as ElephantEye reports it: one `info` line per book move (UCCI: `info depth 0
    /// score <weight> pv <move>`; UCI: the weight in an `info string` and a normal info line), then `bestmove`
    /// with the book's heaviest reply as the ponder move.
    fn book_answer(&self, moves: &[BookMove], choice: Move, ponder: Option<Move>) {
        for b in moves {
            if self.ucci() {
                self.out.line(&format!("info depth 0 score {} pv {}", b.weight, b.mv));
            } else {
                self.out.line(&format!("info string book move {} weight {}", b.mv, b.weight));
            }
        }
        if !self.ucci() {
            self.out.line(&format!("info depth 1 seldepth 1 multipv 1 score cp 0 nodes 0 nps 0 time 0 pv {choice}"));
        }
        self.out.line(&match ponder {
            Some(p) => format!("bestmove {choice} ponder {p}"),
            None => format!("bestmove {choice}"),
        });
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
        self.engine.search_done(score);
    }
}

/// The best-move line (UCCI adds `draw` when an offered draw is accepted and `resign`).
fn answer(out: &Out, dialect: Dialect, a: &Answer) {
    let Some(best) = a.best else {
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
    if let Some(p) = a.ponder {
        line.push_str(&format!(" ponder {p}"));
    }
    if dialect == Dialect::Ucci {
        if a.accept_draw {
            line.push_str(" draw");
        } else if a.resign {
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

/// Runs the loop until `quit` or end of input. The first command chooses the protocol: `xboard` hands the loop
/// to CECP ([`cecp`]); anything else is UCCI or UCI (`ucci` or `uci`; replies follow UCI until one is seen).
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = channel();
    spawn_reader(input, tx.clone());
    let out = Out::new(output);
    let first = loop {
        match rx.recv() {
            Ok(Event::Line(l)) if l.trim().is_empty() => continue,
            Ok(ev) => break ev,
            Err(_) => return,
        }
    };
    if matches!(&first, Event::Line(l) if l.trim() == "xboard") {
        return cecp::serve(rx, tx, out);
    }
    let mut s = Session::new(out, tx);
    if !on_event(&mut s, first) {
        return;
    }
    while let Ok(ev) = rx.recv() {
        if !on_event(&mut s, ev) {
            return;
        }
    }
}

/// Handles one event of the UCCI/UCI loop; false when the loop should end.
fn on_event(s: &mut Session, ev: Event) -> bool {
    match ev {
        Event::Line(l) if s.searching() => s.busy(l),
        Event::Line(l) => return s.handle(&l),
        Event::SearchDone(score) => {
            s.search_done(Some(score));
            if s.quitting {
                if s.ucci() {
                    s.out.line("bye");
                }
                return false;
            }
            while !s.searching() {
                let Some(l) = s.queue.pop_front() else { break };
                if !s.handle(&l) {
                    return false;
                }
            }
        }
        Event::Finished(..) => {}
        Event::Eof => {
            // End of input: finish what was asked (open-ended searches are stopped), then leave.
            loop {
                if let Some(r) = &s.search {
                    if r.open_ended {
                        s.engine.shared().stop.store(true, Relaxed);
                    }
                    s.search_done(None);
                }
                if s.quitting {
                    break;
                }
                let Some(l) = s.queue.pop_front() else { break };
                if !s.handle(&l) {
                    return false;
                }
            }
            return false;
        }
    }
    true
}
