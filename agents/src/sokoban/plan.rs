//! A packing plan after FESS's (Shoham & Schaeffer, IEEE CoG 2020): in
//! which order the goals are filled, and which boxes must first wait on a
//! *parking* cell, computed with the level's own walls and start cells.
//!
//! The plan is found backwards, from the solved position (a box on every
//! goal), by two rules:
//! 1. a box that can be pulled, alone and with the other boxes where they
//!    are, to a cell where some box starts (off the goals) leaves the board;
//! 2. when no box can leave, the box that can be pulled farthest from the
//!    goals (walking distance to the nearest goal) is pulled there and
//!    stays: it is *parked*.
//!
//! Read forwards, each backward event is a *step*: a box arrives on a
//! cell (a goal, or a parking cell) either from where boxes start or from
//! a parking cell, which it leaves. On Sasquatch I level 44, for example,
//! rule 1 alone gets stuck with 15 of the 23 boxes still in; the plan
//! then takes the box of the goal room's top goal, which sits in a
//! one-cell chute, up through the chute and parks it above before the
//! goals below are filled, and brings it back down into the chute after
//! them. A plain fill order cannot say that a box must wait somewhere
//! first.
//!
//! The plan ignores the boxes not yet brought in and where the player can
//! walk, so it guides a search (the feature-space search's packing
//! feature: [`PackingPlan::progress`]); it never prunes one.

use super::bits;
use super::board::{Board, NONE};
use super::packing::{can_leave, BoxMoves};
use super::space::Space;

/// A packing plan: its steps forward, and the cells they mention.
#[derive(Clone, Debug)]
pub(crate) struct PackingPlan {
    /// Each step: the cell a box arrives on, and the parking cell it comes
    /// from ([`NONE`]: from where boxes start).
    pub steps: Vec<(u16, u16)>,
    /// The cells the steps mention, goals and parking cells.
    cells: Vec<u16>,
    /// `occ[k]`: which of `cells` hold boxes after the first `k` steps, a
    /// bit each.
    occ: Vec<u128>,
}

impl PackingPlan {
    /// The plan of `b`, or `None` when the rules get stuck (some box can
    /// neither leave nor be parked farther from the goals), when every box
    /// starts on a goal, or when the plan mentions more than 128 cells.
    pub fn new(b: &Board) -> Option<PackingPlan> {
        let steps = backward_steps(b)?;
        let mut cells: Vec<u16> = Vec::new();
        for &(to, from) in &steps {
            for c in [to, from] {
                if c != NONE && !cells.contains(&c) {
                    cells.push(c);
                }
            }
        }
        if cells.len() > 128 {
            return None;
        }
        let bit = |c: u16| 1u128 << cells.iter().position(|&x| x == c).unwrap_or(0);
        let mut occ = vec![0u128];
        let mut now = 0u128;
        for &(to, from) in &steps {
            if from != NONE {
                now &= !bit(from);
            }
            now |= bit(to);
            occ.push(now);
        }
        Some(PackingPlan { steps, cells, occ })
    }

    /// How many boxes the plan parks (the steps that take a box off a
    /// parking cell).
    pub fn parks(&self) -> usize {
        self.steps.iter().filter(|s| s.1 != NONE).count()
    }

    /// The progress of a position along the plan: the most steps `k` such
    /// that every cell holding a box after the plan's first `k` steps holds
    /// one now (`occ[c] != 0` marks a box on `c`).
    pub fn progress(&self, occ: &[u16]) -> usize {
        let mut now = 0u128;
        for (i, &c) in self.cells.iter().enumerate() {
            if occ[c as usize] != 0 {
                now |= 1 << i;
            }
        }
        (0..self.occ.len())
            .rev()
            .find(|&k| self.occ[k] & !now == 0)
            .unwrap_or(0)
    }
}

impl PackingPlan {
    /// The cells *out of plan* after each number of steps `k` (FESS's
    /// out-of-plan feature), a bit per cell: with the goals that the first
    /// `k` steps fill as walls, the cells that are not dead squares (in
    /// `dead`) from which no box can be pushed onto a goal those steps
    /// have not filled. A box there is stranded if the goals are filled in
    /// the plan's order (it ignores the other boxes and the player's side,
    /// so it guides a search and never prunes one).
    pub fn out_of_plan(&self, b: &Board, dead: &[bool]) -> Vec<Vec<u64>> {
        let mut zones = Vec::with_capacity(self.occ.len());
        for &filled in &self.occ {
            let mut wall = vec![false; b.n];
            for (i, &c) in self.cells.iter().enumerate() {
                if filled >> i & 1 == 1 && b.is_goal[c as usize] {
                    wall[c as usize] = true;
                }
            }
            // Pulls of a lone box from the goals still empty: a box on a
            // cell reached can be pushed back onto one of them.
            let mut source = vec![false; b.n];
            let mut stack: Vec<u16> = Vec::new();
            for &g in &b.goals {
                if !wall[g as usize] {
                    source[g as usize] = true;
                    stack.push(g);
                }
            }
            while let Some(x) = stack.pop() {
                for d in 0..4 {
                    let y = b.nbr[x as usize][d];
                    if y == NONE || wall[y as usize] || source[y as usize] {
                        continue;
                    }
                    let z = b.nbr[y as usize][d];
                    if z != NONE && !wall[z as usize] {
                        source[y as usize] = true;
                        stack.push(y);
                    }
                }
            }
            let mut zone = vec![0u64; bits::words(b.n)];
            for c in 0..b.n {
                if !wall[c] && !dead[c] && !source[c] {
                    bits::set(&mut zone, c);
                }
            }
            zones.push(zone);
        }
        zones
    }
}

