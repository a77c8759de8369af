//! The tournament runner: a config becomes a list of [`Episode`]s, each
//! episode is played under the time rules by [`play_episode`], and
//! [`run_tournament`] plays them concurrently, handing every finished
//! [`EpisodeRecord`] to a callback on the calling thread. The runner prints
//! nothing and writes no file: reporters do (see [`crate::output::rows`]).
//!
//! # Time rules (GVGAI's)
//! For each decision the harness starts its clock, hands over the state and
//! waits at most a wall-clock limit ([`TimeLimits::hang_limit`]: twice the
//! hard limit under `clock = "wall"`, ten times under `clock = "cpu"`,
//! where a contestant stops waiting sooner for an agent that has been
//! silent, neither running nor waiting for a CPU, past the hard limit plus
//! a second: [`TimeLimits::gives_up_on_silence`]).
//! Then [`crate::play::judge`] judges the time the chosen clock measured, less the
//! time that was not the agent's (on the wall clock the machine's load that
//! fell on it; on either, what a virtual machine's host took), which the
//! runner measures over the request ([`crate::play::timing::excusals`]):
//! - within the soft budget: the action is played;
//! - past the soft budget, within the hard limit: the game's fallback action
//!   (Bait: NIL) is played instead and an overrun is counted;
//! - past the hard limit, or no answer: the agent is disqualified, the
//!   episode ends, the agent loses (in a two-player game the opponent wins).
//!
//! Init follows the same rule with the init budget (an overrun is counted,
//! there is no action to replace).

use crate::config::{AgentSpec, RunConfig};
use crate::error::HarnessError;
use crate::play::forfeit::Forfeits;
use crate::play::game::{GlobalData, PlayGame};
use crate::play::judge::{self, Answer, Excusals, Usage, Verdict};
use crate::play::outcome::Outcome;
use crate::play::player::{Contestant, Failure, Phase, Reply};
pub use crate::play::schedule::{agent_seed, episode_seed, Episode};
use crate::play::timing::{ms, TimeLimits};
use games::PlayerResult;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

/// What happened to one seat in an episode (serialized in the run's
/// journal, see [`crate::output::journal`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// Index of the agent in the config.
    pub agent: usize,
    /// Win / loss / draw.
    #[serde(with = "crate::play::outcome::result_label")]
    pub result: PlayerResult,
    /// Normal, or how the agent misbehaved.
    #[serde(with = "crate::play::outcome::label")]
    pub outcome: Outcome,
    /// Details of a failure (empty when normal).
    pub detail: String,
    /// The seat's score at the end.
    pub score: f64,
    /// Time of every act, in ms, on the judging clock.
    pub act_ms: Vec<f64>,
    /// Time of init, in ms.
    pub init_ms: f64,
    /// CPU time of the agent's thread over init and all acts, in ms (where measured).
    pub cpu_ms: f64,
    /// Acts past the soft budget but within the hard limit.
    pub overruns: u32,
    /// Whether init was past its soft budget (within its hard limit).
    #[serde(default)]
    pub init_overrun: bool,
    /// Acts past the soft budget that were not charged, because the time
    /// was not the agent's: the machine's load kept it waiting for a CPU
    /// (wall clock) or the host of a virtual machine took it (see
    /// [`crate::play::judge::excused`]).
    #[serde(default)]
    pub starved: u32,
    /// The ticks whose act overran the soft budget (the fallback was played).
    #[serde(default)]
    pub overrun_ticks: Vec<u32>,
    /// Nodes expanded, if the agent reports them.
    pub expanded: Option<u64>,
    /// Processes of the agent found alive after the game and killed
    /// (external agents whose process tree left something behind).
    pub leaked: u32,
}

impl SeatRecord {
    /// The record of agent `agent` before it played (ongoing, normal,
    /// nothing measured).
    pub fn new(agent: usize) -> SeatRecord {
        SeatRecord {
            agent,
            result: PlayerResult::Ongoing,
            outcome: Outcome::Normal,
            detail: String::new(),
            score: 0.0,
            act_ms: Vec::new(),
            init_ms: 0.0,
            cpu_ms: 0.0,
            overruns: 0,
            init_overrun: false,
            starved: 0,
            overrun_ticks: Vec::new(),
            expanded: None,
            leaked: 0,
        }
    }

