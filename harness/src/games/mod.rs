//! The glue between game rules (crate `games`), built-in agents (crate
//! `agents`) and the harness: one [`ArenaGame`] impl per game, the
//! [`GameKind`] registry, and the per-game subcommands (`trace`, `solve`, ...).
//!
//! Adding a game: implement [`ArenaGame`] in a module here, add a variant to
//! [`GameKind`] (and its name to `GameKind::ALL`), add an arm to
//! [`with_game!`](crate::with_game), and add arms for the subcommands it
//! supports in [`crate::commands`].

pub mod bait;
pub mod snake;
pub mod sokoban;
pub mod sokoban_solve;
pub mod supply;
pub mod xiangqi;

use crate::error::HarnessError;
use agents::{AgentError, AgentInfo, AgentParams};
use games::{Agent, Game};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// A built-in level: its name (as used in configs) and a one-line description.
#[derive(Clone, Debug)]
pub struct LevelInfo {
    /// Name used in configs and on the command line (`0`, `start`, `random` ...).
    pub name: String,
    /// One line about the level.
    pub description: String,
}

/// What the harness needs to know about a game beyond its rules.
pub trait ArenaGame: Game + Sized {
    /// The game's name in configs, on the command line and in CSV files.
    const NAME: &'static str;
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

    /// The state as JSON, as seen by `seat` (used by traces and by the
    /// line-JSON protocol of external agents).
    fn state_json(&self, seat: usize) -> serde_json::Value;
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
        .ok_or_else(|| HarnessError::Config(format!("--size `{size}`: expected {expected}")))
}

/// Build agent `name` for game `G`: a built-in agent of the game, or one of
/// the game-independent `fixture-*` agents (see [`agents::fixtures`]).
pub fn build_agent<G: ArenaGame>(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    if agents::fixtures::is_fixture(name) {
        agents::fixtures::make::<G>(name, params)
    } else {
        G::make_agent(name, params, seed)
    }
}

/// The games arena knows, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// GVGAI's Bait.
    Bait,
    /// Botzone's two-player simultaneous Snake.
    Snake,
    /// Sokoban.
    Sokoban,
    /// The supply maze (report 002).
    Supply,
    /// Xiangqi (Chinese chess).
    Xiangqi,
}

impl GameKind {
    /// Every game, in the order `arena list` shows them.
    pub const ALL: &'static [GameKind] = &[
        GameKind::Bait,
        GameKind::Snake,
        GameKind::Sokoban,
        GameKind::Supply,
        GameKind::Xiangqi,
    ];

    /// The game's name.
    pub fn name(self) -> &'static str {
        crate::with_game!(self, G => G::NAME)
    }

    /// Comma-separated names of all games (for error messages).
    pub fn valid_names() -> String {
        Self::ALL
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = HarnessError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                HarnessError::Config(format!(
                    "unknown game `{s}`; valid games: {}",
                    Self::valid_names()
                ))
            })
    }
}

/// Run `$body` with the type alias `$G` bound to the game type of `$kind`.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::Bait => {
                type $G = ::games::bait::Bait;
                $body
            }
            $crate::games::GameKind::Snake => {
                type $G = ::games::snake::Snake;
                $body
            }
            $crate::games::GameKind::Sokoban => {
                type $G = ::games::sokoban::Sokoban;
                $body
            }
            $crate::games::GameKind::Supply => {
                type $G = ::games::supply::Supply;
                $body
            }
            $crate::games::GameKind::Xiangqi => {
                type $G = ::games::xiangqi::Xiangqi;
                $body
            }
        }
    };
}
