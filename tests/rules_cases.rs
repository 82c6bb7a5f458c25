//! The referee on cases of our own, beyond rules.md §6. Every game is legal-checked by being played, and runs in
//! both rule sets, with colours exchanged and reflected left to right (see `common::referee::check`).
//! Clause numbers are the 1999 rules and 细则 (detail rules) as docs/rules.md cites them.

mod common;

use chuhan::rules::classify::{classify, ChaseKind, ClassifyOptions, Label};
use chuhan::rules::{count_limit_plies, game_state, insufficient_material, GameResult, Reason, RuleSet, Rules};
use chuhan::{Color, Position};
use common::referee::{check, flip_colors, judge, mirror_files};
use GameResult::*;
use Reason::*;

// ----- Whole games: repetition verdicts ---------------------------------------------------------------------

/// §28.12, rules.md §7.8: a cannon chasing two different horses in turn is 长捉 under Chinese rules; AXF rule 32
/// needs one same piece chased throughout, so it is allowed there.
#[test]
fn g01_chasing_two_pieces_in_turn() {
    check(
        "3ak4/9/2n3n2/9/9/9/2P3P2/2C6/9/3K5 w - - 0 1",
        "c2g2 d9e8 g2c2 e8d9 c2g2 d9e8 g2c2 e8d9",
        (BlackWins, ForbiddenRepetition),
        (Draw, RepetitionDraw),
        "c2g2:捉 d9e8:闲 g2c2:捉 e8d9:闲",
    );
}

/// §27.2 second clause, 细则11: against a perpetual chaser, the defender's pawn attacks count as chases
/// (互相长打), so both sides are forbidden and it is a draw (§26.3).
#[test]
fn g02_mutual_attack_with_a_pawn() {
    check(
        "cc1ak4/9/9/R8/9/9/3p5/3AB4/9/4K4 w - - 0 1",
        "a6b6 d3e3 b6a6 e3d3 a6b6 d3e3 b6a6 e3d3",
        (Draw, RepetitionDraw),
        (Draw, RepetitionDraw),
        "a6b6:捉 d3e3:捉 b6a6:捉 e3d3:捉",
    );
}

/// The same chase when the pawn attacks nothing: the chaser loses (§26.4).
#[test]
fn g03_pawn_that_attacks_nothing() {
    check(
        "cc1ak4/9/9/R8/9/9/3p5/9/9/3K5 w - - 0 1",
        "a6b6 d3e3 b6a6 e3d3 a6b6 d3e3 b6a6 e3d3",
        (BlackWins, ForbiddenRepetition),
        (Draw, RepetitionDraw),
        "a6b6:捉 d3e3:闲 b6a6:捉 e3d3:闲",
    );
}

/// §28.2, §25.2: perpetual mate threats of depth 2 (a mate needing two checks) are 长杀; AXF rule 9 allows them.
#[test]
fn g04_perpetual_mate_threat_depth_two() {
    check(
        "9/3k5/9/9/5N3/9/9/5K3/9/1R7 w - - 0 1",
        "f5e7 d8e8 e7f5 e8d8 f5e7 d8e8 e7f5 e8d8",
        (BlackWins, ForbiddenRepetition),
        (Draw, RepetitionDraw),
        "f5e7:杀 d8e8:闲 e7f5:杀 e8d8:闲",
    );
}

/// 长杀 of depth 3 (three checks to mate).
#[test]
fn g05_perpetual_mate_threat_depth_three() {
    check(
        "6P2/4k4/6n2/5R1N1/6C2/9/9/9/9/5K3 w - - 0 1",
        "h6i8 e8e9 i8h6 e9e8 h6i8 e8e9 i8h6 e9e8",
        (BlackWins, ForbiddenRepetition),
        (Draw, RepetitionDraw),
        "h6i8:杀 e8e9:闲 i8h6:杀 e9e8:闲",
    );
}

/// With the 杀 search limited to two checks, the depth-3 threats above are idle and the game is drawn.
#[test]
fn g06_kill_depth_is_configurable() {
    let rules = Rules { kill_depth: 2, ..Rules::default() };
    let (r, why, labels) =
        judge("6P2/4k4/6n2/5R1N1/6C2/9/9/9/9/5K3 w - - 0 1", "h6i8 e8e9 i8h6 e9e8 h6i8 e8e9 i8h6 e9e8", &rules);
    assert_eq!((r, why), (Draw, RepetitionDraw), "{labels:?}");
}