    /// Init plus all acts, in ms.
    pub fn total_ms(&self) -> f64 {
        self.init_ms + self.act_ms.iter().sum::<f64>()
    }
}

/// A finished episode.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EpisodeRecord {
    /// What was played.
    pub episode: Episode,
    /// Ticks played.
    pub steps: u32,
    /// One record per seat.
    pub seats: Vec<SeatRecord>,
    /// The actions played, one entry per tick (simultaneous moves joined by `/`).
    pub moves: Vec<String>,
    /// The machine that played it (host name; set by the run loop, empty
    /// in journals of older versions), so that timing can be split by machine.
    #[serde(default)]
    pub host: String,
    /// That machine's CPU model.
    #[serde(default)]
    pub cpu_model: String,
}

/// Judge a reply against the limits ([`crate::play::judge`]): measure what may
/// not have been the agent's time over it (only when it can matter), ask
/// the judge, and note the CPU time and a starved request in `record`.
/// The action to play with the verdict on its time (a disqualification
/// becomes the failure), and the time on the judging clock in ms.
fn judge<A>(
    reply: Reply<A>,
    limits: &TimeLimits,
    phase: Phase,
    record: &mut SeatRecord,
    started: Instant,
) -> (Result<(Option<A>, Verdict), Failure>, f64) {
    record.cpu_ms += reply.cpu.map(ms).unwrap_or(0.0);
    let usage = Usage {
        wall: reply.wall,
        cpu: reply.cpu,
        waited: reply.waited,
    };
    let t = ms(usage.on(limits.clock));
    let action = match reply.result {
        Err(f) => return (Err(f), t),
        Ok(a) => a,
    };
    let excusals = if judge::needs_excusals(&usage, limits, phase) {
        crate::play::timing::excusals(started, started + reply.wall)
    } else {
        Excusals::default()
    };
    match judge::judge(&usage, Answer::Given, excusals, limits, phase).verdict {
        Verdict::Disqualified { detail } => (
            Err(Failure {
                outcome: Outcome::Disqualified,
                detail,
            }),
            t,
        ),
        v => {
            if v == Verdict::Starved {
                record.starved += 1;
            }
            (Ok((action, v)), t)
        }
    }
}

/// What the runner reports while it plays, on the calling thread.
#[derive(Debug)]
pub enum RunnerEvent {
    /// An episode started.
    Started(Episode),
    /// An episode finished.
    Finished(EpisodeRecord),
    /// An episode hit an infrastructure error (the machine, not an agent:
    /// see [`infrastructure_error`]) and is played again; the failed try
    /// counts nowhere.
    Replayed(Episode, String),
}

/// How many times an episode is played again after an infrastructure error.
pub const INFRASTRUCTURE_RETRIES: u32 = 2;

/// Whether a seat's failure is the machine's, not the agent's: a process
/// that could not be started for lack of resources (`EAGAIN`, `ENOMEM`,
/// `EMFILE`, `ENFILE`). Such an episode is played again, not scored.
pub fn infrastructure_error(seat: &SeatRecord) -> bool {
    seat.outcome == Outcome::SpawnFailed
        && [
            "Resource temporarily unavailable",
            "Cannot allocate memory",
            "Too many open files",
            "os error 11)",
            "os error 12)",
            "os error 23)",
            "os error 24)",
        ]
        .iter()
        .any(|m| seat.detail.contains(m))
}

/// An agent's label as it stands in its stderr logs' names
/// (`logs/ep<index>-seat<seat>-<label>.stderr.log`): characters other than
/// `[A-Za-z0-9_-]` become `_`.
pub fn log_label(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Builds the contestants of a run's episodes, and holds what external
/// agents keep from game to game within the run (Botzone's `globaldata`).
#[derive(Debug)]
pub struct ContestantFactory<'a> {
    cfg: &'a RunConfig,
    keep: GlobalData,
}

