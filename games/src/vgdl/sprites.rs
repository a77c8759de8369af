//! What each sprite class does in its update, and the avatars' moves.

use super::engine::{normalise, Movement, State};
use super::model::{Action, Class, Dir, BASEDIRS, DNIL, DNONE};

impl State {
    /// The avatar's update with the player's action (GVGAI's
    /// `updateAvatar`, the action already replaced by NIL when the class
    /// does not allow it).
    pub(crate) fn update_avatar(&mut self, i: usize, action: Action) {
        let c = self.class(i);
        let ty = self.sprites[i].ty as usize;
        let action = if self.rules.types[ty].actions.contains(&action) {
            action
        } else {
            Action::Nil
        };
        let d = action.dir();
        match c {
            Class::MovingAvatar | Class::HorizontalAvatar | Class::VerticalAvatar => {
                let sp = self.sprites[i].speed;
                self.active_movement(i, d, sp);
            }
            Class::FlakAvatar => {
                let sp = self.sprites[i].speed;
                if self.active_movement(i, d, sp) == Movement::Still && action == Action::Use {
                    self.flak_use(i);
                }
            }
            Class::OrientedAvatar | Class::ShootAvatar => {
                let sp = self.sprites[i].speed;
                let m = self.active_movement(i, d, sp);
                if m == Movement::Move {
                    let dir = normalise(self.sprites[i].last_dir());
                    self.sprites[i].ori = dir;
                }
                if c == Class::ShootAvatar && m == Movement::Still && action == Action::Use {
                    self.shoot(i);
                }
            }
            Class::ShootOnlyAvatar => {
                // No move; the action picks the weapon (its index in the
                // actions), which fires if it has ammo.
                let t = &self.rules.types[ty];
                if let Some(idx) = t.actions.iter().position(|&a| a == action) {
                    if idx < t.itypes_shoot.len() && self.has_ammo(i, idx) {
                        self.shoot_weapon(i, idx);
                    }
                }
            }
            Class::MissileAvatar => {
                self.update_passive(i);
            }
            Class::OngoingAvatar => {
                if d != DNONE {
                    self.update_orientation(i, d);
                }
                self.update_passive(i);
            }
            Class::OngoingShootAvatar => {
                let mut can_shoot = true;
                if d != DNONE {
                    self.update_orientation(i, d);
                    can_shoot = false;
                }
                self.update_passive(i);
                if can_shoot && action == Action::Use {
                    self.shoot(i);
                }
            }
            Class::OngoingTurningAvatar => {
                let o = self.sprites[i].ori;
                if d != DNONE && d.0 * o.0 + d.1 * o.1 == 0.0 {
                    self.update_orientation(i, d);
                }
                self.update_passive(i);
                let s = self.sprites[i];
                if !s.last_intersects() {
                    let spawn = self.rules.types[ty].spawn_behind;
                    if spawn >= 0 {
                        self.add_sprite(spawn as u16, s.lx as f64, s.ly as f64, false);
                    }
                }
            }
            _ => {}
        }
    }

    fn has_ammo(&self, i: usize, idx: usize) -> bool {
        let t = &self.rules.types[self.sprites[i].ty as usize];
        if t.ammo.is_empty() || idx >= t.ammo.len() {
            return true;
        }
        self.amount(i, t.ammo[idx]) > 0
    }

    /// ShootAvatar's `updateUse`: the first weapon with ammo fires.
    fn shoot(&mut self, i: usize) {
        let n = self.rules.types[self.sprites[i].ty as usize]
            .itypes_shoot
            .len();
        for idx in 0..n {
            if self.has_ammo(i, idx) {
                self.shoot_weapon(i, idx);
                break;
            }
        }
    }

    /// ShootAvatar's `shoot`: weapon `idx` fires one sprite ahead.
    fn shoot_weapon(&mut self, i: usize, idx: usize) {
        let t = &self.rules.types[self.sprites[i].ty as usize];
        let it = t.itypes_shoot[idx];
        let ammo = t.ammo.get(idx).copied();
        let s = self.sprites[i];
        let dir = normalise(s.ori);
        if it < 0 {
            return;
        }
        let x = s.x as f64 + dir.0 * s.w as f64;
        let y = s.y as f64 + dir.1 * s.h as f64;
        if let Some(k) = self.add_sprite(it as u16, x, y, false) {
            if self.sprites[k].oriented {
                self.sprites[k].ori = dir;
            }
            if let Some(a) = ammo {
                if let Some(v) = self.resource(i, a) {
                    self.put_resource(i, a, v - 1);
                }
            }
        }
    }

