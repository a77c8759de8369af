//! Botzone's bot protocol for Snake (`protocol = "botzone"`), so that a bot
//! written for Botzone (<https://www.botzone.org.cn>, game *Snake*) plays in
//! arena unmodified. Specified, with sources, in `docs/protocol.md`
//! (section *Botzone*); in short:
//!
//! - **Traditional mode** (Botzone's default): every turn a fresh process
//!   reads one line of JSON, `{"requests": [...], "responses": [...],
//!   "data": ..., "globaldata": ...}`, the whole history of the game, and
//!   prints `{"response": {"direction": d}, "debug": ..., "data": ...,
//!   "globaldata": ...}` before it exits. Its answer ends when it exits.
//! - **Keep-running mode** (`botzone_mode = "keep-running"`, Botzone's
//!   per-bot "keep running" option): a bot that prints the line
//!   `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` after its answer stays alive, and
//!   each later turn writes only that turn's request (`{"direction": d}`)
//!   to it; its answer is what it prints before the next marker.
//!
//! Snake's requests (the judge `Snake.cpp`): the first is the map and the
//! bot's own start cell, each later one the opponent's direction in the
//! previous round; responses are `{"direction": d}`, `d` in 0..3.
//!
//! [`BotzoneBot`] is the [`Contestant`]: it keeps the history, starts a
//! supervised [`AgentProcess`] per turn (or keeps one alive), and carries
//! `data` from turn to turn and `globaldata` from game to game
//! ([`GlobalData`], held by the run's contestant factory).

use crate::external::supervise::early_stop::{AfterSlice, CpuWatch};
use crate::external::supervise::process::{AgentProcess, Output};
use crate::external::{BotzoneMode, ExternalSpec};
use crate::play::game::GlobalData;
use crate::play::outcome::Outcome;
use crate::play::player::{Contestant, Failure, Phase, Reply};
use crate::play::timing::{between, Clock, TimeLimits};
use games::snake::Snake;
use games::{AgentStats, Seat};
use serde_json::{json, Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The line a bot prints after its answer to stay alive (keep-running mode).
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Botzone caps `debug` at 1 KB; arena writes at most this much of each
/// turn's `debug` to the agent's log.
const DEBUG_CAP: usize = 1024;

/// The first request of a game for `seat`: the judge's `{"x", "y", "width",
/// "height", "obstacle"}` (`x`, `y`: the bot's own start cell, so (1, 1)
/// means player 0), plus the 2015 wiki's `"0"` and `"1"` start cells, so that
/// bots written against either description read it. Keys in jsoncpp's
/// (sorted) order, as the judge writes them.
pub fn first_request(s: &Snake, seat: Seat) -> Value {
    let (n, m) = (s.rows(), s.cols());
    let (x, y) = if seat == 0 { (1, 1) } else { (n, m) };
    let obstacle: Vec<Value> = s
        .obstacles()
        .into_iter()
        .map(|(x, y)| json!({"x": x, "y": y}))
        .collect();
    json!({
        "0": {"x": 1, "y": 1},
        "1": {"x": n, "y": m},
        "height": n,
        "obstacle": obstacle,
        "width": m,
        "x": x,
        "y": y,
    })
}

/// A later request: the opponent's direction in the previous round.
pub fn turn_request(opponent_direction: u8) -> Value {
    json!({ "direction": opponent_direction })
}

/// Python's truthiness of a JSON value: Botzone's controller passes `data`
/// and `globaldata` only when they are truthy (not null, false, 0, "", [] or {}).
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().map(|x| x != 0.0).unwrap_or(true),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// The input of a traditional turn (one line, compact):
/// `{"requests": [...], "responses": [...]}` plus `"data"` and
/// `"globaldata"` when they are truthy.
pub fn full_input(
    requests: &[Value],
    responses: &[Value],
    data: Option<&Value>,
    globaldata: Option<&Value>,
) -> String {
    let mut m = Map::new();
    m.insert("requests".into(), Value::Array(requests.to_vec()));
    m.insert("responses".into(), Value::Array(responses.to_vec()));
    if let Some(d) = data.filter(|d| truthy(d)) {
        m.insert("data".into(), d.clone());
    }
    if let Some(g) = globaldata.filter(|g| truthy(g)) {
        m.insert("globaldata".into(), g.clone());
    }
    Value::Object(m).to_string()
}

/// A bot's parsed answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The direction, 0..3.
    pub direction: u8,
    /// `data`, for the next turn.
    pub data: Option<Value>,
    /// `globaldata`, for the next turn and later games.
    pub globaldata: Option<Value>,
    /// `debug`, for the log.
    pub debug: Option<Value>,
}

