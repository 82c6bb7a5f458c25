use std::fmt;
use std::str::FromStr;

/// One of the 90 points of the board, numbered `rank * 9 + file`.
///
/// Files `a`–`i` run from Red's left to Red's right, ranks `0`–`9` from Red's back rank to Black's, so that
/// `a0` is 0 and `i9` is 89: the coordinates of UCCI, ICCS and Pikafish's UCI.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    pub const NUM: usize = 90;
    pub const FILES: u8 = 9;
    pub const RANKS: u8 = 10;

    /// # Panics
    /// In const contexts and debug builds, when `file > 8` or `rank > 9`.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 9 && rank < 10);
        Square(rank * 9 + file)
    }

    /// The square with the given file and rank, or `None` off the board.
    #[inline]
    pub const fn try_new(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    #[inline]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 90);
        Square(index as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The same point seen from the other side of the river (rank `r` becomes `9 - r`).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square::new(self.file(), 9 - self.rank())
    }

    /// The same point reflected left–right (file `f` becomes `8 - f`).
    #[inline]
    pub const fn mirror_file(self) -> Square {
        Square::new(8 - self.file(), self.rank())
    }

    /// The square `(df, dr)` away, or `None` off the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::try_new(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    pub fn all() -> impl DoubleEndedIterator<Item = Square> + Clone {
        (0..90u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (expected a file a-i and a rank 0-9, like e0)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f @ b'a'..=b'i', r @ b'0'..=b'9'] => Ok(Square::new(f - b'a', r - b'0')),
            _ => Err(ParseSquareError(s.chars().take(16).collect())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::new(0, 0).to_string(), "a0");
        assert_eq!(Square::new(8, 9).to_string(), "i9");
        assert_eq!("e9".parse::<Square>().unwrap().index(), 85);
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn geometry() {
        let sq: Square = "c3".parse().unwrap();
        assert_eq!(sq.flip_rank().to_string(), "c6");
        assert_eq!(sq.mirror_file().to_string(), "g3");
        assert_eq!(sq.offset(-3, 0), None);
        assert_eq!(sq.offset(1, 2).unwrap().to_string(), "d5");
    }
}
