//! The `arena` command line: `args` (the clap definitions, each flag
//! defined once), `commands` (what the per-game and inspection commands
//! do), `bench_harness` (`arena bench harness`: the harness's own cost per
//! episode against OpenSpiel's) and `entry` (the `main` of the binary and
//! of the Python wheel's
//! `arena` command: parse, dispatch, map errors to exit codes).

pub mod args;
pub mod bench_harness;
pub mod commands;
pub mod entry;
