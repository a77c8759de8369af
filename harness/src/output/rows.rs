//! The tables of a run: episode rows, the summary with Wilson intervals,
//! the cross-table, and their terminal forms. The files are written by the
//! reporters in [`crate::output::reporters`].
//!
//! - `episodes.csv`: one row per (episode, agent) ([`EpisodeRow`]).
//! - `summary.csv`: one row per (agent, level) plus an `all` row per agent.
//! - `crosstable.csv` (two-player games): one row per (agent, opponent).

use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::play::outcome::Outcome;
use crate::play::runner::EpisodeRecord;
use games::PlayerResult;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What the tables of a run are keyed by: its name, game, agent labels
/// (config order) and levels (config order). Kept in `meta.json` so that
/// `arena summarize` can rebuild the tables from the journal alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunKeys {
    /// Run name.
    pub name: String,
    /// Game name.
    pub game: String,
    /// Agent labels, by agent index.
    pub labels: Vec<String>,
    /// Level specs, in config order.
    pub levels: Vec<String>,
}

impl RunKeys {
    /// The keys of `cfg`.
    pub fn of(cfg: &RunConfig) -> RunKeys {
        RunKeys {
            name: cfg.name.clone(),
            game: cfg.game.to_string(),
            labels: cfg.agents.iter().map(|a| a.label.clone()).collect(),
            levels: cfg.levels.clone(),
        }
    }
}

/// One row of `episodes.csv`.
#[derive(Debug, Default, Serialize, Deserialize, Clone, PartialEq)]
/// A column this arena does not write is an error when read back (a
/// renamed column is never read as an empty or zero value).
#[serde(deny_unknown_fields)]
pub struct EpisodeRow {
    /// Run name.
    pub run: String,
    /// Game name.
    pub game: String,
    /// Level spec.
    pub level: String,
    /// Repetition (0-based).
    pub repetition: u32,
    /// Episode index in the plan.
    pub episode: usize,
    /// Episode seed.
    pub seed: u64,
    /// Seat (0 or 1).
    pub seat: usize,
    /// Agent label.
    pub agent: String,
    /// Opponent labels (two-player games), `;`-separated; empty for puzzles.
    pub opponent: String,
    /// win / loss / draw.
    pub result: String,
    /// normal / disqualified / crash / ...
    pub outcome: String,
    /// Final score.
    pub score: f64,
    /// Steps: the ticks the game was played for.
    pub steps: u32,
    /// Init + all acts, ms (on the judging clock).
    pub total_ms: f64,
    /// CPU time of the agent's thread over init + all acts, ms (empty where not measured).
    pub cpu_ms: Option<f64>,
    /// Mean act time, ms.
    pub mean_act_ms: f64,
    /// Longest act, ms.
    pub max_act_ms: f64,
    /// 99th percentile act time (nearest rank), ms.
    pub p99_act_ms: f64,
    /// Overruns of the soft budget.
    pub overruns: u32,
    /// Nodes expanded (planning agents), empty if not reported.
    pub expanded: Option<u64>,
    /// Failure details.
    pub detail: String,
    /// Processes the agent left behind after the game (killed by arena).
    pub leaked: u32,
    /// 1 if init was past its soft budget (within its hard limit).
    pub init_overrun: u32,
    /// The pair the episode belongs to (paired formats), empty otherwise.
    pub pair: Option<usize>,
    /// Acts not charged because the machine's load kept the agent waiting
    /// for a CPU (wall clock) or a virtual machine's host took the time
    /// (steal).
    pub starved: u32,
    /// The machine that played the episode (host name), so that timing can
    /// be split by machine when shards ran on several.
    #[serde(default)]
    pub host: String,
    /// That machine's CPU model.
    #[serde(default)]
    pub cpu_model: String,
}

