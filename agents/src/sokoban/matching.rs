//! Minimum-cost perfect matching of boxes to targets (the solver's lower
//! bound), solved by the Hungarian algorithm with potentials (the
//! shortest-augmenting-path form: one row added at a time in O(n²)), and
//! repaired incrementally: when a push changes the cost rows of a few
//! boxes, only those rows are taken out of the parent's optimal matching
//! and added back, one augmenting path each, instead of solving the whole
//! O(n³) problem again. The potentials of the other rows stay feasible and
//! tight, so the result is the exact optimum of the new matrix.
//!
//! Costs are `i64`; an impossible pair costs [`BIG`], larger than any sum
//! of real distances, so a total of at least `BIG` means "no matching".

/// The cost standing for "impossible" (larger than any sum of real
/// distances).
pub(crate) const BIG: i64 = 1 << 40;

/// An n×n assignment problem with its optimal solution and dual potentials.
#[derive(Clone, Debug, Default)]
pub(crate) struct Matching {
    n: usize,
    /// Row-major costs.
    cost: Vec<i64>,
    /// Row potentials.
    u: Vec<i64>,
    /// Column potentials, index 0 is the virtual column of the algorithm.
    v: Vec<i64>,
    /// `col_row[j]` (1-based column): the row matched to column `j`, or
    /// `usize::MAX`.
    col_row: Vec<usize>,
    /// `row_col[i]`: the 1-based column matched to row `i`, or 0.
    row_col: Vec<usize>,
    minv: Vec<i64>,
    way: Vec<usize>,
    /// The columns not reached yet by the current augmenting path search.
    free: Vec<usize>,
    /// The columns reached by the current augmenting path search, each
    /// with the sum of the deltas when it was reached.
    reached: Vec<(usize, i64)>,
    /// The total of the last [`Matching::solve`] or [`Matching::repair`]
    /// (read once per child by [`Matching::bound_with_row`]).
    opt: i64,
}

const FREE: usize = usize::MAX;
/// A column's `minv` before the augmenting path search reaches it: far
/// above any cost, and far from overflow when the deltas are added.
const UNSEEN: i64 = i64::MAX / 4;

impl Matching {
    /// An empty `n`×`n` problem (all costs 0, nothing matched).
    pub fn new(n: usize) -> Matching {
        Matching {
            n,
            cost: vec![0; n * n],
            u: vec![0; n],
            v: vec![0; n + 1],
            col_row: vec![FREE; n + 1],
            row_col: vec![0; n],
            minv: vec![0; n + 1],
            way: vec![0; n + 1],
            free: Vec::with_capacity(n),
            reached: Vec::with_capacity(n + 1),
            opt: 0,
        }
    }

    /// The cost of `row` for column `col`.
    pub fn cost(&self, row: usize, col: usize) -> i64 {
        self.cost[row * self.n + col]
    }

    /// The cost row of `row`, to be filled (then [`Matching::solve`] or
    /// [`Matching::repair`]).
    pub fn row_mut(&mut self, row: usize) -> &mut [i64] {
        &mut self.cost[row * self.n..(row + 1) * self.n]
    }

    /// Solve from scratch; the optimal total cost.
    pub fn solve(&mut self) -> i64 {
        self.u.iter_mut().for_each(|x| *x = 0);
        self.v.iter_mut().for_each(|x| *x = 0);
        self.col_row.iter_mut().for_each(|x| *x = FREE);
        self.row_col.iter_mut().for_each(|x| *x = 0);
        for i in 0..self.n {
            self.add_row(i);
        }
        self.opt = self.total();
        self.opt
    }

    /// The rows in `rows` got new costs: take them out of the current
    /// optimal matching and add them back. The result is the optimal total
    /// cost of the new matrix, provided the matching was optimal for the old
    /// one (the other rows' potentials stay feasible and tight).
    pub fn repair(&mut self, rows: &[usize]) -> i64 {
        for &i in rows {
            let j = self.row_col[i];
            if j != 0 {
                self.col_row[j] = FREE;
                self.row_col[i] = 0;
            }
        }
        for &i in rows {
            if self.row_col[i] == 0 {
                self.add_row(i);
            }
        }
        self.opt = self.total();
        self.opt
    }

