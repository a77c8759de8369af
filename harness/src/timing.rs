//! Time: the limits an agent plays under ([`TimeLimits`], durations as
//! configs and flags write them), and clocks: the harness's own monotonic wall clock, per-thread CPU time, and
//! the [`games::Timer`] handed to agents.

use std::time::{Duration, Instant};

/// Which clock judges an agent's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Clock {
    /// Monotonic wall time, measured by the harness: an agent that sleeps or
    /// blocks cannot escape it, but a busy machine can push an agent past
    /// its budget (acts during which the harness itself was starved are
    /// forgiven, see [`starvation`], as much of it as fell on the agent:
    /// its threads' time waiting for a CPU, see [`run_delay`]).
    Wall,
    /// The agent's own CPU time (default), GVGAI's rule: its thread's for a
    /// built-in agent, its process tree's for a subprocess. A verdict does
    /// not depend on the machine's load. The harness still stops waiting
    /// after a wall-clock safety limit (see [`TimeLimits::hang_limit`]),
    /// and sooner for an agent that neither runs nor waits for a CPU (see
    /// [`TimeLimits::gives_up_on_silence`]).
    #[default]
    Cpu,
}

impl Clock {
    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }
}

/// CPU time consumed so far by the calling thread.
pub fn thread_cpu_time() -> Duration {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The timer an in-process agent reads during one decision. It starts when
/// the harness starts the request (so handing the state over counts against
/// the agent, as in GVGAI) and measures the clock the run is judged by.
#[derive(Clone, Copy, Debug)]
pub struct AgentTimer {
    clock: Clock,
    wall_start: Instant,
    cpu_start: Duration,
    budget: Duration,
}

impl AgentTimer {
    /// A timer for a decision that started at `wall_start`, on the calling
    /// thread (whose CPU clock is read now for [`Clock::Cpu`]).
    pub fn new(clock: Clock, wall_start: Instant, budget: Duration) -> Self {
        AgentTimer {
            clock,
            wall_start,
            cpu_start: if clock == Clock::Cpu {
                thread_cpu_time()
            } else {
                Duration::ZERO
            },
            budget,
        }
    }
}

impl games::Timer for AgentTimer {
    fn elapsed(&self) -> Duration {
        match self.clock {
            Clock::Wall => self.wall_start.elapsed(),
            Clock::Cpu => thread_cpu_time().saturating_sub(self.cpu_start),
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

    /// Keep a late wake-up: due at `from`, woken at `to` (for tests).
    #[cfg(test)]
    pub(crate) fn record(from: Instant, to: Instant) {
        LATE.record(from, to, to.saturating_duration_since(from));
    }
}

/// CPU time the host of a virtual machine took from it: the `steal`
/// column of `/proc/stat`. On a VM the guest's CPU clocks run on while
/// the host has stopped a virtual CPU, so the thread that was running is
/// charged for time it never had (measured on this project's 2-core VMs: a
/// thread's CPU clock jumped 23 ms in one read, with 20 ms of steal). An
/// act past its budget by no more than the steal meanwhile is not charged
/// (see `runner::judge`). Steal is time the host gave to others: an agent
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

/// Milliseconds as a float, for tables.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
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
}

/// What an act past its soft budget (but within the hard limit) costs
/// (config key `on_overrun` in `[time]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OnOverrun {
    /// GVGAI's rule: the game's fallback action is played instead, and an
    /// overrun is counted (default).
    #[default]
    Fallback,
    /// The engine-match rule: the agent loses on time (`time-forfeit`).
    Loss,
}

impl OnOverrun {
    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            OnOverrun::Fallback => "fallback",
            OnOverrun::Loss => "loss",
        }
    }
}

impl Default for TimeLimits {
    fn default() -> Self {
        TimeLimits {
            act: Duration::from_millis(40),
            act_hard: Duration::from_millis(50),
            init: Duration::from_secs(1),
            init_hard: Duration::from_millis(1250),
            clock: Clock::Cpu,
            on_overrun: OnOverrun::Fallback,
        }
    }
}

