//! Contestants: the harness side of an agent. A contestant is asked for a
//! decision in two steps, [`Contestant::request`] then [`Contestant::wait`],
//! so that the runner can ask both seats of a simultaneous game at once and
//! still never wait past anyone's hard limit.
//!
//! [`InProcess`] runs a built-in [`games::Agent`] on a worker thread of its
//! own. A panic becomes [`Outcome::Crash`]; an agent that does not answer by
//! the deadline is abandoned: its thread is detached and keeps running until
//! the agent returns (a thread cannot be killed), the episode goes on
//! without it, and the harness never waits for that thread again. Untrusted
//! code belongs in a subprocess, where the whole process can be killed.

use crate::play::outcome::Outcome;
use crate::play::sched_file::SchedFile;
use crate::play::timing::{
    between, run_delay, thread_cpu_time, Activity, AgentTimer, Clock, TimeLimits,
};
use games::{Agent, AgentStats, Game, Seat};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a contestant is asked: init or an act (the budgets of each are
/// the judge's, [`crate::play::judge::TimeLimits::budget`]).
pub use crate::play::judge::Phase;

/// The answer to one request, as measured by the harness.
#[derive(Debug)]
pub struct Reply<A> {
    /// The action (for [`Phase::Act`]), `None` for init; or the failure.
    pub result: Result<Option<A>, Failure>,
    /// Wall time from the request to the answer, measured by the harness.
    pub wall: Duration,
    /// CPU time of the agent's thread during the call, where known.
    pub cpu: Option<Duration>,
    /// Time during the call that the agent's threads (and, for a
    /// subprocess, the supervisor thread reading its answer) were ready to
    /// run but waiting for a CPU ([`crate::play::timing::run_delay`]), where
    /// known: the part of the machine's load that fell on this act.
    pub waited: Option<Duration>,
    /// The agent's counted time ([`Clock::Counted`]: its looks at its
    /// timer times the step), where counted.
    pub counted: Option<Duration>,
}

/// Why a contestant produced no usable answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The outcome to record.
    pub outcome: Outcome,
    /// Details for the log / CSV `detail` column.
    pub detail: String,
}

/// The harness side of one agent in one episode.
pub trait Contestant<G: Game>: Send {
    /// Called just before the clock of the next request starts (before the
    /// `start` handed to [`Contestant::request`] is taken), for readings
    /// that must not be charged to the agent's time: an external agent's
    /// run delay under [`Clock::Wall`]. A contestant that is not prepared
    /// still answers; its reply's `waited` may then be `None`. Default:
    /// nothing.
    fn prepare(&mut self) {}
    /// Start a request for `seat` in `state`; the decision's clock started at
    /// `start` with soft budget `budget`.
    fn request(&mut self, phase: Phase, state: &G, seat: Seat, start: Instant, budget: Duration);
    /// Wait for the answer until `deadline` (wall clock). Returns a
    /// [`Failure`] with [`Outcome::Disqualified`] (in-process) or
    /// [`Outcome::Timeout`] (subprocess) when the deadline passes.
    fn wait(&mut self, deadline: Instant) -> Reply<G::Action>;
    /// Whether [`Contestant::ask`] runs the agent on the calling thread (the
    /// runner then asks it alone, after the others' requests are out).
    /// Default: no.
    fn on_caller_thread(&self) -> bool {
        false
    }
    /// Whether the run's watchdog abandoned this contestant's last call and
    /// took its episode over (the caller must then leave the episode
    /// alone). Default: never.
    fn abandoned(&self) -> bool {
        false
    }
    /// [`Contestant::request`] then [`Contestant::wait`] until `deadline`.
    fn ask(
        &mut self,
        phase: Phase,
        state: &G,
        seat: Seat,
        start: Instant,
        budget: Duration,
        deadline: Instant,
    ) -> Reply<G::Action> {
        self.request(phase, state, seat, start, budget);
        self.wait(deadline)
    }
    /// The joint action `joint` (one entry per seat: the answer, the
    /// fallback played for a late answer, or an inactive seat's fallback)
    /// is played in `state` (the state before it). Called for every
    /// contestant of the episode, once per tick, before the state advances.
    /// Default: nothing.
    fn played(&mut self, state: &G, joint: &[G::Action]) {
        let _ = (state, joint);
    }
    /// Tell the agent the game is over (best effort, bounded wait).
    fn end(&mut self, state: &G, seat: Seat);
    /// The agent's counters (best effort).
    fn stats(&mut self) -> AgentStats;
    /// Stop the agent now, whatever state it is in (idempotent): external
    /// agents' processes are killed and what they left behind is counted.
    fn close(&mut self) {}
    /// Processes of the agent found alive after it was stopped, and killed
    /// (0 for in-process agents).
    fn leaked(&self) -> usize {
        0
    }
}

