//! Rule tests for Botzone Snake, one per clause of the judge.

use super::*;

/// A state with the given bodies (head first, 1-based (x, y)) at `round`.
fn with_bodies(
    n: i64,
    m: i64,
    obstacles: &[(i64, i64)],
    b0: &[(i64, i64)],
    b1: &[(i64, i64)],
    round: u32,
) -> Snake {
    let mut s = Snake::new(n, m, obstacles).unwrap();
    let idx = |&(x, y): &(i64, i64)| ((x - 1) * m + (y - 1)) as u8;
    s.occupied = Bits::new();
    for (k, body) in [b0, b1].iter().enumerate() {
        let mut b = Body::new(idx(body.last().unwrap()));
        for cell in body.iter().rev().skip(1) {
            b.push_front(idx(cell));
        }
        for c in b.iter() {
            s.occupied.set(c as usize);
        }
        s.bodies[k] = b;
    }
    s.round = round;
    s
}

#[test]
fn growth_schedule_is_rounds_1_to_10_then_every_third() {
    let growing: Vec<u32> = (0..20).filter(|&t| grows(t)).collect();
    assert_eq!(growing, vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 18]);
    // Length after k rounds on an open board: k+1 for k <= 10, then 11 + (k-10)/3.
    let mut s = Snake::new(16, 12, &[]).unwrap();
    let path0 = [1u8; 11]
        .iter()
        .chain([2u8; 15].iter())
        .copied()
        .collect::<Vec<_>>();
    let path1 = [3u8; 11]
        .iter()
        .chain([0u8; 15].iter())
        .copied()
        .collect::<Vec<_>>();
    for k in 0..20 {
        s.play(path0[k], path1[k]);
        let k = k + 1;
        let want = if k <= 10 { k + 1 } else { 11 + (k - 10) / 3 };
        assert_eq!(s.len(0), want, "after {k} rounds");
        assert_eq!(s.len(1), want, "after {k} rounds");
        assert!(!s.is_over());
    }
}

#[test]
fn own_tail_is_free_on_a_non_growing_round_only() {
    let body = [(1, 2), (2, 2), (2, 1), (1, 1)];
    let other = [(5, 5)];
    let mut s = with_bodies(5, 5, &[], &body, &other, 10);
    assert!(!grows(10));
    assert!(s.is_safe(0, 3));
    s.play(3, 0);
    assert!(s.alive(0) && s.alive(1));
    assert_eq!(s.body(0), vec![(1, 1), (1, 2), (2, 2), (2, 1)]);

    let mut s = with_bodies(5, 5, &[], &body, &other, 9);
    assert!(grows(9));
    assert!(!s.is_safe(0, 3));
    s.play(3, 0);
    assert!(!s.alive(0) && s.alive(1));
    assert_eq!(s.scores(), Some([0, 2]));
}

#[test]
fn opponent_tail_is_free_on_a_non_growing_round_only() {
    // Snake 1's tail is at (1,2), right of snake 0's head.
    let b0 = [(1, 1)];
    let b1 = [(3, 2), (2, 2), (1, 2)];
    let mut s = with_bodies(5, 5, &[], &b0, &b1, 13);
    s.play(1, 2);
    assert!(s.alive(0) && s.alive(1), "{s:?}");
    assert_eq!(s.body(0), vec![(1, 2)]);
    let mut s = with_bodies(5, 5, &[], &b0, &b1, 12);
    s.play(1, 2);
    assert_eq!(s.scores(), Some([0, 2]));
}

#[test]
fn head_swap_kills_both() {
    let mut s = with_bodies(4, 5, &[], &[(1, 1)], &[(1, 2)], 0);
    s.play(1, 3);
    assert_eq!(s.scores(), Some([1, 1]));
    assert_eq!(s.result(0), PlayerResult::Draw);
}

