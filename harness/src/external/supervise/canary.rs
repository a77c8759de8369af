//! The canary: a trivial program started in exactly an agent's sandbox,
//! limits, folders and mounts before any of the agent's own code runs.
//!
//! A machine that cannot sandbox an agent (bubblewrap missing or refused,
//! a folder the sandbox's uid cannot reach, a runtime that does not fit the
//! memory limit) would otherwise make every game of that agent a loss: the
//! canary turns that into one error with its cause and a fix, before
//! anything is played or graded. `arena run` starts a shell in each
//! sandboxed agent's folder ([`shell`]); `arena grade` and `arena check`
//! build and run a trivial program of each language their class uses
//! (`grade::canary`).

use crate::external::supervise::process::{AgentProcess, Output};
use crate::external::ExternalSpec;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The line a canary prints (first word of its first stdout line).
pub const LINE: &str = "arena-canary-ok";

/// Start `command` as an agent of `spec` (its sandbox, limits, workdir,
/// mounts and environment) and wait up to `wait` for its first line, which
/// must start with [`LINE`]; the rest of that line is returned. The
/// program should then wait for its stdin to close (it is stopped after
/// the line). Its stderr goes to `log`, whose last lines are quoted on
/// failure.
pub fn run(
    spec: &ExternalSpec,
    command: Vec<String>,
    wait: Duration,
    log: Option<PathBuf>,
) -> Result<String, String> {
    let spec = ExternalSpec {
        command,
        ..spec.clone()
    };
    let stderr = |log: &Option<PathBuf>| {
        let text = log
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = lines[lines.len().saturating_sub(6)..].join("\n");
        if tail.is_empty() {
            String::new()
        } else {
            format!("; its stderr:\n{tail}")
        }
    };
    let mut p = AgentProcess::spawn(&spec, log.clone()).map_err(|f| f.detail)?;
    let answer = match p.recv_output(Instant::now() + wait) {
        Output::Line(l) => match l.trim().strip_prefix(LINE) {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(format!("it printed {:?} instead of {LINE:?}", clip(&l))),
        },
        Output::End(status) => Err(format!(
            "it ended ({}) without printing {LINE:?}",
            status.map_or("no exit status".into(), |s| s.to_string())
        )),
        Output::Failed(f) => Err(f.detail),
        Output::TimedOut => Err(format!(
            "it printed nothing within {}",
            humantime::format_duration(wait)
        )),
    };
    p.stop();
    answer.map_err(|e| format!("{e}{}", stderr(&log)))
}

/// The canary of an `arena run` agent: `/bin/sh` started in its sandbox
/// enters the agent's folder by its path and prints [`LINE`].
pub fn shell(spec: &ExternalSpec, log: Option<PathBuf>) -> Result<(), String> {
    let dir = spec.workdir.to_string_lossy().into_owned();
    let command = vec![
        "/bin/sh".into(),
        "-c".into(),
        format!(
            "if cd \"$1\" 2>/dev/null; then echo {LINE}; else echo {LINE} no; fi; cat >/dev/null"
        ),
        "sh".into(),
        dir.clone(),
    ];
    match run(spec, command, Duration::from_secs(10), log)?.as_str() {
        "" => Ok(()),
        _ => Err(format!(
            "a program in it cannot enter its folder {dir} by its path (permission denied)"
        )),
    }
}

/// The canary of every sandboxed external agent of `cfg` (one per distinct
/// sandbox, folder, limits and mounts): bubblewrap checked as the agents'
/// uid ([`crate::external::supervise::sandbox::check_bwrap`]), then [`shell`]. The error names
/// the agent, what failed and a fix.
pub fn sandboxes(cfg: &crate::config::RunConfig) -> Result<(), String> {
    let mut seen: Vec<&ExternalSpec> = Vec::new();
    for (i, a) in cfg.agents.iter().enumerate() {
        let crate::config::AgentKind::External(spec) = &a.kind else {
            continue;
        };
        let same = |s: &&ExternalSpec| {
            s.sandbox == spec.sandbox
                && s.workdir == spec.workdir
                && s.limits == spec.limits
                && s.mounts == spec.mounts
        };
        if spec.sandbox == crate::external::Sandbox::None || seen.iter().any(same) {
            continue;
        }
        seen.push(spec);
        let key = format!("agents[{i}].sandbox");
        let at = crate::config::key_position(&cfg.source, &key);
        let failed = |e: String, hint: &str| {
            format!(
                "{at}: agents[{i}] ({}): the machine cannot run it in its sandbox \
                 (sandbox = \"{}\"): {e}{}",
                a.label,
                spec.sandbox.as_str(),
                if hint.is_empty() {
                    String::new()
                } else {
                    format!("\nFix: {hint}.")
                }
            )
        };
        if spec.sandbox == crate::external::Sandbox::Bwrap {
            crate::external::supervise::sandbox::check_bwrap().map_err(|e| failed(e, ""))?;
        }
        shell(spec, None).map_err(|e| {
            let h = hint(&e);
            failed(e, h)
        })?;
    }
    Ok(())
}

/// A hint at the fix for a canary's failure `detail` (empty when none
/// applies; bubblewrap's own check says its fix itself).
pub fn hint(detail: &str) -> &'static str {
    let d = detail.to_ascii_lowercase();
    if d.contains("permission denied") || d.contains("can't find source path") {
        "the sandbox's uid (arena runs as root, so agents run as uid 61000+) cannot reach a \
         folder: use sandbox = \"bwrap\", for which arena prepares the folders, or let others \
         search every folder above them (chmod o+x)"
    } else if d.contains("not found") || d.contains("no such file") {
        "a compiler or runtime is missing on this machine (inside the sandbox only /usr, /bin, \
         /lib* and /etc are seen): install it system-wide, or remove the language from \
         `languages`"
    } else if d.contains("memory") || d.contains("could not reserve") || d.contains("heap") {
        "the runtime does not fit the memory limit: raise `memory_mb` (a JVM needs about 768)"
    } else {
        ""
    }
}

fn clip(s: &str) -> String {
    s.chars().take(120).collect()
}
