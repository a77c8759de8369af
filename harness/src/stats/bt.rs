//! Bradley–Terry ratings of any number of agents at once: the maximum
//! likelihood fit by Hunter's MM algorithm (as OpenSpiel's
//! `evaluation/elo.cc`), draws counting as half a win each, in Elo units
//! (`R = 400·log10 γ`), with 95 % intervals by a seeded bootstrap.
//!
//! # Agents that won or lost everything
//!
//! The maximum likelihood estimate is finite only when the "took points
//! from" graph (an edge `i → j` when `i` scored against `j`) is strongly
//! connected (Hunter 2004, assumption 1). Otherwise no fit is clamped or
//! smoothed; the ratings are the limit of the likelihood's supremum:
//!
//! - the *reference group* is the strongly connected group of the anchor
//!   agent ([`Anchor::Agent`]; an anchor without games leaves every rating
//!   `None`), or for [`Anchor::Mean`] the largest group (ties: the most
//!   central one, with the numbers of agents above and below it closest;
//!   then the one holding the lowest agent index);
//! - agents of the reference group get finite ratings, fit on the games
//!   among themselves and anchored (the group's mean, or the anchor, is 0);
//! - an agent from which a chain of "took points from" reaches the group
//!   (it dominates it) is rated `+∞`, one reached from the group `−∞`;
//! - an agent with no games, or not comparable with the group at all, has
//!   no rating (`None`).
//!
//! So in a round robin where one agent won every game, that agent is `+∞`
//! and the others keep finite ratings among themselves.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A unit of results between two agents: one game, or one game pair
/// (`games` = 2). Bootstrap resamples whole units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encounter {
    /// Index of the first agent.
    pub a: usize,
    /// Index of the second agent.
    pub b: usize,
    /// Points of `a` (win 1, draw ½), between 0 and `games`.
    pub points_a: f64,
    /// Games in the unit.
    pub games: u32,
}

/// What the ratings are relative to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Anchor {
    /// The mean rating of the reference group is 0.
    #[default]
    Mean,
    /// This agent's rating is 0.
    Agent(usize),
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BtOptions {
    /// What the ratings are relative to.
    pub anchor: Anchor,
    /// Bootstrap resamples for the intervals (0: no intervals).
    pub resamples: usize,
    /// Seed of the bootstrap (the same seed, the same intervals).
    pub seed: u64,
    /// Most MM iterations per fit.
    pub max_iterations: usize,
    /// Convergence: largest rating change in one iteration, in Elo.
    pub tolerance: f64,
}

/// Bootstrap resamples by default.
pub const DEFAULT_RESAMPLES: usize = 1000;

impl Default for BtOptions {
    /// Mean anchor, [`DEFAULT_RESAMPLES`] resamples, seed 0, 100 000
    /// iterations, tolerance 1e-6 Elo.
    fn default() -> Self {
        BtOptions {
            anchor: Anchor::Mean,
            resamples: DEFAULT_RESAMPLES,
            seed: 0,
            max_iterations: 100_000,
            tolerance: 1e-6,
        }
    }
}

/// Bad input to [`bradley_terry`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BtError {
    /// An encounter names an agent index out of range.
    #[error("encounter {index}: agent index out of range (there are {agents} agents)")]
    AgentOutOfRange {
        /// Position of the encounter in the input.
        index: usize,
        /// Number of agents.
        agents: usize,
    },
    /// An encounter of an agent with itself.
    #[error("encounter {0}: an agent cannot play itself")]
    SelfPlay(usize),
    /// Points outside `[0, games]` or not finite.
    #[error("encounter {0}: points must be between 0 and the number of games")]
    BadPoints(usize),
    /// The anchor agent does not exist.
    #[error("anchor agent {anchor} out of range (there are {agents} agents)")]
    AnchorOutOfRange {
        /// The anchor index.
        anchor: usize,
        /// Number of agents.
        agents: usize,
    },
}

/// One agent's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BtRating {
    /// Rating in Elo relative to the anchor; `±∞` for an agent that
    /// dominates or is dominated by the reference group; `None` when not
    /// identifiable (see the module doc).
    pub rating: Option<f64>,
    /// 2.5 % and 97.5 % bootstrap percentiles (nearest rank) of the
    /// rating over the resamples where it is identifiable; `None` without
    /// resamples or when it never is. Ends may be infinite.
    pub interval: Option<(f64, f64)>,
    /// Points scored (wins + draws/2).
    pub points: f64,
    /// Games played.
    pub games: u64,
}