/// 长杀 (depth 3) answered by pawn attacks on the threatening rook: mutual attack (细则11), draw.
#[test]
fn g07_perpetual_mate_threat_against_pawn_chases() {
    check(
        "4k4/9/9/9/3C5/9/9/9/1R4p2/3K2R2 w - - 0 1",
        "g0h0 g1h1 h0g0 h1g1 g0h0 g1h1 h0g0 h1g1",
        (Draw, RepetitionDraw),
        (Draw, RepetitionDraw),
        "g0h0:杀 g1h1:捉 h0g0:杀 h1g1:捉",
    );
}

/// 一将一杀 is forbidden (§25.2); AXF allows checks mixed with mate threats.
#[test]
fn g08_one_check_one_mate_threat() {
    check(
        "5k3/9/9/9/4R4/N8/9/6R2/9/3K5 w - - 0 1",
        "g2g9 f9f8 g9g2 f8f9 g2g9 f9f8 g9g2 f8f9",
        (BlackWins, ForbiddenRepetition),
        (Draw, RepetitionDraw),
        "g2g9:将 f9f8:闲 g9g2:杀 f8f9:闲",
    );
}

/// 一将一闲 (数将一闲): a check and an idle move alternate — allowed (§25.2 second sentence), draw.
#[test]
fn g09_check_and_idle() {
    check(
        "4k4/R3a4/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "a8a9 e8d9 a9a8 d9e8 a8a9 e8d9 a9a8 d9e8",
        (Draw, RepetitionDraw),
        (Draw, RepetitionDraw),
        "a8a9:将 e8d9:闲 a9a8:闲 d9e8:闲",
    );
}

/// 一捉一闲 (数捉一闲): a chase and a retreat alternate — allowed, draw. (With the red king on d0 instead, the
/// retreat b1 would threaten Rb9+ Ad9 Rxd9, the king unable to retake under the flying general: a chase too.)
#[test]
fn g10_chase_and_idle() {
    check(
        "3ak4/9/c8/9/9/9/9/9/1R7/5K3 w - - 0 1",
        "b1a1 d9e8 a1b1 e8d9 b1a1 d9e8 a1b1 e8d9",
        (Draw, RepetitionDraw),
        (Draw, RepetitionDraw),
        "b1a1:捉 d9e8:闲 a1b1:闲 e8d9:闲",
    );
}

/// Both sides chase perpetually, each its own pair of horses: both forbidden, draw (§26.3).
#[test]
fn g11_mutual_perpetual_chase() {
    check(
        "4k4/2c6/n7n/2p3p2/9/9/P7P/2N3N2/C8/3K5 w - - 0 1",
        "a1i1 c8g8 i1a1 g8c8 a1i1 c8g8 i1a1 g8c8",
        (Draw, RepetitionDraw),
        (Draw, RepetitionDraw),
        "a1i1:捉 c8g8:捉 i1a1:捉 g8c8:捉",
    );
}

/// §29.1 via exchange, 细则3: joining a horse's attack on a cannon protected once makes it 少根 — a chase —
/// and stepping back ends it: chase and idle, allowed, draw.
#[test]
fn g12_outnumbered_protection() {
    check(
        "2r1k4/9/9/2c6/R8/3N5/9/9/9/3K5 w - - 0 1",
        "a5a6 e9e8 a6a5 e8e9 a5a6 e9e8 a6a5 e8e9",
        (Draw, RepetitionDraw),
        (Draw, RepetitionDraw),
        "a5a6:捉 e9e8:闲 a6a5:闲 e8e9:闲",
    );
}

