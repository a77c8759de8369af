//! The Xiangqi board: a padded 16×14 mailbox (files a..i on columns 2..10,
//! ranks 0..9 on rows 2..11, everything else an off-board sentinel), piece
//! lists, incremental make/unmake with a Zobrist hash, pseudo-legal and legal
//! move generation, attack detection and FEN.

use crate::grid::ParseError;

/// Piece kind: general (帥/將).
pub const KING: u8 = 1;
/// Piece kind: advisor (仕/士).
pub const ADVISOR: u8 = 2;
/// Piece kind: elephant (相/象), FEN letter `B` (also `E`).
pub const ELEPHANT: u8 = 3;
/// Piece kind: horse (傌/馬), FEN letter `N` (also `H`).
pub const HORSE: u8 = 4;
/// Piece kind: chariot (俥/車), FEN letter `R`.
pub const CHARIOT: u8 = 5;
/// Piece kind: cannon (炮/砲), FEN letter `C`.
pub const CANNON: u8 = 6;
/// Piece kind: soldier (兵/卒), FEN letter `P`.
pub const SOLDIER: u8 = 7;

/// Side index of Red (moves first, uppercase in FEN, `w`).
pub const RED: usize = 0;
/// Side index of Black (lowercase in FEN, `b`).
pub const BLACK: usize = 1;

/// Board code of an empty point.
pub const EMPTY: u8 = 0;
/// Board code of an off-board sentinel square.
pub const OFF: u8 = 16;

/// The code of a piece: `kind | side << 3` (Red 1..7, Black 9..15).
#[inline(always)]
pub const fn code(kind: u8, side: usize) -> u8 {
    kind | ((side as u8) << 3)
}

/// The kind (1..7) of a piece code.
#[inline(always)]
pub const fn kind_of(code: u8) -> u8 {
    code & 7
}

/// The side of a (non-empty, on-board) piece code.
#[inline(always)]
pub const fn side_of(code: u8) -> usize {
    ((code >> 3) & 1) as usize
}

/// The internal square of (file 0..8, rank 0..9).
#[inline(always)]
pub const fn square(file: usize, rank: usize) -> usize {
    (rank + 2) * 16 + file + 2
}

/// File 0..8 (a..i) of an on-board square.
#[inline(always)]
pub const fn file_of(sq: usize) -> usize {
    (sq & 15) - 2
}

/// Rank 0..9 (from Red's side) of an on-board square.
#[inline(always)]
pub const fn rank_of(sq: usize) -> usize {
    (sq >> 4) - 2
}

const UP: isize = 16;
const DOWN: isize = -16;
const LEFT: isize = -1;
const RIGHT: isize = 1;
const ORTH: [isize; 4] = [UP, DOWN, LEFT, RIGHT];
const DIAG: [isize; 4] = [UP + LEFT, UP + RIGHT, DOWN + LEFT, DOWN + RIGHT];
/// Horse moves: (leg, target) offsets.
const HORSE_MOVES: [(isize, isize); 8] = [
    (UP, 2 * UP + LEFT),
    (UP, 2 * UP + RIGHT),
    (DOWN, 2 * DOWN + LEFT),
    (DOWN, 2 * DOWN + RIGHT),
    (LEFT, 2 * LEFT + UP),
    (LEFT, 2 * LEFT + DOWN),
    (RIGHT, 2 * RIGHT + UP),
    (RIGHT, 2 * RIGHT + DOWN),
];

#[inline(always)]
fn off(sq: usize, d: isize) -> usize {
    (sq as isize + d) as usize
}

const fn build_on_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut r = 0;
    while r < 10 {
        let mut f = 0;
        while f < 9 {
            t[square(f, r)] = true;
            f += 1;
        }
        r += 1;
    }
    t
}

const fn build_palace() -> [[bool; 256]; 2] {
    let mut t = [[false; 256]; 2];
    let mut f = 3;
    while f <= 5 {
        let mut r = 0;
        while r <= 2 {
            t[RED][square(f, r)] = true;
            t[BLACK][square(f, 9 - r)] = true;
            r += 1;
        }
        f += 1;
    }
    t
}

const fn build_own_half() -> [[bool; 256]; 2] {
    let mut t = [[false; 256]; 2];
    let mut f = 0;
    while f < 9 {
        let mut r = 0;
        while r < 5 {
            t[RED][square(f, r)] = true;
            t[BLACK][square(f, 9 - r)] = true;
            r += 1;
        }
        f += 1;
    }
    t
}

