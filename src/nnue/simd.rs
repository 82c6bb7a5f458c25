//! The network's two inner loops, in a portable version and an AVX2 one chosen at run time. Both compute
//! exactly the same integers (wrapping i16 and i32 arithmetic, as the vector instructions do), which a test
//! checks on random data. This is the only module of the network that uses `unsafe`.

/// The implementation in use, decided once per evaluation state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Backend {
    /// The fastest implementation this CPU runs.
    pub fn detect() -> Backend {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Backend::Avx2;
        }
        Backend::Scalar
    }

    /// Every implementation this CPU runs (for the tests that compare them).
    pub fn available() -> Vec<Backend> {
        let mut v = vec![Backend::Scalar];
        if Backend::detect() != Backend::Scalar {
            v.push(Backend::detect());
        }
        v
    }

    /// `out = input + Σ add − Σ sub`, element by element, wrapping. All slices have `out`'s length, a
    /// multiple of 16.
    #[inline]
    pub fn update(self, out: &mut [i16], input: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        assert!(out.len().is_multiple_of(16) && input.len() == out.len());
        assert!(add.iter().chain(sub).all(|r| r.len() == out.len()));
        match self {
            Backend::Scalar => scalar::update(out, input, add, sub),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Backend::Avx2` is only ever made by `detect`, after the CPU reported AVX2; the lengths
            // were checked just above, which is what `avx2::update` and `avx2::fixed` need to stay in bounds.
            // A move (one row added, one taken away) and a capture (one added, two away) are nearly every
            // update: with the counts known at compile time the row loops unroll and the row pointers stay in
            // registers.
            #[allow(unsafe_code)]
            Backend::Avx2 => unsafe {
                match (add, sub) {
                    ([a], [s]) => avx2::fixed(out, input, [a], [s]),
                    ([a], [s, t]) => avx2::fixed(out, input, [a], [s, t]),
                    _ => avx2::update(out, input, add, sub),
                }
            },
        }
    }

    /// `Σ clamp(acc, 0, qa)² · w`, computed as `clamp · (clamp · w)` with the inner product in i16 (exact when
    /// |w| ≤ 127 and qa ≤ 255) and wrapping i32 sums. `acc` and `w` have the same length, a multiple of 16.
    #[inline]
    pub fn screlu_dot(self, acc: &[i16], w: &[i16], qa: i16) -> i32 {
        assert!(acc.len().is_multiple_of(16) && w.len() == acc.len());
        match self {
            Backend::Scalar => scalar::screlu_dot(acc, w, qa),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`: AVX2 was detected, and the lengths are checked above.
            #[allow(unsafe_code)]
            Backend::Avx2 => unsafe { avx2::screlu_dot(acc, w, qa) },
        }
    }
}

mod scalar {
    pub fn update(out: &mut [i16], input: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        for (i, o) in out.iter_mut().enumerate() {
            let mut v = input[i];
            for r in add {
                v = v.wrapping_add(r[i]);
            }
            for r in sub {
                v = v.wrapping_sub(r[i]);
            }
            *o = v;
        }
    }

    pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let mut sum = 0i32;
        for (&a, &w) in acc.iter().zip(w) {
            let v = a.clamp(0, qa);
            sum = sum.wrapping_add(v as i32 * v.wrapping_mul(w) as i32);
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use std::arch::x86_64::*;

    /// SAFETY (for callers): the CPU must support AVX2, and every slice must have `out`'s length, a multiple
    /// of 16. Then each `i` below is a multiple of 16 with `i + 16 <= len`, so every 32-byte load and store
    /// lies inside its slice; the unaligned load and store instructions need no alignment.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(out: &mut [i16], input: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let mut i = 0;
        while i < out.len() {
            let mut v = _mm256_loadu_si256(input.as_ptr().add(i) as *const __m256i);
            for r in add {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i) as *const __m256i));
            }
            for r in sub {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i) as *const __m256i));
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(i) as *mut __m256i, v);
            i += 16;
        }
    }

    /// `update` with the numbers of rows fixed at compile time. SAFETY (for callers): as for `update`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn fixed<const A: usize, const S: usize>(
        out: &mut [i16],
        input: &[i16],
        add: [&[i16]; A],
        sub: [&[i16]; S],
    ) {
        // The usual widths with the trip count known too, so the loop unrolls whole.
        match out.len() {
            256 => fixed_len::<A, S, 256>(out, input, add, sub),
            512 => fixed_len::<A, S, 512>(out, input, add, sub),
            _ => fixed_len::<A, S, 0>(out, input, add, sub),
        }
    }

    /// `fixed` for `N` units (0: `out.len()`). SAFETY (for callers): as for `update`, and `N` is 0 or
    /// `out.len()`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn fixed_len<const A: usize, const S: usize, const N: usize>(
        out: &mut [i16],
        input: &[i16],
        add: [&[i16]; A],
        sub: [&[i16]; S],
    ) {
        let len = if N > 0 { N } else { out.len() };
        let mut i = 0;
        while i < len {
            let mut v = _mm256_loadu_si256(input.as_ptr().add(i) as *const __m256i);
            for r in add {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i) as *const __m256i));
            }
            for r in sub {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(r.as_ptr().add(i) as *const __m256i));
            }
            _mm256_storeu_si256(out.as_mut_ptr().add(i) as *mut __m256i, v);
            i += 16;
        }
    }

    /// SAFETY (for callers): AVX2, and `acc` and `w` of one length, a multiple of 16 (loads as in `update`).
    /// `_mm256_madd_epi16` adds two products of i16 values, which cannot overflow i32 unless both are
    /// −32768 · −32768; `v` is at most 255 here, so that never happens.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < acc.len() {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            let wv = _mm256_mullo_epi16(v, _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, wv));
            i += 16;
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Every implementation gives the scalar one's results bit for bit, extremes and wrapping included.
    #[test]
    fn every_backend_matches_the_scalar_one() {
        let mut rng = SmallRng::seed_from_u64(5);
        let backends = Backend::available();
        for n in [16, 32, 256, 512] {
            for _ in 0..50 {
                let mut row = |lo: i16, hi: i16| -> Vec<i16> { (0..n).map(|_| rng.gen_range(lo..=hi)).collect() };
                let input = row(i16::MIN, i16::MAX);
                let rows: Vec<Vec<i16>> = (0..4).map(|_| row(-3000, 3000)).collect();
                // Two and two (the general loop), and the shapes of a move and a capture (the fixed ones).
                for (a, s) in [(2, 2), (1, 1), (1, 2)] {
                    let (add, sub): (Vec<&[i16]>, Vec<&[i16]>) =
                        (rows[..a].iter().map(|r| &r[..]).collect(), rows[2..2 + s].iter().map(|r| &r[..]).collect());
                    let mut expected = vec![0; n];
                    Backend::Scalar.update(&mut expected, &input, &add, &sub);
                    for &b in &backends {
                        let mut out = vec![0; n];
                        b.update(&mut out, &input, &add, &sub);
                        assert_eq!(out, expected, "{b:?} {a}+{s}");
                    }
                }
                let acc = row(-600, 600);
                let w = row(-127, 127);
                let dot = Backend::Scalar.screlu_dot(&acc, &w, 255);
                for &b in &backends {
                    assert_eq!(b.screlu_dot(&acc, &w, 255), dot, "{b:?}");
                }
            }
        }
        // The scalar path really is what it says: a known sum.
        assert_eq!(Backend::Scalar.screlu_dot(&[300; 16], &[2; 16], 255), 16 * 255 * 255 * 2);
        assert_eq!(Backend::Scalar.screlu_dot(&[-5; 16], &[100; 16], 255), 0);
    }
}