fn bad_output(detail: String) -> Failure {
    Failure {
        outcome: Outcome::BadOutput,
        detail,
    }
}

fn quote(text: &str) -> String {
    let s: String = text.chars().take(80).collect();
    if s.len() < text.len() {
        format!("{s:?}...")
    } else {
        format!("{s:?}")
    }
}

/// Parse what a bot printed for one turn (all its lines, joined): one JSON
/// value, `{"response": {"direction": d}, ...}` or, as Botzone's controller
/// also accepts, the bare response `{"direction": d}`. Anything else —
/// nothing, not JSON, two JSON values, no integer `direction`, a direction
/// outside 0..3 — is `bad-output` (Botzone's judge: the bot loses).
pub fn parse_output(text: &str) -> Result<Answer, Failure> {
    let text = text.trim();
    if text.is_empty() {
        return Err(bad_output(
            "printed nothing; expected {\"response\": {\"direction\": 0..3}}".into(),
        ));
    }
    let v: Value = serde_json::from_str(text)
        .map_err(|e| bad_output(format!("not JSON ({e}): {}", quote(text))))?;
    let (response, data, globaldata, debug) = match v {
        Value::Object(mut o) if o.contains_key("response") => (
            o.remove("response").unwrap_or(Value::Null),
            o.remove("data"),
            o.remove("globaldata"),
            o.remove("debug"),
        ),
        other => (other, None, None, None),
    };
    let shape = || {
        bad_output(format!(
            "expected {{\"response\": {{\"direction\": 0..3}}}}, got {}",
            quote(text)
        ))
    };
    let Some(d) = response.get("direction") else {
        return Err(shape());
    };
    let Some(d) = d.as_i64() else {
        return Err(shape());
    };
    if !(0..=3).contains(&d) {
        return Err(bad_output(format!(
            "direction {d} is not 0 (up), 1 (right), 2 (down) or 3 (left)"
        )));
    }
    Ok(Answer {
        direction: d as u8,
        data,
        globaldata,
        debug,
    })
}

/// A Botzone bot as a [`Contestant`] (Snake only): one process per turn, or
/// one kept alive after the keep-running marker (see the module docs).
///
/// Every process runs under the same supervision as any external agent
/// ([`AgentProcess`]: own process group, output caps, stderr appended to the
/// game's log, sandbox, group kill, reaping and leak check after each
/// process). Timing per turn: from the start of the request (the spawn of a
/// fresh process included) to the end of the answer (the process's exit, or
/// the keep-running marker). The soft / hard rule is applied by the runner;
/// a bot that does not answer is waited for until the runner's deadline
/// ([`Outcome::Timeout`]), except that under [`Clock::Cpu`] one that
/// computes without answering is stopped as soon as its CPU time over the
/// turn passes the act's hard limit ([`Outcome::Disqualified`], as an answer
/// past it would be), and one that is silent (neither runs nor waits for a
/// CPU) once past its silence limit ([`Outcome::Timeout`]; see
/// [`CpuWatch`]).
///
/// `responses` hold the directions actually played for the bot: they differ
/// from what it printed only when its answer came after the soft budget and
/// the fallback direction was played. A kept process cannot be told that, so
/// it is then stopped and the next turn starts a fresh process with the full
/// history.
pub struct BotzoneBot {
    spec: ExternalSpec,
    mode: BotzoneMode,
    label: String,
    log: Option<PathBuf>,
    log_used: Arc<AtomicU64>,
    store: GlobalData,
    process: Option<AgentProcess>,
    requests: Vec<Value>,
    responses: Vec<Value>,
    data: Option<Value>,
    globaldata: Option<Value>,
    last_answer: Option<u8>,
    /// Whether this turn's input went to a kept process (one request line).
    kept_turn: bool,
    broken: Option<Failure>,
    /// The process tree's CPU time when this turn started.
    cpu_start: Option<Duration>,
    /// The limits the bot is judged by: under [`Clock::Cpu`], the wait for
    /// a turn's answer ends once the CPU time over the turn passes
    /// `act_hard`, or the bot has been silent past its silence limit.
    limits: TimeLimits,
    /// A kept process's run delay (and the supervisor's) just before this
    /// turn's clock started ([`Contestant::prepare`]): under
    /// [`Clock::Wall`] what the judge forgives is measured from it, under
    /// [`Clock::Cpu`] the bot's silence. For a fresh process, under the
    /// wall clock `None` (it has exited by the time its answer is read;
    /// the judge then goes by the latency probe alone), under the CPU
    /// clock the supervisor's run delay alone.
    delay_start: Option<Duration>,
    started: Option<Instant>,
    phase: Phase,
    round: u32,
    leaked: usize,
    spawned: usize,
}

