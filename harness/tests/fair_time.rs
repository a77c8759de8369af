//! The default judge is the agent's own CPU time: an external agent's
//! process tree is measured, a sleeping agent is not charged, a busy one is.

use std::path::Path;

mod common;
use common::arena;

const AGENT: &str = r#"
import json, sys, time
mode = sys.argv[1]
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif m["type"] == "act":
        if mode == "sleep":
            time.sleep(0.12)
        else:
            end = time.process_time() + 0.12
            while time.process_time() < end:
                pass
        print(json.dumps({"action": m["legal"][0] if m["legal"] else "NIL"}), flush=True)
    else:
        break
"#;

fn run(dir: &Path, clock: &str) -> Vec<csv::StringRecord> {
    std::fs::write(dir.join("agent.py"), AGENT).unwrap();
    let cfg = dir.join(format!("{clock}.toml"));
    std::fs::write(
        &cfg,
        format!(
            "game = \"bait\"\nlevels = [0]\nmax_steps = 3\n[time]\nclock = \"{clock}\"\n\
             act = \"60ms\"\nact_hard = \"2s\"\n\
             [[agents]]\nname = \"sleeper\"\ncommand = [\"python3\", \"agent.py\", \"sleep\"]\n\
             [[agents]]\nname = \"worker\"\ncommand = [\"python3\", \"agent.py\", \"work\"]\n"
        ),
    )
    .unwrap();
    let out = dir.join(format!("out-{clock}"));
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    csv::Reader::from_path(out.join("episodes.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap())
        .collect()
}

#[test]
fn cpu_clock_measures_an_external_agents_process_tree() {
    let dir = tempfile::tempdir().unwrap();
    let rows = run(dir.path(), "cpu");
    let get = |name: &str| rows.iter().find(|r| &r[7] == name).unwrap().clone();
    let sleeper = get("sleeper");
    let worker = get("worker");
    // overruns column 18, cpu_ms 14.
    assert_eq!(&sleeper[18], "0", "sleeping costs no CPU: {sleeper:?}");
    assert_eq!(
        worker[18], worker[12],
        "120 ms of CPU per act is past 60 ms, every act: {worker:?}"
    );
    let cpu: f64 = worker[14].parse().unwrap();
    assert!(
        cpu >= 3.0 * 100.0,
        "the worker's measured CPU time: {worker:?}"
    );
    // The same agents on the wall clock: both overrun, the sleeper at
    // every act (it waits for no CPU: however loaded the machine, none of
    // its 120 ms is forgiven).
    let rows = run(dir.path(), "wall");
    let get = |name: &str| rows.iter().find(|r| &r[7] == name).unwrap().clone();
    let s = get("sleeper");
    let overruns: u32 = s[18].parse().unwrap();
    // starved column 24 (host and cpu_model follow it).
    let starved: u32 = s[24].parse().unwrap();
    let steps: u32 = s[12].parse().unwrap();
    assert_eq!((overruns, starved), (steps, 0), "{s:?}");
}

#[test]
fn a_busy_fixture_within_budget_is_never_charged_on_the_cpu_clock() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("busy.toml");
    std::fs::write(
        &cfg,
        "game = \"bait\"\nlevels = [0, 1]\nrepetitions = 2\nmax_steps = 20\n[time]\nact = \"20ms\"\n\
         act_hard = \"25ms\"\n[[agents]]\nagent = \"fixture-busy\"\nparams = { ms = 15 }\n\
         [[agents]]\nagent = \"fixture-busy\"\nname = \"busy2\"\nparams = { ms = 15 }\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
        "-j",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<csv::StringRecord> = csv::Reader::from_path(out.join("episodes.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(rows.len(), 8);
    for r in &rows {
        assert_eq!(&r[10], "normal", "{r:?}");
        assert_eq!(&r[18], "0", "{r:?}");
    }
}

mod tools;

/// Botzone's traditional mode starts a process per turn: its CPU time (read
/// from its cgroup when it has exited) is judged, not the wall time.
#[test]
fn botzone_turn_processes_are_judged_by_their_cpu_time() {
    let dir = tempfile::tempdir().unwrap();
    let bots = dir.path().join("bots");
    std::fs::create_dir(&bots).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/botzone/bot.py"),
        bots.join("bot.py"),
    )
    .unwrap();
    std::fs::write(
        bots.join("empty.json"),
        r#"{"width": 12, "height": 11, "obstacle": []}"#,
    )
    .unwrap();
    let overruns = |clock: &str| -> (u32, u32) {
        let cfg_path = dir.path().join(format!("{clock}.toml"));
        std::fs::write(
            &cfg_path,
            format!(
                "game = \"snake\"\nlevels = [\"bots/empty.json\"]\nmax_steps = 3\nformat = \"round-robin\"\n\
                 pairs = false\n[time]\nclock = \"{clock}\"\nact = \"200ms\"\nact_hard = \"3s\"\n\
                 [[agents]]\nname = \"bot\"\ncommand = [\"/usr/bin/python3\", \"bot.py\", \"sleepy\", \"m\"]\n\
                 protocol = \"botzone\"\nworkdir = \"bots\"\n[[agents]]\nagent = \"greedy\"\n"
            ),
        )
        .unwrap();
        let cfg = harness::registry::load_config(&cfg_path).unwrap();
        let out = harness::run::run_config(
            &cfg,
            &dir.path().join(format!("out-{clock}")),
            harness::run::ProgressMode::Silent,
        )
        .unwrap();
        let bot: Vec<_> = out.rows.iter().filter(|r| r.agent == "bot").collect();
        (
            bot.iter().map(|r| r.overruns).sum(),
            bot.iter().map(|r| r.steps).sum(),
        )
    };
    let (wall, steps) = overruns("wall");
    assert!(steps > 0);
    if !harness::external::supervise::containment::cgroups_available() {
        tools::skip("no cgroup per agent here: an exited turn process's CPU time is unknown");
        return;
    }
    let (cpu, _) = overruns("cpu");
    assert_eq!(cpu, 0, "a sleeping bot uses no CPU");
    assert!(wall > 0, "the same bot overruns on the wall clock");
}

/// Busy loops pinned to CPU 0, killed when dropped. One set at a time
/// (the tests that start them would load each other's CPU twice over).
struct Spinners {
    loops: Vec<std::process::Child>,
    _one_at_a_time: std::sync::MutexGuard<'static, ()>,
}

static SPINNING: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Spinners {
    fn start(n: usize) -> Spinners {
        let one_at_a_time = SPINNING.lock().unwrap_or_else(|p| p.into_inner());
        let loops = (0..n)
            .map(|_| {
                std::process::Command::new("taskset")
                    .args(["-c", "0", "sh", "-c", "while :; do :; done"])
                    .spawn()
                    .expect("taskset (util-linux) runs")
            })
            .collect();
        Spinners {
            loops,
            _one_at_a_time: one_at_a_time,
        }
    }
}

impl Drop for Spinners {
    fn drop(&mut self) {
        for c in &mut self.loops {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Plays `config` (one Bait episode of `steps` steps, under the CPU clock)
/// pinned to CPU 0 among 120 busy loops, and checks that the agent,
/// within its CPU budget, finished normally with no overrun although the
/// load kept it off the CPU for seconds.
fn play_kept_waiting(dir: &Path, config: &str, steps: u32) {
    let cfg = dir.join("starved.toml");
    std::fs::write(&cfg, config).unwrap();
    let out = dir.join("out");
    let spinners = Spinners::start(120);
    let started = std::time::Instant::now();
    let run = std::process::Command::new("taskset")
        .args(["-c", "0", env!("CARGO_BIN_EXE_arena"), "run"])
        .args([cfg.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"])
        .output()
        .expect("taskset (util-linux) runs");
    let took = started.elapsed();
    drop(spinners);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let rows: Vec<csv::StringRecord> = csv::Reader::from_path(out.join("episodes.csv"))
        .unwrap()
        .records()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    let detail = std::fs::read_to_string(out.join("episodes.csv")).unwrap();
    assert_eq!(&rows[0][10], "normal", "{detail}");
    let played: u32 = rows[0][12].parse().unwrap();
    assert!(played >= steps, "the game played to max_steps: {detail}");
    assert_eq!(&rows[0][18], "0", "no overrun: {detail}");
    // Milliseconds of CPU per act among 120 busy loops on one CPU: seconds
    // per act, past the 1 s wait for an answer.
    assert!(
        took > std::time::Duration::from_secs(3),
        "the busy loops did not keep the agent waiting (the run took {took:?})"
    );
}

/// A machine so busy that an agent waits longer for a CPU than the CPU
/// clock's wait for an answer (ten times the hard limit, at least 1 s):
/// the time it waited is not counted, so an agent within its CPU budget is
/// not disqualified however long it was kept off the CPU.
#[test]
fn an_agent_kept_waiting_for_a_cpu_past_the_wait_limit_is_not_disqualified() {
    let dir = tempfile::tempdir().unwrap();
    play_kept_waiting(
        dir.path(),
        "game = \"bait\"\nlevels = [0]\nrepetitions = 1\nmax_steps = 3\nconcurrency = 1\n\
         [time]\nact = \"20ms\"\nact_hard = \"25ms\"\nclock = \"cpu\"\n\
         [[agents]]\nagent = \"fixture-busy\"\nparams = { ms = 15 }\n",
        3,
    );
}

/// An external agent that spends 5 ms of CPU time on each act (its
/// process's own, `time.process_time`).
const BUSY_5MS: &str = r#"
import json, sys, time
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif m["type"] == "act":
        end = time.process_time() + 0.005
        while time.process_time() < end:
            pass
        print(json.dumps({"action": m["legal"][0] if m["legal"] else "NIL"}), flush=True)
    else:
        break
"#;

/// The same machine as above for an external agent (a subprocess): the
/// time its process tree waited for a CPU is not counted toward the wait
/// for an answer either, so an agent within its CPU budget is not stopped
/// however long the load keeps it off the CPU.
#[test]
fn an_external_agent_kept_waiting_for_a_cpu_past_the_wait_limit_is_not_disqualified() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("busy.py"), BUSY_5MS).unwrap();
    play_kept_waiting(
        dir.path(),
        "game = \"bait\"\nlevels = [0]\nrepetitions = 1\nmax_steps = 2\nconcurrency = 1\n\
         [time]\nact = \"20ms\"\nact_hard = \"25ms\"\nclock = \"cpu\"\n\
         [[agents]]\nname = \"busy\"\ncommand = [\"python3\", \"-S\", \"busy.py\"]\n",
        2,
    );
}

/// An external agent's waits for a CPU are read from its cgroup's CPU
/// pressure (under the CPU clock, what the wait for an answer does not
/// count; under the wall clock, what is forgiven): the wait of a wrapper
/// script's child that has exited still counts (the run delay of the live process tree loses
/// it), so on a loaded machine a wrapper (`python3` as a pyenv shim that
/// forks a few dozen scripts) does not make its agent look silent.
#[test]
fn the_cpu_waits_of_an_agents_exited_processes_still_count() {
    use harness::external::supervise::containment;
    use harness::external::supervise::process::{AgentProcess, Received};
    use harness::external::{ExternalSpec, ProcessLimits, Protocol, Sandbox};
    use std::time::{Duration, Instant};
    containment::init();
    if !containment::cgroups_available() || !Path::new("/proc/pressure/cpu").exists() {
        tools::skip("no cgroup per agent or no CPU pressure accounting here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A child on CPU 0 that needs about 0.2 s of CPU, among 20 busy loops:
    // seconds of waiting for a CPU, then it exits.
    let script = "taskset -c 0 sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'; \
                  echo done; exec sleep 60";
    let spec = ExternalSpec {
        command: vec!["sh".into(), "-c".into(), script.into()],
        protocol: Protocol::Jsonl,
        workdir: std::fs::canonicalize(dir.path()).unwrap(),
        sandbox: Sandbox::None,
        limits: ProcessLimits::default(),
        env: Vec::new(),
        writable_workdir: false,
        mounts: Vec::new(),
    };
    let spinners = Spinners::start(20);
    let mut p = AgentProcess::spawn(&spec, None).unwrap();
    let before = p.wait_sched().expect("the waits are read").waited;
    let forgiven_before = p.run_delay().expect("the run delay is read");
    let got = p.recv_line(Instant::now() + Duration::from_secs(120));
    drop(spinners);
    assert!(matches!(&got, Received::Line(l) if l == "done"), "{got:?}");
    let waited = p.wait_sched().unwrap().waited.saturating_sub(before);
    assert!(
        waited >= Duration::from_millis(500),
        "the child's wait for a CPU was lost: {waited:?}"
    );
    // And what the wall clock forgives keeps it too.
    let forgiven = p.run_delay().unwrap().saturating_sub(forgiven_before);
    assert!(
        forgiven >= Duration::from_millis(500),
        "the wall clock lost the child's wait for a CPU: {forgiven:?}"
    );
    p.stop();
}
