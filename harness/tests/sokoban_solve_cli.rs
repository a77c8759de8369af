//! `arena solve sokoban` and `arena bench sokoban` as a user meets them.
//! Solutions are checked with the independent replay of
//! `games::sokoban::replay`.

use games::sokoban::{parse_levels, replay};

mod common;
use common::arena;

/// Three levels: one push; unsolvable (a box in a corner, off its goal);
/// Microban 2 (3 pushes at best).
const THREE: &str = "\
; one push
#####
#@$.#
#####

; cornered
#####
#$  #
# @.#
#####

; 2
######
#    #
# #@ #
# $* #
# .* #
#    #
######
";

fn three_file(dir: &tempfile::TempDir) -> String {
    let file = dir.path().join("three.xsb");
    std::fs::write(&file, THREE).unwrap();
    file.to_str().unwrap().to_string()
}

#[test]
fn one_level_prints_its_solution_last() {
    let dir = tempfile::tempdir().unwrap();
    let f = three_file(&dir);
    let levels = parse_levels(THREE).unwrap();
    // --level N counts from 1 (as the CSV's `level` column); the deprecated
    // --index N counts from 0 and says so.
    for (flag, n) in [("--level", "3"), ("--index", "2")] {
        for agent in ["biastar", "astar", "bfs", "greedy", "wastar"] {
            let (code, out, err) = arena(&[
                "solve", "sokoban", "--levels", &f, flag, n, "--agent", agent,
            ]);
            assert_eq!(code, 0, "{err}");
            let lurd = out.lines().last().unwrap();
            let check = replay(&levels[2], lurd).unwrap();
            assert!(check.solved, "{agent}: {lurd}");
            if agent == "astar" || agent == "bfs" {
                assert_eq!(check.pushes, 3, "{agent}: push-optimal");
            }
            assert!(
                err.contains(&format!(
                    "(2): solved, moves {}, pushes {}",
                    check.moves, check.pushes
                )),
                "{err}"
            );
            assert!(err.contains("solved 1/1 levels"), "{err}");
            // Which of the agent's searches found it.
            let by = if agent == "biastar" {
                "bidirectional"
            } else {
                agent
            };
            assert!(err.contains(&format!(" ms, found by {by}\n")), "{err}");
            // The default agent, of several searches, sums them up.
            assert_eq!(
                err.contains("biastar: found by: bidirectional 1\n"),
                agent == "biastar",
                "{err}"
            );
            assert_eq!(
                err.contains("warning: --index 2 is deprecated (it counts from 0): use --level 3"),
                flag == "--index",
                "{err}"
            );
        }
    }
    // A level spec alone, as in configs.
    let (code, out, _) = arena(&["solve", "sokoban", "--level", "microban:1"]);
    assert_eq!(code, 0);
    let m1 = parse_levels(games::sokoban::MICROBAN).unwrap().remove(0);
    assert!(replay(&m1, out.lines().last().unwrap()).unwrap().solved);
}

