//! The self-play game file of `chuhan datagen` (`*.xqg`): whole games in a few bytes a position, written in
//! chunks that a kill at any moment cannot spoil.
//!
//! A file is a sequence of chunks; each stands alone (all little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0–3 | magic `XQGC` |
//! | 4 | format version (1) |
//! | 5–7 | zero |
//! | 8–15 | the seed the games were generated with |
//! | 16–19 | nodes per move (0 when not known, as after a merge) |
//! | 20–23 | number of games |
//! | 24–27 | payload length in bytes |
//! | 28–31 | FNV-1a (32-bit) of the payload |
//! | … | the games |
//!
//! A game: its index (u64: with the seed, what reproduces it), the result (u8: 0 Black won, 1 draw, 2 Red
//! won), the start position as a FEN (u8 length, then the text), the number of plies (u16), then for each ply
//! the move played (u16, `Move::raw`) and the search's score of the position before it (i16, side to move's
//! view). A reader keeps every whole, intact chunk and reports where the damage starts, so that `datagen`
//! can cut a half-written chunk off and go on.

use crate::board::Position;
use crate::nnue::network::fnv1a;
use crate::types::Move;

pub const MAGIC: [u8; 4] = *b"XQGC";
pub const VERSION: u8 = 1;
pub const CHUNK_HEADER: usize = 32;

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub seed: u64,
    pub index: u64,
    /// 0 Black won, 1 draw, 2 Red won.
    pub result: u8,
    pub start: String,
    /// Each move with the search's score of the position it was played in (side to move's view).
    pub moves: Vec<(Move, i16)>,
}

impl Game {
    /// The result from Red's side: 1 won, 0.5 drawn, 0 lost.
    pub fn result_for_red(&self) -> f32 {
        self.result as f32 / 2.0
    }

    /// Calls `visit` with each position of the game (before its move), the move, and the score.
    pub fn replay(&self, mut visit: impl FnMut(&Position, Move, i16)) -> Result<(), String> {
        let mut pos = Position::from_fen(&self.start).map_err(|e| format!("game {}: {e}", self.index))?;
        for &(m, score) in &self.moves {
            if !pos.is_legal(m) {
                return Err(format!("game {}: illegal move {m} in {}", self.index, pos.to_fen()));
            }
            visit(&pos, m, score);
            pos.make_move(m);
        }
        Ok(())
    }
}

