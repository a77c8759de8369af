//! Time measured: clocks (per-thread CPU time, the [`games::Timer`] handed
//! to agents), what may not have been an agent's own time ([`excusals`]:
//! the host's [`steal`], the harness's [`starvation`], agents'
//! [`run_delay`]), and durations as configs and flags write them. The rules
//! that judge these times are [`crate::play::judge`]'s (its limits are
//! re-exported here).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use crate::config::duration::{at_most_max, millis, parse_duration, seconds, MAX_DURATION};
pub use crate::play::judge::{human, ms, Activity, Clock, OnOverrun, TimeLimits, SILENCE_MARGIN};

/// CPU time consumed so far by the calling thread.
pub fn thread_cpu_time() -> Duration {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Spins until the calling thread has used `d` more of CPU time, however
/// loaded the machine (for tests).
#[cfg(test)]
pub(crate) fn spin_cpu(d: Duration) {
    let cpu0 = thread_cpu_time();
    let mut x = 0u64;
    while thread_cpu_time().saturating_sub(cpu0) < d {
        x = x.wrapping_mul(31).wrapping_add(7);
    }
    std::hint::black_box(x);
}

/// The timer an in-process agent reads during one decision. It starts when
/// the harness starts the request (so handing the state over counts against
/// the agent, as in GVGAI) and measures the clock the run is judged by;
/// under [`Clock::Counted`] it is a counter instead: each look
/// (`elapsed()`, `remaining()`, `exceeded()`) advances the agent's time by
/// the step, and [`AgentTimer::counted`] is what the judge is given.
#[derive(Debug)]
pub struct AgentTimer {
    clock: Clock,
    wall_start: Instant,
    cpu_start: Duration,
    budget: Duration,
    step: Duration,
    looks: AtomicU64,
}

impl AgentTimer {
    /// A timer for a decision that started at `wall_start`, on the calling
    /// thread (whose CPU clock is read now for [`Clock::Cpu`]); under
    /// [`Clock::Counted`] each look costs [`crate::config::COUNTED_STEP`].
    pub fn new(clock: Clock, wall_start: Instant, budget: Duration) -> Self {
        Self::with_step(clock, wall_start, budget, crate::config::COUNTED_STEP)
    }

    /// A timer on `limits`' clock (with its counted step), as
    /// [`AgentTimer::new`].
    pub fn of(limits: &TimeLimits, wall_start: Instant, budget: Duration) -> Self {
        Self::with_step(limits.clock, wall_start, budget, limits.counted_step)
    }

    /// [`AgentTimer::of`] with the calling thread's CPU time read by the
    /// caller just now (`cpu_now`, [`thread_cpu_time`]): the caller times
    /// the call from the same reading, one clock read instead of two.
    pub fn of_at(
        limits: &TimeLimits,
        wall_start: Instant,
        budget: Duration,
        cpu_now: Duration,
    ) -> Self {
        let mut t = Self::timer(limits.clock, wall_start, budget, limits.counted_step);
        if limits.clock == Clock::Cpu {
            t.cpu_start = cpu_now;
        }
        t
    }

    fn with_step(clock: Clock, wall_start: Instant, budget: Duration, step: Duration) -> Self {
        let mut t = Self::timer(clock, wall_start, budget, step);
        if clock == Clock::Cpu {
            t.cpu_start = thread_cpu_time();
        }
        t
    }

    /// A timer with no CPU reading yet.
    fn timer(clock: Clock, wall_start: Instant, budget: Duration, step: Duration) -> Self {
        AgentTimer {
            clock,
            wall_start,
            cpu_start: Duration::ZERO,
            budget,
            step,
            looks: AtomicU64::new(0),
        }
    }

    /// Under [`Clock::Counted`], the agent's time so far: its looks times
    /// the step; `None` under the other clocks.
    pub fn counted(&self) -> Option<Duration> {
        (self.clock == Clock::Counted).then(|| steps(self.step, self.looks.load(Ordering::Relaxed)))
    }
}

/// `n` steps of `step`, saturating.
fn steps(step: Duration, n: u64) -> Duration {
    step.checked_mul(u32::try_from(n).unwrap_or(u32::MAX))
        .unwrap_or(Duration::MAX)
}

impl games::Timer for AgentTimer {
    fn elapsed(&self) -> Duration {
        match self.clock {
            Clock::Wall => self.wall_start.elapsed(),
            Clock::Cpu => thread_cpu_time().saturating_sub(self.cpu_start),
            Clock::Counted => steps(self.step, self.looks.fetch_add(1, Ordering::Relaxed) + 1),
        }
    }
    fn budget(&self) -> Duration {
        self.budget
    }
}

/// A bounded log of time spans, each with an amount of time lost in it
/// (the probe's lateness, or steal between two readings), shared between
/// the latency probe that writes it and the judge that reads it.
struct Spans {
    keep: usize,
    log: std::sync::Mutex<std::collections::VecDeque<(Instant, Instant, Duration)>>,
}

impl Spans {
    /// An empty log that keeps the last `keep` spans.
    const fn new(keep: usize) -> Spans {
        Spans {
            keep,
            log: std::sync::Mutex::new(std::collections::VecDeque::new()),
        }
    }

    /// Keep `lost`, lost between `from` and `to`.
    fn record(&self, from: Instant, to: Instant, lost: Duration) {
        let mut s = self.log.lock().unwrap_or_else(|p| p.into_inner());
        if s.len() == self.keep {
            s.pop_front();
        }
        s.push_back((from, to, lost));
    }

    /// The time lost in the spans that overlap `from..to`.
    fn during(&self, from: Instant, to: Instant) -> Duration {
        let s = self.log.lock().unwrap_or_else(|p| p.into_inner());
        s.iter()
            .filter(|(a, b, _)| *a < to && *b > from)
            .map(|(_, _, d)| *d)
            .sum()
    }
}

pub mod run_delay;

/// The harness's own scheduling-latency probe: a thread that sleeps 1 ms
/// at a time and records how late it wakes. When the probe is late, every
/// thread of the harness may have been: an act judged by the wall clock
/// during such a spike is not charged for it.
pub mod starvation {
    use super::Spans;
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    /// The probe's late wake-ups, the last 8,192: each from when it should
    /// have woken to when it did.
    static LATE: Spans = Spans::new(8192);
    /// The probe's sleep.
    const TICK: Duration = Duration::from_millis(1);
    /// Lateness below this is scheduling noise, not starvation.
    const NOISE: Duration = Duration::from_millis(2);

    /// Start the probe (once per process; later calls do nothing).
    pub fn start() {
        static STARTED: OnceLock<()> = OnceLock::new();
        STARTED.get_or_init(|| {
            let _ = std::thread::Builder::new()
                .name("arena-latency-probe".into())
                .spawn(|| {
                    let mut steal = super::steal::Sampler::new();
                    for wake in 0u64.. {
                        let t = Instant::now();
                        std::thread::sleep(TICK);
                        let now = Instant::now();
                        let late = now.saturating_duration_since(t).saturating_sub(TICK);
                        if late >= NOISE {
                            if let Some(due) = now.checked_sub(late) {
                                LATE.record(due, now, late);
                            }
                        }
                        if wake % super::steal::EVERY == 0 {
                            steal.sample(now);
                        }
                    }
                });
        });
    }

    /// How long the harness was starved between `from` and `to`: the sum
    /// of the probe's lateness over wake-ups in that window (zero when the
    /// probe is not running).
    pub fn during(from: Instant, to: Instant) -> Duration {
        LATE.during(from, to)
    }
}

/// CPU time the host of a virtual machine took from it: the `steal`
/// column of `/proc/stat`. On a VM the guest's CPU clocks run on while
/// the host has stopped a virtual CPU, so the thread that was running is
/// charged for time it never had (measured on this project's 2-core VMs: a
/// thread's CPU clock jumped 23 ms in one read, with 20 ms of steal). An
/// act past its budget by no more than the steal meanwhile is not charged
/// (see [`crate::play::judge::excused`]). Steal is time the host gave to others: an agent
/// cannot turn its own work into steal, and what is forgiven is the most
/// that any one CPU lost, at most the agent's own CPU time meanwhile (a
/// sleeping agent's time is not stolen).
pub mod steal {
    use super::Spans;
    use std::time::{Duration, Instant};

    /// The latency probe reads the steal every this many wake-ups (about
    /// 10 ms; a read of `/proc/stat` costs about 15 µs).
    pub(super) const EVERY: u64 = 10;
    /// The readings between which some CPU lost time, the last 4,096:
    /// from one reading to the next, the most any one CPU lost.
    static STOLEN: Spans = Spans::new(4096);

    /// Each CPU's steal so far, from `/proc/stat` (empty where there is
    /// none to read).
    pub fn per_cpu() -> Vec<Duration> {
        std::fs::read_to_string("/proc/stat")
            .map(|s| parse(&s))
            .unwrap_or_default()
    }

    /// The steal of each CPU in `/proc/stat`'s text: the eighth number of
    /// each `cpuN` line, in clock ticks (`USER_HZ`, 100 per second on
    /// Linux).
    pub(crate) fn parse(stat: &str) -> Vec<Duration> {
        stat.lines()
            .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
            .map_while(|l| {
                let ticks: u64 = l.split_ascii_whitespace().nth(8)?.parse().ok()?;
                Some(Duration::from_millis(ticks.saturating_mul(10)))
            })
            .collect()
    }

    /// The probe's reader: the last reading and when it was taken.
    pub(super) struct Sampler {
        last: Option<(Instant, Vec<Duration>)>,
    }

    impl Sampler {
        pub(super) fn new() -> Sampler {
            Sampler { last: None }
        }

        /// Read the steal at `now` and keep the most any one CPU lost
        /// since the last reading.
        pub(super) fn sample(&mut self, now: Instant) {
            let cpus = per_cpu();
            if let Some((at, before)) = &self.last {
                let most = cpus
                    .iter()
                    .zip(before)
                    .map(|(a, b)| a.saturating_sub(*b))
                    .max()
                    .unwrap_or_default();
                if most > Duration::ZERO {
                    record(*at, now, most);
                }
            }
            self.last = Some((now, cpus));
        }
    }

    /// Keep `stolen`, taken between the readings at `from` and `to`.
    pub(crate) fn record(from: Instant, to: Instant, stolen: Duration) {
        STOLEN.record(from, to, stolen);
    }

    /// The steal between two readings that overlap `from..to` (zero when
    /// the probe is not running or there is no steal to read). Readings
    /// are about 10 ms apart, so steal up to that far outside the window
    /// may be counted too.
    pub fn during(from: Instant, to: Instant) -> Duration {
        STOLEN.during(from, to)
    }
}

/// How far a cumulative clock (CPU time, run delay) went on between two
/// readings, where both could be read.
pub fn between(from: Option<Duration>, to: Option<Duration>) -> Option<Duration> {
    from.zip(to).map(|(a, b)| b.saturating_sub(a))
}

/// What may not have been an agent's own time between `from` and `to`,
/// as the harness's probe measured it: the host's steal ([`steal`]) and the
/// harness's starvation ([`starvation`]). The judge decides how much of it
/// is forgiven ([`crate::play::judge::excused`]).
pub fn excusals(from: Instant, to: Instant) -> crate::play::judge::Excusals {
    crate::play::judge::Excusals {
        steal: steal::during(from, to),
        starvation: starvation::during(from, to),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Timer;

    #[test]
    fn cpu_clock_ignores_sleep_wall_clock_does_not() {
        let start = Instant::now();
        let wall = AgentTimer::new(Clock::Wall, start, Duration::from_millis(5));
        let cpu = AgentTimer::new(Clock::Cpu, start, Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(20));
        assert!(wall.exceeded());
        assert!(!cpu.exceeded(), "sleeping used {:?} of CPU", cpu.elapsed());
    }

    #[test]
    fn the_counted_timer_counts_looks_not_time() {
        let limits = TimeLimits {
            clock: Clock::Counted,
            counted_step: Duration::from_micros(20),
            ..TimeLimits::default()
        };
        let t = AgentTimer::of(&limits, Instant::now(), Duration::from_micros(100));
        assert_eq!(t.counted(), Some(Duration::ZERO));
        std::thread::sleep(Duration::from_millis(5));
        // Every look costs one step, whatever it asks.
        assert_eq!(t.elapsed(), Duration::from_micros(20));
        assert_eq!(
            t.remaining(),
            Duration::from_micros(60),
            "the second look, at 40 us"
        );
        assert!(!t.exceeded(), "60 us");
        assert_eq!(t.budget(), Duration::from_micros(100), "not a look");
        assert!(!t.exceeded(), "80 us");
        assert!(t.exceeded(), "100 us");
        assert_eq!(t.counted(), Some(Duration::from_micros(100)));
        // The other clocks count nothing.
        let cpu = AgentTimer::of(
            &TimeLimits::default(),
            Instant::now(),
            Duration::from_micros(100),
        );
        let _ = cpu.elapsed();
        assert_eq!(cpu.counted(), None);
    }

    #[test]
    fn a_span_counts_for_the_windows_it_overlaps_only() {
        let ms = Duration::from_millis;
        let log = Spans::new(2);
        let t = Instant::now();
        log.record(t + ms(10), t + ms(20), ms(5));
        log.record(t + ms(30), t + ms(40), ms(7));
        assert_eq!(log.during(t, t + ms(50)), ms(12));
        assert_eq!(log.during(t + ms(15), t + ms(35)), ms(12));
        // Touching is not overlapping: before the act started or after it
        // ended is not its.
        assert_eq!(log.during(t, t + ms(10)), Duration::ZERO);
        assert_eq!(log.during(t + ms(20), t + ms(30)), Duration::ZERO);
        assert_eq!(log.during(t + ms(21), t + ms(50)), ms(7));
        // Only the last `keep` spans are kept.
        log.record(t + ms(60), t + ms(70), ms(1));
        assert_eq!(log.during(t, t + ms(100)), ms(8));
    }

    #[test]
    fn steal_is_read_from_the_cpu_line_of_proc_stat() {
        let stat = "cpu  7232161 6915 404582 2253902 10553 0 2114 1168 0 0\n\
                    cpu0 3602088 3228 196450 1150214 2525 0 284 574 0 0\n\
                    cpu1 3630073 3686 208132 1103688 8028 0 1829 594 0 0\n\
                    intr 1 2 3\n";
        let ms = Duration::from_millis;
        assert_eq!(steal::parse(stat), vec![ms(5_740), ms(5_940)]);
        assert!(steal::parse("cpu 1 2 3\nintr 1 2 3\n").is_empty());
        assert!(steal::parse("cpu0 1 2 3\n").is_empty(), "no steal column");
        // This machine's own, one per CPU, growing or not.
        let a = steal::per_cpu();
        assert!(!a.is_empty(), "/proc/stat has cpuN lines with steal");
        let b = steal::per_cpu();
        assert!(a.iter().zip(&b).all(|(a, b)| b >= a));
    }
}