impl<'a> ContestantFactory<'a> {
    /// A factory for the episodes of `cfg`, with nothing kept yet.
    pub fn new(cfg: &'a RunConfig) -> Self {
        ContestantFactory {
            cfg,
            keep: GlobalData::default(),
        }
    }

    /// The run's config.
    pub fn config(&self) -> &'a RunConfig {
        self.cfg
    }

    /// Build the contestant for `spec` in seat `seat` of episode `ep`.
    pub fn make<G: PlayGame>(
        &self,
        ep: &Episode,
        seat: usize,
        spec: &AgentSpec,
        seed: u64,
    ) -> Result<Box<dyn Contestant<G>>, Failure> {
        G::contestant(self.cfg, &self.keep, ep, seat, spec, seed)
    }
}

/// Start agent `agent` of `cfg` once and ask for its set-up (for external
/// agents: the protocol's handshake), under its init limits, then stop it:
/// whether it can play at all. Its failure when it cannot.
pub fn probe<G: PlayGame>(cfg: &RunConfig, agent: usize) -> Result<(), Failure> {
    let spec = &cfg.agents[agent];
    let level = cfg.levels.first().cloned().unwrap_or_default();
    let mut state = G::load_level(&level, cfg.seed).map_err(|e| Failure {
        outcome: Outcome::SpawnFailed,
        detail: e.to_string(),
    })?;
    // The start message then describes a state the agent can rebuild.
    if let Some(m) = cfg.max_steps {
        state.set_max_steps(m);
    }
    let ep = Episode {
        index: 0,
        level,
        repetition: 0,
        seats: vec![agent; state.num_players()],
        seed: cfg.seed,
        pair: None,
    };
    let factory = ContestantFactory::new(cfg);
    let mut c = factory.make::<G>(&ep, 0, spec, agent_seed(cfg.seed, 0))?;
    c.prepare();
    let start = Instant::now();
    c.request(Phase::Init, &state, 0, start, spec.time.init);
    let reply = c.wait(start + spec.time.hang_limit(spec.time.init_hard));
    c.close();
    reply.result.map(drop)
}

