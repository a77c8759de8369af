//! GVGAI's `eventHandling`: end-of-screen effects, then pair effects pair by
//! pair, and what each effect does.

use super::cells::Scratch;
use super::engine::{normalise, State};
use super::model::{Class, EffectKind, DNONE};
use std::sync::Arc;

impl State {
    /// Indices of the sprites of `ty`'s subtypes, group by group in
    /// subtype order, each group in creation order.
    fn members(&self, ty: u16, out: &mut Vec<usize>) {
        out.clear();
        for &st in &self.rules.types[ty as usize].subtypes {
            self.group(st, out);
        }
    }

    fn at_edge(&self, i: usize) -> bool {
        let s = &self.sprites[i];
        let (x, y, w, h) = (s.x as i64, s.y as i64, s.w as i64, s.h as i64);
        !(x >= 0 && y >= 0 && x + w <= self.screen.0 as i64 && y + h <= self.screen.1 as i64)
    }

    pub(crate) fn event_handling(&mut self) {
        let rules = Arc::clone(&self.rules);
        let mut scratch = self.scratch.take();
        let Scratch {
            cells,
            firstx,
            secondx,
            hits,
            pos_of,
            extra,
            indexed,
            packed,
            ..
        } = &mut *scratch;
        packed.forget();
        let gt = self.game_tick();
        let mut guard = 0;
        while let Some(&(next, te)) = self.timers.first() {
            if next > gt || guard > 4 * rules.time_effects.len() {
                break;
            }
            guard += 1;
            self.timers.remove(0);
            let def = &rules.time_effects[te as usize];
            match def.itype {
                None => {
                    self.apply_global(def.effect as usize);
                    self.add_score(&def.score_change);
                }
                Some(itype) => {
                    self.members(itype, firstx);
                    for &k in firstx.iter() {
                        if !self.sprites[k].killed && !self.sprites[k].disabled {
                            self.apply(def.effect as usize, k, None);
                            self.add_score(&def.score_change);
                        }
                    }
                }
            }
            if def.repeating {
                self.add_timer(gt.wrapping_add(def.timer), te);
            }
        }
        for (ty, effs) in &rules.eos {
            for &ef in effs {
                self.members(*ty, firstx);
                for &k in firstx.iter() {
                    if self.at_edge(k) && !self.sprites[k].killed && !self.sprites[k].disabled {
                        self.execute(ef as usize, k, None);
                    }
                }
            }
        }
        let grid_cells = {
            let b = self.block.max(1) as usize;
            let (w, h) = (self.screen.0.max(0) as usize, self.screen.1.max(0) as usize);
            w.div_ceil(b).saturating_mul(h.div_ceil(b))
        };
        // The type whose members `cells` indexes (`indexed`, the second
        // side of every pair that uses the index), kept from pair to pair
        // while the members stay the same: the moves since its last query
        // are `self.moved[index_seen..]`, noted at the next query.
        let mut index_of: Option<u16> = None;
        let mut index_seen = 0;
        // Whether `pos_of` maps the indexed side.
        let mut pos_ready = false;
        for (t1, t2, effs) in &rules.pairs {
            // A copy of the effect before (`repeat=N`) that executed
            // nothing left the state as it was: this copy would too.
            let mut idle: Option<u16> = None;
            for &ef in effs {
                if idle == Some(ef) {
                    continue;
                }
                idle = Some(ef);
                let hash = rules.effects[ef as usize].hash;
                if self
                    .shields
                    .iter()
                    .any(|&(a, b, h)| a == *t1 && b == *t2 && h == hash)
                {
                    continue;
                }
                self.members(*t1, firstx);
                if firstx.is_empty() {
                    continue;
                }
                self.members(*t2, secondx);
                let how = Lookup::choose(firstx.len(), secondx.len(), grid_cells);
                let mut built = how == Lookup::Cells && index_of == Some(*t2) && secondx == indexed;
                if how == Lookup::Cells && !built {
                    // The index is built at the first query, of these members.
                    std::mem::swap(secondx, indexed);
                    index_of = Some(*t2);
                    pos_ready = false;
                    index_seen = self.moved.len();
                }
                if how == Lookup::Packed {
                    packed.use_side(*t2, secondx, &self.sprites, &self.moved);
                }
                let executed = self.executed;
                match how {
                    Lookup::Scan => {
                        for &s1 in firstx.iter() {
                            hits.clear();
                            self.scan(s1, secondx, hits);
                            self.fire(ef, s1, hits);
                        }
                    }
                    Lookup::Packed => {
                        // The same hits as the plain scan, from the packed
                        // rectangles.
                        for &s1 in firstx.iter() {
                            hits.clear();
                            packed.catch_up(&self.sprites, &self.moved);
                            packed.hits(&self.sprites, s1, hits);
                            self.fire(ef, s1, hits);
                        }
                    }
                    Lookup::Cells => {
                        // The same hits as the plain scan, found through a
                        // cell index of the second side. A sprite of that
                        // side that an effect moved since the index was
                        // built is a candidate of every query (`extra`)
                        // until the index is rebuilt.
                        let secondx: &[usize] = indexed;
                        let subs2 = &rules.types[*t2 as usize].subtypes;
                        for &s1 in firstx.iter() {
                            hits.clear();
                            let mut rebuild = !built;
                            if built && index_seen < self.moved.len() {
                                let side = Side {
                                    subs: subs2,
                                    members: secondx,
                                    pos_of,
                                    pos_ready: &mut pos_ready,
                                    extra,
                                };
                                rebuild = side.note_moved(&self.sprites, &self.moved[index_seen..]);
                            }
                            if rebuild {
                                cells.build(self, secondx);
                                extra.clear();
                                built = true;
                            }
                            index_seen = self.moved.len();
                            cells.candidates(self, s1, hits);
                            if !extra.is_empty() {
                                hits.extend_from_slice(extra);
                                hits.sort_unstable();
                                hits.dedup();
                            }
                            hits.retain(|&p| {
                                let s2 = secondx[p];
                                s1 != s2 && self.sprites[s1].intersects(&self.sprites[s2])
                            });
                            for h in hits.iter_mut() {
                                *h = secondx[*h];
                            }
                            self.fire(ef, s1, hits);
                        }
                    }
                }
                if self.executed != executed {
                    idle = None;
                }
            }
        }
        self.scratch.put(scratch);
    }

