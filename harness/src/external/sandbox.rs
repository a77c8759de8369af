//! Building the command line of an external agent for its sandbox:
//! `none` (as given), `rlimit` (resource limits in a `pre_exec` hook, and an
//! unprivileged uid when arena runs as root) and `bwrap` (bubblewrap
//! namespaces plus the same limits).

use super::{ExternalSpec, ProcessLimits, Sandbox};
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The environment variable that marks every process of one agent instance
/// (value: a token unique to the instance), so that survivors can be found
/// in `/proc` even if they left the process group.
pub const TOKEN_VAR: &str = "ARENA_AGENT_TOKEN";

/// First uid of the range used for sandboxed agents when arena runs as root
/// (one uid per agent process, cycling through 1000 values), so that the
/// per-uid process limit of one agent does not count another's processes.
pub const SANDBOX_UID_BASE: u32 = 61000;

/// The `PATH` inside a bwrap sandbox.
const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The environment variable that names the bubblewrap program (default
/// `bwrap`, looked up on `PATH`).
pub const BWRAP_VAR: &str = "ARENA_BWRAP";

/// The bubblewrap program to run.
pub fn bwrap_program() -> std::ffi::OsString {
    std::env::var_os(BWRAP_VAR).unwrap_or_else(|| "bwrap".into())
}

/// Check that bubblewrap is installed and can create its namespaces here
/// (once per process; the answer is cached).
pub fn check_bwrap() -> Result<(), String> {
    static ANSWER: OnceLock<Result<(), String>> = OnceLock::new();
    ANSWER
        .get_or_init(|| {
            let out = std::process::Command::new(bwrap_program())
                .args([
                    "--unshare-all",
                    "--die-with-parent",
                    "--ro-bind",
                    "/",
                    "/",
                    "--proc",
                    "/proc",
                    "--dev",
                    "/dev",
                    "true",
                ])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .output();
            match out {
                Err(e) => Err(format!(
                    "sandbox = \"bwrap\" needs bubblewrap, which cannot be run ({:?}: {e}); \
                     install it (Debian/Ubuntu: apt-get install bubblewrap) or choose another sandbox",
                    bwrap_program()
                )),
                Ok(o) if !o.status.success() => Err(format!(
                    "sandbox = \"bwrap\": bubblewrap is installed but cannot create its sandbox here ({}): {}",
                    o.status,
                    String::from_utf8_lossy(&o.stderr).trim()
                )),
                Ok(_) => Ok(()),
            }
        })
        .clone()
}

fn next_uid() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    SANDBOX_UID_BASE + NEXT.fetch_add(1, Ordering::Relaxed) % 1000
}

/// The command for `spec`, with stdin/stdout/stderr piped, its own process
/// group, the instance `token` in its environment, and the sandbox applied.
pub fn command(spec: &ExternalSpec, token: &str) -> tokio::process::Command {
    let program = &spec.command[0];
    let args = &spec.command[1..];
    let mut cmd = match spec.sandbox {
        Sandbox::None | Sandbox::Rlimit => {
            let resolved = super::resolve_program_for(
                program,
                &spec.workdir,
                super::drops_privileges(spec.sandbox),
            );
            let mut c = match resolved {
                Some(p) => tokio::process::Command::new(p),
                None => tokio::process::Command::new(program),
            };
            c.args(args)
                .current_dir(&spec.workdir)
                .env(TOKEN_VAR, token);
            c
        }
        Sandbox::Bwrap => {
            let mut c = tokio::process::Command::new(bwrap_program());
            c.args(bwrap_args(&spec.workdir, token));
            c.arg("--");
            if program.contains('/') {
                c.arg(spec.workdir.join(program));
            } else {
                c.arg(program);
            }
            c.args(args);
            c.current_dir("/");
            c
        }
    };
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(false);
    // If arena dies without stopping the agent (a second Ctrl-C, a crash),
    // the kernel kills the agent process. (The signal fires when the thread
    // that started it ends: the runner's episode threads outlive their agents.)
    // SAFETY: one prctl system call in the forked child before exec.
    unsafe {
        cmd.pre_exec(|| {
            rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::Kill))
                .map_err(std::io::Error::from)
        });
    }
    if spec.sandbox != Sandbox::None {
        if super::drops_privileges(spec.sandbox) {
            let id = next_uid();
            cmd.uid(id).gid(id);
        }
        let mut limits = spec.limits;
        if !super::drops_privileges(spec.sandbox) {
            // RLIMIT_NPROC counts every process of the uid: without a uid of its
            // own, allow the agent `max_processes` more than the user runs now.
            limits.max_processes = limits
                .max_processes
                .saturating_add(processes_of_uid(rustix::process::geteuid().as_raw()));
        }
        // SAFETY: the hook only makes setrlimit system calls (async-signal-safe,
        // no allocation) in the forked child before exec.
        unsafe {
            cmd.pre_exec(move || apply_rlimits(&limits));
        }
    }
    cmd
}

/// How many processes `uid` runs now (from the owners of `/proc/<pid>`).
fn processes_of_uid(uid: u32) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| {
                    e.file_name()
                        .to_str()
                        .is_some_and(|n| n.parse::<u32>().is_ok())
                })
                .filter(|e| e.metadata().is_ok_and(|m| m.uid() == uid))
                .count() as u64
        })
        .unwrap_or(0)
}

fn bwrap_args(workdir: &Path, token: &str) -> Vec<String> {
    let w = workdir.to_string_lossy().into_owned();
    let mut a: Vec<String> = [
        "--unshare-all",
        "--die-with-parent",
        "--clearenv",
        "--setenv",
        "PATH",
        SANDBOX_PATH,
        "--setenv",
        "HOME",
        "/tmp",
        "--setenv",
        "LANG",
        "C.UTF-8",
        "--setenv",
        TOKEN_VAR,
        token,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for d in ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc"] {
        a.extend(["--ro-bind-try".into(), d.into(), d.into()]);
    }
    for s in [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "--ro-bind",
    ] {
        a.push(s.into());
    }
    a.extend([w.clone(), w.clone(), "--chdir".into(), w]);
    a
}

fn apply_rlimits(l: &ProcessLimits) -> std::io::Result<()> {
    use rustix::process::{setrlimit, Resource, Rlimit};
    let set = |r: Resource, v: u64| {
        setrlimit(
            r,
            Rlimit {
                current: Some(v),
                maximum: Some(v),
            },
        )
        .map_err(std::io::Error::from)
    };
    set(Resource::As, l.memory_mb.saturating_mul(1 << 20))?;
    set(Resource::Cpu, l.cpu_seconds)?;
    set(Resource::Nproc, l.max_processes)?;
    set(Resource::Fsize, l.max_file_mb.saturating_mul(1 << 20))?;
    set(Resource::Core, 0)?;
    Ok(())
}
