//! The tournament runner: a config becomes a list of [`Episode`]s, each
//! episode is played under the time rules by [`play_episode`], and
//! [`run_tournament`] plays them concurrently, handing every finished
//! [`EpisodeRecord`] to a callback on the calling thread. The runner prints
//! nothing and writes no file: reporters do (see [`crate::output::rows`]).
//!
//! # Time rules (GVGAI's)
//! For each decision the harness starts its clock, hands over the state and
//! waits at most a wall-clock limit ([`TimeLimits::hang_limit`](crate::config::TimeLimits::hang_limit): twice the
//! hard limit under `clock = "wall"`, ten times under `clock = "cpu"`,
//! where a contestant stops waiting sooner for an agent that has been
//! silent, neither running nor waiting for a CPU, past the hard limit plus
//! a second: [`TimeLimits::gives_up_on_silence`](crate::config::TimeLimits::gives_up_on_silence)).
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

use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::play::batched::Batched;
pub use crate::play::episode::play_episode;
use crate::play::episode::{play, Deliver, Played};
pub use crate::play::factory::{log_label, ContestantFactory};
use crate::play::forfeit::Forfeits;
use crate::play::game::PlayGame;
use crate::play::outcome::Outcome;
use crate::play::player::{Failure, Phase};
pub use crate::play::record::{EpisodeRecord, SeatRecord};
pub use crate::play::schedule::{agent_seed, episode_seed, Episode};
use crate::play::watchdog::Watchdog;
use games::PlayerResult;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// A batch of events is over: nothing else is waiting to be reported
    /// (see [`Batched::drained`]), or the batch is long (`BATCH_MAX`
    /// messages or `BATCH_AGE`, constants of this module).
    CaughtUp,
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

