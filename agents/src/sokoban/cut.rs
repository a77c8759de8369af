//! Where the player can walk while one box moves and the others stay: the
//! cut cells of the free floor ([`Cuts`]), found once for a position, and
//! for each box a view of them with that box taken off ([`BoxView`]),
//! instead of a flood for every cell the box is moved to.
//!
//! A depth-first search over each connected part of the free floor
//! numbers each cell in the order it is first met (`disc`) and finds, for
//! each cell, the earliest cell its subtree reaches by a back edge (`low`,
//! Tarjan's low-link). Putting a box on a free cell `x` splits its part
//! into:
//! - each child subtree `y` of `x` with `low[y] >= disc[x]` (or every
//!   child subtree, when `x` is the part's root): nothing in it leads
//!   around `x`;
//! - the rest: the part without `x` and those subtrees.
//!
//! So the region that holds a cell with a box on `x` is one of at most
//! five *pieces* of `x`'s part, named by the direction of the child
//! subtree from `x` (0 to 3) or [`REST`], and which piece holds a cell is
//! a test of its number against the children's intervals. A subtree's
//! cells are consecutive in the search's order, so a piece's cells are a
//! slice of it, or the part minus a few slices. The search also keeps
//! each subtree's size and smallest cell (a part's smallest cell is its
//! root), so a piece's size and smallest cell, the normalised player,
//! follow without collecting its cells ([`Look::extent`]).
//!
//! Taking a box off its cell `c` joins the parts next to `c` into one
//! through it. With the box moved on to a cell `x` of one of them, the
//! regions of the floor are the parts not next to `c`, as they were; the
//! pieces of `x`'s part that no free neighbour of `c` lies in; and one
//! region of `c`, the other pieces and the other parts next to it.

use super::bits;
use super::board::{Board, NONE};

/// The piece that is not a separated child subtree ([`Cuts`]).
const REST: u8 = 4;

/// The name of the region of the box's cell when no piece of the part the
/// box stands in is next to that cell ([`BoxView`]).
const ALONE: u8 = 5;

/// No piece ([`BoxView::around`]): a wall, a box, or a cell the player
/// cannot get to while the box moves.
pub(crate) const NO_PIECE: u8 = u8::MAX;

/// The depth-first numbering of every connected part of the free floor
/// of one position, for the regions the player has while one box moves.
#[derive(Default)]
pub(crate) struct Cuts {
    /// Order of first visit; [`NONE`] for cells outside the free floor.
    disc: Vec<u16>,
    /// The least `disc` the cell's subtree reaches by one back edge.
    low: Vec<u16>,
    /// The number of cells in the cell's subtree.
    size: Vec<u16>,
    /// The smallest cell of the cell's subtree.
    sub_min: Vec<u16>,
    /// The cell's parent in the search tree ([`NONE`] at a part's root).
    parent: Vec<u16>,
    /// The part each free cell lies in ([`NONE`] for the others).
    part_of: Vec<u16>,
    /// Each part's root: its smallest cell (each part's search starts
    /// from the smallest free cell not yet found), whose subtree is the
    /// part.
    roots: Vec<u16>,
    /// The free cells in the order of first visit, the first `found`
    /// (the rest is room for the others).
    order: Vec<u16>,
    found: usize,
    /// The number of connected parts of the free floor.
    parts: u32,
    /// Scratch for the search: each cell's next direction to try.
    next_dir: Vec<u8>,
}

impl Cuts {
    /// The parts of the free floor of `b` (cells with `occ[c] == 0`).
    #[cfg(test)]
    pub fn new(b: &Board, occ: &[u16]) -> Cuts {
        let mut cuts = Cuts::default();
        cuts.build(b, occ);
        cuts
    }

    /// [`Cuts::new`] into this one's buffers.
    pub fn build(&mut self, b: &Board, occ: &[u16]) {
        let n = b.n;
        if self.disc.len() != n {
            *self = Cuts {
                disc: vec![NONE; n],
                low: vec![0; n],
                size: vec![0; n],
                sub_min: vec![0; n],
                parent: vec![NONE; n],
                part_of: vec![NONE; n],
                order: vec![NONE; n],
                next_dir: vec![0; n],
                ..Cuts::default()
            };
        }
        for &c in &self.order[..self.found] {
            self.disc[c as usize] = NONE;
            self.part_of[c as usize] = NONE;
        }
        self.found = 0;
        self.roots.clear();
        self.parts = 0;
        let occ = &occ[..n];
        for c in 0..n as u16 {
            if occ[c as usize] == 0 && self.disc[c as usize] == NONE {
                self.roots.push(c);
                self.search(b, occ, c);
                self.parts += 1;
            }
        }
    }

