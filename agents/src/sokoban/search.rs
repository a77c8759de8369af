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
//! the loop that pops states. Its children hold the making of a state's
//! children (`search/expand.rs`), the matching lower bound
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

use super::bits;
use super::board::{Board, DistTable, INF, NONE};
use super::fess::{self, FessQueue};
use super::hotspot::Hotspots;
use super::matching::{KeyedMatching, Matching, RowKey, BIG};
use super::near::Near;
use super::packing::{push_path, BoxMoves, Packing};
use super::plan::{OutOfPlan, PackingPlan};
use super::prune::{CorralVerdict, Pruner, Verdict};
use super::rooms::{RoomScratch, Rooms};
/// Re-exported: the solver's tests reach it as `search::Space`.
pub(crate) use super::space::Space;
use super::strand::Stranded;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

mod bound;
mod expand;
mod features;
#[cfg(test)]
pub(crate) mod fixtures;
mod learned;
mod prove;
mod table;
use bound::side_key;
use expand::Cand;
use table::Macros;

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
    /// The level's rooms, for the forward feature-space searches' room
    /// connectivity feature (see `SolveOptions::rooms`), if it has two or
    /// more and the feature is on.
    pub rooms: Option<Rooms>,
    /// What the opener follows (`SolveOptions::opener`), if it acts on
    /// this level.
    pub opener: Option<super::fess::Opener>,
}

/// A node index in a [`Searcher`].
pub(crate) type NodeId = u32;
const NO_NODE: u32 = u32::MAX;
/// [`Node::mac`] of a node made by a box move of several pushes, which
/// [`Searcher::path`] finds again instead of storing them.
const BOX_MOVE: u32 = u32::MAX - 1;
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
    /// Feature-space search: of every 16 expansions, this many come from
    /// the best non-empty cell (see [`FessQueue::new`]; 0: none).
    pub best_pops: u8,
    /// Feature-space search: pops without a better best cell after which
    /// the cells are taken in turn only (see [`FessQueue::new`]; 0: never).
    pub stall: u32,
    /// Feature-space search: of every 16 expansions, this many take the
    /// open node of least bound (see [`FessQueue::new`]; 0: none).
    pub greedy: u8,
    /// Feature-space search, with `greedy`: the children of a pop of least
    /// bound open no cell far below the best (see [`FessQueue::push`]).
    pub park: bool,
    /// Feature-space search: the hotspot advisor (needs [`Shared::hot`]).
    pub hotspots: bool,
    /// Forward feature-space search: FESS's opener advisor (see
    /// `SolveOptions::opener`; needs [`Shared::opener`]).
    pub opener: bool,
    /// Forward feature-space search: boxes out of plan as a third feature
    /// (see `SolveOptions::oop`; needs [`Shared::oop`]).
    pub oop: bool,
    /// Forward feature-space search: the pairs of rooms the boxes
    /// disconnect as a feature after the regions (see
    /// `SolveOptions::rooms`; needs [`Shared::rooms`]).
    pub rooms: bool,
    /// Feature-space search: each advisor recommends at most one move of a
    /// state (else every move that improves its feature).
    pub one_advice: bool,
    /// Backward feature-space search: in positions with at most this many
    /// boxes off the start cells, the boxes stranded there as the first
    /// connectivity feature (see `SolveOptions::stranded`; 0: none).
    pub stranded: u8,
    /// Backward feature-space search: the packing feature counts, after the
    /// boxes on start cells, the boxes within this many pulls of an empty
    /// start cell (see `SolveOptions::near`; 0: none).
    pub near: u8,
    /// Forward feature-space search: a child's removal test and bound are
    /// made when it is popped, not when it is made (most children are
    /// never popped); until then it is queued with its parent's bound.
    pub lazy: bool,
    /// Feature-space search: a child's removal test and exact bound are
    /// made when it is popped; until then it is pending, queued
    /// with a lower bound of its bound ([`Searcher::estimates`]; with one
    /// move per advisor, its exact bound). Ignored with `lazy`, which
    /// queues it with its parent's bound.
    pub defer: bool,
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
    /// node, `u32::MAX` for a single push or pull, or [`BOX_MOVE`] for a
    /// box move of several, whose pushes are found again when a path is
    /// asked for.
    pub mac: u32,
    /// Whether the node was expanded.
    pub closed: bool,
    /// A lazy child ([`Config::lazy`]): its removal test and its bound are
    /// still to be made; `h` is its parent's bound until then. With
    /// [`Config::defer`], `h` is a lower bound of its bound until then
    /// (or its bound, with one move per advisor).
    pub pending: bool,
    /// Backward, a pending child: whether its removal test includes the
    /// pocket search (its pull shut the player in a pocket; see
    /// `search/expand.rs`).
    pub pocket: bool,
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

