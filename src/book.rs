//! Opening books in ElephantEye's format (`BOOK.DAT`), so that the books users already have work unchanged.
//!
//! The format, from ElephantEye's published source and its "opening book" article (xqbase.com): a file of
//! 8-byte little-endian records `{lock: u32, move: u16, weight: u16}`, sorted by lock. The lock is the
//! position's `dwLock1`, the third word of ElephantEye's Zobrist triple: every word comes from an RC4 key
//! stream whose key is four zero bytes, four bytes at a time (the first byte lowest), first the side-to-move
//! triple (`key, lock0, lock1`), then one triple for each of 14 piece kinds (Red's king, advisor, elephant,
//! horse, rook, cannon, pawn, then Black's) and each of 256 squares of its 16×16 board. A position's lock is
//! the XOR of its pieces' words, and of the side's when Black is to move. A square is `x + 16·y` with
//! `x = file + 3` and `y = 12 − rank` (ranks counted from Red's side, as ICCS counts them); a move is
//! `from + 256·to`. A position missing from the book is looked up again mirrored left to right, and the moves
//! found are mirrored back. Weights choose among a position's moves.

use crate::board::Position;
use crate::rules::{game_state, Rules};
use crate::types::{Color, Move, Square};
use once_cell::sync::Lazy;

/// One record of a book file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Record {
    pub lock: u32,
    /// The move in ElephantEye's encoding (`from + 256·to` on its 16×16 board).
    pub mv: u16,
    pub weight: u16,
}

/// ElephantEye's `dwLock1` words: `[side]` then `[kind][square]` (the other two words of each triple are
/// drawn and dropped, so that the stream stays in step).
struct Locks {
    side: u32,
    table: [[u32; 256]; 14],
}

static LOCKS: Lazy<Locks> = Lazy::new(|| {
    // RC4, key 0x00000000: the key-scheduling then the output bytes.
    let mut s: [u8; 256] = std::array::from_fn(|i| i as u8);
    let mut j: u8 = 0;
    for i in 0..256 {
        j = j.wrapping_add(s[i]); // the key bytes are all zero
        s.swap(i, j as usize);
    }
    let (mut x, mut y) = (0u8, 0u8);
    let mut byte = move || {
        x = x.wrapping_add(1);
        y = y.wrapping_add(s[x as usize]);
        s.swap(x as usize, y as usize);
        s[(s[x as usize].wrapping_add(s[y as usize])) as usize]
    };
    let mut long = move || u32::from_le_bytes([byte(), byte(), byte(), byte()]);
    let mut lock1 = move || {
        let (_key, _lock0) = (long(), long());
        long()
    };
    let side = lock1();
    let mut table = [[0u32; 256]; 14];
    for row in table.iter_mut() {
        for w in row.iter_mut() {
            *w = lock1();
        }
    }
    Locks { side, table }
});

/// A square on ElephantEye's 16×16 board.
fn ee_square(sq: Square) -> usize {
    (sq.file() as usize + 3) + 16 * (12 - sq.rank() as usize)
}

fn from_ee_square(s: usize) -> Option<Square> {
    let (x, y) = (s % 16, s / 16);
    ((3..=11).contains(&x) && (3..=12).contains(&y)).then(|| Square::new((x - 3) as u8, (12 - y) as u8))
}

/// A move in ElephantEye's encoding.
pub fn encode_move(m: Move) -> u16 {
    (ee_square(m.from()) + 256 * ee_square(m.to())) as u16
}

/// A move from ElephantEye's encoding (`None` when a square is off the board).
pub fn decode_move(mv: u16) -> Option<Move> {
    Some(Move::new(from_ee_square((mv & 255) as usize)?, from_ee_square((mv >> 8) as usize)?))
}

fn mirror_square(sq: Square) -> Square {
    Square::new(8 - sq.file(), sq.rank())
}

/// A move reflected left to right (the move of the mirrored position).
pub fn mirror_move(m: Move) -> Move {
    Move::new(mirror_square(m.from()), mirror_square(m.to()))
}

/// The position's lock (ElephantEye's `dwLock1`), as it stands or mirrored left to right.
pub fn lock(pos: &Position, mirrored: bool) -> u32 {
    let locks = &*LOCKS;
    let mut l = if pos.side_to_move() == Color::Black { locks.side } else { 0 };
    for c in Color::ALL {
        for (kind, sq) in pos.pieces_of_color(c) {
            let sq = if mirrored { mirror_square(sq) } else { sq };
            l ^= locks.table[kind as usize + 7 * c.index()][ee_square(sq)];
        }
    }
    l
}

/// A book: the records of one or more files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// Sorted by lock (then move), as the file format requires.
    records: Vec<Record>,
}

/// A book move of a position, with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
}

