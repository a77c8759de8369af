//! Rule tests: moves and pushes, the end of the game, action names, and
//! LURD replay (including every listed Microban solution).

use super::*;
use crate::api::{Game, PlayerResult};
use proptest::prelude::*;
use Dir::*;

fn game(text: &str) -> Sokoban {
    Sokoban::from_level(&parse_level(text).unwrap()).unwrap()
}

fn mv(s: &mut Sokoban, d: Dir) {
    assert!(
        s.is_legal(0, SokobanAction::Move(d)),
        "{d:?} illegal:\n{}",
        s.to_level().to_xsb()
    );
    s.advance(&[SokobanAction::Move(d)]);
}

/// Two boxes in a corridor: a push needs free floor behind the box.
const ROW: &str = "\
#########
#@ $ $..#
#########
";

#[test]
fn moves_push_boxes_and_a_box_cannot_push_a_box() {
    let mut s = game(ROW);
    assert_eq!(s.legal_actions_vec(0), vec![SokobanAction::Move(Right)]);
    mv(&mut s, Right);
    assert_eq!((s.steps(), s.pushes()), (1, 0));
    mv(&mut s, Right); // pushes the first box next to the second
    assert_eq!((s.steps(), s.pushes()), (2, 1));
    assert_eq!(s.to_level().to_xsb(), "#########\n#  @$$..#\n#########\n");
    // Two boxes in a row do not move.
    assert!(!s.is_legal(0, SokobanAction::Move(Right)));
    assert_eq!(s.push_kind(Right), None);
    assert_eq!(s.push_kind(Left), Some(false));
    // Illegal moves change nothing.
    let before = s.clone();
    s.advance(&[SokobanAction::Move(Right)]);
    assert_eq!((s.steps(), &s), (before.steps(), &before));
}

#[test]
fn the_game_is_won_when_every_box_is_on_a_goal() {
    let two = "#######\n#@ $ .#\n#  $ .#\n#######";
    let mut s = game(two);
    assert_eq!((s.score(0), s.num_boxes(), s.is_over()), (0.0, 2, false));
    for d in [Right, Right, Right] {
        mv(&mut s, d);
    }
    assert_eq!(
        s.to_level().to_xsb(),
        "#######\n#   @*#\n#  $ .#\n#######\n"
    );
    assert_eq!((s.score(0), s.pushes(), s.is_over()), (1.0, 2, false));
    for d in [Left, Left, Down, Right, Right] {
        mv(&mut s, d);
    }
    assert!(s.is_over() && s.won());
    assert_eq!(
        (s.result(0), s.score(0), s.steps(), s.pushes()),
        (PlayerResult::Win, 2.0, 8, 4)
    );
    assert!(s.to_level().is_solved());
    // Over: nothing is legal, advancing changes nothing.
    assert!(s.legal_actions_vec(0).is_empty());
    assert!(!s.is_legal(0, SokobanAction::Wait));
    let before = s.steps();
    s.advance(&[SokobanAction::Wait]);
    assert_eq!(s.steps(), before);
}

#[test]
fn step_limit_wait_and_a_boxed_in_player_end_the_game() {
    let mut s = game(ROW).with_max_steps(3);
    assert_eq!(s.max_steps(), 3);
    s.advance(&[SokobanAction::Wait]);
    assert_eq!((s.steps(), s.player_cell()), (1, 10));
    mv(&mut s, Right);
    assert!(!s.is_over());
    s.advance(&[SokobanAction::Wait]);
    assert!(s.is_over());
    assert_eq!(s.result(0), PlayerResult::Loss);
    assert_eq!(DEFAULT_MAX_STEPS, game(ROW).max_steps());
    // A player shut in by two boxes that cannot move has lost at once (after
    // any move the player can always step back, so this happens only at the
    // start).
    let s = game("#####\n#$@$#\n#.#.#\n#####");
    assert!(s.is_over() && !s.won());
    assert_eq!(s.result(0), PlayerResult::Loss);
    assert!(s.legal_actions_vec(0).is_empty());
}