    /// The depth-first search of the part around `root`, numbered on from
    /// the cells already found, as part number `parts`. It walks back up
    /// by the parents, each cell keeping the next direction to try, so it
    /// needs no stack. (The tables are borrowed as slices once: the
    /// compiler then keeps their addresses and lengths in registers across
    /// the stores, which it cannot do through `self`.)
    fn search(&mut self, b: &Board, occ: &[u16], root: u16) {
        let n = b.n;
        let nbr = &b.nbr[..n];
        let disc = &mut self.disc[..n];
        let low = &mut self.low[..n];
        let size = &mut self.size[..n];
        let sub_min = &mut self.sub_min[..n];
        let parent = &mut self.parent[..n];
        let next_dir = &mut self.next_dir[..n];
        let order = &mut self.order[..n];
        let part_of = &mut self.part_of[..n];
        let part = self.parts as u16;
        let mut k = self.found as u16;
        let (mut x, mut next) = (NONE, root);
        loop {
            if next != NONE {
                // First visit of `next`, from `x`: its number, and its
                // first direction.
                let ni = next as usize;
                disc[ni] = k;
                low[ni] = k;
                sub_min[ni] = next;
                parent[ni] = x;
                next_dir[ni] = 0;
                part_of[ni] = part;
                order[k as usize] = next;
                k += 1;
                x = next;
            }
            let xi = x as usize;
            // The next child of `x`, the back edges met on the way.
            next = NONE;
            let mut lx = low[xi];
            let px = parent[xi];
            let around = &nbr[xi];
            let mut d = next_dir[xi];
            while d < 4 {
                let y = around[d as usize];
                d += 1;
                if y == NONE || occ[y as usize] != 0 {
                    continue;
                }
                let dy = disc[y as usize];
                if dy == NONE {
                    next = y;
                    break;
                } else if y != px {
                    lx = lx.min(dy);
                }
            }
            next_dir[xi] = d;
            low[xi] = lx;
            if next == NONE {
                size[xi] = k - disc[xi];
                if px == NONE {
                    break;
                }
                low[px as usize] = low[px as usize].min(lx);
                sub_min[px as usize] = sub_min[px as usize].min(sub_min[xi]);
                x = px;
            }
        }
        self.found = k as usize;
    }

    /// The part the cell `q` lies in ([`NONE`] for a box, a wall or
    /// [`NONE`] itself).
    fn part(&self, q: u16) -> u16 {
        self.part_of.get(q as usize).copied().unwrap_or(NONE)
    }

    /// The child of `x` in direction `d`, if it is one: a cell first
    /// reached from `x`.
    fn child(&self, b: &Board, x: u16, d: usize) -> Option<u16> {
        let y = b.nbr[x as usize][d];
        (y != NONE && self.disc[y as usize] != NONE && self.parent[y as usize] == x).then_some(y)
    }

    /// Whether the child subtree `y` of `x` is cut off from the rest when
    /// a box stands on `x`.
    fn separated(&self, x: u16, y: u16) -> bool {
        self.parent[x as usize] == NONE || self.low[y as usize] >= self.disc[x as usize]
    }

    /// With a box on the free cell `x`, its child subtrees: each one's
    /// interval of visit numbers and piece.
    fn kids(&self, b: &Board, x: u16) -> Kids {
        let mut kids = Kids::NONE;
        for d in 0..4 {
            if let Some(y) = self.child(b, x, d) {
                let from = self.disc[y as usize];
                kids.span[d] = (from, from + self.size[y as usize]);
                if self.separated(x, y) {
                    kids.piece[d] = d as u8;
                }
            }
        }
        kids
    }

