//! The Sokoban solver and the built-in Sokoban agents (docs/sokoban-solver.md).
//!
//! [`solve`] runs one search on a [`Level`] and returns a LURD solution;
//! [`Solver`] is the same search, resumable across timer budgets. Every
//! method searches the space of *push states* (box cells + the player's
//! region; see `search.rs` and `prune.rs` for the pruning) and differs in
//! the order of expansion:
//! - [`Method::Bfs`]: breadth-first in pushes: push-optimal;
//! - [`Method::AStar`]: A* with the matching lower bound: push-optimal (or
//!   move-optimal with [`SolveOptions::moves`]: exact player cells, edges
//!   weighted by the walk plus the push);
//! - [`Method::WeightedAStar`]: `g + w·h`;
//! - [`Method::Greedy`]: best-first on `h`; with [`SolveOptions::macros`],
//!   time-sliced with a second greedy search that uses goal-area packing
//!   macros (`packing.rs`);
//! - [`Method::BiAStar`] (the default, the strongest): the course report's
//!   bidirectional search, weighted A* forward (pushes from the start) and
//!   backward (pulls from the solved positions, one root per player
//!   region), `ratio` backward expansions per forward one, until a state is
//!   in both transposition tables; after its first
//!   [`SolveOptions::prepass_after`] expansions, for a level whose goals
//!   fall into separate areas with boxes of their own, a serial
//!   decomposition (`decompose.rs`, [`SolveOptions::serial`]), then a
//!   [`Method::Fess`] pre-pass of at most [`SolveOptions::prepass`] states;
//!   optionally a second backward half that pulls whole boxes and meets
//!   the same forward half ([`SolveOptions::box_pulls`], off by default);
//! - [`Method::Fess`]: the feature-space search of `fess.rs`, with box
//!   moves (a move takes one box to any cell it can reach).
//!
//! Exhausting a search proves the level unsolvable (all pruning is sound),
//! except for the macro search of `greedy`.
//!
//! # Files
//! Each one imports only from the ones listed after it (but this file
//! re-exports the registry of `agent.rs`, its child):
//! - `agent.rs`: the agents (plan with a [`Solver`], replay the plan);
//! - this file: [`solve`], [`Solver`] and its engines (one search, a
//!   bidirectional pair, or the serial decomposition; `engine.rs`);
//! - `options.rs`: [`Method`] and [`SolveOptions`];
//! - `nearest.rs`: how far an unfinished solve got ([`LeastBound`],
//!   tested in `least_tests.rs`);
//! - `decompose.rs`: the serial decomposition, a [`Solver`] per part
//!   (its tests: `decompose_tests.rs`);
//! - `search.rs`: one search: node arena, transposition table, expansion
//!   (single pushes or pulls, or box moves), path recovery; its child
//!   `search/bound.rs` holds the matching lower bound;
//! - `prune.rs`: deadlock and corral pruning of the forward search (with
//!   `zone.rs`, goal-zone deadlocks, and `learn.rs`, learned deadlock
//!   patterns);
//! - `packing.rs`: goal areas, their packing orders, single-box push paths
//!   and box moves (every cell one box can be pushed to), whose player
//!   regions come from the floor's cut cells (`cut.rs`);
//! - `space.rs`: scratch space over the cells: boxes, the player's reach
//!   (and the region after one push or pull), the freeze and removal tests
//!   (its tests: `space_tests.rs`);
//! - `lurd.rs`: pushes to a LURD string;
//! - `fixed.rs`: goals sealed off by boxes that can never move again;
//! - `board.rs`: the compact board and its distance tables;
//! - `memory.rs`: what a solve's tables take in memory, for its budget
//!   ([`SolveOptions::max_memory_mb`]).

mod agent;
mod bits;
mod board;
mod cut;
mod decompose;
mod engine;
mod fess;
mod fixed;
mod hotspot;
mod learn;
mod lurd;
mod matching;
mod memory;
mod near;
mod nearest;
mod options;
mod order;
mod packing;
mod plan;
mod prune;
mod rooms;
mod search;
mod space;
mod strand;
mod zone;