/// Repetitions by different routes (rules.md §3.2): the first cycle is allowed for Red, the second forbidden;
/// the conservative reading takes the most lenient, so it is a draw.
#[test]
fn g13_different_cycles_are_judged_together() {
    let rules = Rules::default();
    let fen = "4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1";
    let (r, why, _) = judge(fen, "b1c1 a7b7 c1b1 b7a7 b1a1 a7b7 a1b1 b7a7", &rules);
    assert_eq!((r, why), (Draw, RepetitionDraw));
    // Two forbidden cycles: Red loses.
    let (r, why, _) = judge(fen, "b1a1 a7b7 a1b1 b7a7 b1a1 a7b7 a1b1 b7a7", &rules);
    assert_eq!((r, why), (BlackWins, ForbiddenRepetition));
}

/// The repetition count is configurable: with four occurrences required, three are not judged.
#[test]
fn g14_repetition_count() {
    let fen = "4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1";
    let cycle = "b1a1 a7b7 a1b1 b7a7";
    let rules = Rules { repetitions: 4, ..Rules::default() };
    let (r, _, _) = judge(fen, &[cycle; 2].join(" "), &rules);
    assert_eq!(r, Ongoing);
    let (r, why, _) = judge(fen, &[cycle; 3].join(" "), &rules);
    assert_eq!((r, why), (BlackWins, ForbiddenRepetition));
}

/// §24.3 with a grace cycle: forbidden-against-allowed is decided one cycle later; 长将 at once (§24.1).
#[test]
fn g15_grace_cycle() {
    let rules = Rules { grace_cycles: 1, ..Rules::default() };
    let chase = ("4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1", "b1a1 a7b7 a1b1 b7a7");
    assert_eq!(judge(chase.0, &[chase.1; 2].join(" "), &rules).0, Ongoing);
    assert_eq!(judge(chase.0, &[chase.1; 3].join(" "), &rules).0, BlackWins);
    let checks = ("4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1", "f5e5 e9f9 e5f5 f9e9");
    assert_eq!(judge(checks.0, &[checks.1; 2].join(" "), &rules).0, BlackWins);
}

/// 长捉 through a discovered attack: the horse shuttles off and back on the rook's file. It discovers a chase
/// when it leaves and blocks when it returns: chase and idle, allowed.
#[test]
fn g16_discovered_chase_and_block() {
    check(
        "3ak4/9/c8/9/9/9/9/9/N8/R2K5 w - - 0 1",
        "a1b3 d9e8 b3a1 e8d9 a1b3 d9e8 b3a1 e8d9",
        (Draw, RepetitionDraw),
        (Draw, RepetitionDraw),
        "a1b3:捉 d9e8:闲 b3a1:闲 e8d9:闲",
    );
}

/// Exchange offers between horses (兑, §28.5): each horse can take the other back, idle, draw.
#[test]
fn g17_horse_exchange_offers() {
    check(
        "3ak4/9/2n6/9/9/9/4N4/9/9/3K5 w - - 0 1",
        "e3d5 d9e8 d5e3 e8d9 e3d5 d9e8 d5e3 e8d9",
        (Draw, RepetitionDraw),
        (Draw, RepetitionDraw),
        "e3d5:闲 d9e8:闲 d5e3:闲 e8d9:闲",
    );
}

// ----- Other endings ----------------------------------------------------------------------------------------

/// rules.md §5.1 and test N10: a side's checks beyond ten, and the replies to them, do not count.
#[test]
fn n10_check_counting() {
    // Red checks on each of its 15 moves, Black evades: 20 plies count, then 10 quiet plies.
    let stream: Vec<bool> = (0..30).map(|i| i % 2 == 0).chain(std::iter::repeat_n(false, 10)).collect();
    assert_eq!(count_limit_plies(0, Color::Red, stream[..30].iter().copied(), 10), 20);
    assert_eq!(count_limit_plies(0, Color::Red, stream.iter().copied(), 10), 30);
    // Checks by both sides, each within its ten, all count.
    assert_eq!(count_limit_plies(100, Color::Black, [true; 20], 10), 120);
}

/// The natural limit reached by a check that still counts (fewer than ten checks so far): draw.
#[test]
fn natural_limit_reached_with_a_check() {
    let rules = Rules::default();
    let (r, why, _) = judge("4k4/9/9/9/9/9/9/9/9/3K4R w - - 119 100", "i0i9", &rules);
    assert_eq!((r, why), (Draw, NaturalLimit));
    // One ply short of the limit, nothing is decided.
    let (r, _, _) = judge("4k4/9/9/9/9/9/9/9/9/3K4R w - - 118 100", "i0i1", &rules);
    assert_eq!(r, Ongoing);
    // A capture resets the count.
    let (r, _, _) = judge("4k4/9/9/9/9/9/9/9/8p/3K4R w - - 119 100", "i0i1", &rules);
    assert_eq!(r, Ongoing);
}

