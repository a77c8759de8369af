//! Evaluation in the style of the USTC 2024 lab (seed 002): piece values
//! (general 10000, advisor 10, elephant 30, horse 300, chariot 500, cannon
//! 300, soldier 90), a position table per piece kind, and mobility.
//!
//! The lab's own tables are not reproduced (its framework carries no
//! licence); these tables were written for arena following the same ideas:
//! soldiers gain value as they cross the river and approach the enemy
//! palace (most on the central files, less on the last rank), horses and
//! chariots like central and advanced posts, cannons like the central file
//! at home and the back ranks' flanks, the general prefers its back rank.

use games::xiangqi::{
    file_of, kind_of, rank_of, MoveList, Position, ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT,
    HORSE, KING, RED, SOLDIER,
};

/// Piece values indexed by kind (1 general … 7 soldier), the lab's figures.
pub const VALUES: [i32; 8] = [0, 10000, 10, 30, 300, 500, 300, 90];

/// Points per pseudo-legal move (mobility).
pub const MOBILITY: i32 = 1;

type Table = [[i32; 9]; 10];

/// `[rank from the owner's side][file]`.
const SOLDIER_T: Table = [
    [0; 9],
    [0; 9],
    [0; 9],
    [0, 0, -2, 0, 4, 0, -2, 0, 0],
    [2, 0, 8, 0, 8, 0, 8, 0, 2],
    [4, 10, 16, 20, 22, 20, 16, 10, 4],
    [8, 18, 28, 34, 38, 34, 28, 18, 8],
    [10, 25, 40, 50, 55, 50, 40, 25, 10],
    [10, 30, 50, 65, 70, 65, 50, 30, 10],
    [0, 2, 8, 12, 15, 12, 8, 2, 0],
];

const HORSE_T: Table = [
    [0, -4, 0, 0, 0, 0, 0, -4, 0],
    [0, 2, 4, 4, -2, 4, 4, 2, 0],
    [4, 2, 8, 8, 4, 8, 8, 2, 4],
    [2, 6, 8, 6, 10, 6, 8, 6, 2],
    [4, 12, 16, 14, 12, 14, 16, 12, 4],
    [6, 16, 14, 18, 16, 18, 14, 16, 6],
    [8, 24, 18, 24, 20, 24, 18, 24, 8],
    [12, 14, 16, 20, 18, 20, 16, 14, 12],
    [4, 10, 28, 16, 8, 16, 28, 10, 4],
    [4, 8, 16, 12, 4, 12, 16, 8, 4],
];

const CHARIOT_T: Table = [
    [-2, 10, 6, 14, 12, 14, 6, 10, -2],
    [8, 4, 8, 16, 8, 16, 8, 4, 8],
    [4, 8, 6, 14, 12, 14, 6, 8, 4],
    [6, 10, 8, 14, 14, 14, 8, 10, 6],
    [12, 16, 14, 20, 20, 20, 14, 16, 12],
    [12, 14, 12, 18, 18, 18, 12, 14, 12],
    [12, 18, 16, 22, 22, 22, 16, 18, 12],
    [12, 12, 12, 18, 18, 18, 12, 12, 12],
    [16, 20, 18, 24, 26, 24, 18, 20, 16],
    [14, 14, 12, 18, 16, 18, 12, 14, 14],
];

const CANNON_T: Table = [
    [0, 0, 2, 6, 6, 6, 2, 0, 0],
    [0, 2, 4, 6, 6, 6, 4, 2, 0],
    [4, 0, 8, 6, 10, 6, 8, 0, 4],
    [0, 0, 0, 2, 4, 2, 0, 0, 0],
    [-2, 0, 4, 2, 6, 2, 4, 0, -2],
    [0, 0, 0, 2, 8, 2, 0, 0, 0],
    [0, 0, -2, 4, 10, 4, -2, 0, 0],
    [2, 2, 0, -10, -8, -10, 0, 2, 2],
    [2, 2, 0, -4, -14, -4, 0, 2, 2],
    [6, 4, 0, -10, -12, -10, 0, 4, 6],
];

const KING_T: Table = {
    let mut t = [[0; 9]; 10];
    t[0] = [0, 0, 0, 1, 5, 1, 0, 0, 0];
    t[1] = [0, 0, 0, -8, -8, -8, 0, 0, 0];
    t[2] = [0, 0, 0, -9, -9, -9, 0, 0, 0];
    t
};

const ADVISOR_T: Table = {
    let mut t = [[0; 9]; 10];
    t[1][4] = 3;
    t
};

const ELEPHANT_T: Table = {
    let mut t = [[0; 9]; 10];
    t[2] = [-2, 0, 0, 0, 3, 0, 0, 0, -2];
    t[0][2] = -1;
    t[0][6] = -1;
    t
};

/// Value plus position bonus of a piece `code` of `side` on `sq`.
#[inline]
pub fn piece_score(code: u8, side: usize, sq: usize) -> i32 {
    let f = file_of(sq);
    let r = if side == RED {
        rank_of(sq)
    } else {
        9 - rank_of(sq)
    };
    let k = kind_of(code);
    let table = match k {
        KING => &KING_T,
        ADVISOR => &ADVISOR_T,
        ELEPHANT => &ELEPHANT_T,
        HORSE => &HORSE_T,
        CHARIOT => &CHARIOT_T,
        CANNON => &CANNON_T,
        _ => &SOLDIER_T,
    };
    VALUES[k as usize] + table[r][f]
}

/// Material + position of `side`.
pub fn static_side(pos: &Position, side: usize) -> i32 {
    pos.pieces(side)
        .map(|sq| piece_score(pos.at(sq), side, sq))
        .sum()
}

/// The evaluation from the side to move's point of view: material and
/// position (Red − Black) plus [`MOBILITY`] per pseudo-legal move.
pub fn evaluate(pos: &Position) -> i32 {
    let mut red = static_side(pos, RED);
    let mut black = static_side(pos, BLACK);
    if MOBILITY != 0 {
        let mut l = MoveList::new();
        pos.gen_pseudo_for(RED, &mut l);
        red += MOBILITY * l.len() as i32;
        l.clear();
        pos.gen_pseudo_for(BLACK, &mut l);
        black += MOBILITY * l.len() as i32;
    }
    let v = red - black;
    if pos.side() == RED {
        v
    } else {
        -v
    }
}

/// Value of the piece captured by a move onto a point holding `code`
/// (0 for an empty point).
#[inline]
pub fn victim_value(code: u8) -> i32 {
    if code == 0 {
        0
    } else {
        VALUES[kind_of(code) as usize]
    }
}

/// Kind of soldier for the MVV-LVA attacker order (cheap attackers first).
#[inline]
pub fn attacker_rank(code: u8) -> i32 {
    match kind_of(code) {
        SOLDIER => 0,
        ADVISOR | ELEPHANT => 1,
        HORSE | CANNON => 2,
        CHARIOT => 3,
        _ => 4,
    }
}