/// The `p`-th percentile (0–100) of `xs` by nearest rank; 0 for no data.
pub fn percentile(xs: &[f64], p: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let rank = ((p / 100.0) * v.len() as f64).ceil().max(1.0) as usize;
    v[rank.min(v.len()) - 1]
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The rows of one finished episode.
pub fn episode_rows(keys: &RunKeys, rec: &EpisodeRecord) -> Vec<EpisodeRow> {
    let labels: Vec<&str> = rec
        .seats
        .iter()
        .map(|s| keys.labels.get(s.agent).map_or("?", String::as_str))
        .collect();
    rec.seats
        .iter()
        .enumerate()
        .map(|(seat, s)| {
            let n = s.act_ms.len();
            let mean = if n == 0 {
                0.0
            } else {
                s.act_ms.iter().sum::<f64>() / n as f64
            };
            let max = s.act_ms.iter().copied().fold(0.0, f64::max);
            EpisodeRow {
                run: keys.name.clone(),
                game: keys.game.clone(),
                level: rec.episode.level.clone(),
                repetition: rec.episode.repetition,
                episode: rec.episode.index,
                seed: rec.episode.seed,
                seat,
                agent: labels[seat].to_string(),
                opponent: labels
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != seat)
                    .map(|(_, l)| *l)
                    .collect::<Vec<_>>()
                    .join(";"),
                result: s.result.as_str().to_string(),
                outcome: s.outcome.as_str().to_string(),
                score: s.score,
                steps: rec.steps,
                total_ms: round3(s.total_ms()),
                cpu_ms: if s.cpu_ms > 0.0 {
                    Some(round3(s.cpu_ms))
                } else {
                    None
                },
                mean_act_ms: round3(mean),
                max_act_ms: round3(max),
                p99_act_ms: round3(percentile(&s.act_ms, 99.0)),
                overruns: s.overruns,
                expanded: s.expanded,
                detail: s.detail.clone(),
                leaked: s.leaked,
                init_overrun: s.init_overrun as u32,
                pair: rec.episode.pair,
                starved: s.starved,
                host: rec.host.clone(),
                cpu_model: rec.cpu_model.clone(),
            }
        })
        .collect()
}

/// One row of `summary.csv`.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
/// A column this arena does not write is an error when read back (a
/// renamed column is never read as an empty or zero value).
#[serde(deny_unknown_fields)]
pub struct SummaryRow {
    /// Agent label.
    pub agent: String,
    /// Level, or `all`.
    pub level: String,
    /// Episodes played.
    pub episodes: usize,
    /// Wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses.
    pub losses: usize,
    /// Wins / episodes.
    pub win_rate: f64,
    /// Lower end of the 95% Wilson interval of the win rate.
    pub win_rate_lo: f64,
    /// Upper end of the 95% Wilson interval of the win rate.
    pub win_rate_hi: f64,
    /// Mean final score.
    pub mean_score: f64,
    /// Mean steps (ticks played) per episode.
    pub mean_steps: f64,
    /// Mean act time over all acts, ms.
    pub mean_act_ms: f64,
    /// Longest act, ms.
    pub max_act_ms: f64,
    /// Acts past the soft budget (within the hard limit).
    pub overruns: u64,
    /// Inits past their soft budget (within the hard limit).
    pub init_overruns: u64,
    /// Episodes lost on time: disqualified (hard limit), timeout (no
    /// answer), or time-forfeit (`on_overrun = "loss"`).
    pub disqualifications: usize,
    /// Episodes ended by a crash (or the memory limit).
    pub crashes: usize,
    /// Episodes ended by an illegal move.
    pub illegal_moves: usize,
    /// Episodes ended by bad output (unreadable answers, output limits).
    pub bad_output: usize,
    /// Episodes ended by any other failure (the agent could not start).
    pub other_failures: usize,
    /// Processes the agent left behind, over all episodes (killed by arena).
    pub leaked: u64,
    /// Mean nodes expanded, where reported.
    pub mean_expanded: Option<f64>,
}

