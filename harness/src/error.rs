//! Errors of the harness library and the exit codes of the `arena` binary.
//!
//! Agent misbehaviour is never an error here: it is an [`crate::play::outcome::Outcome`]
//! in a result row. These errors are harness faults and bad input: an
//! unreadable config or level, a CSV that cannot be written.

use std::path::PathBuf;

/// Exit codes of `arena`, defined in one place.
pub mod exit {
    /// Success.
    pub const OK: i32 = 0;
    /// Unexpected internal failure.
    pub const FAILURE: i32 = 1;
    /// Bad input: config, level file, command-line value.
    pub const BAD_INPUT: i32 = 2;
    /// The machine failed arena, not the input: a run could not write its
    /// results (I/O), or agents cannot run here (the sandbox canary).
    pub const IO: i32 = 3;
    /// A check failed (e.g. `arena verify` found an invalid solution).
    pub const CHECK_FAILED: i32 = 4;
    /// Interrupted by the user (Ctrl-C).
    pub const INTERRUPTED: i32 = 130;
}

/// A harness error.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// A config file (or an assignment) is invalid.
    #[error("{0}")]
    Config(String),
    /// A command-line value is invalid (a flag's value, flags that do not
    /// go together, a folder given that is not one).
    #[error("{0}")]
    Flag(String),
    /// A results folder does not hold what the command needs: a run of
    /// another config or arena version (resume), files that are not a run
    /// of arena (restart, summarize, report), a `meta.json`, journal or
    /// replay file this arena cannot read.
    #[error("{0}")]
    ResultsFolder(String),
    /// Shard folders that do not make one run (`arena merge`), or a merge
    /// folder that holds something else.
    #[error("{0}")]
    Merge(String),
    /// A run that cannot be sent to a cluster as asked (`arena slurm`).
    #[error("{0}")]
    Cluster(String),
    /// A level or map file is malformed.
    #[error("{path}: {source}")]
    Level {
        /// The file (or built-in level name).
        path: String,
        /// Where and what.
        #[source]
        source: games::grid::ParseError,
    },
    /// A level that is neither a built-in name nor a readable file.
    #[error("{0}")]
    BadLevel(String),
    /// An agent could not be built from its name and parameters.
    #[error(transparent)]
    Agent(#[from] agents::AgentError),
    /// An input file (a config, a level, an openings or solutions file, an
    /// assignment) cannot be read: bad input, not a machine fault.
    #[error("{path}: {source}")]
    Input {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// Reading or writing a file of a run failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// Writing CSV failed.
    #[error("{path}: {source}")]
    Csv {
        /// The file.
        path: PathBuf,
        /// The CSV error.
        #[source]
        source: csv::Error,
    },
    /// A command that the named game does not support.
    #[error("`arena {command}` does not support game `{game}`; it supports: {supported}")]
    Unsupported {
        /// The subcommand.
        command: &'static str,
        /// The game asked for.
        game: String,
        /// The games that support it.
        supported: String,
    },
    /// A check reported failures (e.g. invalid solutions).
    #[error("{0}")]
    CheckFailed(String),
    /// The machine cannot run the agents as configured (the canary failed:
    /// a sandbox, compiler or folder problem, not the agents' fault);
    /// nothing was played or graded.
    #[error("{0}")]
    Machine(String),
    /// The user interrupted the run; what finished was written.
    #[error("{0}")]
    Interrupted(String),
}

impl HarnessError {
    /// The exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            HarnessError::Config(_)
            | HarnessError::Flag(_)
            | HarnessError::ResultsFolder(_)
            | HarnessError::Merge(_)
            | HarnessError::Cluster(_)
            | HarnessError::Input { .. }
            | HarnessError::Level { .. }
            | HarnessError::BadLevel(_)
            | HarnessError::Agent(_)
            | HarnessError::Unsupported { .. } => exit::BAD_INPUT,
            HarnessError::Io { .. } | HarnessError::Csv { .. } | HarnessError::Machine(_) => {
                exit::IO
            }
            HarnessError::CheckFailed(_) => exit::CHECK_FAILED,
            HarnessError::Interrupted(_) => exit::INTERRUPTED,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        HarnessError::Io {
            path: path.into(),
            source,
        }
    }
}

/// Read a whole input text file (a config, a level, an assignment), with
/// the path in the error ([`HarnessError::Input`]: exit code 2).
pub fn read_text(path: &std::path::Path) -> Result<String, HarnessError> {
    std::fs::read_to_string(path).map_err(|e| HarnessError::Input {
        path: path.to_path_buf(),
        source: e,
    })
}

/// Whether `err` comes from writing to a reader that went away (`arena
/// list | head -1`): not a failure, the program stops quietly with
/// [`exit::OK`], as ripgrep does.
pub fn is_broken_pipe(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(err);
    while let Some(e) = cur {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        cur = e.source();
    }
    false
}

/// Make the folder that `path` goes into (if it names one), with the
/// folder in the error.
pub fn create_parent(path: &std::path::Path) -> Result<(), HarnessError> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => std::fs::create_dir_all(d).map_err(|e| HarnessError::io(d, e)),
        None => Ok(()),
    }
}

/// Write a whole text file, its folder made first ([`create_parent`]),
/// with the path in the error.
pub fn write_text(path: &std::path::Path, text: &str) -> Result<(), HarnessError> {
    create_parent(path)?;
    std::fs::write(path, text).map_err(|e| HarnessError::io(path, e))
}
