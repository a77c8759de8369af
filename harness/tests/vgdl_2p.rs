//! GVGAI's two-player games through the built `arena`: `arena trace
//! gvgai2p:NAME` against GVGAI's two-player reference records, `arena
//! list`, a `vgdl:PATH` with `no_players=2`, and `configs/gvgai-2p.toml`
//! (a round robin of the sample agents) end to end.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

mod common;
#[path = "common/gvgai.rs"]
mod gvgai;
use common::arena;
use gvgai::{check_trace, gvgai};

/// The shipped two-player game names, from `games2p.tsv`.
fn game_names() -> Vec<String> {
    gvgai::game_names("games2p.tsv")
}

/// The two-player reference records of `game`.
fn records(game: &str) -> Vec<Value> {
    gvgai::records("traces2p", game).collect()
}

/// Runs `arena trace gvgai2p:GAME` on a reference record, its joint
/// actions written `A/B`: `Err` names the first differing line.
fn check_record(game: &str, rec: &Value) -> Result<(), String> {
    let actions: Vec<String> = rec["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            let names: Vec<&str> = j
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect();
            names.join("/")
        })
        .collect();
    check_trace(&format!("gvgai2p:{game}"), rec, &actions.join(","))
}

/// The games `arena list` calls trace-identical.
fn identical_in_list() -> Vec<String> {
    let (code, out, err) = arena(&["list"]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter_map(|l| l.trim_start().strip_prefix("gvgai2p:"))
        .filter(|l| l.contains("trace-identical to GVGAI"))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn arena_trace_equals_gvgais_two_player_records_line_by_line() {
    // Two records (levels 0 and 4, or the first and last) of every game
    // `arena list` calls trace-identical, and every record of two games.
    let identical = identical_in_list();
    assert_eq!(identical.len(), 57, "{identical:?}");
    let mut failures = Vec::new();
    let mut checked = 0;
    for game in &identical {
        let recs: Vec<Value> = records(game)
            .into_iter()
            .filter(|r| r["replay_identical"] == true)
            .collect();
        let picked: Vec<&Value> = if game == "tron" || game == "captureflag" {
            recs.iter().collect()
        } else {
            vec![&recs[0], &recs[recs.len() - 1]]
        };
        for rec in picked {
            checked += 1;
            if let Err(e) = check_record(game, rec) {
                failures.push(e);
            }
        }
    }
    println!(
        "{} of {checked} two-player reference records identical",
        checked - failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn arena_list_shows_every_two_player_game_with_its_status() {
    let (code, out, err) = arena(&["list"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("gvgai2p:") && !l.starts_with("gvgai2p:NAME"))
        .collect();
    assert_eq!(lines.len(), game_names().len(), "{out}");
    assert_eq!(lines.len(), 60);
    let of = |game: &str| {
        *lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(&format!("gvgai2p:{game}")))
            .unwrap()
    };
    assert!(
        of("pacoban").contains("not trace-identical") && of("pacoban").contains("unseeded"),
        "{}",
        of("pacoban")
    );
    for game in ["arkanoid2p", "pong2p"] {
        assert!(
            of(game).contains("does not load") && of(game).contains("continuous physics"),
            "{}",
            of(game)
        );
    }
    // The single-player set is unchanged: 110 games.
    let one = out
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("gvgai:") && !l.starts_with("gvgai:NAME"))
        .count();
    assert_eq!(one, 110);
    let (code, out, err) = arena(&["list", "gvgai2p:tron"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("GVGAI's level 4") && out.contains("mcts"),
        "{out}"
    );
    let (code, _, err) = arena(&["list", "gvgai2p:nosuchgame"]);
    assert_eq!(code, 2);
    assert!(err.contains("GVGAI ships no game `nosuchgame`"), "{err}");
}

#[test]
fn a_two_player_vgdl_file_plays_by_path() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["tron.txt", "tron_lvl0.txt"] {
        std::fs::copy(gvgai().join("2player").join(f), dir.path().join(f)).unwrap();
    }
    let name = format!("vgdl:{}", dir.path().join("tron.txt").display());
    let (code, out, err) = arena(&[
        "trace",
        &name,
        "--level",
        "0",
        "--actions",
        "LEFT/RIGHT,UP/NIL",
    ]);
    assert_eq!(code, 0, "{err}");
    let by_path: Vec<&str> = out.lines().collect();
    let (code, shipped, err) = arena(&[
        "trace",
        "gvgai2p:tron",
        "--level",
        "0",
        "--actions",
        "LEFT/RIGHT,UP/NIL",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(by_path, shipped.lines().collect::<Vec<_>>());
    assert_eq!(by_path.len(), 3);
    let last: Value = serde_json::from_str(by_path[2]).unwrap();
    assert_eq!(last["avatars"].as_array().unwrap().len(), 2, "{last}");
    // One action per seat: a single name is not a joint action.
    let (code, _, err) = arena(&["trace", &name, "--level", "0", "--actions", "LEFT"]);
    assert_eq!(code, 2, "{err}");
}

/// The rows of a CSV file as maps from column to value.
fn csv_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let head = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            head.iter()
                .zip(rec.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn the_two_player_config_plays_a_round_robin_with_both_seats() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, stdout, err) = arena(&[
        "run",
        "../configs/gvgai-2p.toml",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    let rows = csv_rows(&out.join("episodes.csv"));
    let agents = ["random", "onesteplookahead", "mcts"];
    // Every episode has a row per seat, the two agents facing each other.
    let mut episodes: BTreeMap<String, Vec<&BTreeMap<String, String>>> = BTreeMap::new();
    for r in &rows {
        assert!(r["game"].starts_with("gvgai2p:"), "{r:?}");
        assert_eq!(r["outcome"], "normal", "{r:?}");
        episodes.entry(r["episode"].clone()).or_default().push(r);
    }
    let levels: Vec<&str> = {
        let mut l: Vec<&str> = rows.iter().map(|r| r["level"].as_str()).collect();
        l.sort();
        l.dedup();
        l
    };
    assert!(levels.len() >= 2, "{levels:?}");
    // 3 pairs, both seatings, per level.
    assert_eq!(episodes.len(), 3 * 2 * levels.len(), "{rows:?}");
    for (e, seats) in &episodes {
        assert_eq!(seats.len(), 2, "episode {e}");
        let (a, b) = (seats[0], seats[1]);
        assert_ne!(a["seat"], b["seat"], "episode {e}");
        assert_eq!((&a["agent"], &a["opponent"]), (&b["opponent"], &b["agent"]));
        // Head-to-head results: a win against a loss, or a draw each.
        let pair = (a["result"].as_str(), b["result"].as_str());
        assert!(
            matches!(pair, ("win", "loss") | ("loss", "win") | ("draw", "draw")),
            "episode {e}: {pair:?}"
        );
    }
    for agent in agents {
        for seat in ["0", "1"] {
            assert!(
                rows.iter()
                    .any(|r| r["agent"] == agent && r["seat"] == seat),
                "{agent} never played seat {seat}"
            );
        }
    }
    let summary = csv_rows(&out.join("summary.csv"));
    for agent in agents {
        let all = summary
            .iter()
            .find(|r| r["agent"] == agent && r["level"] == "all")
            .unwrap_or_else(|| panic!("no summary row for {agent}: {summary:?}"));
        // Each agent meets the two others in both seats on every level.
        assert_eq!(all["episodes"], (4 * levels.len()).to_string(), "{all:?}");
    }
    assert!(
        out.join("ratings.csv").is_file(),
        "a round robin rates the agents"
    );
}
