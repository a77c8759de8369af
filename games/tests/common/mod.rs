//! What the VGDL reference-trace tests (`vgdl_traces`, `vgdl_traces_2p`)
//! share: where the shipped data is, the game lists, reading the gzip'd
//! JSON-lines records, and comparing an avatar and the sprite list with a
//! recorded state.

use flate2::read::GzDecoder;
use games::vgdl::TraceAvatar;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// `games/data/gvgai`.
pub fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/gvgai")
}

/// The game names of the table `tsv` in [`data`] (`games.tsv`,
/// `games2p.tsv`: the second column).
pub fn game_names(tsv: &str) -> Vec<String> {
    let tsv = std::fs::read_to_string(data().join(tsv)).unwrap();
    tsv.lines()
        .skip(1)
        .map(|l| l.split('\t').nth(1).unwrap().to_string())
        .collect()
}

/// The records of `game` in [`data`]'s `folder`, or in the folder the
/// environment variable `env` names (none when there is no file).
pub fn records(env: &str, folder: &str, game: &str) -> Vec<Value> {
    let dir = match std::env::var(env) {
        Ok(d) => PathBuf::from(d),
        Err(_) => data().join(folder),
    };
    let Ok(f) = std::fs::File::open(dir.join(format!("{game}.jsonl.gz"))) else {
        return Vec::new();
    };
    BufReader::new(GzDecoder::new(f))
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect()
}

/// A recorded number.
pub fn num(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// Whether our avatar `a` has the recorded avatar `w`'s position,
/// orientation, health and resources.
pub fn same_avatar(a: &TraceAvatar, w: &Value) -> bool {
    let o = &w["orientation"];
    let res: Vec<(String, i32)> = w["resources"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), num(v) as i32))
        .collect();
    a.x as f64 == num(&w["x"])
        && a.y as f64 == num(&w["y"])
        && a.orientation == (num(&o[0]), num(&o[1]))
        && a.health as f64 == num(&w["health"])
        && a.resources == res
}

/// How our sprites differ from the recorded state `want`'s (up to five
/// extra and five missing), if they do.
pub fn sprites_diff(ours: &[(String, i32, i32)], want: &Value) -> Option<String> {
    let want_sprites: Vec<(String, i32, i32)> = want["sprites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s[0].as_str().unwrap().to_string(),
                num(&s[1]) as i32,
                num(&s[2]) as i32,
            )
        })
        .collect();
    if ours == want_sprites.as_slice() {
        return None;
    }
    let extra: Vec<_> = ours
        .iter()
        .filter(|s| !want_sprites.contains(s))
        .take(5)
        .collect();
    let missing: Vec<_> = want_sprites
        .iter()
        .filter(|s| !ours.contains(s))
        .take(5)
        .collect();
    Some(format!(
        "sprites: ours extra {extra:?}, missing {missing:?}"
    ))
}
