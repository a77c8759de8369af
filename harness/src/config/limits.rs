//! The limits an agent plays under, as a config gives them: [`TimeLimits`]
//! with its [`Clock`] and [`OnOverrun`]. Plain data; the rules over them
//! (budgets, deadlines, the verdict) are the judge's,
//! [`crate::play::judge`].

use crate::names::UnknownName;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Which clock judges an agent's time (config key `clock` in `[time]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Clock {
    /// Monotonic wall time, measured by the harness: an agent that sleeps or
    /// blocks cannot escape it, but a busy machine can push an agent past
    /// its budget (the load that fell on the agent is not charged: see
    /// [`crate::play::judge::Excusals`]).
    Wall,
    /// The agent's own CPU time (default), GVGAI's rule: its thread's for a
    /// built-in agent, its process tree's for a subprocess. A verdict does
    /// not depend on the machine's load. The harness still stops waiting
    /// after a wall-clock safety limit (see [`TimeLimits::hang_limit`](crate::play::judge::TimeLimits::hang_limit)),
    /// and sooner for an agent that neither runs nor waits for a CPU (see
    /// [`TimeLimits::gives_up_on_silence`](crate::play::judge::TimeLimits::gives_up_on_silence)).
    #[default]
    Cpu,
    /// A count, not a clock: a built-in agent's [`games::Timer`] advances by
    /// [`TimeLimits::counted_step`] at each call to `elapsed()`,
    /// `remaining()` or `exceeded()`, and the time judged is that count. The
    /// same seed then gives the same moves and the same verdicts on every
    /// machine, at any load. Only the wall-clock safety limit (see
    /// [`TimeLimits::hang_limit`](crate::play::judge::TimeLimits::hang_limit))
    /// still reads a clock: an agent that neither polls nor returns is
    /// disqualified when it passes, the one verdict that may differ between
    /// runs. External agents cannot be counted: a config that gives one this
    /// clock is refused.
    Counted,
}

impl Clock {
    /// Every clock, in the order messages list them.
    pub const ALL: [Clock; 3] = [Clock::Wall, Clock::Cpu, Clock::Counted];

    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
            Clock::Counted => "counted",
        }
    }
}

impl std::str::FromStr for Clock {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        crate::names::parse(&Clock::ALL, Clock::as_str, s)
    }
}

/// What an act past its soft budget (but within the hard limit) costs
/// (config key `on_overrun` in `[time]`). Init's overrun is counted
/// whatever this says: there is no action to replace and no game to lose
/// yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnOverrun {
    /// GVGAI's rule: the game's fallback action is played instead, and an
    /// overrun is counted (default).
    #[default]
    Fallback,
    /// The engine-match rule: the agent loses on time (`time-forfeit`).
    Loss,
}

impl OnOverrun {
    /// Every rule, in the order messages list them.
    pub const ALL: [OnOverrun; 2] = [OnOverrun::Fallback, OnOverrun::Loss];

    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            OnOverrun::Fallback => "fallback",
            OnOverrun::Loss => "loss",
        }
    }
}

impl std::str::FromStr for OnOverrun {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        crate::names::parse(&OnOverrun::ALL, OnOverrun::as_str, s)
    }
}

/// Time limits of one agent (GVGAI's rule: past `act` the action becomes the
/// game's fallback and an overrun is counted; past `act_hard` the agent is
/// disqualified). The same rule applies to `init` / `init_hard`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimits {
    /// Soft budget per act (GVGAI: 40 ms).
    pub act: Duration,
    /// Hard limit per act (GVGAI: 50 ms).
    pub act_hard: Duration,
    /// Soft budget of init (GVGAI: 1 s).
    pub init: Duration,
    /// Hard limit of init.
    pub init_hard: Duration,
    /// The clock that judges.
    pub clock: Clock,
    /// What an act past the soft budget (within the hard limit) costs.
    pub on_overrun: OnOverrun,
    /// Under [`Clock::Counted`], the time one look at the timer costs the
    /// agent (config key `counted_step`; ignored under the other clocks).
    pub counted_step: Duration,
}

/// The default [`TimeLimits::counted_step`]: about what one look at the
/// timer stands for in the shipped search agents that look once per
/// iteration (see `docs/time-rules.md`).
pub const COUNTED_STEP: Duration = Duration::from_micros(20);

impl Default for TimeLimits {
    fn default() -> Self {
        TimeLimits {
            act: Duration::from_millis(40),
            act_hard: Duration::from_millis(50),
            init: Duration::from_secs(1),
            init_hard: Duration::from_millis(1250),
            clock: Clock::Cpu,
            on_overrun: OnOverrun::Fallback,
            counted_step: COUNTED_STEP,
        }
    }
}
