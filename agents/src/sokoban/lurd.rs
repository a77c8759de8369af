//! Turning a list of pushes into a LURD string: the player walks (shortest
//! path, breadth-first) to the cell behind each box, then pushes.

use super::board::{Board, LETTER, NONE};

/// A solution in LURD with its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lurd {
    /// Lower case: a move; upper case: a push.
    pub text: String,
    /// Moves (letters).
    pub moves: usize,
    /// Pushes (upper-case letters).
    pub pushes: usize,
}

/// Play `pushes` (`(box cell, direction)`, in order) from the start of
/// `board`; `None` if one of them is impossible (which would be a solver bug).
pub(crate) fn pushes_to_lurd(board: &Board, pushes: &[(u16, u8)]) -> Option<Lurd> {
    let (lurd, occ) = play(board, pushes)?;
    board.goals.iter().all(|&g| occ[g as usize]).then_some(lurd)
}

/// [`pushes_to_lurd`] without the check that the level ends solved: the
/// moves, and which cells hold a box at the end.
pub(crate) fn play(board: &Board, pushes: &[(u16, u8)]) -> Option<(Lurd, Vec<bool>)> {
    let n = board.n;
    let mut occ = vec![false; n];
    for &c in &board.start_boxes {
        occ[c as usize] = true;
    }
    let mut player = board.start_player;
    let mut text = String::new();
    let mut prev: Vec<(u16, u8)> = vec![(NONE, 0); n];
    let mut seen = vec![0u32; n];
    let mut stamp = 0u32;
    let mut queue: Vec<u16> = Vec::with_capacity(n);
    for &(c, d) in pushes {
        let d = d as usize;
        if d > 3 || c as usize >= n || !occ[c as usize] {
            return None;
        }
        let from = board.nbr[c as usize][d ^ 1];
        let to = board.nbr[c as usize][d];
        if from == NONE || to == NONE || occ[to as usize] || occ[from as usize] {
            return None;
        }
        // Walk from `player` to `from`.
        stamp += 1;
        queue.clear();
        queue.push(player);
        seen[player as usize] = stamp;
        let mut head = 0;
        while head < queue.len() && seen[from as usize] != stamp {
            let x = queue[head];
            head += 1;
            for (e, &y) in board.nbr[x as usize].iter().enumerate() {
                if y != NONE && !occ[y as usize] && seen[y as usize] != stamp {
                    seen[y as usize] = stamp;
                    prev[y as usize] = (x, e as u8);
                    queue.push(y);
                }
            }
        }
        if seen[from as usize] != stamp {
            return None;
        }
        let mut walk = Vec::new();
        let mut x = from;
        while x != player {
            let (p, e) = prev[x as usize];
            walk.push(LETTER[e as usize]);
            x = p;
        }
        walk.reverse();
        text.extend(walk.iter().map(|&l| l as char));
        text.push(LETTER[d].to_ascii_uppercase() as char);
        occ[c as usize] = false;
        occ[to as usize] = true;
        player = c;
    }
    let moves = text.len();
    let lurd = Lurd {
        text,
        moves,
        pushes: pushes.len(),
    };
    Some((lurd, occ))
}
