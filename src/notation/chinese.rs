//! Chinese vertical-line notation: `炮二平五`, `马8进7`, `前车进一`, `中兵平四`, `前五进一`.
//!
//! Red counts files and steps in Chinese numerals from its right, Black in Arabic digits from its right.
//! Two same pieces on a file are told apart by 前/后 in place of the file; three pawns by 前/中/后; four or
//! five pawns by 一二三四五 from the front; when two files each hold several pawns, the file number follows
//! the position mark and 兵/卒 is left out (`前五进一`).

use super::{describe, resolve, Action, Described, NotationError, Ordinal, Spec};
use crate::board::Position;
use crate::types::{Color, Move, Piece, PieceType};

/// Which characters to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Script {
    Simplified,
    Traditional,
}

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn number(color: Color, n: u8) -> char {
    match color {
        Color::Red => NUMERALS[(n - 1) as usize],
        Color::Black => char::from(b'0' + n),
    }
}

/// Writes a legal move in Chinese notation.
pub fn to_chinese(pos: &Position, m: Move, script: Script) -> String {
    let d: Described = describe(pos, m);
    let piece = Piece::new(d.color, d.kind);
    let pc = match script {
        Script::Simplified => piece.chinese(),
        Script::Traditional => piece.traditional(),
    };
    let (front, rear, fwd) = match script {
        Script::Simplified => ('前', '后', '进'),
        Script::Traditional => ('前', '後', '進'),
    };
    let act = match d.action {
        Action::Forward => fwd,
        Action::Backward => '退',
        Action::Sideways => '平',
    };
    let tail = format!("{act}{}", number(d.color, d.target));
    if d.count < 2 {
        return format!("{pc}{}{tail}", number(d.color, d.file));
    }
    let mark = match (d.kind, d.count, d.index) {
        (PieceType::Pawn, 3, 1) => '中',
        (PieceType::Pawn, 4..=5, i) => NUMERALS[i as usize],
        (_, _, 0) => front,
        _ => rear,
    };
    if d.kind == PieceType::Pawn && d.pawn_files >= 2 {
        format!("{mark}{}{tail}", number(d.color, d.file))
    } else {
        format!("{mark}{pc}{tail}")
    }
}

fn piece_kind(c: char) -> Option<PieceType> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceType::King,
        '仕' | '士' => PieceType::Advisor,
        '相' | '象' => PieceType::Elephant,
        '马' | '馬' | '傌' | '駒' => PieceType::Horse,
        '车' | '車' | '俥' | '伡' => PieceType::Rook,
        '炮' | '砲' | '包' => PieceType::Cannon,
        '兵' | '卒' => PieceType::Pawn,
        _ => return None,
    })
}

/// A file or step number in any of the usual forms (一–九, 1–9, １–９).
fn numeral(c: char) -> Option<u8> {
    if let Some(i) = NUMERALS.iter().position(|&n| n == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => None,
    }
}

fn action(c: char) -> Option<Action> {
    match c {
        '进' | '進' => Some(Action::Forward),
        '退' => Some(Action::Backward),
        '平' => Some(Action::Sideways),
        _ => None,
    }
}

fn ordinal(c: char) -> Option<Ordinal> {
    match c {
        '前' => Some(Ordinal::Front),
        '后' | '後' => Some(Ordinal::Rear),
        '中' => Some(Ordinal::Middle),
        _ => numeral(c).filter(|&n| n <= 5).map(Ordinal::Nth),
    }
}

