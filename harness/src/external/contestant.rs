//! [`Subprocess`]: an external agent as a [`Contestant`], one process per game.

use crate::external::protocols::{Protocol, Step};
use crate::external::supervise::early_stop::{AfterSlice, CpuWatch};
use crate::external::supervise::process::{AgentProcess, Received};
use crate::external::ExternalSpec;
use crate::play::outcome::Outcome;
use crate::play::player::{Contestant, Failure, Phase, Reply};
use crate::play::timing::{between, Clock, TimeLimits};
use crate::view::GameView;
use games::{AgentStats, Seat};
use std::marker::PhantomData;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// An external agent, kept alive for one game, driven through its
/// [`Protocol`] (`arena-jsonl/2`, UCI, UCCI).
///
/// The process is started by [`Subprocess::spawn`]; each request writes the
/// protocol's lines and reads lines until the protocol has its answer. Any failure stops the process group at once; a timeout
/// (no answer by the runner's hard deadline) is [`Outcome::Timeout`] and the
/// group is killed. Under [`Clock::Cpu`] the wait ends sooner for an agent
/// that burns CPU without answering: as soon as the process tree's CPU time
/// over the request passes the hard limit, it is [`Outcome::Disqualified`],
/// as the runner judges an answer past the hard limit, so that the verdict
/// does not depend on whether the answer or the look at the CPU time comes
/// first; and for one that is silent, neither running nor waiting for a CPU
/// (a [`Outcome::Timeout`] past the silence limit, see [`CpuWatch`]). The
/// soft budget is judged by the runner from the wall
/// time measured here (and the process tree's CPU time; under
/// [`Clock::Wall`] also its run delay, read in [`Contestant::prepare`]
/// before the request's clock starts and again when the answer arrives).
pub struct Subprocess<G: GameView> {
    process: Option<AgentProcess>,
    broken: Option<Failure>,
    protocol: Box<dyn Protocol<G>>,
    started: Option<Instant>,
    phase: Phase,
    pending: Option<(G, Seat)>,
    /// The process tree's CPU time when the current request started.
    cpu_start: Option<Duration>,
    /// The limits the agent is judged by: under [`Clock::Cpu`], the wait
    /// ends once the CPU time over a request passes its hard limit, or the
    /// agent has been silent past its silence limit.
    limits: TimeLimits,
    /// Its run delay (and the supervisor's) just before the current
    /// request's clock started (when [`Contestant::prepare`] was called;
    /// taken when the answer arrives): under [`Clock::Wall`] what the judge
    /// forgives is measured from it, under [`Clock::Cpu`] the agent's
    /// silence.
    delay_start: Option<Duration>,
    _game: PhantomData<fn() -> G>,
}

impl<G: GameView> Subprocess<G> {
    /// Start the agent of `spec`, speaking `protocol`, judged by `limits`
    /// (their clock, and their hard limits under [`Clock::Cpu`]); its
    /// stderr goes to `log` when given.
    pub fn spawn(
        spec: &ExternalSpec,
        protocol: Box<dyn Protocol<G>>,
        log: Option<PathBuf>,
        limits: TimeLimits,
    ) -> Result<Self, Failure> {
        let process = AgentProcess::spawn(spec, log)?;
        Ok(Subprocess {
            process: Some(process),
            broken: None,
            protocol,
            started: None,
            phase: Phase::Init,
            pending: None,
            cpu_start: None,
            limits,
            delay_start: None,
            _game: PhantomData,
        })
    }

    /// Stop the process (if running) and remember `f` as the agent's state.
    fn fail(&mut self, f: Failure) -> Failure {
        if let Some(p) = self.process.as_mut() {
            p.stop();
        }
        self.broken = Some(f.clone());
        f
    }

    /// The last few KiB of the agent's stderr.
    pub fn stderr_tail(&self) -> String {
        self.process
            .as_ref()
            .map(|p| p.stderr_tail())
            .unwrap_or_default()
    }
}

