//! `chuhan annotate`: every position of a game searched, every move marked, an annotated PGN, a summary per
//! side and an evaluation graph (terminal and SVG).
//!
//! How a move is marked (docs/tools.md, "annotate"): scores become expected scores (a win counts 1, a draw
//! ½) by the win/draw/loss model of the evaluation that searched ([`crate::wdl`], fitted to our own games:
//! `win + draw / 2` for the score and the material on the board). A move's loss is the mover's expected score
//! after the best move minus after the move played (zero when the move played is the engine's choice).
//! Loss ≥ [`INACCURACY`] is `?!`, ≥ [`MISTAKE`] is `?`, ≥ [`BLUNDER`] is `??`. The engine's move is an "only
//! move" (`!`) when the second-best move loses at least [`ONLY_MOVE`]; a move is "forced" when it is the only
//! legal one, and "book" while the game follows a line of the built-in opening set from the standard start.

use super::args::{in_range, SearchArgs};
use super::openings;
use super::progress::Progress;
use super::records::{self, pgn};
use crate::board::Position;
use crate::notation::{parse_iccs, to_chinese, to_wxf, Script};
use crate::rules::{game_state, judge_game, GameResult, Reason, Rules};
use crate::search::{self, mate_moves, Info, Listener, Shared, MATE};
use crate::types::{Color, Move};
use std::fmt::Write;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Expected-score losses that mark a move (fractions of a point).
pub const INACCURACY: f64 = 0.05;
pub const MISTAKE: f64 = 0.10;
pub const BLUNDER: f64 = 0.15;
/// The second-best move's shortfall that makes the best one an only move.
pub const ONLY_MOVE: f64 = 0.15;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan annotate game.pgn --movetime 1000 --threads 2 --out game-annotated.pgn --svg game.svg
  chuhan annotate match.pgn --game 7 --depth 14
  chuhan annotate record.xqf --nodes 500000 --eval nnue

Without --out the annotated PGN follows the summary on stdout. --threads analyses that many positions at \
once (each search on one thread, so --depth and --nodes give the same marks every time). Without a limit each \
position is searched to depth 12.

Marks: ?! inaccuracy (expected-score loss >= 5 %), ? mistake (>= 10 %), ?? blunder (>= 15 %), ! only move \
(every other move loses >= 15 %); scores are shown from Red's side.")]
pub struct AnnotateArgs {
    /// The game file (PGN in any encoding, or XQF)
    #[arg(value_name = "GAME")]
    pub file: String,
    /// Which game of the file (from 1)
    #[arg(long, default_value_t = 1, value_parser = in_range(1usize..=1_000_000))]
    pub game: usize,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Write the annotated PGN here (default: stdout, after the summary)
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Draw the evaluation graph as an SVG file
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

/// The search's view of one position (scores from the side to move).
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub score: i32,
    pub best: Option<Move>,
    pub pv: Vec<Move>,
    /// The second-best move's score, when there is a second move.
    pub second: Option<i32>,
    pub legal: usize,
    /// The material on the board ([`crate::wdl::material`]), for the win/draw/loss model.
    pub material: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    None,
    Book,
    Forced,
    Only,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The PGN numeric annotation glyph ($1 !, $2 ?, $4 ??, $6 ?!), 0 for none.
    pub fn nag(self) -> u8 {
        match self {
            Mark::Only => 1,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
            Mark::Inaccuracy => 6,
            _ => 0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Book => "book",
            Mark::Forced => "forced",
            Mark::Only => "only move",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    pub fn chinese(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Book => "谱着",
            Mark::Forced => "唯一着法",
            Mark::Only => "妙着",
            Mark::Inaccuracy => "软着",
            Mark::Mistake => "错着",
            Mark::Blunder => "败着",
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug)]
pub struct MoveNote {
    pub side: Color,
    pub played: Move,
    /// Expected score of the mover before (after the best move) and after the move played.
    pub before: f64,
    pub after: f64,
    pub loss: f64,
    pub mark: Mark,
}

/// Marks every move from the analyses of the positions before and after it (`analyses[i]` is the position
/// before move `i`, and there is one more analysis than moves). `expected(score, material)` is the expected
/// score of the side a score is given for. `book` moves are not judged.
pub fn mark_moves(
    start: &Position,
    moves: &[Move],
    analyses: &[Analysis],
    book: usize,
    expected: impl Fn(i32, i32) -> f64,
) -> Vec<MoveNote> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let (a, next) = (&analyses[i], &analyses[i + 1]);
        let before = expected(a.score, a.material);
        let after = 1.0 - expected(next.score, next.material);
        let engine_choice = a.best == Some(m);
        let loss = if engine_choice { 0.0 } else { (before - after).max(0.0) };
        let mark = if i < book {
            Mark::Book
        } else if a.legal == 1 {
            Mark::Forced
        } else if loss >= BLUNDER {
            Mark::Blunder
        } else if loss >= MISTAKE {
            Mark::Mistake
        } else if loss >= INACCURACY {
            Mark::Inaccuracy
        } else if engine_choice && a.second.is_some_and(|s| before - expected(s, a.material) >= ONLY_MOVE) {
            Mark::Only
        } else {
            Mark::None
        };
        out.push(MoveNote { side: pos.side_to_move(), played: m, before, after, loss, mark });
        pos.make_move(m);
    }
    out
}

