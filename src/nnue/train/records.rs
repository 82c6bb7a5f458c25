//! Training records on disk: every training position as a fixed-size record, written once from the game files
//! and then streamed in shuffled blocks every epoch ([`Loader`]), so that the amount of data is bounded by the
//! disk, not by memory.
//!
//! The file: a 16-byte header (`XQTR`, version 1, the record size, 0), then records of [`RECORD_BYTES`]:
//!
//! | bytes | field |
//! |---|---|
//! | 0–31 | the point (0–89) of each piece in a fixed order of slots, 255 when absent: for Red then Black, king, 2 advisors, 2 elephants, 2 horses, 2 rooks, 2 cannons, 5 pawns |
//! | 32 | side to move (0 Red, 1 Black) |
//! | 33 | the game's result for the side to move: 0 loss, 1 draw, 2 win |
//! | 34–35 | the search's score for the side to move, i16 |
//!
//! The loader's order is fixed by the seed: the blocks of [`BLOCK`] records are visited in a shuffled order,
//! [`BUFFER_BLOCKS`] at a time, and the records of those blocks are shuffled together; the same file and seed
//! give the same batches whatever the thread count.

use super::sample::Sample;
use crate::rng::Rng;
use crate::types::{Color, Piece, PieceType};
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};

pub const RECORD_BYTES: usize = 36;
const MAGIC: &[u8; 4] = b"XQTR";
const VERSION: u32 = 1;
const HEADER_BYTES: u64 = 16;
/// Records per block: the unit of the shuffled reads.
pub const BLOCK: usize = 4096;
/// Blocks shuffled together: 256 × 4096 records × 36 bytes = 36 MB in memory, whatever the file's size.
pub const BUFFER_BLOCKS: usize = 256;
const ABSENT: u8 = 255;

/// Where each kind's slots start among a colour's 16, and how many it has.
const SLOTS: [(usize, usize); PieceType::NUM] = [(0, 1), (1, 2), (3, 2), (5, 2), (7, 2), (9, 2), (11, 5)];

/// A sample as a record.
pub fn encode(s: &Sample) -> Result<[u8; RECORD_BYTES], String> {
    let mut r = [ABSENT; RECORD_BYTES];
    for &(pc, sq) in &s.pieces {
        let p = Piece::from_index(pc as usize);
        let (first, n) = SLOTS[p.kind().index()];
        let base = p.color().index() * 16 + first;
        let slot = (base..base + n).find(|&i| r[i] == ABSENT).ok_or_else(|| format!("too many {p}s for a record"))?;
        r[slot] = sq;
    }
    r[32] = s.stm.index() as u8;
    r[33] = (s.result * 2.0).round().clamp(0.0, 2.0) as u8;
    r[34..36].copy_from_slice(&(s.score.clamp(i16::MIN as f32, i16::MAX as f32) as i16).to_le_bytes());
    Ok(r)
}

/// A record as a sample; a clear sentence for a damaged one.
pub fn decode(r: &[u8]) -> Result<Sample, String> {
    let mut pieces = Vec::with_capacity(32);
    for (slot, &sq) in r[..32].iter().enumerate() {
        if sq == ABSENT {
            continue;
        }
        if sq >= 90 {
            return Err(format!("a training record with point {sq}"));
        }
        let (color, i) = (Color::from_index(slot / 16), slot % 16);
        let kind = (0..PieceType::NUM).rev().find(|&k| i >= SLOTS[k].0).expect("slot 0 is the king's");
        pieces.push((Piece::new(color, PieceType::from_index(kind)).index() as u8, sq));
    }
    if r[32] > 1 || r[33] > 2 {
        return Err("a training record with a bad side to move or result".into());
    }
    let score = i16::from_le_bytes([r[34], r[35]]) as f32;
    Ok(Sample { pieces, stm: Color::from_index(r[32] as usize), score, result: r[33] as f32 / 2.0 })
}

/// Writes records to a file.
pub struct Writer {
    out: BufWriter<File>,
    count: u64,
}

impl Writer {
    pub fn create(path: &str) -> Result<Writer, String> {
        let file = File::create(path).map_err(|e| format!("{path}: {e}"))?;
        let mut out = BufWriter::new(file);
        let mut header = Vec::with_capacity(HEADER_BYTES as usize);
        header.extend_from_slice(MAGIC);
        for v in [VERSION, RECORD_BYTES as u32, 0] {
            header.extend_from_slice(&v.to_le_bytes());
        }
        out.write_all(&header).map_err(|e| format!("{path}: {e}"))?;
        Ok(Writer { out, count: 0 })
    }

