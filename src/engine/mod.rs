//! The engine layer: what the protocol commands mean, whichever protocol carries them (UCCI, UCI, CECP).
//!
//! The protocol modules parse and print. This module keeps the game (position, banned moves), the options and
//! the search's shared state; it decides what a `go` asks for — the limits and settings, a book move, the
//! strength and the variety applied — and what the search's answer becomes: the line a weaker level or
//! `Randomness` picks, a draw offer accepted, a resignation. Nothing here reads input or starts a thread
//! (a [`Job`] runs the search on the caller's thread), so it is tested directly.

use crate::board::Position;
use crate::book::{Book, BookMove};
pub mod options;

use crate::rules::Rules;
use crate::search::time::{self, Clock};
use crate::search::{self, Info, Limits, Listener, SearchResult, Settings, Shared};
use crate::strength::Strength;
use crate::tt::Bound;
use crate::types::{Color, Move};
use options::{Change, Options};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

/// Score at or below which a position is hopeless for `resign` (about a rook and a horse down).
pub const RESIGN_SCORE: i32 = -1500;

/// A `go` in the engine's terms: times in milliseconds, moves already read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    /// Think on the opponent's time (time limits wait for `ponderhit`).
    pub ponder: bool,
    /// The opponent offers a draw.
    pub draw_offer: bool,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<i32>,
    /// A fixed time for this move.
    pub movetime: Option<u64>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    pub infinite: bool,
    /// If not empty, the only root moves to consider.
    pub only: Vec<Move>,
}

/// What a `go` becomes.
pub enum Plan {
    /// Play from the book at once: the moves the book offers (for the report), the one chosen, and the book's
    /// heaviest reply to it (the ponder move).
    Book {
        moves: Vec<BookMove>,
        choice: Move,
        ponder: Option<Move>,
    },
    Search(Box<Job>),
}

/// One search to run and how its result becomes the move played.
#[derive(Clone, Debug)]
pub struct Job {
    pub pos: Position,
    pub limits: Limits,
    pub settings: Settings,
    /// The search starts pondering.
    pub ponder: bool,
    /// Infinite or pondering: it ends only when told.
    pub open_ended: bool,
    /// Lines shown to the GUI (the `MultiPV` option); the search may score more for the line choice.
    pub shown: usize,
    strength: Strength,
    /// `Randomness`'s margin in the evaluation's internal units (0: none).
    margin: i32,
    /// The highest score at which an offered draw is accepted (the `Style` option).
    draw_accept: i32,
    /// Resign if this search finds the position hopeless too (`resign` on, two hopeless searches before).
    may_resign: bool,
}

/// The search's result as it is to be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// `None`: no legal move (mated or stalemated).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub accept_draw: bool,
    pub resign: bool,
}

/// Passes every report on to the protocol's listener and keeps the last one of every line, for the choice
/// of a weaker level or `Randomness`.
struct Recorder<'a> {
    inner: &'a dyn Listener,
    lines: Mutex<Vec<Info>>,
}

impl Listener for Recorder<'_> {
    fn info(&self, i: &Info) {
        {
            let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
            if lines.len() < i.multipv {
                lines.resize(i.multipv, i.clone());
            }
            lines[i.multipv - 1] = i.clone();
        }
        self.inner.info(i);
    }

    fn currmove(&self, depth: i32, m: Move, number: usize) {
        self.inner.currmove(depth, m, number);
    }
}

impl Job {
    /// Runs the search on this thread (its helper threads are the `Threads` option's) and picks the move to
    /// play; `random` drives the choice of a weaker level or `Randomness`.
    pub fn run(&self, shared: &Shared, listener: &dyn Listener, random: u64) -> SearchResult {
        let (mut result, lines) = self.search(shared, listener);
        self.choose(&mut result, &lines, random);
        result
    }

