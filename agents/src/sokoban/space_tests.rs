//! The pull removal test and the pocket search against an exhaustive
//! search of pulls.

use super::super::board::{Board, DistTable};
use super::super::exhaustive::{reaches, small_microban_boards};
use super::super::search::Way;
use super::Space;
use rand::{Rng, SeedableRng};

/// Whether single player steps, each optionally pulling the box behind the
/// player, lead from `boxes` with the player on `player` to the start (no
/// pruning at all); panics past `cap` states.
fn pulls_reach_start(b: &Board, boxes: &[u16], player: u16, cap: usize) -> bool {
    let mut start = b.start_boxes.clone();
    start.sort_unstable();
    reaches(b, boxes, player, Way::Backward, cap, |p, bx| {
        p == b.start_player && bx == start
    })
}

#[test]
fn pull_trapped_positions_can_never_be_pulled_back_to_the_start() {
    // Random positions on the small Microban boards: whenever the pull
    // removal test or the pocket search says a position is trapped, no
    // sequence of pulls takes it back to the start.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut trapped, mut free) = (0, 0);
    let (mut pockets, mut pocket_only) = (0, 0);
    let boards = small_microban_boards();
    for b in &boards {
        let dist = DistTable::from_sources(b, &b.start_boxes);
        let mut is_start = vec![false; b.n];
        for &c in &b.start_boxes {
            is_start[c as usize] = true;
        }
        let mut sp = Space::new(b.n);
        for k in 0..150 {
            let mut cells: Vec<u16> = (0..b.n as u16).collect();
            let nb = b.start_boxes.len();
            for i in 0..=nb {
                let j = rng.gen_range(i..cells.len());
                cells.swap(i, j);
            }
            let mut boxes = cells[..nb].to_vec();
            boxes.sort_unstable();
            let mut player = cells[nb];
            if k % 3 == 0 {
                // Near the start: one box moved, the player anywhere free.
                let mut near = b.start_boxes.clone();
                if !near.contains(&player) {
                    let i = rng.gen_range(0..nb);
                    near[i] = player;
                }
                near.sort_unstable();
                boxes = near;
                let free_cells: Vec<u16> = (0..b.n as u16).filter(|c| !boxes.contains(c)).collect();
                player = free_cells[rng.gen_range(0..free_cells.len())];
            }
            sp.set(&boxes);
            let (t, _) = sp.pull_trapped(b, &dist.dead, &is_start, &boxes, player, false);
            let before: Vec<u16> = sp.occ.clone();
            let pocket = sp.pocket_trapped(b, &dist.dead, &boxes, player, 64, 12);
            assert_eq!(sp.occ, before, "the pocket search restores occ");
            sp.clear(&boxes);
            check(b, &boxes, player, t, &mut trapped, &mut free);
            if pocket {
                pockets += 1;
                pocket_only += usize::from(!t);
                assert!(
                    !pulls_reach_start(b, &boxes, player, 2_000_000),
                    "pocket trapped, yet the start is reachable: boxes {boxes:?}, player {player}"
                );
            }
        }
    }
    assert!(
        trapped > 100,
        "the sample has trapped positions ({trapped})"
    );
    assert!(
        free > 100,
        "the sample has positions the test lets through ({free})"
    );
    assert!(
        pockets > 20 && pocket_only > 0,
        "the pocket search flags positions ({pockets}), some that the removal test lets through ({pocket_only})"
    );
}

fn check(b: &Board, boxes: &[u16], player: u16, trapped: bool, n: &mut usize, free: &mut usize) {
    if trapped {
        *n += 1;
        assert!(
            !pulls_reach_start(b, boxes, player, 2_000_000),
            "trapped, yet the start is reachable: boxes {boxes:?}, player {player}"
        );
    } else {
        *free += 1;
    }
}
