//! Sokoban: standard level files (XSB/SOK, run-length encoding, the course
//! report's letter set), a 1-player [`Game`](crate::Game) ([`Sokoban`]),
//! LURD solutions ([`replay`]) and a level generator ([`generate()`]).
//!
//! [`Level`] is the contract between the level parser and the solvers in
//! `agents::sokoban`.
//!
//! # Level files
//! One character per cell:
//!
//! | cell | standard (XSB) | report 003's letters |
//! | --- | --- | --- |
//! | wall | `#` | `W` (also `w`) |
//! | floor | space, `-`, `_` | space, `-`, `_` |
//! | goal | `.` | `G` |
//! | box | `$` | `B` |
//! | box on goal | `*` | `Y` |
//! | player | `@` | `P` |
//! | player on goal | `+` | `X` |
//!
//! The letters are those of the course report's code (its `Tile` alphabet:
//! `W B Y X G P`); the report's text names `w, B, P, G`. A board uses one set
//! throughout.
//!
//! **Boards.** A board is a run of board lines. A line *starts* a board when
//! it is made only of cell characters (and run-length encoding, below) and
//! holds a wall; a line *continues* the board above it when it is made only
//! of that board's characters and holds some cell that is not a space (an
//! interior row of floor is written `-`). A line whose first non-blank
//! character is `#` is always a board line, so a stray character in it is an
//! error ([`LevelErrorKind::UnknownChar`]) rather than the silent end of the
//! board. Rows may have different lengths: they are padded with floor on the
//! right; trailing floor and trailing rows of floor are dropped (so
//! `width`/`height` are the extent of the non-floor cells).
//!
//! **Run-length encoding** (standard set): a count before a character
//! repeats it (`4#` = `####`), a count before a parenthesised group repeats
//! the group (`2(#-)`), and `|` separates rows on one line:
//! `4#|#.@-#|#-$-#|4#`.
//!
//! **Between boards** (any line that is not a board line):
//! - blank lines; `::` lines (comments for people, ignored);
//! - `; text` comments. The level's **title** is, in this order: a `Title:`
//!   line after the board (SOK); else the last `;` comment before the board
//!   that stands alone on its line run or ends right above the board (`; 12`
//!   in Skinner's and Boxoban's files, `;screen.01` XSokoban-style; its first
//!   line if the run has several); else the SOK title line (the last non-blank
//!   line before the board, when it is plain text preceded by a blank line);
//!   else empty;
//! - `Key: value` lines. After a board, `Title:`, `Author:` and `Comment:`
//!   belong to it (`Comment:` alone on its line opens a block closed by
//!   `Comment-End:`); others (`Collection:` …) are ignored;
//! - `Solution` lines (`Solution:`, `Solution (moves 33, pushes 8):`)
//!   followed by LURD, on the same line after the `:` and/or on the
//!   following lines made only of LURD: the solutions of the board above
//!   ([`Entry::solutions`]).
//!
//! **Validity.** Each board must have exactly one player, as many boxes as
//! goals (at least one), and the region the player can reach through
//! non-wall cells must be enclosed by walls. Boxes outside that region
//! ("decorative" boxes, by convention on goals) are allowed. Errors
//! ([`LevelError`]) give the 1-based line and column, the level's 0-based
//! index and its title; the harness adds the file name. The parser never
//! panics, whatever the text.
//!
//! The printer ([`Level::to_xsb`], [`print_levels`]) writes standard XSB,
//! floor as spaces (a row of floor as `-`), each level after a `; title`
//! line; parsing what it prints gives the same levels.

use crate::grid::{neighbours, Bits};

mod game;
mod generate;
mod parse;
mod print;
mod rle;

pub use game::{
    parse_lurd, replay, replay_to, Dir, ReplayError, ReplayReport, Sokoban, SokobanAction,
    DEFAULT_MAX_STEPS,
};
pub use generate::{difficulty, generate, Difficulty, GenerateError, GenerateOptions, Generated};
pub use parse::{parse_collection, parse_level, parse_levels, Entry, LevelError, LevelErrorKind};
pub use print::print_levels;

/// Microban (155 levels, David W. Skinner), compiled into the binary; the
/// harness names its levels `microban:1` … `microban:155` after their titles.
pub const MICROBAN: &str = include_str!("../data/sokoban/microban.xsb");

/// The largest player region (floor cells the player can reach through
/// non-wall cells) a [`Sokoban`] game supports. Box positions are a fixed
/// bit set over these cells, so states clone without touching the heap.
pub const MAX_FLOOR: usize = 1024;

