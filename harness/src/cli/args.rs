//! Command-line arguments of `arena` (clap derive). Kept in the library so
//! that per-game command implementations in [`crate::registry`] take them as
//! parameters.
//!
//! The doc comments below are also `arena --help`'s text, written for the
//! terminal: `<run name>` and `[grading]` there are not HTML or links.
#![allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]

use crate::play::timing::{parse_duration, seconds};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

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

/// `arena grade`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena grade configs/assignments/sokoban.toml --submissions class/\n  arena grade configs/assignments/connect4.toml --submissions class/ --out results/lab3 -j 2 --gradescope\n  arena grade configs/assignments/sokoban.toml --submissions class/ --only alice --only bob\n\nThe submissions folder holds one subfolder per student (its name is the student id). Each is \
detected (submission.toml, else main.py, main.cpp, Main.java or Cargo.toml), built and run in \
the assignment's sandbox (default bwrap). Writes grades.csv, feedback/<id>.md, class-summary.md \
and the game tables under games/. Rerunning the same command continues an interrupted grading \
and reuses builds of unchanged submissions. See docs/grading.md."
)]
pub struct GradeArgs {
    /// The assignment (TOML: a run config plus a [grading] table), e.g.
    /// configs/assignments/sokoban.toml.
    pub assignment: PathBuf,
    /// The folder with one subfolder per student.
    #[arg(long)]
    pub submissions: PathBuf,
    /// Output folder (default: results/<assignment name>-grades/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// Grade only this student (repeatable).
    #[arg(long)]
    pub only: Vec<String>,
    /// Label students by stable pseudonyms in the shareable outputs
    /// (game tables, report, grades-anonymized.csv); pseudonyms.csv maps them.
    #[arg(long)]
    pub anonymize: bool,
    /// Also write Gradescope's results.json per student (gradescope/<id>/results.json).
    #[arg(long)]
    pub gradescope: bool,
    /// Grade only shard K of N of the class (K from 0; a student's shard
    /// is a stable function of their id). Shards write into the same --out
    /// (or folders copied together); the same command without --shard
    /// then writes the class's grades, reusing every build and game.
    #[arg(long, value_name = "K/N", value_parser = crate::play::schedule::Shard::parse)]
    pub shard: Option<crate::play::schedule::Shard>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// `arena check`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena check my-agent/ --assignment configs/assignments/sokoban.toml\n\nBuilds your folder as the grader will, starts it once (the protocol handshake), plays the \
assignment's games under the same limits and sandbox, and prints the points the grader would \
give, with advice for each failure. Exit code 0 when the verdict is ok, 4 otherwise."
)]
pub struct CheckArgs {
    /// Your submission's folder.
    pub submission: PathBuf,
    /// The assignment file your instructor gave you.
    #[arg(long)]
    pub assignment: PathBuf,
    /// Output folder (default: results/check-<folder name>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
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

/// `arena run`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena run configs/demo.toml\n  arena run configs/xiangqi-sprt.toml -j 2\n  \
arena run configs/demo.toml --seed 7 --out results/demo-seed7\n  \
arena run configs/demo.toml --restart\n  \
arena run configs/connect4.toml --shard 0/4 --out results/c4/shards/0\n\n\
The config keys are documented in configs/demo.toml and the README.\n\
Results go to results/<name>/ (episodes.csv, summary.csv, report.html ...) unless --out is given;\n\
rerunning the same command continues an interrupted run.\n\
With --shard K/N only part K of N of the plan is played (whole pairs; every machine computes \
the same split); `arena merge` puts the shards together, `arena slurm` writes a Slurm job array \
for them (docs/cluster.md)."
)]
pub struct RunArgs {
    /// The tournament config (TOML), e.g. configs/demo.toml.
    pub config: PathBuf,
    /// Output folder (default: results/<run name>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override the config's run name.
    #[arg(long)]
    pub name: Option<String>,
    /// Override the number of episodes played at once.
    #[arg(long, short = 'j')]
    pub concurrency: Option<usize>,
    /// Override the config's master seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Override the number of repetitions per level and lineup.
    #[arg(long)]
    pub repetitions: Option<u32>,
    /// No progress bar and no summary table on the terminal.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Continue the interrupted run in the results folder (the default
    /// when the folder holds a run of the same config); fail if there is none.
    #[arg(long, conflicts_with = "restart")]
    pub resume: bool,
    /// Clear what an earlier run wrote into the results folder and start over.
    #[arg(long)]
    pub restart: bool,
    /// Play even if an external agent fails its start-up check (each of its
    /// games then records the failure).
    #[arg(long)]
    pub allow_broken: bool,
    /// Play only shard K of N of the plan (K from 0 to N-1; whole pairs, the
    /// same split on every machine), into its own folder; `arena merge`
    /// puts the shards' folders together.
    #[arg(long, value_name = "K/N", value_parser = crate::play::schedule::Shard::parse)]
    pub shard: Option<crate::play::schedule::Shard>,
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

/// `arena slurm`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena slurm configs/connect4.toml --shards 4\n  \
arena slurm configs/class.toml --shards 50 --partition short --time 02:00:00 --cpus-per-task 4 --mem 4G\n  \
results/connect4/slurm/submit.sh    (runs sbatch twice: the shards, then the merge)\n\n\
Writes OUT/slurm/shards.sbatch (a job array --array=0-(N-1); task K runs `arena run CONFIG \
--shard K/N --out OUT/shards/K -j $SLURM_CPUS_PER_TASK`), OUT/slurm/merge.sbatch (`arena merge \
OUT OUT/shards/*`, submitted with --dependency=afterok on the array) and OUT/slurm/submit.sh. \
Paths in the scripts are absolute: arena, the config and OUT must be on a file system the nodes \
share. See docs/cluster.md (also: the same with GNU parallel over SSH)."
)]
pub struct SlurmArgs {
    /// The tournament config (TOML).
    pub config: PathBuf,
    /// Number of shards (tasks of the job array).
    #[arg(long)]
    pub shards: usize,
    /// Results folder (default: results/<run name>/); shards go to OUT/shards/K.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Slurm partition (#SBATCH --partition).
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit per shard, as sbatch takes it, e.g. 01:30:00 (#SBATCH --time).
    #[arg(long)]
    pub time: Option<String>,
    /// CPUs per shard; each shard plays this many episodes at once.
    #[arg(long, default_value_t = 1)]
    pub cpus_per_task: usize,
    /// Memory per shard, e.g. 4G (#SBATCH --mem).
    #[arg(long)]
    pub mem: Option<String>,
    /// The arena binary the jobs run (default: this one).
    #[arg(long)]
    pub arena: Option<PathBuf>,
}

/// `arena list`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  arena list\n  arena list xiangqi")]
pub struct ListArgs {
    /// One game in detail: every level, every agent with its parameters,
    /// the actions and the protocols.
    pub game: Option<String>,
}

/// `arena trace`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena trace bait --level 0 --actions DOWN,RIGHT,DOWN\n  arena trace snake --level seed:3 --actions 1/3,1/3\n  arena trace xiangqi --level start --actions h2e2,h9g7\n  arena trace sokoban --level microban:1 --actions ul\n  arena trace connect4 --level 4453 --actions 5"
)]
pub struct TraceArgs {
    /// The game (the games that have this command are listed by `--help`),
    /// or `harness`: the harness's own episodes/s against OpenSpiel's.
    pub game: String,
    /// Episodes (`arena bench harness`; default 10,000).
    #[arg(long)]
    pub episodes: Option<usize>,
    /// A built-in level name (e.g. 0-4 for Bait) or a level/map file.
    #[arg(long)]
    pub level: String,
    /// Comma-separated actions (Bait: UP,DOWN,LEFT,RIGHT,NIL; Snake: d0/d1 per round).
    #[arg(long, allow_hyphen_values = true, default_value = "")]
    pub actions: String,
    /// The seed the level is loaded with (games with randomness, e.g.
    /// gvgai:NAME: GVGAI's game seed).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// `arena solve`.
#[derive(Clone, Debug, Args)]
#[command(
    after_help = "Examples:\n  arena solve bait --level 2 --agent bfs --time-limit 60s\n  arena solve sokoban --level microban:12\n  arena solve sokoban --levels games/data/sokoban/microban.xsb --time-limit 10s -j 2 --out results/microban.csv\n  arena solve sokoban --levels games/data/sokoban/sasquatch-i.xsb --time-limit 10s --nearest stalls.xsb\n  arena solve supply --level set:0 --agent astar-supply"
)]
pub struct SolveArgs {
    /// The game (the games that have this command are listed by `--help`),
    /// or `harness`: the harness's own episodes/s against OpenSpiel's.
    pub game: String,
    /// Episodes (`arena bench harness`; default 10,000).
    #[arg(long)]
    pub episodes: Option<usize>,
    /// A built-in level (Bait 0-4, microban:N, set:N) or a level file (one
    /// level); with --levels FILE (Sokoban, supply maze), the level's number
    /// in the file, counted from 1 (the first level is --level 1).
    #[arg(long)]
    pub level: Option<String>,
    /// A file of levels (Sokoban, supply maze).
    #[arg(long)]
    pub levels: Option<PathBuf>,
    /// The agent (planner) to run.
    #[arg(long)]
    pub agent: Option<String>,
    /// Agent parameters as key=value (repeatable), e.g. --param weight=2.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Time budget per level, e.g. 10s, 500ms, 1m.
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub time_limit: Duration,
    /// Write a CSV table of the results here (Sokoban: a row per level,
    /// with its solution, its status, the search that found it and the
    /// solver's note).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Sokoban: write, for each level not solved, the position nearest the
    /// goals that its search reached (the least lower bound) here, as a
    /// level file to look at or to solve from.
    #[arg(long, value_name = "FILE")]
    pub nearest: Option<PathBuf>,
    /// Levels solved at once (default: number of cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Deprecated: the level of --levels counted from 0; --index N is
    /// --level N+1 (a warning says so).
    #[arg(long = "index", hide = true)]
    pub index: Option<usize>,
}

