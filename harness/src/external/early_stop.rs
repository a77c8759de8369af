//! The early stop of an external agent that computes without answering,
//! shared by [`super::Subprocess`] and [`super::botzone::BotzoneBot`].
//!
//! Under [`Clock::Cpu`] the runner gives an agent until ten times the hard
//! limit of wall time (at least 1 s) to answer, but once the CPU time of
//! its process tree over the request (less VM steal, as the judge charges
//! it) is past the hard limit, its verdict is certain: an answer would be
//! [`Outcome::Disqualified`]. [`CpuWatch`] lets a contestant wait in
//! slices, look at that CPU time after each one, and stop the agent with
//! that verdict as soon as it applies. An agent that sleeps costs no CPU
//! and is still waited for until the deadline; where the CPU time cannot
//! be read, and under [`Clock::Wall`], the wait is a single one, until the
//! deadline.

use crate::outcome::Outcome;
use crate::player::{Failure, Phase};
use crate::timing::{between, ms, Clock, TimeLimits};
use std::time::{Duration, Instant};

/// How often the CPU time of an agent that has not answered is read once
/// the hard limit of wall time has passed (under [`Clock::Cpu`]). Longer
/// than the stdout watch's poll, which each wait for a line restarts.
pub const CPU_POLL: Duration = Duration::from_millis(50);

/// The watch over one request's CPU time, until its answer or `deadline`.
///
/// Use: wait for output until [`slice_end`](Self::slice_end); when that
/// wait times out, ask [`after_slice`](Self::after_slice) what comes next.
#[derive(Clone, Debug)]
pub struct CpuWatch {
    phase: Phase,
    /// When the request's clock started.
    start: Instant,
    /// The runner's deadline for the answer.
    deadline: Instant,
    /// The process tree's CPU time at `start` and the request's hard
    /// limit; `None` when nothing is watched (the wall clock, or the CPU
    /// time unreadable).
    cpu: Option<(Duration, Duration)>,
}

/// What comes after a wait until [`CpuWatch::slice_end`] that timed out.
#[derive(Debug)]
pub enum AfterSlice {
    /// The runner's deadline has passed: no answer (a timeout).
    Deadline,
    /// The CPU time over the request is within the hard limit (or could
    /// not be read; the watch then waits until the deadline): wait again.
    Wait,
    /// The CPU time over the request is past the hard limit: stop the
    /// process group; the agent is [`Outcome::Disqualified`], as the runner
    /// judges an answer past the hard limit.
    Stop(Failure),
}

impl CpuWatch {
    /// The watch of a `phase` request that started at `start`, when the
    /// process tree's CPU time was `cpu_start`, judged by `limits`, waited
    /// for until `deadline`. It watches the CPU time only under
    /// [`Clock::Cpu`] and where `cpu_start` could be read.
    pub fn new(
        limits: &TimeLimits,
        phase: Phase,
        start: Instant,
        cpu_start: Option<Duration>,
        deadline: Instant,
    ) -> Self {
        let cpu = match (limits.clock, cpu_start) {
            (Clock::Cpu, Some(from)) => Some((from, phase.budgets(limits).1)),
            _ => None,
        };
        CpuWatch {
            phase,
            start,
            deadline,
            cpu,
        }
    }

    /// Until when to wait for output next: the deadline; with the CPU time
    /// to watch, the hard limit of wall time (before which a
    /// single-threaded agent cannot have used it), then [`CPU_POLL`] at a
    /// time, never past the deadline.
    pub fn slice_end(&self) -> Instant {
        match self.cpu {
            Some((_, hard)) => self
                .deadline
                .min((self.start + hard).max(Instant::now() + CPU_POLL)),
            None => self.deadline,
        }
    }

