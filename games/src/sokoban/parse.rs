//! Reading Sokoban level files (the format is documented in the parent
//! module): a line scanner that splits the text into boards and the text
//! between them, then titles and notes, then one [`Level`] per board.

use super::rle;
use super::{Level, Tile, MAX_CELLS};
use crate::grid::ParseError;
use std::fmt;

/// A level file could not be read: where (1-based line and column, 0 when
/// the whole level or file is at fault), which level (0-based index in the
/// file, and its title) and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct LevelError {
    /// 1-based line of the file (0: the whole file).
    pub line: usize,
    /// 1-based column in characters (0: the whole line or level).
    pub column: usize,
    /// 0-based index of the level in its file.
    pub level: usize,
    /// The level's title (empty when it has none).
    pub title: String,
    /// What is wrong.
    pub kind: LevelErrorKind,
}

/// The kinds of [`LevelError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelErrorKind {
    /// The text holds no board at all.
    NoLevels,
    /// [`parse_level`] was given a text with several levels.
    NotOneLevel {
        /// How many levels the text holds.
        count: usize,
    },
    /// A board line holds a character that is not a cell.
    UnknownChar(char),
    /// A run-length encoded board line is malformed.
    RunLength(String),
    /// The board has no player (`@` / `+`).
    NoPlayer,
    /// The board has more than one player; the error points at the second.
    SeveralPlayers {
        /// How many players the board has.
        count: usize,
    },
    /// The numbers of boxes and goals differ.
    BoxesGoals {
        /// Boxes (`$` and `*`).
        boxes: usize,
        /// Goals (`.`, `*` and `+`).
        goals: usize,
    },
    /// The board has no box (and no goal).
    NoBoxes,
    /// The player can walk off the board: the region the player reaches
    /// (through floor and boxes) touches the edge of the board; the error
    /// points at the first such cell.
    NotEnclosed {
        /// 0-based row of the open cell in the board.
        row: usize,
        /// 0-based column of the open cell in the board.
        col: usize,
    },
    /// The board is larger than [`MAX_CELLS`] cells.
    TooLarge,
    /// The player's region has more floor cells than a game supports
    /// ([`MAX_FLOOR`](super::MAX_FLOOR)); from [`Sokoban::from_level`](super::Sokoban::from_level).
    RegionTooLarge {
        /// Floor cells in the region.
        cells: usize,
    },
    /// A [`Level`] built in code whose fields do not fit together; from
    /// [`Sokoban::from_level`](super::Sokoban::from_level).
    Inconsistent(String),
}

impl fmt::Display for LevelErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelErrorKind::NoLevels => write!(
                f,
                "no Sokoban board found: a board is a run of lines made of `#` wall, `$` box, \
                 `.` goal, `@` player, `+` player on goal, `*` box on goal, space/`-`/`_` floor \
                 (or the letters W B G P Y X), with at least one wall on its first line"
            ),
            LevelErrorKind::NotOneLevel { count } => write!(
                f,
                "expected one level, found {count} (pick one with FILE:N, N from 0)"
            ),
            LevelErrorKind::UnknownChar(c) => write!(
                f,
                "unknown character {c:?} in a board line; expected one of `#` `$` `.` `@` `+` \
                 `*` space `-` `_`, with digits, `|` and parentheses for run-length encoding \
                 (or a board written wholly in the letter set W B G P Y X: the two sets do not \
                 mix within a board)"
            ),
            LevelErrorKind::RunLength(m) => write!(f, "bad run-length encoding: {m}"),
            LevelErrorKind::NoPlayer => write!(f, "no player: the board needs one `@` or `+`"),
            LevelErrorKind::SeveralPlayers { count } => write!(
                f,
                "{count} players: the board needs exactly one `@` or `+` (this is the second)"
            ),
            LevelErrorKind::BoxesGoals { boxes, goals } => write!(
                f,
                "{boxes} boxes (`$`, `*`) but {goals} goals (`.`, `*`, `+`): they must be equal"
            ),
            LevelErrorKind::NoBoxes => write!(f, "no boxes and no goals: nothing to solve"),
            LevelErrorKind::NotEnclosed { row, col } => write!(
                f,
                "the player's region is not enclosed by walls: it reaches the edge of the \
                 board at row {}, column {} of the board",
                row + 1,
                col + 1
            ),
            LevelErrorKind::TooLarge => write!(f, "board larger than {MAX_CELLS} cells"),
            LevelErrorKind::RegionTooLarge { cells } => write!(
                f,
                "the player's region has {cells} floor cells; a game supports at most {}",
                super::MAX_FLOOR
            ),
            LevelErrorKind::Inconsistent(m) => write!(f, "inconsistent level: {m}"),
        }
    }
}

