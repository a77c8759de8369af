//! Tournament configs: TOML files parsed strictly (unknown keys are errors
//! that name the key and the valid ones), then resolved and validated against
//! the game's levels and agents before anything runs.
//!
//! See `configs/demo.toml` for a commented example of every key.

use crate::error::HarnessError;
use crate::external::botzone::GlobalData;
use crate::external::{BotzoneMode, ExternalSpec, ProcessLimits, ProtocolKind, Sandbox};
use crate::games::{ArenaGame, GameKind};
use crate::timing::Clock;
use agents::{AgentParams, ParamValue};
use serde::de::{self, Deserializer};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Time limits of one agent (GVGAI's rule: past `act` the action becomes the
/// game's fallback and an overrun is counted; past `act_hard` the agent is
/// disqualified). The same rule applies to `init` / `init_hard`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimits {
    /// Soft budget per act (GVGAI: 40 ms).
    pub act: Duration,
    /// Hard limit per act (GVGAI: 50 ms).
    pub act_hard: Duration,
    /// Soft budget of init (GVGAI: 1 s).
    pub init: Duration,
    /// Hard limit of init.
    pub init_hard: Duration,
    /// The clock that judges.
    pub clock: Clock,
}

impl Default for TimeLimits {
    fn default() -> Self {
        TimeLimits {
            act: Duration::from_millis(40),
            act_hard: Duration::from_millis(50),
            init: Duration::from_secs(1),
            init_hard: Duration::from_millis(1250),
            clock: Clock::Wall,
        }
    }
}

impl TimeLimits {
    /// How long the harness waits for an answer in wall time before giving up
    /// on the agent: the hard limit itself under the wall clock; under the CPU
    /// clock (which a sleeping agent does not consume) ten times the hard
    /// limit, at least one second.
    pub fn hang_limit(&self, hard: Duration) -> Duration {
        match self.clock {
            Clock::Wall => hard,
            Clock::Cpu => (hard * 10).max(Duration::from_secs(1)),
        }
    }
}

/// Where an agent comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentKind {
    /// A built-in agent of the `agents` crate.
    BuiltIn {
        /// Its registry name.
        name: String,
        /// Its parameters.
        params: AgentParams,
    },
    /// A program run as a supervised subprocess (see [`crate::external`]).
    External(ExternalSpec),
}

/// One agent entry of a config, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// The label in result tables (unique within a run).
    pub label: String,
    /// What to run.
    pub kind: AgentKind,
    /// Its time limits (the run's, with per-agent overrides applied).
    pub time: TimeLimits,
}

/// A resolved, validated tournament config.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Run name: results go to `results/<name>/` by default.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// Level specs (built-in names or paths, resolved relative to the config).
    pub levels: Vec<String>,
    /// Repetitions per (lineup, level).
    pub repetitions: u32,
    /// Master seed.
    pub seed: u64,
    /// Episodes played at once (default: cores / players, at least 1).
    pub concurrency: usize,
    /// Optional game-length limit.
    pub max_steps: Option<u32>,
    /// The run's default time limits.
    pub time: TimeLimits,
    /// The agents.
    pub agents: Vec<AgentSpec>,
    /// The config file it came from.
    pub source: PathBuf,
    /// Where external agents' stderr logs go (set by the run to
    /// `<output folder>/logs`; `None`: not kept).
    pub log_dir: Option<PathBuf>,
    /// The `globaldata` of `protocol = "botzone"` agents, kept across the
    /// games of this run (run-time state, shared by clones of the config).
    pub botzone_globaldata: GlobalData,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    name: Option<String>,
    game: String,
    levels: Option<Vec<LevelEntry>>,
    repetitions: Option<i64>,
    seed: Option<u64>,
    concurrency: Option<i64>,
    max_steps: Option<i64>,
    time: Option<RawTime>,
    sandbox: Option<String>,
    agents: Vec<RawAgent>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum LevelEntry {
    Name(String),
    Index(i64),
}

