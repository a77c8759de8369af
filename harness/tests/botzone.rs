//! Botzone's bot protocol for Snake (`protocol = "botzone"`, both modes):
//! the example bots (agents/examples/botzone/) play full games and their
//! rebuilt state agrees with arena's round by round; misbehaving bots
//! (harness/tests/botzone/bot.py) get their expected outcomes; no process
//! is left behind.

use games::snake::Snake;
use harness::external::protocols::botzone::BotzoneBot;
use harness::external::supervise::process::processes_with_marker;
use harness::external::supervise::sandbox::check_bwrap;
use harness::external::{BotzoneMode, ExternalSpec, ProcessLimits, Protocol, Sandbox};
use harness::output::rows::EpisodeRow;
use harness::play::game::GlobalData;
use harness::play::outcome::Outcome;
use harness::play::player::{Contestant, Failure, Phase};
use harness::play::runner::{play_episode, ContestantFactory, Episode};
use harness::play::timing::{Clock, TimeLimits};
use harness::registry::ArenaGame;
use harness::run::{run_config, RunOutput};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The system Python when there is one: a version manager's `python3` shim
/// (pyenv) is a shell script that adds its own start-up to every turn of a
/// traditional bot.
fn python() -> &'static str {
    if Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
}

fn chmod(p: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A temp folder readable by a sandbox's unprivileged uid, with `files`
/// copied into `bots/`.
fn workspace(files: &[PathBuf]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    chmod(dir.path(), 0o755);
    let bots = dir.path().join("bots");
    std::fs::create_dir(&bots).unwrap();
    chmod(&bots, 0o755);
    for f in files {
        let to = bots.join(f.file_name().unwrap());
        std::fs::copy(f, &to).unwrap();
        chmod(&to, 0o755);
    }
    std::fs::write(
        dir.path().join("empty.json"),
        r#"{"width": 12, "height": 11, "obstacle": []}"#,
    )
    .unwrap();
    dir
}

fn run(dir: &Path, name: &str, text: &str) -> RunOutput {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    let cfg = harness::registry::load_config(&path).unwrap();
    run_config(
        &cfg,
        &dir.join("out").join(name),
        harness::run::ProgressMode::Silent,
    )
    .unwrap()
}

fn log(out: &RunOutput, row: &EpisodeRow) -> String {
    let p = out.dir.join("logs").join(format!(
        "ep{:04}-seat{}-{}.stderr.log",
        row.episode, row.seat, row.agent
    ));
    std::fs::read_to_string(&p).unwrap_or_default()
}

/// The JSON objects of the lines of `log` starting with `tag` (the first
/// value on the line: whatever follows it is not the trace's).
fn traces(log: &str, tag: &str) -> Vec<Value> {
    log.lines()
        .filter_map(|l| l.strip_prefix(tag))
        .map(|j| {
            serde_json::Deserializer::from_str(j.trim())
                .into_iter::<Value>()
                .next()
                .unwrap_or_else(|| panic!("no JSON after {tag:?} in {j:?}"))
                .unwrap_or_else(|e| panic!("bad trace {j:?}: {e}\n{log}"))
        })
        .collect()
}

fn no_process_left(marker: &str) {
    let until = Instant::now() + Duration::from_secs(3);
    let mut left = processes_with_marker(marker);
    while !left.is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
        left = processes_with_marker(marker);
    }
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

/// The bodies (head first) after each round of episode `ep`, replayed by arena.
fn replay(out: &RunOutput, ep: usize) -> Vec<[Vec<(usize, usize)>; 2]> {
    let moves = std::fs::read_to_string(out.dir.join("moves.jsonl")).unwrap();
    let line: Value = moves
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["episode"] == ep)
        .unwrap();
    let mut s = Snake::load_level("random", line["seed"].as_u64().unwrap()).unwrap();
    let mut states = vec![[s.body(0), s.body(1)]];
    for m in line["moves"].as_array().unwrap() {
        let (a, b) = m.as_str().unwrap().split_once('/').unwrap();
        s.play(a.parse().unwrap(), b.parse().unwrap());
        states.push([s.body(0), s.body(1)]);
    }
    states
}

