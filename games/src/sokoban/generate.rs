//! The level generator of course report 003: carve a room by a random walk,
//! put the boxes on their goals, then play the game backwards (the player
//! walks and *pulls* boxes) from that solved position. Every level is
//! solvable by construction: the pulls, reversed, are a solution. A
//! difficulty score built from the report's features keeps the levels above
//! a threshold.
//!
//! # Difficulty (report 003)
//! - `P_b`, **3×3 blocks**: the cells not on the board's edge whose eight
//!   neighbours are neither all walls nor all free floor (a neighbour counts
//!   +1 if a wall, −1 if floor or goal without box or player, 0 otherwise; a
//!   block is a cell whose sum is not ±8);
//! - `P_c`, **congestion**: sort the boxes and the goals in reading order
//!   (row, then column) and pair the `i`-th box with the `i`-th goal; for each
//!   pair take the rectangle they span, with area `A_i` holding `b_i` boxes,
//!   `g_i` goals and `w_i` walls:
//!   `P_c = Σ (α b_i + β g_i) / (γ (A_i − w_i))`, with α = 10, β = 5, γ = 1;
//! - `n`, the number of boxes.
//!
//! `score = (w_b P_b + w_c P_c + w_n n) / k` with w_b = 15, w_c = 5,
//! w_n = 1, k = 50 (the values in the report's text). Cells outside the
//! player's region count as walls (the report's maps are solid rock
//! outside the carved area).

use super::{Dir, Level, Sokoban, MAX_FLOOR};
use rand::Rng;
use std::fmt;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenerateOptions {
    /// Columns of the grid, outer walls included.
    pub width: usize,
    /// Rows of the grid, outer walls included.
    pub height: usize,
    /// Number of boxes (and goals).
    pub boxes: usize,
    /// Keep only levels whose [`Difficulty::score`] is at least this.
    pub min_score: f64,
    /// Give up after this many rejected attempts.
    pub max_attempts: usize,
}

impl Default for GenerateOptions {
    /// 10×10 with 4 boxes (Boxoban's shape), no threshold, 20 000 attempts.
    fn default() -> Self {
        GenerateOptions {
            width: 10,
            height: 10,
            boxes: 4,
            min_score: 0.0,
            max_attempts: 20_000,
        }
    }
}

/// The report's difficulty features of a level and its score (see the
/// module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difficulty {
    /// `P_b`: number of 3×3 blocks.
    pub blocks: u32,
    /// `P_c`: congestion.
    pub congestion: f64,
    /// `n`: number of boxes.
    pub boxes: u32,
    /// `(15 P_b + 5 P_c + n) / 50`.
    pub score: f64,
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:.3} (blocks {}, congestion {:.3}, boxes {})",
            self.score, self.blocks, self.congestion, self.boxes
        )
    }
}

/// One generated level.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The level (empty title: the caller names it).
    pub level: Level,
    /// Its difficulty.
    pub difficulty: Difficulty,
    /// A solution in LURD: the generator's pulls, reversed (not optimal).
    pub solution: String,
    /// Attempts used (1 when the first level made was kept).
    pub attempts: usize,
}

/// Why no level was generated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// The options cannot work (too small, too large, too many boxes).
    #[error("{0}")]
    BadOptions(String),
    /// No attempt reached `min_score`.
    #[error("no level reached difficulty {min_score} in {attempts} attempts (best {best:.3}); lower --min-score or change --size/--boxes")]
    MinScoreNotReached {
        /// The threshold.
        min_score: f64,
        /// Attempts made.
        attempts: usize,
        /// The best score seen.
        best: f64,
    },
}

const ALPHA: f64 = 10.0;
const BETA: f64 = 5.0;
const GAMMA: f64 = 1.0;
const W_B: f64 = 15.0;
const W_C: f64 = 5.0;
const W_N: f64 = 1.0;
const K: f64 = 50.0;

