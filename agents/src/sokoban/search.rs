//! The push-level search engine shared by every solver agent.
//!
//! A *state* is the set of box cells plus the player's position: the
//! normalised region (its top-left cell) when cost is counted in pushes, the
//! exact cell when it is counted in moves. An *edge* is one push (forward
//! search) or one pull (backward search); walking is implied. States live in
//! an arena (`nodes` + a flat `boxes` pool, each node's boxes sorted) and a
//! Zobrist-hashed open-addressing transposition table of node indices.
//!
//! Pruning, all sound (no solvable state is ever cut):
//! - dead squares (a box there can never reach a goal, from the distance
//!   tables);
//! - freeze deadlocks around the pushed box ([`Space::freeze`]);
//! - an infinite matching cost (no assignment of boxes to goals);
//! - boxes that can never move again ([`Space::immovable_with_player`]: the
//!   course report's removal test, with the player's reach) off their goal,
//!   or sealing off an empty goal that no other box can reach any more
//!   (`fixed.rs`);
//! - PI-corral pruning: when the player is cut off from a region that must
//!   change (a *corral*) whose fence boxes can only be pushed into it and all
//!   of those pushes are available now, only those pushes are generated
//!   (any solution can be reordered to make one of them first);
//! - corral deadlocks: a small search on the corral's boxes and their
//!   neighbours alone, which proves that they can neither be packed nor
//!   leave it nor let the player in.
//!
//! The greedy method also runs a search with goal macros (`packing.rs`),
//! which is not admissible and so never proves anything by exhausting.

use super::board::{Board, DistTable, INF, NONE};
use super::fixed;
use super::packing::{push_path, Packing};
use pathfinding::kuhn_munkres::{kuhn_munkres, Weights};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

/// What every search of one level shares: the board, the distance tables
/// and the packing orders.
pub(crate) struct Shared {
    /// The board.
    pub board: Board,
    /// Push distances to the goals (forward search; dead squares).
    pub fdist: DistTable,
    /// Push distances from the start cells (backward search), if built.
    pub bdist: Option<DistTable>,
    /// Packing orders of the goal areas (for goal macros).
    pub packing: Packing,
}

/// A node index in a [`Searcher`].
pub(crate) type NodeId = u32;
const NO_NODE: u32 = u32::MAX;
/// The heuristic value of a state proved dead.
pub(crate) const DEAD_H: u32 = u32::MAX;

/// Which way a search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    /// Pushes from the start towards the goals.
    Forward,
    /// Pulls from the solved positions back towards the start.
    Backward,
}

/// What the cost `g` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cost {
    /// Pushes; the player position is normalised to its region.
    Pushes,
    /// Moves (walks plus pushes); the state holds the exact player cell.
    Moves,
}

/// The order in which states are expanded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Order {
    /// Breadth-first by `g` (goal test on generation: optimal with unit costs).
    Bfs,
    /// Best-first on `g + w·h` (`w = 1`: A*, optimal; goal test on expansion).
    AStar {
        /// The weight of `h`, in tenths (10 = plain A*).
        weight10: u32,
    },
    /// Best-first on `h` alone, then smaller `g` (goal test on generation).
    Greedy,
}

/// Tuning of one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config {
    /// What `g` counts.
    pub cost: Cost,
    /// Expansion order.
    pub order: Order,
    /// PI-corral pruning (forward search with push costs only).
    pub pi_corrals: bool,
    /// Nodes explored by each corral-deadlock search (0: off).
    pub corral_nodes: u32,
    /// The most nodes stored before the search gives up.
    pub max_nodes: usize,
    /// Goal macros from the packing orders (forward search with push
    /// costs only; not admissible).
    pub macros: bool,
}

/// One stored state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Zobrist hash of boxes and player.
    pub hash: u64,
    /// The node this one was generated from ([`u32::MAX`] for a root).
    pub parent: u32,
    /// Cost so far.
    pub g: u32,
    /// Heuristic value ([`DEAD_H`]: proved dead).
    pub h: u32,
    /// Player: normalised region (push costs) or exact cell (move costs).
    pub player: u16,
    /// Cell of the moved box before the last push or pull.
    pub from: u16,
    /// Direction the box moved in.
    pub dir: u8,
    /// Index of the macro (a list of pushes of one box) that made this
    /// node, or `u32::MAX` for a single push or pull.
    pub mac: u32,
    /// Whether the node was expanded.
    pub closed: bool,
}

/// The result of one expansion step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A goal state was found: this node.
    Goal(NodeId),
    /// Keep going.
    Continue,
    /// The open list is empty: no goal is reachable.
    Exhausted,
    /// The node limit was reached.
    Full,
}

/// A push (forward) or pull (backward) that a node can make.
#[derive(Clone, Copy, Debug)]
struct Cand {
    /// Index of the box in the node's sorted box list.
    bi: u16,
    /// Box cell.
    c: u16,
    /// Direction the box moves.
    d: u8,
    /// Walking distance to the player cell the move starts from (move costs).
    walk: u16,
}

/// A square cost matrix for `pathfinding::kuhn_munkres`, which maximises:
/// entries hold negated costs.
struct Mat {
    n: usize,
    w: Vec<i64>,
}

impl Weights<i64> for Mat {
    fn rows(&self) -> usize {
        self.n
    }
    fn columns(&self) -> usize {
        self.n
    }
    fn at(&self, row: usize, col: usize) -> i64 {
        self.w[row * self.n + col]
    }
    fn neg(&self) -> Self {
        Mat {
            n: self.n,
            w: self.w.iter().map(|v| -v).collect(),
        }
    }
}

/// The cost standing for "impossible" in the matching (larger than any sum
/// of real distances).
const BIG: i64 = 1 << 40;

/// The extra cost of an empty goal of an ordered goal area for a box that
/// cannot reach the area's designated goal now (see [`Searcher::heuristic`]).
const REDIRECT_PENALTY: u16 = 50;

