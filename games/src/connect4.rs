//! **Connect Four**: two players drop discs into the columns of an upright
//! grid; the first to line up four wins.
//!
//! # Rules
//! The board has 7 columns and 6 rows (other sizes: [`Connect4::with_size`]).
//! Seat 0 (`X`) moves first, then the seats alternate. A move names a column
//! that is not full; the disc falls to the lowest empty cell of that column.
//! A player who makes a line of four of their own discs — horizontal,
//! vertical or diagonal (either direction) — wins at once. When the board is
//! full without such a line the game is a draw.
//!
//! # Actions
//! An action is a 0-based column index `c` (`0..width`). Its name is the
//! 1-based column number `c + 1` (`1` … `7`, the numbering of move strings
//! such as `4453` in Pascal Pons' solver and test sets); [`Game::parse_action`]
//! accepts those numbers (surrounding blanks allowed). The legal actions are
//! the columns that are not full, in increasing order. The fallback
//! ([`Game::fallback_action`]) is the lowest-numbered column that is not full
//! — deterministic, and legal whenever the seat is active.
//!
//! # Result and score
//! The winner's result is a win, the other seat's a loss; a full board
//! without a line of four is a draw for both. The score is `1` for a win,
//! `0.5` for a draw and `0` for a loss or an unfinished game. `tick()` is the
//! number of discs on the board (plies played, also for positions loaded
//! from text).
//!
//! # Positions
//! [`Connect4::from_moves`] plays a move string (`"4453"`: columns `1`-`7`
//! from the start position) and reports the first bad character;
//! [`Connect4::from_text`] reads the board text form that
//! [`Connect4::to_text`] writes: one line per row, top row first, `.` empty,
//! `X` seat 0, `O` seat 1:
//!
//! ```text
//! .......
//! .......
//! .......
//! .......
//! ...O...
//! ..OXX..
//! ```
//!
//! (that is `"4453"`). The side to move follows from the disc counts (`X`
//! moves first).
//!
//! # Playing a game through [`Game`]
//! Every game is played the same way: each active seat picks one of its
//! legal actions, the joint action (one entry per seat, the fallback for
//! a seat that is not to move) advances the state, until it is over.
//!
//! ```
//! use games::connect4::Connect4;
//! use games::{Game, PlayerResult};
//!
//! let mut game = Connect4::new();
//! // X always drops in column 1 (action 0), O in column 2 (action 1).
//! while !game.is_over() {
//!     let joint: Vec<u8> = (0..game.num_players())
//!         .map(|seat| {
//!             let mine = seat as u8;
//!             if game.is_active(seat) && game.is_legal(seat, mine) {
//!                 mine
//!             } else {
//!                 game.fallback_action(seat)
//!             }
//!         })
//!         .collect();
//!     game.advance(&joint);
//! }
//! // X's fourth disc in column 1 is the seventh of the game: four in a row.
//! assert_eq!(game.tick(), 7);
//! assert_eq!(game.result(0), PlayerResult::Win);
//! assert_eq!(game.result(1), PlayerResult::Loss);
//! assert_eq!(game.score(0), 1.0);
//! ```
//!
//! # Identity and representation
//! A state is two 64-bit bitboards (one per seat) plus the board size, the
//! ply count and the winner: `Copy`, no heap. Bit `col * (height + 1) + row`
//! is the cell of column `col` and row `row` (row 0 at the bottom); the bit
//! above each column stays empty, so a line of four is found with three
//! shifts and ands per direction. `Hash`/`Eq` identify positions: everything
//! stored is a function of the two bitboards and the size.
//!
//! # Counts
//! From the empty 7 × 6 board the number of distinct positions after `n`
//! plies is OEIS [A212693](https://oeis.org/A212693) (John Tromp): 1, 7, 49,
//! 238, 1120, 4263, 16422, 54859, 184275, 558186, …; the number of move
//! sequences ([`Connect4::perft`]) is `7^n` up to 6 plies (John Tromp's
//! Connect-4 page counts "1+7+49+343+2401" positions up to 4 plies), then
//! 823536 (= 7^7 − 7: a column filled by the first six moves cannot take the
//! seventh) and 5673234 for 8 plies (games won at ply 7 have no
//! continuation; no published table of these was found, the tests check
//! them against a naive reference implementation). The tests check both
//! sequences up to 8 plies.