impl LevelError {
    fn render(&self) -> String {
        let what = if self.kind == LevelErrorKind::NoLevels {
            String::new()
        } else if self.title.is_empty() {
            format!("level index {}, ", self.level)
        } else {
            format!("level index {} (title `{}`), ", self.level, self.title)
        };
        let at = match (self.line, self.column) {
            (0, _) => String::new(),
            (l, 0) => format!("line {l}: "),
            (l, c) => format!("line {l}, column {c}: "),
        };
        format!("{what}{at}{}", self.kind)
    }
}

impl From<LevelError> for ParseError {
    /// The harness reports level errors as [`ParseError`]s (it adds the
    /// file name); the level index and title go into the message.
    fn from(e: LevelError) -> ParseError {
        let what = if e.kind == LevelErrorKind::NoLevels {
            String::new()
        } else if e.title.is_empty() {
            format!("level index {}: ", e.level)
        } else {
            format!("level index {} (title `{}`): ", e.level, e.title)
        };
        ParseError::new(e.line, e.column, format!("{what}{}", e.kind))
    }
}

/// One level of a file with what the file says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The level.
    pub level: Level,
    /// `Author: …` after the board, if any.
    pub author: Option<String>,
    /// `Comment: …` (one line) or the lines between `Comment:` and
    /// `Comment-End:` after the board, if any.
    pub comment: Option<String>,
    /// The LURD strings of `Solution…` sections after the board (whitespace
    /// removed, run-length encoding kept), in file order.
    pub solutions: Vec<String>,
}

/// Parse every level of a file (see the module docs for the format).
/// Errors name the line, the level and what was expected; an empty file (no
/// board) is an error too.
pub fn parse_levels(text: &str) -> Result<Vec<Level>, LevelError> {
    Ok(parse_collection(text)?
        .into_iter()
        .map(|e| e.level)
        .collect())
}

/// Parse a text that holds exactly one level.
pub fn parse_level(text: &str) -> Result<Level, LevelError> {
    let mut all = parse_levels(text)?;
    if all.len() > 1 {
        let second = &all[1];
        return Err(LevelError {
            line: second.line,
            column: 0,
            level: 1,
            title: second.title.clone(),
            kind: LevelErrorKind::NotOneLevel { count: all.len() },
        });
    }
    Ok(all.remove(0))
}