/// Scratch space over the floor cells: which box stands where, the player's
/// reachable region, and the marks of the freeze test.
pub(crate) struct Space {
    /// `occ[c]`: 1 + index of the box on `c`, or 0.
    pub occ: Vec<u16>,
    /// Reachability marks: `mark[c] == stamp` for reached cells.
    pub mark: Vec<u32>,
    /// The current reachability stamp.
    pub stamp: u32,
    /// Walking distances from the last [`Space::reach`] with `dist` set.
    pub walk: Vec<u16>,
    queue: Vec<u16>,
    wall_mark: Vec<u32>,
    wall_stamp: u32,
}

impl Space {
    /// Empty scratch for a board of `n` cells.
    pub fn new(n: usize) -> Space {
        Space {
            occ: vec![0; n],
            mark: vec![0; n],
            stamp: 0,
            walk: vec![0; n],
            queue: Vec::with_capacity(n),
            wall_mark: vec![0; n],
            wall_stamp: 0,
        }
    }

    /// Put boxes on these cells.
    pub fn set(&mut self, boxes: &[u16]) {
        for (i, &c) in boxes.iter().enumerate() {
            self.occ[c as usize] = i as u16 + 1;
        }
    }

    /// Remove the boxes on these cells.
    pub fn clear(&mut self, boxes: &[u16]) {
        for &c in boxes {
            self.occ[c as usize] = 0;
        }
    }