    /// The search itself: its result and the last report of every line it scored.
    fn search(&self, shared: &Shared, listener: &dyn Listener) -> (SearchResult, Vec<Info>) {
        let recorder = Recorder { inner: listener, lines: Mutex::new(Vec::new()) };
        let result = search::search(&self.pos, &self.limits, &self.settings, shared, &recorder);
        (result, recorder.lines.into_inner().unwrap_or_else(|e| e.into_inner()))
    }

    /// Replaces the best line by the one a weaker level or `Randomness` plays, when either applies.
    pub fn choose(&self, result: &mut SearchResult, lines: &[Info], random: u64) {
        if self.margin == 0 && self.strength.is_full() {
            return;
        }
        let chosen = if self.strength.is_full() {
            random_line(lines, self.margin, random)
        } else {
            skill_line(lines, self.strength, random)
        };
        if let Some(line) = chosen {
            result.best = line.pv.first().copied();
            result.ponder = line.pv.get(1).copied();
            result.score = line.score;
        }
    }

    /// The answer to give: the move, and whether an offered draw is accepted or the engine resigns.
    pub fn answer(&self, result: &SearchResult, draw_offered: bool) -> Answer {
        let accept_draw = result.best.is_some() && draw_offered && result.score <= self.draw_accept;
        Answer {
            best: result.best,
            ponder: result.ponder,
            score: result.score,
            accept_draw,
            resign: result.best.is_some() && !accept_draw && self.may_resign && result.score <= RESIGN_SCORE,
        }
    }
}

/// The engine: a game, the options, and what the searches share (hash table, histories).
pub struct Engine {
    pub pos: Position,
    pub options: Options,
    /// Root moves not to play (UCCI `banmoves`), until the next position.
    pub banned: Vec<Move>,
    shared: Arc<Shared>,
    /// Consecutive searches whose score was hopeless (for `resign`).
    hopeless: u32,
}

impl Default for Engine {
    fn default() -> Self {
        let options = Options::default();
        Engine {
            pos: Position::startpos(),
            shared: Arc::new(Shared::new(options.hash_mb)),
            options,
            banned: Vec::new(),
            hopeless: 0,
        }
    }
}

impl Engine {
    /// The state the searches share: the protocol's stop and ponderhit reach the search through it.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The rules in force (the `Rules` and `Natural Limit` options).
    pub fn rules(&self) -> Rules {
        Rules { set: self.options.rules, natural_limit: self.options.natural_limit_rounds * 2, ..Rules::default() }
    }

    /// Forgets the last game: the hash table, the histories, the resignation count.
    pub fn new_game(&mut self) {
        self.shared.new_game();
        self.hopeless = 0;
    }

    /// A new position to think about (banned moves are cleared).
    pub fn set_position(&mut self, pos: Position) {
        self.pos = pos;
        self.banned.clear();
    }