    pub fn push(&mut self, s: &Sample) -> Result<(), String> {
        self.out.write_all(&encode(s)?).map_err(|e| e.to_string())?;
        self.count += 1;
        Ok(())
    }

    /// Flushes; the number of records written.
    pub fn finish(mut self) -> Result<u64, String> {
        self.out.flush().map_err(|e| e.to_string())?;
        Ok(self.count)
    }
}

/// Streams a records file in shuffled blocks.
pub struct Loader {
    file: File,
    path: String,
    count: usize,
}

impl Loader {
    pub fn open(path: &str) -> Result<Loader, String> {
        let mut file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let mut header = [0u8; HEADER_BYTES as usize];
        file.read_exact(&mut header).map_err(|_| format!("{path}: not a training records file (too short)"))?;
        let word = |i: usize| u32::from_le_bytes(header[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        if &header[..4] != MAGIC || word(1) != VERSION || word(2) != RECORD_BYTES as u32 {
            return Err(format!("{path}: not a training records file of version {VERSION}"));
        }
        let len = file.metadata().map_err(|e| format!("{path}: {e}"))?.len() - HEADER_BYTES;
        if !len.is_multiple_of(RECORD_BYTES as u64) {
            return Err(format!("{path}: {len} bytes of records is not a whole number of records (a cut file)"));
        }
        Ok(Loader { file, path: path.to_string(), count: (len / RECORD_BYTES as u64) as usize })
    }

    /// Records in the file.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The order of one epoch's blocks (a group of [`BUFFER_BLOCKS`] of them is read at a time).
    fn block_order(&self, rng: &mut Rng) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.count.div_ceil(BLOCK)).collect();
        shuffle(&mut order, rng);
        order
    }

    /// The shuffle of the records of a group of blocks, into `perm`. Drawn group by group as the epoch goes, in
    /// the same order whether the records are read or skipped, so memory holds one group's shuffle, never the
    /// whole file's.
    fn group_shuffle(&self, group: &[usize], rng: &mut Rng, perm: &mut Vec<u32>) {
        let n: usize = group.iter().map(|&b| self.block_len(b)).sum();
        perm.clear();
        perm.extend(0..n as u32);
        shuffle(perm, rng);
    }

    fn block_len(&self, b: usize) -> usize {
        BLOCK.min(self.count - b * BLOCK)
    }

    /// Draws an epoch's order from `rng` without reading (a resumed run's finished epochs).
    pub fn skip_epoch(&self, rng: &mut Rng) {
        let mut perm = Vec::new();
        for group in self.block_order(rng).chunks(BUFFER_BLOCKS) {
            self.group_shuffle(group, rng, &mut perm);
        }
    }

    /// One epoch: calls `f` with the records (raw bytes, [`RECORD_BYTES`] each) of every group of blocks in its
    /// shuffled order.
    pub fn epoch(&mut self, rng: &mut Rng, mut f: impl FnMut(&[u8])) -> Result<(), String> {
        let (mut raw, mut shuffled, mut perm) = (Vec::new(), Vec::new(), Vec::new());
        for group in self.block_order(rng).chunks(BUFFER_BLOCKS) {
            self.group_shuffle(group, rng, &mut perm);
            raw.clear();
            for &b in group {
                let at = HEADER_BYTES + (b * BLOCK * RECORD_BYTES) as u64;
                let n = self.block_len(b) * RECORD_BYTES;
                let start = raw.len();
                raw.resize(start + n, 0);
                self.file.seek(SeekFrom::Start(at)).map_err(|e| format!("{}: {e}", self.path))?;
                self.file.read_exact(&mut raw[start..]).map_err(|e| format!("{}: {e}", self.path))?;
            }
            shuffled.clear();
            for &i in &perm {
                let i = i as usize * RECORD_BYTES;
                shuffled.extend_from_slice(&raw[i..i + RECORD_BYTES]);
            }
            f(&shuffled);
        }
        Ok(())
    }
}

impl Loader {
    /// The first `n` records (all when there are fewer), as raw bytes.
    pub fn first(&mut self, n: usize) -> Result<Vec<u8>, String> {
        let mut raw = vec![0; n.min(self.count) * RECORD_BYTES];
        self.file.seek(SeekFrom::Start(HEADER_BYTES)).map_err(|e| format!("{}: {e}", self.path))?;
        self.file.read_exact(&mut raw).map_err(|e| format!("{}: {e}", self.path))?;
        Ok(raw)
    }