impl BotzoneBot {
    /// The Botzone bot of `spec` in `mode` (labelled `label` in the run;
    /// its `globaldata` lives in `store`), judged by `limits` (their clock,
    /// and under [`Clock::Cpu`] the act's hard limit), its stderr appended
    /// to `log`. Nothing is started before the first turn.
    pub fn new(
        spec: &ExternalSpec,
        mode: BotzoneMode,
        label: &str,
        log: Option<PathBuf>,
        store: GlobalData,
        limits: TimeLimits,
    ) -> Result<Self, Failure> {
        let globaldata = store.get(label);
        if let Some(path) = &log {
            // One log per game, appended to by every process of the game.
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = std::fs::File::create(path);
        }
        Ok(BotzoneBot {
            spec: spec.clone(),
            mode,
            label: label.to_string(),
            log,
            log_used: Arc::new(AtomicU64::new(0)),
            store,
            process: None,
            requests: Vec::new(),
            responses: Vec::new(),
            data: None,
            globaldata,
            last_answer: None,
            kept_turn: false,
            broken: None,
            cpu_start: None,
            limits,
            delay_start: None,
            started: None,
            phase: Phase::Init,
            round: 0,
            leaked: 0,
            spawned: 0,
        })
    }

    /// Processes started so far (one per turn in traditional mode).
    pub fn processes_started(&self) -> usize {
        self.spawned
    }

    /// Append an `[arena]` note to the bot's log (within its cap).
    fn note(&self, text: &str) {
        let Some(path) = &self.log else { return };
        let cap = self.spec.limits.max_stderr_kb.saturating_mul(1024);
        let used = self.log_used.load(Ordering::Relaxed);
        if used >= cap {
            return;
        }
        // Start on a line of its own even when the bot's last stderr write
        // left a line unfinished (its newline may still be in the pipe).
        let newline = ends_mid_line(path);
        let line = format!("{}[arena] {text}\n", if newline { "\n" } else { "" });
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            if f.write_all(line.as_bytes()).is_ok() {
                self.log_used
                    .store(used.saturating_add(line.len() as u64), Ordering::Relaxed);
            }
        }
    }

    /// Stop the current process, if any, counting what survived.
    fn stop_process(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.stop();
            self.leaked += p.leaked();
        }
    }

    /// Stop everything and remember `f` (with the round) as the bot's state.
    fn fail(&mut self, f: Failure) -> Failure {
        self.stop_process();
        let f = Failure {
            outcome: f.outcome,
            detail: format!("round {}: {}", self.round, f.detail),
        };
        self.broken = Some(f.clone());
        f
    }

    /// Record the previous round in the history and write this turn's input.
    fn start_turn(&mut self, s: &Snake, seat: Seat) -> Result<(), Failure> {
        let round = s.round();
        self.round = round;
        let internal = |detail: String| Failure {
            outcome: Outcome::Crash,
            detail,
        };
        if self.requests.is_empty() {
            if round != 0 {
                return Err(internal(format!(
                    "asked first in round {round}; Botzone's protocol needs every round"
                )));
            }
            self.requests.push(first_request(s, seat));
        } else {
            if round as usize != self.requests.len() {
                return Err(internal(format!(
                    "asked in round {round} after {} rounds; Botzone's protocol needs every round",
                    self.requests.len()
                )));
            }
            let played = s.last_dir(seat);
            self.responses.push(json!({ "direction": played }));
            self.requests
                .push(turn_request(s.last_dir(1 - seat.min(1))));
            if self.process.is_some() && self.last_answer != Some(played) {
                self.note(&format!(
                    "round {}: your answer {} came after the soft limit and direction {played} \
                     was played instead; the kept process was stopped and this turn starts a \
                     fresh one with the full history",
                    round - 1,
                    self.last_answer.map(|d| d.to_string()).unwrap_or_default()
                ));
                self.stop_process();
            }
        }
        self.kept_turn = self.process.is_some();
        if let Some(p) = self.process.as_mut() {
            // A kept process: its CPU time over this turn (its run delay
            // was read by `prepare`).
            self.cpu_start = p.cpu_time();
            if let Some(r) = self.requests.last() {
                p.send(&r.to_string());
            }
            return Ok(());
        }
        // A fresh process: all of its CPU time, start-up included, is the
        // turn's; so is its run delay (under the CPU clock, for its
        // silence; under the wall clock the judge goes by the latency probe).
        self.cpu_start = Some(Duration::ZERO);
        self.delay_start = match self.limits.clock {
            Clock::Cpu => Some(
                crate::play::timing::run_delay::of_supervisor()
                    + crate::play::timing::run_delay::of_this_thread().unwrap_or_default(),
            ),
            Clock::Wall | Clock::Counted => None,
        };
        let mut p = AgentProcess::spawn_continuing_log(
            &self.spec,
            self.log.clone(),
            Arc::clone(&self.log_used),
        )?;
        self.spawned += 1;
        p.send(&full_input(
            &self.requests,
            &self.responses,
            self.data.as_ref(),
            self.globaldata.as_ref(),
        ));
        if self.mode == crate::external::BotzoneMode::Traditional {
            p.close_stdin();
        }
        self.process = Some(p);
        Ok(())
    }

    /// Read the turn's output until the marker, the exit or `deadline`, or
    /// under [`Clock::Cpu`] until the CPU time over the turn passes the
    /// hard limit ([`CpuWatch`]). `Ok((lines, kept))`: `kept` when the bot
    /// printed the marker.
    fn read_answer(&mut self, deadline: Instant) -> Result<(Vec<String>, bool), Failure> {
        let start = self.started.unwrap_or_else(Instant::now);
        let mut watch = CpuWatch::new(
            &self.limits,
            self.phase,
            start,
            self.cpu_start,
            self.delay_start,
            deadline,
        );
        let Some(p) = self.process.as_mut() else {
            return Err(Failure {
                outcome: Outcome::Crash,
                detail: "no process".into(),
            });
        };
        let mut lines = Vec::new();
        loop {
            let until = watch.slice_end();
            match p.recv_output(until) {
                Output::Line(l) => {
                    if l.trim() == KEEP_RUNNING_MARKER {
                        return Ok((lines, true));
                    }
                    lines.push(l);
                }
                Output::End(status) => {
                    if status.is_some_and(|s| s.success()) {
                        return Ok((lines, false));
                    }
                    return Err(p.end_failure());
                }
                Output::Failed(f) => return Err(f),
                Output::TimedOut => {
                    match watch.after_slice(until, || p.cpu_time(), || p.wait_sched()) {
                        AfterSlice::Wait => continue,
                        // The caller stops the process group.
                        AfterSlice::Stop(f) => return Err(f),
                    }
                }
            }
        }
    }
}

