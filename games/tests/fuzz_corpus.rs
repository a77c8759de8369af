//! Replays the committed fuzzing corpora and crash reproducers
//! (`fuzz/corpus/<target>/`, `fuzz/artifacts/<target>/`) through the same
//! checks the cargo-fuzz targets run ([`games::fuzzing`]), so that every
//! input the fuzzer found interesting stays a regression test under the
//! ordinary `cargo test`, without nightly or cargo-fuzz.

use std::path::{Path, PathBuf};

/// Every file of `fuzz/corpus/<target>/` and `fuzz/artifacts/<target>/`.
fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut out = Vec::new();
    for dir in ["corpus", "artifacts"] {
        let Ok(rd) = std::fs::read_dir(fuzz.join(dir).join(target)) else {
            continue;
        };
        for e in rd.flatten() {
            if e.path().is_file() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

fn replay(target: &str, check: fn(&[u8])) {
    let files = inputs(target);
    assert!(
        !files.is_empty(),
        "no corpus for {target} under fuzz/corpus/{target}"
    );
    for f in files {
        let data = std::fs::read(&f).unwrap();
        let r = std::panic::catch_unwind(|| check(&data));
        assert!(r.is_ok(), "{target}: {} fails its check", f.display());
    }
}

#[test]
fn bait_level() {
    replay("bait_level", games::fuzzing::bait_level);
}

#[test]
fn sokoban_xsb() {
    replay("sokoban_xsb", games::fuzzing::sokoban_xsb);
}

#[test]
fn sokoban_rle_lurd() {
    replay("sokoban_rle_lurd", games::fuzzing::sokoban_rle_lurd);
}

#[test]
fn supply_instance() {
    replay("supply_instance", games::fuzzing::supply_instance);
}

#[test]
fn xiangqi_fen_iccs() {
    replay("xiangqi_fen_iccs", games::fuzzing::xiangqi_fen_iccs);
}

#[test]
fn vgdl_game() {
    replay("vgdl_game", games::fuzzing::vgdl_game);
}

#[test]
fn vgdl_parse() {
    replay("vgdl_parse", games::fuzzing::vgdl_parse);
}
