//! `arena run --shard K/N` and `arena merge` (issue 21): shards played
//! separately and merged give the tables of a run on one machine; a merge
//! of missing, duplicated, foreign (another config or other agents) or
//! unfinished shards is refused with a clear error and exit code 2,
//! writing nothing.

mod common;
mod results;
use common::arena;
use results::{assert_same_results, journal_lines};
use std::path::{Path, PathBuf};

/// A small paired round robin of deterministic agents (uct with a fixed
/// number of iterations: the same moves on every machine).
const CONFIG: &str = r#"
name = "c4-shards"
game = "connect4"
levels = ["start"]
repetitions = 5
seed = 21
concurrency = 2
[[agents]]
agent = "random"
[[agents]]
agent = "uct"
params = { iterations = 40 }
[[agents]]
agent = "random"
name = "random-b"
"#;

fn write_config(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Play shard `k` of `n` of `cfg` into `dir/shard-k`.
fn shard(cfg: &Path, dir: &Path, k: usize, n: usize) -> PathBuf {
    let out = dir.join(format!("shard-{k}"));
    let (code, _, err) = arena(&[
        "run",
        s(cfg),
        "--shard",
        &format!("{k}/{n}"),
        "--out",
        s(&out),
        "-q",
    ]);
    assert_eq!(code, 0, "shard {k}/{n}: {err}");
    out
}

fn merge(out: &Path, shards: &[&Path]) -> (i32, String, String) {
    let mut args = vec!["merge", s(out)];
    args.extend(shards.iter().map(|p| s(p)));
    arena(&args)
}

fn meta(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap()
}

#[test]
fn merged_shards_give_the_tables_of_a_run_on_one_machine() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path(), "c4.toml", CONFIG);
    let whole = dir.path().join("whole");
    let (code, _, err) = arena(&["run", s(&cfg), "--out", s(&whole), "-q"]);
    assert_eq!(code, 0, "{err}");
    let planned = journal_lines(&whole).len();
    assert_eq!(planned, 3 * 2 * 5);

    let shards: Vec<PathBuf> = (0..3).map(|k| shard(&cfg, dir.path(), k, 3)).collect();
    let mut sizes = Vec::new();
    for (k, d) in shards.iter().enumerate() {
        let m = meta(d);
        assert_eq!(m["shard"]["k"], k, "meta.json records the shard");
        assert_eq!(m["shard"]["n"], 3);
        assert_eq!(m["shard"]["plan_episodes"], planned);
        assert_eq!(m["config_hash"], meta(&whole)["config_hash"]);
        assert_eq!(m["status"], "finished");
        let lines = journal_lines(d);
        assert_eq!(m["planned"], lines.len());
        // Whole pairs: both games of each pair in this shard.
        let mut pairs: Vec<u64> = lines
            .iter()
            .map(|l| l["record"]["episode"]["pair"].as_u64().unwrap())
            .collect();
        pairs.sort();
        assert!(
            pairs.chunks(2).all(|p| p.len() == 2 && p[0] == p[1]),
            "{pairs:?}"
        );
        // Per-game host and CPU model.
        for l in &lines {
            assert!(!l["record"]["host"].as_str().unwrap().is_empty(), "{l}");
            assert!(l["record"].get("cpu_model").is_some(), "{l}");
        }
        sizes.push(lines.len());
    }
    assert_eq!(sizes.iter().sum::<usize>(), planned, "{sizes:?}");

    // A shard is resumable like a run: rerunning a finished one plays nothing new.
    shard(&cfg, dir.path(), 1, 3);
    assert_eq!(journal_lines(&shards[1]).len(), sizes[1]);

    let merged = dir.path().join("merged");
    let refs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let (code, out, err) = merge(&merged, &refs);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("merged 3 shards of c4-shards (30 episodes)"),
        "{out}"
    );
    assert_same_results(&merged, &whole);
    let m = meta(&merged);
    assert_eq!(m["status"], "finished");
    assert_eq!(m["planned"], planned);
    assert_eq!(m["finished"], planned);
    assert!(m.get("shard").is_none());
    assert_eq!(m["merged_from"].as_array().unwrap().len(), 3);
    // The merged journal is in plan order; `arena summarize` works on it.
    let idx: Vec<u64> = journal_lines(&merged)
        .iter()
        .map(|l| l["record"]["episode"]["index"].as_u64().unwrap())
        .collect();
    assert_eq!(idx, (0..planned as u64).collect::<Vec<_>>());
    let (code, _, err) = arena(&["summarize", s(&merged)]);
    assert_eq!(code, 0, "{err}");
    // Merging again into the same folder redoes it.
    let (code, _, err) = merge(&merged, &refs);
    assert_eq!(code, 0, "{err}");
    assert_same_results(&merged, &whole);
}

