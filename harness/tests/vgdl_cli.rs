//! VGDL games through the built `arena`: `arena trace gvgai:NAME` against
//! GVGAI's public reference records, `arena list`, a bad `vgdl:PATH`, an
//! external JSONL agent, and arena's own example game (configs/vgdl-own.toml).

use serde_json::Value;

mod common;
#[path = "common/gvgai.rs"]
mod gvgai;
use common::arena;
use gvgai::check_trace;

/// The shipped game names, from `games.tsv`.
fn game_names() -> Vec<String> {
    gvgai::game_names("games.tsv")
}

/// The `k`-th public reference record of `game`.
fn record(game: &str, k: usize) -> Value {
    gvgai::records("traces", game).nth(k).unwrap()
}

/// Runs `arena trace` on a reference record: `Err` names the first
/// differing line.
fn check_record(game: &str, rec: &Value) -> Result<(), String> {
    let actions: Vec<&str> = rec["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    check_trace(&format!("gvgai:{game}"), rec, &actions.join(","))
}

#[test]
fn arena_trace_equals_gvgais_reference_records_line_by_line() {
    // One record of every shipped game, and every record of two games
    // (bait draws no random number, aliens does).
    let mut failures = Vec::new();
    let mut checked = 0;
    for game in game_names() {
        let ks: Vec<usize> = if game == "aliens" || game == "bait" {
            (0..10).collect()
        } else {
            vec![checked % 10]
        };
        for k in ks {
            checked += 1;
            if let Err(e) = check_record(&game, &record(&game, k)) {
                failures.push(e);
            }
        }
    }
    println!(
        "{} of {checked} reference records identical",
        checked - failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn arena_list_shows_every_shipped_game_once() {
    let (code, out, err) = arena(&["list"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("gvgai:") && !l.starts_with("gvgai:NAME"))
        .collect();
    assert_eq!(lines.len(), 110, "{out}");
    assert!(lines.iter().all(|l| l.contains("trace-identical")), "{out}");
    let (code, out, err) = arena(&["list", "gvgai:zelda"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("GVGAI's level 4") && out.contains("uct"),
        "{out}"
    );
    let (code, _, err) = arena(&["list", "gvgai:nosuchgame"]);
    assert_eq!(code, 2);
    assert!(err.contains("GVGAI ships no game `nosuchgame`"), "{err}");
}

#[test]
fn arena_bench_prints_the_forward_models_speed_per_level() {
    let (code, out, err) = arena(&["bench", "gvgai:bait", "--seconds", "0.02"]);
    assert_eq!(code, 0, "{err}");
    let rates: Vec<f64> = out
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(rates.len(), 5, "{out}");
    assert!(rates.iter().all(|r| *r > 0.0), "{out}");
    assert!(out.contains("median"), "{out}");
}

#[test]
fn a_bad_vgdl_file_is_located_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("bad.txt");
    std::fs::write(
        &game,
        "BasicGame\n  SpriteSet\n    rock > Immovabel\n  LevelMapping\n    r > rock\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("bad_lvl0.txt"), "wr\n").unwrap();
    let name = format!("vgdl:{}", game.display());
    let (code, _, err) = arena(&["trace", &name, "--level", "0"]);
    assert_eq!(code, 2, "{err}");
    let at = format!("{}:3:12: ", game.display());
    assert!(err.contains(&at) && err.contains("Immovable"), "{err}");
    // The same in a config.
    let cfg = dir.path().join("bad.toml");
    std::fs::write(
        &cfg,
        "game = \"vgdl:bad.txt\"\nlevels = [0]\n[[agents]]\nagent = \"random\"\n",
    )
    .unwrap();
    let (code, _, err) = arena(&["run", cfg.to_str().unwrap(), "-q"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&at), "{err}");
    // A level character the game does not map.
    std::fs::write(
        &game,
        "BasicGame\n  SpriteSet\n    rock > Immovable\n  LevelMapping\n    r > rock\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("bad_lvl0.txt"), "wr\nrq\n").unwrap();
    let (code, _, err) = arena(&["trace", &name, "--level", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad_lvl0.txt:2:2: "), "{err}");
}

const AGENT: &str = r#"
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        assert m["game"] == "gvgai:bait", m["game"]
        print(json.dumps({"type": "ready"}), flush=True)
    elif m["type"] == "act":
        s = m["state"]
        row, col = s["avatar"]["cell"]
        assert s["avatar"]["type"] in s["grid"][row][col], s["grid"][row][col]
        assert s["avatar"]["x"] == col * s["block"]
        # Walk right; NIL when right is not allowed.
        print(json.dumps({"action": "RIGHT" if "RIGHT" in m["legal"] else "NIL"}), flush=True)
    else:
        break
"#;

#[test]
fn an_external_jsonl_agent_plays_a_gvgai_game() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("agent.py"), AGENT).unwrap();
    let cfg = dir.path().join("ext.toml");
    std::fs::write(
        &cfg,
        "game = \"gvgai:bait\"\nlevels = [0, 1]\nmax_steps = 15\n[time]\nact = \"500ms\"\n\
         act_hard = \"2s\"\n[[agents]]\nname = \"walker\"\ncommand = [\"python3\", \"agent.py\"]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows = std::fs::read_to_string(out.join("episodes.csv")).unwrap();
    let walker: Vec<&str> = rows.lines().filter(|l| l.contains(",walker,")).collect();
    assert_eq!(walker.len(), 2, "{rows}");
    assert!(
        walker
            .iter()
            .all(|l| l.contains(",gvgai:bait,") && l.contains(",normal,")),
        "{rows}"
    );
}

#[test]
fn the_own_game_of_docs_vgdl_runs_with_the_sample_agents() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, _, err) = arena(&[
        "run",
        "../configs/vgdl-own.toml",
        "--repetitions",
        "1",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows = std::fs::read_to_string(out.join("episodes.csv")).unwrap();
    let played: Vec<&str> = rows.lines().skip(1).collect();
    assert_eq!(played.len(), 4, "{rows}");
    for agent in ["random", "onesteplookahead", "mcts", "uct"] {
        assert!(
            played.iter().any(|l| l.contains(&format!(",{agent},"))
                && l.contains("vgdl:")
                && l.contains(",normal,")),
            "{rows}"
        );
    }
}
