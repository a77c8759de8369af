//! The **supply maze** (course report 002, first half): find the shortest
//! path across a grid when every step eats one unit of food, food is refilled
//! at supply cells, and the walker carries at most `T` units.
//!
//! # Rules
//! The state is the walker's cell and the food it carries. It starts on the
//! start cell with `T` food. One move (`U`, `D`, `L`, `R`) goes to the
//! orthogonal neighbour, which must be inside the grid and not a wall, and:
//! - the move is allowed only when the walker has food (`food > 0`) **or**
//!   the target is a supply cell;
//! - the food after the move is `(T if the target is a supply cell, else
//!   food) − 1`: entering a supply cell refills to `T` and that move is then
//!   paid from the refill, so the walker stands on a supply cell with `T − 1`.
//!
//! This is the rule of the report's code, checked line by line: its move test
//! is `!(current->food <= 0 && target->type != 2)` and the new food is
//! `food = current->food; if (target is supply) food = T; food -= 1;`.
//! Consequences: between two supply cells a walk has at most `T` moves (the
//! last one, at food 0, into the supply); from the start (food `T`) the first
//! supply may be `T + 1` moves away; the exit (not a supply) must be reached
//! with food left before the final move, i.e. at most `T` moves from the start
//! and `T − 1` from the last supply.
//!
//! Each move is one step. The game is won on entering the exit; the lab's
//! score is the number of steps, lower is better. It ends as a loss when the
//! walker has no legal move (no food and no supply cell next to it, or walled
//! in) or when the step limit is reached (default: `rows × cols × (T + 1)`,
//! the number of distinct states, which no shortest path can exceed).
//!
//! # Level format
//! A file holds one or more instances. Each instance is a header line `M N T`
//! (rows, columns, food capacity; integers separated by blanks) followed by
//! exactly `M` rows in one of two forms, chosen by the instance's first row:
//! - **integer form** (the lab's): `N` integers separated by spaces or tabs:
//!   `0` floor, `1` wall, `2` supply, `3` start, `4` exit;
//! - **character form**: `N` characters, no separators: `.` floor, `#` wall,
//!   `S` supply, `@` start, `E` exit.
//!
//! An instance has exactly one start and one exit, `M, N ≥ 1`, at most
//! [`MAX_CELLS`] cells and `T ≥ 1`. **Instances are separated by one or more
//! blank lines** or comment lines (anything else right after the `M` rows is an error: the
//! header's `M` is probably wrong). Lines whose first non-blank character is
//! `;` are comments, allowed before, between and after instances (not among
//! the rows); the comments just before an instance are kept with it
//! ([`Instance::comments`]), which is how `arena generate supply` flags
//! instances (`; status: unsolvable ...`). Trailing blanks and `\r` are
//! ignored. Errors name the line and column (1-based).
//!
//! # Identity
//! `Hash`/`Eq` are the search state `(cell, food)`; the step count is not part
//! of it (it does not change the future except through the step limit).

use crate::api::{Game, PlayerResult, Seat};
use crate::grid::ParseError;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

mod generate;
mod parse;

pub use generate::{classify, generate, maze_distance, reference_distance, Generated, Status};
pub use parse::{parse_instances, Instance};

/// The shipped instance set (`games/data/supply/set.txt`, made by
/// `games/data/supply/make-set.sh` with fixed seeds), in the integer form;
/// the harness names its instances `set:0`, `set:1`, ...
pub const SET: &str = include_str!("../data/supply/set.txt");

/// The largest number of cells (rows × columns) an instance may have.
pub const MAX_CELLS: usize = 1 << 22;

/// What a cell of the maze holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// `0` / `.`: free floor.
    Floor,
    /// `1` / `#`: wall, never entered.
    Wall,
    /// `2` / `S`: supply: entering it refills the food to `T` (then the move
    /// costs one).
    Supply,
    /// `3` / `@`: the start (floor otherwise).
    Start,
    /// `4` / `E`: the exit (floor otherwise); entering it wins.
    Exit,
}

