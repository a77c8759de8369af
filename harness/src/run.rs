//! `arena run`: load a config, plan (the config's schedule), play (the
//! runner), and tell the reporters ([`crate::output::reporters`]).

use crate::config::{self, Clock, RunConfig};
use crate::error::HarnessError;
use crate::output::files::{file_reporters, table_reporters};
use crate::output::html::HtmlReport;
use crate::output::journal::JournalWriter;
use crate::output::meta::{MetaWriter, RunMeta};
use crate::output::reporters::tally::SprtMonitor;
use crate::output::reporters::{Event, Progress, Reporter, TerminalSummary};
use crate::output::resume::{self, Resume};
use crate::output::rows::{self, EpisodeRow, RunKeys};
use crate::play::runner::{EpisodeRecord, RunnerEvent};
/// How progress is shown; `run_config` takes it.
pub use crate::tty::ProgressMode;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first Ctrl-C (see [`install_interrupt_handler`]): no new
/// episodes start, running ones finish and are written, the summary is
/// written, and `arena` exits with [`crate::exit::INTERRUPTED`].
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Install the Ctrl-C handler (also for SIGTERM and SIGHUP): the first
/// signal stops the run gracefully (no new episode starts, running ones
/// finish and are journaled, the tables are written, exit code 130), a
/// second exits at once after killing every agent's process tree.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            // Kill every agent's process tree before leaving: nothing an
            // agent started may outlive arena.
            crate::external::supervise::containment::kill_all_agents();
            std::process::exit(crate::exit::INTERRUPTED);
        }
        eprintln!("\ninterrupted: finishing running episodes (Ctrl-C again to quit at once)");
    });
}

/// `arena run`.
#[allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena run configs/demo.toml\n  arena run configs/xiangqi-sprt.toml -j 2\n  \
arena run configs/demo.toml --seed 7 --out results/demo-seed7\n  \
arena run configs/demo.toml --restart\n  \
arena run configs/connect4.toml --shard 0/4 --out results/c4/shards/0\n\n\
The config keys are documented in configs/demo.toml and the README.\n\
Results go to results/<name>/ (episodes.csv, summary.csv, report.html ...) unless --out is given;\n\
rerunning the same command continues an interrupted run.\n\
With --shard K/N only part K of N of the plan is played (whole pairs; every machine computes \
the same split); `arena merge` puts the shards together, `arena slurm` writes a Slurm job array \
for them (docs/cluster.md)."
)]
pub struct RunArgs {
    /// The tournament config (TOML), e.g. configs/demo.toml.
    pub config: PathBuf,
    /// Output folder (default: results/<run name>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override the config's run name.
    #[arg(long)]
    pub name: Option<String>,
    /// Override the number of episodes played at once.
    #[arg(long, short = 'j')]
    pub concurrency: Option<usize>,
    /// Override the config's master seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Override the number of repetitions per level and lineup.
    #[arg(long)]
    pub repetitions: Option<u32>,
    /// No progress bar and no summary table on the terminal.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Continue the interrupted run in the results folder (the default
    /// when the folder holds a run of the same config); fail if there is none.
    #[arg(long, conflicts_with = "restart")]
    pub resume: bool,
    /// Clear what an earlier run wrote into the results folder and start over.
    #[arg(long)]
    pub restart: bool,
    /// Play even if an external agent fails its start-up check (each of its
    /// games then records the failure).
    #[arg(long)]
    pub allow_broken: bool,
    /// Play only shard K of N of the plan (K from 0 to N-1; whole pairs, the
    /// same split on every machine), into its own folder; `arena merge`
    /// puts the shards' folders together.
    #[arg(long, value_name = "K/N", value_parser = crate::play::schedule::Shard::parse)]
    pub shard: Option<crate::play::schedule::Shard>,
    /// Judge every agent by this clock instead of the config's: `wall`,
    /// `cpu` or `counted` (built-in agents only: a count of their looks at
    /// the timer, so that the same seed gives the same episodes on every
    /// machine). Part of the run's fingerprint.
    #[arg(long, value_name = "CLOCK")]
    pub clock: Option<crate::config::Clock>,
    /// Under the counted clock, what one look at the timer costs an agent
    /// (e.g. `20us`), instead of the config's `counted_step`. Part of the
    /// run's fingerprint.
    #[arg(long, value_name = "DURATION", value_parser = crate::play::timing::parse_duration)]
    pub counted_step: Option<std::time::Duration>,
}