enum Job<G: Game> {
    Call {
        phase: Phase,
        state: G,
        seat: Seat,
        start: Instant,
        budget: Duration,
    },
    End {
        state: G,
        seat: Seat,
    },
}

enum Answer<A> {
    Done {
        action: Option<A>,
        cpu: Duration,
        /// The thread's run delay over the call, from before it woke for
        /// the job (read under the wall clock only).
        waited: Option<Duration>,
        /// When the agent returned (the runner may read the answer later).
        at: Instant,
        /// Its counted time, under [`Clock::Counted`].
        counted: Option<Duration>,
    },
    Panicked(String),
    Ended(AgentStats),
}

/// A built-in agent on its own worker thread.
pub struct InProcess<G: Game> {
    jobs: Option<Sender<Job<G>>>,
    answers: Receiver<Answer<G::Action>>,
    started: Option<Instant>,
    phase: Phase,
    broken: Option<Failure>,
    stats: AgentStats,
    /// The limits the agent is judged by.
    limits: TimeLimits,
    /// The worker thread's id, once it has started (0 before).
    tid: Arc<AtomicI32>,
    /// The worker thread's CPU time and run delay before the current
    /// request (read by [`Contestant::prepare`] under [`Clock::Cpu`]), to
    /// tell how long it has been silent.
    sched_start: Option<(Duration, Duration)>,
    /// The worker thread's `schedstat`, open once it has started.
    schedstat: Option<SchedFile>,
}

/// How often the worker thread of an agent that has not answered is looked
/// at once it could have been silent past its silence limit.
const SILENCE_POLL: Duration = Duration::from_millis(50);

/// Why no answer came.
enum NoAnswer {
    /// The deadline passed.
    Deadline,
    /// The agent was silent past its silence limit.
    Silent(Activity),
    /// The worker thread is gone.
    Gone,
}

/// The message of a panic's payload (a `&str` or a `String`).
pub(crate) fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

thread_local! {
    /// Whether this thread is inside a built-in agent's call.
    static IN_AGENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Run `f`, a call into a built-in agent on the caller's thread, with the
/// panic report silenced as on an agent's worker thread.
pub(crate) fn in_agent<R>(f: impl FnOnce() -> R) -> R {
    IN_AGENT.with(|c| c.set(true));
    let r = f();
    IN_AGENT.with(|c| c.set(false));
    r
}

/// A panicking built-in agent is an outcome (`crash`, with the message in the
/// CSV `detail` column), not news for the terminal. The default panic report
/// (which may also capture a backtrace, slow enough to blow a 50 ms limit) is
/// silenced for agent worker threads and agent calls ([`in_agent`]) only;
/// everything else keeps it.
pub(crate) fn quiet_agent_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let agent_thread = IN_AGENT.with(|c| c.get())
                || std::thread::current()
                    .name()
                    .is_some_and(|n| n.starts_with(AGENT_THREAD_PREFIX));
            if !agent_thread {
                default(info);
            }
        }));
    });
}

/// Worker threads of in-process agents are named with this prefix.
const AGENT_THREAD_PREFIX: &str = "agent-";

