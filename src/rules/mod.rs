//! The referee: how a game ends under the Chinese rules (棋例), with a switch for the Asian (AXF) reading.
//!
//! Read `docs/rules.md` for the rules this implements and the clause numbers quoted here. A game is a
//! [`Position`] with its move history (set up from a FEN, then played on); [`game_state`] judges its current
//! position, [`judge_game`] plays a move list through and stops at the first ending.
//!
//! Order of the tests at each ply: no legal move (mate or stalemate: the side to move loses), then a repeated
//! position (verdict at the N-th occurrence), then the natural move limit, then insufficient material.

pub mod classify;
pub mod repetition;

use crate::board::Position;
use crate::types::{Color, Move, PieceType};
use classify::ClassifyOptions;
use repetition::{judge_cycle, judge_for_side_to_move, loser, occurrences, Category, CycleJudgement, Outcome};
use std::fmt;
use std::str::FromStr;

/// Which reading of the repetition rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSet {
    /// The Chinese competition rules (1999/2011): 长将, 长杀, 长捉 and their mixtures are all forbidden.
    Chinese,
    /// The Asian (AXF/WXF) rules: perpetual check and perpetual chase of one same piece are forbidden;
    /// mate threats and one-check-one-chase are allowed.
    Asian,
}

impl RuleSet {
    pub const ALL: [RuleSet; 2] = [RuleSet::Chinese, RuleSet::Asian];

    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Chinese => "chinese",
            RuleSet::Asian => "asian",
        }
    }
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<RuleSet, String> {
        match s.to_ascii_lowercase().as_str() {
            "chinese" | "cxa" | "china" => Ok(RuleSet::Chinese),
            "asian" | "axf" | "wxf" => Ok(RuleSet::Asian),
            _ => Err(format!("'{s}' is not a rule set (chinese or asian)")),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The referee's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub set: RuleSet,
    /// A repetition is judged when the position occurs for this many times (default 3, at least 2).
    pub repetitions: u32,
    /// Plies without a capture that draw (default 120 = 60 rounds; 0 = no limit).
    pub natural_limit: u32,
    /// Checks each side may count towards the natural limit (default 10, rules.md §5.1).
    pub counted_checks: u32,
    /// 杀 search depth in the threatening side's moves (default 3; 0 disables 杀).
    pub kill_depth: u32,
    /// Chases through a series of checks (抽将, 连续照将): how many checks at most (default
    /// `classify::CHASE_CHECK_DEPTH`, 3).
    pub chase_check_depth: u32,
    /// Extra cycles granted before a forbidden-against-allowed verdict (rules.md §3.1; default 0). 长将 is
    /// always judged at once.
    pub grace_cycles: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            set: RuleSet::Chinese,
            repetitions: 3,
            natural_limit: 120,
            counted_checks: 10,
            kill_depth: 3,
            chase_check_depth: classify::CHASE_CHECK_DEPTH,
            grace_cycles: 0,
        }
    }
}

impl Rules {
    pub fn with_set(set: RuleSet) -> Rules {
        Rules { set, ..Rules::default() }
    }

    pub fn classify_options(&self) -> ClassifyOptions {
        ClassifyOptions {
            kill_depth: if self.set == RuleSet::Asian { 0 } else { self.kill_depth },
            chase_check_depth: self.chase_check_depth,
            pawns_chase: false,
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
    Ongoing,
}

impl GameResult {
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// JSON word.
    pub fn key(self) -> &'static str {
        match self {
            GameResult::RedWins => "red_wins",
            GameResult::BlackWins => "black_wins",
            GameResult::Draw => "draw",
            GameResult::Ongoing => "ongoing",
        }
    }

    /// PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Ongoing => "*",
        }
    }

    /// A finished game's PGN result token (`1-0`, `0-1`, `1/2-1/2` or `½-½`); `*` and anything else: none.
    pub fn from_pgn(token: &str) -> Option<GameResult> {
        match token.trim() {
            "1-0" => Some(GameResult::RedWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            _ => None,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            GameResult::RedWins => "red wins",
            GameResult::BlackWins => "black wins",
            GameResult::Draw => "draw",
            GameResult::Ongoing => "game continues",
        }
    }
}