/// Play one episode to its end under the time rules.
pub fn play_episode<G: PlayGame>(
    factory: &ContestantFactory<'_>,
    ep: &Episode,
) -> Result<EpisodeRecord, HarnessError> {
    let cfg = factory.config();
    let mut state = G::load_level(&ep.level, ep.seed)?;
    if let Some(m) = cfg.max_steps {
        state.set_max_steps(m);
    }
    let players = state.num_players();
    let specs: Vec<&AgentSpec> = ep.seats.iter().map(|&a| &cfg.agents[a]).collect();
    let mut seats: Vec<SeatRecord> = ep
        .seats
        .iter()
        .map(|&agent| SeatRecord::new(agent))
        .collect();
    let mut failed: Vec<Option<Failure>> = vec![None; players];
    let mut contestants: Vec<Option<Box<dyn Contestant<G>>>> = Vec::with_capacity(players);
    for (s, spec) in specs.iter().enumerate() {
        match factory.make::<G>(ep, s, spec, agent_seed(ep.seed, s)) {
            Ok(c) => contestants.push(Some(c)),
            Err(f) => {
                failed[s] = Some(f);
                contestants.push(None);
            }
        }
    }

    // Init, all seats at once.
    let mut deadlines = vec![Instant::now(); players];
    let mut starts = deadlines.clone();
    for s in 0..players {
        if let Some(c) = contestants[s].as_mut() {
            c.prepare();
            let start = Instant::now();
            starts[s] = start;
            c.request(Phase::Init, &state, s, start, specs[s].time.init);
            deadlines[s] = start + specs[s].time.hang_limit(specs[s].time.init_hard);
        }
    }
    for s in 0..players {
        if let Some(c) = contestants[s].as_mut() {
            let (r, t) = judge(
                c.wait(deadlines[s]),
                &specs[s].time,
                Phase::Init,
                &mut seats[s],
                starts[s],
            );
            seats[s].init_ms = t;
            match r {
                Ok((_, v)) => seats[s].init_overrun = v == Verdict::Overrun,
                Err(f) => failed[s] = Some(f),
            }
        }
    }

    let mut moves = Vec::new();
    let mut joint: Vec<G::Action> = (0..players).map(|s| state.fallback_action(s)).collect();
    let mut names: Vec<String> = Vec::with_capacity(players);
    while !state.is_over() && failed.iter().all(Option::is_none) {
        let active: Vec<usize> = (0..players).filter(|&s| state.is_active(s)).collect();
        for &s in &active {
            let c = contestants[s]
                .as_mut()
                .expect("no failure means a contestant");
            c.prepare();
            let start = Instant::now();
            starts[s] = start;
            c.request(Phase::Act, &state, s, start, specs[s].time.act);
            deadlines[s] = start + specs[s].time.hang_limit(specs[s].time.act_hard);
        }
        names.clear();
        for (s, a) in joint.iter_mut().enumerate() {
            *a = state.fallback_action(s);
        }
        for &s in &active {
            let c = contestants[s]
                .as_mut()
                .expect("no failure means a contestant");
            let (r, t) = judge(
                c.wait(deadlines[s]),
                &specs[s].time,
                Phase::Act,
                &mut seats[s],
                starts[s],
            );
            seats[s].act_ms.push(t);
            match r {
                Err(f) => failed[s] = Some(f),
                Ok((_, Verdict::TimeForfeit { detail })) => {
                    seats[s].overruns += 1;
                    failed[s] = Some(Failure {
                        outcome: Outcome::TimeForfeit,
                        detail: format!("tick {}: {detail}", state.tick()),
                    });
                }
                Ok((_, Verdict::Overrun)) => {
                    seats[s].overruns += 1;
                    seats[s].overrun_ticks.push(state.tick());
                }
                Ok((a, _)) => {
                    let a = a.unwrap_or_else(|| state.fallback_action(s));
                    if state.is_legal(s, a) {
                        joint[s] = a;
                    } else {
                        failed[s] = Some(Failure {
                            outcome: Outcome::IllegalMove,
                            detail: format!(
                                "tick {}: `{}` is not legal",
                                state.tick(),
                                state.action_name(a)
                            ),
                        });
                    }
                }
            }
            names.push(state.action_name(joint[s]));
        }
        if failed.iter().any(Option::is_some) {
            break;
        }
        for c in contestants.iter_mut().flatten() {
            c.played(&state, &joint);
        }
        state.advance(&joint);
        moves.push(names.join("/"));
    }

    let any_failed = failed.iter().any(Option::is_some);
    for s in 0..players {
        seats[s].score = state.score(s);
        if let Some(f) = failed[s].take() {
            seats[s].result = PlayerResult::Loss;
            seats[s].outcome = f.outcome;
            seats[s].detail = f.detail;
        } else if any_failed {
            // An opponent forfeited: the others win; a puzzle cannot get here.
            seats[s].result = PlayerResult::Win;
        } else {
            seats[s].result = state.result(s);
        }
        if let Some(c) = contestants[s].as_mut() {
            if seats[s].outcome == Outcome::Normal {
                c.end(&state, s);
                seats[s].expanded = c.stats().expanded;
            }
        }
    }
    // Stop every agent (killing what its process tree left behind) before
    // reading the leak counts.
    for (s, c) in contestants.into_iter().enumerate() {
        if let Some(mut c) = c {
            c.close();
            seats[s].leaked = c.leaked() as u32;
        }
    }
    Ok(EpisodeRecord {
        episode: ep.clone(),
        steps: state.tick(),
        seats,
        moves,
        host: String::new(),
        cpu_model: String::new(),
    })
}

/// The forfeit rule, locked (a panic elsewhere poisons nothing it reads).
fn lock(f: &Mutex<Forfeits>) -> std::sync::MutexGuard<'_, Forfeits> {
    f.lock().unwrap_or_else(|p| p.into_inner())
}

