//! XQF, the binary game record of XQStudio that most Chinese collections use (XiangQi Wizard reads it):
//! versions 1.0 (plain) to 1.2 (encrypted), main line and set-up positions. Variations are skipped.
//!
//! The layout, from the published format description (XQF 1.0, 2001) and the published decryption scheme:
//!
//! - A 1024-byte header. Bytes 0–1 `XQ`, 2 the version (10 = 1.0, 11 = 1.1, 12 = 1.2; below 11 nothing is
//!   encrypted), 3 and 8–15 the keys. 16–47: where the 32 pieces stand (Red's rook, horse, elephant, advisor,
//!   king, advisor, elephant, horse, rook, two cannons, five pawns, then Black's in the same order), a point
//!   being `file × 10 + rank` from Red's lower left, anything from 90 up meaning captured. 51: the result (0
//!   unknown, 1 Red won, 2 Black won, 3 draw). 64: the record's kind (0 full game, 1 opening: both start
//!   from the standard position; 2 middlegame, 3 ending: from the stored pieces). Then strings, each a
//!   length byte and GBK text: title at 80, event at 208, date 272, site 288, Red 304, Black 320.
//! - From byte 1024, move records in depth-first order. Each is 4 bytes (from, to, flags, reserved) with the
//!   points offset by 24 and 32; in 1.0 always followed by a 4-byte comment length, in 1.1+ only when flag
//!   0x20 is set. A move with a continuation has flag 0xF0 set (1.0) or 0x80 (1.1+); 0x40 marks an
//!   alternative (a variation). The first record is a placeholder before the first move; the main line is
//!   the chain of first continuations.
//! - Encryption (1.1+): each header point is shifted by a key derived from byte 13, each move's from and to by
//!   keys chained from bytes 14 and 15, comment lengths by one from bytes 12–13; in 1.2 the piece list is also
//!   rotated. Everything after the header is shifted by a 32-byte stream built from bytes 3 and 8–15 and a
//!   fixed mask text.

use super::game::GameRecord;
use crate::board::Position;
use crate::types::{Color, Move, Piece, PieceType, Square};

const HEADER: usize = 1024;
const MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The kinds of the 32 header slots, for one side.
const SLOT_KINDS: [PieceType; 16] = {
    use PieceType::*;
    [Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn, Pawn, Pawn, Pawn, Pawn]
};

/// Whether `bytes` look like an XQF file.
pub fn is_xqf(bytes: &[u8]) -> bool {
    bytes.len() >= 2 && &bytes[..2] == b"XQ"
}

fn key(x: u8) -> u8 {
    // The scheme's key function, x·x·54 + 221, kept to a byte as the format computes it.
    (x as u32).wrapping_mul(x as u32).wrapping_mul(54).wrapping_add(221) as u8
}

/// The decryption keys of a header.
struct Keys {
    piece: u8,
    from: u8,
    to: u8,
    comment: i32,
    stream: [u8; 32],
}

impl Keys {
    fn of(h: &[u8]) -> Keys {
        if h[2] < 11 {
            return Keys { piece: 0, from: 0, to: 0, comment: 0, stream: [0; 32] };
        }
        let piece = key(h[13]).wrapping_mul(h[13]);
        let from = key(h[14]).wrapping_mul(piece);
        let to = key(h[15]).wrapping_mul(from);
        let comment = (h[12] as i32 * 256 + h[13] as i32) % 32000 + 767;
        let args: [u8; 4] = std::array::from_fn(|i| h[8 + i] | (h[12 + i] & h[3]));
        let stream = std::array::from_fn(|i| args[i % 4] & MASK[i]);
        Keys { piece, from, to, comment, stream }
    }
}

/// Reads the bytes after the header, undoing the stream encryption as it goes.
struct Body<'a> {
    b: &'a [u8],
    at: usize,
    stream: [u8; 32],
    k: usize,
}

