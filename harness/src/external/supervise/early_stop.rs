//! The early stops of an external agent that does not answer, shared by
//! [`crate::external::Subprocess`] and [`crate::external::protocols::botzone::BotzoneBot`].
//!
//! Under [`Clock::Cpu`] the runner gives an agent until ten times the hard
//! limit of wall time (at least 1 s) to answer, not counting the time its
//! processes waited for a CPU (see
//! [`AgentProcess::wait_sched`](crate::external::supervise::process::AgentProcess::wait_sched), by
//! [`TimeLimits::wait_over`], the rule of [`TimeLimits::hang_reached`]:
//! the deadline moves on while the machine's load keeps it waiting), but
//! the wait ends sooner in two cases, watched by [`CpuWatch`] (the contestant waits in slices
//! and asks it after each one):
//! - once the CPU time of its process tree over the request (less VM
//!   steal, as [`crate::play::judge::judge`] charges it) is past the hard limit,
//!   its verdict is certain: an answer would be [`Outcome::Disqualified`], and so is
//!   the agent, stopped;
//! - once it has been silent, neither running nor waiting for a CPU, for
//!   longer than [`TimeLimits::silence_limit`] (the hard limit plus a
//!   second of wall time less its CPU time and run delay, see
//!   [`TimeLimits::gives_up_on_silence`]): an agent that sleeps or blocks
//!   is stopped with [`Outcome::Timeout`]. One that the machine's load
//!   keeps waiting for a CPU accumulates run delay instead, and is waited
//!   for as before.
//!
//! Where the CPU time (or, for the second rule, the run delay) cannot be
//! read, and under [`Clock::Wall`], the wait is a single one, until the
//! deadline.

use crate::play::judge::{human, judge, Activity, Answer, Excusals, Usage, Verdict};
use crate::play::outcome::Outcome;
use crate::play::player::{Failure, Phase};
use crate::play::timing::run_delay::TreeSched;
use crate::play::timing::{between, Clock, TimeLimits};
use std::time::{Duration, Instant};

/// How often the CPU time of an agent that has not answered is read once
/// the hard limit of wall time has passed (under [`Clock::Cpu`]). Longer
/// than the stdout watch's poll, which each wait for a line restarts.
pub const CPU_POLL: Duration = Duration::from_millis(50);

/// The watch over one request's CPU time and silence, until its answer or
/// `deadline`.
///
/// Use: wait for output until [`slice_end`](Self::slice_end); when that
/// wait times out, ask [`after_slice`](Self::after_slice) what comes next.
#[derive(Clone, Debug)]
pub struct CpuWatch {
    phase: Phase,
    limits: TimeLimits,
    /// When the request's clock started.
    start: Instant,
    /// The runner's deadline for the answer, moved on while the agent is
    /// kept waiting for a CPU.
    deadline: Instant,
    /// The wait the runner gave (its deadline less `start`).
    wait: Duration,
    /// The process tree's CPU time at `start`; `None` when nothing is
    /// watched (the wall clock, or the CPU time unreadable).
    cpu_start: Option<Duration>,
    /// The tree's run delay (with the supervisor's) at `start`; `None`
    /// when silence is not watched (no CPU time watched, or the run delay
    /// unreadable).
    delay_start: Option<Duration>,
}

/// What comes after a wait until [`CpuWatch::slice_end`] that timed out.
#[derive(Debug)]
pub enum AfterSlice {
    /// Wait again: the CPU time over the request is within the hard limit
    /// (or could not be read; the watch then waits until the deadline) and
    /// the agent has not been silent for too long.
    Wait,
    /// Stop the process group, with this failure: [`Outcome::Disqualified`]
    /// when the CPU time over the request is past the hard limit (as the
    /// runner judges an answer past it), [`Outcome::Timeout`] when the
    /// deadline has passed or the agent has been silent past the silence
    /// limit.
    Stop(Failure),
}

