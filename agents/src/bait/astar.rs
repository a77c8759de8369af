//! `astar`: best-first search ordered by `f = g + weight · h` with the
//! richer heuristic of report Task 3 ([`astar_estimate`]) and a
//! transposition table keyed by the position's 64-bit key.
//!
//! `g` is the number of actions from the root, `h` the estimate of the
//! actions still needed: the walking distance to the key and then the door
//! (boxes and holes on the way cost extra), less a bonus for score and for
//! nearby boxes that are free to move, next to a hole, or one push from
//! filling one, plus a penalty for a box on the key and for the distance to
//! the nearest box. The estimate is not admissible and `weight > 1` makes
//! the search greedier still: plans are short, not shortest (`bfs` is the
//! optimal reference).
//!
//! Ties on `f` go to the larger `g` (deeper first), then to the earlier
//! node, so runs are reproducible. A position reached again by a shorter
//! path is re-queued with the better `g`; stale queue entries are skipped.
//! Successors are tested for a win when generated.
//!
//! Memory: at most `max_nodes` positions in the table (with parent links),
//! and the states of queued positions (about 430 bytes each, at most half of
//! `max_nodes`; a state is freed when its node is expanded). When either cap
//! is reached, [`Planner::partial`] offers the path to the position with the
//! lowest estimate seen, among positions no search has started from; the
//! agent plays it and searches again from there (so it never starts twice
//! from the same position, and cannot cycle).

use super::heuristic::{astar_estimate, AstarWeights, MapCache, WalkCosts};
use super::search::{Pacer, Planner, SearchState, POLL};
use super::table::{Insert, KeyTable};
use games::bait::{Bait, BaitAction};
use games::{Game, Timer};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// Fixed-point scale of `f` in the queue.
const SCALE: f64 = 1024.0;

#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    action: BaitAction,
    g: u32,
}

/// Queue entry: lowest `f` first, then highest `g`, then lowest node index.
type Entry = (Reverse<i64>, u32, Reverse<u32>, u32);

/// The A* planner.
pub struct Astar {
    weight: f64,
    weights: AstarWeights,
    costs: WalkCosts,
    max_nodes: usize,
    maps: Option<MapCache>,
    table: KeyTable,
    nodes: Vec<Node>,
    /// States of queued nodes, by slot; `free` lists reusable slots.
    slab: Vec<Bait>,
    free: Vec<u32>,
    max_slab: usize,
    /// (f, g, node, slab slot).
    open: BinaryHeap<Entry>,
    /// The node with the lowest estimate so far among positions that have
    /// not been a search root, and that estimate (for [`Planner::partial`]).
    best: (f64, u32),
    /// Keys of the positions searches were started from.
    roots: HashSet<u64>,
    expanded: u64,
    end: Option<SearchState>,
}

impl Astar {
    /// A planner with `f = g + weight · h`, heuristic weights `weights`,
    /// walking costs `costs`, holding at most `max_nodes` positions.
    pub fn new(weight: f64, weights: AstarWeights, costs: WalkCosts, max_nodes: usize) -> Self {
        let max_nodes = max_nodes.clamp(16, u32::MAX as usize / 2);
        let max_slab = (max_nodes / 2).max(16);
        Astar {
            weight,
            weights,
            costs,
            max_nodes,
            maps: None,
            table: KeyTable::new(max_nodes),
            nodes: Vec::with_capacity(max_nodes + 1),
            slab: Vec::with_capacity(max_slab),
            free: Vec::new(),
            max_slab,
            open: BinaryHeap::with_capacity(max_nodes),
            best: (f64::INFINITY, 0),
            roots: HashSet::new(),
            expanded: 0,
            end: None,
        }
    }

    fn path(&self, mut i: u32) -> Vec<BaitAction> {
        let mut path = Vec::new();
        while self.nodes[i as usize].parent != u32::MAX {
            path.push(self.nodes[i as usize].action);
            i = self.nodes[i as usize].parent;
        }
        path.reverse();
        path
    }

