//! The memory budget of a solve ([`SolveOptions::max_memory_mb`]): the
//! solver stops before its tables pass it, and says so; a child of
//! `tests.rs`.

use super::*;

#[test]
fn a_solve_stops_before_its_tables_pass_the_memory_budget() {
    // Sasquatch I 25, which the default solver does not solve in a
    // minute: with a budget of 48 MiB, every look finds the tables within
    // it, and the solve ends at it, short of the node limits.
    let lv = sasquatch_i(25);
    let budget = 48usize;
    let opts = SolveOptions {
        max_memory_mb: budget,
        ..SolveOptions::default()
    };
    let mut solver = Solver::new(&lv, &opts);
    let mut most = 0;
    // One look at a time: run until the next look, then check.
    loop {
        let mut looks = 0;
        let finished = solver.run_while(&mut || {
            looks += 1;
            looks <= 1
        });
        let fp = solver.footprint();
        assert!(fp.held <= budget << 20, "{fp:?} past {budget} MiB");
        most = most.max(fp.held);
        if finished {
            break;
        }
    }
    let r = solver.result();
    assert_eq!(r.status, SolveStatus::MemoryLimit, "{r:?}");
    assert!(r.note.contains("memory budget of 48 MB"), "{}", r.note);
    // It used the budget: it stopped when the next doubling would not fit,
    // not long before.
    assert!(most > (budget << 20) / 4, "only {most} bytes");
    // A larger budget goes on from where this one stopped.
    let larger = SolveOptions {
        max_memory_mb: 4 * budget,
        max_nodes: 200_000,
        ..opts
    };
    let r2 = solve(&lv, &larger, &UnlimitedTimer);
    assert_ne!(r2.status, SolveStatus::MemoryLimit, "{r2:?}");
    assert!(
        r2.expanded > r.expanded,
        "{} after {}",
        r2.expanded,
        r.expanded
    );
}