/// The 95% Wilson score interval of `wins` successes in `n` trials.
pub fn wilson(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n_f = n as f64;
    let p = wins as f64 / n_f;
    let denom = 1.0 + z * z / n_f;
    let center = (p + z * z / (2.0 * n_f)) / denom;
    let half = z * ((p * (1.0 - p) / n_f + z * z / (4.0 * n_f * n_f)).sqrt()) / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

fn summarize(agent: &str, level: &str, rows: &[&EpisodeRow]) -> SummaryRow {
    let n = rows.len();
    let wins = rows
        .iter()
        .filter(|r| r.result == PlayerResult::Win.as_str())
        .count();
    let draws = rows
        .iter()
        .filter(|r| r.result == PlayerResult::Draw.as_str())
        .count();
    let (lo, hi) = wilson(wins, n);
    let mean = |f: &dyn Fn(&EpisodeRow) -> f64| {
        if n == 0 {
            0.0
        } else {
            rows.iter().map(|r| f(r)).sum::<f64>() / n as f64
        }
    };
    // Mean act time weighted by acts: total act time / number of acts.
    let acts: f64 = rows
        .iter()
        .map(|r| {
            if r.mean_act_ms > 0.0 {
                r.steps as f64
            } else {
                0.0
            }
        })
        .sum();
    let act_time: f64 = rows
        .iter()
        .map(|r| {
            if r.mean_act_ms > 0.0 {
                r.mean_act_ms * r.steps as f64
            } else {
                0.0
            }
        })
        .sum();
    let expanded: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.expanded.map(|e| e as f64))
        .collect();
    let count = |outcomes: &[Outcome]| {
        rows.iter()
            .filter(|r| outcomes.iter().any(|o| r.outcome == o.as_str()))
            .count()
    };
    SummaryRow {
        agent: agent.to_string(),
        level: level.to_string(),
        episodes: n,
        wins,
        draws,
        losses: n - wins - draws,
        win_rate: round3(if n == 0 { 0.0 } else { wins as f64 / n as f64 }),
        win_rate_lo: round3(lo),
        win_rate_hi: round3(hi),
        mean_score: round3(mean(&|r| r.score)),
        mean_steps: round3(mean(&|r| r.steps as f64)),
        mean_act_ms: round3(if acts > 0.0 { act_time / acts } else { 0.0 }),
        max_act_ms: rows.iter().map(|r| r.max_act_ms).fold(0.0, f64::max),
        overruns: rows.iter().map(|r| r.overruns as u64).sum(),
        init_overruns: rows.iter().map(|r| r.init_overrun as u64).sum(),
        disqualifications: count(&[
            Outcome::Disqualified,
            Outcome::Timeout,
            Outcome::TimeForfeit,
            Outcome::Forfeited,
        ]),
        crashes: count(&[Outcome::Crash, Outcome::MemoryLimit]),
        illegal_moves: count(&[Outcome::IllegalMove]),
        bad_output: count(&[Outcome::BadOutput, Outcome::OutputLimit]),
        other_failures: count(&[Outcome::SpawnFailed]),
        leaked: rows.iter().map(|r| r.leaked as u64).sum(),
        mean_expanded: if expanded.is_empty() {
            None
        } else {
            Some(round3(expanded.iter().sum::<f64>() / expanded.len() as f64))
        },
    }
}

/// Summary rows: per agent (config order), per level (config order), then `all`.
pub fn summary(keys: &RunKeys, rows: &[EpisodeRow]) -> Vec<SummaryRow> {
    let mut out = Vec::new();
    for label in &keys.labels {
        let mine: Vec<&EpisodeRow> = rows.iter().filter(|r| &r.agent == label).collect();
        for level in &keys.levels {
            let at: Vec<&EpisodeRow> = mine.iter().copied().filter(|r| &r.level == level).collect();
            if !at.is_empty() {
                out.push(summarize(label, level, &at));
            }
        }
        out.push(summarize(label, "all", &mine));
    }
    out
}

/// One row of `crosstable.csv` (two-player games).
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
/// A column this arena does not write is an error when read back (a
/// renamed column is never read as an empty or zero value).
#[serde(deny_unknown_fields)]
pub struct CrossRow {
    /// Agent label.
    pub agent: String,
    /// Opponent label.
    pub opponent: String,
    /// Games played against that opponent.
    pub games: usize,
    /// Wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses.
    pub losses: usize,
    /// (wins + draws / 2) / games.
    pub points_rate: f64,
    /// Wins / games.
    pub win_rate: f64,
    /// Lower end of the 95% Wilson interval of the win rate.
    pub win_rate_lo: f64,
    /// Upper end of the 95% Wilson interval of the win rate.
    pub win_rate_hi: f64,
    /// Wins, draws, losses in seat 0 (Xiangqi: Red; moves first).
    pub first_wdl: String,
    /// Wins, draws, losses in seat 1 (Xiangqi: Black).
    pub second_wdl: String,
}

/// `W-D-L` of `games` (a cross-table cell).
fn wdl(games: &[&EpisodeRow]) -> String {
    let w = games.iter().filter(|r| r.result == "win").count();
    let d = games.iter().filter(|r| r.result == "draw").count();
    format!("{w}-{d}-{}", games.len() - w - d)
}

/// Cross-table rows for every ordered pair of agents that met.
pub fn crosstable(keys: &RunKeys, rows: &[EpisodeRow]) -> Vec<CrossRow> {
    let mut out = Vec::new();
    for a in &keys.labels {
        for b in &keys.labels {
            if a == b {
                continue;
            }
            let games: Vec<&EpisodeRow> = rows
                .iter()
                .filter(|r| &r.agent == a && &r.opponent == b)
                .collect();
            if games.is_empty() {
                continue;
            }
            let n = games.len();
            let wins = games.iter().filter(|r| r.result == "win").count();
            let draws = games.iter().filter(|r| r.result == "draw").count();
            let (lo, hi) = wilson(wins, n);
            out.push(CrossRow {
                agent: a.clone(),
                opponent: b.clone(),
                games: n,
                wins,
                draws,
                losses: n - wins - draws,
                points_rate: round3((wins as f64 + draws as f64 / 2.0) / n as f64),
                win_rate: round3(wins as f64 / n as f64),
                win_rate_lo: round3(lo),
                win_rate_hi: round3(hi),
                first_wdl: wdl(&games
                    .iter()
                    .copied()
                    .filter(|r| r.seat == 0)
                    .collect::<Vec<_>>()),
                second_wdl: wdl(&games
                    .iter()
                    .copied()
                    .filter(|r| r.seat == 1)
                    .collect::<Vec<_>>()),
            });
        }
    }
    out
}