impl TimeLimits {
    /// How long the harness waits for an answer in wall time before giving up
    /// on the agent: under the wall clock twice the hard limit (the load
    /// that fell on the agent is not charged, see `runner::judge`, so an
    /// agent kept waiting for a CPU may answer past the hard limit and be
    /// within it); under the CPU clock (which a sleeping agent does not
    /// consume) ten times the hard limit, at least one second. Under the
    /// CPU clock an agent that is silent, neither running nor waiting for a
    /// CPU, is given up on sooner ([`TimeLimits::silence_limit`]).
    pub fn hang_limit(&self, hard: Duration) -> Duration {
        match self.clock {
            Clock::Wall => hard * 2,
            Clock::Cpu => (hard * 10).max(Duration::from_secs(1)),
        }
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
        }
    }
}

/// Under the CPU clock, the silent wall time an agent is allowed beyond a
/// request's hard limit (see [`TimeLimits::silence_limit`]): room for
/// start-up, page faults and reads from disk, which are neither CPU time
/// nor waiting for a CPU.
pub const SILENCE_MARGIN: Duration = Duration::from_secs(1);

/// What an agent did with the wall time of one request so far, as the
/// harness reads it: the wall time since the request's clock started, and
/// over it the CPU time and the run delay (time ready to run but waiting
/// for a CPU, see [`run_delay`]) of the agent's threads.
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

/// The longest duration [`parse_duration`] accepts: a week. Longer ones are
/// surely a typo, and deadlines computed from them (`Instant` + duration,
/// ten times a hard limit) must not overflow.
pub const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

/// Parse a human duration such as `40ms`, `1s`, `2m`, `1.5s` (at most
/// [`MAX_DURATION`]).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let plain_seconds = t
        .strip_suffix('s')
        .filter(|s| !s.ends_with('m') && !s.ends_with('u') && !s.ends_with('n'))
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|v| *v >= 0.0 && v.is_finite());
    let d = match plain_seconds {
        // Out of `Duration`'s range: caught by the maximum below.
        Some(v) => Duration::try_from_secs_f64(v).unwrap_or(Duration::MAX),
        None => humantime::parse_duration(t)
            .map_err(|e| format!("`{t}` is not a duration like 40ms, 1s, 1.5s, 2m: {e}"))?,
    };
    at_most_max(d, &format!("`{t}`"))
}

/// A number of milliseconds (a config may give `act = 40` or `40.5`) as a
/// duration of at most [`MAX_DURATION`].
pub fn millis(ms: f64) -> Result<Duration, String> {
    if ms < 0.0 || !ms.is_finite() {
        return Err(format!("{ms} ms is not a duration of 0 ms or more"));
    }
    let d = Duration::try_from_secs_f64(ms / 1000.0).unwrap_or(Duration::MAX);
    at_most_max(d, &format!("{ms} ms"))
}

/// A number of seconds given on the command line (`--seconds 2`, `0.5`):
/// finite, 0 or more, and at most [`MAX_DURATION`].
pub fn seconds(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let v = t
        .parse::<f64>()
        .ok()
        .filter(|v| *v >= 0.0 && v.is_finite())
        .ok_or_else(|| format!("`{t}` is not a number of seconds of 0 or more, like 1 or 0.5"))?;
    let d = Duration::try_from_secs_f64(v).unwrap_or(Duration::MAX);
    at_most_max(d, &format!("{t} s")).map(|d| d.as_secs_f64())
}

