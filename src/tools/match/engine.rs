//! Driving an engine process as a GUI does: handshake, options, new games, positions, clocks, replies.

use crate::types::Move;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Ucci,
}

/// How the engine writes squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Ranks 0–9 (UCCI, Pikafish, Chuhan).
    Standard,
    /// Fairy-Stockfish's UCI: ranks 1–10, and `UCI_Variant xiangqi`.
    Fairy,
}

/// An engine as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<String>,
    pub proto: Proto,
    pub notation: Notation,
    pub options: Vec<(String, String)>,
    /// This engine's own time per move (`movetime=MS`), in place of the match's limit: time odds, or a
    /// reference engine at a fixed time against one limited otherwise.
    pub movetime: Option<u64>,
}

impl EngineSpec {
    /// Parses `cmd=PATH [arg=A]… [proto=uci|ucci] [name=N] [dir=D] [notation=standard|fairy] [movetime=MS]
    /// [option.X=V]…`.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            proto: Proto::Uci,
            notation: Notation::Standard,
            options: Vec::new(),
            movetime: None,
        };
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| format!("--engine: '{w}' is not key=value"))?;
            match k {
                "cmd" => spec.cmd = v.to_string(),
                "arg" => spec.args.push(v.to_string()),
                "name" => spec.name = v.to_string(),
                "dir" => spec.dir = Some(v.to_string()),
                "movetime" => {
                    spec.movetime = Some(crate::engine::options::parse_range("--engine movetime", v, 1..=3_600_000)?)
                }
                "proto" => {
                    spec.proto = match v.to_ascii_lowercase().as_str() {
                        "uci" => Proto::Uci,
                        "ucci" => Proto::Ucci,
                        _ => return Err(format!("--engine: proto '{v}' is not uci or ucci")),
                    }
                }
                "notation" => {
                    spec.notation = match v.to_ascii_lowercase().as_str() {
                        "standard" | "iccs" => Notation::Standard,
                        "fairy" | "fsf" => Notation::Fairy,
                        _ => return Err(format!("--engine: notation '{v}' is not standard or fairy")),
                    }
                }
                _ => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => spec.options.push((name.to_string(), v.to_string())),
                    _ => return Err(format!("--engine: unknown key '{k}'")),
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err("--engine needs cmd=PATH".into());
        }
        if spec.name.is_empty() {
            spec.name =
                std::path::Path::new(&spec.cmd).file_name().map_or(spec.cmd.clone(), |n| n.to_string_lossy().into());
        }
        Ok(spec)
    }

    fn write_move(&self, m: Move) -> String {
        match self.notation {
            Notation::Standard => m.to_string(),
            Notation::Fairy => {
                let (f, t) = (m.from(), m.to());
                format!("{}{}{}{}", (b'a' + f.file()) as char, f.rank() + 1, (b'a' + t.file()) as char, t.rank() + 1)
            }
        }
    }

    /// Reads a move in the engine's notation (syntax only).
    pub fn read_move(&self, text: &str) -> Option<Move> {
        match self.notation {
            Notation::Standard => text.parse().ok().filter(|m: &Move| !m.is_null()),
            Notation::Fairy => {
                let b = text.as_bytes();
                let file = |c: u8| (b'a'..=b'i').contains(&c).then(|| c - b'a');
                let split = 1 + b.iter().skip(1).position(|c| c.is_ascii_alphabetic())?;
                let (from, to) = (&text[..split], &text[split..]);
                let sq = |s: &str| -> Option<crate::types::Square> {
                    let f = file(s.as_bytes().first().copied()?)?;
                    let r: u8 = s.get(1..)?.parse().ok()?;
                    (1..=10).contains(&r).then(|| crate::types::Square::new(f, r - 1))
                };
                Some(Move::new(sq(from)?, sq(to)?))
            }
        }
    }
}

/// Why an engine did not give a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended or its pipe broke.
    Crashed,
    /// No answer in time.
    TimedOut,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The move text; `None` for `nobestmove` or `bestmove (none)`.
    pub text: Option<String>,
    pub draw: bool,
    pub resign: bool,
    /// The last score it reported, in its own units, from its point of view; mates as ±100000.
    pub score: Option<i32>,
    pub depth: Option<i32>,
    pub elapsed: Duration,
}

