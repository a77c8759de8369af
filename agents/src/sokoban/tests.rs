//! Solver tests on small inlined levels. Solutions are checked by an
//! independent replayer written here on the raw character grid (it shares no
//! code with the solver).

use super::*;
use games::{StepTimer, UnlimitedTimer};
use std::time::Duration;

/// A minimal XSB reader for tests: `#` wall, `$` box, `.` goal, `@` player,
/// `*` box on goal, `+` player on goal, space/`-`/`_` floor.
pub(crate) fn level(text: &str) -> Level {
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let height = rows.len();
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let size = width * height;
    let (mut walls, mut goals, mut boxes) =
        (vec![false; size], vec![false; size], vec![false; size]);
    let mut player = usize::MAX;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let i = r * width + c;
            match ch {
                '#' => walls[i] = true,
                '$' => boxes[i] = true,
                '.' => goals[i] = true,
                '*' => {
                    boxes[i] = true;
                    goals[i] = true
                }
                '@' => player = i,
                '+' => {
                    player = i;
                    goals[i] = true
                }
                ' ' | '-' | '_' => {}
                other => panic!("test level: unexpected {other:?}"),
            }
        }
    }
    assert!(player != usize::MAX, "test level without player");
    Level {
        title: String::new(),
        index: 0,
        line: 1,
        width,
        height,
        walls,
        goals,
        boxes,
        player,
    }
}

/// Replay `lurd` on `level`; `Some((moves, pushes))` if every step is legal
/// (lower case moves onto free floor, upper case pushes a box onto free
/// floor) and all boxes end on goals.
pub(crate) fn replay(level: &Level, lurd: &str) -> Option<(usize, usize)> {
    let w = level.width as isize;
    let h = level.height as isize;
    let mut boxes = level.boxes.clone();
    let mut p = level.player as isize;
    let mut pushes = 0;
    for ch in lurd.chars() {
        let delta = match ch.to_ascii_lowercase() {
            'u' => -w,
            'd' => w,
            'l' => -1,
            'r' => 1,
            _ => return None,
        };
        let inside = |i: isize, from: isize| {
            i >= 0 && i < w * h && ((delta != 1 && delta != -1) || i / w == from / w)
        };
        let q = p + delta;
        if !inside(q, p) || level.walls[q as usize] {
            return None;
        }
        let push = ch.is_ascii_uppercase();
        if boxes[q as usize] {
            if !push {
                return None;
            }
            let t = q + delta;
            if !inside(t, q) || level.walls[t as usize] || boxes[t as usize] {
                return None;
            }
            boxes[q as usize] = false;
            boxes[t as usize] = true;
            pushes += 1;
        } else if push {
            return None;
        }
        p = q;
    }
    let solved =
        (0..boxes.len()).all(|i| boxes[i] == level.goals[i] || !boxes[i] && !level.goals[i]);
    solved.then_some((lurd.chars().count(), pushes))
}

fn check_solved(lv: &Level, r: &SolveResult) -> (usize, usize) {
    assert_eq!(r.status, SolveStatus::Solved, "{r:?}");
    let sol = r.solution.as_deref().expect("a solution");
    let (m, p) = replay(lv, sol).unwrap_or_else(|| panic!("invalid solution {sol}"));
    assert_eq!((m, p), (r.moves, r.pushes));
    (m, p)
}

const TINY: &str = "
#####
#@$.#
#####
";

// Microban 1, 2 and 3 (David W. Skinner): push-optimal 8, 3 and 13.
const MB1: &str = "
####
# .#
#  ###
#*@  #
#  $ #
#  ###
####
";
const MB2: &str = "
######
#    #
# #@ #
# $* #
# .* #
#    #
######
";
const MB3: &str = "
  ####
###  ####
#     $ #
# #  #$ #
# . .#@ #
#########
";

// Microban 5.
const MB5: &str = "
 #######
 #     #
 # .$. #
## $@$ #
#  .$. #
#      #
########
";

#[test]
fn tiny_level_every_method() {
    let lv = level(TINY);
    for m in Method::ALL {
        let r = solve(&lv, &SolveOptions::with_method(m), &UnlimitedTimer);
        assert_eq!(check_solved(&lv, &r), (1, 1), "{m:?}");
    }
}

