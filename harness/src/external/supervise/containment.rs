//! Containing whole process trees of agents, whatever they do to escape.
//!
//! A process group, a session or an environment variable can be shed by an
//! agent (`setsid`, `env -i`); this module adds marks an agent cannot shed:
//!
//! - **Child subreaper.** Arena marks itself `PR_SET_CHILD_SUBREAPER`, so an
//!   orphan (a double fork) is re-parented to arena instead of init: every
//!   process an agent starts stays a descendant of arena. Re-parented orphans
//!   that die are reaped here ([`reap_orphans`]).
//! - **cgroup v2 per agent**, where arena may create cgroups (root, or a
//!   delegated subtree): each agent process is moved into
//!   `<arena's cgroup>/arena-<pid>/a<n>` before it executes, and its end is
//!   `cgroup.kill` on that cgroup: every process it ever started, however it
//!   detached. Set `ARENA_CGROUPS=off` to disable (tests of the fallback).
//! - **Registry of live agents** ([`register`]): at an agent's end,
//!   [`kill_tree`] kills its cgroup, its process group, its token holders,
//!   its leased uid's processes, all their descendants, and the orphans
//!   re-parented to arena that no other live agent claims.
//!   [`kill_all_agents`] does it for every live agent (for Ctrl-C).
//! - **Watchdog.** A small process forked from arena that outlives it: when
//!   arena dies (even by SIGKILL), the watchdog sees its pipe close and
//!   kills every registered process group, every leased uid's processes and
//!   arena's agent cgroups.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// The environment variable that disables the per-agent cgroups (`off`).
pub const CGROUPS_VAR: &str = "ARENA_CGROUPS";

/// A live agent as the registry knows it.
#[derive(Clone, Debug)]
struct Live {
    id: u64,
    root: i32,
    pgid: i32,
    token: String,
    uid: Option<u32>,
    cgroup: Option<PathBuf>,
}

/// The process-wide state: the registry and what [`init`] set up.
struct State {
    me: i32,
    my_pgid: i32,
    cgroup_base: Option<PathBuf>,
    watchdog: Option<Watchdog>,
}

struct Watchdog {
    pid: i32,
    pipe: std::fs::File,
}

fn registry() -> MutexGuard<'static, Vec<Live>> {
    static REG: Mutex<Vec<Live>> = Mutex::new(Vec::new());
    REG.lock().unwrap_or_else(|p| p.into_inner())
}

fn state() -> &'static Mutex<State> {
    static STATE: OnceLock<Mutex<State>> = OnceLock::new();
    STATE.get_or_init(|| {
        let me = std::process::id() as i32;
        let _ = rustix::process::set_child_subreaper(rustix::process::Pid::from_raw(me));
        let cgroup_base = setup_cgroups(me);
        let watchdog = start_watchdog(cgroup_base.as_deref());
        Mutex::new(State {
            me,
            my_pgid: rustix::process::getpgrp().as_raw_nonzero().get(),
            cgroup_base,
            watchdog,
        })
    })
}

fn lock_state() -> MutexGuard<'static, State> {
    state().lock().unwrap_or_else(|p| p.into_inner())
}

/// Set up containment for this process (idempotent, cheap after the first
/// call): subreaper, cgroups where possible, the watchdog.
pub fn init() {
    let _ = state();
}

/// Whether agents get a cgroup of their own here.
pub fn cgroups_available() -> bool {
    lock_state().cgroup_base.is_some()
}

// ---------------------------------------------------------------- cgroups

/// The cgroup v2 mount point and this process's cgroup path in it.
fn own_cgroup_dir() -> Option<PathBuf> {
    let info = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let mount = info.lines().find_map(|l| {
        let (pre, post) = l.split_once(" - ")?;
        (post.split_whitespace().next()? == "cgroup2").then(|| pre.split_whitespace().nth(4))?
    })?;
    let cg = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let rel = cg.lines().find_map(|l| l.strip_prefix("0::"))?;
    Some(Path::new(mount).join(rel.trim_start_matches('/')))
}

