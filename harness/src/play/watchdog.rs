//! The run's watchdog: one thread per run that enforces the wall-clock
//! deadlines of agents that run on the episode's own thread
//! ([`crate::play::direct::Direct`]).
//!
//! A call is registered ([`Watchdog::begin`]) before the agent is called and
//! closed ([`Watchdog::end`]) when it returns. When a call is still open at
//! its deadline ([`TimeLimits::hang_reached`]: under the CPU clock the time
//! the thread waited for a CPU moves the deadline on), or, under the CPU clock, once
//! the calling thread has been silent past its silence limit
//! ([`TimeLimits::gives_up_on_silence`], looked at every [`SILENCE_POLL`]),
//! the watchdog closes it as abandoned and hands the episode to the call's
//! [`Hung`] hook on a new thread: the hook records the disqualification and
//! finishes the episode. The stuck thread is never joined; when the agent
//! returns, [`Watchdog::end`] tells it that the call was abandoned and it
//! touches nothing of the episode again.
//!
//! The watchdog is woken only when a call's first look comes before the
//! time it already sleeps to: in a steady run it wakes about once per
//! shortest deadline span, not once per act.

use crate::play::judge::Phase;
use crate::play::outcome::Outcome;
use crate::play::player::Failure;
use crate::play::timing::{run_delay, Activity, Clock, TimeLimits};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often the thread of a call that has not returned is looked at once it
/// could have been silent past its silence limit (as in
/// [`crate::play::player::InProcess`]).
pub const SILENCE_POLL: Duration = Duration::from_millis(50);

/// How long an agent's `end()` is waited for before it is abandoned (GVGAI's
/// tear-down budget is 100 ms; a late `end()` is ignored).
pub const END_WAIT: Duration = Duration::from_millis(200);

/// What the watchdog hands a hung call's episode to.
pub trait Hung: Send + Sync {
    /// The call of seat `seat` in `phase` (`None`: the agent's `end()`) is
    /// being abandoned: `failure` is its disqualification, `t_ms` the time
    /// charged on the judging clock. Called under the watchdog's lock,
    /// before the stuck call can learn it was abandoned, so it must not
    /// block: it takes hold of the episode and returns what finishes it
    /// (run on a thread of its own), or `None` when there is nothing left.
    fn claim(
        &self,
        seat: usize,
        phase: Option<Phase>,
        failure: Failure,
        t_ms: f64,
    ) -> Option<Box<dyn FnOnce() + Send>>;
}

/// One open call.
struct Call {
    gen: u64,
    start: Instant,
    deadline: Instant,
    /// When the watchdog looks at it next.
    check: Instant,
    limits: TimeLimits,
    phase: Option<Phase>,
    seat: usize,
    /// The calling thread's id, and its CPU time and run delay at the
    /// start (under the CPU clock, where readable).
    tid: i32,
    sched_from: Option<(Duration, Duration)>,
    hook: Arc<dyn Hung>,
}

struct Inner {
    /// Open calls by slot.
    calls: Vec<Option<Call>>,
    free: Vec<usize>,
    next_gen: u64,
    /// When the watchdog thread wakes next.
    target: Instant,
    /// The shortest deadline span seen (how long an idle watchdog sleeps).
    span: Duration,
    shutdown: bool,
}

/// The run's watchdog (see the module doc).
pub struct Watchdog {
    inner: Mutex<Inner>,
    cv: Condvar,
}

impl std::fmt::Debug for Watchdog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watchdog")
    }
}

/// What a call needs the watchdog to know.
pub struct CallSpec {
    /// When the call's clock started.
    pub start: Instant,
    /// The wall-clock deadline.
    pub deadline: Instant,
    /// The limits it is judged by.
    pub limits: TimeLimits,
    /// Init or act; `None` for the agent's `end()`.
    pub phase: Option<Phase>,
    /// The seat.
    pub seat: usize,
    /// The calling thread's CPU time and run delay at the start (under the
    /// CPU clock, where readable): enables the silence rule.
    pub sched_from: Option<(Duration, Duration)>,
    /// Who finishes the episode if the call is abandoned.
    pub hook: Arc<dyn Hung>,
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

thread_local! {
    static TID: i32 = run_delay::this_thread_id();
}

/// The calling thread's id (cached).
pub fn this_thread_id() -> i32 {
    TID.with(|t| *t)
}

impl Watchdog {
    /// Start the watchdog's thread. It ends after [`Watchdog::shutdown`].
    pub fn start() -> std::io::Result<Arc<Watchdog>> {
        let dog = Arc::new(Watchdog {
            inner: Mutex::new(Inner {
                calls: Vec::new(),
                free: Vec::new(),
                next_gen: 1,
                target: Instant::now() + Duration::from_secs(3600),
                span: Duration::from_secs(3600),
                shutdown: false,
            }),
            cv: Condvar::new(),
        });
        let d = Arc::clone(&dog);
        std::thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || d.watch())?;
        Ok(dog)
    }

    /// Stop the watchdog's thread (calls still open are no longer watched).
    pub fn shutdown(&self) {
        lock(&self.inner).shutdown = true;
        self.cv.notify_all();
    }

