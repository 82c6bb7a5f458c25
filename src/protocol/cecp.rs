//! The XBoard/WinBoard protocol (CECP v2), for XBoard, WinBoard and the match tools that speak it.
//!
//! Chosen when the first command is `xboard`. Unlike UCCI and UCI the engine keeps the game: XBoard sends the
//! opponent's moves (`usermove h2e2`) and the engine plays its own side when it is on move, until `force`.
//! Moves are ICCS coordinates (files a–i, ranks 0–9 from Red's side), as XBoard writes them for xiangqi;
//! `setboard` takes XBoard's FEN (`H` horse, `E` elephant, no castling fields) as well as ours. Every command
//! is answered at once, during a search too: commands that change the game stop the search first (its move is
//! then not played). What a command means is the engine layer's ([`Engine`]); this module parses and prints.

use super::{spawn_reader, Event, Out};
use crate::board::Position;
use crate::engine::options::Change;
use crate::engine::{random_u64, Answer, Engine, Plan, Request};
use crate::notation::parse_iccs;
use crate::rules::{game_state, GameResult};
use crate::search::time::Clock;
use crate::search::{mate_moves, Info, Listener, Shared};
use crate::types::{Color, Move};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// XBoard's mate scores: 100000 + moves to mate, negative when mated.
const MATE_SCORE: i32 = 100_000;

/// The clock XBoard sets: `level MPS BASE INC` (moves per session, minutes, seconds) or `st SECONDS`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeControl {
    moves_per_session: u32,
    increment_ms: u64,
    /// A fixed time per move (`st`), instead of a clock.
    per_move_ms: Option<u64>,
}

/// What a running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Our move: played when the search ends.
    Move,
    /// On the opponent's time, expecting this reply: becomes `Move` when it comes (ponder hit).
    Ponder(Move),
    /// `analyze` mode: ends only when told, nothing played.
    Analyze,
}

struct Running {
    id: u64,
    purpose: Purpose,
    handle: JoinHandle<()>,
    /// The shared state of this search (an option may give the engine a new one while it runs).
    shared: Arc<Shared>,
    draw_offer: Arc<Mutex<bool>>,
    started: Instant,
}

/// The search's reports as XBoard shows them: `ply score time nodes pv` (time in centiseconds), when `post` is on.
struct Thinking {
    out: Out,
    post: Arc<AtomicBool>,
    /// The last report, for `.` (analysis status).
    last: Arc<Mutex<Option<Info>>>,
    /// The searching evaluation's model, which normalises the scores shown.
    scale: &'static crate::wdl::Model,
}

/// A score in XBoard's units: normalised centipawns ([`crate::wdl::Model::to_cp`]), mates as ±(100000 + moves).
pub fn xboard_score(score: i32) -> i32 {
    match mate_moves(score) {
        Some(m) if m > 0 => MATE_SCORE + m,
        Some(m) => -MATE_SCORE + m,
        None => score,
    }
}

impl Listener for Thinking {
    fn info(&self, i: &Info) {
        if i.multipv != 1 {
            return;
        }
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(i.clone());
        if self.post.load(Relaxed) {
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
            let cs = i.time_ms / 10;
            self.out.line(&format!(
                "{} {} {cs} {} {}",
                i.depth,
                xboard_score(self.scale.to_cp(i.score)),
                i.nodes,
                pv.join(" ")
            ));
        }
    }

    fn currmove(&self, _: i32, _: Move, _: usize) {}
}

struct Session {
    engine: Engine,
    out: Out,
    events: Sender<Event>,
    /// The game: its start and the moves played since.
    start: Position,
    moves: Vec<Move>,
    /// The side the engine plays (`None`: force mode, it plays neither).
    side: Option<Color>,
    tc: TimeControl,
    /// Our clock from `time`, in milliseconds.
    our_time: Option<u64>,
    depth: Option<i32>,
    post: Arc<AtomicBool>,
    /// `hard`: think on the opponent's time.
    ponder: bool,
    analyzing: bool,
    /// The opponent offered a draw since our last move.
    draw_offered: bool,
    /// The game has ended (a result was claimed or `result` came): no more thinking until `new`.
    over: bool,
    search: Option<Running>,
    next_id: u64,
    last_info: Arc<Mutex<Option<Info>>>,
    /// The reply our last search expected (the ponder move, also `hint`'s answer).
    expected: Option<Move>,
}

