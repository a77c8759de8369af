//! A feature-space search order after FESS (Shoham & Schaeffer, "The FESS
//! Algorithm: A Feature Based Approach to Single-Agent Search", IEEE CoG
//! 2020), reduced to two or three features:
//! - *packing*: how many boxes stand on goals; with a packing plan
//!   (`plan.rs`), how far the position has come along the plan first, then
//!   how many boxes stand on goals ([`packing_then`]); backward, how many
//!   boxes stand on start cells, then (`Config::near`, `near.rs`) how many
//!   stand near an empty one;
//! - *connectivity*: into how many regions the boxes cut the free floor;
//!   with `Config::rooms` (off by default), then FESS's room connectivity
//!   (`rooms.rs`: the pairs of rooms the boxes disconnect); with
//!   `Config::oop`, then the boxes out of plan
//!   (`PackingPlan::out_of_plan`). All in the cell's low half, a byte
//!   each (capped at 255), the regions highest: e.g.
//!   `regions << 8 | out`, so that fewer boxes out of plan rank after
//!   fewer regions and a move that lowers them without adding regions is
//!   advised.
//!
//! Every state is projected to its cell `(packing, connectivity)` of the
//! feature space. The search visits the non-empty cells in turn and expands,
//! from each, the state with the least path *weight*, then the least lower
//! bound. A move that an *advisor* recommends costs nothing, any other move
//! costs 1: the advisors here recommend moves that pack boxes or join
//! regions (see below), and, where the packing plan parks a box or its
//! next goal's turn is forced (`order.rs`), the *opener*'s move that
//! clears the way to the plan's next cell ([`opener`]). Visiting the cells
//! in turn gives states that made progress on some feature as much effort
//! as the crowd at the start, which a best-first order on the lower bound
//! alone never does.
//!
//! As in FESS's engine, every other expansion may instead come from the
//! *best* non-empty cell ([`rank`]: most boxes on goals, then fewest
//! regions), so that half the effort goes on from the most advanced states
//! ([`FessQueue::new`]). The backward search takes more of its expansions
//! from its best cell ([`BACKWARD_BEST`](super::BACKWARD_BEST) of every
//! [`BEST_OF`]).
//!
//! Optionally, as in FESS, each advisor recommends at most *one* move of a
//! state ([`advise`]): the packing advisor the move that gains the most
//! packing, the connectivity advisor the one that leaves the fewest
//! regions (the hotspot advisor, when on, the one that leaves the fewest
//! hotspots), the least bound breaking ties. By default every move that
//! improves some feature is free: with box moves that is dozens of moves
//! of a state, which is a deeper dive on some levels and a weaker guide on
//! others.
//!
//! The order is not admissible; exhausting it still proves unsolvability
//! (every generated state is expanded in the end).

use super::board::Board;
use super::memory::{Footprint, ROOM};
use super::order::GoalOrder;
use super::plan::PackingPlan;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::mem::size_of;

/// The pops of a [`FessQueue`] counted in its share of pops from the best
/// cell: that share is some number of every `BEST_OF` pops.
pub(crate) const BEST_OF: u8 = 16;

/// The pops of every [`BEST_OF`] that the forward feature-space search
/// takes from its best cell: every other one, as in FESS's engine.
pub(crate) const FORWARD_BEST: u8 = BEST_OF / 2;

/// How far below the best cell's packing feature a child of a pop of
/// least bound may open a new cell ([`FessQueue::push`]): one step of the
/// feature's first part (see [`packing_then`]; backward, one box on a
/// start cell). A child that would open a cell further below (backward:
/// one box fewer on start cells and fewer near an empty one, or two
/// fewer) is kept among the nodes by bound only.
pub(crate) const PARK_BELOW: u32 = 1 << 8;

