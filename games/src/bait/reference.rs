//! The Bait implementation before the performance rework (avatar column and
//! row kept in the state, incremental Zobrist keys), kept verbatim as the
//! reference the property tests compare the current one with.

#![allow(dead_code)]

use super::{BaitAction, MAX_CELLS, MAX_TIMESTEPS};
use crate::grid::{Bits, ParseError};
use std::hash::{Hash, Hasher};

const WORDS: usize = 8;

/// A RefBait state: the whole board inline (bit sets, no heap), so `clone` is a
/// `memcpy` of a few hundred bytes.
#[derive(Clone, Debug)]
pub struct RefBait {
    pub(super) width: u16,
    pub(super) height: u16,
    pub(super) walls: Bits<WORDS>,
    pub(super) boxes: Bits<WORDS>,
    pub(super) holes: Bits<WORDS>,
    pub(super) mushrooms: Bits<WORDS>,
    pub(super) keys: Bits<WORDS>,
    pub(super) goals: Bits<WORDS>,
    pub(super) avatar: u16,
    pub(super) has_key: bool,
    pub(super) alive: bool,
    pub(super) won: bool,
    pub(super) over: bool,
    pub(super) score: i32,
    pub(super) tick: u32,
    pub(super) max_ticks: u32,
}

impl PartialEq for RefBait {
    fn eq(&self, o: &Self) -> bool {
        self.avatar == o.avatar
            && self.has_key == o.has_key
            && self.alive == o.alive
            && self.boxes == o.boxes
            && self.holes == o.holes
            && self.mushrooms == o.mushrooms
            && self.keys == o.keys
            && self.goals == o.goals
            && self.width == o.width
            && self.walls == o.walls
    }
}
impl Eq for RefBait {}

impl Hash for RefBait {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u16(self.avatar);
        h.write_u8(self.has_key as u8 | (self.alive as u8) << 1);
        self.boxes.hash(h);
        self.holes.hash(h);
        self.mushrooms.hash(h);
        self.keys.hash(h);
        self.goals.hash(h);
    }
}

impl RefBait {
    /// Parse a level in GVGAI's character format. Errors name the line and
    /// column and what was expected: unknown characters, ragged rows, no or
    /// several avatars, no goal, a level over [`MAX_CELLS`] cells.
    pub fn parse(text: &str) -> Result<RefBait, ParseError> {
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        // Trailing blank lines are not rows.
        let rows = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .map(|i| i + 1)
            .unwrap_or(0);
        if rows == 0 {
            return Err(ParseError::new(
                0,
                0,
                "empty level: expected rows of w A 0 1 k g m .",
            ));
        }
        let width = lines[0].chars().count();
        if width == 0 {
            return Err(ParseError::new(1, 0, "empty first row"));
        }
        if width * rows > MAX_CELLS || width > u16::MAX as usize {
            return Err(ParseError::new(
                0,
                0,
                format!(
                    "level is {width}x{rows} = {} cells; RefBait levels may have at most {MAX_CELLS}",
                    width * rows
                ),
            ));
        }
        let mut s = RefBait {
            width: width as u16,
            height: rows as u16,
            walls: Bits::new(),
            boxes: Bits::new(),
            holes: Bits::new(),
            mushrooms: Bits::new(),
            keys: Bits::new(),
            goals: Bits::new(),
            avatar: 0,
            has_key: false,
            alive: true,
            won: false,
            over: false,
            score: 0,
            tick: 0,
            max_ticks: MAX_TIMESTEPS,
        };
        let mut avatar: Option<(usize, usize)> = None;
        for (r, line) in lines[..rows].iter().enumerate() {
            let n = line.chars().count();
            if n != width {
                return Err(ParseError::new(
                    r + 1,
                    n.min(width) + 1,
                    format!("row has {n} cells, expected {width} like the first row"),
                ));
            }
            for (c, ch) in line.chars().enumerate() {
                let i = r * width + c;
                match ch {
                    'w' => s.walls.set(i),
                    '.' => {}
                    '0' => s.holes.set(i),
                    '1' => s.boxes.set(i),
                    'k' => s.keys.set(i),
                    'g' => s.goals.set(i),
                    'm' => s.mushrooms.set(i),
                    'A' => {
                        if let Some((ar, ac)) = avatar {
                            return Err(ParseError::new(
                                r + 1,
                                c + 1,
                                format!(
                                    "second avatar `A`; the first is at line {}, column {}",
                                    ar + 1,
                                    ac + 1
                                ),
                            ));
                        }
                        avatar = Some((r, c));
                        s.avatar = i as u16;
                    }
                    other => {
                        return Err(ParseError::new(
                            r + 1,
                            c + 1,
                            format!(
                                "unknown character {other:?}; expected one of w (wall) . (floor) A (avatar) 0 (hole) 1 (box) k (key) g (goal) m (mushroom)"
                            ),
                        ))
                    }
                }
            }
        }
        if avatar.is_none() {
            return Err(ParseError::new(0, 0, "no avatar: the level needs one `A`"));
        }
        if s.goals.is_empty() {
            return Err(ParseError::new(
                0,
                0,
                "no goal: the level needs at least one `g`",
            ));
        }
        Ok(s)
    }

