//! `uct`: Monte Carlo tree search for any [`Game`], with random playouts.
//!
//! # One search for every shape of game
//! Every node of the tree keeps, for each seat that is active in it, that
//! seat's own statistics over its own legal actions (visits and the sum of
//! *its* values). In every iteration each active seat picks its action by
//! UCB1 over its own statistics — untried actions first, in random order,
//! then the highest `mean + c·sqrt(ln N / n)` — and the joint action (one
//! action per active seat, the game's fallback action for inactive seats)
//! leads to the child.
//! - Where one seat is active (puzzles, alternating games such as Xiangqi)
//!   this is plain UCT, each node maximising the value of the seat to move.
//! - Where several are (simultaneous games such as Snake) it is decoupled
//!   UCT (DUCT): the seats choose independently and the child is keyed by
//!   the pair.
//!
//! Children are keyed by the joint choice (the indices of the chosen
//! actions) and kept in sibling lists; states are not stored but replayed
//! from the root along the path (the forward model is deterministic), so a
//! node costs about 40 bytes plus 24 per legal action once it is visited.
//!
//! # Iteration
//! 1. *Selection*: from the root, choose joint actions as above until the
//!    game is over or the joint action leads to a child not in the tree.
//! 2. *Expansion*: that child is added, unless the tree has `max_nodes`
//!    nodes: past the cap the tree stops growing (statistics go on being
//!    updated).
//! 3. *Playout*: uniformly random legal actions for every active seat until
//!    the game ends or `rollout_depth` actions were played.
//! 4. *Value* of the end state, per seat, in `[0, 1]`: a finished game is
//!    worth its result (win 1, draw 0.5, loss 0). At the depth cap the
//!    fallback is `0.5 + 0.4·tanh(d / score_scale)`, strictly between a loss
//!    and a win, where `d` is, with one seat, the score gained since the
//!    root (a puzzle's progress) and, with several, the seat's score minus
//!    the mean of the others' scores.
//! 5. *Backup*: every node on the path counts a visit, and every chosen
//!    action adds its seat's value.
//!
//! The action played is the root action of the agent's seat visited most
//! (ties: best mean value, then at random). A seat with one legal action
//! plays it without searching.
//!
//! # Time
//! Each act builds a fresh tree and iterates until the time left before the
//! safety margin of [`Pacer`] (the same discipline as the Bait agents) is
//! under twice the mean iteration time, or after `iterations` iterations if
//! that is not 0. With a timer without a budget and `iterations = 0` it runs
//! [`UNLIMITED_ITERATIONS`].

use crate::pacing::Pacer;
use games::{Agent, AgentStats, Game, PlayerResult, Seat, Timer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// "No node" in sibling lists; "not yet expanded" for a node's seats.
const NONE: u32 = u32::MAX;

/// Iterations per act when `iterations` is 0 and the timer has no budget.
pub const UNLIMITED_ITERATIONS: u64 = 10_000;

/// The settings of [`Uct`] (the agent's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctConfig {
    /// UCB1 exploration constant (values are in `[0, 1]`).
    pub c: f64,
    /// Random actions per playout before the score fallback.
    pub rollout_depth: u32,
    /// Iterations per act; 0: until the time is up.
    pub iterations: u64,
    /// Tree nodes per act; past it the tree stops growing.
    pub max_nodes: usize,
    /// The score difference the depth-cap fallback squashes by `tanh`.
    pub score_scale: f64,
}

impl Default for UctConfig {
    fn default() -> Self {
        UctConfig {
            c: 1.0,
            rollout_depth: 20,
            iterations: 0,
            max_nodes: 200_000,
            score_scale: 10.0,
        }
    }
}

/// One tree node.
#[derive(Clone, Copy, Debug)]
struct Node {
    visits: u32,
    /// First of this node's entries in `Uct::sides`; `NONE` until the node
    /// is selected from for the first time.
    sides: u32,
    /// Number of those entries (the seats with legal actions here).
    nsides: u32,
    first_child: u32,
    next_sibling: u32,
    /// The joint choice that leads here from the parent.
    key: u64,
}

impl Node {
    fn new(key: u64, next_sibling: u32) -> Self {
        Node {
            visits: 0,
            sides: NONE,
            nsides: 0,
            first_child: NONE,
            next_sibling,
            key,
        }
    }
}

/// One active seat of one node: its actions are `edges[start..start + len]`.
#[derive(Clone, Copy, Debug)]
struct Side {
    seat: u32,
    start: u32,
    len: u32,
}

/// One action of one seat in one node, with that seat's statistics.
#[derive(Clone, Copy, Debug)]
struct Edge<A> {
    action: A,
    seat: u32,
    visits: u32,
    reward: f64,
}