use crate::api::{Game, PlayerResult, Seat};
use crate::grid::ParseError;
use std::fmt;

/// Columns of the standard board.
pub const WIDTH: u8 = 7;
/// Rows of the standard board.
pub const HEIGHT: u8 = 6;
/// The most columns a board may have (column names are single digits).
pub const MAX_WIDTH: u8 = 9;

/// `winner` when nobody has won.
const NOBODY: u8 = 2;

/// A Connect Four position (see the [module docs](self)): `Copy`, 24 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Connect4 {
    /// Discs of seat 0 (`X`) and seat 1 (`O`).
    discs: [u64; 2],
    width: u8,
    height: u8,
    plies: u8,
    /// The seat with a line of four, or [`NOBODY`].
    winner: u8,
}

impl Default for Connect4 {
    /// The empty standard board.
    fn default() -> Self {
        Connect4::new()
    }
}

impl fmt::Debug for Connect4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = self.to_text().lines().map(str::to_string).collect();
        f.debug_struct("Connect4")
            .field("plies", &self.plies)
            .field("winner", &self.winner())
            .field("board", &rows.join("/"))
            .finish()
    }
}

impl fmt::Display for Connect4 {
    /// The board text form (see [`Connect4::to_text`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Why a move string cannot be played: the 1-based position of the bad
/// character in the string, the character, and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("character {position} (`{found}`): {reason}")]
pub struct MoveError {
    /// 1-based position of the character in the string (in characters).
    pub position: usize,
    /// The character.
    pub found: char,
    /// What is wrong with it.
    pub reason: String,
}

impl MoveError {
    /// The same error as a [`ParseError`] at `line` of a file, the column
    /// being the character's position in the move string.
    pub fn into_parse_error(self, line: usize) -> ParseError {
        ParseError::new(
            line,
            self.position,
            format!("`{}`: {}", self.found, self.reason),
        )
    }
}

/// Whether the bitboard `b` of a board with columns of `h1` bits (height + 1)
/// holds four in a row.
#[inline]
fn has_four(b: u64, h1: u32) -> bool {
    // Vertical, diagonal ↘ (towards lower index: one column left, one row
    // up), horizontal, diagonal ↗.
    [1, h1 - 1, h1, h1 + 1].into_iter().any(|s| {
        let m = b & b.checked_shr(s).unwrap_or(0);
        m & m.checked_shr(2 * s).unwrap_or(0) != 0
    })
}

impl Connect4 {
    /// The empty standard board (7 columns, 6 rows), `X` to move.
    pub fn new() -> Connect4 {
        Connect4 {
            discs: [0; 2],
            width: WIDTH,
            height: HEIGHT,
            plies: 0,
            winner: NOBODY,
        }
    }

    /// An empty board of `width` columns and `height` rows. Errors unless
    /// `1 <= width <= 9`, `height >= 1` and `width * (height + 1) <= 64`
    /// (the bitboards are 64 bits). Boards narrower and lower than 4 are
    /// allowed (their games are draws).
    pub fn with_size(width: usize, height: usize) -> Result<Connect4, ParseError> {
        if !(1..=MAX_WIDTH as usize).contains(&width)
            || height == 0
            || width.saturating_mul(height.saturating_add(1)) > 64
        {
            return Err(ParseError::new(
                0,
                0,
                format!(
                    "board {width}x{height}: expected 1 to {MAX_WIDTH} columns, at least 1 row, \
                     and columns × (rows + 1) at most 64"
                ),
            ));
        }
        Ok(Connect4 {
            width: width as u8,
            height: height as u8,
            ..Connect4::new()
        })
    }

