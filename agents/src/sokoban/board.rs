//! The solver's compact board: floor cells numbered `0..n` in row-major order
//! (so the smallest reachable cell is the top-left one), a neighbour table,
//! goals, Zobrist keys, and the push-distance tables that give the dead
//! squares and the lower bound.

use games::grid::neighbours;
use games::sokoban::Level;

/// "No cell": a wall, or off the board.
pub(crate) const NONE: u16 = u16::MAX;
/// An infinite distance.
pub(crate) const INF: u16 = u16::MAX;

/// The largest distance table (cells × 4 sides × goals) built, about 128 MB.
pub(crate) const MAX_TABLE: usize = 1 << 26;

/// Directions in the order up, down, left, right; `d ^ 1` is the opposite.
pub(crate) const UP: usize = 0;
/// Down.
pub(crate) const DOWN: usize = 1;
/// Left.
pub(crate) const LEFT: usize = 2;
/// Right.
pub(crate) const RIGHT: usize = 3;
/// The LURD letter of each direction (lower case: a move).
pub(crate) const LETTER: [u8; 4] = [b'u', b'd', b'l', b'r'];

/// Why a level cannot be searched at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BoardError {
    /// The level is unsolvable for a reason seen before any search (e.g. a
    /// box the player can never reach that is not on a goal).
    Unsolvable(String),
    /// The level is beyond the solver's representation (more than 65,534
    /// floor cells the player can reach, or distance tables too large), or
    /// its fields do not fit together (not a level the parser would make).
    TooLarge(String),
}

/// The static part of a level, in the solver's numbering.
#[derive(Clone, Debug)]
pub(crate) struct Board {
    /// Columns of the level's grid.
    pub width: usize,
    /// Floor cells the player can reach when boxes are ignored.
    pub n: usize,
    /// Grid index of each floor cell.
    pub grid_of: Vec<usize>,
    /// Floor cell of each grid index, or [`NONE`].
    pub cell_of: Vec<u16>,
    /// `nbr[c][d]`: the floor cell next to `c` in direction `d`, or [`NONE`].
    pub nbr: Vec<[u16; 4]>,
    /// Whether each floor cell is a goal.
    pub is_goal: Vec<bool>,
    /// The goal cells, ascending.
    pub goals: Vec<u16>,
    /// The boxes at the start, ascending.
    pub start_boxes: Vec<u16>,
    /// The player's start cell.
    pub start_player: u16,
    /// [`super::SolveOptions::end`] in the solver's numbering: a floor
    /// cell that is not a goal.
    pub end_player: Option<u16>,
    /// `side_class[c][d]`: with a box on `c` (and no other box), the
    /// connected component of the free floor that holds the neighbour in
    /// direction `d`; equal numbers mean the player can walk from one side
    /// to the other around the box. `u8::MAX` for a wall side.
    pub side_class: Vec<[u8; 4]>,
    /// Zobrist key of a box on each cell.
    pub zob_box: Vec<u64>,
    /// Zobrist key of the (normalised) player on each cell.
    pub zob_player: Vec<u64>,
}

