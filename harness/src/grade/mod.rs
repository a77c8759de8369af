//! `arena grade` and `arena check`: grade a folder of student submissions
//! against an assignment.
//!
//! 1. The assignment ([`assignment`]) is a run config whose `[[agents]]`
//!    are the opponents, plus a `[grading]` table.
//! 2. Each submission ([`submission`]) is detected, copied into the
//!    grader's folder (`OUT/work/<id>`) and built there, inside the sandbox.
//! 3. Every submission that built is started once (its handshake); those
//!    that cannot start get that failure as their verdict.
//! 4. The others play the assignment's games through the ordinary runner
//!    (`OUT/games/`, resumable like `arena run`): one-player games as a
//!    benchmark, two-player games against the opponents ([`Format::Versus`]).
//! 5. Their rows are scored ([`score`]) and written ([`output`]):
//!    `grades.csv`, `feedback/<id>.md`, `class-summary.md`, optionally
//!    Gradescope's `results.json`.
//!
//! Nothing a submission does stops the grading: every failure is a verdict.

pub mod assignment;
pub mod canary;
pub mod commands;
pub mod output;
pub mod pypkg;
pub mod score;
pub mod submission;

use crate::config::{AgentKind, AgentSpec, RunConfig};
use crate::error::HarnessError;
use crate::external::{BotzoneMode, EngineSettings, ExternalSpec, Protocol, ProtocolKind};
use crate::resume::Resume;
use crate::schedule::Format;
use assignment::{Assignment, Grading};
use score::StudentGrade;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `arena grade` (and `arena check`) is asked to do.
#[derive(Clone, Debug)]
pub struct GradeOptions {
    /// The assignment file.
    pub assignment: PathBuf,
    /// The folder with one subfolder per student.
    pub submissions: PathBuf,
    /// Only these students (folder names); all when empty.
    pub only: Vec<String>,
    /// The output folder.
    pub out: PathBuf,
    /// Games played at once (default: the assignment's concurrency).
    pub jobs: Option<usize>,
    /// Label students by stable pseudonyms in the shareable outputs.
    pub anonymize: bool,
    /// Also write Gradescope's `results.json` per student.
    pub gradescope: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// Only the students of this shard (see [`student_shard`]).
    pub shard: Option<crate::schedule::Shard>,
}

/// The shard (of `n`) a student belongs to: a stable function of the id
/// alone, so that every machine agrees and adding a student moves nobody.
pub fn student_shard(id: &str, n: usize) -> usize {
    let h = u64::from_str_radix(&crate::meta::hash(id), 16).unwrap_or(0);
    (h % n.max(1) as u64) as usize
}

/// The state of one submission before any game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Prepared {
    /// The student id (folder name).
    pub id: String,
    /// The label in the game tables (the id, or a pseudonym).
    pub label: String,
    /// Language, build and run commands, if detected.
    pub language: Option<String>,
    /// How the layout was detected.
    pub detected: Option<String>,
    /// The build command, if any.
    pub build: Option<String>,
    /// The run command.
    pub run: Vec<String>,
    /// Environment variables of the run command.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    /// The pre-game verdict (`no-entry`, `build-failed`, a start-up
    /// failure's outcome ...), if the submission cannot play.
    pub rejected: Option<(String, String)>,
    /// The submission's digest (a changed submission is built again).
    pub digest: String,
    /// Build seconds (0 when none).
    pub build_seconds: f64,
    /// Whether it was copied and built by this invocation (not reused):
    /// its earlier games, if any, are replayed.
    #[serde(skip)]
    pub fresh: bool,
}

/// The result of grading a class.
#[derive(Debug)]
pub struct ClassResult {
    /// One grade per student, in id order.
    pub grades: Vec<StudentGrade>,
    /// What was prepared per student.
    pub prepared: Vec<Prepared>,
    /// The output folder.
    pub dir: PathBuf,
    /// Seconds spent building and starting submissions.
    pub prepare_seconds: f64,
    /// Seconds spent playing.
    pub play_seconds: f64,
    /// Games played.
    pub games: usize,
    /// Every game's rows.
    pub rows: Vec<crate::report::EpisodeRow>,
}

/// A stable pseudonym for `id` within `assignment`.
pub fn pseudonym(assignment: &str, id: &str) -> String {
    format!(
        "student-{}",
        &crate::meta::hash(&format!("{assignment}\0{id}"))[..8]
    )
}