impl<G: Game> InProcess<G> {
    /// Start a worker thread for `agent`, judged by `limits` (their clock
    /// is the one the agent's [`games::Timer`] reads).
    pub fn spawn(mut agent: Box<dyn Agent<G>>, limits: TimeLimits, label: &str) -> Self {
        let clock = limits.clock;
        let (job_tx, job_rx) = mpsc::channel::<Job<G>>();
        let (ans_tx, ans_rx) = mpsc::channel::<Answer<G::Action>>();
        quiet_agent_panics();
        let tid = Arc::new(AtomicI32::new(0));
        let worker_tid = Arc::clone(&tid);
        let builder = std::thread::Builder::new().name(format!("{AGENT_THREAD_PREFIX}{label}"));
        let spawned = builder.spawn(move || {
            worker_tid.store(run_delay::this_thread_id(), Ordering::Relaxed);
            // The run delay is read before the thread blocks for a job, so
            // that waking for it counts (under the wall clock only: a read
            // of `/proc` per act costs a few microseconds).
            let run_delay = || match clock {
                Clock::Wall => run_delay::of_this_thread(),
                Clock::Cpu | Clock::Counted => None,
            };
            let mut delay0 = run_delay();
            while let Ok(job) = job_rx.recv() {
                let answer = match job {
                    Job::Call {
                        phase,
                        state,
                        seat,
                        start,
                        budget,
                    } => {
                        let cpu0 = thread_cpu_time();
                        let timer = AgentTimer::of_at(&limits, start, budget, cpu0);
                        let r = catch_unwind(AssertUnwindSafe(|| match phase {
                            Phase::Init => {
                                agent.init(&state, seat, &timer);
                                None
                            }
                            Phase::Act => Some(agent.act(&state, seat, &timer)),
                        }));
                        let cpu = thread_cpu_time().saturating_sub(cpu0);
                        let at = Instant::now();
                        let delay1 = run_delay();
                        let waited = between(delay0, delay1);
                        delay0 = delay1;
                        match r {
                            Ok(action) => Answer::Done {
                                action,
                                cpu,
                                waited,
                                at,
                                counted: timer.counted(),
                            },
                            Err(p) => Answer::Panicked(panic_message(p)),
                        }
                    }
                    Job::End { state, seat } => {
                        let r = catch_unwind(AssertUnwindSafe(|| {
                            agent.end(&state, seat);
                            agent.stats()
                        }));
                        match r {
                            Ok(stats) => Answer::Ended(stats),
                            Err(p) => Answer::Panicked(panic_message(p)),
                        }
                    }
                };
                let fatal = matches!(answer, Answer::Panicked(_));
                if ans_tx.send(answer).is_err() || fatal {
                    break;
                }
            }
        });
        let broken = spawned.err().map(|e| Failure {
            outcome: Outcome::SpawnFailed,
            detail: format!("could not start the agent's thread: {e}"),
        });
        InProcess {
            jobs: Some(job_tx),
            answers: ans_rx,
            started: None,
            phase: Phase::Init,
            broken,
            stats: AgentStats::default(),
            limits,
            tid,
            sched_start: None,
            schedstat: None,
        }
    }

    /// The worker thread's CPU time and run delay so far, and whether it
    /// is runnable (`None` before it started, or where unreadable).
    fn sched(&self) -> Option<(Duration, run_delay::TreeSched)> {
        match self.tid.load(Ordering::Relaxed) {
            0 => None,
            tid => run_delay::of_own_thread(tid),
        }
    }

    /// Wait for the worker's answer until `deadline`; under [`Clock::Cpu`],
    /// where the worker's CPU time and run delay can be read, only until it
    /// has been silent past the silence limit (see
    /// [`TimeLimits::gives_up_on_silence`]), looked at once that much wall
    /// time has passed, then every [`SILENCE_POLL`].
    fn receive(&self, start: Instant, deadline: Instant) -> Result<Answer<G::Action>, NoAnswer> {
        let hard = self.phase.budgets(&self.limits).1;
        let mut from = self.sched_start;
        let mut deadline = deadline;
        let mut until = match from {
            Some(_) => deadline.min(start + self.limits.silence_limit(hard)),
            None => deadline,
        };
        loop {
            let at_deadline = until >= deadline;
            match self
                .answers
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(a) => return Ok(a),
                Err(RecvTimeoutError::Disconnected) => return Err(NoAnswer::Gone),
                Err(RecvTimeoutError::Timeout) if at_deadline && from.is_none() => {
                    return Err(NoAnswer::Deadline)
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            match (from, self.sched()) {
                (Some((cpu0, delay0)), Some((cpu, now))) => {
                    let activity = Activity {
                        wall: start.elapsed(),
                        cpu: cpu.saturating_sub(cpu0),
                        waited: now.waited.saturating_sub(delay0),
                    };
                    if at_deadline {
                        if self.limits.hang_reached(
                            hard,
                            activity.wall,
                            Some(activity),
                            now.runnable,
                        ) {
                            return Err(NoAnswer::Deadline);
                        }
                        // Kept waiting for a CPU: the deadline moves on.
                        deadline = Instant::now() + SILENCE_POLL;
                    }
                    if self
                        .limits
                        .gives_up_on_silence(hard, activity, now.runnable)
                    {
                        return Err(NoAnswer::Silent(activity));
                    }
                    until = deadline.min(Instant::now() + SILENCE_POLL);
                }
                // Unreadable: the deadline alone ends the wait.
                _ => {
                    from = None;
                    until = deadline;
                }
            }
        }
    }
}

impl<G: Game> Contestant<G> for InProcess<G> {
    fn prepare(&mut self) {
        // Under the CPU clock, where readable: the worker's CPU time and
        // run delay before the request, to tell its silence (a read of
        // its `schedstat`, kept open, before the request's clock starts).
        self.sched_start = match self.limits.clock {
            Clock::Cpu if self.broken.is_none() => {
                if self.schedstat.is_none() {
                    let tid = self.tid.load(Ordering::Relaxed);
                    self.schedstat = (tid != 0).then(|| SchedFile::open(tid)).flatten();
                }
                self.schedstat.as_ref().and_then(SchedFile::read)
            }
            _ => None,
        };
    }