/// Write any serializable rows to a CSV file.
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), HarnessError> {
    let err = |source| HarnessError::Csv {
        path: path.to_path_buf(),
        source,
    };
    let mut w = csv::Writer::from_path(path).map_err(err)?;
    for r in rows {
        w.serialize(r).map_err(err)?;
    }
    w.flush().map_err(|e| HarnessError::io(path, e))
}

/// The summary as an aligned text table (the `all` rows, or every row when
/// `per_level`).
pub fn summary_table(rows: &[SummaryRow], per_level: bool) -> String {
    let with_expanded = rows.iter().any(|r| r.mean_expanded.is_some());
    let mut header = vec![
        "agent",
        "level",
        "episodes",
        "win rate (95% CI)",
        "mean score",
        "mean steps",
        "mean act ms",
        "max act ms",
        "overruns",
        "DQ",
        "crash",
        "illegal",
        "fail",
    ];
    let with_leaked = rows.iter().any(|r| r.leaked > 0);
    if with_leaked {
        header.push("leaked");
    }
    if with_expanded {
        header.push("mean expanded");
    }
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for r in rows.iter().filter(|r| per_level || r.level == "all") {
        let mut line = vec![
            r.agent.clone(),
            r.level.clone(),
            r.episodes.to_string(),
            format!(
                "{:.2} ({:.2}-{:.2})",
                r.win_rate, r.win_rate_lo, r.win_rate_hi
            ),
            format!("{:.2}", r.mean_score),
            format!("{:.1}", r.mean_steps),
            format!("{:.2}", r.mean_act_ms),
            format!("{:.2}", r.max_act_ms),
            if r.init_overruns > 0 {
                format!("{}+{} init", r.overruns, r.init_overruns)
            } else {
                r.overruns.to_string()
            },
            r.disqualifications.to_string(),
            r.crashes.to_string(),
            r.illegal_moves.to_string(),
            (r.bad_output + r.other_failures).to_string(),
        ];
        if with_leaked {
            line.push(r.leaked.to_string());
        }
        if with_expanded {
            line.push(
                r.mean_expanded
                    .map(|e| format!("{e:.0}"))
                    .unwrap_or_default(),
            );
        }
        lines.push(line);
    }
    align(&lines)
}

/// The cross-table as aligned text.
pub fn crosstable_table(rows: &[CrossRow]) -> String {
    let mut lines: Vec<Vec<String>> = vec![[
        "agent",
        "opponent",
        "games",
        "W",
        "D",
        "L",
        "points",
        "win rate (95% CI)",
        "as first W-D-L",
        "as second W-D-L",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()];
    for r in rows {
        lines.push(vec![
            r.agent.clone(),
            r.opponent.clone(),
            r.games.to_string(),
            r.wins.to_string(),
            r.draws.to_string(),
            r.losses.to_string(),
            format!("{:.3}", r.points_rate),
            format!(
                "{:.2} ({:.2}-{:.2})",
                r.win_rate, r.win_rate_lo, r.win_rate_hi
            ),
            r.first_wdl.clone(),
            r.second_wdl.clone(),
        ]);
    }
    align(&lines)
}

pub(crate) fn align(lines: &[Vec<String>]) -> String {
    let cols = lines[0].len();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for l in lines {
        let cells: Vec<String> = l
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c < 2 {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_known_values() {
        let (lo, hi) = wilson(5, 10);
        assert!(
            (lo - 0.2366).abs() < 1e-3 && (hi - 0.7634).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(10, 10);
        assert!(
            (lo - 0.7225).abs() < 1e-3 && (hi - 1.0).abs() < 1e-9,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 0.0));
    }

    #[test]
    fn percentile_nearest_rank() {
        let xs: Vec<f64> = (1..=100).map(|x| x as f64).collect();
        assert_eq!(percentile(&xs, 99.0), 99.0);
        assert_eq!(percentile(&xs, 100.0), 100.0);
        assert_eq!(percentile(&[3.0], 99.0), 3.0);
        assert_eq!(percentile(&[], 99.0), 0.0);
    }
}
