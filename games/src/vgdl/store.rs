//! The sprites of a state: a part shared between clones followed by a part
//! each state owns. The shared part holds the sprites of inert types built
//! with the level (walls, floor: most sprites of most levels), which a
//! cycle never writes; a clone shares it (one reference count) and copies
//! only the owned part. A write to a shared sprite (a kill, say) first
//! copies the shared part for the state that writes (`Arc::make_mut`).
//!
//! Sprites are indexed shared part first, then owned part, each in
//! creation order. Every sprite of a type that has shared sprites was built
//! with the level before any sprite created later (which go to the owned
//! part), so each type's sprites are in creation order by index (GVGAI's
//! sprite groups); across types the index order is not the id order.

use super::model::{Dir, DNONE};
use super::pool::PoolVec;
use std::ops::{Index, IndexMut};
use std::sync::Arc;

/// One sprite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    /// GVGAI's `spriteID` (creation order).
    pub id: u32,
    /// Type id.
    pub ty: u16,
    /// Rectangle, integer pixels.
    pub x: i32,
    /// Top.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
    /// `lastrect` position (same size as the rectangle).
    pub lx: i32,
    /// `lastrect` top.
    pub ly: i32,
    /// Orientation.
    pub ori: Dir,
    /// Ticks since the last move.
    pub lastmove: i32,
    /// Current speed.
    pub speed: f64,
    /// `healthPoints`.
    pub health: i32,
    /// `maxHealthPoints`.
    pub max_health: i32,
    /// `timeToLive`.
    pub ttl: i32,
    /// Flicker `age`, RandomNPC `counter`, SpawnPoint `counter` (one
    /// field: no class has two of them); PathAltChaser's
    /// `lastKnownTargetPosition` x (see [`Sprite::known`]).
    pub age: i32,
    /// SpawnPoint `start` (-1 until the first update); PathAltChaser's
    /// `lastKnownTargetPosition` y.
    pub start: i32,
    /// RandomNPC `prevAction`: an index into `BASEDIRS`, or
    /// [`PREV_NONE`] for `DNONE` (see [`Sprite::prev_dir`]).
    pub prev: u8,
    /// PathAltChaser `lastTarget` (a sprite id; `u32::MAX`: none).
    pub target: u32,
    /// Whether `age` and `start` hold a PathAltChaser's
    /// `lastKnownTargetPosition` (pixels; that class uses neither field
    /// otherwise).
    pub has_known: bool,
    /// `is_oriented` (the type's, unless `transformToSingleton` set it).
    pub oriented: bool,
    /// Passive movement not yet skipped once.
    pub first_tick: bool,
    /// A killed avatar.
    pub disabled: bool,
    /// In this tick's kill list.
    pub killed: bool,
}

/// [`Sprite::prev`] when the sprite has made no random move (`DNONE`).
pub const PREV_NONE: u8 = u8::MAX;

impl Sprite {
    /// RandomNPC `prevAction` as a direction.
    #[inline]
    pub fn prev_dir(&self) -> Dir {
        match self.prev {
            PREV_NONE => DNONE,
            k => super::model::BASEDIRS[k as usize],
        }
    }

    /// PathAltChaser's `lastKnownTargetPosition`, if any.
    #[inline]
    pub fn known(&self) -> Option<(i32, i32)> {
        self.has_known.then_some((self.age, self.start))
    }

    /// Sets PathAltChaser's `lastKnownTargetPosition`.
    #[inline]
    pub(crate) fn set_known(&mut self, at: (i32, i32)) {
        (self.age, self.start) = at;
        self.has_known = true;
    }

    /// GVGAI's `Rectangle.intersects`.
    #[inline]
    pub fn intersects(&self, o: &Sprite) -> bool {
        let (ax, ay, aw, ah) = (self.x as i64, self.y as i64, self.w as i64, self.h as i64);
        let (bx, by, bw, bh) = (o.x as i64, o.y as i64, o.w as i64, o.h as i64);
        aw > 0
            && ah > 0
            && bw > 0
            && bh > 0
            && bx < ax + aw
            && by < ay + ah
            && ax < bx + bw
            && ay < by + bh
    }
    pub(crate) fn last_intersects(&self) -> bool {
        let (x, y, lx, ly) = (self.x as i64, self.y as i64, self.lx as i64, self.ly as i64);
        let (w, h) = (self.w as i64, self.h as i64);
        lx < x + w && ly < y + h && x < lx + w && y < ly + h
    }
    /// `lastDirection()`.
    pub fn last_dir(&self) -> (f64, f64) {
        ((self.x - self.lx) as f64, (self.y - self.ly) as f64)
    }
}

