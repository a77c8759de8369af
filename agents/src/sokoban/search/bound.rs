//! The lower bound of a [`Searcher`]: a minimum-cost perfect matching of
//! boxes to targets over the one-box push distances, solved from scratch
//! ([`Searcher::heuristic`]) or repaired from the expanded node's matching
//! for each child ([`Searcher::child_heuristic`], see `matching.rs`).

use super::*;

/// The extra cost of an empty goal of an ordered goal area for a box that
/// cannot reach the area's designated goal now (see [`Searcher::heuristic`]).
const REDIRECT_PENALTY: u16 = 50;

/// The optimal matching of the node being expanded, brought up to date
/// lazily (repaired from the last expanded node's) for the first child
/// that needs a bound, so that each child only repairs the rows its move
/// changed.
pub(super) struct ParentMatching {
    /// The matching, by row key.
    pub m: KeyedMatching,
    /// Whether `m` holds the expanded node's matching.
    pub ready: bool,
    /// The row key of each box of the expanded node, in its box order.
    pub rows: Vec<RowKey>,
}

impl ParentMatching {
    /// For `nb` boxes on a board of `cells` floor cells.
    pub fn new(nb: usize, cells: usize) -> ParentMatching {
        ParentMatching {
            m: KeyedMatching::new(nb, cells),
            ready: false,
            rows: Vec::with_capacity(nb),
        }
    }
}

impl Searcher {
    /// The lower bound of `boxes` (with `occ` set and the player's region
    /// marked): a minimum-cost perfect matching of boxes to targets over the
    /// one-box push distances, each box seen from the player's side when the
    /// player stands next to it; [`DEAD_H`] when no matching exists.
    pub(super) fn heuristic(&mut self, boxes: &[u16]) -> u32 {
        self.heuristic_seen(boxes, true)
    }

    /// [`Searcher::heuristic`], with each box seen from no side when not
    /// `sides` (its least distance over all sides: a lower bound of it).
    fn heuristic_seen(&mut self, boxes: &[u16], sides: bool) -> u32 {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let dist = Self::dist_of(&sh, self.way);
        let nb = self.nb;
        if nb == 0 {
            return 0;
        }
        // With goal macros, a box can only enter an ordered goal area at its
        // designated goal: empty goals of such an area are priced as the
        // distance to the designated one (plus a penalty when that is out
        // of reach), which steers boxes to where they can be packed next.
        let mut redirect = std::mem::take(&mut self.redirect);
        redirect.clear();
        if self.use_packing {
            let pk = &sh.packing;
            for (j, &g) in b.goals.iter().enumerate() {
                let k = pk.area[g as usize];
                let col = if k != NONE && self.sp.occ[g as usize] == 0 {
                    pk.designated(k, &self.sp.occ)
                        .and_then(|des| b.goals.iter().position(|&x| x == des))
                        .unwrap_or(j)
                } else {
                    j
                };
                redirect.push(col);
            }
        }
        for (i, &c) in boxes.iter().enumerate() {
            let side = if sides { self.side_of(c) } else { None };
            if !fill_costs(self.mat.row_mut(i), dist.row(c, side), &redirect) {
                self.redirect = redirect;
                return DEAD_H;
            }
        }
        self.redirect = redirect;
        for j in 0..nb {
            if (0..nb).all(|i| self.mat.cost(i, j) == BIG) {
                return DEAD_H;
            }
        }
        let cost = self.mat.solve();
        if cost >= BIG {
            DEAD_H
        } else {
            cost as u32
        }
    }

    /// The side (up, down, left, right) from which the player sees the box
    /// on `c` (the reach marks are the state's), if any. Of the sides with
    /// the same distances (those the player can walk between around the
    /// box, and others that happen to match) the first stands for all
    /// ([`DistTable::same`]): a matching row changes only when its
    /// distances do. Always `None` (the least
    /// distance over all sides) when the search sees no sides
    /// ([`Searcher::sees_sides`]).
    pub(super) fn side_of(&self, c: u16) -> Option<usize> {
        if !self.sees_sides() {
            return None;
        }
        let nbr = self.sh.board.nbr[c as usize];
        let d = (0..4).find(|&d| self.sp.reached(nbr[d]))?;
        Some(usize::from(
            Self::dist_of(&self.sh, self.way).same[c as usize][d],
        ))
    }

    /// Whether the bound sees each box from the player's side. Not
    /// backward with box moves: a move leaves the player wherever it
    /// ended, so most boxes' sides change from parent to child, and every
    /// child repaired most of its matching; seen from no side, a child's
    /// repair is its moved box's row.
    pub(super) fn sees_sides(&self) -> bool {
        !(self.way == Way::Backward && self.cfg.box_moves && self.cfg.cost == Cost::Pushes)
    }

    /// [`Searcher::child_heuristic`] of the child that moves box `cur[bi]`
    /// from `from` to `to` (`cur` is restored).
    pub(super) fn bound_of_child(&mut self, cur: &mut [u16], bi: u16, from: u16, to: u16) -> u32 {
        cur[bi as usize] = to;
        let h = self.child_heuristic(cur);
        cur[bi as usize] = from;
        h
    }