impl Cell {
    /// The lab's integer code: 0 floor, 1 wall, 2 supply, 3 start, 4 exit.
    pub fn code(self) -> u8 {
        match self {
            Cell::Floor => 0,
            Cell::Wall => 1,
            Cell::Supply => 2,
            Cell::Start => 3,
            Cell::Exit => 4,
        }
    }
    /// The cell for an integer code, if valid.
    pub fn from_code(code: &str) -> Option<Cell> {
        Some(match code {
            "0" => Cell::Floor,
            "1" => Cell::Wall,
            "2" => Cell::Supply,
            "3" => Cell::Start,
            "4" => Cell::Exit,
            _ => return None,
        })
    }
    /// The character of the character form: `. # S @ E`.
    pub fn to_char(self) -> char {
        match self {
            Cell::Floor => '.',
            Cell::Wall => '#',
            Cell::Supply => 'S',
            Cell::Start => '@',
            Cell::Exit => 'E',
        }
    }
    /// The cell for a character of the character form, if valid.
    pub fn from_char(c: char) -> Option<Cell> {
        Some(match c {
            '.' => Cell::Floor,
            '#' => Cell::Wall,
            'S' => Cell::Supply,
            '@' => Cell::Start,
            'E' => Cell::Exit,
            _ => return None,
        })
    }
}

/// A move of the walker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// `U`: row − 1.
    Up,
    /// `D`: row + 1.
    Down,
    /// `L`: column − 1.
    Left,
    /// `R`: column + 1.
    Right,
}

impl Dir {
    /// All moves in the order legal moves are listed: U, D, L, R.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The letter: `U`, `D`, `L`, `R`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// Parse `U`/`D`/`L`/`R` or `UP`/`DOWN`/`LEFT`/`RIGHT`, any case.
    pub fn parse(text: &str) -> Option<Dir> {
        Some(match text.trim().to_ascii_uppercase().as_str() {
            "U" | "UP" => Dir::Up,
            "D" | "DOWN" => Dir::Down,
            "L" | "LEFT" => Dir::Left,
            "R" | "RIGHT" => Dir::Right,
            _ => return None,
        })
    }

    /// A path as a string of letters, e.g. `RRDL`.
    pub fn path_string(path: &[Dir]) -> String {
        path.iter().map(|d| d.letter()).collect()
    }

    /// Parse a string of letters (`RRDL`; blanks and commas ignored).
    pub fn parse_path(text: &str) -> Option<Vec<Dir>> {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .map(|c| Dir::parse(&c.to_string()))
            .collect()
    }
}

/// The immutable part of an instance: grid, food capacity, start and exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SupplyMap {
    rows: u32,
    cols: u32,
    capacity: u32,
    cells: Vec<Cell>,
    start: u32,
    exit: u32,
    supplies: Vec<u32>,
}

impl SupplyMap {
    /// Build a map from its rows × cols cells (row-major) and capacity `T`.
    /// Errors (line 0: no text position) when the shape is wrong, `T < 1`,
    /// or there is not exactly one start and one exit.
    pub fn from_cells(
        rows: usize,
        cols: usize,
        capacity: u32,
        cells: Vec<Cell>,
    ) -> Result<SupplyMap, ParseError> {
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_CELLS {
            return Err(ParseError::new(
                0,
                0,
                format!("size {rows}x{cols}: rows and columns must be at least 1 and rows × columns at most {MAX_CELLS}"),
            ));
        }
        if cells.len() != rows * cols {
            return Err(ParseError::new(
                0,
                0,
                format!("{} cells given for a {rows}x{cols} grid", cells.len()),
            ));
        }
        if capacity < 1 {
            return Err(ParseError::new(0, 0, "food capacity T must be at least 1"));
        }
        let find = |what: Cell| -> Result<u32, ParseError> {
            let mut it = cells.iter().enumerate().filter(|(_, &c)| c == what);
            let name = if what == Cell::Start { "start" } else { "exit" };
            match (it.next(), it.next()) {
                (Some((i, _)), None) => Ok(i as u32),
                (None, _) => Err(ParseError::new(0, 0, format!("no {name}"))),
                (Some(_), Some(_)) => Err(ParseError::new(0, 0, format!("more than one {name}"))),
            }
        };
        let start = find(Cell::Start)?;
        let exit = find(Cell::Exit)?;
        let supplies = (0..cells.len() as u32)
            .filter(|&i| cells[i as usize] == Cell::Supply)
            .collect();
        Ok(SupplyMap {
            rows: rows as u32,
            cols: cols as u32,
            capacity,
            cells,
            start,
            exit,
            supplies,
        })
    }

    /// Parse a text holding exactly one instance (see the module docs).
    pub fn parse(text: &str) -> Result<SupplyMap, ParseError> {
        let mut all = parse_instances(text)?;
        if all.len() > 1 {
            return Err(ParseError::new(
                all[1].line,
                0,
                format!(
                    "expected one instance, found {} (pick one with FILE:N)",
                    all.len()
                ),
            ));
        }
        Ok(all.remove(0).map)
    }