/// How many of the first moves follow a line of the built-in opening set (from the standard start only).
fn book_moves(start: &Position, moves: &[Move]) -> usize {
    if start.to_fen() != Position::startpos().to_fen() {
        return 0;
    }
    openings::built_in()
        .iter()
        .filter(|o| o.fen == start.to_fen())
        .map(|o| o.moves.iter().zip(moves).take_while(|(a, b)| a == b).count())
        .max()
        .unwrap_or(0)
}

/// The notation a game's moves are written in, so that best moves are shown the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

fn notation_of(start: &Position, first: Option<&String>) -> Notation {
    match first {
        Some(t) if !t.is_ascii() => Notation::Chinese,
        Some(t) if parse_iccs(start, &t.replace('-', "").to_ascii_lowercase()).is_ok() => Notation::Iccs,
        Some(_) => Notation::Wxf,
        None => Notation::Iccs,
    }
}

fn in_notation(pos: &Position, m: Move, n: Notation) -> String {
    match n {
        Notation::Iccs => m.to_string(),
        Notation::Wxf => to_wxf(pos, m),
        Notation::Chinese => to_chinese(pos, m, Script::Simplified),
    }
}

/// A score from Red's side, for people: `+0.35`, `#+3` (Red mates in 3 of its moves), `#-2` (Black mates in 2
/// of its moves), `#-0` (Red has lost, by mate or by the rules).
fn red_score(score: i32, side: Color) -> String {
    let red = if side == Color::Red { score } else { -score };
    // The count is the mating side's moves, which the side to move's score gives either way.
    match mate_moves(score) {
        Some(n) => format!("#{}{}", if red > 0 { '+' } else { '-' }, n.abs()),
        None => format!("{:+.2}", red as f64 / 100.0),
    }
}

/// Keeps the last report of each of the first two lines.
struct Lines(Mutex<[Option<Info>; 2]>);

impl Listener for Lines {
    fn info(&self, i: &Info) {
        if (1..=2).contains(&i.multipv) {
            self.0.lock().unwrap_or_else(|e| e.into_inner())[i.multipv - 1] = Some(i.clone());
        }
    }
}

/// Searches one position of the game (with its history, so the repetition rules apply).
fn analyse(pos: &Position, args: &SearchArgs, settings: &search::Settings, shared: &Shared, rules: &Rules) -> Analysis {
    let legal = pos.legal_moves().len();
    let verdict = game_state(pos, rules);
    if verdict.is_over() || legal == 0 {
        let score = match verdict.result {
            GameResult::Draw => 0,
            GameResult::RedWins if pos.side_to_move() == Color::Red => MATE,
            GameResult::BlackWins if pos.side_to_move() == Color::Black => MATE,
            _ => -MATE,
        };
        return Analysis { score, legal, material: crate::wdl::material(pos), ..Analysis::default() };
    }
    shared.new_game();
    shared.stop.store(false, Relaxed);
    let lines = Lines(Mutex::new([None, None]));
    let result = search::search(pos, &args.limits(12), settings, shared, &lines);
    let second = lines.0.into_inner().unwrap_or_else(|e| e.into_inner())[1].as_ref().map(|i| i.score);
    Analysis {
        score: result.score,
        best: result.best,
        pv: result.pv,
        second: second.filter(|_| legal > 1),
        legal,
        material: crate::wdl::material(pos),
    }
}

