//! Geometry of the board, computed at compile time: the steps of the leapers (king, advisor, elephant, horse,
//! pawn) with their blocking squares, the squares each kind may stand on, and the sliding tables for rooks and
//! cannons along one rank or one file.
//!
//! Squares are plain `u8` indices here (`rank * 9 + file`); `NO_SQ` (90) is the sentinel for "no square", and
//! `FILE_OF`/`RANK_OF` map it to 15 so that it never matches a real line.

pub const NO_SQ: u8 = 90;

const fn file_of(sq: usize) -> u8 {
    if sq < 90 {
        (sq % 9) as u8
    } else {
        15
    }
}

const fn rank_of(sq: usize) -> u8 {
    if sq < 90 {
        (sq / 9) as u8
    } else {
        15
    }
}

pub static FILE_OF: [u8; 91] = {
    let mut t = [0u8; 91];
    let mut i = 0;
    while i < 91 {
        t[i] = file_of(i);
        i += 1;
    }
    t
};

pub static RANK_OF: [u8; 91] = {
    let mut t = [0u8; 91];
    let mut i = 0;
    while i < 91 {
        t[i] = rank_of(i);
        i += 1;
    }
    t
};

const fn sq_at(file: i32, rank: i32) -> i32 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        rank * 9 + file
    } else {
        -1
    }
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

/// Up to `N` destinations (and, for the blockable leapers, the square that must be empty).
#[derive(Clone, Copy)]
pub struct Steps<const N: usize> {
    pub len: u8,
    pub to: [u8; N],
    pub block: [u8; N],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps { len: 0, to: [NO_SQ; N], block: [NO_SQ; N] };

    const fn with(mut self, to: i32, block: i32) -> Steps<N> {
        self.to[self.len as usize] = to as u8;
        self.block[self.len as usize] = if block < 0 { NO_SQ } else { block as u8 };
        self.len += 1;
        self
    }

    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.to[..self.len as usize].iter().copied().zip(self.block[..self.len as usize].iter().copied())
    }
}

