//! The position an unfinished solve reports ([`SolveResult::least`]):
//! reachable by its moves, as the game's own replay checks, nearer the
//! goals than the start, and not a dead end a small search sees.

use super::*;
use games::sokoban::{parse_levels, replay_to, MICROBAN};
use games::{StepTimer, UnlimitedTimer};
use std::time::Duration;

#[test]
fn an_unfinished_solve_reports_a_reachable_position_nearer_the_goals() {
    // Microban 114, out of time (a StepTimer: 64 expansions) or of states:
    // the position with the least bound that a forward search made, with
    // moves from the start that the game's own replay plays to it, and
    // nearer the goals than the start.
    let lv = parse_levels(MICROBAN).expect("Microban parses").remove(113);
    // The start's own bound: the only position of a search out of states
    // at once.
    let one = SolveOptions {
        max_nodes: 1,
        nearest: true,
        ..SolveOptions::with_method(Method::AStar)
    };
    let start = solve(&lv, &one, &UnlimitedTimer).least.expect("the start");
    assert!(start.moves.is_empty());
    let start_bound = start.bound as usize;
    for method in [Method::AStar, Method::Fess, Method::BiAStar, Method::Greedy] {
        let opts = SolveOptions {
            nearest: true,
            ..SolveOptions::with_method(method)
        };
        let timer = StepTimer::new(Duration::from_millis(1), Duration::from_millis(1));
        let timed = solve(&lv, &opts, &timer);
        let few = SolveOptions {
            max_nodes: 40,
            ..opts
        };
        let limited = solve(&lv, &few, &UnlimitedTimer);
        // Only on request.
        let quiet = solve(
            &lv,
            &SolveOptions {
                nearest: false,
                ..few
            },
            &UnlimitedTimer,
        );
        assert!(quiet.least.is_none());
        for r in [timed, limited] {
            assert!(
                matches!(r.status, SolveStatus::Timeout | SolveStatus::NodeLimit),
                "{method:?}: {r:?}"
            );
            let least = r
                .least
                .clone()
                .unwrap_or_else(|| panic!("{method:?}: no position: {r:?}"));
            assert!(
                (least.bound as usize) < start_bound,
                "{method:?}: {least:?}"
            );
            let (_, end) = replay_to(&lv, &least.moves).expect("the moves replay");
            let boxes: Vec<usize> = (0..lv.num_cells()).filter(|&c| end.boxes[c]).collect();
            assert_eq!(boxes, least.boxes, "{method:?}");
            // The player's top-left cell is in the region the moves end in.
            let b = board::Board::new(&end).unwrap();
            let mut sp = space::Space::new(b.n);
            sp.set(&b.start_boxes);
            let norm = sp.reach(&b, b.start_player, false);
            assert_eq!(b.grid_of[norm as usize], least.player, "{method:?}");
            // Not a dead end that a small search sees.
            let small = SolveOptions {
                max_nodes: 256,
                ..SolveOptions::with_method(Method::Greedy)
            };
            let from_there = solve(&end, &small, &UnlimitedTimer);
            assert_ne!(from_there.status, SolveStatus::Unsolvable, "{method:?}");
        }
    }
    let solved = solve(
        &lv,
        &SolveOptions {
            nearest: true,
            ..SolveOptions::default()
        },
        &UnlimitedTimer,
    );
    assert!(solved.least.is_none());
}
