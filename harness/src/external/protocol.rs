//! The protocol layer: what to write to an agent for each request and how to
//! read its lines. [`Subprocess`](super::Subprocess) drives any [`Protocol`]
//! over the generic supervisor, which only moves lines.

use super::{ExternalSpec, ProtocolKind};
use crate::games::ArenaGame;
use crate::player::{Failure, Phase};
use crate::timing::TimeLimits;
use games::Seat;
use std::time::Duration;

/// What to do after reading one line.
#[derive(Debug)]
pub enum Step<A> {
    /// Keep reading (an info line, a handshake step ...), after sending these lines.
    Continue(Vec<String>),
    /// The request is answered: `None` for init, the action for an act.
    Done(Option<A>),
}

/// One agent's conversation in one game.
pub trait Protocol<G: ArenaGame>: Send {
    /// The lines that start a request (`remaining`: what is left of the soft budget).
    fn request(&mut self, phase: Phase, state: &G, seat: Seat, remaining: Duration) -> Vec<String>;
    /// Read one line of the answer. Errors are the agent's failures
    /// (bad-output, illegal-move).
    fn answer(
        &mut self,
        phase: Phase,
        state: &G,
        seat: Seat,
        line: &str,
    ) -> Result<Step<G::Action>, Failure>;
    /// The lines that end the game (the harness then closes stdin).
    fn end(&mut self, state: &G, seat: Seat) -> Vec<String>;
    /// Whether a line the agent writes when not asked is a protocol error
    /// (`bad-output`); engines' stray `info` lines are tolerated.
    fn strict(&self) -> bool {
        true
    }
}

/// The protocol object for `spec` in a game on `level`.
pub fn make<G: ArenaGame>(
    spec: &ExternalSpec,
    level: &str,
    limits: TimeLimits,
) -> Result<Box<dyn Protocol<G>>, String> {
    match spec.protocol {
        ProtocolKind::Jsonl => Ok(Box::new(super::jsonl::Jsonl {
            level: level.to_string(),
            limits,
        })),
        ProtocolKind::Uci | ProtocolKind::Ucci => {
            super::uci::Uci::new::<G>(spec.protocol, &spec.options).map(|u| Box::new(u) as _)
        }
        ProtocolKind::Botzone => Err(
            "protocol = \"botzone\" is not a line protocol: it is played by external::botzone::BotzoneBot"
                .into(),
        ),
    }
}

/// Whether `protocol` can play game `G` (checked when a config is loaded).
pub fn supports<G: ArenaGame>(protocol: ProtocolKind) -> Result<(), String> {
    match protocol {
        ProtocolKind::Jsonl => Ok(()),
        ProtocolKind::Uci | ProtocolKind::Ucci => {
            if super::uci::is_xiangqi::<G>() {
                Ok(())
            } else {
                Err(format!(
                    "protocol = \"{}\" plays xiangqi only, not {}",
                    protocol.as_str(),
                    G::NAME
                ))
            }
        }
        ProtocolKind::Botzone => {
            if super::botzone::is_snake::<G>() {
                Ok(())
            } else {
                Err(format!(
                    "protocol = \"botzone\" (Botzone's bot protocol) plays snake only, not {}; use \"jsonl\"",
                    G::NAME
                ))
            }
        }
    }
}
