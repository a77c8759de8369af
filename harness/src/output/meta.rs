//! `meta.json`: what a run was (arena version and commit, the config's
//! fingerprint and hash, what its agents are, master seed, host, CPU, cores), when it ran, how it
//! stands (`running`, `finished`, `interrupted`, `sprt-stopped`) and its
//! counts. Written when the run is planned and again when it ends; read
//! back to decide whether a rerun resumes, and by `arena summarize`.

use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::output::rows::RunKeys;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;
use std::time::SystemTime;

/// The file name in a results folder.
pub const FILE: &str = "meta.json";

/// The contents of `meta.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunMeta {
    /// arena's version.
    pub arena_version: String,
    /// The git commit arena was built from (`unknown` outside a checkout).
    pub git_commit: String,
    /// Hash of [`RunMeta::config`] (FNV-1a 64, hex; see
    /// [`crate::output::fingerprint::hash`]).
    pub config_hash: String,
    /// What decides the results of the run: game, format, levels,
    /// repetitions, seed, step limit, time limits and agents (the
    /// [`crate::output::fingerprint::Fingerprint`] of its version).
    pub config: Value,
    /// The version of [`RunMeta::config`]: 1 (absent) for a `meta.json`
    /// written before [`crate::output::fingerprint`], else
    /// [`crate::output::fingerprint::VERSION`].
    #[serde(default = "fingerprint_v1")]
    pub fingerprint_version: u32,
    /// What the tables are keyed by (for `arena summarize`).
    pub keys: RunKeys,
    /// Seats of the game.
    pub players: usize,
    /// The master seed.
    pub seed: u64,
    /// Host name.
    pub host: String,
    /// CPU model.
    pub cpu_model: String,
    /// Logical cores.
    pub cores: usize,
    /// When the run (or its first part, when resumed) started, RFC 3339.
    pub started: String,
    /// When it last ended, RFC 3339 (empty while running).
    pub ended: String,
    /// `running`, `finished`, `interrupted` or `sprt-stopped`.
    pub status: String,
    /// Episodes planned.
    pub planned: usize,
    /// Episodes finished (in the journal).
    pub finished: usize,
    /// How many times the run was resumed.
    pub resumed: u32,
    /// Acts past the soft budget that were not charged because the time was
    /// not the agent's (on the wall clock, the machine's load kept it
    /// waiting for a CPU; or a virtual machine's host took the time).
    #[serde(default)]
    pub starved_acts: u64,
    /// The SPRT's end state, as fields (earlier versions wrote its line
    /// only: read back into fields), when there is one.
    #[serde(
        default,
        deserialize_with = "crate::output::reporters::tally::deserialize_sprt"
    )]
    pub sprt: Option<crate::output::reporters::tally::SprtRecord>,
    /// Episodes replayed because of an infrastructure error (not counted
    /// in any table), with what happened.
    pub infrastructure_errors: Vec<String>,
    /// The part of the plan this run played (`--shard K/N`); absent for a
    /// whole run (and for a merged one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardMeta>,
    /// For a run put together by `arena merge`: its shards, one line each
    /// (`shard K/N: folder (host, CPU)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// What the agents are ([`crate::output::identity`]); absent in a `meta.json`
    /// written before arena recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<crate::output::identity::AgentIdentity>>,
}

fn fingerprint_v1() -> u32 {
    1
}

/// Which part of a plan a shard's run is, in its `meta.json`: what
/// `arena merge` checks before putting shards together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardMeta {
    /// This shard (0 to `n - 1`).
    pub k: usize,
    /// The number of shards.
    pub n: usize,
    /// Episodes in the whole plan (all shards together).
    pub plan_episodes: usize,
    /// Hash of the whole plan (every episode with its seed and seats): the
    /// shards of one tournament agree on it.
    pub plan_hash: String,
}

impl ShardMeta {
    /// The record of shard `shard` of `plan` (the whole plan).
    pub fn new(
        shard: crate::play::schedule::Shard,
        plan: &[crate::play::schedule::Episode],
    ) -> ShardMeta {
        ShardMeta {
            k: shard.k,
            n: shard.n,
            plan_episodes: plan.len(),
            plan_hash: plan_hash(plan),
        }
    }

    /// As a [`crate::play::schedule::Shard`].
    pub fn shard(&self) -> crate::play::schedule::Shard {
        crate::play::schedule::Shard {
            k: self.k,
            n: self.n,
        }
    }
}

