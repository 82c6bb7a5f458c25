//! Evaluations, and the one interface through which the search reaches them.
//!
//! The search keeps one [`Evaluator`] per thread and tells it about every move it makes and takes back, so that
//! an evaluation can keep whatever it likes incrementally (the handcrafted one keeps its material and
//! piece-square sums; a network keeps its accumulators). The board knows nothing of this: the search calls
//! [`Evaluator::push`] next to `Position::make_move` and [`Evaluator::pop`] next to `unmake_move`.
//!
//! Scores are from the side to move's point of view, in the evaluation's own units (the handcrafted weights
//! are fitted to game results; a middlegame rook is worth about 2200 of them, see `hce/weights.rs`).

pub mod hce;

use crate::board::Position;
use crate::types::Move;

/// An evaluation with state kept move by move along the search path.
///
/// The calls form a stack: `refresh` sets the root, each `push`/`push_null` is matched by one `pop`, and
/// `evaluate` is asked about the position the pushes have led to (the search passes that position in).
pub trait Evaluator: Send {
    /// Starts over from `pos` (the search's root): everything kept so far is dropped.
    fn refresh(&mut self, pos: &Position);
    /// `m`, legal in `pos`, is about to be played: `pos` is the position *before* the move, so that what the
    /// move captures is still on the board.
    fn push(&mut self, pos: &Position, m: Move);
    /// A null move is about to be made (the side to move passes).
    fn push_null(&mut self);
    /// Takes back the last `push` or `push_null`.
    fn pop(&mut self);
    /// The evaluation of `pos`, the position reached by the pushes since `refresh`.
    fn evaluate(&mut self, pos: &Position) -> i32;
}

/// Which evaluation the search uses (the `Eval` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// The handcrafted evaluation ([`hce`]).
    Hce,
    /// The network ([`crate::nnue`]): the built-in one, or the `EvalFile` option's. The default: it plays
    /// stronger (nnue/README.md's History has the matches).
    #[default]
    Nnue,
}

impl EvalKind {
    pub const ALL: [EvalKind; 2] = [EvalKind::Hce, EvalKind::Nnue];

    /// The option value that selects it.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Hce => "hce",
            EvalKind::Nnue => "nnue",
        }
    }

    /// Reads an option value (case-insensitive).
    pub fn parse(s: &str) -> Option<EvalKind> {
        EvalKind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(s.trim()))
    }
}
