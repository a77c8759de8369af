//! The example agents for students (agents/examples/) play their shipped
//! configs without a single failure: Python always, C++ when g++ is there.

mod tools;
use harness::output::rows::EpisodeRow;
use harness::run::{run_config, ProgressMode};
use std::path::{Path, PathBuf};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../agents/examples")
}

fn run(cfg: &Path, out: &Path) -> Vec<EpisodeRow> {
    let mut cfg = harness::registry::load_config(cfg).unwrap();
    cfg.repetitions = 1;
    cfg.max_steps = Some(30);
    run_config(&cfg, out, ProgressMode::Silent).unwrap().rows
}

fn assert_all_normal(rows: &[EpisodeRow], agent: &str) {
    let mine: Vec<_> = rows.iter().filter(|r| r.agent == agent).collect();
    assert!(!mine.is_empty());
    for r in mine {
        assert_eq!(r.outcome, "normal", "{r:?}");
        assert!(r.steps > 0, "{r:?}");
    }
}

#[test]
fn python_example_plays_bait_and_xiangqi() {
    let dir = tempfile::tempdir().unwrap();
    let rows = run(
        &examples().join("python/bait.toml"),
        &dir.path().join("bait"),
    );
    assert_all_normal(&rows, "my-python-agent");
    // Its stderr reached the log folder.
    let logs: Vec<_> = std::fs::read_dir(dir.path().join("bait/logs"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        logs.iter().all(|l| l.starts_with("game over: ")),
        "{logs:?}"
    );
    let rows = run(
        &examples().join("python/xiangqi.toml"),
        &dir.path().join("xq"),
    );
    assert_all_normal(&rows, "my-python-agent");
}

#[test]
fn cpp_example_builds_and_plays_bait_and_xiangqi() {
    let dir = tempfile::tempdir().unwrap();
    // Build into a copy of the example folder, as a student would build theirs.
    let src = examples().join("cpp");
    let work = dir.path().join("cpp");
    std::fs::create_dir(&work).unwrap();
    for f in ["random_agent.cpp", "bait.toml", "xiangqi.toml"] {
        std::fs::copy(src.join(f), work.join(f)).unwrap();
    }
    let built = std::process::Command::new("g++")
        .args([
            "-O1",
            "-std=c++17",
            "-o",
            "random_agent",
            "random_agent.cpp",
        ])
        .current_dir(&work)
        .status();
    match built {
        Err(e) => {
            tools::skip(&format!("g++ is not available ({e})"));
            return;
        }
        Ok(s) => assert!(s.success(), "g++ failed"),
    }
    // The sandboxed run may use an unprivileged uid: make the copy readable.
    use std::os::unix::fs::PermissionsExt;
    for p in [dir.path(), work.as_path()] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let rows = run(&work.join("bait.toml"), &dir.path().join("bait"));
    assert_all_normal(&rows, "my-cpp-agent");
    let rows = run(&work.join("xiangqi.toml"), &dir.path().join("xq"));
    assert_all_normal(&rows, "my-cpp-agent");
}
