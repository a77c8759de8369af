//! [`ArenaGame`]: what the harness needs of a game beyond its rules, with
//! optional hooks (trace syntax, protocols, subcommands) whose defaults say
//! "not offered". The types its hooks use live here too.

use crate::error::HarnessError;
use crate::external::{ExternalSpec, Protocol, ProtocolKind, Subprocess};
use crate::play::game::GlobalData;
use crate::play::player::{Contestant, Failure};
use crate::play::timing::TimeLimits;
use crate::registry::args::{BenchArgs, GenerateArgs, PerftArgs, SolveArgs, VerifyArgs};
pub use crate::view::GameView;
use agents::{AgentError, AgentInfo, AgentParams};
use games::Agent;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A built-in level: its name (as used in configs) and a one-line description.
#[derive(Clone, Debug)]
pub struct LevelInfo {
    /// Name used in configs and on the command line (`0`, `start`, `random` ...).
    pub name: String,
    /// One line about the level.
    pub description: String,
}

/// A per-game subcommand (`arena solve <game>` ...): its arguments and
/// where it prints.
pub type GameCommand<A> = fn(&A, &mut dyn Write) -> Result<(), HarnessError>;

/// What a game's [`ArenaGame::external_contestant`] gets to start an
/// external agent for one episode.
pub struct ExternalCtx<'a> {
    /// The agent's resolved config entry.
    pub spec: &'a ExternalSpec,
    /// Its label in the run.
    pub label: &'a str,
    /// The level spec of the episode.
    pub level: &'a str,
    /// The episode's seed (the one its level was loaded with).
    pub seed: u64,
    /// The config's `max_steps`, if any.
    pub max_steps: Option<u32>,
    /// Its time limits.
    pub limits: TimeLimits,
    /// Where its stderr goes (`None`: not kept).
    pub log: Option<PathBuf>,
    /// Data the agent keeps from game to game within the run (Botzone's
    /// `globaldata`), owned by the run's contestant factory.
    pub keep: &'a GlobalData,
}

/// Start an `arena-jsonl/2` agent: what every game speaks.
pub fn jsonl_contestant<G: ArenaGame>(
    ctx: ExternalCtx<'_>,
) -> Result<Box<dyn Contestant<G>>, Failure> {
    let protocol = Box::new(crate::external::protocols::jsonl::Jsonl::new(
        ctx.level,
        ctx.limits,
        ctx.seed,
        ctx.max_steps,
    ));
    Ok(Box::new(Subprocess::<G>::spawn(
        ctx.spec, protocol, ctx.log, ctx.limits,
    )?))
}

/// What the harness needs to know about a game beyond its rules and its
/// [`GameView`] (name and JSON view).
pub trait ArenaGame: GameView + Sized {
    /// One line about the game (for `arena list`).
    const DESCRIPTION: &'static str;

    /// The built-in levels (maps, start positions ...).
    fn builtin_levels() -> Vec<LevelInfo>;

    /// The levels a config plays when it names none.
    fn default_levels() -> Vec<String> {
        Self::builtin_levels().into_iter().map(|l| l.name).collect()
    }

    /// Load a level: a built-in name, or a path to a file in the game's
    /// format. `seed` is the episode seed, for games whose levels are
    /// generated (e.g. Snake's `random` map); others ignore it.
    fn load_level(spec: &str, seed: u64) -> Result<Self, HarnessError>;

    /// Load level `spec` of the game registered as `game`: what the run
    /// loop, `arena trace` and replays call. Families of games (one type,
    /// many names, e.g. `gvgai:NAME`) build the game from `game`; the
    /// default is [`ArenaGame::load_level`].
    fn load_named(game: &str, spec: &str, seed: u64) -> Result<Self, HarnessError> {
        let _ = game;
        Self::load_level(spec, seed)
    }

    /// Apply a config's `max_steps` (a game-length limit), where the game has one.
    fn set_max_steps(&mut self, max_steps: u32);

    /// The built-in agents.
    fn agents() -> &'static [AgentInfo];

    /// Build a fresh built-in agent for one episode.
    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError>;

    /// How actions are written, for help texts and `--actions` errors (e.g.
    /// `UP, DOWN, LEFT, RIGHT or NIL`).
    const ACTION_SYNTAX: &'static str;

    /// One `arena trace` line (default: [`GameView::state_json`] of seat 0).
    fn trace_json(&self) -> serde_json::Value {
        self.state_json(0)
    }

    /// The JSON view a replay stores per tick: [`GameView::state_json`] of
    /// seat 0 with the keys of [`ArenaGame::trace_json`] laid over it, so
    /// that a viewer has the whole board and every key of `arena trace`.
    fn replay_view(&self) -> serde_json::Value {
        let mut v = self.state_json(0);
        if let (serde_json::Value::Object(all), serde_json::Value::Object(trace)) =
            (&mut v, self.trace_json())
        {
            for (k, x) in trace {
                all.insert(k, x);
            }
        }
        v
    }