/// A level's packing plan with its cells out of plan after each step count
/// ([`PackingPlan::out_of_plan`]): FESS's out-of-plan feature.
#[derive(Clone, Debug)]
pub(crate) struct OutOfPlan {
    plan: PackingPlan,
    zones: Vec<Vec<u64>>,
}

impl OutOfPlan {
    /// The zones of `plan` on `b` (`dead`: the forward dead squares).
    pub fn new(plan: PackingPlan, b: &Board, dead: &[bool]) -> OutOfPlan {
        let zones = plan.out_of_plan(b, dead);
        OutOfPlan { plan, zones }
    }

    /// How many of `boxes` stand on cells out of plan for the position's
    /// own progress along the plan (`occ[c] != 0` marks a box on `c`).
    pub fn count(&self, occ: &[u16], boxes: &[u16]) -> u32 {
        let z = &self.zones[self.plan.progress(occ).min(self.zones.len() - 1)];
        boxes.iter().filter(|&&c| bits::has(z, c as usize)).count() as u32
    }
}

/// For each cell of `b`: whether a box starts there, off the goals (where
/// a box pulled back from the goals has left them for good).
pub(crate) fn sources(b: &Board) -> Vec<bool> {
    let mut source = vec![false; b.n];
    for &c in &b.start_boxes {
        source[c as usize] = !b.is_goal[c as usize];
    }
    source
}