    /// A lower bound of the bound of the child that moves box `cur[bi]`
    /// to `to`, for a deferred child ([`Config::defer`]), whose bound is
    /// made when it is popped: the parent's matching with each box seen
    /// from no side ([`Searcher::est`]; [`Searcher::parent`] in a search
    /// that sees no sides), whose potentials bound the
    /// child's from below once the moved box's row changes
    /// ([`Matching::bound_with_row`]); [`DEAD_H`] when the moved box can
    /// reach no goal. At least 1: a bound of 0 is a solved position (see
    /// [`Searcher::is_goal`]), and the child is not one.
    pub(super) fn estimate_of_child(&mut self, cur: &[u16], bi: u16, to: u16) -> u32 {
        // A search that sees no sides has that matching in `parent`.
        let sides = self.sees_sides();
        let rows = if sides {
            &self.est.rows
        } else {
            &self.parent.rows
        };
        if self.use_packing || self.nb == 0 || rows.len() != self.nb {
            let mut boxes = cur.to_vec();
            boxes[bi as usize] = to;
            return self.heuristic_seen(&boxes, false);
        }
        let sh = Arc::clone(&self.sh);
        let dist = Self::dist_of(&sh, self.way);
        let pm = if sides {
            &mut self.est
        } else {
            &mut self.parent
        };
        if !pm.ready {
            pm.m.sync(&pm.rows, |(c, sd), out| {
                fill_costs(out, dist.row(c, key_side(sd)), &[]);
            });
            pm.ready = true;
        }
        let row = dist
            .row(to, None)
            .iter()
            .map(|&d| (d != INF).then_some(i64::from(d)));
        let slot = pm.m.slot_of[bi as usize];
        match pm.m.mat.bound_with_row(slot, row) {
            None => DEAD_H,
            Some(h) => h.clamp(1, i64::from(u32::MAX - 1)) as u32,
        }
    }

    /// The lower bound of a child of the node being expanded: `boxes` are
    /// the node's boxes in its order with the pushed one moved (`occ` and
    /// the reach marks are the child's). Equal to [`Searcher::heuristic`],
    /// but the rows that did not change keep the node's optimal matching
    /// (see `matching.rs`), so only the changed rows are matched again.
    pub(super) fn child_heuristic(&mut self, boxes: &[u16]) -> u32 {
        let nb = self.nb;
        if self.use_packing || nb == 0 || self.parent.rows.len() != nb {
            return self.heuristic(boxes);
        }
        let sh = Arc::clone(&self.sh);
        let dist = Self::dist_of(&sh, self.way);
        let pm = &mut self.parent;
        if !pm.ready {
            pm.m.sync(&pm.rows, |(c, sd), out| {
                fill_costs(out, dist.row(c, key_side(sd)), &[]);
            });
            pm.ready = true;
        }
        let mut changed = std::mem::take(&mut self.changed);
        let mut rows = std::mem::take(&mut self.changed_rows);
        changed.clear();
        rows.clear();
        let pm = &self.parent;
        for (i, &c) in boxes.iter().enumerate() {
            let side = self.side_of(c);
            let slot = pm.m.slot_of[i];
            if pm.m.key(slot) != (c, side_key(side)) {
                changed.push(slot);
                rows.push((slot, c, side));
            }
        }
        // However many rows changed: repairing them all costs no more
        // than a fresh solve (each row is added back once either way), and
        // the rows kept need no work.
        self.mat.copy_from(&pm.m.mat);
        let mut dead = false;
        for &(slot, c, side) in &rows {
            dead |= !fill_costs(self.mat.row_mut(slot), dist.row(c, side), &[]);
        }
        let cost = if dead { BIG } else { self.mat.repair(&changed) };
        self.changed = changed;
        self.changed_rows = rows;
        let h = if cost >= BIG { DEAD_H } else { cost as u32 };
        // The solver's unit tests check every repaired bound against a
        // fresh one.
        #[cfg(test)]
        assert_eq!(h, self.heuristic(boxes), "repaired bound of {boxes:?}");
        h
    }

    /// The bound of node `boxes` (sorted, the scratch space holding them
    /// with the player's reach), popped to be expanded next: the expanded
    /// node's matching ([`Searcher::parent`]) is brought up to date for
    /// it, so that its expansion finds it ready. Equal to
    /// [`Searcher::heuristic`].
    pub(super) fn bound_of_popped(&mut self, boxes: &[u16]) -> u32 {
        if self.use_packing || self.nb == 0 {
            return self.heuristic(boxes);
        }
        let mut keys = std::mem::take(&mut self.parent.rows);
        keys.clear();
        keys.extend(boxes.iter().map(|&c| (c, side_key(self.side_of(c)))));
        let sh = Arc::clone(&self.sh);
        let dist = Self::dist_of(&sh, self.way);
        self.parent.m.sync(&keys, |(c, sd), out| {
            fill_costs(out, dist.row(c, key_side(sd)), &[]);
        });
        self.parent.rows = keys;
        self.parent.ready = true;
        let cost = self.parent.m.mat.total();
        let h = if cost >= BIG { DEAD_H } else { cost as u32 };
        #[cfg(test)]
        assert_eq!(h, self.heuristic(boxes), "bound of a popped node {boxes:?}");
        h
    }
}

/// The side part of a [`RowKey`]: the direction, or 4 for none.
pub(super) fn side_key(side: Option<usize>) -> u8 {
    side.map_or(4, |d| d as u8)
}

/// The side a [`RowKey`] stands for (the inverse of [`side_key`]).
fn key_side(sd: u8) -> Option<usize> {
    (sd < 4).then_some(sd as usize)
}

/// Fill the cost row `out` from the distances `row` (goal areas redirected
/// by `redirect`, when not empty: see [`Searcher::heuristic`]); `false` when
/// every entry is impossible.
pub(super) fn fill_costs(out: &mut [i64], row: &[u16], redirect: &[usize]) -> bool {
    let mut any = false;
    for (j, &v) in row.iter().enumerate() {
        let v = match redirect.get(j) {
            Some(&col) if col != j => match row[col] {
                INF if v == INF => INF,
                INF => v.saturating_add(REDIRECT_PENALTY),
                w => w,
            },
            _ => v,
        };
        out[j] = if v == INF {
            BIG
        } else {
            any = true;
            v as i64
        };
    }
    any
}
