//! Tests of the supply-maze planners: hand-made instances, heuristic
//! properties checked exhaustively on small maps, and a property test that
//! all optimal agents agree with the reference solver.

use super::*;
use games::supply::{generate, reference_distance, Status};
use games::{StepTimer, UnlimitedTimer};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Duration;

const DETOUR: &str = "2 7 4\n@.....E\n....S..\n";

fn never() -> bool {
    false
}

fn run(map: &SupplyMap, algo: Algo) -> SearchResult {
    search_from(map, map.start(), map.capacity(), algo, None, &never)
}

fn path_len(map: &SupplyMap, algo: Algo) -> Option<usize> {
    match run(map, algo).outcome {
        SearchOutcome::Found(p) => {
            assert_eq!(
                map.check_path(&p),
                Some(p.len()),
                "{algo:?} returned an invalid path"
            );
            Some(p.len())
        }
        SearchOutcome::Unreachable => None,
        SearchOutcome::Interrupted => panic!("interrupted without a timer"),
    }
}

/// Play a whole episode with `agent` and return the final state.
fn play(agent: &mut dyn Agent<Supply>, state: Supply) -> Supply {
    let mut s = state;
    agent.init(&s, 0, &UnlimitedTimer);
    while !s.is_over() {
        let a = agent.act(&s, 0, &UnlimitedTimer);
        assert!(s.is_legal(0, a));
        s.advance(&[a]);
    }
    agent.end(&s, 0);
    s
}

#[test]
fn every_planner_takes_the_supply_detour() {
    let map = SupplyMap::parse(DETOUR).unwrap();
    for algo in Algo::ALL {
        assert_eq!(path_len(&map, algo), Some(8), "{algo:?}");
        let mut agent = make(algo.name(), &AgentParams::new(), 0).unwrap();
        let end = play(agent.as_mut(), Supply::parse(DETOUR).unwrap());
        assert!(end.won(), "{algo:?}");
        assert_eq!(end.steps(), 8);
        assert!(agent.stats().expanded.unwrap() > 0);
    }
}

#[test]
fn budget_only_unsolvable_is_reported_and_played_out_as_a_loss() {
    // Connected, but 4 moves with T = 3; one supply that does not help.
    let text = "2 5 3\n@...E\n#S###\n";
    let map = SupplyMap::parse(text).unwrap();
    for algo in Algo::ALL {
        assert_eq!(path_len(&map, algo), None, "{algo:?}");
        let mut agent = make(algo.name(), &AgentParams::new(), 0).unwrap();
        let end = play(
            agent.as_mut(),
            Supply::parse(text).unwrap().with_max_ticks(50),
        );
        assert!(end.is_over() && !end.won(), "{algo:?}");
    }
    // The food-aware heuristic sees it at once: h(start) = ∞.
    let h = SupplyHeuristic::new(&map);
    assert_eq!(h.h(map.start(), 3), None);
    assert_eq!(run(&map, Algo::AstarSupply).expanded, 0);
    assert!(run(&map, Algo::Ucs).expanded > 0);
}

#[test]
fn manhattan_and_supply_heuristics_on_the_detour() {
    let map = SupplyMap::parse(DETOUR).unwrap();
    let h = SupplyHeuristic::new(&map);
    assert!(h.is_full());
    // From the start with 4 food: no direct leg (6 > 4); via S (distance 5 ≤ 5) + 3.
    assert_eq!(h.h(map.start(), 4), Some(8));
    assert_eq!(map.manhattan(map.start(), map.exit()), 6);
    // With 6 food the direct leg fits.
    assert_eq!(h.h(map.start(), 6), Some(6));
    // A* with the exact value here expands only the path.
    assert_eq!(run(&map, Algo::AstarSupply).expanded, 8);
}

/// All states `(cell, food)` of a map.
fn states(map: &SupplyMap) -> impl Iterator<Item = (u32, u32)> + '_ {
    (0..map.num_cells() as u32)
        .filter(|&c| map.cell(c) != games::supply::Cell::Wall)
        .flat_map(move |c| (0..=map.capacity()).map(move |f| (c, f)))
}

