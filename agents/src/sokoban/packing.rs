//! Goal areas, their packing orders, and single-box push/pull paths.
//!
//! A *goal area* is a 4-connected set of two or more goal cells. Its
//! *packing order* is found backwards, as in Rolling Stone's goal macros and
//! YASS's packing-order search: start with a box on every goal of the area
//! (and no other box), and repeatedly take out a box that can be pulled,
//! alone, to a cell outside the area; a box taken out disappears. Taking a
//! box out only frees space, so any box that can leave now can still leave
//! later and the greedy order never gets stuck where another would not. The
//! fill order is the reverse: the last box out is the first one in. When
//! some box can never leave, the area gets no order.
//!
//! The search uses the order as a *goal macro*: a push that brings a box
//! into an area from outside is replaced by the pushes that take it all the
//! way to the area's *designated* goal (the first empty goal in fill order),
//! and dropped if the box cannot get there. This is not admissible (it can
//! cut solutions), so only the `greedy` method uses it, time-sliced with a
//! plain greedy search that keeps the proofs.

use super::bits;
use super::board::{Board, NONE};
use super::cut::{BoxView, Cuts, ViewKey, NO_PIECE};
use super::space::Space;
use std::collections::HashSet;

/// The packing orders of a board's goal areas.
#[derive(Clone, Debug, Default)]
pub(crate) struct Packing {
    /// `area[c]`: the area (index into `orders`) of goal cell `c`, or
    /// [`NONE`] for cells outside every ordered area.
    pub area: Vec<u16>,
    /// The fill order of each ordered area, first goal to fill first.
    pub orders: Vec<Vec<u16>>,
}

impl Packing {
    /// Find the goal areas of `b` and their packing orders.
    pub fn new(b: &Board) -> Packing {
        let n = b.n;
        let mut comp = vec![NONE; n];
        let mut areas: Vec<Vec<u16>> = Vec::new();
        for &g in &b.goals {
            if comp[g as usize] != NONE {
                continue;
            }
            let id = areas.len() as u16;
            let mut cells = vec![g];
            comp[g as usize] = id;
            let mut i = 0;
            while i < cells.len() {
                let x = cells[i];
                i += 1;
                for &y in &b.nbr[x as usize] {
                    if y != NONE && b.is_goal[y as usize] && comp[y as usize] == NONE {
                        comp[y as usize] = id;
                        cells.push(y);
                    }
                }
            }
            areas.push(cells);
        }
        let mut area = vec![NONE; n];
        let mut orders = Vec::new();
        let mut sp = Space::new(n);
        for cells in areas {
            if cells.len() < 2 {
                continue;
            }
            let inside: Vec<bool> = (0..n).map(|c| cells.contains(&(c as u16))).collect();
            if let Some(order) = fill_order(b, &mut sp, &cells, &inside) {
                let k = orders.len() as u16;
                for &c in &cells {
                    area[c as usize] = k;
                }
                orders.push(order);
            }
        }
        Packing { area, orders }
    }

    /// Whether any area has an order.
    pub fn is_empty(&self) -> bool {
        self.orders.is_empty()
    }

    /// The designated goal of area `k`: its first empty goal in fill order
    /// (`occ` marks boxes).
    pub fn designated(&self, k: u16, occ: &[u16]) -> Option<u16> {
        self.orders[k as usize]
            .iter()
            .copied()
            .find(|&g| occ[g as usize] == 0)
    }
}

/// The fill order of one area, or `None` if some box can never leave it.
fn fill_order(b: &Board, sp: &mut Space, cells: &[u16], inside: &[bool]) -> Option<Vec<u16>> {
    let mut left: Vec<u16> = cells.to_vec();
    let mut out: Vec<u16> = Vec::new();
    sp.set(&left);
    while !left.is_empty() {
        let pos = left
            .iter()
            .position(|&g| can_leave(b, sp, g, |c| !inside[c as usize]));
        let Some(i) = pos else {
            sp.clear(&left);
            return None;
        };
        let g = left.swap_remove(i);
        sp.occ[g as usize] = 0;
        // Re-index the remaining boxes (occ stores 1 + index).
        sp.set(&left);
        out.push(g);
    }
    out.reverse();
    Some(out)
}

