//! `arena solve sokoban` and `arena bench sokoban`: the solver of
//! `agents::sokoban` on a level file, levels in parallel, every solution
//! checked by the independent replay of `games::sokoban::replay`.
//!
//! Level choice for `solve`: `--levels FILE` (every level), `--levels FILE
//! --level N` (level number N, counted from 1 as in Microban's titles and the
//! CSV's `level` column; the deprecated `--index N` counts from 0 and is
//! turned into `--level N+1` by [`crate::cli::commands::solve`]), or
//! `--level SPEC` alone (`microban:N`, `FILE`, `FILE:N` with N from 0, as in
//! configs). `--levels microban` reads the shipped Microban.

use super::levels::{resolve, NamedLevel};
use crate::registry::args::{parse_params, BenchArgs, SolveArgs};
use crate::error::{create_parent, write_text, HarnessError};
use crate::play::player::panic_message;
use crate::play::timing::{ms, AgentTimer, Clock};
use agents::sokoban::{LeastBound, Method, SolveOptions, SolveResult, SolveStatus};
use games::sokoban::{print_levels, replay, Level};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The agent `arena solve sokoban` runs without `--agent`.
pub const DEFAULT_AGENT: &str = "biastar";

/// One solved (or not) level.
#[derive(Clone, Debug)]
pub struct LevelRow {
    /// The level's number in its file, from 1.
    pub number: usize,
    /// How the level was named (`FILE:3`, `microban:12`).
    pub label: String,
    /// Its title.
    pub title: String,
    /// How the solve ended.
    pub status: SolveStatus,
    /// Moves of the solution (0 if unsolved).
    pub moves: usize,
    /// Pushes of the solution (0 if unsolved).
    pub pushes: usize,
    /// Wall time of the solve, milliseconds.
    pub time_ms: f64,
    /// States expanded.
    pub expanded: u64,
    /// The LURD solution, empty if unsolved.
    pub solution: String,
    /// The solver's remark when unsolved (why the level is unsolvable or
    /// unsupported, or which budget ran out), else empty.
    pub note: String,
    /// Solved: which of the solver's searches found it
    /// ([`SolveResult::found_by`]).
    pub found_by: Option<&'static str>,
    /// Unsolved: the position nearest the goals the search reached (the
    /// least lower bound), as a level titled with that bound.
    pub nearest: Option<Level>,
}

/// `level` with the boxes and player of `least`, titled with its bound
/// and its boxes on goals.
fn nearest_level(level: &Level, least: &LeastBound) -> Level {
    let mut lv = level.clone();
    lv.boxes.iter_mut().for_each(|b| *b = false);
    for &c in &least.boxes {
        lv.boxes[c] = true;
    }
    lv.player = least.player;
    let on_goals = least.boxes.iter().filter(|&&c| lv.goals[c]).count();
    let name = if level.title.is_empty() {
        format!("level {}", level.index + 1)
    } else {
        level.title.clone()
    };
    lv.title = format!(
        "{name}: nearest position, {} pushes at least, {on_goals} of {} boxes on goals",
        least.bound,
        least.boxes.len()
    );
    lv
}

/// The solver options of agent `name` with `--param` items.
fn solver_options(name: &str, params: &[String]) -> Result<SolveOptions, HarnessError> {
    let method = Method::from_name(name).ok_or_else(|| {
        HarnessError::Flag(format!(
            "--agent `{name}` is not a Sokoban solver; valid: {}",
            Method::ALL.map(|m| m.name()).join(", ")
        ))
    })?;
    let params = parse_params(params).map_err(HarnessError::Flag)?;
    Ok(agents::sokoban::options(name, method, &params)?)
}