/// The search: node arena, transposition table, open list and scratch space.
pub(crate) struct Searcher {
    /// The level's board, distances and packing orders.
    sh: Arc<Shared>,
    /// Forward or backward.
    pub way: Way,
    /// Goal macros on (forward search with push costs and some ordered area).
    use_packing: bool,
    /// The pushes of each macro edge.
    macros: Macros,
    /// The box moves of the expansion under way (box-move searches).
    box_moves: BoxMoves,
    /// The candidate each of those box moves starts with.
    far: Vec<Cand>,
    /// The player's region of the node under expansion, a bit per cell
    /// (single pushes or pulls with push costs), from which most
    /// children's regions follow without a flood.
    parent_region: Vec<u64>,
    /// The node whose boxes the scratch space still holds with its
    /// player's reach marks, left by its removal test when popped
    /// ([`Searcher::evaluate_popped`]) for its expansion ([`NO_NODE`]:
    /// none; the scratch space is clear).
    kept: NodeId,
    /// Tuning.
    pub cfg: Config,
    /// Boxes per state.
    pub nb: usize,
    /// The node arena.
    pub nodes: Vec<Node>,
    /// The boxes of every node, `nb` per node, sorted.
    pub boxes: Vec<u16>,
    /// The transposition table: open addressing, a node index and a tag
    /// of its hash per slot ([`table::EMPTY`] when free).
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
    /// The optimal matching of the node being expanded, for its children's
    /// bounds ([`bound::ParentMatching`]).
    parent: bound::ParentMatching,
    /// The same with each box seen from no side, for deferred children's
    /// estimates ([`Config::defer`]).
    est: bound::ParentMatching,
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
    /// Scratch for the room connectivity feature.
    rooms: RoomScratch,
    /// Scratch for the stranded boxes' feature.
    stranded: Stranded,
    /// Backward feature-space search with [`Config::near`]: the cells near
    /// each start cell.
    near: Option<Near>,
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
        cfg.defer &= cfg.order == Order::Fess && !cfg.lazy;
        if !fess_forward || cfg.cost != Cost::Pushes {
            cfg.prove = 0;
            cfg.learn_nodes = 0;
            cfg.oop = false;
            cfg.rooms = false;
            cfg.opener = false;
            cfg.hotspots &= way == Way::Forward;
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
            macros: Macros::default(),
            box_moves: BoxMoves::default(),
            far: Vec::new(),
            parent_region: Vec::new(),
            kept: NO_NODE,
            cfg,
            nb,
            nodes: Vec::new(),
            boxes: Vec::new(),
            table: vec![table::EMPTY; 1 << 12],
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
            parent: bound::ParentMatching::new(nb, n),
            est: bound::ParentMatching::new(nb, n),
            changed: Vec::new(),
            changed_rows: Vec::new(),
            redirect: Vec::new(),
            prune: Pruner::new(n, cfg.corral_nodes, cfg.zone_nodes, cfg.learn_nodes),
            fess: (cfg.order == Order::Fess)
                .then(|| FessQueue::new(cfg.best_pops, cfg.stall, cfg.greedy, cfg.park)),
            is_start: Vec::new(),
            kids: Vec::new(),
            advised: Vec::new(),
            rooms: RoomScratch::default(),
            stranded: Stranded::default(),
            near: None,
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
                if let (Some(dist), true) = (&sh2.bdist, cfg.near > 0 && s.fess.is_some()) {
                    s.near = Some(Near::new(b, dist, u16::from(cfg.near)));
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
        // Whether the last node popped was a lazy or deferred child found
        // dead: its cell's turn goes on.
        let mut again = false;
        let id = loop {
            if let Some(q) = &mut self.fess {
                let nodes = &self.nodes;
                let closed = |id: u32| nodes[id as usize].closed;
                let popped = if again {
                    q.pop_again(closed)
                } else {
                    q.pop(closed)
                };
                again = false;
                let Some(id) = popped else {
                    return Step::Exhausted;
                };
                // A state of the best cell, to be proved dead first?
                let prove = self.cfg.prove > 0 && q.best_cell() == Some(q.cell[id as usize]);
                if self.nodes[id as usize].closed {
                    continue;
                }
                if self.nodes[id as usize].pending {
                    let est = self.nodes[id as usize].h;
                    if !self.evaluate_popped(id) {
                        again = true;
                        continue;
                    }
                    // A deferred child queued with its estimate, whose
                    // bound is greater: back into its cell, whose turn
                    // goes on. Every node left there has a key no greater
                    // than its bound, so the cell still gives its nodes
                    // by least bound (then least id), as when each child
                    // has its bound when made.
                    let n = self.nodes[id as usize];
                    debug_assert!(
                        n.h >= est || !self.estimates(),
                        "an estimate above the bound"
                    );
                    if self.estimates() && n.h > est {
                        self.drop_kept();
                        let q = self.fess.as_mut().expect("a feature-space search");
                        let cell = q.cell[id as usize];
                        q.push_back(id, cell, n.g, n.h);
                        again = true;
                        continue;
                    }
                }
                if prove || self.prune.learner.is_some() {
                    // The proof and the learned patterns use the scratch
                    // space.
                    self.drop_kept();
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
            self.drop_kept();
            // Back on the open list: a larger budget may go on from here.
            let n = self.nodes[id as usize];
            self.enqueue(id, n.g, n.h);
            return Step::Full;
        }
        if let Order::AStar { .. } = self.cfg.order {
            if self.is_goal(id) {
                self.drop_kept();
                return Step::Goal(id);
            }
        }
        self.nodes[id as usize].closed = true;
        self.expanded += 1;
        self.expand(id)
    }

    /// Whether deferred children are queued with an estimate of their
    /// bound, each box seen from no side ([`Config::defer`]; not with one
    /// move per advisor, whose picks compare the children's bounds).
    pub(super) fn estimates(&self) -> bool {
        self.cfg.defer && !self.cfg.one_advice
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
}
