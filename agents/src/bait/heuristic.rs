//! Heuristics of the Bait search agents: walking-distance maps to the key and
//! the door, the depth-limited search's leaf value (report Task 2) and the
//! A* estimate with the box terms of report Task 3.
//!
//! # Walking distance
//! The distance the agents use is not the straight line of the reports but
//! the cost of the cheapest walk on the board, where walls block, the door
//! blocks before the key is taken (GVGAI steps a keyless avatar back), and
//! the obstacles the avatar has to deal with on the way cost extra: entering
//! a box cell costs `box_cost` (it must be pushed aside), entering a hole
//! `hole_cost` (a box must be brought and pushed in first), anything else 1.
//! It is computed backwards from the targets with Dijkstra's algorithm, once
//! per board (boxes, holes, keys, goals, mushrooms): positions that differ
//! only in where the avatar stands share the maps, kept in a [`MapCache`]
//! keyed by [`Bait::board_key`].

use super::table::{Insert, KeyTable};
use games::bait::{Bait, BaitObject};
use games::grid;
use games::Game;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// "Unreachable" in a distance map.
pub const FAR: u16 = u16::MAX;

/// Maps per board in a [`MapCache`] slot.
const MAPS: usize = 4;

/// The costs of the walking distance (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkCosts {
    /// Cost of entering a hole cell.
    pub hole: u16,
    /// Cost of entering a box cell.
    pub boxed: u16,
}

impl Default for WalkCosts {
    fn default() -> Self {
        WalkCosts { hole: 6, boxed: 3 }
    }
}

/// The level's fixed geometry: which neighbours of each cell are not walls.
#[derive(Clone, Debug)]
pub struct Geometry {
    width: usize,
    height: usize,
    cells: usize,
    /// Up to 4 non-wall neighbours per cell (`u16::MAX` = none).
    neighbours: Vec<[u16; 4]>,
    /// Column and row of each cell (no division in the inner loops).
    col: Vec<u16>,
    row: Vec<u16>,
}

impl Geometry {
    /// The geometry of `s`'s level (walls never change).
    pub fn new(s: &Bait) -> Self {
        let (w, h) = (s.width(), s.height());
        let mut neighbours = vec![[u16::MAX; 4]; w * h];
        for (i, nb) in neighbours.iter_mut().enumerate() {
            let open = grid::neighbours(i, w, h)
                .into_iter()
                .flatten()
                .filter(|&j| !s.has(BaitObject::Wall, j));
            for (slot, j) in nb.iter_mut().zip(open) {
                *slot = j as u16;
            }
        }
        Geometry {
            width: w,
            height: h,
            cells: w * h,
            neighbours,
            col: (0..w * h).map(|i| (i % w) as u16).collect(),
            row: (0..w * h).map(|i| (i / w) as u16).collect(),
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Whether `s` is a position of the level this geometry was made from
    /// (same size and walls).
    pub fn same_level(&self, s: &Bait) -> bool {
        s.width() == self.width
            && s.cells() == self.cells
            && Geometry::new(s).neighbours == self.neighbours
    }

    /// Manhattan distance between two cells.
    #[inline]
    pub fn manhattan(&self, a: usize, b: usize) -> usize {
        (self.col[a].abs_diff(self.col[b]) + self.row[a].abs_diff(self.row[b])) as usize
    }

    /// The cell at `cell`'s column and row offset by `(dc, dr)`, if on the grid.
    #[inline]
    fn offset(&self, cell: usize, dc: i32, dr: i32) -> Option<usize> {
        let c = self.col[cell] as i32 + dc;
        let r = self.row[cell] as i32 + dr;
        (c >= 0 && r >= 0 && c < self.width as i32 && r < self.height as i32)
            .then(|| r as usize * self.width + c as usize)
    }
}

/// Distance maps of one board, cached by board key.
#[derive(Debug)]
pub struct MapCache {
    costs: WalkCosts,
    geometry: Geometry,
    index: KeyTable,
    /// Per slot ([`MAPS`] maps of `cells` entries, then the key-to-door
    /// distance): walking cost to the key, to the door, Manhattan distance
    /// to the nearest hole and to the nearest box.
    data: Vec<u16>,
    slots: usize,
    max_slots: usize,
    heap: BinaryHeap<Reverse<(u16, u16)>>,
    /// Maps computed (cache misses).
    pub computed: u64,
}

/// The maps of one board (see [`MapCache`]), indexed by cell.
#[derive(Clone, Copy, Debug)]
pub struct BoardMaps<'a> {
    /// Walking cost to the nearest key.
    pub key: &'a [u16],
    /// Walking cost to the nearest door.
    pub goal: &'a [u16],
    /// Manhattan distance to the nearest hole (`FAR` if none).
    pub hole: &'a [u16],
    /// Manhattan distance to the nearest box (`FAR` if none).
    pub boxed: &'a [u16],
    /// Walking cost from the nearest key to the nearest door.
    pub key_to_goal: u16,
}

/// The distances a heuristic needs from one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distances {
    /// Cost from the avatar to the nearest key (`FAR` if unreachable or none).
    pub to_key: u32,
    /// Cost from the avatar to the nearest door.
    pub to_goal: u32,
    /// Cost from the nearest key to the nearest door.
    pub key_to_goal: u32,
}