#[test]
fn head_to_head_into_one_cell_kills_both_on_an_even_board() {
    // n + m = 6 is even: the heads can meet.
    let mut s = with_bodies(3, 3, &[], &[(2, 1)], &[(2, 3)], 0);
    s.play(1, 3);
    assert!(!s.alive(0) && !s.alive(1));
    assert_eq!(s.scores(), Some([1, 1]));
    // From the real start cells too: (1,1) and (3,3) both reach (2,2) in two rounds.
    let mut s = Snake::new(3, 3, &[]).unwrap();
    s.play(2, 0); // (2,1) and (2,3)
    assert!(!s.is_over());
    s.play(1, 3);
    assert_eq!(s.scores(), Some([1, 1]));
}

#[test]
fn reversing_into_ones_neck_is_fatal() {
    let mut s = with_bodies(4, 5, &[], &[(1, 2), (1, 1)], &[(4, 5)], 1);
    assert!(!s.is_safe(0, 3));
    s.play(3, 3);
    assert_eq!(s.scores(), Some([0, 2]));
}

#[test]
fn edges_and_obstacles_kill() {
    let mut s = Snake::new(4, 5, &[(4, 4)]).unwrap();
    s.play(0, 0); // snake 0 off the top edge; snake 1 up to (3,5)
    assert_eq!(s.scores(), Some([0, 2]));
    let mut s = Snake::new(4, 5, &[(4, 4)]).unwrap();
    s.play(1, 3); // snake 1 into the obstacle at (4,4)
    assert_eq!(s.scores(), Some([2, 0]));
    assert_eq!(s.result(0), PlayerResult::Win);
    assert_eq!(s.result(1), PlayerResult::Loss);
}

#[test]
fn snake_zero_moves_first_so_it_hits_the_cell_snake_one_leaves() {
    // Snake 0 targets snake 1's head, which is still there when snake 0 moves.
    let mut s = with_bodies(4, 5, &[], &[(1, 1)], &[(1, 2)], 0);
    s.play(1, 1);
    assert_eq!(s.scores(), Some([0, 2]));
    assert_eq!(s.body(1), vec![(1, 3), (1, 2)]);
}

#[test]
fn snake_one_hits_the_cell_snake_zero_just_left() {
    // Snake 0 moves down from (1,2); snake 1 moves into (1,2), now snake 0's neck.
    let mut s = with_bodies(4, 5, &[], &[(1, 2)], &[(1, 3)], 0);
    s.play(2, 3);
    assert_eq!(s.scores(), Some([2, 0]));
}

#[test]
fn snake_one_entering_dead_snake_zeros_old_head_is_a_draw() {
    let mut s = with_bodies(4, 5, &[], &[(1, 1)], &[(1, 2)], 0);
    s.play(0, 3); // snake 0 off the board; snake 1 into its (old) head
    assert_eq!(s.scores(), Some([1, 1]));
}

#[test]
fn first_death_ends_the_game_and_nothing_moves_after() {
    let mut s = Snake::new(4, 5, &[]).unwrap();
    s.play(0, 0);
    assert!(s.is_over());
    let before = s.clone();
    s.play(1, 1);
    assert_eq!(s, before);
    assert!(!s.is_active(0) && !s.is_active(1));
}

#[test]
fn max_rounds_ends_in_a_draw() {
    let mut s = Snake::new(16, 12, &[]).unwrap();
    s.set_max_rounds(2);
    s.play(1, 3);
    s.play(1, 3);
    assert!(s.is_over());
    assert_eq!(s.scores(), Some([1, 1]));
}

#[test]
fn bad_maps_are_rejected() {
    assert!(matches!(Snake::new(0, 5, &[]), Err(MapError::Size { .. })));
    assert!(matches!(
        Snake::new(20, 20, &[]),
        Err(MapError::Size { .. })
    ));
    let e = Snake::new(4, 5, &[(1, 1)]).unwrap_err();
    assert_eq!(e.to_string(), "obstacle 0 at (x=1, y=1): on a start cell");
    assert!(Snake::new(4, 5, &[(5, 1)]).is_err());
}

