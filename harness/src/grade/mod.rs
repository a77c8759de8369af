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
//!    (resumable like `arena run`), each in a run of their own
//!    (`OUT/games/<label>/`, the same seeds for every student whoever else
//!    is in the class): one-player games as a benchmark, two-player games
//!    against the opponents ([`Format::Versus`]). With `class_round_robin`
//!    the class then plays a round robin among itself in one more run
//!    (`OUT/class-games/`), counted only by `opponent = "class"` criteria.
//! 5. Their rows are scored ([`score`]) and written ([`output`]):
//!    `grades.csv`, `feedback/<id>.md`, `class-summary.md`, optionally
//!    Gradescope's `results.json`.
//!
//! Nothing a submission does stops the grading: every failure is a verdict.

pub mod assignment;
pub mod canary;
pub mod commands;
pub mod output;
pub mod progress;
pub mod pypkg;
pub mod score;
pub mod submission;

use crate::config::{AgentKind, AgentSpec, RunConfig};
use crate::error::HarnessError;
use crate::external::{BotzoneMode, EngineSettings, ExternalSpec, Protocol, ProtocolKind};
use crate::output::resume::Resume;
use crate::play::schedule::Format;
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
    /// How progress (games played) is shown.
    pub progress: progress::ProgressMode,
    /// `arena check`: the class round robin is not played and its criteria
    /// are reported as not checked.
    pub check: bool,
    /// Only the students of this shard (see [`student_shard`]).
    pub shard: Option<crate::play::schedule::Shard>,
}

/// The shard (of `n`) a student belongs to: a stable function of the id
/// alone, so that every machine agrees and adding a student moves nobody.
pub fn student_shard(id: &str, n: usize) -> usize {
    let h = u64::from_str_radix(&crate::digest::hash(id), 16).unwrap_or(0);
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
    /// The rows of every game against the assignment's opponents (or
    /// alone, one-player games).
    pub rows: Vec<crate::output::rows::EpisodeRow>,
    /// The rows of every class round robin game.
    pub class_rows: Vec<crate::output::rows::EpisodeRow>,
}