    fn store(&mut self, s: Bait) -> Option<u32> {
        if let Some(slot) = self.free.pop() {
            self.slab[slot as usize] = s;
            return Some(slot);
        }
        if self.slab.len() >= self.max_slab {
            return None;
        }
        self.slab.push(s);
        Some(self.slab.len() as u32 - 1)
    }

    fn push(&mut self, node: u32, g: u32, h: f64, slot: u32) {
        let f = g as f64 + self.weight * h;
        self.open
            .push((Reverse((f * SCALE) as i64), g, Reverse(node), slot));
    }
}

impl Planner for Astar {
    fn reset(&mut self, root: &Bait) {
        let same_level = self
            .maps
            .as_ref()
            .is_some_and(|m| m.geometry().same_level(root));
        if !same_level {
            self.maps = Some(MapCache::new(root, self.costs, 64 << 20));
        }
        self.table.clear();
        self.nodes.clear();
        self.slab.clear();
        self.free.clear();
        self.open.clear();
        self.end = None;
        self.nodes.push(Node {
            parent: u32::MAX,
            action: BaitAction::Nil,
            g: 0,
        });
        let _ = self.table.insert(root.key(), 0);
        self.roots.insert(root.key());
        self.best = (f64::INFINITY, 0);
        if root.is_over() {
            self.end = Some(SearchState::Exhausted);
            return;
        }
        let maps = self.maps.as_mut().expect("maps were just made");
        let h = astar_estimate(root, maps, &self.weights);
        let slot = self.store(root.clone()).expect("an empty slab has room");
        self.push(0, 0, h, slot);
    }

    fn search(&mut self, timer: &dyn Timer, pacer: &mut Pacer) -> SearchState {
        if let Some(end) = &self.end {
            return end.clone();
        }
        let mut polled = 0u64;
        loop {
            polled += 1;
            if polled.is_multiple_of(POLL / 4) && pacer.expired(timer) {
                return SearchState::Searching;
            }
            let Some((_, g, Reverse(node), slot)) = self.open.pop() else {
                self.end = Some(SearchState::Exhausted);
                return SearchState::Exhausted;
            };
            self.free.push(slot);
            if self.nodes[node as usize].g != g {
                continue; // reached again by a shorter path since it was queued
            }
            self.expanded += 1;
            let state = self.slab[slot as usize].clone();
            for a in BaitAction::MOVES {
                let mut next = state.clone();
                next.advance(&[a]);
                if next.won() {
                    let mut plan = self.path(node);
                    plan.push(a);
                    self.end = Some(SearchState::Found(plan.clone()));
                    return SearchState::Found(plan);
                }
                if next.is_over() {
                    continue;
                }
                let g2 = g + 1;
                let id = self.nodes.len() as u32;
                let target = match self.table.insert(next.key(), id) {
                    Insert::New => {
                        if self.nodes.len() > self.max_nodes {
                            self.end = Some(SearchState::Full);
                            return SearchState::Full;
                        }
                        self.nodes.push(Node {
                            parent: node,
                            action: a,
                            g: g2,
                        });
                        id
                    }
                    Insert::Seen(old) => {
                        let n = &mut self.nodes[old as usize];
                        if n.g <= g2 {
                            continue;
                        }
                        *n = Node {
                            parent: node,
                            action: a,
                            g: g2,
                        };
                        old
                    }
                    Insert::Full => {
                        self.end = Some(SearchState::Full);
                        return SearchState::Full;
                    }
                };
                let maps = self.maps.as_mut().expect("reset made the maps");
                let h = astar_estimate(&next, maps, &self.weights);
                if h < self.best.0 && !self.roots.contains(&next.key()) {
                    self.best = (h, target);
                }
                let Some(slot) = self.store(next) else {
                    self.end = Some(SearchState::Full);
                    return SearchState::Full;
                };
                self.push(target, g2, h, slot);
            }
        }
    }

    fn expanded(&self) -> u64 {
        self.expanded
    }

    fn partial(&mut self) -> Option<Vec<BaitAction>> {
        if self.best.0 == f64::INFINITY {
            return None;
        }
        let p = self.path(self.best.1);
        (!p.is_empty()).then_some(p)
    }
}
