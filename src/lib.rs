//! Chuhan (楚河汉界): a xiangqi engine.
//!
//! `types` names things, `board` knows the rules of movement, `notation` reads and writes moves for people,
//! `tools` holds the command-line utilities, `protocol` speaks UCCI and UCI.

// One `unsafe` block in the whole crate: the cache prefetch in `tt.rs`, with its proof beside it.
#![deny(unsafe_code)]

pub mod board;
pub mod eval;
pub mod notation;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod time;
pub mod tools;
pub mod tt;
pub mod types;

pub use board::{GenType, Position, START_FEN};
pub use types::{Color, Move, MoveList, Piece, PieceType, Square, SquareSet};