    /// Pushes the sprites of `side` that `s1` overlaps (GVGAI's test of
    /// every pair).
    #[inline(always)]
    fn scan(&self, s1: usize, side: &[usize], hits: &mut Vec<usize>) {
        for &s2 in side {
            if s1 != s2 && self.sprites[s1].intersects(&self.sprites[s2]) {
                hits.push(s2);
            }
        }
    }

    /// Executes effect `ef` on `s1` and each of `hits` that it still
    /// overlaps, while it is not killed.
    #[inline(always)]
    fn fire(&mut self, ef: u16, s1: usize, hits: &[usize]) {
        for &s2 in hits {
            if !self.sprites[s1].killed
                && s1 != s2
                && self.sprites[s1].intersects(&self.sprites[s2])
            {
                self.execute(ef as usize, s1, Some(s2));
            }
        }
    }

    /// `executeEffect`: the effect, then its score unless it cleared
    /// `applyScore`.
    fn execute(&mut self, ef: usize, s1: usize, s2: Option<usize>) {
        self.executed = self.executed.wrapping_add(1);
        self.apply(ef, s1, s2);
        if self.apply_score[ef] {
            let def = &self.rules.effects[ef];
            let text = match &def.kind {
                EffectKind::SubtractHealthPoints {
                    score_if_killed, ..
                } if self.score_killed[ef] => score_if_killed.as_str(),
                _ => def.score_change.as_str(),
            };
            super::multi::add_score(&mut self.score, &mut self.others, text);
        }
        if !self.counters.is_empty() {
            self.add_counters(ef);
        }
    }