fn bodies_of(trace: &Value) -> [Vec<(usize, usize)>; 2] {
    let body = |k: usize| -> Vec<(usize, usize)> {
        trace["bodies"][k]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c[0].as_u64().unwrap() as usize,
                    c[1].as_u64().unwrap() as usize,
                )
            })
            .collect()
    };
    [body(0), body(1)]
}

/// Check the example bot rows of `out` (label `trad` or `keep`) against
/// arena's replay; returns (episode, games counted by globaldata) for `trad`.
fn check_example_rows(out: &RunOutput) -> Vec<(usize, u64)> {
    let mut trad_games = Vec::new();
    for row in &out.rows {
        assert_eq!(row.outcome, "normal", "{row:?}");
        assert!(row.steps > 0, "{row:?}");
        if row.agent == "greedy" {
            continue;
        }
        let log = log(out, row);
        let tr = traces(&log, "arena-trace");
        // Asked every round, and the rebuilt state is arena's, round by round.
        let rounds: Vec<u64> = tr.iter().map(|t| t["round"].as_u64().unwrap()).collect();
        assert_eq!(
            rounds,
            (0..row.steps as u64).collect::<Vec<_>>(),
            "{row:?}\n{log}"
        );
        let states = replay(out, row.episode);
        for t in &tr {
            let r = t["round"].as_u64().unwrap() as usize;
            assert_eq!(t["me"], row.seat, "{row:?}");
            assert_eq!(bodies_of(t), states[r], "{row:?} round {r}\n{log}");
        }
        let pids: BTreeSet<u64> = tr.iter().map(|t| t["pid"].as_u64().unwrap()).collect();
        if row.agent == "trad" {
            // A fresh process per turn; data came back each turn (the bot
            // checks it), globaldata counts its games.
            assert_eq!(pids.len(), row.steps as usize, "{row:?}");
            trad_games.push((row.episode, tr[0]["games"].as_u64().unwrap()));
            assert!(log.contains("[arena] round 0 debug: "), "{log}");
        } else {
            // One process, unless an answer after the soft limit forced a restart.
            let restarts = log
                .matches("starts a fresh one with the full history")
                .count();
            assert_eq!(pids.len(), 1 + restarts, "{row:?}\n{log}");
        }
    }
    trad_games
}

#[test]
fn example_bots_play_full_games_in_both_modes_and_agree_with_arena() {
    let py = python();
    let examples = repo().join("agents/examples/botzone");
    let dir = workspace(&[
        examples.join("snake_bot.py"),
        examples.join("snake_bot_keep_running.py"),
    ]);
    let marker = format!("arena-botzone-examples-{}", std::process::id());
    // The keep-running bot runs under bubblewrap when it can run here.
    let bwrap = check_bwrap();
    if let Err(why) = &bwrap {
        println!("keep-running bot without bwrap: {why}");
    }
    let keep_sandbox = if bwrap.is_ok() { "bwrap" } else { "rlimit" };
    // 15 rounds: the snakes stop growing at round 10, so the replay of
    // tails leaving is checked too.
    let config = |repetitions: u32, agent: String| {
        format!(
            "game = \"snake\"\nlevels = [\"random\"]\nseed = 7\nconcurrency = 1\nmax_steps = 15\n\
             repetitions = {repetitions}\n[time]\nact = \"1s\"\nact_hard = \"3s\"\nclock = \"wall\"\n\
             [[agents]]\nagent = \"greedy\"\n[[agents]]\n{agent}protocol = \"botzone\"\nworkdir = \"bots\"\n"
        )
    };
    let trad = config(
        2,
        format!(
            "name = \"trad\"\ncommand = [\"{py}\", \"snake_bot.py\", \"--trace\", \"{marker}\"]\n\
             sandbox = \"rlimit\"\n"
        ),
    );
    let keep = config(
        1,
        format!(
            "name = \"keep\"\ncommand = [\"{py}\", \"snake_bot_keep_running.py\", \"--trace\", \"{marker}\"]\n\
             botzone_mode = \"keep-running\"\nsandbox = \"{keep_sandbox}\"\n"
        ),
    );
    let t0 = Instant::now();
    let (trad_out, keep_out) = std::thread::scope(|s| {
        let d = dir.path();
        let a = s.spawn(|| run(d, "trad", &trad));
        let b = s.spawn(|| run(d, "keep", &keep));
        (a.join().unwrap(), b.join().unwrap())
    });
    println!("example games played in {:?}", t0.elapsed());
    assert_eq!(trad_out.rows.len(), 8, "2 seatings x 2 repetitions");
    assert_eq!(keep_out.rows.len(), 4);
    let mut trad_games = check_example_rows(&trad_out);
    check_example_rows(&keep_out);
    trad_games.sort();
    let counts: Vec<u64> = trad_games.iter().map(|g| g.1).collect();
    assert_eq!(counts, [1, 2, 3, 4], "globaldata kept across games");
    no_process_left(&marker);
}