/// Whether an internal square is one of the 90 points.
pub static ON_BOARD: [bool; 256] = build_on_board();
/// Whether a square lies in `side`'s palace (files d..f, 3 ranks).
pub static PALACE: [[bool; 256]; 2] = build_palace();
/// Whether a square lies on `side`'s own half (before the river).
pub static OWN_HALF: [[bool; 256]; 2] = build_own_half();

/// `CAN_LAND[side][code]`: a piece of `side` may move onto a point holding `code`
/// (empty or an enemy piece).
static CAN_LAND: [[bool; 17]; 2] = {
    let mut t = [[false; 17]; 2];
    t[0][0] = true;
    t[1][0] = true;
    let mut k = 1;
    while k <= 7 {
        t[RED][k + 8] = true;
        t[BLACK][k] = true;
        k += 1;
    }
    t
};

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_zobrist() -> [[u64; 256]; 16] {
    let mut t = [[0u64; 256]; 16];
    let mut s = 0x5851_F42D_4C95_7F2Du64;
    let mut c = 0;
    while c < 16 {
        let mut sq = 0;
        while sq < 256 {
            t[c][sq] = splitmix(&mut s);
            sq += 1;
        }
        c += 1;
    }
    t
}

/// Zobrist keys `[code][square]` (fixed, deterministic).
static ZOBRIST: [[u64; 256]; 16] = build_zobrist();
/// Zobrist key XORed in when Black is to move.
const ZOBRIST_BLACK: u64 = 0x2F0E_1EBA_9A7B_5C3D;

/// A move from one point to another, packed as `from | to << 8` (internal
/// squares). [`Move::NULL`] (0) is no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(pub u16);

impl Move {
    /// The null move (no move; returned when a side has none).
    pub const NULL: Move = Move(0);

    /// The move from internal square `from` to `to`.
    #[inline(always)]
    pub fn new(from: usize, to: usize) -> Move {
        Move((from | (to << 8)) as u16)
    }

    /// The move from (file, rank) to (file, rank), ranks 0..9 from Red.
    pub fn from_coords(ff: usize, fr: usize, tf: usize, tr: usize) -> Move {
        Move::new(square(ff, fr), square(tf, tr))
    }

    /// Origin square (internal index).
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 0xFF) as usize
    }

    /// Destination square (internal index).
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 >> 8) as usize
    }

    /// Whether this is the null move.
    pub fn is_null(self) -> bool {
        self.0 == 0
    }

    /// ICCS text with ranks 0..9 from Red (`h2e2`); `0000` for the null move.
    pub fn iccs(self) -> String {
        self.text(0)
    }

    /// Fairy-Stockfish UCI text with ranks 1..10 (`h3e3`, `b10c8`).
    pub fn fsf_uci(self) -> String {
        self.text(1)
    }

    fn text(self, base: usize) -> String {
        if self.is_null() || !ON_BOARD[self.from()] || !ON_BOARD[self.to()] {
            return "0000".to_string();
        }
        let f = |sq: usize| {
            format!(
                "{}{}",
                (b'a' + file_of(sq) as u8) as char,
                rank_of(sq) + base
            )
        };
        format!("{}{}", f(self.from()), f(self.to()))
    }

    /// Parse ICCS text, ranks 0..9 (`h2e2`; upper case and the dashed
    /// `H2-E2` form are accepted). `None` if it names no pair of points.
    pub fn parse_iccs(text: &str) -> Option<Move> {
        Self::parse_with(text, 0)
    }

    /// Parse Fairy-Stockfish UCI text, ranks 1..10 (`h3e3`, `b10c8`).
    pub fn parse_fsf_uci(text: &str) -> Option<Move> {
        Self::parse_with(text, 1)
    }

    fn parse_with(text: &str, base: usize) -> Option<Move> {
        let t: String = text
            .trim()
            .chars()
            .filter(|&c| c != '-')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let b = t.as_bytes();
        // file letter, 1-2 digits, file letter, 1-2 digits
        let mut i = 0;
        let mut point = || -> Option<usize> {
            let f = *b.get(i)?;
            if !(b'a'..=b'i').contains(&f) {
                return None;
            }
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
                i += 1;
            }
            if i == start {
                return None;
            }
            let n: usize = std::str::from_utf8(&b[start..i]).ok()?.parse().ok()?;
            let r = n.checked_sub(base)?;
            if r > 9 {
                return None;
            }
            Some(square((f - b'a') as usize, r))
        };
        let from = point()?;
        let to = point()?;
        if i != b.len() {
            return None;
        }
        Some(Move::new(from, to))
    }
}

