//! The time rules, in one place: the limits an agent plays under
//! ([`TimeLimits`], [`Clock`], [`OnOverrun`]), the budget of each
//! [`Phase`], the deadlines ([`TimeLimits::hang_limit`],
//! [`TimeLimits::silence_limit`], [`TimeLimits::gives_up_on_silence`]), and
//! [`judge`]: a pure function from what an agent used over one request
//! ([`Usage`]), what of it is excused ([`Excusals`], measured by the
//! caller), the limits and the phase to a [`Verdict`] and the time charged.
//!
//! The judge reads no clock and no process-wide log: the runner (for an
//! answer) and the external contestants' early stops (for a request not yet
//! answered) measure, then ask it. See `docs/time-rules.md` for what a new
//! rule touches.
//!
//! # The rule (GVGAI's)
//! The time judged is the chosen clock's ([`Usage::on`]), less the time
//! that was not the agent's ([`excused`]):
//! - within the soft budget: the action is played ([`Verdict::Within`]);
//!   past it but within once the excused time is taken off:
//!   [`Verdict::Starved`], played too and counted apart;
//! - past the soft budget, within the hard limit: [`Verdict::Overrun`] (the
//!   game's fallback action is played and an overrun is counted), or under
//!   `on_overrun = "loss"` for an act [`Verdict::TimeForfeit`];
//! - past the hard limit: [`Verdict::Disqualified`].
//!
//! A request not yet answered is [`Verdict::Disqualified`] as soon as the
//! time charged so far is past the hard limit, [`Verdict::Silent`] once the
//! agent has been silent past the silence limit, and [`Verdict::Wait`]
//! until then.

mod limits;
#[cfg(test)]
mod tests;

pub use limits::{
    human, Activity, Budget, Clock, OnOverrun, Phase, TimeLimits, COUNTED_HANG_FACTOR,
    COUNTED_HANG_MIN, SILENCE_MARGIN,
};

pub use limits::ms;
use std::time::Duration;

/// What an agent used over one request, as the harness measured it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Wall time from the request to the answer (or to now).
    pub wall: Duration,
    /// The agent's CPU time over it, where it could be read.
    pub cpu: Option<Duration>,
    /// Its run delay over it (its threads' time ready to run but waiting
    /// for a CPU, and a subprocess's supervisor's that reads its answer),
    /// where it could be read.
    pub waited: Option<Duration>,
    /// The agent's counted time ([`Clock::Counted`]): its looks at its
    /// timer times the step, where it was counted.
    pub counted: Option<Duration>,
}

impl Usage {
    /// The time `clock` measured: the wall time, the CPU time, or the
    /// counted time (the wall time where the other could not be read).
    pub fn on(&self, clock: Clock) -> Duration {
        match clock {
            Clock::Wall => self.wall,
            Clock::Cpu => self.cpu.unwrap_or(self.wall),
            Clock::Counted => self.counted.unwrap_or(self.wall),
        }
    }
}

/// Time over a request's window that may not have been the agent's, as
/// the caller measured it (see `crate::play::timing::excusals`). How much of it
/// is forgiven is the judge's rule ([`excused`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Excusals {
    /// The most any one CPU lost to the host of a virtual machine over the
    /// window (`steal` in `/proc/stat`), which the guest's clocks charge to
    /// the thread that was running.
    pub steal: Duration,
    /// How late the harness's latency probe woke over the window: how long
    /// the whole harness was starved of CPU.
    pub starvation: Duration,
}

/// Whether a request has been answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The agent answered: its time is judged in full.
    Given,
    /// Not yet: whether to stop waiting. `runnable`: whether any of the
    /// agent's threads is running or waiting for a CPU now, where read
    /// (with [`Usage::waited`] and [`Usage::cpu`], needed for the silence
    /// rule).
    Awaited {
        /// Whether one of the agent's threads is runnable now.
        runnable: Option<bool>,
    },
}

/// The judge's decision on one request's time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within the soft budget: the action is played.
    Within,
    /// Past the soft budget on the clock, within it once the time that was
    /// not the agent's is taken off: the action is played, and the act is
    /// counted as starved.
    Starved,
    /// Past the soft budget, within the hard limit: the game's fallback
    /// action is played (init: nothing to replace) and an overrun counted.
    Overrun,
    /// An act past the soft budget under `on_overrun = "loss"`: the agent
    /// loses on time. `detail` says by how much (the caller adds the tick).
    TimeForfeit {
        /// What was measured and the budget.
        detail: String,
    },
    /// Past the hard limit (answered or not): the agent is disqualified.
    Disqualified {
        /// What was measured, what was excused, and the limit.
        detail: String,
    },
    /// Not answered yet, within every limit so far: wait on.
    Wait,
    /// Not answered, and silent (neither running nor waiting for a CPU)
    /// past [`TimeLimits::silence_limit`]: stop waiting (a timeout).
    Silent,
}

