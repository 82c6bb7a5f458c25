use super::Square;
use arrayvec::ArrayVec;
use std::fmt;
use std::str::FromStr;

/// A move packed in 16 bits: origin in bits 0–6, destination in bits 7–13.
///
/// Xiangqi has no promotions, castling or drops, so two squares say everything. `Move::NULL` (a0a0) is never a
/// real move; it prints as `0000`, the null move of UCI and UCCI.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Move(u16);

impl Move {
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 0x7f) as usize)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 7) as usize)
    }

    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move with these raw bits, if they name two squares of the board.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        if (raw & 0x7f) < 90 && (raw >> 7) < 90 {
            Some(Move(raw))
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a move in coordinates (expected four characters like h2e2)", self.0)
    }
}

impl std::error::Error for ParseMoveError {}

/// Parses ICCS coordinates (`h2e2`; upper case and `H2-E2` are accepted too), or `0000` for the null move.
/// Only the syntax is checked: whether the move is legal is a question for the position.
impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(s.chars().take(16).collect());
        if s == "0000" {
            return Ok(Move::NULL);
        }
        let lower = s.to_ascii_lowercase();
        let compact: String = lower.chars().filter(|&c| c != '-').collect();
        if compact.len() != 4 || !compact.is_ascii() {
            return Err(err());
        }
        let from: Square = compact[0..2].parse().map_err(|_| err())?;
        let to: Square = compact[2..4].parse().map_err(|_| err())?;
        if from == to {
            return Err(err());
        }
        Ok(Move::new(from, to))
    }
}

/// A fixed-capacity list of moves. No xiangqi position has more than 119 moves (2×17 rook, 2×17 cannon,
/// 2×8 horse, 5×3 pawn, 8 advisor, 8 elephant, 4 king), so 128 never overflows. The storage is not
/// initialised, which matters: a list lives in every node of the search.
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, { MoveList::CAPACITY }>,
}

impl MoveList {
    pub const CAPACITY: usize = 128;

    #[inline]
    pub fn new() -> MoveList {
        MoveList { moves: ArrayVec::new() }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves.push(m);
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.moves.truncate(len);
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.moves.contains(&m)
    }

    /// Keeps the moves from index `start` on for which `keep` is true, in order.
    #[inline]
    pub fn retain_from(&mut self, start: usize, mut keep: impl FnMut(Move) -> bool) {
        let mut w = start;
        for r in start..self.moves.len() {
            let m = self.moves[r];
            if keep(m) {
                self.moves[w] = m;
                w += 1;
            }
        }
        self.moves.truncate(w);
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_packing() {
        for from in Square::all() {
            for to in Square::all() {
                let m = Move::new(from, to);
                assert_eq!((m.from(), m.to()), (from, to));
                assert_eq!(Move::from_raw(m.raw()), Some(m));
            }
        }
        assert_eq!(Move::from_raw(0x7f), None);
    }

    #[test]
    fn move_text() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!("H2-E2".parse::<Move>(), Ok(m));
        assert_eq!("0000".parse::<Move>(), Ok(Move::NULL));
        assert_eq!(Move::NULL.to_string(), "0000");
        for bad in ["", "h2", "h2e", "h2e2x", "z2e2", "h2h2", "炮二平五", "h2e10"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
