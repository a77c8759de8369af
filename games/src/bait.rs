//! GVGAI's **Bait**, re-implemented on a cell grid, faithful to the VGDL
//! description `bait.txt` and to GVGAI's order of resolving one tick.
//!
//! # Rules (one tick)
//! The avatar moves one cell in the action's direction (NIL: stays), then the
//! interactions run in the order of the VGDL InteractionSet:
//! 1. avatar + wall: step back;
//! 2. avatar + hole: the avatar dies (stays on the hole, disabled);
//! 3. box + avatar: the box is pushed one cell on in the avatar's direction;
//! 4. box + wall / box / mushroom: *undo all* (avatar and box back: the whole
//!    move is cancelled);
//! 5. box + hole: both vanish, +1;
//! 6. avatar without key + key: it takes the key (the key vanishes);
//! 7. avatar without key + goal: step back (a box standing on the goal was
//!    pushed off before this, so it stays pushed);
//! 8. goal + avatar with key: the goal vanishes, +5;
//! 9. mushroom + avatar: the mushroom is eaten, +1.
//!
//! Then: no goal left → win; avatar dead → loss; and GVGAI's step limit:
//! when an `advance` starts at tick ≥ 2000 the game ends (a loss unless won),
//! so a game of NILs ends after 2001 advances, at tick 2001.
//!
//! Ticks follow GVGAI's *forward model*: 0 in the initial state and `k` after
//! `k` advances (GVGAI's real game loop reports `k - 1` as `timesteps`).
//!
//! Levels must be enclosed by walls ([`Bait::parse`] refuses others: GVGAI
//! lets the avatar walk off an open edge). [`Bait::parse_open`] accepts
//! them for tests, with cells outside the grid acting as walls.
//!
//! # Levels
//! GVGAI's character format: `w` wall, `A` avatar, `0` hole, `1` box, `k`
//! key, `g` goal, `m` mushroom, `.` floor; one line per row. The five
//! original levels are in [`LEVELS`].
//!
//! # Identity
//! `Hash`/`Eq` cover the board, the avatar, its key and its life, but not the
//! tick: two states with the same board are the same position for search
//! (the score is a function of the board for a given level).
//!
//! Each state carries a 64-bit Zobrist key of its board, updated in O(1) by
//! every change, so [`Bait::key`] (the position) and [`Bait::board_key`]
//! (the board without the avatar) cost a few XORs; `Hash` writes
//! [`Bait::key`]. Search agents use the key as a compact visited-set entry
//! (two different positions share a key with probability about 2^-64 per
//! pair).
//!
//! # Speed
//! A state is a few hundred bytes of inline bit sets with no heap, so
//! `clone` is a `memcpy`; the avatar's column and row are kept next to its
//! cell so a move needs no division. `arena bench bait` prints the figures.

use crate::api::{Game, PlayerResult, Seat};
use crate::grid::{Bits, ParseError};
use std::hash::{Hash, Hasher};

/// Words of the cell bit sets: Bait levels may have at most `64 * WORDS` cells.
const WORDS: usize = 8;
/// The largest number of cells (width × height) a Bait level may have.
pub const MAX_CELLS: usize = 64 * WORDS;
/// GVGAI's `MAX_TIMESTEPS`.
pub const MAX_TIMESTEPS: u32 = 2000;

/// The five original GVGAI levels (`bait_lvl0.txt` … `bait_lvl4.txt`), GPL-3.0-or-later,
/// see `THIRD_PARTY.md`.
pub const LEVELS: [&str; 5] = [
    include_str!("../data/bait/bait_lvl0.txt"),
    include_str!("../data/bait/bait_lvl1.txt"),
    include_str!("../data/bait/bait_lvl2.txt"),
    include_str!("../data/bait/bait_lvl3.txt"),
    include_str!("../data/bait/bait_lvl4.txt"),
];

/// An avatar action, with GVGAI's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BaitAction {
    /// `ACTION_NIL`: do nothing.
    Nil,
    /// `ACTION_UP`: row − 1.
    Up,
    /// `ACTION_DOWN`: row + 1.
    Down,
    /// `ACTION_LEFT`: column − 1.
    Left,
    /// `ACTION_RIGHT`: column + 1.
    Right,
}

impl BaitAction {
    /// GVGAI's available actions, in its order (`getAvailableActions()`): NIL not included.
    pub const MOVES: [BaitAction; 4] = [
        BaitAction::Left,
        BaitAction::Right,
        BaitAction::Down,
        BaitAction::Up,
    ];

