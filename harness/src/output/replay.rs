//! Replays: every episode of a run written so that it can be watched
//! (the viewer in [`crate::output::html`]) and checked (`arena replay`).
//!
//! # Format (`arena-replay/2`)
//! `replays.jsonl.gz` in the run's folder: one JSON object per episode, one
//! per line, in finishing order, in gzip members of one or more lines
//! appended as the episodes finish (the lines made since the last write
//! share a member: a stopped run keeps every member written, and the file
//! reads as one gzip stream). An object is a [`Replay`]:
//! the game, the level (its spec, and its text when the level is a file),
//! the seeds, the seats (agent, limits, outcome, init time), one [`Tick`]
//! per tick (the joint action, every act's time and overrun flag), and the
//! state before the first tick and after each tick as the game's JSON view
//! ([`crate::registry::Replayed::states`]), so a viewer draws every tick
//! without the rules. The states are not taken from the runner: the
//! reporter re-plays the recorded actions with the rules, as `arena replay`
//! does to check a file.
//!
//! Readers must refuse a `schema` whose major version (`arena-replay/N`)
//! they do not know; fields may be added within a version. Version 2
//! differs from 1 only in the states, which are the views of
//! `arena-jsonl/2`: Bait's `avatar` is `[row, column]` (it was `[column,
//! row]`). [`read`] still reads version 1 and turns its Bait states into
//! version 2's, so old replays load, check and show as before.

use crate::config::{AgentKind, RunConfig};
use crate::error::HarnessError;
use crate::play::runner::EpisodeRecord;
use crate::play::timing::TimeLimits;
use crate::registry::GameEntry;
use flate2::read::MultiGzDecoder;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

mod index;
mod writer;
pub use index::{Index, ReplayMeta, SharedIndex};
pub use writer::Replays;

/// The schema of this version, the `schema` field of every replay.
pub const SCHEMA: &str = "arena-replay/2";

/// The earlier schema [`read`] still accepts (see [`upgrade_v1`]).
pub const SCHEMA_V1: &str = "arena-replay/1";

/// The file name of a run's replays.
pub const FILE_NAME: &str = "replays.jsonl.gz";

/// One episode, as written to `replays.jsonl.gz`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Replay {
    /// Always [`SCHEMA`] when written by this version.
    pub schema: String,
    /// The run's name.
    pub run: String,
    /// The game's name.
    pub game: String,
    /// The level.
    pub level: LevelRef,
    /// The run's master seed.
    pub run_seed: u64,
    /// The episode's index in the run's plan.
    pub episode: usize,
    /// The repetition (0-based).
    pub repetition: u32,
    /// The episode's seed (levels are loaded with it).
    pub seed: u64,
    /// The config's game-length limit, if any.
    pub max_steps: Option<u32>,
    /// The seats, in seat order.
    pub seats: Vec<SeatInfo>,
    /// One entry per tick played.
    pub ticks: Vec<Tick>,
    /// The state before the first tick and after each tick (`ticks.len() + 1`).
    pub states: Vec<Value>,
}

/// Which level an episode was played on.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LevelRef {
    /// The spec as in the config (a built-in name or a path).
    pub spec: String,
    /// The file's text, when the spec is a file.
    pub text: Option<String>,
}

/// A seat of an episode: who played it, under which limits, how it ended.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeatInfo {
    /// The agent's label in the run.
    pub agent: String,
    /// What played: `built-in NAME` or the external command.
    pub player: String,
    /// Its time limits.
    pub limits: Limits,
    /// win / loss / draw.
    pub result: String,
    /// normal / disqualified / crash / ...
    pub outcome: String,
    /// Failure details (empty when normal).
    pub detail: String,
    /// The score at the end.
    pub score: f64,
    /// Time of init, ms.
    pub init_ms: f64,
    /// Whether init overran its soft budget.
    pub init_overrun: bool,
    /// The time of an act that ended the episode without a move being
    /// played (a disqualification, a crash, an illegal move), ms.
    pub last_act_ms: Option<f64>,
    /// Processes left behind (external agents).
    pub leaked: u32,
}

