//! Attack queries: is a king attacked (now, or after a move), who attacks a square under a given occupancy,
//! which pieces shield their king, and static exchange evaluation.

use super::tables::{
    between, ADVISOR_STEPS, CHECK_ZONE, ELEPHANT_STEPS, FILE_LINE, FILE_OF, HORSE_ATTACKERS, HORSE_LEG, HORSE_STEPS,
    KING_STEPS, LINE_BETWEEN, NO_SQ, PAWN_ATTACKERS, PAWN_STEPS, QUIET_MASK, RANK_LINE, RANK_OF,
};
use super::{is_kind, tag, Occupancy, Position, CANNON_BITS, HORSE_BITS, KING_BIT, PAWN_BITS, ROOK_BITS, SLOT_KIND};
use crate::types::{Color, Move, PieceType, Square, SquareSet};

/// How many pieces stand strictly between `s` and the king on (`kf`, `kr`) along a shared rank or file, given
/// the occupancy of the king's file and rank; `u32::MAX` when they share neither.
#[inline(always)]
fn line_gap(s: usize, kf: usize, kr: usize, file_occ: u16, rank_occ: u16) -> u32 {
    if FILE_OF[s] as usize == kf {
        (file_occ & LINE_BETWEEN[kr][RANK_OF[s] as usize]).count_ones()
    } else if RANK_OF[s] as usize == kr {
        (rank_occ & LINE_BETWEEN[kf][FILE_OF[s] as usize]).count_ones()
    } else {
        u32::MAX
    }
}

/// A file or a rank, as the points `base + i * step` for `i` along it.
#[derive(Clone, Copy)]
struct Line {
    base: usize,
    step: usize,
}

impl Line {
    #[inline(always)]
    fn point(self, i: u32) -> usize {
        self.base + i as usize * self.step
    }
}

impl Position {
    /// Whether the king of `color` is attacked once `mover` (a slot) has gone from `from` to `to`, removing
    /// whatever stood on `to`. With `from = to = NO_SQ` it answers for the position as it stands.
    ///
    /// This one function decides check, legality and gives-check. It looks at each enemy rook, cannon, horse
    /// and the enemy king where the move leaves them, and at the pawn points next to the king: a few table
    /// lookups and compares per attacker, with the king's rank and file read through the move.
    #[inline]
    pub(crate) fn king_attacked_after(&self, color: Color, from: u8, to: u8, mover: u8) -> bool {
        let them = tag(!color);
        let king = tag(color);
        let ksq = if mover == king { to } else { self.slot_square[king as usize] } as usize;
        let (from, to) = (from as usize, to as usize);
        let (kf, kr) = (FILE_OF[ksq] as usize, RANK_OF[ksq] as usize);

        let mut file_occ = self.occ.files[kf];
        let mut rank_occ = self.occ.ranks[kr];
        if FILE_OF[from] as usize == kf {
            file_occ &= !(1 << RANK_OF[from]);
        }
        if RANK_OF[from] as usize == kr {
            rank_occ &= !(1 << FILE_OF[from]);
        }
        if FILE_OF[to] as usize == kf {
            file_occ |= 1 << RANK_OF[to];
        }
        if RANK_OF[to] as usize == kr {
            rank_occ |= 1 << FILE_OF[to];
        }
        // Where an enemy piece stands after the move: the mover at `to`, a captured piece nowhere.
        let loc = |slot: u8| -> usize {
            if slot == mover {
                return to;
            }
            let s = self.slot_square[slot as usize] as usize;
            if s == to {
                NO_SQ as usize
            } else {
                s
            }
        };
        // Rooks, and the enemy king (the kings may not face each other): nothing between.
        for off in [0, 7, 8] {
            if line_gap(loc(them + off), kf, kr, file_occ, rank_occ) == 0 {
                return true;
            }
        }
        // Cannons: exactly one screen.
        for off in [9, 10] {
            if line_gap(loc(them + off), kf, kr, file_occ, rank_occ) == 1 {
                return true;
            }
        }
        // Horses, whose legs must be empty.
        for off in [5, 6] {
            let leg = HORSE_LEG[loc(them + off)][ksq] as usize;
            if leg != NO_SQ as usize && leg != to && (leg == from || self.board[leg] == 0) {
                return true;
            }
        }
        // Pawns.
        for (p, _) in PAWN_ATTACKERS[(!color).index()][ksq].iter() {
            let p = p as usize;
            let s = if p == to {
                mover
            } else if p == from {
                0
            } else {
                self.board[p]
            };
            if s & them != 0 && is_kind(s, PAWN_BITS) {
                return true;
            }
        }
        false
    }