/// Whether the box on `from` (present in `sp.occ`) can be pulled alone
/// (other boxes fixed) to a cell where `done` holds, the player starting on
/// any free side of it. `sp.occ` is unchanged afterwards.
pub(crate) fn can_leave(b: &Board, sp: &mut Space, from: u16, done: impl Fn(u16) -> bool) -> bool {
    (0..4).any(|d| {
        let p = b.nbr[from as usize][d];
        p != NONE && sp.occ[p as usize] == 0 && pull_out(b, sp, from, p, &done)
    })
}

/// Whether the box on `from` (present in `sp.occ`), with the player on
/// `player`, can be pulled alone (other boxes fixed) to a cell where `done`
/// holds. `sp.occ` is unchanged afterwards.
fn pull_out(b: &Board, sp: &mut Space, from: u16, player: u16, done: impl Fn(u16) -> bool) -> bool {
    let tag = sp.occ[from as usize];
    sp.occ[from as usize] = 0;
    let mut seen: HashSet<(u16, u16)> = HashSet::from([(from, player)]);
    let mut queue = vec![(from, player)];
    let mut found = false;
    let mut head = 0;
    while head < queue.len() {
        let (bx, pl) = queue[head];
        head += 1;
        sp.occ[bx as usize] = tag;
        sp.reach(b, pl, false);
        sp.occ[bx as usize] = 0;
        for d in 0..4 {
            let p = b.nbr[bx as usize][d];
            if p == NONE || !sp.reached(p) {
                continue;
            }
            let q = b.nbr[p as usize][d];
            if q == NONE || sp.occ[q as usize] != 0 {
                continue;
            }
            if done(p) {
                found = true;
                break;
            }
            if seen.insert((p, q)) {
                queue.push((p, q));
            }
        }
        if found {
            break;
        }
    }
    sp.occ[from as usize] = tag;
    found
}

/// The shortest (in pushes) way to push the box on `from` to `to` with the
/// player on `player` and the other boxes fixed (`sp.occ` holds every box,
/// including this one); `None` if there is none. A push never enters a dead
/// square. `sp.occ` is unchanged afterwards; the reach marks are not.
pub(crate) fn push_path(
    b: &Board,
    sp: &mut Space,
    dead: &[bool],
    from: u16,
    player: u16,
    to: u16,
) -> Option<Vec<(u16, u8)>> {
    let tag = sp.occ[from as usize];
    sp.occ[from as usize] = 0;
    // State: (box cell, player cell next to it); parent index and push.
    let mut states: Vec<(u16, u16, u32, u8)> = vec![(from, player, u32::MAX, 0)];
    let mut seen: HashSet<(u16, u16)> = HashSet::from([(from, player)]);
    let mut goal = None;
    let mut head = 0;
    if from == to {
        goal = Some(0);
    }
    while goal.is_none() && head < states.len() {
        let (bx, pl, _, _) = states[head];
        sp.occ[bx as usize] = tag;
        sp.reach(b, pl, false);
        sp.occ[bx as usize] = 0;
        for d in 0..4 {
            let p = b.nbr[bx as usize][d ^ 1];
            let t = b.nbr[bx as usize][d];
            if p == NONE
                || t == NONE
                || !sp.reached(p)
                || sp.occ[t as usize] != 0
                || dead[t as usize]
            {
                continue;
            }
            if seen.insert((t, bx)) {
                states.push((t, bx, head as u32, d as u8));
                if t == to {
                    goal = Some(states.len() - 1);
                    break;
                }
            }
        }
        head += 1;
    }
    sp.occ[from as usize] = tag;
    let mut i = goal?;
    let mut out = Vec::new();
    while states[i].2 != u32::MAX {
        let (_, _, parent, d) = states[i];
        out.push((states[parent as usize].0, d));
        i = parent as usize;
    }
    out.reverse();
    Some(out)
}

