//! `dls`: depth-limited search, re-planned every act, with a heuristic at
//! the frontier (report Task 2).
//!
//! Each act runs an iterative-deepening depth-first search from the current
//! position (depth 1, 2, … up to `depth`, as far as the time allows) and
//! plays the first action of the path to the best leaf of the deepest
//! completed iteration (a win found in an unfinished one counts too). A
//! leaf is a position at the depth limit or where the game ended; its value
//! is [`dls_value`]: win/loss, score, the key bonus, the box-on-key penalty
//! and the walking distance to the key (before it is taken) or the door
//! (after). Within one iteration a position already searched with as much
//! depth left is not searched again (a transposition table of 64-bit keys).
//!
//! Re-planning from scratch every act can walk in circles; as the report's
//! agents do with their list of past states, each leaf loses
//! `revisit` points per earlier visit of that position in the game so far.
//! Ties are broken by seeded noise.

use super::heuristic::{dls_value, MapCache, WalkCosts};
use super::search::Pacer;
use super::table::{Insert, KeyTable};
use games::bait::{Bait, BaitAction};
use games::{Agent, AgentStats, Game, Seat, Timer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The depth-limited search agent.
pub struct Dls {
    max_depth: u32,
    revisit: f64,
    maps: Option<MapCache>,
    table: KeyTable,
    /// Visits of each position in the game so far.
    history: HashMap<u64, u32>,
    rng: ChaCha8Rng,
    expanded: u64,
    pacer: Pacer,
}

/// One iteration's search context.
struct Ctx<'a> {
    timer: &'a dyn Timer,
    pacer: &'a mut Pacer,
    polled: u64,
    interrupted: bool,
    /// Best leaf value and the first action leading to it.
    best: (f64, BaitAction),
    first: BaitAction,
}

impl Dls {
    /// An agent searching at most `max_depth` actions ahead, with `revisit`
    /// points off per earlier visit of a leaf, seeded with `seed`.
    pub fn new(max_depth: u32, revisit: f64, seed: u64) -> Self {
        Dls {
            max_depth: max_depth.max(1),
            revisit,
            maps: None,
            table: KeyTable::new(1 << 20),
            history: HashMap::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            expanded: 0,
            pacer: Pacer::default(),
        }
    }

    fn leaf(&mut self, s: &Bait, depth: u32, ctx: &mut Ctx) {
        let maps = self.maps.as_mut().expect("act made the maps");
        let mut v = dls_value(s, maps, depth);
        if !s.is_over() {
            v -= self.revisit * self.history.get(&s.key()).copied().unwrap_or(0) as f64;
        }
        v += self.rng.gen::<f64>() * 1e-6;
        if v > ctx.best.0 {
            ctx.best = (v, ctx.first);
        }
    }

    /// Search below `s` with `left` actions to go; `depth` taken so far.
    fn dfs(&mut self, s: &Bait, depth: u32, left: u32, ctx: &mut Ctx) {
        if s.is_over() || left == 0 {
            self.leaf(s, depth, ctx);
            return;
        }
        ctx.polled += 1;
        if ctx.polled.is_multiple_of(64) && ctx.pacer.expired(ctx.timer) {
            ctx.interrupted = true;
        }
        if ctx.interrupted {
            return;
        }
        self.expanded += 1;
        for a in BaitAction::MOVES {
            let mut next = s.clone();
            next.advance(&[a]);
            if depth == 0 {
                ctx.first = a;
            }
            if !next.is_over() {
                match self.table.insert(next.key(), left - 1) {
                    Insert::Seen(l) if l >= left - 1 => continue,
                    Insert::Seen(_) => {
                        self.table.set(next.key(), left - 1);
                    }
                    Insert::New | Insert::Full => {}
                }
            }
            self.dfs(&next, depth + 1, left - 1, ctx);
            if ctx.interrupted {
                return;
            }
        }
    }
}

impl Agent<Bait> for Dls {
    fn act(&mut self, state: &Bait, _seat: Seat, timer: &dyn Timer) -> BaitAction {
        if !self
            .maps
            .as_ref()
            .is_some_and(|m| m.geometry().same_level(state))
        {
            self.maps = Some(MapCache::new(state, WalkCosts::default(), 16 << 20));
        }
        *self.history.entry(state.key()).or_insert(0) += 1;
        let mut pacer = self.pacer;
        pacer.start(timer);
        let mut choice = None;
        for limit in 1..=self.max_depth {
            self.table.clear();
            let _ = self.table.insert(state.key(), limit);
            let mut ctx = Ctx {
                timer,
                pacer: &mut pacer,
                polled: 0,
                interrupted: false,
                best: (f64::NEG_INFINITY, BaitAction::Nil),
                first: BaitAction::Nil,
            };
            self.dfs(state, 0, limit, &mut ctx);
            let win = ctx.best.0 > 1e8;
            if (!ctx.interrupted || win) && ctx.best.0 > f64::NEG_INFINITY {
                choice = Some(ctx.best.1);
            }
            if ctx.interrupted || win {
                break;
            }
        }
        self.pacer = pacer;
        choice.unwrap_or(BaitAction::Nil)
    }

    fn stats(&self) -> AgentStats {
        AgentStats {
            expanded: Some(self.expanded),
        }
    }
}