/// rules.md §5.2: only certain draws by material, never a false one.
#[test]
fn insufficient_material_cases() {
    let draw = |fen: &str| insufficient_material(&Position::from_fen(fen).unwrap());
    // No attackers at all, advisors and elephants only.
    assert!(draw("3aka3/9/4b4/9/9/9/9/4B4/4A4/3AK4 w"));
    // A lone cannon without advisors against a lone king.
    assert!(draw("3k5/9/9/9/9/9/9/9/9/C3K4 w"));
    // A lone cannon against one advisor, the cannon side without elephants.
    assert!(draw("3k1a3/9/9/9/9/9/9/9/9/C3K4 w"));
    // One cannon each and nothing else.
    assert!(draw("3k5/9/9/c8/9/9/9/9/9/C3K4 w"));
    // Not draws: a horse can mate with its king's help; a cannon with an advisor screen; two defending
    // advisors; any pawn; a rook.
    assert!(!draw("3k5/9/9/9/9/9/9/9/9/N3K4 w"));
    assert!(!draw("3k5/9/9/9/9/9/9/9/4A4/C3K4 w"));
    assert!(!draw("3k1a3/4a4/9/9/9/9/9/9/9/C3K4 w"));
    assert!(!draw("3k5/9/9/9/9/9/P8/9/9/4K4 w"));
    assert!(!draw("3k5/9/9/9/9/9/9/9/9/R3K4 w"));
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/C3K4 w").unwrap();
    assert_eq!(game_state(&pos, &Rules::default()).reason, InsufficientMaterial);
}

#[test]
fn checkmate_and_stalemate() {
    let rules = Rules::default();
    let (r, why, _) = judge("3k5/2P6/9/9/9/9/9/9/9/4K3R w - - 0 1", "i0i9", &rules);
    assert_eq!((r, why), (RedWins, Checkmate));
    let (r, why, _) = judge("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1", "", &rules);
    assert_eq!((r, why), (Ongoing, Reason::Unfinished));
}

// ----- Single moves: each condition of rules.md §2.5 on its own ------------------------------------------------

fn label_with(fen: &str, mv: &str, opts: ClassifyOptions) -> Label {
    let mut pos = Position::from_fen(fen).unwrap();
    let m = chuhan::notation::parse_move(&pos, mv).unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
    let l = classify(&mut pos, m, &opts);
    assert_eq!(pos, Position::from_fen(fen).unwrap(), "classify must restore the position");
    l
}

fn label(fen: &str, mv: &str) -> Label {
    label_with(fen, mv, ClassifyOptions::default())
}

/// The chased squares and kinds of a chase label (empty for other labels).
fn chased(l: &Label) -> Vec<(String, ChaseKind)> {
    match l {
        Label::Chase(v) => v.iter().map(|c| (c.victim_square.to_string(), c.kind)).collect(),
        _ => Vec::new(),
    }
}

fn assert_chase(fen: &str, mv: &str, square: &str, kind: ChaseKind) {
    let l = label(fen, mv);
    assert!(chased(&l).contains(&(square.to_string(), kind)), "{fen} {mv}: {l:?}");
}

fn assert_idle(fen: &str, mv: &str) {
    assert_eq!(label(fen, mv), Label::Idle, "{fen} {mv}");
}

/// C1(a) direct capture, every piece as chaser: rook, horse, cannon, advisor, elephant.
#[test]
fn c1a_every_piece_chases() {
    use ChaseKind::*;
    assert_chase("4k4/9/c8/9/9/9/9/9/1R7/3K5 w", "b1a1", "a7", Unprotected);
    assert_chase("5k3/9/2r5r/9/2N6/2P6/9/9/9/4K4 w", "c5e6", "c7", HigherValue);
    assert_chase("3ak4/9/2n3n2/9/9/9/2P3P2/2C6/9/3K5 w", "c2g2", "g7", Unprotected);
    assert_chase("5k3/3r5/9/9/9/9/9/3c5/9/4KA3 w", "f0e1", "d2", HigherValue);
    assert_chase("5kr2/9/9/9/9/6n2/9/9/9/2B1K4 w", "c0e2", "g4", HigherValue);
}