/// splitmix64: the Zobrist keys are fixed, so hashes are reproducible.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Board {
    /// Build the board of `level`. Boxes the player can never reach must be
    /// on goals (they are then fixed, like walls); goals out of reach must be
    /// covered by such boxes.
    pub fn new(level: &Level) -> Result<Board, BoardError> {
        let (w, h) = (level.width, level.height);
        let size = w.saturating_mul(h);
        if size == 0
            || level.walls.len() != size
            || level.goals.len() != size
            || level.boxes.len() != size
            || level.player >= size
        {
            return Err(BoardError::TooLarge(format!(
                "inconsistent level: {w}x{h} grid with {} cells, player at {}",
                level.walls.len(),
                level.player
            )));
        }
        if level.walls[level.player] || level.boxes[level.player] {
            return Err(BoardError::TooLarge(
                "inconsistent level: the player stands on a wall or a box".into(),
            ));
        }
        // Flood fill from the player through non-wall cells (boxes included).
        let mut inside = vec![false; size];
        let mut stack = vec![level.player];
        inside[level.player] = true;
        while let Some(g) = stack.pop() {
            for ng in neighbours(g, w, h).into_iter().flatten() {
                if !level.walls[ng] && !inside[ng] {
                    inside[ng] = true;
                    stack.push(ng);
                }
            }
        }
        // Boxes and goals outside the player's region.
        for (g, &ins) in inside.iter().enumerate() {
            if ins {
                continue;
            }
            if level.boxes[g] && !level.goals[g] {
                return Err(BoardError::Unsolvable(format!(
                    "the box at row {}, column {} can never be reached and is not on a goal",
                    g / w + 1,
                    g % w + 1
                )));
            }
            if level.goals[g] && !level.boxes[g] {
                return Err(BoardError::Unsolvable(format!(
                    "the goal at row {}, column {} can never be reached",
                    g / w + 1,
                    g % w + 1
                )));
            }
        }
        let grid_of: Vec<usize> = (0..size).filter(|&g| inside[g]).collect();
        let n = grid_of.len();
        if n >= NONE as usize {
            return Err(BoardError::TooLarge(format!(
                "{n} floor cells; the solver handles at most {}",
                NONE - 1
            )));
        }
        let mut cell_of = vec![NONE; size];
        for (i, &g) in grid_of.iter().enumerate() {
            cell_of[g] = i as u16;
        }
        let mut nbr = vec![[NONE; 4]; n];
        for (i, &g) in grid_of.iter().enumerate() {
            let [up, down, left, right] = neighbours(g, w, h);
            for (d, ng) in [(UP, up), (DOWN, down), (LEFT, left), (RIGHT, right)] {
                if let Some(ng) = ng {
                    nbr[i][d] = cell_of[ng];
                }
            }
        }
        let is_goal: Vec<bool> = grid_of.iter().map(|&g| level.goals[g]).collect();
        let goals: Vec<u16> = (0..n as u16).filter(|&c| is_goal[c as usize]).collect();
        let start_boxes: Vec<u16> = (0..n as u16)
            .filter(|&c| level.boxes[grid_of[c as usize]])
            .collect();
        if n.saturating_mul(4).saturating_mul(goals.len()) > MAX_TABLE {
            return Err(BoardError::TooLarge(format!(
                "{n} floor cells and {} goals: the distance tables would exceed {MAX_TABLE} entries",
                goals.len()
            )));
        }
        if start_boxes.len() != goals.len() {
            return Err(BoardError::Unsolvable(format!(
                "{} boxes but {} goals in the player's region",
                start_boxes.len(),
                goals.len()
            )));
        }
        let mut seed = 0x5eed_50c0_ba11_u64;
        let zob_box = (0..n).map(|_| splitmix(&mut seed)).collect();
        let zob_player = (0..n).map(|_| splitmix(&mut seed)).collect();
        let mut board = Board {
            width: w,
            n,
            grid_of,
            cell_of,
            nbr,
            is_goal,
            goals,
            start_boxes,
            start_player: 0,
            end_player: None,
            side_class: Vec::new(),
            zob_box,
            zob_player,
        };
        board.start_player = board.cell_of[level.player];
        board.side_class = board.compute_side_classes();
        Ok(board)
    }

    /// The walking distance from each floor cell to the nearest of `from`,
    /// boxes ignored (`u16::MAX` where none is reached).
    pub fn walk_distances(&self, from: &[u16]) -> Vec<u16> {
        let mut dist = vec![u16::MAX; self.n];
        let mut queue: Vec<u16> = from.to_vec();
        for &c in from {
            dist[c as usize] = 0;
        }
        let mut head = 0;
        while let Some(&x) = queue.get(head) {
            head += 1;
            for &y in &self.nbr[x as usize] {
                if y != NONE && dist[y as usize] == u16::MAX {
                    dist[y as usize] = dist[x as usize] + 1;
                    queue.push(y);
                }
            }
        }
        dist
    }

    /// Row and column (0-based) of a floor cell.
    pub fn row_col(&self, c: u16) -> (usize, usize) {
        let g = self.grid_of[c as usize];
        (g / self.width, g % self.width)
    }

    /// For each cell `c`: which of its neighbours stay connected to each other
    /// when a box stands on `c`. Two neighbours `u`, `v` of `c` are connected
    /// around `c` exactly when the edges `c–u` and `c–v` lie in the same
    /// biconnected component (block) of the floor graph; the blocks come from
    /// one iterative Tarjan depth-first search, O(cells).
    fn compute_side_classes(&self) -> Vec<[u8; 4]> {
        self.side_classes_with(&vec![false; self.n])
    }

    /// The side classes ([`Board::side_class`]) of the board where the
    /// cells flagged in `blocked` are walls too (their own classes, and the
    /// sides facing them, are left unset: `u8::MAX`).
    pub fn side_classes_with(&self, blocked: &[bool]) -> Vec<[u8; 4]> {
        let n = self.n;
        const UNSEEN: u32 = u32::MAX;
        let mut disc = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut block = vec![[u32::MAX; 4]; n];
        let mut edges: Vec<(u16, u8)> = Vec::new();
        // Frames: (cell, direction it was entered by from its parent, next
        // direction to try).
        let mut stack: Vec<(u16, u8, u8)> = Vec::new();
        let mut time = 0u32;
        let mut blocks = 0u32;
        for root in 0..n as u16 {
            if disc[root as usize] != UNSEEN || blocked[root as usize] {
                continue;
            }
            disc[root as usize] = time;
            low[root as usize] = time;
            time += 1;
            stack.push((root, u8::MAX, 0));
            while let Some(top) = stack.last_mut() {
                let (v, from, d) = *top;
                if d < 4 {
                    top.2 += 1;
                    let w = self.nbr[v as usize][d as usize];
                    if w == NONE || blocked[w as usize] || (from != u8::MAX && d == (from ^ 1)) {
                        continue; // a wall, or the tree edge back to the parent
                    }
                    if disc[w as usize] == UNSEEN {
                        edges.push((v, d));
                        disc[w as usize] = time;
                        low[w as usize] = time;
                        time += 1;
                        stack.push((w, d, 0));
                    } else if disc[w as usize] < disc[v as usize] {
                        edges.push((v, d)); // a back edge
                        low[v as usize] = low[v as usize].min(disc[w as usize]);
                    }
                    continue;
                }
                stack.pop();
                if let Some(&(p, _, _)) = stack.last() {
                    low[p as usize] = low[p as usize].min(low[v as usize]);
                    if low[v as usize] >= disc[p as usize] {
                        // The edges above the tree edge p–v form a block.
                        while let Some((a, e)) = edges.pop() {
                            let b = self.nbr[a as usize][e as usize];
                            block[a as usize][e as usize] = blocks;
                            block[b as usize][(e ^ 1) as usize] = blocks;
                            if a == p && b == v {
                                break;
                            }
                        }
                        blocks += 1;
                    }
                }
            }
        }
        let mut classes = vec![[u8::MAX; 4]; n];
        for c in (0..n).filter(|&c| !blocked[c]) {
            let mut seen: [u32; 4] = [u32::MAX; 4];
            let mut next = 0u8;
            for d in 0..4 {
                let s = self.nbr[c][d];
                if s == NONE || blocked[s as usize] {
                    continue;
                }
                let id = block[c][d];
                let k = (0..next as usize).find(|&k| seen[k] == id);
                classes[c][d] = match k {
                    Some(k) => k as u8,
                    None => {
                        seen[next as usize] = id;
                        next += 1;
                        next - 1
                    }
                };
            }
        }
        classes
    }

    /// The side classes by brute force (a search from each neighbour), with
    /// the cells flagged in `blocked` as walls, for checking
    /// [`Board::side_classes_with`] in tests.
    #[cfg(test)]
    pub fn side_classes_by_search(&self, blocked: &[bool]) -> Vec<[u8; 4]> {
        let n = self.n;
        let mut classes = vec![[u8::MAX; 4]; n];
        let mut seen = vec![u32::MAX; n];
        let mut queue: Vec<u16> = Vec::new();
        let mut mark = 0u32;
        let open = |x: u16| x != NONE && !blocked[x as usize];
        for c in (0..n).filter(|&c| !blocked[c]) {
            let nb = self.nbr[c];
            let mut next = 0u8;
            for d in 0..4 {
                let s = nb[d];
                if !open(s) || classes[c][d] != u8::MAX {
                    continue;
                }
                classes[c][d] = next;
                let want: usize = (d + 1..4)
                    .filter(|&e| open(nb[e]) && classes[c][e] == u8::MAX)
                    .count();
                if want > 0 {
                    mark += 1;
                    seen[c] = mark; // the box
                    seen[s as usize] = mark;
                    queue.clear();
                    queue.push(s);
                    let mut found = 0;
                    let mut head = 0;
                    'bfs: while head < queue.len() {
                        let x = queue[head];
                        head += 1;
                        for &y in &self.nbr[x as usize] {
                            if !open(y) || seen[y as usize] == mark {
                                continue;
                            }
                            seen[y as usize] = mark;
                            for e in d + 1..4 {
                                if nb[e] == y && classes[c][e] == u8::MAX {
                                    classes[c][e] = next;
                                    found += 1;
                                }
                            }
                            if found == want {
                                break 'bfs;
                            }
                            queue.push(y);
                        }
                    }
                }
                next += 1;
            }
        }
        classes
    }
}

