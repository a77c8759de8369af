//! A cell index of one side of a pair effect: which of its sprites cover
//! which cell (of `block` pixels), so that the sprites that may overlap a
//! given sprite are found without scanning the whole side.
//!
//! Built by a counting sort into one bucket per cell of the screen grid;
//! sprites that reach outside the grid go to one extra list that every
//! query returns. Where the grid has many more cells than the side has
//! sprites, the index is a sorted (cell, position) list instead. Either way
//! a query gives the positions (in the side) of every sprite sharing a cell
//! with the queried one, increasing and without repeats.

/// What the index reads of a game state: the sprites' rectangles, the
/// block size and the screen size, in pixels. The engine's state
/// implements it.
pub(crate) trait Rects {
    /// Sprite `k`'s rectangle: `(x, y, w, h)`.
    fn rect(&self, k: usize) -> (i32, i32, i32, i32);
    /// The cell size.
    fn block(&self) -> i32;
    /// The screen's width and height.
    fn screen(&self) -> (i32, i32);
}

/// The cell index of one side (positions are indices into that side).
#[derive(Debug, Default)]
pub(crate) struct CellIndex {
    /// Division by the block size.
    div: Option<FloorDiv>,
    /// Grid width and height in cells (0 when the sorted list is used).
    gw: i64,
    gh: i64,
    /// Per cell, the start of its positions in `items` (`gw * gh + 1`).
    start: Vec<u32>,
    items: Vec<u32>,
    /// Positions of sprites that reach outside the grid.
    outside: Vec<u32>,
    /// The sorted (cell key, position) list of large grids.
    sorted: Vec<(u64, u32)>,
    /// Scratch: (cell, position) pairs while building.
    pairs: Vec<(u32, u32)>,
}

/// Buffers `eventHandling` reuses from cycle to cycle (not part of the
/// state: a clone gets spare ones, contents stale).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) cells: CellIndex,
    pub(crate) firstx: Vec<usize>,
    pub(crate) secondx: Vec<usize>,
    pub(crate) hits: Vec<usize>,
    /// Per sprite index, its position in the indexed second side.
    pub(crate) pos_of: Vec<u32>,
    /// Positions of second-side sprites moved since the index was built.
    pub(crate) extra: Vec<usize>,
    /// The second side `cells` indexes (its sprites, in its order).
    pub(crate) indexed: Vec<usize>,
    /// The packed rectangles of a second side.
    pub(crate) packed: super::packed::PackedSide,
    /// The sprites of one type a cycle updates (`tick_sprites`).
    pub(crate) members: Vec<usize>,
    /// The ids of the sprites killed in a cycle (`clear_all`).
    pub(crate) dead: Vec<u32>,
    /// The ids the surviving sprites target (`clear_all`).
    pub(crate) targets: Vec<u32>,
}

/// Floor division by a fixed positive divisor: a multiply and a shift for
/// `0 <= x < 2^23` (exact there: `m = floor(2^40 / b) + 1` exceeds
/// `2^40 / b` by `e / b` with `0 < e <= b < 2^17`, so the error `x * e / 2^40`
/// stays below `1 / b`), `div_euclid` elsewhere.
#[derive(Clone, Copy, Debug)]
struct FloorDiv {
    b: i64,
    /// The multiplier (0: always `div_euclid`).
    m: u64,
}

impl FloorDiv {
    fn new(b: i64) -> FloorDiv {
        let b = b.max(1);
        let m = if b < 1 << 17 {
            (1u64 << 40) / b as u64 + 1
        } else {
            0
        };
        FloorDiv { b, m }
    }

    #[inline]
    fn div(self, x: i64) -> i64 {
        if self.m != 0 && (0..1 << 23).contains(&x) {
            ((x as u64 * self.m) >> 40) as i64
        } else {
            x.div_euclid(self.b)
        }
    }
}

/// The cells a sprite's rectangle covers: `(x0, y0, x1, y1)` inclusive.
#[inline]
fn span(st: &impl Rects, d: FloorDiv, k: usize) -> (i64, i64, i64, i64) {
    let (x, y, w, h) = st.rect(k);
    let (x0, y0) = (d.div(x as i64), d.div(y as i64));
    let x1 = d.div(x as i64 + w.max(1) as i64 - 1);
    let y1 = d.div(y as i64 + h.max(1) as i64 - 1);
    (x0, y0, x1, y1)
}

#[inline]
fn key(x: i64, y: i64) -> u64 {
    ((x as u64 & 0xFFFF_FFFF) << 32) | (y as u64 & 0xFFFF_FFFF)
}

