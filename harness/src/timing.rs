//! Clocks: the harness's own monotonic wall clock, per-thread CPU time, and
//! the [`games::Timer`] handed to agents.

use std::time::{Duration, Instant};

/// Which clock judges an agent's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Clock {
    /// Monotonic wall time, measured by the harness (default): an agent that
    /// sleeps or blocks cannot escape it.
    #[default]
    Wall,
    /// CPU time of the agent's thread, GVGAI's own rule. The harness still
    /// stops waiting after a wall-clock safety limit (see
    /// [`crate::config::TimeLimits::hang_limit`]).
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

/// Milliseconds as a float, for tables.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
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
}