/// Distances for one box alone on the board, from every (cell, player side)
/// to the nearest of a set of targets, counted in pushes.
///
/// `to_targets` (forward search) counts the pushes that bring a box from a
/// cell to each goal; `from_sources` (backward search) counts the pushes that
/// bring a box from each start cell to a cell, which are the pulls that bring
/// it back. The player's side matters: a box in a corridor with the player on
/// its left can only go right. Sides whose neighbours are connected around the
/// box share one value (the player walks around).
#[derive(Clone, Debug)]
pub(crate) struct DistTable {
    /// Number of targets.
    pub nt: usize,
    /// `side[(c * 4 + d) * nt + t]`: distance with the box on `c` and the
    /// player on side `d`'s component. [`INF`] when impossible.
    pub side: Vec<u16>,
    /// `min[c * nt + t]`: the minimum over the sides.
    pub min: Vec<u16>,
    /// `dead[c]`: no target can be reached from `c` (a dead square).
    pub dead: Vec<bool>,
    /// `same[c][d]`: the first side of `c` whose distances are side `d`'s
    /// (sides connected around the box, and sides that happen to give the
    /// same distances): a matching row keyed by it changes only when its
    /// distances do.
    pub same: Vec<[u8; 4]>,
}

impl DistTable {
    /// Pushes from each (cell, side) to each goal in `targets`: a breadth-
    /// first search of *pulls* from the targets.
    pub fn to_targets(board: &Board, targets: &[u16]) -> DistTable {
        Self::build(board, targets, true)
    }

