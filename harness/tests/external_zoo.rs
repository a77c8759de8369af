//! The agent zoo: misbehaving external agents (harness/tests/zoo/zoo.py),
//! each in one small tournament with well-behaved ones, checked against a
//! table of expected outcomes; afterwards no process of any of them may be
//! alive. Agents marked `bwrap` need bubblewrap; when it cannot run here,
//! those rows are skipped with the reason printed (and only then).

mod tools;
use harness::external::supervise::process::processes_with_marker;
use harness::external::supervise::sandbox::check_bwrap;
use harness::output::rows::EpisodeRow;
use harness::run::{run_config, ProgressMode};
use std::path::Path;
use std::time::{Duration, Instant};

struct Zoo {
    /// Agent label (also its folder).
    name: &'static str,
    /// zoo.py mode.
    mode: &'static str,
    sandbox: &'static str,
    /// Extra TOML keys for the agent.
    extra: &'static str,
    outcome: &'static str,
    /// Expected in the CSV detail column.
    detail: &'static str,
    /// Expected in the agent's stderr log.
    log: &'static str,
    /// `Some(n)`: exactly n steps; `None`: not checked.
    steps: Option<u32>,
    /// Every act past the soft budget when true: each one an overrun,
    /// though the zoo plays fork bombs and floods beside it on two cores
    /// (the agent sleeps: the machine's load does not fall on it, and is
    /// not forgiven), else no overrun.
    overrun_every_act: bool,
}

const fn z(
    name: &'static str,
    mode: &'static str,
    sandbox: &'static str,
    outcome: &'static str,
) -> Zoo {
    Zoo {
        name,
        mode,
        sandbox,
        extra: "",
        outcome,
        detail: "",
        log: "",
        steps: None,
        overrun_every_act: false,
    }
}

fn table() -> Vec<Zoo> {
    vec![
        Zoo {
            steps: Some(5),
            ..z("normal", "normal", "none", "normal")
        },
        Zoo {
            steps: Some(5),
            ..z("normal-bwrap", "normal", "bwrap", "normal")
        },
        Zoo {
            detail: "exited with status 3",
            steps: Some(0),
            log: "crashing at start",
            ..z("crash-start", "crash-start", "none", "crash")
        },
        Zoo {
            detail: "deliberate crash at the third act",
            steps: Some(2),
            ..z("crash-mid", "crash-mid", "none", "crash")
        },
        Zoo {
            detail: "process group killed",
            steps: Some(0),
            ..z("hang", "hang", "none", "timeout")
        },
        Zoo {
            extra: "time = { act = \"40ms\" }",
            steps: Some(5),
            overrun_every_act: true,
            ..z("slow-soft", "slow-soft", "none", "normal")
        },
        Zoo {
            detail: "act: no answer after",
            steps: Some(1),
            ..z("slow-hard", "slow-hard", "none", "timeout")
        },
        Zoo {
            detail: "not JSON",
            steps: Some(0),
            ..z("garbage", "garbage", "none", "bad-output")
        },
        Zoo {
            extra: "max_stderr_kb = 64",
            log: "[arena] stderr truncated at 64 KiB",
            steps: Some(5),
            ..z("noisy", "noisy", "none", "normal")
        },
        Zoo {
            detail: "`JUMP` is not an action of bait",
            steps: Some(0),
            ..z("illegal", "illegal", "none", "illegal-move")
        },
        Zoo {
            detail: "exceeded 1024 KiB without a newline",
            steps: Some(0),
            ..z("flood", "flood", "none", "output-limit")
        },
        Zoo {
            extra: "max_processes = 8",
            log: "fork failed after",
            steps: Some(5),
            ..z("forkbomb-rlimit", "forkbomb", "rlimit", "normal")
        },
        Zoo {
            extra: "max_processes = 8",
            log: "fork failed after",
            steps: Some(5),
            ..z("forkbomb-bwrap", "forkbomb", "bwrap", "normal")
        },
        Zoo {
            extra: "memory_mb = 512",
            detail: "failing to allocate memory",
            steps: Some(0),
            ..z("alloc-rlimit", "alloc", "rlimit", "memory-limit")
        },
        Zoo {
            extra: "memory_mb = 512",
            detail: "failing to allocate memory",
            steps: Some(0),
            ..z("alloc-bwrap", "alloc", "bwrap", "memory-limit")
        },
        Zoo {
            log: "net: connected",
            steps: Some(5),
            ..z("net-none", "net", "none", "normal")
        },
        Zoo {
            log: "net: blocked",
            steps: Some(5),
            ..z("net-bwrap", "net", "bwrap", "normal")
        },
        Zoo {
            log: "sibling: read the sibling's secret",
            steps: Some(5),
            ..z("sibling-none", "sibling", "none", "normal")
        },
        Zoo {
            log: "sibling: blocked",
            steps: Some(5),
            ..z("sibling-bwrap", "sibling", "bwrap", "normal")
        },
        Zoo {
            detail: "exited with status 0",
            log: "started a background child",
            steps: Some(0),
            ..z("bgchild", "bgchild", "none", "crash")
        },
        Zoo {
            detail: "exited with status 0",
            log: "survived the group kill and were killed",
            steps: Some(0),
            ..z("bgchild-setsid", "bgchild-setsid", "rlimit", "crash")
        },
    ]
}

