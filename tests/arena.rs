//! `chuhan match` end to end: a short match between two copies of Chuhan over both dialects, whose PGN reads
//! back through `chuhan judge`; and scripted fake engines (tests/fakes/engine.sh) that crash, hang, play an
//! illegal move, lose on time, give no move, offer draws and resign.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_chuhan");

fn chuhan(args: &[String]) -> (String, String, i32) {
    let out = Command::new(BIN).args(args).output().expect("run chuhan");
    (
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
        out.status.code().unwrap_or(-1),
    )
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn fake(mode: &str) -> Vec<String> {
    let script = format!("{}/tests/fakes/engine.sh", env!("CARGO_MANIFEST_DIR"));
    strings(&["--engine", "cmd=bash", &format!("arg={script}"), &format!("arg={mode}"), &format!("name=fake-{mode}")])
}

fn real(name: &str, proto: &str) -> Vec<String> {
    strings(&["--engine", &format!("cmd={BIN}"), &format!("name={name}"), &format!("proto={proto}")])
}

fn tmp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("chuhan-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into()
}

/// Runs a match of `a` against `b` with extra flags; returns stdout.
fn play(a: Vec<String>, b: Vec<String>, extra: &[&str]) -> String {
    let mut args = vec!["match".to_string()];
    args.extend(a);
    args.extend(b);
    args.extend(strings(extra));
    args.push("--quiet".into());
    let (out, err, code) = chuhan(&args);
    assert_eq!(code, 0, "{err}\n{out}");
    out
}

#[test]
fn chuhan_against_itself_over_both_dialects() {
    let (pgn, json) = (tmp("self.pgn"), tmp("self.json"));
    let out = play(
        real("uci-side", "uci"),
        real("ucci-side", "ucci"),
        &["--depth", "2", "--games", "4", "--concurrency", "2", "--maxmoves", "80", "--pgn", &pgn, "--json", &json],
    );
    assert!(out.contains("Games: 4,"), "{out}");
    let summary = std::fs::read_to_string(&json).unwrap();
    assert!(summary.starts_with(r#"{"engines":["uci-side","ucci-side"],"games":4,"#), "{summary}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event \"Chuhan match\"]").count(), 4);
    assert_eq!(text.matches("[Format \"ICCS\"]").count(), 4);
    // Each engine move carries cutechess-cli's comment: score in pawns, depth, seconds (`{+0.35/2 0.004s}`).
    let first = text.lines().find(|l| l.starts_with("1. ")).unwrap();
    assert!(first.contains("/2 0.") && first.contains("s} "), "{first}");
    // The PGN reads back through the referee, and games the referee ended end the same way there.
    let (verdicts, err, code) = chuhan(&strings(&["judge", "--pgn", &pgn, "--json"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(verdicts.lines().count(), 4);
    let results: Vec<&str> = text.lines().filter(|l| l.starts_with("[Result ")).collect();
    let terminations: Vec<&str> = text.lines().filter(|l| l.starts_with("[Termination ")).collect();
    for ((v, r), t) in verdicts.lines().zip(results).zip(terminations) {
        if t.contains("maximum length") {
            continue;
        }
        let expected = match r {
            "[Result \"1-0\"]" => "red_wins",
            "[Result \"0-1\"]" => "black_wins",
            _ => "draw",
        };
        assert!(v.contains(&format!(r#""result":"{expected}""#)), "{v} vs {r} {t}");
    }
}

#[test]
fn crashing_engine_loses_and_is_restarted() {
    let out = play(real("chuhan", "uci"), fake("crash"), &["--depth", "1", "--games", "4"]);
    assert!(out.contains("Wins: 4, Draws: 0, Losses: 0"), "{out}");
    assert!(out.contains("fake-crash crashed 4"), "{out}");
}

#[test]
fn hung_engine_loses() {
    let out = play(real("chuhan", "uci"), fake("hang"), &["--depth", "1", "--games", "2", "--hang-timeout", "1"]);
    assert!(out.contains("Wins: 2,"), "{out}");
    assert!(out.contains("engine hung 2"), "{out}");
}

#[test]
fn illegal_move_loses() {
    let out = play(fake("illegal"), real("chuhan", "ucci"), &["--depth", "1", "--games", "2"]);
    assert!(out.contains("Wins: 0, Draws: 0, Losses: 2"), "{out}");
    assert!(out.contains("illegal move a0a9 2"), "{out}");
}

#[test]
fn flag_fall_loses() {
    let out = play(real("chuhan", "uci"), fake("slow"), &["--tc", "0.5+0", "--games", "2", "--timemargin", "50"]);
    assert!(out.contains("Wins: 2,"), "{out}");
    assert!(out.contains("time forfeit 2"), "{out}");
}

/// An engine's own `movetime=MS` replaces the match's limit for it: the slow fake (2 s a move) is not flagged
/// under a 200 ms match limit when it has 3 s of its own; it loses by its second move, illegal, instead.
#[test]
fn an_engines_own_movetime() {
    let mut slow = fake("slow");
    slow.push("movetime=3000".into());
    let out = play(slow, real("chuhan", "uci"), &["--movetime", "200", "--games", "1", "--timemargin", "50"]);
    assert!(out.contains("Wins: 0, Draws: 0, Losses: 1"), "{out}");
    assert!(out.contains("illegal move") && !out.contains("time forfeit"), "{out}");
}

#[test]
fn no_move_loses() {
    let out = play(real("chuhan", "ucci"), fake("nomove"), &["--depth", "1", "--games", "2"]);
    assert!(out.contains("Wins: 2,"), "{out}");
    assert!(out.contains("fake-nomove gave no move 2"), "{out}");
}

#[test]
fn draw_offers_and_resignations() {
    let drawer = |name: &str| {
        let script = format!("{}/tests/fakes/engine.sh", env!("CARGO_MANIFEST_DIR"));
        strings(&[
            "--engine",
            "cmd=bash",
            &format!("arg={script}"),
            "arg=wrap-draw",
            &format!("arg={BIN}"),
            "proto=ucci",
            &format!("name={name}"),
        ])
    };
    let out = play(drawer("d1"), drawer("d2"), &["--depth", "1", "--games", "2"]);
    assert!(out.contains("Draws: 2,"), "{out}");
    assert!(out.contains("draw agreed 2"), "{out}");
    let script = format!("{}/tests/fakes/engine.sh", env!("CARGO_MANIFEST_DIR"));
    let resigner = strings(&[
        "--engine",
        "cmd=bash",
        &format!("arg={script}"),
        "arg=wrap-resign",
        &format!("arg={BIN}"),
        "proto=ucci",
        "name=quitter",
    ]);
    let out = play(real("chuhan", "uci"), resigner, &["--depth", "1", "--games", "2"]);
    assert!(out.contains("Wins: 2,"), "{out}");
    assert!(out.contains("quitter resigns 2"), "{out}");
}

#[test]
fn sprt_stops_the_match_when_it_decides() {
    let json = tmp("sprt.json");
    let out = play(
        real("chuhan", "uci"),
        fake("crash"),
        &[
            "--depth",
            "1",
            "--games",
            "400",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0 elo1=10 alpha=0.05 beta=0.05",
            "--json",
            &json,
        ],
    );
    assert!(out.contains("H1 accepted"), "{out}");
    let summary = std::fs::read_to_string(&json).unwrap();
    assert!(summary.contains(r#""decision":"H1""#), "{summary}");
    let games: u64 = summary.split(r#""games":"#).nth(1).unwrap().split(',').next().unwrap().parse().unwrap();
    assert!(games < 400, "{games}");
}

#[test]
fn bad_arguments_are_refused() {
    for (args, needle) in [
        (vec!["match"], "--engine <KEY=VALUE>"),
        (vec!["match", "--engine", "cmd=x", "--depth", "1"], "exactly two --engine"),
        (vec!["match", "--engine", "cmd=x", "--engine", "cmd=y"], "give a limit"),
        (vec!["match", "--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast"], "--tc 'fast'"),
        (vec!["match", "--engine", "proto=uci", "--engine", "cmd=y", "--depth", "1"], "needs cmd=PATH"),
        (vec!["match", "--engine", "cmd=/nonexistent/engine", "--engine", "cmd=y", "--depth", "1"], "cannot start"),
        (
            vec!["match", "--engine", "cmd=x", "--engine", "cmd=y", "--depth", "1", "--sprt", "elo0=5 elo1=0"],
            "elo1 must be",
        ),
        (
            vec!["match", "--engine", "cmd=x", "--engine", "cmd=y", "--depth", "1", "--bogus"],
            "unexpected argument '--bogus'",
        ),
    ] {
        let (out, err, code) = chuhan(&strings(&args));
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_stopped_match_resumes_from_its_pgn() {
    let (pgn, json) = (tmp("resume.pgn"), tmp("resume.json"));
    let args = |games: &str, seed: &str, resume: bool| {
        let mut v = vec!["match".to_string()];
        v.extend(real("first", "uci"));
        v.extend(real("second", "ucci"));
        v.extend(strings(&["--depth", "1", "--maxmoves", "60", "--seed", seed, "--games", games]));
        v.extend(strings(&["--pgn", &pgn, "--json", &json, "--quiet"]));
        if resume {
            v.push("--resume".into());
        }
        v
    };
    let (_, err, code) = chuhan(&args("4", "7", false));
    assert_eq!(code, 0, "{err}");
    let full = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = full.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 4);
    // Killed while writing game 4: three whole games and a torn one (no result) are left.
    let torn = &games[3][..games[3].find("1. ").unwrap() + 3];
    let kept = format!("[Event {}[Event {}[Event {}", games[0], games[1], games[2]);
    std::fs::write(&pgn, format!("{kept}[Event {torn}\n")).unwrap();
    let (out, err, code) = chuhan(&args("6", "7", true));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Games: 6,"), "{out}");
    let summary = std::fs::read_to_string(&json).unwrap();
    assert!(summary.contains(r#""games":6,"#), "{summary}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.starts_with(&kept));
    for round in 1..=6 {
        let expected = if round == 4 { 2 } else { 1 }; // the torn game 4 stays in the file, unread
        assert_eq!(text.matches(&format!("[Round \"{round}\"]")).count(), expected, "{round}");
    }
    // Game 4 played again from the same opening, in the same colours.
    let redo = text.split("[Event ").filter(|g| g.contains("[Round \"4\"]")).last().unwrap().to_string();
    let head = |g: &str| -> Vec<String> {
        g.lines().filter(|l| l.starts_with("[Red") || l.starts_with("[FEN")).map(String::from).collect()
    };
    assert_eq!(head(&redo), head(games[3]));
    // Other arguments than the stopped match's are refused, not mixed in.
    for (games, seed, needle) in [("6", "8", "same --openings and --seed"), ("5", "7", "past this match's 5 games")] {
        let (out, err, code) = chuhan(&args(games, seed, true));
        assert_ne!(code, 0, "{out}");
        assert!(err.contains(needle), "{games} {seed}: {err}");
    }
}

/// The moves of every game of a match's PGN by round number, comments (scores, times) left out.
fn games_by_round(pgn: &str) -> std::collections::BTreeMap<u64, String> {
    let mut out = std::collections::BTreeMap::new();
    for game in pgn.split("[Event ").skip(1) {
        let round: u64 = game.split("[Round \"").nth(1).and_then(|r| r.split('"').next()).unwrap().parse().unwrap();
        let body = game.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join(" ");
        let (mut moves, mut depth) = (String::new(), 0);
        for c in body.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => moves.push(c),
                _ => {}
            }
        }
        assert!(out.insert(round, moves.split_whitespace().collect::<Vec<_>>().join(" ")).is_none(), "round {round}");
    }
    out
}

/// `--shard K/N` plays the pairs numbered K modulo N: at a fixed depth two shards together give exactly the games
/// of the whole match, numbered as in it, and `match merge` gives the whole match's report and JSON summary.
#[test]
fn match_shards_play_the_whole_match_between_them() {
    // (games by round, report, JSON summary)
    let run = |name: &str, shard: Option<&str>| {
        let (pgn, json) = (tmp(&format!("{name}.pgn")), tmp(&format!("{name}.json")));
        let mut extra = vec!["--depth", "3", "--games", "8", "--maxmoves", "60", "--concurrency", "2"];
        extra.extend(["--pgn", &pgn, "--json", &json]);
        if let Some(s) = shard {
            extra.extend(["--shard", s]);
        }
        let report = play(real("a", "uci"), real("b", "ucci"), &extra);
        (games_by_round(&std::fs::read_to_string(&pgn).unwrap()), report, std::fs::read_to_string(&json).unwrap())
    };
    let (whole, whole_report, whole_json) = run("whole", None);
    let ((s0, ..), (s1, ..)) = (run("s0", Some("0/2")), run("s1", Some("1/2")));
    assert_eq!(whole.keys().copied().collect::<Vec<_>>(), (1..=8).collect::<Vec<u64>>());
    assert_eq!(s0.keys().copied().collect::<Vec<_>>(), [1, 2, 5, 6], "pairs 0 and 2");
    assert_eq!(s1.keys().copied().collect::<Vec<_>>(), [3, 4, 7, 8], "pairs 1 and 3");
    let mut both = s0.clone();
    both.extend(s1);
    assert_eq!(both, whole);

    // The merge, shards in any order: the unsharded run's report and summary to the byte, its games in order.
    let (merged_pgn, merged_json) = (tmp("merged.pgn"), tmp("merged.json"));
    let merge = |files: &[&str], extra: &[&str]| {
        let mut args = strings(&["match", "merge"]);
        args.extend(files.iter().map(|f| tmp(f)));
        args.extend(strings(extra));
        chuhan(&args)
    };
    let (report, err, code) = merge(&["s1.pgn", "s0.pgn"], &["--json", &merged_json, "--pgn", &merged_pgn]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert!(whole_report.starts_with("Results of a vs b (depth 3, chinese rules, 8 games):\n"), "{whole_report}");
    assert_eq!(report, whole_report);
    assert_eq!(std::fs::read_to_string(&merged_json).unwrap(), whole_json);
    let merged = std::fs::read_to_string(&merged_pgn).unwrap();
    assert_eq!(games_by_round(&merged), whole);
    let rounds: Vec<u64> = merged
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|r| r.trim_end_matches("\"]").parse().unwrap())
        .collect();
    assert_eq!(rounds, (1..=8).collect::<Vec<u64>>(), "in round order");

    // With an SPRT: its state over all the games.
    let (report, _, code) = merge(&["s0.pgn", "s1.pgn"], &["--sprt", "elo0=0 elo1=5"]);
    assert_eq!(code, 0);
    assert!(report.contains("SPRT: elo0 0 elo1 5 alpha 0.05 beta 0.05: LLR "), "{report}");
    assert!(report.contains("— no decision yet\n"), "{report}");

    // One shard alone: its games, and the rounds no file holds named.
    let (report, err, code) = merge(&["s1.pgn"], &[]);
    assert_eq!(code, 0);
    assert!(report.contains("(depth 3, chinese rules, 4 games)"), "{report}");
    assert_eq!(err, "match merge: 4 of rounds 1-8 in no file: 1, 2, 5, 6\n");

    // A game twice, or games of another match, are refused.
    let (_, err, code) = merge(&["s0.pgn", "whole.pgn"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("whole.pgn: game 1 is also in"), "{err}");
    let other = tmp("other.pgn");
    let text = std::fs::read_to_string(tmp("s1.pgn")).unwrap();
    std::fs::write(&other, text.replace("[Limit \"depth 3\"]", "[Limit \"depth 4\"]")).unwrap();
    let (_, err, code) = merge(&["s0.pgn", "other.pgn"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("was played at depth 4 under the chinese rules, but"), "{err}");

    // An SPRT is the whole match's: a shard refuses one.
    let shard_sprt = [
        "match",
        "--engine",
        "cmd=x",
        "--engine",
        "cmd=y",
        "--depth",
        "1",
        "--shard",
        "0/2",
        "--sprt",
        "elo0=0 elo1=5",
    ];
    let (_, err, code) = chuhan(&strings(&shard_sprt));
    assert_eq!(code, 2);
    assert!(err.contains("give --sprt to `chuhan match merge`"), "{err}");
    let (_, err, code) =
        chuhan(&strings(&["match", "--engine", "cmd=x", "--engine", "cmd=y", "--depth", "1", "--shard", "2/2"]));
    assert_eq!(code, 2);
    assert!(err.contains("'2/2' is not K/N"), "{err}");
}
