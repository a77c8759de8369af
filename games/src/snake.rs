//! Two-player simultaneous **Snake** with Botzone's rules (game
//! `550183b60003e25477128460`, judge `Snake.cpp`).
//!
//! # Coordinates
//! The board has `n` rows and `m` columns; a cell is `(x, y)` with `x` the
//! row `1..=n` and `y` the column `1..=m`. Snake 0 starts at `(1, 1)`,
//! snake 1 at `(n, m)`, both of length 1. Directions: `0` up (`x − 1`),
//! `1` right (`y + 1`), `2` down (`x + 1`), `3` left (`y − 1`).
//!
//! # One round (round `t = 0, 1, 2, …`)
//! 1. Growth: a snake grows (keeps its tail) when `t <= 9` or `(t − 9) % 3 == 0`
//!    (1-indexed rounds 1–10, then 13, 16, …). On a non-growing round **both
//!    tails are removed before anyone moves**, so a vacated tail cell may be
//!    entered in that round.
//! 2. Snake 0 moves: its target dies if off the board, on an obstacle, or on
//!    any body cell of either snake (snake 1 has not moved yet).
//! 3. Snake 1 moves: if its target is snake 0's current head (the new head if
//!    snake 0 survived, its old head otherwise) **both die**; otherwise it dies
//!    on the same conditions, against the board where snake 0 has moved.
//! 4. The game ends at the first death: one dead → the other wins (2 : 0),
//!    both dead → draw (1 : 1). There is no round limit in Botzone (the snakes
//!    keep growing); [`Snake::set_max_rounds`] adds one for the harness (a draw).
//!
//! Consequences: a head swap kills both (snake 0 hits snake 1's head cell,
//! snake 1 targets snake 0's old head); reversing into one's own neck is a
//! self-collision; two heads entering one cell kill both (impossible on
//! generated maps, whose `n + m` is odd).
//!
//! # Maps
//! [`generate_map`] is the judge's generator, on the judge's random numbers
//! (glibc's `rand()` seeded with `srand(seed)`, and the judge's skewed
//! `Rand(k)`, see [`GlibcRand`]): `m = 9 + Rand(3)`, `n = 10 + Rand(6)`, then
//! `n −= 1` if `n + m` is even (so `n ∈ [10, 16]` and `n + m` odd);
//! `k = n·m/10`; `k/2` times a random free cell other than the two start
//! cells is made an obstacle together with its point mirror
//! `(n+1−x, m+1−y)`; if the free cells are not all connected, all obstacles
//! are discarded and drawn again. The map for seed `s` is the map Botzone's
//! judge draws for `initdata = {"seed": s}`.

use crate::api::{Game, PlayerResult, Seat};
use crate::grid::Bits;
use std::hash::{Hash, Hasher};

const WORDS: usize = 4;
/// The largest board (`n · m`) a Snake state supports.
pub const MAX_CELLS: usize = 64 * WORDS;

/// Row deltas of directions 0..3 (up, right, down, left).
pub const DX: [i32; 4] = [-1, 0, 1, 0];
/// Column deltas of directions 0..3.
pub const DY: [i32; 4] = [0, 1, 0, -1];

/// Whether a snake grows in round `t` (0-based): rounds 0–9, then every third.
pub fn grows(round: u32) -> bool {
    round <= 9 || (round - 9).is_multiple_of(3)
}

/// A snake's body as a ring buffer of cell indices, head first.
#[derive(Clone, Copy)]
struct Body {
    cells: [u8; MAX_CELLS],
    head: u8,
    len: u16,
}

impl Body {
    fn new(cell: u8) -> Self {
        let mut cells = [0u8; MAX_CELLS];
        cells[0] = cell;
        Body {
            cells,
            head: 0,
            len: 1,
        }
    }
    #[inline]
    fn get(&self, i: usize) -> u8 {
        self.cells[(self.head as usize + i) % MAX_CELLS]
    }
    #[inline]
    fn head_cell(&self) -> u8 {
        self.cells[self.head as usize]
    }
    #[inline]
    fn tail_cell(&self) -> u8 {
        self.get(self.len as usize - 1)
    }
    #[inline]
    fn push_front(&mut self, c: u8) {
        self.head = self.head.wrapping_sub(1);
        self.cells[self.head as usize] = c;
        self.len += 1;
    }
    #[inline]
    fn pop_back(&mut self) -> u8 {
        let c = self.tail_cell();
        self.len -= 1;
        c
    }
    fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len as usize).map(move |i| self.get(i))
    }
}

/// A Snake state: board, obstacles, both bodies (inline, no heap).
#[derive(Clone)]
pub struct Snake {
    n: u8,
    m: u8,
    obstacles: Bits<WORDS>,
    occupied: Bits<WORDS>,
    bodies: [Body; 2],
    alive: [bool; 2],
    over: bool,
    round: u32,
    max_rounds: u32,
    last_dir: [u8; 2],
}