/// Why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Stalemate,
    PerpetualCheck,
    ForbiddenRepetition,
    RepetitionDraw,
    NaturalLimit,
    InsufficientMaterial,
    /// The game goes on.
    Unfinished,
}

impl Reason {
    /// JSON word.
    pub fn key(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::ForbiddenRepetition => "forbidden_repetition",
            Reason::RepetitionDraw => "repetition_draw",
            Reason::NaturalLimit => "natural_limit",
            Reason::InsufficientMaterial => "insufficient_material",
            Reason::Unfinished => "ongoing",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate (将死)",
            Reason::Stalemate => "stalemate (困毙): the side with no legal move loses",
            Reason::PerpetualCheck => "perpetual check (长将)",
            Reason::ForbiddenRepetition => "forbidden repetition (禁止着法)",
            Reason::RepetitionDraw => "repetition, draw (不变作和)",
            Reason::NaturalLimit => "natural move limit (自然限着)",
            Reason::InsufficientMaterial => "neither side can win (双方均无取胜可能)",
            Reason::Unfinished => "no ending",
        }
    }

    /// The rule clause applied (1999 rules for the Chinese set, the AXF rules for the Asian one).
    pub fn clause(self, set: RuleSet) -> &'static str {
        match (self, set) {
            (Reason::Checkmate, _) => "1999 §3.1, §4.1.1",
            (Reason::Stalemate, _) => "1999 §3.2, §4.1.3",
            (Reason::PerpetualCheck, RuleSet::Chinese) => "1999 §24.1, §26.1 (一方长将，判负)",
            (Reason::PerpetualCheck, RuleSet::Asian) => "AXF rule 6 (perpetual check is forbidden)",
            (Reason::ForbiddenRepetition, RuleSet::Chinese) => {
                "1999 §25.2, §26.4 (一方禁止着法、一方允许着法，禁止方变着，不变作负)"
            }
            (Reason::ForbiddenRepetition, RuleSet::Asian) => "AXF rules 3, 32 (perpetual chase is forbidden)",
            (Reason::RepetitionDraw, RuleSet::Chinese) => "1999 §26.2, §26.3 (双方均为允许或均为禁止着法，不变作和)",
            (Reason::RepetitionDraw, RuleSet::Asian) => "AXF rules 7, 9, 12 (allowed repetition: draw)",
            (Reason::NaturalLimit, _) => "1999 §4.2.4, §23.3 (60 rounds without a capture; at most 10 checks counted)",
            (Reason::InsufficientMaterial, _) => "1999 §4.2.1",
            (Reason::Unfinished, _) => "",
        }
    }
}

/// The repetition behind a verdict.
#[derive(Clone, Debug)]
pub struct RepetitionReport {
    /// Plies at which the repeated position stood, oldest first (the current ply last).
    pub occurrences: Vec<usize>,
    /// The last cycle, judged.
    pub cycle: CycleJudgement,
    /// Each side's category over all the cycles (the most lenient of its cycles).
    pub categories: [Category; 2],
}

/// The state of a game at one ply.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub result: GameResult,
    pub reason: Reason,
    /// The ply judged (moves played since the start position).
    pub ply: usize,
    pub repetition: Option<RepetitionReport>,
}

impl Verdict {
    fn new(result: GameResult, reason: Reason, ply: usize) -> Verdict {
        Verdict { result, reason, ply, repetition: None }
    }

    pub fn is_over(&self) -> bool {
        self.result != GameResult::Ongoing
    }
}

