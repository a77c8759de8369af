//! The clock discipline every time-bounded agent shares: when a decision
//! must stop ([`stop_time`]: the soft budget minus a safety margin), the
//! [`Pacer`] that widens the margin when the machine is loaded, and
//! [`SubTimer`], a decision's timer carved out of a longer budget.
//!
//! Game-independent; used by the Bait agents (re-exported from
//! [`crate::bait::search`]) and by the generic agents ([`crate::generic`]).

use games::Timer;
use std::time::Duration;

/// When a search given `timer` must stop: the soft budget minus a safety
/// margin of a quarter of it, at least 1 ms and at most 10 ms (40 ms budget:
/// stop at 30 ms; 100 ms: at 90 ms; 1 s: at 990 ms). The margin absorbs the
/// clock polling interval, the time to return, and scheduling noise on a
/// loaded machine. An unlimited timer never stops.
pub fn stop_time(timer: &dyn Timer) -> Duration {
    let b = timer.budget();
    if b == Duration::MAX {
        return Duration::MAX;
    }
    let margin = (b / 4).clamp(Duration::from_millis(1), Duration::from_millis(10));
    b.saturating_sub(margin)
}

/// The clock discipline of one agent: when to stop a decision.
///
/// A decision stops at [`stop_time`], earlier by twice the longest *gap*
/// the agent has seen lately (at most a quarter of the budget more): the
/// time between two consecutive clock reads of its search loop, and the
/// time it waited before its code ran (the harness starts the clock before
/// handing the state over). A gap longer than the loop's work means the
/// thread was descheduled, and it can be again just before it returns; on a
/// quiet machine the gaps are microseconds and change nothing, on a loaded
/// one the agent leaves itself that much more room. The longest gap decays
/// by 1/8 per decision.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pacer {
    stop: Duration,
    last: Duration,
    gap: Duration,
    cap: Duration,
}

impl Pacer {
    /// Start a decision timed by `timer`; call it first thing.
    pub fn start(&mut self, timer: &dyn Timer) {
        self.stop = stop_time(timer);
        self.cap = if self.stop == Duration::MAX {
            Duration::ZERO
        } else {
            timer.budget() / 4
        };
        self.last = timer.elapsed();
        self.gap = (self.gap * 7 / 8).max(self.last);
    }

    /// Read the clock: whether the decision must stop now.
    #[inline]
    pub fn expired(&mut self, timer: &dyn Timer) -> bool {
        let now = timer.elapsed();
        self.gap = self.gap.max(now.saturating_sub(self.last));
        self.last = now;
        now.saturating_add((2 * self.gap).min(self.cap)) >= self.stop
    }

    /// Whether the decision must stop if the next step takes `next` more.
    #[inline]
    pub fn expired_after(&mut self, timer: &dyn Timer, next: Duration) -> bool {
        let now = timer.elapsed();
        self.gap = self.gap.max(now.saturating_sub(self.last));
        self.last = now;
        now.saturating_add((2 * self.gap).min(self.cap))
            .saturating_add(next)
            >= self.stop
    }

    /// The clock's last reading (by [`Pacer::start`] or an expiry check).
    pub fn last(&self) -> Duration {
        self.last
    }

    /// Whether the decision has no time limit (an unlimited timer).
    pub fn unlimited(&self) -> bool {
        self.stop == Duration::MAX
    }

    /// One decision of an anytime search, as GVGAI's sample agents pace
    /// theirs: starts the decision, then runs `step` while the time left
    /// exceeds twice the mean iteration time (measured up to the previous
    /// clock read), at most `max` times (0: no cap but the time; with an
    /// unlimited timer then `unlimited_cap`). Returns the iterations run.
    pub fn iterate(
        &mut self,
        timer: &dyn Timer,
        max: u64,
        unlimited_cap: u64,
        mut step: impl FnMut(),
    ) -> u64 {
        self.start(timer);
        let start = self.last;
        let cap = match (max, self.unlimited()) {
            (0, true) => unlimited_cap,
            (0, false) => u64::MAX,
            (n, _) => n,
        };
        let mut n = 0u64;
        while n < cap {
            let mean = if n < 2 {
                Duration::ZERO
            } else {
                self.last.saturating_sub(start) / (n - 1).min(u32::MAX as u64) as u32
            };
            if self.expired_after(timer, 2 * mean) {
                break;
            }
            step();
            n += 1;
        }
        n
    }
}

/// A [`Timer`] for one decision inside a longer budget: its clock is the
/// parent's, started at `start`; its budget is `budget` or what is left of
/// the parent's, whichever is smaller.
pub struct SubTimer<'a> {
    parent: &'a dyn Timer,
    start: Duration,
    budget: Duration,
}

impl<'a> SubTimer<'a> {
    /// A decision starting now on `parent`'s clock with `budget`.
    pub fn new(parent: &'a dyn Timer, budget: Duration) -> Self {
        SubTimer {
            parent,
            start: parent.elapsed(),
            budget: budget.min(parent.remaining()),
        }
    }
}

impl Timer for SubTimer<'_> {
    fn elapsed(&self) -> Duration {
        self.parent.elapsed().saturating_sub(self.start)
    }
    fn budget(&self) -> Duration {
        self.budget
    }
}
