//! The handcrafted evaluation: material, piece-square tables, mobility, king attack and defence, threats,
//! tapered by game phase.
//!
//! Every term is "weight `i` counted `n` times" for one side. The terms are written once, against a [`Sink`]:
//! the search's sink adds up weights, the tuner's sink records the counts, the `eval` command's sink sorts
//! them into categories. Weights live in `weights.rs` (layout in `layout.rs`). Scores are from the side to
//! move's point of view, in the units the tuner fits (a middlegame rook is worth about 2200, an endgame one
//! about 1000: see the material row of `weights.rs`).
//!
//! [`State`] is this evaluation behind the search's [`Evaluator`] interface: it keeps the material and
//! piece-square sums move by move and caches the imbalance terms by material.

pub mod layout;
pub mod weights;

use super::Evaluator;
use crate::board::tables::{
    file_points, Steps, ADVISOR_STEPS, ELEPHANT_STEPS, FILE_LINE, HORSE_STEPS, KING_STEPS, LINE_BETWEEN, NO_SQ,
    PAWN_STEPS, QUIET_MASK, RANK_LINE,
};
use crate::board::{Occupancy, Position};
use crate::rules::insufficient_material;
use crate::types::{Color, Move, PieceType, Square};
use layout::*;
use once_cell::sync::Lazy;
use weights::WEIGHTS;

/// Receives the evaluation's terms.
pub trait Sink {
    /// Weight `index` counts `n` times for the side being evaluated.
    fn add(&mut self, index: usize, n: i32);
}

struct Sum(Score);

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        self.0 += WEIGHTS[index] * n;
    }
}

/// The game phase from the pieces left: 0 = bare kings, [`PHASE_MAX`] = all attackers on the board.
pub fn phase(pos: &Position) -> i32 {
    let mut ph = 0;
    for c in Color::ALL {
        ph += pos.count(c, PieceType::Rook) as i32 * PHASE_ROOK;
        ph += (pos.count(c, PieceType::Horse) + pos.count(c, PieceType::Cannon)) as i32 * PHASE_MINOR;
    }
    ph.min(PHASE_MAX)
}

#[inline]
fn taper(s: Score, ph: i32) -> i32 {
    (s.mg * ph + s.eg * (PHASE_MAX - ph)) / PHASE_MAX
}

/// The square as seen from `color`'s side (rank 0 = its own back rank).
#[inline]
fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    }
}

/// Empty points a rook or cannon on (`f`, `r`) can move to.
#[inline]
fn slider_moves(occ: &Occupancy, f: usize, r: usize) -> usize {
    let along_rank = RANK_LINE[f][occ.ranks[r] as usize] & QUIET_MASK;
    let along_file = FILE_LINE[r][occ.files[f] as usize] & QUIET_MASK;
    (along_rank.count_ones() + along_file.count_ones()) as usize
}

/// The palace files d–f as a mask over files.
const PALACE_FILES: u32 = 0b11_1000;

/// For each colour, the points of the palace it attacks (Black's for Red, Red's for Black).
const ENEMY_PALACE_BITS: [u128; 2] = {
    let mut m = [0u128; 2];
    let mut f = 3;
    while f < 6 {
        let mut r = 0;
        while r < 3 {
            m[1] |= 1 << (r * 9 + f);
            m[0] |= 1 << ((9 - r) * 9 + f);
            r += 1;
        }
        f += 1;
    }
    m
};

/// Material and piece-square weight of one piece (the part of the evaluation that the search keeps
/// incrementally), from its owner's point of view.
#[inline]
fn piece_psq(kind: PieceType, color: Color, sq: Square) -> Score {
    let rel = relative(color, sq);
    WEIGHTS[MATERIAL + kind.index()] + WEIGHTS[pst_index(kind.index(), rel.rank() as usize, rel.file() as usize)]
}

