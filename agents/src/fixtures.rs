//! Misbehaving agents for testing the harness (and for instructors checking
//! time limits on their own machine). They work with every game and are
//! named `fixture-*` in configs; `arena list` does not show them.
//!
//! - `fixture-sleep` (`ms`, default 45): sleeps `ms` milliseconds in every
//!   act, then plays the game's first legal action.
//! - `fixture-init-sleep` (`ms`, default 1100): sleeps in init, then plays
//!   like `fixture-sleep` with `ms = 0`.
//! - `fixture-panic` (`at`, default 0): panics in act number `at` (0-based).
//! - `fixture-hang`: never returns from its first act (sleeps in a loop, so
//!   it uses no CPU while the harness abandons it).
//! - `fixture-busy` (`ms`, default 30): works (busy-waits) until its timer
//!   shows `ms` milliseconds used, then plays the first legal action: an
//!   agent that spends a fixed share of its budget, for measuring how often
//!   a busy machine pushes such an agent past its limits.
//!
//! These agents sleep: that is their purpose, and the only place in the
//! project where sleeping stands in for work.

use crate::params::{check_listed, unknown_agent, AgentError, AgentInfo, AgentParams, ParamInfo};
use games::{Agent, Game, Seat, Timer};
use std::time::Duration;

/// The fixture agents.
pub const FIXTURES: &[AgentInfo] = &[
    AgentInfo {
        name: "fixture-sleep",
        description: "sleeps `ms` in every act, then plays the first legal action",
        params: &[ParamInfo::new("ms", "45", "milliseconds to sleep per act")],
    },
    AgentInfo {
        name: "fixture-init-sleep",
        description: "sleeps `ms` in init, then plays the first legal action at once",
        params: &[ParamInfo::new(
            "ms",
            "1100",
            "milliseconds to sleep in init",
        )],
    },
    AgentInfo {
        name: "fixture-panic",
        description: "panics in act number `at`",
        params: &[ParamInfo::new("at", "0", "0-based act that panics")],
    },
    AgentInfo {
        name: "fixture-busy",
        description:
            "busy-waits until its timer shows `ms` used, then plays the first legal action",
        params: &[ParamInfo::new(
            "ms",
            "30",
            "milliseconds of the judging clock to spend per act",
        )],
    },
    AgentInfo {
        name: "fixture-hang",
        description: "never returns from its first act",
        params: &[],
    },
];

/// Whether `name` names a fixture agent.
pub fn is_fixture(name: &str) -> bool {
    name.starts_with("fixture-")
}

/// Build fixture agent `name` for any game.
pub fn make<G: Game>(name: &str, params: &AgentParams) -> Result<Box<dyn Agent<G>>, AgentError> {
    check_listed("fixtures", FIXTURES, name, params)?;
    match name {
        "fixture-sleep" => Ok(Box::new(Misbehave::Sleep {
            act: Duration::from_millis(params.u64(name, "ms", 45)?),
        })),
        "fixture-init-sleep" => Ok(Box::new(Misbehave::InitSleep {
            init: Duration::from_millis(params.u64(name, "ms", 1100)?),
        })),
        "fixture-panic" => Ok(Box::new(Misbehave::Panic {
            at: params.u64(name, "at", 0)?,
            acts: 0,
        })),
        "fixture-busy" => Ok(Box::new(Misbehave::Busy {
            act: Duration::from_millis(params.u64(name, "ms", 30)?),
        })),
        "fixture-hang" => Ok(Box::new(Misbehave::Hang)),
        _ => Err(unknown_agent("fixtures", name, FIXTURES)),
    }
}

/// The fixture behaviours.
#[derive(Debug)]
pub enum Misbehave {
    /// Sleep in every act.
    Sleep {
        /// How long.
        act: Duration,
    },
    /// Sleep in init.
    InitSleep {
        /// How long.
        init: Duration,
    },
    /// Panic in act number `at`.
    Panic {
        /// Which act.
        at: u64,
        /// Acts so far.
        acts: u64,
    },
    /// Busy-wait in every act until the timer shows this much used.
    Busy {
        /// How long, on the judging clock.
        act: Duration,
    },
    /// Never return.
    Hang,
}

fn first_legal<G: Game>(state: &G, seat: Seat) -> G::Action {
    state
        .legal_actions_vec(seat)
        .first()
        .copied()
        .unwrap_or_else(|| state.fallback_action(seat))
}

impl<G: Game> Agent<G> for Misbehave {
    fn init(&mut self, _state: &G, _seat: Seat, _timer: &dyn Timer) {
        if let Misbehave::InitSleep { init } = self {
            std::thread::sleep(*init);
        }
    }

    fn act(&mut self, state: &G, seat: Seat, timer: &dyn Timer) -> G::Action {
        match self {
            Misbehave::Sleep { act } => std::thread::sleep(*act),
            Misbehave::Busy { act } => {
                let mut spin = 0u64;
                while timer.elapsed() < *act {
                    spin = std::hint::black_box(spin.wrapping_add(1));
                }
            }
            Misbehave::InitSleep { .. } => {}
            Misbehave::Panic { at, acts } => {
                if *acts == *at {
                    panic!("fixture-panic: deliberate panic in act {at}");
                }
                *acts += 1;
            }
            Misbehave::Hang => loop {
                std::thread::sleep(Duration::from_millis(20));
            },
        }
        first_legal(state, seat)
    }
}
