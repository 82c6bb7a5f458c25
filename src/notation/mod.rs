//! Moves as people write them: ICCS coordinates (`h2e2`), Chinese notation (`炮二平五`, `马8进7`, `前车进一`,
//! in simplified or traditional characters) and the WXF form (`C2.5`, `H8+7`, `R+.3`).
//!
//! Writing works from a [`Described`] move: the piece, its file counted from the mover's right, the action
//! (forward, backward, sideways), the target number, and where it stands among same pieces on its file.
//! Reading parses the text into a [`Spec`] and keeps the one legal move whose description fits it, so that
//! every accepted variant (a file number where tandem marks were due, traditional characters, full-width
//! digits, `=` for `.`) resolves without a table of special cases.

mod chinese;
mod wxf;

pub use chinese::{parse_chinese, to_chinese, Script};
pub use wxf::{parse_wxf, to_wxf};

use crate::board::Position;
use crate::types::{Color, Move, PieceType};
use std::fmt;

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

pub(crate) fn quote(s: &str) -> String {
    let short: String = s.chars().take(24).collect();
    if short.len() < s.len() {
        format!("{short}…")
    } else {
        short
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    Forward,
    Backward,
    Sideways,
}

/// A move in the terms of the vertical-line notations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Described {
    pub color: Color,
    pub kind: PieceType,
    /// File of the origin, 1–9 counted from the mover's right.
    pub file: u8,
    pub action: Action,
    /// Sideways moves and the diagonal movers (advisor, elephant, horse): the destination file, 1–9.
    /// Forward and backward moves of the others: the number of points moved.
    pub target: u8,
    /// Index of the piece among the mover's pieces of its kind on its file, 0 for the one nearest the enemy.
    pub index: u8,
    /// How many such pieces share the file.
    pub count: u8,
    /// For pawns: how many files hold two or more of the mover's pawns.
    pub pawn_files: u8,
}

/// File number 1–9 of a file index 0–8, seen from `color`'s right.
pub(crate) fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// Describes `m`, which must move a piece of the side to move.
pub fn describe(pos: &Position, m: Move) -> Described {
    let piece = pos.piece_at(m.from()).expect("describe: no piece on the origin square");
    let (color, kind) = (piece.color(), piece.kind());
    let (from, to) = (m.from(), m.to());
    let forward = (to.rank() as i32 - from.rank() as i32) * color.forward();
    let action = match forward {
        0 => Action::Sideways,
        d if d > 0 => Action::Forward,
        _ => Action::Backward,
    };
    let diagonal = matches!(kind, PieceType::Advisor | PieceType::Elephant | PieceType::Horse);
    let target = if action == Action::Sideways || diagonal {
        file_number(color, to.file())
    } else {
        forward.unsigned_abs() as u8
    };
    // Same pieces on the origin file, nearest the enemy first.
    let mut ranks: Vec<u8> =
        pos.pieces(color, kind).iter().filter(|s| s.file() == from.file()).map(|s| s.rank()).collect();
    ranks.sort_unstable();
    if color == Color::Red {
        ranks.reverse();
    }
    let index = ranks.iter().position(|&r| r == from.rank()).unwrap_or(0) as u8;
    let pawn_files = if kind == PieceType::Pawn {
        let mut per_file = [0u8; 9];
        for s in pos.pieces(color, PieceType::Pawn) {
            per_file[s.file() as usize] += 1;
        }
        per_file.iter().filter(|&&n| n >= 2).count() as u8
    } else {
        0
    };
    Described {
        color,
        kind,
        file: file_number(color, from.file()),
        action,
        target,
        index,
        count: ranks.len() as u8,
        pawn_files,
    }
}

/// Which of several same pieces on a file a text means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ordinal {
    Front,
    Rear,
    /// The middle one of three or five.
    Middle,
    /// The n-th from the front, 1-based.
    Nth(u8),
    /// WXF `P<file>`: the only pawn on the file, or the middle one of three or five.
    OnlyOrMiddle,
    /// WXF `+` after a letter: the front one of two or three, the second of four or five.
    WxfPlus,
    /// WXF `-` after a letter: the rear one of two or three, the second from the rear of four or five.
    WxfMinus,
}

impl Ordinal {
    fn fits(self, index: u8, count: u8) -> bool {
        match self {
            Ordinal::OnlyOrMiddle => count == 1 || (count % 2 == 1 && index == count / 2),
            _ if count < 2 => false,
            Ordinal::Front => index == 0,
            Ordinal::Rear => index == count - 1,
            Ordinal::Middle => count % 2 == 1 && index == count / 2,
            Ordinal::Nth(n) => n >= 1 && index == n - 1,
            Ordinal::WxfPlus => index == if count >= 4 { 1 } else { 0 },
            Ordinal::WxfMinus => index == if count >= 4 { count - 2 } else { count - 1 },
        }
    }
}

/// What a move text says; `None` where it does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spec {
    pub kind: Option<PieceType>,
    pub file: Option<u8>,
    pub ordinal: Option<Ordinal>,
    pub action: Action,
    pub target: u8,
}

impl Spec {
    fn fits(&self, d: &Described) -> bool {
        self.kind.is_none_or(|k| k == d.kind)
            && self.file.is_none_or(|f| f == d.file)
            && self.ordinal.is_none_or(|o| o.fits(d.index, d.count))
            && self.action == d.action
            && self.target == d.target
    }
}

/// The one legal move that fits `spec`.
pub(crate) fn resolve(pos: &Position, spec: &Spec, text: &str) -> Result<Move, NotationError> {
    let mut found = None;
    for &m in pos.legal_moves().iter() {
        if spec.fits(&describe(pos, m)) {
            if found.is_some() {
                return Err(NotationError(format!("'{}' is ambiguous here", quote(text))));
            }
            found = Some(m);
        }
    }
    found.ok_or_else(|| NotationError(format!("'{}' is not a legal move here", quote(text))))
}

/// Reads an ICCS move (`h2e2`, `H2-E2`) and checks that it is legal here.
pub fn parse_iccs(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let m: Move = text.trim().parse().map_err(|e: crate::types::ParseMoveError| NotationError(e.to_string()))?;
    if m.is_null() {
        return Err(NotationError("the null move 0000 is not a move in a game".into()));
    }
    if !pos.is_legal(m) {
        return Err(NotationError(format!("{m} is not a legal move here")));
    }
    Ok(m)
}

/// Reads a move in any of the three notations, whichever it is written in.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError("empty move".into()));
    }
    if !t.is_ascii() {
        return parse_chinese(pos, t);
    }
    let looks_iccs = t.len() >= 4
        && t.as_bytes()[0].is_ascii_alphabetic()
        && t.as_bytes()[1].is_ascii_digit()
        && t.as_bytes()[0].to_ascii_lowercase() <= b'i';
    if t == "0000" || (looks_iccs && t.parse::<Move>().is_ok()) {
        return parse_iccs(pos, t);
    }
    parse_wxf(pos, t)
}
