//! A game as game files record it, whatever their format: tags, move texts in any notation, a result.

use crate::board::Position;
use crate::types::Move;

/// One game as a record gives it: its tags, its move texts and its result (from a PGN text or an XQF file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Move texts, in any notation.
    pub moves: Vec<String>,
    /// The result token of the move text, if any (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
}

impl GameRecord {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The start position: the FEN tag, or the standard start.
    pub fn start(&self) -> Result<Position, String> {
        match self.tag("FEN") {
            Some(f) if !f.trim().is_empty() => Position::from_fen(f).map_err(|e| format!("FEN tag: {e}")),
            _ => Ok(Position::startpos()),
        }
    }

    /// The game's first `plies` moves from its start, each read in any notation and checked legal as it is
    /// played; the error names the first move that is not (its number and text).
    pub fn replay(&self, plies: usize) -> Result<Replayed, String> {
        let start = self.start()?;
        let mut end = start.clone();
        let mut moves = Vec::with_capacity(plies.min(self.moves.len()));
        for (i, text) in self.moves.iter().take(plies).enumerate() {
            let m = crate::notation::parse_move(&end, text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            end.make_move(m);
            moves.push(m);
        }
        Ok(Replayed { start, moves, end })
    }
}

/// A game's moves played from its start ([`GameRecord::replay`]).
#[derive(Clone, Debug)]
pub struct Replayed {
    pub start: Position,
    pub moves: Vec<Move>,
    /// The position after the moves.
    pub end: Position,
}
