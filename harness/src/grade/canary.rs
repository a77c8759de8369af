//! Before any student code runs: can this machine build and run the class's
//! languages in the class's sandbox? And after the builds: did every
//! submission fail the same way, which is the machine's fault, not thirty
//! verdicts?
//!
//! [`check`] writes a trivial program of each language the class uses
//! (detected from the submissions, among `languages`), copies it into
//! `OUT/work/.canary-<language>` as a submission is copied, builds it with
//! the language's build command under the build's sandbox and limits, and
//! runs it as an agent of the assignment (sandbox, limits, mounts,
//! environment; a Python one imports the `arena` package when the grader
//! has it). Any failure stops the grading with
//! [`HarnessError::Machine`] (exit code 3), naming the language, what
//! failed and a fix; no submission is built and no grade is written.

use super::assignment::Assignment;
use super::{pypkg, submission, GradeOptions, Prepared};
use crate::error::HarnessError;
use crate::external::supervise::canary;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// How long a canary may take to print its line (a JVM's start included).
const WAIT: Duration = Duration::from_secs(30);

/// The canary's source files for `language`: print [`canary::LINE`] (a
/// Python canary then the `arena` package's protocol version, when
/// `with_package`), then read stdin to its end (so the line is read before
/// the program ends: an exit right after it could race the reader).
fn sources(language: &str, with_package: bool) -> Vec<(&'static str, String)> {
    let line = canary::LINE;
    match language {
        "python" => {
            let (import, version) = if with_package {
                ("import arena\n", ", arena.PROTOCOL")
            } else {
                ("", "")
            };
            vec![(
                "main.py",
                format!(
                    "import sys\n{import}print(\"{line}\"{version}, flush=True)\nsys.stdin.read()\n"
                ),
            )]
        }
        "cpp" => vec![(
            "main.cpp",
            format!(
                "#include <cstdio>\nint main() {{\n    std::puts(\"{line}\");\n    std::fflush(stdout);\n    \
                 while (std::getchar() != EOF) {{}}\n    return 0;\n}}\n"
            ),
        )],
        "java" => vec![(
            "Main.java",
            format!(
                "public class Main {{\n    public static void main(String[] a) throws Exception {{\n        \
                 System.out.println(\"{line}\");\n        System.out.flush();\n        \
                 while (System.in.read() != -1) {{}}\n    }}\n}}\n"
            ),
        )],
        _ => vec![
            (
                "Cargo.toml",
                "[package]\nname = \"canary\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".into(),
            ),
            (
                "src/main.rs",
                format!(
                    "use std::io::Read;\nfn main() {{\n    println!(\"{line}\");\n    \
                     let _ = std::io::stdin().read_to_end(&mut Vec::new());\n}}\n"
                ),
            ),
        ],
    }
}

/// The accepted languages the submissions `ids` are written in.
fn languages_used(a: &Assignment, opts: &GradeOptions, ids: &[String]) -> BTreeSet<String> {
    ids.iter()
        .filter_map(|id| submission::detect(&opts.submissions.join(id), &a.grading).ok())
        .map(|plan| plan.language)
        .collect()
}

/// Build and run the canary of every language the class uses; the first
/// failure is the error. Prints a line per language to `out`, and a
/// warning when Python submissions will not find the `arena` package.
pub fn check(
    a: &Assignment,
    opts: &GradeOptions,
    ids: &[String],
    out: &mut dyn Write,
) -> Result<(), HarnessError> {
    let languages = languages_used(a, opts, ids);
    if languages.is_empty() {
        return Ok(());
    }
    if a.grading.sandbox == crate::external::Sandbox::Bwrap {
        crate::external::supervise::sandbox::check_bwrap().map_err(|e| {
            HarnessError::Machine(format!(
                "the machine cannot grade this class: {e}\nNo submission was built or run, and \
                 no grade was written."
            ))
        })?;
    }
    let package = pypkg::PythonPackage::offered(a.grading.sandbox);
    if languages.contains("python") && package.is_none() {
        let why = match pypkg::PythonPackage::cached() {
            Some(p) => format!(
                "found at {}, but the sandbox's uid cannot read it there (sandbox = \"{}\"; \
                 \"bwrap\" shows it wherever it is)",
                p.package.display(),
                a.grading.sandbox.as_str()
            ),
            None => format!(
                "not found (python/build.sh installs it in target/python/site beside \
                 target/release/arena; or set {})",
                pypkg::SITE_VAR
            ),
        };
        writeln!(
            out,
            "warning: the `arena` Python package was {why}: Python submissions that import it \
             will crash"
        )
        .ok();
    }
    for language in &languages {
        let started = std::time::Instant::now();
        let why = |what: &str, detail: &str| {
            let hint = canary::hint(detail);
            HarnessError::Machine(format!(
                "the machine cannot grade this class: a trivial {language} program {what} in the \
                 class's sandbox (sandbox = \"{}\", {} MB, {} processes): {detail}\n\
                 No submission was built or run, and no grade was written.{}",
                a.grading.sandbox.as_str(),
                a.grading.limits.memory_mb,
                a.grading.limits.max_processes,
                if hint.is_empty() {
                    String::new()
                } else {
                    format!("\nFix: {hint}.")
                }
            ))
        };
        let name = format!(".canary-{language}");
        let src = opts.out.join("canary").join(language);
        let work = opts.out.join("work").join(&name);
        let builds = opts.out.join("builds");
        let written = sources(language, package.is_some())
            .into_iter()
            .try_for_each(|(file, text)| {
                let path = src.join(file);
                crate::error::create_parent(&path)?;
                std::fs::write(&path, text).map_err(|e| HarnessError::io(&path, e))
            });
        written?;
        std::fs::create_dir_all(&builds).map_err(|e| HarnessError::io(&builds, e))?;
        submission::copy_tree(&src, &work).map_err(|e| HarnessError::io(&work, e))?;
        let plan = submission::detect(&work, &a.grading)
            .map_err(|r| why("was not recognised", &r.detail))?;
        if let Some(cmd) = &plan.build {
            let log = builds.join(format!("{name}.log"));
            let built = submission::build(cmd, &work, &a.grading, &log);
            if !built.ok {
                return Err(why("could not be built", &built.detail));
            }
        }
        let work = std::fs::canonicalize(&work).map_err(|e| HarnessError::io(&work, e))?;
        let spec = super::submission_spec(a, Some(language), &plan.run, &plan.env, &work);
        let log = builds.join(format!("{name}.stderr.log"));
        let rest = canary::run(&spec, plan.run.clone(), WAIT, Some(log))
            .map_err(|e| why("could not run", &e))?;
        if language == "python"
            && package.is_some()
            && rest != crate::external::protocols::jsonl::VERSION
        {
            return Err(why(
                "found another `arena` package",
                &format!(
                    "it speaks {rest:?}, this arena {:?}; rebuild it with python/build.sh",
                    crate::external::protocols::jsonl::VERSION
                ),
            ));
        }
        writeln!(
            out,
            "canary: {language} builds and runs in the sandbox ({:.1} s)",
            started.elapsed().as_secs_f64()
        )
        .ok();
    }
    Ok(())
}

