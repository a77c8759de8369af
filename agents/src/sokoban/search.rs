//! The push-level search engine shared by every solver agent.
//!
//! A *state* is the set of box cells plus the player's position: the
//! normalised region (its top-left cell) when cost is counted in pushes, the
//! exact cell when it is counted in moves. An *edge* is one push (forward
//! search) or one pull (backward search); walking is implied. States live in
//! an arena (`nodes` + a flat `boxes` pool, each node's boxes sorted) and a
//! Zobrist-hashed open-addressing transposition table of node indices.
//!
//! This file holds the search itself: its configuration, the roots and
//! the expansion loop. Its children hold the matching lower bound
//! (`search/bound.rs`), the node arena, transposition table and path
//! recovery (`search/table.rs`), the feature-space side
//! (`search/features.rs`), the dead-end proofs (`search/prove.rs`) and the
//! learned patterns' side (`search/learned.rs`).
//! The scratch space over the cells (box occupancy, reach, freeze and
//! removal tests) is in `space.rs`, the deadlock and corral pruning in
//! `prune.rs`, the goal macros' packing orders in `packing.rs`.
//!
//! Pruning, all sound (no solvable state is ever cut):
//! - dead squares (a box there can never reach a goal, from the distance
//!   tables);
//! - freeze deadlocks around the pushed box ([`Space::freeze`]);
//! - an infinite matching cost (no assignment of boxes to goals);
//! - boxes that can never move again ([`Space::immovable_with_player`]: the
//!   course report's removal test, with the player's reach) off their goal,
//!   or sealing off an empty goal that no other box can reach any more
//!   ([`Pruner::stuck_or_sealed`], `fixed.rs`);
//! - goals that can never all be filled, with the floor off the goals
//!   reduced to bags of boxes (`zone.rs`, on positions with few empty
//!   goals);
//! - learned patterns (`learn.rs`, the forward feature-space search):
//!   when a state's subtree has grown to [`Config::learn_at`] expansions,
//!   a small set of its boxes that cannot reach goals even alone makes it
//!   and every state below it dead, and every later state that holds the
//!   set (with the player in the same region) too (`search/learned.rs`);
//! - PI-corral pruning ([`Pruner::corrals`]): when the player is cut off
//!   from a region that must change (a *corral*) whose fence boxes can only
//!   be pushed into it and all of those pushes are available now, only
//!   those pushes are generated (any solution can be reordered to make one
//!   of them first);
//! - corral deadlocks: a small search on the corral's boxes and their
//!   neighbours alone, which proves that they can neither leave it nor let
//!   the player into its inner cells nor be packed with those inner goals
//!   filled;
//! - backward search: positions that can never be pulled back to the start
//!   ([`Space::pull_trapped`]: the removal test with pulls; a box that can
//!   never be pulled again off its start cell, or a player that can never
//!   reach the start player's cell), and pockets: where a pull shuts the
//!   player in a small region, a search of every pull from there
//!   ([`Space::pocket_trapped`]) that never gets out.
//!
//! The greedy method also runs a search with goal macros (`packing.rs`),
//! which is not admissible and so never proves anything by exhausting.

use super::board::{Board, DistTable, INF, NONE};
use super::fess::{self, FessQueue};
use super::hotspot::Hotspots;
use super::matching::{KeyedMatching, Matching, RowKey, BIG};
use super::packing::{box_destinations, box_pull_destinations, push_path, Packing};
use super::plan::{OutOfPlan, PackingPlan};
use super::prune::{CorralVerdict, Pruner, Verdict};
/// Re-exported: the solver's tests reach it as `search::Space`.
pub(crate) use super::space::Space;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

mod bound;
mod features;
#[cfg(test)]
pub(crate) mod fixtures;
mod learned;
mod prove;
mod table;
use bound::side_key;

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
    /// The hotspot table (feature-space search with the hotspot advisor).
    pub hot: Option<Hotspots>,
    /// The packing plan that the forward feature-space searches' packing
    /// feature follows, if they use one (see `SolveOptions::plan`).
    pub plan: Option<PackingPlan>,
    /// The plan's cells out of plan, for the forward feature-space
    /// searches' third feature (see `SolveOptions::oop`), if the level has
    /// a plan.
    pub oop: Option<OutOfPlan>,
}

/// A node index in a [`Searcher`].
pub(crate) type NodeId = u32;
const NO_NODE: u32 = u32::MAX;
/// The heuristic value of a state proved dead.
pub(crate) const DEAD_H: u32 = u32::MAX;