    /// Applies an option and what it implies (a new hash table, a cleared one, a new game). Returns the
    /// change (`Change::Ignored` for an option this engine does not use) or the sentence saying why not.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Change, String> {
        let change = self.options.set(name, value)?;
        match change {
            Change::Set { resize_hash: true } => self.shared = Arc::new(Shared::new(self.options.hash_mb)),
            Change::ClearHash => self.shared.tt.clear(),
            Change::NewGame => self.new_game(),
            Change::Set { .. } | Change::Ignored => {}
        }
        Ok(change)
    }

    /// What a `go` means. `random` drives the book's choice.
    pub fn plan(&self, req: &Request, random: u64) -> Plan {
        let overhead = self.options.move_overhead;
        let allocation = match (req.movetime, req.clock) {
            (Some(mt), _) => Some(time::fixed(mt, overhead)),
            (None, Some(clock)) => Some(time::allocate(clock, overhead, self.pos.ply())),
            (None, None) => None,
        };
        let unlimited = req.depth.is_none() && req.nodes.is_none() && req.mate.is_none() && allocation.is_none();
        let open_ended = req.infinite || unlimited || req.ponder;
        // The book answers a game move at once; analysis (infinite, ponder, searchmoves) always searches.
        if !open_ended && req.only.is_empty() {
            if let Some(book) = self.book_move(random) {
                return book;
            }
        }
        // A move to play (pondering included, analysis not) is where weaker levels and variety apply.
        let game_move = !(req.infinite || unlimited);
        let strength = if game_move { self.options.strength() } else { Strength::full() };
        let limits = Limits {
            depth: req.depth.map(|d| d.max(1)),
            nodes: match (req.nodes, strength.nodes()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            mate: req.mate,
            time: allocation,
            infinite: req.infinite || unlimited,
        };
        // Randomness and weaker levels choose among near-best lines: the search must score a few exactly.
        // Its margins are in reported units, so that a level means the same variety whichever evaluation plays.
        let margin =
            if game_move { crate::wdl::model(self.options.eval).from_cp(self.options.randomness.margin()) } else { 0 };
        let settings = Settings {
            threads: self.options.threads,
            multipv: match (margin > 0, strength.is_full()) {
                (_, false) => self.options.multipv.max(strength.candidates()),
                (true, true) => self.options.multipv.max(self.options.randomness.lines()),
                (false, true) => self.options.multipv,
            },
            rules: self.rules(),
            banned: self.banned.clone(),
            only: req.only.clone(),
            pruning: self.options.pruning,
            eval: self.options.eval,
            network: self.options.network.clone(),
            contempt: self.options.style.contempt(),
        };
        Plan::Search(Box::new(Job {
            pos: self.pos.clone(),
            limits,
            settings,
            ponder: req.ponder,
            open_ended,
            shown: self.options.multipv,
            strength,
            margin,
            draw_accept: self.options.style.draw_accept(),
            may_resign: self.options.resign && self.hopeless >= 2,
        }))
    }

    /// Readies the shared state for `job`: call it before the search's thread starts, so that a `stop` that
    /// comes at once is not lost.
    pub fn arm(&self, job: &Job) {
        self.shared.stop.store(false, Relaxed);
        self.shared.pondering.store(job.ponder, Relaxed);
    }

    /// Records a finished search's score (`None`: it was cut short) for `resign`.
    pub fn search_done(&mut self, score: Option<i32>) {
        if let Some(s) = score {
            self.hopeless = if s <= RESIGN_SCORE { self.hopeless + 1 } else { 0 };
        }
    }

    /// A move from the book when it is on and knows the position, within `BookDepth`.
    fn book_move(&self, random: u64) -> Option<Plan> {
        let book = self.options.book.as_ref().filter(|_| self.options.use_book)?;
        let game_ply = (self.pos.fullmove().saturating_sub(1)) * 2 + (self.pos.side_to_move() == Color::Black) as u32;
        if game_ply >= self.options.book_depth {
            return None;
        }
        let moves = book.playable(&self.pos, &self.rules(), &self.banned);
        let choice = Book::choose(&moves, random)?;
        let mut next = self.pos.clone();
        next.make_move(choice);
        let ponder = book.moves(&next).first().map(|b| b.mv);
        Some(Plan::Book { moves, choice, ponder })
    }

    /// The `eval` command's report: the evaluation that plays, and the handcrafted breakdown after the network's
    /// (it explains terms).
    pub fn eval_report(&self) -> String {
        let mut report = String::new();
        if self.options.eval == crate::eval::EvalKind::Nnue {
            let net = self.options.network.clone().unwrap_or_else(crate::nnue::default_network);
            let name = if self.options.eval_file.is_empty() { "built-in" } else { &self.options.eval_file };
            report = crate::nnue::report(&net, name, &self.pos) + "\nhandcrafted evaluation (Eval hce):\n";
        }
        report + &crate::eval::hce::report(&self.pos)
    }

    /// The `bench` command with the evaluation in force: nodes and nodes per second.
    pub fn bench(&self, depth: Option<i32>) -> (u64, u64) {
        let settings =
            Settings { eval: self.options.eval, network: self.options.network.clone(), ..Settings::default() };
        crate::bench::run(depth.unwrap_or(crate::bench::DEFAULT_DEPTH), false, &settings)
    }
}

