//! GVGAI's path finder (`tools.pathfinder`), as the path-chasing NPCs use
//! it: built once when the level is built, from the cells that hold a sprite
//! of the game's `obs` types at that moment, then never updated. From every
//! free cell it runs GVGAI's Dijkstra (a `java.util.PriorityQueue` ordered
//! by cost, where ties fall as the binary heap makes them fall); the parent
//! of a cell is the cell that first reached it. Only the first step of each
//! path is kept, computed lazily per start cell.

use super::model::Dir;
use std::sync::OnceLock;

/// The obstacle grid and the lazily computed first steps.
#[derive(Debug)]
pub struct PathTable {
    w: usize,
    h: usize,
    obstacle: Vec<bool>,
    /// Neighbour order: up, down, left, right; or left, right when the
    /// avatar has exactly three actions (GVGAI's rule).
    horizontal_only: bool,
    /// Per start cell (index `x * h + y`): per destination cell, the first
    /// step (0: no path, 1 up, 2 down, 3 left, 4 right).
    first: Vec<OnceLock<Box<[u8]>>>,
}

/// `java.util.PriorityQueue` of (cost, cell) compared by cost only, with
/// the same sift-up and sift-down, so equal costs come out in Java's order.
struct JavaHeap {
    q: Vec<(f64, u32)>,
}

impl JavaHeap {
    fn add(&mut self, e: (f64, u32)) {
        let mut k = self.q.len();
        self.q.push(e);
        while k > 0 {
            let parent = (k - 1) >> 1;
            let p = self.q[parent];
            if e.0 >= p.0 {
                break;
            }
            self.q[k] = p;
            k = parent;
        }
        self.q[k] = e;
    }

    fn poll(&mut self) -> Option<(f64, u32)> {
        if self.q.is_empty() {
            return None;
        }
        let result = self.q[0];
        let x = self.q.pop().expect("not empty");
        let n = self.q.len();
        if n > 0 {
            let mut k = 0;
            let half = n >> 1;
            while k < half {
                let mut child = 2 * k + 1;
                let mut c = self.q[child];
                let right = child + 1;
                if right < n && c.0 > self.q[right].0 {
                    child = right;
                    c = self.q[child];
                }
                if x.0 <= c.0 {
                    break;
                }
                self.q[k] = c;
                k = child;
            }
            self.q[k] = x;
        }
        Some(result)
    }
}

impl PathTable {
    /// A table over a `w × h` grid with these obstacle cells (index
    /// `x * h + y`).
    pub fn new(w: usize, h: usize, obstacle: Vec<bool>, horizontal_only: bool) -> Self {
        let first = (0..w * h).map(|_| OnceLock::new()).collect();
        PathTable {
            w,
            h,
            obstacle,
            horizontal_only,
            first,
        }
    }

    fn is_obstacle(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x as usize >= self.w || y as usize >= self.h {
            return true;
        }
        self.obstacle[x as usize * self.h + y as usize]
    }

    fn dijkstra(&self, start: usize) -> Box<[u8]> {
        let n = self.w * self.h;
        let mut first = vec![0u8; n];
        let mut visited = vec![false; n];
        visited[start] = true;
        let mut heap = JavaHeap { q: Vec::new() };
        heap.add((0.0, start as u32));
        let dirs: &[(i64, i64, u8)] = if self.horizontal_only {
            &[(-1, 0, 3), (1, 0, 4)]
        } else {
            &[(0, -1, 1), (0, 1, 2), (-1, 0, 3), (1, 0, 4)]
        };
        while let Some((cost, node)) = heap.poll() {
            let node = node as usize;
            let (x, y) = ((node / self.h) as i64, (node % self.h) as i64);
            for &(dx, dy, code) in dirs {
                let (nx, ny) = (x + dx, y + dy);
                if self.is_obstacle(nx, ny) {
                    continue;
                }
                let nb = nx as usize * self.h + ny as usize;
                if !visited[nb] {
                    visited[nb] = true;
                    first[nb] = if node == start { code } else { first[node] };
                    heap.add((cost + 1.0, nb as u32));
                }
            }
        }
        first[start] = 0;
        first.into_boxed_slice()
    }

    /// The first step from the cell of pixel position `from` to the cell of
    /// `to` (GVGAI's `getPath(...).get(0).comingFrom`), if there is a path.
    pub fn first_step(&self, block: i32, from: (f64, f64), to: (f64, f64)) -> Option<Dir> {
        let cell = |p: (f64, f64)| -> Option<usize> {
            let (x, y) = ((p.0 / block as f64) as i64, (p.1 / block as f64) as i64);
            (x >= 0 && y >= 0 && (x as usize) < self.w && (y as usize) < self.h)
                .then(|| x as usize * self.h + y as usize)
        };
        let (s, d) = (cell(from)?, cell(to)?);
        if self.obstacle[s] {
            return None;
        }
        let row = self.first[s].get_or_init(|| self.dijkstra(s));
        match row[d] {
            1 => Some((0.0, -1.0)),
            2 => Some((0.0, 1.0)),
            3 => Some((-1.0, 0.0)),
            4 => Some((1.0, 0.0)),
            _ => None,
        }
    }
}