/// C1(b): a move that lets a check win a piece whatever the reply (抽将) is a chase.
#[test]
fn c1b_chase_through_a_check() {
    assert_chase("4k3r/9/9/9/5N3/9/9/9/9/3K5 w", "f5h6", "i9", ChaseKind::ViaCheck);
    let no_check = ClassifyOptions { chase_check_depth: 0, ..ClassifyOptions::default() };
    assert_eq!(label_with("4k3r/9/9/9/5N3/9/9/9/9/3K5 w", "f5h6", no_check), Label::Idle);
}

/// C1(c) / 细则3: a cannon protected once but attacked twice (少根) is chased; once attacked, it is not.
#[test]
fn c1c_chase_through_an_exchange() {
    assert_chase("2r1k4/9/9/2c6/9/3N5/9/9/9/R2K5 w", "a0a6", "c6", ChaseKind::Outnumbered);
    assert_idle("2r1k4/9/9/2c6/9/9/9/9/9/R2K5 w", "a0a6");
}

/// C2: every kind of material can be chased (advisor, elephant, crossed pawn); an uncrossed pawn cannot.
#[test]
fn c2_victims() {
    use ChaseKind::*;
    assert_chase("4k4/9/3a5/9/R8/9/9/9/9/3K5 w", "a5a7", "d7", Unprotected);
    assert_chase("4k4/9/9/9/6b2/9/9/9/9/R2K5 w", "a0a5", "g5", Unprotected);
    assert_chase("4k4/9/9/9/9/9/2p6/9/9/R2K5 w", "a0a3", "c3", Unprotected);
    assert_idle("4k4/9/9/2p6/9/9/9/9/9/R2K5 w", "a0a6");
}

/// C3 protection: a real root makes an even exchange idle; a false root — the protector pinned to its king,
/// or held by the flying general — is no root at all.
#[test]
fn c3_real_and_false_roots() {
    use ChaseKind::*;
    assert_idle("4k4/9/c7r/9/9/9/9/9/1R7/3K5 w", "b1a1");
    assert_chase("3ak4/4n4/2c6/9/9/9/9/9/9/R2KR4 w", "a0a7", "c7", FalseRoot);
    assert_idle("3ak4/4n4/2c6/9/9/9/9/9/9/R2K5 w", "a0a7");
    assert_chase("4k4/9/9/2c6/4n4/9/9/9/9/R3K4 w", "a0a6", "c6", FalseRoot);
    assert_idle("4k4/9/9/2c6/4n4/9/9/9/9/R2K5 w", "a0a6");
}

/// C4 / 细则7: a capture answered by mate wins nothing.
#[test]
fn c4_no_chase_when_the_capture_is_mated() {
    assert_idle("4k4/9/c8/9/1R5r1/9/9/9/9/3K5 w", "b5a5");
    assert_chase("4k4/9/c8/9/1R7/9/9/9/9/3K5 w", "b5a5", "a7", ChaseKind::Unprotected);
}

/// C5 / §28.5: offering an exchange of like pieces is idle — unless the victim cannot take back (a blocked
/// horse leg), and an offer that also chases something else is a chase (细则5).
#[test]
fn c5_exchange_offers() {
    assert_idle("4k4/9/r8/9/9/9/9/9/1R7/3K5 w", "b1a1");
    assert_idle("4k4/9/c8/9/P8/9/9/1C7/9/3K5 w", "b2a2");
    assert_idle("4k4/9/2n6/9/9/9/4N4/9/9/3K5 w", "e3d5");
    assert_chase("4k4/9/2n6/2p6/9/9/4N4/9/9/3K5 w", "e3d5", "c7", ChaseKind::Unprotected);
    assert_chase("r3k4/9/3c5/9/R8/9/9/9/9/3K5 w", "a5a7", "d7", ChaseKind::Unprotected);
}