fn setup_cgroups(me: i32) -> Option<PathBuf> {
    if std::env::var(CGROUPS_VAR).is_ok_and(|v| v == "off") {
        return None;
    }
    let own = own_cgroup_dir()?;
    clean_stale_cgroups(&own);
    let base = own.join(format!("arena-{me}"));
    if std::fs::create_dir(&base).is_err() && !base.is_dir() {
        return None;
    }
    if !base.join("cgroup.kill").exists() {
        let _ = std::fs::remove_dir(&base);
        return None;
    }
    Some(base)
}

/// Remove the empty agent cgroups left by arena processes that are gone.
fn clean_stale_cgroups(own: &Path) {
    let Ok(d) = std::fs::read_dir(own) else {
        return;
    };
    for e in d.filter_map(|e| e.ok()) {
        let name = e.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix("arena-")) else {
            continue;
        };
        if Path::new("/proc").join(pid).exists() {
            continue;
        }
        let _ = std::fs::write(e.path().join("cgroup.kill"), "1");
        if let Ok(sub) = std::fs::read_dir(e.path()) {
            for s in sub.filter_map(|s| s.ok()) {
                if s.path().is_dir() {
                    let _ = std::fs::remove_dir(s.path());
                }
            }
        }
        let _ = std::fs::remove_dir(e.path());
    }
}

/// A new cgroup for one agent, and the `cgroup.procs` path its process
/// writes `0` to (before it executes) to move itself in.
pub fn new_agent_cgroup() -> Option<(PathBuf, CString)> {
    static N: AtomicU64 = AtomicU64::new(0);
    let base = lock_state().cgroup_base.clone()?;
    let dir = base.join(format!("a{}", N.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir(&dir).ok()?;
    let procs = CString::new(
        dir.join("cgroup.procs")
            .into_os_string()
            .into_encoded_bytes(),
    )
    .ok()?;
    Some((dir, procs))
}

/// Kill everything in `dir` and remove it once it is empty (up to ~1 s).
fn kill_cgroup(dir: &Path) {
    let _ = std::fs::write(dir.join("cgroup.kill"), "1");
    let until = Instant::now() + Duration::from_secs(1);
    while std::fs::remove_dir(dir).is_err() && dir.exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(2));
    }
}

// ---------------------------------------------------------------- /proc

/// One process as `/proc/<pid>/stat` shows it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Proc {
    pub pid: i32,
    pub state: char,
    pub ppid: i32,
    pub pgid: i32,
}

impl Proc {
    fn dead(&self) -> bool {
        self.state == 'Z' || self.state == 'X'
    }
}

pub(crate) fn stat(pid: i32) -> Option<Proc> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &s[s.rfind(')')? + 1..];
    let mut f = rest.split_whitespace();
    let state = f.next()?.chars().next()?;
    let ppid = f.next()?.parse().ok()?;
    let pgid = f.next()?.parse().ok()?;
    Some(Proc {
        pid,
        state,
        ppid,
        pgid,
    })
}

/// Every process now.
pub(crate) fn snapshot() -> Vec<Proc> {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .filter_map(stat)
                .collect()
        })
        .unwrap_or_default()
}

fn uid_of(pid: i32) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/{pid}"))
        .ok()
        .map(|m| m.uid())
}

fn has_env(pid: i32, needle: &[u8]) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .map(|env| env.split(|&b| b == 0).any(|kv| kv == needle))
        .unwrap_or(false)
}

fn in_cgroup(pid: i32, dir: &Path) -> bool {
    let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some(parent) = dir
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
    else {
        return false;
    };
    let tail = format!("/{parent}/{name}");
    std::fs::read_to_string(format!("/proc/{pid}/cgroup"))
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("0::") && l.ends_with(&tail))
        })
        .unwrap_or(false)
}

/// `roots` and all their descendants in `procs`.
pub(crate) fn with_descendants(procs: &[Proc], roots: &[i32]) -> Vec<i32> {
    let mut out: Vec<i32> = roots.to_vec();
    let mut i = 0;
    while i < out.len() {
        let p = out[i];
        for c in procs.iter().filter(|c| c.ppid == p) {
            if !out.contains(&c.pid) {
                out.push(c.pid);
            }
        }
        i += 1;
    }
    out
}

