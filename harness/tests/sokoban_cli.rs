//! `arena trace/verify/generate/run` on Sokoban as a user meets them.

mod common;
use common::arena;

/// Microban 1 and the listed push-optimal solution (8 pushes, 33 moves).
const M1_SOLUTION: &str = "dlUrrrdLullddrUluRuulDrddrruLdlUU";

const TWO: &str = "\
; first
######
#@$ .#
######

; second
#######
#@ $ .#
#  $ .#
#######
";

#[test]
fn trace_prints_the_state_as_json_and_stops_at_the_win() {
    let (code, out, err) = arena(&[
        "trace",
        "sokoban",
        "--level",
        "microban:1",
        "--actions",
        "d,L",
    ]);
    // Trace takes either case (`L` here walks): `arena verify` checks cases.
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        r#####"{"tick":0,"width":6,"height":7,"grid":["####  ","# .#  ","#  ###","#*@  #","#  $ #","#  ###","####  "],"player":[3,2],"boxes":[[3,1],[4,3]],"goals":[[1,2],[3,1]],"pushes":0,"boxes_on_goals":1,"score":1.0,"over":false,"result":"none"}"#####
    );
    // A LURD string as one item; the game ends at the last push.
    let (code, out, err) = arena(&[
        "trace",
        "sokoban",
        "--level",
        "microban:1",
        "--actions",
        &format!("{M1_SOLUTION},r,r"),
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.len(),
        34,
        "initial state + 33 moves; the two after the win are not played"
    );
    let last: serde_json::Value = serde_json::from_str(lines[33]).unwrap();
    assert_eq!(last["result"], "win");
    assert_eq!(last["pushes"], 8);
    assert_eq!(last["boxes_on_goals"], 2);
    // An illegal move and a bad item are one-line errors with exit code 2.
    let (code, _, err) = arena(&[
        "trace",
        "sokoban",
        "--level",
        "microban:1",
        "--actions",
        "u,u,u",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("item 3 (`u`, move 3) is not legal"), "{err}");
    let (code, _, err) = arena(&[
        "trace",
        "sokoban",
        "--level",
        "microban:1",
        "--actions",
        "x",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("item 1 `x` is not a move"), "{err}");
}

#[test]
fn level_specs_files_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.xsb");
    std::fs::write(&file, TWO).unwrap();
    let f = file.to_str().unwrap();
    // FILE = its first level, FILE:N = level N from 0.
    for (spec, width) in [
        (f.to_string(), 6),
        (format!("{f}:0"), 6),
        (format!("{f}:1"), 7),
    ] {
        let (code, out, err) = arena(&["trace", "sokoban", "--level", &spec]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["width"], width, "{spec}");
    }
    let (code, _, err) = arena(&["trace", "sokoban", "--level", &format!("{f}:2")]);
    assert_eq!(code, 2);
    assert!(err.contains("has 2 level(s), numbered from 0"), "{err}");
    for spec in ["microban:0", "microban:156", "nowhere.xsb"] {
        let (code, _, err) = arena(&["trace", "sokoban", "--level", spec]);
        assert_eq!(code, 2, "{spec}");
        assert!(err.contains("microban:1 to microban:155"), "{err}");
    }
    // A malformed file: file, level, title, line and column.
    let bad = dir.path().join("bad.xsb");
    std::fs::write(
        &bad,
        "; ok\n#####\n#@$.#\n#####\n\n; broken\n#####\n#@$x#\n#####\n",
    )
    .unwrap();
    let (code, _, err) = arena(&[
        "trace",
        "sokoban",
        "--level",
        &format!("{}:1", bad.display()),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "bad.xsb: line 8, column 4: level index 1 (title `broken`): unknown character 'x'"
        ),
        "{err}"
    );
    let (code, _, err) = arena(&["list", "sokoban"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn verify_reads_plain_csv_and_sok_solutions_and_fails_with_code_4() {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join("two.xsb");
    std::fs::write(&levels, TWO).unwrap();
    let l = levels.to_str().unwrap();
    let sol = dir.path().join("sol.txt");
    let s = sol.to_str().unwrap();

    // Plain lines, both valid (run-length LURD allowed).
    std::fs::write(&sol, "; solutions\n2R\nrRRlldRR\n").unwrap();
    let (code, out, err) = arena(&["verify", "sokoban", "--levels", l, "--solutions", s]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("{l}:0 (first): valid, 2 moves, 2 pushes"));
    assert_eq!(
        lines[1],
        format!("{l}:1 (second): valid, 8 moves, 4 pushes")
    );
    assert!(
        lines[2].starts_with("2 levels: 2 valid, 0 invalid, 0 unsolved"),
        "{out}"
    );

    // A lower-case push is invalid: exit code 4, the reason on the line.
    std::fs::write(&sol, "rr\n-\n").unwrap();
    let (code, out, err) = arena(&["verify", "sokoban", "--levels", l, "--solutions", s]);
    assert_eq!(code, 4, "{err}");
    assert!(
        out.contains(
            "(first): invalid: move 1: `r` pushes a box: a push must be written in upper case"
        ),
        "{out}"
    );
    assert!(
        out.contains("(second): unsolved (no solution given)"),
        "{out}"
    );
    assert!(err.contains("1 invalid solution(s)"), "{err}");

    // CSV as written by `arena solve sokoban --out`: counts are checked.
    std::fs::write(
        &sol,
        "level,title,solved,moves,pushes,time_ms,expanded,solution\n\
         1,first,true,2,2,0.1,3,RR\n\
         2,second,true,9,4,0.2,10,rRRlldRR\n",
    )
    .unwrap();
    let (code, out, _) = arena(&["verify", "sokoban", "--levels", l, "--solutions", s]);
    assert_eq!(code, 4);
    assert!(out.contains("(first): valid, 2 moves, 2 pushes"), "{out}");
    assert!(
        out.contains("(second): invalid: the file says 9 moves, the replay counts 8"),
        "{out}"
    );
    assert!(out.contains("CSV solution column"), "{out}");
    // Unsolved rows are not failures; a title that does not match is.
    std::fs::write(
        &sol,
        "level,title,solved,moves,pushes,time_ms,expanded,solution\n\
         1,first,false,,,10000,99,\n\
         2,other,true,8,4,0.2,10,rRRlldRR\n",
    )
    .unwrap();
    let (code, out, _) = arena(&["verify", "sokoban", "--levels", l, "--solutions", s]);
    assert_eq!(code, 4);
    assert!(out.contains("(first): unsolved"), "{out}");
    assert!(out.contains("titled `other`"), "{out}");

    // Rows are matched by their `level` number (from 1): one row for level 2.
    std::fs::write(
        &sol,
        "level,title,solved,moves,pushes,time_ms,expanded,solution\n2,second,true,8,4,0.2,10,rRRlldRR\n",
    )
    .unwrap();
    let (code, out, _) = arena(&["verify", "sokoban", "--levels", l, "--solutions", s]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("(first): unsolved") && out.contains("(second): valid, 8 moves"),
        "{out}"
    );
    let (code, out, _) = arena(&[
        "verify",
        "sokoban",
        "--levels",
        &format!("{l}:1"),
        "--solutions",
        s,
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 levels: 1 valid"), "{out}");

    // SOK: Solution sections after the boards; the file can be its own solutions.
    let sok = dir.path().join("sok.xsb");
    std::fs::write(
        &sok,
        format!("{TWO}Solution: rRRlldRR\n").replace(
            "#####\n#@$ .#\n######\n",
            "#####\n#@$ .#\n######\nSolution (moves 2, pushes 2):\nRR\n",
        ),
    )
    .unwrap();
    let k = sok.to_str().unwrap();
    let (code, out, err) = arena(&["verify", "sokoban", "--levels", k, "--solutions", k]);
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(out.contains("2 valid, 0 invalid"), "{out}");

    // A SOK file whose boards are not the levels' is caught.
    let (code, out, _) = arena(&[
        "verify",
        "sokoban",
        "--levels",
        "microban:2",
        "--solutions",
        k,
    ]);
    assert_eq!(code, 4);
    assert!(out.contains("is not this level's board"), "{out}");

    // Microban against the shipped push-optimal table.
    let (code, out, err) = arena(&[
        "verify",
        "sokoban",
        "--levels",
        "microban",
        "--solutions",
        "../games/data/sokoban/microban.optimal-pushes.csv",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("microban:1 (1): valid, 33 moves, 8 pushes"),
        "{out}"
    );
    assert!(
        out.contains("155 levels: 151 valid, 0 invalid, 4 unsolved"),
        "{out}"
    );
}

#[test]
fn generate_is_deterministic_and_writes_levels_that_parse() {
    let args = [
        "generate", "sokoban", "--count", "6", "--seed", "11", "--size", "9x8", "--boxes", "3",
    ];
    let (code, a, err) = arena(&args);
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = arena(&args);
    assert_eq!(a, b, "same seed, same levels");
    let (_, c, _) = arena(&[
        "generate", "sokoban", "--count", "6", "--seed", "12", "--size", "9x8", "--boxes", "3",
    ]);
    assert_ne!(a, c);
    let levels = games::sokoban::parse_levels(&a).unwrap();
    assert_eq!(levels.len(), 6);
    for (k, l) in levels.iter().enumerate() {
        assert_eq!(l.title, (k + 1).to_string());
        assert!(l.width <= 9 && l.height <= 8);
        assert_eq!(l.num_boxes(), 3);
        assert!(games::sokoban::Sokoban::from_level(l).is_ok());
    }
    // --min-score: every level's difficulty line is at least the threshold.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.xsb");
    let (code, _, err) = arena(&[
        "generate",
        "sokoban",
        "--count",
        "5",
        "--seed",
        "3",
        "--min-score",
        "17",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let scores: Vec<f64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("; difficulty "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(scores.len(), 5);
    assert!(scores.iter().all(|&s| s >= 17.0), "{scores:?}");
    for (l, s) in games::sokoban::parse_levels(&text)
        .unwrap()
        .iter()
        .zip(&scores)
    {
        assert!((games::sokoban::difficulty(l).score - s).abs() < 1e-3);
    }
    // Bad options are exit code 2.
    for bad in [
        ["--size", "ten"],
        ["--size", "3x3"],
        ["--boxes", "0"],
        ["--min-score", "1e9"],
    ] {
        let (code, _, err) = arena(&["generate", "sokoban", "--count", "1", bad[0], bad[1]]);
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
}

#[test]
fn run_plays_sokoban_levels_like_bait_and_writes_lurd_moves() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("two.xsb"), TWO).unwrap();
    let cfg = dir.path().join("sokoban.toml");
    std::fs::write(
        &cfg,
        "name = \"sokoban-test\"\ngame = \"sokoban\"\nlevels = [\"microban:1\", \"two.xsb:1\"]\n\
         repetitions = 2\nseed = 5\nmax_steps = 40\n\n[[agents]]\nagent = \"random\"\n",
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
    let mut r = csv::Reader::from_path(out.join("episodes.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 4);
    for row in &rows {
        assert_eq!(&row[col("game")], "sokoban");
        assert_eq!(&row[col("outcome")], "normal");
        let steps: u32 = row[col("steps")].parse().unwrap();
        let score: f64 = row[col("score")].parse().unwrap();
        assert!(steps <= 40);
        assert!((0.0..=2.0).contains(&score));
        if &row[col("result")] == "loss" {
            assert_eq!(steps, 40, "an unsolved episode runs to max_steps");
        }
    }
    // moves.jsonl: every action is a LURD letter whose case says push or not.
    let moves = std::fs::read_to_string(out.join("moves.jsonl")).unwrap();
    let mut letters = 0;
    for line in moves.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(ms) = v.get("moves").and_then(|m| m.as_array()) {
            for m in ms {
                let m = m.as_str().unwrap();
                assert!(["l", "u", "r", "d", "L", "U", "R", "D"].contains(&m), "{m}");
                letters += 1;
            }
        }
    }
    assert!(letters >= 4 * 30, "{letters}");
}

#[test]
fn solutions_from_arena_solve_pass_the_independent_verify() {
    // The first 30 Microban levels (the solvers take milliseconds on them).
    let dir = tempfile::tempdir().unwrap();
    let all = games::sokoban::parse_levels(games::sokoban::MICROBAN).unwrap();
    let file = dir.path().join("m30.xsb");
    std::fs::write(&file, games::sokoban::print_levels(&all[..30])).unwrap();
    let f = file.to_str().unwrap();
    let csv = dir.path().join("solved.csv");
    let c = csv.to_str().unwrap();
    for agent in ["astar", "wastar", "biastar", "greedy"] {
        let (code, _, err) = arena(&[
            "solve",
            "sokoban",
            "--levels",
            f,
            "--agent",
            agent,
            "--time-limit",
            "10s",
            "--out",
            c,
        ]);
        assert_eq!(code, 0, "{agent}: {err}");
        // verify replays every solution with games::sokoban::replay and
        // checks the CSV's moves and pushes against its own counts.
        let (code, out, err) = arena(&["verify", "sokoban", "--levels", f, "--solutions", c]);
        assert_eq!(code, 0, "{agent}: {err}\n{out}");
        let summary = out.lines().last().unwrap();
        assert!(summary.starts_with("30 levels: "), "{summary}");
        assert!(summary.contains(" 0 invalid"), "{agent}: {summary}");
        assert!(!summary.contains(" 0 valid"), "{agent}: {summary}");
    }
}

#[test]
fn solver_agents_win_in_arena_run_and_their_moves_replay() {
    // The shipped config loads (levels resolve, agents build).
    let cfg =
        harness::registry::load_config(std::path::Path::new("../configs/sokoban-microban.toml"))
            .unwrap();
    assert_eq!(cfg.levels.len(), 23);
    // The same agents on three small levels, end to end.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solvers.toml");
    std::fs::write(
        &path,
        "name = \"solvers\"\ngame = \"sokoban\"\nlevels = [\"microban:1\", \"microban:2\", \"microban:4\"]\n\
         max_steps = 1000\n[time]\nact = \"40ms\"\nact_hard = \"50ms\"\ninit = \"10s\"\ninit_hard = \"12s\"\n\
         [[agents]]\nagent = \"astar\"\n[[agents]]\nagent = \"wastar\"\n[[agents]]\nagent = \"biastar\"\n\
         [[agents]]\nagent = \"bfs\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, _, err) = arena(&[
        "run",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let levels = games::sokoban::parse_levels(games::sokoban::MICROBAN).unwrap();
    let moves = std::fs::read_to_string(out.join("moves.jsonl")).unwrap();
    let mut episodes = 0;
    for line in moves.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(ms) = v.get("moves").and_then(|m| m.as_array()) else {
            continue;
        };
        let n: usize = v["level"]
            .as_str()
            .unwrap()
            .strip_prefix("microban:")
            .unwrap()
            .parse()
            .unwrap();
        // Waits (`-`) may appear if an act overran; they do not move.
        let lurd: String = ms
            .iter()
            .map(|m| m.as_str().unwrap())
            .filter(|m| *m != "-")
            .collect();
        let r = games::sokoban::replay(&levels[n - 1], &lurd).unwrap();
        assert!(r.solved, "{line}");
        episodes += 1;
    }
    assert_eq!(episodes, 12);
    let mut r = csv::Reader::from_path(out.join("episodes.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let res = h.iter().position(|c| c == "result").unwrap();
    for rec in r.records() {
        assert_eq!(&rec.unwrap()[res], "win");
    }
}