/// `d` if it is at most [`MAX_DURATION`]; else an error that shows it as
/// `shown`.
pub fn at_most_max(d: Duration, shown: &str) -> Result<Duration, String> {
    if d > MAX_DURATION {
        return Err(format!(
            "{shown} is longer than the longest duration arena accepts, 7 days (e.g. 40ms, 1s, 2m, 1h)"
        ));
    }
    Ok(d)
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
    fn a_silent_agent_is_given_up_on_after_the_hard_limit_and_a_second() {
        let ms = Duration::from_millis;
        let cpu = TimeLimits {
            act_hard: ms(500),
            ..TimeLimits::default()
        };
        let wall = TimeLimits {
            clock: Clock::Wall,
            ..cpu
        };
        let hard = cpu.act_hard;
        assert_eq!(cpu.silence_limit(hard), ms(1500));
        assert_eq!(cpu.hang_limit(hard), ms(5000));
        let act = |wall_ms, cpu_ms, waited_ms| Activity {
            wall: ms(wall_ms),
            cpu: ms(cpu_ms),
            waited: ms(waited_ms),
        };
        // Asleep for 1.6 s (10 ms of CPU, 20 ms waiting for one): silent
        // 1.57 s, past 1.5 s.
        assert_eq!(act(1600, 10, 20).silent(), ms(1570));
        assert!(cpu.gives_up_on_silence(hard, act(1600, 10, 20), false));
        // Not yet: silent 1.47 s.
        assert!(!cpu.gives_up_on_silence(hard, act(1500, 10, 20), false));
        // Computing on a loaded machine: 400 ms of CPU and 4 s waiting for
        // a CPU in 4.45 s of wall time: silent 50 ms, waited for.
        assert!(!cpu.gives_up_on_silence(hard, act(4450, 400, 4000), false));
        // Runnable now, its latest wait not yet in its run delay: waited for.
        assert!(!cpu.gives_up_on_silence(hard, act(3000, 10, 20), true));
        // Threads that ran side by side: never a negative silence.
        assert_eq!(act(1000, 1500, 700).silent(), Duration::ZERO);
        // The wall clock judges sleeping itself: no silence rule.
        assert!(!wall.gives_up_on_silence(hard, act(9000, 0, 0), false));
        // Init's own hard limit.
        assert_eq!(cpu.silence_limit(cpu.init_hard), ms(2250));
    }

    #[test]
    fn a_missing_answer_says_what_was_measured_and_which_limit_applied() {
        let ms = Duration::from_millis;
        let cpu = TimeLimits {
            act_hard: ms(500),
            ..TimeLimits::default()
        };
        let hard = cpu.act_hard;
        assert_eq!(
            cpu.no_answer("act", hard, ms(1523), Some(ms(0)), true, ms(5000)),
            "act: no answer after 1.52 s of wall time while using 0 ms of CPU; the limit is \
             500 ms of CPU time, and an agent that neither runs nor waits for a CPU is waited \
             for at most 1.5 s"
        );
        assert_eq!(
            cpu.no_answer("act", hard, ms(5000), None, false, ms(5000)),
            "act: no answer after 5.0 s of wall time (its CPU time could not be read); the \
             limit is 500 ms of CPU time, and an answer is waited for at most 5.0 s"
        );
        let wall = TimeLimits {
            clock: Clock::Wall,
            ..cpu
        };
        assert_eq!(
            wall.no_answer("init", ms(1250), ms(2501), None, false, ms(2500)),
            "init: no answer after 2.5 s of wall time; the limit is 1.25 s of wall time, and an \
             answer is waited for at most 2.5 s"
        );
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

    #[test]
    fn durations_in_human_form() {
        assert_eq!(parse_duration("40ms").unwrap(), Duration::from_millis(40));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("fast").is_err());
        assert_eq!(parse_duration("7days").unwrap(), MAX_DURATION);
        // Found by the config_toml fuzz target: a number of seconds too big
        // for a Duration panicked (Duration::from_secs_f64).
        let e = parse_duration("888888888888888888888888888880s").unwrap_err();
        assert!(e.contains("7 days"), "{e}");
        assert!(parse_duration("1e300s").is_err());
        assert!(parse_duration("604801s").is_err());
        assert!(parse_duration("100000years").is_err());
        assert_eq!(millis(40.0).unwrap(), Duration::from_millis(40));
        assert!(millis(1e300).is_err() && millis(-1.0).is_err() && millis(f64::NAN).is_err());
        assert!(millis(u64::MAX as f64).unwrap_err().contains("7 days"));
        // `arena bench --seconds`: a huge or infinite number panicked in
        // the benches' Duration::from_secs_f64.
        assert_eq!(seconds("0.5").unwrap(), 0.5);
        assert!(seconds("1e300").unwrap_err().contains("7 days"));
        assert!(seconds("inf").is_err() && seconds("-1").is_err() && seconds("NaN").is_err());
        assert!(seconds("fast").is_err());
    }
}
