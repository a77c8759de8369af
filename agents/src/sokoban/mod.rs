//! The Sokoban solver and the built-in Sokoban agents.
//!
//! [`solve`] runs one search on a [`Level`] and returns a LURD solution.
//! Every method searches the space of *push states* (box cells + the player's
//! region; see `search.rs` for the pruning) and differs in the order of
//! expansion:
//! - [`Method::Bfs`]: breadth-first in pushes: push-optimal;
//! - [`Method::AStar`]: A* with the matching lower bound: push-optimal (or
//!   move-optimal among push-level plans with [`SolveOptions::moves`]);
//! - [`Method::WeightedAStar`]: `g + w·h`;
//! - [`Method::Greedy`]: best-first on `h`;
//! - [`Method::BiAStar`]: the course report's bidirectional search, forward
//!   pushes and backward pulls from the solved positions, `ratio` backward
//!   expansions per forward one, until they meet.

mod board;
mod lurd;
mod search;

use board::{Board, BoardError, DistTable};
use games::sokoban::Level;
use games::Timer;
use search::{Config, Cost, Order, Searcher, Step, Way};

/// A search method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Breadth-first over push states: push-optimal.
    Bfs,
    /// A* on `pushes + lower bound`: push-optimal.
    AStar,
    /// Weighted A*: `g + weight · h`.
    WeightedAStar,
    /// Greedy best-first on the lower bound alone.
    Greedy,
    /// Bidirectional: forward push search and backward pull search.
    BiAStar,
}

impl Method {
    /// Every method, strongest first.
    pub const ALL: [Method; 5] = [
        Method::Greedy,
        Method::BiAStar,
        Method::WeightedAStar,
        Method::AStar,
        Method::Bfs,
    ];

    /// The agent name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Bfs => "bfs",
            Method::AStar => "astar",
            Method::WeightedAStar => "wastar",
            Method::Greedy => "greedy",
            Method::BiAStar => "biastar",
        }
    }

    /// The method of an agent name.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveOptions {
    /// The search method.
    pub method: Method,
    /// Count cost in moves instead of pushes (A*, weighted A*, BFS order by
    /// moves). Push-level search with exact player cells; slower.
    pub moves: bool,
    /// The weight of the heuristic in weighted A* and in both halves of
    /// the bidirectional search.
    pub weight: f64,
    /// Backward expansions per forward expansion in the bidirectional search.
    pub ratio: u32,
    /// PI-corral pruning (ignored when counting moves).
    pub pi_corrals: bool,
    /// States explored by each corral-deadlock search (0: off).
    pub corral_nodes: u32,
    /// The most states stored per search before giving up
    /// ([`SolveStatus::NodeLimit`]).
    pub max_nodes: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            method: Method::Greedy,
            moves: false,
            weight: 1.0,
            ratio: 1,
            pi_corrals: true,
            corral_nodes: 20,
            max_nodes: 20_000_000,
        }
    }
}

impl SolveOptions {
    /// The default options with another method (and its usual weight).
    pub fn with_method(method: Method) -> Self {
        SolveOptions {
            method,
            weight: match method {
                Method::WeightedAStar | Method::BiAStar => 3.0,
                _ => 1.0,
            },
            ..SolveOptions::default()
        }
    }
}

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
    /// The level is beyond the solver's limits (too many floor cells).
    Unsupported,
}

