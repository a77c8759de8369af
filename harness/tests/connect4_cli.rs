//! Connect Four, the game added through the registry alone: it plays in
//! `arena run` with the generic agents and with an external jsonl agent.

mod common;
use common::arena;

#[test]
fn generic_agents_play_a_round_robin() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (code, stdout, err) = arena(&[
        "run",
        "../configs/connect4.toml",
        "--repetitions",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("connect4 on connect4: 6 episodes"),
        "{stdout}"
    );
    let rows = std::fs::read_to_string(out.join("episodes.csv")).unwrap();
    assert_eq!(rows.lines().count(), 1 + 12, "{rows}");
    let cross = std::fs::read_to_string(out.join("crosstable.csv")).unwrap();
    // uct against random: it wins at least 5 of its 6 games.
    let uct = cross
        .lines()
        .find(|l| l.starts_with("uct,random"))
        .unwrap_or_else(|| panic!("{cross}"));
    let wins: u32 = uct.split(',').nth(3).unwrap().parse().unwrap();
    assert!(wins >= 5, "{cross}");
}

#[test]
fn an_external_jsonl_agent_plays() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("first.py"),
        "import json, sys\n\
         for line in sys.stdin:\n    m = json.loads(line)\n    \
         if m['type'] == 'start':\n        print(json.dumps({'type': 'ready'}), flush=True)\n    \
         elif m['type'] == 'act':\n        print(json.dumps({'action': m['legal'][0]}), flush=True)\n    \
         else:\n        break\n",
    )
    .unwrap();
    let cfg = dir.path().join("c4.toml");
    std::fs::write(
        &cfg,
        "game = \"connect4\"\nlevels = [\"4453\"]\n[time]\nact = \"500ms\"\nact_hard = \"1s\"\n\
         [[agents]]\nname = \"first\"\ncommand = [\"python3\", \"first.py\"]\n\
         [[agents]]\nagent = \"random\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows = std::fs::read_to_string(out.join("episodes.csv")).unwrap();
    let first: Vec<&str> = rows
        .lines()
        .filter(|l| l.split(',').nth(7) == Some("first"))
        .collect();
    assert_eq!(first.len(), 2, "{rows}");
    assert!(first.iter().all(|l| l.contains(",normal,")), "{rows}");
}

#[test]
fn levels_are_move_strings_or_board_files() {
    let (code, out, err) = arena(&["trace", "connect4", "--level", "4453", "--actions", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().nth(1).unwrap().contains("\"...OX..\""), "{out}");
    let (code, _, err) = arena(&["trace", "connect4", "--level", "4483"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a column"), "{err}");
    let (code, _, err) = arena(&["trace", "connect4", "--level", "start", "--actions", "9"]);
    assert_eq!(code, 2);
    assert!(err.contains("expected a column number, 1 to 7"), "{err}");
}
