//! A mock class for `arena grade` (shared by tests/grading.rs and
//! benches/grading.rs): correct Python, C++ and Java agents of known
//! strength next to broken and hostile ones, on three one-move Sokoban
//! levels (a: push right, b: push up, c: push left), 10 points each.

#![allow(dead_code)]
use std::path::Path;

pub const ASSIGNMENT: &str = r#"
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

/// A line in `py-abc`'s source that no output of the grading may hold
/// (`sibling-reader` tries to read that file and print it).
pub const SECRET: &str = "SECRET-5f1e9c-of-py-abc";

/// A Python agent on the `arena` package: each act tries every legal
/// action on a clone of the state and plays one that wins.
const ON_PACKAGE: &str = r#"import arena.agent

def act(state, timer):
    legal = state.legal_actions(timer.seat)
    for a in legal:
        t = state.clone()
        t.advance(a)
        if t.is_over() and t.result(timer.seat) == "win":
            return a
    return legal[0]

arena.agent.run(act)
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

pub struct Student {
    pub id: &'static str,
    pub files: Vec<(&'static str, String)>,
    pub verdict: &'static str,
    pub points: f64,
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
        st(
            "py-abc",
            vec![("main.py", python("abc", &format!("# {SECRET}"), ""))],
            "ok",
            30.0,
        ),
        // On the `arena` package (graded sandboxes show the grader's
        // build): one-move levels, found with the forward model.
        st("py-package", vec![("main.py", ON_PACKAGE.into())], "ok", 30.0),
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
            "disqualified",
            20.0,
        ),
        st(
            "sleeper",
            vec![("main.py", python("abc", "", "while lvl == 'b':\n    time.sleep(1000)"))],
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
                        "for p in ['{}/py-abc/main.py', '../py-abc/main.py', '../../work/py-abc/main.py']:\n    try:\n        sys.stderr.write(open(p).read())\n        KNOWN = ''\n    except OSError:\n        pass",
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

pub fn write_class(root: &Path, port: u16) -> Vec<Student> {
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