#[test]
fn action_names_spell_lurd_and_parse_in_either_case() {
    let mut s = game(ROW);
    assert_eq!(s.action_name(SokobanAction::Move(Right)), "r");
    mv(&mut s, Right);
    assert_eq!(s.action_name(SokobanAction::Move(Right)), "R");
    assert_eq!(s.action_name(SokobanAction::Move(Left)), "l");
    assert_eq!(s.action_name(SokobanAction::Wait), "-");
    for (t, a) in [
        ("r", SokobanAction::Move(Right)),
        ("R", SokobanAction::Move(Right)),
        ("u", SokobanAction::Move(Up)),
        ("D", SokobanAction::Move(Down)),
        (" left ", SokobanAction::Move(Left)),
        ("UP", SokobanAction::Move(Up)),
        ("-", SokobanAction::Wait),
        ("nil", SokobanAction::Wait),
    ] {
        assert_eq!(s.parse_action(0, t), Some(a), "{t}");
    }
    assert_eq!(s.parse_action(0, "x"), None);
    assert_eq!(s.parse_action(0, "rr"), None);
    assert_eq!(s.fallback_action(0), SokobanAction::Wait);
}

#[test]
fn positions_hash_by_player_and_boxes_only() {
    use std::collections::HashSet;
    let mut a = game(ROW);
    let b = a.clone();
    mv(&mut a, Right);
    mv(&mut a, Left);
    assert_eq!(a, b, "same position, different step counts");
    let mut set = HashSet::new();
    set.insert(a.clone());
    assert!(set.contains(&b));
    mv(&mut a, Right);
    mv(&mut a, Right);
    assert!(!set.contains(&a));
    // to_level is the current position; from_level(to_level) is the same position.
    let l = a.to_level();
    assert_eq!(Sokoban::from_level(&l).unwrap(), a);
    assert_eq!(l.title, a.level().title);
    assert_eq!(a.grid_rows()[1], "#  @$$..#");
    assert_eq!(a.box_cells(), vec![13, 14]);
    assert_eq!(a.goal_cells(), vec![15, 16]);
}

#[test]
fn decorative_boxes_count_and_inconsistent_levels_are_errors() {
    let s = game("#####   ###\n#@$.#   #*#\n#####   ###");
    assert_eq!((s.num_boxes(), s.boxes_on_goals()), (2, 1));
    let mut s2 = s.clone();
    mv(&mut s2, Right);
    assert!(s2.won());
    assert_eq!(s2.score(0), 2.0);
    // A decorative box off its goal makes the level unwinnable.
    let mut l = parse_level("#####   ####\n#@$.#   #$.#\n#####   ####").unwrap();
    assert_eq!(l.num_boxes(), 2);
    let mut g = Sokoban::from_level(&l).unwrap();
    mv(&mut g, Right);
    assert!(!g.won());
    // Levels built in code are checked.
    l.boxes.pop();
    let e = Sokoban::from_level(&l).unwrap_err();
    assert!(matches!(e.kind, LevelErrorKind::Inconsistent(_)), "{e}");
    let mut l = parse_level(ROW).unwrap();
    l.player = 1000;
    assert!(Sokoban::from_level(&l).is_err());
    // A region too large for the bit set.
    let big = format!(
        "{}\n#@$.{}#\n{}",
        "#".repeat(1100),
        " ".repeat(1094),
        "#".repeat(1100)
    );
    let e = Sokoban::from_level(&parse_level(&big).unwrap()).unwrap_err();
    assert_eq!(e.kind, LevelErrorKind::RegionTooLarge { cells: 1097 });
}

#[test]
fn replay_to_ends_in_the_position_the_moves_reach() {
    let one = parse_level("######\n#@$ .#\n######").unwrap();
    let (report, end) = replay_to(&one, "R").unwrap();
    assert_eq!(report, replay(&one, "R").unwrap());
    // The box moved from column 2 to 3, the player from 1 to 2.
    let w = one.width;
    assert_eq!(end.player, w + 2);
    assert!(end.boxes[w + 3] && !end.boxes[w + 2]);
    assert_eq!(
        (end.walls, end.goals),
        (one.walls.clone(), one.goals.clone())
    );
    assert!(replay_to(&one, "RRR").is_err());
}