    /// The standard start position after the moves of `moves`, a string of
    /// column numbers `1`-`7` (`"4453"`; surrounding blanks are ignored).
    /// Errors name the first bad character: not a column, a full column, or
    /// a move after the end of the game.
    pub fn from_moves(moves: &str) -> Result<Connect4, MoveError> {
        let mut s = Connect4::new();
        s.play_moves(moves)?;
        Ok(s)
    }

    /// Play the column numbers of `moves` (as [`Connect4::from_moves`]) from
    /// this position. On error the position is left after the last good move.
    pub fn play_moves(&mut self, moves: &str) -> Result<(), MoveError> {
        let lead = moves.chars().take_while(|c| c.is_whitespace()).count();
        for (i, ch) in moves.trim().chars().enumerate() {
            let err = |reason: String| MoveError {
                position: lead + i + 1,
                found: ch,
                reason,
            };
            let col = match ch.to_digit(10) {
                Some(d) if (1..=self.width as u32).contains(&d) => (d - 1) as u8,
                _ => {
                    return Err(err(format!(
                        "not a column: columns are numbered 1 to {}",
                        self.width
                    )))
                }
            };
            if self.is_over() {
                let why = match self.winner() {
                    Some(w) => format!("{} has four in a row", Self::mark(w)),
                    None => "the board is full".to_string(),
                };
                return Err(err(format!("the game is already over ({why})")));
            }
            if !self.play(col) {
                return Err(err(format!("column {} is full", col + 1)));
            }
        }
        Ok(())
    }

    /// Read the board text form (see the [module docs](self)): one line per
    /// row, top row first, `.` empty, `X` seat 0, `O` seat 1; the size is
    /// that of the text (see [`Connect4::with_size`] for the limits).
    /// Trailing blanks and blank lines before and after the board are
    /// ignored. Errors give the line and column: an unknown character, rows
    /// of different lengths, a disc above an empty cell, or (line 0) disc
    /// counts that alternation cannot give (`X` moves first, so `X` has as
    /// many discs as `O` or one more), both seats with four in a row, or a
    /// line of four whose owner did not make the last move.
    pub fn from_text(text: &str) -> Result<Connect4, ParseError> {
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        let first = lines.iter().position(|l| !l.is_empty());
        let last = lines.iter().rposition(|l| !l.is_empty());
        let (Some(first), Some(last)) = (first, last) else {
            return Err(ParseError::new(0, 0, "no board: the text has no rows"));
        };
        let rows = &lines[first..=last];
        let width = rows[0].chars().count();
        let mut s = Connect4::with_size(width, rows.len()).map_err(|e| {
            ParseError::new(
                0,
                0,
                format!("{} (the text has {} rows)", e.message, rows.len()),
            )
        })?;
        let height = rows.len();
        for (k, row) in rows.iter().enumerate() {
            let line = first + k + 1;
            let n = row.chars().count();
            if n != width {
                let what = if n == 0 {
                    "blank line inside the board".to_string()
                } else {
                    format!("row of {n} cells, the first row has {width}")
                };
                return Err(ParseError::new(line, n.min(width) + 1, what));
            }
            let r = height - 1 - k;
            for (c, ch) in row.chars().enumerate() {
                let seat = match ch {
                    '.' => continue,
                    'X' => 0,
                    'O' => 1,
                    _ => {
                        return Err(ParseError::new(
                            line,
                            c + 1,
                            format!("`{ch}`: expected `.`, `X` or `O`"),
                        ))
                    }
                };
                s.discs[seat] |= s.bit(c as u8, r as u8);
            }
        }
        // Gravity: no disc above an empty cell.
        for c in 0..s.width {
            let h = s.column_height(c);
            for r in h..s.height {
                if s.cell(c, r).is_some() {
                    return Err(ParseError::new(
                        first + height - r as usize,
                        c as usize + 1,
                        "disc above an empty cell (discs fall to the lowest empty cell)",
                    ));
                }
            }
        }
        let (x, o) = (s.discs[0].count_ones(), s.discs[1].count_ones());
        if x != o && x != o + 1 {
            return Err(ParseError::new(
                0,
                0,
                format!(
                    "X has {x} discs and O {o}: X moves first, so X has as many discs as O \
                     or one more"
                ),
            ));
        }
        s.plies = (x + o) as u8;
        let h1 = s.height as u32 + 1;
        let fours = [has_four(s.discs[0], h1), has_four(s.discs[1], h1)];
        let last_mover = if x > o { 0 } else { 1 };
        match fours {
            [true, true] => {
                return Err(ParseError::new(
                    0,
                    0,
                    "both X and O have four in a row (the game ends at the first line of four)",
                ))
            }
            [false, false] => {}
            _ => {
                let w = if fours[0] { 0 } else { 1 };
                if w != last_mover {
                    return Err(ParseError::new(
                        0,
                        0,
                        format!(
                            "{} has four in a row but {} moved last (the game ends at the \
                             first line of four)",
                            Self::mark(w),
                            Self::mark(last_mover)
                        ),
                    ));
                }
                s.winner = w as u8;
            }
        }
        Ok(s)
    }