    fn apply(&mut self, ef: usize, s1: usize, s2: Option<usize>) {
        let rules = Arc::clone(&self.rules);
        let def = &rules.effects[ef];
        match def.kind {
            EffectKind::UndoAll { .. } => self.moved.push(u32::MAX),
            EffectKind::StepBack { .. }
            | EffectKind::BounceForward
            | EffectKind::WrapAround { .. }
            | EffectKind::TurnAround
            | EffectKind::AttractGaze { .. }
            | EffectKind::Align { .. }
            | EffectKind::TeleportToExit
            | EffectKind::PullWithIt { .. } => self.moved.push(s1 as u32),
            _ => {}
        }
        match &def.kind {
            EffectKind::More(m) => self.apply_more(ef, m, s1, s2),
            EffectKind::StepBack { pixel_perfect } => {
                let (x, y) = match s2 {
                    Some(s2) if *pixel_perfect => {
                        pixel_perfect_rect(&self.sprites[s1], &self.sprites[s2])
                    }
                    _ => (self.sprites[s1].lx, self.sprites[s1].ly),
                };
                let s = &mut self.sprites[s1];
                s.x = x;
                s.y = y;
            }
            EffectKind::KillSprite => self.kill(s1, false),
            EffectKind::KillBoth => {
                if let Some(s2) = s2 {
                    self.kill(s1, false);
                    self.kill(s2, false);
                }
            }
            EffectKind::TransformTo {
                itype,
                kill_second,
                force_orientation,
            } => {
                if !self.sprites[s1].disabled {
                    let (x, y) = (self.sprites[s1].x as f64, self.sprites[s1].y as f64);
                    let n = self.add_sprite(*itype, x, y, false);
                    self.transform(n, s1, s2, *kill_second, *force_orientation);
                }
            }
            EffectKind::TransformToAll {
                itype,
                itype_to,
                kill_second,
                force_orientation,
            } => {
                self.transform_all(*itype, *itype_to, s2, *kill_second, *force_orientation);
            }
            EffectKind::TransformIfCount {
                itype,
                count,
                else_itype,
                geq,
                leq,
                kill_second,
                force_orientation,
            } => {
                let n = if *count >= 0 {
                    self.num_sprites(*count as u16) as i32
                } else {
                    0
                };
                self.apply_score[ef] = false;
                if let Some(c) = self.count_else.get_mut(ef) {
                    *c = false;
                }
                let (x, y) = (self.sprites[s1].x as f64, self.sprites[s1].y as f64);
                if n <= *leq && n >= *geq {
                    let k = self.add_sprite(*itype, x, y, true);
                    self.transform(k, s1, s2, *kill_second, *force_orientation);
                    self.apply_score[ef] = true;
                } else if *else_itype >= 0 {
                    if let Some(c) = self.count_else.get_mut(ef) {
                        *c = true;
                    }
                    let k = self.add_sprite(*else_itype as u16, x, y, true);
                    self.transform(k, s1, s2, *kill_second, *force_orientation);
                }
            }
            EffectKind::TransformToSingleton {
                itype,
                itype_other,
                take_orientation,
            } => {
                let mut group: Vec<usize> = Vec::new();
                self.group(*itype, &mut group);
                for k in group {
                    let (x, y) = (self.sprites[k].x as f64, self.sprites[k].y as f64);
                    if let Some(n) = self.add_sprite(*itype_other, x, y, false) {
                        self.singleton_fields(n, k);
                    }
                }
                let (x, y) = (self.sprites[s1].x as f64, self.sprites[s1].y as f64);
                if let Some(n) = self.add_sprite(*itype, x, y, false) {
                    self.singleton_fields(n, s1);
                    if *take_orientation {
                        if let Some(s2) = s2 {
                            let o = self.sprites[s2].ori;
                            self.sprites[n].oriented = true;
                            self.sprites[n].ori = (-o.0, -o.1);
                        }
                    }
                }
            }
            EffectKind::TransformToRandomChild {
                itype,
                kill_second,
                force_orientation,
            } => {
                let subs: Vec<u16> = rules.types[*itype as usize]
                    .subtypes
                    .iter()
                    .copied()
                    .filter(|t| t != itype)
                    .collect();
                if !subs.is_empty() {
                    let t = subs[self.rng.next_int_bound(subs.len() as i32) as usize];
                    let (x, y) = (self.sprites[s1].x as f64, self.sprites[s1].y as f64);
                    let k = self.add_sprite(t, x, y, false);
                    self.transform(k, s1, s2, *kill_second, *force_orientation);
                }
            }
            EffectKind::AddHealthPointsToMax { value, kill_second } => {
                self.apply_score[ef] = true;
                let s = &mut self.sprites[s1];
                let lim = rules.types[s.ty as usize].health.2;
                if s.health.wrapping_add(*value) < lim {
                    s.health = s.health.wrapping_add(*value);
                } else {
                    s.health = lim;
                }
                if s.health > s.max_health {
                    s.max_health = s.health;
                }
                if let (true, Some(s2)) = (*kill_second, s2) {
                    self.kill(s2, false);
                }
            }
            EffectKind::Align { orient } => {
                let Some(s2) = s2 else { return };
                let o = self.sprites[s2];
                let s = &mut self.sprites[s1];
                if *orient {
                    s.ori = o.ori;
                }
                s.x = o.x;
                s.y = o.y;
            }
            EffectKind::SetSpeedForAll { itype, value } => {
                self.set_speed_all(*itype, *value);
            }
            EffectKind::TeleportToExit => {
                let Some(s2) = s2 else { return };
                let pt = &rules.types[self.sprites[s2].ty as usize];
                if !pt.has_itype_field || pt.itype < 0 {
                    return;
                }
                let mut dest: Vec<usize> = Vec::new();
                self.group(pt.itype as u16, &mut dest);
                if dest.is_empty() {
                    self.kill(s1, false);
                } else {
                    let d = dest[self.rng.next_int_bound(dest.len() as i32) as usize];
                    let t = self.sprites[d];
                    let oriented = t.oriented;
                    let s = &mut self.sprites[s1];
                    s.x = t.x;
                    s.y = t.y;
                    s.w = t.w;
                    s.h = t.h;
                    s.lastmove = 0;
                    if oriented {
                        s.ori = t.ori;
                    }
                }
            }
            EffectKind::PullWithIt { pixel_perfect } => {
                let Some(s2) = s2 else { return };
                let gt = self.game_tick();
                if gt > self.pull_tick[ef] {
                    self.pulled.retain(|p| p.0 as usize != ef);
                    self.pull_tick[ef] = gt;
                }
                let key = (ef as u16, self.sprites[s1].id);
                match self.pulled.binary_search(&key) {
                    Ok(_) => return,
                    Err(at) => self.pulled.insert(at, key),
                }
                let o = self.sprites[s2];
                let v = normalise(o.last_dir());
                let px = (o.speed * self.block as f64) as i32;
                self.update_pos(s1, v, px);
                if *pixel_perfect {
                    let s = &mut self.sprites[s1];
                    s.x = o.x;
                    s.y = o.y;
                }
            }
            EffectKind::SpawnNext {
                itype,
                dir,
                step_back,
            } => {
                let Some(s2) = s2 else { return };
                if self.rng.next_double() >= def.prob {
                    return;
                }
                let o = self.sprites[s2];
                let pos = if *step_back {
                    (!o.last_intersects()).then_some((o.lx, o.ly))
                } else {
                    Some((o.x, o.y))
                };
                if let (Some((x, y)), true) = (pos, *itype >= 0) {
                    let nx = x.wrapping_add(dir.0.wrapping_mul(self.block));
                    let ny = y.wrapping_add(dir.1.wrapping_mul(self.block));
                    self.add_sprite(*itype as u16, nx as f64, ny as f64, false);
                }
            }
            EffectKind::AddTimer { timer } => {
                let te = &rules.time_effects[*timer as usize];
                let at = self.game_tick().wrapping_add(te.timer);
                self.add_timer(at, *timer);
            }
            EffectKind::UndoAll { not_itypes } => {
                for &t in &rules.sprite_order {
                    if not_itypes.contains(&(t as i32)) {
                        continue;
                    }
                    for k in 0..self.sprites.len() {
                        let s = &self.sprites[k];
                        // A sprite that did not move is not written (a
                        // write to a shared sprite copies the shared part).
                        if s.ty == t && (s.x != s.lx || s.y != s.ly) {
                            let s = &mut self.sprites[k];
                            s.x = s.lx;
                            s.y = s.ly;
                        }
                    }
                }
            }
            EffectKind::BounceForward => {
                let Some(s2) = s2 else { return };
                let o = self.sprites[s2];
                let ld = o.last_dir();
                let mut d = normalise(ld);
                if ld.0 * o.ori.0 < 0.0 {
                    d.0 *= -1.0;
                }
                if ld.1 * o.ori.1 < 0.0 {
                    d.1 *= -1.0;
                }
                self.active_movement(s1, d, o.speed);
                self.sprites[s1].ori = d;
            }
            EffectKind::ChangeResource {
                resource,
                value,
                kill_resource,
            } => {
                let Some(s2) = s2 else { return };
                let n = self.amount(s1, *resource);
                self.apply_score[ef] = false;
                if n.wrapping_add(*value) <= self.resource_limit(*resource) {
                    self.modify_resource(s1, *resource, *value);
                    self.apply_score[ef] = true;
                    if *kill_resource {
                        self.kill(s2, true);
                    }
                }
            }
            EffectKind::CollectResource { kill_resource } => {
                let Some(s2) = s2 else { return };
                if self.class(s1) == Class::Resource {
                    let t = &rules.types[self.sprites[s1].ty as usize];
                    let r = self.sprites[s1].ty as i32;
                    self.apply_score[ef] = false;
                    let n = self.amount(s2, r);
                    let lim = self.resource_limit(r);
                    if n < lim {
                        let topup = t.value.min(lim.wrapping_sub(n));
                        self.apply_score[ef] = true;
                        self.modify_resource(s2, r, topup);
                        if *kill_resource {
                            self.kill(s1, true);
                        }
                    }
                }
            }
            EffectKind::CollectResourceIfHeld {
                held,
                value,
                kill_resource,
            } => {
                let Some(s2) = s2 else { return };
                if self.class(s1) == Class::Resource {
                    let rv = rules.types[self.sprites[s1].ty as usize].value;
                    let r = self.sprites[s1].ty as i32;
                    self.apply_score[ef] = false;
                    if self.amount(s2, *held) < *value {
                        return;
                    }
                    if self.amount(s2, r).wrapping_add(rv) <= self.resource_limit(r) {
                        self.apply_score[ef] = true;
                        self.modify_resource(s2, r, rv);
                    }
                    if *kill_resource {
                        self.kill(s1, false);
                    }
                }
            }
            EffectKind::KillIfHasLess { resource, limit } => {
                self.apply_score[ef] = false;
                if self.amount(s1, *resource) <= *limit {
                    self.kill(s1, false);
                    self.apply_score[ef] = true;
                }
            }
            EffectKind::KillIfHasMore { resource, limit } => {
                self.apply_score[ef] = false;
                if self.amount(s1, *resource) >= *limit {
                    self.apply_score[ef] = true;
                    self.kill(s1, false);
                }
            }
            EffectKind::KillIfOtherHasMore {
                resource,
                limit,
                subtract,
            } => {
                let Some(s2) = s2 else { return };
                self.apply_score[ef] = false;
                if self.amount(s2, *resource) >= *limit {
                    self.apply_score[ef] = true;
                    self.kill(s1, false);
                    if *subtract {
                        let prev = self.amount(s2, *resource);
                        self.put_resource(s2, *resource, prev.wrapping_sub(*limit).max(0));
                    }
                }
            }
            EffectKind::KillAll { itype } => {
                for k in 0..self.sprites.len() {
                    if self.sprites[k].ty == *itype {
                        self.kill(k, false);
                    }
                }
            }
            EffectKind::AddHealthPoints { value, kill_second } => {
                self.apply_score[ef] = false;
                let s = &mut self.sprites[s1];
                let lim = rules.types[s.ty as usize].health.2;
                if s.health.wrapping_add(*value) < lim {
                    s.health = s.health.wrapping_add(*value);
                    if s.health > s.max_health {
                        s.max_health = s.health;
                    }
                    self.apply_score[ef] = true;
                    if let (true, Some(s2)) = (*kill_second, s2) {
                        self.kill(s2, false);
                    }
                }
            }
            EffectKind::SubtractHealthPoints {
                value,
                itype,
                limit,
                ..
            } => {
                let mut s = s1;
                if *itype != -1 {
                    for &st in &rules.types[*itype as usize].subtypes {
                        if let Some(k) = self.sprites.iter().position(|x| x.ty == st) {
                            s = k;
                        }
                    }
                }
                self.sprites[s].health = self.sprites[s].health.wrapping_sub(*value);
                if self.sprites[s].health <= *limit {
                    self.kill(s, false);
                    self.score_killed[ef] = true;
                } else {
                    self.score_killed[ef] = false;
                }
            }
            EffectKind::WrapAround { offset } => {
                let (sw, sh) = self.screen;
                let s = &mut self.sprites[s1];
                if s.ori.0 > 0.0 {
                    s.x = (offset * s.w as f64) as i32;
                } else if s.ori.0 < 0.0 {
                    s.x = (sw as f64 - s.w as f64 * (1.0 + offset)) as i32;
                } else if s.ori.1 > 0.0 {
                    s.y = (offset * s.h as f64) as i32;
                } else if s.ori.1 < 0.0 {
                    s.y = (sh as f64 - s.h as f64 * (1.0 + offset)) as i32;
                }
                s.lastmove = 0;
            }
            EffectKind::ReverseDirection => {
                let s = &mut self.sprites[s1];
                s.ori = (-s.ori.0, -s.ori.1);
            }
            EffectKind::TurnAround => {
                let cool = rules.types[self.sprites[s1].ty as usize].cooldown;
                let s = &mut self.sprites[s1];
                s.x = s.lx;
                s.y = s.ly;
                for _ in 0..2 {
                    self.sprites[s1].lastmove = cool;
                    let sp = self.sprites[s1].speed;
                    self.active_movement(s1, (0.0, 1.0), sp);
                }
                let s = &mut self.sprites[s1];
                s.ori = (-s.ori.0, -s.ori.1);
            }
            EffectKind::FlipDirection => {
                let k = self.rng.next_int_bound(4) as usize;
                self.sprites[s1].ori = super::model::BASEDIRS[k];
            }
            EffectKind::AttractGaze { align } => {
                let Some(s2) = s2 else { return };
                let o1 = self.sprites[s1].oriented;
                let o2 = self.sprites[s2].oriented;
                if o1 && o2 && self.rng.next_double() < def.prob {
                    let other = self.sprites[s2];
                    let s = &mut self.sprites[s1];
                    s.ori = other.ori;
                    if *align {
                        if s.ori == (-1.0, 0.0) || s.ori == (1.0, 0.0) {
                            s.y = other.y;
                        } else {
                            s.x = other.x;
                        }
                    }
                }
            }
            EffectKind::Spawn { itype } => {
                if self.rng.next_double() >= def.prob {
                    return;
                }
                let (x, y) = (self.sprites[s1].x as f64, self.sprites[s1].y as f64);
                self.add_sprite(*itype, x, y, false);
            }
            EffectKind::SpawnIfHas {
                itype,
                resource,
                limit,
                more,
                spend,
            } => {
                self.apply_score[ef] = false;
                if self.rng.next_double() >= def.prob {
                    return;
                }
                let n = self.amount(s1, *resource);
                if (*more && n >= *limit) || (!*more && n <= *limit) {
                    let (x, y) = (self.sprites[s1].x as f64, self.sprites[s1].y as f64);
                    self.add_sprite(*itype, x, y, false);
                    self.apply_score[ef] = true;
                    if *more {
                        self.modify_resource(s1, *resource, -spend);
                    }
                }
            }
            EffectKind::KillIfFrontal | EffectKind::KillIfNotFrontal => {
                let Some(s2) = s2 else { return };
                let a = normalise(self.sprites[s1].last_dir());
                let b = normalise(self.sprites[s2].last_dir());
                let sum = (a.0 + b.0, a.1 + b.1);
                let frontal = matches!(def.kind, EffectKind::KillIfFrontal);
                self.apply_score[ef] = false;
                let hit = if frontal {
                    a == DNONE || sum == DNONE
                } else {
                    a == DNONE || sum != DNONE
                };
                if hit {
                    self.apply_score[ef] = true;
                    self.kill(s1, false);
                }
            }
            EffectKind::KillIfFromAbove => {
                let Some(s2) = s2 else { return };
                let (a, b) = (self.sprites[s1], self.sprites[s2]);
                let higher = a.ly as f64 > b.ly as f64 + (b.h / 2) as f64;
                let down = b.y > b.ly;
                self.apply_score[ef] = false;
                if higher && down {
                    self.apply_score[ef] = true;
                    self.kill(s1, false);
                }
            }
            EffectKind::ShieldFrom { itype, ftype } => {
                // GVGAI's list only answers `contains`: one entry is enough.
                let key = (self.sprites[s1].ty, *itype, *ftype);
                if !self.shields.contains(&key) {
                    self.shields.push(key);
                }
            }
            EffectKind::CloneSprite => {
                let s = self.sprites[s1];
                self.add_sprite(s.ty, s.x as f64, s.y as f64, false);
            }
        }
    }

