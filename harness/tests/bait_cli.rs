//! `arena solve bait` and `arena bench bait` as a user meets them.

use games::bait::{Bait, BaitAction};
use games::Game;

mod common;
use common::arena;

/// The plan on stdout's last line (empty line: no plan).
fn plan_of(stdout: &str) -> Vec<BaitAction> {
    let last = stdout.lines().last().expect("a last line");
    if last.is_empty() {
        return Vec::new();
    }
    last.split(',')
        .map(|a| BaitAction::parse(a).unwrap_or_else(|| panic!("not an action: {a}")))
        .collect()
}

fn replay(level: &Bait, plan: &[BaitAction]) -> Bait {
    let mut s = level.clone();
    for &a in plan {
        assert!(!s.is_over(), "the plan goes on after the game ended");
        s.advance(&[a]);
    }
    s
}

/// Whether some sequence of at most `depth` moves wins from `s`.
fn wins_within(s: &Bait, depth: usize) -> bool {
    s.won()
        || (depth > 0
            && !s.is_over()
            && BaitAction::MOVES.iter().any(|&a| {
                let mut t = s.clone();
                t.advance(&[a]);
                wins_within(&t, depth - 1)
            }))
}

#[test]
fn solve_prints_a_winning_plan_last_and_bfs_is_shortest() {
    let level = Bait::level(0).unwrap();
    for agent in ["astar", "bfs", "dfs", "dls"] {
        let (code, out, err) = arena(&[
            "solve",
            "bait",
            "--level",
            "0",
            "--agent",
            agent,
            "--time-limit",
            "20s",
        ]);
        assert_eq!(code, 0, "{agent}: {err}");
        let plan = plan_of(&out);
        let end = replay(&level, &plan);
        assert!(end.won(), "{agent}: {out}");
        assert!(
            err.contains(&format!(
                "level 0 (5x6): solved, length {}, score {}, expanded ",
                plan.len(),
                end.int_score()
            )),
            "{agent}: {err}"
        );
        if agent == "bfs" {
            assert!(!wins_within(&level, plan.len() - 1), "bfs: {out}");
        }
    }
    // The default agent is astar; the plan replays through `arena trace`.
    let (code, out, _) = arena(&["solve", "bait", "--level", "3"]);
    assert_eq!(code, 0);
    let plan = out.lines().last().unwrap().to_string();
    assert!(replay(&Bait::level(3).unwrap(), &plan_of(&out)).won());
    let (code, trace, _) = arena(&["trace", "bait", "--level", "3", "--actions", &plan]);
    assert_eq!(code, 0);
    assert!(
        trace.lines().last().unwrap().contains("\"result\":\"win\""),
        "{trace}"
    );
}

#[test]
fn solve_reports_no_win_timeouts_and_memory_caps_as_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("walled.txt");
    std::fs::write(&file, "wwwwww\nwA.wkw\nw..wgw\nwwwwww\n").unwrap();
    let f = file.to_str().unwrap();
    for agent in ["astar", "bfs", "dfs"] {
        let (code, out, err) = arena(&["solve", "bait", "--level", f, "--agent", agent]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "\n", "{agent}: an empty last line");
        assert!(err.contains(": no win, length -, score -"), "{err}");
    }
    // A played agent that cannot win either.
    let (code, out, err) = arena(&["solve", "bait", "--level", f, "--agent", "random"]);
    assert_eq!((code, out.as_str()), (0, "\n"), "{err}");
    assert!(err.contains(": lost,"), "{err}");
    let (code, out, err) = arena(&[
        "solve",
        "bait",
        "--level",
        "3",
        "--agent",
        "bfs",
        "--time-limit",
        "0s",
    ]);
    assert_eq!((code, out.as_str()), (0, "\n"), "{err}");
    assert!(err.contains("timeout"), "{err}");
    let (code, out, err) = arena(&[
        "solve",
        "bait",
        "--level",
        "2",
        "--agent",
        "bfs",
        "--param",
        "max_nodes=100",
    ]);
    assert_eq!((code, out.as_str()), (0, "\n"), "{err}");
    assert!(err.contains("memory cap"), "{err}");
}

#[test]
fn solve_writes_a_csv_row() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("solve.csv");
    let (code, out, err) = arena(&[
        "solve",
        "bait",
        "--level",
        "1",
        "--agent",
        "bfs",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("level,agent,result,length,score,expanded,ms,plan")
    );
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&row[..3], &["1", "bfs", "solved"]);
    assert_eq!(row[3].parse::<usize>().unwrap(), plan_of(&out).len());
}

#[test]
fn bad_solve_input_is_exit_code_2_with_one_line() {
    let (code, _, err) = arena(&["solve", "bait", "--level", "0", "--agent", "alphago"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("valid agents: random, onesteplookahead, dfs, dls, astar, bfs, mcts"),
        "{err}"
    );
    let (code, _, err) = arena(&[
        "solve", "bait", "--level", "0", "--agent", "astar", "--param", "wieght=2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("has no parameter `wieght`"), "{err}");
    let (code, _, err) = arena(&["solve", "bait", "--level", "9"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = arena(&["solve", "bait", "--levels", "x.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("one --level"), "{err}");
}

#[test]
fn bench_prints_a_row_per_level() {
    let (code, out, err) = arena(&["bench", "bait", "--seconds", "0.02"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("state "), "{out}");
    assert!(out.contains("clone+advance/s"), "{out}");
    for (i, size) in ["5x6", "13x9", "13x10", "13x11", "7x9"].iter().enumerate() {
        let row = out
            .lines()
            .find(|l| l.starts_with(&format!("{i} ")))
            .unwrap_or_else(|| panic!("no row for level {i}: {out}"));
        assert!(row.contains(size), "{row}");
        let rate: f64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(rate > 0.0, "{row}");
    }
    assert!(out.contains("slowest level: "), "{out}");
}
