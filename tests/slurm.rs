//! The cluster scripts on a live Slurm: `scripts/slurm-local.sh up` starts a one-node cluster, then a 4-shard
//! datagen array (`scripts/datagen-cluster.sh slurm`) and a 4-shard match array (`scripts/match-cluster.sh
//! slurm`) run through sbatch, one shard of each failing on its first try so that the scripts must resubmit
//! it; the merged results must equal the unsharded runs. The cluster is taken down at the end.
//!
//! Needs root and Debian's `slurm-wlm` and `munge`; runs only with `CHUHAN_SLURM=1` (about a minute):
//!
//! ```sh
//! CHUHAN_SLURM=1 cargo test --release --test slurm -- --nocapture
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_chuhan");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs a command; returns (stdout, stderr) after checking that it succeeded.
fn run(cmd: &mut Command) -> (String, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into());
    assert!(out.status.success(), "{cmd:?} failed ({}):\n{stdout}\n{stderr}", out.status);
    (stdout, stderr)
}

fn script(name: &str) -> Command {
    let mut c = Command::new("bash");
    c.arg(format!("{ROOT}/scripts/{name}"));
    c
}

/// Takes the cluster down however the test ends.
struct Cluster;

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = script("slurm-local.sh").arg("down").status();
    }
}

/// A `chuhan` that fails the first time it is asked for shard 2 of 4 (leaving `marker` behind), as a node
/// that dies would: the cluster script must notice and submit that shard again.
fn flaky_chuhan(dir: &Path, marker: &str) -> PathBuf {
    let path = dir.join(format!("chuhan-{marker}"));
    let mark = dir.join(marker);
    let text = format!(
        "#!/usr/bin/env bash\ncase \" $* \" in *\" --shard 2/4 \"*)\n  if [ ! -e {m} ]; then touch {m}; \
         echo 'injected failure' >&2; exit 1; fi;;\nesac\nexec {BIN} \"$@\"\n",
        m = mark.display()
    );
    std::fs::write(&path, text).unwrap();
    run(Command::new("chmod").arg("+x").arg(&path));
    path
}

/// Each game's round and moves (comments, which hold timings, left out).
fn games_by_round(pgn: &str) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    for game in pgn.split("[Event ").skip(1) {
        let round = game.split("[Round \"").nth(1).and_then(|r| r.split('"').next()).unwrap().parse().unwrap();
        let body: String = game.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join(" ");
        let mut depth = 0;
        let moves: String = body
            .chars()
            .filter(|&c| {
                depth += (c == '{') as i32;
                let keep = depth == 0;
                depth -= (c == '}') as i32;
                keep
            })
            .collect();
        out.push((round, moves.split_whitespace().collect::<Vec<_>>().join(" ")));
    }
    out.sort();
    out
}

#[test]
fn datagen_and_match_arrays_on_a_live_slurm() {
    if std::env::var("CHUHAN_SLURM").as_deref() != Ok("1") {
        eprintln!("skipped: set CHUHAN_SLURM=1 to run the cluster scripts on a local Slurm (needs root)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("chuhan-slurm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (up, _) = run(script("slurm-local.sh").arg("up"));
    println!("{}", up.trim());
    let _cluster = Cluster;

    // Datagen: 4 shards of 24 games at 300 nodes, against one unsharded run of the same seed.
    let shards = dir.join("datagen");
    let flaky = flaky_chuhan(&dir, "datagen-failed-once");
    let (_, log) =
        run(script("datagen-cluster.sh").env("CHUHAN", &flaky).args(["slurm", "4", "24", "5", "300"]).arg(&shards));
    println!("{}", log.trim());
    assert!(dir.join("datagen-failed-once").exists(), "the injected failure happened");
    assert!(log.contains("datagen-cluster: shards not finished: 2 (they resume)"), "{log}");
    let whole = dir.join("whole.xqg");
    run(Command::new(BIN)
        .args(["datagen", "--games", "24", "--seed", "5", "--nodes", "300", "--threads", "1"])
        .args(["--quiet", "--out"])
        .arg(&whole));
    let canonical = dir.join("whole-merged.xqg");
    run(Command::new(BIN).args(["datagen", "merge", "--out"]).arg(&canonical).arg(&whole));
    let merged = std::fs::read(shards.join("merged.xqg")).unwrap();
    assert!(merged == std::fs::read(&canonical).unwrap(), "the merged shards differ from the unsharded run");
    println!("datagen: 4 shards merged = the unsharded run ({} bytes)", merged.len());

    // A match: 4 shards of 12 games at 400 nodes a move, against one unsharded run.
    let engines = [
        "--engine".to_string(),
        format!("cmd={BIN}"),
        "name=uci-side".into(),
        "--engine".into(),
        format!("cmd={BIN}"),
        "name=ucci-side".into(),
        "proto=ucci".into(),
    ];
    let limits = ["--nodes", "400", "--games", "12", "--maxmoves", "80"];
    let shards = dir.join("match");
    let flaky = flaky_chuhan(&dir, "match-failed-once");
    let (report, log) = run(script("match-cluster.sh")
        .env("CHUHAN", &flaky)
        .env("SPRT", "elo0=0 elo1=5")
        .args(["slurm", "4"])
        .arg(&shards)
        .arg("--")
        .args(&engines)
        .args(limits));
    println!("{}\n{}", log.trim(), report.trim());
    assert!(dir.join("match-failed-once").exists(), "the injected failure happened");
    assert!(log.contains("match-cluster: shards not finished: 2 (they resume)"), "{log}");
    let (pgn, json) = (dir.join("whole.pgn"), dir.join("whole.json"));
    let (whole_report, _) = run(Command::new(BIN)
        .arg("match")
        .args(&engines)
        .args(limits)
        .args(["--sprt", "elo0=0 elo1=5", "--quiet", "--pgn"])
        .arg(&pgn)
        .arg("--json")
        .arg(&json));
    assert_eq!(report, whole_report);
    assert_eq!(std::fs::read_to_string(shards.join("merged.json")).unwrap(), std::fs::read_to_string(&json).unwrap());
    let games = games_by_round(&std::fs::read_to_string(shards.join("merged.pgn")).unwrap());
    assert_eq!(games.len(), 12);
    assert_eq!(games, games_by_round(&std::fs::read_to_string(&pgn).unwrap()));
    println!("match: 4 shards merged = the unsharded run (report, JSON summary, the 12 games' moves)");
}
