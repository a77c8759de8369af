//! The pull removal test and the pocket search against an exhaustive
//! search of pulls; the removal test with the player against rounds of
//! fresh floods; the region after one push or pull against a fresh flood;
//! the pull removal test told which box moved, and the moved box's push
//! after a position without fixed boxes, against the full tests.

use super::super::board::{Board, DistTable, NONE};
use super::super::exhaustive::{random_position, reaches, small_microban_boards};
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
            let (t, _) = sp.pull_trapped(b, &dist.dead, &is_start, &boxes, player, false, None);
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

/// The small Microban boards and the first 12 boards of Sasquatch I.
fn microban_and_sasquatch_boards() -> Vec<Board> {
    let mut boards = small_microban_boards();
    for lv in
        games::sokoban::parse_levels(include_str!("../../../games/data/sokoban/sasquatch-i.xsb"))
            .expect("Sasquatch I parses")
            .iter()
            .take(12)
    {
        boards.push(Board::new(lv).expect("a valid level"));
    }
    boards
}

#[test]
fn a_box_pulled_from_a_position_that_passes_the_pull_test_settles_it_when_it_can_be_pulled_on() {
    // Random positions that pass the pull removal test, on the small
    // Microban boards and Sasquatch I boards; one box pulled one to three
    // times (a box move): the test told which box moved gives the verdict
    // of the full test, with the reach marks given or not.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let boards = microban_and_sasquatch_boards();
    let (mut settled, mut trapped, mut checked) = (0, 0, 0);
    for b in &boards {
        let dead = DistTable::from_sources(b, &b.start_boxes).dead;
        let mut is_start = vec![false; b.n];
        for &c in &b.start_boxes {
            is_start[c as usize] = true;
        }
        let mut sp = Space::new(b.n);
        let cells: Vec<u16> = (0..b.n as u16).collect();
        for k in 0..300 {
            let (mut boxes, mut player) =
                random_position(&mut rng, b.n, &cells, b.start_boxes.len());
            sp.set(&boxes);
            let (before, _) = sp.pull_trapped(b, &dead, &is_start, &boxes, player, false, None);
            if before {
                sp.clear(&boxes);
                continue;
            }
            // Pull box `i` up to three times, each pull one the player can
            // make where it stands.
            let i = rng.gen_range(0..boxes.len());
            let mut pulls = 0;
            for _ in 0..rng.gen_range(1..=3) {
                sp.reach(b, player, false);
                let c = boxes[i];
                let ways: Vec<(u16, u16)> = (0..4)
                    .filter_map(|d| {
                        let p = b.nbr[c as usize][d];
                        let t = if p == NONE {
                            NONE
                        } else {
                            b.nbr[p as usize][d]
                        };
                        (t != NONE && sp.reached(p) && sp.reached(t)).then_some((p, t))
                    })
                    .collect();
                let Some(&(p, t)) = ways.get(rng.gen_range(0..ways.len().max(1))) else {
                    break;
                };
                sp.occ[c as usize] = 0;
                sp.occ[p as usize] = i as u16 + 1;
                boxes[i] = p;
                player = t;
                pulls += 1;
            }
            sp.clear(&boxes);
            if pulls == 0 {
                continue;
            }
            let moved = boxes[i];
            let mut child = boxes.clone();
            child.sort_unstable();
            sp.set(&child);
            let (full, _) = sp.pull_trapped(b, &dead, &is_start, &child, player, false, None);
            sp.reach(b, player, false);
            let at_once = sp.pullable(b, &dead, moved);
            let marked = k % 2 == 0;
            let (told, _) =
                sp.pull_trapped(b, &dead, &is_start, &child, player, marked, Some(moved));
            sp.clear(&child);
            assert_eq!(
                told, full,
                "boxes {child:?}, player {player}, moved {moved}"
            );
            checked += 1;
            settled += usize::from(at_once);
            trapped += usize::from(full);
        }
    }
    assert!(checked > 1_000, "{checked} positions");
    assert!(
        settled > 300 && trapped > 20,
        "positions the moved box settles ({settled}) and trapped ones ({trapped})"
    );
}