#[test]
fn already_solved_level_has_empty_solution() {
    let lv = level("######\n#@*  #\n#  $.#\n#    #\n######");
    let lv2 = level("####\n#@*#\n####");
    for m in Method::ALL {
        let r = solve(&lv2, &SolveOptions::with_method(m), &UnlimitedTimer);
        assert_eq!(r.solution.as_deref(), Some(""), "{m:?}");
        let r = solve(&lv, &SolveOptions::with_method(m), &UnlimitedTimer);
        check_solved(&lv, &r);
    }
}

#[test]
fn push_optimal_methods_match_known_optima() {
    for (text, best) in [(MB1, 8), (MB2, 3), (MB3, 13)] {
        let lv = level(text);
        for m in [Method::Bfs, Method::AStar] {
            let r = solve(&lv, &SolveOptions::with_method(m), &UnlimitedTimer);
            let (_, pushes) = check_solved(&lv, &r);
            assert_eq!(pushes, best, "{m:?}");
        }
        for m in [Method::Greedy, Method::WeightedAStar, Method::BiAStar] {
            let r = solve(&lv, &SolveOptions::with_method(m), &UnlimitedTimer);
            let (_, pushes) = check_solved(&lv, &r);
            assert!(pushes >= best, "{m:?}");
        }
    }
}

#[test]
fn box_in_corner_is_unsolvable_without_search() {
    let lv = level("#####\n#$  #\n# @.#\n#####");
    let r = solve(&lv, &SolveOptions::default(), &UnlimitedTimer);
    assert_eq!(r.status, SolveStatus::Unsolvable);
    assert_eq!(r.expanded, 0);
    assert!(r.note.contains("row 2, column 2"), "{}", r.note);
}

#[test]
fn exhausted_search_proves_unsolvable() {
    // Two boxes side by side against the top wall: pushing either along the
    // wall is fine, but they can never both reach the two goals in the
    // closet below (only one fits through in the right order).
    let lv = level(
        "
######
#    #
#$$ @#
#.####
#.####
######
",
    );
    for m in Method::ALL {
        let r = solve(&lv, &SolveOptions::with_method(m), &UnlimitedTimer);
        assert_ne!(r.status, SolveStatus::Timeout, "{m:?}");
        if r.status == SolveStatus::Solved {
            check_solved(&lv, &r);
        }
    }
}

#[test]
fn timer_is_respected() {
    // The timer is read on the first expansion and every 64 after; a
    // StepTimer advancing 1 ms per read with a 3 ms budget runs out on the
    // fourth read, after 3 * 64 + 1 expansions.
    let lv = level(MB5);
    let timer = StepTimer::new(Duration::from_millis(3), Duration::from_millis(1));
    let r = solve(&lv, &SolveOptions::with_method(Method::Bfs), &timer);
    assert_eq!(r.status, SolveStatus::Timeout);
    assert_eq!(r.expanded, 3 * 64 + 1 - 1);
    let full = solve(
        &lv,
        &SolveOptions::with_method(Method::Bfs),
        &UnlimitedTimer,
    );
    check_solved(&lv, &full);
    assert!(full.expanded > r.expanded);
}

#[test]
fn debug_mb153() {
    let lv = level(
        "
#############
#.# @#  #   #
#.#$$   # $ #
#.#  # $#   #
#.# $#  # $##
#.#  # $#  #
#.# $#  # $#
#..  # $   #
#..  #  #  #
############
",
    );
    let b = board::Board::new(&lv).unwrap();
    let pk = packing::Packing::new(&b);
    for o in &pk.orders {
        eprintln!("{:?}", o.iter().map(|&c| b.row_col(c)).collect::<Vec<_>>());
    }
}

#[test]
fn debug_mb26() {
    let lv = level(
        "
 #####
 # @ #
 #   #
###$ #
# ...#
# $$ #
###  #
  ####
",
    );
    let b = board::Board::new(&lv).unwrap();
    let pk = packing::Packing::new(&b);
    for o in &pk.orders {
        eprintln!("{:?}", o.iter().map(|&c| b.row_col(c)).collect::<Vec<_>>());
    }
    let o = SolveOptions::with_method(Method::Greedy);
    let r = solve(&lv, &o, &UnlimitedTimer);
    eprintln!("{r:?}");
}
