//! `bfs`: breadth-first search for a shortest winning action sequence, the
//! optimal reference for each level.
//!
//! # What is searched
//! Most actions of a Bait plan are walks over empty floor, which change
//! nothing but where the avatar stands. `bfs` searches over the other moves,
//! the *events* (pushing a box, taking the key, eating a mushroom, opening
//! the door), and joins them by shortest walks: a node is a position right
//! after an event, and its successors are every event the avatar can make
//! from there, each reached by a shortest walk over empty floor (found by a
//! breadth-first search of the floor) — an edge of `walk + 1` actions. Any
//! winning action sequence is such a chain of events and walks, and making
//! each walk a shortest one never lengthens it, so the shortest chain is a
//! shortest action sequence. A blocked push, a NIL and a walk into a hole
//! are never part of a shortest win and are not generated.
//!
//! # Order: breadth-first, in actions
//! Nodes are expanded in order of the number of actions from the root (a
//! bucket per action count: breadth-first search where an edge may be
//! several actions long), so the first win reached is a shortest one: the
//! search stops when every position fewer actions away has been expanded.
//!
//! # Pruning that cannot cut a shortest win
//! A position `g` actions from the root whose lower bound `h` on the
//! actions still needed (a walk over non-wall cells to a key, then to a
//! door; walls never move) gives `g + h` above the current bound `B` is
//! dropped. No position on a shortest win of length `L ≤ B` has
//! `g + h > L`, so a pass with bound `B` finds a shortest win whenever one of
//! length at most `B` exists. The first pass uses the root's own bound; a
//! pass that ends without a win is run again with `B` raised to the smallest
//! `g + h` it dropped (breadth-first iterative deepening, as in Zhou and
//! Hansen's breadth-first heuristic search). A pass that drops nothing and
//! finds no win has searched every reachable position: no win exists.
//!
//! # Memory
//! A node is 12 bytes (parent, action count, walk end, direction); its
//! position is rebuilt when it is expanded by replaying its events from the
//! root ([`Bait::walk_to`] and one move each), and the visited set holds
//! 64-bit position keys (32 bytes per entry at most half full). `max_nodes`
//! caps the positions of a pass (about 45 bytes each); a pass that needs
//! more ends the search as [`SearchState::Full`]. A pass uses only the part
//! of the table it expects to need (four times the previous pass's
//! positions) and runs again on a larger part if it outgrows it, so memory
//! is touched as used. GVGAI's level 3, the largest, needs 16.6 million
//! positions in its last pass (1.3 GB) for its 46-action win.

use super::heuristic::{walk_costs_from, Geometry, WalkCosts};
use super::search::{Pacer, Planner, SearchState};
use super::table::{Insert, KeyTable};
use games::bait::{Bait, BaitAction, BaitObject};
use games::{Game, Timer};
use std::collections::BinaryHeap;

/// The default cap on the positions of a pass: room for GVGAI's level 3
/// (16.6 million), about 1.5 GB when full.
pub const DEFAULT_MAX_NODES: usize = 32_000_000;
/// Positions the first pass makes room for (see [`KeyTable::reset`]).
const FIRST_PASS: usize = 1 << 16;
/// How often (in expanded nodes) the search reads the clock.
const POLL: u64 = 32;
/// No neighbour / unreachable.
const NONE: u16 = u16::MAX;
/// The four moves in the order of [`games::grid::neighbours`].
const DIRS: [BaitAction; 4] = [
    BaitAction::Up,
    BaitAction::Down,
    BaitAction::Left,
    BaitAction::Right,
];

/// One searched position: how it was reached from its parent.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The parent node (`u32::MAX` for the root).
    parent: u32,
    /// Actions from the root.
    g: u16,
    /// Where the walk from the parent's position ended.
    cell: u16,
    /// The event's move, an index into [`DIRS`].
    dir: u8,
}

/// Entries per chunk of a [`Bucket`] (64 KB).
const CHUNK: usize = 1 << 14;

/// A stack of node ids in fixed-size chunks: it grows without ever copying
/// (a `Vec` of millions of ids doubling mid-act would copy and fault in
/// tens of megabytes at once, past an act's budget).
#[derive(Default)]
struct Bucket {
    chunks: Vec<Vec<u32>>,
}

