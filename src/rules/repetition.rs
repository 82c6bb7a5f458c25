//! Repeated positions (rules.md §3): finding them, labelling the cycle, each side's category, the verdict.

use super::classify::{classify, ClassifyOptions, Label};
use super::{RuleSet, Rules};
use crate::board::Position;
use crate::types::{Color, Move};

/// What one side did throughout a cycle (rules.md §3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// 允许: at least one idle move (数将一闲, 长兑, 长拦, 长闲 …), or in Asian rules anything but the two below.
    Allowed,
    /// 禁止: 长杀, 长捉, 一将一捉, 一将一杀 … (Asian rules: every move chases one same piece).
    Forbidden,
    /// 长将: every move checks.
    PerpetualCheck,
}

impl Category {
    pub fn chinese(self) -> &'static str {
        match self {
            Category::Allowed => "允许",
            Category::Forbidden => "禁止",
            Category::PerpetualCheck => "长将",
        }
    }

    pub fn english(self) -> &'static str {
        match self {
            Category::Allowed => "allowed",
            Category::Forbidden => "forbidden",
            Category::PerpetualCheck => "perpetual check",
        }
    }

    /// JSON word.
    pub fn key(self) -> &'static str {
        match self {
            Category::Allowed => "allowed",
            Category::Forbidden => "forbidden",
            Category::PerpetualCheck => "perpetual_check",
        }
    }
}

/// One move of a cycle with its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabeledMove {
    /// Ply of the position after the move (the first move of a game is ply 1).
    pub ply: usize,
    pub mv: Move,
    pub side: Color,
    pub label: Label,
}

/// Plies `p ≤ now` within the reversible window whose position equals the current one, oldest first.
/// The window ends at the last capture and at the last null move; `now` is included.
pub fn occurrences(pos: &Position) -> Vec<usize> {
    let now = pos.ply();
    let key = pos.key();
    let mut out: Vec<usize> =
        (pos.repetition_window_start()..=now).rev().step_by(2).filter(|&p| pos.key_at(p) == key).collect();
    out.reverse();
    out
}

/// The latest earlier ply with the current position (within the reversible window), if any. Cheap when there is
/// none: a counting filter over the history's keys answers most calls without a scan.
pub fn previous_occurrence(pos: &Position) -> Option<usize> {
    if !pos.may_repeat() {
        return None;
    }
    let now = pos.ply();
    let key = pos.key();
    (pos.repetition_window_start()..now.saturating_sub(3)).rev().step_by(2).find(|&p| pos.key_at(p) == key)
}

/// Labels the moves that led from ply `from` to the current ply. `pawns_chase` says for each side whether
/// its pawns' attacks count (the mutual-attack clause).
pub fn cycle_labels(pos: &Position, from: usize, opts: &ClassifyOptions, pawns_chase: [bool; 2]) -> Vec<LabeledMove> {
    label_until(pos, from, opts, pawns_chase, |_| false)
}

/// As [`cycle_labels`], but stops after the first move for which `enough` says true (labelling is the costly
/// part of a judgement: chase sets and mate searches).
fn label_until(
    pos: &Position,
    from: usize,
    opts: &ClassifyOptions,
    pawns_chase: [bool; 2],
    mut enough: impl FnMut(&LabeledMove) -> bool,
) -> Vec<LabeledMove> {
    let now = pos.ply();
    let mut p = pos.clone();
    for _ in from..now {
        p.unmake_any();
    }
    let mut out = Vec::with_capacity(now - from);
    for ply in from + 1..=now {
        let m = pos.move_at(ply);
        let side = p.side_to_move();
        let o = ClassifyOptions { pawns_chase: pawns_chase[side.index()], ..*opts };
        let label = classify(&mut p, m, &o);
        out.push(LabeledMove { ply, mv: m, side, label });
        if enough(out.last().expect("just pushed")) {
            break;
        }
        p.make_move(m);
    }
    out
}

/// A side's category from its labels in one cycle.
pub fn category(labels: &[&Label], set: RuleSet) -> Category {
    if !labels.is_empty() && labels.iter().all(|l| **l == Label::Check) {
        return Category::PerpetualCheck;
    }
    let forbidden = match set {
        RuleSet::Chinese => !labels.is_empty() && labels.iter().all(|l| l.is_attack()),
        RuleSet::Asian => {
            // Every move chases, and one same piece is chased by all of them.
            let mut common: Option<Vec<u8>> = None;
            for l in labels {
                let Label::Chase(v) = l else { return Category::Allowed };
                let ids: Vec<u8> = v.iter().map(|c| c.victim).collect();
                common = Some(match common {
                    None => ids,
                    Some(prev) => prev.into_iter().filter(|x| ids.contains(x)).collect(),
                });
            }
            common.is_some_and(|c| !c.is_empty())
        }
    };
    if forbidden {
        Category::Forbidden
    } else {
        Category::Allowed
    }
}