/// The fit.
#[derive(Clone, Debug, PartialEq)]
pub struct BtFit {
    /// One rating per agent, by index.
    pub ratings: Vec<BtRating>,
    /// Whether the point fit converged within the iteration limit.
    pub converged: bool,
    /// Resamples the intervals are from.
    pub resamples: usize,
}

/// Points (`s[i][j]`: points of `i` against `j`) and games.
struct Tables {
    s: Vec<Vec<f64>>,
    n: Vec<Vec<f64>>,
}

fn tables(agents: usize, encounters: &[Encounter]) -> Tables {
    let mut s = vec![vec![0.0; agents]; agents];
    let mut n = vec![vec![0.0; agents]; agents];
    for e in encounters {
        let g = f64::from(e.games);
        s[e.a][e.b] += e.points_a;
        s[e.b][e.a] += g - e.points_a;
        n[e.a][e.b] += g;
        n[e.b][e.a] += g;
    }
    Tables { s, n }
}

/// `reach[i][j]`: a chain of "took points from" leads from `i` to `j`.
fn reachability(t: &Tables) -> Vec<Vec<bool>> {
    let k = t.s.len();
    let mut r: Vec<Vec<bool>> = (0..k)
        .map(|i| (0..k).map(|j| i == j || t.s[i][j] > 0.0).collect())
        .collect();
    for m in 0..k {
        let via = r[m].clone();
        for row in r.iter_mut().filter(|row| row[m]) {
            for (x, &v) in row.iter_mut().zip(&via) {
                *x |= v;
            }
        }
    }
    r
}

/// MM fit of the agents in `group` on the games among them; ratings in
/// Elo with mean 0 over the group, by agent index (others 0), and whether
/// it converged.
fn mm_fit(t: &Tables, group: &[usize], opts: &BtOptions) -> (Vec<f64>, bool) {
    let k = t.s.len();
    let mut log_gamma = vec![0.0f64; k];
    if group.len() < 2 {
        return (log_gamma, true);
    }
    let wins: Vec<f64> = (0..k)
        .map(|i| group.iter().map(|&j| t.s[i][j]).sum())
        .collect();
    let mut converged = false;
    for _ in 0..opts.max_iterations {
        let mut next = log_gamma.clone();
        for &i in group {
            let gi = log_gamma[i].exp();
            let denom: f64 = group
                .iter()
                .filter(|&&j| j != i && t.n[i][j] > 0.0)
                .map(|&j| t.n[i][j] / (gi + log_gamma[j].exp()))
                .sum();
            if wins[i] > 0.0 && denom > 0.0 {
                next[i] = (wins[i] / denom).ln();
            }
        }
        let mean = group.iter().map(|&i| next[i]).sum::<f64>() / group.len() as f64;
        let mut change = 0.0f64;
        for &i in group {
            next[i] -= mean;
            change = change.max((next[i] - log_gamma[i]).abs());
        }
        log_gamma = next;
        if !change.is_finite() {
            break;
        }
        if change * 400.0 / std::f64::consts::LN_10 < opts.tolerance {
            converged = true;
            break;
        }
    }
    let ratings = log_gamma
        .iter()
        .map(|g| g * 400.0 / std::f64::consts::LN_10)
        .collect();
    (ratings, converged)
}

/// The point ratings (no intervals) and whether the fit converged.
fn point_fit(
    agents: usize,
    encounters: &[Encounter],
    opts: &BtOptions,
) -> (Vec<Option<f64>>, bool) {
    let t = tables(agents, encounters);
    let active: Vec<bool> = (0..agents)
        .map(|i| t.n[i].iter().any(|&g| g > 0.0))
        .collect();
    let reach = reachability(&t);
    let group_of = |i: usize| -> Vec<usize> {
        (0..agents)
            .filter(|&j| active[j] && reach[i][j] && reach[j][i])
            .collect()
    };
    let reference: Vec<usize> = match opts.anchor {
        Anchor::Agent(a) if active.get(a).copied().unwrap_or(false) => group_of(a),
        Anchor::Agent(_) => Vec::new(),
        Anchor::Mean => {
            // The largest group; among equally large ones the most central:
            // agents above it and below it closest in number.
            let imbalance = |g: &[usize]| {
                let r = g[0];
                let above = (0..agents)
                    .filter(|&j| active[j] && reach[j][r] && !reach[r][j])
                    .count();
                let below = (0..agents)
                    .filter(|&j| active[j] && reach[r][j] && !reach[j][r])
                    .count();
                above.abs_diff(below)
            };
            let mut best: Vec<usize> = Vec::new();
            for i in (0..agents).filter(|&i| active[i]) {
                let g = group_of(i);
                if g[0] != i {
                    continue; // each group once, from its lowest index
                }
                if g.len() > best.len()
                    || (g.len() == best.len() && imbalance(&g) < imbalance(&best))
                {
                    best = g;
                }
            }
            best
        }
    };
    let Some(&r) = reference.first() else {
        return (vec![None; agents], true);
    };
    let (fit, converged) = mm_fit(&t, &reference, opts);
    let offset = match opts.anchor {
        Anchor::Agent(a) => fit[a],
        Anchor::Mean => 0.0,
    };
    let ratings = (0..agents)
        .map(|i| {
            if !active[i] {
                None
            } else if reference.contains(&i) {
                Some(fit[i] - offset)
            } else if reach[i][r] {
                Some(f64::INFINITY)
            } else if reach[r][i] {
                Some(f64::NEG_INFINITY)
            } else {
                None
            }
        })
        .collect();
    (ratings, converged)
}

