//! The public cases of rules.md §6 (docs/rules.md), in both rule sets, each also with the colours exchanged
//! and reflected left to right.

mod common;

use chuhan::rules::{GameResult, Reason};

fn expect(fen: &str, moves: &str, chinese: (GameResult, Reason), asian: (GameResult, Reason), labels: &str) {
    common::referee::check(fen, moves, chinese, asian, labels);
}

use GameResult::*;
use Reason::*;

#[test]
fn c01_perpetual_check_against_idle() {
    let v = (BlackWins, PerpetualCheck);
    expect(
        "4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1",
        "f5e5 e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9",
        v,
        v,
        "f5e5:将 e9f9:闲 e5f5:将 f9e9:闲",
    );
}

#[test]
fn c02_mutual_perpetual_check() {
    let v = (Draw, RepetitionDraw);
    expect(
        "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
        "e3d3 d6e6 d3e3 e6d6 e3d3 d6e6 d3e3 e6d6",
        v,
        v,
        "e3d3:将 d6e6:将 d3e3:将 e6d6:将",
    );
}

#[test]
fn c05_perpetual_check_against_perpetual_chase() {
    let v = (BlackWins, PerpetualCheck);
    expect(
        "4k1n1c/R5n1c/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9",
        v,
        v,
        "a8a9:将 e9e8:捉 a9a8:将 e8e9:捉",
    );
}

#[test]
fn c06_rook_chases_unprotected_cannon() {
    let v = (BlackWins, ForbiddenRepetition);
    expect(
        "4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1",
        "b1a1 a7b7 a1b1 b7a7 b1a1 a7b7 a1b1 b7a7",
        v,
        v,
        "b1a1:捉 a7b7:闲 a1b1:捉 b7a7:闲",
    );
}

#[test]
fn c09_rook_on_protected_cannon_is_idle() {
    let v = (Draw, RepetitionDraw);
    expect(
        "4k4/9/c7r/9/9/9/9/9/1R7/3K5 w - - 0 1",
        "b1a1 a7b7 a1b1 b7a7 b1a1 a7b7 a1b1 b7a7",
        v,
        v,
        "b1a1:闲 a7b7:闲 a1b1:闲 b7a7:闲",
    );
}

#[test]
fn c11_horse_chases_protected_rook() {
    let v = (BlackWins, ForbiddenRepetition);
    expect(
        "5k3/9/2r5r/9/2N6/2P6/9/9/9/4K4 w - - 0 1",
        "c5e6 c7d7 e6c5 d7c7 c5e6 c7d7 e6c5 d7c7",
        v,
        v,
        "c5e6:捉 c7d7:闲 e6c5:捉 d7c7:闲",
    );
}

#[test]
fn c13_rook_exchange_offer_is_idle() {
    let v = (Draw, RepetitionDraw);
    expect(
        "4k4/9/r8/9/9/9/9/9/1R7/3K5 w - - 0 1",
        "b1a1 a7b7 a1b1 b7a7 b1a1 a7b7 a1b1 b7a7",
        v,
        v,
        "b1a1:闲 a7b7:闲 a1b1:闲 b7a7:闲",
    );
}

#[test]
fn c15_king_chases_are_idle() {
    let v = (Draw, RepetitionDraw);
    expect(
        "3k5/9/9/8p/9/9/P8/9/5c3/4K4 w - - 0 1",
        "e0f0 f1e1 f0e0 e1f1 e0f0 f1e1 f0e0 e1f1",
        v,
        v,
        "e0f0:闲 f1e1:闲 f0e0:闲 e1f1:闲",
    );
}

#[test]
fn c16_pawn_chases_are_idle() {
    let v = (Draw, RepetitionDraw);
    expect(
        "4k4/9/4c4/3P5/9/9/9/9/9/5K3 w - - 0 1",
        "d6e6 e7d7 e6d6 d7e7 d6e6 e7d7 e6d6 d7e7",
        v,
        v,
        "d6e6:闲 e7d7:闲 e6d6:闲 d7e7:闲",
    );
}

#[test]
fn c19_one_check_one_chase() {
    expect(
        "9/3nk4/9/9/3R5/9/9/9/9/3K5 w - - 0 1",
        "d5e5 e8f8 e5d5 f8e8 d5e5 e8f8 e5d5 f8e8",
        (BlackWins, ForbiddenRepetition),
        (Draw, RepetitionDraw),
        "d5e5:将 e8f8:闲 e5d5:捉 f8e8:闲",
    );
}

#[test]
fn c22_perpetual_mate_threat_against_block() {
    expect(
        "3k5/3r5/c8/9/R8/9/9/9/9/4K4 w - - 0 1",
        "a5i5 a7i7 i5a5 i7a7 a5i5 a7i7 i5a5 i7a7",
        (BlackWins, ForbiddenRepetition),
        (Draw, RepetitionDraw),
        "a5i5:杀 a7i7:闲 i5a5:杀 i7a7:闲",
    );
}

#[test]
fn c23_idle_against_idle() {
    let v = (Draw, RepetitionDraw);
    expect(
        "3a1k3/9/9/8p/9/9/P8/9/9/3AK4 w - - 0 1",
        "d0e1 d9e8 e1d0 e8d9 d0e1 d9e8 e1d0 e8d9",
        v,
        v,
        "d0e1:闲 d9e8:闲 e1d0:闲 e8d9:闲",
    );
}

#[test]
fn c24_capture_refuted_by_mate_is_idle() {
    let v = (Draw, RepetitionDraw);
    expect(
        "4k4/9/c8/9/1R5r1/9/9/9/9/3K5 w - - 0 1",
        "b5a5 a7b7 a5b5 b7a7 b5a5 a7b7 a5b5 b7a7",
        v,
        v,
        "b5a5:闲 a7b7:闲 a5b5:闲 b7a7:闲",
    );
}

#[test]
fn c28_two_occurrences_are_not_judged() {
    let v = (GameResult::Ongoing, Reason::Unfinished);
    expect("4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1", "b1a1 a7b7 a1b1 b7a7", v, v, "");
}

/// Novelty per form (rules.md §2.5): before each rook move Red could already win the cannon through a check
/// (h0d0+ makes it interpose), but the rook's direct attack is new every time: Red 长捉.
#[test]
fn c29_direct_chase_where_a_win_through_a_check_existed() {
    let v = (BlackWins, ForbiddenRepetition);
    expect(
        "9/3k5/9/9/8c/9/9/4K4/9/7R1 w - - 0 1",
        "h0i0 i5h5 i0h0 h5i5 h0i0 i5h5 i0h0 h5i5",
        v,
        v,
        "h0i0:捉 i5h5:闲 i0h0:捉 h5i5:闲",
    );
}

#[test]
fn n01_stalemate_loses() {
    let v = (RedWins, Stalemate);
    expect("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1", "", v, v, "");
}

#[test]
fn n02_natural_limit() {
    let v = (Draw, NaturalLimit);
    expect("4k4/9/9/9/9/9/9/9/9/3K4R w - - 119 100", "i0i1", v, v, "");
}

#[test]
fn n03_mate_on_the_limit_move_wins() {
    let v = (RedWins, Checkmate);
    expect("4k1P2/9/9/9/R8/9/9/9/9/3K5 w - - 119 100", "a5e5", v, v, "");
}

#[test]
fn n05_only_advisors() {
    let v = (Draw, InsufficientMaterial);
    expect("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", "", v, v, "");
}
