//! `arena run`: load a config, plan, play, report.

use crate::cli::RunArgs;
use crate::config::{self, RunConfig};
use crate::error::HarnessError;
use crate::games::ArenaGame;
use crate::report::{self, EpisodeRow, EpisodeWriter};
use crate::runner::{self, run_tournament};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C (see [`install_interrupt_handler`]): no new
/// episodes start, running ones finish and are written, the summary is
/// written, and `arena` exits with [`crate::exit::INTERRUPTED`].
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Install the Ctrl-C handler: the first press stops the run gracefully
/// (finished episodes are never lost), a second press exits at once.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(crate::exit::INTERRUPTED);
        }
        eprintln!("\ninterrupted: finishing running episodes (Ctrl-C again to quit at once)");
    });
}

/// How progress is shown on the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// An indicatif bar with ETA on stderr.
    Bar,
    /// Nothing while running.
    Silent,
}

/// Decide how to show progress: a bar only on an interactive stderr, outside
/// CI, and unless asked to be quiet. A pure function so that every case is tested.
pub fn progress_mode(stderr_is_terminal: bool, is_ci: bool, quiet: bool) -> ProgressMode {
    if stderr_is_terminal && !is_ci && !quiet {
        ProgressMode::Bar
    } else {
        ProgressMode::Silent
    }
}

/// What a finished run produced.
#[derive(Debug)]
pub struct RunOutput {
    /// Whether every planned episode was played (false after Ctrl-C).
    pub complete: bool,
    /// The folder the tables were written to.
    pub dir: PathBuf,
    /// Every episode row.
    pub rows: Vec<EpisodeRow>,
    /// The summary rows.
    pub summary: Vec<report::SummaryRow>,
    /// The cross-table rows (two-player games).
    pub crosstable: Vec<report::CrossRow>,
}

/// Apply the command-line overrides to a loaded config.
pub fn apply_overrides(cfg: &mut RunConfig, args: &RunArgs) {
    if let Some(n) = &args.name {
        cfg.name = n.clone();
    }
    if let Some(c) = args.concurrency {
        cfg.concurrency = c.max(1);
    }
    if let Some(s) = args.seed {
        cfg.seed = s;
    }
    if let Some(r) = args.repetitions {
        cfg.repetitions = r.max(1);
    }
}

/// `arena run`: play the tournament and write the tables.
pub fn run(args: &RunArgs, out: &mut dyn Write) -> Result<RunOutput, HarnessError> {
    let mut cfg = config::load(&args.config)?;
    apply_overrides(&mut cfg, args);
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&cfg.name));
    let mode = progress_mode(
        std::io::stderr().is_terminal(),
        std::env::var_os("CI").is_some(),
        args.quiet,
    );
    let result = crate::with_game!(cfg.game, G => run_config::<G>(&cfg, &dir, mode))?;
    if !args.quiet {
        let io = |e| HarnessError::io("<stdout>", e);
        writeln!(
            out,
            "{} on {}: {} episodes -> {}",
            cfg.name,
            cfg.game,
            result.rows.len() / players_of(&result),
            dir.display()
        )
        .map_err(io)?;
        write!(out, "{}", report::summary_table(&result.summary, false)).map_err(io)?;
        if !result.crosstable.is_empty() {
            writeln!(out).map_err(io)?;
            write!(out, "{}", report::crosstable_table(&result.crosstable)).map_err(io)?;
        }
    }
    if !result.complete {
        return Err(HarnessError::Interrupted(format!(
            "interrupted: {} finished episode rows kept in {}",
            result.rows.len(),
            result.dir.display()
        )));
    }
    Ok(result)
}

fn players_of(r: &RunOutput) -> usize {
    r.rows.iter().map(|x| x.seat + 1).max().unwrap_or(1)
}

