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

pub use contestant::Subprocess;
pub use protocols::botzone::BotzoneMode;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

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

/// The name of a wire protocol (config key `protocol`). Which ones a game
/// speaks is the game's own list, [`crate::registry::ArenaGame::PROTOCOLS`],
/// checked when a config is validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProtocolKind {
    /// `arena-jsonl/2`: one JSON object per line, every game (docs/protocol.md).
    Jsonl,
    /// Botzone's bot protocol (see [`botzone`](protocols::botzone)).
    Botzone,
    /// UCI, Fairy-Stockfish numbering (see [`uci`](protocols::uci)).
    Uci,
    /// UCCI, ICCS numbering (see [`uci`](protocols::uci)).
    Ucci,
}

impl ProtocolKind {
    /// Every protocol, in the order error messages list them.
    pub const ALL: &'static [ProtocolKind] = &[
        ProtocolKind::Jsonl,
        ProtocolKind::Botzone,
        ProtocolKind::Uci,
        ProtocolKind::Ucci,
    ];

    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolKind::Jsonl => "jsonl",
            ProtocolKind::Botzone => "botzone",
            ProtocolKind::Uci => "uci",
            ProtocolKind::Ucci => "ucci",
        }
    }

    /// `"a", "b" or "c"`: names for an error message (the protocols a
    /// game speaks).
    pub fn list(kinds: &[ProtocolKind]) -> String {
        crate::names::list(kinds.iter().map(|k| k.as_str()))
    }
}

impl std::str::FromStr for ProtocolKind {
    type Err = crate::names::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(Self::ALL, Self::as_str, s)
    }
}

/// A config's protocol with its own options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `arena-jsonl/2` (docs/protocol.md).
    Jsonl,
    /// Botzone's bot protocol.
    Botzone {
        /// A process per turn, or kept running (config key `botzone_mode`).
        mode: BotzoneMode,
    },
    /// UCI engines.
    Uci(EngineSettings),
    /// UCCI engines.
    Ucci(EngineSettings),
}

/// The seven FEN letters of the Xiangqi pieces an engine reads, in the
/// order general, advisor, elephant, horse, chariot, cannon, soldier (Red's,
/// upper case; Black's are the lower-case ones). Config key `fen_letters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenLetters(pub [u8; 7]);

impl FenLetters {
    /// arena's own letters (Fairy-Stockfish, Pikafish, ElephantEye).
    pub const STANDARD: FenLetters = FenLetters(*b"KABNRCP");

    /// Parse a config value: seven distinct ASCII letters (case ignored).
    pub fn parse(s: &str) -> Result<FenLetters, String> {
        let up: Vec<u8> = s.bytes().map(|b| b.to_ascii_uppercase()).collect();
        if up.len() != 7 || !up.iter().all(u8::is_ascii_alphabetic) {
            return Err(format!(
                "expected seven letters for general, advisor, elephant, horse, chariot, \
                 cannon, soldier (default \"KABNRCP\"; Sjaak II: \"KAEHRCP\"), got {s:?}"
            ));
        }
        if let Some(d) = up.iter().enumerate().find(|(i, b)| up[..*i].contains(b)) {
            return Err(format!("{s:?} uses the letter {} twice", char::from(*d.1)));
        }
        let mut out = [0u8; 7];
        out.copy_from_slice(&up);
        Ok(FenLetters(out))
    }

    /// Rewrite the board field of a FEN written with [`FenLetters::STANDARD`].
    pub fn apply(&self, fen: &str) -> String {
        if *self == FenLetters::STANDARD {
            return fen.to_string();
        }
        let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
        let mut out: String = board
            .chars()
            .map(|c| {
                let up = c.to_ascii_uppercase() as u8;
                match FenLetters::STANDARD.0.iter().position(|&s| s == up) {
                    Some(i) if c.is_ascii_lowercase() => char::from(self.0[i].to_ascii_lowercase()),
                    Some(i) => char::from(self.0[i]),
                    None => c,
                }
            })
            .collect();
        if !rest.is_empty() {
            out.push(' ');
            out.push_str(rest);
        }
        out
    }

    /// As written in a config.
    pub fn as_string(&self) -> String {
        self.0.iter().map(|&b| char::from(b)).collect()
    }
}

/// What a UCI or UCCI engine is told, and how it is timed (config keys
/// `options`, `fen_letters`, `movetime_margin`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Engine options (`setoption`), in config order; each must be one the
    /// engine advertises at start-up.
    pub options: Vec<(String, String)>,
    /// The piece letters of the FENs the engine is sent.
    pub fen_letters: FenLetters,
    /// The share of the remaining soft budget kept back from `movetime`,
    /// in thousandths (default 200: a fifth; at least 10 ms are kept).
    pub margin_permille: u32,
}

impl EngineSettings {
    /// The default margin: a fifth of the budget.
    pub const DEFAULT_MARGIN_PERMILLE: u32 = 200;
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            options: Vec::new(),
            fen_letters: FenLetters::STANDARD,
            margin_permille: Self::DEFAULT_MARGIN_PERMILLE,
        }
    }
}

