//! `arena bench harness`: the harness's own cost per episode and per act.
//!
//! Plays N episodes of random against random Connect Four with every
//! default output on (journal, `meta.json`, CSV tables, moves, replays,
//! `report.html`) into a temporary folder, the way `arena run` does, and
//! prints episodes/s and acts/s; then the same number of episodes played by
//! the runner alone (no reporter: what the play loop costs); then the peer,
//! OpenSpiel's `evaluate_bots` loop (`harness/benches/openspiel_peer.py`)
//! writing one CSV row per episode, and the ratio of the two.
//!
//! The peer runs in the Python of `target/bench-venv` (made with `python3
//! -m venv` and `pip install open_spiel` when missing), or the one named by
//! `ARENA_BENCH_PYTHON`. When it cannot be had the benchmark says so; under
//! `CI=true` that is an error.

use crate::error::HarnessError;
use crate::output::files::file_reporters;
use crate::output::reporters::{Event, Reporter};
use crate::output::resume::Resume;
use crate::play::runner::RunnerEvent;
use crate::registry::args::BenchArgs;
use crate::run::run_with;
use crate::stats::median;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The peer's script, written next to its CSV when the benchmark runs.
const PEER_SCRIPT: &str = include_str!("../../benches/openspiel_peer.py");

/// Episodes played when `--episodes` is not given.
pub const DEFAULT_EPISODES: usize = 10_000;

/// The config of the benchmark: random against random, `episodes / 2`
/// repetitions of the two seatings (at least one), `jobs` at once (0: the
/// default concurrency).
pub fn config_text(episodes: usize, jobs: usize) -> String {
    format!(
        "name = \"bench-harness\"\ngame = \"connect4\"\nrepetitions = {}\nseed = 1\n\
         concurrency = {jobs}\n\
         [[agents]]\nagent = \"random\"\nname = \"random-a\"\n\
         [[agents]]\nagent = \"random\"\nname = \"random-b\"\n",
        episodes.div_ceil(2).max(1)
    )
    .replace("concurrency = 0\n", "")
}

/// Counts the acts of the episodes played.
#[derive(Default)]
struct CountActs {
    acts: usize,
    episodes: usize,
}

/// The reporter that counts into a [`CountActs`].
struct Counting<'c>(&'c mut CountActs);

impl Reporter for Counting<'_> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        if let Event::EpisodeFinished {
            record,
            resumed: false,
            ..
        } = event
        {
            self.0.episodes += 1;
            self.0.acts += record.seats.iter().map(|s| s.act_ms.len()).sum::<usize>();
        }
        Ok(())
    }
}

/// One measured loop.
#[derive(Debug, Clone, Copy)]
pub struct Figure {
    /// Episodes played.
    pub episodes: usize,
    /// Acts asked of the agents.
    pub acts: usize,
    /// Wall time of the loop.
    pub seconds: f64,
}

impl Figure {
    /// Episodes per second.
    pub fn episodes_per_s(&self) -> f64 {
        self.episodes as f64 / self.seconds.max(1e-9)
    }
    /// Acts per second.
    pub fn acts_per_s(&self) -> f64 {
        self.acts as f64 / self.seconds.max(1e-9)
    }
}