    /// Set the step limit (default [`MAX_TIMESTEPS`]).
    pub fn with_max_ticks(mut self, max_ticks: u32) -> Self {
        self.max_ticks = max_ticks;
        self
    }

    /// Grid width (columns).
    pub fn width(&self) -> usize {
        self.width as usize
    }
    /// Grid height (rows).
    pub fn height(&self) -> usize {
        self.height as usize
    }
    /// The avatar's cell as `(column, row)`.
    pub fn avatar(&self) -> (usize, usize) {
        let a = self.avatar as usize;
        (a % self.width(), a / self.width())
    }
    /// Whether the avatar carries the key.
    pub fn has_key(&self) -> bool {
        self.has_key
    }
    /// Whether the avatar is alive.
    pub fn alive(&self) -> bool {
        self.alive
    }
    /// Whether the game was won.
    pub fn won(&self) -> bool {
        self.won
    }
    /// The score as an integer.
    pub fn int_score(&self) -> i32 {
        self.score
    }
    /// The step limit.
    pub fn max_ticks(&self) -> u32 {
        self.max_ticks
    }

    fn idx(&self, col: usize, row: usize) -> usize {
        row * self.width() + col
    }
    /// Whether `(col, row)` holds a wall.
    pub fn is_wall(&self, col: usize, row: usize) -> bool {
        self.walls.get(self.idx(col, row))
    }
    /// Whether `(col, row)` holds a box.
    pub fn is_box(&self, col: usize, row: usize) -> bool {
        self.boxes.get(self.idx(col, row))
    }
    /// Whether `(col, row)` holds a hole.
    pub fn is_hole(&self, col: usize, row: usize) -> bool {
        self.holes.get(self.idx(col, row))
    }
    /// Whether `(col, row)` holds a mushroom.
    pub fn is_mushroom(&self, col: usize, row: usize) -> bool {
        self.mushrooms.get(self.idx(col, row))
    }
    /// Whether `(col, row)` holds a key.
    pub fn is_key(&self, col: usize, row: usize) -> bool {
        self.keys.get(self.idx(col, row))
    }
    /// Whether `(col, row)` holds a goal.
    pub fn is_goal(&self, col: usize, row: usize) -> bool {
        self.goals.get(self.idx(col, row))
    }
    /// The board as in the trace contract: rows joined by `/`, one character
    /// per cell (`w . 0 1 k g m`, `A`/`B` avatar without/with key, `K` box on
    /// key, `G` box on goal, `X`/`Y` dead avatar without/with key on a hole).
    pub fn grid_string(&self) -> String {
        let (w, h) = (self.width(), self.height());
        let mut out = String::with_capacity((w + 1) * h);
        for r in 0..h {
            if r > 0 {
                out.push('/');
            }
            for c in 0..w {
                let i = r * w + c;
                let ch = if self.walls.get(i) {
                    'w'
                } else if i == self.avatar as usize {
                    match (self.alive, self.has_key) {
                        (true, false) => 'A',
                        (true, true) => 'B',
                        (false, false) => 'X',
                        (false, true) => 'Y',
                    }
                } else if self.boxes.get(i) && self.keys.get(i) {
                    'K'
                } else if self.boxes.get(i) && self.goals.get(i) {
                    'G'
                } else if self.boxes.get(i) {
                    '1'
                } else if self.holes.get(i) {
                    '0'
                } else if self.keys.get(i) {
                    'k'
                } else if self.goals.get(i) {
                    'g'
                } else if self.mushrooms.get(i) {
                    'm'
                } else {
                    '.'
                };
                out.push(ch);
            }
        }
        out
    }

