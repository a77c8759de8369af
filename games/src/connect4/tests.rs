//! Rules, counts, formats and the testkit for Connect Four; a naive
//! reference implementation (a cell array, every line of four scanned after
//! every move) cross-checks the bitboards.

use super::*;
use crate::testkit::{check_game, check_state, KitConfig};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::HashSet;

/// The reference: cells column by column, bottom first; a move checks the
/// runs through its disc, [`Naive::four_of`] scans the whole board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Naive {
    w: usize,
    h: usize,
    cells: Vec<Option<u8>>,
    plies: usize,
    winner: Option<u8>,
}

impl Naive {
    fn new(w: usize, h: usize) -> Naive {
        Naive {
            w,
            h,
            cells: vec![None; w * h],
            plies: 0,
            winner: None,
        }
    }
    fn at(&self, c: i32, r: i32) -> Option<u8> {
        if c < 0 || r < 0 || c >= self.w as i32 || r >= self.h as i32 {
            return None;
        }
        self.cells[c as usize * self.h + r as usize]
    }
    fn four_of(&self, seat: u8) -> bool {
        for c in 0..self.w as i32 {
            for r in 0..self.h as i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..4).all(|k| self.at(c + k * dc, r + k * dr) == Some(seat)) {
                        return true;
                    }
                }
            }
        }
        false
    }
    fn over(&self) -> bool {
        self.winner.is_some() || self.plies == self.w * self.h
    }
    fn moves(&self) -> Vec<u8> {
        if self.over() {
            return vec![];
        }
        (0..self.w as u8)
            .filter(|&c| self.at(c as i32, self.h as i32 - 1).is_none())
            .collect()
    }
    fn play(&mut self, c: u8) {
        let c = c as usize;
        let r = (0..self.h)
            .find(|&r| self.cells[c * self.h + r].is_none())
            .unwrap();
        let seat = (self.plies % 2) as u8;
        self.cells[c * self.h + r] = Some(seat);
        self.plies += 1;
        // Count the run through the new disc in each direction.
        let (c, r) = (c as i32, r as i32);
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let run = |sign: i32| {
                (1..4)
                    .take_while(|&k| self.at(c + sign * k * dc, r + sign * k * dr) == Some(seat))
                    .count()
            };
            if 1 + run(1) + run(-1) >= 4 {
                self.winner = Some(seat);
            }
        }
    }
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|c| {
                let mut s = self.clone();
                s.play(c);
                s.perft(depth - 1)
            })
            .sum()
    }
    fn text(&self) -> String {
        let mut out = String::new();
        for r in (0..self.h as i32).rev() {
            for c in 0..self.w as i32 {
                out.push(match self.at(c, r) {
                    None => '.',
                    Some(0) => 'X',
                    Some(_) => 'O',
                });
            }
            out.push('\n');
        }
        out
    }
}

fn agree(s: &Connect4, n: &Naive, context: &str) {
    assert_eq!(s.to_text(), n.text(), "{context}");
    assert_eq!(
        s.legal_actions_vec(s.side_to_move()),
        n.moves(),
        "{context}"
    );
    assert_eq!(s.winner(), n.winner.map(|w| w as usize), "{context}");
    // The whole-board scan agrees with the last-move check.
    assert_eq!(
        n.four_of(0) || n.four_of(1),
        n.winner.is_some(),
        "{context}"
    );
    assert_eq!(s.is_over(), n.over(), "{context}");
    assert_eq!(s.plies() as usize, n.plies, "{context}");
}

fn text(rows: &[&str]) -> String {
    rows.iter().map(|r| format!("{r}\n")).collect()
}

/// Play `moves` and check that the game ends with the last one, won by `winner`.
fn won_by(moves: &str, winner: Seat, board: &[&str]) {
    let before = Connect4::from_moves(&moves[..moves.len() - 1]).unwrap();
    assert!(!before.is_over(), "{moves}: over before the last move");
    let s = Connect4::from_moves(moves).unwrap();
    assert_eq!(s.to_text(), text(board), "{moves}");
    assert_eq!(s.winner(), Some(winner), "{moves}");
    assert!(s.is_over());
    assert_eq!(s.result(winner), PlayerResult::Win);
    assert_eq!(s.result(1 - winner), PlayerResult::Loss);
    assert_eq!((s.score(winner), s.score(1 - winner)), (1.0, 0.0));
    assert!(s.legal_actions_vec(0).is_empty() && s.legal_actions_vec(1).is_empty());
    check_state(&s, &KitConfig::default());
}

