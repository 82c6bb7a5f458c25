//! Perft counts against the published reference numbers (../shared/reference/protocol.md §5).
//! Depths up to 4 run by default; the deep ones are `#[ignore]`d (run with `cargo test --release -- --ignored`).

use chuhan::tools::perft::{divide, perft};
use chuhan::Position;

fn check(fen: &str, counts: &[u64]) {
    let mut pos = Position::from_fen(fen).unwrap();
    for (i, &want) in counts.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&mut pos, depth), want, "{fen} depth {depth}");
    }
    assert_eq!(pos.to_fen(), Position::from_fen(fen).unwrap().to_fen(), "perft must leave the position unchanged");
}

macro_rules! perft_tests {
    ($($name:ident: $fen:expr, [$($n:expr),*] $(, deep $deep:ident: [$($d:expr),*])?;)*) => {
        $(
            #[test]
            fn $name() {
                check($fen, &[$($n),*]);
            }
            $(
                #[test]
                #[ignore]
                fn $deep() {
                    check($fen, &[$($d),*]);
                }
            )?
        )*
    };
}

perft_tests! {
    start: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", [44, 1920, 79666, 3290240],
        deep start_deep: [44, 1920, 79666, 3290240, 133312995, 5392831844];
    pos2: "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", [38, 1128, 43929, 1339047],
        deep pos2_deep: [38, 1128, 43929, 1339047, 53112976];
    pos3: "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", [7, 281, 8620, 326201],
        deep pos3_deep: [7, 281, 8620, 326201, 10369923];
    pos4: "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", [25, 424, 9850, 202884],
        deep pos4_deep: [25, 424, 9850, 202884, 4739553, 100055401];
    pos5: "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", [28, 516, 14808, 395483],
        deep pos5_deep: [28, 516, 14808, 395483, 11842230];
    pos6: "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1", [21, 364, 7626, 162837],
        deep pos6_deep: [21, 364, 7626, 162837, 3500505, 81195154];
    pos7: "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1", [28, 222, 6241, 64971],
        deep pos7_deep: [28, 222, 6241, 64971, 1914306, 23496493];
    pos8: "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1", [23, 345, 8124, 149272],
        deep pos8_deep: [23, 345, 8124, 149272, 3513104, 71287903];
    pos9: "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1", [21, 195, 3883, 48060],
        deep pos9_deep: [21, 195, 3883, 48060, 933096, 12250386];
    pos10: "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1", [30, 830, 22787, 649866],
        deep pos10_deep: [30, 830, 22787, 649866, 17920736];
    pos11: "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1", [19, 583, 11714, 376467],
        deep pos11_deep: [19, 583, 11714, 376467, 8148177];
    pos12: "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1", [58, 1651, 90744, 2605437],
        deep pos12_deep: [58, 1651, 90744, 2605437, 140822416];
    fsf1: "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", [49, 2265, 100326, 4485547];
    fsf2: "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", [13, 272, 3707, 92741];
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    let pos = Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1").unwrap();
    let one = divide(&pos, 3, 1);
    let two = divide(&pos, 3, 2);
    assert_eq!(one, two);
    assert_eq!(one.len(), 38);
    assert_eq!(one.iter().map(|(_, n)| n).sum::<u64>(), 43929);
}

#[test]
fn mate_and_stalemate_have_no_moves() {
    // Stalemate (SPEC N01): Black has no legal move and is not in check; it loses all the same.
    let pos = Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(!pos.in_check());
    assert_eq!(pos.legal_moves().len(), 0);
    // Flying general (SPEC N09): e0d0 would face the kings.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    assert_eq!(moves, ["e0e1", "e0f0"]);
}
