//! The staged move picker: the hash move first, then winning captures (most valuable victim, least valuable
//! attacker, capture history), killers and the counter-move, quiet moves by history, losing captures last.
//! In check every legal move is an evasion and they come in one scored list. Generation is lazy: a cutoff on
//! the hash move costs no generation at all.

use super::history::{Histories, PieceTo};
use super::params;
use crate::board::{GenType, Position};
use crate::types::{Move, MoveList};
use arrayvec::ArrayVec;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    HashMove,
    InitCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    InitQuiets,
    Quiets,
    BadCaptures,
    InitEvasions,
    Evasions,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    list: MoveList,
    scores: ArrayVec<i32, { MoveList::CAPACITY }>,
    next: usize,
    bad: MoveList,
    bad_next: usize,
    /// Captures only (quiescence): no killers, quiets or losing captures.
    captures_only: bool,
    /// Set by the search once late quiet moves are to be pruned.
    pub skip_quiets: bool,
}

/// What the picker needs to score moves.
pub struct Context<'a> {
    pub pos: &'a Position,
    pub hist: &'a Histories,
    pub cont: [&'a PieceTo; 2],
}

fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| p.kind().see_value());
    let attacker = pos.piece_at(m.from()).map_or(0, |p| p.kind().see_value());
    victim * 16 - attacker / 16
}

impl MovePicker {
    /// For the main search.
    pub fn new(pos: &Position, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        let tt_move = if !tt_move.is_null() && pos.is_legal(tt_move) { tt_move } else { Move::NULL };
        MovePicker {
            stage: Stage::HashMove,
            tt_move,
            killers,
            counter,
            list: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
            captures_only: false,
            skip_quiets: false,
        }
    }

    /// For quiescence: captures (or evasions in check), the hash move first if it fits.
    pub fn quiescence(pos: &Position, tt_move: Move) -> MovePicker {
        let tt_ok = !tt_move.is_null() && pos.is_legal(tt_move) && (pos.in_check() || pos.is_capture(tt_move));
        let mut mp = MovePicker::new(pos, if tt_ok { tt_move } else { Move::NULL }, [Move::NULL; 2], Move::NULL);
        mp.captures_only = true;
        mp
    }

    fn pick_best(&mut self) -> Option<Move> {
        if self.next >= self.list.len() {
            return None;
        }
        let n = self.list.len();
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.list.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        let m = self.list.as_slice()[self.next];
        self.next += 1;
        Some(m)
    }

    fn is_special(&self, m: Move) -> bool {
        m == self.tt_move || m == self.killers[0] || m == self.killers[1] || m == self.counter
    }

