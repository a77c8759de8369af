//! Writing levels in the standard text format.

use super::{Level, Tile};

impl Level {
    fn rows_with(&self, put: impl Fn(Tile) -> char) -> String {
        let mut out = String::with_capacity((self.width + 1) * self.height);
        // A board starts at a line holding a wall: rows above the first wall
        // (possible when a `|`-encoded line starts with them) go on its line.
        let first_wall = (0..self.height)
            .find(|&r| (0..self.width).any(|c| self.walls[r * self.width + c]))
            .unwrap_or(0);
        for r in 0..self.height {
            let row: Vec<Tile> = (0..self.width)
                .map(|c| self.tile(r * self.width + c))
                .collect();
            let end = row
                .iter()
                .rposition(|&t| t != Tile::Floor)
                .map_or(0, |p| p + 1);
            if end == 0 {
                // An interior row of floor: a blank line would end the board.
                out.push('-');
            } else {
                out.extend(row[..end].iter().map(|&t| put(t)));
            }
            out.push(if r < first_wall { '|' } else { '\n' });
        }
        out
    }

    /// The board in standard XSB characters, one line per row (each ending
    /// in `\n`), floor as spaces, trailing floor dropped, a row of floor
    /// written `-`. (Rows above the first row with a wall, which only
    /// `|`-encoded files can produce, are written on its line, separated by
    /// `|`.)
    pub fn to_xsb(&self) -> String {
        self.rows_with(Tile::to_char)
    }

    /// The board in the course report's letters (`W B G P Y X`, floor as
    /// spaces), one line per row.
    pub fn to_letters(&self) -> String {
        self.rows_with(Tile::to_letter)
    }
}

/// A file of levels: for each, a `; title` line (when the title is not
/// empty), the board in XSB, and a blank line. [`parse_levels`](super::parse_levels)
/// reads it back to the same levels (same titles, boards and order).
pub fn print_levels(levels: &[Level]) -> String {
    let mut out = String::new();
    for l in levels {
        if !l.title.is_empty() {
            out.push_str("; ");
            out.push_str(&l.title);
            out.push('\n');
        }
        out.push_str(&l.to_xsb());
        out.push('\n');
    }
    out
}