    /// The board text form: one line per row, top row first, `.` empty, `X`
    /// seat 0, `O` seat 1, each line ending in `\n`. [`Connect4::from_text`]
    /// reads it back.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity((self.width as usize + 1) * self.height as usize);
        for r in (0..self.height).rev() {
            for c in 0..self.width {
                out.push(match self.cell(c, r) {
                    None => '.',
                    Some(seat) => Self::mark(seat),
                });
            }
            out.push('\n');
        }
        out
    }

    /// `X` for seat 0, `O` for seat 1.
    fn mark(seat: Seat) -> char {
        if seat == 0 {
            'X'
        } else {
            'O'
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width as usize
    }
    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height as usize
    }
    /// Discs on the board (plies played).
    pub fn plies(&self) -> u32 {
        self.plies as u32
    }
    /// The seat to move: 0 (`X`) after an even number of plies, else 1 (`O`).
    /// (Also defined once the game is over.)
    pub fn side_to_move(&self) -> Seat {
        (self.plies % 2) as Seat
    }
    /// The seat with four in a row, if any.
    pub fn winner(&self) -> Option<Seat> {
        (self.winner != NOBODY).then_some(self.winner as Seat)
    }
    /// Whether every cell holds a disc.
    pub fn is_full(&self) -> bool {
        self.plies as usize == self.width as usize * self.height as usize
    }
    /// The bitboard of `seat`'s discs (seat 0 or 1; empty for other seats):
    /// bit `col * (height + 1) + row`, row 0 at the bottom.
    pub fn discs(&self, seat: Seat) -> u64 {
        self.discs.get(seat).copied().unwrap_or(0)
    }
    /// A key unique to the position among positions of the same size: the
    /// bitboard of the side to move plus the bitboard of all discs (Pascal
    /// Pons' key; it fits in `width * (height + 1)` bits).
    pub fn key(&self) -> u64 {
        self.discs[self.side_to_move()] + self.occupied()
    }
    /// Who has a disc in column `col`, row `row` (0-based, row 0 at the
    /// bottom); `None` for an empty cell or a cell off the board.
    pub fn cell(&self, col: u8, row: u8) -> Option<Seat> {
        if col >= self.width || row >= self.height {
            return None;
        }
        let b = self.bit(col, row);
        (0..2).find(|&s| self.discs[s] & b != 0)
    }
    /// Number of discs in column `col` (0 for a column off the board).
    pub fn column_height(&self, col: u8) -> u8 {
        if col >= self.width {
            return 0;
        }
        (self.occupied() & self.column_mask(col)).count_ones() as u8
    }
    /// Whether a disc may be dropped into column `col` (0-based) now: the
    /// column exists, is not full and the game is not over.
    pub fn can_play(&self, col: u8) -> bool {
        col < self.width && !self.is_over() && self.occupied() & self.top_bit(col) == 0
    }