    /// The next move to search, or `None` when all are done.
    pub fn next(&mut self, cx: &Context) -> Option<Move> {
        let pos = cx.pos;
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = if pos.in_check() { Stage::InitEvasions } else { Stage::InitCaptures };
                    if !self.tt_move.is_null() {
                        return Some(self.tt_move);
                    }
                }
                Stage::InitCaptures => {
                    self.list.clear();
                    pos.generate(GenType::Captures, &mut self.list);
                    self.scores.clear();
                    for &m in self.list.iter() {
                        let history = cx.hist.capture.get(pos, m);
                        self.scores.push(mvv_lva(pos, m) + history / params::capture_history_div());
                    }
                    self.next = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => {
                        if self.captures_only || pos.see_ge(m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    None => {
                        self.stage = if self.captures_only { Stage::Done } else { Stage::Killer1 };
                    }
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let (m, dup) = match self.stage {
                        Stage::Killer1 => (self.killers[0], false),
                        Stage::Killer2 => (self.killers[1], self.killers[1] == self.killers[0]),
                        _ => (self.counter, self.counter == self.killers[0] || self.counter == self.killers[1]),
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::InitQuiets,
                    };
                    let fresh = !dup && m != self.tt_move && !m.is_null();
                    if !self.skip_quiets && fresh && !pos.is_capture(m) && pos.is_legal(m) {
                        return Some(m);
                    }
                }
                Stage::InitQuiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    self.list.clear();
                    pos.generate(GenType::Quiets, &mut self.list);
                    let side = pos.side_to_move();
                    self.scores.clear();
                    for &m in self.list.iter() {
                        self.scores.push(cx.hist.quiet(side, pos.piece_at(m.from()), m, cx.cont));
                    }
                    self.next = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.pick_best() {
                        Some(m) if self.is_special(m) => {}
                        Some(m) => return Some(m),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_next < self.bad.len() {
                        let m = self.bad.as_slice()[self.bad_next];
                        self.bad_next += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::InitEvasions => {
                    self.list.clear();
                    pos.generate(GenType::All, &mut self.list);
                    let side = pos.side_to_move();
                    self.scores.clear();
                    for &m in self.list.iter() {
                        self.scores.push(if pos.is_capture(m) {
                            1 << 20 | mvv_lva(pos, m)
                        } else {
                            cx.hist.butterfly.get(side, m)
                        });
                    }
                    self.next = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::perft::reference_fen;
    use crate::search::history::{ContIndex, Histories};

    /// One fixed order for comparing move lists.
    fn coordinates(m: &Move) -> (usize, usize) {
        (m.from().index(), m.to().index())
    }

    /// Everything the picker hands out, sorted, with the picker made as the search makes it.
    fn picked(pos: &Position, hist: &Histories, quiescence: bool, tt: Move, killers: [Move; 2]) -> Vec<Move> {
        let none = hist.continuation.table(ContIndex::NONE);
        let cx = Context { pos, hist, cont: [none, none] };
        let mut mp =
            if quiescence { MovePicker::quiescence(pos, tt) } else { MovePicker::new(pos, tt, killers, killers[1]) };
        let mut out = Vec::new();
        while let Some(m) = mp.next(&cx) {
            out.push(m);
        }
        out.sort_by_key(coordinates);
        out
    }

    /// The picker hands out each legal move exactly once and nothing else (only the legal captures in
    /// quiescence, every legal move when in check), whatever hash move and killers it is given, legal or not.
    /// The positions are two plies around perft positions chosen for pins, cannon screens and checks.
    #[test]
    fn the_picker_hands_out_exactly_the_legal_moves() {
        let fens = ["pos2", "pos3", "pos5", "pos7", "pos10", "pos11"].map(reference_fen);
        let hist = Histories::default();
        let mut positions = 0;
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            // Moves of the root, some of them illegal deeper down: they stand in for stale hash moves.
            let strangers: Vec<Move> = pos.legal_moves().iter().copied().collect();
            for &a in strangers.iter() {
                pos.make_move(a);
                for &b in pos.legal_moves().iter() {
                    pos.make_move(b);
                    positions += 1;
                    let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
                    legal.sort_by_key(coordinates);
                    let captures: Vec<Move> = if pos.in_check() {
                        legal.clone()
                    } else {
                        legal.iter().copied().filter(|&m| pos.is_capture(m)).collect()
                    };
                    let pick = |i: usize| strangers[(positions + i) % strangers.len()];
                    let first = legal.first().copied().unwrap_or(Move::NULL);
                    for (tt, killers) in [
                        (Move::NULL, [Move::NULL; 2]),
                        (first, [pick(1), pick(2)]),
                        (pick(3), [first, first]),
                        (legal.last().copied().unwrap_or(Move::NULL), [pick(4), first]),
                    ] {
                        assert_eq!(picked(&pos, &hist, false, tt, killers), legal, "{}", pos.to_fen());
                        assert_eq!(picked(&pos, &hist, true, tt, killers), captures, "{}", pos.to_fen());
                    }
                    pos.unmake_move();
                }
                pos.unmake_move();
            }
        }
        assert!(positions > 3000, "{positions}");
    }
}
