//! Chuhan (楚河汉界): a xiangqi engine.
//!
//! The engine core, each module owning one thing:
//! - `types`: squares, pieces, colours, moves and move lists, square sets;
//! - `board`: the position, make/unmake, legal move generation, attacks, FEN, perft;
//! - `rules`: the game's end (mate, stalemate, natural limit, material) and the repetition referee;
//! - `eval`: the evaluations behind the search's `Evaluator` interface (the handcrafted one in `eval::hce`);
//! - `nnue`: the evaluation network (inference, accumulators, the network file, SIMD);
//! - `search`: iterative deepening, alpha-beta, quiescence, move ordering, histories, time management, tunable
//!   parameters;
//! - `tt`: the shared transposition table; `memory`: the huge-page-friendly buffers it and the network live in;
//! - `wdl`: what a score means in games (win/draw/loss chances, fitted to our self-play);
//! - `notation`: moves for people (ICCS, Chinese, WXF);
//! - `engine`: what the protocol commands mean, for every protocol (the game, the options table in
//!   `engine::options`, what a `go` asks for and what its result becomes);
//! - `protocol`: the UCCI, UCI and CECP (XBoard) loops (parsing and printing only);
//! - `bench`: the fixed search that signs every change;
//! - `book`: opening books in ElephantEye's format; `strength`: the skill levels and their measured Elo.
//!
//! `tools` holds the command-line utilities (`perft`, `judge`, `analyze`, `annotate`, `match`, `datagen`, …). They
//! build on the core; nothing in the core imports them, and no module imports one that imports it (checked by
//! `tests/layering.rs`).

// `unsafe` lives in five places, each block with its proof beside it: the cache prefetch in `tt.rs`, the
// network's AVX2 loops in `nnue/simd.rs` and the trainer's gradient built for AVX2 in `nnue/train/model.rs` (each
// checked bit for bit against the portable code by a test), the call that makes the XBoard protocol ignore
// SIGINT in `protocol/cecp.rs` (tested by sending one), and the huge-page buffers of `memory.rs` (allocation,
// `madvise`, the slice views; tested there).
#![deny(unsafe_code)]

pub mod bench;
pub mod board;
pub mod book;
pub mod engine;
pub mod eval;
pub mod memory;
pub mod nnue;
pub mod notation;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod strength;
pub mod tools;
pub mod tt;
pub mod types;
pub mod wdl;

pub use board::{GenType, Position, START_FEN};
pub use types::{Color, Move, MoveList, Piece, PieceType, Square, SquareSet};
