//! The Xiangqi board: a padded 16×14 mailbox (files a..i on columns 2..10,
//! ranks 0..9 on rows 2..11, everything else an off-board sentinel), piece
//! lists, incremental make/unmake with a Zobrist hash, pseudo-legal and legal
//! move generation, attack detection and FEN.
//!
//! This file holds the vocabulary: piece codes, squares and the board
//! tables, [`Move`], [`MoveList`], [`Undo`] and the [`Position`] type with
//! its accessors. The rest is in `position/`, each file adding methods
//! that use only this file and the files listed before it:
//! - `make.rs`: the Zobrist keys, [`Position::make`] / [`Position::unmake`]
//!   (and the null move), [`Position::compute_hash`];
//! - `movegen.rs`: attack detection, pseudo-legal and legal move
//!   generation, perft;
//! - `notation.rs`: ICCS / Fairy-Stockfish move text, FEN parsing and
//!   printing ([`Position::from_fen`], [`Position::to_fen`]).

mod make;
mod movegen;
mod notation;

pub use notation::{fsf_to_iccs, iccs_to_fsf, START_FEN};

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

impl Position {
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
}