/// Hash of a whole plan (FNV-1a 64 of its JSON).
pub fn plan_hash(plan: &[crate::play::schedule::Episode]) -> String {
    hash(&serde_json::to_string(plan).unwrap_or_default())
}

/// Now, RFC 3339 (seconds).
pub fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// The fingerprint of `cfg` as kept in `meta.json` (see
/// [`crate::output::fingerprint`]), with its hash.
pub fn fingerprint(cfg: &RunConfig) -> (Value, String) {
    crate::output::fingerprint::of_version(cfg, crate::output::fingerprint::VERSION)
        .unwrap_or((Value::Null, String::new()))
}

pub use crate::digest::hash;

/// What differs between two fingerprints, one `key: old -> new` per
/// difference (agents by index).
pub fn differences(old: &Value, new: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let keys = [
        "game",
        "format",
        "levels",
        "repetitions",
        "seed",
        "max_steps",
        "time",
    ];
    for k in keys {
        if old.get(k) != new.get(k) {
            out.push(format!(
                "{k}: {} -> {}",
                short(old.get(k)),
                short(new.get(k))
            ));
        }
    }
    let empty = Vec::new();
    let a = old
        .get("agents")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let b = new
        .get("agents")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    for i in 0..a.len().max(b.len()) {
        if a.get(i) != b.get(i) {
            let label = |v: Option<&Value>| {
                v.and_then(|x| x.get("label"))
                    .and_then(Value::as_str)
                    .unwrap_or("(none)")
                    .to_string()
            };
            out.push(format!(
                "agents[{i}]: {} -> {} (changed)",
                label(a.get(i)),
                label(b.get(i))
            ));
        }
    }
    out
}

fn short(v: Option<&Value>) -> String {
    let s = v.map(|v| v.to_string()).unwrap_or_else(|| "(none)".into());
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(57).collect::<String>())
    } else {
        s
    }
}

impl RunMeta {
    /// A new run's metadata.
    pub fn new(cfg: &RunConfig, players: usize, planned: usize) -> RunMeta {
        let (config, config_hash) = fingerprint(cfg);
        RunMeta {
            arena_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: option_env!("ARENA_GIT_COMMIT")
                .unwrap_or("unknown")
                .to_string(),
            config_hash,
            config,
            fingerprint_version: crate::output::fingerprint::VERSION,
            keys: RunKeys::of(cfg),
            players,
            seed: cfg.seed,
            host: host_name(),
            cpu_model: cpu_model(),
            cores: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            started: now(),
            ended: String::new(),
            status: "running".into(),
            planned,
            finished: 0,
            resumed: 0,
            sprt: None,
            starved_acts: 0,
            infrastructure_errors: Vec::new(),
            shard: None,
            merged_from: Vec::new(),
            agents: Some(crate::output::identity::of(cfg)),
        }
    }

    /// The run's config as far as its tables need it, for replaying its
    /// journal through the reporters of `arena run` (`arena summarize`,
    /// `arena merge`): name, game, agent labels, levels, seed, steps,
    /// pairs and SPRT from this `meta.json`. The agents are named by their
    /// labels only (built-in kinds with no parameters: this config cannot
    /// play), the time limits are the defaults, and replays are off.
    pub fn tables_config(&self, dir: &Path) -> Result<RunConfig, HarnessError> {
        use crate::config::{AgentKind, AgentSpec};
        let game = crate::registry::find(&self.keys.game)?.name();
        let at = |key: &str| self.config.get(key).filter(|v| !v.is_null());
        let sprt = match at("sprt") {
            Some(v) => Some(serde_json::from_value(v.clone()).map_err(|e| {
                HarnessError::Config(format!(
                    "{}: its sprt does not read as arena's ({e})",
                    dir.join(FILE).display()
                ))
            })?),
            None => None,
        };
        Ok(RunConfig {
            name: self.keys.name.clone(),
            game,
            format: Default::default(),
            pairs: at("pairs").and_then(Value::as_bool).unwrap_or(false),
            openings: None,
            sprt,
            levels: self.keys.levels.clone(),
            repetitions: at("repetitions")
                .and_then(Value::as_u64)
                .and_then(|r| u32::try_from(r).ok())
                .unwrap_or(1),
            seed: self.seed,
            concurrency: 1,
            max_steps: at("max_steps")
                .and_then(Value::as_u64)
                .and_then(|r| u32::try_from(r).ok()),
            forfeit_after_timeouts: None,
            time: Default::default(),
            agents: self
                .keys
                .labels
                .iter()
                .map(|label| AgentSpec {
                    label: label.clone(),
                    kind: AgentKind::BuiltIn {
                        name: label.clone(),
                        params: Default::default(),
                    },
                    time: Default::default(),
                })
                .collect(),
            source: dir.join(crate::output::reporters::ConfigCopy::FILE),
            log_dir: None,
            replays: false,
            shard: None,
        })
    }

