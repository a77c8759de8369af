//! VGDL games in the harness: one registry entry for a family of games,
//! `gvgai:NAME` (GVGAI's 110 shipped grid games, embedded in the binary,
//! levels `0`-`4` or a level file), `gvgai2p:NAME` (GVGAI's 60 two-player
//! games, the same way) and `vgdl:PATH` (anyone's VGDL file, for any
//! number of players; levels are GVGAI level files, and `0`-`4` name
//! `STEM_lvlN.txt` beside it). [`VgdlPlay`] is the game the run loop plays: the engine's
//! [`VgdlGame`] with its name and compiled rules behind an `Arc`, so that
//! [`ArenaGame::load_named`] builds it from the game's name.

mod bench;
mod family;
mod view;

pub use family::{Info, Set, FAMILY};

use super::arena_game::{ArenaGame, GameView, LevelInfo};
use crate::error::HarnessError;
use agents::{AgentError, AgentInfo, AgentParams};
use games::vgdl::{Action, VgdlGame, Winner};
use games::{Agent, AgentStats, Game, PlayerResult, Seat, Timer};
use std::sync::{Arc, OnceLock};

/// One level of a VGDL game being played, with the game it belongs to.
#[derive(Clone, Debug)]
pub struct VgdlPlay {
    info: Arc<Info>,
    /// The engine's state.
    pub game: VgdlGame,
    /// A config's `max_steps`: the game is over after this many ticks.
    max_steps: u32,
}

impl VgdlPlay {
    /// The game's description (name, rules, levels).
    pub fn info(&self) -> &Info {
        &self.info
    }

    /// Whether a config's `max_steps` has ended the game.
    fn cut(&self) -> bool {
        self.game.tick() >= self.max_steps
    }
}

impl Game for VgdlPlay {
    type Action = Action;

    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn is_active(&self, seat: Seat) -> bool {
        !self.cut() && self.game.is_active(seat)
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if !self.cut() {
            self.game.legal_actions(seat, out)
        }
    }
    fn fallback_action(&self, seat: Seat) -> Action {
        self.game.fallback_action(seat)
    }
    fn advance(&mut self, joint: &[Action]) {
        if !self.cut() {
            self.game.advance(joint)
        }
    }
    fn is_over(&self) -> bool {
        self.cut() || self.game.is_over()
    }
    fn score(&self, seat: Seat) -> f64 {
        self.game.score(seat)
    }
    /// One player: a win if GVGAI's win state says so, else a loss (a
    /// `max_steps` cut is a loss). Several players: the seat's result
    /// against the others, from GVGAI's per-player win states ([`versus`]).
    fn result(&self, seat: Seat) -> PlayerResult {
        if !self.is_over() {
            return PlayerResult::Ongoing;
        }
        let st = &self.game.state;
        // A cut game that the engine did not end: nobody won.
        let won = |p: usize| self.game.is_over() && st.winner_of(p) == Winner::Win;
        let n = st.players();
        if n == 1 {
            return PlayerResult::of_puzzle(true, won(0));
        }
        versus(won(seat), (0..n).filter(|&p| p != seat).map(won))
    }
    fn tick(&self) -> u32 {
        self.game.tick()
    }
    fn action_name(&self, action: Action) -> String {
        self.game.action_name(action)
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Option<Action> {
        self.game.parse_action(seat, text)
    }
}

/// A seat's result in a game of several players from GVGAI's win states,
/// its own (`me`) and the others': a win when it won and some other player
/// did not, a loss when it did not win and some other player did, a draw
/// when all won or none did (GVGAI's two-player games can end with both
/// players winning or both losing; the harness's result is the head-to-head
/// one that ratings count).
pub fn versus(me: bool, others: impl Iterator<Item = bool>) -> PlayerResult {
    let (mut any, mut all) = (false, true);
    for w in others {
        any |= w;
        all &= w;
    }
    match (me, any, all) {
        (true, _, false) => PlayerResult::Win,
        (false, true, _) => PlayerResult::Loss,
        _ => PlayerResult::Draw,
    }
}

/// Two states are equal when they are of the same loaded game and agree on
/// the engine's public state: every sprite, resources, the avatar, score,
/// result, tick, the random generator, the other players' avatars, scores
/// and results, and the game's counters (what a Python agent keys a
/// transposition table on).
impl PartialEq for VgdlPlay {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.game.state, &other.game.state);
        Arc::ptr_eq(&a.rules, &b.rules)
            && self.max_steps == other.max_steps
            && a.ticks == b.ticks
            && a.ended == b.ended
            && a.winner == b.winner
            && a.score.to_bits() == b.score.to_bits()
            && a.rng == b.rng
            && a.avatar == b.avatar
            && a.resources == b.resources
            && a.sprites == b.sprites
            && a.counters == b.counters
            && a.others.len() == b.others.len()
            && a.others.iter().zip(&b.others).all(|(x, y)| {
                x.avatar == y.avatar
                    && x.score.to_bits() == y.score.to_bits()
                    && x.winner == y.winner
            })
    }
}

impl Eq for VgdlPlay {}

