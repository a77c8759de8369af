//! The goals' forced fill order: which goals must be filled before which,
//! because a box already on one would shut the other off.
//!
//! Goal `g` comes *before* goal `h` when `h` lies in `g`'s entrance (at
//! most two steps' walk away, [`in_entrance`]) and, with a box on `h` and
//! no other box, a lone box can no longer be pushed onto `g` from any cell
//! where a box starts (off the goals), though it can with `h` free; and
//! then transitively. On Microban 153, a one-wide column of goals closed at its
//! top, each goal comes before the one below it: once a lower goal holds a
//! box, no box gets past it, and no player gets below a box to push it
//! up.
//!
//! Only goals in each other's entrance are tested: the box that fills `g`
//! arrives from a neighbour, pushed by a player one cell farther, and a
//! box farther away that cuts `g` off mostly does so through goals in
//! between (the column above). Testing every pair cost up to 0.9 s on a
//! level of Sasquatch VII (46); with the entrance, 0.1 s.
//!
//! A packing plan (`plan.rs`) that parks no box fills the goals in one
//! order among many, most of them as good as the plan's. Where the goals
//! are *in the order* (some goal comes before or after them), the plan's
//! turn is forced, and FESS's opener advisor clears the way to them
//! (`fess::Opener`). The order never prunes: a box may leave a goal again.

use super::board::{Board, NONE};
use super::packing::can_leave;
use super::plan::sources;
use super::space::Space;

/// The forced fill order of a level's goals (see the module
/// documentation).
#[derive(Clone, Debug)]
pub(crate) struct GoalOrder {
    /// The goal index of each cell, [`NONE`] off the goals.
    goal_of: Vec<u16>,
    /// For each goal, the goals that come before it, transitively, a bit
    /// each (by index in `Board::goals`).
    before: Vec<u128>,
}

impl GoalOrder {
    /// The order of `b`'s goals, or `None` when it says nothing (no goal
    /// comes before another), when it has a cycle (a goal before itself,
    /// which a level with boxes that start on goals can show), or when
    /// the level has more than 128 goals.
    pub fn new(b: &Board) -> Option<GoalOrder> {
        let goals = &b.goals;
        if goals.len() > 128 {
            return None;
        }
        let source = sources(b);
        let mut sp = Space::new(b.n);
        // Whether a lone box can be pushed onto `g`, with a box on `h`.
        let mut fed = |g: u16, h: Option<u16>| {
            let cells: Vec<u16> = std::iter::once(g).chain(h).collect();
            sp.set(&cells);
            let ok = can_leave(b, &mut sp, g, |x| source[x as usize]);
            sp.clear(&cells);
            ok
        };
        let mut before = vec![0u128; goals.len()];
        for (i, &g) in goals.iter().enumerate() {
            let cut: Vec<usize> = (0..goals.len())
                .filter(|&j| j != i && in_entrance(b, g, goals[j]) && !fed(g, Some(goals[j])))
                .collect();
            // A goal no lone box reaches at all comes before none.
            if !cut.is_empty() && fed(g, None) {
                for j in cut {
                    before[j] |= 1 << i;
                }
            }
        }
        if before.iter().all(|&m| m == 0) {
            return None;
        }
        close(&mut before);
        if (0..goals.len()).any(|j| before[j] >> j & 1 == 1) {
            return None;
        }
        let mut goal_of = vec![NONE; b.n];
        for (i, &g) in goals.iter().enumerate() {
            goal_of[g as usize] = i as u16;
        }
        Some(GoalOrder { goal_of, before })
    }

    /// Whether cell `c` is a goal in the order: some goal comes before it,
    /// or it comes before some goal.
    pub fn in_order(&self, c: u16) -> bool {
        let i = self.goal_of[c as usize];
        i != NONE && (self.before[i as usize] != 0 || self.before.iter().any(|&m| m >> i & 1 == 1))
    }

