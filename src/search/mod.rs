//! The search: iterative deepening with aspiration windows over a principal-variation alpha-beta, a
//! quiescence search, the shared transposition table, and Lazy SMP threads.
//!
//! The rules of the game are part of the search (rules.md §4): a repeated position inside the tree is judged by the
//! referee, the natural move limit and insufficient material are draws, and a side with no legal move has lost.

pub mod history;
pub mod movepick;
pub mod params;
pub mod time;

use crate::board::Position;
use crate::eval::{hce, EvalKind, Evaluator};
use crate::nnue::{self, Network};
use crate::rules::repetition::{judge_for_side_to_move, occurrences, previous_occurrence, Outcome};
use crate::rules::{final_repetition_outcome, natural_limit_count, Rules};
use crate::tt::{Bound, TranspositionTable};
use crate::types::{Color, Move, MoveList, Piece, PieceType};
use history::{ContIndex, CorrectionSlots, Histories, PieceTo};
use movepick::{Context, MovePicker};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;
use time::{Allocation, Carry, TimeManager};

pub const MATE: i32 = 32000;
pub const INF: i32 = 32500;
pub const MAX_PLY: usize = 128;
/// Scores at least this far from zero are mates (or rule wins) in a known number of plies.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// For a mate score, the plies to the mate; `None` for other scores.
pub fn mate_plies(score: i32) -> Option<i32> {
    is_mate_score(score).then(|| MATE - score.abs())
}

/// For a mate score, the moves to mate as UCI and people count them: `n` when the side to move mates in `n`,
/// `-n` when it is mated in `n`; `None` for other scores.
pub fn mate_moves(score: i32) -> Option<i32> {
    mate_plies(score).map(|plies| if score > 0 { (plies + 1) / 2 } else { -(plies / 2) })
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The bound a search result gives: it failed high, is exact (a PV node that raised alpha), or failed low.
fn bound_of(best: i32, original_alpha: i32, beta: i32, pv: bool) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if pv && best > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// When to stop.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<i32>,
    pub time: Option<Allocation>,
    /// Search until told to stop (also while pondering).
    pub infinite: bool,
}

/// How to search.
#[derive(Clone, Debug)]
pub struct Settings {
    pub threads: usize,
    pub multipv: usize,
    pub rules: Rules,
    /// Root moves not to play (UCCI `banmoves`); ignored if they are all the legal moves.
    pub banned: Vec<Move>,
    /// If not empty, the only root moves to consider (UCI `searchmoves`).
    pub only: Vec<Move>,
    /// Selective pruning and reductions (null move, futility, late-move pruning and reductions, SEE pruning,
    /// singular extensions). Off = full-width alpha-beta with quiescence: slower, for analysis and checks.
    pub pruning: bool,
    /// The evaluation (the `Eval` option).
    pub eval: EvalKind,
    /// The network for `EvalKind::Nnue` (the `EvalFile` option); `None`: the built-in one.
    pub network: Option<Arc<Network>>,
    /// What a draw costs the side to move at the root (the `style` option): positive avoids draws, negative
    /// seeks them. A draw scores `−contempt` for that side and `+contempt` for the other.
    pub contempt: i32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            multipv: 1,
            rules: Rules::default(),
            banned: Vec::new(),
            only: Vec::new(),
            pruning: true,
            eval: EvalKind::default(),
            network: None,
            contempt: 0,
        }
    }
}

/// State shared by the searching threads and the protocol thread.
pub struct Shared {
    pub tt: TranspositionTable,
    pub stop: AtomicBool,
    /// While set, time limits wait: the GUI is pondering on our move. `ponderhit` clears it.
    pub pondering: AtomicBool,
    nodes: AtomicU64,
    start: Mutex<Instant>,
    /// Each thread's move-ordering and correction statistics, kept from one move of a game to the next (what
    /// the last search learnt still holds after one move) and cleared with [`Shared::new_game`].
    histories: Mutex<Vec<Histories>>,
    /// What time management carries from one search of the game to the next.
    time_carry: Mutex<Carry>,
}

