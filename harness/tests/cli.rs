//! The `arena` binary as a user meets it: exit codes, error lines, traces.

use std::path::Path;
use std::process::Command;

mod common;
use common::arena;

#[test]
fn trace_bait_prints_one_json_object_per_tick_and_stops_at_the_end() {
    let (code, out, err) = arena(&[
        "trace",
        "bait",
        "--level",
        "0",
        "--actions",
        "DOWN,RIGHT,DOWN,LEFT,DOWN,UP,UP,UP,LEFT,LEFT,LEFT",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // Initial state plus 9 actions; the two after the win are not played.
    assert_eq!(lines.len(), 10);
    // `avatar` is [row, column] since arena-jsonl/2 (this line had GVGAI's
    // x, y order, [2,1], before): the avatar's letter is in row 1, column 2.
    assert_eq!(
        lines[0],
        r#"{"tick":0,"avatar":[1,2],"has_key":false,"alive":true,"score":0.0,"over":false,"result":"none","grid":"wwwww/wgAww/ww..w/w.11w/wwk.w/wwwww"}"#
    );
    assert_eq!(
        lines[9],
        r#"{"tick":9,"avatar":[1,1],"has_key":true,"alive":true,"score":5.0,"over":true,"result":"win","grid":"wwwww/wB.ww/ww..w/w1..w/ww.1w/wwwww"}"#
    );
    // On every line the avatar is where the grid draws it (`A`, or `B` with the key).
    for line in &lines {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let grid: Vec<&str> = v["grid"].as_str().unwrap().split('/').collect();
        let (r, c) = (
            v["avatar"][0].as_u64().unwrap() as usize,
            v["avatar"][1].as_u64().unwrap() as usize,
        );
        let ch = grid[r].as_bytes()[c];
        assert!(ch == b'A' || ch == b'B', "{line}");
    }
}

#[test]
fn bad_action_and_bad_level_are_one_line_errors_with_exit_code_2() {
    let (code, _, err) = arena(&["trace", "bait", "--level", "0", "--actions", "UP,JUMP"]);
    assert_eq!(code, 2);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("item 2 `JUMP`"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let lvl = dir.path().join("bad.txt");
    std::fs::write(&lvl, "www\nwAq\nwgw\n").unwrap();
    let (code, _, err) = arena(&["trace", "bait", "--level", lvl.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.txt: line 2, column 3: unknown character 'q'"),
        "{err}"
    );
}

#[test]
fn bad_config_is_one_clear_line_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, "game = \"bait\"\n[[agents]]\nagent = \"rnadom\"\n").unwrap();
    let (code, _, err) = arena(&["run", cfg.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains(
            "agents[0]: unknown agent `rnadom` for bait; valid agents: random, onesteplookahead"
        ),
        "{err}"
    );

    std::fs::write(
        &cfg,
        "game = \"bait\"\n[time]\nact = \"fast\"\n[[agents]]\nagent = \"random\"\n",
    )
    .unwrap();
    let (code, _, err) = arena(&["run", cfg.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.toml:3:7") && err.contains("`fast` is not a duration"),
        "{err}"
    );

    let (code, _, err) = arena(&["run", "does-not-exist.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("does-not-exist.toml"), "{err}");
}

#[test]
fn unreadable_input_is_bad_input_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere.txt");
    let missing = missing.to_str().unwrap();
    // A config file that is not there.
    let (code, _, err) = arena(&["run", &format!("{missing}.toml")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nowhere.txt.toml"), "{err}");
    // A level file that is not there, on the command line and in a config.
    let (code, _, err) = arena(&["trace", "bait", "--level", missing]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nowhere.txt"), "{err}");
    let cfg = dir.path().join("lv.toml");
    std::fs::write(
        &cfg,
        format!("game = \"bait\"\nlevels = [{missing:?}]\n[[agents]]\nagent = \"random\"\n"),
    )
    .unwrap();
    let (code, _, err) = arena(&["run", cfg.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nowhere.txt"), "{err}");
    // An openings file that is not there.
    std::fs::write(
        &cfg,
        format!(
            "game = \"connect4\"\nopenings = \"{missing}\"\n[[agents]]\nagent = \"random\"\n\
             [[agents]]\nagent = \"greedy\"\n"
        ),
    )
    .unwrap();
    let (code, _, err) = arena(&["run", cfg.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nowhere.txt"), "{err}");
}

/// Run `arena args` with its stdout a pipe whose reading end is already
/// closed (as `arena ... | head -1` when `head` has gone): (exit code,
/// stderr).
fn arena_into_closed_pipe(args: &[&str]) -> (i32, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(writer)
        .output()
        .expect("arena runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_ends_quietly_with_exit_code_0() {
    let (code, err) = arena_into_closed_pipe(&["list"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, err) = arena_into_closed_pipe(&["list", "connect4"]);
    assert_eq!((code, err.as_str()), (0, ""));

    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tiny.toml");
    std::fs::write(
        &cfg,
        "game = \"bait\"\nlevels = [0]\nmax_steps = 10\n[[agents]]\nagent = \"random\"\n",
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, err) = arena_into_closed_pipe(&["summarize", out_dir.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn run_writes_tables_and_prints_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tiny.toml");
    std::fs::write(
        &cfg,
        "name = \"tiny\"\ngame = \"bait\"\nlevels = [0]\nrepetitions = 2\nmax_steps = 20\n[[agents]]\nagent = \"random\"\n",
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let (code, out, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("win rate (95% CI)"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("random") && l.contains(" all ")),
        "{out}"
    );
    let episodes = std::fs::read_to_string(out_dir.join("episodes.csv")).unwrap();
    assert_eq!(episodes.lines().count(), 3);
    assert!(episodes.starts_with("run,game,level,repetition,episode,seed,seat,agent,opponent,result,outcome,score,steps,total_ms,cpu_ms,mean_act_ms,max_act_ms,p99_act_ms,overruns"));
    let summary = std::fs::read_to_string(out_dir.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 3, "{summary}"); // header, level 0, all
                                                         // stderr is not a terminal here: progress is a line per tenth of the
                                                         // episodes (a log, a pipe, a Slurm job's output is never silent).
    for done in [
        "tiny (bait): 1/2 episodes played, ",
        "tiny (bait): 2/2 episodes played, ",
    ] {
        assert!(
            err.lines().any(|l| l.starts_with(done)),
            "{done:?} in {err}"
        );
    }
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        dir.path().join("quiet").to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("episodes played"), "--quiet: {err}");
}

#[test]
fn list_is_a_line_per_game_and_a_game_in_detail() {
    let (code, out, err) = arena(&["list"]);
    assert_eq!(code, 0, "{err}");
    let games: Vec<&str> = out.lines().take_while(|l| !l.is_empty()).collect();
    // Six games and the VGDL family, then a line per shipped VGDL game.
    assert_eq!(games.len(), 7, "{out}");
    // 110 single-player and 60 two-player GVGAI games.
    assert_eq!(out.lines().count(), 7 + 2 + 110 + 60 + 3, "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("  gvgai2p:")).count(),
        60
    );
    assert!(
        games[6].starts_with("gvgai:NAME, gvgai2p:NAME, vgdl:PATH: levels per game (below)"),
        "{out}"
    );
    let line = |game: &str| {
        *games
            .iter()
            .find(|l| l.starts_with(&format!("{game}: ")))
            .unwrap_or_else(|| panic!("no line for {game}: {out}"))
    };
    assert!(
        line("bait").contains("levels 0, 1, 2, 3, 4 ")
            && line("bait")
                .ends_with("agents random, onesteplookahead, dfs, dls, astar, bfs, mcts, uct"),
        "{out}"
    );
    assert!(
        line("sokoban").contains("levels microban:1 .. microban:155 (155 levels) "),
        "{out}"
    );
    assert!(out.contains("`arena list GAME` shows"), "{out}");
    // One game: what it is, every level, every agent with its parameters,
    // in lines of at most 100 columns.
    let (code, bait, err) = arena(&["list", "bait"]);
    assert_eq!(code, 0, "{err}");
    assert!(bait.starts_with("bait: GVGAI's Bait"), "{bait}");
    assert!(
        bait.contains("\n    3                GVGAI bait_lvl3.txt, 13x11\n"),
        "{bait}"
    );
    assert!(
        bait.contains("  param max_nodes: positions in the visited set"),
        "{bait}"
    );
    assert!(
        bait.contains("\n  actions: UP, DOWN, LEFT, RIGHT or NIL\n"),
        "{bait}"
    );
    let (_, sokoban, _) = arena(&["list", "sokoban"]);
    assert!(sokoban.contains("\n    microban:155 "), "{sokoban}");
    for game in harness::registry::names(|_| true) {
        let (code, text, err) = arena(&["list", game]);
        assert_eq!(code, 0, "{err}");
        for l in text.lines() {
            assert!(l.chars().count() <= 100, "{game}: {l}");
        }
    }
    let (code, _, err) = arena(&["list", "chess"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn bwrap_requested_but_unavailable_is_the_machines_error_not_an_uncontained_run() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("sandboxed.toml");
    std::fs::write(
        &cfg,
        "game = \"bait\"\nlevels = [0]\n[[agents]]\ncommand = [\"python3\", \"-c\", \"pass\"]\n\
         sandbox = \"bwrap\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", "-q"])
        .arg(&cfg)
        .arg("--out")
        .arg(dir.path().join("out"))
        .env("ARENA_BWRAP", "/nonexistent/bwrap")
        .output()
        .expect("arena runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("agents[0] (pass): the machine cannot run it in its sandbox"),
        "{err}"
    );
    assert!(
        err.contains("sandbox = \"bwrap\" needs bubblewrap"),
        "{err}"
    );
    assert!(!dir.path().join("out").join("episodes.csv").exists());
}

#[test]
fn help_texts_name_the_games_from_the_registry() {
    let (code, out, _) = arena(&["trace", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("The game: bait, snake, sokoban, supply, xiangqi, connect4"),
        "{out}"
    );
    let (_, out, _) = arena(&["perft", "--help"]);
    assert!(out.contains("The game: xiangqi\n"), "{out}");
    let (code, _, err) = arena(&["perft", "bait"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("`arena perft` does not support game `bait`; it supports: xiangqi"),
        "{err}"
    );
}

#[test]
fn flags_are_checked_as_strictly_as_the_config() {
    for (flag, value, want) in [
        ("--repetitions", "0", "--repetitions 0: expected 1 or more"),
        ("-j", "0", "--concurrency 0: expected 1 to 1024"),
        (
            "--name",
            "../../x",
            "--name \"../../x\": expected a plain folder name",
        ),
    ] {
        let (code, _, err) = arena(&["run", "../configs/demo.toml", flag, value, "-q"]);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(err.contains(want), "{flag} {value}: {err}");
    }
    // No arguments: the help, not a bare description.
    let (code, _, err) = arena(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("Usage: arena <COMMAND>"), "{err}");
    // Every subcommand's help has examples.
    for sub in [
        "run",
        "list",
        "trace",
        "solve",
        "generate",
        "verify",
        "perft",
        "bench",
        "summarize",
    ] {
        let (code, out, _) = arena(&[sub, "--help"]);
        assert_eq!(code, 0);
        assert!(out.contains("Example"), "{sub} --help: {out}");
    }
}

#[test]
fn a_bare_number_of_milliseconds_is_a_duration_whether_quoted_or_not() {
    let dir = tempfile::tempdir().unwrap();
    for act in ["40", "\"40\""] {
        let cfg = dir.path().join("d.toml");
        std::fs::write(
            &cfg,
            format!("game = \"bait\"\nlevels = [0]\nmax_steps = 2\n[time]\nact = {act}\n[[agents]]\nagent = \"random\"\n"),
        )
        .unwrap();
        let out = dir.path().join("o");
        let (code, _, err) = arena(&[
            "run",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--restart",
            "-q",
        ]);
        assert_eq!(code, 0, "act = {act}: {err}");
        let meta = std::fs::read_to_string(out.join("meta.json")).unwrap();
        assert!(meta.contains("\"act\": \"40ms\""), "act = {act}: {meta}");
    }
}

#[test]
fn an_agent_that_cannot_start_stops_the_run_before_it_plays() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("broken.toml");
    std::fs::write(
        &cfg,
        "game = \"bait\"\nlevels = [0]\nmax_steps = 3\n[[agents]]\nname = \"nope\"\n\
         command = [\"python3\", \"nope.py\"]\n[[agents]]\nagent = \"random\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let (code, _, err) = arena(&["run", cfg.to_str().unwrap(), "--out", o]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("agents[0] (nope) cannot start a game: crash"),
        "{err}"
    );
    assert!(err.contains("nope.py"), "the agent's stderr: {err}");
    assert!(!out.join("episodes.csv").exists(), "nothing was played");
    let (code, stdout, err) = arena(&["run", cfg.to_str().unwrap(), "--out", o, "--allow-broken"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("warning: nope failed every one of its 1 games"),
        "{stdout}"
    );
}

#[test]
fn an_agent_announcing_protocol_version_1_is_stopped_with_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    // A /1 agent that says so in its ready; the same agent naming /2 plays.
    let agent = "import json, sys\n\
                 version = sys.argv[1]\n\
                 for line in sys.stdin:\n\
                 \x20   m = json.loads(line)\n\
                 \x20   if m['type'] == 'start':\n\
                 \x20       print(json.dumps({'type': 'ready', 'protocol': version}), flush=True)\n\
                 \x20   elif m['type'] == 'act':\n\
                 \x20       print(json.dumps({'action': m['legal'][0]}), flush=True)\n\
                 \x20   else:\n\
                 \x20       break\n";
    std::fs::write(dir.path().join("agent.py"), agent).unwrap();
    for (version, code) in [("arena-jsonl/1", 2), ("arena-jsonl/2", 0)] {
        let cfg = dir.path().join("v.toml");
        std::fs::write(
            &cfg,
            format!(
                "game = \"bait\"\nlevels = [0]\nmax_steps = 3\n[[agents]]\nname = \"old\"\n\
                 command = [\"python3\", \"agent.py\", \"{version}\"]\n"
            ),
        )
        .unwrap();
        let out = dir.path().join(format!("out{code}"));
        let (got, _, err) = arena(&[
            "run",
            "-q",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(got, code, "{version}: {err}");
        if code == 2 {
            assert!(
                err.contains("agents[0] (old) cannot start a game: bad-output")
                    && err
                        .contains("the agent speaks \"arena-jsonl/1\", arena speaks arena-jsonl/2")
                    && err.contains("Bait's `avatar` is [row, column]"),
                "{err}"
            );
        }
    }
}

/// `harness/src/README.md` (the module map) names every module of the
/// crate (each `.rs` file but tests, and each folder with a `mod.rs`), and
/// every path it names exists.
#[test]
fn module_map_names_every_module_and_nothing_else() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let map = std::fs::read_to_string(src.join("README.md")).unwrap();
    let mut modules = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                if p.join("mod.rs").exists() {
                    modules.push(format!("{rel}/"));
                }
                stack.push(p);
            } else if name.ends_with(".rs")
                && name != "mod.rs"
                && name != "tests.rs"
                && !name.ends_with("_tests.rs")
                && !rel.contains("/tests/")
            {
                modules.push(rel);
            }
        }
    }
    let missing: Vec<_> = modules
        .iter()
        .filter(|m| !map.contains(&format!("`{m}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "not in harness/src/README.md: {missing:?}"
    );
    // Every `path.rs` or `folder/` the map names exists.
    for quoted in map.split('`').skip(1).step_by(2) {
        let is_path = quoted.ends_with(".rs") || (quoted.ends_with('/') && !quoted.contains(' '));
        if is_path && !quoted.starts_with("harness/") {
            assert!(
                src.join(quoted).exists(),
                "harness/src/README.md names `{quoted}`, which does not exist"
            );
        }
    }
}
