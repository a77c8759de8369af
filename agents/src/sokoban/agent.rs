//! The built-in Sokoban agents: each runs a [`Solver`] and replays its plan.
//!
//! An agent plans in `init` (configs give solvers a generous init budget);
//! if `init` runs out first, the same search goes on in the following `act`s
//! (playing [`SokobanAction::Wait`], which keeps the position, meanwhile).
//! Once solved, it plays the plan one LURD step per `act`. If the state it
//! sees is not the one its plan expects, it starts a new search from there.
//! When the level is proved unsolvable (or the search gives up) it waits
//! until the game ends. `stats().expanded` adds up the expansions of all its
//! searches.

use super::{Method, SolveOptions, SolveStatus, Solver};
use crate::generic::RandomAgent;
use crate::params::{check_listed, unknown_agent, AgentError, AgentInfo, AgentParams, ParamInfo};
use games::sokoban::{Dir, Sokoban, SokobanAction};
use games::{Agent, AgentStats, Game, Seat, Timer};
use std::collections::VecDeque;

/// The built-in Sokoban agents.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "biastar",
        description: "the strongest (default of arena solve sokoban): bidirectional weighted A* (course report 003), forward pushes and backward pulls from the solved positions until they meet",
        params: &[
            ParamInfo::new("weight", "3", "the heuristic's weight on both sides"),
            ParamInfo::new("ratio", "1", "backward expansions per forward expansion"),
            ParamInfo::new("prepass", "150000", "states stored by a feature-space search with box moves run after the first prepass_after expansions (twice that with a packing plan; 0: none)"),
            ParamInfo::new("prepass_after", "65536", "expansions before the pre-pass runs"),
            ParamInfo::new("portfolio", "1000000", "when the pre-pass fills its budget, it goes on up to this many states, taking turns with the bidirectional search, one turn's work for two (0: it stops)"),
            ParamInfo::new("alternate", "true", "the pre-pass takes every other expansion from its best cell"),
            ParamInfo::new("box_pulls", "0", "after the pre-pass, a second backward half that pulls whole boxes expands once per this many expansions of the other two (0: none; 8 was measured)"),
            ParamInfo::new("backward_share", "85", "once the pre-pass has filled its budget, a backward feature-space search (box pulls from the solved positions) runs beside the others with this percentage of the work (0: none)"),
            ParamInfo::new("backward_best", "12", "of every 16 expansions of that backward search, this many come from its best cell, with alternate"),
            ParamInfo::new("stall", "1000", "that backward search: after this many pops without a node that makes another cell the best, every pop takes the cells in turn until one does (0: never)"),
            ParamInfo::new("greedy", "2", "that backward search: of every 16 expansions, this many take the open node of least bound of all its cells (0: none)"),
            ParamInfo::new("park", "true", "that backward search, with greedy, as for fess"),
            ParamInfo::new("stranded", "4", "that backward search, in positions with at most this many boxes off the start cells, ranks fewer stranded boxes first, as for fess (0: never)"),
            ParamInfo::new("near", "5", "that backward search's packing feature counts, after the boxes on start cells, the boxes within this many pulls of an empty start cell, as for fess (0: not)"),
            ParamInfo::new("hotspots", "false", "the pre-pass's hotspot advisor"),
            ParamInfo::new("opener", "true", "the pre-pass's opener advisor: the move that takes the box nearest the packing plan's next cell away from it, where the plan parks a box or the next goal's turn is forced"),
            ParamInfo::new("oop", "true", "the pre-pass's third feature, boxes out of plan: on cells from which no goal the packing plan has left empty can be reached"),
            ParamInfo::new("rooms", "false", "the pre-pass's room connectivity feature, after the regions: pairs of rooms (floor of 2x2 blocks) the boxes disconnect"),
            ParamInfo::new("advice", "all", "one: each of the pre-pass's advisors recommends at most one move of a state, as in FESS; all: every move that improves a feature"),
            ParamInfo::new("lazy", "false", "the pre-pass tests a child (removal test, bound) when it is popped, not when it is made"),
            ParamInfo::new("defer", "true", "the pre-pass and the backward search beside the others make a child's removal test and exact bound when it is popped, a lower bound when it is made; the same states are expanded in the same order, faster"),
            ParamInfo::new("prove", "8", "before the pre-pass expands a state of its best cell, a search of single pushes of at most this many states tries to prove it dead (0: none)"),
            ParamInfo::new("plan", "true", "the pre-pass's packing feature follows the level's packing plan when it parks a box"),
            ParamInfo::new("serial", "true", "before the pre-pass, solve a level whose goals fall into separate areas area by area"),
            ParamInfo::new("zone", "500", "each goal-zone deadlock search (a position with at most 6 empty goals, projected onto the goals) explores at most this many states (0: none)"),
            ParamInfo::new("learn", "500", "when a state's subtree in the pre-pass reaches 64 expansions, a search of at most this many positions looks for a small set of its boxes that is dead alone, kept as a pattern (0: none)"),
            ParamInfo::new("max_nodes", "20000000", "states stored per side before giving up"),
            ParamInfo::new("memory_mb", "4096", "MiB the search tables of a solve may take before it gives up"),
        ],
    },
    AgentInfo {
        name: "astar",
        description: "A* over push states with the min-cost matching lower bound: push-optimal (cost=moves: move-optimal)",
        params: &[
            ParamInfo::new("cost", "pushes", "pushes or moves"),
            ParamInfo::new("max_nodes", "20000000", "states stored before giving up"),
            ParamInfo::new("memory_mb", "4096", "MiB the search tables of a solve may take before it gives up"),
        ],
    },
    AgentInfo {
        name: "wastar",
        description: "weighted A* over push states: f = g + weight * h",
        params: &[
            ParamInfo::new("weight", "3", "the heuristic's weight"),
            ParamInfo::new("cost", "pushes", "pushes or moves"),
            ParamInfo::new("max_nodes", "20000000", "states stored before giving up"),
            ParamInfo::new("memory_mb", "4096", "MiB the search tables of a solve may take before it gives up"),
        ],
    },
    AgentInfo {
        name: "bfs",
        description: "breadth-first search over push states: push-optimal, for small levels",
        params: &[
            ParamInfo::new("max_nodes", "20000000", "states stored before giving up"),
            ParamInfo::new("memory_mb", "4096", "MiB the search tables of a solve may take before it gives up"),
        ],
    },
    AgentInfo {
        name: "greedy",
        description: "greedy best-first on the matching lower bound (macros=true: a second greedy search with goal-area packing macros, time-sliced)",
        params: &[
            ParamInfo::new("macros", "false", "also search with goal-area packing macros"),
            ParamInfo::new("max_nodes", "20000000", "states stored before giving up"),
            ParamInfo::new("memory_mb", "4096", "MiB the search tables of a solve may take before it gives up"),
        ],
    },
    AgentInfo {
        name: "fess",
        description: "feature-space search after FESS: cells of (boxes on goals, floor regions) in turn, advised moves free; a move takes one box to any cell it can reach",
        params: &[
            ParamInfo::new("box_moves", "true", "a move takes a box to any cell it can reach; false: one push"),
            ParamInfo::new("backward", "false", "search backward, pulling boxes from the solved positions until the start is reached; the packing feature counts boxes on start cells, and opener, oop, plan, prove and learn are forward only"),
            ParamInfo::new("alternate", "true", "every other expansion from the best cell (most boxes on goals, then fewest regions); false: cells in turn only"),
            ParamInfo::new("backward_best", "12", "backward, of every 16 expansions this many from the best cell (most boxes on start cells, then fewest regions), with alternate"),
            ParamInfo::new("stall", "1000", "backward, after this many pops without a node that makes another cell the best, every pop takes the cells in turn until one does (0: never)"),
            ParamInfo::new("greedy", "2", "backward, of every 16 expansions this many take the open node of least bound of all the cells (0: none)"),
            ParamInfo::new("park", "true", "backward, with greedy: a child of a pop of least bound that would open a new cell more than one box on a start cell below the best cell (then fewer near) is kept among the nodes by bound only (false: it opens the cell)"),
            ParamInfo::new("stranded", "4", "backward, in positions with at most this many boxes off the start cells, the boxes stranded there (no lone box could be pulled from their cells onto an empty start cell, the boxes on start cells fixed) rank before the regions, fewer first (0: never)"),
            ParamInfo::new("near", "5", "backward, the packing feature counts, after the boxes on start cells, the boxes off them that a lone box could be pulled from onto an empty start cell in at most this many pulls (walls only); moves that raise it are advised (0: not)"),
            ParamInfo::new("hotspots", "false", "moves that lower the number of hotspots (boxes taking goals from other boxes) are advised too"),
            ParamInfo::new("opener", "true", "FESS's opener advisor: the move that takes the box nearest the packing plan's next cell away from it, keeping packing and connectivity, is advised too, at every step of a plan that parks a box and at the steps of other plans whose goal must come before or after another"),
            ParamInfo::new("oop", "true", "a third feature after the regions, boxes out of plan: on cells from which no goal the packing plan has left empty can be reached; moves that lower it are advised"),
            ParamInfo::new("rooms", "false", "room connectivity, a feature after the regions and before oop: pairs of rooms (floor of 2x2 blocks) the boxes disconnect; moves that lower it are advised"),
            ParamInfo::new("advice", "all", "one: each advisor recommends at most one move of a state (the most packing, the fewest regions, the fewest hotspots), as in FESS; all: every move that improves a feature"),
            ParamInfo::new("lazy", "false", "a child's removal test and bound are made when it is popped, not when it is made"),
            ParamInfo::new("defer", "true", "a child's removal test and exact bound are made when it is popped, a lower bound when it is made; the same states are expanded in the same order, faster"),
            ParamInfo::new("prove", "8", "before a state of the best cell is expanded, a search of single pushes of at most this many states tries to prove it dead (0: none)"),
            ParamInfo::new("plan", "true", "when the level's packing plan (FESS's, computed backwards with parking cells) parks a box, the packing feature counts the progress along it first"),
            ParamInfo::new("zone", "500", "each goal-zone deadlock search (a position with at most 6 empty goals, projected onto the goals) explores at most this many states (0: none)"),
            ParamInfo::new("learn", "500", "when a state's subtree reaches 64 expansions, a search of at most this many positions looks for a small set of its boxes that is dead alone, kept as a pattern (0: none)"),
            ParamInfo::new("max_nodes", "20000000", "states stored before giving up"),
            ParamInfo::new("memory_mb", "4096", "MiB the search tables of a solve may take before it gives up"),
        ],
    },
    AgentInfo {
        name: "random",
        description: "uniform over the legal moves, seeded (a baseline that almost never solves a level)",
        params: &[],
    },
];

