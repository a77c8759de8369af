//! Planning agents for the supply maze: `bfs`, `ucs`, `astar`,
//! `astar-supply` (and the generic `random`).
//!
//! All four planners search the state space of [`games::supply`]: a state is
//! `(cell, food)`, a move costs 1, and [`SupplyMap::step`] is the transition
//! function. All four are optimal (moves have unit cost, the heuristics are
//! admissible and consistent), so they return paths of the same length; they
//! differ in the number of nodes they expand.
//!
//! # Counting
//! A node is *expanded* when it is taken from the open list (queue or
//! priority queue) and its successors are generated. Stale heap entries
//! (a state already closed, or queued again with a lower cost) are skipped
//! and not counted; the goal is not counted (the search stops when it is
//! popped: UCS and A*) or generated (BFS). Work done before the search (the
//! distance tables of `astar-supply`) is not counted in `expanded`; see
//! [`SupplyHeuristic`].
//!
//! # Tie-breaking
//! UCS and A* order the open list by `f = g + h`, then by larger `g` (deeper
//! first, which helps A* on its large plateaus of equal `f`), then first in,
//! first out. For UCS (`h = 0`) this is plain FIFO among equal `g`. The order
//! is deterministic, so expansions are reproducible.
//!
//! # Playing
//! An agent plans once (in `init`, or in the first `act` if `init` ran out of
//! time) from the state it is given and then replays the plan. If the state
//! it sees is not the one the plan expects (the harness played a fallback
//! move after an overrun), it plans again from there; `expanded` adds up all
//! searches. When the exit is unreachable the agent plays the game's fallback
//! move (the first legal move, U/D/L/R order) until the game ends as a loss
//! (stuck or step limit) — an outcome, never a panic.

use crate::generic::RandomAgent;
use crate::params::{check_listed, unknown_agent, AgentError, AgentInfo, AgentParams};
use games::supply::{Dir, Supply, SupplyMap};
use games::{Agent, AgentStats, Game, Seat, Timer};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// The built-in supply-maze agents.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "bfs",
        description: "breadth-first search over (cell, food); optimal (unit step costs)",
        params: &[],
    },
    AgentInfo {
        name: "ucs",
        description: "uniform-cost search (Dijkstra) over (cell, food), h = 0",
        params: &[],
    },
    AgentInfo {
        name: "astar",
        description: "A* with the Manhattan distance to the exit (the report's heuristic)",
        params: &[],
    },
    AgentInfo {
        name: "astar-supply",
        description: "A* with a food-aware admissible heuristic: shortest route via supply cells whose legs fit the budget",
        params: &[],
    },
    AgentInfo {
        name: "random",
        description: "uniform over the legal moves, seeded (a baseline that rarely finds the exit)",
        params: &[],
    },
];

/// Build the supply-maze agent `name` with `params`, seeded with `seed`.
pub fn make(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<Supply>>, AgentError> {
    check_listed("supply", AGENTS, name, params)?;
    let algo = match name {
        "random" => return Ok(Box::new(RandomAgent::new(seed))),
        other => Algo::from_name(other).ok_or_else(|| unknown_agent("supply", name, AGENTS))?,
    };
    Ok(Box::new(Planner::new(algo)))
}

/// A search algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algo {
    /// Breadth-first search; goal test when a state is generated.
    Bfs,
    /// Uniform-cost search (Dijkstra): best-first on `g`.
    Ucs,
    /// A* with `h = Manhattan distance to the exit`.
    ///
    /// *Admissible*: each move changes the row or the column by one, so any
    /// path to the exit, feasible or not, has at least Manhattan-distance
    /// moves; walls and the food rule only remove paths. *Consistent*: one
    /// move (cost 1) changes the Manhattan distance by exactly ±1, so
    /// `h(s) ≤ 1 + h(s')` for every move `s → s'`, and `h(exit) = 0`.
    Astar,
    /// A* with [`SupplyHeuristic`] (admissibility and consistency proved there).
    AstarSupply,
}

impl Algo {
    /// Every algorithm, in registry order.
    pub const ALL: [Algo; 4] = [Algo::Bfs, Algo::Ucs, Algo::Astar, Algo::AstarSupply];

