//! The glue between game rules (crate `games`), built-in agents (crate
//! `agents`) and the harness: one [`ArenaGame`] impl per game, and the
//! registry [`GAMES`], from which every per-game part of the CLI is computed
//! (`arena list`, `trace`, `solve`, `generate`, `verify`, `perft`, `bench`,
//! level loading, agents, protocols, `--help` texts).
//!
//! Adding a game: its rules in `games`, optionally agents in `agents`, one
//! file here with its [`ArenaGame`] impl, and one line in [`with_registered_games!`](crate::with_registered_games)'s
//! list at the end of this file. See `docs/adding-a-game.md`.

pub mod arena_game;
pub mod args;
mod catalog;
mod entry;
mod play_game;
mod resim;
mod trace;
pub mod vgdl;

pub use arena_game::{
    build_agent, jsonl_contestant, parse_size, read_level_file, ArenaGame, ExternalCtx,
    GameCommand, GameView, LevelInfo,
};
pub use catalog::{load_config, parse_assignment, parse_config, Registry};
pub use entry::{command, find, names, GameEntry};
pub use resim::Replayed;
pub use trace::trace;

/// Defines the harness modules of the games and [`GAMES`] from the
/// registry's list (see [`with_registered_games!`](crate::with_registered_games)).
macro_rules! registry {
    ($($module:ident => $game:ty),* $(,)?) => {
        $(mod $module;)*
        /// Every game, in the order `arena list` shows them.
        /// The VGDL family (`gvgai:NAME`, `vgdl:PATH`) comes last.
        pub static GAMES: &[&dyn GameEntry] = &[$(&entry::Entry::<$game>::NEW,)* &vgdl::FAMILY];
    };
}

/// **The registry**: one line per game, `module => type`, where `module` is
/// the game's file in `harness/src/registry/` holding its [`ArenaGame`] impl
/// and `type` its rules in crate `games`. Calls macro `$m` with the list,
/// so that other crates (the Python package) build their per-game code
/// from the same line: `harness::with_registered_games!(my_macro);`.
#[macro_export]
macro_rules! with_registered_games {
    ($m:ident) => {
        $m! {
            bait => games::bait::Bait,
            snake => games::snake::Snake,
            sokoban => games::sokoban::Sokoban,
            supply => games::supply::Supply,
            xiangqi => games::xiangqi::Xiangqi,
            connect4 => games::connect4::Connect4,
        }
    };
}

with_registered_games!(registry);
