//! The evaluation is blind to colour and to left and right, on every position of random games.

mod common;

use chuhan::eval::evaluate;
use chuhan::Position;
use common::referee::{flip_colors, mirror_files};

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
