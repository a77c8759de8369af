//! The shared vocabulary of arena: [`Game`], [`Agent`], [`Timer`] and the small
//! types around them.
//!
//! One shape covers every game the harness plays:
//! - 1-player puzzles (Bait, Sokoban, supply maze): one seat, every tick that
//!   seat is active;
//! - 2-player alternating games (Xiangqi): two seats, one of them active per
//!   tick, the inactive seat's entry of the joint action is ignored;
//! - 2-player simultaneous games (Snake): two seats, both active every tick.
//!
//! A state is advanced with a *joint action* (one action per seat), so
//! simultaneous moves are the general case and alternating games the special
//! one. What this module does *not* do: read a clock, start a thread, or touch
//! a file. The harness owns all of that and hands agents a [`Timer`] to read.

use std::fmt::Debug;
use std::hash::Hash;
use std::time::Duration;

/// Index of a seat (player) in a game: `0` or `1`; always `0` in puzzles.
pub type Seat = usize;

/// How a game ended for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerResult {
    /// The seat won.
    Win,
    /// The seat lost (including a puzzle that ended unsolved).
    Loss,
    /// Nobody won.
    Draw,
    /// The game is not over yet.
    Ongoing,
}

impl PlayerResult {
    /// The lower-case label used in CSV files and traces: `win`, `loss`,
    /// `draw`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayerResult::Win => "win",
            PlayerResult::Loss => "loss",
            PlayerResult::Draw => "draw",
            PlayerResult::Ongoing => "none",
        }
    }

    /// A one-player puzzle's result: ongoing until `over`, then a win if
    /// `won`, else a loss.
    pub fn of_puzzle(over: bool, won: bool) -> PlayerResult {
        match (over, won) {
            (false, _) => PlayerResult::Ongoing,
            (true, true) => PlayerResult::Win,
            (true, false) => PlayerResult::Loss,
        }
    }
}

/// A forward model: the state of one game, cheap to clone, advanced in place.
///
/// Search agents rely on three properties:
/// - `clone` is cheap (compact state, ideally no heap allocation);
/// - `Hash + Eq` identify *positions* (the game-relevant state; a tick counter
///   may be excluded when it does not change the future, see each game's docs),
///   so visited sets and transposition tables are O(1);
/// - `advance` is deterministic given the state (any randomness a game needs is
///   part of the state, e.g. a seeded RNG).
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// One seat's action. Small and `Copy`.
    type Action: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Number of seats: 1 for puzzles, 2 for two-player games.
    fn num_players(&self) -> usize;

    /// Whether `seat` chooses an action this tick. In alternating games only
    /// the side to move is active; in simultaneous games every living seat is.
    fn is_active(&self, seat: Seat) -> bool;

    /// Append the legal actions of `seat` in this state to `out` (which the
    /// caller clears). Empty when the seat is not active or the game is over.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>);

    /// Convenience wrapper around [`Game::legal_actions`] that allocates.
    fn legal_actions_vec(&self, seat: Seat) -> Vec<Self::Action> {
        let mut v = Vec::new();
        self.legal_actions(seat, &mut v);
        v
    }

    /// Whether `action` is legal for `seat` now. The default scans
    /// [`Game::legal_actions`]; games override it with something faster.
    fn is_legal(&self, seat: Seat, action: Self::Action) -> bool {
        let mut v = Vec::new();
        self.legal_actions(seat, &mut v);
        v.contains(&action)
    }

    /// The action the harness plays for `seat` when its agent overran the soft
    /// time budget (GVGAI's `ACTION_NIL`). Games without a no-op document what
    /// they return (e.g. a deterministic legal move).
    fn fallback_action(&self, seat: Seat) -> Self::Action;

    /// Advance one tick with a joint action: `joint[s]` is seat `s`'s action
    /// (`joint.len() == num_players()`). Inactive seats' entries are ignored.
    /// Actions are assumed legal; the harness checks legality first.
    fn advance(&mut self, joint: &[Self::Action]);

    /// Whether the game has ended.
    fn is_over(&self) -> bool;

    /// The score of `seat` so far (game-specific; higher is better unless the
    /// game documents otherwise).
    fn score(&self, seat: Seat) -> f64;

    /// How the game stands for `seat`; [`PlayerResult::Ongoing`] until over.
    fn result(&self, seat: Seat) -> PlayerResult;

    /// Number of ticks played so far (0 in the initial state).
    fn tick(&self) -> u32;

    /// A stable, human-readable name of an action (GVGAI names for Bait, ICCS
    /// for Xiangqi, digits for Snake, LURD letters for Sokoban ...).
    fn action_name(&self, action: Self::Action) -> String;

    /// Parse an action name as produced by [`Game::action_name`] for `seat` in
    /// this state. `None` when the text names no action (legality is separate).
    fn parse_action(&self, seat: Seat, text: &str) -> Option<Self::Action>;
}

