//! The state of a VGDL game and GVGAI's game cycle: avatar, other sprites
//! in reverse sprite order, end-of-screen effects, pair effects in order of
//! first appearance, removal of killed sprites, terminations, the
//! 2000-tick timeout.
//!
//! Sprites live in one flat vector in creation order (GVGAI's sprite groups
//! are that order filtered by type), each a small `Copy` struct; resources
//! are a separate sparse list. Cloning a state copies a few vectors into
//! buffers recycled from dropped states (`pool`).

use super::model::{Action, Class, Dir, Rules, TermKind, DNONE};
use super::rng::JavaRandom;
pub use super::store::{Sprite, Sprites, PREV_NONE};
use std::sync::Arc;

/// GVGAI's `MAX_TIMESTEPS`.
pub const MAX_TIMESTEPS: i32 = 2000;
/// GVGAI's `MAX_SPRITES`.
const MAX_SPRITES: usize = 10000;

/// `Vector2d.normalise`.
pub fn normalise(v: (f64, f64)) -> (f64, f64) {
    let m = (v.0 * v.0 + v.1 * v.1).sqrt();
    if m == 0.0 {
        (0.0, 0.0)
    } else {
        (v.0 / m, v.1 / m)
    }
}

/// Sprite indices grouped by type (GVGAI's sprite groups), rebuilt at the
/// start of a cycle when sprites were added since the last rebuild, and
/// after removals. Sprites appended since the last rebuild (index `>= n0`)
/// are not in it and are scanned separately. A clone copies it.
#[derive(Debug, Default)]
pub(crate) struct Groups {
    off: Vec<u32>,
    idx: Vec<u32>,
    n0: usize,
    /// Scratch: the next free slot per type while rebuilding.
    next: Vec<u32>,
}

impl Groups {
    /// Makes `into` a copy of this index (its scratch left as it is).
    pub(crate) fn copy_to(&self, into: &mut Groups) {
        into.off.clear();
        into.off.extend_from_slice(&self.off);
        into.idx.clear();
        into.idx.extend_from_slice(&self.idx);
        into.n0 = self.n0;
    }

    /// Whether it holds allocated buffers.
    pub(crate) fn has_buffers(&self) -> bool {
        self.off.capacity() > 0
    }
}

/// How the game ended for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// Not decided.
    None,
    /// The player won.
    Win,
    /// The player lost.
    Loss,
}

/// What an active or passive move did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Movement {
    Still,
    Move,
    Rotate,
}