/// The open list of a feature-space search: one heap per cell.
#[derive(Default)]
pub(crate) struct FessQueue {
    cells: Vec<BinaryHeap<Reverse<(u64, u32)>>>,
    /// The slot of each cell (a fast hash: one lookup per queued node).
    slot_of: FxHashMap<Cell, usize>,
    /// The cell of each slot.
    keys: Vec<Cell>,
    cursor: usize,
    len: usize,
    /// The cell of every node, by node id (dead nodes included).
    pub cell: Vec<Cell>,
    /// The number of hotspots of every node, by node id, when the hotspot
    /// advisor is on (else empty).
    pub hot: Vec<u32>,
    /// Of every [`BEST_OF`] pops, this many take the best non-empty cell
    /// (0: none).
    best_pops: u8,
    pops: u64,
    /// The slot of the best cell seen (see [`rank`]), while `best_pops`
    /// is not 0.
    best: Option<usize>,
    /// The slot the last pop took its node from.
    last: usize,
    /// Pops since a node made another cell the best ([`FessQueue::new`]'s
    /// `stall`).
    since_better: u64,
    /// After this many pops without a better best cell, pops take the
    /// cells in turn only, until one is better (0: never).
    stall: u64,
    /// Of every [`BEST_OF`] pops, this many take the queued node of least
    /// bound of all the cells (0: none).
    greedy: u8,
    /// Every queued node by bound, then path weight (while `greedy` is
    /// not 0); an entry whose node was expanded since is passed over.
    least: BinaryHeap<Reverse<(u64, u32)>>,
    /// Whether the last pop took the node of least bound.
    last_least: bool,
    /// Whether the children of a pop of least bound open no cell far below
    /// the best ([`FessQueue::push`]).
    park: bool,
}

/// The rank of a cell, higher is better: more boxes on goals (with a
/// plan: more progress, then more boxes on goals) first, then fewer
/// regions.
pub(crate) fn rank(cell: Cell) -> u64 {
    let (p, r) = features(cell);
    (u64::from(p) << 32) | u64::from(u32::MAX - r)
}

/// The key of a node among the nodes by bound ([`FessQueue::new`]'s
/// `greedy`): its bound, then its path weight.
fn key_by_bound(w: u32, h: u32) -> u64 {
    (u64::from(h) << 32) | u64::from(w)
}

/// The key of a node in its cell: its path weight, then its bound.
fn key_in_cell(w: u32, h: u32) -> u64 {
    (u64::from(w) << 32) | u64::from(h)
}

/// A cell of the feature space: the packing feature in the high half, the
/// connectivity features (fewer is better) in the low half.
pub(crate) type Cell = u64;

/// The cell of a state with `packed` boxes on goals whose boxes cut the free
/// floor into `regions` regions (or, with more features, whose
/// connectivity features read `regions` as one number, the first in its
/// highest bits).
pub(crate) fn cell_of(packed: usize, regions: u32) -> Cell {
    ((packed as u64) << 32) | u64::from(regions)
}

/// A packing feature of two parts, `first` deciding, then `then` (both
/// below 256): with a packing plan (`plan.rs`), the plan's progress, then
/// the boxes on goals; backward (`near.rs`), the boxes on start cells,
/// then the boxes near an empty one.
pub(crate) fn packing_then(first: usize, then: usize) -> usize {
    (first.min(0xff) << 8) | then.min(0xff)
}

/// The features of a cell: boxes on goals and regions.
pub(crate) fn features(cell: Cell) -> (u32, u32) {
    ((cell >> 32) as u32, cell as u32)
}

/// A child of the expansion under way, while the advisors choose.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    /// Its node id.
    pub id: u32,
    /// Its cell of the feature space.
    pub cell: Cell,
    /// Its number of hotspots, when the hotspot advisor is on.
    pub hot: Option<u32>,
    /// Its lower bound.
    pub h: u32,
    /// The cell the moved box left.
    pub from: u16,
    /// The cell the moved box went to.
    pub to: u16,
    /// Found dead before it was queued (a lazy or deferred child tested
    /// early): never advised, never queued.
    pub dead: bool,
}

