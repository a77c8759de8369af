//! External agents: any program, in any language, run as a supervised
//! subprocess that speaks a line protocol on stdin/stdout.
//!
//! - [`ExternalSpec`]: what a config's `command = [...]` agent resolves to
//!   (command, protocol, working directory, sandbox, limits).
//! - [`process`](supervise::process): the supervisor. Each agent process runs in its own process
//!   group; the harness talks to it through tokio tasks (stdin writer, capped
//!   stdout line reader, capped stderr logger), kills the whole group with
//!   SIGTERM, a grace period, then SIGKILL, always reaps it, and checks after
//!   every game that nothing of it survives.
//! - [`jsonl`](protocols::jsonl): the generic line-JSON protocol `arena-jsonl/2` (see
//!   `docs/protocol.md`).
//! - [`botzone`](protocols::botzone): Botzone's bot protocol for Snake (a process per turn, or
//!   kept running), with its own contestant [`protocols::botzone::BotzoneBot`].
//! - [`Subprocess`]: the [`crate::play::player::Contestant`] that ties them
//!   together for one agent in one episode (one process per game).
//! - [`early_stop`](supervise::early_stop): under the CPU clock, how both contestants stop an agent
//!   that computes without answering once its CPU time passes the hard limit.
//!
//! The runner is synchronous (std threads); the supervisor runs on one
//! shared tokio runtime ([`runtime`]) and the contestant bridges with
//! `block_on` bounded by the runner's deadlines.

pub mod contestant;
pub mod protocols;
pub mod supervise;

pub use crate::config::external::{
    BotzoneMode, EngineSettings, ExternalSpec, FenLetters, Mount, ProcessLimits, Protocol,
    ProtocolKind, Sandbox, Search,
};
pub use contestant::Subprocess;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The shared tokio runtime of all external agents (one worker thread: the
/// work is I/O-bound and every wait is driven by `block_on` on the episode
/// threads anyway).
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("arena-supervisor")
            .on_thread_start(crate::play::timing::run_delay::note_supervisor_thread)
            .enable_all()
            .build()
            .expect("the tokio runtime of the external-agent supervisor starts")
    })
}

/// Where `program` resolves to: relative to `workdir` when it contains a
/// `/`, else the first executable file of that name on `PATH`.
pub fn resolve_program(program: &str, workdir: &Path) -> Option<PathBuf> {
    resolve_program_for(program, workdir, false)
}

/// As [`resolve_program`]; with `others` set, only files that any user may
/// execute (the file executable by others, every folder above it
/// searchable by others) count: what an agent running under an unprivileged
/// uid can start. The folders above `workdir` are not asked of the agent's
/// own files: its process enters `workdir` before it drops to that uid
/// (see [`supervise::sandbox::command`]).
pub fn resolve_program_for(program: &str, workdir: &Path, others: bool) -> Option<PathBuf> {
    if program.contains('/') {
        let p = workdir.join(program);
        let ok = is_executable(&p) && (!others || others_can_run(&p, Some(workdir)));
        return ok.then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| is_executable(p) && (!others || others_can_run(p, None)))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Whether others may execute `p` and search every folder above it, up to
/// and including `inside` (when `p` lies in it), else up to `/`.
fn others_can_run(p: &Path, inside: Option<&Path>) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(real) = std::fs::canonicalize(p) else {
        return false;
    };
    let top = inside
        .and_then(|d| std::fs::canonicalize(d).ok())
        .filter(|d| real.starts_with(d));
    let mode = |q: &Path| {
        std::fs::metadata(q)
            .map(|m| m.permissions().mode())
            .unwrap_or(0)
    };
    let above = |d: &&Path| top.as_deref().is_none_or(|t| d.starts_with(t));
    mode(&real) & 0o001 != 0
        && real
            .ancestors()
            .skip(1)
            .take_while(above)
            .all(|d| mode(d) & 0o001 != 0)
}

/// Whether agents of this sandbox run under an unprivileged uid of their own
/// (sandboxed, and arena runs as root).
pub fn drops_privileges(sandbox: Sandbox) -> bool {
    sandbox != Sandbox::None && rustix::process::geteuid().is_root()
}