/// The report's difficulty of `level` (see the module docs).
pub fn difficulty(level: &Level) -> Difficulty {
    let (w, h) = (level.width, level.height);
    let region = level.player_region();
    // +1 wall (or outside the region), -1 free floor, 0 box or player.
    let weight = |i: usize| -> i32 {
        if level.walls[i] || !region[i] {
            1
        } else if level.boxes[i] || i == level.player {
            0
        } else {
            -1
        }
    };
    let mut blocks = 0;
    for r in 1..h.saturating_sub(1) {
        for c in 1..w.saturating_sub(1) {
            let mut n = 0;
            for dr in [-1isize, 0, 1] {
                for dc in [-1isize, 0, 1] {
                    if dr != 0 || dc != 0 {
                        let rr = (r as isize + dr) as usize;
                        let cc = (c as isize + dc) as usize;
                        n += weight(rr * w + cc);
                    }
                }
            }
            if n != 8 && n != -8 {
                blocks += 1;
            }
        }
    }
    let cells = |v: &[bool]| -> Vec<usize> { (0..v.len()).filter(|&i| v[i]).collect() };
    let (boxes, goals) = (cells(&level.boxes), cells(&level.goals));
    let mut congestion = 0.0;
    for (&b, &g) in boxes.iter().zip(&goals) {
        let (br, bc) = level.coords(b);
        let (gr, gc) = level.coords(g);
        let (mut nb, mut ng, mut nw, mut area) = (0.0, 0.0, 0.0, 0.0);
        for r in br.min(gr)..=br.max(gr) {
            for c in bc.min(gc)..=bc.max(gc) {
                let i = r * w + c;
                area += 1.0;
                nb += level.boxes[i] as u8 as f64;
                ng += level.goals[i] as u8 as f64;
                nw += (level.walls[i] || !region[i]) as u8 as f64;
            }
        }
        let free = area - nw;
        if free > 0.0 {
            congestion += (ALPHA * nb + BETA * ng) / (GAMMA * free);
        }
    }
    let n = boxes.len() as u32;
    Difficulty {
        blocks,
        congestion,
        boxes: n,
        score: (W_B * blocks as f64 + W_C * congestion + W_N * n as f64) / K,
    }
}

/// Generate one level with `rng` (same RNG state, same level). Attempts are
/// repeated until one reaches `opts.min_score` (see [`GenerateError`]).
pub fn generate<R: Rng>(rng: &mut R, opts: &GenerateOptions) -> Result<Generated, GenerateError> {
    let (w, h) = (opts.width, opts.height);
    if w < 4 || h < 4 {
        return Err(GenerateError::BadOptions(format!(
            "size {w}x{h}: width and height must be at least 4 (walls included)"
        )));
    }
    let interior = (w - 2).saturating_mul(h - 2);
    if interior > MAX_FLOOR {
        return Err(GenerateError::BadOptions(format!(
            "size {w}x{h}: at most {MAX_FLOOR} cells inside the outer walls"
        )));
    }
    if opts.boxes == 0 || opts.boxes * 3 + 2 > interior {
        return Err(GenerateError::BadOptions(format!(
            "{} boxes on a {w}x{h} grid: need at least 1 box and 3 inner cells per box plus 2",
            opts.boxes
        )));
    }
    // No level of this shape can score more than this: every inner cell a
    // block, every rectangle one free cell holding every box and goal.
    let n = opts.boxes as f64;
    let ceiling = (W_B * interior as f64 + W_C * n * (ALPHA * n + BETA * n) / GAMMA + W_N * n) / K;
    if opts.min_score > ceiling {
        return Err(GenerateError::BadOptions(format!(
            "--min-score {}: no {w}x{h} level with {} boxes can score more than {ceiling:.3}",
            opts.min_score, opts.boxes
        )));
    }
    let mut best = f64::NEG_INFINITY;
    for attempt in 1..=opts.max_attempts.max(1) {
        let Some((level, solution)) = attempt_level(rng, w, h, opts.boxes) else {
            continue;
        };
        let d = difficulty(&level);
        if d.score >= opts.min_score {
            return Ok(Generated {
                level,
                difficulty: d,
                solution,
                attempts: attempt,
            });
        }
        best = best.max(d.score);
    }
    Err(GenerateError::MinScoreNotReached {
        min_score: opts.min_score,
        attempts: opts.max_attempts.max(1),
        best,
    })
}

