//! The position: where the pieces stand, whose move it is, and the stack of states that makes unmake cheap.
//!
//! Representation. Every piece on the board owns a *slot*, a number that stays with it for the whole game:
//! `16 + 16 * color + offset`, the offset fixed by kind (0 king, 1–2 advisors, 3–4 elephants, 5–6 horses,
//! 7–8 rooks, 9–10 cannons, 11–15 pawns). So Red's slots are 16–31 and Black's 32–47, the colour test is one
//! AND with `16 << color`, and the referee can follow "the same piece" through a repetition cycle by its slot.
//! The mailbox `board` holds slots (0 = empty), `slot_square` the inverse. Occupancy is also kept as one bit
//! mask per rank and per file, overall and per colour, which is all the sliding pieces need.
//!
//! The board knows nothing of search or evaluation: the search tells its evaluation about each move itself
//! (`eval::Evaluator`), next to its calls of [`Position::make_move`] and [`Position::unmake_move`].

mod attacks;
mod cycle;
mod fen;
mod movegen;
pub mod perft;
pub mod tables;
mod zobrist;

pub use fen::FenError;
pub use movegen::GenType;

use crate::types::{Color, Move, Piece, PieceType, Square, SquareSet};
use tables::{FILE_OF, NO_SQ, RANK_OF};
use zobrist::KEYS;

/// The standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Kind of each slot offset.
const SLOT_KIND: [PieceType; 16] = {
    use PieceType::*;
    [King, Advisor, Advisor, Elephant, Elephant, Horse, Horse, Rook, Rook, Cannon, Cannon, Pawn, Pawn, Pawn, Pawn, Pawn]
};

/// First slot offset of each kind, indexed by `PieceType`.
const FIRST_OFFSET: [u8; 7] = [0, 1, 3, 5, 7, 9, 11];

/// Slot offsets by kind, as bit masks over `slot & 15`.
pub(crate) const KING_BIT: u32 = 1;
pub(crate) const HORSE_BITS: u32 = 1 << 5 | 1 << 6;
pub(crate) const ROOK_BITS: u32 = 1 << 7 | 1 << 8;
pub(crate) const CANNON_BITS: u32 = 1 << 9 | 1 << 10;
pub(crate) const PAWN_BITS: u32 = 0x1f << 11;

/// The colour tag of a side: slot `s` belongs to `color` iff `s & tag(color) != 0`.
#[inline]
pub(crate) const fn tag(color: Color) -> u8 {
    16 << color as u8
}

/// Whether slot `s` (non-zero) is of one of the kinds in `kinds` (a mask over slot offsets).
#[inline]
pub(crate) const fn is_kind(s: u8, kinds: u32) -> bool {
    kinds >> (s & 15) & 1 != 0
}

#[inline]
const fn slot_piece(s: u8) -> Piece {
    let color = if s & 16 != 0 { Color::Red } else { Color::Black };
    Piece::new(color, SLOT_KIND[(s & 15) as usize])
}

/// Occupied points, as one bit mask per rank (bit = file) and per file (bit = rank).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Occupancy {
    pub ranks: [u16; 10],
    pub files: [u16; 9],
}

impl Occupancy {
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.ranks[sq.rank() as usize] >> sq.file() & 1 != 0
    }

    #[inline]
    fn toggle_raw(&mut self, sq: usize) {
        let (f, r) = (FILE_OF[sq] as usize, RANK_OF[sq] as usize);
        self.ranks[r] ^= 1 << f;
        self.files[f] ^= 1 << r;
    }

    #[inline]
    pub fn add(&mut self, sq: Square) {
        let (f, r) = (sq.file() as usize, sq.rank() as usize);
        self.ranks[r] |= 1 << f;
        self.files[f] |= 1 << r;
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) {
        let (f, r) = (sq.file() as usize, sq.rank() as usize);
        self.ranks[r] &= !(1 << f);
        self.files[f] &= !(1 << r);
    }

    pub fn to_set(&self) -> SquareSet {
        let mut bits = 0u128;
        for (r, &m) in self.ranks.iter().enumerate() {
            bits |= (m as u128) << (9 * r);
        }
        SquareSet::from_bits(bits)
    }
}