/// `chuhan annotate`
pub fn run(args: AnnotateArgs) -> Result<(), String> {
    let games = records::read_file(std::path::Path::new(&args.file)).map_err(|e| format!("annotate: {e}"))?;
    let g = games
        .get(args.game - 1)
        .ok_or_else(|| format!("annotate: '{}' has {} game(s), not {}", args.file, games.len(), args.game))?;
    let start = g.start().map_err(|e| format!("annotate: {e}"))?;
    let mut settings = args.search.settings().map_err(|e| format!("annotate: {e}"))?;
    settings.multipv = 2;
    let workers = settings.threads;
    settings.threads = 1;
    let rules = settings.rules;

    // The moves up to the end the rules give (later moves of the record are not played).
    let texts: Vec<&str> = g.moves.iter().map(String::as_str).collect();
    let judged = judge_game(&start, &texts, &rules).map_err(|e| format!("annotate: {e}"))?;
    let moves = g.replay(texts.len() - judged.ignored_moves).map_err(|e| format!("annotate: {e}"))?.moves;
    let mut positions = vec![start.clone()];
    for &m in &moves {
        let mut next = positions.last().expect("the start is there").clone();
        next.make_move(m);
        positions.push(next);
    }

    let bar = Progress::new("annotate", positions.len() as u64, args.quiet);
    let analyses: Vec<Mutex<Analysis>> = positions.iter().map(|_| Mutex::new(Analysis::default())).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers.min(positions.len()) {
            scope.spawn(|| {
                let shared = Shared::new(args.search.hash);
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    let Some(pos) = positions.get(i) else { break };
                    let a = analyse(pos, &args.search, &settings, &shared, &rules);
                    *analyses[i].lock().unwrap_or_else(|e| e.into_inner()) = a;
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish();
    let analyses: Vec<Analysis> =
        analyses.into_iter().map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner())).collect();

    let book = book_moves(&start, &moves);
    let model = crate::wdl::model(settings.eval);
    let expected = |score: i32, material: i32| model.wdl(score, material).expected();
    // Scores shown are normalised (`wdl::Model::to_cp`): the same number means the same under either evaluation.
    let shown = |score: i32, side: Color| red_score(model.to_cp(score), side);
    let notes = mark_moves(&start, &moves, &analyses, book, expected);
    let notation = notation_of(&start, g.moves.first());
    let perpetual = perpetual_start(&judged, &rules, &start);

    // The annotated PGN.
    let mut comments = Vec::new();
    for (i, n) in notes.iter().enumerate() {
        let (pos, a) = (&positions[i], &analyses[i]);
        // The score after the move, from Red's side (the `[%eval]` convention of annotated PGN).
        let mut c = format!("[%eval {}]", shown(analyses[i + 1].score, !n.side));
        if n.mark != Mark::None {
            let _ = write!(c, " {} {}", n.mark.chinese(), n.mark.name());
        }
        if matches!(n.mark, Mark::Inaccuracy | Mark::Mistake | Mark::Blunder) {
            let _ = write!(c, " (-{:.1} %)", n.loss * 100.0);
        }
        if n.mark != Mark::Book {
            let _ = write!(c, "; {} -> {}", shown(a.score, n.side), shown(analyses[i + 1].score, !n.side));
        }
        if let Some(best) = a.best.filter(|&b| b != n.played && n.mark != Mark::Book) {
            let line = pv_text(pos, &a.pv, notation, 6);
            let _ = write!(
                c,
                "; best {} {} {}: {line}",
                in_notation(pos, best, notation),
                if notation == Notation::Chinese {
                    best.to_string()
                } else {
                    to_chinese(pos, best, Script::Simplified)
                },
                shown(a.score, n.side)
            );
        }
        if let Some((ply, text)) = &perpetual {
            if *ply == i {
                let _ = write!(c, "; {text}");
            }
        }
        comments.push(c);
    }
    let mut tags: Vec<(&str, String)> = g.tags.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    tags.retain(|(k, _)| !k.eq_ignore_ascii_case("Annotator"));
    let annotator = format!("Chuhan {} ({})", env!("CARGO_PKG_VERSION"), limit_text(&args.search));
    tags.push(("Annotator", annotator));
    let result = g.tag("Result").map(str::to_string).or_else(|| g.result.clone()).unwrap_or_else(|| "*".into());
    let nags: Vec<u8> = notes.iter().map(|n| n.mark.nag()).collect();
    let annotated = pgn::write(&tags, &start, &moves, &nags, &comments, &result);

    let title = match (g.tag("Red"), g.tag("Black")) {
        (None, None) => args.file.clone(),
        (r, b) => format!("{} vs {}", r.unwrap_or("?"), b.unwrap_or("?")),
    };
    let curve: Vec<f64> = analyses
        .iter()
        .zip(&positions)
        .map(|(a, p)| {
            let e = expected(a.score, a.material);
            if p.side_to_move() == Color::Red {
                e
            } else {
                1.0 - e
            }
        })
        .collect();
    print!("{}", summary(&title, &start, &moves, &notes, &perpetual));
    print!("{}", terminal_chart(&curve));
    if let Some(path) = &args.svg {
        std::fs::write(path, svg(&title, &curve, &notes, start.fullmove() as usize))
            .map_err(|e| format!("annotate: cannot write '{path}': {e}"))?;
    }
    match &args.out {
        Some(path) => {
            std::fs::write(path, annotated).map_err(|e| format!("annotate: cannot write '{path}': {e}"))?;
        }
        None => print!("\n{annotated}"),
    }
    Ok(())
}

fn limit_text(a: &SearchArgs) -> String {
    match (a.depth, a.movetime, a.nodes) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(ms), _) => format!("{ms} ms a position"),
        (_, _, Some(n)) => format!("{n} nodes a position"),
        _ => "depth 12".into(),
    }
}

