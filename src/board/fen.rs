//! FEN in and out, and the checks that refuse positions which can never arise.

use super::tables::REACHABLE;
use super::Position;
use crate::types::{Color, Piece, Square};
use std::fmt;

/// Why a FEN was refused: a sentence naming the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// At most this many characters of user input are quoted back in an error message.
fn quote(s: &str) -> String {
    let short: String = s.chars().take(24).collect();
    if short.len() < s.len() {
        format!("{short}…")
    } else {
        short
    }
}

impl Position {
    /// Parses a xiangqi FEN: ten ranks from rank 9 down to rank 0, Red upper case (`K A B N R C P`, with `E`
    /// and `H` accepted for `B` and `N`), then the side to move (`w`, `r` or `b`; Red if missing), two ignored
    /// fields, the plies since the last capture and the move number (both optional, `0` accepted).
    ///
    /// Refuses, with a message that names the problem: a wrong number of ranks or files, unknown characters,
    /// more pieces of a kind than a side owns, a missing king, a king, advisor, elephant or pawn on a point it
    /// can never reach, kings facing each other, and the side not to move standing in check.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let Some(placement) = fields.next() else { return err("empty FEN") };
        let mut pos = Position::empty();

        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return err(format!("the board has {} ranks, expected 10 separated by '/'", ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0u32;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return err(format!("rank {rank} ('{}') contains the digit 0", quote(text)));
                    }
                    file += d;
                } else if let Some(piece) = Piece::from_fen_char(c) {
                    if file >= 9 {
                        return err(format!("rank {rank} ('{}') has more than 9 files", quote(text)));
                    }
                    let sq = Square::new(file as u8, rank);
                    if REACHABLE[piece.color().index()][piece.kind().index()] >> sq.index() & 1 == 0 {
                        return err(format!("a {} {} can never stand on {sq}", piece.color(), piece.kind().name()));
                    }
                    if !pos.put_piece(piece, sq) {
                        return err(format!(
                            "too many {} {}s (a side has at most {})",
                            piece.color(),
                            piece.kind().name(),
                            piece.kind().max_count()
                        ));
                    }
                    file += 1;
                } else {
                    return err(format!("unexpected character '{c}' in rank {rank} ('{}')", quote(text)));
                }
                if file > 9 {
                    return err(format!("rank {rank} ('{}') has more than 9 files", quote(text)));
                }
            }
            if file != 9 {
                return err(format!("rank {rank} ('{}') has {file} files, expected 9", quote(text)));
            }
        }
        for color in Color::ALL {
            if pos.slot_square[super::tag(color) as usize] == super::tables::NO_SQ {
                return err(format!("there is no {color} king"));
            }
        }

        pos.side = match fields.next() {
            None => Color::Red,
            Some(s) => match s.to_ascii_lowercase().as_str() {
                "w" | "r" | "red" => Color::Red,
                "b" | "black" => Color::Black,
                _ => return err(format!("side to move '{}' is not w, r or b", quote(s))),
            },
        };
        if pos.side == Color::Black {
            pos.st.key ^= super::zobrist::KEYS.side;
        }
        pos.start_side = pos.side;
        // Castling and en-passant fields: xiangqi has neither, whatever they say. XBoard leaves them out (`w 0 1`).
        let rest: Vec<&str> = fields.collect();
        let mut fields = match rest.len() == 2 && rest.iter().all(|f| f.parse::<u32>().is_ok()) {
            true => rest.iter().copied(),
            false => rest.get(2..).unwrap_or(&[]).iter().copied(),
        };
        if let Some(s) = fields.next() {
            match s.parse::<u16>() {
                Ok(n) if n < 10000 => pos.st.rule60 = n,
                _ => {
                    return err(format!(
                        "the count of plies since a capture '{}' is not a number below 10000",
                        quote(s)
                    ))
                }
            }
        }
        if let Some(s) = fields.next() {
            match s.parse::<u16>() {
                Ok(n) => pos.start_fullmove = n,
                _ => return err(format!("the move number '{}' is not a number below 65536", quote(s))),
            }
        }

        let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if rk.file() == bk.file()
            && (rk.rank() + 1..bk.rank()).all(|r| pos.board[r as usize * 9 + rk.file() as usize] == 0)
        {
            return err(format!("the kings face each other on the {} file", (b'a' + rk.file()) as char));
        }
        if pos.is_king_attacked(!pos.side) {
            return err(format!("the side not to move ({}) is in check", !pos.side));
        }
        pos.st.in_check = pos.is_king_attacked(pos.side);
        pos.rep_filter[super::rep_bucket(pos.st.key)] = 1;
        Ok(pos)
    }

    /// The FEN of the position: `<board> <w|b> - - <plies since capture> <move number>`.
    /// The position reflected left to right (file `f` becomes `8 − f`), the same side to move and counters: the
    /// rules are symmetric, so it is worth the same. Its history is not carried over.
    pub fn mirrored(&self) -> Position {
        let fen = self.to_fen();
        let (placement, rest) = fen.split_once(' ').unwrap_or((&fen, ""));
        // A rank's FEN read backwards is the mirrored rank (a run of empty points is one digit).
        let ranks: Vec<String> = placement.split('/').map(|r| r.chars().rev().collect()).collect();
        Position::from_fen(&format!("{} {rest}", ranks.join("/"))).expect("a legal position mirrored is legal")
    }

    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.piece_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        format!("{s} {} - - {} {}", self.side.fen_char(), self.st.rule60, self.fullmove())
    }
}