fn protocol_of(kind: ProtocolKind) -> Protocol {
    match kind {
        ProtocolKind::Jsonl => Protocol::Jsonl,
        ProtocolKind::Botzone => Protocol::Botzone {
            mode: BotzoneMode::default(),
        },
        ProtocolKind::Uci => Protocol::Uci(EngineSettings::default()),
        ProtocolKind::Ucci => Protocol::Ucci(EngineSettings::default()),
    }
}

/// The students: subfolders of `dir` (hidden ones skipped), in name order.
pub fn students(dir: &Path) -> Result<Vec<String>, HarnessError> {
    let rd = std::fs::read_dir(dir).map_err(|e| HarnessError::io(dir, e))?;
    let mut ids: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    ids.sort();
    Ok(ids)
}

fn agent_spec(a: &Assignment, p: &Prepared, workdir: &Path) -> AgentSpec {
    AgentSpec {
        label: p.label.clone(),
        kind: AgentKind::External(submission_spec(
            a,
            p.language.as_deref(),
            &p.run,
            &p.env,
            workdir,
        )),
        time: a.run.time,
    }
}

/// How a submission of `language` with command `run` and environment `env`
/// runs from `workdir`: the assignment's protocol, sandbox and limits; a
/// Python submission also sees the `arena` package ([`pypkg`]), when the
/// grader has one.
pub fn submission_spec(
    a: &Assignment,
    language: Option<&str>,
    run: &[String],
    env: &[(String, String)],
    workdir: &Path,
) -> ExternalSpec {
    let g = &a.grading;
    let package = pypkg::PythonPackage::cached().filter(|_| language == Some("python"));
    ExternalSpec {
        command: run.to_vec(),
        protocol: protocol_of(g.protocol),
        workdir: workdir.to_path_buf(),
        sandbox: g.sandbox,
        limits: g.limits,
        env: match package {
            Some(p) => pypkg::with_pythonpath(env, &p.pythonpath(g.sandbox)),
            None => env.to_vec(),
        },
        writable_workdir: false,
        mounts: package.map(|p| p.mount()).into_iter().collect(),
    }
}

/// Detect, copy and build one submission (reusing an earlier build of the
/// same content).
fn prepare(a: &Assignment, opts: &GradeOptions, id: &str) -> Prepared {
    let g: &Grading = &a.grading;
    let src = opts.submissions.join(id);
    let label = if opts.anonymize {
        pseudonym(&a.run.name, id)
    } else {
        id.to_string()
    };
    let digest = submission::digest(&src);
    let mut p = Prepared {
        id: id.into(),
        label,
        language: None,
        detected: None,
        build: None,
        run: Vec::new(),
        env: Vec::new(),
        rejected: None,
        digest,
        build_seconds: 0.0,
        fresh: true,
    };
    let plan = match submission::detect(&src, g) {
        Ok(plan) => plan,
        Err(r) => {
            p.rejected = Some((r.verdict.into(), r.detail));
            return p;
        }
    };
    p.language = Some(plan.language.clone());
    p.detected = Some(plan.detected.clone());
    p.build = plan.build.clone();
    p.run = plan.run.clone();
    p.env = plan.env.clone();
    let builds = opts.out.join("builds");
    let cache = builds.join(format!("{id}.json"));
    let work = opts.out.join("work").join(id);
    if let Some(old) = std::fs::read_to_string(&cache)
        .ok()
        .and_then(|t| serde_json::from_str::<Prepared>(&t).ok())
    {
        let same_plan = old.run == p.run && old.env == p.env && old.build == p.build;
        if old.digest == p.digest && same_plan && work.is_dir() {
            return Prepared {
                label: p.label,
                ..old
            };
        }
    }
    if let Err(e) =
        std::fs::create_dir_all(&builds).and_then(|_| submission::copy_tree(&src, &work))
    {
        p.rejected = Some(("bad-submission".into(), format!("could not copy it: {e}")));
        return p;
    }
    if let Some(cmd) = &plan.build {
        let log = builds.join(format!("{id}.log"));
        let built = submission::build(cmd, &work, g, &log);
        p.build_seconds = built.seconds;
        if !built.ok {
            p.rejected = Some(("build-failed".into(), built.detail));
        }
    }
    if let Ok(t) = serde_json::to_string_pretty(&p) {
        let _ = std::fs::write(&cache, t);
    }
    p
}