/// The bytes of one chunk holding `games` (all of one seed and node count).
pub fn encode_chunk(seed: u64, nodes: u32, games: &[Game]) -> Vec<u8> {
    let mut payload = Vec::new();
    for g in games {
        payload.extend_from_slice(&g.index.to_le_bytes());
        payload.push(g.result);
        let fen = g.start.as_bytes();
        payload.push(fen.len().min(255) as u8);
        payload.extend_from_slice(&fen[..fen.len().min(255)]);
        payload.extend_from_slice(&(g.moves.len().min(u16::MAX as usize) as u16).to_le_bytes());
        for &(m, s) in g.moves.iter().take(u16::MAX as usize) {
            payload.extend_from_slice(&m.raw().to_le_bytes());
            payload.extend_from_slice(&s.to_le_bytes());
        }
    }
    let mut out = Vec::with_capacity(CHUNK_HEADER + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&[VERSION, 0, 0, 0]);
    out.extend_from_slice(&seed.to_le_bytes());
    out.extend_from_slice(&nodes.to_le_bytes());
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// What a file holds: its intact games, the length of its intact prefix, and why reading stopped there
/// (`None`: the whole file is good).
pub struct Contents {
    pub games: Vec<Game>,
    pub valid_len: usize,
    pub damage: Option<String>,
}

/// Reads every intact chunk from the start of `bytes`.
pub fn decode(bytes: &[u8]) -> Contents {
    let mut games = Vec::new();
    let mut at = 0;
    let damage = loop {
        if at == bytes.len() {
            break None;
        }
        match decode_chunk(&bytes[at..]) {
            Ok((mut g, len)) => {
                games.append(&mut g);
                at += len;
            }
            Err(e) => break Some(format!("at byte {at}: {e}")),
        }
    };
    Contents { games, valid_len: at, damage }
}

fn decode_chunk(b: &[u8]) -> Result<(Vec<Game>, usize), String> {
    if b.len() < CHUNK_HEADER {
        return Err(format!("a chunk header cut short ({} bytes)", b.len()));
    }
    if b[..4] != MAGIC {
        return Err("no chunk starts here (not a game file, or damaged)".into());
    }
    if b[4] != VERSION {
        return Err(format!("chunk format version {}; this program reads {VERSION}", b[4]));
    }
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
    let seed = u64::from_le_bytes(b[8..16].try_into().expect("8 bytes"));
    let (count, len, sum) = (u32_at(20) as usize, u32_at(24) as usize, u32_at(28));
    let payload = b.get(CHUNK_HEADER..CHUNK_HEADER + len).ok_or("a chunk cut short (an interrupted write)")?;
    if fnv1a(payload) != sum {
        return Err("a chunk's checksum does not match".into());
    }
    let mut r = Reader { b: payload, at: 0 };
    let mut games = Vec::with_capacity(count);
    for _ in 0..count {
        let index = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
        let result = r.take(1)?[0];
        let fen_len = r.take(1)?[0] as usize;
        let start = String::from_utf8(r.take(fen_len)?.to_vec()).map_err(|_| "a start FEN is not text")?;
        let plies = u16::from_le_bytes(r.take(2)?.try_into().expect("2 bytes")) as usize;
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let w = r.take(4)?;
            let m = Move::from_raw(u16::from_le_bytes([w[0], w[1]])).ok_or("a move out of range")?;
            moves.push((m, i16::from_le_bytes([w[2], w[3]])));
        }
        if result > 2 {
            return Err(format!("game {index}: result {result} is not 0, 1 or 2"));
        }
        games.push(Game { seed, index, result, start, moves });
    }
    if r.at != payload.len() {
        return Err("a chunk's games do not fill its payload".into());
    }
    Ok((games, CHUNK_HEADER + len))
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let s = self.b.get(self.at..self.at + n).ok_or("a game runs past its chunk")?;
        self.at += n;
        Ok(s)
    }
}

/// Reads a game file from disk (only its intact chunks; the damage, if any, goes to stderr).
pub fn read(path: &str) -> Result<Vec<Game>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let c = decode(&bytes);
    if let Some(d) = c.damage {
        eprintln!("{path}: {d}; read the {} games before it", c.games.len());
    }
    Ok(c.games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64) -> Game {
        let pos = Position::startpos();
        let moves = pos.legal_moves().iter().take(3).map(|&m| (m, index as i16 * 7 - 20)).collect::<Vec<_>>();
        Game { seed: 9, index, result: (index % 3) as u8, start: pos.to_fen(), moves: moves[..1].to_vec() }
    }

    #[test]
    fn chunks_round_trip_and_damage_is_cut_off() {
        let a = encode_chunk(9, 5000, &[game(0), game(1)]);
        let b = encode_chunk(9, 5000, &[game(2)]);
        let mut file = [a.clone(), b.clone()].concat();
        let c = decode(&file);
        assert_eq!(c.games, vec![game(0), game(1), game(2)]);
        assert_eq!((c.valid_len, c.damage), (file.len(), None));
        // A kill in the middle of the second chunk's write: the first survives, the rest is reported.
        for cut in [a.len() + 1, a.len() + CHUNK_HEADER, file.len() - 1] {
            let c = decode(&file[..cut]);
            assert_eq!(c.games, vec![game(0), game(1)]);
            assert_eq!(c.valid_len, a.len());
            assert!(c.damage.unwrap().contains("cut short"));
        }
        file[a.len() + CHUNK_HEADER + 3] ^= 0x40;
        assert!(decode(&file).damage.unwrap().contains("checksum"));
        assert!(decode(b"garbage garbage garbage garbage garbage").damage.unwrap().contains("no chunk"));
    }
}
