//! Item 3: `kill_all_agents` (what arena's Ctrl-C handler calls before
//! exiting) synchronously kills every live agent's whole tree: the agent,
//! children in its group, and orphans that left it with setsid and `env -i`.
//! A test binary of its own: it kills every agent of the process.

mod tools;
use harness::external::supervise::containment::kill_all_agents;
use harness::external::supervise::process::{processes_with_marker, AgentProcess};
use harness::external::supervise::sandbox::check_bwrap;
use harness::external::{ExternalSpec, ProcessLimits, Protocol, Sandbox};
use std::path::Path;
use std::time::{Duration, Instant};

fn chmod(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
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

#[test]
fn kill_all_agents_kills_every_live_agent_tree() {
    let dir = tempfile::tempdir().unwrap();
    chmod(dir.path(), 0o755);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/zoo/contain.py");
    std::fs::copy(&src, dir.path().join("contain.py")).unwrap();
    chmod(&dir.path().join("contain.py"), 0o755);
    let marker = format!("arena-ctrlc-{}", std::process::id());
    let mut boxes = vec![Sandbox::None, Sandbox::Rlimit];
    match check_bwrap() {
        Ok(()) => boxes.push(Sandbox::Bwrap),
        Err(why) => tools::skip(&format!("the bwrap case: {why}")),
    }
    let mut procs = Vec::new();
    for (i, sandbox) in boxes.iter().enumerate() {
        for mode in ["orphan-hang", "groupchild"] {
            let spec = ExternalSpec {
                command: vec![
                    "python3".into(),
                    "contain.py".into(),
                    mode.into(),
                    format!("{marker}-{i}-{mode}"),
                ],
                protocol: Protocol::Jsonl,
                workdir: std::fs::canonicalize(dir.path()).unwrap(),
                sandbox: *sandbox,
                limits: ProcessLimits::default(),
                env: Vec::new(),
                writable_workdir: false,
                mounts: Vec::new(),
            };
            procs.push(AgentProcess::spawn(&spec, None).unwrap());
            let helper = if mode == "groupchild" {
                "child"
            } else {
                "orphan"
            };
            assert!(
                wait_for(
                    &format!("{marker}-{i}-{mode}-{helper}"),
                    Duration::from_secs(15)
                ),
                "{sandbox:?} {mode}: the helper never started"
            );
        }
    }
    let t0 = Instant::now();
    let n = kill_all_agents();
    let took = t0.elapsed();
    let left = processes_with_marker(&marker);
    assert!(left.is_empty(), "alive after kill_all_agents: {left:?}");
    println!("kill_all_agents swept {n} process(es) after the group and cgroup kills");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    drop(procs);
}