/// Prepare one submission, then start it once: one that cannot say hello
/// gets that failure as its verdict instead of a tournament of crashes.
fn prepare_and_start(
    a: &Assignment,
    opts: &GradeOptions,
    id: &str,
    game: &dyn crate::games::GameEntry,
) -> Prepared {
    let mut p = prepare(a, opts, id);
    if p.rejected.is_some() {
        return p;
    }
    let spec = agent_spec(a, &p, &work_dir(opts, &p.id));
    if let AgentKind::External(x) = &spec.kind {
        if let Err(e) = crate::external::validate(x) {
            p.rejected = Some(("spawn-failed".into(), e));
            return p;
        }
    }
    let mut probe_cfg = a.run.clone();
    probe_cfg.agents = vec![spec];
    probe_cfg.log_dir = Some(opts.out.join("builds").join("start"));
    if let Err(why) = game.probe(&probe_cfg, 0) {
        let (outcome, detail) = why.split_once(": ").unwrap_or(("crash", &why));
        p.rejected = Some((
            outcome.to_string(),
            format!("it could not start a game: {detail}"),
        ));
    }
    p
}

/// A submission's built copy (absolute).
fn work_dir(opts: &GradeOptions, id: &str) -> PathBuf {
    let w = opts.out.join("work").join(id);
    std::fs::canonicalize(&w).unwrap_or(w)
}