/// Material and piece-square weights of the whole position, Red's minus Black's.
pub fn psq(pos: &Position) -> Score {
    let mut total = Score::default();
    for c in Color::ALL {
        for (kind, sq) in pos.pieces_of_color(c) {
            let v = piece_psq(kind, c, sq);
            total += if c == Color::Red { v } else { -v };
        }
    }
    total
}

/// How `m` (legal here) changes [`psq`].
#[inline]
pub fn psq_delta(pos: &Position, m: Move) -> Score {
    let Some(p) = pos.piece_at(m.from()) else { return Score::default() };
    let mut d = piece_psq(p.kind(), p.color(), m.to()) - piece_psq(p.kind(), p.color(), m.from());
    if let Some(c) = pos.piece_at(m.to()) {
        d += piece_psq(c.kind(), c.color(), m.to());
    }
    if p.color() == Color::Red {
        d
    } else {
        -d
    }
}

/// Material imbalance, Stockfish's quadratic form: what a piece is worth depends on what else is on the board
/// (horses gain as the board empties, cannons want screens, defenders matter most against attackers).
fn imbalance_terms<S: Sink>(pos: &Position, us: Color, sink: &mut S) {
    let counts = |c: Color| -> [i32; 6] { std::array::from_fn(|k| pos.count(c, PieceType::ALL[k + 1]) as i32) };
    let (ours, theirs) = (counts(us), counts(!us));
    for (i, &n) in ours.iter().enumerate() {
        if n == 0 {
            continue;
        }
        for (j, &m) in ours[..=i].iter().enumerate() {
            if m != 0 {
                sink.add(IMBALANCE_OURS + i * (i + 1) / 2 + j, n * m);
            }
        }
        for (j, &m) in theirs[..i].iter().enumerate() {
            if m != 0 {
                sink.add(IMBALANCE_THEIRS + i * (i - 1) / 2 + j, n * m);
            }
        }
    }
}

/// The imbalance terms of the position, Red's minus Black's. They depend only on the piece counts, so
/// [`State`] caches them by [`Position::material_key`].
pub fn imbalance(pos: &Position) -> Score {
    let mut red = Sum(Score::default());
    imbalance_terms(pos, Color::Red, &mut red);
    let mut black = Sum(Score::default());
    imbalance_terms(pos, Color::Black, &mut black);
    red.0 - black.0
}

/// The points one side attacks, by the kind of attacker (a point's bit is `1 << square index`), and where its
/// pieces stand (read again by the mobility and threat terms).
#[derive(Clone, Copy)]
struct Attacks {
    pawns: u128,
    /// Advisors and elephants.
    guards: u128,
    /// Horses and cannons.
    minors: u128,
    all: u128,
    /// Every piece of this side.
    own: u128,
    /// The rooks', horses', cannons' and pawns' points, in [`THREATENED`] order.
    at: [u128; 4],
    /// Each horse on the board: its point and the points it attacks.
    horses: [(Square, u128); 2],
    horse_count: usize,
}

/// The kinds the threat terms look at, in their weights' order.
const THREATENED: [PieceType; 4] = [PieceType::Rook, PieceType::Horse, PieceType::Cannon, PieceType::Pawn];

/// Jumps that a piece on the blocking point stops (horse legs, elephant eyes), for every point: its distinct
/// blocking points, and for each set of them left empty (bit `i` for `block[i]`), the points reached. One
/// table lookup then replaces a test per jump.
struct Gated {
    block: [[u8; 4]; 90],
    reach: [[u128; 16]; 90],
}

impl Gated {
    fn new<const N: usize>(steps: &[Steps<N>; 90]) -> Gated {
        let mut g = Gated { block: [[NO_SQ; 4]; 90], reach: [[0; 16]; 90] };
        for (sq, jumps) in steps.iter().enumerate() {
            let mut n = 0;
            for (to, b) in jumps.iter() {
                let i = match g.block[sq][..n].iter().position(|&x| x == b) {
                    Some(i) => i,
                    None => {
                        g.block[sq][n] = b;
                        n += 1;
                        n - 1
                    }
                };
                for mask in 0..16 {
                    if mask >> i & 1 != 0 {
                        g.reach[sq][mask] |= 1u128 << to;
                    }
                }
            }
        }
        g
    }

