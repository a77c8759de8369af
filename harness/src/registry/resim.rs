//! Re-playing an episode's recorded actions with the game's rules, for
//! every game alike: what replays store for a viewer (a JSON view per
//! tick) and what `arena replay` checks them against.

use super::arena_game::ArenaGame;
use crate::error::HarnessError;
use games::PlayerResult;
use serde_json::Value;

/// What re-playing an episode's actions gives; `S` holds the states
/// (JSON values, or a JSON array's text: `StatesJson`).
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed<S = Vec<Value>> {
    /// The state before the first tick and after each tick (one more than
    /// the ticks): [`crate::registry::GameView::state_json`] of seat 0 with the
    /// keys of [`ArenaGame::trace_json`] laid over it, so that a viewer has
    /// the whole board and every key of `arena trace`.
    pub states: S,
    /// For each tick, the seats that chose an action.
    pub active: Vec<Vec<usize>>,
    /// Each seat's score at the end.
    pub scores: Vec<f64>,
    /// Each seat's result at the end (by the rules; forfeits are not seen here).
    pub results: Vec<PlayerResult>,
    /// Whether the game is over at the end.
    pub over: bool,
}

/// The JSON view stored per tick (see [`Replayed::states`]):
/// [`ArenaGame::replay_view`].
pub fn view<G: ArenaGame>(state: &G) -> Value {
    state.replay_view()
}

/// Where re-played states go, one [`view`] per state.
pub trait StateSink {
    /// Add the view of `state`.
    fn push_view<G: ArenaGame>(&mut self, state: &G);
}

impl StateSink for Vec<Value> {
    fn push_view<G: ArenaGame>(&mut self, state: &G) {
        self.push(view(state));
    }
}

/// The states as the text of one JSON array, each written by
/// [`ArenaGame::write_view`] (the same text as serializing the [`view`]s).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatesJson {
    /// `[`, the states separated by `,`, then `]` once [`StatesJson::finish`]ed.
    pub bytes: Vec<u8>,
    /// States written so far.
    pub count: usize,
}

impl StatesJson {
    /// Close the array.
    pub fn finish(&mut self) {
        if self.count == 0 {
            self.bytes.push(b'[');
        }
        self.bytes.push(b']');
    }
}

impl StateSink for StatesJson {
    fn push_view<G: ArenaGame>(&mut self, state: &G) {
        self.bytes.push(if self.count == 0 { b'[' } else { b',' });
        state.write_view(&mut self.bytes);
        self.count += 1;
    }
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
    replay_into::<G, _>(game, level, seed, max_steps, moves, Vec::new())
}

/// [`replay`] with the states written to `states`.
pub fn replay_into<G: ArenaGame, S: StateSink>(
    game: &str,
    level: &str,
    seed: u64,
    max_steps: Option<u32>,
    moves: &[String],
    mut states: S,
) -> Result<Replayed<S>, HarnessError> {
    let mut state = G::load_named(game, level, seed)?;
    if let Some(m) = max_steps {
        state.set_max_steps(m);
    }
    let players = state.num_players();
    let mut active_all = Vec::with_capacity(moves.len());
    states.push_view(&state);
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
        states.push_view(&state);
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
