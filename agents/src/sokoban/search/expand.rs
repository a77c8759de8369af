//! The expansion of a state of a [`Searcher`]: its pushes (pulls), with
//! PI-corral pruning forward; with box moves, every cell each box can be
//! taken to; and for each child its removal test, bound, transposition
//! lookup and, in a feature-space search, its cell and the advisors.

use super::*;

/// Backward search: a player region of at most this many cells is a
/// pocket, whose pulls are searched ([`Space::pocket_trapped`]).
const POCKET_CELLS: usize = 12;
/// The most positions that search visits.
const POCKET_STATES: usize = 64;

/// A push (forward) or pull (backward) that a node can make.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cand {
    /// Index of the box in the node's sorted box list.
    bi: u16,
    /// Box cell.
    c: u16,
    /// Direction the box moves.
    d: u8,
    /// Walking distance to the player cell the move starts from (move costs).
    walk: u16,
}

/// Store a child's macro, if it has one: the goal macro `mac`; its id,
/// [`BOX_MOVE`] for a box move of several pushes (`far_mac`: only one
/// child in twenty is ever expanded, and only a solution's path needs the
/// pushes, so they are found again then: [`Searcher::path`]), or
/// `u32::MAX` for none.
fn store_macro(
    macros: &mut Macros,
    mac: &mut Option<Vec<(u16, u8)>>,
    far_mac: &mut Option<usize>,
) -> u32 {
    let k = far_mac.take();
    if let Some(m) = mac.take() {
        return macros.add(|out| out.extend_from_slice(&m));
    }
    match k {
        Some(_) => BOX_MOVE,
        None => u32::MAX,
    }
}

/// The hash of the child of `parent` whose box moved from `from` to `to`,
/// with the player (normalised, or exact with move costs) on `player`.
fn child_hash(b: &Board, parent: &Node, from: u16, to: u16, player: u16) -> u64 {
    parent.hash
        ^ b.zob_box[from as usize]
        ^ b.zob_box[to as usize]
        ^ b.zob_player[parent.player as usize]
        ^ b.zob_player[player as usize]
}

/// Move `v[i]` to its place in `v`, sorted but for it: the boxes of a
/// child are its parent's (sorted) with one changed, so one shift sorts
/// them (a full sort was 5 % of a backward search's time).
pub(super) fn settle_sorted(v: &mut [u16], i: usize) {
    let x = v[i];
    let mut i = i;
    while i + 1 < v.len() && v[i + 1] < x {
        v[i] = v[i + 1];
        i += 1;
    }
    while i > 0 && v[i - 1] > x {
        v[i] = v[i - 1];
        i -= 1;
    }
    v[i] = x;
}

/// The cell of `after` that `before` lacks (both sorted, one cell apart
/// at most): where a child's moved box went; `None` when the lists agree.
pub(super) fn added_cell(before: &[u16], after: &[u16]) -> Option<u16> {
    let (mut i, mut j) = (0, 0);
    while i < after.len() {
        if j < before.len() && before[j] < after[i] {
            j += 1;
        } else if j < before.len() && before[j] == after[i] {
            i += 1;
            j += 1;
        } else {
            return Some(after[i]);
        }
    }
    None
}

/// Whether a child whose pull left the player a region of `cells` cells,
/// holding the start player's cell or not (`start`), shut the player in
/// a pocket, where the parent's region was `open` (see [`POCKET_CELLS`]).
fn is_pocket(open: bool, cells: usize, start: bool) -> bool {
    open && cells <= POCKET_CELLS && !start
}

