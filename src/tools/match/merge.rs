//! `chuhan match merge`: one report over the PGN files of a match's shards (`chuhan match --shard K/N`).
//!
//! The games are counted in the order of their numbers (the PGN's `Round`), as one run with one game at a time
//! would count them, so the report, the pentanomial pairs and the SPRT state are the unsharded run's. The PGN
//! tags say what the report needs: the engines (Red of an even-numbered game is the first engine), `Limit` and
//! `Rules`; the shards must agree on all three.

use super::report::{Heading, Results};
use super::stats::Sprt;
use crate::rules::GameResult;
use crate::tools::records::pgn;
use std::collections::BTreeMap;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  chuhan match merge out/shard-*.pgn
  chuhan match merge out/shard-*.pgn --json out/merged.json --pgn out/merged.pgn --sprt \"elo0=0 elo1=5\"

The files are the --pgn files of one match's shards (or of any runs of the same match that played different \
game numbers). Unfinished games (a shard killed while writing) are left out; rounds that no file holds are \
named on stderr.")]
pub struct MergeArgs {
    /// The shards' PGN files
    #[arg(required = true, value_name = "PGN")]
    pub inputs: Vec<String>,
    /// Write the summary as JSON (the shape `chuhan match --json` writes)
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Write all the games to one PGN file, in round order
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<String>,
    /// The sequential test to report on: "elo0=0 elo1=5 alpha=0.05 beta=0.05"
    #[arg(long, value_name = "SPEC", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
}

/// One finished game of a shard's file.
struct Game {
    /// Which file it came from (for messages).
    file: usize,
    /// The first engine's points.
    points: f64,
    reason: String,
    /// The game's text as the shard wrote it (tags, moves with their comments, result).
    text: String,
}

/// The raw text of each game in a PGN file that `chuhan match` wrote: a game starts at a tag line that follows
/// move text (or the file's start). Our writer puts no line starting with `[` inside move text.
fn game_texts(text: &str) -> Vec<&str> {
    let mut starts = Vec::new();
    let mut in_tags = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let is_tag = line.trim_start().starts_with('[');
        if is_tag && !in_tags {
            starts.push(offset);
        }
        if !line.trim().is_empty() {
            in_tags = is_tag;
        }
        offset += line.len();
    }
    starts.iter().enumerate().map(|(i, &s)| &text[s..starts.get(i + 1).copied().unwrap_or(text.len())]).collect()
}

/// `chuhan match merge …`
pub fn run(args: MergeArgs) -> Result<(), String> {
    let mut games: BTreeMap<u64, Game> = BTreeMap::new();
    // (engines, limit, rules) and the file that first said so.
    let mut heading: Option<([String; 2], String, String, usize)> = None;
    let mut unfinished = 0;
    for (file, path) in args.inputs.iter().enumerate() {
        let bytes = std::fs::read(path).map_err(|e| format!("match merge: cannot read '{path}': {e}"))?;
        let text = pgn::decode(&bytes).0;
        for chunk in game_texts(&text) {
            let parsed = pgn::parse(chunk);
            let [game] = parsed.as_slice() else {
                return Err(format!("match merge: {path}: a game that does not read as one PGN game:\n{chunk}"));
            };
            // The result token closes the move text: a game without one was torn by a kill while it was written.
            let Some(result) = game.result.as_deref().and_then(GameResult::from_pgn) else {
                unfinished += 1;
                continue;
            };
            let round = game.tag("Round").and_then(|r| r.parse::<u64>().ok()).filter(|&r| r >= 1);
            let index = round.ok_or_else(|| format!("match merge: {path}: a game without a Round number"))? - 1;
            let what = format!("match merge: {path}: game {}", index + 1);
            let (red, black) =
                (game.tag("Red").unwrap_or("?").to_string(), game.tag("Black").unwrap_or("?").to_string());
            // Both games of a pair share an opening; the first engine has Red in the first of them.
            let first_is_red = index % 2 == 0;
            let engines = if first_is_red { [red, black] } else { [black, red] };
            let limit = game.tag("Limit").unwrap_or("?").to_string();
            let rules = game.tag("Rules").unwrap_or("?").to_string();
            match &heading {
                None => heading = Some((engines.clone(), limit, rules, file)),
                Some((e, l, r, f)) => {
                    let first = &args.inputs[*f];
                    if *e != engines {
                        return Err(format!(
                            "{what} is {} vs {}, but {first} has {} vs {}: not one match",
                            engines[0], engines[1], e[0], e[1]
                        ));
                    }
                    if *l != limit || *r != rules {
                        return Err(format!(
                            "{what} was played at {limit} under the {rules} rules, but {first} at {l} under the {r} \
                             rules: not one match"
                        ));
                    }
                }
            }
            let red_points = match result {
                GameResult::RedWins => 1.0,
                GameResult::BlackWins => 0.0,
                _ => 0.5,
            };
            let points = if first_is_red { red_points } else { 1.0 - red_points };
            let reason = game.tag("Termination").unwrap_or("?").to_string();
            let mut text = chunk.trim_end().to_string();
            text.push_str("\n\n");
            if let Some(other) = games.insert(index, Game { file, points, reason, text }) {
                return Err(format!("{what} is also in {}", args.inputs[other.file]));
            }
        }
    }
    let Some((engines, limit, rules, _)) = heading else {
        return Err(format!("match merge: no finished game in {}", args.inputs.join(", ")));
    };
    let last = games.keys().next_back().copied().unwrap_or(0);
    let missing: Vec<u64> = (0..=last).filter(|i| !games.contains_key(i)).map(|i| i + 1).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(20).map(u64::to_string).collect();
        let more = if missing.len() > 20 { ", …" } else { "" };
        eprintln!("match merge: {} of rounds 1-{} in no file: {}{more}", missing.len(), last + 1, shown.join(", "));
    }
    if unfinished > 0 {
        eprintln!("match merge: {unfinished} unfinished games left out (a shard stopped while writing them)");
    }
    let h = Heading { engines, limit, rules, sprt: args.sprt, games: games.len() as u64 };
    let mut results = Results::default();
    for (&index, g) in &games {
        results.add(index, g.points, &g.reason);
        results.sprt_decided(h.sprt);
    }
    if let Some(path) = &args.pgn {
        let all: String = games.values().map(|g| g.text.as_str()).collect();
        std::fs::write(path, all).map_err(|e| format!("match merge: cannot write '{path}': {e}"))?;
    }
    print!("{}", results.report(&h));
    if let Some(path) = &args.json {
        std::fs::write(path, results.summary_json(&h) + "\n")
            .map_err(|e| format!("match merge: cannot write '{path}': {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_split_at_their_tags() {
        let text = "[Round \"1\"]\n[Red \"a\"]\n\n1. H2-E2 {+0.10/3 0.001s} 1-0\n\n[Round \"2\"]\n\n1. H2-E2\n\
                    [Round \"3\"]\n\n0-1\n";
        let games = game_texts(text);
        assert_eq!(games.len(), 3);
        assert!(games[0].starts_with("[Round \"1\"]\n[Red") && games[0].ends_with("1-0\n\n"));
        assert_eq!(games[1], "[Round \"2\"]\n\n1. H2-E2\n");
        assert_eq!(games[2], "[Round \"3\"]\n\n0-1\n");
        assert!(game_texts("no games here\n").is_empty());
    }
}