/// What make_move must remember to undo a move, and what the position after it knows cheaply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Zobrist key of board and side to move.
    pub key: u64,
    /// The move that led here (`Move::NULL` at the start and after a null move).
    pub last_move: Move,
    /// Slot captured by `last_move` (0 if none).
    pub captured: u8,
    /// Plies since the last capture (the FEN's fifth field).
    pub rule60: u16,
    /// Plies since the last null move (or the start): repetitions never reach across a null move.
    pub plies_from_null: u16,
    /// Whether the side to move is in check.
    pub in_check: bool,
}

#[derive(Clone)]
pub struct Position {
    /// Slot on each square, 0 when empty; entry 90 (`NO_SQ`) is always 0 so that sentinels read as empty.
    board: [u8; 91],
    slot_square: [u8; 48],
    occ: Occupancy,
    color_occ: [Occupancy; 2],
    /// Pieces on the board by colour and kind (a spare eighth byte, so that a side's counts read as one `u64`).
    counts: [[u8; 8]; 2],
    side: Color,
    st: State,
    /// States before each move made, oldest first.
    history: Vec<State>,
    /// Full-move number of the FEN this position was set up from.
    start_fullmove: u16,
    start_side: Color,
    /// How many positions of the history (the current one included) have a key in each bucket: a cheap
    /// first test before scanning the history for a repetition.
    rep_filter: [u16; REP_FILTER_SIZE],
}

const REP_FILTER_SIZE: usize = 1024;

