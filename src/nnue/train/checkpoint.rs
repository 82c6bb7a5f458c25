//! Checkpoints: a training run stopped after any epoch goes on from its file.

use super::model::{Layout, Model};
use super::optim::Adam;
use crate::nnue::features::FeatureSet;
use crate::nnue::network::MAX_OUTPUT_BUCKETS;

/// Checkpoint: the model's layout, the epoch and Adam's step count, then the model and Adam's state as
/// little-endian f32s.
pub fn save_checkpoint(path: &str, model: &Model, adam: &Adam, epoch: usize) -> std::io::Result<()> {
    let mut b = Vec::new();
    b.extend_from_slice(CHECKPOINT_MAGIC);
    let l = model.layout;
    for v in [l.features.id(), l.hidden as u32, l.output_buckets as u32, epoch as u32, adam.t as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let floats = model.w1.iter().chain(&model.b1).chain(&model.w2).chain(&model.b2);
    for f in floats.chain(&adam.m).chain(&adam.v) {
        b.extend_from_slice(&f.to_le_bytes());
    }
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, b)?;
    std::fs::rename(tmp, path)
}

/// Version 2 of the checkpoint (with the layout); version 1's `XQCK` files held a plain network only.
const CHECKPOINT_MAGIC: &[u8; 4] = b"XQC2";
const CHECKPOINT_HEADER: usize = 24;

pub fn load_checkpoint(path: &str) -> Result<(Model, Adam, usize), String> {
    let b = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if b.len() < CHECKPOINT_HEADER || &b[..4] != CHECKPOINT_MAGIC {
        return Err(format!("{path}: not a training checkpoint of this version"));
    }
    let word = |i: usize| u32::from_le_bytes(b[4 + 4 * i..8 + 4 * i].try_into().expect("4 bytes"));
    let features = FeatureSet::from_id(word(0)).ok_or(format!("{path}: unknown feature set {}", word(0)))?;
    let (hidden, output_buckets, epoch, t) = (word(1) as usize, word(2) as usize, word(3) as usize, word(4));
    if hidden == 0 || hidden > 4096 || !(1..=MAX_OUTPUT_BUCKETS).contains(&output_buckets) {
        return Err(format!("{path}: a checkpoint of {hidden} hidden units and {output_buckets} output buckets"));
    }
    let mut model = Model::new(Layout { features, hidden, output_buckets }, 0);
    let n = model.params();
    if b.len() != CHECKPOINT_HEADER + 4 * 3 * n {
        return Err(format!("{path}: a checkpoint of the wrong size"));
    }
    let f: Vec<f32> =
        b[CHECKPOINT_HEADER..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
    let (p, rest) = f.split_at(n);
    let (m, v) = rest.split_at(n);
    let mut p = p.iter().copied();
    for w in model.w1.iter_mut().chain(&mut model.b1).chain(&mut model.w2).chain(&mut model.b2) {
        *w = p.next().expect("sizes checked");
    }
    Ok((model, Adam { m: m.to_vec(), v: v.to_vec(), t: t as i32 }, epoch))
}

#[cfg(test)]
mod tests {
    use super::super::tests::SMALL;
    use super::*;

    #[test]
    fn checkpoints_round_trip() {
        let model = Model::new(SMALL, 5);
        let mut adam = Adam::new(model.params());
        adam.m[3] = 0.5;
        adam.t = 7;
        let path = std::env::temp_dir().join(format!("chuhan-ckpt-{}", std::process::id()));
        let path = path.to_str().unwrap();
        save_checkpoint(path, &model, &adam, 4).unwrap();
        assert_eq!(load_checkpoint(path).unwrap(), (model, adam, 4));
        std::fs::write(path, b"XQCK0000").unwrap();
        assert!(load_checkpoint(path).unwrap_err().contains("not a training checkpoint"));
        let _ = std::fs::remove_file(path);
    }
}
