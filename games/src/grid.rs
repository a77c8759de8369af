//! Small helpers shared by grid games: fixed-size bit sets over cells, the
//! 4-neighbourhood of a cell, and the parse error type for level files.

use std::fmt;

/// The four neighbours of `cell` on a row-major `width × height` grid, in
/// the order up, down, left, right; `None` where that side is off the grid.
pub fn neighbours(cell: usize, width: usize, height: usize) -> [Option<usize>; 4] {
    let (r, c) = (cell / width, cell % width);
    [
        (r > 0).then(|| cell - width),
        (r + 1 < height).then(|| cell + width),
        (c > 0).then(|| cell - 1),
        (c + 1 < width).then(|| cell + 1),
    ]
}

/// A fixed-size set of cell indices `0..64*W`, stored inline (no heap), so that
/// states built from it clone with a `memcpy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    /// Number of cells a set can hold.
    pub const CAPACITY: usize = 64 * W;

    /// The empty set.
    pub const fn new() -> Self {
        Bits([0; W])
    }
    /// Whether cell `i` is in the set.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }
    /// Add cell `i`.
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
    /// Remove cell `i`.
    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }
    /// Number of cells in the set.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// The cells in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    None
                } else {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(wi * 64 + b)
                }
            })
        })
    }
}

impl<const W: usize> fmt::Debug for Bits<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// An error in a level or map text, located by 1-based line and column
/// (column 0 when the whole line or file is at fault). The harness adds the
/// file name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct ParseError {
    /// 1-based line number (0 when the error concerns the whole text).
    pub line: usize,
    /// 1-based column number (0 when the error concerns the whole line).
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl ParseError {
    fn render(&self) -> String {
        match (self.line, self.column) {
            (0, _) => self.message.clone(),
            (l, 0) => format!("line {l}: {}", self.message),
            (l, c) => format!("line {l}, column {c}: {}", self.message),
        }
    }

    /// A new error at `line`, `column`.
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        ParseError {
            line,
            column,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_set_get_clear_iter() {
        let mut b = Bits::<2>::new();
        assert!(b.is_empty());
        b.set(0);
        b.set(63);
        b.set(64);
        b.set(127);
        assert!(b.get(63) && b.get(64) && !b.get(1));
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 63, 64, 127]);
        b.clear(63);
        assert_eq!(b.count(), 3);
    }

    #[test]
    fn parse_errors_show_only_the_location_they_have() {
        assert_eq!(
            ParseError::new(2, 3, "bad").to_string(),
            "line 2, column 3: bad"
        );
        assert_eq!(ParseError::new(2, 0, "bad").to_string(), "line 2: bad");
        assert_eq!(ParseError::new(0, 0, "bad").to_string(), "bad");
    }

    #[test]
    fn neighbours_stay_on_the_grid_in_up_down_left_right_order() {
        // 3 wide, 2 high: 0 1 2 / 3 4 5.
        assert_eq!(neighbours(0, 3, 2), [None, Some(3), None, Some(1)]);
        assert_eq!(neighbours(4, 3, 2), [Some(1), None, Some(3), Some(5)]);
        assert_eq!(neighbours(2, 3, 2), [None, Some(5), Some(1), None]);
        assert_eq!(neighbours(0, 1, 1), [None; 4]);
    }
}