struct Case {
    mode: &'static str,
    botzone_mode: &'static str,
    outcome: &'static str,
    /// In the CSV detail column.
    detail: &'static str,
    /// In the bot's log.
    log: &'static str,
    steps: u32,
}

const fn c(
    mode: &'static str,
    botzone_mode: &'static str,
    outcome: &'static str,
    detail: &'static str,
    log: &'static str,
    steps: u32,
) -> Case {
    Case {
        mode,
        botzone_mode,
        outcome,
        detail,
        log,
        steps,
    }
}

fn cases() -> Vec<Case> {
    vec![
        c("walk", "traditional", "normal", "", "", 4),
        c("bare", "traditional", "normal", "", "", 4),
        c(
            "multiline",
            "traditional",
            "normal",
            "",
            "round 2 debug: multi",
            4,
        ),
        c(
            "data",
            "traditional",
            "normal",
            "",
            "round 3 debug: {\"games\":",
            4,
        ),
        c(
            "garbage",
            "traditional",
            "bad-output",
            "round 2: not JSON",
            "",
            2,
        ),
        c(
            "shape",
            "traditional",
            "bad-output",
            "round 2: expected {\"response\": {\"direction\": 0..3}}",
            "",
            2,
        ),
        c(
            "dir7",
            "traditional",
            "bad-output",
            "round 2: direction 7 is not 0 (up)",
            "",
            2,
        ),
        c(
            "crash",
            "traditional",
            "crash",
            "exited with status 3; stderr: deliberate crash",
            "deliberate crash",
            2,
        ),
        c(
            "silent",
            "traditional",
            "bad-output",
            "round 2: printed nothing",
            "",
            2,
        ),
        c(
            "nonzero",
            "traditional",
            "crash",
            "exited with status 1",
            "",
            2,
        ),
        c(
            "flood",
            "traditional",
            "output-limit",
            "an output line exceeded 1024 KiB",
            "",
            2,
        ),
        c(
            "bgchild",
            "traditional",
            "normal",
            "",
            "started a background child",
            4,
        ),
        c(
            "bgchild-setsid",
            "traditional",
            "normal",
            "",
            "survived the group kill and were killed",
            4,
        ),
        c("keep", "keep-running", "normal", "", "", 4),
        c(
            "keep",
            "traditional",
            "normal",
            "",
            "the bot asked to keep running, but botzone_mode = \"traditional\"",
            4,
        ),
        c(
            "keep-hang",
            "keep-running",
            "timeout",
            "round 2: act: no answer after",
            "",
            2,
        ),
        c("keep-exit", "keep-running", "normal", "", "", 4),
        c(
            "keep-slow",
            "keep-running",
            "normal",
            "",
            "was played instead; the kept process was stopped",
            4,
        ),
    ]
}