    /// The agent name: `bfs`, `ucs`, `astar`, `astar-supply`.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Bfs => "bfs",
            Algo::Ucs => "ucs",
            Algo::Astar => "astar",
            Algo::AstarSupply => "astar-supply",
        }
    }

    /// The algorithm of an agent name.
    pub fn from_name(name: &str) -> Option<Algo> {
        Algo::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// The result of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchOutcome {
    /// A shortest path to the exit.
    Found(Vec<Dir>),
    /// Every reachable state was expanded (or pruned as dead) and none is the exit.
    Unreachable,
    /// The timer ran out first.
    Interrupted,
}

/// A search result and its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// What was found.
    pub outcome: SearchOutcome,
    /// Nodes expanded (see the module docs).
    pub expanded: u64,
    /// Work done before the search: [`SupplyHeuristic::work`] when
    /// `astar-supply` built its tables in this call, else 0.
    pub precompute: u64,
}

/// How often (in expansions) a search reads the timer.
const POLL: u64 = 1024;

/// The most states a search stores (about 1 GB): past it the search stops
/// as [`SearchOutcome::Interrupted`], like a timeout. Only absurd inputs get
/// there (e.g. a huge grid with a huge `T` and an unreachable exit, where the
/// `(cell, food)` space has `cells × (T + 1)` states).
pub const MAX_NODES: usize = 1 << 24;

/// A multiplicative hasher for the `u64` state keys (std's SipHash is ~3x slower here).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (v ^ (v >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

fn key(cell: u32, food: u32) -> u64 {
    (cell as u64) << 32 | food as u64
}

/// One search node: a state, its best known cost and how it was reached.
#[derive(Clone, Copy, Debug)]
struct Node {
    cell: u32,
    food: u32,
    g: u32,
    parent: u32,
    dir: Dir,
    closed: bool,
}

fn path_to(nodes: &[Node], mut i: usize) -> Vec<Dir> {
    let mut path = Vec::new();
    while nodes[i].parent != u32::MAX {
        path.push(nodes[i].dir);
        i = nodes[i].parent as usize;
    }
    path.reverse();
    path
}

/// The food-aware heuristic of `astar-supply`.
///
/// Let `D(x, y)` be the maze distance (shortest path length over non-wall
/// cells, ignoring food) and `T` the capacity. A *relaxed route* from a state
/// `(c, f)` is either a direct leg `c → exit` with `D(c, exit) ≤ f`, or a
/// first leg into a supply cell `s₁` of length `L₁ = D(c, s₁)` (or `2` if
/// `s₁ = c`: step out and back in) with `L₁ ≤ f + 1`, then legs
/// `sᵢ → sᵢ₊₁` between supply cells with `D ≤ T`, then `s_k → exit` with
/// `D ≤ T − 1`; its length is the sum of the leg lengths. The heuristic is
/// `h(c, f)` = the length of the shortest relaxed route (∞ if none), computed
/// as `min(D(c, exit) if ≤ f; min over supplies s with L(c, s) ≤ f + 1 of
/// L(c, s) + H(s))`, where `H(s)` is the shortest relaxed route from a supply
/// cell (Dijkstra on the graph of supply cells and the exit).
///
/// *Admissible.* Cut any real path from `(c, f)` to the exit at the supply
/// cells it enters. By the food rule (see [`games::supply`]): the first piece
/// has at most `f` moves if it ends at the exit (each move needs food > 0)
/// and at most `f + 1` if it ends at a supply cell (the last move may be made
/// at food 0); a piece from a supply cell (left with `T − 1`) has at most `T`
/// moves to the next supply cell and `T − 1` to the exit. Each piece is at
/// least as long as the maze distance between its ends (at least 2 if it
/// returns to its own start), so the pieces give a relaxed route no longer
/// than the path: `h ≤ h*`. In particular `h = ∞` only for states from
/// which the exit is unreachable: such states are pruned, which is safe.
///
/// *Exact, in fact.* Conversely every relaxed route can be walked: follow a
/// maze-shortest path for each leg. Along a leg of length `L` from food `f`,
/// moves `1..L−1` need food `f, f−1, …, f−L+2 > 0`, i.e. `L ≤ f + 1`, and
/// the last move may enter a supply cell at food 0 (or needs food `> 0` to
/// enter the exit, i.e. `L ≤ f`); a supply cell passed on the way only
/// refills, and passing the exit early only shortens the walk. So `h = h*`:
/// the food-feasible distance through supply cells *is* the optimal cost,
/// and A* with it expands only the nodes of one optimal path (with the
/// deeper-first tie-breaking). The unit tests check `h = h*` on every
/// state of 60 small maps. The price is paid before the search (below),
/// not in `expanded`.
///
/// *Consistent* (follows from exactness: `h* (s) ≤ 1 + h*(s')` for every
/// move; and `h(exit, f) = 0`).
///
/// *Stronger than Manhattan.* Every relaxed route is at least `D(c, exit)`
/// long (triangle inequality), and `D ≥` Manhattan; so A* with it never
/// needs more expansions than `astar`, up to ties.
///
/// *Cost.* Building it runs one BFS over the cells from the exit and from
/// each supply cell (`(S + 1) × cells` work, `S × cells` memory, reported by
/// [`Self::work`]) plus an `O(S²)` Dijkstra; evaluating it is `O(S)`. Above
/// [`Self::MAX_TABLE`] table entries it keeps only the exit table and falls
/// back to the maze distance `D(c, exit)` (admissible and consistent, not
/// exact; ∞ for cells cut off from the exit).
#[derive(Clone, Debug)]
pub struct SupplyHeuristic {
    full: bool,
    to_exit: Vec<u32>,
    /// `to_supply[k][c]` = D(c, supplies[k]); empty in fallback mode.
    to_supply: Vec<Vec<u32>>,
    /// `route[k]` = H(supplies[k]).
    route: Vec<u32>,
    work: u64,
}

