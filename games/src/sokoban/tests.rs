//! Format tests: every shipped file, each error kind, the quirks of the
//! format, the letter set, and parse → print → parse identity.

use super::*;
use proptest::prelude::*;

const SHIPPED: &[(&str, &str, usize)] = &[
    ("microban.xsb", MICROBAN, 155),
    (
        "microban-ii.xsb",
        include_str!("../../data/sokoban/microban-ii.xsb"),
        135,
    ),
    (
        "sasquatch-i.xsb",
        include_str!("../../data/sokoban/sasquatch-i.xsb"),
        50,
    ),
    (
        "sasquatch-ii.xsb",
        include_str!("../../data/sokoban/sasquatch-ii.xsb"),
        50,
    ),
    (
        "sasquatch-iii.xsb",
        include_str!("../../data/sokoban/sasquatch-iii.xsb"),
        50,
    ),
    (
        "sasquatch-iv.xsb",
        include_str!("../../data/sokoban/sasquatch-iv.xsb"),
        50,
    ),
    (
        "sasquatch-v.xsb",
        include_str!("../../data/sokoban/sasquatch-v.xsb"),
        50,
    ),
    (
        "sasquatch-vi.xsb",
        include_str!("../../data/sokoban/sasquatch-vi.xsb"),
        50,
    ),
    (
        "sasquatch-vii.xsb",
        include_str!("../../data/sokoban/sasquatch-vii.xsb"),
        50,
    ),
    (
        "boxoban-medium-valid-001.txt",
        include_str!("../../data/sokoban/boxoban-medium-valid-001.txt"),
        1000,
    ),
    (
        "boxoban-hard-000.txt",
        include_str!("../../data/sokoban/boxoban-hard-000.txt"),
        1000,
    ),
];

/// The level without its line number (which printing changes).
fn board(l: &Level) -> Level {
    Level {
        line: 0,
        ..l.clone()
    }
}

fn err(text: &str) -> LevelError {
    parse_levels(text).expect_err("the text must be rejected")
}

/// Invariants of every parsed level.
fn check_valid(l: &Level) {
    let n = l.width * l.height;
    assert_eq!((l.walls.len(), l.goals.len(), l.boxes.len()), (n, n, n));
    assert!(!l.walls[l.player] && !l.boxes[l.player]);
    assert_eq!(l.num_boxes(), l.goals.iter().filter(|&&g| g).count());
    assert!(l.num_boxes() > 0);
    let region = l.player_region();
    for (i, &inside) in region.iter().enumerate() {
        let (r, c) = l.coords(i);
        assert!(
            !inside || (r > 0 && c > 0 && r + 1 < l.height && c + 1 < l.width),
            "region reaches the edge"
        );
    }
}

#[test]
fn every_shipped_file_parses_with_its_titles() {
    for &(name, text, count) in SHIPPED {
        let levels = parse_levels(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(levels.len(), count, "{name}");
        for (i, l) in levels.iter().enumerate() {
            check_valid(l);
            assert_eq!(l.index, i);
            // Skinner's titles count from 1, Boxoban's from 0.
            let first = if name.starts_with("boxoban") { 0 } else { 1 };
            assert_eq!(l.title, (i + first).to_string(), "{name} level {i}");
            if name.starts_with("boxoban") {
                assert_eq!(
                    (l.width, l.height, l.num_boxes()),
                    (10, 10, 4),
                    "{name} {i}"
                );
                assert_eq!(l.boxes_on_goals(), 0);
            }
        }
    }
}

#[test]
fn microban_first_level_cell_by_cell() {
    let l = &parse_levels(MICROBAN).unwrap()[0];
    // ####
    // # .#
    // #  ###
    // #*@  #
    // #  $ #
    // #  ###
    // ####
    assert_eq!((l.width, l.height, l.line), (6, 7, 17));
    assert_eq!(l.coords(l.player), (3, 2));
    assert_eq!(l.tile(3 * 6 + 1), Tile::BoxOnGoal);
    assert_eq!(l.tile(4 * 6 + 3), Tile::Box);
    assert_eq!(l.tile(6 + 2), Tile::Goal);
    assert_eq!(l.tile(4), Tile::Floor, "beyond the short first row");
    assert_eq!(
        l.to_xsb(),
        "####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n"
    );
    // Level 144 has a quoted name after its `; 144` line: the `;` title wins.
    assert_eq!(parse_levels(MICROBAN).unwrap()[143].title, "144");
}

#[test]
fn parse_print_parse_is_identity_on_every_shipped_file() {
    for &(name, text, _) in SHIPPED {
        let a = parse_levels(text).unwrap();
        let printed = print_levels(&a);
        let b = parse_levels(&printed).unwrap_or_else(|e| panic!("{name}: {e}\n{printed}"));
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(board(x), board(y), "{name}");
        }
        // Printing what was parsed from the printout gives the same text.
        assert_eq!(print_levels(&b), printed, "{name}");
    }
}