impl<G: GameView> Contestant<G> for Subprocess<G> {
    fn prepare(&mut self) {
        // Several `/proc` reads per process of the tree: made only where the
        // judge uses them, and before the act's clock starts.
        // Under the wall clock the judge forgives the run delay over the
        // request; under the CPU clock, the wait for an answer ends once
        // the agent has been silent too long (see `CpuWatch`).
        self.delay_start = match (&self.process, &self.broken) {
            (Some(p), None) if self.limits.clock == Clock::Cpu => p.wait_sched().map(|s| s.waited),
            (Some(p), None) => p.run_delay(),
            _ => None,
        };
    }

    fn request(&mut self, phase: Phase, state: &G, seat: Seat, start: Instant, budget: Duration) {
        self.started = Some(start);
        self.phase = phase;
        if self.broken.is_some() {
            return;
        }
        let Some(p) = self.process.as_mut() else {
            return;
        };
        if self.protocol.strict() {
            if let Some(extra) = p.unread_line() {
                let f = Failure {
                    outcome: Outcome::BadOutput,
                    detail: format!(
                        "wrote a line nobody asked for before the {} request: {:?}",
                        phase.as_str(),
                        extra.chars().take(80).collect::<String>()
                    ),
                };
                self.fail(f);
                return;
            }
        }
        self.cpu_start = p.cpu_time();
        let remaining = budget.saturating_sub(start.elapsed());
        for line in self.protocol.request(phase, state, seat, remaining) {
            p.send(&line);
        }
        // Remember the state for parsing the answer.
        self.pending = Some((state.clone(), seat));
    }

    fn wait(&mut self, deadline: Instant) -> Reply<G::Action> {
        let start = self.started.unwrap_or_else(Instant::now);
        let fail = |f: Failure, wall| Reply {
            result: Err(f),
            wall,
            cpu: None,
            waited: None,
            counted: None,
        };
        if let Some(f) = &self.broken {
            return fail(f.clone(), Duration::ZERO);
        }
        if self.process.is_none() {
            return fail(
                Failure {
                    outcome: Outcome::Crash,
                    detail: "no process".into(),
                },
                Duration::ZERO,
            );
        }
        let Some((state, seat)) = self.pending.take() else {
            return fail(
                Failure {
                    outcome: Outcome::Crash,
                    detail: "wait without a request".into(),
                },
                Duration::ZERO,
            );
        };
        // Under the CPU clock, where the tree's CPU time can be read, the
        // wait ends once the CPU time over the request is past its hard
        // limit: the agent has lost on time whether it answers or not.
        let mut watch = CpuWatch::new(
            &self.limits,
            self.phase,
            start,
            self.cpu_start,
            self.delay_start,
            deadline,
        );
        loop {
            let Some(p) = self.process.as_mut() else {
                unreachable!("checked above")
            };
            let until = watch.slice_end();
            let got = p.recv_line(until);
            let mut wall = start.elapsed();
            let line = match got {
                Received::Line(l) => {
                    // The moment the line arrived, not when the runner read it.
                    if let Some(at) = p.last_output_at() {
                        wall = at.saturating_duration_since(start);
                    }
                    l
                }
                Received::Failed(f) => {
                    let f = Failure {
                        outcome: f.outcome,
                        detail: format!("{} (during {})", f.detail, self.phase.as_str()),
                    };
                    return fail(self.fail(f), wall);
                }
                Received::TimedOut => {
                    match watch.after_slice(until, || p.cpu_time(), || p.wait_sched()) {
                        AfterSlice::Wait => continue,
                        AfterSlice::Stop(f) => return fail(self.fail(f), wall),
                    }
                }
            };
            match self.protocol.answer(self.phase, &state, seat, &line) {
                Ok(Step::Done(a)) => {
                    // The process tree's CPU time over the request (read
                    // now, so a little of the time after the answer counts).
                    let cpu = between(self.cpu_start, p.cpu_time());
                    // Read under the wall clock only, when a start was.
                    let waited = self
                        .delay_start
                        .take()
                        .filter(|_| self.limits.clock == Clock::Wall)
                        .and_then(|from| between(Some(from), p.run_delay()));
                    // Under the counted clock (a fixed search, see
                    // `ExternalSpec::countable`): nothing is counted.
                    let counted = (self.limits.clock == Clock::Counted).then_some(Duration::ZERO);
                    return Reply {
                        result: Ok(a),
                        wall,
                        cpu,
                        waited,
                        counted,
                    };
                }
                Ok(Step::Continue(lines)) => {
                    for l in lines {
                        p.send(&l);
                    }
                }
                Err(f) => return fail(self.fail(f), wall),
            }
        }
    }