    /// The points reached from `sq` on this board (`NO_SQ` padding reads empty and gates nothing).
    #[inline(always)]
    fn reach(&self, pos: &Position, sq: Square) -> u128 {
        let b = &self.block[sq.index()];
        let free = |i: usize| ((pos.slot_at_index(b[i] as usize) == 0) as usize) << i;
        self.reach[sq.index()][free(0) | free(1) | free(2) | free(3)]
    }
}

/// The points a pawn (by colour), an advisor or a king attacks from each point, and the horses' and
/// elephants' gated jumps: steps kept as bit masks so that a piece's attacks are one lookup.
struct StepMaps {
    pawn: [[u128; 90]; 2],
    advisor: [u128; 90],
    king: [u128; 90],
    horse: Gated,
    elephant: Gated,
}

static STEP_MAPS: Lazy<Box<StepMaps>> = Lazy::new(|| {
    let bits = |steps: &mut dyn Iterator<Item = (u8, u8)>| steps.fold(0u128, |b, (to, _)| b | 1u128 << to);
    Box::new(StepMaps {
        pawn: std::array::from_fn(|c| std::array::from_fn(|sq| bits(&mut PAWN_STEPS[c][sq].iter()))),
        advisor: std::array::from_fn(|sq| bits(&mut ADVISOR_STEPS[sq].iter())),
        king: std::array::from_fn(|sq| bits(&mut KING_STEPS[sq].iter())),
        horse: Gated::new(&HORSE_STEPS),
        elephant: Gated::new(&ELEPHANT_STEPS),
    })
});

/// What `color` attacks: on an occupied point, whether it could capture there (an enemy piece) or recapture
/// (its own piece, defended). Exact for occupied points, which are all the threat terms ask about; rooks' and
/// cannons' lines mark only the pieces they end on, and the kings' facing is left out.
fn attacks(pos: &Position, color: Color) -> Attacks {
    let occ = pos.occupancy();
    let mut a = Attacks {
        pawns: 0,
        guards: 0,
        minors: 0,
        all: 0,
        own: 0,
        at: [0; 4],
        horses: [(Square::from_index(0), 0); 2],
        horse_count: 0,
    };
    let steps = &**STEP_MAPS;
    for sq in pos.squares(color, PieceType::Pawn) {
        a.at[3] |= 1u128 << sq.index();
        a.pawns |= steps.pawn[color.index()][sq.index()];
    }
    let mut guards_at = 0u128;
    for sq in pos.squares(color, PieceType::Advisor) {
        guards_at |= 1u128 << sq.index();
        a.guards |= steps.advisor[sq.index()];
    }
    for sq in pos.squares(color, PieceType::Elephant) {
        guards_at |= 1u128 << sq.index();
        a.guards |= steps.elephant.reach(pos, sq);
    }
    for sq in pos.squares(color, PieceType::Horse) {
        let reach = steps.horse.reach(pos, sq);
        a.at[1] |= 1u128 << sq.index();
        a.minors |= reach;
        a.horses[a.horse_count] = (sq, reach);
        a.horse_count += 1;
    }
    let mut rooks = 0u128;
    for (kind, shift, i) in [(PieceType::Rook, 10, 0), (PieceType::Cannon, 20, 2)] {
        for sq in pos.squares(color, kind) {
            let (f, r) = (sq.file() as usize, sq.rank() as usize);
            a.at[i] |= 1u128 << sq.index();
            let along_rank = (RANK_LINE[f][occ.ranks[r] as usize] >> shift & QUIET_MASK) as u128;
            let along_file = FILE_LINE[r][occ.files[f] as usize] >> shift & QUIET_MASK;
            let bits = along_rank << (9 * r) | file_points(along_file, f);
            if kind == PieceType::Rook {
                rooks |= bits;
            } else {
                a.minors |= bits;
            }
        }
    }
    let king = pos.king_square(color).index();
    a.all = a.pawns | a.guards | a.minors | rooks | steps.king[king];
    a.own = a.at[0] | a.at[1] | a.at[2] | a.at[3] | guards_at | 1u128 << king;
    a
}

