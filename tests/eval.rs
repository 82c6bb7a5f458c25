//! The evaluation is blind to colour and to left and right, on every position of random games; kept move by
//! move through the search's interface, it gives what it gives computed from scratch.

mod common;

use chuhan::eval::hce::{self, evaluate};
use chuhan::eval::Evaluator;
use chuhan::nnue::{self, simd::Backend, Network};
use chuhan::Position;
use common::referee::{flip_colors, mirror_files};
use rand::Rng;
use std::sync::Arc;

#[test]
fn colour_and_mirror_symmetry() {
    common::random_positions(3000, 41, |pos| {
        let fen = pos.to_fen();
        let v = evaluate(pos);
        let (flipped, _) = flip_colors(&fen, "");
        let (mirrored, _) = mirror_files(&fen, "");
        assert_eq!(evaluate(&Position::from_fen(&flipped).unwrap()), v, "{fen} with colours exchanged");
        assert_eq!(evaluate(&Position::from_fen(&mirrored).unwrap()), v, "{fen} mirrored");
    });
}

/// Drives an evaluation through the search's interface along a random path (moves, null moves, take-backs)
/// and checks every answer against `full`, the evaluation computed from scratch. Any evaluation with state
/// kept move by move must pass this.
fn incremental_matches_full<E: Evaluator>(new: impl Fn() -> E, full: impl Fn(&Position) -> i32) {
    let mut rng = common::rng(7);
    for start in common::starts() {
        let mut pos = Position::from_fen(start).unwrap();
        let mut eval = new();
        eval.refresh(&pos);
        // What was pushed, so that pops undo the right kind of move.
        let mut path: Vec<bool> = Vec::new();
        for _ in 0..400 {
            assert_eq!(eval.evaluate(&pos), full(&pos), "{} after {} pushes", pos.to_fen(), path.len());
            let moves = pos.legal_moves();
            let back = path.len() >= 24 || moves.is_empty() || (!path.is_empty() && rng.gen_bool(0.3));
            if back {
                match path.pop() {
                    Some(true) => pos.unmake_null_move(),
                    Some(false) => pos.unmake_move(),
                    None => break,
                }
                eval.pop();
            } else if !pos.in_check() && rng.gen_bool(0.1) {
                eval.push_null();
                pos.make_null_move();
                path.push(true);
            } else {
                let m = moves.as_slice()[rng.gen_range(0..moves.len())];
                eval.push(&pos, m);
                pos.make_move(m);
                path.push(false);
            }
        }
    }
}

#[test]
fn hce_state_matches_full_evaluation() {
    incremental_matches_full(hce::State::default, hce::evaluate);
}

#[test]
fn nnue_state_matches_full_evaluation() {
    let net = Arc::new(Network::random(64, 4));
    for backend in Backend::available() {
        incremental_matches_full(
            || nnue::State::with_backend(Arc::clone(&net), backend),
            |p| nnue::State::evaluate_full(&net, p),
        );
    }
}

/// The built-in network: a position and its colour-flipped twin get the same evaluation (each from its side to
/// move), and every SIMD implementation gives the scalar one's.
#[test]
fn nnue_colour_flip_and_backends_agree() {
    let net = nnue::default_network();
    common::random_positions(500, 43, |pos| {
        let fen = pos.to_fen();
        let v = nnue::State::evaluate_full(&net, pos);
        for b in Backend::available() {
            let mut s = nnue::State::with_backend(Arc::clone(&net), b);
            s.refresh(pos);
            assert_eq!(s.evaluate(pos), v, "{fen} {b:?}");
        }
        let (flipped, _) = flip_colors(&fen, "");
        assert_eq!(nnue::State::evaluate_full(&net, &Position::from_fen(&flipped).unwrap()), v, "{fen} / {flipped}");
    });
}