/// Build the Sokoban agent `name` with `params`, seeded with `seed`.
pub fn make(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<Sokoban>>, AgentError> {
    if name == "random" {
        check_listed("sokoban", AGENTS, name, params)?;
        return Ok(Box::new(RandomAgent::new(seed)));
    }
    let method = Method::from_name(name).ok_or_else(|| unknown_agent("sokoban", name, AGENTS))?;
    let opts = options(name, method, params)?;
    Ok(Box::new(SolverAgent::new(opts)))
}

/// The [`SolveOptions`] of agent `name` (method `method`) with `params`:
/// the keys it accepts, and the options it reads, are the ones [`AGENTS`]
/// lists for the method.
pub fn options(
    name: &str,
    method: Method,
    params: &AgentParams,
) -> Result<SolveOptions, AgentError> {
    let info = AGENTS
        .iter()
        .find(|i| i.name == method.name())
        .ok_or_else(|| unknown_agent("sokoban", method.name(), AGENTS))?;
    let keys = info.keys();
    params.check_keys(name, &keys)?;
    let mut opts = SolveOptions::with_method(method);
    if keys.contains(&"weight") {
        let w = params.f64(name, "weight", opts.weight)?;
        if !(w.is_finite() && (0.0..=1000.0).contains(&w)) {
            return Err(AgentError::BadParam {
                agent: name.to_string(),
                key: "weight".into(),
                expected: "a number from 0 to 1000".into(),
                got: w.to_string(),
            });
        }
        opts.weight = w;
    }
    // An integer parameter within `lo..=hi`.
    let within = |key: &str, default: u64, lo: u64, hi: u64, what: &str| {
        let v = params.u64(name, key, default)?;
        if (lo..=hi).contains(&v) {
            return Ok(v);
        }
        Err(AgentError::BadParam {
            agent: name.to_string(),
            key: key.into(),
            expected: format!("{what} from {lo} to {hi}"),
            got: v.to_string(),
        })
    };
    if keys.contains(&"ratio") {
        opts.ratio = within("ratio", u64::from(opts.ratio), 1, 1000, "an integer")? as u32;
    }
    if keys.contains(&"cost") {
        let words = [("pushes", false), ("moves", true)];
        opts.moves = params.choice(name, "cost", &words, false)?;
    }
    // The switches: a key each, and its option.
    let switches: [(&str, &mut bool); 13] = [
        ("macros", &mut opts.macros),
        ("box_moves", &mut opts.box_moves),
        ("alternate", &mut opts.alternate),
        ("serial", &mut opts.serial),
        ("hotspots", &mut opts.hotspots),
        ("opener", &mut opts.opener),
        ("oop", &mut opts.oop),
        ("rooms", &mut opts.rooms),
        ("lazy", &mut opts.lazy),
        ("defer", &mut opts.defer),
        ("plan", &mut opts.plan),
        ("backward", &mut opts.backward),
        ("park", &mut opts.park),
    ];
    for (key, field) in switches {
        if keys.contains(&key) {
            *field = params.bool(name, key, *field)?;
        }
    }
    if keys.contains(&"prepass_after") {
        opts.prepass_after = params.u64(name, "prepass_after", opts.prepass_after)?;
    }
    if keys.contains(&"backward_share") {
        let share = u64::from(opts.backward_share);
        opts.backward_share = within("backward_share", share, 0, 99, "a percentage")? as u8;
    }
    if keys.contains(&"backward_best") {
        let best = u64::from(opts.backward_best);
        let most = u64::from(super::fess::BEST_OF);
        opts.backward_best = within("backward_best", best, 0, most, "an integer")? as u8;
    }
    if keys.contains(&"stranded") {
        let most = u64::from(u8::MAX);
        let n = within("stranded", u64::from(opts.stranded), 0, most, "an integer")?;
        opts.stranded = n as u8;
    }
    if keys.contains(&"near") {
        let most = u64::from(u8::MAX);
        opts.near = within("near", u64::from(opts.near), 0, most, "an integer")? as u8;
    }
    if keys.contains(&"box_pulls") {
        opts.box_pulls = params.u64(name, "box_pulls", opts.box_pulls)?;
    }
    if keys.contains(&"advice") {
        let words = [("one", true), ("all", false)];
        opts.one_advice = params.choice(name, "advice", &words, opts.one_advice)?;
    }
    if keys.contains(&"stall") {
        let n = params.u64(name, "stall", u64::from(opts.stall))?;
        opts.stall = n.min(u64::from(u32::MAX)) as u32;
    }
    if keys.contains(&"greedy") {
        let n = params.u64(name, "greedy", u64::from(opts.greedy))?;
        opts.greedy = n.min(16) as u8;
    }
    if keys.contains(&"prove") {
        let n = params.u64(name, "prove", opts.prove as u64)?;
        opts.prove = n.min(1 << 20) as u32;
    }
    if keys.contains(&"zone") {
        let n = params.u64(name, "zone", opts.zone_nodes as u64)?;
        opts.zone_nodes = n.min(1 << 20) as u32;
    }
    if keys.contains(&"learn") {
        let n = params.u64(name, "learn", opts.learn_nodes as u64)?;
        opts.learn_nodes = n.min(1 << 20) as u32;
    }
    if keys.contains(&"prepass") {
        let n = params.u64(name, "prepass", opts.prepass as u64)?;
        opts.prepass = n.min(u32::MAX as u64 - 1) as usize;
    }
    if keys.contains(&"portfolio") {
        let n = params.u64(name, "portfolio", opts.portfolio as u64)?;
        opts.portfolio = n.min(u32::MAX as u64 - 1) as usize;
    }
    let max = params.u64(name, "max_nodes", opts.max_nodes as u64)?;
    opts.max_nodes = max.clamp(1, u32::MAX as u64 - 1) as usize;
    let most = 1 << 30;
    opts.max_memory_mb = within(
        "memory_mb",
        opts.max_memory_mb as u64,
        1,
        most,
        "a number of MiB",
    )? as usize;
    Ok(opts)
}

/// A planning agent around a [`Solver`] (see the module docs).
pub struct SolverAgent {
    opts: SolveOptions,
    solver: Option<Solver>,
    plan: VecDeque<Dir>,
    expect: Option<Sokoban>,
    expanded: u64,
    gave_up: bool,
}

impl SolverAgent {
    /// An agent solving with `opts`.
    pub fn new(opts: SolveOptions) -> SolverAgent {
        SolverAgent {
            opts,
            solver: None,
            plan: VecDeque::new(),
            expect: None,
            expanded: 0,
            gave_up: false,
        }
    }

    /// Start a new search from `state`.
    fn restart(&mut self, state: &Sokoban) {
        if let Some(s) = self.solver.take() {
            self.expanded += s.result().expanded;
        }
        self.plan.clear();
        self.gave_up = false;
        self.solver = Some(Solver::new(&state.to_level(), &self.opts));
        self.expect = Some(state.clone());
    }

    /// Go on searching until `timer` runs out; take the plan when solved.
    fn think(&mut self, timer: &dyn Timer) {
        let Some(solver) = self.solver.as_mut() else {
            return;
        };
        if !solver.run(timer) {
            return;
        }
        let r = solver.result();
        self.expanded += r.expanded;
        self.solver = None;
        match (r.status, r.solution) {
            (SolveStatus::Solved, Some(lurd)) => {
                self.plan = lurd
                    .chars()
                    .filter_map(|c| Dir::from_letter(c).map(|(d, _)| d))
                    .collect();
            }
            _ => self.gave_up = true,
        }
    }
}

impl Agent<Sokoban> for SolverAgent {
    fn init(&mut self, state: &Sokoban, _seat: Seat, timer: &dyn Timer) {
        self.restart(state);
        self.think(timer);
    }

    fn act(&mut self, state: &Sokoban, seat: Seat, timer: &dyn Timer) -> SokobanAction {
        if self.expect.as_ref() != Some(state) {
            self.restart(state);
        }
        if self.plan.is_empty() && !self.gave_up {
            self.think(timer);
        }
        match self.plan.pop_front() {
            Some(d) if state.is_legal(seat, SokobanAction::Move(d)) => {
                let mut next = state.clone();
                next.advance(&[SokobanAction::Move(d)]);
                self.expect = Some(next);
                SokobanAction::Move(d)
            }
            Some(_) => {
                // Cannot happen with a valid plan; search again from here.
                self.plan.clear();
                self.expect = None;
                SokobanAction::Wait
            }
            None => SokobanAction::Wait,
        }
    }

    fn stats(&self) -> AgentStats {
        let running = self.solver.as_ref().map_or(0, |s| s.result().expanded);
        AgentStats {
            expanded: Some(self.expanded + running),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::sokoban::*;

    #[test]
    fn registry_builds_every_agent_and_checks_params() {
        use crate::{AgentParams, ParamValue};
        for info in AGENTS {
            assert!(
                make(info.name, &AgentParams::new(), 0).is_ok(),
                "{}",
                info.name
            );
        }
        assert!(make("dijkstra", &AgentParams::new(), 0).is_err());
        let p = AgentParams::new().with("weight", ParamValue::Float(2.5));
        assert_eq!(
            options("wastar", Method::WeightedAStar, &p).unwrap().weight,
            2.5
        );
        assert!(make("astar", &p, 0).is_err(), "astar has no weight");
        let p = AgentParams::new().with("cost", ParamValue::Str("moves".into()));
        assert!(options("astar", Method::AStar, &p).unwrap().moves);
        let p = AgentParams::new().with("cost", ParamValue::Str("time".into()));
        assert!(make("astar", &p, 0).is_err());
        let p = AgentParams::new().with("ratio", ParamValue::Int(0));
        assert!(make("biastar", &p, 0).is_err());
        let p = AgentParams::new().with("ratio", ParamValue::Int(4));
        assert_eq!(options("biastar", Method::BiAStar, &p).unwrap().ratio, 4);
        let share = |n| AgentParams::new().with("backward_share", ParamValue::Int(n));
        assert!(
            make("biastar", &share(100), 0).is_err(),
            "a share is below 100"
        );
        let o = options("biastar", Method::BiAStar, &share(0)).unwrap();
        assert_eq!(o.backward_share, 0);
        let best = |n| AgentParams::new().with("backward_best", ParamValue::Int(n));
        for (agent, method) in [("biastar", Method::BiAStar), ("fess", Method::Fess)] {
            assert!(
                make(agent, &best(17), 0).is_err(),
                "{agent}: at most 16 of 16"
            );
            assert_eq!(options(agent, method, &best(16)).unwrap().backward_best, 16);
            assert_eq!(options(agent, method, &best(0)).unwrap().backward_best, 0);
        }
        // The backward feature-space search's byte-sized parameters.
        type Read = fn(&SolveOptions) -> u8;
        let bytes: [(&str, u8, Read); 2] = [
            ("stranded", STRANDED, |o| o.stranded),
            ("near", NEAR, |o| o.near),
        ];
        for (key, default, read) in bytes {
            let with = |n| AgentParams::new().with(key, ParamValue::Int(n));
            for (agent, method) in [("biastar", Method::BiAStar), ("fess", Method::Fess)] {
                assert!(make(agent, &with(256), 0).is_err(), "{agent} {key}: a byte");
                for n in [0, 9] {
                    assert_eq!(read(&options(agent, method, &with(n)).unwrap()), n as u8);
                }
                let o = options(agent, method, &AgentParams::new()).unwrap();
                assert_eq!(read(&o), default, "{agent} {key}");
                let info = AGENTS.iter().find(|i| i.name == agent).expect("registered");
                assert!(
                    info.param(key).is_some(),
                    "{agent} lists {key} among its parameters"
                );
            }
            for other in ["greedy", "astar"] {
                assert!(
                    make(other, &with(2), 0).is_err(),
                    "{other} has no backward fess"
                );
            }
        }
        let p = AgentParams::new().with("backward", ParamValue::Bool(true));
        assert!(options("fess", Method::Fess, &p).unwrap().backward);
        assert!(
            make("biastar", &p, 0).is_err(),
            "biastar's backward search is a share"
        );
    }

    /// Giving each listed parameter its listed default, read as `--param`
    /// reads it (one at a time, then all together), must leave the agent's
    /// options as they are without parameters.
    #[test]
    fn every_listed_default_is_the_default() {
        use crate::AgentParams;
        let mut checked = 0;
        for info in AGENTS.iter().filter(|i| i.name != "random") {
            let method = Method::from_name(info.name).expect("a method");
            let default = options(info.name, method, &AgentParams::new()).unwrap();
            let mut all = AgentParams::new();
            for p in info.params {
                let one = AgentParams::new().with(p.key, p.default_value());
                let given = options(info.name, method, &one)
                    .unwrap_or_else(|e| panic!("{}: {} = {}: {e}", info.name, p.key, p.default));
                assert_eq!(
                    given, default,
                    "{}: {} is not {} by default",
                    info.name, p.key, p.default
                );
                all.insert(p.key, p.default_value());
                checked += 1;
            }
            assert_eq!(
                options(info.name, method, &all).unwrap(),
                default,
                "{}",
                info.name
            );
        }
        assert!(checked > 40, "{checked} parameters checked");
    }

    /// Every listed parameter is read: another value than its default
    /// changes the agent's options.
    #[test]
    fn every_listed_param_is_read() {
        use crate::{AgentParams, ParamValue};
        for info in AGENTS.iter().filter(|i| i.name != "random") {
            let method = Method::from_name(info.name).expect("a method");
            let default = options(info.name, method, &AgentParams::new()).unwrap();
            for p in info.params {
                let other = match p.default_value() {
                    ParamValue::Int(n) => ParamValue::Int(n + 1),
                    ParamValue::Float(x) => ParamValue::Float(x + 1.0),
                    ParamValue::Bool(b) => ParamValue::Bool(!b),
                    ParamValue::Str(w) => {
                        let words = [("pushes", "moves"), ("all", "one")];
                        let (_, to) = words.iter().find(|(from, _)| *from == w).expect("a word");
                        ParamValue::Str(to.to_string())
                    }
                };
                let one = AgentParams::new().with(p.key, other.clone());
                let given = options(info.name, method, &one)
                    .unwrap_or_else(|e| panic!("{}: {} = {other}: {e}", info.name, p.key));
                assert_ne!(given, default, "{}: {} = {other}", info.name, p.key);
            }
        }
    }

    /// Every method is listed, under its name.
    #[test]
    fn every_method_is_listed() {
        for m in Method::ALL {
            assert!(AGENTS.iter().any(|i| i.name == m.name()), "{}", m.name());
        }
    }
}
