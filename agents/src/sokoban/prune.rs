//! The deadlock and corral pruning of the forward search, kept in a
//! [`Pruner`] per search (its corral marks, the corral-deadlock sub-search
//! and the cache of sealed-goal tables):
//! - boxes that can never move again off their goal, or sealing off an
//!   empty goal that no other box can reach any more
//!   ([`Pruner::stuck_or_sealed`], with `fixed.rs`);
//! - PI-corral pruning ([`Pruner::corrals`]): when the player is cut off
//!   from a region that must change (a *corral*) whose fence boxes can only
//!   be pushed into it and all of those pushes are available now, only
//!   those pushes need to be generated;
//! - corral deadlocks: a small search on the corral's boxes and their
//!   neighbours alone ([`CorralSearch`]), which proves that they can
//!   neither leave it nor let the player into its inner cells nor be
//!   packed with those inner goals filled;
//! - goal-zone deadlocks (`zone.rs`, part of
//!   [`Pruner::stuck_or_sealed`]): the goals can never all be filled, even
//!   with the rest of the floor reduced to bags of boxes;
//! - learned patterns (`learn.rs`, the forward feature-space search only,
//!   checked by [`Pruner::stuck_or_sealed`]): small sets of boxes proved
//!   unable to reach goals even alone.
//!
//! All of it is sound: no solvable state is ever cut (except where goal
//! macros are on, see `packing.rs`, which the corral pruning steers clear
//! of).

use super::board::{Board, NONE};
use super::fixed;
use super::learn::Learner;
use super::packing::Packing;
use super::space::Space;
use super::zone::GoalZone;
use std::collections::HashMap;

/// What [`Pruner::stuck_or_sealed`] found.
pub(crate) enum Verdict {
    /// A dead position.
    Dead,
    /// Not proved dead (the reach marks are still those of the position).
    Alive,
}

/// What the corral analysis of a node ([`Pruner::corrals`]) found.
pub(crate) enum CorralVerdict {
    /// No prunable corral.
    None,
    /// Only these pushes need to be generated.
    Prune(Vec<(u16, u8)>),
    /// The node is dead.
    Deadlock,
}

/// The pruning state of one search (see the module docs).
pub(crate) struct Pruner {
    /// Corral marks: `corral[c] == stamp` for the cells of the corral
    /// being analysed.
    corral: Vec<u32>,
    corral_stamp: u32,
    /// Nodes explored by each corral-deadlock search (0: off).
    corral_nodes: u32,
    sub: Option<Box<CorralSearch>>,
    /// Supply tables of goals, by set of fixed boxes.
    sealed_cache: HashMap<u64, fixed::Supply>,
    /// Corral deadlocks found.
    pub corral_deadlocks: u64,
    /// The goal zone, built on first use (`Some(None)`: the board has
    /// none, see [`GoalZone::new`]).
    zone: Option<Option<GoalZone>>,
    /// States explored by each goal-zone search (0: off).
    zone_nodes: u32,
    /// The learned deadlock patterns (`learn.rs`), when learning is on.
    pub learner: Option<Learner>,
}

impl Pruner {
    /// Pruning for a board of `n` cells, with corral-deadlock searches of
    /// at most `corral_nodes` states and goal-zone searches of at most
    /// `zone_nodes` (0: off), learning deadlock patterns with searches of
    /// at most `learn_nodes` positions (0: off).
    pub fn new(n: usize, corral_nodes: u32, zone_nodes: u32, learn_nodes: u32) -> Pruner {
        Pruner {
            corral: vec![0; n],
            corral_stamp: 0,
            corral_nodes,
            sub: None,
            sealed_cache: HashMap::new(),
            corral_deadlocks: 0,
            zone: None,
            zone_nodes,
            learner: (learn_nodes > 0).then(|| Learner::new(n, learn_nodes as usize)),
        }
    }

    /// Whether the position of `boxes` (player on `player`; `sp.occ` holds
    /// exactly `boxes`, the reach marks are the player's; `dead`: the
    /// forward dead squares) is dead because some box that can never move again
    /// ([`Space::immovable_with_player`]) is off its goal, or because the
    /// boxes that can never move seal off an empty goal: with them as walls,
    /// no other box can be pushed onto it any more (see
    /// [`fixed::Supply`]; cached by the set of fixed boxes), or, with
    /// goal-zone searches on, because its goals can never all be filled
    /// ([`GoalZone::dead`]).
    pub fn stuck_or_sealed(
        &mut self,
        b: &Board,
        dead: &[bool],
        sp: &mut Space,
        boxes: &[u16],
        player: u16,
    ) -> Verdict {
        self.stuck_or_sealed_after(b, dead, sp, boxes, player, None)
    }

