//! Bait in the harness: levels, agents, JSON view, and `arena trace bait`.

use super::{read_level_file, ArenaGame, LevelInfo};
use crate::cli::TraceArgs;
use crate::error::HarnessError;
use agents::{AgentError, AgentInfo, AgentParams};
use games::bait::{Bait, BaitAction, LEVELS};
use games::{Agent, Game};
use serde_json::json;
use std::io::Write;

impl ArenaGame for Bait {
    const NAME: &'static str = "bait";
    const DESCRIPTION: &'static str =
        "GVGAI's Bait: push boxes into holes, take the key, reach the door (1 player)";

    fn builtin_levels() -> Vec<LevelInfo> {
        LEVELS
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let s = Bait::parse(t).expect("built-in level parses");
                LevelInfo {
                    name: i.to_string(),
                    description: format!("GVGAI bait_lvl{i}.txt, {}x{}", s.width(), s.height()),
                }
            })
            .collect()
    }

    fn load_level(spec: &str, _seed: u64) -> Result<Self, HarnessError> {
        if let Ok(i) = spec.parse::<usize>() {
            if let Some(s) = Bait::level(i) {
                return Ok(s);
            }
        }
        let text = read_level_file::<Bait>(spec)?;
        Bait::parse(&text).map_err(|source| HarnessError::Level {
            path: spec.to_string(),
            source,
        })
    }

    fn set_max_steps(&mut self, max_steps: u32) {
        *self = self.clone().with_max_ticks(max_steps);
    }

    fn agents() -> &'static [AgentInfo] {
        agents::bait::AGENTS
    }

    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        agents::bait::make(name, params, seed)
    }

    fn state_json(&self, _seat: usize) -> serde_json::Value {
        let (c, r) = self.avatar();
        json!({
            "tick": self.tick(),
            "avatar": [c, r],
            "has_key": self.has_key(),
            "alive": self.alive(),
            "score": self.score(0),
            "over": self.is_over(),
            "result": self.result(0).as_str(),
            "grid": self.grid_string(),
        })
    }
}

/// `arena trace bait`: the initial state, then the state after each action,
/// one JSON object per line, stopping after the step that ends the game.
pub fn trace(args: &TraceArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let mut state = Bait::load_level(&args.level, 0)?;
    let mut actions = Vec::new();
    for (i, name) in args.actions.split(',').map(str::trim).enumerate() {
        if name.is_empty() {
            continue;
        }
        let a = BaitAction::parse(name).ok_or_else(|| {
            HarnessError::Config(format!(
                "--actions: item {} `{name}` is not an action; expected UP, DOWN, LEFT, RIGHT or NIL",
                i + 1
            ))
        })?;
        actions.push(a);
    }
    let io = |e| HarnessError::io("<stdout>", e);
    writeln!(out, "{}", state.state_json(0)).map_err(io)?;
    for a in actions {
        if state.is_over() {
            break;
        }
        state.advance(&[a]);
        writeln!(out, "{}", state.state_json(0)).map_err(io)?;
    }
    Ok(())
}