    /// The GVGAI name without the `ACTION_` prefix: `UP`, `DOWN`, `LEFT`, `RIGHT`, `NIL`.
    pub fn name(self) -> &'static str {
        match self {
            BaitAction::Nil => "NIL",
            BaitAction::Up => "UP",
            BaitAction::Down => "DOWN",
            BaitAction::Left => "LEFT",
            BaitAction::Right => "RIGHT",
        }
    }

    /// Parse a GVGAI action name, with or without `ACTION_`, any case.
    /// `USE` is accepted and means NIL (Bait's avatar has no USE action).
    pub fn parse(text: &str) -> Option<BaitAction> {
        let t = text.trim().to_ascii_uppercase();
        let t = t.strip_prefix("ACTION_").unwrap_or(&t);
        Some(match t {
            "NIL" | "USE" => BaitAction::Nil,
            "UP" => BaitAction::Up,
            "DOWN" => BaitAction::Down,
            "LEFT" => BaitAction::Left,
            "RIGHT" => BaitAction::Right,
            _ => return None,
        })
    }
}

/// A Bait state: the whole board inline (bit sets, no heap), so `clone` is a
/// `memcpy` of a few hundred bytes.
#[derive(Clone, Debug)]
pub struct Bait {
    width: u16,
    height: u16,
    /// The avatar's cell, and its column and row (kept so moves need no division).
    avatar: u16,
    col: u16,
    row: u16,
    has_key: bool,
    alive: bool,
    won: bool,
    over: bool,
    score: i32,
    tick: u32,
    max_ticks: u32,
    /// Zobrist key of boxes, holes, mushrooms, keys and goals.
    board_key: u64,
    walls: Bits<WORDS>,
    boxes: Bits<WORDS>,
    holes: Bits<WORDS>,
    mushrooms: Bits<WORDS>,
    keys: Bits<WORDS>,
    goals: Bits<WORDS>,
}

/// Zobrist kinds: rows of [`ZOBRIST`].
const Z_BOX: usize = 0;
const Z_HOLE: usize = 1;
const Z_MUSHROOM: usize = 2;
const Z_KEY: usize = 3;
const Z_GOAL: usize = 4;
const Z_AVATAR: usize = 5;

/// SplitMix64's output function: a bijective mix of a counter.
const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Random keys per (kind, cell), fixed at compile time.
static ZOBRIST: [[u64; MAX_CELLS]; 6] = {
    let mut t = [[0u64; MAX_CELLS]; 6];
    let mut k = 0;
    while k < 6 {
        let mut i = 0;
        while i < MAX_CELLS {
            t[k][i] =
                splitmix(((k * MAX_CELLS + i) as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D));
            i += 1;
        }
        k += 1;
    }
    t
};
/// Keys of the avatar's flags.
const Z_HAS_KEY: u64 = splitmix(0xB417_0001);
const Z_DEAD: u64 = splitmix(0xB417_0002);

impl PartialEq for Bait {
    fn eq(&self, o: &Self) -> bool {
        self.board_key == o.board_key
            && self.avatar == o.avatar
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
impl Eq for Bait {}

impl Hash for Bait {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.key());
    }
}

impl Bait {
    /// Parse a level in GVGAI's character format. Errors name the line and
    /// column and what was expected: unknown characters, ragged rows, no or
    /// several avatars, no goal, a level over [`MAX_CELLS`] cells, and a
    /// border cell that is not a wall (GVGAI lets sprites leave an open
    /// grid; arena's cells outside the grid are walls, so it refuses such
    /// levels rather than play them differently).
    pub fn parse(text: &str) -> Result<Bait, ParseError> {
        let s = Bait::parse_open(text)?;
        let (w, h) = (s.width(), s.height());
        for r in 0..h {
            for c in 0..w {
                let border = r == 0 || c == 0 || r + 1 == h || c + 1 == w;
                if border && !s.is_wall(c, r) {
                    return Err(ParseError::new(
                        r + 1,
                        c + 1,
                        "the level must be enclosed by walls: expected `w` on its border \
                         (GVGAI lets the avatar walk off an open edge; arena does not model that)",
                    ));
                }
            }
        }
        Ok(s)
    }