    fn request(&mut self, phase: Phase, state: &G, seat: Seat, start: Instant, budget: Duration) {
        self.started = Some(start);
        self.phase = phase;
        if self.broken.is_some() {
            return;
        }
        let job = Job::Call {
            phase,
            state: state.clone(),
            seat,
            start,
            budget,
        };
        if self
            .jobs
            .as_ref()
            .map(|j| j.send(job).is_err())
            .unwrap_or(true)
        {
            self.broken = Some(Failure {
                outcome: Outcome::Crash,
                detail: "the agent's thread is gone".into(),
            });
        }
    }

    fn wait(&mut self, deadline: Instant) -> Reply<G::Action> {
        let start = self.started.unwrap_or_else(Instant::now);
        if let Some(f) = &self.broken {
            return Reply {
                result: Err(f.clone()),
                wall: Duration::ZERO,
                cpu: None,
                waited: None,
                counted: None,
            };
        }
        let got = self.receive(start, deadline);
        let sched_from = self.sched_start.take();
        let wall = start.elapsed();
        let fail = |outcome, detail: String| Reply {
            result: Err(Failure { outcome, detail }),
            wall,
            cpu: None,
            waited: None,
            counted: None,
        };
        match got {
            Ok(Answer::Done {
                action,
                cpu,
                waited,
                at,
                counted,
            }) => Reply {
                result: Ok(action),
                // When the agent returned: in a simultaneous game the runner
                // reads the seats one after the other, and the time it spent
                // waiting for an earlier seat is not this agent's.
                wall: at.saturating_duration_since(start),
                cpu: Some(cpu),
                waited,
                counted,
            },
            Ok(Answer::Panicked(msg)) => {
                self.jobs = None;
                let f = Failure {
                    outcome: Outcome::Crash,
                    detail: format!("panicked: {msg}"),
                };
                self.broken = Some(f.clone());
                fail(Outcome::Crash, f.detail)
            }
            Ok(Answer::Ended(_)) => fail(Outcome::Crash, "out-of-order answer".into()),
            Err(no @ (NoAnswer::Deadline | NoAnswer::Silent(_))) => {
                // Abandon the thread: drop our end of the job channel so that it
                // exits if it ever returns; never wait on it again.
                self.jobs = None;
                let hard = self.phase.budgets(&self.limits).1;
                let most = deadline.saturating_duration_since(start);
                let message = match no {
                    NoAnswer::Silent(a) => self.limits.no_answer(
                        self.phase.as_str(),
                        hard,
                        a.wall,
                        Some(a.cpu),
                        true,
                        most,
                    ),
                    _ => {
                        let cpu = (self.limits.clock == Clock::Cpu)
                            .then(|| self.sched())
                            .flatten()
                            .zip(sched_from)
                            .map(|((now, _), (from, _))| now.saturating_sub(from));
                        self.limits
                            .no_answer(self.phase.as_str(), hard, wall, cpu, false, most)
                    }
                };
                let detail = format!("{message}; worker thread abandoned");
                self.broken = Some(Failure {
                    outcome: Outcome::Disqualified,
                    detail: detail.clone(),
                });
                fail(Outcome::Disqualified, detail)
            }
            Err(NoAnswer::Gone) => {
                self.jobs = None;
                fail(Outcome::Crash, "the agent's thread ended".into())
            }
        }
    }

    fn end(&mut self, state: &G, seat: Seat) {
        if self.broken.is_some() {
            return;
        }
        let Some(jobs) = self.jobs.take() else { return };
        if jobs
            .send(Job::End {
                state: state.clone(),
                seat,
            })
            .is_ok()
        {
            // GVGAI's tear-down budget is 100 ms; we wait a little longer and
            // simply ignore a late end().
            if let Ok(Answer::Ended(stats)) = self.answers.recv_timeout(Duration::from_millis(200))
            {
                self.stats = stats;
            }
        }
    }

    fn stats(&mut self) -> AgentStats {
        self.stats
    }
}
