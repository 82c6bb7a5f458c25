//! Openings for matches and self-play data: a built-in suite of common, balanced short lines, and files of FENs
//! or move lists.

use crate::board::Position;
use crate::notation::parse_move;
use crate::types::Move;

/// One opening: a start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub fen: String,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position after the opening moves.
    pub fn position(&self) -> Position {
        let mut p = Position::from_fen(&self.fen).expect("opening FENs are checked when loaded");
        for &m in &self.moves {
            p.make_move(m);
        }
        p
    }
}

/// Main lines of 中炮 (central cannon) against 屏风马, 反宫马, 顺炮, 列炮; 仙人指路 (pawn openings),
/// 飞相 (elephant), 起马 (horse), 士角炮 and 过宫炮, 左中炮 — two to eight plies each.
pub const BUILT_IN: &[&str] = &[
    "h2e2 h9g7",
    "h2e2 b9c7",
    "h2e2 h7e7",
    "h2e2 b7e7",
    "h2e2 g6g5",
    "h2e2 c6c5",
    "h2e2 h9g7 h0g2 i9h9",
    "h2e2 h9g7 h0g2 b9c7",
    "h2e2 h9g7 h0g2 g6g5",
    "h2e2 h9g7 h0g2 c6c5",
    "h2e2 h9g7 b0c2 b9c7",
    "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
    "h2e2 h9g7 h0g2 i9h9 i0h0 c6c5",
    "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5",
    "h2e2 h9g7 h0g2 i9h9 i0h0 b9a7",
    "h2e2 h9g7 h0g2 i9h9 c3c4 b9c7",
    "h2e2 h9g7 h0g2 i9h9 g3g4 b9c7",
    "h2e2 b9c7 h0g2 a9b9",
    "h2e2 b9c7 h0g2 b7a7",
    "h2e2 h7e7 h0g2 h9g7",
    "h2e2 h7e7 h0g2 h9g7 i0h0 i9h9",
    "h2e2 h7e7 h0g2 b9c7",
    "h2e2 b7e7 h0g2 b9c7",
    "h2e2 b7e7 h0g2 h9g7",
    "h2e2 b7e7 b0c2 b9c7",
    "h2e2 h9g7 h0g2 h7h3",
    "h2e2 c9e7",
    "h2e2 g9e7",
    "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 c6c5",
    "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6",
    "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2",
    "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 g3g4",
    "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h4",
    "h2e2 h9g7 h0g2 i9h9 i0h0 c6c5 h0h6",
    "h2e2 h7e7 h0g2 h9g7 i0h0 i9h9 b0c2 b9c7",
    "h2e2 b7e7 h0g2 b9c7 i0h0 a9b9",
    "h2e2 b9c7 h0g2 a9b9 i0h0 h9g7",
    "h2e2 g6g5 h0g2 g5g4",
    "h2e2 c6c5 h0g2 b9c7",
    "h2e2 c9e7 h0g2 h9g7",
    "h2e2 g9e7 h0g2 b9c7",
    "c3c4 g6g5",
    "c3c4 b7c7",
    "c3c4 c9e7",
    "c3c4 b9c7",
    "c3c4 h7e7",
    "c3c4 g6g5 b0c2 b9c7",
    "c3c4 b7c7 h2e2 c9e7",
    "c3c4 c9e7 b0c2 b9c7",
    "c3c4 g6g5 h0g2 h9g7",
    "c3c4 b7c7 b0c2 c9e7",
    "g3g4 c6c5",
    "g3g4 h7g7",
    "g3g4 g9e7",
    "g3g4 h9g7",
    "g3g4 b7e7",
    "g3g4 c6c5 h0g2 b9c7",
    "g3g4 c6c5 h0g2 h9g7",
    "g3g4 h7g7 h0g2 h9i7",
    "g0e2 h9g7",
    "g0e2 g6g5",
    "g0e2 c6c5",
    "g0e2 b7e7",
    "g0e2 h7d7",
    "g0e2 h9g7 h0g2 g6g5",
    "g0e2 h9g7 h0g2 i9h9 i0h0 b7d7",
    "g0e2 b7e7 b0c2 b9c7",
    "c0e2 h7e7",
    "c0e2 g6g5",
    "c0e2 b9c7",
    "c0e2 h9g7 h0g2 i9h9",
    "c0e2 g6g5 h0g2 h9g7",
    "c0e2 h9g7 b0c2 g6g5",
    "h0g2 g6g5",
    "h0g2 c6c5",
    "h0g2 h9g7",
    "h0g2 b9c7",
    "h0g2 b7e7",
    "h0g2 g6g5 g3g4",
    "h0g2 c6c5 b0c2",
    "h0g2 h9g7 c3c4 b9c7",
    "h0g2 b9c7 g3g4 g9e7",
    "b0c2 c6c5",
    "b0c2 g6g5",
    "b0c2 h9g7",
    "b0c2 h7e7",
    "b0c2 c6c5 c3c4",
    "h2f2 h9g7",
    "h2f2 b9c7",
    "h2f2 h9g7 h0g2 i9h9",
    "h2d2 h9g7",
    "h2d2 h7e7",
    "h2d2 h9g7 h0g2 i9h9",
    "b2d2 h9g7",
    "b2f2 b9c7",
    "b2e2 b9c7",
    "b2e2 h9g7",
    "b2e2 b7e7",
    "b2e2 h7e7",
    "b2e2 b9c7 b0c2 a9b9",
    "b2e2 b9c7 b0c2 a9b9 a0b0",
    "f0e1 h9g7",
    "e3e4 h9g7",
    "h2h4 h9g7",
    "i0i1 h9g7",
    "h2g2 b9c7",
];