/// Backward search: a player region of at most this many cells is a
/// pocket, whose pulls are searched ([`Space::pocket_trapped`]).
const POCKET_CELLS: usize = 12;
/// The most positions that search visits.
const POCKET_STATES: usize = 64;

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
    /// The feature-space order of `fess.rs`: cells `(boxes on goals,
    /// regions)` in turn, the least path weight then `h` within a cell (`g`
    /// holds the weight; goal test on generation).
    Fess,
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
    /// States explored by each goal-zone deadlock search (forward search;
    /// 0: off).
    pub zone_nodes: u32,
    /// Positions stored by each search for a learned deadlock pattern
    /// (`learn.rs`; forward feature-space search only; 0: off).
    pub learn_nodes: u32,
    /// A state whose subtree reaches this many expansions is searched for
    /// a learned deadlock pattern (`learn.rs`).
    pub learn_at: u32,
    /// The most nodes stored before the search gives up.
    pub max_nodes: usize,
    /// Goal macros from the packing orders (forward search with push
    /// costs only; not admissible).
    pub macros: bool,
    /// Box moves: a move takes one box to any cell it can be pushed
    /// (backward: pulled) to with the other boxes where they are (push
    /// costs only). Every single push or pull is still a move, so
    /// exhausting the search still proves a level unsolvable.
    pub box_moves: bool,
    /// Feature-space search: every other expansion comes from the best
    /// non-empty cell, as in FESS (see [`FessQueue::new`]).
    pub alternate: bool,
    /// Feature-space search: the hotspot advisor (needs [`Shared::hot`]).
    pub hotspots: bool,
    /// Forward feature-space search: boxes out of plan as a third feature
    /// (see `SolveOptions::oop`; needs [`Shared::oop`]).
    pub oop: bool,
    /// Feature-space search: each advisor recommends at most one move of a
    /// state (else every move that improves its feature).
    pub one_advice: bool,
    /// Forward feature-space search: a child's removal test and bound are
    /// made when it is popped, not when it is made (most children are
    /// never popped); until then it is queued with its parent's bound.
    pub lazy: bool,
    /// Forward feature-space search with `alternate`: before a state of the
    /// best non-empty cell is expanded, a search of single pushes of at
    /// most this many states runs from it; if it runs out, the state is
    /// dead (`prove.rs`; 0: off).
    pub prove: u32,
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
    /// A lazy child ([`Config::lazy`]): its removal test and its bound are
    /// still to be made; `h` is its parent's bound until then.
    pub pending: bool,
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
    /// The matching of the state being computed.
    mat: Matching,
    /// The optimal matching of the node being expanded, brought up to date
    /// lazily (repaired from the last expanded node's) for the first child
    /// that needs a bound, so that each child only repairs the rows its
    /// push changed.
    parent: KeyedMatching,
    /// Whether `parent` holds the expanded node's matching.
    parent_ready: bool,
    /// The row key of each box of the expanded node, in its box order.
    parent_rows: Vec<RowKey>,
    changed: Vec<usize>,
    changed_rows: Vec<(usize, u16, Option<usize>)>,
    redirect: Vec<usize>,
    /// The deadlock and corral pruning (forward search).
    prune: Pruner,
    /// The open list of [`Order::Fess`] (`open` is unused then).
    fess: Option<FessQueue>,
    /// Backward search: whether a box starts on each cell, for the pull
    /// removal test (else empty).
    is_start: Vec<bool>,
    /// Feature-space search: the children of the expansion under way,
    /// queued once the advisors have seen them all.
    kids: Vec<fess::Child>,
    /// Scratch: which of `kids` the advisors recommend.
    advised: Vec<bool>,
    /// The search that proves states dead ([`Config::prove`]), made at
    /// its first use.
    prover: Option<Box<Searcher>>,
    /// The work of all dead-end proofs: states stored plus states
    /// expanded (part of the search's work, see `Engine::work`).
    pub proof_work: u64,
    /// With learned patterns on: each node's subtree size in expansions
    /// (`search/learned.rs`).
    sub: Vec<u32>,
    /// Scratch: a path of nodes up to its root.
    path: Vec<NodeId>,
}

