//! Rule and format tests for the supply maze on small hand-made instances.

use super::*;
use proptest::prelude::*;
use Dir::*;

fn map(text: &str) -> SupplyMap {
    SupplyMap::parse(text).unwrap()
}

fn play(text: &str, path: &str) -> Supply {
    let mut s = Supply::parse(text).unwrap();
    for d in Dir::parse_path(path).unwrap() {
        assert!(s.is_legal(0, d), "{d:?} illegal at {:?}", s.grid_string());
        s.advance(&[d]);
    }
    s
}

/// The direct corridor is 6 moves but T = 4: the walker must step down into
/// the supply cell below the corridor (at food 0, which only a supply cell
/// allows) and come back up: 8 steps.
const DETOUR: &str = "2 7 4\n@.....E\n....S..\n";

#[test]
fn food_budget_forces_a_detour_through_a_supply_cell() {
    let m = map(DETOUR);
    assert_eq!(maze_distance(&m), Some(6));
    assert_eq!(reference_distance(&m), Some(8));
    assert_eq!(m.check_path(&Dir::parse_path("RRRRRR").unwrap()), None);
    assert_eq!(m.check_path(&Dir::parse_path("RRRRDRRU").unwrap()), Some(8));
    // With T = 6 the corridor is fine.
    let m6 = map(&DETOUR.replacen("2 7 4", "2 7 6", 1));
    assert_eq!(reference_distance(&m6), Some(6));
    let s = play(DETOUR, "RRRRDRRU");
    assert!(s.is_over() && s.won());
    assert_eq!(s.result(0), PlayerResult::Win);
    assert_eq!(s.steps(), 8);
    assert_eq!(s.score(0), -8.0);
}

#[test]
fn food_counts_down_and_a_supply_refills_to_t_minus_one() {
    let mut s = Supply::parse(DETOUR).unwrap();
    assert_eq!(s.food(), 4);
    for expect in [3, 2, 1, 0] {
        s.advance(&[Right]);
        assert_eq!(s.food(), expect);
    }
    // Food 0: only the supply below is allowed.
    assert_eq!(s.legal_actions_vec(0), vec![Down]);
    assert!(!s.is_legal(0, Right));
    s.advance(&[Down]);
    assert_eq!(
        s.food(),
        3,
        "entering a supply refills to T = 4, then the move costs 1"
    );
    assert!(!s.is_over());
}

#[test]
fn unsolvable_only_because_of_the_budget() {
    // Four moves along a corridor need T >= 4.
    assert_eq!(reference_distance(&map("1 5 4\n@...E")), Some(4));
    assert_eq!(reference_distance(&map("1 5 3\n@...E")), None);
    assert_eq!(
        classify(&map("1 5 3\n@...E")),
        Status::UnsolvableFood { maze_distance: 4 }
    );
    // Start to supply may take T + 1 moves, supply to exit at most T - 1.
    let corridor = |t: u32| map(&format!("1 9 {t}\n@...S...E"));
    assert_eq!(reference_distance(&corridor(4)), None);
    assert_eq!(reference_distance(&corridor(5)), Some(8));
    assert_eq!(classify(&map("1 3 9\n@#E")), Status::UnsolvableWalls);
}

#[test]
fn with_t_one_a_supply_is_a_dead_end_unless_next_to_another() {
    let s = play("1 4 1\n@.SE", "RR");
    assert_eq!(s.food(), 0);
    assert!(s.is_over(), "no food and no supply next to it: stuck");
    assert_eq!(s.result(0), PlayerResult::Loss);
    // Supply to supply is allowed at food 0.
    assert_eq!(reference_distance(&map("1 5 1\n@SS.E")), None);
    assert_eq!(reference_distance(&map("1 4 2\n@SSE")), Some(3));
}