/// The largest number of cells (width × height) a level may have.
pub const MAX_CELLS: usize = 1 << 20;

/// What one cell of a level file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// `#` / `W`.
    Wall,
    /// space, `-`, `_`.
    Floor,
    /// `.` / `G`: a target square.
    Goal,
    /// `$` / `B`.
    Box,
    /// `*` / `Y`.
    BoxOnGoal,
    /// `@` / `P`.
    Player,
    /// `+` / `X`.
    PlayerOnGoal,
}

impl Tile {
    /// The standard (XSB) character; floor is a space.
    pub fn to_char(self) -> char {
        match self {
            Tile::Wall => '#',
            Tile::Floor => ' ',
            Tile::Goal => '.',
            Tile::Box => '$',
            Tile::BoxOnGoal => '*',
            Tile::Player => '@',
            Tile::PlayerOnGoal => '+',
        }
    }

    /// The course report's letter; floor is a space.
    pub fn to_letter(self) -> char {
        match self {
            Tile::Wall => 'W',
            Tile::Floor => ' ',
            Tile::Goal => 'G',
            Tile::Box => 'B',
            Tile::BoxOnGoal => 'Y',
            Tile::Player => 'P',
            Tile::PlayerOnGoal => 'X',
        }
    }
}

/// One Sokoban level as read from a file: a rectangle of cells, row-major,
/// `index = row * width + col`, origin top-left. Every cell that is not a
/// wall is floor (cells outside the outer wall ring are floor too; they are
/// simply unreachable). Rows shorter than `width` in the file are padded with
/// floor on the right.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Level {
    /// The level's title (`; 12`, `Title: …`), or empty when the file gives none.
    pub title: String,
    /// 0-based position of the level in its file.
    pub index: usize,
    /// 1-based line of the file where the board starts (for messages).
    pub line: usize,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `walls[i]`: cell `i` is a wall.
    pub walls: Vec<bool>,
    /// `goals[i]`: cell `i` is a goal (a target square).
    pub goals: Vec<bool>,
    /// `boxes[i]`: a box stands on cell `i`.
    pub boxes: Vec<bool>,
    /// The player's cell.
    pub player: usize,
}

impl Level {
    /// Number of cells, `width × height`.
    pub fn num_cells(&self) -> usize {
        self.width * self.height
    }

    /// `(row, col)` of cell `i`.
    pub fn coords(&self, i: usize) -> (usize, usize) {
        (i / self.width, i % self.width)
    }

    /// What cell `i` holds.
    pub fn tile(&self, i: usize) -> Tile {
        match (
            self.walls[i],
            self.boxes[i],
            self.goals[i],
            i == self.player,
        ) {
            (true, ..) => Tile::Wall,
            (_, true, true, _) => Tile::BoxOnGoal,
            (_, true, false, _) => Tile::Box,
            (_, _, true, true) => Tile::PlayerOnGoal,
            (_, _, false, true) => Tile::Player,
            (_, _, true, false) => Tile::Goal,
            _ => Tile::Floor,
        }
    }

    /// Number of boxes.
    pub fn num_boxes(&self) -> usize {
        self.boxes.iter().filter(|&&b| b).count()
    }

    /// Number of boxes standing on goals.
    pub fn boxes_on_goals(&self) -> usize {
        self.boxes
            .iter()
            .zip(&self.goals)
            .filter(|(&b, &g)| b && g)
            .count()
    }

    /// Whether every box stands on a goal.
    pub fn is_solved(&self) -> bool {
        self.boxes.iter().zip(&self.goals).all(|(&b, &g)| !b || g)
    }

    /// The cells the player can reach through non-wall cells (boxes count as
    /// passable), as a mask over all cells. For a valid level this region is
    /// enclosed by walls.
    pub fn player_region(&self) -> Vec<bool> {
        let (w, h) = (self.width, self.height);
        let mut seen = vec![false; w * h];
        if self.player >= w * h {
            return seen;
        }
        let mut stack = vec![self.player];
        seen[self.player] = true;
        while let Some(i) = stack.pop() {
            for j in neighbours(i, w, h).into_iter().flatten() {
                if !seen[j] && !self.walls[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen
    }
}

/// A set of floor cells of the player's region (see [`Sokoban`]).
pub(crate) type FloorSet = Bits<{ MAX_FLOOR / 64 }>;

#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod generate_tests;
#[cfg(test)]
mod tests;
