//! Scratch space over the floor cells shared by every search of a level:
//! which box stands where ([`Space::occ`]), the player's reachable region
//! ([`Space::reach`]; after one push or pull, often without a flood:
//! [`Space::norm_after_move`]), the freeze-deadlock test ([`Space::freeze`]) and the
//! removal tests that find boxes that can never move again
//! ([`Space::immovable`], [`Space::immovable_with_player`]) or never be
//! pulled again ([`Space::pull_trapped`], for the backward search).

use super::bits;
use super::board::{Board, DOWN, LEFT, NONE, RIGHT, UP};
use super::cut::Cuts;

/// Scratch space over the floor cells: which box stands where, the player's
/// reachable region, and the marks of the freeze test.
pub(crate) struct Space {
    /// `occ[c]`: 1 + index of the box on `c`, or 0.
    pub occ: Vec<u16>,
    /// Reachability marks: `mark[c] == stamp` for reached cells.
    pub mark: Vec<u32>,
    /// The current reachability stamp.
    pub stamp: u32,
    /// Walking distances from the last [`Space::reach`] with `dist` set.
    pub walk: Vec<u16>,
    queue: Vec<u16>,
    wall_mark: Vec<u32>,
    wall_stamp: u32,
    region_mark: Vec<u32>,
    region_stamp: u32,
    /// Scratch for the floods on `region_mark`.
    stack: Vec<u16>,
    /// The floor's cut cells, for box moves ([`Space::cut_floor`]).
    pub cuts: Cuts,
    /// Scratch for the removal tests ([`Space::pull_trapped`],
    /// [`Space::immovable`], [`Space::immovable_with_player`]): the boxes
    /// left or still to look at (`immovable` hands its back), and those
    /// removed with their `occ` values.
    trap_left: Vec<u16>,
    trap_removed: Vec<(u16, u16)>,
    /// The boxes queued by [`Space::immovable_with_player`]:
    /// `queued[c] == queued_stamp`.
    queued: Vec<u32>,
    queued_stamp: u32,
    /// Scratch for [`Space::pocket_trapped`].
    pocket: PocketScratch,
}

/// The buffers of [`Space::pocket_trapped`], kept from one call to the next.
#[derive(Default)]
struct PocketScratch {
    /// The boxes' `occ` values, restored at the end.
    saved: Vec<(u16, u16)>,
    /// The positions found, as flat box lists, and their players.
    states: Vec<u16>,
    players: Vec<u16>,
    /// The positions expanded: their boxes and normalised players.
    seen_boxes: Vec<u16>,
    seen_norm: Vec<u16>,
    /// The position being expanded.
    bx: Vec<u16>,
    /// Its pulls, as box index times 4 plus direction.
    pulls: Vec<u16>,
}

impl Space {
    /// Empty scratch for a board of `n` cells.
    pub fn new(n: usize) -> Space {
        Space {
            occ: vec![0; n],
            mark: vec![0; n],
            stamp: 0,
            walk: vec![0; n],
            queue: Vec::with_capacity(n),
            wall_mark: vec![0; n],
            wall_stamp: 0,
            region_mark: vec![0; n],
            region_stamp: 0,
            stack: Vec::with_capacity(n),
            cuts: Cuts::default(),
            trap_left: Vec::new(),
            trap_removed: Vec::new(),
            queued: vec![0; n],
            queued_stamp: 0,
            pocket: PocketScratch::default(),
        }
    }

    /// Put boxes on these cells.
    pub fn set(&mut self, boxes: &[u16]) {
        for (i, &c) in boxes.iter().enumerate() {
            self.occ[c as usize] = i as u16 + 1;
        }
    }

    /// Remove the boxes on these cells.
    pub fn clear(&mut self, boxes: &[u16]) {
        for &c in boxes {
            self.occ[c as usize] = 0;
        }
    }

