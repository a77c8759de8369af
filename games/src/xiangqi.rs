//! **Xiangqi** (Chinese chess): complete rules, perft-exact move generation,
//! FEN and ICCS notation, and the game-end rules the harness adjudicates.
//!
//! # Board and notation
//! Files `a`..`i` from left to right as Red sees the board, ranks `0`..`9`
//! from Red's back rank (ICCS / UCCI / Pikafish numbering): the central
//! cannon opening is `h2e2`. Fairy-Stockfish in UCI mode numbers ranks
//! `1`..`10` (`h3e3`, `b10c8`): convert with [`iccs_to_fsf`] / [`fsf_to_iccs`]
//! (or [`Move::fsf_uci`] / [`Move::parse_fsf_uci`]). FEN is the Pikafish /
//! Fairy-Stockfish form (`K A B N R C P`, also `E`/`H` on input; side `w` or
//! `b`, `r` accepted for Red), see [`Position::from_fen`].
//!
//! # Move rules
//! General: one orthogonal step inside the palace. Advisor: one diagonal step
//! inside the palace. Elephant: two diagonal steps, blocked when the eye (the
//! midpoint) is occupied, never across the river. Horse: one orthogonal then
//! one diagonal step outward, blocked when the leg (the orthogonal neighbour)
//! is occupied. Chariot: any distance orthogonally. Cannon: moves like a
//! chariot, captures by jumping exactly one piece of either colour. Soldier:
//! one step forward, plus one sideways after crossing the river. The two
//! generals may never face each other on an open file, and no move may leave
//! one's own general attacked.
//!
//! # Game end (the harness's adjudication; see `docs/xiangqi.md`)
//! Checked after every move, in this order:
//! 1. the side to move has no legal move: it **loses**, whether in check
//!    (checkmate) or not (stalemate, 困毙);
//! 2. the position (board and side to move) occurs for the **third time**
//!    since the last capture: if one side gave check with *every* one of its
//!    moves since the first of the three occurrences and the other did not,
//!    the checking side **loses** (perpetual check, 长将); otherwise (no
//!    checks, or both sides checking throughout) it is a **draw**. Perpetual
//!    chasing (长捉) is *not* judged: such repetitions are draws;
//! 3. 120 plies without a capture (Pikafish's "rule 60", the FEN half-move
//!    clock counts them; checks are not exempted): **draw**;
//! 4. the game reaches its maximum length ([`DEFAULT_MAX_PLIES`] plies unless
//!    set with [`Xiangqi::with_max_plies`]): **draw**.
//!
//! # Seats
//! Seat 0 is Red, seat 1 is Black; the seat of the side to move is active.
//! The score of a seat is `1` for a win, `0` for a draw or an unfinished game,
//! `-1` for a loss.
//!
//! # Identity
//! `Hash`/`Eq` of [`Xiangqi`] cover the position only (board and side to
//! move), not the move history, the counters or the ply: search treats equal
//! positions as one (repetition is the search's business).

mod position;
#[cfg(test)]
mod tests;

pub use position::{
    code, file_of, fsf_to_iccs, iccs_to_fsf, kind_of, rank_of, side_of, square, Move, MoveList,
    Position, Undo, ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, EMPTY, HORSE, KING, MAX_MOVES, OFF,
    ON_BOARD, OWN_HALF, PALACE, RED, SOLDIER, START_FEN,
};

use crate::api::{Game, PlayerResult, Seat};
use crate::grid::ParseError;
use std::hash::{Hash, Hasher};

/// The default maximum game length in plies (a draw when reached).
pub const DEFAULT_MAX_PLIES: u32 = 400;
/// Plies without a capture after which the game is drawn.
pub const NO_CAPTURE_PLIES: u32 = 120;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (it loses).
    Stalemate,
    /// Third occurrence of a position, one side checking throughout: it loses.
    PerpetualCheck,
    /// Third occurrence of a position without a perpetual checker: draw.
    Repetition,
    /// 120 plies without a capture: draw.
    NoCapture,
    /// The maximum game length was reached: draw.
    MaxLength,
}

impl EndReason {
    /// A lower-case label (`checkmate`, `stalemate`, `perpetual-check`,
    /// `repetition`, `no-capture-120`, `max-length`).
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::Repetition => "repetition",
            EndReason::NoCapture => "no-capture-120",
            EndReason::MaxLength => "max-length",
        }
    }
}

/// The end of a game: the winning side (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// [`RED`] or [`BLACK`], or `None` for a draw.
    pub winner: Option<usize>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// A game of Xiangqi: the position plus the history the end rules need.