#[derive(Debug, Default, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct RawTime {
    #[serde(default, deserialize_with = "opt_duration")]
    act: Option<Duration>,
    #[serde(default, deserialize_with = "opt_duration")]
    act_hard: Option<Duration>,
    #[serde(default, deserialize_with = "opt_duration")]
    init: Option<Duration>,
    #[serde(default, deserialize_with = "opt_duration")]
    init_hard: Option<Duration>,
    clock: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAgent {
    agent: Option<String>,
    command: Option<Vec<String>>,
    protocol: Option<String>,
    workdir: Option<String>,
    sandbox: Option<String>,
    memory_mb: Option<u64>,
    cpu_seconds: Option<u64>,
    max_processes: Option<u64>,
    max_file_mb: Option<u64>,
    max_line_kb: Option<u64>,
    max_output_kb: Option<u64>,
    max_stderr_kb: Option<u64>,
    #[serde(default, deserialize_with = "opt_duration")]
    grace: Option<Duration>,
    options: Option<toml::Table>,
    botzone_mode: Option<String>,
    name: Option<String>,
    params: Option<toml::Table>,
    time: Option<RawTime>,
}

fn parse_sandbox(v: &str, path: &Path, key: &str) -> Result<Sandbox, HarnessError> {
    Sandbox::parse(v).ok_or_else(|| {
        cfg_err(
            path,
            format!("{key} = \"{v}\": expected \"none\", \"rlimit\" or \"bwrap\""),
        )
    })
}

/// Resolve the external-agent keys of `a` (which has `command`).
fn external_spec(
    a: &RawAgent,
    command: &[String],
    default_sandbox: Sandbox,
    base_dir: &Path,
    path: &Path,
    key: &str,
) -> Result<ExternalSpec, HarnessError> {
    if command.is_empty() || command[0].is_empty() {
        return Err(cfg_err(
            path,
            format!("{key}.command: name a program to run"),
        ));
    }
    if a.params.is_some() {
        return Err(cfg_err(
            path,
            format!("{key}.params: only built-in agents take params; pass arguments in `command`"),
        ));
    }
    let protocol = match &a.protocol {
        None => ProtocolKind::Jsonl,
        Some(p) => ProtocolKind::parse(p).ok_or_else(|| {
            cfg_err(
                path,
                format!(
                    "{key}.protocol = \"{p}\": expected one of {}",
                    ProtocolKind::NAMES
                ),
            )
        })?,
    };
    let sandbox = match &a.sandbox {
        None => default_sandbox,
        Some(v) => parse_sandbox(v, path, &format!("{key}.sandbox"))?,
    };
    let base = if base_dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        base_dir
    };
    let workdir = match &a.workdir {
        None => base.to_path_buf(),
        Some(w) => base.join(w),
    };
    let workdir = std::fs::canonicalize(&workdir)
        .map_err(|e| cfg_err(path, format!("{key}.workdir {}: {e}", workdir.display())))?;
    let d = ProcessLimits::default();
    let positive = |v: Option<u64>, name: &str, default: u64| -> Result<u64, HarnessError> {
        match v {
            None => Ok(default),
            Some(0) => Err(cfg_err(path, format!("{key}.{name} must be more than 0"))),
            Some(x) => Ok(x),
        }
    };
    let limits = ProcessLimits {
        memory_mb: positive(a.memory_mb, "memory_mb", d.memory_mb)?,
        cpu_seconds: positive(a.cpu_seconds, "cpu_seconds", d.cpu_seconds)?,
        max_processes: positive(a.max_processes, "max_processes", d.max_processes)?,
        max_file_mb: positive(a.max_file_mb, "max_file_mb", d.max_file_mb)?,
        max_line_kb: positive(a.max_line_kb, "max_line_kb", d.max_line_kb)?,
        max_output_kb: positive(a.max_output_kb, "max_output_kb", d.max_output_kb)?,
        max_stderr_kb: positive(a.max_stderr_kb, "max_stderr_kb", d.max_stderr_kb)?,
        grace: a.grace.unwrap_or(d.grace),
    };
    let botzone_mode = match &a.botzone_mode {
        None => BotzoneMode::default(),
        Some(_) if protocol != ProtocolKind::Botzone => {
            return Err(cfg_err(
                path,
                format!("{key}.botzone_mode: only for protocol = \"botzone\""),
            ))
        }
        Some(m) => BotzoneMode::parse(m).ok_or_else(|| {
            cfg_err(
                path,
                format!(
                    "{key}.botzone_mode = \"{m}\": expected {}",
                    BotzoneMode::NAMES
                ),
            )
        })?,
    };
    let mut options = Vec::new();
    if let Some(t) = &a.options {
        if matches!(protocol, ProtocolKind::Jsonl | ProtocolKind::Botzone) {
            return Err(cfg_err(
                path,
                format!("{key}.options: engine options are for protocol \"uci\" / \"ucci\""),
            ));
        }
        for (k, v) in t {
            let value = match v {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    return Err(cfg_err(
                        path,
                        format!(
                            "{key}.options.{k}: expected a string, number or boolean, got a {}",
                            other.type_str()
                        ),
                    ))
                }
            };
            options.push((k.clone(), value));
        }
    }
    Ok(ExternalSpec {
        command: command.to_vec(),
        protocol,
        workdir,
        sandbox,
        limits,
        options,
        botzone_mode,
        env: Vec::new(),
    })
}