#[test]
fn perft_from_the_start_is_7_to_the_n_then_823536_and_5673234() {
    // 7^n up to 6 plies (Tromp: 1+7+49+343+2401 up to 4 plies); at 7 plies
    // the 7 sequences that filled one column in 6 moves cannot play it
    // again; at 8 plies the games won at ply 7 have no continuation.
    let want = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
    let s = Connect4::new();
    for (d, &n) in want.iter().enumerate() {
        assert_eq!(s.perft(d as u32), n, "perft({d})");
    }
    // The reference agrees (to a cheaper depth).
    let n = Naive::new(7, 6);
    for d in 0..=7 {
        assert_eq!(n.perft(d), want[d as usize], "reference perft({d})");
    }
}

#[test]
fn distinct_positions_per_ply_are_oeis_a212693() {
    // OEIS A212693, "Number of legal 7 X 6 Connect-Four positions after n
    // plies" (John Tromp), terms 0..=8 (the next ones, 558186 and 1662623,
    // take seconds in the test build).
    let want = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];
    let mut layer: HashSet<Connect4> = HashSet::from([Connect4::new()]);
    for (ply, &n) in want.iter().enumerate() {
        assert_eq!(layer.len(), n, "positions after {ply} plies");
        // Keys are unique too.
        let keys: HashSet<u64> = layer.iter().map(Connect4::key).collect();
        assert_eq!(keys.len(), n, "keys after {ply} plies");
        if ply + 1 == want.len() {
            break;
        }
        let mut next = HashSet::with_capacity(want[ply + 1]);
        for s in &layer {
            for c in s.legal_actions_vec(s.side_to_move()) {
                let mut t = *s;
                t.play(c);
                next.insert(t);
            }
        }
        layer = next;
    }
}

#[test]
fn random_games_agree_with_the_reference_on_several_sizes() {
    let mut rng = StdRng::seed_from_u64(4);
    for (w, h) in [
        (7, 6),
        (4, 4),
        (5, 4),
        (9, 6),
        (8, 7),
        (6, 9),
        (3, 3),
        (1, 5),
        (4, 15),
    ] {
        for game in 0..200 {
            let mut s = Connect4::with_size(w, h).unwrap();
            let mut n = Naive::new(w, h);
            let mut moves = String::new();
            agree(&s, &n, "start");
            while !s.is_over() {
                let c = *n.moves().choose(&mut rng).unwrap();
                moves.push_str(&s.action_name(c));
                assert!(s.play(c));
                n.play(c);
                agree(&s, &n, &format!("{w}x{h} game {game}: {moves}"));
                // The text form reads back to the same position.
                assert_eq!(Connect4::from_text(&s.to_text()).unwrap(), s, "{moves}");
            }
        }
    }
    // Small boards: perft against the reference.
    for (w, h, d) in [(4, 4, 8), (5, 4, 7), (3, 3, 9)] {
        let s = Connect4::with_size(w, h).unwrap();
        assert_eq!(s.perft(d), Naive::new(w, h).perft(d), "{w}x{h} perft({d})");
    }
}

#[test]
fn four_in_a_row_wins_in_every_direction() {
    // Vertical: X stacks column 1.
    won_by(
        "1212121",
        0,
        &[
            ".......", ".......", "X......", "XO.....", "XO.....", "XO.....",
        ],
    );
    // Horizontal: X along the bottom row, O on top of it.
    won_by(
        "1122334",
        0,
        &[
            ".......", ".......", ".......", ".......", "OOO....", "XXXX...",
        ],
    );
    // Diagonal ↗ for X from column 1.
    won_by(
        "12234334544",
        0,
        &[
            ".......", ".......", "...X...", "..XO...", ".XOO...", "XOOXX..",
        ],
    );
    // Diagonal ↖ for O, from column 7 to column 4.
    won_by(
        "176651554444",
        1,
        &[
            ".......", ".......", "...O...", "...XO..", "O..OXO.", "X..XXXO",
        ],
    );
    // The last move may complete a line in its middle.
    won_by(
        "1122443",
        0,
        &[
            ".......", ".......", ".......", ".......", "OO.O...", "XXXX...",
        ],
    );
}

