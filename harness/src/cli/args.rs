//! Command-line arguments of `arena` (clap derive). The argument structs of
//! a command that lives elsewhere are defined with it and used here:
//! `arena run`'s in [`crate::run`], `arena slurm`'s in [`crate::slurm`],
//! `arena grade` / `arena check`'s in [`crate::grade`], the per-game
//! subcommands' in [`crate::registry::args`].
//!
//! The doc comments below are also `arena --help`'s text, written for the
//! terminal: `<run name>` and `[grading]` there are not HTML or links.
#![allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]

use crate::grade::commands::{CheckArgs, GradeArgs};
use crate::registry::args::{BenchArgs, GenerateArgs, PerftArgs, SolveArgs, TraceArgs, VerifyArgs};
use crate::run::RunArgs;
use crate::slurm::SlurmArgs;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// arena: play game-AI agents against each other under GVGAI-style time
/// limits and write win / score / step / time tables to CSV.
#[derive(Debug, Parser)]
#[command(
    name = "arena",
    version,
    about = "Play game-AI agents against each other under GVGAI-style time limits; write tables, ratings, replays and a report",
    arg_required_else_help = true,
    long_about = "arena plays game-AI agents against each other under GVGAI-style per-action time \
limits (a soft budget past which the move becomes a no-op, a hard limit past which the agent is \
disqualified), and writes win / score / step / time tables to CSV.\n\n\
Start with `arena list` to see games, levels and agents, then `arena run configs/demo.toml`.",
    after_help = "Examples:\n  arena run configs/demo.toml\n  arena list\n  arena trace bait --level 0 --actions DOWN,RIGHT,DOWN\n  arena solve bait --level 2 --agent bfs --time-limit 60s\n  arena grade configs/assignments/sokoban.toml --submissions class/\n  arena check my-agent/ --assignment configs/assignments/sokoban.toml\n  arena slurm configs/connect4.toml --shards 4"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a tournament described by a TOML config and write CSV tables.
    Run(RunArgs),
    /// List the games (a line each: levels, agents), or one game in detail.
    List(ListArgs),
    /// Rebuild a run's tables from its journal (after a crash, or to check them).
    Summarize(SummarizeArgs),
    /// Put the folders of a sharded run (`arena run --shard K/N`) together.
    Merge(MergeArgs),
    /// Write a Slurm job array that plays a config as N shards, and the merge.
    Slurm(SlurmArgs),
    /// Print the state after each action as JSON lines (conformance traces).
    Trace(TraceArgs),
    /// Run a planning agent once with a whole time budget and print its plan.
    Solve(SolveArgs),
    /// Generate levels or instances (Sokoban, supply maze).
    Generate(GenerateArgs),
    /// Replay solutions against levels and report each as valid or invalid.
    Verify(VerifyArgs),
    /// Count leaf nodes of the move tree (move-generator check).
    Perft(PerftArgs),
    /// Measure forward-model or agent speed and print a table.
    Bench(BenchArgs),
    /// Write a results folder's self-contained HTML report (report.html).
    Report(ReportArgs),
    /// Check replays against the game's rules; optionally write a viewer page.
    Replay(ReplayArgs),
    /// Grade a folder of student submissions against an assignment.
    Grade(GradeArgs),
    /// Check one submission as the grader would (for students, locally).
    Check(CheckArgs),
}

/// `arena report`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena report results/demo\n  (then open results/demo/report.html in a browser; it needs no network)\n\n\
`arena run` writes the same report at its end."
)]
pub struct ReportArgs {
    /// A results folder written by `arena run` (episodes.csv, summary.csv,
    /// replays.jsonl.gz ...).
    pub dir: PathBuf,
}

/// `arena replay`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena replay results/demo/replays.jsonl.gz\n  arena replay results/demo/replays.jsonl.gz --episode 3 --html ep3.html\n\n\
Every replay is re-played with the game's rules; a replay whose states or outcome differ \
is reported and arena exits with code 4."
)]
pub struct ReplayArgs {
    /// A replay file: a run's replays.jsonl.gz, or JSON lines (arena-replay/2).
    pub file: PathBuf,
    /// Only this episode (its index in the run).
    #[arg(long)]
    pub episode: Option<usize>,
    /// Also write a standalone viewer page of the replays here.
    #[arg(long, value_name = "OUT")]
    pub html: Option<PathBuf>,
}

/// `arena summarize`.
#[derive(Debug, Args)]
#[command(after_help = "Example:\n  arena summarize results/demo")]
pub struct SummarizeArgs {
    /// The results folder of a run (it holds meta.json and journal.jsonl).
    pub dir: PathBuf,
}

/// `arena merge`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena run configs/connect4.toml --shard 0/2 --out results/c4/shards/0\n  \
arena run configs/connect4.toml --shard 1/2 --out results/c4/shards/1\n  \
arena merge results/c4 results/c4/shards/0 results/c4/shards/1\n\n\
The shards must be runs of the same config (the hash in their meta.json), split the same way \
(the same N), each finished, every shard 0 to N-1 given once; otherwise nothing is written and \
arena exits with code 2. The merged folder holds the same tables, ratings, replays and report as \
a run on one machine (only timing columns and host metadata differ). See docs/cluster.md."
)]
pub struct MergeArgs {
    /// Where the merged results go (a new or empty folder, or an earlier merge).
    pub out: PathBuf,
    /// The shards' results folders (each written by `arena run --shard K/N`).
    #[arg(required = true, num_args = 1..)]
    pub shards: Vec<PathBuf>,
}

/// `arena list`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  arena list\n  arena list xiangqi")]
pub struct ListArgs {
    /// One game in detail: every level, every agent with its parameters,
    /// the actions and the protocols.
    pub game: Option<String>,
}
