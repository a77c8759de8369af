//! Goal-zone deadlocks: a small search on the goals alone, with the rest
//! of the floor reduced to a few bags of boxes.
//!
//! The *zone* is the set of goal cells. The other floor cells fall into the
//! connected parts they form without the goals (*components*). A position
//! is projected onto the zone: which goals hold a box, how many boxes each
//! component holds, and where the player is (on a goal, or in a
//! component). In the projection the player walks anywhere inside a
//! component it reaches, whatever boxes stand there, and a component with a
//! box can deliver one onto any free goal next to it, from any of its
//! cells, whenever the player can stand behind it. So every real move maps
//! to a move of the projection (a push between goals, a push off the zone
//! into a component, a box arriving from one), or to none at all (a push
//! inside a component). If the projection can never fill every goal, no
//! real solution exists either: the position is dead.
//!
//! This is the deadlock of a goal area filled in the wrong order, which
//! the other tests miss when every empty cell is still within the player's
//! reach. On Sasquatch I level 25, a column of goals is filled from below,
//! by boxes pushed up out of a goal room, with the player walking in
//! through the room. Once the room is full the player can no longer get
//! under the column, and boxes that enter the column at its top can only
//! go down by a push from above, where the player cannot get either.
//!
//! The search is best-first on the number of filled goals, at most
//! `budget` states; a search that runs out proves nothing. Only positions
//! with at most [`MOST_EMPTY`] empty goals are searched. Verdicts are
//! cached by projection, which most pushes leave unchanged; a search that
//! ends caches every state it met when none fills the goals (each leads
//! only to the others), and its path otherwise.
//!
//! A component delivers boxes only from cells that some box can ever be
//! pushed to (pushes of a lone box from the start cells): a floor cell
//! beside a goal that no box can reach does not feed the goal.

use super::board::{Board, NONE};
use std::collections::{BinaryHeap, HashMap};

/// The most components a zone tracks (more: no zone).
const MAX_COMPONENTS: usize = 16;

/// Positions with more empty goals than this are not searched: early in a
/// level the projection has many ways to go on and the search mostly runs
/// out of states (on Sasquatch I 18 the searches cost 8 % of the time
/// with no limit, 2 % with this one).
const MOST_EMPTY: u32 = 6;

/// The most verdicts cached (then the cache starts afresh).
const CACHE_LIMIT: usize = 1 << 18;

/// A neighbour of a goal, or the cell behind an arriving box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Wall,
    Goal(u8),
    Comp(u8),
}

/// A projected position: filled goals, boxes per component (a byte each),
/// the player's region (see [`GoalZone::region_id`]).
type Key = (u128, u128, u16);

/// The goal zone of a board (see the module documentation).
pub(crate) struct GoalZone {
    /// The goal index of each cell, [`NONE`] off the goals.
    goal_of: Vec<u16>,
    /// The component of each floor cell off the goals.
    comp_of: Vec<u8>,
    /// Each goal's neighbours: the node and its cell.
    nb: Vec<[(Node, u16); 4]>,
    /// The goals next to each goal, a bit each.
    goal_goals: Vec<u128>,
    /// The components next to each goal, a bit each.
    goal_comps: Vec<u16>,
    /// The goals next to each component.
    comp_goals: Vec<u128>,
    /// The cells of each component.
    size: Vec<u8>,
    /// The ways a box arrives from each component: the goal it lands on and
    /// where the player stands to push it.
    entries: Vec<Vec<(u8, Node)>>,
    /// Every goal, a bit each.
    full: u128,
    budget: usize,
    cache: HashMap<Key, bool>,
    /// The states of the search under way, with their parent's index.
    states: Vec<(Key, u32)>,
    index: HashMap<Key, u32>,
}

