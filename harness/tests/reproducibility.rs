//! Reruns reproduce the same games whatever the concurrency. (Kept apart
//! from the timing tests: test binaries run one after another, and this one
//! keeps both cores busy.)

use harness::run::{run_config, ProgressMode};

#[test]
fn reruns_reproduce_the_same_games_whatever_the_concurrency() {
    let dir = tempfile::tempdir().unwrap();
    let cfg_path = dir.path().join("seeded.toml");
    std::fs::write(
        &cfg_path,
        "game = \"bait\"\nlevels = [1, 2]\nrepetitions = 3\nseed = 99\nmax_steps = 60\n\
         [[agents]]\nagent = \"random\"\n[[agents]]\nagent = \"onesteplookahead\"\n",
    )
    .unwrap();
    let mut cfg = harness::registry::load_config(&cfg_path).unwrap();
    let key = |rows: &[harness::output::rows::EpisodeRow]| {
        rows.iter()
            .map(|r| {
                (
                    r.episode,
                    r.agent.clone(),
                    r.seed,
                    r.score.to_bits(),
                    r.steps,
                    r.result.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    cfg.concurrency = 1;
    let a = run_config(&cfg, &dir.path().join("a"), ProgressMode::Silent).unwrap();
    cfg.concurrency = 3;
    let b = run_config(&cfg, &dir.path().join("b"), ProgressMode::Silent).unwrap();
    assert_eq!(key(&a.rows), key(&b.rows));
    let moves_a = std::fs::read_to_string(a.dir.join("moves.jsonl")).unwrap();
    let moves_b = std::fs::read_to_string(b.dir.join("moves.jsonl")).unwrap();
    let mut la: Vec<_> = moves_a.lines().collect();
    let mut lb: Vec<_> = moves_b.lines().collect();
    la.sort();
    lb.sort();
    assert_eq!(la, lb);
    // Different random seeds play different games.
    cfg.seed = 100;
    let c = run_config(&cfg, &dir.path().join("c"), ProgressMode::Silent).unwrap();
    assert_ne!(key(&a.rows), key(&c.rows));
}