/// Whether `p` carries one of the marks of `a` (cgroup, group, token, uid)
/// or is `a`'s process.
fn marked_by(p: &Proc, a: &Live) -> bool {
    if p.pid == a.root || p.pgid == a.pgid {
        return true;
    }
    if let Some(dir) = &a.cgroup {
        if in_cgroup(p.pid, dir) {
            return true;
        }
    }
    if a.uid.is_some() && uid_of(p.pid) == a.uid {
        return true;
    }
    has_env(
        p.pid,
        format!(
            "{}={}",
            crate::external::supervise::sandbox::TOKEN_VAR,
            a.token
        )
        .as_bytes(),
    )
}

// ---------------------------------------------------------------- registry

/// Register a just-started agent process. Hold the returned guard's
/// [`spawn_lock`] across the spawn, so that no concurrent end of another
/// agent takes the new process for an orphan before it is registered.
pub fn register(root: i32, token: &str, uid: Option<u32>, cgroup: Option<PathBuf>) -> u64 {
    static ID: AtomicU64 = AtomicU64::new(1);
    let id = ID.fetch_add(1, Ordering::Relaxed);
    let a = Live {
        id,
        root,
        pgid: root,
        token: token.to_string(),
        uid,
        cgroup,
    };
    watchdog_send(OP_ADD_PGID, root as u32);
    if let Some(u) = uid {
        watchdog_send(OP_ADD_UID, u);
    }
    registry().push(a);
    id
}

/// The lock that makes spawning and registering one step with respect to
/// [`kill_tree`]'s orphan scan.
pub fn spawn_lock() -> MutexGuard<'static, ()> {
    static L: Mutex<()> = Mutex::new(());
    L.lock().unwrap_or_else(|p| p.into_inner())
}

/// Kill everything that belongs to agent `id` (see the module
/// documentation), reap re-parented zombies, and unregister it. Returns the
/// processes that were found alive and killed (pids, for the leak report).
pub fn kill_tree(id: u64) -> Vec<i32> {
    init();
    let (me, my_pgid, watchdog) = {
        let s = lock_state();
        (s.me, s.my_pgid, s.watchdog.as_ref().map(|w| w.pid))
    };
    // No agent may start (and look like an orphan) while this runs.
    let _spawning = spawn_lock();
    let (agent, others) = {
        let reg = registry();
        let Some(a) = reg.iter().find(|a| a.id == id).cloned() else {
            return Vec::new();
        };
        let others: Vec<Live> = reg.iter().filter(|o| o.id != id).cloned().collect();
        (a, others)
    };
    let killed = kill_matching(me, my_pgid, watchdog, &others, |p| marked_by(p, &agent));
    if let Some(dir) = &agent.cgroup {
        kill_cgroup(dir);
    }
    reap_orphans();
    registry().retain(|a| a.id != id);
    watchdog_send(OP_DEL_PGID, agent.pgid as u32);
    if let Some(u) = agent.uid {
        watchdog_send(OP_DEL_UID, u);
    }
    killed
}