impl Body<'_> {
    fn take(&mut self, n: usize) -> Result<Vec<u8>, String> {
        let raw = self.b.get(self.at..self.at + n).ok_or("the move records end in the middle of a record")?;
        self.at += n;
        Ok(raw
            .iter()
            .map(|&x| {
                let v = x.wrapping_sub(self.stream[self.k]);
                self.k = (self.k + 1) % 32;
                v
            })
            .collect())
    }
}

/// A length-prefixed GBK string of the header.
fn text(h: &[u8], at: usize, room: usize) -> String {
    let len = (h[at] as usize).min(room - 1);
    let (s, _, _) = encoding_rs::GBK.decode(&h[at + 1..at + 1 + len]);
    s.trim_end_matches('\0').trim().to_string()
}

/// An XQF point (`file × 10 + rank`) as a square; `None` when off the board (a captured piece).
fn point(v: u8) -> Option<Square> {
    (v < 90).then(|| Square::new(v / 10, v % 10))
}

/// Reads an XQF file into a game (tags, start position as a FEN tag when set up, main-line moves in ICCS).
pub fn read(bytes: &[u8]) -> Result<GameRecord, String> {
    if !is_xqf(bytes) {
        return Err("not an XQF file (it does not start with XQ)".into());
    }
    if bytes.len() < HEADER {
        return Err(format!("a truncated XQF file: {} bytes, shorter than its 1024-byte header", bytes.len()));
    }
    let h = &bytes[..HEADER];
    let version = h[2];
    if !(10..=18).contains(&version) {
        return Err(format!("XQF version {}.{} is not one this reader knows (1.0 to 1.2)", version / 10, version % 10));
    }
    let keys = Keys::of(h);
    let mut tags: Vec<(String, String)> = Vec::new();
    let event = match text(h, 208, 64) {
        e if e.is_empty() => text(h, 80, 64),
        e => e,
    };
    for (name, value) in [
        ("Event", event),
        ("Date", text(h, 272, 16)),
        ("Site", text(h, 288, 16)),
        ("Red", text(h, 304, 16)),
        ("Black", text(h, 320, 16)),
    ] {
        if !value.is_empty() {
            tags.push((name.into(), value));
        }
    }
    let result = match h[51] {
        1 => Some("1-0"),
        2 => Some("0-1"),
        3 => Some("1/2-1/2"),
        _ => None,
    };
    tags.push(("Result".into(), result.unwrap_or("*").into()));

    // The start: the standard position for full games and openings, else the stored pieces.
    let set_up = h[64] >= 2;
    let mut pos = if set_up {
        let mut at = [0u8; 32];
        for i in 0..32 {
            let v = h[16 + i].wrapping_sub(keys.piece);
            let slot = if version >= 12 { (keys.piece as usize + 1 + i) % 32 } else { i };
            at[slot] = v;
        }
        let mut board: [Option<Piece>; 90] = [None; 90];
        for (i, &v) in at.iter().enumerate() {
            if let Some(sq) = point(v) {
                let color = if i < 16 { Color::Red } else { Color::Black };
                if board[sq.index()].is_some() {
                    return Err(format!("two pieces on {sq} in the set-up position"));
                }
                board[sq.index()] = Some(Piece::new(color, SLOT_KINDS[i % 16]));
            }
        }
        Some(board)
    } else {
        None
    };

    let mut body = Body { b: &bytes[HEADER..], at: 0, stream: keys.stream, k: 0 };
    let mut moves: Vec<Move> = Vec::new();
    let mut variations = false;
    let mut first = true;
    loop {
        let rec = body.take(4)?;
        let (from, to, flags) = (rec[0], rec[1], rec[2]);
        let comment = if version < 11 {
            i32::from_le_bytes(body.take(4)?.try_into().expect("4 bytes"))
        } else if flags & 0x20 != 0 {
            i32::from_le_bytes(body.take(4)?.try_into().expect("4 bytes")) - keys.comment
        } else {
            0
        };
        if !(0..=1 << 20).contains(&comment) {
            return Err(format!("a comment of {comment} bytes: a damaged file"));
        }
        body.take(comment as usize)?;
        if !first {
            let f = point(from.wrapping_sub(24).wrapping_sub(keys.from));
            let t = point(to.wrapping_sub(32).wrapping_sub(keys.to));
            match (f, t) {
                (Some(f), Some(t)) => moves.push(Move::new(f, t)),
                _ => return Err(format!("move {} leaves the board (a damaged file)", moves.len() + 1)),
            }
        }
        first = false;
        variations |= flags & 0x40 != 0 && version >= 11;
        let next = if version < 11 { flags & 0xf0 != 0 } else { flags & 0x80 != 0 };
        if !next {
            break;
        }
    }

    // The side to move: the colour of the first move's piece (Red in a record without moves).
    match pos.take() {
        None => {}
        Some(board) => {
            let red_first =
                moves.first().is_none_or(|m| board[m.from().index()].is_none_or(|p| p.color() == Color::Red));
            let mut fen = String::new();
            for rank in (0..10).rev() {
                let mut empty = 0;
                for file in 0..9 {
                    match board[Square::new(file, rank).index()] {
                        Some(p) => {
                            if empty > 0 {
                                fen.push_str(&empty.to_string());
                                empty = 0;
                            }
                            fen.push(p.fen_char());
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                }
                if rank > 0 {
                    fen.push('/');
                }
            }
            fen.push_str(if red_first { " w - - 0 1" } else { " b - - 0 1" });
            Position::from_fen(&fen).map_err(|e| format!("the set-up position is not legal: {e}"))?;
            tags.push(("FEN".into(), fen));
        }
    }
    if variations {
        tags.push(("Annotator".into(), "variations not read (main line only)".into()));
    }
    Ok(GameRecord { tags, moves: moves.iter().map(|m| m.to_string()).collect(), result: result.map(String::from) })
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// Writes an XQF file of `version` (10 plain; 11 and 12 encrypted with the given keys), the inverse of
    /// `read`, for tests: a main line, an optional variation after the first move, a comment on the second.
    pub fn write(version: u8, key_bytes: [u8; 9], start: Option<&Position>, moves: &[Move], result: u8) -> Vec<u8> {
        let mut h = vec![0u8; HEADER];
        h[0] = b'X';
        h[1] = b'Q';
        h[2] = version;
        if version >= 11 {
            h[3] = key_bytes[0];
            h[8..16].copy_from_slice(&key_bytes[1..]);
        }
        let keys = Keys::of(&h);
        h[51] = result;
        let put = |h: &mut Vec<u8>, at: usize, s: &str| {
            let (b, _, _) = encoding_rs::GBK.encode(s);
            h[at] = b.len() as u8;
            h[at + 1..at + 1 + b.len()].copy_from_slice(&b);
        };
        put(&mut h, 208, "全国象棋个人赛");
        put(&mut h, 304, "许银川");
        put(&mut h, 320, "吕钦");
        if let Some(pos) = start {
            h[64] = 3;
            let mut at = [0xffu8; 32];
            let mut used = [false; 32];
            for sq in Square::all() {
                if let Some(p) = pos.piece_at(sq) {
                    let base = if p.color() == Color::Red { 0 } else { 16 };
                    let i = (0..16).find(|&i| SLOT_KINDS[i] == p.kind() && !used[base + i]).unwrap();
                    used[base + i] = true;
                    at[base + i] = sq.file() * 10 + sq.rank();
                }
            }
            for i in 0..32 {
                let slot = if version >= 12 { (keys.piece as usize + 1 + i) % 32 } else { i };
                h[16 + i] = at[slot].wrapping_add(keys.piece);
            }
        }
        let mut plain: Vec<u8> = Vec::new();
        let record = |plain: &mut Vec<u8>, from: u8, to: u8, next: bool, alt: bool, comment: &str| {
            let c = encoding_rs::GBK.encode(comment).0.into_owned();
            let flags = if version < 11 {
                if next {
                    0xf0
                } else {
                    0
                }
            } else {
                (if next { 0x80 } else { 0 }) | (if alt { 0x40 } else { 0 }) | (if c.is_empty() { 0 } else { 0x20 })
            };
            plain.extend_from_slice(&[
                from.wrapping_add(24).wrapping_add(keys.from),
                to.wrapping_add(32).wrapping_add(keys.to),
                flags,
                0,
            ]);
            if version < 11 || !c.is_empty() {
                plain.extend_from_slice(&(c.len() as i32 + keys.comment).to_le_bytes());
            }
            plain.extend_from_slice(&c);
        };
        let xy = |s: Square| s.file() * 10 + s.rank();
        record(&mut plain, 0, 0, !moves.is_empty(), false, "");
        for (i, m) in moves.iter().enumerate() {
            let comment = if i == 1 { "好棋" } else { "" };
            record(&mut plain, xy(m.from()), xy(m.to()), i + 1 < moves.len(), i == 0 && version >= 11, comment);
        }
        if version >= 11 && !moves.is_empty() {
            // The variation: another first move (a sibling of the main line's first move), no continuation.
            record(&mut plain, 0, 1, false, false, "");
        }
        let mut k = 0;
        for b in &mut plain {
            *b = b.wrapping_add(keys.stream[k]);
            k = (k + 1) % 32;
        }
        h.extend(plain);
        h
    }

    fn line(pos: &Position, text: &str) -> Vec<Move> {
        let mut p = pos.clone();
        text.split_whitespace()
            .map(|t| {
                let m = crate::notation::parse_move(&p, t).unwrap();
                p.make_move(m);
                m
            })
            .collect()
    }

    #[test]
    fn every_version_reads_back() {
        let start = Position::startpos();
        let moves = line(&start, "h2e2 h9g7 h0g2 i9h9");
        let ending = Position::from_fen("3k5/4a4/4b4/9/2n6/9/9/4B4/4A4/2B1KC3 b - - 0 1").unwrap();
        let ending_moves = line(&ending, "c5d3 f0f9");
        for (version, keys) in [
            (10, [0; 9]),
            (11, [0xbe, 0xe8, 0xd8, 0xbc, 0x84, 0xa5, 0x9c, 0xe7, 0xd8]),
            (12, [0xfe, 0x66, 0xf9, 0x7d, 0x24, 0x2d, 0x75, 0x66, 0xf8]),
        ] {
            let g = read(&write(version, keys, None, &moves, 1)).unwrap();
            assert_eq!(g.moves, ["h2e2", "h9g7", "h0g2", "i9h9"], "version {version}");
            assert_eq!(g.tag("Red"), Some("许银川"));
            assert_eq!(g.tag("Black"), Some("吕钦"));
            assert_eq!(g.tag("Event"), Some("全国象棋个人赛"));
            assert_eq!(g.tag("Result"), Some("1-0"));
            assert_eq!(g.start().unwrap(), start);
            let g = read(&write(version, keys, Some(&ending), &ending_moves, 2)).unwrap();
            assert_eq!(g.start().unwrap().to_fen(), ending.to_fen(), "version {version}");
            assert_eq!(g.moves, ["c5d3", "f0f9"]);
            assert_eq!(g.result.as_deref(), Some("0-1"));
        }
    }

    #[test]
    fn damaged_files_are_refused() {
        let moves = line(&Position::startpos(), "h2e2 h9g7");
        let good = write(12, [1, 2, 3, 4, 5, 6, 7, 8, 9], None, &moves, 0);
        assert!(read(b"XQ").unwrap_err().contains("truncated"));
        assert!(read(b"PK\x03\x04").unwrap_err().contains("not an XQF"));
        assert!(read(&good[..good.len() - 10]).unwrap_err().contains("end in the middle"));
        let mut v = good.clone();
        v[2] = 40;
        assert!(read(&v).unwrap_err().contains("version 4.0"));
        for n in 0..good.len() {
            let mut b = good.clone();
            b[n] ^= 0x5a;
            let _ = read(&b);
            let _ = read(&good[..n]);
        }
    }
}