/// The judged cycle: labels and both sides' categories.
#[derive(Clone, Debug)]
pub struct CycleJudgement {
    pub from: usize,
    pub moves: Vec<LabeledMove>,
    /// Indexed by `Color`.
    pub categories: [Category; 2],
    /// Whether the mutual-attack clause changed a side's labels by counting its pawns' attacks.
    pub pawns_counted: [bool; 2],
}

fn categories_of(moves: &[LabeledMove], set: RuleSet) -> [Category; 2] {
    Color::ALL.map(|c| {
        let labels: Vec<&Label> = moves.iter().filter(|m| m.side == c).map(|m| &m.label).collect();
        category(&labels, set)
    })
}

/// Labels and categorises the cycle from ply `from` to now, with the pawn clause of §27.2 / 细则11 in Chinese
/// rules: a side whose opponent attacks throughout has its pawns' attacks counted too.
pub fn judge_cycle(pos: &Position, from: usize, rules: &Rules) -> CycleJudgement {
    let moves = cycle_labels(pos, from, &rules.classify_options(), [false; 2]);
    judge_labelled(pos, from, rules, moves)
}

/// The rest of [`judge_cycle`], once the cycle's moves are labelled without the pawn clause.
fn judge_labelled(pos: &Position, from: usize, rules: &Rules, mut moves: Vec<LabeledMove>) -> CycleJudgement {
    let mut cats = categories_of(&moves, rules.set);
    let mut pawns = [false; 2];
    if rules.set == RuleSet::Chinese {
        let wanted =
            Color::ALL.map(|c| cats[(!c).index()] != Category::Allowed && cats[c.index()] == Category::Allowed);
        if wanted.iter().any(|&w| w) {
            let relabeled = cycle_labels(pos, from, &rules.classify_options(), wanted);
            for c in Color::ALL {
                pawns[c.index()] =
                    wanted[c.index()] && relabeled.iter().zip(&moves).any(|(a, b)| a.side == c && a.label != b.label);
            }
            moves = relabeled;
            cats = categories_of(&moves, rules.set);
        }
    }
    CycleJudgement { from, moves, categories: cats, pawns_counted: pawns }
}

/// The verdict table (rules.md §3.4): `Some(color)` of the side that loses, `None` for a draw.
pub fn loser(categories: [Category; 2]) -> Option<Color> {
    use Category::*;
    match (categories[0], categories[1]) {
        (PerpetualCheck, PerpetualCheck) => None,
        (PerpetualCheck, _) => Some(Color::Red),
        (_, PerpetualCheck) => Some(Color::Black),
        (Forbidden, Allowed) => Some(Color::Red),
        (Allowed, Forbidden) => Some(Color::Black),
        _ => None,
    }
}

/// The outcome of a repetition for the side to move, as the search needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Draw,
    /// The side to move wins (the opponent is the offender).
    Win,
    /// The side to move loses.
    Loss,
}

/// Judges the cycle that closes at the current position, back to its previous occurrence at ply `from`, for
/// the side to move. This is the call the search makes once [`previous_occurrence`] has found a repetition.
pub fn judge_for_side_to_move(pos: &Position, from: usize, rules: &Rules) -> Outcome {
    let us = pos.side_to_move();
    let outcome_if_loser = |loser: Color| if loser == us { Outcome::Loss } else { Outcome::Win };
    // A checking move is labelled 将 whatever else it does, and a side that checks throughout loses unless the
    // other does too, whatever the other's labels: the positions' check flags alone decide such cycles.
    let now = pos.ply();
    let mut all_check = [true; 2];
    for ply in from + 1..=now {
        let mover = if (now - ply).is_multiple_of(2) { !us } else { us };
        all_check[mover.index()] &= pos.state_at(ply).in_check;
    }
    match all_check {
        [true, true] => return Outcome::Draw,
        [true, false] => return outcome_if_loser(Color::Red),
        [false, true] => return outcome_if_loser(Color::Black),
        [false, false] => {}
    }
    // Once each side has made an idle move, both are allowed under either rule set, the pawn clause (which
    // only helps a side whose opponent is not allowed) does not apply, and the cycle is a draw: the remaining
    // moves need no labels. Most repetitions inside the search are such shuffles.
    let mut idle = [false; 2];
    let moves = label_until(pos, from, &rules.classify_options(), [false; 2], |m| {
        idle[m.side.index()] |= m.label == Label::Idle;
        idle == [true; 2]
    });
    if idle == [true; 2] {
        return Outcome::Draw;
    }
    match loser(judge_labelled(pos, from, rules, moves).categories) {
        None => Outcome::Draw,
        Some(c) => outcome_if_loser(c),
    }
}