impl Searcher {
    /// Expand node `id`: make, test and store each of its children, queue
    /// those alive (in a feature-space search, once the advisors have seen
    /// them all); [`Step::Goal`] when a child is solved.
    pub(super) fn expand(&mut self, id: NodeId) -> Step {
        let node = self.nodes[id as usize];
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let dist = Self::dist_of(&sh, self.way);
        let fwd_dead: &[bool] = &sh.fdist.dead;
        let nb = self.nb;
        let mut cur = std::mem::take(&mut self.cur);
        cur.clear();
        let base = id as usize * nb;
        cur.extend_from_slice(&self.boxes[base..base + nb]);
        let moves = self.cfg.cost == Cost::Moves;
        // The node's removal test, when it was popped, may have left its
        // boxes and reach marks (`Searcher::evaluate_popped`).
        if self.kept == id {
            self.kept = NO_NODE;
        } else {
            self.drop_kept();
            self.sp.set(&cur);
            self.sp.reach(b, node.player, moves);
        }
        // Single pushes or pulls, push costs: the parent's region, from
        // which most children's regions follow without a flood
        // (`Space::norm_after_move`), a child found new marked from it.
        let quick = !(self.cfg.box_moves || moves);
        let mut region = std::mem::take(&mut self.parent_region);
        if quick {
            region.clear();
            region.resize(bits::words(b.n), 0);
            for &x in self.sp.reached_cells() {
                bits::set(&mut region, x as usize);
            }
        }
        // Backward search: whether the player's region is open (large, or
        // holding the start player's cell). A child whose pull shuts the
        // player in a pocket is then worth a pocket search.
        let open = self.sp.reached_count() > POCKET_CELLS || self.sp.reached(b.start_player);
        // Whether a child's removal test can be settled by the box it moved
        // (`Space::pushable`, `Space::pull_trapped`): forward, when no box
        // of this node is fixed; backward, when this node passed the pull
        // removal test, as every node but a root did when made. (Lazy and
        // deferred children forward are tested when popped, without it.)
        let settles = match self.way {
            Way::Forward => {
                !(self.cfg.lazy || self.cfg.defer)
                    && (self.sp)
                        .immovable_with_player(b, fwd_dead, &cur, node.player, true)
                        .is_empty()
            }
            Way::Backward => node.parent != NO_NODE,
        };
        self.parent.ready = false;
        self.parent.rows.clear();
        for &c in &cur {
            let sd = side_key(self.side_of(c));
            self.parent.rows.push((c, sd));
        }
        // Deferred children are queued with an estimate: each box seen
        // from no side.
        let estimates = self.estimates();
        if estimates && self.sees_sides() {
            self.est.ready = false;
            self.est.rows.clear();
            self.est
                .rows
                .extend(cur.iter().map(|&c| (c, side_key(None))));
        }
        let cands = self.candidates(&cur, node.player);
        let mut result = Step::Continue;
        let mut child = std::mem::take(&mut self.child);
        let box_moves = self.cfg.box_moves && !moves;
        // With box moves, every move of every box, and the candidate each
        // starts with (`far`, in step with `bm.list`).
        let mut bm = std::mem::take(&mut self.box_moves);
        bm.clear();
        let mut far = std::mem::take(&mut self.far);
        far.clear();
        if box_moves {
            self.sp.cut_floor(b);
            for (bi, &c) in cur.iter().enumerate() {
                let firsts = cands
                    .iter()
                    .filter(|cd| cd.bi as usize == bi)
                    .fold(0u8, |m, cd| m | 1 << cd.d);
                if firsts == 0 {
                    continue;
                }
                let (dead, pull) = match self.way {
                    Way::Forward => (fwd_dead, false),
                    Way::Backward => (&dist.dead[..], true),
                };
                let before = bm.list.len();
                bm.find(b, &mut self.sp, dead, c, node.player, firsts, pull);
                for m in &bm.list[before..] {
                    far.push(Cand {
                        bi: bi as u16,
                        c,
                        d: m.first,
                        walk: 0,
                    });
                }
            }
        }
        if box_moves {
            // Each box move knows its child's region: read every child's
            // table slot now, so that their cache misses overlap instead
            // of coming one lookup at a time.
            self.touch(
                bm.list
                    .iter()
                    .zip(&far)
                    .map(|(m, cd)| child_hash(b, &node, cd.c, m.to, m.norm)),
            );
        }
        let count = if box_moves { far.len() } else { cands.len() };
        for k in 0..count {
            let cd = &if box_moves { far[k] } else { cands[k] };
            let c = cd.c;
            let d = cd.d as usize;
            let (mut to, mut player) = match self.way {
                Way::Forward => (b.nbr[c as usize][d], c),
                Way::Backward => {
                    let p = b.nbr[c as usize][d];
                    (p, b.nbr[p as usize][d])
                }
            };
            let mut mac: Option<Vec<(u16, u8)>> = None;
            // A box move of more than one push, whose pushes make the
            // child's macro unless a goal macro replaces them.
            let mut far_mac = None;
            // The child's normalised player, when the box move knows it: the
            // child's region is then flooded only if the child is new.
            let mut known_norm = None;
            // And the number of regions of its free floor.
            let mut known_regions = None;
            if box_moves {
                let m = &bm.list[k];
                to = m.to;
                player = m.player;
                known_norm = Some(m.norm);
                known_regions = Some(m.regions);
                if m.len > 1 {
                    far_mac = Some(k);
                }
            }
            if self.use_packing {
                let pk = &sh.packing;
                let k = pk.area[to as usize];
                if k != NONE && pk.area[c as usize] != k {
                    // A box enters a goal area: take it to the designated goal.
                    let Some(des) = pk.designated(k, &self.sp.occ) else {
                        continue;
                    };
                    if des != to {
                        self.sp.occ[c as usize] = 0;
                        self.sp.occ[to as usize] = cd.bi + 1;
                        let path = push_path(b, &mut self.sp, fwd_dead, to, c, des);
                        self.sp.occ[to as usize] = 0;
                        self.sp.occ[c as usize] = cd.bi + 1;
                        match path {
                            None => continue,
                            Some(path) => {
                                let mut seq = vec![(c, d as u8)];
                                seq.extend_from_slice(&path);
                                let &(last, _) = seq.last().unwrap_or(&(c, 0));
                                player = last;
                                to = des;
                                known_norm = None;
                                known_regions = None;
                                mac = Some(seq);
                                far_mac = None;
                            }
                        }
                    }
                }
            }
            self.sp.occ[c as usize] = 0;
            self.sp.occ[to as usize] = cd.bi + 1;
            let forward = self.way == Way::Forward;
            let frozen_dead = forward && {
                let (frozen, offgoal) = self.sp.freeze(b, fwd_dead, to);
                frozen && offgoal
            };
            if !frozen_dead {
                child.clear();
                child.extend_from_slice(&cur);
                child[cd.bi as usize] = to;
                settle_sorted(&mut child, cd.bi as usize);
                let settled = match known_norm {
                    None if quick && mac.is_none() => {
                        self.sp.norm_after_move(b, &region, node.player, c, to)
                    }
                    _ => None,
                };
                let norm = match known_norm.or(settled) {
                    Some(n) => n,
                    None => self.sp.reach(b, player, false),
                };
                let p = if moves { player } else { norm };
                let hash = child_hash(b, &node, c, to, p);
                let pushes = match (&mac, far_mac) {
                    (Some(m), _) => m.len() as u32,
                    (None, Some(k)) => bm.list[k].len,
                    (None, None) => 1,
                };
                let g = node.g + if moves { cd.walk as u32 + 1 } else { pushes };
                match self.probe(hash, &child, p) {
                    Ok(old) => {
                        let o = self.nodes[old as usize];
                        let reopen = !matches!(self.cfg.order, Order::Greedy | Order::Fess);
                        if reopen && g < o.g && o.h != DEAD_H {
                            let mac_id = store_macro(&mut self.macros, &mut mac, &mut far_mac);
                            let n = &mut self.nodes[old as usize];
                            n.g = g;
                            n.parent = id;
                            n.from = c;
                            n.dir = d as u8;
                            n.mac = mac_id;
                            n.closed = false;
                            self.enqueue(old, g, o.h);
                        }
                    }
                    Err(at) => {
                        // Dead positions are stored too (never expanded), so
                        // that meeting them again costs one lookup.
                        // A lazy child is tested when popped; a solved one
                        // is never dead, and is a goal now. A deferred
                        // child gets an estimate of its bound now (forward
                        // with one move per advisor: its bound), its
                        // removal test and bound when popped; backward,
                        // one with every box on a start cell, or with one
                        // move per advisor, is tested now.
                        let lazy = self.cfg.lazy;
                        let forward = self.way == Way::Forward;
                        let solved = (lazy || self.cfg.defer)
                            && match forward {
                                true => child.iter().all(|&x| b.is_goal[x as usize]),
                                false => child.iter().all(|&x| self.is_start[x as usize]),
                            };
                        let defer = self.cfg.defer && (forward || (estimates && !solved));
                        // A deferred child backward whose box move found its
                        // region reads only whether it is a pocket: from the
                        // region's size and whether it holds the start, as
                        // the box move counted them, without its cells.
                        let pocket_of_region = match known_norm {
                            Some(_) if defer && !forward && !lazy => {
                                let m = &bm.list[k];
                                Some(is_pocket(open, m.cells as usize, m.at_start))
                            }
                            _ => None,
                        };
                        if pocket_of_region.is_none() && known_norm.is_some() {
                            // The box move found the child's region.
                            self.sp.mark_region(bm.region(b, &self.sp.cuts, k));
                        } else if settled.is_some() {
                            // The parent's region with `c` freed and `to`
                            // taken, as `norm_after_move` found it.
                            let had = bits::has(&region, to as usize);
                            bits::set(&mut region, c as usize);
                            bits::unset(&mut region, to as usize);
                            self.sp.mark_region(&region);
                            bits::unset(&mut region, c as usize);
                            if had {
                                bits::set(&mut region, to as usize);
                            }
                        }
                        let mut pocket = false;
                        let h = if lazy {
                            u32::from(!solved) * node.h.max(1)
                        } else if defer && !forward {
                            // The pocket search, when popped, if this pull
                            // shut the player in a pocket.
                            pocket = pocket_of_region.unwrap_or_else(|| self.in_pocket(open));
                            self.estimate_of_child(&cur, cd.bi, to)
                        } else if defer {
                            // The learned patterns now, as when every child
                            // is tested when made (see `Searcher::evaluate`).
                            match self.prune.learned_dead(&child, player) {
                                true => DEAD_H,
                                false if estimates && !solved => {
                                    self.estimate_of_child(&cur, cd.bi, to)
                                }
                                false => self.bound_of_child(&mut cur, cd.bi, c, to),
                            }
                        } else {
                            let marks = known_regions.is_none();
                            let moved = settles.then_some(to);
                            self.bound_of_new(
                                &mut cur,
                                &child,
                                cd,
                                (to, moved),
                                player,
                                open,
                                marks,
                            )
                        };
                        let mac_id = store_macro(&mut self.macros, &mut mac, &mut far_mac);
                        // Feature-space search: the child's cell, and its
                        // path weight: 1 more than the parent's until the
                        // advisors have seen every child (below).
                        let mut g = g;
                        let mut cell = None;
                        if self.fess.is_some() {
                            g = node.g + 1;
                            // A dead child is never queued: its features
                            // are never read.
                            cell = Some(match h {
                                DEAD_H => (0, self.hot_of(&[])),
                                _ => (self.cell_of(&child, known_regions), self.hot_of(&child)),
                            });
                        }
                        let nid = self.push_node_at(
                            Node {
                                hash,
                                parent: id,
                                g,
                                h,
                                player: p,
                                from: c,
                                dir: d as u8,
                                mac: mac_id,
                                closed: false,
                                pending: (lazy || (defer && h != DEAD_H)) && !solved,
                                pocket,
                            },
                            &child,
                            at,
                        );
                        if let (Some(q), Some((cell, hot))) = (&mut self.fess, cell) {
                            q.cell.push(cell);
                            if let Some(hot) = hot {
                                q.hot.push(hot);
                            }
                        }
                        if h != DEAD_H {
                            let early = !matches!(self.cfg.order, Order::AStar { .. });
                            if early && self.is_goal(nid) {
                                result = Step::Goal(nid);
                            } else if let Some((cell, hot)) = cell {
                                let kid = fess::Child {
                                    id: nid,
                                    cell,
                                    hot,
                                    h,
                                    from: c,
                                    to,
                                    dead: false,
                                };
                                self.kids.push(kid);
                            } else {
                                self.enqueue(nid, g, h);
                            }
                        }
                    }
                }
            }
            self.sp.occ[to as usize] = 0;
            self.sp.occ[c as usize] = cd.bi + 1;
            if matches!(result, Step::Goal(_)) {
                break;
            }
        }
        self.sp.clear(&cur);
        self.cur = cur;
        self.cands = cands;
        self.box_moves = bm;
        self.far = far;
        self.parent_region = region;
        self.child = child;
        self.advise(id);
        result
    }

