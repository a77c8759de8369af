//! The baseline Sokoban agent (`random`), until the solver agents of
//! `agents::sokoban` (`astar`, `wastar`, `biastar`, `bfs`) are registered.

use crate::bait::RandomAgent;
use crate::params::{unknown_agent, AgentError, AgentInfo, AgentParams};
use games::sokoban::Sokoban;
use games::Agent;

/// The built-in Sokoban agents of this module.
pub const AGENTS: &[AgentInfo] = &[AgentInfo {
    name: "random",
    description:
        "uniform over the legal moves, seeded (a baseline that almost never solves a level)",
    params: &[],
}];

/// Build the Sokoban agent `name` with `params`, seeded with `seed`.
pub fn make(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<Sokoban>>, AgentError> {
    match name {
        "random" => {
            params.check_keys(name, &[])?;
            Ok(Box::new(RandomAgent::new(seed)))
        }
        _ => Err(unknown_agent("sokoban", name, AGENTS)),
    }
}