/// Play case `i` in one seating (alternating with `i`; `data` plays both,
/// one after the other) and return the problems found.
fn play_case(dir: &Path, marker: &str, i: usize, case: &Case) -> Vec<String> {
    let py = python();
    let time = match case.mode {
        "keep-slow" => "act = \"800ms\"\nact_hard = \"4s\"\n",
        "keep-hang" => "act = \"1s\"\nact_hard = \"1200ms\"\n",
        _ => "act = \"1s\"\nact_hard = \"3s\"\n",
    };
    let text = format!(
        "game = \"snake\"\nlevels = [\"empty.json\"]\nmax_steps = 4\n[time]\nclock = \"wall\"\n{time}\
         [[agents]]\nname = \"bot\"\ncommand = [\"{py}\", \"bot.py\", \"{}\", \"{marker}\"]\n\
         protocol = \"botzone\"\nbotzone_mode = \"{}\"\nworkdir = \"bots\"\n\
         [[agents]]\nagent = \"greedy\"\n",
        case.mode, case.botzone_mode
    );
    let path = dir.join(format!("case{i}.toml"));
    std::fs::write(&path, text).unwrap();
    let mut cfg = harness::registry::load_config(&path).unwrap();
    let logs = dir.join(format!("logs{i}"));
    cfg.log_dir = Some(logs.clone());
    let seatings: Vec<Vec<usize>> = if case.mode == "data" {
        vec![vec![0, 1], vec![1, 0]]
    } else if i.is_multiple_of(2) {
        vec![vec![0, 1]]
    } else {
        vec![vec![1, 0]]
    };
    let mut problems = Vec::new();
    let factory = ContestantFactory::new(&cfg);
    for (k, seats) in seatings.into_iter().enumerate() {
        let seat = seats.iter().position(|&a| a == 0).unwrap();
        let ep = Episode {
            index: k,
            level: cfg.levels[0].clone(),
            repetition: 0,
            seats,
            seed: 1,
            pair: None,
        };
        let rec = play_episode::<Snake>(&factory, &ep).unwrap();
        let me = &rec.seats[seat];
        let log = std::fs::read_to_string(logs.join(format!("ep{k:04}-seat{seat}-bot.stderr.log")))
            .unwrap_or_default();
        let mut p = Vec::new();
        if me.outcome.as_str() != case.outcome {
            p.push(format!(
                "outcome {} (expected {})",
                me.outcome.as_str(),
                case.outcome
            ));
        }
        if !me.detail.contains(case.detail) {
            p.push(format!("detail {:?} lacks {:?}", me.detail, case.detail));
        }
        if !log.contains(case.log) {
            p.push(format!("log lacks {:?}", case.log));
        }
        if rec.steps != case.steps {
            p.push(format!("{} steps (expected {})", rec.steps, case.steps));
        }
        let other = &rec.seats[1 - seat];
        if other.outcome.as_str() != "normal" {
            p.push(format!("the opponent ended {:?}", other.outcome));
        }
        let tr = traces(&log, "bot-trace");
        let pids: BTreeSet<u64> = tr.iter().map(|t| t["pid"].as_u64().unwrap()).collect();
        let walk = if seat == 0 { 1 } else { 3 };
        match (case.mode, case.botzone_mode) {
            ("walk" | "data", _) | ("keep", "traditional") if pids.len() != 4 => {
                p.push(format!("{} processes for 4 turns", pids.len()));
            }
            ("walk", _) => {
                // data comes back the next turn.
                for t in &tr {
                    let r = t["round"].as_u64().unwrap_or(0);
                    let want = if r == 0 {
                        Value::Null
                    } else {
                        Value::from(format!("r{}", r - 1))
                    };
                    if t["data"] != want {
                        p.push(format!("round {r}: data {} (expected {want})", t["data"]));
                    }
                }
            }
            ("keep", "keep-running") => {
                let requests = tr.iter().filter(|t| t["kind"] == "request").count();
                if pids.len() != 1 || requests != 3 {
                    p.push("not one process fed 3 requests".into());
                }
            }
            ("keep-exit", _) => {
                // Exited after answering round 2: round 3 is a fresh process
                // with the history, and the data of round 0, the last turn
                // that was not a kept one (data does not work in kept turns).
                let fresh = tr.iter().find(|t| t["round"] == 3);
                let ok = fresh.is_some_and(|t| t["kind"] == "full" && t["data"] == "r0");
                if !ok || pids.len() != 2 {
                    p.push("no fresh process with round 0's data at round 3".into());
                }
            }
            ("keep-slow", _) => {
                // The late answer was replaced by the fallback (the last
                // direction); the fresh process's history says so.
                let fresh = tr.iter().find(|t| t["round"] == 3 && t["kind"] == "full");
                let ok =
                    fresh.is_some_and(|t| t["played"] == serde_json::json!([walk, walk, walk]));
                if !ok || me.overruns < 1 {
                    p.push(format!(
                        "overruns {}, no fresh history at round 3",
                        me.overruns
                    ));
                }
            }
            _ => {}
        }
        if case.mode == "data" && k == 1 && !log.contains("debug: {\"games\":2}") {
            // Second game: globaldata counted the first.
            p.push("globaldata did not carry over".into());
        }
        if !p.is_empty() {
            problems.push(format!(
                "{} ({}) seat {seat}: {}\n  record: {me:?}\n  log: {log}",
                case.mode,
                case.botzone_mode,
                p.join("; ")
            ));
        }
    }
    problems
}