/// A stable pseudonym for `id` within `assignment`.
pub fn pseudonym(assignment: &str, id: &str) -> String {
    format!(
        "student-{}",
        &crate::digest::hash(&format!("{assignment}\0{id}"))[..8]
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
    let package = pypkg::PythonPackage::offered(g.sandbox).filter(|_| language == Some("python"));
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
    game: &dyn crate::registry::GameEntry,
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
        return Err(HarnessError::Flag(format!(
            "--submissions {}: not a folder (expected one subfolder per student)",
            opts.submissions.display()
        )));
    }
    let mut ids = students(&opts.submissions)?;
    if !opts.only.is_empty() {
        for o in &opts.only {
            if !ids.contains(o) {
                return Err(HarnessError::Flag(format!(
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
    let game = crate::registry::find(cfg.game)?;
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
    if let Some(j) = opts.jobs {
        cfg.concurrency = j;
    }
    let players = game.players(&cfg.levels[0], cfg.seed)?;
    let plan = plan_runs(&a, opts, &cfg, players, &playing)?;
    let t1 = std::time::Instant::now();
    let mut rows: Vec<crate::output::rows::EpisodeRow> = Vec::new();
    let mut class_rows: Vec<crate::output::rows::EpisodeRow> = Vec::new();
    let mut games = 0;
    if !playing.is_empty() {
        writeln!(out, "playing: {} submission(s)", playing.len()).ok();
        let total: usize = plan
            .students
            .iter()
            .chain(&plan.class)
            .map(|r| r.planned(players))
            .sum();
        let progress = std::sync::Arc::new(progress::Progress::new(
            opts.progress,
            total,
            progress::GAMES,
        ));
        let ticker = progress.ticking();
        // First every student's own run, `jobs` runs at once; then the
        // class round robin, `jobs` games at once.
        let mine = play(&plan.students, cfg.concurrency, &progress);
        let class = plan
            .class
            .as_ref()
            .map(|r| play(std::slice::from_ref(r), cfg.concurrency, &progress));
        drop(ticker);
        progress.finish();
        let class_slots = class.into_iter().flatten().map(|r| (r, true));
        for (slot, is_class) in mine.into_iter().map(|r| (r, false)).chain(class_slots) {
            // A run never started (Ctrl-C before its turn) or stopped early.
            let Some(result) = slot.transpose()?.filter(|r| r.complete) else {
                return Err(HarnessError::Interrupted(format!(
                    "interrupted: finished games are kept in {}; run the same command again to continue",
                    opts.out.display()
                )));
            };
            games += result
                .rows
                .iter()
                .map(|r| r.episode)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            if is_class {
                class_rows.extend(result.rows);
            } else {
                rows.extend(result.rows);
            }
        }
    }
    let play_seconds = t1.elapsed().as_secs_f64();
    let grades: Vec<StudentGrade> = prepared
        .iter()
        .map(|p| match &p.rejected {
            Some((v, d)) => score::grade_rejected(&p.id, &a.grading, v, d, plan.class_played),
            None => score::grade_played(
                &p.id,
                &a.grading,
                &seat_rows(&rows, &p.label),
                &seat_rows(&class_rows, &p.label),
                plan.class_played,
            ),
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
        class_rows,
    };
    output::write_all(&a, opts, &result)?;
    Ok(result)
}

/// The rows of `label`'s seat among `rows`.
pub fn seat_rows<'r>(
    rows: &'r [crate::output::rows::EpisodeRow],
    label: &str,
) -> Vec<&'r crate::output::rows::EpisodeRow> {
    rows.iter().filter(|r| r.agent == label).collect()
}

/// The folder (in the output folder) of the class round robin's run.
pub const CLASS_GAMES: &str = "class-games";

/// One run of the ordinary runner within a grading.
struct GradeRun {
    /// Its folder.
    dir: PathBuf,
    /// Its config.
    cfg: RunConfig,
    /// Whether it is played again from the start (a submission built anew).
    fresh: bool,
    /// Whether a run of another config in `dir` is replaced rather than
    /// refused (the class round robin, whose agents change with `--only`).
    replace: bool,
}

impl GradeRun {
    /// How many games its schedule plans.
    fn planned(&self, players: usize) -> usize {
        let c = &self.cfg;
        c.format
            .schedule()
            .plan(crate::play::schedule::PlanInput::from_config(c, players))
            .len()
    }
}

/// The runs of a grading.
struct RunPlan {
    /// One per student, in `games/<label>/`: the assignment's games, the
    /// student in seat list position 0 and the opponents after, so that
    /// every seed is the same whoever else is in the class.
    students: Vec<GradeRun>,
    /// The class round robin (`class_round_robin`, at least two students
    /// playing), in `class-games/`.
    class: Option<GradeRun>,
    /// Whether the class round robin's games count (`class_round_robin`,
    /// neither `arena check` nor a shard): else its criteria are unchecked.
    class_played: bool,
}

fn plan_runs(
    a: &Assignment,
    opts: &GradeOptions,
    cfg: &RunConfig,
    players: usize,
    playing: &[&Prepared],
) -> Result<RunPlan, HarnessError> {
    let opponents = &a.run.agents;
    let rr = a.grading.class_round_robin;
    let spec = |p: &Prepared| agent_spec(a, p, &work_dir(opts, &p.id));
    // A two-player assignment of class games only has no games of its own.
    let own_games = players == 1 || !opponents.is_empty() || !rr;
    let mut students = Vec::new();
    for p in playing.iter().filter(|_| own_games) {
        let mut c = cfg.clone();
        c.agents = std::iter::once(spec(p))
            .chain(opponents.iter().cloned())
            .collect();
        c.format = if players == 1 {
            Format::Benchmark
        } else {
            Format::Versus { challengers: 1 }
        };
        c.format
            .check(players, c.agents.len())
            .map_err(HarnessError::Config)?;
        students.push(GradeRun {
            dir: opts.out.join("games").join(&p.label),
            cfg: c,
            fresh: p.fresh,
            replace: false,
        });
    }
    let class_played = rr && !opts.check && opts.shard.is_none();
    let class = (class_played && playing.len() >= 2).then(|| {
        let mut c = cfg.clone();
        c.agents = playing.iter().map(|p| spec(p)).collect();
        c.format = Format::RoundRobin;
        GradeRun {
            dir: opts.out.join(CLASS_GAMES),
            cfg: c,
            fresh: playing.iter().any(|p| p.fresh),
            replace: true,
        }
    });
    Ok(RunPlan {
        students,
        class,
        class_played,
    })
}

/// Play `runs`, `jobs` at once (one game at a time each), or a single run
/// `jobs` games at once; every finished game is counted in `progress`.
/// `None` for a run not started (Ctrl-C before its turn).
#[allow(clippy::type_complexity)]
fn play(
    runs: &[GradeRun],
    jobs: usize,
    progress: &progress::Progress,
) -> Vec<Option<Result<crate::run::RunOutput, HarnessError>>> {
    let jobs = jobs.max(1);
    let parallel = runs.len() > 1;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Result<crate::run::RunOutput, HarnessError>>>> =
        runs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(runs.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(run) = runs.get(i) else {
                    break;
                };
                if crate::run::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                let mut c = run.cfg.clone();
                c.concurrency = if parallel { 1 } else { jobs };
                let go = |how: Resume| {
                    let mut reporters = crate::output::files::file_reporters(&run.dir);
                    reporters.push(Box::new(progress::GameCounter(progress)));
                    crate::run::run_with(&c, &run.dir, how, &mut reporters)
                };
                // A submission built anew (changed) replays its games.
                let r = match (
                    run.fresh,
                    go(if run.fresh {
                        Resume::Restart
                    } else {
                        Resume::Auto
                    }),
                ) {
                    (false, Err(HarnessError::ResultsFolder(_))) if run.replace => {
                        go(Resume::Restart)
                    }
                    (_, r) => r,
                };
                if let Ok(mut slot) = results[i].lock() {
                    *slot = Some(r);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|m| m.into_inner().ok().flatten())
        .collect()
}