/// One attempt: carve, place, pull. `None` when the pulls did not move every
/// box or left the level solved.
fn attempt_level<R: Rng>(
    rng: &mut R,
    w: usize,
    h: usize,
    nboxes: usize,
) -> Option<(Level, String)> {
    let n = w * h;
    let inside = |i: usize| {
        let (r, c) = (i / w, i % w);
        r > 0 && c > 0 && r + 1 < h && c + 1 < w
    };
    // 1. Carve: a random walk from the middle, sometimes clearing a 2x2 room
    //    corner, until about half of the inside is floor.
    let interior = (w - 2) * (h - 2);
    let target = (interior / 2).max(nboxes * 3 + 2).min(interior);
    let mut floor = vec![false; n];
    let mut count = 0;
    let mut pos = (h / 2) * w + w / 2;
    let mut dir = Dir::ALL[rng.gen_range(0..4)];
    let dig = |i: usize, floor: &mut Vec<bool>, count: &mut usize| {
        if inside(i) && !floor[i] {
            floor[i] = true;
            *count += 1;
        }
    };
    dig(pos, &mut floor, &mut count);
    for _ in 0..interior * 100 {
        if count >= target {
            break;
        }
        if rng.gen_bool(0.35) {
            dir = Dir::ALL[rng.gen_range(0..4)];
        }
        match dir.step(pos, w, h) {
            Some(next) if inside(next) => pos = next,
            _ => {
                dir = Dir::ALL[rng.gen_range(0..4)];
                continue;
            }
        }
        dig(pos, &mut floor, &mut count);
        if rng.gen_bool(0.15) {
            // A small room: the 2x2 square with `pos` at a random corner.
            let (dr, dc) = (rng.gen_range(0..2), rng.gen_range(0..2));
            let (r, c) = (pos / w, pos % w);
            for (rr, cc) in [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] {
                let (rr, cc) = (rr.saturating_sub(dr), cc.saturating_sub(dc));
                dig(rr * w + cc, &mut floor, &mut count);
            }
        }
    }
    let cells: Vec<usize> = (0..n).filter(|&i| floor[i]).collect();
    if cells.len() < nboxes + 1 {
        return None;
    }
    // 2. Boxes on goals, the player elsewhere.
    let mut pick = cells.clone();
    let mut goals = Vec::with_capacity(nboxes);
    for _ in 0..nboxes {
        goals.push(pick.swap_remove(rng.gen_range(0..pick.len())));
    }
    let mut player = pick[rng.gen_range(0..pick.len())];
    let mut box_at: Vec<Option<usize>> = vec![None; n]; // cell -> box id
    for (k, &g) in goals.iter().enumerate() {
        box_at[g] = Some(k);
    }
    let mut moved = vec![false; nboxes];
    // 3. Play backwards: walk, and pull the box behind the player.
    let mut pulls: Vec<(Dir, bool)> = Vec::new();
    let steps = cells.len() * 20 + nboxes * 100;
    for _ in 0..steps {
        let d = Dir::ALL[rng.gen_range(0..4)];
        let Some(to) = d
            .step(player, w, h)
            .filter(|&t| floor[t] && box_at[t].is_none())
        else {
            continue;
        };
        let behind = d.opposite().step(player, w, h);
        let pull = match behind.and_then(|b| box_at[b].map(|k| (b, k))) {
            Some((b, k)) if rng.gen_bool(0.75) => {
                box_at[b] = None;
                box_at[player] = Some(k);
                moved[k] = true;
                true
            }
            _ => false,
        };
        pulls.push((d, pull));
        player = to;
    }
    if moved.iter().any(|&m| !m) || goals.iter().all(|&g| box_at[g].is_some()) {
        return None;
    }
    // 4. The level, cropped to the floor plus one ring of walls; walls not
    //    next to any floor are left out (floor outside the walls).
    let rows: Vec<usize> = cells.iter().map(|&i| i / w).collect();
    let cols: Vec<usize> = cells.iter().map(|&i| i % w).collect();
    let (r0, r1) = (rows.iter().min()? - 1, rows.iter().max()? + 1);
    let (c0, c1) = (cols.iter().min()? - 1, cols.iter().max()? + 1);
    let (cw, ch) = (c1 - c0 + 1, r1 - r0 + 1);
    let map = |i: usize| (i / w - r0) * cw + (i % w - c0);
    let mut level = Level {
        title: String::new(),
        index: 0,
        line: 0,
        width: cw,
        height: ch,
        walls: vec![false; cw * ch],
        goals: vec![false; cw * ch],
        boxes: vec![false; cw * ch],
        player: map(player),
    };
    for r in r0..=r1 {
        for c in c0..=c1 {
            let i = r * w + c;
            let j = map(i);
            if floor[i] {
                level.goals[j] = goals.contains(&i);
                level.boxes[j] = box_at[i].is_some();
            } else {
                let near_floor = (r.saturating_sub(1)..=(r + 1).min(h - 1)).any(|rr| {
                    (c.saturating_sub(1)..=(c + 1).min(w - 1)).any(|cc| floor[rr * w + cc])
                });
                level.walls[j] = near_floor;
            }
        }
    }
    // The solution: the pulls in reverse order, each walked the other way
    // (a pull becomes a push).
    let solution: String = pulls
        .iter()
        .rev()
        .map(|&(d, pull)| d.opposite().letter(pull))
        .collect();
    debug_assert!(Sokoban::from_level(&level).is_ok());
    Some((level, solution))
}