impl Bucket {
    fn push(&mut self, id: u32) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(id),
            _ => {
                let mut c = Vec::with_capacity(CHUNK);
                c.push(id);
                self.chunks.push(c);
            }
        }
    }

    fn pop(&mut self) -> Option<u32> {
        loop {
            let c = self.chunks.last_mut()?;
            if let Some(id) = c.pop() {
                return Some(id);
            }
            self.chunks.pop();
        }
    }

    fn clear(&mut self) {
        self.chunks.clear();
    }
}

/// The breadth-first planner.
pub struct Bfs {
    max_nodes: usize,
    root: Option<Bait>,
    visited: KeyTable,
    nodes: Vec<Node>,
    /// Nodes to expand, by action count; an entry whose node has since been
    /// reached in fewer actions is stale and skipped.
    buckets: Vec<Bucket>,
    /// The action count being expanded.
    g: usize,
    /// This pass's bound on `g + h`, and the smallest value above it seen.
    bound: u32,
    next_bound: u32,
    /// The shortest win generated in this pass (node id).
    win: Option<u32>,
    expanded: u64,
    /// Passes run in the current search (each with a larger bound).
    passes: u32,
    /// Passes run again on more of the table (they outgrew their estimate).
    regrown: u32,
    /// Positions the first pass makes room for ([`FIRST_PASS`]), and how
    /// many times the last pass's positions the next one makes room for.
    first_pass: usize,
    growth: usize,
    end: Option<SearchState>,
    /// Level geometry: per cell its four neighbours (`NONE` off the grid),
    /// the walk over non-wall cells to the nearest door, and via a key.
    nbr: Vec<[u16; 4]>,
    to_goal: Vec<u16>,
    via_key: Vec<u16>,
    /// Scratch for the floor walks and the replays.
    dist: Vec<u16>,
    from: Vec<u8>,
    queue: Vec<u16>,
    chain: Vec<u32>,
}

impl Bfs {
    /// A planner holding at most `max_nodes` positions per pass.
    pub fn new(max_nodes: usize) -> Self {
        let max_nodes = max_nodes.clamp(16, u32::MAX as usize / 2);
        Bfs {
            max_nodes,
            root: None,
            visited: KeyTable::new(max_nodes),
            // Reserved up front (virtual memory only) so no push reallocates mid-act.
            nodes: Vec::with_capacity(max_nodes + 1),
            buckets: Vec::new(),
            g: 0,
            bound: 0,
            next_bound: u32::MAX,
            win: None,
            expanded: 0,
            passes: 0,
            regrown: 0,
            first_pass: FIRST_PASS,
            growth: 4,
            end: None,
            nbr: Vec::new(),
            to_goal: Vec::new(),
            via_key: Vec::new(),
            dist: Vec::new(),
            from: Vec::new(),
            queue: Vec::new(),
            chain: Vec::new(),
        }
    }

    /// The lower bound on the actions `s` still needs to win (`u32::MAX`:
    /// walls cut it off from every key or door).
    fn h(&self, s: &Bait) -> u32 {
        self.h_at(s.avatar_cell(), s.has_key())
    }

    /// [`Bfs::h`] for the avatar on cell `a`, holding the key or not.
    #[inline]
    fn h_at(&self, a: usize, has_key: bool) -> u32 {
        let d = if has_key {
            self.to_goal[a]
        } else {
            self.via_key[a]
        };
        if d == NONE {
            u32::MAX
        } else {
            d as u32
        }
    }

