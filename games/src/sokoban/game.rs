//! Sokoban as a 1-player [`Game`], and LURD solutions.

use super::rle;
use super::{FloorSet, Level, LevelError, LevelErrorKind, MAX_FLOOR};
use crate::api::{Game, PlayerResult, Seat};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The step limit of a new game (configs override it with `max_steps`).
pub const DEFAULT_MAX_STEPS: u32 = 10_000;

/// The longest LURD string (after run-length expansion) [`parse_lurd`] accepts.
pub(crate) const MAX_LURD: usize = 10_000_000;

const NONE: u16 = u16::MAX;

/// A direction of the player, in LURD order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// `l`/`L`: column − 1.
    Left,
    /// `u`/`U`: row − 1.
    Up,
    /// `r`/`R`: column + 1.
    Right,
    /// `d`/`D`: row + 1.
    Down,
}

impl Dir {
    /// The four directions in LURD order (the order of legal actions).
    pub const ALL: [Dir; 4] = [Dir::Left, Dir::Up, Dir::Right, Dir::Down];

    /// The LURD letter: lower case for a move, upper case for a push.
    pub fn letter(self, push: bool) -> char {
        let c = match self {
            Dir::Left => 'l',
            Dir::Up => 'u',
            Dir::Right => 'r',
            Dir::Down => 'd',
        };
        if push {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// The direction of a LURD letter and whether it is upper case (a push).
    pub fn from_letter(c: char) -> Option<(Dir, bool)> {
        let d = match c.to_ascii_lowercase() {
            'l' => Dir::Left,
            'u' => Dir::Up,
            'r' => Dir::Right,
            'd' => Dir::Down,
            _ => return None,
        };
        Some((d, c.is_ascii_uppercase()))
    }

    /// The opposite direction.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Left => Dir::Right,
            Dir::Up => Dir::Down,
            Dir::Right => Dir::Left,
            Dir::Down => Dir::Up,
        }
    }

    /// `(row, column)` offset.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Left => (0, -1),
            Dir::Up => (-1, 0),
            Dir::Right => (0, 1),
            Dir::Down => (1, 0),
        }
    }

    /// The cell next to `cell` in this direction on a `width × height` grid,
    /// if inside.
    pub fn step(self, cell: usize, width: usize, height: usize) -> Option<usize> {
        let (r, c) = (cell / width, cell % width);
        match self {
            Dir::Left if c > 0 => Some(cell - 1),
            Dir::Up if r > 0 => Some(cell - width),
            Dir::Right if c + 1 < width => Some(cell + 1),
            Dir::Down if r + 1 < height => Some(cell + width),
            _ => None,
        }
    }
}

/// An action of the Sokoban player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SokobanAction {
    /// Step in a direction, pushing the box there if the cell beyond it is free.
    Move(Dir),
    /// Stand still for one step: the fallback the harness plays when an
    /// agent overruns its soft budget (a plan being replayed stays valid).
    Wait,
}

impl From<Dir> for SokobanAction {
    fn from(d: Dir) -> Self {
        SokobanAction::Move(d)
    }
}

/// The fixed part of a game: the level and the player's region, numbered.
#[derive(Debug)]
struct Board {
    /// The level as given (title, walls, goals, the starting position).
    level: Level,
    /// Floor index → grid cell.
    cells: Vec<u32>,
    /// Grid cell → floor index, or `NONE` outside the player's region.
    floor_of: Vec<u16>,
    /// Floor index × direction (LURD order) → floor index, or `NONE`.
    next: Vec<[u16; 4]>,
    /// Goals inside the region.
    goals: FloorSet,
    /// Boxes inside the region.
    num_boxes: u32,
    /// Boxes outside the region that stand on goals (they never move).
    static_on_goals: u32,
    /// Every box outside the region stands on a goal.
    static_ok: bool,
}

