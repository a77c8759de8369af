//! The rooms of a level and FESS's *room connectivity* feature (Shoham &
//! Schaeffer, IEEE CoG 2020; after the description of Festival's
//! `rooms.cpp`, not its code).
//!
//! A *room* is a connected part of the floor made of 2×2 blocks of floor
//! cells (blocks sharing an edge are one room; a block with no neighbouring
//! block is too small to be a room). Every other floor cell is a
//! *corridor*, and so is a cell where two blocks touch only at a corner.
//! Two rooms are *connected* when the free floor of each part of the one
//! (its cells the boxes leave free, split by the boxes) leads, through its
//! own room and corridors, to a cell of the other; a room whose cells are
//! all boxes is connected to none. The feature is the number of pairs of
//! rooms connected on the empty level that the boxes disconnect: a
//! position that cuts the rooms apart has more work ahead than the number
//! of regions alone says.

use super::board::{Board, NONE};

/// A floor cell that is in no room.
const CORRIDOR: u8 = u8::MAX;
/// The most rooms a level may have for the feature (one bit each).
const MAX_ROOMS: usize = 64;

/// The rooms of a level and which pairs of them the empty level connects.
#[derive(Clone, Debug)]
pub(crate) struct Rooms {
    /// The room of each floor cell, or [`CORRIDOR`].
    room: Vec<u8>,
    /// The cells of each room.
    cells: Vec<Vec<u16>>,
    /// `base[i]`: bit `j` set when rooms `i` and `j` are connected with no
    /// boxes on the board.
    base: Vec<u64>,
}

/// Scratch for [`Rooms::disconnected`], one per search.
#[derive(Default)]
pub(crate) struct RoomScratch {
    /// Room cells already reached from their room's earlier parts.
    done: Vec<u32>,
    /// Cells reached by the flood under way.
    mark: Vec<u32>,
    done_stamp: u32,
    mark_stamp: u32,
    stack: Vec<u16>,
    /// `conn[i]`: the rooms every part of room `i` leads to.
    conn: Vec<u64>,
}

impl Rooms {
    /// The rooms of `b`, or `None` when it has fewer than two (the feature
    /// is then always 0) or more than 64.
    pub fn new(b: &Board) -> Option<Rooms> {
        let w = b.width;
        let h = b.cell_of.len() / w;
        if w < 2 || h < 2 {
            return None;
        }
        let floor = |r: usize, c: usize| b.cell_of[r * w + c] != NONE;
        // Blocks, by their top-left corner on a (h - 1) × (w - 1) grid.
        let (bh, bw) = (h - 1, w - 1);
        let mut block: Vec<bool> = (0..bh * bw)
            .map(|i| {
                let (r, c) = (i / bw, i % bw);
                floor(r, c) && floor(r, c + 1) && floor(r + 1, c) && floor(r + 1, c + 1)
            })
            .collect();
        let next_to = |i: usize| {
            let (r, c) = (i / bw, i % bw);
            [
                (r > 0).then(|| i - bw),
                (r + 1 < bh).then(|| i + bw),
                (c > 0).then(|| i - 1),
                (c + 1 < bw).then(|| i + 1),
            ]
            .into_iter()
            .flatten()
        };
        let lone: Vec<usize> = (0..bh * bw)
            .filter(|&i| block[i] && next_to(i).all(|j| !block[j]))
            .collect();
        for i in lone {
            block[i] = false;
        }
        // Rooms: connected groups of blocks.
        let mut label = vec![usize::MAX; bh * bw];
        let mut count = 0;
        for i in 0..bh * bw {
            if !block[i] || label[i] != usize::MAX {
                continue;
            }
            let mut stack = vec![i];
            label[i] = count;
            while let Some(x) = stack.pop() {
                for y in next_to(x) {
                    if block[y] && label[y] == usize::MAX {
                        label[y] = count;
                        stack.push(y);
                    }
                }
            }
            count += 1;
        }
        if !(2..=MAX_ROOMS).contains(&count) {
            return None;
        }
        let mut room = vec![CORRIDOR; b.n];
        for i in (0..bh * bw).filter(|&i| block[i]) {
            let (r, c) = (i / bw, i % bw);
            for g in [
                r * w + c,
                r * w + c + 1,
                (r + 1) * w + c,
                (r + 1) * w + c + 1,
            ] {
                room[b.cell_of[g] as usize] = label[i] as u8;
            }
        }
        // A cell where two blocks touch only at a corner is a corridor.
        for r in 0..bh.saturating_sub(1) {
            for c in 0..bw.saturating_sub(1) {
                let (a, d) = (block[r * bw + c], block[(r + 1) * bw + c + 1]);
                let (x, y) = (block[r * bw + c + 1], block[(r + 1) * bw + c]);
                if a == d && x == y && a != x {
                    room[b.cell_of[(r + 1) * w + c + 1] as usize] = CORRIDOR;
                }
            }
        }
        let mut cells = vec![Vec::new(); count];
        for (c, &r) in room.iter().enumerate() {
            if r != CORRIDOR {
                cells[r as usize].push(c as u16);
            }
        }
        let mut rooms = Rooms {
            room,
            cells,
            base: vec![0; count],
        };
        let mut scratch = RoomScratch::default();
        let empty = vec![0u16; b.n];
        rooms.connect(b, &empty, &mut scratch);
        rooms.base = scratch.conn.clone();
        Some(rooms)
    }

