//! What the runner needs of a game beyond its rules ([`PlayGame`]: its
//! levels and its contestants), and what a run's contestants keep from
//! game to game ([`GlobalData`]). The registry implements [`PlayGame`] for
//! every registered game (`registry/play_game.rs`), so the runner knows no
//! registry and no protocol.

use crate::config::{AgentSpec, RunConfig};
use crate::error::HarnessError;
use crate::play::player::{Contestant, Failure};
use crate::play::schedule::Episode;
use crate::view::GameView;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A game the runner can play: load its levels, apply a game-length
/// limit, build the contestant of a seat.
pub trait PlayGame: GameView + Sized {
    /// Load a level of game `game` (the config's name: one type can play
    /// a family of games): a built-in name, or a path to a file in the
    /// game's format; `seed` is the episode seed.
    fn load_named(game: &str, spec: &str, seed: u64) -> Result<Self, HarnessError>;

    /// Apply a config's `max_steps`, where the game has one.
    fn set_max_steps(&mut self, max_steps: u32);

    /// Built-in agent `name` with `params`, for the caller to run on its
    /// own thread.
    fn builtin_agent(
        name: &str,
        params: &agents::AgentParams,
        seed: u64,
    ) -> Result<Box<dyn games::Agent<Self>>, agents::AgentError>;

    /// Build the contestant for `spec` in seat `seat` of episode `ep` of
    /// `cfg`, with `keep` the run's [`GlobalData`]; its failure when it
    /// cannot start.
    fn contestant(
        cfg: &RunConfig,
        keep: &GlobalData,
        ep: &Episode,
        seat: usize,
        spec: &AgentSpec,
        seed: u64,
    ) -> Result<Box<dyn Contestant<Self>>, Failure>;
}

/// The `globaldata` of every Botzone agent of one run, by agent label: what a
/// bot saved in one game is given to it in its later games (Botzone keeps it
/// per bot across games). Shared by all episodes of a run; with
/// `concurrency` above 1, games of the same agent overlap and the last value
/// saved wins.
#[derive(Clone, Debug, Default)]
pub struct GlobalData(Arc<Mutex<HashMap<String, Value>>>);

impl GlobalData {
    /// The value saved by agent `label`, if any.
    pub fn get(&self, label: &str) -> Option<Value> {
        let m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        m.get(label).cloned()
    }

    /// Save `value` for agent `label`.
    pub fn set(&self, label: &str, value: Value) {
        let mut m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        m.insert(label.to_string(), value);
    }
}
