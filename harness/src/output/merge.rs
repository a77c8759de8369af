//! `arena merge OUT_DIR SHARD_DIR...`: put the folders of a sharded run
//! (`arena run CONFIG --shard K/N`, one folder per shard) back together.
//!
//! The shards are checked first: each folder is a run of arena, all of the
//! same config (hash) and the same agents ([`crate::output::identity`], when
//! recorded) and the same split (`N`, the plan's hash), each shard
//! `0..N` given once, each finished, and their journals together hold every
//! episode of the plan exactly once, each in the shard that owns it
//! ([`crate::play::schedule::Shard`]). Anything else is an error naming the
//! folders concerned, and nothing is written.
//!
//! The merged folder then holds what a run on one machine writes: the
//! journal (episodes in plan order), `meta.json` (the shards' hosts in
//! `merged_from`), `config.toml`, and the tables, ratings, replays and report
//! written from the merged journal by `arena summarize` (which `arena
//! merge` runs next: [`crate::cli::entry`]), through the reporters of
//! `arena run`. Only timing columns and host metadata
//! differ from a one-machine run with the same seed.

use crate::error::HarnessError;
use crate::output::journal;
use crate::output::meta::{self, RunMeta, ShardMeta};
use crate::play::runner::EpisodeRecord;
use crate::play::schedule::Shard;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One shard folder, read.
struct Part {
    dir: PathBuf,
    meta: RunMeta,
    split: ShardMeta,
}

/// How many episode numbers an error lists before "...".
const LIST: usize = 10;

fn fail(problems: Vec<String>) -> Result<(), HarnessError> {
    if problems.is_empty() {
        return Ok(());
    }
    let mut msg = String::from("cannot merge the shards:");
    for p in &problems {
        msg.push_str("\n  - ");
        msg.push_str(p);
    }
    Err(HarnessError::Merge(msg))
}

fn list(xs: &[usize]) -> String {
    let mut s: Vec<String> = xs.iter().take(LIST).map(|x| x.to_string()).collect();
    if xs.len() > LIST {
        s.push(format!("... ({} in all)", xs.len()));
    }
    s.join(", ")
}