    /// The number of rooms.
    pub fn count(&self) -> usize {
        self.cells.len()
    }

    /// The room of floor cell `c`, if it is in one.
    #[cfg(test)]
    pub fn room_of(&self, c: u16) -> Option<usize> {
        let r = self.room[c as usize];
        (r != CORRIDOR).then_some(r as usize)
    }

    /// The feature: how many pairs of rooms connected on the empty level
    /// the boxes (`occ[c] != 0` where a box stands) disconnect.
    pub fn disconnected(&self, b: &Board, occ: &[u16], s: &mut RoomScratch) -> u32 {
        self.connect(b, occ, s);
        (0..self.count())
            .map(|i| (self.base[i] & !s.conn[i]).count_ones())
            .sum::<u32>()
            / 2
    }

    /// Fill `s.conn` with the rooms connected with boxes on `occ`,
    /// symmetric, a room connected to itself only when it has a free cell.
    fn connect(&self, b: &Board, occ: &[u16], s: &mut RoomScratch) {
        let n = self.count();
        if s.mark.len() != b.n {
            s.mark = vec![0; b.n];
            s.done = vec![0; b.n];
            s.mark_stamp = 0;
            s.done_stamp = 0;
        }
        if s.done_stamp == u32::MAX {
            s.done.fill(0);
            s.done_stamp = 0;
        }
        s.done_stamp += 1;
        s.conn.clear();
        s.conn.resize(n, 0);
        for r in 0..n {
            let mut all = !0u64;
            let mut free = false;
            for &c in &self.cells[r] {
                if occ[c as usize] != 0 || s.done[c as usize] == s.done_stamp {
                    continue;
                }
                free = true;
                all &= self.flood(b, occ, s, c, r as u8);
            }
            s.conn[r] = if free { all | (1 << r) } else { 0 };
        }
        // Connected both ways (a part of either may be cut off).
        for i in 0..n {
            for j in i + 1..n {
                let both = (s.conn[i] >> j) & (s.conn[j] >> i) & 1;
                s.conn[i] = (s.conn[i] & !(1 << j)) | (both << j);
                s.conn[j] = (s.conn[j] & !(1 << i)) | (both << i);
            }
        }
    }