pub use agent::{make, options, SolverAgent, AGENTS};
use board::{Board, BoardError, DistTable};
use decompose::Serial;
use engine::{Beside, BoxPulls, Engine, Event};
use games::sokoban::Level;
use games::Timer;
use hotspot::Hotspots;
use memory::Footprint;
pub use nearest::LeastBound;
pub use options::{
    Method, SolveOptions, BACKWARD_BEST, BACKWARD_SHARE, BOX_PULLS, GREEDY, LEARN, MAX_MEMORY_MB,
    NEAR, PORTFOLIO, PREPASS, PREPASS_AFTER, PROVE, STALL, STRANDED,
};
use packing::Packing;
use plan::{OutOfPlan, PackingPlan};
use rooms::Rooms;
use search::{Config, Cost, Order, Searcher, Shared, Way};
use std::sync::Arc;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolveStatus {
    /// A solution was found.
    Solved,
    /// Proved unsolvable: every reachable state was explored (or the level
    /// is unsolvable on its face, e.g. a box on a dead square).
    Unsolvable,
    /// The timer ran out.
    Timeout,
    /// The state limit was reached.
    NodeLimit,
    /// The tables would pass the memory budget
    /// ([`SolveOptions::max_memory_mb`]).
    MemoryLimit,
    /// The level is beyond the solver's limits (too many floor cells), or
    /// its [`Level`] fields do not fit together; the note says which.
    Unsupported,
}

impl SolveStatus {
    /// The lower-case label: `solved`, `unsolvable`, `timeout`, `node-limit`,
    /// `memory-limit`, `unsupported`.
    pub fn as_str(self) -> &'static str {
        match self {
            SolveStatus::Solved => "solved",
            SolveStatus::Unsolvable => "unsolvable",
            SolveStatus::Timeout => "timeout",
            SolveStatus::NodeLimit => "node-limit",
            SolveStatus::MemoryLimit => "memory-limit",
            SolveStatus::Unsupported => "unsupported",
        }
    }
}

/// The outcome of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// How it ended.
    pub status: SolveStatus,
    /// The solution in LURD (lower case: move, upper case: push) when solved.
    pub solution: Option<String>,
    /// Moves of the solution (0 when unsolved).
    pub moves: usize,
    /// Pushes of the solution (0 when unsolved).
    pub pushes: usize,
    /// States expanded (all searches together).
    pub expanded: u64,
    /// A human-readable remark (why a level is unsolvable or unsupported).
    pub note: String,
    /// Out of time or of states: how far the search got ([`LeastBound`]).
    /// [`solve`] fills it in with [`SolveOptions::nearest`];
    /// [`Solver::result`] leaves it out (see [`Solver::nearest`]).
    pub least: Option<LeastBound>,
    /// Solved: which of the solver's searches found the solution:
    /// `bidirectional`, `pre-pass`, `backward fess` or `serial` (the
    /// default method's), `goal macros` (greedy's), or the method's name
    /// for its one search.
    pub found_by: Option<&'static str>,
}

impl SolveResult {
    /// Solved by the moves `text` (plain LURD letters, upper case for the
    /// pushes), found by the search `by`.
    fn solved_by(text: String, expanded: u64, by: &'static str) -> SolveResult {
        SolveResult {
            status: SolveStatus::Solved,
            moves: text.len(),
            pushes: text.chars().filter(char::is_ascii_uppercase).count(),
            solution: Some(text),
            expanded,
            note: String::new(),
            least: None,
            found_by: Some(by),
        }
    }

    /// Not solved: ended with `status` after `expanded` expansions, with a
    /// `note` saying why.
    pub fn unsolved(status: SolveStatus, expanded: u64, note: impl Into<String>) -> SolveResult {
        SolveResult {
            status,
            solution: None,
            moves: 0,
            pushes: 0,
            expanded,
            note: note.into(),
            least: None,
            found_by: None,
        }
    }
}

/// How many expansions between two looks at the timer.
pub(crate) const POLL: u64 = 64;

/// Expansions one engine of the portfolio runs before the next one's turn.
const SLICE: u64 = 2048;

/// The work ([`Engine::work`]) of one turn of the pre-pass kept on as a
/// portfolio ([`SolveOptions::portfolio`]); the bidirectional search's
/// turns are twice as long, in its work counted [`engine::BI_WORK`]
/// times, which is about time: 65,536 of its states and expansions a
/// turn, 98,304 of the pre-pass's.
const TURN_WORK: u64 = engine::BI_WORK << 15;

