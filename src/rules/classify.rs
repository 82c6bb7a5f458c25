//! Move classification (rules.md §2): every move is 将 check, 杀 mate threat, 捉 chase or 闲 idle, in that order
//! of precedence.
//!
//! A chase is computed as a difference of *chase sets*: `CH(X, S)` is the set of the opponent's pieces that
//! side S could win if it were S's turn in X (conditions C1–C7 of rules.md §2.5), and a move S: P → P' chases iff
//! it adds a victim to `CH(P', S)` that `CH(P, S)` lacked, judged per form (C8, novelty). Comparing whole positions catches every way a move can
//! create a chase — the moved piece's own attacks, discovered lines, new cannon screens, cut protectors — with
//! no special case for any of them. Pieces are followed by their slots, which stay with them while they move.

use crate::board::{GenType, Position};
use crate::types::{Move, MoveList, Piece, PieceType, Square};
use std::fmt;

/// What a move does, for the repetition rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// 将: the move checks.
    Check,
    /// 杀: the move threatens mate by checks (a new threat).
    MateThreat,
    /// 捉: the move creates at least one new chase; the chased pieces with how.
    Chase(Vec<Chased>),
    /// 闲: anything else.
    Idle,
}

impl Label {
    pub fn chinese(&self) -> &'static str {
        match self {
            Label::Check => "将",
            Label::MateThreat => "杀",
            Label::Chase(_) => "捉",
            Label::Idle => "闲",
        }
    }

    pub fn english(&self) -> &'static str {
        match self {
            Label::Check => "check",
            Label::MateThreat => "mate threat",
            Label::Chase(_) => "chase",
            Label::Idle => "idle",
        }
    }

    /// The JSON word: `check`, `mate_threat`, `chase`, `idle`.
    pub fn key(&self) -> &'static str {
        match self {
            Label::Check => "check",
            Label::MateThreat => "mate_threat",
            Label::Chase(_) => "chase",
            Label::Idle => "idle",
        }
    }

    /// Whether the label is an attacking one (将, 杀 or 捉).
    pub fn is_attack(&self) -> bool {
        !matches!(self, Label::Idle)
    }
}

/// How a chased piece would be won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChaseKind {
    /// Nothing of the opponent's can recapture.
    Unprotected,
    /// Protectors exist, but none may legally recapture (pinned, flying general, …): 假根.
    FalseRoot,
    /// Protected, but worth more than the attacker (马/炮捉车, 士/象捉车马炮).
    HigherValue,
    /// Protected, but the exchange on its square still wins material: 少根.
    Outnumbered,
    /// Won through a series of checks, whatever the replies (抽将, 连续照将).
    ViaCheck,
}

impl ChaseKind {
    pub fn describe(self) -> &'static str {
        match self {
            ChaseKind::Unprotected => "unprotected",
            ChaseKind::FalseRoot => "falsely protected (its protector cannot legally recapture)",
            ChaseKind::HigherValue => "more valuable",
            ChaseKind::Outnumbered => "insufficiently protected",
            ChaseKind::ViaCheck => "won through checks",
        }
    }
}

/// One chased piece: the victim's and the attacker's slots and squares in the position where the chase holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chased {
    pub victim: u8,
    pub victim_square: Square,
    pub attacker: u8,
    pub attacker_square: Square,
    pub kind: ChaseKind,
}

impl fmt::Display for Chased {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |slot: u8| Position::slot_piece(slot).map_or("piece", |p| p.kind().name());
        if self.kind == ChaseKind::ViaCheck {
            write!(f, "checks win the {} on {}", name(self.victim), self.victim_square)
        } else {
            write!(
                f,
                "{} on {} attacks the {} {} on {}",
                name(self.attacker),
                self.attacker_square,
                self.kind.describe(),
                name(self.victim),
                self.victim_square
            )
        }
    }
}

/// How many consecutive checks a chase through checks may take (C1b, rules.md §2.5; 1999 §28.3 "从下一着开始运用
/// 连续照将", §29.1 "能够通过连续照将吃子": a series of checks, not one). Three is the spec's floor: it covers every
/// series in the rule texts and casebooks (two checks to drive the king, a third to fork), and each further check
/// multiplies the work by the checks times the replies of every line (only checking moves are expanded, and a
/// victim drops out as soon as one reply saves it); a longer forced series is a combination, not a chase.
pub const CHASE_CHECK_DEPTH: u32 = 3;