    /// Whether goal cell `g` comes before goal cell `h`.
    #[cfg(test)]
    pub fn comes_before(&self, g: u16, h: u16) -> bool {
        let (i, j) = (self.goal_of[g as usize], self.goal_of[h as usize]);
        i != NONE && j != NONE && self.before[j as usize] >> i & 1 == 1
    }
}

/// Whether cell `h` is at most two steps' walk from cell `g` (and not
/// `g`): where a box that fills `g` comes from, or its pusher stands.
fn in_entrance(b: &Board, g: u16, h: u16) -> bool {
    h != g
        && b.nbr[g as usize]
            .iter()
            .any(|&y| y != NONE && (y == h || b.nbr[y as usize].contains(&h)))
}

/// The transitive closure of `before` (bit `i` of `before[j]`: `i` comes
/// before `j`).
fn close(before: &mut [u128]) {
    loop {
        let mut changed = false;
        for j in 0..before.len() {
            let mut all = before[j];
            let mut rest = before[j];
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                all |= before[i];
            }
            if all != before[j] {
                before[j] = all;
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::packing::pushable;
    use games::sokoban::{parse_levels, MICROBAN};

    fn microban() -> Vec<Board> {
        parse_levels(MICROBAN)
            .expect("Microban parses")
            .iter()
            .map(|lv| Board::new(lv).expect("a valid level"))
            .collect()
    }

    /// Whether a lone box can be pushed from some start cell off the goals
    /// onto `g`, with a box on `wall` if any: an independent forward search
    /// (pushes, where the order uses pulls).
    fn pushable_onto(b: &Board, g: u16, wall: Option<u16>) -> bool {
        let mut sp = Space::new(b.n);
        if let Some(h) = wall {
            sp.occ[h as usize] = 1;
        }
        let source = sources(b);
        (0..b.n as u16).any(|s| source[s as usize] && pushable(b, &mut sp, s, g))
    }

    #[test]
    fn the_column_of_microban_153_is_filled_from_the_top() {
        let b = &microban()[152];
        let order = GoalOrder::new(b).expect("the column forces an order");
        let at = |r: usize| {
            (0..b.n as u16)
                .find(|&c| b.row_col(c) == (r, 1))
                .expect("floor")
        };
        let col: Vec<u16> = (1..=7).map(at).collect();
        for w in col.windows(2) {
            assert!(order.comes_before(w[0], w[1]), "{:?}", b.row_col(w[0]));
            assert!(!order.comes_before(w[1], w[0]));
        }
        assert!(b.goals.iter().all(|&g| order.in_order(g)));
    }

    #[test]
    fn every_claimed_precedence_is_checked_by_pushes() {
        // On all of Microban: whenever the order says g comes before h
        // directly (a pair, not by transitivity), no lone box is pushed
        // onto g past a box on h, though one is with h free.
        let mut levels = 0;
        let mut pairs = 0;
        for b in microban() {
            let Some(order) = GoalOrder::new(&b) else {
                continue;
            };
            levels += 1;
            for &g in &b.goals {
                for &h in &b.goals {
                    if g == h || !order.comes_before(g, h) {
                        continue;
                    }
                    // Transitive pairs need not hold alone; check the
                    // direct ones, which the pulls claimed.
                    let direct = !b.goals.iter().any(|&m| {
                        m != g && m != h && order.comes_before(g, m) && order.comes_before(m, h)
                    });
                    if direct {
                        pairs += 1;
                        let (rg, rh) = (b.row_col(g), b.row_col(h));
                        assert!(pushable_onto(&b, g, None), "{rg:?} is fed at all");
                        assert!(!pushable_onto(&b, g, Some(h)), "{rg:?} before {rh:?}");
                    }
                }
            }
        }
        assert!(levels >= 20, "{levels} Microban levels have an order");
        assert!(pairs >= 50, "{pairs} direct pairs");
    }
}
