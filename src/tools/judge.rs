//! `chuhan judge`: the referee at the command line.

use super::cli::Args;
use super::json::Json;
use super::pgn;
use crate::board::Position;
use crate::notation::{to_chinese, Script};
use crate::rules::classify::Label;
use crate::rules::{judge_game, Judged, Reason, Rules};
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

/// `chuhan judge --fen FEN --moves "…" | --pgn FILE [--rules chinese|asian] [--json]`
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

    let games: Vec<(Position, Vec<String>)> = if let Some(path) = args.value("pgn") {
        if args.has("fen") || args.has("moves") {
            return Err("judge: give either --pgn or --fen/--moves, not both".into());
        }
        let bytes = std::fs::read(&path).map_err(|e| format!("judge: cannot read '{path}': {e}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let parsed = pgn::parse(&text);
        if parsed.is_empty() {
            return Err(format!("judge: no game found in '{path}'"));
        }
        parsed
            .iter()
            .enumerate()
            .map(|(i, g)| g.start().map(|p| (p, g.moves.clone())).map_err(|e| format!("judge: game {}: {e}", i + 1)))
            .collect::<Result<_, _>>()?
    } else {
        let start = super::cli::position_from_args(&Args::parse(&[
            "--fen".to_string(),
            args.value("fen").unwrap_or_else(|| "startpos".into()),
        ]))?;
        let moves = args.value("moves").unwrap_or_default().split_whitespace().map(String::from).collect();
        vec![(start, moves)]
    };

    let many = games.len() > 1;
    let mut out = String::new();
    for (i, (start, moves)) in games.iter().enumerate() {
        let list: Vec<&str> = moves.iter().map(String::as_str).collect();
        let judged = judge_game(start, &list, &rules).map_err(|e| {
            if many {
                format!("judge: game {}: {e}", i + 1)
            } else {
                format!("judge: {e}")
            }
        })?;
        if args.has("json") {
            let mut j = report_json(&judged, &rules);
            if many {
                j = Json::obj().with("game", i + 1).with("verdict", j);
            }
            let _ = writeln!(out, "{}", j.render());
        } else {
            if many {
                let _ = writeln!(out, "Game {}", i + 1);
            }
            out.push_str(&report_text(&judged, &rules));
            if many {
                out.push('\n');
            }
        }
    }
    print!("{out}");
    Ok(())
}
