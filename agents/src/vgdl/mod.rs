//! Built-in agents for every VGDL game (GVGAI's games and anyone's own):
//! GVGAI's sample controllers generalised to [`VgdlGame`].
//!
//! - `random`: GVGAI's `sampleRandom`, uniform over the avatar's actions
//!   (`getAvailableActions()`, without NIL), seeded.
//! - `onesteplookahead`: GVGAI's `sampleonesteplookahead`: advance a copy
//!   with each avatar action and keep the one whose successor has the best
//!   [`heuristic::SimpleStateHeuristic`] value, with GVGAI's tie-breaking
//!   noise.
//! - `mcts`: GVGAI's `sampleMCTS` ([`mcts::Mcts`]).
//!
//! Every agent plays any seat of a game of several players: its own
//! avatar's actions (`VgdlGame::player_actions(seat)`), its own player's
//! score and win state. In the forward model the opponent (the next
//! player, GVGAI's `oppID = (id + 1) % n`) plays as GVGAI's two-player
//! samples assume (`tracks.multiPlayer`): for `onesteplookahead` one random
//! action of those that do not lose it the game while this player plays
//! NIL, drawn once per act; for `mcts` a uniformly random action at every
//! tree step, and every player a random one in the rollouts; players other
//! than these two play NIL.
//!
//! The generic `uct` ([`crate::generic`]) plays these games too.

pub mod heuristic;
pub mod mcts;

use crate::params::{check_listed, unknown_agent, AgentError, AgentInfo, AgentParams, ParamInfo};
use games::vgdl::{Action, VgdlGame, Winner};
use games::{Agent, Seat, Timer};
use heuristic::SimpleStateHeuristic;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The built-in VGDL agents.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        description: "uniform over the avatar's actions without NIL (GVGAI's sampleRandom), seeded",
        params: &[],
    },
    AgentInfo {
        name: "onesteplookahead",
        description: "GVGAI's sample: try each action on a copy, keep the best SimpleStateHeuristic value",
        params: &[],
    },
    AgentInfo {
        name: "mcts",
        description: "GVGAI's sampleMCTS: UCT with rollout depth 10, K = sqrt(2), normalised values, most-visited action",
        params: &[
            ParamInfo::new("k", "1.4142135623730951", "exploration constant, sqrt(2)"),
            ParamInfo::new("rollout_depth", "10", "tree plus rollout depth"),
            ParamInfo::new("max_iterations", "0", "per act, 0 = until the time is up"),
        ],
    },
];

/// GVGAI's tie-breaking noise `(v + ε)(1 + ε(r − ½))`, ε = 10⁻⁶.
fn noise(v: f64, r: f64) -> f64 {
    const EPSILON: f64 = 1e-6;
    (v + EPSILON) * (1.0 + EPSILON * (r - 0.5))
}

/// Build the VGDL agent `name` with `params`, seeded with `seed`. Unknown
/// names and parameters are errors that list the valid ones.
pub fn make(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<VgdlGame>>, AgentError> {
    check_listed("vgdl", AGENTS, name, params)?;
    match name {
        "random" => Ok(Box::new(RandomVgdl::new(seed))),
        "onesteplookahead" => Ok(Box::new(OneStepLookahead::new(seed))),
        "mcts" => {
            let k = params.f64(name, "k", std::f64::consts::SQRT_2)?;
            if !k.is_finite() || k < 0.0 {
                return Err(AgentError::BadParam {
                    agent: name.to_string(),
                    key: "k".to_string(),
                    expected: "a number >= 0".to_string(),
                    got: k.to_string(),
                });
            }
            let depth = params.u64(name, "rollout_depth", 10)?.clamp(1, 10_000) as u32;
            let iters = params.u64(name, "max_iterations", 0)?.min(u32::MAX as u64) as u32;
            Ok(Box::new(mcts::Mcts::new(k, depth, iters, seed)))
        }
        _ => Err(unknown_agent("vgdl", name, AGENTS)),
    }
}

/// GVGAI's `sampleRandom`: a uniformly random avatar action (NIL only when
/// the avatar has none), from a seeded RNG.
#[derive(Debug)]
pub struct RandomVgdl {
    rng: ChaCha8Rng,
}

impl RandomVgdl {
    /// A random agent seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomVgdl {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// The joint action in which `seat` plays `mine`, its opponent
/// ([`opponent`]) `theirs` and every other player NIL.
pub(crate) fn joint(players: usize, seat: Seat, mine: Action, theirs: Action) -> Vec<Action> {
    let mut joint = vec![Action::Nil; players.max(1)];
    if let Some(o) = opponent(players, seat) {
        joint[o] = theirs;
    }
    if seat < joint.len() {
        joint[seat] = mine;
    }
    joint
}

/// GVGAI's `oppID`: the player after `seat`, in a game of several players.
pub(crate) fn opponent(players: usize, seat: Seat) -> Option<Seat> {
    (players > 1).then(|| (seat + 1) % players)
}

impl Agent<VgdlGame> for RandomVgdl {
    fn act(&mut self, state: &VgdlGame, seat: Seat, _timer: &dyn Timer) -> Action {
        let actions = state.player_actions(seat);
        if actions.is_empty() {
            return Action::Nil;
        }
        actions[self.rng.gen_range(0..actions.len())]
    }
}

/// GVGAI's `sampleonesteplookahead`: advance a copy with each avatar action
/// and keep the action whose successor has the best
/// [`SimpleStateHeuristic`] value (ties broken by GVGAI's noise).
#[derive(Debug)]
pub struct OneStepLookahead {
    rng: ChaCha8Rng,
}

impl OneStepLookahead {
    /// A one-step-lookahead agent seeded with `seed` (for tie-breaking).
    pub fn new(seed: u64) -> Self {
        OneStepLookahead {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl OneStepLookahead {
    /// GVGAI's `getOppNotLosingAction`: a random action of the opponent
    /// among those that do not lose it the game while `seat` plays NIL
    /// (any of its actions when all do).
    fn opponent_action(&mut self, state: &VgdlGame, seat: Seat) -> Action {
        use games::Game;
        let players = state.num_players();
        let Some(opp) = opponent(players, seat) else {
            return Action::Nil;
        };
        let all = state.player_actions(opp);
        let safe: Vec<Action> = all
            .iter()
            .copied()
            .filter(|&a| {
                let mut next = state.clone();
                next.advance(&joint(players, seat, Action::Nil, a));
                next.state.winner_of(opp) != Winner::Loss
            })
            .collect();
        let pick = if safe.is_empty() { &all } else { &safe };
        if pick.is_empty() {
            return Action::Nil;
        }
        pick[self.rng.gen_range(0..pick.len())]
    }
}

impl Agent<VgdlGame> for OneStepLookahead {
    fn act(&mut self, state: &VgdlGame, seat: Seat, _timer: &dyn Timer) -> Action {
        use games::Game;
        let players = state.num_players();
        let theirs = self.opponent_action(state, seat);
        let heuristic = SimpleStateHeuristic::new(state);
        let mut best = (f64::NEG_INFINITY, Action::Nil);
        for a in state.player_actions(seat) {
            let mut next = state.clone();
            next.advance(&joint(players, seat, a, theirs));
            let q = noise(heuristic.evaluate_for(&next, seat), self.rng.gen::<f64>());
            if q > best.0 {
                best = (q, a);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_2p;