/// Grade the class (or the students of `opts.only`), writing every output
/// into `opts.out`; progress and the class summary go to `out`.
pub fn grade(opts: &GradeOptions, out: &mut dyn Write) -> Result<ClassResult, HarnessError> {
    let a = assignment::load(&opts.assignment)?;
    if a.weak_sandbox {
        writeln!(
            out,
            "warning: grading.sandbox = \"{}\": submissions can read other folders and use the \
             network; use the default \"bwrap\" for real grading",
            a.grading.sandbox.as_str()
        )
        .ok();
    }
    if !opts.submissions.is_dir() {
        return Err(HarnessError::Config(format!(
            "--submissions {}: not a folder (expected one subfolder per student)",
            opts.submissions.display()
        )));
    }
    let mut ids = students(&opts.submissions)?;
    if !opts.only.is_empty() {
        for o in &opts.only {
            if !ids.contains(o) {
                return Err(HarnessError::Config(format!(
                    "{}: no submission folder `{o}`",
                    opts.submissions.display()
                )));
            }
        }
        ids.retain(|i| opts.only.contains(i));
    }
    if let Some(sh) = opts.shard {
        ids.retain(|i| student_shard(i, sh.n) == sh.k);
    }
    if let Some(clash) = ids
        .iter()
        .find(|i| a.run.agents.iter().any(|o| &o.label == *i))
    {
        return Err(HarnessError::Config(format!(
            "student `{clash}` has the name of an opponent; rename the opponent (`name = ...`)"
        )));
    }
    std::fs::create_dir_all(&opts.out).map_err(|e| HarnessError::io(&opts.out, e))?;
    // Absolute paths: sandboxes bind folders by absolute path.
    let opts = &GradeOptions {
        out: std::fs::canonicalize(&opts.out).map_err(|e| HarnessError::io(&opts.out, e))?,
        submissions: std::fs::canonicalize(&opts.submissions)
            .map_err(|e| HarnessError::io(&opts.submissions, e))?,
        ..opts.clone()
    };
    let t0 = std::time::Instant::now();
    // Before any student code: the languages of this class, built and run
    // as a trivial program in the class's sandbox, limits and folders.
    canary::check(&a, opts, &ids, out)?;
    writeln!(out, "preparing {} submission(s)", ids.len()).ok();
    let mut cfg: RunConfig = a.run.clone();
    let opponents = cfg.agents.clone();
    let game = crate::games::find(cfg.game)?;
    // Prepare (copy, build, start-up check) `jobs` submissions at once.
    let jobs = opts.jobs.unwrap_or(cfg.concurrency).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Prepared>>> =
        ids.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(ids.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(id) = ids.get(i) else { break };
                let p = prepare_and_start(&a, opts, id, game);
                if let Ok(mut slot) = slots[i].lock() {
                    *slot = Some(p);
                }
            });
        }
    });
    let prepared: Vec<Prepared> = slots
        .into_iter()
        .filter_map(|s| s.into_inner().ok().flatten())
        .collect();
    for p in &prepared {
        let how = match (&p.rejected, &p.language) {
            (Some((v, _)), _) => v.clone(),
            (None, Some(l)) => format!("{l} ({})", p.detected.clone().unwrap_or_default()),
            _ => String::new(),
        };
        writeln!(out, "  {}: {how}", p.id).ok();
    }
    canary::uniform_failure(&prepared, opts)?;
    let playing: Vec<&Prepared> = prepared.iter().filter(|p| p.rejected.is_none()).collect();
    let prepare_seconds = t0.elapsed().as_secs_f64();
    cfg.agents = playing
        .iter()
        .map(|p| agent_spec(&a, p, &work_dir(opts, &p.id)))
        .chain(opponents.iter().cloned())
        .collect();
    let players = game.players(&cfg.levels[0], cfg.seed)?;
    cfg.format = if players == 1 {
        Format::Benchmark
    } else if a.grading.class_round_robin {
        Format::RoundRobin
    } else {
        Format::Versus {
            challengers: playing.len(),
        }
    };
    if let Some(j) = opts.jobs {
        cfg.concurrency = j;
    }
    let games_root = opts.out.join("games");
    let t1 = std::time::Instant::now();
    let mut rows: Vec<crate::report::EpisodeRow> = Vec::new();
    let mut games = 0;
    if !playing.is_empty() {
        cfg.format
            .check(players, cfg.agents.len())
            .map_err(HarnessError::Config)?;
        writeln!(out, "playing: {} submission(s)", playing.len()).ok();
        // One run per student (games/<label>/), so that a changed
        // submission replays only its own games and an interrupted grading
        // continues where it stopped; the whole class in one run when it
        // plays a round robin among itself.
        let runs: Vec<(PathBuf, RunConfig, bool)> = if a.grading.class_round_robin {
            let fresh = playing.iter().any(|p| p.fresh);
            vec![(games_root.join("class"), cfg.clone(), fresh)]
        } else {
            playing
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let mut c = cfg.clone();
                    c.agents = std::iter::once(cfg.agents[i].clone())
                        .chain(opponents.iter().cloned())
                        .collect();
                    if let Format::Versus { .. } = c.format {
                        c.format = Format::Versus { challengers: 1 };
                    }
                    (games_root.join(&p.label), c, p.fresh)
                })
                .collect()
        };
        // Students' runs in parallel, one game at a time each, `jobs` at
        // once (a class round robin: one run, `jobs` games at once).
        let jobs = cfg.concurrency.max(1);
        let parallel = runs.len() > 1;
        let bar = opts.progress.then(|| {
            let b = indicatif::ProgressBar::new(runs.len() as u64);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} submissions played, {elapsed} (ETA {eta})",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b
        });
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<std::sync::Mutex<Option<Result<crate::run::RunOutput, HarnessError>>>> =
            runs.iter().map(|_| std::sync::Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..jobs.min(runs.len()) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some((dir, c, fresh)) = runs.get(i) else {
                        break;
                    };
                    if crate::run::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    let mut c = c.clone();
                    if parallel {
                        c.concurrency = 1;
                    }
                    let mut reporters = crate::run::file_reporters(dir);
                    // A submission built anew (changed) replays its games.
                    let how = if *fresh {
                        Resume::Restart
                    } else {
                        Resume::Auto
                    };
                    let r = crate::run::run_with(&c, dir, how, &mut reporters);
                    if let Ok(mut slot) = results[i].lock() {
                        *slot = Some(r);
                    }
                    if let Some(b) = &bar {
                        b.inc(1);
                    }
                });
            }
        });
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        for slot in results {
            // A run never started (Ctrl-C before its turn) or stopped early.
            let result = match slot.into_inner().ok().flatten() {
                Some(r) => Some(r?).filter(|r| r.complete),
                None => None,
            };
            let Some(result) = result else {
                return Err(HarnessError::Interrupted(format!(
                    "interrupted: finished games are kept in {}; run the same command again to continue",
                    games_root.display()
                )));
            };
            games += result
                .rows
                .iter()
                .map(|r| r.episode)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            rows.extend(result.rows);
        }
    }
    let play_seconds = t1.elapsed().as_secs_f64();
    let grades: Vec<StudentGrade> = prepared
        .iter()
        .map(|p| match &p.rejected {
            Some((v, d)) => score::grade_rejected(&p.id, &a.grading, v, d),
            None => {
                let mine: Vec<&crate::report::EpisodeRow> =
                    rows.iter().filter(|r| r.agent == p.label).collect();
                score::grade_played(&p.id, &a.grading, &mine)
            }
        })
        .collect();
    let result = ClassResult {
        grades,
        prepared,
        dir: opts.out.clone(),
        prepare_seconds,
        play_seconds,
        games,
        rows,
    };
    output::write_all(&a, opts, &result, &result.rows)?;
    Ok(result)
}
