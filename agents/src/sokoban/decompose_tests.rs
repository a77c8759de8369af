//! Tests of the serial decomposition (`decompose.rs`) and of the player's
//! end cell ([`SolveOptions::end`]); a child of `tests.rs`.

use super::*;
use crate::sokoban::decompose::{Serial, SerialStep, SERIAL_BUDGET};
use games::sokoban::replay_to;

/// Run `s` to its end, as a [`SolveResult`].
pub(super) fn run_serial(mut s: Serial) -> SolveResult {
    loop {
        match s.step(POLL) {
            SerialStep::Running => {}
            SerialStep::Solved(text) => return SolveResult::solved_by(text, s.expanded, "serial"),
            SerialStep::GaveUp => {
                return SolveResult::unsolved(SolveStatus::NodeLimit, s.expanded, "")
            }
        }
    }
}

/// Sasquatch I level `number`, solved by the decomposition alone (the
/// solution replayed).
fn solved_by_parts(number: usize) -> SolveResult {
    let lv = sasquatch_i(number);
    let s = Serial::new(&lv).expect("the level falls apart");
    let r = run_serial(s);
    check_solved(&lv, &r);
    r
}

#[test]
fn the_serial_decomposition_solves_sasquatch_i_5_part_by_part() {
    // Four quadrants of seven boxes around a box on a goal: the whole
    // level times out in 10 s, its parts take a few thousand expansions.
    let r = solved_by_parts(5);
    // The default solver hands the level to it after its first
    // expansions, and says so.
    let lv = sasquatch_i(5);
    let whole = solve(&lv, &SolveOptions::default(), &UnlimitedTimer);
    check_solved(&lv, &whole);
    assert_eq!(whole.found_by, Some("serial"));
    assert!(r.expanded < SERIAL_BUDGET / 2, "{} expansions", r.expanded);
}

#[test]
fn a_part_may_take_56_000_expansions_sasquatch_i_12() {
    // Sasquatch I 12: two parts, a goal room of five on the right and one
    // of ten on the left. The player starts shut in by the left part's
    // boxes, so the right part (with those boxes as walls) is unsolvable
    // until the left one is done, which takes about 56,000 expansions: more
    // than the 20,000 a part had before.
    let r = solved_by_parts(12);
    assert!(r.expanded > 20_000, "{} expansions", r.expanded);
}

#[test]
fn levels_without_separate_parts_are_left_alone() {
    // One goal area.
    assert!(Serial::new(&level(MB1)).is_none());
    // Two areas, but the nearest boxes do not match their goals (two boxes
    // near the left goal, none near the right one).
    let lv = level(
        "
##########
#.$$ @  .#
##########
",
    );
    assert!(Serial::new(&lv).is_none());
    // Two areas with a box each: two parts.
    let lv = level(
        "
###########
#.$  @  $.#
###########
",
    );
    let r = run_serial(Serial::new(&lv).expect("two parts"));
    check_solved(&lv, &r);
}

#[test]
fn a_solve_with_an_end_cell_leaves_the_player_in_its_region() {
    // Microban levels, the player to end in the region of its start cell.
    let mut ended = 0;
    for lv in microban().iter().take(40) {
        if lv.goals[lv.player] {
            continue;
        }
        let opts = SolveOptions {
            end: Some(lv.player),
            ..SolveOptions::default()
        };
        let r = solve(lv, &opts, &UnlimitedTimer);
        if r.status != SolveStatus::Solved {
            continue;
        }
        check_solved(lv, &r);
        let text = r.solution.as_deref().unwrap_or("");
        let (_, end) = replay_to(lv, text).expect("the solution replays");
        assert!(end.player_region()[lv.player], "level {}: {text}", lv.title);
        ended += 1;
    }
    assert!(ended >= 30, "{ended} levels solved with an end cell");
}