impl GoalZone {
    /// The zone of `b` with searches of at most `budget` states, or `None`
    /// when the board has more than 128 goals or more than
    /// [`MAX_COMPONENTS`] components.
    pub fn new(b: &Board, budget: usize) -> Option<GoalZone> {
        if b.goals.len() > 128 || b.goals.is_empty() {
            return None;
        }
        let mut goal_of = vec![NONE; b.n];
        for (i, &g) in b.goals.iter().enumerate() {
            goal_of[g as usize] = i as u16;
        }
        let boxable = box_reachable(b);
        let mut comp_of = vec![u8::MAX; b.n];
        let mut size: Vec<u8> = Vec::new();
        for c in 0..b.n {
            if goal_of[c] != NONE || comp_of[c] != u8::MAX {
                continue;
            }
            if size.len() == MAX_COMPONENTS {
                return None;
            }
            let k = size.len() as u8;
            let mut stack = vec![c as u16];
            comp_of[c] = k;
            let mut count = 0usize;
            while let Some(x) = stack.pop() {
                count += 1;
                for &y in &b.nbr[x as usize] {
                    if y != NONE && goal_of[y as usize] == NONE && comp_of[y as usize] == u8::MAX {
                        comp_of[y as usize] = k;
                        stack.push(y);
                    }
                }
            }
            size.push(count.min(255) as u8);
        }
        let node = |c: u16| node_at(&goal_of, &comp_of, c);
        let ng = b.goals.len();
        let mut nb = vec![[(Node::Wall, NONE); 4]; ng];
        let mut goal_goals = vec![0u128; ng];
        let mut goal_comps = vec![0u16; ng];
        let mut comp_goals = vec![0u128; size.len()];
        let mut entries: Vec<Vec<(u8, Node)>> = vec![Vec::new(); size.len()];
        for (i, &g) in b.goals.iter().enumerate() {
            for (d, &y) in b.nbr[g as usize].iter().enumerate() {
                let n = node(y);
                nb[i][d] = (n, y);
                match n {
                    Node::Goal(j) => goal_goals[i] |= 1 << j,
                    Node::Comp(k) => {
                        goal_comps[i] |= 1 << k;
                        comp_goals[k as usize] |= 1 << i;
                        // A box on `y` pushed onto the goal, from behind `y`
                        // (if any box can ever get to `y`).
                        let behind = node(b.nbr[y as usize][d]);
                        if boxable[y as usize]
                            && behind != Node::Wall
                            && !entries[k as usize].contains(&(i as u8, behind))
                        {
                            entries[k as usize].push((i as u8, behind));
                        }
                    }
                    Node::Wall => {}
                }
            }
        }
        let full = if ng == 128 {
            u128::MAX
        } else {
            (1u128 << ng) - 1
        };
        Some(GoalZone {
            goal_of,
            comp_of,
            nb,
            goal_goals,
            goal_comps,
            comp_goals,
            size,
            entries,
            full,
            budget,
            cache: HashMap::new(),
            states: Vec::new(),
            index: HashMap::new(),
        })
    }

    /// Whether the position of `boxes` with the player on `player` is dead
    /// by its projection (`dead`: the forward dead squares).
    pub fn dead(&mut self, dead: &[bool], boxes: &[u16], player: u16) -> bool {
        let mut mask = 0u128;
        let mut bags = 0u128;
        for &c in boxes {
            let g = self.goal_of[c as usize];
            if g != NONE {
                mask |= 1 << g;
            } else {
                let k = self.comp_of[c as usize] as u32;
                if bag(bags, k) == 255 {
                    return false;
                }
                bags += 1 << (8 * k);
            }
        }
        if mask == self.full || (self.full & !mask).count_ones() > MOST_EMPTY {
            return false;
        }
        let start = node_at(&self.goal_of, &self.comp_of, player);
        let root = (mask, bags, self.region_id(mask, start));
        if let Some(&d) = self.cache.get(&root) {
            return d;
        }
        // Bounded memory: about 15 MB of verdicts at most.
        if self.cache.len() > CACHE_LIMIT {
            self.cache.clear();
        }
        let d = self.search(dead, root) == Some(true);
        self.cache.insert(root, d);
        d
    }

