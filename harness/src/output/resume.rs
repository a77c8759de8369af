//! What a results folder holds before a run: nothing (a new run), the
//! journal of the same config and the same agents (the run continues), or
//! something else (the run refuses, unless told to start over). A results
//! folder is never silently mixed: see [`prepare`].
//!
//! The same agents: their identities in `meta.json` ([`crate::output::identity`]:
//! a built-in agent's parameters and arena's version, an external agent's
//! files) equal the config's now. A `meta.json` that predates them
//! continues unchecked, with a warning, and records them from then on.

use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::output::journal;
use crate::output::meta::{self, RunMeta};
use crate::output::reporters::EpisodesCsv;
use crate::play::runner::EpisodeRecord;
use crate::play::schedule::Episode;
use std::path::Path;

/// How a run treats an existing results folder (flags `--resume`,
/// `--restart`; neither: [`Resume::Auto`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Resume {
    /// Continue the run of the same config if there is one; start a new
    /// run in an empty or missing folder; refuse anything else.
    #[default]
    Auto,
    /// Continue; refuse when there is nothing to continue.
    Require,
    /// Clear what an earlier run wrote and start over.
    Restart,
}

/// Where a run starts from.
#[derive(Debug)]
pub struct Start {
    /// Episodes already finished, from the journal (each once).
    pub done: Vec<EpisodeRecord>,
    /// Bytes of the journal to keep (its whole lines).
    pub keep: u64,
    /// The run's metadata (a new run's, or the continued run's).
    pub meta: RunMeta,
}

pub use super::files::run_files;

/// Decide how the run of `cfg` into `dir` starts, given `how`; the whole
/// plan is `plan`, of which the run plays `cfg.shard`'s part (journaled
/// episodes must be in that part, unchanged). A run of another config, or
/// of the same config with an agent that changed, is refused (exit code 2,
/// naming what changed). Continuing counts as a resume only when something
/// is left to play.
pub fn prepare(
    cfg: &RunConfig,
    dir: &Path,
    players: usize,
    plan: &[Episode],
    how: Resume,
) -> Result<Start, HarnessError> {
    if how == Resume::Restart {
        clear(dir)?;
    }
    let mine = |e: &Episode| cfg.shard.is_none_or(|s| s.selects(e));
    let mut fresh = RunMeta::new(cfg, players, plan.iter().filter(|e| mine(e)).count());
    fresh.shard = cfg.shard.map(|s| meta::ShardMeta::new(s, plan));
    let Some(mut old) = RunMeta::read(dir)? else {
        if how == Resume::Require {
            return Err(HarnessError::ResultsFolder(format!(
                "--resume: {} holds no run to continue (no {})",
                dir.display(),
                meta::FILE
            )));
        }
        if has_entries(dir) {
            return Err(HarnessError::ResultsFolder(format!(
                "{} already holds files, but no run of arena ({} is missing): \
                 use --out for another folder, or --restart to clear the files arena writes",
                dir.display(),
                meta::FILE
            )));
        }
        return Ok(Start {
            done: Vec::new(),
            keep: 0,
            meta: fresh,
        });
    };
    // The config's fingerprint in the version the folder was written with
    // (an earlier arena's folder resumes).
    let Some((now, now_hash)) =
        crate::output::fingerprint::of_version(cfg, old.fingerprint_version)
    else {
        return Err(HarnessError::ResultsFolder(format!(
            "{} was written by a newer arena (fingerprint version {}, this one knows up to {}); \
             use that arena, or --restart to start over",
            dir.join(meta::FILE).display(),
            old.fingerprint_version,
            crate::output::fingerprint::VERSION
        )));
    };
    if old.config_hash != now_hash {
        let changes = meta::differences(&old.config, &now);
        return Err(HarnessError::ResultsFolder(format!(
            "{} holds a run of a different config ({}); use --restart to start over, \
             or --out for another folder",
            dir.display(),
            if changes.is_empty() {
                "the config changed".to_string()
            } else {
                changes.join("; ")
            }
        )));
    }
    match (&old.agents, &fresh.agents) {
        (Some(was), Some(now)) => {
            let changes = crate::output::identity::changes(was, now);
            if !changes.is_empty() {
                return Err(HarnessError::ResultsFolder(format!(
                    "{}: --restart to play again, or --out for another folder \
                     ({} holds the games of the earlier version)",
                    changes.join("; "),
                    dir.display()
                )));
            }
        }
        (None, now) => {
            eprintln!(
                "warning: {} was written by an arena that did not record what its agents are: \
                 continuing without checking them (--restart plays them again); recorded from now on",
                dir.join(meta::FILE).display()
            );
            old.agents.clone_from(now);
        }
        (Some(_), None) => {}
    }
    let part = |m: &RunMeta| match &m.shard {
        Some(s) => format!("shard {}/{}", s.k, s.n),
        None => "the whole plan".to_string(),
    };
    if old.shard != fresh.shard {
        return Err(HarnessError::ResultsFolder(format!(
            "{} holds {} of this config, not {}; use --out for another folder \
             (or --restart to start over)",
            dir.display(),
            part(&old),
            part(&fresh)
        )));
    }
    let read = journal::read(&dir.join(journal::FILE))?;
    let mut seen = vec![false; plan.len()];
    let mut done = Vec::new();
    for rec in read.records {
        let i = rec.episode.index;
        match plan.get(i) {
            Some(planned) if *planned == rec.episode && mine(planned) => {
                if !std::mem::replace(&mut seen[i], true) {
                    done.push(rec);
                }
            }
            _ => {
                return Err(HarnessError::ResultsFolder(format!(
                    "{}: episode {i} does not match the plan of this config; \
                     use --restart to start over",
                    dir.join(journal::FILE).display()
                )))
            }
        }
    }
    if done.len() < fresh.planned {
        old.resumed += 1;
    }
    old.status = "running".into();
    old.ended.clear();
    old.finished = done.len();
    // The host may have changed between the parts of a run.
    old.host = fresh.host;
    old.cpu_model = fresh.cpu_model;
    old.cores = fresh.cores;
    old.arena_version = fresh.arena_version;
    old.git_commit = fresh.git_commit;
    Ok(Start {
        done,
        keep: read.good_len,
        meta: old,
    })
}

