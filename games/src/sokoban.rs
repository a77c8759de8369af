//! Sokoban: standard level files (XSB/SOK, RLE, the course report's letter
//! set), a 1-player [`Game`](crate::Game), and LURD solutions.
//!
//! This file holds the [`Level`] type, the contract between the level parser
//! and the solvers in `agents::sokoban`.

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
