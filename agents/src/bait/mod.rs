//! Built-in agents for GVGAI's Bait: GVGAI's two samples (`random`,
//! `onesteplookahead`) and the search agents of the course reports (`dfs`,
//! `dls`, `astar`, `bfs`, `mcts`; see `docs/bait.md`).
//!
//! The planners (`dfs`, `bfs`, `astar`) are anytime: their search starts in
//! `init`, goes on across acts (NIL meanwhile: a NIL leaves the position
//! unchanged, so the search stays valid) and its plan is then replayed; see
//! [`search`]. [`solve`] runs any of them once with a whole time budget.
//! Every search agent reports the nodes it expanded through
//! [`Agent::stats`].

pub mod astar;
pub mod bfs;
pub mod dfs;
pub mod dls;
pub mod heuristic;
pub mod mcts;
pub mod search;
pub mod table;

pub use crate::generic::RandomAgent;

use crate::params::{check_listed, unknown_agent, AgentError, AgentInfo, AgentParams, ParamInfo};
use games::bait::{Bait, BaitAction, BaitObject};
use games::{Agent, Game, Seat, Timer};
use heuristic::{AstarWeights, WalkCosts};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use search::{Planner, PlanningAgent, SearchState, SubTimer};
use std::time::Duration;

/// The built-in Bait agents.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        description: "uniform over the legal moves (GVGAI's sampleRandom), seeded",
        params: &[],
    },
    AgentInfo {
        name: "onesteplookahead",
        description: "GVGAI's sample: try each move on a copy, keep the best heuristic value",
        params: &[],
    },
    AgentInfo {
        name: "dfs",
        description: "depth-first search with a visited set (report Task 1); anytime across acts, then replays its plan",
        params: &[
            ParamInfo::new("max_nodes", "4000000", "positions in the visited set"),
            ParamInfo::new("init_search", "true", "search during init as well"),
        ],
    },
    AgentInfo {
        name: "dls",
        description: "iterative-deepening depth-limited search every act, heuristic at the leaves (report Task 2)",
        params: &[
            ParamInfo::new("depth", "15", "deepest iteration"),
            ParamInfo::new("revisit", "30", "value lost per earlier visit of a leaf position"),
        ],
    },
    AgentInfo {
        name: "astar",
        description: "best-first A* with the report's richer heuristic (Task 3) and a transposition table; anytime",
        params: &[
            ParamInfo::new("weight", "3.0", "f = g + weight * h"),
            ParamInfo::new("max_nodes", "1000000", "positions in the table"),
            ParamInfo::new("init_search", "true", "search during init as well"),
            ParamInfo::new("hole_cost", "6", "walking cost of entering a hole cell"),
            ParamInfo::new("box_cost", "3", "walking cost of entering a box cell"),
            ParamInfo::new("w_score", "-0.5", "heuristic weight in moves per point of game score"),
            ParamInfo::new("w_free", "-0.1", "heuristic weight in moves per free box axis"),
            ParamInfo::new("w_hole_next", "-0.1", "heuristic weight in moves per hole next to a nearby box"),
            ParamInfo::new("w_push_ready", "-0.3", "heuristic weight in moves per nearby box one push away from filling a hole"),
            ParamInfo::new("w_box_hole", "0.02", "heuristic weight in moves per unit of nearby-box-to-hole distance"),
            ParamInfo::new("w_box_on_key", "4", "heuristic weight in moves when a box stands on the key the avatar needs"),
            ParamInfo::new("w_nearest_box", "0.05", "heuristic weight in moves per unit of distance to the nearest box"),
        ],
    },
    AgentInfo {
        name: "bfs",
        description: "breadth-first search over pushes and walks, pruned by a lower bound: a shortest winning sequence (the optimal reference); anytime",
        params: &[
            ParamInfo::new("max_nodes", "32000000", "positions per pass, about 45 bytes each, memory touched only as used"),
            ParamInfo::new("init_search", "true", "search during init as well"),
        ],
    },
    AgentInfo {
        name: "mcts",
        description: "UCT as GVGAI's sampleMCTS: rollout depth 10, K = sqrt(2), normalised values, most-visited move",
        params: &[
            ParamInfo::new("k", "1.4142135623730951", "exploration constant, sqrt(2)"),
            ParamInfo::new("rollout_depth", "10", "tree plus rollout depth"),
            ParamInfo::new("max_iterations", "0", "per act, 0 = until the time is up"),
        ],
    },
];

/// Names of the planners [`solve`] runs directly (the others are played).
pub const PLANNERS: [&str; 3] = ["dfs", "bfs", "astar"];