/// Reads a move in Chinese notation (simplified or traditional; any numerals for either side) and returns the
/// legal move it names.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let bad = || NotationError(format!("'{}' is not a move in Chinese notation", super::quote(text)));
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() < 4 || chars.len() > 5 {
        return Err(bad());
    }
    let n = chars.len();
    let act = action(chars[n - 2]).ok_or_else(bad)?;
    let target = numeral(chars[n - 1]).ok_or_else(bad)?;
    let head = &chars[..n - 2];
    let spec = match *head {
        // 炮二平五
        [p, f] if piece_kind(p).is_some() => {
            Spec { kind: piece_kind(p), file: Some(numeral(f).ok_or_else(bad)?), ordinal: None, action: act, target }
        }
        // 前炮平五, 中兵平四, 二兵进一
        [o, p] if piece_kind(p).is_some() => {
            Spec { kind: piece_kind(p), file: None, ordinal: Some(ordinal(o).ok_or_else(bad)?), action: act, target }
        }
        // 前五进一: pawns on two files
        [o, f] => Spec {
            kind: Some(PieceType::Pawn),
            file: Some(numeral(f).ok_or_else(bad)?),
            ordinal: Some(ordinal(o).ok_or_else(bad)?),
            action: act,
            target,
        },
        // 前兵五进一
        [o, p, f] => Spec {
            kind: Some(piece_kind(p).ok_or_else(bad)?),
            file: Some(numeral(f).ok_or_else(bad)?),
            ordinal: Some(ordinal(o).ok_or_else(bad)?),
            action: act,
            target,
        },
        _ => return Err(bad()),
    };
    resolve(pos, &spec, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn opening_moves() {
        let mut p = Position::startpos();
        let h2e2: Move = "h2e2".parse().unwrap();
        assert_eq!(to_chinese(&p, h2e2, Script::Simplified), "炮二平五");
        assert_eq!(parse_chinese(&p, "炮二平五"), Ok(h2e2));
        assert_eq!(parse_chinese(&p, "炮2平5"), Ok(h2e2));
        p.make_move(h2e2);
        let h9g7: Move = "h9g7".parse().unwrap();
        assert_eq!(to_chinese(&p, h9g7, Script::Simplified), "马8进7");
        assert_eq!(to_chinese(&p, h9g7, Script::Traditional), "馬8進7");
        assert_eq!(parse_chinese(&p, "馬８進７"), Ok(h9g7));
        assert_eq!(parse_chinese(&p, "马八进七"), Ok(h9g7));
        assert!(parse_chinese(&p, "马8进6").is_err());
        assert!(parse_chinese(&p, "马8").is_err());
    }

    #[test]
    fn tandem_pieces() {
        // Two red rooks on file e (红五路): front rook e6, rear rook e2.
        let p = pos("3k5/9/9/9/4R4/9/9/4R4/9/4K4 w");
        let front: Move = "e5e6".parse().unwrap();
        let rear_side: Move = "e2a2".parse().unwrap();
        assert_eq!(to_chinese(&p, front, Script::Simplified), "前车进一");
        assert_eq!(to_chinese(&p, rear_side, Script::Simplified), "后车平九");
        assert_eq!(to_chinese(&p, rear_side, Script::Traditional), "後俥平九");
        assert_eq!(parse_chinese(&p, "后车平九"), Ok(rear_side));
        assert_eq!(parse_chinese(&p, "後俥平九"), Ok(rear_side));
    }

    #[test]
    fn pawn_columns() {
        // Three red pawns on file e, two on file c: pawns on two files carry the file number.
        let p = pos("3k5/9/4P4/2P1P4/2P1P4/9/9/9/9/4K4 w");
        let m: Move = "e7e8".parse().unwrap();
        assert_eq!(to_chinese(&p, m, Script::Simplified), "前五进一");
        let mid: Move = "e6d6".parse().unwrap();
        assert_eq!(to_chinese(&p, mid, Script::Simplified), "中五平六");
        let c: Move = "c5b5".parse().unwrap();
        assert_eq!(to_chinese(&p, c, Script::Simplified), "后七平八");
        assert_eq!(parse_chinese(&p, "前兵五进一"), Ok(m));
        // Four pawns on one file: 一二三四.
        let p = pos("3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w");
        let second: Move = "e7d7".parse().unwrap();
        assert_eq!(to_chinese(&p, second, Script::Simplified), "二兵平六");
        assert_eq!(parse_chinese(&p, "二兵平六"), Ok(second));
    }
}
