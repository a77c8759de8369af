//! What `arena grade` writes: `grades.csv` (one row per student),
//! `feedback/<id>.md` (for the student), `class-summary.md`, with
//! `--anonymize` `pseudonyms.csv`, with `--gradescope`
//! `gradescope/<id>/results.json`.

use super::assignment::{Assignment, Measure};
use super::score::{Failure, StudentGrade};
use super::{ClassResult, GradeOptions, Prepared};
use crate::error::{write_text, HarnessError};
use crate::output::rows::EpisodeRow;
use std::fmt::Write as _;
use std::path::Path;

/// Write every output of a graded class.
pub fn write_all(
    a: &Assignment,
    opts: &GradeOptions,
    class: &ClassResult,
) -> Result<(), HarnessError> {
    let (rows, class_rows) = (&class.rows, &class.class_rows);
    let dir = &opts.out;
    // A shard writes its own table; the run without --shard writes the class's.
    let table = match opts.shard {
        Some(sh) => format!("grades-shard-{}-of-{}.csv", sh.k, sh.n),
        None => "grades.csv".into(),
    };
    write_text(&dir.join(&table), &grades_csv(a, &class.grades, None)?)?;
    if opts.shard.is_some() {
        for (g, p) in class.grades.iter().zip(&class.prepared) {
            write_text(
                &dir.join("feedback").join(format!("{}.md", g.id)),
                &feedback(a, opts, g, p, rows, class_rows),
            )?;
        }
        return Ok(());
    }
    if opts.anonymize {
        let names: Vec<String> = class.prepared.iter().map(|p| p.label.clone()).collect();
        write_text(
            &dir.join("grades-anonymized.csv"),
            &grades_csv(a, &class.grades, Some(&names))?,
        )?;
        let mut t = String::from("id,pseudonym\n");
        for p in &class.prepared {
            let _ = writeln!(t, "{},{}", csv_field(&p.id), p.label);
        }
        write_text(&dir.join("pseudonyms.csv"), &t)?;
    }
    for (g, p) in class.grades.iter().zip(&class.prepared) {
        write_text(
            &dir.join("feedback").join(format!("{}.md", g.id)),
            &feedback(a, opts, g, p, rows, class_rows),
        )?;
        if opts.gradescope {
            write_text(
                &dir.join("gradescope").join(&g.id).join("results.json"),
                &gradescope(a, opts, g, p),
            )?;
        }
    }
    write_text(
        &dir.join("class-summary.md"),
        &class_summary(a, class, opts.anonymize),
    )?;
    Ok(())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `grades.csv`: id, verdict, points per criterion, total, percent, grade,
/// games, detail (`names` replaces the ids).
pub fn grades_csv(
    a: &Assignment,
    grades: &[StudentGrade],
    names: Option<&[String]>,
) -> Result<String, HarnessError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = vec!["id".into(), "verdict".into()];
    header.extend(a.grading.criteria.iter().map(|c| c.name.clone()));
    header.extend(
        ["total", "max", "percent", "grade", "games", "detail"]
            .iter()
            .map(|s| s.to_string()),
    );
    let csv_err = |e: csv::Error| HarnessError::Csv {
        path: "grades.csv".into(),
        source: e,
    };
    w.write_record(&header).map_err(csv_err)?;
    for (i, g) in grades.iter().enumerate() {
        let id = names.map(|n| n[i].clone()).unwrap_or_else(|| g.id.clone());
        let mut rec = vec![id, g.verdict.clone()];
        rec.extend(g.criteria.iter().map(|c| c.points.to_string()));
        rec.push(g.total.to_string());
        rec.push(a.grading.max_points().to_string());
        rec.push(g.percent.to_string());
        rec.push(g.grade.clone());
        rec.push(g.games.to_string());
        rec.push(g.detail.replace('\n', " "));
        w.write_record(&rec).map_err(csv_err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| HarnessError::io("grades.csv", e.into_error()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// What to do about a verdict, for students: said after the failures and
/// the build's output, before the check command.
pub fn advice(verdict: &str) -> &'static str {
    match verdict {
        "ok" => "Nothing to fix.",
        "no-entry" => "Put your agent at the top of your folder as main.py, main.cpp, Main.java or a Cargo project, or describe it in submission.toml (see agents/examples/README.md).",
        "language-not-allowed" => "Use one of the languages the assignment allows.",
        "bad-submission" => "Fix submission.toml: keys language, entry, build, run.",
        "build-failed" => "Fix the errors in the build's output above, then run the check again (the command is at the end).",
        "crash" => "Your program exited or was killed during a game: read the last lines of its stderr above, fix the cause, and run the check again (the command is at the end).",
        "timeout" => "Your program did not answer within the hard time limit: answer every request, flush stdout after each line, and stay within the act budget.",
        "bad-output" => "Print exactly one JSON line per request, nothing else on stdout (debug output goes to stderr).",
        "illegal-move" => "Choose only among the actions listed in `legal`.",
        "memory-limit" => "Your program needed more memory than the assignment allows.",
        "output-limit" => "Your program printed more than allowed: keep stdout to the protocol's lines.",
        "spawn-failed" => "Your program could not be started: check the run command and that it needs nothing outside your folder.",
        "disqualified" | "time-forfeit" => "Your program took too long to answer.",
        "forfeited" => "Your program timed out in several games in a row, so its remaining games were lost without being played: answer every request within the time limits.",
        _ => "See the detail above.",
    }
}

/// `text` with the grader's folders of submission `id` (its copy, its
/// original, the output folder) written as the student knows them: paths
/// relative to their own folder.
pub fn local_paths(opts: &GradeOptions, id: &str, text: &str) -> String {
    let mut t = text.to_string();
    for (dir, to) in [
        (opts.out.join("work").join(id), "."),
        (opts.submissions.join(id), "."),
        (opts.out.clone(), "<grading folder>"),
    ] {
        let d = dir.to_string_lossy().into_owned();
        if d.len() > 1 {
            let inside = if to == "." {
                String::new()
            } else {
                format!("{to}/")
            };
            t = t.replace(&format!("{d}/"), &inside).replace(&d, to);
        }
    }
    t
}

/// A word of a shell command line, quoted when it needs to be.
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/-+=:,@".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// The assignment file as a student has it: its path within arena's
/// source tree when it is one of arena's own files (e.g.
/// `configs/assignments/connect4.toml`), else its file name (the file the
/// instructor hands out).
pub fn assignment_for_students(assignment: &Path) -> String {
    let abs = std::fs::canonicalize(assignment).unwrap_or_else(|_| assignment.to_path_buf());
    let checkout = abs
        .ancestors()
        .skip(1)
        .find(|d| d.join("harness").join("Cargo.toml").is_file() && d.join("configs").is_dir());
    match checkout.and_then(|root| abs.strip_prefix(root).ok()) {
        Some(rel) => rel.to_string_lossy().into_owned(),
        None => abs
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| assignment.to_string_lossy().into_owned()),
    }
}

/// The command a student runs to check `folder` against `assignment`: the
/// `arena` command of the wheel (the students' route,
/// agents/examples/README.md); from a clone of arena the same words follow
/// `cargo run --release --` ([`FROM_A_CLONE`]).
pub fn check_command_line(folder: &str, assignment: &str) -> String {
    let folder = if folder.ends_with('/') {
        folder.to_string()
    } else {
        format!("{folder}/")
    };
    format!(
        "arena check {} --assignment {}",
        shell_word(&folder),
        shell_word(assignment)
    )
}

/// How a student without the `arena` command runs the same check.
pub const FROM_A_CLONE: &str =
    "(`arena` is the command of the arena wheel your instructor hands out; from a clone of \
     arena, run `cargo run --release --` followed by the same words instead)";

/// The criteria a run did not check (class round robin ones, under
/// `arena check` or a shard), by name.
pub fn unchecked(g: &StudentGrade) -> Vec<&str> {
    g.criteria
        .iter()
        .filter(|c| !c.checked)
        .map(|c| c.name.as_str())
        .collect()
}

/// The last lines of the stderr of `label` in a failed game (its run's
/// `logs/`), with the grader's paths made local.
fn stderr_excerpt(opts: &GradeOptions, f: &Failure, p: &Prepared) -> Option<String> {
    // The runner's name for the log: ep<index>-seat<seat>-<label>.stderr.log.
    let safe = crate::play::runner::log_label(&p.label);
    let prefix = format!("ep{:04}-seat", f.episode);
    let mine = |name: &str| {
        name.strip_prefix(&prefix)
            .map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_digit()))
            .and_then(|rest| rest.strip_prefix('-'))
            .and_then(|rest| rest.strip_suffix(".stderr.log"))
            == Some(safe.as_str())
    };
    let run = if f.class {
        opts.out.join(super::CLASS_GAMES)
    } else {
        opts.out.join("games").join(&p.label)
    };
    let rd = std::fs::read_dir(run.join("logs")).ok()?;
    for e in rd.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if mine(&name) {
            let text = std::fs::read_to_string(e.path()).ok()?;
            let ex = super::submission::excerpt(&text, 10);
            return (!ex.is_empty()).then(|| local_paths(opts, &p.id, &ex));
        }
    }
    None
}