    /// Per-cell neighbours and the two distance maps of the lower bound:
    /// walks over non-wall cells (every step costs 1, whatever is on the
    /// cell), to the nearest door, and to a key plus the walk on from it.
    fn measure(&mut self, root: &Bait) {
        let (w, h, n) = (root.width(), root.height(), root.cells());
        self.nbr.clear();
        self.nbr.extend(
            (0..n).map(|c| games::grid::neighbours(c, w, h).map(|x| x.map_or(NONE, |x| x as u16))),
        );
        let geometry = Geometry::new(root);
        let steps = WalkCosts { hole: 1, boxed: 1 };
        let mut heap = BinaryHeap::new();
        self.to_goal = vec![NONE; n];
        let goals = root.cells_with(BaitObject::Goal).map(|g| (g, 0));
        walk_costs_from(
            root,
            &geometry,
            steps,
            goals,
            false,
            &mut self.to_goal,
            &mut heap,
        );
        let keys = root
            .cells_with(BaitObject::Key)
            .filter(|&k| self.to_goal[k] != NONE)
            .map(|k| (k, self.to_goal[k]));
        self.via_key = vec![NONE; n];
        walk_costs_from(
            root,
            &geometry,
            steps,
            keys,
            false,
            &mut self.via_key,
            &mut heap,
        );
        self.dist = vec![NONE; n];
        self.from = vec![0; n];
        // `walk_floor` resets `dist` at the cells of the last walk: those
        // of another level may lie outside this one.
        self.queue.clear();
    }

    /// Start a pass with bound `bound` that expects about `expect` positions.
    fn start_pass(&mut self, bound: u32, expect: usize) {
        let root = self.root.as_ref().expect("reset before search");
        self.visited.reset(expect.max(self.first_pass));
        self.nodes.clear();
        for b in &mut self.buckets {
            b.clear();
        }
        if self.buckets.is_empty() {
            self.buckets.push(Bucket::default());
        }
        self.nodes.push(Node {
            parent: u32::MAX,
            g: 0,
            cell: root.avatar_cell() as u16,
            dir: 0,
        });
        let _ = self.visited.insert(root.key(), 0);
        self.buckets[0].push(0);
        self.g = 0;
        self.bound = bound;
        self.next_bound = u32::MAX;
        self.win = None;
        self.passes += 1;
    }

    /// Fill `chain` with node `id` and its ancestors up to the root
    /// (excluded), deepest first.
    fn collect_chain(&mut self, id: u32) {
        self.chain.clear();
        let mut i = id;
        while i != 0 {
            self.chain.push(i);
            i = self.nodes[i as usize].parent;
        }
    }

    /// The position of node `id`, rebuilt by replaying its events from the root.
    fn replay(&mut self, id: u32) -> Bait {
        self.collect_chain(id);
        let mut s = self.root.clone().expect("reset before search");
        for k in (0..self.chain.len()).rev() {
            self.apply(&mut s, self.chain[k]);
        }
        s
    }

    /// Play node `id`'s walk and event on its parent's position `s`.
    #[inline]
    fn apply(&self, s: &mut Bait, id: u32) {
        let node = self.nodes[id as usize];
        let walk = node.g - self.nodes[node.parent as usize].g - 1;
        if walk > 0 {
            let ok = s.walk_to(node.cell as usize, walk as u32);
            debug_assert!(ok, "replayed walk");
        }
        s.step_action(DIRS[node.dir as usize]);
    }

    /// Breadth-first search of the empty floor from the avatar: `dist` and
    /// `from` (the move that reached each cell) for the cells in `queue`.
    fn walk_floor(&mut self, s: &Bait) {
        for &c in &self.queue {
            self.dist[c as usize] = NONE;
        }
        self.queue.clear();
        let a = s.avatar_cell();
        self.dist[a] = 0;
        self.queue.push(a as u16);
        let mut i = 0;
        while i < self.queue.len() {
            let c = self.queue[i] as usize;
            i += 1;
            for (d, &nb) in self.nbr[c].iter().enumerate() {
                if nb != NONE && self.dist[nb as usize] == NONE && s.is_empty_floor(nb as usize) {
                    self.dist[nb as usize] = self.dist[c] + 1;
                    self.from[nb as usize] = d as u8;
                    self.queue.push(nb);
                }
            }
        }
    }

