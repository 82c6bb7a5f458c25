//! `chuhan judge`: the referee at the command line.

use super::cli::Args;
use super::json::Json;
use super::pgn;
use crate::board::Position;
use crate::notation::{to_chinese, Script};
use crate::rules::classify::Label;
use crate::rules::{judge_game, GameResult, Judged, Reason, Rules};
use crate::types::Color;
use std::fmt::Write;

/// Moves of the judged cycle with their Chinese names (computed from the positions before each move).
fn cycle_rows(j: &Judged) -> Vec<(usize, Color, String, String, &Label)> {
    let Some(rep) = &j.verdict.repetition else { return Vec::new() };
    let moves = &rep.cycle.moves;
    let mut p = j.position.clone();
    for _ in rep.cycle.from..p.ply() {
        p.unmake_any();
    }
    moves
        .iter()
        .map(|lm| {
            let name = to_chinese(&p, lm.mv, Script::Simplified);
            p.make_move(lm.mv);
            (lm.ply, lm.side, lm.mv.to_string(), name, &lm.label)
        })
        .collect()
}

fn explanation(label: &Label) -> String {
    match label {
        Label::Check => "gives check".into(),
        Label::MateThreat => "threatens mate by checks".into(),
        Label::Chase(v) => v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("; "),
        Label::Idle => "attacks nothing new".into(),
    }
}

/// The human report.
pub fn report_text(j: &Judged, rules: &Rules) -> String {
    let v = &j.verdict;
    let mut s = String::new();
    let _ = writeln!(s, "Result: {} — {}", v.result.describe(), v.reason.describe());
    if v.reason != Reason::Unfinished {
        let _ = writeln!(s, "Rule: {} [{} rules]", v.reason.clause(rules.set), rules.set);
    }
    let _ = writeln!(s, "Decided at ply {} (position {})", v.ply, j.position.to_fen());
    if let Some(rep) = &v.repetition {
        let occ: Vec<String> = rep.occurrences.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(s, "The position occurred {} times, at plies {}", occ.len(), occ.join(", "));
        let _ = writeln!(s, "Last cycle, plies {}–{}:", rep.cycle.from + 1, v.ply);
        for (ply, side, iccs, name, label) in cycle_rows(j) {
            let _ = writeln!(
                s,
                "  {ply:>4}  {:<5}  {iccs}  {name}  {} {} — {}",
                side.name(),
                label.chinese(),
                label.english(),
                explanation(label)
            );
        }
        for c in Color::ALL {
            let cat = rep.categories[c.index()];
            let pawns = if rep.cycle.pawns_counted[c.index()] { " (pawn attacks counted: mutual attack)" } else { "" };
            let _ = writeln!(s, "{}: {} {}{pawns}", c.name(), cat.chinese(), cat.english());
        }
    }
    if j.ignored_moves > 0 {
        let _ = writeln!(s, "Note: the game had ended; {} later move(s) were not played.", j.ignored_moves);
    }
    s
}

/// The JSON report (one object).
pub fn report_json(j: &Judged, rules: &Rules) -> Json {
    let v = &j.verdict;
    let labels: Vec<Json> = cycle_rows(j)
        .into_iter()
        .map(|(ply, side, iccs, name, label)| {
            let chased: Vec<String> = match label {
                Label::Chase(list) => list.iter().map(|c| c.victim_square.to_string()).collect(),
                _ => Vec::new(),
            };
            Json::obj()
                .with("ply", ply)
                .with("side", side.name())
                .with("move", iccs)
                .with("chinese", name)
                .with("label", label.key())
                .with("chased", chased)
                .with("explanation", explanation(label))
        })
        .collect();
    let mut out = Json::obj()
        .with("result", v.result.key())
        .with("reason", v.reason.key())
        .with("rules", rules.set.name())
        .with("clause", v.reason.clause(rules.set))
        .with("ply", v.ply)
        .with("fen", j.position.to_fen())
        .with("labels", Json::Array(labels))
        .with("ignored_moves", j.ignored_moves);
    if let Some(rep) = &v.repetition {
        out = out
            .with("occurrences", rep.occurrences.clone())
            .with("red", rep.categories[0].key())
            .with("black", rep.categories[1].key());
    }
    out
}

/// The game files under `paths`: files as given, directories searched (recursively) for `.pgn` and `.xqf`
/// files.
fn game_files(paths: &[String]) -> Result<Vec<std::path::PathBuf>, String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> Result<(), String> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("judge: cannot read '{}': {e}", dir.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("xqf")) {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        let path = std::path::PathBuf::from(p);
        if path.is_dir() {
            walk(&path, &mut out)?;
        } else {
            out.push(path);
        }
    }
    Ok(out)
}

/// One game to judge: where it comes from, its tags, and its start and moves (or why it cannot be read).
struct Entry {
    source: String,
    number: usize,
    tags: Vec<(String, String)>,
    /// The result token at the end of the moves, if any.
    token: Option<String>,
    game: Result<(Position, Vec<String>), String>,
}

/// Whether the referee's verdict contradicts the recorded result (only when the rules end the game: a game
/// recorded as won by resignation is not contradicted by an unfinished verdict).
fn mismatch(recorded: Option<&str>, verdict: GameResult) -> bool {
    let recorded = match recorded.map(str::trim) {
        Some("1-0") => GameResult::RedWins,
        Some("0-1") => GameResult::BlackWins,
        Some("1/2-1/2" | "½-½") => GameResult::Draw,
        _ => return false,
    };
    verdict != GameResult::Ongoing && verdict != recorded
}

