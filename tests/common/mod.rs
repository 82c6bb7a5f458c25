//! Shared helpers for the integration tests: seeded random play-outs over varied positions.

#![allow(dead_code)]

use chuhan::board::perft::reference_fen;
use chuhan::{Move, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Positions the play-outs start from: the start, and perft reference positions (middlegames and endings),
/// and a position with both sides' pawns and defenders but no attackers.
pub fn starts() -> Vec<&'static str> {
    let names = ["start", "pos2", "pos3", "pos4", "pos5", "pos7", "pos8", "pos10", "pos12", "fsf1", "fsf2"];
    let mut fens: Vec<&str> = names.iter().map(|n| reference_fen(n)).collect();
    fens.push("3akab2/9/4b4/p1p1p1p1p/9/9/P1P1P1P1P/4B4/9/2BAKA3 w - - 0 1");
    fens
}

pub fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

/// Plays up to `plies` random legal moves from `pos` (preferring captures now and then, so that games thin
/// out into endings), calling `visit` on every position reached, the first included. Stops at mate.
pub fn playout(pos: &mut Position, plies: usize, rng: &mut SmallRng, mut visit: impl FnMut(&mut Position)) {
    visit(pos);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        let captures: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
        let m = if !captures.is_empty() && rng.gen_bool(0.4) {
            captures[rng.gen_range(0..captures.len())]
        } else {
            moves.as_slice()[rng.gen_range(0..moves.len())]
        };
        pos.make_move(m);
        visit(pos);
    }
}

/// Calls `visit` on about `count` varied positions reached by random play from every start.
pub fn random_positions(count: usize, seed: u64, mut visit: impl FnMut(&mut Position)) {
    let mut rng = rng(seed);
    let starts = starts();
    let mut seen = 0;
    while seen < count {
        let fen = starts[rng.gen_range(0..starts.len())];
        let mut pos = Position::from_fen(fen).unwrap();
        let plies = rng.gen_range(10..160);
        playout(&mut pos, plies, &mut rng, |p| {
            if seen < count {
                visit(p);
                seen += 1;
            }
        });
    }
}

/// Referee helpers shared by the rules tests.
pub mod referee {
    use chuhan::rules::repetition::{judge_cycle, judge_for_side_to_move, loser, previous_occurrence, Outcome};
    use chuhan::rules::{judge_game, GameResult, Reason, RuleSet, Rules};
    use chuhan::Position;

    /// Plays and judges a game; returns the verdict and the last cycle's labels as `move:label`.
    pub fn judge(fen: &str, moves: &str, rules: &Rules) -> (GameResult, Reason, Vec<String>) {
        let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let list: Vec<&str> = moves.split_whitespace().collect();
        let j = judge_game(&start, &list, rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(j.ignored_moves, 0, "{fen}: the game ended before the last move");
        search_agrees(&start, &list, rules);
        let labels = j
            .verdict
            .repetition
            .as_ref()
            .map(|r| r.cycle.moves.iter().map(|m| format!("{}:{}", m.mv, m.label.chinese())).collect())
            .unwrap_or_default();
        (j.verdict.result, j.verdict.reason, labels)
    }

    /// At every repetition along the game, the search's quick verdict (which stops labelling once both sides
    /// have an idle move) agrees with the full judgement of the cycle.
    fn search_agrees(start: &Position, moves: &[&str], rules: &Rules) {
        let mut pos = start.clone();
        for text in moves {
            let m = chuhan::notation::parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.make_move(m);
            let Some(from) = previous_occurrence(&pos) else { continue };
            let full = match loser(judge_cycle(&pos, from, rules).categories) {
                None => Outcome::Draw,
                Some(c) if c == pos.side_to_move() => Outcome::Loss,
                Some(_) => Outcome::Win,
            };
            assert_eq!(judge_for_side_to_move(&pos, from, rules), full, "after {text} at ply {}", pos.ply());
        }
    }

    /// The same game with colours exchanged (ranks flipped, case swapped, the other side to move).
    pub fn flip_colors(fen: &str, moves: &str) -> (String, String) {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap();
        let side = match fields.next() {
            Some("b") => "w",
            _ => "b",
        };
        let rest: Vec<&str> = fields.collect();
        let flipped: Vec<String> = board
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                    .collect()
            })
            .collect();
        let fen = format!("{} {side} {}", flipped.join("/"), rest.join(" "));
        let moves = map_squares(moves, |f, r| (f, b'9' - r + b'0'));
        (fen.trim().to_string(), moves)
    }

    /// The same game reflected left to right.
    pub fn mirror_files(fen: &str, moves: &str) -> (String, String) {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap();
        let rest: Vec<&str> = fields.collect();
        let mirrored: Vec<String> = board
            .split('/')
            .map(|r| {
                let mut cells = Vec::new();
                for c in r.chars() {
                    match c.to_digit(10) {
                        Some(n) => cells.extend(std::iter::repeat_n('1', n as usize)),
                        None => cells.push(c),
                    }
                }
                cells.reverse();
                let mut out = String::new();
                let mut empty = 0;
                for c in cells {
                    if c == '1' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect();
        let fen = format!("{} {}", mirrored.join("/"), rest.join(" "));
        (fen.trim().to_string(), map_squares(moves, |f, r| (b'a' + b'i' - f, r)))
    }

    fn map_squares(moves: &str, f: impl Fn(u8, u8) -> (u8, u8)) -> String {
        moves
            .split_whitespace()
            .map(|m| {
                let b = m.as_bytes();
                let (f1, r1) = f(b[0], b[1]);
                let (f2, r2) = f(b[2], b[3]);
                String::from_utf8(vec![f1, r1, f2, r2]).unwrap()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn swap(r: GameResult) -> GameResult {
        match r {
            GameResult::RedWins => GameResult::BlackWins,
            GameResult::BlackWins => GameResult::RedWins,
            other => other,
        }
    }

    /// Checks a case in both rule sets, and the same case with colours exchanged and reflected left to right.
    /// `labels` (the last cycle's, `move:label` joined by spaces) is checked on the original only, if given.
    pub fn check(fen: &str, moves: &str, chinese: (GameResult, Reason), asian: (GameResult, Reason), labels: &str) {
        for (set, want) in [(RuleSet::Chinese, chinese), (RuleSet::Asian, asian)] {
            let rules = Rules::with_set(set);
            let (r, why, got) = judge(fen, moves, &rules);
            assert_eq!((r, why), want, "{set}: {fen} / {moves}: labels {got:?}");
            if set == RuleSet::Chinese && !labels.is_empty() {
                assert_eq!(got.join(" "), labels, "labels of {fen}");
            }
            let (ffen, fmoves) = flip_colors(fen, moves);
            let (r, why, got) = judge(&ffen, &fmoves, &rules);
            assert_eq!((r, why), (swap(want.0), want.1), "{set}, colours exchanged: {ffen} / {fmoves}: {got:?}");
            let (mfen, mmoves) = mirror_files(fen, moves);
            let (r, why, got) = judge(&mfen, &mmoves, &rules);
            assert_eq!((r, why), want, "{set}, mirrored: {mfen} / {mmoves}: {got:?}");
        }
    }
}