/// C6: the king's own attacks and a pawn's are idle; a chase made possible by a king move is a chase (§27.1);
/// pawn attacks count under the mutual-attack clause.
#[test]
fn c6_king_and_pawn() {
    assert_idle("3k5/9/9/8p/9/9/P8/9/5c3/4K4 w", "e0f0");
    assert_chase("5k3/9/9/4c4/9/9/9/9/4K4/4R4 w", "e1d1", "e6", ChaseKind::Unprotected);
    assert_idle("4k4/9/4c4/3P5/9/9/9/9/9/5K3 w", "d6e6");
    let mutual = ClassifyOptions { pawns_chase: true, ..ClassifyOptions::default() };
    assert!(matches!(label_with("4k4/9/4c4/3P5/9/9/9/9/9/5K3 w", "d6e6", mutual), Label::Chase(_)));
}

/// C8 novelty: only a chase that did not exist before the move counts — from chase to chase is idle; a
/// discovered line, a new cannon screen, a removed second screen and a cut protector all create one.
#[test]
fn c8_novelty() {
    use ChaseKind::*;
    assert_idle("4k4/9/c8/9/9/9/9/9/R8/3K5 w", "a1a2");
    assert_chase("4k4/9/c8/9/9/9/9/9/N8/R2K5 w", "a1b3", "a7", Unprotected);
    assert_chase("4k4/9/n8/9/9/9/1N7/9/9/C2K5 w", "b3a5", "a7", Unprotected);
    assert_chase("4k4/9/n8/9/9/9/P8/N8/9/C2K5 w", "a2c3", "a7", Unprotected);
    assert_chase("2rk5/9/R1c6/1N7/9/9/9/9/9/4K4 w", "b6c8", "c7", Unprotected);
}

/// C8 per form (rules.md §2.5): a direct attack is new even where a win through a check existed before — on a
/// file (C29) or a rank, against a cannon or a horse; moving on along the line it already attacked stays idle.
#[test]
fn c8_novelty_per_form() {
    use ChaseKind::*;
    // The black king on the open d-file: h0d0+ forces the cannon to interpose, so it is won through a check.
    let cannon = "9/3k5/9/9/8c/9/9/4K4/9/7R1 w";
    assert_chase(cannon, "h0i0", "i5", Unprotected);
    assert_chase(cannon, "h0h5", "i5", Unprotected);
    // Already attacking the cannon along the file, and still after the move: from chase to chase.
    assert_idle("9/3k5/9/9/8c/9/9/4K4/9/8R w", "i0i1");
    // A horse as victim, chased along a rank.
    assert_chase("9/3k5/9/9/8n/9/9/4K4/9/7R1 w", "h0h5", "i5", Unprotected);
}

/// C1(b) as amended: a win through a check counts only if the line wins material. The only check is h8e8+,
/// answered by the king taking the rook, after which d9's horse (no longer protected by its king) falls: a
/// rook for a horse, so the horse is not chased through the check. A check that wins it for nothing is.
#[test]
fn c1b_a_sacrificial_check_wins_nothing() {
    let set = |fen: &str| {
        let mut pos = Position::from_fen(fen).unwrap();
        let set = chuhan::rules::classify::chase_set(&mut pos, &ClassifyOptions::default());
        set.iter().map(|c| (c.victim_square.to_string(), c.kind)).collect::<Vec<_>>()
    };
    assert_eq!(set("3nkc3/7R1/9/9/9/9/9/9/4A4/3R1K3 w"), []);
    // Without the cannon on f9, h8h9+ drives the king to e8 and the rook on d0 takes the horse for nothing.
    assert_eq!(set("3nk4/7R1/9/9/9/9/9/9/4A4/3R1K3 w"), [("d9".to_string(), ChaseKind::ViaCheck)]);
}