const INF: u32 = u32::MAX;

fn bfs_dist(map: &SupplyMap, from: u32) -> Vec<u32> {
    let mut dist = vec![INF; map.num_cells()];
    let mut q = VecDeque::new();
    dist[from as usize] = 0;
    q.push_back(from);
    while let Some(c) = q.pop_front() {
        let dc = dist[c as usize];
        for d in Dir::ALL {
            if let Some(n) = map.neighbor(c, d) {
                if dist[n as usize] == INF {
                    dist[n as usize] = dc + 1;
                    q.push_back(n);
                }
            }
        }
    }
    dist
}

impl SupplyHeuristic {
    /// The largest `supplies × cells` table built; larger maps use the maze
    /// distance only.
    pub const MAX_TABLE: usize = 1 << 24;

    /// Build the tables for `map`.
    pub fn new(map: &SupplyMap) -> SupplyHeuristic {
        let t = map.capacity();
        let to_exit = bfs_dist(map, map.exit());
        let sup = map.supplies();
        if sup.len().saturating_mul(map.num_cells()) > Self::MAX_TABLE {
            return SupplyHeuristic {
                full: false,
                to_exit,
                to_supply: Vec::new(),
                route: Vec::new(),
                work: map.num_cells() as u64,
            };
        }
        let to_supply: Vec<Vec<u32>> = sup.iter().map(|&s| bfs_dist(map, s)).collect();
        // Dijkstra towards the exit on the supply graph (dense, O(S²)).
        let n = sup.len();
        let mut route: Vec<u32> = sup
            .iter()
            .map(|&s| {
                let d = to_exit[s as usize];
                if d < t {
                    d
                } else {
                    INF
                }
            })
            .collect();
        let mut done = vec![false; n];
        loop {
            let next = (0..n)
                .filter(|&k| !done[k] && route[k] != INF)
                .min_by_key(|&k| route[k]);
            let Some(k) = next else { break };
            done[k] = true;
            for j in 0..n {
                if done[j] {
                    continue;
                }
                let d = to_supply[k][sup[j] as usize];
                if d <= t {
                    let cand = d + route[k];
                    if cand < route[j] {
                        route[j] = cand;
                    }
                }
            }
        }
        SupplyHeuristic {
            full: true,
            to_exit,
            to_supply,
            route,
            work: (n as u64 + 1) * map.num_cells() as u64 + (n as u64) * (n as u64),
        }
    }

    /// The work of building the tables: cells scanned by the BFSs
    /// (`(S + 1) × cells`) plus `S²` for the Dijkstra on the supply graph.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Whether the full tables were built (not the maze-distance fallback).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// `h(cell, food)`, `None` for ∞ (the exit cannot be reached from this state).
    pub fn h(&self, cell: u32, food: u32) -> Option<u32> {
        let c = cell as usize;
        let de = self.to_exit[c];
        if de == INF {
            return None;
        }
        if !self.full {
            return Some(de);
        }
        let mut best = if de <= food { de } else { INF };
        let allow = food as u64 + 1;
        for (k, tab) in self.to_supply.iter().enumerate() {
            let ds = tab[c];
            // Standing on this supply, a leg back into it leaves and
            // re-enters: 2 moves (the refill of a state happened on entering).
            let leg = if ds == 0 { 2 } else { ds };
            if ds != INF && (leg as u64) <= allow && self.route[k] != INF {
                best = best.min(leg + self.route[k]);
            }
        }
        (best != INF).then_some(best)
    }
}

