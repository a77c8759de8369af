//! Where the player can walk while one box moves and the others stay
//! ([`Cuts`]): the cut cells of the free floor, found once, instead of a
//! flood for every cell the box is moved to.
//!
//! With the moving box taken off, the free floor the player stands in is
//! one connected part. A depth-first search over it numbers each cell in
//! the order it is first met (`disc`) and finds, for each cell, the
//! earliest cell its subtree reaches by a back edge (`low`, Tarjan's
//! low-link). Putting the box back on a cell `x` splits the part into:
//! - each child subtree `y` of `x` with `low[y] >= disc[x]` (or every
//!   child subtree, when `x` is the root): nothing in it leads around
//!   `x`;
//! - the rest: the part without `x` and those subtrees.
//!
//! So the player's region with the box on `x` is one of at most five
//! *pieces* of the part, named by the direction of the child subtree
//! from `x` (0 to 3) or [`REST`], and which piece holds a cell is a test
//! of its number against the children's intervals. A subtree's cells are
//! consecutive in the search's order, so a piece's cells are a slice of
//! it, or the part minus a few slices.

use super::bits;
use super::board::{Board, NONE};

/// The piece that is not a separated child subtree ([`Cuts::piece`]).
pub(crate) const REST: u8 = 4;

/// The depth-first numbering of the free part of the floor around one
/// cell, for the regions the player has while one box moves in it.
#[derive(Default)]
pub(crate) struct Cuts {
    /// Order of first visit; [`NONE`] for cells outside the part.
    disc: Vec<u16>,
    /// The least `disc` the cell's subtree reaches by one back edge.
    low: Vec<u16>,
    /// The number of cells in the cell's subtree.
    size: Vec<u16>,
    /// The cell's parent in the search tree ([`NONE`] at the root).
    parent: Vec<u16>,
    /// The part's cells in the order of first visit.
    order: Vec<u16>,
    /// The number of cells of the part (the first of `order`).
    part_len: u16,
    /// The part's cells as bits.
    part: Vec<u64>,
    /// The number of connected parts of the free floor.
    parts: u32,
    /// Scratch for the search: a cell and the next direction to try.
    stack: Vec<(u16, u8)>,
}

impl Cuts {
    /// The free part of the floor of `b` around `root`: the cells the
    /// player walks to from `root` over cells with `occ[c] == 0`. `parts`
    /// is the number of connected parts of the whole free floor, for
    /// [`Cuts::regions`] (the others are not searched).
    #[cfg(test)]
    pub fn new(b: &Board, occ: &[u16], root: u16, parts: u32) -> Cuts {
        let mut cuts = Cuts::default();
        cuts.build(b, occ, root, parts);
        cuts
    }

    /// [`Cuts::new`] into this one's buffers.
    pub fn build(&mut self, b: &Board, occ: &[u16], root: u16, parts: u32) {
        let n = b.n;
        if self.disc.len() != n {
            *self = Cuts {
                disc: vec![NONE; n],
                low: vec![0; n],
                size: vec![0; n],
                parent: vec![NONE; n],
                order: Vec::with_capacity(n),
                part: vec![0; bits::words(n)],
                ..Cuts::default()
            };
        }
        for &c in &self.order {
            self.disc[c as usize] = NONE;
        }
        self.order.clear();
        self.part.fill(0);
        self.parts = parts;
        self.search(b, occ, root);
        self.part_len = self.order.len() as u16;
        for &c in &self.order {
            bits::set(&mut self.part, c as usize);
        }
    }

    /// The depth-first search of the part around `root`.
    fn search(&mut self, b: &Board, occ: &[u16], root: u16) {
        self.visit(root, NONE);
        while let Some(top) = self.stack.last_mut() {
            let (x, mut d) = *top;
            // The next child of `x`, the back edges met on the way.
            let mut next = NONE;
            let mut lx = self.low[x as usize];
            let px = self.parent[x as usize];
            while d < 4 {
                let y = b.nbr[x as usize][d as usize];
                d += 1;
                if y == NONE || occ[y as usize] != 0 {
                    continue;
                }
                let dy = self.disc[y as usize];
                if dy == NONE {
                    next = y;
                    break;
                } else if y != px {
                    lx = lx.min(dy);
                }
            }
            top.1 = d;
            self.low[x as usize] = lx;
            if next != NONE {
                self.visit(next, x);
            } else {
                self.stack.pop();
                self.size[x as usize] = self.order.len() as u16 - self.disc[x as usize];
                if let Some(&(p, _)) = self.stack.last() {
                    let lx = self.low[x as usize];
                    let lp = &mut self.low[p as usize];
                    *lp = (*lp).min(lx);
                }
            }
        }
    }

    /// First visit of cell `c` from `parent` ([`NONE`] at a root): its
    /// number, and on the search's stack.
    fn visit(&mut self, c: u16, parent: u16) {
        let k = self.order.len() as u16;
        self.disc[c as usize] = k;
        self.low[c as usize] = k;
        self.parent[c as usize] = parent;
        self.order.push(c);
        self.stack.push((c, 0));
    }

    /// The child of `x` in direction `d`, if it is one: a cell of the part
    /// first reached from `x`.
    fn child(&self, b: &Board, x: u16, d: usize) -> Option<u16> {
        let y = b.nbr[x as usize][d];
        (y != NONE && self.disc[y as usize] != NONE && self.parent[y as usize] == x).then_some(y)
    }