    /// `transformToAll`: every sprite of `itype` becomes an `itype_to`.
    pub(crate) fn transform_all(
        &mut self,
        itype: u16,
        itype_to: u16,
        s2: Option<usize>,
        kill_second: bool,
        force_orientation: bool,
    ) {
        let mut group: Vec<usize> = Vec::new();
        self.group(itype, &mut group);
        for k in group {
            let (x, y) = (self.sprites[k].x as f64, self.sprites[k].y as f64);
            let n = self.add_sprite(itype_to, x, y, true);
            self.transform(n, k, s2, kill_second, force_orientation);
        }
    }

    /// `setSpeedForAll`.
    pub(crate) fn set_speed_all(&mut self, itype: u16, value: f64) {
        let subs = self.rules.types[itype as usize].subtypes.clone();
        for k in 0..self.sprites.len() {
            if subs.contains(&self.sprites[k].ty) {
                self.sprites[k].speed = value;
            }
        }
    }

    /// A timed effect queued by `addTimer` (it runs on no sprite).
    pub(crate) fn apply_global(&mut self, ef: usize) {
        let rules = Arc::clone(&self.rules);
        match &rules.effects[ef].kind {
            EffectKind::TransformToAll {
                itype,
                itype_to,
                force_orientation,
                ..
            } => self.transform_all(*itype, *itype_to, None, false, *force_orientation),
            EffectKind::SetSpeedForAll { itype, value } => self.set_speed_all(*itype, *value),
            EffectKind::KillAll { itype } => {
                for k in 0..self.sprites.len() {
                    if self.sprites[k].ty == *itype {
                        self.kill(k, false);
                    }
                }
            }
            _ => {}
        }
    }