    /// Drop the side to move's disc into column `col` (0-based) if
    /// [`can_play`](Self::can_play); returns whether it was played.
    pub fn play(&mut self, col: u8) -> bool {
        if !self.can_play(col) {
            return false;
        }
        let side = self.side_to_move();
        let mask = self.occupied();
        let new = (mask + self.bit(col, 0)) & self.column_mask(col);
        self.discs[side] |= new;
        self.plies += 1;
        if has_four(self.discs[side], self.height as u32 + 1) {
            self.winner = side as u8;
        }
        true
    }

    /// Number of move sequences of `depth` plies from this position (a
    /// finished game has none): the classic "perft" count.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for c in 0..self.width {
            if !self.can_play(c) {
                continue;
            }
            if depth == 1 {
                n += 1;
            } else {
                let mut s = *self;
                s.play(c);
                n += s.perft(depth - 1);
            }
        }
        n
    }

    fn occupied(&self) -> u64 {
        self.discs[0] | self.discs[1]
    }
    fn bit(&self, col: u8, row: u8) -> u64 {
        1u64 << (col as u32 * (self.height as u32 + 1) + row as u32)
    }
    fn top_bit(&self, col: u8) -> u64 {
        self.bit(col, self.height - 1)
    }
    fn column_mask(&self, col: u8) -> u64 {
        ((1u64 << self.height) - 1) << (col as u32 * (self.height as u32 + 1))
    }
}

impl Game for Connect4 {
    type Action = u8;

    fn num_players(&self) -> usize {
        2
    }
    /// The side to move, until the game is over.
    fn is_active(&self, seat: Seat) -> bool {
        !self.is_over() && seat == self.side_to_move()
    }
    /// The columns that are not full, in increasing order.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        if self.is_active(seat) {
            out.extend((0..self.width).filter(|&c| self.can_play(c)));
        }
    }
    fn is_legal(&self, seat: Seat, action: u8) -> bool {
        self.is_active(seat) && self.can_play(action)
    }
    /// The lowest-numbered column that is not full (column 0, named `1`,
    /// when the seat is not active or the board is full; not legal then).
    fn fallback_action(&self, seat: Seat) -> u8 {
        if self.is_active(seat) {
            (0..self.width).find(|&c| self.can_play(c)).unwrap_or(0)
        } else {
            0
        }
    }
    /// Drops the side to move's disc into the column of its entry; an
    /// illegal column (or a missing entry) is ignored.
    fn advance(&mut self, joint: &[u8]) {
        if let Some(&c) = joint.get(self.side_to_move()) {
            self.play(c);
        }
    }
    fn is_over(&self) -> bool {
        self.winner != NOBODY || self.is_full()
    }
    /// `1` for a win, `0.5` for a draw, `0` for a loss or an unfinished game.
    fn score(&self, seat: Seat) -> f64 {
        match self.result(seat) {
            PlayerResult::Win => 1.0,
            PlayerResult::Draw => 0.5,
            _ => 0.0,
        }
    }
    fn result(&self, seat: Seat) -> PlayerResult {
        match self.winner() {
            Some(w) if w == seat => PlayerResult::Win,
            Some(_) => PlayerResult::Loss,
            None if self.is_full() => PlayerResult::Draw,
            None => PlayerResult::Ongoing,
        }
    }
    /// The number of discs on the board.
    fn tick(&self) -> u32 {
        self.plies as u32
    }
    /// The 1-based column number (`1` … `7`).
    fn action_name(&self, action: u8) -> String {
        (action as u32 + 1).to_string()
    }
    /// A column number `1` … `width`: one digit, blanks around it allowed.
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<u8> {
        let mut chars = text.trim().chars();
        match (chars.next().and_then(|c| c.to_digit(10)), chars.next()) {
            (Some(d), None) if (1..=self.width as u32).contains(&d) => Some(d as u8 - 1),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
