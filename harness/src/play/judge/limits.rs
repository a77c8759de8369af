//! The rules over the limits an agent plays under ([`TimeLimits`], with its
//! [`Clock`] and [`OnOverrun`], plain config data in [`crate::config`]):
//! the budgets of each [`Phase`], and the deadlines: how
//! long the harness waits for an answer ([`TimeLimits::hang_limit`]) and
//! when it gives up on a silent agent ([`TimeLimits::gives_up_on_silence`]).

pub use crate::config::{Clock, OnOverrun, TimeLimits};
use std::time::Duration;

/// Which request a time is judged for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The init call (with the init budget).
    Init,
    /// An act call (with the act budget).
    Act,
}

impl Phase {
    /// `init` or `act`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Init => "init",
            Phase::Act => "act",
        }
    }

    /// The soft budget and the hard limit of this phase in `limits`
    /// (see [`TimeLimits::budget`]).
    pub fn budgets(self, limits: &TimeLimits) -> (Duration, Duration) {
        let b = limits.budget(self);
        (b.soft, b.hard)
    }
}

/// The time one request is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Past it (within `hard`), an overrun.
    pub soft: Duration,
    /// Past it, the agent is disqualified.
    pub hard: Duration,
}

/// Under the CPU clock, the silent wall time an agent is allowed beyond a
/// request's hard limit (see [`TimeLimits::silence_limit`]): room for
/// start-up, page faults and reads from disk, which are neither CPU time
/// nor waiting for a CPU.
pub const SILENCE_MARGIN: Duration = Duration::from_secs(1);

/// Under the counted clock, the wall-clock safety limit of a request is
/// this many times its hard limit (see [`TimeLimits::hang_limit`]).
pub const COUNTED_HANG_FACTOR: u32 = 50;

/// Under the counted clock, the least wall-clock safety limit of a request
/// (see [`TimeLimits::hang_limit`]).
pub const COUNTED_HANG_MIN: Duration = Duration::from_secs(5);

impl TimeLimits {
    /// The budget of a `phase` request: `init` and `init_hard`, or `act`
    /// and `act_hard`.
    pub fn budget(&self, phase: Phase) -> Budget {
        match phase {
            Phase::Init => Budget {
                soft: self.init,
                hard: self.init_hard,
            },
            Phase::Act => Budget {
                soft: self.act,
                hard: self.act_hard,
            },
        }
    }

    /// How long the harness waits for an answer in wall time before giving up
    /// on the agent: under the wall clock twice the hard limit (the load
    /// that fell on the agent is not charged, see [`super::Excusals`], so
    /// an agent kept waiting for a CPU may answer past the hard limit and
    /// be within it); under the CPU clock (which a sleeping agent does not
    /// consume) ten times the hard limit, at least one second. Under the
    /// CPU clock an agent that is silent, neither running nor waiting for a
    /// CPU, is given up on sooner ([`TimeLimits::silence_limit`]). Under
    /// the counted clock, which only an agent's looks at its timer advance,
    /// [`COUNTED_HANG_FACTOR`] times the hard limit, at least
    /// [`COUNTED_HANG_MIN`]: a safety net for an agent that neither looks
    /// nor returns, far enough out that a slow machine (or a debug build)
    /// doing the counted work does not reach it.
    pub fn hang_limit(&self, hard: Duration) -> Duration {
        match self.clock {
            Clock::Wall => hard * 2,
            Clock::Cpu => (hard * 10).max(Duration::from_secs(1)),
            Clock::Counted => (hard * COUNTED_HANG_FACTOR).max(COUNTED_HANG_MIN),
        }
    }

    /// Whether the wait for an answer to a request with hard limit `hard`
    /// is over, `wall` into it: at [`TimeLimits::hang_limit`] of wall time;
    /// under the CPU clock the time the agent spent waiting for a CPU
    /// (`activity`, where its run delay was read) is not counted, so a
    /// machine busy enough to keep an agent off the CPUs past the limit
    /// delays the end of the wait rather than disqualifying the agent. An
    /// agent that spins is still stopped: its CPU time passes the limit.
    /// `runnable`: whether any of the agent's threads is running or waiting
    /// for a CPU now. The kernel adds a wait for a CPU to the run delay only
    /// when the wait ends, so while the agent is runnable the time since it
    /// last ran may be such a wait: then only its CPU time counts.
    ///
    /// Built-in agents are read by their worker thread's run delay, external
    /// agents by their process tree's (see [`TimeLimits::wait_over`]).
    pub fn hang_reached(
        &self,
        hard: Duration,
        wall: Duration,
        activity: Option<Activity>,
        runnable: bool,
    ) -> bool {
        self.wait_over(self.hang_limit(hard), wall, activity, runnable)
    }

    /// Whether a wait of `limit` of wall time for an answer is over, `wall`
    /// into it, by the rule of [`TimeLimits::hang_reached`]: under the CPU
    /// clock, where the run delay was read (`activity`), the time the agent
    /// waited for a CPU is not counted. `hang_reached` is this rule with
    /// the [`TimeLimits::hang_limit`] of a hard limit; a caller told a
    /// deadline of its own (an external agent's supervisor, given the
    /// runner's) passes the wait it was given.
    pub fn wait_over(
        &self,
        limit: Duration,
        wall: Duration,
        activity: Option<Activity>,
        runnable: bool,
    ) -> bool {
        let counted = match (self.clock, activity) {
            (Clock::Cpu, Some(a)) if runnable => a.cpu,
            (Clock::Cpu, Some(a)) => wall.saturating_sub(a.waited),
            _ => wall,
        };
        counted >= limit
    }

