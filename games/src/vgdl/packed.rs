//! The rectangles of one side of a pair effect packed into four `i32`
//! columns (left, top, right, bottom edge), so that the sprites of that
//! side overlapping a given sprite are found by one pass the compiler
//! vectorises instead of reading every (88-byte) sprite.
//!
//! [`PackedSide`] keeps one packed side from pair to pair within a cycle
//! while its members stay the same, brought up to date with the moves
//! effects made in between.
//!
//! A query gives the same positions, in the same (increasing) order, as
//! testing GVGAI's `Rectangle.intersects` against every sprite of the side
//! in turn (the only difference: it does not leave out the queried sprite
//! itself). A side whose edges do not fit in `i32` is answered by that
//! plain test (see [`Packed::hits`]).

use super::store::{Sprite, Sprites};

/// The packed rectangles of one side, position by position.
#[derive(Debug, Default)]
pub(crate) struct Packed {
    x0: Vec<i32>,
    y0: Vec<i32>,
    /// Right edge (`x + w`), or `i32::MIN` for an empty rectangle (no
    /// sprite's left edge is below it, so it overlaps nothing).
    x1: Vec<i32>,
    /// Bottom edge (`y + h`).
    y1: Vec<i32>,
    /// Positions whose edges do not fit in `i32`.
    wide: usize,
}

/// A sprite's packed edges, and whether they are exact.
#[inline]
fn edges(s: &Sprite) -> ([i32; 4], bool) {
    let x1 = s.x as i64 + s.w as i64;
    let y1 = s.y as i64 + s.h as i64;
    let fits = x1 <= i32::MAX as i64 && y1 <= i32::MAX as i64;
    let x1 = if s.w > 0 && s.h > 0 {
        x1 as i32
    } else {
        i32::MIN
    };
    ([s.x, s.y, x1, y1 as i32], fits)
}

/// Whether rectangles with packed edges `a` and `b` (left, top, right,
/// bottom) overlap: `Rectangle.intersects` of non-empty rectangles.
#[inline(always)]
fn overlaps(a: [i32; 4], b: [i32; 4]) -> bool {
    (b[0] < a[2]) & (b[1] < a[3]) & (a[0] < b[2]) & (a[1] < b[3])
}

impl Packed {
    /// Packs the rectangles of the sprites `members` of `sprites`.
    pub(crate) fn pack(&mut self, sprites: &Sprites, members: &[usize]) {
        self.x0.clear();
        self.y0.clear();
        self.x1.clear();
        self.y1.clear();
        self.wide = 0;
        for &k in members {
            let ([a, b, c, d], fits) = edges(&sprites[k]);
            self.x0.push(a);
            self.y0.push(b);
            self.x1.push(c);
            self.y1.push(d);
            self.wide += usize::from(!fits);
        }
    }

    /// Packs again the rectangle at position `p`, now `s`'s (a side that
    /// once held edges outside `i32` stays answered by the plain test
    /// until it is packed again).
    #[inline]
    pub(crate) fn update(&mut self, p: usize, s: &Sprite) {
        let ([a, b, c, d], fits) = edges(s);
        self.x0[p] = a;
        self.y0[p] = b;
        self.x1[p] = c;
        self.y1[p] = d;
        self.wide += usize::from(!fits);
    }

    /// Positions of the side's sprites that `a` intersects, increasing,
    /// pushed to `out`; `None` (nothing pushed) when the side or `a` has
    /// edges outside `i32`, for the caller's plain test.
    #[inline]
    pub(crate) fn hits(&self, a: &Sprite, out: &mut Vec<usize>) -> Option<()> {
        if self.wide > 0 {
            return None;
        }
        if a.w <= 0 || a.h <= 0 {
            return Some(());
        }
        let ax1 = i32::try_from(a.x as i64 + a.w as i64).ok()?;
        let ay1 = i32::try_from(a.y as i64 + a.h as i64).ok()?;
        let a_edges = [a.x, a.y, ax1, ay1];
        let n = self.x0.len();
        let (x0, y0, x1, y1) = (&self.x0[..n], &self.y0[..n], &self.x1[..n], &self.y1[..n]);
        // Overlaps are rare: sixteen positions at a time are tested as a
        // whole (a pass the compiler vectorises), and one by one only when
        // one of them overlaps; the last positions one by one.
        const CHUNK: usize = 16;
        let whole = n - n % CHUNK;
        for base in (0..whole).step_by(CHUNK) {
            let cx0: &[i32; CHUNK] = x0[base..base + CHUNK].try_into().expect("a chunk");
            let cy0: &[i32; CHUNK] = y0[base..base + CHUNK].try_into().expect("a chunk");
            let cx1: &[i32; CHUNK] = x1[base..base + CHUNK].try_into().expect("a chunk");
            let cy1: &[i32; CHUNK] = y1[base..base + CHUNK].try_into().expect("a chunk");
            let mut any = false;
            for j in 0..CHUNK {
                any |= overlaps(a_edges, [cx0[j], cy0[j], cx1[j], cy1[j]]);
            }
            if any {
                for j in 0..CHUNK {
                    if overlaps(a_edges, [cx0[j], cy0[j], cx1[j], cy1[j]]) {
                        out.push(base + j);
                    }
                }
            }
        }
        for p in whole..n {
            if overlaps(a_edges, [x0[p], y0[p], x1[p], y1[p]]) {
                out.push(p);
            }
        }
        Some(())
    }
}

