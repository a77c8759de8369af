//! Building the command line of an external agent for its sandbox:
//! `none` (as given), `rlimit` (resource limits in a `pre_exec` hook, and an
//! unprivileged uid when arena runs as root) and `bwrap` (bubblewrap
//! namespaces plus the same limits).

use crate::external::{ExternalSpec, ProcessLimits, Sandbox};
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;

/// The environment variable that marks every process of one agent instance
/// (value: a token unique to the instance), so that survivors can be found
/// in `/proc` even if they left the process group.
pub const TOKEN_VAR: &str = "ARENA_AGENT_TOKEN";

/// First uid of the range used for sandboxed agents when arena runs as root
/// (one uid per live agent process, leased machine-wide by [`crate::external::supervise::uids`]),
/// so that the per-uid process limit of one agent does not count another's
/// processes.
pub const SANDBOX_UID_BASE: u32 = crate::external::supervise::uids::UID_BASE;

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
        match crate::external::supervise::uids::lease() {
            Ok(l) => Some(l),
            Err(e) => return Err(format!("sandbox = \"bwrap\": {e}")),
        }
    } else {
        None
    };
    let probe = ExternalSpec {
        command: vec!["true".into()],
        protocol: crate::external::Protocol::Jsonl,
        workdir: PathBuf::from("/"),
        sandbox: Sandbox::Bwrap,
        limits: ProcessLimits::default(),
        env: Vec::new(),
        writable_workdir: false,
        mounts: Vec::new(),
    };
    let env = agent_env(&probe, "check", Sandbox::Bwrap);
    let mut cmd = std::process::Command::new(bwrap_program());
    cmd.args(bwrap_args(
        &probe.workdir,
        &probe.workdir,
        &probe.limits,
        &env,
        false,
    ))
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

