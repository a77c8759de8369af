//! What validating a config asks of the world above it: the games it may
//! name ([`GameCatalog::game`], [`GameRules`]) and whether an external
//! agent's program can run ([`GameCatalog::check_external`]). The registry
//! implements it (`crate::registry::Registry`), so that config stays below
//! the registry and the games.

use super::external::{ExternalSpec, ProtocolKind};
use crate::error::HarnessError;
use agents::AgentParams;

/// The games and checks a config is validated against.
pub trait GameCatalog {
    /// The game named `name` (a registered name, or a member of a family
    /// such as `vgdl:PATH`); the error is a sentence that lists the valid
    /// names.
    fn game(&self, name: &str) -> Result<Box<dyn GameRules>, HarnessError>;

    /// Whether an external agent's program can be run (a sentence if not).
    fn check_external(&self, spec: &ExternalSpec) -> Result<(), String>;
}

/// What a config's validation asks of its game.
pub trait GameRules {
    /// The game's registry name.
    fn name(&self) -> &'static str;
    /// The levels a config without `levels` plays.
    fn default_levels(&self) -> Vec<String>;
    /// The levels a config's level `spec` stands for (usually itself).
    fn expand_level(&self, spec: &str) -> Vec<String>;
    /// The wire protocols its external agents may speak.
    fn protocols(&self) -> &'static [ProtocolKind];
    /// The number of seats of level `spec`.
    fn players(&self, spec: &str, seed: u64) -> Result<usize, HarnessError>;
    /// Whether level `spec` loads.
    fn check_level(&self, spec: &str, seed: u64) -> Result<(), HarnessError>;
    /// Whether built-in agent `name` with `params` plays this game (a
    /// sentence if not).
    fn check_agent(&self, name: &str, params: &AgentParams) -> Result<(), String>;
}
