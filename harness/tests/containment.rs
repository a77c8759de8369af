//! Containment of external agents that try to escape or overwhelm arena:
//! orphans that double-fork, `setsid` and exec with an emptied environment;
//! arena killed by SIGKILL; two concurrent runs (uids); the agents'
//! environment; bwrap's tmpfs caps; bwrap checked as the agent's uid; stdout
//! floods; agents closing stdout. The agents are modes of
//! `harness/tests/zoo/contain.py`, copied to a temp folder. Each test covers
//! `none`, `rlimit` and (where bubblewrap works here) `bwrap`.

mod tools;
use harness::external::supervise::process::processes_with_marker;
use harness::external::supervise::sandbox::check_bwrap;
use harness::run::{run_config, ProgressMode, RunOutput};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn chmod(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A temp folder with the agent script in `agent/` (readable by the
/// sandbox uids), and a marker unique to the test.
struct Setup {
    dir: tempfile::TempDir,
    marker: String,
}

fn setup(tag: &str) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    chmod(dir.path(), 0o755);
    let agent = dir.path().join("agent");
    std::fs::create_dir(&agent).unwrap();
    chmod(&agent, 0o755);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/zoo/contain.py");
    std::fs::copy(&src, agent.join("contain.py")).unwrap();
    chmod(&agent.join("contain.py"), 0o755);
    Setup {
        dir,
        marker: format!("arena-contain-{tag}-{}", std::process::id()),
    }
}

/// Every sandbox that can run here.
fn sandboxes() -> Vec<&'static str> {
    let mut v = vec!["none", "rlimit"];
    match check_bwrap() {
        Ok(()) => v.push("bwrap"),
        Err(why) => tools::skip(&format!("the bwrap rows: {why}")),
    }
    v
}

/// `[[agents]]` entries: (label, mode, sandbox, extra TOML).
fn agents(s: &Setup, rows: &[(&str, &str, &str, &str)]) -> String {
    let mut out = String::new();
    for (name, mode, sandbox, extra) in rows {
        // The environment test wants the interpreter itself, not a wrapper
        // (a pyenv shim on arena's PATH adds its own variables).
        let python = if *mode == "env" {
            "/usr/bin/python3"
        } else {
            "python3"
        };
        out.push_str(&format!(
            "\n[[agents]]\nname = \"{name}\"\ncommand = [\"{python}\", \"contain.py\", \"{mode}\", \"{}-{name}\"]\n\
             workdir = \"agent\"\nsandbox = \"{sandbox}\"\n{extra}\n",
            s.marker
        ));
    }
    out
}

fn bait_config(
    s: &Setup,
    concurrency: usize,
    act_hard: &str,
    rows: &[(&str, &str, &str, &str)],
) -> PathBuf {
    let text = format!(
        "name = \"contain\"\ngame = \"bait\"\nlevels = [\"0\"]\nrepetitions = 1\nseed = 5\n\
         concurrency = {concurrency}\nmax_steps = 3\n\n[time]\nact = \"{act_hard}\"\nact_hard = \"{act_hard}\"\n\
         init = \"8s\"\ninit_hard = \"10s\"\n{}",
        agents(s, rows)
    );
    let p = s.dir.path().join(format!("c{}.toml", rows.len()));
    std::fs::write(&p, text).unwrap();
    p
}

fn run_here(s: &Setup, cfg: &Path) -> RunOutput {
    let cfg = harness::registry::load_config(cfg).unwrap();
    run_config(&cfg, &s.dir.path().join("out"), ProgressMode::Silent).unwrap()
}

fn arena(cfg: &Path, out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
    c.args(["run", "-q", "--out"])
        .arg(out)
        .arg(cfg)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

fn log_of(out_dir: &Path, label: &str) -> String {
    let suffix = format!("-{label}.stderr.log");
    std::fs::read_dir(out_dir.join("logs"))
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| e.file_name().to_string_lossy().ends_with(&suffix))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .unwrap_or_default()
}