/// Solve `level` with `opts` before `timer` runs out.
pub fn solve(level: &Level, opts: &SolveOptions, timer: &dyn Timer) -> SolveResult {
    let mut solver = Solver::new(level, opts);
    solver.run(timer);
    SolveResult {
        least: opts.nearest.then(|| solver.nearest()).flatten(),
        ..solver.result()
    }
}

/// A solve that can be interrupted by its timer and resumed later (the
/// agents plan in `init` and go on in later `act`s if `init` was too short).
pub struct Solver {
    board: Option<Arc<Shared>>,
    engines: Vec<Engine>,
    next: usize,
    /// Instead of turns: the first engine runs alone until it has made this
    /// many expansions, then the second one until it stops, then the first
    /// again (the bidirectional search, then the decomposition and the
    /// pre-pass). A pre-pass that fills its budget with [`Solver::portfolio`]
    /// left turns this off: from then on the engines take turns by work.
    switch_after: Option<u64>,
    done: Option<SolveResult>,
    /// Expansions of engines already dropped.
    retired: u64,
    /// [`SolveOptions::portfolio`]: the pre-pass's budget once it takes
    /// turns (0: it stops at its own).
    portfolio: usize,
    /// Whether the engines take turns by work ([`Engine::work`],
    /// [`TURN_WORK`]) instead of expansions: the pre-pass kept on beside
    /// the bidirectional search.
    by_work: bool,
    /// The backward feature-space search beside the others
    /// ([`SolveOptions::backward_share`]).
    beside: Option<Beside>,
    /// The work ([`Engine::work`]) of the others so far.
    work: u64,
    /// The memory budget in bytes ([`SolveOptions::max_memory_mb`]).
    max_memory: usize,
}