#[test]
fn walls_and_edges_block_moves() {
    let s = Supply::parse("2 3 5\n@#E\n...").unwrap();
    assert_eq!(s.legal_actions_vec(0), vec![Down]);
    assert_eq!(s.fallback_action(0), Down);
    // Grid edges count as walls.
    let s = Supply::parse("1 2 5\nE@\n").unwrap();
    assert_eq!(s.legal_actions_vec(0), vec![Left]);
    assert!(!s.is_legal(0, Right) && !s.is_legal(0, Up) && !s.is_legal(0, Down));
}

#[test]
fn walled_in_start_is_over_at_once_and_step_limit_ends_the_game() {
    let s = Supply::parse("3 3 5\n.#.\n#@#\n.#E").unwrap();
    assert!(s.is_over());
    assert_eq!(s.result(0), PlayerResult::Loss);
    let mut s = Supply::parse("1 4 9\n@..E").unwrap().with_max_ticks(2);
    s.advance(&[Right]);
    s.advance(&[Left]);
    assert!(s.is_over() && !s.won());
    assert_eq!(Supply::parse("1 4 9\n@..E").unwrap().max_ticks(), 4 * 10);
}

#[test]
fn integer_and_character_forms_are_the_same_instance() {
    let ints = "3 4 2\n3 0 1 0\n0 2 0 0\n1 1 0 4\n";
    let chars = "3 4 2\n@.#.\n.S..\n##.E\n";
    assert_eq!(map(ints), map(chars));
    assert_eq!(map(ints).to_int_text(), ints);
    assert_eq!(map(ints).to_char_text(), chars);
    // Tabs and extra blanks separate integers too; \r\n line ends.
    assert_eq!(
        map("3  4\t2\r\n3\t0 1 0\r\n0 2 0 0 \r\n1 1 0 4\r\n"),
        map(ints)
    );
}

#[test]
fn several_instances_with_comments_and_blank_separators() {
    let text = "; status: solvable 3\n1 4 9\n@..E\n\n\n; first\n; status: unsolvable food\n1 5 3\n3 0 0 0 4\n; trailing\n";
    let all = parse_instances(text).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].line, 2);
    assert_eq!(all[1].line, 8);
    assert_eq!(all[1].comments, vec!["first", "status: unsolvable food"]);
    assert_eq!(
        all[0]
            .comment_value("status")
            .and_then(Status::parse_comment),
        Some(Some(3))
    );
    assert_eq!(
        all[1]
            .comment_value("status")
            .and_then(Status::parse_comment),
        Some(None)
    );
    let e = SupplyMap::parse(text).unwrap_err();
    assert_eq!((e.line, e.column), (8, 0));
}

fn err(text: &str) -> (usize, usize, String) {
    let e = parse_instances(text).unwrap_err();
    (e.line, e.column, e.message)
}

#[test]
fn errors_name_line_and_column() {
    // Ragged rows, both ways and both forms.
    let (l, c, m) = err("2 3 4\n@.E\n..\n");
    assert_eq!((l, c), (3, 3), "{m}");
    assert!(m.contains("expected N = 3"), "{m}");
    let (l, c, m) = err("2 3 4\n3 0 4\n0 0 0 0\n");
    assert_eq!((l, c), (3, 7), "{m}");
    assert!(m.contains("row has 4 cells"), "{m}");
    // Too few rows, too many rows.
    let (l, _, m) = err("3 3 4\n@.E\n...\n\n");
    assert_eq!(l, 4, "{m}");
    assert!(m.contains("only 2 of its 3 rows"), "{m}");
    let (l, _, m) = err("1 3 4\n@.E\n...\n");
    assert_eq!(l, 3, "{m}");
    assert!(m.contains("M too small"), "{m}");
    // Missing start / exit, duplicates.
    assert!(err("1 3 4\n..E\n").2.contains("no start"));
    assert!(err("1 3 4\n0 3 0\n").2.contains("no exit"));
    let (l, c, m) = err("2 3 4\n@.E\n.@.\n");
    assert_eq!((l, c), (3, 2));
    assert!(
        m.contains("second start") && m.contains("line 2, column 1"),
        "{m}"
    );
    // T < 1 and bad headers.
    let (l, c, m) = err("1 3 0\n@.E\n");
    assert_eq!((l, c), (1, 5));
    assert!(m.contains("at least 1"), "{m}");
    assert_eq!(err("1 3\n@.E\n").0, 1);
    assert_eq!(err("1 3 -2\n@.E\n").1, 5);
    assert_eq!(err("1 0 2\n\n").1, 3);
    assert!(err("100000 100000 2\n").2.contains("cells"));
    // Unknown tokens.
    let (l, c, m) = err("1 3 4\n3 7 4\n");
    assert_eq!((l, c), (2, 3));
    assert!(m.contains("unknown cell `7`"), "{m}");
    let (l, c, m) = err("1 3 4\n@x E\n");
    assert_eq!((l, c), (2, 2));
    assert!(m.contains("unknown cell 'x'"), "{m}");
    // The form is decided by the first row.
    let (l, c, _) = err("2 3 4\n3 0 4\n...\n");
    assert_eq!((l, c), (3, 1));
    // Nothing at all.
    assert_eq!(err("\n; only a comment\n").0, 0);
}