    /// `TransformToSingleton.setSpriteFields`.
    fn singleton_fields(&mut self, n: usize, old: usize) {
        let o = self.sprites[old];
        if self.sprites[n].oriented && o.oriented {
            self.sprites[n].ori = o.ori;
        }
        self.sprites[n].lx = o.lx;
        self.sprites[n].ly = o.ly;
        self.stale_last = true;
        let res: Vec<(u16, i32)> = self
            .resources
            .iter()
            .filter(|e| e.0 == o.id)
            .map(|e| (e.1, e.2))
            .collect();
        for (r, v) in res {
            self.modify_resource(n, r as i32, v);
        }
        let mut transformed = true;
        if self.class(old).is_avatar() {
            if self.class(n).is_avatar() {
                self.replace_avatar(self.sprites[old].id, self.sprites[n].id);
            } else {
                transformed = false;
            }
        }
        self.kill(old, transformed);
    }

    /// `TransformTo.transformTo`: the new sprite takes the old one's
    /// orientation (when asked or when it has none), last rectangle,
    /// resources, health, and the avatar's place.
    fn transform(
        &mut self,
        n: Option<usize>,
        s1: usize,
        s2: Option<usize>,
        kill_second: bool,
        force_orientation: bool,
    ) {
        let Some(n) = n else { return };
        let old = self.sprites[s1];
        if force_orientation
            || (self.sprites[n].oriented && old.oriented && self.sprites[n].ori == DNONE)
        {
            self.sprites[n].ori = old.ori;
        }
        self.sprites[n].lx = old.lx;
        self.sprites[n].ly = old.ly;
        self.stale_last = true;
        let res: Vec<(u16, i32)> = self
            .resources
            .iter()
            .filter(|e| e.0 == old.id)
            .map(|e| (e.1, e.2))
            .collect();
        for (r, v) in res {
            self.modify_resource(n, r as i32, v);
        }
        let mut transformed = true;
        if self.class(s1).is_avatar() {
            if self.class(n).is_avatar() {
                self.replace_avatar(old.id, self.sprites[n].id);
            } else {
                transformed = false;
            }
        }
        self.sprites[n].health = old.health;
        self.kill(s1, transformed);
        if let (true, Some(s2)) = (kill_second, s2) {
            self.kill(s2, true);
        }
    }
}

