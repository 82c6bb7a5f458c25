//! Legal move generation.
//!
//! Pseudo-legal moves come from the tables; legality is then settled cheaply. When the side to move is not in
//! check, a move can only expose its king if it moves the king, moves a shield (see
//! [`Position::king_shields`]), or lands on an empty point between the king and an enemy cannon that faces it
//! with nothing in between. Only those moves go through the full test; every other move is legal as generated.
//! In check, every move is tested.

use super::tables::{
    Steps, ADVISOR_STEPS, ELEPHANT_STEPS, FILE_LINE, HORSE_STEPS, KING_STEPS, NO_SQ, PAWN_STEPS, QUIET_MASK, RANK_LINE,
};
use super::{tag, Position};
use crate::types::{Move, MoveList, Square};

/// Which legal moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    All,
    Captures,
    Quiets,
    /// The moves that answer a check (every legal move, when in check); nothing when not in check.
    Evasions,
}

#[inline(always)]
fn mv(from: usize, to: usize) -> Move {
    Move::new(Square::from_index(from), Square::from_index(to))
}

impl Position {
    /// Appends the legal moves of the given kind to `list`.
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        match gen {
            GenType::All => self.generate_legal::<true, true>(list),
            GenType::Captures => self.generate_legal::<true, false>(list),
            GenType::Quiets => self.generate_legal::<false, true>(list),
            GenType::Evasions if self.st.in_check => self.generate_legal::<true, true>(list),
            GenType::Evasions => {}
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal::<true, true>(&mut list);
        list
    }

    /// The number of legal moves, counted without listing them where it can be (perft's last ply): pieces
    /// that are not shields are counted by table lookups and popcounts.
    pub fn count_legal(&self) -> usize {
        if self.st.in_check {
            return self.legal_moves().len();
        }
        let (pinned, screens) = self.king_shields(self.side);
        if screens != 0 {
            return self.legal_moves().len();
        }
        let us = tag(self.side);
        let own = &self.color_occ[self.side.index()];
        let them = &self.color_occ[(!self.side).index()];
        let free = |sq: u8| self.board[sq as usize] & us == 0;
        let mut count = 0usize;
        let base = us as usize;
        for off in 1..16 {
            let from = self.slot_square[base + off] as usize;
            if from == NO_SQ as usize {
                continue;
            }
            if pinned >> from & 1 != 0 {
                // A shield: list its moves and test each.
                let mut list = MoveList::new();
                self.generate_piece(&mut list, off, from);
                count += list.iter().filter(|&&m| self.is_safe(m)).count();
                continue;
            }
            count += match off {
                1 | 2 => ADVISOR_STEPS[from].iter().filter(|&(t, _)| free(t)).count(),
                3 | 4 => {
                    ELEPHANT_STEPS[from].iter().filter(|&(t, eye)| self.board[eye as usize] == 0 && free(t)).count()
                }
                5 | 6 => HORSE_STEPS[from].iter().filter(|&(t, leg)| self.board[leg as usize] == 0 && free(t)).count(),
                7..=10 => {
                    let shift = if off <= 8 { 10 } else { 20 };
                    let (f, r) = (from % 9, from / 9);
                    let e = RANK_LINE[f][self.occ.ranks[r] as usize];
                    let g = FILE_LINE[r][self.occ.files[f] as usize];
                    ((e & QUIET_MASK).count_ones()
                        + (e >> shift & QUIET_MASK & them.ranks[r] as u32).count_ones()
                        + (g & QUIET_MASK).count_ones()
                        + (g >> shift & QUIET_MASK & them.files[f] as u32).count_ones()) as usize
                }
                _ => PAWN_STEPS[self.side.index()][from]
                    .iter()
                    .filter(|&(t, _)| own.ranks[t as usize / 9] >> (t % 9) & 1 == 0)
                    .count(),
            };
        }
        let from = self.slot_square[base] as usize;
        let mut kings = MoveList::new();
        self.generate_piece(&mut kings, 0, from);
        count + kings.iter().filter(|&&m| self.is_safe(m)).count()
    }

    /// Appends the pseudo-legal moves of the piece with slot offset `off` on `from`.
    fn generate_piece(&self, list: &mut MoveList, off: usize, from: usize) {
        let us = tag(self.side);
        let push = |list: &mut MoveList, to: u8| {
            if self.board[to as usize] & us == 0 {
                list.push(mv(from, to as usize));
            }
        };
        match off {
            0 => KING_STEPS[from].iter().for_each(|(t, _)| push(list, t)),
            1 | 2 => ADVISOR_STEPS[from].iter().for_each(|(t, _)| push(list, t)),
            3 | 4 => ELEPHANT_STEPS[from]
                .iter()
                .filter(|&(_, eye)| self.board[eye as usize] == 0)
                .for_each(|(t, _)| push(list, t)),
            5 | 6 => HORSE_STEPS[from]
                .iter()
                .filter(|&(_, leg)| self.board[leg as usize] == 0)
                .for_each(|(t, _)| push(list, t)),
            7..=10 => {
                let shift = if off <= 8 { 10 } else { 20 };
                let them = &self.color_occ[(!self.side).index()];
                let (f, r) = (from % 9, from / 9);
                let e = RANK_LINE[f][self.occ.ranks[r] as usize];
                let mut bits = e & QUIET_MASK | (e >> shift & QUIET_MASK & them.ranks[r] as u32);
                while bits != 0 {
                    list.push(mv(from, r * 9 + bits.trailing_zeros() as usize));
                    bits &= bits - 1;
                }
                let g = FILE_LINE[r][self.occ.files[f] as usize];
                let mut bits = g & QUIET_MASK | (g >> shift & QUIET_MASK & them.files[f] as u32);
                while bits != 0 {
                    list.push(mv(from, bits.trailing_zeros() as usize * 9 + f));
                    bits &= bits - 1;
                }
            }
            _ => PAWN_STEPS[self.side.index()][from].iter().for_each(|(t, _)| push(list, t)),
        }
    }