#[test]
fn a_full_board_without_a_line_of_four_is_a_draw() {
    // A random game that happened to fill the board.
    let s = Connect4::from_moves("266725443777517537663663254511511142343422").unwrap();
    assert_eq!(
        s.to_text(),
        text(&["OOXOXXO", "XXXOOOX", "OOOXOOO", "OXXXOXX", "XXXOXXO", "OXXXOOO"])
    );
    assert!(s.is_full(), "{}", s.to_text());
    assert_eq!(s.winner(), None);
    assert!(s.is_over());
    assert_eq!(
        (s.result(0), s.result(1)),
        (PlayerResult::Draw, PlayerResult::Draw)
    );
    assert_eq!((s.score(0), s.score(1)), (0.5, 0.5));
    assert_eq!(s.tick(), 42);
    check_state(&s, &KitConfig::default());
}

#[test]
fn full_and_missing_columns_are_illegal() {
    let mut s = Connect4::from_moves("444444").unwrap();
    assert_eq!(s.column_height(3), 6);
    assert!(!s.can_play(3) && !s.is_legal(0, 3));
    assert_eq!(s.legal_actions_vec(0), vec![0, 1, 2, 4, 5, 6]);
    assert!(!s.is_legal(0, 7) && !s.is_legal(0, 200));
    // Only the side to move has legal actions.
    assert!(s.is_legal(0, 0) && !s.is_legal(1, 0));
    assert!(s.legal_actions_vec(1).is_empty());
    // Illegal drops are ignored, by play and by advance.
    let before = s;
    assert!(!s.play(3) && !s.play(7));
    s.advance(&[3, 0]);
    s.advance(&[9, 0]);
    s.advance(&[]);
    assert_eq!((s, s.tick()), (before, 6));
    // The inactive seat's entry is ignored.
    s.advance(&[0, 6]);
    assert_eq!(s.cell(0, 0), Some(0));
    assert_eq!(s.cell(6, 0), None);
    // The fallback: the lowest column that is not full.
    let s = Connect4::from_moves("111111").unwrap();
    assert_eq!(s.fallback_action(0), 1);
    assert_eq!(s.fallback_action(1), 0);
    assert!(s.is_legal(0, s.fallback_action(0)));
}

#[test]
fn action_names_are_column_numbers() {
    let s = Connect4::new();
    let names: Vec<String> = (0..7).map(|c| s.action_name(c)).collect();
    assert_eq!(names, ["1", "2", "3", "4", "5", "6", "7"]);
    for c in 0..7u8 {
        assert_eq!(s.parse_action(0, &s.action_name(c)), Some(c));
    }
    assert_eq!(s.parse_action(1, " 4 "), Some(3));
    for bad in ["0", "8", "9", "44", "", "+4", "04", "x", "٤"] {
        assert_eq!(s.parse_action(0, bad), None, "{bad:?}");
    }
    let narrow = Connect4::with_size(4, 4).unwrap();
    assert_eq!(narrow.parse_action(0, "5"), None);
}

#[test]
fn move_strings_load_and_errors_name_the_character() {
    let s = Connect4::from_moves("4453").unwrap();
    assert_eq!(
        s.to_text(),
        text(&[".......", ".......", ".......", ".......", "...O...", "..OXX.."])
    );
    assert_eq!((s.side_to_move(), s.tick()), (0, 4));
    assert_eq!(Connect4::from_moves("").unwrap(), Connect4::new());
    assert_eq!(Connect4::from_moves("  4453\n").unwrap(), s);
    let err = |m: &str| Connect4::from_moves(m).unwrap_err();
    assert_eq!(
        err("4458").to_string(),
        "character 4 (`8`): not a column: columns are numbered 1 to 7"
    );
    assert_eq!(
        err("44a").to_string(),
        "character 3 (`a`): not a column: columns are numbered 1 to 7"
    );
    assert_eq!(err("0").position, 1);
    assert_eq!(err("4 4").position, 2);
    assert_eq!(err("  44x").position, 5);
    assert_eq!(
        err("2222222").to_string(),
        "character 7 (`2`): column 2 is full"
    );
    assert_eq!(
        err("12121213").to_string(),
        "character 8 (`3`): the game is already over (X has four in a row)"
    );
    assert_eq!(
        err("4458").into_parse_error(12).to_string(),
        "line 12, column 4: `8`: not a column: columns are numbered 1 to 7"
    );
    // play_moves continues a position and stops at the error.
    let mut t = s;
    assert!(t.play_moves("1x").is_err());
    assert_eq!(t.tick(), 5);
    assert!(t.play_moves("1").is_ok());
    assert_eq!(t, Connect4::from_moves("445311").unwrap());
}

