//! Schedules: which episodes a run plays. A config's `format` key picks a
//! [`Format`]; its [`Schedule`] turns levels, agents and repetitions into
//! [`Episode`]s with their seeds. New tournament formats are new schedules.
//!
//! Seeds are a pure function of the master seed and the episode's index in
//! the plan ([`episode_seed`]), so they do not depend on concurrency or on
//! the order in which episodes finish.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One game to play: a level, a lineup of agents in seats, a seed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Episode {
    /// Position in the plan (seeds derive from it).
    pub index: usize,
    /// Level spec.
    pub level: String,
    /// Repetition number (0-based) of this (lineup, level).
    pub repetition: u32,
    /// `seats[s]` = index into the config's agents of the agent in seat `s`.
    pub seats: Vec<usize>,
    /// The episode's seed.
    pub seed: u64,
}

/// The seed of episode `index` under master seed `master`: independent of
/// concurrency and of the order in which episodes finish.
pub fn episode_seed(master: u64, index: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(master);
    rng.set_stream(index);
    rng.next_u64()
}

/// The seed handed to the agent in `seat` of an episode with seed `episode_seed`.
pub fn agent_seed(episode_seed: u64, seat: usize) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(episode_seed);
    rng.set_stream(seat as u64 + 1);
    rng.next_u64()
}

/// What a schedule plans from.
#[derive(Clone, Copy, Debug)]
pub struct PlanInput<'a> {
    /// Level specs, in config order.
    pub levels: &'a [String],
    /// Number of agents in the config.
    pub agents: usize,
    /// Number of seats of the game.
    pub players: usize,
    /// Repetitions per (lineup, level).
    pub repetitions: u32,
    /// Master seed.
    pub seed: u64,
}

/// A tournament format: the lineups it plays.
pub trait Schedule {
    /// The lineups (agent index per seat) played on every level and repetition.
    fn lineups(&self, agents: usize, players: usize) -> Vec<Vec<usize>>;

    /// The episodes: for every level, every repetition, every lineup; the
    /// index in this order gives the seed.
    fn plan(&self, input: PlanInput<'_>) -> Vec<Episode> {
        let lineups = self.lineups(input.agents, input.players);
        let mut out = Vec::new();
        for level in input.levels {
            for rep in 0..input.repetitions {
                for seats in &lineups {
                    let index = out.len();
                    out.push(Episode {
                        index,
                        level: level.clone(),
                        repetition: rep,
                        seats: seats.clone(),
                        seed: episode_seed(input.seed, index as u64),
                    });
                }
            }
        }
        out
    }
}

/// One-player benchmark: every agent alone on every level.
pub struct Benchmark;

impl Schedule for Benchmark {
    fn lineups(&self, agents: usize, _players: usize) -> Vec<Vec<usize>> {
        (0..agents).map(|a| vec![a]).collect()
    }
}

/// Round robin: every pair of distinct agents, in both seatings.
pub struct RoundRobin;

impl Schedule for RoundRobin {
    fn lineups(&self, agents: usize, _players: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for i in 0..agents {
            for j in i + 1..agents {
                out.push(vec![i, j]);
                out.push(vec![j, i]);
            }
        }
        out
    }
}

/// The config key `format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// `"benchmark"`: one-player games, every agent on every level (default
    /// for one-player games).
    #[default]
    Benchmark,
    /// `"round-robin"`: two-player games, every pair in both seatings
    /// (default for two-player games).
    RoundRobin,
}

impl Format {
    /// The accepted values, for error messages.
    pub const NAMES: &'static str = "\"benchmark\" (one-player games) or \"round-robin\"";

    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Benchmark => "benchmark",
            Format::RoundRobin => "round-robin",
        }
    }

    /// Parse a config value.
    pub fn parse(s: &str) -> Option<Format> {
        [Format::Benchmark, Format::RoundRobin]
            .into_iter()
            .find(|f| f.as_str() == s)
    }

    /// The format a config without `format` plays.
    pub fn default_for(players: usize) -> Format {
        if players <= 1 {
            Format::Benchmark
        } else {
            Format::RoundRobin
        }
    }

    /// Whether the format fits a game of `players` seats (a sentence if not).
    pub fn check(self, players: usize) -> Result<(), String> {
        match (self, players) {
            (Format::Benchmark, 1) | (Format::RoundRobin, 2..) => Ok(()),
            (Format::Benchmark, _) => Err(format!(
                "a benchmark plays one-player games; this game has {players} players (use \"round-robin\")"
            )),
            (Format::RoundRobin, _) => Err(
                "a round robin needs a game of two or more players (use \"benchmark\")".into(),
            ),
        }
    }

    /// The schedule of this format.
    pub fn schedule(self) -> Box<dyn Schedule> {
        match self {
            Format::Benchmark => Box::new(Benchmark),
            Format::RoundRobin => Box::new(RoundRobin),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(levels: &[String], agents: usize, players: usize) -> PlanInput<'_> {
        PlanInput {
            levels,
            agents,
            players,
            repetitions: 2,
            seed: 9,
        }
    }

    #[test]
    fn round_robin_plays_every_pair_in_both_seatings() {
        let levels = vec!["a".to_string()];
        let plan = RoundRobin.plan(input(&levels, 3, 2));
        assert_eq!(plan.len(), 3 * 2 * 2);
        let seats: Vec<_> = plan[..6].iter().map(|e| e.seats.clone()).collect();
        assert_eq!(
            seats,
            [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]].map(|s| s.to_vec())
        );
        assert!(plan.iter().enumerate().all(|(i, e)| e.index == i));
        assert_eq!(plan[7].seed, episode_seed(9, 7));
    }

    #[test]
    fn benchmark_plays_every_agent_on_every_level() {
        let levels = vec!["0".to_string(), "1".to_string()];
        let plan = Benchmark.plan(input(&levels, 2, 1));
        let order: Vec<_> = plan
            .iter()
            .map(|e| (e.level.as_str(), e.repetition, e.seats[0]))
            .collect();
        assert_eq!(
            order,
            [
                ("0", 0, 0),
                ("0", 0, 1),
                ("0", 1, 0),
                ("0", 1, 1),
                ("1", 0, 0),
                ("1", 0, 1),
                ("1", 1, 0),
                ("1", 1, 1)
            ]
        );
    }

    #[test]
    fn formats_check_the_number_of_players() {
        assert!(Format::Benchmark.check(1).is_ok());
        assert!(Format::Benchmark.check(2).is_err());
        assert!(Format::RoundRobin.check(1).is_err());
        assert_eq!(Format::default_for(2), Format::RoundRobin);
        assert_eq!(Format::parse("round-robin"), Some(Format::RoundRobin));
        assert_eq!(Format::parse("swiss"), None);
    }
}