/// The indexed second side of a pair effect, as its sprites move.
struct Side<'a> {
    /// The types in it (the subtypes of the pair's second type).
    subs: &'a [u16],
    /// Its sprites' indices, in the order the index numbers them.
    members: &'a [usize],
    /// Per sprite index, its position in `members` (once `pos_ready`).
    pos_of: &'a mut Vec<u32>,
    pos_ready: &'a mut bool,
    /// Positions of its sprites moved since the index was built.
    extra: &'a mut Vec<usize>,
}

impl Side<'_> {
    /// Adds the sprites of this side among `moved` (sprite indices,
    /// `u32::MAX`: every sprite) to `extra`; returns whether the index must
    /// be rebuilt instead (every sprite moved, or `extra` grew past a
    /// sixteenth of the side).
    #[inline(never)]
    fn note_moved(self, sprites: &super::engine::Sprites, moved: &[u32]) -> bool {
        for &m in moved {
            if m == u32::MAX {
                return true;
            }
            if !self.subs.contains(&sprites[m as usize].ty) {
                continue;
            }
            if !*self.pos_ready {
                self.pos_of.clear();
                self.pos_of.resize(sprites.len(), u32::MAX);
                for (p, &k) in self.members.iter().enumerate() {
                    self.pos_of[k] = p as u32;
                }
                *self.pos_ready = true;
            }
            match self.pos_of.get(m as usize) {
                Some(&p) if p != u32::MAX => self.extra.push(p as usize),
                _ => return true,
            }
        }
        self.extra.len() > 8 + self.members.len() / 16
    }
}