/// A read-only view of the clock of one decision, like GVGAI's
/// `ElapsedCpuTimer`. The harness implements it; agents only read it.
///
/// The harness measures time itself, from outside the agent: ignoring the
/// timer does not buy an agent more time, it only gets its action replaced or
/// the agent disqualified.
pub trait Timer: Send + Sync {
    /// Time spent since the decision started.
    fn elapsed(&self) -> Duration;
    /// The soft budget of this decision.
    fn budget(&self) -> Duration;
    /// Time left before the soft budget (zero once exceeded).
    fn remaining(&self) -> Duration {
        self.budget().saturating_sub(self.elapsed())
    }
    /// Whether the soft budget is used up.
    fn exceeded(&self) -> bool {
        self.elapsed() >= self.budget()
    }
}

/// A [`Timer`] that never runs out and reports no elapsed time: for tests and
/// for agents driven outside the harness (e.g. a solver with a node limit).
#[derive(Clone, Copy, Debug, Default)]
pub struct UnlimitedTimer;

impl Timer for UnlimitedTimer {
    fn elapsed(&self) -> Duration {
        Duration::ZERO
    }
    fn budget(&self) -> Duration {
        Duration::MAX
    }
}

/// A [`Timer`] driven by a counter instead of a clock, for deterministic tests:
/// every call to `elapsed` advances time by `step`.
#[derive(Debug)]
pub struct StepTimer {
    budget: Duration,
    step: Duration,
    calls: std::sync::atomic::AtomicU64,
}

impl StepTimer {
    /// A timer whose budget is `budget` and whose `elapsed()` grows by `step`
    /// per call.
    pub fn new(budget: Duration, step: Duration) -> Self {
        StepTimer {
            budget,
            step,
            calls: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

impl Timer for StepTimer {
    fn elapsed(&self) -> Duration {
        let n = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.step.saturating_mul(n.min(u32::MAX as u64) as u32)
    }
    fn budget(&self) -> Duration {
        self.budget
    }
}

/// Counters an agent may report after a game (all optional).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AgentStats {
    /// Search nodes expanded over the whole game (planning agents); `None`
    /// when the agent does not count them.
    pub expanded: Option<u64>,
}

/// A player. Every agent, built-in or external, is driven through this trait.
///
/// The harness creates a fresh agent for every episode, calls [`Agent::init`]
/// once (with the init budget), [`Agent::act`] once per tick in which its
/// seat is active (with the act budget), and [`Agent::end`] once at the end.
/// In-process agents run on a worker thread of their own: an agent that
/// never returns is disqualified and its thread abandoned (a thread cannot be
/// killed), so untrusted code belongs in a subprocess agent.
pub trait Agent<G: Game>: Send {
    /// Called once before the first act, with the initial state.
    fn init(&mut self, state: &G, seat: Seat, timer: &dyn Timer) {
        let _ = (state, seat, timer);
    }

    /// Choose `seat`'s action in `state` before `timer` runs out.
    fn act(&mut self, state: &G, seat: Seat, timer: &dyn Timer) -> G::Action;

    /// Called once when the game is over, with the final state.
    fn end(&mut self, state: &G, seat: Seat) {
        let _ = (state, seat);
    }

    /// Counters reported in the result tables.
    fn stats(&self) -> AgentStats {
        AgentStats::default()
    }
}

/// A plan-replaying helper used by planning agents: pops the next planned
/// action, if any.
#[derive(Clone, Debug, Default)]
pub struct Plan<A> {
    actions: std::collections::VecDeque<A>,
}

impl<A: Copy> Plan<A> {
    /// A plan from a sequence of actions, first action first.
    pub fn new(actions: impl IntoIterator<Item = A>) -> Self {
        Plan {
            actions: actions.into_iter().collect(),
        }
    }
    /// The next action, removed from the plan.
    pub fn pop(&mut self) -> Option<A> {
        self.actions.pop_front()
    }
    /// Whether no action is left.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }
    /// Number of actions left.
    pub fn len(&self) -> usize {
        self.actions.len()
    }
}
