//! A feature-space search order after FESS (Shoham & Schaeffer, "The FESS
//! Algorithm: A Feature Based Approach to Single-Agent Search", IEEE CoG
//! 2020), reduced to two features:
//! - *packing*: how many boxes stand on goals;
//! - *connectivity*: into how many regions the boxes cut the free floor.
//!
//! Every state is projected to its cell `(packing, connectivity)` of the
//! feature space. The search visits the non-empty cells in turn and expands,
//! from each, the state with the least path *weight*, then the least lower
//! bound. A push that an *advisor* recommends costs nothing, any other push
//! costs 1: the advisors here recommend pushes that put a box on a goal or
//! join two regions. Visiting the cells in turn gives states that made
//! progress on some feature as much effort as the crowd at the start,
//! which a best-first order on the lower bound alone never does.
//!
//! The order is not admissible; exhausting it still proves unsolvability
//! (every generated state is expanded in the end).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The open list of a feature-space search: one heap per cell.
#[derive(Default)]
pub(crate) struct FessQueue {
    cells: Vec<BinaryHeap<Reverse<(u64, u32)>>>,
    slot_of: HashMap<u32, usize>,
    cursor: usize,
    len: usize,
    /// The cell of every node, by node id (dead nodes included).
    pub cell: Vec<u32>,
}

/// The cell of a state with `packed` boxes on goals whose boxes cut the free
/// floor into `regions` regions.
pub(crate) fn cell_of(packed: usize, regions: u32) -> u32 {
    ((packed as u32) << 16) | regions.min(0xffff)
}

/// The features of a cell: boxes on goals and regions.
pub(crate) fn features(cell: u32) -> (u32, u32) {
    (cell >> 16, cell & 0xffff)
}

impl FessQueue {
    /// Queue node `id` of cell `cell` with path weight `w` and bound `h`.
    pub fn push(&mut self, id: u32, cell: u32, w: u32, h: u32) {
        let slot = match self.slot_of.get(&cell) {
            Some(&s) => s,
            None => {
                self.cells.push(BinaryHeap::new());
                self.slot_of.insert(cell, self.cells.len() - 1);
                self.cells.len() - 1
            }
        };
        self.cells[slot].push(Reverse((((w as u64) << 32) | h as u64, id)));
        self.len += 1;
    }

    /// The next node: the best of the next non-empty cell in turn.
    pub fn pop(&mut self) -> Option<u32> {
        let n = self.cells.len();
        for k in 0..n {
            let slot = (self.cursor + k) % n;
            if let Some(Reverse((_, id))) = self.cells[slot].pop() {
                self.cursor = slot + 1;
                self.len -= 1;
                return Some(id);
            }
        }
        None
    }

    /// Whether no node is queued.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_visited_in_turn_best_first_within_each() {
        let mut q = FessQueue::default();
        let (a, b) = (cell_of(0, 1), cell_of(2, 1));
        q.push(1, a, 1, 5);
        q.push(2, a, 0, 9);
        q.push(3, b, 2, 0);
        q.push(4, b, 1, 7);
        assert_eq!(features(b), (2, 1));
        // Cell a, then b, then a, then b: the least weight first, then the bound.
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![2, 4, 1, 3]);
        assert!(q.is_empty());
    }
}