/// The state of one VGDL game.
#[derive(Clone, Debug)]
pub struct State {
    /// The compiled rules (shared).
    pub rules: Arc<Rules>,
    /// Cell size in pixels.
    pub block: i32,
    /// Screen size in pixels.
    pub screen: (i32, i32),
    /// Sprites in creation order.
    pub sprites: Sprites,
    /// Resources held: (sprite id, resource type, amount), sorted.
    pub resources: Vec<(u32, u16, i32)>,
    /// The avatar's sprite id (`avatars[0]`).
    pub avatar: Option<u32>,
    /// Player 0's score.
    pub score: f64,
    /// Player 0's win state.
    pub winner: Winner,
    /// Players `1..N` of a multi-player game (empty with one player).
    pub others: Vec<Player>,
    /// The game's counters (`no_counters`).
    pub counters: Vec<i32>,
    /// Per effect, when the game has counters: `countElse`, which
    /// `transformIfCount` sets.
    pub(crate) count_else: Vec<bool>,
    /// GVGAI's `Termination.canEnd`, which `StopCounter` sets.
    pub(crate) can_end: bool,
    /// Spawn points whose type `updateSpawnType` changed: (sprite id,
    /// type), sorted.
    pub(crate) spawn_types: Vec<(u32, i32)>,
    /// Cycles played.
    pub ticks: u32,
    /// GVGAI's `isEnded`.
    pub ended: bool,
    /// The game's `java.util.Random`.
    pub rng: JavaRandom,
    pub(crate) next_id: u32,
    /// Per effect: GVGAI's mutable `applyScore` field.
    pub(crate) apply_score: Vec<bool>,
    /// Per effect: `subtractHealthPoints` last killed (its `scoreChange` is
    /// then `scoreChangeIfKilled`).
    pub(crate) score_killed: Vec<bool>,
    /// Timed effects waiting: (next execution tick, index into
    /// `rules.time_effects`), in GVGAI's `TreeSet` order.
    pub(crate) timers: Vec<(i32, u16)>,
    /// `pullWithIt` per effect: the tick of its last pulls, and the
    /// (effect, sprite id) pairs pulled in that tick.
    pub(crate) pull_tick: Vec<i32>,
    pub(crate) pulled: Vec<(u16, u32)>,
    /// GVGAI's path finder, when the game names `obs` types.
    pub(crate) paths: Option<Arc<super::path::PathTable>>,
    /// Removed sprites that a path chaser still targets: (id, x, y, w, h)
    /// as they were when removed (GVGAI keeps the object).
    pub(crate) graveyard: Vec<(u32, i32, i32, i32, i32)>,
    /// Shields of this tick: (type1, type2, effect hash).
    pub(crate) shields: Vec<(u16, u16, i64)>,
    pub(crate) any_killed: bool,
    /// An effect set a sprite's last rectangle apart from its rectangle
    /// this cycle: the next cycle updates inert sprites too.
    pub(crate) stale_last: bool,
    pub(crate) groups: super::pool::Pooled<Groups>,
    /// Indices of the sprites moved by effects this cycle (`u32::MAX`:
    /// every sprite, by `undoAll`), which the pair effects' indexes of
    /// their second sides catch up with.
    pub(crate) moved: Vec<u32>,
    /// Effects executed on sprites (a wrapping count: whether a pair
    /// effect executed any).
    pub(crate) executed: u32,
    /// Buffers of `eventHandling`.
    pub(crate) scratch: super::pool::Pooled<super::cells::ScratchBox>,
}

impl super::cells::Rects for State {
    #[inline]
    fn rect(&self, k: usize) -> (i32, i32, i32, i32) {
        let s = &self.sprites[k];
        (s.x, s.y, s.w, s.h)
    }
    #[inline]
    fn block(&self) -> i32 {
        self.block
    }
    #[inline]
    fn screen(&self) -> (i32, i32) {
        self.screen
    }
}

impl State {
    /// GVGAI's `gameTick` during the current cycle.
    #[inline]
    pub fn game_tick(&self) -> i32 {
        self.ticks as i32 - 1
    }

    /// Index of the sprite with this id.
    #[inline]
    pub fn index_of(&self, id: u32) -> Option<usize> {
        self.sprites.position(id)
    }

    /// The class of sprite `i`'s type.
    #[inline]
    pub(crate) fn class(&self, i: usize) -> Class {
        self.rules.types[self.sprites[i].ty as usize]
            .class
            .unwrap_or(Class::Immovable)
    }

    /// Amount of resource `r` held by sprite `i`, if it has an entry.
    pub fn resource(&self, i: usize, r: i32) -> Option<i32> {
        if r < 0 {
            return None;
        }
        let id = self.sprites[i].id;
        self.resources
            .binary_search_by_key(&(id, r as u16), |e| (e.0, e.1))
            .ok()
            .map(|k| self.resources[k].2)
    }

    /// `getAmountResource`.
    pub(crate) fn amount(&self, i: usize, r: i32) -> i32 {
        self.resource(i, r).unwrap_or(0)
    }

    /// Sets a resource entry (creating it).
    pub(crate) fn put_resource(&mut self, i: usize, r: i32, v: i32) {
        if r < 0 {
            return;
        }
        let id = self.sprites[i].id;
        match self
            .resources
            .binary_search_by_key(&(id, r as u16), |e| (e.0, e.1))
        {
            Ok(k) => self.resources[k].2 = v,
            Err(k) => self.resources.insert(k, (id, r as u16, v)),
        }
    }

    /// `modifyResource`: `max(0, prev + delta)`.
    pub(crate) fn modify_resource(&mut self, i: usize, r: i32, delta: i32) {
        let prev = self.amount(i, r);
        self.put_resource(i, r, prev.wrapping_add(delta).max(0));
    }