    /// Generate the successors of node `id` (position `s`); `Err` when the
    /// pass's memory cap is reached.
    fn expand(&mut self, id: u32, s: &Bait) -> Result<(), ()> {
        let g = self.nodes[id as usize].g as u32;
        self.walk_floor(s);
        for qi in 0..self.queue.len() {
            let c = self.queue[qi] as usize;
            let walk = self.dist[c] as u32;
            for (d, &dir) in DIRS.iter().enumerate() {
                let nb = self.nbr[c][d];
                if nb == NONE {
                    continue;
                }
                let nb = nb as usize;
                if s.is_empty_floor(nb)
                    || s.has(BaitObject::Wall, nb)
                    || s.has(BaitObject::Hole, nb)
                {
                    continue; // a walk, nothing, or death
                }
                let took = s.has(BaitObject::Key, nb);
                if s.has(BaitObject::Box, nb) {
                    // A push: nothing moves if the box is blocked.
                    let beyond = self.nbr[nb][d];
                    if beyond == NONE
                        || s.has(BaitObject::Wall, beyond as usize)
                        || s.has(BaitObject::Box, beyond as usize)
                        || s.has(BaitObject::Mushroom, beyond as usize)
                    {
                        continue;
                    }
                } else if s.has(BaitObject::Goal, nb) && !s.has_key() && !took {
                    continue; // the door is shut without the key
                }
                // The bound after the event, known before playing it: the
                // avatar ends on `nb` (or stays, pushing a box off a door
                // without the key) and holds the key if it had it or took it.
                let g2 = g + walk + 1;
                if g2 >= NONE as u32 {
                    continue; // beyond any step limit a level can have here
                }
                let stays = s.has(BaitObject::Goal, nb) && !s.has_key() && !took;
                let h = self.h_at(if stays { c } else { nb }, s.has_key() || took);
                if h == u32::MAX {
                    continue;
                }
                if g2 + h > self.bound {
                    self.next_bound = self.next_bound.min(g2 + h);
                    continue;
                }
                let mut t = s.clone();
                if walk > 0 && !t.walk_to(c, walk) {
                    continue; // the step limit comes first
                }
                let before = t.key();
                t.step_action(dir);
                if t.key() == before || (t.is_over() && !t.won()) {
                    continue;
                }
                debug_assert_eq!(h, self.h(&t), "the bound before and after the event");
                let node = Node {
                    parent: id,
                    g: g2 as u16,
                    cell: c as u16,
                    dir: d as u8,
                };
                let new = self.nodes.len() as u32;
                let slot = match self.visited.insert(t.key(), new) {
                    Insert::Full => return Err(()),
                    Insert::New => {
                        self.nodes.push(node);
                        new
                    }
                    Insert::Seen(old) => {
                        if self.nodes[old as usize].g as u32 <= g2 {
                            continue;
                        }
                        // Reached in fewer actions: not expanded yet (its
                        // action count is above the current one), so it can
                        // be re-linked in place; its old bucket entry goes stale.
                        self.nodes[old as usize] = node;
                        old
                    }
                };
                if t.won() {
                    let better = match self.win {
                        Some(w) => g2 < self.nodes[w as usize].g as u32,
                        None => true,
                    };
                    if better {
                        self.win = Some(slot);
                    }
                    continue;
                }
                let b = g2 as usize;
                if self.buckets.len() <= b {
                    self.buckets.resize_with(b + 1, Bucket::default);
                }
                self.buckets[b].push(slot);
            }
        }
        Ok(())
    }

    /// End the search with `end` (later calls return it again).
    fn finish(&mut self, end: SearchState) -> SearchState {
        self.end = Some(end.clone());
        end
    }

    /// The actions from the root to node `id`.
    fn plan(&mut self, id: u32) -> Vec<BaitAction> {
        self.collect_chain(id);
        let chain = std::mem::take(&mut self.chain);
        let mut s = self.root.clone().expect("reset before search");
        let mut plan = Vec::new();
        for &i in chain.iter().rev() {
            let node = self.nodes[i as usize];
            self.walk_floor(&s);
            let mut walk = Vec::new();
            let mut c = node.cell as usize;
            while c != s.avatar_cell() {
                let d = self.from[c] as usize;
                walk.push(DIRS[d]);
                // Step back against the move: up<->down, left<->right.
                c = self.nbr[c][d ^ 1] as usize;
            }
            for &a in walk.iter().rev() {
                s.step_action(a);
                plan.push(a);
            }
            let a = DIRS[node.dir as usize];
            s.step_action(a);
            plan.push(a);
        }
        debug_assert!(s.won(), "bfs's plan wins");
        self.chain = chain;
        plan
    }
}

