//! Schedules: which episodes a run plays. A config's `format` key picks a
//! [`Format`]; its [`Schedule`] turns levels, agents and repetitions into
//! [`Episode`]s with their seeds. New tournament formats are new schedules.
//!
//! Seeds are a pure function of the master seed and the episode's index in
//! the plan ([`episode_seed`]), so they do not depend on concurrency or on
//! the order in which episodes finish.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use crate::config::format::{Format, Openings, Order, Shard, MAX_SHARDS};

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
    /// The episode's seed (the level's, e.g. Snake's map, and the agents'
    /// derive from it): the two games of a pair share it.
    pub seed: u64,
    /// The pair this game belongs to (the same start played with the seats
    /// swapped), for paired two-player formats.
    #[serde(default)]
    pub pair: Option<usize>,
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

// Which episodes a shard plays (the type is config's, `config/format.rs`).
impl Shard {
    /// The unit of sharding of `episode`: its pair, or itself when unpaired
    /// (the two games of a pair are never split).
    pub fn unit(episode: &Episode) -> u64 {
        match episode.pair {
            Some(p) => p as u64,
            None => episode.index as u64,
        }
    }

    /// The shard (0 to `n - 1`) that plays `episode` among `n` shards.
    pub fn of(episode: &Episode, n: usize) -> usize {
        let n = n.max(1) as u64;
        let u = Shard::unit(episode);
        let rotation = splitmix64(u / n) % n;
        ((u % n + rotation) % n) as usize
    }

    /// Whether this shard plays `episode`.
    pub fn selects(&self, episode: &Episode) -> bool {
        Shard::of(episode, self.n) == self.k
    }

    /// This shard's part of `plan` (indices unchanged).
    pub fn part(&self, plan: &[Episode]) -> Vec<Episode> {
        plan.iter().filter(|e| self.selects(e)).cloned().collect()
    }
}

/// SplitMix64's finalizer: a fixed, platform-independent mix.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

// Picking an opening (the type is config's, `config/format.rs`).
impl Openings {
    /// The opening of round `round` under master seed `seed`.
    pub fn pick(&self, round: u32, seed: u64) -> &str {
        let n = self.specs.len().max(1);
        let i = round as usize % n;
        match self.order {
            Order::Sequential => &self.specs[i],
            Order::Random => {
                // Fisher-Yates over the indices, seeded by the master seed.
                let mut idx: Vec<usize> = (0..n).collect();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(u64::MAX);
                for k in (1..n).rev() {
                    let j = (rng.next_u64() % (k as u64 + 1)) as usize;
                    idx.swap(k, j);
                }
                &self.specs[idx[i]]
            }
        }
    }
}

/// What a schedule plans from.
#[derive(Clone, Copy, Debug)]
pub struct PlanInput<'a> {
    /// Level specs, in config order (unused when there are openings).
    pub levels: &'a [String],
    /// Openings, one per round (replace `levels`).
    pub openings: Option<&'a Openings>,
    /// Whether the two games of an encounter form a pair (the same start
    /// and seed, seats swapped).
    pub pairs: bool,
    /// Number of agents in the config.
    pub agents: usize,
    /// Number of seats of the game.
    pub players: usize,
    /// Repetitions per (lineup, level).
    pub repetitions: u32,
    /// Master seed.
    pub seed: u64,
}

impl<'a> PlanInput<'a> {
    /// What `cfg`'s schedule plans from, for a game of `players` seats.
    pub fn from_config(cfg: &'a crate::config::RunConfig, players: usize) -> PlanInput<'a> {
        PlanInput {
            levels: &cfg.levels,
            openings: cfg.openings.as_ref(),
            pairs: cfg.pairs,
            agents: cfg.agents.len(),
            players,
            repetitions: cfg.repetitions,
            seed: cfg.seed,
        }
    }
}

/// A tournament format: the lineups it plays.
pub trait Schedule {
    /// The lineups (agent index per seat) played on every level and
    /// repetition. Two-player schedules list each encounter's two seatings
    /// one after the other (`[a, b]`, then `[b, a]`): with pairs on, those
    /// two games are a pair.
    fn lineups(&self, agents: usize, players: usize) -> Vec<Vec<usize>>;

