//! The node arena and transposition table of a [`Searcher`]: its roots,
//! nodes and their sorted boxes in flat vectors, a Zobrist-hashed
//! open-addressing table of node indices (full comparison on a hit), and
//! path recovery.

use super::expand::added_cell;
use super::*;
#[cfg(test)]
use crate::sokoban::memory::margin;
use crate::sokoban::memory::{Footprint, ROOM};
use std::mem::size_of;

/// A free slot of the transposition table.
pub(super) const EMPTY: u32 = u32::MAX;

/// A slot of the transposition table of `2^bits` slots: node `id` in the
/// low `bits` bits, the low bits of the high half of its `hash` above them
/// (the tag), so that a probe reads the node only when the tags match. The
/// table is at most three quarters full, so `id` is never all ones in its
/// `bits` and no slot is [`EMPTY`].
fn slot(hash: u64, id: NodeId, bits: u32) -> u32 {
    tag(hash, bits) | id
}

/// The tag of `hash` in a table of `2^bits` slots: the slot's bits above
/// the node index (bits 32 and up of the hash, so that they are not those
/// that chose the slot).
fn tag(hash: u64, bits: u32) -> u32 {
    ((hash >> 32) as u32).checked_shl(bits).unwrap_or(0)
}

impl Searcher {
    /// Store and queue a root: `boxes` (any order) with the player on
    /// `player` (its bound and removal test computed here).
    pub(super) fn add_root(&mut self, boxes: &[u16], player: u16) {
        self.add_root_with(boxes, player, None);
    }

    /// [`Searcher::add_root`], with the root's bound `known` when it is
    /// known already (the removal test is then skipped too: the root is a
    /// live state of another search).
    pub(super) fn add_root_with(&mut self, boxes: &[u16], player: u16, known: Option<u32>) {
        let sh = Arc::clone(&self.sh);
        let b = &sh.board;
        let mut sorted = boxes.to_vec();
        sorted.sort_unstable();
        self.sp.set(&sorted);
        let norm = self.sp.reach(b, player, false);
        let p = match self.cfg.cost {
            Cost::Pushes => norm,
            Cost::Moves => player,
        };
        let mut h = match known {
            Some(h) => h,
            None => self.heuristic(&sorted),
        };
        if self.way == Way::Forward
            && known.is_none()
            && h != DEAD_H
            && self.sp.stuck_deadlock(b, &sh.fdist.dead, &sorted)
        {
            h = DEAD_H;
        }
        let cell = self.fess.is_some().then(|| self.cell_of(&sorted, None));
        let hot = self.hot_of(&sorted);
        self.sp.clear(&sorted);
        let hash = self.box_hash(&sorted) ^ b.zob_player[p as usize];
        if self.lookup(hash, &sorted, p).is_some() {
            return;
        }
        let id = self.push_node(
            Node {
                hash,
                parent: NO_NODE,
                g: 0,
                h,
                player: p,
                from: NONE,
                dir: 0,
                mac: u32::MAX,
                closed: false,
                pending: false,
                pocket: false,
            },
            &sorted,
        );
        if let (Some(q), Some(cell)) = (&mut self.fess, cell) {
            q.cell.push(cell);
            if let Some(hot) = hot {
                q.hot.push(hot);
            }
        }
        if h != DEAD_H {
            self.enqueue(id, 0, h);
        }
    }

    /// The Zobrist hash of `boxes` (the player's key is xored in apart).
    pub(super) fn box_hash(&self, boxes: &[u16]) -> u64 {
        let b = &self.sh.board;
        boxes.iter().fold(0, |h, &c| h ^ b.zob_box[c as usize])
    }

    /// The boxes of node `id`, sorted.
    pub fn node_boxes(&self, id: NodeId) -> &[u16] {
        let i = id as usize * self.nb;
        &self.boxes[i..i + self.nb]
    }

    /// Store `node` with its (sorted) `boxes`, index it in the table and
    /// list it among the fresh nodes of this step.
    pub(super) fn push_node(&mut self, node: Node, boxes: &[u16]) -> NodeId {
        self.push_node_at(node, boxes, usize::MAX)
    }