const SMALL: &str = "#####\n#@$.#\n#####\n";

#[test]
fn run_length_encoding_rows_and_groups() {
    let plain = parse_level(SMALL).unwrap();
    for text in [
        "5#|#@$.#|5#",
        "5#\n#@$.#\n5#",
        "5#|#@$.#\n5#",
        "2(2#)#|#@$.#|3#2#",
    ] {
        let l = parse_level(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(board(&l), board(&plain), "{text}");
    }
    // Floor written -, _ or space, and counts on floor.
    let a = parse_level("######\n#@ $.#\n######").unwrap();
    let b = parse_level("6#|#@-$.#|6#").unwrap();
    let c = parse_level("6#|#@_$.#|6#").unwrap();
    let d = parse_level("6#|#@1-$.#|6#").unwrap();
    assert!(board(&a) == board(&b) && board(&b) == board(&c) && board(&c) == board(&d));
    // Errors point at the line and the column of the encoding.
    let e = err("; t\n5#|#@$.#|5#\n\n3#|#@$0.#|3#");
    assert_eq!((e.line, e.column, e.level), (4, 7, 1));
    assert!(matches!(e.kind, LevelErrorKind::RunLength(_)), "{e}");
    let e = err("4#|#@2(#|4#");
    assert!(matches!(e.kind, LevelErrorKind::RunLength(_)), "{e}");
    let e = err("999999999#\n#@$.#\n#####");
    assert!(matches!(e.kind, LevelErrorKind::RunLength(_)), "{e}");
}

#[test]
fn ragged_rows_interior_floor_rows_and_decorative_boxes() {
    // A short row is padded with floor; an interior row of floor is `-`.
    let text = "  #####\n###   #\n#@  $ #\n-\n#   .  #\n########";
    // Row 3 is all floor: the player region leaks through it.
    let e = err(text);
    assert!(matches!(e.kind, LevelErrorKind::NotEnclosed { .. }), "{e}");
    let text = "#######\n#@ $  #\n#-----#\n#  .  #\n#######\n";
    let l = parse_level(text).unwrap();
    assert_eq!((l.width, l.height), (7, 5));
    assert!((8..13).all(|c| l.tile(2 * 7 + c - 7) == Tile::Floor || c == 7));
    // A decorative box on a goal outside the player's region is fine.
    let l = parse_level("#####   ###\n#@$.#   #*#\n#####   ###").unwrap();
    assert_eq!((l.num_boxes(), l.boxes_on_goals()), (2, 1));
    assert!(!l.player_region()[9 + 11]);
    // Trailing blanks and \r are ignored; trailing floor is dropped.
    let l = parse_level("#####   \r\n#@$.#\t\r\n#####\r\n").unwrap();
    assert_eq!((l.width, l.height), (5, 3));
}

#[test]
fn titles_authors_comments_and_solutions() {
    let text = "\
:: a comment for people only
Collection: test
; file notes, line 1
; file notes, line 2

; 12
#####
#@$.#
#####
Author: Someone
Comment:
####
#@ #
Comment-End:
Solution (moves 2, pushes 1):
R
r

#####
#@$.#
#####
Title: From SOK
Solution: R

Level three

######
#@$ .#
######

;screen.04
######
#@ $.#
######
Comment: one line
";
    let entries = parse_collection(text).unwrap();
    let titles: Vec<&str> = entries.iter().map(|e| e.level.title.as_str()).collect();
    assert_eq!(titles, ["12", "From SOK", "Level three", "screen.04"]);
    assert_eq!(entries[0].author.as_deref(), Some("Someone"));
    assert_eq!(entries[0].comment.as_deref(), Some("####\n#@ #"));
    assert_eq!(entries[0].solutions, ["Rr"]);
    assert_eq!(entries[1].solutions, ["R"]);
    assert_eq!(entries[3].comment.as_deref(), Some("one line"));
    assert_eq!(entries[3].level.line, 32);
    // A board with no title line before it has an empty title.
    assert_eq!(parse_level(SMALL).unwrap().title, "");
    // Boxoban style: the title comment right above the board.
    assert_eq!(parse_level("; 7\n#####\n#@$.#\n#####").unwrap().title, "7");
}

#[test]
fn the_report_letter_set_maps_onto_xsb() {
    // W wall, B box, G goal, P player, Y box on goal, X player on goal.
    let letters = "WWWWWWW\nWPB GYW\nW  -  W\nWWWWWWW\n";
    let xsb = "#######\n#@$ .*#\n#     #\n#######\n";
    assert_eq!(
        board(&parse_level(letters).unwrap()),
        board(&parse_level(xsb).unwrap())
    );
    let l = parse_level("wwwww\nwXB w\nwwwww").unwrap();
    assert_eq!(l.tile(l.player), Tile::PlayerOnGoal);
    assert_eq!(l.to_xsb(), "#####\n#+$ #\n#####\n");
    // Printing in letters and parsing back gives the same board.
    let l = parse_levels(MICROBAN).unwrap().remove(10);
    assert_eq!(
        board(&parse_level(&l.to_letters()).unwrap()),
        Level {
            title: String::new(),
            index: 0,
            ..board(&l)
        }
    );
    // A board uses one set: a letter in a `#` board is an unknown character.
    let e = err("#####\n#@B.#\n#####");
    assert_eq!(
        (e.line, e.column, e.kind.clone()),
        (2, 3, LevelErrorKind::UnknownChar('B'))
    );
}

#[test]
fn each_error_kind_with_line_level_and_title() {
    let e = err("");
    assert_eq!(e.kind, LevelErrorKind::NoLevels);
    assert_eq!(
        err("just some text\n; and a comment\n").kind,
        LevelErrorKind::NoLevels
    );

    let two = format!("; a\n{SMALL}\n; b\n{SMALL}");
    let e = parse_level(&two).unwrap_err();
    assert_eq!(
        (e.kind, e.line, e.level),
        (LevelErrorKind::NotOneLevel { count: 2 }, 7, 1)
    );

    let e = err(&format!(
        "; first\n{SMALL}\n; second\n#####\n#@$x#\n#####\n"
    ));
    assert_eq!(
        (e.line, e.column, e.level, e.title.as_str(), e.kind.clone()),
        (8, 4, 1, "second", LevelErrorKind::UnknownChar('x'))
    );
    assert!(
        e.to_string()
            .starts_with("level index 1 (title `second`), line 8, column 4: unknown character 'x'"),
        "{e}"
    );

    let e = err("; none\n#####\n# $.#\n#####");
    assert_eq!(
        (e.kind, e.line, e.title.as_str()),
        (LevelErrorKind::NoPlayer, 2, "none")
    );

    let e = err("######\n#@$.@#\n######");
    assert_eq!(
        (e.kind, e.line, e.column),
        (LevelErrorKind::SeveralPlayers { count: 2 }, 2, 5)
    );
    let e = err("######\n#@$.+#\n#+####");
    assert_eq!(e.kind, LevelErrorKind::SeveralPlayers { count: 3 });

    let e = err("######\n#@$$.#\n######");
    assert_eq!(e.kind, LevelErrorKind::BoxesGoals { boxes: 2, goals: 1 });
    let e = err("######\n#+$ .#\n######");
    assert_eq!(e.kind, LevelErrorKind::BoxesGoals { boxes: 1, goals: 2 });

    assert_eq!(err("####\n#@ #\n####").kind, LevelErrorKind::NoBoxes);

    // A gap in the wall, and a ragged row that leaves the region open.
    let e = err("#####\n#@$.\n#####");
    assert_eq!(e.kind, LevelErrorKind::NotEnclosed { row: 1, col: 4 });
    assert_eq!((e.line, e.column), (2, 5));
    let e = err("######\n#@$. #\n#   \n######");
    assert!(matches!(e.kind, LevelErrorKind::NotEnclosed { .. }), "{e}");
    let e = err("#@$.#\n#####");
    assert_eq!(e.kind, LevelErrorKind::NotEnclosed { row: 0, col: 1 });

    let huge = format!("{}#\n#@$.#", "999".repeat(3));
    assert!(matches!(
        err(&huge).kind,
        LevelErrorKind::RunLength(_) | LevelErrorKind::TooLarge
    ));
    let wide = format!("{}#|#@$.#|5#", 2_000_000);
    assert!(matches!(
        err(&wide).kind,
        LevelErrorKind::RunLength(_) | LevelErrorKind::TooLarge
    ));

    // The harness's ParseError keeps line, column, level and title.
    let p: crate::grid::ParseError = err("; t\n#####\n#@$x#\n#####").into();
    assert_eq!((p.line, p.column), (3, 4));
    assert!(
        p.message.contains("level index 0 (title `t`)"),
        "{}",
        p.message
    );
}

/// A random valid board: walls around, one player, as many boxes as goals
/// (at least one), written with random floor characters, optionally run-length
/// encoded on one line.
fn arb_board() -> impl Strategy<Value = (String, Vec<Vec<Tile>>)> {
    (4usize..12, 3usize..10)
        .prop_flat_map(|(w, h)| {
            (
                Just((w, h)),
                prop::collection::vec(0u8..8, w * h),
                0..w * h,
                prop::collection::vec(0u8..3, w * h),
                any::<bool>(),
            )
        })
        .prop_map(|((w, h), kinds, player, floors, rle)| {
            let interior = |i: usize| {
                let (r, c) = (i / w, i % w);
                r > 0 && c > 0 && r + 1 < h && c + 1 < w
            };
            let mut tiles: Vec<Tile> = kinds
                .iter()
                .enumerate()
                .map(|(i, &k)| {
                    if !interior(i) {
                        Tile::Wall
                    } else {
                        match k {
                            0 | 1 => Tile::Wall,
                            2 => Tile::Goal,
                            3 => Tile::Box,
                            4 => Tile::BoxOnGoal,
                            _ => Tile::Floor,
                        }
                    }
                })
                .collect();
            let interior_cells: Vec<usize> = (0..w * h).filter(|&i| interior(i)).collect();
            let pi = player % interior_cells.len();
            let p = interior_cells[pi];
            tiles[p] = Tile::Player;
            // Balance boxes and goals.
            let boxes = tiles.iter().filter(|&&t| t == Tile::Box).count();
            let goals = tiles.iter().filter(|&&t| t == Tile::Goal).count();
            let (extra, from) = if boxes > goals {
                (boxes - goals, Tile::Box)
            } else {
                (goals - boxes, Tile::Goal)
            };
            for t in tiles.iter_mut().filter(|t| **t == from).take(extra) {
                *t = Tile::Floor;
            }
            if !tiles
                .iter()
                .any(|&t| t == Tile::Box || t == Tile::BoxOnGoal)
            {
                tiles[interior_cells[(pi + 1) % interior_cells.len()]] = Tile::BoxOnGoal;
            }
            let grid: Vec<Vec<Tile>> = tiles.chunks(w).map(|r| r.to_vec()).collect();
            let rows: Vec<String> = grid
                .iter()
                .enumerate()
                .map(|(r, row)| {
                    row.iter()
                        .enumerate()
                        .map(|(c, &t)| match t {
                            Tile::Floor => [' ', '-', '_'][floors[r * w + c] as usize],
                            t => t.to_char(),
                        })
                        .collect()
                })
                .collect();
            let text = if rle {
                rows.iter()
                    .map(|r| {
                        // Encode runs of equal characters as counts.
                        let mut out = String::new();
                        let cs: Vec<char> = r.chars().collect();
                        let mut i = 0;
                        while i < cs.len() {
                            let mut j = i;
                            while j < cs.len() && cs[j] == cs[i] {
                                j += 1;
                            }
                            if j - i > 1 {
                                out.push_str(&(j - i).to_string());
                            }
                            out.push(cs[i]);
                            i = j;
                        }
                        out
                    })
                    .collect::<Vec<_>>()
                    .join("|")
            } else {
                rows.join("\n")
            };
            (text, grid)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn random_boards_parse_to_their_cells_and_round_trip((text, grid) in arb_board(), title in "[a-zA-Z0-9 ;:!'-]{0,12}") {
        let file = format!("; {title}\n{text}\n");
        let l = match parse_level(&file) {
            Ok(l) => l,
            // A player walled in with no box in reach still parses; a box
            // count of zero cannot happen; so every board parses.
            Err(e) => return Err(TestCaseError::fail(format!("{e}\n{file}"))),
        };
        check_valid(&l);
        prop_assert_eq!(l.title.as_str(), title.trim());
        for (r, row) in grid.iter().enumerate() {
            for (c, &t) in row.iter().enumerate() {
                let got = if c < l.width && r < l.height { l.tile(r * l.width + c) } else { Tile::Floor };
                prop_assert_eq!(got, t, "row {} col {}", r, c);
            }
        }
        let again = parse_levels(&print_levels(std::slice::from_ref(&l))).unwrap();
        prop_assert_eq!(again.len(), 1);
        prop_assert_eq!(board(&again[0]), board(&l));
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = parse_collection(&text);
    }

    #[test]
    fn board_like_text_never_panics(
        text in "([#$.@+*_| ()0-9WBGPYX;:\n-]|Title: |Comment:\n|Solution: ){0,200}"
    ) {
        if let Ok(levels) = parse_levels(&text) {
            levels.iter().for_each(check_valid);
        }
    }

    #[test]
    fn files_of_boards_and_notes_round_trip(parts in prop::collection::vec(arb_part(), 1..8)) {
        // Two boards in a row need a line between them (else they are one).
        let mut text = String::new();
        let mut after_board = false;
        for (part, is_board) in &parts {
            if *is_board && after_board {
                text.push('\n');
            }
            text.push_str(part);
            after_board = *is_board;
        }
        let levels = match parse_levels(&text) {
            Ok(l) => l,
            Err(e) => {
                // Only a file without boards may fail: every board is valid.
                prop_assert_eq!(e.kind.clone(), LevelErrorKind::NoLevels, "{}\n{}", e, text);
                return Ok(());
            }
        };
        levels.iter().for_each(check_valid);
        let printed = print_levels(&levels);
        let again = parse_levels(&printed).map_err(|e| TestCaseError::fail(format!("{e}\n{printed}")))?;
        prop_assert_eq!(again.len(), levels.len());
        for (a, b) in levels.iter().zip(&again) {
            prop_assert_eq!(board(a), board(b));
        }
    }
}

/// A piece of a level file: a valid board (standard or letters), or a line
/// of notes between boards.
fn arb_part() -> impl Strategy<Value = (String, bool)> {
    let notes = prop_oneof![
        2 => Just("\n".to_string()),
        2 => "[a-z0-9 ]{0,8}".prop_map(|w| format!("; {w}\n")),
        1 => "[a-z0-9 ]{0,8}".prop_map(|w| format!("Title: {w}\n")),
        1 => "[a-z ]{0,8}".prop_map(|w| format!("Author: {w}\n")),
        1 => "[a-z# ]{0,8}".prop_map(|w| format!("Comment:\n{w}\nComment-End:\n")),
        1 => "[lurdLURD0-9]{0,8}".prop_map(|w| format!("Solution: {w}\n")),
        // Plain text (no letters of the letter set: it could continue a board).
        1 => "[ac-fh-oq-vz0-9][ac-fh-oq-vz0-9 ]{0,7}".prop_map(|w| format!("{w}\n")),
        1 => Just(":: note\n".to_string()),
    ];
    prop_oneof![
        4 => arb_board().prop_map(|(t, _)| (format!("{t}\n"), true)),
        1 => arb_board().prop_map(|(_, grid)| {
            let rows: String = grid
                .iter()
                .map(|r| r.iter().map(|t| t.to_letter()).collect::<String>() + "\n")
                .collect();
            (rows, true)
        }),
        9 => notes.prop_map(|n| (n, false)),
    ]
}