#[inline]
const fn rep_bucket(key: u64) -> usize {
    (key >> 48) as usize & (REP_FILTER_SIZE - 1)
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    fn empty() -> Position {
        Position {
            board: [0; 91],
            slot_square: [NO_SQ; 48],
            occ: Occupancy::default(),
            color_occ: [Occupancy::default(); 2],
            counts: [[0; 8]; 2],
            side: Color::Red,
            st: State { key: 0, last_move: Move::NULL, captured: 0, rule60: 0, plies_from_null: 0, in_check: false },
            history: Vec::with_capacity(256),
            start_fullmove: 1,
            start_side: Color::Red,
            rep_filter: [0; REP_FILTER_SIZE],
        }
    }

    /// Puts a piece on an empty square, giving it the first free slot of its kind.
    /// Returns false (and changes nothing) when all slots of that kind are taken.
    fn put_piece(&mut self, piece: Piece, sq: Square) -> bool {
        debug_assert_eq!(self.board[sq.index()], 0);
        let base = tag(piece.color());
        let first = FIRST_OFFSET[piece.kind().index()];
        let count = piece.kind().max_count();
        for off in first..first + count {
            let slot = base + off;
            if self.slot_square[slot as usize] == NO_SQ {
                self.slot_square[slot as usize] = sq.index() as u8;
                self.board[sq.index()] = slot;
                self.occ.add(sq);
                self.color_occ[piece.color().index()].add(sq);
                self.counts[piece.color().index()][piece.kind().index()] += 1;
                self.st.key ^= KEYS.piece[piece.index()][sq.index()];
                return true;
            }
        }
        false
    }

    // ----- Queries ------------------------------------------------------------------------------------------

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.board[sq.index()] {
            0 => None,
            s => Some(slot_piece(s)),
        }
    }

    /// [`Position::slot_at`] by point index, where index 90 (`NO_SQ`, a table's padding) reads empty.
    #[inline]
    pub(crate) fn slot_at_index(&self, index: usize) -> u8 {
        self.board[index]
    }

    /// Every point's slot (see [`Position::slot_at`]), in point order: a whole board to compare at once.
    #[inline]
    pub fn slots(&self) -> &[u8] {
        &self.board[..90]
    }

    /// The identity of the piece on `sq` (a number in 16..48 that stays with the piece while it moves), or 0.
    #[inline]
    pub fn slot_at(&self, sq: Square) -> u8 {
        self.board[sq.index()]
    }

    /// Where the piece with this slot stands, if it is still on the board.
    #[inline]
    pub fn slot_square(&self, slot: u8) -> Option<Square> {
        match self.slot_square.get(slot as usize) {
            Some(&sq) if sq != NO_SQ => Some(Square::from_index(sq as usize)),
            _ => None,
        }
    }

    /// The piece a slot number stands for (whether or not it is on the board).
    pub fn slot_piece(slot: u8) -> Option<Piece> {
        (16..48).contains(&slot).then(|| slot_piece(slot))
    }

    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_index(self.slot_square[tag(color) as usize] as usize)
    }

    /// The squares holding pieces of `color` and kind `kind`.
    pub fn pieces(&self, color: Color, kind: PieceType) -> SquareSet {
        self.squares(color, kind).collect()
    }

    /// The same squares one by one, read from the kind's fixed slots (no set is built: the evaluation's loops).
    #[inline]
    pub fn squares(&self, color: Color, kind: PieceType) -> impl Iterator<Item = Square> + '_ {
        let base = (tag(color) + FIRST_OFFSET[kind.index()]) as usize;
        self.slot_square[base..base + kind.max_count() as usize]
            .iter()
            .filter(|&&s| s != NO_SQ)
            .map(|&s| Square::from_index(s as usize))
    }

    /// How many pieces of `color` and kind `kind` are on the board.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceType) -> u32 {
        self.counts[color.index()][kind.index()] as u32
    }

    /// How many pieces (both colours, kings included) are on the board.
    #[inline]
    pub fn piece_count(&self) -> u32 {
        // Each colour's counts are 8 bytes (the 8th always 0), none above 16, so the byte sum of their sum is
        // below 256 and the multiply gathers it in the top byte.
        let words = self.counts.map(u64::from_ne_bytes);
        ((words[0] + words[1]).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// Every piece of `color` with its kind, king first, pawns last.
    #[inline]
    pub fn pieces_of_color(&self, color: Color) -> impl Iterator<Item = (PieceType, Square)> + '_ {
        let base = tag(color) as usize;
        (0..16).filter_map(move |off| {
            let sq = self.slot_square[base + off];
            (sq != NO_SQ).then(|| (SLOT_KIND[off], Square::from_index(sq as usize)))
        })
    }

    /// All pieces of `color`.
    pub fn pieces_of(&self, color: Color) -> SquareSet {
        self.color_occ[color.index()].to_set()
    }

    #[inline]
    pub fn occupancy(&self) -> &Occupancy {
        &self.occ
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.st.key
    }

    /// The key the position will have after the pseudo-legal move `m`, without playing it: the search asks
    /// for the child's hash-table entry before the move's own work, so that the memory load overlaps it.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from().index(), m.to().index());
        let piece = slot_piece(self.board[from]).index();
        let captured = self.board[to];
        let key = self.st.key ^ KEYS.side ^ KEYS.piece[piece][from] ^ KEYS.piece[piece][to];
        if captured == 0 {
            key
        } else {
            key ^ KEYS.piece[slot_piece(captured).index()][to]
        }
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.st.in_check
    }

    /// Plies since the last capture.
    #[inline]
    pub fn rule60(&self) -> u16 {
        self.st.rule60
    }

    #[inline]
    pub fn plies_from_null(&self) -> u16 {
        self.st.plies_from_null
    }

    #[inline]
    pub fn last_move(&self) -> Move {
        self.st.last_move
    }

    #[inline]
    pub fn state(&self) -> &State {
        &self.st
    }

    /// States before each move made since the position was set up, oldest first; `history()[i]` is the
    /// state in which the `i`-th move was played.
    #[inline]
    pub fn history(&self) -> &[State] {
        &self.history
    }

    /// Number of moves made since the position was set up.
    #[inline]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The full-move number, counted as FEN counts it (it grows after each Black move).
    pub fn fullmove(&self) -> u32 {
        let black_first = (self.start_side == Color::Black) as u32;
        self.start_fullmove as u32 + (self.history.len() as u32 + black_first) / 2
    }

    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()] != 0
    }

    // ----- Make and unmake ----------------------------------------------------------------------------------

    /// Plays `m`, which must be legal in this position (see [`Position::is_legal`] for moves from elsewhere).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        self.make_move_impl(m, None);
    }

    /// Plays `m` when the caller already knows whether it gives check (`gives_check(m)`), sparing the test.
    #[inline]
    pub fn make_move_giving(&mut self, m: Move, gives_check: bool) {
        debug_assert_eq!(gives_check, self.gives_check(m), "make_move_giving {m}");
        self.make_move_impl(m, Some(gives_check));
    }

    #[inline(always)]
    fn make_move_impl(&mut self, m: Move, gives_check: Option<bool>) {
        let (from, to) = (m.from().index(), m.to().index());
        let slot = self.board[from];
        let captured = self.board[to];
        // The opponent is not in check now (a legal position), so only a move touching its king's lines can check.
        debug_assert!(!self.is_king_attacked(!self.side), "make_move {m}: the side not to move is in check");
        let may_check = gives_check.unwrap_or_else(|| self.may_check(from as u8, to as u8));
        debug_assert!(slot & tag(self.side) != 0, "make_move {m}: no piece of the side to move on {}", m.from());
        debug_assert!(captured == 0 || (captured & tag(self.side) == 0 && captured & 15 != 0), "make_move {m}");

        self.history.push(self.st);
        let us = self.side.index();
        let key = self.key_after(m);

        self.occ.toggle_raw(from);
        self.color_occ[us].toggle_raw(from);
        self.color_occ[us].toggle_raw(to);
        if captured != 0 {
            let cp = slot_piece(captured);
            self.slot_square[captured as usize] = NO_SQ;
            self.color_occ[us ^ 1].toggle_raw(to);
            self.counts[us ^ 1][cp.kind().index()] -= 1;
            self.st.rule60 = 0;
        } else {
            self.occ.toggle_raw(to);
            self.st.rule60 += 1;
        }
        self.board[to] = slot;
        self.board[from] = 0;
        self.slot_square[slot as usize] = to as u8;
        self.side = !self.side;

        self.st.key = key;
        self.rep_filter[rep_bucket(key)] += 1;
        self.st.last_move = m;
        self.st.captured = captured;
        self.st.plies_from_null += 1;
        self.st.in_check = match gives_check {
            Some(check) => check,
            None => may_check && self.king_attacked_after(self.side, NO_SQ, NO_SQ, 0),
        };
        #[cfg(debug_assertions)]
        self.assert_valid();
    }

    /// Takes back the last move made with make_move.
    #[inline]
    pub fn unmake_move(&mut self) {
        let m = self.st.last_move;
        let captured = self.st.captured;
        let (from, to) = (m.from().index(), m.to().index());
        self.side = !self.side;
        let us = self.side.index();
        let slot = self.board[to];

        self.board[from] = slot;
        self.slot_square[slot as usize] = from as u8;
        self.board[to] = captured;
        self.occ.toggle_raw(from);
        self.color_occ[us].toggle_raw(from);
        self.color_occ[us].toggle_raw(to);
        if captured != 0 {
            self.slot_square[captured as usize] = to as u8;
            self.color_occ[us ^ 1].toggle_raw(to);
            self.counts[us ^ 1][SLOT_KIND[(captured & 15) as usize].index()] += 1;
        } else {
            self.occ.toggle_raw(to);
        }
        self.rep_filter[rep_bucket(self.st.key)] -= 1;
        self.st = self.history.pop().expect("unmake_move without a move to take back");
        #[cfg(debug_assertions)]
        self.assert_valid();
    }

    /// Passes the move to the opponent (for null-move pruning and threat detection). Not allowed in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.st.in_check);
        self.history.push(self.st);
        self.side = !self.side;
        self.st.key ^= KEYS.side;
        self.rep_filter[rep_bucket(self.st.key)] += 1;
        self.st.last_move = Move::NULL;
        self.st.captured = 0;
        self.st.rule60 += 1;
        self.st.plies_from_null = 0;
        self.st.in_check = self.king_attacked_after(self.side, NO_SQ, NO_SQ, 0);
    }

    pub fn unmake_null_move(&mut self) {
        self.side = !self.side;
        self.rep_filter[rep_bucket(self.st.key)] -= 1;
        self.st = self.history.pop().expect("unmake_null_move without a null move to take back");
    }

    /// Takes back the last move or null move, whichever it was.
    pub fn unmake_any(&mut self) {
        if self.st.last_move.is_null() {
            self.unmake_null_move();
        } else {
            self.unmake_move();
        }
    }

    /// Gives the move to the other side in place, without a history entry (undo it by calling it again).
    /// For "what if the other side were to move here" questions (the referee's chase and threat tests). The
    /// result may have the side not to move in check: move generation stays correct for the side to move,
    /// but such a position must not be played on.
    pub fn flip_side(&mut self) {
        self.rep_filter[rep_bucket(self.st.key)] -= 1;
        self.side = !self.side;
        self.st.key ^= KEYS.side;
        self.rep_filter[rep_bucket(self.st.key)] += 1;
        self.st.in_check = self.king_attacked_after(self.side, NO_SQ, NO_SQ, 0);
    }

    /// Whether the quiet move `m` returns to a position of the game or the search path (same side to move,
    /// no capture or null move between): a move that the repetition rules may decide, which a search must not
    /// prune unseen.
    pub fn repeats_after(&self, m: Move) -> bool {
        let (from, to) = (m.from().index(), m.to().index());
        if self.board[to] != 0 {
            return false;
        }
        let piece = slot_piece(self.board[from]);
        let key = self.st.key ^ KEYS.side ^ KEYS.piece[piece.index()][from] ^ KEYS.piece[piece.index()][to];
        if self.rep_filter[rep_bucket(key)] == 0 {
            return false;
        }
        // After the move (ply `now + 1`) the same side moves at plies now − 1, now − 3, …; the move itself is
        // reversible, so the window reaches as far back as it does now.
        let now = self.history.len();
        (self.repetition_window_start()..now.saturating_sub(2)).rev().step_by(2).any(|p| self.key_at(p) == key)
    }

    /// The earliest ply whose position can recur: none before the last capture or null move (or the start of
    /// the history). Every repetition question scans from here.
    #[inline]
    pub fn repetition_window_start(&self) -> usize {
        let now = self.history.len();
        now - (self.st.rule60 as usize).min(self.st.plies_from_null as usize).min(now)
    }

    /// Whether the current key may have occurred before in the history: false means it certainly has not.
    #[inline]
    pub fn may_repeat(&self) -> bool {
        self.rep_filter[rep_bucket(self.st.key)] > 1
    }

    /// The key of the position after `ply` moves (0 = the position set up from the FEN).
    pub fn key_at(&self, ply: usize) -> u64 {
        if ply == self.history.len() {
            self.st.key
        } else {
            self.history[ply].key
        }
    }

    /// The state of the position after `ply` moves (0 = as set up).
    pub fn state_at(&self, ply: usize) -> &State {
        if ply == self.history.len() {
            &self.st
        } else {
            &self.history[ply]
        }
    }

    /// The move that led to the position after `ply` moves (`ply` ≥ 1).
    pub fn move_at(&self, ply: usize) -> Move {
        self.state_at(ply).last_move
    }

    /// A key of the kings and pawns alone (the slow-changing skeleton of a position), computed on demand from
    /// the slots: the search's correction history groups positions by it.
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            let base = tag(color) as usize;
            for off in [0, 11, 12, 13, 14, 15] {
                let sq = self.slot_square[base + off];
                if sq != NO_SQ {
                    key ^= KEYS.piece[slot_piece((base + off) as u8).index()][sq as usize];
                }
            }
        }
        key
    }

    /// A key of the material on the board (how many pieces of each kind and colour), whatever their squares.
    #[inline]
    pub fn material_key(&self) -> u64 {
        // Every count is at most 5 (three bits): Black's go to the high nibble of each byte, and the packing is
        // one-to-one.
        let packed = u64::from_le_bytes(self.counts[0]) | u64::from_le_bytes(self.counts[1]) << 4;
        // Spread the packed counts over all bits (the table index takes the low ones).
        (packed ^ packed >> 29).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20
    }

    // ----- Consistency --------------------------------------------------------------------------------------

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black { KEYS.side } else { 0 };
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                key ^= KEYS.piece[p.index()][sq.index()];
            }
        }
        key
    }

    /// Checks every redundant part of the representation against the others: the incremental key, the
    /// occupancy masks, the slot tables and the check flag.
    pub fn validate(&self) -> Result<(), String> {
        if self.board[NO_SQ as usize] != 0 {
            return Err("sentinel square is not empty".into());
        }
        let mut occ = Occupancy::default();
        let mut color_occ = [Occupancy::default(); 2];
        for sq in Square::all() {
            let s = self.board[sq.index()];
            if s == 0 {
                continue;
            }
            if !(16..48).contains(&s) || self.slot_square[s as usize] != sq.index() as u8 {
                return Err(format!("slot {s} on {sq} does not point back"));
            }
            occ.add(sq);
            color_occ[slot_piece(s).color().index()].add(sq);
        }
        for s in 16..48u8 {
            let sq = self.slot_square[s as usize];
            if sq != NO_SQ && self.board[sq as usize] != s {
                return Err(format!("slot {s} claims square {sq}"));
            }
        }
        for c in Color::ALL {
            if self.slot_square[tag(c) as usize] == NO_SQ {
                return Err(format!("{c} has no king"));
            }
        }
        if occ != self.occ || color_occ != self.color_occ {
            return Err("occupancy masks disagree with the board".into());
        }
        for c in Color::ALL {
            for k in PieceType::ALL {
                let base = tag(c) + FIRST_OFFSET[k.index()];
                let n = (base..base + k.max_count()).filter(|&s| self.slot_square[s as usize] != NO_SQ).count();
                if n != self.counts[c.index()][k.index()] as usize {
                    return Err(format!("count of {c} {k} is stale"));
                }
            }
        }
        if self.compute_key() != self.st.key {
            return Err(format!("incremental key {:016x} != computed {:016x}", self.st.key, self.compute_key()));
        }
        if self.king_attacked_after(self.side, NO_SQ, NO_SQ, 0) != self.st.in_check {
            return Err("check flag is stale".into());
        }
        let mut filter = [0u16; REP_FILTER_SIZE];
        for k in self.history.iter().map(|s| s.key).chain([self.st.key]) {
            filter[rep_bucket(k)] += 1;
        }
        if filter != self.rep_filter {
            return Err("repetition filter disagrees with the history".into());
        }
        Ok(())
    }

    #[cfg(debug_assertions)]
    fn assert_valid(&self) {
        if let Err(e) = self.validate() {
            panic!("corrupt position after {}: {e}\n{}", self.st.last_move, self.to_fen());
        }
    }
}

impl PartialEq for Position {
    /// Same pieces on the same squares, same side to move (history and counters aside).
    fn eq(&self, other: &Position) -> bool {
        self.side == other.side && Square::all().all(|sq| self.piece_at(sq) == other.piece_at(sq))
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