/// Solve `levels` with `opts`, `jobs` at a time, each within `limit`; every
/// solution is replayed by `games::sokoban::replay` (an invalid one is an
/// error: a solver bug), except on levels too large for the game to hold
/// (more than `games::sokoban::MAX_FLOOR` floor cells), which it cannot
/// replay. A solver that panics on a level is a bug too: that level's row
/// says `unsupported` and the other levels go on. `on_done` is called on
/// the calling thread's behalf as each level finishes (from the worker
/// that solved it). Rows come back in level order, every level's, with
/// the first such bug found: the caller writes its tables, then fails.
pub fn solve_levels(
    levels: &[NamedLevel],
    opts: &SolveOptions,
    limit: Duration,
    jobs: usize,
    on_done: &(dyn Fn(&LevelRow) + Sync),
) -> (Vec<LevelRow>, Option<HarnessError>) {
    let solve = |level: &Level, timer: &AgentTimer| agents::sokoban::solve(level, opts, timer);
    solve_levels_with(levels, limit, jobs, on_done, &solve)
}

/// [`solve_levels`] with the solver given as `solve`.
fn solve_levels_with(
    levels: &[NamedLevel],
    limit: Duration,
    jobs: usize,
    on_done: &(dyn Fn(&LevelRow) + Sync),
    solve: &(dyn Fn(&Level, &AgentTimer) -> SolveResult + Sync),
) -> (Vec<LevelRow>, Option<HarnessError>) {
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Option<LevelRow>>> = Mutex::new(vec![None; levels.len()]);
    let failure: Mutex<Option<HarnessError>> = Mutex::new(None);
    let fail = |e: HarnessError| {
        let mut f = failure.lock().unwrap_or_else(|e| e.into_inner());
        f.get_or_insert(e);
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, levels.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(nl) = levels.get(i) else { break };
                let start = Instant::now();
                let timer = AgentTimer::new(Clock::Wall, start, limit);
                let r = match catch_unwind(AssertUnwindSafe(|| solve(&nl.level, &timer))) {
                    Ok(r) => r,
                    Err(payload) => {
                        let what = panic_message(payload);
                        fail(HarnessError::CheckFailed(format!(
                            "{}: the solver panicked (a bug): {what}",
                            nl.label
                        )));
                        let note = format!("the solver panicked: {what}");
                        SolveResult::unsolved(SolveStatus::Unsupported, 0, note)
                    }
                };
                let time_ms = ms(start.elapsed());
                let mut solution = r.solution.clone().unwrap_or_default();
                let mut status = r.status;
                if r.status == SolveStatus::Solved {
                    // A level the game itself cannot hold (over 1,024 floor
                    // cells) cannot be replayed: error step 0, not checked.
                    let ok = match replay(&nl.level, &solution) {
                        Ok(c) => c.solved && (c.moves, c.pushes) == (r.moves, r.pushes),
                        Err(e) => e.step == 0 && !solution.is_empty(),
                    };
                    if !ok {
                        fail(HarnessError::CheckFailed(format!(
                            "{}: the solver returned a solution that does not replay (a bug): {solution}",
                            nl.label
                        )));
                        // Not counted as solved in the tables.
                        status = SolveStatus::Unsupported;
                        solution.clear();
                    }
                }
                let solved = status == SolveStatus::Solved;
                let row = LevelRow {
                    number: nl.level.index + 1,
                    label: nl.label.clone(),
                    title: nl.level.title.clone(),
                    status,
                    moves: if solved { r.moves } else { 0 },
                    pushes: if solved { r.pushes } else { 0 },
                    time_ms,
                    expanded: r.expanded,
                    solution,
                    note: r.note.clone(),
                    found_by: r.found_by.filter(|_| solved),
                    nearest: r.least.as_ref().map(|l| nearest_level(&nl.level, l)),
                };
                on_done(&row);
                rows.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(row);
            });
        }
    });
    let rows = rows
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    (rows, failure.into_inner().unwrap_or_else(|e| e.into_inner()))
}

