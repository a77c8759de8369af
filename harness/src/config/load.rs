//! Loading a config: TOML text to a validated [`RunConfig`].

use super::catalog::{GameCatalog, GameRules};
use super::external::{
    BotzoneMode, EngineSettings, ExternalSpec, FenLetters, ProcessLimits, Protocol, ProtocolKind,
    Sandbox,
};
use super::format::{Format, Openings, Order};
use super::limits::{Clock, OnOverrun, TimeLimits};
use super::raw::{cfg_err, line_col, locate, LevelEntry, RawAgent, RawConfig, RawTime, Source};
use super::spec::{AgentKind, AgentSpec, RunConfig};
use crate::error::HarnessError;
use agents::{AgentParams, ParamValue};
use std::path::Path;

fn parse_sandbox(v: &str, src: &Source, key: &str) -> Result<Sandbox, HarnessError> {
    v.parse::<Sandbox>()
        .map_err(|e| src.err_key(key, format!("{key} = {e}")))
}

/// A `movetime_margin`: `"30%"` or a fraction `0.3`, below the whole
/// budget; in thousandths.
fn parse_margin(v: &toml::Value) -> Result<u32, String> {
    let fraction = match v {
        toml::Value::String(s) => s
            .trim()
            .strip_suffix('%')
            .and_then(|p| p.trim().parse::<f64>().ok())
            .map(|p| p / 100.0),
        toml::Value::Float(f) => Some(*f),
        toml::Value::Integer(i) => Some(*i as f64),
        _ => None,
    };
    match fraction {
        Some(f) if (0.0..0.95).contains(&f) => Ok((f * 1000.0).round() as u32),
        _ => Err(format!(
            "expected a share of the budget kept back from movetime, from \"0%\" to \"95%\" \
             exclusive (or a fraction such as 0.3), got {v}"
        )),
    }
}

