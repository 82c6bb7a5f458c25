//! The handcrafted evaluation: material and piece-square tables tapered by game phase, plus xiangqi knowledge.
//!
//! Scores are in centipawns of an uncrossed pawn, from the side to move's point of view. All weights live in
//! [`params`] so that the tuner can rewrite them in one place.

pub mod params;

use crate::board::tables::{FILE_LINE, HORSE_STEPS, LINE_BETWEEN, QUIET_MASK, RANK_LINE};
use crate::board::Position;
use crate::rules::insufficient_material;
use crate::types::{Color, PieceType, Square};
use params::{Score, PARAMS};

/// The game phase from the pieces left: 0 = bare kings, [`params::PHASE_MAX`] = all attackers on the board.
pub fn phase(pos: &Position) -> i32 {
    let mut ph = 0;
    for c in Color::ALL {
        ph += pos.count(c, PieceType::Rook) as i32 * params::PHASE_ROOK;
        ph += pos.count(c, PieceType::Horse) as i32 * params::PHASE_MINOR;
        ph += pos.count(c, PieceType::Cannon) as i32 * params::PHASE_MINOR;
    }
    ph.min(params::PHASE_MAX)
}

/// Blends a middlegame/endgame pair by phase.
#[inline]
fn taper(s: Score, ph: i32) -> i32 {
    (s.mg * ph + s.eg * (params::PHASE_MAX - ph)) / params::PHASE_MAX
}

/// The terms of the evaluation for one side, for `eval` output and the tuner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    pub material: Score,
    pub placement: Score,
    pub mobility: Score,
    pub king_safety: Score,
    pub structure: Score,
}

impl Breakdown {
    pub fn total(&self) -> Score {
        self.material + self.placement + self.mobility + self.king_safety + self.structure
    }
}

/// The square as seen from `color`'s side (Red's tables serve both colours).
#[inline]
fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    }
}

/// Evaluates one side's pieces in one pass over them.
pub fn side_terms(pos: &Position, us: Color) -> Breakdown {
    let p = &PARAMS;
    let mut b = Breakdown::default();
    let them = !us;
    let occ = pos.occupancy();
    let board_occ = |sq: u8| occ.ranks[sq as usize / 9] >> (sq % 9) & 1 != 0;
    let their_king = pos.king_square(them);
    let mut pawn_files = 0u16;
    for sq in pos.pieces(us, PieceType::Pawn) {
        pawn_files |= 1 << sq.file();
    }
    let mut attackers_near_king = 0;
    for (kind, sq) in pos.pieces_of_color(us) {
        let rel = relative(us, sq);
        b.material += p.material[kind.index()];
        b.placement += p.pst[kind.index()][rel.index()];
        let (f, r) = (sq.file() as usize, sq.rank() as usize);
        match kind {
            PieceType::Rook => {
                b.mobility += p.rook_mobility * slider_moves(occ, f, r) as i32;
                if pawn_files >> f & 1 == 0 {
                    b.placement += p.rook_open_file;
                }
            }
            PieceType::Cannon => {
                b.mobility += p.cannon_mobility * slider_moves(occ, f, r) as i32;
                // On the enemy king's file: nothing between (空头炮) or one screen (中炮).
                if their_king.file() as usize == f {
                    match (occ.files[f] & LINE_BETWEEN[r][their_king.rank() as usize]).count_ones() {
                        0 => b.king_safety += p.empty_head_cannon,
                        1 => b.king_safety += p.cannon_on_king_file,
                        _ => {}
                    }
                }
                // The bottom cannon (沉底炮) on the enemy back rank.
                if rel.rank() == 9 {
                    b.king_safety += p.bottom_cannon;
                }
            }
            PieceType::Horse => {
                let own = pos.color_occupancy(us);
                let mut free = 0;
                for (to, leg) in HORSE_STEPS[sq.index()].iter() {
                    if !board_occ(leg) && own.ranks[to as usize / 9] >> (to % 9) & 1 == 0 {
                        free += 1;
                    }
                }
                b.mobility += p.horse_mobility * free;
                // 窝心马: a horse on its own palace centre blocks the king.
                if rel == Square::new(4, 1) {
                    b.king_safety += p.palace_horse;
                }
            }
            _ => {}
        }
        // Attackers in or next to the enemy palace.
        if matches!(kind, PieceType::Rook | PieceType::Horse | PieceType::Cannon | PieceType::Pawn)
            && rel.rank() >= 6
            && (2..=6).contains(&rel.file())
        {
            attackers_near_king += 1;
        }
    }
    b.king_safety += p.king_attackers[attackers_near_king.min(p.king_attackers.len() - 1)];
    // Defenders: advisors and elephants, pairs worth more.
    let advisors = pos.count(us, PieceType::Advisor) as usize;
    let elephants = pos.count(us, PieceType::Elephant) as usize;
    b.structure += p.advisor_pair[advisors.min(2)] + p.elephant_pair[elephants.min(2)];
    b
}

/// Empty points a rook or cannon on (`f`, `r`) can move to.
#[inline]
fn slider_moves(occ: &crate::board::Occupancy, f: usize, r: usize) -> u32 {
    let along_rank = RANK_LINE[f][occ.ranks[r] as usize] & QUIET_MASK;
    let along_file = FILE_LINE[r][occ.files[f] as usize] & QUIET_MASK;
    along_rank.count_ones() + along_file.count_ones()
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    if insufficient_material(pos) {
        return 0;
    }
    let us = pos.side_to_move();
    let diff = side_terms(pos, us).total() - side_terms(pos, !us).total();
    let ph = phase(pos);
    let mut v = taper(diff, ph) + PARAMS.tempo;
    // Endings where the stronger side has no attacker left that can cross the river are hard to win.
    for (side, sign) in [(us, 1), (!us, -1)] {
        if sign * v > 0 && !has_crossing_attackers(pos, side) {
            v /= 4;
        }
    }
    v
}

/// Whether `color` has a piece that can attack across the river (rook, horse, cannon or pawn).
fn has_crossing_attackers(pos: &Position, color: Color) -> bool {
    [PieceType::Rook, PieceType::Horse, PieceType::Cannon, PieceType::Pawn].iter().any(|&k| pos.count(color, k) > 0)
}

/// A readable report for the `eval` command.
pub fn report(pos: &Position) -> String {
    let ph = phase(pos);
    let mut s = String::new();
    s.push_str("term            red(mg/eg)    black(mg/eg)\n");
    let (r, b) = (side_terms(pos, Color::Red), side_terms(pos, Color::Black));
    let row = |name: &str, x: Score, y: Score| format!("{name:<14} {:>5}/{:<5}  {:>5}/{:<5}\n", x.mg, x.eg, y.mg, y.eg);
    s.push_str(&row("material", r.material, b.material));
    s.push_str(&row("placement", r.placement, b.placement));
    s.push_str(&row("mobility", r.mobility, b.mobility));
    s.push_str(&row("king safety", r.king_safety, b.king_safety));
    s.push_str(&row("structure", r.structure, b.structure));
    s.push_str(&row("total", r.total(), b.total()));
    let v = evaluate(pos);
    let red_view = if pos.side_to_move() == Color::Red { v } else { -v };
    s.push_str(&format!("phase {ph}/{}; evaluation {red_view} (red's view), {v} (side to move)", params::PHASE_MAX));
    s
}
