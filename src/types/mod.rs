//! The vocabulary every other module speaks: squares, sides, pieces, moves, sets of squares.

mod moves;
mod piece;
mod square;
mod squareset;

pub use moves::{Move, MoveList, ParseMoveError};
pub use piece::{Color, ParsePieceError, Piece, PieceType};
pub use square::{ParseSquareError, Square};
pub use squareset::{SquareSet, SquareSetIter};