/// Which of the `kids` of a state (cell `parent`, `parent_hot` hotspots)
/// the advisors recommend, a flag each in `out`. With `one`, each advisor
/// recommends at most one move, as in FESS: the packing advisor the child
/// with the most packing above the parent's, the connectivity advisor the
/// child with the fewest regions below the parent's, the hotspot advisor
/// the child with the fewest hotspots below the parent's that keeps its
/// packing; the least bound, then the first generated, breaks ties.
/// Without `one`, every child that improves some feature is advised. A
/// child found dead ([`Child::dead`]) is never advised.
pub(crate) fn advise(
    parent: Cell,
    parent_hot: Option<u32>,
    kids: &[Child],
    one: bool,
    out: &mut Vec<bool>,
) {
    let (pp, pr) = features(parent);
    let packs = |k: &Child| !k.dead && features(k.cell).0 > pp;
    let joins = |k: &Child| !k.dead && features(k.cell).1 < pr;
    let cools = |k: &Child| match (k.hot, parent_hot) {
        (Some(h), Some(ph)) => h < ph && !k.dead && features(k.cell).0 >= pp,
        _ => false,
    };
    out.clear();
    if !one {
        out.extend(kids.iter().map(|k| packs(k) || joins(k) || cools(k)));
        return;
    }
    out.resize(kids.len(), false);
    let pick = |ok: &dyn Fn(&Child) -> bool, key: &dyn Fn(&Child) -> (u32, u32)| {
        (0..kids.len())
            .filter(|&i| ok(&kids[i]))
            .min_by_key(|&i| (key(&kids[i]), i))
    };
    let best = [
        pick(&packs, &|k| (u32::MAX - features(k.cell).0, k.h)),
        pick(&joins, &|k| (features(k.cell).1, k.h)),
        pick(&cools, &|k| (k.hot.unwrap_or(0), k.h)),
    ];
    for i in best.into_iter().flatten() {
        out[i] = true;
    }
}

/// What FESS's opener advisor ([`opener`]) follows: a packing plan, and
/// for each of its steps where the opener acts, the walking distances
/// from the step's cell (the boxes ignored).
#[derive(Clone, Debug)]
pub(crate) struct Opener {
    /// The plan whose next cell the opener clears.
    pub plan: PackingPlan,
    /// Per step: the distances from its cell, `None` where the opener
    /// does not act.
    pub dists: Vec<Option<Vec<u16>>>,
}

impl Opener {
    /// The opener of `b` following `plan`. At every step when the plan
    /// parks a box; otherwise (the plan's order is one among many) only at
    /// the steps whose goal is in the goals' forced fill order
    /// ([`GoalOrder`]), and `None` when no step is.
    pub fn new(b: &Board, plan: PackingPlan) -> Option<Opener> {
        let order = if plan.parks() > 0 {
            None
        } else {
            Some(GoalOrder::new(b)?)
        };
        let dists: Vec<Option<Vec<u16>>> = plan
            .steps
            .iter()
            .map(|&(to, _)| {
                let acts = order.as_ref().is_none_or(|o| o.in_order(to));
                acts.then(|| b.walk_distances(&[to]))
            })
            .collect();
        dists
            .iter()
            .any(Option::is_some)
            .then_some(Opener { plan, dists })
    }
}

/// FESS's *opener* advisor: which of the `kids` of a state (cell `parent`)
/// moves the box nearest the packing plan's next cell away from it, so
/// that the cell's way is cleared before a box is brought there. `dist`:
/// the walking distance of every cell from the plan's next cell (the
/// boxes ignored). Among the children that keep the parent's packing and
/// add to none of its connectivity features: the least distance of the
/// moved box's old cell, then the greatest of its new one, not nearer
/// than the old; the first generated breaks ties. A child found dead
/// ([`Child::dead`]) is passed over.
pub(crate) fn opener(parent: Cell, kids: &[Child], dist: &[u16]) -> Option<usize> {
    let (pp, pc) = features(parent);
    kids.iter()
        .enumerate()
        .filter(|(_, k)| {
            let (kp, kc) = features(k.cell);
            !k.dead && kp >= pp && kc <= pc && dist[k.to as usize] >= dist[k.from as usize]
        })
        .min_by_key(|&(i, k)| (dist[k.from as usize], Reverse(dist[k.to as usize]), i))
        .map(|(i, _)| i)
}

impl FessQueue {
    /// An empty queue. Of every [`BEST_OF`] calls of [`FessQueue::pop`],
    /// `best_pops` (spread evenly; at most [`BEST_OF`]) take the best node
    /// of the best non-empty cell instead of the next cell in turn: with
    /// [`BEST_OF`] / 2, every other call, as in FESS's engine. Once
    /// `stall` pops (0: never) have gone by since a node made some cell
    /// the best, the best cell has stalled: every pop takes the cells in
    /// turn until a node makes another cell the best
    /// ([`STALL`](super::STALL)). Of every [`BEST_OF`] pops, `greedy`
    /// (spread evenly; at most [`BEST_OF`]) come first: they take the
    /// open node of least bound of all the cells, then least path weight
    /// ([`GREEDY`](super::GREEDY)).
    pub fn new(best_pops: u8, stall: u32, greedy: u8, park: bool) -> FessQueue {
        FessQueue {
            best_pops: best_pops.min(BEST_OF),
            stall: u64::from(stall),
            greedy: greedy.min(BEST_OF),
            park,
            ..FessQueue::default()
        }
    }

