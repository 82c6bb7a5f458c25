//! The network's inputs: one per (own or enemy, kind, point) in a plane of 1260, seen from each side, and which
//! plane a perspective uses.
//!
//! A perspective sees the board from its own side: Black's view turns the board over (rank `r` becomes `9 − r`)
//! and calls its own pieces "own". So both perspectives share one weight matrix, and a position and its
//! colour-flipped twin give the same two accumulators, swapped.
//!
//! Three feature sets (the network file says which):
//! - [`FeatureSet::Plain`] (net0–net5): one plane, the board as it stands.
//! - [`FeatureSet::KingBuckets`] (net6–net8): the perspective first reflects the board left to right when its
//!   own king stands right of the centre file, so that the king is always on the left half or the centre, and
//!   then uses one plane per point the king can stand on there (the palace's left two files: six *king
//!   buckets*). With the king on the centre file a rule that looks at the whole board chooses the reflection
//!   ([`leans_right`]): it gives opposite answers for a position and its mirror image unless the two are the same
//!   board. A position and its mirror image therefore give exactly the same inputs, and every network of this
//!   set scores them alike, bit for bit (a test checks thousands of positions). The rule weighs each colour's
//!   pieces differently, as Red sees the board, so Black's view of a colour-flipped twin may be reflected where
//!   Red's view of the original is not: the twins' scores can differ when a king stands on the centre file.
//! - [`FeatureSet::KingBuckets2`] (net9 on): the same buckets, but each perspective applies the rule to the board as it
//!   sees it (own and enemy pieces, its own side at the bottom: [`Lean`]), so a position and its colour-flipped
//!   twin also give the same two accumulators, swapped, and score alike bit for bit. For Red the rule is the
//!   older set's; only Black's reflection can differ.

use crate::types::{Color, Piece, Square};

/// Inputs per plane: 2 (own, enemy) × 7 kinds × 90 points.
pub const PLANE: usize = 2 * 7 * 90;

/// Which inputs a network reads (its file records it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// One plane; the board as it stands (net0–net5).
    Plain,
    /// Reflected so the own king is on the left half or the centre file, one plane per king point there; the
    /// reflection with the king on the centre file judged on the board as Red sees it (net6–net8).
    KingBuckets,
    /// [`FeatureSet::KingBuckets`] with that reflection judged by each perspective on the board as it sees it
    /// (net9 on).
    KingBuckets2,
}

/// Which plane a perspective uses and whether it sees the board reflected left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    pub bucket: u8,
    pub mirror: bool,
}

impl View {
    /// The plain feature set's only view.
    pub const PLAIN: View = View { bucket: 0, mirror: false };
}

impl FeatureSet {
    pub const ALL: [FeatureSet; 3] = [FeatureSet::Plain, FeatureSet::KingBuckets, FeatureSet::KingBuckets2];

    /// The number the network file stores.
    pub const fn id(self) -> u32 {
        match self {
            FeatureSet::Plain => 0,
            FeatureSet::KingBuckets => 1,
            FeatureSet::KingBuckets2 => 2,
        }
    }