/// Counts plies towards the natural limit from `initial`, given for each ply since the last capture whether
/// it checked; the first mover is `first`. A side's checks beyond `counted_checks`, and the replies to them,
/// are not counted (rules.md §5.1, applied to both sides alike; test N10).
pub fn count_limit_plies(
    initial: u32,
    first: Color,
    checks: impl IntoIterator<Item = bool>,
    counted_checks: u32,
) -> u32 {
    let mut count = initial;
    let mut made = [0u32; 2];
    let mut skip_reply = false;
    let mut mover = first;
    for gave_check in checks {
        if gave_check {
            made[mover.index()] += 1;
        }
        if gave_check && made[mover.index()] > counted_checks {
            skip_reply = true;
        } else if skip_reply {
            skip_reply = false;
        } else {
            count += 1;
        }
        mover = !mover;
    }
    count
}

/// The plies since the last capture that count towards the natural limit (see [`count_limit_plies`]).
pub fn natural_limit_count(pos: &Position, counted_checks: u32) -> u32 {
    let now = pos.ply();
    let start = (1..=now).rev().find(|&p| pos.state_at(p).captured != 0).unwrap_or(0);
    let initial = if start == 0 { pos.state_at(0).rule60 as u32 } else { 0 };
    let first = if (now - start).is_multiple_of(2) { pos.side_to_move() } else { !pos.side_to_move() };
    count_limit_plies(initial, first, (start + 1..=now).map(|p| pos.state_at(p).in_check), counted_checks)
}

/// Whether neither side can possibly win (rules.md §5.2): only certain draws, never a false one.
pub fn insufficient_material(pos: &Position) -> bool {
    use PieceType::*;
    let n = |c: Color, k: PieceType| pos.count(c, k);
    if n(Color::Red, Pawn) + n(Color::Black, Pawn) > 0 {
        return false;
    }
    let attackers = |c: Color| n(c, Rook) + n(c, Horse) + n(c, Cannon);
    let (ra, ba) = (attackers(Color::Red), attackers(Color::Black));
    if ra + ba == 0 {
        return true;
    }
    // One lone cannon on the board, and too few advisors/elephants to screen it.
    for (c, o) in [(Color::Red, Color::Black), (Color::Black, Color::Red)] {
        if attackers(c) == 1 && n(c, Cannon) == 1 && attackers(o) == 0 && n(c, Advisor) == 0 {
            let defender_advisors = n(o, Advisor);
            if defender_advisors == 0 || (defender_advisors == 1 && n(c, Elephant) == 0) {
                return true;
            }
        }
    }
    // One cannon each, nothing else at all.
    ra == 1
        && ba == 1
        && n(Color::Red, Cannon) == 1
        && n(Color::Black, Cannon) == 1
        && Color::ALL.iter().all(|&c| n(c, Advisor) + n(c, Elephant) == 0)
}

/// Each side's category over the cycles between the consecutive occurrences `last` (plies, oldest first, the
/// current ply last): the mildest it has in any of them, since a side is held to a forbidden category only if
/// every cycle shows it (rules.md §3.2). Also returns the last cycle's judgement when it was judged afresh.
fn combined_categories(pos: &Position, rules: &Rules, last: &[usize]) -> ([Category; 2], Option<CycleJudgement>) {
    // Identical move sequences need judging once.
    let mut categories = [Category::PerpetualCheck; 2];
    let mut judged: Vec<(Vec<Move>, [Category; 2])> = Vec::new();
    let mut last_cycle = None;
    for w in last.windows(2) {
        let moves: Vec<Move> = (w[0] + 1..=w[1]).map(|p| pos.move_at(p)).collect();
        let cats = match judged.iter().find(|(m, _)| *m == moves) {
            Some((_, c)) => *c,
            None => {
                let mut at = pos.clone();
                for _ in w[1]..pos.ply() {
                    at.unmake_any();
                }
                let j = judge_cycle(&at, w[0], rules);
                let c = j.categories;
                judged.push((moves, c));
                last_cycle = Some(j);
                c
            }
        };
        for c in Color::ALL {
            categories[c.index()] = categories[c.index()].min(cats[c.index()]);
        }
    }
    (categories, last_cycle)
}