impl Planner for Bfs {
    fn reset(&mut self, root: &Bait) {
        self.end = None;
        self.passes = 0;
        self.regrown = 0;
        let same_level = self.root.as_ref().is_some_and(|r| {
            r.width() == root.width()
                && r.height() == root.height()
                && (0..r.cells()).all(|c| {
                    r.has(BaitObject::Wall, c) == root.has(BaitObject::Wall, c)
                        && r.has(BaitObject::Goal, c) == root.has(BaitObject::Goal, c)
                        && r.has(BaitObject::Key, c) == root.has(BaitObject::Key, c)
                })
        });
        self.root = Some(root.clone());
        if !same_level {
            self.measure(root);
        }
        let h = self.h(root);
        if root.is_over() || h == u32::MAX {
            self.finish(SearchState::Exhausted);
            return;
        }
        self.start_pass(h, self.first_pass);
    }

    fn search(&mut self, timer: &dyn Timer, pacer: &mut Pacer) -> SearchState {
        if let Some(end) = &self.end {
            return end.clone();
        }
        let mut polled = 0u64;
        loop {
            let next = self.buckets.get_mut(self.g).and_then(Bucket::pop);
            if next.is_none() && self.g + 1 < self.buckets.len() {
                self.g += 1;
                continue;
            }
            if let Some(w) = self.win {
                // Done once every position fewer actions away than the win
                // has been expanded, or nothing is left to expand.
                if next.is_none() || self.g >= self.nodes[w as usize].g as usize {
                    let plan = self.plan(w);
                    return self.finish(SearchState::Found(plan));
                }
            }
            let Some(id) = next else {
                // The pass is over without a win.
                if self.next_bound == u32::MAX {
                    return self.finish(SearchState::Exhausted);
                }
                // Passes grow about three-fold per bound step.
                let (bound, expect) = (
                    self.next_bound,
                    self.nodes.len().saturating_mul(self.growth),
                );
                self.start_pass(bound, expect);
                continue;
            };
            if self.nodes[id as usize].g as usize != self.g {
                continue; // reached in fewer actions since it was queued
            }
            polled += 1;
            if polled.is_multiple_of(POLL) && pacer.expired(timer) {
                // Put it back: the next call expands it first.
                self.buckets[self.g].push(id);
                return SearchState::Searching;
            }
            self.expanded += 1;
            let s = self.replay(id);
            if self.expand(id, &s).is_err() {
                if self.visited.max_len() >= self.max_nodes {
                    return self.finish(SearchState::Full);
                }
                // More than expected: run the pass again on more of the table.
                let more = self.visited.max_len().saturating_mul(self.growth.max(2));
                let bound = self.bound;
                self.passes -= 1;
                self.regrown += 1;
                self.start_pass(bound, more);
            }
        }
    }

    fn expanded(&self) -> u64 {
        self.expanded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::UnlimitedTimer;

    fn solve(mut bfs: Bfs, s: &Bait) -> (Vec<BaitAction>, Bfs) {
        bfs.reset(s);
        let mut pacer = Pacer::default();
        pacer.start(&UnlimitedTimer);
        match bfs.search(&UnlimitedTimer, &mut pacer) {
            SearchState::Found(plan) => (plan, bfs),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn passes_that_outgrow_their_table_run_again_with_the_same_result() {
        let s = Bait::level(2).unwrap();
        let (plan, big) = solve(Bfs::new(1 << 20), &s);
        let mut small = Bfs::new(1 << 20);
        small.first_pass = 16;
        small.growth = 1;
        let (plan2, small) = solve(small, &s);
        assert_eq!(plan, plan2);
        assert_eq!(big.regrown, 0);
        assert!(small.regrown > 0);
        assert_eq!(small.passes, big.passes);
        assert!(big.passes > 1, "level 2 needs several bounds");
    }
}