/// Whether some box can be pushed alone from `from` to `to`, the player
/// starting next to it and the other boxes in `sp.occ` fixed: the tests'
/// independent forward check of what pulls claim. `sp.occ` is unchanged
/// afterwards.
#[cfg(test)]
pub(crate) fn pushable(b: &Board, sp: &mut Space, from: u16, to: u16) -> bool {
    let none = vec![false; b.n];
    let was = sp.occ[from as usize];
    sp.occ[from as usize] = 1;
    let ok = (0..4).any(|d| {
        let p = b.nbr[from as usize][d];
        p != NONE && sp.occ[p as usize] == 0 && push_path(b, sp, &none, from, p, to).is_some()
    });
    sp.occ[from as usize] = was;
    ok
}

/// A place the box on some cell can be pushed to (see [`box_destinations`]),
/// its pushes and region its own (the tests' view of [`BoxMoves`]).
#[cfg(test)]
pub(crate) struct BoxMove {
    /// The box's new cell.
    pub to: u16,
    /// The player's cell after the last push (the box's cell before it).
    pub player: u16,
    /// The player's region there, normalised (its smallest cell).
    pub norm: u16,
    /// The pushes, `(box cell, direction)` each, first push first.
    pub pushes: Vec<(u16, u8)>,
    /// The player's region there, a bit per floor cell (64 a word), for
    /// [`Space::mark_region`].
    pub region: Vec<u64>,
    /// The number of connected regions of the free floor there.
    pub regions: u32,
}

/// Every cell the box on `c` can be pushed to, with every player region it
/// can end up with there: a breadth-first search over the pushes of that
/// box alone, the other boxes fixed (`sp.occ` holds every box, this one
/// included), the player starting in the region normalised to `player`.
/// The first push goes in one of the directions `firsts`; no push enters a
/// dead square. `sp.occ` is unchanged afterwards; the reach marks are not.
#[cfg(test)]
pub(crate) fn box_destinations(
    b: &Board,
    sp: &mut Space,
    dead: &[bool],
    c: u16,
    player: u16,
    firsts: &[u8],
) -> Vec<BoxMove> {
    let mut found = BoxMoves::default();
    sp.cut_floor(b);
    found.find(b, sp, dead, c, player, directions(firsts), false);
    found.owned(b, &sp.cuts)
}

/// Every cell the box on `c` can be *pulled* to, with every player region
/// it can end up with there (the backward search's box moves): a
/// breadth-first search over the pulls of that box alone, the other boxes
/// fixed (`sp.occ` holds every box, this one included), the player
/// starting in the region normalised to `player`. The first pull goes in
/// one of the directions `firsts`; no pull brings the box onto a `dead`
/// cell. Each move's `pushes` are the pulls, `(box cell, direction)` each;
/// its `player` is where the player stands after the last pull. `sp.occ`
/// is unchanged afterwards; the reach marks are not.
#[cfg(test)]
pub(crate) fn box_pull_destinations(
    b: &Board,
    sp: &mut Space,
    dead: &[bool],
    c: u16,
    player: u16,
    firsts: &[u8],
) -> Vec<BoxMove> {
    let mut found = BoxMoves::default();
    sp.cut_floor(b);
    found.find(b, sp, dead, c, player, directions(firsts), true);
    found.owned(b, &sp.cuts)
}

/// The directions `ds` as a mask, bit d for direction d.
#[cfg(test)]
fn directions(ds: &[u8]) -> u8 {
    ds.iter().fold(0, |m, &d| m | 1 << d)
}

/// A move found by [`BoxMoves::find`]: as a [`BoxMove`], but its pushes
/// and region stay in the buffers ([`BoxMoves::pushes`],
/// [`BoxMoves::region`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found {
    /// The box's new cell.
    pub to: u16,
    /// The player's cell after the last push or pull.
    pub player: u16,
    /// The player's region there, normalised (its smallest cell).
    pub norm: u16,
    /// The number of connected regions of the free floor there.
    pub regions: u32,
    /// The direction of the first push (pull).
    pub first: u8,
    /// The number of pushes (pulls).
    pub len: u32,
    /// The number of cells of the player's region there.
    pub cells: u16,
    /// Pulls: whether that region holds the level's start player cell.
    pub at_start: bool,
    /// Its state in [`BoxMoves`]' search.
    state: u32,
    /// The view of its box's search (an index into [`BoxMoves`]' views)
    /// and the player's piece there, which name the player's region.
    view: u32,
    piece: u8,
}