    /// The goals and components the player reaches from `from` when the
    /// goals of `mask` hold boxes.
    fn reach(&self, mask: u128, from: Node) -> (u128, u16) {
        let free = self.full & !mask;
        let (mut rg, mut rc) = match from {
            Node::Goal(g) => (1u128 << g, 0u16),
            Node::Comp(k) => (0, 1u16 << k),
            Node::Wall => (0, 0),
        };
        let (mut new_g, mut new_c) = (rg, rc);
        while new_g != 0 || new_c != 0 {
            let (mut add_g, mut add_c) = (0u128, 0u16);
            for g in bits128(new_g) {
                add_g |= self.goal_goals[g];
                add_c |= self.goal_comps[g];
            }
            for k in bits16(new_c) {
                add_g |= self.comp_goals[k];
            }
            new_g = add_g & free & !rg;
            new_c = add_c & !rc;
            rg |= new_g;
            rc |= new_c;
        }
        (rg, rc)
    }

    /// A name for the player's region: its first goal, else 128 plus its
    /// first component (regions are disjoint, so this names one).
    fn region_id(&self, mask: u128, from: Node) -> u16 {
        let (rg, rc) = self.reach(mask, from);
        if rg != 0 {
            rg.trailing_zeros() as u16
        } else {
            128 + rc.trailing_zeros() as u16
        }
    }

    /// The node a region id names.
    fn region_node(id: u16) -> Node {
        if id < 128 {
            Node::Goal(id as u8)
        } else {
            Node::Comp((id - 128) as u8)
        }
    }

    /// Whether the projection `root` can never fill every goal: `None`
    /// when the search runs out of states first. Every state of a search
    /// that ends is cached: all of them when none fills the goals (each
    /// can only lead to the others), the path to the filled zone
    /// otherwise.
    fn search(&mut self, dead: &[bool], root: Key) -> Option<bool> {
        self.states.clear();
        self.index.clear();
        self.states.push((root, u32::MAX));
        self.index.insert(root, 0);
        let mut open: BinaryHeap<(u32, u32)> = BinaryHeap::new();
        open.push((root.0.count_ones(), 0));
        let mut kids: Vec<(u128, u128, Node)> = Vec::new();
        while let Some((_, at)) = open.pop() {
            let (mask, bags, pid) = self.states[at as usize].0;
            let (rg, rc) = self.reach(mask, Self::region_node(pid));
            let free = self.full & !mask;
            kids.clear();
            for i in bits128(mask) {
                for d in 0..4 {
                    if !reached((rg, rc), self.nb[i][d ^ 1].0) {
                        continue;
                    }
                    let (ahead, cell) = self.nb[i][d];
                    let (m, bg) = match ahead {
                        Node::Goal(j) if free >> j & 1 == 1 => (mask & !(1 << i) | 1 << j, bags),
                        Node::Comp(k)
                            if !dead[cell as usize]
                                && bag(bags, k as u32) < self.size[k as usize] as u32 =>
                        {
                            (mask & !(1 << i), bags + (1 << (8 * k as u32)))
                        }
                        _ => continue,
                    };
                    kids.push((m, bg, Node::Goal(i as u8)));
                }
            }
            for (k, entries) in self.entries.iter().enumerate() {
                if bag(bags, k as u32) == 0 {
                    continue;
                }
                for &(j, behind) in entries {
                    if reached((rg, rc), behind) && free >> j & 1 == 1 {
                        let bg = bags - (1 << (8 * k as u32));
                        kids.push((mask | 1 << j, bg, Node::Comp(k as u8)));
                    }
                }
            }
            for &(m, bg, from) in &kids {
                let kid = (m, bg, self.region_id(m, from));
                let known = self.cache.get(&kid).copied();
                if m == self.full || known == Some(false) {
                    // Alive: so is the path to it.
                    let mut i = at;
                    while i != u32::MAX {
                        let (key, up) = self.states[i as usize];
                        self.cache.insert(key, false);
                        i = up;
                    }
                    return Some(false);
                }
                if known.is_some() || self.index.contains_key(&kid) {
                    continue;
                }
                if self.states.len() >= self.budget {
                    return None;
                }
                let id = self.states.len() as u32;
                self.states.push((kid, at));
                self.index.insert(kid, id);
                open.push((m.count_ones(), id));
            }
        }
        for &(key, _) in &self.states {
            self.cache.insert(key, true);
        }
        Some(true)
    }
}