#[test]
fn board_text_reads_back_and_errors_give_line_and_column() {
    let s = Connect4::from_moves("4453").unwrap();
    assert_eq!(Connect4::from_text(&s.to_text()).unwrap(), s);
    assert_eq!(s.to_string(), s.to_text());
    // Blank lines around the board, trailing blanks and \r are fine.
    let padded = format!("\n\n{}\n", s.to_text().replace('\n', "  \r\n"));
    assert_eq!(Connect4::from_text(&padded).unwrap(), s);
    // Other sizes come from the text.
    let small = Connect4::from_text("...\n.O.\nXX.\n").unwrap();
    assert_eq!(
        (small.width(), small.height(), small.side_to_move()),
        (3, 3, 1)
    );
    // A finished game reads back finished.
    let won = Connect4::from_moves("1212121").unwrap();
    let back = Connect4::from_text(&won.to_text()).unwrap();
    assert_eq!((back, back.winner()), (won, Some(0)));

    let err = |t: &str| Connect4::from_text(t).unwrap_err().to_string();
    assert_eq!(err(""), "no board: the text has no rows");
    assert_eq!(err("\n \n"), "no board: the text has no rows");
    assert_eq!(
        err(".......\n...x...\n"),
        "line 2, column 4: `x`: expected `.`, `X` or `O`"
    );
    assert_eq!(
        err(".......\n......\n"),
        "line 2, column 7: row of 6 cells, the first row has 7"
    );
    assert_eq!(
        err(".......\n\n.......\n"),
        "line 2, column 1: blank line inside the board"
    );
    assert_eq!(
        err(".......\n...X...\n...O...\n.......\n"),
        "line 2, column 4: disc above an empty cell (discs fall to the lowest empty cell)"
    );
    assert_eq!(
        err("....\nXX..\n"),
        "X has 2 discs and O 0: X moves first, so X has as many discs as O or one more"
    );
    assert_eq!(
        err("....\n.OO.\nOXX.\n"),
        "X has 2 discs and O 3: X moves first, so X has as many discs as O or one more"
    );
    assert_eq!(
        err("OOOO....\nXXXX....\n"),
        "both X and O have four in a row (the game ends at the first line of four)"
    );
    assert_eq!(
        err("O......\nOOO....\nXXXX...\n"),
        "X has four in a row but O moved last (the game ends at the first line of four)"
    );
    assert!(err("..........\nXO........\n").starts_with("board 10x2: expected 1 to 9 columns"));
    assert!(err(&".\n".repeat(64)).contains("(the text has 64 rows)"));
}

#[test]
fn sizes_outside_the_bitboard_are_refused() {
    assert!(Connect4::with_size(7, 6).is_ok());
    assert!(Connect4::with_size(9, 6).is_ok());
    assert!(Connect4::with_size(8, 7).is_ok());
    assert!(Connect4::with_size(1, 63).is_ok());
    for (w, h) in [
        (0, 6),
        (7, 0),
        (10, 2),
        (9, 7),
        (8, 8),
        (1, 64),
        (usize::MAX, usize::MAX),
    ] {
        assert!(Connect4::with_size(w, h).is_err(), "{w}x{h}");
    }
    // A board too small for four: every game is a draw.
    let mut s = Connect4::with_size(3, 2).unwrap();
    s.play_moves("112233").unwrap();
    assert_eq!(s.result(0), PlayerResult::Draw);
}

#[test]
fn positions_are_small_copies_and_transpositions_are_equal() {
    assert_eq!(std::mem::size_of::<Connect4>(), 24);
    let a = Connect4::from_moves("4453").unwrap();
    let b = Connect4::from_moves("5344").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.key(), b.key());
    assert_ne!(a, Connect4::from_moves("4435").unwrap());
    // Same discs, different board size: different positions.
    assert_ne!(Connect4::new(), Connect4::with_size(7, 7).unwrap());
}

#[test]
fn connect_four_passes_the_testkit() {
    let r = check_game(&Connect4::new(), &KitConfig::new(200, 50, 1));
    assert_eq!(r.finished, 200);
    assert!(r.equal_pairs == 0 && r.longest <= 42);
    // From loaded positions and on other sizes.
    check_game(
        &Connect4::from_moves("4453").unwrap(),
        &KitConfig::new(50, 50, 2),
    );
    for (w, h) in [(4, 4), (9, 6), (1, 1), (2, 3), (4, 15)] {
        let r = check_game(
            &Connect4::with_size(w, h).unwrap(),
            &KitConfig::new(50, 200, 3),
        );
        assert_eq!(r.finished, 50, "{w}x{h}");
    }
}