/// A state of a one-box search: the box's cell, the parent state
/// ([`u32::MAX`] for the first), the direction that led here, the moves
/// the box can make on (bit d: direction d), and the first direction and
/// number of moves from the first state.
#[derive(Clone, Copy, Debug)]
struct BoxState {
    at: u16,
    parent: u32,
    d: u8,
    mask: u8,
    first: u8,
    len: u32,
}

/// The box moves of one expansion, every box's ([`BoxMoves::find`] appends
/// a box's), in buffers kept from one expansion to the next: no move owns
/// an allocation, and its pushes and its region's cells are found only
/// when asked for.
#[derive(Default)]
pub(crate) struct BoxMoves {
    /// The moves found, in the order found.
    pub list: Vec<Found>,
    /// The states of the one-box searches.
    states: Vec<BoxState>,
    /// The view of each box's search, to find a move's region when asked
    /// ([`BoxMoves::region`]): a child met before never needs it, and a
    /// backward one only needs its size and whether it holds the start.
    views: Vec<ViewKey>,
    /// The region last asked for, a bit per cell.
    region: Vec<u64>,
    /// The pieces found for each box cell, a bit each (all 0 between
    /// searches).
    seen: Vec<u8>,
}

impl BoxMoves {
    /// Forget every move found.
    pub fn clear(&mut self) {
        self.list.clear();
        self.states.clear();
        self.views.clear();
    }

    /// Append the pushes (pulls) of `m`, `(box cell, direction)` each,
    /// first one first, to `out`.
    pub fn pushes(&self, m: &Found, out: &mut Vec<(u16, u8)>) {
        let at = out.len();
        let mut x = m.state as usize;
        while self.states[x].parent != u32::MAX {
            let parent = self.states[x].parent as usize;
            out.push((self.states[parent].at, self.states[x].d));
            x = parent;
        }
        out[at..].reverse();
    }

    /// The player's region after the move `k` of the list, a bit per
    /// floor cell, for [`Space::mark_region`]. `cuts` must be the ones the
    /// move was found with ([`Space::cuts`], until the next
    /// [`Space::cut_floor`]).
    pub fn region(&mut self, b: &Board, cuts: &Cuts, k: usize) -> &[u64] {
        let m = self.list[k];
        self.region.resize(bits::words(b.n), 0);
        let view = cuts.view_of(self.views[m.view as usize]);
        view.look(b, m.to).region(b, m.piece, &mut self.region);
        &self.region
    }

    /// The moves found, each owning its pushes and region.
    #[cfg(test)]
    fn owned(&mut self, b: &Board, cuts: &Cuts) -> Vec<BoxMove> {
        (0..self.list.len())
            .map(|k| {
                let m = self.list[k];
                let mut pushes = Vec::new();
                self.pushes(&m, &mut pushes);
                BoxMove {
                    to: m.to,
                    player: m.player,
                    norm: m.norm,
                    pushes,
                    region: self.region(b, cuts, k).to_vec(),
                    regions: m.regions,
                }
            })
            .collect()
    }

    /// Append the moves of the box on `c` whose first move goes in one of
    /// the directions `firsts` (bit d: direction d), as
    /// [`box_destinations`] finds them when `pull` is false and
    /// [`box_pull_destinations`] when it is true: a move
    /// in direction `d` takes the box on `x` to `nbr[x][d]`. A push needs
    /// the player on the box's other side and the new cell free; a pull
    /// needs the player on the new cell and a free cell behind it, onto
    /// which the player steps. The floor's cut cells must be those of the
    /// boxes as they stand ([`Space::cut_floor`]).
    #[allow(clippy::too_many_arguments)]
    pub fn find(
        &mut self,
        b: &Board,
        sp: &mut Space,
        dead: &[bool],
        c: u16,
        player: u16,
        firsts: u8,
        pull: bool,
    ) {
        let tag = sp.occ[c as usize];
        // With the box taken off, the player's regions as it moves follow
        // from the floor's cut cells (`cut.rs`): no flood per cell.
        sp.occ[c as usize] = 0;
        let cuts = std::mem::take(&mut sp.cuts);
        let view = cuts.view(b, &sp.occ, c);
        #[cfg(debug_assertions)]
        let at = self.list.len();
        self.walk(b, sp, dead, &view, c, player, firsts, pull);
        sp.cuts = cuts;
        // Debug builds flood each move's region and compare.
        #[cfg(debug_assertions)]
        {
            let mut fresh = Space::new(b.n);
            fresh.occ.copy_from_slice(&sp.occ);
            for k in at..self.list.len() {
                let m = self.list[k];
                fresh.occ[m.to as usize] = tag;
                let norm = fresh.reach(b, m.player, false);
                assert_eq!(norm, m.norm, "box {c} to {}", m.to);
                assert_eq!(fresh.reached_count(), m.cells as usize);
                if pull {
                    assert_eq!(fresh.reached(b.start_player), m.at_start);
                }
                let region = self.region(b, &sp.cuts, k);
                for x in 0..b.n {
                    assert_eq!(bits::has(region, x), fresh.reached(x as u16), "cell {x}");
                }
                assert_eq!(fresh.regions(b), m.regions, "box {c} to {}", m.to);
                fresh.occ[m.to as usize] = 0;
            }
        }
        sp.occ[c as usize] = tag;
    }

