//! GVGAI's `SimpleStateHeuristic` for any VGDL game, over the observation
//! categories GVGAI's forward model gives sprite types (`getSpriteCategory`:
//! avatar, resource, portal, NPC, static, movable, in that precedence).
//!
//! The value of a state, as the Java computes it:
//! - a loss is −999,999,999;
//! - with no portal type observed: the game score, plus 10^17 for a win
//!   (`won · 10^8`, `won = 10^9`), and when NPCs are present
//!   `− d²/100 − 100·n`, where `n` counts the NPCs and `d²` is the squared
//!   pixel distance from the avatar to the nearest NPC *of the last NPC type
//!   that has any* (the Java loop overwrites the minimum type by type);
//! - with portal types observed: the score plus 10^15 for a win, minus ten
//!   times the squared distance to the nearest portal of the last portal
//!   type that has any (nothing subtracted when none has).
//!
//! GVGAI lists a type once its forward model has seen a sprite of it; here
//! a type is listed when the evaluated state or the state the heuristic was
//! made from (the act's root) has a sprite of it.
//!
//! For a player of a game of several players ([`SimpleStateHeuristic::evaluate_for`],
//! GVGAI's `tracks.multiPlayer.tools.heuristics.SimpleStateHeuristic`):
//! the distances are from that player's avatar and the score is that
//! player's; the state is worth −999,999,999 only when the player lost and
//! its opponent (the next player) won, and counts as won when the player
//! won, whatever the opponent did (a loss for both is worth its score and
//! distances). The Java's portal branch reads player 0's score for every
//! player; here it is the player's own.

use games::vgdl::{Class, VgdlGame, Winner};

/// GVGAI's observation category of a sprite class (`getSpriteCategory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// `TYPE_AVATAR`.
    Avatar,
    /// `TYPE_RESOURCE` (`Resource`).
    Resource,
    /// `TYPE_PORTAL` (`Portal`, `Door`).
    Portal,
    /// `TYPE_NPC` (`RandomNPC` and its subclasses, the bombers,
    /// `SpawnPointMultiSprite`).
    Npc,
    /// `TYPE_STATIC` (`Immovable`, `SpawnPoint`).
    Static,
    /// `TYPE_MOVABLE` (everything else).
    Movable,
}

/// The category GVGAI's flags (`is_avatar`, `is_resource`, `portal`,
/// `is_npc`, `is_static`) give sprites of class `c`.
pub fn category(c: Class) -> Category {
    use Class::*;
    if c.is_avatar() {
        return Category::Avatar;
    }
    match c {
        Resource => Category::Resource,
        Portal | Door => Category::Portal,
        RandomNpc
        | Chaser
        | Fleeing
        | LosChaser
        | PathChaser
        | PathAltChaser
        | RandomPathAltChaser
        | Bomber
        | RandomBomber
        | BomberRandomMissile
        | SpawnPointMultiSprite => Category::Npc,
        Immovable | SpawnPoint => Category::Static,
        _ => Category::Movable,
    }
}

/// GVGAI's `SimpleStateHeuristic`, made from the state of one act.
#[derive(Clone, Debug)]
pub struct SimpleStateHeuristic {
    /// Per sprite type: its category, if it has a class.
    cats: Vec<Option<Category>>,
    /// Per sprite type: the root state had a sprite of it.
    seen: Vec<bool>,
}

/// Nearest sprite of the last type of a category that has any, and how
/// many sprites the category has.
#[derive(Clone, Copy, Debug, Default)]
struct Nearest {
    /// Whether any type of the category is listed.
    listed: bool,
    /// Squared distance to the nearest of the last non-empty type.
    sq: Option<f64>,
    /// Sprites of the category.
    count: usize,
}

impl SimpleStateHeuristic {
    /// The heuristic for the act whose state is `root`.
    pub fn new(root: &VgdlGame) -> Self {
        let rules = &root.state.rules;
        let cats = rules.types.iter().map(|t| t.class.map(category)).collect();
        let mut seen = vec![false; rules.types.len()];
        for s in &root.state.sprites {
            seen[s.ty as usize] = true;
        }
        SimpleStateHeuristic { cats, seen }
    }

    fn nearest(&self, g: &VgdlGame, cat: Category, from: (f64, f64)) -> Nearest {
        let n = self.cats.len();
        // Per type: nearest squared distance and count, in creation order
        // (GVGAI's stable sort keeps the first of equal distances).
        let mut best: Vec<Option<f64>> = vec![None; n];
        let mut present = self.seen.clone();
        let mut count = 0;
        for s in &g.state.sprites {
            let t = s.ty as usize;
            if t >= n || self.cats[t] != Some(cat) || s.disabled {
                continue;
            }
            present[t] = true;
            count += 1;
            let (dx, dy) = (s.x as f64 - from.0, s.y as f64 - from.1);
            let d = dx * dx + dy * dy;
            if best[t].is_none_or(|b| d < b) {
                best[t] = Some(d);
            }
        }
        let listed = (0..n).any(|t| present[t] && self.cats[t] == Some(cat));
        let sq = (0..n).rev().find_map(|t| best[t]);
        Nearest { listed, sq, count }
    }

    /// The value of `g` for player 0 (see the module documentation).
    pub fn evaluate(&self, g: &VgdlGame) -> f64 {
        self.evaluate_for(g, 0)
    }

    /// The value of `g` for player `p` (see the module documentation).
    pub fn evaluate_for(&self, g: &VgdlGame, p: usize) -> f64 {
        let st = &g.state;
        let won = if st.players() == 1 {
            match st.winner {
                Winner::Win => 1e9,
                Winner::Loss => return -999_999_999.0,
                Winner::None => 0.0,
            }
        } else {
            let opp = st.winner_of((p + 1) % st.players());
            match st.winner_of(p) {
                Winner::Win => 1e9,
                Winner::Loss if opp == Winner::Win => return -999_999_999.0,
                _ => 0.0,
            }
        };
        let score = st.score_of(p);
        let avatar = st
            .avatar_of(p)
            .and_then(|id| st.index_of(id))
            .map(|i| (st.sprites[i].x as f64, st.sprites[i].y as f64))
            .unwrap_or((-1.0, -1.0));
        let portals = self.nearest(g, Category::Portal, avatar);
        if !portals.listed {
            let npcs = self.nearest(g, Category::Npc, avatar);
            return match npcs.sq {
                Some(d) if npcs.count > 0 => {
                    -d / 100.0 - npcs.count as f64 * 100.0 + score + won * 1e8
                }
                _ => score + won * 1e8,
            };
        }
        match portals.sq {
            Some(d) => score + won * 1e6 - d * 10.0,
            None => score + won * 1e8,
        }
    }
}
