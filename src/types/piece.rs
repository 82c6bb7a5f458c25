use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// A piece, side or kind name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePieceError(pub String);

impl fmt::Display for ParsePieceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParsePieceError {}

/// The two sides. Red moves first and sits on ranks 0–4; Black on ranks 5–9.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const NUM: usize = 2;
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The letter of the FEN side field (`w` for Red, as every xiangqi FEN writes it).
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }

    /// Whether `rank` lies on this side's own half of the board (before the river).
    #[inline]
    pub const fn own_half(self, rank: u8) -> bool {
        match self {
            Color::Red => rank <= 4,
            Color::Black => rank >= 5,
        }
    }

    /// Rank step of "forward" for this side.
    #[inline]
    pub const fn forward(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `red`, `black`, or the FEN letters `w`/`r` and `b`.
impl FromStr for Color {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<Color, ParsePieceError> {
        match s.to_ascii_lowercase().as_str() {
            "red" | "w" | "r" => Ok(Color::Red),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParsePieceError(format!("'{s}' is not a side (red or black)"))),
        }
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum PieceType {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceType {
    pub const NUM: usize = 7;
    pub const ALL: [PieceType; 7] = [
        PieceType::King,
        PieceType::Advisor,
        PieceType::Elephant,
        PieceType::Horse,
        PieceType::Rook,
        PieceType::Cannon,
        PieceType::Pawn,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> PieceType {
        PieceType::ALL[i]
    }

    /// How many of this kind one side has at the start, and so at most.
    pub const fn max_count(self) -> u8 {
        match self {
            PieceType::King => 1,
            PieceType::Pawn => 5,
            _ => 2,
        }
    }

    /// The FEN letter (upper case; Red's pieces are written upper case).
    pub const fn fen_char(self) -> char {
        match self {
            PieceType::King => 'K',
            PieceType::Advisor => 'A',
            PieceType::Elephant => 'B',
            PieceType::Horse => 'N',
            PieceType::Rook => 'R',
            PieceType::Cannon => 'C',
            PieceType::Pawn => 'P',
        }
    }

    /// The FEN letter, accepting the WXF aliases `E` (elephant) and `H` (horse) too. Case-insensitive.
    pub const fn from_fen_char(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceType::King,
            'A' => PieceType::Advisor,
            'B' | 'E' => PieceType::Elephant,
            'N' | 'H' => PieceType::Horse,
            'R' => PieceType::Rook,
            'C' => PieceType::Cannon,
            'P' => PieceType::Pawn,
            _ => return None,
        })
    }

    /// Material for static exchange evaluation, in centipawns of an uncrossed pawn.
    pub const fn see_value(self) -> i32 {
        match self {
            PieceType::King => 10000,
            PieceType::Advisor => 200,
            PieceType::Elephant => 200,
            PieceType::Horse => 400,
            PieceType::Rook => 900,
            PieceType::Cannon => 450,
            PieceType::Pawn => 100,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceType::King => "king",
            PieceType::Advisor => "advisor",
            PieceType::Elephant => "elephant",
            PieceType::Horse => "horse",
            PieceType::Rook => "rook",
            PieceType::Cannon => "cannon",
            PieceType::Pawn => "pawn",
        }
    }
}

impl fmt::Display for PieceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An English name (`rook`, also `chariot`, `bishop`, `knight`, `general`, `minister`, `soldier`) or a letter.
impl FromStr for PieceType {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<PieceType, ParsePieceError> {
        let lower = s.to_ascii_lowercase();
        let kind = match lower.as_str() {
            "king" | "general" => Some(PieceType::King),
            "advisor" | "guard" => Some(PieceType::Advisor),
            "elephant" | "bishop" | "minister" => Some(PieceType::Elephant),
            "horse" | "knight" => Some(PieceType::Horse),
            "rook" | "chariot" => Some(PieceType::Rook),
            "cannon" => Some(PieceType::Cannon),
            "pawn" | "soldier" => Some(PieceType::Pawn),
            _ => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => PieceType::from_fen_char(c),
                    _ => None,
                }
            }
        };
        kind.ok_or_else(|| ParsePieceError(format!("'{s}' is not a kind of piece")))
    }
}

/// A coloured piece, numbered `color * 7 + type` (0–13).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct Piece(u8);

impl Piece {
    pub const NUM: usize = 14;

    #[inline]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Piece {
        debug_assert!(i < 14);
        Piece(i as u8)
    }

    #[inline]
    pub const fn color(self) -> Color {
        if self.0 < 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    #[inline]
    pub const fn kind(self) -> PieceType {
        PieceType::from_index((self.0 % 7) as usize)
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind().fen_char();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        match PieceType::from_fen_char(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }

    /// The simplified Chinese character (帅仕相马车炮兵 / 将士象马车炮卒).
    pub const fn chinese(self) -> char {
        const RED: [char; 7] = ['帅', '仕', '相', '马', '车', '炮', '兵'];
        const BLACK: [char; 7] = ['将', '士', '象', '马', '车', '炮', '卒'];
        match self.color() {
            Color::Red => RED[self.kind() as usize],
            Color::Black => BLACK[self.kind() as usize],
        }
    }

    /// The traditional Chinese character (帥仕相傌俥炮兵 / 將士象馬車砲卒).
    pub const fn traditional(self) -> char {
        const RED: [char; 7] = ['帥', '仕', '相', '傌', '俥', '炮', '兵'];
        const BLACK: [char; 7] = ['將', '士', '象', '馬', '車', '砲', '卒'];
        match self.color() {
            Color::Red => RED[self.kind() as usize],
            Color::Black => BLACK[self.kind() as usize],
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// One FEN letter: upper case Red, lower case Black.
impl FromStr for Piece {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Piece::from_fen_char(c),
            _ => None,
        }
        .ok_or_else(|| ParsePieceError(format!("'{s}' is not a FEN piece letter")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_round_trips() {
        for i in 0..Piece::NUM {
            let p = Piece::from_index(i);
            assert_eq!(Piece::new(p.color(), p.kind()), p);
            assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
        }
        assert_eq!(Piece::from_fen_char('E'), Some(Piece::new(Color::Red, PieceType::Elephant)));
        assert_eq!(Piece::from_fen_char('h'), Some(Piece::new(Color::Black, PieceType::Horse)));
        assert_eq!(Piece::from_fen_char('x'), None);
        assert_eq!(!Color::Red, Color::Black);
        assert_eq!("b".parse::<Color>(), Ok(Color::Black));
        assert_eq!("Red".parse::<Color>(), Ok(Color::Red));
        assert!("x".parse::<Color>().is_err());
        assert_eq!("chariot".parse::<PieceType>(), Ok(PieceType::Rook));
        assert_eq!("H".parse::<PieceType>(), Ok(PieceType::Horse));
        assert_eq!(PieceType::Cannon.to_string().parse::<PieceType>(), Ok(PieceType::Cannon));
        assert!("queen".parse::<PieceType>().is_err());
        assert_eq!("c".parse::<Piece>(), Ok(Piece::new(Color::Black, PieceType::Cannon)));
        assert!("cc".parse::<Piece>().is_err());
    }
}
