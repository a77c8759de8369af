//! One episode played to its end under the time rules ([`play`]).
//!
//! The episode's state (the game, the seats' records, the contestants)
//! lives behind a mutex so that, when a built-in agent that runs on the
//! episode's thread ([`crate::play::direct::Direct`]) hangs, the run's
//! watchdog can hand the episode to a rescue thread (`EpisodeHook`): it
//! records the disqualification as the episode's thread would have, and
//! finishes the episode (`finish`) from where it stood. The stuck thread
//! then leaves the episode alone ([`Played::Abandoned`]).

use crate::error::HarnessError;
use crate::play::factory::ContestantFactory;
use crate::play::game::PlayGame;
use crate::play::judge::{self, Answer, Excusals, Usage, Verdict};
use crate::play::outcome::Outcome;
use crate::play::player::{Contestant, Failure, Phase, Reply};
use crate::play::record::{EpisodeRecord, SeatRecord};
use crate::play::schedule::{agent_seed, Episode};
use crate::play::timing::{ms, TimeLimits};
use crate::play::watchdog::Hung;
use games::PlayerResult;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Instant;

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
        counted: reply.counted,
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

/// How an episode's thread left it.
#[derive(Debug)]
pub enum Played {
    /// Played to its end.
    Done(EpisodeRecord),
    /// An agent hung on this thread; the watchdog's rescue finishes the
    /// episode and delivers it.
    Abandoned,
}

/// Where a rescued episode's record goes.
pub type Deliver = Arc<dyn Fn(EpisodeRecord) + Send + Sync>;

/// An episode in play.
struct Play<G: PlayGame> {
    episode: Episode,
    state: Arc<G>,
    limits: Vec<TimeLimits>,
    seats: Vec<SeatRecord>,
    failed: Vec<Option<Failure>>,
    contestants: Vec<Option<Box<dyn Contestant<G>>>>,
    moves: Vec<String>,
    /// Whether the seats' results are set ([`finish`]).
    resolved: bool,
    /// Seats whose agent was told the game is over (or need not be).
    ended: Vec<bool>,
}

type Guard<'m, G> = MutexGuard<'m, Play<G>>;

fn lock<G: PlayGame>(m: &Mutex<Play<G>>) -> Guard<'_, G> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The watchdog's way into an episode (see the module doc).
struct EpisodeHook<G: PlayGame> {
    play: Weak<Mutex<Play<G>>>,
    deliver: Deliver,
}

impl<G: PlayGame> Hung for EpisodeHook<G> {
    fn claim(
        &self,
        seat: usize,
        phase: Option<Phase>,
        failure: Failure,
        t_ms: f64,
    ) -> Option<Box<dyn FnOnce() + Send>> {
        let play = self.play.upgrade()?;
        let deliver = Arc::clone(&self.deliver);
        Some(Box::new(move || {
            let mut g = lock(&play);
            match phase {
                Some(Phase::Init) => {
                    g.seats[seat].init_ms = t_ms;
                    g.failed[seat] = Some(failure);
                }
                Some(Phase::Act) => {
                    g.seats[seat].act_ms.push(t_ms);
                    g.failed[seat] = Some(failure);
                }
                None => {}
            }
            if let Some(rec) = finish(&play, g) {
                deliver(rec);
            }
        }))
    }
}

/// Ask seat `s`, whose agent runs on this thread, with the episode unlocked
/// (the watchdog's rescue may need it). `None` when the call was abandoned.
fn ask_here<'m, G: PlayGame>(
    m: &'m Mutex<Play<G>>,
    mut g: Guard<'m, G>,
    s: usize,
    phase: Phase,
) -> Option<(Guard<'m, G>, Reply<G::Action>, Instant)> {
    let mut c = g.contestants[s].take()?;
    let state = Arc::clone(&g.state);
    let limits = g.limits[s];
    drop(g);
    let (budget, hard) = phase.budgets(&limits);
    c.prepare();
    let start = Instant::now();
    let reply = c.ask(
        phase,
        &state,
        s,
        start,
        budget,
        start + limits.hang_limit(hard),
    );
    if c.abandoned() {
        return None;
    }
    drop(state);
    let mut g = lock(m);
    g.contestants[s] = Some(c);
    Some((g, reply, start))
}