#[cfg(test)]
impl Sprite {
    /// A sprite of type `ty` at rectangle `(x, y, w, h)` that has not moved,
    /// with every other field at its start value (for tests).
    pub(crate) fn plain(id: u32, ty: u16, (x, y, w, h): (i32, i32, i32, i32)) -> Sprite {
        Sprite {
            id,
            ty,
            x,
            y,
            w,
            h,
            lx: x,
            ly: y,
            ori: (0.0, 0.0),
            lastmove: 0,
            speed: 0.0,
            health: 0,
            max_health: 0,
            ttl: -1,
            age: 0,
            start: -1,
            prev: PREV_NONE,
            target: u32::MAX,
            has_known: false,
            oriented: false,
            first_tick: true,
            disabled: false,
            killed: false,
        }
    }
}

/// The sprites of a state (see the module's documentation): indexed like a
/// vector, iterated in index order.
#[derive(Clone, Default)]
pub struct Sprites {
    /// The shared part: indices `0..shared.len()`.
    shared: Arc<Vec<Sprite>>,
    /// `shared.len()`.
    n_shared: usize,
    /// The owned part: indices from `n_shared` on.
    own: PoolVec<Sprite>,
}

/// The iterator of [`Sprites::iter`].
pub type Iter<'a> = std::iter::Chain<std::slice::Iter<'a, Sprite>, std::slice::Iter<'a, Sprite>>;
/// The iterator of [`Sprites::iter_mut`].
pub type IterMut<'a> =
    std::iter::Chain<std::slice::IterMut<'a, Sprite>, std::slice::IterMut<'a, Sprite>>;

impl Sprites {
    /// Number of sprites.
    #[inline]
    pub fn len(&self) -> usize {
        self.n_shared + self.own.len()
    }

    /// Whether there is no sprite.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of sprites in the shared part (the first indices).
    #[inline]
    pub fn shared_len(&self) -> usize {
        self.n_shared
    }

    /// Appends a sprite (to the owned part).
    #[inline]
    pub fn push(&mut self, s: Sprite) {
        self.own.push(s);
    }

    /// The sprites in index order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        self.shared.iter().chain(self.own.iter())
    }

    /// The sprites from index `from` on.
    #[inline]
    pub fn iter_from(&self, from: usize) -> Iter<'_> {
        let (a, b) = self.parts_from(from);
        a.iter().chain(b.iter())
    }

    /// The owned part from index `from` on (`from` at least
    /// [`Sprites::shared_len`]; empty past the end).
    #[inline]
    pub(crate) fn own_from(&self, from: usize) -> &[Sprite] {
        debug_assert!(from >= self.n_shared);
        self.own
            .get(from.wrapping_sub(self.n_shared)..)
            .unwrap_or(&[])
    }

    /// Calls `f` with the index and sprite of each sprite from index `from`
    /// on (one slice when `from` is in the owned part, as the sprites added
    /// since the last rebuild of the per-type index are).
    #[inline]
    pub(crate) fn for_each_from(&self, from: usize, mut f: impl FnMut(usize, &Sprite)) {
        match from
            .checked_sub(self.n_shared)
            .and_then(|b| self.own.get(b..))
        {
            Some(tail) => tail.iter().enumerate().for_each(|(k, s)| f(from + k, s)),
            None => self
                .iter_from(from)
                .enumerate()
                .for_each(|(k, s)| f(from + k, s)),
        }
    }

    /// The sprites from index `from` on as two slices: those of the
    /// shared part, then those of the owned part.
    #[inline]
    pub fn parts_from(&self, from: usize) -> (&[Sprite], &[Sprite]) {
        let a = from.min(self.n_shared);
        let b = from.saturating_sub(self.n_shared).min(self.own.len());
        (&self.shared[a..], &self.own[b..])
    }

    /// The sprites in index order, mutably (copies the shared part first
    /// when another state shares it).
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        let shared: &mut [Sprite] = if self.n_shared == 0 {
            &mut []
        } else {
            Arc::make_mut(&mut self.shared).as_mut_slice()
        };
        shared.iter_mut().chain(self.own.iter_mut())
    }

    /// Keeps the sprites for which `keep` holds, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Sprite) -> bool) {
        if self.shared.iter().any(|s| !keep(s)) {
            let shared = Arc::make_mut(&mut self.shared);
            shared.retain(|s| keep(s));
            self.n_shared = shared.len();
        }
        self.own.retain(keep);
    }

    /// Index of the sprite with this id.
    #[inline]
    pub fn position(&self, id: u32) -> Option<usize> {
        match self.own.binary_search_by_key(&id, |s| s.id) {
            Ok(k) => Some(self.n_shared + k),
            Err(_) if self.n_shared > 0 => self.shared.binary_search_by_key(&id, |s| s.id).ok(),
            Err(_) => None,
        }
    }

    /// Moves the sprites for which `share` holds to the shared part (keeping
    /// their order, and the order of the others), when it is empty; the
    /// indices change.
    pub fn share(&mut self, share: impl Fn(&Sprite) -> bool) {
        if self.n_shared > 0 {
            return;
        }
        let (shared, own): (Vec<Sprite>, Vec<Sprite>) = self.own.iter().partition(|s| share(s));
        self.n_shared = shared.len();
        self.shared = Arc::new(shared);
        self.own.clear();
        self.own.extend_from_slice(&own);
    }

    /// The sprites in index order as a plain vector.
    pub fn into_vec(self) -> Vec<Sprite> {
        self.iter().copied().collect()
    }
}