    fn played(&mut self, state: &G, joint: &[G::Action]) {
        self.protocol.played(state, joint);
    }

    fn end(&mut self, state: &G, seat: Seat) {
        if let Some(p) = self.process.as_mut() {
            if self.broken.is_none() {
                for line in self.protocol.end(state, seat) {
                    p.send(&line);
                }
            }
            // A well-behaved agent exits when its stdin closes; anything left
            // (including children) is stopped with the group.
            p.finish(Duration::from_millis(200));
        }
    }

    fn stats(&mut self) -> AgentStats {
        AgentStats::default()
    }

    fn close(&mut self) {
        if let Some(p) = self.process.as_mut() {
            p.stop();
        }
    }

    fn leaked(&self) -> usize {
        self.process.as_ref().map(|p| p.leaked()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::{ProcessLimits, Sandbox};
    use crate::play::player::Contestant;
    use crate::play::timing::TimeLimits;
    use games::bait::Bait;

    /// An `arena-jsonl/2` agent in `sh`: ready, then `UP` to every line.
    fn up_agent(clock: Clock) -> Subprocess<Bait> {
        let limits = TimeLimits {
            clock,
            ..TimeLimits::default()
        };
        sh_agent(
            r#"read l; echo '{"type":"ready"}'; while read l; do echo '{"action":"UP"}'; done"#,
            limits,
        )
    }

    /// An `arena-jsonl/2` agent: the `sh` script `script`, judged by `limits`.
    fn sh_agent(script: &str, limits: TimeLimits) -> Subprocess<Bait> {
        let spec = ExternalSpec {
            command: vec!["sh".into(), "-c".into(), script.into()],
            protocol: crate::external::Protocol::Jsonl,
            workdir: std::env::temp_dir(),
            sandbox: Sandbox::None,
            limits: ProcessLimits::default(),
            env: Vec::new(),
            writable_workdir: false,
            mounts: Vec::new(),
        };
        let protocol = Box::new(crate::external::protocols::jsonl::Jsonl::new(
            "1",
            TimeLimits::default(),
            0,
            None,
        ));
        Subprocess::spawn(&spec, protocol, None, limits).expect("sh starts")
    }

    /// One request as the runner makes it (prepared first when `prepare`).
    fn ask(
        c: &mut Subprocess<Bait>,
        phase: Phase,
        state: &Bait,
        prepare: bool,
    ) -> Reply<games::bait::BaitAction> {
        if prepare {
            c.prepare();
        }
        let start = Instant::now();
        c.request(phase, state, 0, start, Duration::from_secs(5));
        let r = c.wait(start + Duration::from_secs(10));
        assert!(r.result.is_ok(), "{:?}", r.result);
        r
    }

    #[test]
    fn run_delay_is_read_under_the_wall_clock_only() {
        let state = Bait::level(1).expect("level 1");
        for clock in [Clock::Cpu, Clock::Wall] {
            let mut c = up_agent(clock);
            for phase in [Phase::Init, Phase::Act, Phase::Act] {
                let r = ask(&mut c, phase, &state, true);
                assert_eq!(
                    r.waited.is_some(),
                    clock == Clock::Wall,
                    "{clock:?} {phase:?}: {r:?}"
                );
            }
            // Unprepared, no stale reading stands in for the start.
            let r = ask(&mut c, Phase::Act, &state, false);
            assert_eq!(r.waited, None, "{clock:?} unprepared: {r:?}");
            c.end(&state, 0);
        }
    }

    /// Under the CPU clock, an agent that hangs at its first act: busy
    /// (`busy`) or asleep; the act's hard limit is 200 ms.
    fn hanging_act(busy: bool, deadline: Duration) -> (Reply<games::bait::BaitAction>, Duration) {
        let hang = if busy {
            "while :; do :; done"
        } else {
            "sleep 5"
        };
        let limits = TimeLimits {
            act_hard: Duration::from_millis(200),
            clock: Clock::Cpu,
            ..TimeLimits::default()
        };
        let script = format!(r#"read l; echo '{{"type":"ready"}}'; read l; {hang}"#);
        let mut c = sh_agent(&script, limits);
        let state = Bait::level(1).expect("level 1");
        ask(&mut c, Phase::Init, &state, true);
        c.prepare();
        let start = Instant::now();
        c.request(Phase::Act, &state, 0, start, limits.act);
        let r = c.wait(start + deadline);
        let took = start.elapsed();
        c.close();
        (r, took)
    }

    #[test]
    fn a_busy_hang_is_stopped_once_its_cpu_passes_the_hard_limit() {
        // A deadline far past the hard limit (the runner's is ten times
        // it): at the deadline the outcome would be a timeout. A loaded
        // machine gives the loop its 200 ms of CPU over seconds of wall time.
        let deadline = Duration::from_secs(30);
        let (r, took) = hanging_act(true, deadline);
        let f = r.result.expect_err("no answer");
        assert_eq!(f.outcome, Outcome::Disqualified, "{f:?}");
        // Well before the deadline (about the hard limit on an idle machine).
        assert!(took < deadline / 2, "stopped after {took:?}: {f:?}");
        assert!(
            f.detail.contains("of CPU without answering") && f.detail.contains("200 ms"),
            "{f:?}"
        );
    }

    #[test]
    fn a_sleeping_hang_is_waited_for_until_the_deadline_when_that_comes_first() {
        // Before the silence limit (the hard limit and a second).
        let deadline = Duration::from_millis(300);
        let (r, took) = hanging_act(false, deadline);
        let f = r.result.expect_err("no answer");
        assert_eq!(f.outcome, Outcome::Timeout, "{f:?}");
        assert!(
            f.detail.starts_with("act: no answer after ")
                && f.detail.contains("the limit is 200 ms of CPU time")
                && f.detail.contains("an answer is waited for at most 300 ms"),
            "{f:?}"
        );
        assert!(took >= deadline, "gave up after {took:?}: {f:?}");
    }

    #[test]
    fn a_sleeping_hang_is_given_up_on_once_silent_past_the_hard_limit_and_a_second() {
        // A deadline far past the silence limit (the runner's is ten times
        // the hard limit): the detail says which rule ended the wait.
        let deadline = Duration::from_secs(30);
        let (r, took) = hanging_act(false, deadline);
        let f = r.result.expect_err("no answer");
        assert_eq!(f.outcome, Outcome::Timeout, "{f:?}");
        assert!(
            f.detail.contains(
                "the limit is 200 ms of CPU time, and an agent that neither runs nor waits \
                 for a CPU is waited for at most 1.2 s; process group killed"
            ),
            "{f:?}"
        );
        // At the silence limit, polled every 50 ms (later on a loaded
        // machine), well before the deadline.
        assert!(
            took >= Duration::from_millis(1200) && took < deadline / 2,
            "gave up after {took:?}: {f:?}"
        );
    }
}
