//! The searches a [`super::Solver`] schedules ([`Engine`]): one search
//! (forward, or backward from the solved positions), the bidirectional
//! search (with its optional box-pull half), or the serial decomposition,
//! each run a number of expansions at a time; and the backward
//! feature-space search that runs beside the others ([`Beside`]).

use super::decompose::{Serial, SerialStep};
use super::memory::Footprint;
use super::search::{Searcher, Step, Way};
use super::{SolveStatus, POLL};

/// One search of a [`super::Solver`].
pub(super) enum Engine {
    /// One search; `proves` when exhausting it proves unsolvability (no
    /// goal macros). A backward one is solved when its pulls reach the
    /// start. `label` names it in results ([`Engine::label`]).
    Single {
        s: Box<Searcher>,
        proves: bool,
        label: &'static str,
    },
    /// The serial decomposition (`decompose.rs`): never a proof.
    Serial(Box<Serial>),
    /// Forward and backward searches, `ratio` backward expansions per
    /// forward one, until they meet.
    Bi {
        f: Box<Searcher>,
        b: Box<Searcher>,
        ratio: u32,
        f_proves: bool,
        /// A second backward half that pulls whole boxes
        /// ([`super::SolveOptions::box_pulls`]); it meets the same forward half.
        pulls: Option<BoxPulls>,
    },
}

/// What a unit of the bidirectional search's work ([`Engine::work`])
/// counts for: it takes about three times the time of a unit of the
/// backward feature-space search's (2.2 to 3.2 µs against 0.8 to 1.0 µs,
/// one job, on four Sasquatch I levels; the pre-pass's took 1.3 to 2.7
/// µs), so that the shares of work ([`Beside`], the pre-pass's turns)
/// are about shares of time.
pub(super) const BI_WORK: u64 = 3;

/// One search's work: states stored plus states expanded (dead-end
/// proofs included).
fn searcher_work(s: &Searcher) -> u64 {
    s.nodes.len() as u64 + s.expanded + s.proof_work
}

/// The box-pull backward half of an [`Engine::Bi`] and its schedule.
pub(super) struct BoxPulls {
    /// The box-pull backward search.
    pub s: Box<Searcher>,
    /// One of its expansions per this many of the other two halves'.
    pub every: u64,
    /// It starts once the other two halves made this many expansions (the
    /// pre-pass has run by then).
    pub after: u64,
    /// Expansions of the other two halves since its last one.
    pub tick: u64,
}

/// What one engine step found.
pub(super) enum Event {
    Running,
    Found(Vec<(u16, u8)>),
    /// Solved, as moves from the start (the serial decomposition).
    Moves(String),
    /// This engine can do no more; `proof` when that proves unsolvability.
    Stopped {
        status: SolveStatus,
        proof: bool,
    },
}

impl Engine {
    pub(super) fn expanded(&self) -> u64 {
        match self {
            Engine::Single { s, .. } => s.expanded,
            Engine::Serial(s) => s.expanded,
            Engine::Bi { f, b, pulls, .. } => {
                f.expanded + b.expanded + pulls.as_ref().map_or(0, |p| p.s.expanded)
            }
        }
    }

    /// The work done so far, deterministic: states stored plus states
    /// expanded, over all its searches (dead-end proofs included); the
    /// bidirectional search's counted [`BI_WORK`] times.
    pub(super) fn work(&self) -> u64 {
        let w = searcher_work;
        match self {
            Engine::Single { s, .. } => w(s),
            Engine::Serial(s) => s.expanded,
            Engine::Bi { f, b, pulls, .. } => {
                BI_WORK * (w(f) + w(b) + pulls.as_ref().map_or(0, |p| w(&p.s)))
            }
        }
    }