    /// The pushes (pulls) of the state whose boxes `cur` are set on the
    /// scratch space with the player's reach from `player`, onto cells
    /// that are not dead; forward, PI-corral pruning keeps only a corral's
    /// pushes, or none when the corral is a deadlock.
    fn candidates(&mut self, cur: &[u16], player: u16) -> Vec<Cand> {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let dist = Self::dist_of(&sh, self.way);
        let fwd_dead: &[bool] = &sh.fdist.dead;
        let moves = self.cfg.cost == Cost::Moves;
        let mut cands = std::mem::take(&mut self.cands);
        cands.clear();
        for (bi, &c) in cur.iter().enumerate() {
            let nbr = b.nbr[c as usize];
            for d in 0..4 {
                // Forward: the player stands on the far side, the box goes
                // to `t`. Backward: the player stands on side d, the box
                // comes there and the player steps back to `t`.
                let (p, t) = match self.way {
                    Way::Forward => (nbr[d ^ 1], nbr[d]),
                    Way::Backward => {
                        let p = nbr[d];
                        (
                            p,
                            if p == NONE {
                                NONE
                            } else {
                                b.nbr[p as usize][d]
                            },
                        )
                    }
                };
                if t == NONE || !self.sp.reached(p) || self.sp.occ[t as usize] != 0 {
                    continue;
                }
                let dest = if self.way == Way::Forward { t } else { p };
                if dist.dead[dest as usize] {
                    continue;
                }
                let walk = if moves { self.sp.walk[p as usize] } else { 0 };
                cands.push(Cand {
                    bi: bi as u16,
                    c,
                    d: d as u8,
                    walk,
                });
            }
        }
        if self.way == Way::Forward && self.cfg.pi_corrals && !moves && !cands.is_empty() {
            let packing = if self.use_packing {
                Some(&sh.packing)
            } else {
                None
            };
            let verdict = self.prune.corrals(
                b,
                fwd_dead,
                packing,
                &mut self.sp,
                cur,
                cands.iter().map(|cd| (cd.c, cd.d)),
                player,
            );
            match verdict {
                CorralVerdict::Deadlock => cands.clear(),
                CorralVerdict::Prune(keep) => {
                    cands.retain(|cd| keep.iter().any(|&(c, d)| c == cd.c && d == cd.d));
                }
                CorralVerdict::None => {}
            }
        }
        cands
    }

