//! Board invariants over random play: make/unmake restores everything, the incremental key equals a fresh
//! one, legal moves equal those of a naive reference generator written here from the rules, and the attack
//! queries agree with what actually happens after the move.

mod common;

use chuhan::{Color, GenType, Move, MoveList, PieceType, Position, Square};
use std::collections::BTreeSet;

/// The rules of movement, written as plainly as possible on a 9×10 array. Slow and independent of the engine.
mod naive {
    use chuhan::{Color, Piece, PieceType, Position, Square};

    pub type Grid = [[Option<Piece>; 9]; 10];

    pub fn grid(pos: &Position) -> Grid {
        let mut g = [[None; 9]; 10];
        for sq in Square::all() {
            g[sq.rank() as usize][sq.file() as usize] = pos.piece_at(sq);
        }
        g
    }

    fn at(g: &Grid, f: i32, r: i32) -> Option<Option<Piece>> {
        if (0..9).contains(&f) && (0..10).contains(&r) {
            Some(g[r as usize][f as usize])
        } else {
            None
        }
    }

    fn in_palace(c: Color, f: i32, r: i32) -> bool {
        (3..=5).contains(&f) && if c == Color::Red { (0..=2).contains(&r) } else { (7..=9).contains(&r) }
    }

    fn own_half(c: Color, r: i32) -> bool {
        if c == Color::Red {
            r <= 4
        } else {
            r >= 5
        }
    }