impl Contestant<Snake> for BotzoneBot {
    fn prepare(&mut self) {
        // Several `/proc` reads per process of the tree: made only where the
        // judge uses them, and before the turn's clock starts. Should the
        // turn replace the kept process by a fresh one, `start_turn` drops
        // the reading.
        self.delay_start = match (&self.process, &self.broken) {
            (Some(p), None) if self.limits.clock == Clock::Cpu => p.wait_sched().map(|s| s.waited),
            (Some(p), None) => p.run_delay(),
            _ => None,
        };
    }

    fn request(&mut self, phase: Phase, s: &Snake, seat: Seat, start: Instant, _budget: Duration) {
        self.started = Some(start);
        self.phase = phase;
        if self.broken.is_some() || phase == Phase::Init {
            return;
        }
        if let Err(f) = self.start_turn(s, seat) {
            self.fail(f);
        }
    }

    fn wait(&mut self, deadline: Instant) -> Reply<u8> {
        let start = self.started.unwrap_or_else(Instant::now);
        let fail = |f: Failure, wall| Reply {
            result: Err(f),
            wall,
            cpu: None,
            waited: None,
            counted: None,
        };
        if let Some(f) = &self.broken {
            return fail(f.clone(), start.elapsed());
        }
        if self.phase == Phase::Init {
            // Botzone has no set-up step: nothing runs before the first turn.
            return Reply {
                result: Ok(None),
                wall: start.elapsed(),
                cpu: None,
                waited: None,
                counted: None,
            };
        }
        let read = self.read_answer(deadline);
        // The moment the answer was complete (the marker or the end of the
        // output), not when the runner got round to reading it.
        let wall = match (
            &read,
            self.process.as_ref().and_then(|p| p.last_output_at()),
        ) {
            (Ok(_), Some(at)) => at.saturating_duration_since(start),
            _ => start.elapsed(),
        };
        let (lines, kept) = match read {
            Ok(x) => x,
            Err(f) => return fail(self.fail(f), wall),
        };
        let answer = match parse_output(&lines.join("\n")) {
            Ok(a) => a,
            Err(f) => return fail(self.fail(f), wall),
        };
        // data and globaldata do not work in kept turns on Botzone.
        if !self.kept_turn {
            self.data = answer.data;
            if let Some(g) = answer.globaldata.filter(truthy) {
                self.store.set(&self.label, g.clone());
                self.globaldata = Some(g);
            }
        }
        if let Some(d) = answer.debug.filter(|d| !d.is_null()) {
            let text = match d {
                Value::String(s) => s,
                other => other.to_string(),
            };
            let mut end = text.len().min(DEBUG_CAP);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            self.note(&format!("round {} debug: {}", self.round, &text[..end]));
        }
        self.last_answer = Some(answer.direction);
        // The turn's CPU time: read before the process is stopped (a
        // per-turn process has exited by now; its cgroup still counts it).
        let process = self.process.as_ref();
        let cpu = between(self.cpu_start, process.and_then(|p| p.cpu_time()));
        // Read only when a start was (a kept process, under the wall clock).
        let waited = self
            .delay_start
            .take()
            .filter(|_| self.limits.clock == Clock::Wall)
            .and_then(|from| between(Some(from), process.and_then(|p| p.run_delay())));
        let keep = kept && self.mode == crate::external::BotzoneMode::KeepRunning;
        if !keep {
            if kept {
                self.note(&format!(
                    "round {}: the bot asked to keep running, but botzone_mode = \"traditional\": \
                     stopped (set botzone_mode = \"keep-running\" to keep it)",
                    self.round
                ));
            }
            self.stop_process();
        }
        Reply {
            result: Ok(Some(answer.direction)),
            wall,
            cpu,
            waited,
            counted: None,
        }
    }

