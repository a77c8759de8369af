//! Re-playing an episode's recorded actions with the game's rules, for
//! every game alike: what replays store for a viewer (a JSON view per
//! tick) and what `arena replay` checks them against.

use super::arena_game::ArenaGame;
use crate::error::HarnessError;
use games::PlayerResult;
use serde_json::Value;

/// What re-playing an episode's actions gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// The state before the first tick and after each tick (one more than
    /// the ticks): [`crate::registry::GameView::state_json`] of seat 0 with the
    /// keys of [`ArenaGame::trace_json`] laid over it, so that a viewer has
    /// the whole board and every key of `arena trace`.
    pub states: Vec<Value>,
    /// For each tick, the seats that chose an action.
    pub active: Vec<Vec<usize>>,
    /// Each seat's score at the end.
    pub scores: Vec<f64>,
    /// Each seat's result at the end (by the rules; forfeits are not seen here).
    pub results: Vec<PlayerResult>,
    /// Whether the game is over at the end.
    pub over: bool,
}

/// The JSON view stored per tick (see [`Replayed::states`]).
pub fn view<G: ArenaGame>(state: &G) -> Value {
    let mut v = state.state_json(0);
    if let (Value::Object(all), Value::Object(trace)) = (&mut v, state.trace_json()) {
        for (k, x) in trace {
            all.insert(k, x);
        }
    }
    v
}

/// Re-play `moves` (one entry per tick, the active seats' action names
/// joined by `/`, as [`crate::play::runner::EpisodeRecord::moves`]) from level
/// `level` of game `game` loaded with `seed`, under `max_steps`. An action that does not
/// parse, or a move after the end, is a [`HarnessError::CheckFailed`].
pub fn replay<G: ArenaGame>(
    game: &str,
    level: &str,
    seed: u64,
    max_steps: Option<u32>,
    moves: &[String],
) -> Result<Replayed, HarnessError> {
    let mut state = G::load_named(game, level, seed)?;
    if let Some(m) = max_steps {
        state.set_max_steps(m);
    }
    let players = state.num_players();
    let mut states = Vec::with_capacity(moves.len() + 1);
    let mut active_all = Vec::with_capacity(moves.len());
    states.push(view(&state));
    for (t, m) in moves.iter().enumerate() {
        let bad = |why: &str| {
            HarnessError::CheckFailed(format!("tick {t}: move `{m}` cannot be replayed: {why}"))
        };
        if state.is_over() {
            return Err(bad("the game is already over"));
        }
        let active: Vec<usize> = (0..players).filter(|&s| state.is_active(s)).collect();
        let parts: Vec<&str> = match active.len() {
            0 => Vec::new(),
            1 => vec![m.as_str()],
            _ => m.split('/').collect(),
        };
        if parts.len() != active.len() {
            return Err(bad(&format!(
                "{} seats are to move, {} actions given",
                active.len(),
                parts.len()
            )));
        }
        let mut joint: Vec<G::Action> = (0..players).map(|s| state.fallback_action(s)).collect();
        for (&s, p) in active.iter().zip(&parts) {
            joint[s] = state
                .parse_action(s, p)
                .ok_or_else(|| bad(&format!("seat {s}: `{p}` is not an action")))?;
        }
        state.advance(&joint);
        states.push(view(&state));
        active_all.push(active);
    }
    Ok(Replayed {
        states,
        active: active_all,
        scores: (0..players).map(|s| state.score(s)).collect(),
        results: (0..players).map(|s| state.result(s)).collect(),
        over: state.is_over(),
    })
}