/// Play a resolved config and write every table into `dir`.
pub fn run_config<G: ArenaGame>(
    cfg: &RunConfig,
    dir: &std::path::Path,
    mode: ProgressMode,
) -> Result<RunOutput, HarnessError> {
    let mut cfg_logs = cfg.clone();
    cfg_logs.log_dir = Some(dir.join("logs"));
    let cfg = &cfg_logs;
    let players = G::load_level(&cfg.levels[0], cfg.seed)?.num_players();
    let episodes = runner::plan(cfg, players);
    let mut writer = EpisodeWriter::create(dir)?;
    // Keep the config next to the results, so a table can always be traced back.
    let cfg_copy = dir.join("config.toml");
    std::fs::copy(&cfg.source, &cfg_copy).map_err(|e| HarnessError::io(&cfg_copy, e))?;
    let bar = match mode {
        ProgressMode::Bar => {
            let b = indicatif::ProgressBar::new(episodes.len() as u64);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{spinner} {msg} [{bar:30}] {pos}/{len} episodes, {elapsed} elapsed, ETA {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            b.set_message(format!("{} ({})", cfg.name, cfg.game));
            Some(b)
        }
        ProgressMode::Silent => None,
    };
    let mut rows: Vec<EpisodeRow> = Vec::new();
    let mut write_err: Option<HarnessError> = None;
    let played = run_tournament::<G>(cfg, &episodes, &INTERRUPTED, &mut |rec| {
        let new_rows = report::episode_rows(cfg, &rec);
        if write_err.is_none() {
            if let Err(e) = writer.write(cfg, &rec, &new_rows) {
                write_err = Some(e);
                INTERRUPTED.store(true, Ordering::Relaxed);
            }
        }
        rows.extend(new_rows);
        if let Some(b) = &bar {
            b.inc(1);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_err {
        return Err(e);
    }
    played?;
    rows.sort_by_key(|r| (r.episode, r.seat));
    let summary = report::summary(cfg, &rows);
    report::write_csv(&dir.join("summary.csv"), &summary)?;
    let crosstable = if players > 1 {
        let c = report::crosstable(cfg, &rows);
        report::write_csv(&dir.join("crosstable.csv"), &c)?;
        c
    } else {
        Vec::new()
    };
    Ok(RunOutput {
        complete: rows.len() == episodes.iter().map(|e| e.seats.len()).sum::<usize>(),
        dir: dir.to_path_buf(),
        rows,
        summary,
        crosstable,
    })
}

/// How many levels `arena list` shows per game when listing every game.
const LIST_LEVELS: usize = 8;

/// `arena list`: games, built-in levels and agents (all of a game's levels
/// when only that game is asked for).
pub fn list(game: Option<&str>, out: &mut dyn Write) -> Result<(), HarnessError> {
    let io = |e| HarnessError::io("<stdout>", e);
    let kinds: Vec<crate::games::GameKind> = match game {
        Some(g) => vec![g.parse()?],
        None => crate::games::GameKind::ALL.to_vec(),
    };
    for kind in kinds {
        crate::with_game!(kind, G => {
            writeln!(out, "{}: {}", G::NAME, G::DESCRIPTION).map_err(io)?;
            writeln!(out, "  levels:").map_err(io)?;
            let levels = G::builtin_levels();
            // A long list (Sokoban's Microban) is shortened unless this game was asked for.
            let shown = if game.is_none() && levels.len() > LIST_LEVELS {
                LIST_LEVELS - 1
            } else {
                levels.len()
            };
            for l in &levels[..shown] {
                writeln!(out, "    {:<16} {}", l.name, l.description).map_err(io)?;
            }
            if shown < levels.len() {
                let last = &levels[levels.len() - 1];
                writeln!(
                    out,
                    "    ...              {} more, to {} (`arena list {}` shows all)",
                    levels.len() - shown,
                    last.name,
                    G::NAME
                )
                .map_err(io)?;
            }
            writeln!(out, "  agents:").map_err(io)?;
            for a in G::agents() {
                writeln!(out, "    {:<16} {}", a.name, a.description).map_err(io)?;
                for p in a.params {
                    writeln!(out, "    {:<16}   param {}", "", p).map_err(io)?;
                }
            }
            writeln!(out).map_err(io)?;
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_only_on_an_interactive_terminal_outside_ci() {
        assert_eq!(progress_mode(true, false, false), ProgressMode::Bar);
        assert_eq!(progress_mode(true, true, false), ProgressMode::Silent);
        assert_eq!(progress_mode(false, false, false), ProgressMode::Silent);
        assert_eq!(progress_mode(true, false, true), ProgressMode::Silent);
        assert_eq!(progress_mode(false, true, true), ProgressMode::Silent);
    }
}