    /// Whether the side to move has at least one legal move. Having none loses, in check or not.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    #[inline]
    fn generate_legal<const CAPS: bool, const QUIETS: bool>(&self, list: &mut MoveList) {
        let start = list.len();
        if self.st.in_check {
            // Every move is tested (the king's inside `generate_pseudo`), after a cheap look at whether it
            // touches the check at all.
            self.generate_pseudo::<CAPS, QUIETS>(list, 0);
            let (targets, screens) = self.evasion_zone();
            let king = self.slot_square[tag(self.side) as usize] as usize;
            list.retain_from(start, |m| {
                let (from, to) = (m.from().index(), m.to().index());
                from == king || (targets >> to & 1 != 0 || screens >> from & 1 != 0) && self.is_safe(m)
            });
            return;
        }
        let (pinned, screens) = self.king_shields(self.side);
        self.generate_pseudo::<CAPS, QUIETS>(list, pinned);
        if QUIETS && screens != 0 {
            list.retain_from(start, |m| screens >> m.to().index() & 1 == 0 || self.is_safe(m));
        }
    }

    /// Appends pseudo-legal moves, keeping only the king-safe ones for the king and for pieces in `suspects`.
    #[inline(always)]
    fn generate_pseudo<const CAPS: bool, const QUIETS: bool>(&self, list: &mut MoveList, suspects: u128) {
        let us = tag(self.side);
        let them_occ = &self.color_occ[(!self.side).index()];
        let board = &self.board;

        let push_step = |list: &mut MoveList, from: usize, to: u8| {
            let target = board[to as usize];
            if target == 0 {
                if QUIETS {
                    list.push(mv(from, to as usize));
                }
            } else if CAPS && target & us == 0 {
                list.push(mv(from, to as usize));
            }
        };
        let leaper = |list: &mut MoveList, from: usize, steps: &Steps<4>| {
            for i in 0..steps.len as usize {
                push_step(list, from, steps.to[i]);
            }
        };
        let blocked_leaper = |list: &mut MoveList, from: usize, to: &[u8], block: &[u8]| {
            for (&t, &b) in to.iter().zip(block) {
                if board[b as usize] == 0 {
                    push_step(list, from, t);
                }
            }
        };
        // Rook (cap_shift 10) or cannon (cap_shift 20) along the rank and the file.
        let slider = |list: &mut MoveList, from: usize, cap_shift: u32| {
            let (f, r) = (from % 9, from / 9);
            let e = RANK_LINE[f][self.occ.ranks[r] as usize];
            if QUIETS {
                let mut q = e & QUIET_MASK;
                while q != 0 {
                    list.push(mv(from, r * 9 + q.trailing_zeros() as usize));
                    q &= q - 1;
                }
            }
            if CAPS {
                let mut c = e >> cap_shift & QUIET_MASK & them_occ.ranks[r] as u32;
                while c != 0 {
                    list.push(mv(from, r * 9 + c.trailing_zeros() as usize));
                    c &= c - 1;
                }
            }
            let e = FILE_LINE[r][self.occ.files[f] as usize];
            if QUIETS {
                let mut q = e & QUIET_MASK;
                while q != 0 {
                    list.push(mv(from, q.trailing_zeros() as usize * 9 + f));
                    q &= q - 1;
                }
            }
            if CAPS {
                let mut c = e >> cap_shift & QUIET_MASK & them_occ.files[f] as u32;
                while c != 0 {
                    list.push(mv(from, c.trailing_zeros() as usize * 9 + f));
                    c &= c - 1;
                }
            }
        };

        let base = us as usize;
        // Each kind in its own loop over its fixed slots; a suspect's moves are checked right after it.
        macro_rules! each {
            ($offsets:expr, |$from:ident| $gen:expr) => {
                for off in $offsets {
                    let $from = self.slot_square[base + off] as usize;
                    if $from == NO_SQ as usize {
                        continue;
                    }
                    let mark = list.len();
                    $gen;
                    if suspects != 0 && suspects >> $from & 1 != 0 {
                        list.retain_from(mark, |m| self.is_safe(m));
                    }
                }
            };
        }
        each!(7..9, |from| slider(list, from, 10));
        each!(9..11, |from| slider(list, from, 20));
        each!(5..7, |from| {
            let s = &HORSE_STEPS[from];
            blocked_leaper(list, from, &s.to[..s.len as usize], &s.block[..s.len as usize]);
        });
        each!(11..16, |from| {
            let s = &PAWN_STEPS[self.side.index()][from];
            for i in 0..s.len as usize {
                push_step(list, from, s.to[i]);
            }
        });
        each!(3..5, |from| {
            let s = &ELEPHANT_STEPS[from];
            blocked_leaper(list, from, &s.to[..s.len as usize], &s.block[..s.len as usize]);
        });
        each!(1..3, |from| leaper(list, from, &ADVISOR_STEPS[from]));
        let from = self.slot_square[base] as usize;
        let mark = list.len();
        leaper(list, from, &KING_STEPS[from]);
        list.retain_from(mark, |m| self.is_safe(m));
    }
}
