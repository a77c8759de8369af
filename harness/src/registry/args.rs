//! The arguments of the per-game subcommands (`arena trace`, `solve`,
//! `generate`, `verify`, `perft`, `bench`), which the games' hooks in
//! [`crate::registry::ArenaGame`] take; `arena`'s command line
//! ([`crate::cli::args`]) offers them.
//!
//! The doc comments below are also `arena --help`'s text, written for the
//! terminal: `<run name>` there is not HTML.
#![allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]

use crate::play::timing::{parse_duration, seconds};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `arena trace`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena trace bait --level 0 --actions DOWN,RIGHT,DOWN\n  arena trace snake --level seed:3 --actions 1/3,1/3\n  arena trace xiangqi --level start --actions h2e2,h9g7\n  arena trace sokoban --level microban:1 --actions ul\n  arena trace connect4 --level 4453 --actions 5"
)]
pub struct TraceArgs {
    /// The game (the games that have this command are listed by `--help`).
    pub game: String,
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
    /// The game (the games that have this command are listed by `--help`).
    pub game: String,
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
    /// The game (the games that have this command are listed by `--help`).
    pub game: String,
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
    /// The game (the games that have this command are listed by `--help`).
    pub game: String,
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
    /// The game (the games that have this command are listed by `--help`).
    pub game: String,
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
    after_help = "Examples:\n  arena bench harness --episodes 10000\n  arena bench harness --rounds 3\n  arena bench bait\n  arena bench xiangqi\n  arena bench snake --seconds 2\n  arena bench gvgai:aliens --seconds 0.5\n  arena bench sokoban --levels games/data/sokoban/microban.xsb --time-limit 10s -j 2"
)]
pub struct BenchArgs {
    /// The game (the games that have this command are listed by `--help`),
    /// or `harness`: the harness's own episodes/s against OpenSpiel's.
    pub game: String,
    /// Episodes (`arena bench harness`; default 10,000).
    #[arg(long)]
    pub episodes: Option<usize>,
    /// Rounds of arena and the peer in turn, with the medians at the end
    /// (`arena bench harness`; default 1).
    #[arg(long)]
    pub rounds: Option<usize>,
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
