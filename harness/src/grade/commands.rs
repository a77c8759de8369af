//! The `arena grade` and `arena check` commands: their arguments, options
//! from the command line, and what they print.

use super::progress::ProgressMode;
use super::{assignment, grade, output, GradeOptions};
use crate::error::{exit, HarnessError};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `arena grade`.
#[allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena grade configs/assignments/sokoban.toml --submissions class/\n  arena grade configs/assignments/connect4.toml --submissions class/ --out results/lab3 -j 2 --gradescope\n  arena grade configs/assignments/sokoban.toml --submissions class/ --only alice --only bob\n\nThe submissions folder holds one subfolder per student (its name is the student id). Each is \
detected (submission.toml, else main.py, main.cpp, Main.java or Cargo.toml), built and run in \
the assignment's sandbox (default bwrap). Writes grades.csv, feedback/<id>.md, class-summary.md \
and the game tables under games/. Rerunning the same command continues an interrupted grading \
and reuses builds of unchanged submissions. See docs/grading.md."
)]
pub struct GradeArgs {
    /// The assignment (TOML: a run config plus a [grading] table), e.g.
    /// configs/assignments/sokoban.toml.
    pub assignment: PathBuf,
    /// The folder with one subfolder per student.
    #[arg(long)]
    pub submissions: PathBuf,
    /// Output folder (default: results/<assignment name>-grades/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// Grade only this student (repeatable).
    #[arg(long)]
    pub only: Vec<String>,
    /// Label students by stable pseudonyms in the shareable outputs
    /// (game tables, report, grades-anonymized.csv); pseudonyms.csv maps them.
    #[arg(long)]
    pub anonymize: bool,
    /// Also write Gradescope's results.json per student (gradescope/<id>/results.json).
    #[arg(long)]
    pub gradescope: bool,
    /// Grade only shard K of N of the class (K from 0; a student's shard
    /// is a stable function of their id). Shards write into the same --out
    /// (or folders copied together); the same command without --shard
    /// then writes the class's grades, reusing every build and game.
    #[arg(long, value_name = "K/N", value_parser = crate::play::schedule::Shard::parse)]
    pub shard: Option<crate::play::schedule::Shard>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// `arena check`.
#[allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena check my-agent/ --assignment configs/assignments/sokoban.toml\n\nBuilds your folder as the grader will, starts it once (the protocol handshake), plays the \
assignment's games under the same limits and sandbox, and prints the points the grader would \
give, with advice for each failure. Exit code 0 when the verdict is ok, 4 otherwise."
)]
pub struct CheckArgs {
    /// Your submission's folder.
    pub submission: PathBuf,
    /// The assignment file your instructor gave you.
    #[arg(long)]
    pub assignment: PathBuf,
    /// Output folder (default: results/check-<folder name>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `arena grade`: grade the class, print the class summary; exit code 0
/// whatever the submissions did.
pub fn grade_command(args: &GradeArgs, out: &mut dyn Write) -> Result<i32, HarnessError> {
    let name = assignment::load(&args.assignment)?.run.name;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(format!("{name}-grades")));
    let opts = GradeOptions {
        assignment: args.assignment.clone(),
        submissions: args.submissions.clone(),
        only: args.only.clone(),
        out: dir.clone(),
        jobs: args.jobs.map(usize::from),
        anonymize: args.anonymize,
        gradescope: args.gradescope,
        shard: args.shard,
        progress: ProgressMode::for_stderr(args.quiet),
        check: false,
    };
    let class = grade(&opts, out)?;
    writeln!(out).ok();
    let counts = super::score::verdict_counts(&class.grades);
    let verdicts: Vec<String> = counts.iter().map(|(v, n)| format!("{v} {n}")).collect();
    writeln!(
        out,
        "graded {} submission(s): {}",
        class.grades.len(),
        verdicts.join(", ")
    )
    .ok();
    writeln!(
        out,
        "{} game(s); preparing {:.1} s, playing {:.1} s",
        class.games, class.prepare_seconds, class.play_seconds
    )
    .ok();
    match args.shard {
        Some(sh) => writeln!(
            out,
            "wrote {}/grades-shard-{}-of-{}.csv and feedback/; when every shard is done, run the \
             same command without --shard for the class's grades.csv",
            dir.display(),
            sh.k,
            sh.n
        ),
        None => writeln!(
            out,
            "wrote {}/grades.csv, feedback/, class-summary.md{}",
            dir.display(),
            if args.gradescope { ", gradescope/" } else { "" }
        ),
    }
    .ok();
    Ok(exit::OK)
}

