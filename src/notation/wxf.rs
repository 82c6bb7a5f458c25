//! The WXF (World Xiangqi Federation) notation: `C2.5`, `H8+7`, `R+.3`, `C--1`.
//!
//! A letter (K A E H R C P), the origin file counted from the mover's right, `+` forward / `-` backward /
//! `.` sideways, then the destination file or the number of points. Tandem pieces replace the file with `+`
//! (front) or `-` (rear). Pawns follow the WXF special cases: three in a file `P+`, `P<file>`, `P-`; four
//! `++ P+ P- --`; five `++ P+ P<file> P- --`; pawns in two files `<file>+`, `<file><file>`, `<file>-`.

use super::{describe, resolve, Action, NotationError, Ordinal, Spec};
use crate::board::Position;
use crate::types::{Move, PieceType};

fn letter(kind: PieceType) -> char {
    match kind {
        PieceType::King => 'K',
        PieceType::Advisor => 'A',
        PieceType::Elephant => 'E',
        PieceType::Horse => 'H',
        PieceType::Rook => 'R',
        PieceType::Cannon => 'C',
        PieceType::Pawn => 'P',
    }
}

/// Writes a legal move in WXF notation.
pub fn to_wxf(pos: &Position, m: Move) -> String {
    let d = describe(pos, m);
    let l = letter(d.kind);
    let f = char::from(b'0' + d.file);
    let op = match d.action {
        Action::Forward => '+',
        Action::Backward => '-',
        Action::Sideways => '.',
    };
    let head: String = if d.count < 2 {
        format!("{l}{f}")
    } else if d.kind != PieceType::Pawn {
        format!("{l}{}", if d.index == 0 { '+' } else { '-' })
    } else if d.pawn_files >= 2 {
        let mark = match (d.count, d.index) {
            (_, 0) => '+',
            (3, 1) => f,
            _ => '-',
        };
        format!("{f}{mark}")
    } else {
        match (d.count, d.index) {
            (2..=3, 0) => "P+".to_string(),
            (2..=3, i) if i == d.count - 1 => "P-".to_string(),
            (3, _) | (5, 2) => format!("P{f}"),
            (_, 0) => "++".to_string(),
            (_, 1) => "P+".to_string(),
            (_, i) if i == d.count - 1 => "--".to_string(),
            _ => "P-".to_string(),
        }
    };
    format!("{head}{op}{}", d.target)
}

fn kind_of_letter(c: char) -> Option<PieceType> {
    Some(match c {
        'K' | 'G' => PieceType::King,
        'A' => PieceType::Advisor,
        'E' | 'B' => PieceType::Elephant,
        'H' | 'N' => PieceType::Horse,
        'R' => PieceType::Rook,
        'C' => PieceType::Cannon,
        'P' => PieceType::Pawn,
        _ => return None,
    })
}