#[test]
fn misbehaving_botzone_bots_get_their_expected_outcomes() {
    let dir = workspace(&[Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/botzone/bot.py")]);
    let marker = format!("arena-botzone-zoo-{}", std::process::id());
    let t0 = Instant::now();
    let all = cases();
    // Two cases at a time.
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|lane| {
                let (all, dir, marker) = (&all, dir.path(), &marker);
                s.spawn(move || {
                    let mut f = Vec::new();
                    for (i, case) in all.iter().enumerate().filter(|(i, _)| i % 2 == lane) {
                        f.extend(play_case(dir, marker, i, case));
                    }
                    f
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    println!("{} cases in {:?}", all.len(), t0.elapsed());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    no_process_left(&marker);
}

/// In a simultaneous game the runner reads the seats one after the other; a
/// seat's act time is when it answered, not when the runner got to it.
#[test]
fn a_seat_is_not_charged_for_the_seat_read_before_it() {
    let py = python();
    let dir = workspace(&[Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/botzone/bot.py")]);
    std::fs::write(
        dir.path().join("bots/walker.py"),
        "import json, sys\nseat = 0\nfor line in sys.stdin:\n    m = json.loads(line)\n    \
         if m['type'] == 'start':\n        seat = m['seat']\n        print('{\"type\":\"ready\"}', flush=True)\n    \
         elif m['type'] == 'act':\n        print(json.dumps({'action': '1' if seat == 0 else '3'}), flush=True)\n    \
         else:\n        break\n",
    )
    .unwrap();
    let marker = format!("arena-botzone-seats-{}", std::process::id());
    let text = format!(
        "game = \"snake\"\nlevels = [\"empty.json\"]\nseed = 1\nmax_steps = 8\n\
         [time]\nact = \"5s\"\nact_hard = \"10s\"\ninit = \"5s\"\ninit_hard = \"10s\"\nclock = \"wall\"\n\
         [[agents]]\nname = \"slow\"\nagent = \"fixture-sleep\"\nparams = {{ ms = 400 }}\n\
         time = {{ act = \"300ms\" }}\n\
         [[agents]]\nagent = \"greedy\"\n\
         [[agents]]\nname = \"jsonl\"\ncommand = [\"{py}\", \"walker.py\", \"{marker}\"]\nworkdir = \"bots\"\n\
         [[agents]]\nname = \"botzone\"\ncommand = [\"{py}\", \"bot.py\", \"keep\", \"{marker}\"]\n\
         protocol = \"botzone\"\nbotzone_mode = \"keep-running\"\nworkdir = \"bots\"\n"
    );
    let path = dir.path().join("seats.toml");
    std::fs::write(&path, text).unwrap();
    let cfg = harness::registry::load_config(&path).unwrap();
    let factory = ContestantFactory::new(&cfg);
    let records: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..4)
            .map(|k| {
                let cfg = &cfg;
                let factory = &factory;
                s.spawn(move || {
                    let ep = Episode {
                        index: k,
                        level: cfg.levels[0].clone(),
                        repetition: 0,
                        seats: vec![0, k],
                        seed: 1,
                        pair: None,
                    };
                    play_episode::<Snake>(factory, &ep).unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for rec in &records {
        let slow = &rec.seats[0];
        let fast = &rec.seats[1];
        let name = &cfg.agents[fast.agent].label;
        assert_eq!(fast.outcome.as_str(), "normal", "{name}: {fast:?}");
        assert!(rec.steps >= 4, "{name}: {} steps", rec.steps);
        // The slow seat took 400 ms every round (an overrun each time)...
        assert!(slow.act_ms.iter().all(|&t| t >= 400.0), "{:?}", slow.act_ms);
        assert_eq!(slow.overruns as usize, slow.act_ms.len());
        // ...which is not charged to the seat read after it (before the fix
        // every one of its acts measured at least 400 ms; the first act of a
        // Python bot includes its start, hence the median).
        let mut sorted = fast.act_ms.clone();
        sorted.sort_by(f64::total_cmp);
        assert!(
            sorted[sorted.len() / 2] < 400.0,
            "{name}: {:?}",
            fast.act_ms
        );
        assert_eq!(fast.overruns, 0, "{name}: {:?}", fast.act_ms);
    }
    no_process_left(&marker);
}

/// A Botzone bot: the `sh` script `script` in `mode`, judged under the CPU
/// clock with a 200 ms hard limit per turn.
fn sh_bot(script: &str, mode: BotzoneMode) -> BotzoneBot {
    let spec = ExternalSpec {
        command: vec!["sh".into(), "-c".into(), script.into()],
        protocol: Protocol::Botzone { mode },
        workdir: std::env::temp_dir(),
        sandbox: Sandbox::None,
        limits: ProcessLimits::default(),
        env: Vec::new(),
        writable_workdir: false,
        mounts: Vec::new(),
    };
    let limits = TimeLimits {
        act: Duration::from_millis(100),
        act_hard: Duration::from_millis(200),
        clock: Clock::Cpu,
        ..TimeLimits::default()
    };
    BotzoneBot::new(&spec, mode, "sh", None, GlobalData::default(), limits).expect("a bot")
}

/// Play turns of `bot` on an empty board until one fails (at most
/// `turns`), each waited for until `deadline` after its request; the
/// failure and how long its turn took.
fn failing_turn(bot: &mut BotzoneBot, turns: usize, deadline: Duration) -> (Failure, Duration) {
    let mut s = Snake::new(10, 12, &[]).expect("an empty board");
    let start = Instant::now();
    bot.request(Phase::Init, &s, 0, start, Duration::from_secs(1));
    assert!(bot.wait(start + deadline).result.is_ok());
    for _ in 0..turns {
        bot.prepare();
        let start = Instant::now();
        bot.request(Phase::Act, &s, 0, start, Duration::from_millis(100));
        let r = bot.wait(start + deadline);
        let took = start.elapsed();
        match r.result {
            Ok(_) => s.play(1, 3),
            Err(f) => {
                bot.close();
                return (f, took);
            }
        }
    }
    panic!("no turn failed in {turns}");
}

/// Under the CPU clock a bot that computes without answering is stopped as
/// soon as its CPU time over the turn passes the hard limit, disqualified
/// as an answer past it would be; a fresh process's start-up counts, a kept
/// process's earlier turns do not. (Before, it was waited for until the
/// runner's deadline, ten times the hard limit, and timed out.)
#[test]
fn a_busy_botzone_bot_is_disqualified_once_its_cpu_passes_the_hard_limit() {
    let deadline = Duration::from_secs(3);
    let answer =
        r#"echo '{"response":{"direction":1}}'; echo '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<'"#;
    for (name, script, mode, turns) in [
        (
            "traditional",
            "while :; do :; done".to_string(),
            BotzoneMode::Traditional,
            1,
        ),
        // Answers its first turn, then hangs in its second, kept.
        (
            "kept",
            format!("read l; {answer}; read l; while :; do :; done"),
            BotzoneMode::KeepRunning,
            2,
        ),
    ] {
        let mut bot = sh_bot(&script, mode);
        let (f, took) = failing_turn(&mut bot, turns, deadline);
        assert_eq!(f.outcome, Outcome::Disqualified, "{name}: {f:?}");
        assert!(
            f.detail.contains("of CPU without answering") && f.detail.contains("200 ms"),
            "{name}: {f:?}"
        );
        assert!(
            f.detail
                .starts_with(&format!("round {}: act used", turns - 1)),
            "{name}: {f:?}"
        );
        // Well before the deadline (about the hard limit on an idle machine).
        assert!(took < deadline / 2, "{name}: stopped after {took:?}: {f:?}");
        assert_eq!(bot.processes_started(), 1, "{name}");
        assert_eq!(bot.leaked(), 0, "{name}");
    }
}

/// A bot that sleeps without answering costs no CPU: it is waited for until
/// the deadline when that comes before its silence limit (the hard limit
/// and a second)...
#[test]
fn a_sleeping_botzone_bot_is_waited_for_until_the_deadline() {
    let deadline = Duration::from_millis(600);
    let mut bot = sh_bot("sleep 5", BotzoneMode::Traditional);
    let (f, took) = failing_turn(&mut bot, 1, deadline);
    assert_eq!(f.outcome, Outcome::Timeout, "{f:?}");
    assert!(
        f.detail.starts_with("round 0: act: no answer after")
            && f.detail.contains("an answer is waited for at most 600 ms"),
        "{f:?}"
    );
    assert!(took >= deadline, "gave up after {took:?}: {f:?}");
    assert_eq!(bot.leaked(), 0);
}

/// ... and given up on at its silence limit when that comes first (the
/// runner's deadline under the CPU clock is ten times the hard limit),
/// kept or fresh.
#[test]
fn a_sleeping_botzone_bot_is_given_up_on_at_its_silence_limit() {
    let deadline = Duration::from_secs(2);
    let answer =
        r#"echo '{"response":{"direction":1}}'; echo '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<'"#;
    // Answers its first turn, then sleeps in its second, kept.
    let keep = format!("read l; {answer}; read l; sleep 5");
    for (script, mode, turns) in [
        ("sleep 5", BotzoneMode::Traditional, 1),
        (keep.as_str(), BotzoneMode::KeepRunning, 2),
    ] {
        let mut bot = sh_bot(script, mode);
        let (f, took) = failing_turn(&mut bot, turns, deadline);
        assert_eq!(f.outcome, Outcome::Timeout, "{mode:?}: {f:?}");
        assert!(
            f.detail.contains(
                "the limit is 200 ms of CPU time, and an agent that neither runs nor waits for \
                 a CPU is waited for at most 1.2 s; process group killed"
            ),
            "{mode:?}: {f:?}"
        );
        assert!(
            took >= Duration::from_millis(1200) && took < Duration::from_millis(1800),
            "{mode:?}: gave up after {took:?}: {f:?}"
        );
        assert_eq!(bot.leaked(), 0, "{mode:?}");
    }
}
