//! The shared transposition table.
//!
//! Buckets of four 16-byte entries fill one 64-byte cache line. An entry is two atomic words: the data and the
//! key XOR the data, so a read torn by another thread's write fails the key check instead of returning a mixed
//! entry (the lockless hashing of Hyatt and Mann). No locks; the one `unsafe` block is the cache prefetch
//! ([`TranspositionTable::prefetch`]), a hint that cannot fault, with its proof beside it.

use crate::memory::{LargeBuffer, Zeroable};
use crate::types::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    None = 0,
    /// The score is at most this (fail-low).
    Upper = 1,
    /// The score is at least this (fail-high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// Whether a stored score with this bound settles a node searched with window (`alpha`, `beta`).
    #[inline]
    pub fn decides(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    pub pv: bool,
}

#[repr(align(64))]
struct Bucket {
    slots: [(AtomicU64, AtomicU64); 4],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

// SAFETY: a bucket is eight `AtomicU64`s, for which zero bytes are the value 0 (an empty slot).
#[allow(unsafe_code)]
unsafe impl Zeroable for Bucket {}

pub struct TranspositionTable {
    buckets: LargeBuffer<Bucket>,
    age: AtomicU8,
}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | pv 1 | age 5
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, age: u8) -> u64 {
    mv.raw() as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | ((depth.clamp(-1, 254) + 1) as u64) << 48
        | (bound as u64) << 56
        | (pv as u64) << 58
        | ((age & 31) as u64) << 59
}

fn unpack(d: u64) -> Entry {
    Entry {
        mv: Move::from_raw(d as u16).unwrap_or(Move::NULL),
        score: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 0xff) as i32 - 1,
        bound: match (d >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        },
        pv: (d >> 58) & 1 != 0,
    }
}

fn age_of(d: u64) -> u8 {
    ((d >> 59) & 31) as u8
}

impl TranspositionTable {
    /// A table of exactly `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let count = (mb.max(1) << 20) / std::mem::size_of::<Bucket>();
        TranspositionTable { buckets: LargeBuffer::zeroed(count), age: AtomicU8::new(0) }
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for (k, d) in &b.slots {
                k.store(0, Relaxed);
                d.store(0, Relaxed);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Called once per search so that older entries are replaced first.
    pub fn new_search(&self) {
        self.age.store(self.age.load(Relaxed).wrapping_add(1) & 31, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any bucket count without a modulo.
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe a little later does not wait for
    /// memory. Called as soon as a move is made, before the child node's own work.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint to the cache: it never faults, even on an invalid address, and
            // changes no memory the program can observe; here the address is a live bucket of this table
            // anyway. SSE, which `_mm_prefetch` requires, is part of every x86_64 target.
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        for (k, d) in &self.bucket(key).slots {
            let data = d.load(Relaxed);
            if k.load(Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a search result. Keeps the old move when the new result has none, and prefers to overwrite
    /// the same position, then empty or stale entries, then the shallowest.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) {
        let age = self.age.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, (k, d)) in bucket.slots.iter().enumerate() {
            let data = d.load(Relaxed);
            if k.load(Relaxed) ^ data == key || data == 0 {
                let old = unpack(data);
                // Keep a deeper exact-enough entry of the same position unless this one is exact.
                if data != 0 && bound != Bound::Exact && old.depth > depth + 3 && age_of(data) == age {
                    return;
                }
                let mv = if mv.is_null() && data != 0 { old.mv } else { mv };
                let new = pack(mv, score, eval, depth, bound, pv, age);
                d.store(new, Relaxed);
                k.store(key ^ new, Relaxed);
                return;
            }
            let old_age = age_of(data);
            let stale = (age.wrapping_sub(old_age) & 31) as i32;
            let value = unpack(data).depth - 8 * stale;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let (k, d) = &bucket.slots[victim];
        let new = pack(mv, score, eval, depth, bound, pv, age);
        d.store(new, Relaxed);
        k.store(key ^ new, Relaxed);
    }

    /// Permille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for (_, d) in &b.slots {
                let data = d.load(Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefetch_is_harmless() {
        let tt = TranspositionTable::new(1);
        tt.store(7, Move::NULL, 5, 6, 3, Bound::Exact, false);
        for key in [0, 7, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
            tt.prefetch(key);
        }
        assert_eq!(tt.probe(7).map(|e| (e.score, e.eval, e.depth)), Some((5, 6, 3)));
        assert!(tt.probe(8).is_none());
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.size_bytes(), 1 << 20);
        let m: Move = "h2e2".parse().unwrap();
        tt.store(0xdead_beef_1234_5678, m, -321, 45, 7, Bound::Lower, true);
        let e = tt.probe(0xdead_beef_1234_5678).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound, e.pv), (m, -321, 45, 7, Bound::Lower, true));
        assert!(tt.probe(0x1234).is_none());
        // Storing without a move keeps the old one.
        tt.store(0xdead_beef_1234_5678, Move::NULL, 10, 0, 9, Bound::Exact, false);
        assert_eq!(tt.probe(0xdead_beef_1234_5678).unwrap().mv, m);
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678).is_none());
        // Negative depths (quiescence) round-trip.
        tt.store(42, m, 0, 0, -1, Bound::Upper, false);
        assert_eq!(tt.probe(42).unwrap().depth, -1);
    }

    #[test]
    fn evaluation_only_entry_is_found_then_replaced() {
        // The search stores a node's static evaluation before searching it: no move, no bound, depth -1.
        let tt = TranspositionTable::new(1);
        tt.store(77, Move::NULL, 0, -123, -1, Bound::None, false);
        let e = tt.probe(77).unwrap();
        assert_eq!((e.mv, e.eval, e.depth, e.bound), (Move::NULL, -123, -1, Bound::None));
        assert!(!e.bound.decides(e.score, -10, 10));
        // The node's search result then takes the slot.
        let m: Move = "h2e2".parse().unwrap();
        tt.store(77, m, 55, -123, 4, Bound::Lower, false);
        let e = tt.probe(77).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound), (m, 55, -123, 4, Bound::Lower));
    }

    #[test]
    fn many_keys_fill_without_losing_recent_ones() {
        let tt = TranspositionTable::new(1);
        tt.new_search();
        for k in 1..200_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                Move::NULL,
                k as i32 % 1000,
                0,
                (k % 20) as i32,
                Bound::Exact,
                false,
            );
        }
        let last = 199_999u64.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        assert!(tt.probe(last).is_some());
        assert!(tt.hashfull() > 500);
    }
}