#[test]
fn replay_checks_legality_and_the_case_of_every_letter() {
    let l = parse_level(ROW).unwrap();
    let two = parse_level("#######\n#@ $ .#\n#  $ .#\n#######").unwrap();
    assert_eq!(
        replay(&two, "rRRlldRR").unwrap(),
        ReplayReport {
            moves: 8,
            pushes: 4,
            solved: true
        }
    );
    // A valid, solving replay on a one-box level.
    let one = parse_level("######\n#@$ .#\n######").unwrap();
    assert_eq!(
        replay(&one, "RR").unwrap(),
        ReplayReport {
            moves: 2,
            pushes: 2,
            solved: true
        }
    );
    assert_eq!(
        replay(&one, "R").unwrap(),
        ReplayReport {
            moves: 1,
            pushes: 1,
            solved: false
        }
    );
    assert_eq!(
        replay(&one, "").unwrap(),
        ReplayReport {
            moves: 0,
            pushes: 0,
            solved: false
        }
    );
    // Blanks ignored, run-length encoding allowed.
    assert_eq!(replay(&one, " 2R\n").unwrap().moves, 2);
    assert_eq!(
        replay(&one, "R lR").unwrap_err().step,
        3,
        "after `R l` the next R walks"
    );
    assert!(replay(&one, "RlrR").unwrap().solved);
    // Wrong case: a lower-case push, an upper-case walk.
    let e = replay(&one, "rR").unwrap_err();
    assert_eq!(e.step, 1);
    assert!(e.reason.contains("upper case"), "{e}");
    let e = replay(&one, "RlR").unwrap_err();
    assert_eq!(e.step, 3);
    assert!(e.reason.contains("does not push"), "{e}");
    // Into a wall; a box against a wall; not a letter.
    assert!(replay(&one, "u").unwrap_err().reason.contains("wall"));
    let e = replay(&one, "RRR").unwrap_err();
    assert_eq!(e.step, 3);
    assert!(e.reason.contains("cannot move"), "{e}");
    let e = replay(&one, "Rx").unwrap_err();
    assert_eq!(e.step, 2);
    assert_eq!(
        e.to_string(),
        "move 2: 'x' is not a LURD letter (l u r d, L U R D for pushes)"
    );
    assert_eq!(replay(&one, "3").unwrap_err().step, 0);
    // Moves after the solution are played (and may unsolve it).
    assert!(replay(&one, "RRl").unwrap().solved);
    assert!(!replay(&l, "rR").unwrap().solved);
    assert_eq!(parse_lurd("2(lU)d").unwrap().len(), 5);
}

/// `parse_lurd` as it was before it expanded straight into moves: expand to
/// text, then read letter by letter. `Err(0)`: bad run-length encoding.
fn lurd_by_text(text: &str) -> Result<Vec<(Dir, bool)>, usize> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let t = rle::expand(&compact, game::MAX_LURD).map_err(|_| 0usize)?;
    t.chars()
        .enumerate()
        .map(|(i, c)| Dir::from_letter(c).ok_or(i + 1))
        .collect()
}

fn same_as_by_text(text: &str) -> Result<(), String> {
    let got = parse_lurd(text).map_err(|e| e.step);
    let want = lurd_by_text(text);
    if got == want {
        Ok(())
    } else {
        Err(format!("{text:?}: {got:?} against {want:?}"))
    }
}

proptest! {
    /// `parse_lurd` expands straight into moves; it must agree with
    /// expanding the text first and reading it letter by letter, errors
    /// (and the number of the first bad letter) included.
    #[test]
    fn lurd_expands_into_moves_as_it_does_into_text(
        text in "[lurdLURD2-9()xé ]{0,24}"
    ) {
        prop_assert_eq!(same_as_by_text(&text), Ok(()));
    }
}