    /// [`Searcher::push_node`], indexed in table slot `at` when it is the
    /// free slot that [`Searcher::probe`] for the node ended on (see
    /// [`Searcher::insert`]).
    pub(super) fn push_node_at(&mut self, node: Node, boxes: &[u16], at: usize) -> NodeId {
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.boxes.extend_from_slice(boxes);
        self.insert(id, at);
        self.fresh.push(id);
        id
    }

    /// Index node `id` in the open-addressing table (doubled when three
    /// quarters full): in slot `at` when the table did not grow and that
    /// slot is free (the slot a probe for the node ended on, which a
    /// second probe would find again), else where a probe ends.
    fn insert(&mut self, id: NodeId, at: usize) {
        let grows = (self.table_count + 1) * 4 > self.table.len() * 3;
        if grows {
            let cap = self.table.len() * 2;
            let (old_bits, bits) = (self.table_bits(), cap.trailing_zeros());
            let mut t = vec![EMPTY; cap];
            let mask = cap - 1;
            for &e in &self.table {
                if e != EMPTY {
                    let x = e & !tag(u64::MAX, old_bits);
                    let hash = self.nodes[x as usize].hash;
                    let mut i = (hash as usize) & mask;
                    while t[i] != EMPTY {
                        i = (i + 1) & mask;
                    }
                    t[i] = slot(hash, x, bits);
                }
            }
            self.table = t;
        }
        let (mask, bits) = (self.table.len() - 1, self.table_bits());
        let hash = self.nodes[id as usize].hash;
        let i = if !grows && self.table.get(at) == Some(&EMPTY) {
            debug_assert_eq!(
                self.probe(hash, self.node_boxes(id), self.nodes[id as usize].player),
                Err(at),
                "the slot a probe ends on"
            );
            at
        } else {
            let mut i = (hash as usize) & mask;
            while self.table[i] != EMPTY {
                i = (i + 1) & mask;
            }
            i
        };
        self.table[i] = slot(hash, id, bits);
        self.table_count += 1;
    }

    /// The bytes of this search's tables ([`Footprint`]): its nodes, their
    /// boxes, the transposition table, the open list or the feature-space
    /// queue, the macros, and its dead-end prover's, with [`ROOM`] more
    /// states to come before the next look. (The scratch space, the
    /// matching and the caches of the pruning are small and not counted.)
    pub fn footprint(&self) -> Footprint {
        let nb = self.nb.max(1);
        // The table doubles when three quarters full, the old one alive
        // while the new one is filled.
        let slot = size_of::<u32>();
        let table = Footprint {
            held: self.table.len() * slot,
            growth: match (self.table_count + ROOM) * 4 > self.table.len() * 3 {
                true => self.table.len() * 2 * slot,
                false => 0,
            },
        };
        let open = Footprint::of(
            self.open.len(),
            self.open.capacity(),
            size_of::<Reverse<(u128, u32)>>(),
            ROOM,
        );
        let prover = self.prover.as_ref().map(|p| p.footprint());
        Footprint::of_vec(&self.nodes, ROOM)
            + Footprint::of_vec(&self.boxes, ROOM * nb)
            + table
            + open
            + self
                .fess
                .as_ref()
                .map(FessQueue::footprint)
                .unwrap_or_default()
            + self.macros.footprint()
            + prover.unwrap_or_default()
    }

    /// The most bytes one more state may take in a search of `nb` boxes
    /// beyond its tables' doublings: its node, its boxes, two slots of the
    /// transposition table, an entry of the open list (larger than one of
    /// a feature-space cell's heap), its cell and hotspots in the
    /// feature-space queue.
    pub fn state_bytes(nb: usize) -> usize {
        size_of::<Node>()
            + nb * size_of::<u16>()
            + 2 * size_of::<u32>()
            + size_of::<Reverse<(u128, u32)>>()
            + size_of::<fess::Cell>()
            + size_of::<u32>()
    }

    /// The table has `2^bits` slots.
    fn table_bits(&self) -> u32 {
        self.table.len().trailing_zeros()
    }

    /// The node holding exactly these (sorted) boxes and player, if any.
    pub fn lookup(&self, hash: u64, boxes: &[u16], player: u16) -> Option<NodeId> {
        self.probe(hash, boxes, player).ok()
    }