/// Convert an ICCS move (ranks 0..9) to Fairy-Stockfish UCI (ranks 1..10).
pub fn iccs_to_fsf(text: &str) -> Option<String> {
    Move::parse_iccs(text).map(Move::fsf_uci)
}

/// Convert a Fairy-Stockfish UCI move (ranks 1..10) to ICCS (ranks 0..9).
pub fn fsf_to_iccs(text: &str) -> Option<String> {
    Move::parse_fsf_uci(text).map(Move::iccs)
}

/// Capacity of a [`MoveList`]: 16 pieces × 17 destinations at most.
pub const MAX_MOVES: usize = 16 * 17;

/// A fixed-capacity list of moves (no heap allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }
    #[inline(always)]
    /// Append a move (ignored when the list is full).
    pub fn push(&mut self, m: Move) {
        // Capacity holds for at most 16 pieces per side (checked by the FEN parser).
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Remove all moves.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

/// What [`Position::make`] returns and [`Position::unmake`] needs.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    cap_slot: u8,
    halfmove: u16,
    hash: u64,
}

impl Undo {
    /// The code of the captured piece ([`EMPTY`] for a quiet move).
    pub fn captured(&self) -> u8 {
        self.captured
    }
}

/// A Xiangqi position: board, side to move, Zobrist hash, move counters.
///
/// Equality and hashing (see the `Xiangqi` game) compare the board and the
/// side to move only; the piece-list order and the counters are not part of
/// the identity.
#[derive(Clone)]
pub struct Position {
    board: [u8; 256],
    slot: [u8; 256],
    plist: [[u8; 16]; 2],
    kings: [u8; 2],
    side: usize,
    hash: u64,
    halfmove: u16,
    fullmove: u32,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.side == other.side && self.board == other.board
    }
}
impl Eq for Position {}

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn letter_kind(c: char) -> Option<(u8, usize)> {
    let side = if c.is_ascii_uppercase() { RED } else { BLACK };
    let k = match c.to_ascii_lowercase() {
        'k' => KING,
        'a' => ADVISOR,
        'b' | 'e' => ELEPHANT,
        'n' | 'h' => HORSE,
        'r' => CHARIOT,
        'c' => CANNON,
        'p' => SOLDIER,
        _ => return None,
    };
    Some((k, side))
}