    /// The search of [`BoxMoves::find`] over the cells of the box taken
    /// off `c` (`sp.occ[c]` is 0) and the player's regions, as `view`
    /// tells them.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        b: &Board,
        sp: &Space,
        dead: &[bool],
        view: &BoxView,
        c: u16,
        player: u16,
        firsts: u8,
        pull: bool,
    ) {
        // The moves the box on `at` can make (bit d: direction d), the
        // player in `piece`, `around` the pieces of `at`'s neighbours
        // ([`BoxView::around`]).
        let movable = |at: u16, piece: u8, around: &[u8; 4]| {
            (0..4).fold(0u8, |m, d| {
                let t = b.nbr[at as usize][d];
                let ok = t != NONE
                    && !dead[t as usize]
                    && if pull {
                        let behind = b.nbr[t as usize][d];
                        around[d] == piece && behind != NONE && sp.occ[behind as usize] == 0
                    } else {
                        around[d ^ 1] == piece && sp.occ[t as usize] == 0
                    };
                m | (u8::from(ok) << d)
            })
        };
        let Some(piece) = view.piece(b, c, player) else {
            return;
        };
        let view_id = self.views.len() as u32;
        self.views.push(view.key());
        self.seen.resize(b.n, 0);
        let first = firsts & movable(c, piece, &view.around(b, c));
        let root = self.states.len();
        self.states.push(BoxState {
            at: c,
            parent: u32::MAX,
            d: 0,
            mask: first,
            first: 0,
            len: 0,
        });
        self.seen[c as usize] = 1 << piece;
        let mut head = root;
        while head < self.states.len() {
            let s = self.states[head];
            for d in 0..4u8 {
                if s.mask & (1 << d) == 0 {
                    continue;
                }
                let t = b.nbr[s.at as usize][d as usize];
                // The player after the move stands next to `t`, in
                // direction `pd`: behind it after a push (on `s.at`), in
                // front of it after a pull.
                let pd = if pull { d } else { d ^ 1 } as usize;
                let look = view.look(b, t);
                let around = look.around(b);
                let piece = around[pd];
                if piece == NO_PIECE {
                    continue;
                }
                if self.seen[t as usize] & (1 << piece) != 0 {
                    continue;
                }
                self.seen[t as usize] |= 1 << piece;
                let player = b.nbr[t as usize][pd];
                let mask = movable(t, piece, &around);
                let (norm, cells) = look.extent(b, piece);
                let at_start = pull && look.piece(b.start_player) == Some(piece);
                let i = self.states.len() as u32;
                let (first, len) = (if head == root { d } else { s.first }, s.len + 1);
                self.states.push(BoxState {
                    at: t,
                    parent: head as u32,
                    d,
                    mask,
                    first,
                    len,
                });
                self.list.push(Found {
                    to: t,
                    player,
                    norm,
                    regions: look.regions(),
                    first,
                    len,
                    cells,
                    at_start,
                    state: i,
                    view: view_id,
                    piece,
                });
            }
            head += 1;
        }
        for s in &self.states[root..] {
            self.seen[s.at as usize] = 0;
        }
    }
}