fn planner(name: &str, params: &AgentParams) -> Result<Option<Box<dyn Planner>>, AgentError> {
    if !PLANNERS.contains(&name) {
        return Ok(None);
    }
    check(name, params)?;
    Ok(Some(match name {
        "dfs" => Box::new(dfs::Dfs::new(usize_param(
            params,
            name,
            "max_nodes",
            4_000_000,
        )?)),
        "bfs" => Box::new(bfs::Bfs::new(usize_param(
            params,
            name,
            "max_nodes",
            bfs::DEFAULT_MAX_NODES as u64,
        )?)),
        "astar" => {
            let d = AstarWeights::default();
            let weights = AstarWeights {
                dist: 1.0,
                score: params.f64(name, "w_score", d.score)?,
                free: params.f64(name, "w_free", d.free)?,
                hole_next: params.f64(name, "w_hole_next", d.hole_next)?,
                push_ready: params.f64(name, "w_push_ready", d.push_ready)?,
                box_hole: params.f64(name, "w_box_hole", d.box_hole)?,
                box_on_key: params.f64(name, "w_box_on_key", d.box_on_key)?,
                nearest_box: params.f64(name, "w_nearest_box", d.nearest_box)?,
            };
            let c = WalkCosts::default();
            let costs = WalkCosts {
                hole: cost_param(params, name, "hole_cost", c.hole)?,
                boxed: cost_param(params, name, "box_cost", c.boxed)?,
            };
            let weight = params.f64(name, "weight", 3.0)?;
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(AgentError::BadParam {
                    agent: name.to_string(),
                    key: "weight".to_string(),
                    expected: "a number >= 0".to_string(),
                    got: weight.to_string(),
                });
            }
            Box::new(astar::Astar::new(
                weight,
                weights,
                costs,
                usize_param(params, name, "max_nodes", 1_000_000)?,
            ))
        }
        _ => return Ok(None),
    }))
}

/// Fail unless agent `name` is listed in [`AGENTS`] and `params` uses only
/// the keys it lists there.
fn check(name: &str, params: &AgentParams) -> Result<(), AgentError> {
    check_listed("bait", AGENTS, name, params)
}

fn usize_param(p: &AgentParams, agent: &str, key: &str, default: u64) -> Result<usize, AgentError> {
    let v = p.u64(agent, key, default)?;
    if v == 0 || v > u32::MAX as u64 / 2 {
        return Err(AgentError::BadParam {
            agent: agent.to_string(),
            key: key.to_string(),
            expected: format!("an integer from 1 to {}", u32::MAX / 2),
            got: v.to_string(),
        });
    }
    Ok(v as usize)
}

fn cost_param(p: &AgentParams, agent: &str, key: &str, default: u16) -> Result<u16, AgentError> {
    let v = p.u64(agent, key, default as u64)?;
    if v == 0 || v > 1000 {
        return Err(AgentError::BadParam {
            agent: agent.to_string(),
            key: key.to_string(),
            expected: "an integer from 1 to 1000".to_string(),
            got: v.to_string(),
        });
    }
    Ok(v as u16)
}

/// Build the Bait agent `name` with `params`, seeded with `seed`.
pub fn make(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<Bait>>, AgentError> {
    check(name, params)?;
    if let Some(p) = planner(name, params)? {
        let init_search = params.bool(name, "init_search", true)?;
        return Ok(Box::new(PlanningAgent::new(p, init_search, seed)));
    }
    match name {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        "onesteplookahead" => Ok(Box::new(OneStepLookahead::new(seed))),
        "dls" => {
            let depth = params.u64(name, "depth", 15)?.clamp(1, 200) as u32;
            let revisit = params.f64(name, "revisit", 30.0)?;
            Ok(Box::new(dls::Dls::new(depth, revisit, seed)))
        }
        "mcts" => {
            let k = params.f64(name, "k", std::f64::consts::SQRT_2)?;
            let depth = params.u64(name, "rollout_depth", 10)?.clamp(1, 10_000) as u32;
            let iters = params.u64(name, "max_iterations", 0)?.min(u32::MAX as u64) as u32;
            Ok(Box::new(mcts::Mcts::new(k, depth, iters, seed)))
        }
        _ => Err(unknown_agent("bait", name, AGENTS)),
    }
}

/// How [`solve`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A winning plan was found.
    Solved,
    /// The planner searched every reachable position: no win.
    NoWin,
    /// The planner's memory cap was reached first.
    MemoryCap,
    /// The time ran out first.
    Timeout,
    /// The played game ended without a win (agents that are not planners).
    Lost,
}

impl SolveOutcome {
    /// A short label: `solved`, `no win`, `memory cap`, `timeout`, `lost`.
    pub fn as_str(self) -> &'static str {
        match self {
            SolveOutcome::Solved => "solved",
            SolveOutcome::NoWin => "no win",
            SolveOutcome::MemoryCap => "memory cap",
            SolveOutcome::Timeout => "timeout",
            SolveOutcome::Lost => "lost",
        }
    }
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// How it ended.
    pub outcome: SolveOutcome,
    /// The winning plan when solved (first action first), else empty.
    pub plan: Vec<BaitAction>,
    /// Nodes expanded (see each agent's docs).
    pub expanded: u64,
}

