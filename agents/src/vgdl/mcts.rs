//! `mcts`: GVGAI's `sampleMCTS` for any VGDL game.
//!
//! Every act builds a new tree rooted at the current state (as the sample
//! does) over the avatar's actions (GVGAI's `getAvailableActions()`, without
//! NIL) and runs iterations while the time allows:
//! - *selection/expansion*: from the root, while the game is not over and
//!   the node is less than `rollout_depth` deep, expand a random untried
//!   action if there is one (the untried action with the largest of one
//!   uniform draw each), else descend to the child with the best UCB1 value
//!   `Q/N (normalised) + K·sqrt(ln(N_parent + 1) / (N_child + ε))`;
//! - *rollout*: uniformly random actions until the game ends or the depth
//!   from the root reaches `rollout_depth` (10);
//! - *value*: the game score, plus 10^7 for a win and minus 10^7 for a
//!   loss;
//! - *backup*: every node on the path adds the value and a visit, and
//!   widens its observed value bounds;
//! - Q/N is normalised to [0, 1] by the parent's observed bounds; every
//!   comparison gets GVGAI's multiplicative noise `(v + ε)(1 + ε(r − ½))`,
//!   ε = 10⁻⁶, to break ties at random.
//!
//! In a game of several players the tree is over the agent's own avatar's
//! actions and the value is its own player's score and win state; the
//! opponent (the next player) plays a uniformly random action of its own at
//! every tree step and every player a random one in the rollout, as GVGAI's
//! two-player sampleMCTS does.
//!
//! The action played is the root child visited most (the best mean value if
//! all were visited equally). The loop stops when the time left before the
//! safety margin ([`Pacer`]) is under twice the mean iteration time, like
//! the sample's `remaining > 2 · avgTimeTaken` test.

use crate::pacing::Pacer;
use games::vgdl::{Action, VgdlGame, Winner};
use games::{Agent, AgentStats, Game, Seat, Timer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const HUGE: f64 = 1e7;
const EPSILON: f64 = 1e-6;
const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    /// Index of this node's first child slot in `Mcts::kids`.
    kids: u32,
    visits: u32,
    total: f64,
    /// Lowest and highest value backed up through this node.
    bounds: (f64, f64),
    depth: u32,
}

/// The sampleMCTS agent.
pub struct Mcts {
    k: f64,
    rollout_depth: u32,
    max_iterations: u32,
    rng: ChaCha8Rng,
    nodes: Vec<Node>,
    /// Child slots, `actions.len()` per node (`NONE`: not expanded).
    kids: Vec<u32>,
    actions: Vec<Action>,
    /// The seat playing, its opponent's actions and every player's, for
    /// the act under way.
    seat: Seat,
    opp_actions: Vec<Action>,
    all_actions: Vec<Vec<Action>>,
    expanded: u64,
    pacer: Pacer,
}

fn noise(v: f64, r: f64) -> f64 {
    (v + EPSILON) * (1.0 + EPSILON * (r - 0.5))
}

fn normalise(v: f64, lo: f64, hi: f64) -> f64 {
    if lo < hi {
        (v - lo) / (hi - lo)
    } else {
        v
    }
}

/// The value of `s` for player `p`.
fn value(s: &VgdlGame, p: usize) -> f64 {
    let mut v = s.state.score_of(p);
    if s.is_over() {
        match s.state.winner_of(p) {
            Winner::Win => v += HUGE,
            Winner::Loss => v -= HUGE,
            Winner::None => {}
        }
    }
    v
}

impl Mcts {
    /// A sampleMCTS agent with exploration constant `k` and rollout depth
    /// `rollout_depth`, seeded with `seed`. `max_iterations` caps the
    /// iterations per act (0: only time limits them; under a timer without
    /// a budget, 0 means 10,000).
    pub fn new(k: f64, rollout_depth: u32, max_iterations: u32, seed: u64) -> Self {
        Mcts {
            k,
            rollout_depth: rollout_depth.max(1),
            max_iterations,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            kids: Vec::new(),
            actions: Vec::new(),
            seat: 0,
            opp_actions: Vec::new(),
            all_actions: Vec::new(),
            expanded: 0,
            pacer: Pacer::default(),
        }
    }

    fn push_node(&mut self, parent: u32, depth: u32) -> u32 {
        let id = self.nodes.len() as u32;
        let kids = self.kids.len() as u32;
        self.kids
            .extend(std::iter::repeat_n(NONE, self.actions.len()));
        self.nodes.push(Node {
            parent,
            kids,
            visits: 0,
            total: 0.0,
            bounds: (f64::MAX, -f64::MAX),
            depth,
        });
        id
    }

    fn children(&self, n: u32) -> &[u32] {
        let k = self.nodes[n as usize].kids as usize;
        &self.kids[k..k + self.actions.len()]
    }

