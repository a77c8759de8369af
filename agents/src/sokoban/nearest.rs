//! How far an unfinished solve got ([`LeastBound`], [`Solver::nearest`]):
//! the nearest position to the goals that its forward searches made, of
//! those a small search does not prove dead (tested in `least_tests.rs`).

use super::engine::Engine;
use super::{lurd, Solver};

/// The position with the least lower bound that a forward search of an
/// unfinished solve made, of those a small search (256 states) does not
/// prove dead: where it came nearest the goals by its own measure. Often
/// still a dead end (see `docs/sokoban-solver-log.md`, *Where the open levels
/// stall*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeastBound {
    /// Its lower bound: pushes still needed at least.
    pub bound: u32,
    /// The level's cells (`row * width + column`) that hold its boxes,
    /// ascending.
    pub boxes: Vec<usize>,
    /// A cell of the player's region (its top-left cell).
    pub player: usize,
    /// The moves from the start that reach it (LURD, upper case for the
    /// pushes).
    pub moves: String,
}

/// [`LeastBound`]: how many of a search's nearest positions are tried,
/// and the states a search that proves one dead may store.
const NEAREST_TRIES: usize = 64;
const NEAREST_PROOF: u32 = 256;

impl Solver {
    /// Out of time or of states: the position with the least bound that
    /// its forward searches made, of those a small search does not prove
    /// dead (the first engine's, on a tie); `None` once solved or proved
    /// unsolvable. It takes up to 64 small proofs per search:
    /// [`super::solve`] asks once, at the end.
    pub fn nearest(&self) -> Option<LeastBound> {
        let sh = self.board.as_ref()?;
        let b = &sh.board;
        let (s, id, bound) = self
            .engines
            .iter()
            .filter_map(|e| match e {
                Engine::Single { s, .. } | Engine::Bi { f: s, .. } => s
                    .nearest_alive(NEAREST_TRIES, NEAREST_PROOF)
                    .map(|id| (s, id, s.nodes[id as usize].h)),
                Engine::Serial(_) => None,
            })
            .min_by_key(|x| x.2)?;
        // The pushes replay (a failure would be a solver bug: no position
        // is reported then).
        let (moves, _) = lurd::play(b, &s.path(id))?;
        Some(LeastBound {
            bound,
            boxes: s
                .node_boxes(id)
                .iter()
                .map(|&c| b.grid_of[c as usize])
                .collect(),
            player: b.grid_of[s.nodes[id as usize].player as usize],
            moves: moves.text,
        })
    }
}
