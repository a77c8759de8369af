//! The plain data of a run's plan as a config states it: the tournament
//! [`Format`], [`Openings`] and their [`Order`], and the [`Shard`] of the plan
//! a run plays. What they do (the schedules, picking an opening, which
//! episodes a shard plays) is in [`crate::play::schedule`].

/// A deterministic part of a plan (`--shard K/N`, `K` from 0 to `N - 1`):
/// shard `k` of `n` plays the episodes whose unit ([`Shard::unit`]: the
/// pair, or the episode when unpaired) it is assigned. Whole pairs only, a
/// pure function of the episode, so shards run anywhere agree without
/// talking and together play every episode of the plan exactly once.
///
/// Units are dealt in blocks of `n` consecutive units, each block to all
/// `n` shards in an order rotated by a hash of the block: shard sizes differ
/// by at most one block's worth, and an encounter that recurs every `n`
/// units (a round robin with `n` lineups) is not always on the same shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// This shard, from 0 to `n - 1`.
    pub k: usize,
    /// The number of shards (1 or more).
    pub n: usize,
}

/// The most shards a plan can be split into.
pub const MAX_SHARDS: usize = 100_000;

impl Shard {
    /// The whole plan as one shard (`0/1`).
    pub const WHOLE: Shard = Shard { k: 0, n: 1 };

    /// A shard, checked (`k < n`, `1 <= n <=` [`MAX_SHARDS`]).
    pub fn new(k: usize, n: usize) -> Result<Shard, String> {
        if n == 0 || n > MAX_SHARDS {
            return Err(format!(
                "{k}/{n}: the number of shards N must be 1 to {MAX_SHARDS}"
            ));
        }
        if k >= n {
            return Err(format!(
                "{k}/{n}: K counts from 0, so it must be 0 to {} (Slurm's $SLURM_ARRAY_TASK_ID with --array=0-{})",
                n - 1,
                n - 1
            ));
        }
        Ok(Shard { k, n })
    }

    /// Parse `K/N` (as given to `--shard`).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?}: expected K/N, e.g. 0/4 (shard K of N, K from 0)"))?;
        let num = |x: &str, what: &str| {
            x.trim().parse::<usize>().map_err(|_| {
                format!("{s:?}: {what} is not a whole number (expected K/N, e.g. 0/4)")
            })
        };
        Shard::new(num(k, "K")?, num(n, "N")?)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        Shard::parse(s)
    }
}

/// The order in which openings are used (config key `order`; the idiom of
/// [`crate::names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Round `r` plays opening `r` (modulo their number), file order.
    #[default]
    Sequential,
    /// As `Sequential`, over the openings shuffled by the master seed.
    Random,
}

impl Order {
    /// Every order, in the order error messages list them.
    pub const ALL: &'static [Order] = &[Order::Sequential, Order::Random];

    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            Order::Sequential => "sequential",
            Order::Random => "random",
        }
    }
}

impl std::str::FromStr for Order {
    type Err = crate::names::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(Self::ALL, Self::as_str, s)
    }
}

/// Openings: start positions (level specs) used one per round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    /// The level specs, in file order.
    pub specs: Vec<String>,
    /// How they are used.
    pub order: Order,
    /// Where they came from (for messages).
    pub source: String,
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
    /// `"gauntlet"`: the first `gauntlet_seeds` agents against all others.
    Gauntlet {
        /// Config key `gauntlet_seeds` (default 1).
        seeds: usize,
    },
    /// Not a config value: the format of `arena grade` for two-player
    /// games (see [`Versus`](crate::play::schedule::Versus)).
    Versus {
        /// How many agents are challengers (the submissions).
        challengers: usize,
    },
}

impl std::str::FromStr for Format {
    type Err = crate::names::UnknownName;

    /// A config value (a gauntlet with one seed; see [`Format::Gauntlet`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(Self::ALL, Self::as_str, s)
    }
}

impl Format {
    /// Every config value (a gauntlet with one seed; [`Format::Versus`]
    /// is not one), in the order error messages list them.
    pub const ALL: &'static [Format] = &[
        Format::Benchmark,
        Format::RoundRobin,
        Format::Gauntlet { seeds: 1 },
    ];

    /// The name in configs.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Benchmark => "benchmark",
            Format::RoundRobin => "round-robin",
            Format::Gauntlet { .. } => "gauntlet",
            Format::Versus { .. } => "versus",
        }
    }

    /// The format a config without `format` plays.
    pub fn default_for(players: usize) -> Format {
        if players <= 1 {
            Format::Benchmark
        } else {
            Format::RoundRobin
        }
    }

    /// Whether the format fits a game of `players` seats and `agents`
    /// agents (a sentence if not).
    pub fn check(self, players: usize, agents: usize) -> Result<(), String> {
        match (self, players) {
            (Format::Gauntlet { seeds }, 2..) => {
                if seeds == 0 || seeds >= agents {
                    Err(format!(
                        "a gauntlet needs 1 to {} gauntlet_seeds (the agents that meet all \
                         others) and at least one other agent; this config has {agents} agent(s) \
                         and gauntlet_seeds = {seeds}",
                        agents.saturating_sub(1).max(1)
                    ))
                } else {
                    Ok(())
                }
            }
            (Format::Versus { challengers }, 2..) => {
                if challengers == 0 || challengers >= agents {
                    Err(format!(
                        "submissions against opponents need at least one of each; there are \
                         {challengers} submission(s) and {} opponent(s)",
                        agents.saturating_sub(challengers)
                    ))
                } else {
                    Ok(())
                }
            }
            (Format::Versus { .. }, _) => {
                Err("submissions meet opponents only in games of two or more players".into())
            }
            (Format::Gauntlet { .. }, _) => {
                Err("a gauntlet needs a game of two or more players (use \"benchmark\")".into())
            }
            (Format::Benchmark, 1) | (Format::RoundRobin, 2..) => Ok(()),
            (Format::Benchmark, _) => Err(format!(
                "a benchmark plays one-player games; this game has {players} players (use \"round-robin\")"
            )),
            (Format::RoundRobin, _) => Err(
                "a round robin needs a game of two or more players (use \"benchmark\")".into(),
            ),
        }
    }
}