    pub fn from_id(id: u32) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Its name on command lines and in `eval`'s report.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::Plain => "plain",
            FeatureSet::KingBuckets => "king-buckets",
            FeatureSet::KingBuckets2 => "king-buckets-2",
        }
    }

    pub fn parse(s: &str) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|f| f.name().eq_ignore_ascii_case(s.trim()))
    }

    /// Planes per perspective.
    pub const fn buckets(self) -> usize {
        match self {
            FeatureSet::Plain => 1,
            // The king's points on the palace's left two files after the reflection: d0 e0 d1 e1 d2 e2.
            FeatureSet::KingBuckets | FeatureSet::KingBuckets2 => 6,
        }
    }

    /// Inputs per perspective.
    pub const fn inputs(self) -> usize {
        self.buckets() * PLANE
    }

    /// Whose sight of the board decides `perspective`'s reflection when its king is on the centre file (see
    /// [`Lean`]).
    pub const fn lean_judge(self, perspective: Color) -> Color {
        match self {
            FeatureSet::KingBuckets2 => perspective,
            _ => Color::Red,
        }
    }

    /// How `perspective`, whose king stands on `own_king`, sees the board; `leans` is [`leans_right`] of the
    /// board as [`FeatureSet::lean_judge`] sees it (asked only when the king is on the centre file).
    pub fn view(self, perspective: Color, own_king: Square, leans: impl FnOnce() -> bool) -> View {
        match self {
            FeatureSet::Plain => View::PLAIN,
            FeatureSet::KingBuckets | FeatureSet::KingBuckets2 => {
                let k = relative(perspective, own_king);
                let mirror = match k.file() {
                    0..=3 => false,
                    4 => leans(),
                    _ => true,
                };
                let k = if mirror { k.mirror_file() } else { k };
                // In a legal position the king is on files 3–5, ranks 0–2 of its own side; `min` keeps a
                // hand-made position with the king elsewhere inside the table.
                View { bucket: (k.rank().min(2) * 2 + u8::from(k.file() >= 4)), mirror }
            }
        }
    }
}

/// The point as `perspective` sees it (Black turns the board over).
#[inline]
fn relative(perspective: Color, sq: Square) -> Square {
    match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    }
}

/// The input that `piece` on `sq` sets in `perspective`'s accumulator when it sees the board as `view` says.
#[inline]
pub fn index(view: View, perspective: Color, piece: Piece, sq: Square) -> usize {
    let rel = relative(perspective, sq);
    let rel = if view.mirror { rel.mirror_file() } else { rel };
    let side = piece.color().index() ^ perspective.index();
    view.bucket as usize * PLANE + (side * 7 + piece.kind().index()) * 90 + rel.index()
}

/// Each (colour, kind)'s weight in a lean, as Red sees the board (for Black's sight the colours swap): distinct
/// primes, so that ties are rare; kings stand on the centre file when it is asked and weigh 0.
const WEIGHT: [i32; Piece::NUM] = [0, 2, 3, 13, 31, 19, 5, 0, 7, 11, 17, 37, 23, 29];

/// The code of `piece` as `side` sees the board: Red's codes for its own pieces (Black's sight swaps colours).
#[inline]
fn code_seen_by(side: Color, piece: Piece) -> usize {
    match side {
        Color::Red => piece.index(),
        Color::Black => (piece.index() + 7) % Piece::NUM,
    }
}

/// A board's lean as each side sees it (negative: its pieces weigh more left of the centre file than right of
/// it), kept move by move by the search. Files do not change when the board is turned over, so a side's sight
/// differs from Red's only in which pieces are its own: its own pieces weigh what Red's do in Red's sight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lean([i32; 2]);

impl Lean {
    /// What `piece` on `sq` adds to the lean seen by `side`.
    #[inline]
    fn of(side: Color, piece: Piece, sq: Square) -> i32 {
        WEIGHT[code_seen_by(side, piece)] * (sq.file() as i32 - 4)
    }

    /// The lean of a board.
    pub fn of_board(pieces: impl Iterator<Item = (Piece, Square)>) -> Lean {
        pieces.fold(Lean::default(), |l, (p, sq)| l.add(p, sq))
    }

    /// With `piece` put on `sq`.
    #[inline]
    pub fn add(self, piece: Piece, sq: Square) -> Lean {
        Lean([self.0[0] + Lean::of(Color::Red, piece, sq), self.0[1] + Lean::of(Color::Black, piece, sq)])
    }

    /// With `piece` taken off `sq`.
    #[inline]
    pub fn remove(self, piece: Piece, sq: Square) -> Lean {
        Lean([self.0[0] - Lean::of(Color::Red, piece, sq), self.0[1] - Lean::of(Color::Black, piece, sq)])
    }

    /// The sum seen by `side`.
    #[inline]
    pub fn seen_by(self, side: Color) -> i32 {
        self.0[side.index()]
    }
}