    /// [`Pruner::stuck_or_sealed`], told `moved`: the cell of the box just
    /// moved, when no box of the position before that move was fixed.
    /// None is fixed now either when that box can be pushed on from where
    /// it stands (see [`Space::pushable`]), and the fixed-box test is then
    /// skipped.
    pub fn stuck_or_sealed_after(
        &mut self,
        b: &Board,
        dead: &[bool],
        sp: &mut Space,
        boxes: &[u16],
        player: u16,
        moved: Option<u16>,
    ) -> Verdict {
        if self.learned_dead(boxes, player) {
            return Verdict::Dead;
        }
        self.stuck_or_sealed_unlearned(b, dead, sp, boxes, player, moved)
    }

    /// [`Pruner::stuck_or_sealed_after`] without the learned patterns: for
    /// a deferred child (see `Config::defer`), which was checked against
    /// them when it was made; those learned since are checked before it
    /// is expanded, as for every state.
    pub fn stuck_or_sealed_unlearned(
        &mut self,
        b: &Board,
        dead: &[bool],
        sp: &mut Space,
        boxes: &[u16],
        player: u16,
        moved: Option<u16>,
    ) -> Verdict {
        let verdict = if moved.is_some_and(|c| sp.pushable(b, dead, c)) {
            Verdict::Alive
        } else {
            self.fixed_boxes(b, dead, sp, boxes, player)
        };
        if matches!(verdict, Verdict::Dead) || self.zone_nodes == 0 {
            return verdict;
        }
        let nodes = self.zone_nodes as usize;
        let zone = self.zone.get_or_insert_with(|| GoalZone::new(b, nodes));
        match zone.as_mut().is_some_and(|z| z.dead(dead, boxes, player)) {
            true => Verdict::Dead,
            false => verdict,
        }
    }

    /// Whether the position of the sorted `boxes` (player on `player`)
    /// holds a learned deadlock pattern ([`Learner::matches`]).
    pub fn learned_dead(&self, boxes: &[u16], player: u16) -> bool {
        self.learner
            .as_ref()
            .is_some_and(|l| l.matches(boxes, player))
    }

    /// The part of [`Pruner::stuck_or_sealed`] about boxes that can never
    /// move again.
    fn fixed_boxes(
        &mut self,
        b: &Board,
        dead: &[bool],
        sp: &mut Space,
        boxes: &[u16],
        player: u16,
    ) -> Verdict {
        let mut fixed = sp.immovable_with_player(b, dead, boxes, player, true);
        let alive = Verdict::Alive;
        if fixed.iter().any(|&c| !b.is_goal[c as usize]) {
            return Verdict::Dead;
        }
        if fixed.is_empty() || fixed.len() == boxes.len() {
            return alive;
        }
        fixed.sort_unstable();
        let key = fixed
            .iter()
            .fold(0x5ea1u64, |h, &c| h ^ b.zob_box[c as usize]);
        let movable: Vec<u16> = boxes
            .iter()
            .copied()
            .filter(|c| !fixed.contains(c))
            .collect();
        let supply = self.sealed_cache.entry(key).or_insert_with(|| {
            let mut v = vec![false; b.n];
            for &c in &fixed {
                v[c as usize] = true;
            }
            fixed::Supply::new(b, &v)
        });
        if supply.all_supplied(b, &movable) {
            alive
        } else {
            Verdict::Dead
        }
    }

