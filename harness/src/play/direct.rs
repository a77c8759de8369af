//! [`Direct`]: a built-in agent run on the episode's own thread. An act is a
//! function call, timed with the clocks [`crate::play::player::InProcess`]
//! uses (the calling thread's CPU time, the wall clock, its run delay under
//! the wall clock). The run's [`Watchdog`] enforces the wall-clock deadline:
//! when the agent does not return in time, the watchdog hands the episode
//! to its rescue ([`Hung`]) and the stuck thread is abandoned; when the
//! agent returns at last, [`Contestant::abandoned`] says so and the caller
//! leaves the episode alone.

use crate::play::judge::Phase;
use crate::play::outcome::Outcome;
use crate::play::player::{
    in_agent, panic_message, quiet_agent_panics, Contestant, Failure, Reply,
};
use crate::play::sched_file::SchedFile;
use crate::play::timing::{between, thread_cpu_time, AgentTimer, Clock, TimeLimits};
use crate::play::watchdog::{this_thread_id, CallSpec, Hung, Watchdog, END_WAIT};
use games::{Agent, AgentStats, Game, Seat};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

thread_local! {
    /// This thread's `schedstat`, open once.
    static SCHED: Option<SchedFile> = SchedFile::open(this_thread_id());
    /// The last reading of it under the CPU clock, and when it was taken.
    static LAST: Cell<Option<(Instant, (Duration, Duration))>> = const { Cell::new(None) };
    /// This thread's last reading of its CPU time, and a wall-clock reading
    /// taken just before it.
    static LAST_READ: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
}

/// A call's start reading of the thread's CPU time is the thread's last
/// reading plus the wall-clock time since, when that is at most this much
/// (two built-in agents acting in turn on one thread then read the CPU
/// clock, a system call, once every few dozen acts). The wall clock runs at
/// least as fast as the thread's CPU time, so the estimate is never below
/// the true reading: a call is judged short by the time the thread spent
/// waiting for a CPU in that gap, at most this much, never long.
const CHAIN_WITHIN: Duration = Duration::from_micros(50);

/// A call that returns within this much wall-clock time (and within its
/// soft budget) is not timed by a second reading of the CPU clock: its CPU
/// time is taken to be its wall-clock time, which it cannot exceed. Its
/// verdict is the one the true reading gives (both are under the soft
/// budget); its recorded CPU time is at most this much too long, by the
/// time the thread waited for a CPU during the call.
const ESTIMATE_BELOW: Duration = Duration::from_micros(100);

/// A real reading of the calling thread's CPU time, kept for [`cpu_at`];
/// `now` a wall-clock reading just taken.
fn read_cpu(now: Instant) -> Duration {
    let cpu = thread_cpu_time();
    LAST_READ.set(Some((now, cpu)));
    cpu
}

/// The calling thread's CPU time now (`now` a wall-clock reading just
/// taken): the last reading carried forward by the wall-clock time since
/// it (see [`CHAIN_WITHIN`]), or a new reading.
fn cpu_at(now: Instant) -> Duration {
    if let Some((at, cpu)) = LAST_READ.get() {
        let gap = now.saturating_duration_since(at);
        if gap <= CHAIN_WITHIN {
            return cpu + gap;
        }
    }
    read_cpu(now)
}

/// The calling thread's CPU time at the end of a call that started at
/// `start` (wall clock) with the CPU time `cpu0`, and the wall-clock
/// reading of the end: `cpu0` plus the call's wall-clock time when that
/// is below `below` (see [`ESTIMATE_BELOW`]), a new reading otherwise.
fn cpu_at_end(start: Instant, cpu0: Duration, below: Duration) -> (Instant, Duration) {
    let at = Instant::now();
    let wall = at.saturating_duration_since(start);
    if wall < below {
        return (at, cpu0 + wall);
    }
    (at, read_cpu(at))
}

/// Under the CPU clock, a reading of this thread's `schedstat` at most this
/// old stands for the reading at the start of a call (two built-in agents
/// acting in turn on one thread read it once for many acts). The silence
/// and wait rules then count up to this much of the thread's time before
/// the call as the agent's (its CPU time and its waits for a CPU): an
/// agent that is given up on is given up on later by at most this much,
/// never sooner (a spinning agent given up on by its CPU time is at ten
/// times its hard limit, disqualified either way), and the CPU time the
/// verdict is judged by is read apart, at the call.
const REUSE_WITHIN: Duration = Duration::from_millis(1);

/// The calling thread's CPU time and run delay so far, where readable.
fn own_sched() -> Option<(Duration, Duration)> {
    SCHED.with(|f| f.as_ref().and_then(SchedFile::read))
}

/// [`own_sched`], or its last reading when that is at most
/// [`REUSE_WITHIN`] old.
fn recent_sched() -> Option<(Duration, Duration)> {
    let now = Instant::now();
    if let Some((at, reading)) = LAST.get() {
        if now.saturating_duration_since(at) <= REUSE_WITHIN {
            return Some(reading);
        }
    }
    let reading = own_sched();
    LAST.set(reading.map(|r| (now, r)));
    reading
}