impl Distances {
    /// What is left to walk: to the door with the key, else to the key and
    /// then the door. Unreachable counts as `far`.
    pub fn remaining(&self, has_key: bool, far: u32) -> u32 {
        let cap = |d: u32| if d >= FAR as u32 { far } else { d };
        if has_key {
            cap(self.to_goal)
        } else {
            cap(self.to_key)
                .saturating_add(cap(self.key_to_goal))
                .min(far)
        }
    }
}

impl MapCache {
    /// A cache for `s`'s level holding at most about `max_bytes` of maps.
    pub fn new(s: &Bait, costs: WalkCosts, max_bytes: usize) -> Self {
        let geometry = Geometry::new(s);
        let stride = MAPS * geometry.cells + 1;
        let max_slots = (max_bytes / (2 * stride)).clamp(16, 1 << 20);
        MapCache {
            costs,
            geometry,
            index: KeyTable::new(max_slots),
            // Reserved up front (virtual memory only): no reallocation mid-act.
            data: Vec::with_capacity(max_slots * stride),
            slots: 0,
            max_slots,
            heap: BinaryHeap::new(),
            computed: 0,
        }
    }

    /// The level geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The walking costs.
    pub fn costs(&self) -> WalkCosts {
        self.costs
    }

    /// The distances from `s`'s avatar.
    pub fn distances(&mut self, s: &Bait) -> Distances {
        let a = s.avatar_cell();
        let (_, m) = self.maps(s);
        Distances {
            to_key: m.key[a] as u32,
            to_goal: m.goal[a] as u32,
            key_to_goal: m.key_to_goal as u32,
        }
    }

    /// The level geometry and the maps of `s`'s board (computed on first use).
    pub fn maps(&mut self, s: &Bait) -> (&Geometry, BoardMaps<'_>) {
        let cells = self.geometry.cells;
        let stride = MAPS * cells + 1;
        let slot = match self.index.insert(s.board_key(), self.slots as u32) {
            Insert::Seen(slot) => slot as usize,
            Insert::New => {
                let slot = self.slots;
                self.slots += 1;
                self.fill(s, slot);
                slot
            }
            Insert::Full => {
                // Start the cache afresh (O(1)); the slot storage is reused.
                self.index.clear();
                self.slots = 0;
                let _ = self.index.insert(s.board_key(), 0);
                self.slots = 1;
                self.fill(s, 0);
                0
            }
        };
        debug_assert!(self.slots <= self.max_slots);
        let d = &self.data[slot * stride..(slot + 1) * stride];
        (
            &self.geometry,
            BoardMaps {
                key: &d[..cells],
                goal: &d[cells..2 * cells],
                hole: &d[2 * cells..3 * cells],
                boxed: &d[3 * cells..4 * cells],
                key_to_goal: d[4 * cells],
            },
        )
    }

    fn fill(&mut self, s: &Bait, slot: usize) {
        self.computed += 1;
        let cells = self.geometry.cells;
        let stride = MAPS * cells + 1;
        if self.data.len() < (slot + 1) * stride {
            self.data.resize((slot + 1) * stride, FAR);
        }
        let base = slot * stride;
        let (maps, rest) = self.data[base..base + stride].split_at_mut(MAPS * cells);
        let (key_map, maps) = maps.split_at_mut(cells);
        let (goal_map, maps) = maps.split_at_mut(cells);
        let (hole_map, box_map) = maps.split_at_mut(cells);
        nearest(s, &self.geometry, BaitObject::Hole, hole_map);
        nearest(s, &self.geometry, BaitObject::Box, box_map);
        dijkstra(
            s,
            &self.geometry,
            self.costs,
            BaitObject::Key,
            true,
            key_map,
            &mut self.heap,
        );
        dijkstra(
            s,
            &self.geometry,
            self.costs,
            BaitObject::Goal,
            false,
            goal_map,
            &mut self.heap,
        );
        rest[0] = s
            .cells_with(BaitObject::Key)
            .map(|k| goal_map[k])
            .min()
            .unwrap_or(FAR);
    }
}

