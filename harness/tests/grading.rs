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

const ASSIGNMENT: &str = r#"
name = "mock-class"
game = "sokoban"
levels = ["levels/a.xsb", "levels/b.xsb", "levels/c.xsb"]
max_steps = 8
seed = 3
[time]
act = "300ms"
act_hard = "1s"
init = "3s"
init_hard = "10s"

[grading]
languages = ["python", "cpp", "java"]
memory_mb = 1024
max_processes = 48

[[grading.criteria]]
name = "a"
level = "levels/a.xsb"
points = 10
[[grading.criteria]]
name = "b"
level = "levels/b.xsb"
points = 10
[[grading.criteria]]
name = "c"
level = "levels/c.xsb"
points = 10

[grading.grades]
A = 90
B = 60
C = 30
"#;

/// A Python agent: `known` levels are solved; `prelude` runs first;
/// `on_act` runs before each answer (with `lvl` the level's letter).
fn python(known: &str, prelude: &str, on_act: &str) -> String {
    format!(
        r#"import sys, json, os, time
PLANS = {{"a": "r", "b": "u", "c": "l"}}
KNOWN = "{known}"
{prelude}
plan = ""
lvl = ""
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        lvl = m["level"][-5]
        plan = PLANS[lvl] if lvl in KNOWN else ""
        print(json.dumps({{"type": "ready"}}), flush=True)
    elif m["type"] == "act":
{on_act}
        a = plan[0] if plan else "-"
        plan = plan[1:]
        print(json.dumps({{"action": a}}), flush=True)
    else:
        break
"#,
        on_act = if on_act.is_empty() {
            "        pass".to_string()
        } else {
            on_act
                .lines()
                .map(|l| format!("        {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        }
    )
}

fn cpp(known: &str) -> String {
    format!(
        r#"#include <iostream>
#include <string>
int main() {{
    const std::string known = "{known}";
    std::string line, plan;
    while (std::getline(std::cin, line)) {{
        if (line.find("\"type\":\"start\"") != std::string::npos) {{
            plan.clear();
            for (char l : known) {{
                std::string f = std::string(1, l) + ".xsb\"";
                if (line.find(f) != std::string::npos) plan = (l == 'a') ? "r" : (l == 'b') ? "u" : "l";
            }}
            std::cout << "{{\"type\":\"ready\"}}" << std::endl;
        }} else if (line.find("\"type\":\"act\"") != std::string::npos) {{
            std::string a = plan.empty() ? "-" : plan.substr(0, 1);
            if (!plan.empty()) plan.erase(0, 1);
            std::cout << "{{\"action\":\"" << a << "\"}}" << std::endl;
        }} else break;
    }}
}}
"#
    )
}

fn java(known: &str) -> String {
    format!(
        r#"import java.io.*;
public class Main {{
    public static void main(String[] args) throws IOException {{
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String known = "{known}";
        String plan = "";
        String line;
        while ((line = in.readLine()) != null) {{
            if (line.contains("\"type\":\"start\"")) {{
                plan = "";
                for (char l : known.toCharArray()) {{
                    if (line.contains(l + ".xsb\"")) plan = l == 'a' ? "r" : l == 'b' ? "u" : "l";
                }}
                System.out.println("{{\"type\":\"ready\"}}");
            }} else if (line.contains("\"type\":\"act\"")) {{
                String a = plan.isEmpty() ? "-" : plan.substring(0, 1);
                if (!plan.isEmpty()) plan = plan.substring(1);
                System.out.println("{{\"action\":\"" + a + "\"}}");
            }} else break;
            System.out.flush();
        }}
    }}
}}
"#
    )
}

struct Student {
    id: &'static str,
    files: Vec<(&'static str, String)>,
    verdict: &'static str,
    points: f64,
}

fn st(
    id: &'static str,
    files: Vec<(&'static str, String)>,
    verdict: &'static str,
    points: f64,
) -> Student {
    Student {
        id,
        files,
        verdict,
        points,
    }
}

fn class(class_dir: &Path, port: u16) -> Vec<Student> {
    let py = |k: &str| vec![("main.py", python(k, "", ""))];
    let mut v = vec![
        st("py-none", py(""), "ok", 0.0),
        st("py-a", py("a"), "ok", 10.0),
        st("py-b", py("b"), "ok", 10.0),
        st("py-c", py("c"), "ok", 10.0),
        st("py-ab", py("ab"), "ok", 20.0),
        st("py-ac", py("ac"), "ok", 20.0),
        st("py-bc", py("bc"), "ok", 20.0),
        st("py-abc", py("abc"), "ok", 30.0),
        st("cpp-abc", vec![("main.cpp", cpp("abc"))], "ok", 30.0),
        st("cpp-a", vec![("main.cpp", cpp("a"))], "ok", 10.0),
        st("cpp-bc", vec![("agent.cpp", cpp("bc"))], "ok", 20.0),
        st("java-abc", vec![("Main.java", java("abc"))], "ok", 30.0),
        st("java-c", vec![("Main.java", java("c"))], "ok", 10.0),
        st(
            "toml-entry",
            vec![
                ("agent.py", python("ab", "", "")),
                ("submission.toml", "language = \"python\"\nentry = \"agent.py\"\n".into()),
            ],
            "ok",
            20.0,
        ),
        // Broken.
        st("py-syntax", vec![("main.py", "def main(:\n    pass\n".into())], "build-failed", 0.0),
        st("cpp-error", vec![("main.cpp", "int main( {\n".into())], "build-failed", 0.0),
        st("empty", vec![], "no-entry", 0.0),
        st("rust", vec![("Cargo.toml", "[package]\nname = \"a\"\n".into())], "language-not-allowed", 0.0),
        st("crash-start", vec![("main.py", "import sys\nsys.exit(3)\n".into())], "crash", 0.0),
        st(
            "crash-mid",
            vec![("main.py", python("abc", "", "if lvl == 'b':\n    sys.exit(5)"))],
            "crash",
            20.0,
        ),
        st(
            "hang",
            vec![("main.py", python("abc", "", "while lvl == 'b':\n    pass"))],
            "timeout",
            20.0,
        ),
        st(
            "garbage",
            vec![("main.py", python("abc", "", "print('hello world', flush=True)"))],
            "bad-output",
            0.0,
        ),
        st(
            "illegal",
            // "l" is illegal on a and b (a wall), and solves c.
            vec![("main.py", python("abc", "", "plan = 'l'"))],
            "illegal-move",
            10.0,
        ),
        st(
            "huge-output",
            vec![("main.py", python("abc", "", "sys.stdout.write('x' * (8 << 20))\nsys.stdout.flush()"))],
            "output-limit",
            0.0,
        ),
        st(
            "memory-hog",
            vec![("main.py", python("abc", "", "hog = bytearray(3 << 30)"))],
            "memory-limit",
            0.0,
        ),
        // Hostile, but the harness contains them: they play correctly.
        st(
            "fork-bomb",
            vec![(
                "main.py",
                python(
                    "abc",
                    "sys.stdout.flush()\nif os.fork() == 0:\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            time.sleep(1000)",
                    "",
                ),
            )],
            "ok",
            30.0,
        ),
        st(
            "network",
            vec![(
                "main.py",
                python(
                    "abc",
                    &format!(
                        "import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n    KNOWN = ''\nexcept OSError:\n    pass"
                    ),
                    "",
                ),
            )],
            "ok",
            30.0,
        ),
        st(
            "sibling-reader",
            vec![(
                "main.py",
                python(
                    "abc",
                    &format!(
                        "for p in ['{}/py-abc/main.py', '../py-abc/main.py', '../../work/py-abc/main.py']:\n    try:\n        open(p).read()\n        KNOWN = ''\n    except OSError:\n        pass",
                        class_dir.display()
                    ),
                    "",
                ),
            )],
            "ok",
            30.0,
        ),
        st(
            "orphan",
            vec![(
                "main.py",
                python(
                    "abc",
                    "sys.stdout.flush()\npid = os.fork()\nif pid == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.execve('/bin/sleep', ['sleep', '987.654'], {})\n    os._exit(0)\nos.waitpid(pid, 0)",
                    "",
                ),
            )],
            "ok",
            30.0,
        ),
        st(
            "stderr-flood",
            vec![("main.py", python("abc", "sys.stderr.write('e' * (4 << 20))", ""))],
            "ok",
            30.0,
        ),
    ];
    v.sort_by_key(|s| s.id);
    v
}

fn write_class(root: &Path, port: u16) -> Vec<Student> {
    let levels = root.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    std::fs::write(levels.join("a.xsb"), "#####\n#@$.#\n#####\n").unwrap();
    std::fs::write(levels.join("b.xsb"), "###\n#.#\n#$#\n#@#\n###\n").unwrap();
    std::fs::write(levels.join("c.xsb"), "#####\n#.$@#\n#####\n").unwrap();
    std::fs::write(root.join("assignment.toml"), ASSIGNMENT).unwrap();
    let class_dir = root.join("class");
    let students = class(&class_dir, port);
    for s in &students {
        let d = class_dir.join(s.id);
        std::fs::create_dir_all(&d).unwrap();
        for (name, text) in &s.files {
            std::fs::write(d.join(name), text).unwrap();
        }
    }
    students
}

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
    assert!(text.contains("verdict: timeout"), "{text}");
    assert!(
        text.contains("[FAIL] answers within the time limits"),
        "{text}"
    );
    assert!(text.contains("advice:"), "{text}");
}