    fn end(&mut self, _state: &Snake, _seat: Seat) {
        // Botzone kills a kept bot at the end of the game; arena closes its
        // stdin first and gives it a moment to exit.
        if let Some(mut p) = self.process.take() {
            p.finish(Duration::from_millis(200));
            self.leaked += p.leaked();
        }
    }

    fn stats(&mut self) -> AgentStats {
        AgentStats::default()
    }

    fn close(&mut self) {
        self.stop_process();
    }

    fn leaked(&self) -> usize {
        self.leaked
    }
}

/// Whether the file at `path` is non-empty and does not end with a newline.
fn ends_mid_line(path: &Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let mut last = [0u8; 1];
    f.seek(SeekFrom::End(-1)).is_ok() && f.read_exact(&mut last).is_ok() && last[0] != b'\n'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_have_the_judges_shape() {
        let s = Snake::new(10, 11, &[(2, 3), (9, 9)]).unwrap();
        let r0 = first_request(&s, 0);
        assert_eq!(
            r0.to_string(),
            r#"{"0":{"x":1,"y":1},"1":{"x":10,"y":11},"height":10,"obstacle":[{"x":2,"y":3},{"x":9,"y":9}],"width":11,"x":1,"y":1}"#
        );
        let r1 = first_request(&s, 1);
        assert_eq!((r1["x"].as_u64(), r1["y"].as_u64()), (Some(10), Some(11)));
        assert_eq!(turn_request(2).to_string(), r#"{"direction":2}"#);
        let input = full_input(
            &[r0.clone(), turn_request(3)],
            &[json!({"direction": 1})],
            Some(&json!("")),
            Some(&json!("g")),
        );
        let v: Value = serde_json::from_str(&input).unwrap();
        assert_eq!(v["requests"][1]["direction"], 3);
        assert_eq!(v["responses"][0]["direction"], 1);
        assert!(v.get("data").is_none(), "empty data is left out: {input}");
        assert_eq!(v["globaldata"], "g");
        assert!(!input.contains('\n'));
    }

    #[test]
    fn outputs_are_classified() {
        let a = parse_output(r#"{"response":{"direction":2},"data":"x","debug":"hi"}"#).unwrap();
        assert_eq!(a.direction, 2);
        assert_eq!(a.data, Some(json!("x")));
        assert_eq!(a.debug, Some(json!("hi")));
        // The bare response, and whitespace / line breaks around one value.
        assert_eq!(parse_output("{\"direction\":0}").unwrap().direction, 0);
        assert_eq!(
            parse_output("\n{\"response\":\n {\"direction\": 3}}\n\n")
                .unwrap()
                .direction,
            3
        );
        let bad = |t: &str| parse_output(t).unwrap_err();
        for t in [
            "",
            "up",
            "{\"response\":{\"direction\":1}}\n{\"response\":{\"direction\":1}}",
            "{\"response\":{\"dir\":1}}",
            "{\"response\":{\"direction\":\"1\"}}",
            "{\"response\":{\"direction\":1.5}}",
            "{\"response\":1}",
            "[1]",
        ] {
            assert_eq!(bad(t).outcome, Outcome::BadOutput, "{t:?}");
        }
        let e = bad("{\"response\":{\"direction\":7}}");
        assert_eq!(e.outcome, Outcome::BadOutput);
        assert!(
            e.detail.contains("direction 7 is not 0 (up)"),
            "{}",
            e.detail
        );
    }

    /// Found by the `botzone_answer` fuzz target: `data` / `globaldata`
    /// are handed back to the bot next turn, so a number must survive
    /// being read and written again; serde_json's fast float parsing was
    /// one ulp off for some long decimals (fixed by its `float_roundtrip`
    /// feature).
    #[test]
    fn globaldata_numbers_survive_a_round_trip() {
        let text = r#"{"response":{"direction":3},"globaldata":[999955999999995255559999994999999,99999.5255559999999999999]}"#;
        let a = parse_output(text).unwrap();
        let written = json!({"response": {"direction": 3}, "globaldata": a.globaldata});
        let b = parse_output(&written.to_string()).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn truthiness_follows_python() {
        for v in [
            json!(null),
            json!(false),
            json!(0),
            json!(""),
            json!([]),
            json!({}),
        ] {
            assert!(!truthy(&v), "{v}");
        }
        for v in [
            json!(true),
            json!(1),
            json!("0"),
            json!([0]),
            json!({"a": 0}),
        ] {
            assert!(truthy(&v), "{v}");
        }
    }

    #[test]
    fn modes_parse() {
        assert_eq!(
            "traditional".parse::<BotzoneMode>().ok(),
            Some(BotzoneMode::Traditional)
        );
        assert_eq!(
            "keep-running".parse::<BotzoneMode>().ok(),
            Some(BotzoneMode::KeepRunning)
        );
        assert_eq!("keep_running".parse::<BotzoneMode>().ok(), None);
        assert_eq!(BotzoneMode::default().as_str(), "traditional");
    }

    /// A keep-running bot in `sh` that always goes right (direction 1).
    fn right_bot(clock: Clock) -> BotzoneBot {
        let answer =
            r#"echo '{"response":{"direction":1}}'; echo '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<'"#;
        let spec = ExternalSpec {
            command: vec![
                "sh".into(),
                "-c".into(),
                format!("read l; {answer}; while read l; do {answer}; done"),
            ],
            protocol: crate::external::Protocol::Botzone {
                mode: BotzoneMode::KeepRunning,
            },
            workdir: std::env::temp_dir(),
            sandbox: crate::external::Sandbox::None,
            limits: crate::external::ProcessLimits::default(),
            env: Vec::new(),
            writable_workdir: false,
            mounts: Vec::new(),
        };
        BotzoneBot::new(
            &spec,
            BotzoneMode::KeepRunning,
            "right",
            None,
            GlobalData::default(),
            TimeLimits {
                clock,
                ..TimeLimits::default()
            },
        )
        .expect("a bot")
    }

    #[test]
    fn a_kept_bots_run_delay_is_read_under_the_wall_clock_only() {
        for clock in [Clock::Cpu, Clock::Wall] {
            let mut bot = right_bot(clock);
            let mut s = Snake::new(10, 12, &[]).expect("an empty board");
            for (phase, kept) in [
                (Phase::Init, false),
                (Phase::Act, false),
                (Phase::Act, true),
                (Phase::Act, true),
            ] {
                bot.prepare();
                let start = Instant::now();
                bot.request(phase, &s, 0, start, Duration::from_secs(5));
                let r = bot.wait(start + Duration::from_secs(10));
                assert!(r.result.is_ok(), "{clock:?} {phase:?}: {:?}", r.result);
                // A fresh process has exited when its answer is read.
                let read = kept && clock == Clock::Wall;
                assert_eq!(r.waited.is_some(), read, "{clock:?} {phase:?}: {r:?}");
                if phase == Phase::Act {
                    s.play(1, 3);
                }
            }
            assert_eq!(bot.processes_started(), 1, "{clock:?}");
            bot.end(&s, 0);
        }
    }
}