/// Write the rows as CSV: `level, title, solved, moves, pushes, time_ms,
/// expanded, solution, status, found_by, note` (`status` as
/// [`SolveStatus::as_str`], so that a timeout, a node or memory limit and
/// a level proved unsolvable are told apart; the last three columns came
/// after the first eight, so readers by position are not moved).
pub fn write_csv(path: &PathBuf, rows: &[LevelRow]) -> Result<(), HarnessError> {
    let csv_err = |source| HarnessError::Csv {
        path: path.clone(),
        source,
    };
    create_parent(path)?;
    let mut w = csv::Writer::from_path(path).map_err(csv_err)?;
    w.write_record([
        "level", "title", "solved", "moves", "pushes", "time_ms", "expanded", "solution", "status",
        "found_by", "note",
    ])
    .map_err(csv_err)?;
    for r in rows {
        let solved = r.status == SolveStatus::Solved;
        w.write_record([
            r.number.to_string(),
            r.title.clone(),
            (solved as u8).to_string(),
            r.moves.to_string(),
            r.pushes.to_string(),
            format!("{:.1}", r.time_ms),
            r.expanded.to_string(),
            r.solution.clone(),
            r.status.as_str().to_string(),
            r.found_by.unwrap_or_default().to_string(),
            r.note.clone(),
        ])
        .map_err(csv_err)?;
    }
    w.flush().map_err(|e| HarnessError::io(path, e))
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A warning when `jobs` solves at a time, each with a memory budget of
/// `budget_mb` MiB ([`SolveOptions::max_memory_mb`]), could take more than
/// the machine's memory (`meminfo`: the text of `/proc/meminfo`; none when
/// it does not say).
fn memory_warning(jobs: usize, budget_mb: usize, meminfo: &str) -> Option<String> {
    let total_mb = kb_field(meminfo, "MemTotal")? / 1024;
    let want = (jobs as u64).saturating_mul(budget_mb as u64);
    (want > total_mb).then(|| {
        format!(
            "{jobs} jobs with a memory budget of {budget_mb} MB each could take {want} MB, \
             more than this machine's {total_mb} MB; lower --jobs or --param memory_mb"
        )
    })
}

/// The peak resident memory of this process so far in MB (`VmHWM` of
/// `/proc/self/status`, as `/usr/bin/time` reports it), if the system
/// says.
fn peak_rss_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    Some(kb_field(&status, "VmHWM")? / 1024)
}

/// The value of the line `KEY:   N kB` of a `/proc` file's `text`, in kB.
fn kb_field(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let rest = l.strip_prefix(key)?.strip_prefix(':')?.trim();
        rest.strip_suffix("kB")?.trim().parse().ok()
    })
}

/// [`memory_warning`] on this machine, printed to stderr.
fn warn_of_memory(jobs: usize, budget_mb: usize) {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    if let Some(w) = memory_warning(jobs, budget_mb, &meminfo) {
        eprintln!("warning: {w}");
    }
}

/// Progress over `len` levels: a bar when stderr is an interactive
/// terminal (and not CI), like `arena run`; elsewhere no count (`arena
/// solve sokoban` prints each level's line as it ends).
fn progress(len: usize, what: &str) -> crate::tty::Progress {
    let mode = match crate::tty::ProgressMode::for_stderr(false) {
        crate::tty::ProgressMode::Bar => crate::tty::ProgressMode::Bar,
        crate::tty::ProgressMode::Lines | crate::tty::ProgressMode::Silent => {
            crate::tty::ProgressMode::Silent
        }
    };
    let p = crate::tty::Progress::new(mode, len, "levels");
    p.set_message(what.to_string());
    p
}

/// The levels `arena solve sokoban` works on.
fn solve_targets(args: &SolveArgs) -> Result<Vec<NamedLevel>, HarnessError> {
    let file = args
        .levels
        .as_ref()
        .map(|f| f.to_string_lossy().into_owned());
    match (file, &args.level) {
        (Some(f), None) => resolve(&f, true),
        (Some(f), Some(n)) => {
            let all = resolve(&f, true)?;
            let count = all.len();
            let k = n
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&k| (1..=count).contains(&k));
            match k {
                Some(k) => Ok(vec![all[k - 1].clone()]),
                None => Err(HarnessError::Flag(format!(
                    "--level `{n}` with --levels {f}: expected a level number from 1 to {count}"
                ))),
            }
        }
        (None, Some(spec)) => resolve(spec, false),
        (None, None) => Err(HarnessError::Flag(
            "arena solve sokoban needs --levels FILE [--level N] or --level SPEC".into(),
        )),
    }
}

