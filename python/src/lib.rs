//! `arena._native`: every arena game as a Python forward model. The rules are
//! the Rust games themselves (crate `games`); level loading and the JSON view
//! are the harness's own ([`ArenaGame::load_level`], [`GameView::state_json`]),
//! so a Python agent sees exactly the states, legal moves and results that
//! `arena run` plays. `cli` is the whole `arena` command line, for the
//! package's `arena` command.
//!
//! One Python class, `State`, serves every game: inside it a boxed
//! `DynGame`, implemented once for every [`ArenaGame`]. Actions cross the
//! boundary as their names (`Game::action_name`), the same strings the
//! `arena-jsonl/2` protocol uses.

use games::Game;
use harness::registry::vgdl::VgdlPlay;
use harness::registry::{ArenaGame, GameView};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::any::Any;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

/// A game state without its type: what the Python class needs of a game.
trait DynGame: Send + Sync {
    fn name(&self) -> &str;
    fn boxed_clone(&self) -> Box<dyn DynGame>;
    fn as_any(&self) -> &dyn Any;
    fn num_players(&self) -> usize;
    fn is_active(&self, seat: usize) -> bool;
    fn legal_names(&self, seat: usize) -> Vec<String>;
    fn is_legal_name(&self, seat: usize, name: &str) -> bool;
    fn canonical_name(&self, seat: usize, text: &str) -> Option<String>;
    fn fallback_name(&self, seat: usize) -> String;
    fn advance_names(&mut self, joint: &[Option<&str>]) -> Result<(), String>;
    fn is_over(&self) -> bool;
    fn score(&self, seat: usize) -> f64;
    fn result(&self, seat: usize) -> &'static str;
    fn tick(&self) -> u32;
    fn state_json(&self, seat: usize) -> String;
    fn trace_json(&self) -> String;
    fn hash64(&self) -> u64;
    fn same(&self, other: &dyn DynGame) -> bool;
}

impl<G: ArenaGame + Hash + Eq> DynGame for G {
    fn name(&self) -> &str {
        self.game_name()
    }
    fn boxed_clone(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn num_players(&self) -> usize {
        Game::num_players(self)
    }
    fn is_active(&self, seat: usize) -> bool {
        seat < Game::num_players(self) && Game::is_active(self, seat)
    }
    fn legal_names(&self, seat: usize) -> Vec<String> {
        if seat >= Game::num_players(self) {
            return Vec::new();
        }
        self.legal_actions_vec(seat)
            .into_iter()
            .map(|a| self.action_name(a))
            .collect()
    }
    fn is_legal_name(&self, seat: usize, name: &str) -> bool {
        DynGame::is_active(self, seat)
            && !Game::is_over(self)
            && self
                .parse_action(seat, name)
                .is_some_and(|a| self.is_legal(seat, a))
    }
    fn canonical_name(&self, seat: usize, text: &str) -> Option<String> {
        self.parse_action(seat, text).map(|a| self.action_name(a))
    }
    fn fallback_name(&self, seat: usize) -> String {
        self.action_name(self.fallback_action(seat))
    }
    fn advance_names(&mut self, joint: &[Option<&str>]) -> Result<(), String> {
        if Game::is_over(self) {
            return Err(format!(
                "{}: the game is over (tick {})",
                self.game_name(),
                self.tick()
            ));
        }
        let n = Game::num_players(self);
        if joint.len() != n {
            return Err(format!(
                "{}: a joint action has {n} entries (one per seat), got {}",
                self.game_name(),
                joint.len()
            ));
        }
        let mut actions = Vec::with_capacity(n);
        for (seat, entry) in joint.iter().enumerate() {
            if !Game::is_active(self, seat) {
                // As the runner does: an inactive seat's entry is its fallback.
                actions.push(self.fallback_action(seat));
                continue;
            }
            let Some(name) = entry else {
                return Err(format!(
                    "{}: seat {seat} is active at tick {}: its action is missing",
                    self.game_name(),
                    self.tick()
                ));
            };
            let a = self.parse_action(seat, name).ok_or_else(|| {
                format!(
                    "{}: `{name}` is not an action ({})",
                    self.game_name(),
                    G::ACTION_SYNTAX
                )
            })?;
            if !self.is_legal(seat, a) {
                return Err(format!(
                    "{}: `{name}` is not legal for seat {seat} at tick {} (legal: {})",
                    self.game_name(),
                    self.tick(),
                    DynGame::legal_names(self, seat).join(", ")
                ));
            }
            actions.push(a);
        }
        self.advance(&actions);
        Ok(())
    }
    fn is_over(&self) -> bool {
        Game::is_over(self)
    }
    fn score(&self, seat: usize) -> f64 {
        Game::score(self, seat)
    }
    fn result(&self, seat: usize) -> &'static str {
        Game::result(self, seat).as_str()
    }
    fn tick(&self) -> u32 {
        Game::tick(self)
    }
    fn state_json(&self, seat: usize) -> String {
        GameView::state_json(self, seat).to_string()
    }
    fn trace_json(&self) -> String {
        ArenaGame::trace_json(self).to_string()
    }
    fn hash64(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }
    fn same(&self, other: &dyn DynGame) -> bool {
        other.as_any().downcast_ref::<G>() == Some(self)
    }
}

