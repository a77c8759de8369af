//! Goals sealed off by boxes that can never move again.
//!
//! A box that can never be pushed again (frozen on its goal, or shut in so
//! the player can never reach a side of it) stays where it is for good: it
//! is a wall for the rest of the game. The push distances of the board
//! ignore that, so a search can go on for a long time in positions where
//! some empty goal can no longer be reached, e.g. a one-way corridor of
//! goals whose entrance is blocked by such a box. [`Supply`] records, for
//! each goal, the cells from which a box could still be pushed onto it on
//! the board where the fixed boxes are walls and no other box is in the way
//! (a relaxation: more boxes can only make it harder, so an empty goal that
//! no movable box can supply is a proof of deadlock).

use super::board::{Board, NONE};

/// For each goal, the cells a box can be pushed onto it from, with a given
/// set of fixed boxes as walls.
#[derive(Clone, Debug)]
pub(crate) struct Supply {
    /// `from[j]`: `None` for a goal under a fixed box, else a flag per cell.
    from: Vec<Option<Vec<bool>>>,
}

impl Supply {
    /// The supply regions of every goal of `b` with `fixed` (a flag per
    /// cell) as walls. The player's moves around the pulled box use the
    /// side classes (sides the player can walk between around a lone box)
    /// of the board with the fixed boxes as walls: a goal whose only way in
    /// went around a fixed box gets no supply from the far side any more.
    pub fn new(b: &Board, fixed: &[bool]) -> Supply {
        let n = b.n;
        let side_class = b.side_classes_with(fixed);
        let mut seen = vec![0u32; n * 4];
        let mut stamp = 0u32;
        let mut queue: Vec<(u16, u8)> = Vec::new();
        let mut from = Vec::with_capacity(b.goals.len());
        for &g in &b.goals {
            if fixed[g as usize] {
                from.push(None);
                continue;
            }
            stamp += 1;
            let mut region = vec![false; n];
            region[g as usize] = true;
            queue.clear();
            // Box on c, player on side d (and on every side of its class).
            let visit = |c: u16, d: usize, seen: &mut Vec<u32>, queue: &mut Vec<(u16, u8)>| {
                let cls = side_class[c as usize][d];
                for e in 0..4 {
                    let s = b.nbr[c as usize][e];
                    if side_class[c as usize][e] == cls
                        && s != NONE
                        && !fixed[s as usize]
                        && seen[c as usize * 4 + e] != stamp
                    {
                        seen[c as usize * 4 + e] = stamp;
                        queue.push((c, e as u8));
                    }
                }
            };
            for d in 0..4 {
                let s = b.nbr[g as usize][d];
                if s != NONE && !fixed[s as usize] {
                    visit(g, d, &mut seen, &mut queue);
                }
            }
            let mut head = 0;
            while head < queue.len() {
                let (c, d) = queue[head];
                head += 1;
                // Pull: the player on p = c + d steps to q = p + d.
                let p = b.nbr[c as usize][d as usize];
                let q = b.nbr[p as usize][d as usize];
                if q == NONE || fixed[q as usize] {
                    continue;
                }
                region[p as usize] = true;
                visit(p, d as usize, &mut seen, &mut queue);
            }
            from.push(Some(region));
        }
        Supply { from }
    }

    /// Whether every goal not under a fixed box is empty only if some box of
    /// `movable` stands in its supply region (a box already on it counts).
    pub fn all_supplied(&self, b: &Board, movable: &[u16]) -> bool {
        self.from.iter().zip(&b.goals).all(|(reg, &g)| match reg {
            None => true,
            Some(r) => movable.iter().any(|&c| c == g || r[c as usize]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{solve, Method, SolveOptions, SolveStatus};
    use games::sokoban::parse_level;
    use games::UnlimitedTimer;

    /// A state `fess` reached on Sasquatch I level 25: the goal column on
    /// the left (rows 2 to 5) can only take boxes through (3,8), and the
    /// player can only get below a box there by the column's foot, which
    /// the fixed boxes at (6,8) and (7,8) now close. The supply regions see
    /// that only when the side classes take the fixed boxes as walls; with
    /// the board's own, a search made thousands of expansions.
    #[test]
    fn a_goal_reached_only_around_a_fixed_box_is_sealed() {
        let lv = parse_level(
            "
##################
##########@ ######
######  .#      ##
###### #.       ##
######  .#$      #
########.#   $ $ #
########*  ##$ ###
########*###*  ###
##      ****######
## # #  ****######
#        #**######
#        #**######
#  ###############
##################
",
        )
        .expect("test level parses");
        for m in [Method::Fess, Method::Greedy, Method::AStar] {
            let r = solve(&lv, &SolveOptions::with_method(m), &UnlimitedTimer);
            assert_eq!(r.status, SolveStatus::Unsolvable, "{}", m.name());
            assert!(r.expanded <= 1, "{}: {}", m.name(), r.expanded);
        }
    }
}