/// SIGKILL, until none is left (at most ~200 ms), every process that
/// `mine` accepts, the orphans re-parented to arena that no agent of
/// `others` claims, and all their descendants. Live agents of `others` and
/// their descendants are never touched.
fn kill_matching(
    me: i32,
    my_pgid: i32,
    watchdog: Option<i32>,
    others: &[Live],
    mine: impl Fn(&Proc) -> bool,
) -> Vec<i32> {
    use rustix::process::{kill_process, Pid, Signal};
    let mut seen: Vec<i32> = Vec::new();
    for round in 0..40 {
        let procs = snapshot();
        let live: Vec<&Proc> = procs.iter().filter(|p| !p.dead()).collect();
        let protected: Vec<i32> = {
            let claimed: Vec<i32> = live
                .iter()
                .filter(|p| others.iter().any(|o| marked_by(p, o)))
                .map(|p| p.pid)
                .collect();
            with_descendants(&procs, &claimed)
        };
        let mut roots: Vec<i32> = live
            .iter()
            .filter(|p| p.pid != me && Some(p.pid) != watchdog)
            .filter(|p| !protected.contains(&p.pid))
            .filter(|p| mine(p) || (p.ppid == me && p.pgid != my_pgid))
            .map(|p| p.pid)
            .collect();
        roots.retain(|p| !protected.contains(p));
        let targets: Vec<i32> = with_descendants(&procs, &roots)
            .into_iter()
            .filter(|p| *p != me && Some(*p) != watchdog && !protected.contains(p))
            .filter(|p| live.iter().any(|l| l.pid == *p))
            .collect();
        if targets.is_empty() {
            break;
        }
        for pid in targets {
            if let Some(p) = Pid::from_raw(pid) {
                let _ = kill_process(p, Signal::Kill);
            }
            if !seen.contains(&pid) {
                seen.push(pid);
            }
        }
        std::thread::sleep(Duration::from_millis(if round < 5 { 2 } else { 5 }));
    }
    seen
}

/// Reap the zombies re-parented to arena: children of arena outside its own
/// process group that are not a registered agent process (those are reaped
/// by their supervisor) nor the watchdog. Processes arena starts itself for
/// other purposes stay in its process group and are left alone.
pub fn reap_orphans() {
    let (me, my_pgid, watchdog) = {
        let s = lock_state();
        (s.me, s.my_pgid, s.watchdog.as_ref().map(|w| w.pid))
    };
    let roots: Vec<i32> = registry().iter().map(|a| a.root).collect();
    for p in snapshot() {
        if p.state == 'Z'
            && p.ppid == me
            && p.pgid != my_pgid
            && !roots.contains(&p.pid)
            && Some(p.pid) != watchdog
        {
            if let Some(pid) = rustix::process::Pid::from_raw(p.pid) {
                let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::NOHANG);
            }
        }
    }
}

/// Synchronously kill every live agent this arena process started — whole
/// trees: cgroups, process groups, leased uids, token holders, descendants,
/// and every orphan re-parented to arena. For the Ctrl-C handler, before
/// exiting; safe to call from any thread, at any time. Returns how many
/// processes the final sweep found alive (after the group and cgroup kills).
pub fn kill_all_agents() -> usize {
    init();
    let (me, my_pgid, watchdog) = {
        let s = lock_state();
        (s.me, s.my_pgid, s.watchdog.as_ref().map(|w| w.pid))
    };
    let _spawning = spawn_lock();
    let all: Vec<Live> = registry().clone();
    for a in &all {
        if let Some(g) = rustix::process::Pid::from_raw(a.pgid) {
            let _ = rustix::process::kill_process_group(g, rustix::process::Signal::Kill);
        }
        if let Some(dir) = &a.cgroup {
            let _ = std::fs::write(dir.join("cgroup.kill"), "1");
        }
    }
    let killed = kill_matching(me, my_pgid, watchdog, &[], |p| {
        all.iter().any(|a| marked_by(p, a))
    });
    reap_orphans();
    killed.len()
}

// ---------------------------------------------------------------- watchdog

const OP_ADD_PGID: u32 = 1;
const OP_DEL_PGID: u32 = 2;
const OP_ADD_UID: u32 = 3;
const OP_DEL_UID: u32 = 4;
/// How many groups and uids the watchdog tracks at once.
const WATCH_SLOTS: usize = 4096;

fn watchdog_send(op: u32, value: u32) {
    use std::io::Write;
    let s = lock_state();
    if let Some(w) = &s.watchdog {
        let mut msg = [0u8; 8];
        msg[..4].copy_from_slice(&op.to_ne_bytes());
        msg[4..].copy_from_slice(&value.to_ne_bytes());
        let _ = (&w.pipe).write_all(&msg);
    }
}

/// The watchdog's pid, if it runs.
pub fn watchdog_pid() -> Option<i32> {
    lock_state().watchdog.as_ref().map(|w| w.pid)
}

