//! Generator tests: determinism, validity, solvability by construction, and
//! the difficulty formula on hand-counted boards.

use super::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn batch(seed: u64, count: usize, opts: &GenerateOptions) -> Vec<Generated> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| generate(&mut rng, opts).unwrap())
        .collect()
}

#[test]
fn same_seed_same_levels_other_seed_other_levels() {
    let opts = GenerateOptions::default();
    let a = batch(7, 5, &opts);
    let b = batch(7, 5, &opts);
    assert_eq!(a, b);
    let c = batch(8, 5, &opts);
    assert_ne!(a[0].level, c[0].level);
    // The first levels do not depend on how many are asked for.
    assert_eq!(batch(7, 2, &opts)[..], a[..2]);
}

#[test]
fn generated_levels_parse_back_and_their_reversed_pulls_solve_them() {
    for (size, boxes) in [((10, 10), 4), ((7, 7), 2), ((14, 9), 5), ((5, 5), 1)] {
        let opts = GenerateOptions {
            width: size.0,
            height: size.1,
            boxes,
            ..GenerateOptions::default()
        };
        for g in batch(boxes as u64, 20, &opts) {
            let l = &g.level;
            assert!(l.width <= size.0 && l.height <= size.1);
            assert_eq!(l.num_boxes(), boxes);
            assert_eq!(l.goals.iter().filter(|&&x| x).count(), boxes);
            assert!(!l.is_solved(), "a level starts unsolved");
            // Through the text format and back: the same board, valid.
            let text = print_levels(std::slice::from_ref(l));
            let parsed = parse_level(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(Level { line: 0, ..parsed }, *l);
            // Solvable by construction: the reversed pulls replay to a win.
            let r =
                replay(l, &g.solution).unwrap_or_else(|e| panic!("{e}\n{text}\n{}", g.solution));
            assert!(r.solved, "{text}");
            assert!(r.pushes >= 1);
            assert_eq!(g.difficulty, difficulty(l));
        }
    }
}

#[test]
fn min_score_filters_and_bad_options_are_errors() {
    let easy = batch(3, 30, &GenerateOptions::default());
    let mut scores: Vec<f64> = easy.iter().map(|g| g.difficulty.score).collect();
    scores.sort_by(f64::total_cmp);
    let median = scores[scores.len() / 2];
    let opts = GenerateOptions {
        min_score: median,
        ..GenerateOptions::default()
    };
    for g in batch(3, 10, &opts) {
        assert!(g.difficulty.score >= median);
    }
    let impossible = GenerateOptions {
        min_score: 30.0,
        max_attempts: 20,
        ..GenerateOptions::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert!(matches!(
        generate(&mut rng, &impossible),
        Err(GenerateError::MinScoreNotReached { attempts: 20, .. })
    ));
    for (w, h, b, min) in [
        (3, 10, 1, 0.0),
        (10, 10, 0, 0.0),
        (5, 5, 3, 0.0),
        (40, 40, 4, 0.0),
        (10, 10, 4, 44.0),
    ] {
        let o = GenerateOptions {
            width: w,
            height: h,
            boxes: b,
            min_score: min,
            ..GenerateOptions::default()
        };
        assert!(
            matches!(generate(&mut rng, &o), Err(GenerateError::BadOptions(_))),
            "{w}x{h} {b} {min}"
        );
    }
}

#[test]
fn difficulty_follows_the_report_formula() {
    // #######
    // #@ $ .#
    // #######
    // Inner cells (row 1, columns 1..=5): every one has walls and floor
    // around it, so all 5 are blocks. One box at (1,3), goal at (1,5): the
    // rectangle is 3 cells, 1 box, 1 goal, 0 walls: (10 + 5) / 3 = 5.
    let l = parse_level("#######\n#@ $ .#\n#######").unwrap();
    let d = difficulty(&l);
    assert_eq!((d.blocks, d.boxes), (5, 1));
    assert!((d.congestion - 5.0).abs() < 1e-12);
    assert!((d.score - (15.0 * 5.0 + 5.0 * 5.0 + 1.0) / 50.0).abs() < 1e-12);
    // An open 5x5 room with the player at (1,1), the box at (3,3) and the
    // goal at (4,5). Of the 25 inner cells only (3,3) sees eight free cells
    // (the box at its own centre does not count): 24 blocks. The box/goal
    // rectangle is rows 3-4, columns 3-5: 6 cells, 1 box, 1 goal: 15/6.
    let l = parse_level("#######\n#@    #\n#     #\n#  $  #\n#    .#\n#     #\n#######").unwrap();
    let d = difficulty(&l);
    assert_eq!(d.blocks, 24, "{d}");
    assert!((d.congestion - 2.5).abs() < 1e-12, "{d}");
    // Cells outside the player's region count as walls.
    let a = difficulty(&parse_level("#####\n#@$.#\n#####").unwrap());
    let b = difficulty(&parse_level("#####\n#@$.#\n#####\n-\n ###").unwrap());
    assert_eq!(a.blocks, 3);
    assert_eq!(b.congestion, a.congestion);
}