fn kind_letter(code: u8) -> char {
    let c = match kind_of(code) {
        KING => 'k',
        ADVISOR => 'a',
        ELEPHANT => 'b',
        HORSE => 'n',
        CHARIOT => 'r',
        CANNON => 'c',
        _ => 'p',
    };
    if side_of(code) == RED {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("start FEN parses")
    }

    fn empty() -> Position {
        let mut board = [OFF; 256];
        for (sq, b) in board.iter_mut().enumerate() {
            if ON_BOARD[sq] {
                *b = EMPTY;
            }
        }
        Position {
            board,
            slot: [0; 256],
            plist: [[0; 16]; 2],
            kings: [0; 2],
            side: RED,
            hash: 0,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// Parse a FEN (Pikafish / Fairy-Stockfish / UCCI style): 10 ranks from
    /// Black's back rank down, side `w` (or `r`) / `b`, optional castling and
    /// en-passant fields (ignored), half-move clock (plies without capture,
    /// at most 119... any larger value is clamped to 120) and full-move number.
    /// Errors name the column (1-based, line 1) of the offending character.
    ///
    /// Besides syntax, it checks: exactly one general per side, each in its
    /// palace; at most 16 pieces per side; the side *not* to move is not in
    /// check (otherwise the general could be captured).
    pub fn from_fen(fen: &str) -> Result<Position, ParseError> {
        let err = |col: usize, msg: String| ParseError::new(1, col, msg);
        let text = fen.trim_end();
        let lead = fen.len() - fen.trim_start().len();
        let text = text.trim_start();
        let mut fields = Vec::new();
        {
            let mut start = None;
            for (i, ch) in text.char_indices() {
                if ch.is_whitespace() {
                    if let Some(s) = start.take() {
                        fields.push((s, &text[s..i]));
                    }
                } else if start.is_none() {
                    start = Some(i);
                }
            }
            if let Some(s) = start {
                fields.push((s, &text[s..]));
            }
        }
        if fields.is_empty() {
            return Err(err(0, "empty FEN".into()));
        }
        let col = |byte: usize| lead + byte + 1;
        let mut p = Position::empty();
        let mut counts = [0usize; 2];
        let (b0, board) = fields[0];
        let mut rank: isize = 9;
        let mut file = 0usize;
        for (i, ch) in board.char_indices() {
            let c = col(b0 + i);
            if ch == '/' {
                if file != 9 {
                    return Err(err(
                        c,
                        format!("rank {} has {file} points, expected 9", rank),
                    ));
                }
                rank -= 1;
                if rank < 0 {
                    return Err(err(c, "more than 10 ranks".into()));
                }
                file = 0;
            } else if let Some(d) = ch.to_digit(10) {
                if d == 0 || file + d as usize > 9 {
                    return Err(err(
                        c,
                        format!("`{ch}` overflows the 9 files of rank {rank}"),
                    ));
                }
                file += d as usize;
            } else if let Some((k, s)) = letter_kind(ch) {
                if file >= 9 {
                    return Err(err(
                        c,
                        format!("`{ch}` overflows the 9 files of rank {rank}"),
                    ));
                }
                if counts[s] >= 16 {
                    return Err(err(c, "more than 16 pieces of one side".into()));
                }
                let sq = square(file, rank as usize);
                let cd = code(k, s);
                p.board[sq] = cd;
                p.slot[sq] = counts[s] as u8;
                p.plist[s][counts[s]] = sq as u8;
                counts[s] += 1;
                if k == KING {
                    if p.kings[s] != 0 {
                        return Err(err(c, "a second general of the same side".into()));
                    }
                    if !PALACE[s][sq] {
                        return Err(err(c, "general outside its palace".into()));
                    }
                    p.kings[s] = sq as u8;
                }
                file += 1;
            } else {
                return Err(err(
                    c,
                    format!("unexpected `{ch}`; expected a piece letter (KABNRCP / kabnrcp), a digit 1-9 or `/`"),
                ));
            }
        }
        if rank != 0 || file != 9 {
            return Err(err(
                col(b0 + board.len()),
                format!(
                    "the board must have 10 ranks of 9 points (ended at rank {rank}, file {file})"
                ),
            ));
        }
        for (s, name) in [(RED, "Red (K)"), (BLACK, "Black (k)")] {
            if p.kings[s] == 0 {
                return Err(err(col(b0), format!("no general for {name}")));
            }
        }
        if let Some(&(i, s)) = fields.get(1) {
            p.side = match s {
                "w" | "r" | "W" | "R" => RED,
                "b" | "B" => BLACK,
                _ => return Err(err(col(i), format!("side to move `{s}`: expected w or b"))),
            };
        }
        // fields 2 and 3 (castling, en passant) are ignored
        if let Some(&(i, s)) = fields.get(4) {
            let v: u32 = s
                .parse()
                .map_err(|_| err(col(i), format!("half-move clock `{s}` is not a number")))?;
            p.halfmove = v.min(120) as u16;
        }
        if let Some(&(i, s)) = fields.get(5) {
            p.fullmove = s
                .parse()
                .map_err(|_| err(col(i), format!("full-move number `{s}` is not a number")))?;
        }
        if fields.len() > 6 {
            return Err(err(col(fields[6].0), "trailing text after the FEN".into()));
        }
        let them = 1 - p.side;
        if p.attacked(p.kings[them] as usize, p.side) {
            return Err(err(
                col(b0),
                "the side not to move is in check (its general could be captured)".into(),
            ));
        }
        p.hash = p.compute_hash();
        Ok(p)
    }

    /// The position as FEN (`w`/`b`, `- -` for castling / en passant).
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                let c = self.board[square(file, rank)];
                if c == EMPTY {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(kind_letter(c));
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == RED { " w" } else { " b" });
        s.push_str(&format!(" - - {} {}", self.halfmove, self.fullmove));
        s
    }

    /// Recompute the Zobrist hash from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, &c) in self.board.iter().enumerate() {
            if c != EMPTY && c != OFF {
                h ^= ZOBRIST[c as usize][sq];
            }
        }
        if self.side == BLACK {
            h ^= ZOBRIST_BLACK;
        }
        h
    }

    /// The Zobrist hash (board and side to move).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Side to move ([`RED`] or [`BLACK`]).
    #[inline(always)]
    pub fn side(&self) -> usize {
        self.side
    }

    /// Plies since the last capture (the FEN half-move clock).
    pub fn halfmove(&self) -> u32 {
        self.halfmove as u32
    }

    /// Full-move number (starts at 1, incremented after Black's move).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The piece code on internal square `sq` ([`EMPTY`], [`OFF`] or a piece).
    #[inline(always)]
    pub fn at(&self, sq: usize) -> u8 {
        self.board[sq]
    }

    /// The piece code at (file 0..8, rank 0..9).
    pub fn piece_at(&self, file: usize, rank: usize) -> u8 {
        if file < 9 && rank < 10 {
            self.board[square(file, rank)]
        } else {
            OFF
        }
    }

    /// The square of `side`'s general.
    #[inline(always)]
    pub fn king(&self, side: usize) -> usize {
        self.kings[side] as usize
    }

    /// Squares of `side`'s pieces still on the board (general included).
    pub fn pieces(&self, side: usize) -> impl Iterator<Item = usize> + '_ {
        self.plist[side]
            .iter()
            .filter(|&&s| s != 0)
            .map(|&s| s as usize)
    }

    /// Whether the side to move is in check (flying general included).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.attacked(self.kings[self.side] as usize, 1 - self.side)
    }

    /// Whether a general of the side *opposite* `by` standing on `k` would
    /// be attacked by `by`'s pieces: chariots and the enemy general along
    /// lines (flying general), cannons over exactly one screen, horses with
    /// a free leg, soldiers from in front or (having crossed the river) from
    /// the side. Advisors and elephants never reach the enemy palace.
    #[inline]
    pub fn attacked(&self, k: usize, by: usize) -> bool {
        let b = &self.board;
        let rook = code(CHARIOT, by);
        let king = code(KING, by);
        let cannon = code(CANNON, by);
        for d in ORTH {
            let mut s = off(k, d);
            while b[s] == EMPTY {
                s = off(s, d);
            }
            let c = b[s];
            if c == OFF {
                continue;
            }
            if c == rook || c == king {
                return true;
            }
            s = off(s, d);
            while b[s] == EMPTY {
                s = off(s, d);
            }
            if b[s] == cannon {
                return true;
            }
        }
        let horse = code(HORSE, by);
        for d in DIAG {
            let leg = off(k, d);
            if b[leg] == EMPTY {
                // horse two steps away along the vertical or horizontal part of d
                let dv = if d > 8 { UP } else { DOWN };
                let dh = d - dv;
                if b[off(leg, dv)] == horse || b[off(leg, dh)] == horse {
                    return true;
                }
            }
        }
        let pawn = code(SOLDIER, by);
        // an enemy soldier moves towards us: Black's soldiers move DOWN, so they
        // attack from above a Red general (k + UP).
        let fwd = if by == BLACK { UP } else { DOWN };
        b[off(k, fwd)] == pawn || b[off(k, LEFT)] == pawn || b[off(k, RIGHT)] == pawn
    }

    /// Append the pseudo-legal moves of the side to move (every move the
    /// pieces can make, ignoring whether the own general is left attacked).
    pub fn gen_pseudo(&self, list: &mut MoveList) {
        self.gen_pseudo_for(self.side, list);
    }

    /// Append the pseudo-legal moves `us` would have if it were to move
    /// (used for mobility terms in evaluations).
    pub fn gen_pseudo_for(&self, us: usize, list: &mut MoveList) {
        for &s in &self.plist[us] {
            if s != 0 {
                self.gen_piece(s as usize, us, list);
            }
        }
    }

    #[inline(always)]
    fn gen_piece(&self, from: usize, us: usize, list: &mut MoveList) {
        let b = &self.board;
        let land = &CAN_LAND[us];
        match kind_of(b[from]) {
            KING => {
                for d in ORTH {
                    let t = off(from, d);
                    if PALACE[us][t] && land[b[t] as usize] {
                        list.push(Move::new(from, t));
                    }
                }
            }
            ADVISOR => {
                for d in DIAG {
                    let t = off(from, d);
                    if PALACE[us][t] && land[b[t] as usize] {
                        list.push(Move::new(from, t));
                    }
                }
            }
            ELEPHANT => {
                for d in DIAG {
                    let eye = off(from, d);
                    if b[eye] == EMPTY {
                        let t = off(eye, d);
                        if OWN_HALF[us][t] && land[b[t] as usize] {
                            list.push(Move::new(from, t));
                        }
                    }
                }
            }
            HORSE => {
                for (leg, d) in HORSE_MOVES {
                    if b[off(from, leg)] == EMPTY {
                        let t = off(from, d);
                        if land[b[t] as usize] {
                            list.push(Move::new(from, t));
                        }
                    }
                }
            }
            CHARIOT => {
                for d in ORTH {
                    let mut t = off(from, d);
                    while b[t] == EMPTY {
                        list.push(Move::new(from, t));
                        t = off(t, d);
                    }
                    if land[b[t] as usize] {
                        list.push(Move::new(from, t));
                    }
                }
            }
            CANNON => {
                for d in ORTH {
                    let mut t = off(from, d);
                    while b[t] == EMPTY {
                        list.push(Move::new(from, t));
                        t = off(t, d);
                    }
                    if b[t] != OFF {
                        t = off(t, d);
                        while b[t] == EMPTY {
                            t = off(t, d);
                        }
                        let c = b[t];
                        if c != OFF && side_of(c) != us {
                            list.push(Move::new(from, t));
                        }
                    }
                }
            }
            _ => {
                let fwd = if us == RED { UP } else { DOWN };
                let t = off(from, fwd);
                if land[b[t] as usize] {
                    list.push(Move::new(from, t));
                }
                if !OWN_HALF[us][from] {
                    for d in [LEFT, RIGHT] {
                        let t = off(from, d);
                        if land[b[t] as usize] {
                            list.push(Move::new(from, t));
                        }
                    }
                }
            }
        }
    }

    /// Whether the pseudo-legal move `m` of the side to move leaves its own
    /// general safe. `check` is [`Position::in_check`] of the current
    /// position (passed in so that callers compute it once per node).
    ///
    /// Shortcut: when not in check, a move of a piece other than the general
    /// can only expose the general if it leaves the general's rank or file
    /// (chariot / cannon / flying-general lines), leaves a point diagonally
    /// next to the general (a horse leg), or lands on the general's rank or
    /// file (a new cannon screen). Other moves are legal without a test.
    #[inline(always)]
    pub fn is_safe(&mut self, m: Move, check: bool) -> bool {
        let us = self.side;
        let k = self.kings[us] as usize;
        let (f, t) = (m.from(), m.to());
        if !check && f != k {
            let same_line = |a: usize| (a ^ k) & 0xF0 == 0 || (a ^ k) & 0x0F == 0;
            let diag = matches!(f as isize - k as isize, 15 | 17 | -15 | -17);
            if !same_line(f) && !same_line(t) && !diag {
                return true;
            }
        }
        let c = self.board[f];
        let cap = self.board[t];
        self.board[t] = c;
        self.board[f] = EMPTY;
        let ks = if f == k { t } else { k };
        let ok = !self.attacked(ks, 1 - us);
        self.board[f] = c;
        self.board[t] = cap;
        ok
    }

    /// Append the legal moves of the side to move.
    pub fn gen_legal(&mut self, list: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.gen_pseudo(&mut pseudo);
        let check = self.in_check();
        for &m in pseudo.as_slice() {
            if self.is_safe(m, check) {
                list.push(m);
            }
        }
    }

    /// Append the pseudo-legal captures of the side to move.
    pub fn gen_captures(&self, list: &mut MoveList) {
        let mut all = MoveList::new();
        self.gen_pseudo(&mut all);
        for &m in all.as_slice() {
            if self.board[m.to()] != EMPTY {
                list.push(m);
            }
        }
    }

    /// Number of legal moves of the side to move.
    pub fn count_legal(&mut self) -> usize {
        let mut pseudo = MoveList::new();
        self.gen_pseudo(&mut pseudo);
        let check = self.in_check();
        let mut n = 0;
        for &m in pseudo.as_slice() {
            n += self.is_safe(m, check) as usize;
        }
        n
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let mut pseudo = MoveList::new();
        self.gen_pseudo(&mut pseudo);
        let check = self.in_check();
        pseudo.as_slice().iter().any(|&m| self.is_safe(m, check))
    }

    /// Whether `m` is a legal move of the side to move (any `Move` value is
    /// accepted; nonsense gives `false`).
    pub fn is_legal(&mut self, m: Move) -> bool {
        let f = m.from();
        if !ON_BOARD[f] || !ON_BOARD[m.to()] {
            return false;
        }
        let c = self.board[f];
        if c == EMPTY || side_of(c) != self.side {
            return false;
        }
        let mut l = MoveList::new();
        self.gen_piece(f, self.side, &mut l);
        if !l.as_slice().contains(&m) {
            return false;
        }
        let check = self.in_check();
        self.is_safe(m, check)
    }

    /// Play `m` (assumed pseudo-legal for the side to move) and return what
    /// [`Position::unmake`] needs.
    #[inline(always)]
    pub fn make(&mut self, m: Move) -> Undo {
        let (f, t) = (m.from(), m.to());
        let us = self.side;
        let c = self.board[f];
        let cap = self.board[t];
        let undo = Undo {
            captured: cap,
            cap_slot: self.slot[t],
            halfmove: self.halfmove,
            hash: self.hash,
        };
        let mut h = self.hash ^ ZOBRIST[c as usize][f] ^ ZOBRIST[c as usize][t] ^ ZOBRIST_BLACK;
        if cap != EMPTY {
            h ^= ZOBRIST[cap as usize][t];
            self.plist[1 - us][self.slot[t] as usize] = 0;
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        let i = self.slot[f];
        self.board[t] = c;
        self.board[f] = EMPTY;
        self.slot[t] = i;
        self.plist[us][i as usize] = t as u8;
        if kind_of(c) == KING {
            self.kings[us] = t as u8;
        }
        if us == BLACK {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = 1 - us;
        self.hash = h;
        undo
    }

    /// Take back `m`, played by [`Position::make`] which returned `undo`.
    #[inline(always)]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        let (f, t) = (m.from(), m.to());
        let us = 1 - self.side;
        self.side = us;
        if us == BLACK {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        let c = self.board[t];
        let i = self.slot[t];
        self.board[f] = c;
        self.slot[f] = i;
        self.plist[us][i as usize] = f as u8;
        if kind_of(c) == KING {
            self.kings[us] = f as u8;
        }
        self.board[t] = undo.captured;
        if undo.captured != EMPTY {
            self.slot[t] = undo.cap_slot;
            self.plist[1 - us][undo.cap_slot as usize] = t as u8;
        }
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    /// Pass the move to the other side (for null-move style probes); undo
    /// with [`Position::unmake_null`].
    pub fn make_null(&mut self) {
        self.side = 1 - self.side;
        self.hash ^= ZOBRIST_BLACK;
    }

    /// Undo [`Position::make_null`].
    pub fn unmake_null(&mut self) {
        self.make_null();
    }

    /// Perft: the number of leaves of the legal-move tree of depth `depth`.
    /// Bulk-counts at the last ply: at depth 1 the legal moves are counted
    /// (each one still checked for legality) instead of being played.
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal() as u64;
        }
        let mut list = MoveList::new();
        self.gen_legal(&mut list);
        let mut n = 0;
        for &m in list.as_slice() {
            let u = self.make(m);
            n += self.perft(depth - 1);
            self.unmake(m, u);
        }
        n
    }

    /// Perft without bulk counting: every leaf is played with make/unmake.
    pub fn perft_full(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.gen_legal(&mut list);
        let mut n = 0;
        for &m in list.as_slice() {
            let u = self.make(m);
            n += self.perft_full(depth - 1);
            self.unmake(m, u);
        }
        n
    }

    /// Perft split by root move: `(move, leaves below it)` in generation order.
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        let mut list = MoveList::new();
        self.gen_legal(&mut list);
        list.as_slice()
            .iter()
            .map(|&m| {
                let u = self.make(m);
                let n = if depth <= 1 { 1 } else { self.perft(depth - 1) };
                self.unmake(m, u);
                (m, n)
            })
            .collect()
    }
}
