//! In-process agents that misbehave, checked against a table of expected
//! outcomes in one small tournament (GVGAI's default limits: 40 ms soft,
//! 50 ms hard). Every misbehaviour becomes a row; the run itself finishes.
//! No CPU-heavy test shares this binary: a 45 ms sleeper has 5 ms of slack.

use harness::run::{run_config, ProgressMode};
use std::path::Path;
use std::time::{Duration, Instant};

struct Expect {
    agent: &'static str,
    outcome: &'static str,
    result: &'static str,
    /// Overruns expected per episode: `Some(n)` exact, `None` = steps played.
    overruns: Option<u32>,
    detail_contains: &'static str,
}

const TABLE: &[Expect] = &[
    Expect {
        agent: "sleep45",
        outcome: "normal",
        result: "loss",
        overruns: None,
        detail_contains: "",
    },
    Expect {
        agent: "sleep60",
        outcome: "disqualified",
        result: "loss",
        overruns: Some(0),
        detail_contains: "hard limit",
    },
    Expect {
        agent: "panics",
        outcome: "crash",
        result: "loss",
        overruns: Some(0),
        detail_contains: "deliberate panic",
    },
    Expect {
        agent: "hangs",
        outcome: "disqualified",
        result: "loss",
        overruns: Some(0),
        detail_contains: "abandoned",
    },
    Expect {
        agent: "slowinit",
        outcome: "disqualified",
        result: "loss",
        overruns: Some(0),
        // It answers at 1.4 s, within the wall clock's wait (twice the
        // hard limit), and is judged on its time.
        detail_contains: "init took 14",
    },
    Expect {
        agent: "random",
        outcome: "normal",
        result: "loss",
        overruns: Some(0),
        detail_contains: "",
    },
];

const CONFIG: &str = r#"
name = "misbehaving"
game = "bait"
levels = [0]
repetitions = 2
seed = 7
concurrency = 2
max_steps = 4

[time]
clock = "wall"             # these agents sleep: only the wall clock sees it

[[agents]]
agent = "fixture-sleep"
name = "sleep45"
params = { ms = 45 }

[[agents]]
agent = "fixture-sleep"
name = "sleep60"
params = { ms = 60 }

[[agents]]
agent = "fixture-panic"
name = "panics"
params = { at = 1 }

[[agents]]
agent = "fixture-hang"
name = "hangs"

[[agents]]
agent = "fixture-init-sleep"
name = "slowinit"
params = { ms = 1400 }

[[agents]]
agent = "random"
"#;

#[test]
fn misbehaving_agents_get_their_expected_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let cfg_path = dir.path().join("misbehaving.toml");
    std::fs::write(&cfg_path, CONFIG).unwrap();
    let cfg = harness::registry::load_config(&cfg_path).unwrap();
    let t0 = Instant::now();
    let out = run_config(&cfg, &dir.path().join("out"), ProgressMode::Silent).unwrap();
    // The hung agent is abandoned at twice the hard limit: the run does not
    // wait for it.
    assert!(
        t0.elapsed() < Duration::from_secs(20),
        "run took {:?}",
        t0.elapsed()
    );

    // Every episode of every agent is in the table, written to disk.
    assert_eq!(out.rows.len(), TABLE.len() * 2);
    let on_disk = std::fs::read_to_string(out.dir.join("episodes.csv")).unwrap();
    assert_eq!(on_disk.lines().count(), 1 + TABLE.len() * 2);
    assert!(Path::new(&out.dir.join("summary.csv")).exists());

    for e in TABLE {
        let rows: Vec<_> = out.rows.iter().filter(|r| r.agent == e.agent).collect();
        assert_eq!(rows.len(), 2, "{}", e.agent);
        for r in rows {
            assert_eq!(r.outcome, e.outcome, "{}: {:?}", e.agent, r);
            assert_eq!(r.result, e.result, "{}: {:?}", e.agent, r);
            let want_overruns = e.overruns.unwrap_or(r.steps);
            // An act past the budget is an overrun, unless arena itself was
            // starved meanwhile (a loaded machine): then it is not charged.
            assert_eq!(
                r.overruns + r.starved,
                want_overruns,
                "{}: {:?}",
                e.agent,
                r
            );
            assert!(
                r.detail.contains(e.detail_contains),
                "{}: {:?}",
                e.agent,
                r.detail
            );
        }
    }

    // The 45 ms agent played to the step limit, and every move it made was replaced by NIL.
    let sleep45 = out.rows.iter().find(|r| r.agent == "sleep45").unwrap();
    assert_eq!(sleep45.steps, 5);
    let moves = std::fs::read_to_string(out.dir.join("moves.jsonl")).unwrap();
    let line = moves
        .lines()
        .find(|l| l.contains("\"episode\":") && l.contains("[\"sleep45\"]"))
        .unwrap();
    // Every move was replaced by NIL, except in acts that were not charged
    // because the machine's load kept the agent waiting for a CPU (more
    // than 5 ms to wake from its sleep): there the agent's own move stands.
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    let episode = v["episode"].as_u64().unwrap() as usize;
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let row = out
        .rows
        .iter()
        .find(|r| r.agent == "sleep45" && r.episode == episode)
        .unwrap();
    assert_eq!(moves.len(), 5, "{line}");
    let own = moves.iter().filter(|m| **m != "NIL").count() as u32;
    assert_eq!(own, row.starved, "{line}: {row:?}");
    assert!(moves.iter().all(|m| *m == "NIL" || *m == "LEFT"), "{line}");
    // fixture-sleep's own choice is LEFT (the first legal move), so NIL proves the replacement.
    // The panicking agent played one normal act before its panic.
    let panics = out.rows.iter().find(|r| r.agent == "panics").unwrap();
    assert_eq!(panics.steps, 1);

    // The summary counts the disqualifications.
    let s = out
        .summary
        .iter()
        .find(|s| s.agent == "sleep60" && s.level == "all")
        .unwrap();
    assert_eq!(s.disqualifications, 2);
    let s = out
        .summary
        .iter()
        .find(|s| s.agent == "panics" && s.level == "all")
        .unwrap();
    assert_eq!(s.crashes, 2);
    assert_eq!(s.other_failures, 0);
}

#[test]
fn cpu_clock_judges_thread_cpu_time_like_gvgai() {
    // Sleeping costs no CPU: under clock = "cpu" a 60 ms sleeper is within budget.
    let dir = tempfile::tempdir().unwrap();
    let cfg_path = dir.path().join("cpu.toml");
    std::fs::write(
        &cfg_path,
        "game = \"bait\"\nlevels = [0]\nmax_steps = 2\n[time]\nclock = \"cpu\"\n\
         [[agents]]\nagent = \"fixture-sleep\"\nparams = { ms = 60 }\n",
    )
    .unwrap();
    let cfg = harness::registry::load_config(&cfg_path).unwrap();
    let out = run_config(&cfg, &dir.path().join("out"), ProgressMode::Silent).unwrap();
    let r = &out.rows[0];
    assert_eq!(
        (r.outcome.as_str(), r.overruns, r.steps),
        ("normal", 0, 3),
        "{r:?}"
    );
    assert!(r.max_act_ms < 40.0, "{r:?}");
}