#[test]
fn supply_heuristic_is_exact_hence_admissible_and_consistent_on_every_state() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0;
    let maps = [(5, 6, 3), (4, 7, 1), (6, 5, 2), (5, 5, 5)]
        .into_iter()
        .flat_map(|(r, c, t)| generate(&mut rng, r, c, t, 15).unwrap());
    for g in maps {
        let map = &g.map;
        let h = SupplyHeuristic::new(map);
        for (c, f) in states(map) {
            let truth = match search_from(map, c, f, Algo::Ucs, None, &never).outcome {
                SearchOutcome::Found(p) => Some(p.len() as u32),
                _ => None,
            };
            let hv = h.h(c, f);
            match (hv, truth) {
                // Admissible, and in fact exact (see the SupplyHeuristic docs).
                (Some(hv), Some(t)) => assert_eq!(hv, t, "h {hv} vs h* {t} at {c},{f}"),
                (Some(hv), None) => panic!("h = {hv} but the exit is unreachable from {c},{f}"),
                (None, Some(t)) => panic!("h = ∞ but h* = {t} at {c},{f}"),
                _ => {}
            }
            assert!(map.manhattan(c, map.exit()) <= hv.unwrap_or(u32::MAX));
            if c == map.exit() {
                assert_eq!(hv, Some(0));
            }
            for d in Dir::ALL {
                if let Some((c2, f2)) = map.step(c, f, d) {
                    if let Some(hv) = hv {
                        let h2 = h.h(c2, f2).map(|v| v + 1).unwrap_or(u32::MAX);
                        assert!(hv <= h2, "inconsistent at {c},{f} -> {c2},{f2}");
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn astar_expands_fewer_nodes_than_ucs_overall() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut total = [0u64; 4];
    for g in generate(&mut rng, 12, 12, 6, 30).unwrap() {
        for (k, algo) in Algo::ALL.into_iter().enumerate() {
            total[k] += run(&g.map, algo).expanded;
        }
    }
    let [_, ucs, astar, supply] = total;
    assert!(astar < ucs, "A* {astar} vs UCS {ucs}");
    assert!(supply <= astar, "astar-supply {supply} vs A* {astar}");
}

#[test]
fn planner_replans_after_a_forced_move() {
    let mut agent = Planner::new(Algo::Astar);
    let mut s = Supply::parse("3 5 9\n@...E\n.....\n.....").unwrap();
    agent.init(&s, 0, &UnlimitedTimer);
    // The harness plays a fallback move instead of the plan's first move.
    s.advance(&[Dir::Down]);
    let end = {
        while !s.is_over() {
            let a = agent.act(&s, 0, &UnlimitedTimer);
            s.advance(&[a]);
        }
        s
    };
    assert!(end.won());
    assert_eq!(end.steps(), 6);
}

#[test]
fn a_timer_interrupts_the_search_and_the_agent_still_moves() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let g = generate(&mut rng, 40, 40, 30, 1).unwrap().remove(0);
    let timer = StepTimer::new(Duration::from_millis(1), Duration::from_millis(1));
    let r = solve(&g.map, Algo::Ucs, &timer);
    assert_eq!(r.outcome, SearchOutcome::Interrupted);
    let mut agent = Planner::new(Algo::Ucs);
    let s = Supply::new(Arc::new(g.map.clone()));
    agent.init(&s, 0, &StepTimer::new(Duration::ZERO, Duration::ZERO));
    let a = agent.act(&s, 0, &StepTimer::new(Duration::ZERO, Duration::ZERO));
    assert!(s.is_legal(0, a) || s.is_over());
}

#[test]
fn registry_names_and_errors() {
    for info in AGENTS {
        assert!(make(info.name, &AgentParams::new(), 1).is_ok());
    }
    let e = make("dfs", &AgentParams::new(), 0).err().unwrap();
    assert!(e
        .to_string()
        .contains("bfs, ucs, astar, astar-supply, random"));
    let p = AgentParams::new().with("weight", crate::ParamValue::Int(2));
    assert!(make("astar", &p, 0).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// On 1,000 small generated instances, every optimal planner returns a
    /// valid path whose length is the reference optimum (or all report the
    /// exit unreachable when the reference does).
    #[test]
    fn all_optimal_agents_agree_on_path_length(
        seed in any::<u64>(), rows in 2usize..8, cols in 2usize..8, food in 1u32..7,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = generate(&mut rng, rows, cols, food, 1).unwrap().remove(0);
        let want = reference_distance(&g.map);
        prop_assert_eq!(want, g.status.steps());
        for algo in Algo::ALL {
            prop_assert_eq!(path_len(&g.map, algo).map(|n| n as u32), want, "{:?}", algo);
        }
        if let Status::Solvable { steps, maze_distance } = g.status {
            prop_assert!(steps >= maze_distance);
        }
    }
}

#[test]
fn shipped_set_matches_its_status_comments_for_every_planner() {
    let set = games::supply::parse_instances(games::supply::SET).unwrap();
    assert!(set.len() >= 20);
    for (i, inst) in set.iter().enumerate() {
        let want = inst
            .comment_value("status")
            .and_then(Status::parse_comment)
            .unwrap_or_else(|| panic!("set:{i} has no status comment"));
        for algo in Algo::ALL {
            assert_eq!(
                path_len(&inst.map, algo).map(|n| n as u32),
                want,
                "set:{i} {algo:?}"
            );
        }
    }
}