impl std::fmt::Debug for Snake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snake")
            .field("n", &self.n)
            .field("m", &self.m)
            .field("round", &self.round)
            .field("bodies", &[self.body(0), self.body(1)])
            .field("alive", &self.alive)
            .finish()
    }
}

impl PartialEq for Snake {
    fn eq(&self, o: &Self) -> bool {
        self.round == o.round
            && self.alive == o.alive
            && self.n == o.n
            && self.m == o.m
            && self.obstacles == o.obstacles
            && (0..2).all(|s| self.bodies[s].iter().eq(o.bodies[s].iter()))
    }
}
impl Eq for Snake {}

impl Hash for Snake {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u32(self.round);
        for b in &self.bodies {
            h.write_u16(b.len);
            for c in b.iter() {
                h.write_u8(c);
            }
        }
    }
}

/// Why a map cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// Bad dimensions.
    #[error("board {n} rows x {m} columns: expected 1 to {MAX_CELLS} cells with at least 2 cells")]
    Size {
        /// Rows.
        n: i64,
        /// Columns.
        m: i64,
    },
    /// An obstacle outside the board or on a start cell.
    #[error("obstacle {index} at (x={x}, y={y}): {why}")]
    Obstacle {
        /// Its position in the list (0-based).
        index: usize,
        /// Row.
        x: i64,
        /// Column.
        y: i64,
        /// What is wrong.
        why: &'static str,
    },
}

impl Snake {
    /// A new game on an `n`-row, `m`-column board with obstacles at `(x, y)`
    /// cells (1-based). Duplicated obstacles are fine; obstacles must be on
    /// the board and not on a start cell.
    pub fn new(n: i64, m: i64, obstacles: &[(i64, i64)]) -> Result<Snake, MapError> {
        if n < 1 || m < 1 || n * m > MAX_CELLS as i64 || n * m < 2 {
            return Err(MapError::Size { n, m });
        }
        let (nu, mu) = (n as u8, m as u8);
        let mut obs = Bits::new();
        for (index, &(x, y)) in obstacles.iter().enumerate() {
            if x < 1 || x > n || y < 1 || y > m {
                return Err(MapError::Obstacle {
                    index,
                    x,
                    y,
                    why: "outside the board",
                });
            }
            if (x, y) == (1, 1) || (x, y) == (n, m) {
                return Err(MapError::Obstacle {
                    index,
                    x,
                    y,
                    why: "on a start cell",
                });
            }
            obs.set(((x - 1) * m + (y - 1)) as usize);
        }
        let c0 = 0u8;
        let c1 = (n * m - 1) as u8;
        let mut occupied = Bits::new();
        occupied.set(c0 as usize);
        occupied.set(c1 as usize);
        Ok(Snake {
            n: nu,
            m: mu,
            obstacles: obs,
            occupied,
            bodies: [Body::new(c0), Body::new(c1)],
            alive: [true, true],
            over: false,
            round: 0,
            max_rounds: u32::MAX,
            last_dir: [1, 3],
        })
    }