/// A built-in agent called on the caller's thread (see the module doc).
pub struct Direct<G: Game> {
    agent: Option<Box<dyn Agent<G>>>,
    limits: TimeLimits,
    watchdog: Arc<Watchdog>,
    hook: Arc<dyn Hung>,
    /// A request made with [`Contestant::request`], run by [`Contestant::wait`].
    pending: Option<(Phase, G, Seat, Instant, Duration)>,
    broken: Option<Failure>,
    stats: AgentStats,
    /// The thread's CPU time and run delay before the request.
    sched_start: Option<(Duration, Duration)>,
    abandoned: bool,
}

impl<G: Game> Direct<G> {
    /// `agent`, judged by `limits`, watched by `watchdog`, whose episode
    /// `hook` finishes if it hangs.
    pub fn new(
        agent: Box<dyn Agent<G>>,
        limits: TimeLimits,
        watchdog: Arc<Watchdog>,
        hook: Arc<dyn Hung>,
    ) -> Self {
        quiet_agent_panics();
        Direct {
            agent: Some(agent),
            limits,
            watchdog,
            hook,
            pending: None,
            broken: None,
            stats: AgentStats::default(),
            sched_start: None,
            abandoned: false,
        }
    }

    fn failed(&self, f: Failure, wall: Duration) -> Reply<G::Action> {
        Reply {
            result: Err(f),
            wall,
            cpu: None,
            waited: None,
            counted: None,
        }
    }
}

impl<G: Game> Contestant<G> for Direct<G> {
    fn prepare(&mut self) {
        self.sched_start = match (&self.broken, self.limits.clock) {
            (Some(_), _) => None,
            (None, Clock::Cpu) => recent_sched(),
            (None, Clock::Wall | Clock::Counted) => own_sched(),
        };
    }

    fn request(&mut self, phase: Phase, state: &G, seat: Seat, start: Instant, budget: Duration) {
        self.pending = Some((phase, state.clone(), seat, start, budget));
    }

    fn wait(&mut self, deadline: Instant) -> Reply<G::Action> {
        match self.pending.take() {
            Some((phase, state, seat, start, budget)) => {
                self.ask(phase, &state, seat, start, budget, deadline)
            }
            None => self.failed(
                Failure {
                    outcome: Outcome::Crash,
                    detail: "out-of-order answer".into(),
                },
                Duration::ZERO,
            ),
        }
    }

    fn on_caller_thread(&self) -> bool {
        true
    }

    fn abandoned(&self) -> bool {
        self.abandoned
    }

    fn ask(
        &mut self,
        phase: Phase,
        state: &G,
        seat: Seat,
        start: Instant,
        budget: Duration,
        deadline: Instant,
    ) -> Reply<G::Action> {
        if let Some(f) = &self.broken {
            return self.failed(f.clone(), Duration::ZERO);
        }
        let sched_start = self.sched_start.take();
        let Some(agent) = self.agent.as_mut() else {
            return self.failed(
                Failure {
                    outcome: Outcome::Crash,
                    detail: "the agent is gone".into(),
                },
                Duration::ZERO,
            );
        };
        let clock = self.limits.clock;
        let call = self.watchdog.begin(CallSpec {
            start,
            deadline,
            limits: self.limits,
            phase: Some(phase),
            seat,
            sched_from: (clock == Clock::Cpu).then_some(sched_start).flatten(),
            hook: Arc::clone(&self.hook),
        });
        let t0 = Instant::now();
        let cpu0 = cpu_at(t0);
        let timer = AgentTimer::of_at(&self.limits, start, budget, cpu0);
        let r = in_agent(|| {
            catch_unwind(AssertUnwindSafe(|| match phase {
                Phase::Init => {
                    agent.init(state, seat, &timer);
                    None
                }
                Phase::Act => Some(agent.act(state, seat, &timer)),
            }))
        });
        let (at, cpu1) = cpu_at_end(t0, cpu0, ESTIMATE_BELOW.min(budget));
        let cpu = cpu1.saturating_sub(cpu0);
        if !self.watchdog.end(call) {
            self.abandoned = true;
            self.agent = None;
            let f = Failure {
                outcome: Outcome::Disqualified,
                detail: "no answer by the deadline; worker thread abandoned".into(),
            };
            self.broken = Some(f.clone());
            return self.failed(f, at.saturating_duration_since(start));
        }
        match r {
            Ok(action) => {
                let waited = match clock {
                    Clock::Wall => between(sched_start.map(|s| s.1), own_sched().map(|s| s.1)),
                    Clock::Cpu | Clock::Counted => None,
                };
                Reply {
                    result: Ok(action),
                    wall: at.saturating_duration_since(start),
                    cpu: Some(cpu),
                    waited,
                    counted: timer.counted(),
                }
            }
            Err(p) => {
                self.agent = None;
                let f = Failure {
                    outcome: Outcome::Crash,
                    detail: format!("panicked: {}", panic_message(p)),
                };
                self.broken = Some(f.clone());
                self.failed(f, start.elapsed())
            }
        }
    }