/// Our rooks, horses, cannons and pawns under threat: attacked by a cheaper enemy piece, or else attacked and
/// not defended; apart for the side to move (which can save a piece) and the other.
fn threat_terms<S: Sink>(pos: &Position, us: Color, maps: &[Attacks; 2], sink: &mut S) {
    let (theirs, ours) = (&maps[(!us).index()], &maps[us.index()]);
    let to_move = (pos.side_to_move() == us) as usize;
    let cheap_for_rook = theirs.pawns | theirs.guards | theirs.minors;
    let cheap_for_minor = theirs.pawns | theirs.guards;
    for (i, kind) in THREATENED.into_iter().enumerate() {
        let bb = ours.at[i];
        let cheaper = match kind {
            PieceType::Rook => cheap_for_rook,
            PieceType::Horse | PieceType::Cannon => cheap_for_minor,
            _ => 0,
        };
        let by_cheaper = (bb & cheaper).count_ones() as i32;
        let hanging = (bb & theirs.all & !cheaper & !ours.all).count_ones() as i32;
        if by_cheaper != 0 {
            sink.add(THREATS + to_move * 4 + i, by_cheaper);
        }
        if hanging != 0 {
            sink.add(THREATS + 8 + to_move * 4 + i, hanging);
        }
    }
}

/// Both sides' attack maps, indexed by colour: built once per evaluation, read by both sides' terms.
fn attack_maps(pos: &Position) -> [Attacks; 2] {
    [attacks(pos, Color::Red), attacks(pos, Color::Black)]
}

/// Records all the terms of `us`'s pieces, material, piece-square and imbalance included (the tuner's and the
/// `eval` report's view); `maps` from [`attack_maps`].
fn side_terms<S: Sink>(pos: &Position, us: Color, maps: &[Attacks; 2], sink: &mut S) {
    terms::<S, true>(pos, us, maps, sink)
}