/// The built-in suite, from the start position.
pub fn built_in() -> Vec<Opening> {
    BUILT_IN
        .iter()
        .map(|line| Opening {
            fen: crate::board::START_FEN.to_string(),
            moves: line.split_whitespace().map(|m| m.parse().expect("built-in openings are ICCS")).collect(),
        })
        .collect()
}

/// Reads openings from text: one per line, either `FEN [moves m1 m2 …]` or a move list from the start
/// (any notation). Empty lines and lines starting with `#` are skipped. Every opening is checked.
pub fn parse(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |e: String| format!("openings line {}: {e}", n + 1);
        let (fen, moves_text) = if line.contains('/') {
            match line.split_once(" moves ") {
                Some((f, m)) => (f.trim().to_string(), m),
                None => (line.to_string(), ""),
            }
        } else {
            (crate::board::START_FEN.to_string(), line)
        };
        let mut pos = Position::from_fen(&fen).map_err(|e| err(e.to_string()))?;
        let mut moves = Vec::new();
        for t in moves_text.split_whitespace() {
            let m = parse_move(&pos, t).map_err(|e| err(e.to_string()))?;
            pos.make_move(m);
            moves.push(m);
        }
        if !pos.has_legal_move() {
            return Err(err("the opening position has no legal move".into()));
        }
        out.push(Opening { fen: pos_fen_before(&fen), moves });
    }
    if out.is_empty() {
        return Err("no opening found".into());
    }
    Ok(out)
}

/// The FEN as given, normalised (so that `FEN` tags read back).
fn pos_fen_before(fen: &str) -> String {
    Position::from_fen(fen).map(|p| p.to_fen()).unwrap_or_else(|_| fen.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn suite_is_legal_distinct_and_large() {
        let suite = built_in();
        assert!(suite.len() >= 100, "{}", suite.len());
        let mut keys = HashSet::new();
        for (o, line) in suite.iter().zip(BUILT_IN) {
            let mut p = Position::from_fen(&o.fen).unwrap();
            for &m in &o.moves {
                assert!(p.is_legal(m), "{line}: {m}");
                p.make_move(m);
            }
            assert!(keys.insert(p.key()), "duplicate opening {line}");
        }
    }

    #[test]
    fn files() {
        let text = "# comment\nh2e2 h9g7\n炮二平五 马8进7 ; same as above\n\
                    4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1 moves i0i1\n4k4/9/9/9/9/9/9/9/9/3K4R w\n";
        let o = parse(text).unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o[0], o[1]);
        assert_eq!(o[2].moves.len(), 1);
        assert!(parse("h2e2 h2e2").unwrap_err().contains("line 1"));
        assert!(parse("\n# nothing\n").is_err());
    }
}
