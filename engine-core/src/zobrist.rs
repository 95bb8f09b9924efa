//! Zobrist keys, computed at compile time from a fixed seed so hashes are stable across runs.

use crate::geometry::MAX_CELLS;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_table() -> [[u64; MAX_CELLS]; 2] {
    let mut table = [[0u64; MAX_CELLS]; 2];
    let mut state = 0x7E46_E4C0_u64;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < MAX_CELLS {
            let (next, value) = splitmix64(state);
            state = next;
            table[c][p] = value;
            p += 1;
        }
        c += 1;
    }
    table
}

/// `STONE[colour][point]`: xor-ed into the board hash when a stone appears or disappears.
pub(crate) static STONE: [[u64; MAX_CELLS]; 2] = make_table();

/// Xor-ed into a position key when White is to move (situational superko).
pub const WHITE_TO_MOVE: u64 = 0xA3B1_95C4_D27F_0E61;

/// The key of a stone of colour `c` on point `p` (the board hash is the xor of its stones' keys).
pub fn stone_key(c: crate::Color, p: crate::Point) -> u64 {
    STONE[c.index()][p.index()]
}