#[test]
fn lurd_limits_and_bad_letters_count_as_in_the_text() {
    for text in [
        "9999999é",         // 2 bytes a letter: past the limit
        "5000000é",         // exactly at the limit: a bad letter
        "3(l2(ux)d)x",      // the first bad letter inside nested groups
        "9999999r9999999x", // past the limit, with a bad letter
        "2(3(lU)x)",
        "9999999r",
    ] {
        assert_eq!(same_as_by_text(text), Ok(()));
    }
}

#[test]
fn every_listed_microban_solution_replays_with_its_push_count() {
    let levels = parse_levels(MICROBAN).unwrap();
    let csv = include_str!("../../data/sokoban/microban.optimal-pushes.csv");
    let mut checked = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (idx, pushes, moves, lurd) = (f[0], f[3], f[7], f[8]);
        if lurd.is_empty() {
            continue;
        }
        let level = &levels[idx.parse::<usize>().unwrap() - 1];
        assert_eq!(level.title, f[1]);
        let r = replay(level, lurd).unwrap_or_else(|e| panic!("level {idx}: {e}"));
        assert!(r.solved, "level {idx}");
        assert_eq!(r.pushes.to_string(), pushes, "level {idx}");
        assert_eq!(r.moves.to_string(), moves, "level {idx}");
        // The game agrees: the same moves win.
        let mut g = Sokoban::from_level(level).unwrap();
        for (d, _) in parse_lurd(lurd).unwrap() {
            assert!(!g.is_over());
            g.advance(&[SokobanAction::Move(d)]);
        }
        assert!(g.won() && g.is_over(), "level {idx}");
        assert_eq!(g.pushes() as usize, r.pushes);
        checked += 1;
    }
    assert_eq!(checked, 151);
}

proptest! {
    /// Random walks on Microban levels: the game never panics, its counters
    /// agree with a replay of the LURD its action names spell, and
    /// to_level/from_level round-trips the position.
    #[test]
    fn random_play_agrees_with_replay(level in 0usize..155, moves in prop::collection::vec(0usize..5, 0..200)) {
        let l = parse_levels(MICROBAN).unwrap().swap_remove(level);
        let mut g = Sokoban::from_level(&l).unwrap();
        let mut lurd = String::new();
        for m in moves {
            if g.is_over() {
                break;
            }
            let a = if m == 4 { SokobanAction::Wait } else { SokobanAction::Move(Dir::ALL[m]) };
            if !g.is_legal(0, a) {
                continue;
            }
            if a != SokobanAction::Wait {
                lurd.push_str(&g.action_name(a));
            }
            g.advance(&[a]);
        }
        let r = replay(&l, &lurd).unwrap();
        prop_assert_eq!(r.pushes, g.pushes() as usize);
        prop_assert_eq!(r.solved, g.won());
        prop_assert_eq!(Sokoban::from_level(&g.to_level()).unwrap(), g.clone());
        prop_assert_eq!(g.to_level().boxes_on_goals() as f64, g.score(0));
    }
}

#[test]
fn microban_levels_pass_the_testkit() {
    use crate::testkit::{check_game, Fallback, KitConfig};
    // Wait is Sokoban's fallback: legal, not listed, and a no-op.
    let levels = parse_levels(crate::sokoban::MICROBAN).unwrap();
    let mut equal_pairs = 0;
    for (i, level) in levels.iter().enumerate() {
        let start = Sokoban::from_level(level).unwrap();
        let cfg = KitConfig::new(2, 150, i as u64).with_fallback(Fallback::UnlistedNoop);
        equal_pairs += check_game(&start, &cfg).equal_pairs;
    }
    assert!(equal_pairs > 1000, "{equal_pairs}");
    // A short step limit ends every playout.
    let start = Sokoban::from_level(&levels[0]).unwrap().with_max_steps(20);
    let cfg = KitConfig::new(5, 100, 1).with_fallback(Fallback::UnlistedNoop);
    assert_eq!(check_game(&start, &cfg).finished, 5);
}
