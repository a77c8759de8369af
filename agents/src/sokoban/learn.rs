//! Deadlock patterns learned during the search, after Festival's "stuck
//! patterns" (Shoham & Schaeffer's FESS solver).
//!
//! When the subtree of a state has grown to [`LEARN_AT`] expansions
//! without a solution, the state may hold a deadlock the other tests miss.
//! [`Learner::learn`] then looks for a small set of its boxes that can never
//! all reach goals on their own:
//! - *the core*: boxes are taken off the board while one of them is *free*
//!   (the player can push it along both axes, onto cells that are not dead
//!   squares) or *wobbles* (the player can push it one cell and then push it
//!   back). What remains are boxes that are stuck in some way;
//! - *the search*: single pushes of the core's boxes alone, the free ones
//!   taken off after every push (not the wobblers), pushes onto dead squares
//!   and positions with a box that can never move again off its goal
//!   dropped, at most [`Learner::new`]'s budget of positions. If it runs out
//!   without putting every box left onto a goal (any goal), the core is dead;
//! - *distilling*: each box of a dead core is taken out in turn, and stays
//!   out when the rest is still dead;
//! - *the pattern*: the boxes left and the player's region among them alone.
//!   A position that holds all of these boxes, with the player in that
//!   region, is dead.
//!
//! It is sound because every step only relaxes the problem: taking a box
//! off the board never hurts the other boxes (a solution of the full
//! position, with that box's pushes left out, is still a solution of the
//! rest, which only needs goals for the boxes left), so a set of boxes that
//! cannot be solved alone cannot be solved among more boxes, whatever these
//! are and wherever the player is in the same region. The tests check every
//! pattern against an exhaustive search on small levels.

use super::bits;
use super::board::{Board, NONE};
use super::space::Space;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// A state whose subtree reaches this many expansions is worth
/// [`Learner::learn`] (as in Festival).
pub(crate) const LEARN_AT: u32 = 64;

/// The most boxes of a core that is searched.
const MAX_CORE: usize = 12;

/// The most patterns kept (more are not learned).
const MAX_PATTERNS: usize = 2000;

/// The most cores remembered as searched (the memory is then cleared).
const MAX_TRIED: usize = 1 << 16;

/// What the search of a core found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Every box left can reach a goal.
    Alive,
    /// Proved dead: the search ran out.
    Dead,
    /// The budget ran out first.
    Unknown,
}

/// One learned pattern: boxes, and the player's region among them alone (a
/// bit per cell).
struct Pattern {
    boxes: Vec<u16>,
    region: Vec<u64>,
}

/// The learned patterns of one search, and the scratch of the searches
/// that find them.
pub(crate) struct Learner {
    /// Positions each core search may store.
    budget: usize,
    patterns: Vec<Pattern>,
    /// Pattern indices by their smallest box cell.
    by_cell: Vec<Vec<u32>>,
    sp: Space,
    /// Cores already searched (boxes and normalised player).
    tried: HashSet<(Vec<u16>, u16)>,
}

impl Learner {
    /// No patterns yet, on a board of `n` cells; each core search stores at
    /// most `budget` positions.
    pub fn new(n: usize, budget: usize) -> Learner {
        Learner {
            budget,
            patterns: Vec::new(),
            by_cell: vec![Vec::new(); n],
            sp: Space::new(n),
            tried: HashSet::new(),
        }
    }

    /// Patterns learned so far.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the position of the sorted `boxes` with the player on
    /// `player` holds a learned pattern.
    pub fn matches(&self, boxes: &[u16], player: u16) -> bool {
        if self.patterns.is_empty() {
            return false;
        }
        boxes.iter().any(|&c| {
            self.by_cell[c as usize].iter().any(|&k| {
                let p = &self.patterns[k as usize];
                bits::has(&p.region, player as usize)
                    && p.boxes.iter().all(|x| boxes.binary_search(x).is_ok())
            })
        })
    }

    /// Look for a pattern in the position of `boxes` with the player on
    /// `player` (`dead`: the forward dead squares), and keep it; `true`
    /// when one was found (the position is then dead). A core of every
    /// box is not searched: that is the search's own work.
    pub fn learn(&mut self, b: &Board, dead: &[bool], boxes: &[u16], player: u16) -> bool {
        if self.patterns.len() >= MAX_PATTERNS {
            return false;
        }
        let mut core = boxes.to_vec();
        let p = self.shed(b, dead, &mut core, player, true);
        if core.len() == boxes.len() || core.len() > MAX_CORE {
            return false;
        }
        self.learn_core(b, dead, core, p)
    }

