//! A network's weights and its file format.
//!
//! The file (`*.nnue`, all little-endian) is a 32-byte header and the weights:
//!
//! | bytes | field |
//! |---|---|
//! | 0–3 | magic `XQNN` |
//! | 4–7 | format version (1) |
//! | 8–11 | inputs per perspective (1260, see `features`) |
//! | 12–15 | hidden units H (a multiple of 16, at most 4096) |
//! | 16–19 | QA, the feature transformer's scale (at most 255) |
//! | 20–23 | QB, the output layer's scale |
//! | 24–27 | SCALE: evaluation units per unit of network output |
//! | 28–31 | FNV-1a (32-bit) of everything after the header |
//! | … | feature weights, i16, one row of H per input (inputs × H) |
//! | … | feature biases, i16 × H |
//! | … | output weights, i16 × 2H (side to move's half first), each within ±127 |
//! | … | output bias, i32 |
//!
//! The evaluation is `(Σ screlu(us)·w_us + Σ screlu(them)·w_them) / QA + b`, times SCALE / (QA·QB), where
//! `screlu(x) = clamp(x, 0, QA)²`.

use super::features::INPUTS;

pub const MAGIC: [u8; 4] = *b"XQNN";
pub const VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 32;
/// The largest output weight: the SIMD dot product multiplies it by an activation ≤ 255 in 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// A quantised network, ready to evaluate with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub hidden: usize,
    pub qa: i16,
    pub qb: i32,
    pub scale: i32,
    /// `INPUTS` rows of `hidden`.
    pub feature_weights: Vec<i16>,
    pub feature_biases: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<i16>,
    pub output_bias: i32,
}

/// FNV-1a, 32 bits: the payload's checksum.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

impl Network {
    /// Feature `i`'s row of weights.
    #[inline]
    pub fn row(&self, i: usize) -> &[i16] {
        &self.feature_weights[i * self.hidden..(i + 1) * self.hidden]
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(2 * (INPUTS + 3) * self.hidden + 4);
        for &w in self.feature_weights.iter().chain(&self.feature_biases).chain(&self.output_weights) {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        payload.extend_from_slice(&self.output_bias.to_le_bytes());
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(&MAGIC);
        for v in [VERSION, INPUTS as u32, self.hidden as u32, self.qa as u32, self.qb as u32, self.scale as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a network file; a clear sentence for whatever is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < HEADER_BYTES {
            return Err(format!(
                "not a network file: {} bytes, shorter than the {HEADER_BYTES}-byte header",
                bytes.len()
            ));
        }
        if bytes[..4] != MAGIC {
            return Err("not a network file: it does not start with XQNN".into());
        }
        let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        let (version, inputs, hidden, qa, qb, scale, checksum) =
            (word(1), word(2), word(3) as usize, word(4), word(5), word(6), word(7));
        if version != VERSION {
            return Err(format!("network format version {version}; this engine reads version {VERSION}"));
        }
        if inputs as usize != INPUTS {
            return Err(format!("the network has {inputs} inputs; this engine's features are {INPUTS}"));
        }
        if hidden == 0 || !hidden.is_multiple_of(16) || hidden > 4096 {
            return Err(format!("hidden size {hidden} is not a multiple of 16 from 16 to 4096"));
        }
        if qa == 0 || qa > 255 || qb == 0 || qb > 1 << 16 || scale == 0 || scale > 1 << 16 {
            return Err(format!("quantisation constants out of range: QA {qa}, QB {qb}, SCALE {scale}"));
        }
        let expected = HEADER_BYTES + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4;
        if bytes.len() != expected {
            return Err(format!(
                "the file has {} bytes; a {INPUTS}→{hidden} network has {expected} (truncated or not this format)",
                bytes.len()
            ));
        }
        let payload = &bytes[HEADER_BYTES..];
        if fnv1a(payload) != checksum {
            return Err("the network's checksum does not match its weights (a damaged file)".into());
        }
        let mut words = payload.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let feature_weights = take(INPUTS * hidden);
        let feature_biases = take(hidden);
        let output_weights = take(2 * hidden);
        let output_bias = i32::from_le_bytes(payload[payload.len() - 4..].try_into().expect("4 bytes"));
        if let Some(w) = output_weights.iter().find(|w| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(format!("an output weight is {w}, outside ±{MAX_OUTPUT_WEIGHT}"));
        }
        Ok(Network {
            hidden,
            qa: qa as i16,
            qb: qb as i32,
            scale: scale as i32,
            feature_weights,
            feature_biases,
            output_weights,
            output_bias,
        })
    }

    /// Reads a network file from disk.
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// A network of random weights in the ranges a trained one has (for tests and benchmarks).
    pub fn random(hidden: usize, seed: u64) -> Network {
        // A small xorshift: the library needs no random-number crate for this.
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move |span: i32| -> i16 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x % (2 * span as u64 + 1)) as i32 - span) as i16
        };
        Network {
            hidden,
            qa: 255,
            qb: 64,
            scale: 400,
            feature_weights: (0..INPUTS * hidden).map(|_| next(40)).collect(),
            feature_biases: (0..hidden).map(|_| next(60)).collect(),
            output_weights: (0..2 * hidden).map(|_| next(MAX_OUTPUT_WEIGHT as i32)).collect(),
            output_bias: next(500) as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let net = Network::random(32, 1);
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
        assert_eq!(net.to_bytes().len(), HEADER_BYTES + 2 * (INPUTS * 32 + 3 * 32) + 4);
    }

    /// Every way a file can be wrong gets its own sentence, and nothing panics.
    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let good = Network::random(16, 2).to_bytes();
        let with = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = good.clone();
            f(&mut b);
            Network::from_bytes(&b).unwrap_err()
        };
        assert!(with(&|b| b.truncate(10)).contains("shorter than the 32-byte header"));
        assert!(with(&|b| b[0] = b'Y').contains("does not start with XQNN"));
        assert!(with(&|b| b[4] = 9).contains("format version 9"));
        assert!(with(&|b| b[8] = 0).contains("inputs"));
        assert!(with(&|b| b[12] = 17).contains("hidden size 17"));
        assert!(with(&|b| b.truncate(b.len() - 1)).contains("truncated"));
        assert!(with(&|b| b.push(0)).contains("bytes"));
        assert!(with(&|b| b[100] ^= 1).contains("checksum"));
        for n in [0, 1, 31, 32, 33, 1000] {
            let _ = Network::from_bytes(&good[..n.min(good.len())]);
            let _ = Network::from_bytes(&vec![0xff; n]);
        }
        let mut wide = Network::random(16, 3);
        wide.output_weights[5] = 300;
        assert!(Network::from_bytes(&wide.to_bytes()).unwrap_err().contains("output weight is 300"));
    }
}