    /// Read `dir/meta.json` (`None` when there is none).
    pub fn read(dir: &Path) -> Result<Option<RunMeta>, HarnessError> {
        let path = dir.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
                HarnessError::ResultsFolder(format!(
                    "{}: not a meta.json of this arena ({e}); use --restart to start the run over",
                    path.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(HarnessError::io(&path, e)),
        }
    }

    /// Write `dir/meta.json` (whole, through a temporary file and a rename).
    pub fn write(&self, dir: &Path) -> Result<(), HarnessError> {
        let path = dir.join(FILE);
        let tmp = dir.join(format!("{FILE}.tmp"));
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| HarnessError::io(&path, std::io::Error::other(e)))?;
        std::fs::write(&tmp, text + "\n").map_err(|e| HarnessError::io(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| HarnessError::io(&path, e))
    }
}

/// The reporter that keeps `meta.json` up to date: written when the run is
/// planned (`running`) and when it ends (`finished` or `interrupted`).
pub struct MetaWriter {
    dir: std::path::PathBuf,
    meta: RunMeta,
}

impl MetaWriter {
    /// The files it writes ([`FILE`]).
    pub const FILES: &'static [&'static str] = &[FILE];

    /// Writes `dir/meta.json`, starting from `meta`.
    pub fn new(dir: &Path, meta: RunMeta) -> Self {
        MetaWriter {
            dir: dir.to_path_buf(),
            meta,
        }
    }
}

impl crate::output::reporters::Reporter for MetaWriter {
    fn report(&mut self, event: &crate::output::reporters::Event<'_>) -> Result<(), HarnessError> {
        use crate::output::reporters::Event;
        match event {
            Event::RunPlanned { episodes, .. } => {
                self.meta.planned = episodes.len();
                self.meta.write(&self.dir)
            }
            Event::EpisodeReplayed { why, .. } => {
                self.meta.infrastructure_errors.push(why.to_string());
                self.meta.write(&self.dir)
            }
            Event::RunFinished {
                cfg,
                complete,
                rows,
                players,
                ..
            } => {
                self.meta.finished = rows.len() / (*players).max(1);
                self.meta.ended = now();
                self.meta.starved_acts = rows.iter().map(|r| r.starved as u64).sum();
                let sprt = crate::output::reporters::tally::tally_of_rows(cfg, rows);
                let decided = sprt
                    .as_ref()
                    .is_some_and(|t| t.status().decision != crate::stats::SprtDecision::Continue);
                self.meta.sprt = sprt.map(|t| t.record());
                self.meta.status = match (complete, decided) {
                    (true, _) => "finished",
                    (false, true) => "sprt-stopped",
                    (false, false) => "interrupted",
                }
                .into();
                self.meta.write(&self.dir)
            }
            _ => Ok(()),
        }
    }

    fn files(&self) -> &'static [&'static str] {
        Self::FILES
    }
}

/// This machine's host name (empty if unknown).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// This machine's CPU model, from `/proc/cpuinfo` (empty if unknown).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_what_changed() {
        let dir = std::path::Path::new("t.toml");
        let a = crate::registry::parse_config(
            "game = \"bait\"\nseed = 1\n[[agents]]\nagent = \"random\"\n",
            dir,
        )
        .unwrap();
        let b = crate::registry::parse_config(
            "game = \"bait\"\nseed = 2\n[[agents]]\nagent = \"astar\"\n",
            dir,
        )
        .unwrap();
        let d = differences(&fingerprint(&a).0, &fingerprint(&b).0);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(d[0], "seed: 1 -> 2");
        assert!(d[1].starts_with("agents[0]: random -> astar"), "{d:?}");
        assert!(differences(&fingerprint(&a).0, &fingerprint(&a).0).is_empty());
        assert_eq!(hash("abc"), hash("abc"));
        assert_ne!(hash("abc"), hash("abd"));
        // FNV-1a 64 of "a" (published test vector).
        assert_eq!(hash("a"), "af63dc4c8601ec8c");
    }
}