    /// Under the CPU clock, how much silent wall time (see
    /// [`Activity::silent`]) a request with hard limit `hard` is allowed:
    /// the hard limit plus [`SILENCE_MARGIN`]. An agent that has spent that
    /// long neither running nor waiting for a CPU is no longer waited for.
    pub fn silence_limit(&self, hard: Duration) -> Duration {
        hard + SILENCE_MARGIN
    }

    /// Whether the harness stops waiting for an agent that has not
    /// answered a request with hard limit `hard`, given what it did
    /// meanwhile (`activity`) and whether any of its threads is runnable
    /// now: under the CPU clock only, once its silent time passes
    /// [`TimeLimits::silence_limit`] and none of its threads is running or
    /// waiting for a CPU. The machine's load does not bring this about: an
    /// agent kept waiting for a CPU accumulates run delay, not silence.
    pub fn gives_up_on_silence(&self, hard: Duration, activity: Activity, runnable: bool) -> bool {
        self.clock == Clock::Cpu && !runnable && activity.silent() > self.silence_limit(hard)
    }

    /// The detail of a request (`what`: `act`, `init`) with hard limit
    /// `hard` that got no answer: the wall time waited and, under the CPU
    /// clock, the CPU time the agent used meanwhile (where read), the limit
    /// the agent was given, and the rule that ended the wait (`silent`:
    /// the agent was silent past [`TimeLimits::silence_limit`]; else the
    /// wait reached `waited_at_most`).
    pub fn no_answer(
        &self,
        what: &str,
        hard: Duration,
        wall: Duration,
        cpu: Option<Duration>,
        silent: bool,
        waited_at_most: Duration,
    ) -> String {
        let (wall, hard_s) = (human(wall), human(hard));
        match self.clock {
            Clock::Wall => format!(
                "{what}: no answer after {wall} of wall time; the limit is {hard_s} of wall time, \
                 and an answer is waited for at most {}",
                human(waited_at_most)
            ),
            Clock::Cpu => {
                let used = match cpu {
                    Some(c) => format!("while using {} of CPU", human(c)),
                    None => "(its CPU time could not be read)".to_string(),
                };
                let rule = if silent {
                    format!(
                        "an agent that neither runs nor waits for a CPU is waited for at most {}",
                        human(self.silence_limit(hard))
                    )
                } else {
                    format!("an answer is waited for at most {}", human(waited_at_most))
                };
                format!(
                    "{what}: no answer after {wall} of wall time {used}; the limit is {hard_s} of \
                     CPU time, and {rule}"
                )
            }
            Clock::Counted => format!(
                "{what}: no answer after {wall} of wall time; the limit is {hard_s} of counted \
                 time, and an answer is waited for at most {} of wall time",
                human(waited_at_most)
            ),
        }
    }
}

/// What an agent did with the wall time of one request so far, as the
/// harness reads it: the wall time since the request's clock started, and
/// over it the CPU time and the run delay (time ready to run but waiting
/// for a CPU, see [`crate::play::timing::run_delay`]) of the agent's threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Activity {
    /// Wall time since the request started.
    pub wall: Duration,
    /// The agent's CPU time over it.
    pub cpu: Duration,
    /// The agent's run delay over it.
    pub waited: Duration,
}

impl Activity {
    /// The wall time in which the agent neither ran nor waited for a CPU
    /// (slept, blocked on a read, waited for a child): the wall time less
    /// the CPU time and the run delay (zero when threads that ran or
    /// waited side by side sum to more than the wall time).
    pub fn silent(&self) -> Duration {
        self.wall.saturating_sub(self.cpu + self.waited)
    }
}

/// Milliseconds as a float, for messages and tables: whole nanoseconds
/// over a million, the float nearest to the exact value (so 681 ns prints
/// as `0.000681`, where seconds times a thousand give
/// `0.0006810000000000001`).
pub fn ms(d: Duration) -> f64 {
    d.as_nanos() as f64 / 1e6
}

/// A duration for messages: `500 ms` below a second, else seconds to the
/// hundredth without trailing zeros (`1.25 s`, `1.5 s`, `5.0 s`).
pub fn human(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        return format!("{:.0} ms", ms(d));
    }
    let s = format!("{:.2}", d.as_secs_f64());
    let s = s.trim_end_matches('0');
    if s.ends_with('.') {
        format!("{s}0 s")
    } else {
        format!("{s} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_are_the_float_nearest_to_the_exact_value() {
        for (ns, text) in [
            (681, "0.000681"),
            (1_422, "0.001422"),
            (14_392, "0.014392"),
            (30_000_000, "30.0"),
            (40_000_001, "40.000001"),
        ] {
            let v = ms(Duration::from_nanos(ns));
            assert_eq!(serde_json::to_string(&v).unwrap(), text, "{ns} ns");
        }
    }
}