/// A seat's time limits, in ms.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Limits {
    /// The clock that judges: `wall` or `cpu`.
    pub clock: String,
    /// Soft budget of an act.
    pub act_ms: f64,
    /// Hard limit of an act.
    pub act_hard_ms: f64,
    /// Soft budget of init.
    pub init_ms: f64,
    /// Hard limit of init.
    pub init_hard_ms: f64,
}

impl Limits {
    fn of(t: &TimeLimits) -> Self {
        let ms = |d: std::time::Duration| round3(d.as_secs_f64() * 1000.0);
        Limits {
            clock: t.clock.as_str().to_string(),
            act_ms: ms(t.act),
            act_hard_ms: ms(t.act_hard),
            init_ms: ms(t.init),
            init_hard_ms: ms(t.init_hard),
        }
    }
}

/// One tick.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Tick {
    /// The joint action: the names of the active seats' actions joined by `/`.
    pub actions: String,
    /// Per seat: its act's time in ms, `null` when the seat did not act.
    pub act_ms: Vec<Option<f64>>,
    /// Per seat: whether its act overran the soft budget (the fallback
    /// action was played instead).
    pub overrun: Vec<bool>,
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Build the replay of a finished episode of `cfg` (re-playing its actions
/// with the rules; `level_text` is the level file's text, if any).
pub fn build(
    game: &dyn GameEntry,
    cfg: &RunConfig,
    rec: &EpisodeRecord,
    level_text: Option<String>,
) -> Result<Replay, HarnessError> {
    let ep = &rec.episode;
    let sim = game
        .replay(&ep.level, ep.seed, cfg.max_steps, &rec.moves)
        .map_err(|e| does_not_replay(rec, e))?;
    Ok(assemble(cfg, rec, level_text, &sim.active, sim.states))
}

/// Append the JSON line of [`build`]'s replay to `out` (the same text as
/// serializing it, newline included), with the states written straight
/// as text by [`GameEntry::replay_json`] rather than built as values;
/// returns that replay without its states (`states` empty).
pub fn write_json(
    game: &dyn GameEntry,
    cfg: &RunConfig,
    rec: &EpisodeRecord,
    level_text: Option<String>,
    out: &mut Vec<u8>,
) -> Result<Replay, HarnessError> {
    let ep = &rec.episode;
    let sim = game
        .replay_json(&ep.level, ep.seed, cfg.max_steps, &rec.moves)
        .map_err(|e| does_not_replay(rec, e))?;
    let head = assemble(cfg, rec, level_text, &sim.active, Vec::new());
    let start = out.len();
    // Writing to a Vec cannot fail, and a Replay always serializes.
    let _ = serde_json::to_writer(&mut *out, &head);
    // `states` is the last field: `"states":[]}` ends the text.
    if !out[start..].ends_with(b"[]}") {
        return Err(HarnessError::CheckFailed(format!(
            "episode {}: a replay's JSON does not end in its states",
            ep.index
        )));
    }
    out.truncate(out.len() - 3);
    out.extend_from_slice(&sim.states.bytes);
    out.extend_from_slice(b"}\n");
    Ok(head)
}

fn does_not_replay(rec: &EpisodeRecord, e: HarnessError) -> HarnessError {
    HarnessError::CheckFailed(format!(
        "episode {}: its actions do not replay: {e}",
        rec.episode.index
    ))
}

/// A [`Replay`] of `rec` with the given states (`active`: the seats that
/// acted at each tick, from the re-play).
fn assemble(
    cfg: &RunConfig,
    rec: &EpisodeRecord,
    level_text: Option<String>,
    active: &[Vec<usize>],
    states: Vec<Value>,
) -> Replay {
    let ep = &rec.episode;
    let players = rec.seats.len();
    let mut next_act = vec![0usize; players];
    let ticks: Vec<Tick> = rec
        .moves
        .iter()
        .zip(active)
        .enumerate()
        .map(|(t, (m, active))| {
            let mut act_ms = vec![None; players];
            let mut overrun = vec![false; players];
            for &s in active {
                if let Some(seat) = rec.seats.get(s) {
                    act_ms[s] = seat.act_ms.get(next_act[s]).map(|&x| round3(x));
                    next_act[s] += 1;
                    overrun[s] = seat.overrun_ticks.contains(&(t as u32));
                }
            }
            Tick {
                actions: m.clone(),
                act_ms,
                overrun,
            }
        })
        .collect();
    let seats = rec
        .seats
        .iter()
        .enumerate()
        .map(|(s, r)| {
            let spec = &cfg.agents[r.agent];
            SeatInfo {
                agent: spec.label.clone(),
                player: match &spec.kind {
                    AgentKind::BuiltIn { name, .. } => format!("built-in {name}"),
                    AgentKind::External(x) => x.command.join(" "),
                },
                limits: Limits::of(&spec.time),
                result: r.result.as_str().to_string(),
                outcome: r.outcome.as_str().to_string(),
                detail: r.detail.clone(),
                score: r.score,
                init_ms: round3(r.init_ms),
                init_overrun: r.overruns as usize > r.overrun_ticks.len(),
                last_act_ms: r.act_ms.get(next_act[s]).map(|&x| round3(x)),
                leaked: r.leaked,
            }
        })
        .collect();
    Replay {
        schema: SCHEMA.to_string(),
        run: cfg.name.clone(),
        game: cfg.game.to_string(),
        level: LevelRef {
            spec: ep.level.clone(),
            text: level_text,
        },
        run_seed: cfg.seed,
        episode: ep.index,
        repetition: ep.repetition,
        seed: ep.seed,
        max_steps: cfg.max_steps,
        seats,
        ticks,
        states,
    }
}

/// One replay as a gzip member holding its JSON line, compressed at the
/// fastest level (any gzip reader reads it). The compressor is kept per
/// thread: a new one allocates a few hundred KB.
pub fn gzip_line(replay: &Replay) -> Vec<u8> {
    GZ.with(|g| g.borrow_mut().line(replay))
}

/// [`gzip_line`] of a JSON line already written (newline included).
pub fn gzip_bytes(json: &[u8]) -> Vec<u8> {
    GZ.with(|g| g.borrow_mut().member(json))
}

thread_local! {
    /// This thread's compressor of replays.
    static GZ: std::cell::RefCell<GzipLines> = std::cell::RefCell::new(GzipLines::new());
}

/// libdeflate's fastest level that compresses (its level 0 only stores).
const FASTEST: libdeflater::CompressionLvl = match libdeflater::CompressionLvl::new(1) {
    Ok(l) => l,
    Err(_) => panic!("level 1 is valid"),
};

/// Makes gzip members of replays' JSON lines with one deflate compressor
/// (libdeflate's, at its fastest level, which needs no reset between
/// members).
struct GzipLines {
    deflate: libdeflater::Compressor,
    json: Vec<u8>,
}

impl GzipLines {
    fn new() -> Self {
        GzipLines {
            deflate: libdeflater::Compressor::new(FASTEST),
            json: Vec::new(),
        }
    }

    fn line(&mut self, replay: &Replay) -> Vec<u8> {
        // The JSON whole first, then one pass of the compressor. Writing
        // to a Vec cannot fail, and a Replay always serializes.
        let mut json = std::mem::take(&mut self.json);
        json.clear();
        let _ = serde_json::to_writer(&mut json, replay);
        json.push(b'\n');
        let out = self.member(&json);
        self.json = json;
        out
    }

    /// A gzip member holding `json`, with a plain header (RFC 1952: no
    /// name, comment or extra field).
    fn member(&mut self, json: &[u8]) -> Vec<u8> {
        let mut out = vec![0; self.deflate.gzip_compress_bound(json.len())];
        // The bound always suffices.
        let n = self.deflate.gzip_compress(json, &mut out).unwrap_or(0);
        out.truncate(n);
        out
    }
}

/// Turn a replay of schema [`SCHEMA_V1`] into one of [`SCHEMA`]: its Bait
/// states get `avatar` as `[row, column]`; nothing else changed.
pub fn upgrade_v1(replay: &mut Replay) {
    if replay.game == "bait" {
        for state in &mut replay.states {
            if let Some(Value::Array(a)) = state.get_mut("avatar") {
                if a.len() == 2 {
                    a.swap(0, 1);
                }
            }
        }
    }
    replay.schema = SCHEMA.to_string();
}

/// Read every replay of a file: `replays.jsonl.gz` (gzip'd JSON lines), or
/// plain JSON lines. Replays of [`SCHEMA_V1`] are upgraded
/// ([`upgrade_v1`]); other major versions are refused.
pub fn read(path: &Path) -> Result<Vec<Replay>, HarnessError> {
    let io = |e| HarnessError::io(path, e);
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(io)?;
    let text: Box<dyn BufRead> = if bytes.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::new(MultiGzDecoder::new(&bytes[..])))
    } else {
        Box::new(&bytes[..])
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.map_err(io)?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |msg: String| {
            HarnessError::ResultsFolder(format!("{}: line {}: {msg}", path.display(), i + 1))
        };
        let v: Value = serde_json::from_str(&line).map_err(|e| bad(e.to_string()))?;
        let schema = v.get("schema").and_then(Value::as_str).unwrap_or("");
        let major = schema.split('.').next();
        if major != Some(SCHEMA) && major != Some(SCHEMA_V1) {
            return Err(bad(format!(
                "schema `{schema}` is not {SCHEMA} (this arena reads {SCHEMA} and {SCHEMA_V1})"
            )));
        }
        let v1 = major == Some(SCHEMA_V1);
        let mut replay: Replay = serde_json::from_value(v).map_err(|e| bad(e.to_string()))?;
        if v1 {
            upgrade_v1(&mut replay);
        }
        out.push(replay);
    }
    Ok(out)
}