    fn end(&mut self, state: &G, seat: Seat) {
        if self.broken.is_some() {
            return;
        }
        let Some(mut agent) = self.agent.take() else {
            return;
        };
        let start = Instant::now();
        let call = self.watchdog.begin(CallSpec {
            start,
            deadline: start + END_WAIT,
            limits: self.limits,
            phase: None,
            seat,
            sched_from: None,
            hook: Arc::clone(&self.hook),
        });
        let r = in_agent(|| {
            catch_unwind(AssertUnwindSafe(|| {
                agent.end(state, seat);
                agent.stats()
            }))
        });
        if !self.watchdog.end(call) {
            self.abandoned = true;
            return;
        }
        // A late `end()` is ignored, as on a worker thread.
        if let Ok(stats) = r {
            if start.elapsed() <= END_WAIT {
                self.stats = stats;
            }
        }
    }

    fn stats(&mut self) -> AgentStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::timing::spin_cpu;

    #[test]
    fn a_schedstat_reading_is_reused_only_while_it_is_recent() {
        let Some(_) = recent_sched() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "schedstat unreadable under CI"
            );
            return;
        };
        // Read again at once: the same reading stands for a new one (the
        // two reads are microseconds apart, far within REUSE_WITHIN, in at
        // least one of a hundred tries however loaded the machine).
        let reused = (0..100).any(|_| {
            let a = recent_sched();
            let taken = LAST.get().map(|(at, _)| at);
            let b = recent_sched();
            a.is_some() && a == b && LAST.get().map(|(at, _)| at) == taken
        });
        assert!(reused, "a reading a few microseconds old was never reused");
        let first = recent_sched().expect("readable as before");
        // Older than REUSE_WITHIN: read anew, and it shows the CPU time
        // spent since (schedstat's run time is the thread's as of its last
        // tick or switch: 25 ms of spinning is at least two ticks' worth).
        spin_cpu(REUSE_WITHIN + Duration::from_millis(25));
        let later = recent_sched().expect("readable as before");
        assert!(later.0 > first.0, "{first:?} then {later:?}");
        assert_eq!(LAST.get().map(|(_, r)| r), Some(later));
    }

    #[test]
    fn a_start_reading_is_carried_forward_only_from_a_recent_reading() {
        // A made-up reading far above the thread's true CPU time shows
        // which way a start reading was made.
        let far = Duration::from_secs(1_000_000);
        // Just taken: carried forward by the wall-clock gap (at most
        // CHAIN_WITHIN, in at least one of a hundred tries however loaded
        // the machine).
        let carried = (0..100).any(|_| {
            let at = Instant::now();
            LAST_READ.set(Some((at, far)));
            let now = Instant::now();
            let cpu = cpu_at(now);
            now.duration_since(at) <= CHAIN_WITHIN && cpu == far + now.duration_since(at)
        });
        assert!(carried, "a recent reading was never carried forward");
        // Older than CHAIN_WITHIN: the clock is read, and the reading kept.
        let old = Instant::now();
        std::thread::sleep(CHAIN_WITHIN * 2);
        LAST_READ.set(Some((old, far)));
        let now = Instant::now();
        let read = cpu_at(now);
        assert!(read < far);
        assert_eq!(LAST_READ.get(), Some((now, read)));
    }

    #[test]
    fn an_end_reading_is_estimated_only_for_a_call_shorter_than_the_bound() {
        let far = Duration::from_secs(1_000_000);
        // A call of a few microseconds (in at least one of a hundred tries
        // however loaded the machine): its CPU time is its wall time, and
        // no reading is taken.
        let estimated = (0..100).any(|_| {
            LAST_READ.set(None);
            let start = Instant::now();
            let (at, cpu) = cpu_at_end(start, far, ESTIMATE_BELOW);
            at.duration_since(start) < ESTIMATE_BELOW
                && cpu == far + at.duration_since(start)
                && LAST_READ.get().is_none()
        });
        assert!(estimated, "a short call was never estimated");
        // A call past the bound (or past a zero bound): the clock is read
        // and the reading kept.
        let start = Instant::now();
        spin_cpu(ESTIMATE_BELOW * 2);
        let (at, cpu) = cpu_at_end(start, far, ESTIMATE_BELOW);
        assert!(cpu < far);
        assert_eq!(LAST_READ.get(), Some((at, cpu)));
        let (at, cpu) = cpu_at_end(Instant::now(), far, Duration::ZERO);
        assert!(cpu < far);
        assert_eq!(LAST_READ.get(), Some((at, cpu)));
    }
}
