//! The evaluation is blind to colour and to left and right, on every position of random games; kept move by
//! move through the search's interface, it gives what it gives computed from scratch.

mod common;

use chuhan::eval::hce::{self, evaluate};
use chuhan::eval::Evaluator;
use chuhan::nnue::{self, features::FeatureSet, simd::Backend, Network};
use chuhan::{Color, Position};
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
/// and checks its answers against `full`, the evaluation computed from scratch, at a share `asked` of the nodes
/// (below 1, state kept lazily must catch up over several moves, as when the search cuts a node before it
/// evaluates). Any evaluation with state kept move by move must pass this.
fn incremental_matches_full<E: Evaluator>(new: impl Fn() -> E, full: impl Fn(&Position) -> i32, asked: f64) {
    let mut rng = common::rng(7);
    for start in common::starts() {
        let mut pos = Position::from_fen(start).unwrap();
        let mut eval = new();
        eval.refresh(&pos);
        // What was pushed, so that pops undo the right kind of move.
        let mut path: Vec<bool> = Vec::new();
        for _ in 0..400 {
            if rng.gen_bool(asked) {
                assert_eq!(eval.evaluate(&pos), full(&pos), "{} after {} pushes", pos.to_fen(), path.len());
            }
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
    incremental_matches_full(hce::State::default, hce::evaluate, 1.0);
}

/// Every feature set, every SIMD implementation, evaluated at every node and at a few: the lazy updates and the
/// refresh cache give the accumulators a refresh gives.
#[test]
fn nnue_state_matches_full_evaluation() {
    for (features, buckets) in [(FeatureSet::Plain, 1), (FeatureSet::KingBuckets, 8), (FeatureSet::KingBuckets2, 8)] {
        let net = Arc::new(Network::random(features, 64, buckets, 4));
        for backend in Backend::available() {
            for asked in [1.0, 0.2] {
                incremental_matches_full(
                    || nnue::State::with_backend(Arc::clone(&net), backend),
                    |p| nnue::State::evaluate_full(&net, p),
                    asked,
                );
            }
        }
    }
}

/// A king-bucketed network (either rule) scores a position and its mirror image alike, bit for bit, whatever
/// its weights: on thousands of positions of random games, and on the start position's mirrored first moves.
#[test]
fn king_buckets_are_mirror_symmetric() {
    for features in [FeatureSet::KingBuckets, FeatureSet::KingBuckets2] {
        mirror_symmetric(&Network::random(features, 32, 8, 11));
    }
    let start = Position::startpos();
    // A plain network has no such guarantee: the same test finds a difference.
    let plain = Network::random(FeatureSet::Plain, 32, 1, 11);
    let mut h2e2 = start.clone();
    h2e2.make_move("h2e2".parse().unwrap());
    let mut b2e2 = start.clone();
    b2e2.make_move("b2e2".parse().unwrap());
    assert_ne!(nnue::State::evaluate_full(&plain, &h2e2), nnue::State::evaluate_full(&plain, &b2e2));
}

/// Under `king-buckets-2` a position and its colour-flipped twin give the same accumulators, swapped, so any
/// network of that set scores them alike (each from its side to move), bit for bit, kings on the centre file
/// included; under `king-buckets` (net6–net8) the same random weights find twins that differ.
#[test]
fn king_buckets_2_are_colour_symmetric() {
    for features in [FeatureSet::KingBuckets2, FeatureSet::KingBuckets] {
        let net = Network::random(features, 32, 8, 12);
        let (mut differ, mut centre) = (0, 0);
        common::random_positions(3000, 46, |pos| {
            let fen = pos.to_fen();
            let (flipped, _) = flip_colors(&fen, "");
            let twin = nnue::State::evaluate_full(&net, &Position::from_fen(&flipped).unwrap());
            let v = nnue::State::evaluate_full(&net, pos);
            if features == FeatureSet::KingBuckets2 {
                assert_eq!(twin, v, "{fen} / {flipped}");
            }
            differ += usize::from(twin != v);
            centre += usize::from(Color::ALL.iter().any(|&c| pos.king_square(c).file() == 4));
        });
        assert!(centre > 1000, "{centre} positions with a king on the centre file");
        assert!(features == FeatureSet::KingBuckets2 || differ > 50, "{differ} twins differ");
    }
}

fn mirror_symmetric(net: &Network) {
    let mut asymmetric = 0;
    common::random_positions(3000, 45, |pos| {
        let fen = pos.to_fen();
        let (mirrored, _) = mirror_files(&fen, "");
        let twin = Position::from_fen(&mirrored).unwrap();
        let v = nnue::State::evaluate_full(net, pos);
        assert_eq!(nnue::State::evaluate_full(net, &twin), v, "{fen} mirrored");
        asymmetric += usize::from(mirrored != fen);
    });
    assert!(asymmetric > 2500, "{asymmetric}");
    let start = Position::startpos();
    let mut seen = 0;
    for m in start.legal_moves().iter() {
        let twin_move = chuhan::Move::new(m.from().mirror_file(), m.to().mirror_file());
        let (mut a, mut b) = (start.clone(), start.clone());
        a.make_move(*m);
        b.make_move(twin_move);
        assert_eq!(nnue::State::evaluate_full(net, &a), nnue::State::evaluate_full(net, &b), "{m} / {twin_move}");
        seen += 1;
    }
    assert_eq!(seen, 44);
}

/// The built-in network (net9, king-buckets-2): it scores a position and its mirror image alike, and the search's
/// state (its refresh cache) gives the full evaluation's score on every SIMD implementation.
#[test]
fn the_built_in_network_is_mirror_symmetric() {
    let net = nnue::default_network();
    assert_eq!((net.features, net.hidden, net.output_buckets), (FeatureSet::KingBuckets2, 256, 8));
    assert!(net.qb > 64, "the output scale of a network trained since 12-06: {}", net.qb);
    common::random_positions(300, 47, |pos| {
        let fen = pos.to_fen();
        let v = nnue::State::evaluate_full(&net, pos);
        let (mirrored, _) = mirror_files(&fen, "");
        assert_eq!(nnue::State::evaluate_full(&net, &Position::from_fen(&mirrored).unwrap()), v, "{fen} mirrored");
        for b in Backend::available() {
            let mut s = nnue::State::with_backend(Arc::clone(&net), b);
            s.refresh(pos);
            assert_eq!(s.evaluate(pos), v, "{fen} {b:?}");
        }
    });
}

/// A position and its colour-flipped twin get the same evaluation (each from its side to move), and every SIMD
/// implementation gives the scalar one's: for the built-in network, and for a plain one (net0–net5's layout).
/// Under `plain` and `king-buckets-2` the twins are alike everywhere. Under `king-buckets` (net6–net8) they are
/// alike unless a king stands on the centre file: there the board's lean, judged as Red sees it, picks the
/// reflection for both views, so the twins may be read reflected differently (kept so for the networks trained
/// that way).
#[test]
fn nnue_colour_flip_and_backends_agree() {
    let plain = Arc::new(Network::random(FeatureSet::Plain, 64, 1, 13));
    for net in [nnue::default_network(), plain] {
        let everywhere = net.features != FeatureSet::KingBuckets;
        let mut centre = 0;
        common::random_positions(500, 43, |pos| {
            let fen = pos.to_fen();
            let v = nnue::State::evaluate_full(&net, pos);
            for b in Backend::available() {
                let mut s = nnue::State::with_backend(Arc::clone(&net), b);
                s.refresh(pos);
                assert_eq!(s.evaluate(pos), v, "{fen} {b:?}");
            }
            let (flipped, _) = flip_colors(&fen, "");
            let twin = nnue::State::evaluate_full(&net, &Position::from_fen(&flipped).unwrap());
            if everywhere || Color::ALL.iter().all(|&c| pos.king_square(c).file() != 4) {
                assert_eq!(twin, v, "{fen} / {flipped}");
            } else {
                centre += 1;
            }
        });
        assert!(everywhere || centre > 100, "{centre} positions with a king on the centre file");
    }
}