    /// The bytes of the queue's heaps and per-node vectors
    /// ([`Footprint`]), [`ROOM`] more nodes to come before the next look.
    pub fn footprint(&self) -> Footprint {
        let entry = size_of::<Reverse<(u64, u32)>>();
        let heaps: Footprint = (self.cells.iter())
            .map(|h| Footprint::of(h.len(), h.capacity(), entry, ROOM))
            .sum();
        heaps
            + Footprint::of_vec(&self.cells, ROOM)
            + Footprint::of_vec(&self.keys, ROOM)
            + Footprint::of_vec(&self.cell, ROOM)
            + Footprint::of_vec(&self.hot, ROOM)
            + Footprint::of(self.least.len(), self.least.capacity(), entry, ROOM)
    }

    /// Queue node `id` of cell `cell` with path weight `w` and bound `h`.
    ///
    /// A child of a pop of least bound that would open a new cell whose
    /// packing feature is more than [`PARK_BELOW`] below the best cell's is
    /// kept among the nodes by bound only: pops of least bound that go
    /// down into a basin of low bounds far from the front would otherwise
    /// open cells there, each taking its turn from the cells of the front.
    pub fn push(&mut self, id: u32, cell: Cell, w: u32, h: u32) {
        let park = self.park && self.last_least;
        if park && self.far_below_best(cell) && !self.slot_of.contains_key(&cell) {
            self.push_least(id, w, h);
            return;
        }
        let slot = match self.slot_of.get(&cell) {
            Some(&s) => s,
            None => {
                self.cells.push(BinaryHeap::new());
                self.keys.push(cell);
                self.slot_of.insert(cell, self.cells.len() - 1);
                self.cells.len() - 1
            }
        };
        self.cells[slot].push(Reverse((key_in_cell(w, h), id)));
        self.len += 1;
        if self.greedy > 0 {
            self.push_least(id, w, h);
        }
        if self.best_pops > 0 {
            let better = match self.best {
                None => true,
                Some(b) => rank(cell) > rank(self.keys[b]),
            };
            if better {
                self.best = Some(slot);
                self.since_better = 0;
            }
        }
    }

    /// The next node: the best of the next non-empty cell in turn, or
    /// (`best_pops` of every [`BEST_OF`] calls) of the best non-empty
    /// cell, or (`greedy` of every [`BEST_OF`] calls, first) the open node
    /// of least bound; `closed` tells the nodes expanded or found dead
    /// since they were queued, which that last kind passes over. (The
    /// cells still hold the nodes a pop of least bound took, and the
    /// searcher passes over them when a cell gives them.) When no cell
    /// holds a node, the open node of least bound (a node kept among the
    /// nodes by bound only), if any.
    pub fn pop(&mut self, closed: impl Fn(u32) -> bool) -> Option<u32> {
        self.last_least = false;
        self.pops += 1;
        let (g, n) = (u64::from(self.greedy), u64::from(BEST_OF));
        if self.pops * g / n > (self.pops - 1) * g / n {
            if let Some(id) = self.pop_least(&closed) {
                return Some(id);
            }
        }
        self.since_better += 1;
        let stalled = self.stall > 0 && self.since_better > self.stall;
        let k = if stalled {
            0
        } else {
            u64::from(self.best_pops)
        };
        let n = u64::from(BEST_OF);
        if self.pops * k / n > (self.pops - 1) * k / n {
            if self.best.is_some_and(|b| self.cells[b].is_empty()) {
                self.best = (0..self.cells.len())
                    .filter(|&s| !self.cells[s].is_empty())
                    .max_by_key(|&s| rank(self.keys[s]));
            }
            if let Some(b) = self.best {
                if let Some(Reverse((_, id))) = self.cells[b].pop() {
                    self.len -= 1;
                    self.last = b;
                    return Some(id);
                }
            }
        }
        let n = self.cells.len();
        for k in 0..n {
            let slot = (self.cursor + k) % n;
            if let Some(Reverse((_, id))) = self.cells[slot].pop() {
                self.cursor = slot + 1;
                self.len -= 1;
                self.last = slot;
                return Some(id);
            }
        }
        // Nodes kept among the nodes by bound only ([`FessQueue::push`]).
        self.pop_least(&closed)
    }

