//! Rule tests for Bait on small hand-made levels, one per interaction.

use super::*;
use BaitAction::*;

fn play(level: &str, actions: &[BaitAction]) -> Bait {
    let mut s = Bait::parse(level).unwrap();
    for &a in actions {
        s.advance(&[a]);
    }
    s
}

#[test]
fn box_into_hole_scores_one_and_both_vanish() {
    let s = play("wwwwww\nwA10gw\nwwwwww", &[Right]);
    assert_eq!(s.grid_string(), "wwwwww/w.A.gw/wwwwww");
    assert_eq!(s.int_score(), 1);
    assert!(!s.is_over());
    // The filled hole is floor now: the avatar walks over it.
    let s = play("wwwwww\nwA10gw\nwwwwww", &[Right, Right]);
    assert_eq!(s.avatar(), (3, 1));
    assert!(s.alive());
}

#[test]
fn box_against_wall_box_or_mushroom_blocks_the_whole_move() {
    for (level, after) in [
        ("wwwww\nwA1ww\nwgwww\nwwwww", "wwwww/wA1ww/wgwww/wwwww"),
        ("wwwwwww\nwA11.gw\nwwwwwww", "wwwwwww/wA11.gw/wwwwwww"),
        ("wwwwwww\nwA1m.gw\nwwwwwww", "wwwwwww/wA1m.gw/wwwwwww"),
    ] {
        let s = play(level, &[Right]);
        assert_eq!(s.grid_string(), after, "level {level:?}");
        assert_eq!(s.int_score(), 0);
        assert_eq!(s.tick(), 1);
    }
}

#[test]
fn avatar_into_hole_dies_and_stays_on_it() {
    let s = play("wwwww\nwA0gw\nwwwww", &[Right]);
    assert!(s.is_over());
    assert!(!s.alive());
    assert_eq!(s.result(0), PlayerResult::Loss);
    assert_eq!(s.avatar(), (2, 1));
    assert_eq!(s.grid_string(), "wwwww/w.Xgw/wwwww");
}

#[test]
fn key_then_goal_wins_with_five() {
    let s = play("wwwww\nwAkgw\nwwwww", &[Right]);
    assert!(s.has_key());
    assert_eq!(s.grid_string(), "wwwww/w.Bgw/wwwww");
    let s = play("wwwww\nwAkgw\nwwwww", &[Right, Right]);
    assert!(s.is_over() && s.won());
    assert_eq!(s.int_score(), 5);
    assert_eq!(s.result(0), PlayerResult::Win);
    assert_eq!(s.avatar(), (3, 1));
}

#[test]
fn mushroom_scores_one() {
    let s = play("wwwwww\nwAm.gw\nwwwwww", &[Right]);
    assert_eq!(s.int_score(), 1);
    assert_eq!(s.grid_string(), "wwwwww/w.A.gw/wwwwww");
}

#[test]
fn goal_without_key_blocks() {
    let s = play("wwwww\nwAgkw\nwwwww", &[Right]);
    assert_eq!(s.avatar(), (1, 1));
    assert!(!s.is_over());
}

#[test]
fn wall_blocks_the_avatar() {
    let s = play("wwww\nwAgw\nwwww", &[Up, Left]);
    assert_eq!(s.avatar(), (1, 1));
    assert_eq!(s.tick(), 2);
}

#[test]
fn box_on_goal_is_pushed_off_but_keyless_avatar_stays() {
    // Push a box onto the goal, then push it on from the other side.
    let s = play("wwwwwww\nwA1g.kw\nwwwwwww", &[Right]);
    assert_eq!(s.grid_string(), "wwwwwww/w.AG.kw/wwwwwww");
    let s = play("wwwwwww\nwA1g.kw\nwwwwwww", &[Right, Right]);
    assert_eq!(s.grid_string(), "wwwwwww/w.Ag1kw/wwwwwww");
}

#[test]
fn pushing_a_box_off_the_key_picks_the_key_up() {
    let s = play("wwwwwww\nwA1k.gw\nwwwwwww", &[Right, Right]);
    assert_eq!(s.grid_string(), "wwwwwww/w..B1gw/wwwwwww");
    assert!(s.has_key());
}