/// Depth limits and switches of the classification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassifyOptions {
    /// 杀: mate by checks within this many moves of the threatening side (rules.md §2.2, default 3; 0 = off).
    pub kill_depth: u32,
    /// C1(b): chases through a series of at most this many checks (0 = direct and exchange chases only;
    /// default [`CHASE_CHECK_DEPTH`]).
    pub chase_check_depth: u32,
    /// Count a pawn's own attacks as chases (only for the mutual-attack clause, §27.2 / 细则11).
    pub pawns_chase: bool,
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        ClassifyOptions { kill_depth: 3, chase_check_depth: CHASE_CHECK_DEPTH, pawns_chase: false }
    }
}

/// Value units of rules.md §2.3: only the sign of a balance is used.
fn value(kind: PieceType) -> i32 {
    match kind {
        PieceType::Rook => 4,
        PieceType::Horse | PieceType::Cannon => 2,
        PieceType::Advisor | PieceType::Elephant | PieceType::Pawn => 1,
        PieceType::King => 100,
    }
}

/// Material taken by one side in an exchange.
#[derive(Clone, Copy, Default, Debug)]
struct Taken {
    value: i32,
    pawns: u32,
    pieces: u32,
}

impl Taken {
    fn add(mut self, kind: PieceType) -> Taken {
        self.value += value(kind);
        if kind == PieceType::Pawn {
            self.pawns += 1;
        } else {
            self.pieces += 1;
        }
        self
    }
}

/// Whether S, having taken `s` and lost `o`, is ahead under §2.3: more value, except that pawns against pieces
/// never count as a gain either way; winning something for nothing always does.
fn ahead(s: Taken, o: Taken) -> bool {
    if s.value == 0 {
        return false;
    }
    if o.value == 0 {
        return true;
    }
    let pawns_only = |t: Taken| t.pieces == 0;
    let pieces_only = |t: Taken| t.pawns == 0;
    if (pawns_only(s) && pieces_only(o)) || (pieces_only(s) && pawns_only(o)) {
        return false;
    }
    s.value > o.value
}

fn kind_on(pos: &Position, sq: Square) -> PieceType {
    pos.piece_at(sq).map_or(PieceType::Pawn, |p| p.kind())
}

/// The side to move's least valuable legal capture onto `sq`.
fn cheapest_capture_onto(pos: &Position, sq: Square) -> Option<Move> {
    let mut caps = MoveList::new();
    pos.generate(GenType::Captures, &mut caps);
    caps.iter().copied().filter(|m| m.to() == sq).min_by_key(|m| value(kind_on(pos, m.from())))
}

/// Whether the side to move has a mate in one.
pub fn has_mate_in_one(pos: &mut Position) -> bool {
    for &m in pos.legal_moves().iter() {
        if pos.gives_check(m) {
            pos.make_move(m);
            let mate = !pos.has_legal_move();
            pos.unmake_move();
            if mate {
                return true;
            }
        }
    }
    false
}

/// O to move after an S capture on `sq`: does S end ahead? O may stop, recapture with its cheapest legal
/// capturer, or mate at once (C4: a capture answered by mate wins nothing).
fn exchange_o(pos: &mut Position, sq: Square, s: Taken, o: Taken, depth: u32) -> bool {
    if !ahead(s, o) || has_mate_in_one(pos) {
        return false;
    }
    let Some(r) = (depth < 32).then(|| cheapest_capture_onto(pos, sq)).flatten() else { return true };
    let taken = kind_on(pos, sq);
    pos.make_move(r);
    let result = exchange_s(pos, sq, s, o.add(taken), depth + 1);
    pos.unmake_move();
    result
}

/// S to move after an O recapture on `sq`: S may stop or capture again.
fn exchange_s(pos: &mut Position, sq: Square, s: Taken, o: Taken, depth: u32) -> bool {
    if ahead(s, o) {
        return true;
    }
    let Some(c) = (depth < 32).then(|| cheapest_capture_onto(pos, sq)).flatten() else { return false };
    let taken = kind_on(pos, sq);
    pos.make_move(c);
    let result = exchange_o(pos, sq, s.add(taken), o, depth + 1);
    pos.unmake_move();
    result
}

/// Whether the capture `c` (side to move = S) wins material once the exchange on its square is played out,
/// S having already `lost` material earlier in the line (what O took while answering checks, C1b).
fn capture_gains(pos: &mut Position, c: Move, lost: Taken) -> bool {
    let taken = kind_on(pos, c.to());
    pos.make_move(c);
    let result = exchange_o(pos, c.to(), Taken::default().add(taken), lost, 0);
    pos.unmake_move();
    result
}

