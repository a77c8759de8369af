//! Built-in agents for GVGAI's Bait.

use crate::params::{unknown_agent, AgentError, AgentInfo, AgentParams};
use games::bait::{Bait, BaitAction, BaitObject};
use games::{Agent, Game, Seat, Timer};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The built-in Bait agents.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        description: "uniform over the legal moves (GVGAI's sampleRandom), seeded",
        params: &[],
    },
    AgentInfo {
        name: "onesteplookahead",
        description: "GVGAI's sample: try each move on a copy, keep the best heuristic value",
        params: &[],
    },
];

/// Build the Bait agent `name` with `params`, seeded with `seed`.
pub fn make(
    name: &str,
    params: &AgentParams,
    seed: u64,
) -> Result<Box<dyn Agent<Bait>>, AgentError> {
    match name {
        "random" => {
            params.check_keys(name, &[])?;
            Ok(Box::new(RandomAgent::new(seed)))
        }
        "onesteplookahead" => {
            params.check_keys(name, &[])?;
            Ok(Box::new(OneStepLookahead::new(seed)))
        }
        _ => Err(unknown_agent("bait", name, AGENTS)),
    }
}

/// Uniformly random legal moves, from a seeded RNG (generic over games).
#[derive(Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn act(&mut self, state: &G, seat: Seat, _timer: &dyn Timer) -> G::Action {
        let moves = state.legal_actions_vec(seat);
        match moves.choose(&mut self.rng) {
            Some(&a) => a,
            None => state.fallback_action(seat),
        }
    }
}

/// The heuristic value of a Bait state in the spirit of GVGAI's
/// `SimpleStateHeuristic`: a win is worth everything, a loss nothing, and
/// otherwise the score, plus a bonus for holding the key, minus the distance
/// to what the avatar needs next (the key, then the door).
pub fn simple_heuristic(s: &Bait) -> f64 {
    if s.is_over() {
        return if s.won() { 1e9 } else { -1e9 };
    }
    let (ac, ar) = s.avatar();
    let targets = if s.has_key() {
        s.cells_of(BaitObject::Goal)
    } else {
        s.cells_of(BaitObject::Key)
    };
    let dist = targets
        .iter()
        .map(|&(c, r)| c.abs_diff(ac) + r.abs_diff(ar))
        .min()
        .unwrap_or(0) as f64;
    let key_bonus = if s.has_key() { 50.0 } else { 0.0 };
    s.score(0) * 100.0 + key_bonus - dist
}

/// GVGAI's `sampleonesteplookahead`: advance a copy with each move and keep
/// the move whose successor has the best [`simple_heuristic`] value (ties
/// broken by a little seeded noise).
#[derive(Debug)]
pub struct OneStepLookahead {
    rng: ChaCha8Rng,
}

impl OneStepLookahead {
    /// A one-step-lookahead agent seeded with `seed` (for tie-breaking).
    pub fn new(seed: u64) -> Self {
        OneStepLookahead {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent<Bait> for OneStepLookahead {
    fn act(&mut self, state: &Bait, _seat: Seat, _timer: &dyn Timer) -> BaitAction {
        use rand::Rng;
        let mut best = (f64::NEG_INFINITY, BaitAction::Nil);
        for a in BaitAction::MOVES {
            let mut next = state.clone();
            next.advance(&[a]);
            let v = simple_heuristic(&next) + self.rng.gen::<f64>() * 1e-6;
            if v > best.0 {
                best = (v, a);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::UnlimitedTimer;

    #[test]
    fn random_is_reproducible_from_its_seed() {
        let s = Bait::level(2).unwrap();
        let run = |seed| {
            let mut a = make("random", &AgentParams::new(), seed).unwrap();
            let mut st = s.clone();
            let mut names = Vec::new();
            for _ in 0..20 {
                let act = a.act(&st, 0, &UnlimitedTimer);
                names.push(act);
                st.advance(&[act]);
            }
            names
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }

    #[test]
    fn lookahead_takes_the_key_next_to_it() {
        let s = Bait::parse("wwwww\nwAkgw\nwwwww").unwrap();
        let mut a = OneStepLookahead::new(1);
        assert_eq!(a.act(&s, 0, &UnlimitedTimer), BaitAction::Right);
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let e = make("alphago", &AgentParams::new(), 0).err().unwrap();
        assert!(e
            .to_string()
            .contains("valid agents: random, onesteplookahead"));
    }
}