impl Searcher {
    /// A search over `b` with distances `dist` to its targets. Forward: one
    /// root, the start. Backward: one root per player region of the solved
    /// position (every goal holds a box); its goal is the start.
    pub fn new(sh: Arc<Shared>, way: Way, mut cfg: Config) -> Searcher {
        let fess_forward = cfg.order == Order::Fess && way == Way::Forward;
        cfg.lazy &= fess_forward;
        if !fess_forward || cfg.cost != Cost::Pushes {
            cfg.prove = 0;
            cfg.learn_nodes = 0;
            cfg.oop = false;
        }
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
            mat: Matching::new(nb),
            parent: KeyedMatching::new(nb, n),
            parent_ready: false,
            parent_rows: Vec::with_capacity(nb),
            changed: Vec::new(),
            changed_rows: Vec::new(),
            redirect: Vec::new(),
            prune: Pruner::new(n, cfg.corral_nodes, cfg.zone_nodes, cfg.learn_nodes),
            fess: (cfg.order == Order::Fess).then(|| FessQueue::new(cfg.alternate)),
            is_start: Vec::new(),
            kids: Vec::new(),
            advised: Vec::new(),
            prover: None,
            proof_work: 0,
            sub: Vec::new(),
            path: Vec::new(),
        };
        match way {
            Way::Forward => {
                let boxes = b.start_boxes.clone();
                s.add_root(&boxes, b.start_player);
                if let Some(e) = b.end_player {
                    let goals = b.goals.clone();
                    s.sp.set(&goals);
                    let norm = s.sp.reach(b, e, false);
                    s.sp.clear(&goals);
                    s.target = Some((goals, norm));
                }
            }
            Way::Backward => {
                s.is_start = vec![false; n];
                for &c in &b.start_boxes {
                    s.is_start[c as usize] = true;
                }
                let goals = b.goals.clone();
                s.sp.set(&goals);
                // One root per region of the free floor.
                let mut roots = Vec::new();
                let mut seen = vec![false; b.n];
                for c in 0..b.n as u16 {
                    if b.end_player.is_some_and(|e| e != c) {
                        continue;
                    }
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

    /// Put node `id` (cost `g`, bound `h`) on the open list.
    fn enqueue(&mut self, id: NodeId, g: u32, h: u32) {
        match &mut self.fess {
            Some(q) => {
                let cell = q.cell[id as usize];
                q.push(id, cell, g, h);
            }
            None => {
                let key = self.key(g, h);
                self.open.push(Reverse((key, id)));
            }
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
            Order::Greedy | Order::Fess => (h << 64) | g,
        }
    }

    /// Pop the best open node and expand it.
    pub fn step(&mut self) -> Step {
        self.fresh.clear();
        let id = loop {
            if let Some(q) = &mut self.fess {
                let Some(id) = q.pop() else {
                    return Step::Exhausted;
                };
                // A state of the best cell, to be proved dead first?
                let prove = self.cfg.prove > 0 && q.best_cell() == Some(q.cell[id as usize]);
                if self.nodes[id as usize].closed {
                    continue;
                }
                if self.nodes[id as usize].pending && !self.evaluate(id) {
                    continue;
                }
                if (prove && self.proved_dead(id)) || self.doomed(id) {
                    let n = &mut self.nodes[id as usize];
                    n.closed = true;
                    n.h = DEAD_H;
                    continue;
                }
                break id;
            }
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
            // Back on the open list: a larger budget may go on from here.
            let n = self.nodes[id as usize];
            self.enqueue(id, n.g, n.h);
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
        match &self.fess {
            Some(q) => q.is_empty(),
            None => self.open.is_empty(),
        }
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
        // Backward search: whether the player's region is open (large, or
        // holding the start player's cell). A child whose pull shuts the
        // player in a pocket is then worth a pocket search.
        let open = self.sp.reached_count() > POCKET_CELLS || self.sp.reached(b.start_player);
        self.parent_ready = false;
        self.parent_rows.clear();
        for &c in &cur {
            let sd = side_key(self.side_of(c));
            self.parent_rows.push((c, sd));
        }
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
            let packing = if self.use_packing {
                Some(&sh.packing)
            } else {
                None
            };
            let verdict = self.prune.corrals(
                b,
                fwd_dead,
                packing,
                &mut self.sp,
                &cur,
                cands.iter().map(|cd| (cd.c, cd.d)),
                node.player,
            );
            match verdict {
                CorralVerdict::Deadlock => cands.clear(),
                CorralVerdict::Prune(keep) => {
                    cands.retain(|cd| keep.iter().any(|&(c, d)| c == cd.c && d == cd.d));
                }
                CorralVerdict::None => {}
            }
        }
        let mut result = Step::Continue;
        let mut child = std::mem::take(&mut self.child);
        let box_moves = self.cfg.box_moves && !moves;
        let mut far = Vec::new();
        if box_moves {
            for (bi, &c) in cur.iter().enumerate() {
                let firsts: Vec<u8> = cands
                    .iter()
                    .filter(|cd| cd.bi as usize == bi)
                    .map(|cd| cd.d)
                    .collect();
                if firsts.is_empty() {
                    continue;
                }
                let moves = match self.way {
                    Way::Forward => {
                        box_destinations(b, &mut self.sp, fwd_dead, c, node.player, &firsts)
                    }
                    Way::Backward => {
                        box_pull_destinations(b, &mut self.sp, &dist.dead, c, node.player, &firsts)
                    }
                };
                for m in moves {
                    let cand = Cand {
                        bi: bi as u16,
                        c,
                        d: m.pushes[0].1,
                        walk: 0,
                    };
                    far.push((cand, m));
                }
            }
        }
        let count = if box_moves { far.len() } else { cands.len() };
        for k in 0..count {
            let cd = &if box_moves { far[k].0 } else { cands[k] };
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
            // The child's normalised player, when the box move knows it: the
            // child's region is then flooded only if the child is new.
            let mut known_norm = None;
            if box_moves {
                let m = &mut far[k].1;
                to = m.to;
                player = m.player;
                known_norm = Some(m.norm);
                if m.pushes.len() > 1 {
                    mac = Some(std::mem::take(&mut m.pushes));
                }
            }
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
                                known_norm = None;
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
                let norm = match known_norm {
                    Some(n) => n,
                    None => self.sp.reach(b, player, false),
                };
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
                        let reopen = !matches!(self.cfg.order, Order::Greedy | Order::Fess);
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
                            self.enqueue(old, g, o.h);
                        }
                    }
                    None => {
                        // Dead positions are stored too (never expanded), so
                        // that meeting them again costs one lookup.
                        if known_norm.is_some() {
                            // The box move found the child's region.
                            self.sp.mark_region(&far[k].1.region);
                        }
                        // A lazy child is tested when popped; a solved one
                        // is never dead, and is a goal now.
                        let lazy = self.cfg.lazy;
                        let solved = lazy && child.iter().all(|&x| b.is_goal[x as usize]);
                        let h = match forward {
                            true if lazy => u32::from(!solved) * node.h.max(1),
                            true => match self.prune.stuck_or_sealed(
                                b,
                                fwd_dead,
                                &mut self.sp,
                                &child,
                                player,
                            ) {
                                Verdict::Dead => DEAD_H,
                                Verdict::Alive => self.bound_of_child(&mut cur, cd.bi, c, to),
                            },
                            false => {
                                // The pull removal test (space.rs): a
                                // position that can never be pulled back to
                                // the start is dead.
                                // A pull that shut the player in a small
                                // region away from the start player's cell
                                // made a pocket worth a search.
                                let pocket = open
                                    && self.sp.reached_count() <= POCKET_CELLS
                                    && !self.sp.reached(b.start_player);
                                let (mut trapped, clobbered) = self.sp.pull_trapped(
                                    b,
                                    &dist.dead,
                                    &self.is_start,
                                    &child,
                                    player,
                                    true,
                                );
                                if !trapped && pocket {
                                    trapped = self.sp.pocket_trapped(
                                        b,
                                        &dist.dead,
                                        &child,
                                        player,
                                        POCKET_STATES,
                                        POCKET_CELLS,
                                    );
                                }
                                if trapped {
                                    DEAD_H
                                } else {
                                    if clobbered {
                                        self.sp.reach(b, player, false);
                                    }
                                    self.bound_of_child(&mut cur, cd.bi, c, to)
                                }
                            }
                        };
                        let mac_id = match mac.take() {
                            Some(m) => {
                                self.macros.push(m);
                                self.macros.len() as u32 - 1
                            }
                            None => u32::MAX,
                        };
                        // Feature-space search: the child's cell, and its
                        // path weight: 1 more than the parent's until the
                        // advisors have seen every child (below).
                        let mut g = g;
                        let mut cell = None;
                        if self.fess.is_some() {
                            g = node.g + 1;
                            cell = Some((self.cell_of(&child), self.hot_of(&child)));
                        }
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
                                pending: lazy && !solved,
                            },
                            &child,
                        );
                        if let (Some(q), Some((cell, hot))) = (&mut self.fess, cell) {
                            q.cell.push(cell);
                            if let Some(hot) = hot {
                                q.hot.push(hot);
                            }
                        }
                        if h != DEAD_H {
                            let early = !matches!(self.cfg.order, Order::AStar { .. });
                            if early && self.is_goal(nid) {
                                result = Step::Goal(nid);
                            } else if let Some((cell, hot)) = cell {
                                let kid = fess::Child {
                                    id: nid,
                                    cell,
                                    hot,
                                    h,
                                };
                                self.kids.push(kid);
                            } else {
                                self.enqueue(nid, g, h);
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
        self.advise(id);
        result
    }
}
