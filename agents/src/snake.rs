//! Built-in agents for Botzone Snake.
//!
//! - `random-valid`: Botzone's sample bot: a random direction that is not
//!   immediately fatal (ignoring the opponent's move), else any direction.
//! - `greedy`: one-step flood fill: among safe directions, maximise the area
//!   reachable from the new head; cells the opponent's head could enter next
//!   round count as dangerous (a move into one is taken only if nothing else is safe).
//! - `duct`: decoupled UCT. Each tree node keeps, per player, visit and reward
//!   tables over that player's own directions; each player selects its
//!   direction by its own UCB1, and the pair indexes the child. Playouts use
//!   `random-valid` moves for both snakes up to a depth cap, then score the
//!   position by territory (cells each head reaches first). At the root the
//!   direction with the best average reward is played — the three lessons of
//!   course report 004. Time-bounded by the [`Timer`].

use crate::generic::RandomAgent;
use crate::params::{check_listed, unknown_agent, AgentError, AgentInfo, AgentParams, ParamInfo};
use games::snake::Snake;
use games::{Agent, AgentStats, Game, Seat, Timer};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// The built-in Snake agents.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random-valid",
        description: "Botzone's sample bot: a random direction that is not immediately fatal",
        params: &[],
    },
    AgentInfo {
        name: "random",
        description: "uniform over the four directions (often suicidal), seeded",
        params: &[],
    },
    AgentInfo {
        name: "greedy",
        description:
            "flood fill: maximise reachable area, avoid cells the opponent can enter next round",
        params: &[],
    },
    AgentInfo {
        name: "duct",
        description:
            "decoupled UCT (per-player UCB1 over own directions), territory-scored playouts",
        params: &[
            ParamInfo::new("c", "0.8", "exploration constant"),
            ParamInfo::new("depth", "30", "playout depth cap in rounds"),
            ParamInfo::new("budget", "0.6", "fraction of the act budget to use"),
        ],
    },
];