/// What a finished run produced.
#[derive(Debug)]
pub struct RunOutput {
    /// Whether every planned episode was played (false after Ctrl-C, or
    /// when an SPRT decided early).
    pub complete: bool,
    /// Whether the run stopped early because its SPRT decided.
    pub sprt_stopped: bool,
    /// The folder the tables were written to.
    pub dir: PathBuf,
    /// Every episode row.
    pub rows: Vec<EpisodeRow>,
    /// The summary rows.
    pub summary: Vec<rows::SummaryRow>,
    /// The cross-table rows (two-player games).
    pub crosstable: Vec<rows::CrossRow>,
}

/// Apply the command-line overrides to a loaded config.
/// Apply the command-line overrides to a loaded config, checked as
/// strictly as the config's own keys (exit code 2 on a bad value).
pub fn apply_overrides(cfg: &mut RunConfig, args: &RunArgs) -> Result<(), HarnessError> {
    let bad = |msg: String| Err(HarnessError::Flag(msg));
    if let Some(n) = &args.name {
        if !config::is_plain_name(n) {
            return bad(format!("--name {n:?}: expected a plain folder name"));
        }
        cfg.name = n.clone();
    }
    if let Some(c) = args.concurrency {
        if !(1..=1024).contains(&c) {
            return bad(format!("--concurrency {c}: expected 1 to 1024"));
        }
        cfg.concurrency = c;
    }
    if let Some(s) = args.seed {
        cfg.seed = s;
    }
    if let Some(r) = args.repetitions {
        if r == 0 {
            return bad("--repetitions 0: expected 1 or more".into());
        }
        cfg.repetitions = r;
    }
    if let Some(shard) = args.shard {
        if cfg.sprt.is_some() {
            return bad(format!(
                "--shard {shard}: {} has an [sprt] section, and a sequential test decides \
                 as the games come in, on one machine; it cannot be split into shards",
                cfg.source.display()
            ));
        }
        cfg.shard = Some(shard);
    }
    if let Some(clock) = args.clock {
        cfg.time.clock = clock;
        for a in &mut cfg.agents {
            a.time.clock = clock;
        }
    }
    if let Some(step) = args.counted_step {
        if step.is_zero() {
            return bad("--counted-step 0: expected more than 0 ms".into());
        }
        if !cfg.agents.iter().any(|a| a.time.clock == Clock::Counted) {
            return bad(format!(
                "--counted-step: no agent of {} plays under the counted clock (add --clock counted)",
                cfg.source.display()
            ));
        }
        cfg.time.counted_step = step;
        for a in &mut cfg.agents {
            a.time.counted_step = step;
        }
    }
    if args.clock == Some(Clock::Counted) {
        let external = cfg
            .agents
            .iter()
            .enumerate()
            .find(|(_, a)| matches!(&a.kind, config::AgentKind::External(e) if !e.countable()));
        if let Some((i, a)) = external {
            return bad(format!(
                "--clock counted: {}",
                config::uncountable(&format!("agents[{i}]"), &a.label)
            ));
        }
    }
    Ok(())
}

/// `arena run`: play the tournament and write the tables (continuing the
/// run in the folder, if it is of the same config; see [`crate::output::resume`]).
pub fn run(args: &RunArgs, out: &mut dyn Write) -> Result<RunOutput, HarnessError> {
    let mut cfg = crate::registry::load_config(&args.config)?;
    apply_overrides(&mut cfg, args)?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&cfg.name));
    let mode = ProgressMode::for_stderr(args.quiet);
    // The machine first: can it sandbox the agents? (exit code 3)
    crate::external::supervise::canary::sandboxes(&cfg).map_err(HarnessError::Machine)?;
    if !args.allow_broken {
        preflight(&cfg)?;
    }
    let how = match (args.resume, args.restart) {
        (true, _) => Resume::Require,
        (_, true) => Resume::Restart,
        _ => Resume::Auto,
    };
    let mut reporters = file_reporters(&dir);
    if mode != ProgressMode::Silent {
        reporters.push(Box::new(Progress::new(mode)));
    }
    if !args.quiet {
        reporters.push(Box::new(TerminalEnd {
            out,
            dir: dir.clone(),
            played: false,
        }));
    }
    let result = run_with(&cfg, &dir, how, &mut reporters)?;
    if !result.complete && !result.sprt_stopped {
        let episodes: std::collections::BTreeSet<usize> =
            result.rows.iter().map(|r| r.episode).collect();
        return Err(HarnessError::Interrupted(format!(
            "interrupted: {} finished episodes kept in {}; run the same command again to continue",
            episodes.len(),
            result.dir.display()
        )));
    }
    Ok(result)
}

