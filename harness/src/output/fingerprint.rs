//! The fingerprint of a run: what decides its results (game, format,
//! levels, repetitions, seed, step limit, time limits, agents with their
//! parameters or programs), as an explicit serde struct ([`Fingerprint`])
//! whose JSON names are fixed. Its hash gates resume ([`crate::output::resume`])
//! and merge ([`crate::output::merge`]); it is kept in `meta.json` with its
//! version.
//!
//! - Paths (level files, an external agent's working folder, a sandbox
//!   mount's source) are written relative to the config file's folder, so
//!   a results folder moved together with its config (or a checkout moved)
//!   keeps its fingerprint. A path that shares nothing with that folder but
//!   the root (`/usr/games/fairy-stockfish`) stays absolute.
//! - The hash is FNV-1a 64 of the canonical JSON: objects with their keys
//!   sorted, so the order of the struct's fields does not matter either.
//! - Version 1 (arena before the struct) hashed a `json!` object holding
//!   `Debug` output; it is still computed ([`v1`]) only to accept a results
//!   folder written then ([`of_version`]).
//!
//! Not part of it: the run's name, concurrency, replays, log folder and
//! shard (every shard of a tournament has the same fingerprint).

use crate::config::{AgentKind, RunConfig};
use crate::external::{ExternalSpec, Protocol};
use crate::play::schedule::Format;
use crate::play::timing::TimeLimits;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// The version written by this arena.
pub const VERSION: u32 = 2;

/// What defines a run (version [`VERSION`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fingerprint {
    /// The game's registry name.
    #[serde(rename = "game")]
    pub game: String,
    /// The format's config name (`benchmark`, `round-robin`, `gauntlet`,
    /// `versus`).
    #[serde(rename = "format")]
    pub format: String,
    /// A gauntlet's `gauntlet_seeds`.
    #[serde(rename = "gauntlet_seeds", skip_serializing_if = "Option::is_none")]
    pub gauntlet_seeds: Option<usize>,
    /// A grading run's number of submissions ([`Format::Versus`]).
    #[serde(rename = "challengers", skip_serializing_if = "Option::is_none")]
    pub challengers: Option<usize>,
    /// Whether the two games of an encounter are a pair.
    #[serde(rename = "pairs")]
    pub pairs: bool,
    /// Openings instead of levels.
    #[serde(rename = "openings")]
    pub openings: Option<OpeningsPrint>,
    /// The levels (built-in names, or files relative to the config's folder).
    #[serde(rename = "levels")]
    pub levels: Vec<String>,
    /// Repetitions per lineup and level.
    #[serde(rename = "repetitions")]
    pub repetitions: u32,
    /// The master seed.
    #[serde(rename = "seed")]
    pub seed: u64,
    /// The game-length limit.
    #[serde(rename = "max_steps")]
    pub max_steps: Option<u32>,
    /// Games lost unplayed after this many consecutive timeouts.
    #[serde(
        rename = "forfeit_after_timeouts",
        skip_serializing_if = "Option::is_none"
    )]
    pub forfeit_after_timeouts: Option<u32>,
    /// The sequential test.
    #[serde(rename = "sprt")]
    pub sprt: Option<crate::stats::SprtConfig>,
    /// The run's default time limits.
    #[serde(rename = "time")]
    pub time: TimePrint,
    /// The agents, in config order.
    #[serde(rename = "agents")]
    pub agents: Vec<AgentPrint>,
}

/// Openings in a fingerprint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningsPrint {
    /// `sequential` or `random`.
    #[serde(rename = "order")]
    pub order: String,
    /// The start positions, in file order.
    #[serde(rename = "specs")]
    pub specs: Vec<String>,
}

/// Time limits in a fingerprint (durations as `humantime` writes them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimePrint {
    /// Soft budget per act.
    #[serde(rename = "act")]
    pub act: String,
    /// Hard limit per act.
    #[serde(rename = "act_hard")]
    pub act_hard: String,
    /// Soft budget of the init.
    #[serde(rename = "init")]
    pub init: String,
    /// Hard limit of the init.
    #[serde(rename = "init_hard")]
    pub init_hard: String,
    /// The clock's config name.
    #[serde(rename = "clock")]
    pub clock: String,
    /// What an overrun costs, by its config name.
    #[serde(rename = "on_overrun")]
    pub on_overrun: String,
    /// Under the counted clock only, what one look at the timer costs
    /// (absent otherwise, so that other runs' fingerprints are unchanged).
    #[serde(rename = "counted_step", skip_serializing_if = "Option::is_none")]
    pub counted_step: Option<String>,
}

/// One agent in a fingerprint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentPrint {
    /// Its label.
    #[serde(rename = "label")]
    pub label: String,
    /// What it is.
    #[serde(rename = "agent")]
    pub agent: AgentDef,
    /// Its time limits.
    #[serde(rename = "time")]
    pub time: TimePrint,
}