fn terms<S: Sink, const PSQ: bool>(pos: &Position, us: Color, maps: &[Attacks; 2], sink: &mut S) {
    let them = !us;
    let occ = pos.occupancy();
    // Point tests read the board's bytes (cheaper than the occupancy masks' rank and file arithmetic).
    let slot = |sq: u8| pos.slot_at(Square::from_index(sq as usize));
    // The enemy palace's ranks as a mask over ranks, its files over files.
    let palace_ranks: u32 = if us == Color::Red { 0b11_1000_0000 } else { 0b111 };
    let their_king = pos.king_square(them);
    if PSQ {
        for (kind, sq) in pos.pieces_of_color(us) {
            let rel = relative(us, sq);
            sink.add(MATERIAL + kind.index(), 1);
            sink.add(pst_index(kind.index(), rel.rank() as usize, rel.file() as usize), 1);
        }
    }
    // Each kind in its own loop over its fixed slots.
    let mut units = 0usize;
    let mut pawn_files = 0u16;
    let mut crossed = 0usize;
    for sq in pos.squares(us, PieceType::Pawn) {
        pawn_files |= 1 << sq.file();
        let rel = relative(us, sq);
        let (rf, rr) = (rel.file() as usize, rel.rank() as usize);
        crossed += (rr >= 5) as usize;
        if rr >= 7 && (3..=5).contains(&rf) {
            units += 2;
        } else if rr >= 6 && (2..=6).contains(&rf) {
            units += 1;
        }
    }
    for kind in [PieceType::Rook, PieceType::Cannon] {
        let rook = kind == PieceType::Rook;
        for sq in pos.squares(us, kind) {
            let rel = relative(us, sq);
            let (rf, rr) = (rel.file() as usize, rel.rank() as usize);
            let (f, r) = (sq.file() as usize, sq.rank() as usize);
            let moves = slider_moves(occ, f, r).min(17);
            crossed += (rr >= 5) as usize;
            sink.add(if rook { ROOK_MOBILITY } else { CANNON_MOBILITY } + moves, 1);
            // Does it reach into the enemy palace along its file or its rank (up to and including the first
            // piece on each side)?
            let reach = |line: u32| (line | line >> 10 | line >> 20) & QUIET_MASK;
            let into_palace = ((3..=5).contains(&f) && reach(FILE_LINE[r][occ.files[f] as usize]) & palace_ranks != 0)
                || (palace_ranks >> r & 1 != 0 && reach(RANK_LINE[f][occ.ranks[r] as usize]) & PALACE_FILES != 0);
            if rook {
                if pawn_files >> f & 1 == 0 {
                    sink.add(ROOK_OPEN_FILE, 1);
                }
                units += if into_palace {
                    3
                } else if rr >= 5 {
                    1
                } else {
                    0
                };
            } else {
                if their_king.file() as usize == f {
                    // One screen would be check; two are the central cannon's pressure.
                    match (occ.files[f] & LINE_BETWEEN[r][their_king.rank() as usize]).count_ones() {
                        0 => sink.add(EMPTY_HEAD_CANNON, 1),
                        2 => sink.add(CENTRAL_CANNON, 1),
                        _ => {}
                    }
                }
                if rr == 9 {
                    sink.add(BOTTOM_CANNON, 1);
                }
                units += if into_palace || (3..=5).contains(&rf) { 2 } else { 0 };
            }
        }
    }
    let mine = &maps[us.index()];
    for &(sq, reach) in &mine.horses[..mine.horse_count] {
        let rel = relative(us, sq);
        let free = reach & !mine.own;
        let hits_palace = free & ENEMY_PALACE_BITS[us.index()] != 0;
        let free = free.count_ones() as usize;
        sink.add(HORSE_MOBILITY + free, 1);
        crossed += (rel.rank() >= 5) as usize;
        if rel == Square::new(4, 1) {
            sink.add(PALACE_HORSE, 1);
        }
        units += if hits_palace {
            2
        } else if rel.rank() >= 5 {
            1
        } else {
            0
        };
    }
    sink.add(CROSSED + crossed.min(CROSSED_MAX), 1);
    threat_terms(pos, us, maps, sink);
    let units = units.min(KING_ATTACK_UNITS - 1);
    let shield = (pos.count(them, PieceType::Advisor) as usize).min(2) * 3
        + (pos.count(them, PieceType::Elephant) as usize).min(2);
    sink.add(KING_ATTACK + shield * KING_ATTACK_UNITS + units, 1);

    if PSQ {
        imbalance_terms(pos, us, sink);
    }

    sink.add(ADVISORS + (pos.count(us, PieceType::Advisor) as usize).min(2), 1);
    sink.add(ELEPHANTS + (pos.count(us, PieceType::Elephant) as usize).min(2), 1);
    // Linked pairs (both relations are symmetric, so the slots' order does not matter).
    let mut a = pos.squares(us, PieceType::Advisor);
    if let (Some(x), Some(y)) = (a.next(), a.next()) {
        if ADVISOR_STEPS[x.index()].iter().any(|(t, _)| t as usize == y.index()) {
            sink.add(LINKED_ADVISORS, 1);
        }
    }
    let mut e = pos.squares(us, PieceType::Elephant);
    if let (Some(x), Some(y)) = (e.next(), e.next()) {
        if ELEPHANT_STEPS[x.index()].iter().any(|(t, eye)| t as usize == y.index() && slot(eye) == 0) {
            sink.add(LINKED_ELEPHANTS, 1);
        }
    }
}