fn chmod(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn zoo_agents_get_their_expected_outcomes_and_leave_no_process() {
    let bwrap = check_bwrap();
    if let Err(why) = &bwrap {
        tools::skip(&format!("the bwrap rows of the zoo: {why}"));
    }
    let marker = format!("arena-zoo-{}", std::process::id());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();

    let dir = tempfile::tempdir().unwrap();
    // Sandboxed agents may run under an unprivileged uid: make their files readable.
    chmod(dir.path(), 0o755);
    let agents_dir = dir.path().join("agents");
    std::fs::create_dir(&agents_dir).unwrap();
    chmod(&agents_dir, 0o755);
    let zoo_py = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/zoo/zoo.py");
    let secret = agents_dir.join("secret-holder");
    std::fs::create_dir(&secret).unwrap();
    chmod(&secret, 0o755);
    std::fs::write(secret.join("secret.txt"), "the sibling's secret\n").unwrap();
    chmod(&secret.join("secret.txt"), 0o644);

    // As root, every sandboxed agent runs under a uid of its own, so the two
    // fork bombs cannot eat each other's process quota; otherwise they share
    // the user's (RLIMIT_NPROC is per uid) and only one of them runs.
    let root = rustix::process::geteuid().is_root();
    if !root {
        tools::skip("forkbomb-bwrap: not root, so sandboxed agents share one uid's process quota");
    }
    let rows: Vec<Zoo> = table()
        .into_iter()
        .filter(|r| r.sandbox != "bwrap" || bwrap.is_ok())
        .filter(|r| root || r.name != "forkbomb-bwrap")
        .collect();
    let mut cfg = String::from(
        "name = \"zoo\"\ngame = \"bait\"\nlevels = [\"0\"]\nrepetitions = 1\nseed = 5\n\
         concurrency = 4\nmax_steps = 4\n\n[time]\nact = \"250ms\"\nact_hard = \"400ms\"\nclock = \"wall\"\n\
         init = \"3s\"\ninit_hard = \"4s\"\n",
    );
    for r in &rows {
        let folder = agents_dir.join(r.name);
        std::fs::create_dir(&folder).unwrap();
        chmod(&folder, 0o755);
        std::fs::copy(&zoo_py, folder.join("zoo.py")).unwrap();
        chmod(&folder.join("zoo.py"), 0o755);
        let arg = match r.mode {
            "net" => port.to_string(),
            "sibling" => "secret-holder".into(),
            _ => String::new(),
        };
        cfg.push_str(&format!(
            "\n[[agents]]\nname = \"{}\"\ncommand = [\"python3\", \"zoo.py\", \"{}\", \"{marker}\", \"{arg}\"]\n\
             workdir = \"agents/{}\"\nsandbox = \"{}\"\n{}\n",
            r.name, r.mode, r.name, r.sandbox, r.extra
        ));
    }
    let cfg_path = dir.path().join("zoo.toml");
    std::fs::write(&cfg_path, &cfg).unwrap();
    let cfg = harness::registry::load_config(&cfg_path).unwrap();

    let t0 = Instant::now();
    let out = run_config(&cfg, &dir.path().join("out"), ProgressMode::Silent).unwrap();
    println!("zoo of {} agents played in {:?}", rows.len(), t0.elapsed());
    assert!(out.complete);
    assert_eq!(out.rows.len(), rows.len(), "one episode per agent");

    let log_of = |label: &str| -> String {
        let logs = out.dir.join("logs");
        let suffix = format!("-{label}.stderr.log");
        std::fs::read_dir(&logs)
            .unwrap()
            .filter_map(|e| e.ok())
            .find(|e| e.file_name().to_string_lossy().ends_with(&suffix))
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .unwrap_or_default()
    };
    let mut failures = Vec::new();
    for z in &rows {
        let r: &EpisodeRow = out.rows.iter().find(|r| r.agent == z.name).unwrap();
        let log = log_of(z.name);
        let mut problems = Vec::new();
        if r.outcome != z.outcome {
            problems.push(format!("outcome {} (want {})", r.outcome, z.outcome));
        }
        if !r.detail.contains(z.detail) {
            problems.push(format!("detail lacks {:?}", z.detail));
        }
        if !log.contains(z.log) {
            problems.push(format!("log lacks {:?}", z.log));
        }
        if let Some(s) = z.steps {
            if r.steps != s {
                problems.push(format!("steps {} (want {s})", r.steps));
            }
        }
        if z.overrun_every_act {
            if r.overruns != r.steps || r.starved != 0 {
                problems.push(format!(
                    "overruns {} + forgiven {} (want {} acts)",
                    r.overruns, r.starved, r.steps
                ));
            }
        } else if r.overruns != 0 {
            problems.push(format!("overruns {} (want 0)", r.overruns));
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}: {} | row detail {:?} | log {:?}",
                z.name,
                problems.join(", "),
                r.detail,
                log.chars().take(300).collect::<String>()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "zoo mismatches:\n{}",
        failures.join("\n")
    );

    // The fork bombs were stopped by the process limit, not by luck.
    for name in ["forkbomb-rlimit", "forkbomb-bwrap"] {
        // As root the limit is 8 processes of the agent's own uid; otherwise 8
        // more than the user ran at the agent's start.
        if rows.iter().any(|r| r.name == name) {
            let log = log_of(name);
            let n: u32 = log
                .split("fork failed after ")
                .nth(1)
                .and_then(|s| s.split(':').next())
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(u32::MAX);
            assert!(n < 8, "{name}: {log}");
        }
    }
    // Under bwrap nothing reached the listener; the unsandboxed agent did.
    let mut accepted = 0;
    while listener.accept().is_ok() {
        accepted += 1;
    }
    assert_eq!(accepted, 1, "only net-none may connect");
    // The noisy agent's 8 MB of stderr were drained, only the cap kept.
    let noisy = log_of("noisy").len();
    assert!(
        (64 * 1024..70 * 1024).contains(&noisy),
        "{noisy} bytes of log"
    );

    // Every move of the slow agent (150 ms per act on a 40 ms budget; the
    // others have 250 ms, so that a loaded machine causes no overrun) was
    // replaced by the fallback (NIL), and the normal agent's were not.
    let moves = std::fs::read_to_string(out.dir.join("moves.jsonl")).unwrap();
    let moves_of = |agent: &str| -> Vec<String> {
        moves
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|v| v["seats"][0] == agent)
            .map(|v| {
                v["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap()
    };
    // Each overrun played Bait's NIL.
    let slow = moves_of("slow-soft");
    let slow_row = out.rows.iter().find(|r| r.agent == "slow-soft").unwrap();
    let nil = slow.iter().filter(|m| *m == "NIL").count() as u32;
    assert!(
        !slow.is_empty() && nil == slow_row.overruns,
        "{slow:?}: {nil} NIL for {} overruns",
        slow_row.overruns
    );
    assert!(moves_of("normal").iter().all(|m| m != "NIL"));

    // Zero leaked processes.
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut left = processes_with_marker(&marker);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = processes_with_marker(&marker);
    }
    assert!(left.is_empty(), "leaked processes: {left:?}");
}