/// The last lines of a submission's build output (build failures), with
/// the grader's paths made local.
pub fn build_output(opts: &GradeOptions, id: &str, lines: usize) -> Option<String> {
    let log = opts.out.join("builds").join(format!("{id}.log"));
    let text = std::fs::read_to_string(log).ok()?;
    let ex = super::submission::excerpt(&text, lines);
    (!ex.is_empty()).then(|| local_paths(opts, id, &ex))
}

/// A block of verbatim text: fenced in Markdown, indented on a terminal.
fn block(s: &mut String, text: &str, md: bool) {
    if md {
        let _ = writeln!(s, "```\n{text}\n```\n");
    } else {
        for l in text.lines() {
            let _ = writeln!(s, "    {l}");
        }
    }
}

/// What went wrong, for students, in Markdown (`md`) or for a terminal:
/// the verdict's detail (for a failed build its first line and the
/// build's output), the first failures with the last lines of the
/// program's stderr (each different excerpt once), then the advice.
pub fn what_went_wrong(opts: &GradeOptions, g: &StudentGrade, p: &Prepared, md: bool) -> String {
    let mut s = String::new();
    let build = (g.verdict == "build-failed")
        .then(|| build_output(opts, &g.id, 40))
        .flatten();
    let detail = local_paths(opts, &g.id, g.detail.trim());
    match &build {
        Some(b) => {
            let first = detail.lines().next().unwrap_or_default();
            let first = first.trim_end_matches(':');
            let _ = writeln!(s, "{first}; the build's output (last lines):\n");
            block(&mut s, b, md);
        }
        None if detail.is_empty() => {}
        None if md => block(&mut s, &detail, md),
        None => {
            let _ = writeln!(s, "{detail}\n");
        }
    }
    let mut shown: Vec<String> = Vec::new();
    for f in g.failures.iter().take(if md { 3 } else { 1 }) {
        if md {
            let _ = writeln!(
                s,
                "- {} (level {}{}): `{}` — {}\n",
                f.game(),
                f.level,
                if f.opponent.is_empty() {
                    String::new()
                } else {
                    format!(", against {}", f.opponent)
                },
                f.outcome,
                local_paths(opts, &g.id, &f.detail)
            );
        }
        match stderr_excerpt(opts, f, p) {
            Some(ex) if !shown.contains(&ex) => {
                let _ = writeln!(s, "Your program's stderr in {} (last lines):\n", f.game());
                block(&mut s, &ex, md);
                shown.push(ex);
            }
            _ => {}
        }
    }
    if md {
        let _ = writeln!(s, "{}", advice(&g.verdict));
    } else {
        if !s.is_empty() && !s.ends_with("\n\n") {
            s.push('\n');
        }
        let _ = writeln!(s, "advice: {}\n", advice(&g.verdict));
    }
    s
}