    /// Copy another problem's matrix, matching and potentials (same size).
    pub fn copy_from(&mut self, other: &Matching) {
        self.n = other.n;
        self.cost.clone_from(&other.cost);
        self.u.clone_from(&other.u);
        self.v.clone_from(&other.v);
        self.col_row.clone_from(&other.col_row);
        self.row_col.clone_from(&other.row_col);
        self.opt = other.opt;
        self.minv.resize(other.n + 1, 0);
        self.way.resize(other.n + 1, 0);
    }

    /// A lower bound of the optimum once row `i` gets the costs `row`
    /// (`None`: every entry impossible, so no matching exists), in O(n)
    /// from the optimal matching's potentials: the other rows' and the
    /// columns' stay feasible, and row `i`'s becomes its least reduced
    /// cost, so their sum bounds the new optimum from below (weak
    /// duality). Exact when row `i` keeps its column. The optimum is the
    /// last [`Matching::solve`] or [`Matching::repair`]'s: no row may have
    /// been changed since.
    pub fn bound_with_row(&self, i: usize, row: impl Iterator<Item = Option<i64>>) -> Option<i64> {
        debug_assert_eq!(self.opt, self.total(), "a row changed since the last solve");
        let ui = row
            .zip(&self.v[1..])
            .filter_map(|(c, &vj)| c.map(|c| c - vj))
            .min()?;
        Some(self.opt - self.u[i] + ui)
    }

    /// The total cost of the current (complete) matching.
    pub fn total(&self) -> i64 {
        let n = self.n;
        (0..n)
            .map(|i| self.cost[i * n + self.row_col[i] - 1])
            .fold(0i64, |a, c| a.saturating_add(c))
    }