/// Resolve the external-agent keys of `a` (which has `command`).
fn external_spec(
    a: &RawAgent,
    command: &[String],
    default_sandbox: Sandbox,
    game: &dyn GameRules,
    src: &Source,
    key: &str,
) -> Result<ExternalSpec, HarnessError> {
    let base_dir = src.base_dir;
    if command.is_empty() || command[0].is_empty() {
        return Err(src.err_key(
            &format!("{key}.command"),
            format!("{key}.command: name a program to run"),
        ));
    }
    if a.params.is_some() {
        return Err(src.err_key(
            &format!("{key}.params"),
            format!("{key}.params: only built-in agents take params; pass arguments in `command`"),
        ));
    }
    let protocol = match &a.protocol {
        None => ProtocolKind::Jsonl,
        Some(p) => {
            let kind = p.get_ref().parse::<ProtocolKind>().ok();
            match kind.filter(|k| game.protocols().contains(k)) {
                Some(k) => k,
                None => {
                    return Err(src.err_at(
                        p.span().start,
                        format!(
                            "{key}.protocol = \"{}\": {} speaks {}",
                            p.get_ref(),
                            game.name(),
                            ProtocolKind::list(game.protocols())
                        ),
                    ))
                }
            }
        }
    };
    let sandbox = match &a.sandbox {
        None => default_sandbox,
        Some(v) => parse_sandbox(v, src, &format!("{key}.sandbox"))?,
    };
    let base = if base_dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        base_dir
    };
    // Without `workdir`, an agent runs in its own folder (that of the first
    // file its command names), so that a sandbox shows it nothing of its
    // neighbours; that argument is then given relative to the folder.
    let mut command = command.to_vec();
    let workdir = match &a.workdir {
        None => {
            let dir = super::external::default_workdir(&command, base);
            if let Some(i) = command
                .iter()
                .position(|c| super::external::is_own_file(c, base))
            {
                let name = Path::new(&command[i])
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                command[i] = if i == 0 { format!("./{name}") } else { name };
            }
            dir
        }
        Some(w) => base.join(w),
    };
    let workdir = std::fs::canonicalize(&workdir).map_err(|e| {
        src.err_key(
            &format!("{key}.workdir"),
            format!("{key}.workdir {}: {e}", workdir.display()),
        )
    })?;
    let d = ProcessLimits::default();
    let positive = |v: Option<u64>, name: &str, default: u64| -> Result<u64, HarnessError> {
        match v {
            None => Ok(default),
            Some(0) => Err(src.err_key(
                &format!("{key}.{name}"),
                format!("{key}.{name} must be more than 0"),
            )),
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
            return Err(src.err_key(
                &format!("{key}.botzone_mode"),
                format!("{key}.botzone_mode: only for protocol = \"botzone\""),
            ))
        }
        Some(m) => m.parse::<BotzoneMode>().map_err(|e| {
            src.err_key(
                &format!("{key}.botzone_mode"),
                format!("{key}.botzone_mode = {e}"),
            )
        })?,
    };
    let engine = matches!(protocol, ProtocolKind::Uci | ProtocolKind::Ucci);
    let engine_only = [
        (a.options.as_ref().map(|o| o.span().start), "options"),
        (
            a.fen_letters.as_ref().map(|o| o.span().start),
            "fen_letters",
        ),
        (
            a.movetime_margin.as_ref().map(|o| o.span().start),
            "movetime_margin",
        ),
        (a.search.as_ref().map(|o| o.span().start), "search"),
    ];
    if let (false, Some((Some(at), k))) = (engine, engine_only.iter().find(|(at, _)| at.is_some()))
    {
        return Err(src.err_at(
            *at,
            format!("{key}.{k}: engine settings are for protocol \"uci\" / \"ucci\""),
        ));
    }
    let mut settings = EngineSettings::default();
    if let Some(t) = &a.options {
        for (k, v) in t.get_ref() {
            let value = match v {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    return Err(src.err_at(
                        t.span().start,
                        format!(
                            "{key}.options.{k}: expected a string, number or boolean, got a {}",
                            other.type_str()
                        ),
                    ))
                }
            };
            settings.options.push((k.clone(), value));
        }
    }
    if let Some(f) = &a.fen_letters {
        settings.fen_letters = FenLetters::parse(f.get_ref())
            .map_err(|e| src.err_at(f.span().start, format!("{key}.fen_letters: {e}")))?;
    }
    if let Some(m) = &a.movetime_margin {
        settings.margin_permille = parse_margin(m.get_ref())
            .map_err(|e| src.err_at(m.span().start, format!("{key}.movetime_margin: {e}")))?;
    }
    if let Some(t) = &a.search {
        let at = t.span().start;
        let bad = |e: String| src.err_at(at, format!("{key}.search: {e}"));
        let mut kinds = t.get_ref().iter();
        let (Some((k, v)), None) = (kinds.next(), kinds.next()) else {
            return Err(bad(format!(
                "expected one of {} (e.g. search = {{ nodes = 20000 }})",
                super::external::Search::KEYS.join(", ")
            )));
        };
        let n = v.as_integer().ok_or_else(|| {
            bad(format!(
                "{k}: expected a whole number, got a {}",
                v.type_str()
            ))
        })?;
        settings.search = Some(super::external::Search::from_key(k, n).map_err(bad)?);
    }
    let protocol = match protocol {
        ProtocolKind::Jsonl => Protocol::Jsonl,
        ProtocolKind::Botzone => Protocol::Botzone { mode: botzone_mode },
        ProtocolKind::Uci => Protocol::Uci(settings),
        ProtocolKind::Ucci => Protocol::Ucci(settings),
    };
    let mut env = Vec::new();
    if let Some(t) = &a.env {
        for (k, v) in t {
            match v {
                toml::Value::String(s) => env.push((k.clone(), s.clone())),
                other => {
                    return Err(src.err_key(
                        &format!("{key}.env.{k}"),
                        format!(
                            "{key}.env.{k}: expected a string, got a {}",
                            other.type_str()
                        ),
                    ))
                }
            }
        }
    }
    Ok(ExternalSpec {
        command,
        protocol,
        workdir,
        sandbox,
        limits,
        env,
        writable_workdir: false,
        mounts: Vec::new(),
    })
}