impl CellIndex {
    /// Indexes the sprites `side` of `st`.
    pub(crate) fn build(&mut self, st: &impl Rects, side: &[usize]) {
        let b = st.block().max(1) as i64;
        let d = FloorDiv::new(b);
        self.div = Some(d);
        let gw = (st.screen().0 as i64 + b - 1).div_euclid(b).max(0);
        let gh = (st.screen().1 as i64 + b - 1).div_euclid(b).max(0);
        self.outside.clear();
        self.sorted.clear();
        if gw * gh > 16 * side.len() as i64 + 4096 {
            self.gw = 0;
            self.gh = 0;
            for (p, &k) in side.iter().enumerate() {
                let (x0, y0, x1, y1) = span(st, d, k);
                for x in x0..=x1 {
                    for y in y0..=y1 {
                        self.sorted.push((key(x, y), p as u32));
                    }
                }
            }
            self.sorted.sort_unstable();
            return;
        }
        self.gw = gw;
        self.gh = gh;
        let n = (gw * gh) as usize;
        self.start.clear();
        self.start.resize(n + 1, 0);
        self.pairs.clear();
        for (p, &k) in side.iter().enumerate() {
            let (x0, y0, x1, y1) = span(st, d, k);
            if x0 < 0 || y0 < 0 || x1 >= gw || y1 >= gh {
                self.outside.push(p as u32);
                continue;
            }
            for x in x0..=x1 {
                for y in y0..=y1 {
                    let c = (y * gw + x) as u32;
                    self.pairs.push((c, p as u32));
                    self.start[c as usize + 1] += 1;
                }
            }
        }
        for c in 0..n {
            self.start[c + 1] += self.start[c];
        }
        self.items.clear();
        self.items.resize(self.pairs.len(), 0);
        // Positions were pushed in increasing order, so each bucket stays
        // increasing.
        let mut next = std::mem::take(&mut self.pairs);
        for &(c, p) in &next {
            let slot = &mut self.start[c as usize];
            self.items[*slot as usize] = p;
            *slot += 1;
        }
        // `start[c]` now holds the end of bucket `c`: shift back.
        for c in (1..=n).rev() {
            self.start[c] = self.start[c - 1];
        }
        self.start[0] = 0;
        next.clear();
        self.pairs = next;
    }