    /// [`Learner::learn`] on a core already made (any size).
    fn learn_core(&mut self, b: &Board, dead: &[bool], mut core: Vec<u16>, player: u16) -> bool {
        if core.iter().all(|&c| b.is_goal[c as usize]) {
            return false;
        }
        core.sort_unstable();
        if self.tried.len() >= MAX_TRIED {
            self.tried.clear();
        }
        if !self.tried.insert((core.clone(), player)) {
            return false;
        }
        if self.search(b, dead, &core, player) != Outcome::Dead {
            return false;
        }
        // Distil: take each box out in turn, for good if the rest is dead.
        let mut i = 0;
        while i < core.len() {
            let mut fewer = core.clone();
            fewer.remove(i);
            let still = !fewer.iter().all(|&c| b.is_goal[c as usize])
                && self.search(b, dead, &fewer, player) == Outcome::Dead;
            if still {
                core = fewer;
            } else {
                i += 1;
            }
        }
        self.sp.set(&core);
        self.sp.reach(b, player, false);
        let mut region = vec![0u64; bits::words(b.n)];
        for &c in self.sp.reached_cells() {
            bits::set(&mut region, c as usize);
        }
        self.sp.clear(&core);
        self.by_cell[core[0] as usize].push(self.patterns.len() as u32);
        self.patterns.push(Pattern {
            boxes: core,
            region,
        });
        true
    }

    /// Take boxes off `boxes` while one is free (pushable along both axes)
    /// or, with `wobblers`, can be pushed and pushed back. Returns the
    /// normalised player (the smallest cell of its region). `sp.occ` is
    /// left empty.
    fn shed(
        &mut self,
        b: &Board,
        dead: &[bool],
        boxes: &mut Vec<u16>,
        player: u16,
        wobblers: bool,
    ) -> u16 {
        let sp = &mut self.sp;
        sp.set(boxes);
        let mut norm = sp.reach(b, player, false);
        loop {
            let ok = |sp: &Space, c: u16, d: usize| push_to(b, sp, dead, c, d).is_some();
            let free = boxes.iter().position(|&c| {
                let vertical = ok(sp, c, 0) || ok(sp, c, 1);
                let horizontal = ok(sp, c, 2) || ok(sp, c, 3);
                (vertical && horizontal)
                    || (wobblers && (0..4).any(|d| ok(sp, c, d) && wobbles(b, sp, c, d, player)))
            });
            let Some(i) = free else { break };
            let c = boxes.swap_remove(i);
            sp.occ[c as usize] = 0;
            // Re-number the rest (occ holds 1 + index).
            sp.set(boxes);
            norm = sp.reach(b, player, false);
        }
        sp.clear(boxes);
        boxes.sort_unstable();
        norm
    }

    /// Search single pushes of `core` (player on `player`) until every box
    /// left is on a goal, shedding free boxes after each push.
    fn search(&mut self, b: &Board, dead: &[bool], core: &[u16], player: u16) -> Outcome {
        let mut first = core.to_vec();
        let p0 = self.shed(b, dead, &mut first, player, false);
        if first.iter().all(|&c| b.is_goal[c as usize]) {
            return Outcome::Alive;
        }
        let mut seen: HashSet<(Vec<u16>, u16)> = HashSet::from([(first.clone(), p0)]);
        let mut queue = BinaryHeap::from([(Reverse(off_goals(b, &first)), first, p0)]);
        while let Some((_, bx, p)) = queue.pop() {
            self.sp.set(&bx);
            self.sp.reach(b, p, false);
            let mut pushes = Vec::new();
            for (i, &c) in bx.iter().enumerate() {
                for d in 0..4 {
                    if let Some(t) = push_to(b, &self.sp, dead, c, d) {
                        pushes.push((i, c, t));
                    }
                }
            }
            self.sp.clear(&bx);
            for (i, c, t) in pushes {
                let mut child = bx.clone();
                child[i] = t;
                // A box that can never move again off its goal: dead.
                self.sp.set(&child);
                let stuck = self
                    .sp
                    .immovable_with_player(b, dead, &child, c, false)
                    .iter()
                    .any(|&x| !b.is_goal[x as usize]);
                self.sp.clear(&child);
                if stuck {
                    continue;
                }
                let q = self.shed(b, dead, &mut child, c, false);
                if child.iter().all(|&x| b.is_goal[x as usize]) {
                    return Outcome::Alive;
                }
                if seen.len() >= self.budget {
                    return Outcome::Unknown;
                }
                if seen.insert((child.clone(), q)) {
                    queue.push((Reverse(off_goals(b, &child)), child, q));
                }
            }
        }
        Outcome::Dead
    }
}

/// The search order of a core: fewest boxes left, then fewest off goals.
fn off_goals(b: &Board, boxes: &[u16]) -> (usize, usize) {
    let off = boxes.iter().filter(|&&c| !b.is_goal[c as usize]).count();
    (boxes.len(), off)
}