    /// Open a call; its slot and generation, for [`Watchdog::end`].
    pub fn begin(&self, call: CallSpec) -> (usize, u64) {
        let silence = call
            .sched_from
            .is_some()
            .then(|| {
                let hard = hard_of(call.phase, &call.limits);
                call.start + call.limits.silence_limit(hard)
            })
            .filter(|s| *s < call.deadline);
        let check = silence.unwrap_or(call.deadline);
        let mut g = lock(&self.inner);
        let gen = g.next_gen;
        g.next_gen += 1;
        g.span = g.span.min(check.saturating_duration_since(call.start));
        let c = Call {
            gen,
            start: call.start,
            deadline: call.deadline,
            check,
            limits: call.limits,
            phase: call.phase,
            seat: call.seat,
            tid: this_thread_id(),
            sched_from: call.sched_from,
            hook: call.hook,
        };
        let slot = match g.free.pop() {
            Some(s) => {
                g.calls[s] = Some(c);
                s
            }
            None => {
                g.calls.push(Some(c));
                g.calls.len() - 1
            }
        };
        if check < g.target {
            g.target = check;
            drop(g);
            self.cv.notify_one();
        }
        (slot, gen)
    }

    /// Close the call `(slot, gen)`: `true` when it returned in time, `false`
    /// when the watchdog abandoned it (the episode is no longer the
    /// caller's).
    pub fn end(&self, (slot, gen): (usize, u64)) -> bool {
        let mut g = lock(&self.inner);
        match g.calls.get(slot) {
            Some(Some(c)) if c.gen == gen => {
                g.calls[slot] = None;
                g.free.push(slot);
                true
            }
            _ => false,
        }
    }

    fn watch(&self) {
        let mut g = lock(&self.inner);
        loop {
            if g.shutdown {
                return;
            }
            let now = Instant::now();
            if now < g.target {
                let wait = g.target - now;
                g = self
                    .cv
                    .wait_timeout(g, wait)
                    .map(|(g, _)| g)
                    .unwrap_or_else(|p| p.into_inner().0);
                continue;
            }
            let mut fired = Vec::new();
            let mut next = now + g.span;
            let inner = &mut *g;
            for slot in 0..inner.calls.len() {
                let Some(c) = inner.calls[slot].as_mut() else {
                    continue;
                };
                if c.check <= now {
                    match look(c, now) {
                        Some((failure, t)) => {
                            if let Some(rescue) = c.hook.claim(c.seat, c.phase, failure, t) {
                                fired.push(rescue);
                            }
                            inner.calls[slot] = None;
                            inner.free.push(slot);
                            continue;
                        }
                        // Past the deadline, a call kept waiting for a CPU
                        // is looked at again a poll later.
                        None if c.deadline <= now => c.check = now + SILENCE_POLL,
                        None => c.check = c.deadline.min(now + SILENCE_POLL),
                    }
                }
                next = next.min(c.check);
            }
            g.target = next;
            drop(g);
            for rescue in fired {
                // Without a thread to spare, the rescue runs here.
                let rescue = std::sync::Mutex::new(Some(rescue));
                let rescue = Arc::new(rescue);
                let r = Arc::clone(&rescue);
                let spawned = std::thread::Builder::new()
                    .name("episode-rescue".into())
                    .spawn(move || take_and_run(&r));
                if spawned.is_err() {
                    take_and_run(&rescue);
                }
            }
            g = lock(&self.inner);
        }
    }
}

type Rescue = std::sync::Mutex<Option<Box<dyn FnOnce() + Send>>>;

/// Run a rescue once (whichever thread gets it first).
fn take_and_run(r: &Rescue) {
    let f = r.lock().unwrap_or_else(|p| p.into_inner()).take();
    if let Some(f) = f {
        f();
    }
}

/// A phase's hard limit (`end()`: [`END_WAIT`]).
fn hard_of(phase: Option<Phase>, limits: &TimeLimits) -> Duration {
    match phase {
        Some(p) => p.budgets(limits).1,
        None => END_WAIT,
    }
}

/// Whether call `c` is abandoned at `now`: its disqualification and the time
/// charged, as [`crate::play::player::InProcess`] words them.
fn look(c: &Call, now: Instant) -> Option<(Failure, f64)> {
    let hard = hard_of(c.phase, &c.limits);
    let what = c.phase.map_or("end", |p| p.as_str());
    let most = c.deadline.saturating_duration_since(c.start);
    let wall = now.saturating_duration_since(c.start);
    let sched = run_delay::of_own_thread(c.tid);
    let read = sched
        .zip(c.sched_from)
        .map(|((cpu, now_sched), (cpu0, delay0))| {
            let activity = Activity {
                wall,
                cpu: cpu.saturating_sub(cpu0),
                waited: now_sched.waited.saturating_sub(delay0),
            };
            (activity, now_sched.runnable)
        });
    let activity = read.map(|(a, _)| a);
    let message = if now >= c.deadline {
        let runnable = read.is_some_and(|(_, r)| r);
        if !c.limits.hang_reached(hard, wall, activity, runnable) {
            return None;
        }
        let cpu = activity
            .filter(|_| c.limits.clock == Clock::Cpu)
            .map(|a| a.cpu);
        let message = c.limits.no_answer(what, hard, wall, cpu, false, most);
        match activity.filter(|a| c.limits.clock == Clock::Cpu && !a.waited.is_zero()) {
            Some(a) => format!(
                "{message} (besides {} waiting for a CPU)",
                crate::play::judge::human(a.waited)
            ),
            None => message,
        }
    } else {
        let (activity, runnable) = read?;
        if !c.limits.gives_up_on_silence(hard, activity, runnable) {
            return None;
        }
        c.limits
            .no_answer(what, hard, activity.wall, Some(activity.cpu), true, most)
    };
    Some((
        Failure {
            outcome: Outcome::Disqualified,
            detail: format!("{message}; worker thread abandoned"),
        },
        crate::play::timing::ms(wall),
    ))
}