fn fmt_value(m: &Measure, v: Option<f64>) -> String {
    match (m, v) {
        (_, None) => "-".into(),
        (Measure::WinRate, Some(v)) => format!("{:.0}% won", v * 100.0),
        (Measure::Score, Some(v)) => format!("mean score {v:.2}"),
        (Measure::Steps, Some(v)) => format!("mean steps {v:.1}"),
    }
}

fn game_table(s: &mut String, title: &str, rows: &[&EpisodeRow]) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n## {title}\n");
    let _ = writeln!(
        s,
        "| episode | level | opponent | result | outcome | steps |"
    );
    let _ = writeln!(s, "|---:|---|---|---|---|---:|");
    for r in rows.iter().take(50) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            r.episode, r.level, r.opponent, r.result, r.outcome, r.steps
        );
    }
    if rows.len() > 50 {
        let _ = writeln!(s, "\n({} more)", rows.len() - 50);
    }
}

/// The student's feedback file.
pub fn feedback(
    a: &Assignment,
    opts: &GradeOptions,
    g: &StudentGrade,
    p: &Prepared,
    rows: &[EpisodeRow],
    class_rows: &[EpisodeRow],
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {} — feedback for `{}`\n", a.run.name, g.id);
    let _ = writeln!(
        s,
        "**Verdict: `{}`** — {} / {} points ({}%){}\n",
        g.verdict,
        g.total,
        a.grading.max_points(),
        g.percent,
        if g.grade.is_empty() {
            String::new()
        } else {
            format!(", grade **{}**", g.grade)
        }
    );
    let _ = writeln!(s, "## What was run\n");
    match (&p.language, &p.detected) {
        (Some(l), Some(d)) => {
            let _ = writeln!(s, "- Language: {l} (detected from `{d}`)");
        }
        _ => {
            let _ = writeln!(s, "- No agent found in the folder.");
        }
    }
    if let Some(b) = &p.build {
        let _ = writeln!(
            s,
            "- Build, in your folder: `{}`",
            local_paths(opts, &g.id, b)
        );
    }
    if !p.run.is_empty() {
        let _ = writeln!(
            s,
            "- Run, in your folder: `{}`",
            local_paths(opts, &g.id, &p.run.join(" "))
        );
    }
    let _ = writeln!(
        s,
        "- Game: {}, levels: {}; {} game(s) played; sandbox `{}`; act budget {:?} (hard {:?})",
        a.run.game,
        a.run.levels.len(),
        g.games,
        a.grading.sandbox.as_str(),
        a.run.time.act,
        a.run.time.act_hard
    );
    if let Some(k) = a.grading.forfeit_after_timeouts {
        let _ = writeln!(
            s,
            "- After {k} timeouts in a row, the remaining games are lost without being played"
        );
    }
    if !a.run.agents.is_empty() {
        let opp: Vec<&str> = a.run.agents.iter().map(|x| x.label.as_str()).collect();
        let _ = writeln!(
            s,
            "- Opponents: {} (the same games, seeds included, for every student)",
            opp.join(", ")
        );
    }
    if a.grading.class_round_robin {
        let _ = writeln!(
            s,
            "- Class round robin: every student also plays every other; those games \
             count only for the criteria marked *class*, whose points depend on the class"
        );
    }
    let _ = writeln!(s, "\n## Points\n");
    let _ = writeln!(s, "| criterion | games | measured | points |");
    let _ = writeln!(s, "|---|---:|---|---:|");
    for (c, r) in a.grading.criteria.iter().zip(&g.criteria) {
        let name = if c.class {
            format!("{} (*class*)", c.name)
        } else {
            c.name.clone()
        };
        if r.checked {
            let _ = writeln!(
                s,
                "| {name} | {} | {} | {} / {} |",
                r.games,
                fmt_value(&c.measure, r.value),
                r.points,
                r.max
            );
        } else {
            let _ = writeln!(
                s,
                "| {name} | | not checked: the class's games are played by the grader | ? / {} |",
                r.max
            );
        }
    }
    let _ = writeln!(
        s,
        "| **total** | | | **{} / {}** |",
        g.total,
        a.grading.max_points()
    );
    if g.verdict != "ok" {
        let _ = writeln!(s, "\n## What went wrong\n");
        s.push_str(&what_went_wrong(opts, g, p, true));
    }
    game_table(&mut s, "Games", &super::seat_rows(rows, &p.label));
    game_table(
        &mut s,
        "Class round robin games",
        &super::seat_rows(class_rows, &p.label),
    );
    let assignment = assignment_for_students(&opts.assignment);
    let inside = assignment.contains('/');
    let _ = writeln!(
        s,
        "\n## Check it yourself\n\nWith this folder as `{}/`{}:\n\n```sh\n{}\n```\n\n{FROM_A_CLONE}. \
         It builds and plays exactly the games above (the same seeds, limits and sandbox) and \
         prints the same points{}.",
        g.id,
        if inside {
            String::new()
        } else {
            format!(" and the assignment file `{assignment}` (from your instructor) next to it")
        },
        check_command_line(&g.id, &assignment),
        if a.grading.class_round_robin {
            " but for the *class* criteria: only the grader plays the class round robin"
        } else {
            ""
        }
    );
    s
}

