//! The binary as a person or a GUI uses it: `chuhan perft …` and `go perft` in the protocol loop.

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

    let (out, _, code) = chuhan(&["perft", "2", "--divide", "--fen", "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2", "w"], "");
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
        (vec!["perft"], "give a depth"),
        (vec!["perft", "x"], "not a number"),
        (vec!["perft", "3", "--fen", "bad"], "bad --fen"),
        (vec!["perft", "3", "--moves", "h2h8"], "move 1"),
        (vec!["perft", "3", "--threads", "0"], "--threads"),
        (vec!["perft", "3", "--bogus"], "unknown flag --bogus"),
        (vec!["frobnicate"], "unknown subcommand"),
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

    let (out, _, _) = chuhan(&[], "uci\nposition fen 4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1\ngo perft 4\n");
    assert!(out.lines().any(|l| l == "Nodes searched: 92741"), "{out}");

    // Bad input is reported and the previous position kept.
    let (out, _, _) = chuhan(&[], "uci\nposition fen garbage\nposition startpos moves h2h8\n\u{1}\u{ff}\ngo perft 1\n");
    assert!(out.contains("info string error: bad FEN"), "{out}");
    assert!(out.contains("info string error: move 'h2h8'"), "{out}");
    assert!(out.lines().any(|l| l == "Nodes searched: 44"), "{out}");
}
