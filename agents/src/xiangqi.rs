//! Built-in Xiangqi agents: `alphabeta` (iterative-deepening negamax with a
//! transposition table, move ordering, quiescence and check extension),
//! `alphabeta-noprune` (plain minimax, for the USTC lab's pruning
//! comparison), `greedy` (best capture by value) and `random`.

pub mod eval;
pub mod search;

use crate::generic::RandomAgent;
use crate::params::{check_listed, unknown_agent, AgentError, AgentInfo, AgentParams, ParamInfo};
use games::xiangqi::{Move, Xiangqi};
use games::{Agent, AgentStats, Seat, Timer};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use search::{minimax_root, plain_alphabeta_root, SearchConfig, SearchResult, Searcher};

/// The built-in Xiangqi agents.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "alphabeta",
        description: "negamax alpha-beta, iterative deepening in the time budget, TT, hash/MVV-LVA/killer/history ordering, quiescence, check extension; lab evaluation + mobility",
        params: &[
            ParamInfo::new("depth", "0", "fixed search depth, 0 = deepen until the time budget"),
            ParamInfo::new("tt_log2", "20", "log2 of the transposition-table entries"),
            ParamInfo::new("plain", "false", "textbook alpha-beta as in the USTC lab (fixed depth, default 4; no table, ordering, quiescence or extension)"),
        ],
    },
    AgentInfo {
        name: "alphabeta-noprune",
        description: "plain minimax to a fixed depth with the same evaluation (no pruning, no TT, no quiescence): the lab's comparison",
        params: &[ParamInfo::new("depth", "3", "search depth")],
    },
    AgentInfo {
        name: "greedy",
        description: "captures the most valuable piece it can (random among equals), else a random move; seeded",
        params: &[],
    },
    AgentInfo {
        name: "random",
        description: "uniform over the legal moves, seeded",
        params: &[],
    },
];

/// Build the Xiangqi agent `name` with `params`, seeded with `seed`.
pub fn make(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<Xiangqi>>, AgentError> {
    check_listed("xiangqi", AGENTS, name, params)?;
    match name {
        "alphabeta" => {
            if params.bool(name, "plain", false)? {
                let depth = params.u64(name, "depth", 4)?;
                if depth == 0 || depth > 8 {
                    return Err(AgentError::BadParam {
                        agent: name.into(),
                        key: "depth".into(),
                        expected: "an integer in 1..=8 (with plain = true)".into(),
                        got: depth.to_string(),
                    });
                }
                return Ok(Box::new(FixedDepth {
                    depth: depth as u32,
                    prune: true,
                    nodes: 0,
                }));
            }
            let depth = params.u64(name, "depth", 0)?;
            let tt = params.u64(name, "tt_log2", 20)?;
            if !(10..=26).contains(&tt) {
                return Err(AgentError::BadParam {
                    agent: name.into(),
                    key: "tt_log2".into(),
                    expected: "an integer in 10..=26".into(),
                    got: tt.to_string(),
                });
            }
            Ok(Box::new(AlphaBeta::new(depth.min(60) as u32, tt as u32)))
        }
        "alphabeta-noprune" => {
            let depth = params.u64(name, "depth", 3)?;
            if depth == 0 || depth > 8 {
                return Err(AgentError::BadParam {
                    agent: name.into(),
                    key: "depth".into(),
                    expected: "an integer in 1..=8".into(),
                    got: depth.to_string(),
                });
            }
            Ok(Box::new(FixedDepth {
                depth: depth as u32,
                prune: false,
                nodes: 0,
            }))
        }
        "greedy" => Ok(Box::new(Greedy::new(seed))),
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        _ => Err(unknown_agent("xiangqi", name, AGENTS)),
    }
}

/// The alpha-beta agent (see [`search::Searcher`]). With `depth = N` it
/// searches iterations 1..=N (still abandoning an iteration at 85% of the
/// soft budget); with `depth = 0` it deepens while less than 40% of the
/// budget is used.
pub struct AlphaBeta {
    searcher: Searcher,
    depth: u32,
    nodes: u64,
    last: Option<SearchResult>,
}

impl AlphaBeta {
    /// An alpha-beta agent; `depth` 0 = time-limited deepening; a table of
    /// `2^tt_log2` entries.
    pub fn new(depth: u32, tt_log2: u32) -> AlphaBeta {
        AlphaBeta {
            searcher: Searcher::new(tt_log2),
            depth,
            nodes: 0,
            last: None,
        }
    }

    /// The result of the last search (best move, score, depth, nodes).
    pub fn last_result(&self) -> Option<SearchResult> {
        self.last
    }
}

impl Agent<Xiangqi> for AlphaBeta {
    fn act(&mut self, state: &Xiangqi, _seat: Seat, timer: &dyn Timer) -> Move {
        let cfg = SearchConfig {
            max_depth: if self.depth == 0 { 64 } else { self.depth },
            ..SearchConfig::default()
        };
        let r = self
            .searcher
            .search(state.position(), state.history(), timer, cfg);
        self.nodes += r.nodes;
        self.last = Some(r);
        if r.best.is_null() {
            state.fallback_move()
        } else {
            r.best
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.nodes),
        }
    }
}

/// Fixed-depth search without any enhancement: plain minimax
/// ([`search::minimax_root`], `alphabeta-noprune`) or textbook alpha-beta
/// ([`search::plain_alphabeta_root`], `alphabeta` with `plain = true`).
pub struct FixedDepth {
    depth: u32,
    prune: bool,
    nodes: u64,
}

impl Agent<Xiangqi> for FixedDepth {
    fn act(&mut self, state: &Xiangqi, _seat: Seat, timer: &dyn Timer) -> Move {
        let r = if self.prune {
            plain_alphabeta_root(state.position(), self.depth, timer, 0.85)
        } else {
            minimax_root(state.position(), self.depth, timer, 0.85)
        };
        self.nodes += r.nodes;
        if r.best.is_null() {
            state.fallback_move()
        } else {
            r.best
        }
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.nodes),
        }
    }
}

/// Captures the most valuable piece it can; random among equal captures;
/// a random legal move when nothing can be captured.
pub struct Greedy {
    rng: ChaCha8Rng,
}

impl Greedy {
    /// A greedy agent seeded with `seed` (for tie-breaking).
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent<Xiangqi> for Greedy {
    fn act(&mut self, state: &Xiangqi, _seat: Seat, _timer: &dyn Timer) -> Move {
        let moves = state.legal_moves();
        let pos = state.position();
        let value = |m: &Move| eval::victim_value(pos.at(m.to()));
        let best = moves.iter().map(value).max().unwrap_or(0);
        let top: Vec<Move> = moves.iter().copied().filter(|m| value(m) == best).collect();
        top.choose(&mut self.rng)
            .copied()
            .unwrap_or_else(|| state.fallback_move())
    }
}

#[cfg(test)]
mod tests;
