//! [`ContestantFactory`]: builds the contestants of a run's episodes.

use crate::config::{AgentKind, AgentSpec, RunConfig};
use crate::play::direct::Direct;
use crate::play::game::{GlobalData, PlayGame};
use crate::play::outcome::Outcome;
use crate::play::player::{Contestant, Failure};
use crate::play::schedule::Episode;
use crate::play::watchdog::{Hung, Watchdog};
use std::sync::Arc;

/// An agent's label as it stands in its stderr logs' names
/// (`logs/ep<index>-seat<seat>-<label>.stderr.log`): characters other than
/// `[A-Za-z0-9_-]` become `_`.
pub fn log_label(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Builds the contestants of a run's episodes, and holds what external
/// agents keep from game to game within the run (Botzone's `globaldata`).
/// With the run's watchdog, built-in agents run on the episode's own thread
/// ([`Direct`]); without, each on a worker thread of its own
/// ([`InProcess`](crate::play::player::InProcess)).
#[derive(Debug)]
pub struct ContestantFactory {
    cfg: Arc<RunConfig>,
    keep: GlobalData,
    watchdog: Option<Arc<Watchdog>>,
}

impl ContestantFactory {
    /// A factory for the episodes of `cfg`, with nothing kept yet.
    pub fn new(cfg: &RunConfig) -> Self {
        ContestantFactory {
            cfg: Arc::new(cfg.clone()),
            keep: GlobalData::default(),
            watchdog: None,
        }
    }

    /// A factory whose built-in agents run on the episode's thread, watched
    /// by `watchdog`.
    pub fn watched(cfg: Arc<RunConfig>, watchdog: Arc<Watchdog>) -> Self {
        ContestantFactory {
            cfg,
            keep: GlobalData::default(),
            watchdog: Some(watchdog),
        }
    }

    /// The run's config.
    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }

    /// Build the contestant for `spec` in seat `seat` of episode `ep`; with
    /// a watchdog and a `hook` (who finishes the episode if the agent
    /// hangs), a built-in agent runs on the caller's thread.
    pub fn make<G: PlayGame>(
        &self,
        ep: &Episode,
        seat: usize,
        spec: &AgentSpec,
        seed: u64,
        hook: Option<&Arc<dyn Hung>>,
    ) -> Result<Box<dyn Contestant<G>>, Failure> {
        if let (AgentKind::BuiltIn { name, params }, Some(dog), Some(hook)) =
            (&spec.kind, &self.watchdog, hook)
        {
            return match G::builtin_agent(name, params, seed) {
                Ok(agent) => Ok(Box::new(Direct::new(
                    agent,
                    spec.time,
                    Arc::clone(dog),
                    Arc::clone(hook),
                ))),
                Err(e) => Err(Failure {
                    outcome: Outcome::SpawnFailed,
                    detail: e.to_string(),
                }),
            };
        }
        G::contestant(&self.cfg, &self.keep, ep, seat, spec, seed)
    }
}
