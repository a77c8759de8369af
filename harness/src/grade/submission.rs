//! One student's submission: how it is detected (an optional
//! `submission.toml`, else the usual layouts), copied into the grader's own
//! folder, and built inside the sandbox with its own limits.

use super::assignment::Grading;
use crate::external::supervise::process::{AgentProcess, Output};
use crate::external::{ExternalSpec, ProcessLimits, Protocol};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How a submission is built and run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// `python`, `cpp`, `java` or `rust`.
    pub language: String,
    /// The build command (a shell command line run in the submission's
    /// copy), if any.
    pub build: Option<String>,
    /// The agent's command (program and arguments, run in the copy).
    pub run: Vec<String>,
    /// How the plan was found, for the feedback ("submission.toml", "main.py" ...).
    pub detected: String,
    /// Environment variables the language's runtime needs.
    pub env: Vec<(String, String)>,
}

/// The environment a language's runtime needs under an address-space
/// limit: glibc's malloc reserves 64 MiB per thread arena, which a JVM's
/// threads multiply past any sensible limit.
pub fn runtime_env(language: &str) -> Vec<(String, String)> {
    match language {
        "java" => vec![("MALLOC_ARENA_MAX".into(), "2".into())],
        _ => Vec::new(),
    }
}

/// Why a submission cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The verdict: `no-entry`, `language-not-allowed`, `build-failed`,
    /// `bad-submission`.
    pub verdict: &'static str,
    /// What went wrong, for the feedback.
    pub detail: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SubmissionToml {
    language: Option<String>,
    entry: Option<String>,
    build: Option<String>,
    run: Option<Vec<String>>,
}

/// JVM flags that make Java fit an address-space limit (RLIMIT_AS counts
/// reserved memory, and a JVM reserves far more than it uses by default).
fn java_command(memory_mb: u64, class: &str) -> Vec<String> {
    let heap = (memory_mb / 4).clamp(32, 1024);
    vec![
        "java".into(),
        format!("-Xmx{heap}m"),
        "-Xss1m".into(),
        "-XX:+UseSerialGC".into(),
        "-XX:TieredStopAtLevel=1".into(),
        "-XX:CICompilerCount=1".into(),
        "-XX:ReservedCodeCacheSize=32m".into(),
        "-XX:CompressedClassSpaceSize=64m".into(),
        "-XX:MaxMetaspaceSize=96m".into(),
        "-XX:-UsePerfData".into(),
        "-Xshare:off".into(),
        "-cp".into(),
        ".".into(),
        class.into(),
    ]
}

fn defaults_for(language: &str, entry: &str, memory_mb: u64) -> (Option<String>, Vec<String>) {
    let stem = Path::new(entry)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| entry.to_string());
    match language {
        "python" => (
            Some(format!("python3 -m py_compile {entry}")),
            vec!["python3".into(), entry.into()],
        ),
        "cpp" => (
            Some("g++ -O2 -std=c++17 -o agent *.cpp".into()),
            vec!["./agent".into()],
        ),
        "java" => (
            Some("javac -J-Xmx256m -J-XX:+UseSerialGC -J-XX:CompressedClassSpaceSize=64m -J-XX:ReservedCodeCacheSize=32m -J-Xshare:off *.java".into()),
            java_command(memory_mb, &stem),
        ),
        _ => (
            Some("cargo build --release --offline --quiet".into()),
            vec![format!("./target/release/{stem}")],
        ),
    }
}