    /// The cell one step from `cell` in direction `d`, or `None` off the grid.
    #[inline]
    fn step(&self, cell: usize, d: (i32, i32)) -> Option<usize> {
        let w = self.width as i32;
        let c = (cell as i32 % w) + d.0;
        let r = (cell as i32 / w) + d.1;
        if c < 0 || r < 0 || c >= w || r >= self.height as i32 {
            None
        } else {
            Some((r * w + c) as usize)
        }
    }

    /// Apply one tick with the avatar's action (see the module docs).
    pub fn step_action(&mut self, action: BaitAction) {
        if self.over {
            return;
        }
        if self.alive {
            self.resolve_move(action);
        }
        if self.goals.is_empty() {
            self.won = true;
            self.over = true;
        } else if !self.alive {
            self.over = true;
        }
        if self.tick >= self.max_ticks {
            self.over = true;
        }
        self.tick += 1;
    }

    fn resolve_move(&mut self, action: BaitAction) {
        let from = self.avatar as usize;
        let d = delta(action);
        if d == (0, 0) {
            // Nothing overlaps the avatar at the start of a tick (everything it
            // could touch was resolved when it entered its cell).
            return;
        }
        // 1. avatar + wall → step back (off-grid counts as wall).
        let to = match self.step(from, d) {
            Some(t) if !self.walls.get(t) => t,
            _ => return,
        };
        // 2. avatar + hole → killed; it stays on the hole.
        if self.holes.get(to) {
            self.avatar = to as u16;
            self.alive = false;
            return;
        }
        let mut avatar = to;
        // 3. box + avatar → bounce forward; 4. blocked → undo all.
        if self.boxes.get(to) {
            let beyond = match self.step(to, d) {
                Some(b) => b,
                None => return,
            };
            if self.walls.get(beyond) || self.boxes.get(beyond) || self.mushrooms.get(beyond) {
                return;
            }
            self.boxes.clear(to);
            // 5. box + hole → both vanish, +1.
            if self.holes.get(beyond) {
                self.holes.clear(beyond);
                self.score += 1;
            } else {
                self.boxes.set(beyond);
            }
        }
        // 6. nokey + key → withkey; key + avatar → key vanishes.
        if self.keys.get(avatar) {
            self.keys.clear(avatar);
            self.has_key = true;
        } else if !self.has_key && self.goals.get(avatar) {
            // 7. nokey + goal → step back (the box push above stays).
            avatar = from;
        } else if self.has_key && self.goals.get(avatar) {
            // 8. goal + withkey → goal vanishes, +5.
            self.goals.clear(avatar);
            self.score += 5;
        }
        // 9. mushroom + avatar → eaten, +1.
        if self.mushrooms.get(avatar) {
            self.mushrooms.clear(avatar);
            self.score += 1;
        }
        self.avatar = avatar as u16;
    }
}

fn delta(a: BaitAction) -> (i32, i32) {
    match a {
        BaitAction::Nil => (0, 0),
        BaitAction::Up => (0, -1),
        BaitAction::Down => (0, 1),
        BaitAction::Left => (-1, 0),
        BaitAction::Right => (1, 0),
    }
}