/// Build the Snake agent `name`.
pub fn make(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<Snake>>, AgentError> {
    check_listed("snake", AGENTS, name, params)?;
    match name {
        "random-valid" => Ok(Box::new(RandomValid {
            rng: ChaCha8Rng::seed_from_u64(seed),
        })),
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        "greedy" => Ok(Box::new(Greedy {
            rng: ChaCha8Rng::seed_from_u64(seed),
        })),
        "duct" => {
            let budget = params.f64(name, "budget", 0.6)?;
            if !(0.0..=1.0).contains(&budget) {
                return Err(AgentError::BadParam {
                    agent: name.into(),
                    key: "budget".into(),
                    expected: "a fraction between 0 and 1".into(),
                    got: budget.to_string(),
                });
            }
            Ok(Box::new(Duct::new(
                seed,
                params.f64(name, "c", 0.8)?,
                params.u64(name, "depth", 30)? as u32,
                budget,
            )))
        }
        _ => Err(unknown_agent("snake", name, AGENTS)),
    }
}

/// The directions `s` may take without dying at once (ignoring the opponent).
pub fn safe_dirs(state: &Snake, s: usize) -> Vec<u8> {
    (0..4).filter(|&d| state.is_safe(s, d)).collect()
}

fn random_valid<R: Rng>(state: &Snake, s: usize, rng: &mut R) -> u8 {
    let mut dirs = [0u8; 4];
    let mut k = 0;
    for d in 0..4 {
        if state.is_safe(s, d) {
            dirs[k] = d;
            k += 1;
        }
    }
    if k == 0 {
        rng.gen_range(0..4)
    } else {
        dirs[rng.gen_range(0..k)]
    }
}

/// Botzone's sample bot.
#[derive(Debug)]
pub struct RandomValid {
    rng: ChaCha8Rng,
}

impl Agent<Snake> for RandomValid {
    fn act(&mut self, state: &Snake, seat: Seat, _timer: &dyn Timer) -> u8 {
        random_valid(state, seat, &mut self.rng)
    }
}

/// Cells reachable from `from` over free cells (obstacles and bodies block),
/// with `blocked` also blocking.
fn flood_area(state: &Snake, from: usize, blocked: &[usize]) -> usize {
    let n = state.cells();
    let mut seen = vec![false; n];
    seen[from] = true;
    for &b in blocked {
        seen[b] = true;
    }
    let mut queue = VecDeque::from([from]);
    let mut count = 0;
    while let Some(c) = queue.pop_front() {
        count += 1;
        for d in 0..4 {
            if let Some(t) = state.neighbor(c, d) {
                if !seen[t] && !state.is_obstacle(t) && !state.is_occupied(t) {
                    seen[t] = true;
                    queue.push_back(t);
                }
            }
        }
    }
    count
}

/// The flood-fill agent.
#[derive(Debug)]
pub struct Greedy {
    rng: ChaCha8Rng,
}

impl Agent<Snake> for Greedy {
    fn act(&mut self, state: &Snake, seat: Seat, _timer: &dyn Timer) -> u8 {
        let opp = 1 - seat;
        let opp_next: Vec<usize> = (0..4)
            .filter(|&d| state.is_safe(opp, d))
            .filter_map(|d| state.neighbor(state.head(opp), d))
            .collect();
        let mut best: Option<(i64, u8)> = None;
        let mut dirs: Vec<u8> = safe_dirs(state, seat);
        dirs.shuffle(&mut self.rng);
        for d in dirs {
            let target = state
                .neighbor(state.head(seat), d)
                .expect("safe move stays on the board");
            // Flood from the target with the opponent's possible next cells blocked.
            let danger = opp_next.contains(&target);
            let blocked: Vec<usize> = opp_next.iter().copied().filter(|&c| c != target).collect();
            let area = flood_area(state, target, &blocked) as i64;
            let value = area - if danger { 10_000 } else { 0 };
            if best.map(|(v, _)| value > v).unwrap_or(true) {
                best = Some((value, d));
            }
        }
        best.map(|(_, d)| d)
            .unwrap_or_else(|| random_valid(state, seat, &mut self.rng))
    }
}

/// Per-player statistics of one node: visits and reward sums per direction.
#[derive(Clone, Debug, Default)]
struct Side {
    dirs: Vec<u8>,
    visits: [u32; 4],
    reward: [f64; 4],
}

#[derive(Clone, Debug)]
struct Node {
    state: Snake,
    visits: u32,
    sides: [Side; 2],
    children: [Option<u32>; 16],
}

impl Node {
    fn new(state: Snake) -> Self {
        let sides = [0, 1].map(|s| {
            let mut dirs = safe_dirs(&state, s);
            if dirs.is_empty() {
                dirs = vec![state.last_dir(s)];
            }
            Side {
                dirs,
                ..Side::default()
            }
        });
        Node {
            state,
            visits: 0,
            sides,
            children: [None; 16],
        }
    }
}

/// Territory evaluation: the share of free cells each head reaches strictly
/// first (BFS from both heads), as a reward in `[0, 1]` for snake 0 (snake
/// 1's is one minus it).
pub fn territory(state: &Snake) -> f64 {
    let n = state.cells();
    let mut dist = [vec![u16::MAX; n], vec![u16::MAX; n]];
    for s in 0..2 {
        let mut q = VecDeque::from([state.head(s)]);
        dist[s][state.head(s)] = 0;
        while let Some(c) = q.pop_front() {
            for d in 0..4 {
                if let Some(t) = state.neighbor(c, d) {
                    if dist[s][t] == u16::MAX && !state.is_obstacle(t) && !state.is_occupied(t) {
                        dist[s][t] = dist[s][c] + 1;
                        q.push_back(t);
                    }
                }
            }
        }
    }
    let (mut a, mut b) = (0u32, 0u32);
    for (d0, d1) in dist[0].iter().zip(&dist[1]) {
        match d0.cmp(d1) {
            std::cmp::Ordering::Less => a += 1,
            std::cmp::Ordering::Greater => b += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
    if a + b == 0 {
        0.5
    } else {
        0.25 + 0.5 * a as f64 / (a + b) as f64
    }
}

/// Rewards `[r0, r1]` of a finished game: win 1, loss 0, draw 0.5.
fn final_rewards(state: &Snake) -> [f64; 2] {
    match (state.alive(0), state.alive(1)) {
        (true, false) => [1.0, 0.0],
        (false, true) => [0.0, 1.0],
        _ => [0.5, 0.5],
    }
}

/// Decoupled UCT search.
#[derive(Debug)]
pub struct Duct {
    rng: ChaCha8Rng,
    c: f64,
    depth: u32,
    budget: f64,
    playouts: u64,
}

impl Duct {
    /// A DUCT agent: exploration `c`, playout depth cap `depth` (rounds), and
    /// the fraction `budget` of the act budget it uses.
    pub fn new(seed: u64, c: f64, depth: u32, budget: f64) -> Self {
        Duct {
            rng: ChaCha8Rng::seed_from_u64(seed),
            c,
            depth,
            budget,
            playouts: 0,
        }
    }

    /// Playouts run so far (over all acts).
    pub fn playouts(&self) -> u64 {
        self.playouts
    }

    fn select(&mut self, side: &Side, total: u32) -> usize {
        // Unvisited directions first, then UCB1 on the side's own reward.
        let mut best = (f64::NEG_INFINITY, 0);
        let ln = (total.max(1) as f64).ln();
        for (i, &d) in side.dirs.iter().enumerate() {
            let n = side.visits[d as usize];
            let v = if n == 0 {
                1e9 + self.rng.gen::<f64>()
            } else {
                side.reward[d as usize] / n as f64
                    + self.c * (ln / n as f64).sqrt()
                    + self.rng.gen::<f64>() * 1e-9
            };
            if v > best.0 {
                best = (v, i);
            }
        }
        best.1
    }

    fn playout(&mut self, mut s: Snake) -> [f64; 2] {
        for _ in 0..self.depth {
            if s.is_over() {
                return final_rewards(&s);
            }
            let d0 = random_valid(&s, 0, &mut self.rng);
            let d1 = random_valid(&s, 1, &mut self.rng);
            s.play(d0, d1);
        }
        if s.is_over() {
            final_rewards(&s)
        } else {
            let t = territory(&s);
            [t, 1.0 - t]
        }
    }

    /// Search from `root` until `stop()` says so; returns the chosen
    /// direction for `seat` and the number of playouts run.
    pub fn search(
        &mut self,
        root: &Snake,
        seat: Seat,
        stop: &mut dyn FnMut(u64) -> bool,
    ) -> (u8, u64) {
        let mut tree: Vec<Node> = vec![Node::new(root.clone())];
        let mut n = 0u64;
        let mut path: Vec<(u32, [u8; 2])> = Vec::with_capacity(64);
        while !stop(n) {
            path.clear();
            let mut at = 0u32;
            let rewards = loop {
                let node = &tree[at as usize];
                if node.state.is_over() {
                    break final_rewards(&node.state);
                }
                let (s0, s1) = (node.sides[0].clone(), node.sides[1].clone());
                let total = node.visits;
                let i0 = self.select(&s0, total);
                let i1 = self.select(&s1, total);
                let (d0, d1) = (s0.dirs[i0], s1.dirs[i1]);
                path.push((at, [d0, d1]));
                let key = (d0 * 4 + d1) as usize;
                match tree[at as usize].children[key] {
                    Some(child) => at = child,
                    None => {
                        let mut next = tree[at as usize].state.clone();
                        next.play(d0, d1);
                        let id = tree.len() as u32;
                        tree[at as usize].children[key] = Some(id);
                        tree.push(Node::new(next.clone()));
                        let r = if next.is_over() {
                            final_rewards(&next)
                        } else {
                            self.playout(next)
                        };
                        // Count the new leaf's own visit.
                        tree[id as usize].visits += 1;
                        break r;
                    }
                }
            };
            for &(node, dirs) in &path {
                let nd = &mut tree[node as usize];
                nd.visits += 1;
                for s in 0..2 {
                    let d = dirs[s] as usize;
                    nd.sides[s].visits[d] += 1;
                    nd.sides[s].reward[d] += rewards[s];
                }
            }
            n += 1;
        }
        self.playouts += n;
        // Best average at the root, among visited directions.
        let side = &tree[0].sides[seat];
        let mut best = (f64::NEG_INFINITY, side.dirs[0]);
        for &d in &side.dirs {
            let v = side.visits[d as usize];
            if v > 0 {
                let avg = side.reward[d as usize] / v as f64;
                if avg > best.0 {
                    best = (avg, d);
                }
            }
        }
        (best.1, n)
    }
}

impl Agent<Snake> for Duct {
    fn act(&mut self, state: &Snake, seat: Seat, timer: &dyn Timer) -> u8 {
        let safe = safe_dirs(state, seat);
        if safe.len() == 1 {
            return safe[0];
        }
        let limit = timer.budget().mul_f64(self.budget);
        let (d, _) = self.search(state, seat, &mut |n| {
            // Always run a handful of playouts; then check the clock every 16.
            n >= 16 && (n % 16 == 0) && timer.elapsed() >= limit
        });
        d
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.playouts),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::StepTimer;
    use std::time::Duration;

    #[test]
    fn random_valid_never_picks_a_fatal_move_when_a_safe_one_exists() {
        let mut s = Snake::new(10, 11, &[(1, 2)]).unwrap();
        let mut a = RandomValid {
            rng: ChaCha8Rng::seed_from_u64(3),
        };
        for _ in 0..50 {
            let d = a.act(&s, 0, &games::UnlimitedTimer);
            assert_eq!(d, 2, "only down is safe from (1,1) with (1,2) blocked");
        }
        s.play(2, 3);
        assert!(!s.is_over());
    }

    #[test]
    fn greedy_avoids_the_dead_end() {
        // Snake 0 at (1,1); going right leads into a 1-cell pocket closed by obstacles.
        let s = Snake::new(5, 6, &[(1, 3), (2, 2), (4, 5), (5, 4)]).unwrap();
        let mut g = Greedy {
            rng: ChaCha8Rng::seed_from_u64(1),
        };
        assert_eq!(g.act(&s, 0, &games::UnlimitedTimer), 2);
    }

    #[test]
    fn duct_takes_the_only_escape_and_respects_the_timer() {
        let s = Snake::new(5, 6, &[(1, 3), (2, 2), (4, 5), (5, 4)]).unwrap();
        let mut d = Duct::new(1, 0.8, 30, 0.6);
        // StepTimer: every elapsed() call advances 1 ms; budget 40 ms -> stops quickly.
        let timer = StepTimer::new(Duration::from_millis(40), Duration::from_millis(1));
        assert_eq!(d.act(&s, 0, &timer), 2);
        assert!(d.playouts() < 1000, "{}", d.playouts());
    }

    #[test]
    fn duct_beats_random_valid_in_short_games() {
        use rand::SeedableRng;
        let mut wins = 0;
        let games = 6;
        for g in 0..games {
            let (n, m, obs) = games::snake::generate_map(g as u32);
            let mut s = Snake::new(n, m, &obs).unwrap();
            let seat = (g % 2) as usize;
            let mut duct = Duct::new(g, 0.8, 20, 1.0);
            let mut rv = RandomValid {
                rng: ChaCha8Rng::seed_from_u64(100 + g),
            };
            while !s.is_over() {
                let mine = duct.search(&s, seat, &mut |n| n >= 300).0;
                let theirs = rv.act(&s, 1 - seat, &games::UnlimitedTimer);
                if seat == 0 {
                    s.play(mine, theirs)
                } else {
                    s.play(theirs, mine)
                }
            }
            if s.result(seat) == games::PlayerResult::Win {
                wins += 1;
            }
        }
        assert!(wins >= 4, "duct won {wins} of {games}");
    }
}