/// Find out how to build and run the submission in `dir`: its
/// `submission.toml` if present, else the first of `main.py`, `main.cpp`
/// (or any `*.cpp`), `Main.java`, `Cargo.toml`.
pub fn detect(dir: &Path, grading: &Grading) -> Result<Plan, Rejection> {
    let mem = grading.limits.memory_mb;
    let toml_path = dir.join("submission.toml");
    let plan = if toml_path.is_file() {
        let text = std::fs::read_to_string(&toml_path).map_err(|e| Rejection {
            verdict: "bad-submission",
            detail: format!("submission.toml: {e}"),
        })?;
        let s: SubmissionToml = toml::from_str(&text).map_err(|e| Rejection {
            verdict: "bad-submission",
            detail: format!("submission.toml: {}", e.message().trim()),
        })?;
        let language = s.language.clone().ok_or_else(|| Rejection {
            verdict: "bad-submission",
            detail: format!(
                "submission.toml: missing `language` (one of {})",
                super::assignment::LANGUAGES.join(", ")
            ),
        })?;
        if !super::assignment::LANGUAGES.contains(&language.as_str()) {
            return Err(Rejection {
                verdict: "bad-submission",
                detail: format!(
                    "submission.toml: unknown language {language:?} (one of {})",
                    super::assignment::LANGUAGES.join(", ")
                ),
            });
        }
        let entry = s.entry.clone().unwrap_or_else(|| match language.as_str() {
            "python" => "main.py".into(),
            "cpp" => "main.cpp".into(),
            "java" => "Main.java".into(),
            _ => "Cargo.toml".into(),
        });
        let (build, run) = defaults_for(&language, &entry, mem);
        Plan {
            env: runtime_env(&language),
            language,
            build: s.build.clone().or(build),
            run: s.run.clone().unwrap_or(run),
            detected: "submission.toml".into(),
        }
    } else {
        let has = |f: &str| dir.join(f).is_file();
        let any_cpp = std::fs::read_dir(dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .any(|e| e.path().extension().is_some_and(|x| x == "cpp"))
            })
            .unwrap_or(false);
        let (language, entry) = if has("main.py") {
            ("python", "main.py")
        } else if has("main.cpp") || any_cpp {
            ("cpp", "main.cpp")
        } else if has("Main.java") {
            ("java", "Main.java")
        } else if has("Cargo.toml") {
            ("rust", "Cargo.toml")
        } else {
            return Err(Rejection {
                verdict: "no-entry",
                detail: "found no submission.toml, main.py, main.cpp (or *.cpp), Main.java \
                         or Cargo.toml"
                    .into(),
            });
        };
        let (build, mut run) = defaults_for(language, entry, mem);
        if language == "rust" {
            let name = crate_name(&dir.join("Cargo.toml")).unwrap_or_else(|| "agent".into());
            run = vec![format!("./target/release/{name}")];
        }
        Plan {
            language: language.into(),
            build,
            run,
            detected: entry.into(),
            env: runtime_env(language),
        }
    };
    if !grading.languages.contains(&plan.language) {
        return Err(Rejection {
            verdict: "language-not-allowed",
            detail: format!(
                "{} (detected from {}) is not allowed here; allowed: {}",
                plan.language,
                plan.detected,
                grading.languages.join(", ")
            ),
        });
    }
    Ok(plan)
}

fn crate_name(cargo_toml: &Path) -> Option<String> {
    let t: toml::Table = std::fs::read_to_string(cargo_toml).ok()?.parse().ok()?;
    Some(t.get("package")?.get("name")?.as_str()?.to_string())
}

/// A digest of every file of `dir` (names and contents), to reuse a build
/// when the submission has not changed.
pub fn digest(dir: &Path) -> String {
    let mut files = Vec::new();
    collect(dir, dir, &mut files);
    files.sort();
    let mut all = String::new();
    for (rel, path) in files {
        let data = std::fs::read(&path).unwrap_or_default();
        all.push_str(&rel);
        all.push('\0');
        all.push_str(&crate::digest::hash(&String::from_utf8_lossy(&data)));
        all.push_str(&data.len().to_string());
        all.push('\n');
    }
    crate::digest::hash(&all)
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(|e| e.ok()) {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            collect(root, &p, out);
        } else if ft.is_file() {
            let rel = p
                .strip_prefix(root)
                .unwrap_or(&p)
                .to_string_lossy()
                .into_owned();
            out.push((rel, p));
        }
    }
}

