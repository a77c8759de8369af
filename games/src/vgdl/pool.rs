//! Buffers recycled between states on one thread: the sprite vector, the
//! per-type index and the `eventHandling` scratch of a dropped state go to
//! a small per-thread pool, and a clone takes its buffers from there. A
//! search that clones a state and drops another each step so allocates
//! nothing in the steady state (a fresh allocation of a large sprite vector
//! costs page faults when the allocator has returned the memory to the
//! system in between).

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

/// At most this many spare buffers of each kind are kept per thread.
const KEEP: usize = 4;
/// Vectors longer than this are freed, not kept.
const KEEP_MAX_SPRITES: usize = 1 << 16;

/// Takes a spare value from `pool` (or `None`).
fn take<T>(pool: &'static std::thread::LocalKey<RefCell<Vec<T>>>) -> Option<T> {
    pool.try_with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop()))
        .ok()
        .flatten()
}

/// Gives `v` back to `pool` unless it is full (then `v` is dropped).
fn give<T>(pool: &'static std::thread::LocalKey<RefCell<Vec<T>>>, v: T) {
    let rest = pool.try_with(|p| match p.try_borrow_mut() {
        Ok(mut p) if p.len() < KEEP => {
            p.push(v);
            None
        }
        _ => Some(v),
    });
    // `rest` (a full pool, or the thread ending) is dropped here.
    drop(rest);
}

/// An element type of a [`PoolVec`]: its per-thread pool of spare vectors.
pub trait Spare: Clone + 'static {
    /// The pool of spare vectors.
    fn spares() -> &'static std::thread::LocalKey<RefCell<Vec<Vec<Self>>>>;
}

/// A `Vec<T>` (through `Deref`) whose clone reuses a spare buffer of `T`'s
/// pool and whose drop gives its buffer back: the sprites of a state
/// ([`super::Sprites`]).
#[derive(Debug, PartialEq)]
pub struct PoolVec<T: Spare>(Vec<T>);

impl<T: Spare> Default for PoolVec<T> {
    fn default() -> Self {
        PoolVec(Vec::new())
    }
}

impl<T: Spare> PoolVec<T> {
    /// The elements as a plain vector.
    pub fn into_vec(mut self) -> Vec<T> {
        std::mem::take(&mut self.0)
    }
}

impl<T: Spare> From<Vec<T>> for PoolVec<T> {
    fn from(v: Vec<T>) -> Self {
        PoolVec(v)
    }
}

impl<T: Spare> Deref for PoolVec<T> {
    type Target = Vec<T>;
    #[inline]
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: Spare> DerefMut for PoolVec<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<'a, T: Spare> IntoIterator for &'a PoolVec<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, T: Spare> IntoIterator for &'a mut PoolVec<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

impl<T: Spare> Clone for PoolVec<T> {
    fn clone(&self) -> Self {
        let mut v = take(T::spares()).unwrap_or_default();
        v.clear();
        v.extend_from_slice(&self.0);
        PoolVec(v)
    }
}

impl<T: Spare> Drop for PoolVec<T> {
    fn drop(&mut self) {
        if self.0.capacity() > 0 && self.0.capacity() <= KEEP_MAX_SPRITES {
            give(T::spares(), std::mem::take(&mut self.0));
        }
    }
}

/// A value whose buffers a clone of its owner may reuse: what a clone
/// copies into a spare one, and the per-thread pool of spares.
pub(crate) trait Recycle: Default + Sized + 'static {
    /// The pool of spares.
    fn pool() -> &'static std::thread::LocalKey<RefCell<Vec<Self>>>;
    /// Makes `into` (a spare, contents stale) a clone of `self`.
    fn copy_into(&self, into: &mut Self);
    /// Whether a spare is worth keeping (it holds allocated buffers).
    fn worth_keeping(&self) -> bool;
}

/// A `T` whose clone takes a spare from `T`'s pool and whose drop gives it
/// back.
#[derive(Debug, Default)]
pub(crate) struct Pooled<T: Recycle>(T);

impl<T: Recycle> Deref for Pooled<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Recycle> DerefMut for Pooled<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T: Recycle> Clone for Pooled<T> {
    fn clone(&self) -> Self {
        let mut v = take(T::pool()).unwrap_or_default();
        self.0.copy_into(&mut v);
        Pooled(v)
    }
}

impl<T: Recycle> Drop for Pooled<T> {
    fn drop(&mut self) {
        if self.0.worth_keeping() {
            give(T::pool(), std::mem::take(&mut self.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::vgdl::rng::JavaRandom;
    use crate::vgdl::{Vgdl, VgdlGame};
    use crate::Game;

    /// Plays `game` twice with the same actions: once in place, once as a
    /// chain of clones (each step advancing a clone of the last state while
    /// other states are dropped, so that clones get recycled buffers with
    /// stale contents); the traces must stay equal at every step.
    fn clones_play_as_the_original(game: &str, level: &str, seed: i64) {
        let start = Vgdl::parse(game).unwrap().level(level, seed).unwrap();
        let actions = start.avatar_actions();
        let mut rnd = JavaRandom::new(seed);
        let mut plain = start.clone();
        let mut cur = start.clone();
        let mut spare: Vec<VgdlGame> = Vec::new();
        for step in 0..300 {
            let a = actions[rnd.next_int_bound(actions.len() as i32) as usize];
            plain.advance(&[a]);
            let mut next = cur.clone();
            // Keep a few old states alive and drop others, in turn.
            spare.push(std::mem::replace(&mut cur, start.clone()));
            if step % 3 == 0 {
                spare.clear();
            }
            next.advance(&[a]);
            assert_eq!(plain.trace(), next.trace(), "step {step}");
            assert_eq!(plain.state.sprites, next.state.sprites, "step {step}");
            if plain.is_over() {
                break;
            }
            cur = next;
        }
    }

    #[test]
    fn clones_with_recycled_buffers_play_as_the_original() {
        let games = [
            (
                "aliens",
                include_str!("../../data/gvgai/gridphysics/aliens.txt"),
                include_str!("../../data/gvgai/gridphysics/aliens_lvl0.txt"),
            ),
            (
                "garbagecollector",
                include_str!("../../data/gvgai/gridphysics/garbagecollector.txt"),
                include_str!("../../data/gvgai/gridphysics/garbagecollector_lvl0.txt"),
            ),
            (
                "boulderdash",
                include_str!("../../data/gvgai/gridphysics/boulderdash.txt"),
                include_str!("../../data/gvgai/gridphysics/boulderdash_lvl1.txt"),
            ),
        ];
        for (_name, game, level) in games {
            for seed in 0..3 {
                clones_play_as_the_original(game, level, seed);
            }
        }
    }
}