/// The record of episode `ep` of `cfg`, not played because `forfeited`
/// agents forfeit it under the rule with `k` (see [`crate::play::forfeit`]):
/// each of their seats lost with [`Outcome::Forfeited`] and a detail
/// saying why, the other seats won; 0 steps, each seat's score the one at
/// the start.
fn forfeited_episode<G: PlayGame>(
    cfg: &RunConfig,
    ep: &Episode,
    forfeited: &[usize],
    k: usize,
) -> EpisodeRecord {
    let start = G::load_level(&ep.level, ep.seed).ok();
    let seats = ep
        .seats
        .iter()
        .enumerate()
        .map(|(s, &agent)| {
            let mut r = SeatRecord::new(agent);
            r.score = start.as_ref().map_or(0.0, |g| g.score(s));
            if forfeited.contains(&agent) {
                r.result = PlayerResult::Loss;
                r.outcome = Outcome::Forfeited;
                r.detail = crate::play::forfeit::detail(&cfg.agents[agent].label, k);
            } else {
                r.result = PlayerResult::Win;
            }
            r
        })
        .collect();
    EpisodeRecord {
        episode: ep.clone(),
        steps: 0,
        seats,
        moves: Vec::new(),
        host: String::new(),
        cpu_model: String::new(),
    }
}

/// Note `rec` in the forfeit rule.
fn note(f: &mut Forfeits, rec: &EpisodeRecord) {
    f.note(
        rec.episode.index,
        rec.seats.iter().map(|s| (s.agent, s.outcome)),
    );
}

