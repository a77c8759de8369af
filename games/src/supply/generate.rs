//! Random instances and a reference solver (used to classify them).

use super::{Cell, Dir, SupplyMap};
use rand::Rng;
use std::collections::VecDeque;
use std::fmt;

/// Whether an instance can be solved, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The exit can be reached; `steps` is the optimal number of steps,
    /// `maze_distance` the shortest path length ignoring food.
    Solvable {
        /// Optimal number of steps.
        steps: u32,
        /// Shortest path ignoring the food rule.
        maze_distance: u32,
    },
    /// The exit is connected to the start but the food budget forbids every
    /// path.
    UnsolvableFood {
        /// Shortest path ignoring the food rule.
        maze_distance: u32,
    },
    /// Walls separate the start from the exit.
    UnsolvableWalls,
}

impl Status {
    /// Whether the instance is solvable.
    pub fn is_solvable(self) -> bool {
        matches!(self, Status::Solvable { .. })
    }
    /// The optimal number of steps, if solvable.
    pub fn steps(self) -> Option<u32> {
        match self {
            Status::Solvable { steps, .. } => Some(steps),
            _ => None,
        }
    }
    /// Read the value of a generator `status:` comment (`solvable 23`,
    /// `unsolvable food`, `unsolvable walls`): `Some(Some(steps))`,
    /// `Some(None)` for unsolvable, `None` if not understood.
    pub fn parse_comment(value: &str) -> Option<Option<u32>> {
        let mut it = value.split_whitespace();
        match it.next()? {
            "solvable" => it.next()?.parse().ok().map(Some),
            "unsolvable" => Some(None),
            _ => None,
        }
    }
}

/// The `status:` comment value: `solvable 23`, `unsolvable food`, `unsolvable walls`.
impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Solvable { steps, .. } => write!(f, "solvable {steps}"),
            Status::UnsolvableFood { .. } => write!(f, "unsolvable food"),
            Status::UnsolvableWalls => write!(f, "unsolvable walls"),
        }
    }
}

/// Shortest path length from the start to the exit ignoring food (plain BFS
/// over cells), `None` if walls separate them.
pub fn maze_distance(map: &SupplyMap) -> Option<u32> {
    let mut dist = vec![u32::MAX; map.num_cells()];
    let mut q = VecDeque::new();
    dist[map.start() as usize] = 0;
    q.push_back(map.start());
    while let Some(c) = q.pop_front() {
        if c == map.exit() {
            return Some(dist[c as usize]);
        }
        for d in Dir::ALL {
            if let Some(n) = map.neighbor(c, d) {
                if dist[n as usize] == u32::MAX {
                    dist[n as usize] = dist[c as usize] + 1;
                    q.push_back(n);
                }
            }
        }
    }
    None
}

/// The optimal number of steps under the food rule, `None` if the exit is
/// unreachable. A reference implementation, independent of the agents:
/// breadth-first search over `(cell, food)` that drops a state when the same
/// cell was already reached with at least as much food (more food is never
/// worse: every move allowed with less food is allowed with more, and leads
/// to at least as much food), so it keeps O(cells) memory.
pub fn reference_distance(map: &SupplyMap) -> Option<u32> {
    // best[c] = most food with which c was reached so far, +1 (0 = never).
    let mut best = vec![0u64; map.num_cells()];
    let mut q = VecDeque::new();
    best[map.start() as usize] = map.capacity() as u64 + 1;
    q.push_back((map.start(), map.capacity(), 0u32));
    while let Some((c, f, g)) = q.pop_front() {
        if c == map.exit() {
            return Some(g);
        }
        for d in Dir::ALL {
            if let Some((n, nf)) = map.step(c, f, d) {
                if nf as u64 + 1 > best[n as usize] {
                    best[n as usize] = nf as u64 + 1;
                    q.push_back((n, nf, g + 1));
                }
            }
        }
    }
    None
}

/// Classify an instance with [`reference_distance`] and [`maze_distance`].
pub fn classify(map: &SupplyMap) -> Status {
    match maze_distance(map) {
        None => Status::UnsolvableWalls,
        Some(md) => match reference_distance(map) {
            Some(steps) => Status::Solvable {
                steps,
                maze_distance: md,
            },
            None => Status::UnsolvableFood { maze_distance: md },
        },
    }
}

/// A generated instance and its status.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The instance.
    pub map: SupplyMap,
    /// Whether (and in how many steps) it can be solved.
    pub status: Status,
}

/// One random grid: walls with density in [0.15, 0.35), supplies with
/// density in [0.01, 0.07) of the other cells, start anywhere, exit the
/// farthest (Manhattan) of 8 random cells other than the start.
fn candidate<R: Rng>(rng: &mut R, rows: usize, cols: usize, capacity: u32) -> SupplyMap {
    let n = rows * cols;
    let wall_p = rng.gen_range(0.15..0.35);
    let supply_p = rng.gen_range(0.01..0.07);
    let mut cells: Vec<Cell> = (0..n)
        .map(|_| {
            if rng.gen_bool(wall_p) {
                Cell::Wall
            } else if rng.gen_bool(supply_p) {
                Cell::Supply
            } else {
                Cell::Floor
            }
        })
        .collect();
    let start = rng.gen_range(0..n);
    let (sr, sc) = (start / cols, start % cols);
    let mut exit = usize::MAX;
    let mut far = 0;
    for _ in 0..8 {
        let e = rng.gen_range(0..n);
        if e == start {
            continue;
        }
        let d = (e / cols).abs_diff(sr) + (e % cols).abs_diff(sc);
        if exit == usize::MAX || d > far {
            exit = e;
            far = d;
        }
    }
    if exit == usize::MAX {
        exit = (start + 1) % n;
    }
    cells[start] = Cell::Start;
    cells[exit] = Cell::Exit;
    SupplyMap::from_cells(rows, cols, capacity, cells).expect("generated grid is well-formed")
}

/// `count` random `rows × cols` instances with food capacity `capacity`,
/// drawn from `rng`. About one in five is deliberately unsolvable (preferably
/// because of the food budget, i.e. the exit is connected to the start);
/// the rest are solvable. Each comes with its exact [`Status`] (so the flag
/// is right even when no instance of the wanted kind was found in 400 tries).
/// Errors when the grid has fewer than 2 cells, `capacity < 1`, or the grid
/// exceeds [`super::MAX_CELLS`].
pub fn generate<R: Rng>(
    rng: &mut R,
    rows: usize,
    cols: usize,
    capacity: u32,
    count: usize,
) -> Result<Vec<Generated>, String> {
    if rows == 0 || cols == 0 || rows.saturating_mul(cols) < 2 {
        return Err(format!(
            "size {rows}x{cols}: the grid needs at least 2 cells (start and exit)"
        ));
    }
    if rows.saturating_mul(cols) > super::MAX_CELLS {
        return Err(format!(
            "size {rows}x{cols} is more than {} cells",
            super::MAX_CELLS
        ));
    }
    if capacity < 1 {
        return Err("food capacity T must be at least 1".into());
    }
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let want_unsolvable = rng.gen_bool(0.2);
        let mut last = None;
        for attempt in 0..400 {
            let map = candidate(rng, rows, cols, capacity);
            let status = classify(&map);
            let ok = match status {
                Status::Solvable { .. } => !want_unsolvable,
                Status::UnsolvableFood { .. } => want_unsolvable,
                Status::UnsolvableWalls => want_unsolvable && attempt >= 200,
            };
            last = Some(Generated { map, status });
            if ok {
                break;
            }
        }
        out.extend(last);
    }
    Ok(out)
}