    /// The episodes: for every level (or, with openings, every round's
    /// opening), every repetition, every lineup. Unpaired, an episode's
    /// seed derives from its index in this order; paired, from the pair's
    /// index, the same for both games.
    fn plan(&self, input: PlanInput<'_>) -> Vec<Episode> {
        let lineups = self.lineups(input.agents, input.players);
        let paired = input.pairs && input.players == 2 && lineups.len().is_multiple_of(2);
        let rounds: Vec<(String, u32)> = match input.openings {
            Some(op) => (0..input.repetitions)
                .map(|r| (op.pick(r, input.seed).to_string(), r))
                .collect(),
            None => input
                .levels
                .iter()
                .flat_map(|l| (0..input.repetitions).map(move |r| (l.clone(), r)))
                .collect(),
        };
        let mut out = Vec::new();
        let mut pairs = 0usize;
        for (level, rep) in rounds {
            for (k, seats) in lineups.iter().enumerate() {
                let index = out.len();
                let (seed, pair) = if paired {
                    if k % 2 == 0 {
                        pairs += 1;
                    }
                    let p = pairs - 1;
                    (episode_seed(input.seed, PAIR_STREAM | p as u64), Some(p))
                } else {
                    (episode_seed(input.seed, index as u64), None)
                };
                out.push(Episode {
                    index,
                    level: level.clone(),
                    repetition: rep,
                    seats: seats.clone(),
                    seed,
                    pair,
                });
            }
        }
        out
    }
}

/// The seed stream of pairs (apart from the per-episode streams).
const PAIR_STREAM: u64 = 1 << 63;

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

/// Gauntlet: the first `seeds` agents (e.g. a student's) each meet every
/// other agent, in both seatings; the others do not meet each other.
pub struct Gauntlet {
    /// How many agents run the gauntlet.
    pub seeds: usize,
}

impl Schedule for Gauntlet {
    fn lineups(&self, agents: usize, _players: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for s in 0..self.seeds.min(agents) {
            for o in 0..agents {
                if o == s || (o < self.seeds && o < s) {
                    continue; // seeds meet each other once
                }
                out.push(vec![s, o]);
                out.push(vec![o, s]);
            }
        }
        out
    }
}

/// Challengers against a field (what `arena grade` plays): the first
/// `challengers` agents (the students' submissions) each meet every later
/// agent (the assignment's opponents), in both seatings; challengers never
/// meet each other, nor do the opponents.
pub struct Versus {
    /// How many agents are challengers.
    pub challengers: usize,
}

impl Schedule for Versus {
    fn lineups(&self, agents: usize, _players: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for s in 0..self.challengers.min(agents) {
            for o in self.challengers..agents {
                out.push(vec![s, o]);
                out.push(vec![o, s]);
            }
        }
        out
    }
}

// A format's schedule (the type is config's, `config/format.rs`).
impl Format {
    /// The schedule of this format.
    pub fn schedule(self) -> Box<dyn Schedule> {
        match self {
            Format::Benchmark => Box::new(Benchmark),
            Format::RoundRobin => Box::new(RoundRobin),
            Format::Gauntlet { seeds } => Box::new(Gauntlet { seeds }),
            Format::Versus { challengers } => Box::new(Versus { challengers }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versus_challengers_meet_only_the_field() {
        let l = Versus { challengers: 2 }.lineups(4, 2);
        assert_eq!(
            l,
            vec![
                vec![0, 2],
                vec![2, 0],
                vec![0, 3],
                vec![3, 0],
                vec![1, 2],
                vec![2, 1],
                vec![1, 3],
                vec![3, 1]
            ]
        );
        assert!(Format::Versus { challengers: 4 }.check(2, 4).is_err());
        assert!(Format::Versus { challengers: 3 }.check(2, 4).is_ok());
        assert_eq!("versus".parse::<Format>().ok(), None);
    }

    fn input(levels: &[String], agents: usize, players: usize) -> PlanInput<'_> {
        PlanInput {
            levels,
            openings: None,
            pairs: false,
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
        assert!(Format::Benchmark.check(1, 3).is_ok());
        assert!(Format::Benchmark.check(2, 3).is_err());
        assert!(Format::RoundRobin.check(1, 3).is_err());
        assert!(Format::Gauntlet { seeds: 1 }.check(2, 3).is_ok());
        let e = Format::Gauntlet { seeds: 1 }.check(2, 1).unwrap_err();
        assert!(e.contains("this config has 1 agent(s)"), "{e}");
        assert!(Format::Gauntlet { seeds: 3 }.check(2, 3).is_err());
        assert_eq!(Format::default_for(2), Format::RoundRobin);
        assert_eq!(
            "round-robin".parse::<Format>().ok(),
            Some(Format::RoundRobin)
        );
        assert_eq!("swiss".parse::<Format>().ok(), None);
    }

    #[test]
    fn a_gauntlet_pits_its_seeds_against_everyone_else() {
        let l = Gauntlet { seeds: 1 }.lineups(4, 2);
        assert_eq!(
            l,
            [[0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0]].map(|s| s.to_vec())
        );
        let l = Gauntlet { seeds: 2 }.lineups(3, 2);
        // Seeds 0 and 1 meet once (as a pair), and each meets agent 2.
        assert_eq!(
            l,
            [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]].map(|s| s.to_vec())
        );
    }

    #[test]
    fn paired_games_share_their_start_and_seed_and_swap_seats() {
        let levels = vec!["map".to_string()];
        let mut i = input(&levels, 3, 2);
        i.pairs = true;
        let plan = RoundRobin.plan(i);
        assert_eq!(plan.len(), 12);
        for two in plan.chunks(2) {
            assert_eq!(two[0].seed, two[1].seed);
            assert_eq!(two[0].pair, two[1].pair);
            assert_eq!(two[0].level, two[1].level);
            assert_eq!(two[0].seats, [two[1].seats[1], two[1].seats[0]]);
        }
        assert_ne!(plan[0].seed, plan[2].seed);
        assert_eq!(plan[11].pair, Some(5));
        // The same plan whatever the concurrency: a pure function of the input.
        assert_eq!(plan, RoundRobin.plan(i));
    }

    #[test]
    fn openings_give_each_round_its_start() {
        let op = Openings {
            specs: vec!["a".into(), "b".into(), "c".into()],
            order: Order::Sequential,
            source: "book".into(),
        };
        let mut i = input(&[], 2, 2);
        i.openings = Some(&op);
        i.repetitions = 4;
        i.pairs = true;
        let plan = RoundRobin.plan(i);
        let levels: Vec<&str> = plan.iter().map(|e| e.level.as_str()).collect();
        assert_eq!(levels, ["a", "a", "b", "b", "c", "c", "a", "a"]);
        let random = Openings {
            order: Order::Random,
            ..op.clone()
        };
        let mut picked: Vec<&str> = (0..3).map(|r| random.pick(r, 5)).collect();
        picked.sort();
        assert_eq!(picked, ["a", "b", "c"], "a permutation");
        assert_eq!(random.pick(1, 5), random.pick(1, 5));
    }

    #[test]
    fn shards_split_a_plan_into_whole_pairs_exactly_once() {
        let levels = vec!["a".to_string(), "b".to_string()];
        let mut i = input(&levels, 4, 2);
        i.pairs = true;
        i.repetitions = 5;
        let plan = RoundRobin.plan(i);
        for n in [1, 2, 3, 4, 7, 100] {
            let mut owner = vec![None; plan.len()];
            let mut sizes = Vec::new();
            for k in 0..n {
                let part = Shard::new(k, n).unwrap().part(&plan);
                sizes.push(part.len());
                for e in &part {
                    assert!(
                        owner[e.index].replace(k).is_none(),
                        "episode {} twice",
                        e.index
                    );
                }
            }
            assert!(
                owner.iter().all(Option::is_some),
                "n = {n}: every episode once"
            );
            for two in plan.chunks(2) {
                assert_eq!(owner[two[0].index], owner[two[1].index], "a pair is whole");
            }
            let pairs = plan.len() / 2;
            if n <= pairs {
                let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(hi - lo <= 2, "n = {n}: balanced, {sizes:?}");
            }
        }
        // A pure function of the episode: the same on every machine.
        assert_eq!(Shard::of(&plan[10], 4), Shard::of(&plan[11], 4));
        let owners: Vec<usize> = plan.iter().map(|e| Shard::of(e, 4)).collect();
        assert_eq!(
            owners,
            plan.iter().map(|e| Shard::of(e, 4)).collect::<Vec<_>>()
        );
        // Unpaired episodes are units of their own.
        let unpaired = RoundRobin.plan(input(&levels, 3, 2));
        let n0 = Shard::new(0, 3).unwrap().part(&unpaired).len();
        assert!((unpaired.len() / 3 - 1..=unpaired.len() / 3 + 1).contains(&n0));
    }

    #[test]
    fn shard_specs_parse_and_are_checked() {
        assert_eq!(Shard::parse("0/4"), Ok(Shard { k: 0, n: 4 }));
        assert_eq!(Shard::parse(" 3/4").unwrap().to_string(), "3/4");
        let e = Shard::parse("4/4").unwrap_err();
        assert!(e.contains("K counts from 0"), "{e}");
        assert!(Shard::parse("1/0").unwrap_err().contains("must be 1 to"));
        assert!(Shard::parse("1").unwrap_err().contains("expected K/N"));
        assert!(Shard::parse("a/2")
            .unwrap_err()
            .contains("K is not a whole number"));
        assert!(Shard::parse("-1/2").is_err());
    }
}
