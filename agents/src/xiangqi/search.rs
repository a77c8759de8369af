//! Negamax alpha-beta search for Xiangqi: iterative deepening, a
//! transposition table, move ordering (hash move, MVV-LVA captures, two
//! killers per ply, history), quiescence search on captures (all evasions
//! when in check), check extension; and plain minimax for comparison.

use super::eval::{attacker_rank, evaluate, victim_value};
use games::xiangqi::{Move, MoveList, Position, EMPTY};
use games::Timer;
use std::time::Duration;

/// Score of being mated now (minus the ply for longer mates).
pub const MATE: i32 = 30_000;
const INF: i32 = 32_000;
/// Deepest ply the search reaches (extensions and quiescence included).
pub const MAX_PLY: usize = 96;
/// Plies of quiescence search beyond the nominal depth.
const MAX_QDEPTH: i32 = 8;
/// Score for the side to move when the opponent's checking move repeated a
/// position (it is heading for a perpetual-check loss).
const PERPETUAL_BONUS: i32 = 2_000;

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    mv: Move,
    score: i32,
    depth: i16,
    flag: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// Search knobs.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    /// Maximum nominal depth of iterative deepening.
    pub max_depth: u32,
    /// Fraction of the soft budget after which no new iteration starts.
    pub start_fraction: f64,
    /// Fraction of the soft budget at which a running search is abandoned.
    pub stop_fraction: f64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            max_depth: 64,
            start_fraction: 0.4,
            stop_fraction: 0.85,
        }
    }
}

/// What one search returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move found ([`Move::NULL`] when there is no legal move).
    pub best: Move,
    /// Its score for the side to move (centi-soldier-ish units; mate near ±30000).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited in this search.
    pub nodes: u64,
}

/// The alpha-beta searcher; keeps its transposition table and history
/// between moves of a game.
pub struct Searcher {
    tt: Vec<TtEntry>,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Box<[[i32; 256]; 256]>,
    path: Vec<u64>,
    nodes: u64,
    stop: bool,
    hard_stop: Duration,
    root_best: Move,
}

impl Searcher {
    /// A searcher with a transposition table of `2^log2_entries` entries.
    pub fn new(log2_entries: u32) -> Searcher {
        Searcher {
            tt: vec![TtEntry::default(); 1 << log2_entries],
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: Box::new([[0; 256]; 256]),
            path: Vec::new(),
            nodes: 0,
            stop: false,
            hard_stop: Duration::MAX,
            root_best: Move::NULL,
        }
    }