    /// Whether the side to move's king would be safe after the pseudo-legal move `m`.
    #[inline]
    pub(crate) fn is_safe(&self, m: Move) -> bool {
        let (from, to) = (m.from().index() as u8, m.to().index() as u8);
        !self.king_attacked_after(self.side, from, to, self.board[from as usize])
    }

    /// Whether the legal move `m` checks the opponent.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from().index() as u8, m.to().index() as u8);
        self.may_check(from, to) && self.king_attacked_after(!self.side, from, to, self.board[from as usize])
    }

    /// False when a move from `from` to `to` by the side to move certainly leaves the enemy king unattacked
    /// (it is not attacked now, the position being legal): the move touches none of the king's lines.
    #[inline]
    pub(crate) fn may_check(&self, from: u8, to: u8) -> bool {
        let zone = CHECK_ZONE[self.slot_square[tag(!self.side) as usize] as usize];
        (zone >> from | zone >> to) & 1 != 0
    }

    /// Whether the king of `color` is attacked in the position as it stands.
    pub fn is_king_attacked(&self, color: Color) -> bool {
        self.king_attacked_after(color, NO_SQ, NO_SQ, 0)
    }

    /// The pieces giving check to the side to move (a facing enemy king counts).
    pub fn checkers(&self) -> SquareSet {
        let ksq = self.king_square(self.side);
        let mut set = self.attackers_to(ksq, &self.occ) & self.pieces_of(!self.side);
        let their_king = self.king_square(!self.side);
        if their_king.file() == ksq.file()
            && between(ksq.index() as u8, their_king.index() as u8) & self.occ_bits() == 0
        {
            set.insert(their_king);
        }
        set
    }

    fn occ_bits(&self) -> u128 {
        self.occ.to_set().bits()
    }

    /// All pieces, of both colours, that attack `sq` when exactly the squares in `occ` are occupied.
    /// Pieces standing on squares missing from `occ` count as removed; the piece on `sq` itself is ignored.
    /// The kings' facing rule is not an attack on other squares and is left out.
    pub fn attackers_to(&self, sq: Square, occ: &Occupancy) -> SquareSet {
        let s = sq.index();
        let (f, r) = (sq.file() as usize, sq.rank() as usize);
        let present = |x: usize| self.board[x] != 0 && occ.ranks[RANK_OF[x] as usize] >> FILE_OF[x] & 1 != 0;
        let mut set = SquareSet::EMPTY;
        let mut add_if = |x: usize, kinds: u32| {
            if x != s && present(x) && is_kind(self.board[x], kinds) {
                set.insert(Square::from_index(x));
            }
        };
        let e = FILE_LINE[r][occ.files[f] as usize];
        let (mut first, mut second) = (e >> 10 & QUIET_MASK, e >> 20);
        while first != 0 {
            add_if(first.trailing_zeros() as usize * 9 + f, ROOK_BITS);
            first &= first - 1;
        }
        while second != 0 {
            add_if(second.trailing_zeros() as usize * 9 + f, CANNON_BITS);
            second &= second - 1;
        }
        let e = RANK_LINE[f][occ.ranks[r] as usize];
        let (mut first, mut second) = (e >> 10 & QUIET_MASK, e >> 20);
        while first != 0 {
            add_if(r * 9 + first.trailing_zeros() as usize, ROOK_BITS);
            first &= first - 1;
        }
        while second != 0 {
            add_if(r * 9 + second.trailing_zeros() as usize, CANNON_BITS);
            second &= second - 1;
        }
        let empty = |x: u8| x == NO_SQ || occ.ranks[RANK_OF[x as usize] as usize] >> FILE_OF[x as usize] & 1 == 0;
        for (h, leg) in HORSE_ATTACKERS[s].iter() {
            if empty(leg) {
                add_if(h as usize, HORSE_BITS);
            }
        }
        // Kings, advisors and elephants step symmetrically: they attack `sq` from the squares they reach from it.
        for (k, _) in KING_STEPS[s].iter() {
            add_if(k as usize, KING_BIT);
        }
        for (a, _) in ADVISOR_STEPS[s].iter() {
            add_if(a as usize, 1 << 1 | 1 << 2);
        }
        for (b, eye) in ELEPHANT_STEPS[s].iter() {
            if empty(eye) {
                add_if(b as usize, 1 << 3 | 1 << 4);
            }
        }
        for color in Color::ALL {
            for (p, _) in PAWN_ATTACKERS[color.index()][s].iter() {
                let x = p as usize;
                if x != s && present(x) && is_kind(self.board[x], PAWN_BITS) && self.board[x] & tag(color) != 0 {
                    set.insert(Square::from_index(x));
                }
            }
        }
        set
    }

    /// The enemy rooks, cannons and king on a line with the king of `color`: for each, its point, the pieces
    /// strictly between it and the king as a mask over that line, the line (bit `i` of the mask is point
    /// `base + i * step`), and whether it is a cannon.
    #[inline(always)]
    fn king_lines(&self, color: Color, mut visit: impl FnMut(usize, u16, Line, bool)) {
        let them = tag(!color);
        let ksq = self.slot_square[tag(color) as usize] as usize;
        let (kf, kr) = (ksq % 9, ksq / 9);
        for off in [0u8, 7, 8, 9, 10] {
            let s = self.slot_square[(them + off) as usize] as usize;
            if FILE_OF[s] as usize == kf {
                let bits = self.occ.files[kf] & LINE_BETWEEN[kr][RANK_OF[s] as usize];
                visit(s, bits, Line { base: kf, step: 9 }, off >= 9);
            } else if RANK_OF[s] as usize == kr {
                let bits = self.occ.ranks[kr] & LINE_BETWEEN[kf][FILE_OF[s] as usize];
                visit(s, bits, Line { base: kr * 9, step: 1 }, off >= 9);
            }
        }
    }

    /// For the king of `color`: the pieces of `color` whose removal alone would expose it to attack
    /// (pinned pieces: line shields, either screen of a double cannon screen, horse-leg blockers, the lone
    /// piece between the kings), and the empty squares where any piece would become the screen of an enemy
    /// cannon aimed at it.
    pub(crate) fn king_shields(&self, color: Color) -> (u128, u128) {
        let us = tag(color);
        let them = tag(!color);
        let ksq = self.slot_square[us as usize] as usize;
        let mut pinned = 0u128;
        let mut screens = 0u128;
        self.king_lines(color, |s, bits, line, cannon| {
            let n = bits.count_ones();
            if n == 0 && cannon {
                screens |= between(ksq as u8, s as u8);
            } else if n == 1 + cannon as u32 {
                let mut b = bits;
                while b != 0 {
                    let sq = line.point(b.trailing_zeros());
                    if self.board[sq] & us != 0 {
                        pinned |= 1u128 << sq;
                    }
                    b &= b - 1;
                }
            }
        });
        for off in [5u8, 6] {
            let leg = HORSE_LEG[self.slot_square[(them + off) as usize] as usize][ksq];
            if leg != NO_SQ && self.board[leg as usize] & us != 0 {
                pinned |= 1u128 << leg;
            }
        }
        (pinned, screens)
    }

    /// For the side to move, in check: the points where a move other than the king's could end the check
    /// (a checker's point, the points between a rook, cannon or facing king and our king, a checking horse's
    /// leg) and the points of our pieces that screen a checking cannon (leaving the line ends that check).
    /// A move that touches neither cannot be legal, whatever else it does.
    pub(crate) fn evasion_zone(&self) -> (u128, u128) {
        let us = tag(self.side);
        let them = tag(!self.side);
        let ksq = self.slot_square[us as usize] as usize;
        let mut targets = 0u128;
        let mut screens = 0u128;
        self.king_lines(self.side, |s, bits, line, cannon| {
            if bits.count_ones() == cannon as u32 {
                targets |= 1u128 << s | between(ksq as u8, s as u8);
                if cannon {
                    screens |= 1u128 << line.point(bits.trailing_zeros());
                }
            }
        });
        for off in [5u8, 6] {
            let s = self.slot_square[(them + off) as usize];
            let leg = HORSE_LEG[s as usize][ksq];
            if leg != NO_SQ && self.board[leg as usize] == 0 {
                targets |= 1u128 << s | 1u128 << leg;
            }
        }
        for (p, _) in PAWN_ATTACKERS[(!self.side).index()][ksq].iter() {
            let slot = self.board[p as usize];
            if slot & them != 0 && is_kind(slot, PAWN_BITS) {
                targets |= 1u128 << p;
            }
        }
        (targets, screens)
    }

    /// Pieces of `color` that may not leave their square without exposing their own king (see
    /// [`Position::king_shields`]). A piece so pinned can still move along the line that pins it when the
    /// move keeps the king safe; the movers filter those one by one.
    pub fn pinned(&self, color: Color) -> SquareSet {
        SquareSet::from_bits(self.king_shields(color).0)
    }

    /// Whether `m` is a move the side to move's pieces can make here (right piece, right geometry, path clear,
    /// not onto its own piece), ignoring whether it leaves the king attacked.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if m.is_null() {
            return false;
        }
        let (from, to) = (m.from().index(), m.to().index());
        let us = tag(self.side);
        let slot = self.board[from];
        let target = self.board[to];
        if slot & us == 0 || target & us != 0 {
            return false;
        }
        let contains = |steps: &super::tables::Steps<4>| steps.iter().any(|(t, _)| t as usize == to);
        match SLOT_KIND[(slot & 15) as usize] {
            PieceType::King => contains(&KING_STEPS[from]),
            PieceType::Advisor => contains(&ADVISOR_STEPS[from]),
            PieceType::Elephant => {
                ELEPHANT_STEPS[from].iter().any(|(t, eye)| t as usize == to && self.board[eye as usize] == 0)
            }
            PieceType::Horse => {
                HORSE_STEPS[from].iter().any(|(t, leg)| t as usize == to && self.board[leg as usize] == 0)
            }
            PieceType::Pawn => PAWN_STEPS[self.side.index()][from].iter().any(|(t, _)| t as usize == to),
            kind @ (PieceType::Rook | PieceType::Cannon) => {
                let shift = match (kind, target) {
                    (_, 0) => 0,
                    (PieceType::Rook, _) => 10,
                    _ => 20,
                };
                let (ff, fr, tf, tr) = (from % 9, from / 9, to % 9, to / 9);
                if fr == tr {
                    RANK_LINE[ff][self.occ.ranks[fr] as usize] >> shift >> tf & 1 != 0
                } else if ff == tf {
                    FILE_LINE[fr][self.occ.files[ff] as usize] >> shift >> tr & 1 != 0
                } else {
                    false
                }
            }
        }
    }

    /// Whether `m` is legal here. Safe to call with any move at all (from a hash table, a GUI, a file).
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_safe(m)
    }

    /// Whether the piece in `slot`, standing on `from`, attacks `to` when exactly `occ` is occupied.
    #[inline]
    fn slot_attacks(&self, slot: u8, from: usize, to: usize, occ: &Occupancy) -> bool {
        let empty = |sq: usize| occ.ranks[sq / 9] >> (sq % 9) & 1 == 0;
        let gap = || -> Option<u32> {
            let (ff, fr, tf, tr) = (from % 9, from / 9, to % 9, to / 9);
            if ff == tf {
                Some((occ.files[ff] & LINE_BETWEEN[fr][tr]).count_ones())
            } else if fr == tr {
                Some((occ.ranks[fr] & LINE_BETWEEN[ff][tf]).count_ones())
            } else {
                None
            }
        };
        match SLOT_KIND[(slot & 15) as usize] {
            PieceType::Rook => gap() == Some(0),
            PieceType::Cannon => gap() == Some(1),
            PieceType::Horse => {
                let leg = HORSE_LEG[from][to] as usize;
                leg != NO_SQ as usize && empty(leg)
            }
            PieceType::Pawn => {
                let color = if slot & 16 != 0 { 0 } else { 1 };
                PAWN_STEPS[color][from].iter().any(|(t, _)| t as usize == to)
            }
            PieceType::Advisor => ADVISOR_STEPS[from].iter().any(|(t, _)| t as usize == to),
            PieceType::Elephant => ELEPHANT_STEPS[from].iter().any(|(t, eye)| t as usize == to && empty(eye as usize)),
            PieceType::King => KING_STEPS[from].iter().any(|(t, _)| t as usize == to),
        }
    }

    /// The least valuable piece of `color` still on the board (in `occ`) that attacks `to`, not counting
    /// the piece on `to` itself: its square and value.
    fn least_valuable_attacker(&self, to: usize, color: Color, occ: &Occupancy) -> Option<(usize, i32)> {
        let base = tag(color);
        let on = |sq: usize| occ.ranks[sq / 9] >> (sq % 9) & 1 != 0;
        // Pawns, from the few points a pawn of `color` attacks `to` from (cheaper than its five slots).
        for (p, _) in PAWN_ATTACKERS[color.index()][to].iter() {
            let p = p as usize;
            let s = self.board[p];
            if s & base != 0 && is_kind(s, PAWN_BITS) && on(p) {
                return Some((p, PieceType::Pawn.see_value()));
            }
        }
        // The other slots, cheapest kind first; a geometric sift before the full test.
        const ORDER: [u8; 11] = [1, 2, 3, 4, 5, 6, 9, 10, 7, 8, 0];
        let (tf, tr) = (FILE_OF[to], RANK_OF[to]);
        for off in ORDER {
            let slot = base + off;
            let from = self.slot_square[slot as usize] as usize;
            if from == NO_SQ as usize || from == to {
                continue;
            }
            let (ff, fr) = (FILE_OF[from], RANK_OF[from]);
            let may = match off {
                5 | 6 => HORSE_LEG[from][to] != NO_SQ,
                7..=10 => ff == tf || fr == tr,
                _ => ff.abs_diff(tf) <= 2 && fr.abs_diff(tr) <= 2,
            };
            if may && on(from) && self.slot_attacks(slot, from, to, occ) {
                return Some((from, SLOT_KIND[off as usize].see_value()));
            }
        }
        None
    }

    /// Static exchange evaluation of `m`: the material balance (in [`PieceType::see_value`] units) for the
    /// side to move after the best sequence of captures and recaptures on `m.to()`, where either side may stop.
    /// Rook lines and cannon screens are recomputed after every capture, so x-rays and screens that appear or
    /// vanish are seen. Pins are not.
    pub fn see(&self, m: Move) -> i32 {
        let (from, to) = (m.from(), m.to());
        let value = |s: u8| if s == 0 { 0 } else { SLOT_KIND[(s & 15) as usize].see_value() };
        let mut occ = self.occ;
        let mut gain = [0i32; 34];
        gain[0] = value(self.board[to.index()]);
        let mut on_square = value(self.board[from.index()]);
        occ.remove(from);
        occ.add(to);
        let mut side = !self.side;
        let mut d = 0;
        while let Some((sq, v)) = self.least_valuable_attacker(to.index(), side, &occ) {
            if v == PieceType::King.see_value() {
                // The king may only take last: if the other side can still recapture, it may not take at all.
                let mut after = occ;
                after.remove(Square::from_index(sq));
                if self.least_valuable_attacker(to.index(), !side, &after).is_some() {
                    break;
                }
            }
            d += 1;
            gain[d] = on_square - gain[d - 1];
            if (-gain[d - 1]).max(gain[d]) < 0 || d == gain.len() - 1 {
                break;
            }
            on_square = v;
            occ.remove(Square::from_index(sq));
            side = !side;
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    /// Whether the static exchange of `m` gains at least `threshold`. Answers most calls without looking at
    /// the attackers: a capture that wins enough even if the capturer is lost, or loses too much even if it
    /// is not, is decided by the two piece values.
    #[inline]
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let value = |s: u8| if s == 0 { 0 } else { SLOT_KIND[(s & 15) as usize].see_value() };
        let gain = value(self.board[m.to().index()]) - threshold;
        if gain < 0 {
            return false;
        }
        if value(self.board[m.from().index()]) <= gain {
            return true;
        }
        self.see(m) >= threshold
    }
}