/// Why a winning capture wins, for the explanation (the capture must already be known to gain).
fn chase_kind(pos: &mut Position, c: Move) -> ChaseKind {
    let (a, v) = (kind_on(pos, c.from()), kind_on(pos, c.to()));
    pos.make_move(c);
    let recapture = cheapest_capture_onto(pos, c.to());
    let protectors = !(pos.attackers_to(c.to(), pos.occupancy()) & pos.pieces_of(pos.side_to_move())).is_empty();
    pos.unmake_move();
    match recapture {
        None if protectors => ChaseKind::FalseRoot,
        None => ChaseKind::Unprotected,
        Some(_) if value(v) > value(a) => ChaseKind::HigherValue,
        Some(_) => ChaseKind::Outnumbered,
    }
}

/// Whether a piece counts as material (子力, §2.3): not a king, and a pawn only once across the river.
fn is_material(piece: Piece, sq: Square) -> bool {
    match piece.kind() {
        PieceType::King => false,
        PieceType::Pawn => !piece.color().own_half(sq.rank()),
        _ => true,
    }
}

/// The victims a computation still asks about (`None`: all of them).
type Wanted<'a> = Option<&'a [u8]>;

fn wanted(w: Wanted, victim: u8) -> bool {
    w.is_none_or(|w| w.contains(&victim))
}

/// Direct and exchange chases (C1a, C1c with C2–C6) of the side to move, after it has `lost` material earlier
/// in the line (nothing for a direct chase); only victims in `only` are looked at.
fn direct_chases(pos: &mut Position, opts: &ClassifyOptions, lost: Taken, only: Wanted) -> Vec<Chased> {
    let mut caps = MoveList::new();
    pos.generate(GenType::Captures, &mut caps);
    let mut found: Vec<Chased> = Vec::new();
    for &c in caps.iter() {
        if !wanted(only, pos.slot_at(c.to())) {
            continue;
        }
        let (Some(a), Some(v)) = (pos.piece_at(c.from()), pos.piece_at(c.to())) else { continue };
        // C6: the king itself never chases; a pawn only under the mutual-attack clause.
        if a.kind() == PieceType::King || (a.kind() == PieceType::Pawn && !opts.pawns_chase) {
            continue;
        }
        // C2: only material can be chased.
        if !is_material(v, c.to()) {
            continue;
        }
        // C3 and C4, over the whole exchange.
        if !capture_gains(pos, c, lost) {
            continue;
        }
        let kind = chase_kind(pos, c);
        found.push(Chased {
            victim: pos.slot_at(c.to()),
            victim_square: c.to(),
            attacker: pos.slot_at(c.from()),
            attacker_square: c.from(),
            kind,
        });
    }
    // C5: a victim attacked only by pieces of its own kind that it can take back at once is offered an exchange.
    pos.flip_side();
    let offers: Vec<u8> = found
        .iter()
        .map(|ch| ch.victim)
        .filter(|&v| {
            found.iter().filter(|ch| ch.victim == v).all(|ch| {
                Position::slot_piece(ch.attacker).map(|p| p.kind()) == Position::slot_piece(v).map(|p| p.kind())
                    && pos.is_legal(Move::new(ch.victim_square, ch.attacker_square))
            })
        })
        .collect();
    pos.flip_side();
    found.retain(|ch| !offers.contains(&ch.victim));
    found
}