#[test]
fn a_file_gives_one_line_and_one_csv_row_per_level() {
    let dir = tempfile::tempdir().unwrap();
    let f = three_file(&dir);
    let csv = dir.path().join("out/three.csv");
    let (code, out, err) = arena(&[
        "solve",
        "sokoban",
        "--levels",
        &f,
        "--jobs",
        "2",
        "--time-limit",
        "10s",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "R");
    assert_eq!(lines[1], "unsolvable");
    assert!(err.contains("solved 2/3 levels"), "{err}");
    assert!(err.contains("(cornered): unsolvable"), "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(
        rows[0],
        "level,title,solved,moves,pushes,time_ms,expanded,solution,status,found_by,note"
    );
    assert_eq!(rows.len(), 4);
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let row = |i: usize| records[i].iter().collect::<Vec<&str>>();
    let one = row(0);
    assert_eq!(one[..5], ["1", "one push", "1", "1", "1"], "{one:?}");
    assert_eq!(one[7..9], ["R", "solved"], "{one:?}");
    assert!(!one[9].is_empty(), "which search found it: {one:?}");
    // Unsolved: an empty solution, the status and the solver's note.
    let cornered = row(1);
    assert_eq!(
        cornered[..5],
        ["2", "cornered", "0", "0", "0"],
        "{cornered:?}"
    );
    assert_eq!(cornered[7..10], ["", "unsolvable", ""], "{cornered:?}");
    assert!(
        cornered[10].contains("can never reach a goal"),
        "{cornered:?}"
    );
    let fields = row(2);
    assert_eq!(fields.len(), 11);
    assert_eq!((fields[0], fields[1], fields[2]), ("3", "2", "1"));
    let levels = parse_levels(THREE).unwrap();
    let check = replay(&levels[2], fields[7]).unwrap();
    assert!(check.solved);
    assert_eq!(
        (fields[3], fields[4]),
        (
            check.moves.to_string().as_str(),
            check.pushes.to_string().as_str()
        )
    );
    // The file written is what `arena verify sokoban` reads.
    let (code, out, err) = arena(&[
        "verify",
        "sokoban",
        "--levels",
        &f,
        "--solutions",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_search_cut_by_the_time_limit_is_an_outcome() {
    // Microban 153 is far beyond 1 ms.
    let (code, out, err) = arena(&[
        "solve",
        "sokoban",
        "--level",
        "microban:153",
        "--time-limit",
        "1ms",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "timeout");
    assert!(err.contains("(153): timeout, moves 0, pushes 0"), "{err}");
}

#[test]
fn the_nearest_positions_of_levels_not_solved_are_written_as_levels() {
    // Three levels: one solved, one unsolvable (nothing to show), and
    // Microban 153 cut at 2,000 states: its nearest position is written.
    let dir = tempfile::tempdir().unwrap();
    let m153 = parse_levels(games::sokoban::MICROBAN).unwrap().remove(152);
    let text = format!("{THREE}\n; 153\n{}", m153.to_xsb());
    let f = dir.path().join("four.xsb");
    std::fs::write(&f, text).unwrap();
    let near = dir.path().join("stalls/near.xsb");
    // The four levels at 2,000 states, with the agent's arguments `agent`.
    let solve = |agent: &[&str]| {
        let (f, near) = (f.to_str().unwrap(), near.to_str().unwrap());
        let head = [
            "solve",
            "sokoban",
            "--levels",
            f,
            "--param",
            "max_nodes=2000",
        ];
        arena(&[&head[..], agent, &["--nearest", near]].concat())
    };
    let (code, _, err) = solve(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("(153): node-limit"), "{err}");
    assert!(
        err.contains("1 nearest position(s) of the 1 level(s) left open"),
        "{err}"
    );
    assert!(!err.contains("the other"), "{err}");
    let got = parse_levels(&std::fs::read_to_string(&near).unwrap()).unwrap();
    assert_eq!(got.len(), 1);
    let n = &got[0];
    assert!(
        n.title.starts_with("153: nearest position, ") && n.title.contains(" boxes on goals"),
        "{}",
        n.title
    );
    // The level's walls and goals, as many boxes, another position.
    assert_eq!(
        (n.walls.clone(), n.goals.clone()),
        (m153.walls.clone(), m153.goals.clone())
    );
    let count = |l: &games::sokoban::Level| l.boxes.iter().filter(|&&b| b).count();
    assert_eq!(count(n), count(&m153));
    assert_ne!(n.boxes, m153.boxes);
    // A backward search alone has no position nearest the goals: it says
    // so.
    let (code, _, err) = solve(&["--agent", "fess", "--param", "backward=true"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("(153): node-limit"), "{err}");
    assert!(
        err.contains("0 nearest position(s) of the 1 level(s) left open"),
        "{err}"
    );
    assert!(
        err.contains("the other 1: ") && err.contains("a backward search has no position"),
        "{err}"
    );
    // Only `arena solve sokoban` has it.
    let (code, _, err) = arena(&["solve", "bait", "--level", "2", "--nearest", "x.xsb"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--nearest is for `arena solve sokoban` only"),
        "{err}"
    );
}

#[test]
fn a_solve_past_its_memory_budget_says_so() {
    // Microban 153 with a budget of 16 MiB, less than the room its tables
    // need before the solver's next look: a memory limit, and the note
    // says which budget; the position reached is still written.
    let dir = tempfile::tempdir().unwrap();
    let near = dir.path().join("near.xsb");
    let (code, out, err) = arena(&[
        "solve",
        "sokoban",
        "--levels",
        "microban",
        "--level",
        "153",
        "--param",
        "memory_mb=16",
        "--nearest",
        near.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "memory-limit", "{out}");
    assert!(err.contains("(153): memory-limit"), "{err}");
    assert!(err.contains("past the memory budget of 16 MB)"), "{err}");
    assert!(err.contains("1 nearest position(s)"), "{err}");
}

#[test]
fn bad_arguments_are_config_errors() {
    let dir = tempfile::tempdir().unwrap();
    let f = three_file(&dir);
    for (args, needle) in [
        (
            vec!["solve", "sokoban", "--levels", &f, "--agent", "dijkstra"],
            "not a Sokoban solver",
        ),
        (
            vec!["solve", "sokoban", "--levels", &f, "--agent", "random"],
            "not a Sokoban solver",
        ),
        (
            vec!["solve", "sokoban", "--levels", &f, "--level", "4"],
            "expected a level number from 1 to 3",
        ),
        (
            vec!["solve", "sokoban", "--levels", &f, "--level", "0"],
            "expected a level number from 1 to 3",
        ),
        (
            vec!["solve", "sokoban", "--levels", &f, "--index", "3"],
            "expected a level number from 1 to 3",
        ),
        (
            vec![
                "solve", "sokoban", "--levels", &f, "--index", "0", "--level", "1",
            ],
            "not both",
        ),
        (vec!["solve", "sokoban", "--index", "1"], "needs --levels"),
        (vec!["solve", "sokoban"], "needs --levels FILE"),
        (
            vec!["solve", "sokoban", "--levels", &f, "--param", "depth=2"],
            "has no parameter `depth`",
        ),
        (
            vec![
                "solve",
                "sokoban",
                "--levels",
                &f,
                "--agent",
                "wastar",
                "--param",
                "weight=-1",
            ],
            "expected a number from 0 to 1000",
        ),
        (
            vec!["solve", "sokoban", "--levels", &f, "--param", "memory_mb=0"],
            "expected a number of MiB from 1 to 1073741824",
        ),
    ] {
        let (code, _, err) = arena(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // A missing file names itself.
    let (code, _, err) = arena(&["solve", "sokoban", "--levels", "no/such.xsb"]);
    assert_ne!(code, 0);
    assert!(err.contains("no/such.xsb"), "{err}");
}

#[test]
fn bench_prints_the_count_times_and_failures() {
    let dir = tempfile::tempdir().unwrap();
    let f = three_file(&dir);
    let (code, out, err) = arena(&[
        "bench",
        "sokoban",
        "--levels",
        &f,
        "--time-limit",
        "10s",
        "-j",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 levels, 10s per level, 2 job(s)"), "{out}");
    assert!(out.contains("solved 2/3  total "), "{out}");
    assert!(out.contains("median "), "{out}");
    // Both solved by the bidirectional search within its first
    // expansions.
    assert!(out.contains("\nfound by: bidirectional 2\n"), "{out}");
    assert!(out.contains("\npeak memory: "), "{out}");
    assert!(
        out.contains("failures:\n  level 2 (cornered): unsolvable after"),
        "{out}"
    );
}
