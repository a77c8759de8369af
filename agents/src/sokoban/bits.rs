//! Sets of floor cells as bit words (`u64`, cell `c` in word `c / 64`),
//! shared by the tables that keep one set per cell or per state (box
//! moves' regions, hotspots, learned patterns, cells out of plan).

/// The number of words that hold a set of `n` cells.
pub(crate) fn words(n: usize) -> usize {
    n.div_ceil(64)
}

/// Whether cell `c` is in the set `bits`.
#[inline]
pub(crate) fn has(bits: &[u64], c: usize) -> bool {
    bits[c / 64] >> (c % 64) & 1 == 1
}

/// Put cell `c` in the set `bits`.
#[inline]
pub(crate) fn set(bits: &mut [u64], c: usize) {
    bits[c / 64] |= 1 << (c % 64);
}

/// Take cell `c` out of the set `bits`.
#[inline]
pub(crate) fn unset(bits: &mut [u64], c: usize) {
    bits[c / 64] &= !(1 << (c % 64));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_on_either_side_of_a_word_boundary_are_kept_apart() {
        let mut b = vec![0u64; words(130)];
        assert_eq!(b.len(), 3);
        for c in [0, 63, 64, 129] {
            set(&mut b, c);
        }
        let got: Vec<usize> = (0..130).filter(|&c| has(&b, c)).collect();
        assert_eq!(got, vec![0, 63, 64, 129]);
    }
}