/// The node of cell `c` ([`NONE`]: a wall), given the goal index and the
/// component of each cell.
fn node_at(goal_of: &[u16], comp_of: &[u8], c: u16) -> Node {
    match c {
        NONE => Node::Wall,
        _ => match goal_of[c as usize] {
            NONE => Node::Comp(comp_of[c as usize]),
            g => Node::Goal(g as u8),
        },
    }
}

/// Whether the player's reach `(goals, components)` (see
/// [`GoalZone::reach`]) takes in `node`.
fn reached((rg, rc): (u128, u16), node: Node) -> bool {
    match node {
        Node::Goal(g) => rg >> g & 1 == 1,
        Node::Comp(k) => rc >> k & 1 == 1,
        Node::Wall => false,
    }
}

/// The cells some box can ever be pushed to: pushes from the start cells
/// of the boxes, alone on the board, wherever the player can stand behind
/// (so a superset of where boxes can get to).
fn box_reachable(b: &Board) -> Vec<bool> {
    let mut seen = vec![false; b.n];
    let mut stack: Vec<u16> = b.start_boxes.clone();
    for &c in &stack {
        seen[c as usize] = true;
    }
    while let Some(x) = stack.pop() {
        for d in 0..4 {
            let (to, behind) = (b.nbr[x as usize][d], b.nbr[x as usize][d ^ 1]);
            if to != NONE && behind != NONE && !seen[to as usize] {
                seen[to as usize] = true;
                stack.push(to);
            }
        }
    }
    seen
}

/// The boxes of component `k` in `bags`.
fn bag(bags: u128, k: u32) -> u32 {
    (bags >> (8 * k)) as u32 & 0xff
}