/// A Sokoban position: the player's cell and the boxes, over a shared board.
///
/// # Rules
/// One seat. An action moves the player one cell left, up, right or down
/// ([`SokobanAction::Move`]); a move into a box pushes it one cell further if
/// that cell is floor without a box; moves into walls, or into a box that
/// cannot move, are illegal. [`SokobanAction::Wait`] (the harness's
/// fallback) stands still. Every action is one step.
///
/// The game is **won** when every box is on a goal. It ends as a **loss**
/// at the step limit ([`DEFAULT_MAX_STEPS`] unless set with
/// [`Sokoban::with_max_steps`]), or when the player has no legal move (boxed
/// in).
///
/// **Score: the number of boxes on goals** (all of them when won), so an
/// unsolved episode still shows progress; the number of steps (moves) is the
/// CSV `steps` column, and [`Sokoban::pushes`] counts pushes.
///
/// **Action names** are LURD letters, and depend on the state the action is
/// played in: lower case for a move (`l u r d`), upper case when the move
/// pushes a box (`L U R D`), so the names of an episode spell its LURD
/// solution. `Wait` is `-`. [`Game::parse_action`] accepts either case (and
/// `left`, `up` …, and `wait`/`nil`/`-`).
///
/// **Legal actions** are the possible moves in LURD order; `Wait` is not
/// listed (it is never useful to a search) but is always legal while the
/// game runs.
///
/// **Identity:** `Hash`/`Eq` are the position (player cell and box cells);
/// steps and pushes are not part of it. Positions of different levels are
/// not meant to be compared.
///
/// Boxes outside the player's region (decorative boxes) never move; they
/// count for the win and the score like the others.
#[derive(Clone, Debug)]
pub struct Sokoban {
    board: Arc<Board>,
    player: u16,
    boxes: FloorSet,
    on_goals: u32,
    tick: u32,
    pushes: u32,
    max_steps: u32,
    over: bool,
    won: bool,
}

impl PartialEq for Sokoban {
    fn eq(&self, o: &Self) -> bool {
        self.player == o.player && self.boxes == o.boxes
    }
}
impl Eq for Sokoban {}

impl Hash for Sokoban {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u16(self.player);
        self.boxes.hash(h);
    }
}

fn inconsistent(level: &Level, what: String) -> LevelError {
    LevelError {
        line: level.line,
        column: 0,
        level: level.index,
        title: level.title.clone(),
        kind: LevelErrorKind::Inconsistent(what),
    }
}

impl Sokoban {
    /// The game at the position of `level`. Errors when the level's fields
    /// do not fit together (vector lengths, player on a wall or a box) or
    /// when the player's region has more than [`MAX_FLOOR`] cells. Levels
    /// from the parser are always consistent; the region need not be
    /// enclosed (the board's edge acts as a wall).
    pub fn from_level(level: &Level) -> Result<Sokoban, LevelError> {
        let n = level.width.saturating_mul(level.height);
        if level.walls.len() != n || level.goals.len() != n || level.boxes.len() != n {
            return Err(inconsistent(
                level,
                format!(
                    "walls/goals/boxes have {}/{}/{} cells, width × height is {}x{}",
                    level.walls.len(),
                    level.goals.len(),
                    level.boxes.len(),
                    level.width,
                    level.height
                ),
            ));
        }
        if level.player >= n || level.walls[level.player] || level.boxes[level.player] {
            return Err(inconsistent(
                level,
                format!(
                    "the player's cell {} is outside the board, a wall or a box",
                    level.player
                ),
            ));
        }
        let region = level.player_region();
        let cells: Vec<u32> = (0..n).filter(|&i| region[i]).map(|i| i as u32).collect();
        if cells.len() > MAX_FLOOR {
            return Err(LevelError {
                kind: LevelErrorKind::RegionTooLarge { cells: cells.len() },
                ..inconsistent(level, String::new())
            });
        }
        let mut floor_of = vec![NONE; n];
        for (k, &c) in cells.iter().enumerate() {
            floor_of[c as usize] = k as u16;
        }
        let next = cells
            .iter()
            .map(|&c| {
                Dir::ALL.map(|d| {
                    d.step(c as usize, level.width, level.height)
                        .map_or(NONE, |j| floor_of[j])
                })
            })
            .collect();
        let mut goals = FloorSet::new();
        let mut boxes = FloorSet::new();
        let (mut static_ok, mut static_on_goals) = (true, 0);
        for (i, &f) in floor_of.iter().enumerate() {
            if f != NONE {
                if level.goals[i] {
                    goals.set(f as usize);
                }
                if level.boxes[i] {
                    boxes.set(f as usize);
                }
            } else if level.boxes[i] {
                if level.goals[i] {
                    static_on_goals += 1;
                } else {
                    static_ok = false;
                }
            }
        }
        let board = Board {
            level: level.clone(),
            num_boxes: boxes.count(),
            cells,
            floor_of: floor_of.clone(),
            next,
            goals,
            static_on_goals,
            static_ok,
        };
        let on_goals = boxes
            .0
            .iter()
            .zip(goals.0.iter())
            .map(|(b, g)| (b & g).count_ones())
            .sum();
        let mut s = Sokoban {
            player: floor_of[level.player],
            board: Arc::new(board),
            boxes,
            on_goals,
            tick: 0,
            pushes: 0,
            max_steps: DEFAULT_MAX_STEPS,
            over: false,
            won: false,
        };
        s.update_over();
        Ok(s)
    }