/// The `uct` agent (see the module docs).
pub struct Uct<G: Game> {
    cfg: UctConfig,
    rng: ChaCha8Rng,
    nodes: Vec<Node>,
    sides: Vec<Side>,
    edges: Vec<Edge<G::Action>>,
    /// Nodes and chosen edges of the current iteration's path.
    path_nodes: Vec<u32>,
    path_edges: Vec<u32>,
    joint: Vec<G::Action>,
    buf: Vec<G::Action>,
    values: Vec<f64>,
    root_scores: Vec<f64>,
    expanded: u64,
    iterations: u64,
    pacer: Pacer,
}

impl<G: Game> std::fmt::Debug for Uct<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Uct")
            .field("cfg", &self.cfg)
            .field("expanded", &self.expanded)
            .field("iterations", &self.iterations)
            .finish()
    }
}

impl<G: Game> Uct<G> {
    /// A UCT agent with settings `cfg`, seeded with `seed`.
    pub fn new(cfg: UctConfig, seed: u64) -> Self {
        Uct {
            cfg,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            sides: Vec::new(),
            edges: Vec::new(),
            path_nodes: Vec::new(),
            path_edges: Vec::new(),
            joint: Vec::new(),
            buf: Vec::new(),
            values: Vec::new(),
            root_scores: Vec::new(),
            expanded: 0,
            iterations: 0,
            pacer: Pacer::default(),
        }
    }

    /// Iterations run so far, over all acts.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Search from `root` within `timer` (see the module docs) and return
    /// the action for `seat` with the most visits at the root, or `None`
    /// when `seat` has no legal action there.
    pub fn search(&mut self, root: &G, seat: Seat, timer: &dyn Timer) -> Option<G::Action> {
        self.nodes.clear();
        self.sides.clear();
        self.edges.clear();
        self.nodes.push(Node::new(0, NONE));
        let players = root.num_players();
        if players == 0 || seat >= players {
            return None;
        }
        self.values.clear();
        self.values.resize(players, 0.5);
        self.root_scores.clear();
        self.root_scores.extend((0..players).map(|s| root.score(s)));
        let mut pacer = self.pacer;
        let n = pacer.iterate(timer, self.cfg.iterations, UNLIMITED_ITERATIONS, || {
            self.iterate(root)
        });
        self.pacer = pacer;
        self.iterations += n;
        self.best_root_action(seat)
    }

    /// Record the seats that choose in node `id` (state `s`) and their
    /// legal actions.
    fn expand_sides(&mut self, id: u32, s: &G) {
        let start = self.sides.len() as u32;
        for seat in 0..s.num_players() {
            if !s.is_active(seat) {
                continue;
            }
            self.buf.clear();
            s.legal_actions(seat, &mut self.buf);
            if self.buf.is_empty() {
                continue;
            }
            self.sides.push(Side {
                seat: seat as u32,
                start: self.edges.len() as u32,
                len: self.buf.len() as u32,
            });
            for &action in &self.buf {
                self.edges.push(Edge {
                    action,
                    seat: seat as u32,
                    visits: 0,
                    reward: 0.0,
                });
            }
        }
        let node = &mut self.nodes[id as usize];
        node.sides = start;
        node.nsides = self.sides.len() as u32 - start;
    }

    /// Each seat of node `id` (state `s`) picks its action by UCB1; fills
    /// `joint`, records the chosen edges on the path and returns the key of
    /// the joint choice.
    fn select(&mut self, id: u32, s: &G) -> u64 {
        let node = self.nodes[id as usize];
        self.joint.clear();
        let ln = (node.visits.max(1) as f64).ln();
        let mut key = 0u64;
        for k in node.sides..node.sides + node.nsides {
            let side = self.sides[k as usize];
            let mut best = (f64::NEG_INFINITY, 0u32);
            for i in 0..side.len {
                let e = &self.edges[(side.start + i) as usize];
                let noise = self.rng.gen::<f64>();
                let v = if e.visits == 0 {
                    1e9 + noise
                } else {
                    let n = e.visits as f64;
                    e.reward / n + self.cfg.c * (ln / n).sqrt() + noise * 1e-9
                };
                if v > best.0 {
                    best = (v, i);
                }
            }
            let chosen = side.start + best.1;
            self.path_edges.push(chosen);
            // Seats without a side here (inactive) play their fallback.
            while self.joint.len() < side.seat as usize {
                self.joint.push(s.fallback_action(self.joint.len()));
            }
            self.joint.push(self.edges[chosen as usize].action);
            key = key
                .wrapping_mul(side.len as u64)
                .wrapping_add(best.1 as u64);
        }
        while self.joint.len() < s.num_players() {
            self.joint.push(s.fallback_action(self.joint.len()));
        }
        key
    }

    /// The child of `id` reached by joint choice `key`, if in the tree.
    fn child(&self, id: u32, key: u64) -> Option<u32> {
        let mut c = self.nodes[id as usize].first_child;
        while c != NONE {
            let node = &self.nodes[c as usize];
            if node.key == key {
                return Some(c);
            }
            c = node.next_sibling;
        }
        None
    }