#[test]
fn nil_until_the_step_limit_loses_after_2001_advances() {
    let mut s = Bait::level(0).unwrap();
    let mut n = 0;
    while !s.is_over() {
        s.advance(&[Nil]);
        n += 1;
    }
    assert_eq!(n, 2001);
    assert_eq!(s.tick(), 2001);
    assert_eq!(s.result(0), PlayerResult::Loss);
}

#[test]
fn level_zero_known_win() {
    // Push the right box down, the left box aside, take the key, walk to the door.
    let s = play(
        LEVELS[0],
        &[Down, Right, Down, Left, Down, Up, Up, Up, Left],
    );
    assert!(s.won());
    assert_eq!(s.int_score(), 5);
    assert_eq!(s.tick(), 9); // GVGAI prints timesteps:8 for this 9-action win
    assert_eq!(s.avatar(), (1, 1));
}

#[test]
fn all_original_levels_parse() {
    let sizes = [(5, 6), (13, 9), (13, 10), (13, 11), (7, 9)];
    for (i, &(w, h)) in sizes.iter().enumerate() {
        let s = Bait::level(i).unwrap();
        assert_eq!((s.width(), s.height()), (w, h), "level {i}");
        assert_eq!(s.cells_of(BaitObject::Key).len(), 1);
        assert_eq!(s.cells_of(BaitObject::Goal).len(), 1);
    }
    let boxes_holes = [(2, 0), (2, 2), (6, 17), (36, 38), (8, 7)];
    for (i, &(b, h)) in boxes_holes.iter().enumerate() {
        let s = Bait::level(i).unwrap();
        assert_eq!(s.cells_of(BaitObject::Box).len(), b, "boxes in level {i}");
        assert_eq!(s.cells_of(BaitObject::Hole).len(), h, "holes in level {i}");
    }
}

#[test]
fn malformed_levels_name_line_and_column() {
    let e = Bait::parse("www\nwAx\nwgw").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert!(e.message.contains("unknown character 'x'"), "{e}");
    let e = Bait::parse("www\nwA\nwgw").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("expected 3"), "{e}");
    let e = Bait::parse("www\nw.g\nwww").unwrap_err();
    assert!(e.message.contains("no avatar"), "{e}");
    let e = Bait::parse("www\nwA.\nwww").unwrap_err();
    assert!(e.message.contains("no goal"), "{e}");
    let e = Bait::parse("wwww\nwAAg\nwwww").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    // GVGAI lets the avatar walk off an open edge: such levels are refused,
    // at the first border cell that is not a wall.
    let e = Bait::parse("wwww\nwA.g\nwwww").unwrap_err();
    assert_eq!((e.line, e.column), (2, 4));
    assert!(e.message.contains("enclosed by walls"), "{e}");
    let e = Bait::parse("ww.w\nwAgw\nwwww").unwrap_err();
    assert_eq!((e.line, e.column), (1, 3));
    // parse_open takes them (for tests), the edge acting as a wall.
    let mut s = Bait::parse_open("wwww\nwA.g\nwwww").unwrap();
    s.step_action(BaitAction::Right);
    assert_eq!(s.avatar(), (2, 1));
}

#[test]
fn hash_and_eq_ignore_the_tick() {
    use std::collections::HashSet;
    let a = Bait::level(1).unwrap();
    let mut b = a.clone();
    b.advance(&[Nil]);
    assert_eq!(a, b);
    let mut set = HashSet::new();
    set.insert(a.clone());
    assert!(set.contains(&b));
    let mut c = a.clone();
    c.advance(&[Left]);
    assert_ne!(a, c);
}

// ---------------------------------------------------------------------------
// Equivalence with the reference implementation (the code before the
// performance rework: avatar column/row in the state, Zobrist keys, no
// division per move), on random levels and random action sequences.

use proptest::prelude::*;
use reference::RefBait;

const ACTIONS: [BaitAction; 5] = [Nil, Up, Down, Left, Right];

/// Compare every observable of the two implementations.
fn same(s: &Bait, r: &RefBait) -> Result<(), TestCaseError> {
    prop_assert_eq!(s.grid_string(), r.grid_string());
    prop_assert_eq!(s.avatar(), r.avatar());
    prop_assert_eq!(s.int_score(), r.int_score());
    prop_assert_eq!(s.tick(), r.tick);
    prop_assert_eq!(s.is_over(), r.over);
    prop_assert_eq!(s.won(), r.won());
    prop_assert_eq!(s.alive(), r.alive());
    prop_assert_eq!(s.has_key(), r.has_key());
    prop_assert_eq!(s.board_key(), s.compute_board_key());
    Ok(())
}

