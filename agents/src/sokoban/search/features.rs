//! The feature-space search's side of a [`Searcher`]: a state's cell
//! (`fess.rs`), its hotspots, the advisors' choice among the children of
//! an expansion, and the tests and exact bound of a lazy or deferred
//! child once it is popped (or tested early).

use super::*;

impl Searcher {
    /// The feature-space cell of `boxes` (sorted, `occ` set, the player's
    /// region marked unless `regions`, the number of regions of the free
    /// floor, is known).
    pub(super) fn cell_of(&mut self, boxes: &[u16], regions: Option<u32>) -> fess::Cell {
        let b = &self.sh.board;
        // Backward, the packing feature counts the boxes back on cells
        // where boxes start.
        let mut packed = match self.way {
            Way::Forward => boxes.iter().filter(|&&c| b.is_goal[c as usize]).count(),
            Way::Backward => boxes.iter().filter(|&&c| self.is_start[c as usize]).count(),
        };
        if let (Way::Forward, Some(plan)) = (self.way, &self.sh.plan) {
            packed = fess::packing_then(plan.progress(&self.sp.occ), packed);
        }
        let regions = match regions {
            Some(r) => {
                debug_assert_eq!(r, self.sp.regions(b), "regions of a box move");
                r
            }
            None => self.sp.regions_with_reach(b),
        };
        // With more connectivity features, a byte each, the first the
        // highest: forward, the regions, the rooms disconnected, the boxes
        // out of plan; backward near the end, the boxes stranded off the
        // start cells (`strand.rs`), then the regions (see
        // `fess::cell_of`).
        let mut conn = regions.min(255);
        let mut more = false;
        let off = match self.way {
            Way::Backward => boxes.len() - packed,
            Way::Forward => 0,
        };
        if off > 0 && off <= usize::from(self.cfg.stranded) {
            let s = self.stranded.count(b, &self.sp.occ, &self.is_start, boxes);
            conn |= s.min(255) << 8;
            more = true;
        }
        // Backward, then the boxes near an empty start cell (`near.rs`).
        if let Some(near) = &mut self.near {
            let n = near.count(b, &self.sp.occ, &self.is_start, boxes);
            packed = fess::packing_then(packed, n as usize);
        }
        if let (Some(rooms), true) = (&self.sh.rooms, self.cfg.rooms) {
            let cut = rooms.disconnected(b, &self.sp.occ, &mut self.rooms);
            conn = (conn << 8) | cut.min(255);
            more = true;
        }
        if let (Some(oop), true) = (&self.sh.oop, self.cfg.oop) {
            conn = (conn << 8) | oop.count(&self.sp.occ, boxes).min(255);
            more = true;
        }
        fess::cell_of(packed, if more { conn } else { regions })
    }

    /// The number of hotspots among `boxes`, when the hotspot advisor is on.
    pub(super) fn hot_of(&self, boxes: &[u16]) -> Option<u32> {
        match (&self.sh.hot, &self.fess) {
            (Some(t), Some(_)) if self.cfg.hotspots => Some(t.count(&self.sh.board, boxes)),
            _ => None,
        }
    }

    /// Feature-space search: queue the children of node `id` kept in
    /// `kids`, those the advisors recommend (see [`fess::advise`]) at the
    /// parent's path weight, the others at one more.
    ///
    /// Lazy and deferred children ([`Config::lazy`], [`Config::defer`])
    /// are tested when popped, but what the queue's order rests on is
    /// still decided by live children alone, as when every child is
    /// tested when made: a child is tested now when an advisor that
    /// advises one move picks it (one move per advisor, the opener), and
    /// when it would add a cell to the queue or lead it
    /// ([`FessQueue::adds_or_leads`]). Then the queue visits the same
    /// cells in the same order; a child found dead when popped gives its
    /// cell's turn to the next ([`FessQueue::pop_again`]).
    pub(super) fn advise(&mut self, id: NodeId) {
        let Some(q) = &self.fess else {
            return;
        };
        let parent = q.cell[id as usize];
        let parent_hot = q.hot.get(id as usize).copied();
        let mut flags = std::mem::take(&mut self.advised);
        // With one move per advisor, each pick must be alive: a pick found
        // dead is marked so, and the advisors pick again.
        let one = self.cfg.one_advice;
        loop {
            fess::advise(parent, parent_hot, &self.kids, one, &mut flags);
            let dead_pick = one && (0..flags.len()).any(|i| flags[i] && !self.settle(i));
            if !dead_pick {
                break;
            }
        }
        if self.cfg.opener {
            while let Some(i) = self.opener_of(id, parent) {
                if self.settle(i) {
                    flags[i] = true;
                    break;
                }
            }
        }
        let mut kids = std::mem::take(&mut self.kids);
        let g = self.nodes[id as usize].g;
        for (k, &advised) in kids.iter().zip(&flags) {
            let leads = self.fess.as_ref().is_some_and(|q| q.adds_or_leads(k.cell));
            let pending = self.nodes[k.id as usize].pending;
            if k.dead || (pending && leads && !self.evaluate(k.id)) {
                continue;
            }
            let w = g + u32::from(!advised);
            self.nodes[k.id as usize].g = w;
            self.enqueue(k.id, w, self.nodes[k.id as usize].h);
        }
        kids.clear();
        self.kids = kids;
        self.advised = flags;
    }