/// Read and check the shard folders (same config, same split, each shard
/// once, none missing).
fn read_parts(out_dir: &Path, dirs: &[PathBuf]) -> Result<Vec<Part>, HarnessError> {
    if dirs.is_empty() {
        return Err(HarnessError::Merge(
            "arena merge: no shard folders given".into(),
        ));
    }
    let out_canon = out_dir.canonicalize().ok();
    let mut problems = Vec::new();
    let mut parts = Vec::new();
    let mut seen: BTreeMap<PathBuf, &PathBuf> = BTreeMap::new();
    for dir in dirs {
        let Ok(canon) = dir.canonicalize() else {
            problems.push(format!("{}: no such folder", dir.display()));
            continue;
        };
        if let Some(first) = seen.insert(canon.clone(), dir) {
            let also = if first == dir {
                String::new()
            } else {
                format!(" (also as {})", first.display())
            };
            problems.push(format!(
                "{} is given twice{also}: give each shard's folder once",
                dir.display()
            ));
            continue;
        }
        if out_canon.as_ref() == Some(&canon) {
            problems.push(format!(
                "{} is both a shard and the output folder: merge into another folder",
                dir.display()
            ));
            continue;
        }
        match RunMeta::read(dir)? {
            None => problems.push(format!(
                "{} holds no run of arena (no {}): expected a folder written by \
                 `arena run CONFIG --shard K/N --out FOLDER`",
                dir.display(),
                meta::FILE
            )),
            Some(meta) => {
                let split = meta.shard.clone().unwrap_or(ShardMeta {
                    k: 0,
                    n: 1,
                    plan_episodes: meta.planned,
                    plan_hash: String::new(),
                });
                parts.push(Part {
                    dir: dir.clone(),
                    meta,
                    split,
                });
            }
        }
    }
    fail(problems)?;
    // Foreign shards: another config, or another split of it.
    let first = &parts[0];
    let mut problems = Vec::new();
    for p in &parts[1..] {
        if p.meta.fingerprint_version != first.meta.fingerprint_version {
            problems.push(format!(
                "{} and {} were written by arenas that fingerprint configs differently \
                 (versions {} and {}): play the shards with one arena version",
                first.dir.display(),
                p.dir.display(),
                first.meta.fingerprint_version,
                p.meta.fingerprint_version
            ));
        } else if p.meta.config_hash != first.meta.config_hash {
            let changes = meta::differences(&first.meta.config, &p.meta.config);
            problems.push(format!(
                "{} is a shard of another config than {} (config hash {} vs {}{}): \
                 the shards of one tournament are runs of the same config",
                p.dir.display(),
                first.dir.display(),
                p.meta.config_hash,
                first.meta.config_hash,
                if changes.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; from {} to {}: {}",
                        first.dir.display(),
                        p.dir.display(),
                        changes.join("; ")
                    )
                }
            ));
        } else if let Some(changes) = agents_changed(&first.meta, &p.meta) {
            problems.push(format!(
                "{} played other agents than {}: {changes}; the shards of one tournament \
                 play the same agents",
                p.dir.display(),
                first.dir.display()
            ));
        } else if p.split.n != first.split.n {
            problems.push(format!(
                "{} is shard {} but {} is shard {}: the shards of one merge split \
                 the plan the same way (the same N)",
                p.dir.display(),
                p.split.shard(),
                first.dir.display(),
                first.split.shard()
            ));
        } else if p.split.plan_hash != first.split.plan_hash
            || p.split.plan_episodes != first.split.plan_episodes
        {
            problems.push(format!(
                "{} planned another set of episodes than {} ({} vs {} episodes, plan hash {} \
                 vs {}): were they run by different versions of arena?",
                p.dir.display(),
                first.dir.display(),
                p.split.plan_episodes,
                first.split.plan_episodes,
                p.split.plan_hash,
                first.split.plan_hash
            ));
        }
    }
    fail(problems)?;
    // Each shard once, none missing.
    let n = first.split.n;
    let mut by_k: BTreeMap<usize, &Part> = BTreeMap::new();
    let mut problems = Vec::new();
    for p in &parts {
        if let Some(other) = by_k.insert(p.split.k, p) {
            problems.push(format!(
                "shard {} is given twice: {} and {} (each shard once)",
                p.split.shard(),
                other.dir.display(),
                p.dir.display()
            ));
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|k| !by_k.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "missing shard{} {} (of {n}: every shard 0 to {} must be given; found {})",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            n - 1,
            by_k.values()
                .map(|p| format!("{} in {}", p.split.shard(), p.dir.display()))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    fail(problems)?;
    parts.sort_by_key(|p| p.split.k);
    Ok(parts)
}

/// The shards' journals, checked: each shard finished, each episode in the
/// shard that owns it, every episode of the plan exactly once. The
/// records, in plan order.
fn read_records(parts: &[Part]) -> Result<Vec<EpisodeRecord>, HarnessError> {
    let total = parts[0].split.plan_episodes;
    let mut owner: Vec<Option<usize>> = vec![None; total];
    let mut records: Vec<Option<EpisodeRecord>> = vec![None; total];
    let mut problems = Vec::new();
    for (pi, p) in parts.iter().enumerate() {
        let shard = p.split.shard();
        let read = journal::read(&p.dir.join(journal::FILE))?;
        let mut mine = 0usize;
        let mut wrong = Vec::new();
        for rec in read.records {
            let i = rec.episode.index;
            if i >= total || (p.split.n > 1 && !shard.selects(&rec.episode)) {
                wrong.push(i);
                continue;
            }
            match owner[i] {
                Some(o) if o == pi => continue, // journaled twice by one shard: once
                Some(o) => problems.push(format!(
                    "episode {i} is in two shards: {} ({}) and {} ({})",
                    parts[o].dir.display(),
                    parts[o].split.shard(),
                    p.dir.display(),
                    shard
                )),
                None => {
                    owner[i] = Some(pi);
                    records[i] = Some(rec);
                    mine += 1;
                }
            }
        }
        if !wrong.is_empty() {
            problems.push(format!(
                "{} (shard {shard}) journaled episodes that are not its part of the plan: {}",
                p.dir.display(),
                list(&wrong)
            ));
        }
        if mine < p.meta.planned || p.meta.status != "finished" {
            problems.push(format!(
                "shard {shard} in {} is not finished: {mine} of its {} episodes (status {}); \
                 run its command again to continue it (`arena run CONFIG --shard {shard} --out {}`)",
                p.dir.display(),
                p.meta.planned,
                p.meta.status,
                p.dir.display()
            ));
        }
    }
    fail(problems)?;
    let missing: Vec<usize> = (0..total).filter(|&i| owner[i].is_none()).collect();
    if !missing.is_empty() {
        fail(vec![format!(
            "{} of the plan's {total} episodes are in no shard: {}",
            missing.len(),
            list(&missing)
        )])?;
    }
    Ok(records.into_iter().flatten().collect())
}

/// How the agents of `other` differ from those of `first`, when both
/// shards recorded them.
fn agents_changed(first: &RunMeta, other: &RunMeta) -> Option<String> {
    let (a, b) = (first.agents.as_ref()?, other.agents.as_ref()?);
    let changes = crate::output::identity::changes(a, b);
    (!changes.is_empty()).then(|| changes.join("; "))
}

/// What the merged run's `meta.json` says: the first shard's, as a whole
/// run, with the shards' hosts, times and counts.
fn merged_meta(parts: &[Part], finished: usize) -> RunMeta {
    let mut m = parts[0].meta.clone();
    let distinct = |f: &dyn Fn(&RunMeta) -> &str| {
        let mut v: Vec<&str> = Vec::new();
        for p in parts {
            let x = f(&p.meta);
            if !v.contains(&x) {
                v.push(x);
            }
        }
        v.join(", ")
    };
    m.host = distinct(&|m| m.host.as_str());
    m.cpu_model = distinct(&|m| m.cpu_model.as_str());
    m.cores = parts.iter().map(|p| p.meta.cores).max().unwrap_or(1);
    m.started = parts
        .iter()
        .map(|p| p.meta.started.clone())
        .min()
        .unwrap_or_default();
    m.ended = parts
        .iter()
        .map(|p| p.meta.ended.clone())
        .max()
        .unwrap_or_default();
    m.status = "finished".into();
    m.planned = parts[0].split.plan_episodes;
    m.finished = finished;
    m.resumed = parts.iter().map(|p| p.meta.resumed).sum();
    m.starved_acts = parts.iter().map(|p| p.meta.starved_acts).sum();
    m.infrastructure_errors = parts
        .iter()
        .flat_map(|p| p.meta.infrastructure_errors.iter().cloned())
        .collect();
    m.sprt = None;
    m.shard = None;
    m.merged_from = parts
        .iter()
        .map(|p| {
            format!(
                "shard {}: {} ({}, {})",
                p.split.shard(),
                p.dir.display(),
                p.meta.host,
                p.meta.cpu_model
            )
        })
        .collect();
    m
}

/// Make sure `out_dir` may receive a merged run: missing, or without run
/// files, or holding an earlier merge (or whole run) of the same config.
fn check_out_dir(out_dir: &Path, parts: &[Part]) -> Result<(), HarnessError> {
    match RunMeta::read(out_dir)? {
        Some(old) if old.shard.is_some() => Err(HarnessError::Merge(format!(
            "{} holds a shard ({}); merge into another folder",
            out_dir.display(),
            old.shard
                .as_ref()
                .map(|s| s.shard())
                .unwrap_or(Shard::WHOLE)
        ))),
        Some(old) if old.config_hash != parts[0].meta.config_hash => {
            Err(HarnessError::Merge(format!(
                "{} holds a run of another config; merge into another folder",
                out_dir.display()
            )))
        }
        Some(_) => Ok(()),
        None => {
            let ours = crate::output::resume::run_files()
                .into_iter()
                .find(|f| out_dir.join(f).exists());
            match ours {
                Some(f) => Err(HarnessError::Merge(format!(
                    "{} already holds {f} but no {}: merge into a new or empty folder",
                    out_dir.display(),
                    meta::FILE
                ))),
                None => Ok(()),
            }
        }
    }
}

/// `arena merge OUT_DIR SHARD_DIR...`: check the shards and write into
/// `out_dir` the journal, `meta.json`, `config.toml` and replays a
/// one-machine run of their config writes (see the module documentation),
/// and print what was merged; the tables come from `arena summarize`
/// next.
pub fn merge(out_dir: &Path, dirs: &[PathBuf], out: &mut dyn Write) -> Result<(), HarnessError> {
    let parts = read_parts(out_dir, dirs)?;
    let records = read_records(&parts)?;
    check_out_dir(out_dir, &parts)?;
    std::fs::create_dir_all(out_dir).map_err(|e| HarnessError::io(out_dir, e))?;
    // What an earlier merge wrote goes (a merge is redone whole).
    for f in crate::output::resume::run_files() {
        let p = out_dir.join(f);
        if p.is_file() {
            std::fs::remove_file(&p).map_err(|e| HarnessError::io(&p, e))?;
        }
    }
    let config = parts[0].dir.join("config.toml");
    if config.is_file() {
        let to = out_dir.join("config.toml");
        std::fs::copy(&config, &to).map_err(|e| HarnessError::io(&to, e))?;
    }
    merge_replays(out_dir, &parts)?;
    journal::write(&out_dir.join(journal::FILE), &records)?;
    merged_meta(&parts, records.len()).write(out_dir)?;
    let io = |e| HarnessError::io("<stdout>", e);
    writeln!(
        out,
        "merged {} shard{} of {} ({} episodes)",
        parts.len(),
        if parts.len() == 1 { "" } else { "s" },
        parts[0].meta.keys.name,
        records.len()
    )
    .map_err(io)?;
    Ok(())
}

/// The shards' replays in one `replays.jsonl.gz`, in plan order (when every
/// shard wrote replays).
fn merge_replays(out_dir: &Path, parts: &[Part]) -> Result<(), HarnessError> {
    let files: Vec<PathBuf> = parts
        .iter()
        .map(|p| p.dir.join(crate::output::replay::FILE_NAME))
        .collect();
    if !files.iter().all(|f| f.is_file()) {
        return Ok(());
    }
    let mut all = BTreeMap::new();
    for f in &files {
        for r in crate::output::replay::read(f)? {
            all.entry(r.episode).or_insert(r);
        }
    }
    let path = out_dir.join(crate::output::replay::FILE_NAME);
    let mut bytes = Vec::new();
    for r in all.values() {
        bytes.extend(crate::output::replay::gzip_line(r));
    }
    std::fs::write(&path, bytes).map_err(|e| HarnessError::io(&path, e))
}
