//! The protocol layer: what to write to an agent for each request and how to
//! read its lines. [`Subprocess`](crate::external::Subprocess) drives any [`Protocol`]
//! over the generic supervisor, which only moves lines.

pub mod botzone;
pub mod jsonl;
pub mod uci;

use crate::play::player::{Failure, Phase};
use crate::view::GameView;
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
pub trait Protocol<G: GameView>: Send {
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
    /// The joint action `joint` is played in `state` (see
    /// [`crate::play::player::Contestant::played`]); nothing is written now.
    /// Default: nothing.
    fn played(&mut self, state: &G, joint: &[G::Action]) {
        let _ = (state, joint);
    }
    /// The lines that end the game (the harness then closes stdin).
    fn end(&mut self, state: &G, seat: Seat) -> Vec<String>;
    /// Whether a line the agent writes when not asked is a protocol error
    /// (`bad-output`); engines' stray `info` lines are tolerated.
    fn strict(&self) -> bool {
        true
    }
}