/// Play `episodes` with every default output into `dir/results` (its
/// config written to `dir/bench.toml` first, as `arena run` reads one).
pub fn with_outputs(episodes: usize, jobs: usize, dir: &Path) -> Result<Figure, HarnessError> {
    let source = dir.join("bench.toml");
    crate::error::write_text(&source, &config_text(episodes, jobs))?;
    let cfg = crate::registry::load_config(&source)?;
    let dir = &dir.join("results");
    let start = Instant::now();
    let mut count = CountActs::default();
    {
        let mut reporters = file_reporters(dir);
        reporters.push(Box::new(Counting(&mut count)));
        run_with(&cfg, dir, Resume::Restart, &mut reporters)?;
    }
    Ok(Figure {
        episodes: count.episodes,
        acts: count.acts,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Play `episodes` with the runner alone (no reporter, no file).
pub fn play_only(episodes: usize, jobs: usize) -> Result<Figure, HarnessError> {
    let cfg = crate::registry::parse_config(
        &config_text(episodes, jobs),
        Path::new("bench-harness.toml"),
    )?;
    let game = crate::registry::find(cfg.game)?;
    let players = game.players(&cfg.levels[0], cfg.seed)?;
    let plan = cfg
        .format
        .schedule()
        .plan(crate::play::schedule::PlanInput::from_config(&cfg, players));
    let (mut n, mut acts) = (0usize, 0usize);
    let start = Instant::now();
    game.play(&cfg, &plan, &[], &|| false, &mut |ev| {
        if let RunnerEvent::Finished(rec) = ev {
            n += 1;
            acts += rec.seats.iter().map(|s| s.act_ms.len()).sum::<usize>();
        }
    })?;
    Ok(Figure {
        episodes: n,
        acts,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The Python that runs the peer: `ARENA_BENCH_PYTHON`, else the venv
/// under the workspace's `target/`.
fn peer_python() -> PathBuf {
    match std::env::var_os("ARENA_BENCH_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => venv_dir().join("bin").join("python3"),
    }
}

fn venv_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("bench-venv")
}

/// Whether `python` imports OpenSpiel.
fn has_open_spiel(python: &Path) -> bool {
    Command::new(python)
        .args([
            "-c",
            "import pyspiel, open_spiel.python.algorithms.evaluate_bots",
        ])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A Python with OpenSpiel, installing it into the venv when missing; why
/// not, when it cannot be had.
fn ensure_peer(out: &mut dyn Write) -> Result<PathBuf, String> {
    let python = peer_python();
    if has_open_spiel(&python) {
        return Ok(python);
    }
    if std::env::var_os("ARENA_BENCH_PYTHON").is_some() {
        return Err(format!("{} cannot import open_spiel", python.display()));
    }
    let venv = venv_dir();
    let _ = writeln!(
        out,
        "peer: installing open_spiel into {} (python3 -m venv, pip install open_spiel)",
        venv.display()
    );
    let run = |cmd: &mut Command| -> Result<(), String> {
        let o = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
        if o.status.success() {
            Ok(())
        } else {
            let err = String::from_utf8_lossy(&o.stderr);
            let tail: Vec<&str> = err.lines().rev().take(5).collect();
            Err(format!(
                "{cmd:?} failed: {}",
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            ))
        }
    };
    if !python.exists() {
        run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
    }
    run(Command::new(venv.join("bin").join("pip")).args(["install", "-q", "open_spiel"]))?;
    if has_open_spiel(&python) {
        Ok(python)
    } else {
        Err(format!(
            "{} still cannot import open_spiel",
            python.display()
        ))
    }
}

/// Run the peer for `episodes` in `dir`.
fn peer(python: &Path, episodes: usize, dir: &Path) -> Result<Figure, String> {
    let script = dir.join("openspiel_peer.py");
    std::fs::write(&script, PEER_SCRIPT).map_err(|e| format!("{}: {e}", script.display()))?;
    let o = Command::new(python)
        .arg(&script)
        .arg(episodes.to_string())
        .arg(dir.join("openspiel.csv"))
        .arg("1")
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !o.status.success() {
        return Err(format!(
            "the peer failed: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    let line = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(line.trim())
        .map_err(|e| format!("the peer printed `{}`: {e}", line.trim()))?;
    let get = |k: &str| v.get(k).and_then(serde_json::Value::as_f64);
    match (get("episodes"), get("acts"), get("seconds")) {
        (Some(e), Some(a), Some(s)) => Ok(Figure {
            episodes: e as usize,
            acts: a as usize,
            seconds: s,
        }),
        _ => Err(format!("the peer printed `{}`", line.trim())),
    }
}

fn line(out: &mut dyn Write, what: &str, f: &Figure) -> Result<(), HarnessError> {
    writeln!(
        out,
        "{what:<34} {:>7} episodes {:>9} acts {:>8.2} s {:>10.0} episodes/s {:>11.0} acts/s",
        f.episodes,
        f.acts,
        f.seconds,
        f.episodes_per_s(),
        f.acts_per_s()
    )
    .map_err(|e| HarnessError::io("<stdout>", e))
}

/// A temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<Self, HarnessError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or(Duration::ZERO)
            .subsec_nanos();
        let p = std::env::temp_dir().join(format!(
            "arena-bench-harness-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&p).map_err(|e| HarnessError::io(&p, e))?;
        Ok(TempDir(p))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `arena bench harness`: `--rounds` rounds (default 1) of arena with every
/// output, the runner alone and the peer, in turn, each printed; with more
/// than one, the medians of the three and of the round's ratios.
pub fn run(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let episodes = args.episodes.unwrap_or(DEFAULT_EPISODES).max(1);
    let jobs = args.jobs.unwrap_or(0);
    let rounds = args.rounds.unwrap_or(1).max(1);
    let io = |e| HarnessError::io("<stdout>", e);
    // The peer's Python, looked for (and installed) once.
    let mut python: Option<Result<PathBuf, String>> = None;
    let (mut arenas, mut bares) = (Vec::new(), Vec::new());
    let (mut peers, mut ratios) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        if rounds > 1 {
            writeln!(out, "round {round} of {rounds}").map_err(io)?;
        }
        let tmp = TempDir::new()?;
        let arena = with_outputs(episodes, jobs, &tmp.0)?;
        line(out, "arena, every default output", &arena)?;
        let bare = play_only(episodes, jobs)?;
        line(out, "arena, runner alone (no output)", &bare)?;
        arenas.push(arena.episodes_per_s());
        bares.push(bare.episodes_per_s());
        let py = python.get_or_insert_with(|| ensure_peer(out)).clone();
        match py.and_then(|py| peer(&py, episodes, &tmp.0)) {
            Ok(p) => {
                line(out, "OpenSpiel evaluate_bots + CSV row", &p)?;
                let ratio = arena.episodes_per_s() / p.episodes_per_s();
                writeln!(
                    out,
                    "ratio arena / OpenSpiel: {ratio:.2}x episodes/s (runner alone {:.2}x)",
                    bare.episodes_per_s() / p.episodes_per_s()
                )
                .map_err(io)?;
                peers.push(p.episodes_per_s());
                ratios.push(ratio);
            }
            Err(why) => {
                writeln!(out, "peer: OpenSpiel not available: {why}").map_err(io)?;
                if std::env::var_os("CI").is_some_and(|v| v == "true") {
                    return Err(HarnessError::Machine(format!(
                        "arena bench harness: OpenSpiel not available: {why}"
                    )));
                }
            }
        }
    }
    if rounds > 1 {
        write!(
            out,
            "median of {} rounds: arena {:.0} episodes/s, runner alone {:.0}/s",
            arenas.len(),
            median(&mut arenas),
            median(&mut bares)
        )
        .map_err(io)?;
        if !ratios.is_empty() {
            write!(
                out,
                ", OpenSpiel {:.0}/s; ratio {:.2}x",
                median(&mut peers),
                median(&mut ratios)
            )
            .map_err(io)?;
        }
        writeln!(out).map_err(io)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_benchmark_plays_what_it_counts_with_every_output_written() {
        let dir = tempfile::tempdir().unwrap();
        let f = with_outputs(6, 1, dir.path()).unwrap();
        assert_eq!(f.episodes, 6);
        // Connect Four: at least 7 acts a game (4 by the winner, 3 by the
        // loser), one act a tick.
        assert!(f.acts >= 6 * 7, "{f:?}");
        let results = dir.path().join("results");
        let journal =
            crate::output::journal::read(&results.join(crate::output::journal::FILE)).unwrap();
        let ticks: usize = journal.records.iter().map(|r| r.moves.len()).sum();
        assert_eq!(ticks, f.acts);
        for file in [
            "episodes.csv",
            "summary.csv",
            "report.html",
            "replays.jsonl.gz",
        ] {
            assert!(results.join(file).exists(), "{file}");
        }
        let bare = play_only(6, 1).unwrap();
        assert_eq!(bare.episodes, 6);
        assert_eq!(bare.acts, f.acts, "same seed, same games");
    }
}
