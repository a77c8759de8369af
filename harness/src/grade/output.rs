//! What `arena grade` writes: `grades.csv` (one row per student),
//! `feedback/<id>.md` (for the student), `class-summary.md`, with
//! `--anonymize` `pseudonyms.csv`, with `--gradescope`
//! `gradescope/<id>/results.json`.

use super::assignment::{Assignment, Measure};
use super::score::StudentGrade;
use super::{ClassResult, GradeOptions, Prepared};
use crate::error::{write_text, HarnessError};
use crate::report::EpisodeRow;
use std::fmt::Write as _;
use std::path::Path;

/// Write every output of a graded class.
pub fn write_all(
    a: &Assignment,
    opts: &GradeOptions,
    class: &ClassResult,
    rows: &[EpisodeRow],
) -> Result<(), HarnessError> {
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
                &feedback(a, opts, g, p, rows),
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
            &feedback(a, opts, g, p, rows),
        )?;
        if opts.gradescope {
            write_text(
                &dir.join("gradescope").join(&g.id).join("results.json"),
                &gradescope(a, g, p),
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
    let csv_err = |e: csv::Error| HarnessError::Config(format!("grades.csv: {e}"));
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
        .map_err(|e| HarnessError::Config(format!("grades.csv: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// What to do about a verdict, for students.
pub fn advice(verdict: &str) -> &'static str {
    match verdict {
        "ok" => "Nothing to fix.",
        "no-entry" => "Put your agent at the top of your folder as main.py, main.cpp, Main.java or a Cargo project, or describe it in submission.toml (see agents/examples/README.md).",
        "language-not-allowed" => "Use one of the languages the assignment allows.",
        "bad-submission" => "Fix submission.toml: keys language, entry, build, run.",
        "build-failed" => "Fix the compiler errors above; build it yourself with the same command.",
        "crash" => "Your program exited or was killed during a game: read its stderr excerpt, and test it with the command below.",
        "timeout" => "Your program did not answer within the hard time limit: answer every request, flush stdout after each line, and stay within the act budget.",
        "bad-output" => "Print exactly one JSON line per request, nothing else on stdout (debug output goes to stderr).",
        "illegal-move" => "Choose only among the actions listed in `legal`.",
        "memory-limit" => "Your program needed more memory than the assignment allows.",
        "output-limit" => "Your program printed more than allowed: keep stdout to the protocol's lines.",
        "spawn-failed" => "Your program could not be started: check the run command and that it needs nothing outside your folder.",
        "disqualified" | "time-forfeit" => "Your program took too long to answer.",
        _ => "See the detail above.",
    }
}

fn stderr_excerpt(dir: &Path, episode: usize, label: &str) -> Option<String> {
    let prefix = format!("ep{episode:04}-");
    let mine = std::fs::read_dir(dir.join("games").join(label).join("logs"));
    let rd = mine
        .or_else(|_| std::fs::read_dir(dir.join("games").join("class").join("logs")))
        .ok()?;
    for e in rd.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.contains(label) {
            let text = std::fs::read_to_string(e.path()).ok()?;
            let ex = super::submission::excerpt(&text, 10);
            return (!ex.is_empty()).then_some(ex);
        }
    }
    None
}

fn fmt_value(m: &Measure, v: Option<f64>) -> String {
    match (m, v) {
        (_, None) => "-".into(),
        (Measure::WinRate, Some(v)) => format!("{:.0}% won", v * 100.0),
        (Measure::Score, Some(v)) => format!("mean score {v:.2}"),
        (Measure::Steps, Some(v)) => format!("mean steps {v:.1}"),
    }
}

/// The student's feedback file.
pub fn feedback(
    a: &Assignment,
    opts: &GradeOptions,
    g: &StudentGrade,
    p: &Prepared,
    rows: &[EpisodeRow],
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
        let _ = writeln!(s, "- Build: `{b}`");
    }
    if !p.run.is_empty() {
        let _ = writeln!(s, "- Run: `{}`", p.run.join(" "));
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
    if !a.run.agents.is_empty() {
        let opp: Vec<&str> = a.run.agents.iter().map(|x| x.label.as_str()).collect();
        let _ = writeln!(s, "- Opponents: {}", opp.join(", "));
    }
    let _ = writeln!(s, "\n## Points\n");
    let _ = writeln!(s, "| criterion | games | measured | points |");
    let _ = writeln!(s, "|---|---:|---|---:|");
    for (c, r) in a.grading.criteria.iter().zip(&g.criteria) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} / {} |",
            c.name,
            r.games,
            fmt_value(&c.measure, r.value),
            r.points,
            r.max
        );
    }
    let _ = writeln!(
        s,
        "| **total** | | | **{} / {}** |",
        g.total,
        a.grading.max_points()
    );
    if g.verdict != "ok" {
        let _ = writeln!(s, "\n## What went wrong\n");
        if !g.detail.is_empty() {
            let _ = writeln!(s, "```\n{}\n```\n", g.detail.trim());
        }
        let _ = writeln!(s, "{}\n", advice(&g.verdict));
        for f in g.failures.iter().take(3) {
            let _ = writeln!(
                s,
                "- episode {} (level {}{}): `{}` — {}",
                f.episode,
                f.level,
                if f.opponent.is_empty() {
                    String::new()
                } else {
                    format!(", against {}", f.opponent)
                },
                f.outcome,
                f.detail
            );
            if let Some(ex) = stderr_excerpt(&opts.out, f.episode, &p.label) {
                let _ = writeln!(
                    s,
                    "\n  Your program's stderr (last lines):\n\n```\n{ex}\n```"
                );
            }
        }
        let build_log = opts.out.join("builds").join(format!("{}.log", g.id));
        if g.verdict == "build-failed" && build_log.is_file() {
            let _ = writeln!(s, "Build log: `{}`", build_log.display());
        }
    }
    let played = rows.iter().filter(|r| r.agent == p.label).count();
    if played > 0 {
        let _ = writeln!(s, "\n## Games\n");
        let _ = writeln!(
            s,
            "| episode | level | opponent | result | outcome | steps |"
        );
        let _ = writeln!(s, "|---:|---|---|---|---|---:|");
        for r in rows.iter().filter(|r| r.agent == p.label).take(50) {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                r.episode, r.level, r.opponent, r.result, r.outcome, r.steps
            );
        }
    }
    let _ = writeln!(
        s,
        "\n## Reproduce locally\n\n```\narena check {} --assignment {}\n```",
        opts.submissions.join(&g.id).display(),
        opts.assignment.display()
    );
    s
}

/// Gradescope's `results.json` for one student.
pub fn gradescope(a: &Assignment, g: &StudentGrade, p: &Prepared) -> String {
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
        output.push_str(&format!("\n{}", g.detail));
    }
    if g.verdict != "ok" {
        output.push_str(&format!("\n{}", advice(&g.verdict)));
    }
    if let Some(l) = &p.language {
        output.push_str(&format!("\nlanguage: {l}"));
    }
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
