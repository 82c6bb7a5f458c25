//! Move-ordering statistics: butterfly, continuation, capture histories, killers and counter-moves.

use crate::types::{Move, Piece};

pub const MAX_HISTORY: i32 = 16384;

/// Moves a statistic towards `bonus` with gravity, keeping it within ±MAX_HISTORY.
#[inline]
pub fn update(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-MAX_HISTORY, MAX_HISTORY);
    let v = *entry as i32;
    *entry = (v + b - v * b.abs() / MAX_HISTORY) as i16;
}

/// History bonus for a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (170 * depth - 80).clamp(0, 2400)
}

/// `[piece][to]` indexed by a previous move's piece and destination: the continuation histories.
pub type PieceTo = [[i16; 90]; 14];

pub struct Histories {
    /// `[side][from][to]`.
    pub butterfly: Vec<[[i16; 90]; 90]>,
    /// `[moving piece][to][captured kind]`.
    pub capture: Vec<[[i16; 7]; 90]>,
    /// `[previous piece][previous to]` → piece-to table.
    pub continuation: Vec<PieceTo>,
    /// `[previous piece][previous to]` → the move that refuted it.
    pub counter: Vec<[Move; 90]>,
}

impl Histories {
    pub fn new() -> Box<Histories> {
        Box::new(Histories {
            butterfly: vec![[[0; 90]; 90]; 2],
            capture: vec![[[0; 7]; 90]; 14],
            continuation: vec![[[0; 90]; 14]; 14 * 90 + 1],
            counter: vec![[Move::NULL; 90]; 14],
        })
    }

    pub fn clear(&mut self) {
        for t in &mut self.butterfly {
            *t = [[0; 90]; 90];
        }
        for t in &mut self.capture {
            *t = [[0; 7]; 90];
        }
        for t in &mut self.continuation {
            *t = [[0; 90]; 14];
        }
        for t in &mut self.counter {
            *t = [Move::NULL; 90];
        }
    }

    /// Index of the continuation table that follows a move of `piece` to `to` (the last one: no move).
    #[inline]
    pub fn cont_index(piece: Option<Piece>, to: usize) -> usize {
        match piece {
            Some(p) => p.index() * 90 + to,
            None => 14 * 90,
        }
    }
}