pub use crate::config::external::{default_workdir, is_own_file};

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
    // Under bwrap with a dropped uid, the workdir and the mounts are bound
    // from the stage (see `stage_dir`), which every uid can reach.
    let stage = match (spec.sandbox, place.uid) {
        (Sandbox::Bwrap, Some(_)) => stage_dir().and_then(|dir| {
            let sources =
                std::iter::once(&spec.workdir).chain(spec.mounts.iter().map(|m| &m.source));
            Staging::new(&dir, sources)
        }),
        _ => None,
    };
    let mut cmd = match spec.sandbox {
        Sandbox::None | Sandbox::Rlimit => {
            let drops = crate::external::drops_privileges(spec.sandbox);
            let resolved = crate::external::resolve_program_for(program, &spec.workdir, drops);
            let mut c = match resolved {
                // The agent's own file, by its path from the workdir (which
                // the child enters before it drops its uid), so that folders
                // above the workdir need not be searchable by that uid.
                Some(_) if drops && program.contains('/') && !program.starts_with('/') => {
                    tokio::process::Command::new(Path::new(".").join(program))
                }
                Some(p) => tokio::process::Command::new(p),
                None => tokio::process::Command::new(program),
            };
            c.args(args).current_dir(&spec.workdir).env_clear();
            c.envs(env.iter().map(|(k, v)| (k, v)));
            c
        }
        Sandbox::Bwrap => {
            let mut c = tokio::process::Command::new(bwrap_program());
            let mut sources: Vec<PathBuf> = std::iter::once(&spec.workdir)
                .chain(spec.mounts.iter().map(|m| &m.source))
                .cloned()
                .collect();
            if let Some(st) = &stage {
                sources = st.seen.clone();
            }
            c.args(bwrap_args(
                &sources[0],
                &spec.workdir,
                &spec.limits,
                &env,
                spec.writable_workdir,
            ));
            for (m, from) in spec.mounts.iter().zip(&sources[1..]) {
                c.arg("--ro-bind").arg(from).arg(&m.target);
            }
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
    // privileged), the workdir bound onto the stage in a mount namespace of
    // the child's own (while still privileged), drop to the agent's uid,
    // then PR_SET_PDEATHSIG (a uid change clears it), so that the kernel
    // kills the agent process if arena dies without stopping it. (The signal
    // fires when the *thread* that started it ends: the runner's episode
    // threads outlive their agents.)
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
            if let Some(st) = &stage {
                st.bind()?;
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

/// An empty folder every uid can reach (`/run/arena-stage`, or
/// `/tmp/arena-stage` where `/run` is not writable; root's, mode 0755), or
/// `None` when neither can be made. The agent's folders are bound onto it
/// in a mount namespace of the agent's own (see `Staging`).
pub fn stage_dir() -> Option<PathBuf> {
    static STAGE: OnceLock<Option<PathBuf>> = OnceLock::new();
    STAGE
        .get_or_init(|| {
            use std::os::unix::fs::{DirBuilderExt, MetadataExt};
            ["/run/arena-stage", "/tmp/arena-stage"]
                .into_iter()
                .map(PathBuf::from)
                .find(|p| {
                    let made = std::fs::DirBuilder::new().mode(0o755).create(p);
                    let ok = |m: std::fs::Metadata| m.is_dir() && m.uid() == 0;
                    (made.is_ok() || p.is_dir()) && std::fs::symlink_metadata(p).is_ok_and(ok)
                })
        })
        .clone()
}

/// How a sandboxed agent's folders reach bubblewrap when it runs under a
/// leased uid.
///
/// That uid cannot reach a folder below one that only arena's user may
/// enter (an instructor's home, a `mktemp -d` folder), and bubblewrap
/// resolves its bind sources with the uid's permissions. So the agent's
/// process, still root after the fork, enters a mount namespace of its own,
/// mounts a small tmpfs on the stage ([`stage_dir`]) and binds each folder
/// onto `stage/<i>` there ([`Staging::bind`]); bubblewrap binds those back at
/// the folders' own paths inside the sandbox. The mounts exist only in that
/// process's namespace: no other process sees them, and they end with the
/// sandbox.
struct Staging {
    /// The folders, in order, as `NUL`-terminated paths.
    sources: Vec<CString>,
    /// The stage, then `stage/<i>` for each folder.
    stage: CString,
    points: Vec<CString>,
    /// Where bubblewrap finds each folder (`stage/<i>`).
    seen: Vec<PathBuf>,
}

impl Staging {
    fn new<'a>(stage: &Path, sources: impl Iterator<Item = &'a PathBuf>) -> Option<Staging> {
        let c = |p: &Path| CString::new(p.as_os_str().as_encoded_bytes()).ok();
        let sources: Vec<CString> = sources.map(|p| c(p)).collect::<Option<_>>()?;
        let seen: Vec<PathBuf> = (0..sources.len())
            .map(|i| stage.join(i.to_string()))
            .collect();
        Some(Staging {
            points: seen.iter().map(|p| c(p)).collect::<Option<_>>()?,
            stage: c(stage)?,
            sources,
            seen,
        })
    }

    /// In a forked child running as root, before exec: a mount namespace
    /// of its own (mounts private, so nothing propagates back), a tmpfs on
    /// the stage, and each source bound onto its point. Only system calls
    /// on memory prepared before the fork.
    fn bind(&self) -> std::io::Result<()> {
        let check = |r: libc::c_int| {
            if r == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        };
        let none = std::ptr::null::<libc::c_char>();
        // SAFETY: plain system calls with NUL-terminated strings that live
        // until exec.
        unsafe {
            check(libc::unshare(libc::CLONE_NEWNS))?;
            check(libc::mount(
                none,
                c"/".as_ptr(),
                none,
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            check(libc::mount(
                c"arena-stage".as_ptr(),
                self.stage.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                c"size=64k,mode=0755".as_ptr().cast(),
            ))?;
            for (from, to) in self.sources.iter().zip(&self.points) {
                check(libc::mkdir(to.as_ptr(), 0o755))?;
                check(libc::mount(
                    from.as_ptr(),
                    to.as_ptr(),
                    none,
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                ))?;
            }
        }
        Ok(())
    }
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
/// folders read-only, `source` bound at `workdir` (read-only unless
/// `writable`) as the working folder, `/tmp` and `/dev/shm` as tmpfs capped
/// at half of `memory_mb` each (RAM the address-space limit does not
/// count), `/dev` read-only, and exactly the environment `env`.
fn bwrap_args(
    source: &Path,
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
    a.extend([
        source.to_string_lossy().into_owned(),
        w.clone(),
        "--chdir".into(),
        w,
    ]);
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
            protocol: crate::external::Protocol::Jsonl,
            workdir: PathBuf::from("/srv/agents/a"),
            sandbox: Sandbox::Rlimit,
            limits: ProcessLimits::default(),
            env: Vec::new(),
            writable_workdir: false,
            mounts: Vec::new(),
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
        let a = bwrap_args(Path::new("/w"), Path::new("/w"), &limits, &[], false);
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