/// Runs the CECP loop on `rx` after the `xboard` command, until `quit` or end of input.
pub(super) fn serve(rx: Receiver<Event>, events: Sender<Event>, out: Out) {
    let mut s = Session {
        engine: Engine::default(),
        out,
        events,
        start: Position::startpos(),
        moves: Vec::new(),
        side: Some(Color::Black),
        tc: TimeControl { moves_per_session: 0, increment_ms: 0, per_move_ms: None },
        our_time: None,
        depth: None,
        post: Arc::new(AtomicBool::new(false)),
        ponder: false,
        analyzing: false,
        draw_offered: false,
        over: false,
        search: None,
        next_id: 0,
        last_info: Arc::new(Mutex::new(None)),
        expected: None,
    };
    ignore_interrupts();
    while let Ok(ev) = rx.recv() {
        match ev {
            Event::Line(l) => {
                if !s.handle(&l) {
                    s.cancel();
                    return;
                }
                s.think();
            }
            Event::Finished(id, answer) => {
                s.finished(id, answer);
                s.think();
            }
            Event::SearchDone(_) => {}
            Event::Eof => {
                // End of input: a search for our move is finished and played, anything else stopped.
                if let Some(r) = &s.search {
                    if r.purpose != Purpose::Move {
                        s.cancel();
                    }
                }
                if s.search.is_some() {
                    while let Ok(ev) = rx.recv() {
                        if let Event::Finished(id, answer) = ev {
                            s.finished(id, answer);
                            break;
                        }
                    }
                }
                return;
            }
        }
    }
}

/// XBoard may send SIGINT to interrupt a search (unless `sigint=0`, which we ask for); some GUIs send it all
/// the same. The default action would kill the engine.
#[cfg(unix)]
#[allow(unsafe_code)]
fn ignore_interrupts() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGINT: i32 = 2;
    const SIG_IGN: usize = 1;
    // SAFETY: `signal` is the C library's (POSIX) function, declared with its ABI: an `int` and a handler
    // pointer in, the old handler out. SIGINT (2 on every Unix) is a valid signal and SIG_IGN (1) a valid
    // disposition, so the call cannot fail or touch memory; ignoring a signal affects no Rust state. Exercised
    // by tests/protocol.rs (`cecp_survives_sigint`).
    unsafe {
        signal(SIGINT, SIG_IGN);
    }
}

#[cfg(not(unix))]
fn ignore_interrupts() {}

impl Session {
    fn pos(&self) -> &Position {
        &self.engine.pos
    }

    fn error(&self, kind: &str, command: &str) {
        let shown: String = command.chars().take(40).collect();
        self.out.line(&format!("Error ({kind}): {shown}"));
    }

