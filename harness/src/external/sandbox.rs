//! Building the command line of an external agent for its sandbox:
//! `none` (as given), `rlimit` (resource limits in a `pre_exec` hook, and an
//! unprivileged uid when arena runs as root) and `bwrap` (bubblewrap
//! namespaces plus the same limits).

use super::{ExternalSpec, ProcessLimits, Sandbox};
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;

/// The environment variable that marks every process of one agent instance
/// (value: a token unique to the instance), so that survivors can be found
/// in `/proc` even if they left the process group.
pub const TOKEN_VAR: &str = "ARENA_AGENT_TOKEN";

/// First uid of the range used for sandboxed agents when arena runs as root
/// (one uid per live agent process, leased machine-wide by [`super::uids`]),
/// so that the per-uid process limit of one agent does not count another's
/// processes.
pub const SANDBOX_UID_BASE: u32 = super::uids::UID_BASE;

/// The `PATH` inside a bwrap sandbox.
const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The environment variable that names the bubblewrap program (default
/// `bwrap`, looked up on `PATH`).
pub const BWRAP_VAR: &str = "ARENA_BWRAP";

/// The bubblewrap program to run.
pub fn bwrap_program() -> std::ffi::OsString {
    std::env::var_os(BWRAP_VAR).unwrap_or_else(|| "bwrap".into())
}

/// Check that bubblewrap is installed and can create its sandbox here *the
/// way agents will run it*: with the same flags, and, when arena runs as root
/// (agents then run under an unprivileged uid), under such a uid. On hosts
/// where only root may create user namespaces the check therefore fails
/// (instead of every game ending as a crash). Once per process; the answer
/// is cached.
pub fn check_bwrap() -> Result<(), String> {
    static ANSWER: OnceLock<Result<(), String>> = OnceLock::new();
    ANSWER.get_or_init(check_bwrap_now).clone()
}

fn check_bwrap_now() -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let lease = if rustix::process::geteuid().is_root() {
        match super::uids::lease() {
            Ok(l) => Some(l),
            Err(e) => return Err(format!("sandbox = \"bwrap\": {e}")),
        }
    } else {
        None
    };
    let probe = ExternalSpec {
        command: vec!["true".into()],
        protocol: super::Protocol::Jsonl,
        workdir: PathBuf::from("/"),
        sandbox: Sandbox::Bwrap,
        limits: ProcessLimits::default(),
        env: Vec::new(),
        writable_workdir: false,
    };
    let env = agent_env(&probe, "check", Sandbox::Bwrap);
    let mut cmd = std::process::Command::new(bwrap_program());
    cmd.args(bwrap_args(&probe.workdir, &probe.limits, &env, false))
        .args(["--", "true"])
        .env_clear()
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(l) = &lease {
        cmd.uid(l.uid()).gid(l.uid());
    }
    let who = match &lease {
        Some(l) => format!(
            " as uid {} (arena runs as root, so agents run under such a uid)",
            l.uid()
        ),
        None => String::new(),
    };
    match cmd.output() {
        Err(e) => Err(format!(
            "sandbox = \"bwrap\" needs bubblewrap, which cannot be run{who} ({:?}: {e}); \
             install it (Debian/Ubuntu: apt-get install bubblewrap) or choose another sandbox",
            bwrap_program()
        )),
        Ok(o) if !o.status.success() => Err(format!(
            "sandbox = \"bwrap\": bubblewrap cannot create its sandbox{who} ({}): {}; \
             unprivileged user namespaces may be disabled on this host \
             (sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces, \
             or AppArmor's kernel.apparmor_restrict_unprivileged_userns)",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(_) => Ok(()),
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

/// The `PATH` agents get (every sandbox), unless their `env` sets one.
pub const AGENT_PATH: &str = SANDBOX_PATH;

/// The environment of an agent, the same set in every sandbox (see
/// `docs/sandbox.md`): `PATH`, `HOME` and `PWD` (the agent's `workdir`), `TMPDIR=/tmp`,
/// `LANG`/`LC_ALL=C.UTF-8`, `PYTHONUNBUFFERED=1`, `PYTHONDONTWRITEBYTECODE=1`,
/// `ARENA_SANDBOX` (the mode), [`TOKEN_VAR`]; then the agent's `env`
/// entries, which may override any of them but the token.
pub fn agent_env(spec: &ExternalSpec, token: &str, sandbox: Sandbox) -> Vec<(String, String)> {
    let home = spec.workdir.to_string_lossy();
    let mut env: Vec<(String, String)> = [
        ("PATH", AGENT_PATH),
        ("HOME", &*home),
        ("PWD", &*home),
        ("TMPDIR", "/tmp"),
        ("LANG", "C.UTF-8"),
        ("LC_ALL", "C.UTF-8"),
        ("PYTHONUNBUFFERED", "1"),
        ("PYTHONDONTWRITEBYTECODE", "1"),
        ("ARENA_SANDBOX", sandbox.as_str()),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in &spec.env {
        if k == TOKEN_VAR {
            continue;
        }
        env.retain(|(e, _)| e != k);
        env.push((k.clone(), v.clone()));
    }
    env.push((TOKEN_VAR.to_string(), token.to_string()));
    env
}

/// Where an agent's process is placed before it executes.
#[derive(Debug, Default)]
pub struct Placement {
    /// The uid (and gid) to run under (a leased one; only when arena is root).
    pub uid: Option<u32>,
    /// The `cgroup.procs` file of the agent's own cgroup.
    pub cgroup_procs: Option<CString>,
}

/// The command for `spec`, with stdin/stdout/stderr piped, its own process
/// group, the defined environment ([`agent_env`]) with the instance `token`,
/// and the sandbox applied; `place` puts the process in its cgroup and under
/// its uid before it executes.
pub fn command(spec: &ExternalSpec, token: &str, place: Placement) -> tokio::process::Command {
    let program = &spec.command[0];
    let args = &spec.command[1..];
    let env = agent_env(spec, token, spec.sandbox);
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
            c.args(args).current_dir(&spec.workdir).env_clear();
            c.envs(env.iter().map(|(k, v)| (k, v)));
            c
        }
        Sandbox::Bwrap => {
            let mut c = tokio::process::Command::new(bwrap_program());
            c.args(bwrap_args(
                &spec.workdir,
                &spec.limits,
                &env,
                spec.writable_workdir,
            ));
            c.arg("--");
            if program.contains('/') {
                c.arg(spec.workdir.join(program));
            } else {
                c.arg(program);
            }
            c.args(args);
            c.current_dir("/").env_clear();
            c
        }
    };
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(false);
    let parent = rustix::process::getpid();
    let Placement { uid, cgroup_procs } = place;
    // In the forked child, before exec: into the agent's cgroup (while still
    // privileged), drop to the agent's uid, then PR_SET_PDEATHSIG (a uid
    // change clears it), so that the kernel kills the agent process if arena
    // dies without stopping it. (The signal fires when the *thread* that
    // started it ends: the runner's episode threads outlive their agents.)
    // SAFETY: only system calls on memory prepared before the fork (no
    // allocation, no locks) run in the forked child.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(p) = &cgroup_procs {
                // Best effort: without it the agent is still tracked by the
                // registry's other marks.
                if let Ok(fd) = rustix::fs::open(
                    p.as_c_str(),
                    rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::CLOEXEC,
                    rustix::fs::Mode::empty(),
                ) {
                    let _ = rustix::io::write(&fd, b"0");
                }
            }
            if let Some(id) = uid {
                use rustix::thread::{set_thread_gid, set_thread_groups, set_thread_res_uid};
                let u = rustix::process::Uid::from_raw(id);
                let g = rustix::process::Gid::from_raw(id);
                set_thread_groups(&[]).map_err(std::io::Error::from)?;
                set_thread_gid(g).map_err(std::io::Error::from)?;
                set_thread_res_uid(u, u, u).map_err(std::io::Error::from)?;
            }
            rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::Kill))
                .map_err(std::io::Error::from)?;
            if rustix::process::getppid() != Some(parent) {
                // Arena died before the death signal was armed.
                return Err(std::io::Error::other("arena is gone"));
            }
            Ok(())
        });
    }
    if spec.sandbox != Sandbox::None {
        let mut limits = spec.limits;
        if uid.is_none() {
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

/// bubblewrap's arguments (before `--` and the program): new user, PID, IPC,
/// UTS, cgroup and network namespaces, `--die-with-parent`, the system
/// folders and `workdir` read-only, `/tmp` and `/dev/shm` as tmpfs capped at
/// half of `memory_mb` each (RAM the address-space limit does not count),
/// `/dev` read-only, and exactly the environment `env`.
fn bwrap_args(
    workdir: &Path,
    limits: &ProcessLimits,
    env: &[(String, String)],
    writable: bool,
) -> Vec<String> {
    let w = workdir.to_string_lossy().into_owned();
    let tmpfs_bytes = (limits.memory_mb.saturating_mul(1 << 20) / 2).max(1 << 20);
    let mut a: Vec<String> = [
        "--unshare-all",
        "--unshare-pid",
        "--die-with-parent",
        "--clearenv",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (k, v) in env {
        a.extend(["--setenv".into(), k.clone(), v.clone()]);
    }
    for d in ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc"] {
        a.extend(["--ro-bind-try".into(), d.into(), d.into()]);
    }
    let size = tmpfs_bytes.to_string();
    for s in [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        &size,
        "--tmpfs",
        "/tmp",
        "--size",
        &size,
        "--tmpfs",
        "/dev/shm",
        "--remount-ro",
        "/dev",
    ] {
        a.push(s.into());
    }
    a.push(if writable { "--bind" } else { "--ro-bind" }.into());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn default_workdir_is_the_folder_of_the_first_existing_file_argument() {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path();
        std::fs::create_dir_all(c.join("students/alice")).unwrap();
        std::fs::write(c.join("students/alice/main.py"), "").unwrap();
        std::fs::create_dir_all(c.join("bots/b")).unwrap();
        std::fs::write(c.join("bots/b/run.sh"), "").unwrap();
        std::fs::write(c.join("top.py"), "").unwrap();
        let w = |words: &[&str]| default_workdir(&cmd(words), c);
        assert_eq!(
            w(&["python3", "students/alice/main.py"]),
            c.join("students/alice")
        );
        assert_eq!(w(&["./bots/b/run.sh", "--depth", "3"]), c.join("bots/b"));
        assert_eq!(w(&["python3", "top.py"]), c.to_path_buf());
        // Folders and missing files do not count; nothing found: the config's folder.
        assert_eq!(w(&["python3", "students", "missing.py"]), c.to_path_buf());
        assert_eq!(w(&["sh", "-c", "true"]), c.to_path_buf());
        // An absolute program is the system's, not the agent's own file.
        assert_eq!(
            w(&["/bin/sh", "students/alice/main.py"]),
            c.join("students/alice")
        );
        assert_eq!(w(&[]), c.to_path_buf());
        // The first existing file wins.
        assert_eq!(
            w(&["python3", "bots/b/run.sh", "students/alice/main.py"]),
            c.join("bots/b")
        );
    }

    #[test]
    fn agent_env_is_the_defined_set_plus_the_config_env() {
        let mut spec = ExternalSpec {
            command: cmd(&["true"]),
            protocol: super::super::Protocol::Jsonl,
            workdir: PathBuf::from("/srv/agents/a"),
            sandbox: Sandbox::Rlimit,
            limits: ProcessLimits::default(),
            env: Vec::new(),
            writable_workdir: false,
        };
        let env = agent_env(&spec, "tok", Sandbox::Rlimit);
        let get = |env: &[(String, String)], k: &str| {
            env.iter().find(|(e, _)| e == k).map(|(_, v)| v.clone())
        };
        assert_eq!(get(&env, "HOME").as_deref(), Some("/srv/agents/a"));
        assert_eq!(get(&env, "PATH").as_deref(), Some(AGENT_PATH));
        assert_eq!(get(&env, TOKEN_VAR).as_deref(), Some("tok"));
        assert_eq!(get(&env, "ARENA_SANDBOX").as_deref(), Some("rlimit"));
        spec.env = vec![
            ("PATH".into(), "/opt/bin".into()),
            ("SEED".into(), "7".into()),
            (TOKEN_VAR.into(), "forged".into()),
        ];
        let env = agent_env(&spec, "tok", Sandbox::Rlimit);
        assert_eq!(get(&env, "PATH").as_deref(), Some("/opt/bin"));
        assert_eq!(get(&env, "SEED").as_deref(), Some("7"));
        assert_eq!(get(&env, TOKEN_VAR).as_deref(), Some("tok"));
        assert_eq!(env.iter().filter(|(k, _)| k == "PATH").count(), 1);
    }

    #[test]
    fn bwrap_caps_its_tmpfs_and_keeps_dev_read_only() {
        let limits = ProcessLimits {
            memory_mb: 256,
            ..ProcessLimits::default()
        };
        let a = bwrap_args(Path::new("/w"), &limits, &[], false);
        let s = a.join(" ");
        let half = (128u64 << 20).to_string();
        assert!(s.contains(&format!("--size {half} --tmpfs /tmp")), "{s}");
        assert!(
            s.contains(&format!("--size {half} --tmpfs /dev/shm")),
            "{s}"
        );
        assert!(s.contains("--remount-ro /dev"), "{s}");
        assert!(
            s.contains("--unshare-pid") && s.contains("--die-with-parent"),
            "{s}"
        );
        assert!(s.contains("--clearenv"), "{s}");
    }
}