    /// Whether the child subtree `y` of `x` is cut off from the rest when
    /// a box stands on `x`.
    fn separated(&self, x: u16, y: u16) -> bool {
        self.parent[x as usize] == NONE || self.low[y as usize] >= self.disc[x as usize]
    }

    /// The number of connected regions of the free floor with a box on
    /// the free cell `x` of the part: the part splits into the separated child
    /// subtrees and, unless `x` is the part's root, the rest.
    pub fn regions(&self, b: &Board, x: u16) -> u32 {
        let split = (0..4)
            .filter(|&d| self.child(b, x, d).is_some_and(|y| self.separated(x, y)))
            .count() as u32;
        self.parts - 1 + split + u32::from(self.parent[x as usize] != NONE)
    }

    /// With a box on `x`, the piece of the part that holds cell `q`: the
    /// direction from `x` of the separated child subtree that holds it, or
    /// [`REST`]. `None` when `q` is `x`, outside the part or [`NONE`]
    /// (`x` is in the part).
    pub fn piece(&self, b: &Board, x: u16, q: u16) -> Option<u8> {
        let k = *self.disc.get(q as usize)?;
        if q == x || k >= self.part_len {
            return None;
        }
        for d in 0..4 {
            if let Some(y) = self.child(b, x, d) {
                let from = self.disc[y as usize];
                if from <= k && k < from + self.size[y as usize] {
                    return Some(if self.separated(x, y) { d as u8 } else { REST });
                }
            }
        }
        Some(REST)
    }

    /// The cells of `piece` with a box on `x`, as bits into `out`
    /// ([`bits::words`] of the board's cells); returns its smallest cell
    /// ([`NONE`] when it is empty).
    pub fn region(&self, b: &Board, x: u16, piece: u8, out: &mut [u64]) -> u16 {
        let subtree = |y: u16| {
            let from = self.disc[y as usize] as usize;
            &self.order[from..from + self.size[y as usize] as usize]
        };
        if piece < REST {
            out.fill(0);
            if let Some(y) = self.child(b, x, piece as usize) {
                for &c in subtree(y) {
                    bits::set(out, c as usize);
                }
            }
        } else {
            out.copy_from_slice(&self.part);
            out[x as usize / 64] &= !(1 << (x % 64));
            for d in 0..4 {
                match self.child(b, x, d) {
                    Some(y) if self.separated(x, y) => {
                        for &c in subtree(y) {
                            out[c as usize / 64] &= !(1 << (c % 64));
                        }
                    }
                    _ => {}
                }
            }
        }
        out.iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map_or(NONE, |(i, w)| (i * 64 + w.trailing_zeros() as usize) as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::exhaustive::microban_boards;
    use crate::sokoban::space::Space;

    #[test]
    fn pieces_are_the_regions_a_flood_finds() {
        // Microban boards, each box taken off in turn, the part around a
        // free cell next to it: for every other free cell `x` as the box's
        // cell and every free cell `q`, the piece that holds `q` is the
        // flood from `q` with a box on `x`, smallest cell included, and
        // with `x` in the part, the regions of the free floor are those
        // counted by floods.
        let mut checked = 0;
        for b in microban_boards(8, 80, 40) {
            let mut sp = Space::new(b.n);
            sp.set(&b.start_boxes);
            for &c in &b.start_boxes {
                sp.occ[c as usize] = 0;
                let root = (0..4)
                    .map(|d| b.nbr[c as usize][d])
                    .find(|&y| y != NONE && sp.occ[y as usize] == 0);
                let Some(root) = root else {
                    sp.occ[c as usize] = 1;
                    continue;
                };
                let parts = sp.regions(&b);
                let cuts = Cuts::new(&b, &sp.occ, root, parts);
                let mut out = vec![0u64; bits::words(b.n)];
                sp.reach(&b, root, false);
                let part: Vec<bool> = (0..b.n as u16).map(|x| sp.reached(x)).collect();
                for x in 0..b.n as u16 {
                    if sp.occ[x as usize] != 0 {
                        continue;
                    }
                    sp.occ[x as usize] = 1;
                    let first_free = (0..b.n as u16).find(|&f| sp.occ[f as usize] == 0);
                    if let Some(f) = first_free.filter(|_| part[x as usize]) {
                        sp.reach(&b, f, false);
                        assert_eq!(cuts.regions(&b, x), sp.regions_with_reach(&b), "box on {x}");
                    }
                    for q in 0..b.n as u16 {
                        if sp.occ[q as usize] != 0 {
                            continue;
                        }
                        let norm = sp.reach(&b, q, false);
                        let Some(piece) = cuts.piece(&b, x, q) else {
                            assert!(!sp.reached(root), "{q} is in the part (box on {x})");
                            continue;
                        };
                        assert_eq!(cuts.region(&b, x, piece, &mut out), norm);
                        for y in 0..b.n as u16 {
                            assert_eq!(
                                bits::has(&out, y as usize),
                                sp.reached(y),
                                "box on {x}, from {q}: cell {y}"
                            );
                        }
                        checked += 1;
                    }
                    sp.occ[x as usize] = 0;
                }
                sp.occ[c as usize] = 1;
            }
        }
        assert!(checked > 10_000, "{checked} regions checked");
    }
}