fn pv_text(pos: &Position, pv: &[Move], n: Notation, max: usize) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in pv.iter().take(max) {
        if !p.is_legal(m) {
            break;
        }
        out.push(in_notation(&p, m, n));
        p.make_move(m);
    }
    out.join(" ")
}

/// When the game ended by a forbidden perpetual (长将, 长捉 …): the index of the losing side's first move in
/// the repeated cycle, and the comment naming the clause.
fn perpetual_start(judged: &crate::rules::Judged, rules: &Rules, start: &Position) -> Option<(usize, String)> {
    let v = &judged.verdict;
    if !matches!(v.reason, Reason::PerpetualCheck | Reason::ForbiddenRepetition) {
        return None;
    }
    let rep = v.repetition.as_ref()?;
    let loser = match v.result {
        GameResult::RedWins => Color::Black,
        GameResult::BlackWins => Color::Red,
        _ => return None,
    };
    let first = *rep.occurrences.first()?;
    let base = start.ply();
    let side_at =
        |ply: usize| if (ply - base).is_multiple_of(2) { start.side_to_move() } else { !start.side_to_move() };
    let ply = (first..v.ply).find(|&p| side_at(p) == loser)?;
    let cat = rep.categories[loser.index()];
    Some((
        ply - base,
        format!(
            "{} {} begins here: {}, {} loses ({})",
            cat.chinese(),
            cat.english(),
            v.reason.describe(),
            loser.name(),
            v.reason.clause(rules.set)
        ),
    ))
}

