//! A conformance kit for [`Game`] implementations, for use in tests.
//!
//! [`check_game`] plays seeded random playouts from a start state and checks,
//! in every state it reaches, the contract of [`Game`] that the harness and
//! the search agents rely on:
//!
//! - **legality**: every action `legal_actions` lists is accepted by
//!   `is_legal`, the list has no duplicates, is the same on a second call, and
//!   `legal_actions` appends to its buffer (it does not clear it); actions
//!   *not* listed (actions listed for the other seat or in earlier states of
//!   the playout) are refused by `is_legal`, except a documented unlisted
//!   fallback ([`Fallback::UnlistedNoop`]);
//! - **seats**: a seat that is not active has no legal action and `is_legal`
//!   refuses everything; a seat number `>= num_players()` is never active and
//!   has no legal action; a game that is not over has an active seat;
//! - **the fallback**: `fallback_action(seat)` is the same on a second call
//!   and, for an active seat, legal: listed among the legal actions
//!   ([`Fallback::Listed`]), or accepted by `is_legal` and a no-op
//!   ([`Fallback::UnlistedNoop`]). An active seat with no legal action and no
//!   legal fallback is reported as such (the harness could not play the tick);
//! - **names**: every legal action has a non-empty name and
//!   `parse_action(seat, action_name(a)) == Some(a)` in the state it is legal
//!   in; `parse_action` of junk text does not panic;
//! - **the end**: `is_over()` ⇔ `result(seat) != Ongoing` for every seat; a
//!   finished game has no active seat and no legal action; scores are never
//!   NaN;
//! - **advance**: two clones advanced with the same joint action are equal,
//!   hash equally and agree on tick, end, results, scores and legal actions;
//!   the state they were cloned from is left unchanged (no state shared
//!   between clones); `tick()` grows by exactly one per advance;
//! - **identity**: a clone equals its original and hashes equally, and any
//!   two equal states among the last few of a playout hash equally (random
//!   walks in puzzles revisit positions often).
//!
//! Every violation panics (it is a test kit) with a message naming the
//! playout and seed, the tick, the seat, the action's name and what was
//! violated, followed by the last actions of the playout.
//!
//! In the playouts every active seat plays an action chosen by a policy:
//! [`random_policy`] for [`check_game`] (a uniformly random legal action, or,
//! one time in eight and always when there is no listed legal action, the
//! fallback), or the caller's for [`check_game_with`] (e.g. one that avoids
//! suicidal moves, so that playouts reach later stages of the game).
//! Inactive seats get their fallback, as in the harness.

use crate::api::{Game, PlayerResult, Seat};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::hash_map::DefaultHasher;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

/// How a game's fallback action relates to its legal actions (see each
/// game's [`Game::fallback_action`] docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fallback {
    /// For an active seat the fallback is one of the actions
    /// `legal_actions` lists (Xiangqi, Snake, the supply maze, Connect Four).
    #[default]
    Listed,
    /// For an active seat the fallback is a no-op that `is_legal` accepts
    /// although `legal_actions` does not list it (Bait's NIL, Sokoban's
    /// Wait). The kit checks that advancing with every seat's fallback leaves
    /// a state equal (`==`) to the one before, and that no *other* unlisted
    /// action is legal.
    UnlistedNoop,
}

/// What [`check_game`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KitConfig {
    /// Number of random playouts.
    pub playouts: u32,
    /// The most advances per playout (a playout also stops when the game is
    /// over).
    pub max_ticks: u32,
    /// Seed of the playouts: playout `p` uses a [`StdRng`] seeded from
    /// `seed` and `p`, so a run is reproducible.
    pub seed: u64,
    /// How the game's fallback relates to its legal actions.
    pub fallback: Fallback,
}

impl Default for KitConfig {
    /// 20 playouts of at most 200 ticks, seed 0, [`Fallback::Listed`].
    fn default() -> Self {
        KitConfig {
            playouts: 20,
            max_ticks: 200,
            seed: 0,
            fallback: Fallback::Listed,
        }
    }
}

impl KitConfig {
    /// `playouts` playouts of at most `max_ticks` advances from `seed`, with
    /// [`Fallback::Listed`].
    pub fn new(playouts: u32, max_ticks: u32, seed: u64) -> Self {
        KitConfig {
            playouts,
            max_ticks,
            seed,
            fallback: Fallback::Listed,
        }
    }