    /// Destinations of the piece on (f, r) by the movement rules alone (may land on own pieces: filtered later).
    pub fn targets(g: &Grid, f: i32, r: i32) -> Vec<(i32, i32)> {
        let p = g[r as usize][f as usize].unwrap();
        let c = p.color();
        let mut out = Vec::new();
        match p.kind() {
            PieceType::King => {
                for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                    if in_palace(c, f + df, r + dr) {
                        out.push((f + df, r + dr));
                    }
                }
            }
            PieceType::Advisor => {
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    if in_palace(c, f + df, r + dr) {
                        out.push((f + df, r + dr));
                    }
                }
            }
            PieceType::Elephant => {
                for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let (tf, tr) = (f + 2 * df, r + 2 * dr);
                    if at(g, tf, tr).is_some() && own_half(c, tr) && at(g, f + df, r + dr) == Some(None) {
                        out.push((tf, tr));
                    }
                }
            }
            PieceType::Horse => {
                for (df, dr) in [(1i32, 2i32), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)] {
                    let leg = if dr.abs() == 2 { (f, r + dr / 2) } else { (f + df / 2, r) };
                    if at(g, f + df, r + dr).is_some() && at(g, leg.0, leg.1) == Some(None) {
                        out.push((f + df, r + dr));
                    }
                }
            }
            PieceType::Rook | PieceType::Cannon => {
                for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                    let (mut tf, mut tr) = (f + df, r + dr);
                    let mut screens = 0;
                    while let Some(cell) = at(g, tf, tr) {
                        match (p.kind(), cell, screens) {
                            (PieceType::Rook, None, _) => out.push((tf, tr)),
                            (PieceType::Rook, Some(_), _) => {
                                out.push((tf, tr));
                                break;
                            }
                            (_, None, 0) => out.push((tf, tr)),
                            (_, None, _) => {}
                            (_, Some(_), 0) => screens = 1,
                            (_, Some(_), _) => {
                                out.push((tf, tr));
                                break;
                            }
                        }
                        tf += df;
                        tr += dr;
                    }
                }
            }
            PieceType::Pawn => {
                let fwd = if c == Color::Red { 1 } else { -1 };
                let mut steps = vec![(0, fwd)];
                if !own_half(c, r) {
                    steps.extend([(1, 0), (-1, 0)]);
                }
                for (df, dr) in steps {
                    if at(g, f + df, r + dr).is_some() {
                        out.push((f + df, r + dr));
                    }
                }
            }
        }
        out
    }

    /// Whether `c`'s king is attacked by any enemy piece, or faces the enemy king on an open file.
    pub fn king_in_danger(g: &Grid, c: Color) -> bool {
        let mut king = None;
        let mut their_king = None;
        for r in 0..10 {
            for f in 0..9 {
                if let Some(p) = g[r as usize][f as usize] {
                    if p.kind() == PieceType::King {
                        if p.color() == c {
                            king = Some((f, r));
                        } else {
                            their_king = Some((f, r));
                        }
                    }
                }
            }
        }
        let (kf, kr) = king.unwrap();
        let (tf, tr) = their_king.unwrap();
        if kf == tf && (kr.min(tr) + 1..kr.max(tr)).all(|rr| g[rr as usize][kf as usize].is_none()) {
            return true;
        }
        for r in 0..10 {
            for f in 0..9 {
                if let Some(p) = g[r as usize][f as usize] {
                    if p.color() != c && p.kind() != PieceType::King && targets(g, f, r).contains(&(kf, kr)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Legal moves as (from, to) names.
    pub fn legal_moves(pos: &Position) -> Vec<String> {
        let g = grid(pos);
        let us = pos.side_to_move();
        let mut out = Vec::new();
        for r in 0..10 {
            for f in 0..9 {
                let Some(p) = g[r as usize][f as usize] else { continue };
                if p.color() != us {
                    continue;
                }
                for (tf, tr) in targets(&g, f, r) {
                    if g[tr as usize][tf as usize].is_some_and(|q| q.color() == us) {
                        continue;
                    }
                    let mut after = g;
                    after[tr as usize][tf as usize] = Some(p);
                    after[r as usize][f as usize] = None;
                    if !king_in_danger(&after, us) {
                        let from = Square::new(f as u8, r as u8);
                        let to = Square::new(tf as u8, tr as u8);
                        out.push(format!("{from}{to}"));
                    }
                }
            }
        }
        out.sort();
        out
    }
}

fn names(list: &MoveList) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn legal_moves_match_the_naive_generator() {
    common::random_positions(6000, 1, |pos| {
        let fast = names(&pos.legal_moves());
        let slow = naive::legal_moves(pos);
        assert_eq!(fast, slow, "{}", pos.to_fen());
        assert_eq!(pos.count_legal(), slow.len(), "count_legal in {}", pos.to_fen());
        assert_eq!(pos.in_check(), naive::king_in_danger(&naive::grid(pos), pos.side_to_move()), "{}", pos.to_fen());
    });
}

/// Evasions have their own path (a pre-filter by the points that can end the check, then the full test):
/// many positions in check, single and double, against the naive generator.
#[test]
fn evasions_match_the_naive_generator() {
    let (mut checks, mut double) = (0, 0);
    common::random_positions(60_000, 11, |pos| {
        if !pos.in_check() {
            return;
        }
        checks += 1;
        double += (pos.checkers().len() > 1) as usize;
        assert_eq!(names(&pos.legal_moves()), naive::legal_moves(pos), "{}", pos.to_fen());
    });
    assert!(checks >= 1000 && double >= 30, "{checks} in check, {double} double");
}

#[test]
fn captures_and_quiets_partition_the_moves() {
    common::random_positions(4000, 2, |pos| {
        let mut caps = MoveList::new();
        let mut quiets = MoveList::new();
        pos.generate(GenType::Captures, &mut caps);
        pos.generate(GenType::Quiets, &mut quiets);
        assert!(caps.iter().all(|&m| pos.is_capture(m)));
        assert!(quiets.iter().all(|&m| !pos.is_capture(m)));
        let mut both: Vec<String> = names(&caps);
        both.extend(names(&quiets));
        both.sort();
        assert_eq!(both, names(&pos.legal_moves()), "{}", pos.to_fen());
        let mut evasions = MoveList::new();
        pos.generate(GenType::Evasions, &mut evasions);
        if pos.in_check() {
            assert_eq!(names(&evasions), names(&pos.legal_moves()));
        } else {
            assert!(evasions.is_empty());
        }
    });
}

#[test]
fn make_unmake_restores_everything() {
    common::random_positions(5000, 3, |pos| {
        let fen = pos.to_fen();
        let key = pos.key();
        let state = *pos.state();
        let ply = pos.ply();
        pos.validate().unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.key(), pos.compute_key());
        // The piece count (the network's output bucket) is the pieces on the board, kept move by move.
        let on_board = Square::all().filter(|&sq| pos.piece_at(sq).is_some()).count() as u32;
        assert_eq!(pos.piece_count(), on_board, "{fen}");
        for &m in pos.legal_moves().iter() {
            let check = pos.gives_check(m);
            // The key the search prefetches before playing the move is the one the move makes.
            let predicted = pos.key_after(m);
            pos.make_move(m);
            pos.validate().unwrap_or_else(|e| panic!("{fen} after {m}: {e}"));
            assert_eq!(pos.key(), pos.compute_key(), "incremental key after {m} in {fen}");
            assert_eq!(pos.key(), predicted, "key_after {m} in {fen}");
            assert_eq!(pos.in_check(), check, "gives_check {m} in {fen}");
            let after = *pos.state();
            pos.unmake_move();
            // The search's path, which passes the known gives-check answer, reaches the same state.
            pos.make_move_giving(m, check);
            assert_eq!(*pos.state(), after, "make_move_giving {m} in {fen}");
            pos.unmake_move();
            assert_eq!(pos.to_fen(), fen);
            assert_eq!(pos.key(), key);
            assert_eq!(*pos.state(), state);
            assert_eq!(pos.ply(), ply);
        }
        if !pos.in_check() {
            pos.make_null_move();
            pos.validate().unwrap_or_else(|e| panic!("{fen} after null: {e}"));
            assert_ne!(pos.key(), key);
            pos.unmake_null_move();
            assert_eq!((pos.to_fen(), pos.key(), *pos.state()), (fen.clone(), key, state));
        }
    });
}

#[test]
fn is_legal_agrees_with_generation_for_every_square_pair() {
    common::random_positions(400, 4, |pos| {
        let legal: BTreeSet<Move> = pos.legal_moves().iter().copied().collect();
        for from in Square::all() {
            for to in Square::all() {
                if from == to {
                    continue;
                }
                let m = Move::new(from, to);
                assert_eq!(pos.is_legal(m), legal.contains(&m), "{m} in {}", pos.to_fen());
            }
        }
        assert!(!pos.is_legal(Move::NULL));
    });
}

#[test]
fn fen_round_trips() {
    common::random_positions(5000, 5, |pos| {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(back.to_fen(), fen);
        assert_eq!(back.key(), pos.key());
        assert_eq!(back.in_check(), pos.in_check());
    });
}

/// XBoard's xiangqi FEN: H for the horse, E for the elephant, and no castling or en-passant fields (`w 0 1`).
#[test]
fn xboard_fen() {
    let xboard = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1").unwrap();
    assert_eq!(xboard.to_fen(), Position::startpos().to_fen());
    let later = Position::from_fen("2eakae2/9/9/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b 7 12").unwrap();
    assert_eq!(later.to_fen(), "2bakab2/9/9/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12");
    // The four-field form still reads the counters after the two ignored fields.
    let full = Position::from_fen("2bakab2/9/9/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12").unwrap();
    assert_eq!(full.to_fen(), later.to_fen());
}

#[test]
fn checkers_and_pins() {
    common::random_positions(3000, 6, |pos| {
        let us = pos.side_to_move();
        assert_eq!(!pos.checkers().is_empty(), pos.in_check(), "{}", pos.to_fen());
        // A pinned piece is one whose removal alone exposes its king: check by replaying without it.
        for sq in pos.pinned(us) {
            assert_eq!(pos.piece_at(sq).map(|p| p.color()), Some(us));
        }
        if !pos.in_check() {
            let g = naive::grid(pos);
            for sq in pos.pieces_of(us) {
                if pos.piece_at(sq).unwrap().kind() == PieceType::King {
                    continue;
                }
                let mut without = g;
                without[sq.rank() as usize][sq.file() as usize] = None;
                assert_eq!(
                    pos.pinned(us).contains(sq),
                    naive::king_in_danger(&without, us),
                    "{sq} in {}",
                    pos.to_fen()
                );
            }
        }
    });
}

#[test]
fn static_exchange() {
    let see = |fen: &str, m: &str| Position::from_fen(fen).unwrap().see(m.parse().unwrap());
    // Rook takes an undefended pawn.
    assert_eq!(see("4k4/9/9/9/4p4/9/9/9/9/3KR4 w", "e0e5"), 100);
    // Rook takes a pawn defended by a cannon behind a screen: loses the rook.
    assert_eq!(see("3k5/4c4/4n4/9/4p4/9/9/9/9/4RK3 w", "e0e5"), 100 - 900);
    // The cannon's screen changes: cannon takes a horse defended by a rook, the cannon is lost.
    assert_eq!(see("3k5/9/9/4r4/4n4/9/4P4/4C4/9/5K3 w", "e2e5"), 400 - 450);
    // Rook takes a horse that a crossed pawn defends sideways, or an advisor diagonally.
    assert_eq!(see("4k4/9/9/9/9/9/3pn4/9/9/4RK3 w", "e0e3"), 400 - 900);
    assert_eq!(see("3k1a3/4n4/9/9/9/9/9/9/9/4RK3 w", "e0e8"), 400 - 900);
    // Horse takes a rook defended by a pawn.
    assert_eq!(see("3k5/9/9/9/9/4p4/4r4/9/3N5/4K4 w", "d1e3"), 900 - 400);
    // Quiet move onto a square the rook attacks but the king defends: the king may take last.
    assert_eq!(see("5k3/9/9/9/9/9/4r4/9/9/R2K5 w", "a0e0"), 0);
    // The same square undefended: the rook is lost.
    assert_eq!(see("3k5/9/9/9/9/9/4r4/9/5K3/R8 w", "a0e0"), -900);
}

#[test]
fn piece_identity_follows_the_piece() {
    let mut pos = Position::startpos();
    let slot = pos.slot_at("h2".parse().unwrap());
    pos.make_move("h2e2".parse().unwrap());
    assert_eq!(pos.slot_at("e2".parse().unwrap()), slot);
    assert_eq!(pos.slot_square(slot), Some("e2".parse().unwrap()));
    assert_eq!(Position::slot_piece(slot).map(|p| p.kind()), Some(PieceType::Cannon));
    pos.make_move("h7h0".parse().unwrap());
    assert_eq!(pos.count(Color::Red, PieceType::Horse), 1);
    pos.unmake_move();
    assert_eq!(pos.count(Color::Red, PieceType::Horse), 2);
}