/// `arena generate`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena generate sokoban --count 5 --size 8x8 --boxes 3 --seed 1\n  arena generate supply --count 10 --size 12x20 --food 6 --out levels.txt"
)]
pub struct GenerateArgs {
    /// The game (the games that have this command are listed by `--help`),
    /// or `harness`: the harness's own episodes/s against OpenSpiel's.
    pub game: String,
    /// Episodes (`arena bench harness`; default 10,000).
    #[arg(long)]
    pub episodes: Option<usize>,
    /// How many levels.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Master seed (same seed, same levels).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Size as WxH (Sokoban: columns x rows) or MxN (supply: rows x columns).
    #[arg(long)]
    pub size: Option<String>,
    /// Number of boxes (Sokoban).
    #[arg(long)]
    pub boxes: Option<usize>,
    /// Food capacity T (supply maze).
    #[arg(long)]
    pub food: Option<u32>,
    /// Keep only levels whose difficulty score is at least this (Sokoban).
    #[arg(long)]
    pub min_score: Option<f64>,
    /// Write here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `arena verify`.
#[derive(Debug, Args)]
#[command(
    after_help = "Example:\n  arena verify sokoban --levels levels.xsb --solutions solutions.txt"
)]
pub struct VerifyArgs {
    /// The game (the games that have this command are listed by `--help`),
    /// or `harness`: the harness's own episodes/s against OpenSpiel's.
    pub game: String,
    /// Episodes (`arena bench harness`; default 10,000).
    #[arg(long)]
    pub episodes: Option<usize>,
    /// The level file.
    #[arg(long)]
    pub levels: PathBuf,
    /// The solutions file.
    #[arg(long)]
    pub solutions: PathBuf,
}