fn move_label(start: &Position, i: usize) -> String {
    let black_first = start.side_to_move() == Color::Black;
    let k = i + black_first as usize;
    let number = start.fullmove() as usize + k / 2;
    if k.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

/// The per-side summary: average loss, counts of each mark, the turning points.
pub fn summary(
    title: &str,
    start: &Position,
    moves: &[Move],
    notes: &[MoveNote],
    perpetual: &Option<(usize, String)>,
) -> String {
    let mut s = format!("{title}: {} plies analysed\n", moves.len());
    let _ = writeln!(
        s,
        "{:<6} {:>9} {:>5} {:>7} {:>7} {:>9} {:>7} {:>5} {:>5}",
        "side", "avg loss", "?!", "?", "??", "only(!)", "forced", "book", "moves"
    );
    for side in Color::ALL {
        let mine: Vec<&MoveNote> = notes.iter().filter(|n| n.side == side).collect();
        let count = |m: Mark| mine.iter().filter(|n| n.mark == m).count();
        let judged: Vec<&&MoveNote> = mine.iter().filter(|n| n.mark != Mark::Book).collect();
        let avg =
            if judged.is_empty() { 0.0 } else { judged.iter().map(|n| n.loss).sum::<f64>() / judged.len() as f64 };
        let _ = writeln!(
            s,
            "{:<6} {:>8.1}% {:>5} {:>7} {:>7} {:>9} {:>7} {:>5} {:>5}",
            side.name(),
            avg * 100.0,
            count(Mark::Inaccuracy),
            count(Mark::Mistake),
            count(Mark::Blunder),
            count(Mark::Only),
            count(Mark::Forced),
            count(Mark::Book),
            mine.len()
        );
    }
    // Turning points: the three costliest moves (a loss of at least an inaccuracy).
    let mut worst: Vec<(usize, &MoveNote)> = notes.iter().enumerate().filter(|(_, n)| n.loss >= INACCURACY).collect();
    worst.sort_by(|a, b| b.1.loss.total_cmp(&a.1.loss).then(a.0.cmp(&b.0)));
    if worst.is_empty() {
        s.push_str("Turning points: none (no move lost 5 % or more)\n");
    } else {
        s.push_str("Turning points:\n");
        let mut pos = start.clone();
        let mut before = Vec::new();
        for &m in moves {
            before.push(pos.clone());
            pos.make_move(m);
        }
        for (i, n) in worst.into_iter().take(3) {
            let _ = writeln!(
                s,
                "  {} {} ({}) {} {}: expected score {:.0}% -> {:.0}% for {}",
                move_label(start, i),
                to_chinese(&before[i], n.played, Script::Simplified),
                n.played,
                n.mark.chinese(),
                n.mark.name(),
                n.before * 100.0,
                n.after * 100.0,
                n.side.name()
            );
        }
    }
    if let Some((i, text)) = perpetual {
        let _ = writeln!(s, "Rules: at {} {text}", move_label(start, *i));
    }
    s
}

/// A text chart of Red's expected score by ply: the 50 % line in the middle, Red's advantage above it
/// (`█`), Black's below (`▒`), one row for each 10 %.
pub fn terminal_chart(curve: &[f64]) -> String {
    const HALF: usize = 5;
    const WIDTH: usize = 100;
    let n = curve.len();
    if n == 0 {
        return String::new();
    }
    // At most WIDTH columns: each column is the mean of its plies.
    let cols = n.min(WIDTH);
    let values: Vec<f64> = (0..cols)
        .map(|c| {
            let (a, b) = (c * n / cols, ((c + 1) * n / cols).max(c * n / cols + 1));
            curve[a..b].iter().sum::<f64>() / (b - a) as f64
        })
        .collect();
    let mut s = String::from("Red's expected score by ply:\n");
    for row in 0..=2 * HALF {
        // Row `row` stands for the level 100 % − 10 % × row; a bar reaches it when the value passes it.
        let level = 1.0 - row as f64 / (2 * HALF) as f64;
        let label = match row {
            0 => "100%".to_string(),
            r if r == HALF => " 50%".to_string(),
            r if r == 2 * HALF => "  0%".to_string(),
            _ => "    ".to_string(),
        };
        s.push_str(&label);
        s.push_str(" |");
        for &v in &values {
            let c = if row == HALF {
                '─'
            } else if row < HALF && v >= level - 0.05 {
                '█'
            } else if row > HALF && v <= level + 0.05 {
                '▒'
            } else {
                ' '
            };
            s.push(c);
        }
        s.push('\n');
    }
    let _ = writeln!(s, "      ply 0{:>width$}", n - 1, width = cols.saturating_sub(1).max(1));
    s
}

/// The evaluation graph as a standalone SVG: Red's expected score by ply, marks as dots.
pub fn svg(title: &str, curve: &[f64], notes: &[MoveNote], first_move: usize) -> String {
    let (w, h, left, right, top, bottom) = (900.0, 360.0, 56.0, 16.0, 40.0, 40.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let n = curve.len().max(2);
    let x = |i: usize| left + pw * i as f64 / (n - 1) as f64;
    let y = |v: f64| top + ph * (1.0 - v);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="'Noto Sans CJK SC','Microsoft YaHei','PingFang SC','WenQuanYi Micro Hei',sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let _ = writeln!(s, r#"<text x="{left}" y="24" font-size="15" font-weight="bold">{}</text>"#, xml(title));
    // Bands: Red's half above, Black's below.
    let _ = writeln!(s, r##"<rect x="{left}" y="{top}" width="{pw}" height="{}" fill="#fdecea"/>"##, ph / 2.0);
    let _ =
        writeln!(s, r##"<rect x="{left}" y="{}" width="{pw}" height="{}" fill="#ececec"/>"##, top + ph / 2.0, ph / 2.0);
    for (v, label) in [(1.0, "100%"), (0.75, "75%"), (0.5, "50%"), (0.25, "25%"), (0.0, "0%")] {
        let yy = y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#bbbbbb" stroke-width="{}"/>"##,
            left + pw,
            if v == 0.5 { 1.5 } else { 0.5 }
        );
        let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"#, left - 6.0, yy + 4.0);
    }
    // Move numbers along the bottom: about ten ticks.
    // An even number of plies between ticks, so that every tick falls on a Red move.
    let step = (n / 10).max(1).div_ceil(2) * 2;
    for ply in (0..curve.len()).step_by(step.max(2)) {
        let xx = x(ply);
        let _ = writeln!(
            s,
            r#"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            top + ph + 16.0,
            first_move + ply / 2
        );
    }
    let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">move</text>"#, left + pw / 2.0, h - 6.0);
    // The area between the curve and 50 %, then the curve.
    let mut area = format!("M {:.1} {:.1}", x(0), y(0.5));
    let mut line = String::new();
    for (i, &v) in curve.iter().enumerate() {
        let _ = write!(area, " L {:.1} {:.1}", x(i), y(v));
        let _ = write!(line, "{}{:.1},{:.1}", if i == 0 { "" } else { " " }, x(i), y(v));
    }
    let _ = write!(area, " L {:.1} {:.1} Z", x(curve.len().saturating_sub(1)), y(0.5));
    let _ = writeln!(s, r##"<path d="{area}" fill="#c0392b" fill-opacity="0.25"/>"##);
    let _ = writeln!(s, r##"<polyline points="{line}" fill="none" stroke="#c0392b" stroke-width="2"/>"##);
    for (i, note) in notes.iter().enumerate() {
        let colour = match note.mark {
            Mark::Blunder => "#d62728",
            Mark::Mistake => "#ff7f0e",
            Mark::Inaccuracy => "#e6c200",
            Mark::Only => "#2ca02c",
            _ => continue,
        };
        let _ = writeln!(
            s,
            r##"<circle cx="{:.1}" cy="{:.1}" r="4.5" fill="{colour}" stroke="#333333" stroke-width="0.8"><title>{} {}</title></circle>"##,
            x(i + 1),
            y(curve[i + 1]),
            first_move + i / 2,
            note.mark.name()
        );
    }
    let legend =
        [("#d62728", "blunder ??"), ("#ff7f0e", "mistake ?"), ("#e6c200", "inaccuracy ?!"), ("#2ca02c", "only move !")];
    for (k, (colour, label)) in legend.iter().enumerate() {
        let lx = w - right - 430.0 + k as f64 * 108.0;
        let _ = writeln!(
            s,
            r##"<circle cx="{lx:.1}" cy="20" r="4.5" fill="{colour}" stroke="#333333" stroke-width="0.8"/>"##
        );
        let _ = writeln!(s, r#"<text x="{:.1}" y="24">{label}</text>"#, lx + 8.0);
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#666666">Red's expected score</text>"##,
        left + 4.0,
        top + 12.0
    );
    s.push_str("</svg>\n");
    s
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(score: i32, best: Option<Move>, second: Option<i32>, legal: usize) -> Analysis {
        Analysis { score, best, pv: best.into_iter().collect(), second, legal, material: 66 }
    }

    /// A logistic curve whose inverse is easy, standing in for the fitted model.
    fn expected(score: i32, _material: i32) -> f64 {
        1.0 / (1.0 + (-(score as f64) / 400.0).exp())
    }

    /// Each mark at its documented threshold, from made-up analyses of the first moves of a game.
    #[test]
    fn marks_follow_the_thresholds() {
        let start = Position::startpos();
        let moves = [parse_iccs(&start, "h2e2").unwrap()];
        let other = parse_iccs(&start, "b2e2").unwrap();
        // A score whose expected value is `e` for the side it is given for.
        let units = |e: f64| (-(1.0 / e - 1.0).ln() * 400.0).round() as i32;
        let cases = [
            (0.049, Mark::None),
            (0.051, Mark::Inaccuracy),
            (0.101, Mark::Mistake),
            (0.151, Mark::Blunder),
            (0.40, Mark::Blunder),
        ];
        for (loss, mark) in cases {
            // Red stood at 50 % before; after the move Black (to move) stands at 50 % + loss.
            let analyses = [a(0, Some(other), None, 44), a(units(0.5 + loss), None, None, 44), a(0, None, None, 44)];
            let notes = mark_moves(&start, &moves[..1], &analyses, 0, expected);
            assert_eq!(notes[0].mark, mark, "loss {loss}");
            assert!((notes[0].loss - loss).abs() < 0.002, "{} vs {loss}", notes[0].loss);
            assert_eq!(notes[0].mark.nag(), [0, 6, 2, 4, 4][cases.iter().position(|c| c.0 == loss).unwrap()]);
        }
        // The engine's own move is never marked down, and is an only move when the second best is far worse.
        let analyses = [a(0, Some(moves[0]), Some(units(0.34)), 44), a(units(0.9), None, None, 44)];
        assert_eq!(mark_moves(&start, &moves[..1], &analyses, 0, expected)[0].mark, Mark::Only);
        let analyses = [a(0, Some(moves[0]), Some(units(0.36)), 44), a(0, None, None, 44)];
        assert_eq!(mark_moves(&start, &moves[..1], &analyses, 0, expected)[0].mark, Mark::None);
        // A single legal move is forced; book moves are not judged.
        let analyses = [a(0, Some(other), None, 1), a(units(0.9), None, None, 44)];
        assert_eq!(mark_moves(&start, &moves[..1], &analyses, 0, expected)[0].mark, Mark::Forced);
        let analyses = [a(0, Some(other), None, 44), a(units(0.9), None, None, 44)];
        assert_eq!(mark_moves(&start, &moves[..1], &analyses, 1, expected)[0].mark, Mark::Book);
    }

    #[test]
    fn book_and_notation() {
        let start = Position::startpos();
        let mut p = start.clone();
        let mut moves = Vec::new();
        for t in ["h2e2", "h9g7", "a0a1"] {
            let m = parse_iccs(&p, t).unwrap();
            p.make_move(m);
            moves.push(m);
        }
        assert_eq!(book_moves(&start, &moves), 2);
        assert_eq!(book_moves(&p, &moves), 0);
        assert_eq!(notation_of(&start, Some(&"H2-E2".to_string())), Notation::Iccs);
        assert_eq!(notation_of(&start, Some(&"C2.5".to_string())), Notation::Wxf);
        assert_eq!(notation_of(&start, Some(&"炮二平五".to_string())), Notation::Chinese);
        assert_eq!(in_notation(&start, moves[0], Notation::Chinese), "炮二平五");
        assert_eq!(red_score(150, Color::Black), "-1.50");
        assert_eq!(red_score(MATE - 5, Color::Red), "#+3");
        assert_eq!(red_score(MATE - 5, Color::Black), "#-3");
        assert_eq!(red_score(-MATE, Color::Red), "#-0");
    }

    #[test]
    fn charts() {
        let curve = [0.5, 0.6, 0.9, 0.2, 0.0];
        let text = terminal_chart(&curve);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows.len(), 1 + 11 + 1);
        assert_eq!(rows[6], " 50% |─────");
        assert_eq!(rows[2], "     |  █  ", "90 % reaches the 90 % row");
        assert_eq!(rows[11], "  0% |    ▒", "0 % reaches the bottom");
        let notes =
            vec![
                MoveNote { side: Color::Red, played: Move::NULL, before: 0.5, after: 0.5, loss: 0.0, mark: Mark::None };
                4
            ];
        let svg = svg("a <b> & c", &curve, &notes, 1);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{svg}");
        assert!(svg.contains("a &lt;b&gt; &amp; c") && svg.contains("<polyline") && svg.trim_end().ends_with("</svg>"));
    }
}