/// Copy the submission `from` into `to` (replacing it), regular files and
/// folders only (symbolic links are not followed: a link to another
/// student's folder copies nothing), and make the copy writable for the
/// sandbox user that builds it.
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    if to.exists() {
        std::fs::remove_dir_all(to)?;
    }
    copy_dir(from, to)
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(to)?;
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o777))?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let ft = e.file_type()?;
        let dest = to.join(e.file_name());
        if ft.is_dir() {
            copy_dir(&e.path(), &dest)?;
        } else if ft.is_file() {
            std::fs::copy(e.path(), &dest)?;
            let exec = e.metadata()?.permissions().mode() & 0o111 != 0;
            let mode = if exec { 0o777 } else { 0o666 };
            std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(mode))?;
        }
    }
    Ok(())
}

/// What the build step did.
#[derive(Clone, Debug)]
pub struct Built {
    /// Whether it succeeded.
    pub ok: bool,
    /// A short description (the compiler's last lines on failure).
    pub detail: String,
    /// How long it took.
    pub seconds: f64,
}

/// Run `command` (a shell command line) in `workdir` under the sandbox of
/// `grading`, with the build's own time and memory limits; its stdout and
/// stderr go to `log`.
pub fn build(command: &str, workdir: &Path, grading: &Grading, log: &Path) -> Built {
    let spec = ExternalSpec {
        command: vec!["sh".into(), "-c".into(), format!("{command} 1>&2")],
        protocol: Protocol::Jsonl,
        workdir: workdir.to_path_buf(),
        sandbox: grading.sandbox,
        limits: ProcessLimits {
            memory_mb: grading.build_memory_mb,
            cpu_seconds: grading.build_time.as_secs().max(1),
            max_processes: 256,
            max_file_mb: 256,
            max_stderr_kb: 256,
            ..ProcessLimits::default()
        },
        env: vec![
            ("HOME".into(), workdir.to_string_lossy().into_owned()),
            ("MALLOC_ARENA_MAX".into(), "2".into()),
        ],
        writable_workdir: true,
        mounts: Vec::new(),
    };
    let start = Instant::now();
    let _ = std::fs::remove_file(log);
    let mut p = match AgentProcess::spawn(&spec, Some(log.to_path_buf())) {
        Ok(p) => p,
        Err(f) => {
            return Built {
                ok: false,
                detail: format!("could not start the build: {}", f.detail),
                seconds: 0.0,
            }
        }
    };
    p.close_stdin();
    let deadline = start + grading.build_time;
    let result = loop {
        match p.recv_output(deadline) {
            Output::Line(_) => continue,
            Output::End(status) => break status.map(|s| s.success()).unwrap_or(false),
            Output::TimedOut => {
                p.stop();
                let seconds = start.elapsed().as_secs_f64();
                return Built {
                    ok: false,
                    detail: format!(
                        "the build took longer than {}",
                        humantime::format_duration(grading.build_time)
                    ),
                    seconds,
                };
            }
            Output::Failed(f) => {
                p.stop();
                return Built {
                    ok: false,
                    detail: f.detail,
                    seconds: start.elapsed().as_secs_f64(),
                };
            }
        }
    };
    p.stop();
    let seconds = start.elapsed().as_secs_f64();
    let tail = excerpt(&std::fs::read_to_string(log).unwrap_or_default(), 12);
    Built {
        ok: result,
        detail: if result {
            format!("`{command}` succeeded")
        } else {
            format!("`{command}` failed:\n{tail}")
        },
        seconds,
    }
}

/// The last `lines` non-empty lines of `text` (each cut at 300 characters).
pub fn excerpt(text: &str, lines: usize) -> String {
    let mut v: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .rev()
        .take(lines)
        .map(|l| l.chars().take(300).collect())
        .collect();
    v.reverse();
    v.join("\n")
}
