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
        for i in 0..k {
            if r[i][m] {
                for j in 0..k {
                    if r[m][j] {
                        r[i][j] = true;
                    }
                }
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
mod tests {
    use super::*;
    use crate::stats::elo::score_to_elo;

    fn games(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> Vec<Encounter> {
        let mut v = Vec::new();
        for (n, p) in [(wins, 1.0), (draws, 0.5), (losses, 0.0)] {
            for _ in 0..n {
                v.push(Encounter {
                    a,
                    b,
                    points_a: p,
                    games: 1,
                });
            }
        }
        v
    }

    fn point(agents: usize, enc: &[Encounter], anchor: Anchor) -> Vec<Option<f64>> {
        let opts = BtOptions {
            anchor,
            resamples: 0,
            ..BtOptions::default()
        };
        let fit = bradley_terry(agents, enc, &opts).unwrap();
        assert!(fit.converged);
        fit.ratings.iter().map(|r| r.rating).collect()
    }

    // Two agents: the MLE is the logistic Elo of the score,
    // R_a − R_b = 400·log10(s/(1−s)) = Elo(s); 7 W, 2 D, 3 L: s = 8/12.
    #[test]
    fn two_agents_match_the_logistic_elo() {
        let enc = games(0, 1, 7, 2, 3);
        let r = point(2, &enc, Anchor::Agent(1));
        let want = score_to_elo(8.0 / 12.0);
        assert!((r[0].unwrap() - want).abs() < 1e-4, "{r:?} {want}");
        assert_eq!(r[1], Some(0.0));
        let r = point(2, &enc, Anchor::Mean);
        assert!((r[0].unwrap() + r[1].unwrap()).abs() < 1e-9);
    }

    // Data generated exactly by ratings 0, 100, 300 (expected scores as
    // counts × 1000 games): the MLE recovers them.
    #[test]
    fn recovers_consistent_ratings() {
        let truth = [0.0, 100.0, 300.0];
        let mut enc = Vec::new();
        for i in 0..3 {
            for j in i + 1..3 {
                let p = crate::stats::elo::elo_to_score(truth[i] - truth[j]);
                enc.push(Encounter {
                    a: i,
                    b: j,
                    points_a: 1000.0 * p,
                    games: 1000,
                });
            }
        }
        let r = point(3, &enc, Anchor::Agent(0));
        for i in 0..3 {
            assert!((r[i].unwrap() - truth[i]).abs() < 1e-3, "{r:?}");
        }
    }

    // OpenSpiel evaluation/elo_test.cc, TestMeeplePentathlon (from the VasE
    // paper, arXiv:2312.03121): win matrix {{0,4,2},{1,0,2},{3,3,0}}; the
    // first and last agents have provably equal ratings, the second is
    // below both.
    #[test]
    fn openspiel_meeple_pentathlon() {
        let mut enc = games(0, 1, 4, 0, 1);
        enc.extend(games(0, 2, 2, 0, 3));
        enc.extend(games(1, 2, 2, 0, 3));
        let r: Vec<f64> = point(3, &enc, Anchor::Mean)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert!((r[0] - r[2]).abs() < 1e-4, "{r:?}");
        assert!(r[1] < r[0] && r[1] < r[2]);
    }

    // OpenSpiel elo_test.cc, TestSCOPaperSec41Example (arXiv:2411.00119
    // §4.1): win matrix {{0,5,2},{0,0,2},{3,3,0}}: agent 0 above agent 2,
    // agent 1 below both. Agent 1 never scored against agent 0, but the
    // group stays strongly connected through agent 2.
    #[test]
    fn openspiel_sco_example() {
        let mut enc = games(0, 1, 5, 0, 0);
        enc.extend(games(0, 2, 2, 0, 3));
        enc.extend(games(1, 2, 2, 0, 3));
        let r: Vec<f64> = point(3, &enc, Anchor::Mean)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert!(r.iter().all(|x| x.is_finite()), "{r:?}");
        assert!(r[0] > r[2] && r[1] < r[0] && r[1] < r[2], "{r:?}");
    }

    #[test]
    fn an_agent_that_won_everything_is_plus_infinity() {
        let mut enc = games(0, 1, 5, 0, 0);
        enc.extend(games(0, 2, 5, 0, 0));
        enc.extend(games(1, 2, 6, 0, 4));
        let r = point(3, &enc, Anchor::Mean);
        assert_eq!(r[0], Some(f64::INFINITY));
        let (b, c) = (r[1].unwrap(), r[2].unwrap());
        assert!((b + c).abs() < 1e-9 && (b - c - score_to_elo(0.6)).abs() < 1e-4);
        // Anchored to the winner: nothing else is comparable in finite terms.
        let r = point(3, &enc, Anchor::Agent(0));
        assert_eq!(
            r,
            vec![Some(0.0), Some(f64::NEG_INFINITY), Some(f64::NEG_INFINITY)]
        );
    }

    #[test]
    fn an_agent_that_lost_everything_is_minus_infinity() {
        let mut enc = games(0, 1, 3, 2, 3);
        enc.extend(games(2, 0, 0, 0, 4));
        enc.extend(games(2, 1, 0, 0, 4));
        let r = point(3, &enc, Anchor::Agent(0));
        assert_eq!(r[2], Some(f64::NEG_INFINITY));
        assert!(r[1].unwrap().abs() < 1e-6);
    }

    #[test]
    fn all_draws_are_equal_ratings() {
        let mut enc = games(0, 1, 0, 4, 0);
        enc.extend(games(1, 2, 0, 4, 0));
        let r = point(3, &enc, Anchor::Mean);
        assert!(r.iter().all(|x| x.unwrap().abs() < 1e-6), "{r:?}");
    }

    #[test]
    fn empty_and_unplayed_agents() {
        let fit = bradley_terry(3, &[], &BtOptions::default()).unwrap();
        assert!(fit
            .ratings
            .iter()
            .all(|r| r.rating.is_none() && r.interval.is_none()));
        assert_eq!(fit.resamples, 0);
        // Agent 2 never played.
        let r = point(3, &games(0, 1, 1, 0, 1), Anchor::Mean);
        assert_eq!(r[2], None);
        assert!(r[0].is_some());
        // A single game: the winner is +∞ against the loser.
        let r = point(2, &games(0, 1, 1, 0, 0), Anchor::Agent(1));
        assert_eq!(r, vec![Some(f64::INFINITY), Some(0.0)]);
        // Two separate leagues: the other league has no rating.
        let mut enc = games(0, 1, 2, 0, 1);
        enc.extend(games(2, 3, 2, 1, 0));
        let r = point(4, &enc, Anchor::Agent(0));
        assert_eq!((r[2], r[3]), (None, None));
    }

    #[test]
    fn bad_input_is_an_error() {
        let o = BtOptions::default();
        let e = |a, b, p, g| Encounter {
            a,
            b,
            points_a: p,
            games: g,
        };
        assert!(matches!(
            bradley_terry(2, &[e(0, 2, 1.0, 1)], &o),
            Err(BtError::AgentOutOfRange { .. })
        ));
        assert_eq!(
            bradley_terry(2, &[e(1, 1, 1.0, 1)], &o),
            Err(BtError::SelfPlay(0))
        );
        assert_eq!(
            bradley_terry(2, &[e(0, 1, 2.0, 1)], &o),
            Err(BtError::BadPoints(0))
        );
        assert_eq!(
            bradley_terry(2, &[e(0, 1, f64::NAN, 1)], &o),
            Err(BtError::BadPoints(0))
        );
        let o = BtOptions {
            anchor: Anchor::Agent(5),
            ..o
        };
        assert!(matches!(
            bradley_terry(2, &[], &o),
            Err(BtError::AnchorOutOfRange { .. })
        ));
    }

    #[test]
    fn bootstrap_is_seeded_and_brackets_the_estimate() {
        let mut enc = games(0, 1, 30, 20, 10);
        enc.extend(games(1, 2, 25, 20, 15));
        enc.extend(games(0, 2, 35, 15, 10));
        let opts = BtOptions {
            resamples: 200,
            seed: 7,
            ..BtOptions::default()
        };
        let a = bradley_terry(3, &enc, &opts).unwrap();
        let b = bradley_terry(3, &enc, &opts).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.resamples, 200);
        for r in &a.ratings {
            let (lo, hi) = r.interval.unwrap();
            let x = r.rating.unwrap();
            assert!(lo < x && x < hi, "{r:?}");
            assert!(hi - lo < 300.0, "{r:?}");
        }
        let c = bradley_terry(3, &enc, &BtOptions { seed: 8, ..opts }).unwrap();
        assert_ne!(a.ratings[0].interval, c.ratings[0].interval);
        assert_eq!(a.ratings[0].games, 120);
        assert_eq!(a.ratings[0].points, 30.0 + 10.0 + 35.0 + 7.5);
    }

    // Bootstrap with a perfect winner: its interval is [+∞, +∞]. A
    // resample where agent 1 also beat agent 2 every time is a chain of
    // three single groups; the mean anchor then takes the middle one.
    #[test]
    fn bootstrap_of_a_perfect_winner() {
        let mut enc = games(0, 1, 5, 0, 0);
        enc.extend(games(0, 2, 5, 0, 0));
        enc.extend(games(1, 2, 6, 0, 4));
        let opts = BtOptions {
            resamples: 100,
            ..BtOptions::default()
        };
        let fit = bradley_terry(3, &enc, &opts).unwrap();
        assert_eq!(
            fit.ratings[0].interval,
            Some((f64::INFINITY, f64::INFINITY))
        );
        let chain = [
            games(0, 1, 3, 0, 0),
            games(1, 2, 3, 0, 0),
            games(0, 2, 3, 0, 0),
        ]
        .concat();
        let r = point(3, &chain, Anchor::Mean);
        assert_eq!(
            r,
            vec![Some(f64::INFINITY), Some(0.0), Some(f64::NEG_INFINITY)]
        );
    }
}