/// The games of the extension: the harness's registry, expanded here
/// through `harness::with_registered_games!` (so a game added to arena is
/// in the package without a line of its own).
macro_rules! game_list {
    ($($module:ident => $game:ty),* $(,)?) => {
        /// The names of the games, in `arena list` order.
        const GAME_NAMES: &[&str] = &[$(<$game as GameView>::NAME),*];

        /// Load level `spec` of game `name` as the harness does.
        fn load_game(name: &str, spec: &str, seed: u64, max_steps: Option<u32>) -> Result<Box<dyn DynGame>, String> {
            $(
                if name == <$game as GameView>::NAME {
                    let mut g = <$game as ArenaGame>::load_level(spec, seed).map_err(|e| e.to_string())?;
                    if let Some(m) = max_steps {
                        g.set_max_steps(m);
                    }
                    return Ok(Box::new(g));
                }
            )*
            // The VGDL family: gvgai:NAME and vgdl:PATH.
            if is_family(name) {
                let mut g = VgdlPlay::load_named(name, spec, seed).map_err(|e| e.to_string())?;
                if let Some(m) = max_steps {
                    g.set_max_steps(m);
                }
                return Ok(Box::new(g));
            }
            Err(format!("unknown game `{name}`; valid games: {}", GAME_NAMES.join(", ")))
        }
    };
}

harness::with_registered_games!(game_list);

/// Whether `name` is a game of the VGDL family (`gvgai:NAME`,
/// `gvgai2p:NAME`, `vgdl:PATH`).
fn is_family(name: &str) -> bool {
    name.starts_with("gvgai:") || name.starts_with("gvgai2p:") || name.starts_with("vgdl:")
}

/// A state of one arena game: the Rust game itself, advanced in place.
#[pyclass(name = "State", module = "arena")]
struct State {
    inner: Box<dyn DynGame>,
}

impl State {
    fn check_seat(&self, seat: usize) -> PyResult<usize> {
        let n = self.inner.num_players();
        if seat < n {
            Ok(seat)
        } else {
            Err(PyValueError::new_err(format!(
                "{}: seat {seat} does not exist ({n} player{})",
                self.inner.name(),
                if n == 1 { "" } else { "s" }
            )))
        }
    }