#[derive(Clone, Debug)]
pub struct Xiangqi {
    pos: Position,
    /// Hash of every position of the game, the initial one first.
    hashes: Vec<u64>,
    /// `gave_check[i]`: whether ply `i` left the opponent in check.
    gave_check: Vec<bool>,
    moves: Vec<Move>,
    max_plies: u32,
    outcome: Option<Outcome>,
}

impl PartialEq for Xiangqi {
    fn eq(&self, other: &Self) -> bool {
        self.pos == other.pos
    }
}
impl Eq for Xiangqi {}

impl Hash for Xiangqi {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.pos.hash());
    }
}

impl Default for Xiangqi {
    fn default() -> Self {
        Self::new()
    }
}

impl Xiangqi {
    /// A game from the standard start position.
    pub fn new() -> Xiangqi {
        Xiangqi::from_position(Position::start())
    }

    /// A game from a FEN (see [`Position::from_fen`]).
    pub fn from_fen(fen: &str) -> Result<Xiangqi, ParseError> {
        Ok(Xiangqi::from_position(Position::from_fen(fen)?))
    }

    /// A game from a position. If the side to move has no legal move, the
    /// game is over at once.
    pub fn from_position(pos: Position) -> Xiangqi {
        let mut g = Xiangqi {
            hashes: vec![pos.hash()],
            pos,
            gave_check: Vec::new(),
            moves: Vec::new(),
            max_plies: DEFAULT_MAX_PLIES,
            outcome: None,
        };
        g.adjudicate();
        g
    }

    /// Set the maximum game length in plies (a draw when reached; 0 = no limit).
    pub fn with_max_plies(mut self, max_plies: u32) -> Xiangqi {
        self.set_max_plies(max_plies);
        self
    }

    /// Set the maximum game length in plies (0 = no limit).
    pub fn set_max_plies(&mut self, max_plies: u32) {
        self.max_plies = if max_plies == 0 { u32::MAX } else { max_plies };
        if self.outcome.map(|o| o.reason) == Some(EndReason::MaxLength) {
            self.outcome = None;
        }
        self.adjudicate();
    }

    /// The maximum game length in plies.
    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The hashes of all positions of the game so far, the initial one first
    /// and the current one last.
    pub fn history(&self) -> &[u64] {
        &self.hashes
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        self.pos.to_fen()
    }

    /// The legal moves of the side to move (empty when the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut p = self.pos.clone();
        let mut l = MoveList::new();
        p.gen_legal(&mut l);
        l.as_slice().to_vec()
    }

    /// Play `m` for the side to move; `false` (and no change) if it is not
    /// legal or the game is over.
    pub fn play(&mut self, m: Move) -> bool {
        if self.outcome.is_some() || !self.pos.is_legal(m) {
            return false;
        }
        self.pos.make(m);
        self.moves.push(m);
        self.hashes.push(self.pos.hash());
        let check = self.pos.in_check();
        self.gave_check.push(check);
        self.adjudicate();
        true
    }

    /// Play a sequence of ICCS moves; the error names the first move that
    /// does not parse or is illegal (0-based index).
    pub fn play_iccs(&mut self, moves: &[&str]) -> Result<(), String> {
        for (i, t) in moves.iter().enumerate() {
            let m = Move::parse_iccs(t).ok_or_else(|| format!("move {i} `{t}` is not ICCS"))?;
            if !self.play(m) {
                return Err(format!("move {i} `{t}` is illegal in {}", self.fen()));
            }
        }
        Ok(())
    }

    fn adjudicate(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let stm = self.pos.side();
        let mut p = self.pos.clone();
        if !p.has_legal_move() {
            let reason = if p.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            self.outcome = Some(Outcome {
                winner: Some(1 - stm),
                reason,
            });
            return;
        }
        if let Some(o) = self.repetition() {
            self.outcome = Some(o);
            return;
        }
        if self.pos.halfmove() >= NO_CAPTURE_PLIES {
            self.outcome = Some(Outcome {
                winner: None,
                reason: EndReason::NoCapture,
            });
            return;
        }
        if self.moves.len() as u64 >= self.max_plies as u64 {
            self.outcome = Some(Outcome {
                winner: None,
                reason: EndReason::MaxLength,
            });
        }
    }

    /// The repetition rule (see the module docs): `Some` on the third
    /// occurrence of the current position since the last capture.
    fn repetition(&self) -> Option<Outcome> {
        let n = self.hashes.len();
        let cur = self.hashes[n - 1];
        // positions since the last capture (within this game's history)
        let reversible = (self.pos.halfmove() as usize).min(n - 1);
        let first_idx = n - 1 - reversible;
        let mut occurrences = 0;
        let mut first = n - 1;
        let mut i = n - 1;
        loop {
            if self.hashes[i] == cur {
                occurrences += 1;
                first = i;
            }
            if i < first_idx + 2 || i < 2 {
                break;
            }
            i -= 2; // same side to move only
        }
        if occurrences < 3 {
            return None;
        }
        // plies first..n-1 (moves with index first..n-2) form the cycles
        let mut all_check = [true, true];
        let mover_of = |ply: usize| {
            // side that played move `ply`: the side to move at position `ply`
            let stm_now = self.pos.side();
            if (n - 1 - ply) % 2 == 1 {
                1 - stm_now
            } else {
                stm_now
            }
        };
        for ply in first..n - 1 {
            if !self.gave_check[ply] {
                all_check[mover_of(ply)] = false;
            }
        }
        let winner = match all_check {
            [true, false] => Some(BLACK),
            [false, true] => Some(RED),
            _ => None,
        };
        Some(Outcome {
            winner,
            reason: if winner.is_some() {
                EndReason::PerpetualCheck
            } else {
                EndReason::Repetition
            },
        })
    }

    /// The deterministic fallback move: the legal move whose ICCS text
    /// (`a0a1` … `i9i8`) sorts first, i.e. smallest origin (file, then rank)
    /// then smallest destination. [`Move::NULL`] when there is none.
    pub fn fallback_move(&self) -> Move {
        self.legal_moves()
            .into_iter()
            .min_by_key(|m| {
                (
                    file_of(m.from()),
                    rank_of(m.from()),
                    file_of(m.to()),
                    rank_of(m.to()),
                )
            })
            .unwrap_or(Move::NULL)
    }
}

