//! A VGDL engine that plays GVGAI's own game files the way GVGAI's real
//! game loop plays them (trace-identical on the shipped reference traces).
//!
//! - [`parse`] reads VGDL text into a syntax tree with GVGAI's quirks;
//! - `compile::compile` resolves names, classes and GVGAI's
//!   parameter defaults (an unknown class, effect or termination is a
//!   located error listing GVGAI's names; a GVGAI feature this engine does
//!   not implement is [`VgdlError::Unsupported`], naming each one);
//! - [`VgdlGame`] is a level being played: [`crate::Game`] with GVGAI's
//!   actions, the seeded `java.util.Random` ([`rng::JavaRandom`]) drawn
//!   where GVGAI draws, and [`VgdlGame::trace`] giving the state in the
//!   reference traces' shape.

mod cells;
mod compile;
mod engine;
mod events;
mod inert;
pub mod model;
mod more_effects;
mod multi;
pub mod names;
mod packed;
pub mod parse;
mod path;
mod pool;
pub mod rng;
mod sprites;
mod store;
mod trace;

pub use engine::{Sprite, Sprites, State, Winner, MAX_TIMESTEPS, PREV_NONE};
pub use model::{Action, Class, Rules};
pub use multi::{Player, TracePlayer, MAX_PLAYERS};
pub use pool::{PoolVec, Spare};
pub use trace::{TraceAvatar, TraceState};

use crate::grid::ParseError;
use crate::{Game, PlayerResult, Seat};
use std::sync::Arc;

/// Why a VGDL game could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VgdlError {
    /// The text is not valid VGDL (located).
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// Valid GVGAI VGDL that uses features this engine does not implement.
    #[error("uses what this engine does not implement yet: {}", .0.join("; "))]
    Unsupported(Vec<String>),
}

/// A compiled VGDL game description, ready to build levels from.
#[derive(Clone, Debug)]
pub struct Vgdl {
    rules: Arc<Rules>,
}

impl Vgdl {
    /// Parses and compiles a game description.
    pub fn parse(text: &str) -> Result<Vgdl, VgdlError> {
        let d = parse::parse(text)?;
        Ok(Vgdl {
            rules: Arc::new(compile::compile(&d)?),
        })
    }

    /// The compiled rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Builds a level (GVGAI level text: one character per cell, the
    /// width is the first line's) and seeds the game's `java.util.Random`
    /// with `seed`, as `Game.buildLevel` + `prepareGame` do.
    pub fn level(&self, text: &str, seed: i64) -> Result<VgdlGame, ParseError> {
        build(&self.rules, text, seed).map(|state| VgdlGame { state })
    }
}

/// The fewest quiet sprites a level shares between clones (fewer are
/// copied with the others).
const MIN_SHARED: usize = 64;