/// A duration given as a string (`"40ms"`, `"1.5s"`) or as a number of milliseconds.
fn opt_duration<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    struct V;
    impl<'de> de::Visitor<'de> for V {
        type Value = Option<Duration>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a duration such as \"40ms\" or \"1s\", or a number of milliseconds")
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
            crate::cli::parse_duration(s).map(Some).map_err(E::custom)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            if v < 0 {
                Err(E::custom(format!(
                    "{v} ms is negative; expected a duration of 0 ms or more"
                )))
            } else {
                Ok(Some(Duration::from_millis(v as u64)))
            }
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(Duration::from_millis(v)))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            if v < 0.0 || !v.is_finite() {
                Err(E::custom(format!(
                    "{v} ms is not a duration of 0 ms or more"
                )))
            } else {
                Ok(Some(Duration::from_secs_f64(v / 1000.0)))
            }
        }
    }
    d.deserialize_any(V)
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

fn cfg_err(path: &Path, msg: impl std::fmt::Display) -> HarnessError {
    HarnessError::Config(format!("{}: {msg}", path.display()))
}

fn apply_time(
    base: TimeLimits,
    raw: &RawTime,
    path: &Path,
    key: &str,
) -> Result<TimeLimits, HarnessError> {
    let mut t = base;
    if let Some(v) = raw.act {
        t.act = v;
    }
    if let Some(v) = raw.act_hard {
        t.act_hard = v;
    }
    if let Some(v) = raw.init {
        t.init = v;
    }
    if let Some(v) = raw.init_hard {
        t.init_hard = v;
    }
    if let Some(c) = &raw.clock {
        t.clock = match c.as_str() {
            "wall" => Clock::Wall,
            "cpu" => Clock::Cpu,
            other => {
                return Err(cfg_err(
                    path,
                    format!("{key}.clock = \"{other}\": expected \"wall\" or \"cpu\""),
                ))
            }
        };
    }
    if t.act.is_zero() {
        return Err(cfg_err(path, format!("{key}.act must be more than 0 ms")));
    }
    if t.act_hard < t.act {
        return Err(cfg_err(
            path,
            format!(
                "{key}.act_hard ({:?}) must be at least {key}.act ({:?})",
                t.act_hard, t.act
            ),
        ));
    }
    if t.init_hard < t.init {
        return Err(cfg_err(
            path,
            format!(
                "{key}.init_hard ({:?}) must be at least {key}.init ({:?})",
                t.init_hard, t.init
            ),
        ));
    }
    Ok(t)
}