/// What an agent is, in a fingerprint.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind")]
pub enum AgentDef {
    /// A built-in agent: its name and parameters.
    #[serde(rename = "built-in")]
    BuiltIn {
        /// Registry name.
        #[serde(rename = "name")]
        name: String,
        /// Parameters, by name.
        #[serde(rename = "params")]
        params: BTreeMap<String, Value>,
    },
    /// An external program and how it is run.
    #[serde(rename = "external")]
    External(Box<ExternalPrint>),
}

/// An external agent in a fingerprint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExternalPrint {
    /// The command.
    #[serde(rename = "command")]
    pub command: Vec<String>,
    /// The protocol's config name.
    #[serde(rename = "protocol")]
    pub protocol: String,
    /// Botzone's mode.
    #[serde(rename = "botzone_mode", skip_serializing_if = "Option::is_none")]
    pub botzone_mode: Option<String>,
    /// UCI/UCCI settings: options, FEN letters, movetime margin (‰), and
    /// a fixed search where set.
    #[serde(rename = "engine", skip_serializing_if = "Option::is_none")]
    pub engine: Option<Value>,
    /// The working folder, relative to the config's folder.
    #[serde(rename = "workdir")]
    pub workdir: String,
    /// The sandbox's config name.
    #[serde(rename = "sandbox")]
    pub sandbox: String,
    /// The process limits.
    #[serde(rename = "limits")]
    pub limits: Value,
    /// Extra environment, in config order.
    #[serde(rename = "env")]
    pub env: Vec<(String, String)>,
    /// Whether the working folder is writable.
    #[serde(rename = "writable_workdir")]
    pub writable_workdir: bool,
    /// Read-only mounts, `(source, target)`.
    #[serde(rename = "mounts")]
    pub mounts: Vec<(String, String)>,
}

/// The fingerprint of `cfg`.
pub fn of(cfg: &RunConfig) -> Fingerprint {
    let base = config_dir(&cfg.source);
    let (gauntlet_seeds, challengers) = match cfg.format {
        Format::Gauntlet { seeds } => (Some(seeds), None),
        Format::Versus { challengers } => (None, Some(challengers)),
        Format::Benchmark | Format::RoundRobin => (None, None),
    };
    Fingerprint {
        game: cfg.game.to_string(),
        format: cfg.format.as_str().to_string(),
        gauntlet_seeds,
        challengers,
        pairs: cfg.pairs,
        openings: cfg.openings.as_ref().map(|o| OpeningsPrint {
            order: o.order.as_str().to_string(),
            specs: o.specs.clone(),
        }),
        levels: cfg.levels.iter().map(|l| level(&base, l)).collect(),
        repetitions: cfg.repetitions,
        seed: cfg.seed,
        max_steps: cfg.max_steps,
        forfeit_after_timeouts: cfg.forfeit_after_timeouts,
        sprt: cfg.sprt.clone(),
        time: time(&cfg.time),
        agents: cfg
            .agents
            .iter()
            .map(|a| AgentPrint {
                label: a.label.clone(),
                agent: match &a.kind {
                    AgentKind::BuiltIn { name, params } => AgentDef::BuiltIn {
                        name: name.clone(),
                        params: params.iter().map(|(k, v)| (k.clone(), param(v))).collect(),
                    },
                    AgentKind::External(spec) => external(&base, spec),
                },
                time: time(&a.time),
            })
            .collect(),
    }
}

/// `cfg`'s fingerprint in `version`, as kept in `meta.json`, with its
/// hash; `None` for a version this arena does not know (a newer one).
pub fn of_version(cfg: &RunConfig, version: u32) -> Option<(Value, String)> {
    match version {
        1 => {
            let v = v1(cfg);
            let h = crate::digest::hash(&v.to_string());
            Some((v, h))
        }
        VERSION => {
            let v = serde_json::to_value(of(cfg)).unwrap_or(Value::Null);
            let h = hash(&v);
            Some((v, h))
        }
        _ => None,
    }
}

/// The hash of a fingerprint: FNV-1a 64 (hex) of its canonical JSON.
pub fn hash(print: &Value) -> String {
    crate::digest::hash(&canonical(print))
}

/// `v` as JSON text with every object's keys sorted.
pub fn canonical(v: &Value) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&m[k])))
                        .collect(),
                )
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(v).to_string()
}

fn time(t: &TimeLimits) -> TimePrint {
    let d = |d: Duration| humantime::format_duration(d).to_string();
    TimePrint {
        act: d(t.act),
        act_hard: d(t.act_hard),
        init: d(t.init),
        init_hard: d(t.init_hard),
        clock: t.clock.as_str().to_string(),
        on_overrun: t.on_overrun.as_str().to_string(),
        counted_step: (t.clock == crate::config::Clock::Counted).then(|| d(t.counted_step)),
    }
}

