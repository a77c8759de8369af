//! `mcts`: UCT as in GVGAI's `sampleMCTS` (report Task 4).
//!
//! Every act builds a new tree rooted at the current position (as the
//! sample does) and runs iterations while the time allows:
//! - *selection/expansion*: from the root, while the game is not over and
//!   the node is less than `rollout_depth` deep, expand a random untried
//!   action if there is one, else descend to the child with the best UCB1
//!   value `Q/N (normalised) + K·sqrt(ln(N_parent + 1) / N_child)`;
//! - *rollout*: uniformly random actions until the game ends or the depth
//!   from the root reaches `rollout_depth` (10);
//! - *value*: the game score, plus 10^7 for a win and minus 10^7 for a loss;
//! - *backup*: every node on the path adds the value and a visit, and widens
//!   its observed value bounds;
//! - Q/N is normalised to [0, 1] by the parent's observed bounds; every
//!   comparison gets GVGAI's multiplicative noise `(v + ε)(1 + ε(r − ½))`,
//!   ε = 10⁻⁶, to break ties at random.
//!
//! The action played is the root child visited most (the best mean value if
//! all were visited equally). The actions are GVGAI's four moves (NIL is not
//! among the avatar's available actions). The loop stops when the time left
//! before the safety margin ([`Pacer`]) is under twice the mean iteration
//! time, like the sample's `remaining > 2 · avgTimeTaken` test (whose margin
//! is 5 ms).

use super::search::Pacer;
use games::bait::{Bait, BaitAction};
use games::{Agent, AgentStats, Game, Seat, Timer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const HUGE: f64 = 1e7;
const EPSILON: f64 = 1e-6;
const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    children: [u32; 4],
    visits: u32,
    total: f64,
    /// Lowest and highest value backed up through this node.
    bounds: (f64, f64),
    depth: u32,
}

impl Node {
    fn new(parent: u32, depth: u32) -> Self {
        Node {
            parent,
            children: [NONE; 4],
            visits: 0,
            total: 0.0,
            bounds: (f64::MAX, -f64::MAX),
            depth,
        }
    }
}

/// The UCT agent.
pub struct Mcts {
    k: f64,
    rollout_depth: u32,
    max_iterations: u32,
    rng: ChaCha8Rng,
    nodes: Vec<Node>,
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

fn value(s: &Bait) -> f64 {
    let mut v = s.score(0);
    if s.is_over() {
        v += if s.won() { HUGE } else { -HUGE };
    }
    v
}

impl Mcts {
    /// A UCT agent with exploration constant `k` and rollout depth
    /// `rollout_depth`, seeded with `seed`. `max_iterations` caps the
    /// iterations per act (0: only time limits them; under a timer without a
    /// budget, 0 means 10,000).
    pub fn new(k: f64, rollout_depth: u32, max_iterations: u32, seed: u64) -> Self {
        Mcts {
            k,
            rollout_depth: rollout_depth.max(1),
            max_iterations,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::with_capacity(1 << 17),
            expanded: 0,
            pacer: Pacer::default(),
        }
    }

    /// One iteration from the root state `root`.
    fn iterate(&mut self, root: &Bait) {
        let mut s = root.clone();
        // Selection and expansion.
        let mut cur = 0u32;
        while !s.is_over() && self.nodes[cur as usize].depth < self.rollout_depth {
            let node = &self.nodes[cur as usize];
            if node.children.contains(&NONE) {
                // Expand a random untried action.
                let mut best = (-1.0, 0usize);
                for (i, &c) in node.children.iter().enumerate() {
                    let x = self.rng.gen::<f64>();
                    if c == NONE && x > best.0 {
                        best = (x, i);
                    }
                }
                let depth = node.depth + 1;
                let id = self.nodes.len() as u32;
                self.nodes.push(Node::new(cur, depth));
                self.nodes[cur as usize].children[best.1] = id;
                self.expanded += 1;
                s.advance(&[BaitAction::MOVES[best.1]]);
                cur = id;
                break;
            }
            let (lo, hi) = node.bounds;
            let ln = ((node.visits + 1) as f64).ln();
            let mut best = (f64::NEG_INFINITY, 0usize);
            for i in 0..4 {
                let child = &self.nodes[node.children[i] as usize];
                let q = normalise(child.total / (child.visits as f64 + EPSILON), lo, hi);
                let u = q + self.k * (ln / (child.visits as f64 + EPSILON)).sqrt();
                let u = noise(u, self.rng.gen::<f64>());
                if u > best.0 {
                    best = (u, i);
                }
            }
            s.advance(&[BaitAction::MOVES[best.1]]);
            cur = node.children[best.1];
        }
        // Rollout.
        let mut depth = self.nodes[cur as usize].depth;
        while depth < self.rollout_depth && !s.is_over() {
            s.advance(&[BaitAction::MOVES[self.rng.gen_range(0..4)]]);
            depth += 1;
        }
        let v = value(&s);
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

    fn most_visited(&mut self) -> usize {
        let root = self.nodes[0].clone();
        let mut best = (f64::NEG_INFINITY, None);
        let mut first = None;
        let mut all_equal = true;
        for (i, &c) in root.children.iter().enumerate() {
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

    fn best_mean(&mut self, root: &Node) -> usize {
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, &c) in root.children.iter().enumerate() {
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

impl Agent<Bait> for Mcts {
    fn act(&mut self, state: &Bait, _seat: Seat, timer: &dyn Timer) -> BaitAction {
        self.nodes.clear();
        self.nodes.push(Node::new(NONE, 0));
        // Like the sample: one clock read per iteration.
        let mut pacer = self.pacer;
        pacer.iterate(timer, self.max_iterations.into(), 10_000, || {
            self.iterate(state)
        });
        self.pacer = pacer;
        BaitAction::MOVES[self.most_visited()]
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.expanded),
        }
    }
}