/// Chases through checks (C1b): after some check, every reply leaves the victim winnable — directly, or through
/// a further check while `depth` allows (S checks at every move of the series until the capture; every legal
/// reply of O's is tried) — and the line as a whole wins material: what O captures in its replies (the checking
/// piece, say) counts against S, on top of what S had `lost` before (rules.md §2.5).
/// Only victims in `only` are looked at; after the first reply to a check, only those that every reply so far
/// leaves winnable, and a further check is searched only for the victims a reply does not leave winnable directly.
fn chases_via_checks(pos: &mut Position, opts: &ClassifyOptions, depth: u32, lost: Taken, only: Wanted) -> Vec<Chased> {
    let mut found: Vec<Chased> = Vec::new();
    if depth == 0 || only.is_some_and(|w| w.is_empty()) {
        return found;
    }
    for &c in pos.legal_moves().iter() {
        if !pos.gives_check(c) {
            continue;
        }
        pos.make_move(c);
        let replies = pos.legal_moves();
        let mut common: Option<Vec<u8>> = None;
        for &r in replies.iter() {
            let lost = if pos.is_capture(r) { lost.add(kind_on(pos, r.to())) } else { lost };
            let asked: Wanted = common.as_deref().or(only);
            pos.make_move(r);
            let mut ids: Vec<u8> = direct_chases(pos, opts, lost, asked).iter().map(|ch| ch.victim).collect();
            if depth > 1 {
                let rest: Option<Vec<u8>> = asked.map(|w| w.iter().copied().filter(|v| !ids.contains(v)).collect());
                let further = chases_via_checks(pos, opts, depth - 1, lost, rest.as_deref());
                ids.extend(further.iter().map(|ch| ch.victim));
            }
            pos.unmake_move();
            common = Some(match common {
                None => ids,
                Some(prev) => prev.into_iter().filter(|v| ids.contains(v)).collect(),
            });
            if common.as_ref().is_some_and(|c| c.is_empty()) {
                break;
            }
        }
        pos.unmake_move();
        // A mating check chases nothing (it is a mate threat, judged before).
        if replies.is_empty() {
            continue;
        }
        for victim in common.unwrap_or_default() {
            if found.iter().all(|ch| ch.victim != victim) {
                if let Some(sq) = pos.slot_square(victim) {
                    found.push(Chased {
                        victim,
                        victim_square: sq,
                        attacker: pos.slot_at(c.from()),
                        attacker_square: c.from(),
                        kind: ChaseKind::ViaCheck,
                    });
                }
            }
        }
    }
    found
}

/// `CH(pos, S)` for S = the side to move: every opponent piece S could win (C1–C7), one entry per victim.
pub fn chase_set(pos: &mut Position, opts: &ClassifyOptions) -> Vec<Chased> {
    chase_set_of(pos, opts, None)
}

/// [`chase_set`] restricted to the victims in `only`.
fn chase_set_of(pos: &mut Position, opts: &ClassifyOptions, only: Wanted) -> Vec<Chased> {
    let mut set = direct_chases(pos, opts, Taken::default(), only);
    for ch in chases_via_checks(pos, opts, opts.chase_check_depth, Taken::default(), only) {
        if set.iter().all(|c| c.victim != ch.victim) {
            set.push(ch);
        }
    }
    set
}

/// Whether the side to move can force mate with checks only, within `depth` of its own moves (rules.md §2.2).
pub fn mate_by_checks(pos: &mut Position, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    for &m in pos.legal_moves().iter() {
        if !pos.gives_check(m) {
            continue;
        }
        pos.make_move(m);
        let replies = pos.legal_moves();
        let forced = replies.is_empty()
            || (depth > 1
                && replies.iter().all(|&r| {
                    pos.make_move(r);
                    let mate = mate_by_checks(pos, depth - 1);
                    pos.unmake_move();
                    mate
                }));
        pos.unmake_move();
        if forced {
            return true;
        }
    }
    false
}

/// Classifies the legal move `m` of the side to move (position restored on return).
pub fn classify(pos: &mut Position, m: Move, opts: &ClassifyOptions) -> Label {
    pos.make_move(m);
    if pos.in_check() {
        pos.unmake_move();
        return Label::Check;
    }
    // 杀: after the move, if the opponent passed, could the mover mate by checks? Only a new threat counts.
    if opts.kill_depth > 0 {
        pos.make_null_move();
        let threat = mate_by_checks(pos, opts.kill_depth);
        pos.unmake_null_move();
        if threat {
            pos.unmake_move();
            let before = mate_by_checks(pos, opts.kill_depth);
            pos.make_move(m);
            if !before {
                pos.unmake_move();
                return Label::MateThreat;
            }
        }
    }
    // 捉: chases after the move that did not exist before it, judged per form (rules.md §2.5, C8): a victim
    // won directly (or by exchange) is new unless it was won directly before; a victim won only through a
    // check is new unless it was won in either way before. So a direct attack is new even where a win through
    // a check existed (C29).
    pos.flip_side();
    let after = chase_set(pos, opts);
    pos.flip_side();
    pos.unmake_move();
    if after.is_empty() {
        return Label::Idle;
    }
    // Only the victims chased after the move matter before it.
    let victims: Vec<u8> = after.iter().map(|a| a.victim).collect();
    let before = chase_set_of(pos, opts, Some(&victims));
    let had = |v: u8, direct_only: bool| {
        before.iter().any(|b| b.victim == v && !(direct_only && b.kind == ChaseKind::ViaCheck))
    };
    let new: Vec<Chased> = after.into_iter().filter(|a| !had(a.victim, a.kind != ChaseKind::ViaCheck)).collect();
    if new.is_empty() {
        Label::Idle
    } else {
        Label::Chase(new)
    }
}