/// `chuhan judge --fen FEN --moves "…" | --pgn FILE|DIR… [--rules chinese|asian] [--json]`
pub fn run(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv);
    if let Some(f) = args.unknown(&["fen", "moves", "pgn", "rules", "json", "repetitions", "limit", "kill-depth"]) {
        return Err(format!("judge: unknown flag --{f}"));
    }
    if !args.positional.is_empty() {
        return Err(format!("judge: unexpected argument '{}'", args.positional[0]));
    }
    let mut rules = Rules::default();
    if let Some(r) = args.value("rules") {
        rules.set = r.parse()?;
    }
    rules.repetitions = args.number("repetitions", 3u32, 2..=10)?;
    rules.natural_limit = args.number("limit", 120u32, 0..=1000)?;
    rules.kill_depth = args.number("kill-depth", 3u32, 0..=5)?;
    let json = args.has("json");

    let mut entries = Vec::new();
    let pgn_paths: Vec<String> =
        args.flags.iter().filter(|(n, _)| n == "pgn").flat_map(|(_, v)| v.iter().cloned()).collect();
    if args.has("pgn") {
        if args.has("fen") || args.has("moves") {
            return Err("judge: give either --pgn or --fen/--moves, not both".into());
        }
        if pgn_paths.is_empty() {
            return Err("judge: --pgn needs a file or a directory".into());
        }
        let files = game_files(&pgn_paths)?;
        let single = files.len() == 1;
        for path in files {
            let parsed = match pgn::read_file(&path) {
                Ok(games) => games,
                Err(e) if single => return Err(format!("judge: {e}")),
                Err(e) => {
                    entries.push(Entry {
                        source: path.display().to_string(),
                        number: 1,
                        tags: Vec::new(),
                        token: None,
                        game: Err(e),
                    });
                    continue;
                }
            };
            if parsed.is_empty() && single {
                return Err(format!("judge: no game found in '{}'", path.display()));
            }
            for (i, g) in parsed.iter().enumerate() {
                entries.push(Entry {
                    source: path.display().to_string(),
                    number: i + 1,
                    tags: g.tags.clone(),
                    token: g.result.clone(),
                    game: g.start().map(|p| (p, g.moves.clone())),
                });
            }
        }
    } else {
        let start = super::cli::position_from_args(&Args::parse(&[
            "--fen".to_string(),
            args.value("fen").unwrap_or_else(|| "startpos".into()),
        ]))?;
        let moves = args.value("moves").unwrap_or_default().split_whitespace().map(String::from).collect();
        entries.push(Entry {
            source: String::new(),
            number: 1,
            tags: Vec::new(),
            token: None,
            game: Ok((start, moves)),
        });
    }

    let many = entries.len() > 1 || args.has("pgn");
    let tag = |e: &Entry, name: &str| e.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone());
    let (mut verdicts, mut unfinished, mut mismatches, mut unreadable) = (0, 0, 0, 0);
    let mut out = String::new();
    for e in &entries {
        let judged = e.game.clone().and_then(|(start, moves)| {
            let list: Vec<&str> = moves.iter().map(String::as_str).collect();
            judge_game(&start, &list, &rules).map_err(|e| e.to_string())
        });
        let recorded = tag(e, "Result").filter(|r| r.trim() != "*").or_else(|| e.token.clone());
        let judged = match judged {
            Ok(j) => j,
            Err(err) if !many => return Err(format!("judge: {err}")),
            Err(err) => {
                unreadable += 1;
                if json {
                    let j = Json::obj().with("file", e.source.as_str()).with("game", e.number).with("error", err);
                    let _ = writeln!(out, "{}", j.render());
                } else {
                    let _ = writeln!(out, "Game {} of {}: cannot be read: {err}\n", e.number, e.source);
                }
                continue;
            }
        };
        let result = judged.verdict.result;
        if result == GameResult::Ongoing {
            unfinished += 1;
        } else {
            verdicts += 1;
        }
        let wrong = mismatch(recorded.as_deref(), result);
        mismatches += wrong as usize;
        if json {
            let mut j = report_json(&judged, &rules);
            if many {
                j = Json::obj()
                    .with("file", e.source.as_str())
                    .with("game", e.number)
                    .with("red", tag(e, "Red").unwrap_or_default())
                    .with("black", tag(e, "Black").unwrap_or_default())
                    .with("recorded", recorded.clone().unwrap_or_default())
                    .with("mismatch", wrong)
                    .with("verdict", j);
            }
            let _ = writeln!(out, "{}", j.render());
        } else {
            if many {
                let players = match (tag(e, "Red"), tag(e, "Black")) {
                    (None, None) => String::new(),
                    (r, b) => format!(" — {} vs {}", r.as_deref().unwrap_or("?"), b.as_deref().unwrap_or("?")),
                };
                let _ = writeln!(out, "Game {} of {}{players}", e.number, e.source);
                let _ = writeln!(out, "Recorded: {}", recorded.as_deref().unwrap_or("(no Result tag)"));
            }
            out.push_str(&report_text(&judged, &rules));
            if wrong {
                let _ = writeln!(
                    out,
                    "MISMATCH: recorded {}, but the rules give {}",
                    recorded.as_deref().unwrap_or("?"),
                    result.describe()
                );
            }
            if many {
                out.push('\n');
            }
        }
    }
    if many {
        let summary = format!(
            "{} games read: {verdicts} decided by the rules, {unfinished} unfinished (resigned, agreed or cut \
             short), {mismatches} mismatches with the recorded result, {unreadable} unreadable",
            entries.len()
        );
        if json {
            eprintln!("{summary}");
        } else {
            let _ = writeln!(out, "{summary}");
        }
    }
    print!("{out}");
    if unreadable > 0 && unreadable == entries.len() {
        return Err("no game could be read".into());
    }
    Ok(())
}
