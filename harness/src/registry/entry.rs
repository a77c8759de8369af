//! [`GameEntry`]: a registered game seen without its type, so that the CLI,
//! configs and the run loop can work from a name. [`Entry`] implements it
//! for every [`ArenaGame`]; the list itself is [`super::GAMES`].

use super::arena_game::{self, ArenaGame, GameCommand, LevelInfo};
use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::external::ProtocolKind;
use crate::play::runner::RunnerEvent;
use crate::play::schedule::Episode;
use crate::registry::args::{BenchArgs, GenerateArgs, PerftArgs, SolveArgs, TraceArgs, VerifyArgs};
use agents::AgentInfo;
use std::fmt;
use std::io::Write;
use std::marker::PhantomData;

/// A registered game, without its type: everything the CLI and the run
/// loop ask of a game by name.
pub trait GameEntry: Sync {
    /// The game's name in configs, on the command line and in CSV files.
    fn name(&self) -> &'static str;
    /// One line about the game.
    fn description(&self) -> &'static str;
    /// For a family of games (e.g. `gvgai:NAME`): the member called `name`,
    /// or why it cannot be loaded; `None` when `name` is not of the family.
    /// Single games answer only to [`GameEntry::name`] (default `None`).
    fn instance(&self, name: &str) -> Option<Result<&'static dyn GameEntry, HarnessError>> {
        let _ = name;
        None
    }
    /// For a family: its shipped members, as (name, one line about it) in
    /// the order `arena list` shows them (default: none).
    fn members(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// How actions are written.
    fn action_syntax(&self) -> &'static str;
    /// The built-in levels.
    fn levels(&self) -> Vec<LevelInfo>;
    /// The levels a config plays when it names none.
    fn default_levels(&self) -> Vec<String>;
    /// The levels a config's level `spec` stands for (default: itself; a
    /// family's "every game" member expands `N` to level `N` of each game).
    fn expand_level(&self, spec: &str) -> Vec<String> {
        vec![spec.to_string()]
    }
    /// Every agent a config may name: the game's own, then the generic
    /// ones it does not shadow.
    fn agents(&self) -> Vec<AgentInfo>;
    /// The external protocols the game speaks.
    fn protocols(&self) -> &'static [ProtocolKind];
    /// Number of seats of level `spec` (loaded with `seed`).
    fn players(&self, spec: &str, seed: u64) -> Result<usize, HarnessError>;
    /// Check that `spec` loads.
    fn check_level(&self, spec: &str, seed: u64) -> Result<(), HarnessError>;
    /// Check that built-in agent `name` can be built with `params`.
    fn check_agent(&self, name: &str, params: &agents::AgentParams) -> Result<(), String>;
    /// Play `episodes` of `cfg`, after `done` (see
    /// [`crate::play::runner::run_tournament`]).
    fn play(
        &self,
        cfg: &RunConfig,
        episodes: &[Episode],
        done: &[crate::play::runner::EpisodeRecord],
        stop: &(dyn Fn() -> bool + Sync),
        on_event: &mut dyn FnMut(RunnerEvent),
    ) -> Result<(), HarnessError>;
    /// Start agent `agent` of `cfg` once for its set-up only (see
    /// [`crate::play::runner::probe`]); a sentence when it cannot even do that.
    fn probe(&self, cfg: &RunConfig, agent: usize) -> Result<(), String>;
    /// `arena trace`.
    fn trace(&self, args: &TraceArgs, out: &mut dyn Write) -> Result<(), HarnessError>;
    /// `arena solve`, if the game has it.
    fn solve(&self) -> Option<GameCommand<SolveArgs>>;
    /// `arena generate`, if the game has it.
    fn generate(&self) -> Option<GameCommand<GenerateArgs>>;
    /// `arena verify`, if the game has it.
    fn verify(&self) -> Option<GameCommand<VerifyArgs>>;
    /// `arena perft`, if the game has it.
    fn perft(&self) -> Option<GameCommand<PerftArgs>>;
    /// `arena bench`, if the game has it.
    fn bench(&self) -> Option<GameCommand<BenchArgs>>;
    /// Re-play recorded actions from a level and seed (see
    /// `resim::replay`): a JSON view per tick, and the end.
    fn replay(
        &self,
        level: &str,
        seed: u64,
        max_steps: Option<u32>,
        moves: &[String],
    ) -> Result<super::Replayed, HarnessError>;
    /// [`GameEntry::replay`] with the states as one JSON array's text (the
    /// same text as serializing [`GameEntry::replay`]'s states; the default
    /// serializes them, the registered games write it straight).
    fn replay_json(
        &self,
        level: &str,
        seed: u64,
        max_steps: Option<u32>,
        moves: &[String],
    ) -> Result<super::Replayed<super::resim::StatesJson>, HarnessError> {
        let r = self.replay(level, seed, max_steps, moves)?;
        let mut bytes = Vec::new();
        // Writing to a Vec cannot fail, and Values always serialize.
        let _ = serde_json::to_writer(&mut bytes, &r.states);
        Ok(super::Replayed {
            states: super::resim::StatesJson {
                bytes,
                count: r.states.len(),
            },
            active: r.active,
            scores: r.scores,
            results: r.results,
            over: r.over,
        })
    }
}