/// Whether a board is reflected before a perspective with its king on the centre file reads it, judged as
/// `side` sees the board: yes when the pieces weigh more right of the centre than left of it ([`Lean`]), and on
/// a tie when the first pair of mirror points that differ, in the order of the points as `side` sees them,
/// holds the larger piece code (as `side` sees it) on the right. A board and its mirror image get opposite
/// answers unless they are the same board, which is what makes the inputs of a position and its mirror image
/// equal; and a side judges a board exactly as the other side judges its colour-flipped twin.
pub fn leans_right(side: Color, pieces: impl Iterator<Item = (Piece, Square)> + Clone) -> bool {
    leans_right_with(side, Lean::of_board(pieces.clone()).seen_by(side), pieces)
}

/// [`leans_right`] when the lean seen by `side` is already known.
#[inline]
pub fn leans_right_with(side: Color, lean: i32, pieces: impl Iterator<Item = (Piece, Square)>) -> bool {
    if lean != 0 {
        return lean > 0;
    }
    let mut board = [0u8; 90];
    for (p, sq) in pieces {
        board[relative(side, sq).index()] = code_seen_by(side, p) as u8 + 1;
    }
    for sq in Square::all().filter(|s| s.file() < 4) {
        let (left, right) = (board[sq.index()], board[sq.mirror_file().index()]);
        if left != right {
            return right > left;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::types::PieceType;

    #[test]
    fn indices_cover_the_inputs_once() {
        for set in FeatureSet::ALL {
            let mut seen = vec![false; set.inputs()];
            for bucket in 0..set.buckets() as u8 {
                for p in 0..Piece::NUM {
                    for sq in Square::all() {
                        let i = index(View { bucket, mirror: false }, Color::Red, Piece::from_index(p), sq);
                        assert!(!seen[i], "{p} {sq}");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "{set:?}");
        }
    }

    #[test]
    fn black_sees_the_board_turned_over() {
        let red_rook = Piece::new(Color::Red, PieceType::Rook);
        let black_rook = Piece::new(Color::Black, PieceType::Rook);
        let a0 = Square::new(0, 0);
        let v = View::PLAIN;
        assert_eq!(index(v, Color::Red, red_rook, a0), index(v, Color::Black, black_rook, a0.flip_rank()));
        assert_eq!(index(v, Color::Red, black_rook, a0), index(v, Color::Black, red_rook, a0.flip_rank()));
    }

    fn pieces(pos: &Position) -> Vec<(Piece, Square)> {
        Square::all().filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq))).collect()
    }

    fn view_of(pos: &Position, p: Color) -> View {
        let list = pieces(pos);
        FeatureSet::KingBuckets.view(p, pos.king_square(p), || leans_right(Color::Red, list.iter().copied()))
    }

    /// The king's point picks the bucket, reflected to the left half; on the centre file the board decides.
    #[test]
    fn king_buckets_and_reflection() {
        let at = |fen: &str| Position::from_fen(fen).unwrap();
        // Red king d0 (left): bucket 0, not reflected; Black king f9 is Black's d0 after the turn-over and the
        // reflection.
        let pos = at("5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1");
        assert_eq!(view_of(&pos, Color::Red), View { bucket: 0, mirror: false });
        assert_eq!(view_of(&pos, Color::Black), View { bucket: 0, mirror: true });
        // Red king f1: reflected to d1, bucket 2. Black king e8 (Black's e1): bucket 3; the only piece off the
        // centre file is the red king on f1 (weight 0, so the first differing pair of points decides): the board
        // leans right and Black reflects it. Without that king off the centre, the board is its own mirror image.
        let pos = at("9/4k4/9/9/9/9/9/9/4RK3/9 b - - 0 1");
        assert_eq!(view_of(&pos, Color::Red), View { bucket: 2, mirror: true });
        assert_eq!(view_of(&pos, Color::Black), View { bucket: 3, mirror: true });
        let pos = at("9/4k4/9/9/9/9/9/9/4R4/4K4 b - - 0 1");
        assert_eq!(view_of(&pos, Color::Red), View { bucket: 1, mirror: false });
        assert_eq!(view_of(&pos, Color::Black), View { bucket: 3, mirror: false });
        // The start position is its own mirror image; after 炮二平五 (h2e2) the pieces weigh more on the left,
        // after 炮八平五 (b2e2) more on the right.
        let mut pos = Position::startpos();
        assert_eq!(view_of(&pos, Color::Red), View { bucket: 1, mirror: false });
        let mut twin = pos.clone();
        pos.make_move("h2e2".parse().unwrap());
        twin.make_move("b2e2".parse().unwrap());
        assert!(!view_of(&pos, Color::Red).mirror && view_of(&twin, Color::Red).mirror);
        assert!(!view_of(&pos, Color::Black).mirror && view_of(&twin, Color::Black).mirror);
    }

    /// A board and its mirror image lean opposite ways unless they are the same board, also when the weights
    /// tie (then the first differing pair of points decides), in either side's sight.
    #[test]
    fn leaning_is_antisymmetric() {
        let mirror = |l: &[(Piece, Square)]| -> Vec<(Piece, Square)> {
            l.iter().map(|&(p, sq)| (p, sq.mirror_file())).collect()
        };
        let red_pawn = Piece::new(Color::Red, PieceType::Pawn);
        let black_pawn = Piece::new(Color::Black, PieceType::Pawn);
        for side in Color::ALL {
            let leans = |l: &[(Piece, Square)]| leans_right(side, l.iter().copied());
            // Weights tie: red pawns on a3 and i4 (a pawn advanced on one wing).
            let tie = vec![(red_pawn, Square::new(0, 3)), (red_pawn, Square::new(8, 4))];
            assert_ne!(leans(&tie), leans(&mirror(&tie)), "{side}");
            let lean = vec![(red_pawn, Square::new(0, 3)), (black_pawn, Square::new(8, 6))];
            assert_ne!(leans(&lean), leans(&mirror(&lean)), "{side}");
            let same = vec![(red_pawn, Square::new(0, 3)), (red_pawn, Square::new(8, 3))];
            assert!(!leans(&same) && !leans(&mirror(&same)), "{side}");
        }
    }

    /// Black judges a board as Red judges its colour-flipped twin (colours swapped, the board turned over),
    /// ties included; Red's sight is the older rule, which weighs the colours differently.
    #[test]
    fn each_side_judges_the_board_it_sees() {
        let flip = |l: &[(Piece, Square)]| -> Vec<(Piece, Square)> {
            l.iter().map(|&(p, sq)| (Piece::new(!p.color(), p.kind()), sq.flip_rank())).collect()
        };
        let (rook, pawn, cannon) = (PieceType::Rook, PieceType::Pawn, PieceType::Cannon);
        let boards = [
            // A red pawn on a3 and a black one on i6: each side's own pawns weigh 5, the enemy's 29.
            vec![
                (Piece::new(Color::Red, pawn), Square::new(0, 3)),
                (Piece::new(Color::Black, pawn), Square::new(8, 6)),
            ],
            // Red pawns on a3 and i4: a tie in both sights, decided by the first differing pair of points.
            vec![(Piece::new(Color::Red, pawn), Square::new(0, 3)), (Piece::new(Color::Red, pawn), Square::new(8, 4))],
            vec![
                (Piece::new(Color::Red, rook), Square::new(1, 0)),
                (Piece::new(Color::Black, cannon), Square::new(7, 9)),
            ],
        ];
        for b in &boards {
            for side in Color::ALL {
                assert_eq!(leans_right(side, b.iter().copied()), leans_right(!side, flip(b).iter().copied()), "{b:?}");
            }
        }
        // The pawns: Red sees the heavier (enemy) pawn on the right, Black sees it (Red's) on the left.
        assert!(leans_right(Color::Red, boards[0].iter().copied()));
        assert!(!leans_right(Color::Black, boards[0].iter().copied()));
    }
}
