//! `arena perft xiangqi` and Xiangqi levels, as a user meets them.

use harness::registry::ArenaGame;

mod common;
use common::arena;

#[test]
fn perft_divide_lists_root_moves_then_the_total() {
    let (code, out, err) = arena(&["perft", "xiangqi", "--depth", "2", "--divide"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 45);
    assert_eq!(*lines.last().unwrap(), "1920");
    assert!(lines.contains(&"h2e2: 45"), "{out}");
    let sum: u64 = lines[..44]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1920);
}

#[test]
fn perft_of_a_fen_prints_the_total_alone() {
    let fen = "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1";
    let (code, out, err) = arena(&["perft", "xiangqi", "--fen", fen, "--depth", "3"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "3707");
}

#[test]
fn perft_rejects_a_bad_fen_with_its_column() {
    let (code, _out, err) = arena(&[
        "perft",
        "xiangqi",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/4X4 w",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("column 22"), "{err}");
}

#[test]
fn levels_are_start_a_fen_or_a_file() {
    use games::xiangqi::Xiangqi;
    assert_eq!(
        Xiangqi::load_level("start", 0).unwrap().fen(),
        games::xiangqi::START_FEN
    );
    let fen = "3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1";
    assert_eq!(Xiangqi::load_level(fen, 0).unwrap().fen(), fen);
    let dir = std::env::temp_dir().join(format!("arena-xq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("level.fen");
    std::fs::write(&path, format!("# a comment\n\n{fen}\n")).unwrap();
    assert_eq!(
        Xiangqi::load_level(path.to_str().unwrap(), 0)
            .unwrap()
            .fen(),
        fen
    );
    std::fs::write(&path, "# a comment\n3k5/9/9/9/9/9/9/9/9/4K3Q w\n").unwrap();
    let e = Xiangqi::load_level(path.to_str().unwrap(), 0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2, column 24"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
    assert!(Xiangqi::load_level("nonsense", 0).is_err());
    let mut g = Xiangqi::load_level("start", 0).unwrap();
    g.set_max_steps(10);
    assert_eq!(g.max_plies(), 10);
}

#[test]
fn trace_plays_iccs_moves_until_the_end() {
    let (code, out, err) = arena(&[
        "trace",
        "xiangqi",
        "--level",
        "3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1",
        "--actions",
        "i0i9,d9d8",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[1].contains(r#""reason":"checkmate""#), "{}", lines[1]);
    assert!(lines[1].contains(r#""result":"win""#), "{}", lines[1]);
    let (code, _, err) = arena(&["trace", "xiangqi", "--level", "start", "--actions", "h2h8"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("item 1 (`h2h8`, move 1) is not legal"),
        "{err}"
    );
}