/// The lines a move may be chosen from: the last completed depth's exact lines, best first, without those whose
/// score is a mate or rule result against the mover (the best itself excepted).
fn candidates(lines: &[Info]) -> Vec<&Info> {
    let Some(best) = lines.first() else { return Vec::new() };
    lines
        .iter()
        .filter(|l| l.depth == best.depth && l.bound == Bound::Exact && !l.pv.is_empty())
        .filter(|l| l.score > -search::MATE_BOUND || l.multipv == 1)
        .collect()
}

/// A line for `randomness`: among the candidates whose score is within `margin` of the best, chosen with
/// weights falling linearly from the best (weight `margin + 1 − loss`).
fn random_line(lines: &[Info], margin: i32, random: u64) -> Option<&Info> {
    let best = lines.first()?;
    let near: Vec<(&Info, u64)> = candidates(lines)
        .into_iter()
        .filter(|l| best.score - l.score <= margin)
        .map(|l| (l, (margin + 1 - (best.score - l.score)).max(1) as u64))
        .collect();
    let total: u64 = near.iter().map(|c| c.1).sum();
    let mut r = random % total.max(1);
    for (l, w) in &near {
        if r < *w {
            return Some(l);
        }
        r -= w;
    }
    Some(best)
}

/// A line for a level below full strength: a candidate chosen by its score loss (`Strength::choose`).
fn skill_line(lines: &[Info], strength: Strength, random: u64) -> Option<&Info> {
    let best = lines.first()?;
    let cands = candidates(lines);
    let losses: Vec<i32> = cands.iter().map(|l| best.score - l.score).collect();
    cands.get(strength.choose(&losses, random)).copied().or(Some(best))
}

