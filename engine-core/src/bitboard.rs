//! A set of board points as bits in u64 lanes (bit = point index minus one stride, so each row
//! carries one zero guard bit and shifts by 1 or by the stride give the four neighbours).
//! Eleven lanes hold 25x25; 19x19 uses six, 9x9 two.

/// Lanes for the largest board.
pub const LANES: usize = 11;

/// A set of points of one board, in the bit layout of [`Geometry::bit`](crate::Geometry::bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Bitboard(pub [u64; LANES]);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard([0; LANES]);

    #[inline]
    pub fn set(&mut self, bit: usize) {
        self.0[bit >> 6] |= 1 << (bit & 63);
    }

    #[inline]
    pub fn clear(&mut self, bit: usize) {
        self.0[bit >> 6] &= !(1 << (bit & 63));
    }

    #[inline]
    pub fn contains(&self, bit: usize) -> bool {
        self.0[bit >> 6] >> (bit & 63) & 1 != 0
    }

    /// Number of points in the set.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|l| l.count_ones()).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// Lowest bit in the set.
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &l)| l != 0)
            .map(|(i, l)| i * 64 + l.trailing_zeros() as usize)
    }

    /// Iterates over the bits in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &lane)| {
            let mut rest = lane;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + b
                })
            })
        })
    }

    #[inline]
    pub fn and(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    #[inline]
    pub fn or(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    #[inline]
    pub fn and_not(&self, other: &Bitboard) -> Bitboard {
        Bitboard(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// Every bit moved up by `k` (< 64) positions, carrying across lanes.
    fn shl(&self, k: usize) -> Bitboard {
        Bitboard(std::array::from_fn(|i| {
            let carry = if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 };
            self.0[i] << k | carry
        }))
    }

    /// Every bit moved down by `k` (< 64) positions, carrying across lanes.
    fn shr(&self, k: usize) -> Bitboard {
        Bitboard(std::array::from_fn(|i| {
            let carry = if i + 1 < LANES {
                self.0[i + 1] << (64 - k)
            } else {
                0
            };
            self.0[i] >> k | carry
        }))
    }

    /// The set plus its orthogonal neighbours, limited to `mask` (the on-board points).
    pub fn dilate(&self, stride: usize, mask: &Bitboard) -> Bitboard {
        let grown = self
            .or(&self.shl(1))
            .or(&self.shr(1))
            .or(&self.shl(stride))
            .or(&self.shr(stride));
        grown.and(mask)
    }

    /// The connected part of `within` reachable from `seed` through orthogonal steps.
    pub fn flood(seed: &Bitboard, within: &Bitboard, stride: usize) -> Bitboard {
        let mut region = seed.and(within);
        loop {
            let next = region.dilate(stride, within);
            if next == region {
                return region;
            }
            region = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_across_lanes() {
        let mut b = Bitboard::EMPTY;
        b.set(63);
        b.set(640);
        let up = b.shl(20);
        assert!(up.contains(83) && up.contains(660));
        assert_eq!(up.count(), 2);
        let down = up.shr(20);
        assert_eq!(down, b);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![63, 640]);
        assert_eq!(b.first(), Some(63));
    }
}