#[test]
fn a_box_pushed_from_a_position_without_fixed_boxes_leaves_none_fixed_when_it_can_be_pushed_on() {
    // Random positions without fixed boxes, on the small Microban boards
    // and Sasquatch I boards; one box pushed one to three times (a box
    // move): when it can be pushed on from where it stands, the removal
    // test with the player leaves no box fixed either.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(37);
    let boards = microban_and_sasquatch_boards();
    let (mut settled, mut fixed, mut checked) = (0, 0, 0);
    for b in &boards {
        let dead = DistTable::to_targets(b, &b.goals).dead;
        let mut sp = Space::new(b.n);
        let cells: Vec<u16> = (0..b.n as u16).collect();
        for _ in 0..1_000 {
            let (mut boxes, mut player) =
                random_position(&mut rng, b.n, &cells, b.start_boxes.len());
            sp.set(&boxes);
            if !sp
                .immovable_with_player(b, &dead, &boxes, player, false)
                .is_empty()
            {
                sp.clear(&boxes);
                continue;
            }
            let i = rng.gen_range(0..boxes.len());
            let mut pushes = 0;
            for _ in 0..rng.gen_range(1..=3) {
                sp.reach(b, player, false);
                let c = boxes[i];
                let ways: Vec<(u16, u16)> = (0..4)
                    .filter_map(|d| {
                        let (p, t) = (b.nbr[c as usize][d ^ 1], b.nbr[c as usize][d]);
                        (p != NONE && t != NONE && sp.reached(p) && sp.occ[t as usize] == 0)
                            .then_some((t, c))
                    })
                    .collect();
                let Some(&(t, c)) = ways.get(rng.gen_range(0..ways.len().max(1))) else {
                    break;
                };
                sp.occ[c as usize] = 0;
                sp.occ[t as usize] = i as u16 + 1;
                boxes[i] = t;
                player = c;
                pushes += 1;
            }
            sp.clear(&boxes);
            if pushes == 0 {
                continue;
            }
            let moved = boxes[i];
            let mut child = boxes.clone();
            child.sort_unstable();
            sp.set(&child);
            sp.reach(b, player, false);
            let at_once = sp.pushable(b, &dead, moved);
            let left = sp.immovable_with_player(b, &dead, &child, player, true);
            sp.clear(&child);
            assert!(
                !at_once || left.is_empty(),
                "boxes {child:?}, player {player}, moved {moved}: {left:?} fixed"
            );
            checked += 1;
            settled += usize::from(at_once);
            fixed += usize::from(!left.is_empty());
        }
    }
    assert!(checked > 1_000, "{checked} positions");
    assert!(
        settled > 300 && fixed > 20,
        "positions the moved box settles ({settled}) and some with fixed boxes ({fixed})"
    );
}

/// The boxes that the removal test with the player leaves, found the slow
/// way: in rounds, the player's region flooded afresh over the board with
/// the boxes removed so far, every box it can push onto a free cell that
/// is not dead removed; until a round removes none. Sorted.
fn fixed_by_rounds(b: &Board, dead: &[bool], boxes: &[u16], player: u16) -> Vec<u16> {
    let mut left: Vec<u16> = boxes.to_vec();
    loop {
        let mut region = vec![false; b.n];
        let mut stack = vec![player];
        region[player as usize] = true;
        while let Some(x) = stack.pop() {
            for &y in &b.nbr[x as usize] {
                if y != u16::MAX && !region[y as usize] && !left.contains(&y) {
                    region[y as usize] = true;
                    stack.push(y);
                }
            }
        }
        let movable = |c: u16| {
            (0..4).any(|d| {
                let (p, t) = (b.nbr[c as usize][d ^ 1], b.nbr[c as usize][d]);
                p != u16::MAX
                    && t != u16::MAX
                    && region[p as usize]
                    && !left.contains(&t)
                    && !dead[t as usize]
            })
        };
        let keep: Vec<u16> = left.iter().copied().filter(|&c| !movable(c)).collect();
        if keep.len() == left.len() {
            left.sort_unstable();
            return left;
        }
        left = keep;
    }
}