    /// Add the cells of some pieces of `x`'s part (bit `p`: piece `p`),
    /// with a box on the free cell `x`, to `out`, which holds no cell of
    /// that part.
    fn add_pieces(&self, b: &Board, x: u16, pieces: u8, out: &mut [u64]) {
        let subtree = |y: u16| {
            let from = self.disc[y as usize] as usize;
            &self.order[from..from + self.size[y as usize] as usize]
        };
        if pieces & 1 << REST == 0 {
            for d in 0..4 {
                match self.child(b, x, d) {
                    Some(y) if pieces & 1 << d != 0 => {
                        for &c in subtree(y) {
                            bits::set(out, c as usize);
                        }
                    }
                    _ => {}
                }
            }
        } else {
            self.add_part(self.part(x), out);
            bits::unset(out, x as usize);
            for d in 0..4 {
                match self.child(b, x, d) {
                    Some(y) if self.separated(x, y) && pieces & 1 << d == 0 => {
                        for &c in subtree(y) {
                            bits::unset(out, c as usize);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Add the cells of part `k` to `out`.
    fn add_part(&self, k: u16, out: &mut [u64]) {
        let root = self.roots[k as usize] as usize;
        let from = self.disc[root] as usize;
        for &c in &self.order[from..from + self.size[root] as usize] {
            bits::set(out, c as usize);
        }
    }

    /// The view that `key` was taken from ([`BoxView::key`]), made again
    /// from these cuts, which must be the ones it was made with.
    pub fn view_of(&self, key: ViewKey) -> BoxView<'_> {
        BoxView {
            cuts: self,
            c: key.c,
            around: key.around,
            parts: key.parts,
            joined: key.joined as usize,
        }
    }

    /// The regions while the box on `c` moves, the other boxes as they were
    /// when these cuts were built (`occ` holds them, `c`'s box taken off).
    pub fn view<'a>(&'a self, b: &Board, occ: &[u16], c: u16) -> BoxView<'a> {
        let mut around = [NONE; 4];
        let mut parts = [NONE; 4];
        let mut joined = 0;
        for (d, &y) in b.nbr[c as usize].iter().enumerate() {
            if y != NONE && occ[y as usize] == 0 {
                around[d] = y;
                let k = self.part(y);
                if !parts[..joined].contains(&k) {
                    parts[joined] = k;
                    joined += 1;
                }
            }
        }
        self.view_of(ViewKey {
            c,
            around,
            parts,
            joined: joined as u8,
        })
    }
}

/// What a [`BoxView`] holds besides its [`Cuts`]: the box's cell and the
/// parts next to it, to make the view again ([`Cuts::view_of`]) without
/// looking at the boxes.
#[derive(Clone, Copy)]
pub(crate) struct ViewKey {
    c: u16,
    around: [u16; 4],
    parts: [u16; 4],
    joined: u8,
}

/// The child subtrees of a cell with a box on it ([`Cuts::kids`]): the
/// interval of visit numbers of each (empty for no child) and its piece
/// (its direction when separated, else [`REST`]).
#[derive(Clone, Copy)]
struct Kids {
    span: [(u16, u16); 4],
    piece: [u8; 4],
}

impl Kids {
    /// No child subtree.
    const NONE: Kids = Kids {
        span: [(0, 0); 4],
        piece: [REST; 4],
    };

    /// The piece that holds the cell of visit number `k` (of the box's
    /// part, not the box's cell).
    fn piece(&self, k: u16) -> u8 {
        for d in 0..4 {
            let (from, to) = self.span[d];
            if from <= k && k < to {
                return self.piece[d];
            }
        }
        REST
    }
}

/// The smallest cell of `set` (a bit per cell), [`NONE`] when it is empty.
fn first_cell(set: &[u64]) -> u16 {
    set.iter()
        .enumerate()
        .find(|(_, &w)| w != 0)
        .map_or(NONE, |(i, w)| (i * 64 + w.trailing_zeros() as usize) as u16)
}

/// The regions of the free floor while the box taken off `c` moves in the
/// parts next to `c` and the other boxes stay ([`Cuts::view`]). With the
/// box back on `c`, each part is a region; with the box on another cell
/// `x`, the pieces of `x`'s part next to `c` join through `c` with the
/// other parts next to it.
pub(crate) struct BoxView<'a> {
    cuts: &'a Cuts,
    c: u16,
    /// The free neighbours of `c` ([`NONE`] for the others).
    around: [u16; 4],
    /// The parts they lie in, the first `joined`.
    parts: [u16; 4],
    joined: usize,
}

/// How the pieces of a part join through `c` with the box on one cell of
/// it: the cell's child subtrees, each piece's name after joining, the
/// name of `c`'s region, how many pieces `c` joined, and how many pieces
/// there are.
#[derive(Clone, Copy)]
struct Merge {
    kids: Kids,
    name: [u8; 5],
    at_c: u8,
    joined: u8,
    split: u8,
}

impl Merge {
    /// A placeholder, for the box on its own cell (nothing joins).
    const NONE: Merge = Merge {
        kids: Kids::NONE,
        name: [0; 5],
        at_c: 0,
        joined: 0,
        split: 0,
    };
}

impl BoxView<'_> {
    /// What makes this view again from its cuts ([`Cuts::view_of`]).
    pub fn key(&self) -> ViewKey {
        ViewKey {
            c: self.c,
            around: self.around,
            parts: self.parts,
            joined: self.joined as u8,
        }
    }

    /// How the pieces of `x`'s part join with the box on `x` (a free cell
    /// next to which `c` lies by some path through the joined parts).
    fn merge(&self, b: &Board, x: u16) -> Merge {
        let home = self.cuts.part(x);
        let kids = self.cuts.kids(b, x);
        let mut next = 0u8;
        for &y in &self.around {
            if y != NONE && y != x && self.cuts.part(y) == home {
                next |= 1 << kids.piece(self.cuts.disc[y as usize]);
            }
        }
        let mut name = [0, 1, 2, 3, REST];
        let at_c = if next == 0 {
            ALONE
        } else {
            let first = next.trailing_zeros() as u8;
            for (p, n) in name.iter_mut().enumerate() {
                if next & 1 << p != 0 {
                    *n = first;
                }
            }
            first
        };
        // The separated subtrees and, unless `x` is its part's root, the
        // rest.
        let split = (0..4).filter(|&d| kids.piece[d] == d as u8).count()
            + usize::from(self.cuts.parent[x as usize] != NONE);
        Merge {
            kids,
            name,
            at_c,
            joined: next.count_ones() as u8,
            split: split as u8,
        }
    }

    /// The index in `parts` of part `k`, if `c` joins it.
    fn joined_part(&self, k: u16) -> Option<usize> {
        self.parts[..self.joined].iter().position(|&p| p == k)
    }

    /// With the box on `x` (`c` or a cell of a part next to it), a name
    /// for the region that holds cell `q`, the same for two cells just
    /// when they are in one region (below 8); `None` when `q` is `x` or
    /// off the parts next to `c` and `c` itself.
    pub fn piece(&self, b: &Board, x: u16, q: u16) -> Option<u8> {
        self.look(b, x).piece(q)
    }

    /// [`BoxView::piece`] with the box back on `c`: the joined part `q`
    /// lies in.
    fn piece_at_home(&self, q: u16) -> Option<u8> {
        self.joined_part(self.cuts.part(q)).map(|i| i as u8)
    }

    /// [`BoxView::piece`] of each of `x`'s four neighbours (direction `d`
    /// at index `d`), [`NO_PIECE`] for `None`: the pieces that say where
    /// the player can push or pull the box on `x` from.
    pub fn around(&self, b: &Board, x: u16) -> [u8; 4] {
        self.look(b, x).around(b)
    }

    /// The view with the box on `x` (`c` or a cell of a part next to it):
    /// how the pieces join there, found once for all that is asked about
    /// that cell.
    pub fn look(&self, b: &Board, x: u16) -> Look<'_, '_> {
        let m = if x == self.c {
            Merge::NONE
        } else {
            self.merge(b, x)
        };
        let (home, disc) = (self.cuts.part(x), self.cuts.disc.get(x as usize));
        Look {
            view: self,
            x,
            m,
            home,
            disc: disc.copied().unwrap_or(NONE),
        }
    }
}

/// A [`BoxView`] with the box on one cell `x` ([`BoxView::look`]).
pub(crate) struct Look<'v, 'a> {
    view: &'v BoxView<'a>,
    x: u16,
    /// How the pieces join with the box on `x` ([`Merge::NONE`] when `x`
    /// is the box's own cell).
    m: Merge,
    /// The part `x` lies in and its visit number.
    home: u16,
    disc: u16,
}

impl Look<'_, '_> {
    /// [`BoxView::piece`] of cell `q`.
    pub fn piece(&self, q: u16) -> Option<u8> {
        if self.x == self.view.c {
            self.view.piece_at_home(q)
        } else if q == self.x {
            None
        } else {
            self.piece_moved(q, None)
        }
    }