    /// FlakAvatar's `updateUse`.
    fn flak_use(&mut self, i: usize) {
        let t = &self.rules.types[self.sprites[i].ty as usize];
        let (it, ammo, min, cost) = (t.itype, t.ammo.first().copied(), t.min_ammo, t.ammo_cost);
        let ok = match ammo {
            None => true,
            Some(a) => match self.resource(i, a) {
                None => false,
                Some(v) if min > -1 => v > min,
                Some(v) => v > 0,
            },
        };
        if !ok || it < 0 {
            return;
        }
        let (x, y) = (self.sprites[i].x as f64, self.sprites[i].y as f64);
        if self.add_sprite(it as u16, x, y, false).is_some() {
            if let Some(a) = ammo {
                if let Some(v) = self.resource(i, a) {
                    self.put_resource(i, a, v - cost);
                }
            }
        }
    }

    fn random_dir(&mut self) -> Dir {
        BASEDIRS[self.rng.next_int_bound(4) as usize]
    }

    /// A random base direction and its index in `BASEDIRS`.
    fn random_dir_index(&mut self) -> u8 {
        self.rng.next_int_bound(4) as u8
    }

    /// RandomNPC's `getRandomMove`.
    fn random_move(&mut self, i: usize) -> Dir {
        let cons = self.rules.types[self.sprites[i].ty as usize].cons;
        if self.sprites[i].age < cons {
            self.sprites[i].age += 1;
            self.sprites[i].prev_dir()
        } else {
            let k = self.random_dir_index();
            self.sprites[i].prev = k;
            self.sprites[i].age = 0;
            BASEDIRS[k as usize]
        }
    }

    /// A non-avatar sprite's `update`.
    pub(crate) fn update_sprite(&mut self, i: usize, c: Class) {
        match c {
            Class::Flicker | Class::OrientedFlicker => self.flicker(i),
            Class::Spreader => {
                self.flicker(i);
                if self.sprites[i].age == 2 {
                    let t = &self.rules.types[self.sprites[i].ty as usize];
                    let (prob, it) = (t.prob, t.itype);
                    let s = self.sprites[i];
                    let new_ty = if it == -1 { s.ty } else { it as u16 };
                    for u in [(0.0, -1.0), (-1.0, 0.0), (0.0, 1.0), (1.0, 0.0)] {
                        if self.rng.next_double() < prob {
                            let x = s.lx as f64 + u.0 * s.w as f64;
                            let y = s.ly as f64 + u.1 * s.h as f64;
                            self.add_sprite(new_ty, x, y, false);
                        }
                    }
                }
            }
            Class::RandomMissile => {
                if self.sprites[i].ori == DNIL {
                    let d = self.random_dir();
                    self.sprites[i].ori = d;
                }
                self.update_passive(i);
            }
            Class::SpawnPoint | Class::Bomber => self.spawn_point(i, None),
            Class::BomberRandomMissile => {
                let list = &self.rules.types[self.sprites[i].ty as usize].itype_list;
                let n = list.len() as i32;
                let k = self.rng.next_int_bound(n) as usize;
                let it = list[k];
                self.spawn_point(i, Some(&[it]));
            }
            Class::SpawnPointMultiSprite => {
                let list = self.rules.types[self.sprites[i].ty as usize]
                    .itype_list
                    .clone();
                self.spawn_point(i, Some(&list));
            }
            Class::RandomBomber => {
                let d = self.random_dir();
                let sp = self.sprites[i].speed;
                self.active_movement(i, d, sp);
                self.spawn_point(i, None);
            }
            Class::RandomNpc => {
                self.update_passive(i);
                let d = self.random_move(i);
                let sp = self.sprites[i].speed;
                self.active_movement(i, d, sp);
            }
            Class::Chaser | Class::Fleeing | Class::LosChaser => self.chaser(i, c),
            Class::PathChaser => self.path_chaser(i),
            Class::PathAltChaser => self.path_alt_chaser(i),
            Class::RandomPathAltChaser => {
                let eps = self.rules.types[self.sprites[i].ty as usize].epsilon;
                if self.rng.next_double() < eps {
                    self.update_passive(i);
                    let d = self.random_dir();
                    let sp = self.sprites[i].speed;
                    self.active_movement(i, d, sp);
                } else {
                    self.path_alt_chaser(i);
                }
            }
            _ => self.base_update(i),
        }
    }