/// Run `algo` on `map` from state `(cell, food)`; `stop` is polled every
/// 1,024 expansions and interrupts the search when it returns true (as does
/// storing more than [`MAX_NODES`] states).
pub fn search_from(
    map: &SupplyMap,
    cell: u32,
    food: u32,
    algo: Algo,
    heuristic: Option<&SupplyHeuristic>,
    stop: &dyn Fn() -> bool,
) -> SearchResult {
    match algo {
        Algo::Bfs => bfs(map, cell, food, stop),
        Algo::Ucs => best_first(map, cell, food, stop, |_, _| Some(0)),
        Algo::Astar => {
            let exit = map.exit();
            best_first(map, cell, food, stop, |c, _| Some(map.manhattan(c, exit)))
        }
        Algo::AstarSupply => {
            let built;
            let h = match heuristic {
                Some(h) => h,
                None => {
                    built = SupplyHeuristic::new(map);
                    &built
                }
            };
            let mut r = best_first(map, cell, food, stop, |c, f| h.h(c, f));
            if heuristic.is_none() {
                r.precompute = h.work();
            }
            r
        }
    }
}

/// Run `algo` on `map` from its start, polling `timer`.
pub fn solve(map: &SupplyMap, algo: Algo, timer: &dyn Timer) -> SearchResult {
    search_from(map, map.start(), map.capacity(), algo, None, &|| {
        timer.exceeded()
    })
}

fn bfs(map: &SupplyMap, cell: u32, food: u32, stop: &dyn Fn() -> bool) -> SearchResult {
    let exit = map.exit();
    let mut expanded = 0;
    if cell == exit {
        return SearchResult {
            outcome: SearchOutcome::Found(Vec::new()),
            expanded,
            precompute: 0,
        };
    }
    let mut nodes = vec![Node {
        cell,
        food,
        g: 0,
        parent: u32::MAX,
        dir: Dir::Up,
        closed: false,
    }];
    let mut seen: KeyMap<()> = KeyMap::default();
    seen.insert(key(cell, food), ());
    let mut head = 0;
    while head < nodes.len() {
        if expanded % POLL == POLL - 1 && (stop() || nodes.len() > MAX_NODES) {
            return SearchResult {
                outcome: SearchOutcome::Interrupted,
                expanded,
                precompute: 0,
            };
        }
        let n = nodes[head];
        expanded += 1;
        for d in Dir::ALL {
            let Some((c2, f2)) = map.step(n.cell, n.food, d) else {
                continue;
            };
            if seen.insert(key(c2, f2), ()).is_some() {
                continue;
            }
            nodes.push(Node {
                cell: c2,
                food: f2,
                g: n.g + 1,
                parent: head as u32,
                dir: d,
                closed: false,
            });
            if c2 == exit {
                return SearchResult {
                    outcome: SearchOutcome::Found(path_to(&nodes, nodes.len() - 1)),
                    expanded,
                    precompute: 0,
                };
            }
        }
        head += 1;
    }
    SearchResult {
        outcome: SearchOutcome::Unreachable,
        expanded,
        precompute: 0,
    }
}