fn build(rules: &Arc<Rules>, text: &str, seed: i64) -> Result<State, ParseError> {
    let lines: Vec<Vec<char>> = parse::java_lines(text)
        .iter()
        .map(|l| l.chars().collect())
        .collect();
    if lines.is_empty() || lines[0].is_empty() {
        return Err(ParseError::new(
            1,
            0,
            "a level needs a non-empty first line",
        ));
    }
    let (w, h) = (lines[0].len(), lines.len());
    if w > 1000 || h > 1000 {
        return Err(ParseError::new(
            0,
            0,
            "a level is at most 1000 x 1000 cells",
        ));
    }
    let block = match rules.square_size {
        Some(s) if s != -1 => s,
        _ => 2.max(800 / w.max(h) as i32),
    };
    if block <= 0 {
        return Err(ParseError::new(0, 0, "square_size must be positive"));
    }
    let mut st = State {
        rules: Arc::clone(rules),
        block,
        screen: (
            (w as i32).wrapping_mul(block),
            (h as i32).wrapping_mul(block),
        ),
        sprites: Default::default(),
        resources: Vec::new(),
        avatar: None,
        score: 0.0,
        winner: Winner::None,
        others: Vec::new(),
        spawn_types: Vec::new(),
        can_end: true,
        counters: vec![0; rules.no_counters],
        count_else: if rules.no_counters > 0 {
            vec![true; rules.effects.len()]
        } else {
            Vec::new()
        },
        ticks: 0,
        ended: false,
        rng: rng::JavaRandom::new(seed),
        next_id: 0,
        apply_score: vec![true; rules.effects.len()],
        score_killed: vec![false; rules.effects.len()],
        timers: Vec::new(),
        paths: None,
        groups: Default::default(),
        scratch: Default::default(),
        moved: Vec::new(),
        executed: 0,
        graveyard: Vec::new(),
        pull_tick: vec![-1; rules.effects.len()],
        pulled: Vec::new(),
        shields: Vec::new(),
        any_killed: false,
        stale_last: false,
    };
    for (k, te) in rules.time_effects.iter().enumerate() {
        if te.itype.is_some() {
            st.add_timer(te.first, k as u16);
        }
    }
    let mut avatars = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        for j in 0..w {
            let c = line.get(j).copied().unwrap_or(' ');
            match rules.mapping.get(&c) {
                Some(types) => {
                    for t in types {
                        let t = match t {
                            Ok(t) => *t,
                            Err(name) => {
                                return Err(ParseError::new(
                                    i + 1,
                                    j + 1,
                                    format!("`{c}` is mapped to `{name}`, which is not a sprite type of the game"),
                                ))
                            }
                        };
                        if rules.types[t as usize].class.is_none() {
                            return Err(ParseError::new(
                                i + 1,
                                j + 1,
                                format!(
                                    "sprite type `{}` has no class",
                                    rules.types[t as usize].name
                                ),
                            ));
                        }
                        let pos = (
                            (j as i32).wrapping_mul(block) as f64,
                            (i as i32).wrapping_mul(block) as f64,
                        );
                        if let Some(k) = st.add_sprite(t, pos.0, pos.1, false) {
                            if st.class(k).is_avatar() {
                                avatars.push(st.sprites[k].id);
                            }
                        }
                    }
                }
                None if c != ' ' => {
                    return Err(ParseError::new(
                        i + 1,
                        j + 1,
                        format!("`{c}` is not in the game's LevelMapping"),
                    ))
                }
                None => {}
            }
        }
    }
    // At most one avatar per player: the others are removed (GVGAI logs a
    // warning).
    for id in avatars.iter().skip(rules.no_players) {
        st.sprites.retain(|s| s.id != *id);
    }
    // createAvatars: scan the sprite order from the end down to index 1.
    let mut found = Vec::new();
    for idx in (1..rules.sprite_order.len()).rev() {
        let t = rules.sprite_order[idx];
        for s in st.sprites.iter().filter(|s| s.ty == t) {
            if rules.types[t as usize].class.is_some_and(|c| c.is_avatar()) {
                found.push(s.id);
            }
        }
    }
    // Player i gets the i-th avatar of the scan read backwards.
    found.reverse();
    st.avatar = found.first().copied();
    st.others = (1..rules.no_players)
        .map(|p| multi::Player::new(found.get(p).copied()))
        .collect();
    if let Some(obs) = &rules.obstacles {
        let mut obstacle = vec![false; w * h];
        for s in &st.sprites {
            if obs.contains(&(s.ty as i32)) {
                let (cx, cy) = (s.x / block, s.y / block);
                if cx >= 0 && cy >= 0 && (cx as usize) < w && (cy as usize) < h {
                    obstacle[cx as usize * h + cy as usize] = true;
                }
            }
        }
        // GVGAI: only left and right when the avatar has exactly 3 actions.
        let n_actions = st
            .avatar
            .and_then(|id| st.index_of(id))
            .map(|i| rules.types[st.sprites[i].ty as usize].actions.len())
            .unwrap_or(0);
        st.paths = Some(Arc::new(path::PathTable::new(
            w,
            h,
            obstacle,
            n_actions == 3,
        )));
    }
    // The sprites of quiet types are written by a cycle only when an effect
    // moves, kills or changes one: clones share them, when they are enough
    // to outweigh the cost of two parts.
    let quiet = |s: &Sprite| rules.quiet.get(s.ty as usize) == Some(&true);
    if st.sprites.iter().filter(|s| quiet(s)).count() >= MIN_SHARED {
        st.sprites.share(quiet);
    }
    Ok(st)
}

/// One level of a VGDL game being played.
#[derive(Clone, Debug)]
pub struct VgdlGame {
    /// The full state.
    pub state: State,
}

impl VgdlGame {
    /// The state as the reference traces record it.
    pub fn trace(&self) -> TraceState {
        trace::trace(&self.state)
    }

    /// The avatar's actions (without NIL), in GVGAI's order.
    pub fn avatar_actions(&self) -> Vec<Action> {
        self.player_actions(0)
    }

    /// Player `p`'s avatar's actions (without NIL), in GVGAI's order.
    pub fn player_actions(&self, p: usize) -> Vec<Action> {
        let st = &self.state;
        match st.avatar_of(p).and_then(|id| st.index_of(id)) {
            Some(i) => st.rules.types[st.sprites[i].ty as usize].actions.clone(),
            None => st.rules.types[1].actions.clone(),
        }
    }
}

impl Game for VgdlGame {
    type Action = Action;