/// The search limits of one move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// (remaining ms, increment ms) for Red and Black.
    pub clocks: Option<[(u64, u64); 2]>,
    pub moves_to_go: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The opponent offers a draw (UCCI `go draw`).
    pub draw_offer: bool,
}

pub struct Engine {
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    millisec: bool,
}

impl Engine {
    /// Starts the process and completes the handshake (10 s allowed for each step).
    pub fn start(spec: &EngineSpec) -> Result<Engine, String> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().map_err(|e| format!("cannot start {} ('{}'): {e}", spec.name, spec.cmd))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(bytes) = line else { break };
                let text = String::from_utf8_lossy(&bytes).trim_end_matches('\r').to_string();
                if tx.send(text).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine { spec: spec.clone(), child, stdin, lines, millisec: false };
        let (hello, ok) = match spec.proto {
            Proto::Uci => ("uci", "uciok"),
            Proto::Ucci => ("ucci", "ucciok"),
        };
        e.send(hello).map_err(|_| format!("{} closed its input", spec.name))?;
        let handshake =
            e.wait_for(|l| l == ok, Duration::from_secs(10)).map_err(|f| format!("{} handshake: {f:?}", spec.name))?;
        if spec.proto == Proto::Ucci && handshake.iter().any(|l| l.starts_with("option usemillisec")) {
            e.millisec = true;
            let _ = e.send("setoption usemillisec true");
        }
        if spec.notation == Notation::Fairy {
            let _ = e.send("setoption name UCI_Variant value xiangqi");
        }
        for (k, v) in &spec.options {
            let line = match spec.proto {
                Proto::Uci => format!("setoption name {k} value {v}"),
                Proto::Ucci => format!("setoption {k} {v}"),
            };
            let _ = e.send(&line);
        }
        e.ready(Duration::from_secs(10)).map_err(|f| format!("{} isready: {f:?}", spec.name))?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|_| Failure::Crashed)
    }

    /// Reads lines until one satisfies `done`; returns them all.
    fn wait_for(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Result<Vec<String>, Failure> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return Ok(got);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(Failure::TimedOut),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Crashed),
            }
        }
    }

    fn ready(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for(|l| l == "readyok", timeout).map(|_| ())
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        match self.spec.proto {
            Proto::Uci => self.send("ucinewgame")?,
            Proto::Ucci => self.send("setoption newgame")?,
        }
        self.ready(Duration::from_secs(10))
    }

    /// Sends the position and `go`, and waits up to `timeout` for the move.
    pub fn go(
        &mut self,
        fen: &str,
        moves: &[Move],
        banned: &[Move],
        red_to_move: bool,
        p: &GoParams,
        timeout: Duration,
    ) -> Result<Reply, Failure> {
        let list: Vec<String> = moves.iter().map(|&m| self.spec.write_move(m)).collect();
        let mut pos = if fen == crate::board::START_FEN && self.spec.proto == Proto::Uci {
            "position startpos".to_string()
        } else {
            format!("position fen {fen}")
        };
        if !list.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&list.join(" "));
        }
        self.send(&pos)?;
        if self.spec.proto == Proto::Ucci && !banned.is_empty() {
            let b: Vec<String> = banned.iter().map(|&m| self.spec.write_move(m)).collect();
            self.send(&format!("banmoves {}", b.join(" ")))?;
        }
        let go = self.go_line(red_to_move, p);
        let start = Instant::now();
        self.send(&go)?;
        let lines = self.wait_for(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"), timeout)?;
        let elapsed = start.elapsed();
        let mut reply = Reply { elapsed, ..Reply::default() };
        for l in &lines {
            if let Some((score, depth)) = self.parse_info(l) {
                reply.score = score.or(reply.score);
                reply.depth = depth.or(reply.depth);
            }
        }
        let last = lines.last().map(String::as_str).unwrap_or("");
        let mut words = last.split_whitespace();
        if words.next() == Some("bestmove") {
            match words.next() {
                Some("(none)") | None => {}
                Some(m) => reply.text = Some(m.to_string()),
            }
            for w in words {
                match w {
                    "draw" => reply.draw = true,
                    "resign" => reply.resign = true,
                    _ => {}
                }
            }
        }
        Ok(reply)
    }

    fn go_line(&self, red_to_move: bool, p: &GoParams) -> String {
        let mut s = String::from("go");
        if p.draw_offer && self.spec.proto == Proto::Ucci {
            s.push_str(" draw");
        }
        if let Some([red, black]) = p.clocks {
            match self.spec.proto {
                Proto::Uci => {
                    s.push_str(&format!(" wtime {} btime {} winc {} binc {}", red.0, black.0, red.1, black.1));
                    if let Some(m) = p.moves_to_go {
                        s.push_str(&format!(" movestogo {m}"));
                    }
                }
                Proto::Ucci => {
                    let (us, them) = if red_to_move { (red, black) } else { (black, red) };
                    let t = |ms: u64| if self.millisec { ms.to_string() } else { (ms / 1000).max(1).to_string() };
                    s.push_str(&format!(" time {}", t(us.0)));
                    match p.moves_to_go {
                        Some(m) => s.push_str(&format!(" movestogo {m}")),
                        None => s.push_str(&format!(
                            " increment {}",
                            if self.millisec { us.1.to_string() } else { (us.1 / 1000).to_string() }
                        )),
                    }
                    s.push_str(&format!(" opptime {}", t(them.0)));
                    if p.moves_to_go.is_none() {
                        s.push_str(&format!(
                            " oppincrement {}",
                            if self.millisec { them.1.to_string() } else { (them.1 / 1000).to_string() }
                        ));
                    }
                }
            }
        }
        if let Some(mt) = p.movetime {
            match self.spec.proto {
                Proto::Uci => s.push_str(&format!(" movetime {mt}")),
                // UCCI has no movetime: a clock with one move to go does the same.
                Proto::Ucci => {
                    let t = if self.millisec { mt.to_string() } else { (mt / 1000).max(1).to_string() };
                    s.push_str(&format!(" time {t} movestogo 1"));
                }
            }
        }
        if let Some(d) = p.depth {
            s.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = p.nodes {
            s.push_str(&format!(" nodes {n}"));
        }
        if s == "go" {
            s.push_str(" depth 10");
        }
        s
    }

    /// Score and depth from an `info` line.
    fn parse_info(&self, line: &str) -> Option<(Option<i32>, Option<i32>)> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return None;
        }
        let mut score = None;
        let mut depth = None;
        let mut i = 1;
        while i < words.len() {
            match words[i] {
                "depth" => depth = words.get(i + 1).and_then(|d| d.parse().ok()),
                "score" => match (words.get(i + 1), words.get(i + 2)) {
                    (Some(&"cp"), Some(v)) => score = v.parse().ok(),
                    (Some(&"mate"), Some(v)) => {
                        score = v.parse::<i32>().ok().map(|n| if n > 0 { 100_000 } else { -100_000 })
                    }
                    (Some(v), _) => {
                        score = v.parse::<i32>().ok().map(|n| if n.abs() >= 9000 { n.signum() * 100_000 } else { n })
                    }
                    _ => {}
                },
                "pv" => break,
                _ => {}
            }
            i += 1;
        }
        Some((score, depth))
    }

    /// Asks the engine to quit, and kills it if it does not within a second.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn specs() {
        let s = EngineSpec::parse(&words("cmd=/usr/bin/eleeye proto=ucci option.hashsize=32 arg=-x")).unwrap();
        assert_eq!((s.name.as_str(), s.proto, s.args.len()), ("eleeye", Proto::Ucci, 1));
        assert_eq!(s.options, [("hashsize".to_string(), "32".to_string())]);
        assert!(EngineSpec::parse(&words("proto=uci")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x proto=xboard")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x colour=red")).is_err());
        assert_eq!(s.movetime, None);
        assert_eq!(EngineSpec::parse(&words("cmd=x movetime=100")).unwrap().movetime, Some(100));
        assert!(EngineSpec::parse(&words("cmd=x movetime=0")).unwrap_err().contains("out of range"));
    }

    #[test]
    fn fairy_notation() {
        let s = EngineSpec::parse(&words("cmd=fsf notation=fairy")).unwrap();
        let m: Move = "h9g7".parse().unwrap();
        assert_eq!(s.write_move(m), "h10g8");
        assert_eq!(s.read_move("h10g8"), Some(m));
        assert_eq!(s.read_move("h3e3"), Some("h2e2".parse().unwrap()));
        assert_eq!(s.read_move("h11g8"), None);
        assert_eq!(s.read_move("zz"), None);
    }
}
