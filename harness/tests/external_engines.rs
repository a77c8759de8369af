//! A real UCI engine through the UCI adapter: Debian's Fairy-Stockfish
//! (`apt-get install fairy-stockfish`, installed by .ci/setup-external.sh)
//! plays Xiangqi against the built-in alphabeta agent. Skipped, with the
//! reason printed, only when the engine is not installed.

mod tools;
use harness::config;
use harness::run::{run_config, ProgressMode};
use std::path::Path;

const ENGINE: &str = "/usr/games/fairy-stockfish";

#[test]
fn fairy_stockfish_plays_xiangqi_over_uci() {
    if !Path::new(ENGINE).exists() {
        tools::skip(&format!(
            "{ENGINE} is not installed (apt-get install fairy-stockfish)"
        ));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cfg_path = dir.path().join("engine.toml");
    std::fs::write(
        &cfg_path,
        format!(
            "name = \"engine\"\ngame = \"xiangqi\"\nlevels = [\"start\"]\nrepetitions = 1\nseed = 3\n\
             concurrency = 2\nmax_steps = 24\n[time]\nact = \"60ms\"\nact_hard = \"400ms\"\n\
             init = \"3s\"\ninit_hard = \"4s\"\n\
             [[agents]]\nagent = \"alphabeta\"\nparams = {{ depth = 2 }}\n\
             [[agents]]\nname = \"fsf\"\ncommand = [\"{ENGINE}\"]\nprotocol = \"uci\"\n\
             options = {{ \"Skill Level\" = 0, Threads = 1, Hash = 16 }}\nsandbox = \"rlimit\"\n"
        ),
    )
    .unwrap();
    let cfg = config::load(&cfg_path).unwrap();
    let out = run_config(&cfg, &dir.path().join("out"), ProgressMode::Silent).unwrap();
    assert_eq!(out.rows.len(), 4, "two games, seats swapped");
    for r in &out.rows {
        assert_eq!(r.outcome, "normal", "{r:?}");
        assert!(r.steps >= 2, "{r:?}");
    }
    // The engine's moves are legal xiangqi moves in ICCS numbering in the move log.
    let moves = std::fs::read_to_string(out.dir.join("moves.jsonl")).unwrap();
    let first = moves.lines().next().unwrap();
    let v: serde_json::Value = serde_json::from_str(first).unwrap();
    let played: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let mut g = games::xiangqi::Xiangqi::new();
    g.play_iccs(&played).expect("every logged move is legal");
    assert!(played.len() >= 2, "{played:?}");
}
