//! Boxes *near* an empty start cell: the second half of the backward
//! feature-space search's packing feature.
//!
//! Backward, the packing feature counts the boxes back on cells where
//! boxes start. Where those cells lie far from the goals, no box gets
//! back for a long time and the feature is flat: on Sasquatch I 34, 36
//! and 48 the backward search never brought a single box back in 120 s.
//! After the boxes back, the feature now counts the boxes off the start
//! cells that a lone box could be pulled from onto an empty start cell in
//! at most a few pulls (the distance table of the backward search, walls
//! only). Moves that bring a box near such a cell are then advised like
//! those that bring one back, and a box brought back leaves the count as
//! it joins the first half.
//!
//! Like every feature it orders the search and never prunes it.

use super::bits;
use super::board::{Board, DistTable};

/// The cells near each start cell, and scratch for [`Near::count`].
pub(crate) struct Near {
    /// `within[t]`: the cells from which a lone box can be pulled onto the
    /// start cell `b.start_boxes[t]` in at most the distance given to
    /// [`Near::new`] (a bit set).
    within: Vec<Box<[u64]>>,
    /// Scratch: the cells near an empty start cell.
    union: Vec<u64>,
}

impl Near {
    /// The cells within `most` pulls of each start cell of `b`, from
    /// `dist`, the pushes from each start cell (`DistTable::from_sources`
    /// on `b.start_boxes`).
    pub fn new(b: &Board, dist: &DistTable, most: u16) -> Near {
        let nt = dist.nt;
        let within = (0..nt)
            .map(|t| {
                let mut cells = vec![0u64; bits::words(b.n)].into_boxed_slice();
                for c in 0..b.n {
                    if dist.min[c * nt + t] <= most {
                        bits::set(&mut cells, c);
                    }
                }
                cells
            })
            .collect();
        Near {
            within,
            union: vec![0; bits::words(b.n)],
        }
    }

    /// How many of `boxes` (`occ[c] != 0` marks a box on `c`) stand off the
    /// start cells (`is_start`) within the distance of an empty start cell.
    pub fn count(&mut self, b: &Board, occ: &[u16], is_start: &[bool], boxes: &[u16]) -> u32 {
        self.union.fill(0);
        for (t, &s) in b.start_boxes.iter().enumerate() {
            if occ[s as usize] == 0 {
                for (u, w) in self.union.iter_mut().zip(self.within[t].iter()) {
                    *u |= w;
                }
            }
        }
        let near = |&&c: &&u16| !is_start[c as usize] && bits::has(&self.union, c as usize);
        boxes.iter().filter(near).count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::NONE;
    use crate::sokoban::exhaustive::{boxes_off_start, microban_boards, start_cells};
    use crate::sokoban::space::Space;
    use std::collections::VecDeque;

    /// The fewest pulls that take a lone box (no other box on the board)
    /// from `from` onto a cell where `done` holds, the player starting on
    /// any cell: a breadth-first search of (box, player) positions,
    /// walking free and pulling at a cost of one.
    fn lone_pulls(b: &Board, from: u16, done: impl Fn(u16) -> bool) -> Option<u32> {
        let n = b.n;
        let mut best = vec![u32::MAX; n * n];
        let mut queue = VecDeque::new();
        for p in 0..n as u16 {
            if p != from {
                best[from as usize * n + p as usize] = 0;
                queue.push_back((from, p));
            }
        }
        while let Some((bx, pl)) = queue.pop_front() {
            let cost = best[bx as usize * n + pl as usize];
            if done(bx) {
                return Some(cost);
            }
            for d in 0..4 {
                // Walk: cost 0, to the front of the queue.
                let w = b.nbr[pl as usize][d];
                if w != NONE && w != bx && best[bx as usize * n + w as usize] > cost {
                    best[bx as usize * n + w as usize] = cost;
                    queue.push_front((bx, w));
                }
                // Pull: the player next to the box in direction d steps
                // back in that direction, the box following onto its cell.
                if b.nbr[bx as usize][d] == pl {
                    let back = b.nbr[pl as usize][d];
                    if back != NONE && best[pl as usize * n + back as usize] > cost + 1 {
                        best[pl as usize * n + back as usize] = cost + 1;
                        queue.push_back((pl, back));
                    }
                }
            }
        }
        None
    }

    #[test]
    fn a_box_is_near_when_a_lone_box_is_pulled_onto_an_empty_start_cell_in_so_many_pulls() {
        // Microban boards, backward positions made by moving some start
        // boxes onto other cells: the count is the boxes off the start
        // cells that a breadth-first search of a lone box's pulls takes
        // onto an empty start cell in at most `most` pulls.
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(35);
        let (mut near, mut far) = (0, 0);
        for b in microban_boards(6, 80, 40) {
            let dist = DistTable::from_sources(&b, &b.start_boxes);
            let is_start = start_cells(&b);
            for most in [1, 3] {
                let mut counter = Near::new(&b, &dist, most);
                for _ in 0..6 {
                    let boxes = boxes_off_start(&b, &is_start, &mut rng, b.start_boxes.len());
                    let mut sp = Space::new(b.n);
                    sp.set(&boxes);
                    let empty = |c: u16| is_start[c as usize] && sp.occ[c as usize] == 0;
                    let mut want = 0;
                    for &c in boxes.iter().filter(|&&c| !is_start[c as usize]) {
                        match lone_pulls(&b, c, empty) {
                            Some(k) if k <= u32::from(most) => {
                                want += 1;
                                near += 1;
                            }
                            _ => far += 1,
                        }
                    }
                    assert_eq!(counter.count(&b, &sp.occ, &is_start, &boxes), want);
                }
            }
        }
        // Both kinds occur.
        assert!(near > 30, "{near} boxes near");
        assert!(far > 30, "{far} boxes far");
    }
}
