//! The resolved config: what a run plays ([`RunConfig`]) and who plays it
//! ([`AgentSpec`]). Plain data; parsing and validation are in `load.rs`.

use super::external::ExternalSpec;
use super::format::{Format, Openings, Shard};
use super::limits::TimeLimits;
use agents::AgentParams;
use std::path::PathBuf;

/// Where an agent comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentKind {
    /// A built-in agent of the `agents` crate.
    BuiltIn {
        /// Its registry name.
        name: String,
        /// Its parameters.
        params: AgentParams,
    },
    /// A program run as a supervised subprocess (see [`crate::external`]).
    External(ExternalSpec),
}

/// One agent entry of a config, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// The label in result tables (unique within a run).
    pub label: String,
    /// What to run.
    pub kind: AgentKind,
    /// Its time limits (the run's, with per-agent overrides applied).
    pub time: TimeLimits,
}

/// A resolved, validated tournament config.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Run name: results go to `results/<name>/` by default.
    pub name: String,
    /// The game's name (as registered in [`crate::registry::GAMES`]).
    pub game: &'static str,
    /// The tournament format (config key `format`): which episodes are played.
    pub format: Format,
    /// Whether the two games of an encounter are a pair: the same start and
    /// seed with the seats swapped (config key `pairs`, default true for
    /// two-player games).
    pub pairs: bool,
    /// Start positions used one per round instead of `levels` (config keys
    /// `openings` and `order`).
    pub openings: Option<Openings>,
    /// A sequential test of the first agent against the second (config
    /// section `[sprt]`): the run stops as soon as it decides.
    pub sprt: Option<crate::stats::SprtConfig>,
    /// Level specs (built-in names or paths, resolved relative to the config).
    pub levels: Vec<String>,
    /// Repetitions per (lineup, level).
    pub repetitions: u32,
    /// Master seed.
    pub seed: u64,
    /// Episodes played at once (default: cores / players, at least 1).
    pub concurrency: usize,
    /// Optional game-length limit.
    pub max_steps: Option<u32>,
    /// After this many consecutive timeouts of an agent (its games in
    /// episode order), its remaining games are lost without being played
    /// (config key `forfeit_after_timeouts`, `[grading]` in an assignment;
    /// `None`: every game is played; see [`crate::play::forfeit`]).
    pub forfeit_after_timeouts: Option<u32>,
    /// The run's default time limits.
    pub time: TimeLimits,
    /// The agents.
    pub agents: Vec<AgentSpec>,
    /// The config file it came from.
    pub source: PathBuf,
    /// Where external agents' stderr logs go (set by the run to
    /// `<output folder>/logs`; `None`: not kept).
    pub log_dir: Option<PathBuf>,
    /// Whether every episode is written as a replay (config key `replays`,
    /// default true; see [`crate::output::replay`]).
    pub replays: bool,
    /// The part of the plan this run plays (`--shard K/N`; `None`: all of
    /// it). Not part of the config's fingerprint: every shard of a
    /// tournament has the same config hash.
    pub shard: Option<Shard>,
}