/// `arena solve sokoban`: solve every chosen level (see the module docs),
/// `--jobs` at a time (default: the number of cores), each within
/// `--time-limit`. Per level, stderr gets a line (label, title, outcome,
/// moves, pushes, expansions, time; the solver's note, and the search
/// that found the solution) and stdout the LURD solution or the outcome
/// word (`timeout`, `unsolvable`, `node-limit`, `memory-limit`,
/// `unsupported`), in level order; so with a single level the solution
/// is the last line of stdout. It warns when `--jobs` memory budgets
/// could pass the machine's memory. A summary line closes stderr. `--out`
/// writes the CSV table ([`write_csv`]).
/// Unsolved levels are outcomes, not errors (exit code 0).
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let name = args.agent.as_deref().unwrap_or(DEFAULT_AGENT);
    let opts = SolveOptions {
        nearest: args.nearest.is_some(),
        ..solver_options(name, &args.params)?
    };
    let levels = solve_targets(args)?;
    let jobs = args.jobs.unwrap_or_else(default_jobs).max(1);
    warn_of_memory(jobs.min(levels.len()), opts.max_memory_mb);
    let bar = progress(levels.len(), &format!("sokoban {name}"));
    let log = |r: &LevelRow| {
        let mut line = format!(
            "{} ({}): {}, moves {}, pushes {}, expanded {}, {name}, {:.1} ms",
            r.label,
            r.title,
            r.status.as_str(),
            r.moves,
            r.pushes,
            r.expanded,
            r.time_ms
        );
        if !r.note.is_empty() {
            line = format!("{line} ({})", r.note);
        }
        if let Some(by) = r.found_by {
            line = format!("{line}, found by {by}");
        }
        bar.println(line);
        bar.one_done();
    };
    let started = Instant::now();
    // A solver bug fails the run, after the tables are written.
    let (rows, failure) = solve_levels(&levels, &opts, args.time_limit, jobs, &log);
    bar.finish();
    let io = |e| HarnessError::io("<stdout>", e);
    for r in &rows {
        let line = if r.status == SolveStatus::Solved {
            r.solution.as_str()
        } else {
            r.status.as_str()
        };
        writeln!(out, "{line}").map_err(io)?;
    }
    let solved: Vec<&LevelRow> = rows
        .iter()
        .filter(|r| r.status == SolveStatus::Solved)
        .collect();
    let sum: f64 = rows.iter().map(|r| r.time_ms).sum();
    eprintln!(
        "{name}: solved {}/{} levels, {:.2} s solving in all, {:.2} s wall, {jobs} job(s), {} per level",
        solved.len(),
        rows.len(),
        sum / 1000.0,
        started.elapsed().as_secs_f64(),
        humantime::format_duration(args.time_limit)
    );
    // An agent of several searches: which found how many.
    if solved.iter().any(|r| r.found_by.is_some_and(|by| by != name)) {
        eprintln!("{name}: found by: {}", found_by_counts(&solved));
    }
    if let Some(path) = &args.out {
        write_csv(path, &rows)?;
    }
    if let Some(path) = &args.nearest {
        let near: Vec<Level> = rows.iter().filter_map(|r| r.nearest.clone()).collect();
        write_text(path, &print_levels(&near))?;
        // Out of time, states or memory (neither solved nor proved
        // unsolvable, nor beyond the solver).
        let open = rows
            .iter()
            .filter(|r| {
                !matches!(
                    r.status,
                    SolveStatus::Solved | SolveStatus::Unsolvable | SolveStatus::Unsupported
                )
            })
            .count();
        eprintln!(
            "{} nearest position(s) of the {open} level(s) left open written to {}",
            near.len(),
            path.display()
        );
        if near.len() < open {
            eprintln!(
                "  the other {}: every position tried was proved dead, or no forward search ran (a backward search has no position nearest the goals)",
                open - near.len()
            );
        }
    }
    failure.map_or(Ok(()), Err)
}