/// Seat `s`'s reply in `phase` (the seat has a contestant): asked now if
/// its agent runs on this thread ([`ask_here`]), else awaited from its own
/// worker, asked at `start` to answer by `deadline`. `None` when the call
/// was abandoned.
fn reply_of<'m, G: PlayGame>(
    m: &'m Mutex<Play<G>>,
    mut g: Guard<'m, G>,
    s: usize,
    phase: Phase,
    start: Instant,
    deadline: Instant,
) -> Option<(Guard<'m, G>, Reply<G::Action>, Instant)> {
    let c = g.contestants[s]
        .as_mut()
        .expect("no failure means a contestant");
    if c.on_caller_thread() {
        return ask_here(m, g, s, phase);
    }
    let reply = c.wait(deadline);
    Some((g, reply, start))
}

/// Play one episode to its end under the time rules (built-in agents on
/// worker threads of their own unless the factory has a watchdog).
pub fn play_episode<G: PlayGame>(
    factory: &ContestantFactory,
    ep: &Episode,
) -> Result<EpisodeRecord, HarnessError> {
    match play::<G>(factory, ep, None)? {
        Played::Done(rec) => Ok(rec),
        Played::Abandoned => unreachable!("no watchdog, no rescue"),
    }
}

/// Play one episode to its end under the time rules. With `deliver` (and a
/// factory with a watchdog), built-in agents run on this thread, and an
/// episode rescued from a hung agent is delivered there.
pub fn play<G: PlayGame>(
    factory: &ContestantFactory,
    ep: &Episode,
    deliver: Option<&Deliver>,
) -> Result<Played, HarnessError> {
    let cfg = factory.config();
    let mut state = G::load_named(cfg.game, &ep.level, ep.seed)?;
    if let Some(m) = cfg.max_steps {
        state.set_max_steps(m);
    }
    let players = state.num_players();
    let play = Arc::new(Mutex::new(Play {
        episode: ep.clone(),
        state: Arc::new(state),
        limits: ep.seats.iter().map(|&a| cfg.agents[a].time).collect(),
        seats: ep.seats.iter().map(|&a| SeatRecord::new(a)).collect(),
        failed: vec![None; players],
        contestants: (0..players).map(|_| None).collect(),
        moves: Vec::new(),
        resolved: false,
        ended: vec![false; players],
    }));
    let hook = deliver.map(|d| {
        Arc::new(EpisodeHook {
            play: Arc::downgrade(&play),
            deliver: Arc::clone(d),
        }) as Arc<dyn Hung>
    });
    let m = &*play;
    let mut g = lock(m);
    for (s, &a) in ep.seats.iter().enumerate() {
        let spec = &cfg.agents[a];
        match factory.make::<G>(ep, s, spec, agent_seed(ep.seed, s), hook.as_ref()) {
            Ok(c) => g.contestants[s] = Some(c),
            Err(f) => g.failed[s] = Some(f),
        }
    }

    // Init, all seats at once (those on this thread one after the other).
    let mut deadlines = vec![Instant::now(); players];
    let mut starts = deadlines.clone();
    for s in 0..players {
        let limits = g.limits[s];
        let state = Arc::clone(&g.state);
        if let Some(c) = g.contestants[s].as_mut().filter(|c| !c.on_caller_thread()) {
            c.prepare();
            let start = Instant::now();
            starts[s] = start;
            c.request(Phase::Init, &state, s, start, limits.init);
            deadlines[s] = start + limits.hang_limit(limits.init_hard);
        }
    }
    for s in 0..players {
        if g.contestants[s].is_none() {
            continue;
        }
        let Some((g2, reply, start)) = reply_of(m, g, s, Phase::Init, starts[s], deadlines[s])
        else {
            return Ok(Played::Abandoned);
        };
        g = g2;
        let p = &mut *g;
        let (r, t) = judge(reply, &p.limits[s], Phase::Init, &mut p.seats[s], start);
        p.seats[s].init_ms = t;
        match r {
            Ok((_, v)) => p.seats[s].init_overrun = v == Verdict::Overrun,
            Err(f) => p.failed[s] = Some(f),
        }
    }

    let mut joint: Vec<G::Action> = (0..players).map(|s| g.state.fallback_action(s)).collect();
    let mut names: Vec<String> = Vec::with_capacity(players);
    let mut active: Vec<usize> = Vec::with_capacity(players);
    while !g.state.is_over() && g.failed.iter().all(Option::is_none) {
        active.clear();
        active.extend((0..players).filter(|&s| g.state.is_active(s)));
        let state = Arc::clone(&g.state);
        for &s in &active {
            let limits = g.limits[s];
            let c = g.contestants[s]
                .as_mut()
                .expect("no failure means a contestant");
            if c.on_caller_thread() {
                continue;
            }
            c.prepare();
            let start = Instant::now();
            starts[s] = start;
            c.request(Phase::Act, &state, s, start, limits.act);
            deadlines[s] = start + limits.hang_limit(limits.act_hard);
        }
        drop(state);
        names.clear();
        for (s, a) in joint.iter_mut().enumerate() {
            *a = g.state.fallback_action(s);
        }
        for &s in &active {
            let Some((g2, reply, start)) = reply_of(m, g, s, Phase::Act, starts[s], deadlines[s])
            else {
                return Ok(Played::Abandoned);
            };
            g = g2;
            let p = &mut *g;
            let (r, t) = judge(reply, &p.limits[s], Phase::Act, &mut p.seats[s], start);
            p.seats[s].act_ms.push(t);
            let state = &p.state;
            match r {
                Err(f) => p.failed[s] = Some(f),
                Ok((_, Verdict::TimeForfeit { detail })) => {
                    p.seats[s].overruns += 1;
                    p.failed[s] = Some(Failure {
                        outcome: Outcome::TimeForfeit,
                        detail: format!("tick {}: {detail}", state.tick()),
                    });
                }
                Ok((_, Verdict::Overrun)) => {
                    p.seats[s].overruns += 1;
                    p.seats[s].overrun_ticks.push(state.tick());
                }
                Ok((a, _)) => {
                    let a = a.unwrap_or_else(|| state.fallback_action(s));
                    if state.is_legal(s, a) {
                        joint[s] = a;
                    } else {
                        p.failed[s] = Some(Failure {
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
        if g.failed.iter().any(Option::is_some) {
            break;
        }
        let p = &mut *g;
        for c in p.contestants.iter_mut().flatten() {
            c.played(&p.state, &joint);
        }
        Arc::make_mut(&mut p.state).advance(&joint);
        p.moves.push(names.join("/"));
    }
    Ok(match finish(m, g) {
        Some(rec) => Played::Done(rec),
        None => Played::Abandoned,
    })
}

/// Finish an episode that is over (or that a failure ended): set the
/// seats' results, tell the agents still playing that the game is over,
/// stop every agent, and make the record. `None` when an agent's `end()`
/// hung on this thread and the watchdog's rescue took the episode over.
fn finish<'m, G: PlayGame>(m: &'m Mutex<Play<G>>, mut g: Guard<'m, G>) -> Option<EpisodeRecord> {
    let players = g.seats.len();
    if !g.resolved {
        g.resolved = true;
        let p = &mut *g;
        let any_failed = p.failed.iter().any(Option::is_some);
        for s in 0..players {
            p.seats[s].score = p.state.score(s);
            if let Some(f) = p.failed[s].take() {
                p.seats[s].result = PlayerResult::Loss;
                p.seats[s].outcome = f.outcome;
                p.seats[s].detail = f.detail;
            } else if any_failed {
                // An opponent forfeited: the others win; a puzzle cannot get here.
                p.seats[s].result = PlayerResult::Win;
            } else {
                p.seats[s].result = p.state.result(s);
            }
        }
    }
    for s in 0..players {
        if std::mem::replace(&mut g.ended[s], true) || g.seats[s].outcome != Outcome::Normal {
            continue;
        }
        let Some(mut c) = g.contestants[s].take() else {
            continue;
        };
        let state = Arc::clone(&g.state);
        if c.on_caller_thread() {
            drop(g);
            c.end(&state, s);
            if c.abandoned() {
                return None;
            }
            g = lock(m);
        } else {
            c.end(&state, s);
        }
        g.seats[s].expanded = c.stats().expanded;
        g.contestants[s] = Some(c);
    }
    // Stop every agent (killing what its process tree left behind) before
    // reading the leak counts.
    let p = &mut *g;
    for (s, c) in p.contestants.iter_mut().enumerate() {
        if let Some(mut c) = c.take() {
            c.close();
            p.seats[s].leaked = c.leaked() as u32;
        }
    }
    Some(EpisodeRecord {
        episode: p.episode.clone(),
        steps: p.state.tick(),
        seats: std::mem::take(&mut p.seats),
        moves: std::mem::take(&mut p.moves),
        host: String::new(),
        cpu_model: String::new(),
    })
}
