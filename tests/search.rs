//! The search with the rules: completing a forbidden cycle is a loss for it (and only under the rules that
//! forbid it), it finds mates, and it is deterministic on one thread.

use chuhan::notation::parse_iccs;
use chuhan::rules::{RuleSet, Rules};
use chuhan::search::{search, Limits, SearchResult, Settings, Shared, Silent, MATE_BOUND};
use chuhan::Position;

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        let mv = parse_iccs(&pos, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make_move(mv);
    }
    pos
}

fn think(pos: &Position, depth: i32, threads: usize) -> SearchResult {
    let shared = Shared::new(16);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    search(pos, &limits, &Settings { threads, ..Settings::default() }, &shared, &Silent)
}

/// The value of completing a cycle, searched with the root restricted to that move.
fn value_of(fen: &str, moves: &str, only: &str, set: RuleSet) -> i32 {
    let pos = play(fen, moves);
    let shared = Shared::new(16);
    let settings = Settings { rules: Rules::with_set(set), only: vec![only.parse().unwrap()], ..Settings::default() };
    search(&pos, &Limits { depth: Some(6), ..Limits::default() }, &settings, &shared, &Silent).score
}

#[test]
fn completing_a_forbidden_cycle_is_a_loss() {
    // SPEC C19, twice round: one check one chase. Chinese rules: the third time loses; AXF: allowed.
    let (fen, moves) = ("9/3nk4/9/9/3R5/9/9/9/9/3K5 w - - 0 1", "d5e5 e8f8 e5d5 f8e8 d5e5 e8f8");
    assert!(value_of(fen, moves, "e5d5", RuleSet::Chinese) <= -MATE_BOUND);
    assert!(value_of(fen, moves, "e5d5", RuleSet::Asian) > -MATE_BOUND);
    // SPEC C01: perpetual check loses under both.
    let (fen, moves) = ("4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1", "f5e5 e9f9 e5f5 f9e9 f5e5 e9f9");
    assert!(value_of(fen, moves, "e5f5", RuleSet::Chinese) <= -MATE_BOUND);
    assert!(value_of(fen, moves, "e5f5", RuleSet::Asian) <= -MATE_BOUND);
}

#[test]
fn finds_mates() {
    // Mate in one (Ri0-i9#) and in two by checks (Ra9+ Ke8 Rb8#).
    let r = think(&Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap(), 4, 1);
    assert_eq!((r.best.unwrap().to_string().as_str(), r.score >= MATE_BOUND), ("i0i9", true));
    let r = think(&Position::from_fen("4k4/9/9/4P4/9/9/9/1R7/R8/5K3 w - - 0 1").unwrap(), 6, 1);
    assert!(r.score >= MATE_BOUND, "{r:?}");
}

#[test]
fn one_thread_is_deterministic_and_two_threads_agree_on_mates() {
    let pos = Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1").unwrap();
    let a = think(&pos, 9, 1);
    let b = think(&pos, 9, 1);
    assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
    let two = think(&Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap(), 6, 2);
    assert_eq!(two.best.unwrap().to_string(), "i0i9");
}

#[test]
fn a_new_game_forgets_what_earlier_searches_learnt() {
    // Within a game the hash table and the histories carry over from move to move; `new_game` (ucinewgame,
    // UCCI's setoption newgame) wipes both, so the same search is repeated exactly.
    let pos = Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1").unwrap();
    let other = play(chuhan::START_FEN, "h2e2 h9g7");
    let shared = Shared::new(16);
    let limits = Limits { depth: Some(8), ..Limits::default() };
    let run = |p: &Position| {
        shared.stop.store(false, std::sync::atomic::Ordering::Relaxed);
        search(p, &limits, &Settings::default(), &shared, &Silent)
    };
    let first = run(&pos);
    let again = run(&pos);
    assert!(again.nodes < first.nodes, "a repeated search reuses the table: {} vs {}", again.nodes, first.nodes);
    run(&other);
    shared.new_game();
    let fresh = run(&pos);
    assert_eq!((fresh.best, fresh.nodes, fresh.score), (first.best, first.nodes, first.score));
}