/// `Effect.calculatePixelPerfect`: where `a` stops when it moved straight
/// into `b` (its last position when it did not move straight).
fn pixel_perfect_rect(a: &super::engine::Sprite, b: &super::engine::Sprite) -> (i32, i32) {
    match normalise(a.last_dir()) {
        (0.0, 1.0) => (
            a.x,
            a.y.wrapping_sub(a.y.wrapping_add(a.h).wrapping_sub(b.y)),
        ),
        (1.0, 0.0) => (
            a.x.wrapping_sub(a.x.wrapping_add(a.w).wrapping_sub(b.x)),
            a.y,
        ),
        (0.0, -1.0) => (a.x, b.y.wrapping_add(b.h)),
        (-1.0, 0.0) => (b.x.wrapping_add(b.w), a.y),
        _ => (a.lx, a.ly),
    }
}

/// How a pair effect finds the sprites of its second side that a first
/// sprite overlaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lookup {
    /// Test every sprite of the side.
    Scan,
    /// Through the side's rectangles packed into columns ([`super::packed`]).
    Packed,
    /// Through a cell index of the side ([`super::cells`]).
    Cells,
}

impl Lookup {
    /// For `first` and `second` sprites on a grid of `cells` cells: a cell
    /// index when the side has more than [`PACKED_MAX`] sprites and the
    /// queries pay for building it (about `8 * second` steps plus a pass
    /// over the grid, capped where the index is a sorted list, then about
    /// 16 per query, against `second` per query); packed rectangles when at
    /// least [`PACKED_FIRST`] first sprites query a side of three or more;
    /// else the plain scan.
    fn choose(first: usize, second: usize, cells: usize) -> Lookup {
        let build = 8 * second + cells.min(16 * second + 4096) / 2;
        if second > PACKED_MAX && first.saturating_mul(second) > build + 16 * first {
            Lookup::Cells
        } else if first >= PACKED_FIRST && second > 2 {
            Lookup::Packed
        } else {
            Lookup::Scan
        }
    }
}