    /// Number of rows `M`.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }
    /// Number of columns `N`.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }
    /// Number of cells `M × N`; cells are numbered `row * N + col`.
    pub fn num_cells(&self) -> usize {
        self.cells.len()
    }
    /// The food capacity `T`.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }
    /// The start cell.
    pub fn start(&self) -> u32 {
        self.start
    }
    /// The exit cell.
    pub fn exit(&self) -> u32 {
        self.exit
    }
    /// The supply cells, in increasing order.
    pub fn supplies(&self) -> &[u32] {
        &self.supplies
    }
    /// What cell `i` holds.
    pub fn cell(&self, i: u32) -> Cell {
        self.cells[i as usize]
    }
    /// `(row, col)` of cell `i`.
    pub fn coords(&self, i: u32) -> (usize, usize) {
        ((i / self.cols) as usize, (i % self.cols) as usize)
    }
    /// Manhattan distance between two cells.
    pub fn manhattan(&self, a: u32, b: u32) -> u32 {
        let (ar, ac) = (a / self.cols, a % self.cols);
        let (br, bc) = (b / self.cols, b % self.cols);
        ar.abs_diff(br) + ac.abs_diff(bc)
    }

    /// The neighbour of `cell` in direction `d` if it is inside the grid and
    /// not a wall.
    #[inline]
    pub fn neighbor(&self, cell: u32, d: Dir) -> Option<u32> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let to = match d {
            Dir::Up if r > 0 => cell - self.cols,
            Dir::Down if r + 1 < self.rows => cell + self.cols,
            Dir::Left if c > 0 => cell - 1,
            Dir::Right if c + 1 < self.cols => cell + 1,
            _ => return None,
        };
        (self.cells[to as usize] != Cell::Wall).then_some(to)
    }

    /// The transition function on search states: from `(cell, food)` move
    /// `d`; `None` when the move is not allowed (see the module docs).
    #[inline]
    pub fn step(&self, cell: u32, food: u32, d: Dir) -> Option<(u32, u32)> {
        let to = self.neighbor(cell, d)?;
        let supply = self.cells[to as usize] == Cell::Supply;
        if food == 0 && !supply {
            return None;
        }
        let base = if supply { self.capacity } else { food };
        Some((to, base - 1))
    }

    /// Replay `path` from the start; `Some(steps)` if every move is legal and
    /// the last one enters the exit (and no earlier one does).
    pub fn check_path(&self, path: &[Dir]) -> Option<usize> {
        let (mut cell, mut food) = (self.start, self.capacity);
        for (i, &d) in path.iter().enumerate() {
            if cell == self.exit {
                return None;
            }
            (cell, food) = self.step(cell, food, d)?;
            if cell == self.exit {
                return (i + 1 == path.len()).then_some(path.len());
            }
        }
        None
    }

    /// The instance in the lab's integer form (header and rows, newline-terminated).
    pub fn to_int_text(&self) -> String {
        self.to_text(
            |c, out| {
                out.push(char::from(b'0' + c.code()));
            },
            " ",
        )
    }

    /// The instance in the character form (header and rows, newline-terminated).
    pub fn to_char_text(&self) -> String {
        self.to_text(|c, out| out.push(c.to_char()), "")
    }

    fn to_text(&self, put: impl Fn(Cell, &mut String), sep: &str) -> String {
        let mut out = format!("{} {} {}\n", self.rows, self.cols, self.capacity);
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                if c > 0 {
                    out.push_str(sep);
                }
                put(self.cells[r * self.cols() + c], &mut out);
            }
            out.push('\n');
        }
        out
    }
}

/// A supply-maze state: the shared map plus the walker's cell, food and
/// steps. Clones share the map (`Arc`), so a clone copies a few words.
#[derive(Clone, Debug)]
pub struct Supply {
    map: Arc<SupplyMap>,
    pos: u32,
    food: u32,
    tick: u32,
    max_ticks: u32,
    over: bool,
    won: bool,
}

impl PartialEq for Supply {
    fn eq(&self, o: &Self) -> bool {
        self.pos == o.pos && self.food == o.food
    }
}
impl Eq for Supply {}

impl Hash for Supply {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u32(self.pos);
        h.write_u32(self.food);
    }
}

impl Supply {
    /// The initial state of `map`: on the start with `T` food, the default
    /// step limit `rows × cols × (T + 1)` (saturating).
    pub fn new(map: Arc<SupplyMap>) -> Supply {
        let limit = (map.num_cells() as u64).saturating_mul(map.capacity as u64 + 1);
        let mut s = Supply {
            pos: map.start,
            food: map.capacity,
            tick: 0,
            max_ticks: limit.min(u32::MAX as u64) as u32,
            over: false,
            won: false,
            map,
        };
        s.update_over();
        s
    }