impl Solver {
    /// Prepare a solve: build the board, the distance tables and the
    /// searches (no search step is taken yet).
    pub fn new(level: &Level, opts: &SolveOptions) -> Solver {
        let stop = |status, note: String| Solver {
            board: None,
            engines: Vec::new(),
            next: 0,
            switch_after: None,
            done: Some(SolveResult::unsolved(status, 0, note)),
            retired: 0,
            portfolio: 0,
            by_work: false,
            beside: None,
            work: 0,
            max_memory: 0,
        };
        let mut board = match Board::new(level) {
            Ok(b) => b,
            Err(BoardError::Unsolvable(why)) => return stop(SolveStatus::Unsolvable, why),
            Err(BoardError::TooLarge(why)) => return stop(SolveStatus::Unsupported, why),
        };
        board.end_player = opts
            .end
            .and_then(|g| board.cell_of.get(g).copied())
            .filter(|&c| c != board::NONE && !board.is_goal[c as usize]);
        let fdist = DistTable::to_targets(&board, &board.goals);
        if let Some(&c) = board.start_boxes.iter().find(|&&c| fdist.dead[c as usize]) {
            let (r, col) = board.row_col(c);
            return stop(
                SolveStatus::Unsolvable,
                format!(
                    "the box at row {}, column {} can never reach a goal",
                    r + 1,
                    col + 1
                ),
            );
        }
        let method = opts.method;
        let bidirectional = matches!(method, Method::BiAStar);
        let backward = method == Method::Fess && opts.backward;
        let bdist = (bidirectional || backward)
            .then(|| DistTable::from_sources(&board, &board.start_boxes));
        let packing = if opts.macros && method == Method::Greedy {
            Packing::new(&board)
        } else {
            Packing::default()
        };
        let feature_space = method == Method::Fess || (bidirectional && opts.prepass > 0);
        let hot = (feature_space && opts.hotspots).then(|| Hotspots::new(&board, &fdist.dead));
        // One plan for the packing feature (when it parks a box), the
        // cells out of plan and the opener.
        let full_plan = if feature_space && (opts.plan || opts.oop || opts.opener) {
            PackingPlan::new(&board)
        } else {
            None
        };
        let oop = match &full_plan {
            Some(p) if opts.oop => Some(OutOfPlan::new(p.clone(), &board, &fdist.dead)),
            _ => None,
        };
        let plan = full_plan.clone().filter(|p| opts.plan && p.parks() > 0);
        // The opener follows a plan that parks a box only when the packing
        // feature does, and any other plan where the goals' order is forced.
        let opener = full_plan
            .filter(|p| opts.opener && (opts.plan || p.parks() == 0))
            .and_then(|p| fess::Opener::new(&board, p));
        let rooms = (feature_space && opts.rooms)
            .then(|| Rooms::new(&board))
            .flatten();
        let sh = Arc::new(Shared {
            board,
            fdist,
            bdist,
            packing,
            hot,
            plan,
            oop,
            rooms,
            opener,
        });
        let cost = if opts.moves && !bidirectional {
            Cost::Moves
        } else {
            Cost::Pushes
        };
        let weight10 = (opts.weight.clamp(0.0, 1000.0) * 10.0).round() as u32;
        let order = match method {
            Method::Bfs => Order::Bfs,
            Method::AStar => Order::AStar { weight10: 10 },
            Method::WeightedAStar | Method::BiAStar => Order::AStar { weight10 },
            Method::Greedy => Order::Greedy,
            Method::Fess => Order::Fess,
        };
        let cfg = Config {
            cost,
            order,
            pi_corrals: opts.pi_corrals && sh.board.end_player.is_none(),
            corral_nodes: opts.corral_nodes,
            zone_nodes: opts.zone_nodes,
            learn_nodes: opts.learn_nodes,
            learn_at: learn::LEARN_AT,
            max_nodes: opts.max_nodes.max(1),
            macros: false,
            box_moves: opts.box_moves && method == Method::Fess,
            best_pops: opts.best_pops(backward),
            stall: opts.stall_after(backward),
            greedy: opts.greedy_pops(backward),
            park: opts.park,
            hotspots: opts.hotspots,
            opener: opts.opener,
            oop: opts.oop,
            rooms: opts.rooms,
            one_advice: opts.one_advice,
            stranded: opts.stranded,
            near: opts.near,
            lazy: opts.lazy,
            defer: opts.defer,
            prove: opts.prove,
        };
        let mut engines = Vec::new();
        if bidirectional {
            let bcfg = Config {
                pi_corrals: false,
                corral_nodes: 0,
                zone_nodes: 0,
                box_moves: false,
                ..cfg
            };
            // The backward half that moves whole boxes runs once the
            // pre-pass has.
            let pulls = (opts.box_pulls > 0).then(|| {
                let mcfg = Config {
                    box_moves: true,
                    ..bcfg
                };
                BoxPulls {
                    s: Box::new(Searcher::new(Arc::clone(&sh), Way::Backward, mcfg)),
                    every: opts.box_pulls,
                    after: opts.prepass_after,
                    tick: 0,
                }
            });
            engines.push(Engine::Bi {
                f: Box::new(Searcher::new(Arc::clone(&sh), Way::Forward, cfg)),
                b: Box::new(Searcher::new(Arc::clone(&sh), Way::Backward, bcfg)),
                ratio: opts.ratio.max(1),
                f_proves: true,
                pulls,
            });
            // First the serial decomposition, where the level falls apart.
            if opts.serial && opts.end.is_none() {
                if let Some(s) = Serial::new(level) {
                    engines.push(Engine::Serial(Box::new(s)));
                }
            }
            // Then the feature-space pre-pass.
            if opts.prepass > 0 {
                // A plan's finer packing feature spreads the search over
                // more cells: it gets twice the states.
                let budget = match &sh.plan {
                    Some(_) => opts.prepass.saturating_mul(2),
                    None => opts.prepass,
                };
                let pcfg = Config {
                    order: Order::Fess,
                    box_moves: true,
                    max_nodes: budget.min(cfg.max_nodes),
                    ..cfg
                };
                engines.push(Engine::Single {
                    s: Box::new(Searcher::new(Arc::clone(&sh), Way::Forward, pcfg)),
                    proves: true,
                    label: "pre-pass",
                });
            }
        } else {
            if method == Method::Greedy && !sh.packing.is_empty() {
                let mcfg = Config {
                    macros: true,
                    ..cfg
                };
                engines.push(Engine::Single {
                    s: Box::new(Searcher::new(Arc::clone(&sh), Way::Forward, mcfg)),
                    proves: false,
                    label: "goal macros",
                });
            }
            let way = if backward {
                Way::Backward
            } else {
                Way::Forward
            };
            engines.push(Engine::Single {
                s: Box::new(Searcher::new(Arc::clone(&sh), way, cfg)),
                proves: true,
                label: method.name(),
            });
        }
        // Beside the others, the backward feature-space search.
        let beside = (bidirectional && opts.backward_share > 0).then(|| {
            let bcfg = Config {
                order: Order::Fess,
                box_moves: true,
                best_pops: opts.best_pops(true),
                stall: opts.stall_after(true),
                greedy: opts.greedy_pops(true),
                ..cfg
            };
            let s = Box::new(Searcher::new(Arc::clone(&sh), Way::Backward, bcfg));
            let engine = Engine::Single {
                s,
                proves: true,
                label: "backward fess",
            };
            Beside::new(engine, opts.backward_share)
        });
        let mut solver = Solver {
            board: Some(sh),
            engines,
            next: 0,
            switch_after: bidirectional.then_some(opts.prepass_after),
            done: None,
            retired: 0,
            portfolio: if bidirectional {
                opts.portfolio.min(opts.max_nodes)
            } else {
                0
            },
            by_work: false,
            beside,
            work: 0,
            max_memory: opts.max_memory_mb.saturating_mul(1 << 20),
        };
        if let Some(e) = solver.engines.first() {
            if let Some(p) = e.start() {
                let by = e.label();
                solver.finish_found(p, by);
            }
        }
        solver
    }

