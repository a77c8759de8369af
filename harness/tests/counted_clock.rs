//! The counted clock (`clock = "counted"`, or `arena run --clock counted`):
//! a built-in agent's timer counts its looks, so two runs of the same seed
//! play the same episodes, verdicts included, whatever the machine's load.

mod common;

use common::arena;
use std::path::Path;

/// The columns of `episodes.csv` that read a real clock, or name the
/// machine, even under the counted clock.
const MACHINE_COLUMNS: &[&str] = &["cpu_ms", "host", "cpu_model"];

/// `episodes.csv` in `dir`: its header, and its rows without
/// [`MACHINE_COLUMNS`], sorted (episodes finish in any order).
fn rows(dir: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(dir.join("episodes.csv")).expect("episodes.csv");
    let header: Vec<String> = r
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_string)
        .collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !MACHINE_COLUMNS.contains(&header[i].as_str()))
        .collect();
    let mut out: Vec<Vec<String>> = r
        .records()
        .map(|rec| {
            let rec = rec.expect("a row");
            keep.iter()
                .map(|&i| rec.get(i).unwrap_or("").to_string())
                .collect()
        })
        .collect();
    out.sort();
    (keep.iter().map(|&i| header[i].clone()).collect(), out)
}

/// The value of `column` in `row`.
fn cell<'a>(header: &[String], row: &'a [String], column: &str) -> &'a str {
    let i = header.iter().position(|h| h == column).expect(column);
    &row[i]
}

/// Run `config` (written into `dir`) with `flags`, twice, into `a` and `b`;
/// both runs must succeed.
fn run_twice(dir: &Path, config: &str, flags: &[&str]) -> (Vec<String>, Vec<Vec<String>>) {
    let cfg = dir.join("cfg.toml");
    std::fs::write(&cfg, config).unwrap();
    let mut seen = Vec::new();
    for name in ["a", "b"] {
        let out = dir.join(name);
        let mut args = vec![
            "run",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ];
        args.extend_from_slice(flags);
        let (code, stdout, stderr) = arena(&args);
        assert_eq!(code, 0, "arena run {name}: {stdout}{stderr}");
        seen.push(rows(&out));
    }
    let b = seen.pop().unwrap();
    let a = seen.pop().unwrap();
    assert_eq!(a.0, b.0, "the same columns");
    assert_eq!(a.1, b.1, "the same episodes, counted times included");
    a
}

#[test]
fn search_agents_play_the_same_episodes_twice_under_the_counted_clock() {
    let dir = tempfile::tempdir().unwrap();
    // The config says cpu; the flag makes it counted (no second file).
    let (header, rows) = run_twice(
        dir.path(),
        "game = \"bait\"\nlevels = [1, 2]\nrepetitions = 2\nseed = 5\nmax_steps = 25\n\
         [time]\nact = \"4ms\"\nact_hard = \"6ms\"\nclock = \"cpu\"\n\
         [[agents]]\nagent = \"mcts\"\n[[agents]]\nagent = \"dls\"\n",
        &["--clock", "counted", "--counted-step", "10us"],
    );
    assert_eq!(rows.len(), 2 * 2 * 2, "{rows:?}");
    for r in &rows {
        assert_eq!(cell(&header, r, "outcome"), "normal", "{r:?}");
        assert_eq!(cell(&header, r, "starved"), "0", "{r:?}");
        // The search used its budget: its counted time is many looks.
        let mean: f64 = cell(&header, r, "mean_act_ms").parse().unwrap();
        if cell(&header, r, "agent") == "mcts" {
            assert!(mean > 1.0, "mcts looked at its timer: {r:?}");
        }
    }
}