/// The per-act budget [`solve`] gives agents that are played rather than
/// run as planners: GVGAI's 40 ms.
pub const SOLVE_ACT_BUDGET: Duration = Duration::from_millis(40);

/// Run agent `name` on `state` with the whole of `timer` to find a winning
/// plan. The planners ([`PLANNERS`]) search once with the whole budget; any
/// other agent is played in the forward model, each act with
/// [`SOLVE_ACT_BUDGET`] (or what is left), until the game ends or the time
/// is up, and its actions are the plan if it won.
pub fn solve(
    name: &str,
    params: &AgentParams,
    seed: u64,
    state: &Bait,
    timer: &dyn Timer,
) -> Result<SolveResult, AgentError> {
    if let Some(mut p) = planner(name, params)? {
        let _ = params.bool(name, "init_search", true)?;
        p.reset(state);
        let mut pacer = search::Pacer::default();
        pacer.start(timer);
        let r = p.search(timer, &mut pacer);
        let (outcome, plan) = match r {
            SearchState::Found(plan) => (SolveOutcome::Solved, plan),
            SearchState::Exhausted => (SolveOutcome::NoWin, Vec::new()),
            SearchState::Full => (SolveOutcome::MemoryCap, Vec::new()),
            SearchState::Searching => (SolveOutcome::Timeout, Vec::new()),
        };
        return Ok(SolveResult {
            outcome,
            plan,
            expanded: p.expanded(),
        });
    }
    let mut agent = make(name, params, seed)?;
    let mut s = state.clone();
    let mut plan = Vec::new();
    // Under a timer without a budget the sub-timers have none either (the
    // agents' own caps end their acts).
    let (init_budget, act_budget) = if timer.budget() == Duration::MAX {
        (Duration::MAX, Duration::MAX)
    } else {
        (Duration::from_secs(1), SOLVE_ACT_BUDGET)
    };
    agent.init(&s, 0, &SubTimer::new(timer, init_budget));
    while !s.is_over() && !timer.exceeded() {
        let a = agent.act(&s, 0, &SubTimer::new(timer, act_budget));
        plan.push(a);
        s.advance(&[a]);
    }
    agent.end(&s, 0);
    let expanded = agent.stats().expanded.unwrap_or(0);
    Ok(if s.won() {
        SolveResult {
            outcome: SolveOutcome::Solved,
            plan,
            expanded,
        }
    } else {
        SolveResult {
            outcome: if s.is_over() {
                SolveOutcome::Lost
            } else {
                SolveOutcome::Timeout
            },
            plan: Vec::new(),
            expanded,
        }
    })
}

/// The heuristic value of a Bait state in the spirit of GVGAI's
/// `SimpleStateHeuristic`: a win is worth everything, a loss nothing, and
/// otherwise the score, plus a bonus for holding the key, minus the distance
/// to what the avatar needs next (the key, then the door).
pub fn simple_heuristic(s: &Bait) -> f64 {
    if s.is_over() {
        return if s.won() { 1e9 } else { -1e9 };
    }
    let (ac, ar) = s.avatar();
    let targets = if s.has_key() {
        s.cells_of(BaitObject::Goal)
    } else {
        s.cells_of(BaitObject::Key)
    };
    let dist = targets
        .iter()
        .map(|&(c, r)| c.abs_diff(ac) + r.abs_diff(ar))
        .min()
        .unwrap_or(0) as f64;
    let key_bonus = if s.has_key() { 50.0 } else { 0.0 };
    s.score(0) * 100.0 + key_bonus - dist
}

/// GVGAI's `sampleonesteplookahead`: advance a copy with each move and keep
/// the move whose successor has the best [`simple_heuristic`] value (ties
/// broken by a little seeded noise).
#[derive(Debug)]
pub struct OneStepLookahead {
    rng: ChaCha8Rng,
}

impl OneStepLookahead {
    /// A one-step-lookahead agent seeded with `seed` (for tie-breaking).
    pub fn new(seed: u64) -> Self {
        OneStepLookahead {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent<Bait> for OneStepLookahead {
    fn act(&mut self, state: &Bait, _seat: Seat, _timer: &dyn Timer) -> BaitAction {
        use rand::Rng;
        let mut best = (f64::NEG_INFINITY, BaitAction::Nil);
        for a in BaitAction::MOVES {
            let mut next = state.clone();
            next.advance(&[a]);
            let v = simple_heuristic(&next) + self.rng.gen::<f64>() * 1e-6;
            if v > best.0 {
                best = (v, a);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests;