/// `out[c]`: Manhattan distance from `c` to the nearest cell holding `what`
/// (`FAR` if none), by two sweeps of the grid.
fn nearest(s: &Bait, g: &Geometry, what: BaitObject, out: &mut [u16]) {
    let (w, h) = (g.width, g.height);
    for (i, o) in out.iter_mut().enumerate() {
        *o = if s.has(what, i) { 0 } else { FAR };
    }
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            let mut v = out[i];
            if r > 0 {
                v = v.min(out[i - w].saturating_add(1));
            }
            if c > 0 {
                v = v.min(out[i - 1].saturating_add(1));
            }
            out[i] = v;
        }
    }
    for r in (0..h).rev() {
        for c in (0..w).rev() {
            let i = r * w + c;
            let mut v = out[i];
            if r + 1 < h {
                v = v.min(out[i + w].saturating_add(1));
            }
            if c + 1 < w {
                v = v.min(out[i + 1].saturating_add(1));
            }
            out[i] = v;
        }
    }
}

/// Backwards Dijkstra from every cell holding `target`: `out[c]` is the cost
/// of the cheapest walk from `c` to a target (see the module docs).
fn dijkstra(
    s: &Bait,
    g: &Geometry,
    costs: WalkCosts,
    target: BaitObject,
    door_blocks: bool,
    out: &mut [u16],
    heap: &mut BinaryHeap<Reverse<(u16, u16)>>,
) {
    let targets = s.cells_with(target).map(|t| (t, 0));
    walk_costs_from(s, g, costs, targets, door_blocks, out, heap);
}

/// Backwards Dijkstra from `sources`, each `(cell, cost already spent
/// there)`: `out[c]` is the least of a source's cost plus the cheapest walk
/// from `c` to it (walking costs as in the module docs; `FAR` where no
/// source is reachable).
pub(crate) fn walk_costs_from(
    s: &Bait,
    g: &Geometry,
    costs: WalkCosts,
    sources: impl IntoIterator<Item = (usize, u16)>,
    door_blocks: bool,
    out: &mut [u16],
    heap: &mut BinaryHeap<Reverse<(u16, u16)>>,
) {
    out.fill(FAR);
    heap.clear();
    for (t, d) in sources {
        if d < out[t] {
            out[t] = d;
            heap.push(Reverse((d, t as u16)));
        }
    }
    while let Some(Reverse((d, u))) = heap.pop() {
        let u = u as usize;
        if d > out[u] {
            continue;
        }
        // Walking from a neighbour into `u` costs entering `u`.
        let enter = if s.has(BaitObject::Hole, u) {
            costs.hole
        } else if s.has(BaitObject::Box, u) {
            costs.boxed
        } else {
            1
        };
        let nd = d.saturating_add(enter);
        for &v in &g.neighbours[u] {
            if v == u16::MAX {
                break;
            }
            let v = v as usize;
            if door_blocks && s.has(BaitObject::Goal, v) {
                continue;
            }
            if nd < out[v] {
                out[v] = nd;
                heap.push(Reverse((nd, v as u16)));
            }
        }
    }
}

/// Whether a box could be pushed into `cell` (not wall, box, mushroom).
#[inline]
fn box_can_enter(s: &Bait, cell: usize) -> bool {
    !(s.has(BaitObject::Wall, cell)
        || s.has(BaitObject::Box, cell)
        || s.has(BaitObject::Mushroom, cell))
}

/// Whether the avatar could stand on `cell` to push (not wall, box, hole).
#[inline]
fn avatar_can_stand(s: &Bait, cell: usize) -> bool {
    !(s.has(BaitObject::Wall, cell)
        || s.has(BaitObject::Box, cell)
        || s.has(BaitObject::Hole, cell))
}

/// The box features of report Task 3, counted over the boxes within
/// Manhattan distance 2 of the avatar (the ones the next move or two can
/// affect), plus two global ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoxFeatures {
    /// Axes (horizontal, vertical) of nearby boxes with both sides open: the
    /// box can still be pushed either way along it ("freedom").
    pub free_axes: u32,
    /// Holes next to nearby boxes.
    pub holes_next: u32,
    /// Nearby boxes with a hole on one side and a cell the avatar can stand
    /// on opposite: one push fills the hole.
    pub push_ready: u32,
    /// Sum over nearby boxes of the Manhattan distance to the nearest hole.
    pub box_hole_dist: u32,
    /// Whether a box stands on the key the avatar still needs.
    pub box_on_key: bool,
    /// Manhattan distance from the avatar to the nearest box (0 if none).
    pub nearest_box: u32,
}

