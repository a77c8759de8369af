//! Test support: the small Microban boards, and an exhaustive search of
//! single player steps that push (or pull) boxes, with no pruning at all,
//! against which the pruning tests check their verdicts.

use super::board::{Board, NONE};
use super::search::Way;
use games::sokoban::{parse_levels, MICROBAN};
use std::collections::{HashSet, VecDeque};

/// The first 12 Microban boards with at most 3 boxes and 30 floor cells
/// (at least 8 of them).
pub(crate) fn small_microban_boards() -> Vec<Board> {
    microban_boards(3, 30, 12)
}

/// The first `take` Microban boards with at most `boxes` boxes and `cells`
/// floor cells (at least 8 of them).
pub(crate) fn microban_boards(boxes: usize, cells: usize, take: usize) -> Vec<Board> {
    let levels = parse_levels(MICROBAN).expect("Microban parses");
    let boards: Vec<Board> = levels
        .iter()
        .filter_map(|lv| Board::new(lv).ok())
        .filter(|b| b.start_boxes.len() <= boxes && b.n <= cells)
        .take(take)
        .collect();
    assert!(boards.len() >= 8, "small boards: {}", boards.len());
    boards
}

/// A random position on a board of `n` cells: `nb` boxes on distinct cells
/// of `live` (sorted), the player on any other cell.
pub(crate) fn random_position(
    rng: &mut impl rand::Rng,
    n: usize,
    live: &[u16],
    nb: usize,
) -> (Vec<u16>, u16) {
    let mut cells = live.to_vec();
    for i in 0..nb {
        let j = rng.gen_range(i..cells.len());
        cells.swap(i, j);
    }
    let mut boxes = cells[..nb].to_vec();
    boxes.sort_unstable();
    let free: Vec<u16> = (0..n as u16).filter(|c| !boxes.contains(c)).collect();
    let player = free[rng.gen_range(0..free.len())];
    (boxes, player)
}

/// `is_start[c]`: a box of `b` starts on cell `c`.
pub(crate) fn start_cells(b: &Board) -> Vec<bool> {
    let mut is_start = vec![false; b.n];
    for &c in &b.start_boxes {
        is_start[c as usize] = true;
    }
    is_start
}

/// A backward position of `b`: its start boxes, between 1 and `most` of
/// them (at most all) moved each onto a random cell that is not a start
/// cell (`is_start`) and holds no box.
pub(crate) fn boxes_off_start(
    b: &Board,
    is_start: &[bool],
    rng: &mut impl rand::Rng,
    most: usize,
) -> Vec<u16> {
    let floor: Vec<u16> = (0..b.n as u16).filter(|&c| !is_start[c as usize]).collect();
    let mut boxes = b.start_boxes.clone();
    assert!(floor.len() > boxes.len(), "room for the boxes off");
    let off = rng.gen_range(1..=most.min(boxes.len()));
    for i in 0..off {
        let k = rng.gen_range(i..boxes.len());
        boxes.swap(i, k);
        loop {
            let c = floor[rng.gen_range(0..floor.len())];
            if !boxes.contains(&c) {
                boxes[i] = c;
                break;
            }
        }
    }
    boxes
}

/// Whether single player steps lead from `boxes` with the player on
/// `player` to a position where `done(player, sorted boxes)` holds.
/// Forward, a step into a box pushes it ahead; backward, a step may pull
/// the box behind the player along (it comes onto the player's cell).
/// Panics past `cap` states.
pub(crate) fn reaches(
    b: &Board,
    boxes: &[u16],
    player: u16,
    way: Way,
    cap: usize,
    done: impl Fn(u16, &[u16]) -> bool,
) -> bool {
    let mut first = boxes.to_vec();
    first.sort_unstable();
    let mut seen: HashSet<(u16, Vec<u16>)> = HashSet::from([(player, first.clone())]);
    let mut queue = VecDeque::from([(player, first)]);
    while let Some((p, bx)) = queue.pop_front() {
        if done(p, &bx) {
            return true;
        }
        assert!(seen.len() < cap, "search over {cap} states");
        for d in 0..4 {
            let q = b.nbr[p as usize][d];
            if q == NONE {
                continue;
            }
            let mut next = Vec::with_capacity(2);
            match (bx.iter().position(|&c| c == q), way) {
                (Some(i), Way::Forward) => {
                    let t = b.nbr[q as usize][d];
                    if t != NONE && !bx.contains(&t) {
                        let mut pushed = bx.clone();
                        pushed[i] = t;
                        pushed.sort_unstable();
                        next.push(pushed);
                    }
                }
                (Some(_), Way::Backward) => {}
                (None, _) => {
                    next.push(bx.clone());
                    let behind = b.nbr[p as usize][d ^ 1];
                    if let (Way::Backward, Some(i)) = (way, bx.iter().position(|&c| c == behind)) {
                        let mut pulled = bx.clone();
                        pulled[i] = p;
                        pulled.sort_unstable();
                        next.push(pulled);
                    }
                }
            }
            for nb in next {
                if seen.insert((q, nb.clone())) {
                    queue.push_back((q, nb));
                }
            }
        }
    }
    false
}