/// Where the box on `c` goes when pushed in direction `d`, if the player
/// reaches the cell behind it (`sp`'s reach marks) and the cell ahead is
/// free (`sp.occ`) and not a dead square.
fn push_to(b: &Board, sp: &Space, dead: &[bool], c: u16, d: usize) -> Option<u16> {
    let nbr = b.nbr[c as usize];
    let (p, t) = (nbr[d ^ 1], nbr[d]);
    (t != NONE && sp.reached(p) && sp.occ[t as usize] == 0 && !dead[t as usize]).then_some(t)
}

/// Whether the box on `c`, pushed in direction `d` (the push is possible
/// now), can be pushed straight back: the player, on `c` after the push,
/// reaches the cell beyond the box. `sp` holds the boxes and the reach
/// marks of the player on `player`; both are as they were afterwards.
fn wobbles(b: &Board, sp: &mut Space, c: u16, d: usize, player: u16) -> bool {
    let t = b.nbr[c as usize][d];
    let beyond = b.nbr[t as usize][d];
    if beyond == NONE || sp.occ[beyond as usize] != 0 {
        return false;
    }
    let v = sp.occ[c as usize];
    sp.occ[c as usize] = 0;
    sp.occ[t as usize] = v;
    sp.reach(b, c, false);
    let back = sp.reached(beyond);
    sp.occ[t as usize] = 0;
    sp.occ[c as usize] = v;
    // Restore the reach marks of the position.
    sp.reach(b, player, false);
    back
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::DistTable;
    use crate::sokoban::exhaustive::{microban_boards, random_position, reaches};
    use crate::sokoban::search::Way;
    use rand::{Rng, SeedableRng};

    /// Whether every box of `boxes` can be pushed onto some goal, the
    /// player on `player`: the exhaustive search of single steps.
    fn solvable(b: &Board, boxes: &[u16], player: u16) -> bool {
        let done = |_: u16, bx: &[u16]| bx.iter().all(|&c| b.is_goal[c as usize]);
        reaches(b, boxes, player, Way::Forward, 5_000_000, done)
    }

    /// Random positions on small Microban boards: every pattern learned is
    /// dead alone (an exhaustive search), and so is every position that
    /// holds it, the one it came from and random others with more boxes.
    #[test]
    fn learned_patterns_can_never_be_solved() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let (mut tried, mut learned, mut smaller, mut others) = (0, 0, 0, 0);
        for b in microban_boards(6, 50, 60) {
            let fdist = DistTable::to_targets(&b, &b.goals);
            let nb = b.start_boxes.len();
            let live: Vec<u16> = (0..b.n as u16)
                .filter(|&c| !fdist.dead[c as usize])
                .collect();
            if nb < 2 || live.len() < nb + 2 {
                continue;
            }
            for _ in 0..150 {
                let (boxes, player) = random_position(&mut rng, b.n, &live, nb);
                tried += 1;
                let mut learner = Learner::new(b.n, 2000);
                let mut core = boxes.clone();
                let p = learner.shed(&b, &fdist.dead, &mut core, player, true);
                if !learner.learn_core(&b, &fdist.dead, core, p) {
                    continue;
                }
                learned += 1;
                let pat = &learner.patterns[0];
                assert!(learner.matches(&boxes, player), "its own position");
                assert!(
                    !solvable(&b, &boxes, player),
                    "a solvable position learned dead: boxes {boxes:?}, player {player}"
                );
                assert!(
                    !solvable(&b, &pat.boxes, player),
                    "a solvable pattern: {:?}, player {player}, from {boxes:?}",
                    pat.boxes
                );
                smaller += usize::from(pat.boxes.len() < boxes.len());
                // Other positions that hold the pattern, with the player
                // anywhere in its region.
                for _ in 0..5 {
                    let extra = rng.gen_range(0..=nb - pat.boxes.len());
                    let rest: Vec<u16> = live
                        .iter()
                        .copied()
                        .filter(|c| !pat.boxes.contains(c))
                        .collect();
                    let (mut more, _) = random_position(&mut rng, b.n, &rest, extra);
                    more.extend_from_slice(&pat.boxes);
                    more.sort_unstable();
                    let cells: Vec<u16> = (0..b.n as u16)
                        .filter(|&c| !more.contains(&c) && bits::has(&pat.region, c as usize))
                        .collect();
                    if cells.is_empty() {
                        continue;
                    }
                    let q = cells[rng.gen_range(0..cells.len())];
                    if !learner.matches(&more, q) {
                        continue;
                    }
                    others += 1;
                    assert!(
                        !solvable(&b, &more, q),
                        "a solvable position holds pattern {:?}: {more:?}, player {q}",
                        pat.boxes
                    );
                }
            }
        }
        eprintln!("tried {tried}, learned {learned} ({smaller} distilled), others {others}");
        assert!(
            learned >= 100,
            "only {learned} patterns in {tried} positions"
        );
        assert!(
            smaller >= 20,
            "only {smaller} patterns smaller than their position"
        );
        assert!(others >= 100, "only {others} other positions checked");
    }
}