    /// Child `i` of `kids`, tested now if it is lazy or deferred: whether
    /// it is alive (else it is marked dead in `kids`, and never queued).
    fn settle(&mut self, i: usize) -> bool {
        let kid = self.kids[i].id;
        if self.nodes[kid as usize].pending && !self.evaluate(kid) {
            self.kids[i].dead = true;
            return false;
        }
        self.kids[i].h = self.nodes[kid as usize].h;
        true
    }

    /// The opener's choice among the children of node `id` (cell
    /// `parent`; see [`fess::opener`]), when it acts at the position's
    /// step of the plan it follows and that step's cell is free.
    fn opener_of(&mut self, id: NodeId, parent: fess::Cell) -> Option<usize> {
        let sh = Arc::clone(&self.sh);
        let op = sh.opener.as_ref()?;
        let mut boxes = std::mem::take(&mut self.cur);
        boxes.clear();
        boxes.extend_from_slice(self.node_boxes(id));
        self.sp.set(&boxes);
        let k = op.plan.progress(&self.sp.occ);
        self.sp.clear(&boxes);
        let free = op.plan.steps.get(k).is_some_and(|s| !boxes.contains(&s.0));
        self.cur = boxes;
        let dist = op.dists.get(k)?.as_ref().filter(|_| free)?;
        fess::opener(parent, &self.kids, dist)
    }

    /// A lazy or deferred child popped, or tested early
    /// ([`Config::lazy`], [`Config::defer`]): its removal test and its
    /// bound, as an eager child gets them when it is made (a deferred
    /// child queued with its exact bound, with one move per advisor: its
    /// removal test alone). False (and the node closed, its bound
    /// [`DEAD_H`]) when it is dead.
    pub(super) fn evaluate(&mut self, id: NodeId) -> bool {
        self.evaluate_keeping(id, false)
    }

    /// [`Searcher::evaluate`] of node `id` just popped, to be expanded
    /// next if alive: backward, when the removal test left the node's
    /// reach marks intact, the scratch space keeps its boxes and marks for
    /// the expansion ([`Searcher::kept`]), which then needs no flood of
    /// its own; whoever does not expand it next calls
    /// [`Searcher::drop_kept`].
    pub(super) fn evaluate_popped(&mut self, id: NodeId) -> bool {
        self.evaluate_keeping(id, true)
    }

    /// Clear what [`Searcher::evaluate_popped`] left on the scratch space.
    pub(super) fn drop_kept(&mut self) {
        if self.kept != NO_NODE {
            let i = self.kept as usize * self.nb;
            self.sp.clear(&self.boxes[i..i + self.nb]);
            self.kept = NO_NODE;
        }
    }

    fn evaluate_keeping(&mut self, id: NodeId, keep: bool) -> bool {
        debug_assert_eq!(self.kept, NO_NODE, "the scratch space is clear");
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let mut boxes = std::mem::take(&mut self.cur);
        boxes.clear();
        boxes.extend_from_slice(self.node_boxes(id));
        let player = self.nodes[id as usize].player;
        self.sp.set(&boxes);
        self.sp.reach(b, player, false);
        let dead = &sh.fdist.dead;
        // Whether the reach marks are still the node's.
        let mut intact = false;
        let verdict = match (self.way, self.cfg.defer) {
            // Backward: the pull removal test, and the pocket search if the
            // pull that made it shut the player in a pocket, as in
            // `Searcher::bound_of_new`.
            (Way::Backward, _) => {
                let pocket = self.nodes[id as usize].pocket;
                let moved = self.moved_box(id, &boxes);
                let (trapped, clobbered) = self.pull_dead(&boxes, player, moved, pocket);
                intact = !clobbered;
                match trapped {
                    true => Verdict::Dead,
                    false => Verdict::Alive,
                }
            }
            (Way::Forward, true) => {
                (self.prune).stuck_or_sealed_unlearned(b, dead, &mut self.sp, &boxes, player, None)
            }
            (Way::Forward, false) => {
                self.prune
                    .stuck_or_sealed(b, dead, &mut self.sp, &boxes, player)
            }
        };
        let h = match verdict {
            Verdict::Dead => DEAD_H,
            // A deferred child has its bound already, unless it was
            // queued with an estimate.
            Verdict::Alive if self.cfg.defer && !self.estimates() => self.nodes[id as usize].h,
            Verdict::Alive if self.cfg.defer => self.bound_of_popped(&boxes),
            Verdict::Alive => self.heuristic(&boxes),
        };
        // The expansion floods the player's region without move costs.
        if keep && intact && h != DEAD_H && self.cfg.cost == Cost::Pushes {
            self.kept = id;
        } else {
            self.sp.clear(&boxes);
        }
        self.cur = boxes;
        let n = &mut self.nodes[id as usize];
        n.pending = false;
        n.h = h;
        n.closed = h == DEAD_H;
        h != DEAD_H
    }
}
