//! Notation: move text (ICCS with ranks 0..9, Fairy-Stockfish UCI with
//! ranks 1..10) and FEN parsing and printing.

use super::{
    code, file_of, kind_of, rank_of, side_of, square, Move, Position, ADVISOR, BLACK, CANNON,
    CHARIOT, ELEPHANT, EMPTY, HORSE, KING, OFF, ON_BOARD, PALACE, RED, SOLDIER,
};
use crate::grid::ParseError;

impl Move {
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
}