/// Processes with `marker`, after waiting up to `within` for them to go.
fn left_after(marker: &str, within: Duration) -> Vec<i32> {
    let until = Instant::now() + within;
    loop {
        let left = processes_with_marker(marker);
        if left.is_empty() || Instant::now() >= until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wait_for(marker: &str, within: Duration) -> bool {
    let until = Instant::now() + within;
    while Instant::now() < until {
        if !processes_with_marker(marker).is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn kill_arena(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Zombie children of this process outside its process group (re-parented
/// orphans nobody reaped), after waiting up to 1 s.
fn unreaped_zombies() -> Vec<i32> {
    let me = std::process::id() as i32;
    let my_pgid = rustix::process::getpgrp().as_raw_nonzero().get();
    let scan = || -> Vec<i32> {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| {
                let Ok(s) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                    return false;
                };
                let f: Vec<&str> = s[s.rfind(')').unwrap() + 2..].split(' ').collect();
                f[0] == "Z" && f[1] == me.to_string() && f[2] != my_pgid.to_string()
            })
            .collect()
    };
    let until = Instant::now() + Duration::from_secs(1);
    loop {
        let z = scan();
        if z.is_empty() || Instant::now() >= until {
            return z;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Item 1: an orphan that double-forks, calls setsid and execs with `env -i`
/// is killed when its agent ends (arena is the subreaper; the agent's
/// cgroup, where available), and re-parented zombies are reaped.
#[test]
fn orphans_die_with_their_agent() {
    let s = setup("orphan");
    let boxes = sandboxes();
    let names: Vec<String> = boxes.iter().map(|b| format!("orphan-{b}")).collect();
    let rows: Vec<(&str, &str, &str, &str)> = boxes
        .iter()
        .zip(&names)
        .map(|(b, n)| (n.as_str(), "orphan", *b, ""))
        .collect();
    let cfg = bait_config(&s, 3, "3s", &rows);
    let out = run_here(&s, &cfg);
    for n in &names {
        let row = out.rows.iter().find(|r| &r.agent == n).unwrap();
        assert_eq!(row.outcome.to_string(), "normal", "{n}: {}", row.detail);
        assert!(log_of(&out.dir, n).contains("orphan started"), "{n}");
    }
    let left = left_after(&s.marker, Duration::from_millis(300));
    assert!(left.is_empty(), "orphans outlived their agents: {left:?}");
    let z = unreaped_zombies();
    assert!(z.is_empty(), "unreaped zombies: {z:?}");
}

/// Item 1 without cgroups (`ARENA_CGROUPS=off`): the subreaper and the
/// registry's orphan scan still catch the orphan.
#[test]
fn orphans_die_with_their_agent_without_cgroups() {
    let s = setup("orphan-nocg");
    let boxes = sandboxes();
    let names: Vec<String> = boxes.iter().map(|b| format!("nocg-{b}")).collect();
    let rows: Vec<(&str, &str, &str, &str)> = boxes
        .iter()
        .zip(&names)
        .map(|(b, n)| (n.as_str(), "orphan", *b, ""))
        .collect();
    let cfg = bait_config(&s, 3, "3s", &rows);
    let out_dir = s.dir.path().join("out");
    let mut c = arena(&cfg, &out_dir);
    c.env("ARENA_CGROUPS", "off");
    let mut child = c.spawn().unwrap();
    // Wait for the run, then check while nothing else could have killed it:
    // arena's own end-of-agent cleanup is the only thing that kills a
    // setsid'd orphan of a `none` agent.
    let st = child.wait().unwrap();
    assert!(st.success(), "{st}");
    for n in &names {
        assert!(log_of(&out_dir, n).contains("orphan started"), "{n}");
    }
    let left = left_after(&s.marker, Duration::from_millis(500));
    assert!(left.is_empty(), "orphans outlived their agents: {left:?}");
}

/// Item 2: when arena is SIGKILLed, nothing of its agents survives: the
/// agent process (PR_SET_PDEATHSIG / bwrap's --die-with-parent) and its
/// children (the watchdog kills the registered groups, uids and cgroups).
#[test]
fn sigkill_of_arena_leaves_no_agent_process() {
    for cgroups in ["on", "off"] {
        for b in sandboxes() {
            let s = setup(&format!("sigkill-{cgroups}-{b}"));
            let name = format!("kill-{b}");
            let cfg = bait_config(&s, 1, "60s", &[(&name, "groupchild", b, "")]);
            let mut c = arena(&cfg, &s.dir.path().join("out"));
            c.env("ARENA_CGROUPS", cgroups);
            let mut child = c.spawn().unwrap();
            let child_marker = format!("{}-{name}-child", s.marker);
            if !wait_for(&child_marker, Duration::from_secs(15)) {
                kill_arena(&mut child);
                panic!("{b} (cgroups {cgroups}): the agent's child never started");
            }
            std::thread::sleep(Duration::from_millis(200));
            kill_arena(&mut child);
            let left = left_after(&s.marker, Duration::from_secs(3));
            assert!(
                left.is_empty(),
                "{b} (cgroups {cgroups}): survived arena's SIGKILL: {left:?}"
            );
        }
    }
}

/// Item 4: two concurrent arena runs never give two live agents one uid.
#[test]
fn concurrent_runs_give_live_agents_distinct_uids() {
    if !rustix::process::geteuid().is_root() {
        tools::skip("not root, sandboxed agents keep the user's uid");
        return;
    }
    let runs: Vec<(Setup, Child, PathBuf)> = (0..2)
        .map(|i| {
            let s = setup(&format!("uid{i}"));
            let cfg = bait_config(
                &s,
                2,
                "3s",
                &[("u-a", "uid", "rlimit", ""), ("u-b", "uid", "rlimit", "")],
            );
            let out = s.dir.path().join("out");
            let child = arena(&cfg, &out).spawn().unwrap();
            (s, child, out)
        })
        .collect();
    let mut uids = Vec::new();
    for (_s, mut child, out) in runs {
        let o = child.wait().unwrap();
        assert!(o.success());
        for n in ["u-a", "u-b"] {
            let log = log_of(&out, n);
            let uid: u32 = log
                .lines()
                .find_map(|l| l.strip_prefix("uid="))
                .and_then(|u| u.trim().parse().ok())
                .unwrap_or_else(|| panic!("{n}: {log}"));
            uids.push(uid);
        }
    }
    let mut d = uids.clone();
    d.sort();
    d.dedup();
    assert_eq!(d.len(), uids.len(), "shared uids: {uids:?}");
}

/// Item 5: the same defined environment in every sandbox, nothing of arena's.
#[test]
fn every_sandbox_gets_the_same_defined_environment() {
    let s = setup("env");
    let boxes = sandboxes();
    let names: Vec<String> = boxes.iter().map(|b| format!("env-{b}")).collect();
    let rows: Vec<(&str, &str, &str, &str)> = boxes
        .iter()
        .zip(&names)
        .map(|(b, n)| (n.as_str(), "env", *b, ""))
        .collect();
    let cfg = bait_config(&s, 3, "3s", &rows);
    let out = run_here(&s, &cfg);
    let workdir = std::fs::canonicalize(s.dir.path().join("agent")).unwrap();
    let want = [
        "ARENA_AGENT_TOKEN",
        "ARENA_SANDBOX",
        "HOME",
        "LANG",
        "LC_ALL",
        "PATH",
        "PWD",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "TMPDIR",
    ];
    for (b, n) in boxes.iter().zip(&names) {
        let log = log_of(&out.dir, n);
        let json = log
            .lines()
            .find_map(|l| l.strip_prefix("env="))
            .unwrap_or_else(|| panic!("{n}: {log}"));
        let env: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json).unwrap();
        let keys: Vec<&str> = env.keys().map(|k| k.as_str()).collect();
        assert_eq!(keys, want, "{n}");
        assert_eq!(env["HOME"], workdir.to_string_lossy().as_ref(), "{n}");
        assert_eq!(env["PATH"], "/usr/local/bin:/usr/bin:/bin", "{n}");
        assert_eq!(env["LC_ALL"], "C.UTF-8", "{n}");
        assert_eq!(env["TMPDIR"], "/tmp", "{n}");
        assert_eq!(env["PYTHONUNBUFFERED"], "1", "{n}");
        assert_eq!(env["ARENA_SANDBOX"], *b, "{n}");
    }
}

/// Item 6: under bwrap, /tmp and /dev/shm are capped (half of memory_mb
/// each) and /dev is read-only.
#[test]
fn bwrap_tmpfs_is_capped_by_the_memory_limit() {
    if let Err(why) = check_bwrap() {
        tools::skip(&why);
        return;
    }
    let s = setup("tmpfs");
    let cfg = bait_config(
        &s,
        1,
        "3s",
        &[("fill", "tmpfs", "bwrap", "memory_mb = 256")],
    );
    let out = run_here(&s, &cfg);
    let log = log_of(&out.dir, "fill");
    let mib = |d: &str| -> u32 {
        log.lines()
            .find_map(|l| l.strip_prefix(&format!("tmpfs {d} ")))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{d}: {log}"))
    };
    assert!(mib("/tmp") <= 128, "{log}");
    assert!(mib("/dev/shm") <= 128, "{log}");
    assert_eq!(mib("/dev"), 0, "{log}");
}

/// Item 7: bwrap is checked as the agent's uid; a bwrap that works for root
/// only is the machine's error (exit code 3, the canary), not a run of
/// crashes.
#[test]
fn bwrap_is_checked_as_the_agent_uid() {
    if !rustix::process::geteuid().is_root() {
        tools::skip("not root, agents run under arena's own uid");
        return;
    }
    let s = setup("bwrapcheck");
    let fake = s.dir.path().join("fake-bwrap");
    std::fs::write(
        &fake,
        "#!/bin/sh\nif [ \"$(id -u)\" != 0 ]; then\n  echo 'bwrap: setting up uid map: Permission denied' >&2\n  exit 1\nfi\nexec bwrap \"$@\"\n",
    )
    .unwrap();
    chmod(&fake, 0o755);
    let cfg = bait_config(&s, 1, "3s", &[("b", "normal", "bwrap", "")]);
    let out = arena(&cfg, &s.dir.path().join("out"))
        .env("ARENA_BWRAP", &fake)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("as uid 61"), "{err}");
    assert!(err.contains("Permission denied"), "{err}");
}

/// Item 9: two agents flooding stdout with 16 MiB of empty lines each while
/// the other thinks do not blow up arena's memory (bounded line queue).
#[test]
fn stdout_floods_do_not_grow_arena_memory() {
    let s = setup("flood");
    let text = format!(
        "name = \"flood\"\ngame = \"xiangqi\"\nrepetitions = 1\nseed = 5\nconcurrency = 1\nmax_steps = 6\n\n\
         [time]\nact = \"20s\"\nact_hard = \"20s\"\ninit = \"8s\"\ninit_hard = \"10s\"\n{}",
        agents(&s, &[("fa", "flood", "none", ""), ("fb", "flood", "none", "")])
    );
    let cfg = s.dir.path().join("flood.toml");
    std::fs::write(&cfg, text).unwrap();
    let out_dir = s.dir.path().join("out");
    let mut child = arena(&cfg, &out_dir).spawn().unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kb: u64 = 0;
    loop {
        if let Ok(st) = std::fs::read_to_string(&status) {
            if let Some(kb) = st
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak_kb = peak_kb.max(kb);
            }
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let rows = std::fs::read_to_string(out_dir.join("episodes.csv")).unwrap_or_default();
    println!("peak RSS {peak_kb} KiB\n{rows}");
    assert!(peak_kb > 0);
    assert!(peak_kb < 100 * 1024, "arena peaked at {peak_kb} KiB");
}

/// Item 11: an agent that closes its stdout is a prompt `crash` in every
/// sandbox (under bwrap, bwrap's own copy of the pipe must not hide it).
#[test]
fn closing_stdout_is_a_prompt_crash() {
    let s = setup("closeout");
    let boxes = sandboxes();
    let names: Vec<String> = boxes.iter().map(|b| format!("close-{b}")).collect();
    let rows: Vec<(&str, &str, &str, &str)> = boxes
        .iter()
        .zip(&names)
        .map(|(b, n)| (n.as_str(), "closeout", *b, ""))
        .collect();
    let cfg = bait_config(&s, 3, "20s", &rows);
    let t0 = Instant::now();
    let out = run_here(&s, &cfg);
    let took = t0.elapsed();
    for n in &names {
        let row = out.rows.iter().find(|r| &r.agent == n).unwrap();
        assert_eq!(row.outcome.to_string(), "crash", "{n}: {}", row.detail);
        assert!(
            row.detail.contains("closed its output"),
            "{n}: {}",
            row.detail
        );
    }
    assert!(took < Duration::from_secs(8), "took {took:?}");
}