/// Parse every level of a file with its notes (`Author:`, `Comment:`,
/// `Solution:`); see the module docs.
pub fn parse_collection(text: &str) -> Result<Vec<Entry>, LevelError> {
    let (boards, gaps) = scan(text);
    if boards.is_empty() {
        return Err(LevelError {
            line: 0,
            column: 0,
            level: 0,
            title: String::new(),
            kind: LevelErrorKind::NoLevels,
        });
    }
    let mut out = Vec::with_capacity(boards.len());
    for (k, board) in boards.iter().enumerate() {
        let notes = Notes::of(&gaps[k + 1]);
        let title = notes
            .title
            .clone()
            .or_else(|| title_before(&gaps[k]))
            .unwrap_or_default();
        let level = build(board, k, title)?;
        out.push(Entry {
            level,
            author: notes.author,
            comment: notes.comment,
            solutions: notes.solutions,
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Pass 1: lines into boards and gaps.

/// Which character set a board is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    /// `# $ . @ + *` and floor, with run-length encoding.
    Standard,
    /// The course report's letters `W B G P Y X` (and `w`), floor.
    Letters,
}

/// The characters of a standard board line (cells and run-length encoding).
fn standard_char(c: char) -> bool {
    matches!(
        c,
        '#' | '$' | '.' | '@' | '+' | '*' | ' ' | '-' | '_' | '|' | '(' | ')'
    ) || c.is_ascii_digit()
}

fn letter_char(c: char) -> bool {
    matches!(c, 'W' | 'w' | 'B' | 'G' | 'P' | 'Y' | 'X' | ' ' | '-' | '_')
}

/// Whether `t` (trimmed at the end, not empty) is a board line of `set`.
/// A line that starts a board must hold a wall; a line that continues one
/// needs only some cell that is not a space (an interior row of floor is
/// written `-`).
fn is_board_line(t: &str, set: Set, continues: bool) -> bool {
    match set {
        Set::Standard => {
            t.chars().all(standard_char)
                && t.chars()
                    .any(|c| matches!(c, '#' | '$' | '.' | '@' | '+' | '*' | '-' | '_'))
                && (continues || t.contains('#'))
        }
        Set::Letters => {
            t.chars().all(letter_char)
                && t.chars().any(|c| c != ' ')
                && (continues || t.contains(['W', 'w']))
        }
    }
}

/// A board as found in the text: its lines, and the first character that
/// is not a cell (if any), reported when the level is built.
#[derive(Debug)]
struct RawBoard<'a> {
    set: Set,
    /// (1-based line, text trimmed at the end).
    rows: Vec<(usize, &'a str)>,
    /// (line, column, char) of the first unknown character.
    bad: Option<(usize, usize, char)>,
}

/// A non-board line between boards.
#[derive(Clone, Debug, PartialEq, Eq)]
enum GapLine<'a> {
    Blank,
    /// `; text`: the text after the `;`, trimmed.
    Comment(&'a str),
    /// `Key: value` (value trimmed).
    Key(&'a str, &'a str),
    /// The lines of a `Comment:` … `Comment-End:` block, joined by `\n`.
    CommentBlock(String),
    /// A `Solution…` line with the LURD that follows it (on the line after
    /// the `:` and on the following LURD-only lines), whitespace removed.
    Solution(String),
    /// Any other text.
    Text(&'a str),
}

type Gap<'a> = Vec<GapLine<'a>>;

/// `Key: value` with a short key of letters, spaces and `-`/`_`.
fn key_value(t: &str) -> Option<(&str, &str)> {
    let (k, v) = t.split_once(':')?;
    let k = k.trim();
    let ok = !k.is_empty()
        && k.len() <= 32
        && k.chars().next().is_some_and(|c| c.is_alphabetic())
        && k.chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_');
    ok.then_some((k, v.trim()))
}

/// A `Solution` header: `Solution`, `Solution:`, `Solution (moves 33,
/// pushes 8): lurd…`. Returns what follows the first `:` (or nothing).
fn solution_header(t: &str) -> Option<&str> {
    let t = t.trim_start();
    let head = t.get(..8)?;
    if !head.eq_ignore_ascii_case("solution") {
        return None;
    }
    let rest = &t[8..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t', '(', ':', '/'])) {
        return None;
    }
    Some(rest.split_once(':').map_or("", |(_, v)| v))
}

/// A line made only of LURD letters, digits, parentheses and blanks.
fn is_lurd_line(t: &str) -> bool {
    t.chars().any(|c| "lurdLURD".contains(c))
        && t.chars()
            .all(|c| "lurdLURD()".contains(c) || c.is_ascii_digit() || c.is_whitespace())
}

fn strip_ws(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Split the text into boards and the gaps around them: `gaps.len() ==
/// boards.len() + 1`, gap `k` comes before board `k`.
fn scan(text: &str) -> (Vec<RawBoard<'_>>, Vec<Gap<'_>>) {
    let mut boards: Vec<RawBoard> = Vec::new();
    let mut gaps: Vec<Gap> = vec![Vec::new()];
    let mut in_board: Option<Set> = None;
    let mut lines = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .peekable();
    while let Some((ln, raw)) = lines.next() {
        let t = raw.trim_end();
        // Board lines.
        let first = t.trim_start().chars().next();
        let set = if t.is_empty() {
            None
        } else if let Some(s) = in_board.filter(|&s| is_board_line(t, s, true)) {
            Some((s, true))
        } else if is_board_line(t, Set::Standard, false) {
            Some((Set::Standard, false))
        } else if first == Some('#') {
            // Always a board line: a bad character in it is an error.
            Some((Set::Standard, in_board == Some(Set::Standard)))
        } else if is_board_line(t, Set::Letters, false) {
            Some((Set::Letters, false))
        } else if in_board == Some(Set::Letters) && matches!(first, Some('W' | 'w')) {
            Some((Set::Letters, true))
        } else {
            None
        };
        if let Some((set, continues)) = set {
            if !continues {
                boards.push(RawBoard {
                    set,
                    rows: Vec::new(),
                    bad: None,
                });
                gaps.push(Vec::new());
            }
            let b = boards.last_mut().expect("a board was just pushed");
            if b.bad.is_none() {
                let ok = |c: char| match set {
                    Set::Standard => standard_char(c),
                    Set::Letters => letter_char(c),
                };
                if let Some((col, c)) = t.chars().enumerate().find(|&(_, c)| !ok(c)) {
                    b.bad = Some((ln, col + 1, c));
                }
            }
            b.rows.push((ln, t));
            in_board = Some(set);
            continue;
        }
        in_board = None;
        let gap = gaps.last_mut().expect("there is always a gap");
        let s = t.trim_start();
        if s.is_empty() {
            gap.push(GapLine::Blank);
        } else if s.starts_with("::") {
            // A comment for people reading the file: ignored.
        } else if let Some(c) = s.strip_prefix(';') {
            gap.push(GapLine::Comment(c.trim()));
        } else if let Some(v) = solution_header(s) {
            let mut lurd = strip_ws(v);
            while let Some(&(_, next)) = lines.peek() {
                if is_lurd_line(next.trim()) {
                    lurd.push_str(&strip_ws(next));
                    lines.next();
                } else {
                    break;
                }
            }
            gap.push(GapLine::Solution(lurd));
        } else if let Some((k, v)) = key_value(s) {
            if k.eq_ignore_ascii_case("comment") && v.is_empty() {
                let mut body = Vec::new();
                for (_, next) in lines.by_ref() {
                    let n = next.trim();
                    if key_value(n).is_some_and(|(k, _)| {
                        k.eq_ignore_ascii_case("comment-end")
                            || k.eq_ignore_ascii_case("comment_end")
                    }) {
                        break;
                    }
                    body.push(n);
                }
                gap.push(GapLine::CommentBlock(body.join("\n")));
            } else {
                gap.push(GapLine::Key(k, v));
            }
        } else {
            gap.push(GapLine::Text(s));
        }
    }
    (boards, gaps)
}

// ---------------------------------------------------------------------------
// Pass 2: titles and notes.

/// What the text after a board says about it.
#[derive(Default)]
struct Notes {
    title: Option<String>,
    author: Option<String>,
    comment: Option<String>,
    solutions: Vec<String>,
}

impl Notes {
    fn of(gap: &Gap) -> Notes {
        let mut n = Notes::default();
        for line in gap {
            match line {
                GapLine::Key(k, v) if k.eq_ignore_ascii_case("title") && n.title.is_none() => {
                    n.title = Some(v.to_string())
                }
                GapLine::Key(k, v) if k.eq_ignore_ascii_case("author") && n.author.is_none() => {
                    n.author = Some(v.to_string())
                }
                GapLine::Key(k, v) if k.eq_ignore_ascii_case("comment") && n.comment.is_none() => {
                    n.comment = Some(v.to_string())
                }
                GapLine::CommentBlock(b) if n.comment.is_none() => n.comment = Some(b.clone()),
                GapLine::Solution(s) => n.solutions.push(s.clone()),
                _ => {}
            }
        }
        n
    }
}

/// The title written before a board (a `Title:` after it takes precedence):
/// 1. a `;` comment: the last run of consecutive `;` lines that is a single
///    line or ends right above the board gives its first line (`; 12` in
///    Skinner's and Boxoban's files, `;screen.01` in XSokoban's);
/// 2. otherwise the SOK title line: the last non-blank line before the
///    board, if it is plain text preceded by a blank line (or first in the
///    gap).
fn title_before(gap: &Gap) -> Option<String> {
    let mut best: Option<&str> = None;
    let mut i = 0;
    while i < gap.len() {
        if let GapLine::Comment(first) = gap[i] {
            let mut j = i;
            while j + 1 < gap.len() && matches!(gap[j + 1], GapLine::Comment(_)) {
                j += 1;
            }
            let single = j == i;
            let adjacent = j + 1 == gap.len();
            if (single || adjacent) && !first.is_empty() {
                best = Some(first);
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    if let Some(t) = best {
        return Some(t.to_string());
    }
    let last = gap.iter().rposition(|l| *l != GapLine::Blank)?;
    match gap[last] {
        GapLine::Text(t) if last == 0 || gap[last - 1] == GapLine::Blank => Some(t.to_string()),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Pass 3: boards into levels.

impl Tile {
    /// The tile of a standard (XSB) character, if it is one.
    pub fn from_char(c: char) -> Option<Tile> {
        Some(match c {
            '#' => Tile::Wall,
            ' ' | '-' | '_' => Tile::Floor,
            '.' => Tile::Goal,
            '$' => Tile::Box,
            '*' => Tile::BoxOnGoal,
            '@' => Tile::Player,
            '+' => Tile::PlayerOnGoal,
            _ => return None,
        })
    }

    /// The tile of a character of the course report's letter set, if it is
    /// one: `W`/`w` wall, `B` box, `G` goal, `P` player, `Y` box on goal,
    /// `X` player on goal, space/`-`/`_` floor.
    pub fn from_letter(c: char) -> Option<Tile> {
        Some(match c {
            'W' | 'w' => Tile::Wall,
            ' ' | '-' | '_' => Tile::Floor,
            'G' => Tile::Goal,
            'B' => Tile::Box,
            'Y' => Tile::BoxOnGoal,
            'P' => Tile::Player,
            'X' => Tile::PlayerOnGoal,
            _ => return None,
        })
    }
}

/// Where a board row came from: its line, and whether its columns are the
/// line's (false for run-length encoded lines).
#[derive(Clone, Copy)]
struct RowSource {
    line: usize,
    plain: bool,
}

fn build(board: &RawBoard, index: usize, title: String) -> Result<Level, LevelError> {
    let first_line = board.rows[0].0;
    let err = |line: usize, column: usize, kind: LevelErrorKind| LevelError {
        line,
        column,
        level: index,
        title: title.clone(),
        kind,
    };
    if let Some((line, col, c)) = board.bad {
        return Err(err(line, col, LevelErrorKind::UnknownChar(c)));
    }
    // Rows of tiles, with where each came from.
    let mut rows: Vec<Vec<Tile>> = Vec::new();
    let mut sources: Vec<RowSource> = Vec::new();
    let mut total = 0usize;
    for &(line, text) in &board.rows {
        let (expanded, plain) = match board.set {
            Set::Standard if rle::is_encoded(text) || text.contains('|') => {
                let e = rle::expand(text, MAX_CELLS)
                    .map_err(|(col, m)| err(line, col, LevelErrorKind::RunLength(m)))?;
                (std::borrow::Cow::Owned(e), false)
            }
            _ => (std::borrow::Cow::Borrowed(text), true),
        };
        total += expanded.len();
        if total > MAX_CELLS {
            return Err(err(line, 0, LevelErrorKind::TooLarge));
        }
        for part in expanded.split('|') {
            let mut row = Vec::with_capacity(part.len());
            for (col, c) in part.chars().enumerate() {
                let tile = match board.set {
                    Set::Standard => Tile::from_char(c),
                    Set::Letters => Tile::from_letter(c),
                };
                match tile {
                    Some(t) => row.push(t),
                    None => {
                        let column = if plain { col + 1 } else { 0 };
                        return Err(err(line, column, LevelErrorKind::UnknownChar(c)));
                    }
                }
            }
            // Trailing floor carries no information: drop it.
            while row.last() == Some(&Tile::Floor) {
                row.pop();
            }
            rows.push(row);
            sources.push(RowSource { line, plain });
        }
    }
    while rows.last().is_some_and(|r| r.is_empty()) {
        rows.pop();
        sources.pop();
    }
    // Leading rows of floor too (possible with `|`: `-|#####`).
    let lead = rows.iter().take_while(|r| r.is_empty()).count();
    rows.drain(..lead);
    sources.drain(..lead);
    let height = rows.len();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    if width.saturating_mul(height) > MAX_CELLS {
        return Err(err(first_line, 0, LevelErrorKind::TooLarge));
    }
    let n = width * height;
    let mut level = Level {
        title: title.clone(),
        index,
        line: first_line,
        width,
        height,
        walls: vec![false; n],
        goals: vec![false; n],
        boxes: vec![false; n],
        player: 0,
    };
    let at = |i: usize| {
        let (r, c) = (i / width.max(1), i % width.max(1));
        let s = sources[r];
        (s.line, if s.plain { c + 1 } else { 0 })
    };
    let mut players = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, &t) in row.iter().enumerate() {
            let i = r * width + c;
            level.walls[i] = t == Tile::Wall;
            level.goals[i] = matches!(t, Tile::Goal | Tile::BoxOnGoal | Tile::PlayerOnGoal);
            level.boxes[i] = matches!(t, Tile::Box | Tile::BoxOnGoal);
            if matches!(t, Tile::Player | Tile::PlayerOnGoal) {
                players.push(i);
            }
        }
    }
    match players.as_slice() {
        [] => return Err(err(first_line, 0, LevelErrorKind::NoPlayer)),
        [p] => level.player = *p,
        [_, second, ..] => {
            let (line, col) = at(*second);
            return Err(err(
                line,
                col,
                LevelErrorKind::SeveralPlayers {
                    count: players.len(),
                },
            ));
        }
    }
    let boxes = level.boxes.iter().filter(|&&b| b).count();
    let goals = level.goals.iter().filter(|&&g| g).count();
    if boxes != goals {
        return Err(err(
            first_line,
            0,
            LevelErrorKind::BoxesGoals { boxes, goals },
        ));
    }
    if boxes == 0 {
        return Err(err(first_line, 0, LevelErrorKind::NoBoxes));
    }
    if let Some(open) = leak(&level) {
        let (line, col) = at(open);
        return Err(err(
            line,
            col,
            LevelErrorKind::NotEnclosed {
                row: open / width,
                col: open % width,
            },
        ));
    }
    Ok(level)
}

/// The first cell (in flood order) of the player's region that lies on the
/// edge of the board, if any. The region is what the player reaches through
/// cells that are not walls (boxes count as passable: they may move).
fn leak(level: &Level) -> Option<usize> {
    let (w, h) = (level.width, level.height);
    let mut seen = vec![false; w * h];
    let mut stack = vec![level.player];
    seen[level.player] = true;
    while let Some(i) = stack.pop() {
        let (r, c) = (i / w, i % w);
        if r == 0 || c == 0 || r + 1 == h || c + 1 == w {
            return Some(i);
        }
        for j in [i - w, i + w, i - 1, i + 1] {
            if !seen[j] && !level.walls[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    None
}