impl Index<usize> for Sprites {
    type Output = Sprite;
    #[inline]
    fn index(&self, i: usize) -> &Sprite {
        // Below `n_shared` the subtraction wraps past the owned part's end
        // (one comparison for both parts' bounds).
        match self.own.get(i.wrapping_sub(self.n_shared)) {
            Some(s) => s,
            None => &self.shared[i],
        }
    }
}

impl IndexMut<usize> for Sprites {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Sprite {
        match self.own.get_mut(i.wrapping_sub(self.n_shared)) {
            Some(s) => s,
            None => &mut Arc::make_mut(&mut self.shared)[i],
        }
    }
}

impl PartialEq for Sprites {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Sprites {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<Sprite>> for Sprites {
    fn from(v: Vec<Sprite>) -> Self {
        Sprites {
            own: PoolVec::from(v),
            ..Default::default()
        }
    }
}

impl<'a> IntoIterator for &'a Sprites {
    type Item = &'a Sprite;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprite(id: u32, ty: u16) -> Sprite {
        Sprite::plain(id, ty, (id as i32, 0, 1, 1))
    }

    #[test]
    fn shared_sprites_come_first_and_writes_copy_them() {
        let mut a = Sprites::from(
            (0..6)
                .map(|i| sprite(i, (i % 2) as u16))
                .collect::<Vec<_>>(),
        );
        a.share(|s| s.ty == 1);
        let ids: Vec<u32> = a.iter().map(|s| s.id).collect();
        assert_eq!(ids, [1, 3, 5, 0, 2, 4]);
        assert_eq!(a.shared_len(), 3);
        for (k, id) in ids.iter().enumerate() {
            assert_eq!(a.position(*id), Some(k));
        }
        assert_eq!(a.position(9), None);
        assert_eq!(
            a.iter_from(2).map(|s| s.id).collect::<Vec<_>>(),
            [5, 0, 2, 4]
        );
        assert_eq!(a.iter_from(4).map(|s| s.id).collect::<Vec<_>>(), [2, 4]);
        let b = a.clone();
        let mut c = a.clone();
        c[1].x = 100;
        c.push(sprite(6, 0));
        assert_eq!(a[1].x, 3, "a write to a clone leaves the original");
        assert_eq!(b, a);
        assert_ne!(c, a);
        c.retain(|s| s.id != 3 && s.id != 0);
        assert_eq!(c.iter().map(|s| s.id).collect::<Vec<_>>(), [1, 5, 2, 4, 6]);
        assert_eq!(
            (c.shared_len(), c.position(5), c.position(6)),
            (2, Some(1), Some(4))
        );
        assert_eq!(a.len(), 6);
        assert_eq!(a.clone().into_vec().len(), 6);
    }
}
