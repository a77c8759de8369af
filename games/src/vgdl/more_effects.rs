//! Effects that GVGAI's two-player games use beyond the single-player
//! games' set: `increaseSpeedToAll`, `decreaseSpeedToAll`, `removeScore`,
//! `spawnBehind`, `killIfFast`, `killIfSlow` and `updateSpawnType`, each as
//! GVGAI's Java does it.

use super::engine::State;
use super::model::{EffectKind, MoreEffect};
use super::multi::score_of;

impl State {
    /// Applies `m` (effect `ef`) to sprite `s1`, with `s2` the other sprite
    /// of the pair.
    pub(crate) fn apply_more(&mut self, ef: usize, m: &MoreEffect, s1: usize, s2: Option<usize>) {
        match *m {
            MoreEffect::SpeedToAll {
                itype,
                value,
                increase,
            } => {
                let rules = std::sync::Arc::clone(&self.rules);
                let subs = &rules.types[itype as usize].subtypes;
                for k in 0..self.sprites.len() {
                    if !subs.contains(&self.sprites[k].ty) {
                        continue;
                    }
                    let s = &mut self.sprites[k];
                    if increase {
                        s.speed += value;
                    } else if s.speed - value < 0.0 {
                        s.speed = 0.0;
                    } else {
                        s.speed -= value;
                    }
                }
            }
            MoreEffect::RemoveScore { itype, kill_second } => {
                let targets: Vec<usize> = if itype < 0 {
                    vec![s1]
                } else {
                    (0..self.sprites.len())
                        .filter(|&k| self.sprites[k].ty as i32 == itype)
                        .collect()
                };
                for k in targets {
                    if self.class(k).is_avatar() {
                        let id = self.sprites[k].id;
                        self.reset_score_of_avatar(id);
                        if let (true, Some(s2)) = (kill_second, s2) {
                            self.kill(s2, true);
                        }
                    }
                }
            }
            MoreEffect::SpawnBehind { itype } => {
                let Some(s2) = s2 else { return };
                if self.rng.next_double() >= self.rules.effects[ef].prob {
                    return;
                }
                // `getLastPosition`: none when it did not move off its last
                // rectangle.
                let o = self.sprites[s2];
                if !o.last_intersects() {
                    self.add_sprite(itype, o.lx as f64, o.ly as f64, false);
                }
            }
            MoreEffect::KillIfSpeed { limit, fast } => {
                let Some(s2) = s2 else { return };
                let (a, b) = (self.sprites[s1], self.sprites[s2]);
                let is_static = |t: u16| self.rules.types[t as usize].is_static;
                let rel = if is_static(a.ty) {
                    b.speed
                } else if is_static(b.ty) {
                    a.speed
                } else {
                    let (vx, vy) = (a.ori.0 - b.ori.0, a.ori.1 - b.ori.1);
                    (vx * vx + vy * vy).sqrt()
                };
                if (fast && rel > limit) || (!fast && rel < limit) {
                    self.kill(s1, false);
                }
            }
            MoreEffect::UpdateSpawnType { itype, spawn } => {
                let rules = std::sync::Arc::clone(&self.rules);
                let subs = &rules.types[spawn as usize].subtypes;
                for k in 0..self.sprites.len() {
                    let s = self.sprites[k];
                    if subs.contains(&s.ty) && self.class(k).is_spawner() {
                        match self.spawn_types.binary_search_by_key(&s.id, |e| e.0) {
                            Ok(at) => self.spawn_types[at].1 = itype as i32,
                            Err(at) => self.spawn_types.insert(at, (s.id, itype as i32)),
                        }
                    }
                }
            }
        }
    }

    /// `executeEffect`'s counters: effect `ef`'s `counter` list when its
    /// `count` holds (always, except `transformIfCount`, where it is
    /// `applyScore`), then its `counterElse` list when `countElse` holds.
    pub(crate) fn add_counters(&mut self, ef: usize) {
        let rules = std::sync::Arc::clone(&self.rules);
        let def = &rules.effects[ef];
        let tic = matches!(def.kind, EffectKind::TransformIfCount { .. });
        let count = !tic || self.apply_score[ef];
        let count_else = !tic || self.count_else.get(ef).copied().unwrap_or(true);
        for (on, list) in [(count, &def.counter.0), (count_else, &def.counter.1)] {
            if on {
                for (k, c) in self.counters.iter_mut().enumerate() {
                    *c = c.wrapping_add(score_of(list, k));
                }
            }
        }
    }

    /// The type spawn point `i` spawns: `updateSpawnType`'s, else its
    /// type's `stype` (`default`).
    #[inline]
    pub(crate) fn spawn_type(&self, i: usize, default: i32) -> i32 {
        if self.spawn_types.is_empty() {
            return default;
        }
        let id = self.sprites[i].id;
        match self.spawn_types.binary_search_by_key(&id, |e| e.0) {
            Ok(at) => self.spawn_types[at].1,
            Err(_) => default,
        }
    }
}