#[test]
fn ten_thousand_generated_maps_are_symmetric_connected_and_in_range() {
    let mut sizes = std::collections::BTreeSet::new();
    for seed in 0..10_000u32 {
        let (n, m, obs) = generate_map(seed.wrapping_mul(2_654_435_761));
        assert!((10..=12).contains(&m), "m = {m}");
        assert!((10..=16).contains(&n), "n = {n}");
        assert_eq!((n + m) % 2, 1, "{n}x{m}");
        sizes.insert((n, m));
        let k = n * m / 10;
        let s = Snake::new(n, m, &obs).unwrap();
        let cells: Vec<(usize, usize)> = s.obstacles();
        assert_eq!(cells.len() as i64, 2 * (k / 2), "{n}x{m}");
        for &(x, y) in &cells {
            let mirror = (n as usize + 1 - x, m as usize + 1 - y);
            assert!(cells.contains(&mirror), "({x},{y}) without mirror");
        }
        assert!(s.free_cells_connected());
    }
    // Every size the judge can draw shows up.
    // m = 10 or 12: n in {11, 13, 15}; m = 11: n in {10, 12, 14, 16}.
    assert_eq!(sizes.len(), 10, "{sizes:?}");
}

#[test]
fn generated_maps_are_the_judges_maps_for_the_same_seed() {
    let text = include_str!("../../data/snake/judge-maps.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut f = line.split_whitespace();
        let mut num = || f.next().unwrap().parse::<i64>().unwrap();
        let (seed, n, m) = (num(), num(), num());
        let obs: Vec<(i64, i64)> = line
            .split_whitespace()
            .skip(3)
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(generate_map(seed as u32), (n, m, obs), "seed {seed}");
        checked += 1;
    }
    assert_eq!(checked, 106);
}

#[test]
fn glibc_rand_matches_the_c_library() {
    // srand(1): the first values every glibc program prints.
    let mut g = GlibcRand::new(1);
    let first: Vec<i32> = (0..5).map(|_| g.rand()).collect();
    assert_eq!(
        first,
        [1804289383, 846930886, 1681692777, 1714636915, 1957747793]
    );
    // srand(0) is srand(1).
    assert_eq!(GlibcRand::new(0).rand(), 1804289383);
}

#[test]
fn a_direction_outside_0_to_3_is_fatal_as_in_the_judge() {
    let mut s = Snake::new(10, 11, &[]).unwrap();
    s.play(4, 3);
    assert!(!s.alive(0) && s.alive(1) && s.is_over());
    assert_eq!(s.scores(), Some([0, 2]));
}

#[test]
fn judge_maps_pass_the_testkit() {
    use crate::testkit::{check_game, check_game_with, random_policy, KitConfig};
    use rand::seq::SliceRandom;
    for seed in 0..6u32 {
        let (n, m, obs) = generate_map(seed);
        let start = Snake::new(n, m, &obs).unwrap();
        // Random moves: short games, many of them.
        let r = check_game(&start, &KitConfig::new(30, 200, seed as u64));
        assert_eq!(r.finished, 30);
        // Safe moves where there are some: long games (growth, tails that
        // leave, head-on collisions).
        let cfg = KitConfig::new(10, 300, seed as u64);
        let r = check_game_with(&start, &cfg, |s: &Snake, seat, rng| {
            let safe: Vec<u8> = (0..4).filter(|&d| s.is_safe(seat, d)).collect();
            match safe.choose(rng) {
                Some(&d) => d,
                None => random_policy(s, seat, rng),
            }
        });
        assert!(r.longest > 12, "{r:?}");
    }
    // A round limit ends the game in a draw.
    let (n, m, obs) = generate_map(99);
    let mut start = Snake::new(n, m, &obs).unwrap();
    start.set_max_rounds(3);
    assert_eq!(check_game(&start, &KitConfig::new(8, 10, 1)).playouts, 8);
}
