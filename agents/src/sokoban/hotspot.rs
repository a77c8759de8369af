//! Hotspots, after FESS (Shoham & Schaeffer, IEEE CoG 2020): a box off its
//! goal is a *hotspot* when it stands where it takes some goal away from
//! another box off its goal. "Takes away" is computed once per level on the
//! empty board: with a wall on cell `x`, a box on `p` can be pushed to fewer
//! goals than without it (pushes need the cell behind the box to be floor;
//! where the player can walk is ignored). The feature-space search's
//! hotspot advisor recommends moves that lower the number of hotspots.

use super::bits;
use super::board::{Board, NONE};

/// Which cells block which, for one level.
pub(crate) struct Hotspots {
    /// Words per row of `blocks`.
    words: usize,
    /// Row `x`: bit `p` set when a wall on `x` leaves a box on `p` fewer
    /// goals. Empty rows for goals and dead squares.
    blocks: Vec<u64>,
}

/// For every cell, how many goals a box there can be pushed to, with a
/// wall on `wall` (or [`NONE`]). `seen` and `stamp` are scratch space.
fn goals_reachable(b: &Board, wall: u16, seen: &mut [u32], stamp: &mut u32) -> Vec<u16> {
    let mut count = vec![0u16; b.n];
    let mut queue = Vec::new();
    for &g in &b.goals {
        if g == wall {
            continue;
        }
        *stamp += 1;
        let st = *stamp;
        seen[g as usize] = st;
        queue.clear();
        queue.push(g);
        let mut head = 0;
        while head < queue.len() {
            let x = queue[head];
            head += 1;
            count[x as usize] += 1;
            // Pull the box from x to y; the player stands beyond y.
            for d in 0..4 {
                let y = b.nbr[x as usize][d];
                if y == NONE || y == wall || seen[y as usize] == st {
                    continue;
                }
                let p = b.nbr[y as usize][d];
                if p == NONE || p == wall {
                    continue;
                }
                seen[y as usize] = st;
                queue.push(y);
            }
        }
    }
    count
}

impl Hotspots {
    /// The blocking table of `b` (`dead`: its dead squares).
    pub fn new(b: &Board, dead: &[bool]) -> Hotspots {
        let words = bits::words(b.n);
        let mut blocks = vec![0u64; words * b.n];
        let mut seen = vec![0u32; b.n];
        let mut stamp = 0;
        let base = goals_reachable(b, NONE, &mut seen, &mut stamp);
        for x in 0..b.n {
            if b.is_goal[x] || dead[x] {
                continue;
            }
            let with = goals_reachable(b, x as u16, &mut seen, &mut stamp);
            for p in 0..b.n {
                if p != x && !b.is_goal[p] && !dead[p] && with[p] < base[p] {
                    bits::set(&mut blocks[x * words..], p);
                }
            }
        }
        Hotspots { words, blocks }
    }

    /// Whether a box on `x` takes some goal away from a box on `p`.
    pub fn blocks(&self, x: u16, p: u16) -> bool {
        let (x, p) = (x as usize, p as usize);
        bits::has(&self.blocks[x * self.words..], p)
    }

    /// The number of hotspots among `boxes`: boxes off their goals that
    /// take some goal away from another box off its goal.
    pub fn count(&self, b: &Board, boxes: &[u16]) -> u32 {
        let off: Vec<u16> = boxes
            .iter()
            .copied()
            .filter(|&c| !b.is_goal[c as usize])
            .collect();
        off.iter()
            .filter(|&&x| off.iter().any(|&p| p != x && self.blocks(x, p)))
            .count() as u32
    }
}