/// Start agent `agent` of `cfg` once and ask for its set-up (for external
/// agents: the protocol's handshake), under its init limits, then stop it:
/// whether it can play at all. Its failure when it cannot.
pub fn probe<G: PlayGame>(cfg: &RunConfig, agent: usize) -> Result<(), Failure> {
    let spec = &cfg.agents[agent];
    let level = cfg.levels.first().cloned().unwrap_or_default();
    let mut state = G::load_named(cfg.game, &level, cfg.seed).map_err(|e| Failure {
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
    let mut c = factory.make::<G>(&ep, 0, spec, agent_seed(cfg.seed, 0), None)?;
    c.prepare();
    let start = Instant::now();
    c.request(Phase::Init, &state, 0, start, spec.time.init);
    let reply = c.wait(start + spec.time.hang_limit(spec.time.init_hard));
    c.close();
    reply.result.map(drop)
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
    let start = G::load_named(cfg.game, &ep.level, ep.seed).ok();
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

/// What the episode workers tell the run's thread.
enum Msg {
    /// A runner event, or a harness error.
    Event(Result<RunnerEvent, HarnessError>),
    /// A worker ran out of episodes (or was told to stop) and ended.
    Exit,
    /// A worker's agent hung: its episode was rescued (and delivered
    /// before this message); the worker's thread is abandoned.
    Lost,
}

/// What the episode workers share.
struct Pool {
    factory: ContestantFactory,
    episodes: Vec<Episode>,
    next: AtomicUsize,
    failed: AtomicBool,
    stopped: AtomicBool,
    forfeits: Option<Mutex<Forfeits>>,
    deliver: Deliver,
}

/// Start an episode worker: it plays the pool's next episode until none is
/// left, the run stops, or one of its agents hangs.
fn spawn_worker<G: PlayGame>(pool: &Arc<Pool>, tx: &mpsc::Sender<Msg>, n: usize) -> bool {
    let (pool, tx) = (Arc::clone(pool), tx.clone());
    std::thread::Builder::new()
        .name(format!("episode-{n}"))
        .spawn(move || work::<G>(&pool, &tx))
        .is_ok()
}

fn work<G: PlayGame>(pool: &Pool, tx: &mpsc::Sender<Msg>) {
    let cfg = pool.factory.config();
    loop {
        if pool.stopped.load(Ordering::Relaxed) || pool.failed.load(Ordering::Relaxed) {
            break;
        }
        let i = pool.next.fetch_add(1, Ordering::Relaxed);
        let Some(ep) = pool.episodes.get(i) else {
            break;
        };
        if tx
            .send(Msg::Event(Ok(RunnerEvent::Started(ep.clone()))))
            .is_err()
        {
            break;
        }
        // Certain to be forfeited: not played.
        let skip = pool.forfeits.as_ref().and_then(|f| {
            let f = lock(f);
            let out = f.certain(ep);
            (!out.is_empty()).then(|| forfeited_episode::<G>(cfg, ep, &out, f.k()))
        });
        let mut r = match skip {
            Some(rec) => Ok(Played::Done(rec)),
            None => play::<G>(&pool.factory, ep, Some(&pool.deliver)),
        };
        for _ in 0..INFRASTRUCTURE_RETRIES {
            let Ok(Played::Done(rec)) = &r else { break };
            let Some(s) = rec.seats.iter().find(|s| infrastructure_error(s)) else {
                break;
            };
            let why = format!("episode {}: {}", ep.index, s.detail);
            if tx
                .send(Msg::Event(Ok(RunnerEvent::Replayed(ep.clone(), why))))
                .is_err()
            {
                break;
            }
            r = play::<G>(&pool.factory, ep, Some(&pool.deliver));
        }
        let r = match r {
            // The rescue delivers the episode and says the worker is lost.
            Ok(Played::Abandoned) => return,
            Ok(Played::Done(rec)) => Ok(RunnerEvent::Finished(rec)),
            Err(e) => Err(e),
        };
        let is_err = r.is_err();
        if tx.send(Msg::Event(r)).is_err() || is_err {
            pool.failed.store(true, Ordering::Relaxed);
            break;
        }
    }
    let _ = tx.send(Msg::Exit);
}

/// A batch of events ends ([`RunnerEvent::CaughtUp`]) when nothing else
/// is waiting, or after this many messages, or [`BATCH_AGE`] after the
/// last one ended, whichever comes first: a run's thread that falls behind
/// its workers still has its reporters write what finished.
const BATCH_MAX: usize = 256;

/// The longest a batch of events lasts (see [`BATCH_MAX`]).
const BATCH_AGE: Duration = Duration::from_millis(100);

/// How often the run's thread looks at `stop()` while no event comes.
const STOP_POLL: Duration = Duration::from_millis(20);

/// Play `episodes` with `cfg.concurrency` episodes at once, calling
/// `on_event` on the calling thread when each starts and finishes (in
/// finishing order, in batches while they come fast: [`Batched`]). Stops starting new episodes once `stop()` says so
/// (finished ones are still delivered), or after a harness error. Returns the first harness error, if
/// any, after all started episodes have been delivered.
///
/// Episodes are played by a pool of `cfg.concurrency` detached worker
/// threads, reused from episode to episode; built-in agents run on the
/// worker's own thread, and the run's [`Watchdog`] enforces their
/// deadlines: a worker whose agent hangs is abandoned (its episode is
/// finished by the watchdog's rescue, see [`crate::play::episode`]) and
/// replaced.
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
    crate::play::timing::starvation::start();
    let watchdog = Watchdog::start().map_err(|e| HarnessError::Io {
        path: "<watchdog thread>".into(),
        source: e,
    })?;
    let forfeits = cfg.forfeit_after_timeouts.map(|k| {
        let mut f = Forfeits::new(k, episodes.iter().chain(done.iter().map(|r| &r.episode)));
        for r in done {
            note(&mut f, r);
        }
        Mutex::new(f)
    });
    let (tx, rx) = mpsc::channel::<Msg>();
    let rescued = Mutex::new(tx.clone());
    let deliver: Deliver = Arc::new(move |rec| {
        let tx = rescued.lock().unwrap_or_else(|p| p.into_inner());
        let _ = tx.send(Msg::Event(Ok(RunnerEvent::Finished(rec))));
        let _ = tx.send(Msg::Lost);
    });
    let pool = Arc::new(Pool {
        factory: ContestantFactory::watched(Arc::new(cfg.clone()), Arc::clone(&watchdog)),
        episodes: episodes.to_vec(),
        next: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        stopped: AtomicBool::new(false),
        forfeits,
        deliver,
    });
    let workers = cfg.concurrency.clamp(1, episodes.len().max(1));
    let mut spawned = 0;
    let mut live = 0usize;
    let mut first_err = None;
    if stop() {
        pool.stopped.store(true, Ordering::Relaxed);
    }
    for _ in 0..workers {
        if spawn_worker::<G>(&pool, &tx, spawned) {
            live += 1;
        }
        spawned += 1;
    }
    if live == 0 && !episodes.is_empty() {
        first_err = Some(HarnessError::Io {
            path: "<episode worker threads>".into(),
            source: std::io::Error::other("could not start a thread"),
        });
    }
    // Finished episodes whose fate is not known yet, by index.
    let mut held: Vec<EpisodeRecord> = Vec::new();
    let mut rx = Batched::new(rx);
    // Messages handled since the last `CaughtUp`, and when it was.
    let (mut since, mut last) = (0usize, Instant::now());
    while live > 0 {
        if !pool.stopped.load(Ordering::Relaxed) && stop() {
            pool.stopped.store(true, Ordering::Relaxed);
        }
        let msg = match rx.recv(Some(STOP_POLL)) {
            Ok(m) => m,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match msg {
            Msg::Exit => live -= 1,
            Msg::Lost => {
                live -= 1;
                let more = pool.next.load(Ordering::Relaxed) < pool.episodes.len();
                let going =
                    !pool.stopped.load(Ordering::Relaxed) && !pool.failed.load(Ordering::Relaxed);
                if more && going && spawn_worker::<G>(&pool, &tx, spawned) {
                    live += 1;
                }
                spawned += 1;
                // A run whose every worker is gone while episodes remain
                // ends with what it has; those are played when it resumes.
            }
            Msg::Event(Ok(RunnerEvent::Finished(rec))) if pool.forfeits.is_some() => {
                let Some(f) = &pool.forfeits else { continue };
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
            Msg::Event(Ok(ev)) => on_event(ev),
            Msg::Event(Err(e)) => {
                if first_err.is_none() {
                    first_err = Some(e);
                }
            }
        }
        since += 1;
        if rx.drained() || since >= BATCH_MAX || last.elapsed() >= BATCH_AGE {
            on_event(RunnerEvent::CaughtUp);
            (since, last) = (0, Instant::now());
        }
    }
    watchdog.shutdown();
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
        let cfg = crate::registry::parse_config(
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
    fn a_batch_of_events_ends_within_batch_max_messages_and_the_run_ends_caught_up() {
        let cfg = crate::registry::parse_config(
            "game = \"connect4\"\nrepetitions = 300\nconcurrency = 2\n\
             [[agents]]\nagent = \"random\"\nname = \"a\"\n\
             [[agents]]\nagent = \"random\"\nname = \"b\"\n",
            std::path::Path::new("t.toml"),
        )
        .unwrap();
        let plan = cfg
            .format
            .schedule()
            .plan(crate::play::schedule::PlanInput::from_config(&cfg, 2));
        // A reporter slower than the workers: the queue is seldom empty.
        let (mut since, mut longest, mut finished) = (0usize, 0usize, 0usize);
        let mut last_caught_up = false;
        run_tournament::<games::connect4::Connect4>(&cfg, &plan, &[], &|| false, &mut |ev| {
            last_caught_up = matches!(ev, RunnerEvent::CaughtUp);
            match ev {
                RunnerEvent::CaughtUp => since = 0,
                RunnerEvent::Finished(_) => {
                    finished += 1;
                    since += 1;
                    std::thread::sleep(Duration::from_micros(200));
                }
                _ => since += 1,
            }
            longest = longest.max(since);
        })
        .unwrap();
        assert_eq!(finished, plan.len());
        assert!(longest <= BATCH_MAX, "{longest} events without a CaughtUp");
        assert!(last_caught_up, "the last event is not CaughtUp");
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