    /// The records in file order, at most `chunk` at a time (the validation set: nothing to shuffle, and only
    /// one chunk in memory).
    pub fn in_order(&mut self, chunk: usize, mut f: impl FnMut(&[u8]) -> Result<(), String>) -> Result<(), String> {
        self.file.seek(SeekFrom::Start(HEADER_BYTES)).map_err(|e| format!("{}: {e}", self.path))?;
        let mut raw = Vec::new();
        let mut left = self.count;
        while left > 0 {
            let n = left.min(chunk.max(1));
            raw.resize(n * RECORD_BYTES, 0);
            self.file.read_exact(&mut raw).map_err(|e| format!("{}: {e}", self.path))?;
            f(&raw)?;
            left -= n;
        }
        Ok(())
    }
}

/// Fisher–Yates with the seeded generator.
fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn records_round_trip() {
        let pos = Position::from_fen(crate::board::perft::reference_fen("pos2")).unwrap();
        for (score, result) in [(10, 1.0), (-30000, 0.0), (0, 0.5)] {
            let s = Sample::from_position(&pos, score, result);
            let back = decode(&encode(&s).unwrap()).unwrap();
            let sorted = |s: &Sample| {
                let mut p = s.pieces.clone();
                p.sort_unstable();
                p
            };
            assert_eq!((sorted(&back), back.stm, back.score, back.result), (sorted(&s), s.stm, s.score, s.result));
        }
        let mut bad = encode(&Sample::from_position(&pos, 0, 0.5)).unwrap();
        bad[3] = 95;
        assert!(decode(&bad).unwrap_err().contains("point 95"));
    }

    /// Every record comes once an epoch, in an order the seed fixes; different epochs differ; a cut file and a
    /// stranger are refused.
    #[test]
    fn the_loader_streams_every_record_once() {
        let dir = std::env::temp_dir().join(format!("chuhan-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.bin");
        let path = path.to_str().unwrap();
        let pos = Position::startpos();
        // More than one group of blocks, and a last block cut short.
        let n = BLOCK * BUFFER_BLOCKS + 3 * BLOCK + 17;
        let mut w = Writer::create(path).unwrap();
        for i in 0..n {
            w.push(&Sample::from_position(&pos, i as i32 % 30000, 0.5)).unwrap();
        }
        assert_eq!(w.finish().unwrap(), n as u64);
        let epoch = |seed: u64, skip: usize| {
            let mut l = Loader::open(path).unwrap();
            assert_eq!(l.len(), n);
            let mut rng = Rng::new(seed);
            for _ in 0..skip {
                l.skip_epoch(&mut rng);
            }
            let mut scores = Vec::new();
            l.epoch(&mut rng, |raw| {
                scores.extend(raw.chunks_exact(RECORD_BYTES).map(|r| decode(r).unwrap().score as i32));
            })
            .unwrap();
            scores
        };
        let first = epoch(1, 0);
        assert_eq!(first, epoch(1, 0));
        assert_ne!(first, epoch(1, 1));
        // A skipped epoch draws what a read one does: the second epoch of an unbroken run is a resumed run's.
        let (mut l, mut rng, mut second) = (Loader::open(path).unwrap(), Rng::new(1), Vec::new());
        l.epoch(&mut rng, |_| {}).unwrap();
        l.epoch(&mut rng, |raw| second.extend(raw.chunks_exact(RECORD_BYTES).map(|r| decode(r).unwrap().score as i32)))
            .unwrap();
        assert_eq!(second, epoch(1, 1));
        let mut sorted = first.clone();
        sorted.sort_unstable();
        let mut expected: Vec<i32> = (0..n as i32).map(|i| i % 30000).collect();
        expected.sort_unstable();
        assert_eq!(sorted, expected);
        // The shuffle reaches across blocks: the first records do not come from one block.
        assert!(first[..100].windows(2).any(|w| (w[0] - w[1]).abs() > BLOCK as i32));
        // In file order, a chunk at a time (the last one short), twice alike.
        for _ in 0..2 {
            let (mut l, mut scores, mut sizes) = (Loader::open(path).unwrap(), Vec::new(), Vec::new());
            l.in_order(BLOCK * 100, |raw| {
                sizes.push(raw.len() / RECORD_BYTES);
                scores.extend(raw.chunks_exact(RECORD_BYTES).map(|r| decode(r).unwrap().score as i32));
                Ok(())
            })
            .unwrap();
            assert_eq!(scores, (0..n as i32).map(|i| i % 30000).collect::<Vec<_>>());
            assert_eq!(sizes, [BLOCK * 100, BLOCK * 100, BLOCK * 59 + 17]);
        }
        let bytes = std::fs::read(path).unwrap();
        std::fs::write(path, &bytes[..bytes.len() - 5]).unwrap();
        assert!(Loader::open(path).err().unwrap().contains("cut file"));
        std::fs::write(path, b"XQNN0000").unwrap();
        assert!(Loader::open(path).err().unwrap().contains("not a training records file"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