    /// PI-corral analysis of the node whose boxes are `cur` (with `sp.occ`
    /// set and the player's region marked by the last reach), given its
    /// candidate pushes `cands` (box cell, direction); `packing` when the
    /// search uses goal macros.
    ///
    /// A *corral* is a region the player cannot enter, fenced by boxes
    /// next to the player's region (its *fence*) and walls; boxes deeper
    /// inside belong to it too. It is an *I-corral* when every push of a
    /// fence box from outside goes into it (pushes into walls, dead squares
    /// and corral boxes ignored; a push blocked by an outside box, which
    /// might move away, disqualifies it), and a *PI-corral* when moreover
    /// the player can make every one of those pushes now. If the corral
    /// still has to change (a box off its goal or an empty goal), every
    /// solution pushes a fence box into it before touching anything inside,
    /// and the pushes outside can be done after that push just as well; so
    /// only the corral's pushes need to be generated. Of several PI-corrals
    /// the one with the fewest pushes is taken.
    #[allow(clippy::too_many_arguments)]
    pub fn corrals(
        &mut self,
        b: &Board,
        fwd_dead: &[bool],
        packing: Option<&Packing>,
        sp: &mut Space,
        cur: &[u16],
        cands: impl IntoIterator<Item = (u16, u8)>,
        player: u16,
    ) -> CorralVerdict {
        if self.corral_stamp >= u32::MAX - (b.n as u32 + 2) {
            self.corral.fill(0);
            self.corral_stamp = 0;
        }
        let base = self.corral_stamp;
        let mut best: Option<Vec<(u16, u8)>> = None;
        let mut stack: Vec<u16> = Vec::new();
        let mut fence: Vec<u16> = Vec::new();
        let mut members: Vec<u16> = Vec::new();
        for (c, d) in cands {
            let t = b.nbr[c as usize][d as usize];
            if sp.reached(t) || self.corral[t as usize] > base {
                continue;
            }
            self.corral_stamp += 1;
            let cs = self.corral_stamp;
            stack.clear();
            fence.clear();
            members.clear();
            stack.push(t);
            self.corral[t as usize] = cs;
            let mut needs = false;
            let mut in_area = false;
            while let Some(x) = stack.pop() {
                let goal = b.is_goal[x as usize];
                if let Some(pk) = packing {
                    in_area |= pk.area[x as usize] != NONE;
                }
                if sp.occ[x as usize] != 0 {
                    members.push(x);
                    if !goal {
                        needs = true;
                    }
                    let on_edge = b.nbr[x as usize].iter().any(|&y| sp.reached(y));
                    if on_edge {
                        fence.push(x);
                        continue;
                    }
                } else if goal {
                    needs = true;
                }
                for &y in &b.nbr[x as usize] {
                    if y != NONE && self.corral[y as usize] != cs && !sp.reached(y) {
                        self.corral[y as usize] = cs;
                        stack.push(y);
                    }
                }
            }
            if !needs {
                continue;
            }
            let mut i_cond = true;
            let mut p_cond = true;
            let mut pushes: Vec<(u16, u8)> = Vec::new();
            'fence: for &bx in &fence {
                let nbr = b.nbr[bx as usize];
                for d in 0..4 {
                    let (p, t2) = (nbr[d ^ 1], nbr[d]);
                    if p == NONE || t2 == NONE || self.corral[p as usize] == cs {
                        continue;
                    }
                    if sp.occ[t2 as usize] != 0 {
                        if self.corral[t2 as usize] == cs {
                            continue;
                        }
                        i_cond = false;
                        break 'fence;
                    }
                    if fwd_dead[t2 as usize] {
                        continue;
                    }
                    if self.corral[t2 as usize] != cs {
                        i_cond = false;
                        break 'fence;
                    }
                    if sp.occ[p as usize] != 0 || !sp.reached(p) {
                        p_cond = false;
                        continue;
                    }
                    pushes.push((bx, d as u8));
                }
            }
            if !i_cond {
                continue;
            }
            if self.corral_nodes > 0
                && self.corral_deadlock(b, fwd_dead, sp, cur, cs, &members, &fence, player)
            {
                self.corral_deadlocks += 1;
                return CorralVerdict::Deadlock;
            }
            // Goal macros may drop or reshape pushes into a goal area, and
            // their targets depend on which area goals are filled, which
            // would break the reordering argument: no pruning on corrals
            // that touch an ordered goal area.
            let macro_push = in_area
                || packing.is_some_and(|pk| {
                    pushes.iter().any(|&(bx, d)| {
                        let t = b.nbr[bx as usize][d as usize];
                        pk.area[t as usize] != NONE && pk.area[t as usize] != pk.area[bx as usize]
                    })
                });
            if p_cond && !macro_push && best.as_ref().is_none_or(|bp| pushes.len() < bp.len()) {
                best = Some(pushes);
            }
        }
        match best {
            Some(p) if p.is_empty() => CorralVerdict::Deadlock,
            Some(p) => CorralVerdict::Prune(p),
            None => CorralVerdict::None,
        }
    }

    /// Corral deadlock test. Keep only the corral's boxes (`members`) and
    /// the boxes next to them (their *ring*) on the board: removing boxes
    /// only makes the puzzle easier, so if a bounded search proves that no
    /// sequence of pushes puts every member on a goal with the corral's
    /// inner goals (off the cells of its `fence`) filled, lets the player
    /// into those inner cells or pushes a member out of the corral (cells
    /// stamped `cs`), the node is dead. The ring keeps the boxes that wedge
    /// the fence in place.
    #[allow(clippy::too_many_arguments)]
    fn corral_deadlock(
        &mut self,
        b: &Board,
        dead: &[bool],
        sp: &mut Space,
        cur: &[u16],
        cs: u32,
        members: &[u16],
        fence: &[u16],
        player: u16,
    ) -> bool {
        let mut ring: Vec<u16> = Vec::new();
        for &m in members {
            for &y in &b.nbr[m as usize] {
                if y != NONE
                    && sp.occ[y as usize] != 0
                    && !members.contains(&y)
                    && !ring.contains(&y)
                {
                    ring.push(y);
                }
            }
        }
        // Boxes that can never move (in the real position) stay as walls;
        // the other boxes outside the corral and its ring are removed, but
        // may still supply goals in the sealed-goal test.
        let fixed_real = sp.immovable(b, dead, cur);
        let outside = |c: &u16| !members.contains(c) && !ring.contains(c);
        let walls: Vec<u16> = fixed_real.iter().copied().filter(outside).collect();
        let others: Vec<u16> = cur
            .iter()
            .copied()
            .filter(|c| outside(c) && !fixed_real.contains(c))
            .collect();
        let sub = self
            .sub
            .get_or_insert_with(|| Box::new(CorralSearch::new(b.n)));
        sub.run(
            b,
            dead,
            &self.corral,
            cs,
            members,
            fence,
            &ring,
            &walls,
            &others,
            player,
            self.corral_nodes,
            &mut self.sealed_cache,
        )
    }
}