fn has_entries(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some())
}

/// Remove what an arena run wrote into `dir` (its files and `logs/`), and
/// nothing else; refuse a folder that holds none of them.
pub fn clear(dir: &Path) -> Result<(), HarnessError> {
    if !dir.exists() {
        return Ok(());
    }
    let files = run_files();
    let ours = |name: &str| files.contains(&name) || name == "logs" || name.ends_with(".tmp");
    let entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| HarnessError::io(dir, e))?
        .filter_map(|e| e.ok())
        .collect();
    if !entries.is_empty()
        && !entries.iter().any(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n == meta::FILE || n == EpisodesCsv::FILE)
        })
    {
        return Err(HarnessError::ResultsFolder(format!(
            "--restart: {} does not look like an arena results folder (no {} or {}); \
             not clearing it",
            dir.display(),
            meta::FILE,
            EpisodesCsv::FILE
        )));
    }
    for e in entries {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        if !ours(name) {
            continue;
        }
        let p = e.path();
        let r = if p.is_dir() {
            std::fs::remove_dir_all(&p)
        } else {
            std::fs::remove_file(&p)
        };
        r.map_err(|err| HarnessError::io(&p, err))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_restart_clears_are_those_the_reporters_write_each_once() {
        let mut files = run_files();
        let n = files.len();
        files.sort_unstable();
        files.dedup();
        assert_eq!(files.len(), n, "a file declared twice: {files:?}");
        assert_eq!(
            files,
            [
                "config.toml",
                "crosstable.csv",
                "episodes.csv",
                "journal.jsonl",
                "meta.json",
                "moves.jsonl",
                "ratings.csv",
                "replays.jsonl.gz",
                "report.html",
                "summary.csv",
            ]
        );
    }
}