    /// Queue node `id` again, popped and found to have a greater bound
    /// `h` than it was queued with (a deferred child's estimate): into
    /// its cell, which it was in already, without a look at the best
    /// cell, and (with greedy pops) among the nodes by bound. Popped as
    /// the node of least bound, it is still in its cell, with its
    /// estimate: it goes back among the nodes by bound only.
    pub fn push_back(&mut self, id: u32, cell: Cell, w: u32, h: u32) {
        if self.greedy > 0 {
            self.push_least(id, w, h);
            if self.last_least {
                return;
            }
        }
        let slot = self.slot_of[&cell];
        self.cells[slot].push(Reverse((key_in_cell(w, h), id)));
        self.len += 1;
    }

    /// Queue node `id` among the nodes by bound.
    fn push_least(&mut self, id: u32, w: u32, h: u32) {
        self.least.push(Reverse((key_by_bound(w, h), id)));
    }

    /// Whether the packing feature of `cell` is more than [`PARK_BELOW`]
    /// below the best cell's.
    fn far_below_best(&self, cell: Cell) -> bool {
        self.best
            .is_some_and(|b| features(cell).0 + PARK_BELOW < features(self.keys[b]).0)
    }

    /// Whether a node of `cell` would add a cell to the queue, or (when
    /// some pops take the best cell) make `cell` the best one.
    pub fn adds_or_leads(&self, cell: Cell) -> bool {
        !self.slot_of.contains_key(&cell)
            || (self.best_pops > 0 && self.best.is_none_or(|b| rank(cell) > rank(self.keys[b])))
    }

    /// The next node of the cell the last pop took from, when the node
    /// that pop gave turned out dead once popped (a lazy or deferred
    /// child, whose removal test is made then): the cell's turn goes on,
    /// as if that node had never been queued. Once that cell is empty,
    /// the same pop again ([`FessQueue::pop`], which looks for the best
    /// cell or the next cell in turn). After a pop of the node of least
    /// bound, the next such node.
    pub fn pop_again(&mut self, closed: impl Fn(u32) -> bool) -> Option<u32> {
        if self.last_least {
            if let Some(id) = self.pop_least(&closed) {
                return Some(id);
            }
            // No open node left by bound (so none at all): on to the cells.
            self.last_least = false;
        }
        if let Some(Reverse((_, id))) = self.cells.get_mut(self.last).and_then(BinaryHeap::pop) {
            self.len -= 1;
            return Some(id);
        }
        self.pops -= 1;
        self.since_better = self.since_better.saturating_sub(1);
        self.pop(closed)
    }

    /// The open node of least bound, then least path weight, if any
    /// (`closed` as for [`FessQueue::pop`]).
    fn pop_least(&mut self, closed: &impl Fn(u32) -> bool) -> Option<u32> {
        while let Some(Reverse((_, id))) = self.least.pop() {
            if !closed(id) {
                self.last_least = true;
                return Some(id);
            }
        }
        None
    }

    /// The best non-empty cell, as last found by [`FessQueue::pop`] (when
    /// some pops take the best cell; else `None`).
    pub fn best_cell(&self) -> Option<Cell> {
        self.best.map(|b| self.keys[b])
    }

    /// Whether no node is queued (false while the nodes by bound hold
    /// entries, though every one may have been expanded since).
    pub fn is_empty(&self) -> bool {
        self.len == 0 && self.least.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::BACKWARD_BEST;

    /// Whether a node is closed, for a queue without greedy pops: it
    /// never asks.
    fn unasked(_: u32) -> bool {
        false
    }

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
        let order: Vec<u32> = std::iter::from_fn(|| q.pop(unasked)).collect();
        assert_eq!(order, vec![2, 4, 1, 3]);
        assert!(q.is_empty());
    }