    /// The game's position from its start and moves (after `undo`, `setboard`, `new`).
    fn replay(&mut self) {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make_move(m);
        }
        self.engine.set_position(pos);
    }

    fn play(&mut self, m: Move) {
        self.moves.push(m);
        let mut pos = self.engine.pos.clone();
        pos.make_move(m);
        self.engine.set_position(pos);
    }

    /// Stops the running search and waits for it; its move, if any, is not played.
    fn cancel(&mut self) {
        if let Some(r) = self.search.take() {
            r.shared.stop.store(true, Relaxed);
            r.shared.ponderhit();
            let _ = r.handle.join();
        }
    }

    /// Stops a search that is not for our move (pondering, analysis).
    fn cancel_background(&mut self) {
        if self.search.as_ref().is_some_and(|r| r.purpose != Purpose::Move) {
            self.cancel();
        }
    }

    /// Handles one command; false to quit.
    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(c, r)| (c, r.trim()));
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "egtpath"
            | "otim" | "bk" | "nps" => {}
            "protover" => self.features(),
            "new" => {
                self.cancel();
                self.start = Position::startpos();
                self.moves.clear();
                self.replay();
                self.engine.new_game();
                self.side = Some(Color::Black);
                self.depth = None;
                self.over = false;
                self.draw_offered = false;
                self.expected = None;
            }
            "variant" => {
                if !rest.eq_ignore_ascii_case("xiangqi") {
                    self.error("unsupported variant", rest);
                }
            }
            "force" => {
                self.cancel();
                self.side = None;
            }
            "go" => {
                self.cancel_background();
                self.side = Some(self.pos().side_to_move());
            }
            "playother" => {
                self.cancel_background();
                self.side = Some(!self.pos().side_to_move());
            }
            "white" | "black" => {
                // Obsolete (we ask for colors=0): the side to move becomes that colour, the engine the other.
                self.cancel();
                let c = if cmd == "white" { Color::Red } else { Color::Black };
                self.side = Some(!c);
            }
            "level" => self.level(rest),
            "st" => match rest.parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 => self.tc.per_move_ms = Some((s * 1000.0) as u64),
                _ => self.error("bad st", line),
            },
            "sd" => match rest.parse::<i32>() {
                Ok(d) if d > 0 => self.depth = Some(d.min(100)),
                _ => self.error("bad sd", line),
            },
            "time" => match rest.parse::<u64>() {
                Ok(cs) => self.our_time = Some(cs.saturating_mul(10)),
                _ => self.error("bad time", line),
            },
            "usermove" => self.usermove(rest),
            "?" => {
                if let Some(r) = self.search.as_ref().filter(|r| r.purpose == Purpose::Move) {
                    r.shared.stop.store(true, Relaxed);
                }
            }
            "ping" => self.out.line(&format!("pong {rest}")),
            "draw" => {
                self.draw_offered = true;
                if let Some(r) = self.search.as_ref().filter(|r| r.purpose == Purpose::Move) {
                    *r.draw_offer.lock().unwrap_or_else(|e| e.into_inner()) = true;
                }
            }
            "result" => {
                self.cancel();
                self.over = true;
            }
            "setboard" => {
                let fen = rest.replace(['[', ']'], "");
                match Position::from_fen(&fen) {
                    Ok(p) => {
                        self.cancel();
                        self.start = p;
                        self.moves.clear();
                        self.replay();
                        self.over = false;
                    }
                    Err(e) => self.out.line(&format!("tellusererror Illegal position: {e}")),
                }
            }
            "undo" | "remove" => {
                let n = if cmd == "undo" { 1 } else { 2 };
                if self.moves.len() < n {
                    self.error("no move to take back", line);
                    return true;
                }
                self.cancel();
                self.moves.truncate(self.moves.len() - n);
                self.replay();
                self.over = false;
            }
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                self.cancel_background();
            }
            "post" => self.post.store(true, Relaxed),
            "nopost" => self.post.store(false, Relaxed),
            "hint" => {
                if let Some(m) = self.expected {
                    self.out.line(&format!("Hint: {m}"));
                }
            }
            "analyze" => {
                self.cancel_background();
                self.analyzing = true;
                self.post.store(true, Relaxed);
            }
            "exit" => {
                self.analyzing = false;
                self.cancel_background();
            }
            "." => self.status(),
            "memory" => self.option("Hash", Some(rest)),
            "cores" => self.option("Threads", Some(rest)),
            "option" => match rest.split_once('=') {
                Some((name, value)) => self.option(name.trim(), Some(value.trim())),
                None => self.option(rest, None),
            },
            "quit" => return false,
            // A move without `usermove` (a GUI that ignores usermove=1).
            _ if parse_iccs(self.pos(), cmd).is_ok() => self.usermove(cmd),
            _ => self.error("unknown command", cmd),
        }
        true
    }

    /// `protover 2`: the features, the engine's options among them.
    fn features(&self) {
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature setboard=1 usermove=1 time=1 ping=1 draw=1 colors=0 sigint=0 sigterm=0 reuse=1 analyze=1 \
             pause=0 memory=1 smp=1 debug=1 myname=\"Chuhan {}\" variants=\"xiangqi\"",
            env!("CARGO_PKG_VERSION")
        ));
        for f in self.engine.options.cecp_features() {
            self.out.line(&format!("feature option=\"{f}\""));
        }
        self.out.line("feature done=1");
    }

    fn option(&mut self, name: &str, value: Option<&str>) {
        match self.engine.set_option(name, value) {
            Ok(Change::Ignored) => self.out.line(&format!("telluser option '{name}' is not used by this engine")),
            Ok(_) => {}
            Err(e) => self.out.line(&format!("Error (bad option): {e}")),
        }
    }

    /// `level MPS BASE INC`: moves per session (0: the whole game), base time in minutes or `min:sec`, increment
    /// in seconds.
    fn level(&mut self, rest: &str) {
        let w: Vec<&str> = rest.split_whitespace().collect();
        let base_ok = w.get(1).is_some_and(|b| {
            let mut parts = b.split(':');
            parts.all(|p| p.parse::<f64>().is_ok_and(|v| v >= 0.0))
        });
        match (w.first().map(|m| m.parse::<u32>()), base_ok, w.get(2).map(|i| i.parse::<f64>())) {
            (Some(Ok(mps)), true, Some(Ok(inc))) if w.len() == 3 && inc >= 0.0 && inc.is_finite() => {
                self.tc =
                    TimeControl { moves_per_session: mps, increment_ms: (inc * 1000.0) as u64, per_move_ms: None };
            }
            _ => self.error("bad level", &format!("level {rest}")),
        }
    }

    fn usermove(&mut self, text: &str) {
        if self.over {
            return self.error("the game is over", text);
        }
        let m = match parse_iccs(self.pos(), text) {
            Ok(m) => m,
            Err(_) => return self.out.line(&format!("Illegal move: {text}")),
        };
        let hit = matches!(self.search.as_ref().map(|r| r.purpose), Some(Purpose::Ponder(p)) if p == m);
        if hit {
            // The move we pondered on: the search goes on, now for our move, against the clock.
            let r = self.search.as_mut().expect("pondering");
            r.purpose = Purpose::Move;
            r.shared.ponderhit();
            if self.draw_offered {
                *r.draw_offer.lock().unwrap_or_else(|e| e.into_inner()) = true;
            }
            self.play(m);
            self.claim_if_over();
            return;
        }
        // Anything else running is for a position that is gone (a search for our move should not be: it is not
        // the opponent's turn, but a GUI may get it wrong).
        self.cancel();
        self.play(m);
        self.claim_if_over();
    }

    /// Sends a result claim when the game has ended by the rules (mate, stalemate, a forbidden repetition, a
    /// draw); true if it has.
    fn claim_if_over(&mut self) -> bool {
        let v = game_state(self.pos(), &self.engine.rules());
        if v.result == GameResult::Ongoing {
            return false;
        }
        let reason = v.reason.key().replace('_', " ");
        let comment = match v.result {
            GameResult::RedWins => format!("Red wins by {reason}"),
            GameResult::BlackWins => format!("Black wins by {reason}"),
            _ => format!("Draw by {reason}"),
        };
        self.out.line(&format!("{} {{{comment}}}", v.result.pgn()));
        self.over = true;
        self.cancel_background();
        true
    }

    /// `.` in analysis: `stat01: time nodes ply moves-left total-moves current-move`.
    fn status(&self) {
        let Some(r) = self.search.as_ref().filter(|r| r.purpose == Purpose::Analyze) else { return };
        let last = self.last_info.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let cs = r.started.elapsed().as_millis() / 10;
        let (nodes, depth) = last.as_ref().map_or((0, 0), |i| (i.nodes, i.depth));
        let total = self.pos().legal_moves().len();
        self.out.line(&format!("stat01: {cs} {nodes} {depth} 0 {total}"));
    }

    /// Starts the search the state asks for, if none runs: our move, analysis, or pondering.
    fn think(&mut self) {
        if self.search.is_some() {
            return;
        }
        let stm = self.pos().side_to_move();
        if self.analyzing {
            if !self.pos().has_legal_move() {
                return;
            }
            let req = Request { infinite: true, ..Request::default() };
            return self.start(req, Purpose::Analyze);
        }
        if self.over {
            return;
        }
        if self.side == Some(stm) {
            let req = self.request(false);
            return self.start(req, Purpose::Move);
        }
        if self.ponder && self.side == Some(!stm) {
            // Think on the opponent's time about the reply we expect, from the position after it.
            let Some(expected) = self.expected.filter(|&m| self.pos().is_legal(m)) else { return };
            let mut after = self.engine.pos.clone();
            after.make_move(expected);
            if game_state(&after, &self.engine.rules()).result != GameResult::Ongoing {
                return;
            }
            let req = Request { ponder: true, ..self.request(true) };
            let now = std::mem::replace(&mut self.engine.pos, after);
            self.start(req, Purpose::Ponder(expected));
            self.engine.pos = now;
        }
    }

    /// Our clock as a request (`pondering`: for the move after the opponent's).
    fn request(&self, pondering: bool) -> Request {
        let mut req = Request { depth: self.depth, draw_offer: self.draw_offered, ..Request::default() };
        match (self.tc.per_move_ms, self.our_time) {
            (Some(ms), _) => req.movetime = Some(ms),
            (None, Some(time)) => {
                let mps = self.tc.moves_per_session;
                // Our moves made so far: the moves of our colour in the game.
                let ours = self.moves.len() / 2 + pondering as usize;
                let moves_to_go = if mps > 0 { mps - (ours as u32 % mps) } else { 0 };
                req.clock = Some(Clock { time, increment: self.tc.increment_ms, moves_to_go });
            }
            (None, None) => {
                // No clock yet (a GUI that sends `go` first): a tenth of a second is safe everywhere.
                if self.depth.is_none() {
                    req.movetime = Some(100);
                }
            }
        }
        req
    }

    fn start(&mut self, req: Request, purpose: Purpose) {
        let job = match self.engine.plan(&req, random_u64()) {
            Plan::Book { choice, ponder, .. } => {
                // A book move is played at once (analysis and pondering never ask the book).
                return self.finished_move(Answer {
                    best: Some(choice),
                    ponder,
                    score: 0,
                    accept_draw: false,
                    resign: false,
                });
            }
            Plan::Search(job) => job,
        };
        self.engine.arm(&job);
        self.next_id += 1;
        let id = self.next_id;
        let shared = Arc::clone(self.engine.shared());
        let draw_offer = Arc::new(Mutex::new(req.draw_offer));
        let thinking = Thinking {
            out: self.out.clone(),
            post: Arc::clone(&self.post),
            last: Arc::clone(&self.last_info),
            scale: crate::wdl::model(job.settings.eval),
        };
        let (events, offer, search_shared) = (self.events.clone(), Arc::clone(&draw_offer), Arc::clone(&shared));
        let handle = std::thread::spawn(move || {
            let result = job.run(&search_shared, &thinking, random_u64());
            let draw = *offer.lock().unwrap_or_else(|e| e.into_inner());
            let _ = events.send(Event::Finished(id, job.answer(&result, draw)));
        });
        self.search = Some(Running { id, purpose, handle, shared, draw_offer, started: Instant::now() });
    }

    /// A search has ended: play its move if it was for our move and is still wanted.
    fn finished(&mut self, id: u64, answer: Answer) {
        let Some(r) = self.search.as_ref().filter(|r| r.id == id) else { return };
        let purpose = r.purpose;
        let r = self.search.take().expect("the search that ended");
        let _ = r.handle.join();
        if purpose == Purpose::Move {
            self.engine.search_done(Some(answer.score));
            self.finished_move(answer);
        }
    }

    fn finished_move(&mut self, answer: Answer) {
        let Some(best) = answer.best else {
            // No legal move: the rules have ended the game.
            self.claim_if_over();
            return;
        };
        if answer.accept_draw {
            self.out.line("offer draw");
        }
        if answer.resign {
            self.out.line("resign");
            self.over = true;
            return;
        }
        self.draw_offered = false;
        self.out.line(&format!("move {best}"));
        self.play(best);
        self.expected = answer.ponder;
        self.claim_if_over();
    }
}

/// Runs the loop for a reader that has already seen `xboard`: for tests and the protocol's dispatcher.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let (tx, rx) = channel();
    spawn_reader(input, tx.clone());
    serve(rx, tx, Out::new(output));
}