    /// Set the step limit: the game ends (a loss unless won) after this many steps.
    pub fn with_max_steps(mut self, max_steps: u32) -> Self {
        self.max_steps = max_steps;
        self.over = false;
        self.update_over();
        self
    }

    /// The current position as a level (title, index and line of the
    /// original level).
    pub fn to_level(&self) -> Level {
        let b = &self.board;
        let mut l = b.level.clone();
        for (k, &c) in b.cells.iter().enumerate() {
            l.boxes[c as usize] = self.boxes.get(k);
        }
        l.player = b.cells[self.player as usize] as usize;
        l
    }

    /// The level the game started from.
    pub fn level(&self) -> &Level {
        &self.board.level
    }
    /// Columns of the board.
    pub fn width(&self) -> usize {
        self.board.level.width
    }
    /// Rows of the board.
    pub fn height(&self) -> usize {
        self.board.level.height
    }
    /// The player's cell (`row * width + col`).
    pub fn player_cell(&self) -> usize {
        self.board.cells[self.player as usize] as usize
    }
    /// Whether a box stands on grid cell `cell`.
    pub fn has_box(&self, cell: usize) -> bool {
        match self.board.floor_of.get(cell) {
            Some(&f) if f != NONE => self.boxes.get(f as usize),
            Some(_) => self.board.level.boxes[cell],
            None => false,
        }
    }
    /// The cells of all boxes, in increasing order.
    pub fn box_cells(&self) -> Vec<usize> {
        (0..self.board.level.num_cells())
            .filter(|&c| self.has_box(c))
            .collect()
    }
    /// The cells of all goals, in increasing order.
    pub fn goal_cells(&self) -> Vec<usize> {
        let l = &self.board.level;
        (0..l.num_cells()).filter(|&c| l.goals[c]).collect()
    }
    /// Number of boxes (decorative ones included).
    pub fn num_boxes(&self) -> u32 {
        self.board.level.num_boxes() as u32
    }
    /// Number of boxes on goals (the score).
    pub fn boxes_on_goals(&self) -> u32 {
        self.on_goals + self.board.static_on_goals
    }
    /// Steps taken (moves and waits).
    pub fn steps(&self) -> u32 {
        self.tick
    }
    /// Pushes made.
    pub fn pushes(&self) -> u32 {
        self.pushes
    }
    /// Whether every box is on a goal.
    pub fn won(&self) -> bool {
        self.won
    }
    /// The step limit.
    pub fn max_steps(&self) -> u32 {
        self.max_steps
    }

    /// The board now, one string per row of exactly `width` standard
    /// characters (floor as a space).
    pub fn grid_rows(&self) -> Vec<String> {
        let l = self.to_level();
        (0..l.height)
            .map(|r| {
                (0..l.width)
                    .map(|c| l.tile(r * l.width + c).to_char())
                    .collect()
            })
            .collect()
    }

    /// What a move in direction `d` would do: `None` if illegal, else
    /// `Some(true)` when it pushes a box.
    pub fn push_kind(&self, d: Dir) -> Option<bool> {
        self.target(d).map(|(_, b)| b.is_some())
    }

    /// The player's new floor index and the box's, if the move pushes.
    #[inline]
    fn target(&self, d: Dir) -> Option<(u16, Option<u16>)> {
        let next = &self.board.next;
        let to = next[self.player as usize][d as usize];
        if to == NONE {
            return None;
        }
        if !self.boxes.get(to as usize) {
            return Some((to, None));
        }
        let beyond = next[to as usize][d as usize];
        if beyond == NONE || self.boxes.get(beyond as usize) {
            return None;
        }
        Some((to, Some(beyond)))
    }

    /// Make move `d` regardless of the game being over; `None` (and no
    /// change) if illegal, else whether it pushed.
    fn apply(&mut self, d: Dir) -> Option<bool> {
        let (to, push) = self.target(d)?;
        if let Some(beyond) = push {
            let goals = &self.board.goals;
            self.on_goals -= goals.get(to as usize) as u32;
            self.on_goals += goals.get(beyond as usize) as u32;
            self.boxes.clear(to as usize);
            self.boxes.set(beyond as usize);
            self.pushes += 1;
        }
        self.player = to;
        self.tick += 1;
        Some(push.is_some())
    }