/// `arena perft`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena perft xiangqi --depth 4\n  arena perft xiangqi --depth 3 --divide --fen \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\""
)]
pub struct PerftArgs {
    /// The game (the games that have this command are listed by `--help`),
    /// or `harness`: the harness's own episodes/s against OpenSpiel's.
    pub game: String,
    /// Episodes (`arena bench harness`; default 10,000).
    #[arg(long)]
    pub episodes: Option<usize>,
    /// Position in FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// Print the node count below each root move.
    #[arg(long)]
    pub divide: bool,
}

/// `arena bench`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena bench harness --episodes 10000\n  arena bench bait\n  arena bench xiangqi\n  arena bench snake --seconds 2\n  arena bench gvgai:aliens --seconds 0.5\n  arena bench sokoban --levels games/data/sokoban/microban.xsb --time-limit 10s -j 2"
)]
pub struct BenchArgs {
    /// The game (the games that have this command are listed by `--help`),
    /// or `harness`: the harness's own episodes/s against OpenSpiel's.
    pub game: String,
    /// Episodes (`arena bench harness`; default 10,000).
    #[arg(long)]
    pub episodes: Option<usize>,
    /// Seconds per measurement (at most a week).
    #[arg(long, default_value_t = 1.0, value_parser = seconds)]
    pub seconds: f64,
    /// Depth (perft benchmarks).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Levels file (solver benchmarks).
    #[arg(long)]
    pub levels: Option<PathBuf>,
    /// Time limit per level or per act (solver/agent benchmarks).
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Parallel jobs.
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
}

/// Parse `key=value` agent parameters (value: integer, float, true/false, or string).
pub fn parse_params(items: &[String]) -> Result<agents::AgentParams, String> {
    let mut p = agents::AgentParams::new();
    for item in items {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("--param `{item}`: expected KEY=VALUE"))?;
        p.insert(k.trim(), agents::ParamValue::parse(v.trim()));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_parse_typed_values() {
        let p = parse_params(&["depth=3".into(), "weight=1.5".into(), "mode=fast".into()]).unwrap();
        assert_eq!(p.u64("x", "depth", 0).unwrap(), 3);
        assert_eq!(p.f64("x", "weight", 0.0).unwrap(), 1.5);
        assert_eq!(p.str("x", "mode", "").unwrap(), "fast");
        assert!(parse_params(&["depth".into()]).is_err());
    }
}