/// `arena bench sokoban --levels FILE --time-limit 10s -j 2`: the default
/// solver on every level of FILE (default: the shipped Microban), `-j` at a
/// time (default: the number of cores), each within the time limit (default
/// 10 s). Prints the solved count, the total solving time (sum over levels,
/// unsolved ones counted at the time they took), the wall time, the median
/// and maximum time of the solved levels, and every level not solved. A
/// solver bug (a panic, a solution that does not replay) fails the
/// command, after the table: the other levels' figures are not lost.
pub fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let opts = solver_options(DEFAULT_AGENT, &[])?;
    let solve = |level: &Level, timer: &AgentTimer| agents::sokoban::solve(level, &opts, timer);
    bench_with(args, out, &solve)
}

/// How many of `solved` each of the solver's searches found, most first
/// (`bidirectional 22, pre-pass 8, backward fess 5`), or `none`.
fn found_by_counts(solved: &[&LevelRow]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for by in solved.iter().filter_map(|r| r.found_by) {
        match counts.iter_mut().find(|(b, _)| *b == by) {
            Some((_, n)) => *n += 1,
            None => counts.push((by, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    match counts.is_empty() {
        true => "none".to_string(),
        false => (counts.iter())
            .map(|(b, n)| format!("{b} {n}"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// [`bench`] with the solver given as `solve`.
fn bench_with(
    args: &BenchArgs,
    out: &mut dyn Write,
    solve: &(dyn Fn(&Level, &AgentTimer) -> SolveResult + Sync),
) -> Result<(), HarnessError> {
    let file = args.levels.as_ref().map_or_else(
        || "microban".to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    let levels = resolve(&file, true)?;
    let limit = args.time_limit.unwrap_or(Duration::from_secs(10));
    let jobs = args.jobs.unwrap_or_else(default_jobs).max(1);
    warn_of_memory(jobs.min(levels.len()), SolveOptions::default().max_memory_mb);
    let bar = progress(levels.len(), &format!("bench sokoban {file}"));
    let tick = |_: &LevelRow| bar.one_done();
    let started = Instant::now();
    let (rows, failure) = solve_levels_with(&levels, limit, jobs, &tick, solve);
    let wall = started.elapsed().as_secs_f64();
    bar.finish();
    let io = |e| HarnessError::io("<stdout>", e);
    let solved: Vec<&LevelRow> = rows
        .iter()
        .filter(|r| r.status == SolveStatus::Solved)
        .collect();
    let sum: f64 = rows.iter().map(|r| r.time_ms).sum::<f64>() / 1000.0;
    let mut times: Vec<f64> = solved.iter().map(|r| r.time_ms).collect();
    let max = times.iter().cloned().fold(0.0, f64::max);
    let med = crate::stats::median(&mut times);
    writeln!(
        out,
        "sokoban solver `{DEFAULT_AGENT}` on {file}: {} levels, {} per level, {jobs} job(s)",
        rows.len(),
        humantime::format_duration(limit)
    )
    .map_err(io)?;
    writeln!(
        out,
        "solved {}/{}  total {sum:.2} s  wall {wall:.2} s  median {med:.1} ms  max {max:.1} ms (solved levels)",
        solved.len(),
        rows.len()
    )
    .map_err(io)?;
    writeln!(out, "found by: {}", found_by_counts(&solved)).map_err(io)?;
    if let Some(mb) = peak_rss_mb() {
        writeln!(out, "peak memory: {mb} MB (resident, all jobs)").map_err(io)?;
    }
    let failed: Vec<&LevelRow> = rows
        .iter()
        .filter(|r| r.status != SolveStatus::Solved)
        .collect();
    if failed.is_empty() {
        writeln!(out, "failures: none").map_err(io)?;
    } else {
        writeln!(out, "failures:").map_err(io)?;
        for r in failed {
            writeln!(
                out,
                "  level {} ({}): {} after {:.2} s, {} expanded",
                r.number,
                r.title,
                r.status.as_str(),
                r.time_ms / 1000.0,
                r.expanded
            )
            .map_err(io)?;
        }
    }
    // A solver bug fails the command once the table is out.
    failure.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_memory_counts_what_was_touched() {
        // 64 MB written: the peak is at least that (Linux reports it).
        let v = vec![1u8; 64 << 20];
        std::hint::black_box(&v);
        let peak = peak_rss_mb().expect("/proc/self/status has VmHWM");
        assert!(peak >= 64, "{peak} MB");
    }

    #[test]
    fn too_many_jobs_for_the_machine_s_memory_are_warned_of() {
        let meminfo = "MemTotal:       16384000 kB\nMemFree:         1000 kB\n";
        // 16,000 MB: three budgets of 4,096 fit, four do not.
        assert_eq!(memory_warning(3, 4096, meminfo), None);
        let w = memory_warning(4, 4096, meminfo).expect("a warning");
        assert!(w.contains("4 jobs") && w.contains("16384 MB") && w.contains("16000 MB"), "{w}");
        assert!(w.contains("--param memory_mb"), "{w}");
        // No MemTotal line: nothing to say.
        assert_eq!(memory_warning(64, 4096, "MemFree: 1 kB\n"), None);
    }

    #[test]
    fn a_solver_that_panics_on_one_level_fails_that_level_and_not_the_others() {
        // Three Microban levels, two jobs; the solver panics on the second.
        let levels: Vec<NamedLevel> = (1..=3)
            .flat_map(|n| resolve(&format!("microban:{n}"), false).expect("microban level"))
            .collect();
        let opts = SolveOptions::default();
        let solve = |level: &Level, timer: &AgentTimer| {
            assert!(level.index != 1, "a solver bug on the second level");
            agents::sokoban::solve(level, &opts, timer)
        };
        let done = Mutex::new(Vec::new());
        let on_done = |r: &LevelRow| done.lock().unwrap().push((r.number, r.status));
        let (rows, failure) =
            solve_levels_with(&levels, Duration::from_secs(10), 2, &on_done, &solve);
        let Some(HarnessError::CheckFailed(msg)) = failure else {
            panic!("a panic must fail the run: {failure:?}");
        };
        // Every level's row comes back, for the tables written before the
        // run fails.
        let statuses: Vec<SolveStatus> = rows.iter().map(|r| r.status).collect();
        assert_eq!(
            statuses,
            [SolveStatus::Solved, SolveStatus::Unsupported, SolveStatus::Solved]
        );
        assert!(rows[1].solution.is_empty());
        assert!(msg.contains("microban:2"), "{msg}");
        assert!(msg.contains("a solver bug on the second level"), "{msg}");
        let mut done = done.into_inner().unwrap();
        done.sort_by_key(|d| d.0);
        assert_eq!(
            done,
            vec![
                (1, SolveStatus::Solved),
                (2, SolveStatus::Unsupported),
                (3, SolveStatus::Solved)
            ]
        );
    }

    #[test]
    fn bench_prints_its_table_before_it_fails_on_a_solver_bug() {
        // Three Microban levels in a file; the solver panics on the second.
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("three.xsb");
        let three: Vec<Level> = (1..=3)
            .flat_map(|n| resolve(&format!("microban:{n}"), false).expect("microban level"))
            .map(|nl| nl.level)
            .collect();
        std::fs::write(&file, games::sokoban::print_levels(&three)).expect("write levels");
        let opts = SolveOptions::default();
        let solve = |level: &Level, timer: &AgentTimer| {
            assert!(level.index != 1, "a solver bug on the second level");
            agents::sokoban::solve(level, &opts, timer)
        };
        let args = BenchArgs {
            game: "sokoban".into(),
            seconds: 1.0,
            episodes: None,
            rounds: None,
            depth: None,
            levels: Some(file),
            time_limit: Some(Duration::from_secs(10)),
            jobs: Some(2),
        };
        let mut out = Vec::new();
        let result = bench_with(&args, &mut out, &solve);
        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.contains("solved 2/3"), "{text}");
        assert!(text.contains("level 2 ("), "{text}");
        let Err(HarnessError::CheckFailed(msg)) = result else {
            panic!("a solver bug must fail the bench: {result:?}");
        };
        assert!(msg.contains("a solver bug on the second level"), "{msg}");
    }
}