/// Reads a move in WXF notation (`=` is accepted for `.`, lower case letters, and `+R.3` for `R+.3`).
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let bad = || NotationError(format!("'{}' is not a move in WXF notation", super::quote(text)));
    let mut chars: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '=' { '.' } else { c.to_ascii_uppercase() })
        .collect();
    // "+R.3" and "-C-1" put the tandem mark first.
    if chars.len() == 4 && matches!(chars[0], '+' | '-') && kind_of_letter(chars[1]).is_some() {
        chars.swap(0, 1);
    }
    let [a, b, op, t] = chars[..] else { return Err(bad()) };
    let action = match op {
        '+' => Action::Forward,
        '-' => Action::Backward,
        '.' => Action::Sideways,
        _ => return Err(bad()),
    };
    let target = t.to_digit(10).filter(|&n| n >= 1).ok_or_else(bad)? as u8;
    let digit = |c: char| c.to_digit(10).filter(|&n| n >= 1).map(|n| n as u8);
    let (kind, file, ordinal) = match (kind_of_letter(a), a, b) {
        (Some(k), _, '+') => {
            (Some(k), None, Some(if k == PieceType::Pawn { Ordinal::WxfPlus } else { Ordinal::Front }))
        }
        (Some(k), _, '-') => {
            (Some(k), None, Some(if k == PieceType::Pawn { Ordinal::WxfMinus } else { Ordinal::Rear }))
        }
        (Some(PieceType::Pawn), _, f) => {
            (Some(PieceType::Pawn), Some(digit(f).ok_or_else(bad)?), Some(Ordinal::OnlyOrMiddle))
        }
        (Some(k), _, f) => (Some(k), Some(digit(f).ok_or_else(bad)?), None),
        (None, '+', '+') => (Some(PieceType::Pawn), None, Some(Ordinal::Front)),
        (None, '-', '-') => (Some(PieceType::Pawn), None, Some(Ordinal::Rear)),
        (None, f, '+') => (Some(PieceType::Pawn), Some(digit(f).ok_or_else(bad)?), Some(Ordinal::Front)),
        (None, f, '-') => (Some(PieceType::Pawn), Some(digit(f).ok_or_else(bad)?), Some(Ordinal::Rear)),
        (None, f, g) if f == g => (Some(PieceType::Pawn), Some(digit(f).ok_or_else(bad)?), Some(Ordinal::Middle)),
        _ => return Err(bad()),
    };
    resolve(pos, &Spec { kind, file, ordinal, action, target }, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_moves() {
        let mut p = Position::startpos();
        let h2e2: Move = "h2e2".parse().unwrap();
        assert_eq!(to_wxf(&p, h2e2), "C2.5");
        assert_eq!(parse_wxf(&p, "C2.5"), Ok(h2e2));
        assert_eq!(parse_wxf(&p, "c2=5"), Ok(h2e2));
        p.make_move(h2e2);
        let h9g7: Move = "h9g7".parse().unwrap();
        assert_eq!(to_wxf(&p, h9g7), "H8+7");
        assert_eq!(parse_wxf(&p, "H8+7"), Ok(h9g7));
        assert!(parse_wxf(&p, "H8+6").is_err());
        assert!(parse_wxf(&p, "X8+6").is_err());
    }

    #[test]
    fn tandem_and_pawn_cases() {
        let p = Position::from_fen("3k5/9/9/9/4R4/9/9/4R4/9/4K4 w").unwrap();
        let m: Move = "e5e6".parse().unwrap();
        assert_eq!(to_wxf(&p, m), "R++1");
        assert_eq!(parse_wxf(&p, "+R+1"), Ok(m));
        // Five pawns on one file (a, Red's 9th): ++ P+ P9 P- --.
        let p = Position::from_fen("P2k5/P8/P8/P8/P8/9/9/9/9/4K4 w").unwrap();
        let moves = ["a9b9", "a8b8", "a7b7", "a6b6", "a5b5"];
        let names: Vec<String> = moves.iter().map(|s| to_wxf(&p, s.parse().unwrap())).collect();
        assert_eq!(names, ["++.8", "P+.8", "P9.8", "P-.8", "--.8"]);
        for (n, s) in names.iter().zip(moves) {
            assert_eq!(parse_wxf(&p, n), Ok(s.parse().unwrap()), "{n}");
        }
        // Pawns on two files: c (7th) holds three, g (3rd) two: 7+ 77 7- and 3+ 3-.
        let p = Position::from_fen("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w").unwrap();
        assert_eq!(to_wxf(&p, "g6f6".parse().unwrap()), "3+.4");
        assert_eq!(to_wxf(&p, "g5f5".parse().unwrap()), "3-.4");
        assert_eq!(to_wxf(&p, "c6b6".parse().unwrap()), "77.8");
        assert_eq!(to_wxf(&p, "c5b5".parse().unwrap()), "7-.8");
        assert_eq!(parse_wxf(&p, "77.8"), Ok("c6b6".parse().unwrap()));
    }
}