    /// `seat`, or the only active seat when `seat` is `None`.
    fn seat_or_mover(&self, seat: Option<usize>) -> PyResult<usize> {
        match seat {
            Some(s) => self.check_seat(s),
            None => self.only_active().ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{}: give a seat (tick {}: {} seats are active)",
                    self.inner.name(),
                    self.inner.tick(),
                    self.active().len()
                ))
            }),
        }
    }

    fn active(&self) -> Vec<usize> {
        (0..self.inner.num_players())
            .filter(|&s| self.inner.is_active(s))
            .collect()
    }

    fn only_active(&self) -> Option<usize> {
        match self.active()[..] {
            [s] => Some(s),
            _ => None,
        }
    }
}

#[pymethods]
impl State {
    /// The game's name (`bait`, `xiangqi`, `gvgai:aliens` ...).
    #[getter]
    fn game(&self) -> &str {
        self.inner.name()
    }

    /// A copy of this state (cheap: the Rust state is compact).
    fn clone(&self) -> State {
        State {
            inner: self.inner.boxed_clone(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Number of seats: 1 for puzzles, 2 for two-player games.
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    /// Whether `seat` chooses an action this tick.
    fn is_active(&self, seat: usize) -> PyResult<bool> {
        Ok(self.inner.is_active(self.check_seat(seat)?))
    }

    /// The seats that choose an action this tick.
    fn active_seats(&self) -> Vec<usize> {
        self.active()
    }

    /// The seat to move when exactly one seat is active (puzzles,
    /// alternating games), else `None` (game over, simultaneous moves).
    fn to_move(&self) -> Option<usize> {
        self.only_active()
    }

    /// The names of `seat`'s legal actions (default: the seat to move),
    /// in the game's order; empty when the seat is not active.
    #[pyo3(signature = (seat=None))]
    fn legal_actions(&self, seat: Option<usize>) -> PyResult<Vec<String>> {
        Ok(self.inner.legal_names(self.seat_or_mover(seat)?))
    }

    /// Whether `action` (a name) is legal for `seat` (default: the seat to move).
    #[pyo3(signature = (action, seat=None))]
    fn is_legal(&self, action: &str, seat: Option<usize>) -> PyResult<bool> {
        Ok(self.inner.is_legal_name(self.seat_or_mover(seat)?, action))
    }

    /// The canonical name of the action `text` names for `seat` (default:
    /// 0), or `None` when it names no action (legality aside).
    #[pyo3(signature = (text, seat=0))]
    fn parse_action(&self, text: &str, seat: usize) -> PyResult<Option<String>> {
        Ok(self.inner.canonical_name(self.check_seat(seat)?, text))
    }

    /// The action the harness plays for `seat` when its answer came after
    /// the soft time limit (Bait: `NIL`).
    #[pyo3(signature = (seat=0))]
    fn fallback_action(&self, seat: usize) -> PyResult<String> {
        Ok(self.inner.fallback_name(self.check_seat(seat)?))
    }

    /// Advance one tick. `action` is one action name (for the only active
    /// seat: puzzles and alternating games) or a joint action, a list with
    /// one name per seat (`None` allowed for inactive seats, which play
    /// their fallback as in the harness). Raises `ValueError` for an
    /// unknown or illegal action or when the game is over.
    fn advance(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let r = if action.is_instance_of::<PyString>() {
            let name: String = action.extract()?;
            let name = name.as_str();
            let n = self.inner.num_players();
            if n == 1 {
                self.inner.advance_names(&[Some(name)])
            } else {
                let seat = self.only_active().ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "{}: {} seats are active at tick {}: give a joint action (a list with one name per seat)",
                        self.inner.name(),
                        self.active().len(),
                        self.inner.tick()
                    ))
                })?;
                let mut joint: Vec<Option<&str>> = vec![None; n];
                joint[seat] = Some(name);
                self.inner.advance_names(&joint)
            }
        } else if action.is_instance_of::<PyList>() || action.is_instance_of::<PyTuple>() {
            let items: Vec<Option<String>> = action.extract()?;
            let joint: Vec<Option<&str>> = items.iter().map(|s| s.as_deref()).collect();
            self.inner.advance_names(&joint)
        } else {
            return Err(PyTypeError::new_err(
                "advance() takes an action name (str) or a list of names, one per seat",
            ));
        };
        r.map_err(PyValueError::new_err)
    }

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The score of `seat` so far.
    #[pyo3(signature = (seat=0))]
    fn score(&self, seat: usize) -> PyResult<f64> {
        Ok(self.inner.score(self.check_seat(seat)?))
    }

    /// How the game stands for `seat`: `win`, `loss`, `draw`, or `none`
    /// while it is not over.
    #[pyo3(signature = (seat=0))]
    fn result(&self, seat: usize) -> PyResult<&'static str> {
        Ok(self.inner.result(self.check_seat(seat)?))
    }

    /// Number of ticks (plies) played so far.
    fn tick(&self) -> u32 {
        self.inner.tick()
    }

    /// The state as JSON text, as seen by `seat`: exactly the `state` of
    /// the harness's `arena-jsonl/2` messages.
    #[pyo3(signature = (seat=0))]
    fn to_json(&self, seat: usize) -> PyResult<String> {
        Ok(self.inner.state_json(self.check_seat(seat)?))
    }

    /// The state as `arena trace <game>` prints it (JSON text).
    fn trace_json(&self) -> String {
        self.inner.trace_json()
    }

    fn __hash__(&self) -> u64 {
        self.inner.hash64()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.extract::<PyRef<'_, State>>() {
            Ok(o) => self.inner.same(o.inner.as_ref()),
            Err(_) => false,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<arena.State {} tick={}{}>",
            self.inner.name(),
            self.inner.tick(),
            if self.inner.is_over() { " over" } else { "" }
        )
    }
}

