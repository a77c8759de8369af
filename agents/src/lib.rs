//! Built-in agents of arena, one module per game, each behind
//! [`games::Agent`]. Depends on `games` only: no clocks (agents read the
//! [`games::Timer`] they are given), no I/O, no threads.
//!
//! Every game module exposes a registry: `AGENTS` (names, one-line
//! descriptions and parameters with their defaults, see [`AgentInfo`]) and
//! `make(name, params, seed)`, which the harness calls to build a fresh
//! agent for each episode and which accepts exactly the listed parameter
//! keys ([`params::check_listed`]). [`generic`] has the same shape for
//! agents that play every game through [`games::Game`] alone (`random`,
//! `uct`): `generic::make::<G>(name, params, seed)`.

pub mod bait;
pub mod fixtures;
pub mod generic;
pub mod pacing;
pub mod params;
#[cfg(test)]
mod registry_tests;
pub mod snake;
pub mod sokoban;
pub mod supply;
pub mod vgdl;
pub mod xiangqi;

pub use params::{AgentError, AgentInfo, AgentParams, ParamInfo, ParamValue};