impl Game for Xiangqi {
    type Action = Move;

    fn num_players(&self) -> usize {
        2
    }

    fn is_active(&self, seat: Seat) -> bool {
        self.outcome.is_none() && seat == self.pos.side()
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Move>) {
        if self.is_active(seat) {
            out.extend(self.legal_moves());
        }
    }

    fn is_legal(&self, seat: Seat, action: Move) -> bool {
        self.is_active(seat) && self.pos.clone().is_legal(action)
    }

    /// See [`Xiangqi::fallback_move`] (the inactive seat gets [`Move::NULL`]).
    fn fallback_action(&self, seat: Seat) -> Move {
        if self.is_active(seat) {
            self.fallback_move()
        } else {
            Move::NULL
        }
    }

    fn advance(&mut self, joint: &[Move]) {
        let stm = self.pos.side();
        if let Some(&m) = joint.get(stm) {
            self.play(m);
        }
    }

    fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    fn score(&self, seat: Seat) -> f64 {
        match self.result(seat) {
            PlayerResult::Win => 1.0,
            PlayerResult::Loss => -1.0,
            _ => 0.0,
        }
    }

    fn result(&self, seat: Seat) -> PlayerResult {
        match self.outcome {
            None => PlayerResult::Ongoing,
            Some(Outcome { winner: None, .. }) => PlayerResult::Draw,
            Some(Outcome {
                winner: Some(w), ..
            }) => {
                if w == seat {
                    PlayerResult::Win
                } else {
                    PlayerResult::Loss
                }
            }
        }
    }

    fn tick(&self) -> u32 {
        self.moves.len() as u32
    }

    fn action_name(&self, action: Move) -> String {
        action.iccs()
    }

    fn parse_action(&self, _seat: Seat, text: &str) -> Option<Move> {
        Move::parse_iccs(text)
    }
}

/// The perft test vectors shipped in `games/data/xiangqi/perft.txt` (see its
/// header for sources): `FEN;perft(1);perft(2);...` per line, `#` comments.
pub const PERFT_DATA: &str = include_str!("../data/xiangqi/perft.txt");

/// One perft vector: a FEN and the leaf counts for depths 1, 2, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftVector {
    /// The position.
    pub fen: String,
    /// `counts[d - 1]` = perft(d).
    pub counts: Vec<u64>,
}

/// Parse perft vectors in the format of [`PERFT_DATA`]; errors name the line
/// and column.
pub fn parse_perft_vectors(text: &str) -> Result<Vec<PerftVector>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut parts = t.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        Position::from_fen(&fen).map_err(|e| ParseError::new(i + 1, e.column, e.message))?;
        let mut counts = Vec::new();
        let mut col = fen.len() + 2;
        for p in parts {
            let v: u64 = p.trim().parse().map_err(|_| {
                ParseError::new(i + 1, col, format!("`{}` is not a node count", p.trim()))
            })?;
            counts.push(v);
            col += p.len() + 1;
        }
        out.push(PerftVector { fen, counts });
    }
    Ok(out)
}