impl fmt::Debug for dyn GameEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for dyn GameEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The registry entry of game `G`.
pub struct Entry<G>(PhantomData<fn() -> G>);

impl<G> Entry<G> {
    /// The entry (a constant, for the static registry).
    pub const NEW: Self = Entry(PhantomData);
}

impl<G: ArenaGame> GameEntry for Entry<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn description(&self) -> &'static str {
        G::DESCRIPTION
    }
    fn action_syntax(&self) -> &'static str {
        G::ACTION_SYNTAX
    }
    fn levels(&self) -> Vec<LevelInfo> {
        G::builtin_levels()
    }
    fn default_levels(&self) -> Vec<String> {
        G::default_levels()
    }
    fn agents(&self) -> Vec<AgentInfo> {
        arena_game::all_agents::<G>()
    }
    fn protocols(&self) -> &'static [ProtocolKind] {
        G::PROTOCOLS
    }
    fn players(&self, spec: &str, seed: u64) -> Result<usize, HarnessError> {
        Ok(G::load_named(G::NAME, spec, seed)?.num_players())
    }
    fn check_level(&self, spec: &str, seed: u64) -> Result<(), HarnessError> {
        G::load_named(G::NAME, spec, seed).map(drop)
    }
    fn check_agent(&self, name: &str, params: &agents::AgentParams) -> Result<(), String> {
        arena_game::build_agent::<G>(name, params, 0)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    fn play(
        &self,
        cfg: &RunConfig,
        episodes: &[Episode],
        done: &[crate::play::runner::EpisodeRecord],
        stop: &(dyn Fn() -> bool + Sync),
        on_event: &mut dyn FnMut(RunnerEvent),
    ) -> Result<(), HarnessError> {
        crate::play::runner::run_tournament::<G>(cfg, episodes, done, stop, on_event)
    }
    fn trace(&self, args: &TraceArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
        super::trace::trace::<G>(args, out)
    }
    fn probe(&self, cfg: &RunConfig, agent: usize) -> Result<(), String> {
        crate::play::runner::probe::<G>(cfg, agent)
            .map_err(|f| format!("{}: {}", f.outcome, f.detail))
    }
    fn solve(&self) -> Option<GameCommand<SolveArgs>> {
        G::SOLVE
    }
    fn generate(&self) -> Option<GameCommand<GenerateArgs>> {
        G::GENERATE
    }
    fn verify(&self) -> Option<GameCommand<VerifyArgs>> {
        G::VERIFY
    }
    fn perft(&self) -> Option<GameCommand<PerftArgs>> {
        G::PERFT
    }
    fn bench(&self) -> Option<GameCommand<BenchArgs>> {
        G::BENCH
    }
    fn replay(
        &self,
        level: &str,
        seed: u64,
        max_steps: Option<u32>,
        moves: &[String],
    ) -> Result<super::Replayed, HarnessError> {
        super::resim::replay::<G>(G::NAME, level, seed, max_steps, moves)
    }
    fn replay_json(
        &self,
        level: &str,
        seed: u64,
        max_steps: Option<u32>,
        moves: &[String],
    ) -> Result<super::Replayed<super::resim::StatesJson>, HarnessError> {
        let states = super::resim::StatesJson::default();
        let mut r =
            super::resim::replay_into::<G, _>(G::NAME, level, seed, max_steps, moves, states)?;
        r.states.finish();
        Ok(r)
    }
}

/// The game named `name` (a registered game, or a member of a family such
/// as `gvgai:aliens`), or an error listing the valid names.
pub fn find(name: &str) -> Result<&'static dyn GameEntry, HarnessError> {
    for g in super::GAMES.iter().copied() {
        if g.name() == name {
            return Ok(g);
        }
        if let Some(member) = g.instance(name) {
            return member;
        }
    }
    Err(HarnessError::Config(format!(
        "unknown game `{name}`; valid games: {}",
        names(|_| true).join(", ")
    )))
}

/// The names of the games for which `pick` holds, in registry order.
pub fn names(pick: impl Fn(&dyn GameEntry) -> bool) -> Vec<&'static str> {
    super::GAMES
        .iter()
        .filter(|g| pick(**g))
        .map(|g| g.name())
        .collect()
}

/// The per-game command `command` of game `name`, or an error naming the
/// games that have it.
pub fn command<A>(
    name: &str,
    command: &'static str,
    pick: impl Fn(&dyn GameEntry) -> Option<GameCommand<A>>,
) -> Result<GameCommand<A>, HarnessError> {
    let game = find(name)?;
    pick(game).ok_or_else(|| HarnessError::Unsupported {
        command,
        game: name.to_string(),
        supported: names(|g| pick(g).is_some()).join(", "),
    })
}