    /// Mark the cells the player reaches from `from` with a new stamp (and
    /// record walking distances when `dist` is set). Returns the smallest
    /// reachable cell: the normalised player.
    pub fn reach(&mut self, b: &Board, from: u16, dist: bool) -> u16 {
        if self.stamp == u32::MAX {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let st = self.stamp;
        self.queue.clear();
        self.queue.push(from);
        self.mark[from as usize] = st;
        if dist {
            self.walk[from as usize] = 0;
        }
        let mut min = from;
        let mut head = 0;
        while head < self.queue.len() {
            let x = self.queue[head];
            head += 1;
            for &y in &b.nbr[x as usize] {
                if y != NONE && self.mark[y as usize] != st && self.occ[y as usize] == 0 {
                    self.mark[y as usize] = st;
                    if dist {
                        self.walk[y as usize] = self.walk[x as usize] + 1;
                    }
                    min = min.min(y);
                    self.queue.push(y);
                }
            }
        }
        min
    }

    /// Whether cell `c` was reached by the last [`Space::reach`].
    #[inline]
    pub fn reached(&self, c: u16) -> bool {
        c != NONE && self.mark[c as usize] == self.stamp
    }

    /// Freeze test for the box just moved to `t`: whether it is frozen
    /// (blocked on both axes by walls, by a pair of dead squares, or by other
    /// frozen boxes), and whether some box supporting that is off its goal
    /// (then the position is a freeze deadlock).
    pub fn freeze(&mut self, b: &Board, dead: &[bool], t: u16) -> (bool, bool) {
        if self.wall_stamp == u32::MAX {
            self.wall_mark.fill(0);
            self.wall_stamp = 0;
        }
        self.wall_stamp += 1;
        self.frozen(b, dead, t)
    }

    /// Whether the box on `c` is frozen, and whether a box supporting that
    /// conclusion is off its goal. Boxes on the recursion stack count as
    /// walls (the usual mutual-blocking argument: boxes that each are
    /// blocked by walls or by the others never move).
    fn frozen(&mut self, b: &Board, dead: &[bool], c: u16) -> (bool, bool) {
        self.wall_mark[c as usize] = self.wall_stamp;
        let (v, vo) = self.axis_blocked(b, dead, c, 0, 1);
        let res = if v {
            let (h, ho) = self.axis_blocked(b, dead, c, 2, 3);
            (h, vo || ho || !b.is_goal[c as usize])
        } else {
            (false, false)
        };
        self.wall_mark[c as usize] = 0;
        res
    }

    fn axis_blocked(
        &mut self,
        b: &Board,
        dead: &[bool],
        c: u16,
        da: usize,
        db: usize,
    ) -> (bool, bool) {
        let x = b.nbr[c as usize][da];
        let y = b.nbr[c as usize][db];
        let st = self.wall_stamp;
        if x == NONE
            || y == NONE
            || self.wall_mark[x as usize] == st
            || self.wall_mark[y as usize] == st
        {
            return (true, false);
        }
        if dead[x as usize] && dead[y as usize] {
            return (true, false);
        }
        for z in [x, y] {
            if self.occ[z as usize] != 0 {
                let (f, o) = self.frozen(b, dead, z);
                if f {
                    return (true, o);
                }
            }
        }
        (false, false)
    }

    /// The course report's deadlock test, on the boxes `boxes` (with `occ`
    /// set): repeatedly remove every box that could move along some axis
    /// (both neighbours free, not both dead squares); boxes that remain can
    /// never move, so a remaining box off its goal is a deadlock. `occ` is
    /// restored before returning.
    pub fn stuck_deadlock(&mut self, b: &Board, dead: &[bool], boxes: &[u16]) -> bool {
        self.immovable(b, dead, boxes)
            .iter()
            .any(|&c| !b.is_goal[c as usize])
    }

    /// The removal test with the player: repeatedly remove every box the
    /// player (starting on `player`) can push somewhere that is not a dead
    /// square; removed boxes vanish, which can only open the board up. The
    /// boxes that remain can never be pushed (the real board is never more
    /// open than this relaxed one), so they are walls for good. `occ` must
    /// hold exactly `boxes`; it is restored. When `marked` is set, the reach
    /// marks are already those of `player` on this board. The second value
    /// tells whether the marks were recomputed (on a more open board).
    pub fn immovable_with_player(
        &mut self,
        b: &Board,
        dead: &[bool],
        boxes: &[u16],
        player: u16,
        marked: bool,
    ) -> (Vec<u16>, bool) {
        let mut left: Vec<u16> = boxes.to_vec();
        let mut removed: Vec<(u16, u16)> = Vec::new();
        let mut fresh = marked;
        let mut clobbered = false;
        loop {
            if fresh {
                fresh = false;
            } else {
                clobbered |= !removed.is_empty() || !marked;
                self.reach(b, player, false);
            }
            let before = left.len();
            let mut i = 0;
            while i < left.len() {
                let c = left[i] as usize;
                let nbr = b.nbr[c];
                let movable = (0..4).any(|d| {
                    let (p, t) = (nbr[d ^ 1], nbr[d]);
                    p != NONE
                        && t != NONE
                        && self.mark[p as usize] == self.stamp
                        && self.occ[t as usize] == 0
                        && !dead[t as usize]
                });
                if movable {
                    removed.push((left[i], self.occ[c]));
                    self.occ[c] = 0;
                    left.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if left.len() == before || left.is_empty() {
                break;
            }
        }
        for (c, v) in removed {
            self.occ[c as usize] = v;
        }
        (left, clobbered)
    }

    /// The boxes that remain after the removal test of
    /// [`Space::stuck_deadlock`]: the ones that can never move.
    pub fn immovable(&mut self, b: &Board, dead: &[bool], boxes: &[u16]) -> Vec<u16> {
        let mut left: Vec<u16> = boxes.to_vec();
        let mut removed: Vec<(u16, u16)> = Vec::new();
        loop {
            let before = left.len();
            let mut i = 0;
            while i < left.len() {
                let c = left[i] as usize;
                let free = |s: &Space, z: u16| z != NONE && s.occ[z as usize] == 0;
                let movable = (0..2).any(|axis| {
                    let x = b.nbr[c][2 * axis];
                    let y = b.nbr[c][2 * axis + 1];
                    free(self, x) && free(self, y) && !(dead[x as usize] && dead[y as usize])
                });
                if movable {
                    removed.push((left[i], self.occ[c]));
                    self.occ[c] = 0;
                    left.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if left.len() == before {
                break;
            }
        }
        for (c, v) in removed {
            self.occ[c as usize] = v;
        }
        left
    }
}

/// The search: node arena, transposition table, open list and scratch space.
pub(crate) struct Searcher {
    /// The level's board, distances and packing orders.
    sh: Arc<Shared>,
    /// Forward or backward.
    pub way: Way,
    /// Goal macros on (forward search with push costs and some ordered area).
    use_packing: bool,
    /// The pushes of each macro edge.
    macros: Vec<Vec<(u16, u8)>>,
    /// Tuning.
    pub cfg: Config,
    /// Boxes per state.
    pub nb: usize,
    /// The node arena.
    pub nodes: Vec<Node>,
    /// The boxes of every node, `nb` per node, sorted.
    pub boxes: Vec<u16>,
    table: Vec<u32>,
    table_count: usize,
    open: BinaryHeap<Reverse<(u128, u32)>>,
    /// Nodes expanded so far.
    pub expanded: u64,
    /// Nodes created by the last [`Searcher::step`] (for bidirectional meets).
    pub fresh: Vec<NodeId>,
    /// Target boxes and normalised player of a backward goal.
    target: Option<(Vec<u16>, u16)>,
    sp: Space,
    cur: Vec<u16>,
    child: Vec<u16>,
    cands: Vec<Cand>,
    mat: Mat,
    corral: Vec<u32>,
    corral_stamp: u32,
    sub: Option<Box<CorralSearch>>,
    redirect: Vec<usize>,
    sealed_cache: HashMap<u64, fixed::Supply>,
    /// Corral deadlocks found.
    pub corral_deadlocks: u64,
}

impl Searcher {
    /// A search over `b` with distances `dist` to its targets. Forward: one
    /// root, the start. Backward: one root per player region of the solved
    /// position (every goal holds a box); its goal is the start.
    pub fn new(sh: Arc<Shared>, way: Way, cfg: Config) -> Searcher {
        let b = &sh.board;
        let nb = b.start_boxes.len();
        let n = b.n;
        let use_packing =
            way == Way::Forward && cfg.macros && cfg.cost == Cost::Pushes && !sh.packing.is_empty();
        let sh2 = Arc::clone(&sh);
        let b = &sh2.board;
        let mut s = Searcher {
            sh,
            way,
            use_packing,
            macros: Vec::new(),
            cfg,
            nb,
            nodes: Vec::new(),
            boxes: Vec::new(),
            table: vec![NO_NODE; 1 << 12],
            table_count: 0,
            open: BinaryHeap::new(),
            expanded: 0,
            fresh: Vec::new(),
            target: None,
            sp: Space::new(n),
            cur: Vec::with_capacity(nb),
            child: Vec::with_capacity(nb),
            cands: Vec::new(),
            mat: Mat {
                n: nb,
                w: vec![0; nb * nb],
            },
            corral: vec![0; n],
            corral_stamp: 0,
            sub: None,
            redirect: Vec::new(),
            sealed_cache: HashMap::new(),
            corral_deadlocks: 0,
        };
        match way {
            Way::Forward => {
                let boxes = b.start_boxes.clone();
                s.add_root(&boxes, b.start_player);
            }
            Way::Backward => {
                let goals = b.goals.clone();
                s.sp.set(&goals);
                // One root per region of the free floor.
                let mut roots = Vec::new();
                let mut seen = vec![false; b.n];
                for c in 0..b.n as u16 {
                    if s.sp.occ[c as usize] != 0 || seen[c as usize] {
                        continue;
                    }
                    let norm = s.sp.reach(b, c, false);
                    for (x, sn) in seen.iter_mut().enumerate() {
                        if s.sp.mark[x] == s.sp.stamp {
                            *sn = true;
                        }
                    }
                    roots.push(norm);
                }
                s.sp.clear(&goals);
                for p in roots {
                    s.add_root(&goals, p);
                }
                let start = b.start_boxes.clone();
                s.sp.set(&start);
                let norm = s.sp.reach(b, b.start_player, false);
                s.sp.clear(&start);
                s.target = Some((start, norm));
            }
        }
        s
    }

    fn box_hash(&self, boxes: &[u16]) -> u64 {
        let b = &self.sh.board;
        boxes.iter().fold(0, |h, &c| h ^ b.zob_box[c as usize])
    }

    /// The distances of this search's direction.
    fn dist_of(sh: &Shared, way: Way) -> &DistTable {
        match (way, &sh.bdist) {
            (Way::Backward, Some(d)) => d,
            _ => &sh.fdist,
        }
    }

    /// The shared data of this search's level.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.sh
    }

    fn add_root(&mut self, boxes: &[u16], player: u16) {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let mut sorted = boxes.to_vec();
        sorted.sort_unstable();
        self.sp.set(&sorted);
        let norm = self.sp.reach(b, player, false);
        let p = match self.cfg.cost {
            Cost::Pushes => norm,
            Cost::Moves => player,
        };
        let mut h = self.heuristic(&sorted);
        if self.way == Way::Forward
            && h != DEAD_H
            && self.sp.stuck_deadlock(b, &sh.fdist.dead, &sorted)
        {
            h = DEAD_H;
        }
        self.sp.clear(&sorted);
        let hash = self.box_hash(&sorted) ^ b.zob_player[p as usize];
        if self.lookup(hash, &sorted, p).is_some() {
            return;
        }
        let id = self.push_node(
            Node {
                hash,
                parent: NO_NODE,
                g: 0,
                h,
                player: p,
                from: NONE,
                dir: 0,
                mac: u32::MAX,
                closed: false,
            },
            &sorted,
        );
        if h != DEAD_H {
            let key = self.key(0, h);
            self.open.push(Reverse((key, id)));
        }
    }

    /// The boxes of node `id`, sorted.
    pub fn node_boxes(&self, id: NodeId) -> &[u16] {
        let i = id as usize * self.nb;
        &self.boxes[i..i + self.nb]
    }

    fn push_node(&mut self, node: Node, boxes: &[u16]) -> NodeId {
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.boxes.extend_from_slice(boxes);
        self.insert(id);
        self.fresh.push(id);
        id
    }

    fn insert(&mut self, id: NodeId) {
        if (self.table_count + 1) * 2 > self.table.len() {
            let cap = self.table.len() * 2;
            let mut t = vec![NO_NODE; cap];
            let mask = cap - 1;
            for &x in &self.table {
                if x != NO_NODE {
                    let mut i = (self.nodes[x as usize].hash as usize) & mask;
                    while t[i] != NO_NODE {
                        i = (i + 1) & mask;
                    }
                    t[i] = x;
                }
            }
            self.table = t;
        }
        let mask = self.table.len() - 1;
        let mut i = (self.nodes[id as usize].hash as usize) & mask;
        while self.table[i] != NO_NODE {
            i = (i + 1) & mask;
        }
        self.table[i] = id;
        self.table_count += 1;
    }

    /// The node holding exactly these (sorted) boxes and player, if any.
    pub fn lookup(&self, hash: u64, boxes: &[u16], player: u16) -> Option<NodeId> {
        let mask = self.table.len() - 1;
        let mut i = (hash as usize) & mask;
        loop {
            let x = self.table[i];
            if x == NO_NODE {
                return None;
            }
            let n = &self.nodes[x as usize];
            if n.hash == hash && n.player == player && self.node_boxes(x) == boxes {
                return Some(x);
            }
            i = (i + 1) & mask;
        }
    }

    /// The open-list key (smallest first): `g` (BFS); `f = 10·g + w10·h`,
    /// then the larger `g` (A*); `h`, then the smaller `g` (greedy).
    fn key(&self, g: u32, h: u32) -> u128 {
        let (g, h) = (g as u128, h as u128);
        match self.cfg.order {
            Order::Bfs => g,
            Order::AStar { weight10 } => {
                let f = 10 * g + weight10 as u128 * h;
                (f << 64) | (u32::MAX as u128 - g)
            }
            Order::Greedy => (h << 64) | g,
        }
    }

    /// The lower bound of `boxes` (with `occ` set and the player's region
    /// marked): a minimum-cost perfect matching of boxes to targets over the
    /// one-box push distances, each box seen from the player's side when the
    /// player stands next to it; [`DEAD_H`] when no matching exists.
    fn heuristic(&mut self, boxes: &[u16]) -> u32 {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let dist = Self::dist_of(&sh, self.way);
        let nb = self.nb;
        if nb == 0 {
            return 0;
        }
        // With goal macros, a box can only enter an ordered goal area at its
        // designated goal: empty goals of such an area are priced as the
        // distance to the designated one (plus a penalty when that is out
        // of reach), which steers boxes to where they can be packed next.
        let mut redirect = std::mem::take(&mut self.redirect);
        redirect.clear();
        if self.use_packing {
            let pk = &sh.packing;
            for (j, &g) in b.goals.iter().enumerate() {
                let k = pk.area[g as usize];
                let col = if k != NONE && self.sp.occ[g as usize] == 0 {
                    pk.designated(k, &self.sp.occ)
                        .and_then(|des| b.goals.iter().position(|&x| x == des))
                        .unwrap_or(j)
                } else {
                    j
                };
                redirect.push(col);
            }
        }
        for (i, &c) in boxes.iter().enumerate() {
            let nbr = b.nbr[c as usize];
            let side = (0..4).find(|&d| self.sp.reached(nbr[d]));
            let row = dist.row(c, side);
            let mut any = false;
            for (j, &v) in row.iter().enumerate() {
                let v = match redirect.get(j) {
                    Some(&col) if col != j => match row[col] {
                        INF if v == INF => INF,
                        INF => v.saturating_add(REDIRECT_PENALTY),
                        w => w,
                    },
                    _ => v,
                };
                self.mat.w[i * nb + j] = if v == INF {
                    -BIG
                } else {
                    any = true;
                    -(v as i64)
                };
            }
            if !any {
                self.redirect = redirect;
                return DEAD_H;
            }
        }
        self.redirect = redirect;
        for j in 0..nb {
            if (0..nb).all(|i| self.mat.w[i * nb + j] == -BIG) {
                return DEAD_H;
            }
        }
        let (total, _) = kuhn_munkres(&self.mat);
        let cost = -total;
        if cost >= BIG {
            DEAD_H
        } else {
            cost as u32
        }
    }

    /// Pop the best open node and expand it.
    pub fn step(&mut self) -> Step {
        self.fresh.clear();
        let id = loop {
            let Some(Reverse((key, id))) = self.open.pop() else {
                return Step::Exhausted;
            };
            let n = self.nodes[id as usize];
            if n.closed || self.key(n.g, n.h) != key {
                continue;
            }
            break id;
        };
        if self.nodes.len() >= self.cfg.max_nodes {
            return Step::Full;
        }
        if let Order::AStar { .. } = self.cfg.order {
            if self.is_goal(id) {
                return Step::Goal(id);
            }
        }
        self.nodes[id as usize].closed = true;
        self.expanded += 1;
        self.expand(id)
    }

    /// Whether the search has nothing left to expand.
    pub fn is_exhausted(&self) -> bool {
        self.open.is_empty()
    }

    /// Whether node `id` is a goal of this search (for a root: whether the
    /// start is already solved).
    pub fn is_goal(&self, id: NodeId) -> bool {
        let n = &self.nodes[id as usize];
        match &self.target {
            None => n.h == 0,
            Some((boxes, player)) => {
                n.h == 0
                    && self.node_boxes(id) == boxes.as_slice()
                    && (self.cfg.cost == Cost::Moves || n.player == *player)
            }
        }
    }

    fn expand(&mut self, id: NodeId) -> Step {
        let node = self.nodes[id as usize];
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let dist = Self::dist_of(&sh, self.way);
        let fwd_dead: &[bool] = &sh.fdist.dead;
        let nb = self.nb;
        let mut cur = std::mem::take(&mut self.cur);
        cur.clear();
        let base = id as usize * nb;
        cur.extend_from_slice(&self.boxes[base..base + nb]);
        self.sp.set(&cur);
        let moves = self.cfg.cost == Cost::Moves;
        self.sp.reach(b, node.player, moves);
        // Candidate pushes (pulls).
        let mut cands = std::mem::take(&mut self.cands);
        cands.clear();
        for (bi, &c) in cur.iter().enumerate() {
            let nbr = b.nbr[c as usize];
            for d in 0..4 {
                // Forward: the player stands on the far side, the box goes
                // to `t`. Backward: the player stands on side d, the box
                // comes there and the player steps back to `t`.
                let (p, t) = match self.way {
                    Way::Forward => (nbr[d ^ 1], nbr[d]),
                    Way::Backward => {
                        let p = nbr[d];
                        (
                            p,
                            if p == NONE {
                                NONE
                            } else {
                                b.nbr[p as usize][d]
                            },
                        )
                    }
                };
                if t == NONE || !self.sp.reached(p) || self.sp.occ[t as usize] != 0 {
                    continue;
                }
                let dest = if self.way == Way::Forward { t } else { p };
                if dist.dead[dest as usize] {
                    continue;
                }
                let walk = if moves { self.sp.walk[p as usize] } else { 0 };
                cands.push(Cand {
                    bi: bi as u16,
                    c,
                    d: d as u8,
                    walk,
                });
            }
        }
        if self.way == Way::Forward && self.cfg.pi_corrals && !moves && !cands.is_empty() {
            match self.corrals(&cur, &cands, node.player) {
                CorralVerdict::Deadlock => cands.clear(),
                CorralVerdict::Prune(keep) => {
                    cands.retain(|cd| keep.iter().any(|&(c, d)| c == cd.c && d == cd.d));
                }
                CorralVerdict::None => {}
            }
        }
        let mut result = Step::Continue;
        let mut child = std::mem::take(&mut self.child);
        for cd in &cands {
            let c = cd.c;
            let d = cd.d as usize;
            let (mut to, mut player) = match self.way {
                Way::Forward => (b.nbr[c as usize][d], c),
                Way::Backward => {
                    let p = b.nbr[c as usize][d];
                    (p, b.nbr[p as usize][d])
                }
            };
            let mut mac: Option<Vec<(u16, u8)>> = None;
            if self.use_packing {
                let pk = &sh.packing;
                let k = pk.area[to as usize];
                if k != NONE && pk.area[c as usize] != k {
                    // A box enters a goal area: take it to the designated goal.
                    let Some(des) = pk.designated(k, &self.sp.occ) else {
                        continue;
                    };
                    if des != to {
                        self.sp.occ[c as usize] = 0;
                        self.sp.occ[to as usize] = cd.bi + 1;
                        let path = push_path(b, &mut self.sp, fwd_dead, to, c, des);
                        self.sp.occ[to as usize] = 0;
                        self.sp.occ[c as usize] = cd.bi + 1;
                        match path {
                            None => continue,
                            Some(path) => {
                                let mut seq = vec![(c, d as u8)];
                                seq.extend_from_slice(&path);
                                let &(last, _) = seq.last().unwrap_or(&(c, 0));
                                player = last;
                                to = des;
                                mac = Some(seq);
                            }
                        }
                    }
                }
            }
            self.sp.occ[c as usize] = 0;
            self.sp.occ[to as usize] = cd.bi + 1;
            let forward = self.way == Way::Forward;
            let frozen_dead = forward && {
                let (frozen, offgoal) = self.sp.freeze(b, fwd_dead, to);
                frozen && offgoal
            };
            if !frozen_dead {
                child.clear();
                child.extend_from_slice(&cur);
                child[cd.bi as usize] = to;
                child.sort_unstable();
                let norm = self.sp.reach(b, player, false);
                let p = if moves { player } else { norm };
                let hash = node.hash
                    ^ b.zob_box[c as usize]
                    ^ b.zob_box[to as usize]
                    ^ b.zob_player[node.player as usize]
                    ^ b.zob_player[p as usize];
                let pushes = mac.as_ref().map_or(1, |m| m.len() as u32);
                let g = node.g + if moves { cd.walk as u32 + 1 } else { pushes };
                match self.lookup(hash, &child, p) {
                    Some(old) => {
                        let o = self.nodes[old as usize];
                        let reopen = !matches!(self.cfg.order, Order::Greedy);
                        if reopen && g < o.g && o.h != DEAD_H {
                            let mac_id = match mac.take() {
                                Some(m) => {
                                    self.macros.push(m);
                                    self.macros.len() as u32 - 1
                                }
                                None => u32::MAX,
                            };
                            let n = &mut self.nodes[old as usize];
                            n.g = g;
                            n.parent = id;
                            n.from = c;
                            n.dir = d as u8;
                            n.mac = mac_id;
                            n.closed = false;
                            let key = self.key(g, o.h);
                            self.open.push(Reverse((key, old)));
                        }
                    }
                    None => {
                        // Dead positions are stored too (never expanded), so
                        // that meeting them again costs one lookup.
                        let h = match forward {
                            true => match self.stuck_or_sealed(&cur, cd.bi as usize, to, player) {
                                Verdict::Dead => DEAD_H,
                                Verdict::Alive { marks_ok } => {
                                    if !marks_ok {
                                        self.sp.reach(b, player, false);
                                    }
                                    self.heuristic(&child)
                                }
                            },
                            false => self.heuristic(&child),
                        };
                        let mac_id = match mac.take() {
                            Some(m) => {
                                self.macros.push(m);
                                self.macros.len() as u32 - 1
                            }
                            None => u32::MAX,
                        };
                        let nid = self.push_node(
                            Node {
                                hash,
                                parent: id,
                                g,
                                h,
                                player: p,
                                from: c,
                                dir: d as u8,
                                mac: mac_id,
                                closed: false,
                            },
                            &child,
                        );
                        if h != DEAD_H {
                            let early = !matches!(self.cfg.order, Order::AStar { .. });
                            if early && self.is_goal(nid) {
                                result = Step::Goal(nid);
                            } else {
                                let key = self.key(g, h);
                                self.open.push(Reverse((key, nid)));
                            }
                        }
                    }
                }
            }
            self.sp.occ[to as usize] = 0;
            self.sp.occ[c as usize] = cd.bi + 1;
            if matches!(result, Step::Goal(_)) {
                break;
            }
        }
        self.sp.clear(&cur);
        self.cur = cur;
        self.cands = cands;
        self.child = child;
        result
    }

    /// Whether the position after moving box `cur[bi]` to `to` (player on
    /// `player`) is dead because some box that can never move again
    /// ([`Space::immovable_with_player`]) is off its goal, or because the
    /// boxes that can never move seal off an empty goal: with them as walls,
    /// no other box can be pushed onto it any more (see
    /// [`fixed::goals_reachable`]; cached by the set of fixed boxes).
    fn stuck_or_sealed(&mut self, cur: &[u16], bi: usize, to: u16, player: u16) -> Verdict {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let mut boxes = cur.to_vec();
        boxes[bi] = to;
        let (mut fixed, clobbered) =
            self.sp
                .immovable_with_player(b, &sh.fdist.dead, &boxes, player, true);
        let alive = Verdict::Alive {
            marks_ok: !clobbered,
        };
        if fixed.iter().any(|&c| !b.is_goal[c as usize]) {
            return Verdict::Dead;
        }
        if fixed.is_empty() || fixed.len() == boxes.len() {
            return alive;
        }
        fixed.sort_unstable();
        let key = fixed
            .iter()
            .fold(0x5ea1u64, |h, &c| h ^ b.zob_box[c as usize]);
        let movable: Vec<u16> = boxes
            .iter()
            .copied()
            .filter(|c| !fixed.contains(c))
            .collect();
        let supply = self.sealed_cache.entry(key).or_insert_with(|| {
            let mut v = vec![false; b.n];
            for &c in &fixed {
                v[c as usize] = true;
            }
            fixed::Supply::new(b, &v)
        });
        if supply.all_supplied(b, &movable) {
            alive
        } else {
            Verdict::Dead
        }
    }

    /// The moves from the root to node `id`: `(box cell, direction)` of each
    /// push (forward) or pull (backward), first move first.
    pub fn path(&self, id: NodeId) -> Vec<(u16, u8)> {
        let mut out = Vec::new();
        let mut x = id;
        while self.nodes[x as usize].parent != NO_NODE {
            let n = &self.nodes[x as usize];
            if n.mac != u32::MAX {
                out.extend(self.macros[n.mac as usize].iter().rev());
            } else {
                out.push((n.from, n.dir));
            }
            x = n.parent;
        }
        out.reverse();
        out
    }

    /// PI-corral analysis of the node whose boxes are `cur` (with `occ` set
    /// and the player's region marked by the last reach).
    ///
    /// A *corral* is a region the player cannot enter, fenced by boxes
    /// next to the player's region (its *fence*) and walls; boxes deeper
    /// inside belong to it too. It is an *I-corral* when every push of a
    /// fence box from outside goes into it (pushes into walls, dead squares
    /// and corral boxes ignored; a push blocked by an outside box, which
    /// might move away, disqualifies it), and a *PI-corral* when moreover
    /// the player can make every one of those pushes now. If the corral
    /// still has to change (a box off its goal or an empty goal), every
    /// solution pushes a fence box into it before touching anything inside,
    /// and the pushes outside can be done after that push just as well; so
    /// only the corral's pushes need to be generated. Of several PI-corrals
    /// the one with the fewest pushes is taken.
    fn corrals(&mut self, cur: &[u16], cands: &[Cand], player: u16) -> CorralVerdict {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let fwd_dead: &[bool] = &sh.fdist.dead;
        let packing = if self.use_packing {
            Some(&sh.packing)
        } else {
            None
        };
        if self.corral_stamp >= u32::MAX - (b.n as u32 + 2) {
            self.corral.fill(0);
            self.corral_stamp = 0;
        }
        let base = self.corral_stamp;
        let mut best: Option<Vec<(u16, u8)>> = None;
        let mut stack: Vec<u16> = Vec::new();
        let mut fence: Vec<u16> = Vec::new();
        let mut members: Vec<u16> = Vec::new();
        for cd in cands {
            let t = b.nbr[cd.c as usize][cd.d as usize];
            if self.sp.reached(t) || self.corral[t as usize] > base {
                continue;
            }
            self.corral_stamp += 1;
            let cs = self.corral_stamp;
            stack.clear();
            fence.clear();
            members.clear();
            stack.push(t);
            self.corral[t as usize] = cs;
            let mut needs = false;
            let mut in_area = false;
            while let Some(x) = stack.pop() {
                let goal = b.is_goal[x as usize];
                if let Some(pk) = packing {
                    in_area |= pk.area[x as usize] != NONE;
                }
                if self.sp.occ[x as usize] != 0 {
                    members.push(x);
                    if !goal {
                        needs = true;
                    }
                    let on_edge = b.nbr[x as usize].iter().any(|&y| self.sp.reached(y));
                    if on_edge {
                        fence.push(x);
                        continue;
                    }
                } else if goal {
                    needs = true;
                }
                for &y in &b.nbr[x as usize] {
                    if y != NONE && self.corral[y as usize] != cs && !self.sp.reached(y) {
                        self.corral[y as usize] = cs;
                        stack.push(y);
                    }
                }
            }
            if !needs {
                continue;
            }
            let mut i_cond = true;
            let mut p_cond = true;
            let mut pushes: Vec<(u16, u8)> = Vec::new();
            'fence: for &bx in &fence {
                let nbr = b.nbr[bx as usize];
                for d in 0..4 {
                    let (p, t2) = (nbr[d ^ 1], nbr[d]);
                    if p == NONE || t2 == NONE || self.corral[p as usize] == cs {
                        continue;
                    }
                    if self.sp.occ[t2 as usize] != 0 {
                        if self.corral[t2 as usize] == cs {
                            continue;
                        }
                        i_cond = false;
                        break 'fence;
                    }
                    if fwd_dead[t2 as usize] {
                        continue;
                    }
                    if self.corral[t2 as usize] != cs {
                        i_cond = false;
                        break 'fence;
                    }
                    if self.sp.occ[p as usize] != 0 || !self.sp.reached(p) {
                        p_cond = false;
                        continue;
                    }
                    pushes.push((bx, d as u8));
                }
            }
            if !i_cond {
                continue;
            }
            if self.cfg.corral_nodes > 0 && self.corral_deadlock(cur, cs, &members, player) {
                self.corral_deadlocks += 1;
                return CorralVerdict::Deadlock;
            }
            // Goal macros may drop or reshape pushes into a goal area, and
            // their targets depend on which area goals are filled, which
            // would break the reordering argument: no pruning on corrals
            // that touch an ordered goal area.
            let macro_push = in_area
                || packing.is_some_and(|pk| {
                    pushes.iter().any(|&(bx, d)| {
                        let t = b.nbr[bx as usize][d as usize];
                        pk.area[t as usize] != NONE && pk.area[t as usize] != pk.area[bx as usize]
                    })
                });
            if p_cond && !macro_push && best.as_ref().is_none_or(|bp| pushes.len() < bp.len()) {
                best = Some(pushes);
            }
        }
        match best {
            Some(p) if p.is_empty() => CorralVerdict::Deadlock,
            Some(p) => CorralVerdict::Prune(p),
            None => CorralVerdict::None,
        }
    }

    /// Corral deadlock test. Keep only the corral's boxes (`members`) and
    /// the boxes next to them (their *ring*) on the board: removing boxes
    /// only makes the puzzle easier, so if a bounded search proves that no
    /// sequence of pushes either puts every member on a goal or pushes a
    /// member out of the corral (cells stamped `cs`), the node is dead. The
    /// ring keeps the boxes that wedge the fence in place.
    fn corral_deadlock(&mut self, cur: &[u16], cs: u32, members: &[u16], player: u16) -> bool {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let mut ring: Vec<u16> = Vec::new();
        for &m in members {
            for &y in &b.nbr[m as usize] {
                if y != NONE
                    && self.sp.occ[y as usize] != 0
                    && !members.contains(&y)
                    && !ring.contains(&y)
                {
                    ring.push(y);
                }
            }
        }
        // Boxes that can never move (in the real position) stay as walls;
        // the other boxes outside the corral and its ring are removed, but
        // may still supply goals in the sealed-goal test.
        let fixed_real = self.sp.immovable(b, &sh.fdist.dead, cur);
        let outside = |c: &u16| !members.contains(c) && !ring.contains(c);
        let walls: Vec<u16> = fixed_real.iter().copied().filter(outside).collect();
        let others: Vec<u16> = cur
            .iter()
            .copied()
            .filter(|c| outside(c) && !fixed_real.contains(c))
            .collect();
        let sub = self
            .sub
            .get_or_insert_with(|| Box::new(CorralSearch::new(b.n)));
        sub.run(
            b,
            &sh.fdist.dead,
            &self.corral,
            cs,
            members,
            &ring,
            &walls,
            &others,
            player,
            self.cfg.corral_nodes,
            &mut self.sealed_cache,
        )
    }
}

/// What [`Searcher::stuck_or_sealed`] found.
enum Verdict {
    /// A dead position.
    Dead,
    /// Not proved dead; `marks_ok` when the reach marks are still those of
    /// the position (else they must be recomputed).
    Alive { marks_ok: bool },
}

/// What the corral analysis of a node found.
enum CorralVerdict {
    /// No prunable corral.
    None,
    /// Only these pushes need to be generated.
    Prune(Vec<(u16, u8)>),
    /// The node is dead.
    Deadlock,
}

/// The bounded search behind corral deadlock detection.
struct CorralSearch {
    sp: Space,
    seen: std::collections::HashSet<u64>,
    queue: std::collections::VecDeque<(Vec<u16>, Vec<u16>, u16)>,
    cache: HashMap<u64, bool>,
}

impl CorralSearch {
    fn new(n: usize) -> CorralSearch {
        CorralSearch {
            sp: Space::new(n),
            seen: Default::default(),
            queue: Default::default(),
            cache: HashMap::new(),
        }
    }

    fn key(b: &Board, members: &[u16], ring: &[u16], norm: u16, extent: u16) -> u64 {
        let mut h = b.zob_player[norm as usize] ^ b.zob_player[extent as usize].rotate_left(29);
        for &c in members {
            h ^= b.zob_box[c as usize];
        }
        for &c in ring {
            h ^= b.zob_box[c as usize].rotate_left(13);
        }
        h
    }

    /// Whether the corral members `start` (with the `ring` boxes, player on
    /// `player`) are dead: breadth-first over at most `limit` states.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        b: &Board,
        dead: &[bool],
        corral: &[u32],
        cs: u32,
        start: &[u16],
        ring: &[u16],
        walls: &[u16],
        others: &[u16],
        player: u16,
        limit: u32,
        supplies: &mut HashMap<u64, fixed::Supply>,
    ) -> bool {
        // The corral is settled when its members are on goals and none of
        // its goals is empty; it is open once the player walks into any of
        // its cells (outside boxes may then come in). Either way it is not
        // dead.
        let interior: Vec<u16> = (0..b.n as u16)
            .filter(|&x| corral[x as usize] == cs)
            .collect();
        let goals_in: Vec<u16> = (0..b.n as u16)
            .filter(|&x| corral[x as usize] == cs && b.is_goal[x as usize])
            .collect();
        let settled = |ms: &[u16]| {
            ms.iter().all(|&x| b.is_goal[x as usize]) && goals_in.iter().all(|g| ms.contains(g))
        };
        if settled(start) {
            return false;
        }
        let mut members = start.to_vec();
        members.sort_unstable();
        let mut ring = ring.to_vec();
        ring.sort_unstable();
        // Fixed boxes are permanent walls during the whole search.
        for &c in walls {
            self.sp.occ[c as usize] = u16::MAX;
        }
        // The cache key: boxes, the player's region among them, the corral.
        self.sp.set(&members);
        for &c in &ring {
            self.sp.occ[c as usize] = u16::MAX;
        }
        let norm = self.sp.reach(b, player, false);
        self.sp.clear(&members);
        self.sp.clear(&ring);
        let extent = members[0];
        let key = Self::key(b, &members, &ring, norm, extent)
            ^ walls
                .iter()
                .fold(0, |h, &c| h ^ b.zob_box[c as usize].rotate_left(41))
            ^ others
                .iter()
                .fold(0, |h, &c| h ^ b.zob_box[c as usize].rotate_left(53));
        if let Some(&v) = self.cache.get(&key) {
            self.sp.clear(walls);
            return v;
        }
        self.seen.clear();
        self.queue.clear();
        self.queue.push_back((members, ring, player));
        let mut count = 0u32;
        let mut dead_end = true;
        while let Some((members, ring, player)) = self.queue.pop_front() {
            count += 1;
            if count > limit {
                dead_end = false;
                break;
            }
            self.sp.set(&members);
            for &c in &ring {
                self.sp.occ[c as usize] = u16::MAX;
            }
            let norm = self.sp.reach(b, player, false);
            let h = Self::key(b, &members, &ring, norm, 0);
            if !self.seen.insert(h) {
                self.sp.clear(&members);
                self.sp.clear(&ring);
                continue;
            }
            if interior.iter().any(|&x| self.sp.reached(x)) {
                self.sp.clear(&members);
                self.sp.clear(&ring);
                dead_end = false;
                break;
            }
            let mut escaped = false;
            let mut next: Vec<(Vec<u16>, Vec<u16>, u16)> = Vec::new();
            for (group, is_member) in [(&members, true), (&ring, false)] {
                for (bi, &c) in group.iter().enumerate() {
                    let nbr = b.nbr[c as usize];
                    for d in 0..4 {
                        let (p, t) = (nbr[d ^ 1], nbr[d]);
                        if p == NONE || t == NONE || !self.sp.reached(p) {
                            continue;
                        }
                        if self.sp.occ[t as usize] != 0 || dead[t as usize] {
                            continue;
                        }
                        if is_member && corral[t as usize] != cs {
                            escaped = true;
                            break;
                        }
                        let tag = self.sp.occ[c as usize];
                        self.sp.occ[c as usize] = 0;
                        self.sp.occ[t as usize] = tag;
                        let (frozen, offgoal) = self.sp.freeze(b, dead, t);
                        self.sp.occ[t as usize] = 0;
                        self.sp.occ[c as usize] = tag;
                        if frozen && offgoal {
                            continue;
                        }
                        let (mut nm, mut nr) = (members.clone(), ring.clone());
                        if frozen {
                            // A box froze on its goal: does it seal a goal off?
                            // Fixed boxes come from this relaxed board (fewer
                            // than the real ones); every real box may supply.
                            if is_member {
                                nm[bi] = t;
                            } else {
                                nr[bi] = t;
                            }
                            self.sp.occ[c as usize] = 0;
                            self.sp.occ[t as usize] = tag;
                            let mut all: Vec<u16> = nm
                                .iter()
                                .chain(nr.iter())
                                .chain(walls.iter())
                                .copied()
                                .collect();
                            let fixed = self.sp.immovable(b, dead, &all);
                            self.sp.occ[t as usize] = 0;
                            self.sp.occ[c as usize] = tag;
                            let mut fixed_set = vec![false; b.n];
                            for &f in &fixed {
                                fixed_set[f as usize] = true;
                            }
                            all.extend_from_slice(others);
                            all.retain(|&x| !fixed_set[x as usize]);
                            let mut key = 0x5ea1u64;
                            for &f in &fixed {
                                key ^= b.zob_box[f as usize];
                            }
                            let supply = supplies
                                .entry(key)
                                .or_insert_with(|| fixed::Supply::new(b, &fixed_set));
                            if !supply.all_supplied(b, &all) {
                                continue;
                            }
                            nm = members.clone();
                            nr = ring.clone();
                        }
                        if is_member {
                            nm[bi] = t;
                            if settled(&nm) {
                                escaped = true;
                                break;
                            }
                            nm.sort_unstable();
                        } else {
                            nr[bi] = t;
                            nr.sort_unstable();
                        }
                        next.push((nm, nr, c));
                    }
                    if escaped {
                        break;
                    }
                }
                if escaped {
                    break;
                }
            }
            self.sp.clear(&members);
            self.sp.clear(&ring);
            if escaped {
                dead_end = false;
                break;
            }
            self.queue.extend(next);
        }
        self.sp.clear(walls);
        self.cache.insert(key, dead_end);
        dead_end
    }
}
