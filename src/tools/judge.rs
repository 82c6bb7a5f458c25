//! `chuhan judge`: the referee at the command line.

use super::args::{in_range, rule_set, PositionArgs};
use super::records;
use crate::board::Position;
use crate::notation::{to_chinese, Script};
use crate::rules::classify::Label;
use crate::rules::{judge_game, GameResult, Judged, Reason, Rules};
use crate::types::Color;
use serde::Serialize;
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

/// The JSON report of one judged game (`--json`; shape documented in docs/tools.md).
#[derive(Serialize, Debug)]
pub struct VerdictJson {
    pub result: &'static str,
    pub reason: &'static str,
    pub rules: &'static str,
    pub clause: &'static str,
    pub ply: usize,
    pub fen: String,
    pub labels: Vec<LabelJson>,
    pub ignored_moves: usize,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub repetition: Option<RepetitionJson>,
}

/// One move of the judged cycle.
#[derive(Serialize, Debug)]
pub struct LabelJson {
    pub ply: usize,
    pub side: &'static str,
    #[serde(rename = "move")]
    pub iccs: String,
    pub chinese: String,
    pub label: &'static str,
    pub chased: Vec<String>,
    pub explanation: String,
}

/// The repeated cycle: where the position occurred and each side's category.
#[derive(Serialize, Debug)]
pub struct RepetitionJson {
    pub occurrences: Vec<usize>,
    pub red: &'static str,
    pub black: &'static str,
}

/// A game of a file, with its verdict (`--pgn … --json`).
#[derive(Serialize, Debug)]
struct GameJson<'a> {
    file: &'a str,
    game: usize,
    red: String,
    black: String,
    recorded: String,
    mismatch: bool,
    verdict: VerdictJson,
}

/// A game of a file that could not be read.
#[derive(Serialize, Debug)]
struct UnreadableJson<'a> {
    file: &'a str,
    game: usize,
    error: String,
}

fn json_line(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The JSON report (one object).
pub fn report_json(j: &Judged, rules: &Rules) -> VerdictJson {
    let v = &j.verdict;
    let labels = cycle_rows(j)
        .into_iter()
        .map(|(ply, side, iccs, name, label)| LabelJson {
            ply,
            side: side.name(),
            iccs,
            chinese: name,
            label: label.key(),
            chased: match label {
                Label::Chase(list) => list.iter().map(|c| c.victim_square.to_string()).collect(),
                _ => Vec::new(),
            },
            explanation: explanation(label),
        })
        .collect();
    VerdictJson {
        result: v.result.key(),
        reason: v.reason.key(),
        rules: rules.set.name(),
        clause: v.reason.clause(rules.set),
        ply: v.ply,
        fen: j.position.to_fen(),
        labels,
        ignored_moves: j.ignored_moves,
        repetition: v.repetition.as_ref().map(|rep| RepetitionJson {
            occurrences: rep.occurrences.clone(),
            red: rep.categories[0].key(),
            black: rep.categories[1].key(),
        }),
    }
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
    let Some(recorded) = recorded.and_then(GameResult::from_pgn) else { return false };
    verdict != GameResult::Ongoing && verdict != recorded
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan judge --moves \"h2e2 h9g7 e2e6 g7e6\"
  chuhan judge --fen \"3k5/9/9/9/9/9/9/9/4R4/4K4 w\" --moves \"e1d1 d9e9 d1e1 e9d9\" --json
  chuhan judge --pgn games/ --rules asian
  chuhan judge --pgn 2006-ccgc.pgn some.xqf --json > verdicts.jsonl")]
pub struct JudgeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Game files or folders (searched for .pgn and .xqf): judge every game in them instead of --fen/--moves
    #[arg(long, value_name = "FILE|DIR", num_args = 1.., conflicts_with_all = ["fen", "moves"])]
    pub pgn: Vec<String>,
    /// Repetition rules: chinese (中国象棋协会, the default) or asian (亚洲象棋联合会)
    #[arg(long, value_name = "chinese|asian", value_parser = rule_set)]
    pub rules: Option<crate::rules::RuleSet>,
    /// Occurrences of a position that make a repetition
    #[arg(long, default_value_t = 3, value_parser = in_range(2u32..=10))]
    pub repetitions: u32,
    /// Plies without a capture that draw the game (120 = 60 rounds; 0: no limit)
    #[arg(long, default_value_t = 120, value_parser = in_range(0u32..=1000))]
    pub limit: u32,
    /// Depth, in the threatening side's moves, of the mate threat that makes a move a 杀 (0: no 杀)
    #[arg(long, default_value_t = 3, value_parser = in_range(0u32..=5))]
    pub kill_depth: u32,
    /// Longest series of consecutive checks through which a piece won counts as chased (捉, 连续照将; 0: direct
    /// and exchange chases only)
    #[arg(long, default_value_t = crate::rules::classify::CHASE_CHECK_DEPTH, value_parser = in_range(0u32..=5))]
    pub chase_checks: u32,
    /// One JSON object per game (a line each)
    #[arg(long)]
    pub json: bool,
}

/// `chuhan judge`: the verdict of the rules on a move list or on every game of some files.
pub fn run(args: JudgeArgs) -> Result<(), String> {
    let mut rules = Rules::default();
    if let Some(r) = args.rules {
        rules.set = r;
    }
    rules.repetitions = args.repetitions;
    rules.natural_limit = args.limit;
    rules.kill_depth = args.kill_depth;
    rules.chase_check_depth = args.chase_checks;
    let json = args.json;

    let mut entries = Vec::new();
    let from_files = !args.pgn.is_empty();
    if from_files {
        let files = records::game_files(&args.pgn).map_err(|e| format!("judge: {e}"))?;
        let single = files.len() == 1;
        for path in files {
            let parsed = match records::read_file(&path) {
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
        let start = args.position.start()?;
        let moves = args.position.move_words();
        entries.push(Entry {
            source: String::new(),
            number: 1,
            tags: Vec::new(),
            token: None,
            game: Ok((start, moves)),
        });
    }

    let many = entries.len() > 1 || from_files;
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
                    let j = UnreadableJson { file: &e.source, game: e.number, error: err };
                    let _ = writeln!(out, "{}", json_line(&j));
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
            let j = report_json(&judged, &rules);
            let line = match many {
                true => json_line(&GameJson {
                    file: &e.source,
                    game: e.number,
                    red: tag(e, "Red").unwrap_or_default(),
                    black: tag(e, "Black").unwrap_or_default(),
                    recorded: recorded.clone().unwrap_or_default(),
                    mismatch: wrong,
                    verdict: j,
                }),
                false => json_line(&j),
            };
            let _ = writeln!(out, "{line}");
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
