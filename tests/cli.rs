//! The binary as a person or a GUI uses it: `chuhan perft …` and `go perft` in the protocol loop.

use chuhan::board::perft::reference_fen;
use std::io::Write;
use std::process::{Command, Stdio};

fn chuhan(args: &[&str], stdin: &str) -> (String, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn chuhan");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn perft_subcommand() {
    let (out, err, code) = chuhan(&["perft", "3"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "Nodes searched: 79666\n");
    assert!(err.contains("perft 3: 79666 nodes"), "{err}");

    // A FEN given as several words, without its counters.
    let board = reference_fen("fsf2").split_whitespace().next().unwrap();
    let (out, _, code) = chuhan(&["perft", "2", "--divide", "--fen", board, "w"], "");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13 + 2);
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 272");
    let sum: u64 = lines[..13].iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 272);

    let (out, _, code) = chuhan(&["perft", "3", "--moves", "h2e2 h9g7", "--threads", "2"], "");
    assert_eq!(code, 0);
    assert_eq!(out, "Nodes searched: 51045\n");
}

#[test]
fn perft_refuses_bad_arguments() {
    for (args, needle) in [
        (vec!["perft"], "<DEPTH>"),
        (vec!["perft", "x"], "not a number"),
        (vec!["perft", "21"], "out of range 0-20"),
        (vec!["perft", "3", "--fen", "bad"], "bad --fen"),
        (vec!["perft", "3", "--moves", "h2h8"], "move 1"),
        (vec!["perft", "3", "--threads", "0"], "--threads"),
        (vec!["perft", "3", "--bogus"], "unexpected argument '--bogus'"),
        (vec!["perft", "3", "--thread", "2"], "a similar argument exists: '--threads'"),
        (vec!["frobnicate"], "unrecognized subcommand 'frobnicate'"),
    ] {
        let (out, err, code) = chuhan(&args, "");
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn go_perft_in_the_protocol_loop() {
    let (out, _, code) = chuhan(&[], "ucci\nposition startpos moves h2e2\ngo perft 1\nquit\n");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"ucciok"));
    assert!(lines.contains(&"h9g7: 1"));
    assert!(lines.contains(&"Nodes searched: 45"));
    assert_eq!(*lines.last().unwrap(), "bye");

    let (out, _, _) = chuhan(&[], &format!("uci\nposition fen {}\ngo perft 4\n", reference_fen("fsf2")));
    assert!(out.lines().any(|l| l == "Nodes searched: 92741"), "{out}");

    // Bad input is reported and the previous position kept.
    let (out, _, _) = chuhan(&[], "uci\nposition fen garbage\nposition startpos moves h2h8\n\u{1}\u{ff}\ngo perft 1\n");
    assert!(out.contains("info string error: bad FEN"), "{out}");
    assert!(out.contains("info string error: move 'h2h8'"), "{out}");
    assert!(out.lines().any(|l| l == "Nodes searched: 44"), "{out}");
}