    /// The same configuration with `fallback`.
    pub fn with_fallback(self, fallback: Fallback) -> Self {
        KitConfig { fallback, ..self }
    }
}

/// What a successful [`check_game`] run covered, so a test can assert that
/// the playouts went where it wanted (e.g. that some games ended).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KitReport {
    /// Playouts played.
    pub playouts: u32,
    /// States checked (the start of each playout and every state after an
    /// advance).
    pub states: u64,
    /// Advances made, over all playouts.
    pub advances: u64,
    /// Playouts that reached a finished game (the others hit `max_ticks`).
    pub finished: u32,
    /// The most advances made in one playout.
    pub longest: u32,
    /// Pairs of equal states (transpositions) found and checked to hash
    /// equally.
    pub equal_pairs: u64,
}

/// Texts that name no action in any game here; `parse_action` must survive them.
const JUNK: [&str; 7] = [
    "",
    " ",
    "\u{1F600}",
    "zz",
    "-1",
    "99999999999999999999999",
    "a\nb",
];
/// How many recent actions are kept as candidates for `is_legal`.
const POOL: usize = 16;
/// How many recent states are compared for transpositions.
const WINDOW: usize = 24;
/// How many of the last action names a failure message shows.
const TRAIL: usize = 30;

/// Play `cfg.playouts` seeded random playouts from `start` and check the
/// [`Game`] contract in every state (see the [module docs](self)).
///
/// # Panics
/// On the first violation, with a message naming the playout and seed, the
/// tick, the seat, the action and what was violated.
pub fn check_game<G: Game + Hash + Eq>(start: &G, cfg: &KitConfig) -> KitReport {
    check_game_with(start, cfg, random_policy::<G>)
}

/// The playout policy of [`check_game`]: a uniformly random action of
/// `legal_actions(seat)`, or, one time in eight and always when none is
/// listed, `fallback_action(seat)`.
pub fn random_policy<G: Game>(state: &G, seat: Seat, rng: &mut StdRng) -> G::Action {
    let legal = state.legal_actions_vec(seat);
    match legal.choose(rng) {
        Some(&a) if !rng.gen_ratio(1, 8) => a,
        _ => state.fallback_action(seat),
    }
}