/// Whether two JSON values are equal, numbers within a relative 1e-9.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Re-play a replay with its game's rules and check that it gives the same
/// states, scores and results; `Err` says what differs first.
pub fn check(r: &Replay) -> Result<(), HarnessError> {
    let game = crate::registry::find(&r.game)?;
    let moves: Vec<String> = r.ticks.iter().map(|t| t.actions.clone()).collect();
    let (spec, _tmp) = level_spec(r)?;
    let sim = game.replay(&spec, r.seed, r.max_steps, &moves)?;
    let fail = |msg: String| HarnessError::CheckFailed(format!("episode {}: {msg}", r.episode));
    if sim.states.len() != r.states.len() {
        return Err(fail(format!(
            "{} states recorded, {} replayed",
            r.states.len(),
            sim.states.len()
        )));
    }
    if let Some(t) = (0..sim.states.len()).find(|&t| !same(&sim.states[t], &r.states[t])) {
        return Err(fail(format!(
            "the state at tick {t} differs: recorded {}, replayed {}",
            r.states[t], sim.states[t]
        )));
    }
    let forfeit = r.seats.iter().any(|s| s.outcome != "normal");
    for (s, seat) in r.seats.iter().enumerate() {
        let score = sim.scores.get(s).copied().unwrap_or(f64::NAN);
        if !same(&Value::from(score), &Value::from(seat.score)) {
            return Err(fail(format!(
                "seat {s}: score {} recorded, {score} replayed",
                seat.score
            )));
        }
        let result = sim.results.get(s).map(|x| x.as_str()).unwrap_or("");
        if !forfeit && result != seat.result {
            return Err(fail(format!(
                "seat {s}: result {} recorded, {result} replayed",
                seat.result
            )));
        }
    }
    if !forfeit && !sim.over {
        return Err(fail("the replayed game is not over".to_string()));
    }
    Ok(())
}