    #[test]
    fn each_advisor_recommends_one_move_or_every_improving_one() {
        let parent = cell_of(2, 3);
        let kid = |id, packed, regions, h| Child {
            id,
            cell: cell_of(packed, regions),
            hot: None,
            h,
            from: 0,
            to: 0,
            dead: false,
        };
        let kids = [
            kid(0, 3, 3, 9), // one more box packed
            kid(1, 4, 3, 7), // two more: the packing advisor's move
            kid(2, 4, 3, 5), // two more, smaller bound: it wins the tie
            kid(3, 2, 2, 8), // one region fewer
            kid(4, 1, 1, 4), // two regions fewer (a box taken off a goal)
            kid(5, 2, 3, 0), // no feature improved
            kid(6, 2, 1, 4), // two regions fewer, same bound as 4: 4 came first
        ];
        let mut flags = Vec::new();
        advise(parent, None, &kids, true, &mut flags);
        assert_eq!(flags, [false, false, true, false, true, false, false]);
        advise(parent, None, &kids, false, &mut flags);
        assert_eq!(flags, [true, true, true, true, true, false, true]);
        // The hotspot advisor: the fewest hotspots below the parent's, the
        // packing kept.
        let hot = |id, packed, hot, h| Child {
            hot: Some(hot),
            ..kid(id, packed, 3, h)
        };
        let kids = [
            hot(0, 2, 4, 1),
            hot(1, 1, 1, 1),
            hot(2, 2, 2, 3),
            hot(3, 2, 2, 2),
        ];
        advise(parent, Some(5), &kids, true, &mut flags);
        assert_eq!(flags, [false, false, false, true]);
        advise(parent, Some(5), &kids, false, &mut flags);
        assert_eq!(flags, [true, false, true, true]);
        advise(parent, None, &[], true, &mut flags);
        assert!(flags.is_empty());
    }

    #[test]
    fn a_node_found_dead_once_popped_leaves_the_order_of_the_others_as_if_never_queued() {
        let (start, fewer, packed, top) =
            (cell_of(0, 2), cell_of(0, 1), cell_of(1, 3), cell_of(2, 1));
        assert!(rank(top) > rank(packed));
        // Live nodes, and nodes (id >= 100) found dead when popped: two in
        // cells with live ones, two in a cell of their own, the best one.
        let live = [
            (1, start, 1),
            (2, start, 2),
            (3, start, 3),
            (10, fewer, 0),
            (20, packed, 1),
            (21, packed, 2),
        ];
        let dead = [
            (100, start, 0),
            (101, packed, 0),
            (102, top, 0),
            (103, top, 1),
        ];
        for best_pops in [0, FORWARD_BEST, BACKWARD_BEST] {
            let mut with = FessQueue::new(best_pops, 0, 0, true);
            let mut without = FessQueue::new(best_pops, 0, 0, true);
            for &(id, cell, w) in &live {
                with.push(id, cell, w, 0);
                without.push(id, cell, w, 0);
            }
            for &(id, cell, w) in &dead {
                with.push(id, cell, w, 0);
            }
            let mut order = Vec::new();
            let mut again = false;
            while let Some(id) = if again {
                with.pop_again(unasked)
            } else {
                with.pop(unasked)
            } {
                again = id >= 100;
                if !again {
                    order.push(id);
                }
            }
            let expected: Vec<u32> = std::iter::from_fn(|| without.pop(unasked)).collect();
            assert_eq!(order, expected, "best pops: {best_pops}");
            assert!(with.is_empty());
        }
    }