/// Gradescope's `results.json` for one student.
pub fn gradescope(a: &Assignment, opts: &GradeOptions, g: &StudentGrade, p: &Prepared) -> String {
    let tests: Vec<serde_json::Value> = a
        .grading
        .criteria
        .iter()
        .zip(&g.criteria)
        .map(|(c, r)| {
            serde_json::json!({
                "name": c.name,
                "score": r.points,
                "max_score": r.max,
                "output": fmt_value(&c.measure, r.value),
            })
        })
        .collect();
    let mut output = format!("verdict: {}", g.verdict);
    if !g.detail.is_empty() {
        output.push_str(&format!("\n{}", local_paths(opts, &g.id, &g.detail)));
    }
    if g.verdict != "ok" {
        output.push_str(&format!("\n{}", advice(&g.verdict)));
    }
    if let Some(l) = &p.language {
        output.push_str(&format!("\nlanguage: {l}"));
    }
    output.push_str(&format!(
        "\ncheck it yourself: {} {FROM_A_CLONE}",
        check_command_line(&g.id, &assignment_for_students(&opts.assignment))
    ));
    let v = serde_json::json!({
        "score": g.total,
        "output": output,
        "tests": tests,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// `class-summary.md`: verdict counts and the distribution of totals.
pub fn class_summary(a: &Assignment, class: &ClassResult, anonymize: bool) -> String {
    let grades = &class.grades;
    let max = a.grading.max_points();
    let mut s = String::new();
    let _ = writeln!(s, "# {} — class summary\n", a.run.name);
    let _ = writeln!(
        s,
        "{} submission(s), {} game(s); preparing (build, start) {:.1} s, playing {:.1} s.\n",
        grades.len(),
        class.games,
        class.prepare_seconds,
        class.play_seconds
    );
    let counts = super::score::verdict_counts(grades);
    let _ = writeln!(s, "## Verdicts\n\n| verdict | students |\n|---|---:|");
    for (v, n) in &counts {
        let _ = writeln!(s, "| {v} | {n} |");
    }
    let mut totals: Vec<f64> = grades.iter().map(|g| g.total).collect();
    totals.sort_by(f64::total_cmp);
    if !totals.is_empty() {
        let mean = totals.iter().sum::<f64>() / totals.len() as f64;
        let median = totals[totals.len() / 2];
        let _ = writeln!(
            s,
            "\n## Totals (out of {max})\n\nmean {mean:.2}, median {median:.2}, min {:.2}, max {:.2}\n",
            totals[0],
            totals[totals.len() - 1]
        );
        let _ = writeln!(s, "| percent | students |\n|---|---:|");
        for b in 0..10 {
            let lo = b as f64 * 10.0;
            let n = grades
                .iter()
                .filter(|g| {
                    let p = g.percent;
                    (p >= lo && p < lo + 10.0) || (b == 9 && p >= 100.0)
                })
                .count();
            let bar = "#".repeat(n);
            let _ = writeln!(s, "| {lo:.0}–{} | {n} {bar} |", lo as u32 + 10);
        }
    }
    if !a.grading.grades.is_empty() {
        let mut by: std::collections::BTreeMap<&str, usize> = Default::default();
        for g in grades {
            *by.entry(g.grade.as_str()).or_default() += 1;
        }
        let _ = writeln!(s, "\n## Grades\n\n| grade | students |\n|---|---:|");
        for (l, n) in by {
            let _ = writeln!(s, "| {} | {n} |", if l.is_empty() { "(none)" } else { l });
        }
    }
    if !anonymize {
        let _ = writeln!(
            s,
            "\n## Students\n\n| id | verdict | total |\n|---|---|---:|"
        );
        for g in grades {
            let _ = writeln!(s, "| {} | {} | {} |", g.id, g.verdict, g.total);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn students_read_their_own_paths_and_a_command_that_runs_on_their_machine() {
        let opts = GradeOptions {
            assignment: "lab.toml".into(),
            submissions: "/home/prof/class".into(),
            only: vec![],
            out: "/home/prof/out".into(),
            jobs: None,
            anonymize: false,
            gradescope: false,
            progress: super::super::progress::ProgressMode::Silent,
            check: false,
            shard: None,
        };
        let t = local_paths(
            &opts,
            "erin",
            "File \"/home/prof/out/work/erin/main.py\", in /home/prof/out/work/erin; \
             /home/prof/class/erin/x.txt; /home/prof/out/games",
        );
        assert_eq!(t, "File \"main.py\", in .; x.txt; <grading folder>/games");
        assert_eq!(
            check_command_line("erin", "lab.toml"),
            "arena check erin/ --assignment lab.toml"
        );
        assert_eq!(
            check_command_line("my agent/", "lab.toml"),
            "arena check 'my agent/' --assignment lab.toml"
        );
        // One of arena's own assignments: its path in the source tree.
        let shipped =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/assignments/connect4.toml");
        assert_eq!(
            assignment_for_students(&shipped),
            "configs/assignments/connect4.toml"
        );
        // The instructor's own file: its name.
        let tmp = tempfile::tempdir().unwrap();
        let own = tmp.path().join("lab 3.toml");
        std::fs::write(&own, "").unwrap();
        assert_eq!(assignment_for_students(&own), "lab 3.toml");
    }
}