    /// Advances `s` with the agent's action `a` and, with several players,
    /// a random action of its opponent.
    fn step(&mut self, s: &mut VgdlGame, a: Action) {
        let players = self.all_actions.len();
        if players <= 1 {
            s.advance(&[a]);
            return;
        }
        let theirs = if self.opp_actions.is_empty() {
            Action::Nil
        } else {
            self.opp_actions[self.rng.gen_range(0..self.opp_actions.len())]
        };
        s.advance(&super::joint(players, self.seat, a, theirs));
    }

    /// One iteration from the root state `root`.
    fn iterate(&mut self, root: &VgdlGame) {
        let n_actions = self.actions.len();
        let mut s = root.clone();
        let mut cur = 0u32;
        while !s.is_over() && self.nodes[cur as usize].depth < self.rollout_depth {
            let kids = self.nodes[cur as usize].kids as usize;
            if self.kids[kids..kids + n_actions].contains(&NONE) {
                // Expand the untried action with the largest draw.
                let mut best = (-1.0, 0usize);
                for i in 0..n_actions {
                    let x = self.rng.gen::<f64>();
                    if x > best.0 && self.kids[kids + i] == NONE {
                        best = (x, i);
                    }
                }
                let depth = self.nodes[cur as usize].depth + 1;
                let id = self.push_node(cur, depth);
                self.kids[kids + best.1] = id;
                self.expanded += 1;
                self.step(&mut s, self.actions[best.1]);
                cur = id;
                break;
            }
            let node = &self.nodes[cur as usize];
            let (lo, hi) = node.bounds;
            let ln = ((node.visits + 1) as f64).ln();
            let mut best = (-f64::MAX, 0usize);
            for i in 0..n_actions {
                let child = &self.nodes[self.kids[kids + i] as usize];
                let q = normalise(child.total / (child.visits as f64 + EPSILON), lo, hi);
                let u = q + self.k * (ln / (child.visits as f64 + EPSILON)).sqrt();
                let u = noise(u, self.rng.gen::<f64>());
                if u > best.0 {
                    best = (u, i);
                }
            }
            self.step(&mut s, self.actions[best.1]);
            cur = self.kids[kids + best.1];
        }
        // Rollout.
        let mut depth = self.nodes[cur as usize].depth;
        while depth < self.rollout_depth && !s.is_over() {
            if self.all_actions.len() <= 1 {
                let a = self.actions[self.rng.gen_range(0..n_actions)];
                s.advance(&[a]);
            } else {
                let rng = &mut self.rng;
                let joint: Vec<Action> = self
                    .all_actions
                    .iter()
                    .map(|acts| {
                        if acts.is_empty() {
                            Action::Nil
                        } else {
                            acts[rng.gen_range(0..acts.len())]
                        }
                    })
                    .collect();
                s.advance(&joint);
            }
            depth += 1;
        }
        let v = value(&s, self.seat);
        // Backup.
        let mut n = cur;
        while n != NONE {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.total += v;
            node.bounds.0 = node.bounds.0.min(v);
            node.bounds.1 = node.bounds.1.max(v);
            n = node.parent;
        }
    }

    /// The root child visited most; the best mean when all are equal.
    fn most_visited(&mut self) -> usize {
        let root: Vec<u32> = self.children(0).to_vec();
        let mut best = (-f64::MAX, None);
        let mut first = None;
        let mut all_equal = true;
        for (i, &c) in root.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let visits = self.nodes[c as usize].visits;
            match first {
                None => first = Some(visits),
                Some(f) if f != visits => all_equal = false,
                _ => {}
            }
            let v = noise(visits as f64, self.rng.gen::<f64>());
            if v > best.0 {
                best = (v, Some(i));
            }
        }
        match best.1 {
            None => 0,
            Some(_) if all_equal => self.best_mean(&root),
            Some(i) => i,
        }
    }

    fn best_mean(&mut self, root: &[u32]) -> usize {
        let mut best = (-f64::MAX, 0);
        for (i, &c) in root.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let child = &self.nodes[c as usize];
            let v = noise(
                child.total / (child.visits as f64 + EPSILON),
                self.rng.gen::<f64>(),
            );
            if v > best.0 {
                best = (v, i);
            }
        }
        best.1
    }
}

impl Agent<VgdlGame> for Mcts {
    fn act(&mut self, state: &VgdlGame, seat: Seat, timer: &dyn Timer) -> Action {
        let players = state.num_players();
        self.seat = seat;
        self.all_actions = (0..players).map(|p| state.player_actions(p)).collect();
        self.actions = state.player_actions(seat);
        self.opp_actions = super::opponent(players, seat)
            .map(|o| state.player_actions(o))
            .unwrap_or_default();
        if self.actions.is_empty() {
            return Action::Nil;
        }
        self.nodes.clear();
        self.kids.clear();
        self.push_node(NONE, 0);
        let mut pacer = self.pacer;
        pacer.iterate(timer, self.max_iterations.into(), 10_000, || {
            self.iterate(state)
        });
        self.pacer = pacer;
        let i = self.most_visited();
        self.actions[i]
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.expanded),
        }
    }
}
