//! `arena grade` over a mock class: correct Python, C++ and Java agents of
//! different strengths next to broken and hostile ones, graded with one
//! command under bwrap. Every submission must get its expected verdict and
//! points, the harness must exit 0, no process may be left behind, and no
//! submission may reach another's files or the network.
//!
//! The game is Sokoban on three one-move levels (a: push right, b: push up,
//! c: push left), so an agent's strength is exactly which levels it knows:
//! 10 points per level solved.

mod tools;
use harness::external::supervise::process::processes_with_marker;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

mod mock_class;
use mock_class::write_class;

fn grades(csv_path: &Path) -> BTreeMap<String, (String, f64)> {
    let mut r = csv::Reader::from_path(csv_path).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (id, verdict, total) = (col("id"), col("verdict"), col("total"));
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                rec[id].to_string(),
                (rec[verdict].to_string(), rec[total].parse::<f64>().unwrap()),
            )
        })
        .collect()
}

fn needs_tools() -> bool {
    for (tool, why) in [
        ("bwrap", "bubblewrap (grading's default sandbox)"),
        ("g++", "g++ (C++ submissions)"),
        ("javac", "javac (Java submissions, Debian's openjdk-17-jdk)"),
        ("python3", "python3 (Python submissions)"),
    ] {
        let found = std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()));
        if !found {
            tools::skip(&format!("{why} is not installed"));
            return false;
        }
    }
    if let Err(e) = harness::external::supervise::sandbox::check_bwrap() {
        tools::skip(&format!("bubblewrap cannot sandbox here: {e}"));
        return false;
    }
    true
}

/// The `arena` Python package the grader shows Python submissions
/// (`python/build.sh` installs it in target/python/site, beside the
/// `arena` binary's folder).
fn needs_python_package() -> bool {
    if harness::grade::pypkg::PythonPackage::find().is_none()
        && !Path::new(env!("CARGO_BIN_EXE_arena"))
            .parent()
            .and_then(|d| d.parent())
            .is_some_and(|t| t.join("python/site/arena/__init__.py").is_file())
    {
        tools::skip("the arena Python package is not built (python/build.sh)");
        return false;
    }
    true
}

