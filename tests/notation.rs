//! Every legal move of thousands of random positions survives ICCS ↔ Chinese (both scripts) ↔ WXF.

mod common;

use chuhan::notation::{parse_chinese, parse_iccs, parse_move, parse_wxf, to_chinese, to_wxf, Script};
use chuhan::Position;

#[test]
fn every_move_round_trips_through_every_notation() {
    let mut moves = 0;
    common::random_positions(3000, 11, |pos| {
        for &m in pos.legal_moves().iter() {
            let iccs = m.to_string();
            let simp = to_chinese(pos, m, Script::Simplified);
            let trad = to_chinese(pos, m, Script::Traditional);
            let wxf = to_wxf(pos, m);
            let ctx = || format!("{m} ({simp} / {trad} / {wxf}) in {}", pos.to_fen());
            assert_eq!(parse_iccs(pos, &iccs), Ok(m), "{}", ctx());
            assert_eq!(parse_chinese(pos, &simp), Ok(m), "{}", ctx());
            assert_eq!(parse_chinese(pos, &trad), Ok(m), "{}", ctx());
            assert_eq!(parse_wxf(pos, &wxf), Ok(m), "{}", ctx());
            for text in [&iccs, &simp, &trad, &wxf] {
                assert_eq!(parse_move(pos, text), Ok(m), "{text}: {}", ctx());
            }
            assert!(matches!(simp.chars().count(), 4), "{}", ctx());
            moves += 1;
        }
    });
    assert!(moves > 50_000, "only {moves} moves checked");
}

#[test]
fn names_are_unique_in_each_position() {
    common::random_positions(1500, 12, |pos| {
        let list = pos.legal_moves();
        let mut simp: Vec<String> = list.iter().map(|&m| to_chinese(pos, m, Script::Simplified)).collect();
        let mut wxf: Vec<String> = list.iter().map(|&m| to_wxf(pos, m)).collect();
        simp.sort();
        simp.dedup();
        wxf.sort();
        wxf.dedup();
        assert_eq!(simp.len(), list.len(), "{}", pos.to_fen());
        assert_eq!(wxf.len(), list.len(), "{}", pos.to_fen());
    });
}

#[test]
fn readable_refusals() {
    let pos = Position::startpos();
    for (text, needle) in [
        ("h2h8", "not a legal move"),
        ("炮二平九", "not a legal move"),
        ("炮二平", "not a move in Chinese notation"),
        ("C2.9", "not a legal move"),
        ("Q2.5", "not a move in WXF notation"),
        ("", "empty"),
        ("0000", "null move"),
    ] {
        let e = parse_move(&pos, text).expect_err(text).to_string();
        assert!(e.contains(needle), "{text}: {e}");
    }
    // Two red horses can both reach e2? No, but both cannons sit alone on their files: 炮八平五 is b2e2.
    assert_eq!(parse_move(&pos, "炮八平五"), Ok("b2e2".parse().unwrap()));
    assert_eq!(parse_move(&pos, "兵七进一"), Ok("c3c4".parse().unwrap()));
    assert_eq!(parse_move(&pos, "相三进五"), Ok("g0e2".parse().unwrap()));
    assert_eq!(parse_move(&pos, "仕四进五"), Ok("f0e1".parse().unwrap()));
    assert_eq!(parse_move(&pos, "帅五进一"), Ok("e0e1".parse().unwrap()));
    assert_eq!(parse_move(&pos, "车九进一"), Ok("a0a1".parse().unwrap()));
    assert_eq!(parse_move(&pos, "R9+1"), Ok("a0a1".parse().unwrap()));
}