/// The cells within Manhattan distance 2 of a cell, as offsets.
const NEAR: [(i32, i32); 12] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-2, 0),
    (2, 0),
    (0, -2),
    (0, 2),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// Count [`BoxFeatures`] in `s`, whose board maps are `m`.
pub fn box_features(s: &Bait, g: &Geometry, m: &BoardMaps) -> BoxFeatures {
    let mut f = BoxFeatures::default();
    let a = s.avatar_cell();
    f.nearest_box = if m.boxed[a] == FAR {
        0
    } else {
        m.boxed[a] as u32
    };
    f.box_on_key = !s.has_key()
        && s.cells_with(BaitObject::Key)
            .any(|k| s.has(BaitObject::Box, k));
    if f.nearest_box > 2 || f.nearest_box == 0 {
        return f;
    }
    let any_holes = m.hole[a] != FAR;
    for (dc, dr) in NEAR {
        let Some(b) = g.offset(a, dc, dr) else {
            continue;
        };
        if !s.has(BaitObject::Box, b) {
            continue;
        }
        for (dc, dr) in [(1, 0), (0, 1)] {
            let p = g.offset(b, dc, dr);
            let q = g.offset(b, -dc, -dr);
            if let (Some(p), Some(q)) = (p, q) {
                let open = |c| box_can_enter(s, c) && !s.has(BaitObject::Hole, c);
                if open(p) && open(q) {
                    f.free_axes += 1;
                }
                if (s.has(BaitObject::Hole, p) && avatar_can_stand(s, q))
                    || (s.has(BaitObject::Hole, q) && avatar_can_stand(s, p))
                {
                    f.push_ready += 1;
                }
            }
            for c in [p, q].into_iter().flatten() {
                if s.has(BaitObject::Hole, c) {
                    f.holes_next += 1;
                }
            }
        }
        if any_holes {
            f.box_hole_dist += m.hole[b] as u32;
        }
    }
    f
}

/// Weights of the A* estimate (in moves; see [`astar_estimate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AstarWeights {
    /// Per unit of walking distance to the key and door.
    pub dist: f64,
    /// Per point of game score (negative: score is good).
    pub score: f64,
    /// Per free box axis (negative: freedom is good).
    pub free: f64,
    /// Per hole next to a nearby box.
    pub hole_next: f64,
    /// Per nearby box one push away from filling a hole.
    pub push_ready: f64,
    /// Per unit of nearby-box-to-hole distance.
    pub box_hole: f64,
    /// When a box stands on the key the avatar needs.
    pub box_on_key: f64,
    /// Per unit of distance to the nearest box.
    pub nearest_box: f64,
}

impl Default for AstarWeights {
    fn default() -> Self {
        AstarWeights {
            dist: 1.0,
            score: -0.5,
            free: -0.1,
            hole_next: -0.1,
            push_ready: -0.3,
            box_hole: 0.02,
            box_on_key: 4.0,
            nearest_box: 0.05,
        }
    }
}

/// Walking distance assumed when the key or door cannot be reached at all
/// on this board (more than any real walk on a 512-cell level).
pub const UNREACHABLE: u32 = 4000;

/// The A* estimate of the moves still needed from `s` (lower is better):
/// the walking distance to the key and then the door, adjusted by the score
/// and the box features of report Task 3. Not admissible: A* with it is a
/// best-first search that prefers short plans, not an optimal one.
pub fn astar_estimate(s: &Bait, maps: &mut MapCache, w: &AstarWeights) -> f64 {
    if s.won() {
        return 0.0;
    }
    let d = maps.distances(s).remaining(s.has_key(), UNREACHABLE) as f64;
    let (geometry, m) = maps.maps(s);
    let f = box_features(s, geometry, &m);
    let v = w.dist * d
        + w.score * s.int_score() as f64
        + w.free * f.free_axes as f64
        + w.hole_next * f.holes_next as f64
        + w.push_ready * f.push_ready as f64
        + w.box_hole * f.box_hole_dist as f64
        + if f.box_on_key { w.box_on_key } else { 0.0 }
        + w.nearest_box * f.nearest_box as f64;
    v.max(0.0)
}

