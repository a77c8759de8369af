//! Comparing results folders (`mod results;`): a merged or sharded run
//! against a run on one machine.

// Each test binary uses a part of it.
#![allow(dead_code)]

use std::path::Path;

/// Columns that measure time or name the machine: they differ between a
/// sharded and a one-machine run.
pub const MACHINE_COLUMNS: &[&str] = &["_ms", "host", "cpu_model"];

/// The rows of a CSV without the machine columns, sorted.
pub fn table(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    let keep: Vec<usize> = (0..headers.len())
        .filter(|&i| !MACHINE_COLUMNS.iter().any(|t| headers[i].contains(t)))
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

/// The journal's lines, parsed.
pub fn journal_lines(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("journal.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Compare two results folders: the same episodes and tables (apart from
/// timing and host columns). Shared with the Slurm test.
pub fn assert_same_results(merged: &Path, whole: &Path) {
    for f in [
        "episodes.csv",
        "summary.csv",
        "crosstable.csv",
        "ratings.csv",
    ] {
        assert_eq!(
            table(&merged.join(f)),
            table(&whole.join(f)),
            "{f} differs between {} and {}",
            merged.display(),
            whole.display()
        );
    }
    let episodes = |d: &Path| {
        let mut v: Vec<String> = journal_lines(d)
            .iter()
            .map(|l| l["record"]["episode"].to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(episodes(merged), episodes(whole), "the same episode set");
    assert!(merged.join("report.html").is_file());
    assert!(merged.join("replays.jsonl.gz").is_file());
}
