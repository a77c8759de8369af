//! [`Subprocess`]: an external agent as a [`Contestant`], one process per game.

use super::process::{AgentProcess, Received};
use super::protocol::{Protocol, Step};
use super::ExternalSpec;
use crate::outcome::Outcome;
use crate::player::{Contestant, Failure, Phase, Reply};
use crate::timing::{between, ms};
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
/// group is killed. The soft budget is judged by the runner from the wall
/// time measured here.
pub struct Subprocess<G: GameView> {
    process: Option<AgentProcess>,
    broken: Option<Failure>,
    protocol: Box<dyn Protocol<G>>,
    started: Option<Instant>,
    phase: Phase,
    pending: Option<(G, Seat)>,
    /// The process tree's CPU time when the current request started.
    cpu_start: Option<Duration>,
    /// Its run delay (and the supervisor's) then.
    delay_start: Option<Duration>,
    _game: PhantomData<fn() -> G>,
}

impl<G: GameView> Subprocess<G> {
    /// Start the agent of `spec`, speaking `protocol`; its stderr goes to
    /// `log` when given.
    pub fn spawn(
        spec: &ExternalSpec,
        protocol: Box<dyn Protocol<G>>,
        log: Option<PathBuf>,
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
        self.delay_start = p.run_delay();
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
        loop {
            let Some(p) = self.process.as_mut() else {
                unreachable!("checked above")
            };
            let got = p.recv_line(deadline);
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
                    let f = Failure {
                        outcome: Outcome::Timeout,
                        detail: format!(
                            "{} gave no answer within {:.1} ms, past the hard limit; process group killed",
                            self.phase.as_str(),
                            ms(wall)
                        ),
                    };
                    return fail(self.fail(f), wall);
                }
            };
            match self.protocol.answer(self.phase, &state, seat, &line) {
                Ok(Step::Done(a)) => {
                    // The process tree's CPU time over the request (read
                    // now, so a little of the time after the answer counts).
                    let cpu = between(self.cpu_start, p.cpu_time());
                    let waited = between(self.delay_start, p.run_delay());
                    return Reply {
                        result: Ok(a),
                        wall,
                        cpu,
                        waited,
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