    fn flicker(&mut self, i: usize) {
        self.base_update(i);
        let limit = self.rules.types[self.sprites[i].ty as usize].limit;
        if self.sprites[i].age > limit {
            self.kill(i, false);
        }
        self.sprites[i].age += 1;
    }

    /// SpawnPoint's update (`kinds`: the types to spawn instead of
    /// `stype`, for BomberRandomMissile and SpawnPointMultiSprite).
    fn spawn_point(&mut self, i: usize, kinds: Option<&[i32]>) {
        let tick = self.game_tick();
        if self.sprites[i].start == -1 {
            self.sprites[i].start = tick;
        }
        let roll = self.rng.next_float();
        let t = &self.rules.types[self.sprites[i].ty as usize];
        let (cool, prob, it, total, so) =
            (t.cooldown, t.prob, t.itype, t.total, t.spawn_orientation);
        let own = [self.spawn_type(i, it)];
        let kinds = kinds.unwrap_or(&own);
        let start = self.sprites[i].start;
        if start.wrapping_add(tick) % cool == 0 && (roll as f64) < prob {
            for &it in kinds {
                if it < 0 {
                    continue;
                }
                let (x, y) = (self.sprites[i].x as f64, self.sprites[i].y as f64);
                if let Some(k) = self.add_sprite(it as u16, x, y, false) {
                    self.sprites[i].age += 1;
                    if so != DNONE {
                        self.sprites[k].ori = so;
                    } else if self.sprites[k].ori == DNONE {
                        self.sprites[k].ori = self.sprites[i].ori;
                    }
                }
            }
        }
        self.base_update(i);
        if total > 0 && self.sprites[i].age >= total {
            self.kill(i, false);
        }
    }

    /// Chaser's `closestTargets`: the nearest sprites (Manhattan distance
    /// of the rectangles' corners) of the exact group of `it` if it has
    /// sprites, else of every subtype's group; LOSChaser keeps only those in
    /// its line of sight along its last random move.
    fn closest_targets(&self, i: usize, it: i32, los: bool) -> Vec<usize> {
        let mut targets: Vec<usize> = Vec::new();
        if it < 0 {
            return targets;
        }
        let me = self.sprites[i];
        let mut best = f64::MAX;
        let mut consider = |k: usize, targets: &mut Vec<usize>| {
            let s = &self.sprites[k];
            if los {
                let see = match me.prev_dir() {
                    (0.0, 1.0) => s.x == me.x && s.y >= me.y,
                    (0.0, -1.0) => s.x == me.x && s.y <= me.y,
                    (-1.0, 0.0) => s.x <= me.x && s.y == me.y,
                    (1.0, 0.0) => s.x >= me.x && s.y == me.y,
                    _ => false,
                };
                if !see {
                    return;
                }
            }
            let d = manhattan(&me, s);
            if d < best {
                best = d;
                targets.clear();
                targets.push(k);
            } else if d == best {
                targets.push(k);
            }
        };
        let mut group = Vec::new();
        if self.group_len(it as u16) > 0 {
            self.group(it as u16, &mut group);
        } else {
            for &st in &self.rules.types[it as usize].subtypes {
                self.group(st, &mut group);
            }
        }
        for k in group {
            consider(k, &mut targets);
        }
        targets
    }

    fn chaser(&mut self, i: usize, c: Class) {
        self.update_passive(i);
        let t = &self.rules.types[self.sprites[i].ty as usize];
        let (it, maxd) = (t.itype, t.max_distance);
        let fleeing = c == Class::Fleeing;
        let targets = self.closest_targets(i, it, c == Class::LosChaser);
        let me = self.sprites[i];
        let mut actions: Vec<Dir> = Vec::new();
        for &k in &targets {
            let s = self.sprites[k];
            let dist = manhattan(&me, &s);
            if maxd != -1.0 && dist > maxd as f64 {
                continue;
            }
            for d in BASEDIRS {
                let mut moved = me;
                moved.x = me.x.wrapping_add(d.0 as i32);
                moved.y = me.y.wrapping_add(d.1 as i32);
                let nd = manhattan(&moved, &s);
                if fleeing && dist < nd {
                    actions.push(d);
                }
                if !fleeing && dist > nd {
                    actions.push(d);
                }
            }
        }
        let act = if actions.is_empty() {
            self.random_move(i)
        } else {
            let k = self.rng.next_int_bound(actions.len() as i32) as usize;
            actions[k]
        };
        let sp = self.sprites[i].speed;
        self.active_movement(i, act, sp);
    }