/// A level spec that loads: the spec itself, or (a file level whose file
/// is gone or changed) its recorded text written to a temporary file,
/// removed when the returned guard drops.
fn level_spec(r: &Replay) -> Result<(String, Option<TempFile>), HarnessError> {
    let Some(text) = &r.level.text else {
        return Ok((r.level.spec.clone(), None));
    };
    let path = Path::new(&r.level.spec);
    if std::fs::read_to_string(path).ok().as_deref() == Some(text.as_str()) {
        return Ok((r.level.spec.clone(), None));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level.txt".to_string());
    let dir =
        std::env::temp_dir().join(format!("arena-replay-{}-{}", std::process::id(), r.episode));
    std::fs::create_dir_all(&dir).map_err(|e| HarnessError::io(&dir, e))?;
    let file = dir.join(name);
    std::fs::write(&file, text).map_err(|e| HarnessError::io(&file, e))?;
    Ok((file.to_string_lossy().into_owned(), Some(TempFile(dir))))
}

/// A temporary folder removed on drop.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `arena replay FILE`: check every replay of `file` (only `episode`, if
/// given) against the rules, printing a line per episode; returns the
/// replays and the mismatches (see `crate::cli::commands::replay`).
pub fn check_file(
    file: &Path,
    episode: Option<usize>,
    out: &mut dyn Write,
) -> Result<(Vec<Replay>, Vec<String>), HarnessError> {
    let io = |e| HarnessError::io("<stdout>", e);
    let mut replays = read(file)?;
    if let Some(n) = episode {
        replays.retain(|r| r.episode == n);
        if replays.is_empty() {
            return Err(HarnessError::Flag(format!(
                "{}: no episode {n}",
                file.display()
            )));
        }
    }
    let mut failures = Vec::new();
    for r in &replays {
        match check(r) {
            Ok(()) => writeln!(
                out,
                "episode {}: {} on {}, {} ticks: replays the same",
                r.episode,
                r.game,
                r.level.spec,
                r.ticks.len()
            )
            .map_err(io)?,
            Err(e) => {
                writeln!(out, "episode {}: MISMATCH: {e}", r.episode).map_err(io)?;
                failures.push(e.to_string());
            }
        }
    }
    Ok((replays, failures))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A replay of Bait level 0 as this version writes it.
    fn bait_replay() -> Replay {
        let moves: Vec<String> = [
            "DOWN", "RIGHT", "DOWN", "LEFT", "DOWN", "UP", "UP", "UP", "LEFT",
        ]
        .iter()
        .map(|m| m.to_string())
        .collect();
        let game = crate::registry::find("bait").unwrap();
        let sim = game.replay("0", 1, None, &moves).unwrap();
        let limits = Limits::of(&TimeLimits::default());
        Replay {
            schema: SCHEMA.to_string(),
            run: "t".into(),
            game: "bait".into(),
            level: LevelRef {
                spec: "0".into(),
                text: None,
            },
            run_seed: 1,
            episode: 0,
            repetition: 0,
            seed: 1,
            max_steps: None,
            seats: vec![SeatInfo {
                agent: "a".into(),
                player: "built-in astar".into(),
                limits,
                result: "win".into(),
                outcome: "normal".into(),
                detail: String::new(),
                score: sim.scores[0],
                init_ms: 0.0,
                init_overrun: false,
                last_act_ms: None,
                leaked: 0,
            }],
            ticks: moves
                .iter()
                .map(|m| Tick {
                    actions: m.clone(),
                    act_ms: vec![Some(0.1)],
                    overrun: vec![false],
                })
                .collect(),
            states: sim.states,
        }
    }

    #[test]
    fn gzip_members_from_one_reused_compressor_read_back_as_their_json_lines() {
        let r = bait_replay();
        let mut other = bait_replay();
        other.episode = 7;
        let mut bytes = gzip_line(&r);
        bytes.extend(gzip_line(&other));
        bytes.extend(gzip_line(&r));
        let mut text = String::new();
        MultiGzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .unwrap();
        let want = [&r, &other, &r]
            .map(|x| serde_json::to_string(x).unwrap() + "\n")
            .concat();
        assert_eq!(text, want);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(FILE_NAME);
        std::fs::write(&file, &bytes).unwrap();
        let back = read(&file).unwrap();
        assert_eq!(
            back.iter().map(|x| x.episode).collect::<Vec<_>>(),
            [r.episode, 7, r.episode]
        );
    }

    #[test]
    fn a_version_1_bait_replay_is_read_with_row_first_avatars_and_checks() {
        let now = bait_replay();
        assert!(check(&now).is_ok());
        assert_eq!(now.states[0]["avatar"], serde_json::json!([1, 2]));
        // The same episode as arena-replay/1 wrote it: avatar [column, row].
        let mut old = serde_json::to_value(&now).unwrap();
        old["schema"] = SCHEMA_V1.into();
        for s in old["states"].as_array_mut().unwrap() {
            let (r, c) = (s["avatar"][0].clone(), s["avatar"][1].clone());
            s["avatar"] = Value::Array(vec![c, r]);
        }
        assert_eq!(old["states"][0]["avatar"], serde_json::json!([2, 1]));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.jsonl");
        std::fs::write(&path, format!("{old}\n")).unwrap();
        let read_back = read(&path).unwrap();
        assert_eq!(read_back, vec![now]);
        assert!(check(&read_back[0]).is_ok());

        // Another major version is refused, naming the versions read.
        old["schema"] = "arena-replay/3".into();
        std::fs::write(&path, format!("{old}\n")).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("arena-replay/2 and arena-replay/1"), "{e}");
    }

    /// A Connect Four episode of `n` moves chosen by a small generator, as
    /// the runner records it.
    pub(super) fn connect4_record(seed: u64, index: usize) -> (RunConfig, EpisodeRecord) {
        use crate::play::runner::SeatRecord;
        use crate::play::schedule::Episode;
        use games::Game;
        let dir = std::env::temp_dir();
        let cfg = crate::registry::parse_config(
            "game = \"connect4\"\n[[agents]]\nagent = \"random\"\n\
             [[agents]]\nagent = \"random\"\nname = \"b\"\n",
            &dir.join("c.toml"),
        )
        .unwrap();
        let mut g = games::connect4::Connect4::new();
        let mut moves = Vec::new();
        let mut x = seed;
        while !g.is_over() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let legal: Vec<u8> = (0..7).filter(|&c| g.can_play(c)).collect();
            let c = legal[(x >> 33) as usize % legal.len()];
            g.play(c);
            moves.push((c + 1).to_string());
        }
        let seat = |agent: usize| SeatRecord {
            result: g.result(agent),
            score: g.score(agent),
            act_ms: (0..moves.len()).map(|t| t as f64 * 0.0123).collect(),
            ..SeatRecord::new(agent)
        };
        let rec = EpisodeRecord {
            episode: Episode {
                index,
                level: "start".into(),
                repetition: 0,
                seats: vec![0, 1],
                seed,
                pair: None,
            },
            steps: moves.len() as u32,
            seats: vec![seat(0), seat(1)],
            moves,
            host: "h".into(),
            cpu_model: "c".into(),
        };
        (cfg, rec)
    }

    #[test]
    fn written_json_lines_are_the_serialized_replays() {
        let game = crate::registry::find("connect4").unwrap();
        for seed in 0..40 {
            let (cfg, rec) = connect4_record(seed, seed as usize);
            let want = build(game, &cfg, &rec, None).unwrap();
            let mut got = b"prefix".to_vec();
            write_json(game, &cfg, &rec, None, &mut got).unwrap();
            let mut text = serde_json::to_vec(&want).unwrap();
            text.push(b'\n');
            assert_eq!(
                String::from_utf8_lossy(&got[6..]),
                String::from_utf8_lossy(&text)
            );
            assert!(check(&want).is_ok());
        }
        // A game on the default path (its views serialized as values).
        let bait = crate::registry::find("bait").unwrap();
        let r = bait_replay();
        let moves: Vec<String> = r.ticks.iter().map(|t| t.actions.clone()).collect();
        let values = bait.replay("0", 1, None, &moves).unwrap();
        let text = bait.replay_json("0", 1, None, &moves).unwrap();
        assert_eq!(text.states.count, values.states.len());
        assert_eq!(
            text.states.bytes,
            serde_json::to_vec(&values.states).unwrap()
        );
        // No move at all: the one state before the first tick.
        let start = game.replay_json("start", 1, None, &[]).unwrap();
        let values = game.replay("start", 1, None, &[]).unwrap();
        assert_eq!(
            start.states.bytes,
            serde_json::to_vec(&values.states).unwrap()
        );
    }
}