    /// Limit the game to `rounds` rounds (then it ends as a draw).
    pub fn set_max_rounds(&mut self, rounds: u32) {
        self.max_rounds = rounds;
        if self.round >= rounds {
            self.over = true;
        }
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.n as usize
    }
    /// Columns.
    pub fn cols(&self) -> usize {
        self.m as usize
    }
    /// Rounds played.
    pub fn round(&self) -> u32 {
        self.round
    }
    /// Whether snake `s` is alive.
    pub fn alive(&self, s: usize) -> bool {
        self.alive[s]
    }
    /// The obstacle cells as `(x, y)`.
    pub fn obstacles(&self) -> Vec<(usize, usize)> {
        self.obstacles.iter().map(|c| self.xy(c as u8)).collect()
    }
    /// Snake `s`'s body as `(x, y)` cells, head first.
    pub fn body(&self, s: usize) -> Vec<(usize, usize)> {
        self.bodies[s].iter().map(|c| self.xy(c)).collect()
    }
    /// Length of snake `s`.
    pub fn len(&self, s: usize) -> usize {
        self.bodies[s].len as usize
    }
    /// Snake `s`'s head cell index (`(x−1)·m + (y−1)`).
    pub fn head(&self, s: usize) -> usize {
        self.bodies[s].head_cell() as usize
    }
    /// Snake `s`'s tail cell index.
    pub fn tail(&self, s: usize) -> usize {
        self.bodies[s].tail_cell() as usize
    }
    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.n as usize * self.m as usize
    }
    /// `(x, y)` (1-based) of a cell index.
    pub fn xy(&self, c: u8) -> (usize, usize) {
        let c = c as usize;
        (c / self.m as usize + 1, c % self.m as usize + 1)
    }
    /// Whether cell index `c` is an obstacle.
    pub fn is_obstacle(&self, c: usize) -> bool {
        self.obstacles.get(c)
    }
    /// Whether cell index `c` holds a body cell of either snake.
    pub fn is_occupied(&self, c: usize) -> bool {
        self.occupied.get(c)
    }
    /// The last direction snake `s` moved (initially 1 for snake 0, 3 for snake 1).
    pub fn last_dir(&self, s: usize) -> u8 {
        self.last_dir[s]
    }

    /// The neighbour of cell `c` in direction `d`, or `None` off the board
    /// or when `d` is not a direction (outside `0..=3`: a fatal move for the
    /// judge too).
    #[inline]
    pub fn neighbor(&self, c: usize, d: u8) -> Option<usize> {
        if d > 3 {
            return None;
        }
        let m = self.m as i32;
        let x = (c as i32) / m + DX[d as usize];
        let y = (c as i32) % m + DY[d as usize];
        if x < 0 || y < 0 || x >= self.n as i32 || y >= m {
            None
        } else {
            Some((x * m + y) as usize)
        }
    }

    /// Whether moving snake `s` in direction `d` this round is immediately
    /// safe, ignoring what the opponent does (tails that leave this round
    /// count as free): Botzone's sample bot's `validDirection`.
    pub fn is_safe(&self, s: usize, d: u8) -> bool {
        let Some(t) = self.neighbor(self.head(s), d) else {
            return false;
        };
        if self.obstacles.get(t) {
            return false;
        }
        if !self.occupied.get(t) {
            return true;
        }
        // An occupied cell is free only if it is a tail that leaves this round.
        !grows(self.round) && (t == self.tail(0) || t == self.tail(1))
    }

    /// Play one round with snake 0 moving `d0` and snake 1 moving `d1`.
    pub fn play(&mut self, d0: u8, d1: u8) {
        if self.over {
            return;
        }
        if !grows(self.round) {
            for b in &mut self.bodies {
                let t = b.pop_back();
                self.occupied.clear(t as usize);
            }
        }
        let mut dead = [false, false];
        // Snake 0.
        match self.neighbor(self.head(0), d0) {
            Some(t) if !self.obstacles.get(t) && !self.occupied.get(t) => {
                self.bodies[0].push_front(t as u8);
                self.occupied.set(t);
            }
            _ => dead[0] = true,
        }
        // Snake 1.
        let head0 = self.head(0);
        match self.neighbor(self.head(1), d1) {
            Some(t) if t == head0 => {
                dead[0] = true;
                dead[1] = true;
            }
            Some(t) if !self.obstacles.get(t) && !self.occupied.get(t) => {
                self.bodies[1].push_front(t as u8);
                self.occupied.set(t);
            }
            _ => dead[1] = true,
        }
        self.last_dir = [d0 & 3, d1 & 3];
        self.round += 1;
        self.alive = [!dead[0], !dead[1]];
        if dead[0] || dead[1] || self.round >= self.max_rounds {
            self.over = true;
        }
    }

    /// The final scores `[s0, s1]` (2/0 win, 1/1 draw), or `None` while playing.
    pub fn scores(&self) -> Option<[u32; 2]> {
        if !self.over {
            return None;
        }
        Some(match (self.alive[0], self.alive[1]) {
            (true, false) => [2, 0],
            (false, true) => [0, 2],
            _ => [1, 1],
        })
    }

    /// Whether every free cell is reachable from `(1, 1)` (the judge's map check).
    pub fn free_cells_connected(&self) -> bool {
        let total = self.cells();
        let mut seen = Bits::<WORDS>::new();
        let mut stack = vec![0usize];
        seen.set(0);
        let mut count = 1;
        while let Some(c) = stack.pop() {
            for d in 0..4 {
                if let Some(t) = self.neighbor(c, d) {
                    if !seen.get(t) && !self.obstacles.get(t) {
                        seen.set(t);
                        count += 1;
                        stack.push(t);
                    }
                }
            }
        }
        count == total - self.obstacles.count() as usize
    }
}

/// glibc's `rand()` after `srand(seed)`: the additive feedback generator
/// (`TYPE_3`, degree 31, separation 3) that Botzone's judge gets from the C
/// library. Reproduced so that a map drawn from a seed is the judge's map for
/// that seed, bit for bit.
#[derive(Clone, Debug)]
pub struct GlibcRand {
    /// The last 34 words of the sequence `r[k] = r[k − 31] + r[k − 3]`.
    ring: [u32; 34],
    /// Index of the next word.
    k: usize,
}