    /// [`Look::piece`] of each of the four neighbours of the box (direction
    /// `d` at index `d`), [`NO_PIECE`] for `None`.
    pub fn around(&self, b: &Board) -> [u8; 4] {
        let v = self.view;
        let nbr = b.nbr[self.x as usize];
        let mut out = [NO_PIECE; 4];
        let home = self.x == v.c;
        for (d, &q) in nbr.iter().enumerate() {
            let p = if home {
                v.piece_at_home(q)
            } else {
                self.piece_moved(q, Some(d))
            };
            out[d] = p.unwrap_or(NO_PIECE);
        }
        out
    }

    /// [`Look::piece`] of a cell `q` other than `x`, the box off its own
    /// cell; `d`: the direction of `q` from `x`, when it is a neighbour. A
    /// cell of `x`'s part found before `x` lies outside its subtree (in
    /// the rest); a neighbour found after it is most often its child that
    /// way; only other cells need the children's intervals.
    #[inline(always)]
    fn piece_moved(&self, q: u16, d: Option<usize>) -> Option<u8> {
        let (v, m) = (self.view, &self.m);
        if q == v.c {
            return Some(m.at_c);
        }
        let k = v.cuts.part(q);
        if k == NONE {
            None
        } else if k == self.home {
            let dq = v.cuts.disc[q as usize];
            let p = match d {
                _ if dq < self.disc => REST,
                Some(d) if m.kids.span[d].0 == dq => m.kids.piece[d],
                _ => m.kids.piece(dq),
            };
            Some(m.name[p as usize])
        } else {
            v.joined_part(k).map(|_| m.at_c)
        }
    }

