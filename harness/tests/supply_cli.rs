//! `arena solve supply` and `arena generate supply` as a user meets them.

mod common;
use common::arena;

const TWO: &str = "; detour through the supply cell\n2 7 4\n3 0 0 0 0 0 4\n0 0 0 0 2 0 0\n\n; unsolvable: 4 moves, T = 3\n1 5 3\n@...E\n";

#[test]
fn solve_prints_the_path_last_and_reports_unreachable_as_an_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.txt");
    std::fs::write(&file, TWO).unwrap();
    let f = file.to_str().unwrap();
    let detour = games::supply::parse_instances(TWO).unwrap().remove(0).map;
    for agent in ["bfs", "ucs", "astar", "astar-supply"] {
        let (code, out, err) = arena(&[
            "solve", "supply", "--levels", f, "--level", "1", "--agent", agent,
        ]);
        assert_eq!(code, 0, "{err}");
        let path = games::supply::Dir::parse_path(out.lines().last().unwrap()).unwrap();
        assert_eq!(detour.check_path(&path), Some(8), "{agent}: {out}");
        assert!(err.contains("steps 8, expanded "), "{err}");
        let (code, out, err) = arena(&[
            "solve", "supply", "--levels", f, "--level", "2", "--agent", agent,
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim(), "unreachable");
        assert!(err.contains("unreachable"), "{err}");
    }
    // One convention with Sokoban's: --levels FILE --level N counts from 1;
    // the deprecated --index N (from 0) is --level N+1, with a warning.
    let (code, out, err) = arena(&["solve", "supply", "--levels", f, "--index", "1"]);
    assert_eq!((code, out.trim()), (0, "unreachable"), "{err}");
    assert!(
        err.contains("--index 1 is deprecated (it counts from 0): use --level 2"),
        "{err}"
    );
    for bad in ["0", "3", "x"] {
        let (code, _, err) = arena(&["solve", "supply", "--levels", f, "--level", bad]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("expected an instance number from 1 to 2"),
            "{err}"
        );
    }
    // All instances of the file, one line each; and the FILE:N level form.
    let (code, out, _) = arena(&["solve", "supply", "--levels", f, "--agent", "ucs"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].len(), 8);
    assert_eq!(lines[1], "unreachable");
    let spec = format!("{f}:0");
    let (code, out, _) = arena(&["solve", "supply", "--level", &spec]);
    assert_eq!((code, out.trim().len()), (0, 8));
    // A search cut by the time limit is an outcome too.
    let (code, out, err) = arena(&[
        "solve",
        "supply",
        "--level",
        "set:22",
        "--agent",
        "ucs",
        "--time-limit",
        "0s",
    ]);
    assert_eq!((code, out.trim()), (0, "timeout"), "{err}");
    // The shipped set.
    let (code, out, err) = arena(&["solve", "supply", "--level", "set:0", "--agent", "astar"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim().len(), 9, "set:0 is solvable in 9 steps: {out}");
}

#[test]
fn bad_files_and_names_are_one_line_errors_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    std::fs::write(&file, "2 3 4\n3 0 4\n0 0\n").unwrap();
    let (code, _, err) = arena(&["solve", "supply", "--levels", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.txt: line 3, column 4: row has 2 cells, expected N = 3"),
        "{err}"
    );
    let (code, _, err) = arena(&["solve", "supply", "--level", "set:999"]);
    assert_eq!(code, 2);
    assert!(err.contains("set:0 to set:"), "{err}");
    let (code, _, err) = arena(&["solve", "supply", "--level", "set:0", "--agent", "random"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a supply planner"), "{err}");
}

#[test]
fn generate_is_reproducible_and_flags_its_instances() {
    let args = [
        "generate", "supply", "--count", "12", "--size", "6x9", "--food", "4", "--seed", "9",
    ];
    let (code, a, err) = arena(&args);
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = arena(&args);
    assert_eq!(a, b);
    let set = games::supply::parse_instances(&a).unwrap();
    assert_eq!(set.len(), 12);
    for inst in &set {
        let status = inst.comment_value("status").unwrap();
        assert_eq!(status, games::supply::classify(&inst.map).to_string());
        assert_eq!(
            (inst.map.rows(), inst.map.cols(), inst.map.capacity()),
            (6, 9, 4)
        );
    }
    let (code, _, err) = arena(&["generate", "supply", "--size", "6by9"]);
    assert_eq!(code, 2);
    assert!(err.contains("expected MxN"), "{err}");
}

#[test]
fn the_comparison_config_runs_and_astar_expands_fewer_nodes_with_equal_steps() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let (code, _, err) = arena(&[
        "run",
        "../configs/supply-agents.toml",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut r = csv::Reader::from_path(out.join("episodes.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let (level, agent, steps, result, expanded) = (
        col("level"),
        col("agent"),
        col("steps"),
        col("result"),
        col("expanded"),
    );
    let mut by_level: std::collections::BTreeMap<String, Vec<(String, String)>> =
        Default::default();
    let mut total: std::collections::BTreeMap<String, u64> = Default::default();
    for rec in r.records() {
        let rec = rec.unwrap();
        by_level
            .entry(rec[level].to_string())
            .or_default()
            .push((rec[result].to_string(), rec[steps].to_string()));
        *total.entry(rec[agent].to_string()).or_default() += rec[expanded].parse::<u64>().unwrap();
    }
    assert!(by_level.len() >= 20);
    for (lvl, rows) in &by_level {
        assert_eq!(rows.len(), 4, "{lvl}");
        // Same result everywhere; same steps where the exit was reached.
        assert!(rows.iter().all(|r| r.0 == rows[0].0), "{lvl}: {rows:?}");
        if rows[0].0 == "win" {
            assert!(rows.iter().all(|r| r.1 == rows[0].1), "{lvl}: {rows:?}");
        }
    }
    assert!(total["astar"] * 2 < total["ucs"], "{total:?}");
    assert!(total["astar-supply"] <= total["astar"], "{total:?}");
}

#[test]
fn trace_shows_food_and_steps_and_stops_at_the_exit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.txt");
    std::fs::write(&file, "2 7 4\n@.....E\n....S..\n").unwrap();
    let f = file.to_str().unwrap();
    let (code, out, err) = arena(&[
        "trace",
        "supply",
        "--level",
        f,
        "--actions",
        "R,R,R,R,D,R,R,U,L",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9, "the move after the win is not played");
    assert!(lines[4].contains(r#""food":0"#), "{}", lines[4]);
    assert!(lines[5].contains(r#""food":3"#), "{}", lines[5]);
    assert!(lines[8].contains(r#""result":"win""#) && lines[8].contains(r#""steps":8"#));
    let (code, _, err) = arena(&["trace", "supply", "--level", f, "--actions", "R,R,R,R,R"]);
    assert_eq!(code, 2);
    assert!(err.contains("item 5 (`R`, move 5) is not legal"), "{err}");
}