    fn solved_now(&self) -> bool {
        self.board.static_ok && self.on_goals == self.board.num_boxes
    }

    fn update_over(&mut self) {
        if self.solved_now() {
            self.won = true;
            self.over = true;
        } else if self.tick >= self.max_steps || Dir::ALL.iter().all(|&d| self.target(d).is_none())
        {
            self.over = true;
        }
    }
}

impl Game for Sokoban {
    type Action = SokobanAction;

    fn num_players(&self) -> usize {
        1
    }
    fn is_active(&self, seat: Seat) -> bool {
        seat == 0 && !self.over
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<SokobanAction>) {
        if self.is_active(seat) {
            out.extend(
                Dir::ALL
                    .iter()
                    .filter(|&&d| self.target(d).is_some())
                    .map(|&d| SokobanAction::Move(d)),
            );
        }
    }
    fn is_legal(&self, seat: Seat, action: SokobanAction) -> bool {
        self.is_active(seat)
            && match action {
                SokobanAction::Move(d) => self.target(d).is_some(),
                SokobanAction::Wait => true,
            }
    }
    /// [`SokobanAction::Wait`].
    fn fallback_action(&self, _seat: Seat) -> SokobanAction {
        SokobanAction::Wait
    }
    /// Illegal moves and actions after the end are ignored (no step).
    fn advance(&mut self, joint: &[SokobanAction]) {
        if self.over {
            return;
        }
        match joint.first() {
            Some(SokobanAction::Move(d)) => {
                if self.apply(*d).is_none() {
                    return;
                }
            }
            Some(SokobanAction::Wait) => self.tick += 1,
            None => return,
        }
        self.update_over();
    }
    fn is_over(&self) -> bool {
        self.over
    }
    /// The number of boxes on goals.
    fn score(&self, _seat: Seat) -> f64 {
        self.boxes_on_goals() as f64
    }
    fn result(&self, _seat: Seat) -> PlayerResult {
        PlayerResult::of_puzzle(self.over, self.won)
    }
    fn tick(&self) -> u32 {
        self.tick
    }
    /// The LURD letter, upper case when the move pushes in this state; `-`
    /// for `Wait`.
    fn action_name(&self, action: SokobanAction) -> String {
        match action {
            SokobanAction::Move(d) => d.letter(self.push_kind(d) == Some(true)).to_string(),
            SokobanAction::Wait => "-".to_string(),
        }
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<SokobanAction> {
        let t = text.trim();
        let mut chars = t.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            if c == '-' {
                return Some(SokobanAction::Wait);
            }
            return Dir::from_letter(c).map(|(d, _)| SokobanAction::Move(d));
        }
        Some(match t.to_ascii_lowercase().as_str() {
            "left" => SokobanAction::Move(Dir::Left),
            "up" => SokobanAction::Move(Dir::Up),
            "right" => SokobanAction::Move(Dir::Right),
            "down" => SokobanAction::Move(Dir::Down),
            "wait" | "nil" => SokobanAction::Wait,
            _ => return None,
        })
    }
}

// ---------------------------------------------------------------------------
// LURD.

/// Why a LURD solution is invalid: the 1-based number of the offending move
/// (0 when the text or the level is at fault as a whole) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", if *.step == 0 { self.reason.clone() } else { format!("move {}: {}", self.step, self.reason) })]
pub struct ReplayError {
    /// 1-based index of the move (in the run-length expanded LURD); 0 for
    /// errors not tied to one move.
    pub step: usize,
    /// What went wrong.
    pub reason: String,
}

/// What a valid replay did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayReport {
    /// Moves (letters).
    pub moves: usize,
    /// Pushes (upper-case letters).
    pub pushes: usize,
    /// Whether every box is on a goal at the end.
    pub solved: bool,
}

/// Parse a LURD string: `l u r d` (moves) and `L U R D` (pushes), blanks
/// ignored, run-length encoding allowed (`3r2U`, `2(lu)`). Returns each
/// direction with whether it is written as a push.
pub fn parse_lurd(text: &str) -> Result<Vec<(Dir, bool)>, ReplayError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let rle_error = |(col, m): (usize, String)| ReplayError {
        step: 0,
        reason: format!("bad run-length encoding at character {col} (blanks removed): {m}"),
    };
    // Straight into moves, repeats copied in bulk.
    let out = rle::expand_into(&compact, MAX_LURD, LurdMoves::default()).map_err(rle_error)?;
    match out.bad {
        None => Ok(out.moves),
        Some((step, c)) => Err(ReplayError {
            step,
            reason: format!("{c:?} is not a LURD letter (l u r d, L U R D for pushes)"),
        }),
    }
}