/// The end of a run on the terminal: the tables ([`TerminalSummary`]), or,
/// when every episode had finished before this command, one line that says so.
struct TerminalEnd<'w> {
    out: &'w mut dyn Write,
    dir: PathBuf,
    /// Whether an episode was played by this command (not read back).
    played: bool,
}

impl Reporter for TerminalEnd<'_> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        match event {
            Event::EpisodeFinished { resumed: false, .. } => self.played = true,
            Event::RunFinished {
                complete: true,
                planned,
                ..
            } if !self.played => {
                writeln!(
                    self.out,
                    "finished: {planned}/{planned} episodes, nothing to play; tables in {}",
                    self.dir.display()
                )
                .map_err(|e| HarnessError::io("<stdout>", e))?;
            }
            Event::RunFinished { .. } => {
                TerminalSummary::new(&mut *self.out, &self.dir).report(event)?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// Start every external agent once, for its set-up only, before playing:
/// an agent that cannot even say hello stops the run with exit code 2 and
/// what went wrong (its stderr), instead of a tournament of crashes
/// (`--allow-broken` plays anyway).
pub fn preflight(cfg: &RunConfig) -> Result<(), HarnessError> {
    let game = crate::registry::find(cfg.game)?;
    for (i, a) in cfg.agents.iter().enumerate() {
        if !matches!(a.kind, crate::config::AgentKind::External(_)) {
            continue;
        }
        game.probe(cfg, i).map_err(|why| {
            // An engine option it does not offer points at `options`.
            let key = if why.contains("options.") {
                format!("agents[{i}].options")
            } else {
                format!("agents[{i}].command")
            };
            HarnessError::Config(format!(
                "{}: agents[{i}] ({}) cannot start a game: {why} \
                 (check it with one game, or play anyway with --allow-broken)",
                config::key_position(&cfg.source, &key),
                a.label
            ))
        })?;
    }
    Ok(())
}

/// Play a resolved config and write every table into `dir` (no terminal
/// output; see [`run_with`] for other reporters). Continues the run of the
/// same config found in `dir`, if any.
pub fn run_config(
    cfg: &RunConfig,
    dir: &Path,
    mode: ProgressMode,
) -> Result<RunOutput, HarnessError> {
    let mut reporters = file_reporters(dir);
    if mode != ProgressMode::Silent {
        reporters.push(Box::new(Progress::new(mode)));
    }
    run_with(cfg, dir, Resume::Auto, &mut reporters)
}

/// Play a resolved config, telling `reporters` what happens (see
/// [`crate::output::reporters::Event`]); the journal (`journal.jsonl`) and
/// `meta.json` are always written. An earlier part of the same run in
/// `dir` is continued as `how` says: its episodes are told to the
/// reporters first (`resumed`), and only the others are played. External
/// agents' stderr logs go to `dir/logs`.
pub fn run_with(
    cfg: &RunConfig,
    dir: &Path,
    how: Resume,
    reporters: &mut Vec<Box<dyn Reporter + '_>>,
) -> Result<RunOutput, HarnessError> {
    let mut cfg_logs = cfg.clone();
    cfg_logs.log_dir = Some(dir.join("logs"));
    let cfg = &cfg_logs;
    let game = crate::registry::find(cfg.game)?;
    let players = game.players(&cfg.levels[0], cfg.seed)?;
    let plan = cfg
        .format
        .schedule()
        .plan(crate::play::schedule::PlanInput::from_config(cfg, players));
    let start = resume::prepare(cfg, dir, players, &plan, how)?;
    // A shard plays its part of the plan (episode indices unchanged).
    let episodes = match cfg.shard {
        Some(shard) => shard.part(&plan),
        None => plan.clone(),
    };
    let machine = (
        crate::output::meta::host_name(),
        crate::output::meta::cpu_model(),
    );
    std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(dir, e))?;
    // The journal first, then `meta.json`: an episode is on disk in the
    // journal before any table shows it, so a row a user has seen is
    // never replaced by a later part of the run.
    reporters.insert(0, Box::new(JournalWriter::new(dir, start.keep)));
    reporters.insert(1, Box::new(MetaWriter::new(dir, start.meta)));
    let sprt_stop = std::sync::Arc::new(AtomicBool::new(false));
    if let Some(sp) = &cfg.sprt {
        reporters.push(Box::new(SprtMonitor::new(cfg, sp, sprt_stop.clone())));
    }
    let keys = RunKeys::of(cfg);
    let mut failure: Option<HarnessError> = None;
    tell_all(
        reporters,
        &Event::RunPlanned {
            cfg,
            episodes: &episodes,
            players,
        },
        &mut failure,
    );
    let mut rows = tell_done(&keys, &start.done, reporters, &mut failure);
    tell_all(reporters, &Event::CaughtUp, &mut failure);
    let mut finished = vec![false; plan.len()];
    for record in &start.done {
        finished[record.episode.index] = true;
    }
    let todo: Vec<_> = episodes
        .iter()
        .filter(|e| !finished[e.index])
        .cloned()
        .collect();
    let stop = || INTERRUPTED.load(Ordering::Relaxed) || sprt_stop.load(Ordering::Relaxed);
    let played = if failure.is_some() || todo.is_empty() || stop() {
        Ok(())
    } else {
        game.play(cfg, &todo, &start.done, &stop, &mut |ev| match ev {
            RunnerEvent::Started(episode) => tell_all(
                reporters,
                &Event::EpisodeStarted { episode: &episode },
                &mut failure,
            ),
            RunnerEvent::CaughtUp => tell_all(reporters, &Event::CaughtUp, &mut failure),
            RunnerEvent::Replayed(episode, why) => tell_all(
                reporters,
                &Event::EpisodeReplayed {
                    episode: &episode,
                    why: &why,
                },
                &mut failure,
            ),
            RunnerEvent::Finished(mut record) => {
                record.host.clone_from(&machine.0);
                record.cpu_model.clone_from(&machine.1);
                let new_rows = rows::episode_rows(&keys, &record);
                tell_all(
                    reporters,
                    &Event::EpisodeFinished {
                        record: &record,
                        rows: &new_rows,
                        resumed: false,
                    },
                    &mut failure,
                );
                rows.extend(new_rows);
            }
        })
    };
    let planned_rows = episodes.iter().map(|e| e.seats.len()).sum::<usize>();
    let (summary, crosstable) = tell_finished(
        cfg,
        &keys,
        players,
        episodes.len(),
        planned_rows,
        &mut rows,
        reporters,
        &mut failure,
    );
    let complete = rows.len() == planned_rows;
    let sprt_stopped = !complete && sprt_stop.load(Ordering::Relaxed);
    if let Some(e) = failure {
        return Err(e);
    }
    played?;
    Ok(RunOutput {
        complete,
        sprt_stopped,
        dir: dir.to_path_buf(),
        rows,
        summary,
        crosstable,
    })
}