    /// The smallest cell of `piece` (as [`Look::region`] returns it) and
    /// its number of cells, without collecting them: a part's smallest
    /// cell is its root, and the search kept each subtree's smallest cell
    /// and size.
    pub fn extent(&self, b: &Board, piece: u8) -> (u16, u16) {
        let (v, x, m) = (self.view, self.x, &self.m);
        let cuts = v.cuts;
        let root = |k: u16| cuts.roots[k as usize];
        let part_size = |k: u16| cuts.size[root(k) as usize];
        if x == v.c {
            return v.parts[..v.joined]
                .get(piece as usize)
                .map_or((NONE, 0), |&k| (root(k), part_size(k)));
        }
        let home = self.home;
        let (mut min, mut cells) = (NONE, 0);
        if m.name[REST as usize] == piece {
            // The part without `x` and the separated subtrees of other
            // pieces; it holds the root unless `x` is the root (then it
            // is only those subtrees of this piece, added below).
            cells = part_size(home) - 1;
            for d in 0..4 {
                if m.kids.piece[d] == d as u8 && m.name[d] != piece {
                    cells -= m.kids.span[d].1 - m.kids.span[d].0;
                }
            }
            if cuts.parent[x as usize] != NONE {
                min = root(home);
            }
        }
        for d in 0..4 {
            if m.kids.piece[d] == d as u8 && m.name[d] == piece {
                if m.name[REST as usize] != piece {
                    cells += m.kids.span[d].1 - m.kids.span[d].0;
                }
                let y = b.nbr[x as usize][d];
                min = min.min(cuts.sub_min[y as usize]);
            }
        }
        if m.at_c == piece {
            min = min.min(v.c);
            cells += 1;
            for &k in &v.parts[..v.joined] {
                if k != home {
                    min = min.min(root(k));
                    cells += part_size(k);
                }
            }
        }
        (min, cells)
    }

    /// The cells of `piece`, as bits into `out` ([`bits::words`] of the
    /// board's cells); returns the smallest ([`NONE`] when there are
    /// none): the cells [`Look::extent`] counts.
    pub fn region(&self, b: &Board, piece: u8, out: &mut [u64]) -> u16 {
        let (v, x, m) = (self.view, self.x, &self.m);
        out.fill(0);
        if x == v.c {
            if let Some(&k) = v.parts[..v.joined].get(piece as usize) {
                v.cuts.add_part(k, out);
            }
            return first_cell(out);
        }
        let of = (0..5).fold(0u8, |s, p| s | u8::from(m.name[p] == piece) << p);
        if of != 0 {
            v.cuts.add_pieces(b, x, of, out);
        }
        if m.at_c == piece {
            bits::set(out, v.c as usize);
            for &k in &v.parts[..v.joined] {
                if k != self.home {
                    v.cuts.add_part(k, out);
                }
            }
        }
        first_cell(out)
    }