impl CpuWatch {
    /// The watch of a `phase` request that started at `start`, when the
    /// process tree's CPU time was `cpu_start` and its run delay
    /// `delay_start`, judged by `limits`, waited for until `deadline`. It
    /// watches the CPU time only under [`Clock::Cpu`] and where
    /// `cpu_start` could be read, and silence where `delay_start` could
    /// be too.
    pub fn new(
        limits: &TimeLimits,
        phase: Phase,
        start: Instant,
        cpu_start: Option<Duration>,
        delay_start: Option<Duration>,
        deadline: Instant,
    ) -> Self {
        let cpu_start = cpu_start.filter(|_| limits.clock == Clock::Cpu);
        CpuWatch {
            phase,
            limits: *limits,
            start,
            deadline,
            wait: deadline.saturating_duration_since(start),
            cpu_start,
            delay_start: delay_start.filter(|_| cpu_start.is_some()),
        }
    }

    fn hard(&self) -> Duration {
        self.limits.budget(self.phase).hard
    }

    /// Until when to wait for output next: the deadline; with the CPU time
    /// to watch, the hard limit of wall time (before which a
    /// single-threaded agent cannot have used it), then [`CPU_POLL`] at a
    /// time, never past the deadline.
    pub fn slice_end(&self) -> Instant {
        match self.cpu_start {
            Some(_) => self
                .deadline
                .min((self.start + self.hard()).max(Instant::now() + CPU_POLL)),
            None => self.deadline,
        }
    }

