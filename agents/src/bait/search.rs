//! What the Bait planners (`dfs`, `bfs`, `astar`) share: the [`Planner`]
//! trait and [`PlanningAgent`], which turns a planner into an anytime agent.
//! The search budget with its safety margin ([`stop_time`], [`Pacer`],
//! [`SubTimer`]) is game-independent and lives in [`crate::pacing`]; it is
//! re-exported here.
//!
//! # Playing a planner
//! The search starts in `init` (GVGAI gives a controller 1 s to set up) and
//! continues in the acts until it ends: every call searches until the budget
//! minus a safety margin ([`stop_time`], widened under load by [`Pacer`])
//! and, while no plan is found, the agent answers NIL. NIL leaves a Bait
//! position unchanged (only the tick moves, and positions ignore the tick),
//! so the search tree stays rooted at the position the agent is in and no
//! work is lost between acts.
//!
//! Once a plan is found the agent replays it, checking before each action
//! that the position is the one the plan expects. If it is the position
//! before the previous action (the harness replaced that action by NIL after
//! an overrun), the action is played again; any other position starts a new
//! search from there.
//!
//! When a search runs out of its memory cap, the planner may offer a partial
//! plan (A*: the path to the most promising position, after which it
//! searches again from there); otherwise, and when a search proves that no
//! win is reachable, the agent gives up and plays one-step lookahead for the
//! rest of the game.

pub use crate::pacing::{stop_time, Pacer, SubTimer};

use super::OneStepLookahead;
use games::bait::{Bait, BaitAction};
use games::{Agent, AgentStats, Game, Seat, Timer};

/// How often (in nodes) the search loops read the clock.
pub const POLL: u64 = 128;

/// How a call to [`Planner::search`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchState {
    /// A winning plan, first action first.
    Found(Vec<BaitAction>),
    /// Every reachable position was searched: no win is reachable (within
    /// the planner's depth limit, for `dfs`).
    Exhausted,
    /// The memory cap was reached before a plan was found.
    Full,
    /// The time ran out; call again to continue.
    Searching,
}

/// A search from one root position that can be run in slices.
pub trait Planner: Send {
    /// Start a new search rooted at `root` (buffers are kept and reused).
    fn reset(&mut self, root: &Bait);
    /// Search until a plan is found, the search ends, or `pacer` says stop
    /// (the caller has started it).
    fn search(&mut self, timer: &dyn Timer, pacer: &mut Pacer) -> SearchState;
    /// Nodes expanded (successors generated) since the planner was made.
    fn expanded(&self) -> u64;
    /// After [`SearchState::Full`]: a path toward the most promising
    /// position found, to play before searching again from its end. `None`
    /// (the default) gives up.
    fn partial(&mut self) -> Option<Vec<BaitAction>> {
        None
    }
}

impl Planner for Box<dyn Planner> {
    fn reset(&mut self, root: &Bait) {
        (**self).reset(root)
    }
    fn search(&mut self, timer: &dyn Timer, pacer: &mut Pacer) -> SearchState {
        (**self).search(timer, pacer)
    }
    fn expanded(&self) -> u64 {
        (**self).expanded()
    }
    fn partial(&mut self) -> Option<Vec<BaitAction>> {
        (**self).partial()
    }
}

/// Where a [`PlanningAgent`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Searching from the root position (key); NIL meanwhile.
    Searching(u64),
    /// Replaying a plan.
    Playing,
    /// The search ended without a plan: one-step lookahead from now on.
    GivenUp,
}

/// A planner played as an anytime agent (see the module docs).
pub struct PlanningAgent<P: Planner> {
    planner: P,
    mode: Mode,
    /// The plan and the key of the position expected before each action.
    plan: Vec<BaitAction>,
    keys: Vec<u64>,
    pos: usize,
    search_in_init: bool,
    fallback: OneStepLookahead,
    pacer: Pacer,
}

impl<P: Planner> PlanningAgent<P> {
    /// An agent around `planner`; `search_in_init` lets it search during
    /// `init` as well; `seed` seeds the fallback's tie-breaking.
    pub fn new(planner: P, search_in_init: bool, seed: u64) -> Self {
        PlanningAgent {
            planner,
            mode: Mode::GivenUp,
            plan: Vec::new(),
            keys: Vec::new(),
            pos: 0,
            search_in_init,
            fallback: OneStepLookahead::new(seed),
            pacer: Pacer::default(),
        }
    }

    fn start_search(&mut self, state: &Bait) {
        self.planner.reset(state);
        self.mode = Mode::Searching(state.key());
    }

    fn start_plan(&mut self, state: &Bait, plan: Vec<BaitAction>) {
        let mut s = state.clone();
        self.keys.clear();
        for &a in &plan {
            self.keys.push(s.key());
            s.advance(&[a]);
        }
        self.plan = plan;
        self.pos = 0;
        self.mode = Mode::Playing;
    }

    /// Search from `state` (the root) until `timer` stops; switch mode on the outcome.
    fn run_search(&mut self, state: &Bait, timer: &dyn Timer) {
        self.pacer.start(timer);
        match self.planner.search(timer, &mut self.pacer) {
            SearchState::Found(plan) => self.start_plan(state, plan),
            SearchState::Searching => {}
            SearchState::Exhausted => self.mode = Mode::GivenUp,
            SearchState::Full => match self.planner.partial() {
                Some(p) if !p.is_empty() => self.start_plan(state, p),
                _ => self.mode = Mode::GivenUp,
            },
        }
    }

    /// The next plan action if `state` is where the plan expects to be.
    fn next_planned(&mut self, state: &Bait) -> Option<BaitAction> {
        let key = state.key();
        if self.pos < self.plan.len() && self.keys[self.pos] == key {
            self.pos += 1;
            return Some(self.plan[self.pos - 1]);
        }
        if self.pos > 0 && self.keys[self.pos - 1] == key {
            // The last action was replaced by NIL (overrun): play it again.
            return Some(self.plan[self.pos - 1]);
        }
        None
    }
}

impl<P: Planner> Agent<Bait> for PlanningAgent<P> {
    fn init(&mut self, state: &Bait, _seat: Seat, timer: &dyn Timer) {
        self.start_search(state);
        if self.search_in_init {
            self.run_search(state, timer);
        }
    }

    fn act(&mut self, state: &Bait, seat: Seat, timer: &dyn Timer) -> BaitAction {
        if self.mode == Mode::Playing {
            if let Some(a) = self.next_planned(state) {
                return a;
            }
            // Off the plan (or a partial plan played out): search again from here.
            self.start_search(state);
        }
        if let Mode::Searching(root) = self.mode {
            if root != state.key() {
                self.start_search(state);
            }
            self.run_search(state, timer);
            if self.mode == Mode::Playing {
                if let Some(a) = self.next_planned(state) {
                    return a;
                }
            }
        }
        match self.mode {
            Mode::GivenUp => self.fallback.act(state, seat, timer),
            _ => BaitAction::Nil,
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.planner.expanded()),
        }
    }
}

/// Follow parent links from node `i` back to the root (`u32::MAX` parent)
/// and return the actions in playing order.
pub fn path_to(nodes: &[(u32, BaitAction)], mut i: u32) -> Vec<BaitAction> {
    let mut path = Vec::new();
    while i != u32::MAX {
        let (parent, a) = nodes[i as usize];
        if parent == u32::MAX {
            break;
        }
        path.push(a);
        i = parent;
    }
    path.reverse();
    path
}