/// Tell `ev` to every reporter, in order. The first error is kept in
/// `failure` and stops the run; an episode that a reporter failed to
/// record (the journal, which comes first) is told to no later reporter.
fn tell_all(
    reporters: &mut [Box<dyn Reporter + '_>],
    ev: &Event<'_>,
    failure: &mut Option<HarnessError>,
) {
    for r in reporters.iter_mut() {
        if let Err(e) = r.report(ev) {
            if failure.is_none() {
                *failure = Some(e);
            }
            INTERRUPTED.store(true, Ordering::Relaxed);
            if matches!(ev, Event::EpisodeFinished { .. }) {
                return;
            }
        }
    }
}

/// Tell `reporters` the episodes of `done`, finished in an earlier part
/// of the run (read from its journal), as `resumed`; their rows.
fn tell_done(
    keys: &RunKeys,
    done: &[EpisodeRecord],
    reporters: &mut [Box<dyn Reporter + '_>],
    failure: &mut Option<HarnessError>,
) -> Vec<EpisodeRow> {
    let mut rows = Vec::new();
    for record in done {
        let new_rows = rows::episode_rows(keys, record);
        tell_all(
            reporters,
            &Event::EpisodeFinished {
                record,
                rows: &new_rows,
                resumed: true,
            },
            failure,
        );
        rows.extend(new_rows);
    }
    rows
}

/// The end of a run: sort `rows` (by episode and seat), tell `reporters`
/// [`Event::Cancelled`] when fewer than `planned_rows` rows finished, then
/// [`Event::RunFinished`] with the summary and the cross-table (returned).
#[allow(clippy::too_many_arguments)]
fn tell_finished(
    cfg: &RunConfig,
    keys: &RunKeys,
    players: usize,
    planned: usize,
    planned_rows: usize,
    rows: &mut [EpisodeRow],
    reporters: &mut [Box<dyn Reporter + '_>],
    failure: &mut Option<HarnessError>,
) -> (Vec<rows::SummaryRow>, Vec<rows::CrossRow>) {
    rows.sort_by_key(|r| (r.episode, r.seat));
    let complete = rows.len() == planned_rows;
    if !complete {
        tell_all(reporters, &Event::Cancelled, failure);
    }
    let summary = rows::summary(keys, rows);
    let crosstable = if players > 1 {
        rows::crosstable(keys, rows)
    } else {
        Vec::new()
    };
    tell_all(
        reporters,
        &Event::RunFinished {
            cfg,
            rows,
            summary: &summary,
            crosstable: &crosstable,
            planned,
            players,
            complete,
        },
        failure,
    );
    (summary, crosstable)
}

/// `arena summarize DIR`: write every table of a run (episodes, moves,
/// summary, cross-table, ratings) and its report again from its journal
/// and `meta.json` (e.g. after a crash, or to check the tables), through
/// the reporters of `arena run` ([`table_reporters`], then
/// [`HtmlReport`]): the journal's episodes are told to them as a resumed
/// run tells them. `replays.jsonl.gz`, `config.toml` and `meta.json` are
/// left as they are.
pub fn summarize(dir: &Path, out: &mut dyn Write) -> Result<(), HarnessError> {
    let meta = RunMeta::read(dir)?.ok_or_else(|| {
        HarnessError::ResultsFolder(format!(
            "{} holds no run of arena (no {})",
            dir.display(),
            crate::output::meta::FILE
        ))
    })?;
    let read = crate::output::journal::read(&dir.join(crate::output::journal::FILE))?;
    let mut seen = std::collections::HashSet::new();
    let done: Vec<EpisodeRecord> = read
        .records
        .into_iter()
        .filter(|r| seen.insert(r.episode.index))
        .collect();
    let cfg = meta.tables_config(dir)?;
    let keys = &meta.keys;
    writeln!(
        out,
        "{} on {}: {} of {} episodes ({}) -> {}",
        keys.name,
        keys.game,
        done.len(),
        meta.planned,
        meta.status,
        dir.display()
    )
    .map_err(|e| HarnessError::io("<stdout>", e))?;
    let mut reporters = table_reporters(dir);
    reporters.push(Box::new(HtmlReport::new(dir)));
    reporters.push(Box::new(TerminalSummary::new(&mut *out, dir).tables_only()));
    let mut failure = None;
    tell_all(
        &mut reporters,
        &Event::RunPlanned {
            cfg: &cfg,
            episodes: &[],
            players: meta.players,
        },
        &mut failure,
    );
    let mut rows = tell_done(keys, &done, &mut reporters, &mut failure);
    let planned_rows = meta.planned * meta.players;
    tell_finished(
        &cfg,
        keys,
        meta.players,
        meta.planned,
        planned_rows,
        &mut rows,
        &mut reporters,
        &mut failure,
    );
    failure.map_or(Ok(()), Err)
}