impl Verdict {
    /// A short name, for tests and messages.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Within => "within",
            Verdict::Starved => "starved",
            Verdict::Overrun => "overrun",
            Verdict::TimeForfeit { .. } => "time-forfeit",
            Verdict::Disqualified { .. } => "disqualified",
            Verdict::Wait => "wait",
            Verdict::Silent => "silent",
        }
    }
}

/// A verdict and the times it was reached from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The decision.
    pub verdict: Verdict,
    /// The time the clock measured ([`Usage::on`]).
    pub used: Duration,
    /// The part of it that was not charged ([`excused`]).
    pub excused: Duration,
    /// `used` less `excused`: the time judged against the budgets.
    pub charged: Duration,
}

/// Whether [`Excusals`] can change a verdict on `usage`: only when the
/// clock's time is past the soft budget. A caller may skip measuring them
/// otherwise and pass [`Excusals::default`].
pub fn needs_excusals(usage: &Usage, limits: &TimeLimits, phase: Phase) -> bool {
    usage.on(limits.clock) > limits.budget(phase).soft
}

/// How much of `usage` is not charged, given what was measured over its
/// window: under either clock the host's steal, at most the agent's own
/// CPU time (an agent that sleeps is not running, and steal does not slow
/// it); under the wall clock the larger of that and the machine's load
/// that fell on the agent: its run delay, at most the wall time less its
/// CPU time (a sleeping agent is forgiven nothing, and threads of its own
/// that queue behind each other are not forgiven), or where the run delay
/// could not be read the harness's own starvation. Under the counted clock
/// nothing: a count is not slowed by the machine.
pub fn excused(usage: &Usage, excusals: Excusals, clock: Clock) -> Duration {
    let stolen = excusals.steal.min(usage.cpu.unwrap_or(usage.wall));
    match clock {
        Clock::Counted => Duration::ZERO,
        Clock::Cpu => stolen,
        Clock::Wall => {
            let load = match usage.waited {
                Some(w) => w.min(usage.wall.saturating_sub(usage.cpu.unwrap_or_default())),
                None => excusals.starvation,
            };
            stolen.max(load)
        }
    }
}

/// Judge one `phase` request of an agent under `limits`: what it used,
/// whether it answered, and what was measured as possibly not its own
/// time (which only counts once the clock's time is past the soft budget,
/// see [`needs_excusals`]).
pub fn judge(
    usage: &Usage,
    answer: Answer,
    excusals: Excusals,
    limits: &TimeLimits,
    phase: Phase,
) -> Judged {
    let Budget { soft, hard } = limits.budget(phase);
    let what = phase.as_str();
    let used = usage.on(limits.clock);
    let excused = if used > soft {
        excused(usage, excusals, limits.clock)
    } else {
        Duration::ZERO
    };
    let charged = used.saturating_sub(excused);
    let verdict = match answer {
        Answer::Given if used <= soft => Verdict::Within,
        Answer::Given if charged <= soft => Verdict::Starved,
        Answer::Given if charged > hard => {
            let excused = if excused > Duration::ZERO {
                format!("; {:.1} ms of it not the agent's", ms(excused))
            } else {
                String::new()
            };
            Verdict::Disqualified {
                detail: format!(
                    "{what} took {:.1} ms ({}{excused}), past the hard limit of {:.1} ms",
                    ms(used),
                    limits.clock.as_str(),
                    ms(hard)
                ),
            }
        }
        Answer::Given => match (phase, limits.on_overrun) {
            (Phase::Act, OnOverrun::Loss) => Verdict::TimeForfeit {
                detail: format!(
                    "{what} took {:.1} ms ({}), past the soft budget of {:.1} ms \
                     (on_overrun = \"loss\")",
                    ms(used),
                    limits.clock.as_str(),
                    ms(soft)
                ),
            },
            _ => Verdict::Overrun,
        },
        Answer::Awaited { .. } if charged > hard => Verdict::Disqualified {
            detail: format!(
                "{what} used {:.0} ms of {} without answering, past the hard limit of {:.0} ms",
                ms(used),
                match limits.clock {
                    Clock::Cpu => "CPU",
                    Clock::Wall => "wall time",
                    Clock::Counted => "counted time",
                },
                ms(hard)
            ),
        },
        Answer::Awaited { runnable } => {
            let activity = usage.cpu.zip(usage.waited).map(|(cpu, waited)| Activity {
                wall: usage.wall,
                cpu,
                waited,
            });
            match activity.zip(runnable) {
                Some((a, runnable)) if limits.gives_up_on_silence(hard, a, runnable) => {
                    Verdict::Silent
                }
                _ => Verdict::Wait,
            }
        }
    };
    Judged {
        verdict,
        used,
        excused,
        charged,
    }
}
