//! Upcoming repetitions: can the side to move return, with one quiet move, to a position of the game or of the
//! search path? The repetition rules may decide such a move (a forbidden chase by the opponent wins it), so the
//! search must not write the node off by its evaluation alone.
//!
//! The key of the position after a quiet move differs from the current key by the side and by one piece on two
//! squares. A table holds that difference for every pair of squares a piece can move between (in either
//! direction: the difference is the same), so that each earlier position is tested with one lookup, as in
//! Stockfish's cuckoo test (Marcel van Kervinck's method), here with linear probing.

use super::zobrist::KEYS;
use super::Position;
use crate::types::{Move, Piece, PieceType, Square};
use once_cell::sync::Lazy;

const SLOTS: usize = 1 << 14;

struct Table {
    keys: Vec<u64>,
    /// The piece and its two squares (lower index first).
    entries: Vec<(Piece, u8, u8)>,
}

static TABLE: Lazy<Table> = Lazy::new(|| {
    let mut t = Table { keys: vec![0; SLOTS], entries: vec![(Piece::from_index(0), 0, 0); SLOTS] };
    for p in 0..Piece::NUM {
        let piece = Piece::from_index(p);
        for a in 0..90u8 {
            for b in a + 1..90 {
                let (fa, ra, fb, rb) = (a % 9, a / 9, b % 9, b / 9);
                let (df, dr) = (fa.abs_diff(fb), ra.abs_diff(rb));
                let reachable = match piece.kind() {
                    PieceType::Rook | PieceType::Cannon => df == 0 || dr == 0,
                    PieceType::Horse => (df, dr) == (1, 2) || (df, dr) == (2, 1),
                    PieceType::Elephant => (df, dr) == (2, 2),
                    PieceType::Advisor => (df, dr) == (1, 1),
                    PieceType::King | PieceType::Pawn => df + dr == 1,
                };
                if reachable {
                    let key = KEYS.side ^ KEYS.piece[p][a as usize] ^ KEYS.piece[p][b as usize];
                    let mut i = key as usize & (SLOTS - 1);
                    while t.keys[i] != 0 {
                        i = (i + 1) & (SLOTS - 1);
                    }
                    t.keys[i] = key;
                    t.entries[i] = (piece, a, b);
                }
            }
        }
    }
    t
});

impl Table {
    fn find(&self, key: u64) -> Option<(Piece, u8, u8)> {
        let mut i = key as usize & (SLOTS - 1);
        while self.keys[i] != 0 {
            if self.keys[i] == key {
                return Some(self.entries[i]);
            }
            i = (i + 1) & (SLOTS - 1);
        }
        None
    }
}

impl Position {
    /// Whether the side to move has a legal quiet move back into a position of the history (the same side to
    /// move, no capture or null move since).
    pub fn upcoming_repetition(&self) -> bool {
        let (now, start) = (self.history.len(), self.repetition_window_start());
        if now - start < 3 {
            return false;
        }
        let table = &*TABLE;
        let us = self.side_to_move();
        // After one move the side to move is the other one: plies now − 3, now − 5, … have it.
        (start..now - 2).rev().step_by(2).any(|p| {
            let Some((piece, a, b)) = table.find(self.st.key ^ self.key_at(p)) else { return false };
            if piece.color() != us {
                return false;
            }
            let (sa, sb) = (Square::from_index(a as usize), Square::from_index(b as usize));
            let m = match (self.piece_at(sa), self.piece_at(sb)) {
                (Some(x), None) if x == piece => Move::new(sa, sb),
                (None, Some(x)) if x == piece => Move::new(sb, sa),
                _ => return false,
            };
            self.is_legal(m)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Move, Position};

    fn play(moves: &str) -> Position {
        let mut pos = Position::startpos();
        for m in moves.split_whitespace() {
            let m: Move = m.parse().unwrap();
            assert!(pos.is_legal(m), "{m}");
            pos.make_move(m);
        }
        pos
    }

    /// Agrees with trying every legal quiet move (`repeats_after`) along games full of back-and-forth moves.
    #[test]
    fn agrees_with_trying_every_move() {
        let mut p = play("h2e2 h9g7");
        let mut found = [0, 0];
        for m in ["b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "a0a1", "a9a8", "a1a0", "a8a9", "c2e1", "c7b9"] {
            let slow = p.legal_moves().iter().any(|&q| !p.is_capture(q) && p.repeats_after(q));
            assert_eq!(p.upcoming_repetition(), slow, "after {} plies", p.ply());
            found[slow as usize] += 1;
            let m: Move = m.parse().unwrap();
            assert!(p.is_legal(m), "{m}");
            p.make_move(m);
        }
        assert!(found[0] > 0 && found[1] > 0, "{found:?}");
        // The start position has no history to return to.
        assert!(!Position::startpos().upcoming_repetition());
    }
}
