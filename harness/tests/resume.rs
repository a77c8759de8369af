//! A run killed with SIGKILL at random moments, again and again, resumes
//! each time and ends with exactly the planned episodes (none lost, none
//! twice) and the same tables as a run that was never interrupted; a rerun
//! of a finished run says so, and one whose agent changed is refused.

mod common;
mod tools;
use common::arena;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str = r#"
name = "resume"
game = "bait"
levels = [0, 1, 2, 4]
repetitions = 4
seed = 11
concurrency = 2
max_steps = 60
[time]
act = "1s"
act_hard = "2s"
init = "2s"
init_hard = "3s"
[[agents]]
agent = "fixture-sleep"
params = { ms = 2 }
[[agents]]
agent = "random"
[[agents]]
agent = "onesteplookahead"
"#;

/// Columns that measure time (they differ between runs).
const TIMING: &[&str] = &[
    "total_ms",
    "cpu_ms",
    "mean_act_ms",
    "max_act_ms",
    "p99_act_ms",
];

fn rows_without_timing(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    let keep: Vec<usize> = (0..headers.len())
        .filter(|&i| !TIMING.iter().any(|t| headers[i].contains(t)))
        .collect();
    let mut rows: Vec<Vec<String>> = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            keep.iter().map(|&i| rec[i].to_string()).collect()
        })
        .collect();
    rows.sort();
    rows
}

/// Every whole row of the `episodes.csv` at `path` (all columns), by
/// (episode, seat); a torn last line (no newline yet) is left out.
fn rows_by_key(path: &Path) -> BTreeMap<(String, String), Vec<String>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return BTreeMap::new();
    };
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    if whole.is_empty() {
        return BTreeMap::new(); // created, no episode finished yet
    }
    let mut r = csv::Reader::from_reader(whole.as_bytes());
    let headers = r.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (episode, seat) = (col("episode"), col("seat"));
    let mut out = BTreeMap::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let key = (rec[episode].to_string(), rec[seat].to_string());
        let row: Vec<String> = rec.iter().map(str::to_string).collect();
        assert!(
            out.insert(key.clone(), row).is_none(),
            "{key:?} twice in {}",
            path.display()
        );
    }
    out
}