/// Whether `color` has a piece that can attack across the river (rook, horse, cannon or pawn).
fn has_crossing_attackers(pos: &Position, color: Color) -> bool {
    [PieceType::Rook, PieceType::Horse, PieceType::Cannon, PieceType::Pawn].iter().any(|&k| pos.count(color, k) > 0)
}

/// Divides a score by 4 when the side it favours has nothing left that can cross the river: such endings are
/// very hard to win.
fn scale(pos: &Position, v: i32) -> i32 {
    let favoured = if v > 0 { pos.side_to_move() } else { !pos.side_to_move() };
    if v != 0 && !has_crossing_attackers(pos, favoured) {
        v / 4
    } else {
        v
    }
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, psq(pos) + imbalance(pos))
}

/// The evaluation, given [`psq`] + [`imbalance`] of the position (which [`State`] keeps move by move and
/// caches).
fn evaluate_with(pos: &Position, material_red: Score) -> i32 {
    if insufficient_material(pos) {
        return 0;
    }
    let us = pos.side_to_move();
    let mut ours = Sum(WEIGHTS[TEMPO] + if us == Color::Red { material_red } else { -material_red });
    let maps = attack_maps(pos);
    terms::<_, false>(pos, us, &maps, &mut ours);
    let mut theirs = Sum(Score::default());
    terms::<_, false>(pos, !us, &maps, &mut theirs);
    scale(pos, taper(ours.0 - theirs.0, phase(pos)))
}

const IMBALANCE_CACHE: usize = 1024;

/// The handcrafted evaluation as the search uses it: [`psq`] kept move by move (one entry per ply of the
/// search path), [`imbalance`] cached by material.
pub struct State {
    psq: Vec<Score>,
    /// By material key: the imbalance depends only on the piece counts, which few moves change.
    imbalance_cache: Vec<(u64, Score)>,
}

impl Default for State {
    fn default() -> Self {
        State { psq: Vec::with_capacity(256), imbalance_cache: vec![(u64::MAX, Score::default()); IMBALANCE_CACHE] }
    }
}

impl Evaluator for State {
    fn refresh(&mut self, pos: &Position) {
        self.psq.clear();
        self.psq.push(psq(pos));
    }

    #[inline]
    fn push(&mut self, pos: &Position, m: Move) {
        let top = self.top();
        self.psq.push(top + psq_delta(pos, m));
    }

    #[inline]
    fn push_null(&mut self) {
        let top = self.top();
        self.psq.push(top);
    }

    #[inline]
    fn pop(&mut self) {
        self.psq.pop();
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let material = self.top();
        debug_assert_eq!(material, psq(pos), "incremental piece-square sum drifted at {}", pos.to_fen());
        // The material key is 44 bits of a bijective mix of the packed counts: two materials sharing one
        // is vanishingly unlikely, and would only misplace an evaluation term.
        let key = pos.material_key();
        let slot = &mut self.imbalance_cache[key as usize & (IMBALANCE_CACHE - 1)];
        if slot.0 != key {
            *slot = (key, imbalance(pos));
        }
        debug_assert_eq!(slot.1, imbalance(pos));
        evaluate_with(pos, material + slot.1)
    }
}

impl State {
    #[inline]
    fn top(&self) -> Score {
        *self.psq.last().expect("hce::State used before refresh")
    }
}

/// The evaluation as the tuner sees it: Red's counts minus Black's for every weight used, the phase, and the
/// endgame scale factor (1 or 1/4) the current weights give.
#[derive(Clone, Debug, PartialEq)]
pub struct Traced {
    pub features: Vec<(u16, i16)>,
    pub phase: i32,
    pub scale: f64,
}

struct Record(Vec<(u16, i16)>, i16);

impl Sink for Record {
    fn add(&mut self, index: usize, n: i32) {
        self.0.push((index as u16, n as i16 * self.1));
    }
}