/// As [`check_game`], but the active seats play `policy(state, seat, rng)`
/// (which must return a legal action: the kit panics otherwise). A policy
/// may defer to [`random_policy`].
///
/// # Panics
/// On the first violation, as [`check_game`], and when the policy returns
/// an action that `is_legal` refuses.
pub fn check_game_with<G, P>(start: &G, cfg: &KitConfig, mut policy: P) -> KitReport
where
    G: Game + Hash + Eq,
    P: FnMut(&G, Seat, &mut StdRng) -> G::Action,
{
    let mut report = KitReport::default();
    for p in 0..cfg.playouts {
        let seed = cfg
            .seed
            .wrapping_add((p as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut run = Run {
            cfg,
            playout: Some((p, seed)),
            trail: VecDeque::new(),
            pool: Vec::new(),
            rng: StdRng::seed_from_u64(seed),
            num_players: start.num_players(),
        };
        run.playout(start, &mut policy, &mut report);
        report.playouts += 1;
    }
    report
}

/// Check the per-state part of the contract on one state (legality, seats,
/// fallback, names, end, identity of a clone), without playing: for
/// hand-built positions such as a finished game. Only the listed actions
/// and the fallbacks serve as candidates for `is_legal`.
///
/// # Panics
/// On the first violation, as [`check_game`].
pub fn check_state<G: Game + Hash + Eq>(state: &G, cfg: &KitConfig) {
    let mut run = Run {
        cfg,
        playout: None,
        trail: VecDeque::new(),
        pool: Vec::new(),
        rng: StdRng::seed_from_u64(cfg.seed),
        num_players: state.num_players(),
    };
    run.check_state(state);
}

/// The hash of `t` under a fixed (unkeyed) hasher.
fn hash_of<T: Hash>(t: &T) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// Everything about a state that two equal advances must agree on.
#[derive(Debug, PartialEq)]
struct Observed<A> {
    hash: u64,
    tick: u32,
    over: bool,
    results: Vec<PlayerResult>,
    scores: Vec<u64>,
    legal: Vec<Vec<A>>,
}

fn observe<G: Game + Hash>(s: &G, n: usize) -> Observed<G::Action> {
    Observed {
        hash: hash_of(s),
        tick: s.tick(),
        over: s.is_over(),
        results: (0..n).map(|seat| s.result(seat)).collect(),
        // Bits, so that two NaNs compare equal (NaN is reported elsewhere).
        scores: (0..n).map(|seat| s.score(seat).to_bits()).collect(),
        legal: (0..n).map(|seat| s.legal_actions_vec(seat)).collect(),
    }
}

/// One playout's context: what failure messages report.
struct Run<'a, G: Game> {
    cfg: &'a KitConfig,
    playout: Option<(u32, u64)>,
    trail: VecDeque<String>,
    pool: Vec<G::Action>,
    rng: StdRng,
    num_players: usize,
}

impl<G: Game + Hash + Eq> Run<'_, G> {
    /// Panic with the violation `what` at `tick`, `seat`, `action`.
    fn fail(&self, tick: u32, seat: Option<Seat>, action: Option<&str>, what: &str) -> ! {
        let seat = seat.map_or("-".to_string(), |s| s.to_string());
        let action = action.map_or("-".to_string(), |a| format!("`{a}`"));
        let mut msg = format!("testkit: tick {tick}, seat {seat}, action {action}: {what}");
        match self.playout {
            Some((p, seed)) => {
                let _ = write!(
                    msg,
                    "\n  in playout {p} (KitConfig seed {}, rng seed {seed}; ",
                    self.cfg.seed
                );
                if self.trail.is_empty() {
                    msg.push_str("the start state)");
                } else {
                    let skipped = if self.trail.len() == TRAIL {
                        "… "
                    } else {
                        ""
                    };
                    let names: Vec<&str> = self.trail.iter().map(String::as_str).collect();
                    let _ = write!(msg, "last joint actions: {skipped}{})", names.join(" "));
                }
            }
            None => msg.push_str("\n  (check_state)"),
        }
        panic!("{msg}");
    }

    fn check(&self, ok: bool, tick: u32, seat: Option<Seat>, action: Option<&str>, what: &str) {
        if !ok {
            self.fail(tick, seat, action, what);
        }
    }

    fn playout<P>(&mut self, start: &G, policy: &mut P, report: &mut KitReport)
    where
        P: FnMut(&G, Seat, &mut StdRng) -> G::Action,
    {
        let n = self.num_players;
        let mut state = start.clone();
        let mut recent: VecDeque<(G, u64)> = VecDeque::new();
        self.check_state(&state);
        report.states += 1;
        report.equal_pairs += self.check_window(&mut recent, &state);
        let mut advances = 0;
        while !state.is_over() && advances < self.cfg.max_ticks {
            let tick = state.tick();
            let mut joint = Vec::with_capacity(n);
            for seat in 0..n {
                let a = if state.is_active(seat) {
                    let a = policy(&state, seat, &mut self.rng);
                    if !state.is_legal(seat, a) {
                        self.fail(
                            tick,
                            Some(seat),
                            Some(&state.action_name(a)),
                            "the playout policy chose an action that is_legal refuses",
                        );
                    }
                    a
                } else {
                    state.fallback_action(seat)
                };
                joint.push(a);
            }
            let names: Vec<String> = joint.iter().map(|&a| state.action_name(a)).collect();
            let name = names.join("/");
            let next = self.check_advance(&state, &joint, &name);
            self.trail.push_back(name);
            if self.trail.len() > TRAIL {
                self.trail.pop_front();
            }
            state = next;
            advances += 1;
            report.advances += 1;
            if state.tick() != tick.wrapping_add(1) {
                let what = format!(
                    "tick() went from {tick} to {} in one advance (expected {})",
                    state.tick(),
                    tick.wrapping_add(1)
                );
                self.fail(tick, None, Some(self.trail.back().map_or("", |s| s)), &what);
            }
            self.check_state(&state);
            report.states += 1;
            report.equal_pairs += self.check_window(&mut recent, &state);
        }
        if state.is_over() {
            report.finished += 1;
        }
        report.longest = report.longest.max(advances);
    }

    /// Advance two clones of `state` with `joint` and check that they agree
    /// and that `state` is unchanged; return one of them.
    fn check_advance(&self, state: &G, joint: &[G::Action], name: &str) -> G {
        let n = self.num_players;
        let tick = state.tick();
        let before = observe(state, n);
        let mut a = state.clone();
        let mut b = state.clone();
        a.advance(joint);
        b.advance(joint);
        let after = observe(state, n);
        if after != before {
            self.fail(
                tick,
                None,
                Some(name),
                &format!(
                    "advancing a clone changed the original state (clones share state?): \
                     before {before:?}, after {after:?}"
                ),
            );
        }
        if a != b {
            self.fail(
                tick,
                None,
                Some(name),
                &format!(
                    "advance is not deterministic: two clones advanced with the same joint \
                     action differ (==): {a:?} vs {b:?}"
                ),
            );
        }
        let (oa, ob) = (observe(&a, n), observe(&b, n));
        if oa != ob {
            self.fail(
                tick,
                None,
                Some(name),
                &format!(
                    "advance is not deterministic: two clones advanced with the same joint \
                     action are equal but differ in hash, tick, end, results, scores or \
                     legal actions: {oa:?} vs {ob:?}"
                ),
            );
        }
        a
    }

    /// Compare `state` with the recent states; equal ones must hash equally.
    /// Returns the number of equal pairs found.
    fn check_window(&self, recent: &mut VecDeque<(G, u64)>, state: &G) -> u64 {
        let h = hash_of(state);
        let mut pairs = 0;
        for (old, oh) in recent.iter() {
            if old == state {
                pairs += 1;
                if *oh != h {
                    self.fail(
                        state.tick(),
                        None,
                        None,
                        &format!(
                            "Hash and Eq disagree: this state equals (==) the state of tick {} \
                             but hashes differently ({h:#x} vs {oh:#x}): {state:?} vs {old:?}",
                            old.tick()
                        ),
                    );
                }
            }
        }
        if recent.len() == WINDOW {
            recent.pop_front();
        }
        recent.push_back((state.clone(), h));
        pairs
    }

    /// The per-state checks (see the module docs).
    fn check_state(&mut self, s: &G) {
        let n = self.num_players;
        let t = s.tick();
        let chk = |ok: bool, seat: Option<Seat>, action: Option<&str>, what: &str| {
            self.check(ok, t, seat, action, what)
        };
        chk(n >= 1, None, None, "num_players() is 0");
        chk(
            s.num_players() == n,
            None,
            None,
            &format!(
                "num_players() changed from {n} to {} during the game",
                s.num_players()
            ),
        );

        // Identity of a clone.
        let c = s.clone();
        chk(
            c == *s,
            None,
            None,
            "a clone is not equal (==) to its original",
        );
        chk(
            hash_of(&c) == hash_of(s),
            None,
            None,
            "a clone hashes differently from its original",
        );

        // The end.
        let over = s.is_over();
        for seat in 0..n {
            let r = s.result(seat);
            if over == (r == PlayerResult::Ongoing) {
                self.fail(
                    t,
                    Some(seat),
                    None,
                    &format!("is_over() is {over} but result(seat) is {r:?}"),
                );
            }
            chk(
                !s.score(seat).is_nan(),
                Some(seat),
                None,
                "score(seat) is NaN",
            );
        }
        chk(
            over || (0..n).any(|seat| s.is_active(seat)),
            None,
            None,
            "the game is not over but no seat is active",
        );

        // Seats out of range: never active, nothing legal, no panic.
        let fb_out = s.fallback_action(n);
        chk(
            !s.is_active(n),
            Some(n),
            None,
            "a seat number >= num_players() is active",
        );
        chk(
            s.legal_actions_vec(n).is_empty() && !s.is_legal(n, fb_out),
            Some(n),
            None,
            "a seat number >= num_players() has legal actions",
        );

        // Per seat.
        let lists: Vec<Vec<G::Action>> = (0..n).map(|seat| s.legal_actions_vec(seat)).collect();
        for (seat, legal) in lists.iter().enumerate() {
            self.check_seat(s, seat, legal);
        }
        // Feed the pool of candidates: one listed action per seat, and the
        // fallbacks.
        for (seat, legal) in lists.iter().enumerate() {
            if let Some(&a) = legal.choose(&mut self.rng) {
                self.remember(a);
            }
            let fb = s.fallback_action(seat);
            self.remember(fb);
        }
    }

    fn remember(&mut self, a: G::Action) {
        if self.pool.contains(&a) {
            return;
        }
        if self.pool.len() < POOL {
            self.pool.push(a);
        } else {
            let i = self.rng.gen_range(0..POOL);
            self.pool[i] = a;
        }
    }

    fn check_seat(&self, s: &G, seat: Seat, legal: &[G::Action]) {
        let t = s.tick();
        let over = s.is_over();
        let active = s.is_active(seat);
        let fb = s.fallback_action(seat);
        let fb_name = s.action_name(fb);
        let chk = |ok: bool, action: Option<&str>, what: &str| {
            self.check(ok, t, Some(seat), action, what)
        };

        // The list itself.
        chk(
            s.legal_actions_vec(seat) == legal,
            None,
            "legal_actions gives a different list on a second call",
        );
        let mut buf = vec![fb];
        s.legal_actions(seat, &mut buf);
        chk(
            buf.first() == Some(&fb) && buf[1..] == *legal,
            None,
            "legal_actions does not append to its buffer (it cleared or changed what was there)",
        );
        for (i, a) in legal.iter().enumerate() {
            if legal[..i].contains(a) {
                chk(
                    false,
                    Some(&s.action_name(*a)),
                    "legal_actions lists this action twice",
                );
            }
        }
        if over {
            chk(!active, None, "the game is over but the seat is active");
            chk(
                legal.is_empty(),
                Some(&s.action_name(legal.first().copied().unwrap_or(fb))),
                "the game is over but legal_actions lists actions",
            );
        }
        if !active {
            chk(
                legal.is_empty(),
                Some(&s.action_name(legal.first().copied().unwrap_or(fb))),
                "the seat is not active but legal_actions lists actions",
            );
        }

        // Listed actions: legal, named, parsed back.
        for &a in legal {
            let name = s.action_name(a);
            chk(
                s.is_legal(seat, a),
                Some(&name),
                "legal_actions lists this action but is_legal refuses it",
            );
            chk(!name.is_empty(), Some(&name), "action_name is empty");
            let back = s.parse_action(seat, &name);
            if back != Some(a) {
                chk(
                    false,
                    Some(&name),
                    &format!(
                        "parse_action(seat, action_name(a)) gave {back:?} instead of Some({a:?})"
                    ),
                );
            }
        }
        for junk in JUNK {
            let _ = s.parse_action(seat, junk);
        }

        // The fallback.
        chk(
            s.fallback_action(seat) == fb,
            Some(&fb_name),
            "fallback_action gives a different action on a second call",
        );
        let listed = legal.contains(&fb);
        if active {
            if legal.is_empty() && !s.is_legal(seat, fb) {
                chk(
                    false,
                    Some(&fb_name),
                    "the seat is active but has no legal action, and its fallback is not \
                     legal either: the harness cannot play this tick",
                );
            }
            chk(
                s.is_legal(seat, fb),
                Some(&fb_name),
                "fallback_action is not legal (is_legal refuses it) although the seat is active",
            );
            if self.cfg.fallback == Fallback::Listed {
                chk(
                    listed,
                    Some(&fb_name),
                    "fallback_action is not among legal_actions (Fallback::Listed; a game \
                     whose fallback is a documented unlisted no-op uses Fallback::UnlistedNoop)",
                );
            }
            if self.cfg.fallback == Fallback::UnlistedNoop && !listed {
                let back = s.parse_action(seat, &fb_name);
                if back != Some(fb) {
                    chk(
                        false,
                        Some(&fb_name),
                        &format!(
                            "parse_action(seat, action_name(fallback)) gave {back:?} instead \
                             of Some({fb:?})"
                        ),
                    );
                }
                let joint: Vec<G::Action> = (0..self.num_players)
                    .map(|k| s.fallback_action(k))
                    .collect();
                let mut after = s.clone();
                after.advance(&joint);
                chk(
                    after == *s,
                    Some(&fb_name),
                    "the fallback is unlisted (Fallback::UnlistedNoop) but playing it changed \
                     the position (!=)",
                );
            }
        }

        // Candidates: actions seen earlier or for other seats. Listed ones
        // are legal, others are not (but for an unlisted no-op fallback).
        for &c in self.pool.iter().chain(std::iter::once(&fb)) {
            let noop = self.cfg.fallback == Fallback::UnlistedNoop && active && c == fb;
            let want = legal.contains(&c) || noop;
            let got = s.is_legal(seat, c);
            if got != want {
                let what = if got {
                    if active {
                        "is_legal accepts this action but legal_actions does not list it"
                    } else {
                        "is_legal accepts this action but the seat is not active"
                    }
                } else {
                    "is_legal refuses this action but legal_actions lists it"
                };
                chk(false, Some(&s.action_name(c)), what);
            }
        }
    }
}

#[cfg(test)]
mod tests;
