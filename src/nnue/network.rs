//! A network's weights and its file format.
//!
//! The file (`*.nnue`, all little-endian) is a header and the weights. Version 2 (since the king-bucketed
//! networks) has a 40-byte header:
//!
//! | bytes | field |
//! |---|---|
//! | 0–3 | magic `XQNN` |
//! | 4–7 | format version (2) |
//! | 8–11 | feature set (0 plain, 1 king buckets, 2 king buckets judged by each side: `features::FeatureSet`) |
//! | 12–15 | inputs per perspective (the feature set's: 1260 a king bucket) |
//! | 16–19 | hidden units H (a multiple of 16, at most 4096) |
//! | 20–23 | output buckets B (1 to 16, chosen by the number of pieces on the board) |
//! | 24–27 | QA, the feature transformer's scale (at most 255) |
//! | 28–31 | QB, the output layer's scale |
//! | 32–35 | SCALE: evaluation units per unit of network output |
//! | 36–39 | FNV-1a (32-bit) of everything after the header |
//! | … | feature weights, i16, one row of H per input (inputs × H) |
//! | … | feature biases, i16 × H |
//! | … | output weights, i16 × 2H per output bucket (side to move's half first), each within ±127 |
//! | … | output biases, i32 × B |
//!
//! Version 1 (net0–net5) is read too: a 32-byte header without the feature set and the output buckets (plain,
//! one bucket), the rest alike.
//!
//! The evaluation is `(Σ screlu(us)·w_us + Σ screlu(them)·w_them) / QA + b`, with the output bucket's `w` and
//! `b`, times SCALE / (QA·QB), where `screlu(x) = clamp(x, 0, QA)²`.

use super::features::FeatureSet;
use crate::memory::LargeBuffer;

pub const MAGIC: [u8; 4] = *b"XQNN";
pub const VERSION: u32 = 2;
/// Version 2's header; version 1's was 32 bytes.
pub const HEADER_BYTES: usize = 40;
const V1_HEADER_BYTES: usize = 32;
/// The most output buckets a file may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;
/// The largest output weight: the SIMD dot product multiplies it by an activation ≤ 255 in 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// A quantised network, ready to evaluate with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub features: FeatureSet,
    pub hidden: usize,
    pub output_buckets: usize,
    pub qa: i16,
    pub qb: i32,
    pub scale: i32,
    /// `features.inputs()` rows of `hidden` (read at random by the search: in huge-page-friendly memory).
    pub feature_weights: LargeBuffer<i16>,
    pub feature_biases: Vec<i16>,
    /// Per output bucket, the side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<i16>,
    /// One per output bucket.
    pub output_biases: Vec<i32>,
}

/// FNV-1a, 32 bits: the payload's checksum.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

/// The output bucket of a board with `pieces` pieces (2 to 32) among `buckets`: equal steps of piece count.
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.clamp(2, 32) - 2) * buckets / 31
}

impl Network {
    /// Feature `i`'s row of weights.
    #[inline]
    pub fn row(&self, i: usize) -> &[i16] {
        &self.feature_weights[i * self.hidden..(i + 1) * self.hidden]
    }

    /// Output bucket `b`'s weights (side to move's half first) and bias.
    #[inline]
    pub fn output(&self, b: usize) -> (&[i16], i32) {
        (&self.output_weights[b * 2 * self.hidden..(b + 1) * 2 * self.hidden], self.output_biases[b])
    }