/// The features of a position, from Red's point of view; `None` for a material draw (evaluated as 0).
pub fn trace(pos: &Position) -> Option<Traced> {
    if insufficient_material(pos) {
        return None;
    }
    let maps = attack_maps(pos);
    let mut rec = Record(Vec::with_capacity(80), 1);
    side_terms(pos, Color::Red, &maps, &mut rec);
    rec.1 = -1;
    side_terms(pos, Color::Black, &maps, &mut rec);
    rec.0.push((TEMPO as u16, if pos.side_to_move() == Color::Red { 1 } else { -1 }));
    let mut merged: Vec<(u16, i16)> = Vec::with_capacity(rec.0.len());
    rec.0.sort_unstable_by_key(|&(i, _)| i);
    for (i, n) in rec.0 {
        match merged.last_mut() {
            Some((j, m)) if *j == i => *m += n,
            _ => merged.push((i, n)),
        }
    }
    merged.retain(|&(_, n)| n != 0);
    // The unscaled evaluation is the weights times the recorded counts (Red's view; `taper` is odd, so the
    // side to move's view is its negation for Black).
    let red = merged.iter().fold(Score::default(), |t, &(i, n)| t + WEIGHTS[i as usize] * n as i32);
    let phase = phase(pos);
    let raw = taper(red, phase) * if pos.side_to_move() == Color::Red { 1 } else { -1 };
    let v = evaluate(pos);
    let scale = if raw != 0 && v != raw { 0.25 } else { 1.0 };
    Some(Traced { features: merged, phase, scale })
}

/// Sorts terms into the categories of the `eval` report.
struct Categories([Score; 6]);

impl Sink for Categories {
    fn add(&mut self, index: usize, n: i32) {
        let cat = match index {
            i if i < PST || (IMBALANCE_OURS..CROSSED).contains(&i) => 0,
            i if i < HORSE_MOBILITY => 1,
            i if i < ROOK_OPEN_FILE => 2,
            i if i < ADVISORS || (CROSSED..THREATS).contains(&i) => 3,
            i if (THREATS..TEMPO).contains(&i) => 5,
            _ => 4,
        };
        self.0[cat] += WEIGHTS[index] * n;
    }
}