/// 杀 (rules.md §2.2): a new threat of mate by checks; the threat that already existed before the move is not new.
#[test]
fn mate_threats_by_depth() {
    let depth = |d| ClassifyOptions { kill_depth: d, ..ClassifyOptions::default() };
    // The pawn covers e7, making Ra9+ Ke8 Rb8# a mate in two checks.
    assert_eq!(label_with("4k4/9/9/9/4P4/9/9/1R7/R8/5K3 w", "e5e6", depth(2)), Label::MateThreat);
    assert_eq!(label_with("4k4/9/9/9/4P4/9/9/1R7/R8/5K3 w", "e5e6", depth(1)), Label::Idle);
    // With three checks Ra9+ Ke8 Rb8+ Ke7 Ra7# was already there, pawn or not: not a new threat.
    assert_eq!(label_with("4k4/9/9/9/4P4/9/9/1R7/R8/5K3 w", "e5e6", depth(3)), Label::Idle);
    assert_eq!(label("3k5/3r5/c8/9/R8/9/9/9/9/4K4 w", "a5i5"), Label::MateThreat);
    assert_eq!(label_with("3k5/3r5/c8/9/R8/9/9/9/9/4K4 w", "a5i5", depth(0)), Label::Idle);
}

#[test]
fn asian_rules_ignore_mate_threats() {
    assert_eq!(Rules::with_set(RuleSet::Asian).classify_options().kill_depth, 0);
}

#[test]
fn mirror_helpers() {
    let (f, m) = flip_colors("4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1", "b1a1 a7b7");
    assert_eq!((f.as_str(), m.as_str()), ("3k5/1r7/9/9/9/9/9/C8/9/4K4 b - - 0 1", "b8a8 a2b2"));
    let (f, m) = mirror_files("4k4/9/c8/9/9/9/9/9/1R7/3K5 w - - 0 1", "b1a1");
    assert_eq!((f.as_str(), m.as_str()), ("4k4/9/8c/9/9/9/9/9/7R1/5K3 w - - 0 1", "h1i1"));
}

// ----- C1(b) amended 2026-12-04: chases through a series of checks (连续照将) ------------------------------------

/// The label of `mv` in `fen`, checked to be the same (kind and number of victims) with colours exchanged, reflected
/// left to right, and under the Asian rule set's options (which only switch 杀 off).
fn label_everywhere(fen: &str, mv: &str, opts: ClassifyOptions) -> Label {
    let l = label_with(fen, mv, opts);
    let asian = ClassifyOptions { kill_depth: Rules::with_set(RuleSet::Asian).classify_options().kill_depth, ..opts };
    assert_eq!(label_with(fen, mv, asian), l, "{fen} {mv} with the Asian rules' options");
    for (f, m) in [flip_colors(fen, mv), mirror_files(fen, mv)] {
        let other = label_with(&f, &m, opts);
        assert_eq!(std::mem::discriminant(&other), std::mem::discriminant(&l), "{f} {m}: {other:?}, not {l:?}");
        assert_eq!(chased(&other).len(), chased(&l).len(), "{f} {m}: {other:?}, not {l:?}");
    }
    l
}

fn checks(n: u32) -> ClassifyOptions {
    ClassifyOptions { chase_check_depth: n, ..ClassifyOptions::default() }
}

/// 1999 §28.3 "从下一着开始运用连续照将", §29.1 "能够通过连续照将吃子": the rook on h6 wins the cannon on e5 through two
/// checks — h6d6+ (the king's only move is to e8), d6e6+ (the king steps aside), e6×e5 — and no single check wins
/// it. So h1h6 chases the cannon, but not when the series is cut to one check.
#[test]
fn c1b_a_win_through_two_checks() {
    let fen = "5a3/3k5/9/9/4c4/9/9/9/4n2R1/5K3 w - - 0 1";
    let l = label_everywhere(fen, "h1h6", ClassifyOptions::default());
    assert_eq!(chased(&l), [("e5".to_string(), ChaseKind::ViaCheck)], "{l:?}");
    assert_eq!(label_everywhere(fen, "h1h6", checks(2)), l);
    assert_eq!(label_everywhere(fen, "h1h6", checks(1)), Label::Idle);
}

/// A win that takes three checks: after d4a4 the cannon checks from f3 over the horse on f5 (c3f3+), the horse
/// must leave the file, and wherever it goes the rook and cannon win it with at most two more checks. A chase
/// with the default series of three, idle with two (a4a7+ first fails: the king steps to f8).
#[test]
fn c1b_a_win_through_three_checks() {
    let fen = "9/9/5k3/9/5n3/3R5/2C6/4K4/9/9 w - - 0 1";
    let l = label_everywhere(fen, "d4a4", ClassifyOptions::default());
    assert_eq!(chased(&l), [("f5".to_string(), ChaseKind::ViaCheck)], "{l:?}");
    assert_eq!(label_everywhere(fen, "d4a4", checks(2)), Label::Idle);
}