    /// The file's bytes (always the current version).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(2 * self.feature_weights.len() + 4 * self.output_biases.len());
        for &w in self.feature_weights.iter().chain(&self.feature_biases).chain(&self.output_weights) {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_biases {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(&MAGIC);
        let header = [
            VERSION,
            self.features.id(),
            self.features.inputs() as u32,
            self.hidden as u32,
            self.output_buckets as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
        ];
        for v in header {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a network file; a clear sentence for whatever is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < V1_HEADER_BYTES {
            return Err(format!(
                "not a network file: {} bytes, shorter than the {V1_HEADER_BYTES}-byte header",
                bytes.len()
            ));
        }
        if bytes[..4] != MAGIC {
            return Err("not a network file: it does not start with XQNN".into());
        }
        let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        // (feature set, inputs, hidden, output buckets, QA, QB, SCALE, checksum, header size)
        let (features, inputs, hidden, buckets, qa, qb, scale, checksum, header) = match word(1) {
            1 => (0, word(2), word(3), 1, word(4), word(5), word(6), word(7), V1_HEADER_BYTES),
            2 if bytes.len() >= HEADER_BYTES => {
                (word(2), word(3), word(4), word(5), word(6), word(7), word(8), word(9), HEADER_BYTES)
            }
            2 => return Err(format!("not a network file: shorter than the {HEADER_BYTES}-byte header")),
            v => return Err(format!("network format version {v}; this engine reads versions 1 and {VERSION}")),
        };
        let features = FeatureSet::from_id(features).ok_or(format!("unknown feature set {features}"))?;
        if inputs as usize != features.inputs() {
            return Err(format!(
                "the network has {inputs} inputs; the {} feature set has {}",
                features.name(),
                features.inputs()
            ));
        }
        let (hidden, buckets) = (hidden as usize, buckets as usize);
        if hidden == 0 || !hidden.is_multiple_of(16) || hidden > 4096 {
            return Err(format!("hidden size {hidden} is not a multiple of 16 from 16 to 4096"));
        }
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return Err(format!("{buckets} output buckets; from 1 to {MAX_OUTPUT_BUCKETS} are allowed"));
        }
        if qa == 0 || qa > 255 || qb == 0 || qb > 1 << 16 || scale == 0 || scale > 1 << 16 {
            return Err(format!("quantisation constants out of range: QA {qa}, QB {qb}, SCALE {scale}"));
        }
        let inputs = inputs as usize;
        let expected = header + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets;
        if bytes.len() != expected {
            return Err(format!(
                "the file has {} bytes; a {inputs}→{hidden}→{buckets} network has {expected} (truncated or not \
                 this format)",
                bytes.len()
            ));
        }
        let payload = &bytes[header..];
        if fnv1a(payload) != checksum {
            return Err("the network's checksum does not match its weights (a damaged file)".into());
        }
        let mut words = payload.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let feature_weights = take(inputs * hidden).into();
        let feature_biases = take(hidden);
        let output_weights = take(buckets * 2 * hidden);
        let output_biases = payload[payload.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        if let Some(w) = output_weights.iter().find(|w| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(format!("an output weight is {w}, outside ±{MAX_OUTPUT_WEIGHT}"));
        }
        Ok(Network {
            features,
            hidden,
            output_buckets: buckets,
            qa: qa as i16,
            qb: qb as i32,
            scale: scale as i32,
            feature_weights,
            feature_biases,
            output_weights,
            output_biases,
        })
    }

    /// Reads a network file from disk.
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// A network of random weights in the ranges a trained one has (for tests and benchmarks).
    pub fn random(features: FeatureSet, hidden: usize, output_buckets: usize, seed: u64) -> Network {
        // A small xorshift: the library needs no random-number crate for this.
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move |span: i32| -> i16 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x % (2 * span as u64 + 1)) as i32 - span) as i16
        };
        Network {
            features,
            hidden,
            output_buckets,
            qa: 255,
            qb: 64,
            scale: 400,
            feature_weights: (0..features.inputs() * hidden).map(|_| next(40)).collect::<Vec<_>>().into(),
            feature_biases: (0..hidden).map(|_| next(60)).collect(),
            output_weights: (0..output_buckets * 2 * hidden).map(|_| next(MAX_OUTPUT_WEIGHT as i32)).collect(),
            output_biases: (0..output_buckets).map(|_| next(500) as i32).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for (features, buckets) in [(FeatureSet::Plain, 1), (FeatureSet::KingBuckets, 8)] {
            let net = Network::random(features, 32, buckets, 1);
            assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
            let size = HEADER_BYTES + 2 * (features.inputs() * 32 + 32 + buckets * 64) + 4 * buckets;
            assert_eq!(net.to_bytes().len(), size);
        }
    }

    /// The shipped networks before version 2 still read: a version-1 file is a plain net with one bucket.
    #[test]
    fn version_1_files_read() {
        let net = Network::random(FeatureSet::Plain, 16, 1, 4);
        let v2 = net.to_bytes();
        let payload = &v2[HEADER_BYTES..];
        let mut v1 = MAGIC.to_vec();
        for v in [1, 1260, 16, 255, 64, 400, fnv1a(payload)] {
            v1.extend_from_slice(&u32::to_le_bytes(v));
        }
        v1.extend_from_slice(payload);
        assert_eq!(Network::from_bytes(&v1).unwrap(), net);
    }

    #[test]
    fn output_buckets_split_the_piece_counts_evenly() {
        assert_eq!(output_bucket(32, 8), 7);
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(17, 1), 0);
        let sizes: Vec<usize> = (0..8).map(|b| (2..=32).filter(|&n| output_bucket(n, 8) == b).count()).collect();
        assert!(sizes.iter().all(|&n| (3..=5).contains(&n)), "{sizes:?}");
    }

    /// Every way a file can be wrong gets its own sentence, and nothing panics.
    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let good = Network::random(FeatureSet::KingBuckets, 16, 2, 2).to_bytes();
        let with = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            Network::from_bytes(&b).unwrap_err()
        };
        assert!(with(&|b| b.truncate(10)).contains("shorter than the 32-byte header"));
        assert!(with(&|b| b.truncate(35)).contains("40-byte header"));
        assert!(with(&|b| b[0] = b'Y').contains("does not start with XQNN"));
        assert!(with(&|b| b[4] = 9).contains("format version 9"));
        assert!(with(&|b| b[8] = 7).contains("unknown feature set 7"));
        assert!(with(&|b| b[12] = 0).contains("inputs"));
        assert!(with(&|b| b[16] = 17).contains("hidden size 17"));
        assert!(with(&|b| b[20] = 17).contains("17 output buckets"));
        assert!(with(&|b| b[24] = 0).contains("QA 0"));
        assert!(with(&|b| b.truncate(b.len() - 1)).contains("truncated"));
        assert!(with(&|b| b.push(0)).contains("bytes"));
        assert!(with(&|b| b[100] ^= 1).contains("checksum"));
        for n in [0, 1, 31, 32, 33, 39, 40, 41, 1000] {
            let _ = Network::from_bytes(&good[..n.min(good.len())]);
            let _ = Network::from_bytes(&vec![0xff; n]);
        }
        let mut wide = Network::random(FeatureSet::Plain, 16, 1, 3);
        wide.output_weights[5] = 300;
        assert!(Network::from_bytes(&wide.to_bytes()).unwrap_err().contains("output weight is 300"));
    }
}