    /// `getResourceLimit`.
    pub(crate) fn resource_limit(&self, r: i32) -> i32 {
        if r < 0 {
            return 0;
        }
        self.rules
            .resource_limit
            .get(r as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Sprites of `ty` and its subtypes that are neither disabled nor
    /// removed (what the terminations count).
    pub fn live_count(&self, ty: i32) -> i32 {
        if ty < 0 {
            return 0;
        }
        self.rules.types[ty as usize]
            .subtypes
            .iter()
            .map(|&st| self.live_count_exact(st))
            .sum()
    }

    /// Rebuilds the per-type index (a counting sort of the sprites by type,
    /// each group in creation order).
    pub(crate) fn rebuild_groups(&mut self) {
        let t = self.rules.types.len();
        let g: &mut Groups = &mut self.groups;
        g.off.clear();
        g.off.resize(t + 1, 0);
        let (shared, own) = self.sprites.parts_from(0);
        shared
            .iter()
            .chain(own)
            .for_each(|s| g.off[s.ty as usize + 1] += 1);
        for k in 0..t {
            g.off[k + 1] += g.off[k];
        }
        g.idx.clear();
        g.idx.resize(self.sprites.len(), 0);
        g.next.clear();
        g.next.extend_from_slice(&g.off[..t]);
        shared.iter().chain(own).enumerate().for_each(|(i, s)| {
            let slot = &mut g.next[s.ty as usize];
            g.idx[*slot as usize] = i as u32;
            *slot += 1;
        });
        g.n0 = self.sprites.len();
    }

    /// Appends the indices of the sprites of exactly type `ty`, in creation
    /// order (GVGAI's sprite group), to `out`.
    pub(crate) fn group(&self, ty: u16, out: &mut Vec<usize>) {
        let g = &self.groups;
        if g.off.len() == self.rules.types.len() + 1 {
            let (a, b) = (g.off[ty as usize] as usize, g.off[ty as usize + 1] as usize);
            out.extend(g.idx[a..b].iter().map(|&i| i as usize));
            // Sprites added since the rebuild (all in the owned part).
            for (k, s) in self.sprites.own_from(g.n0).iter().enumerate() {
                if s.ty == ty {
                    out.push(g.n0 + k);
                }
            }
        } else {
            out.extend((0..self.sprites.len()).filter(|&k| self.sprites[k].ty == ty));
        }
    }

    /// Number of sprites (disabled and killed included) of exactly `ty`.
    pub(crate) fn group_len(&self, ty: u16) -> usize {
        let g = &self.groups;
        if g.off.len() == self.rules.types.len() + 1 {
            let n = (g.off[ty as usize + 1] - g.off[ty as usize]) as usize;
            let mut new = 0;
            self.sprites
                .for_each_from(g.n0, |_, s| new += usize::from(s.ty == ty));
            n + new
        } else {
            self.sprites.iter().filter(|s| s.ty == ty).count()
        }
    }

    /// Live sprites of exactly type `ty` (its own group only).
    pub(crate) fn live_count_exact(&self, ty: u16) -> i32 {
        let g = &self.groups;
        if g.off.len() == self.rules.types.len() + 1 {
            let (a, b) = (g.off[ty as usize] as usize, g.off[ty as usize + 1] as usize);
            let old = g.idx[a..b]
                .iter()
                .filter(|&&i| !self.sprites[i as usize].disabled)
                .count();
            let mut new = 0;
            self.sprites
                .for_each_from(g.n0, |_, s| new += usize::from(s.ty == ty && !s.disabled));
            (old + new) as i32
        } else {
            self.sprites
                .iter()
                .filter(|s| !s.disabled && s.ty == ty)
                .count() as i32
        }
    }

    /// Number of sprites (disabled included) of `ty` and its subtypes.
    pub(crate) fn num_sprites(&self, ty: u16) -> usize {
        self.rules.types[ty as usize]
            .subtypes
            .iter()
            .map(|&st| self.group_len(st))
            .sum()
    }

    /// `Game.addSprite`: a new sprite of `ty` at a pixel position, unless a
    /// singleton forbids it (or `force`). Returns its index.
    pub(crate) fn add_sprite(&mut self, ty: u16, x: f64, y: f64, force: bool) -> Option<usize> {
        if self.sprites.len() > MAX_SPRITES {
            return None;
        }
        let t = &self.rules.types[ty as usize];
        if !force {
            for &a in &t.itypes {
                if self.rules.types[a as usize].singleton && self.num_sprites(a) > 0 {
                    return None;
                }
            }
        }
        let (x, y) = (x as i32, y as i32);
        let s = Sprite {
            id: self.next_id,
            ty,
            x,
            y,
            w: self.block,
            h: self.block,
            lx: x,
            ly: y,
            ori: t.orientation,
            lastmove: 0,
            speed: t.speed,
            health: t.health.0,
            max_health: t.health.1,
            ttl: t.time_to_live,
            age: 0,
            start: -1,
            prev: PREV_NONE,
            target: u32::MAX,
            has_known: false,
            oriented: t.is_oriented,
            first_tick: true,
            disabled: false,
            killed: false,
        };
        self.next_id += 1;
        self.sprites.push(s);
        Some(self.sprites.len() - 1)
    }

    /// `Game.killSprite`.
    pub(crate) fn kill(&mut self, i: usize, transformed: bool) {
        if self.class(i).is_avatar() && !transformed {
            self.sprites[i].disabled = true;
        } else {
            self.sprites[i].killed = true;
            self.any_killed = true;
        }
    }

    /// `_updatePos`.
    pub(crate) fn update_pos(&mut self, i: usize, d: Dir, speed: i32) -> bool {
        let t_cool = self.rules.types[self.sprites[i].ty as usize].cooldown;
        let s = &mut self.sprites[i];
        let mut speed = speed;
        if speed == 0 {
            speed = s.speed as i32;
            if speed == 0 {
                return false;
            }
        }
        if t_cool <= s.lastmove && (d.0.abs() + d.1.abs() != 0.0) {
            s.x = s.x.wrapping_add((d.0 * speed as f64) as i32);
            s.y = s.y.wrapping_add((d.1 * speed as f64) as i32);
            s.lastmove = 0;
            return true;
        }
        false
    }

    /// `_updateOrientation`.
    pub(crate) fn update_orientation(&mut self, i: usize, d: Dir) -> bool {
        if !self.sprites[i].oriented {
            return false;
        }
        if self.sprites[i].ori == d {
            return false;
        }
        self.sprites[i].ori = d;
        true
    }

    /// `GridPhysics.passiveMovement`.
    pub(crate) fn passive_movement(&mut self, i: usize) -> Movement {
        if self.sprites[i].first_tick {
            self.sprites[i].first_tick = false;
            return Movement::Still;
        }
        let sp = self.sprites[i].speed;
        let speed = if sp == -1.0 { 1.0 } else { sp };
        let oriented = self.sprites[i].oriented;
        if speed != 0.0 && oriented {
            let d = self.sprites[i].ori;
            if self.update_pos(i, d, (speed * self.block as f64) as i32) {
                return Movement::Move;
            }
        }
        Movement::Still
    }

    /// `VGDLSprite.updatePassive`.
    pub(crate) fn update_passive(&mut self, i: usize) {
        let t = &self.rules.types[self.sprites[i].ty as usize];
        if !t.is_static {
            self.passive_movement(i);
        }
    }

    /// `GridPhysics.activeMovement`.
    pub(crate) fn active_movement(&mut self, i: usize, d: Dir, speed: f64) -> Movement {
        let t = &self.rules.types[self.sprites[i].ty as usize];
        if t.stationary {
            return Movement::Still;
        }
        let rotate = t.rotate_in_place;
        let mut speed = speed;
        if speed == 0.0 {
            let own = self.sprites[i].speed;
            speed = if own <= 0.0 { 1.0 } else { own };
        }
        if speed != 0.0 && d != DNONE {
            if rotate && self.update_orientation(i, d) {
                return Movement::Rotate;
            }
            if self.update_pos(i, d, (speed * self.block as f64) as i32) {
                return Movement::Move;
            }
        }
        Movement::Still
    }

    /// `VGDLSprite.update`: passive movement and time to live.
    pub(crate) fn base_update(&mut self, i: usize) {
        self.update_passive(i);
        let s = &mut self.sprites[i];
        if s.ttl > -1 {
            if s.ttl > 0 {
                s.ttl -= 1;
            } else {
                self.kill(i, false);
            }
        }
    }

    /// One game cycle with the avatar's action.
    pub fn cycle(&mut self, action: Action) {
        self.ticks += 1;
        // The index is still valid when no sprite was added since it was
        // built (removals rebuild it at once).
        if self.groups.off.len() != self.rules.types.len() + 1
            || self.groups.n0 != self.sprites.len()
        {
            self.rebuild_groups();
        }
        self.tick_sprites(action);
        self.event_handling();
        self.clear_all();
        self.terminations();
        if self.game_tick() >= MAX_TIMESTEPS {
            self.ended = true;
            if self.winner != Winner::Win {
                self.winner = Winner::Loss;
            }
            self.time_out_others();
        }
    }

    fn tick_sprites(&mut self, action: Action) {
        if let Some(i) = self.avatar.and_then(|id| self.index_of(id)) {
            if !self.sprites[i].disabled {
                self.pre_movement(i);
                self.update_avatar(i, action);
            }
        }
        if !self.others.is_empty() {
            self.tick_others();
        }
        let rules = Arc::clone(&self.rules);
        // The scratch of `event_handling`, which comes later in the cycle.
        let mut scratch = self.scratch.take();
        let members = &mut scratch.members;
        let all = std::mem::take(&mut self.stale_last);
        for &t in rules.sprite_order.iter().rev() {
            let c = rules.types[t as usize].class.unwrap_or(Class::Immovable);
            let inert = rules.inert.get(t as usize) == Some(&true);
            let quiet = rules.quiet.get(t as usize) == Some(&true);
            if c.is_avatar() || (!all && inert) {
                continue;
            }
            members.clear();
            let g = &self.groups;
            let (a, b) = (g.off[t as usize] as usize, g.off[t as usize + 1] as usize);
            members.extend(g.idx[a..b].iter().map(|&i| i as usize));
            if quiet {
                // Only the sprites an effect moved or whose last rectangle
                // it set differ from an update that does nothing
                // (`quiet_types`); the others, maybe shared between clones,
                // are not written.
                members.retain(|&k| {
                    let s = &self.sprites[k];
                    s.lx != s.x || s.ly != s.y
                });
            }
            for &k in members.iter() {
                if !self.sprites[k].disabled {
                    self.pre_movement(k);
                    self.update_sprite(k, c);
                }
            }
            // Sprites of this type created earlier in this tick.
            let mut k = self.groups.n0;
            while k < self.sprites.len() {
                let s = &self.sprites[k];
                if s.ty == t && !s.disabled && !(quiet && s.lx == s.x && s.ly == s.y) {
                    self.pre_movement(k);
                    self.update_sprite(k, c);
                }
                k += 1;
            }
        }
        self.scratch.put(scratch);
    }

    /// Queues a timed effect as GVGAI's `TreeSet` does: before every
    /// effect due at the same tick (its comparator never says "equal").
    pub(crate) fn add_timer(&mut self, next: i32, te: u16) {
        let at = self.timers.partition_point(|&(n, _)| n < next);
        self.timers.insert(at, (next, te));
    }

    #[inline]
    fn pre_movement(&mut self, i: usize) {
        let s = &mut self.sprites[i];
        s.lx = s.x;
        s.ly = s.y;
        s.lastmove += 1;
    }

    fn clear_all(&mut self) {
        if self.any_killed {
            if let Some(a) = self.avatar {
                if let Some(i) = self.index_of(a) {
                    if self.sprites[i].killed {
                        self.avatar = None;
                    }
                }
            }
            if !self.others.is_empty() {
                self.forget_killed_avatars();
            }
            let mut scratch = self.scratch.take();
            let (dead, targets) = (&mut scratch.dead, &mut scratch.targets);
            dead.clear();
            dead.extend(self.sprites.iter().filter(|s| s.killed).map(|s| s.id));
            // The shared part's ids come first, not in id order.
            dead.sort_unstable();
            targets.clear();
            targets.extend(
                self.sprites
                    .iter()
                    .filter(|s| !s.killed && s.target != u32::MAX)
                    .map(|s| s.target),
            );
            if !targets.is_empty() || !self.graveyard.is_empty() {
                for s in self
                    .sprites
                    .iter()
                    .filter(|s| s.killed && targets.contains(&s.id))
                {
                    self.graveyard.push((s.id, s.x, s.y, s.w, s.h));
                }
                self.graveyard.retain(|g| targets.contains(&g.0));
            }
            self.sprites.retain(|s| !s.killed);
            if !self.resources.is_empty() {
                self.resources.retain(|e| dead.binary_search(&e.0).is_err());
            }
            self.scratch.put(scratch);
            self.any_killed = false;
            self.rebuild_groups();
        }
        self.shields.clear();
        self.moved.clear();
    }

    fn terminations(&mut self) {
        let rules = Arc::clone(&self.rules);
        for t in &rules.terminations {
            if self.ended {
                break;
            }
            let done = match &t.kind {
                TermKind::SpriteCounter(ty) => {
                    *ty != -1 && self.live_count(*ty) <= t.limit && self.can_end
                }
                TermKind::SpriteCounterMore(ty) => {
                    *ty != -1 && self.live_count(*ty) >= t.limit && self.can_end
                }
                TermKind::MultiSpriteCounter(tys, min) => {
                    let n: i32 = tys.iter().map(|&ty| self.live_count(ty)).sum();
                    (n == t.limit || (*min && n > t.limit)) && self.can_end
                }
                TermKind::StopCounter(tys, min) => {
                    let n: i32 = tys.iter().map(|&ty| self.live_count(ty)).sum();
                    self.can_end = if *min { n <= t.limit } else { n != t.limit };
                    false
                }
                TermKind::Timeout | TermKind::TimeoutCounters { .. } => self.game_tick() >= t.limit,
                TermKind::MultiSpriteCounterSubTypes(ty, num) => {
                    *ty != -1 && self.live_count(*ty) == t.limit && self.can_end && {
                        let subs = &rules.types[*ty as usize].subtypes;
                        let present = subs
                            .iter()
                            .filter(|&&st| self.live_count_exact(st) > 0)
                            .count() as i32;
                        present == *num
                    }
                }
            };
            if done {
                self.ended = true;
                if !self.others.is_empty()
                    || t.count_score
                    || matches!(t.kind, TermKind::TimeoutCounters { .. })
                {
                    self.end_by(t);
                    continue;
                }
                let win = t
                    .win
                    .as_deref()
                    .and_then(|w| w.split(',').next())
                    .map(|w| w.eq_ignore_ascii_case("true"))
                    .unwrap_or(false);
                self.winner = if win { Winner::Win } else { Winner::Loss };
            }
        }
    }
}

/// A player after the first: its avatar, score and win state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    /// Its avatar's sprite id (`avatars[i]`).
    pub avatar: Option<u32>,
    /// Its score.
    pub score: f64,
    /// Its win state.
    pub winner: Winner,
    /// Its action for the cycle being played.
    pub(crate) action: Action,
}

impl Player {
    pub(crate) fn new(avatar: Option<u32>) -> Player {
        Player {
            avatar,
            score: 0.0,
            winner: Winner::None,
            action: Action::Nil,
        }
    }
}

thread_local! {
    static SPRITES: std::cell::RefCell<Vec<Vec<Sprite>>> = const { std::cell::RefCell::new(Vec::new()) };
    static GROUPS: std::cell::RefCell<Vec<Groups>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl super::pool::Recycle for Groups {
    fn pool() -> &'static std::thread::LocalKey<std::cell::RefCell<Vec<Self>>> {
        &GROUPS
    }
    fn copy_into(&self, into: &mut Self) {
        self.copy_to(into);
    }
    fn worth_keeping(&self) -> bool {
        self.has_buffers()
    }
}

impl super::pool::Spare for Sprite {
    fn spares() -> &'static std::thread::LocalKey<std::cell::RefCell<Vec<Vec<Self>>>> {
        &SPRITES
    }
}