/// Three finished shards of `CONFIG` in a temporary folder.
fn three_shards() -> (tempfile::TempDir, PathBuf, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path(), "c4.toml", CONFIG);
    let shards = (0..3).map(|k| shard(&cfg, dir.path(), k, 3)).collect();
    (dir, cfg, shards)
}

/// `arena merge` fails with exit code 2, saying `what`, and writes nothing.
fn refused(out: &Path, shards: &[&Path], what: &[&str]) {
    let (code, _, err) = merge(out, shards);
    assert_eq!(code, 2, "exit code 2 (bad input): {err}");
    assert!(err.contains("cannot merge the shards"), "{err}");
    for w in what {
        assert!(err.contains(w), "expected {w:?} in: {err}");
    }
    assert!(!out.exists(), "nothing written to {}", out.display());
}

#[test]
fn merge_refuses_a_missing_shard() {
    let (dir, _, sh) = three_shards();
    refused(
        &dir.path().join("m"),
        &[&sh[0], &sh[2]],
        &["missing shard 1/3", "0/3 in", "2/3 in"],
    );
    refused(
        &dir.path().join("m"),
        &[&sh[1]],
        &["missing shards 0/3, 2/3"],
    );
}

#[test]
fn merge_refuses_a_duplicated_shard() {
    let (dir, _, sh) = three_shards();
    // The same folder twice.
    refused(
        &dir.path().join("m"),
        &[&sh[0], &sh[1], &sh[2], &sh[1]],
        &["shard-1 is given twice"],
    );
    // Two folders holding the same shard.
    let copy = dir.path().join("copy-of-1");
    std::fs::create_dir(&copy).unwrap();
    for e in std::fs::read_dir(&sh[1]).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
        }
    }
    refused(
        &dir.path().join("m"),
        &[&sh[0], &sh[1], &sh[2], &copy],
        &["shard 1/3 is given twice", "shard-1", "copy-of-1"],
    );
}

#[test]
fn merge_refuses_a_foreign_shard() {
    let (dir, cfg, sh) = three_shards();
    // Shard 2/3 of another config (another seed).
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let cfg2 = write_config(&other, "c4.toml", &CONFIG.replace("seed = 21", "seed = 22"));
    let foreign = shard(&cfg2, &other, 2, 3);
    refused(
        &dir.path().join("m"),
        &[&sh[0], &sh[1], &foreign],
        &["is a shard of another config", "seed: 21 -> 22"],
    );
    // A shard of another split of the same config.
    let quarter = dir.path().join("quarters");
    std::fs::create_dir(&quarter).unwrap();
    let q = shard(&cfg, &quarter, 2, 4);
    refused(
        &dir.path().join("m"),
        &[&sh[0], &sh[1], &q],
        &["is shard 2/4", "the same N"],
    );
    // A folder that holds no run at all.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    refused(
        &dir.path().join("m"),
        &[&sh[0], &sh[1], &sh[2], &empty],
        &["holds no run of arena"],
    );
    // A shard whose agent is another (here: a built-in agent played by
    // another version of arena, as its meta.json records).
    let mut m = meta(&sh[2]);
    let uct = &mut m["agents"][1];
    assert_eq!(uct["label"], "uct");
    uct["arena_version"] = "0.0.1".into();
    uct["digest"] = "0".into();
    std::fs::write(sh[2].join("meta.json"), m.to_string()).unwrap();
    refused(
        &dir.path().join("m"),
        &[&sh[0], &sh[1], &sh[2]],
        &[
            "shard-2 played other agents than",
            "`uct` changed (arena ",
            " -> 0.0.1)",
        ],
    );
}

