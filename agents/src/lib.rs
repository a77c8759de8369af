//! Built-in agents of arena, one module per game, each behind
//! [`games::Agent`]. Depends on `games` only: no clocks (agents read the
//! [`games::Timer`] they are given), no I/O, no threads.
//!
//! Every game module exposes a registry: `AGENTS` (names and one-line
//! descriptions) and `make(name, params, seed)`, which the harness calls to
//! build a fresh agent for each episode. [`generic`] has the same shape for
//! agents that play every game through [`games::Game`] alone (`random`,
//! `uct`): `generic::make::<G>(name, params, seed)`.

pub mod bait;
pub mod fixtures;
pub mod generic;
pub mod pacing;
pub mod params;
pub mod snake;
pub mod sokoban;
pub mod supply;
pub mod xiangqi;

pub use params::{AgentError, AgentInfo, AgentParams, ParamValue};