fn run_both(level: &str, actions: &[usize], max_ticks: u32) -> Result<(), TestCaseError> {
    let mut s = Bait::parse_open(level).unwrap().with_max_ticks(max_ticks);
    let mut r = RefBait::parse(level).unwrap().with_max_ticks(max_ticks);
    same(&s, &r)?;
    let mut seen: std::collections::HashMap<u64, (Bait, RefBait)> = Default::default();
    for &a in actions {
        s.step_action(ACTIONS[a]);
        r.step_action(ACTIONS[a]);
        same(&s, &r)?;
        // Equal keys come from equal positions (no collision on these small
        // walks), and equal positions have equal keys.
        if let Some((s2, r2)) = seen.get(&s.key()) {
            prop_assert!(s2 == &s, "key collision");
            prop_assert!(r2 == &r, "reference disagrees on equality");
        }
        seen.insert(s.key(), (s.clone(), r.clone()));
    }
    Ok(())
}

/// A random level of up to 8x8 cells: any mix of the level characters with
/// one avatar and at least one goal; no wall border, so moves off the grid
/// are exercised too.
fn level_strategy() -> impl Strategy<Value = String> {
    (1usize..=8, 1usize..=8)
        .prop_flat_map(|(w, h)| {
            let n = w * h;
            (
                Just(w),
                proptest::collection::vec(
                    prop_oneof![
                        4 => Just('.'),
                        2 => Just('w'),
                        2 => Just('1'),
                        2 => Just('0'),
                        1 => Just('k'),
                        1 => Just('g'),
                        1 => Just('m'),
                    ],
                    n,
                ),
                0..n,
                0..n,
            )
        })
        .prop_filter("avatar and goal on different cells", |(_, _, a, g)| a != g)
        .prop_map(|(w, mut cells, a, g)| {
            cells[a] = 'A';
            cells[g] = 'g';
            cells
                .chunks(w)
                .map(|r| r.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("\n")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_levels_play_exactly_like_the_reference(
        level in level_strategy(),
        actions in proptest::collection::vec(0usize..5, 0..80),
        max_ticks in prop_oneof![Just(MAX_TIMESTEPS), 0u32..40],
    ) {
        run_both(&level, &actions, max_ticks)?;
    }

    /// `walk_to` is the same as walking over empty floor one move at a time,
    /// and `is_empty_floor` is "none of the six objects".
    #[test]
    fn walk_to_equals_stepping_over_empty_floor(
        level in level_strategy(),
        actions in proptest::collection::vec(1usize..5, 0..80),
        max_ticks in prop_oneof![Just(MAX_TIMESTEPS), 0u32..40],
    ) {
        let mut s = Bait::parse_open(&level).unwrap().with_max_ticks(max_ticks);
        for c in 0..s.cells() + 3 {
            let any = [BaitObject::Wall, BaitObject::Box, BaitObject::Hole, BaitObject::Mushroom,
                BaitObject::Key, BaitObject::Goal].iter().any(|&o| s.has(o, c));
            prop_assert_eq!(s.is_empty_floor(c), c < s.cells() && !any);
        }
        let mut t = s.clone();
        let mut pending = 0u32;
        for &a in &actions {
            let before = s.clone();
            s.step_action(ACTIONS[a]);
            let moved_onto_floor = !s.is_over()
                && s.avatar_cell() != before.avatar_cell()
                && before.is_empty_floor(s.avatar_cell());
            if moved_onto_floor {
                pending += 1;
                continue;
            }
            if pending > 0 {
                prop_assert!(t.walk_to(before.avatar_cell(), pending));
                pending = 0;
            }
            prop_assert_eq!(t.key(), before.key());
            prop_assert_eq!(t.tick(), before.tick());
            t.step_action(ACTIONS[a]);
            prop_assert_eq!(t.key(), s.key());
            prop_assert_eq!(t.tick(), s.tick());
            prop_assert_eq!(t.is_over(), s.is_over());
        }
        if pending > 0 {
            prop_assert!(t.walk_to(s.avatar_cell(), pending));
        }
        prop_assert_eq!(t.key(), s.key());
        prop_assert_eq!(t.tick(), s.tick());
        prop_assert_eq!(t.is_over(), s.is_over());
        prop_assert_eq!(t.avatar(), s.avatar());
    }

    #[test]
    fn shipped_levels_play_exactly_like_the_reference(
        level in 0usize..5,
        actions in proptest::collection::vec(0usize..5, 0..300),
    ) {
        run_both(LEVELS[level], &actions, MAX_TIMESTEPS)?;
    }
}

#[test]
fn long_random_walks_match_the_reference_up_to_the_step_limit() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for (i, level) in LEVELS.iter().enumerate() {
        // Walks biased to NIL survive to the step limit.
        let actions: Vec<usize> = (0..2100)
            .map(|_| {
                if rng.gen_bool(0.9) {
                    0
                } else {
                    rng.gen_range(1..5)
                }
            })
            .collect();
        run_both(level, &actions, MAX_TIMESTEPS).unwrap_or_else(|e| panic!("level {i}: {e}"));
    }
}

#[test]
fn keys_tell_positions_apart_and_ignore_the_tick() {
    let a = Bait::level(0).unwrap();
    let mut b = a.clone();
    b.step_action(Nil);
    assert_eq!(a.key(), b.key());
    let mut c = a.clone();
    c.step_action(Down); // pushes nothing, just moves
    assert_ne!(a.key(), c.key());
    assert_eq!(a.board_key(), c.board_key());
    // Taking the key changes the position key and the board key.
    let s = play("wwwww\nwAkgw\nwwwww", &[]);
    let t = play("wwwww\nwAkgw\nwwwww", &[Right]);
    assert_ne!(s.board_key(), t.board_key());
    assert_ne!(s.key(), t.key());
    // Dying changes the key even where the board does not change.
    let s = play("wwwww\nwA0gw\nwwwww", &[]);
    let t = play("wwwww\nwA0gw\nwwwww", &[Right]);
    assert_eq!(s.board_key(), t.board_key());
    assert_ne!(s.key(), t.key());
}

#[test]
fn index_accessors_agree_with_the_coordinate_ones() {
    for i in 0..5 {
        let s = Bait::level(i).unwrap();
        let w = s.width();
        assert_eq!(s.cells(), w * s.height());
        let (c, r) = s.avatar();
        assert_eq!(s.avatar_cell(), r * w + c);
        for what in [
            BaitObject::Wall,
            BaitObject::Box,
            BaitObject::Hole,
            BaitObject::Key,
            BaitObject::Goal,
            BaitObject::Mushroom,
        ] {
            let cells: Vec<usize> = s.cells_with(what).collect();
            assert_eq!(cells.len(), s.count(what));
            let coords: Vec<(usize, usize)> = cells.iter().map(|&i| (i % w, i / w)).collect();
            assert_eq!(coords, s.cells_of(what));
            for cell in 0..s.cells() {
                assert_eq!(s.has(what, cell), cells.contains(&cell));
            }
            assert!(!s.has(what, MAX_CELLS + 3));
        }
    }
}

#[test]
fn the_shipped_levels_pass_the_testkit() {
    use crate::testkit::{check_game, check_game_with, Fallback, KitConfig};
    // NIL is Bait's fallback: legal, not listed (GVGAI's available actions
    // leave it out), and a no-op.
    for (i, level) in LEVELS.iter().enumerate() {
        let start = Bait::parse(level).unwrap();
        let cfg = KitConfig::new(10, 300, i as u64).with_fallback(Fallback::UnlistedNoop);
        let r = check_game(&start, &cfg);
        assert!(r.equal_pairs > 0, "level {i}: {r:?}");
    }
    // The step limit: a game of NILs ends after 2001 advances.
    let start = Bait::parse(LEVELS[0]).unwrap();
    let cfg = KitConfig::new(1, 2100, 7).with_fallback(Fallback::UnlistedNoop);
    let r = check_game_with(&start, &cfg, |_: &Bait, _, _| BaitAction::Nil);
    assert_eq!((r.finished, r.longest), (1, MAX_TIMESTEPS + 1));
}
