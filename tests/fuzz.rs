//! Broken input never panics: random bytes, mutated FENs and move strings. Positions that parse must be
//! internally consistent and print back to a FEN that parses to the same position.

mod common;

use chuhan::notation::parse_move;
use chuhan::Position;
use rand::Rng;

const ALPHABET: &[char] = &[
    'r', 'n', 'b', 'a', 'k', 'c', 'p', 'R', 'N', 'B', 'A', 'K', 'C', 'P', 'E', 'H', 'e', 'h', '0', '1', '2', '3', '4',
    '5', '6', '7', '8', '9', '/', ' ', '-', 'w', 'x', '炮', '车', '进', '平', '一', '五', '+', '.', '=', '\u{0}', 'é',
];

fn mutate(rng: &mut impl Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..rng.gen_range(1..4) {
        let c = ALPHABET[rng.gen_range(0..ALPHABET.len())];
        match rng.gen_range(0..3) {
            0 if !chars.is_empty() => {
                let i = rng.gen_range(0..chars.len());
                chars[i] = c;
            }
            1 if !chars.is_empty() => {
                chars.remove(rng.gen_range(0..chars.len()));
            }
            _ => chars.insert(rng.gen_range(0..=chars.len()), c),
        }
    }
    chars.into_iter().collect()
}

fn check_fen(text: &str) {
    if let Ok(pos) = Position::from_fen(text) {
        pos.validate().unwrap_or_else(|e| panic!("{text:?} parsed into a corrupt position: {e}"));
        let again = Position::from_fen(&pos.to_fen()).unwrap_or_else(|e| panic!("{text:?} → {}: {e}", pos.to_fen()));
        assert_eq!(again, pos);
        assert_eq!(again.key(), pos.key());
    }
}

#[test]
fn mutated_fens_never_panic() {
    let mut rng = common::rng(21);
    for _ in 0..20_000 {
        let starts = common::starts();
        let base = starts[rng.gen_range(0..starts.len())];
        let text = mutate(&mut rng, base);
        check_fen(&text);
    }
}

#[test]
fn random_garbage_never_panics() {
    let mut rng = common::rng(22);
    let pos = Position::startpos();
    for _ in 0..20_000 {
        let len = rng.gen_range(0..120);
        let text: String = (0..len).map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())]).collect();
        check_fen(&text);
        let _ = parse_move(&pos, &text);
        let bytes: Vec<u8> = (0..rng.gen_range(0..40)).map(|_| rng.gen()).collect();
        let lossy = String::from_utf8_lossy(&bytes);
        check_fen(&lossy);
        let _ = parse_move(&pos, &lossy);
        let _ = lossy.parse::<chuhan::Move>();
    }
}

#[test]
fn random_legal_placements_round_trip() {
    // Random placements that respect every per-piece rule; some are still refused (kings facing, the side not
    // to move in check) and must say so rather than panic.
    use chuhan::{Color, Piece, PieceType, Square};
    let mut rng = common::rng(23);
    let mut accepted = 0;
    for _ in 0..5_000 {
        let mut grid = [[None::<Piece>; 9]; 10];
        for color in Color::ALL {
            for kind in PieceType::ALL {
                let n = if kind == PieceType::King { 1 } else { rng.gen_range(0..=kind.max_count()) };
                for _ in 0..n {
                    for _ in 0..50 {
                        let sq = Square::from_index(rng.gen_range(0..90));
                        let fen = Piece::new(color, kind).fen_char();
                        let (f, r) = (sq.file() as usize, sq.rank() as usize);
                        if grid[r][f].is_some() {
                            continue;
                        }
                        grid[r][f] = Some(Piece::from_fen_char(fen).unwrap());
                        // Keep it only if the FEN parser accepts the piece on that point.
                        let probe = render(&grid, 'w');
                        if Position::from_fen(&probe).err().is_some_and(|e| e.0.contains("never stand")) {
                            grid[r][f] = None;
                            continue;
                        }
                        break;
                    }
                }
            }
        }
        for side in ['w', 'b'] {
            let fen = render(&grid, side);
            check_fen(&fen);
            accepted += Position::from_fen(&fen).is_ok() as u32;
        }
    }
    assert!(accepted > 1000, "only {accepted} random placements accepted");

    fn render(grid: &[[Option<Piece>; 9]; 10], side: char) -> String {
        let mut s = String::new();
        for r in (0..10).rev() {
            let mut empty = 0;
            for cell in &grid[r] {
                match cell {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        format!("{s} {side} - - 0 1")
    }
}