impl Protocol {
    /// Its name.
    pub fn kind(&self) -> ProtocolKind {
        match self {
            Protocol::Jsonl => ProtocolKind::Jsonl,
            Protocol::Botzone { .. } => ProtocolKind::Botzone,
            Protocol::Uci(_) => ProtocolKind::Uci,
            Protocol::Ucci(_) => ProtocolKind::Ucci,
        }
    }
}

/// How an external agent is contained (config key `sandbox`; the idiom of
/// [`crate::names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sandbox {
    /// No containment beyond the process group and the output caps (trusted
    /// code: your own agents, known engines).
    #[default]
    None,
    /// Resource limits (address space, CPU seconds, processes, file size);
    /// when arena runs as root the agent also runs under an unprivileged uid
    /// of its own (the kernel ignores the process limit for root).
    Rlimit,
    /// bubblewrap: no network, read-only system, only the agent's folder
    /// visible (read-only), private /tmp, own PID namespace, plus the rlimits.
    Bwrap,
}

impl Sandbox {
    /// Every sandbox, in the order error messages list them.
    pub const ALL: &'static [Sandbox] = &[Sandbox::None, Sandbox::Rlimit, Sandbox::Bwrap];

    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            Sandbox::None => "none",
            Sandbox::Rlimit => "rlimit",
            Sandbox::Bwrap => "bwrap",
        }
    }
}

impl std::str::FromStr for Sandbox {
    type Err = crate::names::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(Self::ALL, Self::as_str, s)
    }
}

/// Per-agent process limits (config keys of the same names). The resource
/// limits (`memory_mb`, `cpu_seconds`, `max_processes`, `max_file_mb`) apply
/// under `sandbox = "rlimit"` and `"bwrap"`; the output caps always apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessLimits {
    /// Address-space limit (`RLIMIT_AS`), MiB. Default 2048.
    pub memory_mb: u64,
    /// CPU-time limit of the process (`RLIMIT_CPU`), seconds, for the whole game. Default 600.
    pub cpu_seconds: u64,
    /// Process limit (`RLIMIT_NPROC`, counted per uid: agents run under a uid
    /// of their own when arena is root; otherwise the limit is this many
    /// processes more than the user runs at the agent's start). Default 32.
    pub max_processes: u64,
    /// Largest file the agent may write (`RLIMIT_FSIZE`), MiB. Default 16.
    pub max_file_mb: u64,
    /// Longest stdout line, KiB. Default 1024.
    pub max_line_kb: u64,
    /// Total stdout per game, KiB. Default 65536 (64 MiB).
    pub max_output_kb: u64,
    /// stderr kept in the agent's log file per game, KiB (the rest is
    /// drained and dropped). Default 1024.
    pub max_stderr_kb: u64,
    /// Time between SIGTERM and SIGKILL when the process is stopped. Default 100 ms.
    pub grace: Duration,
}

impl Default for ProcessLimits {
    fn default() -> Self {
        ProcessLimits {
            memory_mb: 2048,
            cpu_seconds: 600,
            max_processes: 32,
            max_file_mb: 16,
            max_line_kb: 1024,
            max_output_kb: 64 * 1024,
            max_stderr_kb: 1024,
            grace: Duration::from_millis(100),
        }
    }
}

/// An external agent, resolved from a config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    /// Program and arguments. A program containing `/` is relative to `workdir`.
    pub command: Vec<String>,
    /// The protocol it speaks, with its options.
    pub protocol: Protocol,
    /// Its working directory (absolute); default: the config's folder.
    pub workdir: PathBuf,
    /// Its containment.
    pub sandbox: Sandbox,
    /// Its limits.
    pub limits: ProcessLimits,
    /// Extra environment variables (config key `env`, default none), set
    /// after arena's defined set (see [`supervise::sandbox::agent_env`]).
    pub env: Vec<(String, String)>,
    /// Whether `workdir` is writable inside a bwrap sandbox (false for
    /// agents; true for the build step of `arena grade`, which compiles in
    /// the submission's private copy).
    pub writable_workdir: bool,
    /// Folders shown read-only inside a bwrap sandbox (for example the
    /// `arena` Python package for graded Python submissions); the other
    /// sandboxes show the whole file system and ignore them.
    pub mounts: Vec<Mount>,
}

/// A folder of the host shown read-only at another path inside a bwrap
/// sandbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mount {
    /// The folder on the host (absolute).
    pub source: PathBuf,
    /// Where the sandbox sees it (absolute).
    pub target: PathBuf,
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
    use crate::config::{self, AgentKind};

    fn load(dir: &Path, text: &str) -> Result<crate::config::RunConfig, String> {
        let p = dir.join("ext.toml");
        std::fs::write(&p, text).unwrap();
        config::load(&p).map_err(|e| e.to_string())
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