/// A readable report for the `eval` command.
pub fn report(pos: &Position) -> String {
    let ph = phase(pos);
    let maps = attack_maps(pos);
    let mut red = Categories([Score::default(); 6]);
    side_terms(pos, Color::Red, &maps, &mut red);
    let mut black = Categories([Score::default(); 6]);
    side_terms(pos, Color::Black, &maps, &mut black);
    let mut s = String::from("term            red(mg/eg)    black(mg/eg)\n");
    let names = ["material", "placement", "mobility", "king attack", "defence", "threats"];
    for (i, name) in names.iter().enumerate() {
        let (x, y) = (red.0[i], black.0[i]);
        s.push_str(&format!("{name:<14} {:>5}/{:<5}  {:>5}/{:<5}\n", x.mg, x.eg, y.mg, y.eg));
    }
    let v = evaluate(pos);
    let red_view = if pos.side_to_move() == Color::Red { v } else { -v };
    s.push_str(&format!("phase {ph}/{PHASE_MAX}; evaluation {red_view} (red's view), {v} (side to move)"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::perft::reference_fen;

    /// The tuner's view of the evaluation gives the same number as the evaluation.
    #[test]
    fn trace_matches_evaluate() {
        let pos = Position::from_fen(reference_fen("pos2")).unwrap();
        let t = trace(&pos).unwrap();
        let mut total = Score::default();
        for &(i, n) in &t.features {
            total += WEIGHTS[i as usize] * n as i32;
        }
        let v = (taper(total, t.phase) as f64 * t.scale) as i32;
        assert_eq!(v, evaluate(&pos));
    }

    /// The attack maps agree with the board's own attack test on every occupied point, kind by kind.
    #[test]
    fn attack_maps_match_the_board() {
        for fen in crate::bench::positions() {
            let pos = Position::from_fen(fen).unwrap();
            for color in Color::ALL {
                let a = attacks(&pos, color);
                for sq in pos.occupancy().to_set().iter() {
                    let bit = |m: u128| m >> sq.index() & 1 != 0;
                    let by: Vec<PieceType> = (pos.attackers_to(sq, pos.occupancy()) & pos.pieces_of(color))
                        .iter()
                        .filter_map(|x| pos.piece_at(x))
                        .map(|p| p.kind())
                        .collect();
                    let has = |kinds: &[PieceType]| by.iter().any(|k| kinds.contains(k));
                    assert_eq!(bit(a.all), !by.is_empty(), "{fen} {sq:?} {color:?}");
                    assert_eq!(bit(a.pawns), has(&[PieceType::Pawn]), "{fen} {sq:?}");
                    assert_eq!(bit(a.guards), has(&[PieceType::Advisor, PieceType::Elephant]), "{fen} {sq:?}");
                    assert_eq!(bit(a.minors), has(&[PieceType::Horse, PieceType::Cannon]), "{fen} {sq:?}");
                }
            }
        }
    }

    /// The gated-jump tables give what testing each leg or eye gives, from every point of every bench position.
    #[test]
    fn gated_jumps_match_the_steps() {
        for fen in crate::bench::positions() {
            let pos = Position::from_fen(fen).unwrap();
            for sq in 0..90 {
                let naive = |steps: &mut dyn Iterator<Item = (u8, u8)>| {
                    steps.filter(|&(_, b)| pos.slot_at_index(b as usize) == 0).fold(0u128, |m, (to, _)| m | 1u128 << to)
                };
                let at = Square::from_index(sq);
                assert_eq!(STEP_MAPS.horse.reach(&pos, at), naive(&mut HORSE_STEPS[sq].iter()), "{fen} {sq}");
                assert_eq!(STEP_MAPS.elephant.reach(&pos, at), naive(&mut ELEPHANT_STEPS[sq].iter()), "{fen} {sq}");
            }
        }
    }

    /// A rook attacked by a pawn, the pawn left hanging: the threat terms see both, for the right side.
    #[test]
    fn threats_are_counted() {
        // Red's rook on e5 faces Black's pawn on e6, which attacks it (a pawn steps forward); Black to move.
        let pos = Position::from_fen("3k5/9/9/4p4/4R4/9/9/9/9/5K3 b - - 0 1").unwrap();
        let t = trace(&pos).unwrap();
        let count = |i: usize| t.features.iter().find(|&&(j, _)| j as usize == i).map_or(0, |&(_, n)| n);
        // Red (not to move) has a rook attacked by a cheaper piece; Black's pawn is attacked by the rook and
        // not defended: hanging, Black to move.
        assert_eq!(count(THREATS), 1);
        assert_eq!(count(THREATS + 8 + 4 + 3), -1);
    }

    /// [`State`] takes the imbalance from [`imbalance`] (cached by material), the tuner from the traced
    /// features: both must be the same terms.
    #[test]
    fn imbalance_matches_trace() {
        for fen in [
            reference_fen("pos2"),
            "3akab2/9/4b4/p3p3p/2p6/6P2/P3P3P/4B4/4A4/2BAK3R b - - 0 1",
            "2bak4/4a4/4b4/9/9/2R6/9/9/4A4/4KA3 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mut traced = Score::default();
            for &(i, n) in &trace(&pos).unwrap().features {
                if (IMBALANCE_OURS..CROSSED).contains(&(i as usize)) {
                    traced += WEIGHTS[i as usize] * n as i32;
                }
            }
            assert_eq!(traced, imbalance(&pos), "{fen}");
            assert_ne!(traced, Score::default(), "{fen}: the weights are tuned");
        }
    }
}