fn apply_time(
    base: TimeLimits,
    raw: &RawTime,
    src: &Source,
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
        t.clock = c
            .parse::<Clock>()
            .map_err(|e| src.err_key(&format!("{key}.clock"), format!("{key}.clock = {e}")))?;
    }
    if let Some(o) = &raw.on_overrun {
        t.on_overrun = o.parse::<OnOverrun>().map_err(|e| {
            src.err_key(
                &format!("{key}.on_overrun"),
                format!("{key}.on_overrun = {e}"),
            )
        })?;
    }
    if let Some(v) = raw.counted_step {
        if v.is_zero() {
            return Err(src.err_key(
                &format!("{key}.counted_step"),
                format!("{key}.counted_step must be more than 0 ms"),
            ));
        }
        t.counted_step = v;
    }
    if t.act.is_zero() {
        return Err(src.err_key(
            &format!("{key}.act"),
            format!("{key}.act must be more than 0 ms"),
        ));
    }
    if t.act_hard < t.act {
        return Err(src.err_key(
            &format!("{key}.act_hard"),
            format!(
                "{key}.act_hard ({:?}) must be at least {key}.act ({:?})",
                t.act_hard, t.act
            ),
        ));
    }
    if t.init_hard < t.init {
        return Err(src.err_key(
            &format!("{key}.init_hard"),
            format!(
                "{key}.init_hard ({:?}) must be at least {key}.init ({:?})",
                t.init_hard, t.init
            ),
        ));
    }
    Ok(t)
}

/// Why agent `key` (`label`), an external agent, cannot play under the
/// counted clock.
pub fn uncountable(key: &str, label: &str) -> String {
    format!(
        "{key} ({label}) is an external agent, and clock = \"counted\" counts only a built-in \
         agent's looks at its timer (or takes a UCI/UCCI engine with a fixed `search`): give it \
         clock = \"cpu\" or \"wall\" in its own `time` table"
    )
}