    /// Positions (in the indexed side, increasing, no repeats) of the
    /// sprites sharing a cell with sprite `k` of `st` (and, on a grid, of
    /// every sprite reaching outside it).
    pub(crate) fn candidates(&self, st: &impl Rects, k: usize, out: &mut Vec<usize>) {
        out.clear();
        let d = self.div.unwrap_or_else(|| FloorDiv::new(st.block() as i64));
        let (x0, y0, x1, y1) = span(st, d, k);
        if self.gw == 0 {
            for x in x0..=x1 {
                for y in y0..=y1 {
                    let c = key(x, y);
                    let a = self.sorted.partition_point(|e| e.0 < c);
                    out.extend(
                        self.sorted[a..]
                            .iter()
                            .take_while(|e| e.0 == c)
                            .map(|e| e.1 as usize),
                    );
                }
            }
        } else {
            let mut cells = 0;
            for x in x0.max(0)..=x1.min(self.gw - 1) {
                for y in y0.max(0)..=y1.min(self.gh - 1) {
                    let c = (y * self.gw + x) as usize;
                    let (a, b) = (self.start[c] as usize, self.start[c + 1] as usize);
                    out.extend(self.items[a..b].iter().map(|&p| p as usize));
                    cells += 1;
                }
            }
            if cells == 1 && self.outside.is_empty() {
                return;
            }
            out.extend(self.outside.iter().map(|&p| p as usize));
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// A state's [`Scratch`], boxed so that moving it (into and out of a
/// state, and of the pool) copies a pointer; `None` until first used.
#[derive(Debug, Default)]
pub(crate) struct ScratchBox(Option<Box<Scratch>>);

impl ScratchBox {
    /// The scratch, leaving `None` (a new one if there was none).
    #[inline]
    pub(crate) fn take(&mut self) -> Box<Scratch> {
        self.0.take().unwrap_or_default()
    }

    /// Puts the scratch back.
    #[inline]
    pub(crate) fn put(&mut self, s: Box<Scratch>) {
        self.0 = Some(s);
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Vec<ScratchBox>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl super::pool::Recycle for ScratchBox {
    fn pool() -> &'static std::thread::LocalKey<std::cell::RefCell<Vec<Self>>> {
        &SCRATCH
    }
    fn copy_into(&self, _into: &mut Self) {}
    fn worth_keeping(&self) -> bool {
        self.0.as_ref().is_some_and(|s| s.firstx.capacity() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vgdl::rng::JavaRandom;
    use crate::vgdl::Vgdl;

    const GAME: &str = "BasicGame\n  SpriteSet\n    box > Passive\n  LevelMapping\n    b > box\n  InteractionSet\n    box box > stepBack\n  TerminationSet\n    Timeout limit=10 win=True\n";

    /// Brute force: positions of the sprites of `side` sharing a cell with
    /// sprite `k`.
    fn sharing(st: &crate::vgdl::engine::State, side: &[usize], k: usize) -> Vec<usize> {
        let span = |k: usize| {
            let s = &st.sprites[k];
            let b = st.block.max(1) as i64;
            let (x, y) = (s.x as i64, s.y as i64);
            let (w, h) = (s.w.max(1) as i64, s.h.max(1) as i64);
            (
                x.div_euclid(b),
                y.div_euclid(b),
                (x + w - 1).div_euclid(b),
                (y + h - 1).div_euclid(b),
            )
        };
        let (a0, b0, a1, b1) = span(k);
        (0..side.len())
            .filter(|&p| {
                let (x0, y0, x1, y1) = span(side[p]);
                x0 <= a1 && a0 <= x1 && y0 <= b1 && b0 <= y1
            })
            .collect()
    }

    #[test]
    fn floor_div_equals_div_euclid() {
        let mut rng = JavaRandom::new(3);
        let edges = [
            0i64,
            1,
            (1 << 23) - 1,
            1 << 23,
            -1,
            -(1 << 23),
            i32::MAX as i64,
        ];
        for b in (1..=2000).chain([4095, 4096, 65535, 1 << 16, (1 << 17) - 1, 1 << 17, 1 << 20]) {
            let d = FloorDiv::new(b);
            let near = (0..4).flat_map(|k| [k * b - 1, k * b, k * b + 1]);
            let far = (0..200).map(|_| rng.next_int_bound(1 << 24) as i64 - (1 << 22));
            for x in edges.iter().copied().chain(near).chain(far) {
                assert_eq!(d.div(x), x.div_euclid(b), "{x} / {b}");
            }
        }
        // Every numerator in range for the largest multiplier errors.
        for b in [(1 << 17) - 1, 799, 800] {
            let d = FloorDiv::new(b);
            for x in ((1 << 23) - 4 * b)..(1 << 23) {
                assert_eq!(d.div(x), x.div_euclid(b), "{x} / {b}");
            }
        }
    }

    #[test]
    fn candidates_include_every_sprite_sharing_a_cell_in_order() {
        let v = Vgdl::parse(GAME).unwrap();
        // A small grid, a long one, and a large sparse one (sorted list).
        let sparse = format!("{}\n", "b".repeat(30) + &" ".repeat(70)).repeat(1)
            + &format!("{}\n", " ".repeat(100)).repeat(99);
        for (level, n) in [
            ("bbbbbb\nbbbbbb\nbbbbbb", 18),
            (&*"b".repeat(600), 600),
            (&*sparse, 30),
        ] {
            let mut st = v.level(level, 0).unwrap().state;
            assert_eq!(st.sprites.len(), n);
            let mut rng = JavaRandom::new(7);
            let b = st.block;
            for round in 0..20 {
                for s in st.sprites.iter_mut() {
                    s.x = rng.next_int_bound(st.screen.0 + 4 * b) - 2 * b;
                    s.y = rng.next_int_bound(st.screen.1 + 4 * b) - 2 * b;
                    s.w = 1 + rng.next_int_bound(2 * b);
                    s.h = 1 + rng.next_int_bound(2 * b);
                }
                let side: Vec<usize> = (0..st.sprites.len())
                    .filter(|k| k % 3 != round % 3)
                    .collect();
                let mut idx = CellIndex::default();
                idx.build(&st, &side);
                let mut got = Vec::new();
                for k in 0..st.sprites.len() {
                    idx.candidates(&st, k, &mut got);
                    let want = sharing(&st, &side, k);
                    assert!(got.windows(2).all(|w| w[0] < w[1]), "not increasing");
                    assert!(
                        want.iter().all(|p| got.contains(p)),
                        "{want:?} not in {got:?}"
                    );
                }
            }
        }
    }
}