    /// Search `pos` whose game history (position hashes, oldest first, the
    /// current one last) is `history`, within `timer`.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        timer: &dyn Timer,
        cfg: SearchConfig,
    ) -> SearchResult {
        let mut pos = pos.clone();
        let keep = (pos.halfmove() as usize + 1).min(history.len());
        self.path.clear();
        self.path
            .extend_from_slice(&history[history.len().saturating_sub(keep)..]);
        if self.path.last() != Some(&pos.hash()) {
            self.path.push(pos.hash());
        }
        self.nodes = 0;
        self.stop = false;
        let budget = timer.budget();
        self.hard_stop = mul(budget, cfg.stop_fraction);
        let start_limit = mul(budget, cfg.start_fraction);
        for k in self.killers.iter_mut() {
            *k = [Move::NULL; 2];
        }
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 8;
            }
        }

        let mut root = MoveList::new();
        pos.gen_legal(&mut root);
        let mut result = SearchResult {
            best: root.as_slice().first().copied().unwrap_or(Move::NULL),
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if root.is_empty() {
            result.score = -MATE;
            return result;
        }
        for depth in 1..=cfg.max_depth.max(1) {
            let score = self.negamax(&mut pos, depth as i32, 0, -INF, INF, timer);
            if self.stop {
                break;
            }
            if !self.root_best.is_null() {
                result.best = self.root_best;
            }
            result.score = score;
            result.depth = depth;
            if score.abs() > MATE - MAX_PLY as i32 {
                break; // a forced mate found
            }
            if timer.elapsed() >= start_limit {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    #[inline]
    fn poll(&mut self, timer: &dyn Timer) {
        if self.nodes & 1023 == 0 && timer.elapsed() >= self.hard_stop {
            self.stop = true;
        }
    }

    /// Whether the current position repeats an earlier one (same side to
    /// move, no capture in between).
    fn repeated(&self, pos: &Position) -> bool {
        let n = self.path.len();
        let h = pos.hash();
        let reach = (pos.halfmove() as usize).min(n - 1);
        let mut back = 2;
        while back <= reach {
            if self.path[n - 1 - back] == h {
                return true;
            }
            back += 2;
        }
        false
    }

    fn order(
        &self,
        pos: &Position,
        list: &MoveList,
        hash_move: Move,
        ply: usize,
    ) -> Vec<(i32, Move)> {
        list.as_slice()
            .iter()
            .map(|&m| {
                let victim = pos.at(m.to());
                let s = if m == hash_move {
                    1 << 30
                } else if victim != EMPTY {
                    (1 << 24) + victim_value(victim) * 8 - attacker_rank(pos.at(m.from()))
                } else if m == self.killers[ply][0] {
                    (1 << 23) + 1
                } else if m == self.killers[ply][1] {
                    1 << 23
                } else {
                    self.history[m.from()][m.to()].min((1 << 23) - 1)
                };
                (s, m)
            })
            .collect()
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        timer: &dyn Timer,
    ) -> i32 {
        self.poll(timer);
        if self.stop {
            return 0;
        }
        let in_check = pos.in_check();
        if ply > 0 && self.repeated(pos) {
            return if in_check { PERPETUAL_BONUS } else { 0 };
        }
        if ply >= MAX_PLY - MAX_QDEPTH as usize - 2 {
            return evaluate(pos);
        }
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, ply, alpha, beta, 0, timer);
        }
        self.nodes += 1;
        let key = pos.hash();
        let slot = (key as usize) & (self.tt.len() - 1);
        let e = self.tt[slot];
        let mut hash_move = Move::NULL;
        if e.key == key {
            hash_move = e.mv;
            if ply > 0 && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                match e.flag {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut list = MoveList::new();
        pos.gen_legal(&mut list);
        if list.is_empty() {
            return -MATE + ply as i32; // checkmate or stalemate: both lose
        }
        let mut scored = self.order(pos, &list, hash_move, ply);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = Move::NULL;
        for i in 0..scored.len() {
            let mut bi = i;
            for j in i + 1..scored.len() {
                if scored[j].0 > scored[bi].0 {
                    bi = j;
                }
            }
            scored.swap(i, bi);
            let m = scored[i].1;
            let quiet = pos.at(m.to()) == EMPTY;
            let u = pos.make(m);
            self.path.push(pos.hash());
            let s = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, timer);
            self.path.pop();
            pos.unmake(m, u);
            if self.stop {
                return 0;
            }
            if s > best {
                best = s;
                best_move = m;
            }
            if s > alpha {
                alpha = s;
                if alpha >= beta {
                    if quiet {
                        if self.killers[ply][0] != m {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = m;
                        }
                        let h = &mut self.history[m.from()][m.to()];
                        *h = (*h + depth * depth).min(1 << 22);
                    }
                    break;
                }
            }
        }
        if ply == 0 {
            self.root_best = best_move;
        }
        let flag = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.tt[slot] = TtEntry {
            key,
            mv: best_move,
            score: to_tt(best, ply),
            depth: depth as i16,
            flag,
        };
        best
    }

    fn quiesce(
        &mut self,
        pos: &mut Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qdepth: i32,
        timer: &dyn Timer,
    ) -> i32 {
        self.nodes += 1;
        self.poll(timer);
        if self.stop {
            return 0;
        }
        let in_check = pos.in_check();
        let mut list = MoveList::new();
        let mut best = -INF;
        if in_check {
            pos.gen_legal(&mut list);
            if list.is_empty() {
                return -MATE + ply as i32;
            }
            if qdepth >= MAX_QDEPTH || ply >= MAX_PLY - 1 {
                return evaluate(pos);
            }
        } else {
            let stand = evaluate(pos);
            if stand >= beta || qdepth >= MAX_QDEPTH || ply >= MAX_PLY - 1 {
                return stand;
            }
            best = stand;
            if stand > alpha {
                alpha = stand;
            }
            pos.gen_captures(&mut list);
        }
        let mut scored = self.order(pos, &list, Move::NULL, ply.min(MAX_PLY));
        for i in 0..scored.len() {
            let mut bi = i;
            for j in i + 1..scored.len() {
                if scored[j].0 > scored[bi].0 {
                    bi = j;
                }
            }
            scored.swap(i, bi);
            let m = scored[i].1;
            if !in_check && !pos.is_safe(m, false) {
                continue;
            }
            let u = pos.make(m);
            let s = -self.quiesce(pos, ply + 1, -beta, -alpha, qdepth + 1, timer);
            pos.unmake(m, u);
            if self.stop {
                return 0;
            }
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}

fn mul(d: Duration, f: f64) -> Duration {
    if d == Duration::MAX {
        d
    } else {
        d.mul_f64(f)
    }
}

fn to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE - 1000 {
        s + ply as i32
    } else if s < -MATE + 1000 {
        s - ply as i32
    } else {
        s
    }
}

fn from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE - 1000 {
        s - ply as i32
    } else if s < -MATE + 1000 {
        s + ply as i32
    } else {
        s
    }
}

/// Plain minimax (negamax form, no pruning, no table, no quiescence) to a
/// fixed depth with the same evaluation: the lab's "without pruning" side of
/// the comparison. Returns the best root move, its score and the nodes
/// visited; stops early (keeping the best root move so far) when `timer`
/// passes `stop` of its budget.
pub fn minimax_root(pos: &Position, depth: u32, timer: &dyn Timer, stop: f64) -> SearchResult {
    let mut pos = pos.clone();
    let hard = mul(timer.budget(), stop);
    let mut nodes = 0u64;
    let mut list = MoveList::new();
    pos.gen_legal(&mut list);
    let mut best = (-INF, list.as_slice().first().copied().unwrap_or(Move::NULL));
    let mut aborted = false;
    for &m in list.as_slice() {
        let u = pos.make(m);
        let s = -minimax(
            &mut pos,
            depth.max(1) as i32 - 1,
            1,
            &mut nodes,
            timer,
            hard,
            &mut aborted,
        );
        pos.unmake(m, u);
        if aborted {
            break;
        }
        if s > best.0 {
            best = (s, m);
        }
    }
    SearchResult {
        best: best.1,
        score: best.0,
        depth: if aborted { 0 } else { depth },
        nodes,
    }
}

fn minimax(
    pos: &mut Position,
    depth: i32,
    ply: usize,
    nodes: &mut u64,
    timer: &dyn Timer,
    hard: Duration,
    aborted: &mut bool,
) -> i32 {
    *nodes += 1;
    if *nodes & 1023 == 0 && timer.elapsed() >= hard {
        *aborted = true;
    }
    if *aborted {
        return 0;
    }
    if depth <= 0 {
        return evaluate(pos);
    }
    let mut list = MoveList::new();
    pos.gen_legal(&mut list);
    if list.is_empty() {
        return -MATE + ply as i32;
    }
    let mut best = -INF;
    for &m in list.as_slice() {
        let u = pos.make(m);
        let s = -minimax(pos, depth - 1, ply + 1, nodes, timer, hard, aborted);
        pos.unmake(m, u);
        best = best.max(s);
    }
    best
}

/// Textbook alpha-beta as in the USTC lab: fixed depth, moves in generation
/// order, the evaluation at the leaves; no table, no ordering, no
/// quiescence, no extension. Same result as [`minimax_root`] (ties aside),
/// fewer nodes. Stops early like [`minimax_root`].
pub fn plain_alphabeta_root(
    pos: &Position,
    depth: u32,
    timer: &dyn Timer,
    stop: f64,
) -> SearchResult {
    let mut pos = pos.clone();
    let hard = mul(timer.budget(), stop);
    let mut nodes = 0u64;
    let mut list = MoveList::new();
    pos.gen_legal(&mut list);
    let mut best = (-INF, list.as_slice().first().copied().unwrap_or(Move::NULL));
    let mut aborted = false;
    for &m in list.as_slice() {
        let u = pos.make(m);
        let s = -plain_alphabeta(
            &mut pos,
            depth.max(1) as i32 - 1,
            1,
            -INF,
            -best.0,
            &mut nodes,
            timer,
            hard,
            &mut aborted,
        );
        pos.unmake(m, u);
        if aborted {
            break;
        }
        if s > best.0 {
            best = (s, m);
        }
    }
    SearchResult {
        best: best.1,
        score: best.0,
        depth: if aborted { 0 } else { depth },
        nodes,
    }
}

#[allow(clippy::too_many_arguments)]
fn plain_alphabeta(
    pos: &mut Position,
    depth: i32,
    ply: usize,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
    timer: &dyn Timer,
    hard: Duration,
    aborted: &mut bool,
) -> i32 {
    *nodes += 1;
    if *nodes & 1023 == 0 && timer.elapsed() >= hard {
        *aborted = true;
    }
    if *aborted {
        return 0;
    }
    if depth <= 0 {
        return evaluate(pos);
    }
    let mut list = MoveList::new();
    pos.gen_legal(&mut list);
    if list.is_empty() {
        return -MATE + ply as i32;
    }
    let mut best = -INF;
    for &m in list.as_slice() {
        let u = pos.make(m);
        let s = -plain_alphabeta(
            pos,
            depth - 1,
            ply + 1,
            -beta,
            -alpha,
            nodes,
            timer,
            hard,
            aborted,
        );
        pos.unmake(m, u);
        if s > best {
            best = s;
        }
        if s > alpha {
            alpha = s;
            if alpha >= beta {
                break;
            }
        }
    }
    best
}
