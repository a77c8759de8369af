//! Make / unmake: playing and taking back a move in place, with the
//! incremental Zobrist hash (and the keys themselves), the null move, and
//! the hash recomputed from scratch.

use super::{kind_of, Move, Position, Undo, BLACK, EMPTY, KING, OFF};

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

impl Position {
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
}