/// The largest second side searched through packed rectangles rather than
/// a cell index.
const PACKED_MAX: usize = 32;

/// The fewest first sprites whose queries pay for packing the second side.
const PACKED_FIRST: usize = 4;

#[cfg(test)]
mod tests {
    use crate::vgdl::model::Action;
    use crate::vgdl::Vgdl;

    /// Boxes fly right, one per row of `rows`; the two that reach a wall
    /// (there are two, too few to index) wrap onto the hole at the left
    /// edge of their row, which then scores. The boxes' side is searched
    /// for `box box` and the same search used again for `hole box`. The
    /// score after twelve cycles.
    fn boxes_wrapping_onto_holes(rows: usize) -> f64 {
        let game = "BasicGame square_size=10\n  SpriteSet\n    floor > Immovable\n    hole > Immovable\n    wall > Immovable\n    box > Missile orientation=RIGHT speed=1\n    avatar > MovingAvatar\n  LevelMapping\n    . > floor\n    h > hole\n    w > wall\n    b > box\n  InteractionSet\n    box box > reverseDirection\n    box wall > wrapAround\n    hole box > killSprite scoreChange=1\n  TerminationSet\n    Timeout limit=100 win=True\n";
        let mut level = String::from("A..........\n");
        for r in 0..rows {
            level += if r < 2 {
                "hb........w\n"
            } else {
                "hb.........\n"
            };
        }
        let mut st = Vgdl::parse(game).unwrap().level(&level, 0).unwrap().state;
        for _ in 0..12 {
            st.cycle(Action::Nil);
        }
        st.score
    }

    /// Forty boxes: their cell index is built for `box box` and used again
    /// for `hole box`; the boxes that `box wall` moved in between must be
    /// found where they are now, not where they were when the index was
    /// built.
    #[test]
    fn a_reused_cell_index_sees_the_sprites_moved_since_it_was_built() {
        assert_eq!(
            boxes_wrapping_onto_holes(40),
            2.0,
            "both boxes that wrapped hit their row's hole"
        );
    }

    /// Ten boxes (too few to index): they are packed for `box box` and the
    /// packing is used again for `hole box`; the two boxes that `box wall`
    /// wrapped in between must be found on their holes.
    #[test]
    fn reused_packed_rectangles_see_the_sprites_moved_since_they_were_packed() {
        assert_eq!(
            boxes_wrapping_onto_holes(10),
            2.0,
            "both boxes that wrapped hit their row's hole"
        );
    }

    /// Three boxes in a row pushed left: the rightmost moves onto the
    /// middle one, which the first copy of `box box` moves onto the left
    /// one, which only the second copy moves on (boxes are handled in
    /// creation order, left to right). The copies after the first that
    /// executes nothing are skipped; the ones before must all run.
    #[test]
    fn repeated_copies_of_an_effect_run_until_one_does_nothing() {
        let game = "BasicGame square_size=10\n  SpriteSet\n    floor > Immovable\n    box > Passive\n    avatar > MovingAvatar\n  LevelMapping\n    . > floor\n    b > box\n  InteractionSet\n    box avatar > bounceForward\n    box box > bounceForward repeat=5\n  TerminationSet\n    Timeout limit=100 win=True\n";
        let mut st = Vgdl::parse(game)
            .unwrap()
            .level("....bbbA", 0)
            .unwrap()
            .state;
        st.cycle(Action::Left);
        let mut xs: Vec<i32> = st
            .sprites
            .iter()
            .filter(|s| st.rules.types[s.ty as usize].name == "box")
            .map(|s| s.x)
            .collect();
        xs.sort_unstable();
        assert_eq!(xs, vec![30, 40, 50], "the whole row moved one cell left");
    }
}