    /// The rooms the free floor from cell `start` (of room `r`) reaches
    /// through room `r` and corridors, a bit each (`r` included); marks
    /// the cells of room `r` it reaches as done.
    fn flood(&self, b: &Board, occ: &[u16], s: &mut RoomScratch, start: u16, r: u8) -> u64 {
        if s.mark_stamp == u32::MAX {
            s.mark.fill(0);
            s.mark_stamp = 0;
        }
        s.mark_stamp += 1;
        let st = s.mark_stamp;
        let mut seen = 1u64 << r;
        s.stack.clear();
        s.stack.push(start);
        s.mark[start as usize] = st;
        s.done[start as usize] = s.done_stamp;
        while let Some(x) = s.stack.pop() {
            for &y in &b.nbr[x as usize] {
                if y == NONE {
                    continue;
                }
                let ry = self.room[y as usize];
                if ry != CORRIDOR && ry != r {
                    seen |= 1 << ry;
                    continue;
                }
                if s.mark[y as usize] == st || occ[y as usize] != 0 {
                    continue;
                }
                s.mark[y as usize] = st;
                if ry == r {
                    s.done[y as usize] = s.done_stamp;
                }
                s.stack.push(y);
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::sokoban::parse_levels;

    fn board(rows: &[&str]) -> Board {
        let levels = parse_levels(&rows.join("\n")).expect("the level parses");
        Board::new(&levels[0]).expect("a valid level")
    }

    #[test]
    fn two_rooms_joined_by_a_corridor_are_cut_by_a_box_in_it() {
        let b = board(&[
            "##########",
            "#  ####  #",
            "#@ $    .#",
            "#  ####  #",
            "##########",
        ]);
        let rooms = Rooms::new(&b).expect("two rooms");
        assert_eq!(rooms.count(), 2);
        let at = |r: usize, c: usize| b.cell_of[r * b.width + c];
        assert_eq!(rooms.room_of(at(2, 5)), None, "the corridor");
        assert!(rooms.room_of(at(1, 1)).is_some());
        assert!(rooms.room_of(at(1, 8)).is_some());
        assert_ne!(rooms.room_of(at(1, 1)), rooms.room_of(at(1, 8)));
        let mut s = RoomScratch::default();
        let mut occ = vec![0u16; b.n];
        assert_eq!(rooms.disconnected(&b, &occ, &mut s), 0);
        // A box in a room, off its way out, cuts nothing.
        occ[at(1, 1) as usize] = 1;
        assert_eq!(rooms.disconnected(&b, &occ, &mut s), 0);
        occ[at(1, 1) as usize] = 0;
        // A box in the corridor, or in the room's mouth, cuts the rooms
        // apart (both ways must lead through).
        for c in [at(2, 5), at(2, 2)] {
            occ[c as usize] = 1;
            assert_eq!(rooms.disconnected(&b, &occ, &mut s), 1);
            occ[c as usize] = 0;
        }
        // A room with every cell a box is connected to nothing.
        for c in [at(1, 8), at(2, 8), at(3, 8), at(1, 7), at(2, 7), at(3, 7)] {
            occ[c as usize] = 1;
        }
        assert_eq!(rooms.disconnected(&b, &occ, &mut s), 1);
    }

    #[test]
    fn blocks_meeting_only_at_a_corner_leave_it_a_corridor() {
        let b = board(&[
            "#########",
            "#@  #####",
            "#    ####",
            "### $ ###",
            "### . ###",
            "#########",
        ]);
        let at = |r: usize, c: usize| b.cell_of[r * b.width + c];
        let rooms = Rooms::new(&b).expect("two rooms");
        assert_eq!(rooms.count(), 2);
        assert_eq!(rooms.room_of(at(2, 3)), None, "the shared corner");
        let (top, bottom) = (rooms.room_of(at(1, 1)), rooms.room_of(at(4, 5)));
        assert!(top.is_some() && bottom.is_some() && top != bottom);
        let mut s = RoomScratch::default();
        let mut occ = vec![0u16; b.n];
        occ[at(2, 3) as usize] = 1;
        assert_eq!(rooms.disconnected(&b, &occ, &mut s), 1);
    }

    #[test]
    fn a_lone_block_is_no_room() {
        let b = board(&["######", "#@ $.#", "#    #", "######"]);
        assert!(Rooms::new(&b).is_none());
    }
}