/// Play `episodes` with `cfg.concurrency` episodes at once, calling
/// `on_event` on the calling thread when each starts and finishes (in
/// finishing order). Stops starting new episodes once `stop()` says so
/// (finished ones are still delivered), or after a harness error. Returns the first harness error, if
/// any, after all started episodes have been delivered.
///
/// With `cfg.forfeit_after_timeouts`, an agent's games after K
/// consecutive timeouts of its own are forfeited ([`crate::play::forfeit`]):
/// counted over `done` (the run's episodes recorded before, in a resumed
/// run) and `episodes`; a finished episode is delivered once its fate is
/// known (so possibly after episodes that finished later), and one whose
/// earlier games never finished (the run stopped first) is not delivered:
/// it is played again when the run continues.
pub fn run_tournament<G: PlayGame>(
    cfg: &RunConfig,
    episodes: &[Episode],
    done: &[EpisodeRecord],
    stop: &(dyn Fn() -> bool + Sync),
    on_event: &mut dyn FnMut(RunnerEvent),
) -> Result<(), HarnessError> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    crate::play::timing::starvation::start();
    let factory = ContestantFactory::new(cfg);
    let factory = &factory;
    let forfeits = cfg.forfeit_after_timeouts.map(|k| {
        let mut f = Forfeits::new(k, episodes.iter().chain(done.iter().map(|r| &r.episode)));
        for r in done {
            note(&mut f, r);
        }
        Mutex::new(f)
    });
    let forfeits = &forfeits;
    // Finished episodes whose fate is not known yet, by index.
    let mut held: Vec<EpisodeRecord> = Vec::new();
    let (tx, rx) = mpsc::channel::<Result<RunnerEvent, HarnessError>>();
    let workers = cfg.concurrency.clamp(1, episodes.len().max(1));
    let mut first_err = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let next = &next;
            let failed = &failed;
            scope.spawn(move || loop {
                if stop() || failed.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(ep) = episodes.get(i) else { break };
                if tx.send(Ok(RunnerEvent::Started(ep.clone()))).is_err() {
                    break;
                }
                // Certain to be forfeited: not played.
                let skip = forfeits.as_ref().and_then(|f| {
                    let f = lock(f);
                    let out = f.certain(ep);
                    (!out.is_empty()).then(|| forfeited_episode::<G>(cfg, ep, &out, f.k()))
                });
                let mut r = match skip {
                    Some(rec) => Ok(rec),
                    None => play_episode::<G>(factory, ep),
                };
                for _ in 0..INFRASTRUCTURE_RETRIES {
                    let Ok(rec) = &r else { break };
                    let Some(s) = rec.seats.iter().find(|s| infrastructure_error(s)) else {
                        break;
                    };
                    let why = format!("episode {}: {}", ep.index, s.detail);
                    if tx.send(Ok(RunnerEvent::Replayed(ep.clone(), why))).is_err() {
                        break;
                    }
                    r = play_episode::<G>(factory, ep);
                }
                let r = r.map(RunnerEvent::Finished);
                let is_err = r.is_err();
                if tx.send(r).is_err() || is_err {
                    failed.store(true, Ordering::Relaxed);
                    break;
                }
            });
        }
        drop(tx);
        for r in rx {
            match r {
                Ok(RunnerEvent::Finished(rec)) if forfeits.is_some() => {
                    let Some(f) = forfeits else { continue };
                    let at = held.partition_point(|h| h.episode.index < rec.episode.index);
                    held.insert(at, rec);
                    // In episode order: a fate depends on earlier games only.
                    let mut ready = Vec::new();
                    let mut f = lock(f);
                    held.retain(|rec| match f.fate(&rec.episode) {
                        None => true,
                        Some(out) => {
                            let rec = if out.is_empty() {
                                rec.clone()
                            } else {
                                forfeited_episode::<G>(cfg, &rec.episode, &out, f.k())
                            };
                            note(&mut f, &rec);
                            ready.push(rec);
                            false
                        }
                    });
                    drop(f);
                    for rec in ready {
                        on_event(RunnerEvent::Finished(rec));
                    }
                }
                Ok(ev) => on_event(ev),
                Err(e) => {
                    if first_err.is_none() {
                        first_err = Some(e);
                    }
                }
            }
        }
    });
    match first_err {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(outcome: Outcome, detail: &str) -> SeatRecord {
        SeatRecord {
            result: PlayerResult::Loss,
            outcome,
            detail: detail.into(),
            ..SeatRecord::new(0)
        }
    }

    #[test]
    fn a_forfeited_episode_is_lost_by_the_forfeiting_agent_and_won_by_the_other() {
        let cfg = crate::config::parse(
            "game = \"connect4\"\n[[agents]]\nagent = \"random\"\nname = \"a\"\n\
             [[agents]]\nagent = \"random\"\nname = \"b\"\n",
            std::path::Path::new("t.toml"),
        )
        .unwrap();
        let ep = Episode {
            index: 4,
            level: cfg.levels[0].clone(),
            repetition: 0,
            seats: vec![1, 0],
            seed: 9,
            pair: None,
        };
        let r = forfeited_episode::<games::connect4::Connect4>(&cfg, &ep, &[1], 3);
        assert_eq!((r.steps, r.moves.len()), (0, 0));
        let (lost, won) = (&r.seats[0], &r.seats[1]);
        assert_eq!(
            (lost.agent, lost.outcome, lost.result),
            (1, Outcome::Forfeited, PlayerResult::Loss)
        );
        assert_eq!(lost.detail, crate::play::forfeit::detail("b", 3));
        assert_eq!(
            (won.agent, won.outcome, won.result, won.detail.as_str()),
            (0, Outcome::Normal, PlayerResult::Win, "")
        );
    }

    #[test]
    fn only_the_machines_failures_are_infrastructure_errors() {
        let eagain = "cannot start [\"python3\"]: Resource temporarily unavailable (os error 11)";
        assert!(infrastructure_error(&seat(Outcome::SpawnFailed, eagain)));
        assert!(infrastructure_error(&seat(
            Outcome::SpawnFailed,
            "cannot start: Too many open files (os error 24)"
        )));
        // The agent's own fault: a missing program, a crash.
        assert!(!infrastructure_error(&seat(
            Outcome::SpawnFailed,
            "cannot start [\"nope\"]: No such file or directory (os error 2)"
        )));
        assert!(!infrastructure_error(&seat(Outcome::Crash, eagain)));
    }
}