/// Check an external spec before a run (the game's protocols are checked by
/// the config): the program exists, for the uid it will run under. Whether
/// the machine can set up its sandbox is the canary's question
/// ([`supervise::canary::sandboxes`]). Errors are sentences for the config error.
pub fn validate(spec: &ExternalSpec) -> Result<(), String> {
    let Some(program) = spec.command.first() else {
        return Err("command = []: name a program to run".into());
    };
    if !spec.workdir.is_dir() {
        return Err(format!(
            "workdir {} is not a folder",
            spec.workdir.display()
        ));
    }
    let others = drops_privileges(spec.sandbox);
    if resolve_program_for(program, &spec.workdir, others).is_none() {
        return Err(if others {
            format!(
                "command: `{program}` is not a program that the sandbox's unprivileged uid may run \
                 (arena runs as root, so sandboxed agents run as uid {}+; every folder on the way \
                 must be readable and searchable by others)",
                supervise::sandbox::SANDBOX_UID_BASE
            )
        } else if program.contains('/') {
            format!(
                "command: {} is not an executable file",
                spec.workdir.join(program).display()
            )
        } else {
            format!("command: `{program}` is not an executable on PATH")
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::AgentKind;
    use std::time::Duration;

    fn load(dir: &Path, text: &str) -> Result<crate::config::RunConfig, String> {
        let p = dir.join("ext.toml");
        std::fs::write(&p, text).unwrap();
        crate::registry::load_config(&p).map_err(|e| e.to_string())
    }

    #[test]
    fn external_agent_keys_resolve_with_defaults() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("bot")).unwrap();
        let c = load(
            dir.path(),
            "game = \"bait\"\nsandbox = \"rlimit\"\n\
             [[agents]]\ncommand = [\"python3\", \"bot.py\"]\n\
             [[agents]]\nname = \"b\"\ncommand = [\"sh\"]\nworkdir = \"bot\"\nsandbox = \"none\"\n\
             memory_mb = 300\nmax_line_kb = 8\ngrace = \"20ms\"\ntime = { act_hard = \"90ms\" }\n",
        )
        .unwrap();
        let AgentKind::External(a) = &c.agents[0].kind else {
            panic!("{:?}", c.agents[0])
        };
        assert_eq!(c.agents[0].label, "bot");
        assert_eq!(a.workdir, std::fs::canonicalize(dir.path()).unwrap());
        assert_eq!(a.protocol, Protocol::Jsonl);
        assert_eq!(a.sandbox, Sandbox::Rlimit);
        assert_eq!(a.limits, ProcessLimits::default());
        let AgentKind::External(b) = &c.agents[1].kind else {
            panic!("{:?}", c.agents[1])
        };
        assert_eq!(
            b.workdir,
            std::fs::canonicalize(dir.path().join("bot")).unwrap()
        );
        assert_eq!(b.sandbox, Sandbox::None);
        assert_eq!(b.limits.memory_mb, 300);
        assert_eq!(b.limits.max_line_kb, 8);
        assert_eq!(b.limits.grace, Duration::from_millis(20));
        assert_eq!(c.agents[1].time.act_hard, Duration::from_millis(90));
    }

    #[test]
    fn botzone_agents_resolve_for_snake_only() {
        let dir = tempfile::tempdir().unwrap();
        let c = load(
            dir.path(),
            "game = \"snake\"\n[[agents]]\nagent = \"greedy\"\n\
             [[agents]]\nname = \"t\"\ncommand = [\"sh\"]\nprotocol = \"botzone\"\n\
             [[agents]]\nname = \"k\"\ncommand = [\"sh\"]\nprotocol = \"botzone\"\nbotzone_mode = \"keep-running\"\n",
        )
        .unwrap();
        let mode = |i: usize| match &c.agents[i].kind {
            AgentKind::External(e) => e.protocol.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            mode(1),
            Protocol::Botzone {
                mode: BotzoneMode::Traditional
            }
        );
        assert_eq!(
            mode(2),
            Protocol::Botzone {
                mode: BotzoneMode::KeepRunning
            }
        );
        let e = load(
            dir.path(),
            "game = \"snake\"\n[[agents]]\nagent = \"greedy\"\n\
             [[agents]]\ncommand = [\"sh\"]\nprotocol = \"botzone\"\nbotzone_mode = \"keep\"\n",
        )
        .unwrap_err();
        assert!(
            e.contains(
                "agents[1].botzone_mode = \"keep\": expected \"traditional\" or \"keep-running\""
            ),
            "{e}"
        );
        let e = load(
            dir.path(),
            "game = \"snake\"\n[[agents]]\nagent = \"greedy\"\n\
             [[agents]]\ncommand = [\"sh\"]\nprotocol = \"botzone\"\noptions = { a = 1 }\n",
        )
        .unwrap_err();
        assert!(
            e.contains("agents[1].options: engine settings are for protocol"),
            "{e}"
        );
    }

    #[test]
    fn engine_settings_resolve_for_uci_and_ucci_only() {
        let dir = tempfile::tempdir().unwrap();
        let engine = |extra: &str| {
            load(
                dir.path(),
                &format!(
                    "game = \"xiangqi\"\n[[agents]]\nagent = \"random\"\n\
                     [[agents]]\ncommand = [\"sh\"]\nprotocol = \"uci\"\n{extra}\n"
                ),
            )
        };
        let settings = |c: &crate::config::RunConfig| match &c.agents[1].kind {
            AgentKind::External(ExternalSpec {
                protocol: Protocol::Uci(s),
                ..
            }) => s.clone(),
            other => panic!("{other:?}"),
        };
        let c = engine("").unwrap();
        assert_eq!(settings(&c), EngineSettings::default());
        let c = engine(
            "fen_letters = \"KAEHRCP\"\nmovetime_margin = \"30%\"\noptions = { \"Skill Level\" = 3 }",
        )
        .unwrap();
        let s = settings(&c);
        assert_eq!(s.fen_letters.as_string(), "KAEHRCP");
        assert_eq!(s.margin_permille, 300);
        assert_eq!(s.options, [("Skill Level".to_string(), "3".to_string())]);
        assert_eq!(
            settings(&engine("movetime_margin = 0.25").unwrap()).margin_permille,
            250
        );
        let e = engine("movetime_margin = \"100%\"").unwrap_err();
        assert!(
            e.contains("ext.toml:7:19: agents[1].movetime_margin: expected"),
            "{e}"
        );
        let e = engine("fen_letters = \"HE\"").unwrap_err();
        assert!(
            e.contains("agents[1].fen_letters: expected seven letters"),
            "{e}"
        );
        let e = load(
            dir.path(),
            "game = \"xiangqi\"\n[[agents]]\nagent = \"random\"\n\
             [[agents]]\ncommand = [\"sh\"]\nmovetime_margin = \"30%\"\n",
        )
        .unwrap_err();
        assert!(
            e.contains("agents[1].movetime_margin: engine settings are for protocol"),
            "{e}"
        );
        let e = load(
            dir.path(),
            "game = \"xiangqi\"\n[[agents]]\nagent = \"random\"\nfen_letters = \"KAEHRCP\"\n\
             [[agents]]\nagent = \"random\"\nname = \"b\"\n",
        )
        .unwrap_err();
        assert!(
            e.contains("agents[0].fen_letters: only external agents"),
            "{e}"
        );
    }

    #[test]
    fn external_agent_mistakes_are_config_errors() {
        let dir = tempfile::tempdir().unwrap();
        let err = |agent: &str| {
            load(
                dir.path(),
                &format!("game = \"bait\"\n[[agents]]\n{agent}\n"),
            )
            .unwrap_err()
        };
        let e = err("agent = \"random\"\ncommand = [\"sh\"]");
        assert!(e.contains("agents[0]: give either `agent`"), "{e}");
        let e = err("name = \"x\"");
        assert!(e.contains("agents[0]: missing `agent`"), "{e}");
        // The game's own list of protocols, with the file, line and column.
        let e = err("command = [\"sh\"]\nprotocol = \"uci\"");
        assert!(
            e.ends_with("ext.toml:4:12: agents[0].protocol = \"uci\": bait speaks \"jsonl\""),
            "{e}"
        );
        let e = err("command = [\"sh\"]\nprotocol = \"botzone\"");
        assert!(
            e.contains("agents[0].protocol = \"botzone\": bait speaks \"jsonl\""),
            "{e}"
        );
        let e = load(
            dir.path(),
            "game = \"xiangqi\"\n[[agents]]\ncommand = [\"sh\"]\nprotocol = \"botzone\"\n\
             [[agents]]\nagent = \"random\"\n",
        )
        .unwrap_err();
        assert!(
            e.contains("xiangqi speaks \"jsonl\", \"uci\" or \"ucci\""),
            "{e}"
        );
        let e = err("command = [\"sh\"]\nbotzone_mode = \"keep-running\"");
        assert!(
            e.contains("agents[0].botzone_mode: only for protocol = \"botzone\""),
            "{e}"
        );
        let e = err("agent = \"random\"\nbotzone_mode = \"traditional\"");
        assert!(
            e.contains("agents[0].botzone_mode: only external agents"),
            "{e}"
        );
        let e = err("command = [\"sh\"]\noptions = { Hash = 16 }");
        assert!(
            e.contains("agents[0].options: engine settings are for protocol"),
            "{e}"
        );
        let e = err("command = [\"sh\"]\nprotocol = \"xboard\"");
        assert!(
            e.contains("agents[0].protocol = \"xboard\": bait speaks \"jsonl\""),
            "{e}"
        );
        let e = err("command = [\"no-such-program-here\"]");
        assert!(
            e.contains("`no-such-program-here` is not an executable on PATH")
                || e.contains("not a program that the sandbox"),
            "{e}"
        );
        let e = err("command = [\"./missing.sh\"]");
        assert!(e.contains("missing.sh is not an executable file"), "{e}");
        let e = err("command = []");
        assert!(e.contains("agents[0].command: name a program"), "{e}");
        let e = err("command = [\"sh\"]\nparams = { depth = 2 }");
        assert!(e.contains("only built-in agents take params"), "{e}");
        let e = err("agent = \"random\"\nmemory_mb = 10");
        assert!(
            e.contains("agents[0].memory_mb: only external agents"),
            "{e}"
        );
        let e = err("command = [\"sh\"]\nsandbox = \"docker\"");
        assert!(
            e.contains("agents[0].sandbox = \"docker\": expected"),
            "{e}"
        );
        let e = err("command = [\"sh\"]\nmax_processes = 0");
        assert!(
            e.contains("agents[0].max_processes must be more than 0"),
            "{e}"
        );
        let e = err("command = [\"sh\"]\nworkdir = \"nowhere\"");
        assert!(e.contains("agents[0].workdir"), "{e}");
        let e = err("command = [\"sh\"]\nmemory = 10");
        assert!(e.contains("unknown field `memory`"), "{e}");
    }
}
