//! The stdin/stdout protocol loop: UCCI or UCI, chosen by the first command.
//!
//! This is the board-core stage of the loop: handshake, `position`, `go perft`, `d`, `isready`, `quit`.

use crate::board::Position;
use crate::notation::parse_iccs;
use std::io::{BufRead, Write};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// No handshake yet: replies follow UCI until `ucci` is seen.
    Unset,
    Ucci,
    Uci,
}

pub struct Session {
    pub dialect: Dialect,
    pub pos: Position,
}

impl Default for Session {
    fn default() -> Self {
        Session { dialect: Dialect::Unset, pos: Position::startpos() }
    }
}

/// Splits `position …` into the position it names, or an error sentence.
pub fn parse_position(words: &[&str]) -> Result<Position, String> {
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let mut pos = match words.first() {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&words[1..moves_at].join(" ")).map_err(|e| format!("bad FEN: {e}"))?,
        _ => return Err("expected 'position startpos' or 'position fen <FEN>'".into()),
    };
    for w in words.iter().skip(moves_at + 1) {
        let m = parse_iccs(&pos, w).map_err(|e| format!("move '{w}': {e}"))?;
        pos.make_move(m);
    }
    Ok(pos)
}

impl Session {
    /// Handles one line; returns false when the loop should end.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return true };
        match cmd {
            "ucci" => {
                self.dialect = Dialect::Ucci;
                let _ = writeln!(out, "id name Chuhan {}", env!("CARGO_PKG_VERSION"));
                let _ = writeln!(out, "id author the Chuhan developers");
                let _ = writeln!(out, "ucciok");
            }
            "uci" => {
                self.dialect = Dialect::Uci;
                let _ = writeln!(out, "id name Chuhan {}", env!("CARGO_PKG_VERSION"));
                let _ = writeln!(out, "id author the Chuhan developers");
                let _ = writeln!(out, "uciok");
            }
            "isready" => {
                let _ = writeln!(out, "readyok");
            }
            "position" => match parse_position(&words[1..]) {
                Ok(p) => self.pos = p,
                Err(e) => {
                    let _ = writeln!(out, "info string error: {e}");
                }
            },
            "go" if words.get(1) == Some(&"perft") => {
                match words.get(2).and_then(|d| d.parse::<u32>().ok()).filter(|&d| d <= 20) {
                    Some(d) => {
                        crate::tools::perft::report(&self.pos, d, 1, true, out);
                    }
                    None => {
                        let _ = writeln!(out, "info string error: go perft needs a depth from 0 to 20");
                    }
                }
            }
            "d" => {
                let _ = writeln!(out, "{}", self.pos);
            }
            "quit" => {
                if self.dialect == Dialect::Ucci {
                    let _ = writeln!(out, "bye");
                }
                let _ = out.flush();
                return false;
            }
            _ => {
                let shown: String = cmd.chars().take(32).collect();
                let _ = writeln!(out, "info string error: unknown command '{shown}'");
            }
        }
        let _ = out.flush();
        true
    }
}

/// Runs the loop until `quit` or end of input. Lines that are not UTF-8 are read lossily, never fatally.
pub fn run(input: impl BufRead, mut out: impl Write) {
    let mut session = Session::default();
    for line in input.split(b'\n') {
        let Ok(bytes) = line else { break };
        let text = String::from_utf8_lossy(&bytes);
        if !session.handle(text.trim_end_matches('\r'), &mut out) {
            break;
        }
    }
}