    /// As [`parse`](Self::parse), but a level need not be enclosed by walls:
    /// cells outside the grid then act as walls, which is **not** GVGAI's
    /// behaviour (there the avatar walks off an open edge). For tests that
    /// want moves against the grid's edge.
    pub fn parse_open(text: &str) -> Result<Bait, ParseError> {
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
                    "level is {width}x{rows} = {} cells; Bait levels may have at most {MAX_CELLS}",
                    width * rows
                ),
            ));
        }
        let mut s = Bait {
            width: width as u16,
            height: rows as u16,
            avatar: 0,
            col: 0,
            row: 0,
            has_key: false,
            alive: true,
            won: false,
            over: false,
            score: 0,
            tick: 0,
            max_ticks: MAX_TIMESTEPS,
            board_key: 0,
            walls: Bits::new(),
            boxes: Bits::new(),
            holes: Bits::new(),
            mushrooms: Bits::new(),
            keys: Bits::new(),
            goals: Bits::new(),
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
                        s.col = c as u16;
                        s.row = r as u16;
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
        s.board_key = s.compute_board_key();
        Ok(s)
    }

    /// One of the five original levels, `0..=4`.
    pub fn level(index: usize) -> Option<Bait> {
        LEVELS
            .get(index)
            .map(|t| Bait::parse(t).expect("built-in level parses"))
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

    /// The 64-bit Zobrist key of the position: the board, the avatar's cell,
    /// key and life (not the tick, the score or the step limit). Equal
    /// states have equal keys; see the module docs for collisions.
    #[inline]
    pub fn key(&self) -> u64 {
        let mut k = self.board_key ^ ZOBRIST[Z_AVATAR][self.avatar as usize];
        if self.has_key {
            k ^= Z_HAS_KEY;
        }
        if !self.alive {
            k ^= Z_DEAD;
        }
        k
    }

    /// The Zobrist key of the board alone (boxes, holes, mushrooms, keys,
    /// goals): states that differ only in where the avatar stands, or in
    /// whether it holds the key, share it.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// The board key recomputed from scratch (what `board_key` must equal).
    fn compute_board_key(&self) -> u64 {
        let mut k = 0;
        for (kind, set) in [
            (Z_BOX, &self.boxes),
            (Z_HOLE, &self.holes),
            (Z_MUSHROOM, &self.mushrooms),
            (Z_KEY, &self.keys),
            (Z_GOAL, &self.goals),
        ] {
            for i in set.iter() {
                k ^= ZOBRIST[kind][i];
            }
        }
        k
    }

    /// Number of cells (`width × height`); cells are numbered row by row,
    /// `row * width + column`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The avatar's cell number (`row * width + column`).
    #[inline]
    pub fn avatar_cell(&self) -> usize {
        self.avatar as usize
    }

    fn set_of(&self, what: BaitObject) -> &Bits<WORDS> {
        match what {
            BaitObject::Box => &self.boxes,
            BaitObject::Hole => &self.holes,
            BaitObject::Key => &self.keys,
            BaitObject::Goal => &self.goals,
            BaitObject::Mushroom => &self.mushrooms,
            BaitObject::Wall => &self.walls,
        }
    }

    /// Whether cell number `cell` (`row * width + column`, below
    /// [`Bait::cells`]) holds `what`. Cells past the grid hold nothing.
    #[inline]
    pub fn has(&self, what: BaitObject, cell: usize) -> bool {
        cell < MAX_CELLS && self.set_of(what).get(cell)
    }

    /// The cell numbers holding `what`, in increasing order (no allocation).
    pub fn cells_with(&self, what: BaitObject) -> impl Iterator<Item = usize> + '_ {
        self.set_of(what).iter()
    }

    /// How many cells hold `what`.
    pub fn count(&self, what: BaitObject) -> usize {
        self.set_of(what).count() as usize
    }

    /// Whether cell number `cell` is empty floor: inside the grid and holding
    /// nothing at all (no wall, box, hole, mushroom, key or goal). Walking
    /// onto empty floor moves the avatar and changes nothing else.
    #[inline]
    pub fn is_empty_floor(&self, cell: usize) -> bool {
        if cell >= self.cells() {
            return false;
        }
        let (w, b) = (cell / 64, 1u64 << (cell % 64));
        (self.walls.0[w]
            | self.boxes.0[w]
            | self.holes.0[w]
            | self.mushrooms.0[w]
            | self.keys.0[w]
            | self.goals.0[w])
            & b
            == 0
    }

    /// Put the avatar on `cell` as though it had walked there in `steps`
    /// moves over empty floor: the avatar's cell and the tick change, nothing
    /// else (such a walk changes nothing else). For planners that search
    /// over the moves that do change the board and join them by shortest
    /// walks; it is the caller's business that a walk of `steps` moves over
    /// empty floor exists (`bfs` finds it by breadth-first search).
    ///
    /// Returns `false` and changes nothing when the game is over, `cell` is
    /// not empty floor, or the walk would run into the step limit (the game
    /// would end during it).
    pub fn walk_to(&mut self, cell: usize, steps: u32) -> bool {
        if self.over
            || !self.is_empty_floor(cell)
            || self.tick.saturating_add(steps) > self.max_ticks
        {
            return false;
        }
        let w = self.width as usize;
        self.move_avatar(cell, (cell % w) as u16, (cell / w) as u16);
        self.tick += steps;
        true
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
    /// Cells of boxes, keys, goals, holes, mushrooms as `(column, row)` lists.
    pub fn cells_of(&self, what: BaitObject) -> Vec<(usize, usize)> {
        let w = self.width();
        self.set_of(what).iter().map(|i| (i % w, i / w)).collect()
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

    /// The cell one step from `(col, row)` (cell number `cell`) by
    /// `action`, with its column and row, or `None` off the grid. NIL stays.
    #[inline]
    fn step(
        &self,
        cell: usize,
        col: u16,
        row: u16,
        action: BaitAction,
    ) -> Option<(usize, u16, u16)> {
        let w = self.width as usize;
        match action {
            BaitAction::Nil => Some((cell, col, row)),
            BaitAction::Up => (row > 0).then(|| (cell - w, col, row - 1)),
            BaitAction::Down => (row + 1 < self.height).then(|| (cell + w, col, row + 1)),
            BaitAction::Left => (col > 0).then(|| (cell - 1, col - 1, row)),
            BaitAction::Right => (col + 1 < self.width).then(|| (cell + 1, col + 1, row)),
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
        if action == BaitAction::Nil {
            // Nothing overlaps the avatar at the start of a tick (everything it
            // could touch was resolved when it entered its cell).
            return;
        }
        let from = self.avatar as usize;
        // 1. avatar + wall → step back (off-grid counts as wall).
        let (to, tc, tr) = match self.step(from, self.col, self.row, action) {
            Some(t) if !self.walls.get(t.0) => t,
            _ => return,
        };
        // 2. avatar + hole → killed; it stays on the hole.
        if self.holes.get(to) {
            self.move_avatar(to, tc, tr);
            self.alive = false;
            return;
        }
        // 3. box + avatar → bounce forward; 4. blocked → undo all.
        if self.boxes.get(to) {
            let beyond = match self.step(to, tc, tr, action) {
                Some((b, _, _)) => b,
                None => return,
            };
            if self.walls.get(beyond) || self.boxes.get(beyond) || self.mushrooms.get(beyond) {
                return;
            }
            self.boxes.clear(to);
            self.board_key ^= ZOBRIST[Z_BOX][to];
            // 5. box + hole → both vanish, +1.
            if self.holes.get(beyond) {
                self.holes.clear(beyond);
                self.board_key ^= ZOBRIST[Z_HOLE][beyond];
                self.score += 1;
            } else {
                self.boxes.set(beyond);
                self.board_key ^= ZOBRIST[Z_BOX][beyond];
            }
        }
        // 6. nokey + key → withkey; key + avatar → key vanishes.
        if self.keys.get(to) {
            self.keys.clear(to);
            self.board_key ^= ZOBRIST[Z_KEY][to];
            self.has_key = true;
        } else if !self.has_key && self.goals.get(to) {
            // 7. nokey + goal → step back (the box push above stays).
            return;
        } else if self.has_key && self.goals.get(to) {
            // 8. goal + withkey → goal vanishes, +5.
            self.goals.clear(to);
            self.board_key ^= ZOBRIST[Z_GOAL][to];
            self.score += 5;
        }
        // 9. mushroom + avatar → eaten, +1.
        if self.mushrooms.get(to) {
            self.mushrooms.clear(to);
            self.board_key ^= ZOBRIST[Z_MUSHROOM][to];
            self.score += 1;
        }
        self.move_avatar(to, tc, tr);
    }

    #[inline]
    fn move_avatar(&mut self, cell: usize, col: u16, row: u16) {
        self.avatar = cell as u16;
        self.col = col;
        self.row = row;
    }
}

/// Kinds of objects on a Bait board (for [`Bait::cells_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaitObject {
    /// Walls.
    Wall,
    /// Boxes.
    Box,
    /// Holes.
    Hole,
    /// Keys.
    Key,
    /// Goals (doors).
    Goal,
    /// Mushrooms (the bait).
    Mushroom,
}

impl Game for Bait {
    type Action = BaitAction;

    fn num_players(&self) -> usize {
        1
    }
    fn is_active(&self, seat: Seat) -> bool {
        seat == 0 && !self.over
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<BaitAction>) {
        if self.is_active(seat) {
            out.extend_from_slice(&BaitAction::MOVES);
        }
    }
    fn is_legal(&self, seat: Seat, _action: BaitAction) -> bool {
        // Every action, NIL included, is accepted (GVGAI turns unknown ones into NIL).
        self.is_active(seat)
    }
    fn fallback_action(&self, _seat: Seat) -> BaitAction {
        BaitAction::Nil
    }
    fn advance(&mut self, joint: &[BaitAction]) {
        self.step_action(joint[0]);
    }
    fn is_over(&self) -> bool {
        self.over
    }
    fn score(&self, _seat: Seat) -> f64 {
        self.score as f64
    }
    fn result(&self, _seat: Seat) -> PlayerResult {
        PlayerResult::of_puzzle(self.over, self.won)
    }
    fn tick(&self) -> u32 {
        self.tick
    }
    fn action_name(&self, action: BaitAction) -> String {
        action.name().to_string()
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<BaitAction> {
        BaitAction::parse(text)
    }
}

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