    /// Add free row `i0` to the matching by one shortest augmenting path
    /// over reduced costs, updating the potentials (the row's own potential
    /// may start anywhere: the first step makes it feasible).
    ///
    /// The potentials are updated once, at the end: `minv` holds each
    /// column's least reduced cost plus the sum of the steps' deltas so
    /// far (which then needs no update per step), and each column reached
    /// records that sum, so that its potential (and its row's) moves by
    /// the deltas of the steps after it, as the textbook's update loop
    /// would move them step by step.
    fn add_row(&mut self, i0: usize) {
        // The tables borrowed once, as slices: the compiler then keeps
        // their addresses in registers across the stores of the inner
        // loop, which it cannot do through `self`.
        let Matching {
            n,
            cost,
            u,
            v,
            col_row,
            row_col,
            minv,
            way,
            free,
            reached,
            ..
        } = self;
        let n = *n;
        let (v, col_row, minv, way) = (
            &mut v[..=n],
            &mut col_row[..=n],
            &mut minv[..=n],
            &mut way[..=n],
        );
        // Column 0 is virtual and holds the new row.
        col_row[0] = i0;
        let mut j0 = 0usize;
        minv.iter_mut().for_each(|x| *x = UNSEEN);
        free.clear();
        free.extend(1..=n);
        reached.clear();
        // The sum of the deltas so far.
        let mut sum = 0i64;
        loop {
            reached.push((j0, sum));
            // The row of a column just reached has not moved yet.
            let i = col_row[j0];
            let ui = u[i];
            let row = &cost[i * n..(i + 1) * n];
            let mut least = i64::MAX;
            let mut k1 = 0;
            for (k, &j) in free.iter().enumerate() {
                let cur = row[j - 1] - ui - v[j] + sum;
                let mut m = minv[j];
                if cur < m {
                    m = cur;
                    minv[j] = cur;
                    way[j] = j0;
                }
                if m < least {
                    least = m;
                    k1 = k;
                }
            }
            // This step's delta is `least - sum`.
            sum = least;
            j0 = free.swap_remove(k1);
            if col_row[j0] == FREE {
                break;
            }
        }
        for &(j, at) in reached.iter() {
            let r = col_row[j];
            u[r] += sum - at;
            v[j] -= sum - at;
        }
        // Flip the path.
        loop {
            let j1 = way[j0];
            let r = col_row[j1];
            col_row[j0] = r;
            row_col[r] = j0;
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
        col_row[0] = FREE;
    }
}

/// The key of a matching row: a box's cell and the side the player sees it
/// from (4: none), which together fix its cost row.
pub(crate) type RowKey = (u16, u8);

/// An optimal [`Matching`] whose rows are identified by [`RowKey`]s, kept
/// from one expanded node to the next: the next node's matching is repaired
/// from it (the rows of boxes that moved or are seen from another side)
/// instead of solved from scratch. Consecutive expansions of a search
/// mostly differ by a few boxes.
pub(crate) struct KeyedMatching {
    /// The solved matching, rows in slot order.
    pub mat: Matching,
    keys: Vec<RowKey>,
    valid: bool,
    /// Scratch by cell: the slot of the key with that cell, or `u32::MAX`.
    slot_at: Vec<u32>,
    /// For each box of the last [`KeyedMatching::sync`], in its order: its slot.
    pub slot_of: Vec<usize>,
    taken: Vec<bool>,
    changed: Vec<usize>,
    pending: Vec<usize>,
}

impl KeyedMatching {
    /// For `nb` boxes on a board of `cells` floor cells.
    pub fn new(nb: usize, cells: usize) -> KeyedMatching {
        KeyedMatching {
            mat: Matching::new(nb),
            keys: vec![(u16::MAX, 0); nb],
            valid: false,
            slot_at: vec![u32::MAX; cells],
            slot_of: vec![0; nb],
            taken: vec![false; nb],
            changed: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// The key of row `slot`.
    pub fn key(&self, slot: usize) -> RowKey {
        self.keys[slot]
    }

    /// Make [`KeyedMatching::mat`] the optimal matching of a state whose
    /// boxes have the keys `keys` (in any order; [`KeyedMatching::slot_of`]
    /// then maps them to rows). `fill(key, row)` writes the cost row of a
    /// key. Rows whose key is unchanged are kept; the others are filled and
    /// repaired (solved from scratch the first time).
    pub fn sync(&mut self, keys: &[RowKey], mut fill: impl FnMut(RowKey, &mut [i64])) {
        let nb = keys.len();
        self.changed.clear();
        self.pending.clear();
        self.taken.iter_mut().for_each(|t| *t = false);
        if self.valid {
            for (s, &(c, _)) in self.keys.iter().enumerate() {
                self.slot_at[c as usize] = s as u32;
            }
            for (i, &k) in keys.iter().enumerate() {
                match self.slot_at[k.0 as usize] {
                    u32::MAX => self.pending.push(i),
                    s => {
                        let s = s as usize;
                        self.taken[s] = true;
                        self.slot_of[i] = s;
                        if self.keys[s] != k {
                            self.keys[s] = k;
                            self.changed.push(s);
                        }
                    }
                }
            }
            for &(c, _) in &self.keys {
                self.slot_at[c as usize] = u32::MAX;
            }
        } else {
            self.pending.extend(0..nb);
        }
        let mut free = (0..nb).filter(|&s| !self.taken[s]);
        for &i in &self.pending {
            let s = free.next().expect("as many slots as boxes");
            self.slot_of[i] = s;
            self.keys[s] = keys[i];
            self.changed.push(s);
        }
        if !self.valid {
            for s in 0..nb {
                fill(self.keys[s], self.mat.row_mut(s));
            }
            self.mat.solve();
        } else if !self.changed.is_empty() {
            for &s in &self.changed {
                fill(self.keys[s], self.mat.row_mut(s));
            }
            self.mat.repair(&self.changed);
        }
        self.valid = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathfinding::kuhn_munkres::{kuhn_munkres_min, Weights};
    use rand::{Rng, SeedableRng};

    struct M(usize, Vec<i64>);
    impl Weights<i64> for M {
        fn rows(&self) -> usize {
            self.0
        }
        fn columns(&self) -> usize {
            self.0
        }
        fn at(&self, r: usize, c: usize) -> i64 {
            self.1[r * self.0 + c]
        }
        fn neg(&self) -> Self {
            M(self.0, self.1.iter().map(|x| -x).collect())
        }
    }

    fn random_row(rng: &mut impl Rng, n: usize) -> Vec<i64> {
        (0..n)
            .map(|_| {
                if rng.gen_bool(0.3) {
                    BIG
                } else {
                    rng.gen_range(0..60)
                }
            })
            .collect()
    }

    fn reference(n: usize, cost: &[i64]) -> i64 {
        kuhn_munkres_min(&M(n, cost.to_vec())).0
    }

    #[test]
    fn full_solve_matches_kuhn_munkres() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let n = rng.gen_range(1..12);
            let mut m = Matching::new(n);
            let mut all = Vec::new();
            for i in 0..n {
                let r = random_row(&mut rng, n);
                m.row_mut(i).copy_from_slice(&r);
                all.extend(r);
            }
            assert_eq!(m.solve(), reference(n, &all));
        }
    }

    #[test]
    fn repairs_after_changed_rows_are_optimal() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for _ in 0..300 {
            let n = rng.gen_range(1..14);
            let mut m = Matching::new(n);
            for i in 0..n {
                let r = random_row(&mut rng, n);
                m.row_mut(i).copy_from_slice(&r);
            }
            m.solve();
            // A chain of repairs, as along a search path.
            for _ in 0..6 {
                let k = rng.gen_range(1..=n.min(3));
                let mut rows: Vec<usize> = (0..k).map(|_| rng.gen_range(0..n)).collect();
                rows.sort_unstable();
                rows.dedup();
                for &i in &rows {
                    let r = random_row(&mut rng, n);
                    m.row_mut(i).copy_from_slice(&r);
                }
                let mut fork = Matching::new(n);
                fork.copy_from(&m);
                let got = fork.repair(&rows);
                let all: Vec<i64> = (0..n).flat_map(|i| m.row_mut(i).to_vec()).collect();
                assert_eq!(got, reference(n, &all));
                m = fork;
            }
        }
    }