/// A random number for the book's and the levels' choices: the clock's nanoseconds and a counter through
/// SplitMix64, so that two choices in the same nanosecond differ.
pub fn random_u64() -> u64 {
    use std::sync::atomic::AtomicU64;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut z = nanos ^ COUNTER.fetch_add(0x9e37_79b9_7f4a_7c15, Relaxed);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{encode_move, lock, Record};
    use std::time::Duration;

    fn line(multipv: usize, score: i32, mv: &str, bound: Bound) -> Info {
        Info {
            depth: 9,
            seldepth: 12,
            multipv,
            score,
            bound,
            nodes: 1000,
            time_ms: 10,
            hashfull: 0,
            pv: vec![mv.parse().unwrap()],
        }
    }

    /// Randomness picks only exact lines within the margin, in proportion to `margin + 1 − loss`.
    #[test]
    fn random_lines_within_the_margin() {
        let lines = vec![
            line(1, 100, "h2e2", Bound::Exact),
            line(2, 90, "b2e2", Bound::Exact),
            line(3, 85, "c3c4", Bound::Upper),
            line(4, 40, "g3g4", Bound::Exact),
        ];
        let pick = |margin, r| random_line(&lines, margin, r).unwrap().pv[0].to_string();
        // Margin 15: h2e2 (weight 16) and b2e2 (weight 6); c3c4 is only a bound, g3g4 too far.
        let mut counts = std::collections::HashMap::new();
        for r in 0..22 {
            *counts.entry(pick(15, r)).or_insert(0) += 1;
        }
        assert_eq!(counts.get("h2e2"), Some(&16));
        assert_eq!(counts.get("b2e2"), Some(&6));
        assert_eq!(counts.len(), 2);
        assert_eq!(pick(0, 12345), "h2e2");
        assert_eq!(pick(60, 112), "g3g4", "weights 61, 51, 1: the last of 113");
        assert_eq!(pick(60, 111), "b2e2");
        // A lost line is never chosen when the best is not lost, by randomness or by a weak level.
        let lost = vec![line(1, 10, "h2e2", Bound::Exact), line(2, -search::MATE_BOUND, "b2e2", Bound::Exact)];
        for r in 0..50 {
            assert_eq!(random_line(&lost, 1_000_000, r).unwrap().pv[0].to_string(), "h2e2");
            assert_eq!(skill_line(&lost, Strength::level(0), r << 58).unwrap().pv[0].to_string(), "h2e2");
        }
    }

    /// A weak level plays worse exact lines with chances falling with their loss; bounds and lines past the
    /// level's largest loss never.
    #[test]
    fn skill_lines_by_score_loss() {
        let lines = vec![
            line(1, 100, "h2e2", Bound::Exact),
            line(2, 40, "b2e2", Bound::Exact),
            line(3, 90, "c3c4", Bound::Upper),
            line(4, -900, "g3g4", Bound::Exact),
        ];
        let level0 = Strength::level(0); // T = 300, largest loss 900
        let mut counts = std::collections::HashMap::new();
        for i in 0..1000u64 {
            *counts
                .entry(skill_line(&lines, level0, i.wrapping_mul(u64::MAX / 1000)).unwrap().pv[0].to_string())
                .or_insert(0) += 1;
        }
        // Weights 1 and e^(-0.2) = 0.82: about 55 % and 45 %; c3c4 is a bound, g3g4 past the largest loss.
        assert_eq!(counts.len(), 2, "{counts:?}");
        assert!((500..600).contains(&counts["h2e2"]), "{counts:?}");
        // Full strength always plays the best.
        assert_eq!(skill_line(&lines, Strength::full(), u64::MAX).unwrap().pv[0].to_string(), "h2e2");
    }

    fn job(plan: Plan) -> Job {
        match plan {
            Plan::Search(job) => *job,
            Plan::Book { choice, .. } => panic!("a book move {choice}"),
        }
    }

    fn go(e: &Engine, req: Request) -> Job {
        job(e.plan(&req, 0))
    }

    /// Limits and settings from a `go` and the options; analysis is never weakened nor randomised.
    #[test]
    fn what_a_go_asks_for() {
        let mut e = Engine::default();
        let j = go(&e, Request { depth: Some(0), ..Request::default() });
        assert_eq!((j.limits.depth, j.limits.infinite, j.open_ended, j.settings.multipv), (Some(1), false, false, 1));
        // A fixed time less the overhead; a clock through the time manager.
        e.set_option("Move Overhead", Some("30")).unwrap();
        let j = go(&e, Request { movetime: Some(1000), ..Request::default() });
        assert_eq!(
            j.limits.time.map(|t| (t.soft, t.hard)),
            Some((Duration::from_millis(970), Duration::from_millis(970)))
        );
        let clock = Clock { time: 60_000, increment: 0, moves_to_go: 0 };
        let j = go(&e, Request { clock: Some(clock), ..Request::default() });
        assert_eq!(j.limits.time, Some(time::allocate(clock, 30, 0)));
        // Nothing to stop at: an analysis, open-ended.
        let j = go(&e, Request::default());
        assert!(j.limits.infinite && j.open_ended && !j.ponder);
        // Options reach the settings.
        for (name, value) in
            [("Threads", "3"), ("MultiPV", "2"), ("Pruning", "none"), ("Style", "risky"), ("Rules", "asian")]
        {
            e.set_option(name, Some(value)).unwrap();
        }
        e.banned = vec!["h2e2".parse().unwrap()];
        let j = go(&e, Request { depth: Some(5), only: vec!["b2e2".parse().unwrap()], ..Request::default() });
        let s = &j.settings;
        assert_eq!((s.threads, s.multipv, s.pruning, s.contempt), (3, 2, false, 30));
        assert_eq!((s.rules.set, s.banned.len(), s.only.len(), j.shown), (crate::rules::RuleSet::Asian, 1, 1, 2));
        // A weak level: a node limit and candidate lines for a game move, nothing for an analysis.
        e.set_option("Skill Level", Some("3")).unwrap();
        let j = go(&e, Request { depth: Some(5), ..Request::default() });
        assert_eq!(j.limits.nodes, Strength::level(3).nodes());
        assert_eq!(j.settings.multipv, 2usize.max(Strength::level(3).candidates()));
        let j = go(&e, Request { infinite: true, ..Request::default() });
        assert_eq!((j.limits.nodes, j.settings.multipv), (None, 2));
        // Randomness: lines scored exactly by level, pondering included (it becomes a game move), analysis not.
        e.set_option("Skill Level", Some("20")).unwrap();
        e.set_option("MultiPV", Some("1")).unwrap();
        e.set_option("Randomness", Some("small")).unwrap();
        let j = go(&e, Request { ponder: true, clock: Some(clock), ..Request::default() });
        // Margins are given in reported units: the built-in network's 15 and 60 are 38 and 153 of its own.
        assert_eq!((j.settings.multipv, j.margin, j.ponder, j.open_ended), (3, 38, true, true));
        e.set_option("Randomness", Some("large")).unwrap();
        let j = go(&e, Request { clock: Some(clock), ..Request::default() });
        assert_eq!((j.settings.multipv, j.margin), (6, 153));
        e.set_option("Eval", Some("hce")).unwrap();
        let j = go(&e, Request { clock: Some(clock), ..Request::default() });
        assert_eq!((j.settings.multipv, j.margin), (6, 171));
        e.set_option("Eval", Some("nnue")).unwrap();
        let j = go(&e, Request { infinite: true, ..Request::default() });
        assert_eq!((j.settings.multipv, j.margin), (1, 0));
    }

    /// The measure of variety, made deterministic: `Randomness large` with the built-in network chooses
    /// at least four different first moves from the start position in eight tries (a fixed depth and fixed
    /// draws instead of a clock and the time), each within the margin of the best line.
    #[test]
    fn randomness_large_varies_the_first_move() {
        let mut e = Engine::default();
        e.set_option("Randomness", Some("large")).unwrap();
        let j = go(&e, Request { depth: Some(10), ..Request::default() });
        let (result, lines) = j.search(&Shared::new(16), &search::Silent);
        assert_eq!(lines.len(), 6, "large scores six lines");
        let mut rng = crate::rng::Rng::new(8);
        let mut chosen = std::collections::HashSet::new();
        for _ in 0..8 {
            let mut r = result.clone();
            j.choose(&mut r, &lines, rng.next_u64());
            assert!(lines[0].score - r.score <= j.margin, "{} against {}", r.score, lines[0].score);
            chosen.insert(r.best.unwrap().to_string());
        }
        assert!(
            chosen.len() >= 4,
            "{chosen:?} from {:?}",
            lines.iter().map(|l| (l.score, l.pv[0])).collect::<Vec<_>>()
        );
    }

    /// The book answers game moves within `BookDepth` and never an analysis, a ponder search or `searchmoves`.
    #[test]
    fn book_moves() {
        let start = Position::startpos();
        let mut after = start.clone();
        after.make_move("h2e2".parse().unwrap());
        let rec = |p: &Position, m: &str, weight| Record {
            lock: lock(p, false),
            mv: encode_move(m.parse().unwrap()),
            weight,
        };
        let book = Book::from_records(vec![rec(&start, "h2e2", 7), rec(&start, "c3c4", 3), rec(&after, "h9g7", 5)]);
        let mut e = Engine::default();
        e.options.book = Some(Arc::new(book));
        let game = Request { depth: Some(3), ..Request::default() };
        assert!(matches!(e.plan(&game, 0), Plan::Search(_)), "OwnBook is off");
        e.set_option("OwnBook", Some("true")).unwrap();
        e.banned = vec!["c3c4".parse().unwrap()];
        let Plan::Book { moves, choice, ponder } = e.plan(&game, 12345) else { panic!("no book move") };
        assert_eq!(
            (moves.len(), choice.to_string(), ponder.map(|m| m.to_string())),
            (1, "h2e2".into(), Some("h9g7".into()))
        );
        for req in [
            Request { infinite: true, ..Request::default() },
            Request { ponder: true, depth: Some(3), ..Request::default() },
            Request { depth: Some(3), only: vec!["h2e2".parse().unwrap()], ..Request::default() },
        ] {
            assert!(matches!(e.plan(&req, 0), Plan::Search(_)), "{req:?}");
        }
        e.set_option("BookDepth", Some("0")).unwrap();
        assert!(matches!(e.plan(&game, 0), Plan::Search(_)));
    }

    /// Draw offers by `Style`, resignation after three hopeless searches, and the line a weak level plays.
    #[test]
    fn answers() {
        let mv = |s: &str| Some(s.parse::<Move>().unwrap());
        let result =
            |score| SearchResult { best: mv("h2e2"), ponder: mv("h9g7"), score, depth: 9, nodes: 1, pv: Vec::new() };
        let mut e = Engine::default();
        let req = Request { depth: Some(3), ..Request::default() };
        let a = go(&e, req.clone()).answer(&result(20), true);
        assert!(a.accept_draw && !a.resign);
        assert!(!go(&e, req.clone()).answer(&result(21), true).accept_draw, "normal accepts at +20 or less");
        assert!(!go(&e, req.clone()).answer(&result(-500), false).accept_draw, "no offer, nothing to accept");
        e.set_option("Style", Some("solid")).unwrap();
        assert!(go(&e, req.clone()).answer(&result(60), true).accept_draw);
        // Resign only with the option on and the third hopeless search in a row.
        e.set_option("resign", Some("true")).unwrap();
        for n in 0..3 {
            let a = go(&e, req.clone()).answer(&result(RESIGN_SCORE), false);
            assert_eq!(a.resign, n == 2, "search {n}");
            e.search_done(Some(RESIGN_SCORE));
        }
        e.search_done(Some(0));
        assert!(!go(&e, req.clone()).answer(&result(RESIGN_SCORE), false).resign, "a better search resets the count");
        e.new_game();
        // Mated: nothing to play, nothing to accept.
        let none = SearchResult { best: None, ponder: None, score: -search::MATE, depth: 0, nodes: 0, pv: Vec::new() };
        assert_eq!(
            go(&e, req.clone()).answer(&none, true),
            Answer { best: None, ponder: None, score: -search::MATE, accept_draw: false, resign: false }
        );
        // A weak level replaces the best line by a candidate; full strength keeps it.
        let lines = vec![line(1, 100, "h2e2", Bound::Exact), line(2, 40, "b2e2", Bound::Exact)];
        e.set_option("Skill Level", Some("0")).unwrap();
        let weak = go(&e, req.clone());
        let picked: std::collections::HashSet<String> = (0..64u64)
            .map(|i| {
                let mut r = result(100);
                weak.choose(&mut r, &lines, i.wrapping_mul(u64::MAX / 64));
                r.best.unwrap().to_string()
            })
            .collect();
        assert_eq!(picked.len(), 2, "{picked:?}");
        e.set_option("Skill Level", Some("20")).unwrap();
        let mut r = result(100);
        go(&e, req).choose(&mut r, &lines, 7);
        assert_eq!(r.best, mv("h2e2"));
    }

    /// Options that change the engine's state: a new hash table, a cleared one, a new game.
    #[test]
    fn options_that_act() {
        let mut e = Engine::default();
        let before = Arc::as_ptr(e.shared());
        assert_eq!(e.set_option("Hash", Some("16")), Ok(Change::Set { resize_hash: false }));
        assert_eq!(Arc::as_ptr(e.shared()), before);
        assert_eq!(e.set_option("Hash", Some("1")), Ok(Change::Set { resize_hash: true }));
        assert_ne!(Arc::as_ptr(e.shared()), before);
        assert_eq!(e.set_option("Clear Hash", None), Ok(Change::ClearHash));
        assert_eq!(e.set_option("newgame", None), Ok(Change::NewGame));
        assert_eq!(e.set_option("knowledge", Some("0")), Ok(Change::Ignored));
        assert!(e.set_option("Hash", Some("x")).is_err());
        assert_eq!(e.options.hash_mb, 1);
        e.set_position(Position::startpos());
        assert!(e.banned.is_empty());
    }
}