    /// What results call it ([`super::SolveResult::found_by`]).
    pub(super) fn label(&self) -> &'static str {
        match self {
            Engine::Single { label, .. } => label,
            Engine::Serial(_) => "serial",
            Engine::Bi { .. } => "bidirectional",
        }
    }

    /// The bytes of its searches' tables ([`Footprint`]).
    pub(super) fn footprint(&self) -> Footprint {
        match self {
            Engine::Single { s, .. } => s.footprint(),
            Engine::Serial(s) => s.footprint(),
            Engine::Bi { f, b, pulls, .. } => {
                f.footprint()
                    + b.footprint()
                    + pulls.as_ref().map(|p| p.s.footprint()).unwrap_or_default()
            }
        }
    }

    pub(super) fn start(&self) -> Option<Vec<(u16, u8)>> {
        match self {
            Engine::Single { s, .. } | Engine::Bi { f: s, .. } if s.is_goal(0) => Some(Vec::new()),
            Engine::Bi { f, b, .. } => {
                let n = &f.nodes[0];
                (0..b.nodes.len() as u32).find_map(|bid| {
                    let m = &b.nodes[bid as usize];
                    (m.hash == n.hash
                        && m.player == n.player
                        && b.node_boxes(bid) == f.node_boxes(0))
                    .then(|| join(b, Vec::new(), bid))
                })
            }
            _ => None,
        }
    }

    /// Run about `budget` expansions.
    pub(super) fn run(&mut self, budget: u64) -> Event {
        match self {
            Engine::Serial(s) => match s.step(budget) {
                SerialStep::Running => Event::Running,
                SerialStep::Solved(moves) => Event::Moves(moves),
                SerialStep::GaveUp => Event::Stopped {
                    status: SolveStatus::NodeLimit,
                    proof: false,
                },
            },
            Engine::Single { s, proves, .. } => {
                for _ in 0..budget {
                    match s.step() {
                        Step::Continue => {}
                        Step::Goal(id) => return Event::Found(from_start(s, id)),
                        Step::Exhausted => {
                            return Event::Stopped {
                                status: SolveStatus::Unsolvable,
                                proof: *proves,
                            }
                        }
                        Step::Full => {
                            return Event::Stopped {
                                status: SolveStatus::NodeLimit,
                                proof: false,
                            }
                        }
                    }
                }
                Event::Running
            }
            Engine::Bi {
                f,
                b,
                ratio,
                f_proves,
                pulls,
            } => {
                let mut spent = 0;
                while spent < budget {
                    if let Some(p) = pulls {
                        if p.tick >= p.every && f.expanded + b.expanded >= p.after {
                            p.tick = 0;
                            spent += 1;
                            match p.s.step() {
                                Step::Continue => {}
                                Step::Goal(id) => return Event::Found(from_start(&p.s, id)),
                                Step::Exhausted => {
                                    return Event::Stopped {
                                        status: SolveStatus::Unsolvable,
                                        proof: true,
                                    }
                                }
                                // The other halves go on without it.
                                Step::Full => *pulls = None,
                            }
                            if let Some(p) = pulls {
                                if let Some(path) = meet_forward(&p.s, f) {
                                    return Event::Found(path);
                                }
                            }
                        }
                    }
                    for _ in 0..*ratio {
                        if b.is_exhausted() {
                            break;
                        }
                        spent += 1;
                        match b.step() {
                            Step::Continue => {}
                            Step::Goal(id) => return Event::Found(from_start(b, id)),
                            Step::Exhausted => {
                                return Event::Stopped {
                                    status: SolveStatus::Unsolvable,
                                    proof: true,
                                }
                            }
                            Step::Full => {
                                return Event::Stopped {
                                    status: SolveStatus::NodeLimit,
                                    proof: false,
                                }
                            }
                        }
                        if let Some(path) = meet_forward(b, f) {
                            return Event::Found(path);
                        }
                    }
                    if f.is_exhausted() {
                        if *f_proves {
                            return Event::Stopped {
                                status: SolveStatus::Unsolvable,
                                proof: true,
                            };
                        }
                        if b.is_exhausted() {
                            return Event::Stopped {
                                status: SolveStatus::Unsolvable,
                                proof: false,
                            };
                        }
                        continue;
                    }
                    spent += 1;
                    match f.step() {
                        Step::Continue | Step::Exhausted => {}
                        Step::Goal(id) => return Event::Found(from_start(f, id)),
                        Step::Full => {
                            return Event::Stopped {
                                status: SolveStatus::NodeLimit,
                                proof: false,
                            }
                        }
                    }
                    for &fid in &f.fresh {
                        let n = &f.nodes[fid as usize];
                        let boxes = f.node_boxes(fid);
                        if let Some(bid) = b.lookup(n.hash, boxes, n.player) {
                            return Event::Found(join(b, f.path(fid), bid));
                        }
                        if let Some(p) = pulls {
                            if let Some(bid) = p.s.lookup(n.hash, boxes, n.player) {
                                return Event::Found(join(&p.s, f.path(fid), bid));
                            }
                        }
                    }
                    if let Some(p) = pulls {
                        p.tick += u64::from(*ratio) + 1;
                    }
                }
                Event::Running
            }
        }
    }
}