/// A small deterministic generator for the kill moments (xorshift).
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn sigkill_at_random_moments_then_resume_gives_the_uninterrupted_tables() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("resume.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let whole = dir.path().join("whole");
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        whole.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");

    let killed = dir.path().join("killed");
    let mut seed = 0x9e37_79b9_7f4a_7c15 ^ std::process::id() as u64;
    println!("kill-moment seed: {seed:#x}");
    let mut kills = 0;
    // The rows of episodes.csv seen after each kill (a user may have read them).
    let mut seen: Vec<BTreeMap<(String, String), Vec<String>>> = Vec::new();
    let t0 = Instant::now();
    loop {
        assert!(
            t0.elapsed() < Duration::from_secs(240),
            "the run never finished"
        );
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args([
                "run",
                cfg.to_str().unwrap(),
                "--out",
                killed.to_str().unwrap(),
                "-q",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let wait = Duration::from_millis(100 + next(&mut seed) % 400);
        let until = Instant::now() + wait;
        let mut done = None;
        while Instant::now() < until {
            if let Some(st) = child.try_wait().unwrap() {
                done = Some(st);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        match done {
            Some(st) => {
                let mut err = String::new();
                use std::io::Read;
                child
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut err)
                    .unwrap();
                assert!(st.success(), "{st}: {err}");
                if kills >= 5 {
                    break;
                }
                // Finished before enough kills: start over, killing sooner.
                let (code, _, err) = arena(&[
                    "run",
                    cfg.to_str().unwrap(),
                    "--out",
                    killed.to_str().unwrap(),
                    "--restart",
                    "-q",
                ]);
                assert_eq!(code, 0, "{err}");
                std::fs::remove_dir_all(&killed).unwrap();
                kills = 0;
                seen.clear();
            }
            None => {
                child.kill().unwrap(); // SIGKILL
                child.wait().unwrap();
                kills += 1;
                seen.push(rows_by_key(&killed.join("episodes.csv")));
            }
        }
    }
    assert!(kills >= 5, "killed {kills} times");

    // Exactly the planned episodes: 4 levels x 4 repetitions x 3 agents.
    let rows = rows_without_timing(&killed.join("episodes.csv"));
    assert_eq!(rows.len(), 48);
    let keys: HashSet<_> = rows.iter().map(|r| (r[4].clone(), r[6].clone())).collect();
    assert_eq!(keys.len(), 48, "an episode appears twice");
    let journal = std::fs::read_to_string(killed.join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 48, "journal lines");
    // No row seen after a kill was changed or replaced by a later part of
    // the run: every column, timing included, is as it was.
    let last = rows_by_key(&killed.join("episodes.csv"));
    let mut checked = 0;
    for (k, rows) in seen.iter().enumerate() {
        for (key, row) in rows {
            assert_eq!(
                last.get(key),
                Some(row),
                "row {key:?} of episodes.csv seen after kill {} was replaced",
                k + 1
            );
            checked += 1;
        }
    }
    println!(
        "{checked} rows seen after {} kills, none replaced",
        seen.len()
    );
    assert_eq!(rows, rows_without_timing(&whole.join("episodes.csv")));
    assert_eq!(
        rows_without_timing(&killed.join("summary.csv")),
        rows_without_timing(&whole.join("summary.csv"))
    );
    let meta = std::fs::read_to_string(killed.join("meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"finished\""), "{meta}");
    assert!(!meta.contains("\"resumed\": 0"), "{meta}");
    // summarize rebuilds the same tables from the journal alone.
    std::fs::remove_file(killed.join("summary.csv")).unwrap();
    let (code, out, err) = arena(&["summarize", killed.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("48 of 48 episodes (finished)"), "{out}");
    assert_eq!(
        rows_without_timing(&killed.join("summary.csv")),
        rows_without_timing(&whole.join("summary.csv"))
    );
}

#[test]
fn a_folder_is_never_silently_mixed() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("mix.toml");
    std::fs::write(&cfg, CONFIG.replace("repetitions = 4", "repetitions = 1")).unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let c = cfg.to_str().unwrap();
    let (code, _, err) = arena(&["run", c, "--out", o, "-q"]);
    assert_eq!(code, 0, "{err}");
    // The same config again: finished already, nothing replayed.
    let (code, _, err) = arena(&["run", c, "--out", o, "-q"]);
    assert_eq!(code, 0, "{err}");
    let rows = rows_without_timing(&out.join("episodes.csv"));
    assert_eq!(rows.len(), 12);
    // Another seed: refused, naming what changed.
    let (code, _, err) = arena(&["run", c, "--out", o, "--seed", "12", "-q"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("holds a run of a different config (seed: 11 -> 12)"),
        "{err}"
    );
    // --restart starts over with the new seed.
    let (code, _, err) = arena(&["run", c, "--out", o, "--seed", "12", "--restart", "-q"]);
    assert_eq!(code, 0, "{err}");
    let meta = std::fs::read_to_string(out.join("meta.json")).unwrap();
    assert!(meta.contains("\"seed\": 12"), "{meta}");
    // A folder with other files is refused, and --restart does not clear it.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    let (code, _, err) = arena(&["run", c, "--out", other.to_str().unwrap(), "-q"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("already holds files, but no run of arena"),
        "{err}"
    );
    let (code, _, err) = arena(&[
        "run",
        c,
        "--out",
        other.to_str().unwrap(),
        "--restart",
        "-q",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("does not look like an arena results folder"),
        "{err}"
    );
    assert!(other.join("notes.txt").exists());
    // --resume with nothing to resume.
    let (code, _, err) = arena(&[
        "run",
        c,
        "--out",
        dir.path().join("none").to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("holds no run to continue"), "{err}");
}

#[test]
fn sigterm_stops_like_ctrl_c_and_the_run_continues() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("term.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let out = dir.path().join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "run",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    rustix::process::kill_process(
        rustix::process::Pid::from_child(&child),
        rustix::process::Signal::Term,
    )
    .unwrap();
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(130), "{st}");
    let meta = std::fs::read_to_string(out.join("meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"interrupted\""), "{meta}");
    assert!(out.join("summary.csv").exists());
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--resume",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows_without_timing(&out.join("episodes.csv")).len(), 48);
}

const EDITED: &str = r#"
name = "edit"
game = "bait"
levels = [0]
repetitions = 1
seed = 3
max_steps = 20
[[agents]]
name = "mine"
command = ["python3", "random_agent.py"]
[[agents]]
agent = "random"
"#;

#[test]
fn an_edited_agent_is_not_resumed_and_a_finished_run_says_so() {
    let python = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("python3").is_file()));
    if !python {
        tools::skip("python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("edit.toml");
    std::fs::write(&cfg, EDITED).unwrap();
    let agent = dir.path().join("random_agent.py");
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../agents/examples/python/random_agent.py"),
    )
    .unwrap();
    std::fs::write(&agent, &source).unwrap();
    // The results go into the agent's own folder: they are not its sources.
    let out = dir.path().join("out");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        arena(&args)
    };
    let (code, first, err) = run(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(first.starts_with("edit on bait: 2 episodes"), "{first}");
    let finished = format!(
        "finished: 2/2 episodes, nothing to play; tables in {}\n",
        out.display()
    );
    let (code, again, err) = run(&[]);
    assert_eq!((code, again.as_str()), (0, finished.as_str()), "{err}");
    // The same content written again (a new modification time) is the same agent.
    std::fs::write(&agent, &source).unwrap();
    let (code, again, err) = run(&[]);
    assert_eq!((code, again.as_str()), (0, finished.as_str()), "{err}");
    // An edit: refused, naming the agent and the file.
    std::fs::write(&agent, format!("{source}# faster\n")).unwrap();
    let (code, again, err) = run(&[]);
    assert_eq!(code, 2, "{again}{err}");
    assert!(
        err.contains(
            "`mine` changed (random_agent.py): --restart to play again, or --out for another folder"
        ),
        "{err}"
    );
    assert!(again.is_empty(), "{again}");
    // --restart plays the new version, which a rerun then finds finished.
    let (code, restarted, err) = run(&["--restart"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        restarted.starts_with("edit on bait: 2 episodes"),
        "{restarted}"
    );
    let (code, again, err) = run(&[]);
    assert_eq!((code, again.as_str()), (0, finished.as_str()), "{err}");
    // A meta.json written before agents were recorded continues, with a
    // warning, and records them.
    let meta_path = out.join("meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    meta.as_object_mut().unwrap().remove("agents").unwrap();
    std::fs::write(&meta_path, meta.to_string()).unwrap();
    let (code, again, err) = run(&[]);
    assert_eq!((code, again.as_str()), (0, finished.as_str()), "{err}");
    assert!(
        err.contains("did not record what its agents are: continuing without checking them"),
        "{err}"
    );
    let meta = std::fs::read_to_string(&meta_path).unwrap();
    assert!(meta.contains("\"random_agent.py\""), "{meta}");
}

/// A results folder written by the arena before the fingerprint struct
/// (tests/fixtures/meta-v1: its `meta.json` without `fingerprint_version`,
/// the first 4 of 8 episodes in its journal) resumes: the last 4 are played
/// and the folder keeps its version-1 fingerprint. Moved elsewhere with its
/// config first, as a user's folder would be.
#[test]
fn a_folder_of_the_previous_arena_resumes() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/meta-v1");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    for f in ["old.toml", "out/meta.json", "out/journal.jsonl"] {
        std::fs::copy(fixture.join(f), dir.path().join(f)).unwrap();
    }
    let (code, out, err) = arena(&[
        "run",
        dir.path().join("old.toml").to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/meta.json")).unwrap())
            .unwrap();
    assert_eq!(meta["status"], "finished", "{meta}");
    assert_eq!(meta["finished"], 8, "{meta}");
    assert_eq!(meta["resumed"], 1, "{meta}");
    assert_eq!(meta["config_hash"], "4e2963aa10562603", "{meta}");
    let journal = std::fs::read_to_string(dir.path().join("out/journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 8);
    let episodes = std::fs::read_to_string(dir.path().join("out/episodes.csv")).unwrap();
    assert_eq!(episodes.lines().count(), 9, "{episodes}");
    // Another seed is still refused, naming the change in version 1's terms.
    let (code, _, err) = arena(&[
        "run",
        dir.path().join("old.toml").to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
        "--seed",
        "6",
        "-q",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("seed: 5 -> 6"), "{err}");
}
