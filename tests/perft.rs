//! Perft counts against the published reference numbers (`board::perft::REFERENCES`).
//! Depths up to 4 run by default; the deep ones are `#[ignore]`d (run with `cargo test --release -- --ignored`).

use chuhan::board::perft::{divide, perft, reference_fen, REFERENCES};
use chuhan::Position;

/// Checks the reference position `name` up to `max_depth` (all its published counts when `None`).
fn check(name: &str, max_depth: Option<usize>) {
    let r = REFERENCES.iter().find(|r| r.name == name).unwrap();
    let mut pos = Position::from_fen(r.fen).unwrap();
    for (i, &want) in r.counts.iter().take(max_depth.unwrap_or(usize::MAX)).enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&mut pos, depth), want, "{} ({}) depth {depth}", r.name, r.fen);
    }
    assert_eq!(pos.to_fen(), Position::from_fen(r.fen).unwrap().to_fen(), "perft must leave the position unchanged");
}

/// One test per reference position to depth 4, and one `#[ignore]`d test with every published count.
macro_rules! perft_tests {
    ($($name:ident, $deep:ident;)*) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name), Some(4));
            }

            #[test]
            #[ignore]
            fn $deep() {
                check(stringify!($name), None);
            }
        )*

        #[test]
        fn every_reference_position_is_tested() {
            let tested = [$(stringify!($name)),*];
            assert!(REFERENCES.iter().all(|r| tested.contains(&r.name)));
        }
    };
}

perft_tests! {
    start, start_deep;
    pos2, pos2_deep;
    pos3, pos3_deep;
    pos4, pos4_deep;
    pos5, pos5_deep;
    pos6, pos6_deep;
    pos7, pos7_deep;
    pos8, pos8_deep;
    pos9, pos9_deep;
    pos10, pos10_deep;
    pos11, pos11_deep;
    pos12, pos12_deep;
    fsf1, fsf1_deep;
    fsf2, fsf2_deep;
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    let pos = Position::from_fen(reference_fen("pos2")).unwrap();
    let one = divide(&pos, 3, 1);
    let two = divide(&pos, 3, 2);
    assert_eq!(one, two);
    assert_eq!(one.len(), 38);
    assert_eq!(one.iter().map(|(_, n)| n).sum::<u64>(), 43929);
}

#[test]
fn mate_and_stalemate_have_no_moves() {
    // Stalemate (rules.md §6 N01): Black has no legal move and is not in check; it loses all the same.
    let pos = Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(!pos.in_check());
    assert_eq!(pos.legal_moves().len(), 0);
    // Flying general (rules.md §5.4, N09): e0d0 would face the kings.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    assert_eq!(moves, ["e0e1", "e0f0"]);
}
