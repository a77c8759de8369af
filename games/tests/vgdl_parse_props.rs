//! Property test of the VGDL parser and engine on mutated GVGAI game files:
//! deleted, duplicated and swapped lines, inserted characters (indentation,
//! `>`, `=`, `#`, tabs, digits, names), truncation. Whatever the text, loading
//! never panics, and a game that loads plays (the checks of
//! `games::fuzzing::vgdl_game`). Errors from the parser carry a position
//! inside the text.

use games::vgdl::{Vgdl, VgdlError};
use proptest::prelude::*;
use std::path::Path;

const GAMES: [&str; 8] = [
    "bait", "sokoban", "aliens", "zelda", "frogs", "pacman", "grow", "x-racer",
];

fn game_text(k: usize) -> (String, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/gridphysics");
    let g = GAMES[k % GAMES.len()];
    (
        std::fs::read_to_string(dir.join(format!("{g}.txt"))).unwrap(),
        std::fs::read_to_string(dir.join(format!("{g}_lvl0.txt"))).unwrap(),
    )
}

#[derive(Clone, Debug)]
enum Edit {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    Insert(usize, String),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let piece = prop_oneof![
        Just(" ".to_string()),
        Just("\t".to_string()),
        Just(">".to_string()),
        Just("=".to_string()),
        Just("#".to_string()),
        Just("\n".to_string()),
        Just("\n    ".to_string()),
        Just("TIME".to_string()),
        Just("EOS".to_string()),
        Just("avatar".to_string()),
        Just("wall".to_string()),
        Just("-1".to_string()),
        Just("99999999999".to_string()),
        Just("0.5".to_string()),
        "[a-zA-Z0-9=>#., ]{1,6}",
    ];
    prop_oneof![
        any::<usize>().prop_map(Edit::DeleteLine),
        any::<usize>().prop_map(Edit::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (any::<usize>(), piece).prop_map(|(a, p)| Edit::Insert(a, p)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, e: &Edit) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    match e {
        Edit::DeleteLine(i) if !lines.is_empty() => {
            lines.remove(i % n);
        }
        Edit::DuplicateLine(i) if !lines.is_empty() => {
            let l = lines[i % n].clone();
            lines.insert(i % n, l);
        }
        Edit::SwapLines(a, b) if !lines.is_empty() => lines.swap(a % n, b % n),
        Edit::Insert(at, p) => {
            let mut s = lines.join("\n");
            let mut k = at % (s.len() + 1);
            while !s.is_char_boundary(k) {
                k -= 1;
            }
            s.insert_str(k, p);
            return s;
        }
        Edit::Truncate(at) => {
            let s = lines.join("\n");
            let mut k = at % (s.len() + 1);
            while !s.is_char_boundary(k) {
                k -= 1;
            }
            return s[..k].to_string();
        }
        _ => {}
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn mutated_games_never_panic(k in 0usize..8, edits in proptest::collection::vec(edit(), 1..6), in_level in any::<bool>()) {
        let (mut game, mut level) = game_text(k);
        for e in &edits {
            if in_level { level = apply(&level, e) } else { game = apply(&game, e) }
        }
        if let Err(VgdlError::Parse(p)) = Vgdl::parse(&game) {
            prop_assert!(p.line <= game.lines().count().max(1), "{p}");
            prop_assert!(!p.message.is_empty());
        }
        let input = format!("{game}\n---\n{level}");
        games::fuzzing::vgdl_game(input.as_bytes());
    }
}