/// The whole path, if a state the backward search `bk` just made is in
/// the forward search `f`'s table.
fn meet_forward(bk: &Searcher, f: &Searcher) -> Option<Vec<(u16, u8)>> {
    bk.fresh.iter().find_map(|&bid| {
        let m = &bk.nodes[bid as usize];
        let fid = f.lookup(m.hash, bk.node_boxes(bid), m.player)?;
        Some(join(bk, f.path(fid), bid))
    })
}

/// The pushes from the start to the goal node `id` of search `s`: its path
/// forward, or backward its pulls from `id` back to its root, reversed.
fn from_start(s: &Searcher, id: u32) -> Vec<(u16, u8)> {
    match s.way {
        Way::Forward => s.path(id),
        Way::Backward => join(s, Vec::new(), id),
    }
}

/// Forward pushes `fwd` followed by the backward search's pulls from node
/// `bid` back to its root, reversed into pushes.
pub(super) fn join(bk: &Searcher, mut fwd: Vec<(u16, u8)>, bid: u32) -> Vec<(u16, u8)> {
    let board = &bk.shared().board;
    for (x, d) in bk.path(bid).into_iter().rev() {
        let to = board.nbr[x as usize][d as usize];
        fwd.push((to, d ^ 1));
    }
    fwd
}

/// Expansions of a [`Beside`] engine's turn: once behind its share, it
/// runs this many before the others go on. Long turns keep each search's
/// tables in the caches: with turns of [`POLL`] expansions the searches
/// took turns about every millisecond, and Sasquatch I 33 took 10 % more
/// time for the same expansions.
const BURST: u64 = 8192;

/// An engine that runs beside the others of a [`super::Solver`] (the
/// backward feature-space search, [`super::SolveOptions::backward_share`]):
/// once they are ready for it, it gets `share` percent of the work
/// ([`Engine::work`]) done from then on, in turns of [`BURST`]
/// expansions. Work, not time, so the turns do not depend on the
/// machine's speed or load.
pub(super) struct Beside {
    /// The engine.
    pub engine: Engine,
    /// Its percentage of the work, 1 to 99.
    share: u64,
    /// The others' work when it started.
    from: Option<u64>,
    /// Its own work so far.
    work: u64,
    /// Expansions left in its turn.
    turn: u64,
}

impl Beside {
    /// `engine` beside the others, with `share` percent of the work (clamped
    /// to 1..=99) once they are ready.
    pub fn new(engine: Engine, share: u8) -> Beside {
        Beside {
            engine,
            share: u64::from(share.clamp(1, 99)),
            from: None,
            work: 0,
            turn: 0,
        }
    }