fn to_params(table: &toml::Table, path: &Path, key: &str) -> Result<AgentParams, HarnessError> {
    let mut p = AgentParams::new();
    for (k, v) in table {
        let value = match v {
            toml::Value::Integer(i) => ParamValue::Int(*i),
            toml::Value::Float(f) => ParamValue::Float(*f),
            toml::Value::Boolean(b) => ParamValue::Bool(*b),
            toml::Value::String(s) => ParamValue::Str(s.clone()),
            other => {
                return Err(cfg_err(
                    path,
                    format!(
                        "{key}.params.{k}: expected a number, boolean or string, got a {}",
                        other.type_str()
                    ),
                ))
            }
        };
        p.insert(k, value);
    }
    Ok(p)
}

/// Load, parse and validate a config file.
pub fn load(path: &Path) -> Result<RunConfig, HarnessError> {
    let text = crate::error::read_text(path)?;
    parse(&text, path)
}

/// Parse and validate config text (`path` names it in errors and anchors
/// relative level paths).
pub fn parse(text: &str, path: &Path) -> Result<RunConfig, HarnessError> {
    let raw: RawConfig = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().replace('\n', " ");
        match e.span() {
            Some(span) => {
                let (l, c) = line_col(text, span.start);
                HarnessError::Config(format!("{}:{l}:{c}: {msg}", path.display()))
            }
            None => cfg_err(path, msg),
        }
    })?;
    let game: GameKind = raw
        .game
        .parse()
        .map_err(|e: HarnessError| cfg_err(path, format!("game: {e}")))?;
    let name = raw.name.clone().unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run".into())
    });
    if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
        return Err(cfg_err(
            path,
            format!("name = {name:?}: expected a plain folder name"),
        ));
    }
    let repetitions = match raw.repetitions {
        None => 1,
        Some(r) if r >= 1 && r <= u32::MAX as i64 => r as u32,
        Some(r) => {
            return Err(cfg_err(
                path,
                format!("repetitions = {r}: expected 1 or more"),
            ))
        }
    };
    let concurrency = match raw.concurrency {
        None => std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        Some(c) if (1..=1024).contains(&c) => c as usize,
        Some(c) => {
            return Err(cfg_err(
                path,
                format!("concurrency = {c}: expected 1 to 1024"),
            ))
        }
    };
    let max_steps = match raw.max_steps {
        None => None,
        Some(m) if m >= 1 && m <= u32::MAX as i64 => Some(m as u32),
        Some(m) => {
            return Err(cfg_err(
                path,
                format!("max_steps = {m}: expected 1 or more"),
            ))
        }
    };
    let time = apply_time(
        TimeLimits::default(),
        &raw.time.clone().unwrap_or_default(),
        path,
        "time",
    )?;
    let base_dir = path.parent().unwrap_or(Path::new("."));
    let default_sandbox = match &raw.sandbox {
        None => Sandbox::None,
        Some(v) => parse_sandbox(v, path, "sandbox")?,
    };
    let mut agents_out: Vec<AgentSpec> = Vec::new();
    if raw.agents.is_empty() {
        return Err(cfg_err(
            path,
            "no [[agents]]: a run needs at least one agent",
        ));
    }
    for (i, a) in raw.agents.iter().enumerate() {
        let key = format!("agents[{i}]");
        let kind = match (&a.agent, &a.command) {
            (Some(name), None) => {
                let external_only = [
                    (a.protocol.is_some(), "protocol"),
                    (a.workdir.is_some(), "workdir"),
                    (a.sandbox.is_some(), "sandbox"),
                    (a.memory_mb.is_some(), "memory_mb"),
                    (a.cpu_seconds.is_some(), "cpu_seconds"),
                    (a.max_processes.is_some(), "max_processes"),
                    (a.max_file_mb.is_some(), "max_file_mb"),
                    (a.max_line_kb.is_some(), "max_line_kb"),
                    (a.max_output_kb.is_some(), "max_output_kb"),
                    (a.max_stderr_kb.is_some(), "max_stderr_kb"),
                    (a.grace.is_some(), "grace"),
                    (a.options.is_some(), "options"),
                    (a.botzone_mode.is_some(), "botzone_mode"),
                ];
                if let Some((_, k)) = external_only.iter().find(|(set, _)| *set) {
                    return Err(cfg_err(
                        path,
                        format!("{key}.{k}: only external agents (`command = [...]`) take `{k}`"),
                    ));
                }
                let params = match &a.params {
                    Some(t) => to_params(t, path, &key)?,
                    None => AgentParams::new(),
                };
                AgentKind::BuiltIn {
                    name: name.clone(),
                    params,
                }
            }
            (None, Some(cmd)) => AgentKind::External(external_spec(
                a,
                cmd,
                default_sandbox,
                base_dir,
                path,
                &key,
            )?),
            (Some(_), Some(_)) => {
                return Err(cfg_err(
                    path,
                    format!(
                        "{key}: give either `agent` (built-in) or `command` (external), not both"
                    ),
                ))
            }
            (None, None) => {
                return Err(cfg_err(
                    path,
                    format!(
                    "{key}: missing `agent` (a built-in agent) or `command` (an external program)"
                ),
                ))
            }
        };
        let agent_time = match &a.time {
            Some(t) => apply_time(time, t, path, &format!("{key}.time"))?,
            None => time,
        };
        let label = match (&a.name, &a.agent, &a.command) {
            (Some(n), _, _) => n.clone(),
            (None, Some(agent), _) => agent.clone(),
            (None, None, Some(cmd)) => cmd
                .last()
                .map(|c| {
                    Path::new(c)
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_else(|| c.clone())
                })
                .unwrap_or_else(|| "external".into()),
            (None, None, None) => unreachable!("checked above"),
        };
        if agents_out.iter().any(|x| x.label == label) {
            return Err(cfg_err(
                path,
                format!(
                    "{key}: the name `{label}` is used twice; give each agent a distinct `name`"
                ),
            ));
        }
        agents_out.push(AgentSpec {
            label,
            kind,
            time: agent_time,
        });
    }
    let levels = match &raw.levels {
        None => None,
        Some(ls) if ls.is_empty() => {
            return Err(cfg_err(
                path,
                "levels = []: name at least one level or leave the key out",
            ))
        }
        Some(ls) => Some(
            ls.iter()
                .map(|l| {
                    let s = match l {
                        LevelEntry::Name(s) => s.clone(),
                        LevelEntry::Index(i) => i.to_string(),
                    };
                    // Relative paths are relative to the config file when they exist there
                    // (also in the `FILE:N` form of games with several levels per file).
                    let rel = base_dir.join(&s);
                    let numbered = s.rsplit_once(':').filter(|(f, n)| {
                        n.parse::<usize>().is_ok()
                            && !Path::new(f).exists()
                            && base_dir.join(f).is_file()
                    });
                    if !Path::new(&s).exists() && rel.exists() {
                        rel.to_string_lossy().into_owned()
                    } else if let Some((f, n)) = numbered {
                        format!("{}:{n}", base_dir.join(f).to_string_lossy())
                    } else {
                        s
                    }
                })
                .collect::<Vec<_>>(),
        ),
    };
    let cfg = RunConfig {
        name,
        game,
        levels: levels.unwrap_or_default(),
        repetitions,
        seed: raw.seed.unwrap_or(0),
        concurrency,
        max_steps,
        time,
        agents: agents_out,
        source: path.to_path_buf(),
        log_dir: None,
        botzone_globaldata: GlobalData::default(),
    };
    crate::with_game!(game, G => validate::<G>(cfg, path))
}

