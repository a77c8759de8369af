//! What a config's external agent resolves to ([`ExternalSpec`]): its
//! command, wire protocol and options, working folder, sandbox and limits.
//! Plain data; running it is [`crate::external`]'s.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The name of a wire protocol (config key `protocol`). Which ones a game
/// speaks is the game's own list, [`crate::registry::ArenaGame::PROTOCOLS`],
/// checked when a config is validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProtocolKind {
    /// `arena-jsonl/2`: one JSON object per line, every game (docs/protocol.md).
    Jsonl,
    /// Botzone's bot protocol (see [`botzone`](crate::external::protocols::botzone)).
    Botzone,
    /// UCI, Fairy-Stockfish numbering (see [`uci`](crate::external::protocols::uci)).
    Uci,
    /// UCCI, ICCS numbering (see [`uci`](crate::external::protocols::uci)).
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

/// How a UCI or UCCI engine is asked to search (config key `search`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// `go nodes N`: a fixed number of nodes (`search = { nodes = N }`).
    Nodes(u64),
    /// `go depth N`: a fixed depth in plies (`search = { depth = N }`).
    Depth(u32),
}

impl Search {
    /// The config keys of its kinds.
    pub const KEYS: [&'static str; 2] = ["nodes", "depth"];

    /// The `go` command's parameters: `nodes N` or `depth N`.
    pub fn go_args(self) -> String {
        match self {
            Search::Nodes(n) => format!("nodes {n}"),
            Search::Depth(d) => format!("depth {d}"),
        }
    }

    /// Read from its config key (`nodes`, `depth`) and a value of 1 or more.
    pub fn from_key(key: &str, value: i64) -> Result<Search, String> {
        if value < 1 {
            return Err(format!("{key} = {value}: expected 1 or more"));
        }
        match key {
            "nodes" => Ok(Search::Nodes(value as u64)),
            "depth" => u32::try_from(value)
                .map(Search::Depth)
                .map_err(|_| format!("depth = {value}: too deep")),
            other => Err(format!(
                "unknown kind {other:?}: expected one of {}",
                Self::KEYS.join(", ")
            )),
        }
    }
}

/// What a UCI or UCCI engine is told, and how it is timed (config keys
/// `options`, `fen_letters`, `movetime_margin`, `search`).
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
    /// A search of fixed size instead of `go movetime` (`None`, the
    /// default, times each move by the budget). A fixed search does not
    /// depend on time: with one thread and a fixed hash size an engine
    /// plays the same moves on every run, and the agent may play under
    /// the counted clock.
    pub search: Option<Search>,
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
            search: None,
        }
    }
}

impl ExternalSpec {
    /// Whether the agent may play under the counted clock: a UCI or UCCI
    /// engine with a fixed `search`, whose moves do not depend on time
    /// (it is charged no counted time; the wall-clock safety net of
    /// [`crate::play::judge::TimeLimits::hang_limit`] still applies).
    pub fn countable(&self) -> bool {
        matches!(&self.protocol, Protocol::Uci(s) | Protocol::Ucci(s) if s.search.is_some())
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
    /// after arena's defined set (see [`crate::external::supervise::sandbox::agent_env`]).
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

/// Whether a bot may keep running between turns (Botzone's per-bot option
/// `enable_keep_running`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BotzoneMode {
    /// A fresh process per turn, fed the whole history; stdin is closed after
    /// the input. A bot that prints the keep-running marker anyway is
    /// stopped after its answer (its next turn is a fresh process).
    #[default]
    Traditional,
    /// As traditional until the bot prints the keep-running marker after an
    /// answer; from then on the process stays alive (stdin open) and each
    /// turn gets only the new request line.
    KeepRunning,
}

impl BotzoneMode {
    /// Every mode, in the order error messages list them.
    pub const ALL: &'static [BotzoneMode] = &[BotzoneMode::Traditional, BotzoneMode::KeepRunning];

    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            BotzoneMode::Traditional => "traditional",
            BotzoneMode::KeepRunning => "keep-running",
        }
    }
}

impl std::str::FromStr for BotzoneMode {
    type Err = crate::names::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(Self::ALL, Self::as_str, s)
    }
}

/// Whether command word `word` names a file of the config's folder: a
/// relative path to an existing file (absolute paths, e.g.
/// `/usr/bin/python3`, are programs of the system, not the agent's own).
pub fn is_own_file(word: &str, config_dir: &Path) -> bool {
    !Path::new(word).is_absolute() && config_dir.join(word).is_file()
}

/// The folder an agent runs in when its config gives no `workdir`: the
/// folder of the first argument of `command` that names an existing file
/// relative to `config_dir` (`["python3", "students/alice/main.py"]` →
/// `config_dir/students/alice`; `["./bots/b/run.sh"]` → `config_dir/bots/b`),
/// else `config_dir` itself.
pub fn default_workdir(command: &[String], config_dir: &Path) -> PathBuf {
    command
        .iter()
        .position(|a| is_own_file(a, config_dir))
        .map(|i| config_dir.join(&command[i]))
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| config_dir.to_path_buf())
}