    #[test]
    fn alternation_takes_every_other_node_from_the_best_cell() {
        let mut q = FessQueue::new(FORWARD_BEST, 0, 0, true);
        // Best: more boxes on goals; among equals, fewer regions.
        let (start, fewer, packed) = (cell_of(0, 2), cell_of(0, 1), cell_of(1, 3));
        assert!(rank(packed) > rank(fewer) && rank(fewer) > rank(start));
        for id in 1..=3 {
            q.push(id, start, id, 0);
        }
        q.push(10, fewer, 0, 0);
        q.push(20, packed, 0, 0);
        q.push(21, packed, 1, 0);
        // Odd pops visit the cells in turn (start, fewer, packed, ...);
        // even pops take the best cell (packed, then, once it is empty, the
        // best non-empty one: fewer, then start).
        let order: Vec<u32> = std::iter::from_fn(|| q.pop(unasked)).collect();
        assert_eq!(order, vec![1, 20, 10, 21, 2, 3]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_share_of_pops_from_the_best_cell_is_kept_in_every_sixteen() {
        let (start, packed) = (cell_of(0, 1), cell_of(1, 1));
        for best_pops in [0, 1, FORWARD_BEST, BACKWARD_BEST, BEST_OF, 40] {
            let mut q = FessQueue::new(best_pops, 0, 0, true);
            // Enough nodes in both cells that neither empties.
            for id in 0..100 {
                q.push(id, start, id, 0);
                q.push(1000 + id, packed, id, 0);
            }
            // Of every 16 pops, the share takes the best cell (`packed`);
            // the others visit the two cells in turn, `start` first.
            let in_turn = usize::from(BEST_OF - best_pops.min(BEST_OF));
            let mut turns = 0;
            for block in 0..4 {
                let from_start = (0..BEST_OF)
                    .filter(|_| q.pop(unasked).unwrap() < 1000)
                    .count();
                let expected = (turns + in_turn).div_ceil(2) - turns.div_ceil(2);
                assert_eq!(from_start, expected, "{best_pops} of 16, block {block}");
                turns += in_turn;
            }
        }
    }

    #[test]
    fn a_stalled_best_cell_gives_its_pops_to_the_cells_in_turn() {
        let (start, packed, more) = (cell_of(0, 1), cell_of(1, 1), cell_of(2, 1));
        let mut q = FessQueue::new(BEST_OF, 4, 0, true);
        for id in 0..20 {
            q.push(id, start, id, 0);
            q.push(100 + id, packed, id, 0);
        }
        // Every pop takes the best cell (`packed`) for 4 pops, then the
        // cells in turn (`start` first) while no cell is better.
        let order: Vec<u32> = (0..8).map(|_| q.pop(unasked).unwrap()).collect();
        assert_eq!(order, vec![100, 101, 102, 103, 0, 104, 1, 105]);
        // A node that makes another cell the best ends the stall: 4 pops
        // from the best cell (the new one; once it is empty, `packed`),
        // then the turns again.
        q.push(200, more, 0, 0);
        q.push(201, more, 1, 0);
        let order: Vec<u32> = (0..6).map(|_| q.pop(unasked).unwrap()).collect();
        assert_eq!(order, vec![200, 201, 106, 107, 2, 108]);
        // Without a stall limit the best cell keeps every pop.
        let mut q = FessQueue::new(BEST_OF, 0, 0, true);
        for id in 0..20 {
            q.push(id, start, id, 0);
            q.push(100 + id, packed, id, 0);
        }
        assert!((0..20).all(|_| q.pop(unasked).unwrap() >= 100));
    }

    #[test]
    fn greedy_pops_take_the_open_node_of_least_bound_of_all_the_cells() {
        use std::cell::RefCell;
        use std::collections::HashSet;
        let (a, b) = (cell_of(0, 1), cell_of(1, 1));
        // The nodes expanded so far: a pop expands its node.
        let closed = RefCell::new(HashSet::new());
        let is_closed = |id: u32| closed.borrow().contains(&id);
        let pop = |q: &mut FessQueue| {
            let id = q.pop(is_closed);
            closed.borrow_mut().extend(id);
            id
        };
        // No pops from the best cell; 4 of every 16 (the 4th, 8th, ...)
        // take the node of least bound.
        let mut q = FessQueue::new(0, 0, 4, true);
        for (id, cell, w, h) in [(1, a, 0, 9), (2, a, 1, 8), (3, a, 5, 0)] {
            q.push(id, cell, w, h);
        }
        for (id, cell, w, h) in [(4, b, 0, 7), (5, b, 1, 6), (6, b, 4, 0)] {
            q.push(id, cell, w, h);
        }
        // In turn a, b, a (least weight first); then the least bound of
        // all, the lesser weight first of two: 6 (weight 4) before 3.
        let order: Vec<_> = (0..4).map(|_| pop(&mut q)).collect();
        assert_eq!(order, [1, 4, 2, 6].map(Some));
        // Its cell still holds 6: a pop in turn gives it again (and the
        // searcher passes over it, as over every closed node).
        let order: Vec<_> = (0..3).map(|_| pop(&mut q)).collect();
        assert_eq!(order, [5, 3, 6].map(Some));
        // A node of least bound expanded since is passed over.
        q.push(7, a, 9, 1);
        q.push(8, b, 9, 2);
        closed.borrow_mut().insert(7);
        assert_eq!(pop(&mut q), Some(8), "the 8th pop: the least bound open");

        // Every other pop takes the least bound (the 2nd, 4th, ...).
        closed.borrow_mut().clear();
        let mut q = FessQueue::new(0, 0, 8, true);
        for (id, w, h) in [(1, 0, 9), (2, 1, 2), (3, 2, 1), (4, 2, 5)] {
            q.push(id, a, w, h);
        }
        assert_eq!(pop(&mut q), Some(1));
        // The least bound, 3, popped with its estimate and found to have
        // a bound of 7, goes back among the nodes by bound only: the same
        // pop goes on with 2.
        assert_eq!(q.pop(is_closed), Some(3));
        let len = q.len;
        q.push_back(3, a, 2, 7);
        assert_eq!(q.len, len, "its cell still holds it");
        assert_eq!(q.pop_again(is_closed), Some(2));
        closed.borrow_mut().insert(2);
        assert_eq!(pop(&mut q), Some(2), "the cell gives 2 again");
        assert_eq!(pop(&mut q), Some(4), "the least bound open: 4 (5), 3 (7)");
        assert_eq!(pop(&mut q), Some(3), "in its cell, by its estimate");
        // Without greedy pops, no node is queued by its bound.
        let mut q = FessQueue::new(0, 0, 0, true);
        q.push(1, a, 0, 0);
        assert!(q.least.is_empty());
    }

    #[test]
    fn children_of_greedy_pops_open_no_cell_far_below_the_best() {
        // Backward-style packing: boxes on start cells, then boxes near.
        let at = |starts: usize, near: usize| cell_of(packing_then(starts, near), 1);
        let (best, one_below, two_below) = (at(5, 0), at(4, 3), at(3, 0));
        let closed = |_: u32| false;
        // One pop of every 16 (the 16th, before the best cell's) takes
        // the least bound: the first 15 take the cells in turn.
        let mut q = FessQueue::new(1, 0, 1, true);
        q.push(1, best, 0, 9);
        q.push(2, at(4, 0), 0, 1);
        for _ in 0..15 {
            let id = q.pop(closed).expect("a node");
            q.push(id, best, 1, 9);
        }
        assert!(!q.last_least);
        // A child of a pop in turn opens a cell far below the best.
        assert!(q.adds_or_leads(two_below));
        q.push(3, two_below, 1, 1);
        assert!(q.slot_of.contains_key(&two_below));
        // The 16th pop takes the least bound: its children may open a
        // cell less than one start box below the best, but not further.
        let least = q.pop(closed).expect("a node");
        assert!(q.last_least, "node {least} popped by bound");
        q.push(4, one_below, 2, 0);
        q.push(5, at(2, 0), 2, 0);
        assert!(q.slot_of.contains_key(&one_below));
        assert!(!q.slot_of.contains_key(&at(2, 0)), "kept by bound only");
        // Into a cell already open, it goes as any node.
        q.push(6, two_below, 2, 0);
        assert_eq!(q.cells[q.slot_of[&two_below]].len(), 2);
        // Node 5 is in no cell, but a pop still gives it: by bound, or
        // once the cells are empty.
        let mut popped = Vec::new();
        while let Some(id) = q.pop(|id| popped.contains(&id)) {
            popped.push(id);
        }
        assert!(popped.contains(&5));
        assert!(q.least.is_empty() && q.is_empty());
        // Without `park`, the child of a pop of least bound opens its cell.
        let mut q = FessQueue::new(1, 0, 16, false);
        q.push(1, best, 0, 9);
        assert_eq!(q.pop(closed), Some(1));
        assert!(q.last_least);
        q.push(2, at(2, 0), 1, 0);
        assert!(q.slot_of.contains_key(&at(2, 0)));
    }

    #[test]
    fn the_opener_moves_the_box_nearest_the_next_cell_away_from_it() {
        // Cells 0..8 in a row; the plan's next cell is 0.
        let dist: Vec<u16> = (0..8).collect();
        let parent = cell_of(2, 3);
        let kid = |id, packed, regions, from, to| Child {
            id,
            cell: cell_of(packed, regions),
            hot: None,
            h: 0,
            from,
            to,
            dead: false,
        };
        let kids = [
            kid(0, 2, 3, 3, 6), // the farther box, away
            kid(1, 2, 3, 1, 2), // the nearest box, one step away
            kid(2, 2, 3, 1, 4), // the nearest box, three steps away: chosen
            kid(3, 2, 3, 1, 0), // the nearest box, onto the cell: not away
            kid(4, 1, 3, 1, 7), // loses packing
            kid(5, 2, 4, 1, 7), // adds a region
        ];
        assert_eq!(opener(parent, &kids, &dist), Some(2));
        assert_eq!(opener(parent, &kids[3..], &dist), None);
    }
}