    /// Append [`ArenaGame::replay_view`] of this state to `out` as JSON
    /// text. The default serializes the view; a game may write the same
    /// text straight to bytes (a test compares the two).
    fn write_view(&self, out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail, and a Value always serializes.
        let _ = serde_json::to_writer(out, &self.replay_view());
    }

    /// Whether `arena trace` refuses an illegal action (default) or plays
    /// it (games where every parsed action is playable, e.g. Snake, whose
    /// deadly moves are legal).
    const TRACE_CHECKS_LEGALITY: bool = true;

    /// Extra `--actions` syntax beyond one action name per item: the
    /// actions `item` stands for (e.g. a whole LURD string in Sokoban);
    /// `None` when `item` is not in that syntax.
    fn trace_item(&self, item: &str) -> Option<Vec<Self::Action>> {
        let _ = item;
        None
    }

    /// The external protocols this game speaks (config key `protocol`);
    /// checked when a config is validated.
    const PROTOCOLS: &'static [ProtocolKind] = &[ProtocolKind::Jsonl];

    /// Start an external agent whose protocol is one of
    /// [`ArenaGame::PROTOCOLS`] (default: `arena-jsonl/2`).
    fn external_contestant(ctx: ExternalCtx<'_>) -> Result<Box<dyn Contestant<Self>>, Failure> {
        match ctx.spec.protocol {
            Protocol::Jsonl => jsonl_contestant(ctx),
            ref other => Err(Failure {
                outcome: crate::play::outcome::Outcome::SpawnFailed,
                detail: format!(
                    "protocol = \"{}\" is not spoken by {}",
                    other.kind().as_str(),
                    Self::NAME
                ),
            }),
        }
    }

    /// `arena solve <game>`, if the game has it.
    const SOLVE: Option<GameCommand<SolveArgs>> = None;
    /// `arena generate <game>`, if the game has it.
    const GENERATE: Option<GameCommand<GenerateArgs>> = None;
    /// `arena verify <game>`, if the game has it.
    const VERIFY: Option<GameCommand<VerifyArgs>> = None;
    /// `arena perft <game>`, if the game has it.
    const PERFT: Option<GameCommand<PerftArgs>> = None;
    /// `arena bench <game>`, if the game has it.
    const BENCH: Option<GameCommand<BenchArgs>> = None;
}

/// Read a level file or fall back to an error that lists the built-in names.
pub fn read_level_file<G: ArenaGame>(spec: &str) -> Result<String, HarnessError> {
    let path = Path::new(spec);
    if path.is_file() {
        crate::error::read_text(path)
    } else {
        let names: Vec<String> = G::builtin_levels().into_iter().map(|l| l.name).collect();
        Err(HarnessError::BadLevel(format!(
            "{} level `{spec}` is neither a built-in level ({}) nor a readable file",
            G::NAME,
            names.join(", ")
        )))
    }
}

/// Parse a `--size` argument of the form `AxB` (either case of `x`) into
/// its two numbers; `expected` completes the error message, e.g.
/// `"MxN (rows x columns), e.g. 12x20"`.
pub fn parse_size(size: &str, expected: &str) -> Result<(usize, usize), HarnessError> {
    size.split_once(['x', 'X'])
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .ok_or_else(|| HarnessError::Flag(format!("--size `{size}`: expected {expected}")))
}

/// Build agent `name` for game `G`: one of the game's own agents, a
/// generic agent (see [`agents::generic`]) the game does not shadow, or one
/// of the game-independent `fixture-*` agents (see [`agents::fixtures`]).
pub fn build_agent<G: ArenaGame>(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    if agents::fixtures::is_fixture(name) {
        agents::fixtures::make::<G>(name, params)
    } else if G::agents().iter().any(|a| a.name == name) {
        G::make_agent(name, params, seed)
    } else if agents::generic::AGENTS.iter().any(|a| a.name == name) {
        agents::generic::make::<G>(name, params, seed)
    } else {
        Err(AgentError::UnknownAgent {
            game: G::NAME,
            name: name.to_string(),
            valid: all_agents::<G>()
                .iter()
                .map(|a| a.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

/// Every agent a config may name for `G`: the game's own agents, then the
/// generic ones (see [`agents::generic`]) whose names the game does not use.
pub fn all_agents<G: ArenaGame>() -> Vec<AgentInfo> {
    let own = G::agents();
    let generic = agents::generic::AGENTS
        .iter()
        .filter(|g| !own.iter().any(|a| a.name == g.name));
    own.iter().chain(generic).cloned().collect()
}