    /// One iteration from `root` (see the module docs).
    fn iterate(&mut self, root: &G) {
        let mut s = root.clone();
        self.path_nodes.clear();
        self.path_edges.clear();
        let mut cur = 0u32;
        let mut in_tree = true;
        self.path_nodes.push(cur);
        while !s.is_over() {
            if self.nodes[cur as usize].sides == NONE {
                self.expand_sides(cur, &s);
            }
            let key = self.select(cur, &s);
            s.advance(&self.joint);
            match self.child(cur, key) {
                Some(c) => {
                    cur = c;
                    self.path_nodes.push(cur);
                }
                None => {
                    if self.nodes.len() < self.cfg.max_nodes {
                        let id = self.nodes.len() as u32;
                        let first = self.nodes[cur as usize].first_child;
                        self.nodes.push(Node::new(key, first));
                        self.nodes[cur as usize].first_child = id;
                        self.path_nodes.push(id);
                        self.expanded += 1;
                    }
                    in_tree = false;
                    break;
                }
            }
        }
        if !in_tree {
            self.playout(&mut s);
        }
        self.evaluate(&s);
        for &n in &self.path_nodes {
            let node = &mut self.nodes[n as usize];
            node.visits = node.visits.saturating_add(1);
        }
        for &e in &self.path_edges {
            let edge = &mut self.edges[e as usize];
            edge.visits = edge.visits.saturating_add(1);
            edge.reward += self.values.get(edge.seat as usize).copied().unwrap_or(0.5);
        }
    }

    /// Uniformly random legal actions for every active seat, until the game
    /// ends or `rollout_depth` actions were played.
    fn playout(&mut self, s: &mut G) {
        for _ in 0..self.cfg.rollout_depth {
            if s.is_over() {
                return;
            }
            self.joint.clear();
            for seat in 0..s.num_players() {
                self.buf.clear();
                if s.is_active(seat) {
                    s.legal_actions(seat, &mut self.buf);
                }
                let a = if self.buf.is_empty() {
                    s.fallback_action(seat)
                } else {
                    self.buf[self.rng.gen_range(0..self.buf.len())]
                };
                self.joint.push(a);
            }
            s.advance(&self.joint);
        }
    }

    /// The value of end state `s` for every seat, into `values`.
    fn evaluate(&mut self, s: &G) {
        let players = self.values.len();
        if s.is_over() {
            for (seat, v) in self.values.iter_mut().enumerate() {
                *v = result_value(s.result(seat));
            }
            return;
        }
        let scale = self.cfg.score_scale;
        let squash = |d: f64| 0.5 + 0.4 * (d / scale).tanh();
        if players == 1 {
            self.values[0] = squash(s.score(0) - self.root_scores[0]);
            return;
        }
        let total: f64 = (0..players).map(|seat| s.score(seat)).sum();
        for seat in 0..players {
            let mine = s.score(seat);
            let others = (total - mine) / (players - 1) as f64;
            self.values[seat] = squash(mine - others);
        }
    }

    /// The root action of `seat` visited most (ties: best mean, then at
    /// random).
    fn best_root_action(&mut self, seat: Seat) -> Option<G::Action> {
        let root = self.nodes[0];
        if root.sides == NONE {
            return None;
        }
        let side = (root.sides..root.sides + root.nsides)
            .map(|k| self.sides[k as usize])
            .find(|side| side.seat as usize == seat)?;
        let mut best: Option<((u32, f64, f64), G::Action)> = None;
        for e in &self.edges[side.start as usize..(side.start + side.len) as usize] {
            let mean = if e.visits == 0 {
                0.0
            } else {
                e.reward / e.visits as f64
            };
            let rank = (e.visits, mean, self.rng.gen::<f64>());
            let better = match &best {
                None => true,
                Some((r, _)) => rank > *r,
            };
            if better {
                best = Some((rank, e.action));
            }
        }
        best.map(|(_, a)| a)
    }
}

/// The value of a finished game's result: win 1, draw 0.5, loss 0 (and 0.5
/// for a game over but reported ongoing).
fn result_value(r: PlayerResult) -> f64 {
    match r {
        PlayerResult::Win => 1.0,
        PlayerResult::Loss => 0.0,
        PlayerResult::Draw | PlayerResult::Ongoing => 0.5,
    }
}

impl<G: Game> Agent<G> for Uct<G> {
    fn act(&mut self, state: &G, seat: Seat, timer: &dyn Timer) -> G::Action {
        self.buf.clear();
        state.legal_actions(seat, &mut self.buf);
        match self.buf.len() {
            0 => return state.fallback_action(seat),
            1 => return self.buf[0],
            _ => {}
        }
        self.search(state, seat, timer)
            .unwrap_or_else(|| state.fallback_action(seat))
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.expanded),
        }
    }
}