impl Shared {
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mb),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start: Mutex::new(Instant::now()),
            histories: Mutex::new(Vec::new()),
            time_carry: Mutex::new(Carry::default()),
        }
    }

    /// Forgets everything learnt in earlier searches: the hash table and the histories.
    pub fn new_game(&self) {
        self.tt.clear();
        self.histories.lock().unwrap_or_else(|e| e.into_inner()).clear();
        *self.time_carry.lock().unwrap_or_else(|e| e.into_inner()) = Carry::default();
    }

    /// The opponent played the expected move: from now on the clock counts.
    pub fn ponderhit(&self) {
        *self.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.pondering.store(false, Relaxed);
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.lock().unwrap_or_else(|e| e.into_inner()).elapsed().as_millis() as u64
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// One line of search output.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based line number.
    pub multipv: usize,
    /// From the side to move's point of view.
    pub score: i32,
    /// `Lower`/`Upper` when an aspiration window failed, `Exact` otherwise.
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// Receives progress from the main search thread.
pub trait Listener: Sync {
    fn info(&self, info: &Info);
    /// The move being searched at the root (only after the first seconds).
    fn currmove(&self, _depth: i32, _m: Move, _number: usize) {}
}

/// A listener that ignores everything (bench, tests).
pub struct Silent;

impl Listener for Silent {
    fn info(&self, _: &Info) {}
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` when there is no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
    seldepth: usize,
}

#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    current: Move,
    piece: Option<Piece>,
    excluded: Move,
    killers: [Move; 2],
    /// Continuation-history index of the move made at this ply.
    cont: ContIndex,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: 0,
            current: Move::NULL,
            piece: None,
            excluded: Move::NULL,
            killers: [Move::NULL; 2],
            cont: ContIndex::NONE,
        }
    }
}

/// Late-move reductions by depth and move number, from the parameters in force when a search starts.
struct Reductions([[i32; 64]; 64]);

impl Reductions {
    fn new() -> Box<Reductions> {
        let (base, divisor) = (params::lmr_base(), params::lmr_divisor());
        let mut t = Box::new(Reductions([[0; 64]; 64]));
        for (d, row) in t.0.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
            }
        }
        t
    }

    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth as usize).min(63)][moves.min(63)]
    }
}

/// A hash score is a better guess than the static evaluation when its bound lies beyond it.
fn refined(eval: i32, bound: Bound, score: i32) -> i32 {
    match bound {
        Bound::Lower if score > eval => score,
        Bound::Upper if score < eval => score,
        _ => eval,
    }
}

/// Whether `color` has a piece that makes null-move pruning safe (zugzwang is rare while it does).
fn has_attackers(pos: &Position, color: Color) -> bool {
    [PieceType::Rook, PieceType::Horse, PieceType::Cannon].iter().any(|&k| pos.count(color, k) > 0)
}

const REP_CACHE: usize = 1024;

struct Worker<'a, E: Evaluator> {
    id: usize,
    pos: Position,
    shared: &'a Shared,
    limits: &'a Limits,
    settings: &'a Settings,
    listener: &'a dyn Listener,
    root_ply: usize,
    root_moves: Vec<RootMove>,
    pv_idx: usize,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    stack: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The evaluation, told of every move made and taken back along the path.
    eval: E,
    hist: Histories,
    rep_cache: Vec<(u64, Outcome)>,
    lmr: Box<Reductions>,
    completed_depth: i32,
    /// Depth of the current iteration.
    root_depth: i32,
    stopped: bool,
    /// When to stop (the main thread's; helpers stop when it does).
    time: TimeManager,
}

impl<'a, E: Evaluator> Worker<'a, E> {
    fn main_thread(&self) -> bool {
        self.id == 0
    }

    /// Polls the limits every 1024 nodes (main thread only); all threads watch the stop flag. A node limit
    /// under 4096 (the weakest skill levels) is polled every 64 nodes so that it means what it says.
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let mask = if self.limits.nodes.is_some_and(|n| n < 4096) { 63 } else { 1023 };
        if self.nodes & mask == 0 {
            self.shared.nodes.fetch_add(self.nodes - self.flushed, Relaxed);
            self.flushed = self.nodes;
            if self.main_thread() && self.completed_depth >= 1 {
                let pondering = self.shared.pondering.load(Relaxed);
                let out_of_time = self.time.out_of_time(pondering, || self.shared.elapsed_ms());
                let out_of_nodes = self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
                if out_of_time || out_of_nodes {
                    self.shared.stop.store(true, Relaxed);
                }
            }
            if self.shared.stop.load(Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn total_nodes(&self) -> u64 {
        if self.settings.threads <= 1 {
            self.nodes
        } else {
            self.shared.nodes.load(Relaxed) + (self.nodes - self.flushed)
        }
    }

    /// The continuation tables' indices of the moves one and two plies before `ply`.
    fn cont_indices(&self, ply: usize) -> [ContIndex; 2] {
        let before = |back: usize| ply.checked_sub(back).map_or(ContIndex::NONE, |p| self.stack[p].cont);
        [before(1), before(2)]
    }

    fn cont_tables(&self, ply: usize) -> [&PieceTo; 2] {
        self.cont_indices(ply).map(|c| self.hist.continuation.table(c))
    }

    /// A draw's score for the side to move `ply` plies below the root (the root's side moves at even plies).
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.settings.contempt
        } else {
            self.settings.contempt
        }
    }

    /// The rules at an interior node: natural limit, repetition. May tighten the window; returns a score when
    /// the node is decided.
    fn rules_at_node(&mut self, ply: usize, alpha: &mut i32, beta: &mut i32) -> Option<i32> {
        let rules = &self.settings.rules;
        if rules.natural_limit > 0
            && self.pos.rule60() as u32 >= rules.natural_limit
            && natural_limit_count(&self.pos, rules.counted_checks) >= rules.natural_limit
        {
            return Some(if self.pos.has_legal_move() { self.draw_score(ply) } else { mated_in(ply) });
        }
        if !self.pos.may_repeat() {
            return None;
        }
        let from = previous_occurrence(&self.pos)?;
        let occ = occurrences(&self.pos);
        let needed = rules.repetitions.max(2) as usize;
        let exact = occ.len() >= needed;
        if !exact && from <= self.root_ply {
            return None;
        }
        // A repetition that ends the game is judged as the referee will judge it, over every cycle since the
        // first of the counted occurrences (a side is forbidden only if each cycle shows it).
        let outcome = if exact { self.judge_cached(&occ[occ.len() - needed..]) } else { self.judge_cached(&[from]) };
        match (outcome, exact) {
            (Outcome::Draw, _) => Some(self.draw_score(ply)),
            (Outcome::Win, true) => Some(mate_in(ply)),
            (Outcome::Loss, true) => Some(mated_in(ply)),
            // A two-fold inside the tree is not final: the offender may still leave the cycle earlier. It
            // only bounds the node (rules.md §4).
            (Outcome::Win, false) => {
                *alpha = (*alpha).max(-1);
                (*alpha >= *beta).then_some(*alpha)
            }
            (Outcome::Loss, false) => {
                *beta = (*beta).min(1);
                (*alpha >= *beta).then_some(*beta)
            }
        }
    }

    /// Judges the repetition back to the first of `occ`: its last cycle when `occ` is only the previous
    /// occurrence, every cycle between the counted occurrences (the current ply last) of a game-ending one.
    /// Verdicts are remembered by the positions since then.
    fn judge_cached(&mut self, occ: &[usize]) -> Outcome {
        let full = occ.len() > 1;
        let now = self.pos.ply();
        let mut h = full as u64;
        for p in occ[0]..=now {
            h = h.rotate_left(7) ^ self.pos.key_at(p);
        }
        let slot = (h as usize) & (REP_CACHE - 1);
        if self.rep_cache[slot].0 == h {
            return self.rep_cache[slot].1;
        }
        let rules = &self.settings.rules;
        let outcome = if full {
            final_repetition_outcome(&self.pos, rules, occ)
        } else {
            judge_for_side_to_move(&self.pos, occ[0], rules)
        };
        self.rep_cache[slot] = (h, outcome);
        outcome
    }

    /// The static evaluation of the current node.
    #[inline]
    fn evaluate(&mut self) -> i32 {
        self.eval.evaluate(&self.pos)
    }

    /// The static evaluation `raw` adjusted by the correction history (the position's entries at `at`).
    #[inline]
    fn corrected(&self, raw: i32, at: CorrectionSlots) -> i32 {
        (raw + self.hist.correction.get(at)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Records the move in the frame of `ply` (for histories and the null-move rule), tells the evaluation,
    /// and plays it.
    #[inline]
    fn make(&mut self, ply: usize, m: Move) {
        // The same test `make_move` would run for the check flag.
        let gives_check = self.pos.gives_check(m);
        self.make_giving(ply, m, gives_check);
    }

    /// As [`Worker::make`], for a move whose `gives_check` is already known.
    #[inline]
    fn make_giving(&mut self, ply: usize, m: Move, gives_check: bool) {
        self.shared.tt.prefetch(self.pos.key_after(m));
        self.eval.push(&self.pos, m);
        let piece = self.pos.piece_at(m.from());
        self.stack[ply].current = m;
        self.stack[ply].piece = piece;
        self.stack[ply].cont = ContIndex::after(piece, m.to());
        self.pos.make_move_giving(m, gives_check);
    }

    /// Takes back the last move made with [`Worker::make`].
    #[inline]
    fn unmake(&mut self) {
        self.pos.unmake_move();
        self.eval.pop();
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let next = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..next {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = next;
    }

    fn search<const PV: bool>(&mut self, mut alpha: i32, mut beta: i32, mut depth: i32, ply: usize, cut: bool) -> i32 {
        // Check extension: a side in check is searched a ply deeper (checks decide most xiangqi attacks), but
        // only near the root: deeper down, checks are so common that extending them all costs more depth
        // than it finds (docs/sprt-log.md), and perpetual checking could extend without end.
        if self.pos.in_check()
            && (ply as i32) < self.root_depth * params::check_ext_mul() / 100 + params::check_ext_add()
        {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        if PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        let in_check = self.pos.in_check();
        if let Some(v) = self.rules_at_node(ply, &mut alpha, &mut beta) {
            return v;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.stack[ply].excluded;
        let key = self.pos.key();
        let tt = if excluded.is_null() { self.shared.tt.probe(key) } else { None };
        let tt_move = tt.map_or(Move::NULL, |e| e.mv);
        let tt_score = tt.map(|e| from_tt(e.score, ply));
        if let (false, Some(e), Some(s)) = (PV, tt, tt_score) {
            let fits = e.bound.decides(s, alpha, beta);
            if e.depth >= depth && fits && self.pos.rule60() < 100 {
                return s;
            }
        }

        // `raw` is the evaluation (kept in the hash table), `static_eval` that corrected by the correction
        // history, `eval` the best estimate: a hash score that bounds the static one the right way is better.
        // The correction-table slots, only where there is a static evaluation (not in check): the pawn key is
        // computed on demand.
        let corr_at = (!in_check).then(|| CorrectionSlots::of(&self.pos));
        let (raw, static_eval, eval) = match corr_at {
            None => (0, -INF, -INF),
            Some(at) => {
                let raw = match tt {
                    Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
                    _ => {
                        let raw = self.evaluate();
                        // Kept at once, so that a transposition reached before this node's search ends (or a
                        // search cut short) does not evaluate again.
                        if excluded.is_null() {
                            self.shared.tt.store(key, Move::NULL, 0, raw, -1, Bound::None, PV);
                        }
                        raw
                    }
                };
                let corrected = self.corrected(raw, at);
                let eval = match (tt, tt_score) {
                    (Some(e), Some(s)) => refined(corrected, e.bound, s),
                    _ => corrected,
                };
                (raw, corrected, eval)
            }
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        self.stack[ply + 1].killers = [Move::NULL; 2];
        if ply + 2 <= MAX_PLY {
            self.stack[ply + 2].killers = [Move::NULL; 2];
        }

        // Whether a quiet move leads back into an earlier position (worked out when first needed): the
        // repetition rules may decide such a move, so neither razoring nor move-count pruning may pass it over.
        let mut cycle: Option<bool> = None;
        if self.settings.pruning && !in_check && !PV && excluded.is_null() && !is_mate_score(beta) {
            // Razoring: hopeless nodes go straight to quiescence, unless a quiet move returns to an earlier
            // position (quiescence would not see the repetition rules decide it).
            if depth <= params::razor_depth()
                && !improving
                && eval + params::razor_base() + params::razor_mul() * depth * depth < alpha
                && !*cycle.get_or_insert_with(|| self.pos.upcoming_repetition())
            {
                let v = self.qsearch::<false>(alpha - 1, alpha, ply);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility.
            let margin = params::rfp_margin() * (depth - improving as i32);
            if depth <= params::rfp_depth() && eval - margin >= beta && eval < MATE_BOUND {
                return (eval + beta) / 2;
            }
            // Null move.
            let us = self.pos.side_to_move();
            if depth >= params::nmp_min_depth()
                && eval >= beta
                && ply >= 1
                && !self.stack[ply - 1].current.is_null()
                && has_attackers(&self.pos, us)
            {
                let r = params::nmp_base()
                    + depth / params::nmp_depth_div()
                    + ((eval - beta) / params::nmp_eval_div()).min(params::nmp_eval_max());
                self.stack[ply].current = Move::NULL;
                self.stack[ply].piece = None;
                self.stack[ply].cont = ContIndex::NONE;
                self.eval.push_null();
                self.pos.make_null_move();
                self.shared.tt.prefetch(self.pos.key());
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut);
                self.pos.unmake_null_move();
                self.eval.pop();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    // Verify at high depth or with little material, where zugzwang bites.
                    let few = self.pos.count(us, PieceType::Rook) + self.pos.count(us, PieceType::Cannon) == 0;
                    if depth < params::nmp_verify_depth() && !few {
                        return v;
                    }
                    let w = self.search::<false>(beta - 1, beta, depth - r, ply, false);
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Internal iterative reduction: without a hash move this node is probably not worth its full depth.
        if self.settings.pruning && tt_move.is_null() && depth >= params::iir_depth() && (PV || cut) {
            depth -= 1;
        }

        let us = self.pos.side_to_move();
        let prev = if ply >= 1 { self.stack[ply - 1] } else { Frame::default() };
        let counter = match prev.piece {
            Some(p) if !prev.current.is_null() => self.hist.counter.get(p, prev.current.to()),
            _ => Move::NULL,
        };
        let mut picker = MovePicker::new(&self.pos, tt_move, self.stack[ply].killers, counter);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets = MoveList::new();
        let mut captures = MoveList::new();
        let original_alpha = alpha;

        loop {
            let m = {
                let cx = Context { pos: &self.pos, hist: &self.hist, cont: self.cont_tables(ply) };
                match picker.next(&cx) {
                    Some(m) => m,
                    None => break,
                }
            };
            if m == excluded {
                continue;
            }
            move_count += 1;
            let capture = self.pos.is_capture(m);
            let gives_check = self.pos.gives_check(m);
            let piece = self.pos.piece_at(m.from());
            let hist_score = if capture { 0 } else { self.hist.quiet(us, piece, m, self.cont_tables(ply)) };

            // Shallow-depth pruning, once a move has saved us from being mated; never of a move back into an
            // earlier position.
            if self.settings.pruning
                && best > -MATE_BOUND
                && has_attackers(&self.pos, us)
                && (capture || !self.pos.repeats_after(m))
            {
                let lmr_depth = (depth - 1 - self.lmr.get(depth, move_count)).max(0);
                if !capture && !gives_check {
                    let limit = (params::lmp_base() + depth * depth) as usize / if improving { 1 } else { 2 };
                    if move_count > limit && depth <= params::lmp_depth() {
                        picker.skip_quiets = !*cycle.get_or_insert_with(|| self.pos.upcoming_repetition());
                        continue;
                    }
                    let futility = eval
                        + params::futility_base()
                        + params::futility_mul() * lmr_depth
                        + hist_score / params::futility_history_div();
                    if !in_check && lmr_depth <= params::futility_depth() && futility <= alpha {
                        continue;
                    }
                    if lmr_depth <= params::history_prune_depth() && hist_score < -params::history_prune_mul() * depth {
                        continue;
                    }
                    let see = -params::see_quiet_sq() * lmr_depth * lmr_depth - params::see_quiet_lin() * lmr_depth;
                    if !self.pos.see_ge(m, see) {
                        continue;
                    }
                } else if depth <= params::see_capture_depth()
                    && !self.pos.see_ge(m, -params::see_capture_mul() * depth + params::see_capture_base())
                {
                    continue;
                }
            }

            // Singular extension: is the hash move much better than everything else?
            let mut extension = 0;
            if self.settings.pruning
                && m == tt_move
                && ply > 0
                && depth >= params::singular_depth()
                && excluded.is_null()
            {
                if let (Some(e), Some(s)) = (tt, tt_score) {
                    if e.depth >= depth - params::singular_tt_depth()
                        && matches!(e.bound, Bound::Lower | Bound::Exact)
                        && !is_mate_score(s)
                    {
                        let sbeta = s - params::singular_margin() * depth;
                        self.stack[ply].excluded = m;
                        let v = self.search::<false>(sbeta - 1, sbeta, (depth - 1) / 2, ply, cut);
                        self.stack[ply].excluded = Move::NULL;
                        if self.stopped {
                            return 0;
                        }
                        if v < sbeta {
                            extension = 1;
                        } else if sbeta >= beta {
                            return sbeta;
                        } else if s >= beta {
                            extension = -1;
                        }
                    }
                }
            }

            self.make_giving(ply, m, gives_check);
            let new_depth = depth - 1 + extension;
            let mut v;
            if move_count == 1 {
                v = -self.search::<PV>(-beta, -alpha, new_depth, ply + 1, !PV && !cut);
            } else {
                let mut r = 0;
                if self.settings.pruning && depth >= params::lmr_min_depth() && (!capture || !PV) {
                    r = self.lmr.get(depth, move_count);
                    r += (!PV) as i32 * params::lmr_non_pv() + cut as i32 * params::lmr_cut_node();
                    r -= improving as i32 * params::lmr_improving() + gives_check as i32 * params::lmr_check();
                    r -= hist_score / params::lmr_history_div();
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if v > alpha && r > 0 {
                    v = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut);
                }
                if PV && v > alpha && v < beta {
                    v = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
            if m != best_move {
                if capture {
                    captures.push(m);
                } else {
                    quiets.push(m);
                }
            }
        }

        if move_count == 0 {
            // No legal move loses, in check or not; with an excluded move it is a fail-low.
            return if excluded.is_null() { mated_in(ply) } else { alpha };
        }
        if best >= beta && !best_move.is_null() {
            self.reward(ply, best_move, depth, &quiets, &captures);
        } else if best <= original_alpha && excluded.is_null() && ply >= 1 {
            // Every reply failed low: the quiet move that led here was good for the side that played it, so
            // the parent's continuation histories learn it as they would from a cutoff there.
            // (`prev` is the parent's frame, read before the move loop; a null move leaves no piece in it.)
            if prev.piece.is_some() && self.pos.state().captured == 0 {
                let b = history::bonus(depth) * params::prior_bonus() / 4;
                for c in self.cont_indices(ply - 1) {
                    self.hist.continuation.update(c, prev.piece, prev.current.to(), b);
                }
            }
        }
        if excluded.is_null() {
            let bound = bound_of(best, original_alpha, beta, PV);
            self.shared.tt.store(key, best_move, to_tt(best, ply), raw, depth, bound, PV);
            // Teach the correction history where the search disagreed with the static evaluation (as far as the
            // bound tells, and not when a capture decided).
            let quiet_best = best_move.is_null() || !self.pos.is_capture(best_move);
            let agrees = match bound {
                Bound::Lower => best > static_eval,
                Bound::Upper => best < static_eval,
                _ => true,
            };
            match corr_at {
                Some(at) if quiet_best && agrees && !is_mate_score(best) => {
                    self.hist.correction.update(at, best - static_eval, depth)
                }
                _ => {}
            }
        }
        best
    }

    /// History, killer and counter-move updates after a cutoff by `best`.
    fn reward(&mut self, ply: usize, best: Move, depth: i32, quiets: &MoveList, captures: &MoveList) {
        let bonus = history::bonus(depth);
        let us = self.pos.side_to_move();
        let [c1, c2] = self.cont_indices(ply);
        if self.pos.is_capture(best) {
            self.hist.capture.update(&self.pos, best, bonus);
        } else {
            let k = &mut self.stack[ply].killers;
            if k[0] != best {
                k[1] = k[0];
                k[0] = best;
            }
            let prev = self.stack.get(ply.wrapping_sub(1)).copied();
            if let Some(Frame { current, piece: Some(p), .. }) = prev {
                if !current.is_null() {
                    self.hist.counter.set(p, current.to(), best);
                }
            }
            for (m, b) in std::iter::once((best, bonus)).chain(quiets.iter().map(|&q| (q, -bonus))) {
                let piece = self.pos.piece_at(m.from());
                self.hist.butterfly.update(us, m, b);
                self.hist.continuation.update(c1, piece, m.to(), b);
                self.hist.continuation.update(c2, piece, m.to(), b);
            }
        }
        for &m in captures.iter() {
            self.hist.capture.update(&self.pos, m, -bonus);
        }
    }

    fn qsearch<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        if PV {
            self.seldepth = self.seldepth.max(ply + 1);
        }
        let mut beta = beta;
        if let Some(v) = self.rules_at_node(ply, &mut alpha, &mut beta) {
            return v;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let key = self.pos.key();
        let tt = self.shared.tt.probe(key);
        if let (false, Some(e)) = (PV, tt) {
            let s = from_tt(e.score, ply);
            let fits = e.bound.decides(s, alpha, beta);
            if fits {
                return s;
            }
        }
        let (raw, stand) = if in_check {
            (0, -INF)
        } else {
            let raw = match tt {
                Some(e) if e.eval.abs() < MATE_BOUND => e.eval,
                _ => self.evaluate(),
            };
            let corrected = self.corrected(raw, CorrectionSlots::of(&self.pos));
            let stand = tt.map_or(corrected, |e| refined(corrected, e.bound, from_tt(e.score, ply)));
            if stand >= beta {
                if tt.is_none() {
                    self.shared.tt.store(key, Move::NULL, to_tt(stand, ply), raw, -1, Bound::Lower, false);
                }
                return stand;
            }
            (raw, stand)
        };
        let original_alpha = alpha;
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut best_move = Move::NULL;
        let mut picker = MovePicker::quiescence(&self.pos, tt.map_or(Move::NULL, |e| e.mv));
        let mut move_count = 0;
        let mut quiet_evasions = 0;
        let prev = if ply >= 1 { self.stack[ply - 1].current } else { Move::NULL };
        let futility_base = stand + params::qs_futility();
        loop {
            let m = {
                let cx = Context { pos: &self.pos, hist: &self.hist, cont: self.cont_tables(ply) };
                match picker.next(&cx) {
                    Some(m) => m,
                    None => break,
                }
            };
            move_count += 1;
            if best > -MATE_BOUND {
                // As Pikafish does: past the first two captures only checks and recaptures are looked at, and
                // a capture that cannot lift the score to alpha even winning its victim outright is skipped.
                // Whether SEE ≥ 1 is already known (then SEE ≥ 0 needs no second exchange).
                let mut wins = false;
                if !in_check && !self.pos.gives_check(m) && (prev.is_null() || m.to() != prev.to()) {
                    if move_count > params::qs_captures() {
                        continue;
                    }
                    // SEE values are on a rook = 900 scale, the evaluation's about twice that.
                    let gain = params::qs_see_scale() * self.pos.piece_at(m.to()).map_or(0, |p| p.kind().see_value());
                    if futility_base + gain <= alpha {
                        best = best.max(futility_base + gain);
                        continue;
                    }
                    if futility_base <= alpha {
                        if !self.pos.see_ge(m, 1) {
                            best = best.max(futility_base);
                            continue;
                        }
                        wins = true;
                    }
                }
                if !wins && !self.pos.see_ge(m, 0) {
                    continue;
                }
                // Two quiet evasions are enough once one has saved us from mate.
                if quiet_evasions >= params::qs_quiet_evasions() {
                    break;
                }
            }
            quiet_evasions += (in_check && !self.pos.is_capture(m)) as i32;
            self.make(ply, m);
            let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = bound_of(best, original_alpha, beta, PV);
        self.shared.tt.store(key, best_move, to_tt(best, ply), raw, 0, bound, PV);
        best
    }

    /// Searches the root moves from `pv_idx` on; keeps their scores and principal variations.
    fn root(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        self.pv_len[0] = 0;
        self.nodes += 1;
        let mut best = -INF;
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.main_thread() && self.shared.elapsed_ms() > 3000 {
                self.listener.currmove(depth, m, i + 1);
            }
            self.seldepth = self.seldepth.max(1);
            self.make(0, m);
            let mut v;
            if i == self.pv_idx {
                v = -self.search::<true>(-beta, -alpha, depth - 1, 1, false);
            } else {
                let late = depth >= params::root_reduction_depth()
                    && i >= self.pv_idx + params::root_reduction_moves() as usize;
                let r = if late && !self.pos.in_check() { 1 } else { 0 };
                v = -self.search::<false>(-alpha - 1, -alpha, depth - 1 - r, 1, true);
                if v > alpha && r > 0 {
                    v = -self.search::<false>(-alpha - 1, -alpha, depth - 1, 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.search::<true>(-beta, -alpha, depth - 1, 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || v > alpha {
                rm.score = v;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
            } else {
                rm.score = -INF;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        // Stable sort: ties keep the previous order.
        let idx = self.pv_idx;
        self.root_moves[idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        best
    }

    fn report(&self, depth: i32, line: usize, bound: Bound) {
        let rm = &self.root_moves[line];
        let elapsed = self.shared.elapsed_ms();
        self.listener.info(&Info {
            depth,
            seldepth: rm.seldepth,
            multipv: line + 1,
            score: if rm.score == -INF { rm.prev_score } else { rm.score },
            bound,
            nodes: self.total_nodes(),
            time_ms: elapsed,
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        });
    }

    fn iterate(&mut self) {
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as i32 - 4).clamp(1, MAX_PLY as i32 - 4);
        let lines = self.settings.multipv.clamp(1, self.root_moves.len());
        for depth in 1..=max_depth {
            // Lazy SMP: helpers start at staggered depths so that threads spread over the tree.
            if !self.main_thread() && depth > 1 && (depth + self.id as i32) % 3 == 0 && depth < max_depth {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for line in 0..lines {
                self.pv_idx = line;
                self.seldepth = 0;
                let prev = self.root_moves[line].prev_score;
                let mut delta = params::aspiration_delta();
                let (mut alpha, mut beta) = if depth >= params::aspiration_depth() && prev.abs() < MATE_BOUND {
                    (prev - delta, prev + delta)
                } else {
                    (-INF, INF)
                };
                loop {
                    let v = self.root(alpha, beta, depth);
                    if self.stopped {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INF);
                        if self.main_thread() && self.shared.elapsed_ms() > 2000 {
                            self.report(depth, line, Bound::Upper);
                        }
                    } else if v >= beta {
                        beta = (v + delta).min(INF);
                        if self.main_thread() && self.shared.elapsed_ms() > 2000 {
                            self.report(depth, line, Bound::Lower);
                        }
                    } else {
                        break;
                    }
                    delta += delta * params::aspiration_growth() / 100;
                }
                if self.stopped {
                    break;
                }
                let idx = line;
                self.root_moves[..=idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !self.main_thread() {
                continue;
            }
            for line in 0..lines {
                self.report(depth, line, Bound::Exact);
            }
            // Stop conditions, main thread only.
            let best = &self.root_moves[0];
            if let Some(mate) = self.limits.mate {
                if best.score >= MATE_BOUND && MATE - best.score < 2 * mate {
                    break;
                }
            }
            let pondering = self.shared.pondering.load(Relaxed);
            let score = best.score.clamp(-MATE_BOUND, MATE_BOUND);
            let elapsed = self.shared.elapsed_ms();
            if self.time.iteration_done(depth, best.mv, score, elapsed, pondering, self.root_moves.len() == 1) {
                break;
            }
            if best.score.abs() >= MATE_BOUND
                && depth as i64 > (MATE - best.score.abs()) as i64 + 4
                && !self.limits.infinite
            {
                // A mate has been proven with room to spare.
                if self.limits.time.is_some() || self.limits.depth.is_none() {
                    break;
                }
            }
        }
    }
}

/// The legal root moves after `banned` and `only` are applied.
fn root_moves(pos: &Position, settings: &Settings) -> Vec<Move> {
    let all: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let mut moves: Vec<Move> = all.iter().copied().filter(|m| !settings.banned.contains(m)).collect();
    if moves.is_empty() {
        moves = all;
    }
    if !settings.only.is_empty() {
        let only: Vec<Move> = moves.iter().copied().filter(|m| settings.only.contains(m)).collect();
        if !only.is_empty() {
            moves = only;
        }
    }
    moves
}

/// Searches `pos` and returns the best move. Returns when a limit is reached or `shared.stop` is set; in
/// infinite or ponder mode it waits for `stop` (or `ponderhit`) even after the search has finished.
pub fn search(
    pos: &Position,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    listener: &dyn Listener,
) -> SearchResult {
    *shared.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    shared.nodes.store(0, Relaxed);
    shared.tt.new_search();
    let moves = root_moves(pos, settings);
    if moves.is_empty() {
        // No legal move: the side to move has lost (mate or stalemate).
        wait_for_stop(limits, shared);
        return SearchResult { best: None, ponder: None, score: mated_in(0), depth: 0, nodes: 0, pv: Vec::new() };
    }
    match settings.eval {
        EvalKind::Nnue => {
            let net = settings.network.clone().unwrap_or_else(nnue::default_network);
            run(pos, moves, limits, settings, shared, listener, &|| nnue::State::new(Arc::clone(&net)))
        }
        EvalKind::Hce => run(pos, moves, limits, settings, shared, listener, &hce::State::default),
    }
}

/// The search proper, with an evaluation from `new_eval` for every thread.
fn run<E: Evaluator>(
    pos: &Position,
    moves: Vec<Move>,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    listener: &dyn Listener,
    new_eval: &(dyn Fn() -> E + Sync),
) -> SearchResult {
    let threads = settings.threads.max(1);
    let mut kept = std::mem::take(&mut *shared.histories.lock().unwrap_or_else(|e| e.into_inner()));
    kept.resize_with(threads, Histories::default);
    let mut kept = kept.into_iter();
    let carried = *shared.time_carry.lock().unwrap_or_else(|e| e.into_inner());
    let mut make_worker = |id: usize| Worker {
        id,
        pos: pos.clone(),
        shared,
        limits,
        settings,
        listener,
        root_ply: pos.ply(),
        root_moves: moves
            .iter()
            .map(|&mv| RootMove { mv, score: -INF, prev_score: -INF, pv: vec![mv], seldepth: 0 })
            .collect(),
        pv_idx: 0,
        nodes: 0,
        flushed: 0,
        seldepth: 0,
        stack: vec![Frame::default(); MAX_PLY + 2],
        pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
        pv_len: [0; MAX_PLY + 1],
        eval: {
            let mut e = new_eval();
            e.refresh(pos);
            e
        },
        hist: kept.next().unwrap_or_default(),
        rep_cache: vec![(0, Outcome::Draw); REP_CACHE],
        lmr: Reductions::new(),
        completed_depth: 0,
        root_depth: 0,
        stopped: false,
        time: TimeManager::new(limits.time, limits.infinite, carried),
    };
    let mut main = make_worker(0);
    let helpers: Vec<_> = (1..threads).map(&mut make_worker).collect();
    let mut learnt = Vec::with_capacity(threads);
    std::thread::scope(|scope| {
        let helpers: Vec<_> = helpers
            .into_iter()
            .map(|mut w| {
                scope.spawn(move || {
                    w.iterate();
                    w.shared.nodes.fetch_add(w.nodes - w.flushed, Relaxed);
                    w.hist
                })
            })
            .collect();
        main.iterate();
        shared.nodes.fetch_add(main.nodes - main.flushed, Relaxed);
        main.flushed = main.nodes;
        wait_for_stop(limits, shared);
        shared.stop.store(true, Relaxed);
        learnt.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
    });
    let best = &main.root_moves[0];
    let score = if best.score == -INF { best.prev_score } else { best.score };
    let result = SearchResult {
        best: Some(best.mv),
        ponder: best.pv.get(1).copied(),
        score,
        depth: main.completed_depth,
        nodes: if threads == 1 { main.nodes } else { shared.nodes() },
        pv: best.pv.clone(),
    };
    learnt.insert(0, main.hist);
    *shared.time_carry.lock().unwrap_or_else(|e| e.into_inner()) =
        main.time.carry(score.clamp(-MATE_BOUND, MATE_BOUND));
    *shared.histories.lock().unwrap_or_else(|e| e.into_inner()) = learnt;
    result
}

/// In infinite and ponder mode the best move may only be sent after `stop` or `ponderhit`.
fn wait_for_stop(limits: &Limits, shared: &Shared) {
    while (limits.infinite || shared.pondering.load(Relaxed)) && !shared.stop.load(Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