fn check(agents: usize, encounters: &[Encounter], opts: &BtOptions) -> Result<(), BtError> {
    for (index, e) in encounters.iter().enumerate() {
        if e.a >= agents || e.b >= agents {
            return Err(BtError::AgentOutOfRange { index, agents });
        }
        if e.a == e.b {
            return Err(BtError::SelfPlay(index));
        }
        if !(e.points_a.is_finite() && e.points_a >= 0.0 && e.points_a <= f64::from(e.games)) {
            return Err(BtError::BadPoints(index));
        }
    }
    if let Anchor::Agent(anchor) = opts.anchor {
        if anchor >= agents {
            return Err(BtError::AnchorOutOfRange { anchor, agents });
        }
    }
    Ok(())
}

/// Nearest-rank percentile `q` (0–1) of sorted `xs` (not empty).
fn nearest_rank(xs: &[f64], q: f64) -> f64 {
    let rank = (q * xs.len() as f64).ceil().max(1.0) as usize;
    xs[rank.min(xs.len()) - 1]
}

/// Bradley–Terry ratings of `agents` agents (indices `0..agents`) from
/// `encounters`, with bootstrap intervals: each resample draws, for every
/// pair of agents that met, as many of their encounters as they had, with
/// replacement (so the schedule is kept), from a ChaCha8 generator seeded
/// with `opts.seed`. Encounters with `games = 0` are ignored.
///
/// No encounters: every rating `None`. See the module doc for agents that
/// won or lost everything.
pub fn bradley_terry(
    agents: usize,
    encounters: &[Encounter],
    opts: &BtOptions,
) -> Result<BtFit, BtError> {
    check(agents, encounters, opts)?;
    let encounters: Vec<Encounter> = encounters.iter().copied().filter(|e| e.games > 0).collect();
    let (point, converged) = point_fit(agents, &encounters, opts);

    // Encounters grouped by unordered pair of agents, for the bootstrap.
    let mut groups: Vec<((usize, usize), Vec<Encounter>)> = Vec::new();
    for e in &encounters {
        let key = (e.a.min(e.b), e.a.max(e.b));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(*e),
            None => groups.push((key, vec![*e])),
        }
    }
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); agents];
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut resample = Vec::with_capacity(encounters.len());
    let resamples = if encounters.is_empty() {
        0
    } else {
        opts.resamples
    };
    for _ in 0..resamples {
        resample.clear();
        for (_, group) in &groups {
            for _ in 0..group.len() {
                resample.push(group[rng.gen_range(0..group.len())]);
            }
        }
        let (r, _) = point_fit(agents, &resample, opts);
        for (i, x) in r.into_iter().enumerate() {
            if let Some(x) = x {
                samples[i].push(x);
            }
        }
    }

    let t = tables(agents, &encounters);
    let ratings = (0..agents)
        .map(|i| {
            let xs = &mut samples[i];
            xs.sort_by(|a, b| a.total_cmp(b));
            BtRating {
                rating: point[i],
                interval: (!xs.is_empty())
                    .then(|| (nearest_rank(xs, 0.025), nearest_rank(xs, 0.975))),
                points: t.s[i].iter().sum(),
                games: t.n[i].iter().sum::<f64>() as u64,
            }
        })
        .collect();
    Ok(BtFit {
        ratings,
        converged,
        resamples,
    })
}

#[cfg(test)]
mod tests;