/// `arena check`: grade one submission as the grader would and explain
/// the result; exit code 0 when its verdict is `ok`, 4 otherwise.
pub fn check_command(args: &CheckArgs, out: &mut dyn Write) -> Result<i32, HarnessError> {
    let sub = std::fs::canonicalize(&args.submission)
        .map_err(|e| HarnessError::io(&args.submission, e))?;
    if !sub.is_dir() {
        return Err(HarnessError::Flag(format!(
            "{}: not a folder (give the folder of your agent)",
            args.submission.display()
        )));
    }
    let id = sub
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "submission".into());
    let parent = sub
        .parent()
        .map(PathBuf::from)
        .unwrap_or_else(|| "/".into());
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(format!("check-{id}")));
    let opts = GradeOptions {
        assignment: args.assignment.clone(),
        submissions: parent,
        only: vec![id.clone()],
        out: dir.clone(),
        jobs: None,
        anonymize: false,
        gradescope: false,
        progress: ProgressMode::for_stderr(false),
        check: true,
        shard: None,
    };
    let a = assignment::load(&args.assignment)?;
    let class = grade(&opts, out)?;
    let (g, p) = (&class.grades[0], &class.prepared[0]);
    let mark = |ok: bool| if ok { "ok  " } else { "FAIL" };
    writeln!(out, "\ncheck of {id} against {}:", a.run.name).ok();
    let built = p.language.is_some()
        && p.rejected.as_ref().is_none_or(|(v, _)| {
            v != "build-failed"
                && v != "no-entry"
                && v != "bad-submission"
                && v != "language-not-allowed"
        });
    writeln!(
        out,
        "  [{}] found and built: {}",
        mark(built),
        match (&p.language, &p.build) {
            (Some(l), Some(b)) => format!("{l}, `{b}`"),
            (Some(l), None) => l.clone(),
            _ => "no agent found".into(),
        }
    )
    .ok();
    let started = built && p.rejected.is_none();
    writeln!(
        out,
        "  [{}] starts and says hello (handshake)",
        mark(started)
    )
    .ok();
    let rows: Vec<_> = class.rows.iter().filter(|r| r.agent == p.label).collect();
    if started {
        let late = rows
            .iter()
            .filter(|r| {
                matches!(
                    r.outcome.as_str(),
                    "timeout" | "disqualified" | "time-forfeit" | "forfeited"
                )
            })
            .count();
        let overruns: u32 = rows.iter().map(|r| r.overruns).sum();
        let illegal = rows
            .iter()
            .filter(|r| {
                matches!(
                    r.outcome.as_str(),
                    "illegal-move" | "bad-output" | "output-limit"
                )
            })
            .count();
        let unclean = rows
            .iter()
            .filter(|r| matches!(r.outcome.as_str(), "crash" | "memory-limit") || r.leaked > 0)
            .count();
        writeln!(
            out,
            "  [{}] answers within the time limits ({late} game(s) lost on time, {overruns} act(s) past the soft budget)",
            mark(late == 0)
        )
        .ok();
        writeln!(
            out,
            "  [{}] only legal, well-formed answers ({illegal} game(s) failed)",
            mark(illegal == 0)
        )
        .ok();
        writeln!(
            out,
            "  [{}] clean exit, no crash, nothing left running ({unclean} game(s) not clean)",
            mark(unclean == 0)
        )
        .ok();
    }
    writeln!(out, "\npoints the grader would give:").ok();
    for r in &g.criteria {
        if r.checked {
            writeln!(out, "  {:<40} {:>7} / {}", r.name, r.points, r.max).ok();
        } else {
            writeln!(
                out,
                "  {:<40} {:>7} / {}  (not checked)",
                r.name, "?", r.max
            )
            .ok();
        }
    }
    let unchecked = output::unchecked(g);
    let checked_max: f64 = g.criteria.iter().filter(|r| r.checked).map(|r| r.max).sum();
    if unchecked.is_empty() {
        writeln!(
            out,
            "  {:<40} {:>7} / {}{}",
            "total",
            g.total,
            a.grading.max_points(),
            if g.grade.is_empty() {
                String::new()
            } else {
                format!("  (grade {})", g.grade)
            }
        )
        .ok();
    } else {
        writeln!(
            out,
            "  {:<40} {:>7} / {checked_max}  (of the criteria checked)",
            "total", g.total
        )
        .ok();
        writeln!(
            out,
            "not checked: {} ({} of {} points): the class round robin, which only the grader \
             plays (against the whole class); the points above are the grader's, whoever is \
             in the class",
            unchecked
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", "),
            a.grading.max_points() - checked_max,
            a.grading.max_points()
        )
        .ok();
    }
    writeln!(out, "\nverdict: {}", g.verdict).ok();
    if g.verdict != "ok" {
        let opts = GradeOptions {
            out: class.dir.clone(),
            ..opts
        };
        for line in output::what_went_wrong(&opts, g, p, false).lines() {
            if line.is_empty() {
                writeln!(out).ok();
            } else {
                writeln!(out, "  {line}").ok();
            }
        }
    }
    writeln!(
        out,
        "details: {}",
        dir.join("feedback").join(format!("{id}.md")).display()
    )
    .ok();
    if g.verdict != "ok" {
        writeln!(
            out,
            "check again: {}",
            output::check_command_line(
                &args.submission.to_string_lossy(),
                &args.assignment.to_string_lossy()
            )
        )
        .ok();
    }
    Ok(if g.verdict == "ok" {
        exit::OK
    } else {
        exit::CHECK_FAILED
    })
}