    /// Whether this engine runs next, the others having done `work` so
    /// far: it starts the first time they are `ready`, and a turn starts
    /// when it is behind its share.
    pub fn due(&mut self, ready: bool, work: u64) -> bool {
        if self.from.is_none() && ready {
            self.from = Some(work);
        }
        let Some(from) = self.from else {
            return false;
        };
        if self.turn == 0 {
            let others = work.saturating_sub(from);
            if self.work * (100 - self.share) < others * self.share {
                self.turn = BURST;
            }
        }
        self.turn > 0
    }

    /// Run [`POLL`] expansions of its turn and count its work.
    pub fn run(&mut self) -> Event {
        let before = (self.engine.work(), self.engine.expanded());
        let event = self.engine.run(POLL);
        self.work += self.engine.work() - before.0;
        let ran = (self.engine.expanded() - before.1).max(1);
        self.turn = self.turn.saturating_sub(ran);
        event
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::search::{fixtures, Config, Order};
    use std::sync::Arc;

    #[test]
    fn beside_waits_then_takes_its_share_of_the_work() {
        let sh = fixtures::shared(crate::sokoban::exhaustive::small_microban_boards().remove(0));
        let s = Searcher::new(Arc::clone(&sh), Way::Backward, fixtures::fess());
        let mut side = Beside::new(
            Engine::Single {
                s: Box::new(s),
                proves: true,
                label: "backward fess",
            },
            25,
        );
        // Until the others are ready: never its turn.
        assert!(!side.due(false, 0));
        assert!(!side.due(false, 50_000));
        // From then on (the others' work then: 60,000), a quarter of the
        // work done from that point, ready or not.
        assert!(!side.due(true, 60_000), "nothing done since it started");
        assert!(side.due(false, 60_003));
        // A turn, once started, lasts `BURST` expansions, however far
        // ahead of its share it gets meanwhile.
        side.work = 1_000_000;
        assert!(side.due(true, 60_003));
        side.run();
        let ran = side.engine.expanded();
        assert!(ran > 0);
        assert_eq!(
            side.turn,
            BURST - ran,
            "the turn counts the expansions it ran"
        );
        assert!(side.due(true, 60_003), "the turn is not over");
        side.turn = 1;
        side.run();
        assert_eq!(side.turn, 0);
        // Then the next turn starts when it is behind its share again.
        side.work = 999;
        assert!(side.due(true, 63_000), "999 of 3,999 is under a quarter");
        side.turn = 0;
        side.work = 1000;
        assert!(!side.due(true, 63_000), "1,000 of 4,000 is a quarter");
        assert!(side.due(true, 63_100));
        // Clamped shares: never all of the work, never none of it.
        assert_eq!(Beside::new(side.engine, 200).share, 99);
    }

    #[test]
    fn the_bidirectional_search_counts_its_work_three_times() {
        // Its states and expansions cost about three times the time of the
        // backward feature-space search's, so its turns and the share
        // beside it count them three times; a single search counts them
        // once.
        let sh = fixtures::shared(crate::sokoban::exhaustive::small_microban_boards().remove(0));
        let astar = Config {
            order: Order::AStar { weight10: 10 },
            box_moves: false,
            ..fixtures::fess()
        };
        let searcher = |way, cfg| Box::new(Searcher::new(Arc::clone(&sh), way, cfg));
        let raw = searcher_work;
        let mut bi = Engine::Bi {
            f: searcher(Way::Forward, astar),
            b: searcher(Way::Backward, astar),
            ratio: 1,
            f_proves: true,
            pulls: None,
        };
        let mut single = Engine::Single {
            s: searcher(Way::Forward, fixtures::fess()),
            proves: true,
            label: "fess",
        };
        bi.run(8);
        single.run(8);
        let Engine::Bi { f, b, .. } = &bi else {
            unreachable!()
        };
        assert!(raw(f) + raw(b) > 0);
        assert_eq!(bi.work(), 3 * (raw(f) + raw(b)));
        let Engine::Single { s, .. } = &single else {
            unreachable!()
        };
        assert!(raw(s) > 0);
        assert_eq!(single.work(), raw(s));
    }
}