impl std::hash::Hash for VgdlPlay {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let st = &self.game.state;
        (st.ticks, st.ended, st.score.to_bits(), st.rng, st.avatar).hash(h);
        st.resources.hash(h);
        st.counters.hash(h);
        for o in &st.others {
            (o.avatar, o.score.to_bits(), o.winner).hash(h);
        }
        for s in &st.sprites {
            (s.id, s.ty, s.x, s.y).hash(h);
        }
    }
}

impl GameView for VgdlPlay {
    /// The family; each game answers [`GameView::game_name`] with its own.
    const NAME: &'static str = "gvgai:NAME, gvgai2p:NAME, vgdl:PATH";

    fn game_name(&self) -> &str {
        self.info.name
    }

    fn state_json(&self, seat: usize) -> serde_json::Value {
        view::state_json(self, seat)
    }
}

/// **The family's agents**: the one place they are listed. They play the
/// engine's [`VgdlGame`] itself (no per-copy cost for the family's name):
/// GVGAI's sample agents (`agents::vgdl`: `random`, `onesteplookahead`,
/// `mcts`) first, then the generic ones (`agents::generic`) whose names
/// the VGDL agents do not take (`random` is GVGAI's sampleRandom here),
/// built by [`make_engine_agent`].
fn engine_agents() -> Vec<AgentInfo> {
    let mut list = agents::vgdl::AGENTS.to_vec();
    list.extend(
        agents::generic::AGENTS
            .iter()
            .filter(|g| !agents::vgdl::AGENTS.iter().any(|v| v.name == g.name))
            .cloned(),
    );
    list
}

/// Builds agent `name` of [`engine_agents`] for the engine's [`VgdlGame`].
fn make_engine_agent(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<VgdlGame>>, AgentError> {
    if agents::vgdl::AGENTS.iter().any(|a| a.name == name) {
        agents::vgdl::make(name, params, seed)
    } else {
        agents::generic::make::<VgdlGame>(name, params, seed)
    }
}

/// An agent of the engine's [`VgdlGame`] playing a [`VgdlPlay`].
struct OnEngine(Box<dyn Agent<VgdlGame>>);

impl Agent<VgdlPlay> for OnEngine {
    fn init(&mut self, state: &VgdlPlay, seat: Seat, timer: &dyn Timer) {
        self.0.init(&state.game, seat, timer)
    }
    fn act(&mut self, state: &VgdlPlay, seat: Seat, timer: &dyn Timer) -> Action {
        self.0.act(&state.game, seat, timer)
    }
    fn end(&mut self, state: &VgdlPlay, seat: Seat) {
        self.0.end(&state.game, seat)
    }
    fn stats(&self) -> AgentStats {
        self.0.stats()
    }
}

impl ArenaGame for VgdlPlay {
    const DESCRIPTION: &'static str =
        "VGDL games: GVGAI's 110 grid games (gvgai:NAME, levels 0-4), \
         its 60 two-player games (gvgai2p:NAME, simultaneous moves) and any VGDL file (vgdl:PATH, \
         levels are GVGAI level files; 0-4 name PATH's STEM_lvlN.txt)";
    const ACTION_SYNTAX: &'static str =
        "UP, DOWN, LEFT, RIGHT, USE or NIL; A/B with one per player in a two-player game";
    // GVGAI's engine takes any action and the avatar ignores what its class
    // cannot do; GVGAI's reference records draw each player's actions from
    // its avatar at the start, which a transformed avatar may no longer
    // have (gvgai2p:mimic, portals, rivalry), so `arena trace` plays them.
    const TRACE_CHECKS_LEGALITY: bool = false;

    fn builtin_levels() -> Vec<LevelInfo> {
        Vec::new()
    }

    fn load_level(spec: &str, _seed: u64) -> Result<Self, HarnessError> {
        Err(HarnessError::Config(format!(
            "level `{spec}`: a VGDL game is loaded by its name (gvgai:NAME or vgdl:PATH)"
        )))
    }

    fn load_named(game: &str, spec: &str, seed: u64) -> Result<Self, HarnessError> {
        let (info, spec) = if let Some(set) = family::Set::every_of(game) {
            family::split_every(set, spec)?
        } else {
            (family::info(game)?, spec)
        };
        let game = info.level(spec, seed)?;
        Ok(VgdlPlay {
            info,
            game,
            max_steps: u32::MAX,
        })
    }

    /// VGDL games end at GVGAI's 2,000 ticks; `max_steps` ends one sooner
    /// (a loss unless the game was won; with several players, nobody won:
    /// a draw).
    fn set_max_steps(&mut self, max_steps: u32) {
        self.max_steps = max_steps;
    }

    fn agents() -> &'static [AgentInfo] {
        static LIST: OnceLock<Vec<AgentInfo>> = OnceLock::new();
        LIST.get_or_init(engine_agents)
    }

    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        Ok(Box::new(OnEngine(make_engine_agent(name, params, seed)?)))
    }

    fn trace_json(&self) -> serde_json::Value {
        view::trace_json(&self.game)
    }
}

#[cfg(test)]
mod tests;