impl SolveStatus {
    /// The lower-case label: `solved`, `unsolvable`, `timeout`, `node-limit`,
    /// `unsupported`.
    pub fn as_str(self) -> &'static str {
        match self {
            SolveStatus::Solved => "solved",
            SolveStatus::Unsolvable => "unsolvable",
            SolveStatus::Timeout => "timeout",
            SolveStatus::NodeLimit => "node-limit",
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
}

impl SolveResult {
    fn unsolved(status: SolveStatus, expanded: u64, note: impl Into<String>) -> SolveResult {
        SolveResult {
            status,
            solution: None,
            moves: 0,
            pushes: 0,
            expanded,
            note: note.into(),
        }
    }
}

/// How many expansions between two looks at the timer.
const POLL: u64 = 64;

/// Solve `level` with `opts` before `timer` runs out.
pub fn solve(level: &Level, opts: &SolveOptions, timer: &dyn Timer) -> SolveResult {
    let board = match Board::new(level) {
        Ok(b) => b,
        Err(BoardError::Unsolvable(why)) => {
            return SolveResult::unsolved(SolveStatus::Unsolvable, 0, why)
        }
        Err(BoardError::TooLarge(why)) => {
            return SolveResult::unsolved(SolveStatus::Unsupported, 0, why)
        }
    };
    let fdist = DistTable::to_targets(&board, &board.goals);
    if let Some(&c) = board.start_boxes.iter().find(|&&c| fdist.dead[c as usize]) {
        let (r, col) = board.row_col(c);
        return SolveResult::unsolved(
            SolveStatus::Unsolvable,
            0,
            format!(
                "the box at row {}, column {} can never reach a goal",
                r + 1,
                col + 1
            ),
        );
    }
    let cost = if opts.moves && opts.method != Method::BiAStar {
        Cost::Moves
    } else {
        Cost::Pushes
    };
    let weight10 = (opts.weight.clamp(0.0, 1000.0) * 10.0).round() as u32;
    let order = match opts.method {
        Method::Bfs => Order::Bfs,
        Method::AStar => Order::AStar { weight10: 10 },
        Method::WeightedAStar | Method::BiAStar => Order::AStar { weight10 },
        Method::Greedy => Order::Greedy,
    };
    let cfg = Config {
        cost,
        order,
        pi_corrals: opts.pi_corrals,
        corral_nodes: opts.corral_nodes,
        max_nodes: opts.max_nodes.max(1),
    };
    let outcome = if opts.method == Method::BiAStar {
        bidirectional(&board, &fdist, cfg, opts.ratio.max(1), timer)
    } else {
        single(&board, &fdist, cfg, timer)
    };
    match outcome {
        Outcome::Found(pushes, expanded) => match lurd::pushes_to_lurd(&board, &pushes) {
            Some(l) => SolveResult {
                status: SolveStatus::Solved,
                solution: Some(l.text),
                moves: l.moves,
                pushes: l.pushes,
                expanded,
                note: String::new(),
            },
            None => SolveResult::unsolved(
                SolveStatus::Unsupported,
                expanded,
                "internal error: the plan found does not replay",
            ),
        },
        Outcome::Stopped(status, expanded) => SolveResult::unsolved(status, expanded, ""),
    }
}

enum Outcome {
    Found(Vec<(u16, u8)>, u64),
    Stopped(SolveStatus, u64),
}

fn single(board: &Board, fdist: &DistTable, cfg: Config, timer: &dyn Timer) -> Outcome {
    let mut s = Searcher::new(board, fdist, &fdist.dead, Way::Forward, cfg);
    if s.is_goal(0) {
        return Outcome::Found(Vec::new(), 0);
    }
    let mut steps = 0u64;
    loop {
        steps += 1;
        if steps % POLL == 1 && timer.exceeded() {
            return Outcome::Stopped(SolveStatus::Timeout, s.expanded);
        }
        match s.step() {
            Step::Continue => {}
            Step::Goal(id) => return Outcome::Found(s.path(id), s.expanded),
            Step::Exhausted => return Outcome::Stopped(SolveStatus::Unsolvable, s.expanded),
            Step::Full => return Outcome::Stopped(SolveStatus::NodeLimit, s.expanded),
        }
    }
}

/// Forward pushes followed by the backward pulls, reversed, from node `bid`
/// of the backward search back to its root.
fn join(board: &Board, mut fwd: Vec<(u16, u8)>, bwd: &Searcher, bid: u32) -> Vec<(u16, u8)> {
    for (x, d) in bwd.path(bid).into_iter().rev() {
        let to = board.nbr[x as usize][d as usize];
        fwd.push((to, d ^ 1));
    }
    fwd
}

fn bidirectional(
    board: &Board,
    fdist: &DistTable,
    cfg: Config,
    ratio: u32,
    timer: &dyn Timer,
) -> Outcome {
    let bdist = DistTable::from_sources(board, &board.start_boxes);
    let bcfg = Config {
        pi_corrals: false,
        corral_nodes: 0,
        ..cfg
    };
    let mut f = Searcher::new(board, fdist, &fdist.dead, Way::Forward, cfg);
    let mut bk = Searcher::new(board, &bdist, &fdist.dead, Way::Backward, bcfg);
    if f.is_goal(0) {
        return Outcome::Found(Vec::new(), 0);
    }
    let meet_f = |f: &Searcher, bk: &Searcher, ids: &[u32]| -> Option<(u32, u32)> {
        ids.iter().find_map(|&id| {
            let n = &f.nodes[id as usize];
            bk.lookup(n.hash, f.node_boxes(id), n.player)
                .map(|bid| (id, bid))
        })
    };
    let all_b: Vec<u32> = (0..bk.nodes.len() as u32).collect();
    if let Some((bid, fid)) = meet_f(&bk, &f, &all_b) {
        return Outcome::Found(join(board, f.path(fid), &bk, bid), 0);
    }
    let mut steps = 0u64;
    let total = |f: &Searcher, bk: &Searcher| f.expanded + bk.expanded;
    loop {
        for _ in 0..ratio {
            if bk.is_exhausted() {
                break;
            }
            steps += 1;
            if steps % POLL == 1 && timer.exceeded() {
                return Outcome::Stopped(SolveStatus::Timeout, total(&f, &bk));
            }
            match bk.step() {
                Step::Continue => {}
                Step::Goal(id) => {
                    return Outcome::Found(join(board, Vec::new(), &bk, id), total(&f, &bk))
                }
                Step::Exhausted => {
                    return Outcome::Stopped(SolveStatus::Unsolvable, total(&f, &bk))
                }
                Step::Full => return Outcome::Stopped(SolveStatus::NodeLimit, total(&f, &bk)),
            }
            let fresh = bk.fresh.clone();
            if let Some((bid, fid)) = meet_f(&bk, &f, &fresh) {
                return Outcome::Found(join(board, f.path(fid), &bk, bid), total(&f, &bk));
            }
        }
        steps += 1;
        if steps % POLL == 1 && timer.exceeded() {
            return Outcome::Stopped(SolveStatus::Timeout, total(&f, &bk));
        }
        match f.step() {
            Step::Continue => {}
            Step::Goal(id) => return Outcome::Found(f.path(id), total(&f, &bk)),
            Step::Exhausted => return Outcome::Stopped(SolveStatus::Unsolvable, total(&f, &bk)),
            Step::Full => return Outcome::Stopped(SolveStatus::NodeLimit, total(&f, &bk)),
        }
        let fresh = f.fresh.clone();
        if let Some((fid, bid)) = meet_f(&f, &bk, &fresh) {
            return Outcome::Found(join(board, f.path(fid), &bk, bid), total(&f, &bk));
        }
    }
}

#[cfg(test)]
mod tests;