fn param(v: &agents::ParamValue) -> Value {
    match v {
        agents::ParamValue::Int(i) => json!(i),
        agents::ParamValue::Float(f) => json!(f),
        agents::ParamValue::Bool(b) => json!(b),
        agents::ParamValue::Str(s) => json!(s),
    }
}

fn external(base: &Path, spec: &ExternalSpec) -> AgentDef {
    let (botzone_mode, engine) = match &spec.protocol {
        Protocol::Jsonl => (None, None),
        Protocol::Botzone { mode } => (Some(mode.as_str().to_string()), None),
        Protocol::Uci(s) | Protocol::Ucci(s) => {
            let mut engine = json!({
                "options": s.options,
                "fen_letters": s.fen_letters.as_string(),
                "margin_permille": s.margin_permille,
            });
            // Only where set, so that other runs' fingerprints are unchanged.
            if let Some(search) = s.search {
                engine["search"] = json!(search.go_args());
            }
            (None, Some(engine))
        }
    };
    let l = &spec.limits;
    AgentDef::External(Box::new(ExternalPrint {
        command: spec.command.clone(),
        protocol: spec.protocol.kind().as_str().to_string(),
        botzone_mode,
        engine,
        workdir: relative(base, &spec.workdir),
        sandbox: spec.sandbox.as_str().to_string(),
        limits: json!({
            "memory_mb": l.memory_mb,
            "cpu_seconds": l.cpu_seconds,
            "max_processes": l.max_processes,
            "max_file_mb": l.max_file_mb,
            "max_line_kb": l.max_line_kb,
            "max_output_kb": l.max_output_kb,
            "max_stderr_kb": l.max_stderr_kb,
            "grace": humantime::format_duration(l.grace).to_string(),
        }),
        env: spec.env.clone(),
        writable_workdir: spec.writable_workdir,
        mounts: spec
            .mounts
            .iter()
            .map(|m| {
                (
                    relative(base, &m.source),
                    m.target.to_string_lossy().into_owned(),
                )
            })
            .collect(),
    }))
}

/// The config file's folder, absolute (as given when it cannot be resolved).
fn config_dir(source: &Path) -> PathBuf {
    let dir = match source.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// A level spec with a file in it (`FILE` or `FILE:N`) written relative to
/// `base`; a built-in level name as it is.
fn level(base: &Path, spec: &str) -> String {
    if Path::new(spec).exists() {
        return relative(base, Path::new(spec));
    }
    match spec.rsplit_once(':') {
        Some((f, n)) if n.parse::<usize>().is_ok() && Path::new(f).is_file() => {
            format!("{}:{n}", relative(base, Path::new(f)))
        }
        _ => spec.to_string(),
    }
}

/// `path` relative to `base` (both made absolute), `/`-separated; absolute
/// when the two share only the root, or when `path` cannot be resolved.
pub fn relative(base: &Path, path: &Path) -> String {
    let Ok(path) = std::fs::canonicalize(path) else {
        return path.to_string_lossy().into_owned();
    };
    let b: Vec<Component> = base.components().collect();
    let p: Vec<Component> = path.components().collect();
    let common = b.iter().zip(&p).take_while(|(x, y)| x == y).count();
    let shares_a_folder = b
        .iter()
        .take(common)
        .any(|c| matches!(c, Component::Normal(_)));
    if !shares_a_folder {
        return path.to_string_lossy().into_owned();
    }
    let mut parts: Vec<String> = vec!["..".to_string(); b.len() - common];
    parts.extend(
        p[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// Version 1 of the fingerprint (`meta.json` without `fingerprint_version`):
/// a `json!` object with `Debug` output in it, hashed as written. Kept only
/// to recognise a results folder written by that arena.
pub fn v1(cfg: &RunConfig) -> Value {
    let time = |t: &TimeLimits| {
        json!({
            "act": format!("{:?}", t.act),
            "act_hard": format!("{:?}", t.act_hard),
            "init": format!("{:?}", t.init),
            "init_hard": format!("{:?}", t.init_hard),
            "clock": t.clock.as_str(),
            "on_overrun": t.on_overrun.as_str(),
        })
    };
    let mut print = json!({
        "game": cfg.game,
        "format": format!("{:?}", cfg.format),
        "pairs": cfg.pairs,
        "openings": cfg.openings.as_ref().map(|o| json!({"order": o.order.as_str(), "specs": o.specs})),
        "levels": cfg.levels,
        "repetitions": cfg.repetitions,
        "seed": cfg.seed,
        "max_steps": cfg.max_steps,
        "sprt": cfg.sprt,
        "time": time(&cfg.time),
        "agents": cfg.agents.iter().map(|a| json!({
            "label": a.label,
            "agent": format!("{:?}", a.kind),
            "time": time(&a.time),
        })).collect::<Vec<_>>(),
    });
    // Only when set, so that the hash of a config without it is unchanged.
    if let Some(k) = cfg.forfeit_after_timeouts {
        print["forfeit_after_timeouts"] = json!(k);
    }
    print
}

#[cfg(test)]
mod tests;