    /// A wait until `until` (a [`slice_end`](Self::slice_end)) timed out:
    /// the deadline, or else the CPU time over the request, read now by
    /// `cpu_now` (the process tree's cumulative CPU time), decides.
    pub fn after_slice(
        &mut self,
        until: Instant,
        cpu_now: impl FnOnce() -> Option<Duration>,
    ) -> AfterSlice {
        // Slices end before the deadline only with a hard limit to watch.
        let Some((from, hard)) = self.cpu.filter(|_| until < self.deadline) else {
            return AfterSlice::Deadline;
        };
        let Some(cpu) = between(Some(from), cpu_now()) else {
            // Unreadable now: wait until the deadline, as without a watch.
            self.cpu = None;
            return AfterSlice::Wait;
        };
        // As the judge charges it: less the time the host of a virtual
        // machine took meanwhile.
        let stolen = crate::timing::steal::during(self.start, Instant::now());
        if cpu.saturating_sub(stolen) <= hard {
            return AfterSlice::Wait;
        }
        // Disqualified, as the runner judges an answer past the hard limit:
        // an agent that would have answered gets the same verdict, only
        // sooner, whichever comes first.
        AfterSlice::Stop(Failure {
            outcome: Outcome::Disqualified,
            detail: format!(
                "{} used {:.0} ms of CPU without answering, past the hard limit of {:.0} ms; process group killed",
                self.phase.as_str(),
                ms(cpu),
                ms(hard)
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(clock: Clock) -> TimeLimits {
        TimeLimits {
            act_hard: Duration::from_millis(200),
            init_hard: Duration::from_secs(2),
            clock,
            ..TimeLimits::default()
        }
    }

    #[test]
    fn the_wall_clock_and_an_unreadable_start_wait_until_the_deadline() {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(2);
        for (clock, cpu_start) in [(Clock::Wall, Some(Duration::ZERO)), (Clock::Cpu, None)] {
            let mut w = CpuWatch::new(&limits(clock), Phase::Act, start, cpu_start, deadline);
            assert_eq!(w.slice_end(), deadline, "{clock:?}");
            let read = w.after_slice(deadline, || panic!("no CPU time is read"));
            assert!(matches!(read, AfterSlice::Deadline), "{clock:?}: {read:?}");
        }
    }

    #[test]
    fn slices_end_at_the_hard_limit_then_every_poll_and_never_past_the_deadline() {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(2);
        let l = limits(Clock::Cpu);
        let w = CpuWatch::new(&l, Phase::Act, start, Some(Duration::ZERO), deadline);
        // The first slice: until the hard limit of wall time, 200 ms from
        // start (or a poll from now, should this test be late).
        let end = w.slice_end();
        assert!(end >= start + Duration::from_millis(200) && end < deadline);
        // The init phase's hard limit (2 s) is the deadline itself.
        let w = CpuWatch::new(&l, Phase::Init, start, Some(Duration::ZERO), deadline);
        assert_eq!(w.slice_end(), deadline);
        // Past the hard limit of wall time: a poll from now.
        let l = TimeLimits {
            act_hard: Duration::ZERO,
            ..l
        };
        let w = CpuWatch::new(&l, Phase::Act, start, Some(Duration::ZERO), deadline);
        let before = Instant::now();
        let end = w.slice_end();
        assert!(end >= before + CPU_POLL && end <= Instant::now() + CPU_POLL);
    }

    #[test]
    fn the_cpu_time_over_the_request_past_the_hard_limit_stops_the_agent() {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(2);
        let from = Some(Duration::from_secs(7));
        let mut w = CpuWatch::new(&limits(Clock::Cpu), Phase::Act, start, from, deadline);
        let until = w.slice_end();
        // Within: wait on. (Steal, if any, only lowers what is charged.)
        let read = w.after_slice(until, || Some(Duration::from_millis(7150)));
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        let read = w.after_slice(until, || Some(Duration::from_secs(8)));
        let AfterSlice::Stop(f) = read else {
            panic!("not stopped: {read:?}")
        };
        assert_eq!(f.outcome, Outcome::Disqualified);
        assert_eq!(
            f.detail,
            "act used 1000 ms of CPU without answering, past the hard limit of 200 ms; process group killed"
        );
        // At the deadline, the deadline decides.
        let read = w.after_slice(deadline, || panic!("no CPU time is read"));
        assert!(matches!(read, AfterSlice::Deadline), "{read:?}");
    }

    #[test]
    fn an_unreadable_cpu_time_waits_until_the_deadline() {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(2);
        let l = limits(Clock::Cpu);
        let mut w = CpuWatch::new(&l, Phase::Act, start, Some(Duration::ZERO), deadline);
        let read = w.after_slice(w.slice_end(), || None);
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        assert_eq!(w.slice_end(), deadline);
    }
}
