//! `arena trace snake` (the conformance contract) and a small Snake tournament.

mod common;
use common::arena;

#[test]
fn trace_snake_follows_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map.json");
    std::fs::write(
        &map,
        r#"{"width": 5, "height": 4, "obstacle": [{"x": 2, "y": 2}, {"x": 3, "y": 4}]}"#,
    )
    .unwrap();
    let (code, out, err) = arena(&[
        "trace",
        "snake",
        "--level",
        map.to_str().unwrap(),
        "--actions",
        "2/0,1/3,1/3,0/0",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        vec![
            r#"{"round":0,"bodies":[[[1,1]],[[4,5]]],"alive":[true,true],"over":false,"scores":null}"#,
            r#"{"round":1,"bodies":[[[2,1],[1,1]],[[3,5],[4,5]]],"alive":[true,true],"over":false,"scores":null}"#,
            // Both turn into an obstacle: both die, a draw; the 4th round is not played.
            r#"{"round":2,"bodies":[[[2,1],[1,1]],[[3,5],[4,5]]],"alive":[false,false],"over":true,"scores":[1,1]}"#,
        ]
    );
}

#[test]
fn trace_snake_rejects_bad_input_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map.json");
    std::fs::write(
        &map,
        r#"{"width": 5, "height": 4, "obstacle": [{"x": 1, "y": 1}]}"#,
    )
    .unwrap();
    let (code, _, err) = arena(&["trace", "snake", "--level", map.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("map.json: obstacle 0 at (x=1, y=1): on a start cell"),
        "{err}"
    );
    std::fs::write(&map, r#"{"width": 5, "height": 4}"#).unwrap();
    let (code, _, err) = arena(&[
        "trace",
        "snake",
        "--level",
        map.to_str().unwrap(),
        "--actions",
        "0/5",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("item 1 `0/5`"), "{err}");
}

#[test]
fn snake_round_robin_plays_both_seatings_and_writes_a_crosstable() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("snake.toml");
    std::fs::write(
        &cfg,
        "name = \"s\"\ngame = \"snake\"\nlevels = [\"random\"]\nrepetitions = 2\nseed = 5\n\
         [time]\nact = \"20ms\"\nact_hard = \"60ms\"\n\
         [[agents]]\nagent = \"greedy\"\n[[agents]]\nagent = \"random-valid\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, stdout, err) =
        arena(&["run", cfg.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("opponent"), "{stdout}");
    let episodes = std::fs::read_to_string(out.join("episodes.csv")).unwrap();
    // 1 pair x 2 seatings x 2 repetitions = 4 games, 2 rows each.
    assert_eq!(episodes.lines().count(), 1 + 8);
    let cross = std::fs::read_to_string(out.join("crosstable.csv")).unwrap();
    assert!(
        cross
            .lines()
            .any(|l| l.starts_with("greedy,random-valid,4,")),
        "{cross}"
    );
    // Scores are Botzone's: 2/0 or 1/1 per game.
    for line in episodes.lines().skip(1) {
        let score: f64 = line.split(',').nth(11).unwrap().parse().unwrap();
        assert!([0.0, 1.0, 2.0].contains(&score), "{line}");
    }
}
