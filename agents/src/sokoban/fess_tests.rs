//! The feature-space search on real levels: what alternation, the
//! packing plan, the dead-end proofs and the backward direction each
//! solve that the search without them cannot.

use super::*;

/// `fess` with at most `max_nodes` states solves `lv` with its defaults
/// (the solution replays), and runs out of states with `off`, the same
/// options with one technique switched off.
fn solved_only_with(lv: &Level, max_nodes: usize, off: impl Fn(SolveOptions) -> SolveOptions) {
    let fess = SolveOptions {
        max_nodes,
        ..SolveOptions::with_method(Method::Fess)
    };
    solved_only_with_base(lv, fess, off);
}

/// [`solved_only_with`] from other options than `fess`'s defaults.
fn solved_only_with_base(
    lv: &Level,
    fess: SolveOptions,
    off: impl Fn(SolveOptions) -> SolveOptions,
) {
    let r = solve(lv, &fess, &UnlimitedTimer);
    check_solved(lv, &r);
    assert_eq!(
        solve(lv, &off(fess), &UnlimitedTimer).status,
        SolveStatus::NodeLimit
    );
}

#[test]
fn alternation_solves_a_level_the_cells_in_turn_cannot() {
    // Sasquatch I level 46: `fess` with every other expansion from its best
    // cell solves it within the pre-pass's budget; visiting the cells in
    // turn alone runs out (docs/sokoban-solver-log.md, "Alternation").
    let fess = SolveOptions::with_method(Method::Fess);
    assert!(fess.alternate, "alternation is the default");
    solved_only_with(&sasquatch_i(46), PREPASS, |o| SolveOptions {
        alternate: false,
        ..o
    });
}

#[test]
fn the_packing_plan_solves_a_level_counting_boxes_on_goals_cannot() {
    // Sasquatch I level 17: its plan parks two boxes. With the packing
    // feature along the plan, `fess` solves it within the pre-pass's
    // budget for planned levels; counting boxes on goals, it runs out
    // (docs/sokoban-solver-log.md, "A packing plan with parking").
    let lv = &sasquatch_i(17);
    let b = board::Board::new(lv).unwrap();
    assert!(plan::PackingPlan::new(&b).is_some_and(|p| p.parks() > 0));
    assert!(
        SolveOptions::with_method(Method::Fess).plan,
        "the plan is on by default"
    );
    // Without learned patterns: they change the order of expansion, and
    // with them `fess` happens to need more states here (123,174
    // expansions against 20,805 in release; see "Learned deadlock
    // patterns" in the docs).
    let fess = SolveOptions {
        max_nodes: 2 * PREPASS,
        learn_nodes: 0,
        ..SolveOptions::with_method(Method::Fess)
    };
    solved_only_with_base(lv, fess, |o| SolveOptions { plan: false, ..o });
}

#[test]
fn dead_end_proofs_solve_a_level_whose_best_cell_is_dead() {
    // Sasquatch I level 32: without proofs, `fess` stalls under dead
    // states of its best cell that no deadlock test sees, and runs out of
    // the pre-pass's budget; with them (the default, 8 states a proof) it
    // solves the level within it (docs/sokoban-solver-log.md, "Dead-end
    // proofs in the best cell").
    let fess = SolveOptions::with_method(Method::Fess);
    assert_eq!(fess.prove, PROVE, "proofs are on by default");
    solved_only_with(&sasquatch_i(32), PREPASS, |o| SolveOptions {
        prove: 0,
        ..o
    });
}

#[test]
fn room_connectivity_solves_a_level_the_default_features_cannot() {
    // Sasquatch I level 17 (six rooms), without the opener (which solves
    // it too, see below): with FESS's room connectivity feature `fess`
    // solves it within the pre-pass's budget for planned levels (10,018
    // expansions in release); without it, it runs out. Off by default: on
    // the seven Sasquatch sets it gains as many levels as it loses
    // (docs/sokoban-solver-log.md, "Room connectivity").
    let lv = &sasquatch_i(17);
    let rooms = rooms::Rooms::new(&board::Board::new(lv).unwrap());
    assert_eq!(rooms.map(|r| r.count()), Some(6));
    assert!(
        !SolveOptions::with_method(Method::Fess).rooms,
        "off by default"
    );
    let fess = SolveOptions {
        max_nodes: 2 * PREPASS,
        rooms: true,
        opener: false,
        ..SolveOptions::with_method(Method::Fess)
    };
    solved_only_with_base(lv, fess, |o| SolveOptions { rooms: false, ..o });
}

#[test]
fn the_opener_solves_a_level_the_other_advisors_cannot() {
    // Sasquatch I level 17: its plan parks two boxes. With FESS's opener
    // advisor (the default), `fess` solves it within the pre-pass's budget
    // for planned levels (11,196 expansions in release); without it, it
    // runs out (docs/sokoban-solver-log.md, "The opener").
    let fess = SolveOptions::with_method(Method::Fess);
    assert!(fess.opener, "the opener is on by default");
    solved_only_with(&sasquatch_i(17), 2 * PREPASS, |o| SolveOptions {
        opener: false,
        ..o
    });
}