/// The repetition outcome for the side to move at a repetition that ends the game, judged as the referee judges
/// it: over every cycle between the counted occurrences `last` (plies, oldest first, the current ply last; the
/// last `rules.repetitions` of [`occurrences`]). The search calls this once it has counted them.
pub fn final_repetition_outcome(pos: &Position, rules: &Rules, last: &[usize]) -> Outcome {
    if last.len() == 2 {
        return judge_for_side_to_move(pos, last[0], rules);
    }
    let (categories, _) = combined_categories(pos, rules, last);
    match loser(categories) {
        None => Outcome::Draw,
        Some(l) if l == pos.side_to_move() => Outcome::Loss,
        Some(_) => Outcome::Win,
    }
}

/// Judges the repetition at the current ply, if the position has occurred often enough.
fn repetition_verdict(pos: &Position, rules: &Rules) -> Option<Verdict> {
    let occ = occurrences(pos);
    let needed = rules.repetitions.max(2) as usize;
    if occ.len() < needed {
        return None;
    }
    let last = &occ[occ.len() - needed..];
    let (categories, last_cycle) = combined_categories(pos, rules, last);
    // The last cycle's labels for the report (judge it if an identical earlier cycle was reused).
    let cycle = match last_cycle {
        Some(j) if j.from == last[last.len() - 2] => j,
        _ => judge_cycle(pos, last[last.len() - 2], rules),
    };
    let now = pos.ply();
    let report = |categories| RepetitionReport { occurrences: occ.clone(), cycle: cycle.clone(), categories };
    let (result, reason) = match loser(categories) {
        None => (GameResult::Draw, Reason::RepetitionDraw),
        Some(l) => {
            let check = categories[l.index()] == Category::PerpetualCheck;
            if !check && occ.len() < needed + rules.grace_cycles as usize {
                return None;
            }
            (GameResult::win_for(!l), if check { Reason::PerpetualCheck } else { Reason::ForbiddenRepetition })
        }
    };
    Some(Verdict { result, reason, ply: now, repetition: Some(report(categories)) })
}

/// The state of the game at its current position.
pub fn game_state(pos: &Position, rules: &Rules) -> Verdict {
    let ply = pos.ply();
    if !pos.has_legal_move() {
        let reason = if pos.in_check() { Reason::Checkmate } else { Reason::Stalemate };
        return Verdict::new(GameResult::win_for(!pos.side_to_move()), reason, ply);
    }
    if let Some(v) = repetition_verdict(pos, rules) {
        return v;
    }
    if rules.natural_limit > 0 && natural_limit_count(pos, rules.counted_checks) >= rules.natural_limit {
        return Verdict::new(GameResult::Draw, Reason::NaturalLimit, ply);
    }
    if insufficient_material(pos) {
        return Verdict::new(GameResult::Draw, Reason::InsufficientMaterial, ply);
    }
    Verdict::new(GameResult::Ongoing, Reason::Unfinished, ply)
}

/// A move list that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 1-based index in the list.
    pub index: usize,
    pub text: String,
    pub message: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ('{}'): {}", self.index, self.text, self.message)
    }
}

/// A judged game: the position where it ended (or the last one), the verdict, and how many moves of the
/// list came after the end.
pub struct Judged {
    pub position: Position,
    pub verdict: Verdict,
    pub ignored_moves: usize,
}

/// Plays `moves` (any notation) from `start` and judges each position; stops at the first ending.
pub fn judge_game(start: &Position, moves: &[&str], rules: &Rules) -> Result<Judged, IllegalMove> {
    let mut pos = start.clone();
    let mut verdict = game_state(&pos, rules);
    let mut played = 0;
    for (i, text) in moves.iter().enumerate() {
        if verdict.is_over() {
            break;
        }
        let m = crate::notation::parse_move(&pos, text).map_err(|e| IllegalMove {
            index: i + 1,
            text: text.to_string(),
            message: e.to_string(),
        })?;
        pos.make_move(m);
        played += 1;
        verdict = game_state(&pos, rules);
    }
    Ok(Judged { position: pos, verdict, ignored_moves: moves.len() - played })
}