#[test]
fn generated_instances_are_flagged_correctly() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let got = generate(&mut rng, 8, 9, 5, 40).unwrap();
    assert_eq!(got.len(), 40);
    let solvable = got.iter().filter(|g| g.status.is_solvable()).count();
    assert!((20..40).contains(&solvable), "{solvable} of 40 solvable");
    for g in &got {
        assert_eq!(classify(&g.map), g.status);
        assert_eq!((g.map.rows(), g.map.cols(), g.map.capacity()), (8, 9, 5));
        // Text round trip.
        assert_eq!(SupplyMap::parse(&g.map.to_int_text()).unwrap(), g.map);
    }
    assert!(generate(&mut rng, 1, 1, 5, 1).is_err());
    assert!(generate(&mut rng, 2, 2, 0, 1).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any text made of the format's characters parses or fails cleanly.
    #[test]
    fn parsing_never_panics(text in "[0-9 .#S@E;\n\t\r-]{0,60}") {
        let _ = parse_instances(&text);
    }

    /// Any text starting with a plausible header parses or fails cleanly.
    #[test]
    fn parsing_plausible_instances_never_panics(
        m in 0usize..4, n in 0usize..4, t in 0u32..3,
        body in "[0-4 .#S@E\n]{0,40}",
    ) {
        let _ = parse_instances(&format!("{m} {n} {t}\n{body}"));
    }

    /// Random walks never break the invariants: food <= T, legal moves
    /// exist while the game runs, and the reference optimum is a lower bound
    /// on the steps of any winning walk.
    #[test]
    fn random_walks_keep_invariants(seed in 0u64..1000, moves in proptest::collection::vec(0usize..4, 0..60)) {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let g = generate(&mut rng, 4, 5, 3, 1).unwrap().remove(0);
        let mut s = Supply::new(Arc::new(g.map.clone()));
        for k in moves {
            if s.is_over() { break; }
            let legal = s.legal_actions_vec(0);
            prop_assert!(!legal.is_empty());
            s.advance(&[legal[k % legal.len()]]);
            prop_assert!(s.food() < g.map.capacity() || (s.steps() == 0));
        }
        if s.won() {
            prop_assert!(g.status.steps().unwrap() <= s.steps());
        }
    }
}

#[test]
fn the_shipped_set_passes_the_testkit() {
    use crate::testkit::{check_game, KitConfig};
    let set = parse_instances(SET).unwrap();
    for (i, inst) in set.iter().enumerate() {
        let start = Supply::new(Arc::new(inst.map.clone()));
        check_game(&start, &KitConfig::new(20, 200, i as u64));
    }
    // The hand-made instance, also with a step limit that ends every walk.
    let start = Supply::parse(DETOUR).unwrap();
    check_game(&start, &KitConfig::new(20, 100, 3));
    let r = check_game(&start.with_max_ticks(5), &KitConfig::new(20, 100, 4));
    assert_eq!(r.finished, 20);
}