#[test]
fn an_agent_that_looks_past_its_budget_gets_the_same_verdict_in_both_runs() {
    let dir = tempfile::tempdir().unwrap();
    // 40 ms soft, 50 ms hard; 20 us per look. `fixture-busy` looks until
    // its timer shows `ms`: 40 is within, 45 an overrun each act, 55 past
    // the hard limit.
    let (header, rows) = run_twice(
        dir.path(),
        "game = \"bait\"\nlevels = [1]\nrepetitions = 2\nmax_steps = 8\n\
         [time]\nact = \"40ms\"\nact_hard = \"50ms\"\nclock = \"counted\"\ncounted_step = \"20us\"\n\
         [[agents]]\nagent = \"fixture-busy\"\nname = \"at40\"\nparams = { ms = 40 }\n\
         [[agents]]\nagent = \"fixture-busy\"\nname = \"at45\"\nparams = { ms = 45 }\n\
         [[agents]]\nagent = \"fixture-busy\"\nname = \"at55\"\nparams = { ms = 55 }\n",
        &[],
    );
    assert_eq!(rows.len(), 3 * 2);
    for r in &rows {
        let (agent, outcome) = (cell(&header, r, "agent"), cell(&header, r, "outcome"));
        let (overruns, steps) = (cell(&header, r, "overruns"), cell(&header, r, "steps"));
        match agent {
            "at40" => assert_eq!((outcome, overruns), ("normal", "0"), "{r:?}"),
            "at45" => {
                // Every act an overrun.
                assert_eq!((outcome, overruns), ("normal", steps), "{r:?}");
                assert_eq!(cell(&header, r, "max_act_ms"), "45.0", "{r:?}");
            }
            "at55" => {
                assert_eq!(outcome, "disqualified", "{r:?}");
                assert!(
                    cell(&header, r, "detail")
                        .contains("act took 55.0 ms (counted), past the hard limit of 50.0 ms"),
                    "{r:?}"
                );
            }
            other => panic!("unexpected agent {other}"),
        }
    }
}

#[test]
fn a_counted_agent_that_never_returns_is_disqualified_on_the_wall_clock() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("cfg.toml");
    std::fs::write(
        &cfg,
        "game = \"bait\"\nlevels = [1]\nrepetitions = 1\nmax_steps = 5\n\
         [time]\nact = \"40ms\"\nact_hard = \"50ms\"\nclock = \"counted\"\n\
         [[agents]]\nagent = \"fixture-hang\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, stdout, stderr) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (header, rows) = rows(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(cell(&header, &rows[0], "outcome"), "disqualified");
    let detail = cell(&header, &rows[0], "detail");
    assert!(
        detail.contains("the limit is 50 ms of counted time")
            && detail.contains("waited for at most 5.0 s of wall time"),
        "{detail}"
    );
}

#[test]
fn external_agents_cannot_be_counted() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("cfg.toml");
    let config = |clock: &str| {
        format!(
            "game = \"bait\"\nlevels = [1]\n[time]\nclock = \"{clock}\"\n\
             [[agents]]\nagent = \"random\"\n\
             [[agents]]\nname = \"mine\"\ncommand = [\"python3\", \"bot.py\"]\n"
        )
    };
    // In the config: refused at load, where the clock is set.
    std::fs::write(&cfg, config("counted")).unwrap();
    let out = dir.path().join("out");
    let (code, _, stderr) = arena(&["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("cfg.toml:4:"),
        "located at time.clock: {stderr}"
    );
    assert!(
        stderr.contains("agents[1] (mine) is an external agent"),
        "{stderr}"
    );
    // On the command line: refused before anything starts.
    std::fs::write(&cfg, config("cpu")).unwrap();
    let (code, _, stderr) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--clock",
        "counted",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--clock counted: agents[1] (mine) is an external agent"),
        "{stderr}"
    );
    assert!(!out.join("episodes.csv").exists());
}

#[test]
fn another_clock_or_step_on_the_command_line_is_another_run() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("cfg.toml");
    std::fs::write(
        &cfg,
        "game = \"bait\"\nlevels = [1]\nrepetitions = 1\nmax_steps = 5\n\
         [[agents]]\nagent = \"random\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = |flags: &[&str]| {
        let mut args = vec![
            "run",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ];
        args.extend_from_slice(flags);
        arena(&args)
    };
    let (code, _, stderr) = run(&["--clock", "counted"]);
    assert_eq!(code, 0, "{stderr}");
    // The same flags: the same run (nothing left to play).
    let (code, _, stderr) = run(&["--clock", "counted", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    for flags in [
        &[][..],
        &["--clock", "cpu"][..],
        &["--clock", "counted", "--counted-step", "7us"][..],
    ] {
        let (code, _, stderr) = run(flags);
        assert_ne!(code, 0, "{flags:?}: {stderr}");
        assert!(stderr.contains("different config"), "{flags:?}: {stderr}");
    }
    // A step without the counted clock is a mistake, said so.
    let (code, _, stderr) = run(&["--counted-step", "7us"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--counted-step"), "{stderr}");
}