/// The two-check position with a black advisor on e8: the first check h6d6+ is now answered by the advisor
/// interposing on d7 (protected by its king), and h6h8+ is no check at all, so the series breaks: no chase.
#[test]
fn c1b_a_reply_that_breaks_the_series() {
    assert_eq!(label_everywhere("5a3/3ka4/9/9/4c4/9/9/9/4n2R1/5K3 w - - 0 1", "h1h6", checks(3)), Label::Idle);
}

/// C1(b): a series that wins a piece but loses a bigger one is no chase. After e2a2 the cannon and rook win the
/// advisor on f7 in two checks whatever Black does (c3c7+, then a2a7+ with the horse as screen), but one reply
/// takes the rook (e6×c7): a rook for an advisor.
#[test]
fn c1b_a_series_that_loses_more_than_it_wins() {
    assert_eq!(label_everywhere("9/9/3k1a3/4n4/9/9/2R6/4C4/9/5K3 w - - 0 1", "e2a2", checks(3)), Label::Idle);
}

/// The case: the rook alternates a chase through two checks (h1h6, the cannon on e5) with a direct chase
/// (h6h1, the horse on e1). Read with one check, h1h6 was idle and the cycle 一捉一闲, allowed; with the series it
/// is 长捉 of two pieces, forbidden under Chinese rules (§28.12 "追捉一子或数子"). AXF rule 32 needs one same piece
/// chased throughout, so the Asian verdict stays a draw.
#[test]
fn g18_chasing_through_two_checks_in_turn_with_a_direct_chase() {
    let (fen, moves) = ("5a3/3k5/9/9/4c4/9/9/9/4n2R1/5K3 w - - 0 1", "h1h6 f9e8 h6h1 e8f9 h1h6 f9e8 h6h1 e8f9");
    check(fen, moves, (BlackWins, ForbiddenRepetition), (Draw, RepetitionDraw), "h1h6:捉 f9e8:闲 h6h1:捉 e8f9:闲");
    let one_check = Rules { chase_check_depth: 1, ..Rules::default() };
    assert_eq!(judge(fen, moves, &one_check).0, Draw);
}

/// Two pieces taking turns to chase one victim: the cannon steps onto c7 and attacks the advisor on f7 over the
/// horse; the horse leaves e7; the cannon goes back to c5, opening the rook's line to f7; the horse returns.
/// Each of Red's moves chases the same advisor with another piece: 长捉 under both rule sets.
#[test]
fn g19_two_pieces_take_turns_on_one_victim() {
    check(
        "9/4k4/R3na3/9/2C6/9/9/9/5K3/9 w - - 0 1",
        "c5c7 e7f5 c7c5 f5e7 c5c7 e7f5 c7c5 f5e7",
        (BlackWins, ForbiddenRepetition),
        (BlackWins, ForbiddenRepetition),
        "c5c7:捉 e7f5:闲 c7c5:捉 f5e7:闲",
    );
}

/// 长杀 against 长捉: Red's rook threatens mate from d2 (杀) and goes back; Black's cannon blocks on d8 and goes
/// back, and each block frees Black's rook to take the horse on a3 (before it, the capture would have been
/// answered by mate: C4). Both sides forbidden: a draw under Chinese rules (§26.3). AXF has no 杀, so there Red's
/// moves are idle and Black's perpetual chase loses.
#[test]
fn g20_perpetual_mate_threat_against_perpetual_chase() {
    check(
        "3k5/9/9/9/3c5/9/N7r/6R2/9/4K4 w - - 0 1",
        "g2d2 d5d8 d2g2 d8d5 g2d2 d5d8 d2g2 d8d5",
        (Draw, RepetitionDraw),
        (RedWins, ForbiddenRepetition),
        "g2d2:杀 d5d8:捉 d2g2:杀 d8d5:捉",
    );
}