    #[test]
    fn the_potentials_bound_the_optimum_after_a_row_changes() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        let (mut compared, mut exact) = (0, 0);
        for _ in 0..400 {
            let n = rng.gen_range(1..12);
            let mut m = Matching::new(n);
            for i in 0..n {
                let r = random_row(&mut rng, n);
                m.row_mut(i).copy_from_slice(&r);
            }
            let total = m.solve();
            if total >= BIG {
                continue;
            }
            let i = rng.gen_range(0..n);
            let finite = |r: &[i64]| {
                r.iter()
                    .map(|&c| (c < BIG).then_some(c))
                    .collect::<Vec<_>>()
            };
            // The same row again: the bound is the optimum itself.
            let old = m.row_mut(i).to_vec();
            assert_eq!(m.bound_with_row(i, finite(&old).into_iter()), Some(total));
            // A new row: never above the new optimum; none when the row
            // has no possible entry.
            let new = random_row(&mut rng, n);
            let bound = m.bound_with_row(i, finite(&new).into_iter());
            let mut all: Vec<i64> = (0..n).flat_map(|k| m.row_mut(k).to_vec()).collect();
            all[i * n..(i + 1) * n].copy_from_slice(&new);
            let optimum = reference(n, &all);
            match bound {
                None => assert!(new.iter().all(|&c| c >= BIG)),
                Some(b) if optimum < BIG => {
                    assert!(b <= optimum, "{b} above the optimum {optimum}");
                    compared += 1;
                    exact += usize::from(b == optimum);
                }
                Some(_) => {}
            }
        }
        eprintln!("{exact} of {compared} bounds exact");
        assert!(compared >= 100, "{compared} bounds compared");
        assert!(
            exact * 4 >= compared,
            "exact only {exact} times of {compared}"
        );
    }

    #[test]
    fn keyed_matching_follows_a_sequence_of_states() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let cells = 30usize;
        // A fixed random cost row per (cell, side).
        let table: Vec<Vec<i64>> = (0..cells * 5).map(|_| random_row(&mut rng, 6)).collect();
        let row_of = |k: RowKey| &table[k.0 as usize * 5 + k.1 as usize];
        let mut km = KeyedMatching::new(6, cells);
        let mut keys: Vec<RowKey> = (0..6).map(|i| (i as u16 * 4, 0)).collect();
        for _ in 0..400 {
            // Move a box to a free cell, change some sides, shuffle the order.
            let i = rng.gen_range(0..6);
            let c = loop {
                let c = rng.gen_range(0..cells as u16);
                if keys.iter().all(|k| k.0 != c) {
                    break c;
                }
            };
            keys[i] = (c, rng.gen_range(0..5));
            if rng.gen_bool(0.3) {
                let j = rng.gen_range(0..6);
                keys[j].1 = rng.gen_range(0..5);
            }
            if rng.gen_bool(0.3) {
                keys.swap(rng.gen_range(0..6), rng.gen_range(0..6));
            }
            km.sync(&keys, |k, out| out.copy_from_slice(row_of(k)));
            for (i, &k) in keys.iter().enumerate() {
                assert_eq!(km.key(km.slot_of[i]), k);
            }
            let all: Vec<i64> = keys.iter().flat_map(|&k| row_of(k).clone()).collect();
            assert_eq!(km.mat.total(), reference(6, &all));
        }
    }
}