impl Book {
    /// Reads a book from its bytes; a size that is not a whole number of records is refused.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if !bytes.len().is_multiple_of(8) {
            return Err(format!("{} bytes is not a whole number of 8-byte book records", bytes.len()));
        }
        let mut records: Vec<Record> = bytes
            .chunks_exact(8)
            .map(|r| Record {
                lock: u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
                mv: u16::from_le_bytes([r[4], r[5]]),
                weight: u16::from_le_bytes([r[6], r[7]]),
            })
            .collect();
        // ElephantEye's files are sorted by lock; a hand-made one may not be.
        records.sort_by_key(|r| r.lock);
        Ok(Book { records })
    }

    /// Reads a book file.
    pub fn load(path: &str) -> Result<Book, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read book '{path}': {e}"))?;
        Book::from_bytes(&bytes).map_err(|e| format!("book '{path}': {e}"))
    }

    /// Several books given as one `;`-separated list (UCCI `bookfiles`), joined into one.
    pub fn load_list(paths: &str) -> Result<Book, String> {
        let mut records = Vec::new();
        for p in paths.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            records.extend(Book::load(p)?.records);
        }
        records.sort_by_key(|r| r.lock);
        Ok(Book { records })
    }

    pub fn from_records(mut records: Vec<Record>) -> Book {
        records.sort();
        Book { records }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.records.len() * 8);
        for r in &self.records {
            out.extend_from_slice(&r.lock.to_le_bytes());
            out.extend_from_slice(&r.mv.to_le_bytes());
            out.extend_from_slice(&r.weight.to_le_bytes());
        }
        out
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn with_lock(&self, lock: u32) -> &[Record] {
        let lo = self.records.partition_point(|r| r.lock < lock);
        let hi = self.records.partition_point(|r| r.lock <= lock);
        &self.records[lo..hi]
    }

    /// The position's legal book moves, heaviest first: as it stands, or else mirrored (moves mirrored back).
    /// Moves of a record that are not legal here (a lock collision) are left out.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        for mirrored in [false, true] {
            let found = self.with_lock(lock(pos, mirrored));
            if found.is_empty() {
                continue;
            }
            let mut out: Vec<BookMove> = found
                .iter()
                .filter_map(|r| {
                    let m = decode_move(r.mv)?;
                    let m = if mirrored { mirror_move(m) } else { m };
                    pos.is_legal(m).then_some(BookMove { mv: m, weight: r.weight })
                })
                .collect();
            out.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.raw().cmp(&b.mv.raw())));
            out.dedup_by_key(|b| b.mv);
            if !out.is_empty() {
                return out;
            }
        }
        Vec::new()
    }

    /// The moves worth playing: positive weight, not banned, not ending the game against the mover by the
    /// rules, not repeating a position of the game.
    pub fn playable(&self, pos: &Position, rules: &Rules, banned: &[Move]) -> Vec<BookMove> {
        self.moves(pos)
            .into_iter()
            .filter(|b| b.weight > 0 && !banned.contains(&b.mv))
            .filter(|b| {
                let mut p = pos.clone();
                p.make_move(b.mv);
                let repeats = (0..p.ply()).any(|k| p.key_at(k) == p.key());
                !repeats && !game_state(&p, rules).is_over()
            })
            .collect()
    }

    /// Chooses among `moves` at random in proportion to the weights; `random` is any 64-bit random number.
    pub fn choose(moves: &[BookMove], random: u64) -> Option<Move> {
        let total: u64 = moves.iter().map(|b| b.weight as u64).sum();
        if total == 0 {
            return None;
        }
        let mut r = random % total;
        for b in moves {
            if r < b.weight as u64 {
                return Some(b.mv);
            }
            r -= b.weight as u64;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    /// [`lock`] indexes the table by our piece kinds: they must be in ElephantEye's order.
    #[test]
    fn our_kinds_are_elephanteyes_order() {
        let order = [
            PieceType::King,
            PieceType::Advisor,
            PieceType::Elephant,
            PieceType::Horse,
            PieceType::Rook,
            PieceType::Cannon,
            PieceType::Pawn,
        ];
        for (i, k) in order.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
    }

    /// The first words of the RC4 stream with a zero key (the published RC4 test vector for an all-zero key
    /// starts de 18 89 41 a3 37 5d 3a …), read four bytes at a time with the first byte lowest.
    #[test]
    fn the_key_stream_is_rc4_with_a_zero_key() {
        // side = the third word: bytes 8..12 of the stream.
        let mut s: [u8; 256] = std::array::from_fn(|i| i as u8);
        let mut j: u8 = 0;
        for i in 0..256 {
            j = j.wrapping_add(s[i]);
            s.swap(i, j as usize);
        }
        let (mut x, mut y) = (0u8, 0u8);
        let stream: Vec<u8> = (0..12)
            .map(|_| {
                x = x.wrapping_add(1);
                y = y.wrapping_add(s[x as usize]);
                s.swap(x as usize, y as usize);
                s[(s[x as usize].wrapping_add(s[y as usize])) as usize]
            })
            .collect();
        assert_eq!(&stream[..8], &[0xde, 0x18, 0x89, 0x41, 0xa3, 0x37, 0x5d, 0x3a]);
        assert_eq!(LOCKS.side, u32::from_le_bytes([stream[8], stream[9], stream[10], stream[11]]));
    }

    #[test]
    fn squares_and_moves() {
        // h2 is x 10, y 10 on ElephantEye's board, e2 x 7, y 10.
        let m = Move::new(Square::new(7, 2), Square::new(4, 2));
        assert_eq!(encode_move(m), 0xaa + 256 * 0xa7);
        assert_eq!(decode_move(encode_move(m)), Some(m));
        assert_eq!(decode_move(0), None);
        assert_eq!(ee_square(Square::new(0, 9)), 0x33, "a9 is ElephantEye's first square");
        assert_eq!(ee_square(Square::new(8, 0)), 0xcb, "i0 its last");
    }

    #[test]
    fn locks_follow_moves_and_mirrors() {
        let start = Position::startpos();
        // The start position is symmetric; after a move on one wing it is not.
        assert_eq!(lock(&start, false), lock(&start, true));
        let mut a = start.clone();
        a.make_move("h2e2".parse().unwrap());
        let mut b = start.clone();
        b.make_move("b2e2".parse().unwrap());
        assert_ne!(lock(&a, false), lock(&b, false));
        assert_eq!(lock(&a, true), lock(&b, false), "a mirrored is b");
        // The side to move counts.
        let mut c = Position::from_fen(&a.to_fen().replace(" b ", " w ")).unwrap();
        assert_eq!(lock(&c, false) ^ LOCKS.side, lock(&a, false));
        c.flip_side();
        assert_eq!(lock(&c, false), lock(&a, false));
    }

    #[test]
    fn round_trip_lookup_mirror_and_choice() {
        let start = Position::startpos();
        let mut after = start.clone();
        after.make_move("b2e2".parse().unwrap());
        let enc = |t: &str| encode_move(t.parse().unwrap());
        let records = vec![
            Record { lock: lock(&start, false), mv: enc("h2e2"), weight: 30 },
            Record { lock: lock(&start, false), mv: enc("c3c4"), weight: 10 },
            Record { lock: lock(&start, false), mv: enc("a0a5"), weight: 99 }, // not legal: a lock collision
            // Stored only in the other wing's form: found through the mirror.
            Record { lock: lock(&after, true), mv: enc("b9c7"), weight: 5 },
        ];
        let book = Book::from_bytes(&Book::from_records(records).to_bytes()).unwrap();
        assert_eq!(book.len(), 4);
        let moves = book.moves(&start);
        let names: Vec<String> = moves.iter().map(|b| format!("{} {}", b.mv, b.weight)).collect();
        assert_eq!(names, ["h2e2 30", "c3c4 10"]);
        // After b2e2 the book holds the mirrored position (after h2e2) with h9g7: mirrored back, b9c7.
        let reply = book.moves(&after);
        assert_eq!(reply.len(), 1);
        assert_eq!(reply[0].mv.to_string(), "h9g7");
        assert_eq!(Book::choose(&moves, 0).unwrap().to_string(), "h2e2");
        assert_eq!(Book::choose(&moves, 29).unwrap().to_string(), "h2e2");
        assert_eq!(Book::choose(&moves, 30).unwrap().to_string(), "c3c4");
        assert_eq!(Book::choose(&moves, 40 + 31).unwrap().to_string(), "c3c4");
        assert!(Book::from_bytes(&[0; 7]).unwrap_err().contains("8-byte"));
    }

    #[test]
    fn playable_skips_repetitions_and_banned_moves() {
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1").unwrap();
        let records = vec![
            Record { lock: lock(&pos, false), mv: encode_move("f1f2".parse().unwrap()), weight: 10 },
            Record { lock: lock(&pos, false), mv: encode_move("f1g1".parse().unwrap()), weight: 10 },
        ];
        let book = Book::from_records(records);
        let rules = Rules::default();
        assert_eq!(book.playable(&pos, &rules, &[]).len(), 2);
        let banned = ["f1f2".parse().unwrap()];
        assert_eq!(book.playable(&pos, &rules, &banned).len(), 1);
        for m in ["f1f2", "e9e8", "f2f1", "e8e9"] {
            pos.make_move(m.parse().unwrap());
        }
        // f1f2 now would repeat the position after the first move.
        let left: Vec<String> = book.playable(&pos, &rules, &[]).iter().map(|b| b.mv.to_string()).collect();
        assert_eq!(left, ["f1g1"]);
    }
}