/// Counter for the temporary files of levels given as text.
static TEXT_LEVELS: AtomicU64 = AtomicU64::new(0);

/// Load a level of `game` as the harness does: a built-in level name, a
/// path to a level file, or (when it holds a line break) the text of a
/// level file. `seed` is the episode seed (Snake's `random` map);
/// `max_steps` is a config's `max_steps`.
#[pyfunction]
#[pyo3(signature = (game, level, seed=0, max_steps=None))]
fn load(game: &str, level: &str, seed: u64, max_steps: Option<u32>) -> PyResult<State> {
    if !GAME_NAMES.contains(&game) && !is_family(game) {
        return Err(PyValueError::new_err(format!(
            "unknown game `{game}`; valid games: {}, gvgai:NAME, vgdl:PATH",
            GAME_NAMES.join(", ")
        )));
    }
    let inner = if level.contains('\n') {
        let n = TEXT_LEVELS.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("arena-level-{}-{n}.txt", std::process::id()));
        std::fs::write(&path, level)
            .map_err(|e| PyRuntimeError::new_err(format!("{}: {e}", path.display())))?;
        let r = load_game(game, &path.to_string_lossy(), seed, max_steps);
        let _ = std::fs::remove_file(&path);
        r
    } else {
        load_game(game, level, seed, max_steps)
    };
    inner
        .map(|inner| State { inner })
        .map_err(PyValueError::new_err)
}

/// The names of the games, in `arena list` order.
#[pyfunction]
#[pyo3(name = "games")]
fn game_names() -> Vec<&'static str> {
    GAME_NAMES.to_vec()
}

/// Run the `arena` command line with `args` (the program's name first) and
/// return its exit code: the installed package's `arena` command
/// (`arena/_cli.py`). The GIL is released while it runs.
#[pyfunction]
fn cli(py: Python<'_>, args: Vec<std::ffi::OsString>) -> i32 {
    py.detach(|| harness::cli::entry::main(args))
}

/// The native part of the `arena` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(game_names, m)?)?;
    m.add_function(wrap_pyfunction!(cli, m)?)?;
    // The protocol version whose views `to_json` gives (`arena.PROTOCOL`).
    m.add("PROTOCOL", harness::external::protocols::jsonl::VERSION)?;
    Ok(())
}