    /// A wait until `until` (a [`slice_end`](Self::slice_end)) timed out:
    /// at the deadline, the wait is over unless the agent was kept waiting
    /// for a CPU (under [`Clock::Cpu`], where its run delay is read: the
    /// rule of [`TimeLimits::hang_reached`], through
    /// [`TimeLimits::wait_over`], over the wait the runner gave), in which
    /// case the deadline moves on by [`CPU_POLL`]; before it, or so moved
    /// on, the CPU time over the request decides, read now by `cpu_now`
    /// (the process tree's cumulative CPU time), and once the silence
    /// limit of wall time has passed, the tree's run delay and whether it
    /// is runnable, read by `sched_now`.
    pub fn after_slice(
        &mut self,
        until: Instant,
        cpu_now: impl FnOnce() -> Option<Duration>,
        sched_now: impl FnOnce() -> Option<TreeSched>,
    ) -> AfterSlice {
        let hard = self.hard();
        let what = self.phase.as_str();
        let at_deadline = until >= self.deadline;
        // Slices end before the deadline only with a hard limit to watch.
        if !at_deadline && self.cpu_start.is_none() {
            return AfterSlice::Wait;
        }
        let cpu = self
            .cpu_start
            .and_then(|from| between(Some(from), cpu_now()));
        let wall = self.start.elapsed();
        // The tree's run delay over the request, read at most once.
        let mut sched_now = Some(sched_now);
        let mut sched = None;
        let mut read_sched = |d0: Duration| -> Option<(Duration, bool)> {
            let now = *sched.get_or_insert_with(|| sched_now.take().and_then(|f| f()));
            now.map(|n| (n.waited.saturating_sub(d0), n.runnable))
        };
        if at_deadline {
            let read = match (cpu, self.delay_start) {
                (Some(cpu), Some(d0)) => read_sched(d0)
                    .map(|(waited, runnable)| (Activity { wall, cpu, waited }, runnable)),
                _ => None,
            };
            let activity = read.map(|(a, _)| a);
            // Without a reading of the run delay, the deadline ends the wait.
            if read.is_none_or(|(a, runnable)| {
                self.limits.wait_over(self.wait, wall, Some(a), runnable)
            }) {
                let most = self.wait;
                let kept = match activity {
                    Some(a) if !a.waited.is_zero() => {
                        format!(" (the {} it waited for a CPU not counted)", human(a.waited))
                    }
                    _ => String::new(),
                };
                return AfterSlice::Stop(Failure {
                    outcome: Outcome::Timeout,
                    detail: format!(
                        "{}{kept}; process group killed",
                        self.limits.no_answer(what, hard, wall, cpu, false, most)
                    ),
                });
            }
            // Kept waiting for a CPU: the deadline moves on.
            self.deadline = Instant::now() + CPU_POLL;
        }
        let Some(cpu) = cpu else {
            // Unreadable now: wait until the deadline, as without a watch.
            self.cpu_start = None;
            self.delay_start = None;
            return AfterSlice::Wait;
        };
        // The judge's verdict on the request so far: what it charges is
        // the CPU time less the time the host of a virtual machine took
        // meanwhile.
        let mut usage = Usage {
            wall,
            cpu: Some(cpu),
            waited: None,
            counted: None,
        };
        let excusals = Excusals {
            steal: crate::play::timing::steal::during(self.start, Instant::now()),
            starvation: Duration::ZERO,
        };
        let verdict = |usage: &Usage, runnable| {
            judge(
                usage,
                Answer::Awaited { runnable },
                excusals,
                &self.limits,
                self.phase,
            )
            .verdict
        };
        if let Verdict::Disqualified { detail } = verdict(&usage, None) {
            // As the runner judges an answer past the hard limit: an agent
            // that would have answered gets the same verdict, only sooner,
            // whichever comes first.
            return AfterSlice::Stop(Failure {
                outcome: Outcome::Disqualified,
                detail: format!("{detail}; process group killed"),
            });
        }
        let Some(d0) = self.delay_start else {
            return AfterSlice::Wait;
        };
        if usage.wall <= self.limits.silence_limit(hard) {
            return AfterSlice::Wait;
        }
        let Some((waited, runnable)) = read_sched(d0) else {
            // Unreadable now: the deadline alone ends the wait.
            self.delay_start = None;
            return AfterSlice::Wait;
        };
        usage.waited = Some(waited);
        if verdict(&usage, Some(runnable)) != Verdict::Silent {
            return AfterSlice::Wait;
        }
        AfterSlice::Stop(Failure {
            outcome: Outcome::Timeout,
            detail: format!(
                "{}; process group killed",
                self.limits
                    .no_answer(what, hard, usage.wall, Some(cpu), true, self.wait)
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

    fn no_sched() -> Option<TreeSched> {
        panic!("no run delay is read")
    }

    fn timed_out(read: AfterSlice) -> Failure {
        match read {
            AfterSlice::Stop(f) if f.outcome == Outcome::Timeout => f,
            other => panic!("not a timeout: {other:?}"),
        }
    }

    #[test]
    fn the_wall_clock_and_an_unreadable_start_wait_until_the_deadline() {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(2);
        for (clock, cpu_start) in [(Clock::Wall, Some(Duration::ZERO)), (Clock::Cpu, None)] {
            let d0 = Some(Duration::ZERO);
            let mut w = CpuWatch::new(&limits(clock), Phase::Act, start, cpu_start, d0, deadline);
            assert_eq!(w.slice_end(), deadline, "{clock:?}");
            let read = w.after_slice(deadline, || panic!("no CPU time is read"), no_sched);
            let f = timed_out(read);
            assert!(f.detail.starts_with("act: no answer after "), "{f:?}");
            assert!(f.detail.ends_with("; process group killed"), "{f:?}");
        }
    }

    #[test]
    fn slices_end_at_the_hard_limit_then_every_poll_and_never_past_the_deadline() {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(2);
        let l = limits(Clock::Cpu);
        let z = Some(Duration::ZERO);
        let w = CpuWatch::new(&l, Phase::Act, start, z, z, deadline);
        // The first slice: until the hard limit of wall time, 200 ms from
        // start (or a poll from now, should this test be late).
        let end = w.slice_end();
        assert!(end >= start + Duration::from_millis(200) && end < deadline);
        // The init phase's hard limit (2 s) is the deadline itself.
        let w = CpuWatch::new(&l, Phase::Init, start, z, z, deadline);
        assert_eq!(w.slice_end(), deadline);
        // Past the hard limit of wall time: a poll from now.
        let l = TimeLimits {
            act_hard: Duration::ZERO,
            ..l
        };
        let w = CpuWatch::new(&l, Phase::Act, start, z, z, deadline);
        let before = Instant::now();
        let end = w.slice_end();
        assert!(end >= before + CPU_POLL && end <= Instant::now() + CPU_POLL);
    }

    #[test]
    fn the_cpu_time_over_the_request_past_the_hard_limit_stops_the_agent() {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(2);
        let from = Some(Duration::from_secs(7));
        let l = limits(Clock::Cpu);
        let mut w = CpuWatch::new(&l, Phase::Act, start, from, Some(Duration::ZERO), deadline);
        let until = w.slice_end();
        // Within: wait on (before the silence limit, the run delay is not
        // read). Steal, if any, only lowers what is charged.
        let read = w.after_slice(until, || Some(Duration::from_millis(7150)), no_sched);
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        let read = w.after_slice(until, || Some(Duration::from_secs(8)), no_sched);
        let AfterSlice::Stop(f) = read else {
            panic!("not stopped: {read:?}")
        };
        assert_eq!(f.outcome, Outcome::Disqualified);
        assert_eq!(
            f.detail,
            "act used 1000 ms of CPU without answering, past the hard limit of 200 ms; process group killed"
        );
        // At the deadline, with no run delay read, the deadline decides;
        // the message says the CPU time used and the limits.
        let mut w = CpuWatch::new(&l, Phase::Act, start, from, None, deadline);
        let read = w.after_slice(deadline, || Some(Duration::from_millis(7120)), no_sched);
        let f = timed_out(read);
        assert!(
            f.detail.contains("of wall time while using 120 ms of CPU; the limit is 200 ms of CPU time, and an answer is waited for at most 2.0 s"),
            "{f:?}"
        );
    }

    /// A watch whose act started `ago` (hard limit 200 ms), with the
    /// runner's deadline 2 s after its start (passed when `ago` is over
    /// 2 s), the tree's CPU time 7 s and run delay 3 s at the start.
    fn watch_since(ago: Duration) -> CpuWatch {
        let start = Instant::now() - ago;
        let s = |v| Some(Duration::from_secs(v));
        let l = limits(Clock::Cpu);
        CpuWatch::new(
            &l,
            Phase::Act,
            start,
            s(7),
            s(3),
            start + Duration::from_secs(2),
        )
    }

    #[test]
    fn at_the_deadline_the_time_spent_waiting_for_a_cpu_is_not_counted() {
        let cpu = || Some(Duration::from_millis(7100));
        // 2.5 s into the act, 100 ms of CPU, 2.3 s of waiting for a CPU:
        // 0.2 s of the 2 s wait counted, the deadline moves on a poll.
        let mut w = watch_since(Duration::from_millis(2500));
        let read = w.after_slice(w.deadline, cpu, || sched(2300, true));
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        let next = w.slice_end();
        assert!(next > Instant::now() && next <= Instant::now() + CPU_POLL);
        // The same wait with 0.4 s of run delay, the tree runnable now: the
        // time since it last ran may be a wait for a CPU still going on (the
        // run delay counts it once it ends), so only its 100 ms of CPU count.
        let mut w = watch_since(Duration::from_millis(2500));
        let read = w.after_slice(w.deadline, cpu, || sched(400, true));
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        // Not runnable (blocked or asleep): 2.1 s counted, over.
        let mut w = watch_since(Duration::from_millis(2500));
        let f = timed_out(w.after_slice(w.deadline, cpu, || sched(400, false)));
        assert!(
            f.detail.contains(
                "while using 100 ms of CPU; the limit is 200 ms of CPU time, and an answer is \
                 waited for at most 2.0 s (the 400 ms it waited for a CPU not counted); \
                 process group killed"
            ),
            "{f:?}"
        );
        // Moved on, the CPU time still stops a spinning agent: 1.9 s of
        // CPU, far past the 200 ms hard limit whatever VM steal the real
        // machine had over these 2.5 s (the judge does not charge it).
        let mut w = watch_since(Duration::from_millis(2500));
        let read = w.after_slice(
            w.deadline,
            || Some(Duration::from_millis(8900)),
            || sched(2300, true),
        );
        let AfterSlice::Stop(f) = read else {
            panic!("not stopped: {read:?}")
        };
        assert_eq!(f.outcome, Outcome::Disqualified, "{f:?}");
        // The run delay unreadable at the deadline: the deadline decides.
        let mut w = watch_since(Duration::from_millis(2500));
        timed_out(w.after_slice(w.deadline, cpu, || None));
    }

    #[test]
    fn an_unreadable_cpu_time_waits_until_the_deadline() {
        let start = Instant::now();
        let deadline = start + Duration::from_secs(2);
        let l = limits(Clock::Cpu);
        let z = Some(Duration::ZERO);
        let mut w = CpuWatch::new(&l, Phase::Act, start, z, z, deadline);
        let read = w.after_slice(w.slice_end(), || None, no_sched);
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        assert_eq!(w.slice_end(), deadline);
    }

    /// A watch whose act started 1.5 s ago (hard limit 200 ms: silence
    /// limit 1.2 s), with a 10 s deadline, the tree's CPU time 7 s and run
    /// delay 3 s at the start.
    fn late_watch() -> CpuWatch {
        let start = Instant::now() - Duration::from_millis(1500);
        let s = |v| Some(Duration::from_secs(v));
        let l = limits(Clock::Cpu);
        CpuWatch::new(
            &l,
            Phase::Act,
            start,
            s(7),
            s(3),
            start + Duration::from_secs(10),
        )
    }

    fn sched(waited_ms: u64, runnable: bool) -> Option<TreeSched> {
        Some(TreeSched {
            waited: Duration::from_secs(3) + Duration::from_millis(waited_ms),
            runnable,
        })
    }

    #[test]
    fn a_silent_agent_is_given_up_on_past_the_silence_limit_and_a_loaded_one_is_not() {
        let cpu = || Some(Duration::from_millis(7010));
        // Asleep: 10 ms of CPU, 5 ms of run delay in 1.5 s: silent 1.485 s.
        let mut w = late_watch();
        let f = timed_out(w.after_slice(Instant::now(), cpu, || sched(5, false)));
        assert!(f.detail.starts_with("act: no answer after 1.5"), "{f:?}");
        assert!(
            f.detail.ends_with(
                " s of wall time while using 10 ms of CPU; the limit is 200 ms of CPU time, and \
                 an agent that neither runs nor waits for a CPU is waited for at most 1.2 s; \
                 process group killed"
            ),
            "{f:?}"
        );
        // Kept waiting for a CPU for 1.4 s of it (a loaded machine):
        // silent 90 ms, waited for.
        let mut w = late_watch();
        let read = w.after_slice(Instant::now(), cpu, || sched(1400, false));
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        // Runnable now (its delay not yet counted): waited for.
        let read = w.after_slice(Instant::now(), cpu, || sched(5, true));
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        // The run delay unreadable: the deadline alone decides from then on.
        let read = w.after_slice(Instant::now(), cpu, || None);
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        let read = w.after_slice(Instant::now(), cpu, no_sched);
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
        // No run delay at the start: silence is not watched.
        let start = Instant::now() - Duration::from_millis(1500);
        let l = limits(Clock::Cpu);
        let from = Some(Duration::from_secs(7));
        let mut w = CpuWatch::new(
            &l,
            Phase::Act,
            start,
            from,
            None,
            start + Duration::from_secs(10),
        );
        let read = w.after_slice(Instant::now(), cpu, no_sched);
        assert!(matches!(read, AfterSlice::Wait), "{read:?}");
    }
}