/// The bounded search behind corral deadlock detection.
struct CorralSearch {
    sp: Space,
    seen: std::collections::HashSet<u64>,
    queue: std::collections::VecDeque<(Vec<u16>, Vec<u16>, u16)>,
    cache: HashMap<u64, bool>,
}

impl CorralSearch {
    fn new(n: usize) -> CorralSearch {
        CorralSearch {
            sp: Space::new(n),
            seen: Default::default(),
            queue: Default::default(),
            cache: HashMap::new(),
        }
    }

    fn key(b: &Board, members: &[u16], ring: &[u16], norm: u16, extent: u16) -> u64 {
        let mut h = b.zob_player[norm as usize] ^ b.zob_player[extent as usize].rotate_left(29);
        for &c in members {
            h ^= b.zob_box[c as usize];
        }
        for &c in ring {
            h ^= b.zob_box[c as usize].rotate_left(13);
        }
        h
    }

    /// Whether the corral members `start` (with the `ring` boxes, player on
    /// `player`) are dead: breadth-first over at most `limit` states.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        b: &Board,
        dead: &[bool],
        corral: &[u32],
        cs: u32,
        start: &[u16],
        fence: &[u16],
        ring: &[u16],
        walls: &[u16],
        others: &[u16],
        player: u16,
        limit: u32,
        supplies: &mut HashMap<u64, fixed::Supply>,
    ) -> bool {
        // The corral is settled when its members are on goals and none of
        // its inner goals (off the fence boxes' cells) is empty, a ring box
        // counting as a filler; it is open once the player walks into an
        // inner cell. Either way it is not dead. That covers every
        // solution, projected onto the members and the ring: at its end
        // every member is on a goal, and a box from outside (removed here)
        // can only come into the inner cells by a push from a cell the
        // player reaches here onto an inner cell the player could walk
        // onto; a push onto a fence cell left free fills no inner goal. A
        // player on a fence cell alone opens nothing (its fence box went
        // deeper in): that is what proves a fence that can only be pushed
        // further in and wedges itself.
        let interior: Vec<u16> = (0..b.n as u16)
            .filter(|&x| corral[x as usize] == cs && !fence.contains(&x))
            .collect();
        let goals_in: Vec<u16> = interior
            .iter()
            .copied()
            .filter(|&x| b.is_goal[x as usize])
            .collect();
        let settled = |ms: &[u16], rs: &[u16]| {
            ms.iter().all(|&x| b.is_goal[x as usize])
                && goals_in.iter().all(|g| ms.contains(g) || rs.contains(g))
        };
        if settled(start, ring) {
            return false;
        }
        let mut members = start.to_vec();
        members.sort_unstable();
        let mut ring = ring.to_vec();
        ring.sort_unstable();
        // Fixed boxes are permanent walls during the whole search.
        for &c in walls {
            self.sp.occ[c as usize] = u16::MAX;
        }
        // The cache key: boxes, the player's region among them, the corral.
        self.sp.set(&members);
        for &c in &ring {
            self.sp.occ[c as usize] = u16::MAX;
        }
        let norm = self.sp.reach(b, player, false);
        self.sp.clear(&members);
        self.sp.clear(&ring);
        let extent = members[0];
        let key = Self::key(b, &members, &ring, norm, extent)
            ^ walls
                .iter()
                .fold(0, |h, &c| h ^ b.zob_box[c as usize].rotate_left(41))
            ^ others
                .iter()
                .fold(0, |h, &c| h ^ b.zob_box[c as usize].rotate_left(53));
        if let Some(&v) = self.cache.get(&key) {
            self.sp.clear(walls);
            return v;
        }
        self.seen.clear();
        self.queue.clear();
        self.queue.push_back((members, ring, player));
        let mut count = 0u32;
        let mut dead_end = true;
        while let Some((members, ring, player)) = self.queue.pop_front() {
            count += 1;
            if count > limit {
                dead_end = false;
                break;
            }
            self.sp.set(&members);
            for &c in &ring {
                self.sp.occ[c as usize] = u16::MAX;
            }
            let norm = self.sp.reach(b, player, false);
            let h = Self::key(b, &members, &ring, norm, 0);
            if !self.seen.insert(h) {
                self.sp.clear(&members);
                self.sp.clear(&ring);
                continue;
            }
            if interior.iter().any(|&x| self.sp.reached(x)) {
                self.sp.clear(&members);
                self.sp.clear(&ring);
                dead_end = false;
                break;
            }
            let mut escaped = false;
            let mut next: Vec<(Vec<u16>, Vec<u16>, u16)> = Vec::new();
            for (group, is_member) in [(&members, true), (&ring, false)] {
                for (bi, &c) in group.iter().enumerate() {
                    let nbr = b.nbr[c as usize];
                    for d in 0..4 {
                        let (p, t) = (nbr[d ^ 1], nbr[d]);
                        if p == NONE || t == NONE || !self.sp.reached(p) {
                            continue;
                        }
                        if self.sp.occ[t as usize] != 0 || dead[t as usize] {
                            continue;
                        }
                        if is_member && corral[t as usize] != cs {
                            escaped = true;
                            break;
                        }
                        let tag = self.sp.occ[c as usize];
                        self.sp.occ[c as usize] = 0;
                        self.sp.occ[t as usize] = tag;
                        let (frozen, offgoal) = self.sp.freeze(b, dead, t);
                        self.sp.occ[t as usize] = 0;
                        self.sp.occ[c as usize] = tag;
                        if frozen && offgoal {
                            continue;
                        }
                        let (mut nm, mut nr) = (members.clone(), ring.clone());
                        if frozen {
                            // A box froze on its goal: does it seal a goal off?
                            // Fixed boxes come from this relaxed board (fewer
                            // than the real ones); every real box may supply.
                            if is_member {
                                nm[bi] = t;
                            } else {
                                nr[bi] = t;
                            }
                            self.sp.occ[c as usize] = 0;
                            self.sp.occ[t as usize] = tag;
                            let mut all: Vec<u16> = nm
                                .iter()
                                .chain(nr.iter())
                                .chain(walls.iter())
                                .copied()
                                .collect();
                            let fixed = self.sp.immovable(b, dead, &all);
                            self.sp.occ[t as usize] = 0;
                            self.sp.occ[c as usize] = tag;
                            let mut fixed_set = vec![false; b.n];
                            for &f in &fixed {
                                fixed_set[f as usize] = true;
                            }
                            all.extend_from_slice(others);
                            all.retain(|&x| !fixed_set[x as usize]);
                            let mut key = 0x5ea1u64;
                            for &f in &fixed {
                                key ^= b.zob_box[f as usize];
                            }
                            let supply = supplies
                                .entry(key)
                                .or_insert_with(|| fixed::Supply::new(b, &fixed_set));
                            if !supply.all_supplied(b, &all) {
                                continue;
                            }
                            nm = members.clone();
                            nr = ring.clone();
                        }
                        if is_member {
                            nm[bi] = t;
                            nm.sort_unstable();
                        } else {
                            nr[bi] = t;
                            nr.sort_unstable();
                        }
                        if settled(&nm, &nr) {
                            escaped = true;
                            break;
                        }
                        next.push((nm, nr, c));
                    }
                    if escaped {
                        break;
                    }
                }
                if escaped {
                    break;
                }
            }
            self.sp.clear(&members);
            self.sp.clear(&ring);
            if escaped {
                dead_end = false;
                break;
            }
            self.queue.extend(next);
        }
        self.sp.clear(walls);
        self.cache.insert(key, dead_end);
        dead_end
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::DistTable;
    use super::super::exhaustive::{microban_boards, random_position, reaches};
    use super::super::search::Way;
    use super::*;
    use rand::SeedableRng;

    /// Random positions on small Microban boards (boxes off dead squares,
    /// the player anywhere free): whenever the sealed-goal test or the
    /// corral analysis calls one dead, no sequence of pushes solves it.
    /// Some of them the removal test alone lets through.
    #[test]
    fn positions_pruned_as_dead_can_never_be_solved() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let (mut sealed, mut corral, mut beyond_stuck, mut with_corral) = (0, 0, 0, 0);
        for b in microban_boards(5, 40, 30) {
            let fdist = DistTable::to_targets(&b, &b.goals);
            let live: Vec<u16> = (0..b.n as u16)
                .filter(|&c| !fdist.dead[c as usize])
                .collect();
            let nb = b.start_boxes.len();
            if live.len() <= nb {
                continue;
            }
            let mut pruner = Pruner::new(b.n, 20, 0, 0);
            let mut sp = Space::new(b.n);
            for _ in 0..400 {
                let (boxes, player) = random_position(&mut rng, b.n, &live, nb);
                sp.set(&boxes);
                sp.reach(&b, player, false);
                let pushes: Vec<(u16, u8)> = boxes
                    .iter()
                    .flat_map(|&c| (0..4u8).map(move |d| (c, d)))
                    .filter(|&(c, d)| {
                        let nbr = b.nbr[c as usize];
                        let (p, t) = (nbr[d as usize ^ 1], nbr[d as usize]);
                        p != NONE
                            && t != NONE
                            && sp.reached(p)
                            && sp.occ[t as usize] == 0
                            && !fdist.dead[t as usize]
                    })
                    .collect();
                with_corral += usize::from(
                    pushes
                        .iter()
                        .any(|&(c, d)| !sp.reached(b.nbr[c as usize][d as usize])),
                );
                let in_corral = matches!(
                    pruner.corrals(&b, &fdist.dead, None, &mut sp, &boxes, pushes, player),
                    CorralVerdict::Deadlock
                );
                sp.reach(&b, player, false);
                let is_sealed = matches!(
                    pruner.stuck_or_sealed(&b, &fdist.dead, &mut sp, &boxes, player),
                    Verdict::Dead
                );
                let stuck = sp.stuck_deadlock(&b, &fdist.dead, &boxes);
                sp.clear(&boxes);
                if !in_corral && !is_sealed {
                    continue;
                }
                corral += usize::from(in_corral);
                sealed += usize::from(is_sealed);
                beyond_stuck += usize::from(!stuck);
                let solved = |_: u16, bx: &[u16]| bx.iter().all(|&c| b.is_goal[c as usize]);
                assert!(
                    !reaches(&b, &boxes, player, Way::Forward, 10_000_000, solved),
                    "called dead (corral {in_corral}, sealed {is_sealed}), yet solvable: \
                     boxes {boxes:?}, player {player}"
                );
            }
        }
        eprintln!(
            "sealed {sealed}, corral deadlocks {corral} ({beyond_stuck} dead beyond the \
             removal test) among {with_corral} positions with a corral"
        );
        assert!(sealed > 20, "the sample has sealed goals ({sealed})");
        assert!(corral > 200, "the sample has corral deadlocks ({corral})");
    }
}