impl fmt::Display for Position {
    /// A plain-text diagram, Red at the bottom, upper case for Red.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let c = self.piece_at(Square::new(file, rank)).map_or('.', |p| p.fen_char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
            if rank == 5 {
                writeln!(f, "   ~~~~~~~~~~~~~~~~~")?;
            }
        }
        writeln!(f, "   a b c d e f g h i")?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        write!(
            f,
            "Key: {:016x}  Side to move: {}{}",
            self.key(),
            self.side,
            if self.in_check() { " (in check)" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    #[test]
    fn mirrored_positions() {
        let mut a = Position::startpos();
        let mut b = Position::startpos();
        assert_eq!(a.mirrored().to_fen(), START_FEN);
        a.make_move("h2e2".parse().unwrap());
        b.make_move("b2e2".parse().unwrap());
        assert_eq!(a.mirrored().to_fen(), b.to_fen());
        let odd = Position::from_fen("3k5/9/9/9/9/9/9/9/1R7/4K4 b - - 3 20").unwrap();
        assert_eq!(odd.mirrored().to_fen(), "5k3/9/9/9/9/9/9/9/7R1/4K4 b - - 3 20");
        assert_eq!(odd.mirrored().mirrored().to_fen(), odd.to_fen());
    }

    #[test]
    fn start_round_trip() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
        assert_eq!(pos.legal_moves().len(), 44);
    }

    #[test]
    fn lenient_forms() {
        let canonical = Position::from_fen(START_FEN).unwrap();
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r",
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0",
            "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w  ",
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos, canonical, "{fen}");
            assert_eq!(pos.key(), canonical.key());
        }
        let black = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b").unwrap();
        assert_eq!(black.side_to_move(), Color::Black);
        assert_ne!(black.key(), canonical.key());
    }

    #[test]
    fn refusals_name_the_problem() {
        let cases = [
            ("", "empty"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "9 ranks"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "8 files"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "more than 9 files"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unexpected character 'X'"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w", "too many red rooks"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "no red king"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x", "plies since a capture"),
            ("3k5/9/9/9/9/9/9/9/9/3K5 w", "face each other on the d file"),
            ("3k5/9/9/9/9/9/9/9/9/K8 w", "red king can never stand on a0"),
            ("3k5/9/9/9/9/9/9/9/9/A3K4 w", "red advisor can never stand on a0"),
            ("3k5/9/9/9/9/9/9/9/B8/4K4 w", "red elephant can never stand on a1"),
            ("3k5/9/9/9/9/9/1P7/9/9/4K4 w", "red pawn can never stand on b3"),
            ("3k5/9/9/9/9/9/9/9/P8/4K4 w", "red pawn can never stand on a1"),
            ("3k5/9/9/9/1p7/9/9/9/9/4K4 w", "black pawn can never stand on b5"),
            ("3k5/9/9/9/9/9/9/9/9/3RK4 w", "side not to move (black) is in check"),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB0R w", "digit 0"),
        ];
        for (fen, needle) in cases {
            let e = Position::from_fen(fen).expect_err(fen).to_string();
            assert!(e.contains(needle), "{fen}: '{e}' should mention '{needle}'");
        }
    }
}