fn to_params(table: &toml::Table, src: &Source, key: &str) -> Result<AgentParams, HarnessError> {
    let mut p = AgentParams::new();
    for (k, v) in table {
        let value = match v {
            toml::Value::Integer(i) => ParamValue::Int(*i),
            toml::Value::Float(f) => ParamValue::Float(*f),
            toml::Value::Boolean(b) => ParamValue::Bool(*b),
            toml::Value::String(s) => ParamValue::Str(s.clone()),
            other => {
                return Err(src.err_key(
                    &format!("{key}.params.{k}"),
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

/// Load, parse and validate a config file against `catalog`'s games.
pub fn load(path: &Path, catalog: &dyn GameCatalog) -> Result<RunConfig, HarnessError> {
    let text = crate::error::read_text(path)?;
    parse(&text, path, catalog)
}

/// Parse and validate config text (`path` names it in errors and anchors
/// relative level paths).
pub fn parse(
    text: &str,
    path: &Path,
    catalog: &dyn GameCatalog,
) -> Result<RunConfig, HarnessError> {
    parse_as(text, path, catalog, false)
}

/// Parse the tournament part of an assignment (`arena grade`): a config
/// whose `[[agents]]` are the opponents (none for one-player games) and
/// which may have a `[grading]` table (read by [`crate::grade`]). The
/// students' agents and the format are added by the caller, which checks
/// the format then.
pub fn parse_assignment(
    text: &str,
    path: &Path,
    catalog: &dyn GameCatalog,
) -> Result<RunConfig, HarnessError> {
    parse_as(text, path, catalog, true)
}

fn parse_as(
    text: &str,
    path: &Path,
    catalog: &dyn GameCatalog,
    assignment: bool,
) -> Result<RunConfig, HarnessError> {
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
    let base_dir = path.parent().unwrap_or(Path::new("."));
    let src = Source {
        text,
        path,
        base_dir,
        doc: toml_edit::ImDocument::parse(text).ok(),
    };
    // `vgdl:PATH`: PATH is relative to the config file when it exists there
    // (as level paths are).
    let game_name = match raw.game.get_ref().strip_prefix("vgdl:") {
        Some(p) if !Path::new(p).exists() && base_dir.join(p).is_file() => {
            format!("vgdl:{}", base_dir.join(p).to_string_lossy())
        }
        _ => raw.game.get_ref().clone(),
    };
    let game = catalog
        .game(&game_name)
        .map_err(|e| src.err_at(raw.game.span().start, format!("game: {e}")))?;
    let format = match &raw.format {
        None => None,
        Some(f) => Some(
            f.get_ref()
                .parse::<Format>()
                .map_err(|e| src.err_at(f.span().start, format!("format = {e}")))?,
        ),
    };
    let format = match (format, &raw.gauntlet_seeds) {
        (Some(Format::Gauntlet { .. }), Some(n)) => {
            let seeds = usize::try_from(*n.get_ref())
                .ok()
                .filter(|&k| k >= 1)
                .ok_or_else(|| {
                    src.err_at(
                        n.span().start,
                        format!("gauntlet_seeds = {}: expected 1 or more", n.get_ref()),
                    )
                })?;
            Some(Format::Gauntlet { seeds })
        }
        (_, Some(n)) => {
            return Err(src.err_at(
                n.span().start,
                "gauntlet_seeds: only with format = \"gauntlet\"",
            ))
        }
        (f, None) => f,
    };
    let order = match &raw.order {
        None => Order::default(),
        Some(o) => o
            .get_ref()
            .parse::<Order>()
            .map_err(|e| src.err_at(o.span().start, format!("order = {e}")))?,
    };
    let openings = match &raw.openings {
        None => {
            if let Some(o) = &raw.order {
                return Err(src.err_at(o.span().start, "order: only with `openings`"));
            }
            None
        }
        Some(file) => {
            if raw.levels.is_some() {
                return Err(src.err_at(
                    file.span().start,
                    "openings: give either `levels` or `openings` (one start per round), not both",
                ));
            }
            Some(read_openings(
                &*game,
                &base_dir.join(file.get_ref()),
                order,
            )?)
        }
    };
    let name = raw.name.clone().unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run".into())
    });
    if !is_plain_name(&name) {
        return Err(src.err_key(
            "name",
            format!("name = {name:?}: expected a plain folder name"),
        ));
    }
    let repetitions = match raw.repetitions {
        None => 1,
        Some(r) if r >= 1 && r <= u32::MAX as i64 => r as u32,
        Some(r) => {
            return Err(src.err_key(
                "repetitions",
                format!("repetitions = {r}: expected 1 or more"),
            ))
        }
    };
    let concurrency = match raw.concurrency {
        // Filled in by `validate` once the number of players is known.
        None => 0,
        Some(c) if (1..=1024).contains(&c) => c as usize,
        Some(c) => {
            return Err(src.err_key(
                "concurrency",
                format!("concurrency = {c}: expected 1 to 1024"),
            ))
        }
    };
    let max_steps = match raw.max_steps {
        None => None,
        Some(m) if m >= 1 && m <= u32::MAX as i64 => Some(m as u32),
        Some(m) => {
            return Err(src.err_key("max_steps", format!("max_steps = {m}: expected 1 or more")))
        }
    };
    let forfeit_after_timeouts = match raw.forfeit_after_timeouts {
        None => None,
        Some(_) if assignment => {
            return Err(src.err_key(
                "forfeit_after_timeouts",
                "forfeit_after_timeouts: in an assignment this is a key of [grading] \
                 (`[grading] forfeit_after_timeouts = 3`)"
                    .to_string(),
            ))
        }
        Some(k) if k >= 1 && k <= u32::MAX as i64 => Some(k as u32),
        Some(k) => {
            return Err(src.err_key(
                "forfeit_after_timeouts",
                format!(
                    "forfeit_after_timeouts = {k}: expected 1 or more (leave it out to play \
                     every game)"
                ),
            ))
        }
    };
    let time = apply_time(
        TimeLimits::default(),
        &raw.time.clone().unwrap_or_default(),
        &src,
        "time",
    )?;
    let default_sandbox = match &raw.sandbox {
        None => Sandbox::None,
        Some(v) => parse_sandbox(v, &src, "sandbox")?,
    };
    if let (Some(g), false) = (&raw.grading, assignment) {
        return Err(src.err_at(
            g.span().start,
            "[grading] belongs in an assignment, read by `arena grade`, not in a run config",
        ));
    }
    let mut agents_out: Vec<AgentSpec> = Vec::new();
    if raw.agents.is_empty() && !assignment {
        return Err(src.err_key("agents", "no [[agents]]: a run needs at least one agent"));
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
                    (a.fen_letters.is_some(), "fen_letters"),
                    (a.movetime_margin.is_some(), "movetime_margin"),
                    (a.search.is_some(), "search"),
                    (a.botzone_mode.is_some(), "botzone_mode"),
                    (a.env.is_some(), "env"),
                ];
                if let Some((_, k)) = external_only.iter().find(|(set, _)| *set) {
                    return Err(src.err_key(
                        &format!("{key}.{k}"),
                        format!("{key}.{k}: only external agents (`command = [...]`) take `{k}`"),
                    ));
                }
                let params = match &a.params {
                    Some(t) => to_params(t, &src, &key)?,
                    None => AgentParams::new(),
                };
                if let Err(e) = game.check_agent(name.get_ref(), &params) {
                    return Err(src.err_at(name.span().start, format!("{key}: {e}")));
                }
                AgentKind::BuiltIn {
                    name: name.get_ref().clone(),
                    params,
                }
            }
            (None, Some(cmd)) => {
                AgentKind::External(external_spec(a, cmd, default_sandbox, &*game, &src, &key)?)
            }
            (Some(_), Some(_)) => {
                return Err(src.err_key(
                    &key,
                    format!(
                        "{key}: give either `agent` (built-in) or `command` (external), not both"
                    ),
                ))
            }
            (None, None) => {
                return Err(src.err_key(
                    &key,
                    format!(
                    "{key}: missing `agent` (a built-in agent) or `command` (an external program)"
                ),
                ))
            }
        };
        let agent_time = match &a.time {
            Some(t) => apply_time(time, t, &src, &format!("{key}.time"))?,
            None => time,
        };
        let label = match (&a.name, &a.agent, &a.command) {
            (Some(n), _, _) => n.clone(),
            (None, Some(agent), _) => agent.get_ref().clone(),
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
        if agent_time.clock == Clock::Counted
            && matches!(&kind, AgentKind::External(e) if !e.countable())
        {
            // Where the counted clock was set: the agent's own [time], or the run's.
            let at = match &a.time {
                Some(t) if t.clock.is_some() => format!("{key}.time.clock"),
                _ => "time.clock".to_string(),
            };
            return Err(src.err_key(&at, uncountable(&key, &label)));
        }
        if agents_out.iter().any(|x| x.label == label) {
            return Err(src.err_key(
                &format!("{key}.name"),
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
            return Err(src.err_key(
                "levels",
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
        game: game.name(),
        format: format.unwrap_or_default(),
        pairs: raw.pairs.unwrap_or(true),
        levels: match &openings {
            Some(op) => op.specs.clone(),
            None => levels.unwrap_or_default(),
        },
        openings,
        sprt: match &raw.sprt {
            None => None,
            Some(sp) => {
                sp.get_ref()
                    .validate()
                    .map_err(|e| src.err_at(sp.span().start, e))?;
                if agents_out.len() != 2 {
                    return Err(src.err_at(
                        sp.span().start,
                        format!(
                            "sprt: a sequential test compares two agents (the first against the \
                             second); this config has {}",
                            agents_out.len()
                        ),
                    ));
                }
                Some(sp.get_ref().clone())
            }
        },
        repetitions,
        seed: raw.seed.unwrap_or(0),
        concurrency,
        max_steps,
        forfeit_after_timeouts,
        time,
        agents: agents_out,
        source: path.to_path_buf(),
        log_dir: None,
        replays: raw.replays.unwrap_or(true),
        shard: None,
    };
    validate(cfg, &*game, catalog, &src, format.is_some(), assignment)
}

/// Fill in default levels, the default format and concurrency, and check
/// that every level loads and the format fits the game, so that a bad
/// config fails before the run starts.
fn validate(
    mut cfg: RunConfig,
    game: &dyn GameRules,
    catalog: &dyn GameCatalog,
    src: &Source,
    format_given: bool,
    assignment: bool,
) -> Result<RunConfig, HarnessError> {
    if cfg.levels.is_empty() {
        cfg.levels = game.default_levels();
    }
    let mut levels = Vec::with_capacity(cfg.levels.len());
    for (i, given) in cfg.levels.iter().enumerate() {
        for spec in game.expand_level(given) {
            game.check_level(&spec, cfg.seed)
                .map_err(|e| src.err_key(&format!("levels[{i}]"), format!("levels[{i}]: {e}")))?;
            levels.push(spec);
        }
    }
    cfg.levels = levels;
    let players = game.players(&cfg.levels[0], cfg.seed)?;
    if assignment {
        if players > 1 && cfg.agents.is_empty() {
            return Err(src.err_key(
                "agents",
                format!(
                    "{} is a {players}-player game: list the opponents as [[agents]]",
                    game.name()
                ),
            ));
        }
        if !format_given {
            cfg.format = Format::default_for(players);
        }
        if cfg.concurrency == 0 {
            cfg.concurrency = default_concurrency(players);
        }
        check_externals(&cfg, catalog, src)?;
        return Ok(cfg);
    }
    if players > 1 && cfg.agents.len() < 2 {
        return Err(src.err_key(
            "agents",
            format!(
                "{} is a {players}-player game: list at least 2 [[agents]]",
                game.name()
            ),
        ));
    }
    if !format_given {
        cfg.format = Format::default_for(players);
    }
    cfg.format.check(players, cfg.agents.len()).map_err(|e| {
        src.err_key(
            "format",
            format!("format = \"{}\": {e}", cfg.format.as_str()),
        )
    })?;
    if cfg.concurrency == 0 {
        cfg.concurrency = default_concurrency(players);
    }
    check_externals(&cfg, catalog, src)?;
    Ok(cfg)
}

/// Check that every external agent's program can be run (see
/// [`GameCatalog::check_external`]).
fn check_externals(
    cfg: &RunConfig,
    catalog: &dyn GameCatalog,
    src: &Source,
) -> Result<(), HarnessError> {
    for (i, a) in cfg.agents.iter().enumerate() {
        if let AgentKind::External(spec) = &a.kind {
            catalog.check_external(spec).map_err(|e| {
                src.err_key(&format!("agents[{i}].command"), format!("agents[{i}]: {e}"))
            })?;
        }
    }
    Ok(())
}

/// Read an openings file: one level spec of `game` per line (Xiangqi: a
/// FEN), blank lines and `#` comments skipped; each must load (errors name
/// the file and line).
fn read_openings(
    game: &dyn GameRules,
    path: &Path,
    order: Order,
) -> Result<Openings, HarnessError> {
    let text = crate::error::read_text(path)?;
    let mut specs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        game.check_level(t, 0).map_err(|e| {
            HarnessError::Config(format!(
                "{}:{}: not a {} start: {e}",
                path.display(),
                i + 1,
                game.name()
            ))
        })?;
        specs.push(t.to_string());
    }
    if specs.is_empty() {
        return Err(HarnessError::Config(format!(
            "{}: the openings file holds no opening (one {} start per line)",
            path.display(),
            game.name()
        )));
    }
    Ok(Openings {
        specs,
        order,
        source: path.display().to_string(),
    })
}

/// Where `key` (a path as error messages write it, `agents[1].options`)
/// is written in the config file at `path`: `file:line:column`, or just the
/// file when the key is not in it (or the file cannot be read again). For
/// errors found after loading, such as an engine's options at pre-flight.
pub fn key_position(path: &Path, key: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let at = toml_edit::ImDocument::parse(text.as_str())
        .ok()
        .and_then(|d| locate(d.as_table(), key));
    match at {
        Some(at) => {
            let (l, c) = line_col(&text, at);
            format!("{}:{l}:{c}", path.display())
        }
        None => path.display().to_string(),
    }
}

/// Whether `name` can name a run: a plain folder name (no path separator,
/// not `.` or `..`, not empty), so results stay under `results/`.
pub fn is_plain_name(name: &str) -> bool {
    !(name.is_empty() || name.contains(['/', '\\']) || name == "." || name == "..")
}

/// The default concurrency: one core per thinking agent, `cores / players`,
/// at least 1.
pub fn default_concurrency(players: usize) -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    (cores / players.max(1)).max(1)
}