/// An error when every submission (three or more) failed before a move,
/// with the same verdict and the same detail once the student's id and the
/// grader's folders are left out: that is the machine, not the class.
/// Submissions without an agent or in a language not accepted do not count
/// as such failures.
pub fn uniform_failure(prepared: &[Prepared], opts: &GradeOptions) -> Result<(), HarnessError> {
    let student_fault = ["no-entry", "language-not-allowed"];
    let failures: Option<Vec<(String, String)>> = prepared
        .iter()
        .map(|p| {
            let (verdict, detail) = p.rejected.as_ref()?;
            if student_fault.contains(&verdict.as_str()) {
                return None;
            }
            Some((verdict.clone(), normalise(detail, &p.id, opts)))
        })
        .collect();
    match failures {
        Some(f) if f.len() >= 3 && f.iter().all(|x| *x == f[0]) => {
            Err(HarnessError::Machine(format!(
                "every one of the {} submissions failed before a move, the same way ({}): {}\n\
                 That is the machine, not the class: no grade was written. Look at \
                 {}/builds/ for the logs.",
                f.len(),
                f[0].0,
                f[0].1,
                opts.out.display()
            )))
        }
        _ => Ok(()),
    }
}

/// `detail` with the student's id and the grader's folders replaced.
fn normalise(detail: &str, id: &str, opts: &GradeOptions) -> String {
    let path = |p: &Path| p.to_string_lossy().into_owned();
    detail
        .replace(&path(&opts.out.join("work").join(id)), "<work>")
        .replace(&path(&opts.submissions.join(id)), "<submission>")
        .replace(&path(&opts.out), "<out>")
        .replace(id, "<id>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> GradeOptions {
        GradeOptions {
            assignment: "a.toml".into(),
            submissions: "/c/class".into(),
            only: Vec::new(),
            out: "/c/out".into(),
            jobs: None,
            anonymize: false,
            gradescope: false,
            progress: super::super::progress::ProgressMode::Silent,
            check: false,
            shard: None,
        }
    }

    fn rejected(id: &str, verdict: &str, detail: &str) -> Prepared {
        Prepared {
            id: id.into(),
            label: id.into(),
            language: Some("python".into()),
            detected: None,
            build: None,
            run: Vec::new(),
            env: Vec::new(),
            rejected: Some((verdict.into(), detail.into())),
            digest: String::new(),
            build_seconds: 0.0,
            fresh: true,
        }
    }

    #[test]
    fn a_class_that_failed_all_the_same_way_is_the_machines_fault() {
        let o = opts();
        let same = |id: &str| {
            rejected(
                id,
                "build-failed",
                &format!("bwrap: Can't find source path /c/out/work/{id}: Permission denied"),
            )
        };
        let class = vec![same("s01"), same("s02"), same("s03")];
        let e = uniform_failure(&class, &o).unwrap_err();
        assert!(matches!(e, HarnessError::Machine(_)), "{e}");
        assert!(e.to_string().contains("<work>"), "{e}");
        // Two alike are not enough; one different detail, or one that
        // played, or one without an agent, and the verdicts stand.
        assert!(uniform_failure(&class[..2], &o).is_ok());
        let mut mixed = class.clone();
        mixed.push(rejected("s04", "build-failed", "main.py:3: SyntaxError"));
        assert!(uniform_failure(&mixed, &o).is_ok());
        let mut played = class.clone();
        played[1].rejected = None;
        assert!(uniform_failure(&played, &o).is_ok());
        let mut empty = class;
        empty.push(rejected("s05", "no-entry", "no agent found"));
        assert!(uniform_failure(&empty, &o).is_ok());
    }

    #[test]
    fn every_language_has_a_canary_that_prints_the_line() {
        for language in super::super::assignment::LANGUAGES {
            let files = sources(language, false);
            assert!(
                files.iter().any(|(_, text)| text.contains(canary::LINE)),
                "{language}"
            );
        }
    }
}