fn best_first(
    map: &SupplyMap,
    cell: u32,
    food: u32,
    stop: &dyn Fn() -> bool,
    h: impl Fn(u32, u32) -> Option<u32>,
) -> SearchResult {
    let exit = map.exit();
    let mut expanded = 0u64;
    let Some(h0) = h(cell, food) else {
        return SearchResult {
            outcome: SearchOutcome::Unreachable,
            expanded,
            precompute: 0,
        };
    };
    let mut nodes = vec![Node {
        cell,
        food,
        g: 0,
        parent: u32::MAX,
        dir: Dir::Up,
        closed: false,
    }];
    let mut index: KeyMap<u32> = KeyMap::default();
    index.insert(key(cell, food), 0);
    // Min-heap on (f, deeper first, FIFO).
    let mut open = BinaryHeap::new();
    let mut seq = 0u64;
    open.push(Reverse((h0 as u64, Reverse(0u32), seq, 0u32)));
    while let Some(Reverse((_, Reverse(g), _, i))) = open.pop() {
        let n = nodes[i as usize];
        if n.closed || g > n.g {
            continue;
        }
        if n.cell == exit {
            return SearchResult {
                outcome: SearchOutcome::Found(path_to(&nodes, i as usize)),
                expanded,
                precompute: 0,
            };
        }
        if expanded % POLL == POLL - 1 && (stop() || nodes.len() > MAX_NODES) {
            return SearchResult {
                outcome: SearchOutcome::Interrupted,
                expanded,
                precompute: 0,
            };
        }
        nodes[i as usize].closed = true;
        expanded += 1;
        for d in Dir::ALL {
            let Some((c2, f2)) = map.step(n.cell, n.food, d) else {
                continue;
            };
            let g2 = n.g + 1;
            let j = match index.get(&key(c2, f2)) {
                Some(&j) => {
                    let m = &mut nodes[j as usize];
                    // Consistent heuristics: a closed state has its optimal g.
                    if m.closed || g2 >= m.g {
                        continue;
                    }
                    m.g = g2;
                    m.parent = i;
                    m.dir = d;
                    j
                }
                None => {
                    let j = nodes.len() as u32;
                    index.insert(key(c2, f2), j);
                    nodes.push(Node {
                        cell: c2,
                        food: f2,
                        g: g2,
                        parent: i,
                        dir: d,
                        closed: false,
                    });
                    j
                }
            };
            // h of a state never changes: ∞ states are never queued.
            let Some(h2) = h(c2, f2) else { continue };
            seq += 1;
            open.push(Reverse((g2 as u64 + h2 as u64, Reverse(g2), seq, j)));
        }
    }
    SearchResult {
        outcome: SearchOutcome::Unreachable,
        expanded,
        precompute: 0,
    }
}

/// A planning agent: searches once with its [`Algo`], then replays the plan.
#[derive(Debug)]
pub struct Planner {
    algo: Algo,
    plan: Vec<Dir>,
    /// The state the next planned move starts from.
    expect: Option<(u32, u32)>,
    expanded: u64,
    unreachable: bool,
    heuristic: Option<SupplyHeuristic>,
}

impl Planner {
    /// A planner using `algo`.
    pub fn new(algo: Algo) -> Planner {
        Planner {
            algo,
            plan: Vec::new(),
            expect: None,
            expanded: 0,
            unreachable: false,
            heuristic: None,
        }
    }

    /// Whether the last search proved the exit unreachable.
    pub fn unreachable(&self) -> bool {
        self.unreachable
    }

    fn plan_from(&mut self, state: &Supply, timer: &dyn Timer) {
        let map = state.map();
        if self.algo == Algo::AstarSupply && self.heuristic.is_none() {
            self.heuristic = Some(SupplyHeuristic::new(map));
        }
        let r = search_from(
            map,
            state.pos(),
            state.food(),
            self.algo,
            self.heuristic.as_ref(),
            &|| timer.exceeded(),
        );
        self.expanded += r.expanded;
        self.plan.clear();
        self.expect = None;
        match r.outcome {
            SearchOutcome::Found(mut p) => {
                p.reverse(); // pop from the back
                self.plan = p;
                self.expect = Some((state.pos(), state.food()));
            }
            // From any state reachable from here the exit stays unreachable.
            SearchOutcome::Unreachable => self.unreachable = true,
            SearchOutcome::Interrupted => {}
        }
    }
}

impl Agent<Supply> for Planner {
    fn init(&mut self, state: &Supply, _seat: Seat, timer: &dyn Timer) {
        if !state.is_over() {
            self.plan_from(state, timer);
        }
    }

    fn act(&mut self, state: &Supply, seat: Seat, timer: &dyn Timer) -> Dir {
        let here = (state.pos(), state.food());
        if !self.unreachable && (self.expect != Some(here) || self.plan.is_empty()) {
            self.plan_from(state, timer);
        }
        match self.plan.pop() {
            Some(d) if state.is_legal(seat, d) => {
                self.expect = state.map().step(here.0, here.1, d);
                d
            }
            _ => {
                self.plan.clear();
                self.expect = None;
                state.fallback_action(seat)
            }
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.expanded),
        }
    }
}

#[cfg(test)]
mod tests;
