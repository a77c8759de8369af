//! Generic baselines: agents that play *any* [`games::Game`] through the
//! trait alone, with no game-specific code, so that a newly added game has
//! opponents at once.
//!
//! - `random`: uniform over the seat's legal actions, from a seeded RNG
//!   ([`RandomAgent`]).
//! - `uct`: Monte Carlo tree search with random playouts ([`uct::Uct`]):
//!   plain UCT where one seat is active (puzzles, alternating games),
//!   decoupled UCT where several are (simultaneous games such as Snake).
//!
//! The registry ([`AGENTS`], [`make`]) has the shape of the per-game ones.
//! A game's own agent of the same name takes precedence over a generic one
//! (Bait's, Snake's and Xiangqi's `random` are this [`RandomAgent`] anyway).

pub mod uct;

use crate::params::{check_listed, unknown_agent, AgentError, AgentInfo, AgentParams, ParamInfo};
use games::{Agent, Game, Seat, Timer};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use uct::{Uct, UctConfig};

/// The generic agents.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        description: "uniform over the legal actions, seeded (works with every game)",
        params: &[],
    },
    AgentInfo {
        name: "uct",
        description: "Monte Carlo tree search with random playouts for every game: UCT where one seat moves, decoupled UCT where seats move together",
        params: &[
            ParamInfo::new("c", "1.0", "UCB1 exploration constant, values in [0, 1]"),
            ParamInfo::new("rollout_depth", "20", "random actions per playout before the score fallback"),
            ParamInfo::new("iterations", "0", "per act; 0 = until the time is up, or 10000 under a timer without a budget"),
            ParamInfo::new("max_nodes", "200000", "tree nodes per act, each about 40 bytes plus 24 per legal action; past it the tree stops growing"),
            ParamInfo::new("score_scale", "10", "score difference that the depth-cap fallback squashes by tanh"),
        ],
    },
];

fn bad(agent: &str, key: &str, expected: &str, got: impl ToString) -> AgentError {
    AgentError::BadParam {
        agent: agent.to_string(),
        key: key.to_string(),
        expected: expected.to_string(),
        got: got.to_string(),
    }
}

/// Read `uct`'s parameters (see [`AGENTS`]) into a [`UctConfig`].
pub fn uct_config(params: &AgentParams) -> Result<UctConfig, AgentError> {
    let name = "uct";
    check_listed("generic agents", AGENTS, name, params)?;
    let d = UctConfig::default();
    let c = params.f64(name, "c", d.c)?;
    if !(c.is_finite() && c >= 0.0) {
        return Err(bad(name, "c", "a number >= 0", c));
    }
    let rollout_depth = params.u64(name, "rollout_depth", d.rollout_depth as u64)?;
    if rollout_depth > 1_000_000 {
        return Err(bad(
            name,
            "rollout_depth",
            "an integer from 0 to 1000000",
            rollout_depth,
        ));
    }
    let iterations = params.u64(name, "iterations", d.iterations)?;
    let max_nodes = params.u64(name, "max_nodes", d.max_nodes as u64)?;
    if max_nodes == 0 || max_nodes > (u32::MAX / 2) as u64 {
        return Err(bad(
            name,
            "max_nodes",
            &format!("an integer from 1 to {}", u32::MAX / 2),
            max_nodes,
        ));
    }
    let score_scale = params.f64(name, "score_scale", d.score_scale)?;
    if !(score_scale.is_finite() && score_scale > 0.0) {
        return Err(bad(name, "score_scale", "a number > 0", score_scale));
    }
    Ok(UctConfig {
        c,
        rollout_depth: rollout_depth as u32,
        iterations,
        max_nodes: max_nodes as usize,
        score_scale,
    })
}

/// Build the generic agent `name` with `params`, seeded with `seed`, for
/// any game `G`. Unknown names and parameters are errors that list the
/// valid ones.
pub fn make<G: Game>(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    check_listed("generic agents", AGENTS, name, params)?;
    match name {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        "uct" => Ok(Box::new(Uct::<G>::new(uct_config(params)?, seed))),
        _ => Err(unknown_agent("generic agents", name, AGENTS)),
    }
}

/// Uniformly random legal actions, from a seeded RNG: the same seed gives
/// the same actions in the same states. Plays the game's fallback action
/// when the seat has no legal action.
#[derive(Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn act(&mut self, state: &G, seat: Seat, _timer: &dyn Timer) -> G::Action {
        let moves = state.legal_actions_vec(seat);
        match moves.choose(&mut self.rng) {
            Some(&a) => a,
            None => state.fallback_action(seat),
        }
    }
}

#[cfg(test)]
mod tests;