/// A LURD text expanded into moves: `base` letters come before the first
/// of these (in a group, the letters before the group), `bad` is the
/// 1-based letter number and the letter of the first one that is not LURD.
/// Letters that are not LURD are not stored, only counted in UTF-8 bytes,
/// so that the limit is that of the expanded text. Letter numbers need no
/// such count: until the first bad letter every letter is a stored move,
/// and after it no number is taken any more.
#[derive(Default)]
struct LurdMoves {
    base: usize,
    moves: Vec<(Dir, bool)>,
    skipped_bytes: usize,
    bad: Option<(usize, char)>,
}

impl rle::Out for LurdMoves {
    fn len(&self) -> usize {
        self.moves.len().saturating_add(self.skipped_bytes)
    }

    fn group(&self) -> Self {
        LurdMoves {
            base: self.base + self.moves.len(),
            ..LurdMoves::default()
        }
    }

    fn run_len(c: char, n: usize) -> usize {
        n.saturating_mul(c.len_utf8())
    }

    fn push_run(&mut self, c: char, n: usize) {
        match Dir::from_letter(c) {
            Some(m) => rle::push_repeated(&mut self.moves, &[m], n),
            None => {
                if self.bad.is_none() {
                    self.bad = Some((self.base + self.moves.len() + 1, c));
                }
                self.skipped_bytes = self.skipped_bytes.saturating_add(Self::run_len(c, n));
            }
        }
    }

    fn push_group(&mut self, group: &Self, n: usize) {
        self.bad = self.bad.or(group.bad);
        self.skipped_bytes =
            (self.skipped_bytes).saturating_add(group.skipped_bytes.saturating_mul(n));
        rle::push_repeated(&mut self.moves, &group.moves, n);
    }
}

/// Replay a LURD solution on `level` and check it move by move: every move
/// must be legal, and **the case must match**: upper case exactly for the
/// moves that push a box (a lower-case letter that would push, or an
/// upper-case one that does not, is invalid). Moves after the level is
/// solved are played too; `solved` says whether every box is on a goal at
/// the end. Moves and pushes are counted here, never taken from the
/// solver.
pub fn replay(level: &Level, lurd: &str) -> Result<ReplayReport, ReplayError> {
    replay_game(level, lurd).map(|(report, _)| report)
}

/// [`replay`], and the position the moves end in, as a level (the
/// solvers play parts of a level one after the other from it).
pub fn replay_to(level: &Level, lurd: &str) -> Result<(ReplayReport, Level), ReplayError> {
    replay_game(level, lurd).map(|(report, s)| (report, s.to_level()))
}

/// [`replay`], and the game at its end.
fn replay_game(level: &Level, lurd: &str) -> Result<(ReplayReport, Sokoban), ReplayError> {
    let mut s = Sokoban::from_level(level).map_err(|e| ReplayError {
        step: 0,
        reason: format!("the level cannot be played: {e}"),
    })?;
    let steps = parse_lurd(lurd)?;
    for (k, &(d, upper)) in steps.iter().enumerate() {
        let letter = d.letter(upper);
        let err = |reason: String| ReplayError {
            step: k + 1,
            reason,
        };
        match s.push_kind(d) {
            None => {
                let why = if s.board.next[s.player as usize][d as usize] == NONE {
                    "the player would walk into a wall"
                } else {
                    "the box there cannot move (wall or box behind it)"
                };
                return Err(err(format!("`{letter}` is illegal: {why}")));
            }
            Some(true) if !upper => {
                return Err(err(format!(
                    "`{letter}` pushes a box: a push must be written in upper case (`{}`)",
                    d.letter(true)
                )))
            }
            Some(false) if upper => {
                return Err(err(format!(
                    "`{letter}` does not push a box: upper case is only for pushes (`{}`)",
                    d.letter(false)
                )))
            }
            Some(_) => {
                s.apply(d);
            }
        }
    }
    let report = ReplayReport {
        moves: steps.len(),
        pushes: s.pushes as usize,
        solved: s.solved_now(),
    };
    Ok((report, s))
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter(false))
    }
}