#[test]
fn the_removal_test_with_the_player_leaves_the_boxes_rounds_of_floods_leave() {
    // Random positions on the small Microban boards and on Sasquatch I
    // boards: the boxes `immovable_with_player` leaves (reach marked
    // before or not) are those of rounds of fresh floods, and `occ` and
    // the reach marks come back as they were.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let boards = microban_and_sasquatch_boards();
    let (mut some_fixed, mut all_free, mut checked) = (0, 0, 0);
    for b in &boards {
        let dead = DistTable::to_targets(b, &b.goals).dead;
        let mut sp = Space::new(b.n);
        let cells: Vec<u16> = (0..b.n as u16).collect();
        for k in 0..150 {
            let (boxes, player) = random_position(&mut rng, b.n, &cells, b.start_boxes.len());
            let want = fixed_by_rounds(b, &dead, &boxes, player);
            sp.set(&boxes);
            let occ = sp.occ.clone();
            let marked = k % 2 == 0;
            if marked {
                sp.reach(b, player, false);
            }
            let mut got = sp.immovable_with_player(b, &dead, &boxes, player, marked);
            got.sort_unstable();
            assert_eq!(got, want, "boxes {boxes:?}, player {player}");
            assert_eq!(sp.occ, occ, "occ restored");
            let reach: Vec<u16> = (0..b.n as u16).filter(|&c| sp.reached(c)).collect();
            sp.reach(b, player, false);
            let fresh: Vec<u16> = (0..b.n as u16).filter(|&c| sp.reached(c)).collect();
            assert_eq!(reach, fresh, "the reach marks are the player's");
            sp.clear(&boxes);
            if want.is_empty() {
                all_free += 1;
            } else {
                some_fixed += 1;
            }
            checked += 1;
        }
    }
    assert!(checked > 3_000, "{checked} positions");
    assert!(
        some_fixed > 300 && all_free > 100,
        "both kinds of position: {some_fixed} with fixed boxes, {all_free} without"
    );
}

#[test]
fn the_region_after_a_push_or_pull_is_the_one_a_flood_finds_when_it_is_settled() {
    // Random positions and one random push or pull each, on the small
    // Microban boards and on Sasquatch I boards: whenever
    // `norm_after_move` settles the player's region without a flood, it
    // names the smallest cell a fresh flood finds, and the flood's region
    // is the old one with the box's old cell added and its new cell
    // taken out.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let boards = microban_and_sasquatch_boards();
    let (mut settled, mut flooded) = (0, 0);
    for b in &boards {
        let mut sp = Space::new(b.n);
        let cells: Vec<u16> = (0..b.n as u16).collect();
        for k in 0..400 {
            let (boxes, player) = random_position(&mut rng, b.n, &cells, b.start_boxes.len());
            sp.set(&boxes);
            let min = sp.reach(b, player, false);
            let region: Vec<u16> = (0..b.n as u16).filter(|&c| sp.reached(c)).collect();
            let mut bits = vec![0u64; super::bits::words(b.n)];
            for &c in &region {
                super::bits::set(&mut bits, c as usize);
            }
            // A push (box c to t, the player on c after) or a pull (box c
            // to t, the player one further on), from the region.
            let pull = k % 2 == 1;
            let moves: Vec<(u16, u16, u16)> = boxes
                .iter()
                .flat_map(|&c| (0..4).map(move |d| (c, d)))
                .filter_map(|(c, d)| {
                    let t = b.nbr[c as usize][d];
                    let behind = b.nbr[c as usize][d ^ 1];
                    let beyond = if t != NONE {
                        b.nbr[t as usize][d]
                    } else {
                        NONE
                    };
                    let free = |x: u16| x != NONE && sp.occ[x as usize] == 0;
                    if pull {
                        (free(t) && sp.reached(t) && free(beyond)).then_some((c, t, beyond))
                    } else {
                        (free(t) && behind != NONE && sp.reached(behind)).then_some((c, t, c))
                    }
                })
                .collect();
            if moves.is_empty() {
                sp.clear(&boxes);
                continue;
            }
            let (c, t, player) = moves[rng.gen_range(0..moves.len())];
            let v = sp.occ[c as usize];
            sp.occ[c as usize] = 0;
            sp.occ[t as usize] = v;
            let got = sp.norm_after_move(b, &bits, min, c, t);
            let want = sp.reach(b, player, false);
            if let Some(n) = got {
                assert_eq!(n, want, "boxes {boxes:?}, {c} to {t}, player {player}");
                let fresh: Vec<u16> = (0..b.n as u16).filter(|&x| sp.reached(x)).collect();
                let mut expect: Vec<u16> = region.iter().copied().filter(|&x| x != t).collect();
                expect.push(c);
                expect.sort_unstable();
                assert_eq!(fresh, expect, "boxes {boxes:?}, {c} to {t}");
                settled += 1;
            } else {
                flooded += 1;
            }
            sp.occ[t as usize] = 0;
            sp.occ[c as usize] = v;
            sp.clear(&boxes);
        }
    }
    assert!(
        settled > 2_000 && flooded > 500,
        "both kinds of move: {settled} settled, {flooded} flooded"
    );
}