    /// Expansions so far: once finished, those of its result (the engines
    /// are dropped then).
    pub(crate) fn expanded(&self) -> u64 {
        match &self.done {
            Some(r) => r.expanded,
            None => {
                let beside = self.beside.as_ref().map_or(0, |b| b.engine.expanded());
                self.retired + beside + self.engines.iter().map(Engine::expanded).sum::<u64>()
            }
        }
    }

    /// The bytes of its engines' tables ([`Footprint`]), with the margin
    /// for the states to come before the next look ([`memory::margin`]).
    fn footprint(&self) -> Footprint {
        let Some(sh) = &self.board else {
            return Footprint::default();
        };
        let nb = sh.board.start_boxes.len();
        let beside = self.beside.as_ref().map(|b| b.engine.footprint());
        self.engines
            .iter()
            .map(Engine::footprint)
            .sum::<Footprint>()
            + beside.unwrap_or_default()
            + memory::margin(Searcher::state_bytes(nb))
    }

    /// The turn of the backward feature-space search, if it is due
    /// ([`Beside::due`]): whether it took it.
    fn beside_turn(&mut self) -> bool {
        // The first engine alone, then the decomposition or the pre-pass
        // alone: not yet.
        let ready = self.switch_after.is_none() || self.engines.len() < 2;
        let Some(side) = &mut self.beside else {
            return false;
        };
        if !side.due(ready, self.work) {
            return false;
        }
        let (event, side_expanded) = (side.run(), side.engine.expanded());
        let by = side.engine.label();
        match event {
            Event::Running | Event::Moves(_) => {}
            Event::Found(p) => self.finish_found(p, by),
            Event::Stopped {
                status,
                proof: true,
            } => {
                let e = self.expanded();
                self.done = Some(SolveResult::unsolved(status, e, ""));
                self.engines.clear();
            }
            // Out of states: the others go on alone.
            Event::Stopped { .. } => {
                self.retired += side_expanded;
                self.beside = None;
            }
        }
        true
    }

    /// Finish with the pushes `pushes` found by the search `by`.
    fn finish_found(&mut self, pushes: Vec<(u16, u8)>, by: &'static str) {
        let expanded = self.expanded();
        let Some(sh) = &self.board else { return };
        self.done = Some(match lurd::pushes_to_lurd(&sh.board, &pushes) {
            Some(l) => SolveResult {
                status: SolveStatus::Solved,
                solution: Some(l.text),
                moves: l.moves,
                pushes: l.pushes,
                expanded,
                note: String::new(),
                least: None,
                found_by: Some(by),
            },
            None => SolveResult::unsolved(
                SolveStatus::Unsupported,
                expanded,
                "internal error: the plan found does not replay",
            ),
        });
        self.engines.clear();
    }

    /// Search until a result or until `timer` runs out; `true` when the
    /// solve is finished ([`Solver::result`] is final).
    pub fn run(&mut self, timer: &dyn Timer) -> bool {
        self.run_while(&mut || !timer.exceeded())
    }