    /// Parse one instance (see the module docs) into its initial state.
    pub fn parse(text: &str) -> Result<Supply, ParseError> {
        Ok(Supply::new(Arc::new(SupplyMap::parse(text)?)))
    }

    /// Set the step limit: the game ends (a loss unless won) after this many steps.
    pub fn with_max_ticks(mut self, max_ticks: u32) -> Self {
        self.max_ticks = max_ticks;
        self.over = false;
        self.update_over();
        self
    }

    /// The map.
    pub fn map(&self) -> &Arc<SupplyMap> {
        &self.map
    }
    /// The walker's cell.
    pub fn pos(&self) -> u32 {
        self.pos
    }
    /// The food carried.
    pub fn food(&self) -> u32 {
        self.food
    }
    /// Steps taken so far (the lab's score once the exit is reached).
    pub fn steps(&self) -> u32 {
        self.tick
    }
    /// Whether the exit was reached.
    pub fn won(&self) -> bool {
        self.won
    }
    /// The step limit.
    pub fn max_ticks(&self) -> u32 {
        self.max_ticks
    }

    /// The grid with the walker, rows joined by `/` in the character form
    /// (`@` marks the walker's cell, the start cell is shown as `.` once left).
    pub fn grid_string(&self) -> String {
        let m = &self.map;
        let mut out = String::with_capacity((m.cols() + 1) * m.rows());
        for r in 0..m.rows() {
            if r > 0 {
                out.push('/');
            }
            for c in 0..m.cols() {
                let i = (r * m.cols() + c) as u32;
                out.push(if i == self.pos {
                    '@'
                } else if m.cell(i) == Cell::Start {
                    '.'
                } else {
                    m.cell(i).to_char()
                });
            }
        }
        out
    }

    fn update_over(&mut self) {
        if self.pos == self.map.exit {
            self.won = true;
            self.over = true;
        } else if self.tick >= self.max_ticks
            || Dir::ALL
                .iter()
                .all(|&d| self.map.step(self.pos, self.food, d).is_none())
        {
            self.over = true;
        }
    }

    /// Make move `d` if it is legal (illegal moves and moves after the end
    /// are ignored).
    pub fn step_dir(&mut self, d: Dir) {
        if self.over {
            return;
        }
        if let Some((to, food)) = self.map.step(self.pos, self.food, d) {
            self.pos = to;
            self.food = food;
            self.tick += 1;
            self.update_over();
        }
    }
}

/// The supply maze as a 1-player game. **Score: `score(0)` is minus the
/// number of steps taken** (`-steps`), so that higher is better as the
/// harness assumes; the lab's score is the number of steps ([`Supply::steps`],
/// equal to `tick()` and to the CSV `steps` column), lower is better.
impl Game for Supply {
    type Action = Dir;

    fn num_players(&self) -> usize {
        1
    }
    fn is_active(&self, seat: Seat) -> bool {
        seat == 0 && !self.over
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Dir>) {
        if self.is_active(seat) {
            out.extend(
                Dir::ALL
                    .iter()
                    .copied()
                    .filter(|&d| self.map.step(self.pos, self.food, d).is_some()),
            );
        }
    }
    fn is_legal(&self, seat: Seat, action: Dir) -> bool {
        self.is_active(seat) && self.map.step(self.pos, self.food, action).is_some()
    }
    /// The first legal move in the order U, D, L, R (there is always one
    /// while the game is not over; `U` otherwise).
    fn fallback_action(&self, seat: Seat) -> Dir {
        Dir::ALL
            .iter()
            .copied()
            .find(|&d| self.is_legal(seat, d))
            .unwrap_or(Dir::Up)
    }
    fn advance(&mut self, joint: &[Dir]) {
        if let Some(&d) = joint.first() {
            self.step_dir(d);
        }
    }
    fn is_over(&self) -> bool {
        self.over
    }
    /// `-steps` (see the impl docs).
    fn score(&self, _seat: Seat) -> f64 {
        -(self.tick as f64)
    }
    fn result(&self, _seat: Seat) -> PlayerResult {
        PlayerResult::of_puzzle(self.over, self.won)
    }
    fn tick(&self) -> u32 {
        self.tick
    }
    fn action_name(&self, action: Dir) -> String {
        action.letter().to_string()
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<Dir> {
        Dir::parse(text)
    }
}

#[cfg(test)]
mod tests;