/// Fill in default levels and check that every level loads and every agent
/// can be built, so that a bad config fails before the run starts.
fn validate<G: ArenaGame>(mut cfg: RunConfig, path: &Path) -> Result<RunConfig, HarnessError> {
    if cfg.levels.is_empty() {
        cfg.levels = G::default_levels();
    }
    for (i, spec) in cfg.levels.iter().enumerate() {
        G::load_level(spec, cfg.seed).map_err(|e| cfg_err(path, format!("levels[{i}]: {e}")))?;
    }
    let probe = G::load_level(&cfg.levels[0], cfg.seed)?;
    let players = probe.num_players();
    if players > 1 && cfg.agents.len() < 2 {
        return Err(cfg_err(
            path,
            format!(
                "{} is a {players}-player game: list at least 2 [[agents]]",
                G::NAME
            ),
        ));
    }
    if cfg.concurrency == 0 {
        // Default: one core per thinking agent.
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        cfg.concurrency = (cores / players.max(1)).max(1);
    }
    for (i, a) in cfg.agents.iter().enumerate() {
        match &a.kind {
            AgentKind::BuiltIn { name, params } => {
                crate::games::build_agent::<G>(name, params, 0)
                    .map_err(|e| cfg_err(path, format!("agents[{i}]: {e}")))?;
            }
            AgentKind::External(spec) => {
                crate::external::protocol::supports::<G>(spec.protocol)
                    .and_then(|()| crate::external::validate(spec))
                    .map_err(|e| cfg_err(path, format!("agents[{i}]: {e}")))?;
            }
        }
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<RunConfig, HarnessError> {
        parse(text, Path::new("test.toml"))
    }

    #[test]
    fn minimal_config_gets_gvgai_defaults() {
        let c = p("game = \"bait\"\n[[agents]]\nagent = \"random\"\n").unwrap();
        assert_eq!(c.levels, vec!["0", "1", "2", "3", "4"]);
        assert_eq!(c.time, TimeLimits::default());
        assert_eq!(c.time.act, Duration::from_millis(40));
        assert_eq!(c.name, "test");
        assert_eq!(c.repetitions, 1);
    }

    #[test]
    fn unknown_key_names_key_line_and_valid_keys() {
        let e = p("game = \"bait\"\nrepetition = 3\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("test.toml:2:1: unknown field `repetition`"),
            "{e}"
        );
        assert!(e.contains("repetitions"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn unknown_agent_and_game_list_valid_values() {
        let e = p("game = \"bait\"\n[[agents]]\nagent = \"alphago\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("agents[0]: unknown agent `alphago` for bait; valid agents: random"),
            "{e}"
        );
        let e = p("game = \"chess\"\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown game `chess`; valid games: bait"), "{e}");
    }

    #[test]
    fn negative_and_inverted_limits_are_rejected() {
        let e = p("game = \"bait\"\n[time]\nact = -5\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("negative"), "{e}");
        let e = p("game = \"bait\"\n[time]\nact = \"60ms\"\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("time.act_hard (50ms) must be at least time.act (60ms)"),
            "{e}"
        );
        let e = p("game = \"bait\"\nrepetitions = 0\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("repetitions = 0"), "{e}");
    }

    #[test]
    fn per_agent_time_overrides_and_params() {
        let c = p(
            "game = \"bait\"\nlevels = [0, \"3\"]\n[time]\nact = \"100ms\"\nact_hard = \"150ms\"\n\
                   [[agents]]\nagent = \"random\"\nname = \"r\"\ntime = { act_hard = \"200ms\" }\n",
        )
        .unwrap();
        assert_eq!(c.levels, vec!["0", "3"]);
        assert_eq!(c.agents[0].label, "r");
        assert_eq!(c.agents[0].time.act, Duration::from_millis(100));
        assert_eq!(c.agents[0].time.act_hard, Duration::from_millis(200));
        let e = p("game = \"bait\"\n[[agents]]\nagent = \"random\"\nparams = { depth = 3 }\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("has no parameter `depth`"), "{e}");
    }

    #[test]
    fn bad_level_is_reported() {
        let e = p("game = \"bait\"\nlevels = [\"9\"]\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("levels[0]: bait level `9` is neither a built-in level (0, 1, 2, 3, 4)"),
            "{e}"
        );
    }
}
