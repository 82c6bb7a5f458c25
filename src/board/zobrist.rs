//! Zobrist keys, generated at compile time from a fixed seed so that keys (and so hash-table contents, bench
//! signatures and book files) are identical on every build.

pub struct Keys {
    pub piece: [[u64; 90]; 14],
    pub side: u64,
}

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

pub static KEYS: Keys = {
    let mut state = 0x4368_7568_616e_2020u64; // "Chuhan  "
    let mut piece = [[0u64; 90]; 14];
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 90 {
            let (s, v) = splitmix(state);
            state = s;
            piece[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    Keys { piece, side }
};