#[test]
fn judge_reports_a_forbidden_chase() {
    let (out, err, code) = chuhan(
        &[
            "judge",
            "--fen",
            "4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1",
            "--moves",
            "b1a1 a7b7 a1b1 b7a7 b1a1 a7b7 a1b1 b7a7",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Result: black wins — forbidden repetition (禁止着法)\n"), "{out}");
    assert!(out.contains("b1a1  车八平九  捉 chase — rook on a1 attacks the unprotected cannon on a7"), "{out}");
    assert!(out.contains("a7b7  炮1平2  闲 idle"), "{out}");
    assert!(out.contains("red: 禁止 forbidden"), "{out}");
    assert!(out.contains("1999 §25.2, §26.4"), "{out}");
}

/// `--chase-checks`: the chase through two checks (checks win the cannon) makes the cycle 长捉; read with one
/// check it is 一捉一闲 and a draw. Out of range is refused.
#[test]
fn judge_chase_checks_option() {
    let args = |n: &'static str| {
        let fen = "5a3/3k5/9/9/4c4/9/9/9/4n2R1/5K3 w - - 0 1";
        let moves = "h1h6 f9e8 h6h1 e8f9 h1h6 f9e8 h6h1 e8f9";
        ["judge", "--fen", fen, "--moves", moves, "--chase-checks", n]
    };
    let (out, _, code) = chuhan(&args("3"), "");
    assert_eq!(code, 0);
    assert!(out.starts_with("Result: black wins — forbidden repetition"), "{out}");
    assert!(out.contains("h1h6  车二进五  捉 chase — checks win the cannon on e5"), "{out}");
    let (out, _, _) = chuhan(&args("1"), "");
    assert!(out.starts_with("Result: draw — repetition, draw"), "{out}");
    let (_, err, code) = chuhan(&args("9"), "");
    assert_eq!(code, 2);
    assert!(err.contains("--chase-checks"), "{err}");
}

#[test]
fn judge_json() {
    let (out, _, code) = chuhan(
        &[
            "judge",
            "--fen",
            "9/3nk4/9/9/3R5/9/9/9/9/3K5 w - - 0 1",
            "--moves",
            "d5e5 e8f8 e5d5 f8e8 d5e5 e8f8 e5d5 f8e8",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1);
    assert!(out.starts_with(r#"{"result":"black_wins","reason":"forbidden_repetition","rules":"chinese""#), "{out}");
    assert!(out.contains(r#""move":"d5e5","chinese":"车六平五","label":"check","chased":[]"#), "{out}");
    assert!(out.contains(r#""move":"e5d5","chinese":"车五平六","label":"chase","chased":["d8"]"#), "{out}");
    assert!(out.contains(r#""occurrences":[0,4,8],"red":"forbidden","black":"allowed"}"#), "{out}");
    // The Asian rules allow one check one chase.
    let (out, _, _) = chuhan(
        &[
            "judge",
            "--fen",
            "9/3nk4/9/9/3R5/9/9/9/9/3K5 w - - 0 1",
            "--moves",
            "d5e5 e8f8 e5d5 f8e8 d5e5 e8f8 e5d5 f8e8",
            "--rules",
            "asian",
            "--json",
        ],
        "",
    );
    assert!(out.starts_with(r#"{"result":"draw","reason":"repetition_draw","rules":"asian""#), "{out}");
    // A game still going on.
    let (out, _, code) = chuhan(&["judge", "--moves", "h2e2 h9g7", "--json"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with(r#"{"result":"ongoing","reason":"ongoing""#), "{out}");
    assert!(out.contains(r#""labels":[]"#), "{out}");
}

#[test]
fn judge_pgn_files() {
    let dir = std::env::temp_dir().join(format!("chuhan-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn");
    std::fs::write(
        &path,
        "[Event \"Perpetual check\"]\n[FEN \"4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1\"]\n[Format \"ICCS\"]\n\n\
         1. F5-E5 E9-F9 2. E5-F5 F9-E9 3. F5-E5 E9-F9 4. E5-F5 F9-E9 0-1\n\n\
         [Event \"Chinese notation\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n",
    )
    .unwrap();
    let (out, err, code) = chuhan(&["judge", "--pgn", path.to_str().unwrap(), "--json"], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    let prefix = format!(
        r#"{{"file":"{}","game":1,"red":"","black":"","recorded":"0-1","mismatch":false,"verdict":{{"result":"black_wins","reason":"perpetual_check""#,
        path.display()
    );
    assert!(lines[0].starts_with(&prefix), "{out}");
    assert!(lines[1].contains(r#""game":2,"#) && lines[1].contains(r#""verdict":{"result":"ongoing""#), "{out}");
    assert!(err.contains("2 games read: 1 decided by the rules, 1 unfinished"), "{err}");

    // A directory of real-world files: an xqbase download (GBK, CRLF, a footer), a game recorded as a draw
    // that the rules call a perpetual-check loss, and a game with an illegal move.
    let sub = dir.join("collection");
    std::fs::create_dir_all(&sub).unwrap();
    let xqbase = "[Game \"Chinese Chess\"]\r\n[Red \"许银川\"]\r\n[Black \"吕钦\"]\r\n[Result \"1-0\"]\r\n\
                  1. 炮二平五 马８进７ 2. 马二进三 1-0\r\n======================\r\n欢迎访问《象棋百科全书网》\r\n";
    std::fs::write(sub.join("a.pgn"), encoding_rs::GBK.encode(xqbase).0).unwrap();
    std::fs::write(
        sub.join("b.PGN"),
        "[Result \"1/2-1/2\"]\n[FEN \"4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1\"]\n\
         1. f5e5 e9f9 2. e5f5 f9e9 3. f5e5 e9f9 4. e5f5 f9e9 1/2-1/2\n\n[Result \"1-0\"]\n1. h2e2 h2e2 1-0\n",
    )
    .unwrap();
    std::fs::write(sub.join("notes.txt"), "not a game").unwrap();
    // WXF notation, UTF-8 with a BOM.
    std::fs::write(sub.join("c.pgn"), "\u{feff}[Result \"*\"]\n1. C2.5 H8+7 2. H2+3 R9.8 *\n").unwrap();
    let (out, err, code) = chuhan(&["judge", "--pgn", sub.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("— 许银川 vs 吕钦\nRecorded: 1-0\nResult: game continues"), "{out}");
    assert!(out.contains("Recorded: 1/2-1/2\nResult: black wins — perpetual check"), "{out}");
    assert!(out.contains("MISMATCH: recorded 1/2-1/2, but the rules give black wins"), "{out}");
    assert!(out.contains("Game 2 of") && out.contains("cannot be read: move 2 ('h2e2')"), "{out}");
    assert!(
        out.trim_end().ends_with(
            "4 games read: 1 decided by the rules, 2 unfinished (resigned, agreed or cut short), \
             1 mismatches with the recorded result, 1 unreadable"
        ),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Garbage bytes given as a game file: a clear error, no panic.
#[test]
fn judge_garbage_file() {
    let path = std::env::temp_dir().join(format!("chuhan-garbage-{}.pgn", std::process::id()));
    let bytes: Vec<u8> = (0..4000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&path, bytes).unwrap();
    let (out, err, code) = chuhan(&["judge", "--pgn", path.to_str().unwrap()], "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("no game could be read") && out.contains("cannot be read") && !err.contains("panicked"),
        "{err}"
    );
    std::fs::remove_file(&path).ok();
}

#[test]
fn judge_refuses_bad_input() {
    for (args, needle) in [
        (vec!["judge", "--moves", "h2e2 h2e2"], "move 2 ('h2e2')"),
        (vec!["judge", "--fen", "nonsense"], "bad --fen"),
        (vec!["judge", "--pgn", "/nonexistent/file.pgn"], "cannot read"),
        (vec!["judge", "--rules", "martian"], "not a rule set"),
        (vec!["judge", "--frob"], "unexpected argument '--frob'"),
        (vec!["judge", "--pgn", "a.pgn", "--moves", "h2e2"], "cannot be used with"),
    ] {
        let (out, err, code) = chuhan(&args, "");
        assert_ne!(code, 0, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn params_subcommand() {
    let (out, err, code) = chuhan(&["params", "--spsa"], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), chuhan::search::params::ALL.len());
    assert!(lines.contains(&"nmp_base, int, 3, 1, 6, 1, 0.002"), "{out}");
    let (out, _, code) = chuhan(&["params"], "");
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("razor_base") && l.contains(" 450 ")), "{out}");
    let (_, err, code) = chuhan(&["params", "--frob"], "");
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unexpected argument '--frob' found"), "{err}");
}

/// Games of a data file, sorted by (seed, index).
fn games_in(path: &std::path::Path) -> Vec<chuhan::tools::xqg::Game> {
    let mut g = chuhan::tools::xqg::read(path.to_str().unwrap()).unwrap();
    g.sort_by_key(|g| (g.seed, g.index));
    g
}

/// Shards of one seed are disjoint and merge into the unsharded data; a run killed in the middle of a write
/// resumes without losing or repeating a game.
#[test]
fn datagen_shards_merge_and_resume() {
    let dir = std::env::temp_dir().join(format!("chuhan-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name);
    let gen = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["datagen", "--games", "48", "--nodes", "300", "--threads", "2", "--seed", "5"];
        args.extend_from_slice(extra);
        let out = out.to_str().unwrap().to_string();
        args.extend_from_slice(&["--out", &out]);
        let (_, err, code) = chuhan(&args, "");
        assert_eq!(code, 0, "{err}");
        err
    };
    let err = gen(&p("full.xqg"), &[]);
    let full = games_in(&p("full.xqg"));
    assert!(full.len() >= 24, "{} of 48 games kept", full.len());
    // The closing line counts the openings dropped as unbalanced apart from the games written.
    let closing = format!("; {} written, {} dropped as unbalanced openings", full.len(), 48 - full.len());
    assert!(err.contains("datagen: 48 games, ") && err.contains(&closing), "{err}");
    assert!(full.windows(2).all(|w| w[0].index < w[1].index), "a game twice");

    gen(&p("a.xqg"), &["--shard", "0/2"]);
    gen(&p("b.xqg"), &["--shard", "1/2"]);
    let (a, b) = (games_in(&p("a.xqg")), games_in(&p("b.xqg")));
    assert!(a.iter().all(|g| g.index % 2 == 0) && b.iter().all(|g| g.index % 2 == 1));
    let (pa, pb, pm) = (p("a.xqg"), p("b.xqg"), p("m.xqg"));
    let (_, err, code) =
        chuhan(&["datagen", "merge", "--out", pm.to_str().unwrap(), pa.to_str().unwrap(), pb.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(games_in(&pm), full);
    // Merging is canonical: the shards in any order, and the unsharded file, merge to the same bytes.
    let merged = |name: &str, inputs: &[&std::path::Path]| {
        let out = p(name);
        let mut args = vec!["datagen".to_string(), "merge".into(), "--out".into(), out.to_str().unwrap().into()];
        args.extend(inputs.iter().map(|i| i.to_str().unwrap().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_, err, code) = chuhan(&args, "");
        assert_eq!(code, 0, "{err}");
        std::fs::read(out).unwrap()
    };
    let canonical = std::fs::read(&pm).unwrap();
    assert_eq!(merged("ba-merged.xqg", &[&pb, &pa]), canonical);
    assert_eq!(merged("full-merged.xqg", &[&p("full.xqg")]), canonical);
    // The same games train the same network, whatever files hold them and in whatever order.
    let train_with = |data: &[&std::path::Path], out: &str, extra: &[&str]| {
        let mut args = vec!["train", "--epochs", "1", "--hidden", "16", "--batch", "64", "--seed", "2", "-q"];
        args.extend_from_slice(extra);
        let data: Vec<String> = data.iter().map(|d| d.to_str().unwrap().to_string()).collect();
        args.push("--data");
        args.extend(data.iter().map(String::as_str));
        let out = p(out);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let (_, err, code) = chuhan(&args, "");
        assert_eq!(code, 0, "{err}");
        std::fs::read(out).unwrap()
    };
    let train = |data: &[&std::path::Path], out: &str| train_with(data, out, &[]);
    let ab = train(&[&pa, &pb], "ab.nnue");
    assert_eq!(ab, train(&[&pb, &pa, &pa], "ba.nnue"));
    assert_eq!(ab, train(&[&pm], "m.nnue"));
    assert_eq!(ab, train(&[&p("full.xqg")], "full.nnue"));
    // A learning rate falling along a cosine (`--lr-end`) trains another network, the same one every time.
    let cosine = |out: &str| train_with(&[&pm], out, &["--lr-end", "0.0001"]);
    let annealed = cosine("cos.nnue");
    assert_ne!(annealed, ab);
    assert_eq!(annealed, cosine("cos-again.nnue"));
    // The mean of two runs on two shuffles (`--average 2`) is another network, the same one every time; it
    // cannot be checkpointed.
    let soup = |out: &str| train_with(&[&pm], out, &["--average", "2"]);
    let averaged = soup("soup.nnue");
    assert_ne!(averaged, ab);
    assert_eq!(averaged, soup("soup-again.nnue"));
    let ckpt = p("soup.ckpt");
    let args = ["train", "--average", "2", "--checkpoint", ckpt.to_str().unwrap(), "--data", "x", "--out", "y"];
    let (_, err, code) = chuhan(&args, "");
    assert!(code != 0 && err.contains("--checkpoint"), "{err}");
    // No epochs: the starting network is measured three ways and written back as it was.
    let (init, same) = (p("ab.nnue"), p("same.nnue"));
    let (init, data, out) = (init.to_str().unwrap(), pm.to_str().unwrap(), same.to_str().unwrap());
    let args = ["train", "--epochs", "0", "--init", init, "--data", data, "-q", "--out", out];
    let (_, err, code) = chuhan(&args, "");
    assert_eq!(code, 0, "{err}");
    let line = err.lines().find(|l| l.contains("starting from")).unwrap_or_else(|| panic!("{err}"));
    let numbers: Vec<f64> = line
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.contains('.') && !w.ends_with('.'))
        .filter_map(|w| w.parse().ok())
        .collect();
    // All three are squared errors of the same predictions, and the square is convex: the loss against the
    // blended target (--wdl 0.3) is at most the same blend of the other two.
    let [blend, scores, results] = numbers[..] else { panic!("{line}") };
    assert!(line.contains("(scores ") && line.contains(", results "), "{line}");
    assert!(blend > 0.0 && scores > 0.0 && results > scores, "{line}");
    assert!(blend <= 0.3 * results + 0.7 * scores + 1e-6, "{line}");
    assert_eq!(std::fs::read(&same).unwrap(), ab);
    // Another seed's file is read on its own (the seeds' ranges do not overlap) and still trains the network
    // the games make together, whatever the order of the files.
    let seed6 = p("seed6.xqg");
    let args = ["datagen", "--games", "12", "--nodes", "300", "--seed", "6", "--out", seed6.to_str().unwrap()];
    let (_, err, code) = chuhan(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(!games_in(&seed6).is_empty());
    let both = train(&[&pm, &seed6], "both.nnue");
    assert_ne!(both, ab);
    assert_eq!(both, train(&[&seed6, &pb, &pa], "both-reordered.nnue"));

    // A kill half-way through writing the last chunk.
    let bytes = std::fs::read(p("full.xqg")).unwrap();
    std::fs::write(p("killed.xqg"), &bytes[..bytes.len() - 7]).unwrap();
    // Training on it reads the games before the damage and says so once.
    let (killed, cut_net) = (p("killed.xqg"), p("cut.nnue"));
    let args = ["train", "--epochs", "1", "--hidden", "16", "-q", "--data", killed.to_str().unwrap(), "--out"];
    let (_, err, code) = chuhan(&[&args[..], &[cut_net.to_str().unwrap()]].concat(), "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("cut short").count(), 1, "{err}");
    let err = gen(&p("killed.xqg"), &[]);
    assert!(err.contains("cutting the file back") && err.contains("playing the"), "{err}");
    assert_eq!(games_in(&p("killed.xqg")), full);
    // Nothing left to do: a finished file stays as it is.
    gen(&p("killed.xqg"), &[]);
    assert_eq!(games_in(&p("killed.xqg")), full);
    // A range of game numbers gives the same games as the whole run: the number and the seed make a game.
    let mut args = vec!["datagen", "--games", "8", "--first", "40", "--nodes", "300", "--seed", "5"];
    let tail = p("tail.xqg");
    args.extend_from_slice(&["--out", tail.to_str().unwrap()]);
    let (_, err, code) = chuhan(&args, "");
    assert_eq!(code, 0, "{err}");
    let expected: Vec<_> = full.iter().filter(|g| g.index >= 40).cloned().collect();
    assert!(!expected.is_empty());
    assert_eq!(games_in(&tail), expected);
    // A network plays the games that train the next one.
    std::fs::write(
        p("random.nnue"),
        chuhan::nnue::Network::random(chuhan::nnue::features::FeatureSet::KingBuckets, 32, 8, 3).to_bytes(),
    )
    .unwrap();
    let net = p("random.nnue");
    gen(&p("nnue.xqg"), &["--evalfile", net.to_str().unwrap()]);
    let by_net = games_in(&p("nnue.xqg"));
    assert!(!by_net.is_empty() && by_net != full);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An XQF 1.0 record (the plain version of the format) of the standard start and the given ICCS moves.
fn xqf_v10(moves: &[&str], result: u8) -> Vec<u8> {
    let mut b = vec![0u8; 1024];
    b[..3].copy_from_slice(b"XQ\x0a");
    b[51] = result;
    let red = encoding_rs::GBK.encode("胡荣华").0;
    b[304] = red.len() as u8;
    b[305..305 + red.len()].copy_from_slice(&red);
    let xy = |s: &str| (s.as_bytes()[0] - b'a') * 10 + (s.as_bytes()[1] - b'0');
    let mut record = |from: u8, to: u8, next: bool| {
        b.extend_from_slice(&[from + 24, to + 32, if next { 0xf0 } else { 0 }, 0, 0, 0, 0, 0]);
    };
    record(0, 0, !moves.is_empty());
    for (i, m) in moves.iter().enumerate() {
        record(xy(&m[..2]), xy(&m[2..]), i + 1 < moves.len());
    }
    b
}

/// `judge` reads XQF records beside PGN files; a damaged one is reported and the others still judged.
#[test]
fn judge_reads_xqf() {
    let dir = std::env::temp_dir().join(format!("chuhan-xqf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.xqf"), xqf_v10(&["h2e2", "h9g7", "h0g2"], 1)).unwrap();
    let mut cut = xqf_v10(&["h2e2", "h9g7"], 0);
    cut.truncate(1030);
    std::fs::write(dir.join("b.XQF"), cut).unwrap();
    let (out, err, code) = chuhan(&["judge", "--pgn", dir.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("a.xqf — 胡荣华 vs ?"), "{out}");
    assert!(out.contains("Recorded: 1-0\nResult: game continues"), "{out}");
    assert!(out.contains("b.XQF: cannot be read:") && out.contains("end in the middle of a record"), "{out}");
    assert!(out.trim_end().ends_with("1 unreadable"), "{out}");
    let single = dir.join("a.xqf");
    let (out, _, code) = chuhan(&["judge", "--pgn", single.to_str().unwrap(), "--json"], "");
    assert_eq!(code, 0);
    assert!(out.contains(r#""recorded":"1-0""#) && out.contains(r#""ply":3"#), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The 2006 computer championship games as xqbase publishes them (GBK, footers), kept out of the repository:
/// set CHUHAN_CCGC_DIR to a folder of them (ElephantEye's repository has them under CCGC/) to run this.
#[test]
fn judge_reads_the_ccgc_collection() {
    let Some(dir) = std::env::var_os("CHUHAN_CCGC_DIR") else {
        eprintln!("CHUHAN_CCGC_DIR not set: skipped");
        return;
    };
    let (out, err, code) = chuhan(&["judge", "--pgn", dir.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    let summary = out.lines().last().unwrap();
    assert!(summary.contains(" 0 unreadable"), "{summary}");
    assert!(!summary.starts_with("0 games"), "{summary}");
}

/// `analyze --pgn` takes its position from a game file, XQF or PGN, at a chosen ply.
#[test]
fn analyze_a_game_file() {
    let dir = std::env::temp_dir().join(format!("chuhan-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let xqf = dir.join("g.xqf");
    std::fs::write(&xqf, xqf_v10(&["h2e2", "h9g7", "h0g2"], 1)).unwrap();
    let (out, err, code) =
        chuhan(&["analyze", "--pgn", xqf.to_str().unwrap(), "--ply", "2", "--depth", "3", "--ascii"], "");
    assert_eq!(code, 0, "{err}");
    // After 1. h2e2 h9g7 it is Red's move.
    assert!(out.contains("Fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w"), "{out}");
    assert!(out.contains("best move: "), "{out}");
    let (_, err, code) = chuhan(&["analyze", "--pgn", xqf.to_str().unwrap(), "--game", "2"], "");
    assert_eq!((code, err.trim()), (2, format!("chuhan: analyze: '{}' has 1 game(s), not 2", xqf.display()).as_str()));
    let (_, err, code) = chuhan(&["analyze", "--pgn", xqf.to_str().unwrap(), "--ply", "4"], "");
    assert_eq!(code, 2);
    assert!(err.contains("not a number from 0 to 3"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every subcommand explains itself: `--help` exits 0 with a usage line and examples on stdout.
#[test]
fn every_subcommand_answers_help() {
    let (out, _, code) = chuhan(&["--help"], "");
    assert_eq!(code, 0);
    let commands = [
        "perft",
        "analyze",
        "annotate",
        "judge",
        "match",
        "datagen",
        "train",
        "tune",
        "params",
        "bench",
        "completions",
    ];
    for c in commands {
        assert!(out.contains(&format!("\n  {c} ")), "{c} missing from:\n{out}");
        let (out, err, code) = chuhan(&[c, "--help"], "");
        assert_eq!(code, 0, "{c}: {err}");
        assert!(out.contains(&format!("Usage: chuhan {c}")), "{c}: {out}");
        assert!(out.contains("Example"), "{c} has no example: {out}");
    }
    let (out, _, code) = chuhan(&["help", "judge"], "");
    assert_eq!(code, 0);
    assert!(out.contains("Usage: chuhan judge"), "{out}");
    let (out, _, code) = chuhan(&["datagen", "merge", "--help"], "");
    assert_eq!(code, 0);
    assert!(out.contains("Usage: chuhan datagen merge"), "{out}");
    let (out, _, code) = chuhan(&["--version"], "");
    assert_eq!((code, out.trim()), (0, concat!("chuhan ", env!("CARGO_PKG_VERSION"))));
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (out, err, code) = chuhan(&["completions", shell], "");
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains("annotate") && out.contains("movetime"), "{shell}");
    }
    let (_, err, code) = chuhan(&["completions", "tcsh"], "");
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'tcsh'"), "{err}");
}

/// A short game with a blunder (the central cannon takes a pawn defended by a horse): annotated, the PGN
/// marks it `??` with the better move, reads back with `judge --pgn`, and the SVG graph is written.
#[test]
fn annotate_a_short_game() {
    let dir = std::env::temp_dir().join(format!("chuhan-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("g.pgn");
    std::fs::write(
        &game,
        "[Event \"test\"]\n[Red \"R\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
         1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. e2e6 g7e6 0-1\n",
    )
    .unwrap();
    let (out_pgn, svg) = (dir.join("a.pgn"), dir.join("a.svg"));
    let args = ["annotate", game.to_str().unwrap(), "--depth", "8", "--threads", "2", "--quiet", "--out"];
    let mut args: Vec<&str> = args.to_vec();
    args.extend([out_pgn.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
    let (out, err, code) = chuhan(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("R vs B: 8 plies analysed"), "{out}");
    assert!(out.contains("Turning points:\n  4. 炮五进四 (e2e6) 败着 blunder"), "{out}");
    assert!(out.contains(" 50% |─────────"), "{out}");
    let pgn = std::fs::read_to_string(&out_pgn).unwrap();
    assert!(pgn.contains("[Annotator \"Chuhan"), "{pgn}");
    assert!(pgn.contains("E2-E6 $4 {[%eval "), "{pgn}");
    assert!(pgn.contains("谱着 book"), "the built-in opening line is marked: {pgn}");
    let (judged, err, code) = chuhan(&["judge", "--pgn", out_pgn.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(judged.contains("0 unreadable") && judged.contains("Recorded: 0-1"), "{judged}");
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("<polyline") && svg.contains("blunder"), "{svg}");
    // The same depth gives the same annotation (each position searched from a cleared table).
    let (again, _, _) = chuhan(&args, "");
    assert_eq!(std::fs::read_to_string(&out_pgn).unwrap(), pgn);
    assert_eq!(again, out);
    std::fs::remove_dir_all(&dir).ok();
}

/// A game lost by a forbidden perpetual chase: the annotation names the move where it began and the clause,
/// and marks the move that completes the third occurrence as the loser's blunder.
#[test]
fn annotate_marks_a_forbidden_perpetual() {
    let path = std::env::temp_dir().join(format!("chuhan-perpetual-{}.pgn", std::process::id()));
    std::fs::write(
        &path,
        "[FEN \"4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1\"]\n[Result \"0-1\"]\n\n\
         1. b1a1 a7b7 2. a1b1 b7a7 3. b1a1 a7b7 4. a1b1 b7a7 0-1\n",
    )
    .unwrap();
    let (out, err, code) = chuhan(&["annotate", path.to_str().unwrap(), "--depth", "6", "-q"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Rules: at 1. 禁止 forbidden begins here: forbidden repetition (禁止着法), red loses (1999 §25.2"),
        "{out}"
    );
    assert!(out.contains("1. B1-A1 {[%eval "), "{out}");
    assert!(out.contains("4. A1-B1 $4 {[%eval #-"), "the move into the third occurrence: {out}");
    std::fs::remove_file(&path).ok();
}

/// `book build` from games written here: each move weighted 2 × wins + draws of the side that played it, both
/// wings merged into one form, moves below `--min-games` left out; `book show` lists them, mirrored back.
#[test]
fn book_build_and_show() {
    let dir = std::env::temp_dir().join(format!("chuhan-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = |moves: &str, result: &str| format!("[Result \"{result}\"]\n\n{moves} {result}\n\n");
    let text = [
        game("1. h2e2 h9g7 2. h0g2", "1-0"),
        game("1. h2e2 h9g7 2. h0g2", "1/2-1/2"),
        game("1. b2e2 b9c7 2. b0c2", "0-1"), // the mirror of the first two
        game("1. c3c4 g6g5", "1-0"),         // c3c4 played once: below --min-games 2
        game("1. h2e2 b9c7", "*"),           // no result: not counted
    ]
    .concat();
    std::fs::write(dir.join("games.pgn"), text).unwrap();
    let book = dir.join("b.book");
    let (_, err, code) = chuhan(
        &["book", "build", "--pgn", dir.to_str().unwrap(), "--out", book.to_str().unwrap(), "--min-games", "2", "-q"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("4 games read (1 without a result or start left out)"), "{err}");
    // Red's central cannon: 2 (win) + 1 (draw) + 0 (loss) = 3, over three games in the two mirror forms.
    let (out, err, code) = chuhan(&["book", "show", "--book", book.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[1].starts_with("b2e2  炮八平五") || lines[1].starts_with("h2e2  炮二平五"), "{out}");
    assert!(lines[1].contains("weight     3"), "{out}");
    // After h2e2 Black's h9g7: 0 + 1 + (mirrored b9c7's win) 2 = 3.
    let (out, _, _) = chuhan(&["book", "show", "--book", book.to_str().unwrap(), "--moves", "h2e2"], "");
    assert!(out.contains("h9g7  马8进7   weight     3  100.0 %"), "{out}");
    let (out, _, _) = chuhan(&["book", "show", "--book", book.to_str().unwrap(), "--moves", "b2e2"], "");
    assert!(out.contains("b9c7  马2进3   weight     3  100.0 %"), "{out}");
    let (out, _, _) = chuhan(&["book", "show", "--book", book.to_str().unwrap(), "--moves", "c3c4"], "");
    assert!(out.contains("no book moves"), "{out}");
    let (_, err, code) = chuhan(&["book", "show", "--book", "/nonexistent.book"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read book"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// ElephantEye's own BOOK.DAT (from github.com/xqbase/eleeye, not in this repository): the keys reproduced
/// here find its moves. Runs when CHUHAN_EE_BOOK names the file.
#[test]
fn elephanteye_book_dat() {
    let Ok(path) = std::env::var("CHUHAN_EE_BOOK") else {
        eprintln!("CHUHAN_EE_BOOK not set: skipped");
        return;
    };
    let (out, err, code) = chuhan(&["book", "show", "--book", &path], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("b2e2  炮八平五   weight  1473"), "{out}");
    assert!(lines[2].starts_with("h2e2  炮二平五   weight  1473"), "{out}");
    assert_eq!(lines.len(), 17, "{out}");
    let (out, _, _) = chuhan(&["book", "show", "--book", &path, "--moves", "h2e2 h9g7"], "");
    assert!(out.lines().nth(1).unwrap().starts_with("h0g2  马二进三   weight   955"), "{out}");
    // The other wing is found through the mirror.
    let (out, _, _) = chuhan(&["book", "show", "--book", &path, "--moves", "b2e2 b9c7"], "");
    assert!(out.lines().nth(1).unwrap().starts_with("b0c2  马八进七   weight   955"), "{out}");
}

/// Walking ElephantEye's BOOK.DAT from the start position through its own moves finds 3932 of its 12 081
/// records in 1000s of positions, Black to move and mirrored forms among them: the locks computed here are its
/// locks throughout, not only at the start (a wrong key would find nothing past the first move). The rest
/// belong to positions whose leading moves its maker dropped (a move is kept only when its summed result value
/// reaches a ratio, MAKEBOOK.CPP). Runs when CHUHAN_EE_BOOK is set.
#[test]
fn elephanteye_book_dat_is_reachable() {
    use chuhan::board::Position;
    use chuhan::book::{lock, Book};
    let Ok(path) = std::env::var("CHUHAN_EE_BOOK") else {
        eprintln!("CHUHAN_EE_BOOK not set: skipped");
        return;
    };
    let book = Book::load(&path).unwrap();
    let mut seen_positions = std::collections::HashSet::new();
    let mut found_records = 0usize;
    let mut queue = vec![Position::startpos()];
    while let Some(pos) = queue.pop() {
        let key = lock(&pos, false).min(lock(&pos, true));
        if !seen_positions.insert(key) {
            continue;
        }
        let moves = book.moves(&pos);
        found_records += moves.len();
        for b in moves {
            let mut next = pos.clone();
            next.make_move(b.mv);
            queue.push(next);
        }
    }
    let share = found_records as f64 / book.len() as f64;
    eprintln!(
        "{found_records} of {} records reached from the start ({:.1} %) in {} positions",
        book.len(),
        share * 100.0,
        seen_positions.len()
    );
    assert_eq!((found_records, book.len()), (3932, 12081), "{:.1} %", share * 100.0);
    assert!(seen_positions.len() > 1000, "{}", seen_positions.len());
}

/// A reader that leaves early (`chuhan params | head -1`): the tool stops quietly with SIGPIPE's status, no panic
/// message.
#[test]
fn a_closed_pipe_is_not_a_panic() {
    // The reading end is closed before the tool starts: had it been closed after the spawn, a tool quick
    // enough to write its whole output into the pipe's buffer first would exit 0 (seen on a loaded host).
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(["params"])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run chuhan");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