    /// Pushes from each source in `sources` to each (cell, side): a breadth-
    /// first search of pushes from the sources.
    pub fn from_sources(board: &Board, sources: &[u16]) -> DistTable {
        Self::build(board, sources, false)
    }

    fn build(board: &Board, targets: &[u16], pulls: bool) -> DistTable {
        let n = board.n;
        let nt = targets.len();
        let mut side = vec![INF; n * 4 * nt];
        let mut one = vec![INF; n * 4];
        let mut queue: Vec<(u16, u8)> = Vec::new();
        for (t, &g) in targets.iter().enumerate() {
            one.fill(INF);
            queue.clear();
            let set = |one: &mut Vec<u16>, queue: &mut Vec<(u16, u8)>, c: u16, d: usize, v: u16| {
                let cls = board.side_class[c as usize][d];
                for e in 0..4 {
                    if board.side_class[c as usize][e] == cls && one[c as usize * 4 + e] == INF {
                        one[c as usize * 4 + e] = v;
                        queue.push((c, e as u8));
                    }
                }
            };
            for d in 0..4 {
                if board.nbr[g as usize][d] != NONE {
                    set(&mut one, &mut queue, g, d, 0);
                }
            }
            let mut head = 0;
            while head < queue.len() {
                let (c, d) = queue[head];
                head += 1;
                let (c, d) = (c as usize, d as usize);
                let v = one[c * 4 + d];
                if pulls {
                    // Player on side d at p = c + d pulls the box to p and
                    // steps to p + d: in forward terms, a box on p with the
                    // player at p + d pushed towards c.
                    let p = board.nbr[c][d];
                    if p == NONE || board.nbr[p as usize][d] == NONE {
                        continue;
                    }
                    if one[p as usize * 4 + d] == INF {
                        set(&mut one, &mut queue, p, d, v + 1);
                    }
                } else {
                    // Player on side d pushes the box the other way, to
                    // q = c - d, and ends on c: side d of q.
                    if board.nbr[c][d] == NONE {
                        continue;
                    }
                    let q = board.nbr[c][d ^ 1];
                    if q == NONE {
                        continue;
                    }
                    if one[q as usize * 4 + d] == INF {
                        set(&mut one, &mut queue, q, d, v + 1);
                    }
                }
            }
            for (i, &v) in one.iter().enumerate() {
                side[i * nt + t] = v;
            }
        }
        let mut min = vec![INF; n * nt];
        let mut dead = vec![true; n];
        for c in 0..n {
            for t in 0..nt {
                let m = (0..4)
                    .map(|d| side[(c * 4 + d) * nt + t])
                    .min()
                    .unwrap_or(INF);
                min[c * nt + t] = m;
                if m != INF {
                    dead[c] = false;
                }
            }
        }
        // A target itself is never dead, even on a board where nothing else
        // can move (e.g. one box already on its goal in a closet).
        for &g in targets {
            dead[g as usize] = false;
            for t in 0..nt {
                if targets[t] == g {
                    min[g as usize * nt + t] = 0;
                    for d in 0..4 {
                        side[(g as usize * 4 + d) * nt + t] = 0;
                    }
                }
            }
        }
        let same = (0..n)
            .map(|c| {
                let row = |d: usize| &side[(c * 4 + d) * nt..(c * 4 + d + 1) * nt];
                std::array::from_fn(|d| (0..d).find(|&e| row(e) == row(d)).unwrap_or(d) as u8)
            })
            .collect();
        DistTable {
            nt,
            side,
            min,
            dead,
            same,
        }
    }

    /// The distance row of a box on `c` whose player side is `d` (or any
    /// side, the minimum, when `d` is `None`).
    #[inline]
    pub fn row(&self, c: u16, d: Option<usize>) -> &[u16] {
        let nt = self.nt;
        match d {
            Some(d) => {
                let i = (c as usize * 4 + d) * nt;
                &self.side[i..i + nt]
            }
            None => {
                let i = c as usize * nt;
                &self.min[i..i + nt]
            }
        }
    }
}
