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
