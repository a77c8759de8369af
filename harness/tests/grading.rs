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
use harness::external::process::processes_with_marker;
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
    if let Err(e) = harness::external::sandbox::check_bwrap() {
        tools::skip(&format!("bubblewrap cannot sandbox here: {e}"));
        return false;
    }
    true
}

#[test]
fn a_mock_class_gets_its_expected_verdicts_and_points() {
    if !needs_tools() {
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("arena-grade-class")
        .tempdir()
        .unwrap();
    let root = tmp.path();
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
    assert!(fb.contains("arena check"), "{fb}");
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
    assert_eq!(again.status.code(), Some(0));
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

#[test]
fn a_class_round_robin_plays_students_against_each_other_too() {
    if !needs_tools() {
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
    for id in ["ann", "ben"] {
        std::fs::create_dir_all(root.join("class").join(id)).unwrap();
        std::fs::write(root.join("class").join(id).join("main.py"), &random).unwrap();
    }
    std::fs::write(
        root.join("rr.toml"),
        "game = \"connect4\"\nrepetitions = 1\n[time]\nact = \"200ms\"\nact_hard = \"1s\"\n\
         [[agents]]\nagent = \"random\"\n[grading]\nclass_round_robin = true\n\
         [[grading.criteria]]\nname = \"vs random\"\nopponent = \"random\"\npoints = 10\n\
         [[grading.criteria]]\nname = \"overall\"\npoints = 10\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["grade", "rr.toml", "--submissions", "class", "--out", "out"])
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut r = csv::Reader::from_path(root.join("out/games/class/episodes.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let (agent, opp) = (
        h.iter().position(|x| x == "agent").unwrap(),
        h.iter().position(|x| x == "opponent").unwrap(),
    );
    let pairs: std::collections::BTreeSet<(String, String)> = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[agent].to_string(), rec[opp].to_string())
        })
        .collect();
    // Each of the three meets the two others, in both seatings.
    for (a, b) in [("ann", "ben"), ("ann", "random"), ("ben", "random")] {
        assert!(pairs.contains(&(a.into(), b.into())), "{pairs:?}");
        assert!(pairs.contains(&(b.into(), a.into())), "{pairs:?}");
    }
    let g = grades(&root.join("out/grades.csv"));
    assert_eq!(g.len(), 2);
    assert!(g.values().all(|(v, _)| v == "ok"), "{g:?}");
}