#[test]
fn a_mock_class_gets_its_expected_verdicts_and_points() {
    if !needs_tools() || !needs_python_package() {
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("arena-grade-class")
        .tempdir()
        .unwrap();
    let root = tmp.path();
    // Private, as an instructor's home or `mktemp -d`: the sandbox's uid
    // cannot search it.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700)).unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let students = write_class(root, port);
    assert!(students.len() >= 30, "{} submissions", students.len());
    let out = root.join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "grade",
            "assignment.toml",
            "--submissions",
            "class",
            "--out",
            "out",
            "-j",
            "2",
        ])
        .arg("--gradescope")
        .current_dir(root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        run.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    println!("{stdout}");
    let got = grades(&out.join("grades.csv"));
    let mut wrong = Vec::new();
    for s in &students {
        match got.get(s.id) {
            Some((v, p)) if v == s.verdict && (p - s.points).abs() < 1e-9 => {}
            other => wrong.push(format!(
                "{}: expected {} {}, got {other:?}",
                s.id, s.verdict, s.points
            )),
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\n\ngrades.csv:\n{}",
        wrong.join("\n"),
        std::fs::read_to_string(out.join("grades.csv")).unwrap()
    );
    assert_eq!(got.len(), students.len());
    // Nothing of theirs survives the grading, not even the setsid orphan
    // with an emptied environment, nor the fork bomb's sleepers.
    let tag = root.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        processes_with_marker(&tag),
        Vec::<i32>::new(),
        "left running"
    );
    assert_eq!(
        processes_with_marker("987.654"),
        Vec::<i32>::new(),
        "orphan left"
    );
    // No submission reached the test's socket.
    assert!(
        listener.accept().is_err(),
        "a submission reached the network"
    );
    // The per-student outputs.
    let fb = std::fs::read_to_string(out.join("feedback/crash-mid.md")).unwrap();
    assert!(fb.contains("**Verdict: `crash`**"), "{fb}");
    assert!(fb.contains("exited with status 5"), "{fb}");
    assert!(
        fb.contains("arena check crash-mid/ --assignment assignment.toml"),
        "{fb}"
    );
    assert!(
        !fb.contains(&*root.to_string_lossy()),
        "no grader's path: {fb}"
    );
    let fb = std::fs::read_to_string(out.join("feedback/cpp-error.md")).unwrap();
    assert!(fb.contains("expected"), "the compiler's message: {fb}");
    let gs: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("gradescope/py-ab/results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(gs["score"], 20.0);
    assert_eq!(gs["tests"].as_array().unwrap().len(), 3);
    let summary = std::fs::read_to_string(out.join("class-summary.md")).unwrap();
    assert!(summary.contains("| build-failed | 2 |"), "{summary}");
    // The sleeper is given up on soon after its hard limit (1 s of CPU
    // time): silent for the hard limit plus a second, not ten times it.
    let rows = std::fs::read_to_string(out.join("games/sleeper/episodes.csv")).unwrap();
    let waited: f64 = rows
        .split("no answer after ")
        .nth(1)
        .and_then(|t| t.split(" s of wall time").next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no timeout detail in the sleeper's rows:\n{rows}"));
    assert!((2.0..4.0).contains(&waited), "waited {waited} s:\n{rows}");
    // The sibling reader printed whatever it could read: no output of the
    // grading holds py-abc's secret, but py-abc's own copy.
    let own = out.join("work/py-abc");
    let mut leaks = Vec::new();
    let mut stack = vec![out.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.starts_with(&own) {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read(&p)
                .unwrap()
                .windows(mock_class::SECRET.len())
                .any(|w| w == mock_class::SECRET.as_bytes())
            {
                leaks.push(p);
            }
        }
    }
    assert!(leaks.is_empty(), "the secret is in {leaks:?}");
    assert!(!stdout.contains(mock_class::SECRET));
    // A second run resumes: nothing is built or played again, same grades.
    let again = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "grade",
            "assignment.toml",
            "--submissions",
            "class",
            "--out",
            "out",
        ])
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(grades(&out.join("grades.csv")), got);

    // Anonymized: the shareable outputs name pseudonyms only.
    let anon = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["grade", "assignment.toml", "--submissions", "class"])
        .args([
            "--out",
            "anon",
            "--anonymize",
            "--only",
            "py-ab",
            "--only",
            "garbage",
        ])
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(anon.status.code(), Some(0));
    let map = std::fs::read_to_string(root.join("anon/pseudonyms.csv")).unwrap();
    let shared = std::fs::read_to_string(root.join("anon/grades-anonymized.csv")).unwrap();
    assert!(
        map.contains("py-ab,student-") && map.lines().count() == 3,
        "{map}"
    );
    assert!(
        !shared.contains("py-ab") && !shared.contains("garbage"),
        "{shared}"
    );
    for dir in std::fs::read_dir(root.join("anon/games")).unwrap() {
        let d = dir.unwrap().path();
        assert!(d
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("student-"));
        let episodes = std::fs::read_to_string(d.join("episodes.csv")).unwrap();
        assert!(!episodes.contains("py-ab") && !episodes.contains("garbage"));
    }

    // `arena check`, as a student would run it.
    let check = |id: &str| {
        Command::new(env!("CARGO_BIN_EXE_arena"))
            .args([
                "check",
                &format!("class/{id}"),
                "--assignment",
                "assignment.toml",
            ])
            .args(["--out", &format!("check-{id}")])
            .current_dir(root)
            .output()
            .unwrap()
    };
    let ok = check("py-abc");
    let text = String::from_utf8_lossy(&ok.stdout);
    assert_eq!(ok.status.code(), Some(0), "{text}");
    assert!(text.contains("total") && text.contains("30 / 30"), "{text}");
    let bad = check("hang");
    let text = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(4), "{text}");
    assert!(text.contains("verdict: disqualified"), "{text}");
    assert!(
        text.contains("[FAIL] answers within the time limits"),
        "{text}"
    );
    assert!(text.contains("advice:"), "{text}");
}