/// The depth-limited search's value of a leaf (report Task 2; higher is
/// better): a win is worth everything (sooner is better), a loss nothing;
/// otherwise 100 per point of score, 500 for holding the key, minus 100,000
/// for a box on the key still needed, minus 10 per unit of walking distance
/// to the key (before it is taken) or the door (after).
pub fn dls_value(s: &Bait, maps: &mut MapCache, depth: u32) -> f64 {
    if s.is_over() {
        return if s.won() { 1e9 - depth as f64 } else { -1e9 };
    }
    let d = maps.distances(s);
    let dist = if s.has_key() { d.to_goal } else { d.to_key };
    let dist = if dist >= FAR as u32 {
        UNREACHABLE
    } else {
        dist
    };
    let box_on_key = !s.has_key()
        && s.cells_with(BaitObject::Key)
            .any(|k| s.has(BaitObject::Box, k));
    100.0 * s.int_score() as f64 + if s.has_key() { 500.0 } else { 0.0 }
        - if box_on_key { 100_000.0 } else { 0.0 }
        - 10.0 * dist as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walking_distance_counts_walls_door_boxes_and_holes() {
        // Straight corridor: key 2 steps right, door 1 more.
        let s = Bait::parse("wwwwww\nwA.kgw\nwwwwww").unwrap();
        let mut m = MapCache::new(&s, WalkCosts::default(), 1 << 20);
        let d = m.distances(&s);
        assert_eq!((d.to_key, d.to_goal, d.key_to_goal), (2, 3, 1));
        assert_eq!(d.remaining(false, 99), 3);
        // The door blocks the way to the key before the key is taken.
        let s = Bait::parse("wwwwww\nwAgk.w\nwwwwww").unwrap();
        let mut m = MapCache::new(&s, WalkCosts::default(), 1 << 20);
        assert_eq!(m.distances(&s).to_key, FAR as u32);
        assert_eq!(m.distances(&s).remaining(false, 99), 99);
        // A box costs 3 to walk through, a hole 6.
        let s = Bait::parse("wwwwwww\nwA10kgw\nwwwwwww").unwrap();
        let mut m = MapCache::new(&s, WalkCosts::default(), 1 << 20);
        assert_eq!(m.distances(&s).to_key, 3 + 6 + 1);
        // Same board, avatar elsewhere: served from the cache.
        let s = Bait::parse("wwwwwww\nwA10kgw\nw.....w\nwwwwwww").unwrap();
        let mut m = MapCache::new(&s, WalkCosts::default(), 1 << 20);
        let _ = m.distances(&s);
        let mut t = s.clone();
        t.step_action(games::bait::BaitAction::Down);
        assert_eq!(m.distances(&t).to_key, 4);
        assert_eq!(m.computed, 1);
    }

    #[test]
    fn box_features_see_a_push_into_a_hole() {
        // Avatar left of a box, hole right of it: one push fills the hole.
        let s = Bait::parse("wwwwwww\nwA10kgw\nw.....w\nwwwwwww").unwrap();
        let mut m = MapCache::new(&s, WalkCosts::default(), 1 << 20);
        let (g, maps) = m.maps(&s);
        let f = box_features(&s, g, &maps);
        assert_eq!(f.push_ready, 1);
        assert_eq!(f.holes_next, 1);
        assert_eq!(f.nearest_box, 1);
        assert_eq!(f.box_hole_dist, 1);
        assert!(!f.box_on_key);
        let s = Bait::parse("wwwwww\nwA1.gw\nwwwwww").unwrap();
        let mut m = MapCache::new(&s, WalkCosts::default(), 1 << 20);
        let (g, maps) = m.maps(&s);
        let f = box_features(&s, g, &maps);
        assert_eq!(f.free_axes, 1, "{f:?}");
    }

    #[test]
    fn estimates_prefer_progress() {
        let s = Bait::parse("wwwwwww\nwA.k.gw\nwwwwwww").unwrap();
        let mut m = MapCache::new(&s, WalkCosts::default(), 1 << 20);
        let w = AstarWeights::default();
        let mut t = s.clone();
        t.step_action(games::bait::BaitAction::Right);
        assert!(astar_estimate(&t, &mut m, &w) < astar_estimate(&s, &mut m, &w));
        assert!(dls_value(&t, &mut m, 1) > dls_value(&s, &mut m, 0));
        let mut won = t.clone();
        for _ in 0..3 {
            won.step_action(games::bait::BaitAction::Right);
        }
        assert!(won.won());
        assert_eq!(astar_estimate(&won, &mut m, &w), 0.0);
        assert!(dls_value(&won, &mut m, 4) > dls_value(&t, &mut m, 1));
    }
}