const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Horse jumps as (file step, rank step, leg file step, leg rank step).
const HORSE: [(i32, i32, i32, i32); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

/// Steps of one point in the given directions that stay inside the same palace.
const fn palace_steps(dirs: [(i32, i32); 4]) -> [Steps<4>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let (nf, nr) = (f + dirs[d].0, r + dirs[d].1);
                // Never from one palace into the other.
                if in_palace(nf, nr) && (nr <= 2) == (r <= 2) {
                    t[sq] = t[sq].with(sq_at(nf, nr), -1);
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
}

/// King steps: one point orthogonally, inside the palace.
pub static KING_STEPS: [Steps<4>; 90] = palace_steps(ORTHO);

/// Advisor steps: one point diagonally, inside the palace.
pub static ADVISOR_STEPS: [Steps<4>; 90] = palace_steps(DIAG);

/// Elephant steps: two points diagonally, never across the river; `block` is the elephant's eye.
pub static ELEPHANT_STEPS: [Steps<4>; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (nf, nr) = (f + 2 * DIAG[d].0, r + 2 * DIAG[d].1);
            let to = sq_at(nf, nr);
            if to >= 0 && (nr <= 4) == (r <= 4) {
                t[sq] = t[sq].with(to, sq_at(f + DIAG[d].0, r + DIAG[d].1));
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Horse jumps; `block` is the horse's leg.
pub static HORSE_STEPS: [Steps<8>; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr, lf, lr) = HORSE[d];
            let to = sq_at(f + df, r + dr);
            if to >= 0 {
                t[sq] = t[sq].with(to, sq_at(f + lf, r + lr));
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// For each square, the horses that could attack it: `to` is the horse's square, `block` its leg.
pub static HORSE_ATTACKERS: [Steps<8>; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr, lf, lr) = HORSE[d];
            // A horse at h = sq - (df, dr) jumps onto sq over its leg h + (lf, lr).
            let (hf, hr) = (f - df, r - dr);
            let h = sq_at(hf, hr);
            if h >= 0 {
                t[sq] = t[sq].with(h, sq_at(hf + lf, hr + lr));
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

const fn pawn_steps(color: usize) -> [Steps<3>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let fwd = if color == 0 { 1 } else { -1 };
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let ahead = sq_at(f, r + fwd);
        if ahead >= 0 {
            t[sq] = t[sq].with(ahead, -1);
        }
        let crossed = if color == 0 { r >= 5 } else { r <= 4 };
        if crossed {
            if f > 0 {
                t[sq] = t[sq].with(sq_at(f - 1, r), -1);
            }
            if f < 8 {
                t[sq] = t[sq].with(sq_at(f + 1, r), -1);
            }
        }
        sq += 1;
    }
    t
}

/// Pawn steps by colour: forward, and sideways once across the river.
pub static PAWN_STEPS: [[Steps<3>; 90]; 2] = [pawn_steps(0), pawn_steps(1)];

const fn pawn_attackers(color: usize) -> [Steps<3>; 90] {
    let steps = pawn_steps(color);
    let mut t = [Steps::EMPTY; 90];
    let mut from = 0;
    while from < 90 {
        let mut i = 0;
        while i < steps[from].len as usize {
            let to = steps[from].to[i] as usize;
            t[to] = t[to].with(from as i32, -1);
            i += 1;
        }
        from += 1;
    }
    t
}

/// For each colour and square, the squares from which a pawn of that colour attacks it.
pub static PAWN_ATTACKERS: [[Steps<3>; 90]; 2] = [pawn_attackers(0), pawn_attackers(1)];

/// Bit `sq` of a `u128` set for every square where a piece of the given kind and colour can ever stand,
/// indexed `[color][piece type]`. Used to reject impossible positions.
pub static REACHABLE: [[u128; 7]; 2] = {
    let mut t = [[0u128; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq: i32 = 0;
        while sq < 90 {
            let (f, r) = (sq % 9, sq / 9);
            // Ranks seen from this colour's own side.
            let rr = if c == 0 { r } else { 9 - r };
            let bit = 1u128 << sq;
            if in_palace(f, rr) && rr <= 2 {
                t[c][0] |= bit;
                // Advisors: the four corners and the centre of the palace.
                if (f + rr) % 2 == 1 {
                    t[c][1] |= bit;
                }
            }
            // Elephants: seven points on their own half.
            if rr <= 4 && (rr % 2 == 0) && ((rr == 0 || rr == 4) && (f == 2 || f == 6) || rr == 2 && f % 4 == 0) {
                t[c][2] |= bit;
            }
            t[c][3] |= bit;
            t[c][4] |= bit;
            t[c][5] |= bit;
            // Pawns: never behind their start rank; before the river only on their five starting files.
            if rr >= 5 || (rr >= 3 && f % 2 == 0) {
                t[c][6] |= bit;
            }
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Sliding along one line of `N` points. An entry packs three masks of positions on the line:
/// bits 0–9 the empty points a rook or cannon can move to, bits 10–19 the first occupied point on each side
/// (a rook's captures), bits 20–29 the second occupied point on each side (a cannon's captures).
pub const QUIET_MASK: u32 = 0x3ff;

const fn line_entry(n: usize, pos: usize, occ: usize) -> u32 {
    let mut quiet = 0u32;
    let mut rook = 0u32;
    let mut cannon = 0u32;
    // Towards lower indices, then towards higher ones.
    let mut dir = 0;
    while dir < 2 {
        let mut seen = 0;
        let mut i = pos as i32;
        loop {
            i += if dir == 0 { -1 } else { 1 };
            if i < 0 || i >= n as i32 {
                break;
            }
            let bit = 1u32 << i;
            if occ & (1 << i) == 0 {
                if seen == 0 {
                    quiet |= bit;
                }
            } else {
                seen += 1;
                if seen == 1 {
                    rook |= bit;
                } else {
                    cannon |= bit;
                    break;
                }
            }
        }
        dir += 1;
    }
    quiet | rook << 10 | cannon << 20
}

/// Along a rank (9 points): `[file][occupancy of the rank]`.
pub static RANK_LINE: [[u32; 512]; 9] = {
    let mut t = [[0u32; 512]; 9];
    let mut p = 0;
    while p < 9 {
        let mut o = 0;
        while o < 512 {
            t[p][o] = line_entry(9, p, o);
            o += 1;
        }
        p += 1;
    }
    t
};

/// Along a file (10 points): `[rank][occupancy of the file]`.
pub static FILE_LINE: [[u32; 1024]; 10] = {
    let mut t = [[0u32; 1024]; 10];
    let mut p = 0;
    while p < 10 {
        let mut o = 0;
        while o < 1024 {
            t[p][o] = line_entry(10, p, o);
            o += 1;
        }
        p += 1;
    }
    t
};

/// `LINE_BETWEEN[a][b]`: bits strictly between positions `a` and `b` of one line (a rank or a file).
pub static LINE_BETWEEN: [[u16; 10]; 10] = {
    let mut t = [[0u16; 10]; 10];
    let mut a = 0;
    while a < 10 {
        let mut b = 0;
        while b < 10 {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            let mut i = lo + 1;
            while i < hi {
                t[a][b] |= 1 << i;
                i += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// `HORSE_LEG[h][t]`: the leg of a horse on `h` jumping to `t`, or `NO_SQ` when `t` is no jump from `h`.
/// Row 90 (`NO_SQ`) is all `NO_SQ`, so a missing horse never attacks.
pub static HORSE_LEG: [[u8; 90]; 91] = {
    let mut t = [[NO_SQ; 90]; 91];
    let mut h = 0;
    while h < 90 {
        let (f, r) = ((h % 9) as i32, (h / 9) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr, lf, lr) = HORSE[d];
            let to = sq_at(f + df, r + dr);
            if to >= 0 {
                t[h][to as usize] = sq_at(f + lf, r + lr) as u8;
            }
            d += 1;
        }
        h += 1;
    }
    t
};

/// The points of `file` named by a mask over ranks.
#[inline]
pub fn file_points(mut ranks: u32, file: usize) -> u128 {
    let mut bits = 0u128;
    while ranks != 0 {
        bits |= 1u128 << (ranks.trailing_zeros() as usize * 9 + file);
        ranks &= ranks - 1;
    }
    bits
}

/// Squares strictly between two squares on one rank or file (empty if they share neither).
pub fn between(a: u8, b: u8) -> u128 {
    let (fa, ra, fb, rb) = (FILE_OF[a as usize], RANK_OF[a as usize], FILE_OF[b as usize], RANK_OF[b as usize]);
    let mut set = 0u128;
    if fa == fb {
        for r in ra.min(rb) + 1..ra.max(rb) {
            set |= 1u128 << (r as usize * 9 + fa as usize);
        }
    } else if ra == rb {
        for f in fa.min(fb) + 1..fa.max(fb) {
            set |= 1u128 << (ra as usize * 9 + f as usize);
        }
    }
    set
}

/// `CHECK_ZONE[k]`: the squares a move must leave or reach to change whether a king on `k` is attacked —
/// its file and rank (rooks, cannons and their screens, the facing king), the four diagonal neighbours
/// (the legs of attacking horses), the horse jumps onto it and the orthogonal neighbours (pawns). A move
/// touching none of them cannot give check, which spares the full test for most moves.
pub static CHECK_ZONE: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut k = 0;
    while k < 90 {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut s = 0usize;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let (df, dr) = ((f - kf).abs(), (r - kr).abs());
            if f == kf || r == kr || (df <= 1 && dr <= 1) || (df == 1 && dr == 2) || (df == 2 && dr == 1) {
                t[k] |= 1u128 << s;
            }
            s += 1;
        }
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachable_counts() {
        for side in &REACHABLE {
            assert_eq!(side[0].count_ones(), 9);
            assert_eq!(side[1].count_ones(), 5);
            assert_eq!(side[2].count_ones(), 7);
            assert_eq!(side[6].count_ones(), 55);
        }
    }

    #[test]
    fn line_entries() {
        // Rook on file index 4 of a rank with pieces at 1, 2 and 7: moves to 3, 5, 6; captures 2 and 7;
        // a cannon captures 1 (nothing beyond 7).
        let e = line_entry(9, 4, 1 << 1 | 1 << 2 | 1 << 7 | 1 << 4);
        assert_eq!(e & QUIET_MASK, 1 << 3 | 1 << 5 | 1 << 6);
        assert_eq!(e >> 10 & QUIET_MASK, 1 << 2 | 1 << 7);
        assert_eq!(e >> 20 & QUIET_MASK, 1 << 1);
    }

    #[test]
    fn leaper_counts() {
        let moves = |t: &[Steps<8>; 90]| t.iter().map(|s| s.len as u32).sum::<u32>();
        // Every horse jump is someone's attack.
        assert_eq!(moves(&HORSE_STEPS), moves(&HORSE_ATTACKERS));
        assert_eq!(KING_STEPS[4].len, 3); // e0: d0, f0, e1
        assert_eq!(KING_STEPS[13].len, 4); // e1
        assert_eq!(ADVISOR_STEPS[13].len, 4);
        assert_eq!(ELEPHANT_STEPS[2].len, 2); // c0: a2, e2
        assert_eq!(PAWN_STEPS[0][4 * 9 + 4].len, 1);
        assert_eq!(PAWN_STEPS[0][5 * 9 + 4].len, 3);
        assert_eq!(PAWN_STEPS[1][5 * 9 + 4].len, 1);
        assert_eq!(PAWN_STEPS[0][9 * 9].len, 1);
    }
}