/// The packed second side of the pair effects of one `eventHandling`: its
/// type and members, kept from pair to pair while they stay the same.
#[derive(Debug, Default)]
pub(crate) struct PackedSide {
    rects: Packed,
    /// Its sprites (indices), in position order.
    members: Vec<usize>,
    /// The type whose members these are (`None`: nothing packed yet).
    of: Option<u16>,
    /// How many of the cycle's moves (`State::moved`) the rectangles show.
    seen: usize,
    /// Per sprite index, its position in `members` (`u32::MAX`: none);
    /// filled at the first move after packing.
    pos: Vec<u32>,
    pos_ready: bool,
}

impl PackedSide {
    /// Forgets the side (a new cycle).
    pub(crate) fn forget(&mut self) {
        self.of = None;
    }

    /// Makes this the side of type `ty` with the sprites `members` (which
    /// it may take, leaving other indices behind), packing them unless it
    /// already was; `moved` is the cycle's moves so far.
    pub(crate) fn use_side(
        &mut self,
        ty: u16,
        members: &mut Vec<usize>,
        sprites: &Sprites,
        moved: &[u32],
    ) {
        if self.of == Some(ty) && *members == self.members {
            return;
        }
        std::mem::swap(members, &mut self.members);
        self.rects.pack(sprites, &self.members);
        self.of = Some(ty);
        self.pos_ready = false;
        self.seen = moved.len();
    }

    /// Brings the rectangles up to date with the cycle's moves `moved`
    /// (sprite indices; `u32::MAX`: every sprite may have moved).
    #[inline]
    pub(crate) fn catch_up(&mut self, sprites: &Sprites, moved: &[u32]) {
        let Some(new) = moved.get(self.seen..).filter(|m| !m.is_empty()) else {
            return;
        };
        self.seen = moved.len();
        if new.contains(&u32::MAX) {
            self.rects.pack(sprites, &self.members);
            return;
        }
        if !self.pos_ready {
            self.pos.clear();
            self.pos.resize(sprites.len(), u32::MAX);
            for (p, &k) in self.members.iter().enumerate() {
                self.pos[k] = p as u32;
            }
            self.pos_ready = true;
        }
        for &m in new {
            // A sprite not in `members` (another type's, or added since
            // packing) is not searched.
            if let Some(&p) = self.pos.get(m as usize).filter(|&&p| p != u32::MAX) {
                self.rects.update(p as usize, &sprites[m as usize]);
            }
        }
    }

    /// The sprites of the side other than `s1` that `a` (sprite `s1`)
    /// overlaps, in the side's order, pushed to `out`.
    #[inline]
    pub(crate) fn hits(&self, sprites: &Sprites, s1: usize, out: &mut Vec<usize>) {
        let a = &sprites[s1];
        match self.rects.hits(a, out) {
            Some(()) => out.retain_mut(|p| {
                *p = self.members[*p];
                *p != s1
            }),
            None => out.extend(
                self.members
                    .iter()
                    .copied()
                    .filter(|&s2| s2 != s1 && a.intersects(&sprites[s2])),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vgdl::rng::JavaRandom;

    fn sprite(id: u32, rect: (i32, i32, i32, i32)) -> Sprite {
        Sprite::plain(id, 0, rect)
    }

    /// A rectangle near a small grid, sometimes empty, sometimes at the
    /// edge of `i32`.
    fn rect(rng: &mut JavaRandom) -> (i32, i32, i32, i32) {
        let mut r = (
            rng.next_int_bound(60) - 10,
            rng.next_int_bound(60) - 10,
            rng.next_int_bound(25) - 2,
            rng.next_int_bound(25) - 2,
        );
        match rng.next_int_bound(40) {
            0 => r.0 = i32::MAX - rng.next_int_bound(20),
            1 => r.1 = i32::MIN + rng.next_int_bound(20),
            _ => {}
        }
        r
    }

    /// The side's sprites other than `s1` that it intersects, by
    /// `Rectangle.intersects` one by one.
    fn plain(sprites: &Sprites, side: &[usize], s1: usize) -> Vec<usize> {
        side.iter()
            .copied()
            .filter(|&s2| s2 != s1 && sprites[s1].intersects(&sprites[s2]))
            .collect()
    }

    #[test]
    fn hits_are_the_plain_tests_hits_as_sprites_move() {
        let mut rng = JavaRandom::new(11);
        for round in 0..200 {
            let n = 1 + rng.next_int_bound(70) as usize;
            let mut all: Vec<Sprite> = (0..n as u32).map(|i| sprite(i, rect(&mut rng))).collect();
            let mut sprites = Sprites::from(all.clone());
            let mut side: Vec<usize> = (0..n).filter(|k| (k + round) % 3 != 0).collect();
            let want_members = side.clone();
            let mut packed = PackedSide::default();
            let mut moved: Vec<u32> = Vec::new();
            packed.use_side(0, &mut side, &sprites, &moved);
            let mut got = Vec::new();
            for step in 0..30 {
                // Move some sprites (of the side or not), as effects do.
                for _ in 0..rng.next_int_bound(4) {
                    let k = rng.next_int_bound(n as i32) as usize;
                    all[k] = sprite(k as u32, rect(&mut rng));
                    sprites[k] = all[k];
                    moved.push(k as u32);
                }
                if step % 10 == 9 {
                    moved.push(u32::MAX);
                }
                packed.catch_up(&sprites, &moved);
                for s1 in 0..n {
                    got.clear();
                    packed.hits(&sprites, s1, &mut got);
                    assert_eq!(
                        got,
                        plain(&sprites, &want_members, s1),
                        "round {round}, step {step}, sprite {s1}"
                    );
                }
            }
        }
    }
}