    fn num_players(&self) -> usize {
        self.state.players()
    }
    fn is_active(&self, seat: Seat) -> bool {
        seat < self.state.players() && !self.state.ended
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if seat >= self.state.players() || self.state.ended {
            return;
        }
        out.extend(self.player_actions(seat));
        out.push(Action::Nil);
    }
    fn fallback_action(&self, _seat: Seat) -> Action {
        Action::Nil
    }
    fn advance(&mut self, joint: &[Action]) {
        if self.state.ended {
            return;
        }
        if self.state.others.is_empty() {
            let a = joint.first().copied().unwrap_or(Action::Nil);
            self.state.cycle(a);
        } else {
            self.state.cycle_joint(joint);
        }
    }
    fn is_over(&self) -> bool {
        self.state.ended
    }
    fn score(&self, seat: Seat) -> f64 {
        self.state.score_of(seat)
    }
    fn result(&self, seat: Seat) -> PlayerResult {
        PlayerResult::of_puzzle(self.state.ended, self.state.winner_of(seat) == Winner::Win)
    }
    fn tick(&self) -> u32 {
        self.state.ticks
    }
    fn action_name(&self, action: Action) -> String {
        action.name().to_string()
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<Action> {
        Action::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "BasicGame\n  SpriteSet\n    floor > Immovable\n    box > Passive\n  LevelMapping\n    . > floor\n    b > floor box\n  InteractionSet\n    box wall > stepBack\n  TerminationSet\n    SpriteCounter stype=box limit=0 win=True\n";

    #[test]
    fn unknown_names_are_located_and_list_gvgais_names() {
        let e = Vgdl::parse("BasicGame\n  SpriteSet\n    a > Immovabel\n").unwrap_err();
        let VgdlError::Parse(p) = e else {
            panic!("{e}")
        };
        assert_eq!((p.line, p.column), (3, 9));
        assert!(p.message.contains("Immovable") && p.message.contains("Immovabel"));
        let e = Vgdl::parse(&GAME.replace("stepBack", "stepBak")).unwrap_err();
        let VgdlError::Parse(p) = e else {
            panic!("{e}")
        };
        assert_eq!((p.line, p.column), (9, 16));
        assert!(p.message.contains("stepBack"));
        let e = Vgdl::parse(&GAME.replace("SpriteCounter", "SpriteCount")).unwrap_err();
        assert!(e.to_string().contains("line 11, column 5"), "{e}");
    }

    #[test]
    fn gvgai_features_not_implemented_are_named() {
        let e = Vgdl::parse(&GAME.replace("Passive", "Walker")).unwrap_err();
        assert_eq!(
            e,
            VgdlError::Unsupported(vec!["sprite class Walker (line 4, column 11)".into()])
        );
        let e = Vgdl::parse(&GAME.replace("BasicGame", "BasicGame no_players=9")).unwrap_err();
        assert!(matches!(e, VgdlError::Unsupported(_)));
        assert!(Vgdl::parse(&GAME.replace("BasicGame", "GameSpace")).is_ok());
        let e = Vgdl::parse(&(GAME.replace("BasicGame", "GameSpace") + "  ParameterSet\n"))
            .unwrap_err();
        assert!(e.to_string().contains("ParameterSet"), "{e}");
        assert!(Vgdl::parse(&GAME.replace("BasicGame", "GamePlace")).is_err());
        let e = Vgdl::parse(&GAME.replace("Passive", "Passive physicstype=CONT")).unwrap_err();
        assert_eq!(
            e,
            VgdlError::Unsupported(vec!["continuous physics (physicstype=CONT)".into()])
        );
    }

    #[test]
    fn block_size_follows_gvgais_rule() {
        let v = Vgdl::parse(GAME).unwrap();
        assert_eq!(v.level("b..\n...", 0).unwrap().state.block, 266);
        let wide = ".".repeat(500);
        assert_eq!(v.level(&wide, 0).unwrap().state.block, 2);
        let v = Vgdl::parse(&GAME.replace("BasicGame", "BasicGame square_size=7")).unwrap();
        let g = v.level("b.\n..\n..", 0).unwrap();
        assert_eq!((g.state.block, g.state.screen), (7, (14, 21)));
        assert_eq!(g.trace().sprites[0], ("box".to_string(), 0, 0));
    }

    #[test]
    fn level_errors_are_located() {
        let v = Vgdl::parse(GAME).unwrap();
        let e = v.level("..\n.x", 0).unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        assert!(v.level("", 0).is_err());
        let v = Vgdl::parse(&GAME.replace("b > floor box", "b > floor crate")).unwrap();
        assert!(
            v.level("..", 0).is_ok(),
            "an unknown name only matters when used"
        );
        assert_eq!(v.level(".b", 0).unwrap_err().column, 2);
    }

    #[test]
    fn java_string_hash() {
        assert_eq!(compile::java_hash("hello"), 99162322);
        assert_eq!(compile::java_hash(""), 0);
    }
}