    /// The bound of a new child (not lazy) that moves box `cd` of `cur`
    /// to `to` (`child`: its boxes, sorted; the scratch space holds them
    /// with the child's reach from `player`), or [`DEAD_H`] when its
    /// removal test proves it dead. `open`: backward, whether the parent's
    /// player region was open (see [`POCKET_CELLS`]). `marks`: whether the
    /// child's reach marks are wanted afterwards (else a backward test
    /// may leave them clobbered when the bound does not read them).
    /// `moved`: `to` again when the child's removal test can be settled
    /// by the box it moved: forward, no box of the parent is fixed
    /// ([`Pruner::stuck_or_sealed_after`]); backward, the parent passed
    /// the pull removal test ([`Space::pull_trapped`]).
    #[allow(clippy::too_many_arguments)]
    fn bound_of_new(
        &mut self,
        cur: &mut [u16],
        child: &[u16],
        cd: &Cand,
        (to, moved): (u16, Option<u16>),
        player: u16,
        open: bool,
        marks: bool,
    ) -> u32 {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let fwd_dead: &[bool] = &sh.fdist.dead;
        let c = cd.c;
        if self.way == Way::Forward {
            return match self.prune.stuck_or_sealed_after(
                b,
                fwd_dead,
                &mut self.sp,
                child,
                player,
                moved,
            ) {
                Verdict::Dead => DEAD_H,
                Verdict::Alive => self.bound_of_child(cur, cd.bi, c, to),
            };
        }
        let pocket = self.in_pocket(open);
        let (trapped, clobbered) = self.pull_dead(child, player, moved, pocket);
        if trapped {
            return DEAD_H;
        }
        if clobbered && (marks || self.sees_sides()) {
            self.sp.reach(b, player, false);
        }
        self.bound_of_child(cur, cd.bi, c, to)
    }

