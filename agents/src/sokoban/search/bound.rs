//! The lower bound of a [`Searcher`]: a minimum-cost perfect matching of
//! boxes to targets over the one-box push distances, solved from scratch
//! ([`Searcher::heuristic`]) or repaired from the expanded node's matching
//! for each child ([`Searcher::child_heuristic`], see `matching.rs`).

use super::*;

/// The extra cost of an empty goal of an ordered goal area for a box that
/// cannot reach the area's designated goal now (see [`Searcher::heuristic`]).
const REDIRECT_PENALTY: u16 = 50;

impl Searcher {
    /// The lower bound of `boxes` (with `occ` set and the player's region
    /// marked): a minimum-cost perfect matching of boxes to targets over the
    /// one-box push distances, each box seen from the player's side when the
    /// player stands next to it; [`DEAD_H`] when no matching exists.
    pub(super) fn heuristic(&mut self, boxes: &[u16]) -> u32 {
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
            let side = self.side_of(c);
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

    /// The lower bound of a child of the node being expanded: `boxes` are
    /// the node's boxes in its order with the pushed one moved (`occ` and
    /// the reach marks are the child's). Equal to [`Searcher::heuristic`],
    /// but the rows that did not change keep the node's optimal matching
    /// (see `matching.rs`), so only the changed rows are matched again.
    pub(super) fn child_heuristic(&mut self, boxes: &[u16]) -> u32 {
        let nb = self.nb;
        if self.use_packing || nb == 0 || self.parent_rows.len() != nb {
            return self.heuristic(boxes);
        }
        let sh = Arc::clone(&self.sh);
        let dist = Self::dist_of(&sh, self.way);
        if !self.parent_ready {
            let keys = std::mem::take(&mut self.parent_rows);
            self.parent.sync(&keys, |(c, sd), out| {
                fill_costs(out, dist.row(c, key_side(sd)), &[]);
            });
            self.parent_rows = keys;
            self.parent_ready = true;
        }
        let mut changed = std::mem::take(&mut self.changed);
        let mut rows = std::mem::take(&mut self.changed_rows);
        changed.clear();
        rows.clear();
        for (i, &c) in boxes.iter().enumerate() {
            let side = self.side_of(c);
            let slot = self.parent.slot_of[i];
            if self.parent.key(slot) != (c, side_key(side)) {
                changed.push(slot);
                rows.push((slot, c, side));
            }
        }
        // However many rows changed: repairing them all costs no more
        // than a fresh solve (each row is added back once either way), and
        // the rows kept need no work.
        self.mat.copy_from(&self.parent.mat);
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
