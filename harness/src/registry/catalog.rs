//! The registry as the [`GameCatalog`] a config is validated against, and
//! the config loaders that use it: [`load_config`], [`parse_config`],
//! [`parse_assignment`] (the `crate::config` functions of the same job, with
//! the registry's games and [`crate::external::validate`]).

use super::entry::{find, GameEntry};
use crate::config::external::{ExternalSpec, ProtocolKind};
use crate::config::{self, GameCatalog, GameRules, RunConfig};
use crate::error::HarnessError;
use agents::AgentParams;
use std::path::Path;

/// The registered games ([`super::GAMES`] and their families) and the
/// external-agent checks of [`crate::external`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Registry;

impl GameCatalog for Registry {
    fn game(&self, name: &str) -> Result<Box<dyn GameRules>, HarnessError> {
        find(name).map(|g| Box::new(Rules(g)) as Box<dyn GameRules>)
    }

    fn check_external(&self, spec: &ExternalSpec) -> Result<(), String> {
        crate::external::validate(spec)
    }
}

/// A registry entry seen as the rules a config is checked against.
struct Rules(&'static dyn GameEntry);

impl GameRules for Rules {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn default_levels(&self) -> Vec<String> {
        self.0.default_levels()
    }

    fn expand_level(&self, spec: &str) -> Vec<String> {
        self.0.expand_level(spec)
    }

    fn protocols(&self) -> &'static [ProtocolKind] {
        self.0.protocols()
    }

    fn players(&self, spec: &str, seed: u64) -> Result<usize, HarnessError> {
        self.0.players(spec, seed)
    }

    fn check_level(&self, spec: &str, seed: u64) -> Result<(), HarnessError> {
        self.0.check_level(spec, seed)
    }

    fn check_agent(&self, name: &str, params: &AgentParams) -> Result<(), String> {
        self.0.check_agent(name, params)
    }
}

/// Load, parse and validate a config file against the registry.
pub fn load_config(path: &Path) -> Result<RunConfig, HarnessError> {
    config::load(path, &Registry)
}

/// Parse and validate config text against the registry (`path` names it in
/// errors and anchors relative level paths).
pub fn parse_config(text: &str, path: &Path) -> Result<RunConfig, HarnessError> {
    config::parse(text, path, &Registry)
}

/// Parse the tournament part of an assignment (`arena grade`) against the
/// registry (see [`config::parse_assignment`]).
pub fn parse_assignment(text: &str, path: &Path) -> Result<RunConfig, HarnessError> {
    config::parse_assignment(text, path, &Registry)
}