fn start_watchdog(cgroup_base: Option<&Path>) -> Option<Watchdog> {
    use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd};
    let kill_path: Option<CString> = cgroup_base.and_then(|b| {
        CString::new(b.join("cgroup.kill").into_os_string().into_encoded_bytes()).ok()
    });
    let (r, w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).ok()?;
    let r_raw = r.as_raw_fd();
    // SAFETY: the child only makes async-signal-safe system calls on memory
    // prepared before the fork (no allocation, no locks) and ends in _exit.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return None;
    }
    if pid == 0 {
        // SAFETY: see above.
        unsafe { watchdog_main(r_raw, kill_path.as_ref().map(|c| c.as_ptr())) }
    }
    drop(r);
    // SAFETY: `w` is an owned fd; the File takes it over.
    let pipe = unsafe { std::fs::File::from_raw_fd(w.into_raw_fd()) };
    Some(Watchdog { pid, pipe })
}

/// The watchdog process: read registrations until arena's end of the pipe
/// closes, then kill everything registered and exit.
///
/// # Safety
/// Only for the child of a fork: no allocation, async-signal-safe calls only.
unsafe fn watchdog_main(fd: i32, kill_path: Option<*const libc::c_char>) -> ! {
    libc::setsid();
    libc::signal(libc::SIGINT, libc::SIG_IGN);
    libc::signal(libc::SIGTERM, libc::SIG_IGN);
    libc::signal(libc::SIGHUP, libc::SIG_IGN);
    libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    libc::dup2(fd, 0);
    let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
    if null >= 0 {
        libc::dup2(null, 1);
        libc::dup2(null, 2);
    }
    libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32);
    let mut pgids = [0i32; WATCH_SLOTS];
    let mut uids = [0u32; WATCH_SLOTS];
    let mut buf = [0u8; 8];
    loop {
        let mut got = 0usize;
        while got < 8 {
            let n = libc::read(0, buf.as_mut_ptr().add(got).cast(), 8 - got);
            if n <= 0 {
                if n < 0 && *libc::__errno_location() == libc::EINTR {
                    continue;
                }
                got = usize::MAX;
                break;
            }
            got += n as usize;
        }
        if got == usize::MAX {
            break;
        }
        let op = u32::from_ne_bytes([buf[0], buf[1], buf[2], buf[3]]);
        let v = u32::from_ne_bytes([buf[4], buf[5], buf[6], buf[7]]);
        match op {
            OP_ADD_PGID => {
                if let Some(s) = pgids.iter_mut().find(|s| **s == 0) {
                    *s = v as i32;
                }
            }
            OP_DEL_PGID => {
                if let Some(s) = pgids.iter_mut().find(|s| **s == v as i32) {
                    *s = 0;
                }
            }
            OP_ADD_UID => {
                if let Some(s) = uids.iter_mut().find(|s| **s == 0) {
                    *s = v;
                }
            }
            OP_DEL_UID => {
                if let Some(s) = uids.iter_mut().find(|s| **s == v) {
                    *s = 0;
                }
            }
            _ => {}
        }
    }
    // Arena is gone: kill what it left.
    if let Some(p) = kill_path {
        let f = libc::open(p, libc::O_WRONLY);
        if f >= 0 {
            libc::write(f, b"1".as_ptr().cast(), 1);
            libc::close(f);
        }
    }
    for g in pgids.iter().filter(|g| **g > 1) {
        libc::kill(-*g, libc::SIGKILL);
    }
    for u in uids.iter().filter(|u| **u != 0) {
        // kill(-1) as the uid: every process of that uid.
        let c = libc::fork();
        if c == 0 {
            if libc::setgid(*u) == 0 && libc::setuid(*u) == 0 {
                libc::kill(-1, libc::SIGKILL);
            }
            libc::_exit(0);
        }
        if c > 0 {
            let mut st = 0;
            libc::waitpid(c, &mut st, 0);
        }
    }
    libc::_exit(0)
}