/// The set bits of `x`.
fn bits128(mut x: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

/// The set bits of `x`.
fn bits16(x: u16) -> impl Iterator<Item = usize> {
    bits128(x as u128)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::DistTable;
    use crate::sokoban::exhaustive::{microban_boards, reaches};
    use crate::sokoban::prune::{CorralVerdict, Pruner, Verdict};
    use crate::sokoban::search::Way;
    use crate::sokoban::space::Space;
    use crate::sokoban::{solve, Method, SolveOptions, SolveStatus};
    use games::sokoban::parse_level;
    use games::UnlimitedTimer;
    use rand::{Rng, SeedableRng};

    /// Random positions with some boxes on goals, on small Microban boards:
    /// every one the zone calls dead is checked against an exhaustive
    /// search.
    #[test]
    fn positions_the_zone_calls_dead_can_never_be_solved() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20);
        let (mut zoned, mut beyond, mut tried) = (0, 0, 0);
        for b in microban_boards(6, 50, 60) {
            let fdist = DistTable::to_targets(&b, &b.goals);
            let nb = b.start_boxes.len();
            if nb < 2 {
                continue;
            }
            let off: Vec<u16> = (0..b.n as u16)
                .filter(|&c| !fdist.dead[c as usize] && !b.is_goal[c as usize])
                .collect();
            let mut b = b;
            let mut pruner = Pruner::new(b.n, 20, 0, 0);
            let mut sp = Space::new(b.n);
            for _ in 0..300 {
                // Some boxes on goals, the others off them.
                let on = rng.gen_range(1..nb);
                if off.len() < nb - on {
                    continue;
                }
                let mut goals = b.goals.clone();
                let mut cells = off.clone();
                let mut boxes = Vec::new();
                for i in 0..on {
                    let j = rng.gen_range(i..goals.len());
                    goals.swap(i, j);
                    boxes.push(goals[i]);
                }
                for i in 0..nb - on {
                    let j = rng.gen_range(i..cells.len());
                    cells.swap(i, j);
                    boxes.push(cells[i]);
                }
                boxes.sort_unstable();
                let free: Vec<u16> = (0..b.n as u16).filter(|c| !boxes.contains(c)).collect();
                let player = free[rng.gen_range(0..free.len())];
                tried += 1;
                // The zone is for positions reached from the start: here the
                // position is the start.
                b.start_boxes = boxes.clone();
                let in_zone = GoalZone::new(&b, 2000)
                    .is_some_and(|mut z| z.dead(&fdist.dead, &boxes, player));
                if !in_zone {
                    continue;
                }
                zoned += 1;
                sp.set(&boxes);
                sp.reach(&b, player, false);
                let sealed = matches!(
                    pruner.stuck_or_sealed(&b, &fdist.dead, &mut sp, &boxes, player),
                    Verdict::Dead
                );
                sp.clear(&boxes);
                beyond += usize::from(!sealed);
                let solved = |_: u16, bx: &[u16]| bx.iter().all(|&c| b.is_goal[c as usize]);
                assert!(
                    !reaches(&b, &boxes, player, Way::Forward, 10_000_000, solved),
                    "the zone called dead a solvable position: boxes {boxes:?}, player {player}"
                );
            }
        }
        eprintln!("zone deadlocks {zoned} of {tried} positions, {beyond} beyond the removal and sealed-goal tests");
        assert!(beyond > 20, "the sample has zone-only deadlocks ({beyond})");
    }

    /// A position of Sasquatch I level 25 (15 of 19 boxes packed) that
    /// the search without the zone takes seconds to exhaust: the goal room
    /// is full, so the column above it can no longer be filled from below,
    /// and boxes entering it at the top cannot be pushed down. The zone
    /// proves it dead at once, and the removal, sealed-goal and corral
    /// tests do not.
    #[test]
    fn a_goal_column_filled_in_the_wrong_order_is_dead() {
        let lv = parse_level(
            "##################\n\
             ##########@ ######\n\
             ######  .#      ##\n\
             ###### #.       ##\n\
             ######  .#$      #\n\
             ########*#   $ $ #\n\
             ########.  ##$ ###\n\
             ########*###*  ###\n\
             ##      ****######\n\
             ## # #  ****######\n\
             #        #**######\n\
             #        #**######\n\
             #  ###############\n\
             ##################\n",
        )
        .expect("level parses");
        let b = Board::new(&lv).expect("board");
        let fdist = DistTable::to_targets(&b, &b.goals);
        let (boxes, player) = (b.start_boxes.clone(), b.start_player);
        let mut pruner = Pruner::new(b.n, 20, 0, 0);
        let mut sp = Space::new(b.n);
        sp.set(&boxes);
        sp.reach(&b, player, false);
        assert!(matches!(
            pruner.stuck_or_sealed(&b, &fdist.dead, &mut sp, &boxes, player),
            Verdict::Alive
        ));
        sp.reach(&b, player, false);
        let pushes: Vec<(u16, u8)> = Vec::new();
        assert!(!matches!(
            pruner.corrals(&b, &fdist.dead, None, &mut sp, &boxes, pushes, player),
            CorralVerdict::Deadlock
        ));
        let mut zone = GoalZone::new(&b, 500).expect("a zone");
        assert!(zone.dead(&fdist.dead, &boxes, player));
        // The searches, with the zone on by default, stop at the root.
        for m in [Method::Fess, Method::Greedy, Method::AStar] {
            let r = solve(&lv, &SolveOptions::with_method(m), &UnlimitedTimer);
            assert_eq!(r.status, SolveStatus::Unsolvable, "{}", m.name());
            assert!(r.expanded <= 1, "{}: {}", m.name(), r.expanded);
        }
    }
}