/// The steps of `b`'s plan, forward (see the module documentation).
fn backward_steps(b: &Board) -> Option<Vec<(u16, u16)>> {
    let n = b.n;
    let source = sources(b);
    if !source.contains(&true) {
        return None;
    }
    let far = b.walk_distances(&b.goals);
    let mut sp = Space::new(n);
    let no_dead = vec![false; n];
    let mut boxes: Vec<u16> = b.goals.clone();
    sp.set(&boxes);
    // The events backwards: (the cell a box left, where it was parked or
    // NONE when it left the board).
    let mut events: Vec<(u16, u16)> = Vec::new();
    while !boxes.is_empty() {
        let leaves = boxes
            .iter()
            .position(|&c| can_leave(b, &mut sp, c, |x| source[x as usize]));
        if let Some(i) = leaves {
            let c = boxes.swap_remove(i);
            sp.occ[c as usize] = 0;
            events.push((c, NONE));
            continue;
        }
        // Park the box that gets farthest from the goals.
        let mut best: Option<(u16, usize, u16)> = None;
        let mut found = BoxMoves::default();
        sp.cut_floor(b);
        for (i, &c) in boxes.iter().enumerate() {
            for d in 0..4 {
                let p = b.nbr[c as usize][d];
                if p == NONE || sp.occ[p as usize] != 0 {
                    continue;
                }
                found.clear();
                found.find(b, &mut sp, &no_dead, c, p, 0b1111, true);
                for m in &found.list {
                    let gain = far[m.to as usize].saturating_sub(far[c as usize]);
                    if gain > best.map_or(0, |(g, _, _)| g) {
                        best = Some((gain, i, m.to));
                    }
                }
            }
        }
        let (_, i, to) = best?;
        let c = boxes[i];
        sp.occ[to as usize] = sp.occ[c as usize];
        sp.occ[c as usize] = 0;
        boxes[i] = to;
        events.push((c, to));
    }
    events.reverse();
    Some(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::packing::pushable;
    use games::sokoban::{parse_levels, MICROBAN};

    fn boards(text: &str) -> Vec<Board> {
        parse_levels(text)
            .expect("the set parses")
            .iter()
            .map(|lv| Board::new(lv).expect("a valid level"))
            .collect()
    }

    fn sasquatch_i() -> Vec<Board> {
        boards(include_str!("../../../games/data/sokoban/sasquatch-i.xsb"))
    }

    #[test]
    fn every_step_of_a_plan_can_be_pushed_and_the_last_fills_the_goals() {
        // Forward, with an independent search (pushes, not the plan's
        // pulls): each step's box gets to its cell, alone, past the boxes
        // the earlier steps left, from its parking cell or from a cell
        // where some box starts.
        let mut planned = 0;
        let mut parked = 0;
        for b in sasquatch_i().iter().chain(&boards(MICROBAN)) {
            let Some(plan) = PackingPlan::new(b) else {
                continue;
            };
            planned += 1;
            parked += usize::from(plan.parks() > 0);
            let mut sp = Space::new(b.n);
            for &(to, from) in &plan.steps {
                assert_eq!(sp.occ[to as usize], 0, "a step brings a box to a free cell");
                let ok = if from != NONE {
                    sp.occ[from as usize] = 0;
                    pushable(b, &mut sp, from, to)
                } else {
                    b.start_boxes.iter().any(|&s| {
                        !b.is_goal[s as usize]
                            && sp.occ[s as usize] == 0
                            && pushable(b, &mut sp, s, to)
                    })
                };
                assert!(ok, "step to {:?} from {from}", b.row_col(to));
                sp.occ[to as usize] = 1;
            }
            let mut filled: Vec<u16> = (0..b.n as u16)
                .filter(|&c| sp.occ[c as usize] != 0)
                .collect();
            filled.sort_unstable();
            let mut goals = b.goals.clone();
            goals.sort_unstable();
            assert_eq!(filled, goals, "the plan ends with a box on every goal");
        }
        // Most levels get a plan; some need parking.
        assert!(planned >= 180, "{planned} plans");
        assert!(parked >= 50, "{parked} plans park a box");
    }

    #[test]
    fn progress_is_the_number_of_steps_done() {
        for b in sasquatch_i() {
            let Some(plan) = PackingPlan::new(&b) else {
                continue;
            };
            let mut occ = vec![0u16; b.n];
            assert_eq!(plan.progress(&occ), 0);
            for (k, &(to, from)) in plan.steps.iter().enumerate() {
                if from != NONE {
                    occ[from as usize] = 0;
                }
                occ[to as usize] = 1;
                assert_eq!(plan.progress(&occ), k + 1);
            }
        }
    }

    #[test]
    fn the_chute_goal_of_sasquatch_i_44_is_filled_from_a_parked_box_above_it() {
        // Its goal room's top goal sits in a one-cell chute (row 10, column
        // 17, counted from 1), and a box can only reach the cells above it
        // through the chute itself. Without parking the rules get stuck
        // with 15 of the 23 boxes still in (no box can be pulled out to a
        // start cell). The plan takes the chute's box up and parks it above,
        // before the goal under the chute's lower neighbour is filled; it
        // comes down into the chute later.
        let b = &sasquatch_i()[43];
        let chute = (0..b.n as u16).find(|&c| b.row_col(c) == (9, 16)).unwrap();
        assert!(b.is_goal[chute as usize]);
        let plan = PackingPlan::new(b).expect("level 44 has a plan");
        let k = plan.steps.iter().position(|s| s.0 == chute).unwrap();
        let from = plan.steps[k].1;
        assert_ne!(from, NONE, "the chute is filled from a parking cell");
        let (r, c) = b.row_col(from);
        assert!(r < 9 && c == 16, "parked above the chute, at {:?}", (r, c));
        // The box went up before the goal below the chute was filled.
        let below = b.nbr[b.nbr[chute as usize][1] as usize][1];
        let parked = plan.steps.iter().position(|s| s.0 == from).unwrap();
        let filled = plan.steps.iter().position(|s| s.0 == below).unwrap();
        assert!(parked < filled && filled < k);
    }

    #[test]
    fn a_box_out_of_plan_can_never_be_pushed_onto_a_goal_the_plan_left_empty() {
        // Every plan of Sasquatch I: before any step nothing is out of
        // plan; after k steps, no cell out of plan has a push path (an
        // independent search, the filled goals as boxes) to a goal the
        // first k steps left empty.
        let (mut zones, mut cells) = (0, 0);
        for b in &sasquatch_i() {
            let Some(plan) = PackingPlan::new(b) else {
                continue;
            };
            let dead = super::super::board::DistTable::to_targets(b, &b.goals).dead;
            let out = plan.out_of_plan(b, &dead);
            assert_eq!(out.len(), plan.occ.len());
            assert!(out[0].iter().all(|&w| w == 0), "out of plan at the start");
            let mut sp = Space::new(b.n);
            for (k, zone) in out.iter().enumerate().step_by(3) {
                let filled: Vec<u16> = b
                    .goals
                    .iter()
                    .copied()
                    .filter(|&g| {
                        plan.cells
                            .iter()
                            .enumerate()
                            .any(|(i, &c)| c == g && plan.occ[k] >> i & 1 == 1)
                    })
                    .collect();
                let empty: Vec<u16> = b
                    .goals
                    .iter()
                    .copied()
                    .filter(|g| !filled.contains(g))
                    .collect();
                sp.set(&filled);
                for c in (0..b.n as u16)
                    .filter(|&c| bits::has(zone, c as usize))
                    .step_by(5)
                {
                    cells += 1;
                    for &g in &empty {
                        assert!(
                            !pushable(b, &mut sp, c, g),
                            "cell {c} out of plan after {k} steps reaches goal {g}"
                        );
                    }
                }
                sp.clear(&filled);
                zones += 1;
            }
        }
        assert!(
            cells > 200,
            "only {cells} cells out of plan checked in {zones} zones"
        );
    }
}