#[test]
fn a_class_graded_in_shards_gets_the_grades_of_one_run() {
    if !needs_tools() {
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("arena-grade-shards")
        .tempdir()
        .unwrap();
    let root = tmp.path();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    write_class(root, listener.local_addr().unwrap().port());
    let some = [
        "py-none",
        "py-a",
        "py-b",
        "py-ab",
        "py-abc",
        "garbage",
        "crash-start",
        "empty",
        "py-syntax",
    ];
    let grade = |out: &str, extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
        c.args([
            "grade",
            "assignment.toml",
            "--submissions",
            "class",
            "--out",
            out,
        ]);
        for id in some {
            c.args(["--only", id]);
        }
        let o = c.args(extra).current_dir(root).output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    grade("one", &[]);
    let mut seen = BTreeMap::new();
    for k in 0..3 {
        let text = grade("sh", &["--shard", &format!("{k}/3")]);
        assert!(
            text.contains(&format!("grades-shard-{k}-of-3.csv")),
            "{text}"
        );
        for (id, g) in grades(&root.join(format!("sh/grades-shard-{k}-of-3.csv"))) {
            assert!(seen.insert(id.clone(), g).is_none(), "{id} in two shards");
        }
    }
    assert!(!root.join("sh/grades.csv").exists());
    // The run without --shard replays nothing (every journal keeps its
    // games, timings included) and writes the class's table.
    let journals = || {
        let mut all = BTreeMap::new();
        for d in std::fs::read_dir(root.join("sh/games")).unwrap() {
            let d = d.unwrap().path();
            all.insert(
                d.clone(),
                std::fs::read_to_string(d.join("journal.jsonl")).unwrap(),
            );
        }
        all
    };
    let before = journals();
    assert_eq!(before.len(), 6, "the students who play");
    grade("sh", &[]);
    assert_eq!(journals(), before);
    let merged = grades(&root.join("sh/grades.csv"));
    assert_eq!(merged, seen);
    assert_eq!(merged, grades(&root.join("one/grades.csv")));
    assert_eq!(merged.len(), some.len());
}

/// A deterministic Connect Four agent: the legal column nearest the
/// centre (`lean` 0), or the leftmost (`lean` 1).
fn connect4_agent(lean: u8) -> String {
    format!(
        r#"import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        print(json.dumps({{"type": "ready"}}), flush=True)
    elif m["type"] == "act":
        legal = m["legal"]
        key = (lambda a: (abs(int(a) - 4), int(a))) if {lean} == 0 else (lambda a: int(a))
        print(json.dumps({{"action": min(legal, key=key)}}), flush=True)
    else:
        break
"#
    )
}

/// The rows of `csv` (a run's episodes.csv) whose `agent` is `label`, as
/// (episode, seed, seat, opponent, result, steps).
fn games_of(csv_path: &Path, label: &str) -> Vec<[String; 6]> {
    let mut r = csv::Reader::from_path(csv_path).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let cols = ["episode", "seed", "seat", "opponent", "result", "steps"].map(col);
    let agent = col("agent");
    let mut v: Vec<[String; 6]> = r
        .records()
        .map(|rec| rec.unwrap())
        .filter(|rec| &rec[agent] == label)
        .map(|rec| cols.map(|c| rec[c].to_string()))
        .collect();
    v.sort();
    v
}

/// One column of grades.csv per student.
fn column(csv_path: &Path, name: &str) -> BTreeMap<String, String> {
    let mut r = csv::Reader::from_path(csv_path).unwrap();
    let h = r.headers().unwrap().clone();
    let (id, c) = (
        h.iter().position(|x| x == "id").unwrap(),
        h.iter().position(|x| x == name).unwrap(),
    );
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[id].to_string(), rec[c].to_string())
        })
        .collect()
}

