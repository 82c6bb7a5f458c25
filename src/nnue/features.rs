//! The network's inputs: one per (own or enemy, kind, point), seen from each side.
//!
//! A perspective sees the board from its own side: Black's view turns the board over (rank `r` becomes `9 − r`)
//! and calls its own pieces "own". So both perspectives share one weight matrix, and a position and its
//! colour-flipped twin give the same two accumulators, swapped.

use crate::types::{Color, Piece, Square};

/// Inputs per perspective: 2 (own, enemy) × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * 90;

/// The input that `piece` on `sq` sets in `perspective`'s accumulator.
#[inline]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let (side, rel) = match perspective {
        Color::Red => (piece.color().index(), sq),
        Color::Black => (1 - piece.color().index(), sq.flip_rank()),
    };
    (side * 7 + piece.kind().index()) * 90 + rel.index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn indices_cover_the_inputs_once() {
        let mut seen = vec![false; INPUTS];
        for p in 0..Piece::NUM {
            for sq in Square::all() {
                let i = index(Color::Red, Piece::from_index(p), sq);
                assert!(!seen[i], "{p} {sq}");
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn black_sees_the_board_turned_over() {
        let red_rook = Piece::new(Color::Red, PieceType::Rook);
        let black_rook = Piece::new(Color::Black, PieceType::Rook);
        let a0 = Square::new(0, 0);
        assert_eq!(index(Color::Red, red_rook, a0), index(Color::Black, black_rook, a0.flip_rank()));
        assert_eq!(index(Color::Red, black_rook, a0), index(Color::Black, red_rook, a0.flip_rank()));
    }
}
