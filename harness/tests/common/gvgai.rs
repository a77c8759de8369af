//! What the tests of GVGAI games through the built `arena` share (included
//! with `#[path]` by `vgdl_cli` and `vgdl_2p`): the shipped data, the game
//! lists, the reference records, JSON equality by value, and `arena trace`
//! compared line by line with a record.

use crate::common::arena;
use flate2::read::GzDecoder;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// `games/data/gvgai`.
pub fn gvgai() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/data/gvgai")
}

/// The game names of the table `tsv` in [`gvgai`] (`games.tsv`,
/// `games2p.tsv`: the second column).
pub fn game_names(tsv: &str) -> Vec<String> {
    let tsv = std::fs::read_to_string(gvgai().join(tsv)).unwrap();
    tsv.lines()
        .skip(1)
        .map(|l| l.split('\t').nth(1).unwrap().to_string())
        .collect()
}

/// The reference records of `game` in [`gvgai`]'s `folder`, as they come.
pub fn records(folder: &str, game: &str) -> impl Iterator<Item = Value> {
    let f = std::fs::File::open(gvgai().join(format!("{folder}/{game}.jsonl.gz"))).unwrap();
    BufReader::new(GzDecoder::new(f))
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
}

/// JSON equality where numbers compare by value (`1` equals `1.0`).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Runs `arena trace NAME` with the record's level and seed and `actions`
/// (the `--actions` text): `Err` names the first line that differs from the
/// record's states.
pub fn check_trace(name: &str, rec: &Value, actions: &str) -> Result<(), String> {
    let (level, seed) = (rec["level"].to_string(), rec["seed"].to_string());
    let (code, out, err) = arena(&[
        "trace",
        name,
        "--level",
        &level,
        "--seed",
        &seed,
        "--actions",
        actions,
    ]);
    if code != 0 {
        return Err(format!("{name}: exit {code}: {err}"));
    }
    let want = rec["states"].as_array().unwrap();
    let lines: Vec<&str> = out.lines().collect();
    if lines.len() != want.len() {
        return Err(format!(
            "{name} level {level} seed {seed}: {} lines, the reference has {} states",
            lines.len(),
            want.len()
        ));
    }
    for (i, (line, w)) in lines.iter().zip(want).enumerate() {
        let ours: Value = serde_json::from_str(line).map_err(|e| format!("{name}: {e}"))?;
        if !same(&ours, w) {
            return Err(format!(
                "{name} level {level} seed {seed}, state {i}:\n ours {ours}\n want {w}"
            ));
        }
    }
    Ok(())
}