    /// [`Searcher::lookup`], with the free table slot where its probe
    /// ended when there is no such node (for [`Searcher::push_node_at`]).
    pub(super) fn probe(&self, hash: u64, boxes: &[u16], player: u16) -> Result<NodeId, usize> {
        let (mask, bits) = (self.table.len() - 1, self.table_bits());
        let high = tag(u64::MAX, bits);
        let want = tag(hash, bits);
        let mut i = (hash as usize) & mask;
        loop {
            let e = self.table[i];
            if e == EMPTY {
                return Err(i);
            }
            // The node is read only when the tags match.
            if e & high == want {
                let x = e & !high;
                let n = &self.nodes[x as usize];
                if n.hash == hash && n.player == player && self.node_boxes(x) == boxes {
                    return Ok(x);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Read the table slot where the lookup of each of `hashes` starts, all
    /// at once: the cache misses overlap, and the lookups that follow find
    /// their slots in the cache. Only a hint: the search is the same.
    pub(super) fn touch(&self, hashes: impl Iterator<Item = u64>) {
        let mask = self.table.len() - 1;
        let x = hashes.fold(0, |x, h| x ^ self.table[(h as usize) & mask]);
        std::hint::black_box(x);
    }

    /// The moves from the root to node `id`: `(box cell, direction)` of each
    /// push (forward) or pull (backward), first move first.
    pub fn path(&self, id: NodeId) -> Vec<(u16, u8)> {
        let mut out = Vec::new();
        let mut x = id;
        let mut pushes = Vec::new();
        while self.nodes[x as usize].parent != NO_NODE {
            let n = &self.nodes[x as usize];
            if n.mac == BOX_MOVE {
                pushes.clear();
                self.box_move_pushes(x, &mut pushes);
                out.extend(pushes.iter().rev());
            } else if n.mac != u32::MAX {
                out.extend(self.macros.get(n.mac).iter().rev());
            } else {
                out.push((n.from, n.dir));
            }
            x = n.parent;
        }
        out.reverse();
        out
    }
}

impl Searcher {
    /// The pushes (pulls) of the box move of several that made node `id`
    /// ([`BOX_MOVE`]), found again as its parent's expansion found them:
    /// the moves of the box on the node's `from` cell whose first goes in
    /// its direction ([`BoxMoves::find`], a breadth-first search, so of
    /// the same length), the one to the node's box cell with the node's
    /// player region.
    fn box_move_pushes(&self, id: NodeId, out: &mut Vec<(u16, u8)>) {
        let sh = &self.sh;
        let b = &sh.board;
        let n = self.nodes[id as usize];
        let parent = self.nodes[n.parent as usize];
        let before = self.node_boxes(n.parent);
        let after = self.node_boxes(id);
        // None added when the box came back to its cell with the player in
        // another region.
        let to = added_cell(before, after).unwrap_or(n.from);
        let mut sp = Space::new(b.n);
        sp.set(before);
        sp.reach(b, parent.player, false);
        sp.cut_floor(b);
        let (dead, pull) = match self.way {
            Way::Forward => (&sh.fdist.dead, false),
            Way::Backward => (&Self::dist_of(sh, self.way).dead, true),
        };
        let mut bm = BoxMoves::default();
        bm.find(b, &mut sp, dead, n.from, parent.player, 1 << n.dir, pull);
        let m = (bm.list.iter())
            .find(|m| m.to == to && m.norm == n.player)
            .expect("the box move its parent's expansion found");
        bm.pushes(m, out);
    }
}

/// The pushes of every macro edge of a [`Searcher`] (a list of pushes of
/// one box that makes one edge), one list after the other.
#[derive(Default)]
pub(super) struct Macros {
    pushes: Vec<(u16, u8)>,
    /// Where each macro's pushes start in `pushes`.
    start: Vec<u32>,
}

impl Macros {
    /// Store a macro whose pushes `write` appends to the buffer it is
    /// given; its id.
    pub fn add(&mut self, write: impl FnOnce(&mut Vec<(u16, u8)>)) -> u32 {
        self.start.push(self.pushes.len() as u32);
        write(&mut self.pushes);
        self.start.len() as u32 - 1
    }

    /// The pushes of macro `id`, first push first.
    pub fn get(&self, id: u32) -> &[(u16, u8)] {
        let i = id as usize;
        let end = self
            .start
            .get(i + 1)
            .map_or(self.pushes.len(), |&e| e as usize);
        &self.pushes[self.start[i] as usize..end]
    }

    /// The bytes of the macros' lists ([`Footprint`]), room for [`ROOM`]
    /// more macros of a few pushes each.
    pub fn footprint(&self) -> Footprint {
        Footprint::of_vec(&self.pushes, ROOM * 4) + Footprint::of_vec(&self.start, ROOM)
    }

    /// Forget every macro.
    pub fn clear(&mut self) {
        self.pushes.clear();
        self.start.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::*;

    /// A node with this `hash` and `player`, as `add_root` stores one.
    fn node(hash: u64, player: u16) -> Node {
        Node {
            hash,
            parent: NO_NODE,
            g: 0,
            h: 0,
            player,
            from: NONE,
            dir: 0,
            mac: u32::MAX,
            closed: false,
            pending: false,
            pocket: false,
        }
    }

    #[test]
    fn lookups_find_exactly_the_stored_states_whatever_their_hashes_share() {
        let b = crate::sokoban::exhaustive::small_microban_boards().remove(0);
        let sh = fixtures::shared(b);
        let mut s = Searcher::new(sh, Way::Forward, fixtures::fess());
        let first = s.nodes.len() as NodeId;
        let nb = s.nb;
        let boxes = |k: u16| -> Vec<u16> {
            let mut v = vec![0; nb];
            v[0] = k;
            v
        };
        // Hashes that share their low half (one probe sequence), their
        // high half (the tag), or all of it, with different boxes or
        // players; enough of them that the table grows several times.
        let mut stored = Vec::new();
        for k in 0..20_000u16 {
            let low = u64::from(k % 7);
            let high = u64::from(k % 5) << 32;
            let hash = if k % 3 == 0 {
                low | high
            } else {
                u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            };
            let player = k % 2;
            s.push_node(node(hash, player), &boxes(k));
            stored.push((hash, boxes(k), player));
        }
        for (id, (hash, bx, player)) in stored.iter().enumerate() {
            assert_eq!(s.lookup(*hash, bx, *player), Some(first + id as NodeId));
            assert_eq!(s.lookup(*hash, bx, 1 - player), None, "another player");
            assert_eq!(s.lookup(hash ^ (1 << 40), bx, *player), None, "another tag");
            assert_eq!(s.lookup(hash ^ 1, bx, *player), None, "another slot");
        }
        assert_eq!(s.lookup(0, &boxes(30_000), 0), None, "boxes never stored");
        assert!(s.table.len() > 1 << 14, "the table grew");
        // Tags of fewer bits as the table grows: every node index fits
        // below its tag.
        assert!(s.nodes.len() <= 1 << s.table_bits());
    }

    #[test]
    fn a_footprint_holds_the_tables_and_their_next_doubling() {
        // Enough states that the node vector's last doubling (to 2^21 of
        // 40 bytes) is larger than the solver's margin: only the growth
        // counted near capacity covers it.
        let b = crate::sokoban::exhaustive::small_microban_boards().remove(0);
        let mut s = Searcher::new(fixtures::shared(b), Way::Forward, fixtures::fess());
        let nb = s.nb;
        let margin = margin(Searcher::state_bytes(nb));
        assert!(margin.total() < (1 << 21) * size_of::<Node>());
        let mut last = s.footprint();
        for k in 1..=1_200_000u32 {
            let hash = u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            s.push_node(node(hash, 0), &vec![k as u16; nb]);
            // A look every `ROOM` states, as the solver's.
            if (k as usize).is_multiple_of(ROOM) {
                let fp = s.footprint();
                // What is stored is held: the nodes, their boxes, the table.
                let stored =
                    s.nodes.len() * size_of::<Node>() + s.boxes.len() * 2 + s.table.len() * 4;
                assert!(fp.held >= stored, "{fp:?} holds {stored}");
                // What the last look allowed for, with the margin, covers
                // what it holds now: no table grew past it.
                assert!(fp.held <= (last + margin).total(), "{fp:?} after {last:?}");
                last = fp;
            }
        }
        assert!(s.nodes.capacity() >= 1 << 21, "the node vector doubled");
    }
}