#[test]
fn merge_refuses_an_unfinished_shard() {
    let (dir, _, sh) = three_shards();
    // Shard 1 lost its last episode (as if killed before it was journaled).
    let j = sh[1].join("journal.jsonl");
    let text = std::fs::read_to_string(&j).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.pop();
    std::fs::write(&j, lines.join("\n") + "\n").unwrap();
    refused(
        &dir.path().join("m"),
        &[&sh[0], &sh[1], &sh[2]],
        &["shard 1/3 in", "is not finished", "--shard 1/3"],
    );
}

#[test]
fn shard_specs_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path(), "c4.toml", CONFIG);
    for (spec, what) in [
        ("3/3", "K counts from 0"),
        ("0/0", "must be 1 to"),
        ("1", "expected K/N"),
    ] {
        let (code, _, err) = arena(&["run", s(&cfg), "--shard", spec, "-q"]);
        assert_eq!(code, 2, "{spec}: {err}");
        assert!(err.contains(what), "{spec}: {err}");
    }
    // A shard folder continues only the same shard.
    let d = shard(&cfg, dir.path(), 0, 2);
    let (code, _, err) = arena(&["run", s(&cfg), "--shard", "1/2", "--out", s(&d), "-q"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("holds shard 0/2 of this config, not shard 1/2"),
        "{err}"
    );
}

#[test]
fn arena_slurm_writes_a_job_array_and_a_dependent_merge() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write_config(dir.path(), "c4.toml", CONFIG);
    let out = dir.path().join("res");
    let (code, said, err) = arena(&[
        "slurm",
        s(&cfg),
        "--shards",
        "6",
        "--out",
        s(&out),
        "--partition",
        "short",
        "--time",
        "01:30:00",
        "--cpus-per-task",
        "4",
        "--mem",
        "2G",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(said.contains("submit.sh"), "{said}");
    let read = |f: &str| std::fs::read_to_string(out.join("slurm").join(f)).unwrap();
    let shards = read("shards.sbatch");
    for line in [
        "#SBATCH --array=0-5",
        "#SBATCH --cpus-per-task=4",
        "#SBATCH --partition=short",
        "#SBATCH --time=01:30:00",
        "#SBATCH --mem=2G",
        "--shard \"$K/6\"",
        "K=\"$SLURM_ARRAY_TASK_ID\"",
        "-j \"${SLURM_CPUS_PER_TASK:-1}\"",
    ] {
        assert!(shards.contains(line), "{line:?} in:\n{shards}");
    }
    let merge = read("merge.sbatch");
    assert!(
        merge.contains("$(seq 0 5)") && merge.contains("merge \"$OUT\""),
        "{merge}"
    );
    let submit = read("submit.sh");
    assert!(submit.contains("--dependency=afterok:"), "{submit}");
    assert!(out.join("slurm/logs").is_dir() && out.join("shards").is_dir());
    // Bad values are refused (exit code 2).
    for (flag, v, what) in [
        ("--shards", "0", "must be 1 to"),
        ("--partition", "a b", "a single word"),
    ] {
        let mut args = vec!["slurm", s(&cfg), "--out", s(&out), flag, v];
        if flag != "--shards" {
            args.extend(["--shards", "2"]);
        }
        let (code, _, err) = arena(&args);
        assert_eq!(code, 2, "{flag} {v}: {err}");
        assert!(err.contains(what), "{flag} {v}: {err}");
    }
    // A sequential test cannot be sharded.
    let sprt = write_config(
        dir.path(),
        "sprt.toml",
        &(CONFIG.replace("[[agents]]\nagent = \"random\"\nname = \"random-b\"\n", "")
            + "[sprt]\nelo0 = 0\nelo1 = 10\n"),
    );
    for args in [
        vec!["slurm", s(&sprt), "--shards", "2", "--out", s(&out)],
        vec!["run", s(&sprt), "--shard", "0/2", "-q"],
    ] {
        let (code, _, err) = arena(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("cannot be split into shards"),
            "{args:?}: {err}"
        );
    }
}
