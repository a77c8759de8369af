//! Boxes *stranded* off the start cells: a connectivity feature of the
//! backward feature-space search near its end.
//!
//! Backward, the packing feature counts the boxes back on cells where
//! boxes start. Its best cell can fill all start cells but one or two with
//! boxes that leave the last boxes no way in: on Sasquatch I 25 the
//! backward search had 18 of its 19 boxes on start cells after 10,000
//! expansions and none more in 30 s. A box off the start cells is
//! stranded when no lone box could be pulled from its cell onto an empty
//! start cell with the boxes on start cells fixed, the other boxes and
//! the player's side ignored. Such a box can only get in after some box on
//! a start cell has moved, so with as many boxes back, a position with
//! fewer stranded boxes ranks first.
//!
//! The count is optimistic (it ignores where the player can walk and the
//! boxes not yet back), so it guides the search and never prunes it.
//!
//! The flood depends on the empty start cells alone, and most children
//! move a box between cells that are not start cells: each flood is kept,
//! by its empty start cells, and read again (on Sasquatch I 39, `fess`
//! backward alone, that saved 17 % of the search's instructions: 11,868
//! floods for 1,089,531 counts).

use super::bits;
use super::board::{Board, NONE};
use rustc_hash::FxHashMap;

/// The most floods a [`Stranded`] keeps; past it, it forgets them all
/// (each is a bit per cell: a few MB at most).
const KEPT: usize = 1 << 15;

/// Scratch and kept floods for [`Stranded::count`], for one board.
#[derive(Default)]
pub(crate) struct Stranded {
    /// `seen[c] == stamp`: cell `c` reached by the flood under way.
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<u16>,
    /// The empty start cells of the position counted.
    empty: Vec<u16>,
    /// The cells each flood reached (a bit set), by its empty start cells.
    floods: FxHashMap<Box<[u16]>, Box<[u64]>>,
}

impl Stranded {
    /// How many of `boxes` (`occ[c] != 0` marks a box on `c`) stand off
    /// the start cells (`is_start`) on a cell from which a lone box cannot
    /// be pulled onto an empty start cell, the boxes on start cells fixed.
    ///
    /// A pull from `x` onto `s` is a push from `s` onto `x` read backwards,
    /// through the same cells, so this is a flood of a lone box's pushes
    /// from the empty start cells: a push needs the cell ahead and the
    /// player's cell behind off the walls and the boxes on start cells.
    /// `b` is the same board at every call: the floods kept are its.
    pub fn count(&mut self, b: &Board, occ: &[u16], is_start: &[bool], boxes: &[u16]) -> u32 {
        self.empty.clear();
        self.empty
            .extend(b.start_boxes.iter().filter(|&&c| occ[c as usize] == 0));
        let stranded = |reached: &[u64]| {
            let off = |&&c: &&u16| !is_start[c as usize] && !bits::has(reached, c as usize);
            boxes.iter().filter(off).count() as u32
        };
        if let Some(reached) = self.floods.get(&self.empty[..]) {
            return stranded(reached);
        }
        let reached = self.flood(b, occ, is_start);
        let n = stranded(&reached);
        if self.floods.len() >= KEPT {
            self.floods.clear();
        }
        self.floods.insert(self.empty.clone().into(), reached);
        n
    }

    /// The cells a lone box can be pulled from onto one of the empty start
    /// cells `self.empty` (see [`Stranded::count`]), as a bit set.
    fn flood(&mut self, b: &Board, occ: &[u16], is_start: &[bool]) -> Box<[u64]> {
        if self.seen.len() != b.n || self.stamp == u32::MAX {
            self.seen = vec![0; b.n];
            self.stamp = 0;
        }
        self.stamp += 1;
        let st = self.stamp;
        let blocked = |c: u16| c == NONE || (occ[c as usize] != 0 && is_start[c as usize]);
        let mut reached = vec![0u64; bits::words(b.n)].into_boxed_slice();
        self.stack.clear();
        for &c in &self.empty {
            self.seen[c as usize] = st;
            self.stack.push(c);
        }
        while let Some(x) = self.stack.pop() {
            bits::set(&mut reached, x as usize);
            let nbr = b.nbr[x as usize];
            for d in 0..4 {
                let (ahead, behind) = (nbr[d], nbr[d ^ 1]);
                if blocked(ahead) || blocked(behind) || self.seen[ahead as usize] == st {
                    continue;
                }
                self.seen[ahead as usize] = st;
                self.stack.push(ahead);
            }
        }
        reached
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::exhaustive::{boxes_off_start, microban_boards, start_cells};
    use crate::sokoban::packing::can_leave;
    use crate::sokoban::space::Space;

    #[test]
    fn a_stranded_box_cannot_be_pulled_alone_onto_an_empty_start_cell() {
        // Microban boards, backward positions made by moving some start
        // boxes onto other free cells: a box counted stranded cannot be
        // pulled alone, the player walking, onto an empty start cell with
        // the boxes on start cells where they are (`can_leave`, a search
        // of pulls independent of the flood); and a box such a search
        // pulls in is never counted.
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(34);
        let (mut counted, mut free) = (0, 0);
        for b in microban_boards(8, 120, 60) {
            let mut st = Stranded::default();
            let is_start = start_cells(&b);
            for _ in 0..20 {
                // Up to three boxes taken off their start cells.
                let boxes = boxes_off_start(&b, &is_start, &mut rng, 3);
                let mut sp = Space::new(b.n);
                sp.set(&boxes);
                let n = st.count(&b, &sp.occ, &is_start, &boxes);
                // A kept flood counts as a new one.
                let fresh = Stranded::default().count(&b, &sp.occ, &is_start, &boxes);
                assert_eq!(n, fresh, "kept and new floods agree");
                let on: Vec<u16> = boxes
                    .iter()
                    .copied()
                    .filter(|&c| is_start[c as usize])
                    .collect();
                let mut stranded = 0;
                for &c in boxes.iter().filter(|&&c| !is_start[c as usize]) {
                    // The box alone with the boxes on start cells.
                    let mut alone = Space::new(b.n);
                    alone.set(&on);
                    alone.occ[c as usize] = u16::MAX;
                    let occ = alone.occ.clone();
                    let empty = |x: u16| is_start[x as usize] && occ[x as usize] == 0;
                    let gets_in = can_leave(&b, &mut alone, c, empty);
                    if st.count(&b, &alone.occ, &is_start, &[c]) == 1 {
                        stranded += 1;
                        assert!(!gets_in, "a stranded box on {:?} gets in", b.row_col(c));
                    } else {
                        free += usize::from(gets_in);
                    }
                }
                assert_eq!(n, stranded, "the count is the boxes' own");
                counted += n;
            }
        }
        // Both kinds occur.
        assert!(counted > 50, "{counted} stranded boxes");
        assert!(free > 50, "{free} boxes pulled in");
    }
}