    /// Backward: whether the child just made (on the scratch space, with
    /// its reach marks) shut the player in a pocket, worth a search of
    /// its pulls: a small region away from the start player's cell,
    /// where the parent's region was `open` (see [`POCKET_CELLS`]).
    pub(super) fn in_pocket(&self, open: bool) -> bool {
        let b = &self.sh.board;
        is_pocket(
            open,
            self.sp.reached_count(),
            self.sp.reached(b.start_player),
        )
    }

    /// Backward, the cell of the box the last move of node `id` (its
    /// sorted `boxes`) moved, when its parent passed the pull removal test
    /// (every expanded node but a root did): the moved-box shortcut of
    /// [`Space::pull_trapped`] then holds for it, as for a child tested
    /// when made.
    pub(super) fn moved_box(&self, id: NodeId, boxes: &[u16]) -> Option<u16> {
        let parent = self.nodes[id as usize].parent;
        if parent == NO_NODE || self.nodes[parent as usize].parent == NO_NODE {
            return None;
        }
        added_cell(self.node_boxes(parent), boxes)
    }

    /// Backward: the pull removal test (space.rs) of the position `boxes`
    /// with the player on `player` (on the scratch space, with its reach
    /// marks): a position that can never be pulled back to the start is
    /// dead. Settled by the box on `moved` when given (see
    /// [`Space::pull_trapped`]); then, in a `pocket`, the pocket search.
    /// Whether it is trapped, and whether the reach marks were clobbered.
    pub(super) fn pull_dead(
        &mut self,
        boxes: &[u16],
        player: u16,
        moved: Option<u16>,
        pocket: bool,
    ) -> (bool, bool) {
        let sh = Arc::clone(&self.sh);
        let (b, dead) = (&sh.board, &Self::dist_of(&sh, self.way).dead);
        let (mut trapped, mut clobbered) =
            (self.sp).pull_trapped(b, dead, &self.is_start, boxes, player, true, moved);
        if !trapped && pocket {
            trapped = (self.sp).pocket_trapped(b, dead, boxes, player, POCKET_STATES, POCKET_CELLS);
            // The pocket search leaves its own reach marks.
            clobbered = true;
        }
        (trapped, clobbered)
    }
}

#[cfg(test)]
mod tests {
    use super::settle_sorted;
    use rand::{Rng, SeedableRng};

    #[test]
    fn settling_one_changed_entry_sorts_like_a_full_sort() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..2000 {
            let n = rng.gen_range(1..30);
            let mut v: Vec<u16> = (0..n).map(|_| rng.gen_range(0..200)).collect();
            v.sort_unstable();
            v.dedup();
            let i = rng.gen_range(0..v.len());
            let to = rng.gen_range(0..200);
            if v.contains(&to) && v[i] != to {
                continue;
            }
            v[i] = to;
            let mut want = v.clone();
            want.sort_unstable();
            settle_sorted(&mut v, i);
            assert_eq!(v, want);
        }
    }
}