    /// The number of connected regions of the whole free floor.
    pub fn regions(&self) -> u32 {
        let v = self.view;
        if self.x == v.c {
            return v.cuts.parts;
        }
        // The parts not next to `c`; `x`'s pieces not next to `c`; `c`'s.
        v.cuts.parts - v.joined as u32 + u32::from(self.m.split) - u32::from(self.m.joined) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::exhaustive::microban_boards;
    use crate::sokoban::space::Space;

    #[test]
    fn a_box_views_regions_are_those_a_flood_finds() {
        // Microban boards, every box in turn taken off: for every cell `x`
        // the box can stand on (its own or a free one of a part next to
        // it) and every free cell `q`, the region named for `q` is the
        // flood from `q` with the box on `x`, smallest cell included; two
        // cells share a name just when one flood holds both; and the
        // regions of the free floor are those counted by floods.
        let mut checked = 0;
        for b in microban_boards(8, 80, 40) {
            let mut sp = Space::new(b.n);
            sp.set(&b.start_boxes);
            let cuts = Cuts::new(&b, &sp.occ);
            assert_eq!(cuts.parts, sp.regions(&b));
            let mut out = vec![0u64; bits::words(b.n)];
            for &c in &b.start_boxes {
                let tag = sp.occ[c as usize];
                sp.occ[c as usize] = 0;
                let view = cuts.view(&b, &sp.occ, c);
                // The cells the box can stand on: `c` and the floor it
                // joins.
                let joined = sp.reach(&b, c, false);
                let room: Vec<u16> = (0..b.n as u16).filter(|&x| sp.reached(x)).collect();
                assert_ne!(joined, NONE);
                for &x in &room {
                    sp.occ[x as usize] = 1;
                    let mut names: Vec<(u8, u16)> = Vec::new();
                    assert_eq!(view.look(&b, x).regions(), sp.regions(&b), "box on {x}");
                    let around = view.around(&b, x);
                    for (d, &q) in b.nbr[x as usize].iter().enumerate() {
                        let piece = if q == NONE {
                            None
                        } else {
                            view.piece(&b, x, q)
                        };
                        assert_eq!(around[d], piece.unwrap_or(NO_PIECE), "box on {x}, {d}");
                    }
                    for q in 0..b.n as u16 {
                        if sp.occ[q as usize] != 0 {
                            assert_eq!(view.piece(&b, x, q), None);
                            continue;
                        }
                        let norm = sp.reach(&b, q, false);
                        let Some(piece) = view.piece(&b, x, q) else {
                            assert!(!room.contains(&q), "{q} is next to {c} (box on {x})");
                            continue;
                        };
                        assert!(piece < 8);
                        assert_eq!(view.look(&b, x).region(&b, piece, &mut out), norm);
                        let cells = out.iter().map(|w| w.count_ones()).sum::<u32>();
                        assert_eq!(view.look(&b, x).extent(&b, piece), (norm, cells as u16));
                        // The view made again from its key names the same
                        // region.
                        let again = cuts.view_of(view.key());
                        assert_eq!(again.piece(&b, x, q), Some(piece));
                        for y in 0..b.n as u16 {
                            assert_eq!(
                                bits::has(&out, y as usize),
                                sp.reached(y),
                                "box {c} on {x}, from {q}: cell {y}"
                            );
                        }
                        // One name, one region.
                        match names.iter().find(|&&(p, _)| p == piece) {
                            Some(&(_, r)) => assert_eq!(r, norm, "box on {x}: {piece}"),
                            None => {
                                assert!(names.iter().all(|&(_, r)| r != norm));
                                names.push((piece, norm));
                            }
                        }
                        checked += 1;
                    }
                    sp.occ[x as usize] = 0;
                }
                sp.occ[c as usize] = tag;
            }
        }
        assert!(checked > 10_000, "{checked} regions checked");
    }
}