    /// Mark the cells the player reaches from `from` with a new stamp (and
    /// record walking distances when `dist` is set). Returns the smallest
    /// reachable cell: the normalised player.
    pub fn reach(&mut self, b: &Board, from: u16, dist: bool) -> u16 {
        self.seed(from);
        if dist {
            self.walk[from as usize] = 0;
        }
        // No limit: the flood always finishes.
        self.flood::<false>(b, dist, 0)
            .map_or(from, |m| m.min(from))
    }

    /// Start a new reach from `from`: a new stamp, `from` marked and queued.
    fn seed(&mut self, from: u16) {
        self.new_reach();
        self.queue.push(from);
        self.mark[from as usize] = self.stamp;
    }

    /// A new reach stamp (no cell marked yet) and an empty queue.
    fn new_reach(&mut self) {
        if self.stamp == u32::MAX {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.queue.clear();
    }

    /// Breadth-first from the queued cells (already marked with the current
    /// stamp) over free cells, marking each and queueing it (with its
    /// walking distance when `dist` is set). Returns the smallest cell
    /// marked by this call (`u16::MAX` if none), or, when `LIMITED`,
    /// `None` as soon as more than `limit` cells are queued (the marks are
    /// then partial). `LIMITED` is a constant so that the unlimited flood
    /// of [`Space::reach`], the solver's hottest loop, has no check.
    fn flood<const LIMITED: bool>(&mut self, b: &Board, dist: bool, limit: usize) -> Option<u16> {
        let st = self.stamp;
        // The tables borrowed once (see `Cuts::search`).
        let (mark, occ, walk) = (&mut self.mark[..], &self.occ[..], &mut self.walk[..]);
        let queue = &mut self.queue;
        let mut min = u16::MAX;
        let mut head = 0;
        while head < queue.len() {
            let x = queue[head];
            head += 1;
            for &y in &b.nbr[x as usize] {
                if y != NONE && mark[y as usize] != st && occ[y as usize] == 0 {
                    mark[y as usize] = st;
                    if dist {
                        walk[y as usize] = walk[x as usize] + 1;
                    }
                    min = min.min(y);
                    queue.push(y);
                    if LIMITED && queue.len() > limit {
                        return None;
                    }
                }
            }
        }
        Some(min)
    }

    /// Into how many regions the boxes cut the free floor, when the reach
    /// marks are those of one region of the board as it is now (the last
    /// [`Space::reach`] or [`Space::mark_region`] was made with these
    /// boxes): that region is counted without a flood. The reach marks
    /// are left alone. (Debug builds count again from scratch and compare.)
    pub fn regions_with_reach(&mut self, b: &Board) -> u32 {
        let n = self.count_regions(b, true);
        debug_assert_eq!(n, self.count_regions(b, false), "stale reach marks");
        n
    }

    /// The number of connected regions of the free floor, each flooded.
    pub fn regions(&mut self, b: &Board) -> u32 {
        self.count_regions(b, false)
    }

    /// The regions of the free floor, flooding all of them, or (`reached`)
    /// all but the one the reach marks hold.
    fn count_regions(&mut self, b: &Board, reached: bool) -> u32 {
        let (st, any) = self.new_region(b, reached);
        let mut count = u32::from(any);
        for c in 0..b.n {
            if self.occ[c] == 0 && self.region_mark[c] != st {
                count += 1;
                self.fill_region(b, c as u16, st);
            }
        }
        count
    }

    /// A new stamp for the region marks, returned; with `reached`, the
    /// cells the reach marks hold get it at once (and the second value
    /// says whether there were any).
    fn new_region(&mut self, b: &Board, reached: bool) -> (u32, bool) {
        if self.region_stamp == u32::MAX {
            self.region_mark.fill(0);
            self.region_stamp = 0;
        }
        self.region_stamp += 1;
        let st = self.region_stamp;
        let mut any = false;
        if reached {
            for c in 0..b.n {
                if self.mark[c] == self.stamp {
                    self.region_mark[c] = st;
                    any = true;
                }
            }
        }
        (st, any)
    }

    /// Mark the free cell `c` and every free cell it leads to with the
    /// region stamp `st`.
    fn fill_region(&mut self, b: &Board, c: u16, st: u32) {
        let mut stack = std::mem::take(&mut self.stack);
        self.region_mark[c as usize] = st;
        stack.clear();
        stack.push(c);
        while let Some(x) = stack.pop() {
            for &y in &b.nbr[x as usize] {
                if y != NONE && self.region_mark[y as usize] != st && self.occ[y as usize] == 0 {
                    self.region_mark[y as usize] = st;
                    stack.push(y);
                }
            }
        }
        self.stack = stack;
    }

    /// Find the cut cells of the free floor as the boxes stand now
    /// ([`Space::cuts`]), for the box moves of every box of the position.
    pub fn cut_floor(&mut self, b: &Board) {
        self.cuts.build(b, &self.occ);
    }

    /// Whether cell `c` was reached by the last [`Space::reach`].
    #[inline]
    pub fn reached(&self, c: u16) -> bool {
        c != NONE && self.mark[c as usize] == self.stamp
    }

    /// Freeze test for the box just moved to `t`: whether it is frozen
    /// (blocked on both axes by walls, by a pair of dead squares, or by other
    /// frozen boxes), and whether some box supporting that is off its goal
    /// (then the position is a freeze deadlock).
    pub fn freeze(&mut self, b: &Board, dead: &[bool], t: u16) -> (bool, bool) {
        if self.wall_stamp == u32::MAX {
            self.wall_mark.fill(0);
            self.wall_stamp = 0;
        }
        self.wall_stamp += 1;
        self.frozen(b, dead, t)
    }

    /// Whether the box on `c` is frozen, and whether a box supporting that
    /// conclusion is off its goal. Boxes on the recursion stack count as
    /// walls (the usual mutual-blocking argument: boxes that each are
    /// blocked by walls or by the others never move).
    fn frozen(&mut self, b: &Board, dead: &[bool], c: u16) -> (bool, bool) {
        self.wall_mark[c as usize] = self.wall_stamp;
        let (v, vo) = self.axis_blocked(b, dead, c, 0, 1);
        let res = if v {
            let (h, ho) = self.axis_blocked(b, dead, c, 2, 3);
            (h, vo || ho || !b.is_goal[c as usize])
        } else {
            (false, false)
        };
        self.wall_mark[c as usize] = 0;
        res
    }

    fn axis_blocked(
        &mut self,
        b: &Board,
        dead: &[bool],
        c: u16,
        da: usize,
        db: usize,
    ) -> (bool, bool) {
        let x = b.nbr[c as usize][da];
        let y = b.nbr[c as usize][db];
        let st = self.wall_stamp;
        if x == NONE
            || y == NONE
            || self.wall_mark[x as usize] == st
            || self.wall_mark[y as usize] == st
        {
            return (true, false);
        }
        if dead[x as usize] && dead[y as usize] {
            return (true, false);
        }
        for z in [x, y] {
            if self.occ[z as usize] != 0 {
                let (f, o) = self.frozen(b, dead, z);
                if f {
                    return (true, o);
                }
            }
        }
        (false, false)
    }

    /// The course report's deadlock test, on the boxes `boxes` (with `occ`
    /// set): repeatedly remove every box that could move along some axis
    /// (both neighbours free, not both dead squares); boxes that remain can
    /// never move, so a remaining box off its goal is a deadlock. `occ` is
    /// restored before returning.
    pub fn stuck_deadlock(&mut self, b: &Board, dead: &[bool], boxes: &[u16]) -> bool {
        self.immovable(b, dead, boxes)
            .iter()
            .any(|&c| !b.is_goal[c as usize])
    }

    /// The removal test with the player: repeatedly remove every box the
    /// player (starting on `player`) can push somewhere that is not a dead
    /// square; removed boxes vanish, which can only open the board up. The
    /// boxes that remain can never be pushed (the real board is never more
    /// open than this relaxed one), so they are walls for good. `occ` must
    /// hold exactly `boxes`; it is restored. When `marked` is set, the reach
    /// marks are already those of `player` on this board. The reach marks
    /// are left as they were: the growing region is kept on marks of its
    /// own, grown from each removed box's cell, so the whole test floods
    /// each cell at most once; and a box is looked at again only when a
    /// cell next to it joined the region (or was freed). The boxes left
    /// come in `boxes`' order.
    pub fn immovable_with_player(
        &mut self,
        b: &Board,
        dead: &[bool],
        boxes: &[u16],
        player: u16,
        marked: bool,
    ) -> Vec<u16> {
        if !marked {
            self.reach(b, player, false);
        }
        // The region: the reach marks, and the cells marked `st` as it grows.
        let (st, _) = self.new_region(b, false);
        let rs = self.stamp;
        if self.queued_stamp == u32::MAX {
            self.queued.fill(0);
            self.queued_stamp = 0;
        }
        self.queued_stamp += 1;
        let qst = self.queued_stamp;
        // The boxes to look at: every box first; then, whenever a box is
        // removed, the boxes next to the cells that join the region (its
        // own cell among them): only those can have become movable.
        let mut todo = std::mem::take(&mut self.trap_left);
        let mut removed = std::mem::take(&mut self.trap_removed);
        let mut stack = std::mem::take(&mut self.stack);
        todo.clear();
        todo.extend_from_slice(boxes);
        removed.clear();
        for &c in boxes {
            self.queued[c as usize] = qst;
        }
        while let Some(c) = todo.pop() {
            self.queued[c as usize] = 0;
            let nbr = b.nbr[c as usize];
            let movable = (0..4).any(|d| {
                let (p, t) = (nbr[d ^ 1], nbr[d]);
                p != NONE
                    && t != NONE
                    && (self.region_mark[p as usize] == st || self.mark[p as usize] == rs)
                    && self.occ[t as usize] == 0
                    && !dead[t as usize]
            });
            if !movable {
                continue;
            }
            removed.push((c, self.occ[c as usize]));
            self.occ[c as usize] = 0;
            // The box's cell joins the region (the player stood next to
            // it), and so does every free cell it leads to.
            self.region_mark[c as usize] = st;
            stack.clear();
            stack.push(c);
            while let Some(x) = stack.pop() {
                for &y in &b.nbr[x as usize] {
                    if y == NONE {
                        continue;
                    }
                    if self.occ[y as usize] != 0 {
                        if self.queued[y as usize] != qst {
                            self.queued[y as usize] = qst;
                            todo.push(y);
                        }
                    } else if self.region_mark[y as usize] != st && self.mark[y as usize] != rs {
                        self.region_mark[y as usize] = st;
                        stack.push(y);
                    }
                }
            }
        }
        let left = boxes
            .iter()
            .copied()
            .filter(|&c| self.occ[c as usize] != 0)
            .collect();
        for &(c, v) in &removed {
            self.occ[c as usize] = v;
        }
        self.trap_left = todo;
        self.trap_removed = removed;
        self.stack = stack;
        left
    }

    /// The boxes that remain after the removal test of
    /// [`Space::stuck_deadlock`]: the ones that can never move.
    pub fn immovable(&mut self, b: &Board, dead: &[bool], boxes: &[u16]) -> Vec<u16> {
        let mut left = std::mem::take(&mut self.trap_left);
        let mut removed = std::mem::take(&mut self.trap_removed);
        left.clear();
        left.extend_from_slice(boxes);
        removed.clear();
        loop {
            let before = left.len();
            let mut i = 0;
            while i < left.len() {
                let c = left[i] as usize;
                let free = |s: &Space, z: u16| z != NONE && s.occ[z as usize] == 0;
                let movable = (0..2).any(|axis| {
                    let x = b.nbr[c][2 * axis];
                    let y = b.nbr[c][2 * axis + 1];
                    free(self, x) && free(self, y) && !(dead[x as usize] && dead[y as usize])
                });
                if movable {
                    removed.push((left[i], self.occ[c]));
                    self.occ[c] = 0;
                    left.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if left.len() == before {
                break;
            }
        }
        for &(c, v) in &removed {
            self.occ[c as usize] = v;
        }
        self.trap_removed = removed;
        left
    }

    /// The removal test of the backward search (pulls). Repeatedly remove
    /// every box the player (starting on `player`) can pull onto a cell
    /// that is not `dead`; removed boxes vanish, which can only open the
    /// board up, so the boxes that remain can never be pulled, and the
    /// player never gets beyond the last region found. The position can
    /// never be pulled back to the start when a box that remains is off its
    /// start cell (`is_start`) or when that region misses the start player's
    /// cell.
    /// `occ` must hold exactly `boxes`; it is restored. When `marked` is
    /// set, the reach marks are already those of `player` on this board.
    /// The second value tells whether the marks were recomputed (on a more
    /// open board).
    ///
    /// `moved`: the cell of the box just moved, when the position before
    /// that move passed this test. The position then passes too as soon as
    /// that box can be pulled from where it stands: once it is removed,
    /// every other box is one the position before had, and the region holds
    /// that position's region (the box's path joins the two), so that
    /// position's removals all follow.
    #[allow(clippy::too_many_arguments)]
    pub fn pull_trapped(
        &mut self,
        b: &Board,
        dead: &[bool],
        is_start: &[bool],
        boxes: &[u16],
        player: u16,
        marked: bool,
        moved: Option<u16>,
    ) -> (bool, bool) {
        let start_player = b.start_player;
        if !marked {
            self.reach(b, player, false);
        }
        debug_assert!(moved.is_none_or(|c| self.occ[c as usize] != 0));
        if moved.is_some_and(|c| self.pullable(b, dead, c)) {
            return (false, !marked);
        }
        let mut left = std::mem::take(&mut self.trap_left);
        let mut removed = std::mem::take(&mut self.trap_removed);
        left.clear();
        left.extend_from_slice(boxes);
        removed.clear();
        // Boxes left off their start cells: none, with the start player's
        // cell reached, means the test cannot fail any more.
        let mut off = left.iter().filter(|&&c| !is_start[c as usize]).count();
        loop {
            if off == 0 && self.reached(start_player) {
                break;
            }
            let before = left.len();
            let mut i = 0;
            while i < left.len() {
                let c = left[i];
                if self.pullable(b, dead, c) {
                    removed.push((c, self.occ[c as usize]));
                    self.occ[c as usize] = 0;
                    left.swap_remove(i);
                    off -= usize::from(!is_start[c as usize]);
                    // The region only grows: flood on from the freed cell.
                    self.grow(b, c);
                } else {
                    i += 1;
                }
            }
            if left.len() == before {
                break;
            }
        }
        let trapped = off > 0 || !self.reached(start_player);
        let clobbered = !removed.is_empty() || !marked;
        for &(c, v) in &removed {
            self.occ[c as usize] = v;
        }
        self.trap_left = left;
        self.trap_removed = removed;
        (trapped, clobbered)
    }

    /// Whether the box on `c` can be pushed now, onto a free cell that is
    /// not `dead`, by the player in its reach marks. When no box of the
    /// position before the move that brought it to `c` was fixed (see
    /// [`Space::immovable_with_player`]), none is fixed now either: once
    /// this box is removed, every other box is one that position had, and
    /// the region holds that position's region (the box's path joins the
    /// two), so that position's removals all follow.
    pub fn pushable(&self, b: &Board, dead: &[bool], c: u16) -> bool {
        debug_assert!(self.occ[c as usize] != 0);
        let nbr = b.nbr[c as usize];
        (0..4).any(|d| {
            let (p, t) = (nbr[d ^ 1], nbr[d]);
            p != NONE
                && t != NONE
                && self.reached(p)
                && self.occ[t as usize] == 0
                && !dead[t as usize]
        })
    }

    /// Whether the box on `c` can be pulled now, onto a cell that is not
    /// `dead`: the player stands on a reached cell `p` next to it, steps
    /// back onto a reached cell `t`, and the box follows onto `p`.
    fn pullable(&self, b: &Board, dead: &[bool], c: u16) -> bool {
        let nbr = b.nbr[c as usize];
        (0..4).any(|d| {
            let p = nbr[d];
            p != NONE && !dead[p as usize] && self.reached(p) && {
                let t = b.nbr[p as usize][d];
                t != NONE && self.reached(t)
            }
        })
    }

    /// Whether the player, shut in a small pocket, can never pull its way
    /// out: every position reachable by pulls from `boxes` with the player
    /// on `player` (at most `max_states` of them) keeps the player in a
    /// region of at most `max_region` cells and is not the start. `false`
    /// when that is not settled within the limits. `occ` must hold exactly
    /// `boxes`; it is restored (the reach marks are not).
    pub fn pocket_trapped(
        &mut self,
        b: &Board,
        dead: &[bool],
        boxes: &[u16],
        player: u16,
        max_states: usize,
        max_region: usize,
    ) -> bool {
        let nb = boxes.len();
        let mut pk = std::mem::take(&mut self.pocket);
        pk.saved.clear();
        pk.saved
            .extend(boxes.iter().map(|&c| (c, self.occ[c as usize])));
        self.clear(boxes);
        // Positions as flat box lists (`nb` cells each) and their players.
        pk.states.clear();
        pk.states.extend_from_slice(boxes);
        pk.players.clear();
        pk.players.push(player);
        pk.seen_boxes.clear();
        pk.seen_norm.clear();
        let mut head = 0;
        let mut trapped = true;
        while head < pk.players.len() {
            pk.bx.clear();
            pk.bx
                .extend_from_slice(&pk.states[head * nb..(head + 1) * nb]);
            let pl = pk.players[head];
            head += 1;
            self.set(&pk.bx);
            let norm = self.reach_bounded(b, pl, max_region);
            let at_start = norm.is_some() && pk.bx == b.start_boxes && self.reached(b.start_player);
            let Some(norm) = norm.filter(|_| !at_start) else {
                self.clear(&pk.bx);
                trapped = false;
                break;
            };
            // Seen before: the same boxes with the same region.
            let seen = (0..pk.seen_norm.len()).any(|k| {
                pk.seen_norm[k] == norm && pk.seen_boxes[k * nb..(k + 1) * nb] == pk.bx[..]
            });
            if !seen {
                pk.seen_norm.push(norm);
                pk.seen_boxes.extend_from_slice(&pk.bx);
                // The pulls, found from the region's few cells: the player
                // on `p` (not dead) next to box `i` in direction `d` steps
                // on to `t`, and the box follows onto `p`. Made in the
                // order of the boxes, then of the directions.
                pk.pulls.clear();
                for &p in &self.queue {
                    if dead[p as usize] {
                        continue;
                    }
                    let nbr = b.nbr[p as usize];
                    for d in 0..4 {
                        let c = nbr[d ^ 1];
                        let t = nbr[d];
                        if c != NONE && t != NONE && self.occ[c as usize] != 0 && self.reached(t) {
                            pk.pulls.push((self.occ[c as usize] - 1) * 4 + d as u16);
                        }
                    }
                }
                pk.pulls.sort_unstable();
                for &k in &pk.pulls {
                    let (i, d) = (usize::from(k / 4), usize::from(k % 4));
                    let p = b.nbr[pk.bx[i] as usize][d];
                    let at = pk.states.len();
                    pk.states.extend_from_slice(&pk.bx);
                    pk.states[at + i] = p;
                    pk.states[at..].sort_unstable();
                    pk.players.push(b.nbr[p as usize][d]);
                }
            }
            self.clear(&pk.bx);
            if pk.players.len() > max_states {
                trapped = false;
                break;
            }
        }
        for &(c, v) in &pk.saved {
            self.occ[c as usize] = v;
        }
        self.pocket = pk;
        trapped
    }

    /// [`Space::reach`] that gives up (`None`) once more than `limit` cells
    /// are reached; the marks are then partial.
    fn reach_bounded(&mut self, b: &Board, from: u16, limit: usize) -> Option<u16> {
        self.seed(from);
        self.flood::<true>(b, false, limit).map(|m| m.min(from))
    }

    /// The number of cells the last [`Space::reach`] marked.
    pub fn reached_count(&self) -> usize {
        self.queue.len()
    }

    /// The cells reached by the last [`Space::reach`] (or marked by
    /// [`Space::mark_region`]).
    pub fn reached_cells(&self) -> &[u16] {
        &self.queue
    }

    /// Mark the cells of `region` (a bit per cell, 64 a word) as reached,
    /// as [`Space::reach`] would from any of them: a region found before
    /// with the same boxes, without a new flood.
    pub fn mark_region(&mut self, region: &[u64]) {
        self.new_reach();
        for (w, &word) in region.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let c = (w * 64 + bits.trailing_zeros() as usize) as u16;
                bits &= bits - 1;
                self.mark[c as usize] = self.stamp;
                self.queue.push(c);
            }
        }
    }

    /// The normalised player (the smallest cell of the player's region)
    /// after one box left `freed` for `taken`, from the region before the
    /// move (`region`, a bit per cell; its smallest cell `min`), when a
    /// look around the two cells settles it; `None` when a flood must.
    /// Settled when every free neighbour of `freed` lies in the old region,
    /// and `taken` either lay outside it or lay in it (not as its smallest
    /// cell) with its free neighbours joined around it
    /// ([`Space::ring_joined`]): the new region is then the old one with
    /// `freed` added and `taken` taken out. `occ` must hold the boxes after
    /// the move; the reach marks are not touched.
    pub fn norm_after_move(
        &self,
        b: &Board,
        region: &[u64],
        min: u16,
        freed: u16,
        taken: u16,
    ) -> Option<u16> {
        let outside =
            |y: u16| y != NONE && self.occ[y as usize] == 0 && !bits::has(region, y as usize);
        if b.nbr[freed as usize].iter().any(|&y| outside(y)) {
            return None;
        }
        if bits::has(region, taken as usize) && (taken == min || !self.ring_joined(b, taken)) {
            return None;
        }
        Some(min.min(freed))
    }

    /// Whether the free neighbours of `c` are joined around it: all of
    /// them in one run of free cells of the ring of eight cells about `c`
    /// (neighbours in the ring are next to each other), so that a box on
    /// `c` cuts no path between free cells, which can go round it.
    fn ring_joined(&self, b: &Board, c: u16) -> bool {
        const ROUND: [usize; 4] = [UP, RIGHT, DOWN, LEFT];
        let n = b.nbr[c as usize];
        let free = |y: u16| y != NONE && self.occ[y as usize] == 0;
        // The ring from the cell above, clockwise: even places are the
        // neighbours, odd places the corners between them (a corner
        // between two walls joins nothing, whatever it is).
        let mut ring = [false; 8];
        for i in 0..4 {
            let (a, d) = (ROUND[i], ROUND[(i + 1) % 4]);
            ring[2 * i] = free(n[a]);
            let corner = match (n[a], n[d]) {
                (x, _) if x != NONE => b.nbr[x as usize][d],
                (_, y) if y != NONE => b.nbr[y as usize][a],
                _ => NONE,
            };
            ring[2 * i + 1] = free(corner);
        }
        let Some(gap) = (0..8).find(|&i| !ring[i]) else {
            return true;
        };
        // Runs of free ring cells that hold a neighbour of `c`.
        let (mut runs, mut neighbour) = (0, false);
        for k in 1..=8 {
            let i = (gap + k) % 8;
            if ring[i] {
                neighbour |= i % 2 == 0;
            } else {
                runs += u32::from(neighbour);
                neighbour = false;
            }
        }
        runs <= 1
    }

    /// Add the free cell `c`, next to the reached region, and every free
    /// cell it leads to, to the reach marks.
    fn grow(&mut self, b: &Board, c: u16) {
        if self.mark[c as usize] == self.stamp {
            return;
        }
        self.mark[c as usize] = self.stamp;
        self.queue.clear();
        self.queue.push(c);
        self.flood::<false>(b, false, 0);
    }
}

#[cfg(test)]
#[path = "space_tests.rs"]
mod tests;