impl GlibcRand {
    /// The generator after `srand(seed)` (a seed of 0 acts as 1, as in glibc).
    pub fn new(seed: u32) -> GlibcRand {
        let mut ring = [0u32; 34];
        ring[0] = if seed == 0 { 1 } else { seed };
        for i in 1..31 {
            // glibc: word = 16807 * word % 2147483647 without overflow, on a signed 32-bit word.
            let word = ring[i - 1] as i32 as i64;
            let (hi, lo) = (word / 127_773, word % 127_773);
            let mut next = 16_807 * lo - 2_836 * hi;
            if next < 0 {
                next += 2_147_483_647;
            }
            ring[i] = next as u32;
        }
        for i in 31..34 {
            ring[i] = ring[i - 31];
        }
        let mut g = GlibcRand { ring, k: 34 };
        for _ in 0..310 {
            g.next_word();
        }
        g
    }

    fn next_word(&mut self) -> u32 {
        let k = self.k;
        let w = self.ring[(k - 31) % 34].wrapping_add(self.ring[(k - 3) % 34]);
        self.ring[k % 34] = w;
        self.k = k + 1;
        w
    }

    /// The next `rand()` value, in `0..=2^31 − 1`.
    pub fn rand(&mut self) -> i32 {
        (self.next_word() >> 1) as i32
    }

    /// The judge's `Rand(k)`: `(rand()·rand()·rand() % k + k) % k + 1` in
    /// wrapping 32-bit signed arithmetic, a value in `1..=k` (not uniform:
    /// the product is a multiple of 4 with probability 11/16).
    pub fn judge_rand(&mut self, k: i32) -> i32 {
        let p = self
            .rand()
            .wrapping_mul(self.rand())
            .wrapping_mul(self.rand());
        (p % k + k) % k + 1
    }
}

/// The map Botzone's judge draws when its `initdata` is `{"seed": seed}`:
/// `(n, m, obstacles)`, obstacles in the judge's order (each followed by its
/// mirror). See the module docs; this is `Snake.cpp`'s generator on glibc's
/// `rand()`, so the maps are the judge's own, not just alike in distribution.
pub fn generate_map(seed: u32) -> (i64, i64, Vec<(i64, i64)>) {
    let mut g = GlibcRand::new(seed);
    let m = 9 + g.judge_rand(3) as i64;
    let mut n = 10 + g.judge_rand(6) as i64;
    if (n + m) % 2 == 0 {
        n -= 1;
    }
    let k = n * m / 10;
    loop {
        let mut obs: Vec<(i64, i64)> = Vec::new();
        for _ in 0..k / 2 {
            let draw = |g: &mut GlibcRand| {
                let x = g.judge_rand(n as i32) as i64;
                (x, g.judge_rand(m as i32) as i64)
            };
            let (mut x, mut y) = draw(&mut g);
            while (x, y) == (1, 1) || (x, y) == (n, m) || obs.contains(&(x, y)) {
                (x, y) = draw(&mut g);
            }
            obs.push((x, y));
            if (x, y) != (n + 1 - x, m + 1 - y) {
                obs.push((n + 1 - x, m + 1 - y));
            }
        }
        let s = Snake::new(n, m, &obs).expect("generated map is valid");
        if s.free_cells_connected() {
            return (n, m, obs);
        }
    }
}

impl Game for Snake {
    type Action = u8;

    fn num_players(&self) -> usize {
        2
    }
    fn is_active(&self, seat: Seat) -> bool {
        seat < 2 && !self.over
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        if self.is_active(seat) {
            out.extend_from_slice(&[0, 1, 2, 3]);
        }
    }
    fn is_legal(&self, seat: Seat, action: u8) -> bool {
        self.is_active(seat) && action < 4
    }
    /// Keep going in the direction of the snake's last move (initially right
    /// for snake 0, left for snake 1).
    fn fallback_action(&self, seat: Seat) -> u8 {
        self.last_dir[seat.min(1)]
    }
    fn advance(&mut self, joint: &[u8]) {
        self.play(joint[0], joint[1]);
    }
    fn is_over(&self) -> bool {
        self.over
    }
    fn score(&self, seat: Seat) -> f64 {
        self.scores().map(|s| s[seat] as f64).unwrap_or(0.0)
    }
    fn result(&self, seat: Seat) -> PlayerResult {
        match self.scores() {
            None => PlayerResult::Ongoing,
            Some(s) if s[seat] == 2 => PlayerResult::Win,
            Some(s) if s[seat] == 0 => PlayerResult::Loss,
            Some(_) => PlayerResult::Draw,
        }
    }
    fn tick(&self) -> u32 {
        self.round
    }
    fn action_name(&self, action: u8) -> String {
        action.to_string()
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<u8> {
        match text.trim() {
            "0" => Some(0),
            "1" => Some(1),
            "2" => Some(2),
            "3" => Some(3),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
