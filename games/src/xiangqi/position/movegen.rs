//! Move generation: attack detection (check, flying general), pseudo-legal
//! and legal moves, the legality test of a single move, and perft.

use super::{
    code, kind_of, side_of, Move, MoveList, Position, ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT,
    EMPTY, HORSE, KING, OFF, ON_BOARD, OWN_HALF, PALACE, RED, SOLDIER,
};

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

impl Position {
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