    fn first_step(&self, from: (i32, i32), to: (i32, i32)) -> Option<Dir> {
        let p = self.paths.as_ref()?;
        p.first_step(
            self.block,
            (from.0 as f64, from.1 as f64),
            (to.0 as f64, to.1 as f64),
        )
    }

    fn path_chaser(&mut self, i: usize) {
        self.update_passive(i);
        let it = self.rules.types[self.sprites[i].ty as usize].itype;
        let targets = self.closest_targets(i, it, false);
        let act = if let Some(&k) = targets.first() {
            let (me, t) = (self.sprites[i], self.sprites[k]);
            let cons = self.rules.types[me.ty as usize].cons;
            self.sprites[i].age = cons;
            self.first_step((me.x, me.y), (t.x, t.y)).unwrap_or(DNONE)
        } else {
            self.random_move(i)
        };
        let sp = self.sprites[i].speed;
        self.active_movement(i, act, sp);
    }

    /// A sprite's rectangle by id, also after its removal (as GVGAI keeps
    /// the object a chaser points at).
    fn rect_of(&self, id: u32) -> Option<(i32, i32, i32, i32)> {
        match self.index_of(id) {
            Some(k) => {
                let s = &self.sprites[k];
                Some((s.x, s.y, s.w, s.h))
            }
            None => self
                .graveyard
                .iter()
                .find(|g| g.0 == id)
                .map(|g| (g.1, g.2, g.3, g.4)),
        }
    }

    /// AlternateChaser's `closestTargets` as PathAltChaser calls it: the
    /// target group is `stype1` whenever any such sprite exists (GVGAI
    /// counts `stype1` for both sides), the candidates are its subtypes'
    /// groups with the type's own group twice (`getSubSpritesGroup`).
    fn alt_targets(&mut self, i: usize) -> Vec<u32> {
        let t = &self.rules.types[self.sprites[i].ty as usize];
        let (itype1, random) = (t.itype1.clone(), t.random_target);
        let chasing: usize = itype1
            .iter()
            .filter(|&&x| x >= 0)
            .map(|&x| self.num_sprites(x as u16))
            .sum::<usize>()
            * 2;
        let mut out: Vec<u32> = Vec::new();
        if chasing == 0 || itype1.is_empty() || itype1[0] < 0 {
            return out;
        }
        let target = itype1[0] as u16;
        let mut cands: Vec<usize> = Vec::new();
        self.group(target, &mut cands);
        for &st in &self.rules.types[target as usize].subtypes {
            self.group(st, &mut cands);
        }
        if random {
            if cands.is_empty() {
                return out;
            }
            let k = self.rng.next_int_bound(cands.len() as i32) as usize;
            out.push(self.sprites[cands[k]].id);
            return out;
        }
        let me = self.sprites[i];
        let mut best = f64::MAX;
        for k in cands {
            let d = manhattan(&me, &self.sprites[k]);
            if d < best {
                best = d;
                out.clear();
                out.push(self.sprites[k].id);
            } else if d == best {
                out.push(self.sprites[k].id);
            }
        }
        out
    }

    fn path_alt_chaser(&mut self, i: usize) {
        self.update_passive(i);
        let me = self.sprites[i];
        let last = (me.target != u32::MAX)
            .then(|| self.rect_of(me.target))
            .flatten();
        let target: Option<u32> = match last {
            Some((x, y, w, h))
                if !(x >= me.x && y >= me.y && x + w <= me.x + me.w && y + h <= me.y + me.h) =>
            {
                Some(me.target)
            }
            _ => self.alt_targets(i).first().copied(),
        };
        let act = match target.and_then(|id| self.rect_of(id).map(|r| (id, r))) {
            Some((id, (tx, ty, _, _))) => {
                self.sprites[i].target = id;
                let mut step = self.first_step((me.x, me.y), (tx, ty));
                match (step, self.sprites[i].known()) {
                    (None, Some(k)) => step = self.first_step((me.x, me.y), k),
                    _ => self.sprites[i].set_known((tx, ty)),
                }
                step.unwrap_or(DNONE)
            }
            None => self.random_dir(),
        };
        let sp = self.sprites[i].speed;
        self.active_movement(i, act, sp);
    }
}

/// GridPhysics `distance`: Manhattan distance of the top-left corners.
fn manhattan(a: &super::engine::Sprite, b: &super::engine::Sprite) -> f64 {
    ((a.y as i64 - b.y as i64).abs() + (a.x as i64 - b.x as i64).abs()) as f64
}