    /// [`Solver::run`], asking `go_on` every [`POLL`] expansions or so.
    fn run_while(&mut self, go_on: &mut dyn FnMut() -> bool) -> bool {
        let mut since_poll = POLL;
        while self.done.is_none() {
            if self.engines.is_empty() {
                let e = self.expanded();
                self.done = Some(SolveResult::unsolved(SolveStatus::NodeLimit, e, ""));
                break;
            }
            if since_poll >= POLL {
                since_poll = 0;
                if !go_on() {
                    return false;
                }
                // Stop before the tables' next growth could pass the
                // budget; the searches stay for [`Solver::nearest`].
                let fp = self.footprint();
                if fp.total() > self.max_memory {
                    let mb = |b: usize| b.div_ceil(1 << 20);
                    let note = format!(
                        "the search tables hold {} MB and may grow to {} MB before the next look, past the memory budget of {} MB",
                        mb(fp.held),
                        mb(fp.total()),
                        mb(self.max_memory)
                    );
                    let e = self.expanded();
                    self.done = Some(SolveResult::unsolved(SolveStatus::MemoryLimit, e, note));
                    break;
                }
            }
            if self.beside_turn() {
                since_poll += POLL;
                continue;
            }
            // The pre-pass (a single search second in line) runs once the
            // first search made `switch_after` expansions, until it stops.
            let k = match self.switch_after {
                Some(after) if self.engines.len() > 1 => {
                    usize::from(self.engines[0].expanded() >= after)
                }
                _ => self.next % self.engines.len(),
            };
            // Single engines run a slice between looks at the timer; the
            // portfolio turns to the next engine after `SLICE` expansions,
            // the pre-pass kept on and the bidirectional search after
            // `TURN_WORK` work and twice that.
            let before = self.engines[k].expanded();
            let work = self.engines[k].work();
            let event = self.engines[k].run(POLL);
            since_poll += POLL;
            let now = self.engines[k].work();
            self.work += now - work;
            if self.by_work {
                let turn = if k == 0 { 2 * TURN_WORK } else { TURN_WORK };
                if now / turn != work / turn {
                    self.next += 1;
                }
            } else if self.switch_after.is_none()
                && self.engines.len() > 1
                && self.engines[k].expanded() / SLICE != before / SLICE
            {
                self.next += 1;
            }
            let by = self.engines[k].label();
            match event {
                Event::Running => {}
                Event::Found(p) => self.finish_found(p, by),
                Event::Moves(text) => {
                    self.done = Some(SolveResult::solved_by(text, self.expanded(), by));
                    self.engines.clear();
                }
                Event::Stopped { status, proof } => {
                    // The pre-pass (a feature-space search after the
                    // first engine, still in the switch schedule) filled
                    // its budget: it goes on, taking turns with the
                    // bidirectional search.
                    if let Engine::Single { s, .. } = &mut self.engines[k] {
                        let prepass =
                            k > 0 && self.switch_after.is_some() && s.cfg.order == Order::Fess;
                        if prepass
                            && status == SolveStatus::NodeLimit
                            && self.portfolio > s.cfg.max_nodes
                        {
                            s.cfg.max_nodes = self.portfolio;
                            // No dead-end proofs in the turns: they slow
                            // the pre-pass where it competes for time
                            // (see `docs/sokoban-solver-log.md`, *Dead-end
                            // proofs in the best cell*).
                            s.cfg.prove = 0;
                            self.portfolio = 0;
                            self.switch_after = None;
                            self.by_work = true;
                            self.next = 0;
                            continue;
                        }
                    }
                    if proof || self.engines.len() == 1 {
                        let e = self.expanded();
                        let status = if proof || status != SolveStatus::Unsolvable {
                            status
                        } else {
                            SolveStatus::NodeLimit
                        };
                        self.done = Some(SolveResult::unsolved(status, e, ""));
                        // Out of states: the searches stay for
                        // [`Solver::nearest`].
                        if status != SolveStatus::NodeLimit {
                            self.engines.clear();
                        }
                    } else {
                        self.retired += self.engines[k].expanded();
                        self.engines.remove(k);
                    }
                }
            }
        }
        true
    }

    /// The result so far: final once [`Solver::run`] returned `true`, else a
    /// [`SolveStatus::Timeout`] with the expansions so far.
    pub fn result(&self) -> SolveResult {
        match &self.done {
            Some(r) => r.clone(),
            None => SolveResult::unsolved(SolveStatus::Timeout, self.expanded(), ""),
        }
    }
}

#[cfg(test)]
mod exhaustive;
#[cfg(test)]
mod least_tests;
#[cfg(test)]
mod tests;
