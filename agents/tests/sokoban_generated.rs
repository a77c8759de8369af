//! Generated levels are solvable by construction; the solver must find a
//! solution for every one, and the independent replay must accept it.
//! 50 small levels (the acceptance test); no clock involved: the
//! search runs with an unlimited timer and a node cap.

use agents::sokoban::{solve, Method, SolveOptions, SolveStatus};
use games::sokoban::{generate, replay, GenerateOptions};
use games::UnlimitedTimer;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn the_solver_solves_fifty_generated_levels() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let shapes = [(7, 7, 2), (8, 8, 3), (9, 8, 3), (10, 10, 4), (8, 7, 2)];
    let opts = SolveOptions {
        max_nodes: 2_000_000,
        ..SolveOptions::default()
    };
    let mut solved = 0;
    for k in 0..50 {
        let (width, height, boxes) = shapes[k % shapes.len()];
        let g = generate(
            &mut rng,
            &GenerateOptions {
                width,
                height,
                boxes,
                ..GenerateOptions::default()
            },
        )
        .unwrap();
        let board = g.level.to_xsb();
        // The generator's own solution is valid (solvable by construction).
        assert!(
            replay(&g.level, &g.solution).unwrap().solved,
            "level {k}\n{board}"
        );
        for method in Method::ALL {
            let opts = SolveOptions {
                max_nodes: opts.max_nodes,
                ..SolveOptions::with_method(method)
            };
            let r = solve(&g.level, &opts, &UnlimitedTimer);
            let m = method.name();
            assert_eq!(
                r.status,
                SolveStatus::Solved,
                "level {k}, {m}: {}\n{board}",
                r.note
            );
            let lurd = r
                .solution
                .as_deref()
                .expect("a solved result has a solution");
            let check =
                replay(&g.level, lurd).unwrap_or_else(|e| panic!("level {k}, {m}: {e}\n{board}"));
            assert!(check.solved, "level {k}, {m}\n{board}\n{lurd}");
            assert_eq!(
                (check.moves, check.pushes),
                (r.moves, r.pushes),
                "level {k}, {m}"
            );
        }
        solved += 1;
    }
    assert_eq!(solved, 50);
}