#[test]
fn a_students_grade_is_the_same_in_any_class_and_check_says_it() {
    if std::process::Command::new("python3")
        .arg("-c")
        .arg("pass")
        .status()
        .map_or(true, |s| !s.success())
    {
        tools::skip("python3 is not installed");
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("arena-grade-rr")
        .tempdir()
        .unwrap();
    let root = tmp.path();
    let random = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../agents/examples/python/random_agent.py"),
    )
    .unwrap();
    // Every agent is deterministic (random_agent.py seeds by its seat).
    let agent = |id: &str| match id {
        "det" => connect4_agent(0),
        "left" => connect4_agent(1),
        _ => random.clone(),
    };
    let classes: [&[&str]; 3] = [
        &["det"],
        &["det", "ann"],
        &["ann", "ben", "cat", "det", "eve", "left"],
    ];
    for (k, ids) in classes.iter().enumerate() {
        for id in *ids {
            let dir = root.join(format!("class{k}")).join(id);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("main.py"), agent(id)).unwrap();
        }
    }
    std::fs::write(
        root.join("rr.toml"),
        "name = \"rr\"\ngame = \"connect4\"\nrepetitions = 1\nseed = 2026\n\
         [time]\nact = \"500ms\"\nact_hard = \"2s\"\n\
         [[agents]]\nagent = \"random\"\n\
         [[agents]]\nname = \"uct-50\"\nagent = \"uct\"\nparams = { iterations = 50 }\n\
         [grading]\nsandbox = \"rlimit\"\nclass_round_robin = true\n\
         [[grading.criteria]]\nname = \"vs random\"\nopponent = \"random\"\npoints = 40\n\
         [[grading.criteria]]\nname = \"vs uct-50\"\nopponent = \"uct-50\"\npoints = 40\n\
         [[grading.criteria]]\nname = \"all opponents\"\npoints = 10\n\
         [[grading.criteria]]\nname = \"vs the class\"\nopponent = \"class\"\npoints = 10\n",
    )
    .unwrap();
    let arena = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(args)
            .current_dir(root)
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        );
        (o.status.code(), stdout, stderr)
    };
    let own = ["vs random", "vs uct-50", "all opponents"];
    let mut det_points = Vec::new();
    let mut det_games = Vec::new();
    for (k, ids) in classes.iter().enumerate() {
        let out = format!("out{k}");
        let (code, stdout, stderr) = arena(&[
            "grade",
            "rr.toml",
            "--submissions",
            &format!("class{k}"),
            "--out",
            &out,
        ]);
        assert_eq!(code, Some(0), "{stdout}\n{stderr}");
        // Progress counts games: 4 per student against the opponents, and
        // the class round robin's n (n - 1).
        let n = ids.len();
        let total = 4 * n + n * (n - 1);
        assert!(
            stderr.contains(&format!("{total}/{total} games played")),
            "{stderr}"
        );
        let grades_csv = root.join(&out).join("grades.csv");
        let points: Vec<String> = own
            .iter()
            .map(|c| column(&grades_csv, c)["det"].clone())
            .collect();
        det_points.push(points);
        det_games.push(games_of(
            &root.join(&out).join("games/det/episodes.csv"),
            "det",
        ));
        // The class's games count only for the class criterion.
        let class_games = column(&grades_csv, "games");
        for id in *ids {
            assert_eq!(class_games[*id], (4 + 2 * (n - 1)).to_string(), "{id}");
        }
        if n > 1 {
            let class = root.join(&out).join("class-games/episodes.csv");
            assert_eq!(games_of(&class, "det").len(), 2 * (n - 1));
        } else {
            assert!(!root.join(&out).join("class-games").exists());
            assert_eq!(column(&grades_csv, "vs the class")["det"], "0");
        }
        let fb = std::fs::read_to_string(root.join(&out).join("feedback/det.md")).unwrap();
        assert!(fb.contains("arena check det/ --assignment rr.toml"), "{fb}");
        assert!(!fb.contains(&*root.to_string_lossy()), "{fb}");
    }
    // The same games, seeds and points whoever else is in the class.
    assert_eq!(det_games[0], det_games[1]);
    assert_eq!(det_games[0], det_games[2]);
    assert_eq!(det_points[0], det_points[1]);
    assert_eq!(det_points[0], det_points[2]);
    // `arena check` plays those same games and prints the grader's points,
    // for every student of the class of six.
    let graded = root.join("out2/grades.csv");
    let checks: Vec<_> = std::thread::scope(|s| {
        let runs: Vec<_> = classes[2]
            .iter()
            .map(|id| {
                s.spawn(move || {
                    arena(&[
                        "check",
                        &format!("class2/{id}"),
                        "--assignment",
                        "rr.toml",
                        "--out",
                        &format!("check-{id}"),
                    ])
                })
            })
            .collect();
        runs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (id, (code, stdout, stderr)) in classes[2].iter().zip(checks) {
        let out = format!("check-{id}");
        assert_eq!(code, Some(0), "{stdout}\n{stderr}");
        assert!(stderr.contains("4/4 games played"), "{stderr}");
        assert_eq!(
            games_of(
                &root.join(&out).join(format!("games/{id}/episodes.csv")),
                id
            ),
            games_of(&root.join(format!("out2/games/{id}/episodes.csv")), id),
            "{id}"
        );
        let mut sum = 0.0;
        for c in own {
            let want = &column(&graded, c)[*id];
            let line = stdout
                .lines()
                .find(|l| l.trim_start().starts_with(c))
                .unwrap_or_else(|| panic!("no line for {c}:\n{stdout}"));
            assert!(
                line.contains(&format!(" {want} / ")),
                "{id}: {c}: grade gave {want}, check printed {line:?}"
            );
            sum += want.parse::<f64>().unwrap();
        }
        let total = stdout
            .lines()
            .find(|l| l.trim_start().starts_with("total"))
            .unwrap();
        assert!(
            total.contains(&format!(" {sum} / 90")),
            "{id}: {total:?}\n{stdout}"
        );
        assert!(
            stdout.contains("vs the class") && stdout.contains("not checked: \"vs the class\""),
            "{stdout}"
        );
    }
}

/// A sandbox that cannot start is the machine's fault: `arena grade` and
/// `arena check` stop before any submission is built, with exit code 3 and
/// the cause, and write no grades.
#[test]
fn a_broken_sandbox_stops_the_grading_with_the_machines_error() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::write(
        root.join("assignment.toml"),
        "name = \"lab\"\ngame = \"bait\"\nlevels = [0]\n[grading]\nlanguages = [\"python\"]\n\
         [[grading.criteria]]\nname = \"won\"\npoints = 10\n",
    )
    .unwrap();
    for id in ["s1", "s2"] {
        let dir = root.join("class").join(id);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("main.py"), "print('hello')\n").unwrap();
    }
    // A bubblewrap that refuses, as on a host without user namespaces.
    let fake = root.join("bwrap");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let arena = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(args)
            .env("ARENA_BWRAP", &fake)
            .current_dir(root)
            .output()
            .unwrap()
    };
    let graded = arena(&[
        "grade",
        "assignment.toml",
        "--submissions",
        "class",
        "--out",
        "out",
    ]);
    let err = String::from_utf8_lossy(&graded.stderr);
    assert_eq!(graded.status.code(), Some(3), "{err}");
    assert!(err.contains("the machine cannot grade this class"), "{err}");
    assert!(
        err.contains("No permissions to creating new namespace"),
        "{err}"
    );
    assert!(err.contains("no grade was written"), "{err}");
    assert!(!root.join("out/grades.csv").exists());
    assert!(!root.join("out/feedback").exists());
    assert!(
        !root.join("out/builds/s1.log").exists(),
        "a submission was built"
    );
    let checked = arena(&["check", "class/s1", "--assignment", "assignment.toml"]);
    let err = String::from_utf8_lossy(&checked.stderr);
    assert_eq!(checked.status.code(), Some(3), "{err}");
    assert!(err.contains("the machine cannot grade this class"), "{err}");
}
