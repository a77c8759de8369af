//! Goals sealed off by boxes that can never move again.
//!
//! A box that can never be pushed again (frozen on its goal, or shut in so
//! the player can never reach a side of it) stays where it is for good: it
//! is a wall for the rest of the game. The push distances of the board
//! ignore that, so a search can go on for a long time in positions where
//! some empty goal can no longer be reached, e.g. a one-way corridor of
//! goals whose entrance is blocked by such a box. [`Supply`] records, for
//! each goal, the cells from which a box could still be pushed onto it on
//! the board where the fixed boxes are walls and no other box is in the way
//! (a relaxation: more boxes can only make it harder, so an empty goal that
//! no movable box can supply is a proof of deadlock).

use super::board::{Board, NONE};
use std::collections::HashSet;

/// For each goal, the cells a box can be pushed onto it from, with a given
/// set of fixed boxes as walls.
#[derive(Clone, Debug)]
pub(crate) struct Supply {
    /// `from[j]`: `None` for a goal under a fixed box, else a flag per cell.
    from: Vec<Option<Vec<bool>>>,
}

impl Supply {
    /// The supply regions of every goal of `b` with `fixed` (a flag per
    /// cell) as walls.
    pub fn new(b: &Board, fixed: &[bool]) -> Supply {
        let n = b.n;
        let mut seen: HashSet<(u16, u16)> = HashSet::new();
        let mut queue: Vec<(u16, u16)> = Vec::new();
        let mut mark = vec![0u32; n];
        let mut stamp = 0u32;
        let mut stack: Vec<u16> = Vec::new();
        let mut from = Vec::with_capacity(b.goals.len());
        for &g in &b.goals {
            if fixed[g as usize] {
                from.push(None);
                continue;
            }
            let mut region = vec![false; n];
            region[g as usize] = true;
            // Pull a box away from g: states (box cell, player cell).
            seen.clear();
            queue.clear();
            for &p in &b.nbr[g as usize] {
                if p != NONE && !fixed[p as usize] && seen.insert((g, p)) {
                    queue.push((g, p));
                }
            }
            let mut head = 0;
            while head < queue.len() {
                let (bx, pl) = queue[head];
                head += 1;
                // The player's region with the box on bx and the fixed walls.
                stamp += 1;
                stack.clear();
                stack.push(pl);
                mark[pl as usize] = stamp;
                while let Some(x) = stack.pop() {
                    for &y in &b.nbr[x as usize] {
                        if y != NONE && y != bx && !fixed[y as usize] && mark[y as usize] != stamp {
                            mark[y as usize] = stamp;
                            stack.push(y);
                        }
                    }
                }
                for d in 0..4 {
                    let p = b.nbr[bx as usize][d];
                    if p == NONE || mark[p as usize] != stamp {
                        continue;
                    }
                    let q = b.nbr[p as usize][d];
                    if q == NONE || fixed[q as usize] {
                        continue;
                    }
                    region[p as usize] = true;
                    if seen.insert((p, q)) {
                        queue.push((p, q));
                    }
                }
            }
            from.push(Some(region));
        }
        Supply { from }
    }

    /// Whether every goal not under a fixed box is empty only if some box of
    /// `movable` stands in its supply region (a box already on it counts).
    pub fn all_supplied(&self, b: &Board, movable: &[u16]) -> bool {
        self.from.iter().zip(&b.goals).all(|(reg, &g)| match reg {
            None => true,
            Some(r) => movable.iter().any(|&c| c == g || r[c as usize]),
        })
    }
}
