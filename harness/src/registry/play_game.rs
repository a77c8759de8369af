//! Every registered game is a [`PlayGame`]: the runner loads its levels and
//! builds its contestants through it (a built-in agent on its own thread,
//! an external one through the game's protocols).

use super::arena_game::{build_agent, ArenaGame, ExternalCtx};
use crate::config::{AgentKind, AgentSpec, RunConfig};
use crate::error::HarnessError;
use crate::play::game::{GlobalData, PlayGame};
use crate::play::outcome::Outcome;
use crate::play::player::{Contestant, Failure, InProcess};
use crate::play::runner::log_label;
use crate::play::schedule::Episode;

impl<G: ArenaGame> PlayGame for G {
    fn load_named(game: &str, spec: &str, seed: u64) -> Result<Self, HarnessError> {
        <G as ArenaGame>::load_named(game, spec, seed)
    }

    fn builtin_agent(
        name: &str,
        params: &agents::AgentParams,
        seed: u64,
    ) -> Result<Box<dyn games::Agent<Self>>, agents::AgentError> {
        build_agent::<G>(name, params, seed)
    }

    fn set_max_steps(&mut self, max_steps: u32) {
        <G as ArenaGame>::set_max_steps(self, max_steps)
    }

    fn contestant(
        cfg: &RunConfig,
        keep: &GlobalData,
        ep: &Episode,
        seat: usize,
        spec: &AgentSpec,
        seed: u64,
    ) -> Result<Box<dyn Contestant<Self>>, Failure> {
        make_contestant(cfg, keep, ep, seat, spec, seed)
    }
}

fn make_contestant<G: ArenaGame>(
    cfg: &RunConfig,
    keep: &GlobalData,
    ep: &Episode,
    seat: usize,
    spec: &AgentSpec,
    seed: u64,
) -> Result<Box<dyn Contestant<G>>, Failure> {
    match &spec.kind {
        AgentKind::External(ext) => {
            let log = cfg.log_dir.as_ref().map(|d| {
                let safe = log_label(&spec.label);
                d.join(format!("ep{:04}-seat{seat}-{safe}.stderr.log", ep.index))
            });
            G::external_contestant(ExternalCtx {
                spec: ext,
                label: &spec.label,
                level: &ep.level,
                seed: ep.seed,
                max_steps: cfg.max_steps,
                limits: spec.time,
                log,
                keep,
            })
        }
        AgentKind::BuiltIn { name, params } => match build_agent::<G>(name, params, seed) {
            Ok(agent) => Ok(Box::new(InProcess::spawn(agent, spec.time, &spec.label))),
            Err(e) => Err(Failure {
                outcome: Outcome::SpawnFailed,
                detail: e.to_string(),
            }),
        },
    }
}