#[test]
fn the_opener_follows_a_plan_without_parking_where_the_order_is_forced() {
    // Microban 114: its six goals lie in a dead-end corridor that boxes
    // enter one cell from its left end, so they are filled from the far
    // (right) end (`order.rs`). Its plan parks no box. The opener clears
    // the way to each goal in its turn: `fess` solves it within 3,000
    // states (399 expansions in release); without the opener (as for
    // every plan that parks no box before) it runs out (683).
    let lv = &microban()[113];
    let b = Board::new(lv).expect("a valid level");
    assert!(plan::PackingPlan::new(&b).is_some_and(|p| p.parks() == 0));
    let order = order::GoalOrder::new(&b).expect("the corridor forces an order");
    let goal = |c: usize| {
        (0..b.n as u16)
            .find(|&x| b.row_col(x) == (5, c))
            .expect("a goal")
    };
    for c in 6..9 {
        assert!(order.comes_before(goal(c + 1), goal(c)), "column {c}");
    }
    solved_only_with(lv, 3_000, |o| SolveOptions { opener: false, ..o });
}

#[test]
fn the_backward_search_solves_a_level_the_forward_one_cannot() {
    // Microban 106: emptying its goals is easy, filling them is not. With
    // at most 3,000 states, `fess` backward (pulls from the solved
    // position) solves it (444 expansions in release) and its solution,
    // turned into pushes, replays; forward it runs out (837). (Microban
    // 36, the level here first, is solved forward within 3,000 states
    // since the opener follows the goals' forced order.)
    let lv = &microban()[105];
    let back = SolveOptions {
        backward: true,
        max_nodes: 3_000,
        ..SolveOptions::with_method(Method::Fess)
    };
    solved_only_with_base(lv, back, |o| SolveOptions {
        backward: false,
        ..o
    });
}

#[test]
fn the_backward_search_solves_a_microban_sample_and_never_calls_one_unsolvable() {
    // Every solution replays, and no level (all are solvable) is claimed
    // unsolvable: the brute-force soundness test checks its proofs on
    // levels that are not.
    let back = SolveOptions {
        backward: true,
        max_nodes: 20_000,
        ..SolveOptions::with_method(Method::Fess)
    };
    let mut solved = 0;
    for lv in microban().iter().step_by(7) {
        let r = solve(lv, &back, &UnlimitedTimer);
        match r.status {
            SolveStatus::Solved => {
                check_solved(lv, &r);
                solved += 1;
            }
            SolveStatus::Unsolvable => panic!("a Microban level claimed unsolvable"),
            _ => {}
        }
    }
    assert!(solved >= 15, "{solved} of 23 solved");
}

#[test]
fn deferred_removal_tests_expand_the_same_states_as_tests_made_with_each_child() {
    // A deferred child's removal test is made when it is popped, but the
    // queue's cells, its best cell and the advisors' single picks are
    // still decided by live children alone, and a child found dead when
    // popped gives its cell's turn to the next (docs/sokoban-solver-log.md,
    // "Removal tests when a child is popped"). So `fess` expands the same
    // states in the same order either way: with every move free or one
    // per advisor, with the opener, the proofs and the learned patterns.
    // Backward too: the pull removal test (with the pocket search) and
    // the bound are made when a child is popped. Without the greedy pops
    // (`greedy`): a pop of least bound that makes a deferred child's
    // bound exact leaves the child's estimate as its key in its cell, so
    // with them the two orders part after a few dozen expansions.
    let mut levels = vec![sasquatch_i(46)];
    levels.extend(microban().into_iter().step_by(9));
    let mut compared = 0;
    for lv in &levels {
        // Backward with the default count of stranded boxes, and with it
        // counted in every position; with the boxes near an empty start
        // cell counted (the default) and not.
        let runs = [
            (false, false, STRANDED, NEAR),
            (true, false, STRANDED, NEAR),
            (false, true, STRANDED, NEAR),
            (false, true, u8::MAX, NEAR),
            (false, true, STRANDED, 0),
        ];
        for (one_advice, backward, stranded, near) in runs {
            let eager = SolveOptions {
                defer: false,
                one_advice,
                backward,
                stranded,
                near,
                greedy: 0,
                max_nodes: 60_000,
                ..SolveOptions::with_method(Method::Fess)
            };
            let deferred = SolveOptions {
                defer: true,
                ..eager
            };
            let (e, d) = (
                solve(lv, &eager, &UnlimitedTimer),
                solve(lv, &deferred, &UnlimitedTimer),
            );
            assert_eq!(
                (e.status, e.expanded, &e.solution),
                (d.status, d.expanded, &d.solution),
                "one_advice {one_advice}, backward {backward}, stranded {stranded}, near {near}:\n{}",
                lv.to_xsb()
            );
            if e.status == SolveStatus::Solved {
                check_solved(lv, &d);
                compared += 1;
            }
        }
    }
    assert!(compared >= 45, "only {compared} solved runs compared");
}
